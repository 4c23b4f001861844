//! `mancala bench`: a fixed-depth, one-thread search of the positions in
//! `positions/bench.txt`, printing `N nodes M nps`. The one-thread search
//! is deterministic, so `N` is a signature of the search's behaviour: it
//! changes only when the search or the evaluation does.

use std::sync::atomic::AtomicBool;
use std::time::Duration;

use mancala_engine::search::tt::TranspositionTable;
use mancala_engine::search::{Limits, Search, SearchOptions};
use mancala_engine::{files, with_position, AnyPosition};
use mancala_eval::Evaluator;

use crate::input::{bad, positive};

/// The default bench depth.
pub const DEFAULT_DEPTH: u32 = 12;

/// Table size for each bench search (MiB), cleared between positions.
const HASH_MB: usize = 16;

/// Arguments of `mancala bench`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// Search every position to this depth.
    #[arg(long, short, default_value_t = DEFAULT_DEPTH)]
    depth: u32,
    /// Also print each position's nodes, time and best move.
    #[arg(long, short)]
    verbose: bool,
    /// Measure the parallel speed-up instead: for each position, the first
    /// depth a one-thread search needs `--min-ms` for, then the time
    /// `THREADS` threads take to the same depth; prints each ratio and the
    /// median.
    #[arg(long, value_name = "THREADS")]
    speedup: Option<u32>,
    /// With `--speedup`: how long the one-thread search of each position
    /// runs at least (milliseconds).
    #[arg(long, default_value_t = 1000, value_name = "MS")]
    min_ms: u64,
    /// With `--speedup`: table size (MiB).
    #[arg(long, default_value_t = 256, value_name = "MB")]
    hash: u32,
}

/// The bench positions (`positions/bench.txt`).
pub fn positions() -> Vec<AnyPosition> {
    files::parse_positions(files::BENCH).expect("positions/bench.txt holds valid positions")
}

/// One bench search: nodes and time.
pub fn search_one(
    pos: &AnyPosition,
    depth: u32,
    threads: usize,
    tt: &TranspositionTable,
) -> (u64, Duration, String) {
    let options = SearchOptions {
        limits: Limits {
            depth: Some(depth),
            ..Limits::default()
        },
        threads,
        score_all_moves: false,
    };
    let eval = Evaluator::default();
    let r = with_position!(pos, p => Search::new(p, &eval, tt).options(options).run(|_| {}));
    let best = r.best.map_or("-".to_string(), |m| m.to_string());
    (r.nodes, r.elapsed, best)
}

/// Runs the bench: total nodes and time.
pub fn bench(
    depth: u32,
    mut each: impl FnMut(&AnyPosition, u64, Duration, &str),
) -> (u64, Duration) {
    let tt = TranspositionTable::new(HASH_MB);
    let mut nodes = 0;
    let mut time = Duration::ZERO;
    for pos in positions() {
        tt.clear();
        let (n, t, best) = search_one(&pos, depth, 1, &tt);
        each(&pos, n, t, &best);
        nodes += n;
        time += t;
    }
    (nodes, time)
}

/// The one-thread search of `pos` until an iteration completes after
/// `min`: that depth and the time it took (or the last depth, if the root
/// was proven first).
fn depth_taking(pos: &AnyPosition, min: Duration, tt: &TranspositionTable) -> (u32, Duration) {
    let eval = Evaluator::default();
    let stop = AtomicBool::new(false);
    let on_iteration = |r: &mancala_engine::search::Report| {
        if r.elapsed >= min {
            stop.store(true, std::sync::atomic::Ordering::Relaxed);
        }
    };
    let r = with_position!(pos, p => Search::new(p, &eval, tt).stop(&stop).run(on_iteration));
    (r.depth, r.elapsed)
}

/// `bench --speedup T`: time to equal depth, one thread against `threads`.
fn speedup(threads: usize, min: Duration, hash: usize) -> anyhow::Result<()> {
    let tt = TranspositionTable::new(hash);
    let mut ratios = Vec::new();
    println!(
        "{:<48} {:>5} {:>9} {:>9} {:>7}",
        "position",
        "depth",
        "1t ms",
        format!("{threads}t ms"),
        "speedup"
    );
    for pos in positions() {
        tt.clear();
        let (depth, one) = depth_taking(&pos, min, &tt);
        tt.clear();
        let (_, many, _) = search_one(&pos, depth.max(1), threads, &tt);
        let ratio = one.as_secs_f64() / many.as_secs_f64().max(1e-9);
        println!(
            "{:<48} {depth:>5} {:>9.1} {:>9.1} {ratio:>7.2}",
            pos.to_string(),
            one.as_secs_f64() * 1e3,
            many.as_secs_f64() * 1e3
        );
        ratios.push(ratio);
    }
    ratios.sort_by(f64::total_cmp);
    let n = ratios.len();
    let median = if n % 2 == 1 {
        ratios[n / 2]
    } else {
        (ratios[n / 2 - 1] + ratios[n / 2]) / 2.0
    };
    println!("median speedup {median:.2} ({threads} threads, {n} positions)");
    Ok(())
}

pub fn run(args: Args) -> anyhow::Result<()> {
    if let Some(threads) = args.speedup {
        let threads = positive("speedup", threads)?;
        let hash = positive("hash", args.hash)?;
        return speedup(
            threads as usize,
            Duration::from_millis(args.min_ms),
            hash as usize,
        );
    }
    let depth = positive("depth", args.depth)?;
    if depth > mancala_engine::search::params::MAX_DEPTH {
        return Err(bad(format!(
            "--depth must be at most {}",
            mancala_engine::search::params::MAX_DEPTH
        )));
    }
    let verbose = args.verbose;
    let (nodes, time) = bench(depth, |pos, n, t, best| {
        if verbose {
            eprintln!("{pos}: {n} nodes, {} ms, best {best}", t.as_millis());
        }
    });
    let nps = (nodes as f64 / time.as_secs_f64().max(1e-9)) as u64;
    println!("{nodes} nodes {nps} nps");
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_bench_position_parses_and_every_game_is_there() {
        let all = positions();
        assert!(all.len() >= 10);
        for game in mancala_engine::GameId::ALL {
            assert!(
                all.iter().filter(|p| p.game() == game).count() >= 2,
                "{game}"
            );
        }
    }

    #[test]
    fn the_node_count_is_stable() {
        let (a, _) = bench(5, |_, _, _, _| {});
        let (b, _) = bench(5, |_, _, _, _| {});
        assert!(a > 0);
        assert_eq!(a, b);
    }
}
