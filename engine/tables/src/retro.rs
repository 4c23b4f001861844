//! The builder that works back from settled positions to their parents,
//! on one machine, for the games that can undo a move
//! ([`TablebaseRules::PARENTS`]: Oware).
//!
//! The passes of [`build`](mod@super::build) carry a value one move further along a
//! line of moves inside the layer each time round, and each pass generates
//! the moves of every open position again. In Oware, where seeds leave the
//! board only in captures, values travel along long lines: a layer takes
//! 50 to 70 passes. This builder reaches the same bounds (the same bytes)
//! generating each position's moves once and its parents at most twice.
//!
//! It reads the bounds' fixed point as a game for a threshold `t`, whose
//! two sets only grow as `t` goes down from `n` to `-n`:
//!
//! ```text
//! lo(p) >= t   iff  p's best exit >= t, or a child c has hi(c) <= -t
//! hi(c) <= -t  iff  c's best exit <= -t, and every child c' has lo(c') >= t
//! ```
//!
//! So each position enters each set once, at the threshold that is its
//! bound: its `lo` is set to the first `t` at which it enters the first
//! set, its `hi` to `-t` at the first `t` at which it enters the second.
//! Each position counts down, from the number of its moves that stay in
//! the layer, as its children's `lo` are set; at zero every child has
//! `lo >= t`, so its `hi` is `max(exit, -t)`, at once if that is `-t`,
//! else when the threshold reaches `-exit`. A sweep over the layer at
//! each threshold finds the positions their exits settle there; each
//! position settled is worked back to its parents, depth first, before the
//! sweep goes on. The ones never reached keep `lo = -n` (no exit: endless
//! play is the worst for them) and `hi = n`: the fixed point's bounds,
//! as the passes reach them. (Nothing is learned at `t = -n`, which would
//! only set those defaults, so the sweeps stop above it; nor at a `t`
//! of the other parity than `n`, which no value has.)
//!
//! The exit lives in the `lo` byte of a position until its `lo` is set:
//! a set `lo` is never below the exit, and where it is above it the
//! position's `hi` is already `-t` or more, so `max(lo, -t)` gives the same
//! `hi` as `max(exit, -t)` (the argument of [`super::build::tightened`]).
//! So a position takes three bytes while its layer is built: two for its
//! bounds, one for its count and two flags.

use std::sync::atomic::{AtomicU16, AtomicU8, Ordering::Relaxed};
use std::time::Instant;

use rayon::prelude::*;

use super::layer::{pack, scan_chunk, unpack, BuildEvent, LayerStats, Lower, CHUNK};
use super::{TablebaseError, TablebaseRules};
use mancala_solve::memory::prefetch;

/// The count of a position's moves whose children's `lo` is not yet set.
const COUNT: u8 = 0x0f;
/// The position's `lo` is set.
const LO_SET: u8 = 0x10;
/// The position's `hi` is set.
const HI_SET: u8 = 0x20;
/// Positions settled whose parents are found (and their entries
/// prefetched) before any is updated.
const BATCH: usize = 32;

/// A position settled at the current threshold: its board and which bound
/// was set (`true`: its `lo`).
type Settled = (u128, bool);

/// The layer being built.
struct Layer<'a> {
    bounds: &'a [AtomicU16],
    meta: &'a [AtomicU8],
}

impl Layer<'_> {
    /// Sets `lo` of position `r` to `t` unless it is set; whether it was not.
    #[inline]
    fn set_lo(&self, r: usize, t: i32) -> bool {
        if self.meta[r].fetch_or(LO_SET, Relaxed) & LO_SET != 0 {
            return false;
        }
        let set = |b| Some(pack(t, unpack(b).1));
        let _ = self.bounds[r].fetch_update(Relaxed, Relaxed, set);
        true
    }

    /// Sets `hi` of position `r` to `h` unless it is set; whether it was not.
    #[inline]
    fn set_hi(&self, r: usize, h: i32) -> bool {
        if self.meta[r].fetch_or(HI_SET, Relaxed) & HI_SET != 0 {
            return false;
        }
        let set = |b| Some(pack(unpack(b).0, h));
        let _ = self.bounds[r].fetch_update(Relaxed, Relaxed, set);
        true
    }

    /// Works `stack`'s positions, settled at threshold `t`, back to their
    /// parents, and theirs in turn, until nothing more settles at `t`.
    /// Returns how many positions it settled (beyond those on the stack).
    fn work_back<R: TablebaseRules>(
        &self,
        t: i32,
        stack: &mut Vec<Settled>,
        found: &mut Vec<(u64, u128, bool)>,
    ) -> u64 {
        let mut settled = 0;
        while !stack.is_empty() {
            let from = stack.len().saturating_sub(BATCH);
            found.clear();
            for (board, lo) in stack.drain(from..) {
                R::parents(board, |q| {
                    let r = R::rank(q);
                    prefetch(&self.meta[r as usize]);
                    prefetch(&self.bounds[r as usize]);
                    found.push((r, q, lo));
                });
            }
            for &(r, q, child_lo) in found.iter() {
                let i = r as usize;
                if child_lo {
                    // One more child has `lo >= t`; at the last, `hi` is
                    // `max(exit, -t)`: now if that is `-t`. (The `lo`
                    // byte holds the exit, or a `lo` set, which gives the
                    // same.)
                    let before = self.meta[i].fetch_sub(1, Relaxed);
                    debug_assert!(before & COUNT > 0, "a position counted below zero");
                    let exit = unpack(self.bounds[i].load(Relaxed)).0;
                    if before & COUNT == 1 && exit <= -t && self.set_hi(i, -t) {
                        stack.push((q, false));
                        settled += 1;
                    }
                } else if self.set_lo(i, t) {
                    // A child with `hi <= -t`: `lo >= t`.
                    stack.push((q, true));
                    settled += 1;
                }
            }
        }
        settled
    }

    /// The sweep at threshold `t` over ranks `start..end` (one chunk): the
    /// positions their exit settles at `t`, then worked back. Returns how
    /// many positions were settled.
    fn sweep<R: TablebaseRules>(
        &self,
        seeds: u32,
        t: i32,
        (start, end): (u64, u64),
        work: &mut Work,
    ) -> u64 {
        let Work { hits, stack, found } = work;
        hits.clear();
        for r in start..end {
            let i = r as usize;
            let m = self.meta[i].load(Relaxed);
            let exit = unpack(self.bounds[i].load(Relaxed)).0;
            if m & LO_SET == 0 && exit == t && self.set_lo(i, t) {
                hits.push((r, true));
            }
            if m & (COUNT | HI_SET) == 0 && exit == -t && self.set_hi(i, -t) {
                hits.push((r, false));
            }
        }
        let (Some(&(first, _)), Some(&(last, _))) = (hits.first(), hits.last()) else {
            return 0;
        };
        // The hits' boards: walked to where they are dense, else each
        // found from its rank.
        stack.clear();
        if (last - first) < DENSE * hits.len() as u64 {
            let mut k = 0;
            R::walk(seeds, first, last + 1, |r, pits| {
                while k < hits.len() && hits[k].0 == r {
                    stack.push((pits, hits[k].1));
                    k += 1;
                }
            });
        } else {
            for &(r, lo) in hits.iter() {
                R::walk(seeds, r, r + 1, |_, pits| stack.push((pits, lo)));
            }
        }
        hits.len() as u64 + self.work_back::<R>(t, stack, found)
    }
}

/// Ranks a sweep walks through, a hit to the next, rather than finding
/// the hit's board from its rank (a walk's step costs a few instructions,
/// finding a board from its rank about a hundred).
const DENSE: u64 = 16;

/// A sweep's buffers, kept from chunk to chunk.
#[derive(Default)]
struct Work {
    /// The positions the sweep settled: rank, and whether their `lo` (else
    /// their `hi`).
    hits: Vec<(u64, bool)>,
    stack: Vec<Settled>,
    /// The parents of a batch: rank, board, and whether the child's `lo`
    /// was set (else its `hi`).
    found: Vec<(u64, u128, bool)>,
}

/// Builds layer `seeds` of `R` on one machine by working back from
/// settled positions, from the smaller layers in `lower`: the same bounds
/// as [`super::build::build_layer`]'s passes, and the layer's figures
/// (`iterations`: the thresholds swept, one for every second value).
pub(super) fn build_layer<R: TablebaseRules>(
    seeds: u32,
    lower: &Lower<'_>,
    progress: &(dyn Fn(BuildEvent) + Sync),
) -> Result<(Vec<AtomicU16>, LayerStats), TablebaseError> {
    debug_assert!(R::PARENTS, "only a game that undoes moves works back");
    let started = Instant::now();
    let size = R::layer_size(seeds);
    let n = seeds as i32;
    let bounds = super::layer::try_filled(size, || AtomicU16::new(0))?;
    let meta = super::layer::try_filled(size, || AtomicU8::new(0))?;
    let chunks = size.div_ceil(CHUNK);
    let range = |c: u64| (c * CHUNK, ((c + 1) * CHUNK).min(size));
    (0..chunks).into_par_iter().for_each(|c| {
        let (first, last) = range(c);
        scan_chunk::<R>(seeds, lower, (&bounds, Some(&meta)), 0, (first, last));
        // The scan's `lo` is the best exit (or the value where the game is
        // over): it stays in the `lo` byte until `lo` is set; `hi` starts
        // at `n`.
        for b in &bounds[first as usize..last as usize] {
            b.store(pack(unpack(b.load(Relaxed)).0, n), Relaxed);
        }
        progress(BuildEvent::Scanned {
            seeds,
            positions: last - first,
        });
    });
    let layer = Layer {
        bounds: &bounds,
        meta: &meta,
    };
    // Bounds not yet set: two a position.
    let mut unset = 2 * size;
    // A value is what one side gets less what the other gets of the `n`
    // seeds: it has `n`'s parity, and so has every threshold something
    // settles at.
    for (k, t) in (1 - n..=n).rev().step_by(2).enumerate() {
        let settled: u64 = (0..chunks)
            .into_par_iter()
            .map_init(Work::default, |work, c| {
                layer.sweep::<R>(seeds, t, range(c), work)
            })
            .sum();
        progress(BuildEvent::Iteration {
            seeds,
            iteration: k as u32 + 1,
            unresolved: {
                unset -= settled;
                unset
            },
            changed: settled,
        });
    }
    let cycles = bounds
        .par_iter()
        .filter(|b| {
            let (lo, hi) = unpack(b.load(Relaxed));
            lo < hi
        })
        .count() as u64;
    let stats = LayerStats {
        seeds,
        positions: size,
        iterations: n as u32,
        cycles,
        seconds: started.elapsed().as_secs_f64(),
        exchanged: 0,
    };
    Ok((bounds, stats))
}

#[cfg(test)]
mod tests {
    use super::super::layer::expand;
    use super::*;
    use mancala_rules::Oware;
    use std::collections::HashMap;

    /// Every board's parents, as `parents` gives them, are the boards
    /// whose moves lead to it inside the layer, each once a move: found by
    /// playing every move of every board of the layer.
    fn parents_are_the_moves_undone<R: TablebaseRules>(seeds: u32) -> usize {
        let mut by_moves: HashMap<u128, Vec<u128>> = HashMap::new();
        R::walk(seeds, 0, R::layer_size(seeds), |_, p| {
            expand::<R>(p, |taken, child, _| {
                if taken == 0 {
                    by_moves.entry(child).or_default().push(p);
                }
            });
        });
        let mut checked = 0;
        R::walk(seeds, 0, R::layer_size(seeds), |_, c| {
            let mut undone = Vec::new();
            R::parents(c, |p| undone.push(p));
            undone.sort_unstable();
            let mut played = by_moves.remove(&c).unwrap_or_default();
            played.sort_unstable();
            assert_eq!(undone, played, "parents of {c:#x}");
            checked += played.len();
        });
        assert!(by_moves.is_empty());
        checked
    }

    #[test]
    fn oware_parents_undo_every_quiet_move() {
        // To 12 seeds: laps of 12 and more (a pit of 12 seeds), grand
        // slams and rows fed are among the moves.
        let edges: usize = (0..=12).map(parents_are_the_moves_undone::<Oware>).sum();
        assert!(edges > 1_000_000, "{edges} moves checked");
    }
}
