//! One module per subcommand.

pub mod perft;
pub mod replay;
pub mod show;
