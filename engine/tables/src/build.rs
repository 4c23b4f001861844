//! The builder: a layer by retrograde analysis with bounds iterated to a
//! fixed point, on one machine or on the ranks of a cluster (one machine is
//! the one-rank case: the same code, the same bytes).
//!
//!
//! A layer holds every board with `n` seeds, South to move. A move either
//! captures (the child lies in a smaller layer, already built: its value is
//! known) or not (the child lies in this layer, mirrored so that it reads
//! South to move). Every position keeps a lower and an upper bound on its
//! value, `lo` and `hi`, starting at `-n` and `n`:
//!
//! ```text
//! lo(p) = max over moves of (exit value | -hi(child))
//! hi(p) = max over moves of (exit value | -lo(child))
//! ```
//!
//! Repeated in place until nothing changes, `lo` only rises and `hi` only
//! falls. At the fixed point `lo(p)` is what the side to move can force if
//! endless play counted as the worst for them, `hi(p)` what it is if it
//! counted as the best; where they meet the value does not depend on how
//! cycles are scored. The cycle rule scores endless play as the split of
//! the board, worth 0 to either side on an even board, so the value is
//! `clamp(0, lo, hi)` (the README, "Endgame tablebases", gives the argument).
//!
//! The exit values are read once, by the first scan, which sets
//! `lo = max(best exit, -n)`; the passes after it do not keep them, as
//! `lo` stands for the best exit in both updates (`tightened`). So a
//! layer takes two bytes a position while it is built, its bounds, and
//! `write_values` writes the values to the file from them directly.
//!
//! ## In rounds, over ranks
//!
//! The positions of the layer being built are dealt to the ranks in units
//! of [`UNIT`] consecutive positions, round-robin ([`Layout`]): the bounds
//! of a rank's positions live in its memory and nowhere else. The smaller
//! layers, built before, are files in a directory every rank sees, mapped
//! by each.
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
//! With one rank there is nothing to exchange and no rounds: each chunk's
//! children are generated and the chunk updated at once, every child read
//! as it is needed (prefetched ahead), so that an update sees those made
//! earlier in the chunk.
//! A bound read from another rank may be a round old; it is still a bound,
//! and lower bounds only rise and upper ones only fall, so the passes reach
//! the same fixed point whatever the ranks: a pass in which no rank
//! changes anything has read only final values. The files are
//! byte-identical for 1, 2 and 3 ranks (tested here, and by CI through
//! MPI).

use std::ops::Range;
use std::path::Path;
use std::sync::atomic::{AtomicBool, AtomicU16, Ordering::Relaxed};
use std::time::Instant;

use rayon::prelude::*;

use super::cluster::{agree, Cluster, ClusterError, Layout};
use super::layer::{
    expand, pack, scan_chunk, unpack, write_values, BuildEvent, LayerStats, Lower, CHUNK,
};
use super::{
    check_max_seeds, file, find_layer, keep_found_layer, layer_path, BuildProgress, LayerOutcome,
    Tablebase, TablebaseError, TablebaseRules,
};
use mancala_solve::memory::prefetch;

/// The bounds `(lo, hi)` of a position after a look at its children's
/// bounds in the layer (packed, as stored):
///
/// ```text
/// lo' = max(lo, max over children of -hi(child))
/// hi' = min(hi, max(lo, max over children of -lo(child)))
/// ```
///
/// The best exit `e` is not needed: the scan made `lo >= e`, so `lo`
/// stands for it in the first line; in the second, `lo` never exceeds
/// `max(e, -lo(child)...)` for any lower bounds of the children read at
/// any time (by induction: it starts at `max(e, -n)`, and every `-hi(child)`
/// that raises it is at most `-lo*(child)`, the lowest that child's lower
/// bound ever reaches), so putting `lo` beside `e` never changes the
/// maximum. Every pass computes what it would with the exits kept, and the
/// tables are the same bytes.
#[inline(always)]
pub(super) fn tightened(lo: i32, hi: i32, children: impl Iterator<Item = u16>) -> (i32, i32) {
    let (mut new_lo, mut new_hi) = (lo, lo);
    for child in children {
        let (clo, chi) = unpack(child);
        new_lo = new_lo.max(-chi);
        new_hi = new_hi.max(-clo);
    }
    (new_lo, new_hi.min(hi))
}

/// Positions of a share a round of a pass covers (a multiple of the chunk
/// size): about 128 bytes of work buffers each.
pub const BLOCK: u64 = 1 << 20;

/// Positions a layer is dealt out in (a multiple of the chunk size).
pub const UNIT: u64 = 1 << 18;

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
    /// The asks, owner by owner: rank `o`'s are
    /// `asks[start[o]..start[o + 1]]`.
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

    /// Writes into `requests` the round's asks of the other ranks, rank by
    /// rank (`counts[o]` bytes for rank `o`), work by work.
    fn pack_requests(&self, works: &[Work], counts: &[usize], requests: &mut Vec<u8>) {
        let (me, width) = (self.me, self.width);
        requests.clear();
        requests.resize(counts.iter().sum(), 0);
        let mut pieces = Vec::with_capacity(counts.len());
        let mut rest = &mut requests[..];
        for &n in counts {
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
    }

    /// Answers the other ranks' asks `incoming` (indices in this share)
    /// with the bounds asked for, two bytes each, into `answers`: in
    /// pieces, each read prefetched ahead of its use (the asks are random
    /// reads).
    fn answer(&self, incoming: &[u8], answers: &mut Vec<u8>) {
        let width = self.width;
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
        self.pack_requests(works, &counts, &mut buffers.requests);
        let requests = &buffers.requests;
        *sent += requests.len() as u64;
        let asked = cluster.exchange(requests, &counts, &mut buffers.incoming);
        let incoming = &buffers.incoming[..asked.iter().sum::<usize>()];
        self.answer(incoming, &mut buffers.answers);
        let answers = &buffers.answers;
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
    /// children's, this rank's read here and the others' as `answers`
    /// brings them; returns how many moved and how many are still open.
    fn update(&self, work: &mut Work, w: usize, answers: &Answers) -> (u64, u64) {
        if !work.walked {
            return (0, 0);
        }
        let (start, asks) = (&work.start, &work.asks);
        work.found.clear();
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
        let found = &work.found;
        let (moved, open) = self.settle(&work.pending, |i| found[work.slot[i] as usize]);
        self.open_chunks[work.chunk].store(open > 0, Relaxed);
        (moved, open)
    }

    /// [`update`](Self::update) on a rank alone, whose children are all
    /// its own: read as it updates (prefetched ahead), so that it sees
    /// the updates made earlier in the chunk (fewer passes).
    fn update_alone(&self, work: &Work) -> (u64, u64) {
        if !work.walked {
            return (0, 0);
        }
        let asks = &work.asks;
        for &a in asks.iter().take(AHEAD) {
            prefetch(&self.bounds[a as usize]);
        }
        let (moved, open) = self.settle(&work.pending, |i| {
            if let Some(&next) = asks.get(i + AHEAD) {
                prefetch(&self.bounds[next as usize]);
            }
            self.bounds[asks[i] as usize].load(Relaxed)
        });
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

/// Adds two counts of (positions moved, positions open).
fn sum(a: (u64, u64), b: (u64, u64)) -> (u64, u64) {
    (a.0 + b.0, a.1 + b.1)
}

impl Part<'_> {
    /// The scan of the share: every position's first bounds, from its
    /// exits to the smaller layers in `lower`.
    fn scan<R: TablebaseRules>(&self, lower: &Lower<'_>, progress: &(dyn Fn(BuildEvent) + Sync)) {
        let ranks = self.layout.ranks as u64;
        (0..self.open_chunks.len()).into_par_iter().for_each(|c| {
            let first = c as u64 * CHUNK;
            let n = CHUNK.min(self.len - first);
            let from = self.layout.global(self.me, first);
            let base = from - first;
            let open = scan_chunk::<R>(
                self.seeds,
                lower,
                (self.bounds, None),
                base,
                (from, from + n),
            );
            self.open_chunks[c].store(open, Relaxed);
            // The ranks scan at the same pace: this one's share, times the
            // ranks, stands for the whole layer's progress.
            let positions = n * ranks;
            progress(BuildEvent::Scanned {
                seeds: self.seeds,
                positions,
            });
        });
    }

    /// A pass of a rank alone, over its `chunks` chunks, with nothing to
    /// exchange: each chunk is gathered and updated at once (its children
    /// still in the cache), and no round waits for the slowest chunk of the
    /// one before. Returns the positions moved and those still open.
    fn pass_alone<R: TablebaseRules>(&self, chunks: usize) -> (u64, u64) {
        (0..chunks)
            .into_par_iter()
            .map_init(Work::default, |work, c| {
                self.gather::<R>(c, work);
                self.update_alone(work)
            })
            .reduce(|| (0, 0), sum)
    }
}

/// The rounds of a pass over a share, with others ranks: their work
/// buffers, kept from pass to pass, and the bytes sent.
struct Rounds {
    /// Chunks a round.
    block_chunks: usize,
    /// Rounds a pass: the same on every rank (the exchanges are
    /// collective), enough for the largest share.
    rounds: usize,
    /// Chunks of this rank's share.
    chunks: usize,
    pool: Vec<Work>,
    buffers: Buffers,
    /// Bytes this rank sent.
    sent: u64,
}

impl Rounds {
    /// The rounds of `block` positions over a share of `chunks` chunks,
    /// the largest share having `most` positions.
    fn new(block: u64, most: u64, chunks: usize) -> Rounds {
        let block_chunks = (block / CHUNK).max(1) as usize;
        Rounds {
            block_chunks,
            rounds: most.div_ceil(CHUNK).div_ceil(block_chunks as u64) as usize,
            chunks,
            pool: Vec::new(),
            buffers: Buffers::default(),
            sent: 0,
        }
    }

    /// A pass over `part`, a round at a time, exchanging with the other
    /// ranks of `cluster`. Returns the positions moved and those still
    /// open on this rank.
    fn pass<R: TablebaseRules>(&mut self, part: &Part, cluster: &dyn Cluster) -> (u64, u64) {
        let (block_chunks, chunks) = (self.block_chunks, self.chunks);
        self.pool
            .resize_with(block_chunks.min(chunks), Work::default);
        let mut total = (0, 0);
        for round in 0..self.rounds {
            let first = (round * block_chunks).min(chunks);
            let last = (first + block_chunks).min(chunks);
            let works = &mut self.pool[..last - first];
            works
                .par_iter_mut()
                .enumerate()
                .for_each(|(k, work)| part.gather::<R>(first + k, work));
            let answers = part.fetch(cluster, works, &mut self.buffers, &mut self.sent);
            let round = works
                .par_iter_mut()
                .enumerate()
                .map(|(w, work)| part.update(work, w, &answers))
                .reduce(|| (0, 0), sum);
            total = sum(total, round);
        }
        total
    }
}

/// Builds this rank's share of layer `seeds` (even, or any in Kalah) from
/// the smaller layers in `lower`, in parallel on rayon's pool: its bounds
/// at their fixed point, in the order of the share ([`values`](super::layer::values) and
/// [`write_values`] read the values from them), and the layer's figures
/// (summed over the cluster).
pub(super) fn build_layer<R: TablebaseRules>(
    seeds: u32,
    lower: &Lower<'_>,
    cluster: &dyn Cluster,
    (block, unit): (u64, u64),
    progress: &(dyn Fn(BuildEvent) + Sync),
) -> Result<(Vec<AtomicU16>, LayerStats), TablebaseError> {
    let started = Instant::now();
    let (me, ranks) = (cluster.rank(), cluster.ranks());
    if super::works_back::<R>(ranks) {
        return super::retro::build_layer::<R>(seeds, lower, progress);
    }
    let size = R::layer_size(seeds);
    let layout = Layout::new(size, ranks, unit);
    assert!(
        layout.most() < 1 << OWNER_SHIFT && (ranks as u64) < 1 << (64 - OWNER_SHIFT),
        "a share's index and its owner fit a child's slot"
    );
    let len = layout.len(me) as usize;
    // Every rank learns of one that lacks the memory before any exchange.
    let bounds = agree(
        cluster,
        super::layer::try_filled(len as u64, || AtomicU16::new(0)),
    )?;
    let chunks = (len as u64).div_ceil(CHUNK) as usize;
    let open_chunks: Vec<AtomicBool> = (0..chunks).map(|_| AtomicBool::new(true)).collect();

    let most = layout.most();
    let part = Part {
        seeds,
        layout,
        me,
        len: len as u64,
        width: if most > 1 << 32 { 8 } else { 4 },
        bounds: &bounds,
        open_chunks: &open_chunks,
    };
    part.scan::<R>(lower, progress);
    let mut rounds = Rounds::new(block, most, chunks);
    let mut iteration = 0;
    loop {
        iteration += 1;
        let (moved, open) = match ranks {
            1 => part.pass_alone::<R>(chunks),
            _ => rounds.pass::<R>(&part, cluster),
        };
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
                exchanged: cluster.sum(rounds.sent),
            };
            return Ok((bounds, stats));
        }
    }
}

/// Builds the tables of `R` for every seed count with a layer up to
/// `max_seeds` in `dir`, layer by layer, on the ranks of `cluster` (every
/// rank calls it with the same arguments), each layer in rounds of
/// `shape.0` positions dealt out in units of `shape.1`. A layer whose file
/// is there and valid for every rank is loaded instead (a stopped build
/// resumes at the first missing layer; a damaged file is rebuilt). Each
/// rank writes its share of a layer into one file, which rank 0 then seals
/// (header, checksum, rename) so that it appears complete or not at all;
/// the values go from the bounds to the file a piece at a time, and the
/// layers above read the file, so a layer's values are never in memory
/// beside its bounds.
pub(super) fn build_layers<R: TablebaseRules>(
    dir: &Path,
    max_seeds: u32,
    cluster: &dyn Cluster,
    shape: (u64, u64),
    progress: &(dyn Fn(BuildProgress) + Sync),
) -> Result<(Tablebase<R>, Vec<LayerOutcome>), TablebaseError> {
    check_max_seeds::<R>(max_seeds)?;
    let (me, ranks) = (cluster.rank(), cluster.ranks());
    // Two builds of a game into one directory take turns: the second
    // waits, then finds the first one's layers and loads them. Rank 0
    // holds the lock for its cluster (the other ranks follow it).
    let _lock = match me {
        0 => Some(file::build_lock(dir, R::ID.name(), |lock| {
            progress(BuildProgress::Waiting(lock.to_path_buf()))
        })?),
        _ => None,
    };
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
        let (bounds, stats) = build_layer::<R>(seeds, &lower, cluster, shape, &step)?;
        let layout = Layout::new(positions, ranks, shape.1);
        // Rank 0 makes the file, every rank writes its share, rank 0 seals it.
        let by_first =
            |f: &dyn Fn() -> Result<(), TablebaseError>| if me == 0 { f() } else { Ok(()) };
        let written = agree(cluster, by_first(&|| file::create_parts(&path, positions)))
            .and_then(|()| {
                agree(
                    cluster,
                    write_values::<R>(&path, seeds, &bounds, layout.runs(me)),
                )
            })
            .and_then(|()| {
                agree(
                    cluster,
                    by_first(&|| file::seal_parts(&path, R::ID, R::PITS, seeds, positions)),
                )
            });
        drop(bounds);
        if written.is_err() && me == 0 {
            // A full disk or a failed write: the parts file is no use to a
            // later build (it starts the layer again) and must not keep
            // the disk full.
            let _ = std::fs::remove_file(file::parts_path(&path));
        }
        written?;
        let data = agree(
            cluster,
            file::open_layer(&path, R::ID, R::PITS, seeds, positions),
        )?;
        progress(BuildProgress::Built(stats));
        tables.insert(seeds, data);
        outcomes.push(LayerOutcome::Built(stats));
    }
    Ok((tables, outcomes))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::build_in_memory;
    use crate::cluster::ThreadCluster;
    use mancala_rules::{AlManqala, Bohnenspiel, DjenonAbe, Oware};

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
                    let outcomes = build_layers::<R>(dir, max_seeds, c, (block, unit), &|_| {})
                        .unwrap()
                        .1;
                    let layers = max_seeds as usize / super::super::layer_step::<R>() + 1;
                    assert_eq!(outcomes.len(), layers);
                });
            }
        });
        let files = (0..=max_seeds)
            .step_by(super::super::layer_step::<R>())
            .map(|s| std::fs::read(layer_path(&dir, R::ID, s)).unwrap())
            .collect();
        let _ = std::fs::remove_dir_all(&dir);
        files
    }

    fn single_files<R: TablebaseRules>(max_seeds: u32) -> Vec<Vec<u8>> {
        let (tables, _) = build_in_memory::<R>(max_seeds);
        (0..=max_seeds)
            .step_by(super::super::layer_step::<R>())
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

    /// One machine builds Oware working back from settled positions
    /// (`retro.rs`), a cluster in passes: the same files.
    #[test]
    fn working_back_writes_the_files_of_the_passes() {
        const { assert!(Oware::PARENTS) };
        let single = single_files::<Oware>(12);
        assert_eq!(single.len(), 13);
        assert_eq!(cluster_files::<Oware>(2, 12, (BLOCK, UNIT)), single);
    }
}
