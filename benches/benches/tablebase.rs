//! Tablebase benchmarks: probing, solving a puzzle with the tables loaded,
//! and the build rate of a layer.
//!
//! The tables are built in memory up to 12 seeds (about a second), or read
//! from `$MANCALA_TB_DIR` when `MANCALA_BENCH_TB=1` is set, so the
//! large-table figures can be measured with the real files.

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use mancala_engine::solve::Solver;
use mancala_engine::tablebase::{self, build_in_memory, layer_size, Tablebase, TablebaseRules};
use mancala_engine::{Bohnenspiel, Position, Side};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

fn tables() -> Tablebase<Bohnenspiel> {
    if std::env::var_os("MANCALA_BENCH_TB").is_some() {
        let (t, refused) = Tablebase::open(&tablebase::default_dir());
        assert!(refused.is_empty(), "{refused:?}");
        t
    } else {
        build_in_memory::<Bohnenspiel>(12).0
    }
}

/// Random positions from the loaded layers, either side to move.
fn sample(tables: &Tablebase<Bohnenspiel>, n: usize) -> Vec<Position<Bohnenspiel>> {
    let mut rng = StdRng::seed_from_u64(7);
    let layers = tables.layer_seeds();
    (0..n)
        .map(|_| {
            let seeds = layers[rng.random_range(0..layers.len())];
            let r = rng.random_range(0..layer_size(12, seeds));
            let mut pits = 0;
            Bohnenspiel::walk(seeds, r, r + 1, |_, p| pits = p);
            let side = if rng.random_bool(0.5) {
                Side::North
            } else {
                Side::South
            };
            Position::from_key(pits).with_side_to_move(side)
        })
        .collect()
}

fn probe(c: &mut Criterion) {
    let tables = tables();
    let positions = sample(&tables, 4096);
    let mut g = c.benchmark_group("tablebase");
    g.throughput(Throughput::Elements(positions.len() as u64));
    g.bench_function("probe 4096 random positions", |b| {
        b.iter(|| {
            let mut sum = 0i32;
            for p in &positions {
                sum += tables.probe(black_box(p)).unwrap_or(0) as i32;
            }
            sum
        })
    });
    g.finish();

    let puzzle: Position<Bohnenspiel> = "bohnenspiel 2,0,1,3,0,2/1,0,2,1,0,0 S 30-30"
        .parse()
        .unwrap();
    c.bench_function(
        "solve a 12-seed puzzle with tables (fresh solver, 1 MiB TT)",
        |b| b.iter(|| Solver::new(&tables, 1).solve(black_box(&puzzle)).margin),
    );
}

fn build(c: &mut Criterion) {
    let mut g = c.benchmark_group("tablebase build");
    g.sample_size(10);
    let positions: u64 = (0..=10).step_by(2).map(|s| layer_size(12, s)).sum();
    g.throughput(Throughput::Elements(positions));
    g.bench_function("bohnenspiel layers 0..=10", |b| {
        b.iter(|| build_in_memory::<Bohnenspiel>(10).1.len())
    });
    g.finish();
}

criterion_group!(benches, probe, build);
criterion_main!(benches);
