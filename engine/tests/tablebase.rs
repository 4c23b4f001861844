//! Tablebases against brute force: every entry of small layers is checked
//! against a search with full history and no table. Most layers use the
//! cycle rule exactly as docs/rules.md states it (the third occurrence ends the
//! game); Bohnenspiel's layer 4 ends the game at the second occurrence,
//! which keeps the brute force quick and, as docs/rules.md says, gives the same
//! value under optimal play.

use std::collections::HashMap;

use mancala_engine::tablebase::{build_in_memory, layer_size, Tablebase, TablebaseRules};
use mancala_engine::{
    AlManqala, Bohnenspiel, DjenonAbe, Kalah, KalahEmpty, Oware, Position, Rules, Side, Status,
};

/// The final margin to the side to move under optimal play, the game ending
/// when a position occurs for the `limit`-th time on the line (`seen` holds
/// the occurrences so far, this one included).
fn brute<R: Rules>(
    pos: Position<R>,
    seen: &mut HashMap<u128, u8>,
    limit: u8,
    alpha: i32,
    beta: i32,
) -> i32 {
    brute_scoring(
        pos,
        seen,
        limit,
        &|p| p.margin_of(p.cycle_totals()),
        alpha,
        beta,
    )
}

/// [`brute`] with a repetition scored by `cycle` (the final margin to the
/// side to move at the repeated position).
fn brute_scoring<R: Rules>(
    pos: Position<R>,
    seen: &mut HashMap<u128, u8>,
    limit: u8,
    cycle: &dyn Fn(&Position<R>) -> i32,
    mut alpha: i32,
    beta: i32,
) -> i32 {
    let margin = |t: [u8; 2]| pos.margin_of(t);
    if seen[&pos.board_key()] >= limit {
        return cycle(&pos);
    }
    if let Status::Over(t) = pos.status() {
        return margin(t);
    }
    let mut best = i32::MIN;
    for (_, child) in pos.children() {
        *seen.entry(child.board_key()).or_insert(0) += 1;
        // Kalah: the same side may move again, and the child's value is
        // then its own.
        let v = if child.moves_again_after(&pos) {
            brute_scoring(child, seen, limit, cycle, alpha, beta)
        } else {
            -brute_scoring(child, seen, limit, cycle, -beta, -alpha)
        };
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

/// Kalah has a layer for every seed count (a store takes single seeds),
/// and a move into the store keeps the move: both variants, layers 0 to 5.
#[test]
fn kalah_small_layers_match_brute_force() {
    check_game::<Kalah>(&[0, 1, 2, 3, 4, 5], &[]);
    check_game::<KalahEmpty>(&[0, 1, 2, 3, 4, 5], &[]);
    let (tables, _) = build_in_memory::<Kalah>(5);
    assert_eq!(tables.layer_seeds(), vec![0, 1, 2, 3, 4, 5]);
}

#[test]
fn al_manqala_small_layers_match_brute_force() {
    check_game::<AlManqala>(&[0, 2], &[]);
}

/// The bytes of every layer, checksummed: as the builder of commit 63cd6cd
/// (full passes from a scan that read no bounds) made them. A change to
/// the builder's algorithm must give the same files; the 20- to 24-seed
/// Bohnenspiel files are compared outside the tests (docs/tablebases.md).
#[test]
fn layers_are_byte_identical_to_the_reference_build() {
    use mancala_engine::tablebase::checksum;
    fn sums<R: TablebaseRules>(max: u32) -> Vec<(u32, u64)> {
        let (tables, _) = build_in_memory::<R>(max);
        (0..=max)
            .step_by(2)
            .map(|s| (s, checksum(tables.layer(s).expect("built").entries())))
            .collect()
    }
    let got = [
        sums::<Bohnenspiel>(14),
        sums::<AlManqala>(12),
        sums::<DjenonAbe>(14),
    ];
    assert_eq!(got, REFERENCE);
}
/// The reference checksums of [`layers_are_byte_identical_to_the_reference_build`],
/// per game: (seeds, checksum).
const REFERENCE: [&[(u32, u64)]; 3] = [
    &[
        (0, 0xDF1DD2D6CD67D16F),
        (2, 0xE35CDD56718FA974),
        (4, 0xFC5B54CF26A18A79),
        (6, 0x0C2B7A96324319F9),
        (8, 0xFD3619ECE09A7CC2),
        (10, 0x90B7ECB877EE4F39),
        (12, 0xF90DDC567867E304),
        (14, 0x2F41F94487EDEFA4),
    ],
    &[
        (0, 0xDF1DD2D6CD67D16F),
        (2, 0x43A76B56C7D2C1E5),
        (4, 0x55E3CE2967A7B13D),
        (6, 0x0F5AF853BC35929D),
        (8, 0xCD3D6FD5F6757FF7),
        (10, 0x528FDA13D41E7AC2),
        (12, 0x1B7C3385F4CE3F72),
    ],
    &[
        (0, 0xDF1DD2D6CD67D16F),
        (2, 0x1EEC720ED581EBEB),
        (4, 0x82EEF918C39595A9),
        (6, 0x4BAFCC5CE866EAD5),
        (8, 0x3B7331FCE22E5972),
        (10, 0xAB2AFA5C9C3AA2D1),
        (12, 0xA58E541B02DF51A5),
        (14, 0x62D375DDB294009F),
    ],
];

/// Oware's cycle rule leaves each side its own row, so the value of endless
/// play depends on where the game stands (docs/rules.md, "Oware"): the
/// tables hold, where best play may cycle, the board's own-row margin within
/// what either side can force. Checked against a plain fixed point written
/// here from that sentence (a map of every board of layers 0 to 6, both
/// sides to move, children from `Position::children`, no table code):
/// every board, and the number of boards where play may cycle.
#[test]
fn oware_small_layers_match_a_plain_fixed_point() {
    const TOP: u32 = 6;
    let (tables, stats) = build_in_memory::<Oware>(TOP);
    // Exact values of the smaller layers: the best final margin of the
    // board's seeds for the side to move.
    let mut known: HashMap<u128, i32> = HashMap::new();
    let mut cyclic = 0u64;
    for seeds in 0..=TOP {
        let mut boards = Vec::new();
        Oware::walk(seeds, 0, layer_size(Oware::PITS, seeds), |_, pits| {
            let south = Position::<Oware>::from_key(pits);
            boards.push(south);
            boards.push(south.with_side_to_move(Side::North));
        });
        let n = seeds as i32;
        // Per board: (lo, hi), and its moves: exits (a value) or a board
        // of the same layer.
        let mut bounds: HashMap<u128, (i32, i32)> = HashMap::new();
        let mut moves: HashMap<u128, (i32, Vec<u128>)> = HashMap::new();
        for pos in &boards {
            let key = pos.key();
            if let Status::Over(t) = pos.status() {
                let v = pos.margin_of(t);
                bounds.insert(key, (v, v));
                continue;
            }
            let mut exit = i32::MIN;
            let mut inside = Vec::new();
            for (_, child) in pos.children() {
                let taken = child.banked_margin().abs();
                if taken == 0 {
                    inside.push(child.key());
                } else {
                    let board = child.key() & !(u128::MAX << 96);
                    let board = Position::<Oware>::from_key(board)
                        .with_side_to_move(child.side_to_move())
                        .key();
                    exit = exit.max(taken - known[&board]);
                }
            }
            bounds.insert(
                key,
                if inside.is_empty() {
                    (exit, exit)
                } else {
                    (exit.max(-n), n)
                },
            );
            moves.insert(key, (exit, inside));
        }
        loop {
            let mut changed = false;
            for (key, (exit, inside)) in &moves {
                let (lo, hi) = bounds[key];
                let mut new_lo = *exit;
                let mut new_hi = *exit;
                for child in inside {
                    let (clo, chi) = bounds[child];
                    new_lo = new_lo.max(-chi);
                    new_hi = new_hi.max(-clo);
                }
                let next = (new_lo.max(lo), new_hi.min(hi));
                if next != (lo, hi) {
                    bounds.insert(*key, next);
                    changed = true;
                }
            }
            if !changed {
                break;
            }
        }
        for pos in &boards {
            let (lo, hi) = bounds[&pos.key()];
            if lo < hi && pos.side_to_move() == Side::South {
                cyclic += 1;
            }
            let own = pos.margin_of(pos.cycle_totals());
            let value = own.clamp(lo, hi);
            assert_eq!(
                tables.probe(pos),
                Some(value as i8),
                "{pos}: bounds {lo}..{hi}"
            );
            known.insert(pos.key(), value);
        }
    }
    let cycles: u64 = stats.iter().map(|s| s.cycles).sum();
    assert_eq!(cyclic, cycles, "the boards where play may cycle");
    assert!(cyclic > 100, "{cyclic} boards where play may cycle");
    assert_eq!(
        known.len() as u64,
        2 * (0..=TOP).map(|s| layer_size(12, s)).sum::<u64>()
    );
}

/// Kalah's tables hold the full board only: a narrow board (Kalah(3,n))
/// is not found in them, and the solver proves it the same with and
/// without them.
#[test]
fn kalah_tables_hold_the_full_board_only() {
    use mancala_engine::solve::Solver;
    use mancala_engine::tablebase::NoTables;
    let (tables, _) = build_in_memory::<Kalah>(8);
    let narrow: Position<Kalah> = "kalah 1,2,1/2,1,1 S 0-0".parse().unwrap();
    assert_eq!(tables.probe(&narrow), None);
    let full: Position<Kalah> = "kalah 1,2,1,0,0,0/2,1,1,0,0,0 S 0-0".parse().unwrap();
    assert!(tables.probe(&full).is_some());
    let with = Solver::new(&tables, 1).solve(&narrow);
    let without = Solver::new(&NoTables, 1).solve(&narrow);
    assert_eq!((with.margin, with.best), (without.margin, without.best));
}
