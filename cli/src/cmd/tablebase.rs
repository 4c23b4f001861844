//! `mancala tablebase`: build, inspect and verify the endgame tables, and
//! generate the puzzle file from them.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};
use std::sync::Mutex;
use std::time::Instant;

use clap::Subcommand;
use mancala_engine::tablebase::{
    self, layer_size, BuildEvent, BuildProgress, Cluster, LayerOutcome, PuzzleError, Tablebase,
    TablebaseRules, MAX_TABLE_SEEDS,
};
use mancala_engine::{with_table_rules, Bohnenspiel, GameId};

use mancala_tools::limits;

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
        } => accuracy_set(
            &records, min_seeds, max_seeds, per_game, max_nodes, dir, &out,
        ),
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

/// `tablebase build`: a progress bar over every position of every layer;
/// a layer counts its scan as half its work and the fixed-point iterations
/// as the other half (in proportion to the positions they resolve). On a
/// cluster, every rank calls it and rank 0 reports.
fn build<R: TablebaseRules>(
    dir: &Path,
    max_seeds: u32,
    cluster: Option<&dyn Cluster>,
) -> anyhow::Result<()> {
    let ranks = cluster.map_or(1, |c| c.ranks());
    let top = tablebase::top_layer::<R>(max_seeds);
    let clustered = cluster.is_some();
    let memory = |seeds| match clustered {
        false => tablebase::layer_memory::<R>(seeds),
        true => tablebase::cluster_layer_memory::<R>(seeds, ranks),
    };
    limits::memory(
        &format!("building the {} tables to {max_seeds} seeds", R::ID),
        memory(top),
    )
    .or_bad()?;
    std::fs::create_dir_all(dir)
        .map_err(|e| bad(format!("--dir {}: cannot create it: {e}", dir.display())))?;
    let total: u64 = (0..=max_seeds)
        .step_by(tablebase::layer_step::<R>())
        .map(|s| 2 * layer_size(R::PITS, s))
        .sum();
    // Rank 0 reports; the others build in silence.
    if let Some(c) = cluster.filter(|c| c.rank() != 0) {
        tablebase::build_cluster::<R>(dir, max_seeds, c, &|_| {})?;
        return Ok(());
    }
    let whose = if clustered {
        format!(
            "{ranks} ranks, about {} of memory each at the peak ({} bytes a position of its share of the layer built; the smaller layers are mapped files)",
            bytes(memory(top)),
            tablebase::building_bytes::<R>(ranks)
        )
    } else {
        format!(
            "about {} of memory at the peak ({} bytes a position of the layer built, 1 of the smaller ones)",
            bytes(memory(top)),
            tablebase::building_bytes::<R>(ranks)
        )
    };
    eprintln!(
        "{} tables, {} layers 0..={max_seeds}: {} positions, {whose}",
        R::ID,
        if R::ODD_BOARDS { "all" } else { "even" },
        total / 2,
    );
    let display = BuildDisplay {
        bar: mancala_tools::progress::bar("build", total, "%"),
        total,
        clustered,
        worked_back: tablebase::works_back::<R>(ranks),
        memory: &memory,
        layer: Mutex::new((0, 0, 0)),
        found: AtomicU64::new(0),
        started: Instant::now(),
    };
    let report = |p: BuildProgress| display.report(p);
    let outcomes = match cluster {
        None => tablebase::build::<R>(dir, max_seeds, &report)?.1,
        Some(c) => tablebase::build_cluster::<R>(dir, max_seeds, c, &report)?,
    };
    display.bar.finish_and_clear();
    let seconds = display.started.elapsed().as_secs_f64();
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

/// A build's progress on the terminal: a bar in work units (two a
/// position of a layer: its scan, then its iterations, credited by the
/// share of positions they resolve) and a line a layer.
struct BuildDisplay<'a> {
    bar: indicatif::ProgressBar,
    /// Work units of every layer.
    total: u64,
    clustered: bool,
    /// Whether the layers are worked back from settled positions (Oware on
    /// one machine): the stats count thresholds swept, not passes.
    worked_back: bool,
    /// The peak memory of building a layer (a rank's, on a cluster).
    memory: &'a (dyn Fn(u32) -> u64 + Sync),
    /// The layer being built: its positions, those unresolved after the
    /// scan, the units credited to its iterations so far.
    layer: Mutex<(u64, u64, u64)>,
    /// Work units of the layers found on disk (no time spent on them: the
    /// rate for the ETA counts the units built).
    found: AtomicU64,
    started: Instant,
}

impl BuildDisplay<'_> {
    /// A line above the bar, or on plain stderr when the bar is hidden (not
    /// a terminal).
    fn say(&self, line: String) {
        if self.bar.is_hidden() {
            eprintln!("{line}");
        } else {
            self.bar.println(line);
        }
    }

    fn report(&self, p: BuildProgress) {
        match p {
            BuildProgress::Layer {
                seeds,
                positions,
                loaded,
            } => {
                if loaded {
                    self.bar.inc(2 * positions);
                    self.found.fetch_add(2 * positions, Relaxed);
                    self.say(format!(
                        "layer {seeds:>2}: {positions} positions, found on disk"
                    ));
                } else {
                    *self.layer.lock().expect("lock") = (positions, 0, 0);
                    self.say(format!(
                        "layer {seeds:>2}: building {positions} positions in about {}{}{}",
                        bytes((self.memory)(seeds)),
                        if self.clustered { " a rank" } else { "" },
                        eta(
                            self.started.elapsed().as_secs_f64(),
                            self.bar.position(),
                            self.found.load(Relaxed),
                            self.total
                        )
                    ));
                    self.bar.set_message(format!("layer {seeds}: scan"));
                }
            }
            BuildProgress::Refused(e) => self.say(format!("{e}; rebuilding it")),
            BuildProgress::Waiting(lock) => self.say(format!(
                "another build of these tables holds {}: waiting for it to end",
                lock.display()
            )),
            BuildProgress::Step(BuildEvent::Scanned { positions, .. }) => self.bar.inc(positions),
            BuildProgress::Step(BuildEvent::Iteration {
                seeds,
                iteration,
                unresolved,
                changed,
            }) => {
                let mut s = self.layer.lock().expect("lock");
                if iteration == 1 {
                    s.1 = unresolved + changed;
                }
                let (positions, first, credited) = *s;
                let resolved = first.saturating_sub(unresolved);
                let due = (positions as u128 * resolved as u128 / first.max(1) as u128) as u64;
                if due > credited {
                    self.bar.inc(due - credited);
                    s.2 = due;
                }
                self.bar.set_message(if self.worked_back {
                    format!("layer {seeds}: sweep {iteration}, {unresolved} bounds unset")
                } else {
                    format!("layer {seeds}: iteration {iteration}, {unresolved} unresolved")
                });
            }
            BuildProgress::Built(stats) => {
                let s = self.layer.lock().expect("lock");
                self.bar.inc(s.0 - s.2);
                let exchanged = if self.clustered {
                    format!(
                        ", {} bytes exchanged ({:.2} a position)",
                        stats.exchanged,
                        stats.exchanged as f64 / stats.positions.max(1) as f64
                    )
                } else {
                    String::new()
                };
                let steps = if self.worked_back {
                    "sweeps working back"
                } else {
                    "iterations"
                };
                self.say(format!(
                    "layer {:>2}: {} positions in {:.1} s ({:.2} M/s), {} {steps}, {} cycle positions{exchanged}",
                    stats.seeds,
                    stats.positions,
                    stats.seconds,
                    stats.positions as f64 / stats.seconds.max(1e-9) / 1e6,
                    stats.iterations,
                    stats.cycles
                ));
            }
        }
    }
}

/// A memory size for people: MB under a GB, else GB.
fn bytes(n: u64) -> String {
    if n < 1_000_000_000 {
        format!("{:.0} MB", n as f64 / 1e6)
    } else {
        format!("{:.2} GB", n as f64 / 1e9)
    }
}

/// `"; ETA …"` for a build `done` units of `total` into it after
/// `seconds`, `found` of them found on disk, at the rate of the units
/// built so far (empty before a second of building: no rate yet). The
/// larger layers go slower a position, so it is a lower estimate.
fn eta(seconds: f64, done: u64, found: u64, total: u64) -> String {
    let built = done.saturating_sub(found);
    if built == 0 || seconds < 1.0 {
        return String::new();
    }
    let left = (seconds * (total - done.min(total)) as f64 / built as f64).round() as u64;
    let left = match left {
        0..60 => format!("{left} s"),
        60..3600 => format!("{} min", left.div_ceil(60)),
        _ => format!("{} h {:02} min", left / 3600, left % 3600 / 60),
    };
    format!("; ETA at least {left}")
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
    if tables.layer_seeds().is_empty() {
        return Err(bad(format!("no {} tables in {}", R::ID, dir.display())));
    }
    let checks = tablebase::verify(&tables, samples, seed, |c| {
        for (pos, table, searched) in &c.mismatches {
            println!("MISMATCH {pos}: table {table}, search {searched}");
        }
        println!(
            "{} layer {:>2}: {} entries checked against search in {:.2} s",
            R::ID,
            c.seeds,
            c.checked,
            c.seconds
        );
    });
    let wrong: usize = checks.iter().map(|c| c.mismatches.len()).sum();
    if wrong > 0 || !refused.is_empty() {
        anyhow::bail!("{wrong} mismatches, {} files refused", refused.len());
    }
    println!("all entries agree");
    Ok(())
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
    if tables.complete_to().is_none() {
        return Err(bad(format!(
            "no bohnenspiel tables in {}: build them first",
            dir.display()
        )));
    }
    let found = match tablebase::puzzles(&tables, count, min_seeds, max_seeds, seed) {
        Ok(p) => p,
        Err(e @ PuzzleError::TooFew) => return Err(e.into()),
        Err(e) => return Err(bad(e.to_string())),
    };
    let max_seeds = max_seeds.or(tables.complete_to()).expect("checked above");
    let mut text = tablebase::puzzle_header(count, min_seeds, max_seeds, seed);
    for p in &found.found {
        writeln!(text, "{p}")?;
    }
    match out {
        Some(path) => mancala_engine::files::write_file(&path, text)
            .map_err(|e| anyhow::anyhow!("cannot write {}: {e}", path.display()))?,
        None => print!("{text}"),
    }
    eprintln!(
        "{} puzzles from {} random positions",
        found.found.len(),
        found.tries
    );
    Ok(())
}

/// `tablebase accuracy-set`.
fn accuracy_set(
    records: &[PathBuf],
    min_seeds: u32,
    max_seeds: u32,
    per_game: usize,
    max_nodes: u64,
    dir: Option<PathBuf>,
    out: &Path,
) -> anyhow::Result<()> {
    use mancala_tools::accuracy::{self, Sampling};
    if min_seeds > max_seeds || per_game == 0 || max_nodes == 0 {
        return Err(bad(
            "need --min-seeds <= --max-seeds, --per-game >= 1 and --max-nodes >= 1",
        ));
    }
    let mut games = Vec::new();
    for path in records {
        games.extend(crate::input::read_records("--records ", path)?);
    }
    let sampling = Sampling {
        min_seeds,
        max_seeds,
        per_game,
    };
    let positions = accuracy::sample(&games, sampling).or_bad()?;
    let kinds = crate::options::games_of(positions.iter().copied());
    let dir = dir_or_default(dir);
    let (tables, refused) = mancala_engine::tablebase::TableSet::open_games(&dir, &kinds);
    for e in &refused {
        eprintln!("mancala: warning: {e}; going on without it");
    }
    let file = mancala_engine::files::AtomicFile::create(out)
        .map_err(|e| bad(format!("--out {}: {e}", out.display())))?;
    let bar = mancala_tools::progress::bar("grade", positions.len() as u64, "positions");
    let started = std::time::Instant::now();
    let mut graded = Vec::new();
    let mut skipped = 0;
    // Off a terminal (no bar), a line a minute says how far it is.
    let mut logged = std::time::Instant::now();
    for (i, p) in positions.iter().enumerate() {
        match accuracy::grade(p, &tables, 64, max_nodes) {
            Some(g) => graded.push(g),
            None => skipped += 1,
        }
        bar.inc(1);
        if bar.is_hidden() && logged.elapsed() >= std::time::Duration::from_secs(60) {
            eprintln!(
                "grade: {}/{} positions, {skipped} left out, {:.0} s",
                i + 1,
                positions.len(),
                started.elapsed().as_secs_f64()
            );
            logged = std::time::Instant::now();
        }
    }
    bar.finish_and_clear();
    let names: Vec<String> = records.iter().map(|p| p.display().to_string()).collect();
    let mut text = format!(
        "# Accuracy set: POSITION | values M:V,… (every legal move M with the exact final margin V\n\
         # it leads to, from the mover's view, banked seeds included; the position alone, no history).\n\
         # {} positions from {} games ({} to {} seeds on the board, {} a game); {} left out (a move\n\
         # needed more than {} positions to prove). Proven with the tables in {}.\n\
         # Generated by: mancala tablebase accuracy-set --records {} --min-seeds {min_seeds} --max-seeds {max_seeds} --per-game {per_game} --max-nodes {max_nodes} --out {}\n",
        graded.len(),
        games.len(),
        min_seeds,
        max_seeds,
        per_game,
        skipped,
        max_nodes,
        dir.display(),
        names.join(" "),
        out.display()
    );
    for g in &graded {
        writeln!(text, "{g}")?;
    }
    file.commit(|w| std::io::Write::write_all(w, text.as_bytes()))
        .map_err(|e| anyhow::anyhow!("--out {}: {e}", out.display()))?;
    eprintln!(
        "{} positions graded, {skipped} left out, in {:.1} s",
        graded.len(),
        started.elapsed().as_secs_f64()
    );
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn eta_counts_only_the_work_built_in_this_run() {
        // Nothing built yet, or under a second: no rate, no ETA.
        assert_eq!(eta(100.0, 50, 50, 200), "");
        assert_eq!(eta(0.5, 10, 0, 200), "");
        // 100 units built in 100 s, 50 found on disk, 50 left: 50 s.
        assert_eq!(eta(100.0, 150, 50, 200), "; ETA at least 50 s");
        assert_eq!(eta(60.0, 100, 0, 1100), "; ETA at least 10 min");
        assert_eq!(eta(60.0, 10, 0, 1210), "; ETA at least 2 h 00 min");
        assert_eq!(bytes(308_000_000), "308 MB");
        assert_eq!(bytes(12_760_000_000), "12.76 GB");
    }
}
