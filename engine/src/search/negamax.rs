//! The serial principal variation search of one node ([`Worker::negamax`]),
//! with the cycle rule, table probes, proof tracking and, with other threads
//! searching, the deferral of children they are busy with.

use super::deferral::ChildOrder;
use super::ordering::pick;
use super::params::{
    CHECK_EVERY, DEFER_MIN_DEPTH, IIR_MIN_DEPTH, LMR_FROM_MOVE, LMR_MIN_DEPTH, LMR_PLIES, MAX_PLY,
    RFP_MARGIN, RFP_MAX_DEPTH, TT_MIN_DEPTH,
};
use super::score::{margin_score, INFINITY, MAX_EVAL, SCALE};
use super::value::{Value, NO_REP};
use super::worker::Worker;
use super::Evaluate;
use crate::board::Position;
use crate::game::Rules;
use crate::moves::{Move, MAX_MOVES};
use crate::tablebase::BoardValues;
use crate::tt::{Bound, TtEntry};

impl<'a, R: Rules, E: Evaluate<R>, T: BoardValues<R> + ?Sized> Worker<'a, R, E, T> {
    /// Searches `pos` (not the root) to `depth` plies within `(alpha, beta)`.
    pub(super) fn negamax(
        &mut self,
        pos: &Position<R>,
        depth: i32,
        mut alpha: i32,
        beta: i32,
        ply: usize,
    ) -> Value {
        const NONE: Value = Value {
            score: 0,
            proven: false,
            rep: NO_REP,
        };
        self.nodes += 1;
        self.unreported += 1;
        self.pv_len[ply] = 0;
        if self.unreported >= CHECK_EVERY {
            self.check_limits();
        }
        if self.aborted {
            return NONE;
        }

        // The cycle rule: a repetition is scored as the board split equally.
        let key = pos.key();
        if let Some(at) = self.path.earlier_key(key) {
            return Value {
                score: margin_score(pos, pos.cycle_totals()),
                proven: true,
                rep: at as u32,
            };
        }

        // An endgame table hit: the exact value, no search.
        if let Some(margin) = self.tables.margin(pos) {
            return Value {
                score: margin * SCALE,
                proven: true,
                rep: NO_REP,
            };
        }

        if depth <= 0 || ply >= MAX_PLY {
            if R::ends_early(pos) || !R::has_moves(pos) {
                return Self::terminal(pos);
            }
            return Value {
                score: self.eval.evaluate(pos).clamp(-MAX_EVAL, MAX_EVAL),
                proven: false,
                rep: NO_REP,
            };
        }

        // At the frontier (depth 1) the table costs more (a cache miss) than
        // it saves: its children are only evaluated.
        let use_tt = depth >= TT_MIN_DEPTH;
        let mut tt_move = None;
        if let Some(e) = if use_tt { self.tt.probe(key) } else { None } {
            tt_move = e.mv;
            if e.proven || e.depth as i32 >= depth {
                let s = e.score as i32;
                let usable = match e.bound {
                    Bound::Exact => true,
                    Bound::Lower => s >= beta,
                    Bound::Upper => s <= alpha,
                };
                if usable {
                    return Value {
                        score: s,
                        proven: e.proven,
                        rep: NO_REP,
                    };
                }
            }
        }

        // Internal iterative reduction: a node deep enough to use the table
        // that finds no move in it has nothing to order its children by;
        // it is searched a ply shallower, and that search stores the move
        // the next iteration tries first.
        let depth = if use_tt && tt_move.is_none() && depth >= IIR_MIN_DEPTH {
            depth - 1
        } else {
            depth
        };
        let mut children = [(Move::PASS, Position::from_key(0)); MAX_MOVES];
        let mut n = 0;
        R::generate(pos, |mv, child| {
            children[n] = (mv, child);
            n += 1;
        });
        if n == 0 {
            return Self::terminal(pos);
        }
        let pv_node = beta - alpha > 1;
        // Reverse futility pruning: close to the horizon, off the principal
        // variation, a position evaluated a margin a ply above beta is
        // taken to fail high without a search.
        if !pv_node && depth <= RFP_MAX_DEPTH && beta < MAX_EVAL {
            let margin = RFP_MARGIN * depth;
            let eval = self.eval.evaluate(pos).clamp(-MAX_EVAL, MAX_EVAL);
            if eval - margin >= beta {
                return Value {
                    score: eval - margin,
                    proven: false,
                    rep: NO_REP,
                };
            }
        }
        let children = &mut children[..n];
        let mut keys = [0; MAX_MOVES];
        self.ordering.score(pos, ply, tt_move, children, &mut keys);

        let alpha_orig = alpha;
        let side = pos.side_to_move();
        let banked = pos.tally(side);
        let mut best = -INFINITY;
        let mut best_move = None;
        let mut all_proven = true;
        let mut cut_proven = false;
        // The earliest repetition relied on: by every child, by the cut.
        let mut all_rep = NO_REP;
        let mut cut_rep = NO_REP;
        // Late move reductions (plies) of the child in place `i` of the order.
        let reduction = |i: usize, child: &Position<R>| {
            if depth >= LMR_MIN_DEPTH && i >= LMR_FROM_MOVE && child.tally(side) == banked {
                LMR_PLIES
            } else {
                0
            }
        };
        // Folds one child's value into the node's; true on a cut-off.
        macro_rules! record {
            ($v:expr, $mv:expr, $child:expr) => {{
                let (v, mv): (Value, Move) = ($v, $mv);
                let mut cut = false;
                if v.score > best {
                    best = v.score;
                    best_move = Some(mv);
                    if v.score > alpha {
                        alpha = v.score;
                        if pv_node {
                            self.update_pv(ply, mv);
                        }
                        if alpha >= beta {
                            cut_proven = v.proven;
                            cut_rep = v.rep;
                            if $child.tally(side) == banked {
                                self.ordering.cutoff(side.index(), ply, mv, depth);
                            }
                            cut = true;
                        }
                    }
                }
                if !cut {
                    all_proven &= v.proven;
                    all_rep = all_rep.min(v.rep);
                }
                cut
            }};
        }
        self.path.push_key(key);
        // With other threads, a later child one of them is searching right
        // now is put off to the end (see `Deferrals`): by then its value
        // is likely in the table.
        let deferrals = self.deferrals.filter(|_| depth >= DEFER_MIN_DEPTH);
        let mut order = ChildOrder::new(n);
        while let Some((i, first_time)) = order.next() {
            if first_time {
                pick(children, &mut keys, i);
            }
            let (mv, child) = children[i];
            let again = child.moves_again_after(pos);
            let v = if i == 0 {
                self.child_value(again, &child, depth - 1, alpha, beta, ply + 1)
            } else {
                let r = reduction(i, &child);
                let pv = pv_node;
                match deferrals.filter(|_| first_time) {
                    None => self.later_child(again, &child, depth, alpha, beta, ply, pv, r),
                    Some(d) => {
                        let Some(claim) = d.claim(&child) else {
                            order.put_off(i);
                            continue;
                        };
                        let v = self.later_child(again, &child, depth, alpha, beta, ply, pv, r);
                        d.release(claim);
                        v
                    }
                }
            };
            if self.aborted {
                self.path.pop();
                return NONE;
            }
            if record!(v, mv, child) {
                break;
            }
        }
        self.path.pop();

        let (bound, proven, rep) = if best >= beta {
            (Bound::Lower, cut_proven, cut_rep)
        } else if best > alpha_orig {
            (Bound::Exact, all_proven, all_rep)
        } else {
            (Bound::Upper, all_proven, all_rep)
        };
        // A repetition of this node or below it is part of its own value;
        // one of a position above holds on this path only.
        let here = self.path.len() as u32;
        let rep = if rep >= here { NO_REP } else { rep };
        if !use_tt {
            return Value {
                score: best,
                proven,
                rep,
            };
        }
        self.tt.store(
            key,
            TtEntry {
                mv: if bound == Bound::Upper {
                    None
                } else {
                    best_move
                },
                score: best as i16,
                depth: depth.clamp(0, 255) as u8,
                bound,
                proven: proven && rep == NO_REP,
            },
        );
        Value {
            score: best,
            proven,
            rep,
        }
    }

    /// The value of `child` (at `ply`, to `depth`) from its parent's view,
    /// searched within the parent's `(alpha, beta)`: negated, unless the
    /// parent's side to move moves `again` (Kalah), when the child's own
    /// value is the parent's.
    #[inline(always)]
    pub(super) fn child_value(
        &mut self,
        again: bool,
        child: &Position<R>,
        depth: i32,
        alpha: i32,
        beta: i32,
        ply: usize,
    ) -> Value {
        if again {
            self.negamax(child, depth, alpha, beta, ply)
        } else {
            -self.negamax(child, depth, -beta, -alpha, ply)
        }
    }

    /// A child of a node at `ply` after the first: the null window at
    /// `alpha` (first `reduction` plies shallower, see
    /// [`null_window`](Self::null_window)), then, at a PV node, the full
    /// window if it fails high inside `(alpha, beta)`. The value from the
    /// node's view (`again`: see [`child_value`](Self::child_value)).
    #[allow(clippy::too_many_arguments)]
    #[inline]
    pub(super) fn later_child(
        &mut self,
        again: bool,
        child: &Position<R>,
        depth: i32,
        alpha: i32,
        beta: i32,
        ply: usize,
        pv_node: bool,
        reduction: i32,
    ) -> Value {
        let v = self.null_window(again, child, depth - 1, alpha, ply + 1, reduction);
        if v.score > alpha && v.score < beta && pv_node && !self.aborted {
            self.child_value(again, child, depth - 1, alpha, beta, ply + 1)
        } else {
            v
        }
    }

    /// The null-window search `(alpha, alpha + 1)` of `child` (at `ply`, to
    /// `depth`), first `reduction` plies shallower: a reduced search that
    /// fails high is repeated at full depth, so only a fail-low is taken
    /// from the shallower search (a late move reduction). The value from
    /// the parent's view (`again`: see [`child_value`](Self::child_value)).
    #[inline]
    pub(super) fn null_window(
        &mut self,
        again: bool,
        child: &Position<R>,
        depth: i32,
        alpha: i32,
        ply: usize,
        reduction: i32,
    ) -> Value {
        if reduction > 0 {
            let v = self.child_value(again, child, depth - reduction, alpha, alpha + 1, ply);
            if v.score <= alpha || self.aborted {
                return v;
            }
        }
        self.child_value(again, child, depth, alpha, alpha + 1, ply)
    }
}
