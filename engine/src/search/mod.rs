//! Game-tree search: a transposition table shared between threads (and with
//! the solver), and an iterative-deepening alpha-beta search generic over an
//! evaluation.

pub mod params;
pub mod tt;
