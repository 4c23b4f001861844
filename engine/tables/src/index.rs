//! The perfect index of a tablebase layer: a combinatorial ranking of the
//! distributions of `n` seeds over the `P` pits of a board, South to move.
//!
//! A distribution `a_0, …, a_{P-1}` of `n` seeds is a row of `n` seeds and
//! `P - 1` bars; bar `j` stands at `b_j = a_0 + … + a_j + j`. The bars are a
//! `(P - 1)`-subset of `0..n + P - 1`, and the combinatorial number system
//! ranks it: `rank = Σ_j C(b_j, j + 1)`. Ranks run over `0..C(n + P - 1, P - 1)`
//! with no gap, so a layer is one byte per distribution and nothing else.

use mancala_rules::layout::{lane, lanes, LANE};

/// The largest number of seeds on the board a table can cover.
pub const MAX_TABLE_SEEDS: u32 = 64;

/// Most pits on a board with tables (Al-manqala: 14).
const MAX_PITS: usize = 14;
/// Highest top argument of a binomial used: `MAX_TABLE_SEEDS + MAX_PITS`.
const BINOM_TOP: usize = MAX_TABLE_SEEDS as usize + MAX_PITS + 1;

/// `BINOM[k][x] = C(x, k)`, 0 when `k > x`.
static BINOM: [[u64; BINOM_TOP]; MAX_PITS + 1] = build_binom();

const fn build_binom() -> [[u64; BINOM_TOP]; MAX_PITS + 1] {
    let mut t = [[0u64; BINOM_TOP]; MAX_PITS + 1];
    let mut x = 0;
    while x < BINOM_TOP {
        t[0][x] = 1;
        let mut k = 1;
        while k <= MAX_PITS {
            t[k][x] = if x == 0 {
                0
            } else {
                t[k - 1][x - 1] + t[k][x - 1]
            };
            k += 1;
        }
        x += 1;
    }
    t
}

/// `C(x, k)` for the small arguments of this module.
#[inline]
fn binom(x: usize, k: usize) -> u64 {
    BINOM[k][x]
}

/// Number of distributions of `seeds` seeds over `pits` pits: the size of a
/// layer. Defined for every argument, also beyond what a table can cover
/// (a whole 72-seed board asks how big its layers would be): a size past
/// `u64::MAX` is `u64::MAX`, and no pits hold one distribution of nothing.
///
/// ```
/// use mancala_tables::layer_size;
/// assert_eq!(layer_size(12, 0), 1);
/// assert_eq!(layer_size(12, 2), 78); // 12 ways to put both in one pit + 66 pairs
/// assert_eq!(layer_size(12, 72), 16_141_841_823_510); // C(83, 11)
/// assert_eq!(layer_size(14, 10_000), u64::MAX);
/// ```
pub fn layer_size(pits: usize, seeds: u32) -> u64 {
    if pits == 0 {
        return u64::from(seeds == 0);
    }
    let (x, k) = (seeds as usize + pits - 1, pits - 1);
    if x < BINOM_TOP && k <= MAX_PITS {
        return binom(x, k);
    }
    // C(x, k) = Π_{i=1..k} (x - k + i) / i: each partial product is itself
    // a binomial, so the division is exact; saturate once it passes u64.
    let mut c: u128 = 1;
    for i in 1..=k as u128 {
        c = c * (x as u128 - k as u128 + i) / i;
        if c > u128::from(u64::MAX) {
            return u64::MAX;
        }
    }
    c as u64
}

/// The rank of the pits `pits` (lane `i` = pit `i + 1`, lanes beyond `P`
/// ignored) among the distributions of their seeds over `P` pits.
#[inline(always)]
pub fn rank<const P: usize>(pits: u128) -> u64 {
    let mut sum = 0usize;
    let mut r = 0u64;
    for j in 0..P - 1 {
        sum += lane(pits, j) as usize;
        r += BINOM[j + 1][sum + j];
    }
    r
}

/// The bars of a distribution, kept to walk a layer in rank order.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Walker<const P: usize> {
    bars: [u8; MAX_PITS],
    seeds: u32,
}

impl<const P: usize> Walker<P> {
    /// Starts at the distribution of `seeds` seeds with rank `r`.
    pub(crate) fn at(seeds: u32, mut r: u64) -> Self {
        let mut bars = [0u8; MAX_PITS];
        let mut top = seeds as usize + P - 1;
        for j in (0..P - 1).rev() {
            // Largest b < top with C(b, j + 1) <= r.
            let mut b = top - 1;
            while binom(b, j + 1) > r {
                b -= 1;
            }
            bars[j] = b as u8;
            r -= binom(b, j + 1);
            top = b;
        }
        Walker { bars, seeds }
    }

    /// The pits of the current distribution.
    #[inline(always)]
    pub(crate) fn pits(&self) -> u128 {
        let mut pits = 0u128;
        let mut prev = -1i32;
        for j in 0..P - 1 {
            let b = self.bars[j] as i32;
            pits |= ((b - prev - 1) as u128) << (j as u32 * LANE);
            prev = b;
        }
        let last = self.seeds as i32 + P as i32 - 2 - prev;
        pits | (last as u128) << ((P - 1) as u32 * LANE)
    }

    /// Moves to the next rank (colex successor of the bars). Must not be
    /// called on the last distribution.
    #[inline(always)]
    pub(crate) fn advance(&mut self) {
        let end = (self.seeds as usize + P - 1) as u8;
        let mut j = 0;
        loop {
            let next = if j + 1 < P - 1 { self.bars[j + 1] } else { end };
            if self.bars[j] + 1 < next {
                self.bars[j] += 1;
                for (i, bar) in self.bars.iter_mut().enumerate().take(j) {
                    *bar = i as u8;
                }
                return;
            }
            j += 1;
        }
    }
}

/// Turns the board round: North's row becomes South's and the reverse, so a
/// North-to-move board reads as a South-to-move one.
#[inline(always)]
pub fn mirror<const P: usize>(pits: u128) -> u128 {
    let half = (P / 2) as u32 * LANE;
    let row = lanes(0, P / 2);
    ((pits >> half) & row) | ((pits & row) << half)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn all_distributions(pits: usize, seeds: u32) -> Vec<Vec<u8>> {
        if pits == 1 {
            return vec![vec![seeds as u8]];
        }
        let mut out = Vec::new();
        for first in 0..=seeds {
            for mut rest in all_distributions(pits - 1, seeds - first) {
                rest.insert(0, first as u8);
                out.push(rest);
            }
        }
        out
    }

    fn pack(d: &[u8]) -> u128 {
        d.iter()
            .enumerate()
            .fold(0, |acc, (i, &v)| acc | (v as u128) << (8 * i))
    }

    #[test]
    fn rank_is_a_bijection_and_the_walker_follows_it() {
        for seeds in [0u32, 1, 2, 5, 7] {
            let all = all_distributions(6, seeds);
            assert_eq!(all.len() as u64, layer_size(6, seeds));
            let mut seen = vec![false; all.len()];
            for d in &all {
                let r = rank::<6>(pack(d)) as usize;
                assert!(!seen[r], "rank {r} twice");
                seen[r] = true;
                assert_eq!(Walker::<6>::at(seeds, r as u64).pits(), pack(d));
            }
            let mut w = Walker::<6>::at(seeds, 0);
            for r in 0..all.len() as u64 {
                assert_eq!(rank::<6>(w.pits()), r);
                if r + 1 < all.len() as u64 {
                    w.advance();
                }
            }
        }
    }

    #[test]
    fn walker_ranks_a_twelve_pit_layer_in_order() {
        let mut w = Walker::<12>::at(8, 0);
        for r in 0..layer_size(12, 8) {
            let pits = w.pits();
            assert_eq!(mancala_rules::layout::lane_sum(pits), 8);
            assert_eq!(rank::<12>(pits), r);
            if r + 1 < layer_size(12, 8) {
                w.advance();
            }
        }
        assert_eq!(rank::<12>(Walker::<12>::at(8, 1234).pits()), 1234);
    }

    #[test]
    fn mirror_swaps_the_rows() {
        let pits = pack(&[1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]);
        assert_eq!(
            mirror::<12>(pits),
            pack(&[7, 8, 9, 10, 11, 12, 1, 2, 3, 4, 5, 6])
        );
        assert_eq!(mirror::<12>(mirror::<12>(pits)), pits);
    }
}
