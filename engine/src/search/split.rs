//! Young brothers wait: once a node's first child is searched, its other
//! children may be shared out between idle threads on the rayon pool
//! ([`Worker::split`]). Spare workers are lent to the threads that take
//! part; a child that reaches beta raises the split point's cut-off flag,
//! which stops the others.

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering::Relaxed};
use std::sync::{Arc, Mutex};

use super::value::Value;
use super::worker::Worker;
use super::Evaluate;
use crate::board::Position;
use crate::game::Rules;
use crate::moves::{Move, MAX_MOVES};
use crate::tablebase::BoardValues;

/// What the threads of one search share to split work (young brothers
/// wait): spare workers to lend to idle threads, and how many threads are
/// searching.
pub(crate) struct Splitter<'a, R: Rules, E: Evaluate<R>, T: BoardValues<R> + ?Sized> {
    spare: Mutex<Vec<Worker<'a, R, E, T>>>,
    pub(super) threads: usize,
    pub(super) busy: AtomicUsize,
}

impl<'a, R: Rules, E: Evaluate<R>, T: BoardValues<R> + ?Sized> Splitter<'a, R, E, T> {
    /// Split state for `threads` threads, the calling one searching.
    pub(super) fn new(threads: usize) -> Self {
        Splitter {
            spare: Mutex::new(Vec::new()),
            threads,
            busy: AtomicUsize::new(1),
        }
    }

    /// Adds a spare worker (one per task that may run at once).
    pub(super) fn add_spare(&self, worker: Worker<'a, R, E, T>) {
        self.spare.lock().expect("no worker panics").push(worker);
    }

    /// Spare workers for up to `wanted` idle threads (none if no thread is
    /// idle).
    fn lend(&self, wanted: usize) -> Vec<Worker<'a, R, E, T>> {
        let idle = self.threads.saturating_sub(self.busy.load(Relaxed));
        let k = idle.min(wanted);
        if k == 0 {
            return Vec::new();
        }
        let mut spare = self.spare.lock().expect("no worker panics");
        let at = spare.len().saturating_sub(k);
        spare.split_off(at)
    }

    fn give_back(&self, workers: Vec<Worker<'a, R, E, T>>) {
        self.spare.lock().expect("no worker panics").extend(workers);
    }
}

/// A split node's children and window, shared by the threads searching them.
struct SplitPoint<'p, R: Rules> {
    /// The children to share out (the node's later ones).
    children: &'p [(Move, Position<R>)],
    /// Each child's late move reduction (plies; see `Worker::null_window`).
    reductions: &'p [i32],
    /// The index of the next child not yet taken.
    next: AtomicUsize,
    /// Set when a child reaches `beta`.
    cut: &'p AtomicBool,
    /// The children's depth.
    depth: i32,
    /// The null window's lower bound, from the node's view.
    alpha: i32,
    /// The node's beta.
    beta: i32,
    /// The children's ply.
    ply: usize,
}

impl<'a, R: Rules, E: Evaluate<R>, T: BoardValues<R> + ?Sized> Worker<'a, R, E, T> {
    /// Whether some thread is idle (so a split would be worth it).
    #[inline]
    pub(super) fn idle_threads(&self) -> bool {
        self.splitter
            .is_some_and(|s| s.busy.load(Relaxed) < s.threads)
    }

    /// Runs `take` on this thread and on up to `wanted` idle ones together:
    /// each idle thread gets a spare worker set up as this one (its path, the
    /// flags it watches and `cut`, its interruptibility), and every thread
    /// collects what it found (`F`s) in its own list. Returns the lists joined, or
    /// `None` if no thread was idle (then nothing ran).
    ///
    /// Afterwards `aborted` is set if a limit, or a cut-off at an enclosing
    /// split point, stopped the search (`cut` itself is no reason to stop).
    pub(super) fn share<F: Send>(
        &mut self,
        wanted: usize,
        cut: Option<&Arc<AtomicBool>>,
        take: impl Fn(&mut Self, &mut Vec<F>) + Sync,
    ) -> Option<Vec<F>> {
        let splitter = self.splitter?;
        let mut helpers = splitter.lend(wanted);
        if helpers.is_empty() {
            return None;
        }
        for h in &mut helpers {
            h.path.clone_from(&self.path);
            h.watch.clone_from(&self.watch);
            h.watch.extend(cut.cloned());
            h.interruptible = self.interruptible;
            h.aborted = false;
        }
        self.watch.extend(cut.cloned());
        let mut theirs: Vec<Vec<F>> = helpers.iter().map(|_| Vec::new()).collect();
        let mut mine = Vec::new();
        rayon::scope(|s| {
            for (h, out) in helpers.iter_mut().zip(theirs.iter_mut()) {
                let take = &take;
                s.spawn(move |_| {
                    splitter.busy.fetch_add(1, Relaxed);
                    take(h, out);
                    splitter.busy.fetch_sub(1, Relaxed);
                });
            }
            take(self, &mut mine);
            // Waiting for the others, this thread is idle (it may steal a
            // task of theirs).
            splitter.busy.fetch_sub(1, Relaxed);
        });
        splitter.busy.fetch_add(1, Relaxed);
        if cut.is_some() {
            self.watch.pop();
        }
        splitter.give_back(helpers);
        self.aborted = self.must_stop();
        mine.extend(theirs.into_iter().flatten());
        Some(mine)
    }

    /// Searches `children` (at `ply`, to `depth`, each less its
    /// `reductions` entry first, as `Worker::null_window`) with the null window
    /// `(alpha, alpha + 1)` on this thread and the idle ones together (the
    /// young brothers, once the eldest has been searched): each takes the
    /// next child not yet taken until none is left or one reaches `beta`,
    /// which stops the others. Returns each child's value from the parent's
    /// view, in order, `None` for a child not searched to the end (only
    /// when one reached `beta`); or `None` if no thread is idle (then
    /// nothing was searched).
    ///
    /// Sets `aborted` if a limit, or a cut-off at an enclosing split point,
    /// stopped the search.
    pub(super) fn split(
        &mut self,
        children: &[(Move, Position<R>)],
        reductions: &[i32],
        depth: i32,
        alpha: i32,
        beta: i32,
        ply: usize,
    ) -> Option<[Option<Value>; MAX_MOVES]> {
        let cut = Arc::new(AtomicBool::new(false));
        let point = SplitPoint {
            children,
            reductions,
            next: AtomicUsize::new(0),
            cut: &cut,
            depth,
            alpha,
            beta,
            ply,
        };
        let values = self.share(children.len() - 1, Some(&cut), |w, out| {
            w.take_siblings(&point, out)
        })?;
        let mut results = [None; MAX_MOVES];
        for (i, v) in values {
            results[i] = Some(v);
        }
        Some(results)
    }

    /// One thread's share of a [`split`](Self::split): the values of the
    /// children it took, by index.
    fn take_siblings(&mut self, point: &SplitPoint<'_, R>, out: &mut Vec<(usize, Value)>) {
        let SplitPoint {
            children,
            reductions,
            next,
            cut,
            depth,
            alpha,
            beta,
            ply,
        } = point;
        // Children can be smaller than a clock check: look before each.
        while !cut.load(Relaxed) && !self.must_stop() {
            let i = next.fetch_add(1, Relaxed);
            let Some((_, child)) = children.get(i) else {
                break;
            };
            let v = self.null_window(child, *depth, *alpha, *ply, reductions[i]);
            if self.aborted {
                break;
            }
            out.push((i, v));
            if v.score >= *beta {
                cut.store(true, Relaxed);
            }
        }
        // A worker running many small tasks might otherwise never reach a
        // clock check.
        self.check_limits();
    }
}
