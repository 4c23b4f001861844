//! The MPI transport of a cluster table build (`--features mpi`): the
//! engine's [`Cluster`] over `MPI_COMM_WORLD`, by rsmpi.

use mancala_engine::tablebase::Cluster;
use mpi::collective::SystemOperation;
use mpi::datatype::{Partition, PartitionMut};
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
    let universe =
        mpi::initialize().ok_or_else(|| anyhow::anyhow!("MPI could not be initialised"))?;
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
