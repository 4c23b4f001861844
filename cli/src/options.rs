//! Option groups shared by several subcommands (clap `flatten`).

use std::path::{Path, PathBuf};

use mancala_engine::tablebase::{self, TableSet};
use mancala_engine::GameId;
use mancala_eval::Evaluator;

use mancala_engine::tt::TranspositionTable;
use mancala_tools::limits;

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
    /// The evaluation: a weights file (JSON, as
    /// eval/weights/default.json: linear weights for every game) or a
    /// network file (`tune --model network`: its game's network)
    /// [default: the shipped networks, linear weights where none].
    #[arg(long, value_name = "FILE")]
    pub weights: Option<PathBuf>,
}

impl EngineArgs {
    /// Checks `--threads` and `--hash` against this machine
    /// ([`mancala_tools::limits`]).
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

/// The evaluation of `--weights FILE` ([`Evaluator::load`]), or the
/// shipped one; a file that cannot be read is bad input.
pub fn evaluator(weights: Option<&Path>) -> anyhow::Result<Evaluator> {
    match weights {
        Some(p) => Evaluator::load(p).map_err(|e| bad(format!("--weights: {e}"))),
        None => Ok(Evaluator::default()),
    }
}

pub use mancala_tools::tables::games_of;

/// The table directory: `dir` (`--dir`), else `$MANCALA_TB_DIR`, else
/// `./tablebases` when there is one, else the user's own
/// ([`user_table_dir`]), else `./tablebases`.
pub fn table_dir(dir: Option<&Path>) -> PathBuf {
    if let Some(d) = dir {
        return d.to_path_buf();
    }
    if let Some(d) = std::env::var_os(tablebase::DIR_VAR).filter(|d| !d.is_empty()) {
        return PathBuf::from(d);
    }
    let here = PathBuf::from(tablebase::DEFAULT_DIR);
    if here.is_dir() {
        return here;
    }
    user_table_dir().unwrap_or(here)
}

/// The user-wide home of the tables: `tablebases` in the platform's data
/// directory for mancala (`~/.local/share/mancala/tablebases` on Linux,
/// or under `$XDG_DATA_HOME`), if the system names one.
pub fn user_table_dir() -> Option<PathBuf> {
    directories::ProjectDirs::from("", "", "mancala").map(|p| p.data_dir().join("tablebases"))
}

/// A note for each game of `games` that has tables but finds none in
/// `dir`, naming the command that builds them.
pub fn missing_tables(dir: &Path, games: &[GameId], tables: &TableSet) -> Vec<String> {
    games
        .iter()
        .filter(|&&g| mancala_engine::tablebase::has_tables(g) && !tables.has(g))
        .map(|game| {
            format!(
                "mancala: note: no endgame tables for {game} in {}: the search alone decides \
                 (`mancala tablebase build --game {game} --max-seeds 20` makes them; \
                 --no-tables says this is meant)",
                dir.display()
            )
        })
        .collect()
}

/// `--dir`, `--no-tables`: where the endgame tables are (`analyze`,
/// `engine`, `solve`).
#[derive(clap::Args, Debug, Clone)]
pub struct TableArgs {
    /// Table directory (default: $MANCALA_TB_DIR, else ./tablebases if
    /// there is one, else ~/.local/share/mancala/tablebases or the
    /// platform's data directory).
    #[arg(long, value_name = "DIR")]
    pub dir: Option<PathBuf>,
    /// Do not read the endgame tables (search alone).
    #[arg(long)]
    pub no_tables: bool,
}

impl TableArgs {
    /// Opens the tables of `games` (none with `--no-tables`), warning on
    /// stderr, one line each, about every file refused, and saying once
    /// when a game that has tables finds none, and how to build them.
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
        let dir = table_dir(self.dir.as_deref());
        let (tables, refused) = TableSet::open_games(&dir, games);
        for e in refused {
            eprintln!("mancala: warning: {e}; going on without it");
        }
        // For a person at a terminal: scripts read stderr for errors only.
        if std::io::IsTerminal::is_terminal(&std::io::stderr()) {
            for note in missing_tables(&dir, games, &tables) {
                eprintln!("{note}");
            }
        }
        tables
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The note names each game with tables that has none, and no other.
    #[test]
    fn missing_tables_are_named_with_the_command_that_builds_them() {
        let dir = Path::new("/nonexistent-mancala-tables");
        let (none, refused) = TableSet::open(dir);
        assert!(refused.is_empty());
        let notes = missing_tables(dir, &GameId::ALL, &none);
        assert_eq!(notes.len(), 6, "{notes:?}");
        for game in [
            "bohnenspiel",
            "al-manqala",
            "djenon-abe",
            "kalah",
            "kalah-empty",
            "oware",
        ] {
            assert!(
                notes
                    .iter()
                    .any(|n| n.contains(&format!(
                        "no endgame tables for {game} in /nonexistent-mancala-tables"
                    )) && n.contains(&format!("mancala tablebase build --game {game} "))),
                "{game}: {notes:?}"
            );
        }
        assert!(missing_tables(dir, &[GameId::Bosh], &none).is_empty());
    }

    /// `--dir` wins, then `$MANCALA_TB_DIR`.
    #[test]
    fn the_table_directory_follows_the_rule() {
        assert_eq!(table_dir(Some(Path::new("/x"))), PathBuf::from("/x"));
        assert!(user_table_dir().is_some_and(|d| d.ends_with("mancala/tablebases")));
    }
}
