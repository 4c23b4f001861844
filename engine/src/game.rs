//! The five rule sets, named, and the `Rules` trait that monomorphises the
//! move generator per game.

use std::fmt;
use std::str::FromStr;

use crate::board::Position;
use crate::moves::Move;
use crate::side::Side;

/// One of the five supported rule sets.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum GameId {
    /// Bohnenspiel, 2×6, 72 seeds, captures of 2/4/6.
    Bohnenspiel,
    /// Bohnenspiel as Hemprich (1926) plays it: a player with no seeds passes.
    BohnenspielHemprich,
    /// Al-manqala, 2×7, 98 seeds, captures of 2/4, feeding.
    AlManqala,
    /// Bosh, 2×5, 40 stones, relay sowing, rounds with closed pits.
    Bosh,
    /// Djenon-abe, 2×6, 48 seeds, multi-lap relay sowing, feeding, final gift.
    DjenonAbe,
}

impl GameId {
    /// Every game, in a fixed order.
    pub const ALL: [GameId; 5] = [
        GameId::Bohnenspiel,
        GameId::BohnenspielHemprich,
        GameId::AlManqala,
        GameId::Bosh,
        GameId::DjenonAbe,
    ];

    /// The name used in the notation (`bohnenspiel`, `al-manqala`, …).
    pub const fn name(self) -> &'static str {
        match self {
            GameId::Bohnenspiel => "bohnenspiel",
            GameId::BohnenspielHemprich => "bohnenspiel-hemprich",
            GameId::AlManqala => "al-manqala",
            GameId::Bosh => "bosh",
            GameId::DjenonAbe => "djenon-abe",
        }
    }

    /// Pits in each row (`N`).
    pub const fn side_pits(self) -> usize {
        match self {
            GameId::Bohnenspiel | GameId::BohnenspielHemprich | GameId::DjenonAbe => 6,
            GameId::AlManqala => 7,
            GameId::Bosh => 5,
        }
    }

    /// Seeds in every pit at the start.
    pub const fn start_seeds(self) -> u8 {
        match self {
            GameId::Bohnenspiel | GameId::BohnenspielHemprich => 6,
            GameId::AlManqala => 7,
            GameId::Bosh | GameId::DjenonAbe => 4,
        }
    }

    /// Total seeds in the game (board plus both tallies).
    pub const fn total_seeds(self) -> u8 {
        2 * self.side_pits() as u8 * self.start_seeds()
    }

    /// The winner by the game's own win rule, from final totals
    /// `[south, north]`; `None` for a draw. Bohnenspiel: more than 36;
    /// Al-manqala: 50 or more; Bosh: the larger pool; Djenon-abe: more
    /// captured seeds.
    pub fn winner(self, totals: [u8; 2]) -> Option<Side> {
        let [s, n] = totals;
        let wins = |x: u8, y: u8| match self {
            GameId::Bohnenspiel | GameId::BohnenspielHemprich => x > 36,
            GameId::AlManqala => x >= 50,
            GameId::Bosh | GameId::DjenonAbe => x > y,
        };
        if wins(s, n) {
            Some(Side::South)
        } else if wins(n, s) {
            Some(Side::North)
        } else {
            None
        }
    }
}

impl fmt::Display for GameId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The error for a game name that is not one of the five.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown game '{0}' (expected one of: bohnenspiel, bohnenspiel-hemprich, al-manqala, bosh, djenon-abe)")]
pub struct UnknownGame(pub String);

impl FromStr for GameId {
    type Err = UnknownGame;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        GameId::ALL
            .into_iter()
            .find(|g| g.name() == s)
            .ok_or_else(|| UnknownGame(s.to_string()))
    }
}

/// Whether a game is still on, and its final totals once it is over.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Status {
    /// The side to move has a legal move.
    Ongoing,
    /// The game (for Bosh: the round) has ended with these final totals,
    /// `[south, north]`, after every end-of-game rule.
    Over([u8; 2]),
}

/// The rules of one game. Implemented by zero-sized marker types
/// ([`Bohnenspiel`](crate::Bohnenspiel), …) so that `Position<R>` and
/// everything built on it is monomorphised per game: no `match game` runs in
/// the sowing loop.
pub trait Rules:
    Copy + Clone + Default + PartialEq + Eq + std::hash::Hash + fmt::Debug + Send + Sync + 'static
{
    /// Which game this is.
    const ID: GameId;
    /// Pits in each row (`N`).
    const SIDE_PITS: usize;
    /// Pits on the board (`2N`).
    const PITS: usize = 2 * Self::SIDE_PITS;
    /// Seeds in every pit at the start.
    const START_SEEDS: u8;
    /// Total seeds (board plus tallies).
    const TOTAL: u8 = 2 * Self::SIDE_PITS as u8 * Self::START_SEEDS;
    /// Whether pits can be closed (Bosh).
    const HAS_CLOSED_PITS: bool = false;

    /// Sows the pit at 0-based `index` for the side to move, applies captures
    /// and hands the move to the other side. Returns `None` for a move whose
    /// sowing never ends (relay games). Does not check feeding rules.
    fn sow(pos: &Position<Self>, index: usize) -> Option<Position<Self>>;

    /// Calls `f` with every legal move, in ascending pit order, and the
    /// position it leads to. Calls nothing when the game is over.
    fn generate<F: FnMut(Move, Position<Self>)>(pos: &Position<Self>, f: F);

    /// The number of legal moves (bulk counting for perft).
    #[inline]
    fn count_moves(pos: &Position<Self>) -> u32 {
        let mut n = 0;
        Self::generate(pos, |_, _| n += 1);
        n
    }

    /// Whether the side to move has a legal move: `count_moves(pos) != 0`,
    /// but stopping at the first move found (the search asks it at every
    /// leaf).
    #[inline]
    fn has_moves(pos: &Position<Self>) -> bool {
        Self::count_moves(pos) != 0
    }

    /// Whether the game has ended at `pos` although the side to move could
    /// sow (Djenon-abe: each player has exactly one seed in their row).
    #[inline]
    fn ends_early(_pos: &Position<Self>) -> bool {
        false
    }

    /// The final totals `[south, north]` of a position where the game is over
    /// (no legal move, or an early end), every end-of-game rule applied.
    fn final_totals(pos: &Position<Self>) -> [u8; 2];
}
