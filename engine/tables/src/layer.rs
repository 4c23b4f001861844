//! What both layer builders share: a position's bounds packed in the two
//! bytes it holds while its layer is built ([`pack`]), its moves read as
//! exits to the smaller layers or stays in its own ([`expand`]), the first
//! scan of a stretch of the layer ([`scan_chunk`]), the values read from
//! the bounds at their fixed point ([`values`], [`write_values`]), and what
//! a build reports ([`BuildEvent`], [`LayerStats`]).
//!
//! The builders are the passes to a fixed point
//! ([`build`](mod@super::build), one machine or the ranks of a cluster)
//! and working back from the settled positions ([`retro`](super::retro),
//! Oware on one machine); `build` explains the bounds.

use std::sync::atomic::{AtomicU16, AtomicU8, Ordering::Relaxed};

use rayon::prelude::*;

use super::{file, TablebaseError, TablebaseRules};
use mancala_rules::Position;
use mancala_rules::Side;
use mancala_solve::memory::prefetch;

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
    /// Fixed-point iterations after the first scan (the last one changes
    /// nothing); where the layer is worked back from settled positions
    /// (Oware on one machine), the thresholds swept.
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
    (!any).then(|| mancala_rules::margin(R::final_totals(&pos), Side::South))
}

/// Positions the scan holds before it reads their exits' entries.
const BATCH: usize = 64;

/// The scan, a batch at a time: the moves of [`BATCH`] positions are
/// generated (and the smaller layers' entries they exit to prefetched)
/// before the entries are read, so that the reads overlap where one
/// position's reads at a time would each wait on memory.
struct Scan<'a> {
    /// The rank of `bounds[0]`.
    base: u64,
    bounds: &'a [AtomicU16],
    /// Where to count each position's moves that stay in the layer, if
    /// anywhere (the builder that works back, [`super::retro`]).
    stays: Option<&'a [AtomicU8]>,
    n: i32,
    /// Per position: its rank, whether the game is over there (and its
    /// value), how many of its moves stay in the layer, and its exits' span.
    pending: Vec<(u64, Option<i32>, u8, std::ops::Range<usize>)>,
    /// The seeds each exit takes and the entry of the board it leaves.
    exits: Vec<(u32, i32, &'a u8)>,
    /// Whether a position scanned is left with open bounds.
    open: bool,
}

impl<'a> Scan<'a> {
    fn new(base: u64, bounds: &'a [AtomicU16], stays: Option<&'a [AtomicU8]>, n: i32) -> Self {
        Scan {
            base,
            bounds,
            stays,
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
        let mut stays = 0;
        let exits = &mut self.exits;
        let over = expand(&mut |exit| match exit {
            None => stays += 1,
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
                (None, 0) => (exit, exit),
                (None, _) => (exit.max(-n), n),
            };
            let i = (r - self.base) as usize;
            self.bounds[i].store(pack(lo, hi), Relaxed);
            if let Some(count) = self.stays {
                count[i].store(stays, Relaxed);
            }
            self.open |= lo < hi;
        }
        self.exits.clear();
    }
}

/// Scans the positions `start..end` of layer `seeds`: their first bounds
/// (from their exits to the smaller layers) go to `bounds` (whose first
/// entry is rank `base`), and the number of their moves that stay in the
/// layer to `stays` if given. Returns whether one of them is left with
/// open bounds.
pub(super) fn scan_chunk<R: TablebaseRules>(
    seeds: u32,
    lower: &Lower<'_>,
    (bounds, stays): (&[AtomicU16], Option<&[AtomicU8]>),
    base: u64,
    (start, end): (u64, u64),
) -> bool {
    let mut scan = Scan::new(base, bounds, stays, seeds as i32);
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

/// `len` values made by `make`, in memory asked for first: an allocation
/// the system refuses (a limit of the address space, `ulimit -v`) is an
/// error naming the bytes, not an abort. Filled on every thread.
pub(super) fn try_filled<T: Send>(
    len: u64,
    make: impl Fn() -> T + Sync + Send,
) -> Result<Vec<T>, TablebaseError> {
    let bytes = len.saturating_mul(std::mem::size_of::<T>() as u64);
    let mut v = Vec::new();
    usize::try_from(len)
        .ok()
        .and_then(|n| v.try_reserve_exact(n).ok())
        .ok_or(TablebaseError::OutOfMemory { bytes })?;
    v.par_extend((0..len).into_par_iter().map(|_| make()));
    Ok(v)
}
