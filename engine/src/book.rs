//! Books of proven moves: how the engine plays a solved game perfectly.
//!
//! Where a game is solved from its start (Bosh's first round, Djenon-abe:
//! docs/solved.md), the engine need not guess. Near the start a proof takes
//! seconds; further on the solver proves a position within a move's time.
//! A book fills the gap: the positions the engine can meet, playing either
//! side, before the solver alone can prove them, each with its proven
//! margin and every move that keeps it (`positions/book/GAME.txt`, the
//! puzzle format `POSITION | margin M | best B,…`).
//!
//! The book is closed under play: [`build`] walks every position where the
//! engine (South or North) is to move, with the engine playing the book's
//! first best move and the opponent every legal move. A position the
//! runtime solver ([`RUNTIME`]: a fresh table and a node budget) proves is
//! a leaf and is not stored; every other one is proven in full and stored,
//! and its book move is followed. So an engine that plays the book's move
//! in the book and the runtime solver's best move out of it keeps the
//! proven value of the start at every move, given the runtime solver's
//! budget (checked over games: `mancala book test`).
//!
//! A book value is the position's own. In a game, an earlier position could
//! come again and change the value by the cycle rule; it can only if it has
//! the same tallies as the position now (tallies never fall within a
//! round), so [`Book::lookup`] answers only when no earlier position has.

use std::collections::HashMap;
use std::sync::OnceLock;

use crate::any::AnyPosition;
use crate::files::{entries, parse_puzzles, FileError, LineError, Puzzle};
use crate::game::{GameId, Rules, Status};
use crate::moves::Move;
use crate::solve::{Progress, Solver};
use crate::tablebase::NoTables;
use crate::Position;

/// The runtime solver a book is built against: a fresh table of
/// `hash_mb` MiB and at most `nodes` positions a move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SolverBudget {
    /// Positions the solver may visit.
    pub nodes: u64,
    /// Its transposition table, MiB.
    pub hash_mb: usize,
}

/// The runtime solver of every book: 250,000 positions (about 0.1 s on the
/// machine of docs/figures.md) in a 16 MiB table.
pub const RUNTIME: SolverBudget = SolverBudget {
    nodes: 250_000,
    hash_mb: 16,
};

/// The games solved from their start, which can have a book.
pub const SOLVED: [GameId; 2] = [GameId::Bosh, GameId::DjenonAbe];

/// The games that ship a (complete) book.
pub const GAMES: [GameId; 1] = [GameId::Bosh];

/// A book: proven positions of one game, by key.
#[derive(Clone, Debug, Default)]
pub struct Book {
    entries: HashMap<u128, Puzzle>,
}

impl Book {
    /// An empty book.
    pub fn new() -> Self {
        Book::default()
    }

    /// Reads a book of `game`: puzzle lines of that game, each position
    /// still being played, each best move legal, no position twice.
    pub fn parse(text: &str, game: GameId) -> Result<Book, FileError> {
        let mut book = Book::new();
        for (line, entry) in entries(text) {
            let puzzle = parse_puzzles(entry)
                .map_err(|e| FileError {
                    line,
                    problem: e.problem,
                })?
                .pop()
                .expect("one entry");
            let pos = &puzzle.position;
            let fail = |problem| Err(FileError { line, problem });
            if pos.game() != game {
                return fail(LineError::WrongGame {
                    expected: game,
                    found: pos.game(),
                });
            }
            if pos.status() != Status::Ongoing {
                return fail(LineError::GameOver(entry.to_string()));
            }
            let legal = pos.legal_moves();
            if puzzle.best.is_empty() || puzzle.best.iter().any(|m| !legal.contains(*m)) {
                return fail(LineError::Field {
                    text: entry.to_string(),
                    expected: "best moves that are legal in the position",
                });
            }
            if book.entries.insert(pos.key(), puzzle).is_some() {
                return fail(LineError::Field {
                    text: entry.to_string(),
                    expected: "each position once",
                });
            }
        }
        Ok(book)
    }

    /// The book shipped for `game`, if it has one (compiled in from
    /// `positions/book/`).
    pub fn shipped(game: GameId) -> Option<&'static Book> {
        static BOSH: OnceLock<Book> = OnceLock::new();
        let (cell, text) = match game {
            GameId::Bosh => (&BOSH, include_str!("../../positions/book/bosh.txt")),
            _ => return None,
        };
        // The shipped files are checked by the tests; a damaged one would
        // only lose the book, never the game.
        Some(cell.get_or_init(|| Book::parse(text, game).unwrap_or_default()))
    }

    /// Adds (or replaces) an entry.
    pub fn insert(&mut self, puzzle: Puzzle) {
        self.entries.insert(puzzle.position.key(), puzzle);
    }

    /// The entry of `pos`, whatever the history.
    pub fn get(&self, pos: &AnyPosition) -> Option<&Puzzle> {
        self.entries.get(&pos.key())
    }

    /// The entry of `pos` when its value is the position's value in this
    /// game: no earlier position (`history_tallies`, the tallies of each)
    /// has the tallies of `pos`.
    pub fn lookup(
        &self,
        pos: &AnyPosition,
        mut history_tallies: impl Iterator<Item = [u8; 2]>,
    ) -> Option<&Puzzle> {
        let now = pos.tallies();
        let entry = self.get(pos)?;
        (!history_tallies.any(|t| t == now)).then_some(entry)
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
        let mut lines: Vec<String> = self.entries.values().map(|p| p.to_string()).collect();
        lines.sort();
        let mut text = String::new();
        for line in lines {
            text.push_str(&line);
            text.push('\n');
        }
        text
    }
}

/// The runtime solver's try at `pos` (fresh table, [`RUNTIME`]'s budget,
/// the game's earlier positions `history` counting for the cycle rule):
/// the margin and every best move, or `None` if the budget or `stop` ran
/// out first.
pub fn runtime_solve<R: Rules>(
    history: &[Position<R>],
    pos: &Position<R>,
    budget: SolverBudget,
    stop: &dyn Fn(&Progress) -> bool,
) -> Option<(i32, Vec<Move>)> {
    let mut solver = Solver::try_new(&NoTables, budget.hash_mb).ok()?;
    let s = solver.try_solve(history, pos, budget.nodes, stop)?;
    (!s.best.is_empty()).then_some((s.margin, s.best))
}

/// What [`build`] has done so far.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct BuildProgress {
    /// Positions of the engine's to look at, seen so far.
    pub visited: u64,
    /// Of them, proven by the runtime solver (leaves).
    pub leaves: u64,
    /// Entries in the book.
    pub entries: u64,
    /// Of them, proven in this run (the rest were in the book already).
    pub proven: u64,
    /// Positions the full proofs visited.
    pub proof_nodes: u64,
}

/// What a build has learnt besides the book: the positions (by key) the
/// runtime solver proved, so that a resumed build need not prove them
/// again. Only a cache: a position missing from it is checked again.
pub type Leaves = std::collections::HashSet<u128>;

/// Completes `book` for the game `R` from its start: every position the
/// engine can meet, playing South or North (South first), before the
/// runtime solver (`budget`) proves it. Entries already in `book` are
/// trusted, and so are the `leaves` already known (so a build goes on where
/// an interrupted one stopped); new entries are proven with `solver` (its
/// table is kept from proof to proof). `on_entry` is called after each new
/// entry (to save the book), `on_leaf` with each new leaf's key; `stop` ends
/// the build early (`false` is returned, the book holding what was proven).
pub fn build<R: Rules>(
    book: &mut Book,
    leaves: &mut Leaves,
    solver: &mut Solver<'_, R, NoTables>,
    budget: SolverBudget,
    mut on_entry: impl FnMut(&Book, &BuildProgress),
    mut on_leaf: impl FnMut(u128),
    stop: &dyn Fn() -> bool,
) -> bool {
    let start = Position::<R>::start();
    let mut progress = BuildProgress::default();
    let mut seen: std::collections::HashSet<(u128, bool)> = Default::default();
    // Depth first (the positions of one line are near each other in the
    // solver's table), the engine as South first.
    let mut work: Vec<(Position<R>, bool)> = vec![(start, true), (start, false)];
    while let Some((pos, engine_is_north)) = work.pop() {
        if pos.status() != Status::Ongoing || !seen.insert((pos.key(), engine_is_north)) {
            continue;
        }
        let engine_to_move = (pos.side_to_move() == crate::Side::North) == engine_is_north;
        if !engine_to_move {
            for &mv in pos.legal_moves().as_slice() {
                work.push((pos.play_unchecked(mv), engine_is_north));
            }
            continue;
        }
        if stop() {
            return false;
        }
        progress.visited += 1;
        let any: AnyPosition = pos.into();
        let best = match book.get(&any) {
            Some(entry) => entry.best[0],
            None => {
                if leaves.contains(&pos.key()) {
                    progress.leaves += 1;
                    continue;
                }
                if runtime_solve(&[], &pos, budget, &|_| stop()).is_some() {
                    progress.leaves += 1;
                    leaves.insert(pos.key());
                    on_leaf(pos.key());
                    continue;
                }
                // The runtime solver may have given up because of `stop`.
                if stop() {
                    return false;
                }
                let before = solver.nodes();
                let Some(s) = solver.try_solve(&[], &pos, u64::MAX, &|_: &Progress| stop()) else {
                    return false;
                };
                progress.proof_nodes += solver.nodes() - before;
                progress.proven += 1;
                let best = s.best[0];
                book.insert(Puzzle {
                    position: any,
                    margin: s.margin,
                    best: s.best,
                });
                progress.entries = book.len() as u64;
                on_entry(book, &progress);
                best
            }
        };
        progress.entries = book.len() as u64;
        work.push((pos.play_unchecked(best), engine_is_north));
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shipped_books_parse_and_are_not_empty() {
        for game in GAMES {
            let text = match game {
                GameId::Bosh => include_str!("../../positions/book/bosh.txt"),
                _ => unreachable!("a game with a book"),
            };
            let book = Book::parse(text, game).expect("the shipped book parses");
            assert!(!book.is_empty(), "{game}");
            assert_eq!(Book::shipped(game).map(Book::len), Some(book.len()));
            // The start is in it: no runtime solver proves it.
            assert!(book.get(&AnyPosition::start(game)).is_some(), "{game}");
        }
        assert!(Book::shipped(GameId::Bohnenspiel).is_none());
    }

    #[test]
    fn bad_books_are_refused_with_their_line() {
        let bosh = "bosh 4,4,4,4,4/4,4,4,4,4 S 0-0";
        let cases = [
            (
                format!("{bosh} | margin 6 | best 2,5\n{bosh} | margin 6 | best 2"),
                2,
            ),
            (format!("# c\n{bosh} | margin 6 | best 9"), 2),
            (format!("{bosh} | margin 6 | best "), 1),
            (
                "djenon-abe 4,4,4,4,4,4/4,4,4,4,4,4 S 0-0 | margin -2 | best 2".to_string(),
                1,
            ),
            (
                "bosh 0,0,0,0,0/0,0,0,0,4 S 20-16 | margin -4 | best 1".to_string(),
                1,
            ),
            (format!("{bosh} | margin x | best 2"), 1),
        ];
        for (text, line) in cases {
            let err = Book::parse(&text, GameId::Bosh).expect_err(&text);
            assert_eq!(err.line, line, "{text}: {err}");
        }
        let ok = Book::parse(
            &format!("{bosh} | margin 6 | best 2,5 # the start"),
            GameId::Bosh,
        )
        .expect("parses");
        assert_eq!(ok.len(), 1);
        assert_eq!(
            Book::parse(&ok.to_text(), GameId::Bosh).unwrap().to_text(),
            ok.to_text()
        );
    }

    #[test]
    fn lookup_refuses_a_position_whose_tallies_were_seen() {
        let mut book = Book::new();
        let pos: AnyPosition = "bosh 4,4,4,4,4/4,4,4,4,4 S 0-0".parse().unwrap();
        book.insert(Puzzle {
            position: pos,
            margin: 6,
            best: vec![Move::from_pit(2)],
        });
        assert!(book.lookup(&pos, std::iter::empty()).is_some());
        assert!(book.lookup(&pos, [[3, 1]].into_iter()).is_some());
        assert!(book.lookup(&pos, [[3, 1], [0, 0]].into_iter()).is_none());
    }

    #[test]
    fn a_build_stopped_and_resumed_gives_the_same_book() {
        // A tiny budget makes a real book quickly: Bohnenspiel(6,1)-like
        // play is not a start; use Bosh with a budget that leaves the
        // first plies to the book.
        let budget = SolverBudget {
            nodes: 20_000,
            hash_mb: 1,
        };
        let build_all = |stop_after: Option<u64>| {
            let mut book = Book::new();
            let mut solver = Solver::new(&NoTables, 8);
            let count = std::cell::Cell::new(0u64);
            let stop = || {
                count.set(count.get() + 1);
                stop_after.is_some_and(|n| count.get() > n)
            };
            let mut leaves = Leaves::new();
            let done = build::<crate::Bosh>(
                &mut book,
                &mut leaves,
                &mut solver,
                budget,
                |_, _| {},
                |_| {},
                &stop,
            );
            (book, leaves, done)
        };
        let (whole, all_leaves, done) = build_all(None);
        assert!(done);
        assert!(whole.len() >= 3, "{} entries", whole.len());
        assert!(!all_leaves.is_empty());
        let (part, mut leaves, done) = build_all(Some(40));
        assert!(!done);
        assert!(part.len() < whole.len());
        // Resumed with what the first run learnt: the same book, and no
        // known leaf proven twice.
        let mut resumed = part;
        let mut solver = Solver::new(&NoTables, 8);
        let known = leaves.clone();
        let mut again = 0;
        assert!(build::<crate::Bosh>(
            &mut resumed,
            &mut leaves,
            &mut solver,
            budget,
            |_, _| {},
            |key| again += known.contains(&key) as u32,
            &|| false
        ));
        assert_eq!(again, 0);
        assert_eq!(leaves, all_leaves);
        assert_eq!(resumed.to_text(), whole.to_text());
    }
}
