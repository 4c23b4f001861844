//! Properties that must hold in every position of every game (proptest):
//! seeds are conserved, the notation round-trips, every generated move
//! plays, a finished game has no moves, the move count and `has_moves`
//! agree with the moves generated, and the packed key identifies the
//! position.

use mancala_rules::{with_position, AnyPosition, GameId, Move, Position, Rules, Status};
use proptest::prelude::*;

/// A position reached from a game's start by following `choices` (each picks
/// one of the legal moves), stopping early if the game ends.
fn reach(game: GameId, choices: &[u8]) -> AnyPosition {
    fn walk<R: Rules>(mut p: Position<R>, choices: &[u8]) -> Position<R> {
        for &c in choices {
            let legal = p.legal_moves();
            if legal.is_empty() {
                break;
            }
            p = p.play(legal[c as usize % legal.len()]);
        }
        p
    }
    match AnyPosition::start(game) {
        AnyPosition::Bohnenspiel(p) => AnyPosition::Bohnenspiel(walk(p, choices)),
        AnyPosition::BohnenspielHemprich(p) => AnyPosition::BohnenspielHemprich(walk(p, choices)),
        AnyPosition::AlManqala(p) => AnyPosition::AlManqala(walk(p, choices)),
        AnyPosition::Bosh(p) => AnyPosition::Bosh(walk(p, choices)),
        AnyPosition::DjenonAbe(p) => AnyPosition::DjenonAbe(walk(p, choices)),
        AnyPosition::Kalah(p) => AnyPosition::Kalah(walk(p, choices)),
        AnyPosition::KalahEmpty(p) => AnyPosition::KalahEmpty(walk(p, choices)),
        AnyPosition::Oware(p) => AnyPosition::Oware(walk(p, choices)),
    }
}

fn game() -> impl Strategy<Value = GameId> {
    prop::sample::select(GameId::ALL.to_vec())
}

fn reached() -> impl Strategy<Value = AnyPosition> {
    (game(), prop::collection::vec(any::<u8>(), 0..160)).prop_map(|(g, c)| reach(g, &c))
}

fn total<R: Rules>(p: &Position<R>) -> u32 {
    p.board_seeds() + p.tallies().iter().map(|&t| t as u32).sum::<u32>()
}

/// Whether the game lets a player move again (Kalah).
fn moves_again<R: Rules>(_: &Position<R>) -> bool {
    R::MOVES_AGAIN
}

/// `has_moves` and `count_moves` of a position.
fn move_counts<R: Rules>(p: &Position<R>) -> (bool, u32) {
    (R::has_moves(p), R::count_moves(p))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(600))]

    #[test]
    fn seeds_are_conserved_by_every_move(pos in reached()) {
        // The start's total (Kalah's starts hold fewer than its most).
        let game_total = with_position!(AnyPosition::start(pos.game()), s => total(&s));
        with_position!(pos, p => {
            prop_assert_eq!(total(&p), game_total);
            for (_, child) in p.children() {
                prop_assert_eq!(total(&child), game_total, "from {}", p);
            }
        })
    }

    #[test]
    fn notation_round_trips(pos in reached()) {
        let text = pos.to_string();
        let back: AnyPosition = text.parse().unwrap();
        prop_assert_eq!(back, pos);
        prop_assert_eq!(back.to_string(), text);
    }

    #[test]
    fn every_generated_move_plays(pos in reached()) {
        with_position!(pos, p => {
            for (mv, child) in p.children() {
                prop_assert_eq!(p.try_play(mv), Ok(child));
                prop_assert_eq!(p.play_unchecked(mv), child);
                // The other side moves next, but in Kalah after a last
                // seed in the mover's store.
                let again = child.side_to_move() == p.side_to_move();
                prop_assert!(!again || moves_again(&p), "{} {}", p, mv);
            }
            // And nothing else plays.
            let legal = p.legal_moves();
            for pit in 0..=16u8 {
                let mv = Move::from_pit(pit);
                prop_assert_eq!(p.try_play(mv).is_ok(), legal.contains(mv), "{} pit {}", p, pit);
            }
        })
    }

    #[test]
    fn a_finished_game_has_no_legal_moves(pos in reached()) {
        with_position!(pos, p => {
            let over = matches!(p.status(), Status::Over(_));
            prop_assert_eq!(over, p.legal_moves().is_empty(), "{}", p);
            if let Status::Over(t) = p.status() {
                prop_assert_eq!(t[0] as u32 + t[1] as u32, total(&p));
            }
        })
    }

    #[test]
    fn has_moves_agrees_with_the_move_count(pos in reached()) {
        with_position!(pos, p => {
            let (has, count) = move_counts(&p);
            prop_assert_eq!(has, count != 0, "{}", p);
            prop_assert_eq!(count as usize, p.legal_moves().len(), "{}", p);
        })
    }

    #[test]
    fn packed_key_identifies_the_position(a in reached(), b in reached()) {
        let key = |p: &AnyPosition| p.key();
        // Positions of one game: equal keys exactly when equal positions.
        if a.game() == b.game() {
            prop_assert_eq!(key(&a) == key(&b), a == b);
            prop_assert_eq!(key(&a) == key(&b), a.to_string() == b.to_string());
        }
        with_position!(a, p => prop_assert_eq!(Position::from_key(p.key()), p));
    }
}

#[test]
fn keys_of_all_children_are_distinct_from_their_parent_and_each_other() {
    // A deterministic sweep: breadth-first from every start, 4 plies.
    for game in GameId::ALL {
        with_position!(AnyPosition::start(game), root => {
            let mut layer = vec![root];
            for _ in 0..4 {
                let mut next = Vec::new();
                for p in &layer {
                    let children = p.children();
                    let mut keys: Vec<u128> = children.iter().map(|(_, c)| c.key()).collect();
                    keys.sort_unstable();
                    let strings: std::collections::BTreeSet<String> =
                        children.iter().map(|(_, c)| c.to_string()).collect();
                    keys.dedup();
                    assert_eq!(keys.len(), strings.len(), "{p}");
                    next.extend(children.into_iter().map(|(_, c)| c));
                }
                layer = next;
            }
        })
    }
}
