//! `mancala rules GAME`: a game's rules in a few lines (the full text is
//! docs/rules.md).

use mancala_engine::GameId;

/// Arguments of `mancala rules`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// The game (all of them when none is given).
    game: Option<GameId>,
    /// The game, as the other commands take it (`--game NAME`).
    #[arg(long = "game", value_name = "NAME", conflicts_with = "game")]
    game_flag: Option<GameId>,
}

pub fn run(args: Args) -> anyhow::Result<()> {
    let games = match args.game.or(args.game_flag) {
        Some(game) => vec![game],
        None => GameId::ALL.to_vec(),
    };
    for (i, game) in games.into_iter().enumerate() {
        if i > 0 {
            println!();
        }
        print!("{}", game.summary());
    }
    println!(
        "\nAll games: the third occurrence of a position ends the game, the board split equally\n\
         (Oware: each side keeps its own row).\n\
         The full rules: docs/rules.md."
    );
    Ok(())
}
