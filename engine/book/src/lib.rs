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
//! reads them, built in memory ([`PlayTables`]), and the walk stops where
//! they hold the position.
//!
//! Its files: this one, the book and its file format; `play.rs`, how the
//! engine plays from a book ([`proven_move`]); `build.rs`, how a book is
//! built and checked ([`build()`], [`check`]). Djenon-abe's book is built so, with 12 seeds:
//! without tables its walk is out of reach (docs/solved.md).
//!
//! The book is closed under play: [`build()`] walks every position where the
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

mod build;
mod play;

use std::collections::HashMap;
use std::fmt;
use std::sync::OnceLock;

pub use build::{
    build, check, leaf_line, leaves_header, prove_start, read_leaves, BuildEnd, BuildProgress,
    CheckEnd, Leaves, Walk,
};
pub use play::{
    move_value, proven_move, reached, runtime_move, target, PlayTables, Runtime, RUNTIME,
};

use mancala_files::{entries, field, position, FileError, LineError};
use mancala_rules::AnyPosition;
use mancala_rules::Move;
use mancala_rules::Side;
use mancala_rules::{GameId, Status};

/// The largest seed count of a book's tables ([`Book::tables`]): they are
/// built in memory ([`PlayTables`]), which takes a third
/// of a second to 12 seeds (1.8 million positions) and half a minute to
/// 20 (140 million).
pub const MAX_BOOK_TABLES: u32 = 20;

/// Whether a book may be built with the tables to `k` seeds: an even `k`
/// from 2 to [`MAX_BOOK_TABLES`].
pub fn valid_table_seeds(k: u32) -> bool {
    k.is_multiple_of(2) && (2..=MAX_BOOK_TABLES).contains(&k)
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
            GameId::Bosh => (&BOSH, include_str!("../../../positions/book/bosh.txt")),
            GameId::DjenonAbe => (
                &DJENON_ABE,
                include_str!("../../../positions/book/djenon-abe.txt"),
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

#[cfg(test)]
mod tests {
    use super::play::runtime_move_in;
    use super::*;
    use mancala_rules::Position;
    use mancala_solve::tt::TranspositionTable;
    use mancala_solve::Solver;
    use mancala_tables::{Below, BoardValues, NoTables};

    fn shipped_text(game: GameId) -> &'static str {
        match game {
            GameId::Bosh => include_str!("../../../positions/book/bosh.txt"),
            GameId::DjenonAbe => include_str!("../../../positions/book/djenon-abe.txt"),
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
        let tables = PlayTables::build::<mancala_rules::DjenonAbe>(Some(k));
        let tables = tables.below::<mancala_rules::DjenonAbe>();
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
        let tables = PlayTables::for_book::<mancala_rules::DjenonAbe>(book);
        let walk = |engine: Side| {
            let answered = std::cell::Cell::new(0u64);
            let end = check::<mancala_rules::DjenonAbe>(
                book,
                &tables,
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
            let mut pos = Position::<mancala_rules::DjenonAbe>::start();
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
        let (tables, _) = mancala_tables::build_in_memory::<mancala_rules::DjenonAbe>(8);
        let seen = Below {
            tables: &tables as &dyn BoardValues<mancala_rules::DjenonAbe>,
            limit: 7,
        };
        assert_eq!(
            BoardValues::<mancala_rules::DjenonAbe>::complete_to(&seen),
            Some(6)
        );
        let budget = Runtime {
            exact_nodes: 50,
            keep_nodes: 0,
            hash_mb: 1,
        };
        let mut rng = 0x2545_f491_4f6c_dd1du64;
        let mut answered = 0;
        for game in 0..400 {
            // Random play from the start down to at most 8 seeds.
            let mut pos = Position::<mancala_rules::DjenonAbe>::start();
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
                tables: &tables as &dyn BoardValues<mancala_rules::DjenonAbe>,
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
        solver: &mut Solver<'_, mancala_rules::Bosh, NoTables>,
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
            let tables = PlayTables::build::<mancala_rules::Bosh>(None);
            let end = build::<mancala_rules::Bosh, _>(
                book,
                leaves,
                solver,
                &tables,
                walk,
                |_, _| {},
                |_, _, _| {},
                stop,
            );
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
        let Some(v) = prove_start::<mancala_rules::Bosh, _>(book, &mut solver, &stop) else {
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
            let tables = PlayTables::build::<mancala_rules::Bosh>(None);
            match check::<mancala_rules::Bosh>(book, &tables, walk, |_, _, _| {}, &|| false) {
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
        let end = build::<mancala_rules::Bosh, _>(
            &mut book,
            &mut Leaves::new(),
            &mut solver,
            &PlayTables::build::<mancala_rules::Bosh>(None),
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
