//! The reproductions of "Never falls over" (issue 14), each a test: every
//! one gets a one-line error or the documented behaviour, never an abort,
//! a hang, a panic or unbounded memory.

#[macro_use]
mod common;
use common::words;

use common::{assert_bad_input, broken, mancala, match_of};

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
            &words("match --game bohnenspiel -p depth=1,hash=100000000 -p depth=1 --games 2"),
            "hash=",
        ),
        (
            &words("match --game bohnenspiel -p depth=1,threads=100000 -p depth=1 --games 2"),
            "threads=",
        ),
        (
            &words("match --game bohnenspiel -p depth=100000 -p depth=1 --games 2"),
            "depth=",
        ),
        (
            &words("match --game bohnenspiel -p depth=1 -p depth=1 --games 2 --concurrency 100000"),
            "--concurrency",
        ),
        (&["play", "--engine", "depth=1,threads=100000"], "threads="),
        (&["play", "--engine", "depth=1,hash=100000000"], "hash="),
        (
            &["perft", "--game", "bohnenspiel", "--depth", "4294967295"],
            "--depth",
        ),
        (
            &words("tune --game bosh --depth 100000 --out /tmp/never-written.json"),
            "--depth",
        ),
        (
            &["openings", "--game", "bosh", "--depth", "1000"],
            "--depth",
        ),
        (
            &words("tablebase build --game bohnenspiel --max-seeds 40 --dir /tmp/mancala-never-built"),
            "would need",
        ),
        (
            &words("tablebase build --game bohnenspiel --max-seeds 4 --threads 100000 --dir /tmp/mancala-never-built"),
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
    let o = match_of(
        "bohnenspiel",
        ["depth=2,depth=3", "depth=1"],
        &["--games", "2"],
    );
    assert_bad_input(&o, &["depth= is given twice"]);
}

/// An engine that floods its output with lines, or sends one endless line,
/// forfeits on time or as garbled, in bounded time and memory.
#[test]
fn a_flooding_engine_forfeits_and_the_match_goes_on() {
    let longline = broken("longline", ",timeout=1s");
    let out = match_of(
        "bohnenspiel",
        ["greedy", &broken("flood", ",timeout=500ms")],
        &argv!["-p", &longline, "--gauntlet --games 2 --json"],
    );
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
    let out = match_of(
        "bohnenspiel",
        ["greedy", &spec],
        &["--games", "2", "--json"],
    );
    assert!(out.status.success(), "{}", common::stderr(&out));
    let pid = std::fs::read_to_string(&pid_file).unwrap();
    // A killed process takes a moment to go: look for up to 3 s.
    let alive = || {
        let status = std::fs::read_to_string(format!("/proc/{}/status", pid.trim()));
        status.is_ok_and(|s| !s.contains("State:\tZ") && !s.contains("State:\tX"))
    };
    let started = std::time::Instant::now();
    while alive() && started.elapsed().as_secs() < 3 {
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    assert!(
        !alive(),
        "the engine's child {} outlived the match",
        pid.trim()
    );
}

/// A table build killed at any point leaves every file it wrote valid, and
/// the same command resumes it to the files a build without the kill
/// writes, byte for byte.
#[test]
fn a_killed_build_resumes_to_the_same_files() {
    let dir = |name: &str| {
        let d = common::temp("robustness", name);
        let _ = std::fs::remove_dir_all(&d);
        d
    };
    let (whole, killed) = (dir("tb-whole"), dir("tb-killed"));
    let build = |d: &std::path::Path| {
        let mut c = common::bohnenspiel_tables(d, 12);
        c.stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null());
        c
    };
    assert!(build(&whole).status().unwrap().success());
    // Killed once the 8-seed layer is on disk: in the middle of a later one.
    let mut child = build(&killed).spawn().unwrap();
    let eight = killed.join("bohnenspiel-08.mtb");
    let started = std::time::Instant::now();
    while !eight.exists() && started.elapsed().as_secs() < 60 {
        std::thread::sleep(std::time::Duration::from_millis(5));
    }
    child.kill().unwrap();
    child.wait().unwrap();
    let info = mancala(&argv![
        "tablebase info --game bohnenspiel --dir",
        killed.to_str().unwrap()
    ]);
    let text = common::stdout(&info);
    assert!(info.status.success() && !text.contains("refused"), "{text}");
    assert!(text.contains("bohnenspiel-08.mtb  ok"), "{text}");
    assert!(build(&killed).status().unwrap().success());
    for seeds in (0..=12).step_by(2) {
        let name = format!("bohnenspiel-{seeds:02}.mtb");
        let a = std::fs::read(whole.join(&name)).unwrap();
        let b = std::fs::read(killed.join(&name)).unwrap();
        assert!(a == b, "{name} differs after the resumed build");
    }
}

/// `--mpi` from a binary built without MPI says how to get one.
#[cfg(not(feature = "mpi"))]
#[test]
fn mpi_without_the_feature_is_refused() {
    let out = mancala(&words(
        "tablebase build --game bohnenspiel --max-seeds 4 --mpi --dir /tmp/mancala-never-built",
    ));
    assert_bad_input(&out, &["--features mpi"]);
    assert!(!std::path::Path::new("/tmp/mancala-never-built/bohnenspiel-00.mtb").exists());
}

/// A FIFO, a dangling link and a looping link among the tables are listed
/// as refused, and nothing waits on the FIFO.
#[test]
fn odd_files_among_the_tables_are_refused_not_waited_on() {
    let d = common::temp("robustness", "tb-odd");
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    let fifo = d.join("bohnenspiel-08.mtb");
    assert!(std::process::Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .unwrap()
        .success());
    std::os::unix::fs::symlink("/nonexistent", d.join("bohnenspiel-10.mtb")).unwrap();
    std::os::unix::fs::symlink("bohnenspiel-12.mtb", d.join("bohnenspiel-12.mtb")).unwrap();
    let info = mancala(&argv![
        "tablebase info --game bohnenspiel --dir",
        d.to_str().unwrap()
    ]);
    let text = common::stdout(&info);
    assert!(info.status.success(), "{text}");
    assert!(
        text.contains("bohnenspiel-08.mtb: refused: not a regular file"),
        "{text}"
    );
    assert!(text.contains("bohnenspiel-10.mtb: No such file"), "{text}");
    assert!(
        text.contains("bohnenspiel-12.mtb: Too many levels"),
        "{text}"
    );
    let solve = mancala(&["solve", "--game", "bosh", "--dir", d.to_str().unwrap()]);
    assert!(solve.status.success());
    let warn = mancala(&[
        "solve",
        "bohnenspiel 0,0,0,0,0,1/1,0,0,0,0,0 S 35-35",
        "--dir",
        d.to_str().unwrap(),
    ]);
    assert!(warn.status.success());
    assert_eq!(
        common::stderr(&warn).lines().count(),
        3,
        "{}",
        common::stderr(&warn)
    );
    let unwritable = mancala(&words(
        "tablebase build --game bohnenspiel --max-seeds 4 --dir /proc/nope",
    ));
    assert_bad_input(&unwritable, &["--dir /proc/nope: cannot create it"]);
    let missing = mancala(&["solve", "--game", "bosh", "--dir", "/nonexistent-dir"]);
    assert!(missing.status.success());
    assert!(common::stderr(&missing).contains("--dir /nonexistent-dir: not a directory"));
}

/// Files given by the user are read only if regular and bounded.
#[test]
fn devices_and_huge_weights_are_refused() {
    assert_bad_input(
        &mancala(&["analyze", "--weights", "/dev/zero", "--depth", "1"]),
        &["not a regular file"],
    );
    let w = common::temp("robustness", "huge.json");
    let mut json: serde_json::Value =
        serde_json::from_str(include_str!("../../eval/weights/default.json")).unwrap();
    json["bohnenspiel"]["mobility"] = serde_json::json!(1e30);
    std::fs::write(&w, json.to_string()).unwrap();
    assert_bad_input(
        &mancala(&["analyze", "--weights", w.to_str().unwrap(), "--depth", "1"]),
        &["within"],
    );
}

/// A full output device is one error line and status 1; a reader that stops
/// reading is status 0.
#[test]
fn full_devices_and_closed_pipes() {
    let full = std::fs::File::create("/dev/full").unwrap();
    for args in [
        &["show", "--game", "bohnenspiel"][..],
        &["perft", "--game", "bohnenspiel", "--depth", "3"],
        &["analyze", "--depth", "2"],
    ] {
        let o = common::command()
            .args(args)
            .stdout(full.try_clone().unwrap())
            .output()
            .unwrap();
        assert_eq!(o.status.code(), Some(1), "{args:?}");
        let err = common::stderr(&o);
        assert_eq!(err.lines().count(), 1, "{err}");
        assert!(err.contains("No space left on device"), "{err}");
    }
    // Every other command that prints, the protocol and the help too:
    // status 1, the failure said in the last line, no panic.
    let position = "bohnenspiel 6,6,6,6,6,6/6,6,6,6,6,6 S 0-0";
    let mut checked = 0;
    for args in [
        &["completions", "bash"][..],
        &["manpage"],
        &["--help"],
        &["--version"],
        &["analyze", "--help"],
        &["rules", "bohnenspiel"],
        &["replay", position, "3"],
        &["solve", "--game", "bohnenspiel", "--seeds-per-pit", "1"],
        &["openings", "--game", "bohnenspiel", "--plies", "2"],
        &["bench", "--depth", "2"],
        &words("match --game bohnenspiel -p random -p greedy --games 2"),
    ] {
        let o = common::command()
            .args(args)
            .stdout(full.try_clone().unwrap())
            .output()
            .unwrap();
        let err = common::stderr(&o);
        assert_eq!(o.status.code(), Some(1), "{args:?}: {err}");
        assert!(!err.contains("panicked"), "{args:?}: {err}");
        let last = err.lines().last().unwrap_or("");
        assert!(last.contains("No space left on device"), "{args:?}: {err}");
        checked += 1;
    }
    assert_eq!(checked, 11);
    let mut engine = common::command()
        .args(["engine", "--no-tables"])
        .stdin(std::process::Stdio::piped())
        .stdout(full.try_clone().unwrap())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut input = engine.stdin.take().unwrap();
    let _ = std::io::Write::write_all(&mut input, b"go depth 5\nisready\nquit\n");
    drop(input);
    let o = engine.wait_with_output().unwrap();
    let err = common::stderr(&o);
    assert_eq!(o.status.code(), Some(1), "engine: {err}");
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.contains("No space left on device"), "{err}");
    let mut child = common::command()
        .args(["openings", "--game", "bohnenspiel", "--plies", "3"])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    drop(child.stdout.take());
    assert_eq!(child.wait().unwrap().code(), Some(0));
}

/// An error never echoes control characters or unbounded input.
#[test]
fn error_lines_stay_one_bounded_line() {
    let evil = format!("bohnenspiel 6,6\n\u{1b}[31m{}", "x".repeat(10_000));
    let o = mancala(&["show", &evil]);
    assert_bad_input(&o, &["\\n", "\\u{1b}"]);
    assert!(
        common::stderr(&o).len() < 1000,
        "{}",
        common::stderr(&o).len()
    );
}

/// An output file that cannot be written is found before the first game.
#[test]
fn an_unwritable_plot_is_refused_before_the_match() {
    let started = std::time::Instant::now();
    let o = match_of(
        "bohnenspiel",
        ["time=200ms", "time=200ms"],
        &["--games", "20", "--plot", "/nonexistent-dir/x.svg"],
    );
    assert_bad_input(&o, &["--plot"]);
    assert!(started.elapsed().as_secs() < 5, "it played first");
}

/// Ctrl-C during `analyze` prints the best result so far, then exits 130.
#[test]
fn ctrl_c_ends_analysis_with_its_result() {
    let child = common::command()
        .args(["analyse", "--json", "--infinite"])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    std::thread::sleep(std::time::Duration::from_millis(800));
    let pid = rustix::process::Pid::from_child(&child);
    rustix::process::kill_process(pid, rustix::process::Signal::INT).unwrap();
    let o = child.wait_with_output().unwrap();
    assert_eq!(o.status.code(), Some(130));
    let v: serde_json::Value = serde_json::from_str(common::stdout(&o).trim()).unwrap();
    assert!(
        v["best"].as_u64().is_some_and(|m| (1..=6).contains(&m)),
        "{v}"
    );
    assert_eq!(common::stderr(&o).trim(), "mancala: interrupted");
}

/// A `--time` beyond a year is out of range (bad input, one line); a year
/// is a deadline that does not overflow the clock; in the protocol, a time
/// too long for the clock is no deadline (it overflowed `Instant`).
#[test]
fn times_beyond_the_clock_are_no_deadline() {
    let o = mancala(&words(
        "analyze --time 18446744073709551615 --depth 3 --json",
    ));
    assert_eq!(o.status.code(), Some(2));
    assert_eq!(
        common::stderr(&o).lines().count(),
        1,
        "{}",
        common::stderr(&o)
    );
    assert!(common::stderr(&o).contains("at most a year"));
    let o = mancala(&["analyze", "--time", "8760h", "--depth", "3", "--json"]);
    assert!(o.status.success(), "{}", common::stderr(&o));
    let o = common::run(&["engine"])
        .input("position bohnenspiel\ngo movetime 18446744073709551615 depth 3\n")
        .output();
    assert!(o.status.success());
    assert!(
        common::stdout(&o).contains("bestmove "),
        "{}",
        common::stdout(&o)
    );
}

/// `threads N` sets the next search's threads; a bad count is one error
/// line and the engine goes on.
#[test]
fn the_engine_protocol_sets_threads() {
    let o = common::run(&["engine", "--no-tables"])
        .input("threads 2\nposition bohnenspiel\ngo depth 6\nthreads 0\nthreads x\nthreads 100000\nthreads\nisready\n")
        .output();
    assert!(o.status.success());
    let out = common::stdout(&o);
    // The end of input stops the search, perhaps before depth 6; the
    // first iteration always completes.
    assert!(out.contains("info depth 1 "), "{out}");
    assert!(out.contains("bestmove "), "{out}");
    // `isready` is answered at once, while the search may still run.
    assert!(out.contains("readyok\n"), "{out}");
    let err = common::stderr(&o);
    assert_eq!(err.lines().count(), 4, "{err}");
    assert!(
        err.lines().all(|l| l.starts_with("error: threads")),
        "{err}"
    );
}

/// SIGTERM and SIGHUP stop a proof as Ctrl-C does: its checkpoint is
/// written, the bounds so far printed, and the status is 128 + the signal
/// (143, 129). Resumed from the checkpoint, the proof ends with the value
/// of Djenon-abe that docs/solved.md publishes (North wins by 2, move 2).
#[test]
fn sigterm_and_sighup_keep_a_proof() {
    let path = common::temp("signals", "djenon.ckpt");
    let _ = std::fs::remove_file(&path);
    let ckpt = path.to_str().unwrap();
    let args = argv![
        "solve --game djenon-abe --no-tables --hash 64 --json --checkpoint",
        ckpt
    ];
    let mut stopped = 0;
    for (signal, status) in [
        (rustix::process::Signal::TERM, 143),
        (rustix::process::Signal::HUP, 129),
    ] {
        let child = common::command()
            .args(&args)
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        std::thread::sleep(std::time::Duration::from_millis(1500));
        let pid = rustix::process::Pid::from_child(&child);
        rustix::process::kill_process(pid, signal).unwrap();
        let o = child.wait_with_output().unwrap();
        let err = common::stderr(&o);
        assert_eq!(o.status.code(), Some(status), "{signal:?}: {err}");
        assert!(err.contains("checkpoint written"), "{err}");
        assert!(err.trim_end().ends_with("mancala: interrupted"), "{err}");
        let v: serde_json::Value = serde_json::from_str(common::stdout(&o).trim()).unwrap();
        assert_eq!(v["proven"], false, "{v}");
        assert!(v["lower"].as_i64().unwrap() <= -2 && v["upper"].as_i64().unwrap() >= -2);
        stopped += 1;
    }
    assert_eq!(stopped, 2);
    let o = common::mancala(&args);
    let err = common::stderr(&o);
    assert!(o.status.success(), "{err}");
    assert!(err.contains("resuming from"), "{err}");
    let v: serde_json::Value = serde_json::from_str(common::stdout(&o).trim()).unwrap();
    assert_eq!(v["proven"], true, "{v}");
    assert_eq!(v["margin"], -2, "{v}");
    assert_eq!(v["best"], serde_json::json!([2]), "{v}");
    std::fs::remove_file(&path).unwrap();
}

/// A checkpoint that is not a regular file, or in no directory, is refused
/// at once (a FIFO would block the proof's start for ever).
#[test]
fn a_checkpoint_must_be_a_regular_file() {
    let fifo = common::temp("signals", "fifo");
    common::fifo(&fifo);
    let started = std::time::Instant::now();
    for (file, says) in [
        (fifo.to_str().unwrap(), "not a regular file"),
        ("/dev/null", "not a regular file"),
        ("/nonexistent-dir/p.ckpt", "no directory"),
    ] {
        let o = mancala(&argv![
            "solve --game bohnenspiel --seeds-per-pit 2 --checkpoint",
            file
        ]);
        assert_bad_input(&o, &[says]);
    }
    assert!(started.elapsed().as_secs() < 10);
    std::fs::remove_file(&fifo).unwrap();
}

/// `review` of something that is not a regular file says so (not that the
/// position is bad), and of a large record reads only the games up to the
/// one reviewed: memory stays near the file's size.
#[test]
fn review_reads_files_as_far_as_it_needs() {
    let fifo = common::temp("review", "fifo.txt");
    common::fifo(&fifo);
    let dir = std::env::temp_dir();
    for path in [fifo.to_str().unwrap(), dir.to_str().unwrap()] {
        assert_bad_input(&mancala(&["review", path]), &["not a regular file"]);
    }
    std::fs::remove_file(&fifo).unwrap();
    // 20,000 copies of a 40-move game: reviewing the first parses one.
    let game = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../positions/review/bohnenspiel-40-moves.txt"
    ))
    .unwrap();
    let big = common::temp("review", "big.txt");
    std::fs::write(&big, format!("{}\n\n", game.trim()).repeat(20_000)).unwrap();
    let big = big.to_str().unwrap();
    let o = mancala(&["review", big, "--time", "1", "--no-tables", "--json"]);
    assert!(o.status.success(), "{}", common::stderr(&o));
    let o = mancala(&["review", big, "--index", "30000"]);
    assert_bad_input(&o, &["--index 30000", "20000 game(s)"]);
    std::fs::remove_file(big).unwrap();
}

/// Ctrl-C in `tablebase build` says `interrupted` and how to go on, exits
/// 130, and keeps the layers finished; the same command then resumes.
#[test]
fn an_interrupted_table_build_says_so_and_resumes() {
    let dir = common::temp("interrupted-build", "tables");
    let _ = std::fs::remove_dir_all(&dir);
    let d = dir.to_str().unwrap();
    let args = argv!["tablebase build --game bohnenspiel --max-seeds 22 --dir", d];
    // Interrupted once the first layers are on disk.
    let layer = dir.join("bohnenspiel-08.mtb");
    let o = common::signalled(&args, || layer.exists(), rustix::process::Signal::INT);
    let err = common::stderr(&o);
    assert_eq!(o.status.code(), Some(130), "{err}");
    assert!(
        err.trim_end()
            .ends_with("mancala: interrupted; the layers finished are kept; the same command resumes the build"),
        "{err}"
    );
    assert!(layer.exists());
    // The same command goes on from the layers on disk (to a smaller top,
    // to keep the test short).
    let o = common::mancala(&argv![
        "tablebase build --game bohnenspiel --max-seeds 10 --dir",
        d
    ]);
    assert!(o.status.success(), "{}", common::stderr(&o));
    assert!(
        common::stderr(&o).contains("layer  8: 75582 positions, found on disk"),
        "{}",
        common::stderr(&o)
    );
    std::fs::remove_dir_all(&dir).unwrap();
}
