//! The position notation of docs/rules.md ("Writing a position"):
//! `bohnenspiel 6,6,6,6,6,6/6,6,6,6,6,6 S 0-0`.

use std::fmt;
use std::str::FromStr;

use crate::board::{Position, Rules};
use crate::error::{PositionError, UnknownGame};
use crate::game::GameId;
use crate::side::Side;

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

impl FromStr for GameId {
    type Err = UnknownGame;
    /// A game's name, in any case (`Bohnenspiel`, `BOSH`); it is written in
    /// lower case.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        GameId::ALL
            .into_iter()
            .find(|g| g.name().eq_ignore_ascii_case(s))
            .ok_or_else(|| UnknownGame(s.to_string()))
    }
}
