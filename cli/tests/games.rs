//! The one list of games (`for_each_game!` in engine/rules/src/games/mod.rs)
//! against every place that must know each game: the notation, the rules
//! text, the files each game ships, the tables, the evaluation and the
//! `mancala` commands that list games. A game added to the list and
//! missing in one of them fails here (or does not compile).

mod common;

use common::{mancala, stdout};
use mancala_engine::files::{parse_openings, parse_perft, shipped_openings, shipped_perft};
use mancala_engine::tablebase::{build_in_memory, has_tables};
use mancala_engine::{with_rules, with_table_rules, AnyPosition, GameId, Position, Status};
use mancala_eval::Evaluator;

#[test]
fn every_game_is_known_everywhere() {
    let eval = Evaluator::default();
    let all_rules = stdout(&mancala(&["rules"]));
    let (mut checked, mut with_tables) = (0, 0);
    for game in GameId::ALL {
        // The notation: its name, and its start written and read back.
        assert_eq!(game.name().parse::<GameId>(), Ok(game));
        let start = AnyPosition::start(game);
        assert_eq!(start.game(), game);
        assert_eq!(start.to_string().parse::<AnyPosition>(), Ok(start));
        assert_eq!(start.status(), Status::Ongoing, "{game}");
        // Its rules in a few lines, in `mancala rules` with and without it named.
        let summary = game.summary();
        assert!(summary.lines().count() >= 2, "{game}: {summary}");
        assert!(
            all_rules.contains(summary),
            "{game} missing from `mancala rules`"
        );
        assert!(stdout(&mancala(&["rules", game.name()])).starts_with(summary));
        // The files it ships: openings of its own, and perft counts.
        let openings = parse_openings(shipped_openings(game), game).expect("openings parse");
        assert!(!openings.is_empty(), "{game}: no openings");
        let perft = parse_perft(shipped_perft(game)).expect("perft parses");
        assert!(
            perft.iter().any(|e| e.position.game() == game),
            "{game}: no perft count of its own"
        );
        // The tables: a game either has them (and they build) or does not.
        let table_layers =
            with_table_rules!(game, R => build_in_memory::<R>(4).0.complete_to(), _ => None);
        assert_eq!(table_layers.is_some(), has_tables(game), "{game}");
        with_tables += usize::from(has_tables(game));
        // The evaluation: a finite score of the start (its weights or network).
        let score = with_rules!(game, R => {
            let p = Position::<R>::start();
            mancala_engine::search::Evaluate::<R>::evaluate(&eval, &p)
        });
        assert!(score.abs() < 100_000, "{game}: {score}");
        checked += 1;
    }
    assert_eq!(checked, 8, "the games of the list");
    assert_eq!(with_tables, 6, "the games with tables");
}
