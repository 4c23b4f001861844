//! The `mancala engine` line protocol run on stdin and stdout, for
//! graphical front ends and match runners (docs/protocol.md): the commands
//! read a line at a time (the grammar is [`crate::protocol`]), a search on
//! a thread of its own answering `info` lines and `bestmove`; a bad
//! command is reported on stderr and ignored.

use std::io::Write;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::thread::JoinHandle;

use mancala_engine::search::{Report, Search, SearchOptions};
use mancala_engine::tablebase::TableSet;
use mancala_engine::tt::TranspositionTable;
use mancala_engine::{with_position, AnyPosition, GameId, Move, Position, Rules, Status};
use mancala_eval::Evaluator;

use crate::lines::{lines, Line, MAX_LINE};
use crate::protocol::{parse_go, parse_position, parse_threads, replay, CommandError};
use crate::tables::OpenTables;
use crate::text::{show_moves, whole_seeds};

/// The engine's state between commands.
struct Engine<'a> {
    start: AnyPosition,
    moves: Vec<Move>,
    tt: Arc<TranspositionTable>,
    eval: Arc<Evaluator>,
    threads: usize,
    stop: Arc<AtomicBool>,
    thinking: Option<JoinHandle<()>>,
    /// Opens the tables of a game (the front end's directory and warnings).
    open: OpenTables<'a>,
    /// The tables of each game met so far, opened on first use.
    tables: Vec<(GameId, Arc<TableSet>)>,
}

/// The first failed write of a protocol line (a full disk, a reader
/// gone): the engine stops at the next command and reports it.
static WRITE_FAILED: std::sync::OnceLock<(std::io::ErrorKind, String)> = std::sync::OnceLock::new();

/// Prints one protocol line at once (the search thread too); a failure is
/// kept in [`WRITE_FAILED`].
fn say(line: &str) {
    let mut out = std::io::stdout().lock();
    if let Err(e) = writeln!(out, "{line}").and_then(|()| out.flush()) {
        let _ = WRITE_FAILED.set((e.kind(), e.to_string()));
    }
}

/// The error of the first failed write, if one failed.
fn write_failure() -> Option<anyhow::Error> {
    WRITE_FAILED.get().map(|(kind, text)| {
        anyhow::Error::new(std::io::Error::new(*kind, text.clone()))
            .context("cannot write the output")
    })
}

/// The `info` line of an iteration.
pub fn info_line(r: &Report) -> String {
    let score = if r.exact {
        format!("{} exact", whole_seeds(r.score))
    } else {
        format!("{:.2}", mancala_engine::search::seeds(r.score))
    };
    format!(
        "info depth {} score {score} nodes {} nps {} time {} pv {}",
        r.depth,
        r.nodes,
        r.nps(),
        r.elapsed.as_millis(),
        show_moves(&r.pv)
    )
}

impl Engine<'_> {
    fn wait(&mut self) {
        if let Some(handle) = self.thinking.take() {
            let _ = handle.join();
        }
    }

    fn stop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
        self.wait();
    }

    /// The tables of `game`, opened (with a warning per refused file) the
    /// first time.
    fn tables(&mut self, game: GameId) -> Arc<TableSet> {
        if let Some((_, t)) = self.tables.iter().find(|(g, _)| *g == game) {
            return t.clone();
        }
        let t = Arc::new((self.open)(&[game]));
        self.tables.push((game, t.clone()));
        t
    }

    fn position(&mut self, words: &[&str]) -> Result<(), CommandError> {
        let set = parse_position(words)?;
        self.tables(set.start.game());
        self.start = set.start;
        self.moves = set.moves;
        Ok(())
    }

    fn go(&mut self, words: &[&str]) -> Result<(), CommandError> {
        let limits = parse_go(words)?;
        self.stop();
        self.stop.store(false, Ordering::Relaxed);
        let options = SearchOptions {
            limits,
            threads: self.threads,
            score_all_moves: false,
        };
        let (tt, eval, stop, moves) = (
            self.tt.clone(),
            self.eval.clone(),
            self.stop.clone(),
            self.moves.clone(),
        );
        let start = self.start;
        let tables = self.tables(start.game());
        self.thinking = Some(std::thread::spawn(
            move || with_position!(start, p => think(p, &moves, &tables, &tt, &eval, &options, &stop)),
        ));
        Ok(())
    }
}

/// Searches the position after `moves` and answers `bestmove`.
fn think<R: Rules>(
    start: Position<R>,
    moves: &[Move],
    tables: &TableSet,
    tt: &TranspositionTable,
    eval: &Evaluator,
    options: &SearchOptions,
    stop: &AtomicBool,
) {
    let Ok(game) = replay(start, moves) else {
        say("bestmove none");
        return;
    };
    if game.status() != Status::Ongoing {
        say("bestmove none");
        return;
    }
    let positions = game.positions();
    let (root, history) = positions.split_last().expect("a record has a position");
    let report = Search::new(root, eval, tt)
        .history(history)
        .tables(tables.get())
        .options(*options)
        .stop(stop)
        .run(|r| say(&info_line(r)));
    match report.best {
        Some(m) => say(&format!("bestmove {m}")),
        None => say("bestmove none"),
    }
}

/// Runs the protocol on this process's stdin and stdout until `quit` or
/// the end of the input: the table `tt`, the evaluation `eval`, `threads`
/// search threads to begin with; `open` opens a game's tables the first
/// time one of its positions is set.
pub fn run(
    tt: TranspositionTable,
    eval: Evaluator,
    threads: usize,
    open: OpenTables<'_>,
) -> anyhow::Result<()> {
    let mut engine = Engine {
        start: AnyPosition::start(GameId::Bohnenspiel),
        moves: Vec::new(),
        tt: Arc::new(tt),
        eval: Arc::new(eval),
        threads,
        stop: Arc::new(AtomicBool::new(false)),
        thinking: None,
        open,
        tables: Vec::new(),
    };
    for line in lines(std::io::stdin().lock()) {
        let line = match line {
            Line::Text(text) => text,
            Line::TooLong(bytes) => {
                eprintln!("error: a line of {bytes} bytes (at most {MAX_LINE}) is ignored");
                continue;
            }
        };
        let words: Vec<&str> = line.split_whitespace().collect();
        let Some((&command, rest)) = words.split_first() else {
            continue;
        };
        let result = match command {
            "position" => {
                engine.stop();
                engine.position(rest)
            }
            "go" => engine.go(rest),
            "stop" => {
                engine.stop();
                Ok(())
            }
            "isready" => {
                say("readyok");
                Ok(())
            }
            "newgame" => {
                engine.stop();
                engine.tt.clear();
                Ok(())
            }
            "threads" => parse_threads(rest).map(|t| engine.threads = t),
            "quit" => break,
            other => Err(CommandError::Unknown(other.to_string())),
        };
        if let Err(e) = result {
            eprintln!("error: {e}");
        }
        if write_failure().is_some() {
            break;
        }
    }
    // End of input or quit: stop thinking (answering bestmove) and leave.
    engine.stop();
    // Output that could not be written is an error (status 1, one line; a
    // reader that stopped reading is not: `main` sees the broken pipe).
    write_failure().map_or(Ok(()), Err)
}
