//! Every grammar a user or another program feeds the tools, under
//! arbitrary input: a value or a typed error, never a panic (the stable
//! counterpart of the fuzz targets in `cli/fuzz`, which run in CI too).

use mancala_engine::tablebase::{check_header, layer_size};
use mancala_engine::{AnyPosition, GameId};
use mancala_tools::lines::{lines, Line, MAX_LINE};
use mancala_tools::matchplay::spec::PlayerSpec;
use mancala_tools::protocol::{parse_go, parse_position};
use proptest::prelude::*;

/// Words the grammars know, so that random input gets past the first one.
fn wordy() -> impl Strategy<Value = String> {
    let words = prop::sample::select(vec![
        "position",
        "moves",
        "go",
        "depth",
        "movetime",
        "nodes",
        "infinite",
        "bohnenspiel",
        "bosh",
        "djenon-abe",
        "al-manqala",
        "6,6,6,6,6,6/6,6,6,6,6,6",
        "4,4,4,4,4/x,4,4,4,4",
        "S",
        "N",
        "0-0",
        "3",
        "0",
        "99",
        "-1",
        "1e300",
        "time=",
        "depth=",
        "hash=",
        "threads=",
        "cmd=",
        "random",
        "greedy",
        ",",
        "=",
        "name=x",
        "timeout=",
        "55555555555555555555",
    ]);
    prop::collection::vec(prop_oneof![words.prop_map(str::to_string), ".{0,8}"], 0..10)
        .prop_map(|w| w.join(" "))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn positions_parse_or_fail_cleanly(text in prop_oneof![wordy(), ".{0,60}"]) {
        if let Ok(pos) = text.parse::<AnyPosition>() {
            prop_assert_eq!(pos.to_string().parse::<AnyPosition>().unwrap(), pos);
        }
    }

    #[test]
    fn protocol_commands_parse_or_fail_cleanly(text in wordy()) {
        let words: Vec<&str> = text.split_whitespace().collect();
        let _ = parse_position(&words);
        let _ = parse_go(&words);
    }

    #[test]
    fn player_specs_parse_or_fail_cleanly(text in prop_oneof![wordy(), "[a-z=,0-9.e]{0,40}"]) {
        let spec = text.replace(' ', ",");
        let _ = PlayerSpec::parse(&spec);
    }

    #[test]
    fn table_headers_are_accepted_or_refused(bytes in prop::collection::vec(any::<u8>(), 0..200), seeds in 0u32..13) {
        let entries = layer_size(12, 2 * seeds);
        let _ = check_header(&bytes, GameId::Bohnenspiel, 12, 2 * seeds, entries, bytes.len() as u64);
    }

    #[test]
    fn records_read_or_fail_with_a_place(text in prop_oneof![
        ".{0,80}",
        wordy().prop_map(|w| format!("[Game \"bohnenspiel\"]\n{w} *")),
        "[0-9 .!?{}*-]{0,60}".prop_map(|w| format!("[Game \"bosh\"]\n1. {w}")),
    ]) {
        match mancala_engine::pgn::parse(&text) {
            Ok(games) => {
                let written = mancala_engine::pgn::write(&games);
                let again = mancala_engine::pgn::parse(&written).unwrap();
                prop_assert_eq!(mancala_engine::pgn::write(&again), written);
            }
            Err(e) => prop_assert!(e.line >= 1 && e.column >= 1),
        }
    }

    #[test]
    fn lines_are_bounded_whatever_the_bytes(bytes in prop::collection::vec(any::<u8>(), 0..2000)) {
        for line in lines(&bytes[..]) {
            if let Line::Text(t) = line {
                prop_assert!(t.len() <= 3 * MAX_LINE && !t.contains('\n'));
            }
        }
    }
}

/// The inputs the fuzz targets found, kept as cases.
#[test]
fn fuzz_findings_stay_fixed() {
    // player_spec: a time beyond Duration's range panicked.
    assert!(PlayerSpec::parse("time=55555555555555555555555555555555555").is_err());
    assert!(PlayerSpec::parse("cmd=x,time=1e300s").is_err());
}
