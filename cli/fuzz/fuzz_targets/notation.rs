//! The position notation: any text either fails to parse with an error or
//! gives a position that writes back to a text parsing to itself, whose
//! legal moves all play.
#![no_main]
use libfuzzer_sys::fuzz_target;
use mancala_engine::AnyPosition;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    if let Ok(pos) = text.parse::<AnyPosition>() {
        let again: AnyPosition = pos.to_string().parse().expect("a written position parses");
        assert_eq!(again, pos);
        for &mv in pos.legal_moves().iter() {
            pos.try_play(mv).expect("a legal move plays");
        }
    }
});
