//! Scores for people: every human report names whose score it is and in
//! what unit, with one precision everywhere (docs/protocol.md, "Scores in
//! human output").
//!
//! - A searched score is the expected final margin in seeds from one
//!   side's view, with two decimals: `South +3.88 seeds`.
//! - A proven value is a whole number of seeds and an outcome:
//!   `South wins by 8, proven`, `North wins by 2, proven`, `a draw, proven`.
//!
//! The JSON reports keep plain numbers from the side to move's view, as
//! CLI.md says; only the human text goes through here.

use mancala_engine::search::score::SCALE;
use mancala_engine::{Move, Side};

/// A score in seeds, signed, two decimals: `+3.88`, `-0.25`, `+0.00`.
pub fn seeds(seeds: f64) -> String {
    // `-0.00` would read as a loss; a rounded zero is written `+0.00`.
    let v = (seeds * 100.0).round() / 100.0;
    format!("{:+.2}", if v == 0.0 { 0.0 } else { v })
}

/// A searched score from `side`'s view: `South +3.88 seeds`.
pub fn score(side: Side, seeds_from_side: f64) -> String {
    format!("{} {} seeds", side.title(), seeds(seeds_from_side))
}

/// A proven final margin from `side`'s view (whole seeds; a positive margin
/// wins in every game played here): `South wins by 8, proven`, or from a
/// margin of -8 for South, `North wins by 8, proven`.
pub fn proven(side: Side, margin: i64) -> String {
    format!("{}, proven", outcome(side, margin))
}

/// The outcome of a final margin from `side`'s view, without "proven":
/// `South wins by 8`, `North wins by 3`, `a draw`.
pub fn outcome(side: Side, margin: i64) -> String {
    match margin.signum() {
        1 => format!("{} wins by {margin}", side.title()),
        -1 => format!("{} wins by {}", (!side).title(), -margin),
        _ => "a draw".to_string(),
    }
}

/// A value from `side`'s view, proven or searched: [`proven`] with the
/// margin rounded to whole seeds, else [`score`].
pub fn value(side: Side, seeds_from_side: f64, exact: bool) -> String {
    if exact {
        proven(side, seeds_from_side.round() as i64)
    } else {
        score(side, seeds_from_side)
    }
}

/// [`value`] of an internal search score.
pub fn of_search(side: Side, score: i32, exact: bool) -> String {
    value(side, mancala_engine::search::seeds(score), exact)
}

/// The short form for a list of moves whose header names the side and the
/// unit: `+3.88`, or `+8 proven`.
pub fn short(seeds_from_side: f64, exact: bool) -> String {
    if exact {
        format!("{:+} proven", seeds_from_side.round() as i64)
    } else {
        seeds(seeds_from_side)
    }
}

/// A score in whole seeds, rounded (internal scores are finer).
pub fn whole_seeds(score: i32) -> i64 {
    (score as f64 / SCALE as f64).round() as i64
}

/// A score in seeds, to two decimals.
pub fn precise_seeds(score: i32) -> f64 {
    (score as f64 / SCALE as f64 * 100.0).round() / 100.0
}

/// Moves as space-separated pit numbers.
pub fn show_moves(moves: &[Move]) -> String {
    moves
        .iter()
        .map(|m| m.to_string())
        .collect::<Vec<_>>()
        .join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use mancala_engine::search::score::SCALE;

    #[test]
    fn searched_scores_name_the_side_and_the_unit() {
        assert_eq!(score(Side::South, 3.876), "South +3.88 seeds");
        assert_eq!(score(Side::North, -0.5), "North -0.50 seeds");
        assert_eq!(score(Side::South, -0.001), "South +0.00 seeds");
    }

    #[test]
    fn proven_values_name_the_winner() {
        assert_eq!(proven(Side::South, 8), "South wins by 8, proven");
        assert_eq!(proven(Side::South, -8), "North wins by 8, proven");
        assert_eq!(proven(Side::North, 2), "North wins by 2, proven");
        assert_eq!(proven(Side::North, -3), "South wins by 3, proven");
        assert_eq!(proven(Side::North, 0), "a draw, proven");
        assert_eq!(value(Side::South, 5.9, true), "South wins by 6, proven");
        assert_eq!(value(Side::South, 5.9, false), "South +5.90 seeds");
        assert_eq!(
            of_search(Side::North, 3 * SCALE, true),
            "North wins by 3, proven"
        );
        assert_eq!(short(-2.0, true), "-2 proven");
        assert_eq!(short(1.234, false), "+1.23");
    }
}
