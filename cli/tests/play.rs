//! `mancala play` and `mancala tune` end to end, with tiny settings.

#[macro_use]
mod common;
use common::words;

use std::process::Output;

fn play(args: &[&str], input: &str) -> Output {
    let all: Vec<&str> = std::iter::once("play")
        .chain(args.iter().copied())
        .collect();
    common::run(&all).input(input).output()
}

/// Asserts that `text` holds each of `parts`.
fn contains_all(text: &str, parts: &[&str]) {
    for part in parts {
        assert!(text.contains(part), "{part:?} not in:\n{text}");
    }
}

/// A player's input: every pit of `pits` in turn, `rounds` times (the
/// game refuses an illegal one and reads the next line), so that a game
/// runs to its end whatever the engine plays.
fn lowest_first(pits: std::ops::RangeInclusive<u8>, rounds: usize) -> String {
    let round: String = pits.map(|pit| format!("{pit}\n")).collect();
    round.repeat(rounds)
}

#[test]
fn a_human_session_with_mistakes_hint_and_undo() {
    let out = play(
        &["--game", "bohnenspiel", "--engine", "depth=2"],
        "9\nbanana\n3\nhint\nundo\nundo\n1\nquit\n",
    );
    assert!(out.status.success());
    let text = String::from_utf8_lossy(&out.stdout);
    contains_all(
        &text,
        &[
            "Pit 9 is not a legal move",
            "'banana' is not a pit number",
            "You: South plays 3.",
            "Engine: North plays ",
        ],
    );
    // The engine's score and the hint's name the side and the unit.
    contains_all(&text, &["(its score: North ", " seeds)"]);
    assert!(
        text.lines().any(|l| l.starts_with("> Hint: ")
            && l.contains(" (South ")
            && l.contains(" seeds at depth ")),
        "{text}"
    );
    // Piped: no colour codes.
    assert!(!text.contains('\x1b'), "{text}");
    contains_all(
        &text,
        &["Took back 3 ", "Nothing to undo.", "You: South plays 1."],
    );
    // The board is redrawn after the moves: the start position three
    // times at least (start, after undo) and positions after 3 and 1.
    assert!(text.matches("+----+").count() >= 12, "{text}");
}

#[test]
fn north_sees_the_board_from_its_seat_and_captures_are_shown() {
    // South's 6 takes pits 7 and 8 (2 and 4 seeds); North then plays 12.
    let out = play(
        &[
            "bohnenspiel 0,0,0,0,1,2/1,3,0,0,0,2 S 31-32",
            "--as",
            "north",
            "--engine",
            "depth=3",
        ],
        "12\nquit\n",
    );
    assert!(out.status.success());
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains(
            "Engine: South plays 6 and takes 6 seeds from pits 7 8 (South 31 \u{2192} 37)"
        ),
        "{text}"
    );
    // From North's seat: South's pits 6..1 on top, North's 7..12 below,
    // the pit played in ( ) and the pits taken in [ ].
    contains_all(
        &text,
        &[
            "         6    5    4    3    2    1\n",
            "         7    8    9   10   11   12\n",
            " S 37 |( 0)|  1 |  0 |",
            "      |[ 0]|[ 0]|  0 |  0 |  0 |  2 | N 32",
            "You: North plays 12",
        ],
    );
}

#[test]
fn levels_name_their_limits_and_bad_levels_are_refused() {
    let out = play(&["--game", "bohnenspiel", "--level", "Easy"], "1\nquit\n");
    assert!(out.status.success());
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("Engine: North plays "), "{text}");
    let out = play(
        &["--game", "bohnenspiel", "--level", "grandmaster"],
        "quit\n",
    );
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("easy, medium, hard or expert"), "{err}");
    // A level and an engine spec together are refused.
    let out = play(&["--level", "easy", "--engine", "depth=2"], "quit\n");
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn a_whole_game_against_greedy_ends_with_the_result() {
    // North against greedy: always play the lowest legal pit.
    let input = lowest_first(7..=12, 300);
    let out = play(
        &words("--game bohnenspiel --engine greedy --as north"),
        &input,
    );
    assert!(out.status.success());
    let text = String::from_utf8_lossy(&out.stdout);
    contains_all(&text, &["Game over", "The game is over"]);
}

#[test]
fn bad_options_are_bad_input() {
    for args in [
        &["--game", "bohnenspiel", "--as", "east"][..],
        &["--game", "bohnenspiel", "--engine", "depth=0"],
        &["--game", "chess"],
        &words("--game bohnenspiel --engine depth=3,weights=/nonexistent.json"),
        // A save file that cannot be written is refused before the game.
        &["--save", "/nonexistent-dir/game.txt"],
        &["--save", "/"],
    ] {
        let out = play(args, "quit\n");
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert_eq!(String::from_utf8_lossy(&out.stderr).lines().count(), 1);
    }
}

#[test]
fn tune_writes_weights_and_does_not_depend_on_threads() {
    let dir = std::env::temp_dir().join(format!("mancala-tune-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let run = |threads: &str, name: &str| {
        let path = dir.join(name);
        let out = common::command()
            .args([
                "tune",
                "--game",
                "bohnenspiel",
                "--games",
                "20",
                "--depth",
                "1",
            ])
            .args([
                "--threads",
                threads,
                "--json",
                "--out",
                path.to_str().unwrap(),
            ])
            .output()
            .unwrap();
        common::assert_success(&out);
        let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        let weights: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
        (report, weights)
    };
    let (r1, w1) = run("1", "one.json");
    let (r2, w2) = run("2", "two.json");
    assert_eq!(r1, r2);
    assert_eq!(w1, w2);
    assert_eq!(w1["bohnenspiel"], r1["after"]);
    assert!(r1["train_positions"].as_u64().unwrap() > 100);
    assert!(r1["test_positions"].as_u64().unwrap() > 0);
    // The fitted weights are at least as good on the data they were fitted
    // to (up to the rounding to sixteenths of a seed).
    let before = r1["train_mse_before"].as_f64().unwrap();
    let after = r1["train_mse_after"].as_f64().unwrap();
    assert!(after <= before * 1.02, "{before} -> {after}");
    // The weights load back: a match with them runs.
    let path = dir.join("one.json");
    let spec = format!("depth=1,weights={}", path.display());
    let out = common::command()
        .args([
            "match",
            "--game",
            "bohnenspiel",
            "-p",
            &spec,
            "-p",
            "depth=1",
            "--games",
            "2",
        ])
        .output()
        .unwrap();
    common::assert_success(&out);
}

/// `play --save` writes the game in the record format; `replay --record`
/// reads it back; a second game is added to the file.
#[test]
fn a_saved_game_replays_from_its_record() {
    let path = std::env::temp_dir().join(format!("mancala-save-{}.txt", std::process::id()));
    let _ = std::fs::remove_file(&path);
    let save = path.to_str().unwrap();
    let o = play(&["--engine", "depth=1", "--save", save], "3\n11\nquit\n");
    common::assert_success(&o);
    let text = std::fs::read_to_string(&path).unwrap();
    assert!(text.starts_with("[Game \"bohnenspiel\"]\n[Date "), "{text}");
    assert!(
        text.contains("[South \"you\"]\n[North \"mancala depth=1\"]\n[Result \"*\"]"),
        "{text}"
    );
    let games = mancala_engine::pgn::parse(&text).unwrap();
    assert_eq!(games.len(), 1);
    assert_eq!(games[0].moves[0].mv.pit(), 3);
    let o = play(
        &["--engine", "greedy", "--as", "north", "--save", save],
        "quit\n",
    );
    assert!(o.status.success());
    let games = mancala_engine::pgn::parse(&std::fs::read_to_string(&path).unwrap()).unwrap();
    assert_eq!(games.len(), 2);
    assert_eq!(games[1].tag("North"), Some("you"));
    let o = common::mancala(&["replay", "--record", save, "--json"]);
    assert!(o.status.success());
    let plies0 = String::from_utf8_lossy(&o.stdout)
        .matches("\"ply\":0")
        .count();
    assert_eq!(plies0, 2);
    // And the saved game can be reviewed as it is.
    let o = common::mancala(&["review", save, "--index", "1", "--time", "50ms", "--json"]);
    common::assert_success(&o);
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["plies"][0]["move"], 3);
    assert_eq!(v["summary"]["S"]["moves"], 1);
    std::fs::write(&path, "[Game \"bohnenspiel\"]\n1. 3 3 *\n").unwrap();
    let o = common::mancala(&["replay", "--record", save]);
    common::assert_bad_input(&o, &["line 2, column 6", "move 2"]);
    std::fs::remove_file(&path).unwrap();
}

/// `review` finds the blunder of a hand-made game: from a drawn endgame
/// South plays 1, which loses by 4 (proven); North's reply is best.
#[test]
fn review_marks_a_known_blunder() {
    let start = "bohnenspiel 1,1,0,0,2,0/2,1,1,0,0,0 S 32-32";
    let o = common::mancala(&argv![
        "review",
        start,
        "--moves 1,7 --json --time 300 --no-tables"
    ]);
    common::assert_success(&o);
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let first = &v["plies"][0];
    assert_eq!(first["side"], "S");
    assert_eq!(
        (first["move"].clone(), first["best"].clone()),
        (1.into(), 2.into())
    );
    assert_eq!(
        (
            first["before"].clone(),
            first["after"].clone(),
            first["loss"].clone()
        ),
        (0.into(), (-4).into(), 4.into())
    );
    assert_eq!(
        (first["mark"].clone(), first["exact"].clone()),
        ("blunder".into(), true.into())
    );
    assert_eq!(v["plies"][1]["mark"], serde_json::Value::Null);
    assert_eq!(v["summary"]["S"]["blunders"], 1);
    assert_eq!(v["summary"]["N"]["moves"], 1);
    // The annotated record marks it, and reads back as a record.
    let o = common::mancala(&argv![
        "review",
        start,
        "--moves 1,7 --time 0.3s --no-tables"
    ]);
    let text = String::from_utf8_lossy(&o.stdout).into_owned();
    assert!(
        text.contains("1. 1?? {blunder: North wins by 4, proven; best 2: a draw, proven} 7 *"),
        "{text}"
    );
    let games = mancala_engine::pgn::parse(&text).unwrap();
    assert_eq!(
        games[0].moves[0].mark,
        Some(mancala_engine::pgn::Mark::Blunder)
    );
    common::assert_bad_input(
        &common::mancala(&["review", start, "--moves", "1,1"]),
        &["--moves: ply 2"],
    );
}

/// `--label tables --endgame`: the endgame set of the output is fitted to
/// exact labels, its range is the one asked for, the opening set and the
/// other games are the starting file's; without tables, or with a range
/// upside down, a one-line error and exit 2.
#[test]
fn tune_fits_an_endgame_set_to_table_labels() {
    let path = common::temp("tune-tables", "endgame.json");
    let dir = path.parent().unwrap().to_path_buf();
    let tb = dir.join("tb");
    let tb_arg = tb.to_str().unwrap();
    let out = common::bohnenspiel_tables(&tb, 12).output().unwrap();
    assert_eq!(common::code(&out), 0, "{}", common::stderr(&out));
    let out_arg = path.to_str().unwrap();
    let tune = |extra: &[&str]| {
        let mut args = vec![
            "tune",
            "--game",
            "bohnenspiel",
            "--games",
            "30",
            "--depth",
            "1",
        ];
        args.extend(["--label", "tables", "--json", "--out", out_arg]);
        args.extend_from_slice(extra);
        common::mancala(&args)
    };
    let out = tune(&argv![
        "--dir",
        tb_arg,
        "--endgame --endgame-seeds 12 --opening-seeds 20"
    ]);
    assert_eq!(common::code(&out), 0, "{}", common::stderr(&out));
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(report["label"], "tables");
    assert_eq!(report["part"], "endgame");
    assert_eq!(report["endgame_seeds"], 12);
    assert!(report["train_positions"].as_u64().unwrap() > 30, "{report}");
    let weights: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    let shipped: serde_json::Value =
        serde_json::from_str(include_str!("../../eval/weights/default.json")).unwrap();
    let b = &weights["bohnenspiel"];
    assert_eq!(b["opening"], shipped["bohnenspiel"]);
    assert_eq!(b["endgame"], report["after"]);
    assert_eq!(
        (b["endgame_seeds"].as_u64(), b["opening_seeds"].as_u64()),
        (Some(12), Some(20))
    );
    assert_eq!(weights["bosh"], shipped["bosh"]);
    assert!(
        report["test_mse_after"].as_f64().unwrap() < report["test_mse_before"].as_f64().unwrap(),
        "{report}"
    );
    for (extra, what) in [
        (vec!["--no-tables"], "--label tables"),
        (
            vec![
                "--dir",
                tb_arg,
                "--endgame",
                "--endgame-seeds",
                "30",
                "--opening-seeds",
                "20",
            ],
            "--endgame-seeds",
        ),
    ] {
        common::assert_bad_input(&tune(&extra), &[what]);
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `--model network --label exact`: a network is trained on table values
/// and shallow searches, written as a network file that `analyze
/// --weights` plays with; the report compares it with the linear
/// evaluation on the held-out games. The same file changed by one digit,
/// or cut short, is refused with a one-line error and exit 2.
#[test]
fn tune_trains_a_network_that_analyze_loads_and_damage_is_refused() {
    let path = common::temp("tune-network", "net.txt");
    let dir = path.parent().unwrap().to_path_buf();
    let tb = dir.join("tb");
    let out = common::bohnenspiel_tables(&tb, 12).output().unwrap();
    assert_eq!(common::code(&out), 0, "{}", common::stderr(&out));
    // A tune run that must succeed, and its JSON report.
    fn report_of(argv: &[&str]) -> serde_json::Value {
        let out = common::mancala(argv);
        assert_eq!(common::code(&out), 0, "{}", common::stderr(&out));
        serde_json::from_slice(&out.stdout).unwrap()
    }
    let report = report_of(&argv![
        "tune --game bohnenspiel --games 40 --depth 1 --random-moves 0.2 --model network",
        "--label exact --label-depth 2 --epochs 5 --learning-curve --json --dir",
        tb.to_str().unwrap(),
        "--out",
        path.to_str().unwrap()
    ]);
    assert_eq!(report["model"], "network");
    assert_eq!(report["label"], "exact");
    assert_eq!(report["test_mse_by_epoch"].as_array().unwrap().len(), 5);
    assert_eq!(report["learning_curve"].as_array().unwrap().len(), 4);
    assert!(
        report["train_positions"].as_u64().unwrap() > 100,
        "{report}"
    );
    for key in ["test_mse_linear", "test_mse_network", "train_seconds"] {
        assert!(report[key].as_f64().unwrap() >= 0.0, "{report}");
    }
    assert!(report.get("test_mse_from_network").is_none(), "{report}");
    // A second round: the network plays and labels the games, and the
    // report gives its held-out error beside the new network's.
    let second = dir.join("second.txt");
    let report = report_of(&argv![
        "tune --game bohnenspiel --games 20 --depth 1 --random-moves 0.2 --model network",
        "--label search --label-depth 2 --epochs 2 --json --from-network",
        path.to_str().unwrap(),
        "--out",
        second.to_str().unwrap()
    ]);
    assert!(
        report["test_mse_from_network"].as_f64().unwrap() >= 0.0,
        "{report}"
    );
    assert!(second.exists());
    // The labelled positions saved and trained on again: the same network,
    // without playing; another game's or a damaged data file is refused.
    let data = dir.join("data.bin");
    let (saved, again) = (dir.join("saved.txt"), dir.join("again.txt"));
    let report = report_of(&argv![
        "tune --game bohnenspiel --games 20 --depth 1 --random-moves 0.2 --model network",
        "--label search --label-depth 2 --epochs 2 --json --save-data",
        data.to_str().unwrap(),
        "--out",
        saved.to_str().unwrap()
    ]);
    let from_file = report_of(&argv![
        "tune --game bohnenspiel --model network --epochs 2 --json --data",
        data.to_str().unwrap(),
        "--out",
        again.to_str().unwrap()
    ]);
    assert_eq!(from_file["data_files"][0], data.to_str().unwrap());
    assert!(from_file.get("games").is_none(), "{from_file}");
    for key in ["train_positions", "test_positions", "test_mse_network"] {
        assert_eq!(report[key], from_file[key], "{key}");
    }
    assert_eq!(
        std::fs::read_to_string(&saved).unwrap(),
        std::fs::read_to_string(&again).unwrap()
    );
    // Two files train together, each one's held-out part held out.
    let twice = report_of(&argv![
        "tune --game bohnenspiel --model network --epochs 1 --json --data",
        data.to_str().unwrap(),
        "--data",
        data.to_str().unwrap(),
        "--out",
        again.to_str().unwrap()
    ]);
    assert_eq!(twice["data_files"].as_array().unwrap().len(), 2);
    for key in ["train_positions", "test_positions"] {
        let (one, two) = (report[key].as_u64().unwrap(), twice[key].as_u64().unwrap());
        assert!(one > 0 && two == 2 * one, "{key}: {one} {two}");
    }
    let train_on = |game: &str| {
        common::mancala(&argv![
            "tune --model network --game",
            game,
            "--data",
            data.to_str().unwrap(),
            "--out /tmp/never-written.txt"
        ])
    };
    common::assert_bad_input(&train_on("oware"), &["--data", "oware"]);
    let bytes = std::fs::read(&data).unwrap();
    let good = dir.join("good.bin");
    std::fs::write(&good, &bytes).unwrap();
    std::fs::write(&data, &bytes[..bytes.len() - 5]).unwrap();
    common::assert_bad_input(&train_on("bohnenspiel"), &["--data", "damaged"]);
    // A damaged second file is named.
    let out = common::mancala(&argv![
        "tune --model network --game bohnenspiel --data",
        good.to_str().unwrap(),
        "--data",
        data.to_str().unwrap(),
        "--out /tmp/never-written.txt"
    ]);
    common::assert_bad_input(&out, &[data.to_str().unwrap(), "damaged"]);
    // Another game's network, or a linear fit, is refused.
    for (game, model) in [("al-manqala", "network"), ("bohnenspiel", "linear")] {
        let out = common::mancala(&argv![
            "tune --game",
            game,
            "--model",
            model,
            "--from-network",
            path.to_str().unwrap(),
            "--out /tmp/never-written.txt"
        ]);
        common::assert_bad_input(&out, &["--from-network"]);
    }
    let text = std::fs::read_to_string(&path).unwrap();
    assert!(text.starts_with("mancala-network 1\ngame bohnenspiel\n"));
    let analyze = |file: &std::path::Path| {
        common::mancala(&argv![
            "analyze --depth 4 --threads 1 --json --weights",
            file.to_str().unwrap()
        ])
    };
    let out = analyze(&path);
    assert_eq!(common::code(&out), 0, "{}", common::stderr(&out));
    let damaged = dir.join("damaged.txt");
    let i = text.find("\n1").unwrap() + 1;
    let mut changed = text.clone();
    changed.replace_range(i..i + 1, "2");
    std::fs::write(&damaged, &changed).unwrap();
    common::assert_bad_input(&analyze(&damaged), &["--weights", "damaged"]);
    std::fs::write(&damaged, &text[..text.len() / 3]).unwrap();
    common::assert_bad_input(&analyze(&damaged), &["--weights"]);
    common::assert_bad_input(
        &common::mancala(&words(
            "tune --game bohnenspiel --model network --epochs 0 --out /tmp/never-written.txt",
        )),
        &["--epochs"],
    );
    for rate in ["0", "NaN", "2", "fast"] {
        common::assert_bad_input(
            &common::mancala(&argv![
                "tune --game bohnenspiel --model network --out /tmp/never-written.txt --rate",
                rate
            ]),
            &["--rate"],
        );
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `moves`, `save`, `resign` and `new`; the save file is written after
/// every move, so a killed session loses nothing.
#[test]
fn play_commands_and_saving_on_every_move() {
    let path = common::temp("play-commands", "games.txt");
    let _ = std::fs::remove_file(&path);
    let save = path.to_str().unwrap();
    let o = play(
        &["--engine", "depth=1", "--save", save],
        "moves\n3\nresign\n4\nnew\n2\nquit\n",
    );
    common::assert_success(&o);
    let text = String::from_utf8_lossy(&o.stdout);
    contains_all(
        &text,
        &[
            "Legal moves: 1 2 3 4 5 6.",
            "You resign: the engine wins. Type undo, new or quit.",
            "The game is over: type undo, new or quit.",
            "A new game. You play South.",
        ],
    );
    let games = mancala_engine::pgn::parse(&std::fs::read_to_string(&path).unwrap()).unwrap();
    assert_eq!(games.len(), 2, "the resigned game and the new one");
    assert_eq!(games[0].tag("Termination"), Some("South resigns"));
    assert_eq!(games[0].moves.len(), 2);
    assert_eq!(games[0].moves[0].mv.pit(), 3);
    assert_eq!(games[1].moves[0].mv.pit(), 2);

    // Killed after a move with its input still open: the move is saved.
    let _ = std::fs::remove_file(&path);
    let mut child = common::command()
        .args(["play", "--engine", "depth=1", "--save", save])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    {
        use std::io::Write;
        let stdin = child.stdin.as_mut().unwrap();
        stdin.write_all(b"5\n").unwrap();
        stdin.flush().unwrap();
    }
    let mut saved = None;
    for _ in 0..300 {
        if let Ok(text) = std::fs::read_to_string(&path) {
            let games = mancala_engine::pgn::parse(&text).unwrap();
            if games[0].moves.len() == 2 {
                saved = Some(games);
                break;
            }
        }
        std::thread::sleep(std::time::Duration::from_millis(100));
    }
    child.kill().unwrap();
    let _ = child.wait();
    let games = saved.expect("the move and the reply saved within 30 s");
    assert_eq!(games[0].moves[0].mv.pit(), 5);
    std::fs::remove_file(&path).unwrap();
}

/// The end of a game: the board as the rules leave it, one result line.
#[test]
fn the_end_of_a_game_shows_the_final_board_once() {
    // A few seeds left: the game ends within a few moves against the
    // greedy player, with seeds still on the board to sweep.
    let input = lowest_first(1..=6, 20);
    let out = play(
        &[
            "bohnenspiel 1,0,0,0,0,2/0,0,0,1,1,1 S 30-36",
            "--engine",
            "greedy",
        ],
        &input,
    );
    assert!(out.status.success());
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(text.matches("Game over").count(), 1, "{text}");
    let board_before_result = text.split("Game over").next().unwrap();
    // The final board: both rows of the last board drawn, every pit 0.
    let rows: Vec<&str> = board_before_result
        .lines()
        .rev()
        .take(8)
        .filter(|l| l.contains("|  ") || l.contains("|( ") || l.contains("|[ "))
        .collect();
    assert_eq!(rows.len(), 2, "{text}");
    for row in rows {
        let cells: Vec<&str> = row.split('|').skip(1).collect();
        let pits: Vec<&str> = cells[..cells.len() - 1]
            .iter()
            .map(|c| c.trim_matches(|ch: char| ch == ' ' || "()[]".contains(ch)))
            .collect();
        assert_eq!(pits, ["0"; 6], "{row}\n{text}");
    }
    assert!(text.contains("Type undo, new or quit."), "{text}");
}

/// The hint is the expert's, whatever the opponent's level: deeper than
/// the easy level's depth 2.
#[test]
fn hints_are_at_full_strength() {
    let out = play(&["--level", "easy"], "hint\nquit\n");
    assert!(out.status.success());
    let text = String::from_utf8_lossy(&out.stdout);
    let line = text
        .lines()
        .find(|l| l.starts_with("> Hint: "))
        .expect("a hint");
    let depth: u32 = line
        .split(" at depth ")
        .nth(1)
        .and_then(|r| r.split(';').next())
        .and_then(|d| d.parse().ok())
        .unwrap_or_else(|| panic!("no depth in {line}"));
    assert!(depth > 2, "{line}");
}
