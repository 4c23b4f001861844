//! The built-in engine player: the engine's search with the evaluation of
//! `mancala-eval`, under the spec's limits. One thread is deterministic: the
//! table is cleared for every game, so a game depends only on its opening
//! and the moves.

use std::path::Path;

use mancala_engine::search::{self, tt::TranspositionTable, Search, SearchOptions};
use mancala_engine::{with_position, Move, Position, Rules};
use mancala_eval::{Evaluator, WeightSet};

use super::player::{BuildError, Fault, Limits, Player, Reply, Request};

/// Transposition-table size when the spec gives none.
pub const DEFAULT_HASH_MB: u32 = 16;

/// The engine's search as a player.
pub struct EnginePlayer {
    eval: Evaluator,
    tt: TranspositionTable,
    options: SearchOptions,
}

/// Builds the built-in engine of player `name` (loading its weights file,
/// if any).
pub fn build(
    name: &str,
    threads: u32,
    hash: Option<u32>,
    weights: Option<&str>,
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
    }))
}

impl EnginePlayer {
    /// An engine with this evaluation, table size (MB) and options.
    pub fn new(eval: Evaluator, hash_mb: usize, options: SearchOptions) -> Self {
        EnginePlayer {
            eval,
            tt: TranspositionTable::new(hash_mb),
            options,
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
        let mut history = Vec::with_capacity(moves.len());
        let mut pos = start;
        for &mv in moves {
            history.push(pos);
            pos = pos.play_unchecked(mv);
        }
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
        let report = with_position!(request.start, p => self.think(p, request.moves, |_| {}));
        let mv = report
            .best
            .expect("the search gives a move in a position that is not over");
        Ok(Reply {
            mv,
            score: Some(search::seeds(report.score)),
            exact: report.exact,
        })
    }
}
