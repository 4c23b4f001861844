//! Openings: the positions a given number of plies from the start, from
//! which `mancala openings` makes the opening files (read with
//! [`mancala_engine::files::parse_openings`]).

use std::collections::HashSet;

use mancala_engine::{Position, Rules, Status};

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
    fn reachable_counts() {
        // One ply: the six first moves give six positions.
        assert_eq!(reachable::<Bohnenspiel>(1).len(), 6);
        assert_eq!(reachable::<Bohnenspiel>(0), vec![Position::start()]);
        // Distinct positions are at most the move sequences (perft 2 = 36).
        let two = reachable::<Bohnenspiel>(2);
        assert!(two.len() <= 36 && two.len() > 6);
    }
}
