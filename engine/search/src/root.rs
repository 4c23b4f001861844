//! The root: each iteration's principal variation search of the root
//! moves, or an exact score for every one ([`Worker::iterate`]), inside
//! aspiration windows.

use super::score::INFINITY;
use super::value::{Value, NO_REP};
use super::worker::Worker;
use super::Evaluate;
use mancala_rules::Move;
use mancala_rules::Position;
use mancala_rules::Rules;
use mancala_solve::tt::Bound;
use mancala_solve::values::BoardValues;

/// A root move with what the last iteration learnt about it.
#[derive(Clone, Debug)]
pub(crate) struct RootMove<R: Rules> {
    pub mv: Move,
    pub child: Position<R>,
    /// Whether the root's side to move moves again after it (Kalah).
    pub again: bool,
    pub score: i32,
    pub bound: Bound,
    pub proven: bool,
    pub pv: Vec<Move>,
}

/// The root's moves, not yet searched.
pub(super) fn root_moves<R: Rules>(root: &Position<R>) -> Vec<RootMove<R>> {
    let mut moves = Vec::new();
    R::generate(root, |mv, child| {
        moves.push(RootMove {
            mv,
            child,
            again: child.moves_again_after(root),
            score: -INFINITY,
            bound: Bound::Upper,
            proven: false,
            pv: vec![mv],
        })
    });
    moves
}

impl<'a, R: Rules, E: Evaluate<R>, T: BoardValues<R> + ?Sized> Worker<'a, R, E, T> {
    /// Searches one root move within `(alpha, beta)` and records the result
    /// in it. Returns the value from the root's view.
    fn root_move(&mut self, rm: &mut RootMove<R>, depth: i32, alpha: i32, beta: i32) -> Value {
        let v = self.child_value(rm.again, &rm.child, depth - 1, alpha, beta, 1);
        if !self.aborted {
            rm.score = v.score;
            rm.proven = v.proven;
            rm.bound = if v.score <= alpha {
                Bound::Upper
            } else if v.score >= beta {
                Bound::Lower
            } else {
                Bound::Exact
            };
            if rm.bound != Bound::Upper {
                let mut pv = vec![rm.mv];
                pv.extend_from_slice(self.pv_at(1));
                rm.pv = pv;
            }
        }
        v
    }

    /// A root move after the first: the null window at `alpha`, then the
    /// full window if it fails high inside `(alpha, beta)`. Also says
    /// whether the null-window search finished and failed high (the move
    /// is better than every one before it at this depth, even if the
    /// full-window search is then interrupted).
    fn later_root_move(
        &mut self,
        rm: &mut RootMove<R>,
        depth: i32,
        alpha: i32,
        beta: i32,
    ) -> (Value, bool) {
        let v = self.root_move(rm, depth, alpha, alpha + 1);
        let failed_high = v.score > alpha && !self.aborted;
        if failed_high && v.score < beta {
            (self.root_move(rm, depth, alpha, beta), true)
        } else {
            (v, failed_high)
        }
    }

    /// Principal variation search of the root moves within `(alpha, beta)`;
    /// the best move goes to the front. Returns the best value.
    fn root_pvs(
        &mut self,
        moves: &mut [RootMove<R>],
        depth: i32,
        mut alpha: i32,
        beta: i32,
    ) -> Value {
        let mut best = Value {
            score: -INFINITY,
            proven: false,
            rep: NO_REP,
        };
        let mut best_index = 0;
        // The last later move whose null-window search failed high.
        let mut fail_high = None;
        // Every thread searches the root moves in order (none is put off
        // here): a move that fails high before the clock runs out must be
        // found by the main thread, which plays it (see below).
        for i in 0..moves.len() {
            let rm = &mut moves[i];
            let v = if i == 0 {
                self.root_move(rm, depth, alpha, beta)
            } else {
                let (v, failed_high) = self.later_root_move(rm, depth, alpha, beta);
                if failed_high {
                    fail_high = Some(i);
                }
                v
            };
            if self.aborted {
                // A move that beat the first one before the clock ran out
                // is the better move of this (unfinished) iteration.
                if let Some(j) = fail_high {
                    moves[..=j].rotate_right(1);
                    self.new_best = true;
                }
                return best;
            }
            if v.score > best.score {
                best = v;
                best_index = i;
                if v.score > alpha {
                    alpha = v.score;
                    if alpha >= beta {
                        break;
                    }
                }
            }
        }
        moves[..=best_index].rotate_right(1);
        best
    }

    /// One iteration to `depth`. With `all_moves`, every root move gets an
    /// exact score (each its own aspiration window) and the moves are
    /// sorted best first; otherwise a PVS with an aspiration window around
    /// `prev` finds the best move and bounds the others.
    pub(super) fn iterate(
        &mut self,
        moves: &mut [RootMove<R>],
        depth: u32,
        prev: Option<i32>,
        all_moves: bool,
    ) {
        use super::params::ASPIRATION_FROM_DEPTH;
        let d = depth as i32;
        let aspire = depth >= ASPIRATION_FROM_DEPTH;
        if all_moves {
            for rm in moves.iter_mut() {
                self.exact_root_move(rm, d, aspire);
                if self.aborted {
                    return;
                }
            }
            moves.sort_by_key(|m| std::cmp::Reverse(m.score));
        } else {
            let centre = if aspire { prev } else { None };
            self.aspirated(centre, |w, lo, hi| w.root_pvs(moves, d, lo, hi));
        }
    }

    /// An exact score for one root move: its own aspiration window, centred
    /// on its last exact score.
    fn exact_root_move(&mut self, rm: &mut RootMove<R>, depth: i32, aspire: bool) {
        let centre = (aspire && rm.bound == Bound::Exact).then_some(rm.score);
        self.aspirated(centre, |w, lo, hi| w.root_move(rm, depth, lo, hi));
    }

    /// Runs `search(lo, hi)` with a window around `centre` (or open),
    /// widening it until the value falls inside.
    fn aspirated(
        &mut self,
        centre: Option<i32>,
        mut search: impl FnMut(&mut Self, i32, i32) -> Value,
    ) {
        use super::params::{ASPIRATION_GROWTH, ASPIRATION_WINDOW};
        let mut width = ASPIRATION_WINDOW;
        let (mut lo, mut hi) = match centre {
            Some(c) => ((c - width).max(-INFINITY), (c + width).min(INFINITY)),
            None => (-INFINITY, INFINITY),
        };
        loop {
            let v = search(self, lo, hi);
            if self.aborted {
                return;
            }
            if v.score <= lo && lo > -INFINITY {
                width *= ASPIRATION_GROWTH;
                lo = (v.score - width).max(-INFINITY);
            } else if v.score >= hi && hi < INFINITY {
                width *= ASPIRATION_GROWTH;
                hi = (v.score + width).min(INFINITY);
            } else {
                return;
            }
        }
    }
}
