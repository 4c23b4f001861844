//! Runs the `mancala` binary as scripts do and checks the contract of
//! `docs/protocol.md`: JSON lines, error lines and exit codes.

#[macro_use]
mod common;
use common::words;

use common::{assert_bad_input, mancala, stderr, stdout};

const START: &str = "bohnenspiel 6,6,6,6,6,6/6,6,6,6,6,6 S 0-0";

#[test]
fn replay_json_prints_the_start_then_a_line_per_move() {
    let o = mancala(&["replay", START, "3", "--json"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(
        lines,
        vec![
            r#"{"ply":0,"move":null,"position":"bohnenspiel 6,6,6,6,6,6/6,6,6,6,6,6 S 0-0","legal":[1,2,3,4,5,6],"over":false,"result":null}"#,
            r#"{"ply":1,"move":3,"position":"bohnenspiel 6,6,0,7,7,7/7,7,7,6,6,6 N 0-0","legal":[7,8,9,10,11,12],"over":false,"result":null}"#,
        ]
    );
}

#[test]
fn replay_accepts_game_flag_and_comma_separated_moves() {
    let a = mancala(&["replay", "--game", "bohnenspiel", "3,9", "2", "--json"]);
    let b = mancala(&["replay", START, "3", "9", "2", "--json"]);
    assert!(a.status.success());
    assert_eq!(stdout(&a), stdout(&b));
    assert_eq!(stdout(&a).lines().count(), 4);
}

#[test]
fn replay_reports_the_end_and_the_result() {
    // South's capture empties North's row; South takes the 3 seeds left.
    let o = mancala(&[
        "replay",
        "bohnenspiel 3,0,0,0,0,1/1,0,0,0,0,0 S 30-37",
        "6",
        "--json",
    ]);
    let last = stdout(&o).lines().last().unwrap().to_string();
    assert_eq!(
        last,
        r#"{"ply":1,"move":6,"position":"bohnenspiel 3,0,0,0,0,0/0,0,0,0,0,0 N 32-37","legal":[],"over":true,"result":[35,37]}"#
    );
}

#[test]
fn replay_shows_the_hemprich_pass_as_move_zero() {
    let o = mancala(&[
        "replay",
        "bohnenspiel-hemprich 0,0,0,0,0,0/1,2,0,0,0,0 S 30-39",
        "0",
        "--json",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    let lines: Vec<&str> = out.lines().collect();
    assert!(lines[0].contains(r#""legal":[0]"#), "{}", lines[0]);
    assert!(lines[1].contains(r#""move":0"#), "{}", lines[1]);
    assert!(lines[1].contains(r#""legal":[7,8]"#), "{}", lines[1]);
}

#[test]
fn replay_applies_the_cycle_rule_from_the_given_position() {
    let lap = "1,7,2,8,3,9,4,10,5,11,6,12";
    let o = mancala(&[
        "replay",
        "bohnenspiel 1,0,0,0,0,0/1,0,0,0,0,0 S 35-35",
        lap,
        lap,
        "--json",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    let last = out.lines().last().unwrap();
    assert!(last.contains(r#""ply":24"#), "{last}");
    assert!(
        last.contains(r#""legal":[],"over":true,"result":[36,36]"#),
        "{last}"
    );
}

#[test]
fn replay_stops_at_an_illegal_move_with_its_ply_and_pit() {
    let o = mancala(&["replay", START, "3", "3", "--json"]);
    assert_bad_input(&o, &["ply 2", "pit 3"]);
    // The lines before the bad move are printed.
    assert_eq!(stdout(&o).lines().count(), 2);
}

#[test]
fn replay_rejects_a_move_after_the_end() {
    let o = mancala(&[
        "replay",
        "bohnenspiel 3,0,0,0,0,1/1,0,0,0,0,0 S 30-37",
        "6",
        "7",
    ]);
    assert_bad_input(&o, &["ply 2", "pit 7", "over"]);
}

#[test]
fn replay_rejects_a_move_that_is_not_a_number() {
    let o = mancala(&["replay", START, "3", "x"]);
    assert_bad_input(&o, &["ply 2", "'x'"]);
    assert!(stdout(&o).is_empty());
}

#[test]
fn bad_positions_are_one_line_errors_with_status_2() {
    for (pos, says) in [
        ("chess 6,6,6,6,6,6/6,6,6,6,6,6 S 0-0", "unknown game"),
        ("bohnenspiel 6,6,6,6,6/6,6,6,6,6,6 S 0-0", "row has 5 pits"),
        ("bohnenspiel 6,6,6,6,6,6/6,6,6,6,6,7 S 0-0", "add up to 73"),
        ("bohnenspiel 6,6,6,6,6,x/6,6,6,6,6,6 S 0-6", "closed pits"),
        ("bohnenspiel 6,6,6,6,6,6/6,6,6,6,6,6 W 0-0", "side to move"),
        ("bohnenspiel 6,6,6,6,6,6/6,6,6,6,6,6 S 0:0", "tallies"),
        ("bohnenspiel 6,6,6,6,6,-6/6,6,6,6,6,6 S 0-0", "pit 6"),
        ("bohnenspiel 6,6,6,6,6,6/6,6,6,6,6,6 S", "4 fields"),
    ] {
        for cmd in ["replay", "perft", "show"] {
            let mut args = vec![cmd, pos];
            if cmd == "perft" {
                args.extend(["--depth", "2"]);
            }
            let o = mancala(&args);
            assert_bad_input(&o, &[says]);
            assert!(stdout(&o).is_empty(), "{cmd} {pos}");
        }
    }
}

#[test]
fn unknown_game_flag_is_bad_input() {
    assert_bad_input(
        &mancala(&["replay", "--game", "awari"]),
        &["unknown game 'awari'"],
    );
}

#[test]
fn unknown_options_are_one_line_errors() {
    assert_bad_input(
        &mancala(&["replay", "--game", "bosh", "--frobnicate"]),
        &["--frobnicate"],
    );
}

#[test]
fn perft_json_counts_every_depth() {
    let o = mancala(&["perft", "--game", "bohnenspiel", "--depth", "4", "--json"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_str(stdout(&o).trim()).unwrap();
    assert_eq!(v["depth"], serde_json::json!([6, 36, 206, 1166]));
    assert_eq!(v["nodes"], serde_json::json!(6 + 36 + 206 + 1166));
    // Time is measured (not zero) and a depth-4 perft is quick.
    let seconds = v["seconds"].as_f64().unwrap();
    assert!(seconds > 0.0 && seconds < 5.0, "{seconds}");
    let keys: Vec<&String> = v.as_object().unwrap().keys().collect();
    assert_eq!(keys.len(), 3);
}

#[test]
fn perft_of_a_finished_game_counts_nothing() {
    let o = mancala(&[
        "perft",
        "bohnenspiel 0,0,0,0,0,0/1,2,0,0,0,0 S 30-39",
        "--depth",
        "2",
        "--json",
    ]);
    let v: serde_json::Value = serde_json::from_str(stdout(&o).trim()).unwrap();
    assert_eq!(v["depth"], serde_json::json!([0, 0]));
}

#[test]
fn perft_depth_zero_is_bad_input() {
    assert_bad_input(
        &mancala(&["perft", "--game", "bosh", "--depth", "0"]),
        &["depth"],
    );
}

#[test]
fn position_may_be_given_as_four_arguments() {
    let o = mancala(&words(
        "perft bohnenspiel 6,6,6,6,6,6/6,6,6,6,6,6 S 0-0 --depth 2 --json",
    ));
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stdout(&o).starts_with(r#"{"depth":[6,36]"#));
}

#[test]
fn show_draws_north_on_top_right_to_left() {
    let o = mancala(&["show", "bosh 0,0,5,5,5/0,5,5,5,5 N 5-0"]);
    assert!(o.status.success());
    let out = stdout(&o);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines[0], "bosh 0,0,5,5,5/0,5,5,5,5 N 5-0");
    // North's pit numbers run 10..6 left to right, South's 1..5.
    assert!(
        lines[1].split_whitespace().eq(["10", "9", "8", "7", "6"]),
        "{}",
        lines[1]
    );
    assert!(lines
        .iter()
        .any(|l| l.split_whitespace().eq(["1", "2", "3", "4", "5"])));
    assert!(out.contains("North to move"));
    let closed = stdout(&mancala(&["show", "bosh x,x,4,4,4/x,4,4,4,4 S 5-7"]));
    assert!(closed.contains(" x |"), "{closed}");
}

#[test]
fn output_into_a_closed_pipe_ends_quietly() {
    use std::io::Read;
    use std::process::Stdio;
    let mut child = common::command()
        .args(["perft", "--game", "bosh", "--depth", "12"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // Hang up before the count is done and printed, like `| head -c0`.
    drop(child.stdout.take());
    let mut err = String::new();
    child
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut err)
        .unwrap();
    let status = child.wait().unwrap();
    assert!(!err.contains("panicked"), "{err}");
    assert!(
        status.success() || status.code().is_none(),
        "{status:?} {err}"
    );
}

#[test]
fn analyze_needs_no_arguments_beyond_the_subcommand() {
    // The README's first command: the Bohnenspiel start position.
    let o = mancala(&["analyze", "--depth", "4", "--json"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let last = stdout(&o).lines().last().unwrap().to_string();
    let v: serde_json::Value = serde_json::from_str(&last).unwrap();
    let best = v["best"].as_u64().unwrap();
    assert!((1..=6).contains(&best), "{last}");
    assert_eq!(v["moves"].as_array().unwrap().len(), 6, "{last}");
}

#[test]
fn bench_speedup_measures_threads_four_ways() {
    let o = mancala(&words(
        "bench --speedup 2 --min-ms 1 --hash 1 --runs 2 --depths 6,7",
    ));
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    let sections: Vec<Vec<&str>> = out.split("\n\n").map(|s| s.lines().collect()).collect();
    assert_eq!(sections.len(), 4, "{out}");
    let positions = mancala_engine::files::parse_positions(mancala_engine::files::BENCH).unwrap();
    let last_number =
        |line: &str| -> f64 { line.split_whitespace().last().unwrap().parse().unwrap() };
    // The start to each depth, best move and every move: two runs a side.
    let start = &sections[0];
    assert_eq!(start.len(), 2 + 4, "{out}");
    for (row, (mode, depth)) in start[2..].iter().zip([
        ("best move", 6),
        ("best move", 7),
        ("every move", 6),
        ("every move", 7),
    ]) {
        assert!(row.starts_with(mode), "{row}");
        assert_eq!(
            row[mode.len()..].split_whitespace().next(),
            Some(&*depth.to_string()),
            "{row}"
        );
        assert!(row.contains("1t: ") && row.contains("2t: "), "{row}");
        assert!(last_number(row) > 0.0, "{row}");
    }
    // The median of per-position ratios, for the node rates and the times.
    for (k, summary) in [(1, "median nps ratio "), (2, "median speedup ")] {
        let lines = &sections[k];
        assert_eq!(lines.len(), 2 + positions.len() + 1, "{out}");
        let last = lines.last().unwrap();
        assert!(last.starts_with(summary), "{out}");
        let median: f64 = last[summary.len()..]
            .split_whitespace()
            .next()
            .unwrap()
            .parse()
            .unwrap();
        let mut ratios: Vec<f64> = lines[2..lines.len() - 1]
            .iter()
            .zip(&positions)
            .map(|(line, pos)| {
                assert!(line.contains(&pos.to_string()), "{line} is not {pos}");
                last_number(line)
            })
            .collect();
        // (A ratio may print as 0.00 on a loaded machine: 1 ms searches.)
        assert!(ratios.iter().all(|r| r.is_finite() && *r >= 0.0), "{out}");
        ratios.sort_by(f64::total_cmp);
        let mid = ratios.len() / 2;
        let expected = if ratios.len() % 2 == 1 {
            ratios[mid]
        } else {
            (ratios[mid - 1] + ratios[mid]) / 2.0
        };
        assert!(
            (median - expected).abs() <= 0.011,
            "median {median}, expected {expected}: {out}"
        );
    }
    // Oversubscribed: 8 threads against 2, to the first depth.
    let over = &sections[3];
    assert!(
        over[0].starts_with("oversubscribed: 8 threads against 2 to depth 6"),
        "{out}"
    );
    assert_eq!(over.len(), 3, "{out}");
    assert!(
        over[1..]
            .iter()
            .all(|r| r.contains("2t: ") && r.contains("8t: ")),
        "{out}"
    );
    assert_bad_input(&mancala(&["bench", "--speedup", "0"]), &["speedup"]);
    assert_bad_input(
        &mancala(&["bench", "--speedup", "2", "--depths", "0"]),
        &["depths"],
    );
}

/// `--moves` after a position (show, analyze, solve, play): the moves count
/// for the cycle rule, as in `engine`'s `position … moves …`.
#[test]
fn moves_after_a_position_count_for_the_cycle_rule() {
    // 39 plies from this Bosh round reach a position for the third time.
    let start = "bosh 1,0,2,0,0/0,1,0,2,0 S 17-17";
    let cycle = "3,9,4,10,1,7,3,8,4,9,5,10,1,6,2,8,3,9,4,10,5,6,1,7,2,8,3,9,4,10,5,6,1,7,2,8,3,9,4";
    let json = |args: &[&str]| -> serde_json::Value {
        let o = mancala(args);
        assert!(o.status.success(), "{args:?}: {}", stderr(&o));
        serde_json::from_str(stdout(&o).trim().lines().last().unwrap()).unwrap()
    };
    // Over by the cycle rule: the board's 2 stones split, North 19-21.
    let a = json(&["analyze", start, "--moves", cycle, "--json", "--depth", "5"]);
    assert_eq!(
        (a["best"].clone(), a["score"].clone(), a["exact"].clone()),
        (serde_json::Value::Null, (-2).into(), true.into())
    );
    let s = json(&["solve", start, "--moves", cycle, "--json"]);
    assert_eq!(
        (s["margin"].clone(), s["outcome"].clone()),
        ((-2).into(), "loss".into())
    );
    let shown = stdout(&mancala(&["show", start, "--moves", cycle]));
    assert!(shown.contains("Game over by the cycle rule"), "{shown}");
    // One ply before, South's best move is the one that repeats: worth +2
    // only because of the history the moves give.
    let before = &cycle[..cycle.len() - 2];
    let s = json(&["solve", start, "--moves", before, "--json"]);
    assert_eq!(
        (s["margin"].clone(), s["best"].clone()),
        (2.into(), serde_json::json!([4]))
    );
    // An illegal move names its ply and pit.
    assert_bad_input(
        &mancala(&["analyze", "--moves", "3,3"]),
        &["--moves: ply 2: pit 3"],
    );
    assert_bad_input(
        &mancala(&["solve", "--game", "bosh", "--moves", "x"]),
        &["--moves", "ply 1"],
    );
}

#[test]
fn rules_completions_and_the_man_page() {
    let all = stdout(&mancala(&["rules"]));
    for game in [
        "Bohnenspiel:",
        "Bohnenspiel (Hemprich):",
        "Al-manqala:",
        "Bosh:",
        "Djenon-abe:",
    ] {
        assert!(all.contains(game), "{game}: {all}");
    }
    let bosh = stdout(&mancala(&["rules", "bosh"]));
    assert!(
        bosh.starts_with("Bosh:") && !bosh.contains("Djenon"),
        "{bosh}"
    );
    assert_bad_input(&mancala(&["rules", "chess"]), &["unknown game 'chess'"]);
    let bash = stdout(&mancala(&["completions", "bash"]));
    assert!(
        bash.contains("_mancala()") && bash.contains("review"),
        "{}",
        &bash[..200.min(bash.len())]
    );
    let man = stdout(&mancala(&["manpage"]));
    assert!(
        man.contains(".TH mancala 1") && man.contains("analyze"),
        "{}",
        &man[..200.min(man.len())]
    );
}

/// A newcomer's first commands: a game's name as its start position,
/// `rules --game`, clap's "did you mean" kept in the one-line error.
#[test]
fn a_game_name_is_its_start_and_typos_get_a_suggestion() {
    let o = mancala(&words("analyze djenon-abe --depth 2 --threads 1 --json"));
    assert!(o.status.success(), "{}", stderr(&o));
    let o2 = mancala(&words(
        "analyze --game djenon-abe --depth 2 --threads 1 --json",
    ));
    assert_eq!(
        stdout(&o)
            .lines()
            .last()
            .map(|l| l.split(",\"nodes\"").next().map(str::to_string)),
        stdout(&o2)
            .lines()
            .last()
            .map(|l| l.split(",\"nodes\"").next().map(str::to_string))
    );
    let o = mancala(&words("analyze bohnenspiel --seeds-per-pit 4 --depth 1"));
    assert!(
        stdout(&o).starts_with("position bohnenspiel 4,4,4,4,4,4/4,4,4,4,4,4 S 12-12\n"),
        "{}",
        stdout(&o)
    );
    let o = mancala(&["rules", "--game", "bosh"]);
    assert!(
        o.status.success() && stdout(&o).starts_with("Bosh: "),
        "{}",
        stderr(&o)
    );
    let o = mancala(&["analyze", "--depht", "3"]);
    assert_bad_input(&o, &["'--depht'", "(did you mean '--depth'?)"]);
    let o = mancala(&["analyse", "nosuchgame"]);
    assert_bad_input(&o, &["nosuchgame"]);
}

/// `analyze`: every move's score to two decimals and its own exact flag
/// in JSON; a move proven a draw through a repetition is marked proven in
/// the human report; the report says why the search stopped.
#[test]
fn analyze_reports_every_proven_move_and_why_it_stopped() {
    let pos = "bohnenspiel 0,1,0,2,0,3/1,0,1,0,0,0 S 32-32";
    let args = argv!["analyze", pos, "--time 5s --threads 1 --no-tables"];
    let o = mancala(&args);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(out.starts_with(&format!("position {pos}\n")), "{out}");
    // Moves 2 and 4 both win by 4: which comes first is the best move's
    // choice (the evaluation's), not the test's.
    let line = out
        .lines()
        .find_map(|l| l.strip_prefix("moves (South's score in seeds) "));
    let mut moves: Vec<&str> = line.expect(&out).split(", ").collect();
    assert_eq!(moves.pop(), Some("6 +0 proven"), "{out}");
    moves.sort_unstable();
    assert_eq!(moves, ["2 +4 proven", "4 +4 proven"], "{out}");
    assert!(out.contains(" hash ") && out.contains("% full"), "{out}");
    assert!(
        out.trim_end().ends_with("stopped: the score is proven"),
        "{out}"
    );
    let o = mancala(&[&args[..], &["--json"]].concat());
    let v: serde_json::Value = serde_json::from_str(stdout(&o).trim()).unwrap();
    let moves = v["moves"].as_array().unwrap();
    assert_eq!(moves.len(), 3, "{v}");
    for m in moves {
        assert_eq!(m["exact"], true, "{v}");
        assert_eq!(
            m["seeds"].as_f64().unwrap(),
            m["score"].as_i64().unwrap() as f64,
            "{v}"
        );
    }
    // From the start at a small depth: fractions, unproven.
    let o = mancala(&["analyze", "--depth", "6", "--threads", "1", "--json"]);
    let v: serde_json::Value = serde_json::from_str(stdout(&o).trim()).unwrap();
    let seeds = v["seeds"].as_f64().unwrap();
    assert_eq!(v["score"].as_i64().unwrap(), seeds.round() as i64, "{v}");
    assert!(
        v["moves"]
            .as_array()
            .unwrap()
            .iter()
            .all(|m| m["exact"] == false),
        "{v}"
    );
    assert!(
        v["moves"]
            .as_array()
            .unwrap()
            .iter()
            .any(|m| m["seeds"].as_f64().unwrap().fract() != 0.0),
        "{v}"
    );
    let o = mancala(&["analyze", "--depth", "6", "--threads", "1"]);
    assert!(
        stdout(&o).trim_end().ends_with("stopped: depth 6 reached"),
        "{}",
        stdout(&o)
    );
}

/// `review`: marks and comments only on marked moves, an accuracy per
/// side, and a review at a fixed depth on one thread repeats exactly.
#[test]
fn review_comments_marked_moves_and_repeats_at_a_fixed_depth() {
    let args =
        words("review bohnenspiel --moves 3,9,2,8,1,7,6,12,5 --depth 6 --threads 1 --no-tables");
    let o = mancala(&args);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    assert_eq!(out, stdout(&mancala(&args)), "the same review twice");
    // Every comment belongs to a marked move and names its mark.
    let comments = out.matches('{').count();
    let marks = ["?!", "?", "??"];
    assert!(comments > 0, "{out}");
    for piece in out.split('{').skip(1) {
        let kind = piece.split(':').next().unwrap();
        assert!(
            ["inaccuracy", "mistake", "blunder"].contains(&kind),
            "{piece}"
        );
    }
    let marked = out
        .split_whitespace()
        .filter(|t| {
            marks.iter().any(|m| t.ends_with(m))
                && t.chars().next().is_some_and(|c| c.is_ascii_digit())
        })
        .count();
    assert_eq!(marked, comments, "{out}");
    for side in ["South", "North"] {
        let line = out
            .lines()
            .find(|l| l.starts_with(&format!("; {side}: accuracy ")))
            .unwrap();
        assert!(
            line.contains("%, average loss ") && line.contains(" moves, "),
            "{line}"
        );
        assert!(
            !line.contains(" 1 inaccuracies")
                && !line.contains(" 1 mistakes")
                && !line.contains(" 1 blunders"),
            "{line}"
        );
    }
    // No move number ends a line.
    assert!(out.lines().all(|l| !l.trim_end().ends_with('.')), "{out}");
    let o = mancala(&["review", "bohnenspiel", "--moves", "3", "--depth", "0"]);
    assert_bad_input(&o, &["--depth"]);
}

/// The graded sets beside the shipped one (Bohnenspiel 22 to 34 seeds and
/// 36 to 50, Kalah 27 to 44, Al-manqala 24 to 40) read and grade all
/// their positions.
#[test]
fn the_other_accuracy_sets_grade() {
    for (file, count) in [
        ("bohnenspiel-22-34.txt", 581),
        ("bohnenspiel-36-50.txt", 68),
        ("kalah.txt", 197),
        ("al-manqala.txt", 129),
        ("oware.txt", 578),
    ] {
        let set = format!(
            "{}/../positions/accuracy/{file}",
            env!("CARGO_MANIFEST_DIR")
        );
        let o = mancala(&argv![
            "bench --accuracy --set",
            &set,
            "--nodes 2000 --no-tables"
        ]);
        assert!(o.status.success(), "{}", stderr(&o));
        assert!(
            stdout(&o).contains(&format!(
                ": {count} positions at 2000 nodes a position, one thread, no tables: "
            )),
            "{file}: {}",
            stdout(&o)
        );
    }
}
