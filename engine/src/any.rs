//! A position of any of the five games, for code (the CLI, files) that learns
//! the game at run time. Dispatch happens once, here; everything below it is
//! monomorphised per game.

use std::fmt;
use std::str::FromStr;

use crate::board::Position;
use crate::game::GameId;
use crate::games::{AlManqala, Bohnenspiel, BohnenspielHemprich, Bosh, DjenonAbe};
use crate::notation::{split, PositionError};

/// A position of one of the five games.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum AnyPosition {
    /// A Bohnenspiel position.
    Bohnenspiel(Position<Bohnenspiel>),
    /// A Bohnenspiel (Hemprich) position.
    BohnenspielHemprich(Position<BohnenspielHemprich>),
    /// An Al-manqala position.
    AlManqala(Position<AlManqala>),
    /// A Bosh position (one round).
    Bosh(Position<Bosh>),
    /// A Djenon-abe position.
    DjenonAbe(Position<DjenonAbe>),
}

/// Runs a generic expression on the concrete position inside an
/// [`AnyPosition`]: `with_position!(any, p => p.legal_moves().len())`.
#[macro_export]
macro_rules! with_position {
    ($any:expr, $p:ident => $body:expr) => {
        match $any {
            $crate::AnyPosition::Bohnenspiel($p) => $body,
            $crate::AnyPosition::BohnenspielHemprich($p) => $body,
            $crate::AnyPosition::AlManqala($p) => $body,
            $crate::AnyPosition::Bosh($p) => $body,
            $crate::AnyPosition::DjenonAbe($p) => $body,
        }
    };
}

impl AnyPosition {
    /// The start position of `game`.
    pub fn start(game: GameId) -> Self {
        match game {
            GameId::Bohnenspiel => AnyPosition::Bohnenspiel(Position::start()),
            GameId::BohnenspielHemprich => AnyPosition::BohnenspielHemprich(Position::start()),
            GameId::AlManqala => AnyPosition::AlManqala(Position::start()),
            GameId::Bosh => AnyPosition::Bosh(Position::start()),
            GameId::DjenonAbe => AnyPosition::DjenonAbe(Position::start()),
        }
    }

    /// Which game this is.
    pub fn game(&self) -> GameId {
        match self {
            AnyPosition::Bohnenspiel(_) => GameId::Bohnenspiel,
            AnyPosition::BohnenspielHemprich(_) => GameId::BohnenspielHemprich,
            AnyPosition::AlManqala(_) => GameId::AlManqala,
            AnyPosition::Bosh(_) => GameId::Bosh,
            AnyPosition::DjenonAbe(_) => GameId::DjenonAbe,
        }
    }
}

impl FromStr for AnyPosition {
    type Err = PositionError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let f = split(s)?;
        Ok(match f.game {
            GameId::Bohnenspiel => {
                AnyPosition::Bohnenspiel(Position::from_parts(&f.pits, f.side, f.tallies)?)
            }
            GameId::BohnenspielHemprich => {
                AnyPosition::BohnenspielHemprich(Position::from_parts(&f.pits, f.side, f.tallies)?)
            }
            GameId::AlManqala => {
                AnyPosition::AlManqala(Position::from_parts(&f.pits, f.side, f.tallies)?)
            }
            GameId::Bosh => AnyPosition::Bosh(Position::from_parts(&f.pits, f.side, f.tallies)?),
            GameId::DjenonAbe => {
                AnyPosition::DjenonAbe(Position::from_parts(&f.pits, f.side, f.tallies)?)
            }
        })
    }
}

impl fmt::Display for AnyPosition {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        with_position!(self, p => fmt::Display::fmt(p, f))
    }
}
