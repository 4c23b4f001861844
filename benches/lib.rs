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

/// The positions of `positions/bench.txt`.
pub const BENCH_POSITIONS: &str = include_str!("../positions/bench.txt");

/// The bench positions, parsed.
pub fn bench_positions() -> Vec<AnyPosition> {
    BENCH_POSITIONS
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .map(|l| l.parse().expect("valid bench position"))
        .collect()
}
