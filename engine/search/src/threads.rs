//! The parallel search: Lazy SMP with deferred children.
//!
//! Every thread searches the whole tree from the root by iterative
//! deepening, sharing only the transposition table, the clock (limits, stop
//! flag and node total) and a small table of the children being searched.
//! The main thread reports, hands small roots to the solver and decides
//! when to stop; helper threads ([`helper`]) only fill the table, each with
//! its own killers and history, and stop when the main thread does.
//!
//! Threads searching the same tree in the same order would duplicate each
//! other's work. What keeps them apart is the deferral of simplified ABDADA
//! (Kerrigan): at a node below the root with
//! [`DEFER_MIN_DEPTH`](super::params::DEFER_MIN_DEPTH) plies or more to go,
//! a child after the first that another thread is searching at that moment
//! ([`Deferrals`]) is put off until the node's other children are done, by
//! when its value is likely in the table. The first child is never put off
//! (the node needs its bound), nor is any child with one thread, whose
//! search is unchanged and deterministic. In an analysis of every root
//! move, each helper also starts its iteration at a different root move.
//!
//! Nothing on the hot path takes a lock: the table is lock-free, a thread
//! adds its nodes to the shared total once every
//! [`CHECK_EVERY`](super::params::CHECK_EVERY) nodes, and a claim in
//! the deferral table is one relaxed atomic load and store.

use super::deferral::Deferrals;
use super::params::MAX_DEPTH;
use super::root::root_moves;
use super::time::Clock;
use super::worker::Worker;
use super::{Evaluate, Search};
use mancala_rules::Rules;
use mancala_solve::values::BoardValues;

/// Stack of each helper thread: the search recurses up to
/// [`MAX_PLY`](super::params::MAX_PLY) plies, as deep as the main thread.
pub(super) const HELPER_STACK: usize = 8 << 20;

/// Helper thread `id` (1 to `threads - 1`) of `search`: iterative deepening
/// from the root until the clock stops, its results going only to the
/// shared table. It searches past the main thread's depth limit (the main
/// thread stops it), so that it is never idle while the main thread works.
pub(super) fn helper<R: Rules, E: Evaluate<R>, T: BoardValues<R> + ?Sized>(
    search: &Search<'_, R, E>,
    id: usize,
    threads: usize,
    tables: &T,
    clock: &Clock<'_>,
    deferrals: &Deferrals,
) {
    let mut worker = Worker::new(
        search.tt,
        search.eval,
        tables,
        clock,
        search.history,
        &search.root,
    );
    worker.deferrals = Some(deferrals);
    let all_moves = search.options.score_all_moves;
    let mut moves = root_moves(&search.root);
    let mut prev = None;
    for depth in 1..=MAX_DEPTH {
        if clock.is_stopped() {
            break;
        }
        if all_moves {
            // Each helper starts its round of the root moves at its own
            // share of them.
            let k = id * moves.len() / threads;
            moves.rotate_left(k);
        }
        worker.iterate(&mut moves, depth, prev, all_moves);
        if worker.aborted {
            break;
        }
        prev = Some(moves[0].score);
        worker.ordering.age();
        worker.flush_nodes();
    }
    worker.flush_nodes();
}
