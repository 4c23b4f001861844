//! The mancala engine, whole: one dependency for a program that plays,
//! analyses and solves two-row mancala games. It is the crates of the
//! engine's layers, re-exported under one name:
//!
//! | module | crate | what |
//! |---|---|---|
//! | (the root) | [`mancala_rules`] | the eight rule sets, the bit-packed board, sowing, notation, records, perft |
//! | [`files`] | [`mancala_files`] | the `positions/` data files; atomic writes, locks, bounded reads |
//! | [`solve`], [`tt`] | [`mancala_solve`] | the exact solver, its transposition table, checkpoints and the proof ledger |
//! | [`search`] | [`mancala_search`] | the game-tree search (iterative deepening, Lazy SMP) |
//! | [`tablebase`] | [`mancala_tables`] | endgame tables: build, files, probes, checks |
//! | [`book`] | [`mancala_book`] | opening books of proven moves and the runtime solver |
//!
//! Each layer depends only on those above it in this table (the search
//! and the tables both stand on the solver, neither on the other);
//! docs/architecture.md draws them.
//!
//! ```
//! use mancala_engine::{AnyPosition, GameId};
//! let pos: AnyPosition = "bohnenspiel 6,6,6,6,6,6/6,6,6,6,6,6 S 0-0".parse().unwrap();
//! assert_eq!(pos, AnyPosition::start(GameId::Bohnenspiel));
//! ```

pub use mancala_book as book;
pub use mancala_files as files;
pub use mancala_rules::*;
pub use mancala_search as search;
pub use mancala_solve as solve;
pub use mancala_solve::tt;
pub use mancala_tables as tablebase;
pub use mancala_tables::with_table_rules;
