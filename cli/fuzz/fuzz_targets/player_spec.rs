//! The `--player` grammar: any text gives a spec or a typed error.
#![no_main]
use libfuzzer_sys::fuzz_target;
use mancala_tools::matchplay::spec::PlayerSpec;

fuzz_target!(|data: &[u8]| {
    if let Ok(text) = std::str::from_utf8(data) {
        let _ = PlayerSpec::parse(text);
    }
});
