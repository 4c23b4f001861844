//! Game-tree search: iterative-deepening principal variation search with
//! aspiration windows, a lock-free transposition table shared between
//! threads (and with the solver), move ordering by table move, capture size,
//! killers and history, the cycle rule on the search path, proof tracking
//! (a score is flagged exact when every line that decides it reached the end
//! of the game or an endgame table), endgame tablebase probes
//! ([`search_with_tables`]), and a parallel search over a rayon pool
//! (young brothers wait: split points share the later children of a node
//! between idle threads).
//!
//! The search knows no concrete evaluation: it takes any [`Evaluate`].
//!
//! ```
//! use std::sync::atomic::AtomicBool;
//! use mancala_engine::search::{search, tt::TranspositionTable, Evaluate, Limits, SearchOptions};
//! use mancala_engine::{Bohnenspiel, Position, Rules, Side};
//!
//! /// Banked seeds only.
//! struct Banked;
//! impl<R: Rules> Evaluate<R> for Banked {
//!     fn evaluate(&self, pos: &Position<R>) -> i32 {
//!         let me = pos.side_to_move();
//!         (pos.tally(me) as i32 - pos.tally(!me) as i32) * mancala_engine::search::params::SCALE
//!     }
//! }
//!
//! let tt = TranspositionTable::new(1);
//! let options = SearchOptions { limits: Limits { depth: Some(4), ..Limits::default() }, ..SearchOptions::default() };
//! let report = search(&Position::<Bohnenspiel>::start(), &[], &Banked, &tt, &options, &AtomicBool::new(false), |_| {});
//! assert_eq!(report.depth, 4);
//! assert!(report.best.is_some());
//! ```

mod alphabeta;
pub mod ordering;
pub mod params;
pub mod time;
pub mod tt;

use std::sync::atomic::AtomicBool;
use std::time::Duration;

use crate::board::Position;
use crate::game::{Rules, Status};
use crate::moves::Move;
use crate::repetition::Line;
use crate::solve::{Solution, Solver};
use crate::tablebase::{BoardValues, NoTables};

use alphabeta::{margin_score, RootMove, Splitter, Worker};
use params::{
    MAX_DEPTH, PROOF_FROM_DEPTH, PROOF_HASH_MB, PROOF_MIN_NODES, SCALE, SPARE_WORKERS_PER_THREAD,
    STAGNANT_FROM_DEPTH,
};
pub use time::{Clock, Limits};
use tt::{Bound, TranspositionTable};

/// A static evaluation: the expected final margin of an ongoing position
/// from the side to move's view, banked seeds included, in the search's
/// unit ([`params::SCALE`] per seed).
pub trait Evaluate<R: Rules>: Sync {
    /// Evaluates a position where the game is not over.
    fn evaluate(&self, pos: &Position<R>) -> i32;
}

/// How to search.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SearchOptions {
    /// When to stop.
    pub limits: Limits,
    /// Threads (1: deterministic; more: split points sharing the table).
    pub threads: usize,
    /// Give every root move an exact score each iteration (for analysis);
    /// otherwise only the best move's score is exact and the others are
    /// bounds (faster, for play).
    pub score_all_moves: bool,
}

impl Default for SearchOptions {
    fn default() -> Self {
        SearchOptions {
            limits: Limits::default(),
            threads: 1,
            score_all_moves: false,
        }
    }
}

/// A root move's score from the last completed iteration.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MoveScore {
    /// The move.
    pub mv: Move,
    /// Its score from the root's side to move's view (internal unit).
    pub score: i32,
    /// How the score bounds the move's value (always exact with
    /// [`SearchOptions::score_all_moves`]).
    pub bound: Bound,
    /// Whether the score is proven to the end of the game.
    pub proven: bool,
}

/// What a search found: after each completed iteration, and at the end.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Report {
    /// The depth of the last completed iteration (0 when the game is over).
    pub depth: u32,
    /// The best move (`None` when the game is over).
    pub best: Option<Move>,
    /// The root score (internal unit, side to move's view).
    pub score: i32,
    /// Whether the score is proven: every deciding line reached the end of
    /// the game or a position in the endgame tables.
    pub exact: bool,
    /// Nodes searched, all threads.
    pub nodes: u64,
    /// Time since the search started.
    pub elapsed: Duration,
    /// The principal variation.
    pub pv: Vec<Move>,
    /// Every root move, best first.
    pub moves: Vec<MoveScore>,
    /// Table fill, per mille.
    pub hashfull: u32,
}

impl Report {
    /// Nodes per second.
    pub fn nps(&self) -> u64 {
        let s = self.elapsed.as_secs_f64();
        if s > 0.0 {
            (self.nodes as f64 / s) as u64
        } else {
            0
        }
    }
}

/// A score in seeds (a whole number when proven).
pub fn seeds(score: i32) -> f64 {
    score as f64 / SCALE as f64
}

/// Searches `root` (reached through `history`, the game's earlier positions,
/// oldest first, which count for the cycle rule) with `eval`, sharing `tt`.
/// `stop` stops the search from outside; `on_iteration` sees the report of
/// every completed iteration. Returns the report of the last one.
///
/// With one thread the search is deterministic: same position, options and
/// a cleared table give the same nodes and moves.
///
/// No endgame tables are read; [`search_with_tables`] reads them.
pub fn search<R: Rules, E: Evaluate<R>>(
    root: &Position<R>,
    history: &[Position<R>],
    eval: &E,
    tt: &TranspositionTable,
    options: &SearchOptions,
    stop: &AtomicBool,
    on_iteration: impl FnMut(&Report) + Send,
) -> Report {
    search_with_tables(
        root,
        history,
        eval,
        &NoTables,
        tt,
        options,
        stop,
        on_iteration,
    )
}

/// [`search`] with endgame tables: at every node, before the transposition
/// table, a position whose board `tables` knows is not searched but scored
/// `(tally difference + board value) * SCALE`, proven (exactly as the
/// [solver](crate::solve) scores it). A root whose value is proven (every
/// line reaches a table position or the end of the game, or the root is
/// itself in the tables and the best move is proven to keep its value) is
/// reported [`exact`](Report::exact), and the search stops there.
///
/// Pass [`TableSet::for_rules`](crate::tablebase::TableSet::for_rules) (a
/// `&dyn BoardValues<R>`) for tables opened at run time, or
/// [`NoTables`]. Still deterministic with one thread.
#[allow(clippy::too_many_arguments)]
pub fn search_with_tables<R: Rules, E: Evaluate<R>, T: BoardValues<R> + ?Sized>(
    root: &Position<R>,
    history: &[Position<R>],
    eval: &E,
    tables: &T,
    tt: &TranspositionTable,
    options: &SearchOptions,
    stop: &AtomicBool,
    mut on_iteration: impl FnMut(&Report) + Send,
) -> Report {
    tt.new_search();
    let clock = Clock::new(&options.limits, stop);
    if let Status::Over(totals) = root.status() {
        return Report {
            depth: 0,
            best: None,
            score: margin_score(root, totals),
            exact: true,
            nodes: 0,
            elapsed: clock.elapsed(),
            pv: Vec::new(),
            moves: Vec::new(),
            hashfull: tt.hashfull(),
        };
    }
    let threads = options.threads.max(1);
    let pool = if threads > 1 {
        rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .ok()
    } else {
        None
    };
    let run_main = |on_iteration: &mut dyn FnMut(&Report)| {
        let report = main_thread(
            root,
            history,
            eval,
            tables,
            tt,
            options,
            &clock,
            on_iteration,
        );
        clock.stop();
        report
    };
    let mut report = match &pool {
        None => run_main(&mut on_iteration),
        Some(pool) => pool.install(|| run_main(&mut on_iteration)),
    };
    report.nodes = clock.nodes();
    report.elapsed = clock.elapsed();
    report.hashfull = tt.hashfull();
    report
}

fn root_moves<R: Rules>(root: &Position<R>) -> Vec<RootMove<R>> {
    let mut moves = Vec::new();
    R::generate(root, |mv, child| {
        moves.push(RootMove {
            mv,
            child,
            score: -params::INFINITY,
            bound: Bound::Upper,
            proven: false,
            pv: vec![mv],
        })
    });
    moves
}

/// The main thread: iterative deepening, reporting each iteration.
#[allow(clippy::too_many_arguments)]
fn main_thread<R: Rules, E: Evaluate<R>, T: BoardValues<R> + ?Sized>(
    root: &Position<R>,
    history: &[Position<R>],
    eval: &E,
    tables: &T,
    tt: &TranspositionTable,
    options: &SearchOptions,
    clock: &Clock<'_>,
    on_iteration: &mut dyn FnMut(&Report),
) -> Report {
    let threads = options.threads.max(1);
    let splitter = Splitter::new(threads);
    let mut worker = Worker::new(tt, eval, tables, clock, history, root);
    if threads > 1 {
        worker.splitter = Some(&splitter);
        // A task may wait for others it split off (and run some of them
        // meanwhile): room for a few nested splits per thread.
        for _ in 0..SPARE_WORKERS_PER_THREAD * threads {
            let mut spare = Worker::new(tt, eval, tables, clock, history, root);
            spare.splitter = Some(&splitter);
            splitter.add_spare(spare);
        }
    }
    // The root's own value, when it is in the tables.
    let root_margin = tables.margin(root).map(|m| m * SCALE);
    let mut moves = root_moves(root);
    let max_depth = options
        .limits
        .depth
        .unwrap_or(MAX_DEPTH)
        .clamp(1, MAX_DEPTH);
    let mut last: Option<Report> = None;
    // The exact solver, for small endgames the search does not prove (its
    // horizon cuts lines short that the proof needs; see `prove_report`).
    let mut prover: Option<(Solver<R, T>, usize)> = None;
    let mut next_proof_at = 0;
    let mut last_iteration = 0u64;
    for depth in 1..=max_depth {
        if depth > 1 && !clock.may_start_iteration(&options.limits) {
            break;
        }
        // The first iteration always completes, so there is a move to give.
        worker.interruptible = depth > 1;
        let prev = last.as_ref().map(|r| r.score);
        let nodes_before = clock.nodes();
        worker.iterate(&mut moves, depth, prev, options.score_all_moves);
        if worker.aborted {
            break;
        }
        worker.ordering.age();
        worker.flush_nodes();
        // The search's own nodes this iteration (not the solver's below).
        let iteration = clock.nodes() - nodes_before;
        let mut report = make_report(root, tt, depth, &moves, root_margin, clock);
        if report.exact {
            extend_pv_by_tables(root, tables, &mut report.pv);
        } else if depth >= PROOF_FROM_DEPTH && clock.nodes() >= next_proof_at && {
            // A small endgame, or a tree that has stopped growing (the
            // lines go round in cycles the horizon cannot see the end of).
            root.board_seeds() <= R::TOTAL as u32 / 3
                || (depth >= STAGNANT_FROM_DEPTH && iteration <= last_iteration)
        } {
            // Half the nodes searched so far, and the next attempt only
            // once they have doubled: the solver takes at most about a
            // third of the search, however slowly the iterations grow.
            let budget = clock.nodes().max(PROOF_MIN_NODES) / 2;
            let budget = match options.limits.nodes {
                Some(n) => budget.min(n.saturating_sub(clock.nodes())),
                None => budget,
            };
            // A table of about a slot per node of budget: making (and
            // clearing) a large one would eat a short search's time. It
            // is made again, larger, when a budget outgrows it.
            let megabytes = (budget >> 16).clamp(1, PROOF_HASH_MB as u64) as usize;
            if prover.as_ref().is_none_or(|(_, mb)| *mb < megabytes) {
                prover = Some((Solver::new(tables, megabytes), megabytes));
            }
            let (prover, _) = prover.as_mut().expect("made above");
            let before = prover.nodes();
            let solved = prover.try_solve(history, root, budget, &|| clock.check(0));
            clock.add_nodes(prover.nodes() - before);
            match solved {
                Some(solution) => prove_report(&mut report, &solution, clock),
                None => next_proof_at = 2 * clock.nodes(),
            }
        }
        last_iteration = iteration;
        on_iteration(&report);
        let done = report.exact;
        last = Some(report);
        if done {
            break;
        }
    }
    worker.flush_nodes();
    last.expect("the first iteration always completes")
}

fn make_report<R: Rules>(
    root: &Position<R>,
    tt: &TranspositionTable,
    depth: u32,
    moves: &[RootMove<R>],
    root_margin: Option<i32>,
    clock: &Clock<'_>,
) -> Report {
    let best = &moves[0];
    // Proven when the best move's exact score is proven and either every
    // other move is proven no better, or the tables give the root that very
    // value (so no move can do better).
    let exact = best.proven
        && best.bound == Bound::Exact
        && (root_margin == Some(best.score)
            || moves[1..]
                .iter()
                .all(|m| m.proven && m.bound != Bound::Lower && m.score <= best.score));
    Report {
        depth,
        best: Some(best.mv),
        score: best.score,
        exact,
        nodes: clock.nodes(),
        elapsed: clock.elapsed(),
        pv: extend_pv(root, tt, &best.pv, depth as usize),
        moves: moves
            .iter()
            .map(|m| MoveScore {
                mv: m.mv,
                score: m.score,
                bound: m.bound,
                proven: m.proven,
            })
            .collect(),
        hashfull: tt.hashfull(),
    }
}

/// `report` made exact by the solver's `solution` of the root: its
/// margin, its best move (the search's if that keeps the margin), its PV;
/// every move that keeps the margin is scored so, proven, and any other
/// move shown at or above it is bounded just below (it is proven worse).
fn prove_report(report: &mut Report, solution: &Solution, clock: &Clock<'_>) {
    let score = solution.margin * SCALE;
    let keeps = |mv: Move| solution.best.contains(&mv);
    report.exact = true;
    report.score = score;
    if !report.best.is_some_and(keeps) {
        report.best = solution.best.first().copied();
    }
    report.pv = solution.pv.clone();
    if report.best != report.pv.first().copied() {
        report.pv = report.best.into_iter().collect();
    }
    for m in &mut report.moves {
        if keeps(m.mv) {
            (m.score, m.bound, m.proven) = (score, Bound::Exact, true);
        } else if m.score >= score {
            (m.score, m.bound, m.proven) = (score - SCALE, Bound::Upper, true);
        }
    }
    let best = report.best;
    report
        .moves
        .sort_by_key(|m| (std::cmp::Reverse(m.score), Some(m.mv) != best));
    report.nodes = clock.nodes();
    report.elapsed = clock.elapsed();
}

/// The longest principal variation [`extend_pv_by_tables`] makes.
const MAX_TABLE_PV: usize = 64;

/// A proven PV continued through the tables: from where it ends, while the
/// position is in the tables, a move whose child's table value keeps the
/// position's (the first such, in move order), stopping at the end of the
/// game, a repetition or [`MAX_TABLE_PV`] plies (as the solver's PV).
fn extend_pv_by_tables<R: Rules, T: BoardValues<R> + ?Sized>(
    root: &Position<R>,
    tables: &T,
    pv: &mut Vec<Move>,
) {
    let mut pos = *root;
    let mut seen = Line::new();
    for &mv in pv.iter() {
        seen.push(&pos);
        pos = pos.play_unchecked(mv);
    }
    if seen.repeats(&pos) {
        return;
    }
    seen.push(&pos);
    while pv.len() < MAX_TABLE_PV {
        let Some(value) = tables.margin(&pos) else {
            break;
        };
        let keeps = pos
            .children()
            .into_iter()
            .find(|(_, child)| tables.margin(child) == Some(-value));
        let Some((mv, child)) = keeps else { break };
        pv.push(mv);
        pos = child;
        if seen.repeats(&pos) {
            break;
        }
        seen.push(&pos);
    }
}

/// The PV from the search, checked move by move and continued from the
/// table's moves up to `depth` plies (stopping at a repetition or the end).
fn extend_pv<R: Rules>(
    root: &Position<R>,
    tt: &TranspositionTable,
    pv: &[Move],
    depth: usize,
) -> Vec<Move> {
    let mut out = Vec::new();
    let mut pos = *root;
    let mut seen = Line::of([root]);
    let mut i = 0;
    while out.len() < depth.max(pv.len()) {
        let mv = match pv.get(i) {
            Some(&m) => Some(m),
            None => tt.probe(pos.key()).and_then(|e| e.mv),
        };
        let Some(mv) = mv else { break };
        let Ok(next) = pos.try_play(mv) else { break };
        out.push(mv);
        pos = next;
        i += 1;
        if seen.repeats(&pos) {
            break;
        }
        seen.push(&pos);
    }
    out
}

#[cfg(test)]
mod tests;
