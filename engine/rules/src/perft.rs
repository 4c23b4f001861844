//! Perft: counting move sequences, to check the move generator against an
//! independent one and to measure its speed.
//!
//! The cycle rule applies along each line ([`crate::repetition`]): a
//! position occurring for the third time (the root being its first
//! occurrence) ends the game, so it has no moves.

use crate::board::{Position, Rules};
use crate::repetition::Line;

/// The line from the root to the current node, for the cycle rule.
struct Path {
    line: Line,
}

impl Path {
    fn new<R: Rules>(root: &Position<R>, depth: u32) -> Path {
        let mut line = Line::with_capacity(depth as usize + 1);
        line.push(root);
        Path { line }
    }

    /// Pushes a node; returns whether it ends the game by the cycle rule.
    #[inline]
    fn push<R: Rules>(&mut self, pos: &Position<R>) -> bool {
        let ends = self.line.ends_game(pos);
        self.line.push(pos);
        ends
    }

    #[inline]
    fn pop(&mut self) {
        self.line.pop();
    }
}

/// How the leaves are counted.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LeafCounting {
    /// Count the legal moves of the last interior nodes without making them
    /// (as fast as the game's move counter allows).
    Bulk,
    /// Make every move, leaves included.
    PlayEvery,
}

/// The number of move sequences of every length `1..=depth` from `pos`:
/// element `k` counts the sequences of `k + 1` moves.
///
/// ```
/// use mancala_rules::{perft, Bohnenspiel, LeafCounting, Position};
/// let counts = perft(&Position::<Bohnenspiel>::start(), 2, LeafCounting::Bulk);
/// assert_eq!(counts, vec![6, 36]);
/// ```
pub fn perft<R: Rules>(pos: &Position<R>, depth: u32, counting: LeafCounting) -> Vec<u64> {
    let mut counts = vec![0u64; depth as usize];
    if depth == 0 {
        return counts;
    }
    let mut path = Path::new(pos, depth);
    visit(pos, 0, &mut counts, &mut path, counting);
    counts
}

/// The number of sequences of exactly `depth` moves (the classic perft number).
pub fn perft_leaves<R: Rules>(pos: &Position<R>, depth: u32, counting: LeafCounting) -> u64 {
    perft(pos, depth, counting).last().copied().unwrap_or(1)
}

fn visit<R: Rules>(
    pos: &Position<R>,
    ply: usize,
    counts: &mut [u64],
    path: &mut Path,
    counting: LeafCounting,
) {
    if ply + 1 == counts.len() {
        counts[ply] += match counting {
            LeafCounting::Bulk => R::count_moves(pos) as u64,
            LeafCounting::PlayEvery => {
                let mut n = 0u64;
                let mut fold = 0u128;
                R::generate(pos, |_, child| {
                    n += 1;
                    fold ^= child.key();
                });
                std::hint::black_box(fold);
                n
            }
        };
        return;
    }
    R::generate(pos, |_, child| {
        counts[ply] += 1;
        if !path.push(&child) {
            visit(&child, ply + 1, counts, path, counting);
        }
        path.pop();
    });
}

/// Perft split by root move: each legal move with the number of sequences of
/// exactly `depth` moves that start with it.
pub fn perft_divide<R: Rules>(pos: &Position<R>, depth: u32) -> Vec<(crate::Move, u64)> {
    let mut out = Vec::new();
    if depth == 0 {
        return out;
    }
    let mut path = Path::new(pos, depth);
    R::generate(pos, |mv, child| {
        let n = if depth == 1 {
            1
        } else if path.push(&child) {
            path.pop();
            0
        } else {
            let mut counts = vec![0u64; depth as usize - 1];
            visit(&child, 0, &mut counts, &mut path, LeafCounting::Bulk);
            path.pop();
            counts[depth as usize - 2]
        };
        out.push((mv, n));
    });
    out
}
