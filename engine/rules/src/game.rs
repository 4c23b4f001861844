//! The eight rule sets, named, and what their rules are made of (captures,
//! sowing, the win rule); the [`Rules`](crate::Rules) trait is in `board.rs`.

use std::fmt;

use crate::side::Side;

/// [`GameId`], every game and its name, from the one list of games
/// ([`for_each_game!`](crate::for_each_game)).
macro_rules! define_game_id {
    ([] $(($g:ident, $name:literal, $doc:literal))+) => {
        /// One of the supported rule sets.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub enum GameId {
            $(
                #[doc = $doc]
                $g,
            )+
        }

        impl GameId {
            /// Every game, in a fixed order.
            pub const ALL: [GameId; [$(GameId::$g),+].len()] = [$(GameId::$g),+];

            /// Where the game stands in [`ALL`](Self::ALL) (the list's order).
            pub const fn index(self) -> usize {
                self as usize
            }

            /// The name used in the notation (`bohnenspiel`, `al-manqala`, …).
            pub const fn name(self) -> &'static str {
                match self {
                    $(GameId::$g => $name,)+
                }
            }
        }
    };
}

crate::for_each_game!(define_game_id []);

impl fmt::Display for GameId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
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

/// Which counts a capture takes, for the games whose captures go by the
/// count in the pit the last seed makes (a set of counts below 8).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct CaptureSet(u8);

impl CaptureSet {
    /// The set of `counts` (each below 8).
    pub const fn of(counts: &[u8]) -> Self {
        let mut bits = 0u8;
        let mut i = 0;
        while i < counts.len() {
            bits |= 1 << counts[i];
            i += 1;
        }
        CaptureSet(bits)
    }

    /// Whether a pit holding `count` seeds is taken.
    #[inline(always)]
    pub const fn contains(self, count: u8) -> bool {
        // Shifting the 8-bit set right by 8 to 31 leaves nothing: no
        // compare and branch for the large counts.
        let shift = if count < 31 { count } else { 31 };
        (self.0 as u32 >> shift) & 1 != 0
    }

    /// The counts, ascending.
    pub fn counts(self) -> Vec<u8> {
        (0..8).filter(|&c| self.contains(c)).collect()
    }
}

/// How a move captures (docs/rules.md: each game's capture rule).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Capture {
    /// The pit the last seed falls in is taken if it then holds a count of
    /// the set, and so, going backwards, is every pit before it that does,
    /// until one does not (Bohnenspiel 2/4/6; Al-manqala and Djenon-abe
    /// 2/4).
    Chain(CaptureSet),
    /// The move ends at an empty pit and the pit after it is taken (Bosh).
    AfterEmpty,
    /// The last seed falls in an empty pit of the mover's own row: it and
    /// the seeds of the opposite pit go to the mover's store, when that pit
    /// holds seeds (Kalah) or always (`empty`, Kalah's "empty capture").
    Opposite {
        /// Whether an empty opposite pit still takes the last seed.
        empty: bool,
    },
    /// As [`Capture::Chain`], but on the opponent's row only, and a chain
    /// that would take every seed of that row takes nothing (Oware 2/3).
    OpponentChain(CaptureSet),
}

impl Capture {
    /// Whether the last seed making a pit hold `count` takes it (always
    /// `false` for [`Capture::AfterEmpty`] and [`Capture::Opposite`], which
    /// go by position).
    #[inline(always)]
    pub const fn takes(self, count: u8) -> bool {
        match self {
            Capture::Chain(set) | Capture::OpponentChain(set) => set.contains(count),
            Capture::AfterEmpty | Capture::Opposite { .. } => false,
        }
    }
}

/// How far a move sows.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Sowing {
    /// One lap: the move ends where its last seed falls.
    SingleLap,
    /// Relay from the landing pit (Djenon-abe): unless the last seed's pit
    /// then holds one seed or is captured, its seeds are sown on.
    RelayFromLanding,
    /// Relay from the next pit (Bosh): if the pit after the last seed's is
    /// not empty, its seeds are sown on; if it is, the one after it is
    /// captured.
    RelayFromNext,
}

impl Sowing {
    /// Whether a move may sow more than one lap.
    pub const fn relays(self) -> bool {
        !matches!(self, Sowing::SingleLap)
    }
}

/// Who wins from the final totals.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum WinRule {
    /// More than this many seeds (Bohnenspiel: more than 36).
    MoreThan(u8),
    /// At least this many seeds (Al-manqala: 50).
    AtLeast(u8),
    /// More seeds than the opponent (Bosh, Djenon-abe, Kalah, Oware).
    MoreThanOpponent,
}

impl WinRule {
    /// The winner of final totals `[south, north]`; `None` for a draw.
    pub const fn winner(self, totals: [u8; 2]) -> Option<Side> {
        let [s, n] = totals;
        if self.wins(s, n) {
            Some(Side::South)
        } else if self.wins(n, s) {
            Some(Side::North)
        } else {
            None
        }
    }

    const fn wins(self, mine: u8, theirs: u8) -> bool {
        match self {
            WinRule::MoreThan(t) => mine > t,
            WinRule::AtLeast(t) => mine >= t,
            WinRule::MoreThanOpponent => mine > theirs,
        }
    }
}

/// The margin of `totals` (`[south, north]`, final or banked) from
/// `side`'s view: its seeds minus the opponent's. In every game the seeds
/// add up to an even total, so a positive margin wins and zero draws.
#[inline]
pub const fn margin(totals: [u8; 2], side: Side) -> i32 {
    let me = side.index();
    totals[me] as i32 - totals[1 - me] as i32
}
