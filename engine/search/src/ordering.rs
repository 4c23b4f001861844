//! Move ordering: the table move first, then captures by size, then the
//! killer moves of the ply, then the rest by history.

use mancala_rules::Position;
use mancala_rules::Rules;
use mancala_rules::{Move, MAX_MOVES};

use super::params::{CAPTURE_BONUS, KILLER_BONUS, MAX_PLY};
pub use mancala_solve::history::History;
use mancala_solve::history::SLOTS;

/// A pit number no move has: an empty killer slot, or no table move.
const NO_PIT: u8 = u8::MAX;

/// Bits below the ordering value in a packed key: the slot's position.
const POS_BITS: u32 = 3;
const POS_MASK: u32 = (1 << POS_BITS) - 1;
const _: () = assert!(MAX_MOVES < 1 << POS_BITS);

/// The ordering value of the table move: above every capture's (no capture
/// takes 128 seeds), and with [`POS_BITS`] below it still in a `u32`.
const TT_VALUE: u32 = CAPTURE_BONUS as u32 * 128;
const _: () = assert!(TT_VALUE < u32::MAX >> POS_BITS);

/// Packed ordering keys of a node's children (see [`Ordering::score`]), in
/// move-list order; 0 marks a slot with no child (left).
pub type Keys = [u32; MAX_MOVES];

/// Per-thread ordering memory: two killer moves per ply and a history score
/// per side and pit.
#[derive(Clone, Debug)]
pub struct Ordering {
    /// Pit numbers of the killers ([`NO_PIT`]: none), compared with one
    /// byte compare rather than an `Option<Move>`'s two.
    killers: Vec<[u8; 2]>,
    history: History,
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
            killers: vec![[NO_PIT; 2]; MAX_PLY + 1],
            history: History::default(),
        }
    }

    /// Ages the history between iterations so recent cut-offs weigh more.
    pub fn age(&mut self) {
        self.history.age();
    }

    /// Records that a quiet (non-capturing) move caused a cut-off.
    #[inline]
    pub fn cutoff(&mut self, side: usize, ply: usize, mv: Move, depth: i32) {
        let k = &mut self.killers[ply.min(MAX_PLY)];
        if k[0] != mv.pit() {
            k[1] = k[0];
            k[0] = mv.pit();
        }
        self.history.add(side, mv, depth);
    }

    /// Ordering keys for the children of `pos` at `ply`; larger goes first.
    ///
    /// A key packs the ordering value (table move, capture size, killers,
    /// history) above [`POS_BITS`] bits holding `7 - position`, so keys are
    /// distinct and non-zero, and the largest one is the first of the
    /// largest values: what a selection sort with a strict `>` picks. See
    /// [`pick`]. `keys` must be zero past the children.
    #[inline]
    pub fn score<R: Rules>(
        &self,
        pos: &Position<R>,
        ply: usize,
        tt_move: Option<Move>,
        children: &[(Move, Position<R>)],
        keys: &mut Keys,
    ) {
        let side = pos.side_to_move();
        let banked = pos.tally(side) as i32;
        let tt = tt_move.map_or(NO_PIT, Move::pit);
        let [k0, k1] = self.killers[ply.min(MAX_PLY)];
        let history = self.history.scores(side.index());
        for (i, (key, (mv, child))) in keys.iter_mut().zip(children).enumerate() {
            let pit = mv.pit();
            let gain = child.tally(side) as i32 - banked;
            // The rules in reverse order of precedence, each overriding
            // the last: selects rather than a chain of unpredictable
            // branches. History is never negative (it grows by squares and
            // is halved).
            let mut value = history[pit as usize % SLOTS] as u32;
            value = if pit == k1 {
                KILLER_BONUS[1] as u32
            } else {
                value
            };
            value = if pit == k0 {
                KILLER_BONUS[0] as u32
            } else {
                value
            };
            value = if gain > 0 {
                (CAPTURE_BONUS * gain) as u32
            } else {
                value
            };
            value = if pit == tt { TT_VALUE } else { value };
            *key = value << POS_BITS | (POS_MASK - i as u32);
        }
    }
}

/// Moves the child with the largest key among `from..` to `from`: one step
/// of a selection sort (cheap for at most seven moves and often cut short)
/// that takes the first of equal values, as the keys of
/// [`Ordering::score`] encode.
///
/// Slots are picked in order, `0, 1, …`; picking a slot again leaves it in
/// place (as the selection sort would). A picked slot's key becomes 0, and
/// the slots past the last child hold 0, below every child's key: the
/// largest key is then a branch-free maximum over the whole array.
#[inline]
pub fn pick<R: Rules>(children: &mut [(Move, Position<R>)], keys: &mut Keys, from: usize) {
    if keys[from] == 0 {
        return;
    }
    debug_assert!(keys[..from].iter().all(|&k| k == 0), "picked out of order");
    let best = keys.iter().fold(0, |a, &k| a.max(k));
    let at = (POS_MASK - (best & POS_MASK)) as usize;
    if at != from {
        children.swap(from, at);
        // The child from `from` now sits at `at`.
        keys[at] = (keys[from] & !POS_MASK) | (POS_MASK - at as u32);
    }
    keys[from] = 0;
}

#[cfg(test)]
mod tests {
    use super::*;
    use mancala_rules::Bohnenspiel;

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
        for i in 0..children.len() {
            pick(&mut children, &mut keys, i);
        }
        let order: Vec<u8> = children.iter().map(|(m, _)| m.pit()).collect();
        assert_eq!(order, vec![5, 3, 2, 1, 4, 6]);
    }

    #[test]
    fn pick_orders_as_a_selection_sort_taking_the_first_largest() {
        // The plain selection sort (strict `>`, swapping) that the packed
        // keys stand in for: ties among the rest follow the swaps.
        fn reference(values: &[u32]) -> Vec<u8> {
            let mut items: Vec<(u32, u8)> = values.iter().zip(1..).map(|(&v, m)| (v, m)).collect();
            for from in 0..items.len() {
                let mut best = from;
                for i in from + 1..items.len() {
                    if items[i].0 > items[best].0 {
                        best = i;
                    }
                }
                items.swap(from, best);
            }
            items.iter().map(|&(_, m)| m).collect()
        }
        let pos = Position::<Bohnenspiel>::start();
        let mut seed = 12345u32;
        for round in 0..20_000 {
            let n = 1 + round % MAX_MOVES;
            let values: Vec<u32> = (0..n)
                .map(|_| {
                    seed = seed.wrapping_mul(1_103_515_245).wrapping_add(12_345);
                    // Few distinct values, so many ties.
                    (seed >> 16) % 4 * (1 << 18)
                })
                .collect();
            let mut children: Vec<_> = (1..=n as u8).map(|m| (Move::from_pit(m), pos)).collect();
            let mut keys = [0; MAX_MOVES];
            for (i, &v) in values.iter().enumerate() {
                keys[i] = v << POS_BITS | (POS_MASK - i as u32);
            }
            for i in 0..n {
                pick(&mut children, &mut keys, i);
            }
            let order: Vec<u8> = children.iter().map(|(m, _)| m.pit()).collect();
            assert_eq!(order, reference(&values), "{values:?}");
            // Sorted: picking any slot again changes nothing.
            for i in (0..n).rev().chain(0..n) {
                pick(&mut children, &mut keys, i);
            }
            let again: Vec<u8> = children.iter().map(|(m, _)| m.pit()).collect();
            assert_eq!(again, order, "{values:?}");
        }
    }
}
