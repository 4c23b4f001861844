//! The features of a position, counted for each side.
//!
//! Moves are looked at through their first lap only (relay games may sow
//! on): where the last seed lands and what the pit then holds. That keeps
//! the evaluation cheap; the search sees the rest. On an open board the
//! counts are read from per-game tables (see [`crate::laps`]) and summed
//! packed; [`count_on_ring`] works them out plainly and is what the tests
//! compare the fast path with.

use mancala_engine::{Capture, Position, Rules, Side, Sowing};

use crate::laps::{self, after_empty, captured, field};

/// Declares the evaluation features once: the [`Feature`] enum (its
/// order is the weight order), each feature's name (the JSON key of its
/// weight) and the [`Weights`](crate::Weights) struct with one field each.
macro_rules! features {
    ($( $(#[doc = $doc:literal])* $variant:ident => $field:ident, )*) => {
        /// One evaluation feature. Each is counted for both sides; the
        /// evaluation uses the side to move's count minus the opponent's.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        pub enum Feature {
            $( $(#[doc = $doc])* $variant, )*
        }

        impl Feature {
            /// Every feature, in weight order.
            pub const ALL: [Feature; Feature::COUNT] = [$(Feature::$variant),*];
            /// How many features there are.
            pub const COUNT: usize = [$(stringify!($variant)),*].len();

            /// The feature's name: the key of its weight in a weight file.
            pub const fn name(self) -> &'static str {
                match self {
                    $(Feature::$variant => stringify!($field),)*
                }
            }
        }

        /// One game's weights, in seeds per unit of each [`Feature`].
        #[derive(Clone, Copy, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
        #[serde(deny_unknown_fields)]
        pub struct Weights {
            $(
                #[doc = concat!("The weight of [`Feature::", stringify!($variant), "`].")]
                pub $field: f64,
            )*
        }

        impl Weights {
            /// The weights in [`Feature::ALL`] order.
            pub fn as_array(&self) -> [f64; Feature::COUNT] {
                [$(self.$field),*]
            }

            /// Weights from an array in [`Feature::ALL`] order.
            pub fn from_array(w: [f64; Feature::COUNT]) -> Self {
                let [$($field),*] = w;
                Weights { $($field),* }
            }
        }
    };
}

features! {
    /// Seeds banked (store, captures or pool).
    Banked => banked,
    /// Seeds in the side's row.
    RowSeeds => row_seeds,
    /// The side's non-empty open pits (the moves it could make).
    Mobility => mobility,
    /// The side's moves whose first lap ends with a capture: the landing pit
    /// made a count of the game's capture set; in Bosh, the next pit empty
    /// and the one after it holding stones.
    CaptureMoves => capture_moves,
    /// The most seeds such a move takes from the landing (Bosh: the prey)
    /// pit.
    CaptureSeeds => capture_seeds,
    /// The side's pits an opponent could capture: one seed short of a count
    /// of the capture set; in Bosh, a non-empty pit right after an empty
    /// one.
    Vulnerable => vulnerable,
    /// The side's empty pits that some opponent move's first lap sows into.
    FeedableEmpty => feedable_empty,
    /// The side's moves whose first lap does not end the move (Bosh: the
    /// next pit holds stones; Djenon-abe: the landing pit makes 3 or 5+).
    Relay => relay,
}

/// Feature counts of one position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Features {
    /// Each side's counts, `[south, north]`, indexed by `Feature as usize`.
    pub per_side: [[i32; Feature::COUNT]; 2],
    /// The side to move's count minus the opponent's, by `Feature as usize`.
    pub values: [i32; Feature::COUNT],
}

impl Features {
    /// A side's count of one feature.
    pub fn get(&self, side: Side, f: Feature) -> i32 {
        self.per_side[side.index()][f as usize]
    }

    /// Counts the features of `pos`.
    #[inline]
    pub fn of<R: Rules>(pos: &Position<R>) -> Features {
        let counts = count(pos);
        let per_side = [counts.side(pos, Side::South), counts.side(pos, Side::North)];
        let me = pos.side_to_move().index();
        let mut values = [0; Feature::COUNT];
        for (i, v) in values.iter_mut().enumerate() {
            *v = per_side[me][i] - per_side[1 - me][i];
        }
        Features { per_side, values }
    }
}

/// `Σ weights[f] · values[f]` over the [`Features::of`] `pos`, without
/// building them: the evaluation's hot path.
#[inline(always)]
pub(crate) fn weighted_sum<R: Rules>(pos: &Position<R>, weights: &[i32; Feature::COUNT]) -> i32 {
    let south_minus_north = count(pos).weighted_difference(pos, weights);
    match pos.side_to_move() {
        Side::South => south_minus_north,
        Side::North => -south_minus_north,
    }
}

/// The two weighted sums of [`weighted_sum`] for two weight vectors, from
/// one count of the features (the blended evaluation's hot path).
#[inline(always)]
pub(crate) fn weighted_sums<R: Rules>(
    pos: &Position<R>,
    a: &[i32; Feature::COUNT],
    b: &[i32; Feature::COUNT],
) -> (i32, i32) {
    let counts = count(pos);
    let (x, y) = (
        counts.weighted_difference(pos, a),
        counts.weighted_difference(pos, b),
    );
    match pos.side_to_move() {
        Side::South => (x, y),
        Side::North => (-x, -y),
    }
}

/// Both sides' counts in the form [`count_open`] sums them; the banked
/// seeds are read from the position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Counts {
    /// Per side (`[south, north]`), the counters at the [`field`] offsets.
    sums: [u64; 2],
    /// Per side, [`Feature::CaptureSeeds`].
    best: [i32; 2],
    /// Per side, [`Feature::FeedableEmpty`].
    feedable: [i32; 2],
}

impl Counts {
    /// Packs per-side feature counts (as [`count_on_ring`] returns them).
    fn pack(f: [[i32; Feature::COUNT]; 2]) -> Counts {
        use Feature as F;
        let sums = f.map(|row| {
            [
                (F::RowSeeds, field::ROW_SEEDS),
                (F::Mobility, field::MOBILITY),
                (F::Vulnerable, field::VULNERABLE),
                (F::CaptureMoves, field::CAPTURE_MOVES),
                (F::Relay, field::RELAY),
            ]
            .iter()
            .map(|&(f, shift)| (row[f as usize] as u64) << shift)
            .sum()
        });
        Counts {
            sums,
            best: f.map(|row| row[F::CaptureSeeds as usize]),
            feedable: f.map(|row| row[F::FeedableEmpty as usize]),
        }
    }

    /// `Σ weights[f] · (south[f] - north[f])`.
    #[inline(always)]
    fn weighted_difference<R: Rules>(
        &self,
        pos: &Position<R>,
        weights: &[i32; Feature::COUNT],
    ) -> i32 {
        use Feature as F;
        let d = (self.sums[0] | field::BIAS) - self.sums[1];
        let w = |f: Feature| weights[f as usize];
        w(F::Banked) * (pos.tally(Side::South) as i32 - pos.tally(Side::North) as i32)
            + w(F::RowSeeds) * field::difference(d, field::ROW_SEEDS)
            + w(F::Mobility) * field::difference(d, field::MOBILITY)
            + w(F::CaptureMoves) * field::difference(d, field::CAPTURE_MOVES)
            + w(F::CaptureSeeds) * (self.best[0] - self.best[1])
            + w(F::Vulnerable) * field::difference(d, field::VULNERABLE)
            + w(F::FeedableEmpty) * (self.feedable[0] - self.feedable[1])
            + w(F::Relay) * field::difference(d, field::RELAY)
    }

    /// One side's feature counts, in [`Feature::ALL`] order.
    #[inline(always)]
    fn side<R: Rules>(&self, pos: &Position<R>, side: Side) -> [i32; Feature::COUNT] {
        let s = side.index();
        let sum = self.sums[s];
        [
            pos.tally(side) as i32,
            field::get(sum, field::ROW_SEEDS),
            field::get(sum, field::MOBILITY),
            field::get(sum, field::CAPTURE_MOVES),
            self.best[s],
            field::get(sum, field::VULNERABLE),
            self.feedable[s],
            field::get(sum, field::RELAY),
        ]
    }
}

/// The counts of `pos`: the table-driven [`count_open`] when every pit is
/// open, else the ring walk over the open pits; the store games have their
/// own ([`count_with_stores`]).
#[inline(always)]
fn count<R: Rules>(pos: &Position<R>) -> Counts {
    if matches!(R::CAPTURE, Capture::Opposite { .. }) {
        return Counts::pack(count_with_stores(pos));
    }
    if matches!(R::CAPTURE, Capture::OpponentChain(_)) {
        return Counts::pack(count_by_moves(pos));
    }
    let closed = pos.closed_mask();
    if closed == 0 {
        count_open(pos)
    } else {
        // The open pits in sowing order: `ring[r]` is a 0-based pit index.
        let mut seeds = [0usize; 14];
        let mut ring = [0usize; 14];
        let mut m = 0;
        for i in 0..R::PITS {
            if closed >> i & 1 == 0 {
                ring[m] = i;
                seeds[m] = pos.seeds(i) as usize;
                m += 1;
            }
        }
        Counts::pack(count_on_ring(pos, &seeds, m, |r| ring[r]))
    }
}

/// The counts when every pit is open (every game but later Bosh rounds):
/// the same as [`count_on_ring`] over the whole board, which stays the
/// plainly written reference, but read from the per-game [`laps`] tables
/// (the evaluation's hot path).
#[inline(always)]
fn count_open<R: Rules>(pos: &Position<R>) -> Counts {
    let seeds = laps::padded(pos.key());
    let (south, north) = (count_row::<R>(&seeds, 0), count_row::<R>(&seeds, 1));
    let mut sums = [south.0, north.0];
    let masks = [south.1, north.1];
    // High half of `masks[s]`: side `s`'s empty pits; low half: the pits
    // its first laps sow into.
    let empty = [masks[0] >> 16, masks[1] >> 16];
    let n = R::SIDE_PITS;
    // The set bits of `bits` in side `s`'s row (`& 127`: a row has at
    // most 7 pits, which the bounds check cannot see).
    let row = |bits: u32, s: usize| {
        laps::POPCOUNT[(bits >> (s * n)) as usize & ((1 << n) - 1) & 127] as i32
    };
    let best = if after_empty::<R>() {
        // A non-empty pit right after an empty one (pit 1 comes after the
        // last pit).
        let m = R::PITS as u32;
        let all_empty = empty[0] | empty[1];
        let after_empty = (all_empty << 1 | all_empty >> (m - 1)) & !all_empty & ((1 << m) - 1);
        for (s, sum) in sums.iter_mut().enumerate() {
            *sum += (row(after_empty, s) as u64) << field::VULNERABLE;
        }
        [south.2 as i32, north.2 as i32]
    } else {
        sums.map(field::best_take)
    };
    Counts {
        sums: sums.map(|sum| sum & field::FEATURES),
        best,
        feedable: [row(empty[0] & masks[1], 0), row(empty[1] & masks[0], 1)],
    }
}

/// One row's share of [`count_open`]: side `s`'s packed sums, its masks
/// (high half: its empty pits; low half: the pits its first laps sow
/// into) and, in Bosh, the most seeds one of its moves captures.
#[inline(always)]
fn count_row<R: Rules>(seeds: &[u8; laps::PADDED], s: usize) -> (u64, u32, u32) {
    let laps = const { &laps::laps::<R>() };
    let landing = const { &laps::landing::<R>() };
    let bosh_next = const { &laps::bosh_next::<R>() };
    let (mut sum, mut masks, mut best) = (0u64, 0u32, 0u32);
    for r in s * R::SIDE_PITS..(s + 1) * R::SIDE_PITS {
        let n = seeds[r] as usize % laps::ROWS;
        let lap = &laps[n][r];
        sum += lap.inc;
        masks |= lap.masks;
        if after_empty::<R>() {
            let [look, prey] = bosh_next[n][r];
            let look_n = look.after(seeds);
            let take = if look_n == 0 {
                prey.after(seeds) as u32
            } else {
                0
            };
            sum += ((take != 0) as u64) << field::CAPTURE_MOVES
                | ((look_n != 0) as u64) << field::RELAY;
            best = best.max(take);
        } else {
            sum += landing[lap.land.after(seeds) as usize];
        }
    }
    (sum, masks, best)
}

/// [`Feature::Banked`] and [`Feature::RowSeeds`] of `side`, for the
/// counts that play each move ([`count_with_stores`], [`count_by_moves`]).
fn count_stores_and_rows<R: Rules>(row: &mut [i32; Feature::COUNT], pos: &Position<R>, side: Side) {
    row[Feature::Banked as usize] = pos.tally(side) as i32;
    row[Feature::RowSeeds as usize] = pos.row_seeds(side) as i32;
}

/// A move that takes `take` seeds (none if `take` is not positive):
/// [`Feature::CaptureMoves`] counts it, [`Feature::CaptureSeeds`] keeps
/// the most one takes.
fn count_capture(row: &mut [i32; Feature::COUNT], take: i32) {
    if take > 0 {
        row[Feature::CaptureMoves as usize] += 1;
        let best = &mut row[Feature::CaptureSeeds as usize];
        *best = (*best).max(take);
    }
}

/// The counts of a store game (Kalah), each move played by the rules for
/// the side whose pit it is: [`Feature::Relay`] counts the moves that end
/// in the side's store (it moves again), [`Feature::CaptureMoves`] and
/// [`Feature::CaptureSeeds`] the captures of an opposite pit,
/// [`Feature::Vulnerable`] the side's non-empty pits facing an empty one
/// (where the opponent's last seed captures them) and
/// [`Feature::FeedableEmpty`] the side's empty pits facing seeds (where its
/// own last seed would).
fn count_with_stores<R: Rules>(pos: &Position<R>) -> [[i32; Feature::COUNT]; 2] {
    use Feature as F;
    let mut f = [[0i32; Feature::COUNT]; 2];
    let n = R::SIDE_PITS;
    for side in Side::BOTH {
        let s = side.index();
        let row = &mut f[s];
        count_stores_and_rows(row, pos, side);
        let mover = pos.with_side_to_move(side);
        for i in s * n..(s + 1) * n {
            let seeds = pos.seeds(i) as usize;
            let across = pos.seeds(R::PITS - 1 - i);
            if seeds == 0 {
                row[F::FeedableEmpty as usize] += (across > 0) as i32;
                continue;
            }
            row[F::Mobility as usize] += 1;
            row[F::Vulnerable as usize] += (across == 0) as i32;
            let Some(child) = R::sow(&mover, i) else {
                continue;
            };
            if child.side_to_move() == side {
                row[F::Relay as usize] += 1;
                continue;
            }
            // The store takes a seed each time the lap passes it.
            let to_store = (s + 1) * n - i;
            let passes = if seeds >= to_store {
                1 + (seeds - to_store) / (R::PITS + 1)
            } else {
                0
            };
            let take = (child.tally(side) - pos.tally(side)) as i32 - passes as i32;
            count_capture(row, take);
        }
    }
    f
}

/// The counts of Oware, each move played by the rules for the side whose
/// pit it is (laps skip their origin, captures stay on the opponent's row,
/// a grand slam takes nothing): [`Feature::CaptureMoves`] the moves that
/// take seeds, [`Feature::CaptureSeeds`] the most one of them takes (the
/// whole chain), [`Feature::Vulnerable`] the side's pits holding 1 or 2 (an
/// opponent's last seed makes them 2 or 3) and
/// [`Feature::FeedableEmpty`] the side's empty pits that an opponent's
/// move sows into.
fn count_by_moves<R: Rules>(pos: &Position<R>) -> [[i32; Feature::COUNT]; 2] {
    use Feature as F;
    let mut f = [[0i32; Feature::COUNT]; 2];
    let n = R::SIDE_PITS;
    let m = R::PITS;
    // The pits each side's moves sow into.
    let mut sown = [0u32; 2];
    for side in Side::BOTH {
        let s = side.index();
        let row = &mut f[s];
        count_stores_and_rows(row, pos, side);
        let mover = pos.with_side_to_move(side);
        for i in s * n..(s + 1) * n {
            let seeds = pos.seeds(i) as usize;
            if seeds == 0 {
                continue;
            }
            row[F::Mobility as usize] += 1;
            row[F::Vulnerable as usize] += R::CAPTURE.takes(seeds as u8 + 1) as i32;
            // The next `seeds` pits, the origin skipped (all others from
            // a lap of m - 1 on).
            let span = if seeds >= m - 1 {
                (1u32 << m) - 1
            } else {
                (1u32 << seeds) - 1
            };
            let start = (i + 1) % m;
            let rotated = ((span << start) | (span >> (m - start))) & ((1 << m) - 1) & !(1 << i);
            sown[s] |= rotated;
            let Some(child) = R::sow(&mover, i) else {
                continue;
            };
            let take = (child.tally(side) - pos.tally(side)) as i32;
            count_capture(row, take);
        }
    }
    for side in Side::BOTH {
        let s = side.index();
        for i in s * n..(s + 1) * n {
            if pos.seeds(i) == 0 && sown[1 - s] >> i & 1 != 0 {
                f[s][F::FeedableEmpty as usize] += 1;
            }
        }
    }
    f
}

/// The counts, given the `m` open pits in sowing order (`seeds[r]` in the
/// pit `pit(r)`), worked out move by move as the rules say it. Used for
/// Bosh boards with closed pits, and as the reference the tests hold
/// [`count_open`] to.
#[inline(always)]
fn count_on_ring<R: Rules>(
    pos: &Position<R>,
    seeds: &[usize; 14],
    m: usize,
    pit: impl Fn(usize) -> usize,
) -> [[i32; Feature::COUNT]; 2] {
    use Feature as F;
    let mut f = [[0i32; Feature::COUNT]; 2];
    let owner = |r: usize| (pit(r) >= R::SIDE_PITS) as usize;
    for side in Side::BOTH {
        f[side.index()][F::Banked as usize] = pos.tally(side) as i32;
        f[side.index()][F::RowSeeds as usize] = pos.row_seeds(side) as i32;
    }
    // Ring positions each side's first laps sow into.
    let mut fed = [0u32; 2];
    let full = (1u32 << m) - 1;
    for r in 0..m {
        let n = seeds[r];
        if n == 0 {
            continue;
        }
        let s = owner(r);
        f[s][F::Mobility as usize] += 1;
        // Seeds at ring position `rp` after the lap from `r` (offset `m`
        // is the emptied origin, which gets a seed every full lap).
        let after = |rp: usize| -> usize {
            let off = match (rp + m - r) % m {
                0 => m,
                o => o,
            };
            let base = if off == m { 0 } else { seeds[rp] };
            base + if n < off {
                0
            } else if n < off + m {
                1
            } else {
                (n - off) / m + 1
            }
        };
        let (landing, c) = if n < m {
            // The common case: less than a lap; the landing pit gains one.
            let l = if r + n >= m { r + n - m } else { r + n };
            (l, seeds[l] + 1)
        } else {
            let l = (r + (n - 1) % m + 1) % m;
            (l, after(l))
        };
        let relay_from_landing = matches!(R::SOWING, Sowing::RelayFromLanding);
        let take = match () {
            _ if after_empty::<R>() => {
                let look = if landing + 1 == m { 0 } else { landing + 1 };
                let prey = if look + 1 == m { 0 } else { look + 1 };
                let (look_n, prey_n) = if n + 2 < m {
                    // Neither pit was sown (nor is the emptied origin).
                    (seeds[look], seeds[prey])
                } else {
                    (after(look), after(prey))
                };
                if look_n == 0 {
                    prey_n
                } else {
                    f[s][F::Relay as usize] += 1;
                    0
                }
            }
            _ if captured::<R>(c) => c,
            _ if relay_from_landing && c > 1 => {
                f[s][F::Relay as usize] += 1;
                0
            }
            _ => 0,
        };
        if take > 0 {
            f[s][F::CaptureMoves as usize] += 1;
            let best = &mut f[s][F::CaptureSeeds as usize];
            *best = (*best).max(take as i32);
        }
        let span = if n >= m { full } else { (1u32 << n) - 1 };
        // Rotate `span` to start at ring position r + 1, within m bits.
        let start = ((r + 1) % m) as u32;
        let rotated = ((span << start) | (span >> (m as u32 - start))) & full;
        fed[s] |= rotated;
    }
    for r in 0..m {
        let s = owner(r);
        let n = seeds[r];
        let vulnerable = if after_empty::<R>() {
            n > 0 && seeds[(r + m - 1) % m] == 0
        } else {
            n > 0 && captured::<R>(n + 1)
        };
        f[s][F::Vulnerable as usize] += vulnerable as i32;
        if n == 0 && fed[1 - s] >> r & 1 != 0 {
            f[s][F::FeedableEmpty as usize] += 1;
        }
    }
    f
}

#[cfg(test)]
mod tests {
    use super::*;
    use mancala_engine::{
        AlManqala, Bohnenspiel, BohnenspielHemprich, Bosh, BoshMatch, DjenonAbe, Status,
    };
    use Feature as F;

    use Side::{North, South};

    fn at<R: Rules>(text: &str) -> Features {
        Features::of(&text.parse::<Position<R>>().unwrap())
    }

    /// A seeded generator with `below(n)`: a number in `0..n`.
    struct Rng(rand::rngs::StdRng);

    impl Rng {
        fn new(seed: u64) -> Self {
            use rand::SeedableRng;
            Rng(rand::rngs::StdRng::seed_from_u64(seed))
        }

        fn below(&mut self, n: usize) -> usize {
            use rand::Rng as _;
            self.0.random_range(0..n)
        }
    }

    /// Plies after which a random game is cut short (relay games can
    /// cycle).
    const PLY_CAP: usize = 300;

    /// Every position of `games` games of seeded random play; in Bosh,
    /// whole matches, whose later rounds have closed pits.
    fn played<R: Rules>(games: usize, rng: &mut Rng) -> Vec<Position<R>> {
        let mut out = Vec::new();
        for _ in 0..games {
            let mut pos = Position::<R>::start();
            let mut round = BoshMatch::new();
            loop {
                out.push(pos);
                for _ in 0..PLY_CAP {
                    let moves = pos.legal_moves();
                    if moves.is_empty() {
                        break;
                    }
                    pos = pos.play(moves[rng.below(moves.len())]);
                    out.push(pos);
                }
                let Status::Over(pools) = pos.status() else {
                    break;
                };
                if !R::HAS_CLOSED_PITS {
                    break;
                }
                round.finish_round(pools);
                match round.start_round() {
                    Ok(next) => pos = Position::from_key(next.key()),
                    Err(_) => break,
                }
            }
        }
        out
    }

    /// Positions with the game's seeds scattered at random over pits and
    /// tallies, often heaped in one pit (laps round the board, up to every
    /// seed in one pit), either side to move; in Bosh, some pits closed.
    fn scattered<R: Rules>(count: usize, rng: &mut Rng) -> Vec<Position<R>> {
        (0..count)
            .map(|i| {
                let mut pits = [Some(0u8); 14];
                let pits = &mut pits[..R::PITS];
                if R::HAS_CLOSED_PITS && i % 2 == 1 {
                    for _ in 0..rng.below(R::PITS) {
                        pits[rng.below(R::PITS)] = None;
                    }
                }
                let open: Vec<usize> = (0..R::PITS).filter(|&p| pits[p].is_some()).collect();
                let heap = rng.below(R::PITS);
                let mut tallies = [0u8; 2];
                for _ in 0..R::TOTAL {
                    let p = match rng.below(4) {
                        0 => heap,
                        1 => {
                            tallies[rng.below(2)] += 1;
                            continue;
                        }
                        _ => rng.below(R::PITS),
                    };
                    match &mut pits[p] {
                        Some(n) => *n += 1,
                        None if open.is_empty() => tallies[0] += 1,
                        None => *pits[open[rng.below(open.len())]].as_mut().unwrap() += 1,
                    }
                }
                let side = Side::BOTH[i % 4 / 2];
                Position::from_parts(pits, side, tallies).unwrap()
            })
            .collect()
    }

    /// The counts by the plain ring walk alone: the open pits in sowing
    /// order, whatever is closed.
    fn reference<R: Rules>(pos: &Position<R>) -> [[i32; Feature::COUNT]; 2] {
        let open: Vec<usize> = (0..R::PITS).filter(|&i| !pos.is_closed(i)).collect();
        let mut seeds = [0usize; 14];
        for (s, &i) in seeds.iter_mut().zip(&open) {
            *s = pos.seeds(i) as usize;
        }
        count_on_ring(pos, &seeds, open.len(), |r| open[r])
    }

    /// Weights that tell every feature apart, and some negative ones.
    const WEIGHTS: [[i32; Feature::COUNT]; 2] = [
        [1, 10, 100, 1_000, 10_000, 100_000, 1_000_000, 10_000_000],
        [-37, 5, -211, 3, 89, -1_009, 17, -2],
    ];

    /// The table-driven counts ([`count_open`], behind [`Features::of`])
    /// agree feature by feature with the plain ring walk, and the
    /// evaluation's [`weighted_sum`] with the weighted [`Features::of`],
    /// on positions from seeded random play and on scattered ones.
    fn fast_paths_match_the_ring_walk<R: Rules>() {
        let mut rng = Rng::new(0x2545_f491_4f6c_dd1d ^ R::PITS as u64);
        let mut positions = played::<R>(100, &mut rng);
        positions.extend(scattered::<R>(2000, &mut rng));
        let closed = positions.iter().filter(|p| p.closed_mask() != 0).count();
        assert_eq!(
            closed > 1000,
            R::HAS_CLOSED_PITS,
            "{closed} closed positions"
        );
        for pos in &positions {
            let f = Features::of(pos);
            let expected = reference(pos);
            for side in Side::BOTH {
                for feature in Feature::ALL {
                    assert_eq!(
                        f.get(side, feature),
                        expected[side.index()][feature as usize],
                        "{feature:?} of {side} in {pos}"
                    );
                }
            }
            for w in &WEIGHTS {
                let sum: i32 = f.values.iter().zip(w).map(|(v, w)| v * w).sum();
                assert_eq!(weighted_sum(pos, w), sum, "{pos}");
            }
        }
    }

    #[test]
    fn fast_paths_match_the_ring_walk_in_every_game() {
        fast_paths_match_the_ring_walk::<Bohnenspiel>();
        fast_paths_match_the_ring_walk::<BohnenspielHemprich>();
        fast_paths_match_the_ring_walk::<AlManqala>();
        fast_paths_match_the_ring_walk::<Bosh>();
        fast_paths_match_the_ring_walk::<DjenonAbe>();
    }

    #[test]
    fn start_positions_are_symmetric() {
        let f = Features::of(&Position::<Bohnenspiel>::start());
        assert_eq!(f.values, [0; Feature::COUNT]);
        assert_eq!(f.get(Side::South, F::RowSeeds), 36);
        assert_eq!(f.get(Side::South, F::Mobility), 6);
        // Pit 6 (6 seeds) lands in pit 12, making 7: no capture from the start.
        assert_eq!(f.get(Side::South, F::CaptureMoves), 0);
    }

    /// Asserts each `(feature, value)` of `side` in `f`.
    fn expect(f: &Features, side: Side, expected: &[(F, i32)]) {
        for &(feature, value) in expected {
            assert_eq!(f.get(side, feature), value, "{feature:?} of {side:?}");
        }
    }

    #[test]
    fn banked_row_seeds_and_mobility() {
        // South: 1,0,3,0,0,5 = 9 seeds in 3 pits; North 9,9,9,9,9,1 = 46.
        let f = at::<Bohnenspiel>("bohnenspiel 1,0,3,0,0,5/9,9,9,9,9,1 N 10-7");
        expect(&f, South, &[(F::Banked, 10), (F::RowSeeds, 9)]);
        expect(&f, South, &[(F::Mobility, 3)]);
        expect(&f, North, &[(F::Banked, 7), (F::RowSeeds, 46)]);
        expect(&f, North, &[(F::Mobility, 6)]);
        // North to move: values are North minus South.
        assert_eq!(f.values[F::Banked as usize], -3);
        assert_eq!(f.values[F::RowSeeds as usize], 37);
    }

    #[test]
    fn bohnenspiel_captures_and_vulnerable_pits() {
        // South: pit 1 (1) lands in pit 2 (1 -> 2): capture 2.
        // Pit 3 (3) lands in pit 6 (5 -> 6): capture 6. Pit 2 (1) lands in
        // pit 3 (3 -> 4): capture 4. Pits 4, 5 empty; pit 6 (5) lands in
        // pit 11 (9 -> 10): none. So 3 capture moves, best 6.
        let f = at::<Bohnenspiel>("bohnenspiel 1,1,3,0,0,5/9,9,9,9,9,8 S 5-4");
        expect(&f, South, &[(F::CaptureMoves, 3), (F::CaptureSeeds, 6)]);
        // North: pit 12 (8) lands in pit 8 (9 -> 10): none; 7..11 (9)
        // land in pits 4..8 ... pit 7 (9) -> pit 4 (0 -> 1): none; pit 8
        // -> pit 5 (0 -> 1); pit 9 -> pit 6 (5 -> 6): capture 6; pit 10 ->
        // pit 7 (origin side: 9 -> 10); pit 11 -> pit 8 (9 -> 10).
        expect(&f, North, &[(F::CaptureMoves, 1), (F::CaptureSeeds, 6)]);
        // South's 1, 1, 3, 5 are one short of 2, 2, 4, 6; North has none.
        expect(&f, South, &[(F::Vulnerable, 4)]);
        expect(&f, North, &[(F::Vulnerable, 0)]);
        // South's empty pits 4 and 5 are sown into by North's long pits.
        expect(&f, South, &[(F::FeedableEmpty, 2)]);
        expect(&f, North, &[(F::FeedableEmpty, 0)]);
    }

    #[test]
    fn a_lap_round_the_board_counts_the_emptied_origin() {
        // North pit 7 holds 12: the lap ends in pit 7 itself, which gets 1.
        // Pit 8 holds 13: it ends in pit 9 (3 + 2 = 5), none. South's pit 1
        // holds 13: a full lap and one more seed, ending in pit 2 (1 + 2 =
        // 3), none.
        let f = at::<Bohnenspiel>("bohnenspiel 13,1,0,0,0,0/12,13,3,0,0,0 S 15-15");
        assert_eq!(f.get(North, F::CaptureMoves), 0);
        // Pit 9 (3) lands in pit 12 (0 -> 1): none.
        assert_eq!(f.get(South, F::CaptureMoves), 0);
    }

    #[test]
    fn two_four_games_do_not_capture_six() {
        // Al-manqala: South pit 1 (1) lands in pit 2 (5 -> 6): not captured;
        // pit 3 (1) lands in pit 4 (3 -> 4): captured.
        let f = at::<AlManqala>("al-manqala 1,5,1,3,0,0,0/7,7,7,7,7,7,7 S 20-19");
        expect(&f, South, &[(F::CaptureMoves, 1), (F::CaptureSeeds, 4)]);
        // 1, 1, 3 are one short of 2 or 4; 5 is not (6 is no capture).
        assert_eq!(f.get(South, F::Vulnerable), 3);
    }

    #[test]
    fn djenon_abe_relays_and_captures() {
        // South pit 1 (1) -> pit 2 (2 -> 3): relays. Pit 2 (2) -> pit 4
        // (1 -> 2): captures 2. Pit 3 (1) -> pit 4 (1 -> 2): captures 2.
        // Pit 4 (1) -> pit 5 (0 -> 1): ends.
        let f = at::<DjenonAbe>("djenon-abe 1,2,1,1,0,0/4,4,4,4,4,4 S 9-10");
        expect(&f, South, &[(F::Relay, 1), (F::CaptureMoves, 2)]);
        expect(&f, South, &[(F::CaptureSeeds, 2)]);
    }

    #[test]
    fn bosh_captures_after_an_empty_pit_and_relays() {
        // South pit 1 (1) -> pit 2; next pit 3 is empty: captures pit 4 (2).
        // Pit 2 (1) -> pit 3 (0 -> 1); next pit 4 holds 2: relay.
        // Pit 4 (2) -> pits 5, 6; next pit 7 holds 4: relay.
        let f = at::<Bosh>("bosh 1,1,0,2,0/4,4,4,4,4 S 11-5");
        expect(&f, South, &[(F::CaptureMoves, 1), (F::CaptureSeeds, 2)]);
        expect(&f, South, &[(F::Relay, 2)]);
        // Pit 4 (after empty pit 3) and pit 6 (after empty pit 5) sit
        // right after an empty pit.
        expect(&f, South, &[(F::Vulnerable, 1)]);
        expect(&f, North, &[(F::Vulnerable, 1)]);
    }

    #[test]
    fn bosh_closed_pits_are_skipped() {
        // Pits 6 and 7 closed: South pit 5 (2) sows pits 8 and 9; next pit
        // 10 holds 4: relay. Pit 4 (1) -> pit 5 (2 -> 3); next open pit 8
        // holds 4: relay.
        let f = at::<Bosh>("bosh 0,0,0,1,2/x,x,4,4,4 S 17-8");
        expect(&f, South, &[(F::Relay, 2), (F::Mobility, 2)]);
        // North pit 10 (4) sows 1, 2, 3, 4; next pit 5 holds 2: relay.
        assert_eq!(f.get(North, F::Mobility), 3);
        // South's empty pits 1, 2, 3 are all sown into by pit 10.
        assert_eq!(f.get(South, F::FeedableEmpty), 3);
    }
}
