//! A value the search returns: a score, whether it is proven, and the
//! repetition it relied on.

/// A score with whether it is proven (see the module docs).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Value {
    pub score: i32,
    pub proven: bool,
    /// The path index of the earliest position whose repetition the value
    /// relied on ([`NO_REP`]: none). A value that relied on repeating a
    /// position above the node it was found at holds for that path only,
    /// so it is not stored in the table as proven (the graph-history
    /// interaction, handled as in the [solver](mancala_solve)).
    pub rep: u32,
}

/// No repetition was relied on.
pub(crate) const NO_REP: u32 = u32::MAX;

impl std::ops::Neg for Value {
    type Output = Value;
    #[inline]
    fn neg(self) -> Value {
        Value {
            score: -self.score,
            proven: self.proven,
            rep: self.rep,
        }
    }
}
