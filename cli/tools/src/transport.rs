//! How the ranks of a job reach each other: the one trait the ledger's
//! protocol ([`crate::ledger::ranks`]) is written against; the binary
//! implements it over MPI (`cli/src/cluster.rs`, with the `mpi` feature),
//! the tests over threads.

/// The ranks of a job, as message passing needs them.
pub trait Ranks {
    /// This process's rank.
    fn rank(&self) -> usize;
    /// How many ranks the job has.
    fn ranks(&self) -> usize;
    /// Sends `msg` to rank `to`.
    fn send(&self, to: usize, msg: &[u8]);
    /// A message that has come from any rank, and its sender, if one has.
    fn poll(&self) -> Option<(usize, Vec<u8>)>;
}
