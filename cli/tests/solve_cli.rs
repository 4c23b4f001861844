//! `mancala solve` and `mancala tablebase` as a script sees them.

#[macro_use]
mod common;
use common::words;

fn mancala(args: &[&str]) -> (i32, String, String) {
    common::parts(&common::mancala(args))
}

#[test]
fn solve_json_follows_the_contract() {
    let (code, out, _) = mancala(&[
        "solve",
        "--json",
        "bohnenspiel 0,1,0,2,0,3/1,0,1,0,0,0 S 32-32",
    ]);
    assert_eq!(code, 0);
    let v: serde_json::Value = serde_json::from_str(out.trim()).expect("one JSON object");
    let at: Vec<usize> = ["margin", "outcome", "best", "pv", "nodes", "seconds"]
        .iter()
        .map(|k| out.find(&format!("\"{k}\":")).expect(k))
        .collect();
    assert!(at.windows(2).all(|w| w[0] < w[1]), "key order: {out}");
    // The contract's six, "proven" (a finished proof may add it) and our
    // "threads" (every core by default).
    assert_eq!(v.as_object().unwrap().len(), 8);
    assert_eq!(v["proven"], true);
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    assert_eq!(v["threads"], cores);
    assert_eq!(v["margin"], 4);
    assert_eq!(v["outcome"], "win");
    assert_eq!(v["best"], serde_json::json!([2, 4]));
    assert_eq!(v["pv"][0], 2);
}

#[test]
fn bad_input_exits_2_with_one_line() {
    for args in [
        &["solve", "bohnenspiel 0,1,0,2,0,3/1,0,1,0,0,0 S 30-32"][..],
        &["solve", "--game", "chess"],
        &["solve", "--hash", "0", "--game", "bohnenspiel"],
        &["solve", "--check", "/nonexistent/puzzles.txt"],
        &words("tablebase build --game bosh --max-seeds 4 --dir /tmp"),
        &words("tablebase build --game bohnenspiel --max-seeds 99"),
        &["tablebase", "verify", "--game", "bohnenspiel"],
        &words("tablebase build --game bohnenspiel --max-seeds 4 --dir Cargo.toml"),
        &words("tablebase build --game djenon-abe --max-seeds 50"),
        &words("solve --game kalah --pits 7"),
        &words("solve --game kalah --pits 0"),
        &words("solve --game bohnenspiel --pits 4"),
        &words("solve --game kalah --pits 2 --seeds-per-pit 19"),
        &["solve", "--pits", "3", "kalah 3,3,3/3,3,3 S 0-0"],
        &["solve", "kalah 3,3,3/3,3 S 0-0"],
        &words("solve --game kalah --pits 4 --narrow-tables 10"),
        &words("solve --game bohnenspiel --narrow-tables 10"),
        &words("solve --game kalah --pits 5 --narrow-tables 33"),
    ] {
        let (code, out, err) = mancala(args);
        assert_eq!(code, 2, "{args:?}: {err}");
        assert!(out.is_empty(), "{args:?}");
        assert_eq!(err.trim().lines().count(), 1, "{args:?}: {err}");
    }
}

/// `solve ARGS --json` that succeeds: its margin, best moves and
/// principal variation, and its stderr.
fn solved(args: &str) -> (i64, serde_json::Value, Vec<i64>, String) {
    let (code, out, err) = mancala(&words(args));
    assert_eq!(code, 0, "{args}: {err}");
    let v: serde_json::Value = serde_json::from_str(out.trim()).unwrap();
    let pv = v["pv"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m.as_i64().unwrap())
        .collect();
    (v["margin"].as_i64().unwrap(), v["best"].clone(), pv, err)
}

/// Kalah(m,n) with fewer pits a row, from `--pits`: Kalah(3,3) is a win
/// by 2 with 1 or 2 (the value the engine's tests find by plain minimax
/// over their separately written mover), and its board has three pits a
/// row, numbered 1 to 6.
#[test]
fn kalah_with_fewer_pits_is_solved_from_pits() {
    let (margin, best, pv, _) =
        solved("solve --game kalah --pits 3 --seeds-per-pit 3 --no-tables --json");
    assert_eq!((margin, best), (2, serde_json::json!([1, 2])));
    assert!(pv.iter().all(|m| (1..=6).contains(m)), "{pv:?}");
    // Kalah(5,2) with the five-pit tables built to 12 seeds: the same
    // value and move as without (a win by 2 with 4; plain minimax agrees
    // in the engine's tests), the tables announced on stderr.
    let (margin, best, _, err) =
        solved("solve --game kalah --pits 5 --seeds-per-pit 2 --narrow-tables 12 --json");
    assert_eq!((margin, best), (2, serde_json::json!([4])));
    assert!(err.contains("five-pit tables to 12 seeds"), "{err}");
    let (code, out, err) = mancala(&words("show --game kalah-empty --pits 3"));
    assert_eq!(code, 0, "{err}");
    assert!(out.starts_with("kalah-empty 4,4,4/4,4,4 S 0-0\n"), "{out}");
    assert!(
        out.contains("   6    5    4\n") && out.contains("   1    2    3\n"),
        "{out}"
    );
}

/// A proof stopped by `--nodes` or `--time` says so, with the bounds it
/// proved; one that ends within them says it is proven.
#[test]
fn a_bounded_proof_reports_its_bounds() {
    let (code, out, err) = mancala(&words("solve --game djenon-abe --nodes 20000 --json"));
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(out.trim()).unwrap();
    assert_eq!(v["proven"], false);
    let (lo, hi, m) = (
        v["lower"].as_i64().unwrap(),
        v["upper"].as_i64().unwrap(),
        v["margin"].as_i64().unwrap(),
    );
    assert!(-48 <= lo && lo <= m && m <= hi && hi <= 48, "{v}");
    // On more threads the budget holds within 64 positions a thread.
    let threads = v["threads"].as_u64().unwrap();
    assert!(threads >= 1, "{v}");
    assert!(v["nodes"].as_u64().unwrap() <= 20_000 + 64 * threads, "{v}");
    // Far enough into a 24-seed puzzle for bounds and a move: its only
    // best move, 2 (the proof needs 3,553 positions; the value is proven
    // within 1,000, before every best move is).
    let puzzle = "bohnenspiel 3,1,1,1,1,0/0,1,5,1,6,4 S 24-24";
    let (code, out, _) = mancala(&["solve", puzzle, "--nodes", "2000", "--json", "--no-tables"]);
    assert_eq!(code, 0);
    let v: serde_json::Value = serde_json::from_str(out.trim()).unwrap();
    assert_eq!(
        (v["proven"].clone(), v["best"].clone()),
        (false.into(), serde_json::json!([2])),
        "{v}"
    );
    let (lo, hi) = (v["lower"].as_i64().unwrap(), v["upper"].as_i64().unwrap());
    assert!(lo <= -8 && (-8..72).contains(&hi), "{v}");
    let (code, out, _) = mancala(&["solve", "--game", "bosh", "--time", "60000", "--json"]);
    assert_eq!(code, 0);
    let v: serde_json::Value = serde_json::from_str(out.trim()).unwrap();
    assert_eq!(v["proven"], true);
    assert!(v.get("lower").is_none(), "{v}");
    let (code, _, err) = mancala(&["solve", "--game", "bosh", "--nodes", "0"]);
    assert_eq!((code, err.lines().count()), (2, 1), "{err}");
}

/// A proof stopped by its node limit again and again, resumed from its
/// checkpoint each time, ends with the value and best moves of a proof in
/// one go; another position's checkpoint and a damaged one are refused.
#[test]
fn a_proof_stopped_and_resumed_from_its_checkpoint_gives_the_same_value() {
    let path = common::temp("checkpoint", "proof.ckpt");
    let _ = std::fs::remove_file(&path);
    let ckpt = path.to_str().unwrap();
    let game = ["--game", "bohnenspiel", "--seeds-per-pit", "2", "--json"];
    let (code, whole, _) = mancala(&[&["solve"][..], &game].concat());
    assert_eq!(code, 0);
    let whole: serde_json::Value = serde_json::from_str(whole.trim()).unwrap();
    let mut sessions = 0;
    let last = loop {
        sessions += 1;
        assert!(sessions < 100, "the proof does not progress");
        let (code, out, err) = mancala(
            &[
                &["solve"][..],
                &game,
                &["--hash", "16", "--nodes", "100000", "--checkpoint", ckpt],
            ]
            .concat(),
        );
        assert_eq!(code, 0, "{err}");
        assert!(err.contains("checkpoint written"), "{err}");
        assert_eq!(err.contains("resuming from"), sessions > 1, "{err}");
        let v: serde_json::Value = serde_json::from_str(out.trim()).unwrap();
        if v["proven"] == true {
            break v;
        }
        // What is proven only closes in, and holds the value.
        let (lower, upper) = (v["lower"].as_i64().unwrap(), v["upper"].as_i64().unwrap());
        assert!(lower <= whole["margin"].as_i64().unwrap());
        assert!(upper >= whole["margin"].as_i64().unwrap());
    };
    assert!(
        sessions >= 3,
        "{sessions} sessions: the limit stopped too few"
    );
    assert_eq!(last["margin"], whole["margin"]);
    assert_eq!(last["best"], whole["best"]);
    // The nodes of every session are counted.
    assert!(last["nodes"].as_u64().unwrap() >= 100_000 * (sessions - 1));
    // Another position with this checkpoint: refused.
    let o = common::mancala(&argv![
        "solve --game bohnenspiel --seeds-per-pit 3 --checkpoint",
        ckpt
    ]);
    common::assert_bad_input(&o, &["proof of another position", "2,2,2,2,2,2"]);
    // A damaged one: refused, and left as it was.
    let mut bytes = std::fs::read(&path).unwrap();
    let n = bytes.len();
    bytes[n - 3] ^= 1;
    std::fs::write(&path, &bytes).unwrap();
    let o = common::mancala(&[&["solve"][..], &game, &["--checkpoint", ckpt]].concat());
    common::assert_bad_input(&o, &["checksum"]);
    assert_eq!(std::fs::read(&path).unwrap(), bytes);
    std::fs::remove_file(&path).unwrap();
}

/// `tablebase accuracy-set` grades positions of a record by proof, and
/// `bench --accuracy` grades the engine on them: a set whose values are the
/// solver's own is kept in full by a deep enough search, and a wrong value
/// shows as a miss.
#[test]
fn an_accuracy_set_is_built_from_records_and_grades_the_engine() {
    let records = common::temp("accuracy", "games.txt");
    let set = common::temp("accuracy", "set.txt");
    // A hand-made endgame of 16 seeds, played on a few moves.
    std::fs::write(
        &records,
        "[Game \"bohnenspiel\"]\n[Start \"bohnenspiel 2,0,1,3,0,2/1,3,0,2,1,1 S 28-28\"]\n\n1. 4 8 2. 6 12 *\n",
    )
    .unwrap();
    let o = common::mancala(&argv![
        "tablebase accuracy-set --records",
        records.to_str().unwrap(),
        "--min-seeds 4 --max-seeds 16 --per-game 3 --dir /nonexistent-tables --out",
        set.to_str().unwrap()
    ]);
    assert!(o.status.success(), "{}", common::stderr(&o));
    let text = std::fs::read_to_string(&set).unwrap();
    let graded = mancala_engine::files::parse_graded(&text).unwrap();
    assert_eq!(graded.len(), 3, "{text}");
    assert!(
        text.contains("# Generated by: mancala tablebase accuracy-set"),
        "{text}"
    );
    // Every value checked against a proof of the child.
    for g in &graded {
        for &(mv, v) in &g.values {
            let (code, out, _) = mancala(&[
                "solve",
                "--json",
                &g.position.to_string(),
                "--moves",
                &mv.pit().to_string(),
            ]);
            assert_eq!(code, 0);
            let s: serde_json::Value = serde_json::from_str(out.trim()).unwrap();
            assert_eq!(-s["margin"].as_i64().unwrap(), v as i64, "{g}");
        }
    }
    let grade = |file: &str| {
        let (code, out, err) = mancala(&argv![
            "bench --accuracy --set",
            file,
            "--nodes 2000000 --no-tables"
        ]);
        assert_eq!(code, 0, "{err}");
        out
    };
    let out = grade(set.to_str().unwrap());
    assert!(out.contains(": 3 positions at 2000000 nodes a position, one thread, no tables: 100.00 % keep the value (3 of 3; where some move loses value "), "{out}");
    assert!(
        out.contains(", 100.00 %), average loss 0.000 seeds, 0 proven outcome(s) thrown away"),
        "{out}"
    );
    // Make every move but the worst look best: the engine now "misses".
    let mut lines: Vec<String> = text
        .lines()
        .filter(|l| !l.starts_with('#'))
        .map(str::to_string)
        .collect();
    // A position where some move is worse than the best: the engine plays
    // a best one, so the worst move cannot be it.
    let at = graded
        .iter()
        .position(|g| g.values.iter().any(|&(_, v)| v < g.best()))
        .expect("a position with a losing move");
    let g = &graded[at];
    let worst = g.values.iter().min_by_key(|&&(_, v)| v).unwrap().0;
    lines[at] = mancala_engine::files::Graded {
        position: g.position,
        values: g
            .values
            .iter()
            .map(|&(m, v)| (m, if m == worst { v } else { v - 50 }))
            .collect(),
    }
    .to_string();
    std::fs::write(&set, lines.join("\n")).unwrap();
    let out = grade(set.to_str().unwrap());
    assert!(out.contains("66.67 % keep the value (2 of 3; "), "{out}");
    assert!(
        out.contains(&format!("  {} | played ", g.position)),
        "{out}"
    );
    common::assert_bad_input(
        &common::mancala(&["bench", "--accuracy", "--set", "/nonexistent/set.txt"]),
        &["--set /nonexistent/set.txt"],
    );
}

#[test]
fn a_whole_bosh_match_is_proven_endless() {
    let (code, out, err) = mancala(&["solve", "--bosh-match", "--json"]);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(out.trim()).expect("one JSON object");
    assert_eq!(v["outcome"], "endless");
    assert_eq!(v["proven"], true);
    assert_eq!(v["rounds"], 2);
    assert_eq!(v["line"][0]["finish"], serde_json::json!([23, 17]));
    assert_eq!(v["line"][1]["start"], "bosh 4,4,4,4,4/x,4,4,4,4 N 3-1");
    assert_eq!(v["line"][1]["finish"], serde_json::json!([20, 20]));
    let (code, out, _) = mancala(&["solve", "--bosh-match"]);
    assert_eq!(code, 0);
    assert!(
        out.contains("the match never ends: round 3 starts as round 1 did, proven"),
        "{out}"
    );
    // It takes no position.
    common::assert_bad_input(
        &common::mancala(&["solve", "--bosh-match", "--game", "bosh"]),
        &["--game"],
    );
}

/// A proof stopped once its bounds have met names the value as proven
/// (the best moves are what it had not finished), and says what stopped
/// it. Bohnenspiel(6,2) meets its bounds at 0 after about 0.15 M positions
/// of its 0.35 M (one thread, node counts are repeatable).
#[test]
fn a_stopped_proof_with_met_bounds_names_the_value() {
    let solve = |nodes: &str| {
        let o = common::mancala(&argv![
            "solve --game bohnenspiel --seeds-per-pit 2 --no-tables --nodes",
            nodes,
            "--threads 1"
        ]);
        assert!(o.status.success(), "{}", common::stderr(&o));
        common::stdout(&o)
    };
    let out = solve("250000");
    assert!(
        out.contains("value    a draw, proven (margin +0 for South, to move; a limit stopped the proof before every best move was proven)"),
        "{out}"
    );
    // Nothing proven yet: the margins the position's seeds allow (24-24
    // banked, 24 in play), not the game's.
    let out = solve("2000");
    assert!(
        out.contains("value    not proven (a limit stopped the proof): South's margin is between -24 and +24 seeds"),
        "{out}"
    );
}

/// A small board no table holds is answered by its game's tables built in
/// memory first: a five-seed Oware endgame, which the solver alone wanders
/// in for minutes (lines without a capture, the cycle rule), is a table
/// read. `--no-tables` still means the search alone (a budget stops it).
#[test]
fn a_small_board_without_tables_is_solved_by_tables_built_in_memory() {
    let pos = "oware 0,0,1,0,1,1/0,0,0,1,0,1 N 17-26";
    let (code, out, err) = mancala(&["solve", "--json", "--dir", "/nonexistent", pos]);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(out.trim()).unwrap();
    assert_eq!(
        (v["margin"].as_i64(), &v["best"]),
        (Some(4), &serde_json::json!([10, 12]))
    );
    // A table read: no position searched. (The note saying so is for a
    // terminal only: a script's stderr holds the missing directory's
    // warning alone.)
    assert_eq!(
        (v["nodes"].as_u64(), &v["proven"]),
        (Some(0), &serde_json::json!(true)),
        "{v}"
    );
    assert!(!v["pv"].as_array().unwrap().is_empty(), "{v}");
    assert_eq!(err.lines().count(), 1, "{err}");
    let (code, out, err) = mancala(&[
        "solve",
        "--json",
        "--no-tables",
        "--nodes",
        "20000",
        "--threads",
        "1",
        pos,
    ]);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(out.trim()).unwrap();
    assert_eq!(v["proven"], false, "{v}");
}
