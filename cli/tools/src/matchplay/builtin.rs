//! The built-in engine player: the engine's search with the evaluation of
//! `mancala-eval`, under the spec's limits. One thread is deterministic: the
//! table is cleared for every game, so a game depends only on its opening
//! and the moves.
//!
//! In a solved game (Bosh, Djenon-abe: [`mancala_engine::book`]) the player
//! first plays a proven move ([`book::proven_move`]: the book's, or else
//! the runtime solver's if it proves one within its node budget, whatever
//! the move's time: a proof takes at most about a tenth of a second); only
//! then does it search, in the time left. A book built with endgame tables (Djenon-abe's)
//! is played with the same tables, built in memory before the first move.

use std::path::Path;
use std::time::Instant;

use mancala_engine::book::{self, Book, Keeps, PlayTables};
use mancala_engine::search::{self, Search, SearchOptions};
use mancala_engine::tt::TranspositionTable;
use mancala_engine::{with_position, Move, Position, Rules};
use mancala_eval::Evaluator;

use super::player::{BuildError, Fault, Limits, Player, Reply, Request};

/// Transposition-table size when the spec gives none.
pub const DEFAULT_HASH_MB: u32 = 16;

/// The engine's search as a player.
pub struct BuiltinPlayer {
    eval: Evaluator,
    tt: TranspositionTable,
    options: SearchOptions,
    /// Play proven moves first in solved games.
    book: bool,
    /// The tables the book of the game played is played with, once built.
    book_tables: Option<PlayTables>,
}

/// Builds the built-in engine of player `name` (loading its weights file,
/// if any).
pub fn build(
    name: &str,
    threads: u32,
    hash: Option<u32>,
    weights: Option<&str>,
    book: bool,
    limits: Limits,
) -> Result<Box<dyn Player>, BuildError> {
    let eval = match weights {
        Some(path) => Evaluator::load(Path::new(path)).map_err(|source| BuildError::Weights {
            player: name.to_string(),
            source,
        })?,
        None => Evaluator::default(),
    };
    let hash_mb = hash.unwrap_or(DEFAULT_HASH_MB) as usize;
    let tt = TranspositionTable::try_new(hash_mb).map_err(|source| BuildError::Table {
        player: name.to_string(),
        source,
    })?;
    Ok(Box::new(BuiltinPlayer {
        eval,
        tt,
        options: SearchOptions {
            limits,
            threads: threads as usize,
            score_all_moves: false,
        },
        book,
        book_tables: None,
    }))
}

/// The book of `R` and the tables it is played with, built in `tables`
/// if they are not yet (or were another game's); `None` where `R` has no
/// book.
fn prepare_book<'a, R: Rules>(
    _: &Position<R>,
    tables: &'a mut Option<PlayTables>,
) -> Option<(&'static Book, &'a PlayTables)> {
    let book = Book::shipped(R::ID)?;
    if !tables.as_ref().is_some_and(|t| t.are(R::ID, book.tables())) {
        *tables = Some(PlayTables::for_book::<R>(book));
    }
    Some((book, tables.as_ref()?))
}

impl BuiltinPlayer {
    /// An engine with this evaluation, table size (MB) and options.
    pub fn new(eval: Evaluator, hash_mb: usize, options: SearchOptions) -> Self {
        BuiltinPlayer {
            eval,
            tt: TranspositionTable::new(hash_mb),
            options,
            book: false,
            book_tables: None,
        }
    }

    /// Searches the position reached from `start` by `moves` (the earlier
    /// positions count for the cycle rule) and returns the full report.
    pub fn think<R: Rules>(
        &self,
        start: Position<R>,
        moves: &[Move],
        on_iteration: impl FnMut(&search::Report) + Send,
    ) -> search::Report {
        let (pos, history) = book::reached(start, moves);
        Search::new(&pos, &self.eval, &self.tt)
            .history(&history)
            .options(self.options)
            .stop(crate::interrupt::flag())
            .run(on_iteration)
    }

    /// Forgets everything learnt (a new game).
    pub fn clear(&mut self) {
        self.tt.clear();
    }
}

impl Player for BuiltinPlayer {
    fn new_game(&mut self, _seed: u64) -> Result<(), Fault> {
        self.clear();
        Ok(())
    }

    fn choose(&mut self, request: &Request) -> Result<Reply, Fault> {
        if self.book {
            // The tables a book is played with are built once a run (a
            // third of a second for Djenon-abe), like a file loaded before
            // the clock starts.
            with_position!(request.start, p => {
                prepare_book(&p, &mut self.book_tables);
            });
        }
        let started = Instant::now();
        let options = self.options;
        if self.book {
            // The proof runs to its node budget whatever the move's time:
            // the book's guarantee is that the runtime solver answers every
            // position the engine meets within that budget (at most about a
            // tenth of a second: docs/solved.md), and a proven move is worth
            // more than keeping to a shorter clock.
            let give_up = crate::interrupt::requested;
            let tables = &mut self.book_tables;
            if let Some((mv, keeps)) = with_position!(request.start, p => {
                prepare_book(&p, tables).and_then(|(book, tables)| {
                    book::proven_move(book, tables, p, request.moves, &give_up)
                })
            }) {
                return Ok(Reply {
                    mv,
                    score: Some(keeps.margin() as f64),
                    exact: matches!(keeps, Keeps::Exact(_)),
                    proven: true,
                });
            }
            if let Some(t) = options.limits.time {
                self.options.limits.time = Some(t.saturating_sub(started.elapsed()).max(t / 4));
            }
        }
        let report = with_position!(request.start, p => self.think(p, request.moves, |_| {}));
        self.options = options;
        let mv = report
            .best
            .expect("the search gives a move in a position that is not over");
        Ok(Reply {
            mv,
            score: Some(search::seeds(report.score)),
            exact: report.exact,
            proven: false,
        })
    }
}
