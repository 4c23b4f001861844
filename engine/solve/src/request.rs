//! One way to ask the solver for a proof under limits.
//!
//! [`Solver::prove`] starts a [`Request`] for a position; its setters say
//! what counts (the game's history, for the cycle rule), what may end the
//! proof (a budget of positions, a `stop` asked now and then) and how many
//! helper threads work beside the solver; one of its four finishers says
//! what is wanted (the whole [`Solution`], the value, one best move, or a
//! move keeping a target) and runs the proof. Every finisher answers
//! [`Proof::Done`] or [`Proof::Stopped`]: a position the history has
//! already ended by the cycle rule is a done proof (its margin is the
//! split, it has no move), never a stopped one.
//!
//! ```
//! use mancala_solve::{Proof, Solver};
//! use mancala_solve::values::NoTables;
//! use mancala_rules::{Bohnenspiel, Position};
//! let pos: Position<Bohnenspiel> = "bohnenspiel 0,0,0,0,0,2/0,0,0,0,0,0 S 35-35".parse().unwrap();
//! let mut solver = Solver::new(&NoTables, 1);
//! // One position is not enough to prove anything here...
//! assert_eq!(solver.prove(&pos).nodes(1).value(), Proof::Stopped);
//! // ...but without a limit the value is proven.
//! assert_eq!(solver.prove(&pos).value(), Proof::Done(-2));
//! ```

use super::{Bounds, Progress, Solution, Solver, Stop};
use crate::values::BoardValues;
use mancala_rules::repetition::Line;
use mancala_rules::Move;
use mancala_rules::Position;
use mancala_rules::Rules;

/// How a proof under limits ended.
#[must_use]
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Proof<T> {
    /// Proven: the answer.
    Done(T),
    /// A limit (the budget of positions, or `stop`) ended the proof first.
    /// What it had proven stays in the solver's table, so asking again goes
    /// on from there.
    Stopped,
}

impl<T> Proof<T> {
    /// The answer, if the proof was done.
    pub fn done(self) -> Option<T> {
        match self {
            Proof::Done(t) => Some(t),
            Proof::Stopped => None,
        }
    }

    /// Whether a limit ended the proof.
    pub fn is_stopped(&self) -> bool {
        matches!(self, Proof::Stopped)
    }

    /// The answer turned by `f`, or still stopped.
    pub fn map<U>(self, f: impl FnOnce(T) -> U) -> Proof<U> {
        match self {
            Proof::Done(t) => Proof::Done(f(t)),
            Proof::Stopped => Proof::Stopped,
        }
    }
}

impl<T> From<Option<T>> for Proof<T> {
    fn from(answer: Option<T>) -> Self {
        answer.map_or(Proof::Stopped, Proof::Done)
    }
}

/// A `stop` that never stops.
fn never(_: &Progress) -> bool {
    false
}

/// A proof asked of a [`Solver`] ([`Solver::prove`]): set its limits, then
/// finish it with what is wanted.
#[must_use = "a request proves nothing until a finisher (solution, value, best_move, keeping) runs it"]
pub struct Request<'s, 'h, 'a, R: Rules, T: BoardValues<R> + ?Sized> {
    solver: &'s mut Solver<'a, R, T>,
    pos: Position<R>,
    history: &'h [Position<R>],
    max_nodes: u64,
    stop: &'h Stop<'h>,
    helpers: usize,
}

impl<'a, R: Rules, T: BoardValues<R> + ?Sized> Solver<'a, R, T> {
    /// A proof of `pos`: no history, no limit, no helper until the
    /// [`Request`]'s setters say otherwise.
    pub fn prove<'s, 'h>(&'s mut self, pos: &Position<R>) -> Request<'s, 'h, 'a, R, T> {
        Request {
            solver: self,
            pos: *pos,
            history: &[],
            max_nodes: u64::MAX,
            stop: &never,
            helpers: 0,
        }
    }
}

impl<'s, 'h, 'a, R: Rules, T: BoardValues<R> + ?Sized> Request<'s, 'h, 'a, R, T> {
    /// The game's positions before this one, oldest first: they count for
    /// the cycle rule.
    pub fn history(mut self, history: &'h [Position<R>]) -> Self {
        self.history = history;
        self
    }

    /// Stops the proof once it has visited `max_nodes` positions in this
    /// request (every thread's: with helpers, within 64 positions a
    /// thread).
    pub fn nodes(mut self, max_nodes: u64) -> Self {
        self.max_nodes = max_nodes;
        self
    }

    /// Asks `stop` every [`STOP_CHECK_EVERY`](super::STOP_CHECK_EVERY)
    /// positions, with the [`Progress`] so far; the proof stops when it
    /// says so.
    pub fn stop(mut self, stop: &'h Stop<'h>) -> Self {
        self.stop = stop;
        self
    }

    /// `helpers` more threads work on the proof, in the solver's table,
    /// which must be shared ([`Solver::with_table`]; with a table of its
    /// own the solver works alone): the one proof, its nodes' children
    /// shared out among the threads where the proof branches (the
    /// `team` module's young brothers wait).
    pub fn helpers(mut self, helpers: usize) -> Self {
        self.helpers = helpers;
        self
    }

    /// The margin of a position the history has ended by the cycle rule.
    fn ended(&self) -> Option<i32> {
        Line::of(self.history)
            .ends_game(&self.pos)
            .then(|| self.pos.margin_of(self.pos.cycle_totals()))
    }

    /// Runs `proof` with the request's history, budget, stop and threads.
    fn run<A: Send>(
        self,
        proof: impl FnOnce(&mut Solver<'a, R, T>, &Position<R>, &Stop) -> Option<A> + Send,
    ) -> Proof<A> {
        let Request {
            solver,
            pos,
            history,
            max_nodes,
            stop,
            helpers,
        } = self;
        solver
            .with_team(helpers + 1, max_nodes, |s| {
                s.limited(history, &pos, max_nodes, |s| proof(s, &pos, stop))
            })
            .into()
    }

    /// The whole solution: the margin, every move that keeps it and a
    /// principal variation (its `nodes` count every thread's).
    pub fn solution(self) -> Proof<Solution> {
        if let Some(margin) = self.ended() {
            self.solver.root_bounds = Bounds::exact(margin);
            return Proof::Done(Solution {
                margin,
                best: Vec::new(),
                pv: Vec::new(),
                nodes: 0,
                from_tables: false,
            });
        }
        self.run(|s, pos, stop| {
            s.root = Some(*pos);
            // Every search the solution rests on was checked for `aborted`.
            let solution = s.solve_checked(pos, stop);
            s.root = None;
            solution
        })
    }

    /// The margin alone: no best moves, no line.
    pub fn value(self) -> Proof<i32> {
        if let Some(margin) = self.ended() {
            return Proof::Done(margin);
        }
        self.run(|s, pos, stop| s.value_checked(pos, stop))
    }

    /// The margin and one move that keeps it (the first in the solver's
    /// order): what a player needs. `Done(None)` if the position has no
    /// move (the game is over, by the rules or by the history). What it
    /// proved of the value is in [`Solver::root_bounds`], and it starts
    /// from a [`Solver::resume_from`]'s bounds.
    pub fn best_move(self) -> Proof<Option<(i32, Move)>> {
        if self.ended().is_some() {
            return Proof::Done(None);
        }
        self.run(|s, pos, stop| {
            // The root's bounds are tracked, for a stopped proof to be
            // resumed from (and a resumed proof's taken).
            s.root = Some(*pos);
            let found = s.value_tracked(pos, stop, true, None).and_then(|margin| {
                let mv = s.first_keeping(pos, margin, stop)?;
                Some(mv.map(|mv| (margin, mv)))
            });
            s.root = None;
            found
        })
    }

    /// A move that keeps a final margin of at least `target` for the side
    /// to move: `Done(Some(move))`, the first in the solver's order that
    /// does, or `Done(None)` once it is proven that none does (the value is
    /// below `target`, or the game is over). One null window a move: much
    /// cheaper than the exact value when the position is worth more than
    /// `target`.
    pub fn keeping(self, target: i32) -> Proof<Option<Move>> {
        if self.ended().is_some() {
            return Proof::Done(None);
        }
        self.run(|s, pos, stop| s.first_keeping(pos, target, stop))
    }
}
