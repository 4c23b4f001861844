//! Issue 66, "never a panic, never a false proven": each way to fail that
//! a probe of the commands, their files and their processes found, as a
//! test that failed before its fix. (The ledger's cases are in
//! `ledger_cli.rs`, the web board's in `serve.rs`.)

mod common;

use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use common::{
    assert_bad_input, bohnenspiel_tables, code, command, mancala, match_of, parts, signalled,
    stderr, stdout, temp, words,
};
use rustix::process::Signal;

/// Starts `copies` processes of the command `make` gives, all together,
/// and checks that each one succeeds.
fn all_succeed(copies: usize, make: impl Fn() -> Command) {
    let children: Vec<_> = (0..copies)
        .map(|_| {
            make()
                .stdout(Stdio::null())
                .stderr(Stdio::piped())
                .spawn()
                .unwrap()
        })
        .collect();
    for child in children {
        let o = child.wait_with_output().unwrap();
        assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    }
}

/// The temporary files in `dir`: atomic writes' and table builds' parts.
fn temporary_files(dir: &std::path::Path) -> Vec<String> {
    std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".parts") || n.ends_with(".partial"))
        .collect()
}

/// `solve` on the start of every game, as a new user types it, with the
/// usual limits and without tables: a result, never a panic (the first
/// of these panicked indexing a 72-seed board's tables). The bounds
/// shown are what the position's seeds allow, not the largest game's.
#[test]
fn solve_on_every_start_answers_within_its_seeds() {
    let cases: &[(&[&str], &str)] = &[
        (&["--game", "bohnenspiel"], "between -72 and +72"),
        (&["--game", "bohnenspiel", "--moves", "3,9"], "between"),
        (&["--game", "bohnenspiel", "--dir", "tb-none"], "between"),
        (&["--game", "al-manqala"], "between -98 and +98"),
        (&["--game", "kalah"], "between -48 and +48"),
        (&["--game", "oware"], "between -48 and +48"),
        (&["--game", "bosh"], "between"),
        (
            &["bohnenspiel 6,6,6,6,6,6/6,6,6,6,7,7 S 0-0"],
            "between -74 and +74",
        ),
    ];
    let mut ran = 0;
    for (args, says) in cases {
        let mut argv = vec!["solve", "--nodes", "1000"];
        argv.extend_from_slice(args);
        let (status, out, err) = parts(&mancala(&argv));
        if args[0].contains("7,7") {
            // 74 seeds: not a Bohnenspiel position, bad input.
            assert_eq!(status, 2, "{argv:?}: {err}");
            ran += 1;
            continue;
        }
        assert_eq!(status, 0, "{argv:?}: {err}");
        assert!(out.contains(says), "{argv:?}: {out}");
        ran += 1;
    }
    assert_eq!(ran, cases.len());
    // The time limit too, and the JSON of a proof not finished: its bounds
    // within the seeds, no outcome the bounds do not decide.
    let (status, out, err) = parts(&mancala(&words(
        "solve --game al-manqala --time 200ms --json",
    )));
    assert_eq!(status, 0, "{err}");
    let j: serde_json::Value = serde_json::from_str(out.trim()).unwrap();
    assert_eq!(j["proven"], false);
    assert!(j["lower"].as_i64().unwrap() >= -98, "{j}");
    assert!(j["upper"].as_i64().unwrap() <= 98, "{j}");
    assert!(
        j["outcome"].is_null(),
        "an unproven value has no outcome: {j}"
    );
}

/// A solve checkpoint whose header was edited: the checksum covers the
/// bounds, so crossed or false bounds are damage (exit 2), never a panic
/// or a "proven" value that is not (`bounds 2 2 2` made Bohnenspiel(6,4),
/// a draw, "South wins by 2, proven"; here the same edits of
/// Bohnenspiel(6,2), a draw too, proven in a moment).
#[test]
fn an_edited_checkpoint_is_damage_not_a_proof() {
    let file = temp("trust-ckpt", "b62.ckpt");
    let f = file.to_str().unwrap();
    let proof = |rest: &[&str]| {
        let mut argv = words("solve --game bohnenspiel --seeds-per-pit 2 --hash 16 --checkpoint");
        argv.push(f);
        argv.extend_from_slice(rest);
        parts(&mancala(&argv))
    };
    let (status, out, err) = proof(&["--nodes", "2000"]);
    assert_eq!(status, 0, "{err}");
    assert!(out.contains("not proven"), "{out}");
    let good = std::fs::read(&file).unwrap();
    let end = good.windows(4).position(|w| w == b"end\n").unwrap() + 4;
    let header = String::from_utf8(good[..end].to_vec()).unwrap();
    let bounds = header.lines().find(|l| l.starts_with("bounds ")).unwrap();
    let mut checked = 0;
    for edit in ["bounds -72 -8 -8", "bounds 2 2 2", "bounds -24 24 0"] {
        let mut bytes = header.replace(bounds, edit).into_bytes();
        bytes.extend_from_slice(&good[end..]);
        std::fs::write(&file, &bytes).unwrap();
        let (status, out, err) = proof(&["--nodes", "1000"]);
        assert_eq!(status, 2, "{edit}: {out}{err}");
        assert!(err.contains("checksum"), "{edit}: {err}");
        assert!(!err.contains("panicked"), "{err}");
        checked += 1;
    }
    assert_eq!(checked, 3);
    // The file as it was resumes, and the proof ends with Bohnenspiel(6,2)'s
    // value, a draw.
    std::fs::write(&file, &good).unwrap();
    let (status, out, err) = proof(&[]);
    assert_eq!(status, 0, "{err}");
    assert!(out.contains("margin +0"), "{out}");
}

/// Six processes started together on a new ledger: one creates it, the
/// others read it, every one finishes, and the file reads back.
#[test]
fn processes_started_together_share_a_new_ledger() {
    let mut rounds = 0;
    for round in 0..5 {
        let file = temp("trust-race", &format!("l{round}.txt"));
        all_succeed(6, || {
            let mut c = command();
            c.args(words(
                "solve --game bohnenspiel --seeds-per-pit 2 --depth 3 --pieces 2 --ledger",
            ))
            .arg(&file);
            c
        });
        let o = mancala(&["solve", "--ledger", file.to_str().unwrap(), "--status"]);
        assert_eq!(code(&o), 0, "{}", stderr(&o));
        let left = temporary_files(file.parent().unwrap());
        assert_eq!(left, Vec::<String>::new(), "no temporary file is left");
        rounds += 1;
    }
    assert_eq!(rounds, 5);
}

/// A record of the largest size a file may have, built to be slow: a
/// million tags (refused at the 1,001st), millions of games, one endless
/// comment. Each is read in linear time: the review answers (and a
/// signal would be heard) in seconds, not the minutes a quadratic scan
/// took. The bound is generous (a slow machine, a debug build); the
/// quadratic reader took 13 s for 1.3 MB of tags.
#[test]
fn records_of_the_largest_size_are_read_in_linear_time() {
    let size = 60 << 20;
    let mut checked = 0;
    for (name, unit, head, tail) in [
        ("tags", "[T{} \"v\"]\n", "[Game \"bohnenspiel\"]\n", "*\n"),
        ("games", "[Game \"bohnenspiel\"]\n*\n", "", ""),
        ("comment", "ab ", "[Game \"bohnenspiel\"]\n{", "} *\n"),
    ] {
        let path = temp("trust-records", &format!("{name}.txt"));
        let mut text = String::with_capacity(size + 100);
        text.push_str(head);
        let mut n = 0u64;
        while text.len() < size {
            text.push_str(&unit.replace("{}", &n.to_string()));
            n += 1;
        }
        text.push_str(tail);
        std::fs::write(&path, &text).unwrap();
        drop(text);
        let started = Instant::now();
        let o = mancala(&[
            "review",
            path.to_str().unwrap(),
            "--index",
            "3000000",
            "--depth",
            "1",
        ]);
        let took = started.elapsed();
        assert_eq!(code(&o), 2, "{name}: {}", stderr(&o));
        let err = stderr(&o);
        match name {
            "tags" => assert!(err.contains("more than 1000 tag pairs"), "{err}"),
            _ => assert!(err.contains("holds"), "{name}: {err}"),
        }
        assert!(took < Duration::from_secs(60), "{name}: {took:?}");
        let _ = std::fs::remove_file(&path);
        checked += 1;
    }
    assert_eq!(checked, 3);
}

/// A ledger cut too deep to be read back is refused before it is
/// written (Oware at depth 8 wrote 72 MB it then could not read).
#[test]
fn a_ledger_too_large_to_read_back_is_not_written() {
    let file = temp("trust-ledger-size", "oware.txt");
    let o = mancala(&[
        "solve",
        "--game",
        "oware",
        "--depth",
        "8",
        "--ledger",
        file.to_str().unwrap(),
    ]);
    assert_bad_input(&o, &["--depth 8", "smaller --depth"]);
    assert!(!file.exists());
}

/// Runs `mancala ARGS` from a shell with `limits` set first (`ulimit -v`,
/// `ulimit -f` with SIGXFSZ ignored, as a full disk answers).
fn limited(limits: &str, args: &[&str]) -> std::process::Output {
    let bin = env!("CARGO_BIN_EXE_mancala");
    let quoted: Vec<String> = args.iter().map(|a| format!("'{a}'")).collect();
    Command::new("sh")
        .arg("-c")
        .arg(format!("{limits}; exec '{bin}' {}", quoted.join(" ")))
        .env("MANCALA_TB_DIR", "/nonexistent-mancala-tables")
        .output()
        .unwrap()
}

/// Under a limit of the address space (`ulimit -v`) the memory checks see
/// the limit: a one-line error, not an allocation that aborts.
#[test]
fn memory_checks_respect_an_address_space_limit() {
    let dir = temp("trust-rlimit", "tb");
    let d = dir.to_str().unwrap();
    let o = limited(
        "ulimit -v 40000",
        &words(&format!(
            "tablebase build --game bohnenspiel --max-seeds 16 --dir {d}"
        )),
    );
    assert_bad_input(&o, &["of memory"]);
    let o = limited(
        "ulimit -v 600000",
        &words("solve --game kalah --pits 5 --seeds-per-pit 3 --narrow-tables 32 --nodes 1000"),
    );
    assert_bad_input(&o, &["--narrow-tables 32", "of memory"]);
}

/// Three builds into one directory at once take turns through its lock:
/// every one succeeds, and the layers are those of one build alone.
#[test]
fn builds_into_one_directory_take_turns() {
    let shared = temp("trust-builds", "shared");
    let alone = temp("trust-builds", "alone");
    all_succeed(3, || bohnenspiel_tables(&shared, 12));
    assert!(bohnenspiel_tables(&alone, 12)
        .output()
        .unwrap()
        .status
        .success());
    let mut layers = 0;
    for seeds in (0..=12).step_by(2) {
        let name = format!("bohnenspiel-{seeds:02}.mtb");
        let (a, b) = (shared.join(&name), alone.join(&name));
        assert_eq!(
            std::fs::read(a).unwrap(),
            std::fs::read(b).unwrap(),
            "{name}"
        );
        layers += 1;
    }
    assert_eq!(layers, 7);
    assert_eq!(temporary_files(&shared), Vec::<String>::new());
}

/// A full disk (here a file-size limit, which fails writes as a full disk
/// does): a proof prints the bounds it proved before the error (status 1),
/// and a table build leaves no parts file behind.
#[test]
fn a_full_disk_loses_no_result_and_leaves_no_parts() {
    let ckpt = temp("trust-full", "proof.ckpt");
    let o = limited(
        "trap '' XFSZ; ulimit -f 64",
        &[
            "solve",
            "--game",
            "bohnenspiel",
            "--seeds-per-pit",
            "4",
            "--hash",
            "16",
            "--nodes",
            "100000",
            "--checkpoint",
            ckpt.to_str().unwrap(),
        ],
    );
    let (status, out, err) = (code(&o), stdout(&o), stderr(&o));
    assert_eq!(status, 1, "{out}{err}");
    assert!(out.contains("margin is between"), "the bounds: {out}");
    assert!(err.contains("--checkpoint"), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
    let dir = temp("trust-full", "tb");
    let o = limited(
        "trap '' XFSZ; ulimit -f 2048",
        &[
            "tablebase",
            "build",
            "--game",
            "bohnenspiel",
            "--max-seeds",
            "12",
            "--dir",
            dir.to_str().unwrap(),
        ],
    );
    assert_eq!(code(&o), 1, "{}", stderr(&o));
    assert!(stderr(&o).contains("bohnenspiel-12.mtb"), "{}", stderr(&o));
    assert_eq!(temporary_files(&dir), Vec::<String>::new());
}

/// `match --resume --record`: a match stopped after some games and
/// resumed has each game once in its record, as in `--out`; and a record
/// cut in the middle of a game is mended, not appended to.
#[test]
fn a_resumed_match_records_each_game_once() {
    let out = temp("trust-resume", "out.jsonl");
    let rec = temp("trust-resume", "rec.txt");
    let (o, r) = (out.to_str().unwrap(), rec.to_str().unwrap());
    let players = ["nodes=3000,name=a", "nodes=3000,name=b"];
    let args = |resume: bool| {
        let mut a = words("--games 10 --concurrency 1 --record");
        a.push(r);
        a.push(if resume { "--resume" } else { "--out" });
        a.push(o);
        a
    };
    let first = signalled(
        &[
            &[
                "match",
                "--game",
                "bohnenspiel",
                "-p",
                players[0],
                "-p",
                players[1],
            ][..],
            &args(false)[..],
        ]
        .concat(),
        || std::fs::read_to_string(&out).is_ok_and(|t| t.lines().count() >= 3),
        Signal::TERM,
    );
    assert_eq!(code(&first), 143, "{}", stderr(&first));
    // Cut the record's last game in half, as a kill while writing would.
    let text = std::fs::read_to_string(&rec).unwrap();
    let last = text.rfind("[Game").unwrap();
    let cut = &text[..last + (text.len() - last) / 2];
    std::fs::write(&rec, cut).unwrap();
    let second = match_of("bohnenspiel", players, &args(true));
    assert_eq!(code(&second), 0, "{}", stderr(&second));
    let lines = std::fs::read_to_string(&out).unwrap().lines().count();
    let games = mancala_engine::pgn::parse(&std::fs::read_to_string(&rec).unwrap())
        .expect("the record reads");
    let mut rounds: Vec<String> = games
        .iter()
        .map(|g| g.tag("Round").unwrap().to_string())
        .collect();
    rounds.sort_by_key(|r| r.parse::<u32>().unwrap());
    let expected: Vec<String> = (1..=10).map(|n| n.to_string()).collect();
    assert_eq!((lines, rounds), (10, expected));
}

/// A signal while an external engine starts ends the match with 128 + N,
/// not as an engine that did not answer (exit 2). The engine here never
/// answers its `isready`; the signal comes a second after the start.
#[test]
fn a_signal_during_an_engine_s_start_is_an_interruption() {
    let started = Instant::now();
    let o = signalled(
        &[
            "match",
            "--game",
            "bohnenspiel",
            "-p",
            "cmd=sleep 100,depth=1,name=slow",
            "-p",
            "depth=1",
            "--games",
            "2",
        ],
        || started.elapsed() > Duration::from_secs(1),
        Signal::TERM,
    );
    assert_eq!(code(&o), 143, "{}", stderr(&o));
}

/// Outputs that misled: an interval of nothing after two drawn games, a
/// solved start shown unproven, a missing file or a misspelt game taken
/// for a bad position.
#[test]
fn outputs_say_what_is_known() {
    // Two drawn games: every game scored the same, so there is no
    // interval yet (it was printed as [+0.0, +0.0]).
    let draws = mancala_tools::matchplay::stats::Wdl {
        wins: 0,
        draws: 2,
        losses: 0,
    };
    let e = mancala_tools::matchplay::stats::wdl_estimate(&draws).unwrap();
    assert!(!e.has_interval(), "{e:?}");
    assert_eq!(e.elo, 0.0);
    let mixed = mancala_tools::matchplay::stats::Wdl {
        wins: 1,
        draws: 2,
        losses: 1,
    };
    assert!(mancala_tools::matchplay::stats::wdl_estimate(&mixed)
        .unwrap()
        .has_interval());

    // Djenon-abe's start is in its book: proven.
    let (status, out, err) = parts(&mancala(&words("analyze djenon-abe --depth 4")));
    assert_eq!(status, 0, "{err}");
    assert!(out.contains("proven"), "{out}");
    assert!(out.contains("stopped: depth 4"), "{out}");

    assert_bad_input(&mancala(&["review", "nofile.txt"]), &["no such file"]);
    assert_bad_input(
        &mancala(&["analyze", "bonenspiel"]),
        &["unknown game 'bonenspiel' (did you mean bohnenspiel?)"],
    );
    assert_bad_input(
        &mancala(&["analyze", "--game", "bohnenspeil"]),
        &["did you mean bohnenspiel?"],
    );
    assert_bad_input(
        &mancala(&["analyze", "--game", "chess"]),
        &["unknown game 'chess' (expected one of:"],
    );
}
