//! A table file's header: any bytes are accepted as the header of the
//! layer asked for or refused with a reason, never a panic.
#![no_main]
use libfuzzer_sys::fuzz_target;
use mancala_engine::tablebase::{check_header, layer_size};
use mancala_engine::GameId;

fuzz_target!(|data: &[u8]| {
    let seeds = data.first().map_or(0, |b| (b % 13) as u32 * 2);
    let entries = layer_size(12, seeds);
    let _ = check_header(data, GameId::Bohnenspiel, 12, seeds, entries, data.len() as u64);
    let _ = check_header(data, GameId::DjenonAbe, 12, seeds, entries, 64 + entries);
    // Kalah has odd layers too.
    let odd = seeds + 1;
    let _ = check_header(data, GameId::Kalah, 12, odd, layer_size(12, odd), data.len() as u64);
});
