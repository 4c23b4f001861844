//! The cycle rule, in one place: a position that occurs for the third time
//! ends the game, and the seeds on the board are split equally (the odd
//! seed to the side to move; [`Position::cycle_totals`]).
//!
//! "The same position" is the same pits and the same side to move. Only a
//! capture changes the tallies, and every capture lowers the seeds on the
//! board, so a position can only recur among the latest positions of a line
//! with the same tallies, and only every second ply (the same side to
//! move). [`Line`] keeps a line's keys and scans just that stretch.
//!
//! Two readings of the rule use it:
//! - the game itself (a [`GameRecord`](crate::GameRecord), perft): the third
//!   occurrence ends the game ([`Line::occurrences`]);
//! - the search, the solver and their principal variations: a position
//!   that repeats one already on the line is scored as the split at once
//!   ([`Line::earlier`]). Under optimal play that gives the same value: a
//!   player who could do better than the split would not have repeated.

use crate::board::{Position, Rules};

/// Occurrences of a position that end the game by the cycle rule.
pub const ENDING_OCCURRENCE: usize = 3;

/// The tally bits of a [`Position::key`]: positions of one line with the
/// same tallies have the same seeds on the board.
const TALLY_BITS: u128 = 0x7fff << 112;

/// A line of play, oldest first, as the positions' keys.
///
/// A real line is assumed: the tallies never go down along it (as in every
/// game played by the rules), so the stretch of positions with the tallies
/// of the latest one is the stretch with its seeds on the board, and within
/// it the full keys are equal exactly when the board keys are.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Line {
    keys: Vec<u128>,
}

impl Line {
    /// An empty line.
    pub fn new() -> Self {
        Line { keys: Vec::new() }
    }

    /// An empty line with room for `n` positions.
    pub fn with_capacity(n: usize) -> Self {
        Line {
            keys: Vec::with_capacity(n),
        }
    }

    /// The line of `positions`, oldest first.
    pub fn of<'a, R: Rules>(positions: impl IntoIterator<Item = &'a Position<R>>) -> Self {
        Line {
            keys: positions.into_iter().map(Position::key).collect(),
        }
    }

    /// Positions on the line.
    #[inline]
    pub fn len(&self) -> usize {
        self.keys.len()
    }

    /// Whether the line is empty.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.keys.is_empty()
    }

    /// Appends a position.
    #[inline]
    pub fn push<R: Rules>(&mut self, pos: &Position<R>) {
        self.keys.push(pos.key());
    }

    /// Appends a position given by its [key](Position::key).
    #[inline]
    pub fn push_key(&mut self, key: u128) {
        self.keys.push(key);
    }

    /// Removes the latest position.
    #[inline]
    pub fn pop(&mut self) {
        self.keys.pop();
    }

    /// Removes every position.
    #[inline]
    pub fn clear(&mut self) {
        self.keys.clear();
    }

    /// Keeps the first `len` positions.
    #[inline]
    pub fn truncate(&mut self, len: usize) {
        self.keys.truncate(len);
    }

    /// Appends every position of `other`.
    #[inline]
    pub fn extend_from(&mut self, other: &Line) {
        self.keys.extend_from_slice(&other.keys);
    }

    /// Where the position with [key](Position::key) `key` last occurred on
    /// the line, if it did, as the line is now (the position comes next,
    /// so only every second entry back, the same side to move, can hold
    /// it, and only back to the last capture).
    #[inline]
    pub fn earlier_key(&self, key: u128) -> Option<usize> {
        let n = self.keys.len();
        for (back, &k) in self.keys.iter().rev().skip(1).step_by(2).enumerate() {
            if (k ^ key) & TALLY_BITS != 0 {
                return None;
            }
            if k == key {
                return Some(n - 2 - 2 * back);
            }
        }
        None
    }

    /// [`earlier_key`](Self::earlier_key) of a position.
    #[inline]
    pub fn earlier<R: Rules>(&self, pos: &Position<R>) -> Option<usize> {
        self.earlier_key(pos.key())
    }

    /// Whether `pos`, coming next, repeats a position of the line.
    #[inline]
    pub fn repeats<R: Rules>(&self, pos: &Position<R>) -> bool {
        self.earlier(pos).is_some()
    }

    /// How many times `pos` occurs on the line, counting itself as the
    /// next position (so `1` for a position new to the line).
    #[inline]
    pub fn occurrences<R: Rules>(&self, pos: &Position<R>) -> usize {
        let key = pos.key();
        let mut seen = 1;
        for &k in self.keys.iter().rev().skip(1).step_by(2) {
            if (k ^ key) & TALLY_BITS != 0 {
                break;
            }
            seen += (k == key) as usize;
        }
        seen
    }

    /// Whether `pos`, coming next on the line, ends the game by the cycle
    /// rule (its third occurrence).
    #[inline]
    pub fn ends_game<R: Rules>(&self, pos: &Position<R>) -> bool {
        self.occurrences(pos) >= ENDING_OCCURRENCE
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Bohnenspiel, Bosh};

    /// Random lines from small Bosh boards (which cycle often): the scan
    /// of the same-seeds stretch agrees with a count over the whole line.
    #[test]
    fn occurrences_agree_with_a_count_over_the_whole_line() {
        use rand::{Rng, SeedableRng};
        let mut rng = rand::rngs::StdRng::seed_from_u64(7);
        let start: Position<Bosh> = "bosh 1,0,2,0,0/0,1,0,2,0 S 17-17".parse().unwrap();
        let mut repeated = 0;
        for _ in 0..200 {
            let mut line = Line::new();
            let mut keys = Vec::new();
            let mut pos = start;
            for _ in 0..60 {
                let brute = 1 + keys.iter().filter(|&&k| k == pos.board_key()).count();
                assert_eq!(line.occurrences(&pos), brute, "{pos}");
                assert_eq!(line.repeats(&pos), brute > 1, "{pos}");
                repeated += (brute > 1) as usize;
                line.push(&pos);
                keys.push(pos.board_key());
                let moves = pos.legal_moves();
                if moves.is_empty() {
                    break;
                }
                pos = pos.play(moves[rng.random_range(0..moves.len())]);
            }
        }
        assert!(repeated >= 100, "only {repeated} repetitions seen");
    }

    #[test]
    fn a_capture_ends_the_stretch() {
        let a: Position<Bohnenspiel> = "bohnenspiel 6,6,6,6,6,6/6,6,6,6,6,6 S 0-0".parse().unwrap();
        let b: Position<Bohnenspiel> = "bohnenspiel 6,6,6,6,6,4/6,6,6,6,6,6 S 2-0".parse().unwrap();
        let mut line = Line::new();
        line.push(&a);
        line.push(&b.with_side_to_move(crate::Side::North));
        assert_eq!(line.earlier(&a), Some(0));
        assert_eq!(line.occurrences(&a), 2);
        line.push(&b);
        line.push(&a.with_side_to_move(crate::Side::North));
        // The stretch of 70 seeds on the board hides the first `a`.
        assert_eq!(line.earlier(&a), None);
        assert_eq!(line.occurrences(&a), 1);
    }
}
