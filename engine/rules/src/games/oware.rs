//! Oware (Awale) as the abapa rules play it (docs/rules.md, "Oware").
//!
//! The one rule set of the engine whose lap skips its origin and whose
//! captures stay on the opponent's row: a move of 12 seeds or more goes
//! round the board leaving the pit it came from empty, and a capture takes
//! the landing pit and, backwards, the pits before it on the opponent's row
//! that hold 2 or 3, unless that would take every seed of the row (the
//! "grand slam", which then takes nothing).

use crate::board::{lane, lanes, Position, Rules, LANE};
use crate::game::{Capture, CaptureSet, GameId, WinRule};
use crate::moves::Move;
use crate::side::Side;
use crate::sow::MAX_SEEDS;

use super::{count_feeding_moves, generate_feeding, has_feeding_moves, rows_to_owners};

/// Oware abapa: 2×6, 4 seeds a pit (1 to 4 for the smaller starts), laps of
/// 11 that skip their origin, chains of 2 or 3 on the opponent's row
/// (none that would take the whole row), the opponent's empty row fed when
/// it can be; when it cannot, or at an endless cycle, each side keeps the
/// seeds of its own row.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Oware;

/// Pits a lap passes: every pit but the origin.
const LAP: usize = 11;

/// `SOWING[from][n]`: the lanes to add when `n` seeds are sown from pit
/// `from` (the origin skipped), and the pit the last one falls in.
type SowTable = [[(u128, u8); MAX_SEEDS + 1]; 12];

/// The pit `k` steps (`k >= 1`) after pit `from`, the origin skipped.
const fn step(from: usize, k: usize) -> usize {
    (from + 1 + (k - 1) % LAP) % 12
}

const fn build() -> SowTable {
    let mut t = [[(0u128, 0u8); MAX_SEEDS + 1]; 12];
    let mut from = 0;
    while from < 12 {
        t[from][0] = (0, from as u8);
        let mut n = 1;
        while n <= MAX_SEEDS {
            let pit = step(from, n);
            t[from][n] = (t[from][n - 1].0 + (1u128 << (pit as u32 * LANE)), pit as u8);
            n += 1;
        }
        from += 1;
    }
    t
}

static SOWING: SowTable = build();

/// Sows pit `index` for the side to move and applies the capture: the
/// landing pit on the opponent's row holding 2 or 3, then each pit before
/// it on that row holding 2 or 3, unless together they are the whole row.
#[inline(always)]
fn sow(pos: &Position<Oware>, index: usize) -> Position<Oware> {
    let side = pos.side_to_move();
    let pits = pos.pit_bits();
    let n = lane(pits, index) as usize;
    let (add, landing) = SOWING[index][n.min(MAX_SEEDS)];
    let sown = (pits & !lanes(index, index + 1)) + add;
    let landing = landing as usize;
    let first = (!side).index() * 6;
    if landing < first || landing >= first + 6 {
        return pos.after_sowing(sown, 0);
    }
    let mut taken = 0u32;
    let mut low = landing + 1;
    while low > first {
        let c = lane(sown, low - 1);
        if !Oware::CAPTURE.takes(c) {
            break;
        }
        taken += c as u32;
        low -= 1;
    }
    let row = lanes(first, first + 6);
    let chain = lanes(low, landing + 1);
    // The grand slam: the chain is the whole row's seeds (every other pit
    // of the row empty); it takes nothing.
    if taken == 0 || sown & row & !chain == 0 {
        return pos.after_sowing(sown, 0);
    }
    pos.after_sowing(sown & !chain, taken)
}

/// The top bit of each of the board's twelve lanes.
const TOPS: u128 = 0x8080_8080_8080_8080_8080_8080;

/// Calls `f` with every board (South to move) from which one of South's
/// moves leaves `after` (North to move) without taking a seed: once a
/// move. The tables' builder works back through these (`tablebase::retro`).
///
/// The pit a move empties stays empty (a lap skips it), so each empty pit
/// `i` of South's row and each count `k` whose sowing `after` holds is one
/// candidate: `after` less the sowing, with `k` back in pit `i`. It is a
/// parent if the move, played, takes nothing (a grand slam included) and
/// is legal (feeds North's row if that was empty).
pub fn unsow(after: u128, mut f: impl FnMut(u128)) {
    let north = lanes(6, 12);
    for (i, sowings) in SOWING.iter().enumerate().take(6) {
        if lane(after, i) != 0 {
            continue;
        }
        for (k, &(add, _)) in sowings.iter().enumerate().skip(1) {
            // Every lane of `after` holds at least `add`'s (no lane's top
            // bit borrowed); each count adds to the last, so none after
            // the first that fails holds either.
            if ((after | TOPS) - add) & TOPS != TOPS {
                break;
            }
            let before = after - add + ((k as u128) << (i as u32 * LANE));
            let child = sow(&Position::from_key(before), i);
            let fed = before & north != 0 || after & north != 0;
            if fed && child.tally(Side::South) == 0 && child.pit_bits() == after {
                f(before);
            }
        }
    }
}

impl Rules for Oware {
    const ID: GameId = GameId::Oware;
    const SUMMARY: &'static str = "Oware (abapa): 2x6 pits, 4 seeds each by default (1 to 4: --seeds-per-pit). Sow one lap counter-clockwise;\n\
         a lap of 12 or more skips the pit it came from. A last seed on the opponent's row making 2 or 3 captures\n\
         it and the 2s and 3s before it on that row, unless that would take the whole row (then nothing).\n\
         An empty opponent's row must be fed if a move can; if none can, the game ends. At the end, and at a\n\
         cycle, each side keeps its own row. More seeds wins (25 of 48).\n";
    const SIDE_PITS: usize = 6;
    const START_SEEDS: u8 = 4;
    /// Oware with 1 to 4 seeds a pit: 48 seeds at most.
    const TOTAL: u8 = 48;
    const SEEDS_VARY: bool = true;
    /// Chains of 2 or 3, on the opponent's row only.
    const CAPTURE: Capture = Capture::OpponentChain(CaptureSet::of(&[2, 3]));
    const FEEDING: bool = true;
    /// More than half the seeds of the game (25 of 48).
    const WIN: WinRule = WinRule::MoreThanOpponent;

    #[inline(always)]
    fn sow(pos: &Position<Self>, index: usize) -> Option<Position<Self>> {
        Some(sow(pos, index))
    }

    /// Feeding: an opponent with an empty row must get seeds if some move
    /// gives them (a grand slam never empties the row, so a feeding move
    /// always leaves seeds there).
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

    /// No move: either the mover cannot feed an empty row (and keeps the
    /// seeds of its own), or its own row is empty (a hand-made position:
    /// the opponent keeps its row). Each side keeps its own row.
    fn final_totals(pos: &Position<Self>) -> [u8; 2] {
        rows_to_owners(pos)
    }

    /// An endless cycle: each side keeps the seeds of its own row.
    fn cycle_totals(pos: &Position<Self>) -> [u8; 2] {
        rows_to_owners(pos)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Status;

    fn at(s: &str) -> Position<Oware> {
        s.parse().unwrap()
    }

    fn after(s: &str, pit: u8) -> String {
        at(s).try_play(Move::from_pit(pit)).unwrap().to_string()
    }

    #[test]
    fn a_lap_skips_its_origin() {
        for from in 0..12 {
            let places: Vec<usize> = (1..=LAP).map(|k| step(from, k)).collect();
            assert!(!places.contains(&from));
            let mut sorted = places.clone();
            sorted.sort();
            sorted.dedup();
            assert_eq!(sorted.len(), LAP);
            assert_eq!(step(from, LAP + 1), places[0]);
        }
        // Twelve seeds from pit 1: one in each other pit, the twelfth in
        // pit 2 again; the origin stays empty.
        assert_eq!(
            after("oware 12,0,0,0,0,0/1,1,1,1,1,1 S 10-10", 1),
            "oware 0,2,1,1,1,1/2,2,2,2,2,2 N 10-10"
        );
    }

    #[test]
    fn the_start_and_a_quiet_move() {
        let start = Position::<Oware>::start();
        assert_eq!(start.to_string(), "oware 4,4,4,4,4,4/4,4,4,4,4,4 S 0-0");
        assert_eq!(
            after("oware 4,4,4,4,4,4/4,4,4,4,4,4 S 0-0", 6),
            "oware 4,4,4,4,4,0/5,5,5,5,4,4 N 0-0"
        );
    }

    #[test]
    fn captures_run_backwards_on_the_opponents_row_only() {
        // Pit 6's three seeds land in pits 7, 8, 9 (making 2, 3, 2): all
        // three taken; pit 10 keeps the row alive.
        assert_eq!(
            after("oware 1,1,1,1,1,3/1,2,1,5,0,0 S 0-0", 6),
            "oware 1,1,1,1,1,0/0,0,0,5,0,0 N 7-0"
        );
        // The chain stops at the row's edge: North's move from pit 11 makes
        // pit 12 hold 2 and pit 1 hold 2; pit 1 is taken, North's own pit
        // 12 is not.
        assert_eq!(
            after("oware 1,0,0,0,1,1/0,0,0,0,2,1 N 0-0", 11),
            "oware 0,0,0,0,1,1/0,0,0,0,0,2 S 0-2"
        );
        // A last seed on the own row takes nothing, whatever it makes.
        assert_eq!(
            after("oware 1,1,0,0,0,0/1,1,1,1,1,1 S 0-0", 1),
            "oware 0,2,0,0,0,0/1,1,1,1,1,1 N 0-0"
        );
        // A count of 4 breaks the chain.
        assert_eq!(
            after("oware 0,0,0,0,0,3/3,1,1,4,0,0 S 0-0", 6),
            "oware 0,0,0,0,0,0/4,0,0,4,0,0 N 4-0"
        );
    }

    #[test]
    fn a_grand_slam_takes_nothing() {
        // Every North pit would be taken: the move is legal, takes nothing.
        assert_eq!(
            after("oware 0,0,0,0,0,3/1,2,1,0,0,0 S 0-0", 6),
            "oware 0,0,0,0,0,0/2,3,2,0,0,0 N 0-0"
        );
        // The same chain with a seed left elsewhere on the row is taken.
        assert_eq!(
            after("oware 0,0,0,0,0,3/1,2,1,0,0,1 S 0-0", 6),
            "oware 0,0,0,0,0,0/0,0,0,0,0,1 N 7-0"
        );
    }

    #[test]
    fn an_empty_row_must_be_fed_and_else_the_mover_keeps_its_own() {
        // North's row is empty: only pit 6 reaches it.
        let pos = at("oware 1,1,0,0,0,1/0,0,0,0,0,0 S 20-25");
        let moves: Vec<String> = pos.legal_moves().iter().map(|m| m.to_string()).collect();
        assert_eq!(moves, ["6"]);
        // No move reaches it: the game ends and South keeps its 2.
        let pos = at("oware 1,1,0,0,0,0/0,0,0,0,0,0 S 21-25");
        assert!(pos.legal_moves().is_empty());
        assert_eq!(pos.status(), Status::Over([23, 25]));
        // The mover's own row empty (a hand-made position): North keeps its row.
        let pos = at("oware 0,0,0,0,0,0/0,0,1,0,2,0 S 20-25");
        assert_eq!(pos.status(), Status::Over([20, 28]));
    }

    #[test]
    fn a_cycle_leaves_each_side_its_own_row() {
        let pos = at("oware 0,1,0,0,0,2/0,0,3,0,0,0 N 20-22");
        assert_eq!(pos.cycle_totals(), [23, 25]);
    }
}
