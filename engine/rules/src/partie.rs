//! The Bohnenspiel *Partie* (docs/rules.md, Bohnenspiel rule 5): whole games
//! until a player reaches 100 points.

use crate::board::{Position, Rules};
use crate::side::Side;

/// Points that win a Partie.
pub const PARTIE_TARGET: u32 = 100;

/// A Partie in progress: the points so far and who starts the next game.
///
/// ```
/// use mancala_rules::{Bohnenspiel, Partie, Side};
/// let mut partie = Partie::<Bohnenspiel>::new();
/// assert_eq!(partie.record([40, 32]), None);
/// assert_eq!(partie.next_start().side_to_move(), Side::North);
/// assert_eq!(partie.record([30, 42]), None);
/// // Both pass 100 in the same round (106 and 110): the higher total wins.
/// assert_eq!(partie.record([36, 36]), Some(Side::North));
/// assert_eq!(partie.points(), [106, 110]);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Partie<R: Rules> {
    points: [u32; 2],
    games: u32,
    winner: Option<Side>,
    rules: std::marker::PhantomData<R>,
}

impl<R: Rules> Default for Partie<R> {
    fn default() -> Self {
        Self::new()
    }
}

impl<R: Rules> Partie<R> {
    /// A new Partie, South starting the first game.
    pub fn new() -> Self {
        Partie {
            points: [0, 0],
            games: 0,
            winner: None,
            rules: std::marker::PhantomData,
        }
    }

    /// Points so far, `[south, north]`.
    pub fn points(&self) -> [u32; 2] {
        self.points
    }

    /// Games played so far.
    pub fn games(&self) -> u32 {
        self.games
    }

    /// Who starts the next game: South first, then alternately.
    pub fn next_starter(&self) -> Side {
        if self.games.is_multiple_of(2) {
            Side::South
        } else {
            Side::North
        }
    }

    /// The start position of the next game.
    pub fn next_start(&self) -> Position<R> {
        Position::start().with_side_to_move(self.next_starter())
    }

    /// The winner, once decided.
    pub fn winner(&self) -> Option<Side> {
        self.winner
    }

    /// Adds a finished game's final totals and returns the winner if the
    /// Partie is decided: the first to 100; if both pass 100 in the same
    /// round the higher total wins; equal totals play one more round.
    pub fn record(&mut self, totals: [u8; 2]) -> Option<Side> {
        if self.winner.is_some() {
            return self.winner;
        }
        self.games += 1;
        self.points[0] += totals[0] as u32;
        self.points[1] += totals[1] as u32;
        let [s, n] = self.points;
        self.winner = match (s >= PARTIE_TARGET, n >= PARTIE_TARGET) {
            (false, false) => None,
            (true, false) => Some(Side::South),
            (false, true) => Some(Side::North),
            (true, true) if s > n => Some(Side::South),
            (true, true) if n > s => Some(Side::North),
            (true, true) => None,
        };
        self.winner
    }
}
