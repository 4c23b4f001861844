//! Bad input: what a user gave that cannot be used, said in one line. A
//! front end reports it as such (the binary: exit status 2), apart from the
//! failures of the machine or the program.

use std::fmt;

/// Bad input from the user: reported on one line, exit status 2.
#[derive(Debug)]
pub struct BadInput(pub String);

impl fmt::Display for BadInput {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for BadInput {}

/// Makes a bad-input error.
pub fn bad(msg: impl Into<String>) -> anyhow::Error {
    BadInput(msg.into()).into()
}

/// Turns any library error into bad input (exit status 2, one line).
pub trait OrBad<T> {
    /// The value, or the error as bad input.
    fn or_bad(self) -> anyhow::Result<T>;
}

impl<T, E: fmt::Display> OrBad<T> for Result<T, E> {
    fn or_bad(self) -> anyhow::Result<T> {
        self.map_err(|e| bad(e.to_string()))
    }
}
