//! Ctrl-C as a request to finish early, for the commands that have a
//! result worth keeping: `analyze` stops its search and prints the best
//! result so far, `match` stops starting games and prints the summary of
//! those counted. A second Ctrl-C ends the program at once. Commands that
//! do not [`install`] the handler keep the default: Ctrl-C ends them.

use std::sync::atomic::{AtomicBool, Ordering};

static REQUESTED: AtomicBool = AtomicBool::new(false);

/// The exit status after an interrupt (128 + SIGINT, as a shell reports it).
pub const EXIT_STATUS: u8 = 130;

/// Makes Ctrl-C (SIGINT, and SIGTERM) set the flag; a second one exits
/// with [`EXIT_STATUS`].
pub fn install() -> Result<(), ctrlc::Error> {
    ctrlc::set_handler(|| {
        if REQUESTED.swap(true, Ordering::SeqCst) {
            std::process::exit(EXIT_STATUS as i32);
        }
    })
}

/// The flag itself, to hand to a search as its stop flag.
pub fn flag() -> &'static AtomicBool {
    &REQUESTED
}

/// Whether Ctrl-C was pressed.
pub fn requested() -> bool {
    REQUESTED.load(Ordering::Relaxed)
}

/// The error a command returns after printing what it had when Ctrl-C
/// stopped it: the program then exits with [`EXIT_STATUS`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("interrupted")]
pub struct Interrupted;
