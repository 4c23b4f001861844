//! Bohnenspiel and its Hemprich variant (docs/rules.md, "Bohnenspiel").

use crate::board::{Position, Rules};
use crate::game::{Capture, CaptureSet, GameId, WinRule};
use crate::moves::Move;
use crate::sow::{capture_chain, lap};

use super::{board_to_opponent, generate_all};

/// Bohnenspiel: 2×6, 72 seeds, single-lap sowing, chains of 2/4/6 captured;
/// a player with an empty row ends the game and the other takes the board.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Bohnenspiel;

/// Bohnenspiel as Hemprich plays it: a player with no seeds passes (move `0`)
/// and the game goes on until every seed is captured.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct BohnenspielHemprich;

/// Rules 1 and 2: sow one lap, then capture the chain of 2/4/6 ending at the
/// last pit.
#[inline(always)]
fn sow<R: Rules>(pos: &Position<R>, index: usize) -> Position<R> {
    let (mut pits, landing) = lap::<12>(pos.pit_bits(), index);
    let taken = capture_chain::<12>(&mut pits, landing, |v| R::CAPTURE.takes(v));
    pos.after_sowing(pits, taken)
}

impl Rules for Bohnenspiel {
    const ID: GameId = GameId::Bohnenspiel;
    const SUMMARY: &'static str = "Bohnenspiel: 2x6 pits, 6 seeds each (72), a store each. Sow one lap counter-clockwise, the origin included.\n\
         A last seed making its pit hold 2, 4 or 6 captures it, and the pits before it holding 2, 4 or 6.\n\
         A player with an empty row to move ends the game; the other takes the board. More than 36 wins.\n";
    const SIDE_PITS: usize = 6;
    const START_SEEDS: u8 = 6;
    /// Rule 2: a chain of pits holding 2, 4 or 6.
    const CAPTURE: Capture = Capture::Chain(CaptureSet::of(&[2, 4, 6]));
    /// Rule 4: more than half of the 72 seeds.
    const WIN: WinRule = WinRule::MoreThan(36);

    #[inline(always)]
    fn sow(pos: &Position<Self>, index: usize) -> Option<Position<Self>> {
        Some(sow(pos, index))
    }

    #[inline(always)]
    fn generate<F: FnMut(Move, Position<Self>)>(pos: &Position<Self>, f: F) {
        generate_all(pos, f)
    }

    #[inline(always)]
    fn count_moves(pos: &Position<Self>) -> u32 {
        pos.movable_mask().count_ones()
    }

    #[inline(always)]
    fn has_moves(pos: &Position<Self>) -> bool {
        pos.row_has_seeds(pos.side_to_move())
    }

    /// Rule 3: the player to move has an empty row; the other player (who
    /// moved last) takes every seed on the board.
    fn final_totals(pos: &Position<Self>) -> [u8; 2] {
        board_to_opponent(pos)
    }
}

impl Rules for BohnenspielHemprich {
    const ID: GameId = GameId::BohnenspielHemprich;
    const SUMMARY: &'static str =
        "Bohnenspiel (Hemprich): as Bohnenspiel, but a player with no seeds passes (move 0)\n\
         and the game goes on until the board is empty. More than 36 wins.\n";
    const SIDE_PITS: usize = 6;
    const START_SEEDS: u8 = 6;
    const CAPTURE: Capture = Bohnenspiel::CAPTURE;
    /// Rule 6: a player with no seeds passes.
    const PASSES: bool = true;
    const WIN: WinRule = Bohnenspiel::WIN;

    #[inline(always)]
    fn sow(pos: &Position<Self>, index: usize) -> Option<Position<Self>> {
        Some(sow(pos, index))
    }

    /// Rule 6: with an empty row the only move is the pass `0`; the game is
    /// over only when the board is empty.
    #[inline(always)]
    fn generate<F: FnMut(Move, Position<Self>)>(pos: &Position<Self>, mut f: F) {
        if pos.movable_mask() != 0 {
            generate_all(pos, f)
        } else if pos.board_seeds() != 0 {
            let mut next = *pos;
            next.flip_side();
            f(Move::PASS, next)
        }
    }

    #[inline(always)]
    fn count_moves(pos: &Position<Self>) -> u32 {
        match pos.movable_mask().count_ones() {
            0 => (pos.board_seeds() != 0) as u32,
            n => n,
        }
    }

    /// A seed anywhere on the board: a sowing, or else the pass.
    #[inline(always)]
    fn has_moves(pos: &Position<Self>) -> bool {
        pos.pit_bits() != 0
    }

    /// The board is empty: the tallies are the final totals.
    fn final_totals(pos: &Position<Self>) -> [u8; 2] {
        pos.tallies()
    }
}
