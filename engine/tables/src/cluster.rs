//! The ranks of a build: the [`Cluster`] a build runs on (MPI in the
//! `mancala` binary with `--features mpi`; [`ThreadCluster`], threads in
//! one process, for tests; [`Solo`], one machine), how a layer is dealt
//! to them ([`Layout`]) and how they agree on failing ([`agree`]). The
//! builder itself is `build.rs`'s, the same for every number of ranks
//! (docs/tablebases.md, "On a cluster").

use std::sync::{Arc, Barrier, Mutex, PoisonError};

use super::TablebaseError;

/// The processes of a cluster build, as the builder needs them: every rank
/// makes the same calls in the same order (they are collective).
pub trait Cluster {
    /// This process's number, `0..ranks()`.
    fn rank(&self) -> usize;
    /// How many processes take part.
    fn ranks(&self) -> usize;
    /// Sends rank `i` the next `counts[i]` bytes of `send` (rank by rank,
    /// this one's own included), puts what every rank sent this one into
    /// `recv`, in rank order, and returns how many bytes came from each.
    /// `recv` may hold more bytes after them; its buffer is reused.
    fn exchange(&self, send: &[u8], counts: &[usize], recv: &mut Vec<u8>) -> Vec<usize>;
    /// The sum of `x` over every rank, returned to every rank.
    fn sum(&self, x: u64) -> u64;
    /// [`exchange`](Cluster::exchange) of one message a rank: sends
    /// `send[i]` to rank `i` and returns the messages every rank sent to
    /// this one, in rank order.
    fn all_to_all(&self, send: Vec<Vec<u8>>) -> Vec<Vec<u8>> {
        let counts: Vec<usize> = send.iter().map(Vec::len).collect();
        let mut recv = Vec::new();
        let got = self.exchange(&send.concat(), &counts, &mut recv);
        messages(&recv, &got).map(<[u8]>::to_vec).collect()
    }
}

/// The consecutive messages of `counts[i]` bytes each at the start of
/// `bytes`.
fn messages<'a>(bytes: &'a [u8], counts: &'a [usize]) -> impl Iterator<Item = &'a [u8]> + 'a {
    let mut rest = bytes;
    counts.iter().map(move |&n| {
        let (m, tail) = rest.split_at(n);
        rest = tail;
        m
    })
}

/// A cluster of threads in one process, sharing memory: the transport of
/// the tests, which run the cluster's code without MPI.
pub struct ThreadCluster {
    rank: usize,
    shared: Arc<Shared>,
}

struct Shared {
    ranks: usize,
    barrier: Barrier,
    /// `mail[from][to]`: the message of the exchange under way.
    mail: Mutex<Vec<Vec<Vec<u8>>>>,
    sums: Mutex<Vec<u64>>,
}

impl ThreadCluster {
    /// The `ranks` members of a new cluster (give each to its own thread).
    pub fn new(ranks: usize) -> Vec<ThreadCluster> {
        assert!(ranks > 0, "a cluster has at least one rank");
        let shared = Arc::new(Shared {
            ranks,
            barrier: Barrier::new(ranks),
            mail: Mutex::new(vec![Vec::new(); ranks]),
            sums: Mutex::new(vec![0; ranks]),
        });
        (0..ranks)
            .map(|rank| ThreadCluster {
                rank,
                shared: Arc::clone(&shared),
            })
            .collect()
    }
}

impl Cluster for ThreadCluster {
    fn rank(&self) -> usize {
        self.rank
    }

    fn ranks(&self) -> usize {
        self.shared.ranks
    }

    fn exchange(&self, send: &[u8], counts: &[usize], recv: &mut Vec<u8>) -> Vec<usize> {
        assert_eq!(counts.len(), self.shared.ranks, "one count a rank");
        let mail = || {
            self.shared
                .mail
                .lock()
                .unwrap_or_else(PoisonError::into_inner)
        };
        mail()[self.rank] = messages(send, counts).map(<[u8]>::to_vec).collect();
        self.shared.barrier.wait();
        recv.clear();
        let got = {
            let mail = mail();
            (0..self.shared.ranks)
                .map(|from| {
                    let m = &mail[from][self.rank];
                    recv.extend_from_slice(m);
                    m.len()
                })
                .collect()
        };
        // Nobody writes the next exchange's mail before all have read.
        self.shared.barrier.wait();
        got
    }

    fn sum(&self, x: u64) -> u64 {
        let sums = || {
            self.shared
                .sums
                .lock()
                .unwrap_or_else(PoisonError::into_inner)
        };
        sums()[self.rank] = x;
        self.shared.barrier.wait();
        let total = sums().iter().sum();
        self.shared.barrier.wait();
        total
    }
}

/// One machine: a cluster of one rank, with nobody to exchange with.
pub struct Solo;

impl Cluster for Solo {
    fn rank(&self) -> usize {
        0
    }

    fn ranks(&self) -> usize {
        1
    }

    fn exchange(&self, send: &[u8], counts: &[usize], recv: &mut Vec<u8>) -> Vec<usize> {
        assert_eq!(counts, [send.len()], "one rank sends itself everything");
        recv.clear();
        recv.extend_from_slice(send);
        counts.to_vec()
    }

    fn sum(&self, x: u64) -> u64 {
        x
    }
}

/// How the positions of a layer are dealt to the ranks: in units of
/// `unit` consecutive positions, round-robin (unit `u` to rank `u mod
/// ranks`). Dealt so, every rank gets positions from every part of the
/// layer, and the ranks stay in step: contiguous slices would leave one
/// rank with most of the work of a late pass.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Layout {
    /// Positions in the layer.
    pub size: u64,
    /// Ranks.
    pub ranks: usize,
    /// Positions a unit.
    pub unit: u64,
}

impl Layout {
    /// The layout of a layer of `size` positions over `ranks` ranks, in
    /// units of `unit` (a power of two).
    pub fn new(size: u64, ranks: usize, unit: u64) -> Layout {
        assert!(ranks > 0, "a layout has ranks");
        assert!(unit.is_power_of_two(), "units are a power of two");
        assert!(size / unit < u32::MAX as u64, "fewer than 2³² units");
        Layout { size, ranks, unit }
    }

    /// The rank that owns position `r`, and `r`'s index in its share.
    #[inline(always)]
    pub fn place(&self, r: u64) -> (usize, u64) {
        // In 32 bits: a 64-bit division takes several times as long, and
        // this one is done for every child.
        let shift = self.unit.trailing_zeros();
        let (u, ranks) = ((r >> shift) as u32, self.ranks as u32);
        (
            (u % ranks) as usize,
            ((u / ranks) as u64) << shift | (r & (self.unit - 1)),
        )
    }

    /// The rank that owns position `r`.
    #[cfg(test)]
    pub fn owner(&self, r: u64) -> usize {
        self.place(r).0
    }

    /// Position `r`'s index in its owner's share.
    #[cfg(test)]
    pub fn local(&self, r: u64) -> u64 {
        self.place(r).1
    }

    /// The position at index `l` of rank `rank`'s share.
    #[inline(always)]
    pub fn global(&self, rank: usize, l: u64) -> u64 {
        (l / self.unit * self.ranks as u64 + rank as u64) * self.unit + l % self.unit
    }

    /// Positions rank `rank` owns.
    pub fn len(&self, rank: usize) -> u64 {
        let units = self.size.div_ceil(self.unit);
        let ranks = self.ranks as u64;
        let mine = (units + ranks - 1 - rank as u64) / ranks;
        let last = units.checked_sub(1);
        let short = match last {
            Some(u) if u % ranks == rank as u64 => units * self.unit - self.size,
            _ => 0,
        };
        mine * self.unit - short
    }

    /// The largest share.
    pub fn most(&self) -> u64 {
        (0..self.ranks).map(|i| self.len(i)).max().unwrap_or(0)
    }

    /// Rank `rank`'s share as runs of consecutive positions: (first
    /// position, its index in the share, length).
    pub fn runs(&self, rank: usize) -> impl Iterator<Item = (u64, u64, u64)> + '_ {
        let len = self.len(rank);
        (0..len.div_ceil(self.unit)).map(move |k| {
            let l = k * self.unit;
            (self.global(rank, l), l, self.unit.min(len - l))
        })
    }
}

/// Why a cluster build cannot go on.
#[derive(Debug, thiserror::Error)]
pub enum ClusterError {
    /// A rank failed; every rank reports the first one's error.
    #[error("rank {rank} of {ranks}: {why}{}", match more {
        0 => String::new(),
        n => format!(" (and {n} more failed)"),
    })]
    RankFailed {
        /// The first rank that failed.
        rank: usize,
        /// The ranks of the build.
        ranks: usize,
        /// Its error, as that rank worded it (it comes over the wire).
        why: String,
        /// How many other ranks failed too.
        more: u64,
    },
    /// Some ranks found a valid layer on disk and others did not.
    #[error(
        "{}: a valid layer for {finders} of {ranks} ranks: every rank must see \
         the same table directory (a shared file system)",
        path.display()
    )]
    Unshared {
        /// The layer's file.
        path: std::path::PathBuf,
        /// The ranks that found it.
        finders: u64,
        /// The ranks of the build.
        ranks: usize,
    },
}

/// `r` on every rank if it is `Ok` on all of them; else, on every rank, the
/// error of the first rank that failed, which it names (so that none goes
/// on to a collective call the others skip, and whichever rank reports,
/// it says what went wrong).
pub(super) fn agree<T>(
    cluster: &dyn Cluster,
    r: Result<T, TablebaseError>,
) -> Result<T, TablebaseError> {
    let ranks = cluster.ranks();
    if ranks == 1 {
        // Alone, a rank's error is the build's, worded as it is.
        return r;
    }
    let failed = cluster.sum(r.is_err() as u64);
    if failed == 0 {
        return r;
    }
    let why = match &r {
        Err(e) => e.to_string().into_bytes(),
        Ok(_) => Vec::new(),
    };
    let heard = cluster.all_to_all(vec![why; ranks]);
    let (rank, why) = heard
        .iter()
        .enumerate()
        .find(|(_, why)| !why.is_empty())
        .map_or((0, "failed".into()), |(rank, why)| {
            (rank, String::from_utf8_lossy(why).into_owned())
        });
    Err(ClusterError::RankFailed {
        rank,
        ranks,
        why,
        more: failed - 1,
    }
    .into())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn layouts_deal_every_position_once() {
        let mut checked = 0;
        for (size, ranks, unit) in [
            (1u64, 3usize, 4u64),
            (78, 2, 4),
            (1_003, 7, 16),
            (5, 8, 1),
            (64, 4, 16),
        ] {
            let layout = Layout::new(size, ranks, unit);
            let mut seen = vec![false; size as usize];
            for rank in 0..ranks {
                let mut share = 0;
                for (r, l, n) in layout.runs(rank) {
                    assert_eq!(l, share);
                    for k in 0..n {
                        assert_eq!(layout.owner(r + k), rank);
                        assert_eq!(layout.local(r + k), l + k);
                        assert_eq!(layout.global(rank, l + k), r + k);
                        assert!(!seen[(r + k) as usize]);
                        seen[(r + k) as usize] = true;
                    }
                    share += n;
                }
                assert_eq!(share, layout.len(rank));
                assert!(share <= layout.most());
            }
            assert!(seen.iter().all(|&s| s), "{size} {ranks} {unit}");
            checked += 1;
        }
        assert_eq!(checked, 5);
    }

    #[test]
    fn every_rank_hears_the_first_failure() {
        let members = ThreadCluster::new(3);
        let errors: Vec<String> = std::thread::scope(|s| {
            let handles: Vec<_> = members
                .iter()
                .map(|c| {
                    s.spawn(move || {
                        assert!(agree(c, Ok::<_, TablebaseError>(1)).is_ok());
                        let r: Result<(), _> = match c.rank() {
                            0 => Ok(()),
                            rank => Err(TablebaseError::TooManySeeds {
                                seeds: 100 + rank as u32,
                                most: 0,
                            }),
                        };
                        agree(c, r).unwrap_err().to_string()
                    })
                })
                .collect();
            handles.into_iter().map(|h| h.join().unwrap()).collect()
        });
        for e in &errors {
            assert_eq!(
                e,
                "rank 1 of 3: cannot build 101-seed tables: at most 0 seeds (and 1 more failed)"
            );
        }
        assert_eq!(errors.len(), 3);
    }

    #[test]
    fn threads_exchange_and_sum() {
        let members = ThreadCluster::new(3);
        let got: Vec<(Vec<Vec<u8>>, u64)> = std::thread::scope(|s| {
            let handles: Vec<_> = members
                .iter()
                .map(|c| {
                    s.spawn(move || {
                        let me = c.rank() as u8;
                        let send = (0..3u8).map(|to| vec![me, to]).collect();
                        (c.all_to_all(send), c.sum(c.rank() as u64 + 1))
                    })
                })
                .collect();
            handles.into_iter().map(|h| h.join().unwrap()).collect()
        });
        for (me, (mail, total)) in got.iter().enumerate() {
            assert_eq!(*total, 6);
            let expect: Vec<Vec<u8>> = (0..3u8).map(|from| vec![from, me as u8]).collect();
            assert_eq!(*mail, expect);
        }
    }
}
