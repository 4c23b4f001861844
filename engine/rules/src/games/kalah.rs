//! Kalah, the store game (docs/rules.md, "Kalah"), and its "empty
//! capture" variant.
//!
//! The stores are the tallies. Sowing passes the mover's own store (which
//! takes a seed like a pit) and skips the opponent's, so a lap is 13 places;
//! one wide addition sows it, the store's seed landing in the tally bits of
//! the same `u128` (see [`crate::board`]).

use crate::board::{lane, lanes, Position, Rules, LANE, STORE_SHIFT};
use crate::game::{Capture, GameId, WinRule};
use crate::moves::Move;
use crate::side::Side;
use crate::sow::MAX_SEEDS;

use super::{generate_all, rows_to_owners};

/// Kalah(6,n): 2×6, stores, the last seed in one's own store moves again,
/// the last seed in one's own empty pit takes it and the opposite pit
/// when that pit holds seeds. Four seeds a pit by default; any number of
/// seeds a pit up to six is a Kalah start (`--seeds-per-pit`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Kalah;

/// Kalah with the "empty capture": the last seed in one's own empty pit is
/// taken even when the opposite pit is empty.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct KalahEmpty;

/// Where a last seed falls in the mover's store (not a pit index).
const STORE: u8 = u8::MAX;

/// Board widths: Kalah(m,n) for m from 1 to 6, indexed by `6 - m` (the
/// narrow-board bits of the key, [`crate::board`]).
const WIDTHS: usize = 6;

/// `SOWING[6 - m][side][from][n]`: the increment (pit lanes and the
/// mover's store bits) of `n` seeds sown from lane `from` by `side` on a
/// board of `m` pits a row, and where the last one falls (a lane, or
/// [`STORE`]).
type SowTable = [[[[(u128, u8); MAX_SEEDS + 1]; 12]; 2]; WIDTHS];

/// The place `k` steps after lane `from` in `side`'s lap on a board of
/// `m` pits a row: a lane, or [`STORE`]. The lap has `2m + 1` places:
/// the side's pits, its store, the opponent's pits. A row's pits are the
/// lanes from 0 (South) and 6 (North).
const fn step(m: usize, side: usize, from: usize, k: usize) -> u8 {
    let start = from - side * 6; // 0..m in the own row
    let place = (start + k) % (2 * m + 1);
    if place < m {
        (side * 6 + place) as u8
    } else if place == m {
        STORE
    } else {
        ((1 - side) * 6 + place - m - 1) as u8
    }
}

const fn build() -> SowTable {
    let mut t = [[[[(0u128, 0u8); MAX_SEEDS + 1]; 12]; 2]; WIDTHS];
    let mut narrow = 0;
    while narrow < WIDTHS {
        let m = 6 - narrow;
        let mut side = 0;
        while side < 2 {
            let mut from = side * 6;
            while from < side * 6 + m {
                t[narrow][side][from][0] = (0, from as u8);
                let mut n = 1;
                while n <= MAX_SEEDS {
                    let place = step(m, side, from, n);
                    let add = if place == STORE {
                        1u128 << STORE_SHIFT[side]
                    } else {
                        1u128 << (place as u32 * LANE)
                    };
                    t[narrow][side][from][n] = (t[narrow][side][from][n - 1].0 + add, place);
                    n += 1;
                }
                from += 1;
            }
            side += 1;
        }
        narrow += 1;
    }
    t
}

static SOWING: SowTable = build();

/// Sows pit `index` for the side to move: the store takes its seeds, the
/// last seed in the store keeps the move, the last in an own pit that was
/// empty takes it and the opposite pit (when that holds seeds, or always
/// with `empty_capture`).
#[inline(always)]
fn sow<R: Rules>(pos: &Position<R>, index: usize, empty_capture: bool) -> Position<R> {
    let side = pos.side_to_move();
    let bits = pos.key();
    let n = lane(bits, index) as usize;
    let m = pos.row_pits();
    let (add, landing) = SOWING[6 - m][side.index()][index][n.min(MAX_SEEDS)];
    let mut next = Position::<R>::from_key((bits & !lanes(index, index + 1)) + add);
    if landing == STORE {
        return next;
    }
    let landing = landing as usize;
    let own = landing / 6 == side.index();
    if own && next.seeds(landing) == 1 {
        // Lane `l` of a row faces lane `m + 5 - l` (11 - l on the full
        // board: pit p faces pit 13 - p).
        let opposite = m + 5 - landing;
        let across = next.seeds(opposite) as u32;
        if across > 0 || empty_capture {
            let pits = next.key() & Position::<R>::PIT_MASK;
            let cleared = pits & !(lanes(landing, landing + 1) | lanes(opposite, opposite + 1));
            return next.after_sowing(cleared, across + 1);
        }
    }
    next.flip_side();
    next
}

/// The game ends as soon as either row is empty.
#[inline(always)]
fn both_rows<R: Rules>(pos: &Position<R>) -> bool {
    pos.row_has_seeds(Side::South) && pos.row_has_seeds(Side::North)
}

macro_rules! kalah_rules {
    ($game:ty, $id:expr, $empty:expr, $summary:expr) => {
        impl Rules for $game {
            const ID: GameId = $id;
            const SUMMARY: &'static str = $summary;
            const SIDE_PITS: usize = 6;
            const START_SEEDS: u8 = 4;
            /// Kalah(6,6) has 72 seeds; smaller starts hold fewer.
            const TOTAL: u8 = 72;
            const SEEDS_VARY: bool = true;
            const CAPTURE: Capture = Capture::Opposite { empty: $empty };
            const MOVES_AGAIN: bool = true;
            /// Kalah(m,n): 1 to 6 pits a row.
            const NARROW_BOARDS: bool = true;
            const WIN: WinRule = WinRule::MoreThanOpponent;

            #[inline(always)]
            fn sow(pos: &Position<Self>, index: usize) -> Option<Position<Self>> {
                Some(sow(pos, index, $empty))
            }

            #[inline(always)]
            fn generate<F: FnMut(Move, Position<Self>)>(pos: &Position<Self>, f: F) {
                if both_rows(pos) {
                    generate_all(pos, f)
                }
            }

            #[inline(always)]
            fn count_moves(pos: &Position<Self>) -> u32 {
                if both_rows(pos) {
                    pos.movable_mask().count_ones()
                } else {
                    0
                }
            }

            #[inline(always)]
            fn has_moves(pos: &Position<Self>) -> bool {
                both_rows(pos)
            }

            fn final_totals(pos: &Position<Self>) -> [u8; 2] {
                rows_to_owners(pos)
            }
        }
    };
}

kalah_rules!(
    Kalah,
    GameId::Kalah,
    false,
    "Kalah: 2x6 pits, 4 seeds each by default (1 to 6: --seeds-per-pit), a store each. Sow one seed a place\n\
     counter-clockwise, into your own store but not the opponent's. A last seed in your store: move again.\n\
     A last seed in an empty pit of yours takes it and the opposite pit's seeds, if that pit holds any.\n\
     The game ends when either row is empty; each side keeps its own row. More seeds wins.\n\
     Kalah(m,n): 1 to 6 pits a row with --pits m (or a position written so), pits 1..m and m+1..2m.\n"
);
kalah_rules!(
    KalahEmpty,
    GameId::KalahEmpty,
    true,
    "Kalah (empty capture): as Kalah, but a last seed in an empty pit of yours is taken to your store\n\
     even when the opposite pit is empty.\n"
);

#[cfg(test)]
mod tests {
    use super::*;

    fn at<R: Rules>(s: &str) -> Position<R> {
        s.parse().unwrap()
    }

    /// The position after pit `pit` is sown in `s`, written out.
    fn played<R: Rules>(s: &str, pit: u8) -> String {
        at::<R>(s)
            .try_play(Move::from_pit(pit))
            .unwrap()
            .to_string()
    }

    #[test]
    fn laps_pass_the_own_store_and_skip_the_other() {
        for m in 1..=6 {
            let lap = 2 * m + 1;
            for side in 0..2 {
                for from in side * 6..side * 6 + m {
                    let places: Vec<u8> = (1..=lap).map(|k| step(m, side, from, k)).collect();
                    // A lap of 2m + 1 ends where it started and meets the
                    // store once and every pit of the board once.
                    assert_eq!(places[lap - 1] as usize, from);
                    assert_eq!(places.iter().filter(|&&p| p == STORE).count(), 1);
                    let mut pits: Vec<u8> = places.into_iter().filter(|&p| p != STORE).collect();
                    pits.sort();
                    let board: Vec<u8> = (0..m as u8).chain(6..6 + m as u8).collect();
                    assert_eq!(pits, board);
                    // The store comes right after the side's last pit, the
                    // opponent's first pit after it.
                    let last = side * 6 + m - 1;
                    assert_eq!(step(m, side, last, 1), STORE);
                    assert_eq!(step(m, side, last, 2) as usize, (1 - side) * 6);
                }
            }
        }
    }

    #[test]
    fn the_start_and_a_move_into_the_store() {
        let start = Position::<Kalah>::start();
        assert_eq!(start.to_string(), "kalah 4,4,4,4,4,4/4,4,4,4,4,4 S 0-0");
        // Pit 3's four seeds: pits 4, 5, 6 and the store; South moves again.
        let next = start.try_play(Move::from_pit(3)).unwrap();
        assert_eq!(next.to_string(), "kalah 4,4,0,5,5,5/4,4,4,4,4,4 S 1-0");
        // North's last pit sows into North's store, then South's row.
        assert_eq!(
            played::<Kalah>("kalah 4,4,4,4,4,4/4,4,4,4,4,3 N 0-0", 12),
            "kalah 5,5,4,4,4,4/4,4,4,4,4,0 S 0-1"
        );
    }

    #[test]
    fn captures_need_an_empty_own_pit_and_seeds_across() {
        // South's pit 1 (one seed) lands in the empty pit 2; pit 11 is
        // across from it.
        assert_eq!(
            played::<Kalah>("kalah 1,0,4,4,4,4/4,4,4,4,5,4 S 0-0", 1),
            "kalah 0,0,4,4,4,4/4,4,4,4,0,4 N 6-0"
        );
        // Nothing across: no capture in Kalah, the seed taken alone in
        // the empty-capture variant.
        assert_eq!(
            played::<Kalah>("kalah 1,0,4,4,4,4/4,4,4,4,0,9 S 0-0", 1),
            "kalah 0,1,4,4,4,4/4,4,4,4,0,9 N 0-0"
        );
        assert_eq!(
            played::<KalahEmpty>("kalah-empty 1,0,4,4,4,4/4,4,4,4,0,9 S 0-0", 1),
            "kalah-empty 0,0,4,4,4,4/4,4,4,4,0,9 N 1-0"
        );
        // The last seed in an empty pit of the opponent's takes nothing.
        assert_eq!(
            played::<Kalah>("kalah 0,0,0,0,0,2/0,4,4,4,4,4 S 0-26", 6),
            "kalah 0,0,0,0,0,0/1,4,4,4,4,4 N 1-26"
        );
    }

    #[test]
    fn a_lap_round_the_board_skips_the_opponents_store() {
        // 13 seeds from pit 1: one in every pit but the origin's first,
        // one in South's store, none in North's, the last back in pit 1,
        // which was emptied: a capture of pit 12's 2 and itself.
        assert_eq!(
            played::<Kalah>("kalah 13,1,1,1,1,1/1,1,1,1,1,1 S 0-24", 1),
            "kalah 0,2,2,2,2,2/2,2,2,2,2,0 N 4-24"
        );
    }

    #[test]
    fn narrow_boards_number_their_pits_1_to_2m() {
        use crate::error::IllegalReason;
        // Kalah(4,3): South's pits 1 to 4, North's 5 to 8.
        let start = at::<Kalah>("kalah 3,3,3,3/3,3,3,3 S 0-0");
        assert_eq!(start.row_pits(), 4);
        assert_eq!(start.to_string(), "kalah 3,3,3,3/3,3,3,3 S 0-0");
        assert_eq!(start.pits(), vec![3; 8]);
        let pits: Vec<u8> = start.legal_moves().iter().map(|m| m.pit()).collect();
        assert_eq!(pits, [1, 2, 3, 4]);
        // Pit 2's three seeds: pits 3, 4 and the store; South moves again.
        let next = start.try_play(Move::from_pit(2)).unwrap();
        assert_eq!(next.to_string(), "kalah 3,0,4,4/3,3,3,3 S 1-0");
        // North's last pit (8) sows its store, then South's pits 1 and 2.
        let pos = at::<Kalah>("kalah 3,0,4,4/3,3,3,3 N 1-0");
        let pits: Vec<u8> = pos.legal_moves().iter().map(|m| m.pit()).collect();
        assert_eq!(pits, [5, 6, 7, 8]);
        let next = pos.try_play(Move::from_pit(8)).unwrap();
        assert_eq!(next.to_string(), "kalah 4,1,4,4/3,3,3,0 S 1-1");
        // Pit 9 is off the board, pit 5 North's.
        let off = start.try_play(Move::from_pit(9)).unwrap_err();
        assert_eq!(off.reason, IllegalReason::NoSuchPit);
        let theirs = start.try_play(Move::from_pit(5)).unwrap_err();
        assert_eq!(theirs.reason, IllegalReason::NotOwnPit);
        // The full board's key is unchanged by the width field.
        let full = Position::<Kalah>::start();
        assert_eq!(full.row_pits(), 6);
        assert_eq!(
            full.key(),
            at::<Kalah>("kalah 4,4,4,4,4,4/4,4,4,4,4,4 S 0-0").key()
        );
    }

    #[test]
    fn narrow_boards_capture_the_facing_pit_and_lap_in_2m_plus_1() {
        // Kalah(3,n): pit p faces pit 7 - p. South's 1 lands in the empty
        // pit 2, facing pit 5.
        assert_eq!(
            played::<Kalah>("kalah 1,0,2/3,4,5 S 0-0", 1),
            "kalah 0,0,2/3,0,5 N 5-0"
        );
        // North's 4 lands in the empty pit 5, facing pit 2.
        assert_eq!(
            played::<Kalah>("kalah 2,3,0/1,0,2 N 0-0", 4),
            "kalah 2,0,0/0,0,2 S 0-4"
        );
        // Kalah(2,n): five seeds are a whole lap of 5 places (pit 2, the
        // store, pits 3 and 4, pit 1 emptied): the last lands in pit 1
        // and takes pit 4 with it.
        assert_eq!(
            played::<Kalah>("kalah 5,0/1,1 S 0-0", 1),
            "kalah 0,1/2,0 N 4-0"
        );
        // North's pit 3 sows pit 4 and North's store: North again.
        assert_eq!(
            played::<KalahEmpty>("kalah-empty 0,1/2,0 N 4-0", 3),
            "kalah-empty 0,1/0,1 N 4-1"
        );
        // An empty row ends the game, each keeping its own.
        let pos = at::<Kalah>("kalah 0/3 S 2-1");
        assert_eq!(pos.status(), crate::Status::Over([2, 4]));
    }

    #[test]
    fn an_empty_row_ends_the_game_and_each_keeps_its_own() {
        // South's last seed goes into the store: South's row is empty, the
        // game ends before South's extra move, North keeps its 20.
        let pos = at::<Kalah>("kalah 0,0,0,0,0,1/4,4,4,4,4,0 S 20-7");
        let next = pos.try_play(Move::from_pit(6)).unwrap();
        assert_eq!(next.side_to_move(), Side::South);
        assert_eq!(next.status(), crate::Status::Over([21, 27]));
        assert!(next.legal_moves().is_empty());
    }
}
