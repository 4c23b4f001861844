//! Tablebases against brute force: every entry of small layers is checked
//! against a search with full history and no table. Most layers use the
//! cycle rule exactly as docs/rules.md states it (the third occurrence ends the
//! game); Bohnenspiel's layer 4 ends the game at the second occurrence,
//! which keeps the brute force quick and, as docs/rules.md says, gives the same
//! value under optimal play.

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
    let margin = |t: [u8; 2]| pos.margin_of(t);
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

/// Builds the tables to the largest layer named and checks every entry of
/// the layers in `third` with the exact rule (third occurrence), and of
/// those in `second` with the second-occurrence rule.
fn check_game<R: TablebaseRules>(third: &[u32], second: &[u32]) {
    let top = third.iter().chain(second).copied().max().unwrap_or(0);
    let (tables, _) = build_in_memory::<R>(top);
    for &seeds in third {
        assert_eq!(check_layer(&tables, seeds, 3), layer_size(R::PITS, seeds));
    }
    for &seeds in second {
        assert_eq!(check_layer(&tables, seeds, 2), layer_size(R::PITS, seeds));
    }
}

#[test]
fn bohnenspiel_small_layers_match_brute_force() {
    check_game::<Bohnenspiel>(&[0, 2], &[4]);
}

/// Djenon-abe's layer 4 has 342 boards whose optimal play cycles (the
/// builder's bounds never meet there): the exact third-occurrence rule is
/// played out on every one of them.
#[test]
fn djenon_abe_small_layers_match_brute_force() {
    check_game::<DjenonAbe>(&[0, 2, 4], &[]);
}

#[test]
fn al_manqala_small_layers_match_brute_force() {
    check_game::<AlManqala>(&[0, 2], &[]);
}
