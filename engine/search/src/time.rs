//! Limits and the clock: when a search must stop.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering::Relaxed};
use std::time::{Duration, Instant};

use super::params::ITERATION_START_PERCENT;

/// What bounds a search. Every limit given applies; with none, the search
/// runs until it proves the root value, reaches the deepest iteration, or is
/// stopped from outside.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Limits {
    /// The deepest iteration to complete (plies).
    pub depth: Option<u32>,
    /// Wall-clock time for the whole search.
    pub time: Option<Duration>,
    /// Nodes to search (all threads together; each thread checks every
    /// 1,024 nodes, `params::CHECK_EVERY`, and a proof inside the search
    /// every 4,096, `solve::STOP_CHECK_EVERY`, so a search may end a few
    /// thousand nodes past the limit).
    pub nodes: Option<u64>,
}

/// The shared clock of one search: start time, limits, the node total and
/// the stop flags.
#[derive(Debug)]
pub struct Clock<'a> {
    start: Instant,
    deadline: Option<Instant>,
    node_limit: Option<u64>,
    nodes: AtomicU64,
    /// Set from outside (`stop` in the engine protocol).
    external: &'a AtomicBool,
    /// Set when a limit is reached or the main thread has finished.
    stopped: AtomicBool,
}

impl<'a> Clock<'a> {
    /// Starts the clock now.
    pub fn new(limits: &Limits, external: &'a AtomicBool) -> Self {
        let start = Instant::now();
        Clock {
            start,
            // A time too long for the clock is no deadline at all.
            deadline: limits.time.and_then(|t| start.checked_add(t)),
            node_limit: limits.nodes,
            nodes: AtomicU64::new(0),
            external,
            stopped: AtomicBool::new(false),
        }
    }

    /// Time since the start.
    pub fn elapsed(&self) -> Duration {
        self.start.elapsed()
    }

    /// Adds a thread's nodes to the total and says whether to stop.
    #[inline]
    pub fn check(&self, new_nodes: u64) -> bool {
        let total = self.nodes.fetch_add(new_nodes, Relaxed) + new_nodes;
        if self.stopped.load(Relaxed) {
            return true;
        }
        let over = self.external.load(Relaxed)
            || self.node_limit.is_some_and(|n| total >= n)
            || self.deadline.is_some_and(|d| Instant::now() >= d);
        if over {
            self.stopped.store(true, Relaxed);
        }
        over
    }

    /// Adds nodes to the total without looking at the limits.
    pub fn add_nodes(&self, n: u64) {
        self.nodes.fetch_add(n, Relaxed);
    }

    /// A proof run inside the search, counted on this clock as it goes
    /// ([`ClockedProof`]).
    pub fn proof(&self) -> ClockedProof<'_, 'a> {
        ClockedProof {
            clock: self,
            counted: AtomicU64::new(0),
        }
    }

    /// Whether the search has been told to stop.
    #[inline]
    pub fn is_stopped(&self) -> bool {
        self.stopped.load(Relaxed)
    }

    /// Tells every thread to stop.
    pub fn stop(&self) {
        self.stopped.store(true, Relaxed);
    }

    /// Nodes counted so far (all threads, up to each one's last check).
    pub fn nodes(&self) -> u64 {
        self.nodes.load(Relaxed)
    }

    /// Whether a new iteration is worth starting: with a deadline, only
    /// while less than [`ITERATION_START_PERCENT`] of the time is gone. An
    /// iteration takes about as long as all before it together, so one
    /// started late rarely finishes, but the root moves it searches first
    /// still count: a move that beats the first one before the clock runs
    /// out is played (see `Worker::root_pvs`).
    pub fn may_start_iteration(&self, limits: &Limits) -> bool {
        if self.is_stopped() || self.external.load(Relaxed) {
            return false;
        }
        match limits.time {
            Some(t) => self.elapsed() < t / 100 * ITERATION_START_PERCENT,
            None => true,
        }
    }
}

/// A proof (the exact solver) run inside a search: its positions go on the
/// search's clock as it visits them, not only when it ends, so that the
/// other threads, still searching, see them against a node limit.
#[derive(Debug)]
pub struct ClockedProof<'c, 'a> {
    clock: &'c Clock<'a>,
    /// The proof's positions already on the clock.
    counted: AtomicU64,
}

impl ClockedProof<'_, '_> {
    /// The proof's stop, when it has visited `nodes` positions in all:
    /// adds those not yet counted and says whether to stop.
    pub fn visited(&self, nodes: u64) -> bool {
        let new = nodes.saturating_sub(self.counted.swap(nodes, Relaxed));
        self.clock.check(new)
    }

    /// The proof ended after `nodes` positions in all: the rest go on the
    /// clock.
    pub fn end(self, nodes: u64) {
        self.clock
            .add_nodes(nodes.saturating_sub(self.counted.into_inner()));
    }
}
