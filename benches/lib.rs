//! Criterion benchmarks for the mancala engine live in `benches/`; run them
//! with `cargo bench -p mancala-benches`. This library holds the positions
//! they share, read with the engine's parsers of `positions/`.

use mancala_engine::files::{self, parse_perft, parse_positions};
use mancala_engine::{AnyPosition, GameId};

/// Middle-game positions per game (the perft file's positions after the
/// start), for move generation benchmarks.
pub fn middle_games(game: GameId) -> Vec<AnyPosition> {
    parse_perft(files::shipped_perft(game))
        .expect("the shipped perft files parse")
        .into_iter()
        .skip(1)
        .map(|e| e.position)
        .collect()
}

/// The bench positions of `positions/bench.txt`.
pub fn bench_positions() -> Vec<AnyPosition> {
    parse_positions(files::BENCH).expect("valid bench positions")
}
