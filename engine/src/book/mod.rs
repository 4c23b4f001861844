//! Books of proven moves: how the engine plays a solved game perfectly.
//!
//! Where a game is solved from its start (Bosh's first round, Djenon-abe:
//! docs/solved.md), the engine need not guess. Its book is a strategy that
//! keeps the proven value of the start against any opponent (what game
//! theory calls a weak solution): for every position the engine can meet,
//! playing either side, a move proven to keep at least the value it had at
//! the start, or else a runtime solver ([`RUNTIME`]) that proves such a move
//! within a move's time. Near the start a proof takes seconds; further on
//! the runtime solver proves a position within its budget; the book
//! (`positions/book/GAME.txt`, lines `POSITION | margin M | move B`)
//! fills the gap. A book may be built with the game's endgame tables to `K`
//! seeds (a line `tables K`, [`Book::tables`]): the runtime solver then
//! reads them, built in memory ([`tables_to`]), and the walk stops where
//! they hold the position. Djenon-abe's book is built so, with 12 seeds:
//! without tables its walk is out of reach (docs/solved.md).
//!
//! The book is closed under play: [`build`] walks every position where the
//! engine (South or North) is to move, with the engine playing the book's
//! move and the opponent every legal move, to the end of every game. A
//! position the runtime solver answers is not stored, and the walk goes on
//! through its answer; for every other one the position's best move (which
//! keeps at least the engine's value) is proven, stored with the position's
//! value, and followed. So an engine
//! that plays the book's move in the book and the runtime solver's move out
//! of it never ends a game below the proven value of the start (checked
//! over games: `mancala book test`).
//!
//! What a move keeps: the runtime solver first tries the position's exact
//! value (so that an opponent's mistake is taken in full when the proof is
//! quick), and only then a move that keeps the start's value. A book move
//! is the position's best, with its exact value.
//!
//! A book entry is about the position itself. In a game, an earlier
//! position could come again and change the value by the cycle rule; it
//! can only if it has the same tallies as the position now (tallies never
//! fall within a round), so [`Book::lookup`] answers only when no earlier
//! position has; the engine then asks the runtime solver, with the game's
//! history, before it plays the book's move all the same.

use std::collections::HashMap;
use std::fmt;
use std::sync::OnceLock;

use crate::any::AnyPosition;
use crate::files::{entries, field, position, FileError, LineError};
use crate::game::{GameId, Rules, Status};
use crate::moves::Move;
use crate::solve::{Progress, Proof, Solver, Stop};
use crate::tablebase::{build_in_memory, Below, BoardValues, NoTables, TableSet};
use crate::tt::TranspositionTable;
use crate::{Position, Side};

/// The runtime solver a book is built against: a fresh table of `hash_mb`
/// MiB, at most `exact_nodes` positions to prove the exact value and a best
/// move, then (if that did not finish) at most `keep_nodes` more to prove a
/// move that keeps the start's value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Runtime {
    /// Positions the exact proof may visit.
    pub exact_nodes: u64,
    /// Positions the proof of a move that keeps the start's value may visit.
    pub keep_nodes: u64,
    /// Its transposition table, MiB.
    pub hash_mb: usize,
}

/// The runtime solver of every book: 100,000 + 150,000 positions (about
/// 0.1 s on the machine of docs/figures.md) in a 16 MiB table.
pub const RUNTIME: Runtime = Runtime {
    exact_nodes: 100_000,
    keep_nodes: 150_000,
    hash_mb: 16,
};

/// The largest seed count of a book's tables ([`Book::tables`]): they are
/// built in memory when first needed ([`tables_to`]), which takes a third
/// of a second to 12 seeds (1.8 million positions) and half a minute to
/// 20 (140 million).
pub const MAX_BOOK_TABLES: u32 = 20;

/// Whether a book may be built with the tables to `k` seeds: an even `k`
/// from 2 to [`MAX_BOOK_TABLES`].
pub fn valid_table_seeds(k: u32) -> bool {
    k.is_multiple_of(2) && (2..=MAX_BOOK_TABLES).contains(&k)
}

/// The endgame tables of `R` to `k` seeds (at most [`MAX_BOOK_TABLES`]),
/// seen as a book built with them ([`Book::tables`]) plays them (no larger
/// board): built in memory the first time they are asked for and kept for
/// the run. No tables at all where `k` is `None` or `R` has none.
pub fn tables_to<R: Rules>(k: Option<u32>) -> Below<'static, dyn BoardValues<R>> {
    type Built = Vec<(GameId, u32, &'static TableSet)>;
    static BUILT: std::sync::Mutex<Built> = std::sync::Mutex::new(Vec::new());
    let none: Below<'static, dyn BoardValues<R>> = Below {
        tables: &NoTables,
        limit: 0,
    };
    let Some(k) = k else {
        return none;
    };
    let k = k.min(MAX_BOOK_TABLES);
    let set = {
        // Held while building: a second thread waits for the same tables.
        let mut built = BUILT.lock().unwrap_or_else(|e| e.into_inner());
        match built.iter().find(|(g, m, _)| *g == R::ID && *m == k) {
            Some(&(_, _, set)) => set,
            None => {
                let mut set = TableSet::default();
                crate::with_table_rules!(R::ID, T => set.insert(build_in_memory::<T>(k).0), _ => {});
                // Once per game and seed count for the whole run.
                let set: &'static TableSet = Box::leak(Box::new(set));
                built.push((R::ID, k, set));
                set
            }
        }
    };
    match set.get::<R>() {
        Some(tables) => Below {
            tables,
            limit: k + 1,
        },
        None => none,
    }
}

/// The games solved from their start, which can have a book.
pub const SOLVED: [GameId; 2] = [GameId::Bosh, GameId::DjenonAbe];

/// The games that ship a (complete) book.
pub const GAMES: [GameId; 2] = [GameId::Bosh, GameId::DjenonAbe];

/// One entry of a book: `position` is worth the final margin `margin` to
/// the side to move (its own view, banked seeds included), and `mv` keeps
/// it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entry {
    /// The position, the engine to move.
    pub position: AnyPosition,
    /// The position's value.
    pub margin: i32,
    /// The move.
    pub mv: Move,
}

impl fmt::Display for Entry {
    /// The entry's line: `POSITION | margin M | move B`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} | margin {} | move {}",
            self.position, self.margin, self.mv
        )
    }
}

/// What a proven move keeps.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Keeps {
    /// The position's exact value (the margin).
    Exact(i32),
    /// At least this margin.
    AtLeast(i32),
}

impl Keeps {
    /// The margin kept, exact or at least.
    pub fn margin(self) -> i32 {
        match self {
            Keeps::Exact(m) | Keeps::AtLeast(m) => m,
        }
    }
}

/// A book: proven moves of one game, by position.
#[derive(Clone, Debug, Default)]
pub struct Book {
    entries: HashMap<u128, Entry>,
    /// Positions with at most this many seeds on the board are answered
    /// with the game's endgame tables (the file's line `tables K`).
    tables: Option<u32>,
}

impl Book {
    /// An empty book.
    pub fn new() -> Self {
        Book::default()
    }

    /// Reads a book of `game`: lines `POSITION | margin M | move B` of
    /// that game, each position still being played, each move legal, no
    /// position twice; and at most one line `tables K` (an even `K` from 2
    /// to [`MAX_BOOK_TABLES`]: the book was built with the game's tables to `K` seeds).
    pub fn parse(text: &str, game: GameId) -> Result<Book, FileError> {
        const SHAPE: &str = "'POSITION | margin M | move B'";
        let mut book = Book::new();
        for (line, text) in entries(text) {
            if let Some(k) = text.strip_prefix("tables") {
                let k = k
                    .trim()
                    .parse::<u32>()
                    .ok()
                    .filter(|&k| valid_table_seeds(k))
                    .ok_or_else(|| field(line, text, "'tables K', an even K from 2 to 20, once"))?;
                if book.tables.replace(k).is_some() {
                    return Err(field(line, text, "'tables K' once"));
                }
                continue;
            }
            let fields: Vec<&str> = text.split('|').map(str::trim).collect();
            let [pos, margin, mv] = fields[..] else {
                return Err(FileError {
                    line,
                    problem: LineError::Shape(SHAPE),
                });
            };
            let pos = position(line, pos)?;
            let margin = margin
                .strip_prefix("margin ")
                .and_then(|m| m.trim().parse().ok())
                .ok_or_else(|| field(line, margin, "'margin M'"))?;
            let fail = |problem| Err(FileError { line, problem });
            if pos.game() != game {
                return fail(LineError::WrongGame {
                    expected: game,
                    found: pos.game(),
                });
            }
            if pos.status() != Status::Ongoing {
                return fail(LineError::GameOver(text.to_string()));
            }
            let mv = mv
                .strip_prefix("move ")
                .and_then(|m| m.trim().parse::<u8>().ok())
                .map(Move::from_pit)
                .filter(|m| pos.legal_moves().contains(*m))
                .ok_or_else(|| field(line, mv, "'move B', a legal move of the position"))?;
            let entry = Entry {
                position: pos,
                margin,
                mv,
            };
            if book.entries.insert(pos.key(), entry).is_some() {
                return Err(field(line, text, "each position once"));
            }
        }
        Ok(book)
    }

    /// The book shipped for `game`, if it has one (compiled in from
    /// `positions/book/`).
    pub fn shipped(game: GameId) -> Option<&'static Book> {
        static BOSH: OnceLock<Book> = OnceLock::new();
        static DJENON_ABE: OnceLock<Book> = OnceLock::new();
        let (cell, text) = match game {
            GameId::Bosh => (&BOSH, include_str!("../../positions/book/bosh.txt")),
            GameId::DjenonAbe => (
                &DJENON_ABE,
                include_str!("../../positions/book/djenon-abe.txt"),
            ),
            _ => return None,
        };
        // The shipped files are checked by the tests; a damaged one would
        // only lose the book, never the game.
        Some(cell.get_or_init(|| Book::parse(text, game).unwrap_or_default()))
    }

    /// The seed count up to which the book's positions are answered with
    /// the game's endgame tables (`None`: the book needs no tables).
    pub fn tables(&self) -> Option<u32> {
        self.tables
    }

    /// Sets what [`tables`](Self::tables) says.
    pub fn set_tables(&mut self, tables: Option<u32>) {
        self.tables = tables;
    }

    /// Adds (or replaces) an entry.
    pub fn insert(&mut self, entry: Entry) {
        self.entries.insert(entry.position.key(), entry);
    }

    /// The entry of `pos`, whatever the history.
    pub fn get(&self, pos: &AnyPosition) -> Option<&Entry> {
        self.entries.get(&pos.key())
    }

    /// The entry of `pos` when it holds in this game: no earlier position
    /// (`history_tallies`, the tallies of each) has the tallies of `pos`.
    pub fn lookup(
        &self,
        pos: &AnyPosition,
        mut history_tallies: impl Iterator<Item = [u8; 2]>,
    ) -> Option<&Entry> {
        let now = pos.tallies();
        let entry = self.get(pos)?;
        (!history_tallies.any(|t| t == now)).then_some(entry)
    }

    /// The proven value of the game's start for South, the side to move
    /// there: the start's entry (every book has it, since no runtime solver
    /// proves a start).
    pub fn start_value(&self, game: GameId) -> Option<i32> {
        self.get(&AnyPosition::start(game)).map(|e| e.margin)
    }

    /// The entries whose position has `side` to move (the engine's entries
    /// when it plays `side`).
    pub fn side(&self, side: Side) -> Book {
        let entries = self
            .entries
            .iter()
            .filter(|(_, e)| e.position.side_to_move() == side)
            .map(|(k, e)| (*k, e.clone()))
            .collect();
        Book {
            entries,
            tables: self.tables,
        }
    }

    /// Every entry, in no order.
    pub fn iter(&self) -> impl Iterator<Item = &Entry> {
        self.entries.values()
    }

    /// Entries.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Whether the book has no entry.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// The book as its file: one line an entry, in the order of the
    /// positions' notation (so that a rebuilt book differs only where its
    /// entries do).
    pub fn to_text(&self) -> String {
        let mut lines: Vec<String> = self.entries.values().map(|e| e.to_string()).collect();
        lines.sort();
        let mut text = String::new();
        if let Some(k) = self.tables {
            text.push_str(&format!("tables {k}\n"));
        }
        for line in lines {
            text.push_str(&line);
            text.push('\n');
        }
        text
    }
}

/// The margin the side to move in `pos` keeps at least, in a game from the
/// start whose value for South is `start_value`, when neither side has
/// lost value since: the start's value from that side's view.
pub fn target<R: Rules>(pos: &Position<R>, start_value: i32) -> i32 {
    match pos.side_to_move() {
        Side::South => start_value,
        Side::North => -start_value,
    }
}

/// The runtime solver's move in `pos` (a fresh table, `budget`, the
/// endgame `tables` (exactly those the book was built with, see
/// [`Book::tables`]), the game's earlier positions `history` counting for
/// the cycle rule): a best move with the exact value if that proof ends
/// within `budget.exact_nodes`, else, given a `target`, a move proven to
/// keep at least it within `budget.keep_nodes`; `None` if neither, or if
/// `stop` said so.
pub fn runtime_move<R: Rules>(
    history: &[Position<R>],
    pos: &Position<R>,
    target: Option<i32>,
    budget: Runtime,
    tables: &dyn BoardValues<R>,
    stop: &Stop,
) -> Option<(Move, Keeps)> {
    // One table a thread, emptied after each use: the same answers as a
    // fresh table, without writing 16 MiB for every move (most of the
    // time of a book's walk, where most positions are small).
    thread_local! {
        /// The table and its size in MiB.
        static TABLE: std::cell::RefCell<Option<(usize, TranspositionTable)>> =
            const { std::cell::RefCell::new(None) };
    }
    TABLE.with(|cell| {
        let mut cell = cell.borrow_mut();
        if cell.as_ref().map(|(mb, _)| *mb) != Some(budget.hash_mb) {
            *cell = None;
            *cell = Some((
                budget.hash_mb,
                TranspositionTable::try_new(budget.hash_mb).ok()?,
            ));
        }
        let (_, tt) = cell.as_ref()?;
        runtime_move_in(tt, history, pos, target, budget, tables, stop)
    })
}

/// [`runtime_move`] in `tt`, which must be new (empty, age 0) and is left
/// so.
fn runtime_move_in<R: Rules>(
    tt: &TranspositionTable,
    history: &[Position<R>],
    pos: &Position<R>,
    target: Option<i32>,
    budget: Runtime,
    tables: &dyn BoardValues<R>,
    stop: &Stop,
) -> Option<(Move, Keeps)> {
    let mut solver = Solver::with_table(tables, tt);
    solver.record_stores();
    let answer = (|| {
        match solver
            .prove(pos)
            .history(history)
            .nodes(budget.exact_nodes)
            .stop(stop)
            .best_move()
        {
            Proof::Done(Some((margin, mv))) => return Some((mv, Keeps::Exact(margin))),
            // No move: nothing to play.
            Proof::Done(None) => return None,
            Proof::Stopped => {}
        }
        let target = target?;
        let mv = solver
            .prove(pos)
            .history(history)
            .nodes(budget.keep_nodes)
            .stop(stop)
            .keeping(target)
            .done()??;
        Some((mv, Keeps::AtLeast(target)))
    })();
    for &key in solver.stored_keys() {
        tt.clear_bucket_of(key);
    }
    answer
}

/// The final margin, from the mover's view, that `mv` leads to in `pos`
/// under best play after it (the game's earlier positions `history` count
/// for the cycle rule), proven with `solver`; `None` if `stop` said so.
pub fn move_value<R: Rules, T: BoardValues<R> + ?Sized>(
    solver: &mut Solver<'_, R, T>,
    history: &[Position<R>],
    pos: &Position<R>,
    mv: Move,
    stop: &Stop,
) -> Option<i32> {
    let child = pos.play_unchecked(mv);
    let mut line = history.to_vec();
    line.push(*pos);
    let v = match child.status() {
        Status::Over(t) => child.margin_of(t),
        Status::Ongoing => solver
            .prove(&child)
            .history(&line)
            .stop(stop)
            .value()
            .done()?,
    };
    Some(if child.side_to_move() == pos.side_to_move() {
        v
    } else {
        -v
    })
}

/// What [`build`] has done so far.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct BuildProgress {
    /// Positions of the engine's to look at, seen so far.
    pub visited: u64,
    /// Of them, answered by the runtime solver.
    pub leaves: u64,
    /// Entries of this side in the book.
    pub entries: u64,
    /// Of them, proven in this run (the rest were in the book already).
    pub proven: u64,
    /// Positions the proofs visited.
    pub proof_nodes: u64,
    /// Positions (of either side to move) where the walk stopped because
    /// the endgame tables hold them.
    pub in_tables: u64,
    /// The longest the runtime solver took to answer a position in this
    /// run (what it may take in a game).
    pub slowest: std::time::Duration,
}

/// What a build has learnt besides the book: the positions (by key) the
/// runtime solver answered, with its move, so that a resumed build need
/// not ask it again. Only a cache: a position missing from it is asked
/// again.
pub type Leaves = HashMap<u128, Move>;

/// How a build ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BuildEnd {
    /// The book is complete for the side.
    Complete,
    /// `stop` ended it; the book holds what was proven.
    Stopped,
    /// A position of the walk where no move keeps the side's value: the
    /// book or the proofs are wrong (a book from other rules, a damaged
    /// file); the build cannot go on.
    Contradiction(AnyPosition),
}

/// How a [`check`] ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CheckEnd {
    /// Every position of the walk is in the book, answered by the runtime
    /// solver or held by the tables.
    Complete,
    /// `stop` ended it.
    Stopped,
    /// A position of the walk that is neither in the book nor answered by
    /// the runtime solver: the book is not complete.
    Gap(AnyPosition),
}

/// The two ends every walk of the book shares; the others are its gaps'
/// ([`build`] proves a gap, [`check`] stops at it).
trait WalkEnd {
    const COMPLETE: Self;
    const STOPPED: Self;
}

impl WalkEnd for BuildEnd {
    const COMPLETE: Self = BuildEnd::Complete;
    const STOPPED: Self = BuildEnd::Stopped;
}

impl WalkEnd for CheckEnd {
    const COMPLETE: Self = CheckEnd::Complete;
    const STOPPED: Self = CheckEnd::Stopped;
}

/// The proven value of the start of `R` for South: the start's entry in
/// `book`, or else proven with `solver` and added (`None` if `stop` ended
/// the proof).
pub fn prove_start<R: Rules, T: BoardValues<R> + ?Sized>(
    book: &mut Book,
    solver: &mut Solver<'_, R, T>,
    stop: &(dyn Fn() -> bool + Sync),
) -> Option<i32> {
    if let Some(v) = book.start_value(R::ID) {
        return Some(v);
    }
    let start = Position::<R>::start();
    let stop = |_: &Progress| stop();
    let s = solver.prove(&start).stop(&stop).solution().done()?;
    book.insert(Entry {
        position: start.into(),
        margin: s.margin,
        mv: *s.best.first()?,
    });
    Some(s.margin)
}

/// What a walk of the book covers: the engine's side, the start's value,
/// the runtime solver, and what counts as a leaf.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Walk {
    /// The side the engine plays.
    pub engine: Side,
    /// The start's value for South ([`prove_start`]).
    pub start_value: i32,
    /// The runtime solver.
    pub budget: Runtime,
    /// A leaf is a position whose exact value the runtime solver proves
    /// (the engine then keeps every position's own value, also after an
    /// opponent's mistake); without, one where it proves at least a move
    /// that keeps the start's value (a smaller book).
    pub strict: bool,
}

/// Completes `book` for the game `R` as `walk` says: every position the
/// engine can meet in a game from the start, playing `walk.engine`, to the
/// end of the game or to the tables the book is played with
/// ([`Book::tables`]: the runtime solver reads them, and a position they
/// hold ends the walk, since from there they give every move's exact value
/// and captures only shrink the board). Entries already in `book` are trusted,
/// and so are the `leaves` already known (so a build goes on where an
/// interrupted one stopped); new entries are proven with `solver` (its
/// table is kept from proof to proof). `on_entry` is called with each new
/// entry, `on_leaf` with each new answer of the runtime solver (the
/// position's key and the move, and the progress); `stop` ends the build early.
pub fn build<R: Rules, T: BoardValues<R> + ?Sized>(
    book: &mut Book,
    leaves: &mut Leaves,
    solver: &mut Solver<'_, R, T>,
    walk: Walk,
    mut on_entry: impl FnMut(&Entry, &BuildProgress),
    on_leaf: impl FnMut(u128, Move, &BuildProgress),
    stop: &(dyn Fn() -> bool + Sync),
) -> BuildEnd {
    let prove = |pos: &Position<R>, target: i32, book: &mut Book, progress: &mut BuildProgress| {
        // The best move, not just one that keeps the target: after an
        // opponent's mistake it keeps the whole gift, and the slack makes
        // the runtime solver's proofs further on easier.
        let before = solver.nodes();
        let best = solver.prove(pos).stop(&|_: &Progress| stop()).best_move();
        progress.proof_nodes += solver.nodes() - before;
        let entry = match best {
            Proof::Stopped => return Err(BuildEnd::Stopped),
            Proof::Done(Some((margin, mv))) if margin >= target => Entry {
                position: (*pos).into(),
                margin,
                mv,
            },
            // Below the target, or (an ongoing position cannot be) no
            // move at all.
            Proof::Done(_) => return Err(BuildEnd::Contradiction((*pos).into())),
        };
        progress.proven += 1;
        progress.entries += 1;
        on_entry(&entry, progress);
        let mv = entry.mv;
        book.insert(entry);
        Ok(mv)
    };
    walk_book(book, leaves, walk, prove, on_leaf, stop)
}

/// Checks that `book` is complete for the game `R` as `walk` says: the
/// walk of [`build`], ended by the first position that is neither in the
/// book nor answered by the runtime solver ([`CheckEnd::Gap`]) instead of
/// proving it. `on_leaf` is called with each answer of the runtime solver.
pub fn check<R: Rules>(
    book: &Book,
    walk: Walk,
    on_leaf: impl FnMut(u128, Move, &BuildProgress),
    stop: &(dyn Fn() -> bool + Sync),
) -> CheckEnd {
    let gap = |pos: &Position<R>, _: i32, _: &mut Book, _: &mut BuildProgress| {
        Err(CheckEnd::Gap((*pos).into()))
    };
    walk_book(
        &mut book.clone(),
        &mut Leaves::new(),
        walk,
        gap,
        on_leaf,
        stop,
    )
}

/// The walk of [`build`] and [`check`]: every position the engine can
/// meet, through the book's moves and the runtime solver's; a position
/// neither answers goes to `at_gap` (with its target and the progress),
/// whose move the walk goes on through, or whose end ends it.
fn walk_book<R: Rules, E: WalkEnd>(
    book: &mut Book,
    leaves: &mut Leaves,
    walk: Walk,
    mut at_gap: impl FnMut(&Position<R>, i32, &mut Book, &mut BuildProgress) -> Result<Move, E>,
    mut on_leaf: impl FnMut(u128, Move, &BuildProgress),
    stop: &(dyn Fn() -> bool + Sync),
) -> E {
    let Walk {
        engine,
        start_value,
        budget,
        strict,
    } = walk;
    // The tables as the engine plays them: to the book's seed count only
    // (larger tables would change the runtime solver's answers).
    let table_seeds = book.tables();
    let tables = tables_to::<R>(table_seeds);
    let mut progress = BuildProgress {
        entries: book
            .iter()
            .filter(|e| e.position.side_to_move() == engine)
            .count() as u64,
        ..Default::default()
    };
    let mut seen: std::collections::HashSet<u128> = Default::default();
    // Depth first: the positions of one line are near each other in the
    // solver's table.
    let mut work: Vec<Position<R>> = vec![Position::<R>::start()];
    while let Some(pos) = work.pop() {
        if pos.status() != Status::Ongoing || !seen.insert(pos.key()) {
            continue;
        }
        if table_seeds.is_some_and(|k| pos.board_seeds() <= k) {
            progress.in_tables += 1;
            continue;
        }
        if pos.side_to_move() != engine {
            for &mv in pos.legal_moves().as_slice() {
                work.push(pos.play_unchecked(mv));
            }
            continue;
        }
        if stop() {
            return E::STOPPED;
        }
        progress.visited += 1;
        let any: AnyPosition = pos.into();
        let target = target(&pos, start_value);
        let mv = match book.get(&any) {
            Some(entry) => entry.mv,
            None => {
                // Answered by the runtime solver: the walk goes on through
                // its move, since in a game the runtime solver must answer
                // every position after it as well.
                if let Some(&mv) = leaves.get(&pos.key()) {
                    progress.leaves += 1;
                    work.push(pos.play_unchecked(mv));
                    continue;
                }
                let keep = (!strict).then_some(target);
                let asked = std::time::Instant::now();
                let answer = runtime_move(&[], &pos, keep, budget, &tables, &|_| stop());
                progress.slowest = progress.slowest.max(asked.elapsed());
                if let Some((mv, _)) = answer {
                    progress.leaves += 1;
                    leaves.insert(pos.key(), mv);
                    on_leaf(pos.key(), mv, &progress);
                    work.push(pos.play_unchecked(mv));
                    continue;
                }
                // The runtime solver may have given up because of `stop`.
                if stop() {
                    return E::STOPPED;
                }
                match at_gap(&pos, target, book, &mut progress) {
                    Ok(mv) => mv,
                    Err(end) => return end,
                }
            }
        };
        work.push(pos.play_unchecked(mv));
    }
    E::COMPLETE
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tablebase::NoTables;

    fn shipped_text(game: GameId) -> &'static str {
        match game {
            GameId::Bosh => include_str!("../../positions/book/bosh.txt"),
            GameId::DjenonAbe => include_str!("../../positions/book/djenon-abe.txt"),
            _ => unreachable!("a game with a book"),
        }
    }

    #[test]
    fn shipped_books_parse_and_are_not_empty() {
        for game in GAMES {
            let book = Book::parse(shipped_text(game), game).expect("the shipped book parses");
            assert!(!book.is_empty(), "{game}");
            assert_eq!(Book::shipped(game).map(Book::len), Some(book.len()));
            // The start is in it: no runtime solver proves it.
            assert!(book.start_value(game).is_some(), "{game}");
        }
        assert!(Book::shipped(GameId::Bohnenspiel).is_none());
    }

    /// Every move of the shipped Bosh book keeps what its entry says, by a
    /// proof of the position it leads to.
    #[test]
    fn the_bosh_book_moves_keep_their_margin() {
        let book = Book::shipped(GameId::Bosh).expect("Bosh has a book");
        let mut solver = Solver::new(&NoTables, 64);
        let mut checked = 0;
        for entry in book.entries.values() {
            let AnyPosition::Bosh(pos) = entry.position else {
                panic!("a Bosh book holds Bosh positions");
            };
            let kept = move_value(&mut solver, &[], &pos, entry.mv, &|_| false).expect("no limit");
            assert_eq!(kept, entry.margin, "{entry}");
            checked += 1;
        }
        assert_eq!(checked, book.len());
        assert!(checked >= 1, "{checked} entries");
    }

    /// Every move of the shipped Djenon-abe book keeps what its entry
    /// says, by a proof with the tables the book is played with (exact
    /// values, so still a proof; `book check` proves them without).
    #[test]
    fn the_djenon_abe_book_moves_keep_their_margin() {
        let book = Book::shipped(GameId::DjenonAbe).expect("Djenon-abe has a book");
        let k = book.tables().expect("played with tables");
        let tables = tables_to::<crate::DjenonAbe>(Some(k));
        let mut solver = Solver::new(&tables, 64);
        let start = AnyPosition::start(GameId::DjenonAbe);
        let mut checked = 0;
        for entry in book.entries.values().filter(|e| e.position != start) {
            let AnyPosition::DjenonAbe(pos) = entry.position else {
                panic!("a Djenon-abe book holds Djenon-abe positions");
            };
            let kept = move_value(&mut solver, &[], &pos, entry.mv, &|_| false).expect("no limit");
            assert_eq!(kept, entry.margin, "{entry}");
            checked += 1;
        }
        assert_eq!(checked + 1, book.len());
        assert!(checked >= 1, "{checked} entries");
    }

    /// The guarantee of the shipped Djenon-abe book (docs/solved.md): every
    /// position the engine can meet in a game from the start, as South and
    /// as North, is in the book, answered by the runtime solver (with the
    /// book's tables) or held by the tables. The two walks of `book check`
    /// at once, about a minute and a half.
    #[test]
    fn the_djenon_abe_book_covers_every_position_the_engine_can_meet() {
        let book = Book::shipped(GameId::DjenonAbe).expect("Djenon-abe has a book");
        let start_value = book.start_value(GameId::DjenonAbe).expect("the start");
        assert_eq!(start_value, -2, "North wins by 2 (docs/solved.md)");
        assert_eq!(book.tables(), Some(12));
        let walk = |engine: Side| {
            let answered = std::cell::Cell::new(0u64);
            let end = check::<crate::DjenonAbe>(
                book,
                Walk {
                    engine,
                    start_value,
                    budget: RUNTIME,
                    strict: false,
                },
                |_, _, _| answered.set(answered.get() + 1),
                &|| false,
            );
            (end, answered.get())
        };
        let (south, north) = std::thread::scope(|s| {
            let north = s.spawn(|| walk(Side::North));
            (walk(Side::South), north.join().expect("no panic"))
        });
        assert_eq!(south.0, CheckEnd::Complete);
        assert_eq!(north.0, CheckEnd::Complete);
        // The walks of docs/solved.md: 668,720 and 936,807 answers.
        assert_eq!((south.1, north.1), (668_720, 936_807));
    }

    /// The runtime solver's reused table answers as a fresh one, and is
    /// left empty.
    #[test]
    fn the_runtime_solver_answers_as_with_a_fresh_table() {
        let budget = Runtime {
            exact_nodes: 3_000,
            keep_nodes: 5_000,
            hash_mb: 1,
        };
        let reused = TranspositionTable::new(1);
        let mut rng = 0x9e37_79b9_7f4a_7c15u64;
        let (mut answered, mut not) = (0, 0);
        for game in 0..40 {
            let mut pos = Position::<crate::DjenonAbe>::start();
            for _ in 0..(game % 20) * 2 {
                let moves = pos.legal_moves();
                if moves.is_empty() {
                    break;
                }
                rng ^= rng << 13;
                rng ^= rng >> 7;
                rng ^= rng << 17;
                pos = pos.play_unchecked(moves.as_slice()[rng as usize % moves.len()]);
            }
            if pos.status() != Status::Ongoing {
                continue;
            }
            for target in [None, Some(-2), Some(2)] {
                let fresh = TranspositionTable::new(1);
                let a = runtime_move_in(&fresh, &[], &pos, target, budget, &NoTables, &|_| false);
                let b = runtime_move_in(&reused, &[], &pos, target, budget, &NoTables, &|_| false);
                assert_eq!(a, b, "{pos}");
                assert!(reused.is_new(), "{pos}");
                if a.is_some() {
                    answered += 1;
                } else {
                    not += 1;
                }
            }
        }
        // Both kinds of answer were compared.
        assert!(
            answered >= 10 && not >= 10,
            "{answered} answered, {not} not"
        );
    }

    #[test]
    fn bad_books_are_refused_with_their_line() {
        let bosh = "bosh 4,4,4,4,4/4,4,4,4,4 S 0-0";
        let cases = [
            (
                format!("{bosh} | margin 6 | move 2\n{bosh} | margin 6 | move 5"),
                2,
            ),
            (format!("# c\n{bosh} | margin 6 | move 9"), 2),
            (format!("{bosh} | margin 6 | move "), 1),
            (format!("{bosh} | margin 6 | best 2"), 1),
            (format!("{bosh} | at least 6 | move 2"), 1),
            (format!("{bosh} | margin 6"), 1),
            (
                "djenon-abe 4,4,4,4,4,4/4,4,4,4,4,4 S 0-0 | margin -2 | move 2".to_string(),
                1,
            ),
            (
                "bosh 0,0,0,0,0/0,0,0,0,4 S 20-16 | margin -4 | move 1".to_string(),
                1,
            ),
            (format!("{bosh} | margin x | move 2"), 1),
            (format!("tables 3\n{bosh} | margin 6 | move 2"), 1),
            (format!("tables 22\n{bosh} | margin 6 | move 2"), 1),
            (format!("tables\n{bosh} | margin 6 | move 2"), 1),
            (
                format!("tables 12\n{bosh} | margin 6 | move 2\ntables 12"),
                3,
            ),
        ];
        for (text, line) in cases {
            let err = Book::parse(&text, GameId::Bosh).expect_err(&text);
            assert_eq!(err.line, line, "{text}: {err}");
        }
        let ok = Book::parse(
            &format!("{bosh} | margin 6 | move 2 # the start"),
            GameId::Bosh,
        )
        .expect("parses");
        assert_eq!(ok.len(), 1);
        assert_eq!(ok.start_value(GameId::Bosh), Some(6));
        assert_eq!(
            Book::parse(&ok.to_text(), GameId::Bosh).unwrap().to_text(),
            ok.to_text()
        );
        assert_eq!(ok.tables(), None);
        let with = Book::parse(
            &format!("# built with the tables\ntables 12\n{bosh} | margin 6 | move 2"),
            GameId::Bosh,
        )
        .expect("parses");
        assert_eq!(with.tables(), Some(12));
        assert!(with.to_text().starts_with("tables 12\n"));
        assert_eq!(
            Book::parse(&with.to_text(), GameId::Bosh).unwrap().tables(),
            Some(12)
        );
        assert_eq!(with.side(Side::South).tables(), Some(12));
    }

    /// Where a book is played with tables, the runtime solver answers
    /// every position they hold at once, with the tables' value, and sees
    /// no larger board through them than the book's seed count.
    #[test]
    fn the_runtime_solver_answers_from_the_tables() {
        let (tables, _) = crate::tablebase::build_in_memory::<crate::DjenonAbe>(8);
        let seen = Below {
            tables: &tables as &dyn BoardValues<crate::DjenonAbe>,
            limit: 7,
        };
        assert_eq!(BoardValues::<crate::DjenonAbe>::complete_to(&seen), Some(6));
        let budget = Runtime {
            exact_nodes: 50,
            keep_nodes: 0,
            hash_mb: 1,
        };
        let mut rng = 0x2545_f491_4f6c_dd1du64;
        let mut answered = 0;
        for game in 0..400 {
            // Random play from the start down to at most 8 seeds.
            let mut pos = Position::<crate::DjenonAbe>::start();
            while pos.status() == Status::Ongoing && pos.board_seeds() > 8 {
                let moves = pos.legal_moves();
                rng ^= rng << 13;
                rng ^= rng >> 7;
                rng ^= rng << 17;
                pos = pos.play_unchecked(moves.as_slice()[rng as usize % moves.len()]);
            }
            if pos.status() != Status::Ongoing || game % 2 == 1 && pos.board_seeds() > 6 {
                continue;
            }
            let limit = if game % 2 == 0 { 9 } else { 7 };
            let seen = Below {
                tables: &tables as &dyn BoardValues<crate::DjenonAbe>,
                limit,
            };
            let (mv, keeps) = runtime_move(&[], &pos, None, budget, &seen, &|_| false)
                .unwrap_or_else(|| panic!("{pos}: not answered from the tables"));
            let value = tables.probe_margin(&pos).expect("in the tables");
            assert_eq!(keeps, Keeps::Exact(value), "{pos}");
            let mut solver = Solver::new(&NoTables, 4);
            assert_eq!(
                move_value(&mut solver, &[], &pos, mv, &|_| false),
                Some(value),
                "{pos}"
            );
            answered += 1;
        }
        assert!(answered >= 100, "{answered} positions");
    }

    #[test]
    fn lookup_refuses_a_position_whose_tallies_were_seen() {
        let mut book = Book::new();
        let pos: AnyPosition = "bosh 4,4,4,4,4/4,4,4,4,4 S 0-0".parse().unwrap();
        book.insert(Entry {
            position: pos,
            margin: 6,
            mv: Move::from_pit(2),
        });
        assert!(book.lookup(&pos, std::iter::empty()).is_some());
        assert!(book.lookup(&pos, [[3, 1]].into_iter()).is_some());
        assert!(book.lookup(&pos, [[3, 1], [0, 0]].into_iter()).is_none());
    }

    /// A small runtime budget, so that a Bosh book has entries past the
    /// start.
    const SMALL: Runtime = Runtime {
        exact_nodes: 5_000,
        keep_nodes: 10_000,
        hash_mb: 1,
    };

    /// Builds Bosh against `SMALL` for South, then North, while the builds
    /// end complete: the first end that is not.
    fn walk_bosh(
        book: &mut Book,
        leaves: &mut Leaves,
        solver: &mut Solver<'_, crate::Bosh, NoTables>,
        start_value: i32,
        strict: bool,
        stop: &(dyn Fn() -> bool + Sync),
    ) -> BuildEnd {
        for engine in [Side::South, Side::North] {
            let walk = Walk {
                engine,
                start_value,
                budget: SMALL,
                strict,
            };
            let end =
                build::<crate::Bosh, _>(book, leaves, solver, walk, |_, _| {}, |_, _, _| {}, stop);
            if end != BuildEnd::Complete {
                return end;
            }
        }
        BuildEnd::Complete
    }

    /// Builds both sides' books of Bosh against `SMALL`, stopping after
    /// `stop_after` calls of `stop` if given.
    fn build_bosh(
        book: &mut Book,
        leaves: &mut Leaves,
        strict: bool,
        stop_after: Option<u64>,
    ) -> bool {
        let mut solver = Solver::new(&NoTables, 8);
        let count = std::sync::atomic::AtomicU64::new(0);
        let stop = || {
            let calls = count.fetch_add(1, std::sync::atomic::Ordering::Relaxed) + 1;
            stop_after.is_some_and(|n| calls > n)
        };
        let Some(v) = prove_start::<crate::Bosh, _>(book, &mut solver, &stop) else {
            return false;
        };
        match walk_bosh(book, leaves, &mut solver, v, strict, &stop) {
            BuildEnd::Complete => true,
            BuildEnd::Stopped => false,
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn a_build_stopped_and_resumed_gives_the_same_book() {
        let (mut whole, mut all_leaves) = (Book::new(), Leaves::new());
        assert!(build_bosh(&mut whole, &mut all_leaves, false, None));
        assert!(whole.side(Side::South).len() >= 2, "{}", whole.to_text());
        assert!(!whole.side(Side::North).is_empty(), "{}", whole.to_text());
        assert!(!all_leaves.is_empty());
        // Every entry keeps the start's value from its side's view.
        let v = whole.start_value(GameId::Bosh).expect("the start");
        for e in whole.entries.values() {
            let AnyPosition::Bosh(p) = e.position else {
                unreachable!()
            };
            assert!(e.margin >= target(&p, v), "{e}");
        }
        let (mut part, mut leaves) = (Book::new(), Leaves::new());
        assert!(!build_bosh(&mut part, &mut leaves, false, Some(60)));
        assert!(part.len() < whole.len());
        // Resumed with what the first run learnt: the same book and leaves.
        assert!(build_bosh(&mut part, &mut leaves, false, None));
        assert_eq!(leaves, all_leaves);
        assert_eq!(part.to_text(), whole.to_text());
        // A strict book needs more entries: fewer positions are leaves.
        let (mut strict, mut strict_leaves) = (Book::new(), Leaves::new());
        assert!(build_bosh(&mut strict, &mut strict_leaves, true, None));
        assert!(strict.len() > whole.len(), "{} entries", strict.len());
    }

    /// Checks both sides of `book` against `SMALL`: the first gap, if any.
    fn check_bosh(book: &Book) -> Option<AnyPosition> {
        let start_value = book.start_value(GameId::Bosh).expect("the start");
        for engine in [Side::South, Side::North] {
            let walk = Walk {
                engine,
                start_value,
                budget: SMALL,
                strict: false,
            };
            match check::<crate::Bosh>(book, walk, |_, _, _| {}, &|| false) {
                CheckEnd::Complete => {}
                CheckEnd::Gap(p) => return Some(p),
                CheckEnd::Stopped => panic!("nothing stops it"),
            }
        }
        None
    }

    #[test]
    fn a_check_finds_a_missing_entry() {
        let (mut book, mut leaves) = (Book::new(), Leaves::new());
        assert!(build_bosh(&mut book, &mut leaves, false, None));
        assert_eq!(check_bosh(&book), None);
        let start = AnyPosition::start(GameId::Bosh);
        // Three entries (each check walks the book again), in the order of
        // the file.
        let mut taken: Vec<&Entry> = book.iter().filter(|e| e.position != start).collect();
        taken.sort_by_key(|e| e.to_string());
        let mut missing = 0;
        for e in taken.into_iter().take(3) {
            let mut holed = book.clone();
            holed.entries.remove(&e.position.key());
            assert_eq!(check_bosh(&holed), Some(e.position), "{e}");
            missing += 1;
        }
        assert!(missing >= 1);
    }

    #[test]
    fn a_book_that_contradicts_the_proofs_stops_the_build() {
        // A start value South cannot keep: the start is already a
        // contradiction.
        let mut book = Book::new();
        let mut solver = Solver::new(&NoTables, 8);
        let walk = Walk {
            engine: Side::South,
            start_value: 7,
            budget: SMALL,
            strict: false,
        };
        let end = build::<crate::Bosh, _>(
            &mut book,
            &mut Leaves::new(),
            &mut solver,
            walk,
            |_, _| {},
            |_, _, _| {},
            &|| false,
        );
        assert_eq!(
            end,
            BuildEnd::Contradiction(AnyPosition::start(GameId::Bosh))
        );
    }
}
