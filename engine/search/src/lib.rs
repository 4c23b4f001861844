//! Game-tree search: iterative-deepening principal variation search with
//! aspiration windows, a lock-free transposition table shared between
//! threads (and with the solver), move ordering by table move, capture size,
//! killers and history, the cycle rule on the search path, proof tracking
//! (a score is flagged exact when every line that decides it reached the end
//! of the game or an endgame table), endgame tablebase probes
//! ([`Search::tables`]), and a parallel search (Lazy SMP: every thread
//! searches from the root, sharing the table; a child another thread is
//! busy with is put off).
//!
//! The search knows no concrete evaluation: it takes any [`Evaluate`].
//! A search is set up with [`Search`] and run with [`Search::run`].
//!
//! | file | what |
//! |---|---|
//! | `mod.rs` | [`Search`], [`Report`], iterative deepening, the hand-over to the solver |
//! | `root.rs` | the root moves, aspiration windows |
//! | `negamax.rs` | one node: PVS, the cycle rule, probes, proof tracking |
//! | `threads.rs` | the parallel search: helper threads |
//! | `deferral.rs` | children another thread is searching, put off |
//! | `worker.rs` | one search thread's state |
//! | `value.rs`, [`score`] | a search value; the score unit |
//! | `ordering.rs`, `time.rs`, [`params`] | move ordering, limits and the clock, tuning constants (the table is [`mancala_solve::tt`]) |
//! | `pv.rs` | principal variations checked and extended |
//!
//! ```
//! use mancala_search::{score::SCALE, Evaluate, Limits, Search, SearchOptions};
//! use mancala_solve::tt::TranspositionTable;
//! use mancala_rules::{Bohnenspiel, Position, Rules};
//!
//! /// Banked seeds only.
//! struct Banked;
//! impl<R: Rules> Evaluate<R> for Banked {
//!     fn evaluate(&self, pos: &Position<R>) -> i32 {
//!         pos.banked_margin() * SCALE
//!     }
//! }
//!
//! let tt = TranspositionTable::new(1);
//! let options = SearchOptions { limits: Limits { depth: Some(4), ..Limits::default() }, ..SearchOptions::default() };
//! let report = Search::new(&Position::<Bohnenspiel>::start(), &Banked, &tt).options(options).run(|_| {});
//! assert_eq!(report.depth, 4);
//! assert!(report.best.is_some());
//! ```

pub(crate) mod deferral;
mod negamax;
pub(crate) mod ordering;
pub mod params;
mod pv;
mod root;
pub mod score;
pub(crate) mod threads;
pub(crate) mod time;
mod value;
mod worker;

use std::sync::atomic::AtomicBool;
use std::time::Duration;

use mancala_rules::repetition::Line;
use mancala_rules::Move;
use mancala_rules::Position;
use mancala_rules::{Rules, Status};
use mancala_solve::values::{BoardValues, NoTables};
use mancala_solve::{Progress, Proof, Solution, Solver};

use deferral::Deferrals;
use mancala_solve::tt::{Bound, TranspositionTable};
use params::{MAX_DEPTH, PROOF_FROM_DEPTH, PROOF_HASH_MB, PROOF_MIN_NODES, STAGNANT_FROM_DEPTH};
use pv::{extend_pv, extend_pv_by_tables};
use root::{root_moves, RootMove};
pub use score::seeds;
use score::{margin_score, SCALE};
use time::Clock;
pub use time::Limits;
use worker::Worker;

/// A static evaluation: the expected final margin of an ongoing position
/// from the side to move's view, banked seeds included, in the search's
/// unit ([`score::SCALE`] per seed).
pub trait Evaluate<R: Rules>: Sync {
    /// Evaluates a position where the game is not over.
    fn evaluate(&self, pos: &Position<R>) -> i32;
}

/// How to search.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SearchOptions {
    /// When to stop.
    pub limits: Limits,
    /// Threads (1: deterministic; more: Lazy SMP, every thread searching
    /// from the root and sharing the table, see `threads.rs`).
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

/// A search to run: the root, the game's positions before it, the
/// evaluation, the transposition table, and optionally endgame tables,
/// options and a stop flag.
///
/// With one thread the search is deterministic: same position, options and
/// a cleared table give the same nodes and moves.
///
/// With endgame tables, at every node, before the transposition table, a
/// position whose board the tables know is not searched but scored
/// `(tally difference + board value) * SCALE`, proven (exactly as the
/// [solver](mancala_solve) scores it). A root whose value is proven (every
/// line reaches a table position or the end of the game, or the root is
/// itself in the tables and the best move is proven to keep its value) is
/// reported [`exact`](Report::exact), and the search stops there. Without
/// tables the search is compiled without the probe (no call per node).
pub struct Search<'a, R: Rules, E: Evaluate<R>> {
    root: Position<R>,
    history: &'a [Position<R>],
    eval: &'a E,
    tt: &'a TranspositionTable,
    tables: Option<&'a dyn BoardValues<R>>,
    options: SearchOptions,
    stop: Option<&'a AtomicBool>,
}

impl<'a, R: Rules, E: Evaluate<R>> Search<'a, R, E> {
    /// A search of `root` with `eval`, sharing `tt`: no history, no tables,
    /// [default options](SearchOptions::default).
    pub fn new(root: &Position<R>, eval: &'a E, tt: &'a TranspositionTable) -> Self {
        Search {
            root: *root,
            history: &[],
            eval,
            tt,
            tables: None,
            options: SearchOptions::default(),
            stop: None,
        }
    }

    /// The game's positions before the root, oldest first: they count for
    /// the cycle rule.
    pub fn history(mut self, history: &'a [Position<R>]) -> Self {
        self.history = history;
        self
    }

    /// Endgame tables to read (`None`: none).
    pub fn tables(mut self, tables: Option<&'a dyn BoardValues<R>>) -> Self {
        self.tables = tables;
        self
    }

    /// How to search.
    pub fn options(mut self, options: SearchOptions) -> Self {
        self.options = options;
        self
    }

    /// A flag that stops the search from outside when set.
    pub fn stop(mut self, stop: &'a AtomicBool) -> Self {
        self.stop = Some(stop);
        self
    }

    /// Runs the search; `on_iteration` sees the report of every completed
    /// iteration. Returns the report of the last one.
    pub fn run(self, on_iteration: impl FnMut(&Report) + Send) -> Report {
        match self.tables {
            Some(tables) => self.run_with(tables, on_iteration),
            None => self.run_with(&NoTables, on_iteration),
        }
    }

    fn run_with<T: BoardValues<R> + ?Sized>(
        &self,
        tables: &T,
        mut on_iteration: impl FnMut(&Report) + Send,
    ) -> Report {
        let root = &self.root;
        let tt = self.tt;
        tt.new_search();
        let never = AtomicBool::new(false);
        let clock = Clock::new(&self.options.limits, self.stop.unwrap_or(&never));
        // Over by the game's own rules, or by the cycle rule through the
        // history (the root's third occurrence).
        let over = match root.status() {
            Status::Over(totals) => Some(totals),
            Status::Ongoing => Line::of(self.history)
                .ends_game(root)
                .then(|| root.cycle_totals()),
        };
        if let Some(totals) = over {
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
        let threads = self.options.threads.max(1);
        let deferrals = (threads > 1).then(Deferrals::new);
        let run_main = |on_iteration: &mut dyn FnMut(&Report)| {
            let report = self.main_thread(tables, &clock, deferrals.as_ref(), on_iteration);
            clock.stop();
            report
        };
        let mut report = if threads == 1 {
            run_main(&mut on_iteration)
        } else {
            // Lazy SMP (see `threads`): the helpers search until the main
            // thread stops the clock.
            let deferrals = deferrals.as_ref().expect("made for two threads or more");
            std::thread::scope(|scope| {
                for id in 1..threads {
                    let clock = &clock;
                    let spawned = std::thread::Builder::new()
                        .name(format!("search helper {id}"))
                        .stack_size(threads::HELPER_STACK)
                        .spawn_scoped(scope, move || {
                            threads::helper(self, id, threads, tables, clock, deferrals)
                        });
                    // A thread the system refuses is one helper fewer.
                    if spawned.is_err() {
                        break;
                    }
                }
                run_main(&mut on_iteration)
            })
        };
        report.nodes = clock.nodes();
        report.elapsed = clock.elapsed();
        report.hashfull = tt.hashfull();
        report
    }

    /// The main thread: iterative deepening, reporting each iteration.
    fn main_thread<T: BoardValues<R> + ?Sized>(
        &self,
        tables: &T,
        clock: &Clock<'_>,
        deferrals: Option<&Deferrals>,
        on_iteration: &mut dyn FnMut(&Report),
    ) -> Report {
        let (root, history, eval, tt, options) =
            (&self.root, self.history, self.eval, self.tt, &self.options);
        let mut worker = Worker::new(tt, eval, tables, clock, history, root);
        worker.deferrals = deferrals;
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
        let mut prover = InSearchProof::new(tables);
        let mut last_iteration = 0u64;
        // The first iteration whose report was exact.
        let mut proven_at = None;
        for depth in 1..=max_depth {
            if depth > 1 && !clock.may_start_iteration(&options.limits) {
                break;
            }
            // The first iteration always completes, so there is a move to give.
            worker.interruptible = depth > 1;
            let prev = last.as_ref().map(|r| r.score);
            let nodes_before = worker.nodes;
            worker.new_best = false;
            worker.iterate(&mut moves, depth, prev, options.score_all_moves);
            if worker.aborted {
                // The interrupted iteration's better move, with the bound
                // it was found at, replaces the last iteration's best.
                if let (true, Some(report)) = (worker.new_best, last.as_mut()) {
                    keep_interrupted_best(report, &moves[0], root, tt, depth);
                }
                break;
            }
            worker.ordering.age();
            worker.flush_nodes();
            // The search's own nodes this iteration (not the solver's below).
            let iteration = worker.nodes - nodes_before;
            let own = worker.nodes + prover.nodes;
            let mut report = make_report(root, tt, depth, &moves, root_margin, clock);
            if report.exact {
                extend_pv_by_tables(root, tables, &mut report.pv);
            } else if depth >= PROOF_FROM_DEPTH && own >= prover.next_at && {
                // A small endgame, or a tree that has stopped growing (the
                // lines go round in cycles the horizon cannot see the end of).
                root.board_seeds() <= R::TOTAL as u32 / 3
                    || (depth >= STAGNANT_FROM_DEPTH && iteration <= last_iteration)
            } {
                if let Some(solution) = prover.attempt(root, history, clock, own, &options.limits) {
                    prove_report(&mut report, &solution, clock);
                }
            }
            last_iteration = iteration;
            on_iteration(&report);
            // An analysis also wants every move's own score proven (late
            // move reductions can leave a worse move's unproven at the
            // depth that proves the root): it goes on until they are, or
            // to twice the depth that proved the root (a move whose value
            // rests on a repetition above it may never be).
            if report.exact {
                proven_at.get_or_insert(depth);
            }
            let done = report.exact
                && (!options.score_all_moves
                    || report.moves.iter().all(|m| m.proven)
                    || proven_at.is_some_and(|d| depth >= 2 * d));
            last = Some(report);
            if done {
                break;
            }
        }
        worker.flush_nodes();
        let mut report = last.expect("the first iteration always completes");
        if options.score_all_moves && report.exact && report.moves.iter().any(|m| !m.proven) {
            let budget = (worker.nodes + prover.nodes).max(PROOF_MIN_NODES);
            prove_moves(root, history, tables, &mut report, clock, budget);
        }
        report
    }
}

/// What an interrupted iteration found: its new best move `best` (found
/// at `depth` with a lower bound) replaces the best of the last complete
/// iteration's `report`.
fn keep_interrupted_best<R: Rules>(
    report: &mut Report,
    best: &RootMove<R>,
    root: &Position<R>,
    tt: &TranspositionTable,
    depth: u32,
) {
    report.best = Some(best.mv);
    report.score = best.score;
    report.exact = false;
    report.pv = extend_pv(root, tt, &[best.mv], depth as usize);
    for m in &mut report.moves {
        if m.mv == best.mv {
            (m.score, m.bound, m.proven) = (best.score, Bound::Lower, false);
        }
    }
    report
        .moves
        .sort_by_key(|m| (std::cmp::Reverse(m.score), m.mv != best.mv));
}

/// The exact solver inside a search, for small endgames the search does not
/// prove (its horizon cuts lines short that the proof needs; see
/// `prove_report`), run by the main thread alone.
struct InSearchProof<'t, R: Rules, T: BoardValues<R> + ?Sized> {
    tables: &'t T,
    /// The solver and its table's size, MiB.
    prover: Option<(Solver<'t, R, T>, usize)>,
    /// The main thread's work (its nodes and these) at which to try again.
    next_at: u64,
    /// Nodes the solver searched for this thread. With the main thread's
    /// own nodes they measure this thread's work: the trigger and the
    /// budget of a proof go by it, not by the helpers' work, since the
    /// proof runs on this thread alone (with one thread the two counts are
    /// the same).
    nodes: u64,
}

impl<'t, R: Rules, T: BoardValues<R> + ?Sized> InSearchProof<'t, R, T> {
    fn new(tables: &'t T) -> Self {
        InSearchProof {
            tables,
            prover: None,
            next_at: 0,
            nodes: 0,
        }
    }

    /// Tries to prove `root` (after `history`) when the main thread has
    /// done `own` work, within the search's `limits` and `clock`.
    fn attempt(
        &mut self,
        root: &Position<R>,
        history: &[Position<R>],
        clock: &Clock<'_>,
        own: u64,
        limits: &Limits,
    ) -> Option<Solution> {
        // Half the nodes this thread searched so far, and the next
        // attempt only once they have doubled: the solver takes at
        // most about a third of the search, however slowly the
        // iterations grow.
        let budget = own.max(PROOF_MIN_NODES) / 2;
        let budget = match limits.nodes {
            Some(n) => budget.min(n.saturating_sub(clock.nodes())),
            None => budget,
        };
        // A table of about a slot per node of budget: making (and
        // clearing) a large one would eat a short search's time. It
        // is made again, larger, when a budget outgrows it.
        let megabytes = (budget >> 16).clamp(1, PROOF_HASH_MB as u64) as usize;
        if self.prover.as_ref().is_none_or(|(_, mb)| *mb < megabytes) {
            self.prover = Some((Solver::new(self.tables, megabytes), megabytes));
        }
        let (prover, _) = self.prover.as_mut()?;
        let before = prover.nodes();
        let counted = clock.proof();
        let solved = prover
            .prove(root)
            .history(history)
            .nodes(budget)
            .stop(&|p: &Progress| counted.visited(p.nodes))
            .solution();
        let proved = prover.nodes() - before;
        counted.end(proved);
        self.nodes += proved;
        match solved {
            Proof::Done(solution) => Some(solution),
            Proof::Stopped => {
                self.next_at = 2 * (own + proved);
                None
            }
        }
    }
}

/// Orders `report`'s moves best first (the best move first among equals)
/// and takes the clock's nodes and time.
fn settle(report: &mut Report, clock: &Clock<'_>) {
    let best = report.best;
    report
        .moves
        .sort_by_key(|m| (std::cmp::Reverse(m.score), Some(m.mv) != best));
    report.nodes = clock.nodes();
    report.elapsed = clock.elapsed();
}

/// Proves with the solver the moves an analysis left unproven once the
/// root is proven (a move whose value rests on a repetition, which the
/// search's table cannot carry: the solver follows the line), each within
/// `budget` nodes and the clock's limits; a move it proves gets its exact
/// score.
fn prove_moves<R: Rules, T: BoardValues<R> + ?Sized>(
    root: &Position<R>,
    history: &[Position<R>],
    tables: &T,
    report: &mut Report,
    clock: &Clock<'_>,
    budget: u64,
) {
    let megabytes = (budget >> 16).clamp(1, PROOF_HASH_MB as u64) as usize;
    let mut solver = Solver::new(tables, megabytes);
    let mut line = history.to_vec();
    line.push(*root);
    for m in report.moves.iter_mut().filter(|m| !m.proven) {
        let child = root.play(m.mv);
        let before = solver.nodes();
        let counted = clock.proof();
        let solved = solver
            .prove(&child)
            .history(&line)
            .nodes(budget)
            .stop(&|p: &Progress| counted.visited(p.nodes))
            .solution();
        counted.end(solver.nodes() - before);
        let Proof::Done(solution) = solved else {
            continue;
        };
        let margin = child.for_parent(root, solution.margin);
        (m.score, m.bound, m.proven) = (margin * SCALE, Bound::Exact, true);
    }
    settle(report, clock);
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
    settle(report, clock);
}

#[cfg(test)]
mod tests;
