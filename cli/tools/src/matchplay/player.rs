//! Players: who picks the moves in a match, and what they are asked and
//! answer. A player is described by a [`PlayerSpec`](super::spec::PlayerSpec)
//! (parsed from `--player` text) and built once per worker thread; every
//! player sees positions as [`AnyPosition`], so one match runner serves
//! every game. The two simplest players are here, the engine and
//! external programs in their own files.

use std::fmt;
use std::time::Duration;

use mancala_engine::{with_position, AnyPosition, Move, Position, Rules, Status};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

/// What a player is asked: the round so far and the position to move in.
pub struct Request<'a> {
    /// The round's start position (the first occurrence for the cycle rule).
    pub start: AnyPosition,
    /// The moves played since `start`.
    pub moves: &'a [Move],
    /// The position now (`start` with `moves` played).
    pub current: AnyPosition,
}

/// A player's answer.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Reply {
    /// The move chosen.
    pub mv: Move,
    /// The player's score for the position, if it reports one (seeds, from
    /// the side to move's view).
    pub score: Option<f64>,
    /// Whether the player says the score is proven.
    pub exact: bool,
    /// Whether the move came from a proof that it keeps at least the
    /// score (the built-in engine's book or runtime solver in a solved
    /// game), not from a search.
    pub proven: bool,
}

/// Why a player lost a game by forfeit.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Fault {
    /// The program could not be started, exited, or closed its output.
    Crash(String),
    /// No answer within the allowed time.
    Timeout(Duration),
    /// A well-formed move that is not legal in the position.
    Illegal(u8),
    /// An answer that is not a move.
    Garbled(String),
}

impl Fault {
    /// Every fault's [`kind`](Fault::kind), in the order of the variants
    /// (a game file's forfeits are read back by these names).
    pub const KINDS: [&'static str; 4] = ["crash", "timeout", "illegal", "garbled"];

    /// The short reason recorded in the game file.
    pub fn kind(&self) -> &'static str {
        Self::KINDS[match self {
            Fault::Crash(_) => 0,
            Fault::Timeout(_) => 1,
            Fault::Illegal(_) => 2,
            Fault::Garbled(_) => 3,
        }]
    }
}

impl fmt::Display for Fault {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Fault::Crash(why) => write!(f, "crashed: {why}"),
            Fault::Timeout(d) => write!(f, "no move within {} ms", d.as_millis()),
            Fault::Illegal(pit) => write!(f, "illegal move {pit}"),
            Fault::Garbled(line) => write!(f, "garbled answer '{line}'"),
        }
    }
}

/// Someone (or something) that picks moves.
pub trait Player: Send {
    /// Prepares for a new game (or Partie / Bosh match); `seed` makes
    /// randomised players reproducible game by game.
    fn new_game(&mut self, seed: u64) -> Result<(), Fault>;
    /// Picks a move in `request.current`, which is not over.
    fn choose(&mut self, request: &Request) -> Result<Reply, Fault>;
    /// Called after the player forfeited a game (e.g. by an illegal move):
    /// a program is restarted afresh. Nothing to do for in-process players.
    fn reset(&mut self) {}
}

pub use mancala_engine::search::Limits;

/// A player that cannot be built from its spec.
#[derive(Debug, thiserror::Error)]
pub enum BuildError {
    /// Its transposition table cannot be allocated.
    #[error("player '{player}': {source}")]
    Table {
        /// The player's name.
        player: String,
        /// Why.
        #[source]
        source: mancala_engine::tt::TableTooLarge,
    },
    /// The weights file does not load.
    #[error("player '{player}': weights: {source}")]
    Weights {
        /// The player's name.
        player: String,
        /// Why.
        #[source]
        source: mancala_eval::EvalFileError,
    },
}

/// Plays a uniformly random legal move; reseeded for every game.
#[derive(Default)]
pub struct RandomPlayer {
    rng: Option<StdRng>,
}

impl Player for RandomPlayer {
    fn new_game(&mut self, seed: u64) -> Result<(), Fault> {
        self.rng = Some(StdRng::seed_from_u64(seed));
        Ok(())
    }

    fn choose(&mut self, request: &Request) -> Result<Reply, Fault> {
        let legal = request.current.legal_moves();
        let rng = self.rng.get_or_insert_with(|| StdRng::seed_from_u64(0));
        let mv = legal[rng.random_range(0..legal.len())];
        Ok(Reply {
            mv,
            score: None,
            exact: false,
            proven: false,
        })
    }
}

/// Plays the move that gains the most seeds at once (captures, or the
/// seeds the end-of-game rules hand over), the lowest pit among equals.
/// Deterministic.
pub struct Greedy;

/// The greedy move and its gain, `None` if the game is over.
pub fn greedy_move<R: Rules>(pos: Position<R>) -> Option<(Move, i32)> {
    let me = pos.side_to_move().index();
    let before = pos.tallies()[me] as i32;
    let mut best: Option<(Move, i32)> = None;
    R::generate(&pos, |mv, child| {
        let after = match child.status() {
            Status::Over(totals) => totals[me],
            Status::Ongoing => child.tallies()[me],
        } as i32;
        let gain = after - before;
        if best.is_none_or(|(_, g)| gain > g) {
            best = Some((mv, gain));
        }
    });
    best
}

impl Player for Greedy {
    fn new_game(&mut self, _seed: u64) -> Result<(), Fault> {
        Ok(())
    }

    fn choose(&mut self, request: &Request) -> Result<Reply, Fault> {
        let (mv, _gain) = with_position!(request.current, p => greedy_move(p))
            .expect("choose is only asked in a running game");
        // The seeds a move takes are not a score of the position.
        Ok(Reply {
            mv,
            score: None,
            exact: false,
            proven: false,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use mancala_engine::Bohnenspiel;

    #[test]
    fn greedy_takes_the_biggest_capture_lowest_pit_first() {
        // From the start nothing captures: the lowest pit, 1.
        let start = Position::<Bohnenspiel>::start();
        assert_eq!(greedy_move(start), Some((Move::from_pit(1), 0)));
        // South's pit 6 holds 2: sowing it drops the last seed in pit 8
        // (1 → 2) after pit 7 (3 → 4): a chain capture of 2 + 4.
        let pos: Position<Bohnenspiel> =
            "bohnenspiel 6,5,6,6,6,2/3,1,6,6,6,6 S 7-6".parse().unwrap();
        let (mv, gain) = greedy_move(pos).unwrap();
        assert_eq!((mv.pit(), gain), (6, 6));
    }
}
