//! Checking tables against search, and finding puzzles in them.
//!
//! - [`random_position`]: a position drawn uniformly from a layer, either
//!   side to move (for checks and benchmarks);
//! - [`verify`]: random entries of every layer re-proved by the exact
//!   solver, which may read the smaller layers but not the one checked;
//! - [`puzzles`]: Bohnenspiel positions with a single best move that a
//!   shallow search misses, proven by the tables.

use std::time::Instant;

use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

use super::index::layer_size;
use super::probe::{Below, Tablebase};
use super::TablebaseRules;
use mancala_files::Puzzle;
use mancala_rules::Bohnenspiel;
use mancala_rules::Move;
use mancala_rules::Position;
use mancala_rules::Side;
use mancala_rules::Status;
use mancala_solve::values::BoardValues;
use mancala_solve::Solver;

/// A board drawn uniformly from the layer of `seeds` seeds, with either
/// side to move, tallies zero (the tables do not read them).
pub fn random_position<R: TablebaseRules>(rng: &mut impl Rng, seeds: u32) -> Position<R> {
    let r = rng.random_range(0..R::layer_size(seeds));
    let mut pits = 0;
    R::walk(seeds, r, r + 1, |_, p| pits = p);
    if rng.random_bool(0.5) {
        Position::from_key(R::mirror(pits)).with_side_to_move(Side::North)
    } else {
        Position::from_key(pits)
    }
}

/// One layer's check.
#[derive(Clone, Debug, PartialEq)]
pub struct LayerCheck {
    /// The layer.
    pub seeds: u32,
    /// Entries compared with the solver.
    pub checked: u64,
    /// Seconds it took.
    pub seconds: f64,
    /// The entries that disagree: the position, the table's value, the
    /// solver's.
    pub mismatches: Vec<(String, i32, i32)>,
}

/// Checks up to `samples` random entries of every loaded layer (a seeded
/// draw, repeatable) against the exact solver, which sees only the layers
/// below the one checked. `on_layer` sees each layer's result as it is
/// done.
pub fn verify<R: TablebaseRules>(
    tables: &Tablebase<R>,
    samples: u32,
    seed: u64,
    mut on_layer: impl FnMut(&LayerCheck),
) -> Vec<LayerCheck> {
    let mut rng = StdRng::seed_from_u64(seed);
    let mut out = Vec::new();
    for seeds in tables.layer_seeds() {
        let started = Instant::now();
        let below = Below {
            tables,
            limit: seeds,
        };
        let mut solver = Solver::new(&below, 64);
        let mut check = LayerCheck {
            seeds,
            checked: 0,
            seconds: 0.0,
            mismatches: Vec::new(),
        };
        for _ in 0..(samples as u64).min(R::layer_size(seeds)) {
            let pos = random_position::<R>(&mut rng, seeds);
            let table = tables.probe(&pos).expect("the layer is loaded") as i32;
            let searched = solver.value(&pos);
            check.checked += 1;
            if table != searched {
                check.mismatches.push((pos.to_string(), table, searched));
            }
        }
        check.seconds = started.elapsed().as_secs_f64();
        on_layer(&check);
        out.push(check);
    }
    out
}

/// Random positions drawn before [`puzzles`] gives up.
pub const PUZZLE_TRIES: u64 = 50_000_000;

/// Why [`puzzles`] could not make the file asked for.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PuzzleError {
    /// The seed range is not within the tables loaded.
    #[error(
        "seeds must satisfy 4 <= min ({min}) <= max ({max}) <= {complete} (the tables loaded)"
    )]
    Range {
        /// The smallest seed count asked for.
        min: u32,
        /// The largest.
        max: u32,
        /// The tables are complete up to this many seeds.
        complete: u32,
    },
    /// No complete tables at all.
    #[error("no complete tables loaded: build them first")]
    NoTables,
    /// Too few positions qualified.
    #[error("too few interesting positions found in {PUZZLE_TRIES} tries")]
    TooFew,
}

/// Puzzles found, and the random positions drawn to find them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Puzzles {
    /// The puzzles, by seed count.
    pub found: Vec<Puzzle>,
    /// Positions drawn.
    pub tries: u64,
}

/// `count` Bohnenspiel puzzles spread evenly over the even seed counts
/// `min..=max` (`max`: the tables' top by default), drawn with `seed`:
/// South to move, the banked seeds shared equally (so the margin is the
/// board's value), each one interesting (as `puzzle_of` judges).
pub fn puzzles(
    tables: &Tablebase<Bohnenspiel>,
    count: u32,
    min: u32,
    max: Option<u32>,
    seed: u64,
) -> Result<Puzzles, PuzzleError> {
    let complete = tables.complete_to().ok_or(PuzzleError::NoTables)?;
    let max = max.unwrap_or(complete);
    if max > complete || min > max || min < 4 {
        return Err(PuzzleError::Range { min, max, complete });
    }
    let levels: Vec<u32> = (min..=max).filter(|s| s % 2 == 0).collect();
    let mut rng = StdRng::seed_from_u64(seed);
    let mut found = Vec::new();
    let mut tries = 0u64;
    for (i, &seeds) in levels.iter().enumerate() {
        // Spread the puzzles evenly over the seed counts.
        let want = (count as usize * (i + 1)).div_ceil(levels.len()) - found.len();
        let mut got = 0;
        let size = layer_size(12, seeds);
        while got < want {
            tries += 1;
            if tries > PUZZLE_TRIES {
                return Err(PuzzleError::TooFew);
            }
            let r = rng.random_range(0..size);
            let mut pits = 0;
            Bohnenspiel::walk(seeds, r, r + 1, |_, p| pits = p);
            let banked = (72 - seeds) as u8;
            let cells: Vec<Option<u8>> = (0..12).map(|i| Some((pits >> (8 * i)) as u8)).collect();
            let pos = Position::<Bohnenspiel>::from_parts(
                &cells,
                Side::South,
                [banked / 2, banked - banked / 2],
            )
            .expect("72 seeds");
            if let Some(p) = puzzle_of(&pos, tables) {
                found.push(p);
                got += 1;
            }
        }
    }
    Ok(Puzzles { found, tries })
}

/// The header of a puzzle file made by [`puzzles`] with these settings,
/// written to `out` (`None`: standard output, and the check it names reads
/// `FILE`, wherever that text is saved).
pub fn puzzle_header(count: u32, min: u32, max: u32, seed: u64, out: Option<&str>) -> String {
    let (out_arg, file) = match out {
        Some(path) => (format!(" --out {path}"), path),
        None => (String::new(), "FILE"),
    };
    format!(
        "# Bohnenspiel endgame puzzles: POSITION | margin M | best B\n\
         # margin: the final margin for the side to move under optimal play (tallies included);\n\
         # best: the only move that keeps it. Each has at least 3 legal moves and needs depth:\n\
         # a minimax to 3 plies counting banked seeds does not pick the move.\n\
         # Generated and proven by: mancala tablebase puzzles --count {count} --min-seeds {min} \
         --max-seeds {max} --seed {seed}{out_arg}\n\
         # Checked by: mancala solve --check {file}\n"
    )
}

/// `pos` as a puzzle if it is interesting: the game goes on, at least three
/// legal moves, a single move keeps the tables' value, and a 1-, 2- and
/// 3-ply minimax of the banked seeds each rate another move at least as
/// high.
pub fn puzzle_of(pos: &Position<Bohnenspiel>, tables: &Tablebase<Bohnenspiel>) -> Option<Puzzle> {
    let margin = tables.margin(pos)?;
    let children = pos.children();
    if children.len() < 3 {
        return None;
    }
    let mut best = Vec::new();
    for (mv, child) in &children {
        let v = -match child.status() {
            Status::Over(t) => child.margin_of(t),
            Status::Ongoing => tables.margin(child)?,
        };
        if v == margin {
            best.push(*mv);
        }
    }
    let [only] = best[..] else {
        return None;
    };
    for depth in 1..=3 {
        let scores = shallow_scores(pos, depth);
        let top = scores.iter().map(|s| s.1).max()?;
        let mine = scores.iter().find(|s| s.0 == only)?.1;
        let tied = scores.iter().filter(|s| s.1 == top).count();
        if mine == top && tied == 1 {
            return None;
        }
    }
    Some(Puzzle {
        position: (*pos).into(),
        margin,
        best,
    })
}

/// A plain minimax to `depth` plies scoring the seeds banked: the move
/// scores a shallow player would see, ascending by pit.
fn shallow_scores(pos: &Position<Bohnenspiel>, depth: u32) -> Vec<(Move, i32)> {
    fn minimax(pos: &Position<Bohnenspiel>, depth: u32) -> i32 {
        if let Status::Over(t) = pos.status() {
            return pos.margin_of(t);
        }
        if depth == 0 {
            return pos.banked_margin();
        }
        pos.children()
            .iter()
            .map(|(_, c)| -minimax(c, depth - 1))
            .max()
            .unwrap_or(0)
    }
    pos.children()
        .iter()
        .map(|(m, c)| (*m, -minimax(c, depth - 1)))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The header names the file it was written to, in the command that
    /// made it and in the one that checks it.
    #[test]
    fn the_puzzle_header_names_its_own_file() {
        let h = puzzle_header(8, 6, 12, 3, Some("mine.txt"));
        assert!(h.contains("--seed 3 --out mine.txt\n"), "{h}");
        assert!(
            h.contains("# Checked by: mancala solve --check mine.txt\n"),
            "{h}"
        );
        let h = puzzle_header(8, 6, 12, 3, None);
        assert!(!h.contains("--out"), "{h}");
        assert!(
            h.contains("# Checked by: mancala solve --check FILE\n"),
            "{h}"
        );
        assert!(!h.contains("positions/puzzles"), "{h}");
    }
    use crate::build_in_memory;

    #[test]
    fn small_tables_verify_and_give_puzzles_the_solver_agrees_with() {
        let (tables, _) = build_in_memory::<Bohnenspiel>(10);
        let checks = verify(&tables, 200, 1, |_| {});
        assert_eq!(checks.len(), 6);
        assert!(checks.iter().all(|c| c.mismatches.is_empty()), "{checks:?}");
        // Layers 0 and 2 have fewer than 200 boards.
        let checked: u64 = checks.iter().map(|c| c.checked).sum();
        assert!(checked >= 4 * 200, "{checked}");

        let p = puzzles(&tables, 6, 6, None, 3).unwrap();
        assert_eq!(p.found.len(), 6);
        let mut solver = Solver::new(&tables, 4);
        for puzzle in &p.found {
            let mancala_rules::AnyPosition::Bohnenspiel(pos) = puzzle.position else {
                panic!("{puzzle}");
            };
            let s = solver.solve(&pos);
            assert_eq!(
                (s.margin, &s.best),
                (puzzle.margin, &puzzle.best),
                "{puzzle}"
            );
        }
        assert_eq!(
            puzzles(&tables, 6, 6, Some(12), 3).unwrap_err(),
            PuzzleError::Range {
                min: 6,
                max: 12,
                complete: 10
            }
        );
    }
}
