//! Tuning a game's evaluation: the engine plays itself from the shipped
//! openings at a fixed depth (a share of the moves at random, if asked),
//! every position of every game is labelled by the game's final margin, by
//! a deeper search, by the exact value the endgame tables give it, or by
//! the tables where they reach and a search with them elsewhere; the linear
//! evaluation is fitted to the labels by ridge regression
//! ([`fit`](mod@fit)), or a network is trained on them ([`net`]). One game
//! in ten is held out to measure the fit.

pub mod file;
pub mod fit;
pub mod net;

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

use mancala_engine::files::{parse_openings, shipped_openings};
use mancala_engine::search::{self, SearchOptions};
use mancala_engine::tablebase::{BoardValues, TableSet};
use mancala_engine::tt::TranspositionTable;
use mancala_engine::{with_rules, GameId, GameRecord, Position, Rules, Status};
use mancala_eval::{Evaluator, Feature, Features, GameWeights, Weights};
use rand::seq::SliceRandom;
use rand::SeedableRng;

use crate::matchplay::builtin::BuiltinPlayer;
use crate::matchplay::game::PLY_CAP;
use fit::{fit, mse, predict, variance, Sample};

/// How positions are labelled.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Label {
    /// The final margin of the game the position was played in.
    Result,
    /// The score of a deeper search, to this depth.
    Search(u32),
    /// The exact final margin under best play, from the endgame tables:
    /// positions the tables do not cover are left out.
    Tables,
    /// The exact value from the tables where they cover the position, else
    /// the score of a search to this depth with the tables.
    Exact(u32),
}

/// How the self-play data is made.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SelfPlay {
    /// Games to play.
    pub games: usize,
    /// Search depth of the moves played.
    pub depth: u32,
    /// How positions are labelled.
    pub label: Label,
    /// Games played at the same time (the data does not depend on it).
    pub threads: usize,
    /// Seed of the opening order and of the random moves.
    pub seed: u64,
    /// The share of moves played at random instead of searched (0 to 1),
    /// to see positions the engine's own play would not reach.
    pub random: f64,
}

/// One labelled position.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Labelled {
    /// Its feature differences (side to move minus opponent).
    pub features: [i32; Feature::COUNT],
    /// The seeds on its board (which say how its game's weight sets blend).
    pub seeds: u32,
    /// The label, in seeds from the side to move's view.
    pub target: f64,
    /// The position ([`Position::key`]).
    pub key: u128,
}

impl Labelled {
    fn of<R: Rules>(pos: &Position<R>, target: f64) -> Self {
        Labelled {
            key: pos.key(),
            features: Features::of(pos).values,
            seeds: pos.board_seeds(),
            target,
        }
    }
}

/// Labelled positions.
pub type Samples = Vec<Labelled>;

/// Self-play positions: nine games in ten to fit, the tenth held out.
#[derive(Clone, Debug, Default)]
pub struct Data {
    /// The positions fitted to.
    pub train: Samples,
    /// The held-out positions.
    pub test: Samples,
}

/// Plays one self-play game and labels its positions.
fn one_game<R: Rules>(
    opening: Position<R>,
    player: &mut BuiltinPlayer,
    random: Option<(f64, rand::rngs::StdRng)>,
    labeller: Labeller<'_, R>,
) -> Samples {
    label(&play(opening, player, random), labeller)
}

/// Plays one self-play game from `opening` to its end (or the ply cap),
/// with `random`, a share of the moves picked at random by the generator.
fn play<R: Rules>(
    opening: Position<R>,
    player: &mut BuiltinPlayer,
    mut random: Option<(f64, rand::rngs::StdRng)>,
) -> GameRecord<R> {
    use rand::Rng;
    player.clear();
    let mut game = GameRecord::new(opening);
    while game.status() == Status::Ongoing {
        if game.ply() >= PLY_CAP {
            game.adjudicate();
            break;
        }
        if let Some((share, rng)) = &mut random {
            if rng.random_bool(*share) {
                let moves = game.legal_moves();
                let mv = moves[rng.random_range(0..moves.len())];
                game.play(mv).expect("a generated move is legal");
                continue;
            }
        }
        let report = player.think(opening, game.moves(), |_| {});
        let mv = report.best.expect("a running game has a move");
        game.play(mv).expect("the search plays legal moves");
    }
    game
}

/// Labels the positions of a finished game (each position before a move).
fn label<R: Rules>(game: &GameRecord<R>, labeller: Labeller<'_, R>) -> Samples {
    let opening = game.positions()[0];
    let Status::Over(totals) = game.status() else {
        unreachable!("the loop runs to the end")
    };
    let positions = &game.positions()[..game.ply()];
    match labeller {
        Labeller::Result => positions
            .iter()
            .map(|p| Labelled::of(p, p.margin_of(totals) as f64))
            .collect(),
        Labeller::Tables(tables) => positions
            .iter()
            .filter_map(|p| Some(Labelled::of(p, tables.margin(p)? as f64)))
            .collect(),
        Labeller::Search(deep) => {
            deep.clear();
            positions
                .iter()
                .enumerate()
                .map(|(i, p)| {
                    let report = deep.think(opening, &game.moves()[..i], |_| {});
                    Labelled::of(p, search::seeds(report.score))
                })
                .collect()
        }
        Labeller::Exact {
            tables,
            tt,
            eval,
            depth,
        } => positions
            .iter()
            .map(|p| {
                let target = match tables.margin(p) {
                    Some(v) => v as f64,
                    None => {
                        tt.clear();
                        let report = search::Search::new(p, eval, tt)
                            .tables(Some(tables))
                            .options(SearchOptions {
                                limits: search::Limits {
                                    depth: Some(depth),
                                    ..Default::default()
                                },
                                ..Default::default()
                            })
                            .run(|_| {});
                        search::seeds(report.score)
                    }
                };
                Labelled::of(p, target)
            })
            .collect(),
    }
}

/// How one game's positions get their labels.
enum Labeller<'a, R: Rules> {
    Result,
    Search(&'a mut BuiltinPlayer),
    Tables(&'a dyn BoardValues<R>),
    Exact {
        tables: &'a dyn BoardValues<R>,
        tt: &'a mut TranspositionTable,
        eval: &'a Evaluator,
        depth: u32,
    },
}

/// Plays and labels the self-play games of `game` with `eval`; `on_game`
/// is called after each game (from the playing threads). `tables` label
/// the positions under [`Label::Tables`] (a game without tables in the set
/// gets no labelled positions).
pub fn self_play(
    game: GameId,
    config: &SelfPlay,
    eval: &Evaluator,
    tables: &TableSet,
    on_game: &(dyn Fn() + Sync),
) -> Data {
    with_rules!(game, R => self_play_of::<R>(config, eval, tables, on_game))
}

fn self_play_of<R: Rules>(
    config: &SelfPlay,
    eval: &Evaluator,
    tables: &TableSet,
    on_game: &(dyn Fn() + Sync),
) -> Data {
    let exact: &dyn BoardValues<R> = tables
        .get::<R>()
        .unwrap_or(&mancala_engine::tablebase::NoTables);
    let mut openings: Vec<Position<R>> = parse_openings(shipped_openings(R::ID), R::ID)
        .expect("the shipped openings parse")
        .iter()
        .map(|p| Position::from_key(p.key()))
        .collect();
    openings.shuffle(&mut rand::rngs::StdRng::seed_from_u64(config.seed));
    let engine = |depth| {
        BuiltinPlayer::new(
            eval.clone(),
            16,
            SearchOptions {
                limits: search::Limits {
                    depth: Some(depth),
                    ..Default::default()
                },
                ..Default::default()
            },
        )
    };
    let games = config.games;
    let results: Mutex<Vec<Option<Samples>>> = Mutex::new(vec![None; games]);
    let next = AtomicUsize::new(0);
    std::thread::scope(|scope| {
        for _ in 0..config.threads.max(1) {
            scope.spawn(|| {
                let mut player = engine(config.depth);
                let mut deep = match config.label {
                    Label::Search(depth) => Some(engine(depth)),
                    Label::Result | Label::Tables | Label::Exact(_) => None,
                };
                let mut tt = match config.label {
                    Label::Exact(_) => Some(TranspositionTable::new(16)),
                    _ => None,
                };
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    if i >= games {
                        return;
                    }
                    let labeller = match (config.label, deep.as_mut(), tt.as_mut()) {
                        (Label::Search(_), Some(deep), _) => Labeller::Search(deep),
                        (Label::Tables, _, _) => Labeller::Tables(exact),
                        (Label::Exact(depth), _, Some(tt)) => Labeller::Exact {
                            tables: exact,
                            tt,
                            eval,
                            depth,
                        },
                        _ => Labeller::Result,
                    };
                    let random = (config.random > 0.0).then(|| {
                        let seed = config.seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) ^ i as u64;
                        (config.random, rand::rngs::StdRng::seed_from_u64(seed))
                    });
                    let samples =
                        one_game(openings[i % openings.len()], &mut player, random, labeller);
                    results.lock().expect("no player panics")[i] = Some(samples);
                    on_game();
                }
            });
        }
    });
    let mut data = Data::default();
    for (i, samples) in results
        .into_inner()
        .expect("no player panics")
        .into_iter()
        .enumerate()
    {
        let samples = samples.expect("every game was played");
        if i % 10 == 9 {
            data.test.extend(samples);
        } else {
            data.train.extend(samples);
        }
    }
    data
}

/// Which of a game's weight sets a fit changes (the other is kept).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Part {
    /// The opening weights (all of them, for a game with one set).
    Opening,
    /// The endgame weights.
    Endgame,
}

/// A fit and how well the weights before and after it predict the labels.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct FitReport {
    /// The starting weights.
    pub before: GameWeights,
    /// The fitted weights, rounded to the evaluation's resolution.
    pub after: GameWeights,
    /// Mean squared error in seeds² on the held-out positions, before.
    pub test_mse_before: f64,
    /// The same, after.
    pub test_mse_after: f64,
    /// Mean squared error on the fitted positions, before.
    pub train_mse_before: f64,
    /// The same, after.
    pub train_mse_after: f64,
    /// Share of the held-out labels' variance explained, after.
    pub test_r2_after: f64,
}

/// The set `part` of `w`.
pub fn part_of(w: &GameWeights, part: Part) -> &Weights {
    match part {
        Part::Opening => &w.opening,
        Part::Endgame => &w.endgame.as_ref().expect("an endgame set").weights,
    }
}

/// The samples of a fit of `part`, the other set of `w` held fixed: the
/// evaluation is `a·w_opening·x + (1 − a)·w_endgame·x` with `a` the
/// [opening share](GameWeights::opening_share), so the fitted set sees its
/// share of the features and the label less the fixed set's part.
fn samples_for(
    labelled: &[Labelled],
    w: &GameWeights,
    part: Part,
) -> Vec<Sample<{ Feature::COUNT }>> {
    labelled
        .iter()
        .map(|l| {
            let a = w.opening_share(l.seeds);
            let (share, fixed) = match (part, &w.endgame) {
                (Part::Opening, None) => (1.0, 0.0),
                (Part::Opening, Some(e)) => (
                    a,
                    (1.0 - a) * predict(&e.weights.as_array(), &l.features.map(f64::from)),
                ),
                (Part::Endgame, _) => (
                    1.0 - a,
                    a * predict(&w.opening.as_array(), &l.features.map(f64::from)),
                ),
            };
            Sample {
                features: l.features.map(|x| share * x as f64),
                target: l.target - fixed,
            }
        })
        .collect()
}

/// Fits the set `part` of `start` to `data`, pulled towards its starting
/// values with ridge strength `lambda` a position.
///
/// # Panics
/// If `part` is [`Part::Endgame`] and `start` has no endgame set.
pub fn fit_weights(data: &Data, start: &GameWeights, part: Part, lambda: f64) -> FitReport {
    let (train, test) = (
        samples_for(&data.train, start, part),
        samples_for(&data.test, start, part),
    );
    let w0 = part_of(start, part).as_array();
    let scale = search::score::SCALE as f64;
    let fitted = Weights::from_array(fit(&train, &w0, lambda).map(|v| (v * scale).round() / scale));
    let mut after = *start;
    match part {
        Part::Opening => after.opening = fitted,
        Part::Endgame => after.endgame.as_mut().expect("an endgame set").weights = fitted,
    }
    let w1 = fitted.as_array();
    let var = variance(&data.test.iter().map(|l| l.target).collect::<Vec<_>>());
    FitReport {
        before: *start,
        after,
        test_mse_before: mse(&w0, &test),
        test_mse_after: mse(&w1, &test),
        train_mse_before: mse(&w0, &train),
        train_mse_after: mse(&w1, &train),
        test_r2_after: if var > 0.0 {
            1.0 - mse(&w1, &test) / var
        } else {
            0.0
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use mancala_eval::WeightSet;

    /// `Label::Tables` labels exactly the positions the tables cover, each
    /// with the margin an independent proof (the solver, no tables) gives.
    #[test]
    fn table_labels_are_the_proven_margins_of_the_covered_positions() {
        use mancala_engine::solve::Solver;
        use mancala_engine::tablebase::{build_in_memory, NoTables};
        use mancala_engine::Bohnenspiel;
        let (tables, _) = build_in_memory::<Bohnenspiel>(12);
        let eval = Evaluator::default();
        let mut player = BuiltinPlayer::new(
            eval,
            1,
            SearchOptions {
                limits: search::Limits {
                    depth: Some(1),
                    ..Default::default()
                },
                ..Default::default()
            },
        );
        let mut solver = Solver::new(&NoTables, 16);
        let mut checked = 0;
        for opening in parse_openings(shipped_openings(GameId::Bohnenspiel), GameId::Bohnenspiel)
            .unwrap()
            .iter()
            .take(10)
        {
            let game = play(
                Position::<Bohnenspiel>::from_key(opening.key()),
                &mut player,
                None,
            );
            let samples = label(&game, Labeller::Tables(&tables));
            let covered: Vec<_> = game.positions()[..game.ply()]
                .iter()
                .filter(|p| p.board_seeds() <= 12)
                .collect();
            assert_eq!(samples.len(), covered.len());
            for (sample, pos) in samples.iter().zip(covered) {
                assert_eq!(sample.features, Features::of(pos).values);
                assert_eq!(sample.target, solver.value(pos) as f64, "{pos}");
                checked += 1;
            }
        }
        assert!(checked >= 20, "only {checked} positions checked");
    }

    /// Labels made by a blended evaluation with known endgame weights: a
    /// fit of the endgame set, the opening set held, finds those weights
    /// (and the error falls to 0); the opening set is left as it was.
    #[test]
    fn an_endgame_fit_recovers_the_endgame_weights_of_a_blend() {
        use mancala_eval::Endgame;
        let opening = Weights::from_array([1.0, 0.125, 1.25, 0.5, 0.25, 0.0, -0.5, 0.0]);
        let truth = Weights::from_array([1.0, 0.5, -0.75, 0.25, 0.5, -1.0, 0.25, 0.0]);
        let blend = |endgame| GameWeights {
            opening,
            endgame: Some(Endgame {
                weights: endgame,
                endgame_seeds: 10,
                opening_seeds: 30,
            }),
        };
        let real = blend(truth);
        let mut rng = 11u64;
        let mut next = |n: u64| {
            rng = rng
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (rng >> 33) % n
        };
        let mut data = Data::default();
        for i in 0..2000 {
            let mut features = [0i32; Feature::COUNT];
            for x in &mut features[..7] {
                *x = next(13) as i32 - 6;
            }
            let seeds = 2 * next(20) as u32;
            let a = real.opening_share(seeds);
            let x = features.map(f64::from);
            let target =
                a * predict(&opening.as_array(), &x) + (1.0 - a) * predict(&truth.as_array(), &x);
            let l = Labelled {
                key: 0,
                features,
                seeds,
                target,
            };
            if i % 10 == 9 {
                data.test.push(l)
            } else {
                data.train.push(l)
            }
        }
        let start = blend(opening);
        let report = fit_weights(&data, &start, Part::Endgame, 1e-9);
        assert_eq!(report.after, real, "{report:?}");
        assert!(
            report.test_mse_before > 1.0 && report.test_mse_after < 1e-9,
            "{report:?}"
        );
        // Fitting the opening set of the true blend changes nothing.
        let report = fit_weights(&data, &real, Part::Opening, 1e-9);
        assert_eq!(report.after, real, "{report:?}");
    }

    /// A short self-play run: every game is labelled, one in ten held out,
    /// and the thread count changes nothing.
    #[test]
    fn self_play_is_labelled_split_and_repeatable() {
        let eval = Evaluator::default();
        let config = SelfPlay {
            games: 10,
            depth: 1,
            label: Label::Result,
            threads: 1,
            seed: 3,
            random: 0.1,
        };
        let played = AtomicUsize::new(0);
        let count = || {
            played.fetch_add(1, Ordering::Relaxed);
        };
        let one = self_play(GameId::Bosh, &config, &eval, &TableSet::default(), &count);
        assert_eq!(played.load(Ordering::Relaxed), 10);
        assert!(!one.train.is_empty() && !one.test.is_empty());
        let two = self_play(
            GameId::Bosh,
            &SelfPlay {
                threads: 2,
                ..config
            },
            &eval,
            &TableSet::default(),
            &|| {},
        );
        assert_eq!(one.train.len(), two.train.len());
        assert_eq!(one.test.len(), two.test.len());
        let start = *WeightSet::default().for_game(GameId::Bosh);
        let report = fit_weights(&one, &start, Part::Opening, 0.001);
        assert!(
            report.train_mse_after <= report.train_mse_before + 0.01,
            "{report:?}"
        );
    }
}
