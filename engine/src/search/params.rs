//! Named tuning constants of the search, and its score unit.
//!
//! Scores inside the search (and in the [transposition table](super::tt))
//! are in sixteenths of a seed. A score is the final
//! seed margin from the side to move's view (own final total minus the
//! opponent's), banked seeds included, times [`SCALE`]. Proven scores are
//! whole seeds, so always multiples of [`SCALE`].

/// Internal score units per seed.
pub const SCALE: i32 = 16;
