//! The mancala engine: exact rules for five two-row mancala rule sets
//! (Bohnenspiel, Bohnenspiel as Hemprich plays it, Al-manqala, Bosh and
//! Djenon-abe) on a bit-packed board, with move generation and perft.
//!
//! A position is a [`Position<R>`] for a rule set `R` ([`Bohnenspiel`],
//! [`AlManqala`], …): one `u128`, `Copy`, played by copy-make. Code that
//! learns the game at run time uses [`AnyPosition`] and [`with_position!`].
//!
//! ```
//! use mancala_engine::{AnyPosition, GameId};
//! let pos: AnyPosition = "bohnenspiel 6,6,6,6,6,6/6,6,6,6,6,6 S 0-0".parse().unwrap();
//! assert_eq!(pos, AnyPosition::start(GameId::Bohnenspiel));
//! ```

mod any;
mod board;
pub mod book;
pub mod files;
mod game;
mod games;
mod history;
mod memory;
mod moves;
mod notation;
mod partie;
mod perft;
pub mod pgn;
mod record;
pub mod repetition;
pub mod search;
mod side;
pub mod solve;
mod sow;
pub mod tablebase;
pub mod tt;

pub use any::{AnyPosition, AnyRecord};
pub use board::{IllegalMove, IllegalReason, Position};
pub use game::{margin, Capture, CaptureSet, GameId, Rules, Sowing, Status, UnknownGame, WinRule};
pub use games::{
    AlManqala, Bohnenspiel, BohnenspielHemprich, Bosh, BoshMatch, DjenonAbe, Kalah, KalahEmpty,
    MatchEnd, Oware,
};
pub use moves::{Move, MoveList, MAX_MOVES};
pub use notation::PositionError;
pub use partie::{Partie, PARTIE_TARGET};
pub use perft::{perft, perft_divide, perft_leaves, LeafCounting};
pub use record::{EndReason, GameRecord};
pub use side::Side;
