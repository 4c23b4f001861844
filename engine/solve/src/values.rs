//! What the solver and the search read of endgame tables: exact values of
//! boards, from a trait that the tables (`mancala-tables`) implement. The
//! reader defines what it reads, so neither the solver nor the search
//! knows how tables are built or stored, and the tables depend on this
//! crate, not the other way round.

use mancala_rules::{Position, Rules};

/// Exact board values that a solver may consult: endgame tables, or none.
pub trait BoardValues<R: Rules>: Sync {
    /// The value of the board to the side to move (the seeds still to be
    /// won by it, less the opponent's, under optimal play and the cycle
    /// rule), or `None` if unknown.
    fn board_value(&self, pos: &Position<R>) -> Option<i8>;

    /// The final margin from the side to move's view (own total minus the
    /// opponent's, banked seeds included) under optimal play: the tallies'
    /// difference plus the [board value](Self::board_value), or `None` if
    /// the board is unknown. The solver and the search both score a table
    /// hit with this.
    #[inline]
    fn margin(&self, pos: &Position<R>) -> Option<i32> {
        Some(pos.banked_margin() + self.board_value(pos)? as i32)
    }

    /// The largest seed count up to which every (even) layer is known, if
    /// any: every board with at most that many seeds has a value.
    fn complete_to(&self) -> Option<u32> {
        None
    }
}

/// No tables: every probe misses.
#[derive(Clone, Copy, Debug, Default)]
pub struct NoTables;

impl<R: Rules> BoardValues<R> for NoTables {
    #[inline]
    fn board_value(&self, _pos: &Position<R>) -> Option<i8> {
        None
    }
}
