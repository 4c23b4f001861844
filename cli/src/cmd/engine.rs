//! `mancala engine`: a line protocol on stdin/stdout for graphical front
//! ends and match runners (UCI-like; see the README, "mancala engine").
//!
//! ```text
//! position <notation> [moves m1 m2 …]   set the position (and the moves since)
//! position <game> [moves m1 m2 …]       the game's start position
//! go [depth D] [movetime MS] [nodes N] [infinite]
//! stop                                   stop thinking, answer bestmove
//! isready                                answered by readyok
//! threads N                              search with N threads from the next go
//! newgame                                forget the table
//! quit
//! ```
//!
//! While thinking the engine prints `info depth D score S [exact] nodes N
//! nps X time MS pv M…` per completed depth, then `bestmove M` (`bestmove
//! none` when the game is over). A bad command is reported on stderr
//! (`error: …`) and ignored; the engine keeps running.
//!
//! The endgame tablebases of a game (the table directory of
//! `options::table_dir`; `--no-tables` for none) are opened the first time a
//! position of that game is set, and kept; a refused file is a one-line
//! warning on stderr.

use mancala_engine::GameId;

use crate::options::{EngineArgs, TableArgs};

/// Arguments of `mancala engine`.
#[derive(clap::Args, Debug)]
pub struct Args {
    #[command(flatten)]
    engine: EngineArgs,
    #[command(flatten)]
    tables: TableArgs,
}

pub fn run(args: Args) -> anyhow::Result<()> {
    args.engine.check()?;
    let eval = args.engine.evaluator()?;
    let open = |games: &[GameId]| args.tables.open(games);
    mancala_tools::engine::run(
        args.engine.table()?,
        eval,
        args.engine.threads_or_one(),
        &open,
    )
}
