//! A game as played: its positions, its moves, and the cycle rule (the third
//! occurrence of a position ends the game with the board split equally;
//! [`crate::repetition`]).

use crate::board::{Position, Rules};
use crate::error::{IllegalMove, IllegalReason};
use crate::game::Status;
use crate::moves::{Move, MoveList};
use crate::repetition::{Line, ENDING_OCCURRENCE};

/// Why a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum EndReason {
    /// By the game's own end rules (no legal move, empty board, …).
    Rules,
    /// A position occurred for the third time (the cycle rule).
    Repetition,
    /// Stopped by a match adjudication cap; scored as a cycle.
    PlyCap,
}

/// A game record: the start position (the first occurrence for the cycle
/// rule; no earlier history is assumed), the moves played, and the
/// repetition counts.
///
/// ```
/// use mancala_rules::{Bohnenspiel, GameRecord, Move, Position, Status};
/// let mut game = GameRecord::new(Position::<Bohnenspiel>::start());
/// game.play(Move::from_pit(3)).unwrap();
/// assert_eq!(game.status(), Status::Ongoing);
/// assert!(game.play(Move::from_pit(3)).is_err()); // North's turn
/// ```
#[derive(Clone, Debug)]
pub struct GameRecord<R: Rules> {
    positions: Vec<Position<R>>,
    moves: Vec<Move>,
    /// The positions as a line, for the cycle rule.
    line: Line,
    /// Each position's occurrence number (1 for its first).
    occurrence: Vec<u8>,
    end: Option<(EndReason, [u8; 2])>,
}

impl<R: Rules> GameRecord<R> {
    /// The game played from `start` by `moves`, each checked: the record,
    /// or the ply (from 1) and the error of the first illegal move. The one
    /// replay of a line: [`AnyRecord::replay`](crate::AnyRecord::replay)
    /// and the front ends' replays are this one.
    pub fn replay(start: Position<R>, moves: &[Move]) -> Result<Self, (usize, IllegalMove)> {
        let mut game = GameRecord::new(start);
        for (ply, &mv) in moves.iter().enumerate() {
            game.play(mv).map_err(|e| (ply + 1, e))?;
        }
        Ok(game)
    }

    /// A record starting at `start`.
    pub fn new(start: Position<R>) -> Self {
        let mut record = GameRecord {
            positions: Vec::new(),
            moves: Vec::new(),
            line: Line::new(),
            occurrence: Vec::new(),
            end: None,
        };
        record.enter(start);
        record
    }

    fn enter(&mut self, pos: Position<R>) {
        let count = self.line.occurrences(&pos);
        self.positions.push(pos);
        self.line.push(&pos);
        self.occurrence.push(count as u8);
        self.end = if count >= ENDING_OCCURRENCE {
            Some((EndReason::Repetition, pos.cycle_totals()))
        } else {
            match pos.status() {
                Status::Over(totals) => Some((EndReason::Rules, totals)),
                Status::Ongoing => None,
            }
        };
    }

    /// The position now.
    pub fn current(&self) -> Position<R> {
        *self
            .positions
            .last()
            .expect("a record has a start position")
    }

    /// The start position.
    pub fn start(&self) -> Position<R> {
        self.positions[0]
    }

    /// The moves played, in order.
    pub fn moves(&self) -> &[Move] {
        &self.moves
    }

    /// Every position, the start first and the current one last.
    pub fn positions(&self) -> &[Position<R>] {
        &self.positions
    }

    /// Plies played.
    pub fn ply(&self) -> usize {
        self.moves.len()
    }

    /// Whether the game is over, cycle rule included, with its final totals.
    pub fn status(&self) -> Status {
        match self.end {
            Some((_, totals)) => Status::Over(totals),
            None => Status::Ongoing,
        }
    }

    /// Why the game ended, if it has.
    pub fn end_reason(&self) -> Option<EndReason> {
        self.end.map(|(r, _)| r)
    }

    /// How many times the current position has occurred (1, 2 or 3).
    pub fn occurrences(&self) -> u8 {
        *self
            .occurrence
            .last()
            .expect("a record has a start position")
    }

    /// The legal moves now; empty once the game is over.
    pub fn legal_moves(&self) -> MoveList {
        if self.end.is_some() {
            MoveList::new()
        } else {
            self.current().legal_moves()
        }
    }

    /// Plays a move, checking it.
    pub fn play(&mut self, mv: Move) -> Result<(), IllegalMove> {
        if self.end.is_some() {
            return Err(IllegalMove {
                mv,
                reason: IllegalReason::GameOver,
            });
        }
        let next = self.current().try_play(mv)?;
        self.moves.push(mv);
        self.enter(next);
        Ok(())
    }

    /// Takes back the last move, if any.
    pub fn undo(&mut self) -> Option<Move> {
        let mv = self.moves.pop()?;
        self.positions.pop();
        self.line.pop();
        self.occurrence.pop();
        let now = self.positions.pop().expect("the start stays");
        self.line.pop();
        self.occurrence.pop();
        self.enter(now);
        Some(mv)
    }

    /// Ends an unfinished game at a match's ply cap, scored as a cycle
    /// (docs/rules.md, "A match adjudication cap").
    pub fn adjudicate(&mut self) {
        if self.end.is_none() {
            self.end = Some((EndReason::PlyCap, self.current().cycle_totals()));
        }
    }
}
