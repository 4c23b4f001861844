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
use mancala_rules::Position;
use mancala_rules::Rules;
use mancala_rules::{Move, MAX_MOVES};
use mancala_solve::tt::{Bound, TtEntry};
use mancala_solve::values::BoardValues;

impl<'a, R: Rules, E: Evaluate<R>, T: BoardValues<R> + ?Sized> Worker<'a, R, E, T> {
    /// Searches `pos` (not the root) to `depth` plies within `(alpha, beta)`.
    pub(super) fn negamax(
        &mut self,
        pos: &Position<R>,
        depth: i32,
        alpha: i32,
        beta: i32,
        ply: usize,
    ) -> Value {
        self.nodes += 1;
        self.unreported += 1;
        self.pv_len[ply] = 0;
        if self.unreported >= CHECK_EVERY {
            self.check_limits();
        }
        if self.aborted {
            return NONE;
        }
        let key = pos.key();
        if let Some(v) = self.without_search(pos, key, depth, ply) {
            return v;
        }
        // At the frontier (depth 1) the table costs more (a cache miss) than
        // it saves: its children are only evaluated.
        let use_tt = depth >= TT_MIN_DEPTH;
        let tt_move = match self.probe(key, use_tt, depth, alpha, beta) {
            Ok(v) => return v,
            Err(tt_move) => tt_move,
        };
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
        // Children that will probe the table have their buckets asked for
        // now: the misses overlap, and the first child's has arrived by
        // the time the ordering is done.
        let tt = self.tt;
        let children_probe = depth > TT_MIN_DEPTH;
        R::generate(pos, |mv, child| {
            if children_probe {
                tt.prefetch(child.key());
            }
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
        self.path.push_key(key);
        let node = Node {
            pos,
            depth,
            beta,
            ply,
            pv_node,
        };
        let Some(fold) = self.children(&node, children, &mut keys, alpha) else {
            self.path.pop();
            return NONE;
        };
        self.path.pop();
        self.close(key, use_tt, depth, fold.result(alpha, beta))
    }

    /// The value of `pos` when it needs no search: a repetition (the cycle
    /// rule scores it as the board split equally), an endgame table hit,
    /// the end of the game or the horizon (the evaluation).
    #[inline(always)]
    fn without_search(
        &self,
        pos: &Position<R>,
        key: u128,
        depth: i32,
        ply: usize,
    ) -> Option<Value> {
        if let Some(at) = self.path.earlier_key(key) {
            return Some(Value {
                score: margin_score(pos, pos.cycle_totals()),
                proven: true,
                rep: at as u32,
            });
        }
        if let Some(margin) = self.tables.margin(pos) {
            return Some(Value {
                score: margin * SCALE,
                proven: true,
                rep: NO_REP,
            });
        }
        if depth > 0 && ply < MAX_PLY {
            return None;
        }
        if R::ends_early(pos) || !R::has_moves(pos) {
            return Some(Self::terminal(pos));
        }
        Some(Value {
            score: self.eval.evaluate(pos).clamp(-MAX_EVAL, MAX_EVAL),
            proven: false,
            rep: NO_REP,
        })
    }

    /// The table's entry of `key` (if `use_tt`): its value where it settles
    /// the node at `depth` within `(alpha, beta)`, else its move (`Err`).
    #[inline(always)]
    fn probe(
        &self,
        key: u128,
        use_tt: bool,
        depth: i32,
        alpha: i32,
        beta: i32,
    ) -> Result<Value, Option<Move>> {
        let Some(e) = use_tt.then(|| self.tt.probe(key)).flatten() else {
            return Err(None);
        };
        if e.proven || e.depth as i32 >= depth {
            let s = e.score as i32;
            let usable = match e.bound {
                Bound::Exact => true,
                Bound::Lower => s >= beta,
                Bound::Upper => s <= alpha,
            };
            if usable {
                return Ok(Value {
                    score: s,
                    proven: e.proven,
                    rep: NO_REP,
                });
            }
        }
        Err(e.mv)
    }

    /// Searches the `children` of `node` in the order `keys` gives, from
    /// `alpha`, until one cuts off; `None` if the search was aborted.
    #[inline(always)]
    fn children(
        &mut self,
        node: &Node<'_, R>,
        children: &mut [(Move, Position<R>)],
        keys: &mut [u32; MAX_MOVES],
        alpha: i32,
    ) -> Option<Fold> {
        let Node {
            pos,
            depth,
            beta,
            ply,
            pv_node,
        } = *node;
        let side = pos.side_to_move();
        let banked = pos.tally(side);
        let mut fold = Fold::new(alpha);
        // Late move reductions (plies) of the child in place `i` of the order.
        let reduction = |i: usize, child: &Position<R>| {
            if depth >= LMR_MIN_DEPTH && i >= LMR_FROM_MOVE && child.tally(side) == banked {
                LMR_PLIES
            } else {
                0
            }
        };
        // With other threads, a later child one of them is searching right
        // now is put off to the end (see `Deferrals`): by then its value
        // is likely in the table.
        let deferrals = self.deferrals.filter(|_| depth >= DEFER_MIN_DEPTH);
        let mut order = ChildOrder::new(children.len());
        while let Some((i, first_time)) = order.next() {
            if first_time {
                pick(children, keys, i);
            }
            let (mv, child) = children[i];
            let again = child.moves_again_after(pos);
            let alpha = fold.alpha;
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
                return None;
            }
            match fold.record(v, mv, beta) {
                Step::Below => {}
                Step::Raised => {
                    if pv_node {
                        self.update_pv(ply, mv);
                    }
                }
                Step::Cut => {
                    if pv_node {
                        self.update_pv(ply, mv);
                    }
                    if child.tally(side) == banked {
                        self.ordering.cutoff(side.index(), ply, mv, depth);
                    }
                    break;
                }
            }
        }
        Some(fold)
    }

    /// The node's value from its children's `(best, best move, bound,
    /// proven, earliest repetition)`, stored in the table if `use_tt`.
    #[inline(always)]
    fn close(
        &mut self,
        key: u128,
        use_tt: bool,
        depth: i32,
        (best, best_move, bound, proven, rep): (i32, Option<Move>, Bound, bool, u32),
    ) -> Value {
        // A repetition of this node or below it is part of its own value;
        // one of a position above holds on this path only.
        let here = self.path.len() as u32;
        let rep = if rep >= here { NO_REP } else { rep };
        if use_tt {
            let entry = TtEntry {
                mv: if bound == Bound::Upper {
                    None
                } else {
                    best_move
                },
                score: best as i16,
                depth: depth.clamp(0, 255) as u8,
                bound,
                proven: proven && rep == NO_REP,
            };
            self.tt.store(key, entry);
        }
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

/// The value of an aborted search (never used).
const NONE: Value = Value {
    score: 0,
    proven: false,
    rep: NO_REP,
};

/// What [`Worker::children`] needs of the node whose children it searches.
struct Node<'p, R: Rules> {
    pos: &'p Position<R>,
    depth: i32,
    beta: i32,
    ply: usize,
    pv_node: bool,
}

/// The children's values folded into the node's, child by child.
struct Fold {
    alpha: i32,
    best: i32,
    best_move: Option<Move>,
    /// Whether every child searched, but a cutting one, was proven; and
    /// whether the cutting one was.
    all_proven: bool,
    cut_proven: bool,
    /// The earliest repetition relied on: by every child, by the cut.
    all_rep: u32,
    cut_rep: u32,
}

/// What one child's value did to the node.
enum Step {
    /// Nothing: at most alpha.
    Below,
    /// Raised alpha, below beta.
    Raised,
    /// Reached beta: a cut-off.
    Cut,
}

impl Fold {
    #[inline(always)]
    fn new(alpha: i32) -> Fold {
        Fold {
            alpha,
            best: -INFINITY,
            best_move: None,
            all_proven: true,
            cut_proven: false,
            all_rep: NO_REP,
            cut_rep: NO_REP,
        }
    }

    /// Folds in child `mv`'s value `v` (a node with window up to `beta`).
    #[inline(always)]
    fn record(&mut self, v: Value, mv: Move, beta: i32) -> Step {
        let mut step = Step::Below;
        if v.score > self.best {
            self.best = v.score;
            self.best_move = Some(mv);
            if v.score > self.alpha {
                self.alpha = v.score;
                step = Step::Raised;
                if self.alpha >= beta {
                    self.cut_proven = v.proven;
                    self.cut_rep = v.rep;
                    return Step::Cut;
                }
            }
        }
        self.all_proven &= v.proven;
        self.all_rep = self.all_rep.min(v.rep);
        step
    }

    /// The node's best score and move, its bound against the window
    /// `(alpha, beta)` it was searched in, whether it is proven and the
    /// earliest repetition it relied on.
    #[inline(always)]
    fn result(&self, alpha: i32, beta: i32) -> (i32, Option<Move>, Bound, bool, u32) {
        let (bound, proven, rep) = if self.best >= beta {
            (Bound::Lower, self.cut_proven, self.cut_rep)
        } else if self.best > alpha {
            (Bound::Exact, self.all_proven, self.all_rep)
        } else {
            (Bound::Upper, self.all_proven, self.all_rep)
        };
        (self.best, self.best_move, bound, proven, rep)
    }
}
