//! The value of a whole Bosh match, rounds and closed pits included.
//!
//! A round's start is fixed by the pools the last round left and by who
//! starts (rules 4 and 5): with `a` stones in South's pool and `40 - a` in
//! North's, `4 <= a <= 36` (otherwise a player cannot fill a pit and has
//! lost, rule 6). Call `f_s(a)` South's pool at the end of the round from
//! that start under optimal round play (the round's proven value, what the
//! engine optimises, rule 7), `s` the starter.
//!
//! Round-by-round best play gives a line of rounds: `a_1 = 20` with South
//! to start, `a_(i+1) = f_(s_i)(a_i)`, the starter alternating, until a
//! pool falls under 4 (that player has lost) or a round start repeats. The
//! line is the match's value when each player can hold the other to it:
//!
//! - *South can keep at least the line*: in every round of the line, from
//!   any pool `a >= a_i` (same starter), South can end with at least
//!   `a_(i+1)`, i.e. `f_(s_i)(a) >= a_(i+1)`. Playing each round for its
//!   best pool, South then starts every round with at least the line's
//!   pool, whatever North does.
//! - *North can keep South to at most the line*: from any `a <= a_i`,
//!   `f_(s_i)(a) <= a_(i+1)`.
//!
//! If the line ends with North unable to fill a pit, the first condition
//! proves that South wins the match; with South unable, the second proves
//! that North wins; if the round starts repeat, both together prove that
//! neither can force a win (the match never ends). Monotone maps `f_s`
//! satisfy them; they are checked over every round start as they are.
//!
//! [`solve_match`] proves every round start's value, follows the line and
//! checks the conditions its outcome needs. Where one fails, no match value
//! is claimed ([`MatchProof::gap`]).

use crate::values::NoTables;
use crate::{Solver, Stop};
use mancala_rules::Side;
use mancala_rules::{Bosh, BoshMatch};
use mancala_rules::{Move, Position};

/// A round start and its proven value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RoundValue {
    /// South's pool before the refill (`40 -` it is North's).
    pub south_pool: u8,
    /// Who starts the round.
    pub starter: Side,
    /// The round's start position.
    pub start: Position<Bosh>,
    /// South's pool at the end of the round under optimal round play.
    pub final_south_pool: u8,
    /// Every move of the starter that keeps the round's value.
    pub best: Vec<Move>,
    /// Positions the proof visited.
    pub nodes: u64,
}

/// How the match goes under optimal play.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MatchOutcome {
    /// This side wins after `rounds` rounds (the loser cannot fill a pit at
    /// the start of the next).
    Win {
        /// The winner.
        winner: Side,
        /// Rounds played.
        rounds: u32,
    },
    /// The round starts repeat: round `from` starts as round `again` did.
    Endless {
        /// The first round of the cycle (from 1).
        from: u32,
        /// The round that starts the same way again.
        again: u32,
    },
}

/// What [`solve_match`] proved.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MatchProof {
    /// Every round start, South starting (`a = 4..=36`), then North.
    pub rounds: Vec<RoundValue>,
    /// Where a condition the outcome needs fails (module docs), if it
    /// does: the round of the line (from 1) and the pool `a` from which the
    /// round would end past the line's next pool. Then no match value is
    /// claimed.
    pub gap: Option<(u32, u8)>,
    /// The match from round 1 under optimal play: the rounds played.
    pub line: Vec<RoundValue>,
    /// How it ends (meaningful when the maps are monotone).
    pub outcome: MatchOutcome,
}

impl MatchProof {
    /// The round value from South's pool `a` with `starter` to move.
    pub fn round(&self, a: u8, starter: Side) -> Option<&RoundValue> {
        round_of(&self.rounds, a, starter)
    }
}

/// The round of `rounds` from South's pool `a` with `starter` to move.
fn round_of(rounds: &[RoundValue], a: u8, starter: Side) -> Option<&RoundValue> {
    rounds
        .iter()
        .find(|r| r.south_pool == a && r.starter == starter)
}

/// The smallest and largest South pool from which both can fill a pit.
pub const POOLS: std::ops::RangeInclusive<u8> = 4..=36;

/// Proves the value of every round start and of the match (module docs),
/// with `solver`. `None` if `stop` ended it.
pub fn solve_match(solver: &mut Solver<'_, Bosh, NoTables>, stop: &Stop) -> Option<MatchProof> {
    let mut rounds = Vec::new();
    for starter in Side::BOTH {
        for a in POOLS {
            let m = BoshMatch {
                pools: [a, 40 - a],
                rounds_played: starter.index() as u32,
            };
            let start = m.start_round().expect("both pools fill a pit");
            let before = solver.nodes();
            let s = solver.prove(&start).stop(stop).solution().done()?;
            let south_margin = if starter == Side::South {
                s.margin
            } else {
                -s.margin
            };
            rounds.push(RoundValue {
                south_pool: a,
                starter,
                start,
                final_south_pool: ((40 + south_margin) / 2) as u8,
                best: s.best,
                nodes: solver.nodes() - before,
            });
        }
    }
    let f = |a: u8, s: Side| round_of(&rounds, a, s).expect("every start was proven");
    let mut line: Vec<RoundValue> = Vec::new();
    let (mut a, mut s) = (20u8, Side::South);
    let outcome = loop {
        if !POOLS.contains(&a) {
            let winner = if a < *POOLS.start() {
                Side::North
            } else {
                Side::South
            };
            break MatchOutcome::Win {
                winner,
                rounds: line.len() as u32,
            };
        }
        if let Some(i) = line
            .iter()
            .position(|r| r.south_pool == a && r.starter == s)
        {
            break MatchOutcome::Endless {
                from: i as u32 + 1,
                again: line.len() as u32 + 1,
            };
        }
        let r = f(a, s).clone();
        a = r.final_south_pool;
        s = !s;
        line.push(r);
    };
    // South keeps at least the line / North keeps South to at most it.
    let (south_holds, north_holds) = match outcome {
        MatchOutcome::Win { winner, .. } => (winner == Side::South, winner == Side::North),
        MatchOutcome::Endless { .. } => (true, true),
    };
    let mut gap = None;
    for (i, r) in line.iter().enumerate() {
        let next = r.final_south_pool;
        let breaks = POOLS.clone().find(|&a| {
            let end = f(a, r.starter).final_south_pool;
            (south_holds && a >= r.south_pool && end < next)
                || (north_holds && a <= r.south_pool && end > next)
        });
        if let Some(a) = breaks {
            gap = Some((i as u32 + 1, a));
            break;
        }
    }
    Some(MatchProof {
        rounds,
        gap,
        line,
        outcome,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_one_is_the_solved_round_and_the_line_follows_the_values() {
        let mut solver = Solver::new(&NoTables, 64);
        let proof = solve_match(&mut solver, &|_| false).expect("no stop");
        assert_eq!(proof.rounds.len(), 2 * 33);
        let first = &proof.line[0];
        assert_eq!(first.start, Position::<Bosh>::start());
        // The round from the start: South wins by 6, 23 stones to 17.
        assert_eq!(first.final_south_pool, 23);
        assert_eq!(first.best, vec![Move::from_pit(2), Move::from_pit(5)]);
        for pair in proof.line.windows(2) {
            assert_eq!(pair[1].south_pool, pair[0].final_south_pool);
            assert_eq!(pair[1].starter, !pair[0].starter);
        }
        // Every start conserves the stones and refills by the rules.
        for r in &proof.rounds {
            let pools = [r.south_pool, 40 - r.south_pool];
            assert_eq!(
                r.start.board_seeds() + r.start.tallies().iter().map(|&t| t as u32).sum::<u32>(),
                40
            );
            assert_eq!(
                r.start,
                BoshMatch {
                    pools,
                    rounds_played: r.starter.index() as u32
                }
                .start_round()
                .unwrap()
            );
        }
        // The published value (docs/solved.md): round 2 gives back the
        // three stones of round 1, so round 3 starts as round 1 did, and
        // each player can hold the other to that line.
        assert_eq!(proof.outcome, MatchOutcome::Endless { from: 1, again: 3 });
        assert_eq!(proof.line.len(), 2);
        assert_eq!(proof.line[1].final_south_pool, 20);
        assert_eq!(proof.gap, None);
        // A stopped proof says so.
        let mut solver = Solver::new(&NoTables, 1);
        assert!(solve_match(&mut solver, &|p| p.nodes > 10_000).is_none());
    }
}
