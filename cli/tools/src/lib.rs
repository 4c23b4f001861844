//! The tools behind the `mancala` binary, as a library (the crate
//! `mancala-tools`; the web board is `mancala-serve`, so that nothing here
//! pulls in the web stack): strength testing
//! (players, the external-engine client, game playing, the match runner,
//! Elo, LOS and SPRT, the Elo plot), the `engine` line protocol's grammar,
//! the tuning of evaluation weights, and the bench. The binary (`cli/src/main.rs`,
//! `cli/src/cmd/`) adds the command-line arguments and the output; another front
//! end, a benchmark or a test can call everything here in-process.
//!
//! Where things are:
//!
//! | what | module |
//! |---|---|
//! | players and their `--player` specs | [`matchplay::player`] |
//! | the built-in engine as a player | [`matchplay::builtin`] |
//! | an external engine over the line protocol | [`matchplay::external`] |
//! | playing a game, a Partie or a Bosh match | [`matchplay::game`] |
//! | the match runner (pairings, concurrency, SPRT stop) | [`matchplay::runner`] |
//! | Elo, error bars, LOS, pentanomial SPRT | [`matchplay::stats`] |
//! | the SVG plot of a match | [`matchplay::plot`] |
//! | positions a few plies from the start | [`matchplay::openings`] |
//! | the `position` and `go` commands of `mancala engine` | [`protocol`] |
//! | the `mancala engine` protocol run on stdin and stdout | [`engine`](mod@engine) |
//! | a game reviewed move by move, its marks and score graph | [`review`] |
//! | self-play data and the weight fit | [`tune`] |
//! | the bench signature and the thread speed-up | [`bench`](mod@bench) |
//! | accuracy against exact values: the set and the grade | [`accuracy`] |
//! | Ctrl-C as a request to finish with a result | [`interrupt`] |
//! | bad input, said in one line (exit status 2) | [`bad`] |
//! | a proof ledger worked by processes, threads or MPI ranks | [`ledger`], [`transport`] |
//! | the books of proven moves built, checked and tested | [`book`](mod@book) |
//! | a proof as `solve` runs it: tables assembled, checkpoints, progress | [`solving`] |
//! | table builds with their progress, info, verify, puzzles, the accuracy set | [`tables`] |
//! | the board drawn as players see it (`show`, `play`) | [`board`] |
//! | a game against the engine at a prompt (`play`) | [`session`] |
//! | every size-like option checked against this machine | [`limits`] |
//! | lines read from pipes and programs, bounded and byte-tolerant | [`lines`] |
//! | scores for people: whose, in what unit, proven or not | [`text`] |
//!
pub mod accuracy;
pub mod bad;
pub mod bench;
pub mod board;
pub mod book;
pub mod engine;
pub mod interrupt;
pub mod ledger;
pub mod limits;
pub mod lines;
pub mod matchplay;
pub mod progress;
pub mod protocol;
pub mod review;
pub mod session;
pub mod solving;
pub mod tables;
pub mod text;
pub mod transport;
pub mod tune;
