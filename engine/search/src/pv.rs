//! Principal variations: the search's PV checked move by move and
//! continued from the table's moves, and a proven PV continued through the
//! endgame tables; both stop at a repetition ([`crate::repetition`]) or the
//! end of the game.

use mancala_rules::repetition::Line;
use mancala_rules::Move;
use mancala_rules::Position;
use mancala_rules::Rules;
use mancala_solve::tt::TranspositionTable;
use mancala_solve::values::BoardValues;

/// The longest principal variation [`extend_pv_by_tables`] makes.
const MAX_TABLE_PV: usize = 64;

/// A proven PV continued through the tables: from where it ends, while the
/// position is in the tables, a move whose child's table value keeps the
/// position's (the first such, in move order), stopping at the end of the
/// game, a repetition or [`MAX_TABLE_PV`] plies (as the solver's PV).
pub(super) fn extend_pv_by_tables<R: Rules, T: BoardValues<R> + ?Sized>(
    root: &Position<R>,
    tables: &T,
    pv: &mut Vec<Move>,
) {
    let mut pos = *root;
    let mut seen = Line::new();
    for &mv in pv.iter() {
        seen.push(&pos);
        pos = pos.play_unchecked(mv);
    }
    if seen.repeats(&pos) {
        return;
    }
    seen.push(&pos);
    while pv.len() < MAX_TABLE_PV {
        let Some(value) = tables.margin(&pos) else {
            break;
        };
        let keeps = pos.children().into_iter().find(|(_, child)| {
            tables.margin(child).map(|v| child.for_parent(&pos, v)) == Some(value)
        });
        let Some((mv, child)) = keeps else { break };
        pv.push(mv);
        pos = child;
        if seen.repeats(&pos) {
            break;
        }
        seen.push(&pos);
    }
}

/// The PV from the search, checked move by move and continued from the
/// table's moves up to `depth` plies (stopping at a repetition or the end).
pub(super) fn extend_pv<R: Rules>(
    root: &Position<R>,
    tt: &TranspositionTable,
    pv: &[Move],
    depth: usize,
) -> Vec<Move> {
    let mut out = Vec::new();
    let mut pos = *root;
    let mut seen = Line::of([root]);
    let mut i = 0;
    while out.len() < depth.max(pv.len()) {
        let mv = match pv.get(i) {
            Some(&m) => Some(m),
            None => tt.probe(pos.key()).and_then(|e| e.mv),
        };
        let Some(mv) = mv else { break };
        let Ok(next) = pos.try_play(mv) else { break };
        out.push(mv);
        pos = next;
        i += 1;
        if seen.repeats(&pos) {
            break;
        }
        seen.push(&pos);
    }
    out
}
