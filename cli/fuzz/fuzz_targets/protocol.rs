//! The `engine` protocol's `position` and `go` commands: any words give a
//! value or a typed error, never a panic.
#![no_main]
use libfuzzer_sys::fuzz_target;
use mancala_tools::protocol::{parse_go, parse_position};

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    for line in text.lines() {
        let words: Vec<&str> = line.split_whitespace().collect();
        let _ = parse_position(&words);
        let _ = parse_go(&words);
    }
});
