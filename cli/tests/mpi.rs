//! `tablebase build --mpi` under `mpirun` (OpenMPI): 2 and 3 ranks write
//! the same files as one process. Built only with `--features mpi`;
//! `.ci/run` installs OpenMPI and runs it (docs/tablebases.md, "On a
//! cluster").
#![cfg(feature = "mpi")]

mod common;

use std::path::Path;
use std::process::Command;

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
