//! One module per subcommand.

pub mod analyze;
pub mod bench;
pub mod book;
pub mod engine;
pub mod r#match;
pub mod openings;
pub mod perft;
pub mod play;
pub mod replay;
pub mod review;
pub mod rules;
pub mod serve;
pub mod show;
pub mod solve;
pub mod tablebase;
pub mod tune;
