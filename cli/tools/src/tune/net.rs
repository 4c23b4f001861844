//! Training the learned evaluation ([`mancala_eval::network`]): the
//! network in floating point, fitted by minibatch Adam to labelled
//! positions, then rounded to the integer network the engine runs.
//!
//! Hand-written rather than a training crate's: the network is one sparse
//! layer of at most 15 rows summed and one output, a few hundred lines
//! with its gradient, trained in seconds on one core; a general framework
//! (burn, candle, tch) would bring a large dependency tree, or a C++
//! library, for the same arithmetic, and the integer inference has to be
//! written by hand anyway.

use mancala_engine::search::{score::SCALE, Evaluate};
use mancala_engine::{with_rules, GameId, Position};
use mancala_eval::network::{active, Network, HIDDEN, INPUTS, MAX_ACTIVE, MAX_FIRST, Q1};
use mancala_eval::Evaluator;

use super::Labelled;
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};

/// Evaluates `$body` with the const `$H` set to the lanes a network of
/// `$size` units needs: 32 for a 32-unit network, else every one of
/// [`HIDDEN`] (the passes are generic over it so that a small network
/// does not pay for the lanes it leaves at zero).
macro_rules! with_lanes {
    ($size:expr, $H:ident => $body:expr) => {
        match $size {
            32 => {
                const $H: usize = 32;
                $body
            }
            _ => {
                const $H: usize = HIDDEN;
                $body
            }
        }
    };
}

/// One position as the network sees it, with its label.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Example {
    /// The inputs on ([`mancala_eval::network::active`]).
    pub inputs: [u16; MAX_ACTIVE],
    /// How many of `inputs` are set.
    pub len: u8,
    /// The margin the side to move adds to its banked one, in seeds.
    pub target: f32,
}

impl Example {
    fn active(&self) -> &[u16] {
        &self.inputs[..self.len as usize]
    }
}

/// The labelled positions of `game` as the network sees them: the label
/// less the margin already banked.
pub fn examples(game: GameId, samples: &[Labelled]) -> Vec<Example> {
    with_rules!(game, R => samples
        .iter()
        .map(|l| {
            let pos = Position::<R>::from_key(l.key);
            let (inputs, len) = active(&pos);
            Example {
                inputs,
                len: len as u8,
                target: (l.target - pos.banked_margin() as f64) as f32,
            }
        })
        .collect())
}

/// Mean squared error (seeds²) of an evaluation's static scores against
/// the labels of `game`'s positions (0 for none).
pub fn static_mse(game: GameId, eval: &Evaluator, samples: &[Labelled]) -> f64 {
    if samples.is_empty() {
        return 0.0;
    }
    with_rules!(game, R => samples
        .iter()
        .map(|l| {
            let score = eval.evaluate(&Position::<R>::from_key(l.key));
            (score as f64 / SCALE as f64 - l.target).powi(2)
        })
        .sum::<f64>())
        / samples.len() as f64
}

/// The network in floating point.
#[derive(Clone, Debug, PartialEq)]
pub struct FloatNet {
    /// A row of weights an input.
    pub w1: Vec<[f32; HIDDEN]>,
    /// Hidden biases.
    pub b1: [f32; HIDDEN],
    /// Output weights, seeds per fully-on unit.
    pub w2: [f32; HIDDEN],
    /// Output bias, seeds.
    pub b2: f32,
    /// Hidden units trained (one of [`SIZES`](mancala_eval::network::SIZES)): the lanes beyond are zero
    /// and stay so (a unit at zero has no gradient).
    pub hidden: usize,
}

/// How a network is trained.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Training {
    /// Passes over the training positions.
    pub epochs: u32,
    /// Positions a step.
    pub batch: usize,
    /// Adam's step size at the start (it falls linearly to a tenth).
    pub rate: f32,
    /// Seed of the initial weights and the order of the positions.
    pub seed: u64,
    /// Hidden units, one of [`SIZES`](mancala_eval::network::SIZES).
    pub hidden: usize,
}

impl Default for Training {
    fn default() -> Self {
        Training {
            epochs: 30,
            batch: 256,
            rate: 0.002,
            seed: 1,
            hidden: 32,
        }
    }
}

/// What a training run measured: the mean squared error (seeds²) on the
/// held-out positions after each epoch, and on the training positions at
/// the end.
#[derive(Clone, Debug, PartialEq)]
pub struct TrainReport {
    /// Held-out error after each epoch.
    pub test_mse: Vec<f64>,
    /// Training error at the end.
    pub train_mse: f64,
}

impl FloatNet {
    /// Small random weights for `hidden` units (half on at the start),
    /// zero beyond them.
    pub fn random(seed: u64, hidden: usize) -> FloatNet {
        let mut rng = rand::rngs::StdRng::seed_from_u64(seed);
        let mut uniform = |r: f32| rng.random_range(-r..r);
        let mut row = |r: f32| {
            let mut out = [0.0; HIDDEN];
            out[..hidden].iter_mut().for_each(|w| *w = uniform(r));
            out
        };
        let w1 = (0..INPUTS).map(|_| row(0.1)).collect();
        let w2 = row(1.0);
        let mut b1 = [0.0; HIDDEN];
        b1[..hidden].fill(0.5);
        FloatNet {
            w1,
            b1,
            w2,
            b2: 0.0,
            hidden,
        }
    }

    /// The sums of the first `H` hidden units before clipping (`H` is the
    /// network's size: the lanes beyond it are zero).
    fn hidden<const H: usize>(&self, inputs: &[u16]) -> [f32; H] {
        let mut z = *lanes::<H>(&self.b1);
        for &i in inputs {
            for (z, w) in z.iter_mut().zip(lanes::<H>(&self.w1[i as usize])) {
                *z += w;
            }
        }
        z
    }

    /// The output, seeds.
    pub fn forward(&self, inputs: &[u16]) -> f32 {
        with_lanes!(self.hidden, H => self.output(&self.hidden::<H>(inputs)))
    }

    /// The output of the hidden sums `z`, seeds.
    fn output<const H: usize>(&self, z: &[f32; H]) -> f32 {
        self.b2
            + z.iter()
                .zip(lanes::<H>(&self.w2))
                .map(|(z, w)| z.clamp(0.0, 1.0) * w)
                .sum::<f32>()
    }

    /// Mean squared error on `examples` (0 for none).
    pub fn mse(&self, examples: &[Example]) -> f64 {
        if examples.is_empty() {
            return 0.0;
        }
        examples
            .iter()
            .map(|e| (self.forward(e.active()) - e.target) as f64)
            .map(|d| d * d)
            .sum::<f64>()
            / examples.len() as f64
    }

    /// The integer network the engine runs.
    pub fn quantised(&self, game: GameId) -> Network {
        Network::quantised(game, self.hidden, &self.w1, &self.b1, &self.w2, self.b2)
    }
}

/// Adam's moments of one block of parameters.
struct Moments {
    m: Vec<f32>,
    v: Vec<f32>,
}

impl Moments {
    fn new(n: usize) -> Self {
        Moments {
            m: vec![0.0; n],
            v: vec![0.0; n],
        }
    }

    /// One Adam step of `params` along `grad` (which it then zeroes), in
    /// rows of `HIDDEN` of which only the first `used` are trained: the
    /// lanes beyond a smaller network's size are left as they are (zero).
    fn step(&mut self, params: &mut [f32], grad: &mut [f32], used: usize, rate: f32, t: i32) {
        const B1: f32 = 0.9;
        const B2: f32 = 0.999;
        let (c1, c2) = (1.0 - B1.powi(t), 1.0 - B2.powi(t));
        let width = HIDDEN.min(params.len());
        let rows = params
            .chunks_mut(width)
            .zip(grad.chunks_mut(width))
            .zip(self.m.chunks_mut(width))
            .zip(self.v.chunks_mut(width));
        for (((p, g), m), v) in rows {
            let used = used.min(p.len());
            for (((p, g), m), v) in p[..used]
                .iter_mut()
                .zip(&mut g[..used])
                .zip(&mut m[..used])
                .zip(&mut v[..used])
            {
                *m = B1 * *m + (1.0 - B1) * *g;
                *v = B2 * *v + (1.0 - B2) * *g * *g;
                *p -= rate * (*m / c1) / ((*v / c2).sqrt() + 1e-8);
                *g = 0.0;
            }
        }
    }
}

/// The first `H` lanes of a row.
fn lanes<const H: usize>(row: &[f32; HIDDEN]) -> &[f32; H] {
    row.first_chunk()
        .expect("a network has at most HIDDEN units")
}

/// The gradients of the mean squared error over a batch of `n` examples,
/// added to those of the first layer's rows, its biases, the output
/// weights and bias; `H` is the network's size.
fn gradients<'e, const H: usize>(
    net: &FloatNet,
    examples: impl Iterator<Item = &'e Example>,
    n: usize,
    (g1, gb1, g2, gb2): (&mut [f32], &mut [f32; HIDDEN], &mut [f32; HIDDEN], &mut f32),
) {
    let w2 = lanes::<H>(&net.w2);
    for e in examples {
        let z = net.hidden::<H>(e.active());
        let g = (net.output(&z) - e.target) / n as f32;
        *gb2 += g;
        let mut dz = [0.0f32; H];
        for j in 0..H {
            g2[j] += g * z[j].clamp(0.0, 1.0);
            if z[j] > 0.0 && z[j] < 1.0 {
                dz[j] = g * w2[j];
            }
        }
        for (b, d) in gb1.iter_mut().zip(&dz) {
            *b += d;
        }
        for &i in e.active() {
            let row = &mut g1[i as usize * HIDDEN..][..H];
            for (r, d) in row.iter_mut().zip(&dz) {
                *r += d;
            }
        }
    }
}

/// Trains a network from random weights on `train`, measuring it on
/// `test` after every epoch. The same inputs and seed give the same
/// network.
pub fn train(train: &[Example], test: &[Example], config: &Training) -> (FloatNet, TrainReport) {
    let mut net = FloatNet::random(config.seed, config.hidden);
    let mut rng = rand::rngs::StdRng::seed_from_u64(config.seed ^ 0x5eed);
    let mut order: Vec<usize> = (0..train.len()).collect();
    let (mut g1, mut gb1, mut g2, mut gb2) = (
        vec![0.0f32; INPUTS * HIDDEN],
        [0.0f32; HIDDEN],
        [0.0f32; HIDDEN],
        [0.0f32; 1],
    );
    let (mut m1, mut mb1, mut m2, mut mb2) = (
        Moments::new(INPUTS * HIDDEN),
        Moments::new(HIDDEN),
        Moments::new(HIDDEN),
        Moments::new(1),
    );
    let mut report = TrainReport {
        test_mse: Vec::new(),
        train_mse: 0.0,
    };
    let batch = config.batch.max(1);
    let steps = (config.epochs as usize * train.len().div_ceil(batch)).max(1);
    let mut t = 0;
    let h = net.hidden;
    for _ in 0..config.epochs {
        order.shuffle(&mut rng);
        for chunk in order.chunks(batch) {
            let examples = chunk.iter().map(|&k| &train[k]);
            let grads = (&mut g1[..], &mut gb1, &mut g2, &mut gb2[0]);
            with_lanes!(h, H => gradients::<H>(&net, examples, chunk.len(), grads));
            t += 1;
            let rate = config.rate * (1.0 - 0.9 * (t - 1) as f32 / steps as f32);
            m1.step(net.w1.as_flattened_mut(), &mut g1, h, rate, t);
            mb1.step(&mut net.b1, &mut gb1, h, rate, t);
            // The integer network's first layer holds no more than this.
            let max = MAX_FIRST as f32 / Q1 as f32;
            let rows = net.w1.iter_mut().chain([&mut net.b1]);
            for w in rows.flat_map(|row| &mut row[..h]) {
                *w = w.clamp(-max, max);
            }
            m2.step(&mut net.w2, &mut g2, h, rate, t);
            let mut b2 = [net.b2];
            mb2.step(&mut b2, &mut gb2, 1, rate, t);
            net.b2 = b2[0];
        }
        report.test_mse.push(net.mse(test));
    }
    report.train_mse = net.mse(train);
    (net, report)
}

#[cfg(test)]
mod tests {
    use super::*;
    use mancala_engine::search::score::SCALE;
    use mancala_engine::{Bohnenspiel, Position};
    use mancala_eval::network::active;

    /// Random Bohnenspiel positions (a random walk from the start) and a
    /// made-up label: the seeds in the mover's first two pits less those
    /// in the opponent's last one, capped.
    fn examples(n: usize, seed: u64) -> (Vec<Example>, Vec<Position<Bohnenspiel>>) {
        let mut rng = rand::rngs::StdRng::seed_from_u64(seed);
        let mut pos = Position::<Bohnenspiel>::start();
        let (mut out, mut positions) = (Vec::new(), Vec::new());
        while out.len() < n {
            let moves = pos.legal_moves();
            if moves.is_empty() {
                pos = Position::start();
                continue;
            }
            pos = pos.play(moves[rng.random_range(0..moves.len())]);
            let (inputs, len) = active(&pos);
            let first = |p: usize| {
                let own = if pos.side_to_move() == mancala_engine::Side::South {
                    0
                } else {
                    6
                };
                pos.seeds((own + p) % 12) as f32
            };
            let target = (first(0) + first(1) - first(11)).clamp(-6.0, 6.0);
            out.push(Example {
                inputs,
                len: len as u8,
                target,
            });
            positions.push(pos);
        }
        (out, positions)
    }

    /// Training learns the made-up label (the held-out error falls far
    /// below the label's variance), repeats exactly from its seed, and the
    /// integer network the engine runs computes what the trainer's does.
    #[test]
    fn training_learns_and_inference_matches_the_trainer() {
        for hidden in [32, 64] {
            learns_and_matches(hidden);
        }
    }

    fn learns_and_matches(hidden: usize) {
        let (train_set, _) = examples(6000, 1);
        let (test_set, positions) = examples(600, 2);
        let config = Training {
            epochs: 20,
            rate: 0.01,
            hidden,
            ..Training::default()
        };
        let (net, report) = train(&train_set, &test_set, &config);
        let mean = test_set.iter().map(|e| e.target as f64).sum::<f64>() / 600.0;
        let var = test_set
            .iter()
            .map(|e| (e.target as f64 - mean).powi(2))
            .sum::<f64>()
            / 600.0;
        let last = *report.test_mse.last().unwrap();
        assert!(last < var / 10.0, "held-out {last} against variance {var}");
        assert!(report.test_mse[0] > last, "{report:?}");
        assert_eq!(train(&train_set, &test_set, &config).0, net);
        // The units beyond the size asked for stay zero.
        assert!(net.w2[hidden..].iter().all(|&w| w == 0.0), "{hidden}");
        let quantised = net.quantised(GameId::Bohnenspiel);
        assert_eq!(quantised.hidden, hidden);
        let mut worst = 0.0f64;
        for (e, pos) in test_set.iter().zip(&positions) {
            let float = net.forward(e.active()) as f64;
            let int = quantised.future_margin(pos) as f64 / SCALE as f64;
            worst = worst.max((float - int).abs());
        }
        assert!(worst < 0.15, "the integer network is {worst} seeds off");
        assert_eq!(positions.len(), 600);
    }
}
