//! The history heuristic's memory, which the search and the solver both
//! order quiet moves by: a score per side and pit, grown by the cut-offs
//! the pit's move made. Below both, so that neither imports the other.

use mancala_rules::Move;

/// Move slots in the history table: pits `0..=14` (0 is the pass).
pub const SLOTS: usize = 16;

/// History scores are kept below this (halved when reached). A tuning
/// constant of the search (docs/search.md), kept here with the table it
/// bounds.
pub const HISTORY_MAX: i32 = 1 << 16;

/// A score per side and pit, grown by the cut-offs a pit's move made
/// ([`History::add`]): the search's history heuristic, and the solver's.
#[derive(Clone, Debug, Default)]
pub struct History([[i32; SLOTS]; 2]);

impl History {
    /// Halves every score, so recent cut-offs weigh more.
    pub fn age(&mut self) {
        for row in &mut self.0 {
            row.iter_mut().for_each(|h| *h /= 2);
        }
    }

    /// Adds `depth²` to the score of `mv` for `side`, and ages every score
    /// once one reaches [`HISTORY_MAX`].
    #[inline]
    pub fn add(&mut self, side: usize, mv: Move, depth: i32) {
        let h = &mut self.0[side][mv.pit() as usize % SLOTS];
        *h += depth * depth;
        if *h >= HISTORY_MAX {
            self.age();
        }
    }

    /// The scores of `side`, by pit (modulo [`SLOTS`]).
    #[inline]
    pub fn scores(&self, side: usize) -> &[i32; SLOTS] {
        &self.0[side]
    }

    /// The score of `mv` for `side`: never negative, below
    /// [`HISTORY_MAX`] plus one addition.
    #[inline]
    pub fn of(&self, side: usize, mv: Move) -> i32 {
        self.0[side][mv.pit() as usize % SLOTS]
    }
}
