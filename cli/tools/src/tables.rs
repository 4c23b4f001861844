//! Endgame tables as `mancala tablebase` works them: a build with its
//! progress (on one machine or as a rank of a cluster), the summary of the
//! tables in a directory, their verification against the solver, the
//! puzzle file and the accuracy set drawn from them.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};
use std::sync::Mutex;
use std::time::Instant;

use mancala_engine::pgn::WrittenGame;
use mancala_engine::tablebase::{
    self, layer_size, BuildEvent, BuildProgress, Cluster, LayerOutcome, PuzzleError, TableSet,
    Tablebase, TablebaseRules,
};
use mancala_engine::{AnyPosition, Bohnenspiel, GameId};

use crate::bad::{bad, OrBad};
use crate::limits;

/// Opens the endgame tables of the games given: the front end's choice of
/// directory, and its say on files refused (the ledger and the engine
/// protocol open a game's tables when they first meet it).
pub type OpenTables<'a> = &'a dyn Fn(&[GameId]) -> TableSet;

/// The games of `positions`, each once, in order.
pub fn games_of(positions: impl IntoIterator<Item = AnyPosition>) -> Vec<GameId> {
    let mut games: Vec<GameId> = positions.into_iter().map(|p| p.game()).collect();
    games.sort();
    games.dedup();
    games
}

/// `tablebase build`: a progress bar over every position of every layer;
/// a layer counts its scan as half its work and the fixed-point iterations
/// as the other half (in proportion to the positions they resolve). On a
/// cluster, every rank calls it and rank 0 reports.
pub fn build<R: TablebaseRules>(
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
        bar: crate::progress::bar("build", total, "%"),
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
pub fn info<R: TablebaseRules>(dir: &Path) {
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
pub fn verify<R: TablebaseRules>(dir: &Path, samples: u32, seed: u64) -> anyhow::Result<()> {
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

/// `tablebase puzzles`: `count` puzzles of `min_seeds` to `max_seeds`
/// seeds (the tables' largest layer if none) from Bohnenspiel's tables in
/// `dir`, drawn with `seed`, to `out` (stdout if none).
pub fn puzzles(
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
    let shown = out.as_ref().map(|p| p.display().to_string());
    let mut text = tablebase::puzzle_header(count, min_seeds, max_seeds, seed, shown.as_deref());
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

/// `tablebase accuracy-set`: positions of `min_seeds` to `max_seeds` seeds
/// on the board sampled from `games` (read from the files `records`),
/// `per_game` a game, each move graded by proofs of at most `max_nodes`
/// positions with the tables in `dir`, written to `out`.
#[allow(clippy::too_many_arguments)]
pub fn accuracy_set(
    games: &[WrittenGame],
    records: &[PathBuf],
    min_seeds: u32,
    max_seeds: u32,
    per_game: usize,
    max_nodes: u64,
    dir: &Path,
    out: &Path,
) -> anyhow::Result<()> {
    use crate::accuracy::{self, Sampling};
    if min_seeds > max_seeds || per_game == 0 || max_nodes == 0 {
        return Err(bad(
            "need --min-seeds <= --max-seeds, --per-game >= 1 and --max-nodes >= 1",
        ));
    }
    let sampling = Sampling {
        min_seeds,
        max_seeds,
        per_game,
    };
    let positions = accuracy::sample(games, sampling).or_bad()?;
    let kinds = games_of(positions.iter().copied());
    let (tables, refused) = mancala_engine::tablebase::TableSet::open_games(dir, &kinds);
    for e in &refused {
        eprintln!("mancala: warning: {e}; going on without it");
    }
    let file = mancala_engine::files::AtomicFile::create(out)
        .map_err(|e| bad(format!("--out {}: {e}", out.display())))?;
    let bar = crate::progress::bar("grade", positions.len() as u64, "positions");
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
