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
//! 1. generate the children of the round's open positions; a child this
//!    rank owns is read in place, a child elsewhere is asked for;
//! 2. the requests (the child's index in its owner's share: four bytes, or
//!    eight where a share has more than 2³² positions) go to their owners
//!    in one all-to-all exchange;
//! 3. each owner answers with the child's two bounds (two bytes), in a
//!    second all-to-all exchange;
//! 4. the round's positions are updated from their children's bounds.
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
    expand, pack, prefetch, scan_chunk, unpack, values, BuildEvent, LayerStats, Lower, CHUNK,
    NO_EXIT,
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
    /// Sends `send[i]` to rank `i` (one message a rank, this one's own
    /// included) and returns the messages every rank sent to this one, in
    /// rank order.
    fn all_to_all(&self, send: Vec<Vec<u8>>) -> Vec<Vec<u8>>;
    /// The sum of `x` over every rank, returned to every rank.
    fn sum(&self, x: u64) -> u64;
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

    fn all_to_all(&self, send: Vec<Vec<u8>>) -> Vec<Vec<u8>> {
        assert_eq!(send.len(), self.shared.ranks, "one message a rank");
        let mail = || {
            self.shared
                .mail
                .lock()
                .unwrap_or_else(PoisonError::into_inner)
        };
        mail()[self.rank] = send;
        self.shared.barrier.wait();
        let got = {
            let mut mail = mail();
            (0..self.shared.ranks)
                .map(|from| std::mem::take(&mut mail[from][self.rank]))
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
/// three bytes a position of its share and the buffers of a round. The
/// smaller layers are mapped files, not counted: their pages are the page
/// cache's, shared by the ranks of a machine, and read only by the scan
/// (docs/tablebases.md, "On a cluster").
pub fn cluster_layer_memory<R: TablebaseRules>(seeds: u32, ranks: usize) -> u64 {
    let layout = Layout::new(R::layer_size(seeds), ranks.max(1), UNIT);
    let share = layout.most();
    3 * share + 128 * BLOCK.min(share)
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
    pub fn owner(&self, r: u64) -> usize {
        self.place(r).0
    }

    /// Position `r`'s index in its owner's share.
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

/// Marks a child entry of a [`Work`] as one asked of another rank: the
/// owner in bits 40..63, the index among the work's asks of it below.
const REMOTE: u64 = 1 << 63;
/// The shift of the owner in a remote child entry.
const OWNER_SHIFT: u32 = 40;
/// Positions ahead whose children [`Part::update`] prefetches.
const AHEAD: usize = 16;

/// An open position in a [`Work`]: its index in the share, best exit,
/// bounds, and its children's span in `children`.
type Open = (u64, i32, (i32, i32), Range<u32>);

/// One chunk's share of a round: its open positions and their children.
struct Work {
    chunk: usize,
    /// Whether the chunk had open positions (else it is skipped).
    walked: bool,
    /// The open positions.
    pending: Vec<Open>,
    /// A child's index in this rank's share, or [`REMOTE`] with its owner
    /// and ask.
    children: Vec<u64>,
    /// Per rank: the children asked of it (their indices in its share, in
    /// [`Part::width`] bytes each).
    asks: Vec<Vec<u8>>,
}

/// Answers from the other ranks: per rank, two bytes per child asked, in
/// the order asked; and per work, where its asks of each rank start.
struct Answers {
    bytes: Vec<Vec<u8>>,
    bases: Vec<Vec<usize>>,
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
    exits: &'a [i8],
    open_chunks: &'a [AtomicBool],
}

impl Part<'_> {
    /// The open positions of chunk `c` and their children, gathered
    /// into `work` (whose buffers are reused from round to round: fresh
    /// ones would cost a page fault every few kilobytes).
    fn gather<R: TablebaseRules>(&self, c: usize, work: &mut Work) {
        work.chunk = c;
        work.pending.clear();
        work.children.clear();
        work.asks.iter_mut().for_each(Vec::clear);
        work.walked = self.open_chunks[c].load(Relaxed);
        if !work.walked {
            return;
        }
        let (layout, me, width) = (self.layout, self.me, self.width);
        // A chunk lies in one unit: its positions are consecutive.
        let first = c as u64 * CHUNK;
        let from = layout.global(me, first);
        let to = from + CHUNK.min(self.len - first);
        let (children, asks) = (&mut work.children, &mut work.asks);
        R::walk(self.seeds, from, to, |r, pits| {
            let i = (first + r - from) as usize;
            let (lo, hi) = unpack(self.bounds[i].load(Relaxed));
            if lo == hi {
                return;
            }
            let ex = self.exits[i] as i32;
            let ex = if ex == i8::MIN as i32 { NO_EXIT } else { ex };
            let start = children.len() as u32;
            expand::<R>(pits, |taken, board| {
                if taken == 0 {
                    let child = R::rank(board);
                    let (owner, local) = layout.place(child);
                    if owner == me {
                        children.push(local);
                    } else {
                        let ask = &mut asks[owner];
                        let k = ask.len() / width;
                        children.push(REMOTE | (owner as u64) << OWNER_SHIFT | k as u64);
                        if width == 4 {
                            ask.extend_from_slice(&(local as u32).to_le_bytes());
                        } else {
                            ask.extend_from_slice(&local.to_le_bytes());
                        }
                    }
                }
            });
            work.pending
                .push((i as u64, ex, (lo, hi), start..children.len() as u32));
        });
    }

    /// Asks the other ranks for the bounds of the round's remote children
    /// and answers their requests. Adds the bytes this rank sent to `sent`.
    fn fetch(&self, cluster: &dyn Cluster, works: &[Work], sent: &mut u64) -> Answers {
        let ranks = cluster.ranks();
        let width = self.width;
        // bases[w][o]: where work w's asks of rank o start in its message.
        let mut bases = vec![vec![0; ranks]; works.len()];
        let mut at = vec![0; ranks];
        for (w, work) in works.iter().enumerate() {
            bases[w].copy_from_slice(&at);
            for (at, asks) in at.iter_mut().zip(&work.asks) {
                *at += asks.len() / width;
            }
        }
        let requests: Vec<Vec<u8>> = (0..ranks)
            .into_par_iter()
            .map(|o| {
                let mut out = Vec::with_capacity(at[o] * width);
                for work in works {
                    out.extend_from_slice(&work.asks[o]);
                }
                out
            })
            .collect();
        *sent += requests.iter().map(|r| r.len() as u64).sum::<u64>();
        let incoming = cluster.all_to_all(requests);
        let answers: Vec<Vec<u8>> = incoming
            .par_iter()
            .map(|bytes| {
                // The asks are random reads: decoded first, so that each
                // read can be prefetched ahead of its use.
                let asks: Vec<usize> = bytes
                    .chunks_exact(width)
                    .map(|ask| {
                        let mut x = [0u8; 8];
                        x[..width].copy_from_slice(ask);
                        u64::from_le_bytes(x) as usize
                    })
                    .collect();
                for &a in asks.iter().take(AHEAD) {
                    prefetch(&self.bounds[a]);
                }
                let mut out = vec![0u8; asks.len() * 2];
                for (k, (&a, o)) in asks.iter().zip(out.chunks_exact_mut(2)).enumerate() {
                    if let Some(&next) = asks.get(k + AHEAD) {
                        prefetch(&self.bounds[next]);
                    }
                    o.copy_from_slice(&self.bounds[a].load(Relaxed).to_le_bytes());
                }
                out
            })
            .collect();
        *sent += answers.iter().map(|a| a.len() as u64).sum::<u64>();
        Answers {
            bytes: cluster.all_to_all(answers),
            bases,
        }
    }

    /// Prefetches the bounds of open position `k`'s children in this share.
    #[inline(always)]
    fn prefetch_children(&self, work: &Work, k: usize) {
        if let Some((_, _, _, span)) = work.pending.get(k) {
            for &child in &work.children[span.start as usize..span.end as usize] {
                if child & REMOTE == 0 {
                    prefetch(&self.bounds[child as usize]);
                }
            }
        }
    }

    /// Updates the bounds of work `w`'s open positions from their
    /// children's; returns how many moved and how many are still open.
    fn update(&self, work: &Work, w: usize, answers: &Answers) -> (u64, u64) {
        if !work.walked {
            return (0, 0);
        }
        let (mut moved, mut open) = (0, 0);
        for k in 0..AHEAD {
            self.prefetch_children(work, k);
        }
        for (k, (r, ex, (lo, hi), span)) in work.pending.iter().enumerate() {
            self.prefetch_children(work, k + AHEAD);
            let (mut new_lo, mut new_hi) = (*ex, *ex);
            for &child in &work.children[span.start as usize..span.end as usize] {
                let b = if child & REMOTE != 0 {
                    let owner = ((child & !REMOTE) >> OWNER_SHIFT) as usize;
                    let ask = (child & ((1 << OWNER_SHIFT) - 1)) as usize;
                    let i = 2 * (answers.bases[w][owner] + ask);
                    let a = &answers.bytes[owner];
                    u16::from_le_bytes([a[i], a[i + 1]])
                } else {
                    self.bounds[child as usize].load(Relaxed)
                };
                let (clo, chi) = unpack(b);
                new_lo = new_lo.max(-chi);
                new_hi = new_hi.max(-clo);
            }
            let (new_lo, new_hi) = (new_lo.max(*lo), new_hi.min(*hi));
            if (new_lo, new_hi) != (*lo, *hi) {
                moved += 1;
                self.bounds[*r as usize].store(pack(new_lo, new_hi), Relaxed);
            }
            if new_lo < new_hi {
                open += 1;
            }
        }
        self.open_chunks[work.chunk].store(open > 0, Relaxed);
        (moved, open)
    }
}

/// Builds this rank's share of layer `seeds`: its values, one byte a
/// position, and the layer's figures (summed over the cluster).
fn build_part<R: TablebaseRules>(
    seeds: u32,
    lower: &Lower<'_>,
    cluster: &dyn Cluster,
    (block, unit): (u64, u64),
    progress: &(dyn Fn(BuildEvent) + Sync),
) -> (Vec<u8>, LayerStats) {
    let started = Instant::now();
    let (me, ranks) = (cluster.rank(), cluster.ranks());
    let size = R::layer_size(seeds);
    let layout = Layout::new(size, ranks, unit);
    let len = layout.len(me) as usize;
    let bounds: Vec<AtomicU16> = (0..len)
        .into_par_iter()
        .map(|_| AtomicU16::new(0))
        .collect();
    let mut exits = vec![0i8; len];
    let chunks = (len as u64).div_ceil(CHUNK) as usize;
    let open_chunks: Vec<AtomicBool> = (0..chunks).map(|_| AtomicBool::new(true)).collect();

    exits
        .par_chunks_mut(CHUNK as usize)
        .enumerate()
        .for_each(|(c, out)| {
            let first = c as u64 * CHUNK;
            let from = layout.global(me, first);
            let open = scan_chunk::<R>(seeds, lower, &bounds, from - first, from, out);
            open_chunks[c].store(open, Relaxed);
            // The ranks scan at the same pace: this one's share, times
            // the ranks, stands for the whole layer's progress.
            progress(BuildEvent::Scanned {
                seeds,
                positions: out.len() as u64 * ranks as u64,
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
        exits: &exits,
        open_chunks: &open_chunks,
    };
    let mut pool: Vec<Work> = (0..block_chunks.min(chunks))
        .map(|_| Work {
            chunk: 0,
            walked: false,
            pending: Vec::new(),
            children: Vec::new(),
            asks: vec![Vec::new(); ranks],
        })
        .collect();
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
            let works = &*works;
            let answers = part.fetch(cluster, works, &mut sent);
            let (m, o) = works
                .par_iter()
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
            drop(pool);
            drop(exits);
            let values = values(&bounds);
            let stats = LayerStats {
                seeds,
                positions: size,
                iterations: iteration,
                cycles: unresolved,
                seconds: started.elapsed().as_secs_f64(),
                exchanged: cluster.sum(sent),
            };
            return (values, stats);
        }
    }
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
    let more = match failed {
        1 => String::new(),
        n => format!(" (and {} more failed)", n - 1),
    };
    Err(TablebaseError::Cluster(format!(
        "rank {rank} of {ranks}: {why}{more}"
    )))
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
    for seeds in (0..=max_seeds).step_by(2) {
        let path = layer_path(dir, R::ID, seeds);
        let positions = R::layer_size(seeds);
        let found = find_layer::<R>(&path, seeds, progress);
        let finders = cluster.sum(found.is_some() as u64);
        if let Some(data) = found.filter(|_| finders == ranks as u64) {
            keep_found_layer(&mut tables, &mut outcomes, seeds, data, progress);
            continue;
        }
        if finders != 0 {
            return Err(TablebaseError::Cluster(format!(
                "{}: a valid layer for {finders} of {ranks} ranks: every rank must see \
                 the same table directory (a shared file system)",
                path.display()
            )));
        }
        progress(BuildProgress::Layer {
            seeds,
            positions,
            loaded: false,
        });
        let lower = tables.entries();
        let step = |e| progress(BuildProgress::Step(e));
        let (values, stats) = build_part::<R>(seeds, &lower, cluster, shape, &step);
        let layout = Layout::new(positions, ranks, shape.1);
        // Rank 0 makes the file, every rank writes its share, rank 0 seals it.
        let by_first =
            |f: &dyn Fn() -> Result<(), TablebaseError>| if me == 0 { f() } else { Ok(()) };
        agree(cluster, by_first(&|| file::create_parts(&path, positions)))?;
        let pieces = layout
            .runs(me)
            .map(|(r, l, n)| (r, &values[l as usize..(l + n) as usize]));
        agree(cluster, file::write_part(&path, pieces))?;
        drop(values);
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
                            rank => Err(TablebaseError::Cluster(format!("disk {rank} full"))),
                        };
                        agree(c, r).unwrap_err().to_string()
                    })
                })
                .collect();
            handles.into_iter().map(|h| h.join().unwrap()).collect()
        });
        for e in &errors {
            assert_eq!(e, "rank 1 of 3: disk 1 full (and 1 more failed)");
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
