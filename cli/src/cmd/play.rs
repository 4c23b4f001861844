//! `mancala play`: a human against the engine in the terminal. The board
//! is redrawn after every move; the engine's move and score are shown;
//! `moves`, `hint`, `undo`, `save`, `resign`, `new` and `quit` work; bad
//! input is explained, never fatal. With `--save FILE` the game is written
//! to the file (atomically) after every move, so Ctrl-C loses nothing.

use std::io;
use std::time::Duration;

use mancala_engine::pgn;
use mancala_engine::search::{self, SearchOptions};
use mancala_engine::{with_position, GameId, Side};
use mancala_eval::Evaluator;

use crate::input::{bad, read_records, GameArgs, OrBad};
use mancala_tools::board::Style;
use mancala_tools::matchplay::builtin::BuiltinPlayer;
use mancala_tools::matchplay::spec::{Level, PlayerSpec};
use mancala_tools::protocol::replay;
use mancala_tools::session::{Saver, Session};

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
    /// Save the game to this record file after every move (added to the
    /// games already in it; docs/records.md; written atomically).
    #[arg(long, value_name = "FILE")]
    save: Option<std::path::PathBuf>,
}

/// The engine's spec and how the game names it: `--engine`, else
/// `--level` (the expert level if neither).
fn opponent_of(args: &Args) -> anyhow::Result<(String, String)> {
    Ok(match (&args.engine, &args.level) {
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
    })
}

/// Refuses a `--save` path that cannot take a file.
fn check_save_path(path: &std::path::Path) -> anyhow::Result<()> {
    if path.is_dir() {
        return Err(bad(format!(
            "--save {}: a directory, not a file",
            path.display()
        )));
    }
    let parent = path
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(std::path::Path::new("."));
    if !parent.is_dir() {
        return Err(bad(format!(
            "--save {}: there is no directory {}",
            path.display(),
            parent.display()
        )));
    }
    Ok(())
}

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
    let (engine_text, opponent) = opponent_of(&args)?;
    let spec = PlayerSpec::parse(&engine_text).map_err(|e| bad(format!("--engine: {e}")))?;
    let mut engine = spec.build().map_err(|e| bad(format!("--engine: {e}")))?;
    engine
        .new_game(0)
        .map_err(|e| bad(format!("--engine: {e}")))?;
    // Hints come from the built-in engine at full strength (the expert
    // level, every core), whatever the opponent.
    let mut hint = BuiltinPlayer::new(
        Evaluator::default(),
        64,
        SearchOptions {
            limits: search::Limits {
                time: Some(Duration::from_secs(1)),
                ..Default::default()
            },
            threads: mancala_tools::limits::Machine::this().cores as usize,
            ..Default::default()
        },
    );
    let (me, them) = ("you".to_string(), opponent);
    let (south, north) = if human == Side::South {
        (me, them)
    } else {
        (them, me)
    };
    if let Some(path) = &args.save {
        // Checked before the game, so that no move is played unsaved.
        check_save_path(path)?;
    }
    let mut saver = Saver {
        path: args.save.clone(),
        earlier: match &args.save {
            Some(path) if path.exists() => read_records("--save ", path)?,
            _ => Vec::new(),
        },
        south,
        north,
        date: pgn::today(),
    };
    let stdin = io::stdin();
    let mut out = io::stdout();
    with_position!(pos, p => {
        replay(p, &moves).or_bad()?;
        let style = Style {
            seat: human,
            colour: Style::colour_for_stdout(),
        };
        let mut play = Session { human, style, engine: engine.as_mut(), hint: &mut hint, saver: &mut saver };
        play.run(&p, &moves, stdin.lock(), &mut out)?;
    });
    Ok(())
}
