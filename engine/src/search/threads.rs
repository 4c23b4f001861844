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
//! [`Deferrals`] is one relaxed atomic load and store.

use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

use super::params::{DEFER_SLOTS, MAX_DEPTH};
use super::root::root_moves;
use super::time::Clock;
use super::worker::Worker;
use super::{Evaluate, Search};
use crate::board::Position;
use crate::game::Rules;
use crate::moves::MAX_MOVES;
use crate::tablebase::BoardValues;

/// Stack of each helper thread: the search recurses up to
/// [`MAX_PLY`](super::params::MAX_PLY) plies, as deep as the main thread.
pub(super) const HELPER_STACK: usize = 8 << 20;

/// The children being searched right now, by any thread: a slot per hash
/// of a child's key, holding that hash while a thread searches the child
/// (the "currently searching" table of simplified ABDADA). Two children
/// falling in one slot only make a deferral more or less likely; a wrong
/// answer costs order, never correctness.
pub(crate) struct Deferrals {
    slots: Box<[AtomicU64]>,
}

/// The order a node searches its children in with deferral: every child
/// in turn, then the ones put off ([`ChildOrder::put_off`]), in the order
/// they were put off. The negamax and the solver's search share it.
pub(crate) struct ChildOrder {
    n: usize,
    next: usize,
    put_off: [usize; MAX_MOVES],
    n_put_off: usize,
    taken: usize,
}

impl ChildOrder {
    /// The order of `n` children.
    #[inline]
    pub(crate) fn new(n: usize) -> Self {
        ChildOrder {
            n,
            next: 0,
            put_off: [0; MAX_MOVES],
            n_put_off: 0,
            taken: 0,
        }
    }

    /// The next child's index, and whether it is met for the first time
    /// (so it may still be put off); `None` when every child is done.
    #[inline]
    pub(crate) fn next(&mut self) -> Option<(usize, bool)> {
        if self.next < self.n {
            self.next += 1;
            return Some((self.next - 1, true));
        }
        if self.taken < self.n_put_off {
            self.taken += 1;
            return Some((self.put_off[self.taken - 1], false));
        }
        None
    }

    /// Puts child `i`, just met for the first time, off to the end.
    #[inline]
    pub(crate) fn put_off(&mut self, i: usize) {
        self.put_off[self.n_put_off] = i;
        self.n_put_off += 1;
    }
}

/// A child claimed in [`Deferrals`] by [`Deferrals::claim`].
#[derive(Clone, Copy, Debug)]
pub(crate) struct Claim {
    slot: usize,
    hash: u64,
}

impl Deferrals {
    /// An empty table of [`DEFER_SLOTS`] slots.
    pub(crate) fn new() -> Self {
        Deferrals {
            slots: (0..DEFER_SLOTS).map(|_| AtomicU64::new(0)).collect(),
        }
    }

    /// Claims `child` for this thread, or `None` if another thread is
    /// searching it (then the caller puts it off).
    #[inline]
    pub(crate) fn claim<R: Rules>(&self, child: &Position<R>) -> Option<Claim> {
        let key = child.key();
        // A non-zero hash (0 marks a free slot).
        let mut hash = ((key as u64) ^ ((key >> 64) as u64).rotate_left(32))
            .wrapping_mul(0x9e37_79b9_7f4a_7c15);
        hash ^= hash >> 29;
        let hash = hash | 1;
        let slot = (hash >> 40) as usize & (DEFER_SLOTS - 1);
        if self.slots[slot].load(Relaxed) == hash {
            return None;
        }
        self.slots[slot].store(hash, Relaxed);
        Some(Claim { slot, hash })
    }

    /// Ends a claim: the slot is freed unless another child took it since.
    #[inline]
    pub(crate) fn release(&self, claim: Claim) {
        let _ = self.slots[claim.slot].compare_exchange(claim.hash, 0, Relaxed, Relaxed);
    }
}

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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Bohnenspiel;

    #[test]
    fn a_claimed_child_is_deferred_until_released() {
        let d = Deferrals::new();
        let start = Position::<Bohnenspiel>::start();
        let children: Vec<_> = start.children().into_iter().map(|(_, c)| c).collect();
        assert_eq!(children.len(), 6);
        let claims: Vec<_> = children.iter().map(|c| d.claim(c)).collect();
        // Six distinct children, six claims; each one now busy.
        assert!(claims.iter().all(Option::is_some));
        assert!(children.iter().all(|c| d.claim(c).is_none()));
        for claim in claims.into_iter().flatten() {
            d.release(claim);
        }
        // Released, each can be claimed again.
        assert!(children.iter().all(|c| d.claim(c).is_some()));
    }

    #[test]
    fn a_release_leaves_a_newer_claim_of_the_slot_alone() {
        let d = Deferrals::new();
        let start = Position::<Bohnenspiel>::start();
        let child = start.children()[0].1;
        let first = d.claim(&child).expect("free");
        // Another child took the slot meanwhile (forced here): the first
        // claim's release must not free it.
        let other = Claim {
            slot: first.slot,
            hash: first.hash ^ 2,
        };
        d.slots[other.slot].store(other.hash, Relaxed);
        d.release(first);
        assert_eq!(d.slots[first.slot].load(Relaxed), other.hash);
        d.release(other);
        assert_eq!(d.slots[first.slot].load(Relaxed), 0);
    }
}
