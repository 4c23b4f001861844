//! Exact solving: the final margin under optimal play from both sides,
//! every move that keeps it, and a principal variation.
//!
//! A fail-soft alpha-beta search to the end of the game, driven by MTD(f)
//! (a sequence of null-window searches), with the shared
//! [transposition table](crate::tt) and the
//! tablebases (`mancala-tables`, read through [`values::BoardValues`]): a position whose board is in a loaded
//! layer is not searched, its value is read.
//!
//! The cycle rule: a position below the root that repeats one already on
//! the line (or in the game's history) is scored as the cycle-rule split
//! (docs/rules.md: under optimal play this gives the same value as the
//! third occurrence). The root itself is searched even when the history
//! holds it once: the game goes on from it. Such a score depends on the
//! line, not only on the position, so a result that relied on the
//! repetition of a position *above* the node it was found at is not stored
//! in the transposition table (the graph-history interaction); everything
//! stored is the value of the position itself.

pub mod bosh_match;
pub mod checkpoint;
pub mod history;
pub mod ledger;
pub mod memory;
mod request;
mod team;
pub mod tt;
pub mod values;

pub use request::{Proof, Request};

use crate::history::History;
use crate::tt::{Bound, TableTooLarge, TranspositionTable, TtEntry};
use crate::values::BoardValues;
use mancala_rules::repetition::Line;
use mancala_rules::Position;
use mancala_rules::{Move, MAX_MOVES};
use mancala_rules::{Rules, Status};
use std::collections::HashSet;
use std::sync::atomic::Ordering::Relaxed;
use std::sync::Arc;

/// The fewest seeds on the board at which the solver orders quiet moves by
/// its history (and records cut-offs in it). Below, in small endgames full
/// of cycles, the fixed order (pit by pit) proved smaller trees: an
/// 8-seed Bohnenspiel endgame 8,037 positions against 50,081 with history
/// everywhere, Bohnenspiel(6,3) 25,601 against 64,451; above, the
/// history cut the proof's pieces 2.5 times (docs/tablebases.md).
pub const HISTORY_MIN_SEEDS: u32 = 20;

/// Subtracted from a quiet move's history to give its place in the
/// solver's order: more than any history score (below `HISTORY_MAX` plus
/// one addition of at most 255², a game's seeds being counted in a `u8`),
/// so every quiet move goes after every capture.
const QUIET_BELOW: i32 = 1 << 17;
const _: () = assert!(QUIET_BELOW > crate::history::HISTORY_MAX + 255 * 255);

/// Larger than any margin.
const INF: i32 = 1000;
/// No repetition was used below this node.
const NO_REP: usize = usize::MAX;
/// The longest principal variation reported.
const MAX_PV: usize = 64;
/// The longest line the solver follows: beyond it a proof stops as if its
/// limit were reached. Lines without a capture can run through a layer's
/// boards for thousands of plies (Oware with few seeds on the board); this
/// bounds the memory they take (about a kilobyte a ply, on the heap past
/// the thread's own stack, grown every 32 plies).
pub const MAX_SOLVE_PLY: usize = 1_000_000;

/// The `depth` a proven entry is stored with: the size of the subtree its
/// proof took, on a log scale (6 a doubling, 6 for a lone position, at
/// most 240). A proven value holds at every depth, so the field is free to
/// say what a full bucket should keep: the table replaces the entry worth
/// least by depth, and an entry that took a million positions to prove is
/// worth more than one that took ten. With the same depth everywhere, a
/// full bucket always gave up the same slot and the three others kept
/// whatever filled them first.
#[inline]
fn work_depth(positions: u64) -> u8 {
    ((u64::BITS - positions.leading_zeros()) * 6).min(240) as u8
}
/// Every this many plies the solver makes sure that the stack has room for
/// the next ones ([`STACK_RED_ZONE`]), moving on to a new piece of stack
/// on the heap when it has not (the `stacker` crate).
const GROW_EVERY: usize = 32;
/// The room the next [`GROW_EVERY`] plies need, with a wide margin.
const STACK_RED_ZONE: usize = 1 << 20;
/// The size of each new piece of stack.
const STACK_PIECE: usize = 64 << 20;
/// Positions between two calls of a [`Request`]'s `stop`.
pub const STOP_CHECK_EVERY: u64 = 4096;

/// What a proof asks now and then ([`Request::stop`]): whether to stop,
/// given its [`Progress`]. The threads of a parallel proof ask it, each in
/// turn, so it must be safe to call from any of them.
pub type Stop<'s> = dyn Fn(&Progress) -> bool + Sync + 's;

/// Where the solver's walks above its search ([`Request::keeping`], the
/// moves that keep a value) try the move of `pos` to `child` (higher
/// first): the table's move, then the biggest captures; and the search's
/// order where history is off or the board holds fewer than
/// [`HISTORY_MIN_SEEDS`] seeds.
#[inline]
fn move_order<R: Rules>(
    pos: &Position<R>,
    mv: Move,
    child: &Position<R>,
    tt_move: Option<Move>,
) -> i32 {
    let me = pos.side_to_move();
    if Some(mv) == tt_move {
        1000
    } else if child.moves_again_after(pos) {
        // A move that moves again (Kalah) is a free tempo: before captures.
        100 + child.tally(me) as i32 - pos.tally(me) as i32
    } else {
        child.tally(me) as i32 - pos.tally(me) as i32
    }
}

/// The outcome by the game's own win rule: for every supported game (the
/// seeds add up to the game's total) a positive margin wins, zero draws.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// The side to move wins.
    Win,
    /// A draw.
    Draw,
    /// The side to move loses.
    Loss,
}

impl Outcome {
    /// The outcome of a final margin (own total minus the opponent's).
    pub fn of_margin(margin: i32) -> Self {
        match margin.signum() {
            1 => Outcome::Win,
            0 => Outcome::Draw,
            _ => Outcome::Loss,
        }
    }

    /// `win`, `draw` or `loss`, as docs/protocol.md writes it.
    pub fn name(self) -> &'static str {
        match self {
            Outcome::Win => "win",
            Outcome::Draw => "draw",
            Outcome::Loss => "loss",
        }
    }
}

/// What a proof has shown of a value: `lower <= value <= upper` (equal
/// once proven), and the last value tried.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Bounds {
    /// The value is at least this.
    pub lower: i32,
    /// The value is at most this.
    pub upper: i32,
    /// The last guess of the search (between the bounds).
    pub guess: i32,
}

impl Bounds {
    /// A value proven: both bounds and the guess at `value`.
    pub fn exact(value: i32) -> Self {
        Bounds {
            lower: value,
            upper: value,
            guess: value,
        }
    }
}

/// How far a proof has gone, handed to a [`Request`]'s `stop`
/// every [`STOP_CHECK_EVERY`] positions (for a progress display).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Progress {
    /// Positions visited in this call.
    pub nodes: u64,
    /// What is proven of the root's value so far.
    pub bounds: Bounds,
    /// The root's legal moves.
    pub moves: usize,
    /// The root moves whose standing is proven: their exact value, or that
    /// they are no better than the proven lower bound, or that they reach
    /// the proven upper bound.
    pub settled: usize,
}

/// A solved position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Solution {
    /// The final margin from the side to move's view, banked seeds included.
    pub margin: i32,
    /// Every move that keeps the margin, ascending (empty if the game is over).
    pub best: Vec<Move>,
    /// A principal variation: a line of best moves (it stops at the end of
    /// the game, at a repetition, or after 64 plies).
    pub pv: Vec<Move>,
    /// Positions visited.
    pub nodes: u64,
    /// Whether the value came straight from a table (no search).
    pub from_tables: bool,
}

/// Positions above a proof's root that a line below it may reach again:
/// the interior of a [`ledger`] proof, whose pieces are proven one
/// by one. The solver scores such a position as a repetition of the
/// history (the cycle-rule split, nothing stored above it) and notes that
/// it did ([`Solver::take_leaned`]): a piece's value that leaned on none
/// of them is the same whichever path through them led to it.
#[derive(Clone, Debug, Default)]
pub struct Ancestors {
    keys: HashSet<u128>,
    /// The fewest seeds on the board of any of them: a position with fewer
    /// is none of them (seeds on the board only go down).
    fewest: u32,
}

impl Ancestors {
    /// The set of `positions`.
    pub fn of<'a, R: Rules>(positions: impl IntoIterator<Item = &'a Position<R>>) -> Self {
        let mut set = Ancestors {
            keys: HashSet::new(),
            fewest: u32::MAX,
        };
        for p in positions {
            set.keys.insert(p.key());
            set.fewest = set.fewest.min(p.board_seeds());
        }
        set
    }

    /// How many positions the set holds.
    pub fn len(&self) -> usize {
        self.keys.len()
    }

    /// Whether the set is empty.
    pub fn is_empty(&self) -> bool {
        self.keys.is_empty()
    }

    /// Whether `pos` is one of them.
    #[inline]
    pub fn holds<R: Rules>(&self, pos: &Position<R>) -> bool {
        pos.board_seeds() >= self.fewest && self.keys.contains(&pos.key())
    }
}

/// The solver's transposition table: its own, or one the caller holds.
enum Held<'a> {
    Owned(TranspositionTable),
    Shared(&'a TranspositionTable),
}

impl<'a> Held<'a> {
    /// The table, if it is shared (and so may be shared with more threads).
    fn shared(&self) -> Option<&'a TranspositionTable> {
        match self {
            Held::Owned(_) => None,
            Held::Shared(t) => Some(t),
        }
    }
}

impl std::ops::Deref for Held<'_> {
    type Target = TranspositionTable;
    fn deref(&self) -> &TranspositionTable {
        match self {
            Held::Owned(t) => t,
            Held::Shared(t) => t,
        }
    }
}

/// An exact solver for the positions of `R`, with its own transposition
/// table (kept between calls) and, optionally, tablebases.
///
/// ```
/// use mancala_solve::Solver;
/// use mancala_solve::values::NoTables;
/// use mancala_rules::{Bohnenspiel, Position};
/// let pos: Position<Bohnenspiel> = "bohnenspiel 0,0,0,0,0,2/0,0,0,0,0,0 S 35-35".parse().unwrap();
/// let mut solver = Solver::new(&NoTables, 1);
/// let s = solver.solve(&pos);
/// // South's only move sows into North's empty row, then North must move it
/// // on; South's row is empty, so North takes the two: 35-37.
/// assert_eq!(s.margin, -2);
/// ```
pub struct Solver<'a, R: Rules, T: BoardValues<R> + ?Sized = dyn BoardValues<R> + 'a> {
    tables: &'a T,
    tt: Held<'a>,
    nodes: u64,
    /// The game's earlier positions (oldest first), which count for the
    /// cycle rule: set for one [`Request`], empty otherwise.
    history: Line,
    /// The history, then the line from the root.
    path: Line,
    /// Give up at this node count ([`Request::nodes`]).
    node_limit: u64,
    /// Set when a limit made the solver give up: results are incomplete
    /// (and nothing incomplete is stored).
    aborted: bool,
    /// What the last [`Request`] proved of its root's
    /// value: lower and upper bound and the last guess.
    root_bounds: Bounds,
    /// The node count when the current [`Request`]
    /// began.
    call_start: u64,
    /// Where the next root's MTD(f) starts ([`Solver::resume_from`]).
    start_bounds: Option<Bounds>,
    /// Whether a proof contradicted the bounds it was resumed from
    /// ([`Solver::resumed_bounds_failed`]).
    resumed_failed: bool,
    /// The root of the current [`Request`] (for
    /// [`Progress`]).
    root: Option<Position<R>>,
    /// The root moves [`Progress`] found settled, as a mask of their
    /// indices among the root's children, with the key of the root they
    /// belong to: the root's bounds only narrow, so a move once settled
    /// stays settled, even when its table entry is replaced.
    settled: std::sync::Mutex<(u128, u64)>,
    /// The key of every entry stored, when asked ([`Solver::record_stores`]).
    journal: Option<Vec<u128>>,
    /// The threads of a parallel proof ([`Request::helpers`]), and the
    /// split points this solver works under: it gives up its search when
    /// one of them is cut off ([`team`]).
    team: Option<Arc<team::Team>>,
    cancels: Vec<Arc<std::sync::atomic::AtomicBool>>,
    /// The split points its parallel proofs made ([`Solver::splits`]).
    splits: u64,
    /// Positions above the root scored as repetitions ([`Ancestors`]).
    ancestors: Option<Arc<Ancestors>>,
    /// Set when a result leaned on a repetition of the history or on an
    /// [`Ancestors`] position ([`Solver::take_leaned`]).
    leaned: bool,
    /// Whether quiet moves are ordered by the history of cut-offs
    /// ([`Solver::order_by_history`]).
    by_history: bool,
    /// The history of this solver's quiet cut-offs (the search's
    /// [`History`]), for the moves the table and the captures do not order.
    cutoffs: History,
    game: std::marker::PhantomData<R>,
}

impl<R: Rules, T: BoardValues<R> + ?Sized> std::fmt::Debug for Solver<'_, R, T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Solver({}, {} nodes)", R::ID, self.nodes)
    }
}

impl<'a, R: Rules, T: BoardValues<R> + ?Sized> Solver<'a, R, T> {
    /// A solver with a transposition table of `megabytes` MiB, reading board
    /// values from `tables` ([`NoTables`](crate::values::NoTables) for
    /// search alone).
    ///
    /// # Panics
    /// If the table cannot be allocated ([`try_new`](Self::try_new) says so
    /// instead).
    pub fn new(tables: &'a T, megabytes: usize) -> Self {
        match Self::try_new(tables, megabytes) {
            Ok(solver) => solver,
            Err(e) => panic!("{e}"),
        }
    }

    /// [`new`](Self::new), or an error if the table cannot be allocated.
    pub fn try_new(tables: &'a T, megabytes: usize) -> Result<Self, TableTooLarge> {
        let tt = TranspositionTable::try_new(megabytes.max(1))?;
        Ok(Self::holding(tables, Held::Owned(tt)))
    }

    /// A solver working in a table the caller holds (and may read between
    /// calls, or from `stop`: every entry in it is a proven fact about a
    /// position, whatever the proof's state, so a copy of it taken at any
    /// time is a sound checkpoint).
    pub fn with_table(tables: &'a T, tt: &'a TranspositionTable) -> Self {
        Self::holding(tables, Held::Shared(tt))
    }

    /// A fresh solver in the table `tt`.
    fn holding(tables: &'a T, tt: Held<'a>) -> Self {
        Solver {
            tables,
            tt,
            nodes: 0,
            history: Line::new(),
            path: Line::with_capacity(256),
            node_limit: u64::MAX,
            aborted: false,
            root_bounds: Bounds {
                lower: -(R::TOTAL as i32),
                upper: R::TOTAL as i32,
                guess: 0,
            },
            call_start: 0,
            start_bounds: None,
            resumed_failed: false,
            root: None,
            settled: std::sync::Mutex::new((0, 0)),
            journal: None,
            team: None,
            cancels: Vec::new(),
            splits: 0,
            ancestors: None,
            leaned: false,
            by_history: false,
            cutoffs: History::default(),
            game: std::marker::PhantomData,
        }
    }

    /// From now on, scores every position of `ancestors` as a repetition
    /// of the history. A proof in this mode needs a history of at least
    /// one position (its root's parent, say), so that nothing that leaned
    /// on them is stored, and the table must hold only entries proven with
    /// the same set (or a larger one).
    pub fn set_ancestors(&mut self, ancestors: Arc<Ancestors>) {
        self.ancestors = Some(ancestors);
    }

    /// Orders the quiet moves of positions with at least
    /// [`HISTORY_MIN_SEEDS`] seeds on the board by the history of the
    /// cut-offs this solver has made, rather than pit by pit: big proofs
    /// (`solve`, the ledger's pieces) take 2.5 times fewer positions
    /// (docs/tablebases.md). Off by default: the books' runtime solver
    /// and the search's hand-over keep the fixed order their books and
    /// figures were made with, and a solver's answers then do not depend
    /// on what it proved before.
    pub fn order_by_history(&mut self) {
        self.by_history = true;
    }

    /// Whether a result since the last call leaned on a repetition of the
    /// history (the game's positions before the root) or on an
    /// [`Ancestors`] position; clears the flag. A value that did not is
    /// the position's own, whatever the history.
    pub fn take_leaned(&mut self) -> bool {
        std::mem::take(&mut self.leaned)
    }

    /// The next [`Request`] of the same root starts from `bounds`, what
    /// an earlier proof of the same root (with the same table, reloaded
    /// from a checkpoint) had proven, instead of the whole range.
    pub fn resume_from(&mut self, bounds: Bounds) {
        self.start_bounds = Some(bounds);
    }

    /// Whether the bounds given to [`resume_from`](Self::resume_from) were
    /// contradicted by the proof (they were false: an edited or damaged
    /// checkpoint). The proof then threw them away and proved the value
    /// from the whole range, so its answer stands; the caller says so.
    pub fn resumed_bounds_failed(&self) -> bool {
        self.resumed_failed
    }

    /// From now on, records the key of every entry the solver stores in its
    /// table ([`stored_keys`](Self::stored_keys)): a caller that reuses a
    /// table can then empty just the buckets it wrote.
    pub fn record_stores(&mut self) {
        self.journal.get_or_insert_with(Vec::new);
    }

    /// The keys stored since [`record_stores`](Self::record_stores) (empty
    /// if it was not called).
    pub fn stored_keys(&self) -> &[u128] {
        self.journal.as_deref().unwrap_or(&[])
    }

    /// Positions visited since the solver was made.
    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    /// How many times its parallel proofs ([`Request::helpers`]) shared a
    /// node's children out among their threads (the `team` module's split
    /// points): none for a proof on one thread.
    pub fn splits(&self) -> u64 {
        self.splits
    }

    /// The exact final margin of `pos` from the side to move's view.
    pub fn value(&mut self, pos: &Position<R>) -> i32 {
        self.value_checked(pos, &|_| false)
            .expect("no limit was set")
    }

    /// What the last [`Request`] proved of its root's
    /// value (exact bounds once it is solved).
    pub fn root_bounds(&self) -> Bounds {
        self.root_bounds
    }

    /// The progress of the current proof.
    fn progress(&self) -> Progress {
        let b = self.root_bounds;
        let (mut moves, mut settled) = (0, 0);
        if let Some(root) = &self.root {
            let mut seen = self.settled.lock().unwrap_or_else(|e| e.into_inner());
            if seen.0 != root.key() {
                *seen = (root.key(), 0);
            }
            for (i, (_, child)) in root.children().into_iter().enumerate() {
                moves += 1;
                let bit = 1u64 << (i % 64);
                let known = seen.1 & bit != 0
                    || match self.leaf_value(&child) {
                        Some(_) => true,
                        None => self.tt.probe(child.key()).is_some_and(|e| {
                            // The move's value and its bound, read from
                            // the root's side.
                            e.proven_margin().is_some_and(|m| {
                                let v = child.for_parent(root, m);
                                match e.bound.for_parent(child.moves_again_after(root)) {
                                    Bound::Exact => true,
                                    Bound::Upper => v <= b.lower,
                                    Bound::Lower => v >= b.upper,
                                }
                            })
                        }),
                    };
                if known {
                    seen.1 |= bit;
                }
                settled += known as usize;
            }
        }
        Progress {
            nodes: match &self.team {
                Some(team) => team.nodes.load(Relaxed),
                None => self.nodes - self.call_start,
            },
            bounds: b,
            moves,
            settled,
        }
    }

    /// The move the solver's table holds for `pos`: after a stopped proof
    /// of `pos`, the best move its searches found so far.
    pub fn table_move(&self, pos: &Position<R>) -> Option<Move> {
        self.tt.probe(pos.key()).and_then(|e| e.mv)
    }

    /// [`value`](Self::value), `None` as soon as a limit is reached.
    fn value_checked(&mut self, pos: &Position<R>, stop: &Stop) -> Option<i32> {
        self.value_tracked(pos, stop, false, None)
    }

    /// [`value_checked`](Self::value_checked); with `root`, each bound
    /// proven goes to [`root_bounds`](Self::root_bounds). MTD(f) starts at
    /// `guess` (default: the margin banked so far); a good guess saves
    /// searches, any guess gives the same value.
    fn value_tracked(
        &mut self,
        pos: &Position<R>,
        stop: &Stop,
        root: bool,
        guess: Option<i32>,
    ) -> Option<i32> {
        let total = R::TOTAL as i32;
        if let Some(v) = self.leaf_value(pos) {
            if root {
                self.root_bounds = Bounds::exact(v);
            }
            return Some(v);
        }
        // MTD(f): null-window searches closing in on the value.
        let (mut lower, mut upper) = (-INF, INF);
        let mut resumed = false;
        let mut g = guess.unwrap_or(pos.banked_margin()).clamp(-total, total);
        if root {
            self.root_bounds = Bounds {
                lower: -total,
                upper: total,
                guess: g,
            };
            if let Some(b) = self.start_bounds.take() {
                // Bounds proven before (a resumed proof): the whole range
                // is open only where it was not closed.
                resumed = true;
                if b.lower > -total {
                    lower = b.lower;
                }
                if b.upper < total {
                    upper = b.upper;
                }
                g = b.guess.clamp(lower.max(-total), upper.min(total));
                self.root_bounds = Bounds {
                    lower: lower.max(-total),
                    upper: upper.min(total),
                    guess: g,
                };
            }
        }
        // Which bounds a search of this call proved: a resumed bound is
        // checked by one before it is believed (an infinite one claims
        // nothing). Without resumed bounds this is MTD(f) as ever.
        let (mut lower_seen, mut upper_seen) = (lower == -INF, upper == INF);
        loop {
            let beta = if lower < upper {
                if g == lower {
                    g + 1
                } else {
                    g
                }
            } else if !upper_seen {
                // Is the value above the resumed upper bound?
                upper + 1
            } else if !lower_seen {
                // Below the resumed lower bound?
                lower
            } else {
                break;
            };
            self.reset_path();
            let (v, _) = self.search(pos, beta - 1, beta, stop);
            if self.aborted {
                return None;
            }
            if resumed && ((v < beta && v < lower) || (v >= beta && v > upper)) {
                // The resumed bounds were false (a sound search cannot
                // fall outside true bounds): forget them, prove from the
                // whole range, and let the caller say so.
                resumed = false;
                self.resumed_failed = true;
                (lower, upper) = (-INF, INF);
                (lower_seen, upper_seen) = (true, true);
            }
            if v < beta {
                upper = v;
                upper_seen = true;
            } else {
                lower = v;
                lower_seen = true;
            }
            g = v;
            if root {
                self.root_bounds = Bounds {
                    lower: lower.max(-total),
                    upper: upper.min(total),
                    guess: g,
                };
            }
        }
        Some(g)
    }

    /// The path back to the history alone.
    fn reset_path(&mut self) {
        self.path.clear();
        self.path.extend_from(&self.history);
    }

    /// Runs `proof` with a team of `threads` ([`team`]) when the table is
    /// shared and there is more than one, alone otherwise; `budget` is the
    /// team's. A pool that cannot be started (the system refuses a thread)
    /// leaves the proof to this thread alone.
    fn with_team<A: Send>(
        &mut self,
        threads: usize,
        budget: u64,
        proof: impl FnOnce(&mut Self) -> A + Send,
    ) -> A {
        let pool = (threads > 1 && self.tt.shared().is_some())
            .then(|| {
                rayon::ThreadPoolBuilder::new()
                    .num_threads(threads)
                    .stack_size(STACK_PIECE)
                    .thread_name(|i| format!("solver-{i}"))
                    .build()
                    .ok()
            })
            .flatten();
        let Some(pool) = pool else {
            return proof(self);
        };
        let team = Arc::new(team::Team::new(threads, budget));
        self.team = Some(team.clone());
        let answer = pool.install(|| proof(self));
        self.team = None;
        self.splits += team.splits.load(Relaxed);
        answer
    }

    /// Runs `proof` on `pos` with the game's `history` (which must not
    /// have ended the game: [`Request`] answers that case itself) and a
    /// budget of `max_nodes` positions; `None` if a limit stopped it.
    fn limited<A>(
        &mut self,
        history: &[Position<R>],
        pos: &Position<R>,
        max_nodes: u64,
        proof: impl FnOnce(&mut Self) -> Option<A>,
    ) -> Option<A> {
        self.history = Line::of(history);
        debug_assert!(!self.history.ends_game(pos));
        self.node_limit = self.nodes.saturating_add(max_nodes);
        self.call_start = self.nodes;
        self.aborted = false;
        let answer = proof(self);
        self.node_limit = u64::MAX;
        self.history.clear();
        self.aborted = false;
        answer
    }

    /// The first move of `pos`, in the search's order (the table's move,
    /// then the biggest captures), that keeps at least `target`;
    /// `Some(None)` if none does, `None` if the proof was stopped.
    fn first_keeping(
        &mut self,
        pos: &Position<R>,
        target: i32,
        stop: &Stop,
    ) -> Option<Option<Move>> {
        if self.is_over(pos) {
            return Some(None);
        }
        let tt_move = self.tt.probe(pos.key()).and_then(|e| e.mv);
        let mut moves: Vec<(Move, Position<R>, i32)> = pos
            .children()
            .into_iter()
            .map(|(mv, child)| (mv, child, move_order(pos, mv, &child, tt_move)))
            .collect();
        moves.sort_by_key(|m| -m.2);
        for (mv, child, _) in moves {
            if self.move_keeps(pos, &child, target, stop)? {
                return Some(Some(mv));
            }
        }
        Some(None)
    }

    /// Whether the move of `pos` to `child` keeps at least `target` for the
    /// side to move in `pos`; `None` if the proof was stopped.
    fn move_keeps(
        &mut self,
        pos: &Position<R>,
        child: &Position<R>,
        target: i32,
        stop: &Stop,
    ) -> Option<bool> {
        Some(match self.leaf_value(child) {
            Some(v) => child.for_parent(pos, v) >= target,
            None => {
                // The move keeps the target if the child's value is at most
                // -target (at least target if the mover moves again): a
                // null window there.
                self.reset_path();
                self.path.push(pos);
                let (alpha, beta) = child.bounds_for_parent(pos, (target - 1, target));
                let (v, _) = self.search(child, alpha, beta, stop);
                if self.aborted {
                    return None;
                }
                child.for_parent(pos, v) >= target
            }
        })
    }

    /// Solves `pos`: its margin, every move that keeps it, a principal
    /// variation.
    pub fn solve(&mut self, pos: &Position<R>) -> Solution {
        self.solve_checked(pos, &|_| false)
            .expect("no limit was set")
    }

    /// [`solve`](Self::solve), `None` as soon as a limit is reached.
    fn solve_checked(&mut self, pos: &Position<R>, stop: &Stop) -> Option<Solution> {
        let before = self.nodes;
        let from_tables = self.tables.board_value(pos).is_some();
        let margin = self.value_tracked(pos, stop, true, None)?;
        let best = self.best_moves(pos, margin, stop)?;
        let pv = self.principal_variation(pos, margin, &best, stop)?;
        Some(Solution {
            margin,
            best,
            pv,
            nodes: self.nodes - before,
            from_tables,
        })
    }

    /// A principal variation from `pos`, whose value is `margin` and whose
    /// moves that keep it are `best` ([`best_moves`](Self::best_moves)): at
    /// each position the lowest move that keeps the value, until the game
    /// ends, a position repeats or the line is [`MAX_PV`] moves long.
    fn principal_variation(
        &mut self,
        pos: &Position<R>,
        margin: i32,
        best: &[Move],
        stop: &Stop,
    ) -> Option<Vec<Move>> {
        // Each position of the line is valued with the line above it as
        // part of its history, as the game would reach it: in a game that
        // cycles (Oware) a position proven with no history may wander far
        // longer than one whose line closes its cycles.
        // A repetition of the line is not one of the caller's history.
        let (history_len, leaned) = (self.history.len(), self.leaned);
        let pv = self.principal_variation_on_history(pos, margin, best, stop);
        self.history.truncate(history_len);
        self.leaned = leaned;
        pv
    }

    /// [`principal_variation`](Self::principal_variation), extending
    /// [`Solver::history`] with the line as it goes.
    fn principal_variation_on_history(
        &mut self,
        pos: &Position<R>,
        margin: i32,
        best: &[Move],
        stop: &Stop,
    ) -> Option<Vec<Move>> {
        let mut pv = Vec::new();
        let (mut at, mut value) = (*pos, margin);
        let mut next = best.first().copied();
        while let Some(mv) = next {
            pv.push(mv);
            let before = at;
            self.history.push(&before);
            at = at.play_unchecked(mv);
            // A position that repeats the history or the line ends it (the
            // proof scored it as the cycle rule's split).
            if pv.len() >= MAX_PV || self.history.repeats(&at) {
                break;
            }
            // The move keeps the value, so the child's is (all but
            // certainly) its negation, or the value itself if the mover
            // moves again: MTD(f) starts there.
            let guess = at.for_parent(&before, value);
            value = self.value_tracked(&at, stop, false, Some(guess))?;
            next = self.best_moves(&at, value, stop)?.first().copied();
        }
        Some(pv)
    }

    /// Every move of `pos` whose child has value `-margin` (`margin` if
    /// the mover moves again): the moves that keep the value `margin` of
    /// `pos`, ascending.
    fn best_moves(&mut self, pos: &Position<R>, margin: i32, stop: &Stop) -> Option<Vec<Move>> {
        let mut best = Vec::new();
        if self.is_over(pos) {
            return Some(best);
        }
        for (mv, child) in pos.children() {
            // The move is worth at most `margin`; it keeps the value if it
            // is worth at least that.
            if self.move_keeps(pos, &child, margin, stop)? {
                best.push(mv);
            }
        }
        best.sort();
        Some(best)
    }

    fn is_over(&self, pos: &Position<R>) -> bool {
        matches!(pos.status(), Status::Over(_))
    }

    /// The value of a position known without search: over, or in a table.
    fn leaf_value(&self, pos: &Position<R>) -> Option<i32> {
        if let Status::Over(t) = pos.status() {
            return Some(pos.margin_of(t));
        }
        self.tables.margin(pos)
    }

    /// A cut-off by the move `mv` of `pos` to `child`: a quiet move (not
    /// the table's) that cut grows its history by the square of the seeds
    /// left on the board (the game's length still to come, as depth is the
    /// search's).
    fn record_cutoff(
        &mut self,
        pos: &Position<R>,
        mv: Move,
        child: &Position<R>,
        tt_move: Option<Move>,
        with_history: bool,
    ) {
        let side = pos.side_to_move();
        if with_history && child.tally(side) == pos.tally(side) && Some(mv) != tt_move {
            let seeds = pos.board_seeds() as i32;
            self.cutoffs.add(side.index(), mv, seeds.max(1));
        }
    }

    /// Gives up the proof (a limit is reached), and makes the team's other
    /// solvers give up too.
    fn give_up(&mut self) {
        self.aborted = true;
        if let Some(team) = &self.team {
            team.halt.store(true, Relaxed);
        }
    }

    /// Fail-soft alpha-beta. Returns the value (exact inside the window, a
    /// bound outside it) and the lowest ply of a position on the line whose
    /// repetition the result relied on (`NO_REP` if none).
    fn search(&mut self, pos: &Position<R>, alpha: i32, beta: i32, stop: &Stop) -> (i32, usize) {
        self.nodes += 1;
        let nodes_before = self.nodes;
        let ply = self.path.len();
        if self.stopping(ply, stop) {
            return (0, NO_REP);
        }
        let tt_key = pos.key();
        let tt_move = match self.known(pos, tt_key, alpha, beta) {
            Ok(known) => return known,
            Err(tt_move) => tt_move,
        };
        let with_history = self.by_history && pos.board_seeds() >= HISTORY_MIN_SEEDS;
        let side = pos.side_to_move();
        let cutoffs = &self.cutoffs;
        let tt: &TranspositionTable = &self.tt;
        let mut moves = [(Move::PASS, *pos, 0i32); MAX_MOVES];
        let mut n = 0;
        R::generate(pos, |mv, child| {
            // The enhanced transposition cut-off below probes every child:
            // asked for now, their buckets arrive together.
            tt.prefetch(child.key());
            let mut key = move_order(pos, mv, &child, tt_move);
            if with_history && key == 0 {
                // A quiet move: below every capture, by its history.
                key = cutoffs.of(side.index(), mv) - QUIET_BELOW;
            }
            moves[n] = (mv, child, key);
            n += 1;
        });
        let moves = &mut moves[..n];
        if let Some(v) = self.transposition_cut(pos, tt_key, moves, beta) {
            return (v, NO_REP);
        }
        moves.sort_by_key(|m| -m.2);
        let node = Ordered {
            tt_move,
            with_history,
            nodes_before,
        };
        self.path.push_key(tt_key);
        let found = self.children(pos, moves, &node, (alpha, beta), stop);
        self.path.pop();
        let Some((best, best_move, rep)) = found else {
            return (0, NO_REP);
        };
        if rep < ply {
            return (best, rep);
        }
        let bound = if best >= beta {
            Bound::Lower
        } else if best <= alpha {
            Bound::Upper
        } else {
            Bound::Exact
        };
        let work = work_depth(self.nodes - nodes_before);
        self.tt
            .store(tt_key, TtEntry::proven(best_move, best, bound, work));
        if let Some(journal) = &mut self.journal {
            journal.push(tt_key);
        }
        (best, NO_REP)
    }

    /// Whether the search at `ply` must end now: a limit reached, `stop`
    /// (asked every [`STOP_CHECK_EVERY`] positions), or the team's split
    /// cancelled.
    #[inline(always)]
    fn stopping(&mut self, ply: usize, stop: &Stop) -> bool {
        let team_check = self.team.is_some() && self.nodes.is_multiple_of(team::CHECK_EVERY);
        if self.nodes >= self.node_limit
            || ply >= MAX_SOLVE_PLY
            || (team_check && self.team_budget_spent())
            || (self.nodes.is_multiple_of(STOP_CHECK_EVERY) && stop(&self.progress()))
        {
            self.give_up();
        } else if team_check && self.cancelled() {
            self.aborted = true;
        }
        self.aborted
    }

    /// The value of `pos` (key `tt_key`) where it needs no search within
    /// `(alpha, beta)`, with the repetition it relied on: the cycle rule,
    /// the end of the game or the tables, the seeds left on the board, the
    /// table's proven bound. Else (`Err`) the table's move, if any.
    #[inline(always)]
    fn known(
        &mut self,
        pos: &Position<R>,
        tt_key: u128,
        alpha: i32,
        beta: i32,
    ) -> Result<(i32, usize), Option<Move>> {
        // The cycle rule ([`crate::repetition`]), below the root only: the
        // root is where the game stands, and an earlier occurrence of it in
        // the history does not end the game (a third one does, and a
        // [`Request`] answers that itself). Scored as a repetition, the
        // root would take the split as its value with no move to keep it.
        if self.path.len() > self.history.len() {
            if let Some(i) = self.path.earlier_key(tt_key) {
                self.leaned |= i < self.history.len();
                return Ok((pos.margin_of(pos.cycle_totals()), i));
            }
        }
        if self.ancestors.as_deref().is_some_and(|a| a.holds(pos)) {
            // Above the root: a repetition of the history's first position
            // as far as storing goes (nothing above it is stored).
            self.leaned = true;
            return Ok((pos.margin_of(pos.cycle_totals()), 0));
        }
        if let Some(v) = self.leaf_value(pos) {
            return Ok((v, NO_REP));
        }
        // A window outside the margins the seeds allow is answered
        // without a search.
        let (least, most) = pos.margin_range();
        if most <= alpha {
            return Ok((most, NO_REP));
        }
        if least >= beta {
            return Ok((least, NO_REP));
        }
        let Some(e) = self.tt.probe(tt_key) else {
            return Err(None);
        };
        if let Some(s) = e.proven_margin() {
            match e.bound {
                Bound::Exact => return Ok((s, NO_REP)),
                Bound::Lower if s >= beta => return Ok((s, NO_REP)),
                Bound::Upper if s <= alpha => return Ok((s, NO_REP)),
                _ => {}
            }
        }
        Err(e.mv)
    }

    /// Enhanced transposition cut-off: a child of `pos` (key `tt_key`)
    /// that the table already proves bad enough for the opponent cuts at
    /// once, without a search: its value, at least `beta`. A child that
    /// repeats the line is left to the search (its value there is the
    /// cycle rule's, not the table's).
    #[inline(always)]
    fn transposition_cut(
        &self,
        pos: &Position<R>,
        tt_key: u128,
        moves: &[(Move, Position<R>, i32)],
        beta: i32,
    ) -> Option<i32> {
        for &(_, child, _) in moves {
            let key = child.key();
            if key == tt_key || self.path.earlier_key(key).is_some() {
                continue;
            }
            let Some(e) = self.tt.probe(key) else {
                continue;
            };
            // The move's proven value, and whether the child's bound holds
            // it from below, read from this node's side.
            let Some(m) = e.proven_margin() else {
                continue;
            };
            let v = child.for_parent(pos, m);
            let from_below = matches!(
                e.bound.for_parent(child.moves_again_after(pos)),
                Bound::Exact | Bound::Lower
            );
            if from_below && v >= beta {
                return Some(v);
            }
        }
        None
    }

    /// Searches the ordered `moves` of `pos` within `(alpha, beta)` until
    /// one cuts off, handing the brothers of a big first child to the team:
    /// the best value and move, and the earliest repetition relied on;
    /// `None` if the search was aborted.
    #[inline(always)]
    fn children(
        &mut self,
        pos: &Position<R>,
        moves: &[(Move, Position<R>, i32)],
        node: &Ordered,
        (mut alpha, beta): (i32, i32),
        stop: &Stop,
    ) -> Option<(i32, Option<Move>, usize)> {
        let ply = self.path.len() - 1;
        let (tt_move, with_history) = (node.tt_move, node.with_history);
        let mut best = -INF;
        let mut best_move = None;
        let mut rep = NO_REP;
        for i in 0..moves.len() {
            if i == 1
                && moves.len() > 2
                && self.team.is_some()
                && self.nodes - node.nodes_before >= team::SPLIT_MIN_NODES
            {
                // The first child did not cut off, and was big: its two or more
                // brothers go to the team ([`team`]).
                let found = self.split(pos, &moves[1..], (alpha.max(best), beta), stop)?;
                rep = rep.min(found.rep);
                if found.best > best {
                    best = found.best;
                    best_move = found.best_move;
                    if let Some(&(mv, child, _)) = moves
                        .iter()
                        .find(|m| Some(m.0) == best_move && best >= beta)
                    {
                        self.record_cutoff(pos, mv, &child, tt_move, with_history);
                    }
                }
                break;
            }
            let (mv, child, _) = moves[i];
            let (a, b) = child.bounds_for_parent(pos, (alpha.max(best), beta));
            let (v, r) = if ply.is_multiple_of(GROW_EVERY) {
                stacker::maybe_grow(STACK_RED_ZONE, STACK_PIECE, || {
                    self.search(&child, a, b, stop)
                })
            } else {
                self.search(&child, a, b, stop)
            };
            if self.aborted {
                return None;
            }
            let v = child.for_parent(pos, v);
            rep = rep.min(r);
            if v > best {
                best = v;
                best_move = Some(mv);
                if v > alpha {
                    alpha = v;
                }
                if v >= beta {
                    self.record_cutoff(pos, mv, &child, tt_move, with_history);
                    break;
                }
            }
        }
        Some((best, best_move, rep))
    }
}

/// What [`Solver::children`] needs to know of the node whose children it
/// searches, besides the position.
struct Ordered {
    /// The table's move.
    tt_move: Option<Move>,
    /// Whether quiet moves were ordered by history (cut-offs then teach it).
    with_history: bool,
    /// The solver's positions before the node.
    nodes_before: u64,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_bigger_proof_is_kept_before_a_smaller_one() {
        assert_eq!(work_depth(1), 6);
        assert_eq!(work_depth(u64::MAX), 240);
        let depths: Vec<u8> = (0..64).map(|b| work_depth(1 << b)).collect();
        assert!(depths.windows(2).all(|w| w[0] < w[1] || w[1] == 240));
        // One bucket of four slots, full of proofs of different sizes: the
        // smallest gives way to a new one.
        let tt = TranspositionTable::new(0);
        let proven = |positions: u64| TtEntry::proven(None, 0, Bound::Exact, work_depth(positions));
        for (key, positions) in [(1u128, 1_000u64), (2, 10), (3, 100_000), (4, 50)] {
            tt.store(key, proven(positions));
        }
        tt.store(5, proven(20));
        let kept: Vec<u128> = (1..=5).filter(|&k| tt.probe(k).is_some()).collect();
        assert_eq!(kept, [1, 3, 4, 5]);
        // And the new small one goes before the big ones.
        tt.store(6, proven(30));
        let kept: Vec<u128> = (1..=6).filter(|&k| tt.probe(k).is_some()).collect();
        assert_eq!(kept, [1, 3, 4, 6]);
    }
}
