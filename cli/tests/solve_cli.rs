//! `mancala solve` and `mancala tablebase` as a script sees them.

mod common;

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
    // The contract's six, and "proven" (a finished proof may add it).
    assert_eq!(v.as_object().unwrap().len(), 7);
    assert_eq!(v["proven"], true);
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
        &[
            "tablebase",
            "build",
            "--game",
            "bosh",
            "--max-seeds",
            "4",
            "--dir",
            "/tmp",
        ],
        &[
            "tablebase",
            "build",
            "--game",
            "bohnenspiel",
            "--max-seeds",
            "99",
        ],
        &["tablebase", "verify", "--game", "bohnenspiel"],
        &[
            "tablebase",
            "build",
            "--game",
            "bohnenspiel",
            "--max-seeds",
            "4",
            "--dir",
            "Cargo.toml",
        ],
        &[
            "tablebase",
            "build",
            "--game",
            "djenon-abe",
            "--max-seeds",
            "50",
        ],
    ] {
        let (code, out, err) = mancala(args);
        assert_eq!(code, 2, "{args:?}: {err}");
        assert!(out.is_empty(), "{args:?}");
        assert_eq!(err.trim().lines().count(), 1, "{args:?}: {err}");
    }
}

/// A proof stopped by `--nodes` or `--time` says so, with the bounds it
/// proved; one that ends within them says it is proven.
#[test]
fn a_bounded_proof_reports_its_bounds() {
    let (code, out, err) = mancala(&[
        "solve",
        "--game",
        "djenon-abe",
        "--nodes",
        "20000",
        "--json",
    ]);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(out.trim()).unwrap();
    assert_eq!(v["proven"], false);
    let (lo, hi, m) = (
        v["lower"].as_i64().unwrap(),
        v["upper"].as_i64().unwrap(),
        v["margin"].as_i64().unwrap(),
    );
    assert!(-48 <= lo && lo <= m && m <= hi && hi <= 48, "{v}");
    assert!(v["nodes"].as_u64().unwrap() <= 20_000 + 1, "{v}");
    // Far enough into a 24-seed puzzle for bounds and a move: its only
    // best move, 2 (the proof needs about 157,000 positions).
    let puzzle = "bohnenspiel 3,1,1,1,1,0/0,1,5,1,6,4 S 24-24";
    let (code, out, _) = mancala(&["solve", puzzle, "--nodes", "60000", "--json", "--no-tables"]);
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
                &["--hash", "16", "--nodes", "200000", "--checkpoint", ckpt],
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
    assert!(last["nodes"].as_u64().unwrap() >= 200_000 * (sessions - 1));
    // Another position with this checkpoint: refused.
    let o = common::mancala(&[
        "solve",
        "--game",
        "bohnenspiel",
        "--seeds-per-pit",
        "3",
        "--checkpoint",
        ckpt,
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
