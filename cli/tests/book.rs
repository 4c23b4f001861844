//! `mancala book`: building a book, and the engine keeping the proven value
//! of a solved game with the shipped book.

mod common;

use common::{assert_bad_input, mancala, parts};

#[test]
fn the_engine_keeps_bosh_s_proven_value_against_random_play() {
    // A node limit (not a time) gives the runtime solver its whole budget
    // on any machine: every engine move must keep the value.
    let o = mancala(&[
        "book",
        "test",
        "--game",
        "bosh",
        "--games",
        "4",
        "--player",
        "nodes=5000",
        "--seed",
        "7",
    ]);
    let (code, out, err) = parts(&o);
    assert_eq!(code, 0, "{out}{err}");
    assert!(
        out.contains("from the start, South wins by 6, proven"),
        "{out}"
    );
    let moves: u64 = out
        .lines()
        .find_map(|l| l.strip_prefix("engine moves "))
        .and_then(|l| l.split(':').next())
        .and_then(|n| n.parse().ok())
        .expect("a summary line");
    assert!(moves >= 8, "{out}");
    assert!(
        out.contains(&format!("kept the value {moves} (100.0 %)")),
        "{out}"
    );
    assert!(out.contains("at least its proven value: 4/4"), "{out}");
}

#[test]
fn an_engine_without_the_book_is_caught_losing_value() {
    // Depth 1 without the book blunders against random play: the check
    // finds it and says so with exit status 1.
    let o = mancala(&[
        "book",
        "test",
        "--game",
        "bosh",
        "--games",
        "2",
        "--player",
        "depth=1,book=no",
        "--seed",
        "3",
    ]);
    let (code, out, err) = parts(&o);
    assert_eq!(code, 1, "{out}{err}");
    assert!(err.contains("engine moves lost value"), "{err}");
    assert!(out.contains(" played "), "the lost moves are shown: {out}");
}

#[test]
fn a_book_build_writes_a_book_that_parses_and_resumes() {
    let dir = std::env::temp_dir().join(format!("mancala-book-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("bosh.txt");
    let path = file.to_str().unwrap();
    let (code, _, err) = parts(&mancala(&[
        "book", "build", "--game", "bosh", "--out", path, "--hash", "64",
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
        "book", "build", "--game", "bosh", "--out", path,
    ]));
    assert_eq!(code, 0, "{err}");
    assert!(err.contains("(0 new)"), "{err}");
    assert_eq!(std::fs::read_to_string(&file).unwrap(), first);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn bad_input_exits_2() {
    let dir = std::env::temp_dir().join(format!("mancala-book-bad-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let damaged = dir.join("damaged.txt");
    std::fs::write(
        &damaged,
        "bosh 4,4,4,4,4/4,4,4,4,4 S 0-0 | margin 6 | best 9\n",
    )
    .unwrap();
    let damaged = damaged.to_str().unwrap();
    for (args, mention) in [
        (
            &["book", "build", "--game", "bohnenspiel", "--out", "x.txt"][..],
            "no book",
        ),
        (
            &["book", "build", "--game", "bosh", "--out", damaged],
            "line 1",
        ),
        (&["book", "test", "--game", "chess"], "chess"),
        (
            &["book", "test", "--game", "bosh", "--games", "0"],
            "--games",
        ),
        (
            &[
                "book",
                "test",
                "--game",
                "bosh",
                "--player",
                "book=maybe,depth=2",
            ],
            "book=",
        ),
        (
            &[
                "book",
                "test",
                "--game",
                "bosh",
                "--opponent",
                "greedy,book=no",
            ],
            "--opponent",
        ),
    ] {
        assert_bad_input(&mancala(args), &[mention]);
    }
    std::fs::remove_dir_all(&dir).unwrap();
}
