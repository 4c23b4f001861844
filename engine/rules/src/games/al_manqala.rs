//! Al-manqala (docs/rules.md, "Al-manqala").

use crate::board::{Position, Rules};
use crate::game::{Capture, CaptureSet, GameId, WinRule};
use crate::moves::Move;
use crate::sow::{capture_chain, lap};

use super::{board_to_opponent, count_feeding_moves, generate_feeding, has_feeding_moves};

/// Al-manqala: 2×7, 98 seeds, single-lap sowing, chains of 2/4 captured,
/// the opponent's empty row must be fed.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct AlManqala;

impl Rules for AlManqala {
    const ID: GameId = GameId::AlManqala;
    const SUMMARY: &'static str = "Al-manqala: 2x7 pits, 7 seeds each (98). Sow one lap. A last seed making 2 or 4 captures it and the\n\
         run of 2s and 4s before it. An empty opponent's row must be fed if a move can; if none can, the\n\
         opponent takes the board. A player with an empty row to move ends it likewise. 50 or more wins.\n";
    const SIDE_PITS: usize = 7;
    const START_SEEDS: u8 = 7;
    /// Rule 3: a chain of pits holding 2 or 4.
    const CAPTURE: Capture = Capture::Chain(CaptureSet::of(&[2, 4]));
    /// Rule 2.
    const FEEDING: bool = true;
    /// Rule 5: 50 of the 98 seeds.
    const WIN: WinRule = WinRule::AtLeast(50);

    /// Rules 1 and 3.
    #[inline(always)]
    fn sow(pos: &Position<Self>, index: usize) -> Option<Position<Self>> {
        let (mut pits, landing) = lap::<14>(pos.pit_bits(), index);
        let taken = capture_chain::<14>(&mut pits, landing, |v| Self::CAPTURE.takes(v));
        Some(pos.after_sowing(pits, taken))
    }

    /// Rule 2 (feeding); no move at all when the mover's row is empty.
    #[inline(always)]
    fn generate<F: FnMut(Move, Position<Self>)>(pos: &Position<Self>, f: F) {
        generate_feeding(pos, f)
    }

    #[inline(always)]
    fn count_moves(pos: &Position<Self>) -> u32 {
        count_feeding_moves(pos)
    }

    #[inline(always)]
    fn has_moves(pos: &Position<Self>) -> bool {
        has_feeding_moves(pos)
    }

    /// Rule 4. Either the mover's row is empty (each player takes their own
    /// row: all of it goes to the opponent), or the opponent's row is empty
    /// and cannot be fed (the starved opponent takes every seed). Both give
    /// the board to the side not to move.
    fn final_totals(pos: &Position<Self>) -> [u8; 2] {
        board_to_opponent(pos)
    }
}
