//! Self-play strength testing: players, game playing, the match runner,
//! its statistics, opening files and the Elo plot.

pub mod builtin;
pub mod external;
pub mod game;
pub mod gamefile;
pub mod openings;
pub mod player;
pub mod plot;
pub mod runner;
pub mod spec;
pub mod stats;
