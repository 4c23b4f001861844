//! `mancala tablebase`: build, inspect and verify the endgame tables, and
//! generate the puzzle file from them.

use std::path::{Path, PathBuf};

use clap::Subcommand;
use mancala_engine::tablebase::MAX_TABLE_SEEDS;
use mancala_engine::{with_table_rules, GameId};

use mancala_tools::limits;
use mancala_tools::tables::{accuracy_set, build, info, puzzles, verify};

use crate::input::{bad, OrBad};

/// The subcommands of `mancala tablebase`.
#[derive(Subcommand, Debug)]
pub enum Command {
    /// Build the tables of a game up to a number of seeds on the board
    /// (resumes: layers already on disk and valid are kept).
    Build {
        /// bohnenspiel, al-manqala, djenon-abe, kalah, kalah-empty or oware.
        #[arg(long)]
        game: GameId,
        /// Largest number of seeds on the board (even layers 0, 2, … up to it; every layer in Kalah).
        #[arg(long, value_name = "K")]
        max_seeds: u32,
        /// Table directory (default: $MANCALA_TB_DIR, else ./tablebases if
        /// there is one, else ~/.local/share/mancala/tablebases).
        #[arg(long, value_name = "DIR")]
        dir: Option<PathBuf>,
        /// Worker threads (default: every core; with --mpi, per rank).
        #[arg(long, value_name = "T")]
        threads: Option<usize>,
        /// Build as one rank of an MPI job, `mpirun -np N mancala tablebase
        /// build --mpi …`: each rank owns a share of every layer, and --dir
        /// must be one directory shared by all (docs/tablebases.md). Needs a
        /// binary built with `--features mpi`.
        #[arg(long)]
        mpi: bool,
    },
    /// List the table files found and check each one.
    Info {
        /// Only this game.
        #[arg(long)]
        game: Option<GameId>,
        /// Table directory (default: $MANCALA_TB_DIR, else ./tablebases if
        /// there is one, else ~/.local/share/mancala/tablebases).
        #[arg(long, value_name = "DIR")]
        dir: Option<PathBuf>,
    },
    /// Check random entries of every layer against an exact search that may
    /// use the smaller layers but not the one checked.
    Verify {
        /// bohnenspiel, al-manqala, djenon-abe, kalah, kalah-empty or oware.
        #[arg(long)]
        game: GameId,
        /// Table directory (default: $MANCALA_TB_DIR, else ./tablebases if
        /// there is one, else ~/.local/share/mancala/tablebases).
        #[arg(long, value_name = "DIR")]
        dir: Option<PathBuf>,
        /// Entries checked in each layer.
        #[arg(long, default_value_t = 100)]
        samples: u32,
        /// Seed of the random choice.
        #[arg(long, default_value_t = 1)]
        seed: u64,
    },
    /// Write Bohnenspiel endgame puzzles proven by the tables: one position
    /// a line with its margin and its only best move.
    Puzzles {
        /// How many.
        #[arg(long, default_value_t = 120)]
        count: u32,
        /// Fewest seeds on the board.
        #[arg(long, default_value_t = 8)]
        min_seeds: u32,
        /// Most seeds on the board (default: the largest complete layer).
        #[arg(long)]
        max_seeds: Option<u32>,
        /// Table directory (default: $MANCALA_TB_DIR, else ./tablebases if
        /// there is one, else ~/.local/share/mancala/tablebases).
        #[arg(long, value_name = "DIR")]
        dir: Option<PathBuf>,
        /// Seed of the random search for candidates.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Output file (default: stdout).
        #[arg(long, value_name = "FILE")]
        out: Option<PathBuf>,
    },
    /// Write an accuracy set: positions taken from the games of record
    /// files, each with the exact value of every legal move, proven by the
    /// solver with the tables (docs/strength.md, "Accuracy").
    AccuracySet {
        /// Record files (docs/records.md) to take the positions from.
        #[arg(long = "records", value_name = "FILE", required = true, num_args = 1..)]
        records: Vec<PathBuf>,
        /// Fewest seeds on the board.
        #[arg(long, default_value_t = 20)]
        min_seeds: u32,
        /// Most seeds on the board.
        #[arg(long, default_value_t = 40)]
        max_seeds: u32,
        /// Positions from each game.
        #[arg(long, default_value_t = 2)]
        per_game: usize,
        /// Give up on a position a move of which takes more positions than
        /// this to prove (it is left out, and counted).
        #[arg(long, default_value_t = 50_000_000)]
        max_nodes: u64,
        /// Table directory (default: $MANCALA_TB_DIR, else ./tablebases if
        /// there is one, else ~/.local/share/mancala/tablebases).
        #[arg(long, value_name = "DIR")]
        dir: Option<PathBuf>,
        /// Output file (written atomically).
        #[arg(long, value_name = "FILE")]
        out: PathBuf,
    },
}

fn table_game(game: GameId) -> anyhow::Result<GameId> {
    if !mancala_engine::tablebase::has_tables(game) {
        return Err(bad(format!(
            "no tablebases for {game}: its board values are not a function of the board \
             (tables exist for bohnenspiel, al-manqala, djenon-abe, kalah, kalah-empty, oware)"
        )));
    }
    Ok(game)
}

fn dir_or_default(dir: Option<PathBuf>) -> PathBuf {
    crate::options::table_dir(dir.as_deref())
}

/// `tablebase build`: checks the arguments, then builds on this machine
/// or as one rank of an MPI job (`mpi`).
fn build_command(
    game: GameId,
    max_seeds: u32,
    dir: Option<PathBuf>,
    threads: Option<usize>,
    mpi: bool,
) -> anyhow::Result<()> {
    let game = table_game(game)?;
    let most = MAX_TABLE_SEEDS.min(game.total_seeds() as u32);
    if max_seeds > most {
        return Err(bad(format!(
            "--max-seeds must be at most {most} for {game}"
        )));
    }
    let threads = threads
        .map(|t| limits::threads("--threads", t as u64))
        .transpose()
        .or_bad()?;
    if let Some(t) = threads {
        rayon::ThreadPoolBuilder::new()
            .num_threads(t)
            .build_global()
            .map_err(|e| anyhow::anyhow!("thread pool: {e}"))?;
    }
    let dir = dir_or_default(dir);
    if dir.exists() && !dir.is_dir() {
        return Err(bad(format!("--dir {}: not a directory", dir.display())));
    }
    if mpi {
        return build_mpi(game, max_seeds, &dir);
    }
    // A signal ends the build at once: the finished layers are
    // files, written atomically, and the next build resumes there.
    mancala_tools::interrupt::install_ending(
        "the layers finished are kept; the same command resumes the build",
    )?;
    with_table_rules!(game, R => build::<R>(&dir, max_seeds, None), _ => unreachable!("table_game"))
}

pub fn run(command: Command) -> anyhow::Result<()> {
    match command {
        Command::Build {
            game,
            max_seeds,
            dir,
            threads,
            mpi,
        } => build_command(game, max_seeds, dir, threads, mpi),
        Command::Info { game, dir } => {
            let games = match game {
                Some(g) => vec![table_game(g)?],
                None => GameId::ALL
                    .into_iter()
                    .filter(|&g| mancala_engine::tablebase::has_tables(g))
                    .collect(),
            };
            let dir = dir_or_default(dir);
            println!("directory {}", dir.display());
            for game in games {
                with_table_rules!(game, R => info::<R>(&dir), _ => unreachable!("table_game"))
            }
            Ok(())
        }
        Command::Verify {
            game,
            dir,
            samples,
            seed,
        } => {
            let game = table_game(game)?;
            let dir = dir_or_default(dir);
            with_table_rules!(game, R => verify::<R>(&dir, samples, seed), _ => unreachable!("table_game"))
        }
        Command::AccuracySet {
            records,
            min_seeds,
            max_seeds,
            per_game,
            max_nodes,
            dir,
            out,
        } => {
            let mut games = Vec::new();
            for path in &records {
                games.extend(crate::input::read_records("--records ", path)?);
            }
            let dir = dir_or_default(dir);
            accuracy_set(
                &games, &records, min_seeds, max_seeds, per_game, max_nodes, &dir, &out,
            )
        }
        Command::Puzzles {
            count,
            min_seeds,
            max_seeds,
            dir,
            seed,
            out,
        } => puzzles(count, min_seeds, max_seeds, &dir_or_default(dir), seed, out),
    }
}

/// `tablebase build --mpi`: this process is one rank of an MPI job.
#[cfg(feature = "mpi")]
fn build_mpi(game: GameId, max_seeds: u32, dir: &Path) -> anyhow::Result<()> {
    crate::cluster::with_world(
        |world| with_table_rules!(game, R => build::<R>(dir, max_seeds, Some(world)), _ => unreachable!("table_game")),
    )
}

/// A binary built without MPI refuses `--mpi` (before it makes the
/// directory).
#[cfg(not(feature = "mpi"))]
fn build_mpi(_: GameId, _: u32, _: &Path) -> anyhow::Result<()> {
    Err(bad(
        "--mpi: this mancala was built without MPI; build it with \
         `cargo build --release --features mpi` (docs/tablebases.md, \"On a cluster\")",
    ))
}
