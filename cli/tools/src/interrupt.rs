//! Ctrl-C (SIGINT), SIGTERM and SIGHUP as a request to finish early, for
//! the commands that have a result worth keeping: `analyze` stops its
//! search and prints the best result so far, `review` prints the moves it
//! reviewed, `solve` writes its checkpoint and the bounds it proved, a
//! ledger keeps the bounds of the piece in flight, `match` stops starting
//! games and prints the summary of those counted, `book build` saves the
//! entries it proved. The binary's `main` installs the handler for those
//! commands, once, before they start. The program then exits with 128 +
//! the signal's number (130, 143, 129), as a shell reports a process the
//! signal ended. A second signal ends the program at once. Commands that
//! do not [`install`] the handler keep the default: the signal ends them;
//! a table build uses [`install_ending`].

use std::sync::atomic::{AtomicBool, AtomicI32, Ordering};

use signal_hook::consts::{SIGHUP, SIGINT, SIGTERM};
use signal_hook::iterator::Signals;

static REQUESTED: AtomicBool = AtomicBool::new(false);
/// The first signal that came (0: none).
static SIGNAL: AtomicI32 = AtomicI32::new(0);

/// The exit status after an interrupt by `signal`: 128 + its number.
fn status_of(signal: i32) -> u8 {
    u8::try_from(128 + signal).unwrap_or(130)
}

/// The exit status after the interrupt that came: 128 + the signal's
/// number (130 for Ctrl-C, 143 for SIGTERM, 129 for SIGHUP).
pub fn exit_status() -> u8 {
    match SIGNAL.load(Ordering::SeqCst) {
        0 => status_of(SIGINT),
        s => status_of(s),
    }
}

/// Makes SIGINT, SIGTERM and SIGHUP set the flag (a thread waits for
/// them); a second one exits at once with its status. Installed once,
/// however often it is called (or [`install_ending`]).
pub fn install() -> std::io::Result<()> {
    listen(None)
}

/// For a command that cannot stop part-way but loses nothing when it is
/// ended (a table build: every finished layer is a file written
/// atomically, and a build resumes from them): the first signal prints
/// `mancala: interrupted; {what}` on stderr and ends the program with
/// [`exit_status`], as the other commands end after an interrupt.
pub fn install_ending(what: &'static str) -> std::io::Result<()> {
    listen(Some(what))
}

/// The signal thread: sets the flag, or with `ending` says so and exits.
fn listen(ending: Option<&'static str>) -> std::io::Result<()> {
    static INSTALLED: AtomicBool = AtomicBool::new(false);
    if INSTALLED.swap(true, Ordering::SeqCst) {
        return Ok(());
    }
    let mut signals = Signals::new([SIGINT, SIGTERM, SIGHUP])?;
    std::thread::Builder::new()
        .name("signals".into())
        .spawn(move || {
            for signal in signals.forever() {
                if let Some(what) = ending {
                    use std::io::Write;
                    let line = format!("\nmancala: interrupted; {what}\n");
                    let _ = std::io::stderr().write_all(line.as_bytes());
                    std::process::exit(status_of(signal) as i32);
                }
                if REQUESTED.load(Ordering::SeqCst) {
                    std::process::exit(status_of(signal) as i32);
                }
                SIGNAL.store(signal, Ordering::SeqCst);
                REQUESTED.store(true, Ordering::SeqCst);
            }
        })?;
    Ok(())
}

/// The flag itself, to hand to a search as its stop flag.
pub fn flag() -> &'static AtomicBool {
    &REQUESTED
}

/// Whether a signal asked to finish.
pub fn requested() -> bool {
    REQUESTED.load(Ordering::Relaxed)
}

/// The error a command returns after printing what it had when a signal
/// stopped it: the program then exits with [`exit_status`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("interrupted")]
pub struct Interrupted;
