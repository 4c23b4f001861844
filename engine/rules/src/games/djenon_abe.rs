//! Djenon-abe (docs/rules.md, "Djenon-abe").

use crate::board::{lane, Position, Rules};
use crate::game::{Capture, CaptureSet, GameId, Sowing, WinRule};
use crate::moves::Move;
use crate::side::Side;
use crate::sow::{capture_lanes, lap, CycleDetector};

use super::{generate_feeding, has_feeding_move};

/// Djenon-abe: 2×6, 48 seeds, multi-lap relay sowing, captures of 2/4,
/// feeding, and a final gift.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct DjenonAbe;

/// Rule 1: laps from `index` until one ends in a pit of 1 or captures;
/// the pits, the seeds taken and the lanes taken (`None` for a move that
/// never ends).
#[inline(always)]
fn relay(pos: &Position<DjenonAbe>, index: usize) -> Option<(u128, u32, u128)> {
    let mut pits = pos.pit_bits();
    let mut from = index;
    let mut detector = CycleDetector::new();
    loop {
        let (sown, landing) = lap::<12>(pits, from);
        pits = sown;
        match lane(pits, landing) {
            1 => return Some((pits, 0, 0)),
            c if DjenonAbe::CAPTURE.takes(c) => {
                let (taken, clear) =
                    capture_lanes::<12>(pits, landing, |v| DjenonAbe::CAPTURE.takes(v));
                return Some((pits & !clear, taken, clear));
            }
            _ => {
                if detector.repeats(pits, landing) {
                    return None;
                }
                from = landing;
            }
        }
    }
}

impl Rules for DjenonAbe {
    const ID: GameId = GameId::DjenonAbe;
    const SUMMARY: &'static str = "Djenon-abe: 2x6 pits, 4 seeds each (48). A lap's last seed: a pit of 1 ends the move, 2 or 4 captures\n\
         it and the run of 2s and 4s before it, 3 or 5+ is lifted and sown on. An empty opponent's row must\n\
         be fed. The game ends with no legal move or one seed in each row; each takes their row, and a lone\n\
         owner of seeds gives one away. More captured seeds wins.\n";
    const SIDE_PITS: usize = 6;
    const START_SEEDS: u8 = 4;
    /// Rule 3: a chain of pits holding 2 or 4.
    const CAPTURE: Capture = Capture::Chain(CaptureSet::of(&[2, 4]));
    /// Rule 1: relay from the landing pit.
    const SOWING: Sowing = Sowing::RelayFromLanding;
    /// Rule 2.
    const FEEDING: bool = true;
    /// Rule 6: more captured seeds than the opponent.
    const WIN: WinRule = WinRule::MoreThanOpponent;

    /// Rule 1 (relay) and rule 3 (capture); `None` for an endless move.
    #[inline]
    fn sow(pos: &Position<Self>, index: usize) -> Option<Position<Self>> {
        let (pits, taken, _) = relay(pos, index)?;
        Some(pos.after_sowing(pits, taken))
    }

    fn taken_lanes(pos: &Position<Self>, index: usize) -> Option<u128> {
        relay(pos, index).map(|(_, _, lanes)| lanes)
    }

    /// Rule 2 (feeding) and rule 4 (no move when the game has ended).
    #[inline]
    fn generate<F: FnMut(Move, Position<Self>)>(pos: &Position<Self>, f: F) {
        if !Self::ends_early(pos) {
            generate_feeding(pos, f)
        }
    }

    #[inline]
    fn has_moves(pos: &Position<Self>) -> bool {
        !Self::ends_early(pos) && has_feeding_move(pos)
    }

    /// Rule 4: each player has exactly one seed in their row.
    #[inline]
    fn ends_early(pos: &Position<Self>) -> bool {
        pos.row_seeds(Side::South) == 1 && pos.row_seeds(Side::North) == 1
    }

    /// Rule 5: each player takes their own row; if only one player has seeds
    /// there, they give one to the opponent.
    fn final_totals(pos: &Position<Self>) -> [u8; 2] {
        let rows = [pos.row_seeds(Side::South), pos.row_seeds(Side::North)];
        let mut t = pos.tallies();
        t[0] += rows[0] as u8;
        t[1] += rows[1] as u8;
        match rows {
            [0, n] if n > 0 => {
                t[1] -= 1;
                t[0] += 1;
            }
            [s, 0] if s > 0 => {
                t[0] -= 1;
                t[1] += 1;
            }
            _ => {}
        }
        t
    }
}
