//! Building and checking a book: the walk of every position the engine
//! can meet ([`build`] proves the gaps it finds, [`check`] stops at the
//! first), and the cache of the runtime solver's answers a build keeps
//! beside its book ([`Leaves`], [`leaves_header`]).

use std::collections::HashMap;

use super::play::{runtime_move, target, PlayTables, Runtime};
use super::{Book, Entry};
use mancala_rules::AnyPosition;
use mancala_rules::Move;
use mancala_rules::{Position, Side};
use mancala_rules::{Rules, Status};
use mancala_solve::{Progress, Proof, Solver};
use mancala_tables::BoardValues;

/// What [`build`] has done so far.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct BuildProgress {
    /// Positions of the engine's to look at, seen so far.
    pub visited: u64,
    /// Of them, answered by the runtime solver.
    pub leaves: u64,
    /// Entries of this side in the book.
    pub entries: u64,
    /// Of them, proven in this run (the rest were in the book already).
    pub proven: u64,
    /// Positions the proofs visited.
    pub proof_nodes: u64,
    /// Positions (of either side to move) where the walk stopped because
    /// the endgame tables hold them.
    pub in_tables: u64,
    /// The longest the runtime solver took to answer a position in this
    /// run (what it may take in a game).
    pub slowest: std::time::Duration,
}

/// What a build has learnt besides the book: the positions (by key) the
/// runtime solver answered, with its move, so that a resumed build need
/// not ask it again. Only a cache: a position missing from it is asked
/// again.
pub type Leaves = HashMap<u128, Move>;

/// The first line of a leaves cache: the runtime solver `budget` its
/// leaves were answered by, with the tables to `tables` seeds, and whether
/// the build is `strict`. A cache whose header differs was made for
/// another build and is not used ([`read_leaves`]).
pub fn leaves_header(budget: Runtime, strict: bool, tables: Option<u32>) -> String {
    format!(
        "# answers of the runtime solver (key move): exact {} positions, keep {} positions, {} MiB{}{}",
        budget.exact_nodes,
        budget.keep_nodes,
        budget.hash_mb,
        tables.map_or(String::new(), |k| format!(", tables to {k} seeds")),
        if strict { ", strict" } else { "" }
    )
}

/// A leaf's line in the cache (without its newline): the position's key
/// in hex, 32 digits, and the move.
pub fn leaf_line(key: u128, mv: Move) -> String {
    format!("{key:032x} {mv}")
}

/// The leaves of a cache's text, if its first line is `header`: lines
/// [`leaf_line`], after the header. Only whole lines count, and a line
/// that does not read is skipped: a write cut short by a crash could name
/// a wrong move, and a missing answer is only asked again.
pub fn read_leaves(text: &str, header: &str) -> Option<Leaves> {
    let mut lines = text
        .split_inclusive('\n')
        .filter_map(|l| l.strip_suffix('\n'));
    if lines.next() != Some(header) {
        return None;
    }
    Some(
        lines
            .filter_map(|l| {
                let (key, mv) = l.trim().split_once(' ')?;
                if key.len() != 32 {
                    return None;
                }
                let key = u128::from_str_radix(key, 16).ok()?;
                Some((key, Move::from_pit(mv.parse().ok()?)))
            })
            .collect(),
    )
}

/// How a build ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BuildEnd {
    /// The book is complete for the side.
    Complete,
    /// `stop` ended it; the book holds what was proven.
    Stopped,
    /// A position of the walk where no move keeps the side's value: the
    /// book or the proofs are wrong (a book from other rules, a damaged
    /// file); the build cannot go on.
    Contradiction(AnyPosition),
}

/// How a [`check`] ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CheckEnd {
    /// Every position of the walk is in the book, answered by the runtime
    /// solver or held by the tables.
    Complete,
    /// `stop` ended it.
    Stopped,
    /// A position of the walk that is neither in the book nor answered by
    /// the runtime solver: the book is not complete.
    Gap(AnyPosition),
}

/// The two ends every walk of the book shares; the others are its gaps'
/// ([`build`] proves a gap, [`check`] stops at it).
trait WalkEnd {
    const COMPLETE: Self;
    const STOPPED: Self;
}

impl WalkEnd for BuildEnd {
    const COMPLETE: Self = BuildEnd::Complete;
    const STOPPED: Self = BuildEnd::Stopped;
}

impl WalkEnd for CheckEnd {
    const COMPLETE: Self = CheckEnd::Complete;
    const STOPPED: Self = CheckEnd::Stopped;
}

/// The proven value of the start of `R` for South: the start's entry in
/// `book`, or else proven with `solver` and added (`None` if `stop` ended
/// the proof).
pub fn prove_start<R: Rules, T: BoardValues<R> + ?Sized>(
    book: &mut Book,
    solver: &mut Solver<'_, R, T>,
    stop: &(dyn Fn() -> bool + Sync),
) -> Option<i32> {
    if let Some(v) = book.start_value(R::ID) {
        return Some(v);
    }
    let start = Position::<R>::start();
    let stop = |_: &Progress| stop();
    let s = solver.prove(&start).stop(&stop).solution().done()?;
    book.insert(Entry {
        position: start.into(),
        margin: s.margin,
        mv: *s.best.first()?,
    });
    Some(s.margin)
}

/// What a walk of the book covers: the engine's side, the start's value,
/// the runtime solver, and what counts as a leaf.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Walk {
    /// The side the engine plays.
    pub engine: Side,
    /// The start's value for South ([`prove_start`]).
    pub start_value: i32,
    /// The runtime solver.
    pub budget: Runtime,
    /// A leaf is a position whose exact value the runtime solver proves
    /// (the engine then keeps every position's own value, also after an
    /// opponent's mistake); without, one where it proves at least a move
    /// that keeps the start's value (a smaller book).
    pub strict: bool,
}

/// Completes `book` for the game `R` as `walk` says: every position the
/// engine can meet in a game from the start, playing `walk.engine`, to the
/// end of the game or to the tables the book is played with
/// (`tables`, [`PlayTables::for_book`]: the runtime solver reads them, and
/// a position they hold ends the walk, since from there they give every
/// move's exact value and captures only shrink the board). Entries already in `book` are trusted,
/// and so are the `leaves` already known (so a build goes on where an
/// interrupted one stopped); new entries are proven with `solver` (its
/// table is kept from proof to proof). `on_entry` is called with each new
/// entry, `on_leaf` with each new answer of the runtime solver (the
/// position's key and the move, and the progress); `stop` ends the build early.
#[allow(clippy::too_many_arguments)] // what to walk, with what, and what to report
pub fn build<R: Rules, T: BoardValues<R> + ?Sized>(
    book: &mut Book,
    leaves: &mut Leaves,
    solver: &mut Solver<'_, R, T>,
    tables: &PlayTables,
    walk: Walk,
    mut on_entry: impl FnMut(&Entry, &BuildProgress),
    on_leaf: impl FnMut(u128, Move, &BuildProgress),
    stop: &(dyn Fn() -> bool + Sync),
) -> BuildEnd {
    // The entries proven, added to the book when the walk ends (it never
    // comes back to a position it has been through).
    let mut proven = Vec::new();
    let prove = |pos: &Position<R>, target: i32, progress: &mut BuildProgress| {
        // The best move, not just one that keeps the target: after an
        // opponent's mistake it keeps the whole gift, and the slack makes
        // the runtime solver's proofs further on easier.
        let before = solver.nodes();
        let best = solver.prove(pos).stop(&|_: &Progress| stop()).best_move();
        progress.proof_nodes += solver.nodes() - before;
        let entry = match best {
            Proof::Stopped => return Err(BuildEnd::Stopped),
            Proof::Done(Some((margin, mv))) if margin >= target => Entry {
                position: (*pos).into(),
                margin,
                mv,
            },
            // Below the target, or (an ongoing position cannot be) no
            // move at all.
            Proof::Done(_) => return Err(BuildEnd::Contradiction((*pos).into())),
        };
        progress.proven += 1;
        progress.entries += 1;
        on_entry(&entry, progress);
        let mv = entry.mv;
        proven.push(entry);
        Ok(mv)
    };
    let end = walk_book(book, leaves, tables, walk, prove, on_leaf, stop);
    for entry in proven {
        book.insert(entry);
    }
    end
}

/// Checks that `book` is complete for the game `R` as `walk` says: the
/// walk of [`build`], ended by the first position that is neither in the
/// book nor answered by the runtime solver ([`CheckEnd::Gap`]) instead of
/// proving it. `on_leaf` is called with each answer of the runtime solver.
pub fn check<R: Rules>(
    book: &Book,
    tables: &PlayTables,
    walk: Walk,
    on_leaf: impl FnMut(u128, Move, &BuildProgress),
    stop: &(dyn Fn() -> bool + Sync),
) -> CheckEnd {
    let gap = |pos: &Position<R>, _: i32, _: &mut BuildProgress| Err(CheckEnd::Gap((*pos).into()));
    walk_book(book, &mut Leaves::new(), tables, walk, gap, on_leaf, stop)
}

/// The walk of [`build`] and [`check`]: every position the engine can
/// meet, through the book's moves and the runtime solver's; a position
/// neither answers goes to `at_gap` (with its target and the progress),
/// whose move the walk goes on through, or whose end ends it.
fn walk_book<R: Rules, E: WalkEnd>(
    book: &Book,
    leaves: &mut Leaves,
    tables: &PlayTables,
    walk: Walk,
    mut at_gap: impl FnMut(&Position<R>, i32, &mut BuildProgress) -> Result<Move, E>,
    mut on_leaf: impl FnMut(u128, Move, &BuildProgress),
    stop: &(dyn Fn() -> bool + Sync),
) -> E {
    let engine = walk.engine;
    let table_seeds = book.tables();
    debug_assert!(tables.are(R::ID, table_seeds), "the book's own tables");
    let tables = tables.below::<R>();
    let mut progress = BuildProgress {
        entries: book
            .iter()
            .filter(|e| e.position.side_to_move() == engine)
            .count() as u64,
        ..Default::default()
    };
    let mut seen: std::collections::HashSet<u128> = Default::default();
    // Depth first: the positions of one line are near each other in the
    // solver's table.
    let mut work: Vec<Position<R>> = vec![Position::<R>::start()];
    while let Some(pos) = work.pop() {
        if pos.status() != Status::Ongoing || !seen.insert(pos.key()) {
            continue;
        }
        if table_seeds.is_some_and(|k| pos.board_seeds() <= k) {
            progress.in_tables += 1;
            continue;
        }
        if pos.side_to_move() != engine {
            for &mv in pos.legal_moves().as_slice() {
                work.push(pos.play_unchecked(mv));
            }
            continue;
        }
        if stop() {
            return E::STOPPED;
        }
        progress.visited += 1;
        let any: AnyPosition = pos.into();
        let target = target(&pos, walk.start_value);
        // Answered by the book, else by the runtime solver (known, or
        // asked): the walk goes on through its move, since in a game the
        // runtime solver must answer every position after it as well.
        let known = book.get(&any).map(|e| e.mv);
        let mv = match known.or_else(|| leaves.get(&pos.key()).copied()) {
            Some(mv) => {
                progress.leaves += known.is_none() as u64;
                mv
            }
            None => {
                let keep = (!walk.strict).then_some(target);
                let asked = std::time::Instant::now();
                let answer = runtime_move(&[], &pos, keep, walk.budget, &tables, &|_| stop());
                progress.slowest = progress.slowest.max(asked.elapsed());
                match answer {
                    Some((mv, _)) => {
                        progress.leaves += 1;
                        leaves.insert(pos.key(), mv);
                        on_leaf(pos.key(), mv, &progress);
                        mv
                    }
                    // The runtime solver may have given up because of `stop`.
                    None if stop() => return E::STOPPED,
                    None => match at_gap(&pos, target, &mut progress) {
                        Ok(mv) => mv,
                        Err(end) => return end,
                    },
                }
            }
        };
        work.push(pos.play_unchecked(mv));
    }
    E::COMPLETE
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::RUNTIME;

    #[test]
    fn the_leaves_cache_reads_back_its_whole_lines_under_its_own_header() {
        let header = leaves_header(RUNTIME, false, Some(12));
        let leaves: Leaves = [
            (0x1234u128 << 64 | 7, Move::from_pit(3)),
            (u128::MAX, Move::from_pit(11)),
        ]
        .into_iter()
        .collect();
        let mut text = format!("{header}\n");
        for (&key, &mv) in &leaves {
            text.push_str(&leaf_line(key, mv));
            text.push('\n');
        }
        assert_eq!(read_leaves(&text, &header), Some(leaves.clone()));
        // A line cut short by a crash, and one that does not read, are
        // skipped; the answers before them stay.
        let cut = format!("{text}zz 4\n{}", &leaf_line(5, Move::from_pit(2))[..20]);
        assert_eq!(read_leaves(&cut, &header), Some(leaves));
        // Made for another runtime solver, other tables or a strict build:
        // not used.
        for other in [
            leaves_header(RUNTIME, true, Some(12)),
            leaves_header(RUNTIME, false, None),
            leaves_header(
                Runtime {
                    hash_mb: 8,
                    ..RUNTIME
                },
                false,
                Some(12),
            ),
        ] {
            assert_ne!(other, header);
            assert_eq!(read_leaves(&text, &other), None);
        }
    }
}
