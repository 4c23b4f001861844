//! `mancala solve --ledger`: a proof in pieces, stopped, killed, resumed,
//! and its value checked against `solve`.

#[macro_use]
mod common;
use common::words;

use common::{
    assert_bad_input, assert_ledger_proves_b63, bohnenspiel_tables, mancala, parts, temp,
};
use std::path::Path;

fn ledger_run(file: &Path, dir: &Path, rest: &[&str]) -> (i32, String, String) {
    let mut args = vec![
        "solve",
        "--ledger",
        file.to_str().unwrap(),
        "--dir",
        dir.to_str().unwrap(),
    ];
    args.extend_from_slice(rest);
    parts(&mancala(&args))
}

fn status(file: &Path, dir: &Path) -> serde_json::Value {
    let (code, out, err) = ledger_run(file, dir, &["--status", "--json"]);
    assert_eq!(code, 0, "{err}");
    serde_json::from_str(out.trim()).expect("one JSON object")
}

#[test]
fn a_proof_in_pieces_survives_stops_and_kills_and_matches_solve() {
    let dir = temp("ledger", "tb");
    assert!(bohnenspiel_tables(&dir, 10)
        .output()
        .unwrap()
        .status
        .success());
    let file = temp("ledger", "b63.txt");
    let (code, _, err) = ledger_run(
        &file,
        &dir,
        &words("--game bohnenspiel --seeds-per-pit 3 --depth 2 --pieces 3"),
    );
    assert_eq!(code, 0, "{err}");
    let s = status(&file, &dir);
    assert_eq!(s["pieces"], 28, "{s}");
    assert_eq!(s["solved"], 3, "{s}");
    // Nothing proven yet: the root's whole range (18-18 banked, 36 seeds
    // in play), not the game's.
    assert_eq!(s["value_solved"], serde_json::json!([-36, 36]));

    // An estimate proves samples below open pieces and records nothing.
    let before = std::fs::read_to_string(&file).unwrap();
    let (code, out, err) = ledger_run(
        &file,
        &dir,
        &["--estimate", "4", "--estimate-plies", "2", "--seed", "3"],
    );
    assert_eq!(code, 0, "{err}");
    let samples = out.lines().filter(|l| l.starts_with("sample ")).count();
    let estimates = out.lines().filter(|l| l.starts_with("estimate: ")).count();
    assert_eq!((samples, estimates), (4, 3), "{out}");
    assert!(
        out.contains("4 samples 2 plies below the 25 open pieces"),
        "{out}"
    );
    assert_eq!(std::fs::read_to_string(&file).unwrap(), before);

    // A claim of a process that is gone does not hold the piece back.
    let text = std::fs::read_to_string(&file).unwrap();
    let open = text
        .lines()
        .find(|l| l.contains("| open "))
        .unwrap()
        .to_string();
    let claimed = format!("{open} | claim {}:4000000000 until 99999999999", hostname());
    // (Written by hand: without the checksum line, as an older ledger.)
    std::fs::write(&file, edited(&text, &open, &claimed)).unwrap();

    // Killed at once, in the middle of its work: the file is whole.
    let mut child = common::command()
        .args(["solve", "--ledger"])
        .arg(&file)
        .arg("--dir")
        .arg(&dir)
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    std::thread::sleep(std::time::Duration::from_millis(150));
    child.kill().unwrap();
    child.wait().unwrap();
    let s = status(&file, &dir);
    let before = s["solved"].as_u64().unwrap() + s["proven"].as_u64().unwrap();
    assert!(before >= 3, "{s}");

    // Resumed to the end: every needed piece proven twice (the tables to
    // 10 seeds, then to 8), and the value is solve's.
    let (code, out, err) = ledger_run(&file, &dir, &["--json"]);
    assert_eq!(code, 0, "{err}");
    let s: serde_json::Value = serde_json::from_str(out.trim()).unwrap();
    assert_ledger_proves_b63(&s);
    let (code, out, _) = parts(&mancala(&words(
        "solve --game bohnenspiel --seeds-per-pit 3 --json --no-tables",
    )));
    assert_eq!(code, 0);
    let solved: serde_json::Value = serde_json::from_str(out.trim()).unwrap();
    assert_eq!(solved["margin"], 0);
    // Nothing is left to do: a run again does no work.
    let (code, _, err) = ledger_run(&file, &dir, &[]);
    assert_eq!(code, 0);
    assert!(err.contains("no needed piece"), "{err}");
}

fn hostname() -> String {
    std::fs::read_to_string("/etc/hostname")
        .map(|h| h.trim().to_string())
        .ok()
        .filter(|h| !h.is_empty())
        .unwrap_or_else(|| "host".to_string())
}

#[test]
fn bad_ledgers_exit_2_with_one_line() {
    let dir = temp("ledger-bad", "tb");
    let missing = temp("ledger-bad", "none.txt");
    let o = mancala(&["solve", "--ledger", missing.to_str().unwrap()]);
    assert_bad_input(&o, &["no such file"]);
    let junk = temp("ledger-bad", "junk.txt");
    std::fs::write(&junk, "not a ledger\n").unwrap();
    assert_bad_input(
        &mancala(&["solve", "--ledger", junk.to_str().unwrap()]),
        &["not a ledger"],
    );
    let file = temp("ledger-bad", "b62.txt");
    let (code, _, err) = ledger_run(
        &file,
        &dir,
        &words("--game bohnenspiel --seeds-per-pit 2 --depth 1 --pieces 0"),
    );
    assert_eq!(code, 0, "{err}");
    // Another position for the same file.
    let f = file.to_str().unwrap();
    assert_bad_input(
        &mancala(&["solve", "--ledger", f, "--game", "bohnenspiel"]),
        &["is the proof of"],
    );
    // A damaged piece line.
    let text = std::fs::read_to_string(&file).unwrap();
    std::fs::write(&file, text.replacen("open -72 +72", "open +9 -9", 1)).unwrap();
    assert_bad_input(
        &mancala(&["solve", "--ledger", f, "--status"]),
        &["bounds cross"],
    );
    // An edit the line's own checks pass: the checksum finds it; without
    // the checksum line (an older ledger), the ledger's checks do.
    std::fs::write(&file, text.replacen("depth 1", "depth 2", 1)).unwrap();
    assert_bad_input(
        &mancala(&["solve", "--ledger", f, "--status"]),
        &["checksum does not match"],
    );
    let unsummed: String = text
        .lines()
        .filter(|l| !l.starts_with("checksum "))
        .map(|l| format!("{l}\n"))
        .collect();
    std::fs::write(&file, unsummed.replacen("depth 1", "depth 2", 1)).unwrap();
    assert_bad_input(
        &mancala(&["solve", "--ledger", f, "--status"]),
        &["frontier"],
    );
    // Out-of-range depth.
    let other = temp("ledger-bad", "deep.txt");
    assert_bad_input(
        &mancala(&argv![
            "solve --ledger",
            other.to_str().unwrap(),
            "--game bohnenspiel --depth 40"
        ]),
        &["--depth"],
    );
}

/// A ledger's text without its checksum line, as an older version wrote it
/// (its lines are then checked one by one), with `from` made `to` once.
fn edited(text: &str, from: &str, to: &str) -> String {
    let unsummed: String = text
        .lines()
        .filter(|l| !l.starts_with("checksum "))
        .map(|l| format!("{l}\n"))
        .collect();
    assert!(unsummed.contains(from), "{from}");
    unsummed.replacen(from, to, 1)
}

/// Issue 66: values no proof can have, values the tables contradict, a
/// ledger already in conflict and sums past `u64` are not believed.
#[test]
fn edited_values_conflicts_and_sums_are_not_believed() {
    let dir = temp("ledger-edit", "tb");
    assert!(bohnenspiel_tables(&dir, 12)
        .output()
        .unwrap()
        .status
        .success());
    let file = temp("ledger-edit", "b61.txt");
    let f = file.to_str().unwrap();
    // 12 seeds on the board, 30-30 banked: every piece within the tables.
    let (code, _, err) = ledger_run(
        &file,
        &dir,
        &words("--game bohnenspiel --seeds-per-pit 1 --depth 1 --pieces 0"),
    );
    assert_eq!(code, 0, "{err}");
    let text = std::fs::read_to_string(&file).unwrap();
    let piece = text.lines().find(|l| l.starts_with("piece ")).unwrap();
    let position = piece["piece ".len()..].split('|').next().unwrap().trim();
    let open = piece.split('|').nth(1).unwrap().trim();
    let nowhere = temp("ledger-edit", "no-tables");
    std::fs::create_dir_all(&nowhere).unwrap();
    let with = |dir: &Path, rest: &[&str]| ledger_run(&file, dir, rest);

    // A value the seeds cannot give (the piece has 12 in play).
    std::fs::write(&file, edited(&text, open, "conflict -30 -30 tables 0 0")).unwrap();
    let o = mancala(&[
        "solve",
        "--ledger",
        f,
        "--dir",
        nowhere.to_str().unwrap(),
        "--status",
    ]);
    assert_bad_input(&o, &["-30 cannot be the value of"]);

    // A value in range that the tables contradict.
    let (_, out, _) = parts(&mancala(&[
        "solve",
        position,
        "--json",
        "--dir",
        dir.to_str().unwrap(),
    ]));
    let solved: serde_json::Value = serde_json::from_str(out.trim()).unwrap();
    let (margin, best) = (solved["margin"].as_i64().unwrap(), &solved["best"][0]);
    let lie = if margin <= 0 { margin + 2 } else { margin - 2 };
    let state = format!("solved {lie:+} best {best} tables 0");
    std::fs::write(&file, edited(&text, open, &state)).unwrap();
    let (code, _, err) = with(&dir, &["--status"]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("the tables say"), "{err}");
    // The same value read without the tables is believed (nothing
    // contradicts it), and an honest one with them too.
    assert_eq!(with(&nowhere, &["--status"]).0, 0);
    let honest = format!("solved {margin:+} best {best} tables 0");
    std::fs::write(&file, edited(&text, open, &honest)).unwrap();
    assert_eq!(with(&dir, &["--status"]).0, 0);

    // A ledger already in conflict: the status is shown, and the exit is
    // a failure.
    std::fs::write(&file, edited(&text, open, "conflict +0 +2 tables 0 0")).unwrap();
    let (code, out, err) = with(&nowhere, &["--status"]);
    assert_eq!(code, 1, "{err}");
    assert!(out.contains("1 in conflict"), "{out}");
    assert!(err.contains("disagree"), "{err}");

    // Sums of huge counts saturate; no seconds beyond a thousand years.
    let huge = text
        .lines()
        .filter(|l| !l.starts_with("checksum "))
        .map(|l| l.replace("| nodes 0 |", "| nodes 18446744073709551000 |"))
        .collect::<Vec<_>>()
        .join("\n");
    std::fs::write(&file, huge).unwrap();
    let s = status(&file, &nowhere);
    assert_eq!(s["nodes"], u64::MAX, "{s}");
    assert!(s["seconds"].is_number(), "{s}");
    let slow = edited(&text, "| seconds 0.0 |", "| seconds 1e300 |");
    std::fs::write(&file, slow).unwrap();
    let o = mancala(&["solve", "--ledger", f, "--status"]);
    assert_bad_input(&o, &["seconds 1e300"]);
}
