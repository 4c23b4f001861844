//! Moves and fixed-capacity move lists.

use std::fmt;

/// The most moves any position of any supported game can have (Al-manqala: 7).
pub const MAX_MOVES: usize = 7;

/// A move, written as the number of the pit it starts from (`1..=2N`), or `0`
/// for a pass (only in `bohnenspiel-hemprich`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct Move(u8);

impl Move {
    /// The pass of `bohnenspiel-hemprich`, written `0`.
    pub const PASS: Move = Move(0);

    /// The move starting from pit number `pit` (`1..=2N`; `0` is the pass).
    #[inline]
    pub const fn from_pit(pit: u8) -> Move {
        Move(pit)
    }

    /// The move sowing the pit at 0-based board index `index`.
    #[inline]
    pub(crate) const fn from_index(index: usize) -> Move {
        Move(index as u8 + 1)
    }

    /// The pit number as written in the notation (`0` for a pass).
    #[inline]
    pub const fn pit(self) -> u8 {
        self.0
    }

    /// Whether this is the pass move.
    #[inline]
    pub const fn is_pass(self) -> bool {
        self.0 == 0
    }
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}

/// A fixed-capacity list of moves, in ascending pit order when produced by the
/// move generator. No allocation.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct MoveList {
    moves: [Move; MAX_MOVES],
    len: u8,
}

impl MoveList {
    /// An empty list.
    pub const fn new() -> Self {
        MoveList {
            moves: [Move(0); MAX_MOVES],
            len: 0,
        }
    }

    /// Appends a move. Panics if the list is full (cannot happen for generated moves).
    #[inline]
    pub fn push(&mut self, mv: Move) {
        self.moves[self.len as usize] = mv;
        self.len += 1;
    }

    /// Number of moves.
    #[inline]
    pub const fn len(&self) -> usize {
        self.len as usize
    }

    /// Whether there are no moves.
    #[inline]
    pub const fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The moves as a slice.
    #[inline]
    pub fn as_slice(&self) -> &[Move] {
        &self.moves[..self.len as usize]
    }

    /// Whether `mv` is in the list.
    pub fn contains(&self, mv: Move) -> bool {
        self.as_slice().contains(&mv)
    }

    /// The pit numbers, for output.
    pub fn pits(&self) -> Vec<u8> {
        self.as_slice().iter().map(|m| m.pit()).collect()
    }
}

impl std::ops::Deref for MoveList {
    type Target = [Move];
    fn deref(&self) -> &[Move] {
        self.as_slice()
    }
}

impl<'a> IntoIterator for &'a MoveList {
    type Item = &'a Move;
    type IntoIter = std::slice::Iter<'a, Move>;
    fn into_iter(self) -> Self::IntoIter {
        self.as_slice().iter()
    }
}
