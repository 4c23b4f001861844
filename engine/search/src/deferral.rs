//! The deferral of simplified ABDADA (Kerrigan): a small table of the
//! children some thread is searching right now ([`Deferrals`]), and the
//! order a node takes its children in when one is put off
//! ([`ChildOrder`]), shared by the search's threads.

use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

use super::params::DEFER_SLOTS;
use mancala_rules::Position;
use mancala_rules::Rules;
use mancala_rules::MAX_MOVES;

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
/// they were put off.
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

#[cfg(test)]
mod tests {
    use super::*;
    use mancala_rules::Bohnenspiel;

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
