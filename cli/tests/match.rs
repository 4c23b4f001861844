//! `mancala match` end to end: tiny matches only (fast in debug builds).

#[macro_use]
mod common;
use common::words;

use std::path::PathBuf;
use std::process::Output;

use common::{broken, mancala, match_of};
use serde_json::Value;

fn json(out: &Output) -> Value {
    assert!(
        out.status.success(),
        "failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).expect("JSON summary")
}

fn temp(name: &str) -> PathBuf {
    common::temp("match-test", name)
}

fn lines(path: &PathBuf) -> Vec<Value> {
    std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

#[test]
fn identical_deterministic_engines_score_even() {
    let out = match_of(
        "bohnenspiel",
        ["greedy", "greedy"],
        &["--games", "20", "--json"],
    );
    let s = json(&out);
    let p = &s["pairings"][0];
    assert_eq!(p["first"], "greedy");
    assert_eq!(p["second"], "greedy#2");
    assert_eq!(p["games"], 20);
    assert_eq!(p["score"], 0.5);
    assert_eq!(p["elo"], 0.0);
    assert_eq!(p["wins"], p["losses"]);
    // Each pair is the same game twice with the seats swapped: 1 point.
    assert_eq!(p["pentanomial"], serde_json::json!([0, 0, 10, 0, 0]));

    // The same for the built-in engine at a fixed depth (one thread, table
    // cleared every game: deterministic).
    let out = match_of(
        "bohnenspiel",
        ["depth=2", "depth=2"],
        &["--games", "20", "--concurrency", "2", "--json"],
    );
    let p = json(&out)["pairings"][0].clone();
    assert_eq!(p["score"], 0.5);
    assert_eq!(p["pentanomial"], serde_json::json!([0, 0, 10, 0, 0]));
}

#[test]
fn broken_engines_lose_with_the_reason_and_the_match_goes_on() {
    let file = temp("broken.jsonl");
    let hang = broken("hang", ",timeout=300ms");
    let out = match_of(
        "bohnenspiel",
        ["greedy", &broken("garbage", "")],
        &[
            "-p",
            &broken("illegal", ""),
            "-p",
            &broken("crash", ""),
            "-p",
            &hang,
            "--gauntlet",
            "--games",
            "4",
            "--concurrency",
            "2",
            "--out",
            file.to_str().unwrap(),
            "--json",
        ],
    );
    let s = json(&out);
    for (k, mode) in ["garbage", "illegal", "crash", "hang"].iter().enumerate() {
        let p = &s["pairings"][k];
        assert_eq!(p["second"], *mode);
        assert_eq!(p["wins"], 4, "{mode}");
        assert_eq!(p["forfeits"], serde_json::json!([0, 4]), "{mode}");
    }
    let games = lines(&file);
    assert_eq!(games.len(), 16);
    for g in &games {
        let loser = if g["winner"] == "south" {
            "north"
        } else {
            "south"
        };
        let name = g[loser].as_str().unwrap();
        let expected = match name {
            "garbage" => "garbled",
            "illegal" => "illegal",
            "crash" => "crash",
            "hang" => "timeout",
            other => panic!("{other} lost"),
        };
        assert_eq!(g["end"], expected, "{g}");
        assert!(g["detail"].as_str().unwrap().starts_with(loser), "{g}");
        assert_eq!(g["result"], Value::Null);
    }
}

#[test]
fn an_engine_that_cannot_start_is_bad_input() {
    let out = match_of("bohnenspiel", ["greedy", &broken("dead", "")], &[]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.contains("dead"), "{err}");
    assert!(out.stdout.is_empty());
}

#[test]
fn bad_options_exit_2_with_one_line() {
    for args in [
        &["match", "--game", "bohnenspiel", "-p", "greedy"][..],
        &words("match --game bohnenspiel -p greedy -p random --games 3"),
        &["match", "--game", "nim", "-p", "greedy", "-p", "random"],
        &[
            "match", "--game", "bosh", "-p", "greedy", "-p", "random", "--unit", "partie",
        ],
        &words("match --game bohnenspiel -p greedy -p random --unit bosh-match"),
        &words("match --game bohnenspiel -p greedy -p depth=0"),
        &words("match --game bohnenspiel -p greedy -p random --openings /nonexistent/x.txt"),
        &words("match --game bohnenspiel -p greedy -p random --sprt elo0=5 elo1=1"),
        &words("match --game bohnenspiel -p greedy -p random --sprt alpha=x"),
        &words("match --game bohnenspiel -p greedy -p random -p greedy --sprt elo1=5"),
        &words("match --game bohnenspiel -p greedy -p random --concurrency 0"),
        &words("match --game bohnenspiel -p greedy -p random --games 4000000000"),
    ] {
        let out = mancala(args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
        assert!(!err.contains("panicked"), "{args:?}: {err}");
    }
    let bad_openings = temp("bad-openings.txt");
    std::fs::write(&bad_openings, "bohnenspiel 6,6,6,6,6,6/6,6,6,6,6,7 S 0-0\n").unwrap();
    let out = match_of(
        "bohnenspiel",
        ["greedy", "random"],
        &["--openings", bad_openings.to_str().unwrap()],
    );
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("line 1"));
}

/// A game line's moves, as pit numbers in text.
fn moves_of(game: &Value) -> Vec<String> {
    let moves = game["moves"].as_array().unwrap();
    moves.iter().map(|m| m.to_string()).collect()
}

/// The summary of a Bohnenspiel match of the greedy player against the
/// random one with the options in `words`, whose last takes `file`.
fn greedy_against_random(words: &str, file: &std::path::Path) -> serde_json::Value {
    let out = match_of(
        "bohnenspiel",
        ["greedy", "random"],
        &[
            &common::words(words)[..],
            &[file.to_str().unwrap(), "--json"],
        ]
        .concat(),
    );
    json(&out)
}

#[test]
fn results_do_not_depend_on_concurrency_and_games_replay() {
    let run = |c: &str, name: &str| {
        let file = temp(name);
        let out = match_of(
            "djenon-abe",
            ["random", "greedy"],
            &argv![
                "--games 12 --seed 9 --concurrency",
                c,
                "--out",
                file.to_str().unwrap(),
                "--json"
            ],
        );
        let s = json(&out);
        let mut games = lines(&file);
        games.sort_by_key(|g| g["game"].as_u64());
        (s["pairings"][0].clone(), games)
    };
    let (one, games_one) = run("1", "c1.jsonl");
    let (two, games_two) = run("2", "c2.jsonl");
    assert_eq!(one, two);
    assert_eq!(games_one, games_two);
    // Each game replays to its recorded result with `mancala replay`.
    for g in games_one.iter().take(4) {
        let moves = moves_of(g);
        let mut args = vec!["replay", g["opening"].as_str().unwrap(), "--json"];
        let joined = moves.join(",");
        if !moves.is_empty() {
            args.push(&joined);
        }
        let out = mancala(&args);
        assert!(out.status.success());
        let last: Value =
            serde_json::from_str(String::from_utf8_lossy(&out.stdout).lines().last().unwrap())
                .unwrap();
        if g["end"] == "plycap" {
            assert_eq!(last["over"], false);
        } else {
            assert_eq!(last["result"], g["result"], "{g}");
        }
    }
}

#[test]
fn sprt_stops_when_a_bound_is_crossed() {
    let plot = temp("sprt.svg");
    let s = greedy_against_random(
        "--games 400 --sprt elo0=0 elo1=50 alpha=0.05 beta=0.05 --plot",
        &plot,
    );
    let sprt = &s["sprt"];
    assert_eq!(sprt["result"], "H1", "{s}");
    assert!(sprt["llr"].as_f64().unwrap() >= sprt["upper"].as_f64().unwrap());
    let games = s["games"].as_u64().unwrap();
    assert!(games < 400, "did not stop early: {games}");
    let svg = std::fs::read_to_string(&plot).unwrap();
    assert!(svg.starts_with("<svg") && svg.contains("<polyline"));
}

#[test]
fn partie_and_bosh_match_units() {
    let file = temp("partie.jsonl");
    let s = greedy_against_random("--games 2 --unit partie --out", &file);
    assert_eq!(s["unit"], "partie");
    for g in lines(&file) {
        let points = g["points"].as_array().unwrap();
        assert!(points.iter().any(|p| p.as_u64().unwrap() >= 100), "{g}");
        assert!(g["rounds"].as_array().unwrap().len() >= 2);
    }
    let out = match_of(
        "bosh",
        ["greedy", "random"],
        &["--games", "2", "--unit", "bosh-match", "--json"],
    );
    assert_eq!(json(&out)["pairings"][0]["games"], 2);
}

#[test]
fn openings_are_generated_and_filtered() {
    let file = temp("openings.txt");
    let out = mancala(&argv![
        "openings --game bohnenspiel --plies 3 --out",
        file.to_str().unwrap()
    ]);
    assert!(out.status.success());
    let all = std::fs::read_to_string(&file).unwrap();
    let count = |text: &str| text.lines().filter(|l| !l.starts_with('#')).count();
    // 206 distinct positions at 3 plies, 198 with equal stores.
    assert_eq!(count(&all), 198);
    let out = mancala(&words(
        "openings --game bohnenspiel --plies 3 --depth 3 --max-score 1",
    ));
    assert!(out.status.success());
    let filtered = String::from_utf8(out.stdout).unwrap();
    assert!(count(&filtered) < 198 && count(&filtered) > 0);
    assert!(filtered.contains("--depth 3 --max-score 1"));
    // The file plays as an opening book.
    let out = match_of(
        "bohnenspiel",
        ["greedy", "random"],
        &[
            "--games",
            "4",
            "--openings",
            file.to_str().unwrap(),
            "--json",
        ],
    );
    assert_eq!(json(&out)["openings"], 198);
    let out = mancala(&["openings", "--game", "bohnenspiel", "--plies", "0"]);
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn round_robin_plays_every_pairing() {
    let out = match_of(
        "al-manqala",
        ["random", "greedy"],
        &["-p", "depth=1", "--games", "2", "--json"],
    );
    let s = json(&out);
    let pairs: Vec<(String, String)> = s["pairings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| (p["first"].to_string(), p["second"].to_string()))
        .collect();
    assert_eq!(pairs.len(), 3);
    assert_eq!(s["games"], 6);
    assert_eq!(s["standings"].as_array().unwrap().len(), 3);
    let games: u64 = s["standings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["games"].as_u64().unwrap())
        .sum();
    assert_eq!(games, 12);
}

#[test]
fn an_external_engine_plays_whole_games() {
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/lowest_engine.sh");
    let spec = format!(
        "cmd=sh {script} {},depth=1,name=lowest",
        env!("CARGO_BIN_EXE_mancala")
    );
    let file = temp("lowest.jsonl");
    let out = match_of(
        "bohnenspiel",
        ["greedy", &spec],
        &argv![
            "--games 4 --concurrency 2 --out",
            file.to_str().unwrap(),
            "--json"
        ],
    );
    let s = json(&out);
    assert_eq!(s["pairings"][0]["forfeits"], serde_json::json!([0, 0]));
    // Every move of the external engine was the lowest legal one.
    let mut checked = 0;
    for g in lines(&file) {
        assert_ne!(g["result"], Value::Null, "{g}");
        let ext_moves_first = g["south"] == "lowest";
        let moves = moves_of(&g);
        let out = mancala(&[
            "replay",
            g["opening"].as_str().unwrap(),
            &moves.join(","),
            "--json",
        ]);
        let states: Vec<Value> = String::from_utf8_lossy(&out.stdout)
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect();
        let opening: Value = states[0].clone();
        let south_first = opening["position"].as_str().unwrap().contains(" S ");
        for (i, mv) in g["moves"].as_array().unwrap().iter().enumerate() {
            let mover_is_south = (i % 2 == 0) == south_first;
            if mover_is_south == ext_moves_first {
                assert_eq!(states[i]["legal"][0], *mv, "{g}");
                checked += 1;
            }
        }
    }
    assert!(checked > 40, "{checked}");
}

/// `--record` writes every game, and every round of a unit, as a record
/// that reads back with the same moves and results.
#[test]
fn match_games_are_written_as_records() {
    let file = temp("games.pgn");
    let s = greedy_against_random("--games 2 --unit partie --record", &file);
    assert_eq!(s["games"], 2);
    let games = mancala_engine::pgn::parse(&std::fs::read_to_string(&file).unwrap()).unwrap();
    assert!(games.len() >= 4, "{} games", games.len());
    assert!(games
        .iter()
        .all(|g| g.tag("Round").is_some_and(|r| r.contains('.'))));
    assert!(games.iter().all(|g| g.result.is_some()));
}

/// Ctrl-C stops a match between games: at concurrency 1 at most the game
/// in flight goes uncounted, and a score with every point on one side
/// gives no infinite Elo.
#[test]
fn an_interrupted_match_reports_what_it_counted() {
    let mut checked = 0;
    for delay_ms in [800, 1500] {
        let started = std::time::Instant::now();
        let o = common::signalled(
            &words("match --game bohnenspiel -p depth=1 -p random --games 100000 --concurrency 1"),
            || started.elapsed() >= std::time::Duration::from_millis(delay_ms),
            rustix::process::Signal::INT,
        );
        let out = common::stdout(&o);
        assert_eq!(o.status.code(), Some(130), "{out}{}", common::stderr(&o));
        // (A bound may be infinite; the estimate is not.)
        assert!(
            !out.contains("Elo: +inf") && !out.contains("Elo: -inf"),
            "{out}"
        );
        assert!(
            !out.contains("(trinomial): +inf") && !out.contains("(trinomial): -inf"),
            "{out}"
        );
        // At concurrency 1 at most the game in flight was cut short.
        assert!(!out.contains(" games cut short"), "{out}");
        assert!(out.contains("Results of "), "{out}");
        checked += 1;
    }
    assert_eq!(checked, 2);
}

#[test]
fn a_resumed_match_counts_the_earlier_games_and_goes_on_where_they_stopped() {
    // Random against greedy is deterministic for a seed: twelve games at
    // once, or four and then eight more by --resume, are the same match.
    let run = |games: &str, out: &str, file: &PathBuf| {
        json(&match_of(
            "djenon-abe",
            ["random", "greedy"],
            &argv![
                "--games",
                games,
                "--seed 9 --json",
                out,
                file.to_str().unwrap()
            ],
        ))
    };
    let (whole, part) = (temp("whole.jsonl"), temp("part.jsonl"));
    let at_once = run("12", "--out", &whole);
    run("4", "--out", &part);
    // A pair left unfinished (its second game lost) and a line cut short
    // by a killed run: both dropped, the pair played again.
    let mut text = std::fs::read_to_string(&part).unwrap();
    let last = text.trim_end().rfind('\n').unwrap();
    text.truncate(last + 1);
    text.push_str("{\"game\":4,\"sou");
    std::fs::write(&part, &text).unwrap();
    let resumed = run("12", "--resume", &part);
    assert_eq!(resumed["games"], 12, "{resumed}");
    assert_eq!(resumed["pairings"], at_once["pairings"]);
    let sorted = |path: &PathBuf| {
        let mut games = lines(path);
        games.sort_by_key(|g| g["game"].as_u64());
        games
    };
    assert_eq!(sorted(&part), sorted(&whole));

    // Another match's file is refused with its line, and the file is kept.
    let before = std::fs::read_to_string(&part).unwrap();
    let other = match_of(
        "djenon-abe",
        ["greedy", "random"],
        &argv!["--games 12 --seed 9 --resume", part.to_str().unwrap()],
    );
    common::assert_bad_input(&other, &["--resume", "line 1", "same game, players"]);
    let seed = match_of(
        "djenon-abe",
        ["random", "greedy"],
        &argv!["--games 12 --seed 10 --resume", part.to_str().unwrap()],
    );
    common::assert_bad_input(&seed, &["--resume", "line 1"]);
    assert_eq!(std::fs::read_to_string(&part).unwrap(), before);
    std::fs::write(&part, "not json\n").unwrap();
    let garbled = match_of(
        "djenon-abe",
        ["random", "greedy"],
        &argv!["--games 12 --seed 9 --resume", part.to_str().unwrap()],
    );
    common::assert_bad_input(&garbled, &["--resume", "line 1", "not a game"]);
}
