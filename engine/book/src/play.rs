//! How the engine plays a solved game from its book: the runtime solver
//! ([`RUNTIME`]), the tables a book is played with ([`PlayTables`]) and the
//! policy, [`proven_move`]: the book's move, else the runtime solver's,
//! else the book's move where the game's history set it aside.

use super::{Book, Keeps, MAX_BOOK_TABLES};
use mancala_rules::AnyPosition;
use mancala_rules::Move;
use mancala_rules::{GameId, Rules, Status};
use mancala_rules::{Position, Side};
use mancala_solve::tt::TranspositionTable;
use mancala_solve::{Proof, Solver, Stop};
use mancala_tables::{build_in_memory, Below, BoardValues, NoTables, TableSet};

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

/// The endgame tables a book is played with ([`Book::tables`]), built in
/// memory (a third of a second to 12 seeds, half a minute to 20): the
/// game's tables to the book's seed count and no further, since larger
/// tables would change the runtime solver's answers. Whoever plays or walks
/// a book builds them once and keeps them.
pub struct PlayTables {
    game: GameId,
    set: TableSet,
    /// The largest seed count held (`None`: no tables).
    seeds: Option<u32>,
}

impl PlayTables {
    /// The tables of `R` to `seeds` (at most [`MAX_BOOK_TABLES`]); none
    /// where `seeds` is `None` or `R` has no tables.
    pub fn build<R: Rules>(seeds: Option<u32>) -> PlayTables {
        let seeds = seeds.map(|k| k.min(MAX_BOOK_TABLES));
        let mut set = TableSet::default();
        if let Some(k) = seeds {
            mancala_tables::with_table_rules!(R::ID, T => set.insert(build_in_memory::<T>(k).0), _ => {});
        }
        PlayTables {
            game: R::ID,
            set,
            seeds,
        }
    }

    /// The tables the book of `book` is played with.
    pub fn for_book<R: Rules>(book: &Book) -> PlayTables {
        PlayTables::build::<R>(book.tables())
    }

    /// Whether these are the tables of `game` to `seeds`.
    pub fn are(&self, game: GameId, seeds: Option<u32>) -> bool {
        self.game == game && self.seeds == seeds.map(|k| k.min(MAX_BOOK_TABLES))
    }

    /// The tables as the runtime solver reads them: no board above their
    /// seed count (and none at all for another game than theirs).
    pub fn below<R: Rules>(&self) -> Below<'_, dyn BoardValues<R> + '_> {
        match (self.seeds, self.set.get::<R>()) {
            (Some(k), Some(tables)) => Below {
                tables,
                limit: k + 1,
            },
            _ => Below {
                tables: &NoTables,
                limit: 0,
            },
        }
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
pub(super) fn runtime_move_in<R: Rules>(
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

/// The position reached from `start` by `moves` (trusted legal), and the
/// positions before it, oldest first.
pub fn reached<R: Rules>(start: Position<R>, moves: &[Move]) -> (Position<R>, Vec<Position<R>>) {
    let mut history = Vec::with_capacity(moves.len());
    let mut pos = start;
    for &mv in moves {
        history.push(pos);
        pos = pos.play_unchecked(mv);
    }
    (pos, history)
}

/// The engine's proven move in the position reached from `start` by
/// `moves` in a solved game whose book is `book`, played with `tables`
/// ([`PlayTables::for_book`]), and what it keeps: the book's move when the
/// game's history leaves the entry standing ([`Book::lookup`]); else the
/// runtime solver's ([`RUNTIME`], until `give_up` says stop: the exact
/// value if it proves it in its budget, else, in a game from the start, a
/// move that keeps the start's value); else, in a game from the start, the
/// book's move that the lookup set aside. `None`: no proven move (the
/// engine searches).
pub fn proven_move<R: Rules>(
    book: &Book,
    tables: &PlayTables,
    start: Position<R>,
    moves: &[Move],
    give_up: &(dyn Fn() -> bool + Sync),
) -> Option<(Move, Keeps)> {
    let (pos, history) = reached(start, moves);
    let any: AnyPosition = pos.into();
    let earlier = history.iter().map(|p| p.tallies());
    if let Some(entry) = book.lookup(&any, earlier) {
        return Some((entry.mv, Keeps::Exact(entry.margin)));
    }
    // The start's value binds the side to move only in a game from the
    // start.
    let target = book
        .start_value(R::ID)
        .filter(|_| start == Position::<R>::start())
        .map(|v| target(&pos, v));
    let answer = runtime_move(
        &history,
        &pos,
        target,
        RUNTIME,
        &tables.below::<R>(),
        &|_| give_up(),
    );
    // The book's move where the lookup refused it (an earlier position of
    // the game has these tallies) and the runtime solver has no answer: it
    // is proven for the position itself, and it keeps the game on the
    // strategy the book's walk checked, where a search's move could leave
    // it (docs/solved.md, "Perfect play").
    answer.or_else(|| {
        let entry = book.get(&any)?;
        Some((entry.mv, Keeps::AtLeast(target?)))
    })
}
