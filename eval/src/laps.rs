//! Per-game tables of a move's first lap, built at compile time.
//!
//! For every pit and seed count the tables hold what the evaluation would
//! otherwise work out with shifts, rotations and `%`: the pits the first
//! lap sows into, where its last seed lands (and, in Bosh, the two pits
//! after that) with the seeds the lap drops there, and the per-pit counts
//! that depend on the seed count alone. The evaluation's per-pit work
//! becomes a few loads and additions (see `features::count_open`).
//!
//! Counts are summed *packed*: one `u64` holds a side's counters in 8-bit
//! fields (see [`field`]). No field can overflow: a side has at most 7
//! pits and at most 98 seeds. The largest capture need not be tracked
//! move by move either: captures take 2, 4 or 6, so counting the captures
//! of 4 or more and of 6 tells it (see [`field::best_take`]).

use mancala_engine::{Capture, Rules, Sowing};

/// Seed counts a table has a row for: every count a pit can hold (the
/// largest game, Al-manqala, has 98 seeds), rounded up to a power of two
/// so that `n % ROWS` indexes without a bounds check.
pub(crate) const ROWS: usize = 128;
/// Pits a table row has room for (Al-manqala has 14).
pub(crate) const MAX_PITS: usize = 14;

/// Bit offsets of the counters packed in a `u64`, 8 bits each. Every
/// counter stays below 128 (a row holds at most 98 seeds and 7 pits), so
/// one subtraction gives all the differences (see [`field::BIAS`]).
pub(crate) mod field {
    /// Seeds in the side's row.
    pub(crate) const ROW_SEEDS: u32 = 0;
    /// Non-empty pits.
    pub(crate) const MOBILITY: u32 = 8;
    /// Pits one seed short of a capture (Bosh: counted by `count_open`).
    pub(crate) const VULNERABLE: u32 = 16;
    /// Moves whose first lap relays.
    pub(crate) const RELAY: u32 = 24;
    /// Moves whose first lap captures.
    pub(crate) const CAPTURE_MOVES: u32 = 32;
    /// Of those, the ones taking 4 seeds or more (not Bosh).
    pub(crate) const TAKES_4_UP: u32 = 40;
    /// Of those, the ones taking 6 seeds (not Bosh).
    pub(crate) const TAKES_6: u32 = 48;
    /// The fields of the features themselves (without the helpers
    /// [`TAKES_4_UP`] and [`TAKES_6`]).
    pub(crate) const FEATURES: u64 = (1 << TAKES_4_UP) - 1;
    /// `0x80` in every feature field: `(a | BIAS) - b` holds `128 + a - b`
    /// in every field, without a borrow between fields.
    pub(crate) const BIAS: u64 = 0x80_8080_8080;

    /// The counter at `shift` in a packed sum.
    #[inline(always)]
    pub(crate) fn get(sum: u64, shift: u32) -> i32 {
        (sum >> shift) as u8 as i32
    }

    /// The difference `a - b` at `shift`, from `(a | BIAS) - b`.
    #[inline(always)]
    pub(crate) fn difference(biased: u64, shift: u32) -> i32 {
        get(biased, shift) - 0x80
    }

    /// The most seeds a capture takes (0, 2, 4 or 6), from the counts of
    /// [`CAPTURE_MOVES`], [`TAKES_4_UP`] and [`TAKES_6`] (not Bosh).
    #[inline(always)]
    pub(crate) fn best_take(sum: u64) -> i32 {
        2 * ((get(sum, CAPTURE_MOVES) != 0) as i32
            + (get(sum, TAKES_4_UP) != 0) as i32
            + (get(sum, TAKES_6) != 0) as i32)
    }
}

/// Lanes of [`padded`] seeds: the key's 16, then 16 that are always 0.
pub(crate) const PADDED: usize = 32;
/// A lane of [`padded`] seeds that is always 0.
const ZERO_LANE: u8 = 16;

/// The seeds of a position's key (lane `i` = pit `i`), followed by zero
/// lanes: a [`Spot`] reads the emptied origin pit there.
#[inline(always)]
pub(crate) fn padded(key: u128) -> [u8; PADDED] {
    let mut seeds = [0; PADDED];
    seeds[..16].copy_from_slice(&key.to_le_bytes());
    seeds
}

/// A pit a first lap reaches, and what it then holds: the seeds in lane
/// `lane` of the [`padded`] seeds plus `add`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Spot {
    /// The pit's 0-based index, or [`ZERO_LANE`] for the emptied origin
    /// (or for no move at all: the pit sown from is empty).
    pub lane: u8,
    /// Seeds the lap drops into the pit.
    pub add: u8,
}

impl Spot {
    const NONE: Spot = Spot {
        lane: ZERO_LANE,
        add: 0,
    };

    /// Seeds in the pit after the lap, given the [`padded`] seeds before
    /// the move. (No pit holds more than 98 seeds, nor a lap drops more
    /// than 8, so the `u8` never wraps.)
    #[inline(always)]
    pub(crate) fn after(self, seeds: &[u8; PADDED]) -> u8 {
        seeds[self.lane as usize % PADDED].wrapping_add(self.add)
    }

    /// The spot `p` for a lap of `n > 0` seeds from pit `r` round `m`
    /// pits: the origin `r` is emptied and gets a seed every full lap.
    const fn of(m: usize, r: usize, n: usize, p: usize) -> Spot {
        let off = match (p + m - r) % m {
            0 => m,
            o => o,
        };
        Spot {
            lane: if off == m { ZERO_LANE } else { p as u8 },
            add: if n < off {
                0
            } else {
                ((n - off) / m + 1) as u8
            },
        }
    }
}

/// The first lap of one pit holding a given number of seeds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Lap {
    /// Packed counters the pit adds whatever else is on the board: its
    /// seeds, its mobility and (not Bosh) whether it is vulnerable.
    pub inc: u64,
    /// Low 16 bits: the pits the first lap sows into (bit `i` = pit `i`);
    /// high 16 bits: the pit itself, if it is empty.
    pub masks: u32,
    /// Where the last seed lands ([`Spot::NONE`] for an empty pit).
    pub land: Spot,
}

/// Whether a pit count `c` reached by the last seed is captured
/// ([`Rules::CAPTURE`]; never for Bosh, whose captures go by position).
pub(crate) const fn captured<R: Rules>(c: usize) -> bool {
    c < 256 && R::CAPTURE.takes(c as u8)
}

/// Whether the game captures after an empty pit and relays from the next
/// pit (Bosh) rather than by the landing pit's count.
pub(crate) const fn after_empty<R: Rules>() -> bool {
    matches!(R::CAPTURE, Capture::AfterEmpty)
}

/// `laps::<R>()[n][r]`: the first lap of pit `r` holding `n` seeds.
pub(crate) const fn laps<R: Rules>() -> [[Lap; MAX_PITS]; ROWS] {
    let m = R::PITS;
    let full = (1u32 << m) - 1;
    let mut t = [[Lap {
        inc: 0,
        masks: 0,
        land: Spot::NONE,
    }; MAX_PITS]; ROWS];
    let mut n = 0;
    while n < ROWS {
        let mut r = 0;
        while r < m {
            t[n][r] = if n == 0 {
                Lap {
                    inc: 0,
                    masks: 1 << (16 + r),
                    land: Spot::NONE,
                }
            } else {
                let vulnerable = captured::<R>(n + 1);
                let span = if n >= m { full } else { (1u32 << n) - 1 };
                let start = ((r + 1) % m) as u32;
                let landing = (r + (n - 1) % m + 1) % m;
                Lap {
                    inc: (n as u64) << field::ROW_SEEDS
                        | 1 << field::MOBILITY
                        | (vulnerable as u64) << field::VULNERABLE,
                    masks: ((span << start) | (span >> (m as u32 - start))) & full,
                    land: Spot::of(m, r, n, landing),
                }
            };
            r += 1;
        }
        n += 1;
    }
    t
}

/// `bosh_next::<R>()[n][r]`: the two pits after the landing pit of pit `r`
/// holding `n` seeds (Bosh: the next pit decides between a relay and a
/// capture of the one after it).
pub(crate) const fn bosh_next<R: Rules>() -> [[[Spot; 2]; MAX_PITS]; ROWS] {
    let m = R::PITS;
    let mut t = [[[Spot::NONE; 2]; MAX_PITS]; ROWS];
    let mut n = 1;
    while n < ROWS {
        let mut r = 0;
        while r < m {
            let landing = (r + (n - 1) % m + 1) % m;
            let look = (landing + 1) % m;
            let prey = (look + 1) % m;
            t[n][r] = [Spot::of(m, r, n, look), Spot::of(m, r, n, prey)];
            r += 1;
        }
        n += 1;
    }
    t
}

/// `landing::<R>()[c]`: the packed counters of a move whose last seed
/// makes `c` in its landing pit (`c = 0`: no move). Not used for Bosh.
pub(crate) const fn landing<R: Rules>() -> [u64; 256] {
    let mut t = [0u64; 256];
    let mut c = 1;
    while c < 256 {
        let relay = matches!(R::SOWING, Sowing::RelayFromLanding) && c > 1;
        t[c] = if captured::<R>(c) {
            1 << field::CAPTURE_MOVES
                | ((c >= 4) as u64) << field::TAKES_4_UP
                | ((c >= 6) as u64) << field::TAKES_6
        } else {
            (relay as u64) << field::RELAY
        };
        c += 1;
    }
    t
}

/// `POPCOUNT[x]`: the set bits of a 7-bit mask (one row of pits; the
/// portable `count_ones` is a dozen instructions without `popcnt`).
pub(crate) const POPCOUNT: [u8; 128] = {
    let mut t = [0u8; 128];
    let mut x = 0;
    while x < 128 {
        t[x] = (x as u32).count_ones() as u8;
        x += 1;
    }
    t
};
