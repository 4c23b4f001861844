//! Self-play sanity per game: over a fixed, seeded set of openings with
//! colours swapped, a depth-6 search outscores a depth-2 search, and a
//! depth-2 search outscores a random mover.

use mancala_engine::search::{Limits, Search, SearchOptions};
use mancala_engine::tt::TranspositionTable;
use mancala_engine::{
    AlManqala, Bohnenspiel, BohnenspielHemprich, Bosh, DjenonAbe, GameRecord, Move, Position,
    Rules, Side, Status,
};
use mancala_eval::Evaluator;

/// Plies after which a game is adjudicated as a cycle (docs/rules.md).
const PLY_CAP: usize = 400;

#[derive(Clone, Copy, Debug)]
enum Player {
    Depth(u32),
    Random,
}

use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

fn choose<R: Rules>(
    player: Player,
    game: &GameRecord<R>,
    eval: &Evaluator,
    rng: &mut StdRng,
) -> Move {
    let moves = game.legal_moves();
    match player {
        Player::Random => moves[rng.random_range(0..moves.len())],
        Player::Depth(d) => {
            let tt = TranspositionTable::new(1);
            let options = SearchOptions {
                limits: Limits {
                    depth: Some(d),
                    ..Limits::default()
                },
                ..SearchOptions::default()
            };
            let (root, history) = game.positions().split_last().unwrap();
            let r = Search::new(root, eval, &tt)
                .history(history)
                .options(options)
                .run(|_| {});
            r.best.unwrap()
        }
    }
}

/// Plays `a` against `b` from seeded random openings of two to five plies,
/// each opening twice with colours swapped. Returns `a`'s total final
/// seeds minus `b`'s.
fn match_margin<R: Rules>(a: Player, b: Player, openings: usize, seed: u64) -> i64 {
    let eval = Evaluator::default();
    let mut rng = StdRng::seed_from_u64(seed);
    let mut margin = 0i64;
    for _ in 0..openings {
        let mut start = GameRecord::new(Position::<R>::start());
        let plies = 2 + rng.random_range(0..4u32);
        for _ in 0..plies {
            let moves = start.legal_moves();
            if moves.is_empty() {
                break;
            }
            start.play(moves[rng.random_range(0..moves.len())]).unwrap();
        }
        for a_side in Side::BOTH {
            let mut game = start.clone();
            while game.status() == Status::Ongoing {
                if game.ply() >= PLY_CAP {
                    game.adjudicate();
                    break;
                }
                let mover = game.current().side_to_move();
                let player = if mover == a_side { a } else { b };
                let mv = choose(player, &game, &eval, &mut rng);
                game.play(mv).unwrap();
            }
            let Status::Over(totals) = game.status() else {
                unreachable!()
            };
            margin += totals[a_side.index()] as i64 - totals[(!a_side).index()] as i64;
        }
    }
    margin
}

fn sanity<R: Rules>(seed: u64) {
    let deep = match_margin::<R>(Player::Depth(6), Player::Depth(2), 2, seed);
    assert!(deep > 0, "{}: depth 6 vs depth 2 margin {deep}", R::ID);
    let shallow = match_margin::<R>(Player::Depth(2), Player::Random, 2, seed + 1);
    assert!(shallow > 0, "{}: depth 2 vs random margin {shallow}", R::ID);
    eprintln!(
        "{}: depth 6 - depth 2 = {deep:+}, depth 2 - random = {shallow:+}",
        R::ID
    );
}

#[test]
fn bohnenspiel_self_play() {
    sanity::<Bohnenspiel>(0x1234_5678);
}

#[test]
fn bohnenspiel_hemprich_self_play() {
    sanity::<BohnenspielHemprich>(0x2345_6789);
}

#[test]
fn al_manqala_self_play() {
    sanity::<AlManqala>(0x3456_789a);
}

#[test]
fn bosh_self_play() {
    sanity::<Bosh>(0x4567_89ab);
}

#[test]
fn djenon_abe_self_play() {
    sanity::<DjenonAbe>(0x5678_9abc);
}
