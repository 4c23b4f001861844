//! The grammar of the `mancala engine` line protocol (docs/protocol.md):
//! the `position` and `go` commands, parsed into typed values with typed
//! errors. The binary's `engine` command runs them; the external-engine
//! player of [`crate::matchplay::external`] writes them.
//!
//! ```
//! use mancala_tools::protocol::{parse_go, parse_position};
//! let set = parse_position(&["bohnenspiel", "moves", "3", "8"]).unwrap();
//! assert_eq!(set.moves.len(), 2);
//! assert_eq!(parse_go(&["depth", "7"]).unwrap().depth, Some(7));
//! ```

use std::time::Duration;

use mancala_engine::search::params::MAX_DEPTH;
use mancala_engine::search::Limits;
use mancala_engine::{
    with_position, AnyPosition, AnyRecord, GameId, GameRecord, IllegalReason, Move, Position,
    PositionError, Rules, UnknownGame,
};

/// A `position` command that cannot be carried out.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PositionCommandError {
    /// Nothing after `position`.
    #[error("position: give a position or a game name")]
    Missing,
    /// A game name that is not one of the five.
    #[error("position: {0}")]
    Game(#[from] UnknownGame),
    /// A position in the notation that does not parse.
    #[error("position '{text}': {source}")]
    Notation {
        /// The text.
        text: String,
        /// Why.
        #[source]
        source: PositionError,
    },
    /// Something other than `moves` after the position.
    #[error("position: expected 'moves', found '{0}'")]
    ExpectedMoves(String),
    /// A move that is not a pit number.
    #[error("ply {ply}: '{text}' is not a move (a pit number)")]
    NotAMove {
        /// The ply, from 1.
        ply: usize,
        /// The text.
        text: String,
    },
    /// A move that is not legal where it is played.
    #[error("ply {ply}: pit {mv}: {reason}")]
    Illegal {
        /// The ply, from 1.
        ply: usize,
        /// The move.
        mv: Move,
        /// Why it is illegal.
        reason: IllegalReason,
    },
}

/// A `go` command that cannot be carried out.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum GoError {
    /// A limit without its value.
    #[error("go {0}: missing value")]
    MissingValue(&'static str),
    /// A value that is not a positive whole number.
    #[error("go {limit}: '{text}' is not a positive number")]
    NotPositive {
        /// The limit.
        limit: &'static str,
        /// The text.
        text: String,
    },
    /// A depth beyond the search's.
    #[error("go depth: at most {MAX_DEPTH}")]
    TooDeep,
    /// A word that is not a limit.
    #[error("go: unknown limit '{0}'")]
    Unknown(String),
}

/// A protocol line that cannot be carried out (reported as `error: …` on
/// stderr; the engine keeps running).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum CommandError {
    /// A bad `position` command.
    #[error(transparent)]
    Position(#[from] PositionCommandError),
    /// A bad `go` command.
    #[error(transparent)]
    Go(#[from] GoError),
    /// A bad `threads` command (the error names the command).
    #[error(transparent)]
    Threads(#[from] crate::limits::LimitError),
    /// `threads` without a number.
    #[error("threads: give a number of threads (threads N)")]
    ThreadsMissing,
    /// A command the protocol does not have.
    #[error("unknown command '{0}'")]
    Unknown(String),
}

/// Parses the words after `threads`: one whole number, within what this
/// machine allows ([`crate::limits::threads`]).
pub fn parse_threads(words: &[&str]) -> Result<usize, CommandError> {
    match words {
        [n] => {
            let value = n.parse::<u64>().map_err(|_| CommandError::ThreadsMissing)?;
            Ok(crate::limits::threads("threads", value)?)
        }
        _ => Err(CommandError::ThreadsMissing),
    }
}

/// What a `position` command sets: a start position and the moves played
/// since (checked legal, cycle rule included).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SetPosition {
    /// The start position (the first occurrence for the cycle rule).
    pub start: AnyPosition,
    /// The moves played since.
    pub moves: Vec<Move>,
}

/// Replays `moves` from `start` ([`GameRecord::replay`]): the game
/// record, or the first illegal move.
pub fn replay<R: Rules>(
    start: Position<R>,
    moves: &[Move],
) -> Result<GameRecord<R>, PositionCommandError> {
    GameRecord::replay(start, moves).map_err(illegal)
}

/// [`replay`] for a game learnt at run time: the checked record.
pub fn replay_any(start: AnyPosition, moves: &[Move]) -> Result<AnyRecord, PositionCommandError> {
    AnyRecord::replay(start, moves).map_err(illegal)
}

/// A replay's first illegal move (its ply from 1) as the protocol says it.
fn illegal((ply, e): (usize, mancala_engine::IllegalMove)) -> PositionCommandError {
    PositionCommandError::Illegal {
        ply,
        mv: e.mv,
        reason: e.reason,
    }
}

/// Parses the words after `position`: a position in the notation (its four
/// fields) or a game name (its start), then optionally `moves m1 m2 …`,
/// which must be legal in turn.
pub fn parse_position(words: &[&str]) -> Result<SetPosition, PositionCommandError> {
    use PositionCommandError as E;
    let (start, rest) = match words.first() {
        None => return Err(E::Missing),
        Some(_) if words.len() >= 4 && words[1].contains('/') => {
            let text = words[..4].join(" ");
            let start = text
                .parse()
                .map_err(|source| E::Notation { text, source })?;
            (start, &words[4..])
        }
        Some(first) => (AnyPosition::start(first.parse::<GameId>()?), &words[1..]),
    };
    let moves = match rest.split_first() {
        None => Vec::new(),
        Some((&"moves", list)) => list
            .iter()
            .enumerate()
            .map(|(i, m)| {
                m.parse::<u8>()
                    .map(Move::from_pit)
                    .map_err(|_| E::NotAMove {
                        ply: i + 1,
                        text: m.to_string(),
                    })
            })
            .collect::<Result<Vec<_>, _>>()?,
        Some((other, _)) => return Err(E::ExpectedMoves(other.to_string())),
    };
    with_position!(start, p => replay(p, &moves).map(|_| ()))?;
    Ok(SetPosition { start, moves })
}

/// Parses the words after `go`: `depth D`, `movetime MS`, `nodes N`,
/// `infinite`, in any order.
pub fn parse_go(words: &[&str]) -> Result<Limits, GoError> {
    let mut limits = Limits::default();
    let mut i = 0;
    while i < words.len() {
        let value = |limit: &'static str| -> Result<u64, GoError> {
            let text = words.get(i + 1).ok_or(GoError::MissingValue(limit))?;
            match text.parse::<u64>() {
                Ok(v) if v > 0 => Ok(v),
                _ => Err(GoError::NotPositive {
                    limit,
                    text: text.to_string(),
                }),
            }
        };
        match words[i] {
            "depth" => {
                let d = value("depth")?;
                if d > MAX_DEPTH as u64 {
                    return Err(GoError::TooDeep);
                }
                limits.depth = Some(d as u32);
                i += 2;
            }
            "movetime" => {
                limits.time = Some(Duration::from_millis(value("movetime")?));
                i += 2;
            }
            "nodes" => {
                limits.nodes = Some(value("nodes")?);
                i += 2;
            }
            "infinite" => i += 1,
            other => return Err(GoError::Unknown(other.to_string())),
        }
    }
    Ok(limits)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn go_limits_parse_and_bad_ones_are_refused() {
        let l = parse_go(&["depth", "7", "movetime", "250", "nodes", "1000"]).unwrap();
        assert_eq!(l.depth, Some(7));
        assert_eq!(l.time, Some(Duration::from_millis(250)));
        assert_eq!(l.nodes, Some(1000));
        assert_eq!(parse_go(&["infinite"]).unwrap(), Limits::default());
        assert_eq!(parse_go(&["depth"]), Err(GoError::MissingValue("depth")));
        assert!(matches!(
            parse_go(&["depth", "0"]),
            Err(GoError::NotPositive { .. })
        ));
        assert!(matches!(
            parse_go(&["depth", "x"]),
            Err(GoError::NotPositive { .. })
        ));
        assert_eq!(parse_go(&["depth", "100000"]), Err(GoError::TooDeep));
        assert_eq!(
            parse_go(&["ponder"]),
            Err(GoError::Unknown("ponder".into()))
        );
    }

    #[test]
    fn positions_parse_with_their_moves_and_bad_ones_are_refused() {
        let set =
            parse_position(&["bosh", "4,4,4,4,4/4,4,4,4,4", "S", "0-0", "moves", "1"]).unwrap();
        assert_eq!(set.start, AnyPosition::start(GameId::Bosh));
        assert_eq!(set.moves, vec![Move::from_pit(1)]);
        use PositionCommandError as E;
        assert_eq!(parse_position(&[]), Err(E::Missing));
        assert!(matches!(parse_position(&["chess"]), Err(E::Game(_))));
        assert!(matches!(
            parse_position(&["bohnenspiel", "6,6/6", "S", "0-0"]),
            Err(E::Notation { .. })
        ));
        assert_eq!(
            parse_position(&["bohnenspiel", "3"]),
            Err(E::ExpectedMoves("3".into()))
        );
        assert!(matches!(
            parse_position(&["bohnenspiel", "moves", "3", "x"]),
            Err(E::NotAMove { ply: 2, .. })
        ));
        // North's turn after 3: South's pit 3 again is not North's.
        let e = parse_position(&["bohnenspiel", "moves", "3", "3"]).unwrap_err();
        assert!(matches!(e, E::Illegal { ply: 2, .. }), "{e}");
        assert_eq!(
            e.to_string(),
            "ply 2: pit 3: the pit belongs to the other player"
        );
    }
}

/// The object `mancala solve --json` prints (docs/protocol.md), which the
/// web board's `POST /api/solve` answers too.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct SolveReport {
    /// The final margin for the side to move (for an unfinished proof, the
    /// last value tried).
    pub margin: i32,
    /// `win`, `draw` or `loss` for the side to move; for an unfinished
    /// proof, the outcome its bounds decide, or `null` where they do not.
    pub outcome: Option<&'static str>,
    /// Every move that keeps the value (unfinished: the best found so far).
    pub best: Vec<u8>,
    /// A line of best moves (empty for an unfinished proof).
    pub pv: Vec<u8>,
    /// Positions visited.
    pub nodes: u64,
    /// Time taken.
    pub seconds: f64,
    /// Whether the proof finished.
    pub proven: bool,
    /// What an unfinished proof proved: the value is at least this.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub lower: Option<i32>,
    /// What an unfinished proof proved: the value is at most this.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub upper: Option<i32>,
    /// The threads the proof ran on.
    pub threads: usize,
}

impl SolveReport {
    /// The report of the solution of `pos`, or (`bounds` given) of a proof
    /// that a limit stopped, `solution` then holding the value tried last
    /// and the best move found so far; the proof ran on `threads`.
    pub fn new(
        pos: &AnyPosition,
        solution: &mancala_engine::solve::Solution,
        bounds: Option<mancala_engine::solve::Bounds>,
        seconds: f64,
        threads: usize,
    ) -> Self {
        let pits = |m: &[Move]| m.iter().map(|m| m.pit()).collect::<Vec<_>>();
        let bounds = bounds.map(|b| within_seeds(pos, b));
        let decided = match bounds {
            None => Some(outcome(pos, solution.margin)),
            Some(b) => Some(outcome(pos, b.lower)).filter(|o| *o == outcome(pos, b.upper)),
        };
        SolveReport {
            margin: solution.margin,
            outcome: decided.map(|o| o.name()),
            best: pits(&solution.best),
            pv: pits(&solution.pv),
            nodes: solution.nodes,
            seconds,
            proven: bounds.is_none(),
            lower: bounds.map(|b| b.lower),
            upper: bounds.map(|b| b.upper),
            threads,
        }
    }
}

/// A proof's bounds on the value of `pos` narrowed to what its seeds allow
/// ([`AnyPosition::margin_range`]): a proof starts from the widest margin
/// of its game, which says nothing of this position.
pub fn within_seeds(
    pos: &AnyPosition,
    b: mancala_engine::solve::Bounds,
) -> mancala_engine::solve::Bounds {
    let (least, most) = pos.margin_range();
    let lower = b.lower.clamp(least, most);
    let upper = b.upper.clamp(lower, most);
    mancala_engine::solve::Bounds {
        lower,
        upper,
        guess: b.guess.clamp(lower, upper),
    }
}

/// The outcome for the side to move of `pos` if the game ends with this
/// margin, by the game's own win rule.
pub fn outcome(pos: &AnyPosition, margin: i32) -> mancala_engine::solve::Outcome {
    use mancala_engine::solve::Outcome;
    let (me, tallies, board) = (pos.side_to_move(), pos.tallies(), pos.board_seeds() as i32);
    let all = tallies[0] as i32 + tallies[1] as i32 + board;
    let mine = ((all + margin) / 2).clamp(0, 255) as u8;
    let theirs = (all - mine as i32).clamp(0, 255) as u8;
    let mut totals = [0u8; 2];
    totals[me.index()] = mine;
    totals[(!me).index()] = theirs;
    match pos.game().winner(totals) {
        Some(side) if side == me => Outcome::Win,
        Some(_) => Outcome::Loss,
        None => Outcome::Draw,
    }
}
