//! Knuth's estimator of the size of a book's walk (docs/solved.md, "The
//! Djenon-abe book"): random descents from the Djenon-abe start, the
//! opponent playing a random legal move and the engine the runtime
//! solver's (its first legal move where the runtime solver gives up); each
//! descent weighs the engine positions it meets by the product of the
//! opponent's branching above them. The mean over the descents estimates
//! the engine positions of the walk's tree, before transpositions are
//! merged, in all and above each seed count.
//!
//! `cargo run --release -p mancala-engine --example book_walk_estimate -- PROBES S|N [K]`
//! (K: the runtime solver reads the tables to K seeds, as `book build --tables K`).

use mancala_engine::book::{runtime_move, valid_table_seeds, PlayTables, RUNTIME};
use mancala_engine::{DjenonAbe, Position, Side, Status};
use rand::Rng;

const ABOVE: [u32; 7] = [8, 12, 16, 20, 24, 28, 32];

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let usage = "usage: book_walk_estimate PROBES S|N [K]";
    let (Some(probes), Some(engine)) = (
        args.first()
            .and_then(|p| p.parse::<u32>().ok())
            .filter(|&p| p > 0),
        args.get(1).and_then(|s| match s.as_str() {
            "S" => Some(Side::South),
            "N" => Some(Side::North),
            _ => None,
        }),
    ) else {
        eprintln!("{usage}");
        std::process::exit(2);
    };
    let k = match args.get(2).map(|k| k.parse::<u32>()) {
        None => None,
        Some(Ok(k)) if valid_table_seeds(k) => Some(k),
        Some(_) => {
            eprintln!("{usage} (K: an even number from 2 to 20)");
            std::process::exit(2);
        }
    };
    let tables = PlayTables::build::<DjenonAbe>(k);
    let tables = &tables.below::<DjenonAbe>();
    // Djenon-abe from the start: North wins by 2.
    let target = if engine == Side::South { -2 } else { 2 };
    let mut rng = rand::rng();
    let (mut sum, mut sum_sq, mut plies) = (0f64, 0f64, 0u64);
    let mut above = [0f64; ABOVE.len()];
    for _ in 0..probes {
        let mut pos = Position::<DjenonAbe>::start();
        let (mut weight, mut estimate) = (1f64, 0f64);
        while pos.status() == Status::Ongoing {
            plies += 1;
            let moves = pos.legal_moves();
            let moves = moves.as_slice();
            if pos.side_to_move() == engine {
                estimate += weight;
                for (a, &seeds) in above.iter_mut().zip(&ABOVE) {
                    if pos.board_seeds() > seeds {
                        *a += weight;
                    }
                }
                let mv = runtime_move(&[], &pos, Some(target), RUNTIME, tables, &|_| false)
                    .map_or(moves[0], |(mv, _)| mv);
                pos = pos.play_unchecked(mv);
            } else {
                weight *= moves.len() as f64;
                pos = pos.play_unchecked(moves[rng.random_range(0..moves.len())]);
            }
        }
        sum += estimate;
        sum_sq += estimate * estimate;
    }
    let n = probes as f64;
    let mean = sum / n;
    let error = ((sum_sq / n - mean * mean).max(0.0) / n).sqrt();
    println!(
        "engine positions in the walk's tree: {mean:.3e} ± {error:.1e} (one standard error); {:.0} plies a game",
        plies as f64 / n
    );
    for (a, seeds) in above.iter().zip(ABOVE) {
        println!("  above {seeds:>2} seeds: {:.3e}", a / n);
    }
}
