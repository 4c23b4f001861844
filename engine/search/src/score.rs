//! The search's score unit: a score is the final seed margin from the side
//! to move's view (own final total minus the opponent's), banked seeds
//! included, in sixteenths of a seed ([`SCALE`] units a seed). Scores in
//! the [transposition table](mancala_solve::tt) are the same. Proven scores are
//! whole seeds, so always multiples of [`SCALE`].

use mancala_rules::Position;
use mancala_rules::Rules;

/// Internal score units per seed: the table's unit.
pub use mancala_solve::tt::SCALE;

/// Larger than any score (the largest margin is 98 seeds, 1568 units); fits
/// an `i16`.
pub const INFINITY: i32 = 2000;

/// The largest evaluation the search accepts (beyond any real margin).
pub(crate) const MAX_EVAL: i32 = 100 * SCALE;

/// A score in seeds (a whole number when proven).
pub fn seeds(score: i32) -> f64 {
    score as f64 / SCALE as f64
}

/// The score of a finished game with final `totals`, for the side to move.
#[inline]
pub(crate) fn margin_score<R: Rules>(pos: &Position<R>, totals: [u8; 2]) -> i32 {
    pos.margin_of(totals) * SCALE
}
