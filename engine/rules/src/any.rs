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
// Every game's rules type, for the list's variants.
use crate::games::*;
use crate::moves::{Move, MoveList};
use crate::notation::split;
use crate::record::GameRecord;
use crate::side::Side;

/// [`AnyPosition`] and [`AnyRecord`], a variant a game, from the one list
/// of games ([`for_each_game!`](crate::for_each_game)), with what must
/// name every variant.
macro_rules! define_any {
    ([] $(($g:ident, $name:literal, $doc:literal))+) => {
        /// A position of any rule set.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        pub enum AnyPosition {
            $(
                #[doc = concat!("A ", $name, " position.")]
                $g(Position<$g>),
            )+
        }

        /// A game record ([`GameRecord`]) of any rule set: a game checked
        /// once, move by move, and then read by code that learns the game at
        /// run time ([`with_record!`](crate::with_record)).
        #[derive(Clone, Debug)]
        pub enum AnyRecord {
            $(
                #[doc = concat!("A ", $name, " game.")]
                $g(GameRecord<$g>),
            )+
        }

        impl AnyPosition {
            /// The position of `game` with [key](Position::key) `key` (trusted, as
            /// [`Position::from_key`]).
            pub fn from_key(game: GameId, key: u128) -> Self {
                match game {
                    $(GameId::$g => AnyPosition::$g(Position::from_key(key)),)+
                }
            }
        }

        impl AnyRecord {
            /// The record of the game played from `start` by `moves`, or
            /// the ply (from 1) and the error of the first illegal move.
            fn played(start: AnyPosition, moves: &[Move]) -> Result<Self, (usize, IllegalMove)> {
                Ok(match start {
                    $(AnyPosition::$g(p) => AnyRecord::$g(GameRecord::replay(p, moves)?),)+
                })
            }
        }
    };
}

crate::for_each_game!(define_any []);

/// Runs a generic expression on the concrete position inside an
/// [`AnyPosition`]: `with_position!(any, p => p.legal_moves().len())`.
#[macro_export]
macro_rules! with_position {
    ($any:expr, $p:ident => $body:expr) => {
        $crate::for_each_game!($crate::match_position [$any, $p => $body])
    };
}

/// [`with_position!`]'s callback of [`for_each_game!`](crate::for_each_game).
#[doc(hidden)]
#[macro_export]
macro_rules! match_position {
    ([$any:expr, $p:ident => $body:expr] $(($g:ident, $name:literal, $doc:literal))+) => {
        match $any {
            $($crate::AnyPosition::$g($p) => $body,)+
        }
    };
}

/// Runs a generic expression on the concrete record inside an
/// [`AnyRecord`]: `with_record!(any, r => r.ply())`.
#[macro_export]
macro_rules! with_record {
    ($any:expr, $r:ident => $body:expr) => {
        $crate::for_each_game!($crate::match_record [$any, $r => $body])
    };
}

/// [`with_record!`]'s callback of [`for_each_game!`](crate::for_each_game).
#[doc(hidden)]
#[macro_export]
macro_rules! match_record {
    ([$any:expr, $r:ident => $body:expr] $(($g:ident, $name:literal, $doc:literal))+) => {
        match $any {
            $($crate::AnyRecord::$g($r) => $body,)+
        }
    };
}

impl AnyRecord {
    /// The game played from `start` by `moves`: the record, or the ply
    /// (from 1) and the error of the first illegal move.
    pub fn replay(start: AnyPosition, moves: &[Move]) -> Result<Self, (usize, IllegalMove)> {
        Self::played(start, moves)
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
