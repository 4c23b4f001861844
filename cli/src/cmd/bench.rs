//! `mancala bench`: the arguments and output of [`mancala_tools::bench`],
//! printing `N nodes M nps`.

use std::time::Duration;

use mancala_tools::bench::{self, DEFAULT_DEPTH};

use mancala_tools::limits;

use crate::input::{bad, OrBad};

/// Arguments of `mancala bench`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// Search every position to this depth.
    #[arg(long, short, default_value_t = DEFAULT_DEPTH)]
    depth: u32,
    /// Also print each position's nodes, time and best move.
    #[arg(long, short)]
    verbose: bool,
    /// Measure the parallel speed-up instead, `THREADS` threads against
    /// one: the Bohnenspiel start to depths 24 and 26 (best move and every
    /// move's score, `--runs` alternated runs); each bench position's node
    /// rate in `--min-ms`; for each position, the first depth a one-thread
    /// search needs `--min-ms` for, then the time `THREADS` threads take
    /// to it; and 4 × `THREADS` threads against `THREADS` (oversubscribed).
    #[arg(long, value_name = "THREADS")]
    speedup: Option<u32>,
    /// With `--speedup`: how long the one-thread search of each position
    /// runs at least, and each equal-time search (milliseconds).
    #[arg(long, default_value_t = 1000, value_name = "MS")]
    min_ms: u64,
    /// With `--speedup`: how many times each search from the start runs
    /// (alternating one thread and THREADS; the medians are compared).
    #[arg(long, default_value_t = 3, value_parser = clap::value_parser!(u32).range(1..=100))]
    runs: u32,
    /// With `--speedup`: the depths of the searches from the start
    /// (comma-separated; the oversubscribed search goes to the first).
    #[arg(long, value_name = "D1,D2,…", value_delimiter = ',', default_values_t = [24u32, 26])]
    depths: Vec<u32>,
    /// With `--speedup`: table size (MiB).
    #[arg(long, default_value_t = 256, value_name = "MB")]
    hash: u32,
    /// Time a review instead: the 40-move Bohnenspiel game of
    /// `positions/review/`, reviewed as `mancala review` does; prints the
    /// wall time.
    #[arg(long, conflicts_with = "speedup")]
    review: bool,
    /// Grade the engine against exact values instead: the accuracy set
    /// (`positions/accuracy/bohnenspiel.txt`, or --set FILE), each position
    /// searched for --time (100ms) or --nodes on one thread.
    #[arg(long, conflicts_with_all = ["speedup", "review"])]
    accuracy: bool,
    /// With `--accuracy`: another graded-position file.
    #[arg(long, value_name = "FILE", requires = "accuracy")]
    set: Option<std::path::PathBuf>,
    /// With `--accuracy`: nodes a position instead of a time.
    #[arg(long, value_name = "N", requires = "accuracy")]
    nodes: Option<u64>,
    /// With `--accuracy`: evaluation weights (JSON).
    #[arg(long, value_name = "FILE", requires = "accuracy")]
    weights: Option<std::path::PathBuf>,
    /// With `--review`: the search time of each position (1s); with
    /// `--accuracy` (100ms).
    #[arg(long, value_name = "TIME", value_parser = crate::input::time_arg)]
    time: Option<Duration>,
    /// With `--review`: search threads [default: every core].
    #[arg(long)]
    threads: Option<u32>,
    #[command(flatten)]
    tables: crate::options::TableArgs,
}

/// `bench --speedup T`: `T` threads against one, four ways: the
/// Bohnenspiel start to depths 24 and 26 (best move and every move's
/// score, alternated runs), the node rate in equal time, time to equal
/// depth on every bench position, and `4T` threads against `T` (the
/// machine oversubscribed).
fn speedup(threads: usize, min: Duration, hash: usize, runs: usize, depths: &[u32]) {
    let ms = |d: &Duration| d.as_secs_f64() * 1e3;
    let times = |v: &[Duration]| {
        v.iter()
            .map(|d| format!("{:.0}", ms(d)))
            .collect::<Vec<_>>()
            .join(" ")
    };
    let start_row = |l: &bench::StartLine, base: usize| {
        println!(
            "{:<10} {:>5} {:>24} {:>24} {:>7.2}",
            if l.all_moves {
                "every move"
            } else {
                "best move"
            },
            l.depth,
            format!("{base}t: {}", times(&l.one)),
            format!("{}t: {}", l.threads, times(&l.many)),
            l.ratio()
        );
    };
    println!("time to depth from the Bohnenspiel start (ms, {runs} alternated runs; ratio of the medians)");
    println!(
        "{:<10} {:>5} {:>24} {:>24} {:>7}",
        "mode", "depth", "", "", "speedup"
    );
    bench::start_to_depth(1, threads, depths, runs, hash, |l| start_row(l, 1));

    println!();
    println!(
        "nodes a second in equal time ({} ms a search)",
        min.as_millis()
    );
    println!(
        "{:<48} {:>10} {:>10} {:>7}",
        "position",
        "1t nps",
        format!("{threads}t nps"),
        "ratio"
    );
    let mut n = 0;
    let nps = bench::equal_time(threads, min, hash, |l| {
        n += 1;
        println!(
            "{:<48} {:>10} {:>10} {:>7.2}",
            l.position.to_string(),
            l.one,
            l.many,
            l.ratio()
        );
    });
    println!("median nps ratio {nps:.2} ({threads} threads, {n} positions)");

    println!();
    println!(
        "time to equal depth (the depth one thread needs {} ms for)",
        min.as_millis()
    );
    println!(
        "{:<48} {:>5} {:>9} {:>9} {:>7}",
        "position",
        "depth",
        "1t ms",
        format!("{threads}t ms"),
        "speedup"
    );
    let mut n = 0;
    let median = bench::speedup(threads, min, hash, |l| {
        n += 1;
        println!(
            "{:<48} {:>5} {:>9.1} {:>9.1} {:>7.2}",
            l.position.to_string(),
            l.depth,
            ms(&l.one),
            ms(&l.many),
            l.ratio()
        );
    });
    println!("median speedup {median:.2} ({threads} threads, {n} positions)");

    // Four times the threads, within what the machine allows.
    let over = (4 * threads).min(limits::Machine::this().most_threads() as usize);
    println!();
    let first = &depths[..1];
    println!(
        "oversubscribed: {over} threads against {threads} to depth {} (ms, {runs} alternated runs)",
        first[0]
    );
    bench::start_to_depth(threads, over, first, runs, hash, |l| start_row(l, threads));
}

/// `bench --review`: the wall time of a whole review.
fn review(args: &Args) -> anyhow::Result<()> {
    let threads = limits::threads_or_cores("--threads", args.threads).or_bad()?;
    let hash = limits::hash_mb("--hash", args.hash as u64).or_bad()? as usize;
    let tables = args.tables.open(&[mancala_engine::GameId::Bohnenspiel]);
    let verbose = args.verbose;
    let time = args.time.unwrap_or(Duration::from_secs(1));
    let r = bench::review(time, threads, hash, &tables, |p| {
        if verbose {
            eprintln!(
                "ply {:>3} {} {:>2}: before {:+.2} after {:+.2}{}",
                p.ply,
                p.side.title(),
                p.mv,
                p.before,
                p.after,
                if p.exact { " exact" } else { "" }
            );
        }
    });
    println!(
        "review {} plies at {} ms a position, {threads} threads, {}: {:.1} s wall ({:.2} s a ply, {} proven)",
        r.plies,
        time.as_millis(),
        if tables.get::<mancala_engine::Bohnenspiel>().is_some() { "with tables" } else { "no tables" },
        r.wall.as_secs_f64(),
        r.wall.as_secs_f64() / r.plies.max(1) as f64,
        r.exact
    );
    Ok(())
}

/// `bench --accuracy`: the engine graded against exact values.
fn accuracy(args: &Args) -> anyhow::Result<()> {
    use mancala_tools::accuracy::{self, Budget};
    let (name, text) = match &args.set {
        Some(path) => (
            path.display().to_string(),
            mancala_engine::files::read_text(path)
                .map_err(|e| crate::input::bad(format!("--set {}: {e}", path.display())))?,
        ),
        None => (
            "positions/accuracy/bohnenspiel.txt".to_string(),
            mancala_engine::files::ACCURACY.to_string(),
        ),
    };
    let set = mancala_engine::files::parse_graded(&text)
        .map_err(|e| crate::input::bad(format!("{name}: {e}")))?;
    if set.is_empty() {
        return Err(crate::input::bad(format!("{name}: no positions")));
    }
    if args.nodes == Some(0) {
        return Err(crate::input::bad("--nodes must be at least 1"));
    }
    let budget = Budget {
        time: match args.nodes {
            Some(_) => args.time,
            None => Some(args.time.unwrap_or(Duration::from_millis(100))),
        },
        nodes: args.nodes,
    };
    let games = crate::options::games_of(set.iter().map(|g| g.position));
    let tables = args.tables.open(&games);
    let eval = crate::options::evaluator(args.weights.as_deref())?;
    let hash = limits::hash_mb("--hash", args.hash as u64).or_bad()? as usize;
    let verbose = args.verbose;
    let acc = accuracy::run(&set, budget, &eval, &tables, hash.min(16), |g, mv, v| {
        if verbose {
            eprintln!(
                "{} | played {} {:+} (best {:+})",
                g.position,
                mv,
                v,
                g.best()
            );
        }
    });
    let limit = match (budget.nodes, budget.time) {
        (Some(n), _) => format!("{n} nodes"),
        (None, Some(t)) => format!("{} ms", t.as_millis()),
        (None, None) => unreachable!("a time or nodes is always set"),
    };
    let has_tables = games
        .iter()
        .any(|&g| mancala_engine::with_rules!(g, R => tables.get::<R>().is_some()));
    println!(
        "accuracy {}: {} positions at {limit} a position, one thread, {}: {:.2} % keep the value ({} of {}; where some move loses value {} of {}, {:.2} %), average loss {:.3} seeds, {} proven outcome(s) thrown away",
        name,
        acc.positions,
        if has_tables { "with tables" } else { "no tables" },
        100.0 * acc.share_kept(),
        acc.kept,
        acc.positions,
        acc.kept_where_it_can_lose(),
        acc.can_lose,
        100.0 * acc.share_kept_where_it_can_lose(),
        acc.average_loss(),
        acc.outcome_changes()
    );
    for m in acc.misses.iter().take(5) {
        println!(
            "  {} | played {} {:+}, best {:+} (loss {}{})",
            m.position,
            m.played,
            m.value,
            m.best,
            m.loss(),
            if m.changes_outcome() {
                ", outcome changed"
            } else {
                ""
            }
        );
    }
    Ok(())
}

pub fn run(args: Args) -> anyhow::Result<()> {
    if args.review {
        return review(&args);
    }
    if args.accuracy {
        return accuracy(&args);
    }
    if let Some(threads) = args.speedup {
        let threads = limits::threads("--speedup", threads as u64).or_bad()?;
        let hash = limits::hash_mb("--hash", args.hash as u64).or_bad()?;
        let depths = args
            .depths
            .iter()
            .map(|&d| limits::depth("--depths", d as u64))
            .collect::<Result<Vec<_>, _>>()
            .or_bad()?;
        if depths.is_empty() {
            return Err(bad("--depths: give at least one depth"));
        }
        speedup(
            threads,
            Duration::from_millis(args.min_ms),
            hash,
            args.runs as usize,
            &depths,
        );
        return Ok(());
    }
    let depth = limits::depth("--depth", args.depth as u64).or_bad()?;
    let verbose = args.verbose;
    let (nodes, time) = bench::run(depth, |l| {
        if verbose {
            let best = l.best.map_or("-".to_string(), |m| m.to_string());
            eprintln!(
                "{}: {} nodes, {} ms, best {best}",
                l.position,
                l.nodes,
                l.time.as_millis()
            );
        }
    });
    let nps = (nodes as f64 / time.as_secs_f64().max(1e-9)) as u64;
    println!("{nodes} nodes {nps} nps");
    Ok(())
}
