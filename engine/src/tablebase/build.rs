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

use std::sync::atomic::{AtomicU16, AtomicU64, Ordering::Relaxed};
use std::time::Instant;

use rayon::prelude::*;

use super::TablebaseRules;
use crate::board::Position;
use crate::side::Side;

/// Positions a parallel task walks at once.
const CHUNK: u64 = 1 << 14;
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
}

/// The layers already built, indexed by seed count (values as bytes).
pub(crate) type Lower<'a> = [Option<&'a [u8]>];

/// What a position's moves lead to.
enum Expansion {
    /// The game is over here: the value of the board to the side to move.
    Over(i32),
    /// The best exit value (`NO_EXIT` if none) and whether a move stays in
    /// the layer.
    Moves { exit: i32, inner: bool },
}

#[inline(always)]
fn pack(lo: i32, hi: i32) -> u16 {
    (lo as i8 as u8 as u16) | ((hi as i8 as u8 as u16) << 8)
}

#[inline(always)]
fn unpack(v: u16) -> (i32, i32) {
    (v as u8 as i8 as i32, (v >> 8) as u8 as i8 as i32)
}

/// Calls `inner` with the rank of every child that stays in the layer and
/// returns the position's other facts (the exits only if `EXITS`).
#[inline(always)]
fn expand<R: TablebaseRules, const EXITS: bool>(
    pits: u128,
    seeds: u32,
    lower: &Lower<'_>,
    mut inner: impl FnMut(u64),
) -> Expansion {
    let pos = Position::<R>::from_key(pits);
    let mut exit = NO_EXIT;
    let mut any = false;
    let mut stays = false;
    R::generate(&pos, |_, child| {
        any = true;
        let taken = child.tally(Side::South) as u32;
        let board = R::mirror(child.key() & Position::<R>::PIT_MASK);
        if taken == 0 {
            stays = true;
            inner(R::rank(board));
        } else if EXITS {
            let layer = lower[(seeds - taken) as usize].expect("smaller layers are built first");
            let v = taken as i32 - layer[R::rank(board) as usize] as i8 as i32;
            exit = exit.max(v);
        }
    });
    if !any {
        let totals = R::final_totals(&pos);
        return Expansion::Over(crate::game::margin(totals, crate::Side::South));
    }
    Expansion::Moves { exit, inner: stays }
}

/// Builds layer `seeds` (even) from the smaller layers in `lower`, in
/// parallel on rayon's pool. Returns one byte a position (an `i8`, the
/// value to the side to move) in rank order, and the layer's figures.
pub(crate) fn build_layer<R: TablebaseRules>(
    seeds: u32,
    lower: &Lower<'_>,
    progress: &(dyn Fn(BuildEvent) + Sync),
) -> (Vec<u8>, LayerStats) {
    let started = Instant::now();
    let n = seeds as i32;
    let size = R::layer_size(seeds);
    let bounds: Vec<AtomicU16> = (0..size)
        .into_par_iter()
        .map(|_| AtomicU16::new(0))
        .collect();
    let mut exits = vec![0i8; size as usize];

    // The scan: terminal positions and positions whose every move exits
    // are exact at once; the others get their best exit and wide bounds.
    exits
        .par_chunks_mut(CHUNK as usize)
        .enumerate()
        .for_each(|(c, out)| {
            let start = c as u64 * CHUNK;
            let end = start + out.len() as u64;
            R::walk(seeds, start, end, |r, pits| {
                let (lo, hi, ex) = match expand::<R, true>(pits, seeds, lower, |_| {}) {
                    Expansion::Over(v) => (v, v, NO_EXIT),
                    Expansion::Moves { exit, inner: false } => (exit, exit, exit),
                    Expansion::Moves { exit, inner: true } => (exit.max(-n), n, exit),
                };
                out[(r - start) as usize] = ex.max(i8::MIN as i32) as i8;
                bounds[r as usize].store(pack(lo, hi), Relaxed);
            });
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
        (0..size.div_ceil(CHUNK)).into_par_iter().for_each(|c| {
            let start = c * CHUNK;
            let end = (start + CHUNK).min(size);
            let (mut moved, mut open) = (0u64, 0u64);
            R::walk(seeds, start, end, |r, pits| {
                let (lo, hi) = unpack(bounds[r as usize].load(Relaxed));
                if lo == hi {
                    return;
                }
                let ex = exits[r as usize] as i32;
                let ex = if ex == i8::MIN as i32 { NO_EXIT } else { ex };
                let (mut new_lo, mut new_hi) = (ex, ex);
                expand::<R, false>(pits, seeds, lower, |child| {
                    let (clo, chi) = unpack(bounds[child as usize].load(Relaxed));
                    new_lo = new_lo.max(-chi);
                    new_hi = new_hi.max(-clo);
                });
                let (new_lo, new_hi) = (new_lo.max(lo), new_hi.min(hi));
                if (new_lo, new_hi) != (lo, hi) {
                    moved += 1;
                    bounds[r as usize].store(pack(new_lo, new_hi), Relaxed);
                }
                if new_lo < new_hi {
                    open += 1;
                }
            });
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
            let values = bounds
                .par_iter()
                .map(|b| {
                    let (lo, hi) = unpack(b.load(Relaxed));
                    0.clamp(lo, hi) as i8 as u8
                })
                .collect();
            let stats = LayerStats {
                seeds,
                positions: size,
                iterations: iteration,
                cycles: unresolved,
                seconds: started.elapsed().as_secs_f64(),
            };
            return (values, stats);
        }
    }
}
