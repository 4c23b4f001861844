//! Move ordering: the table move first, then captures by size, then the
//! killer moves of the ply, then the rest by history.

use crate::board::Position;
use crate::game::Rules;
use crate::moves::{Move, MAX_MOVES};

use super::params::{CAPTURE_BONUS, HISTORY_MAX, KILLER_BONUS, MAX_PLY};

/// Move slots in the history table: pits `0..=14` (0 is the pass).
const SLOTS: usize = 16;

/// Per-thread ordering memory: two killer moves per ply and a history score
/// per side and pit.
#[derive(Clone, Debug)]
pub struct Ordering {
    killers: Vec<[Option<Move>; 2]>,
    history: [[i32; SLOTS]; 2],
}

impl Default for Ordering {
    fn default() -> Self {
        Self::new()
    }
}

impl Ordering {
    /// Empty tables.
    pub fn new() -> Self {
        Ordering {
            killers: vec![[None; 2]; MAX_PLY + 1],
            history: [[0; SLOTS]; 2],
        }
    }

    /// Forgets everything (a new game).
    pub fn clear(&mut self) {
        self.killers.iter_mut().for_each(|k| *k = [None; 2]);
        self.history = [[0; SLOTS]; 2];
    }

    /// Ages the history between iterations so recent cut-offs weigh more.
    pub fn age(&mut self) {
        for row in &mut self.history {
            row.iter_mut().for_each(|h| *h /= 2);
        }
    }

    /// Records that a quiet (non-capturing) move caused a cut-off.
    #[inline]
    pub fn cutoff(&mut self, side: usize, ply: usize, mv: Move, depth: i32) {
        let k = &mut self.killers[ply.min(MAX_PLY)];
        if k[0] != Some(mv) {
            k[1] = k[0];
            k[0] = Some(mv);
        }
        let h = &mut self.history[side][mv.pit() as usize % SLOTS];
        *h += depth * depth;
        if *h >= HISTORY_MAX {
            for row in &mut self.history {
                row.iter_mut().for_each(|v| *v /= 2);
            }
        }
    }

    /// Ordering keys for the children of `pos` at `ply`; larger goes first.
    #[inline]
    pub fn score<R: Rules>(
        &self,
        pos: &Position<R>,
        ply: usize,
        tt_move: Option<Move>,
        children: &[(Move, Position<R>)],
        keys: &mut [i32; MAX_MOVES],
    ) {
        let side = pos.side_to_move();
        let banked = pos.tally(side) as i32;
        let killers = self.killers[ply.min(MAX_PLY)];
        for (key, (mv, child)) in keys.iter_mut().zip(children) {
            let gain = child.tally(side) as i32 - banked;
            *key = if Some(*mv) == tt_move {
                i32::MAX
            } else if gain > 0 {
                CAPTURE_BONUS * gain
            } else if Some(*mv) == killers[0] {
                KILLER_BONUS[0]
            } else if Some(*mv) == killers[1] {
                KILLER_BONUS[1]
            } else {
                self.history[side.index()][mv.pit() as usize % SLOTS]
            };
        }
    }
}

/// Moves the child with the largest key among `from..` to `from` (selection
/// sort, one step: cheap for at most seven moves and often cut short).
#[inline]
pub fn pick<R: Rules>(children: &mut [(Move, Position<R>)], keys: &mut [i32], from: usize) {
    let mut best = from;
    for i in from + 1..children.len() {
        if keys[i] > keys[best] {
            best = i;
        }
    }
    children.swap(from, best);
    keys.swap(from, best);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Bohnenspiel;

    #[test]
    fn table_move_then_captures_by_size_then_killers_then_history() {
        // South to move: pit 1 captures 2 (pit 2), pit 2 captures 4 (pit 3),
        // pit 3 captures 14 (pits 6, 5, 4 make 6, 4, 4); 4, 5, 6 capture
        // nothing.
        let pos: Position<Bohnenspiel> =
            "bohnenspiel 1,1,3,3,3,5/9,9,9,9,9,1 S 5-5".parse().unwrap();
        let mut children: Vec<_> = pos.children();
        let mut ord = Ordering::new();
        ord.cutoff(0, 3, Move::from_pit(4), 5);
        ord.cutoff(0, 0, Move::from_pit(6), 2);
        let mut keys = [0; MAX_MOVES];
        ord.score(&pos, 3, Some(Move::from_pit(5)), &children, &mut keys);
        let n = children.len();
        for i in 0..n {
            pick(&mut children, &mut keys[..n], i);
        }
        let order: Vec<u8> = children.iter().map(|(m, _)| m.pit()).collect();
        assert_eq!(order, vec![5, 3, 2, 1, 4, 6]);
    }
}
