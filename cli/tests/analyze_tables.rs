//! `mancala analyze` with endgame tablebases, as a script sees it: tables
//! built by the program in a temporary directory, a proven score, and a
//! damaged table file that is refused with a warning.

#[macro_use]
mod common;

use std::path::{Path, PathBuf};

use serde_json::Value;

/// Eight seeds on the board: within reach of tables to 8 seeds.
const POSITION: &str = "bohnenspiel 0,1,0,2,0,3/1,0,1,0,0,0 S 32-32";

/// Runs `mancala` with `$MANCALA_TB_DIR` set to `tb_dir`.
fn mancala(args: &[&str], tb_dir: &Path) -> (i32, String, String) {
    common::parts(&common::run(args).tables(tb_dir).output())
}

/// The last stdout line as JSON.
fn last_json(out: &str) -> Value {
    serde_json::from_str(out.trim().lines().last().expect("a line")).expect("JSON")
}

/// Builds Bohnenspiel tables up to 8 seeds in a fresh directory.
fn build_tables(name: &str) -> PathBuf {
    build_game_tables(name, "bohnenspiel", 8).0
}

/// Builds `game`'s tables up to `max_seeds` in a fresh directory; returns
/// it and what the build wrote to stderr.
fn build_game_tables(name: &str, game: &str, max_seeds: u32) -> (PathBuf, String) {
    let dir = std::env::temp_dir().join(format!("mancala-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let (d, max) = (dir.to_str().unwrap(), max_seeds.to_string());
    let (code, _, err) = mancala(
        &argv![
            "tablebase build --game",
            game,
            "--max-seeds",
            &max,
            "--dir",
            d
        ],
        Path::new("/nonexistent-mancala-tables"),
    );
    assert_eq!(code, 0, "{err}");
    (dir, err)
}

/// The margin and best moves by the solver without tables.
fn solved() -> (i64, Vec<Value>) {
    let (code, out, err) = mancala(
        &["solve", "--no-tables", "--json", POSITION],
        Path::new("/nonexistent-mancala-tables"),
    );
    assert_eq!(code, 0, "{err}");
    let v = last_json(&out);
    (
        v["margin"].as_i64().unwrap(),
        v["best"].as_array().unwrap().clone(),
    )
}

#[test]
fn analyze_reports_the_tables_proven_score_as_exact() {
    let dir = build_tables("analyze-tb");
    let d = dir.to_str().unwrap();
    let nowhere = Path::new("/nonexistent-mancala-tables");
    let (margin, best) = solved();

    let (code, out, err) = mancala(
        &["analyze", POSITION, "--dir", d, "--depth", "20", "--json"],
        nowhere,
    );
    assert_eq!(code, 0, "{err}");
    assert!(err.is_empty(), "{err}");
    let v = last_json(&out);
    assert_eq!(v["exact"], true, "{out}");
    assert_eq!(v["score"], margin, "{out}");
    assert!(best.contains(&v["best"]), "{out}");
    assert_eq!(v["depth"], 1, "proven on the first iteration: {out}");
    assert_eq!(v["pv"][0], v["best"], "{out}");

    // $MANCALA_TB_DIR is where the tables are looked for without --dir.
    let (code, out, _) = mancala(&["analyze", POSITION, "--depth", "20", "--json"], &dir);
    assert_eq!(code, 0);
    assert_eq!(last_json(&out)["exact"], true, "{out}");

    // --no-tables: the same search to depth 1 proves nothing.
    let (code, out, _) = mancala(
        &argv![
            "analyze",
            POSITION,
            "--dir",
            d,
            "--no-tables --depth 1 --json"
        ],
        nowhere,
    );
    assert_eq!(code, 0);
    assert_eq!(last_json(&out)["exact"], false, "{out}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_damaged_table_file_is_a_one_line_warning_and_analysis_goes_on() {
    let dir = build_tables("analyze-tb-damaged");
    let d = dir.to_str().unwrap();
    let file = dir.join("bohnenspiel-08.mtb");
    let mut bytes = std::fs::read(&file).unwrap();
    let last = bytes.len() - 1;
    bytes[last] ^= 0x55;
    std::fs::write(&file, bytes).unwrap();
    let (margin, _) = solved();

    let (code, out, err) = mancala(
        &argv![
            "analyze",
            POSITION,
            "--dir",
            d,
            "--depth 6 --threads 1 --json"
        ],
        Path::new("/nonexistent-mancala-tables"),
    );
    assert_eq!(code, 0, "{err}");
    assert_eq!(err.trim().lines().count(), 1, "{err}");
    assert!(err.contains("bohnenspiel-08.mtb"), "{err}");
    assert!(err.contains("warning"), "{err}");
    let v = last_json(&out);
    assert!([2, 4, 6].contains(&v["best"].as_i64().unwrap()), "{out}");
    // Without the 8-seed layer the root is no table position, so the first
    // iteration cannot prove it; the 6-seed layer below proves it a few
    // plies later, and the value is the right one.
    assert!(v["depth"].as_u64().unwrap() > 1, "{out}");
    assert_eq!(v["exact"], true, "{out}");
    assert_eq!(v["score"], margin, "{out}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_engine_protocol_reads_the_tables_too() {
    let dir = build_tables("engine-tb");
    let (margin, best) = solved();
    // End of input stops the search, but its first iteration always
    // completes, and with the tables it is already proven.
    let out = common::run(&["engine", "--dir", dir.to_str().unwrap()])
        .input(&format!("position {POSITION}\ngo depth 20\n"))
        .output();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{stdout}");
    assert!(
        stdout
            .lines()
            .any(|l| l.starts_with(&format!("info depth 1 score {margin} exact "))),
        "{stdout}"
    );
    let bestmove: i64 = stdout
        .lines()
        .find_map(|l| l.strip_prefix("bestmove "))
        .expect("a bestmove line")
        .parse()
        .unwrap();
    assert!(best.contains(&Value::from(bestmove)), "{stdout}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn oware_tables_are_worked_back_and_read_oware_one_seed_a_pit_as_a_draw() {
    let (dir, err) = build_game_tables("oware-tb", "oware", 12);
    let d = dir.to_str().unwrap();
    assert!(
        err.contains("3 bytes a position of the layer built"),
        "{err}"
    );
    assert_eq!(err.matches("sweeps working back").count(), 13, "{err}");
    // Oware(6,1), 12 seeds on the board: a draw, 1 and 6 the best moves
    // (docs/solved.md), read from the tables.
    let (code, out, err) = mancala(
        &argv!["solve --game oware --seeds-per-pit 1 --json --dir", d],
        Path::new("/nonexistent-mancala-tables"),
    );
    assert_eq!(code, 0, "{err}");
    let v = last_json(&out);
    assert_eq!(v["margin"], 0, "{out}");
    assert_eq!(v["best"], serde_json::json!([1, 6]), "{out}");
    let _ = std::fs::remove_dir_all(&dir);
}
