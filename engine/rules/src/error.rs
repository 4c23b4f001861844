//! What can go wrong in this crate: a game name that is not one of ours,
//! a written position that is not a position, a move that is not legal.
//! Apart from the types they describe, so that the board, the games and
//! the notation each depend on this module and none on another's errors.

use std::fmt;

use crate::game::GameId;
use crate::moves::Move;
use crate::side::Side;

/// The error for a game name that is not one of ours. It suggests the
/// nearest name where one is close (`bohnenspeil`: did you mean
/// bohnenspiel?), else lists them all.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub struct UnknownGame(pub String);

impl fmt::Display for UnknownGame {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "unknown game '{}'", self.0)?;
        match self.nearest() {
            Some(g) => write!(f, " (did you mean {g}?)"),
            None => {
                let names: Vec<&str> = GameId::ALL.iter().map(|g| g.name()).collect();
                write!(f, " (expected one of: {})", names.join(", "))
            }
        }
    }
}

impl UnknownGame {
    /// The game whose name is nearest the one given, if it is close: at
    /// most two letters added, dropped, changed or swapped (a third of the
    /// name's length at most).
    pub fn nearest(&self) -> Option<GameId> {
        let given = self.0.to_ascii_lowercase();
        if given.len() > 64 {
            return None;
        }
        GameId::ALL
            .into_iter()
            .map(|g| (edit_distance(&given, g.name()), g))
            .filter(|&(d, g)| d <= 2 && 3 * d <= g.name().len())
            .min_by_key(|&(d, _)| d)
            .map(|(_, g)| g)
    }
}

/// The optimal string alignment distance of two short strings: letters
/// added, dropped, changed, or two neighbours swapped.
fn edit_distance(a: &str, b: &str) -> usize {
    let (a, b): (Vec<char>, Vec<char>) = (a.chars().collect(), b.chars().collect());
    let mut d = vec![vec![0usize; b.len() + 1]; a.len() + 1];
    for (i, row) in d.iter_mut().enumerate() {
        row[0] = i;
    }
    for (j, cell) in d[0].iter_mut().enumerate() {
        *cell = j;
    }
    for i in 1..=a.len() {
        for j in 1..=b.len() {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            let mut best = (d[i - 1][j] + 1)
                .min(d[i][j - 1] + 1)
                .min(d[i - 1][j - 1] + cost);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                best = best.min(d[i - 2][j - 2] + 1);
            }
            d[i][j] = best;
        }
    }
    d[a.len()][b.len()]
}

/// What is wrong with a written position.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PositionError {
    /// The line does not have the four fields.
    #[error("a position has 4 fields (game, pits, side, tallies), found {0}")]
    FieldCount(usize),
    /// The game name is unknown.
    #[error(transparent)]
    UnknownGame(#[from] UnknownGame),
    /// The game of the position is not the one expected.
    #[error("expected a {expected} position, found {found}")]
    WrongGame {
        /// The game expected.
        expected: GameId,
        /// The game written.
        found: GameId,
    },
    /// The pits field has no `/` between the rows, or more than one.
    #[error("the pits field must be South's row, '/', North's row; found '{0}'")]
    Rows(String),
    /// A row has the wrong number of pits.
    #[error("{game}: {side}'s row has {found} pits, expected {expected}")]
    RowLength {
        /// The game.
        game: GameId,
        /// Whose row.
        side: Side,
        /// Pits in a row of this game.
        expected: usize,
        /// Pits written.
        found: usize,
    },
    /// The wrong number of pits overall.
    #[error("expected {expected} pits, found {found}")]
    PitCount {
        /// Pits on this game's board.
        expected: usize,
        /// Pits given.
        found: usize,
    },
    /// A pit is neither a seed count nor `x`.
    #[error("pit {pit}: '{text}' is not a seed count")]
    BadPit {
        /// The pit number.
        pit: usize,
        /// What was written.
        text: String,
    },
    /// `x` (closed pit) in a game without closed pits.
    #[error("pit {pit}: closed pits ('x') exist only in bosh, not in {game}")]
    ClosedOutsideBosh {
        /// The game.
        game: GameId,
        /// The pit number.
        pit: usize,
    },
    /// The side to move is not `S` or `N`.
    #[error("side to move must be S or N, found '{0}'")]
    BadSide(String),
    /// The tallies are not `a-b`.
    #[error("tallies must be written south-north, e.g. 0-0; found '{0}'")]
    BadTallies(String),
    /// The seeds do not add up to the game's total.
    #[error("{game} has {expected} seeds, but the pits and tallies add up to {found}")]
    SeedTotal {
        /// The game.
        game: GameId,
        /// The game's total.
        expected: u32,
        /// The total written.
        found: u32,
    },
    /// The seeds are out of the range of a game whose starts vary (Kalah).
    #[error("{game} holds 1 to {most} seeds, but the pits and tallies add up to {found}")]
    SeedRange {
        /// The game.
        game: GameId,
        /// The most seeds a position of it holds.
        most: u32,
        /// The total written.
        found: u32,
    },
}

/// A move that is not legal in the position it was tried in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("illegal move {mv}: {reason}")]
pub struct IllegalMove {
    /// The move tried.
    pub mv: Move,
    /// Why it is illegal.
    pub reason: IllegalReason,
}

/// Why a move is illegal.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum IllegalReason {
    /// The game is already over.
    #[error("the game is over")]
    GameOver,
    /// The pit number is not on the board (or is a pass where none is allowed).
    #[error("no such pit")]
    NoSuchPit,
    /// The pit belongs to the other player.
    #[error("the pit belongs to the other player")]
    NotOwnPit,
    /// The pit is empty.
    #[error("the pit is empty")]
    EmptyPit,
    /// The pit is closed (Bosh).
    #[error("the pit is closed")]
    ClosedPit,
    /// The sowing would never end (relay games).
    #[error("its sowing never ends")]
    Endless,
    /// The opponent's row is empty and another move would feed it.
    #[error("it does not feed the opponent's empty row, and a move that does exists")]
    MustFeed,
    /// The side to move has no seeds and must pass (`0`).
    #[error("the side to move has no seeds and must pass (0)")]
    MustPass,
    /// A pass while the side to move has seeds, or in a game without passes.
    #[error("passing is not allowed here")]
    PassNotAllowed,
}
