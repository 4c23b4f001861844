//! Move generation and perft speed per game, in nodes per second
//! (`Throughput::Elements`). The targets are for Bohnenspiel from
//! the start: >= 250 M leaves/s bulk-counted, >= 100 M leaves/s with every
//! leaf move made (one core, release build).

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use mancala_benches::middle_games;
use mancala_engine::{perft, with_position, AnyPosition, GameId, LeafCounting, Position, Rules};

/// Generates every legal move with its child, without allocating.
fn generate<R: Rules>(p: &Position<R>) -> u32 {
    let mut n = 0;
    R::generate(p, |_, child| {
        n += 1;
        std::hint::black_box(child);
    });
    n
}

/// Perft depth per game for the start position: around 10-30 M leaves.
fn depth(game: GameId) -> u32 {
    match game {
        GameId::Bohnenspiel | GameId::BohnenspielHemprich => 10,
        GameId::AlManqala => 8,
        GameId::Bosh => 12,
        GameId::DjenonAbe => 9,
        GameId::Kalah | GameId::KalahEmpty | GameId::Oware => 10,
    }
}

fn bench_perft(c: &mut Criterion) {
    let mut group = c.benchmark_group("perft");
    group.sample_size(10);
    for game in GameId::ALL {
        let start = AnyPosition::start(game);
        let d = depth(game);
        for (name, counting) in [
            ("bulk", LeafCounting::Bulk),
            ("play", LeafCounting::PlayEvery),
        ] {
            let leaves = with_position!(start, p => *perft(&p, d, counting).last().unwrap());
            group.throughput(Throughput::Elements(leaves));
            group.bench_with_input(
                BenchmarkId::new(format!("{game}/{name}"), d),
                &start,
                |b, s| b.iter(|| with_position!(s, p => perft(p, d, counting))),
            );
        }
    }
    group.finish();
}

fn bench_movegen(c: &mut Criterion) {
    let mut group = c.benchmark_group("movegen");
    for game in GameId::ALL {
        let positions = middle_games(game);
        // One element = one position whose moves and children are generated.
        group.throughput(Throughput::Elements(positions.len() as u64));
        group.bench_function(game.name(), |b| {
            b.iter(|| {
                let mut n = 0u32;
                for pos in &positions {
                    n += with_position!(pos, p => generate(p));
                }
                n
            })
        });
    }
    group.finish();
}

criterion_group!(benches, bench_perft, bench_movegen);
criterion_main!(benches);
