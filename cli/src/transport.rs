//! How the ranks of a job reach each other: the one trait the ledger's
//! protocol (`cmd::ledger`) is written against, below both it and its MPI
//! implementation (`crate::cluster`), so neither imports the other's
//! module for it.

/// The ranks of a job, as message passing needs them (`crate::cluster`
/// implements them over MPI).
pub trait Ranks {
    /// This process's rank.
    #[cfg_attr(not(feature = "mpi"), allow(dead_code))]
    fn rank(&self) -> usize;
    /// How many ranks the job has.
    fn ranks(&self) -> usize;
    /// Sends `msg` to rank `to`.
    fn send(&self, to: usize, msg: &[u8]);
    /// A message that has come from any rank, and its sender, if one has.
    fn poll(&self) -> Option<(usize, Vec<u8>)>;
}
