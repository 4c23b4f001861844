//! `mancala review`: every move of a game scored against the engine's best
//! ([`mancala_tools::review`]), as an annotated record, JSON or an SVG graph.

use std::path::PathBuf;
use std::time::Duration;

use mancala_engine::pgn::{self, WrittenGame};
use mancala_engine::search::{Limits, SearchOptions};
use mancala_engine::{files, Side};
use mancala_tools::interrupt::{self, Interrupted};
use mancala_tools::review::{self, PlyReview, Review, ReviewOptions};
use mancala_tools::text;
use serde::Serialize;

use crate::input::{bad, read_first_records, search_limits, GameArgs, OrBad};
use crate::options::{EngineArgs, TableArgs};

/// Arguments of `mancala review`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// A record file (docs/records.md), or a position with --moves.
    #[command(flatten)]
    given: GameArgs,
    /// Which game of the record file (from 1).
    #[arg(long, default_value_t = 1, value_name = "N")]
    index: usize,
    /// Search time for each position (`500ms`, `1s`, `2m`; a bare number is
    /// milliseconds) [default: 1s, unless --depth or --nodes is given].
    /// Time-limited reviews vary a little from run to run.
    #[arg(long, value_name = "TIME", value_parser = crate::input::time_arg)]
    time: Option<Duration>,
    /// Search each position to this depth (plies). With --threads 1,
    /// --depth or --nodes (and no --time) repeats a review exactly.
    #[arg(long, short)]
    depth: Option<u32>,
    /// Search each position for about this many nodes.
    #[arg(long, short)]
    nodes: Option<u64>,
    /// One JSON object (docs/protocol.md) instead of the annotated record.
    #[arg(long)]
    json: bool,
    /// Also draw the score over the game (SVG) into this file.
    #[arg(long, value_name = "FILE")]
    svg: Option<PathBuf>,
    #[command(flatten)]
    engine: EngineArgs,
    #[command(flatten)]
    tables: TableArgs,
}

#[derive(Serialize)]
struct JsonPly {
    ply: usize,
    side: &'static str,
    #[serde(rename = "move")]
    mv: u8,
    best: u8,
    before: i64,
    after: i64,
    loss: i64,
    mark: Option<&'static str>,
    exact: bool,
}

#[derive(Serialize)]
struct JsonSide {
    moves: usize,
    average_loss: f64,
    accuracy: f64,
    inaccuracies: usize,
    mistakes: usize,
    blunders: usize,
}

#[derive(Serialize)]
struct JsonSummary {
    #[serde(rename = "S")]
    south: JsonSide,
    #[serde(rename = "N")]
    north: JsonSide,
}

#[derive(Serialize)]
struct JsonReview {
    plies: Vec<JsonPly>,
    summary: JsonSummary,
    /// The search threads each position's search ran.
    threads: usize,
}

/// The game to review: from a record file (the first free argument names
/// one) or a position and `--moves`.
fn game(args: &Args) -> anyhow::Result<WrittenGame> {
    let first = args.given.position.free.first();
    if let Some(path) = first.map(PathBuf::from).filter(|p| p.is_file()) {
        if args.given.moves.moves.is_some() || args.given.position.free.len() > 1 {
            return Err(bad("a record file takes no position or --moves"));
        }
        if args.index == 0 {
            return Err(bad("--index 0: games are counted from 1"));
        }
        // Only the games up to the one reviewed are parsed.
        let mut games = read_first_records("", &path, args.index)?;
        let n = games.len();
        if args.index > n {
            return Err(bad(format!(
                "--index {}: {} holds {n} game(s)",
                args.index,
                path.display()
            )));
        }
        return Ok(games.swap_remove(args.index - 1));
    }
    // Something there that is not a file (a FIFO, a directory) and not a
    // position: say so, not that the position is bad.
    let (start, rest) = match args.given.position.resolve() {
        Ok(r) => r,
        Err(e) => {
            if let Some(p) = first.map(PathBuf::from).filter(|p| p.exists()) {
                return Err(bad(format!("{}: not a regular file", p.display())));
            }
            return Err(e);
        }
    };
    if let Some(extra) = rest.first() {
        return Err(bad(format!("unexpected argument '{extra}'")));
    }
    let moves = args.given.moves.after(&start)?;
    WrittenGame::new(start, &moves).or_bad()
}

fn whole(v: f64) -> i64 {
    v.round() as i64
}

fn side_json(s: review::SideSummary) -> JsonSide {
    JsonSide {
        moves: s.moves,
        average_loss: (s.average_loss * 100.0).round() / 100.0,
        accuracy: (s.accuracy * 10.0).round() / 10.0,
        inaccuracies: s.inaccuracies,
        mistakes: s.mistakes,
        blunders: s.blunders,
    }
}

/// The comment of a marked move in the annotated record: what it is, the
/// value after it and the best move with its value, named for the mover
/// (`{mistake: South -1.12 seeds; best 2: South +2.88 seeds}`,
/// `{blunder: North wins by 10, proven; best 6: South wins by 8,
/// proven}`). An unmarked move gets none.
fn comment(p: &PlyReview) -> Option<String> {
    let verdict = p.verdict?;
    Some(format!(
        "{}: {}; best {}: {}",
        verdict.name(),
        text::value(p.side, p.after, p.exact),
        p.best,
        text::value(p.side, p.before, p.exact)
    ))
}

/// `1 blunder`, `2 blunders`.
fn count(n: usize, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

pub fn run(args: Args) -> anyhow::Result<()> {
    args.engine.check()?;
    let mut record = game(&args)?;
    let eval = args.engine.evaluator()?;
    let limits = limits_of(&args)?;
    let tables = args.tables.open(&[record.start.game()]);
    let tt = args.engine.table()?;
    let options = ReviewOptions {
        search: SearchOptions {
            limits,
            threads: args.engine.threads_or_cores(),
            score_all_moves: true,
        },
        tt: &tt,
    };
    let svg_file = args
        .svg
        .as_deref()
        .map(files::AtomicFile::create)
        .transpose()
        .map_err(|e| bad(format!("--svg: {e}")))?;
    let moves = record.plain_moves();
    let bar = mancala_tools::progress::bar("review", moves.len() as u64, "moves");
    let game = mancala_tools::protocol::replay_any(record.start, &moves).or_bad()?;
    let review: Review = review::review(&game, &options, &eval, &tables, interrupt::flag(), |_| {
        bar.inc(1)
    });
    bar.finish_and_clear();
    if args.json {
        let out = JsonReview::of(&review, options.search.threads);
        println!("{}", serde_json::to_string(&out)?);
    } else {
        print_review(&mut record, &review);
    }
    if let Some(file) = svg_file {
        write_svg(file, &record, &review)?;
    }
    if interrupt::requested() {
        return Err(Interrupted.into());
    }
    Ok(())
}

/// The search's limits a move: those given, else a second.
fn limits_of(args: &Args) -> anyhow::Result<Limits> {
    let mut limits = search_limits(args.depth, args.time, args.nodes)?;
    if limits == Limits::default() {
        limits.time = Some(Duration::from_secs(1));
    }
    Ok(limits)
}

impl JsonReview {
    /// The JSON of a review, `threads` having searched it.
    fn of(review: &Review, threads: usize) -> Self {
        let plies = review
            .plies
            .iter()
            .map(|p| JsonPly {
                ply: p.ply,
                side: match p.side {
                    Side::South => "S",
                    Side::North => "N",
                },
                mv: p.mv.pit(),
                best: p.best.pit(),
                before: whole(p.before),
                after: whole(p.after),
                loss: whole(p.loss()),
                mark: p.verdict.map(|v| v.name()),
                exact: p.exact,
            })
            .collect();
        JsonReview {
            plies,
            summary: JsonSummary {
                south: side_json(review.summary(Side::South)),
                north: side_json(review.summary(Side::North)),
            },
            threads,
        }
    }
}

/// The review as text: the game record annotated (marks and comments),
/// then each side's accuracy and counts.
fn print_review(record: &mut WrittenGame, review: &Review) {
    for p in &review.plies {
        let m = &mut record.moves[p.ply - 1];
        m.mark = p.verdict.map(|v| v.mark());
        m.comment = comment(p);
    }
    record.set_tag("Annotator", "mancala review");
    print!("{}", pgn::write(std::slice::from_ref(record)));
    for side in Side::BOTH {
        let s = review.summary(side);
        println!(
            "; {}: accuracy {:.0}%, average loss {} seeds, {}, {}, {}, {}",
            side.title(),
            s.accuracy,
            text::seeds(s.average_loss).trim_start_matches('+'),
            count(s.moves, "move", "moves"),
            count(s.inaccuracies, "inaccuracy", "inaccuracies"),
            count(s.mistakes, "mistake", "mistakes"),
            count(s.blunders, "blunder", "blunders")
        );
    }
}

/// The review's chart, titled with the game and its players, to `file`.
fn write_svg(file: files::AtomicFile, record: &WrittenGame, review: &Review) -> anyhow::Result<()> {
    let result = match record.result {
        Some([s, n]) => format!("South {s}, North {n}"),
        None => "unfinished".to_string(),
    };
    let player = |side: Side| match record.tag(side.title()) {
        Some(name) => format!("{name} ({})", side.title()),
        None => side.title().to_string(),
    };
    let title = format!(
        "{}: {} vs {}, {result}",
        record.start.game(),
        player(Side::South),
        player(Side::North)
    );
    let text = review::svg(review, &title);
    file.commit(|w| std::io::Write::write_all(w, text.as_bytes()))
        .map_err(|e| anyhow::anyhow!("--svg: {e}"))
}
