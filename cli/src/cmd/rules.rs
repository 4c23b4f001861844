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

/// The rules of `game` in a few lines.
pub fn summary(game: GameId) -> &'static str {
    match game {
        GameId::Bohnenspiel => {
            "Bohnenspiel: 2x6 pits, 6 seeds each (72), a store each. Sow one lap counter-clockwise, the origin included.\n\
             A last seed making its pit hold 2, 4 or 6 captures it, and the pits before it holding 2, 4 or 6.\n\
             A player with an empty row to move ends the game; the other takes the board. More than 36 wins.\n"
        }
        GameId::BohnenspielHemprich => {
            "Bohnenspiel (Hemprich): as Bohnenspiel, but a player with no seeds passes (move 0)\n\
             and the game goes on until the board is empty. More than 36 wins.\n"
        }
        GameId::AlManqala => {
            "Al-manqala: 2x7 pits, 7 seeds each (98). Sow one lap. A last seed making 2 or 4 captures it and the\n\
             run of 2s and 4s before it. An empty opponent's row must be fed if a move can; if none can, the\n\
             opponent takes the board. A player with an empty row to move ends it likewise. 50 or more wins.\n"
        }
        GameId::Bosh => {
            "Bosh: 2x5 pits, 4 stones each (40), pools. Relay sowing: if the open pit after the last stone holds\n\
             stones, lift them and sow on from the pit after it; if it is empty, the move ends and takes the open\n\
             pit after that one. A round ends when the player to move has no stones; the other takes the board.\n\
             Rounds refill pits 4 at a time from the right-hand end; pits that cannot get 4 are closed (x).\n\
             A player who cannot fill a pit loses the match.\n"
        }
        GameId::DjenonAbe => {
            "Djenon-abe: 2x6 pits, 4 seeds each (48). A lap's last seed: a pit of 1 ends the move, 2 or 4 captures\n\
             it and the run of 2s and 4s before it, 3 or 5+ is lifted and sown on. An empty opponent's row must\n\
             be fed. The game ends with no legal move or one seed in each row; each takes their row, and a lone\n\
             owner of seeds gives one away. More captured seeds wins.\n"
        }
        GameId::Kalah => {
            "Kalah: 2x6 pits, 4 seeds each by default (1 to 6: --seeds-per-pit), a store each. Sow one seed a place\n\
             counter-clockwise, into your own store but not the opponent's. A last seed in your store: move again.\n\
             A last seed in an empty pit of yours takes it and the opposite pit's seeds, if that pit holds any.\n\
             The game ends when either row is empty; each side keeps its own row. More seeds wins.\n\
             Kalah(m,n): 1 to 6 pits a row with --pits m (or a position written so), pits 1..m and m+1..2m.\n"
        }
        GameId::KalahEmpty => {
            "Kalah (empty capture): as Kalah, but a last seed in an empty pit of yours is taken to your store\n\
             even when the opposite pit is empty.\n"
        }
        GameId::Oware => {
            "Oware (abapa): 2x6 pits, 4 seeds each by default (1 to 4: --seeds-per-pit). Sow one lap counter-clockwise;\n\
             a lap of 12 or more skips the pit it came from. A last seed on the opponent's row making 2 or 3 captures\n\
             it and the 2s and 3s before it on that row, unless that would take the whole row (then nothing).\n\
             An empty opponent's row must be fed if a move can; if none can, the game ends. At the end, and at a\n\
             cycle, each side keeps its own row. More seeds wins (25 of 48).\n"
        }
    }
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
        print!("{}", summary(game));
    }
    println!(
        "\nAll games: the third occurrence of a position ends the game, the board split equally\n\
         (Oware: each side keeps its own row).\n\
         The full rules: docs/rules.md."
    );
    Ok(())
}
