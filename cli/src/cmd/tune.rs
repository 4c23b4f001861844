//! `mancala tune`: the arguments and the report of
//! [`mancala_tools::tune`], which fits one game's evaluation weights to
//! self-play data.

use std::path::PathBuf;

use mancala_engine::tablebase::TableSet;
use mancala_engine::{with_rules, GameId};
use mancala_eval::{Endgame, Evaluator, Feature, Network, WeightSet, Weights, MAX_SEEDS};
use mancala_tools::tune::{self, SelfPlay};
use serde::Serialize;

use mancala_tools::limits;

use crate::input::{bad, positive, OrBad};

/// How positions are labelled.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum Label {
    /// The final margin of the game the position was played in.
    Result,
    /// The score of a deeper search (`--label-depth`).
    Search,
    /// The exact final margin from the endgame tables (`--dir`); positions
    /// the tables do not cover are left out.
    Tables,
    /// The exact value from the tables (`--dir`) where they cover the
    /// position, else the score of a search to `--label-depth` with them.
    Exact,
}

/// What is fitted.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum Model {
    /// The weights of the linear evaluation (`--out`: a weights file).
    Linear,
    /// A learned network (`--out`: a network file, for `--network`).
    Network,
}

/// Arguments of `mancala tune`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// The game whose weights are fitted.
    #[arg(long, value_name = "NAME")]
    game: GameId,
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
    /// What is fitted: the linear weights, or a network.
    #[arg(long, value_enum, default_value_t = Model::Linear)]
    model: Model,
    /// With `--model network`: passes over the training positions.
    #[arg(long, default_value_t = 30)]
    epochs: u32,
    /// With `--model network`: hidden units, 32 or 64.
    #[arg(long, default_value_t = 32)]
    hidden: usize,
    /// With `--model network`: Adam's step size at the start (it falls
    /// linearly to a tenth over the epochs).
    #[arg(long, default_value_t = 0.002)]
    rate: f32,
    /// With `--model network`: also train on 1/8, 1/4 and 1/2 of the
    /// training positions and report each one's held-out error (the
    /// integer network's, as for the whole set).
    #[arg(long)]
    learning_curve: bool,
    /// With `--model network`: a network file that plays the self-play
    /// games and labels the positions by its searches (a second round of
    /// training); the new network is still trained from scratch.
    #[arg(long, value_name = "FILE")]
    from_network: Option<PathBuf>,
    /// Pull towards the starting weights (ridge strength per position).
    #[arg(long, default_value_t = 0.001)]
    lambda: f64,
    /// Games played at the same time (the result does not depend on it).
    #[arg(long, default_value_t = 1)]
    threads: u32,
    /// Seed for the opening order, the random moves and the network's
    /// training.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// The share of self-play moves played at random (0 to 1), for
    /// positions the engine's own play does not reach.
    #[arg(long, default_value_t = 0.0, value_name = "SHARE")]
    random_moves: f64,
    /// Where to write the fitted weights (JSON, every game).
    #[arg(long, value_name = "FILE")]
    out: PathBuf,
    /// Print the fit report as JSON on standard output.
    #[arg(long)]
    json: bool,
    /// Fit the game's endgame weights instead of its opening ones: the
    /// set blended in as the seeds on the board fall from
    /// `--opening-seeds` to `--endgame-seeds` (made from the opening
    /// weights if the starting file has none).
    #[arg(long)]
    endgame: bool,
    /// With `--endgame`: at this many seeds on the board or fewer, the
    /// endgame weights alone (default: the starting file's, else 24).
    #[arg(long, value_name = "SEEDS", requires = "endgame")]
    endgame_seeds: Option<u32>,
    /// With `--endgame`: at this many seeds or more, the opening weights
    /// alone (default: the starting file's, else 48).
    #[arg(long, value_name = "SEEDS", requires = "endgame")]
    opening_seeds: Option<u32>,
    /// Train on the labelled positions of this data file (written by
    /// `--save-data`) instead of playing and labelling games; given again,
    /// on those of every file named (each file's held-out positions stay
    /// held out).
    #[arg(long, value_name = "FILE", conflicts_with_all = ["games", "depth", "label", "label_depth", "random_moves", "save_data"])]
    data: Vec<PathBuf>,
    /// Also write the labelled positions to this data file, to train on
    /// again with `--data`.
    #[arg(long, value_name = "FILE")]
    save_data: Option<PathBuf>,
    #[command(flatten)]
    tables: crate::options::TableArgs,
}

#[derive(Serialize)]
struct Report {
    #[serde(flatten)]
    data: DataReport,
    /// "opening" or "endgame": the set fitted.
    part: &'static str,
    /// The blend's range, if the game has an endgame set.
    endgame_seeds: Option<u32>,
    opening_seeds: Option<u32>,
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
    let game = args.game;
    let games = check(&args)?;
    let mut start = match &args.weights {
        Some(path) => WeightSet::load(path).map_err(|e| bad(format!("--weights: {e}")))?,
        None => WeightSet::default(),
    };
    let part = part_to_fit(&args, &mut start)?;
    let linear = Evaluator::new(start.clone());
    let eval = match &args.from_network {
        Some(path) => linear.clone().with_network(from_network(path, game)?),
        None => linear.clone(),
    };
    let config = SelfPlay {
        games: games as usize,
        depth: args.depth,
        label: match args.label {
            Label::Result => tune::Label::Result,
            Label::Search => tune::Label::Search(args.label_depth),
            Label::Tables => tune::Label::Tables,
            Label::Exact => tune::Label::Exact(args.label_depth),
        },
        threads: args.threads as usize,
        seed: args.seed,
        random: args.random_moves,
    };
    let data = match args.data.as_slice() {
        [] => {
            let tables = label_tables(&args)?;
            let bar = mancala_tools::progress::bar("self-play", games as u64, "games");
            let data = tune::self_play(game, &config, &eval, &tables, &|| bar.inc(1));
            bar.finish_and_clear();
            data
        }
        paths => tune::file::load_all(game, paths)
            .map_err(|(i, e)| bad(format!("--data {}: {e}", paths[i].display())))?,
    };
    if let Some(path) = &args.save_data {
        tune::file::save(&data, game, path).map_err(|e| bad(format!("--save-data: {e}")))?;
    }
    if data.train.is_empty() || data.test.is_empty() {
        return Err(bad(
            "no labelled position to fit or to hold out (with --label tables: none the tables cover)",
        ));
    }
    if args.model == Model::Network {
        return network(&args, &linear, &eval, &data);
    }
    let fit = tune::fit_weights(&data, start.for_game(game), part, args.lambda);
    let mut out = start.clone();
    *out.for_game_mut(game) = fit.after;
    out.save(&args.out)
        .map_err(|e| bad(format!("--out: {e}")))?;
    let report = Report {
        data: DataReport::of(&args, &data),
        test_mse_before: fit.test_mse_before,
        test_mse_after: fit.test_mse_after,
        train_mse_before: fit.train_mse_before,
        train_mse_after: fit.train_mse_after,
        test_r2_after: fit.test_r2_after,
        part: match part {
            tune::Part::Opening => "opening",
            tune::Part::Endgame => "endgame",
        },
        endgame_seeds: fit.after.endgame.map(|e| e.endgame_seeds),
        opening_seeds: fit.after.endgame.map(|e| e.opening_seeds),
        before: *tune::part_of(&fit.before, part),
        after: *tune::part_of(&fit.after, part),
    };
    if args.json {
        println!("{}", serde_json::to_string(&report)?);
    } else {
        print_report(&report, &args.out);
    }
    Ok(())
}

/// The numbers of `args` checked: the games to play, or bad input.
fn check(args: &Args) -> anyhow::Result<u32> {
    let games = positive("games", args.games)?;
    if games > 1_000_000 {
        return Err(bad("--games: at most 1,000,000"));
    }
    if games < 10 {
        return Err(bad("--games: at least 10 (one game in ten is held out)"));
    }
    limits::depth("--depth", args.depth as u64).or_bad()?;
    limits::depth("--label-depth", args.label_depth as u64).or_bad()?;
    limits::threads("--threads", args.threads as u64).or_bad()?;
    // Each thread plays with a 16 MiB table, and one more for the labels.
    limits::memory(
        "the self-play threads' tables",
        (args.threads as u64 * 2 * 16) << 20,
    )
    .or_bad()?;
    if args.model == Model::Network && !(1..=1000).contains(&args.epochs) {
        return Err(bad("--epochs: 1 to 1000"));
    }
    if !mancala_eval::network::SIZES.contains(&args.hidden) {
        return Err(bad(format!(
            "--hidden: one of {:?}",
            mancala_eval::network::SIZES
        )));
    }
    if !(args.rate > 0.0 && args.rate <= 1.0) {
        return Err(bad("--rate: a step size above 0 and at most 1"));
    }
    if args.model == Model::Network && args.endgame {
        return Err(bad("--endgame fits linear weights, not a network"));
    }
    if args.model != Model::Network && args.from_network.is_some() {
        return Err(bad("--from-network needs --model network"));
    }
    if !(0.0..=1.0).contains(&args.random_moves) {
        return Err(bad("--random-moves: a share from 0 to 1"));
    }
    if !(args.lambda >= 0.0 && args.lambda.is_finite()) {
        return Err(bad("--lambda must be a number ≥ 0"));
    }
    Ok(games)
}

/// Which weights of `args.game` the fit changes: the opening set (the only
/// one, for a game with one), or the endgame set, which `start` is given
/// (a copy of the opening set, or its own) with the seed range it hands
/// over in.
fn part_to_fit(args: &Args, start: &mut WeightSet) -> anyhow::Result<tune::Part> {
    let game = args.game;
    Ok(if args.endgame {
        let w = start.for_game_mut(game);
        let (lo, hi) = w
            .endgame
            .map_or((24, 48), |e| (e.endgame_seeds, e.opening_seeds));
        let (lo, hi) = (
            args.endgame_seeds.unwrap_or(lo),
            args.opening_seeds.unwrap_or(hi),
        );
        if lo >= hi || hi > MAX_SEEDS {
            return Err(bad(format!(
                "--endgame-seeds {lo}, --opening-seeds {hi}: need endgame seeds < opening seeds <= {MAX_SEEDS}"
            )));
        }
        w.endgame = Some(Endgame {
            weights: w.endgame.map_or(w.opening, |e| e.weights),
            endgame_seeds: lo,
            opening_seeds: hi,
        });
        tune::Part::Endgame
    } else {
        tune::Part::Opening
    })
}

/// The endgame tables `--label tables` reads (none for the other labels).
fn label_tables(args: &Args) -> anyhow::Result<TableSet> {
    let game = args.game;
    Ok(match args.label {
        Label::Tables | Label::Exact => {
            let tables = args.tables.open(&[game]);
            if !with_rules!(game, R => tables.get::<R>().is_some()) {
                return Err(bad(format!(
                    "--label tables/exact: no endgame tables of {} found (--dir)",
                    game.name()
                )));
            }
            tables
        }
        Label::Result | Label::Search => TableSet::default(),
    })
}

/// The report as text.
fn print_report(report: &Report, out: &std::path::Path) {
    report.data.print("fit");
    println!(
        "mean squared error (seeds²): held out {:.3} -> {:.3}, fitted {:.3} -> {:.3}; held-out R² {:.3}",
        report.test_mse_before,
        report.test_mse_after,
        report.train_mse_before,
        report.train_mse_after,
        report.test_r2_after
    );
    if let (Some(lo), Some(hi)) = (report.endgame_seeds, report.opening_seeds) {
        println!(
            "the {} weights (endgame alone at {lo} seeds on the board or fewer, opening alone at {hi} or more):",
            report.part
        );
    }
    let (w0, w1) = (report.before.as_array(), report.after.as_array());
    for (i, feature) in Feature::ALL.iter().enumerate() {
        println!("  {:<15} {:>8.4} -> {:>8.4}", feature.name(), w0[i], w1[i]);
    }
    println!("weights written to {}", out.display());
}

/// What both reports say of the data.
#[derive(Serialize)]
struct DataReport {
    game: &'static str,
    /// With `--data`: the files the positions were read from (the games,
    /// depth and labels are then the files', not stated).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    data_files: Vec<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    games: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    depth: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    label: Option<&'static str>,
    train_positions: usize,
    test_positions: usize,
    /// Where the positions came from, as the text report says it.
    #[serde(skip)]
    source: String,
}

impl DataReport {
    fn of(args: &Args, data: &tune::Data) -> Self {
        let played = args.data.is_empty();
        let label = match args.label {
            Label::Result => "result",
            Label::Search => "search",
            Label::Tables => "tables",
            Label::Exact => "exact",
        };
        let files: Vec<String> = args.data.iter().map(|p| p.display().to_string()).collect();
        let source = if played {
            format!(
                "{} self-play games at depth {}, labels: {label}",
                args.games, args.depth
            )
        } else {
            format!("the positions of {}", files.join(", "))
        };
        DataReport {
            game: args.game.name(),
            data_files: files,
            games: played.then_some(args.games),
            depth: played.then_some(args.depth),
            label: played.then_some(label),
            train_positions: data.train.len(),
            test_positions: data.test.len(),
            source,
        }
    }

    /// The first line of the text report: `to` the positions were used to.
    fn print(&self, to: &str) {
        println!(
            "{}: {}; {} positions to {to}, {} held out",
            self.game, self.source, self.train_positions, self.test_positions
        );
    }
}

/// A network's training report.
#[derive(Serialize)]
struct NetworkReport {
    #[serde(flatten)]
    data: DataReport,
    label_depth: u32,
    model: &'static str,
    epochs: u32,
    /// Seconds the training took (the self-play and labels not counted).
    train_seconds: f64,
    /// Mean squared error in seeds² of the starting linear evaluation,
    /// static, on the held-out positions.
    test_mse_linear: f64,
    /// The same of the trained network, in integers as the engine runs it.
    test_mse_network: f64,
    /// The same, on the training positions.
    train_mse_network: f64,
    /// With `--from-network`: the held-out error of that network.
    #[serde(skip_serializing_if = "Option::is_none")]
    test_mse_from_network: Option<f64>,
    /// The trainer's held-out error after each epoch.
    test_mse_by_epoch: Vec<f64>,
    /// With `--learning-curve`: training positions and the integer
    /// network's held-out error, the whole set last.
    learning_curve: Vec<(usize, f64)>,
}

/// The network of `--from-network`: `game`'s, or bad input.
fn from_network(path: &std::path::Path, game: GameId) -> anyhow::Result<Network> {
    let network = Network::load(path).map_err(|e| bad(format!("--from-network: {e}")))?;
    if network.game != game {
        return Err(bad(format!(
            "--from-network: {} is a network for {}, not {game}",
            path.display(),
            network.game
        )));
    }
    Ok(network)
}

/// `--model network`: trains, writes the network, reports. `linear` is
/// the starting linear evaluation, `played` the one that played and
/// labelled the games (the same, or `--from-network`'s).
fn network(
    args: &Args,
    linear: &Evaluator,
    played: &Evaluator,
    data: &tune::Data,
) -> anyhow::Result<()> {
    use mancala_tools::tune::net;
    let game = args.game;
    let (train, test) = (
        net::examples(game, &data.train),
        net::examples(game, &data.test),
    );
    let config = net::Training {
        epochs: args.epochs,
        seed: args.seed,
        rate: args.rate,
        hidden: args.hidden,
        ..net::Training::default()
    };
    // Every point of the curve is measured the same way: the integer
    // network the engine would run, on the held-out positions.
    let engine_of = |network| linear.clone().with_network(network);
    let mut learning_curve = Vec::new();
    if args.learning_curve {
        for part in [8, 4, 2] {
            let n = train.len() / part;
            let (partial, _) = net::train(&train[..n], &test, &config);
            let engine = engine_of(partial.quantised(game));
            learning_curve.push((n, net::static_mse(game, &engine, &data.test)));
        }
    }
    let started = std::time::Instant::now();
    let (trained, report) = net::train(&train, &test, &config);
    let train_seconds = started.elapsed().as_secs_f64();
    let network = trained.quantised(game);
    network
        .save(&args.out)
        .map_err(|e| bad(format!("--out: {e}")))?;
    let engine = engine_of(network);
    let test_mse_network = net::static_mse(game, &engine, &data.test);
    learning_curve.push((train.len(), test_mse_network));
    let report = NetworkReport {
        data: DataReport::of(args, data),
        label_depth: args.label_depth,
        model: "network",
        epochs: args.epochs,
        train_seconds,
        test_mse_linear: net::static_mse(game, linear, &data.test),
        test_mse_network,
        train_mse_network: net::static_mse(game, &engine, &data.train),
        test_mse_from_network: args
            .from_network
            .as_ref()
            .map(|_| net::static_mse(game, played, &data.test)),
        test_mse_by_epoch: report.test_mse,
        learning_curve,
    };
    if args.json {
        println!("{}", serde_json::to_string(&report)?);
    } else {
        report.data.print("train on");
        println!(
            "held-out mean squared error (seeds²): linear {:.3}, network {:.3} (training positions {:.3}); {} epochs in {:.1} s",
            report.test_mse_linear,
            report.test_mse_network,
            report.train_mse_network,
            report.epochs,
            report.train_seconds
        );
        if let Some(mse) = report.test_mse_from_network {
            println!("held-out mean squared error of the --from-network network: {mse:.3}");
        }
        for (n, mse) in &report.learning_curve {
            println!("  {n:>9} training positions: held-out {mse:.3}");
        }
        println!("network written to {}", args.out.display());
    }
    Ok(())
}
