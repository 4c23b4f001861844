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
//! table (as the [solver](mancala_solve) does).

use super::deferral::Deferrals;
use super::ordering::Ordering;
use super::params::MAX_PLY;
use super::score::margin_score;
use super::time::Clock;
use super::value::{Value, NO_REP};
use super::Evaluate;
use mancala_rules::repetition::Line;
use mancala_rules::Move;
use mancala_rules::Position;
use mancala_rules::Rules;
use mancala_solve::tt::TranspositionTable;
use mancala_solve::values::BoardValues;

/// One search thread's state.
pub(crate) struct Worker<'a, R: Rules, E: Evaluate<R>, T: BoardValues<R> + ?Sized> {
    pub(super) tt: &'a TranspositionTable,
    pub(super) eval: &'a E,
    /// Exact values of endgame boards ([`NoTables`](mancala_tables::NoTables)
    /// for none).
    pub(super) tables: &'a T,
    pub(super) clock: &'a Clock<'a>,
    pub ordering: Ordering,
    /// The game so far, the root, and the current line (the cycle rule).
    pub(super) path: Line,
    pub(super) pv: Vec<[Move; MAX_PLY + 1]>,
    pub(super) pv_len: Vec<usize>,
    /// Nodes this thread searched.
    pub nodes: u64,
    /// Nodes not yet added to the clock's total.
    pub(super) unreported: u64,
    /// Whether a limit may interrupt this iteration.
    pub interruptible: bool,
    /// Set when the search was interrupted: results are then incomplete.
    pub aborted: bool,
    /// Set when an interrupted iteration found a better root move than
    /// the first (moved to the front): see `Worker::root_pvs`.
    pub new_best: bool,
    /// The moves other threads are searching, shared by every thread of
    /// a parallel search (`None`: one thread; see [`Deferrals`]).
    pub(super) deferrals: Option<&'a Deferrals>,
    pub(super) game: std::marker::PhantomData<R>,
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
            new_best: false,
            deferrals: None,
            game: std::marker::PhantomData,
        }
    }

    /// Adds the nodes not yet counted to the clock's total.
    pub fn flush_nodes(&mut self) {
        self.clock.add_nodes(self.unreported);
        self.unreported = 0;
    }

    #[inline]
    pub(super) fn terminal(pos: &Position<R>) -> Value {
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

    /// Hands in the nodes not yet counted and looks at the limits:
    /// `aborted` if the search must stop.
    pub(super) fn check_limits(&mut self) {
        let n = std::mem::take(&mut self.unreported);
        if self.clock.check(n) && self.interruptible {
            self.aborted = true;
        }
    }

    #[inline]
    pub(super) fn update_pv(&mut self, ply: usize, mv: Move) {
        let len = self.pv_len[ply + 1];
        let (head, tail) = self.pv.split_at_mut(ply + 1);
        head[ply][0] = mv;
        head[ply][1..=len].copy_from_slice(&tail[0][..len]);
        self.pv_len[ply] = len + 1;
    }
}
