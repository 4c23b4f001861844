//! Openings: the positions a given number of plies from the start, from
//! which `mancala openings` makes the opening files (read with
//! [`mancala_engine::files::parse_openings`]).

use std::collections::HashSet;

use mancala_engine::search::{self, SearchOptions};
use mancala_engine::{with_rules, AnyPosition, GameId, Position, Rules, Status};
use mancala_eval::Evaluator;

use super::builtin::BuiltinPlayer;

/// Which of the reachable positions an opening file keeps.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Filter {
    /// The largest difference of the banked seeds kept.
    pub max_imbalance: u32,
    /// With a search to this depth, the largest score (seeds, either way)
    /// kept; a position proven won or lost is dropped too.
    pub search: Option<(u32, f64)>,
}

/// The positions `plies` moves from the start of `game` that pass
/// `filter`, in the order of [`reachable`], and how many there were before
/// the filter.
pub fn select(game: GameId, plies: u32, filter: &Filter) -> (usize, Vec<AnyPosition>) {
    with_rules!(game, R => select_of::<R>(plies, filter))
}

fn select_of<R: Rules>(plies: u32, filter: &Filter) -> (usize, Vec<AnyPosition>) {
    let all = reachable::<R>(plies);
    let total = all.len();
    let engine = filter.search.map(|(depth, _)| {
        BuiltinPlayer::new(
            Evaluator::default(),
            16,
            SearchOptions {
                limits: search::Limits {
                    depth: Some(depth.max(1)),
                    ..Default::default()
                },
                ..Default::default()
            },
        )
    });
    let kept = all
        .into_iter()
        .filter(|p| {
            let [s, n] = p.tallies();
            (s as i32 - n as i32).unsigned_abs() <= filter.max_imbalance
        })
        .filter(|p| {
            let (Some(engine), Some((_, max_score))) = (&engine, filter.search) else {
                return true;
            };
            let report = engine.think(*p, &[], |_| {});
            let proven_decisive = report.exact && report.score != 0;
            search::seeds(report.score).abs() <= max_score && !proven_decisive
        })
        .map(AnyPosition::from)
        .collect();
    (total, kept)
}

/// Every distinct position reached after exactly `plies` moves from the
/// start in which the game is still on, in the order a depth-first walk
/// (moves ascending) first meets them.
pub fn reachable<R: Rules>(plies: u32) -> Vec<Position<R>> {
    fn walk<R: Rules>(
        pos: Position<R>,
        left: u32,
        seen: &mut HashSet<u128>,
        out: &mut Vec<Position<R>>,
    ) {
        if left == 0 {
            if pos.status() == Status::Ongoing && seen.insert(pos.key()) {
                out.push(pos);
            }
            return;
        }
        R::generate(&pos, |_, child| walk(child, left - 1, seen, out));
    }
    let mut out = Vec::new();
    walk(Position::<R>::start(), plies, &mut HashSet::new(), &mut out);
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use mancala_engine::Bohnenspiel;

    #[test]
    fn shipped_files_have_no_duplicates() {
        use mancala_engine::files::{parse_openings, shipped_openings};
        use mancala_engine::GameId;
        use std::collections::HashSet;
        for game in GameId::ALL {
            let openings = parse_openings(shipped_openings(game), game).unwrap();
            let distinct: HashSet<_> = openings.iter().collect();
            assert_eq!(distinct.len(), openings.len(), "{game} has duplicates");
        }
    }

    #[test]
    fn the_filter_drops_unbalanced_and_decided_positions() {
        let open = Filter {
            max_imbalance: 100,
            search: None,
        };
        // 206 positions 3 plies deep, 198 with the banked seeds equal.
        let (total, all) = select(GameId::Bohnenspiel, 3, &open);
        assert_eq!((all.len(), total), (206, 206));
        let even = Filter {
            max_imbalance: 0,
            ..open
        };
        let (_, balanced) = select(GameId::Bohnenspiel, 3, &even);
        assert_eq!(balanced.len(), 198);
        assert!(balanced.iter().all(|p| p.tallies()[0] == p.tallies()[1]));
        let searched = Filter {
            search: Some((2, 0.5)),
            ..open
        };
        let (_, close) = select(GameId::Bohnenspiel, 2, &searched);
        assert!(
            !close.is_empty() && close.len() < all.len(),
            "{}",
            close.len()
        );
    }

    #[test]
    fn reachable_counts() {
        // One ply: the six first moves give six positions.
        assert_eq!(reachable::<Bohnenspiel>(1).len(), 6);
        assert_eq!(reachable::<Bohnenspiel>(0), vec![Position::start()]);
        // Distinct positions are at most the move sequences (perft 2 = 36).
        let two = reachable::<Bohnenspiel>(2);
        assert!(two.len() <= 36 && two.len() > 6);
    }
}
