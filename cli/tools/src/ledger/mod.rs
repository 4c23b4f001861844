//! `mancala solve --ledger FILE`: a proof in pieces
//! ([`mancala_engine::solve::ledger`]), worked by as many processes as
//! share the file. Each takes a needed piece under the file's lock, claims
//! it, proves it, and writes its result back (atomically, under the lock,
//! into the file as the others have left it).

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use rand::{Rng, SeedableRng};
use serde::Serialize;

use crate::interrupt::{self, Interrupted};
use mancala_engine::files::{read_text, write_atomically, LockFile, MAX_TEXT_FILE};
use mancala_engine::solve::ledger::{self, Found, Ledger, State, Work, WorkKind};
use mancala_engine::solve::{Progress, Proof, Solver};
use mancala_engine::tablebase::{Below, BoardValues, TableSet};
use mancala_engine::tt::TranspositionTable;
use mancala_engine::{with_position, AnyPosition, Position, Rules};

use crate::bad::bad;
use crate::tables::OpenTables;
use crate::transport::Ranks;

pub mod ranks;

/// How a ledger is worked: the options of `solve` that apply.
pub struct Plan {
    /// The ledger file.
    pub file: PathBuf,
    /// The root, if one was given (to start a ledger, or to check it).
    pub root: Option<AnyPosition>,
    /// Plies from the root to the pieces, for a new ledger.
    pub depth: u32,
    /// Each proof's transposition table, MiB.
    pub hash: usize,
    /// Threads of each proof.
    pub threads: usize,
    /// Each piece's budget in time.
    pub piece_time: Option<Duration>,
    /// Each piece's budget in positions.
    pub piece_nodes: u64,
    /// When to stop taking pieces.
    pub deadline: Option<Instant>,
    /// Stop after this many proofs.
    pub pieces: u64,
    /// Only print the standing.
    pub status: bool,
    /// Prove this many random pieces (`extra` plies below) and estimate.
    pub estimate: Option<(usize, u32, u64)>,
    /// The standing and each proof as JSON lines.
    pub json: bool,
}

fn now() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_secs())
}

/// This machine's name, for claims (`host:pid`).
fn host() -> String {
    std::fs::read_to_string("/etc/hostname")
        .ok()
        .map(|h| h.trim().to_string())
        .filter(|h| !h.is_empty() && !h.contains(char::is_whitespace))
        .unwrap_or_else(|| "host".to_string())
}

/// Whether a claim no longer holds: its time is past, or it is of this
/// machine, `host`, and its process has ended (a process killed without
/// writing).
fn lapsed(claim: &ledger::Claim, host: &str) -> bool {
    if claim.until < now() {
        return true;
    }
    match claim.by.rsplit_once(':') {
        Some((h, pid)) if h == host => pid
            .parse::<u32>()
            .is_ok_and(|p| !Path::new(&format!("/proc/{p}")).exists()),
        _ => false,
    }
}

/// The ledger file, read and checked.
fn read<R: Rules>(path: &Path) -> anyhow::Result<Ledger<R>> {
    read_checked(path).map(|(ledger, _)| ledger)
}

/// [`read`], and whether the file had its checksum line.
fn read_checked<R: Rules>(path: &Path) -> anyhow::Result<(Ledger<R>, bool)> {
    let text = read_text(path).map_err(|e| bad(format!("--ledger {}: {e}", path.display())))?;
    Ledger::parse_checked(&text).map_err(|e| bad(format!("--ledger {}: {e}", path.display())))
}

/// The ledger as its file, if a file that size can be read back; else
/// the size it would have.
fn readable_text<R: Rules>(ledger: &Ledger<R>) -> Result<String, usize> {
    let text = ledger.format();
    if text.len() as u64 > MAX_TEXT_FILE {
        Err(text.len())
    } else {
        Ok(text)
    }
}

fn write<R: Rules>(path: &Path, ledger: &Ledger<R>) -> anyhow::Result<()> {
    // A ledger is written only if it can be read back.
    let text = readable_text(ledger).map_err(|size| {
        anyhow::anyhow!(
            "--ledger {}: the ledger would be {size} bytes ({} pieces), more than the {MAX_TEXT_FILE} a file read back may have; not written",
            path.display(),
            ledger.pieces().len()
        )
    })?;
    write_text(path, &text)
}

fn write_text(path: &Path, text: &str) -> anyhow::Result<()> {
    write_atomically(path, |out| std::io::Write::write_all(out, text.as_bytes()))
        .map_err(|e| anyhow::anyhow!("--ledger {}: cannot write: {e}", path.display()))
}

/// Takes the ledger's lock (`FILE.lock`), held while the value lives: the
/// processes sharing a ledger read, change and write it one at a time.
fn lock_ledger(path: &Path) -> anyhow::Result<LockFile> {
    let mut name = path.file_name().unwrap_or_default().to_os_string();
    name.push(".lock");
    let lock_path = path.with_file_name(name);
    let file = LockFile::open(&lock_path).map_err(|e| {
        bad(format!(
            "--ledger: cannot open {}: {e}",
            lock_path.display()
        ))
    })?;
    file.lock(|| {})
        .map_err(|e| anyhow::anyhow!("--ledger: cannot lock {}: {e}", lock_path.display()))?;
    Ok(file)
}

/// Reads the ledger under its lock, lets `change` change it, and writes it
/// back if `change` says so.
fn update<R: Rules, A>(
    path: &Path,
    change: impl FnOnce(&mut Ledger<R>) -> (A, bool),
) -> anyhow::Result<(A, Ledger<R>)> {
    let _lock = lock_ledger(path)?;
    let mut ledger = read::<R>(path)?;
    let (answer, changed) = change(&mut ledger);
    if changed {
        write(path, &ledger)?;
    }
    Ok((answer, ledger))
}

/// Works the ledger of `plan` in this process alone (with others that
/// share the file), `open` giving the tables.
pub fn run(plan: &Plan, open: OpenTables<'_>) -> anyhow::Result<()> {
    start(plan, open, None)
}

/// This process's part of the job `job` (an MPI job: `solve --ledger
/// --mpi`): rank 0 keeps the ledger and hands out pieces, every rank
/// proves them ([`ranks`]).
pub fn run_rank(plan: &Plan, open: OpenTables<'_>, job: &dyn Ranks) -> anyhow::Result<()> {
    if job.rank() == 0 {
        start(plan, open, Some(job))
    } else {
        ranks::follow(plan, open, job)
    }
}

/// Reads the ledger (or starts it) and works it: alone, or as rank 0 of
/// `job`.
fn start(plan: &Plan, open: OpenTables<'_>, job: Option<&dyn Ranks>) -> anyhow::Result<()> {
    // Under the lock: of several processes started on a new ledger
    // together, one creates it and the others read it.
    let lock = lock_ledger(&plan.file)?;
    let root = if plan.file.exists() {
        let text = read_text(&plan.file)
            .map_err(|e| bad(format!("--ledger {}: {e}", plan.file.display())))?;
        let line = ledger::root_line(&text).ok_or_else(|| {
            bad(format!(
                "--ledger {}: no 'root POSITION' line: not a ledger",
                plan.file.display()
            ))
        })?;
        let root: AnyPosition = line
            .parse()
            .map_err(|e| bad(format!("--ledger {}: root: {e}", plan.file.display())))?;
        if let Some(given) = plan.root.filter(|g| *g != root) {
            return Err(bad(format!(
                "--ledger {} is the proof of {root}, not of {given}",
                plan.file.display()
            )));
        }
        root
    } else {
        let Some(root) = plan.root else {
            return Err(bad(format!(
                "--ledger {}: no such file; give the position to prove (or --game NAME) to start one",
                plan.file.display()
            )));
        };
        with_position!(root, p => {
            let ledger = Ledger::new(p, plan.depth).map_err(|e| bad(format!("--ledger: {}", e.problem)))?;
            let text = readable_text(&ledger).map_err(|size| {
                bad(format!(
                    "--depth {}: the ledger would hold {} pieces ({size} bytes), more than a ledger file may have ({MAX_TEXT_FILE}); give a smaller --depth",
                    plan.depth,
                    ledger.pieces().len()
                ))
            })?;
            write_text(&plan.file, &text)?;
            eprintln!(
                "solve: ledger {} started: {} pieces {} plies from {}",
                plan.file.display(),
                ledger.pieces().len(),
                plan.depth,
                p
            );
        });
        root
    };
    drop(lock);
    let tables: TableSet = open(&[root.game()]);
    with_position!(root, p => {
        let t: &dyn BoardValues<_> = tables.values();
        work(&p, plan, t, job)
    })
}

/// The standing as JSON.
#[derive(Serialize)]
struct StatusReport {
    root: String,
    depth: u32,
    generation: u32,
    pieces: usize,
    open: usize,
    solved: usize,
    proven: usize,
    split: usize,
    conflict: usize,
    /// The root's bounds from the pieces solved once, and proven twice.
    value_solved: [i32; 2],
    value_proven: [i32; 2],
    moves: Vec<MoveBounds>,
    nodes: u64,
    seconds: f64,
}

#[derive(Serialize)]
struct MoveBounds {
    #[serde(rename = "move")]
    mv: u8,
    lower: i32,
    upper: i32,
}

fn print_status<R: Rules>(ledger: &Ledger<R>, json: bool) -> anyhow::Result<()> {
    let st = ledger.standing();
    let c = ledger.counts();
    let report = StatusReport {
        root: ledger.root().to_string(),
        depth: ledger.depth(),
        generation: ledger.generation(),
        pieces: ledger.pieces().len(),
        open: c.open,
        solved: c.solved,
        proven: c.proven,
        split: c.split,
        conflict: c.conflict,
        value_solved: [st.solved.0, st.solved.1],
        value_proven: [st.proven.0, st.proven.1],
        moves: st
            .moves
            .iter()
            .map(|&(mv, lower, upper)| MoveBounds {
                mv: mv.pit(),
                lower,
                upper,
            })
            .collect(),
        nodes: c.nodes,
        seconds: c.seconds,
    };
    if json {
        println!("{}", serde_json::to_string(&report)?);
        return Ok(());
    }
    let show = |(l, u): (i32, i32)| {
        if l == u {
            format!("{l:+}")
        } else {
            format!("between {l:+} and {u:+}")
        }
    };
    println!("root     {}", report.root);
    println!(
        "value    {} (pieces solved once), {} (proven twice)",
        show(st.solved),
        show(st.proven)
    );
    for (mv, l, u) in &st.moves {
        println!("move {mv:>2}  {}", show((*l, *u)));
    }
    println!(
        "pieces   {} ({} open, {} solved, {} proven, {} split, {} in conflict); depth {}, generation {}",
        report.pieces,
        report.open,
        report.solved,
        report.proven,
        report.split,
        report.conflict,
        report.depth,
        report.generation
    );
    println!("nodes    {}  time {:.0} s", report.nodes, report.seconds);
    Ok(())
}

/// The table a process proves in, and the generation of the interior its
/// entries were proven against.
struct Table {
    tt: TranspositionTable,
    generation: Option<u32>,
    /// Proofs since it was last emptied.
    proofs: u32,
}

impl Table {
    /// Makes the table fit a proof against the interior of `generation`
    /// (`fresh`: a check, which must not use the first proof's entries).
    fn ready(&mut self, generation: u32, fresh: bool) {
        if fresh || self.generation != Some(generation) {
            self.tt.clear();
            self.generation = Some(generation);
            self.proofs = 0;
        }
    }
}

/// What a process needs to prove pieces: its transposition table, the
/// tables, and the budgets of the plan.
struct Prover<'a, R: Rules> {
    table: Table,
    tables: &'a dyn BoardValues<R>,
    /// The largest layer of `tables` (0: none).
    top: u32,
    threads: usize,
    piece_time: Option<Duration>,
    piece_nodes: u64,
    deadline: Option<Instant>,
}

impl<'a, R: Rules> Prover<'a, R> {
    fn new(plan: &Plan, tables: &'a dyn BoardValues<R>) -> anyhow::Result<Self> {
        let tt = TranspositionTable::try_new(plan.hash).map_err(|e| bad(format!("--hash: {e}")))?;
        Ok(Prover {
            table: Table {
                tt,
                generation: None,
                proofs: 0,
            },
            tables,
            top: tables.complete_to().unwrap_or(0),
            threads: plan.threads,
            piece_time: plan.piece_time,
            piece_nodes: plan.piece_nodes,
            deadline: plan.deadline,
        })
    }

    /// Whether this process is to stop taking pieces: Ctrl-C, or --time.
    fn done(&self) -> bool {
        interrupt::requested() || self.deadline.is_some_and(|d| Instant::now() >= d)
    }

    /// Proves the piece of `work` against `ledger`'s interior: what it
    /// found, the positions and the seconds it took.
    fn prove(&mut self, work: &Work<R>, ledger: &Ledger<R>) -> (Found, u64, f64) {
        let generation = ledger.generation();
        self.table
            .ready(generation, matches!(work.kind, WorkKind::Check { .. }));
        let limit = match work.kind {
            WorkKind::Check { below } => below,
            _ => u32::MAX,
        };
        let below = Below {
            tables: self.tables,
            limit,
        };
        let mut solver = Solver::with_table(&below, &self.table.tt);
        solver.order_by_history();
        solver.set_ancestors(std::sync::Arc::new(ledger.ancestors()));
        let started = Instant::now();
        let piece_end = self.piece_time.and_then(|t| started.checked_add(t));
        let stop = |_: &Progress| self.done() || piece_end.is_some_and(|d| Instant::now() >= d);
        let read = ledger::tables_read(self.top, work.kind);
        let (found, nodes) = ledger::prove(
            &mut solver,
            self.threads - 1,
            work,
            read,
            generation,
            self.piece_nodes,
            &stop,
        );
        let seconds = started.elapsed().as_secs_f64();
        // Stopped by the piece's own budget (not by the user or --time):
        // the piece is split.
        let found = found.stopped_by(!self.done());
        self.table.proofs += 1;
        (found, nodes, seconds)
    }

    /// After the ledger recorded the last proof: whether it split the
    /// piece, and the ledger's generation after.
    fn recorded(&mut self, split: bool, generation: u32) {
        // The entries of a piece's own proof never lean on it, so with
        // nothing else in the table they carry over to the generation its
        // split began.
        if split && self.table.proofs == 1 && self.table.generation == generation.checked_sub(1) {
            self.table.generation = Some(generation);
        }
    }
}

/// This process's name in claims: `host:pid`.
fn claimant() -> String {
    format!("{}:{}", host(), std::process::id())
}

/// How long a claim holds: twice the piece's budget and ten minutes, or a
/// day.
fn claim_for(plan: &Plan) -> u64 {
    plan.piece_time.map_or(86_400, |t| 2 * t.as_secs() + 600)
}

/// Takes the next needed piece (below `prefer` if one is) and claims it
/// for `who`, under the lock.
fn take<R: Rules>(
    file: &Path,
    top: u32,
    who: &str,
    until: u64,
    prefer: Option<&Position<R>>,
) -> anyhow::Result<(Option<Work<R>>, Ledger<R>)> {
    let host = host();
    let lapsed = |c: &ledger::Claim| lapsed(c, &host);
    update::<R, _>(file, |l| {
        let work = l.next_work(top, &lapsed, prefer);
        if let Some(w) = &work {
            l.claim(&w.pos, who, until);
        }
        let changed = work.is_some();
        (work, changed)
    })
}

/// Records a proof under the lock and reports it (`who`: the prover, for
/// a cluster): whether the piece was split, and the ledger after. A
/// conflict between two proofs is an error.
fn put<R: Rules>(
    file: &Path,
    who: &str,
    work: &Work<R>,
    (found, nodes, seconds): (Found, u64, f64),
) -> anyhow::Result<(bool, Ledger<R>)> {
    let (split, after) = update::<R, _>(file, |l| {
        (l.record(&work.pos, work.kind, found, nodes, seconds), true)
    })?;
    report_piece(who, &work.pos, work.kind, found, nodes, seconds, split);
    no_conflicts(&after)?;
    Ok((split, after))
}

fn work<R: Rules>(
    root: &Position<R>,
    plan: &Plan,
    tables: &dyn BoardValues<R>,
    job: Option<&dyn Ranks>,
) -> anyhow::Result<()> {
    let file = &plan.file;
    let (ledger, summed) = read_checked::<R>(file)?;
    if ledger.root() != root {
        return Err(bad(format!("--ledger {}: damaged root", file.display())));
    }
    if !summed {
        eprintln!(
            "solve: --ledger {} has no checksum line (written by an older version): its values were checked against the seeds and the tables only; the next write adds one",
            file.display()
        );
    }
    check_against_tables(file, &ledger, tables)?;
    if plan.status {
        print_status(&ledger, plan.json)?;
        return no_conflicts(&ledger);
    }
    no_conflicts(&ledger)?;
    let mut prover = Prover::new(plan, tables)?;
    if let Some((count, extra, seed)) = plan.estimate {
        return estimate(&ledger, plan, tables, &prover.table.tt, count, extra, seed);
    }
    if let Some(job) = job {
        return ranks::lead(root, plan, prover, job);
    }
    let who = claimant();
    let mut prefer: Option<Position<R>> = None;
    let mut proofs = 0u64;
    while proofs < plan.pieces && !prover.done() {
        let until = now() + claim_for(plan);
        let (work, ledger) = take(file, prover.top, &who, until, prefer.as_ref())?;
        let Some(work) = work else {
            eprintln!("solve: no needed piece is left to this process");
            break;
        };
        let result = prover.prove(&work, &ledger);
        let (split, after) = put(file, "", &work, result)?;
        proofs += 1;
        prover.recorded(split, after.generation());
        prefer = split.then_some(work.pos);
    }
    finish::<R>(file, plan.json)
}

/// A value the tables contradict is damage (an edited line): the
/// ledger is refused, naming the piece, before any work on it.
fn check_against_tables<R: Rules>(
    file: &Path,
    ledger: &Ledger<R>,
    tables: &dyn BoardValues<R>,
) -> anyhow::Result<()> {
    for p in ledger.pieces() {
        let values = match p.state {
            ledger::State::Solved { value, .. } | ledger::State::Proven { value, .. } => {
                [Some(value), None]
            }
            ledger::State::Conflict { values, .. } => values.map(Some),
            _ => continue,
        };
        let Some(table) = tables.margin(&p.pos) else {
            continue;
        };
        if let Some(v) = values.into_iter().flatten().find(|&v| v != table) {
            return Err(bad(format!(
                "--ledger {}: damaged: the piece {} says {v:+}, the tables say {table:+}",
                file.display(),
                p.pos
            )));
        }
    }
    Ok(())
}

/// Two proofs that disagree are an error (status 1), named on stderr.
fn no_conflicts<R: Rules>(ledger: &Ledger<R>) -> anyhow::Result<()> {
    let conflicts = ledger.conflicts();
    for p in &conflicts {
        eprintln!("solve: two proofs of {} disagree ({:?})", p.pos, p.state);
    }
    if !conflicts.is_empty() {
        anyhow::bail!(
            "the ledger holds {} piece(s) whose proofs disagree",
            conflicts.len()
        );
    }
    Ok(())
}

/// The standing at the end of a run, and its exit: interrupted or not.
fn finish<R: Rules>(file: &Path, json: bool) -> anyhow::Result<()> {
    let ledger = read::<R>(file)?;
    print_status(&ledger, json)?;
    no_conflicts(&ledger)?;
    if interrupt::requested() {
        return Err(Interrupted.into());
    }
    Ok(())
}

fn report_piece<R: Rules>(
    who: &str,
    pos: &Position<R>,
    kind: WorkKind,
    found: Found,
    nodes: u64,
    seconds: f64,
    split: bool,
) {
    let what = match kind {
        WorkKind::First => "proof",
        WorkKind::Check { .. } => "check",
        WorkKind::Again => "proof again",
    };
    let result = match found {
        Found::Value {
            value,
            best,
            tables,
            ..
        } => {
            format!("value {value:+}, best {best}, tables to {tables}")
        }
        Found::Bounds { lower, upper, .. } => format!("between {lower:+} and {upper:+}"),
        Found::Leaned => "leaned on a repetition of the interior".to_string(),
    };
    eprintln!(
        "solve: {who}{what} of {pos}: {result} ({nodes} positions, {seconds:.1} s){}",
        if split { "; split" } else { "" }
    );
}

/// `--estimate N`: proves `count` pieces picked at random (each followed
/// `extra` random plies down, for the cost of deeper pieces), each within
/// the piece budget, and extrapolates. Nothing goes into the ledger.
fn estimate<R: Rules>(
    ledger: &Ledger<R>,
    plan: &Plan,
    tables: &dyn BoardValues<R>,
    tt: &TranspositionTable,
    count: usize,
    extra: u32,
    seed: u64,
) -> anyhow::Result<()> {
    let mut rng = rand::rngs::StdRng::seed_from_u64(seed);
    let open: Vec<&Position<R>> = ledger
        .pieces()
        .iter()
        .filter(|p| matches!(p.state, State::Open { .. }))
        .map(|p| &p.pos)
        .collect();
    if open.is_empty() {
        return Err(bad("--estimate: no open piece in the ledger"));
    }
    let mut samples = Samples::default();
    for i in 0..count {
        if interrupt::requested() {
            break;
        }
        let piece = *open[rng.random_range(0..open.len())];
        // A random walk below it; the product of the moves met estimates
        // how many positions that deep there are for each piece (Knuth).
        let (mut pos, mut width) = (piece, 1.0f64);
        for _ in 0..extra {
            let children = pos.children();
            if children.is_empty() {
                break;
            }
            width *= children.len() as f64;
            pos = children[rng.random_range(0..children.len())].1;
        }
        let (secs, finished) = prove_sample(i + 1, &pos, plan, tables, tt);
        samples.secs.push(secs);
        samples.widths.push(width);
        samples.unfinished += usize::from(!finished);
    }
    if samples.secs.is_empty() {
        return Err(Interrupted.into());
    }
    print_estimate(&samples, open.len(), extra, plan.threads);
    Ok(())
}

/// What `--estimate`'s samples cost.
#[derive(Default)]
struct Samples {
    /// Each sample's seconds (the budget, for one not finished).
    secs: Vec<f64>,
    /// Each sample's count of positions that deep for each piece.
    widths: Vec<f64>,
    /// How many did not finish within the budget.
    unfinished: usize,
}

/// Proves sample number `i`, `pos`, within the piece budget, and prints
/// what it found: the seconds it took, and whether it finished.
fn prove_sample<R: Rules>(
    i: usize,
    pos: &Position<R>,
    plan: &Plan,
    tables: &dyn BoardValues<R>,
    tt: &TranspositionTable,
) -> (f64, bool) {
    tt.clear();
    let mut solver = Solver::with_table(tables, tt);
    solver.order_by_history();
    let started = Instant::now();
    let end = plan.piece_time.and_then(|t| started.checked_add(t));
    let stop = |_: &Progress| interrupt::requested() || end.is_some_and(|d| Instant::now() >= d);
    let found = solver
        .prove(pos)
        .nodes(plan.piece_nodes)
        .stop(&stop)
        .helpers(plan.threads - 1)
        .best_move();
    let s = started.elapsed().as_secs_f64();
    let nodes = solver.nodes();
    match found {
        Proof::Done(Some((v, mv))) => {
            println!(
                "sample {:>3}: {pos}: value {v:+} best {mv}, {nodes} positions, {s:.2} s",
                i
            );
            (s, true)
        }
        Proof::Done(None) | Proof::Stopped => {
            let b = solver.root_bounds();
            println!(
                    "sample {:>3}: {pos}: not finished, between {:+} and {:+}, {nodes} positions, {s:.2} s",
                    i,
                    b.lower,
                    b.upper
                );
            (s, false)
        }
    }
}

/// Prints the cost of the whole proof extrapolated from `samples` taken
/// `extra` plies below `open` pieces on `threads`.
fn print_estimate(samples: &Samples, open: usize, extra: u32, threads: usize) {
    let Samples {
        secs,
        widths,
        unfinished,
    } = samples;
    let n = secs.len() as f64;
    let mean = secs.iter().sum::<f64>() / n;
    let sd = (secs.iter().map(|s| (s - mean).powi(2)).sum::<f64>() / (n - 1.0).max(1.0)).sqrt();
    let half = 1.96 * sd / n.sqrt();
    let width = widths.iter().sum::<f64>() / n;
    let positions = open as f64 * width;
    // Alpha-beta's minimal tree proves a value with about twice the
    // square root of the positions at full width (Knuth and Moore).
    let minimal = 2.0 * positions.sqrt();
    let time = |secs_each: f64, count: f64, cores: f64| {
        let s = secs_each * count * threads as f64 / cores;
        if s < 86_400.0 {
            format!("{:.1} hours", s / 3600.0)
        } else if s < 3.0e7 {
            format!("{:.1} days", s / 86_400.0)
        } else {
            format!("{:.2e} years", s / 3.156e7)
        }
    };
    let threads = threads as f64;
    let (low, high) = ((mean - half).max(0.0), mean + half);
    println!(
        "estimate: {} samples {extra} plies below the {} open pieces, {unfinished} not finished within the budget{}",
        secs.len(),
        open,
        if *unfinished > 0 { " (they count as the budget: every figure below is then a lower bound)" } else { "" }
    );
    println!(
        "estimate: {mean:.2} s a position on {} thread(s) (95 % interval {low:.2} to {high:.2} s); about {positions:.3e} positions that deep, of which alpha-beta's minimal tree needs about {minimal:.3e}",
        threads
    );
    println!(
        "estimate: the minimal tree here {} (interval {} to {}), on 64 cores {}; every position that deep here {}",
        time(mean, minimal, threads),
        time(low, minimal, threads),
        time(high, minimal, threads),
        time(mean, minimal, 64.0),
        time(mean, positions, threads)
    );
}
