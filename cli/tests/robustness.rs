//! The reproductions of "Never falls over" (issue 14), each a test: every
//! one gets a one-line error or the documented behaviour, never an abort,
//! a hang, a panic or unbounded memory.

mod common;

use common::{assert_bad_input, mancala};

/// Sizes beyond this machine: tables, threads, depths, memory.
#[test]
fn sizes_beyond_the_machine_are_one_line_errors() {
    let cases: &[(&[&str], &str)] = &[
        (
            &["analyze", "--hash", "100000000", "--depth", "1"],
            "--hash",
        ),
        (
            &["solve", "--game", "bosh", "--hash", "1000000000"],
            "--hash",
        ),
        (
            &["bench", "--speedup", "2", "--hash", "1000000000"],
            "--hash",
        ),
        (&["bench", "--speedup", "100000"], "--speedup"),
        (
            &["analyze", "--threads", "100000", "--depth", "1"],
            "--threads",
        ),
        (
            &[
                "match",
                "--game",
                "bohnenspiel",
                "-p",
                "depth=1,hash=100000000",
                "-p",
                "depth=1",
                "--games",
                "2",
            ],
            "hash=",
        ),
        (
            &[
                "match",
                "--game",
                "bohnenspiel",
                "-p",
                "depth=1,threads=100000",
                "-p",
                "depth=1",
                "--games",
                "2",
            ],
            "threads=",
        ),
        (
            &[
                "match",
                "--game",
                "bohnenspiel",
                "-p",
                "depth=100000",
                "-p",
                "depth=1",
                "--games",
                "2",
            ],
            "depth=",
        ),
        (
            &[
                "match",
                "--game",
                "bohnenspiel",
                "-p",
                "depth=1",
                "-p",
                "depth=1",
                "--games",
                "2",
                "--concurrency",
                "100000",
            ],
            "--concurrency",
        ),
        (&["play", "--engine", "depth=1,threads=100000"], "threads="),
        (&["play", "--engine", "depth=1,hash=100000000"], "hash="),
        (
            &["perft", "--game", "bohnenspiel", "--depth", "4294967295"],
            "--depth",
        ),
        (
            &[
                "tune",
                "--game",
                "bosh",
                "--depth",
                "100000",
                "--out",
                "/tmp/never-written.json",
            ],
            "--depth",
        ),
        (
            &["openings", "--game", "bosh", "--depth", "1000"],
            "--depth",
        ),
        (
            &[
                "tablebase",
                "build",
                "--game",
                "bohnenspiel",
                "--max-seeds",
                "40",
                "--dir",
                "/tmp/mancala-never-built",
            ],
            "would need",
        ),
        (
            &[
                "tablebase",
                "build",
                "--game",
                "bohnenspiel",
                "--max-seeds",
                "4",
                "--threads",
                "100000",
                "--dir",
                "/tmp/mancala-never-built",
            ],
            "--threads",
        ),
    ];
    for (args, mentions) in cases {
        assert_bad_input(&mancala(args), &[mentions]);
    }
    assert!(!std::path::Path::new("/tmp/mancala-never-built").exists());
    let engine = common::run(&["engine", "--hash", "100000000"])
        .input("isready\n")
        .output();
    assert_bad_input(&engine, &["--hash"]);
}

#[test]
fn a_setting_given_twice_in_a_player_spec_is_refused() {
    let o = mancala(&[
        "match",
        "--game",
        "bohnenspiel",
        "-p",
        "depth=2,depth=3",
        "-p",
        "depth=1",
        "--games",
        "2",
    ]);
    assert_bad_input(&o, &["depth= is given twice"]);
}
