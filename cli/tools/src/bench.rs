//! The bench: a fixed-depth, one-thread search of the positions in
//! `positions/bench.txt` ([`run`]). The one-thread search is deterministic,
//! so the node total is a signature of the search's behaviour: it changes
//! only when the search or the evaluation does. [`speedup`] times several
//! threads against one to equal depth, [`equal_time`] compares their node
//! rates in equal time, and [`start_to_depth`] times the Bohnenspiel start
//! to fixed depths, one and several threads alternated.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use mancala_engine::search::{Limits, Report, Search, SearchOptions};
use mancala_engine::tt::TranspositionTable;
use mancala_engine::{files, with_position, AnyPosition, AnyRecord, Move};
use mancala_eval::Evaluator;

/// The default bench depth.
pub const DEFAULT_DEPTH: u32 = 12;

/// Table size for each bench search (MiB), cleared between positions.
pub const HASH_MB: usize = 16;

/// The bench positions (`positions/bench.txt`).
pub fn positions() -> Vec<AnyPosition> {
    files::parse_positions(files::BENCH).expect("positions/bench.txt holds valid positions")
}

/// A search of `pos` to `depth` on `threads` threads with the default
/// evaluation, sharing `tt`.
pub fn search_to_depth(
    pos: &AnyPosition,
    depth: u32,
    threads: usize,
    tt: &TranspositionTable,
) -> Report {
    let limits = Limits {
        depth: Some(depth),
        ..Limits::default()
    };
    search_within(pos, limits, threads, false, tt)
}

/// A search of `pos` within `limits` on `threads` threads (every root move
/// scored exactly with `all_moves`, as `analyze` does) with the default
/// evaluation, sharing `tt`.
pub fn search_within(
    pos: &AnyPosition,
    limits: Limits,
    threads: usize,
    all_moves: bool,
    tt: &TranspositionTable,
) -> Report {
    let options = SearchOptions {
        limits,
        threads,
        score_all_moves: all_moves,
    };
    let eval = Evaluator::default();
    with_position!(pos, p => Search::new(p, &eval, tt).options(options).run(|_| {}))
}

/// One bench position's search.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BenchLine {
    /// The position.
    pub position: AnyPosition,
    /// Nodes searched.
    pub nodes: u64,
    /// Time taken.
    pub time: Duration,
    /// The best move found.
    pub best: Option<Move>,
}

/// Runs the bench to `depth`, calling `each` after every position; returns
/// the total nodes and time.
pub fn run(depth: u32, mut each: impl FnMut(&BenchLine)) -> (u64, Duration) {
    let tt = TranspositionTable::new(HASH_MB);
    let (mut nodes, mut time) = (0, Duration::ZERO);
    for position in positions() {
        tt.clear();
        let r = search_to_depth(&position, depth, 1, &tt);
        each(&BenchLine {
            position,
            nodes: r.nodes,
            time: r.elapsed,
            best: r.best,
        });
        nodes += r.nodes;
        time += r.elapsed;
    }
    (nodes, time)
}

/// The one-thread search of `pos` until an iteration completes after
/// `min`: that depth and the time it took (or the last depth, if the root
/// was proven first).
fn depth_taking(pos: &AnyPosition, min: Duration, tt: &TranspositionTable) -> (u32, Duration) {
    let eval = Evaluator::default();
    let stop = AtomicBool::new(false);
    let on_iteration = |r: &Report| {
        if r.elapsed >= min {
            stop.store(true, Ordering::Relaxed);
        }
    };
    let r = with_position!(pos, p => Search::new(p, &eval, tt).stop(&stop).run(on_iteration));
    (r.depth, r.elapsed)
}

/// One position of [`speedup`].
#[derive(Clone, Debug, PartialEq)]
pub struct SpeedupLine {
    /// The position.
    pub position: AnyPosition,
    /// The depth both searches reached.
    pub depth: u32,
    /// One thread's time.
    pub one: Duration,
    /// The threads' time.
    pub many: Duration,
}

impl SpeedupLine {
    /// How many times faster the threads were.
    pub fn ratio(&self) -> f64 {
        self.one.as_secs_f64() / self.many.as_secs_f64().max(1e-9)
    }
}

/// For every bench position: the depth one thread needs at least `min`
/// for, then the time `threads` threads take to that depth, each search
/// with a cleared table of `hash` MiB. `each` sees every line; returns the
/// median ratio.
pub fn speedup(threads: usize, min: Duration, hash: usize, each: impl FnMut(&SpeedupLine)) -> f64 {
    over_positions(
        hash,
        |position, tt| {
            tt.clear();
            let (depth, one) = depth_taking(&position, min, tt);
            tt.clear();
            let many = search_to_depth(&position, depth.max(1), threads, tt).elapsed;
            SpeedupLine {
                position,
                depth,
                one,
                many,
            }
        },
        SpeedupLine::ratio,
        each,
    )
}

/// Measures every bench position with `measure` (given a table of `hash`
/// MiB to clear as it needs), hands each line to `each`, and returns the
/// median of the lines' `ratio`.
fn over_positions<L>(
    hash: usize,
    mut measure: impl FnMut(AnyPosition, &TranspositionTable) -> L,
    ratio: impl Fn(&L) -> f64,
    mut each: impl FnMut(&L),
) -> f64 {
    let tt = TranspositionTable::new(hash);
    let mut ratios = Vec::new();
    for position in positions() {
        let line = measure(position, &tt);
        each(&line);
        ratios.push(ratio(&line));
    }
    median(ratios)
}

/// One bench position of [`equal_time`]: nodes a second with one thread
/// and with several, each searching for the same time.
#[derive(Clone, Debug, PartialEq)]
pub struct EqualTimeLine {
    /// The position.
    pub position: AnyPosition,
    /// One thread's nodes a second.
    pub one: u64,
    /// The threads' nodes a second (all threads together).
    pub many: u64,
}

impl EqualTimeLine {
    /// How many times the threads' node rate is one thread's.
    pub fn ratio(&self) -> f64 {
        self.many as f64 / (self.one as f64).max(1.0)
    }
}

/// For every bench position: one thread and then `threads` threads each
/// search it for `time` (a cleared table of `hash` MiB each time); `each`
/// sees every line. Returns the median ratio of the node rates. (A search
/// the tables or the game's end finish early still counts its rate.)
pub fn equal_time(
    threads: usize,
    time: Duration,
    hash: usize,
    each: impl FnMut(&EqualTimeLine),
) -> f64 {
    let limits = Limits {
        time: Some(time),
        ..Limits::default()
    };
    over_positions(
        hash,
        |position, tt| {
            tt.clear();
            let one = search_within(&position, limits, 1, false, tt).nps();
            tt.clear();
            let many = search_within(&position, limits, threads, false, tt).nps();
            EqualTimeLine {
                position,
                one,
                many,
            }
        },
        EqualTimeLine::ratio,
        each,
    )
}

/// One row of [`start_to_depth`]: the Bohnenspiel start searched to a
/// depth, in one mode, by one thread and by several, each `runs` times.
#[derive(Clone, Debug, PartialEq)]
pub struct StartLine {
    /// The depth.
    pub depth: u32,
    /// Every root move scored exactly (`analyze`), or the best move only.
    pub all_moves: bool,
    /// The threads of the `many` searches.
    pub threads: usize,
    /// One thread's times, in the order run.
    pub one: Vec<Duration>,
    /// The threads' times, in the order run.
    pub many: Vec<Duration>,
}

impl StartLine {
    /// The median of one thread's times over the median of the threads'.
    pub fn ratio(&self) -> f64 {
        let secs = |v: &[Duration]| median(v.iter().map(Duration::as_secs_f64).collect());
        secs(&self.one) / secs(&self.many).max(1e-9)
    }
}

/// The Bohnenspiel start searched to each of `depths`, for the best move
/// and for every move's score, by `base` threads and by `threads` threads,
/// alternated `runs` times (so a machine's load falls on both alike), each
/// search with a cleared table of `hash` MiB and no endgame tables; `each`
/// sees every row.
pub fn start_to_depth(
    base: usize,
    threads: usize,
    depths: &[u32],
    runs: usize,
    hash: usize,
    mut each: impl FnMut(&StartLine),
) {
    let tt = TranspositionTable::new(hash);
    let start = AnyPosition::start(mancala_engine::GameId::Bohnenspiel);
    for all_moves in [false, true] {
        for &depth in depths {
            let limits = Limits {
                depth: Some(depth),
                ..Limits::default()
            };
            let mut line = StartLine {
                depth,
                all_moves,
                threads,
                one: Vec::new(),
                many: Vec::new(),
            };
            for _ in 0..runs.max(1) {
                for (t, times) in [(base, &mut line.one), (threads, &mut line.many)] {
                    tt.clear();
                    times.push(search_within(&start, limits, t, all_moves, &tt).elapsed);
                }
            }
            each(&line);
        }
    }
}

/// The median of `values` (the mean of the middle two for an even count;
/// `NaN` for none).
pub fn median(mut values: Vec<f64>) -> f64 {
    values.sort_by(f64::total_cmp);
    let n = values.len();
    match n {
        0 => f64::NAN,
        _ if n % 2 == 1 => values[n / 2],
        _ => (values[n / 2 - 1] + values[n / 2]) / 2.0,
    }
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
        let mut lines = 0;
        let (a, _) = run(5, |_| lines += 1);
        let (b, _) = run(5, |_| {});
        assert_eq!(lines, positions().len());
        assert!(a > 0);
        assert_eq!(a, b);
    }

    #[test]
    fn medians() {
        assert_eq!(median(vec![3.0, 1.0, 2.0]), 2.0);
        assert_eq!(median(vec![4.0, 1.0, 2.0, 3.0]), 2.5);
        assert!(median(Vec::new()).is_nan());
    }
}

/// The game `bench --review` reviews: the first 40 moves (80 plies) of a
/// Bohnenspiel self-play game (`positions/review/bohnenspiel-40-moves.txt`).
pub const REVIEW_GAME: &str = include_str!("../../../positions/review/bohnenspiel-40-moves.txt");

/// What [`review`] measured.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ReviewBench {
    /// Plies reviewed.
    pub plies: usize,
    /// Plies whose values were both proven.
    pub exact: usize,
    /// Wall time of the whole review.
    pub wall: Duration,
}

/// Reviews [`REVIEW_GAME`] as `mancala review` does, at `time` a position
/// on `threads` threads with a `hash_mb` table and `tables`; `each` sees
/// every ply as it is done.
pub fn review(
    time: Duration,
    threads: usize,
    hash_mb: usize,
    tables: &mancala_engine::tablebase::TableSet,
    mut each: impl FnMut(&crate::review::PlyReview),
) -> ReviewBench {
    use crate::review::{self, ReviewOptions};
    let games = mancala_engine::pgn::parse(REVIEW_GAME).expect("the review game is a valid record");
    let game = &games[0];
    let tt = TranspositionTable::new(hash_mb);
    let options = ReviewOptions {
        search: SearchOptions {
            limits: Limits {
                time: Some(time),
                ..Limits::default()
            },
            threads,
            score_all_moves: true,
        },
        tt: &tt,
    };
    let started = std::time::Instant::now();
    let game = AnyRecord::replay(game.start, &game.plain_moves())
        .expect("the review game's moves are legal");
    let done = review::review(
        &game,
        &options,
        &Evaluator::default(),
        tables,
        &AtomicBool::new(false),
        &mut each,
    );
    ReviewBench {
        plies: done.plies.len(),
        exact: done.plies.iter().filter(|p| p.exact).count(),
        wall: started.elapsed(),
    }
}
