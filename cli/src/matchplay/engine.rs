//! The built-in engine player: the engine's search with the evaluation of
//! `mancala-eval`, under the spec's limits. One thread is deterministic: the
//! table is cleared for every game, so a game depends only on its opening
//! and the moves.
//!
//! In a solved game (Bosh, Djenon-abe: [`mancala_engine::book`]) the player
//! first plays a proven move: the book's, or else the runtime solver's if
//! it proves one within its node budget (whatever the move's time: a
//! proof takes at most about a tenth of a second); only then does it
//! search, in the time left. A book built with endgame tables (Djenon-abe's)
//! is played with the same tables, built in memory before the first move.

use std::path::Path;
use std::time::Instant;

use mancala_engine::book::{self, Book, Keeps};
use mancala_engine::search::{self, Search, SearchOptions};
use mancala_engine::tt::TranspositionTable;
use mancala_engine::{with_position, AnyPosition, Move, Position, Rules};
use mancala_eval::{Evaluator, WeightSet};

use super::player::{BuildError, Fault, Limits, Player, Reply, Request};

/// Transposition-table size when the spec gives none.
pub const DEFAULT_HASH_MB: u32 = 16;

/// The engine's search as a player.
pub struct EnginePlayer {
    eval: Evaluator,
    tt: TranspositionTable,
    options: SearchOptions,
    /// Play proven moves first in solved games.
    book: bool,
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
    let weights = match weights {
        Some(path) => WeightSet::load(Path::new(path)).map_err(|source| BuildError::Weights {
            player: name.to_string(),
            source,
        })?,
        None => WeightSet::default(),
    };
    let hash_mb = hash.unwrap_or(DEFAULT_HASH_MB) as usize;
    let tt = TranspositionTable::try_new(hash_mb).map_err(|source| BuildError::Table {
        player: name.to_string(),
        source,
    })?;
    Ok(Box::new(EnginePlayer {
        eval: Evaluator::new(weights),
        tt,
        options: SearchOptions {
            limits,
            threads: threads as usize,
            score_all_moves: false,
        },
        book,
    }))
}

/// The position reached from `start` by `moves` (trusted legal), and the
/// positions before it, oldest first.
fn reached<R: Rules>(start: Position<R>, moves: &[Move]) -> (Position<R>, Vec<Position<R>>) {
    let mut history = Vec::with_capacity(moves.len());
    let mut pos = start;
    for &mv in moves {
        history.push(pos);
        pos = pos.play_unchecked(mv);
    }
    (pos, history)
}

/// Builds the tables the book of `R` is played with, if they are not yet.
fn prepare_book<R: Rules>(_: &Position<R>) {
    if let Some(book) = Book::shipped(R::ID) {
        book::tables_to::<R>(book.tables());
    }
}

/// A proven move of the position reached from `start` by `moves` in a
/// solved game: the book's move, or else the runtime solver's
/// ([`book::RUNTIME`], until `give_up` says stop: the exact value if it
/// proves it in its budget, else, in a game from the start, a move that
/// keeps the start's value), or else, in a game from the start, the book's
/// move where the lookup refused it for the game's history. What it keeps
/// with it.
pub fn proven_move<R: Rules>(
    start: Position<R>,
    moves: &[Move],
    give_up: &(dyn Fn() -> bool + Sync),
) -> Option<(Move, Keeps)> {
    let book = Book::shipped(R::ID)?;
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
        .map(|v| book::target(&pos, v));
    // A book built with the game's tables is played with them.
    let tables = book::tables_to::<R>(book.tables());
    let answer = book::runtime_move(&history, &pos, target, book::RUNTIME, &tables, &|_| {
        give_up()
    });
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

impl EnginePlayer {
    /// An engine with this evaluation, table size (MB) and options.
    pub fn new(eval: Evaluator, hash_mb: usize, options: SearchOptions) -> Self {
        EnginePlayer {
            eval,
            tt: TranspositionTable::new(hash_mb),
            options,
            book: false,
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
        let (pos, history) = reached(start, moves);
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

impl Player for EnginePlayer {
    fn new_game(&mut self, _seed: u64) -> Result<(), Fault> {
        self.clear();
        Ok(())
    }

    fn choose(&mut self, request: &Request) -> Result<Reply, Fault> {
        if self.book {
            // The tables a book is played with are built once a run (a
            // third of a second for Djenon-abe), like a file loaded before
            // the clock starts.
            with_position!(request.start, p => prepare_book(&p));
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
            if let Some((mv, keeps)) =
                with_position!(request.start, p => proven_move(p, request.moves, &give_up))
            {
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
