//! Criterion benchmarks for the mancala engine live in `benches/`; run them
//! with `cargo bench -p mancala-benches`. This library holds the positions
//! they share.

use mancala_engine::{AnyPosition, GameId};

/// Middle-game positions per game (from the perft files), for move
/// generation benchmarks.
pub fn middle_games(game: GameId) -> Vec<AnyPosition> {
    let text = match game {
        GameId::Bohnenspiel => include_str!("../positions/perft/bohnenspiel.perft"),
        GameId::BohnenspielHemprich => {
            include_str!("../positions/perft/bohnenspiel-hemprich.perft")
        }
        GameId::AlManqala => include_str!("../positions/perft/al-manqala.perft"),
        GameId::Bosh => include_str!("../positions/perft/bosh.perft"),
        GameId::DjenonAbe => include_str!("../positions/perft/djenon-abe.perft"),
    };
    text.lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .skip(1)
        .filter_map(|l| l.split(';').next()?.trim().parse().ok())
        .collect()
}
