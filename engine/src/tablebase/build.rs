//! Building a layer by retrograde analysis with bounds iterated to a fixed
//! point.
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

use std::sync::atomic::{AtomicBool, AtomicU16, AtomicU64, Ordering::Relaxed};
use std::time::Instant;

use rayon::prelude::*;

use super::{file, TablebaseRules};
use crate::board::Position;
use crate::side::Side;

/// Positions a parallel task walks at once.
pub(super) const CHUNK: u64 = 1 << 14;
/// No exit move (every move stays in the layer).
const NO_EXIT: i32 = -1000;

/// What the builder reports while it works.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BuildEvent {
    /// The first pass over layer `seeds` has scanned `positions` more positions.
    Scanned {
        /// The layer.
        seeds: u32,
        /// Positions scanned since the last event.
        positions: u64,
    },
    /// A fixed-point iteration over layer `seeds` has ended.
    Iteration {
        /// The layer.
        seeds: u32,
        /// Iterations so far (1 = the first after the scan).
        iteration: u32,
        /// Positions whose bounds still differ.
        unresolved: u64,
        /// Positions whose bounds moved in this iteration.
        changed: u64,
    },
}

/// Figures of one layer built.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LayerStats {
    /// Seeds on the board.
    pub seeds: u32,
    /// Positions in the layer (South to move).
    pub positions: u64,
    /// Fixed-point iterations after the first scan (the last one changes nothing).
    pub iterations: u32,
    /// Positions whose bounds never met: optimal play may cycle there.
    pub cycles: u64,
    /// Wall-clock seconds.
    pub seconds: f64,
    /// Bytes the processes of a cluster build sent each other for this
    /// layer (0 on one machine).
    pub exchanged: u64,
}

/// The layers already built, indexed by seed count (values as bytes).
pub(crate) type Lower<'a> = [Option<&'a [u8]>];

#[inline(always)]
pub(super) fn pack(lo: i32, hi: i32) -> u16 {
    (lo as i8 as u8 as u16) | ((hi as i8 as u8 as u16) << 8)
}

#[inline(always)]
pub(super) fn unpack(v: u16) -> (i32, i32) {
    (v as u8 as i8 as i32, (v >> 8) as u8 as i8 as i32)
}

/// Calls `child` with every move's child: the seeds the move took (0 for a
/// child in the layer), the child's board read South to move (mirrored,
/// unless South moves again; rank it with [`TablebaseRules::rank`]) and
/// whether South moves again (Kalah; only after taking seeds, so never in
/// the layer). Returns the value of the board to the side to move if the
/// game is over (no move).
#[inline(always)]
pub(super) fn expand<R: TablebaseRules>(
    pits: u128,
    mut child: impl FnMut(u32, u128, bool),
) -> Option<i32> {
    let pos = Position::<R>::from_key(pits);
    let mut any = false;
    R::generate(&pos, |_, c| {
        any = true;
        let again = c.moves_again_after(&pos);
        let board = c.key() & Position::<R>::PIT_MASK;
        let taken = c.tally(Side::South) as u32;
        debug_assert!(taken > 0 || !again, "a move again stays in the layer");
        child(taken, if again { board } else { R::mirror(board) }, again);
    });
    (!any).then(|| crate::game::margin(R::final_totals(&pos), Side::South))
}

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

/// Positions of one pass whose children are generated (and their bounds
/// prefetched) before any is read: the reads of a batch then overlap,
/// where one position's reads at a time would each wait on memory.
struct Batch<'a> {
    bounds: &'a [AtomicU16],
    pending: Vec<Pending>,
    children: Vec<u64>,
    /// Positions whose bounds moved, and those still open, so far.
    moved: u64,
    open: u64,
}

/// A position in a [`Batch`]: its rank, bounds, and its children's span
/// in `children`.
type Pending = (u64, (i32, i32), std::ops::Range<usize>);

/// Positions a [`Batch`] holds before it reads their children's bounds.
const BATCH: usize = 64;

impl<'a> Batch<'a> {
    fn new(bounds: &'a [AtomicU16]) -> Self {
        Batch {
            bounds,
            pending: Vec::with_capacity(BATCH),
            children: Vec::with_capacity(BATCH * 8),
            moved: 0,
            open: 0,
        }
    }

    /// Adds position `r` (bounds `lo_hi`); `expand` calls its argument
    /// with the rank of every child in the layer.
    #[inline(always)]
    fn add(&mut self, r: u64, lo_hi: (i32, i32), expand: impl FnOnce(&mut dyn FnMut(u64))) {
        let first = self.children.len();
        let (bounds, children) = (self.bounds, &mut self.children);
        expand(&mut |child| {
            prefetch(&bounds[child as usize]);
            children.push(child);
        });
        self.pending.push((r, lo_hi, first..self.children.len()));
        if self.pending.len() == BATCH {
            self.flush();
        }
    }

    /// Updates the bounds of the positions held from their children's.
    fn flush(&mut self) {
        for (r, (lo, hi), span) in self.pending.drain(..) {
            let children = self.children[span]
                .iter()
                .map(|&child| self.bounds[child as usize].load(Relaxed));
            let (new_lo, new_hi) = tightened(lo, hi, children);
            if (new_lo, new_hi) != (lo, hi) {
                self.moved += 1;
                self.bounds[r as usize].store(pack(new_lo, new_hi), Relaxed);
            }
            if new_lo < new_hi {
                self.open += 1;
            }
        }
        self.children.clear();
    }
}

/// The scan's [`Batch`]: positions whose moves are generated (and the
/// smaller layers' entries they exit to prefetched) before the entries are
/// read.
struct Scan<'a> {
    /// The rank of `bounds[0]`.
    base: u64,
    bounds: &'a [AtomicU16],
    n: i32,
    /// Per position: its rank, whether the game is over there (and its
    /// value), whether a move stays in the layer, and its exits' span.
    pending: Vec<(u64, Option<i32>, bool, std::ops::Range<usize>)>,
    /// The seeds each exit takes and the entry of the board it leaves.
    exits: Vec<(u32, i32, &'a u8)>,
    /// Whether a position scanned is left with open bounds.
    open: bool,
}

impl<'a> Scan<'a> {
    fn new(base: u64, bounds: &'a [AtomicU16], n: i32) -> Self {
        Scan {
            base,
            bounds,
            n,
            pending: Vec::with_capacity(BATCH),
            exits: Vec::with_capacity(BATCH * 8),
            open: false,
        }
    }

    /// Adds position `r`; `expand` calls its argument with `None` for a
    /// move that stays in the layer and, for one that exits, the seeds
    /// taken and the entry left (with its sign: +1 where the mover moves
    /// again, else -1), and returns the game's value if it is over.
    #[inline(always)]
    fn add(
        &mut self,
        r: u64,
        expand: impl FnOnce(&mut dyn FnMut(Option<(u32, i32, &'a u8)>)) -> Option<i32>,
    ) {
        let first = self.exits.len();
        let mut stays = false;
        let exits = &mut self.exits;
        let over = expand(&mut |exit| match exit {
            None => stays = true,
            Some((taken, sign, entry)) => {
                prefetch(entry);
                exits.push((taken, sign, entry));
            }
        });
        self.pending.push((r, over, stays, first..self.exits.len()));
        if self.pending.len() == BATCH {
            self.flush();
        }
    }

    /// Scores the positions held.
    fn flush(&mut self) {
        let n = self.n;
        for (r, over, stays, span) in self.pending.drain(..) {
            let exit = self.exits[span]
                .iter()
                .map(|&(taken, sign, &v)| taken as i32 + sign * v as i8 as i32)
                .max()
                .unwrap_or(NO_EXIT);
            let (lo, hi) = match (over, stays) {
                (Some(v), _) => (v, v),
                (None, false) => (exit, exit),
                (None, true) => (exit.max(-n), n),
            };
            self.bounds[(r - self.base) as usize].store(pack(lo, hi), Relaxed);
            self.open |= lo < hi;
        }
        self.exits.clear();
    }
}

/// Asks the processor to bring `x`'s cache line in (a hint: it reads or
/// writes nothing).
#[inline(always)]
pub(super) fn prefetch<T>(x: &T) {
    #[cfg(target_arch = "x86_64")]
    #[allow(unsafe_code)]
    // SAFETY: a prefetch has no effect on memory or on the program's
    // state, whatever the address; this one is a live reference anyway.
    unsafe {
        std::arch::x86_64::_mm_prefetch::<{ std::arch::x86_64::_MM_HINT_T0 }>(
            x as *const T as *const i8,
        );
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = x;
}

/// Scans the positions `start..end` of layer `seeds`: their first bounds
/// (from their exits to the smaller layers) go to `bounds` (whose first
/// entry is rank `base`). Returns whether one of them is left with open
/// bounds.
pub(super) fn scan_chunk<R: TablebaseRules>(
    seeds: u32,
    lower: &Lower<'_>,
    bounds: &[AtomicU16],
    base: u64,
    (start, end): (u64, u64),
) -> bool {
    let mut scan = Scan::new(base, bounds, seeds as i32);
    R::walk(seeds, start, end, |r, pits| {
        scan.add(r, |exit| {
            expand::<R>(pits, |taken, board, again| {
                if taken == 0 {
                    exit(None);
                } else {
                    let layer =
                        lower[(seeds - taken) as usize].expect("smaller layers are built first");
                    let sign = if again { 1 } else { -1 };
                    exit(Some((taken, sign, &layer[R::rank(board) as usize])));
                }
            })
        });
    });
    scan.flush();
    scan.open
}

/// The value of a position whose bounds are at their fixed point: the
/// bound nearest `cycle`, what endless play is worth there (0, the split of
/// the board, in every game but Oware: [`TablebaseRules::cycle_value`]).
#[inline(always)]
fn value(bound: &AtomicU16, cycle: i32) -> u8 {
    let (lo, hi) = unpack(bound.load(Relaxed));
    cycle.clamp(lo, hi) as i8 as u8
}

/// The values of the positions of layer `seeds` from rank `first` on,
/// whose bounds (at their fixed point) are `bounds`.
fn values_from<R: TablebaseRules>(seeds: u32, first: u64, bounds: &[AtomicU16]) -> Vec<u8> {
    if !R::CYCLES_BY_BOARD {
        return bounds.par_iter().map(|b| value(b, 0)).collect();
    }
    let mut out = vec![0u8; bounds.len()];
    out.par_chunks_mut(CHUNK as usize)
        .zip(bounds.par_chunks(CHUNK as usize))
        .enumerate()
        .for_each(|(c, (out, bounds))| {
            let start = first + (c as u64) * CHUNK;
            R::walk(seeds, start, start + bounds.len() as u64, |r, pits| {
                let i = (r - start) as usize;
                out[i] = value(&bounds[i], R::cycle_value(pits));
            });
        });
    out
}

/// The values of a whole layer `seeds` whose bounds are at their fixed
/// point.
pub(super) fn values<R: TablebaseRules>(seeds: u32, bounds: &[AtomicU16]) -> Vec<u8> {
    values_from::<R>(seeds, 0, bounds)
}

/// Positions whose values [`write_values`] makes and writes at a time.
const WRITE_PIECE: usize = 1 << 20;

/// Writes the values of `runs` of `bounds` into the parts file of layer
/// `seeds` at `path` (made by [`file::create_parts`]): each run is a rank
/// in the layer, the index of its first bound and a length. The values are
/// made a piece at a time, so that a layer's values are never held in
/// memory beside its bounds.
pub(super) fn write_values<R: TablebaseRules>(
    path: &std::path::Path,
    seeds: u32,
    bounds: &[AtomicU16],
    runs: impl Iterator<Item = (u64, u64, u64)>,
) -> Result<(), super::TablebaseError> {
    let pieces = runs.flat_map(|(rank, local, len)| {
        (0..len).step_by(WRITE_PIECE).map(move |k| {
            let n = (len - k).min(WRITE_PIECE as u64);
            let from = (local + k) as usize;
            let piece = values_from::<R>(seeds, rank + k, &bounds[from..from + n as usize]);
            (rank + k, piece)
        })
    });
    file::write_part(path, pieces)
}

/// Builds layer `seeds` (even) from the smaller layers in `lower`, in
/// parallel on rayon's pool. Returns the bounds of every position at
/// their fixed point, in rank order ([`values`] and [`write_values`] read
/// the values from them), and the layer's figures.
pub(crate) fn build_layer<R: TablebaseRules>(
    seeds: u32,
    lower: &Lower<'_>,
    progress: &(dyn Fn(BuildEvent) + Sync),
) -> (Vec<AtomicU16>, LayerStats) {
    let started = Instant::now();
    let size = R::layer_size(seeds);
    let bounds: Vec<AtomicU16> = (0..size)
        .into_par_iter()
        .map(|_| AtomicU16::new(0))
        .collect();
    let chunks = size.div_ceil(CHUNK) as usize;
    // Per chunk of positions, whether one of them still had open bounds
    // after the last pass over it (the others are skipped).
    let open_chunks: Vec<AtomicBool> = (0..chunks).map(|_| AtomicBool::new(true)).collect();

    // The scan: terminal positions and positions whose every move exits
    // are exact at once; the others get their best exit as lower bound.
    // (Reading the bounds of the children scanned already would tighten
    // them, but costs more in random reads than it saves later.)
    (0..chunks).into_par_iter().for_each(|c| {
        let start = c as u64 * CHUNK;
        let end = (start + CHUNK).min(size);
        let open = scan_chunk::<R>(seeds, lower, &bounds, 0, (start, end));
        open_chunks[c].store(open, Relaxed);
        progress(BuildEvent::Scanned {
            seeds,
            positions: end - start,
        });
    });

    // The fixed point, in place (a bound read early is still a bound).
    let mut iteration = 0;
    loop {
        iteration += 1;
        let changed = AtomicU64::new(0);
        let unresolved = AtomicU64::new(0);
        (0..chunks).into_par_iter().for_each(|c| {
            if !open_chunks[c].load(Relaxed) {
                return;
            }
            let start = c as u64 * CHUNK;
            let end = (start + CHUNK).min(size);
            let mut batch = Batch::new(&bounds);
            R::walk(seeds, start, end, |r, pits| {
                let (lo, hi) = unpack(bounds[r as usize].load(Relaxed));
                if lo == hi {
                    return;
                }
                batch.add(r, (lo, hi), |child| {
                    expand::<R>(pits, |taken, board, _| {
                        if taken == 0 {
                            child(R::rank(board));
                        }
                    });
                });
            });
            batch.flush();
            let (moved, open) = (batch.moved, batch.open);
            open_chunks[c].store(open > 0, Relaxed);
            changed.fetch_add(moved, Relaxed);
            unresolved.fetch_add(open, Relaxed);
        });
        let (changed, unresolved) = (changed.into_inner(), unresolved.into_inner());
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
                exchanged: 0,
            };
            return (bounds, stats);
        }
    }
}
