//! `mancala tune`: fits one game's evaluation weights to self-play data.
//! The engine plays itself from the shipped openings at a fixed depth;
//! every position of every game is labelled by the game's final margin (or
//! by a deeper search) and the linear evaluation is fitted to the labels by
//! ridge regression. One game in ten is held out to measure the fit.

use std::io::IsTerminal;
use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

use indicatif::{ProgressBar, ProgressStyle};
use mancala_engine::search::{self, SearchOptions};
use mancala_engine::{GameId, GameRecord, Position, Rules, Status};
use mancala_eval::{Evaluator, Feature, Features, WeightSet, Weights};
use rand::seq::SliceRandom;
use rand::SeedableRng;
use serde::Serialize;

use crate::input::{bad, positive};
use crate::matchplay::engine::EnginePlayer;
use crate::matchplay::fit::{fit, mse, target_variance, Sample};
use crate::matchplay::game::PLY_CAP;
use mancala_engine::files;

/// How positions are labelled.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum Label {
    /// The final margin of the game the position was played in.
    Result,
    /// The score of a deeper search (`--label-depth`).
    Search,
}

/// Arguments of `mancala tune`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// The game whose weights are fitted.
    #[arg(long, value_name = "NAME")]
    game: String,
    /// Self-play games.
    #[arg(long, default_value_t = 2000)]
    games: u32,
    /// Search depth of the self-play games.
    #[arg(long, default_value_t = 4)]
    depth: u32,
    /// How positions are labelled.
    #[arg(long, value_enum, default_value_t = Label::Result)]
    label: Label,
    /// Search depth of `--label search`.
    #[arg(long, default_value_t = 8)]
    label_depth: u32,
    /// Starting weights (default: the shipped ones); the other games'
    /// weights are copied to the output unchanged.
    #[arg(long, value_name = "FILE")]
    weights: Option<PathBuf>,
    /// Pull towards the starting weights (ridge strength per position).
    #[arg(long, default_value_t = 0.001)]
    lambda: f64,
    /// Games played at the same time (the result does not depend on it).
    #[arg(long, default_value_t = 1)]
    threads: u32,
    /// Seed for the opening order.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Where to write the fitted weights (JSON, every game).
    #[arg(long, value_name = "FILE")]
    out: PathBuf,
    /// Print the fit report as JSON on standard output.
    #[arg(long)]
    json: bool,
}

const NAMES: [&str; Feature::COUNT] = [
    "banked",
    "row_seeds",
    "mobility",
    "capture_moves",
    "capture_seeds",
    "vulnerable",
    "feedable_empty",
    "relay",
];

fn from_array(w: [f64; Feature::COUNT]) -> Weights {
    // Rounded to the evaluation's resolution (1/SCALE of a seed).
    let scale = search::params::SCALE as f64;
    let r = |v: f64| (v * scale).round() / scale;
    Weights {
        banked: r(w[0]),
        row_seeds: r(w[1]),
        mobility: r(w[2]),
        capture_moves: r(w[3]),
        capture_seeds: r(w[4]),
        vulnerable: r(w[5]),
        feedable_empty: r(w[6]),
        relay: r(w[7]),
    }
}

fn set_game(set: &mut WeightSet, game: GameId, w: Weights) {
    match game {
        GameId::Bohnenspiel => set.bohnenspiel = w,
        GameId::BohnenspielHemprich => set.bohnenspiel_hemprich = w,
        GameId::AlManqala => set.al_manqala = w,
        GameId::Bosh => set.bosh = w,
        GameId::DjenonAbe => set.djenon_abe = w,
    }
}

type Samples = Vec<Sample<{ Feature::COUNT }>>;

/// Plays one self-play game and labels its positions.
fn one_game<R: Rules>(
    opening: Position<R>,
    player: &mut EnginePlayer,
    labeller: Option<&mut EnginePlayer>,
) -> Samples {
    player.clear();
    let mut game = GameRecord::new(opening);
    while game.status() == Status::Ongoing {
        if game.ply() >= PLY_CAP {
            game.adjudicate();
            break;
        }
        let report = player.think(opening, game.moves(), |_| {});
        let mv = report.best.expect("a running game has a move");
        game.play(mv).expect("the search plays legal moves");
    }
    let Status::Over(totals) = game.status() else {
        unreachable!("the loop runs to the end")
    };
    let positions = &game.positions()[..game.ply()];
    match labeller {
        None => positions
            .iter()
            .map(|p| {
                let me = p.side_to_move().index();
                Sample {
                    features: Features::of(p).values,
                    target: totals[me] as f64 - totals[1 - me] as f64,
                }
            })
            .collect(),
        Some(deep) => {
            deep.clear();
            positions
                .iter()
                .enumerate()
                .map(|(i, p)| {
                    let report = deep.think(opening, &game.moves()[..i], |_| {});
                    Sample {
                        features: Features::of(p).values,
                        target: search::seeds(report.score),
                    }
                })
                .collect()
        }
    }
}

struct Data {
    train: Samples,
    test: Samples,
}

fn self_play<R: Rules>(args: &Args, eval: &Evaluator) -> anyhow::Result<Data> {
    let game = R::ID;
    let mut openings: Vec<Position<R>> = files::parse_openings(files::shipped_openings(game), game)
        .map_err(|e| bad(format!("shipped openings: {e}")))?
        .iter()
        .map(|p| {
            p.to_string()
                .parse()
                .expect("an opening parses as its own game")
        })
        .collect();
    openings.shuffle(&mut rand::rngs::StdRng::seed_from_u64(args.seed));
    let engine = |depth| {
        EnginePlayer::new(
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
    let games = args.games as usize;
    let results: Mutex<Vec<Option<Samples>>> = Mutex::new(vec![None; games]);
    let next = AtomicUsize::new(0);
    let bar = if std::io::stderr().is_terminal() {
        ProgressBar::new(games as u64)
    } else {
        ProgressBar::hidden()
    };
    bar.set_style(
        ProgressStyle::with_template("self-play {bar:30} {pos}/{len} games ({eta})")
            .expect("valid template"),
    );
    std::thread::scope(|scope| {
        for _ in 0..args.threads.max(1) {
            scope.spawn(|| {
                let mut player = engine(args.depth);
                let mut deep = (args.label == Label::Search).then(|| engine(args.label_depth));
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    if i >= games {
                        return;
                    }
                    let samples =
                        one_game(openings[i % openings.len()], &mut player, deep.as_mut());
                    results.lock().expect("results")[i] = Some(samples);
                    bar.inc(1);
                }
            });
        }
    });
    bar.finish_and_clear();
    let mut data = Data {
        train: Vec::new(),
        test: Vec::new(),
    };
    for (i, samples) in results
        .into_inner()
        .expect("results")
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
    Ok(data)
}

#[derive(Serialize)]
struct Report {
    game: &'static str,
    games: u32,
    depth: u32,
    label: &'static str,
    train_positions: usize,
    test_positions: usize,
    /// Mean squared error in seeds², before and after, on the held-out games.
    test_mse_before: f64,
    test_mse_after: f64,
    train_mse_before: f64,
    train_mse_after: f64,
    /// Share of the held-out targets' variance explained, after.
    test_r2_after: f64,
    before: Weights,
    after: Weights,
}

pub fn run(args: Args) -> anyhow::Result<()> {
    let game: GameId = args.game.parse().map_err(|e| bad(format!("{e}")))?;
    let games = positive("games", args.games)?;
    if games > 1_000_000 {
        return Err(bad("--games: at most 1,000,000"));
    }
    if args.threads > 1024 {
        return Err(bad("--threads: at most 1024"));
    }
    if games < 10 {
        return Err(bad("--games: at least 10 (one game in ten is held out)"));
    }
    positive("depth", args.depth)?;
    positive("label-depth", args.label_depth)?;
    positive("threads", args.threads)?;
    if !(args.lambda >= 0.0 && args.lambda.is_finite()) {
        return Err(bad("--lambda must be a number ≥ 0"));
    }
    let start = match &args.weights {
        Some(path) => WeightSet::load(path).map_err(|e| bad(format!("--weights: {e}")))?,
        None => WeightSet::default(),
    };
    let eval = Evaluator::new(start.clone());
    let data = match game {
        GameId::Bohnenspiel => self_play::<mancala_engine::Bohnenspiel>(&args, &eval)?,
        GameId::BohnenspielHemprich => {
            self_play::<mancala_engine::BohnenspielHemprich>(&args, &eval)?
        }
        GameId::AlManqala => self_play::<mancala_engine::AlManqala>(&args, &eval)?,
        GameId::Bosh => self_play::<mancala_engine::Bosh>(&args, &eval)?,
        GameId::DjenonAbe => self_play::<mancala_engine::DjenonAbe>(&args, &eval)?,
    };
    let w0 = start.for_game(game).as_array();
    let fitted = fit(&data.train, &w0, args.lambda);
    let after = from_array(fitted);
    let w1 = after.as_array();
    let mut out = start.clone();
    set_game(&mut out, game, after);
    out.save(&args.out)
        .map_err(|e| bad(format!("--out: {e}")))?;
    let var = target_variance(&data.test);
    let report = Report {
        game: game.name(),
        games,
        depth: args.depth,
        label: match args.label {
            Label::Result => "result",
            Label::Search => "search",
        },
        train_positions: data.train.len(),
        test_positions: data.test.len(),
        test_mse_before: mse(&w0, &data.test),
        test_mse_after: mse(&w1, &data.test),
        train_mse_before: mse(&w0, &data.train),
        train_mse_after: mse(&w1, &data.train),
        test_r2_after: if var > 0.0 {
            1.0 - mse(&w1, &data.test) / var
        } else {
            0.0
        },
        before: *start.for_game(game),
        after,
    };
    if args.json {
        println!("{}", serde_json::to_string(&report)?);
    } else {
        println!(
            "{game}: {} self-play games at depth {}, labels: {}; {} positions to fit, {} held out",
            games, report.depth, report.label, report.train_positions, report.test_positions
        );
        println!(
            "mean squared error (seeds²): held out {:.3} -> {:.3}, fitted {:.3} -> {:.3}; held-out R² {:.3}",
            report.test_mse_before,
            report.test_mse_after,
            report.train_mse_before,
            report.train_mse_after,
            report.test_r2_after
        );
        for (i, name) in NAMES.iter().enumerate() {
            println!("  {name:<15} {:>8.4} -> {:>8.4}", w0[i], w1[i]);
        }
        println!("weights written to {}", args.out.display());
    }
    Ok(())
}
