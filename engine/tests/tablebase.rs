//! Tablebases against brute force: every entry of small layers is checked
//! against a search with full history and no table. The smallest layers use
//! the cycle rule exactly as RULES.md states it (the third occurrence ends
//! the game); the next ones end the game at the second occurrence, which
//! keeps the brute force small and, as RULES.md says, gives the same value
//! under optimal play.

use std::collections::HashMap;

use mancala_engine::tablebase::{build_in_memory, layer_size, Tablebase, TablebaseRules};
use mancala_engine::{AlManqala, Bohnenspiel, DjenonAbe, Position, Rules, Status};

/// The final margin to the side to move under optimal play, the game ending
/// when a position occurs for the `limit`-th time on the line (`seen` holds
/// the occurrences so far, this one included).
fn brute<R: Rules>(
    pos: Position<R>,
    seen: &mut HashMap<u128, u8>,
    limit: u8,
    mut alpha: i32,
    beta: i32,
) -> i32 {
    let me = pos.side_to_move().index();
    let margin = |t: [u8; 2]| t[me] as i32 - t[1 - me] as i32;
    if seen[&pos.board_key()] >= limit {
        return margin(pos.cycle_totals());
    }
    if let Status::Over(t) = pos.status() {
        return margin(t);
    }
    let mut best = i32::MIN;
    for (_, child) in pos.children() {
        *seen.entry(child.board_key()).or_insert(0) += 1;
        let v = -brute(child, seen, limit, -beta, -alpha);
        *seen.get_mut(&child.board_key()).expect("pushed") -= 1;
        best = best.max(v);
        alpha = alpha.max(v);
        if alpha >= beta {
            break;
        }
    }
    best
}

/// Checks every entry of a layer; returns how many.
fn check_layer<R: TablebaseRules>(tables: &Tablebase<R>, seeds: u32, limit: u8) -> u64 {
    let mut checked = 0;
    R::walk(seeds, 0, layer_size(R::PITS, seeds), |_, pits| {
        let pos = Position::<R>::from_key(pits);
        let mut seen = HashMap::from([(pos.board_key(), 1u8)]);
        let want = brute(pos, &mut seen, limit, -100, 100);
        assert_eq!(tables.probe(&pos), Some(want as i8), "{pos}");
        // North to move reads the same board turned round.
        let turned =
            Position::<R>::from_key(R::mirror(pits)).with_side_to_move(mancala_engine::Side::North);
        assert_eq!(tables.probe(&turned), Some(want as i8), "{turned}");
        checked += 1;
    });
    checked
}

fn check_game<R: TablebaseRules>(second_occurrence_layers: &[u32]) {
    let top = *second_occurrence_layers.last().unwrap_or(&2);
    let (tables, _) = build_in_memory::<R>(top);
    for seeds in [0, 2] {
        assert_eq!(check_layer(&tables, seeds, 3), layer_size(R::PITS, seeds));
    }
    for &seeds in second_occurrence_layers {
        assert_eq!(check_layer(&tables, seeds, 2), layer_size(R::PITS, seeds));
    }
}

#[test]
fn bohnenspiel_small_layers_match_brute_force() {
    check_game::<Bohnenspiel>(&[4]);
}

#[test]
fn djenon_abe_small_layers_match_brute_force() {
    check_game::<DjenonAbe>(&[4]);
}

#[test]
fn al_manqala_small_layers_match_brute_force() {
    check_game::<AlManqala>(&[]);
}
