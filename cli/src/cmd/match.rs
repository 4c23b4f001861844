//! `mancala match`: plays players against each other (a pairing, a round
//! robin or a gauntlet) and reports wins, draws, losses, Elo with its 95%
//! interval, LOS, pentanomial pair counts, draw ratio and, optionally, an
//! SPRT verdict.

use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::PathBuf;

use mancala_engine::pgn;
use mancala_engine::{AnyPosition, GameId, Side};
use serde::Serialize;

use crate::input::{bad, positive, OrBad};
use mancala_engine::files::{self, AtomicFile};
use mancala_tools::interrupt::{self, Interrupted};
use mancala_tools::limits;
use mancala_tools::matchplay::game::{End, Unit, PLY_CAP};
use mancala_tools::matchplay::gamefile::{
    self, game_line, game_records, keep_recorded, seat_names,
};
use mancala_tools::matchplay::runner::{self, Config, PairingStats, Summary, Tally};
use mancala_tools::matchplay::spec::{check_resources, players, unit_for};
use mancala_tools::matchplay::stats::{
    los, penta_estimate, score_to_elo, wdl_estimate, Estimate, Sprt, SprtState,
};

/// Arguments of `mancala match`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// The game.
    #[arg(long, value_name = "NAME")]
    game: GameId,
    /// A player (give two or more): `random`, `greedy`, engine settings
    /// `depth=8,time=50ms,nodes=100000,threads=1,weights=FILE,hash=MB`, or an
    /// external program `cmd=PROGRAM ARGS,time=50ms[,timeout=2s]`; any may
    /// add `name=NAME`.
    #[arg(long = "player", short = 'p', value_name = "SPEC", required = true)]
    players: Vec<String>,
    /// With three or more players: the first plays each of the others
    /// (instead of everyone playing everyone).
    #[arg(long)]
    gauntlet: bool,
    /// Games per pairing (even: each opening is played twice, colours swapped).
    #[arg(long, default_value_t = 100)]
    games: u32,
    /// Games played at the same time.
    #[arg(long, default_value_t = 1)]
    concurrency: u32,
    /// Seed for the opening order and the random players.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Opening file (one position a line); default: the shipped
    /// `positions/openings/GAME.txt`.
    #[arg(long, value_name = "FILE", conflicts_with = "from_start")]
    openings: Option<PathBuf>,
    /// Play every game from the start position instead of openings.
    #[arg(long)]
    from_start: bool,
    /// What one scored result is: a game (a Bosh round), a whole
    /// Bohnenspiel Partie (games until 100 points) or a whole Bosh match
    /// (rounds until a player cannot fill a pit).
    #[arg(long, value_enum, default_value_t = Unit::Game)]
    unit: Unit,
    /// Adjudicate a game still running after this many plies (as a cycle).
    #[arg(long, default_value_t = PLY_CAP as u32)]
    ply_cap: u32,
    /// Stop by the sequential probability ratio test:
    /// `elo0=0 elo1=10 alpha=0.05 beta=0.05` (two players only).
    #[arg(long, num_args = 1..=4, value_name = "KEY=VALUE")]
    sprt: Option<Vec<String>>,
    /// Write every game to this file, one JSON object a line.
    #[arg(long, value_name = "FILE")]
    out: Option<PathBuf>,
    /// Go on with a match an earlier run began (stopped by Ctrl-C or the
    /// end of a session): FILE is that run's `--out`, with the same game,
    /// players, `--seed` and openings. Its whole pairs of games count as
    /// played, the schedule goes on after them, and the new games are
    /// added to FILE (a pair left unfinished is dropped from it and played
    /// again); `--record` is added to, not begun again.
    #[arg(long, value_name = "FILE", conflicts_with = "out")]
    resume: Option<PathBuf>,
    /// Print the summary as JSON on standard output.
    #[arg(long)]
    json: bool,
    /// Also write every game in the record format (docs/records.md), as it
    /// finishes; a Partie's or Bosh match's rounds are games of their own,
    /// their Round tag `N.R`.
    #[arg(long, value_name = "FILE")]
    record: Option<PathBuf>,
    /// Draw the Elo estimate with its interval as the games go by (SVG).
    #[arg(long, value_name = "FILE.svg")]
    plot: Option<PathBuf>,
    /// Print the statistics to stderr every this many games (0: only at the end).
    #[arg(long, default_value_t = 100, value_name = "K")]
    report_every: u32,
}

fn fmt_elo(v: f64) -> String {
    let v = v + 0.0; // no "-0.0"
    if v.is_finite() {
        format!("{v:+.1}")
    } else if v > 0.0 {
        "+inf".into()
    } else {
        "-inf".into()
    }
}

fn finite(v: f64) -> Option<f64> {
    v.is_finite().then_some((v * 100.0).round() / 100.0 + 0.0)
}

/// The human report of one pairing.
fn report(
    first: &str,
    second: &str,
    st: &PairingStats,
    sprt: Option<(&Sprt, SprtState, f64)>,
) -> String {
    let w = &st.wdl;
    let mut out = format!("Results of {first} vs {second} ({} games):\n", w.games());
    let penta = penta_estimate(&st.penta);
    let tri = wdl_estimate(w);
    if let Some(e) = penta.or(tri) {
        let model = if penta.is_some() {
            "pentanomial"
        } else {
            "trinomial"
        };
        if e.elo.is_finite() && !e.has_interval() {
            out += &format!(
                "  Elo: {} (no interval yet: every {} scored the same)\n",
                fmt_elo(e.elo),
                if penta.is_some() { "pair" } else { "game" }
            );
        } else if e.elo.is_finite() {
            out += &format!(
                "  Elo: {} [{}, {}] (95%, {model})\n",
                fmt_elo(e.elo),
                fmt_elo(e.low),
                fmt_elo(e.high)
            );
        } else {
            out += "  Elo: no estimate yet (every point went to one side)\n";
        }
    }
    if let Some(e) = tri.filter(|e| e.elo.is_finite() && e.has_interval()) {
        out += &format!(
            "  Elo (trinomial): {} [{}, {}]\n",
            fmt_elo(e.elo),
            fmt_elo(e.low),
            fmt_elo(e.high)
        );
    }
    out += &format!(
        "  Wins: {}, Draws: {}, Losses: {}, Score: {:.1}/{} ({:.2} %)\n",
        w.wins,
        w.draws,
        w.losses,
        w.wins as f64 + 0.5 * w.draws as f64,
        w.games(),
        100.0 * w.score().unwrap_or(0.5)
    );
    out += &format!(
        "  LOS: {:.2} %, Draw ratio: {:.2} %\n",
        100.0 * los(w),
        100.0 * w.draw_ratio().unwrap_or(0.0)
    );
    let p = st.penta.0;
    out += &format!(
        "  Pairs (0, ½, 1, 1½, 2 points): [{}, {}, {}, {}, {}]\n",
        p[0], p[1], p[2], p[3], p[4]
    );
    if st.forfeits != [0, 0] || st.cycles > 0 {
        out += &format!(
            "  Forfeits: {first} {}, {second} {}; ended by cycle or ply cap: {}\n",
            st.forfeits[0], st.forfeits[1], st.cycles
        );
    }
    if let Some((s, state, llr)) = sprt {
        let verdict = match state {
            SprtState::H1 => "H1 accepted (upper bound crossed)",
            SprtState::H0 => "H0 accepted (lower bound crossed)",
            SprtState::Continue => "no bound crossed",
        };
        out += &format!(
            "  SPRT (elo0={}, elo1={}, alpha={}, beta={}): LLR {:.2} [{:.2}, {:.2}]: {verdict}\n",
            s.elo0,
            s.elo1,
            s.alpha,
            s.beta,
            llr,
            s.lower(),
            s.upper()
        );
    }
    out
}

#[derive(Serialize)]
struct JsonPairing<'a> {
    first: &'a str,
    second: &'a str,
    games: u32,
    wins: u32,
    draws: u32,
    losses: u32,
    score: Option<f64>,
    elo: Option<f64>,
    elo_low: Option<f64>,
    elo_high: Option<f64>,
    elo_trinomial: [Option<f64>; 3],
    los: f64,
    draw_ratio: Option<f64>,
    pentanomial: [u32; 5],
    forfeits: [u32; 2],
    cycles: u32,
}

#[derive(Serialize)]
struct JsonSprt {
    elo0: f64,
    elo1: f64,
    alpha: f64,
    beta: f64,
    llr: f64,
    llr_trinomial: f64,
    lower: f64,
    upper: f64,
    result: &'static str,
}

#[derive(Serialize)]
struct JsonStanding<'a> {
    name: &'a str,
    games: u32,
    score: Option<f64>,
    elo: Option<f64>,
}

#[derive(Serialize)]
struct JsonSummary<'a> {
    game: &'static str,
    unit: &'static str,
    games: u32,
    discarded: u32,
    seed: u64,
    openings: usize,
    pairings: Vec<JsonPairing<'a>>,
    standings: Vec<JsonStanding<'a>>,
    sprt: Option<JsonSprt>,
    /// Whether Ctrl-C stopped the match (the games counted are reported).
    interrupted: bool,
}

fn json_pairing<'a>(first: &'a str, second: &'a str, st: &PairingStats) -> JsonPairing<'a> {
    let w = &st.wdl;
    let e: Option<Estimate> = penta_estimate(&st.penta).or(wdl_estimate(w));
    let t = wdl_estimate(w);
    JsonPairing {
        first,
        second,
        games: w.games(),
        wins: w.wins,
        draws: w.draws,
        losses: w.losses,
        score: w.score(),
        elo: e.and_then(|e| finite(e.elo)),
        elo_low: e.and_then(|e| finite(e.low)),
        elo_high: e.and_then(|e| finite(e.high)),
        elo_trinomial: [
            t.and_then(|e| finite(e.elo)),
            t.and_then(|e| finite(e.low)),
            t.and_then(|e| finite(e.high)),
        ],
        los: los(w),
        draw_ratio: w.draw_ratio(),
        pentanomial: st.penta.0,
        forfeits: st.forfeits,
        cycles: st.cycles,
    }
}

/// The standings table of the JSON summary.
fn standings<'a>(config: &'a Config, stats: &[PairingStats]) -> Vec<JsonStanding<'a>> {
    runner::standings(config, stats)
        .into_iter()
        .map(|s| JsonStanding {
            name: &config.players[s.player].name,
            games: s.games,
            score: s.score,
            elo: s.score.and_then(|v| finite(score_to_elo(v))),
        })
        .collect()
}

pub fn run(args: Args) -> anyhow::Result<()> {
    let config = configure(&args)?;
    let earlier = match &args.resume {
        Some(path) => {
            let fail = |what: String| bad(format!("--resume {}: {what}", path.display()));
            let text = files::read_text(path).map_err(|e| fail(e.to_string()))?;
            Some(gamefile::read_back(&config, &text).map_err(|e| fail(e.to_string()))?)
        }
        None => None,
    };
    if let (Some(record), Some(e)) = (&args.record, &earlier) {
        keep_recorded(record, e.games)?;
    }
    let mut outputs = Outputs::open(&args, earlier.as_ref().map(|e| &e.kept[..]))?;
    let tallies = earlier.map_or_else(Vec::new, |e| e.tallies);
    let (summary, write_error) = play(&config, &tallies, &mut outputs, args.report_every)?;
    // The summary is printed whatever happens to the files; their errors
    // come after it.
    let mut file_error = write_error.map(|e| format!("--out: {e}"));
    if let Some(plot) = outputs.plot {
        let panels: Vec<(String, &PairingStats)> = summary
            .stats
            .iter()
            .enumerate()
            .map(|(k, st)| {
                let (a, b) = pairing_names(&config, k);
                (format!("{a} vs {b}"), st)
            })
            .collect();
        let svg = mancala_tools::matchplay::plot::svg(&panels, config.sprt.as_ref());
        if let Err(e) = plot.commit(|w| w.write_all(svg.as_bytes())) {
            file_error.get_or_insert(format!("--plot: {e}"));
        }
    }
    if args.json {
        print_json(args.game, &config, &summary)?;
    } else {
        print_text(&config, &summary);
    }
    match file_error {
        Some(e) => Err(anyhow::anyhow!(e)),
        None if summary.interrupted => Err(Interrupted.into()),
        None => Ok(()),
    }
}

/// The match the arguments ask for, every player built and started once
/// (a player that cannot start is bad input before any game).
fn configure(args: &Args) -> anyhow::Result<Config> {
    let game = args.game;
    let specs = players(&args.players)?;
    let games = positive("games", args.games)?;
    if games % 2 == 1 {
        return Err(bad(format!(
            "--games {games}: must be even (each opening is played twice, colours swapped)"
        )));
    }
    if games > 10_000_000 {
        return Err(bad(format!("--games {games}: at most 10,000,000")));
    }
    let concurrency = limits::threads("--concurrency", args.concurrency as u64).or_bad()? as u32;
    check_resources(&specs, concurrency)?;
    let ply_cap = positive("ply-cap", args.ply_cap)?;
    let unit = unit_for(game, args.unit)?;
    let pairings: Vec<(usize, usize)> = if args.gauntlet {
        (1..specs.len()).map(|b| (0, b)).collect()
    } else {
        (0..specs.len())
            .flat_map(|a| (a + 1..specs.len()).map(move |b| (a, b)))
            .collect()
    };
    let sprt = match &args.sprt {
        Some(words) => {
            if pairings.len() != 1 {
                return Err(bad("--sprt: only for a match between two players"));
            }
            Some(Sprt::parse(words).map_err(|e| bad(format!("--sprt: {e}")))?)
        }
        None => None,
    };
    let openings = openings_of(args)?;
    // Every player must build and start before the match does.
    for spec in &specs {
        let mut player = spec.build().map_err(|e| bad(e.to_string()))?;
        player.new_game(0).map_err(|e| {
            // A signal while an engine starts ends the match as a signal
            // does (128 + N), not as an engine that failed to answer.
            if interrupt::requested() {
                Interrupted.into()
            } else {
                bad(format!("player '{}': {e}", spec.name))
            }
        })?;
    }
    Ok(Config {
        unit,
        players: specs,
        pairings,
        games,
        concurrency: concurrency as usize,
        seed: args.seed,
        ply_cap: ply_cap as usize,
        openings,
        sprt,
    })
}

/// The openings: the start alone, a file's, or the game's shipped ones.
fn openings_of(args: &Args) -> anyhow::Result<Vec<AnyPosition>> {
    let game = args.game;
    Ok(if args.from_start {
        vec![AnyPosition::start(game)]
    } else {
        match &args.openings {
            Some(path) => {
                let text = mancala_engine::files::read_text(path)
                    .map_err(|e| bad(format!("--openings {}: {e}", path.display())))?;
                files::parse_openings(&text, game)
                    .map_err(|e| bad(format!("--openings {}: {e}", path.display())))?
            }
            None => files::parse_openings(files::shipped_openings(game), game)
                .map_err(|e| bad(format!("shipped openings: {e}")))?,
        }
    })
}

/// The files a match writes, opened before the first game: a path that
/// cannot be written is found now, not after the match.
struct Outputs {
    plot: Option<AtomicFile>,
    record: Option<BufWriter<File>>,
    out: Option<BufWriter<File>>,
}

impl Outputs {
    /// Opens the outputs; with `--resume`, `kept` (the earlier games that
    /// count) replaces the resumed file, which the new games are added to,
    /// and `--record` is added to as well.
    fn open(args: &Args, kept: Option<&str>) -> anyhow::Result<Self> {
        let plot = args
            .plot
            .as_deref()
            .map(AtomicFile::create)
            .transpose()
            .map_err(|e| {
                bad(format!(
                    "--plot {}: {e}",
                    args.plot.as_ref().expect("given").display()
                ))
            })?;
        let append = kept.is_some();
        let create = |option: &str, path: &Option<PathBuf>| -> anyhow::Result<_> {
            path.as_ref()
                .map(|p| {
                    let mut options = std::fs::OpenOptions::new();
                    options.create(true);
                    if append {
                        options.append(true);
                    } else {
                        options.write(true).truncate(true);
                    }
                    options
                        .open(p)
                        .map(BufWriter::new)
                        .map_err(|e| bad(format!("{option} {}: {e}", p.display())))
                })
                .transpose()
        };
        let out = match (&args.resume, kept) {
            (Some(path), Some(kept)) => {
                files::write_file(path, kept.as_bytes())
                    .map_err(|e| bad(format!("--resume {}: {e}", path.display())))?;
                create("--resume", &args.resume)?
            }
            _ => create("--out", &args.out)?,
        };
        Ok(Outputs {
            plot,
            record: create("--record", &args.record)?,
            out,
        })
    }
}

/// Plays the match, a line on stderr a game (and the standings every
/// `report_every` games), each game written to the outputs as it ends: the
/// summary, and the first error writing them.
fn play(
    config: &Config,
    earlier: &[Tally],
    outputs: &mut Outputs,
    report_every: u32,
) -> anyhow::Result<(Summary, Option<std::io::Error>)> {
    let total = config.games as u64 * config.pairings.len() as u64;
    let bar = mancala_tools::progress::bar("match", total, "games");
    bar.inc(earlier.len() as u64);
    let names = |k: usize| pairing_names(config, k);
    let mut write_error = None;
    let mut counted = 0u32;
    let date = pgn::today();
    // Ctrl-C (installed in main): no new games; the summary of those
    // counted is printed.
    let summary: Summary = runner::run(config, earlier, |f, stats, _| {
        counted += 1;
        if let Some(out) = outputs.out.as_mut() {
            if let Err(e) = writeln!(out, "{}", game_line(config, f)).and_then(|_| out.flush()) {
                write_error.get_or_insert(e);
            }
        }
        if let Some(rec) = outputs.record.as_mut() {
            // Under the file's lock: another run appending to the same
            // record adds whole games between ours, never into one.
            let text = pgn::write(&game_records(config, f, &date));
            let written = rec.get_ref().lock().and_then(|()| {
                let r = writeln!(rec, "{text}").and_then(|_| rec.flush());
                let _ = rec.get_ref().unlock();
                r
            });
            if let Err(e) = written {
                write_error.get_or_insert(e);
            }
        }
        let (south, north) = seat_names(config, &f.job);
        let (a, b) = names(f.job.pairing);
        let w = &stats[f.job.pairing].wdl;
        let result = match f.outcome.winner {
            Some(Side::South) => "1-0",
            Some(Side::North) => "0-1",
            None => "½-½",
        };
        let how = match &f.outcome.end {
            End::Forfeit { seat, fault } => format!(" ({} {fault})", seat.name()),
            End::Rules => String::new(),
            other => format!(" ({})", other.name()),
        };
        let points = match &f.outcome.end {
            End::Forfeit { .. } => String::new(),
            _ => format!(" {}-{}", f.outcome.points[0], f.outcome.points[1]),
        };
        let line = format!(
            "game {} {south} vs {north}: {result}{points}{how}  | {a} vs {b}: {}-{}-{} [{:.3}]",
            f.job.number,
            w.wins,
            w.losses,
            w.draws,
            w.score().unwrap_or(0.5)
        );
        bar.suspend(|| eprintln!("{line}"));
        bar.inc(1);
        if report_every > 0 && counted.is_multiple_of(report_every) {
            let mut text = String::new();
            for (k, st) in stats.iter().enumerate() {
                let (a, b) = names(k);
                let sprt = config.sprt.as_ref().map(|s| {
                    let llr = s.llr_penta(&st.penta);
                    (s, s.state(llr), llr)
                });
                text += &report(a, b, st, sprt);
            }
            bar.suspend(|| eprint!("{text}"));
        }
    })
    .map_err(|e| bad(e.to_string()))?;
    bar.finish_and_clear();
    Ok((summary, write_error))
}

/// The two players of pairing `k`.
fn pairing_names(config: &Config, k: usize) -> (&str, &str) {
    let (a, b) = config.pairings[k];
    (
        config.players[a].name.as_str(),
        config.players[b].name.as_str(),
    )
}

/// The summary as one JSON object.
fn print_json(game: GameId, config: &Config, summary: &Summary) -> anyhow::Result<()> {
    let names = |k: usize| pairing_names(config, k);
    let js = JsonSummary {
        game: game.name(),
        unit: config.unit.name(),
        games: summary.games,
        discarded: summary.discarded,
        interrupted: summary.interrupted,
        seed: config.seed,
        openings: config.openings.len(),
        pairings: summary
            .stats
            .iter()
            .enumerate()
            .map(|(k, st)| {
                let (a, b) = names(k);
                json_pairing(a, b, st)
            })
            .collect(),
        standings: standings(config, &summary.stats),
        sprt: config
            .sprt
            .as_ref()
            .zip(summary.sprt)
            .map(|(s, (state, llr))| JsonSprt {
                llr_trinomial: s.llr_wdl(&summary.stats[0].wdl),
                elo0: s.elo0,
                elo1: s.elo1,
                alpha: s.alpha,
                beta: s.beta,
                llr,
                lower: s.lower(),
                upper: s.upper(),
                result: match state {
                    SprtState::H0 => "H0",
                    SprtState::H1 => "H1",
                    SprtState::Continue => "continue",
                },
            }),
    };
    println!("{}", serde_json::to_string(&js)?);
    Ok(())
}

/// The summary as text: each pairing's report, the standings of three or
/// more players, the games cut short.
fn print_text(config: &Config, summary: &Summary) {
    let names = |k: usize| pairing_names(config, k);
    for (k, st) in summary.stats.iter().enumerate() {
        let (a, b) = names(k);
        let sprt = config
            .sprt
            .as_ref()
            .zip(summary.sprt)
            .map(|(s, (state, llr))| (s, state, llr));
        print!("{}", report(a, b, st, sprt));
    }
    if config.players.len() > 2 {
        println!("Standings:");
        for (rank, s) in standings(config, &summary.stats).iter().enumerate() {
            println!(
                "  {:>2}. {:<24} {:>6} games  {:>6.2} %  {}",
                rank + 1,
                s.name,
                s.games,
                100.0 * s.score.unwrap_or(0.5),
                s.elo.map_or("-".into(), |e| format!("{e:+.1} Elo"))
            );
        }
    }
    if summary.discarded > 0 {
        println!(
            "({} cut short when the match stopped {} not counted)",
            match summary.discarded {
                1 => "1 game".to_string(),
                n => format!("{n} games"),
            },
            if summary.discarded == 1 {
                "was"
            } else {
                "were"
            }
        );
    }
}
