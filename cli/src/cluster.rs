//! The MPI transport (`--features mpi`) of a cluster table build (the
//! engine's [`Cluster`]) and of a ledger worked by many ranks
//! ([`Ranks`]), over `MPI_COMM_WORLD`, by rsmpi.

use mancala_engine::tablebase::Cluster;
use mancala_tools::transport::Ranks;
use mpi::collective::SystemOperation;
use mpi::datatype::{Partition, PartitionMut};
use mpi::environment::Threading;
use mpi::point_to_point::MatchedReceiveVec;
use mpi::topology::SimpleCommunicator;
use mpi::traits::*;
use mpi::Count;

/// This process's place in the MPI job.
pub struct World {
    world: SimpleCommunicator,
}

/// Runs `f` inside MPI (initialised before, finalised after, whatever `f`
/// returns).
pub fn with_world<T>(f: impl FnOnce(&World) -> anyhow::Result<T>) -> anyhow::Result<T> {
    // Funneled: only this thread calls MPI, but others run beside it
    // (rayon's, and a ledger's prover on rank 0).
    let (universe, _) = mpi::initialize_with_threading(Threading::Funneled)
        .ok_or_else(|| anyhow::anyhow!("MPI could not be initialised"))?;
    let world = World {
        world: universe.world(),
    };
    f(&world)
}

/// The start of every part of a buffer cut into parts of `counts`.
fn displacements(counts: &[Count]) -> Vec<Count> {
    counts
        .iter()
        .scan(0, |at: &mut Count, &c| {
            let d = *at;
            *at = at.checked_add(c).expect("an exchange under 2 GiB");
            Some(d)
        })
        .collect()
}

impl Cluster for World {
    fn rank(&self) -> usize {
        self.world.rank() as usize
    }

    fn ranks(&self) -> usize {
        self.world.size() as usize
    }

    fn exchange(&self, send: &[u8], counts: &[usize], recv: &mut Vec<u8>) -> Vec<usize> {
        let counts: Vec<Count> = counts
            .iter()
            .map(|&n| Count::try_from(n).expect("a message under 2 GiB"))
            .collect();
        let mut incoming = vec![0 as Count; counts.len()];
        self.world.all_to_all_into(&counts[..], &mut incoming[..]);
        // Neither buffer may be empty: an empty slice's dangling pointer
        // is 0x1, which OpenMPI takes for MPI_IN_PLACE.
        let one = [0u8];
        let send = if send.is_empty() { &one[..] } else { send };
        let total: usize = incoming.iter().map(|&c| c as usize).sum();
        recv.clear();
        recv.resize(total + 1, 0);
        {
            let (out_at, in_at) = (displacements(&counts), displacements(&incoming));
            let out = Partition::new(send, &counts[..], &out_at[..]);
            let mut into = PartitionMut::new(&mut recv[..], &incoming[..], &in_at[..]);
            self.world.all_to_all_varcount_into(&out, &mut into);
        }
        incoming.iter().map(|&c| c as usize).collect()
    }

    fn sum(&self, x: u64) -> u64 {
        let mut total = 0u64;
        self.world
            .all_reduce_into(&x, &mut total, SystemOperation::sum());
        total
    }
}

impl Ranks for World {
    fn rank(&self) -> usize {
        self.world.rank() as usize
    }

    fn ranks(&self) -> usize {
        self.world.size() as usize
    }

    fn send(&self, to: usize, msg: &[u8]) {
        let to = i32::try_from(to).expect("a rank of the job");
        self.world.process_at_rank(to).send(msg);
    }

    fn poll(&self) -> Option<(usize, Vec<u8>)> {
        let probed = self.world.any_process().immediate_matched_probe()?;
        let (msg, status) = probed.matched_receive_vec::<u8>();
        Some((status.source_rank() as usize, msg))
    }
}
