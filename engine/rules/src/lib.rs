//! The rules of eight two-row mancala rule sets on a bit-packed board:
//! Bohnenspiel, Bohnenspiel as Hemprich plays it, Al-manqala, Bosh,
//! Djenon-abe, Kalah, Kalah with empty captures and Oware. Sowing, captures,
//! the cycle rule, the position notation, game records and perft; nothing
//! that needs threads, files or the operating system (this crate depends
//! on `thiserror` alone), so it builds for any target.
//!
//! A position is a [`Position<R>`] for a rule set `R` ([`Bohnenspiel`],
//! [`Oware`], …): one `u128`, `Copy`, played by copy-make, the move
//! generator monomorphised per game. Code that learns the game at run time
//! uses [`AnyPosition`] and [`with_position!`].
//!
//! ```
//! use mancala_rules::{perft_leaves, AnyPosition, Bohnenspiel, GameId, LeafCounting, Move, Position, Status};
//!
//! // A position from its notation, and back.
//! let start: Position<Bohnenspiel> = "bohnenspiel 6,6,6,6,6,6/6,6,6,6,6,6 S 0-0".parse().unwrap();
//! assert_eq!(start, Position::start());
//! assert_eq!(start.to_string(), "bohnenspiel 6,6,6,6,6,6/6,6,6,6,6,6 S 0-0");
//!
//! // Legal moves, and a move played by copy.
//! assert_eq!(start.legal_moves().len(), 6);
//! let next = start.try_play(Move::from_pit(3)).unwrap();
//! assert_eq!(next.to_string(), "bohnenspiel 6,6,0,7,7,7/7,7,7,6,6,6 N 0-0");
//! assert_eq!(next.status(), Status::Ongoing);
//!
//! // Perft: the leaves of the game tree at a depth.
//! assert_eq!(perft_leaves(&start, 2, LeafCounting::Bulk), 36);
//!
//! // The game chosen at run time.
//! let any: AnyPosition = "oware 4,4,4,4,4,4/4,4,4,4,4,4 S 0-0".parse().unwrap();
//! assert_eq!(any.game(), GameId::Oware);
//! ```
//!
//! Where things are: the board and the [`Rules`] trait (`board.rs`); the
//! games, one file each (`games/`); sowing laps and capture chains
//! (`sow.rs`); the notation (`notation.rs`) and its errors (`error.rs`);
//! the cycle rule over a line of play ([`repetition`]); game records
//! ([`GameRecord`], [`pgn`]); a Bohnenspiel partie of several games
//! ([`Partie`]); perft (`perft.rs`).

mod any;
mod board;
mod error;
mod game;
mod games;
mod moves;
mod notation;
mod partie;
mod perft;
pub mod pgn;
mod record;
pub mod repetition;
mod side;
mod sow;

pub use any::{AnyPosition, AnyRecord};
pub use board::{Position, Rules};
pub use error::{IllegalMove, IllegalReason, PositionError, UnknownGame};
pub use game::{margin, Capture, CaptureSet, GameId, Sowing, Status, WinRule};
// Every game's rules type (and Bosh's match), as games/mod.rs exports them.
pub use games::*;
pub use moves::{Move, MoveList, MAX_MOVES};
pub use partie::{Partie, PARTIE_TARGET};
pub use perft::{perft, perft_divide, perft_leaves, LeafCounting};
pub use record::{EndReason, GameRecord};
pub use side::Side;

/// The bit layout of the board, for the crates that index and evaluate
/// boards (tables, evaluation): a pit is an 8-bit lane of the `u128`, South's
/// pits first. Stable within a version; not needed to play.
#[doc(hidden)]
pub mod layout {
    pub use crate::board::{
        compress_high_bits, lane, lane_sum, lanes, nonzero_lanes, CLOSED_SHIFT, LANE, NARROW_SHIFT,
        SIDE_BIT, STORE_SHIFT,
    };
    pub use crate::games::oware_unsow;
}
