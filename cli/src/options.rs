//! Option groups shared by several subcommands (clap `flatten`).

use std::path::{Path, PathBuf};

use mancala_engine::tablebase::{self, TableSet};
use mancala_engine::GameId;
use mancala_eval::{Evaluator, WeightSet};

use mancala_cli::limits;
use mancala_engine::search::tt::TranspositionTable;

use crate::input::{bad, OrBad};

/// `--threads`, `--hash`, `--weights`: the built-in engine's resources
/// (`analyze`, `engine`).
#[derive(clap::Args, Debug, Clone)]
pub struct EngineArgs {
    /// Search threads (Lazy SMP: every thread searches from the root,
    /// sharing the table) [default: every core for `analyze` and `review`;
    /// 1 for `engine`]. `--threads 1` repeats a search exactly.
    #[arg(long)]
    pub threads: Option<u32>,
    /// Transposition table size in MiB.
    #[arg(long, value_name = "MB", default_value_t = 64)]
    pub hash: u32,
    /// Evaluation weights (JSON, as eval/weights/default.json).
    #[arg(long, value_name = "FILE")]
    pub weights: Option<PathBuf>,
}

impl EngineArgs {
    /// Checks `--threads` and `--hash` against this machine
    /// ([`mancala_cli::limits`]).
    pub fn check(&self) -> anyhow::Result<()> {
        limits::threads("--threads", self.threads.unwrap_or(1) as u64).or_bad()?;
        limits::hash_mb("--hash", self.hash as u64).or_bad()?;
        Ok(())
    }

    /// `--threads`, else one (the engine protocol's default, as UCI
    /// engines start with one thread).
    pub fn threads_or_one(&self) -> usize {
        self.threads.unwrap_or(1) as usize
    }

    /// `--threads`, else every core of this machine.
    pub fn threads_or_cores(&self) -> usize {
        self.threads
            .map_or(limits::Machine::this().cores as usize, |t| t as usize)
    }

    /// The transposition table `--hash` asks for, or bad input if it
    /// cannot be allocated.
    pub fn table(&self) -> anyhow::Result<TranspositionTable> {
        TranspositionTable::try_new(self.hash as usize).or_bad()
    }

    /// Loads `--weights`, or the shipped default.
    pub fn evaluator(&self) -> anyhow::Result<Evaluator> {
        evaluator(self.weights.as_deref())
    }
}

/// The evaluation with the weights of `--weights FILE`, or the shipped
/// default; a file that cannot be read is bad input.
pub fn evaluator(weights: Option<&Path>) -> anyhow::Result<Evaluator> {
    let weights = match weights {
        Some(p) => WeightSet::load(p).map_err(|e| bad(format!("--weights: {e}")))?,
        None => WeightSet::default(),
    };
    Ok(Evaluator::new(weights))
}

/// The games of `positions`, each once, in order.
pub fn games_of(positions: impl IntoIterator<Item = mancala_engine::AnyPosition>) -> Vec<GameId> {
    let mut games: Vec<GameId> = positions.into_iter().map(|p| p.game()).collect();
    games.sort();
    games.dedup();
    games
}

/// `--dir`, `--no-tables`: where the endgame tables are (`analyze`,
/// `engine`, `solve`).
#[derive(clap::Args, Debug, Clone)]
pub struct TableArgs {
    /// Table directory (default: $MANCALA_TB_DIR, else ./tablebases).
    #[arg(long, value_name = "DIR")]
    pub dir: Option<PathBuf>,
    /// Do not read the endgame tables (search alone).
    #[arg(long)]
    pub no_tables: bool,
}

impl TableArgs {
    /// Opens the tables of `games` (none with `--no-tables`), warning on
    /// stderr, one line each, about every file refused.
    pub fn open(&self, games: &[GameId]) -> TableSet {
        if self.no_tables {
            return TableSet::default();
        }
        if let Some(d) = self.dir.as_deref().filter(|d| !d.is_dir()) {
            eprintln!(
                "mancala: warning: --dir {}: not a directory; going on without tables",
                d.display()
            );
            return TableSet::default();
        }
        let dir = self
            .dir
            .as_deref()
            .map_or_else(tablebase::default_dir, Path::to_path_buf);
        let (tables, refused) = TableSet::open_games(&dir, games);
        for e in refused {
            eprintln!("mancala: warning: {e}; going on without it");
        }
        tables
    }
}
