//! `mancala show`: the board as the players see it.

use mancala_engine::with_position;
use mancala_tools::board::draw_record;

use crate::input::{GameArgs, OrBad};
use mancala_engine::GameId;

/// Arguments of `mancala show`.
#[derive(clap::Args, Debug)]
pub struct Args {
    #[command(flatten)]
    given: GameArgs,
}

pub fn run(args: Args) -> anyhow::Result<()> {
    let (pos, rest) = args.given.position.resolve_or_start(GameId::Bohnenspiel)?;
    if let Some(extra) = rest.first() {
        return Err(crate::input::bad(format!("unexpected argument '{extra}'")));
    }
    let moves = args.given.moves.after(&pos)?;
    let text = with_position!(pos, p => {
        let game = mancala_tools::protocol::replay(p, &moves).or_bad()?;
        draw_record(&game)
    });
    print!("{text}");
    Ok(())
}
