//! Evaluation functions for the mancala search: per game, the banked
//! difference plus features a mancala player would name, weighted by a
//! [`WeightSet`] that loads from and saves to JSON. A game may have a second
//! set of weights for the endgame, blended in as the seeds on the board
//! run out ([`GameWeights`]). The default weights ship in the crate
//! (`eval/weights/default.json`). A game may instead be evaluated by a
//! small learned network ([`network`]), trained on exact values; the
//! shipped evaluation ([`Evaluator::default`]) uses the networks that ship
//! in `eval/networks/`.
//!
//! ```
//! use mancala_engine::search::Evaluate;
//! use mancala_engine::{Bohnenspiel, Position};
//! use mancala_eval::Evaluator;
//! let eval = Evaluator::linear();
//! // The start position is symmetric: every feature difference is 0.
//! assert_eq!(eval.evaluate(&Position::<Bohnenspiel>::start()), 0);
//! ```

mod features;
mod laps;
pub mod network;
mod weights;

pub use network::{Network, NetworkError};

pub use features::{Feature, Features, Weights};
pub use weights::{
    Endgame, GameWeights, GameWeightsError, WeightError, WeightSet, MAX_SEEDS, MAX_WEIGHT,
};

use mancala_engine::search::score::SCALE;
use mancala_engine::search::Evaluate;
use mancala_engine::{GameId, Position, Rules};

/// The evaluation: features of [`Features::of`] times the weights of the
/// position's game, in the search's unit.
#[derive(Clone, Debug, PartialEq)]
pub struct Evaluator {
    weights: WeightSet,
    /// Per game (in [`GameId::ALL`] order), a learned network that
    /// replaces the weights, if one is given.
    networks: [Option<std::sync::Arc<Network>>; GameId::ALL.len()],
    /// Per game (in [`GameId::ALL`] order), the weights times [`SCALE`],
    /// rounded.
    scaled: [Scaled; GameId::ALL.len()],
}

/// One game's weights in the search's unit.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Scaled {
    opening: [i32; Feature::COUNT],
    /// The endgame weights and the blend's range of board seeds.
    endgame: Option<([i32; Feature::COUNT], i32, i32)>,
}

fn scale(w: &Weights) -> [i32; Feature::COUNT] {
    w.as_array().map(|w| (w * SCALE as f64).round() as i32)
}

/// The shipped evaluation: the learned network of each game that has one
/// (`eval/networks/`), the shipped linear weights for the others.
impl Default for Evaluator {
    fn default() -> Self {
        network::shipped()
            .iter()
            .fold(Self::linear(), |e, n| e.with_shared_network(n.clone()))
    }
}

/// Why an evaluation file was refused.
#[derive(Debug, thiserror::Error)]
pub enum EvalFileError {
    /// The file could not be read.
    #[error("{path}: {source}")]
    Io {
        /// The file.
        path: std::path::PathBuf,
        /// What went wrong.
        source: std::io::Error,
    },
    /// A weights file that does not load.
    #[error(transparent)]
    Weights(#[from] WeightError),
    /// A network file that does not load.
    #[error(transparent)]
    Network(#[from] NetworkError),
}

impl Evaluator {
    /// The shipped linear weights for every game, no network.
    pub fn linear() -> Self {
        Self::new(WeightSet::default())
    }

    /// The evaluation an evaluation file describes: a weights file (JSON)
    /// is those linear weights for every game; a network file is that
    /// network for its game and the shipped weights for the others.
    pub fn load(path: &std::path::Path) -> Result<Self, EvalFileError> {
        let text = mancala_engine::files::read_text(path).map_err(|source| EvalFileError::Io {
            path: path.to_path_buf(),
            source,
        })?;
        Ok(if network::is_network_text(&text) {
            Self::linear().with_network(Network::from_text(&text)?)
        } else {
            Self::new(WeightSet::from_json(&text)?)
        })
    }

    /// An evaluator with these weights (and no network).
    pub fn new(weights: WeightSet) -> Self {
        let scaled = GameId::ALL.map(|game| {
            let w = weights.for_game(game);
            Scaled {
                opening: scale(&w.opening),
                endgame: w.endgame.map(|e| {
                    (
                        scale(&e.weights),
                        e.endgame_seeds as i32,
                        e.opening_seeds as i32,
                    )
                }),
            }
        });
        Evaluator {
            weights,
            scaled,
            networks: Default::default(),
        }
    }

    /// This evaluator with `network` evaluating the positions of its game
    /// (instead of the weights).
    pub fn with_network(self, network: Network) -> Self {
        self.with_shared_network(std::sync::Arc::new(network))
    }

    /// [`with_network`](Self::with_network), the network shared.
    pub fn with_shared_network(mut self, network: std::sync::Arc<Network>) -> Self {
        let i = network.game.index();
        self.networks[i] = Some(network);
        self
    }

    /// The network evaluating `game`, if any.
    pub fn network(&self, game: GameId) -> Option<&Network> {
        self.networks[game.index()].as_deref()
    }

    /// The weights in use.
    pub fn weights(&self) -> &WeightSet {
        &self.weights
    }
}

impl<R: Rules> Evaluate<R> for Evaluator {
    #[inline]
    fn evaluate(&self, pos: &Position<R>) -> i32 {
        let game = R::ID.index();
        if let Some(network) = &self.networks[game] {
            return network.evaluate(pos);
        }
        let w = &self.scaled[game];
        let Some((endgame, lo, hi)) = &w.endgame else {
            return features::weighted_sum(pos, &w.opening);
        };
        // The blend of [`GameWeights::opening_share`], in integers: the
        // truncation is towards 0, the same for either side to move.
        let seeds = pos.board_seeds() as i32;
        if seeds >= *hi {
            features::weighted_sum(pos, &w.opening)
        } else if seeds <= *lo {
            features::weighted_sum(pos, endgame)
        } else {
            let (a, b) = features::weighted_sums(pos, &w.opening, endgame);
            (a * (seeds - lo) + b * (hi - seeds)) / (hi - lo)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use mancala_engine::{Bohnenspiel, Move};

    fn blended(lo: u32, hi: u32) -> (Evaluator, Evaluator, Evaluator) {
        let plain = WeightSet::default();
        let opening = plain.for_game(GameId::Bohnenspiel).opening;
        let mut endgame = opening;
        endgame.mobility = -3.0;
        endgame.row_seeds = 2.5;
        endgame.banked = 0.5;
        let mut set = plain.clone();
        set.for_game_mut(GameId::Bohnenspiel).endgame = Some(Endgame {
            weights: endgame,
            endgame_seeds: lo,
            opening_seeds: hi,
        });
        let mut only_endgame = plain.clone();
        *only_endgame.for_game_mut(GameId::Bohnenspiel) = GameWeights::plain(endgame);
        (
            Evaluator::new(plain),
            Evaluator::new(only_endgame),
            Evaluator::new(set),
        )
    }

    /// The board turned round: the rows, the tallies and the side to move
    /// swapped (pit `i` becomes pit `i + 6`).
    fn mirrored(pos: &Position<Bohnenspiel>) -> Position<Bohnenspiel> {
        let text = pos.to_string();
        let [game, rows, side, tallies] = text.split(' ').collect::<Vec<_>>()[..] else {
            panic!("{text}")
        };
        let (south, north) = rows.split_once('/').unwrap();
        let (s, n) = tallies.split_once('-').unwrap();
        let side = if side == "S" { "N" } else { "S" };
        format!("{game} {north}/{south} {side} {n}-{s}")
            .parse()
            .unwrap()
    }

    /// The blended evaluation is the opening one from `opening_seeds` up,
    /// the endgame one at `endgame_seeds` and below, and the linear blend
    /// (truncated towards 0) between; both sides get the same value of a
    /// mirrored board.
    /// The shipped evaluation is the networks of Bohnenspiel, its
    /// Hemprich variant, Al-manqala, Djenon-abe, Kalah (both capture
    /// rules) and Oware, and the linear weights for Bosh; an evaluation
    /// file is read as what its text is (a network or a weight set), and a
    /// damaged one is refused.
    #[test]
    fn shipped_networks_and_evaluation_files() {
        use mancala_engine::{AlManqala, Bosh};
        let shipped = Evaluator::default();
        let net = shipped.network(GameId::Bohnenspiel).expect("shipped");
        let start = Position::<Bohnenspiel>::start();
        assert_eq!(shipped.evaluate(&start), net.evaluate(&start));
        let al = Position::<AlManqala>::start().play(Move::from_pit(3));
        let al_net = shipped.network(GameId::AlManqala).expect("shipped");
        assert_eq!(shipped.evaluate(&al), al_net.evaluate(&al));
        assert!(shipped.network(GameId::BohnenspielHemprich).is_some());
        assert!(shipped.network(GameId::DjenonAbe).is_some());
        assert!(shipped.network(GameId::Kalah).is_some());
        assert!(shipped.network(GameId::Oware).is_some());
        assert!(shipped.network(GameId::KalahEmpty).is_some());
        assert!(shipped.network(GameId::Bosh).is_none());
        let bosh = Position::<Bosh>::start().play(Move::from_pit(2));
        assert_eq!(shipped.evaluate(&bosh), Evaluator::linear().evaluate(&bosh));
        let dir = std::env::temp_dir().join(format!("mancala-evalfile-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let (net_file, weights_file) = (dir.join("net.txt"), dir.join("w.json"));
        net.save(&net_file).unwrap();
        WeightSet::default().save(&weights_file).unwrap();
        // A network file is its game's network, the linear weights
        // elsewhere (Al-manqala too).
        let loaded = Evaluator::load(&net_file).unwrap();
        assert_eq!(loaded, Evaluator::linear().with_network(net.clone()));
        assert!(loaded.network(GameId::AlManqala).is_none());
        assert_eq!(Evaluator::load(&weights_file).unwrap(), Evaluator::linear());
        let text = std::fs::read_to_string(&net_file).unwrap();
        std::fs::write(&net_file, text.replacen(" 1", " 2", 1)).unwrap();
        assert!(matches!(
            Evaluator::load(&net_file),
            Err(EvalFileError::Network(NetworkError::Checksum { .. }))
        ));
        assert!(matches!(
            Evaluator::load(&dir.join("missing")),
            Err(EvalFileError::Io { .. })
        ));
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn an_endgame_set_blends_in_as_the_seeds_run_out() {
        let (opening, endgame, both) = blended(20, 40);
        let mut pos = Position::<Bohnenspiel>::start();
        let mut seen = [0; 3];
        let mut rng = 7u64;
        for _ in 0..400 {
            let moves = pos.legal_moves();
            if moves.is_empty() {
                pos = Position::start();
                continue;
            }
            rng = rng
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            let mv: Move = moves.as_slice()[(rng >> 33) as usize % moves.len()];
            pos = pos.play(mv);
            let (a, b, e) = (
                opening.evaluate(&pos),
                endgame.evaluate(&pos),
                both.evaluate(&pos),
            );
            let seeds = pos.board_seeds() as i32;
            if seeds >= 40 {
                assert_eq!(e, a, "{pos}");
                seen[0] += 1;
            } else if seeds <= 20 {
                assert_eq!(e, b, "{pos}");
                seen[2] += 1;
            } else {
                assert_eq!(e, (a * (seeds - 20) + b * (40 - seeds)) / 20, "{pos}");
                seen[1] += 1;
            }
            assert_eq!(both.evaluate(&mirrored(&pos)), e, "{pos}");
        }
        assert!(seen.iter().all(|&n| n >= 10), "{seen:?}");
    }
}
