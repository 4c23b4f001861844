//! `mancala solve`: the exact value of a position (docs/protocol.md), with the
//! tablebases when they are there; `--check FILE` re-proves a puzzle file.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use mancala_engine::files::{parse_puzzles, Puzzle};
use mancala_engine::solve::{ledger, Bounds, Solution, Solver};
use mancala_engine::{AnyPosition, Move};
use mancala_tools::solving::{
    add_five_pit_tables, add_small_tables, checkpoint_path, solve_any, Proof, ProofLimits, Saving,
    Solved,
};
use mancala_tools::tables::OpenTables;
use serde::Serialize;

use crate::options::TableArgs;

use mancala_tools::interrupt::{self, Interrupted};
use mancala_tools::limits;
use mancala_tools::protocol::SolveReport;
use mancala_tools::text;

use crate::input::{bad, GameArgs, OrBad};

/// Arguments of `mancala solve`.
#[derive(clap::Args, Debug)]
pub struct Args {
    #[command(flatten)]
    given: GameArgs,
    /// One JSON object: margin, outcome, best, pv, nodes, seconds.
    #[arg(long)]
    json: bool,
    #[command(flatten)]
    tables: TableArgs,
    /// With a Kalah position of five pits a row (`--pits 5`): first build
    /// that board's endgame tables to K seeds in memory (K up to 32; the
    /// table files hold the six-pit board only).
    #[arg(long, value_name = "K", conflicts_with_all = ["check", "bosh_match", "ledger"])]
    narrow_tables: Option<u32>,
    /// Transposition table size in MiB.
    #[arg(long, default_value_t = 64, value_name = "MIB")]
    hash: usize,
    /// Stop the proof after this long (`500ms`, `30s`, `2h`; a bare number
    /// is milliseconds); it then reports the bounds it proved. Ctrl-C does
    /// the same.
    #[arg(long, value_name = "TIME", value_parser = crate::input::time_arg)]
    time: Option<std::time::Duration>,
    /// Save the proof's state to FILE (atomically, every
    /// --checkpoint-every and when it stops), and if FILE holds a
    /// checkpoint of this position, go on from it: its table replaces
    /// --hash's.
    #[arg(long, value_name = "FILE")]
    checkpoint: Option<PathBuf>,
    /// How often a --checkpoint is written.
    #[arg(long, value_name = "TIME", default_value = "10m", value_parser = crate::input::time_arg)]
    checkpoint_every: Duration,
    /// Threads working on the proof (default: every core): one proof, the
    /// children of its nodes shared out among them where it branches.
    /// `--threads 1` repeats a proof exactly.
    #[arg(long)]
    threads: Option<u32>,
    /// Stop the proof after visiting this many positions in this run (a
    /// proof resumed from a --checkpoint counts from the resume; its JSON
    /// `nodes` counts the whole proof).
    #[arg(long, value_name = "N")]
    nodes: Option<u64>,
    /// Re-solve every puzzle of FILE (one `POSITION | margin M | best B,…`
    /// a line) and check its margin and best moves; exit 1 on a mismatch.
    #[arg(long, value_name = "FILE", conflicts_with_all = ["free", "game", "moves"])]
    check: Option<PathBuf>,
    /// Prove the value of a whole Bosh match: every round start's value,
    /// and the match under optimal play from round 1 (docs/solved.md).
    #[arg(long, conflicts_with_all = ["free", "game", "moves", "check", "checkpoint", "nodes", "time"])]
    bosh_match: bool,
    /// Work on the proof in pieces kept in the ledger FILE (started from
    /// the position given if FILE does not exist): take needed pieces,
    /// prove them, write each result back; any number of processes may
    /// share FILE (docs/solved.md, "Proving in pieces").
    #[arg(long, value_name = "FILE", conflicts_with_all = ["check", "bosh_match", "checkpoint", "moves"])]
    ledger: Option<PathBuf>,
    /// With --ledger, starting one: the frontier's depth in plies.
    #[arg(long, default_value_t = 4, value_name = "PLIES", requires = "ledger")]
    depth: u32,
    /// With --ledger: each piece's time budget; a piece that does not
    /// finish within it is split into its children.
    #[arg(long, value_name = "TIME", value_parser = crate::input::time_arg, requires = "ledger")]
    piece_time: Option<Duration>,
    /// With --ledger: stop after this many proofs of pieces.
    #[arg(long, value_name = "N", requires = "ledger")]
    pieces: Option<u64>,
    /// With --ledger: print what the ledger has proven, do no work.
    #[arg(long, requires = "ledger")]
    status: bool,
    /// With --ledger: prove N open pieces picked at random (not recorded),
    /// each within --piece-time, and estimate the whole proof's cost.
    #[arg(long, value_name = "N", requires = "ledger")]
    estimate: Option<usize>,
    /// With --estimate: go this many random plies below each piece picked
    /// (the cost of deeper pieces) [default: 0].
    #[arg(long, value_name = "PLIES", requires = "estimate")]
    estimate_plies: Option<u32>,
    /// With --estimate: the seed of the random picks.
    #[arg(long, default_value_t = 1, requires = "estimate")]
    seed: u64,
    /// With --ledger: work it as one rank of an MPI job, `mpirun -np N
    /// mancala solve --ledger FILE --mpi …`: rank 0 keeps FILE and hands
    /// out pieces, every rank proves them with its own --dir, --hash and
    /// --threads (docs/solved.md, "On a cluster"). Needs a binary built
    /// with `--features mpi`.
    #[arg(long, requires = "ledger", conflicts_with_all = ["status", "estimate"])]
    mpi: bool,
}

pub fn run(args: Args) -> anyhow::Result<()> {
    limits::hash_mb("--hash", args.hash as u64).or_bad()?;
    if let Some(file) = &args.check {
        return check(file, &args);
    }
    if args.bosh_match {
        return bosh_match(&args);
    }
    if let Some(file) = &args.ledger {
        return work_ledger(file, &args);
    }
    let (pos, rest) = args.given.position.resolve()?;
    if let Some(extra) = rest.first() {
        return Err(bad(format!("unexpected argument '{extra}'")));
    }
    let moves = args.given.moves.after(&pos)?;
    let mut tables = args.tables.open(&[pos.game()]);
    if let Some(k) = args.narrow_tables {
        add_five_pit_tables(&mut tables, &pos, k)?;
    }
    if !args.tables.no_tables {
        let reached = moves
            .iter()
            .try_fold(pos, |p, &mv| p.try_play(mv))
            .or_bad()?;
        add_small_tables(&mut tables, &reached);
    }
    let limits = proof_limits(&args)?;
    if let Some(path) = &args.checkpoint {
        checkpoint_path(path)?;
    }
    let saving = args.checkpoint.as_ref().map(|path| Saving {
        path: path.clone(),
        every: args.checkpoint_every,
    });
    let threads = limits.threads;
    let Solved(pos, proof, seconds, unsaved) =
        solve_any(pos, &moves, &tables, args.hash, limits, saving.as_ref())?;
    let (s, bounds) = match proof {
        Proof::Solved(s) => (s, None),
        Proof::Bounded(b, nodes, found) => {
            let b = mancala_tools::protocol::within_seeds(&pos, b);
            (
                Solution {
                    margin: b.guess,
                    // CLI.md: the moves that reach the value found so far.
                    best: found.into_iter().collect(),
                    pv: Vec::new(),
                    nodes,
                    from_tables: false,
                },
                Some(b),
            )
        }
    };
    if args.json {
        let report = SolveReport::new(&pos, &s, bounds, seconds, threads);
        println!("{}", serde_json::to_string(&report)?);
    } else {
        print_solution(&pos, &s, bounds, seconds);
    }
    if let Some(e) = unsaved {
        return Err(e);
    }
    if interrupt::requested() {
        return Err(Interrupted.into());
    }
    Ok(())
}

/// The limits of `args`, checked: a deadline, a budget of positions, the
/// threads.
fn proof_limits(args: &Args) -> anyhow::Result<ProofLimits> {
    Ok(ProofLimits {
        deadline: args.time.and_then(|t| Instant::now().checked_add(t)),
        nodes: args
            .nodes
            .map(|n| limits::count("--nodes", n, 1, u64::MAX, "").or_bad())
            .transpose()?
            .unwrap_or(u64::MAX),
        threads: limits::threads_or_cores("--threads", args.threads).or_bad()?,
    })
}

/// A proof's result as text: the position, its value (or the bounds a
/// stopped proof reached), the best moves and line, the positions and time.
fn print_solution(pos: &AnyPosition, s: &Solution, bounds: Option<Bounds>, seconds: f64) {
    let pits = |m: &[mancala_engine::Move]| m.iter().map(|m| m.pit()).collect::<Vec<_>>();
    let list = |m: &[u8]| {
        m.iter()
            .map(|p| p.to_string())
            .collect::<Vec<_>>()
            .join(" ")
    };
    println!("position {pos}");
    let me = pos.side_to_move();
    match bounds {
        Some(b) => {
            let why = if interrupt::requested() {
                "interrupted"
            } else {
                "a limit stopped the proof"
            };
            if b.lower == b.upper {
                println!(
                    "value    {} (margin {:+} for {}, to move; {why} before every best move was proven)",
                    text::proven(me, b.lower as i64),
                    b.lower,
                    me.title()
                );
            } else {
                println!(
                    "value    not proven ({why}): {}'s margin is between {:+} and {:+} seeds",
                    me.title(),
                    b.lower,
                    b.upper,
                );
            }
            if s.best.is_empty() {
                println!("best     none found yet");
            } else {
                println!(
                    "best     {} (the best found so far, {:+})",
                    list(&pits(&s.best)),
                    s.margin
                );
            }
        }
        None => {
            println!(
                "value    {}{} (margin {:+} for {}, to move)",
                text::proven(me, s.margin as i64),
                if s.from_tables { " by the tables" } else { "" },
                s.margin,
                me.title()
            );
            println!("best     {}", list(&pits(&s.best)));
            println!("pv       {}", list(&pits(&s.pv)));
        }
    }
    println!("nodes    {}  time {:.3} s", s.nodes, seconds);
}

/// `--ledger FILE`: [`mancala_tools::ledger`].
fn work_ledger(file: &Path, args: &Args) -> anyhow::Result<()> {
    let given = &args.given.position;
    let root = if given.game.is_some() || !given.free.is_empty() {
        let (pos, rest) = given.resolve()?;
        if let Some(extra) = rest.first() {
            return Err(bad(format!("unexpected argument '{extra}'")));
        }
        Some(pos)
    } else {
        None
    };
    let depth = u32::try_from(
        limits::count(
            "--depth",
            args.depth as u64,
            1,
            ledger::MAX_DEPTH as u64,
            "",
        )
        .or_bad()?,
    )
    .expect("in range");
    let plan = mancala_tools::ledger::Plan {
        file: file.to_path_buf(),
        root,
        depth,
        hash: args.hash,
        threads: limits::threads_or_cores("--threads", args.threads).or_bad()?,
        piece_time: args.piece_time,
        piece_nodes: args
            .nodes
            .map(|n| limits::count("--nodes", n, 1, u64::MAX, "").or_bad())
            .transpose()?
            .unwrap_or(u64::MAX),
        deadline: args.time.and_then(|t| Instant::now().checked_add(t)),
        pieces: args.pieces.unwrap_or(u64::MAX),
        status: args.status,
        estimate: args
            .estimate
            .map(|n| {
                limits::count("--estimate", n as u64, 1, 100_000, "")
                    .or_bad()
                    .map(|n| n as usize)
            })
            .transpose()?
            .map(|n| (n, args.estimate_plies.unwrap_or(0), args.seed)),
        json: args.json,
    };
    let open = |games: &[mancala_engine::GameId]| args.tables.open(games);
    if args.mpi {
        ledger_by_mpi(&plan, &open)
    } else {
        mancala_tools::ledger::run(&plan, &open)
    }
}

/// `solve --ledger --mpi`: this process's part of the job.
#[cfg(feature = "mpi")]
fn ledger_by_mpi(plan: &mancala_tools::ledger::Plan, open: OpenTables<'_>) -> anyhow::Result<()> {
    crate::cluster::with_world(|world| mancala_tools::ledger::run_rank(plan, open, world))
}

/// A binary built without MPI refuses `--mpi`.
#[cfg(not(feature = "mpi"))]
fn ledger_by_mpi(_: &mancala_tools::ledger::Plan, _: OpenTables<'_>) -> anyhow::Result<()> {
    Err(bad(
        "--mpi: this mancala was built without MPI; build it with \
         `cargo build --release --features mpi` (docs/solved.md, \"On a cluster\")",
    ))
}

/// `--check FILE`: re-solves every puzzle.
fn check(file: &Path, args: &Args) -> anyhow::Result<()> {
    let text = mancala_engine::files::read_text(file)
        .map_err(|e| bad(format!("cannot read {}: {e}", file.display())))?;
    let puzzles = parse_puzzles(&text).map_err(|e| bad(format!("{}: {e}", file.display())))?;
    let games = crate::options::games_of(puzzles.iter().map(|p| p.position));
    let tables = args.tables.open(&games);
    let (mut failed, mut slowest, mut total) = (0, 0.0f64, 0.0f64);
    for p in &puzzles {
        let unlimited = ProofLimits {
            deadline: None,
            nodes: u64::MAX,
            threads: 1,
        };
        let Solved(_, proof, secs, _) =
            solve_any(p.position, &[], &tables, args.hash, unlimited, None)?;
        let Proof::Solved(s) = proof else {
            return Err(Interrupted.into());
        };
        total += secs;
        slowest = slowest.max(secs);
        failed += report_check(p, &s, secs) as usize;
    }
    println!(
        "{} puzzles, {} proved, {failed} failed; {:.3} s in all, slowest {:.2} ms",
        puzzles.len(),
        puzzles.len() - failed,
        total,
        slowest * 1e3
    );
    if failed > 0 {
        anyhow::bail!("{failed} puzzle(s) did not check");
    }
    Ok(())
}

/// Prints a failed check; returns whether it failed.
fn report_check(p: &Puzzle, s: &Solution, secs: f64) -> bool {
    let ok = s.margin == p.margin && s.best == p.best;
    if !ok {
        let show = |m: &[Move]| m.iter().map(|m| m.pit()).collect::<Vec<_>>();
        println!(
            "{}: file says margin {} best {:?}, solved margin {} best {:?} ({:.2} ms)",
            p.position,
            p.margin,
            show(&p.best),
            s.margin,
            show(&s.best),
            secs * 1e3
        );
    }
    !ok
}

#[derive(Serialize)]
struct MatchRound {
    round: usize,
    starter: &'static str,
    pools: [u8; 2],
    start: String,
    finish: [u8; 2],
    best: Vec<u8>,
}

#[derive(Serialize)]
struct MatchReport {
    outcome: &'static str,
    rounds: usize,
    proven: bool,
    line: Vec<MatchRound>,
    nodes: u64,
    seconds: f64,
}

/// `solve --bosh-match`: [`mancala_engine::solve::bosh_match`].
fn bosh_match(args: &Args) -> anyhow::Result<()> {
    use mancala_engine::solve::bosh_match::{solve_match, MatchOutcome};
    use mancala_engine::tablebase::NoTables;
    let started = Instant::now();
    let mut solver = Solver::try_new(&NoTables, args.hash).or_bad()?;
    let proof = solve_match(&mut solver, &|_| interrupt::requested()).ok_or(Interrupted)?;
    let seconds = started.elapsed().as_secs_f64();
    let proven = proof.gap.is_none();
    let line: Vec<MatchRound> = proof
        .line
        .iter()
        .enumerate()
        .map(|(i, r)| MatchRound {
            round: i + 1,
            starter: r.starter.name(),
            pools: [r.south_pool, 40 - r.south_pool],
            start: r.start.to_string(),
            finish: [r.final_south_pool, 40 - r.final_south_pool],
            best: r.best.iter().map(|m| m.pit()).collect(),
        })
        .collect();
    let (outcome, verdict) = match proof.outcome {
        MatchOutcome::Win { winner, rounds } => (
            winner.name(),
            format!(
                "{} wins the match after {rounds} round{}: {} cannot fill a pit",
                winner.title(),
                if rounds == 1 { "" } else { "s" },
                (!winner).title()
            ),
        ),
        MatchOutcome::Endless { from, again } => (
            "endless",
            format!("the match never ends: round {again} starts as round {from} did"),
        ),
    };
    let nodes = solver.nodes();
    if args.json {
        let report = MatchReport {
            outcome,
            rounds: line.len(),
            proven,
            line,
            nodes,
            seconds,
        };
        println!("{}", serde_json::to_string(&report)?);
        return Ok(());
    }
    println!("round  starter  pools  start                               best   after");
    for r in &line {
        let best: Vec<String> = r.best.iter().map(|p| p.to_string()).collect();
        println!(
            "{:>5}  {:<7}  {:>2}-{:<2}  {:<34}  {:<5}  {}-{}",
            r.round,
            r.starter,
            r.pools[0],
            r.pools[1],
            r.start,
            best.join(" "),
            r.finish[0],
            r.finish[1]
        );
    }
    match proof.gap {
        None => println!("value    {verdict}, proven"),
        Some((round, a)) => println!(
            "value    not proven: under round-by-round best play {verdict}, but from South's pool {a} round {round} would end past the line (docs/solved.md)"
        ),
    }
    println!(
        "rounds   {} round starts proven (South's pool 4 to 36, either starter)",
        proof.rounds.len()
    );
    println!("nodes    {nodes}  time {seconds:.3} s");
    Ok(())
}
