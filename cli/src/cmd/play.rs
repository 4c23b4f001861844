//! `mancala play`: a human against the engine in the terminal. The board
//! is redrawn after every move; the engine's move and score are shown;
//! `undo`, `hint` and `quit` work; bad input is explained, never fatal.

use std::io::{self, BufRead, Write};
use std::time::Duration;

use mancala_engine::search::{self, SearchOptions};
use mancala_engine::{with_position, GameRecord, Move, Rules, Side, Status};
use mancala_eval::Evaluator;

use crate::cmd::show::{board_styled, last_move, status_line, Style};
use crate::input::{bad, read_records, GameArgs, OrBad};
use mancala_cli::lines::{lines, Line};
use mancala_cli::matchplay::engine::EnginePlayer;
use mancala_cli::matchplay::player::{Player, Request};
use mancala_cli::matchplay::spec::{Kind, Level, PlayerSpec};
use mancala_cli::protocol::replay;
use mancala_cli::text;
use mancala_engine::files;
use mancala_engine::pgn::{self, GameText};
use mancala_engine::GameId;

/// Arguments of `mancala play`.
#[derive(clap::Args, Debug)]
pub struct Args {
    #[command(flatten)]
    given: GameArgs,
    /// The opponent: engine settings (`time=1s`, `depth=10`, …), `greedy`,
    /// `random` or `cmd=PROGRAM,…` as for `mancala match --player`
    /// [default: the expert level, `time=1s`].
    #[arg(long, value_name = "SPEC", conflicts_with = "level")]
    engine: Option<String>,
    /// The opponent's strength by name: easy (depth 2), medium (depth 6),
    /// hard (300,000 positions a move) or expert (one second a move).
    #[arg(long, value_name = "LEVEL")]
    level: Option<String>,
    /// The side you play.
    #[arg(long = "as", value_name = "SIDE", default_value = "south")]
    side: String,
    /// Save the game to this record file when it ends (added to the games
    /// already in it; docs/records.md).
    #[arg(long, value_name = "FILE")]
    save: Option<std::path::PathBuf>,
}

const HELP: &str = "Type a pit number to move, or: hint (the engine's suggestion), undo (take back your last move), board, help, quit.";

pub fn run(args: Args) -> anyhow::Result<()> {
    let (pos, rest) = args.given.position.resolve_or_start(GameId::Bohnenspiel)?;
    if let Some(extra) = rest.first() {
        return Err(bad(format!("unexpected argument '{extra}'")));
    }
    let moves = args.given.moves.after(&pos)?;
    let human = match args.side.as_str() {
        "south" | "s" | "S" => Side::South,
        "north" | "n" | "N" => Side::North,
        other => return Err(bad(format!("--as: '{other}' is not south or north"))),
    };
    let (engine_text, opponent) = match (&args.engine, &args.level) {
        (Some(spec), _) => (spec.clone(), format!("mancala {spec}")),
        (None, Some(level)) => {
            let level: Level = level.parse().map_err(|e| bad(format!("--level: {e}")))?;
            (
                level.spec().to_string(),
                format!("mancala level {}", level.name()),
            )
        }
        (None, None) => (
            Level::Expert.spec().to_string(),
            "mancala level expert".to_string(),
        ),
    };
    let spec = PlayerSpec::parse(&engine_text).map_err(|e| bad(format!("--engine: {e}")))?;
    let mut engine = spec.build().map_err(|e| bad(format!("--engine: {e}")))?;
    engine
        .new_game(0)
        .map_err(|e| bad(format!("--engine: {e}")))?;
    // Hints come from the built-in engine, with the opponent's limits if
    // it is the built-in engine, else one second.
    let limits = match spec.kind {
        Kind::Engine { .. } => search::Limits {
            depth: spec.limits.depth,
            time: spec.limits.time,
            nodes: spec.limits.nodes,
        },
        _ => search::Limits {
            time: Some(Duration::from_secs(1)),
            ..Default::default()
        },
    };
    let mut hint = EnginePlayer::new(
        Evaluator::default(),
        16,
        SearchOptions {
            limits,
            ..Default::default()
        },
    );
    let stdin = io::stdin();
    let mut out = io::stdout();
    let record = with_position!(pos, p => {
        let mut game = replay(p, &moves).or_bad()?;
        let style = Style {
            seat: human,
            colour: Style::colour_for_stdout(),
        };
        session(&mut game, human, style, engine.as_mut(), &mut hint, stdin.lock(), &mut out)?;
        let mut record = GameText::new(game.start().into(), game.moves()).or_bad()?;
        record.set_tag("Date", &pgn::today());
        let (me, them) = ("you".to_string(), opponent);
        let (south, north) = if human == Side::South { (me, them) } else { (them, me) };
        record.set_tag("South", &south);
        record.set_tag("North", &north);
        record
    });
    if let Some(path) = &args.save {
        // Another game already in the file is kept: this one is added.
        let mut games = match path.exists() {
            true => read_records("--save ", path)?,
            false => Vec::new(),
        };
        games.push(record);
        files::write_file(path, pgn::write(&games))
            .map_err(|e| anyhow::anyhow!("--save {}: {e}", path.display()))?;
        println!("game saved to {}", path.display());
    }
    Ok(())
}

fn show_result<R: Rules>(
    game: &GameRecord<R>,
    human: Side,
    out: &mut impl Write,
) -> io::Result<()> {
    if let Status::Over([s, n]) = game.status() {
        let how = match game.end_reason() {
            Some(mancala_engine::EndReason::Repetition) => {
                " (third repetition: the board is split)"
            }
            _ => "",
        };
        let mine = if human == Side::South { s } else { n };
        let theirs = if human == Side::South { n } else { s };
        let verdict = match mine.cmp(&theirs) {
            std::cmp::Ordering::Greater => "You win",
            std::cmp::Ordering::Less => "The engine wins",
            std::cmp::Ordering::Equal => "A draw",
        };
        writeln!(
            out,
            "Game over{how}: South {s}, North {n}. {verdict}. (undo or quit)"
        )?;
    }
    Ok(())
}

/// The board of the game's current position from `style`'s seat, its last
/// move marked, then whose move it is or the result.
fn show_board<R: Rules>(
    game: &GameRecord<R>,
    style: Style,
    out: &mut impl Write,
) -> io::Result<()> {
    let last = last_move(game).map(|(l, _)| l).unwrap_or_default();
    let pos = game.current();
    let cycle = game.end_reason() == Some(mancala_engine::EndReason::Repetition);
    write!(
        out,
        "{}{}",
        board_styled(&pos, style, &last),
        status_line(&pos, game.status(), &game.legal_moves(), cycle)
    )
}

/// What the last move did (`South plays 3 and takes 4 seeds …`); called
/// right after a move.
fn last_move_text<R: Rules>(game: &GameRecord<R>) -> String {
    last_move(game).map(|(_, text)| text).unwrap_or_default()
}

/// Runs a game: `human` moves are read from `input`, the other side is
/// `engine`; the board is drawn in `style`. Returns at `quit` or the end
/// of the input.
pub fn session<R: Rules>(
    game: &mut GameRecord<R>,
    human: Side,
    style: Style,
    engine: &mut dyn Player,
    hint: &mut EnginePlayer,
    input: impl BufRead,
    out: &mut impl Write,
) -> io::Result<()> {
    let start = game.start();
    writeln!(out, "You play {}. {HELP}", human.title())?;
    let mut lines = lines(input);
    let mut redraw = true;
    loop {
        // The engine moves whenever it is its turn.
        while game.status() == Status::Ongoing && game.current().side_to_move() != human {
            if redraw {
                show_board(game, style, out)?;
            }
            let request = Request {
                start: start.into(),
                moves: game.moves(),
                current: game.current().into(),
            };
            match engine.choose(&request) {
                Ok(reply) => match game.play(reply.mv) {
                    Ok(()) => {
                        let score = reply.score.map_or(String::new(), |s| {
                            format!(" (its score: {})", text::value(!human, s, reply.exact))
                        });
                        writeln!(out, "Engine: {}{score}", last_move_text(game))?;
                        redraw = true;
                    }
                    Err(e) => {
                        writeln!(
                            out,
                            "The engine tried an illegal move {}: {}. You win by forfeit.",
                            reply.mv, e.reason
                        )?;
                        return Ok(());
                    }
                },
                Err(fault) => {
                    writeln!(out, "The engine failed ({fault}). You win by forfeit.")?;
                    return Ok(());
                }
            }
        }
        if redraw {
            show_board(game, style, out)?;
            show_result(game, human, out)?;
        }
        redraw = false;
        write!(out, "> ")?;
        out.flush()?;
        let Some(line) = lines.next() else {
            writeln!(out)?;
            return Ok(());
        };
        let Line::Text(line) = line else {
            writeln!(out, "That line is too long; type a pit number, or help.")?;
            continue;
        };
        let word = line.trim();
        match word {
            "quit" | "q" | "exit" => return Ok(()),
            "help" | "?" => writeln!(out, "{HELP}")?,
            "" | "board" => redraw = true,
            "undo" | "u" => {
                // Back to the human's turn, at least one human move undone.
                let mut undone = Vec::new();
                while let Some(mv) = game.undo() {
                    undone.push(mv);
                    if game.current().side_to_move() == human {
                        break;
                    }
                }
                if game.current().side_to_move() != human || undone.is_empty() {
                    // Nothing of the human's to take back: restore.
                    for mv in undone.into_iter().rev() {
                        let _ = game.play(mv);
                    }
                    writeln!(out, "Nothing to undo.")?;
                } else {
                    let list: Vec<String> = undone.iter().rev().map(|m| m.to_string()).collect();
                    writeln!(out, "Took back {}.", list.join(" "))?;
                    redraw = true;
                }
            }
            "hint" | "h" => {
                if game.status() != Status::Ongoing {
                    writeln!(out, "The game is over.")?;
                    continue;
                }
                hint.clear();
                let report = hint.think(start, game.moves(), |_| {});
                let pv: Vec<String> = report.pv.iter().map(|m| m.to_string()).collect();
                writeln!(
                    out,
                    "Hint: {} ({} at depth {}; line {})",
                    report.best.map_or("-".into(), |m| m.to_string()),
                    text::of_search(human, report.score, report.exact),
                    report.depth,
                    pv.join(" ")
                )?;
            }
            _ => match word.parse::<u8>() {
                Err(_) => writeln!(out, "'{word}' is not a pit number or a command. {HELP}")?,
                Ok(pit) => {
                    if game.status() != Status::Ongoing {
                        writeln!(out, "The game is over: undo or quit.")?;
                        continue;
                    }
                    if game.play(Move::from_pit(pit)).is_ok() {
                        writeln!(out, "You: {}", last_move_text(game))?;
                        redraw = true;
                    } else if let Err(e) = game.current().try_play(Move::from_pit(pit)) {
                        let legal: Vec<String> =
                            game.legal_moves().iter().map(|m| m.to_string()).collect();
                        writeln!(
                            out,
                            "Pit {pit} is not a legal move: {}. Legal moves: {}.",
                            e.reason,
                            legal.join(" ")
                        )?;
                    }
                }
            },
        }
    }
}
