//! A learned evaluation: a small network fitted to exact values (the
//! endgame tables) and deeper searches' scores, run in integers.
//!
//! The network sees the board from the side to move: each pit, its own row
//! first, as one of [`BUCKETS`] seed counts, and the seeds on the board in
//! [`SEED_BUCKETS`] steps of four. Every such (pit, count) pair is an input
//! that is on or off, so the first layer is a sum of one weight row per
//! pit (as in NNUE, without the incremental update: a board has at most 15
//! inputs on). 32 or 64 ([`SIZES`]) clipped-ReLU units feed one output: the margin
//! the side to move will still add to what it has banked, in seeds. The
//! evaluation is that plus the banked margin.
//!
//! Weights are integers: the first layer's in 1/[`Q1`] of a unit, the
//! output's in 1/[`Q2`] of a seed; `mancala tune --model network` trains
//! them in floating point and rounds them ([`Network::quantised`]).
//!
//! The file format is text: a header (`mancala-network 1`, the game, the
//! sizes), the numbers, and an FNV-1a checksum of everything before it, so
//! that a damaged or truncated file is refused.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::sync::{Arc, OnceLock};

use mancala_engine::files::fnv1a;
use mancala_engine::search::score::SCALE;
use mancala_engine::{GameId, Position, Rules, Side};

/// Seed counts a pit is told apart by: 0 to 15 each, then 16–19, 20–23,
/// 24–27 and 28 or more.
pub const BUCKETS: usize = 20;
/// The most pits a board has (Al-manqala's 2×7).
pub const MAX_PITS: usize = 14;
/// Board-seed inputs: 0–3, 4–7, …, 72 or more.
pub const SEED_BUCKETS: usize = 19;
/// Inputs: a (pit, count) pair each, then the board's seeds.
pub const INPUTS: usize = MAX_PITS * BUCKETS + SEED_BUCKETS;
/// The most hidden units a network has: the width of its rows in memory
/// (a smaller network's rows are padded with zeros, which add nothing).
pub const HIDDEN: usize = 64;
/// The hidden sizes a network may have.
pub const SIZES: [usize; 2] = [32, 64];
/// The first layer's unit: a hidden unit is on fully at `Q1`.
pub const Q1: i32 = 256;
/// The output weights' unit, a seed.
pub const Q2: i32 = 64;
/// The most inputs on at once (one a pit, one for the seeds).
pub const MAX_ACTIVE: usize = MAX_PITS + 1;
/// The largest first-layer weight or bias, in 1/[`Q1`]: a bias and
/// [`MAX_ACTIVE`] rows sum to within `i16` (8 units in floating point).
pub const MAX_FIRST: i16 = (i16::MAX as usize / (MAX_ACTIVE + 1)) as i16;

/// The bucket of a pit holding `seeds`.
#[inline]
pub const fn bucket(seeds: u8) -> usize {
    BUCKET_OF[seeds as usize] as usize
}

/// [`bucket`] of every count, looked up rather than branched on.
const BUCKET_OF: [u8; 256] = {
    let mut table = [0u8; 256];
    let mut s = 0;
    while s < 256 {
        table[s] = if s < 16 {
            s
        } else if s < 28 {
            16 + (s - 16) / 4
        } else {
            BUCKETS - 1
        } as u8;
        s += 1;
    }
    table
};

/// The bucket that marks a closed pit in the games that close pits
/// (Bosh): the last, whose counts from 24 share the bucket before it
/// there (40 stones make a pit of 24 or more rare, and of 28 rarer).
pub const CLOSED: usize = BUCKETS - 1;

/// [`bucket`] in the games that close pits: counts of 24 or more share
/// bucket 18, and a closed pit (it holds no stones) is [`CLOSED`].
#[inline]
const fn bucket_or_closed(seeds: u8, closed: bool) -> usize {
    if closed {
        CLOSED
    } else {
        let b = bucket(seeds);
        if b < CLOSED {
            b
        } else {
            CLOSED - 1
        }
    }
}

/// The inputs on for `pos`, from the side to move's view: its own pits
/// (in sowing order from its first pit), then the opponent's, then the
/// board's seeds. Returns the array and how many of it are set.
#[inline]
pub fn active<R: Rules>(pos: &Position<R>) -> ([u16; MAX_ACTIVE], usize) {
    let mut out = [0u16; MAX_ACTIVE];
    let side = R::SIDE_PITS;
    let own = match pos.side_to_move() {
        Side::South => 0,
        Side::North => side,
    };
    let theirs = side - own;
    let seeds = pos.pit_array();
    // The branch is on a constant: games without closed pits read the
    // plain bucket.
    let input = |slot: usize, pit: usize| {
        let b = if R::HAS_CLOSED_PITS {
            bucket_or_closed(seeds[pit], pos.is_closed(pit))
        } else {
            bucket(seeds[pit])
        };
        (slot * BUCKETS + b) as u16
    };
    for j in 0..side {
        out[j] = input(j, own + j);
        out[side + j] = input(side + j, theirs + j);
    }
    let seeds = (pos.board_seeds() as usize / 4).min(SEED_BUCKETS - 1);
    out[2 * side] = (MAX_PITS * BUCKETS + seeds) as u16;
    (out, 2 * side + 1)
}

/// `acc += row`, lane by lane, in a form the compiler turns into a few
/// vector additions.
#[inline(always)]
fn add_row<const H: usize>(acc: &mut [i16; H], row: &[i16; H]) {
    for (a, r) in acc.chunks_exact_mut(8).zip(row.chunks_exact(8)) {
        for k in 0..8 {
            a[k] = a[k].wrapping_add(r[k]);
        }
    }
}

/// A network's weights, in integers.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Network {
    /// The game it was trained for.
    pub game: GameId,
    /// Hidden units: one of [`SIZES`]; the lanes beyond are zero.
    pub hidden: usize,
    /// First layer: a row of [`HIDDEN`] weights an input, in 1/[`Q1`].
    pub w1: Vec<[i16; HIDDEN]>,
    /// First layer biases, in 1/[`Q1`].
    pub b1: [i16; HIDDEN],
    /// Output weights, in 1/[`Q2`] of a seed per fully-on unit.
    pub w2: [i16; HIDDEN],
    /// Output bias, in 1/([`Q1`]·[`Q2`]) of a seed.
    pub b2: i32,
}

/// Why a network file was refused.
#[derive(Debug, thiserror::Error)]
pub enum NetworkError {
    /// The file could not be read or written.
    #[error("{path}: {source}")]
    Io {
        /// The file.
        path: PathBuf,
        /// What went wrong.
        source: std::io::Error,
    },
    /// The text is not a network of this format.
    #[error("not a network file: {0}")]
    Format(String),
    /// The checksum does not match: the file was changed or cut.
    #[error("the network file is damaged (checksum {found:016x}, expected {expected:016x})")]
    Checksum {
        /// The checksum the file states.
        expected: u64,
        /// The checksum of its contents.
        found: u64,
    },
}

const MAGIC: &str = "mancala-network 1";

/// Whether `text` is meant as a network file (its first word says so).
pub fn is_network_text(text: &str) -> bool {
    text.starts_with("mancala-network")
}

/// The networks shipped in the crate (`eval/networks/`, each made by the
/// command in `docs/strength.md`), one a game at most.
pub fn shipped() -> &'static [Arc<Network>] {
    const FILES: [&str; 7] = [
        include_str!("../networks/bohnenspiel.txt"),
        include_str!("../networks/bohnenspiel-hemprich.txt"),
        include_str!("../networks/al-manqala.txt"),
        include_str!("../networks/djenon-abe.txt"),
        include_str!("../networks/kalah.txt"),
        include_str!("../networks/kalah-empty.txt"),
        include_str!("../networks/oware.txt"),
    ];
    static SHIPPED: OnceLock<Vec<Arc<Network>>> = OnceLock::new();
    SHIPPED.get_or_init(|| {
        FILES
            .iter()
            .map(|text| Arc::new(Network::from_text(text).expect("the shipped networks load")))
            .collect()
    })
}

impl Network {
    /// The margin the side to move will add to its banked one, in the
    /// search's unit ([`SCALE`] a seed).
    #[inline]
    pub fn future_margin<R: Rules>(&self, pos: &Position<R>) -> i32 {
        if self.hidden <= SIZES[0] {
            self.margin_of::<{ SIZES[0] }, R>(pos)
        } else {
            self.margin_of::<HIDDEN, R>(pos)
        }
    }

    /// [`future_margin`](Self::future_margin) of the first `H` units (the
    /// others being zero), `H` a constant so that the sums are unrolled.
    #[inline(always)]
    fn margin_of<const H: usize, R: Rules>(&self, pos: &Position<R>) -> i32 {
        const { assert!(H <= HIDDEN) };
        static ZERO: [i16; HIDDEN] = [0; HIDDEN];
        fn first<const H: usize>(row: &[i16; HIDDEN]) -> &[i16; H] {
            row.first_chunk().expect("H <= HIDDEN")
        }
        let (inputs, n) = active(pos);
        // In 16 bits, which the compiler adds 8 or 16 lanes at a time: the
        // first layer's weights and biases are at most [`MAX_FIRST`], so
        // a bias and 15 rows cannot overflow.
        let mut acc: [i16; H] = *first(&self.b1);
        for &i in &inputs[..n] {
            add_row(&mut acc, first(self.w1.get(i as usize).unwrap_or(&ZERO)));
        }
        // Clipped in 16 bits, then products of 16-bit numbers summed in
        // 32 (one `pmaddwd` for eight units on x86).
        let out = acc
            .iter()
            .zip(first::<H>(&self.w2))
            .map(|(&a, &w)| a.clamp(0, Q1 as i16) as i32 * w as i32)
            .fold(self.b2, |sum, x| sum + x);
        // From 1/(Q1·Q2) of a seed to 1/SCALE, rounded to nearest.
        const DIV: i32 = Q1 * Q2 / SCALE;
        (out + DIV / 2).div_euclid(DIV)
    }

    /// The evaluation: the banked margin plus the network's future one,
    /// bounded to the seeds there are.
    #[inline]
    pub fn evaluate<R: Rules>(&self, pos: &Position<R>) -> i32 {
        let seeds = pos.board_seeds() as i32 * SCALE;
        pos.banked_margin() * SCALE + self.future_margin(pos).clamp(-seeds, seeds)
    }

    /// The network of float weights, rounded: `w1` a row an input, biases
    /// `b1`, output weights `w2` (seeds per unit) and bias `b2` (seeds), of
    /// which the first `hidden` units count (one of [`SIZES`]; the others
    /// are set to zero). Weights beyond the integers' range are clamped
    /// (the first layer's to ±[`MAX_FIRST`]).
    pub fn quantised(
        game: GameId,
        hidden: usize,
        w1: &[[f32; HIDDEN]],
        b1: &[f32; HIDDEN],
        w2: &[f32; HIDDEN],
        b2: f32,
    ) -> Network {
        assert_eq!(w1.len(), INPUTS, "a row for every input");
        assert!(SIZES.contains(&hidden), "a hidden size of {SIZES:?}");
        let q = |xs: &[f32; HIDDEN], unit: i32, max: i16| {
            let mut out = [0; HIDDEN];
            for (o, x) in out.iter_mut().zip(xs).take(hidden) {
                *o = (x * unit as f32).round().clamp(-max as f32, max as f32) as i16;
            }
            out
        };
        Network {
            game,
            hidden,
            w1: w1.iter().map(|row| q(row, Q1, MAX_FIRST)).collect(),
            b1: q(b1, Q1, MAX_FIRST),
            w2: q(w2, Q2, i16::MAX),
            b2: (b2 as f64 * (Q1 * Q2) as f64).round() as i32,
        }
    }

    /// The network as text, checksum included.
    pub fn to_text(&self) -> String {
        let mut s = String::new();
        let line = |s: &mut String, xs: &[i16]| {
            let words: Vec<String> = xs[..self.hidden].iter().map(i16::to_string).collect();
            s.push_str(&words.join(" "));
            s.push('\n');
        };
        let _ = writeln!(
            s,
            "{MAGIC}\ngame {}\ninputs {INPUTS} hidden {} q1 {Q1} q2 {Q2}",
            self.game.name(),
            self.hidden
        );
        for row in &self.w1 {
            line(&mut s, row);
        }
        line(&mut s, &self.b1);
        line(&mut s, &self.w2);
        let _ = writeln!(s, "{}", self.b2);
        let sum = fnv1a(s.as_bytes());
        let _ = writeln!(s, "checksum {sum:016x}");
        s
    }

    /// Reads the text of [`to_text`](Self::to_text).
    pub fn from_text(text: &str) -> Result<Network, NetworkError> {
        let bad = |what: &str| NetworkError::Format(what.to_string());
        let body_end = text
            .trim_end()
            .rfind('\n')
            .map(|i| i + 1)
            .ok_or_else(|| bad("too short"))?;
        let (body, last) = text.split_at(body_end);
        let expected = last
            .trim()
            .strip_prefix("checksum ")
            .and_then(|h| u64::from_str_radix(h, 16).ok())
            .ok_or_else(|| bad("no checksum line at the end"))?;
        let found = fnv1a(body.as_bytes());
        if found != expected {
            return Err(NetworkError::Checksum { expected, found });
        }
        let mut lines = body.lines();
        if lines.next() != Some(MAGIC) {
            return Err(bad(&format!("the first line is not `{MAGIC}`")));
        }
        let game: GameId = lines
            .next()
            .and_then(|l| l.strip_prefix("game "))
            .and_then(|g| g.parse().ok())
            .ok_or_else(|| bad("no known game on the second line"))?;
        let sizes_line = lines.next();
        let hidden = SIZES
            .into_iter()
            .find(|h| sizes_line == Some(&format!("inputs {INPUTS} hidden {h} q1 {Q1} q2 {Q2}")))
            .ok_or_else(|| {
                bad(&format!(
                    "the sizes are not `inputs {INPUTS} hidden H q1 {Q1} q2 {Q2}`, H one of {SIZES:?}"
                ))
            })?;
        let row = |line: Option<&str>| -> Result<[i16; HIDDEN], NetworkError> {
            let numbers: Vec<i16> = line
                .ok_or_else(|| bad("too few lines"))?
                .split(' ')
                .map(|w| w.parse().map_err(|_| bad(&format!("not a weight: {w:?}"))))
                .collect::<Result<_, _>>()?;
            if numbers.len() != hidden {
                return Err(bad(&format!("a line without {hidden} weights")));
            }
            let mut out = [0; HIDDEN];
            out[..hidden].copy_from_slice(&numbers);
            Ok(out)
        };
        let w1 = (0..INPUTS)
            .map(|_| row(lines.next()))
            .collect::<Result<Vec<_>, _>>()?;
        let b1 = row(lines.next())?;
        if w1
            .iter()
            .chain([&b1])
            .flatten()
            .any(|w| w.abs() > MAX_FIRST)
        {
            return Err(bad(&format!("a first-layer weight beyond ±{MAX_FIRST}")));
        }
        let w2 = row(lines.next())?;
        let b2 = lines
            .next()
            .and_then(|l| l.parse().ok())
            .ok_or_else(|| bad("no output bias"))?;
        if lines.next().is_some() {
            return Err(bad("lines after the output bias"));
        }
        Ok(Network {
            game,
            hidden,
            w1,
            b1,
            w2,
            b2,
        })
    }

    /// Loads a network file.
    pub fn load(path: &Path) -> Result<Network, NetworkError> {
        let text = mancala_engine::files::read_text(path).map_err(|source| NetworkError::Io {
            path: path.to_path_buf(),
            source,
        })?;
        Self::from_text(&text)
    }

    /// Saves the network (atomically).
    pub fn save(&self, path: &Path) -> Result<(), NetworkError> {
        mancala_engine::files::write_file(path, self.to_text()).map_err(|source| NetworkError::Io {
            path: path.to_path_buf(),
            source,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use mancala_engine::{AlManqala, Bohnenspiel};

    fn sample(game: GameId) -> Network {
        let mut x = 7u64;
        let mut next = || {
            x = x
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            ((x >> 40) as i32 % 600 - 300) as i16
        };
        Network {
            game,
            hidden: HIDDEN,
            w1: (0..INPUTS)
                .map(|_| [0; HIDDEN].map(|_: i16| next()))
                .collect(),
            b1: [0; HIDDEN].map(|_: i16| next()),
            w2: [0; HIDDEN].map(|_: i16| next()),
            b2: -12345,
        }
    }

    #[test]
    fn buckets_cover_every_count_in_order() {
        let all: Vec<usize> = (0..=255u8).map(bucket).collect();
        assert!(all.windows(2).all(|w| w[0] <= w[1]));
        assert_eq!(
            (all[0], all[15], all[16], all[19], all[20]),
            (0, 15, 16, 16, 17)
        );
        assert_eq!((all[27], all[28], all[255]), (18, 19, BUCKETS - 1));
    }

    /// In Bosh a closed pit has an input of its own, not that of an empty
    /// pit, and counts of 24 or more share the bucket before it.
    #[test]
    fn closed_pits_are_told_from_empty_ones() {
        use mancala_engine::Bosh;
        let closed: Position<Bosh> = "bosh 4,4,4,4,4/x,4,4,4,4 N 3-1".parse().unwrap();
        let (inputs, n) = active(&closed);
        assert_eq!(n, 11);
        // North moves: its own pits come first, pit 6 (closed) the first.
        assert_eq!(inputs[0] as usize, CLOSED);
        assert_eq!(inputs[5] as usize, 5 * BUCKETS + 4);
        let empty: Position<Bosh> = "bosh 4,4,4,4,4/0,4,4,4,4 N 3-1".parse().unwrap();
        assert_eq!(active(&empty).0[0] as usize, 0);
        let full: Position<Bosh> = "bosh 4,4,4,4,0/24,0,0,0,0 N 0-0".parse().unwrap();
        assert_eq!(active(&full).0[0] as usize, CLOSED - 1);
        assert_eq!(bucket_or_closed(23, false), bucket(23));
    }

    /// The inputs are the board seen from the mover: the same position
    /// with the rows, tallies and mover swapped has the same inputs.
    #[test]
    fn inputs_are_the_movers_view() {
        let a: Position<Bohnenspiel> = "bohnenspiel 1,2,3,4,5,6/7,8,9,10,11,0 S 4-2"
            .parse()
            .unwrap();
        let b: Position<Bohnenspiel> = "bohnenspiel 7,8,9,10,11,0/1,2,3,4,5,6 N 2-4"
            .parse()
            .unwrap();
        assert_eq!(active(&a), active(&b));
        let (inputs, n) = active(&a);
        assert_eq!(n, 13);
        assert_eq!(inputs[0] as usize, bucket(1));
        assert_eq!(inputs[6] as usize, 6 * BUCKETS + bucket(7));
        assert_eq!(inputs[12] as usize, MAX_PITS * BUCKETS + 66 / 4);
        let net = sample(GameId::Bohnenspiel);
        assert_eq!(net.evaluate(&a), net.evaluate(&b));
        let (_, n) = active(&Position::<AlManqala>::start());
        assert_eq!(n, 15);
    }

    #[test]
    fn text_round_trips_and_damage_is_refused() {
        let net = sample(GameId::AlManqala);
        let text = net.to_text();
        assert_eq!(Network::from_text(&text).unwrap(), net);
        // One digit changed: the checksum catches it.
        let i = text.find("\n1").unwrap() + 1;
        let mut changed = text.clone();
        changed.replace_range(i..i + 1, "2");
        assert!(matches!(
            Network::from_text(&changed),
            Err(NetworkError::Checksum { .. })
        ));
        // Cut short, or empty.
        assert!(Network::from_text(&text[..text.len() / 2]).is_err());
        assert!(Network::from_text("").is_err());
        // Through a file.
        let path = std::env::temp_dir().join(format!("mancala-network-{}.txt", std::process::id()));
        net.save(&path).unwrap();
        assert_eq!(Network::load(&path).unwrap(), net);
        std::fs::remove_file(&path).unwrap();
    }

    /// A 32-unit network is a 64-unit one whose last 32 units are zero:
    /// its file has 32 weights a line, it reads back as itself, and it
    /// evaluates as the 64-unit path does on the same weights. A size
    /// other than 32 or 64 is refused.
    #[test]
    fn both_sizes_read_back_and_the_small_one_is_the_big_one_padded() {
        let mut small = sample(GameId::Bohnenspiel);
        small.hidden = 32;
        for row in small.w1.iter_mut().chain([&mut small.b1, &mut small.w2]) {
            row[32..].fill(0);
        }
        let text = small.to_text();
        assert!(text.contains("hidden 32"), "{text:.80}");
        assert_eq!(text.lines().nth(3).unwrap().split(' ').count(), 32);
        assert_eq!(Network::from_text(&text).unwrap(), small);
        let big = Network {
            hidden: 64,
            ..small.clone()
        };
        assert_eq!(big.to_text().lines().nth(3).unwrap().split(' ').count(), 64);
        let mut pos = Position::<Bohnenspiel>::start();
        let mut compared = 0;
        while !pos.legal_moves().is_empty() {
            assert_eq!(small.future_margin(&pos), big.future_margin(&pos), "{pos}");
            compared += 1;
            let moves = pos.legal_moves();
            pos = pos.play(moves[compared % moves.len()]);
        }
        assert!(compared > 10, "{compared} positions compared");
        let odd = text.replacen("hidden 32", "hidden 48", 1);
        let body = &odd[..odd.rfind("checksum").unwrap()];
        let odd = format!("{body}checksum {:016x}\n", fnv1a(body.as_bytes()));
        let err = Network::from_text(&odd).unwrap_err().to_string();
        assert!(err.contains("hidden H"), "{err}");
    }

    /// Rounding float weights gives the integer network the float one
    /// describes: on whole-unit weights the output is exact.
    #[test]
    fn quantised_weights_compute_the_float_network() {
        let mut w1 = vec![[0.0f32; HIDDEN]; INPUTS];
        let pos = Position::<Bohnenspiel>::start();
        let (inputs, n) = active(&pos);
        for &i in &inputs[..n] {
            w1[i as usize][0] = 0.0625;
            w1[i as usize][1] = -0.5;
        }
        let (mut b1, mut w2) = ([0.0f32; HIDDEN], [0.0f32; HIDDEN]);
        b1[1] = 0.25;
        w2[0] = 2.0;
        w2[1] = 100.0;
        let net = Network::quantised(GameId::Bohnenspiel, 32, &w1, &b1, &w2, -0.5);
        // Unit 0: 13 inputs × 0.0625 = 0.8125, times 2 seeds; unit 1 is
        // off; the bias −0.5: 1.125 seeds = 18 sixteenths.
        assert_eq!(net.future_margin(&pos), 18);
    }
}
