//! Evaluation speed: the shipped evaluation (Bohnenspiel's network) and
//! the linear one over positions from seeded random Bohnenspiel play, and
//! the shipped one over the bench positions.

use criterion::{criterion_group, criterion_main, Criterion};
use mancala_engine::search::Evaluate;
use mancala_engine::{with_position, Bohnenspiel, Position};
use mancala_eval::Evaluator;
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use std::hint::black_box;

fn random_bohnenspiel(count: usize) -> Vec<Position<Bohnenspiel>> {
    let mut rng = StdRng::seed_from_u64(1);
    let mut out = Vec::new();
    while out.len() < count {
        let mut pos = Position::<Bohnenspiel>::start();
        for _ in 0..40 {
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            pos = pos.play(moves[rng.random_range(0..moves.len())]);
            out.push(pos);
        }
    }
    out.truncate(count);
    out
}

fn eval(c: &mut Criterion) {
    let eval = Evaluator::default();
    let positions = random_bohnenspiel(1000);
    for (name, e) in [("shipped", &eval), ("linear", &Evaluator::linear())] {
        c.bench_function(&format!("eval bohnenspiel x1000 {name}"), |b| {
            b.iter(|| {
                let mut sum = 0i64;
                for p in &positions {
                    sum += e.evaluate(black_box(p)) as i64;
                }
                sum
            })
        });
    }
    let bench = mancala_benches::bench_positions();
    c.bench_function("eval bench positions", |b| {
        b.iter(|| {
            let mut sum = 0i64;
            for p in &bench {
                sum += with_position!(black_box(p), q => eval.evaluate(q)) as i64;
            }
            sum
        })
    });
}

criterion_group!(benches, eval);
criterion_main!(benches);
