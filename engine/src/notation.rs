//! The position notation of docs/rules.md ("Writing a position"):
//! `bohnenspiel 6,6,6,6,6,6/6,6,6,6,6,6 S 0-0`.

use std::fmt;
use std::str::FromStr;

use crate::board::Position;
use crate::game::{GameId, Rules, UnknownGame};
use crate::side::Side;

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

/// The four fields of a written position, checked for form but not yet for
/// the game's totals.
pub(crate) struct Fields {
    pub game: GameId,
    pub pits: Vec<Option<u8>>,
    pub side: Side,
    pub tallies: [u8; 2],
}

pub(crate) fn split(s: &str) -> Result<Fields, PositionError> {
    use PositionError as E;
    let fields: Vec<&str> = s.split_whitespace().collect();
    if fields.len() != 4 {
        return Err(E::FieldCount(fields.len()));
    }
    let game: GameId = fields[0].parse()?;
    let rows: Vec<&str> = fields[1].split('/').collect();
    if rows.len() != 2 {
        return Err(E::Rows(fields[1].to_string()));
    }
    // A game with narrow boards (Kalah(m,n)) takes rows of 1 to its own
    // number of pits, both the length of South's.
    let south = rows[0].split(',').count();
    let n = if game.narrow_boards() && (1..=game.side_pits()).contains(&south) {
        south
    } else {
        game.side_pits()
    };
    let mut pits = Vec::with_capacity(2 * n);
    for (side, row) in Side::BOTH.into_iter().zip(&rows) {
        let cells: Vec<&str> = row.split(',').collect();
        if cells.len() != n {
            return Err(E::RowLength {
                game,
                side,
                expected: n,
                found: cells.len(),
            });
        }
        for cell in cells {
            let pit = pits.len() + 1;
            if cell == "x" {
                if game != GameId::Bosh {
                    return Err(E::ClosedOutsideBosh { game, pit });
                }
                pits.push(None);
            } else {
                let v = parse_count(cell).ok_or_else(|| E::BadPit {
                    pit,
                    text: cell.to_string(),
                })?;
                pits.push(Some(v));
            }
        }
    }
    let side = match fields[2] {
        "S" => Side::South,
        "N" => Side::North,
        other => return Err(E::BadSide(other.to_string())),
    };
    let bad = || E::BadTallies(fields[3].to_string());
    let (a, b) = fields[3].split_once('-').ok_or_else(bad)?;
    let tallies = [
        parse_count(a).ok_or_else(bad)?,
        parse_count(b).ok_or_else(bad)?,
    ];
    Ok(Fields {
        game,
        pits,
        side,
        tallies,
    })
}

/// A plain decimal seed count (no sign, no spaces), at most 255.
fn parse_count(s: &str) -> Option<u8> {
    if s.is_empty() || !s.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    s.parse().ok()
}

impl<R: Rules> FromStr for Position<R> {
    type Err = PositionError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let f = split(s)?;
        if f.game != R::ID {
            return Err(PositionError::WrongGame {
                expected: R::ID,
                found: f.game,
            });
        }
        Position::from_parts(&f.pits, f.side, f.tallies)
    }
}

impl<R: Rules> fmt::Display for Position<R> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} ", R::ID)?;
        let m = self.row_pits();
        for (pit, i) in self.pit_lanes().enumerate() {
            if pit == m {
                f.write_str("/")?;
            } else if pit > 0 {
                f.write_str(",")?;
            }
            if self.is_closed(i) {
                f.write_str("x")?;
            } else {
                write!(f, "{}", self.seeds(i))?;
            }
        }
        let [s, n] = self.tallies();
        write!(f, " {} {s}-{n}", self.side_to_move().letter())
    }
}
