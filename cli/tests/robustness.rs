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

fn broken(mode: &str, extra: &str) -> String {
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/broken_engine.sh");
    format!("cmd=sh {script} {mode},depth=1,name={mode}{extra}")
}

/// An engine that floods its output with lines, or sends one endless line,
/// forfeits on time or as garbled, in bounded time and memory.
#[test]
fn a_flooding_engine_forfeits_and_the_match_goes_on() {
    let out = mancala(&[
        "match",
        "--game",
        "bohnenspiel",
        "-p",
        "greedy",
        "-p",
        &broken("flood", ",timeout=500ms"),
        "-p",
        &broken("longline", ",timeout=1s"),
        "--gauntlet",
        "--games",
        "2",
        "--json",
    ]);
    assert!(out.status.success(), "{}", common::stderr(&out));
    let s: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    for (k, mode) in ["flood", "longline"].iter().enumerate() {
        let p = &s["pairings"][k];
        assert_eq!(p["second"], *mode);
        assert_eq!(p["forfeits"], serde_json::json!([0, 2]), "{mode}: {p}");
    }
}

/// A byte that is not UTF-8 is one bad line, not the end of the protocol.
#[test]
fn the_engine_protocol_reads_past_bytes_that_are_not_utf8() {
    let o = common::run(&["engine"])
        .input("isready\n\u{0}\nisready\n")
        .output();
    assert!(o.status.success());
    assert_eq!(common::stdout(&o), "readyok\nreadyok\n");
    let mut input = b"isready\n\xff\xfe\nisready\n".to_vec();
    input.extend(std::iter::repeat_n(b'x', 200_000));
    input.extend(b"\nisready\n");
    let o = common::run(&["engine"]).input_bytes(&input).output();
    assert!(o.status.success());
    assert_eq!(common::stdout(&o), "readyok\nreadyok\nreadyok\n");
    let err = common::stderr(&o);
    assert_eq!(err.lines().count(), 2, "{err}");
    assert!(err.contains("200000 bytes"), "{err}");
}

/// An engine's own children end with it: the runner kills its process
/// group, not only the program it started.
#[test]
fn an_engines_children_end_with_it() {
    let pid_file = common::temp("robustness", "orphan.pid");
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/broken_engine.sh");
    let spec = format!(
        "cmd=sh {script} orphan {},depth=1,timeout=300ms,name=orphan",
        pid_file.display()
    );
    let out = mancala(&[
        "match",
        "--game",
        "bohnenspiel",
        "-p",
        "greedy",
        "-p",
        &spec,
        "--games",
        "2",
        "--json",
    ]);
    assert!(out.status.success(), "{}", common::stderr(&out));
    let pid = std::fs::read_to_string(&pid_file).unwrap();
    let status = std::fs::read_to_string(format!("/proc/{}/status", pid.trim()));
    let alive = status.is_ok_and(|s| !s.contains("State:\tZ"));
    assert!(
        !alive,
        "the engine's child {} outlived the match",
        pid.trim()
    );
}
