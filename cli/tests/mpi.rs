//! `tablebase build --mpi` and `solve --ledger --mpi` under `mpirun`
//! (OpenMPI): 2 and 3 ranks write the same table files as one process,
//! and prove a ledger to the value `solve` gives. Built only with
//! `--features mpi`; `.ci/run` installs OpenMPI and runs it
//! (docs/tablebases.md and docs/solved.md, "On a cluster").
#![cfg(feature = "mpi")]

mod common;
use common::words;

use std::path::Path;
use std::process::{Command, Output};

/// The layers compared: every even one up to this.
const SEEDS: u32 = 16;

fn build_args(dir: &Path) -> Vec<String> {
    [
        "tablebase",
        "build",
        "--game",
        "bohnenspiel",
        "--max-seeds",
        &SEEDS.to_string(),
        "--dir",
        dir.to_str().unwrap(),
    ]
    .map(String::from)
    .to_vec()
}

#[test]
fn two_and_three_ranks_write_the_files_of_one_process() {
    let root = common::temp("mpi", "tables");
    let _ = std::fs::remove_dir_all(&root);
    let single = root.join("single");
    let out = common::command()
        .args(build_args(&single))
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", common::stderr(&out));
    let mut compared = 0;
    for ranks in [2, 3] {
        let dir = root.join(format!("ranks-{ranks}"));
        let out = Command::new("mpirun")
            // More ranks than cores is what this test wants.
            .args(["--oversubscribe", "-np", &ranks.to_string()])
            .arg(env!("CARGO_BIN_EXE_mancala"))
            .args(build_args(&dir))
            .args(["--mpi", "--threads", "1"])
            .env("OMPI_ALLOW_RUN_AS_ROOT", "1")
            .env("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1")
            .output()
            .expect("mpirun (OpenMPI) on the PATH");
        let err = common::stderr(&out);
        assert!(out.status.success(), "{ranks} ranks: {err}");
        assert!(err.contains(&format!("{ranks} ranks")), "{err}");
        assert!(err.contains("bytes exchanged"), "{err}");
        for seeds in (0..=SEEDS).step_by(2) {
            let name = format!("bohnenspiel-{seeds:02}.mtb");
            let a = std::fs::read(single.join(&name)).unwrap();
            let b = std::fs::read(dir.join(&name)).unwrap();
            assert!(a == b, "{name} differs with {ranks} ranks");
            compared += 1;
        }
        assert!(!dir
            .join(format!("bohnenspiel-{SEEDS:02}.mtb.parts"))
            .exists());
        // Run again, it finds every layer and builds nothing.
        let again = Command::new("mpirun")
            .args(["--oversubscribe", "-np", &ranks.to_string()])
            .arg(env!("CARGO_BIN_EXE_mancala"))
            .args(build_args(&dir))
            .arg("--mpi")
            .env("OMPI_ALLOW_RUN_AS_ROOT", "1")
            .env("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1")
            .output()
            .unwrap();
        let text = common::stderr(&again);
        assert!(again.status.success(), "{text}");
        assert_eq!(text.matches("found on disk").count(), 9, "{text}");
    }
    assert_eq!(compared, 18);
    let _ = std::fs::remove_dir_all(&root);
}

/// `mancala ARGS` as `ranks` ranks of an MPI job.
fn mpirun(ranks: usize, args: &[&str]) -> Output {
    Command::new("mpirun")
        // More ranks than cores is what these tests want.
        .args(["--oversubscribe", "-np", &ranks.to_string()])
        .arg(env!("CARGO_BIN_EXE_mancala"))
        .args(args)
        .env("MANCALA_TB_DIR", "/nonexistent-mancala-tables")
        .env("OMPI_ALLOW_RUN_AS_ROOT", "1")
        .env("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1")
        .output()
        .expect("mpirun (OpenMPI) on the PATH")
}

/// Bohnenspiel(6,3) through a ledger 2 plies deep, worked by 2 and by 3
/// ranks: stopped after 4 proofs, resumed to the end, every needed piece
/// proven twice (the tables to 10 seeds, then to 8), by every rank; the
/// draw `solve` proves, with its best first moves 2 and 6.
#[test]
fn ranks_work_a_ledger_to_the_solvers_value() {
    let root = common::temp("mpi", "ledger");
    let _ = std::fs::remove_dir_all(&root);
    let tables = root.join("tb");
    let out = common::bohnenspiel_tables(&tables, 10).output().unwrap();
    assert!(out.status.success(), "{}", common::stderr(&out));
    let mut checked = 0;
    for ranks in [2, 3] {
        let file = root.join(format!("b63-{ranks}.txt"));
        let args = |rest: &[&'static str]| {
            let mut a = vec![
                "solve".to_string(),
                "--ledger".to_string(),
                file.to_str().unwrap().to_string(),
                "--dir".to_string(),
                tables.to_str().unwrap().to_string(),
                "--mpi".to_string(),
                "--threads".to_string(),
                "1".to_string(),
            ];
            a.extend(rest.iter().map(|s| s.to_string()));
            a
        };
        let first = args(&words(
            "--game bohnenspiel --seeds-per-pit 3 --depth 2 --pieces 4 --json",
        ));
        let out = mpirun(ranks, &first.iter().map(String::as_str).collect::<Vec<_>>());
        let err = common::stderr(&out);
        assert!(out.status.success(), "{ranks} ranks: {err}");
        assert!(err.contains(&format!("worked by {ranks} ranks")), "{err}");
        let s: serde_json::Value = serde_json::from_str(common::stdout(&out).trim()).unwrap();
        assert_eq!(
            s["solved"].as_u64().unwrap() + s["proven"].as_u64().unwrap(),
            4,
            "{s}"
        );

        let rest = args(&["--json"]);
        let out = mpirun(ranks, &rest.iter().map(String::as_str).collect::<Vec<_>>());
        let err = common::stderr(&out);
        assert!(out.status.success(), "{ranks} ranks: {err}");
        assert!(err.contains("no needed piece is left"), "{err}");
        for rank in 0..ranks {
            assert!(
                err.contains(&format!("rank {rank}: ")),
                "rank {rank} proved nothing: {err}"
            );
        }
        let s: serde_json::Value = serde_json::from_str(common::stdout(&out).trim()).unwrap();
        common::assert_ledger_proves_b63(&s);
        // No claim is left behind.
        let text = std::fs::read_to_string(&file).unwrap();
        assert!(!text.contains("| claim "), "{text}");
        checked += 1;
    }
    assert_eq!(checked, 2);
    let _ = std::fs::remove_dir_all(&root);
}
