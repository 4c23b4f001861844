//! `mancala analyze`: the best move, its score, the principal variation and
//! every move's score (docs/protocol.md), with the endgame tablebases of the position's
//! game when they are there (proven scores then come out `"exact":true`).

use std::time::Duration;

use mancala_engine::book::{Book, Entry as BookEntry};
use mancala_engine::search::score::SCALE;
use mancala_engine::search::{Limits, Report, Search, SearchOptions};
use mancala_engine::{with_position, AnyPosition, Side};
use mancala_tools::protocol::replay;
use mancala_tools::text::{self, precise_seeds, show_moves, whole_seeds};
use serde::Serialize;

use mancala_tools::interrupt::{self, Interrupted};

use crate::input::{bad, search_limits, time_arg, GameArgs, OrBad};
use crate::options::{EngineArgs, TableArgs};
use mancala_engine::GameId;

/// The search time when no limit is given.
pub const DEFAULT_TIME_MS: u64 = 5000;

/// Arguments of `mancala analyze`.
#[derive(clap::Args, Debug)]
pub struct Args {
    #[command(flatten)]
    given: GameArgs,
    /// Search until Ctrl-C (or a proof), then print the result.
    #[arg(long, conflicts_with_all = ["depth", "time", "nodes"])]
    infinite: bool,
    /// Stop after completing this depth (plies).
    #[arg(long, short)]
    depth: Option<u32>,
    /// Stop after this long (`500ms`, `2s`, `1m`; a bare number is
    /// milliseconds).
    #[arg(long, short, value_name = "TIME", value_parser = time_arg)]
    time: Option<Duration>,
    /// Stop after about this many nodes.
    #[arg(long, short)]
    nodes: Option<u64>,
    #[command(flatten)]
    engine: EngineArgs,
    /// Print one JSON object (docs/protocol.md) instead of the human report.
    #[arg(long)]
    json: bool,
    #[command(flatten)]
    tables: TableArgs,
}

/// A move and its score in the JSON report.
#[derive(Serialize)]
struct MoveJson {
    #[serde(rename = "move")]
    mv: u8,
    /// In whole seeds, as the contract has it.
    score: i64,
    /// In seeds, to two decimals (the search's own precision).
    seeds: f64,
    /// Whether this move's score is proven.
    exact: bool,
}

/// The JSON report of docs/protocol.md.
#[derive(Serialize)]
struct ReportJson {
    best: Option<u8>,
    score: i64,
    seeds: f64,
    exact: bool,
    depth: u32,
    nodes: u64,
    nps: u64,
    /// The search threads that ran.
    threads: usize,
    pv: Vec<u8>,
    moves: Vec<MoveJson>,
}

/// Why the search stopped, for the human report.
fn stop_reason(report: &Report, limits: &Limits, interrupted: bool) -> String {
    if interrupted {
        return "interrupted (Ctrl-C)".to_string();
    }
    if report.exact {
        return "the score is proven".to_string();
    }
    if limits.depth.is_some_and(|d| report.depth >= d) {
        return format!("depth {} reached", report.depth);
    }
    if limits.nodes.is_some_and(|n| report.nodes >= n) {
        return format!("the node limit ({}) reached", limits.nodes.unwrap_or(0));
    }
    match limits.time {
        Some(t) if report.elapsed < t => format!(
            "time: the next iteration would not have finished within {} ms",
            t.as_millis()
        ),
        Some(t) => format!("the time limit ({} ms) reached", t.as_millis()),
        None => format!(
            "depth {} reached (the deepest the search goes)",
            report.depth
        ),
    }
}

/// One line per completed iteration; `side` is the side to move, whose
/// score it is.
pub fn iteration_line(side: Side, r: &Report) -> String {
    format!(
        "depth {:>3}  score {:<24}  nodes {:>12}  nps {:>10}  time {:>7} ms  pv {}",
        r.depth,
        text::of_search(side, r.score, r.exact),
        r.nodes,
        r.nps(),
        r.elapsed.as_millis(),
        show_moves(&r.pv)
    )
}

pub fn run(args: Args) -> anyhow::Result<()> {
    let (pos, rest) = args.given.position.resolve_or_start(GameId::Bohnenspiel)?;
    if let Some(extra) = rest.first() {
        return Err(bad(format!("unexpected argument '{extra}'")));
    }
    let moves = args.given.moves.after(&pos)?;
    let limits = search_limits(args.depth, args.time, args.nodes)?;
    args.engine.check()?;
    let eval = args.engine.evaluator()?;
    let options = SearchOptions {
        limits: or_default_time(limits, args.infinite),
        threads: args.engine.threads_or_cores(),
        score_all_moves: true,
    };
    let tables = args.tables.open(&[pos.game()]);
    let tt = args.engine.table()?;
    // Ctrl-C (installed in main) stops the search; its best result is
    // printed as usual.
    let stop = interrupt::flag();
    let json = args.json;
    if !json {
        println!("position {pos}");
        if !moves.is_empty() {
            println!(
                "moves    {} (the position searched is after them)",
                show_moves(&moves)
            );
        }
    }
    let mover;
    let book_line;
    let mut report = with_position!(pos, p => {
        let game = replay(p, &moves).or_bad()?;
        let (root, history) = game.positions().split_last().expect("a record has a position");
        mover = root.side_to_move();
        // A position of the game's book of proven moves (Bosh,
        // Djenon-abe) has a proven value, where the history allows it.
        book_line = Book::shipped(pos.game()).and_then(|book| {
            let reached = AnyPosition::from(*root);
            book.lookup(&reached, history.iter().map(|h| h.tallies())).cloned()
        });
        // A game the moves ended by the cycle rule is reported over by the
        // search itself (it counts the history).
        Search::new(root, &eval, &tt)
            .history(history)
            .tables(tables.get())
            .options(options)
            .stop(stop)
            .run(|r| {
                if !json {
                    println!("{}", iteration_line(mover, r));
                }
            })
    });
    // Why the search stopped, said of the search itself (a book's value
    // does not stop it).
    let stopped = stop_reason(&report, &options.limits, interrupt::requested());
    if let Some(entry) = &book_line {
        with_book(&mut report, entry);
    }
    if json {
        println!(
            "{}",
            serde_json::to_string(&ReportJson::of(&report, options.threads))?
        );
    } else {
        if let Some(entry) = &book_line {
            println!(
                "book     move {} keeps the value: {} (the book of proven moves, positions/book/{}.txt)",
                entry.mv,
                text::of_search(mover, entry.margin * SCALE, true),
                pos.game()
            );
        }
        print_report(mover, &report, &options, &stopped);
    }
    if interrupt::requested() {
        return Err(Interrupted.into());
    }
    Ok(())
}

/// The search's report with the book's proven value: its move is the best,
/// its margin the (exact) score, and that move's score is proven.
fn with_book(report: &mut Report, entry: &BookEntry) {
    let score = entry.margin * SCALE;
    if report.best != Some(entry.mv) {
        report.pv = vec![entry.mv];
    }
    report.best = Some(entry.mv);
    report.score = score;
    report.exact = true;
    if let Some(m) = report.moves.iter_mut().find(|m| m.mv == entry.mv) {
        m.score = score;
        m.proven = true;
    }
    report.moves.sort_by_key(|m| -m.score);
}

/// `limits`, or a default time (said on stderr) when none is given and the
/// search is not `--infinite`.
fn or_default_time(mut limits: Limits, infinite: bool) -> Limits {
    if limits == Limits::default() && !infinite {
        eprintln!(
            "no limit given: searching for {DEFAULT_TIME_MS} ms (use --depth, --time, --nodes or --infinite)"
        );
        limits.time = Some(Duration::from_millis(DEFAULT_TIME_MS));
    }
    limits
}

impl ReportJson {
    /// The JSON of a search's report, `threads` having run.
    fn of(report: &Report, threads: usize) -> Self {
        ReportJson {
            best: report.best.map(|m| m.pit()),
            score: whole_seeds(report.score),
            seeds: precise_seeds(report.score),
            exact: report.exact,
            depth: report.depth,
            nodes: report.nodes,
            nps: report.nps(),
            threads,
            pv: report.pv.iter().map(|m| m.pit()).collect(),
            moves: report
                .moves
                .iter()
                .map(|m| MoveJson {
                    mv: m.mv.pit(),
                    score: whole_seeds(m.score),
                    seeds: precise_seeds(m.score),
                    exact: m.proven,
                })
                .collect(),
        }
    }
}

/// The report as text: the best move, its score and the search's figures,
/// every move's score, why the search stopped.
fn print_report(mover: Side, report: &Report, options: &SearchOptions, stopped: &str) {
    match report.best {
        None => println!(
            "the game is over: {}",
            text::of_search(mover, report.score, true)
        ),
        Some(best) => {
            println!(
                "best {best}  score {}  depth {}  nodes {}  nps {}  threads {}  time {} ms  hash {:.1}% full",
                text::of_search(mover, report.score, report.exact),
                report.depth,
                report.nodes,
                report.nps(),
                options.threads,
                report.elapsed.as_millis(),
                report.hashfull as f64 / 10.0
            );
            let moves: Vec<String> = report
                .moves
                .iter()
                .map(|m| {
                    format!(
                        "{} {}",
                        m.mv,
                        text::short(mancala_engine::search::seeds(m.score), m.proven)
                    )
                })
                .collect();
            println!(
                "moves ({}'s score in seeds) {}",
                mover.title(),
                moves.join(", ")
            );
            println!("stopped: {stopped}");
        }
    }
}
