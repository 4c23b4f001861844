//! `mancala book`: building a book, and the engine keeping the proven value
//! of a solved game with the shipped book.

#[macro_use]
mod common;
use common::words;

use common::{assert_bad_input, mancala, parts};

/// `mancala book test --game GAME --games GAMES` and `more`.
fn book_test(game: &str, games: u32, more: &[&str]) -> std::process::Output {
    let games = games.to_string();
    let mut args = vec!["book", "test", "--game", game, "--games", &games];
    args.extend_from_slice(more);
    mancala(&args)
}

/// Checks the report of `book test` over `games` games from a start worth
/// `value`: every engine move kept at least the start's value and every
/// game ended at it or better. Returns the engine's moves.
fn every_move_kept_the_value(out: &str, value: &str, games: u32) -> u64 {
    assert!(
        out.contains(&format!("from the start, {value}, proven")),
        "{out}"
    );
    let moves: u64 = out
        .lines()
        .find_map(|l| l.strip_prefix("engine moves "))
        .and_then(|l| l.split(':').next())
        .and_then(|n| n.parse().ok())
        .expect("a summary line");
    assert!(
        out.contains(&format!(
            "kept at least the start's value {moves} (100.0 %)"
        )),
        "{out}"
    );
    assert!(
        out.contains(&format!("at least its proven value: {games}/{games}")),
        "{out}"
    );
    assert!(
        out.contains("games in which a position came again: "),
        "{out}"
    );
    // Every move from the book or the runtime solver: the book is complete.
    assert!(
        out.contains("from the search, not the book or the runtime solver, 0\n"),
        "{out}"
    );
    moves
}

#[test]
fn the_engine_keeps_bosh_s_proven_value_against_random_play() {
    // A node limit (not a time) gives the runtime solver its whole budget
    // on any machine: every engine move must keep the value.
    let o = book_test("bosh", 4, &["--player", "nodes=5000", "--seed", "7"]);
    let (code, out, err) = parts(&o);
    assert_eq!(code, 0, "{out}{err}");
    let moves = every_move_kept_the_value(&out, "South wins by 6", 4);
    assert!(moves >= 8, "{out}");
    // The Bosh book is strict: every position's own value is kept too.
    assert!(
        out.contains(&format!("kept the position's own value {moves} (100.0 %)")),
        "{out}"
    );
}

#[test]
fn the_engine_keeps_djenon_abe_s_proven_value_with_its_book_and_tables() {
    // The Djenon-abe book is played with the tables to 12 seeds, built in
    // memory; a node limit gives the runtime solver its whole budget.
    let versus = ["--opponent", "depth=2,book=no", "--seed", "5"];
    let o = book_test(
        "djenon-abe",
        2,
        &[&["--player", "nodes=2000"], &versus[..]].concat(),
    );
    let (code, out, err) = parts(&o);
    assert_eq!(code, 0, "{out}{err}");
    let moves = every_move_kept_the_value(&out, "North wins by 2", 2);
    assert!(moves >= 10, "{out}");
    assert!(!err.contains("warning"), "{err}");
}

#[test]
fn an_engine_without_the_book_is_caught_losing_value() {
    // Depth 1 without the book blunders against random play: the check
    // finds it and says so with exit status 1.
    let o = book_test("bosh", 2, &["--player", "depth=1,book=no", "--seed", "3"]);
    let (code, out, err) = parts(&o);
    assert_eq!(code, 1, "{out}{err}");
    assert!(
        err.contains("engine moves fell below the start's value"),
        "{err}"
    );
    assert!(out.contains(" played "), "the lost moves are shown: {out}");
    assert!(out.contains("(from the search)"), "{out}");
}

#[test]
fn a_book_build_writes_a_book_that_parses_and_resumes() {
    let dir = std::env::temp_dir().join(format!("mancala-book-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("bosh.txt");
    let path = file.to_str().unwrap();
    // Built on two threads (one a side); the shipped book was built on one.
    let (code, _, err) = parts(&mancala(&argv![
        "book build --game bosh --out",
        path,
        "--hash 64 --strict --threads 2"
    ]));
    assert_eq!(code, 0, "{err}");
    let first = std::fs::read_to_string(&file).unwrap();
    assert_eq!(
        first,
        include_str!("../../positions/book/bosh.txt"),
        "the shipped Bosh book is what the build makes"
    );
    // Resumed from a complete file: nothing new, the same file.
    let (code, _, err) = parts(&mancala(&[
        "book", "build", "--game", "bosh", "--out", path, "--strict",
    ]));
    assert_eq!(code, 0, "{err}");
    assert!(err.contains("(0 new)"), "{err}");
    assert_eq!(std::fs::read_to_string(&file).unwrap(), first);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn book_check_passes_the_shipped_bosh_book_and_fails_a_damaged_one() {
    let o = mancala(&[
        "book", "check", "--game", "bosh", "--strict", "--hash", "64",
    ]);
    let (code, out, err) = parts(&o);
    assert_eq!(code, 0, "{out}{err}");
    assert!(
        out.contains("the start, proven again: South wins by 6"),
        "{out}"
    );
    let shipped = include_str!("../../positions/book/bosh.txt");
    let entries = shipped.lines().count();
    assert!(
        out.contains(&format!(
            "entries: {entries}, every value and move proven again"
        )),
        "{out}"
    );
    assert!(out.contains(&format!("{entries} are right")), "{out}");
    assert_eq!(
        out.matches("every position it can meet is covered").count(),
        2,
        "{out}"
    );

    let dir = std::env::temp_dir().join(format!("mancala-book-check-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let start = "bosh 4,4,4,4,4/4,4,4,4,4 S 0-0";
    // An entry taken out: a position the engine can meet is not covered.
    let holed: String = shipped
        .lines()
        .filter(|l| l.starts_with(start) || l.contains(" S "))
        .map(|l| format!("{l}\n"))
        .collect();
    assert!(holed.lines().count() < entries);
    // A wrong value for the start.
    let wrong = shipped.replace(
        &format!("{start} | margin 6 |"),
        &format!("{start} | margin 4 |"),
    );
    assert_ne!(wrong, shipped);
    for (file, text, says) in [
        ("holed.txt", holed.as_str(), "not covered: bosh"),
        ("wrong.txt", wrong.as_str(), "the book says South wins by 4"),
    ] {
        let path = dir.join(file);
        std::fs::write(&path, text).unwrap();
        let o = mancala(&argv![
            "book check --game bosh --strict --hash 64 --book",
            path.to_str().unwrap()
        ]);
        let (code, out, err) = parts(&o);
        assert_eq!(code, 1, "{file}: {out}{err}");
        assert!(out.contains(says), "{file}: {out}");
        assert!(
            err.contains("failed its check") || err.contains("wrong"),
            "{err}"
        );
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn bad_input_exits_2() {
    let dir = std::env::temp_dir().join(format!("mancala-book-bad-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let damaged = dir.join("damaged.txt");
    std::fs::write(
        &damaged,
        "bosh 4,4,4,4,4/4,4,4,4,4 S 0-0 | margin 6 | move 9\n",
    )
    .unwrap();
    let damaged = damaged.to_str().unwrap();
    // A book built with the tables to 12 seeds goes on only with them.
    let dj_book = dir.join("djenon-abe.txt");
    std::fs::write(
        &dj_book,
        include_str!("../../positions/book/djenon-abe.txt"),
    )
    .unwrap();
    let dj_book = dj_book.to_str().unwrap().to_string();
    for (k, mention) in [("7", "--tables 7"), ("24", "--tables 24")] {
        let build = ["book", "build", "--game", "djenon-abe", "--out", "x.txt"];
        assert_bad_input(
            &mancala(&[&build[..], &["--tables", k]].concat()),
            &[mention],
        );
    }
    for (args, mention) in [
        (
            &["book", "build", "--game", "bohnenspiel", "--out", "x.txt"][..],
            "no book",
        ),
        (
            &["book", "build", "--game", "bosh", "--out", damaged],
            "line 1",
        ),
        (
            &words("book build --game bosh --out x.txt --threads 3")[..],
            "--threads",
        ),
        (&["book", "test", "--game", "chess"], "chess"),
        (
            &[
                "book", "build", "--game", "bosh", "--out", "x.txt", "--tables", "12",
            ][..],
            "no endgame tables",
        ),
        (
            &argv![
                "book build --game djenon-abe --out",
                &dj_book,
                "--tables 10"
            ][..],
            "built with --tables 12",
        ),
        (&["book", "check", "--game", "bohnenspiel"], "no book"),
        (
            &words("book check --game bosh --book no-such-book.txt"),
            "no such file",
        ),
        (
            &["book", "check", "--game", "bosh", "--book", damaged],
            "line 1",
        ),
        (
            &["book", "test", "--game", "bosh", "--games", "0"],
            "--games",
        ),
        (
            &words("book test --game bosh --player book=maybe,depth=2"),
            "book=",
        ),
        (
            &words("book test --game bosh --opponent greedy,book=no"),
            "--opponent",
        ),
    ] {
        assert_bad_input(&mancala(args), &[mention]);
    }
    std::fs::remove_dir_all(&dir).unwrap();
}
