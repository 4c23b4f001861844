//! The bit-packed position: one `u128` holds the whole position; and the
//! [`Rules`] trait that a position is generic over, beside it because each
//! names the other.
//!
//! Layout (bit 0 is the least significant):
//!
//! | bits      | contents                                             |
//! |-----------|------------------------------------------------------|
//! | 0..8·2N   | pit `i+1` in the 8-bit lane `i` (Al-manqala: 0..112)  |
//! | 80..90    | Bosh only (2N = 10): the closed-pit mask, bit `i` = pit `i+1` |
//! | 96..99    | Kalah only: six minus the pits a row (0 on the 2×6 board) |
//! | 112..120  | South's tally (store, captures or pool)              |
//! | 120..127  | North's tally                                        |
//! | 127       | side to move (1 = North)                             |
//!
//! Lanes of 8 bits let a whole sowing lap be one wide addition of a
//! precomputed increment (see [`crate::sow`]); no game has more than 98
//! seeds, so a lane never carries into the next.

use std::fmt;
use std::marker::PhantomData;

use crate::error::{IllegalMove, IllegalReason, PositionError};
use crate::game::{Capture, GameId, Sowing, Status, WinRule};
use crate::moves::{Move, MoveList};
use crate::side::Side;

/// Bits in one pit lane.
pub const LANE: u32 = 8;
/// Where each store (tally) sits: South's at bit 112, North's at 120.
pub const STORE_SHIFT: [u32; 2] = [112, 120];
/// The side to move: set when North moves.
pub const SIDE_BIT: u128 = 1 << 127;
/// Where Bosh keeps its closed pits, a bit a pit.
pub const CLOSED_SHIFT: u32 = 80;
/// Where a narrow board ([`Rules::NARROW_BOARDS`]) keeps `SIDE_PITS - m`,
/// three bits: zero for a full board, so its keys are those of the game
/// without narrow boards.
pub const NARROW_SHIFT: u32 = 96;
const LOW7: u128 = 0x7f7f_7f7f_7f7f_7f7f_7f7f_7f7f_7f7f_7f7f;
const HIGH: u128 = 0x8080_8080_8080_8080_8080_8080_8080_8080;
const ONES: u128 = 0x0101_0101_0101_0101_0101_0101_0101_0101;

/// Mask of lanes `from..to`.
#[inline]
pub const fn lanes(from: usize, to: usize) -> u128 {
    if to <= from {
        return 0;
    }
    let width = (to - from) as u32 * LANE;
    let ones = if width >= 128 {
        u128::MAX
    } else {
        (1u128 << width) - 1
    };
    ones << (from as u32 * LANE)
}

/// The value of lane `i`.
#[inline]
pub const fn lane(bits: u128, i: usize) -> u8 {
    (bits >> (i as u32 * LANE)) as u8
}

/// The high bit of every lane of `x` that is non-zero (lanes must hold < 129).
#[inline]
pub const fn nonzero_lanes(x: u128) -> u128 {
    (((x & LOW7) + LOW7) | x) & HIGH
}

/// Sum of all lanes of `x` (the total must stay below 256).
#[inline]
pub const fn lane_sum(x: u128) -> u32 {
    (x.wrapping_mul(ONES) >> 120) as u32
}

/// A game position: pits, tallies, side to move and (Bosh) closed pits,
/// packed into one `u128`. `Copy`, 16 bytes; moves are made by copy-make.
///
/// ```
/// use mancala_rules::{Bohnenspiel, Move, Position};
/// let start = Position::<Bohnenspiel>::start();
/// let next = start.play(Move::from_pit(3));
/// assert_eq!(next.to_string(), "bohnenspiel 6,6,0,7,7,7/7,7,7,6,6,6 N 0-0");
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Position<R: Rules> {
    bits: u128,
    rules: PhantomData<R>,
}

impl<R: Rules> Default for Position<R> {
    fn default() -> Self {
        Self::start()
    }
}

impl<R: Rules> Position<R> {
    /// Mask of the pit lanes.
    pub const PIT_MASK: u128 = lanes(0, R::PITS);
    /// Mask of each row, South first.
    pub const ROW_MASK: [u128; 2] = [lanes(0, R::SIDE_PITS), lanes(R::SIDE_PITS, R::PITS)];

    /// The position whose bits are `bits`, unchecked (the layout of
    /// [`layout`](crate::layout)): for tables and keys that hold positions
    /// this crate made.
    #[doc(hidden)]
    #[inline]
    pub const fn from_bits(bits: u128) -> Self {
        Position {
            bits,
            rules: PhantomData,
        }
    }

    /// The start position: every pit holds the game's starting seeds, South to move.
    pub fn start() -> Self {
        Self::from_bits(ONES.wrapping_mul(R::START_SEEDS as u128) & Self::PIT_MASK)
    }

    /// Builds a position from its parts, checking them: `pits` in notation
    /// order (`None` is a closed pit, Bosh only), the side to move and the
    /// tallies `[south, north]`. The seeds must add up to the game's total.
    /// In a game with narrow boards ([`Rules::NARROW_BOARDS`]) `pits` may
    /// hold `2m` pits for any row of `m` pits up to the game's.
    pub fn from_parts(
        pits: &[Option<u8>],
        side: Side,
        tallies: [u8; 2],
    ) -> Result<Self, PositionError> {
        use PositionError as E;
        let narrow = R::NARROW_BOARDS
            && pits.len() < R::PITS
            && pits.len() >= 2
            && pits.len().is_multiple_of(2);
        if pits.len() != R::PITS && !narrow {
            return Err(E::PitCount {
                expected: R::PITS,
                found: pits.len(),
            });
        }
        let row = pits.len() / 2;
        let mut bits = ((R::SIDE_PITS - row) as u128) << NARROW_SHIFT;
        let mut total = tallies[0] as u32 + tallies[1] as u32;
        for (i, p) in pits.iter().enumerate() {
            // Pit `i + 1` of a narrow board: its row's lanes start at 0 and
            // at `SIDE_PITS`.
            let lane = if i < row { i } else { R::SIDE_PITS + i - row };
            match p {
                Some(n) => {
                    total += *n as u32;
                    bits |= (*n as u128) << (lane as u32 * LANE);
                }
                None if R::HAS_CLOSED_PITS => bits |= 1u128 << (CLOSED_SHIFT + i as u32),
                None => {
                    return Err(E::ClosedOutsideBosh {
                        game: R::ID,
                        pit: i + 1,
                    })
                }
            }
        }
        let fits = if R::SEEDS_VARY {
            (1..=R::TOTAL as u32).contains(&total)
        } else {
            total == R::TOTAL as u32
        };
        if !fits && R::SEEDS_VARY {
            return Err(E::SeedRange {
                game: R::ID,
                most: R::TOTAL as u32,
                found: total,
            });
        }
        if !fits {
            return Err(E::SeedTotal {
                game: R::ID,
                expected: R::TOTAL as u32,
                found: total,
            });
        }
        bits |= (tallies[0] as u128) << STORE_SHIFT[0];
        bits |= (tallies[1] as u128) << STORE_SHIFT[1];
        if side == Side::North {
            bits |= SIDE_BIT;
        }
        Ok(Self::from_bits(bits))
    }

    /// Which game this is.
    #[inline]
    pub const fn game(&self) -> crate::GameId {
        R::ID
    }

    /// The whole position as one 128-bit key: equal positions have equal keys
    /// and different positions different ones.
    #[inline]
    pub const fn key(&self) -> u128 {
        self.bits
    }

    /// Rebuilds a position from a [`key`](Self::key). The key is trusted.
    #[inline]
    pub const fn from_key(key: u128) -> Self {
        Self::from_bits(key)
    }

    /// The key without the tallies: pits, closed pits and side to move. Two
    /// positions with the same board key are the same position for the cycle
    /// rule.
    #[inline]
    pub const fn board_key(&self) -> u128 {
        self.bits & !(lanes(14, 16) & !SIDE_BIT)
    }

    /// The pits only, lane `i` = pit `i+1`.
    #[inline]
    pub const fn pit_bits(&self) -> u128 {
        self.bits & Self::PIT_MASK
    }

    /// The side to move.
    #[inline]
    pub const fn side_to_move(&self) -> Side {
        if self.bits & SIDE_BIT != 0 {
            Side::North
        } else {
            Side::South
        }
    }

    /// Seeds in the pit at 0-based `index` (pit number `index + 1`).
    #[inline]
    pub const fn seeds(&self, index: usize) -> u8 {
        lane(self.bits, index)
    }

    /// Seeds in every pit, notation order, read at once: entry `i` is
    /// [`seeds(i)`](Self::seeds) for `i <` [`Rules::PITS`], 0 after.
    #[inline]
    pub const fn pit_array(&self) -> [u8; 16] {
        self.pit_bits().to_le_bytes()
    }

    /// Seeds in every pit, notation order (`2m` pits on a narrow board).
    pub fn pits(&self) -> Vec<u8> {
        self.pit_lanes().map(|i| self.seeds(i)).collect()
    }

    /// Pits in each row: [`Rules::SIDE_PITS`], or `m` on a narrow board
    /// (Kalah(m,n), [`Rules::NARROW_BOARDS`]).
    #[inline(always)]
    pub const fn row_pits(&self) -> usize {
        if R::NARROW_BOARDS {
            R::SIDE_PITS - ((self.bits >> NARROW_SHIFT) & 7) as usize
        } else {
            R::SIDE_PITS
        }
    }

    /// The lanes (0-based indices for [`seeds`](Self::seeds)) of the pits
    /// in notation order: `0..2N`, or South's `m` lanes and North's first
    /// `m` on a narrow board.
    pub fn pit_lanes(&self) -> impl Iterator<Item = usize> {
        let m = self.row_pits();
        (0..m).chain(R::SIDE_PITS..R::SIDE_PITS + m)
    }

    /// The lane of the pit `mv` sows, or `None` for a pass or a pit
    /// number off the board. Pit `p` is lane `p - 1` but on a narrow
    /// board, where North's pits `m+1..=2m` are the lanes from
    /// [`Rules::SIDE_PITS`].
    #[inline(always)]
    pub const fn lane_of(&self, mv: Move) -> Option<usize> {
        let m = self.row_pits();
        let pit = mv.pit() as usize;
        if pit == 0 || pit > 2 * m {
            None
        } else if pit <= m {
            Some(pit - 1)
        } else {
            Some(R::SIDE_PITS + pit - m - 1)
        }
    }

    /// The move that sows lane `lane` (the inverse of [`lane_of`](Self::lane_of)).
    #[inline(always)]
    pub const fn move_at(&self, lane: usize) -> Move {
        let m = self.row_pits();
        if lane < R::SIDE_PITS {
            Move::from_index(lane)
        } else {
            Move::from_index(lane - R::SIDE_PITS + m)
        }
    }

    /// Whether the pit at 0-based `index` is closed (Bosh).
    #[inline]
    pub const fn is_closed(&self, index: usize) -> bool {
        R::HAS_CLOSED_PITS && (self.bits >> (CLOSED_SHIFT + index as u32)) & 1 != 0
    }

    /// The closed-pit mask, bit `i` = pit `i+1` (Bosh; `0` elsewhere).
    #[inline]
    pub const fn closed_mask(&self) -> u16 {
        if R::HAS_CLOSED_PITS {
            ((self.bits >> CLOSED_SHIFT) & 0x3ff) as u16
        } else {
            0
        }
    }

    /// Seeds a side holds off the board (store, captures or pool).
    #[inline]
    pub const fn tally(&self, side: Side) -> u8 {
        // The tallies live in the high 64 bits: a 64-bit shift is one
        // instruction where a variable 128-bit shift is several.
        let high = (self.bits >> 64) as u64;
        (high >> (STORE_SHIFT[side as usize] - 64)) as u8
            & if side as usize == 0 { 0xff } else { 0x7f }
    }

    /// The margin of `totals` (`[south, north]`) from the side to move's
    /// view ([`margin`](crate::margin)).
    #[inline]
    pub const fn margin_of(&self, totals: [u8; 2]) -> i32 {
        crate::game::margin(totals, self.side_to_move())
    }

    /// The margin banked so far from the side to move's view: its tally
    /// minus the opponent's.
    #[inline]
    pub const fn banked_margin(&self) -> i32 {
        self.margin_of(self.tallies())
    }

    /// The range every final margin from here lies in, from the side to
    /// move's view: seeds banked stay banked, so it is the banked margin
    /// give or take the seeds still on the board, whatever the play (the
    /// cycle rule's split included). A saved value outside it cannot be.
    #[inline]
    pub const fn margin_range(&self) -> (i32, i32) {
        let (banked, board) = (self.banked_margin(), self.board_seeds() as i32);
        (banked - board, banked + board)
    }

    /// Both tallies, `[south, north]`.
    #[inline]
    pub const fn tallies(&self) -> [u8; 2] {
        [self.tally(Side::South), self.tally(Side::North)]
    }

    /// Seeds in a side's row.
    #[inline]
    pub const fn row_seeds(&self, side: Side) -> u32 {
        lane_sum(self.bits & Self::ROW_MASK[side as usize])
    }

    /// Seeds on the board.
    #[inline]
    pub const fn board_seeds(&self) -> u32 {
        lane_sum(self.pit_bits())
    }

    /// Whether a side's row holds a seed.
    #[inline]
    pub const fn row_has_seeds(&self, side: Side) -> bool {
        self.bits & Self::ROW_MASK[side as usize] != 0
    }

    /// 0-based indices of the side to move's non-empty pits, as a bit mask
    /// (bit `i` = pit `i+1`).
    #[inline]
    pub fn movable_mask(&self) -> u32 {
        let side = self.side_to_move() as usize;
        let nz = nonzero_lanes(self.bits & Self::ROW_MASK[side]);
        compress_high_bits(nz)
    }

    /// Adds `seeds` to `side`'s tally.
    #[inline]
    pub fn add_tally(&mut self, side: Side, seeds: u32) {
        // The tallies live in the high 64 bits: a 64-bit shift is one
        // instruction where a variable 128-bit shift is several.
        let high = (seeds as u64) << (STORE_SHIFT[side as usize] - 64);
        self.bits += (high as u128) << 64;
    }

    /// Replaces the pits (the lanes of `pits` beyond the board must be zero).
    #[inline]
    pub fn set_pit_bits(&mut self, pits: u128) {
        self.bits = (self.bits & !Self::PIT_MASK) | pits;
    }

    /// The position after the side to move's sowing: `pits` on the board,
    /// `taken` seeds captured into the mover's tally, the other side to
    /// move.
    #[inline(always)]
    pub fn after_sowing(&self, pits: u128, taken: u32) -> Self {
        let mut next = *self;
        next.set_pit_bits(pits);
        next.add_tally(self.side_to_move(), taken);
        next.flip_side();
        next
    }

    /// Whether this position, a child of `parent`, has the same side to
    /// move (the mover moves again: [`Rules::MOVES_AGAIN`]).
    #[inline(always)]
    pub fn moves_again_after(&self, parent: &Self) -> bool {
        R::MOVES_AGAIN && (self.bits ^ parent.bits) & SIDE_BIT == 0
    }

    /// A value `v` of this position (a child of `parent`), from its side
    /// to move's view, read from the side to move in `parent`: negated,
    /// unless the same side moves again.
    #[inline(always)]
    pub fn for_parent<V: std::ops::Neg<Output = V>>(&self, parent: &Self, v: V) -> V {
        if self.moves_again_after(parent) {
            v
        } else {
            -v
        }
    }

    /// Bounds `(lower, upper)` of this position's value (a child of
    /// `parent`) read from the side to move in `parent`: negated and
    /// swapped, unless the same side moves again. The reading is its own
    /// inverse, so it also turns a window of `parent`'s into the window
    /// to search this child with.
    #[inline(always)]
    pub fn bounds_for_parent(&self, parent: &Self, (lower, upper): (i32, i32)) -> (i32, i32) {
        if self.moves_again_after(parent) {
            (lower, upper)
        } else {
            (-upper, -lower)
        }
    }

    /// Hands the move to the other side.
    #[inline]
    pub fn flip_side(&mut self) {
        self.bits ^= SIDE_BIT;
    }

    /// Sets the side to move.
    pub fn with_side_to_move(mut self, side: Side) -> Self {
        if self.side_to_move() != side {
            self.flip_side();
        }
        self
    }

    /// The legal moves of the side to move, ascending; empty when the game is
    /// over. (A position does not know its history: the cycle rule is applied
    /// by [`GameRecord`](crate::GameRecord) and by the search.)
    pub fn legal_moves(&self) -> MoveList {
        let mut list = MoveList::new();
        R::generate(self, |mv, _| list.push(mv));
        list
    }

    /// Every legal move with the position it leads to.
    pub fn children(&self) -> Vec<(Move, Self)> {
        let mut out = Vec::with_capacity(crate::moves::MAX_MOVES);
        R::generate(self, |mv, child| out.push((mv, child)));
        out
    }

    /// Whether the game is over at this position (by the game's own rules,
    /// not the cycle rule), and the final totals if so.
    pub fn status(&self) -> Status {
        if R::ends_early(self) || !R::has_moves(self) {
            Status::Over(R::final_totals(self))
        } else {
            Status::Ongoing
        }
    }

    /// Final totals when the game ends here by the cycle rule
    /// ([`Rules::cycle_totals`]: the board split equally, or in Oware each
    /// side's own row).
    pub fn cycle_totals(&self) -> [u8; 2] {
        R::cycle_totals(self)
    }

    /// Plays a move that must be legal, without checking it. An illegal move
    /// gives an unspecified (but memory-safe) position.
    #[inline]
    pub fn play_unchecked(&self, mv: Move) -> Self {
        if mv.is_pass() {
            let mut next = *self;
            next.flip_side();
            return next;
        }
        match self.lane_of(mv) {
            Some(lane) => R::sow(self, lane).unwrap_or(*self),
            None => *self,
        }
    }

    /// Plays a move, checking that it is legal.
    pub fn try_play(&self, mv: Move) -> Result<Self, IllegalMove> {
        let mut found = None;
        R::generate(self, |m, child| {
            if m == mv {
                found = Some(child);
            }
        });
        found.ok_or_else(|| IllegalMove {
            mv,
            reason: self.why_illegal(mv),
        })
    }

    /// The pits (0-based pit numbers, ascending: pit `p` is `p - 1`) that
    /// `mv` takes seeds from,
    /// as the rules capture them (not the board a game's end gives
    /// away); empty for a pass, an illegal move or a move that takes
    /// nothing.
    pub fn taken_pits(&self, mv: Move) -> Vec<usize> {
        if mv.is_pass() || self.try_play(mv).is_err() {
            return Vec::new();
        }
        let Some(from) = self.lane_of(mv) else {
            return Vec::new();
        };
        let lanes = R::taken_lanes(self, from).unwrap_or(0);
        self.pit_lanes()
            .enumerate()
            .filter(|&(_, i)| lane(lanes, i) != 0)
            .map(|(pit, _)| pit)
            .collect()
    }

    /// Plays a legal move.
    ///
    /// # Panics
    /// If the move is not legal; use [`try_play`](Self::try_play) for moves
    /// from outside.
    pub fn play(&self, mv: Move) -> Self {
        match self.try_play(mv) {
            Ok(p) => p,
            Err(e) => panic!("{e} in {self}"),
        }
    }

    /// Explains why `mv` (known not to be legal) is illegal.
    fn why_illegal(&self, mv: Move) -> IllegalReason {
        use IllegalReason as W;
        if self.status() != Status::Ongoing {
            return W::GameOver;
        }
        let legal = self.legal_moves();
        if mv.is_pass() {
            return if R::PASSES {
                W::PassNotAllowed
            } else {
                W::NoSuchPit
            };
        }
        let Some(i) = self.lane_of(mv) else {
            return W::NoSuchPit;
        };
        if legal.contains(Move::PASS) {
            return W::MustPass;
        }
        let own = (i < R::SIDE_PITS) == (self.side_to_move() == Side::South);
        if !own {
            W::NotOwnPit
        } else if self.is_closed(i) {
            W::ClosedPit
        } else if self.seeds(i) == 0 {
            W::EmptyPit
        } else if R::sow(self, i).is_none() {
            W::Endless
        } else {
            W::MustFeed
        }
    }
}

/// Gathers the high bit of each 8-bit lane into bit `lane` of the result.
#[inline]
pub fn compress_high_bits(x: u128) -> u32 {
    // Multiply-gather per 64-bit half: (h >> 7) has bit 8k set for lane k;
    // multiplying by 0x0102040810204080 moves lane k's bit to bit 56 + k.
    const MAGIC: u64 = 0x0102_0408_1020_4080;
    let lo = ((x as u64 >> 7).wrapping_mul(MAGIC) >> 56) as u32;
    let hi = (((x >> 64) as u64 >> 7).wrapping_mul(MAGIC) >> 56) as u32;
    lo | hi << 8
}

impl<R: Rules> fmt::Debug for Position<R> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Position({self})")
    }
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
    /// The rules in a few lines, for people (`mancala rules`; the full
    /// text is docs/rules.md).
    const SUMMARY: &'static str;
    /// Pits in each row (`N`).
    const SIDE_PITS: usize;
    /// Pits on the board (`2N`).
    const PITS: usize = 2 * Self::SIDE_PITS;
    /// Seeds in every pit at the start.
    const START_SEEDS: u8;
    /// Total seeds (board plus tallies).
    const TOTAL: u8 = 2 * Self::SIDE_PITS as u8 * Self::START_SEEDS;
    /// Whether a position may hold any number of seeds up to [`TOTAL`](Self::TOTAL)
    /// (Kalah(6,n): the start's seeds a pit vary), rather than exactly it.
    const SEEDS_VARY: bool = false;
    /// Whether a move may leave the same side to move (Kalah: the last seed
    /// in one's own store). Where it can, the value of a child is the
    /// parent's own when the side to move did not change
    /// ([`Position::for_parent`]).
    const MOVES_AGAIN: bool = false;
    /// Whether pits can be closed (Bosh).
    const HAS_CLOSED_PITS: bool = false;
    /// Whether a position may have fewer than [`SIDE_PITS`](Self::SIDE_PITS)
    /// pits a side (Kalah(m,n): m from 1 to 6). A narrow board keeps its
    /// pits in the first `m` lanes of each row, the lanes after them empty,
    /// and its width in the key ([`Position::row_pits`]); pits are
    /// numbered 1 to `2m` all the same.
    const NARROW_BOARDS: bool = false;
    /// How a move captures.
    const CAPTURE: Capture;
    /// How far a move sows.
    const SOWING: Sowing = Sowing::SingleLap;
    /// Whether a player with no seeds passes (move `0`) instead of the game
    /// ending (Bohnenspiel as Hemprich plays it).
    const PASSES: bool = false;
    /// Whether a move must feed an opponent whose row is empty (Al-manqala,
    /// Djenon-abe).
    const FEEDING: bool = false;
    /// Who wins from the final totals.
    const WIN: WinRule;

    /// Sows the pit at 0-based `index` for the side to move, applies captures
    /// and hands the move to the other side (or, where the game says so,
    /// [`MOVES_AGAIN`](Self::MOVES_AGAIN), keeps it). Returns `None` for a move whose
    /// sowing never ends (relay games). Does not check feeding rules.
    fn sow(pos: &Position<Self>, index: usize) -> Option<Position<Self>>;

    /// The lanes (a mask of whole pit lanes) of the pits the move from
    /// `index` takes, to say which pits a move took; `None` for a move
    /// whose sowing never ends. This default serves one-lap sowing, where
    /// sowing empties only the pit it starts from: the pits taken are the
    /// others it leaves empty. Relay games, whose laps also empty the pits
    /// they lift, trace their captures themselves.
    fn taken_lanes(pos: &Position<Self>, index: usize) -> Option<u128> {
        let after = Self::sow(pos, index)?;
        let mut mask = 0;
        for i in (0..Self::PITS).filter(|&i| i != index) {
            if pos.seeds(i) > 0 && after.seeds(i) == 0 {
                mask |= crate::board::lanes(i, i + 1);
            }
        }
        Some(mask)
    }

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

    /// The final totals `[south, north]` when the game ends here by the
    /// cycle rule: by default the seeds on the board are split equally, the
    /// odd seed to the side to move (docs/rules.md, "Cycles"); in Oware each
    /// side keeps the seeds of its own row.
    #[inline]
    fn cycle_totals(pos: &Position<Self>) -> [u8; 2] {
        let board = pos.board_seeds() as u8;
        let mut totals = pos.tallies();
        let mover = pos.side_to_move().index();
        totals[mover] += board.div_ceil(2);
        totals[1 - mover] += board / 2;
        totals
    }
}
