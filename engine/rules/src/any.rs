//! A position of any of the eight rule sets, for code (the CLI, files) that learns
//! the game at run time. Dispatch happens here (and in
//! [`with_rules!`](crate::with_rules)); everything below it is monomorphised
//! per game. The methods forward to [`Position`]'s, as shakmaty's
//! `VariantPosition` does for chess variants.

use std::fmt;
use std::str::FromStr;

use crate::board::{Position, Rules};
use crate::error::IllegalMove;
use crate::error::PositionError;
use crate::game::{GameId, Status};
use crate::games::{
    AlManqala, Bohnenspiel, BohnenspielHemprich, Bosh, DjenonAbe, Kalah, KalahEmpty, Oware,
};
use crate::moves::{Move, MoveList};
use crate::notation::split;
use crate::record::GameRecord;
use crate::side::Side;

/// A position of one of the eight rule sets.
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
    /// A Kalah position.
    Kalah(Position<Kalah>),
    /// A Kalah (empty capture) position.
    KalahEmpty(Position<KalahEmpty>),
    /// An Oware position.
    Oware(Position<Oware>),
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
            $crate::AnyPosition::Kalah($p) => $body,
            $crate::AnyPosition::KalahEmpty($p) => $body,
            $crate::AnyPosition::Oware($p) => $body,
        }
    };
}

/// A game record ([`GameRecord`]) of one of the eight rule sets: a game
/// checked once, move by move, and then read by code that learns the game
/// at run time ([`with_record!`](crate::with_record)).
#[derive(Clone, Debug)]
pub enum AnyRecord {
    /// A Bohnenspiel game.
    Bohnenspiel(GameRecord<Bohnenspiel>),
    /// A Bohnenspiel (Hemprich) game.
    BohnenspielHemprich(GameRecord<BohnenspielHemprich>),
    /// An Al-manqala game.
    AlManqala(GameRecord<AlManqala>),
    /// A Bosh game (one round).
    Bosh(GameRecord<Bosh>),
    /// A Djenon-abe game.
    DjenonAbe(GameRecord<DjenonAbe>),
    /// A Kalah game.
    Kalah(GameRecord<Kalah>),
    /// A Kalah (empty capture) game.
    KalahEmpty(GameRecord<KalahEmpty>),
    /// An Oware game.
    Oware(GameRecord<Oware>),
}

/// Runs a generic expression on the concrete record inside an
/// [`AnyRecord`]: `with_record!(any, r => r.ply())`.
#[macro_export]
macro_rules! with_record {
    ($any:expr, $r:ident => $body:expr) => {
        match $any {
            $crate::AnyRecord::Bohnenspiel($r) => $body,
            $crate::AnyRecord::BohnenspielHemprich($r) => $body,
            $crate::AnyRecord::AlManqala($r) => $body,
            $crate::AnyRecord::Bosh($r) => $body,
            $crate::AnyRecord::DjenonAbe($r) => $body,
            $crate::AnyRecord::Kalah($r) => $body,
            $crate::AnyRecord::KalahEmpty($r) => $body,
            $crate::AnyRecord::Oware($r) => $body,
        }
    };
}

impl AnyRecord {
    /// The game played from `start` by `moves`: the record, or the ply
    /// (from 1) and the error of the first illegal move.
    pub fn replay(start: AnyPosition, moves: &[Move]) -> Result<Self, (usize, IllegalMove)> {
        fn play_all<R: Rules>(
            start: Position<R>,
            moves: &[Move],
        ) -> Result<GameRecord<R>, (usize, IllegalMove)> {
            let mut game = GameRecord::new(start);
            for (ply, &mv) in moves.iter().enumerate() {
                game.play(mv).map_err(|e| (ply + 1, e))?;
            }
            Ok(game)
        }
        Ok(match start {
            AnyPosition::Bohnenspiel(p) => AnyRecord::Bohnenspiel(play_all(p, moves)?),
            AnyPosition::BohnenspielHemprich(p) => {
                AnyRecord::BohnenspielHemprich(play_all(p, moves)?)
            }
            AnyPosition::AlManqala(p) => AnyRecord::AlManqala(play_all(p, moves)?),
            AnyPosition::Bosh(p) => AnyRecord::Bosh(play_all(p, moves)?),
            AnyPosition::DjenonAbe(p) => AnyRecord::DjenonAbe(play_all(p, moves)?),
            AnyPosition::Kalah(p) => AnyRecord::Kalah(play_all(p, moves)?),
            AnyPosition::KalahEmpty(p) => AnyRecord::KalahEmpty(play_all(p, moves)?),
            AnyPosition::Oware(p) => AnyRecord::Oware(play_all(p, moves)?),
        })
    }

    /// The position the game started from.
    pub fn start(&self) -> AnyPosition {
        with_record!(self, r => r.start().into())
    }

    /// The moves played, in order.
    pub fn moves(&self) -> &[Move] {
        with_record!(self, r => r.moves())
    }
}

impl AnyPosition {
    /// The start position of `game`.
    pub fn start(game: GameId) -> Self {
        crate::with_rules!(game, R => Position::<R>::start().into())
    }

    /// The position of `game` with [key](Position::key) `key` (trusted, as
    /// [`Position::from_key`]).
    pub fn from_key(game: GameId, key: u128) -> Self {
        match game {
            GameId::Bohnenspiel => AnyPosition::Bohnenspiel(Position::from_key(key)),
            GameId::BohnenspielHemprich => {
                AnyPosition::BohnenspielHemprich(Position::from_key(key))
            }
            GameId::AlManqala => AnyPosition::AlManqala(Position::from_key(key)),
            GameId::Bosh => AnyPosition::Bosh(Position::from_key(key)),
            GameId::DjenonAbe => AnyPosition::DjenonAbe(Position::from_key(key)),
            GameId::Kalah => AnyPosition::Kalah(Position::from_key(key)),
            GameId::KalahEmpty => AnyPosition::KalahEmpty(Position::from_key(key)),
            GameId::Oware => AnyPosition::Oware(Position::from_key(key)),
        }
    }

    /// Which game this is.
    pub fn game(&self) -> GameId {
        with_position!(self, p => p.game())
    }

    /// The position's [key](Position::key).
    pub fn key(&self) -> u128 {
        with_position!(self, p => p.key())
    }

    /// The side to move.
    pub fn side_to_move(&self) -> Side {
        with_position!(self, p => p.side_to_move())
    }

    /// Both tallies, `[south, north]`.
    pub fn tallies(&self) -> [u8; 2] {
        with_position!(self, p => p.tallies())
    }

    /// Seeds on the board.
    pub fn board_seeds(&self) -> u32 {
        with_position!(self, p => p.board_seeds())
    }

    /// The margin of `totals` from the side to move's view.
    pub fn margin_of(&self, totals: [u8; 2]) -> i32 {
        with_position!(self, p => p.margin_of(totals))
    }

    /// Final totals if the game ends here by the cycle rule
    /// ([`Position::cycle_totals`]).
    pub fn cycle_totals(&self) -> [u8; 2] {
        with_position!(self, p => p.cycle_totals())
    }

    /// The margin banked so far from the side to move's view.
    pub fn banked_margin(&self) -> i32 {
        with_position!(self, p => p.banked_margin())
    }

    /// The range of every final margin from here
    /// ([`Position::margin_range`]).
    pub fn margin_range(&self) -> (i32, i32) {
        with_position!(self, p => p.margin_range())
    }

    /// The legal moves ([`Position::legal_moves`]).
    pub fn legal_moves(&self) -> MoveList {
        with_position!(self, p => p.legal_moves())
    }

    /// Whether the game is over here ([`Position::status`]).
    pub fn status(&self) -> Status {
        with_position!(self, p => p.status())
    }

    /// Plays a move, checking that it is legal ([`Position::try_play`]).
    pub fn try_play(&self, mv: Move) -> Result<Self, IllegalMove> {
        with_position!(self, p => p.try_play(mv).map(Self::from))
    }
}

impl<R: Rules> From<Position<R>> for AnyPosition {
    fn from(pos: Position<R>) -> Self {
        AnyPosition::from_key(R::ID, pos.key())
    }
}

impl FromStr for AnyPosition {
    type Err = PositionError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let f = split(s)?;
        crate::with_rules!(f.game, R => {
            Ok(Position::<R>::from_parts(&f.pits, f.side, f.tallies)?.into())
        })
    }
}

impl fmt::Display for AnyPosition {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        with_position!(self, p => fmt::Display::fmt(p, f))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_record_replays_its_moves_and_names_the_first_illegal_one() {
        for game in GameId::ALL {
            let start = AnyPosition::start(game);
            let first = start.legal_moves()[0];
            let record = AnyRecord::replay(start, &[first]).expect("a legal first move");
            assert_eq!((record.start(), record.moves()), (start, &[first][..]));
            assert_eq!(with_record!(&record, r => r.ply()), 1, "{game:?}");
            // The same pit again belongs to the other side now.
            let (ply, e) = AnyRecord::replay(start, &[first, first]).unwrap_err();
            assert_eq!((ply, e.mv), (2, first), "{game:?}");
        }
    }
}
