//! An external engine: a child process spoken to over the `mancala engine`
//! line protocol (`isready`/`readyok`, `newgame`, `position … moves …`,
//! `go …`, `info …`, `bestmove M`, `quit`). A crash, a hang past the timeout, or a
//! garbled answer is a [`Fault`]; the process is then killed and started
//! again for the next game.

use std::io::{BufReader, Write};
use std::os::unix::process::CommandExt;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::thread;
use std::time::{Duration, Instant};

use mancala_engine::Move;
use rustix::process::{kill_process_group, Pid, Signal};

use super::player::{Fault, Limits, Player, Reply, Request};
use crate::lines::{lines, Line, MAX_LINE};

/// How often a wait for an engine looks for Ctrl-C.
const INTERRUPT_CHECK: Duration = Duration::from_millis(100);

/// The least time allowed for an engine to start and answer `isready`.
const START_TIMEOUT: Duration = Duration::from_secs(5);

/// Lines read ahead of the runner at most: an engine that floods its
/// output waits for the runner (and is timed out by it) instead of filling
/// memory.
const READ_AHEAD: usize = 256;

struct Running {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<Line>,
}

/// An engine program run as a child process.
pub struct External {
    command: Vec<String>,
    limits: Limits,
    timeout: Duration,
    running: Option<Running>,
}

impl External {
    /// An engine that will be started with `command` (program, arguments)
    /// and asked for moves under `limits`, forfeiting after `timeout`.
    pub fn new(command: Vec<String>, limits: Limits, timeout: Duration) -> Self {
        External {
            command,
            limits,
            timeout,
            running: None,
        }
    }

    fn start(&mut self) -> Result<(), Fault> {
        let mut child = Command::new(&self.command[0])
            .args(&self.command[1..])
            // Its own process group, so that a wrapper script's children
            // end with it.
            .process_group(0)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|e| Fault::Crash(format!("cannot start '{}': {e}", self.command[0])))?;
        let stdin = child.stdin.take().expect("piped");
        let stdout = child.stdout.take().expect("piped");
        let (tx, rx) = mpsc::sync_channel(READ_AHEAD);
        thread::spawn(move || {
            for line in lines(BufReader::new(stdout)) {
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        self.running = Some(Running {
            child,
            stdin,
            lines: rx,
        });
        self.send("isready")?;
        self.wait_for(self.timeout.max(START_TIMEOUT), |line| {
            (line.trim() == "readyok").then_some(Ok(()))
        })
    }

    /// Kills the process (after a fault, or when dropped).
    fn kill(&mut self) {
        if let Some(mut r) = self.running.take() {
            if let Some(group) = i32::try_from(r.child.id()).ok().and_then(Pid::from_raw) {
                let _ = kill_process_group(group, Signal::KILL);
            }
            let _ = r.child.kill();
            let _ = r.child.wait();
        }
    }

    fn crashed(&mut self, what: &str) -> Fault {
        let status = self
            .running
            .as_mut()
            .and_then(|r| {
                // Give an exiting process a moment to be reaped.
                for _ in 0..20 {
                    if let Ok(Some(s)) = r.child.try_wait() {
                        return Some(s);
                    }
                    thread::sleep(Duration::from_millis(5));
                }
                None
            })
            .map_or(String::new(), |s| format!(" ({s})"));
        Fault::Crash(format!("{what}{status}"))
    }

    fn send(&mut self, line: &str) -> Result<(), Fault> {
        let r = self.running.as_mut().expect("started");
        if writeln!(r.stdin, "{line}")
            .and_then(|_| r.stdin.flush())
            .is_err()
        {
            return Err(self.crashed("stopped reading its input"));
        }
        Ok(())
    }

    /// Reads lines until `accept` returns an answer or the time runs out.
    fn wait_for<T>(
        &mut self,
        limit: Duration,
        mut accept: impl FnMut(&str) -> Option<Result<T, Fault>>,
    ) -> Result<T, Fault> {
        let deadline = Instant::now() + limit;
        loop {
            // Checked before every line, so a flood of lines cannot keep the
            // clock from running out.
            let left = deadline.saturating_duration_since(Instant::now());
            if left.is_zero() || crate::interrupt::requested() {
                return Err(Fault::Timeout(limit));
            }
            let r = self.running.as_ref().expect("started");
            match r.lines.recv_timeout(left.min(INTERRUPT_CHECK)) {
                Ok(Line::Text(line)) => {
                    if let Some(answer) = accept(&line) {
                        return answer;
                    }
                }
                Ok(Line::TooLong(bytes)) => {
                    return Err(Fault::Garbled(format!(
                        "a line of {bytes} bytes (at most {MAX_LINE})"
                    )))
                }
                Err(RecvTimeoutError::Timeout) => continue,
                Err(RecvTimeoutError::Disconnected) => {
                    return Err(self.crashed("exited"));
                }
            }
        }
    }

    /// `go` with every limit given (`go depth D movetime MS nodes N`).
    fn go_command(&self) -> String {
        let mut go = String::from("go");
        if let Some(d) = self.limits.depth {
            go.push_str(&format!(" depth {d}"));
        }
        if let Some(t) = self.limits.time {
            go.push_str(&format!(" movetime {}", t.as_millis().max(1)));
        }
        if let Some(n) = self.limits.nodes {
            go.push_str(&format!(" nodes {n}"));
        }
        go
    }

    /// `newgame` (the engine forgets what it learnt), then waits until the
    /// engine is ready again.
    fn new_game_sync(&mut self) -> Result<(), Fault> {
        self.send("newgame")?;
        self.send("isready")?;
        self.wait_for(self.timeout.max(START_TIMEOUT), |line| {
            (line.trim() == "readyok").then_some(Ok(()))
        })
    }

    fn ask(&mut self, request: &Request) -> Result<Reply, Fault> {
        let mut position = format!("position {}", request.start);
        if !request.moves.is_empty() {
            position.push_str(" moves");
            for mv in request.moves {
                position.push_str(&format!(" {}", mv.pit()));
            }
        }
        self.send(&position)?;
        let go = self.go_command();
        self.send(&go)?;
        let (mut score, mut exact) = (None, false);
        self.wait_for(self.timeout, |line| {
            let mut words = line.split_whitespace();
            match words.next() {
                Some("info") => {
                    let words: Vec<&str> = words.collect();
                    // `score S` in seeds, possibly fractional (`1.25`).
                    // `score S exact` when proven.
                    if let Some(i) = words.iter().position(|w| *w == "score") {
                        let given = words
                            .get(i + 1)
                            .and_then(|s| s.parse::<f64>().ok())
                            .filter(|s| s.is_finite() && s.abs() < 1e6);
                        if given.is_some() {
                            score = given;
                            exact = words.get(i + 2) == Some(&"exact");
                        }
                    }
                    None
                }
                Some("bestmove") => Some(match words.next().map(str::parse::<u8>) {
                    Some(Ok(pit)) => Ok(Reply {
                        mv: Move::from_pit(pit),
                        score,
                        exact,
                        proven: false,
                    }),
                    _ => Err(Fault::Garbled(line.trim().to_string())),
                }),
                // Other lines (greetings, debugging output) are ignored.
                _ => None,
            }
        })
    }
}

impl Player for External {
    fn new_game(&mut self, _seed: u64) -> Result<(), Fault> {
        let ready = if self.running.is_none() {
            self.start()
        } else {
            self.new_game_sync()
        };
        if ready.is_err() {
            self.kill();
        }
        ready
    }

    fn choose(&mut self, request: &Request) -> Result<Reply, Fault> {
        if self.running.is_none() {
            let started = self.start();
            if started.is_err() {
                self.kill();
            }
            started?;
        }
        let reply = self.ask(request);
        if reply.is_err() {
            // Whatever state it is in, start it afresh for the next game.
            self.kill();
        }
        reply
    }

    fn reset(&mut self) {
        self.kill();
    }
}

impl Drop for External {
    fn drop(&mut self) {
        if self.running.is_some() {
            let _ = self.send("quit");
            if let Some(r) = self.running.as_mut() {
                for _ in 0..20 {
                    if let Ok(Some(_)) = r.child.try_wait() {
                        break;
                    }
                    thread::sleep(Duration::from_millis(5));
                }
            }
            // Whether or not it quit, what it started goes with it.
            self.kill();
        }
    }
}
