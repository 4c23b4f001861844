//! Running the `mancala` binary from the CLI tests, as scripts do: one
//! helper for every test file (each uses what it needs).
#![allow(dead_code)]

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

/// A run of the binary: arguments, optional standard input and
/// environment.
pub struct Run {
    command: Command,
    input: Option<Vec<u8>>,
}

/// The binary as a [`Command`], with no table directory unless one is
/// given (so a `./tablebases` of the developer's is never read).
pub fn command() -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_mancala"));
    command.env("MANCALA_TB_DIR", "/nonexistent-mancala-tables");
    command
}

/// The binary with `args` (see [`command`]).
pub fn run(args: &[&str]) -> Run {
    let mut command = command();
    command.args(args);
    Run {
        command,
        input: None,
    }
}

impl Run {
    /// Reads the tables in `dir`.
    pub fn tables(mut self, dir: &Path) -> Self {
        self.command.env("MANCALA_TB_DIR", dir);
        self
    }

    /// Feeds `input` on standard input.
    pub fn input(self, input: &str) -> Self {
        self.input_bytes(input.as_bytes())
    }

    /// Feeds `bytes` on standard input.
    pub fn input_bytes(mut self, bytes: &[u8]) -> Self {
        self.input = Some(bytes.to_vec());
        self
    }

    /// Runs it to the end.
    pub fn output(mut self) -> Output {
        let Some(input) = self.input else {
            return self.command.output().expect("the binary runs");
        };
        let mut child = self
            .command
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("the binary runs");
        // The program may exit before reading (bad options): ignore a
        // broken pipe.
        let _ = child.stdin.take().expect("piped").write_all(&input);
        child.wait_with_output().expect("the binary ends")
    }
}

/// Runs the binary with `args`.
pub fn mancala(args: &[&str]) -> Output {
    run(args).output()
}

/// Standard output as text.
pub fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

/// Standard error as text.
pub fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// Exit status, standard output and standard error.
pub fn parts(o: &Output) -> (i32, String, String) {
    (code(o), stdout(o), stderr(o))
}

/// The exit status (`-1` for a signal).
pub fn code(o: &Output) -> i32 {
    o.status.code().unwrap_or(-1)
}

/// Bad input: exit status 2, exactly one line on stderr, no panic.
pub fn assert_bad_input(o: &Output, mentions: &[&str]) {
    let err = stderr(o);
    assert_eq!(o.status.code(), Some(2), "stderr: {err}");
    assert_eq!(err.lines().count(), 1, "one line: {err:?}");
    assert!(!err.contains("panicked"), "{err}");
    for m in mentions {
        assert!(err.contains(m), "{err:?} should mention {m:?}");
    }
}

/// `mancala match --game GAME -p A -p B` and `rest`.
pub fn match_of(game: &str, players: [&str; 2], rest: &[&str]) -> Output {
    let mut args = vec!["match", "--game", game, "-p", players[0], "-p", players[1]];
    args.extend_from_slice(rest);
    mancala(&args)
}

/// The player spec of `tests/broken_engine.sh` in `mode` (`extra`: more
/// settings, each starting with a comma).
pub fn broken(mode: &str, extra: &str) -> String {
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/broken_engine.sh");
    format!("cmd=sh {script} {mode},depth=1,name={mode}{extra}")
}

/// `mancala tablebase build --game bohnenspiel --max-seeds SEEDS --dir DIR`,
/// ready to run or spawn.
pub fn bohnenspiel_tables(dir: &Path, seeds: u32) -> Command {
    let mut c = command();
    c.args(["tablebase", "build", "--game", "bohnenspiel", "--max-seeds"])
        .arg(seeds.to_string())
        .arg("--dir")
        .arg(dir);
    c
}

/// The end of a proof of Bohnenspiel(6,3) through a ledger (`solve
/// --ledger --json`'s standing): the draw, from pieces solved once and
/// proven twice, no conflict, and the best first moves (those whose lower
/// bound reaches the draw) among `solve`'s 2 and 6.
pub fn assert_ledger_proves_b63(s: &serde_json::Value) {
    assert_eq!(s["value_proven"], serde_json::json!([0, 0]), "{s}");
    assert_eq!(s["value_solved"], serde_json::json!([0, 0]), "{s}");
    assert_eq!(s["conflict"], 0, "{s}");
    assert!(s["proven"].as_u64().unwrap() >= 1, "{s}");
    let best: Vec<u64> = s["moves"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|m| m["lower"] == 0)
        .map(|m| m["move"].as_u64().unwrap())
        .collect();
    assert!(
        !best.is_empty() && best.iter().all(|m| [2, 6].contains(m)),
        "{best:?}"
    );
}

/// A FIFO made at `path` (replacing what was there).
pub fn fifo(path: &Path) {
    let _ = std::fs::remove_file(path);
    assert!(Command::new("mkfifo")
        .arg(path)
        .status()
        .expect("mkfifo runs")
        .success());
}

/// `mancala serve ARGS` in a process of its own, and the address it
/// printed (`http://…/`, with `?token=…` beyond loopback).
pub fn serve_process(args: &[&str]) -> (std::process::Child, String) {
    use std::io::{BufRead, BufReader};
    let mut child = command()
        .arg("serve")
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("mancala serve starts");
    let mut line = String::new();
    BufReader::new(child.stdout.take().expect("piped"))
        .read_line(&mut line)
        .expect("a first line");
    let url = line
        .split_whitespace()
        .find(|w| w.starts_with("http://"))
        .unwrap_or_else(|| panic!("an address: {line}"))
        .to_string();
    (child, url)
}

/// A path for a scratch file of test `group`, in a directory of this test
/// process.
pub fn temp(group: &str, name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("mancala-{group}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a scratch directory");
    dir.join(name)
}
pub mod http;

/// Runs the binary with `args`, waits until `ready()` holds (checked every
/// 50 ms, at most 60 s; it must), sends `signal`, and returns the output.
pub fn signalled(
    args: &[&str],
    ready: impl Fn() -> bool,
    signal: rustix::process::Signal,
) -> Output {
    let child = command()
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary runs");
    let mut waited = 0;
    while !ready() {
        assert!(waited < 1200, "not ready after 60 s: {args:?}");
        std::thread::sleep(std::time::Duration::from_millis(50));
        waited += 1;
    }
    rustix::process::kill_process(rustix::process::Pid::from_child(&child), signal)
        .expect("the signal is sent");
    child.wait_with_output().expect("the binary ends")
}

/// The arguments in `text`, split at white space (for argument lists of
/// plain words, written as a command line would be).
pub fn words(text: &str) -> Vec<&str> {
    text.split_whitespace().collect()
}

/// An argument list written as a command line would be: each string
/// literal split at white space by [`words`], every other expression one argument as it
/// is (a path, a position with spaces in parentheses):
/// `argv!["solve --checkpoint", path, "--json"]`.
#[allow(unused_macros)] // not every test file writes argument lists
macro_rules! argv {
    (@push $v:ident;) => {};
    (@push $v:ident; $words:literal $(, $($rest:tt)*)?) => {
        $v.extend(crate::common::words($words));
        argv!(@push $v; $($($rest)*)?);
    };
    (@push $v:ident; $arg:expr $(, $($rest:tt)*)?) => {
        $v.push($arg);
        argv!(@push $v; $($($rest)*)?);
    };
    ($($parts:tt)*) => {{
        let mut v: Vec<&str> = Vec::new();
        argv!(@push v; $($parts)*);
        v
    }};
}

/// Asserts that the run succeeded, showing its stderr if not.
pub fn assert_success(o: &Output) {
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
}
