//! A proof as `mancala solve` runs it: the tables assembled for the
//! position (Kalah's five-pit tables, small tables built in memory where no
//! loaded table holds the board), checkpoints written as it goes and
//! resumed (their bounds checked), its progress on stderr, its limits.

use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use indicatif::ProgressBar;

use mancala_engine::solve::{self, checkpoint, Bounds, Progress, Solution, Solver};
use mancala_engine::tablebase::{
    layer_size, try_build_in_memory, BoardValues, FivePitTables, FivePits, NoTables, TableSet,
    TablebaseRules,
};
use mancala_engine::tt::TranspositionTable;
use mancala_engine::{
    with_position, with_table_rules, AnyPosition, GameRecord, Kalah, KalahEmpty, Move, Position,
    Rules, Side, Status,
};

use crate::bad::{bad, OrBad};
use crate::interrupt;
use crate::limits;
use crate::protocol::replay;

/// When a proof must stop.
#[derive(Clone, Copy)]
pub struct ProofLimits {
    /// When to stop, if at a time.
    pub deadline: Option<Instant>,
    /// The most positions to search.
    pub nodes: u64,
    /// Threads working on the proof (the solver and its helpers).
    pub threads: usize,
}

/// A proof's end: the solution, or the bounds proved before a limit.
pub enum Proof {
    /// The value, every best move, a line.
    Solved(Solution),
    /// Stopped: the root's bounds, the positions searched, the best move
    /// found so far.
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
            .then(|| crate::progress::spinner("solve"));
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
pub const MOST_FIVE_PIT_SEEDS: u32 = 32;

/// `--narrow-tables K`: Kalah's five-pit tables to `K` seeds, built in
/// memory, become the tables of `pos`'s game.
pub fn add_five_pit_tables(tables: &mut TableSet, pos: &AnyPosition, k: u32) -> anyhow::Result<()> {
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
pub const SMALL_TABLE_POSITIONS: u64 = 12_000_000;

/// A position with few seeds on its board whose board no loaded table
/// holds: its game's tables up to its seeds, built in memory first (at most
/// [`SMALL_TABLE_POSITIONS`]), so that the proof is a table read. Without
/// them the solver can wander for minutes in a five-seed Oware endgame: its
/// lines without a capture run long, and the cycle rule keeps what they
/// prove out of the transposition table.
pub fn add_small_tables(tables: &mut TableSet, pos: &AnyPosition) {
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
pub fn solve_any(
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
pub struct Solved(
    pub AnyPosition,
    pub Proof,
    pub f64,
    pub Option<anyhow::Error>,
);

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
pub struct Saving {
    /// The checkpoint file.
    pub path: PathBuf,
    /// How often it is written.
    pub every: Duration,
}

/// Refuses a --checkpoint that is there but not a regular file (a FIFO
/// would block the read, a device be read without end or written into),
/// or whose directory does not exist (found before the proof, not when it
/// is first saved).
pub fn checkpoint_path(path: &Path) -> anyhow::Result<()> {
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
