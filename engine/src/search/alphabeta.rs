//! One search thread: principal variation search with a transposition
//! table, the cycle rule on the search path, and proof tracking.
//!
//! Every value the search returns carries a `proven` flag: the score, read
//! with the bound the window gives it (fail-high: at least; fail-low: at
//! most; inside: exactly), holds to the end of the game and not just to the
//! depth searched. Terminal positions and repetitions are proven; an
//! evaluated leaf is not; a node is proven when every child that decided its
//! value is (all of them for an exact or upper bound, the refuting one for a
//! lower bound), or when the table holds a proven entry.
//!
//! A position whose board is in an endgame table (a
//! [`BoardValues`] hit) is not searched: its score is the tallies'
//! difference plus the board value, proven, read before the transposition
//! table (as the [solver](crate::solve) does).

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering::Relaxed};
use std::sync::{Arc, Mutex};

use crate::board::Position;
use crate::game::Rules;
use crate::moves::{Move, MAX_MOVES};
use crate::repetition::Line;

use super::ordering::{pick, Ordering};
use super::params::{CHECK_EVERY, INFINITY, MAX_PLY, SCALE, SPLIT_MIN_DEPTH, TT_MIN_DEPTH};
use super::time::Clock;
use super::tt::{Bound, TranspositionTable, TtEntry};
use super::Evaluate;
use crate::tablebase::BoardValues;

/// A score with whether it is proven (see the module docs).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Value {
    pub score: i32,
    pub proven: bool,
    /// The path index of the earliest position whose repetition the value
    /// relied on ([`NO_REP`]: none). A value that relied on repeating a
    /// position above the node it was found at holds for that path only,
    /// so it is not stored in the table as proven (the graph-history
    /// interaction, handled as in the [solver](crate::solve)).
    pub rep: u32,
}

/// No repetition was relied on.
pub(crate) const NO_REP: u32 = u32::MAX;

impl std::ops::Neg for Value {
    type Output = Value;
    #[inline]
    fn neg(self) -> Value {
        Value {
            score: -self.score,
            proven: self.proven,
            rep: self.rep,
        }
    }
}

/// The largest evaluation the search accepts (beyond any real margin).
const MAX_EVAL: i32 = 100 * SCALE;

/// The score of a finished game for the side to move.
#[inline]
pub(crate) fn margin_score<R: Rules>(pos: &Position<R>, totals: [u8; 2]) -> i32 {
    pos.margin_of(totals) * SCALE
}

/// A root move with what the last iteration learnt about it.
#[derive(Clone, Debug)]
pub(crate) struct RootMove<R: Rules> {
    pub mv: Move,
    pub child: Position<R>,
    pub score: i32,
    pub bound: Bound,
    pub proven: bool,
    pub pv: Vec<Move>,
}

/// One search thread's state.
pub(crate) struct Worker<'a, R: Rules, E: Evaluate<R>, T: BoardValues<R> + ?Sized> {
    tt: &'a TranspositionTable,
    eval: &'a E,
    /// Exact values of endgame boards ([`NoTables`](crate::tablebase::NoTables)
    /// for none).
    tables: &'a T,
    clock: &'a Clock<'a>,
    pub ordering: Ordering,
    /// The game so far, the root, and the current line (the cycle rule).
    path: Line,
    pv: Vec<[Move; MAX_PLY + 1]>,
    pv_len: Vec<usize>,
    /// Nodes this thread searched.
    pub nodes: u64,
    /// Nodes not yet added to the clock's total.
    unreported: u64,
    /// Whether a limit may interrupt this iteration.
    pub interruptible: bool,
    /// Set when the search was interrupted: results are then incomplete.
    pub aborted: bool,
    /// The threads' shared split state (`None`: one thread).
    pub splitter: Option<&'a Splitter<'a, R, E, T>>,
    /// The cut-off flags of the split points this worker's task lies
    /// within, outermost first: once one is set, the task is moot.
    watch: Vec<Arc<AtomicBool>>,
    game: std::marker::PhantomData<R>,
}

/// What the threads of one search share to split work (young brothers
/// wait): spare workers to lend to idle threads, and how many threads are
/// searching.
pub(crate) struct Splitter<'a, R: Rules, E: Evaluate<R>, T: BoardValues<R> + ?Sized> {
    spare: Mutex<Vec<Worker<'a, R, E, T>>>,
    threads: usize,
    busy: AtomicUsize,
}

impl<'a, R: Rules, E: Evaluate<R>, T: BoardValues<R> + ?Sized> Splitter<'a, R, E, T> {
    /// Split state for `threads` threads, the calling one searching.
    pub fn new(threads: usize) -> Self {
        Splitter {
            spare: Mutex::new(Vec::new()),
            threads,
            busy: AtomicUsize::new(1),
        }
    }

    /// Adds a spare worker (one per task that may run at once).
    pub fn add_spare(&self, worker: Worker<'a, R, E, T>) {
        self.spare.lock().expect("no worker panics").push(worker);
    }

    /// Spare workers for up to `wanted` idle threads (none if no thread is
    /// idle).
    fn lend(&self, wanted: usize) -> Vec<Worker<'a, R, E, T>> {
        let idle = self.threads.saturating_sub(self.busy.load(Relaxed));
        let k = idle.min(wanted);
        if k == 0 {
            return Vec::new();
        }
        let mut spare = self.spare.lock().expect("no worker panics");
        let at = spare.len().saturating_sub(k);
        spare.split_off(at)
    }

    fn give_back(&self, workers: Vec<Worker<'a, R, E, T>>) {
        self.spare.lock().expect("no worker panics").extend(workers);
    }
}

impl<'a, R: Rules, E: Evaluate<R>, T: BoardValues<R> + ?Sized> Worker<'a, R, E, T> {
    /// A thread searching from `root`, reached through `history` (earlier
    /// positions of the game, oldest first, for the cycle rule).
    pub fn new(
        tt: &'a TranspositionTable,
        eval: &'a E,
        tables: &'a T,
        clock: &'a Clock<'a>,
        history: &[Position<R>],
        root: &Position<R>,
    ) -> Self {
        let mut path = Line::of(history);
        path.push(root);
        Worker {
            tt,
            eval,
            tables,
            clock,
            ordering: Ordering::new(),
            path,
            pv: vec![[Move::PASS; MAX_PLY + 1]; MAX_PLY + 2],
            pv_len: vec![0; MAX_PLY + 2],
            nodes: 0,
            unreported: 0,
            interruptible: true,
            aborted: false,
            splitter: None,
            watch: Vec::new(),
            game: std::marker::PhantomData,
        }
    }

    /// Adds the nodes not yet counted to the clock's total.
    pub fn flush_nodes(&mut self) {
        self.clock.add_nodes(self.unreported);
        self.unreported = 0;
    }

    #[inline]
    fn terminal(pos: &Position<R>) -> Value {
        Value {
            score: margin_score(pos, R::final_totals(pos)),
            proven: true,
            rep: NO_REP,
        }
    }

    /// The principal variation found at `ply` by the last search.
    pub fn pv_at(&self, ply: usize) -> &[Move] {
        &self.pv[ply][..self.pv_len[ply]]
    }

    /// Searches `pos` (not the root) to `depth` plies within `(alpha, beta)`.
    pub fn negamax(
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

        let mut children = [(Move::PASS, Position::from_key(0)); MAX_MOVES];
        let mut n = 0;
        R::generate(pos, |mv, child| {
            children[n] = (mv, child);
            n += 1;
        });
        if n == 0 {
            return Self::terminal(pos);
        }
        let children = &mut children[..n];
        let mut keys = [0; MAX_MOVES];
        self.ordering.score(pos, ply, tt_move, children, &mut keys);

        let pv_node = beta - alpha > 1;
        // Young brothers wait: once the first child is searched, the others
        // may be shared out between the threads (see `split`).
        let may_split = depth >= SPLIT_MIN_DEPTH && n > 2 && self.splitter.is_some();
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
        for i in 0..n {
            if i == 1 && may_split && self.idle_threads() {
                for j in 1..n {
                    pick(children, &mut keys, j);
                }
                let alpha_split = alpha;
                if let Some(results) =
                    self.split(&children[1..], depth - 1, alpha_split, beta, ply + 1)
                {
                    if self.aborted {
                        self.path.pop();
                        return NONE;
                    }
                    let results = &results[..n - 1];
                    if let Some(j) = results
                        .iter()
                        .position(|r| r.is_some_and(|v| v.score >= beta))
                    {
                        // A cut-off: the other children do not matter.
                        let (mv, child) = children[1 + j];
                        self.pv_len[ply + 1] = 0;
                        let cut = record!(results[j].expect("found above"), mv, child);
                        debug_assert!(cut);
                        break;
                    }
                    for (j, r) in results.iter().enumerate() {
                        // Without a cut-off every child was searched.
                        let mut v = r.expect("every child searched");
                        let (mv, child) = children[1 + j];
                        if v.score > alpha_split && v.score < beta {
                            // A null-window fail-high says too little:
                            // search the child again as the serial loop
                            // would.
                            v = self.later_child(&child, depth, alpha, beta, ply, true);
                            if self.aborted {
                                self.path.pop();
                                return NONE;
                            }
                        } else {
                            // Its PV (if it becomes the best) was not kept.
                            self.pv_len[ply + 1] = 0;
                        }
                        if record!(v, mv, child) {
                            break;
                        }
                    }
                    break;
                }
            }
            pick(children, &mut keys, i);
            let (mv, child) = children[i];
            let v = if i == 0 {
                -self.negamax(&child, depth - 1, -beta, -alpha, ply + 1)
            } else {
                self.later_child(&child, depth, alpha, beta, ply, pv_node)
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

    /// A child of a node at `ply` after the first: the null window at
    /// `alpha`, then, at a PV node, the full window if it fails high inside
    /// `(alpha, beta)`. The value from the node's view.
    #[inline]
    fn later_child(
        &mut self,
        child: &Position<R>,
        depth: i32,
        alpha: i32,
        beta: i32,
        ply: usize,
        pv_node: bool,
    ) -> Value {
        let v = -self.negamax(child, depth - 1, -alpha - 1, -alpha, ply + 1);
        if v.score > alpha && v.score < beta && pv_node && !self.aborted {
            -self.negamax(child, depth - 1, -beta, -alpha, ply + 1)
        } else {
            v
        }
    }

    /// Whether some thread is idle (so a split would be worth it).
    #[inline]
    fn idle_threads(&self) -> bool {
        self.splitter
            .is_some_and(|s| s.busy.load(Relaxed) < s.threads)
    }

    /// Searches `children` (at `ply`, to `depth`) with the null window
    /// `(alpha, alpha + 1)` on this thread and the idle ones together (the
    /// young brothers, once the eldest has been searched): each takes the
    /// next child not yet taken until none is left or one reaches `beta`,
    /// which stops the others. Returns each child's value from the parent's
    /// view, in order, `None` for a child not searched to the end (only
    /// when one reached `beta`); or `None` if no thread is idle (then
    /// nothing was searched).
    ///
    /// Sets `aborted` if a limit, or a cut-off at an enclosing split point,
    /// stopped the search.
    fn split(
        &mut self,
        children: &[(Move, Position<R>)],
        depth: i32,
        alpha: i32,
        beta: i32,
        ply: usize,
    ) -> Option<[Option<Value>; MAX_MOVES]> {
        let splitter = self.splitter?;
        let mut helpers = splitter.lend(children.len() - 1);
        if helpers.is_empty() {
            return None;
        }
        let cut = Arc::new(AtomicBool::new(false));
        for h in &mut helpers {
            h.path.clone_from(&self.path);
            h.watch.clone_from(&self.watch);
            h.watch.push(cut.clone());
            h.interruptible = self.interruptible;
            h.aborted = false;
        }
        self.watch.push(cut.clone());
        let next = AtomicUsize::new(0);
        let mut results = [None; MAX_MOVES];
        let mut theirs = vec![Vec::new(); helpers.len()];
        let mut mine = Vec::new();
        rayon::scope(|s| {
            for (h, out) in helpers.iter_mut().zip(theirs.iter_mut()) {
                let (next, cut) = (&next, &*cut);
                s.spawn(move |_| {
                    splitter.busy.fetch_add(1, Relaxed);
                    h.take_siblings(children, next, cut, depth, alpha, beta, ply, out);
                    splitter.busy.fetch_sub(1, Relaxed);
                });
            }
            self.take_siblings(children, &next, &cut, depth, alpha, beta, ply, &mut mine);
            // Waiting for the others, this thread is idle (it may steal a
            // task of theirs).
            splitter.busy.fetch_sub(1, Relaxed);
        });
        splitter.busy.fetch_add(1, Relaxed);
        self.watch.pop();
        for (i, v) in theirs.iter().flatten().chain(&mine) {
            results[*i] = Some(*v);
        }
        splitter.give_back(helpers);
        // This split's own cut-off is no reason to stop.
        self.aborted = self.must_stop();
        Some(results)
    }

    /// Whether a limit or a cut-off at an enclosing split point ends this
    /// worker's search.
    fn must_stop(&self) -> bool {
        (self.interruptible && self.clock.is_stopped())
            || self.watch.iter().any(|f| f.load(Relaxed))
    }

    /// One thread's share of a [`split`](Self::split).
    #[allow(clippy::too_many_arguments)]
    fn take_siblings(
        &mut self,
        children: &[(Move, Position<R>)],
        next: &AtomicUsize,
        cut: &AtomicBool,
        depth: i32,
        alpha: i32,
        beta: i32,
        ply: usize,
        out: &mut Vec<(usize, Value)>,
    ) {
        // Children can be smaller than a clock check: look before each.
        while !cut.load(Relaxed) && !self.must_stop() {
            let i = next.fetch_add(1, Relaxed);
            let Some((_, child)) = children.get(i) else {
                break;
            };
            let v = -self.negamax(child, depth, -alpha - 1, -alpha, ply);
            if self.aborted {
                break;
            }
            out.push((i, v));
            if v.score >= beta {
                cut.store(true, Relaxed);
            }
        }
        // A worker running many small tasks might otherwise never reach a
        // clock check.
        self.check_limits();
    }

    /// Hands in the nodes not yet counted and looks at the limits and at
    /// the cut-off flags of the enclosing split points: `aborted` if the
    /// search must stop.
    fn check_limits(&mut self) {
        let n = std::mem::take(&mut self.unreported);
        if self.clock.check(n) && self.interruptible {
            self.aborted = true;
        }
        if self.watch.iter().any(|f| f.load(Relaxed)) {
            self.aborted = true;
        }
    }

    #[inline]
    fn update_pv(&mut self, ply: usize, mv: Move) {
        let len = self.pv_len[ply + 1];
        let (head, tail) = self.pv.split_at_mut(ply + 1);
        head[ply][0] = mv;
        head[ply][1..=len].copy_from_slice(&tail[0][..len]);
        self.pv_len[ply] = len + 1;
    }

    /// Searches one root move within `(alpha, beta)` and records the result
    /// in it. Returns the value from the root's view.
    fn root_move(&mut self, rm: &mut RootMove<R>, depth: i32, alpha: i32, beta: i32) -> Value {
        let v = -self.negamax(&rm.child, depth - 1, -beta, -alpha, 1);
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
    /// full window if it fails high inside `(alpha, beta)`.
    fn later_root_move(
        &mut self,
        rm: &mut RootMove<R>,
        depth: i32,
        alpha: i32,
        beta: i32,
    ) -> Value {
        let v = self.root_move(rm, depth, alpha, alpha + 1);
        if v.score > alpha && v.score < beta && !self.aborted {
            self.root_move(rm, depth, alpha, beta)
        } else {
            v
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
        let may_split = moves.len() > 2 && depth >= SPLIT_MIN_DEPTH && self.splitter.is_some();
        for i in 0..moves.len() {
            if i == 1 && may_split && self.idle_threads() {
                // The other root moves on all threads (as in `negamax`).
                let children: Vec<_> = moves[1..].iter().map(|m| (m.mv, m.child)).collect();
                let alpha_split = alpha;
                if let Some(results) = self.split(&children, depth - 1, alpha_split, beta, 1) {
                    if self.aborted {
                        return best;
                    }
                    let results = &results[..children.len()];
                    let cut = results
                        .iter()
                        .position(|r| r.is_some_and(|v| v.score >= beta));
                    for (j, r) in results.iter().enumerate() {
                        if cut.is_some_and(|c| c != j) {
                            continue;
                        }
                        let mut v = r.expect("every child searched, or the cut-off");
                        let rm = &mut moves[1 + j];
                        if v.score > alpha_split && v.score < beta {
                            v = self.later_root_move(rm, depth, alpha, beta);
                            if self.aborted {
                                return best;
                            }
                        } else {
                            rm.score = v.score;
                            rm.proven = v.proven;
                            rm.bound = if v.score <= alpha_split {
                                Bound::Upper
                            } else {
                                rm.pv = vec![rm.mv];
                                Bound::Lower
                            };
                        }
                        if v.score > best.score {
                            best = v;
                            best_index = 1 + j;
                            if v.score > alpha {
                                alpha = v.score;
                                if alpha >= beta {
                                    break;
                                }
                            }
                        }
                    }
                    break;
                }
            }
            let rm = &mut moves[i];
            let v = if i == 0 {
                self.root_move(rm, depth, alpha, beta)
            } else {
                self.later_root_move(rm, depth, alpha, beta)
            };
            if self.aborted {
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
    pub fn iterate(
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
                let centre = (aspire && rm.bound == Bound::Exact).then_some(rm.score);
                self.aspirated(centre, |w, lo, hi| w.root_move(rm, d, lo, hi));
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
