//! What the requests of `mancala serve` share: the tables, the evaluation,
//! the running analyses and the budget of cores.

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Condvar, Mutex};

use mancala_engine::tablebase::TableSet;
use mancala_eval::Evaluator;

use super::MAX_JOBS;
use mancala_tools::limits;

/// What every request shares: the tables, the evaluation and the running
/// analyses.
pub struct State {
    pub(super) tables: TableSet,
    pub(super) eval: Evaluator,
    /// Each client's running analysis, by the id it chose: its flags.
    pub(super) analyses: Mutex<HashMap<String, Arc<Halts>>>,
    /// Analyses running, all clients together.
    pub(super) running: AtomicUsize,
    /// The number of the next analysis asked for without a client id.
    pub(super) anonymous: AtomicU64,
    /// Places for the other searches (solve, engine, review).
    pub(super) jobs: Arc<tokio::sync::Semaphore>,
    /// The cores the searches share (see [`Cores`]).
    pub(super) cores: Arc<Cores>,
}

/// What stops an analysis: its client (gone, or asking for another), for
/// good; or a search waiting for a core, for a while (`halt` alone).
#[derive(Debug, Default)]
pub(super) struct Halts {
    /// The client has stopped it.
    pub(super) stop: AtomicBool,
    /// Its search is to halt now (the search's own stop flag).
    pub(super) halt: Arc<AtomicBool>,
}

impl Halts {
    /// Stops the analysis for good.
    pub(super) fn stop(&self) {
        self.stop.store(true, Ordering::SeqCst);
        self.halt.store(true, Ordering::SeqCst);
    }
}

/// The server's budget of cores: each search (an analysis, a review, a
/// solve, an engine move) borrows as many search threads as it asks for
/// and as are free, at least one, waiting for one to come free if none
/// is, and gives them back when it ends. Searches running at once thus
/// never use more threads than the budget: one analysis alone gets every
/// core, two share them, and with `--threads 1` they take turns.
///
/// An analysis runs until its client leaves, so it *yields*: a solve, an
/// engine move or a review that finds no core free halts the analyses
/// ([`Cores::lend_yielding`]), which give their cores back and wait until
/// no other search waits, then go on (in the table they had, so the depths
/// done come back at once).
#[derive(Debug)]
pub struct Cores {
    inner: Mutex<Inner>,
    /// Told when cores are given back.
    returned: Condvar,
    budget: usize,
}

#[derive(Debug)]
struct Inner {
    free: usize,
    /// Searches waiting in [`Cores::lend`].
    waiting: usize,
    /// Searches waiting in [`Cores::lend_yielding`].
    waiting_yielding: usize,
    /// Yielding searches running, lent or not ([`Cores::join`]).
    members: usize,
    /// The yielding leases lent: number, halt flag, cores taken.
    yielding: Vec<(u64, Arc<AtomicBool>, usize)>,
    /// The number of the next yielding lease.
    next: u64,
}

/// Cores borrowed from [`Cores`], given back when dropped.
#[derive(Debug)]
pub struct Lease {
    cores: Arc<Cores>,
    taken: usize,
    /// The lease's number among the yielding ones.
    yielding: Option<u64>,
}

impl Cores {
    /// A budget of `budget` cores (at least one).
    pub fn new(budget: usize) -> Arc<Self> {
        let budget = budget.max(1);
        Arc::new(Cores {
            inner: Mutex::new(Inner {
                free: budget,
                waiting: 0,
                waiting_yielding: 0,
                members: 0,
                yielding: Vec::new(),
                next: 0,
            }),
            returned: Condvar::new(),
            budget,
        })
    }

    fn inner(&self) -> std::sync::MutexGuard<'_, Inner> {
        self.inner.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Waits (at most 50 ms) for cores to be given back.
    fn wait<'a>(
        &self,
        guard: std::sync::MutexGuard<'a, Inner>,
    ) -> std::sync::MutexGuard<'a, Inner> {
        self.returned
            .wait_timeout(guard, std::time::Duration::from_millis(50))
            .unwrap_or_else(|e| e.into_inner())
            .0
    }

    /// The budget.
    pub fn budget(&self) -> usize {
        self.budget
    }

    /// Cores not lent now.
    pub fn free(&self) -> usize {
        self.inner().free
    }

    /// Lends up to `wanted` of the free cores, at least one: waits for one
    /// to come free if none is, halting the yielding leases meanwhile.
    /// `None` if `stop` is set first (a search that was stopped while it
    /// waited).
    pub fn lend(self: &Arc<Self>, wanted: usize, stop: &AtomicBool) -> Option<Lease> {
        let mut inner = self.inner();
        inner.waiting += 1;
        while inner.free == 0 {
            if stop.load(Ordering::SeqCst) {
                inner.waiting -= 1;
                return None;
            }
            for (_, halt, _) in &inner.yielding {
                halt.store(true, Ordering::SeqCst);
            }
            inner = self.wait(inner);
        }
        inner.waiting -= 1;
        Some(self.take(&mut inner, wanted, None))
    }

    /// [`lend`](Self::lend) for a search that yields to others (an
    /// analysis): it waits while any other search waits in `lend`, and it
    /// takes no more than its fair share, the budget over the yielding
    /// searches running ([`join`](Self::join); at least one core). `halt` is set, until
    /// the lease is dropped, when a search starts waiting in `lend`, or
    /// when a yielding one starts waiting while this one holds more than
    /// the fair share (it then comes back with its share: two analyses on
    /// two cores run on one each; a third waits for one of them to end).
    /// `halt` is cleared as the lease is lent.
    pub fn lend_yielding(
        self: &Arc<Self>,
        wanted: usize,
        stop: &AtomicBool,
        halt: &Arc<AtomicBool>,
    ) -> Option<Lease> {
        let mut inner = self.inner();
        inner.waiting_yielding += 1;
        loop {
            let fair = (self.budget / inner.members.max(1)).max(1);
            if inner.free > 0 && inner.waiting == 0 {
                inner.waiting_yielding -= 1;
                halt.store(false, Ordering::SeqCst);
                let number = inner.next;
                inner.next += 1;
                let lease = self.take(&mut inner, wanted.min(fair), Some(number));
                inner.yielding.push((number, halt.clone(), lease.taken));
                return Some(lease);
            }
            if stop.load(Ordering::SeqCst) {
                inner.waiting_yielding -= 1;
                return None;
            }
            if inner.free == 0 {
                for (_, other, taken) in &inner.yielding {
                    if *taken > fair {
                        other.store(true, Ordering::SeqCst);
                    }
                }
            }
            inner = self.wait(inner);
        }
    }

    /// Counts a yielding search among those that share the cores, for as
    /// long as the guard lives (across its leases).
    pub fn join(self: &Arc<Self>) -> Member {
        self.inner().members += 1;
        Member(self.clone())
    }

    /// Lends up to `wanted` of the free cores without waiting: `None` if
    /// none is free (a search that holds a lease already and would use
    /// more threads if they were there).
    pub fn try_lend(self: &Arc<Self>, wanted: usize) -> Option<Lease> {
        let mut inner = self.inner();
        (inner.free > 0 && wanted > 0).then(|| self.take(&mut inner, wanted, None))
    }

    /// Takes up to `wanted` free cores, at least one (one must be free).
    fn take(self: &Arc<Self>, inner: &mut Inner, wanted: usize, yielding: Option<u64>) -> Lease {
        let taken = wanted.clamp(1, inner.free);
        inner.free -= taken;
        Lease {
            cores: self.clone(),
            taken,
            yielding,
        }
    }
}

/// A yielding search counted among those sharing the cores
/// ([`Cores::join`]).
#[derive(Debug)]
pub struct Member(Arc<Cores>);

impl Drop for Member {
    fn drop(&mut self) {
        self.0.inner().members -= 1;
        self.0.returned.notify_all();
    }
}

impl Lease {
    /// The search threads the lease runs: the cores it took.
    pub fn threads(&self) -> usize {
        self.taken
    }
}

impl Drop for Lease {
    fn drop(&mut self) {
        let mut inner = self.cores.inner();
        inner.free += self.taken;
        if let Some(number) = self.yielding {
            inner.yielding.retain(|(n, _, _)| *n != number);
        }
        drop(inner);
        self.cores.returned.notify_all();
    }
}

impl State {
    /// The server's state, reading `tables`, its searches sharing every
    /// core of the machine.
    pub fn new(tables: TableSet) -> Self {
        Self::with_cores(tables, limits::Machine::this().cores as usize)
    }

    /// The server's state, its searches sharing `cores` cores.
    pub fn with_cores(tables: TableSet, cores: usize) -> Self {
        State {
            tables,
            eval: Evaluator::default(),
            analyses: Mutex::new(HashMap::new()),
            running: AtomicUsize::new(0),
            anonymous: AtomicU64::new(0),
            jobs: Arc::new(tokio::sync::Semaphore::new(MAX_JOBS)),
            cores: Cores::new(cores),
        }
    }

    /// The cores the searches share.
    pub fn cores(&self) -> &Cores {
        &self.cores
    }

    /// Analyses running now.
    pub fn analyses_running(&self) -> usize {
        self.running.load(Ordering::SeqCst)
    }

    /// Forgets `client`'s analysis if it is still the one with stop flag
    /// `stop` (a newer one of the same client keeps its entry).
    pub(super) fn forget(&self, client: &str, stop: &Arc<Halts>) {
        let mut analyses = self.analyses.lock().expect("not poisoned");
        if analyses
            .get(client)
            .is_some_and(|flag| Arc::ptr_eq(flag, stop))
        {
            analyses.remove(client);
        }
    }

    /// Clients with an analysis running (their entries are forgotten when
    /// it ends).
    pub fn clients(&self) -> usize {
        self.analyses.lock().expect("not poisoned").len()
    }
}

#[cfg(test)]
mod tests {
    use super::Cores;

    #[test]
    fn searches_share_the_budget_of_cores() {
        use std::sync::atomic::AtomicBool;
        let go = AtomicBool::new(false);
        let cores = Cores::new(2);
        let a = cores.lend(2, &go).unwrap();
        assert_eq!((a.threads(), cores.free()), (2, 0));
        // Nothing free: a second search waits for a core, and gives up
        // when it is stopped while it waits.
        let stopped = AtomicBool::new(true);
        assert!(cores.lend(2, &stopped).is_none());
        let waiting = {
            let cores = cores.clone();
            std::thread::spawn(move || cores.lend(2, &AtomicBool::new(false)).unwrap().threads())
        };
        std::thread::sleep(std::time::Duration::from_millis(100));
        assert!(!waiting.is_finished(), "it waits while every core is lent");
        drop(a);
        assert_eq!(waiting.join().unwrap(), 2);
        assert_eq!(cores.free(), 2);
        let c = cores.lend(1, &go).unwrap();
        assert_eq!((c.threads(), cores.free()), (1, 1));
        let d = cores.try_lend(5).unwrap();
        assert_eq!((d.threads(), cores.free()), (1, 0));
        assert!(cores.try_lend(1).is_none(), "nothing free, no waiting");
        drop(c);
        drop(d);
        assert_eq!(cores.free(), 2);
        assert_eq!(Cores::new(0).budget(), 1);
    }

    #[test]
    fn yielding_searches_share_the_cores_fairly() {
        use std::sync::atomic::{AtomicBool, Ordering};
        use std::sync::Arc;
        let go = AtomicBool::new(false);
        let cores = Cores::new(2);
        let first_halt = Arc::new(AtomicBool::new(false));
        let member = cores.join();
        let first = cores.lend_yielding(2, &go, &first_halt).unwrap();
        assert_eq!(first.threads(), 2, "alone, it takes every core");
        let second = {
            let cores = cores.clone();
            std::thread::spawn(move || {
                let halt = Arc::new(AtomicBool::new(false));
                let member = cores.join();
                let lease = cores
                    .lend_yielding(2, &AtomicBool::new(false), &halt)
                    .unwrap();
                (lease.threads(), halt, member, lease)
            })
        };
        while !first_halt.load(Ordering::SeqCst) {
            std::thread::sleep(std::time::Duration::from_millis(5));
        }
        drop(first);
        let (threads, second_halt, _second, _lease) = second.join().unwrap();
        assert_eq!(threads, 1, "its fair share");
        let again = cores.lend_yielding(2, &go, &first_halt).unwrap();
        assert_eq!(again.threads(), 1, "the first comes back with its share");
        assert!(
            !second_halt.load(Ordering::SeqCst),
            "the second is not halted"
        );
        drop(member);
    }

    #[test]
    fn a_yielding_search_is_halted_by_one_that_waits_and_lets_it_go_first() {
        use std::sync::atomic::{AtomicBool, Ordering};
        use std::sync::Arc;
        let go = AtomicBool::new(false);
        let cores = Cores::new(1);
        let halt = Arc::new(AtomicBool::new(true));
        let analysis = cores.lend_yielding(1, &go, &halt).unwrap();
        assert!(!halt.load(Ordering::SeqCst), "cleared as it is lent");
        let released = Arc::new(AtomicBool::new(false));
        let job = {
            let (cores, released) = (cores.clone(), released.clone());
            std::thread::spawn(move || {
                let lease = cores.lend(1, &AtomicBool::new(false)).unwrap();
                std::thread::sleep(std::time::Duration::from_millis(200));
                released.store(true, Ordering::SeqCst);
                drop(lease);
            })
        };
        while !halt.load(Ordering::SeqCst) {
            std::thread::sleep(std::time::Duration::from_millis(5));
        }
        drop(analysis);
        // The job goes first: the analysis gets the core back after it.
        let again = cores.lend_yielding(1, &go, &halt).unwrap();
        assert!(released.load(Ordering::SeqCst));
        job.join().unwrap();
        drop(again);
        assert_eq!(cores.free(), 1);
    }
}
