//! Evaluation functions for the mancala search: per game, the banked
//! difference plus features a mancala player would name, weighted by a
//! [`WeightSet`] that loads from and saves to JSON. The default weights ship
//! in the crate (`eval/weights/default.json`).
//!
//! ```
//! use mancala_engine::search::Evaluate;
//! use mancala_engine::{Bohnenspiel, Position};
//! use mancala_eval::Evaluator;
//! let eval = Evaluator::default();
//! // The start position is symmetric: every feature difference is 0.
//! assert_eq!(eval.evaluate(&Position::<Bohnenspiel>::start()), 0);
//! ```

mod features;
mod laps;
mod weights;

pub use features::{Feature, Features, Weights};
pub use weights::{WeightError, WeightSet, MAX_WEIGHT};

use mancala_engine::search::score::SCALE;
use mancala_engine::search::Evaluate;
use mancala_engine::{GameId, Position, Rules};

/// The evaluation: features of [`Features::of`] times the weights of the
/// position's game, in the search's unit.
#[derive(Clone, Debug, PartialEq)]
pub struct Evaluator {
    weights: WeightSet,
    /// Per game (in [`GameId::ALL`] order), the weights times
    /// [`SCALE`], rounded.
    scaled: [[i32; Feature::COUNT]; 5],
}

impl Default for Evaluator {
    fn default() -> Self {
        Self::new(WeightSet::default())
    }
}

fn game_index(game: GameId) -> usize {
    GameId::ALL
        .iter()
        .position(|&g| g == game)
        .expect("every game is in ALL")
}

impl Evaluator {
    /// An evaluator with these weights.
    pub fn new(weights: WeightSet) -> Self {
        let mut scaled = [[0; Feature::COUNT]; 5];
        for game in GameId::ALL {
            let w = weights.for_game(game).as_array();
            for (s, w) in scaled[game_index(game)].iter_mut().zip(w) {
                *s = (w * SCALE as f64).round() as i32;
            }
        }
        Evaluator { weights, scaled }
    }

    /// The weights in use.
    pub fn weights(&self) -> &WeightSet {
        &self.weights
    }
}

impl<R: Rules> Evaluate<R> for Evaluator {
    #[inline]
    fn evaluate(&self, pos: &Position<R>) -> i32 {
        features::weighted_sum(pos, &self.scaled[game_index(R::ID)])
    }
}
