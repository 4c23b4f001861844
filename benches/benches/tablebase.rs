//! Tablebase benchmarks: probing, solving a puzzle with the tables loaded,
//! and the build rate of a layer.
//!
//! The tables are built in memory up to 12 seeds (about a second), or read
//! from `$MANCALA_TB_DIR` when `MANCALA_BENCH_TB=1` is set, so the
//! large-table figures can be measured with the real files.

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use mancala_engine::files::{self, parse_puzzles};
use mancala_engine::solve::Solver;
use mancala_engine::tablebase::{
    self, build_cluster, build_in_memory, layer_size, random_position, Tablebase, ThreadCluster,
};
use mancala_engine::{AnyPosition, Bohnenspiel, Oware, Position};
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
            random_position(&mut rng, seeds)
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

    // The puzzles whose boards the tables cover, each solved from scratch
    // (a fresh solver: no transposition-table help from the previous one).
    let top = tables.complete_to().unwrap_or(0);
    let puzzles: Vec<Position<Bohnenspiel>> = parse_puzzles(files::PUZZLES)
        .expect("the puzzle file parses")
        .into_iter()
        .filter_map(|p| match p.position {
            AnyPosition::Bohnenspiel(pos) if pos.board_seeds() <= top => Some(pos),
            _ => None,
        })
        .collect();
    let mut g = c.benchmark_group("solve");
    g.throughput(Throughput::Elements(puzzles.len() as u64));
    g.bench_function(
        format!("{} puzzles up to {top} seeds", puzzles.len()),
        |b| {
            b.iter(|| {
                puzzles
                    .iter()
                    .map(|p| Solver::new(&tables, 1).solve(black_box(p)).margin)
                    .sum::<i32>()
            })
        },
    );
    if top >= 24 {
        // A position with 30 seeds on the board: search down to the tables.
        let pos: Position<Bohnenspiel> = "bohnenspiel 5,0,0,4,1,8/0,1,1,1,1,8 S 20-22"
            .parse()
            .unwrap();
        g.sample_size(10);
        g.throughput(Throughput::Elements(1));
        g.bench_function("a 30-seed position (fresh solver, 64 MiB TT)", |b| {
            b.iter(|| Solver::new(&tables, 64).solve(black_box(&pos)).margin)
        });
    }
    g.finish();
}

fn build(c: &mut Criterion) {
    let mut g = c.benchmark_group("tablebase build");
    g.sample_size(10);
    let positions: u64 = (0..=10).step_by(2).map(|s| layer_size(12, s)).sum();
    g.throughput(Throughput::Elements(positions));
    g.bench_function("bohnenspiel layers 0..=10", |b| {
        b.iter(|| build_in_memory::<Bohnenspiel>(10).1.len())
    });
    // Oware's every layer, worked back from settled positions
    // (docs/tablebases.md, "Oware: working back instead of passes").
    g.throughput(Throughput::Elements(
        (0..=12).map(|s| layer_size(12, s)).sum(),
    ));
    g.bench_function("oware layers 0..=12", |b| {
        b.iter(|| build_in_memory::<Oware>(12).1.len())
    });
    g.finish();
}

/// The cluster build (docs/tablebases.md, "On a cluster") with threads as
/// ranks: 1 and 2 ranks, layers 0..=14 written to a scratch directory.
/// (The MPI figures, 2 processes against 1, are in docs/figures.md.)
fn cluster_build(c: &mut Criterion) {
    let mut g = c.benchmark_group("tablebase cluster build");
    g.sample_size(10);
    let positions: u64 = (0..=14).step_by(2).map(|s| layer_size(12, s)).sum();
    g.throughput(Throughput::Elements(positions));
    for ranks in [1, 2] {
        let dir =
            std::env::temp_dir().join(format!("mancala-bench-cluster-{}", std::process::id()));
        g.bench_function(
            format!("bohnenspiel layers 0..=14, {ranks} ranks as threads"),
            |b| {
                b.iter(|| {
                    let _ = std::fs::remove_dir_all(&dir);
                    std::fs::create_dir_all(&dir).unwrap();
                    let members = ThreadCluster::new(ranks);
                    std::thread::scope(|s| {
                        for m in &members {
                            let dir = &dir;
                            s.spawn(move || {
                                build_cluster::<Bohnenspiel>(dir, 14, m, &|_| {})
                                    .unwrap()
                                    .len()
                            });
                        }
                    });
                })
            },
        );
        let _ = std::fs::remove_dir_all(&dir);
    }
    g.finish();
}

criterion_group!(benches, probe, build, cluster_build);
criterion_main!(benches);
