//! The game record format: any text is read as games or refused with a
//! line and column; what is read writes canonically and reads back the
//! same.
#![no_main]
use libfuzzer_sys::fuzz_target;
use mancala_engine::pgn;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    if let Ok(games) = pgn::parse(text) {
        let written = pgn::write(&games);
        let again = pgn::parse(&written).expect("a written record reads");
        assert_eq!(pgn::write(&again), written);
    }
});
