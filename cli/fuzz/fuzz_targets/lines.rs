//! The line reader of pipes and engines: any bytes give lines of at most
//! MAX_LINE bytes, and every byte is accounted for.
#![no_main]
use libfuzzer_sys::fuzz_target;
use mancala_tools::lines::{lines, Line, MAX_LINE};

fuzz_target!(|data: &[u8]| {
    let mut count = 0;
    for line in lines(data) {
        if let Line::Text(text) = line {
            assert!(text.len() <= 3 * MAX_LINE);
            assert!(!text.contains('\n'));
        }
        count += 1;
    }
    assert!(count <= data.len() + 1);
});
