//! `mancala tablebase`: build, inspect and verify the endgame tables, and
//! generate the puzzle file from them.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::time::Instant;

use clap::Subcommand;
use indicatif::{ProgressBar, ProgressStyle};
use mancala_engine::solve::Solver;
use mancala_engine::tablebase::{
    self, layer_size, Below, BuildEvent, BuildProgress, LayerOutcome, Tablebase, TablebaseRules,
    MAX_TABLE_SEEDS,
};
use mancala_engine::{AlManqala, Bohnenspiel, DjenonAbe, GameId, Move, Position, Side};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

use crate::input::bad;

/// Arguments of `mancala tablebase`.
#[derive(clap::Args, Debug)]
pub struct Args {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Build the tables of a game up to a number of seeds on the board
    /// (resumes: layers already on disk and valid are kept).
    Build {
        /// bohnenspiel, al-manqala or djenon-abe.
        #[arg(long)]
        game: String,
        /// Largest number of seeds on the board (even layers 0, 2, … up to it).
        #[arg(long, value_name = "K")]
        max_seeds: u32,
        /// Table directory (default: $MANCALA_TB_DIR, else ./tablebases).
        #[arg(long, value_name = "DIR")]
        dir: Option<PathBuf>,
        /// Worker threads (default: every core).
        #[arg(long, value_name = "T")]
        threads: Option<usize>,
    },
    /// List the table files found and check each one.
    Info {
        /// Only this game.
        #[arg(long)]
        game: Option<String>,
        /// Table directory (default: $MANCALA_TB_DIR, else ./tablebases).
        #[arg(long, value_name = "DIR")]
        dir: Option<PathBuf>,
    },
    /// Check random entries of every layer against an exact search that may
    /// use the smaller layers but not the one checked.
    Verify {
        /// bohnenspiel, al-manqala or djenon-abe.
        #[arg(long)]
        game: String,
        /// Table directory (default: $MANCALA_TB_DIR, else ./tablebases).
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
        /// Table directory (default: $MANCALA_TB_DIR, else ./tablebases).
        #[arg(long, value_name = "DIR")]
        dir: Option<PathBuf>,
        /// Seed of the random search for candidates.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Output file (default: stdout).
        #[arg(long, value_name = "FILE")]
        out: Option<PathBuf>,
    },
}

/// The games with tables.
const TABLE_GAMES: [GameId; 3] = [GameId::Bohnenspiel, GameId::AlManqala, GameId::DjenonAbe];

fn table_game(name: &str) -> anyhow::Result<GameId> {
    let game: GameId = name.parse().map_err(|e| bad(format!("{e}")))?;
    if !TABLE_GAMES.contains(&game) {
        return Err(bad(format!(
            "no tablebases for {game}: its board values are not a function of the board \
             (tables exist for bohnenspiel, al-manqala, djenon-abe)"
        )));
    }
    Ok(game)
}

fn dir_or_default(dir: Option<PathBuf>) -> PathBuf {
    dir.unwrap_or_else(tablebase::default_dir)
}

pub fn run(args: Args) -> anyhow::Result<()> {
    match args.command {
        Command::Build {
            game,
            max_seeds,
            dir,
            threads,
        } => {
            let game = table_game(&game)?;
            let most = MAX_TABLE_SEEDS.min(game.total_seeds() as u32);
            if max_seeds > most {
                return Err(bad(format!(
                    "--max-seeds must be at most {most} for {game}"
                )));
            }
            if threads == Some(0) {
                return Err(bad("--threads must be at least 1"));
            }
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
            match game {
                GameId::Bohnenspiel => build::<Bohnenspiel>(&dir, max_seeds),
                GameId::AlManqala => build::<AlManqala>(&dir, max_seeds),
                _ => build::<DjenonAbe>(&dir, max_seeds),
            }
        }
        Command::Info { game, dir } => {
            let games = match game {
                Some(g) => vec![table_game(&g)?],
                None => TABLE_GAMES.to_vec(),
            };
            let dir = dir_or_default(dir);
            println!("directory {}", dir.display());
            for game in games {
                match game {
                    GameId::Bohnenspiel => info::<Bohnenspiel>(&dir),
                    GameId::AlManqala => info::<AlManqala>(&dir),
                    _ => info::<DjenonAbe>(&dir),
                }
            }
            Ok(())
        }
        Command::Verify {
            game,
            dir,
            samples,
            seed,
        } => {
            let game = table_game(&game)?;
            let dir = dir_or_default(dir);
            match game {
                GameId::Bohnenspiel => verify::<Bohnenspiel>(&dir, samples, seed),
                GameId::AlManqala => verify::<AlManqala>(&dir, samples, seed),
                _ => verify::<DjenonAbe>(&dir, samples, seed),
            }
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

/// `tablebase build`: a progress bar over every position of every layer;
/// a layer counts its scan as half its work and the fixed-point iterations
/// as the other half (in proportion to the positions they resolve).
fn build<R: TablebaseRules>(dir: &Path, max_seeds: u32) -> anyhow::Result<()> {
    let total: u64 = (0..=max_seeds)
        .step_by(2)
        .map(|s| 2 * layer_size(R::PITS, s))
        .sum();
    eprintln!(
        "{} tables, even layers 0..={max_seeds}: {} positions, about {:.2} GB of memory at the peak",
        R::ID,
        total / 2,
        tablebase::build_memory::<R>(max_seeds) as f64 / 1e9
    );
    let bar = ProgressBar::new(total);
    bar.set_style(
        ProgressStyle::with_template(
            "{elapsed_precise} [{bar:30}] {percent:>3}% ETA {eta_precise} {msg}",
        )
        .expect("template")
        .progress_chars("=> "),
    );
    // Per layer: (positions, unresolved after the scan, units credited to
    // the iterations so far).
    let state = Mutex::new((0u64, 0u64, 0u64));
    // A line above the bar, or on plain stderr when the bar is hidden (not a
    // terminal).
    let say = |line: String| {
        if bar.is_hidden() {
            eprintln!("{line}");
        } else {
            bar.println(line);
        }
    };
    let started = Instant::now();
    let report = |p: BuildProgress| match p {
        BuildProgress::Layer {
            seeds,
            positions,
            loaded,
        } => {
            if loaded {
                bar.inc(2 * positions);
                say(format!(
                    "layer {seeds:>2}: {positions} positions, found on disk"
                ));
            } else {
                *state.lock().expect("lock") = (positions, 0, 0);
                bar.set_message(format!("layer {seeds}: scan"));
            }
        }
        BuildProgress::Refused(e) => say(format!("{e}; rebuilding it")),
        BuildProgress::Step(BuildEvent::Scanned { positions, .. }) => bar.inc(positions),
        BuildProgress::Step(BuildEvent::Iteration {
            seeds,
            iteration,
            unresolved,
            changed,
        }) => {
            let mut s = state.lock().expect("lock");
            if iteration == 1 {
                s.1 = unresolved + changed;
            }
            let (positions, first, credited) = *s;
            let resolved = first.saturating_sub(unresolved);
            let due = (positions as u128 * resolved as u128 / first.max(1) as u128) as u64;
            if due > credited {
                bar.inc(due - credited);
                s.2 = due;
            }
            bar.set_message(format!(
                "layer {seeds}: iteration {iteration}, {unresolved} unresolved"
            ));
        }
        BuildProgress::Built(stats) => {
            let s = state.lock().expect("lock");
            bar.inc(s.0 - s.2);
            say(format!(
                "layer {:>2}: {} positions in {:.1} s ({:.2} M/s), {} iterations, {} cycle positions",
                stats.seeds,
                stats.positions,
                stats.seconds,
                stats.positions as f64 / stats.seconds.max(1e-9) / 1e6,
                stats.iterations,
                stats.cycles
            ));
        }
    };
    let (_, outcomes) = tablebase::build::<R>(dir, max_seeds, &report)?;
    bar.finish_and_clear();
    let seconds = started.elapsed().as_secs_f64();
    let built: u64 = outcomes
        .iter()
        .filter_map(|o| match o {
            LayerOutcome::Built(s) => Some(s.positions),
            LayerOutcome::Loaded { .. } => None,
        })
        .sum();
    println!(
        "{} tables up to {max_seeds} seeds in {}: {built} positions built in {seconds:.1} s ({:.2} M positions/s)",
        R::ID,
        dir.display(),
        built as f64 / seconds.max(1e-9) / 1e6
    );
    Ok(())
}

/// `tablebase info` for one game.
fn info<R: TablebaseRules>(dir: &Path) {
    let (tables, refused) = Tablebase::<R>::open(dir);
    let layers = tables.layer_seeds();
    if layers.is_empty() && refused.is_empty() {
        println!("{}: no tables", R::ID);
        return;
    }
    let positions: u64 = layers.iter().map(|&s| layer_size(R::PITS, s)).sum();
    let complete = tables
        .complete_to()
        .map_or("none".to_string(), |s| format!("0..={s}"));
    println!(
        "{}: {} layers, {positions} positions, complete for {complete} seeds",
        R::ID,
        layers.len()
    );
    for s in layers {
        let path = tablebase::layer_path(dir, R::ID, s);
        println!(
            "  {:>2} seeds  {:>12} positions  {}  ok",
            s,
            layer_size(R::PITS, s),
            path.display()
        );
    }
    for e in refused {
        println!("  {e}");
    }
}

/// `tablebase verify` for one game.
fn verify<R: TablebaseRules>(dir: &Path, samples: u32, seed: u64) -> anyhow::Result<()> {
    let (tables, refused) = Tablebase::<R>::open(dir);
    for e in &refused {
        println!("{e}");
    }
    let layers = tables.layer_seeds();
    if layers.is_empty() {
        return Err(bad(format!("no {} tables in {}", R::ID, dir.display())));
    }
    let mut rng = StdRng::seed_from_u64(seed);
    let mut wrong = 0;
    for seeds in layers {
        let started = Instant::now();
        let below = Below {
            tables: &tables,
            limit: seeds,
        };
        let mut solver = Solver::new(&below, 64);
        let size = layer_size(R::PITS, seeds);
        let mut checked = 0;
        for _ in 0..samples.min(size as u32) {
            let r = rng.random_range(0..size);
            let mut pits = 0;
            R::walk(seeds, r, r + 1, |_, p| pits = p);
            let side = if rng.random_bool(0.5) {
                Side::South
            } else {
                Side::North
            };
            let board = if side == Side::North {
                R::mirror(pits)
            } else {
                pits
            };
            let pos = Position::<R>::from_key(board).with_side_to_move(side);
            let table = tables.probe(&pos).expect("layer loaded") as i32;
            let searched = solver.value(&pos);
            checked += 1;
            if table != searched {
                wrong += 1;
                println!("MISMATCH {pos}: table {table}, search {searched}");
            }
        }
        println!(
            "{} layer {seeds:>2}: {checked} entries checked against search in {:.2} s",
            R::ID,
            started.elapsed().as_secs_f64()
        );
    }
    if wrong > 0 || !refused.is_empty() {
        anyhow::bail!("{wrong} mismatches, {} files refused", refused.len());
    }
    println!("all entries agree");
    Ok(())
}

/// A plain minimax to `depth` plies scoring the seeds banked: the move
/// scores a shallow player would see, ascending by pit.
fn shallow_scores(pos: &Position<Bohnenspiel>, depth: u32) -> Vec<(Move, i32)> {
    fn mm(pos: &Position<Bohnenspiel>, depth: u32) -> i32 {
        let me = pos.side_to_move();
        if let mancala_engine::Status::Over(t) = pos.status() {
            return t[me.index()] as i32 - t[(!me).index()] as i32;
        }
        if depth == 0 {
            return pos.tally(me) as i32 - pos.tally(!me) as i32;
        }
        pos.children()
            .iter()
            .map(|(_, c)| -mm(c, depth - 1))
            .max()
            .unwrap_or(0)
    }
    pos.children()
        .iter()
        .map(|(m, c)| (*m, -mm(c, depth - 1)))
        .collect()
}

/// `tablebase puzzles`.
fn puzzles(
    count: u32,
    min_seeds: u32,
    max_seeds: Option<u32>,
    dir: &Path,
    seed: u64,
    out: Option<PathBuf>,
) -> anyhow::Result<()> {
    let (tables, refused) = Tablebase::<Bohnenspiel>::open(dir);
    for e in &refused {
        eprintln!("mancala: warning: {e}; going on without it");
    }
    let Some(complete) = tables.complete_to() else {
        return Err(bad(format!(
            "no bohnenspiel tables in {}: build them first",
            dir.display()
        )));
    };
    let max_seeds = max_seeds.unwrap_or(complete);
    if max_seeds > complete || min_seeds > max_seeds || min_seeds < 4 {
        return Err(bad(format!(
            "seeds must satisfy 4 <= min ({min_seeds}) <= max ({max_seeds}) <= {complete} (the tables loaded)"
        )));
    }
    let levels: Vec<u32> = (min_seeds..=max_seeds).filter(|s| s % 2 == 0).collect();
    let mut rng = StdRng::seed_from_u64(seed);
    let mut found: Vec<(u32, String)> = Vec::new();
    let mut tries = 0u64;
    for (i, &seeds) in levels.iter().enumerate() {
        // Spread the puzzles evenly over the seed counts.
        let want = (count as usize * (i + 1)).div_ceil(levels.len()) - found.len();
        let mut got = 0;
        let size = layer_size(12, seeds);
        while got < want {
            tries += 1;
            if tries > 50_000_000 {
                anyhow::bail!("too few interesting positions found");
            }
            let r = rng.random_range(0..size);
            let mut pits = 0;
            Bohnenspiel::walk(seeds, r, r + 1, |_, p| pits = p);
            // Tallies: the seeds off the board shared equally, so the margin
            // is the board's value.
            let banked = (72 - seeds) as u8;
            let mut cells: Vec<Option<u8>> =
                (0..12).map(|i| Some((pits >> (8 * i)) as u8)).collect();
            cells.truncate(12);
            let pos = Position::<Bohnenspiel>::from_parts(
                &cells,
                Side::South,
                [banked / 2, banked - banked / 2],
            )
            .expect("72 seeds");
            if let Some(line) = interesting(&pos, &tables) {
                found.push((seeds, line));
                got += 1;
            }
        }
    }
    let mut text = String::new();
    writeln!(
        text,
        "# Bohnenspiel endgame puzzles: POSITION | margin M | best B\n\
         # margin: the final margin for the side to move under optimal play (tallies included);\n\
         # best: the only move that keeps it. Each has at least 3 legal moves and needs depth:\n\
         # a minimax to 3 plies counting banked seeds does not pick the move.\n\
         # Generated and proven by: mancala tablebase puzzles --count {count} --min-seeds {min_seeds} \
         --max-seeds {max_seeds} --seed {seed}\n\
         # Checked by: mancala solve --check positions/puzzles/bohnenspiel.txt"
    )?;
    for (_, line) in &found {
        writeln!(text, "{line}")?;
    }
    match out {
        Some(path) => std::fs::write(&path, text)
            .map_err(|e| anyhow::anyhow!("cannot write {}: {e}", path.display()))?,
        None => print!("{text}"),
    }
    eprintln!("{} puzzles from {tries} random positions", found.len());
    Ok(())
}

/// The puzzle line of `pos` if it is interesting: the game goes on, at
/// least three legal moves, a single best move, and a 1-, 2- and 3-ply
/// minimax all rate another move strictly higher or equal.
fn interesting(pos: &Position<Bohnenspiel>, tables: &Tablebase<Bohnenspiel>) -> Option<String> {
    let margin = tables.probe_margin(pos)?;
    let children = pos.children();
    if children.len() < 3 {
        return None;
    }
    let mut best = Vec::new();
    for (mv, child) in &children {
        let v = -match child.status() {
            mancala_engine::Status::Over(t) => {
                let me = child.side_to_move().index();
                t[me] as i32 - t[1 - me] as i32
            }
            mancala_engine::Status::Ongoing => tables.probe_margin(child)?,
        };
        if v == margin {
            best.push(*mv);
        }
    }
    if best.len() != 1 {
        return None;
    }
    for depth in 1..=3 {
        let scores = shallow_scores(pos, depth);
        let top = scores.iter().map(|s| s.1).max()?;
        let mine = scores.iter().find(|s| s.0 == best[0])?.1;
        let tied = scores.iter().filter(|s| s.1 == top).count();
        if mine == top && tied == 1 {
            return None;
        }
    }
    Some(format!("{pos} | margin {margin} | best {}", best[0]))
}
