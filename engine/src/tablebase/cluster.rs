//! Building the tables across processes: a *cluster* of ranks, each owning
//! a share of every layer (docs/tablebases.md, "On a cluster").
//!
//! The positions of the layer being built are dealt to the ranks in units
//! of [`UNIT`] consecutive positions, round-robin ([`Layout`]): the bounds
//! and best exits of a rank's positions live in its memory and nowhere
//! else. The smaller layers, built before, are files in a directory every
//! rank sees (a shared file system), mapped by each.
//!
//! The scan is local: a position's exits read the smaller layers. The
//! fixed-point passes go through a rank's share in *rounds* of [`BLOCK`]
//! positions, every rank in step:
//!
//! 1. generate the children of the round's open positions and sort them
//!    by owner (a counting sort, without a branch on the owner);
//! 2. the requests for the children other ranks own (the child's index in
//!    its owner's share: four bytes, or eight where a share has more than
//!    2³² positions) go to their owners in one all-to-all exchange, one
//!    flat buffer reused from round to round;
//! 3. each owner answers with the child's two bounds (two bytes), in a
//!    second all-to-all exchange;
//! 4. the bounds of this rank's own children are read (prefetched ahead),
//!    and the round's positions are updated from their children's bounds.
//!
//! A bound read from another rank may be a round old; it is still a bound,
//! and lower bounds only rise and upper ones only fall, so the passes reach
//! the same fixed point as on one machine: a pass in which no rank changes
//! anything has read only final values. The files written are
//! byte-identical to [`build`](fn@super::build)'s (tested here for 1, 2 and
//! 3 ranks, and by CI through MPI).
//!
//! The transport is a [`Cluster`]: MPI in the `mancala` binary (`--features
//! mpi`), threads in one process here ([`ThreadCluster`], for tests).

use std::ops::Range;
use std::path::Path;
use std::sync::atomic::{AtomicBool, AtomicU16, Ordering::Relaxed};
use std::sync::{Arc, Barrier, Mutex, PoisonError};
use std::time::Instant;

use rayon::prelude::*;

use super::build::{
    expand, pack, prefetch, scan_chunk, tightened, unpack, write_values, BuildEvent, LayerStats,
    Lower, CHUNK,
};
use super::{
    check_max_seeds, file, find_layer, keep_found_layer, layer_path, BuildProgress, LayerOutcome,
    Tablebase, TablebaseError, TablebaseRules,
};

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

/// Positions of a share a round of a pass covers (a multiple of the chunk
/// size): about 128 bytes of work buffers each.
pub const BLOCK: u64 = 1 << 20;

/// Positions a layer is dealt out in (a multiple of the chunk size).
pub const UNIT: u64 = 1 << 18;

/// Bytes of memory a rank needs to build layer `seeds` with `ranks` ranks:
/// two bytes a position of its share (its bounds) and the buffers of a
/// round. The
/// smaller layers are mapped files, not counted: their pages are the page
/// cache's, shared by the ranks of a machine, and read only by the scan
/// (docs/tablebases.md, "On a cluster").
pub fn cluster_layer_memory<R: TablebaseRules>(seeds: u32, ranks: usize) -> u64 {
    let layout = Layout::new(R::layer_size(seeds), ranks.max(1), UNIT);
    let share = layout.most();
    2 * share + 128 * BLOCK.min(share)
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

/// The shift of a child's owner in [`Work::slot`] (a share has fewer
/// than 2⁴⁰ positions).
const OWNER_SHIFT: u32 = 40;
/// Asks ahead whose bounds [`Part::update`] prefetches.
const AHEAD: usize = 32;

/// An open position in a [`Work`]: its index in the share, its bounds,
/// and its children's span in [`Work::slot`].
type Open = (u64, (i32, i32), Range<u32>);

/// One chunk's share of a round: its open positions and their children.
///
/// The children are sorted by owner without a branch on who owns them (a
/// branch that goes either way at random, as it does with more than one
/// rank, costs more than the rest of a child's bookkeeping): each child's
/// index in its owner's share goes to `asks`, in the owner's part of it,
/// and `slot` says where. The asks of this rank are answered here, the
/// others by their owners, all into `found`, which the update reads
/// through `slot`.
#[derive(Default)]
struct Work {
    chunk: usize,
    /// Whether the chunk had open positions (else it is skipped).
    walked: bool,
    /// The open positions.
    pending: Vec<Open>,
    /// Per child, in the order generated: its owner (from bit
    /// [`OWNER_SHIFT`] on) and its index in the owner's share; then,
    /// sorted, where its ask is in `asks`.
    slot: Vec<u64>,
    /// The asks, owner by owner: rank `o`'s are `asks[start[o]..start[o
    /// + 1]]`.
    asks: Vec<u64>,
    /// Where each rank's asks start in `asks` (one more entry than ranks).
    start: Vec<usize>,
    /// The bounds found for the asks.
    found: Vec<u16>,
}

/// Answers from the other ranks: two bytes per child asked, rank by rank
/// from `from[rank]` on, in the order asked; and per work, where its asks
/// of each rank start (in asks).
struct Answers<'a> {
    bytes: &'a [u8],
    from: Vec<usize>,
    bases: Vec<Vec<usize>>,
}

/// The buffers of a round's exchanges, reused from round to round.
#[derive(Default)]
struct Buffers {
    /// This rank's asks, rank by rank.
    requests: Vec<u8>,
    /// The other ranks' asks of this one.
    incoming: Vec<u8>,
    /// This rank's answers to them.
    answers: Vec<u8>,
    /// The other ranks' answers to this one.
    answered: Vec<u8>,
}

/// The share of one rank during a layer's build.
struct Part<'a> {
    seeds: u32,
    layout: Layout,
    /// This rank.
    me: usize,
    /// Positions this rank owns.
    len: u64,
    /// Bytes a request takes: 4, or 8 where a share has more than 2³²
    /// positions.
    width: usize,
    bounds: &'a [AtomicU16],
    open_chunks: &'a [AtomicBool],
}

impl Part<'_> {
    /// The open positions of chunk `c` and their children, gathered
    /// into `work` (whose buffers are reused from round to round: fresh
    /// ones would cost a page fault every few kilobytes).
    fn gather<R: TablebaseRules>(&self, c: usize, work: &mut Work) {
        work.chunk = c;
        work.pending.clear();
        work.slot.clear();
        work.walked = self.open_chunks[c].load(Relaxed);
        let ranks = self.layout.ranks;
        work.start.clear();
        work.start.resize(ranks + 1, 0);
        if !work.walked {
            work.asks.clear();
            return;
        }
        let layout = self.layout;
        // A chunk lies in one unit: its positions are consecutive.
        let first = c as u64 * CHUNK;
        let from = layout.global(self.me, first);
        let to = from + CHUNK.min(self.len - first);
        let (slot, pending) = (&mut work.slot, &mut work.pending);
        R::walk(self.seeds, from, to, |r, pits| {
            let i = (first + r - from) as usize;
            let (lo, hi) = unpack(self.bounds[i].load(Relaxed));
            if lo == hi {
                return;
            }
            let begin = slot.len() as u32;
            expand::<R>(pits, |taken, board, _| {
                if taken == 0 {
                    let (owner, local) = layout.place(R::rank(board));
                    slot.push((owner as u64) << OWNER_SHIFT | local);
                }
            });
            pending.push((i as u64, (lo, hi), begin..slot.len() as u32));
        });
        let start = &mut work.start;
        if ranks == 1 {
            // Every child is this rank's (owner 0): the asks are the
            // children, in order (`slot` is then not read).
            start[1] = slot.len();
            std::mem::swap(&mut work.asks, slot);
            return;
        }
        // Counting sort by owner.
        for &s in slot.iter() {
            start[(s >> OWNER_SHIFT) as usize + 1] += 1;
        }
        for o in 0..ranks {
            start[o + 1] += start[o];
        }
        let mut at = start[..ranks].to_vec();
        work.asks.clear();
        work.asks.resize(slot.len(), 0);
        for s in slot.iter_mut() {
            let k = &mut at[(*s >> OWNER_SHIFT) as usize];
            work.asks[*k] = *s & ((1 << OWNER_SHIFT) - 1);
            *s = *k as u64;
            *k += 1;
        }
    }

    /// Asks the other ranks for the bounds of the round's remote children
    /// and answers their requests, in `buffers`. Adds the bytes this rank
    /// sent to `sent`.
    fn fetch<'b>(
        &self,
        cluster: &dyn Cluster,
        works: &[Work],
        buffers: &'b mut Buffers,
        sent: &mut u64,
    ) -> Answers<'b> {
        let (ranks, me, width) = (cluster.ranks(), self.me, self.width);
        // bases[w][o]: where work w's asks of rank o start in its message.
        let mut bases = vec![vec![0; ranks]; works.len()];
        let mut at = vec![0; ranks];
        for (w, work) in works.iter().enumerate() {
            bases[w].copy_from_slice(&at);
            for (o, at) in at.iter_mut().enumerate() {
                if o != me {
                    *at += work.start[o + 1] - work.start[o];
                }
            }
        }
        let counts: Vec<usize> = at.iter().map(|&n| n * width).collect();
        let requests = &mut buffers.requests;
        requests.clear();
        requests.resize(counts.iter().sum(), 0);
        let mut pieces = Vec::with_capacity(ranks);
        let mut rest = &mut requests[..];
        for &n in &counts {
            let (piece, tail) = rest.split_at_mut(n);
            pieces.push(piece);
            rest = tail;
        }
        pieces.into_par_iter().enumerate().for_each(|(o, piece)| {
            // This rank's own asks are answered in `update`, not sent.
            if o == me {
                return;
            }
            let mut at = 0;
            for work in works {
                let asks = &work.asks[work.start[o]..work.start[o + 1]];
                let out = &mut piece[at..at + asks.len() * width];
                if width == 4 {
                    for (to, &a) in out.chunks_exact_mut(4).zip(asks) {
                        to.copy_from_slice(&(a as u32).to_le_bytes());
                    }
                } else {
                    for (to, &a) in out.chunks_exact_mut(8).zip(asks) {
                        to.copy_from_slice(&a.to_le_bytes());
                    }
                }
                at += asks.len() * width;
            }
        });
        *sent += requests.len() as u64;
        let asked = cluster.exchange(requests, &counts, &mut buffers.incoming);
        // Answered in pieces, each read prefetched ahead of its use (the
        // asks are random reads).
        let incoming = &buffers.incoming[..asked.iter().sum::<usize>()];
        let answers = &mut buffers.answers;
        answers.clear();
        answers.resize(incoming.len() / width * 2, 0);
        const PIECE: usize = 1 << 14;
        let ask = |asks: &[u8], k: usize| {
            if width == 4 {
                u32::from_le_bytes(asks[4 * k..4 * k + 4].try_into().expect("4 bytes")) as usize
            } else {
                u64::from_le_bytes(asks[8 * k..8 * k + 8].try_into().expect("8 bytes")) as usize
            }
        };
        incoming
            .par_chunks(PIECE * width)
            .zip(answers.par_chunks_mut(PIECE * 2))
            .for_each(|(asks, out)| {
                let n = asks.len() / width;
                for k in 0..n.min(AHEAD) {
                    prefetch(&self.bounds[ask(asks, k)]);
                }
                for (k, o) in out.chunks_exact_mut(2).enumerate() {
                    if k + AHEAD < n {
                        prefetch(&self.bounds[ask(asks, k + AHEAD)]);
                    }
                    o.copy_from_slice(&self.bounds[ask(asks, k)].load(Relaxed).to_le_bytes());
                }
            });
        *sent += answers.len() as u64;
        let answering: Vec<usize> = asked.iter().map(|&n| n / width * 2).collect();
        let got = cluster.exchange(answers, &answering, &mut buffers.answered);
        let from = got
            .iter()
            .scan(0, |at, &n| {
                let f = *at;
                *at += n;
                Some(f)
            })
            .collect();
        Answers {
            bytes: &buffers.answered,
            from,
            bases,
        }
    }

    /// Updates the bounds of work `w`'s open positions from their
    /// children's; returns how many moved and how many are still open.
    fn update(&self, work: &mut Work, w: usize, answers: &Answers) -> (u64, u64) {
        if !work.walked {
            return (0, 0);
        }
        // One rank reads its children's bounds as it updates (prefetched
        // ahead), so that it sees the updates made earlier in the chunk
        // (as one machine does: fewer passes). With more, the bounds of
        // the asks are gathered first, this rank's read here and the
        // others' as answered.
        let sorted = self.layout.ranks > 1;
        let (start, asks) = (&work.start, &work.asks);
        work.found.clear();
        if sorted {
            work.found.resize(asks.len(), 0);
            let found = &mut work.found;
            let mine = &asks[start[self.me]..start[self.me + 1]];
            for &a in mine.iter().take(AHEAD) {
                prefetch(&self.bounds[a as usize]);
            }
            let out = &mut found[start[self.me]..start[self.me + 1]];
            for (k, (&a, f)) in mine.iter().zip(out.iter_mut()).enumerate() {
                if let Some(&next) = mine.get(k + AHEAD) {
                    prefetch(&self.bounds[next as usize]);
                }
                *f = self.bounds[a as usize].load(Relaxed);
            }
            for o in (0..self.layout.ranks).filter(|&o| o != self.me) {
                let (bytes, at) = (answers.bytes, answers.from[o] + 2 * answers.bases[w][o]);
                let n = start[o + 1] - start[o];
                let out = &mut found[start[o]..start[o + 1]];
                for (f, b) in out.iter_mut().zip(bytes[at..at + 2 * n].chunks_exact(2)) {
                    *f = u16::from_le_bytes([b[0], b[1]]);
                }
            }
        } else {
            for &a in asks.iter().take(AHEAD) {
                prefetch(&self.bounds[a as usize]);
            }
        }
        let found = &work.found;
        let (moved, open) = if sorted {
            self.settle(&work.pending, |i| found[work.slot[i] as usize])
        } else {
            self.settle(&work.pending, |i| {
                if let Some(&next) = asks.get(i + AHEAD) {
                    prefetch(&self.bounds[next as usize]);
                }
                self.bounds[asks[i] as usize].load(Relaxed)
            })
        };
        self.open_chunks[work.chunk].store(open > 0, Relaxed);
        (moved, open)
    }

    /// Updates the bounds of the `pending` positions, reading the bounds
    /// of child `i` (in the order generated) with `child`; returns how
    /// many moved and how many are still open.
    #[inline(always)]
    fn settle(&self, pending: &[Open], child: impl Fn(usize) -> u16) -> (u64, u64) {
        let (mut moved, mut open) = (0, 0);
        for (r, (lo, hi), span) in pending {
            let children = (span.start as usize..span.end as usize).map(&child);
            let (new_lo, new_hi) = tightened(*lo, *hi, children);
            if (new_lo, new_hi) != (*lo, *hi) {
                moved += 1;
                self.bounds[*r as usize].store(pack(new_lo, new_hi), Relaxed);
            }
            if new_lo < new_hi {
                open += 1;
            }
        }
        (moved, open)
    }
}

/// Builds this rank's share of layer `seeds`: its bounds at their fixed
/// point, in the order of the share, and the layer's figures (summed over
/// the cluster).
fn build_part<R: TablebaseRules>(
    seeds: u32,
    lower: &Lower<'_>,
    cluster: &dyn Cluster,
    (block, unit): (u64, u64),
    progress: &(dyn Fn(BuildEvent) + Sync),
) -> (Vec<AtomicU16>, LayerStats) {
    let started = Instant::now();
    let (me, ranks) = (cluster.rank(), cluster.ranks());
    let size = R::layer_size(seeds);
    let layout = Layout::new(size, ranks, unit);
    assert!(
        layout.most() < 1 << OWNER_SHIFT && (ranks as u64) < 1 << (64 - OWNER_SHIFT),
        "a share's index and its owner fit a child's slot"
    );
    let len = layout.len(me) as usize;
    let bounds: Vec<AtomicU16> = (0..len)
        .into_par_iter()
        .map(|_| AtomicU16::new(0))
        .collect();
    let chunks = (len as u64).div_ceil(CHUNK) as usize;
    let open_chunks: Vec<AtomicBool> = (0..chunks).map(|_| AtomicBool::new(true)).collect();

    (0..chunks).into_par_iter().for_each(|c| {
        let first = c as u64 * CHUNK;
        let n = CHUNK.min(len as u64 - first);
        let from = layout.global(me, first);
        let open = scan_chunk::<R>(seeds, lower, &bounds, from - first, (from, from + n));
        open_chunks[c].store(open, Relaxed);
        // The ranks scan at the same pace: this one's share, times the
        // ranks, stands for the whole layer's progress.
        progress(BuildEvent::Scanned {
            seeds,
            positions: n * ranks as u64,
        });
    });

    // Every rank goes through the same number of rounds a pass (the
    // exchanges are collective), enough for the largest share.
    let block_chunks = (block / CHUNK).max(1) as usize;
    let most = layout.most();
    let rounds = most.div_ceil(CHUNK).div_ceil(block_chunks as u64) as usize;
    let part = Part {
        seeds,
        layout,
        me,
        len: len as u64,
        width: if most > 1 << 32 { 8 } else { 4 },
        bounds: &bounds,
        open_chunks: &open_chunks,
    };
    let mut pool: Vec<Work> = (0..block_chunks.min(chunks))
        .map(|_| Work::default())
        .collect();
    let mut buffers = Buffers::default();
    let mut sent = 0u64;
    let mut iteration = 0;
    loop {
        iteration += 1;
        let (mut moved, mut open) = (0u64, 0u64);
        for round in 0..rounds {
            let first = (round * block_chunks).min(chunks);
            let last = (first + block_chunks).min(chunks);
            let works = &mut pool[..last - first];
            works
                .par_iter_mut()
                .enumerate()
                .for_each(|(k, work)| part.gather::<R>(first + k, work));
            let answers = part.fetch(cluster, works, &mut buffers, &mut sent);
            let (m, o) = works
                .par_iter_mut()
                .enumerate()
                .map(|(w, work)| part.update(work, w, &answers))
                .reduce(|| (0, 0), |a, b| (a.0 + b.0, a.1 + b.1));
            moved += m;
            open += o;
        }
        let changed = cluster.sum(moved);
        let unresolved = cluster.sum(open);
        progress(BuildEvent::Iteration {
            seeds,
            iteration,
            unresolved,
            changed,
        });
        if changed == 0 {
            let stats = LayerStats {
                seeds,
                positions: size,
                iterations: iteration,
                cycles: unresolved,
                seconds: started.elapsed().as_secs_f64(),
                exchanged: cluster.sum(sent),
            };
            return (bounds, stats);
        }
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
fn agree<T>(cluster: &dyn Cluster, r: Result<T, TablebaseError>) -> Result<T, TablebaseError> {
    let ranks = cluster.ranks();
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

/// [`build`](fn@super::build) by the ranks of `cluster`: every rank calls
/// it with the same arguments. The layers are files in `dir`, which every
/// rank must see (a shared file system); each rank writes its share of a
/// layer into one file, which rank 0 then seals (header, checksum, rename)
/// so that it appears complete or not at all. A layer already on disk and
/// valid is loaded (a stopped build resumes). Progress is reported on every
/// rank with the whole cluster's figures (give a no-op to all but one).
pub fn build_cluster<R: TablebaseRules>(
    dir: &Path,
    max_seeds: u32,
    cluster: &dyn Cluster,
    progress: &(dyn Fn(BuildProgress) + Sync),
) -> Result<Vec<LayerOutcome>, TablebaseError> {
    build_in_rounds::<R>(dir, max_seeds, cluster, (BLOCK, UNIT), progress)
}

fn build_in_rounds<R: TablebaseRules>(
    dir: &Path,
    max_seeds: u32,
    cluster: &dyn Cluster,
    shape: (u64, u64),
    progress: &(dyn Fn(BuildProgress) + Sync),
) -> Result<Vec<LayerOutcome>, TablebaseError> {
    check_max_seeds::<R>(max_seeds)?;
    let (me, ranks) = (cluster.rank(), cluster.ranks());
    let mut tables = Tablebase::<R>::empty();
    let mut outcomes = Vec::new();
    for seeds in (0..=max_seeds).step_by(super::layer_step::<R>()) {
        let path = layer_path(dir, R::ID, seeds);
        let positions = R::layer_size(seeds);
        let found = find_layer::<R>(&path, seeds, progress);
        let finders = cluster.sum(found.is_some() as u64);
        if let Some(data) = found.filter(|_| finders == ranks as u64) {
            keep_found_layer(&mut tables, &mut outcomes, seeds, data, progress);
            continue;
        }
        if finders != 0 {
            return Err(ClusterError::Unshared {
                path,
                finders,
                ranks,
            }
            .into());
        }
        progress(BuildProgress::Layer {
            seeds,
            positions,
            loaded: false,
        });
        let lower = tables.entries();
        let step = |e| progress(BuildProgress::Step(e));
        let (bounds, stats) = build_part::<R>(seeds, &lower, cluster, shape, &step);
        let layout = Layout::new(positions, ranks, shape.1);
        // Rank 0 makes the file, every rank writes its share, rank 0 seals it.
        let by_first =
            |f: &dyn Fn() -> Result<(), TablebaseError>| if me == 0 { f() } else { Ok(()) };
        agree(cluster, by_first(&|| file::create_parts(&path, positions)))?;
        agree(
            cluster,
            write_values::<R>(&path, seeds, &bounds, layout.runs(me)),
        )?;
        drop(bounds);
        agree(
            cluster,
            by_first(&|| file::seal_parts(&path, R::ID, R::PITS, seeds, positions)),
        )?;
        let data = agree(
            cluster,
            file::open_layer(&path, R::ID, R::PITS, seeds, positions),
        )?;
        progress(BuildProgress::Built(stats));
        tables.insert(seeds, data);
        outcomes.push(LayerOutcome::Built(stats));
    }
    Ok(outcomes)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::{AlManqala, Bohnenspiel, DjenonAbe};
    use crate::tablebase::build_in_memory;

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

    /// Builds to `max_seeds` with `ranks` threads as ranks, in rounds of
    /// `block` positions dealt out in units of `unit`, and returns every
    /// layer's file.
    fn cluster_files<R: TablebaseRules>(
        ranks: usize,
        max_seeds: u32,
        (block, unit): (u64, u64),
    ) -> Vec<Vec<u8>> {
        let dir = std::env::temp_dir().join(format!(
            "mancala-cluster-{}-{}-{ranks}-{max_seeds}-{block}-{unit}",
            std::process::id(),
            R::ID
        ));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let members = ThreadCluster::new(ranks);
        std::thread::scope(|s| {
            for c in &members {
                let dir = &dir;
                s.spawn(move || {
                    let outcomes =
                        build_in_rounds::<R>(dir, max_seeds, c, (block, unit), &|_| {}).unwrap();
                    assert_eq!(outcomes.len(), max_seeds as usize / 2 + 1);
                });
            }
        });
        let files = (0..=max_seeds)
            .step_by(2)
            .map(|s| std::fs::read(layer_path(&dir, R::ID, s)).unwrap())
            .collect();
        let _ = std::fs::remove_dir_all(&dir);
        files
    }

    fn single_files<R: TablebaseRules>(max_seeds: u32) -> Vec<Vec<u8>> {
        let (tables, _) = build_in_memory::<R>(max_seeds);
        (0..=max_seeds)
            .step_by(2)
            .map(|s| {
                let dir = std::env::temp_dir().join(format!(
                    "mancala-single-{}-{}-{s}",
                    std::process::id(),
                    R::ID
                ));
                let path = layer_path(&dir, R::ID, s);
                let entries = tables.entries()[s as usize].unwrap();
                file::write_layer(&path, R::ID, R::PITS, s, entries).unwrap();
                let bytes = std::fs::read(&path).unwrap();
                let _ = std::fs::remove_dir_all(&dir);
                bytes
            })
            .collect()
    }

    #[test]
    fn two_and_three_ranks_write_the_single_machine_files() {
        let single = single_files::<Bohnenspiel>(12);
        assert_eq!(single.len(), 7);
        // Rounds of one chunk: many exchanges a pass.
        for ranks in [1, 2, 3] {
            assert_eq!(
                cluster_files::<Bohnenspiel>(ranks, 12, (CHUNK, CHUNK)),
                single,
                "{ranks} ranks"
            );
        }
        assert_eq!(cluster_files::<Bohnenspiel>(2, 12, (BLOCK, UNIT)), single);
    }

    #[test]
    fn other_games_too() {
        assert_eq!(
            cluster_files::<AlManqala>(3, 8, (CHUNK, CHUNK)),
            single_files::<AlManqala>(8)
        );
        assert_eq!(
            cluster_files::<DjenonAbe>(2, 10, (2 * CHUNK, CHUNK)),
            single_files::<DjenonAbe>(10)
        );
    }
}
