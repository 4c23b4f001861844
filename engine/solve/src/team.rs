//! The solver's threads: one proof, shared out where it branches
//! (young brothers wait).
//!
//! A parallel proof is the one-thread proof with its work shared: every
//! node is searched in the one-thread order, and once a node's first child
//! has been searched without a cut-off (so the node is likely to need all
//! its children) and has taken at least [`SPLIT_MIN_NODES`] positions (so
//! its brothers are worth a thread), the node's other children become a
//! [`SplitPoint`]: the thread that reached it and every free thread of the
//! [`Team`] take them in order, each in a solver of its own
//! ([`Solver::fork`]) sharing the table. A child that cuts off ends the
//! split point at once: the threads still in its brothers give up (what
//! they proved so far stays in the table, nothing unfinished is stored).
//!
//! Every search of the solver is a null window, so the brothers of a split
//! point are all searched with the window the node had: a split changes
//! which threads prove which children, never a window. The tree the team
//! proves is the one-thread tree plus the brothers searched past a
//! cut-off, which is why it beats two copies of the whole proof (the
//! helpers this replaced: each ran its own MTD(f) from the root, and the
//! two perturbed each other's order so much that Bohnenspiel(6,4) took
//! anything from 2 to 25 times the one-thread positions).
//!
//! The threads are a rayon pool of the request's size: a thread that waits
//! at its split point for a brother another thread is proving takes work
//! from the pool meanwhile (work stealing), so no thread sits idle while a
//! split point anywhere has a child left.

use super::{Solver, Stop, INF, NO_REP, STACK_PIECE, STACK_RED_ZONE};
use crate::values::BoardValues;
use mancala_rules::Move;
use mancala_rules::Position;
use mancala_rules::Rules;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering::Relaxed};
use std::sync::{Arc, Mutex};

/// The positions a node's first child must have taken before the node's
/// other children are shared out. A split costs a few microseconds (a
/// solver for each other thread, a job on the pool), 8,192 positions take
/// about three milliseconds; the bigger the first child, the likelier the
/// node needs all its children. Bohnenspiel(6,4) with the tables to 28
/// seeds, two threads (2026-12-05, four to nine runs each): 1,024 took
/// 4.4–17.0 s (mean 7.8 s), 8,192 took 2.5–8.1 s (mean 4.0 s), 32,768
/// and 65,536 0.3–18.7 s; Djenon-abe the same 2.9 s with 1,024 and 8,192.
pub(super) const SPLIT_MIN_NODES: u64 = 8192;

/// Every this many positions a solver of a team adds them to the team's
/// count (and so to its budget) and checks whether a split point above it
/// has been cut off: an atomic addition every twenty microseconds or so.
pub(super) const CHECK_EVERY: u64 = 64;

/// What every solver of one parallel proof shares.
#[derive(Debug)]
pub(super) struct Team {
    /// The pool's threads.
    pub(super) threads: usize,
    /// Set once a limit or the `stop` ends the proof: every solver gives up.
    pub(super) halt: AtomicBool,
    /// The positions the team has visited, counted by each solver in steps
    /// of [`CHECK_EVERY`]: within that many a thread of the truth.
    pub(super) nodes: AtomicU64,
    /// The team's budget of positions.
    pub(super) limit: u64,
    /// The split points made so far.
    pub(super) splits: AtomicU64,
}

impl Team {
    /// A team of `threads` with a budget of `limit` positions.
    pub(super) fn new(threads: usize, limit: u64) -> Self {
        Team {
            threads,
            halt: AtomicBool::new(false),
            nodes: AtomicU64::new(0),
            limit,
            splits: AtomicU64::new(0),
        }
    }
}

/// What the children of a split point have proven so far.
#[derive(Clone, Copy, Debug)]
pub(super) struct Found {
    /// The best value for the node's side to move (fail-soft).
    pub(super) best: i32,
    /// The move to it.
    pub(super) best_move: Option<Move>,
    /// The lowest ply of a repetition a finished child's value leaned on.
    pub(super) rep: usize,
}

/// A node's children after the first, searched by whichever threads of
/// the team are free, in order.
struct SplitPoint<'m, R: Rules> {
    node: &'m Position<R>,
    window: (i32, i32),
    rest: &'m [(Move, Position<R>, i32)],
    /// The next child to take.
    next: AtomicUsize,
    /// Set when a child cuts off: the threads in its brothers give up.
    cut: Arc<AtomicBool>,
    found: Mutex<Found>,
}

impl<R: Rules> SplitPoint<'_, R> {
    /// Takes children until none is left or one cuts off.
    fn work<T: BoardValues<R> + ?Sized>(&self, solver: &mut Solver<'_, R, T>, stop: &Stop) {
        let (alpha, beta) = self.window;
        while !self.cut.load(Relaxed) {
            let i = self.next.fetch_add(1, Relaxed);
            let Some(&(mv, child, _)) = self.rest.get(i) else {
                return;
            };
            let (a, b) = child.bounds_for_parent(self.node, (alpha, beta));
            // A stolen job runs on top of whatever its thread was doing:
            // the stack's room is checked at every child.
            let (v, r) = stacker::maybe_grow(STACK_RED_ZONE, STACK_PIECE, || {
                solver.search(&child, a, b, stop)
            });
            if solver.aborted {
                return;
            }
            let v = child.for_parent(self.node, v);
            let mut found = self.found.lock().unwrap_or_else(|e| e.into_inner());
            found.rep = found.rep.min(r);
            if v > found.best {
                found.best = v;
                found.best_move = Some(mv);
            }
            if v >= beta {
                self.cut.store(true, Relaxed);
                return;
            }
        }
    }
}

impl<'a, R: Rules, T: BoardValues<R> + ?Sized> Solver<'a, R, T> {
    /// A solver for another thread of this one's team, at the same node:
    /// the same table, tables, line and move order, and the split points
    /// above it and `cut` to give up by.
    fn fork(&self, cut: &Arc<AtomicBool>) -> Self {
        let tt = self.tt.shared().expect("a team works in a shared table");
        let mut fork = Solver::with_table(self.tables, tt);
        fork.history = self.history.clone();
        fork.path = self.path.clone();
        fork.root = self.root;
        fork.root_bounds = self.root_bounds;
        fork.journal = self.journal.as_ref().map(|_| Vec::new());
        fork.team = self.team.clone();
        fork.cancels = self.cancels.clone();
        fork.cancels.push(cut.clone());
        fork.ancestors = self.ancestors.clone();
        fork.by_history = self.by_history;
        fork.cutoffs = self.cutoffs.clone();
        fork
    }

    /// What a fork did, added to this solver's account: its positions, a
    /// repetition of the history it leaned on, the entries it stored. (Not
    /// the cut-offs it learned: adding them to this solver's history made
    /// Bohnenspiel(6,4)'s proof on two threads larger, 3.8–38 s against
    /// 1.4–6.8 s, five runs each.)
    fn absorb(&mut self, fork: Self) {
        self.nodes += fork.nodes;
        if let Some(team) = &self.team {
            // The rest of its positions, the ones its last check did not count.
            team.nodes.fetch_add(fork.nodes % CHECK_EVERY, Relaxed);
        }
        self.leaned |= fork.leaned;
        if let (Some(mine), Some(theirs)) = (&mut self.journal, fork.journal) {
            mine.extend(theirs);
        }
    }

    /// Counts [`CHECK_EVERY`] more positions into the team's count: whether
    /// that spends its budget.
    pub(super) fn team_budget_spent(&self) -> bool {
        self.team.as_ref().is_some_and(|team| {
            team.nodes.fetch_add(CHECK_EVERY, Relaxed) + CHECK_EVERY >= team.limit
        })
    }

    /// Whether a split point above this solver has been cut off, or the
    /// team halted.
    pub(super) fn cancelled(&self) -> bool {
        self.team.as_ref().is_some_and(|t| t.halt.load(Relaxed))
            || self.cancels.iter().any(|c| c.load(Relaxed))
    }

    /// Searches `rest`, the children of `node` after its first, with every
    /// free thread of the team, in the window `(alpha, beta)`: what they
    /// proved, or `None` (with `aborted` set) if the proof was stopped or a
    /// split point above this one was cut off.
    pub(super) fn split(
        &mut self,
        node: &Position<R>,
        rest: &[(Move, Position<R>, i32)],
        window: (i32, i32),
        stop: &Stop,
    ) -> Option<Found> {
        let team = self.team.clone().expect("a split needs a team");
        team.splits.fetch_add(1, Relaxed);
        let point = SplitPoint {
            node,
            window,
            rest,
            next: AtomicUsize::new(0),
            cut: Arc::new(AtomicBool::new(false)),
            found: Mutex::new(Found {
                best: -INF,
                best_move: None,
                rep: NO_REP,
            }),
        };
        // A thread for each child but the one this solver takes first, as
        // many as the team has: more would find nothing to do.
        let helpers = (team.threads - 1).min(rest.len() - 1);
        let forks: Vec<Self> = (0..helpers).map(|_| self.fork(&point.cut)).collect();
        let done = Mutex::new(Vec::with_capacity(forks.len()));
        self.cancels.push(point.cut.clone());
        rayon::scope(|s| {
            for mut fork in forks {
                let (point, done) = (&point, &done);
                s.spawn(move |_| {
                    point.work(&mut fork, stop);
                    done.lock().unwrap_or_else(|e| e.into_inner()).push(fork);
                });
            }
            point.work(self, stop);
        });
        self.cancels.pop();
        for fork in done.into_inner().unwrap_or_else(|e| e.into_inner()) {
            self.absorb(fork);
        }
        if self.cancelled() {
            self.aborted = true;
            return None;
        }
        // This solver's own child may have been given up for a brother's
        // cut-off: the split point's answer stands.
        self.aborted = false;
        Some(point.found.into_inner().unwrap_or_else(|e| e.into_inner()))
    }
}
