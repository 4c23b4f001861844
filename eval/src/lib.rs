//! Evaluation functions for the mancala search: per game, the banked
//! difference plus features a mancala player would name, weighted by a
//! [`WeightSet`] that loads from and saves to JSON. A game may have a second
//! set of weights for the endgame, blended in as the seeds on the board
//! run out ([`GameWeights`]). The default weights ship in the crate
//! (`eval/weights/default.json`).
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
        let w = &self.scaled[game_index(R::ID)];
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
        only_endgame.bohnenspiel = GameWeights::plain(endgame);
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
