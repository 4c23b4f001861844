//! `mancala solve`: the exact value of a position (docs/protocol.md), with the
//! tablebases when they are there; `--check FILE` re-proves a puzzle file.

use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use indicatif::ProgressBar;

use mancala_engine::solve::{self, checkpoint, ledger, Bounds, Progress, Solution, Solver};
use mancala_engine::tablebase::{
    layer_size, try_build_in_memory, BoardValues, FivePitTables, FivePits, NoTables, TableSet,
    TablebaseRules,
};
use mancala_engine::tt::TranspositionTable;

use crate::options::TableArgs;
use mancala_engine::files::{parse_puzzles, Puzzle};
use mancala_engine::{
    with_position, with_table_rules, AnyPosition, GameRecord, Kalah, KalahEmpty, Move, Position,
    Rules, Side, Status,
};
use mancala_tools::ledger::OpenTables;
use mancala_tools::protocol::replay;
use serde::Serialize;

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

/// When a proof must stop.
#[derive(Clone, Copy)]
struct ProofLimits {
    deadline: Option<Instant>,
    nodes: u64,
    /// Threads working on the proof (the solver and its helpers).
    threads: usize,
}

/// A proof's end: the solution, or the bounds proved before a limit.
enum Proof {
    Solved(Solution),
    Bounded(Bounds, u64, Option<Move>),
}

/// The progress of a proof on stderr: a live line on a terminal; else,
/// for a log, a line at most every [`LOG_EVERY`] once a proof has run that
/// long.
struct ProgressShown {
    bar: Option<ProgressBar>,
    started: Instant,
    /// The side to move, whose margin is shown.
    side: Side,
    /// When the last log line was written (or the live line changed): a
    /// proof's threads each update it in turn.
    logged: Mutex<Instant>,
}

/// How often a proof's progress goes to a log.
const LOG_EVERY: Duration = Duration::from_secs(10);

impl ProgressShown {
    fn new(started: Instant, side: Side) -> Self {
        let bar = std::io::stderr()
            .is_terminal()
            .then(|| mancala_tools::progress::spinner("solve"));
        ProgressShown {
            bar,
            started,
            side,
            logged: Mutex::new(started),
        }
    }

    fn line(side: Side, p: &Progress, secs: f64) -> String {
        format!(
            "{} positions ({:.1} M/s), {}'s margin between {:+} and {:+}, {}/{} root moves settled",
            p.nodes,
            p.nodes as f64 / secs.max(1e-9) / 1e6,
            side.title(),
            p.bounds.lower,
            p.bounds.upper,
            p.settled,
            p.moves
        )
    }

    fn update(&self, p: &Progress) {
        let now = Instant::now();
        let secs = (now - self.started).as_secs_f64();
        let mut logged = self.logged.lock().unwrap_or_else(|e| e.into_inner());
        match &self.bar {
            Some(bar) if now - *logged >= Duration::from_millis(100) => {
                *logged = now;
                bar.set_message(Self::line(self.side, p, secs));
            }
            Some(_) => {}
            None if now - *logged >= LOG_EVERY => {
                *logged = now;
                eprintln!("solve: {:.0} s, {}", secs, Self::line(self.side, p, secs));
            }
            None => {}
        }
    }

    fn finish(&self) {
        if let Some(bar) = &self.bar {
            bar.finish_and_clear();
        }
    }
}

/// The checkpoint header of a proof of `game`'s position, before any
/// progress.
fn proof_header<R: Rules>(game: &GameRecord<R>) -> checkpoint::Header {
    checkpoint::Header {
        position: game.start().to_string(),
        moves: game.moves().iter().map(|m| m.pit()).collect(),
        bounds: Bounds {
            lower: -(R::TOTAL as i32),
            upper: R::TOTAL as i32,
            guess: 0,
        },
        nodes: 0,
        seconds: 0.0,
        bounds_checked: true,
    }
}

/// A proof's checkpoints as it runs (`--checkpoint`): written every
/// `saving.every` from its stop (the threads of a proof ask it in turn:
/// one saves at a time), and once at the end; the first failure ends the
/// proof.
struct Saver<'s> {
    saving: Option<&'s Saving>,
    header: checkpoint::Header,
    /// The nodes and seconds of the runs before this one.
    prior: (u64, f64),
    started: Instant,
    saved_at: Mutex<Instant>,
    failed: Mutex<Option<anyhow::Error>>,
}

impl Saver<'_> {
    /// Writes the checkpoint: `tt` and the root's `bounds`, after `nodes`
    /// positions in this run.
    fn save(&self, tt: &TranspositionTable, bounds: Bounds, nodes: u64) -> anyhow::Result<()> {
        let Some(s) = self.saving else {
            return Ok(());
        };
        let h = checkpoint::Header {
            bounds,
            nodes: self.prior.0 + nodes,
            seconds: self.prior.1 + self.started.elapsed().as_secs_f64(),
            ..self.header.clone()
        };
        checkpoint::write(&s.path, &h, tt)
            .map_err(|e| anyhow::anyhow!("--checkpoint {}: {e}", s.path.display()))
    }

    /// Saves if it is time, at `p`; `true` if saving failed (the proof
    /// stops, and the error is kept).
    fn in_time(&self, tt: &TranspositionTable, p: &Progress) -> bool {
        let Some(s) = self.saving else {
            return false;
        };
        let mut at = self.saved_at.lock().unwrap_or_else(|e| e.into_inner());
        if at.elapsed() < s.every {
            return false;
        }
        *at = Instant::now();
        match self.save(tt, p.bounds, p.nodes) {
            Ok(()) => false,
            Err(e) => {
                *self.failed.lock().unwrap_or_else(|e| e.into_inner()) = Some(e);
                true
            }
        }
    }
}

/// The most seeds `--narrow-tables` builds to: about 3 GB of memory.
const MOST_FIVE_PIT_SEEDS: u32 = 32;

/// `--narrow-tables K`: Kalah's five-pit tables to `K` seeds, built in
/// memory, become the tables of `pos`'s game.
fn add_five_pit_tables(tables: &mut TableSet, pos: &AnyPosition, k: u32) -> anyhow::Result<()> {
    if k > MOST_FIVE_PIT_SEEDS {
        return Err(bad(format!(
            "--narrow-tables {k}: at most {MOST_FIVE_PIT_SEEDS} seeds"
        )));
    }
    let five = FivePits::<Kalah>::ROW_PITS;
    match pos {
        AnyPosition::Kalah(p) if p.row_pits() == five => build_five_pit_tables::<Kalah>(tables, k),
        AnyPosition::KalahEmpty(p) if p.row_pits() == five => {
            build_five_pit_tables::<KalahEmpty>(tables, k)
        }
        _ => Err(bad(
            "--narrow-tables: only for a Kalah position of five pits a row (--game kalah --pits 5)",
        )),
    }
}

fn build_five_pit_tables<R: TablebaseRules>(tables: &mut TableSet, k: u32) -> anyhow::Result<()> {
    let start = Instant::now();
    // The layers' values, and the bounds of the largest as it is built.
    let positions: u64 = (0..=k)
        .map(|n| layer_size(2 * FivePits::<R>::ROW_PITS, n))
        .sum();
    limits::memory(
        &format!("--narrow-tables {k}"),
        positions + 2 * layer_size(2 * FivePits::<R>::ROW_PITS, k),
    )
    .or_bad()?;
    eprintln!("solve: building the five-pit tables to {k} seeds in memory");
    let (values, stats) = FivePitTables::<R>::build(k).or_bad()?;
    let positions: u64 = stats.iter().map(|s| s.positions).sum();
    eprintln!(
        "solve: {positions} positions in {:.1} s",
        start.elapsed().as_secs_f64()
    );
    tables.insert_values::<R>(Box::new(values));
    Ok(())
}

/// The most positions `solve` builds tables of, in memory, for a small
/// board no loaded table holds: Oware's layers to 14 seeds (9,657,700
/// positions) take about two seconds.
const SMALL_TABLE_POSITIONS: u64 = 12_000_000;

/// A position with few seeds on its board whose board no loaded table
/// holds: its game's tables up to its seeds, built in memory first (at most
/// [`SMALL_TABLE_POSITIONS`]), so that the proof is a table read. Without
/// them the solver can wander for minutes in a five-seed Oware endgame: its
/// lines without a capture run long, and the cycle rule keeps what they
/// prove out of the transposition table.
fn add_small_tables(tables: &mut TableSet, pos: &AnyPosition) {
    with_table_rules!(
        pos.game(),
        R => add_small_tables_of(tables, &Position::<R>::from_key(pos.key())),
        _ => {}
    )
}

/// [`add_small_tables`] for a game with tables.
fn add_small_tables_of<R: TablebaseRules>(tables: &mut TableSet, pos: &Position<R>) {
    let seeds = pos.board_seeds();
    let positions: u64 = (0..=seeds).map(|n| layer_size(R::PITS, n)).sum();
    let held = tables.get::<R>().is_some_and(|t| t.margin(pos).is_some());
    if held
        || positions > SMALL_TABLE_POSITIONS
        || pos.row_pits() != R::SIDE_PITS
        || pos.status() != Status::Ongoing
    {
        return;
    }
    // For a person at a terminal, as the note on missing tables: scripts
    // read stderr for errors only.
    if std::io::stderr().is_terminal() {
        eprintln!(
            "solve: no table holds this board: building {} tables to {seeds} seeds in memory",
            R::ID
        );
    }
    // Memory refused (a limit of the address space): the search alone.
    if let Ok((built, _)) = try_build_in_memory::<R>(seeds) {
        tables.insert(built);
    }
}

/// Solves the position `moves` after `start` (the moves count for the
/// cycle rule) with the tables of its game (search alone for a game
/// without tables): the position solved, its solution and the seconds,
/// which exclude opening the tables and allocating the transposition
/// table.
fn solve_any(
    start: AnyPosition,
    moves: &[Move],
    tables: &TableSet,
    hash: usize,
    limits: ProofLimits,
    saving: Option<&Saving>,
) -> anyhow::Result<Solved> {
    // Without tables the solver is compiled for NoTables: no call per node.
    with_position!(start, p => {
        let game = replay(p, moves).or_bad()?;
        match tables.get() {
            Some(t) => solve_timed(&game, t, hash, limits, saving),
            None => solve_timed(&game, &NoTables, hash, limits, saving),
        }
    })
}

/// What [`solve_any`] gives: the position solved, what was proven, the
/// seconds, and a checkpoint that could not be written (a full disk): the
/// proof's result is printed all the same, then that error.
struct Solved(AnyPosition, Proof, f64, Option<anyhow::Error>);

/// [`solve_any`] of the position `game` reached, with `tables`.
fn solve_timed<R: Rules, T: BoardValues<R> + ?Sized>(
    game: &GameRecord<R>,
    tables: &T,
    hash: usize,
    limits: ProofLimits,
    saving: Option<&Saving>,
) -> anyhow::Result<Solved> {
    let (root, history) = game
        .positions()
        .split_last()
        .expect("a record has a position");
    let header = proof_header(game);
    // A checkpoint of this proof goes on from where it stopped.
    let (tt, earlier) = match saving.filter(|s| s.path.exists()) {
        Some(s) => resume(&s.path, &header)?,
        None => (TranspositionTable::try_new(hash).or_bad()?, None),
    };
    let mut solver = Solver::with_table(tables, &tt);
    solver.order_by_history();
    let (prior_nodes, prior_secs) = earlier.as_ref().map_or((0, 0.0), |h| (h.nodes, h.seconds));
    if let Some(h) = &earlier {
        solver.resume_from(resumable_bounds(
            h,
            root.margin_range(),
            R::TOTAL.into(),
            saving,
        )?);
    }
    let started = Instant::now();
    let shown = ProgressShown::new(started, root.side_to_move());
    let saver = Saver {
        saving,
        header,
        prior: (prior_nodes, prior_secs),
        started,
        saved_at: Mutex::new(started),
        failed: Mutex::new(None),
    };
    let stop = |p: &Progress| {
        shown.update(p);
        saver.in_time(&tt, p)
            || interrupt::requested()
            || limits.deadline.is_some_and(|d| Instant::now() >= d)
    };
    let before = solver.nodes();
    let solved = solver
        .prove(root)
        .history(history)
        .nodes(limits.nodes)
        .stop(&stop)
        .helpers(limits.threads - 1)
        .solution();
    shown.finish();
    let done = solver.nodes() - before;
    let failed = saver
        .failed
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .take();
    // The last checkpoint; one that failed is reported after the result.
    let unsaved = match failed {
        Some(e) => Some(e),
        None => saver.save(&tt, solver.root_bounds(), done).err(),
    };
    if let (Some(s), None) = (saving, &unsaved) {
        eprintln!("solve: checkpoint written to {}", s.path.display());
    }
    if solver.resumed_bounds_failed() {
        eprintln!(
            "solve: the checkpoint's bounds were false (the proof contradicted them): they were thrown away and the value proven again"
        );
    }
    let proof = match solved {
        solve::Proof::Done(mut s) => {
            s.nodes += prior_nodes;
            Proof::Solved(s)
        }
        solve::Proof::Stopped => Proof::Bounded(
            solver.root_bounds(),
            prior_nodes + done,
            solver.table_move(root),
        ),
    };
    Ok(Solved(
        (*root).into(),
        proof,
        prior_secs + started.elapsed().as_secs_f64(),
        unsaved,
    ))
}

/// The bounds a proof resumes from: those of `saved`, checked against
/// `range`, the margins the root's seeds allow (a bound outside it cannot
/// have been proven: the file is damaged). A first-version checkpoint's
/// bounds, which its checksum did not cover, are a guess only.
fn resumable_bounds(
    saved: &checkpoint::Header,
    (least, most): (i32, i32),
    total: i32,
    saving: Option<&Saving>,
) -> anyhow::Result<Bounds> {
    let b = saved.bounds;
    let shown = saving.map_or(String::new(), |s| s.path.display().to_string());
    if !saved.bounds_checked {
        eprintln!(
            "solve: {shown} is a checkpoint of the first version: its table is kept, its bounds are proven again"
        );
        return Ok(Bounds {
            lower: -total,
            upper: total,
            guess: b.guess.clamp(least, most),
        });
    }
    if b.lower > most || b.upper < least {
        return Err(bad(format!(
            "--checkpoint {shown}: damaged: its bounds {:+}..{:+} are outside what the seeds allow ({least:+}..{most:+})",
            b.lower, b.upper
        )));
    }
    Ok(b)
}

/// Where and how often a proof saves its state (`--checkpoint`).
struct Saving {
    path: PathBuf,
    every: Duration,
}

/// Refuses a --checkpoint that is there but not a regular file (a FIFO
/// would block the read, a device be read without end or written into),
/// or whose directory does not exist (found before the proof, not when it
/// is first saved).
fn checkpoint_path(path: &Path) -> anyhow::Result<()> {
    let shown = path.display();
    match std::fs::metadata(path) {
        Ok(m) if !m.is_file() => Err(bad(format!("--checkpoint {shown}: not a regular file"))),
        Ok(_) => Ok(()),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            let dir = match path.parent() {
                Some(d) if !d.as_os_str().is_empty() => d,
                _ => Path::new("."),
            };
            if dir.is_dir() {
                Ok(())
            } else {
                Err(bad(format!(
                    "--checkpoint {shown}: no directory {}",
                    dir.display()
                )))
            }
        }
        Err(e) => Err(bad(format!("--checkpoint {shown}: {e}"))),
    }
}

/// Reads the checkpoint at `path` for the proof `header` describes: its
/// table and what it had proven. Another proof's checkpoint, or a damaged
/// one, is bad input.
fn resume(
    path: &Path,
    header: &checkpoint::Header,
) -> anyhow::Result<(TranspositionTable, Option<checkpoint::Header>)> {
    let (saved, tt) =
        checkpoint::read(path).map_err(|e| bad(format!("--checkpoint {}: {e}", path.display())))?;
    if saved.position != header.position || saved.moves != header.moves {
        let moves: Vec<String> = saved.moves.iter().map(|m| m.to_string()).collect();
        return Err(bad(format!(
            "--checkpoint {}: it is the proof of another position ({}{}); give that position or another file",
            path.display(),
            saved.position,
            if moves.is_empty() { String::new() } else { format!(" --moves {}", moves.join(",")) }
        )));
    }
    eprintln!(
        "solve: resuming from {} ({} positions, {:.0} s so far; margin between {:+} and {:+})",
        path.display(),
        saved.nodes,
        saved.seconds,
        saved.bounds.lower,
        saved.bounds.upper
    );
    Ok((tt, Some(saved)))
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
