//! Bosh (docs/rules.md, "Bosh"): relay sowing, capture after an empty pit,
//! rounds, and pits closed across rounds.

use crate::board::{lane, lanes, Position, Rules, LANE};
use crate::game::{Capture, GameId, Sowing, WinRule};
use crate::moves::Move;
use crate::side::Side;
use crate::sow::{lap, CycleDetector};

use super::{any_move, board_to_opponent, generate_all};

/// Bosh: 2×5, 40 stones, relay sowing, capture of the pit after the empty
/// pit a move ends at; a round ends when the player to move has no stones.
/// A [`Position<Bosh>`] is one round; [`BoshMatch`] plays rounds.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Bosh;

const PITS: usize = 10;

/// The open pits as a ring: `next[i]` is the open pit after pit index `i`.
struct Ring {
    next: [u8; PITS],
}

impl Ring {
    fn new(closed: u16) -> Ring {
        let mut next = [0u8; PITS];
        for (i, slot) in next.iter_mut().enumerate() {
            let mut j = (i + 1) % PITS;
            // A pit sowing starts from is open, so the search always ends.
            for _ in 0..PITS {
                if closed >> j & 1 == 0 {
                    break;
                }
                j = (j + 1) % PITS;
            }
            *slot = j as u8;
        }
        Ring { next }
    }

    #[inline]
    fn next(&self, i: usize) -> usize {
        self.next[i] as usize
    }

    /// Sows every stone of pit `from` into the following open pits.
    fn lap(&self, mut pits: u128, from: usize) -> (u128, usize) {
        let n = lane(pits, from);
        pits &= !lanes(from, from + 1);
        let mut at = from;
        for _ in 0..n {
            at = self.next(at);
            pits += 1u128 << (at as u32 * LANE);
        }
        (pits, at)
    }
}

/// Rules 1 and 2 over a ring of open pits given by `next` and `lap`.
#[inline(always)]
fn relay(
    mut pits: u128,
    index: usize,
    lap: impl Fn(u128, usize) -> (u128, usize),
    next: impl Fn(usize) -> usize,
) -> Option<(u128, u32, u128)> {
    let mut from = index;
    let mut detector = CycleDetector::new();
    loop {
        let (sown, last) = lap(pits, from);
        pits = sown;
        let look = next(last);
        if lane(pits, look) == 0 {
            let prey = next(look);
            let taken = lane(pits, prey) as u32;
            let clear = if taken > 0 { lanes(prey, prey + 1) } else { 0 };
            pits &= !lanes(prey, prey + 1);
            return Some((pits, taken, clear));
        }
        if detector.repeats(pits, look) {
            return None;
        }
        from = look;
    }
}

/// [`relay`] on `pos`'s board, round its open pits.
#[inline(always)]
fn relay_on_board(pos: &Position<Bosh>, index: usize) -> Option<(u128, u32, u128)> {
    let closed = pos.closed_mask();
    if closed == 0 {
        relay(pos.pit_bits(), index, lap::<PITS>, |i| (i + 1) % PITS)
    } else {
        let ring = Ring::new(closed);
        relay(
            pos.pit_bits(),
            index,
            |p, f| ring.lap(p, f),
            |i| ring.next(i),
        )
    }
}

impl Rules for Bosh {
    const ID: GameId = GameId::Bosh;
    const SUMMARY: &'static str = "Bosh: 2x5 pits, 4 stones each (40), pools. Relay sowing: if the open pit after the last stone holds\n\
         stones, lift them and sow on from the pit after it; if it is empty, the move ends and takes the open\n\
         pit after that one. A round ends when the player to move has no stones; the other takes the board.\n\
         Rounds refill pits 4 at a time from the right-hand end; pits that cannot get 4 are closed (x).\n\
         A player who cannot fill a pit loses the match.\n";
    const SIDE_PITS: usize = 5;
    const START_SEEDS: u8 = 4;
    const HAS_CLOSED_PITS: bool = true;
    /// Rule 2: the pit after the empty pit the move ends at.
    const CAPTURE: Capture = Capture::AfterEmpty;
    /// Rule 1: relay from the pit after the last stone's.
    const SOWING: Sowing = Sowing::RelayFromNext;
    /// Rule 7: the larger pool wins the round.
    const WIN: WinRule = WinRule::MoreThanOpponent;

    /// Rule 1 (relay sowing) and rule 2 (capture); `None` for an endless
    /// move.
    #[inline]
    fn sow(pos: &Position<Self>, index: usize) -> Option<Position<Self>> {
        let (pits, taken, _) = relay_on_board(pos, index)?;
        Some(pos.after_sowing(pits, taken))
    }

    fn taken_lanes(pos: &Position<Self>, index: usize) -> Option<u128> {
        relay_on_board(pos, index).map(|(_, _, lanes)| lanes)
    }

    #[inline]
    fn generate<F: FnMut(Move, Position<Self>)>(pos: &Position<Self>, f: F) {
        generate_all(pos, f)
    }

    #[inline]
    fn has_moves(pos: &Position<Self>) -> bool {
        any_move(pos, |_| true)
    }

    /// Rule 3: the player to move has no stones (or only endless moves); the
    /// other player takes every stone on the board.
    fn final_totals(pos: &Position<Self>) -> [u8; 2] {
        board_to_opponent(pos)
    }
}

/// How a Bosh match ended: a player could not fill a single pit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MatchEnd {
    /// The player whose pool held fewer than 4 stones at the start of a round.
    pub loser: Side,
}

/// A Bosh match between rounds (rules 4–6): the pools, the round number and
/// who starts the next round.
///
/// ```
/// use mancala_rules::{BoshMatch, Side};
/// let mut m = BoshMatch::new();
/// assert_eq!(m.start_round().unwrap().to_string(), "bosh 4,4,4,4,4/4,4,4,4,4 S 0-0");
/// m.finish_round([26, 14]);
/// // South fills all five pits (6 stones stay in the pool); North fills
/// // 10, 9, 8 and closes 7 and 6 (2 stones stay); North starts round 2.
/// assert_eq!(m.start_round().unwrap().to_string(), "bosh 4,4,4,4,4/x,x,4,4,4 N 6-2");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BoshMatch {
    /// Each player's pool before the next round's refill, `[south, north]`.
    pub pools: [u8; 2],
    /// Rounds played so far.
    pub rounds_played: u32,
}

impl Default for BoshMatch {
    fn default() -> Self {
        Self::new()
    }
}

impl BoshMatch {
    /// A new match: both pools hold the 20 stones that fill all five pits.
    pub const fn new() -> Self {
        BoshMatch {
            pools: [20, 20],
            rounds_played: 0,
        }
    }

    /// Who starts the next round: South in round 1, then alternately (rule 5).
    pub const fn next_starter(&self) -> Side {
        if self.rounds_played.is_multiple_of(2) {
            Side::South
        } else {
            Side::North
        }
    }

    /// The next round's start position (rule 4: each player fills pits from
    /// their right-hand end with 4 stones each, closing those that cannot get
    /// a full 4), or the end of the match (rule 6).
    pub fn start_round(&self) -> Result<Position<Bosh>, MatchEnd> {
        for side in Side::BOTH {
            if self.pools[side.index()] < 4 {
                return Err(MatchEnd { loser: side });
            }
        }
        let mut pits = [None; PITS];
        let mut left = self.pools;
        for side in Side::BOTH {
            // South: pits 5, 4, …, 1; North: 10, 9, …, 6.
            let right_end = (side.index() + 1) * 5;
            for pit in (right_end - 5..right_end).rev() {
                if left[side.index()] >= 4 {
                    left[side.index()] -= 4;
                    pits[pit] = Some(4);
                }
            }
        }
        let pos = Position::<Bosh>::from_parts(&pits, self.next_starter(), left)
            .expect("a refill conserves the 40 stones");
        Ok(pos)
    }

    /// Records a finished round's final pools (its [`Status::Over`]
    /// totals).
    ///
    /// [`Status::Over`]: crate::Status::Over
    pub fn finish_round(&mut self, pools: [u8; 2]) {
        self.pools = pools;
        self.rounds_played += 1;
    }
}
