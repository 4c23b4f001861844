//! Sowing: one lap as a single wide addition, capture chains, and relay
//! sowing with exact detection of endless moves.

use crate::board::{lanes, LANE};

/// Largest number of seeds any pit can hold (Al-manqala's total).
pub(crate) const MAX_SEEDS: usize = 98;

/// `INC[from][n]`: the lanes to add when `n` seeds are sown from pit `from`
/// of a `P`-pit board, counter-clockwise, the origin receiving its share on
/// every full lap (it is not skipped).
pub(crate) type IncTable = [[u128; MAX_SEEDS + 1]; 14];

const fn build_inc(pits: usize) -> IncTable {
    let mut t = [[0u128; MAX_SEEDS + 1]; 14];
    let mut from = 0;
    while from < pits {
        let mut n = 1;
        while n <= MAX_SEEDS {
            let target = (from + n) % pits;
            t[from][n] = t[from][n - 1] + (1u128 << (target as u32 * LANE));
            n += 1;
        }
        from += 1;
    }
    t
}

/// Increments for 10-pit boards (Bosh without closed pits).
pub(crate) static INC10: IncTable = build_inc(10);
/// Increments for 12-pit boards (Bohnenspiel, Djenon-abe).
pub(crate) static INC12: IncTable = build_inc(12);
/// Increments for 14-pit boards (Al-manqala).
pub(crate) static INC14: IncTable = build_inc(14);

/// `LANDING[from][n]`: the pit the last of `n` seeds sown from `from` falls in.
pub(crate) type LandingTable = [[u8; MAX_SEEDS + 1]; 14];

const fn build_landing(pits: usize) -> LandingTable {
    let mut t = [[0u8; MAX_SEEDS + 1]; 14];
    let mut from = 0;
    while from < pits {
        let mut n = 0;
        while n <= MAX_SEEDS {
            t[from][n] = ((from + n) % pits) as u8;
            n += 1;
        }
        from += 1;
    }
    t
}

static LANDING10: LandingTable = build_landing(10);
static LANDING12: LandingTable = build_landing(12);
static LANDING14: LandingTable = build_landing(14);

/// The landing table for a board of `pits` pits.
#[inline(always)]
fn landing_table(pits: usize) -> &'static LandingTable {
    match pits {
        10 => &LANDING10,
        12 => &LANDING12,
        _ => &LANDING14,
    }
}

/// The increment table for a board of `pits` pits.
#[inline(always)]
pub(crate) fn inc_table(pits: usize) -> &'static IncTable {
    match pits {
        10 => &INC10,
        12 => &INC12,
        _ => &INC14,
    }
}

/// `LANE_MASK[i]`: the bits of lane `i` (a table, to avoid a variable
/// 128-bit shift in the hot loop).
pub(crate) static LANE_MASK: [u128; 16] = {
    let mut t = [0u128; 16];
    let mut i = 0;
    while i < 16 {
        t[i] = lanes(i, i + 1);
        i += 1;
    }
    t
};

/// Lifts every seed of pit `from` and sows them in one lap (or several, if
/// they go round the board), on a board of `PITS` pits with no closed pit.
/// Returns the new pits and the index of the pit the last seed fell in.
#[inline(always)]
pub(crate) fn lap<const PITS: usize>(pits: u128, from: usize) -> (u128, usize) {
    let n = pits.to_le_bytes()[from] as usize;
    let cleared = pits & !LANE_MASK[from];
    let landing = landing_table(PITS)[from][n] as usize;
    (cleared + inc_table(PITS)[from][n], landing)
}

/// Captures backwards (clockwise) from `landing` while pits satisfy
/// `capturable`, across rows and round the board, never taking a pit twice.
/// Returns the seeds captured; the captured pits are emptied.
#[inline(always)]
pub(crate) fn capture_chain<const PITS: usize>(
    pits: &mut u128,
    landing: usize,
    capturable: impl Fn(u8) -> bool,
) -> u32 {
    let (taken, clear) = capture_lanes::<PITS>(*pits, landing, capturable);
    *pits &= !clear;
    taken
}

/// What [`capture_chain`] takes from `pits`: the seeds and the lanes of
/// the pits it empties.
#[inline(always)]
pub(crate) fn capture_lanes<const PITS: usize>(
    pits: u128,
    landing: usize,
    capturable: impl Fn(u8) -> bool,
) -> (u32, u128) {
    let bytes = pits.to_le_bytes();
    let first = bytes[landing];
    if !capturable(first) {
        return (0, 0);
    }
    let mut taken = first as u32;
    let mut clear = LANE_MASK[landing];
    let mut i = landing;
    for _ in 1..PITS {
        i = if i == 0 { PITS - 1 } else { i - 1 };
        let v = bytes[i];
        if !capturable(v) {
            break;
        }
        taken += v as u32;
        clear |= LANE_MASK[i];
    }
    (taken, clear)
}

/// Brent's cycle detector over the sowing states of one relay move: a
/// repeated state (pits plus the pit sowing resumes from) means the move
/// never ends. Exact, with no cap on laps.
pub(crate) struct CycleDetector {
    saved: u128,
    power: u32,
    steps: u32,
}

impl CycleDetector {
    #[inline(always)]
    pub(crate) fn new() -> Self {
        CycleDetector {
            saved: u128::MAX,
            power: 1,
            steps: 0,
        }
    }

    /// Records the state `(pits, at)` reached at a relay; returns `true` when
    /// it has been seen before, i.e. the sowing cycles forever.
    #[inline(always)]
    pub(crate) fn repeats(&mut self, pits: u128, at: usize) -> bool {
        // Lanes 15 and up are never pits: keep the resume point there.
        let state = pits | (at as u128) << 120;
        if state == self.saved {
            return true;
        }
        self.steps += 1;
        if self.steps == self.power {
            self.saved = state;
            self.power *= 2;
            self.steps = 0;
        }
        false
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::lane;

    #[test]
    fn inc_wraps_and_refills_origin() {
        // 13 seeds from pit index 2 of a 12-pit board: every pit gets one,
        // pit index 3 gets a second (13th seed).
        let inc = INC12[2][13];
        for i in 0..12 {
            let want = if i == 3 { 2 } else { 1 };
            assert_eq!(lane(inc, i), want, "lane {i}");
        }
        assert_eq!(lane(inc, 12), 0);
    }

    #[test]
    fn capture_chain_wraps_round_the_board_once() {
        // Every pit holds 2: the chain takes all 12 and stops.
        let mut pits = 0u128;
        for i in 0..12 {
            pits |= 2u128 << (8 * i);
        }
        let taken = capture_chain::<12>(&mut pits, 3, |v| v == 2);
        assert_eq!(taken, 24);
        assert_eq!(pits, 0);
    }

    #[test]
    fn cycle_detector_finds_a_loop_of_any_length() {
        for period in 1..40u128 {
            let mut d = CycleDetector::new();
            let mut found = false;
            for step in 0..1000u128 {
                if d.repeats(step % period, 0) {
                    found = true;
                    break;
                }
            }
            assert!(found, "period {period}");
        }
        let mut d = CycleDetector::new();
        assert!((0..1000u128).all(|s| !d.repeats(s, 0)));
    }
}
