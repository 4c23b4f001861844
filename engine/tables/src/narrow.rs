//! Endgame tables of Kalah's five-pit board (Kalah(5,n), docs/solved.md):
//! the same retrograde build as the full board's, over the ten pits a
//! five-pit board has, built in memory (`solve --narrow-tables K`).
//!
//! A narrow board keeps its pits in the first five lanes of each row of
//! the full board's layout and its width in the key
//! ([`Rules::NARROW_BOARDS`]), so [`FivePits<R>`] plays exactly as `R`
//! does on such positions; only the index differs: a layer ranks the
//! distributions of its seeds over 10 pits, not 12. Smaller boards
//! (Kalah(m,n), m ≤ 4) are proven without tables in seconds, so no other
//! width is compiled.

use std::marker::PhantomData;

use super::index::{self, Walker};
use super::{
    try_build_in_memory, BoardValues, LayerStats, Tablebase, TablebaseError, TablebaseRules,
};
use mancala_rules::layout::{lanes, LANE, NARROW_SHIFT};
use mancala_rules::Move;
use mancala_rules::Position;
use mancala_rules::{Capture, GameId, Rules, Sowing, WinRule};

/// Pits a row of the boards these tables hold.
const ROW: usize = 5;
/// Pits a row of Kalah's full board, whose lanes a narrow board shares:
/// North's row starts at lane `FULL`.
const FULL: usize = 6;

/// The rules `R` (Kalah or its empty-capture variant) on the five-pit
/// board, as a rule set of its own for the table builder: every rule is
/// `R`'s.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct FivePits<R>(PhantomData<R>);

/// The same position read under the other rule type (the key is the
/// position).
#[inline(always)]
fn cast<A: Rules, B: Rules>(pos: &Position<A>) -> Position<B> {
    Position::from_key(pos.key())
}

impl<R: Rules> Rules for FivePits<R> {
    const ID: GameId = R::ID;
    const SUMMARY: &'static str = R::SUMMARY;
    const SIDE_PITS: usize = R::SIDE_PITS;
    const START_SEEDS: u8 = R::START_SEEDS;
    const TOTAL: u8 = R::TOTAL;
    const SEEDS_VARY: bool = R::SEEDS_VARY;
    const MOVES_AGAIN: bool = R::MOVES_AGAIN;
    const HAS_CLOSED_PITS: bool = R::HAS_CLOSED_PITS;
    const NARROW_BOARDS: bool = R::NARROW_BOARDS;
    const CAPTURE: Capture = R::CAPTURE;
    const SOWING: Sowing = R::SOWING;
    const PASSES: bool = R::PASSES;
    const FEEDING: bool = R::FEEDING;
    const WIN: WinRule = R::WIN;

    #[inline(always)]
    fn sow(pos: &Position<Self>, index: usize) -> Option<Position<Self>> {
        R::sow(&cast(pos), index).map(|p| cast(&p))
    }

    #[inline(always)]
    fn generate<F: FnMut(Move, Position<Self>)>(pos: &Position<Self>, mut f: F) {
        R::generate(&cast(pos), |mv, child| f(mv, cast(&child)))
    }

    #[inline(always)]
    fn count_moves(pos: &Position<Self>) -> u32 {
        R::count_moves(&cast(pos))
    }

    #[inline(always)]
    fn has_moves(pos: &Position<Self>) -> bool {
        R::has_moves(&cast(pos))
    }

    #[inline(always)]
    fn ends_early(pos: &Position<Self>) -> bool {
        R::ends_early(&cast(pos))
    }

    fn final_totals(pos: &Position<Self>) -> [u8; 2] {
        R::final_totals(&cast(pos))
    }

    fn cycle_totals(pos: &Position<Self>) -> [u8; 2] {
        R::cycle_totals(&cast(pos))
    }
}

/// The key bits that say "five pits a row".
const NARROW: u128 = ((FULL - ROW) as u128) << NARROW_SHIFT;

/// The ten pits of a five-pit board packed into lanes 0..10 (North's row
/// from lane 5), as the index ranks them.
#[inline(always)]
fn pack(pits: u128) -> u128 {
    (pits & lanes(0, ROW)) | ((pits >> (FULL as u32 * LANE)) & lanes(0, ROW)) << (ROW as u32 * LANE)
}

/// [`pack`] undone: the board in the full board's lanes, with the width.
#[inline(always)]
fn unpack(packed: u128) -> u128 {
    (packed & lanes(0, ROW))
        | ((packed >> (ROW as u32 * LANE)) & lanes(0, ROW)) << (FULL as u32 * LANE)
        | NARROW
}

impl<R: TablebaseRules> TablebaseRules for FivePits<R> {
    const ODD_BOARDS: bool = R::ODD_BOARDS;
    const ROW_PITS: usize = ROW;

    #[inline(always)]
    fn rank(pits: u128) -> u64 {
        index::rank::<{ 2 * ROW }>(pack(pits))
    }

    #[inline(always)]
    fn mirror(pits: u128) -> u128 {
        // The rows swap lanes 0..6 and 6..12, wherever in them the pits are.
        index::mirror::<12>(pits)
    }

    fn walk<F: FnMut(u64, u128)>(seeds: u32, start: u64, end: u64, mut f: F) {
        if start >= end {
            return;
        }
        let mut w = Walker::<{ 2 * ROW }>::at(seeds, start);
        for r in start..end {
            f(r, unpack(w.pits()));
            if r + 1 < end {
                w.advance();
            }
        }
    }

    fn layer_size(seeds: u32) -> u64 {
        index::layer_size(2 * ROW, seeds)
    }
}

/// Kalah's five-pit tables as board values of `R` itself: a five-pit
/// board is looked up, every other board misses.
pub struct FivePitTables<R: TablebaseRules> {
    tables: Tablebase<FivePits<R>>,
}

impl<R: TablebaseRules> FivePitTables<R> {
    /// Builds the layers of 0 to `max_seeds` seeds in memory (on the
    /// calling thread), with each layer's figures.
    pub fn build(max_seeds: u32) -> Result<(Self, Vec<LayerStats>), TablebaseError> {
        let (tables, stats) = try_build_in_memory::<FivePits<R>>(max_seeds)?;
        Ok((FivePitTables { tables }, stats))
    }

    /// The largest seed count up to which every layer is built.
    pub fn complete_to(&self) -> Option<u32> {
        self.tables.complete_to()
    }
}

impl<R: TablebaseRules> BoardValues<R> for FivePitTables<R> {
    #[inline]
    fn board_value(&self, pos: &Position<R>) -> Option<i8> {
        // The probe itself misses a board of another width (`ROW_PITS`).
        self.tables.probe(&cast(pos))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::NoTables;
    use mancala_rules::{Kalah, KalahEmpty};
    use mancala_solve::Solver;

    #[test]
    fn packing_is_a_bijection_on_five_pit_boards() {
        let board: Position<Kalah> = "kalah 1,2,3,4,5/6,7,8,9,10 S 0-0".parse().unwrap();
        let pits = board.key() & Position::<Kalah>::PIT_MASK;
        assert_eq!(unpack(pack(pits)), pits | NARROW);
        assert_eq!(
            pack(pits),
            (1..=10).fold(0u128, |a, k| a | (k as u128) << ((k - 1) * 8))
        );
    }

    /// Every position of the small layers valued by the tables as the
    /// solver values it without them.
    fn tables_agree_with_the_solver<R: TablebaseRules>() -> usize {
        let tables = FivePitTables::<R>::build(7).unwrap().0;
        assert_eq!(tables.complete_to(), Some(7));
        let mut checked = 0;
        for seeds in 1..=7 {
            FivePits::<R>::walk(seeds, 0, FivePits::<R>::layer_size(seeds), |_, pits| {
                let pos = Position::<R>::from_key(pits);
                let value = tables.board_value(&pos).expect("a five-pit board");
                let solved = Solver::new(&NoTables, 1).solve(&pos);
                assert_eq!(value as i32, solved.margin, "{pos}");
                checked += 1;
            });
        }
        checked
    }

    #[test]
    fn the_tables_agree_with_the_solver_on_every_small_board() {
        // Boards of 1 to 7 seeds on 10 pits: C(16, 9) - 1 of them.
        assert_eq!(tables_agree_with_the_solver::<Kalah>(), 19_447);
        assert_eq!(tables_agree_with_the_solver::<KalahEmpty>(), 19_447);
    }

    #[test]
    fn other_widths_miss() {
        let tables = FivePitTables::<Kalah>::build(4).unwrap().0;
        let four: Position<Kalah> = "kalah 1,0,1,0/1,0,1,0 S 0-0".parse().unwrap();
        let six: Position<Kalah> = "kalah 1,0,1,0,0,0/1,0,1,0,0,0 S 0-0".parse().unwrap();
        let five: Position<Kalah> = "kalah 1,0,1,0,0/1,0,1,0,0 N 0-0".parse().unwrap();
        assert_eq!(tables.board_value(&four), None);
        assert_eq!(tables.board_value(&six), None);
        assert!(tables.board_value(&five).is_some());
    }
}
