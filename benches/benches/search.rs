//! Fixed-depth one-thread search of Bohnenspiel positions (start and
//! middle games from `positions/bench.txt`), fresh table each time.

use criterion::{criterion_group, criterion_main, Criterion};
use mancala_engine::search::{Limits, Search, SearchOptions};
use mancala_engine::tt::TranspositionTable;
use mancala_engine::{with_position, GameId};
use mancala_eval::Evaluator;

fn fixed_depth(c: &mut Criterion) {
    let eval = Evaluator::default();
    let tt = TranspositionTable::new(16);
    let positions: Vec<_> = mancala_benches::bench_positions()
        .into_iter()
        .filter(|p| p.game() == GameId::Bohnenspiel)
        .collect();
    let options = SearchOptions {
        limits: Limits {
            depth: Some(11),
            ..Limits::default()
        },
        ..SearchOptions::default()
    };
    let mut group = c.benchmark_group("search");
    group.sample_size(10);
    group.bench_function("bohnenspiel bench positions depth 11", |b| {
        b.iter(|| {
            let mut nodes = 0;
            for p in &positions {
                tt.clear();
                nodes +=
                    with_position!(p, q => Search::new(q, &eval, &tt).options(options).run(|_| {}))
                        .nodes;
            }
            nodes
        })
    });
    group.finish();
}

criterion_group!(benches, fixed_depth);
criterion_main!(benches);
