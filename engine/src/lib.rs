//! The mancala engine: the search, the exact solver, the endgame tables and
//! the opening books, over the rules of [`mancala_rules`] (re-exported here:
//! every rule set, the bit-packed board, notation, records and perft).
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

pub mod book;
pub mod files;
mod history;
mod memory;
pub mod search;
pub mod solve;
pub mod tablebase;
pub mod tt;

// The rules, re-exported: `mancala_engine::Position` is
// `mancala_rules::Position`, so code above the engine needs one dependency.
pub use mancala_rules::*;
