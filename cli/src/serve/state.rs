//! What the requests of `mancala serve` share: the tables, the evaluation,
//! the running analyses and the budget of cores.

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

use mancala_engine::tablebase::TableSet;
use mancala_eval::Evaluator;

use super::MAX_JOBS;
use crate::limits;

/// What every request shares: the tables, the evaluation and the running
/// analyses.
pub struct State {
    pub(super) tables: TableSet,
    pub(super) eval: Evaluator,
    /// Each client's running analysis, by the id it chose: its stop flag.
    pub(super) analyses: Mutex<HashMap<String, Arc<AtomicBool>>>,
    /// Analyses running, all clients together.
    pub(super) running: AtomicUsize,
    /// Places for the other searches (solve, engine, review).
    pub(super) jobs: Arc<tokio::sync::Semaphore>,
    /// The cores the searches share (see [`Cores`]).
    pub(super) cores: Arc<Cores>,
}

/// The server's budget of cores: each analysis or review borrows as many
/// search threads as it asks for and as are free, and at least one, and
/// gives them back when it ends. Searches running at once thus use about
/// the budget in all, not a thread of their own each on top of the others':
/// one analysis alone gets every core, two share them.
#[derive(Debug)]
pub struct Cores {
    free: Mutex<usize>,
    budget: usize,
}

/// Cores borrowed from [`Cores`], given back when dropped.
#[derive(Debug)]
pub struct Lease {
    cores: Arc<Cores>,
    taken: usize,
}

impl Cores {
    /// A budget of `budget` cores (at least one).
    pub fn new(budget: usize) -> Arc<Self> {
        let budget = budget.max(1);
        Arc::new(Cores {
            free: Mutex::new(budget),
            budget,
        })
    }

    /// The budget.
    pub fn budget(&self) -> usize {
        self.budget
    }

    /// Cores not lent now.
    pub fn free(&self) -> usize {
        *self.free.lock().expect("not poisoned")
    }

    /// Lends up to `wanted` of the free cores (none may be free: the
    /// lease then still runs one thread, see [`Lease::threads`]).
    pub fn lend(self: &Arc<Self>, wanted: usize) -> Lease {
        let mut free = self.free.lock().expect("not poisoned");
        let taken = wanted.min(*free);
        *free -= taken;
        Lease {
            cores: self.clone(),
            taken,
        }
    }
}

impl Lease {
    /// The search threads the lease runs: the cores it took, at least one.
    pub fn threads(&self) -> usize {
        self.taken.max(1)
    }
}

impl Drop for Lease {
    fn drop(&mut self) {
        *self.cores.free.lock().expect("not poisoned") += self.taken;
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
    pub(super) fn forget(&self, client: &str, stop: &Arc<AtomicBool>) {
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
        let cores = Cores::new(2);
        let a = cores.lend(2);
        assert_eq!((a.threads(), cores.free()), (2, 0));
        // Nothing free: a second search still runs, on one thread.
        let b = cores.lend(2);
        assert_eq!((b.threads(), cores.free()), (1, 0));
        drop(a);
        assert_eq!(cores.free(), 2);
        let c = cores.lend(1);
        assert_eq!((c.threads(), cores.free()), (1, 1));
        drop(b);
        drop(c);
        assert_eq!(cores.free(), 2);
        assert_eq!(Cores::new(0).budget(), 1);
    }
}
