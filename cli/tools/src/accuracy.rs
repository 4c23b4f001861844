//! Accuracy against perfect play: positions from real games, each with the
//! exact value of every legal move ([`grade`], proven once with the solver
//! and the tables, stored in `positions/accuracy/`), and the engine under
//! test graded on them ([`run`]): the share of its moves that keep the
//! game-theoretic value, the seeds it loses on average, the proven wins and
//! draws it throws away, and the worst cases.

use std::time::Duration;

use mancala_engine::files::Graded;
use mancala_engine::pgn::WrittenGame;
use mancala_engine::search::{Limits, Search, SearchOptions};
use mancala_engine::solve::Solver;
use mancala_engine::tablebase::{BoardValues, NoTables, TableSet};
use mancala_engine::tt::TranspositionTable;
use mancala_engine::{with_position, AnyPosition, GameRecord, Move, Position, Rules, Status};
use mancala_eval::Evaluator;

/// Which positions of the games are taken.
#[derive(Clone, Copy, Debug)]
pub struct Sampling {
    /// Fewest seeds on the board.
    pub min_seeds: u32,
    /// Most seeds on the board.
    pub max_seeds: u32,
    /// Positions taken from each game (evenly spread over its eligible
    /// positions).
    pub per_game: usize,
}

/// The positions of `games` with `min_seeds..=max_seeds` seeds on the
/// board and at least two legal moves, `per_game` of them from every game
/// (fewer if it has fewer), spread evenly; no position twice.
pub fn sample(
    games: &[WrittenGame],
    s: Sampling,
) -> Result<Vec<AnyPosition>, mancala_engine::IllegalMove> {
    let mut out: Vec<AnyPosition> = Vec::new();
    for g in games {
        let positions = with_position!(g.start, p => {
            let mut rec = GameRecord::new(p);
            for mv in g.plain_moves() {
                rec.play(mv)?;
            }
            rec.positions()
                .iter()
                .map(|&q| AnyPosition::from(q))
                .collect::<Vec<_>>()
        });
        let eligible: Vec<AnyPosition> = positions
            .into_iter()
            .filter(|p| {
                let seeds = p.board_seeds();
                (s.min_seeds..=s.max_seeds).contains(&seeds) && p.legal_moves().len() >= 2
            })
            .collect();
        let take = s.per_game.min(eligible.len());
        for i in 0..take {
            // The middle of each of `take` equal stretches.
            let at = (2 * i + 1) * eligible.len() / (2 * take);
            if !out.contains(&eligible[at]) {
                out.push(eligible[at]);
            }
        }
    }
    Ok(out)
}

/// Every legal move of `pos` with its exact value, or `None` if a child
/// needs more than `max_nodes` positions to prove.
pub fn grade(
    pos: &AnyPosition,
    tables: &TableSet,
    hash_mb: usize,
    max_nodes: u64,
) -> Option<Graded> {
    fn graded<R: Rules, T: BoardValues<R> + ?Sized>(
        pos: &Position<R>,
        tables: &T,
        hash_mb: usize,
        max_nodes: u64,
    ) -> Option<Vec<(Move, i32)>> {
        let mut solver = Solver::new(tables, hash_mb);
        let mut values = Vec::new();
        for (mv, child) in pos.children() {
            // The child's value from its side to move, read for the mover
            // (the same side when it moves again: Kalah).
            let v = child.for_parent(
                pos,
                match child.status() {
                    Status::Over(t) => child.margin_of(t),
                    Status::Ongoing => solver.prove(&child).nodes(max_nodes).value().done()?,
                },
            );
            values.push((mv, v));
        }
        Some(values)
    }
    let values = with_position!(pos, p => match tables.get() {
        Some(t) => graded(p, t, hash_mb, max_nodes),
        None => graded(p, &NoTables, hash_mb, max_nodes),
    })?;
    Some(Graded {
        position: *pos,
        values,
    })
}

/// How the engine under test searches each position (one thread, a
/// cleared table each time, so the result does not depend on the order).
#[derive(Clone, Copy, Debug)]
pub struct Budget {
    /// Time a position.
    pub time: Option<Duration>,
    /// Nodes a position.
    pub nodes: Option<u64>,
}

/// One position the engine got wrong.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Miss {
    /// The position.
    pub position: AnyPosition,
    /// The move the engine chose.
    pub played: Move,
    /// Its exact value.
    pub value: i32,
    /// The best exact value.
    pub best: i32,
}

impl Miss {
    /// Seeds lost against perfect play.
    pub fn loss(&self) -> i32 {
        self.best - self.value
    }

    /// Whether the move changed the proven outcome (a win to a draw or a
    /// loss, a draw to a loss).
    pub fn changes_outcome(&self) -> bool {
        self.value.signum() < self.best.signum()
    }
}

/// The engine's grade on a set.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Accuracy {
    /// Positions played.
    pub positions: usize,
    /// Positions where the engine's move keeps the exact value.
    pub kept: usize,
    /// Positions where some move loses value ([`Graded::can_lose`]); in
    /// the others every move keeps it.
    pub can_lose: usize,
    /// Seeds lost in all (against the best value).
    pub total_loss: i64,
    /// The positions it got wrong, worst first.
    pub misses: Vec<Miss>,
}

impl Accuracy {
    /// The share of positions whose value the engine kept (0 to 1).
    pub fn share_kept(&self) -> f64 {
        self.kept as f64 / self.positions.max(1) as f64
    }

    /// Of the positions where some move loses value, those whose value
    /// the engine kept.
    pub fn kept_where_it_can_lose(&self) -> usize {
        self.kept - (self.positions - self.can_lose)
    }

    /// [`kept_where_it_can_lose`](Self::kept_where_it_can_lose) as a share
    /// of those positions (0 to 1).
    pub fn share_kept_where_it_can_lose(&self) -> f64 {
        self.kept_where_it_can_lose() as f64 / self.can_lose.max(1) as f64
    }

    /// Seeds lost a position, on average.
    pub fn average_loss(&self) -> f64 {
        self.total_loss as f64 / self.positions.max(1) as f64
    }

    /// Moves that changed the proven outcome.
    pub fn outcome_changes(&self) -> usize {
        self.misses.iter().filter(|m| m.changes_outcome()).count()
    }
}

/// Plays every position of `set` with the default evaluation (or `eval`)
/// at `budget`, with `tables` (a [`TableSet`] without layers for none),
/// and grades the moves; `each` sees every position's move and value.
pub fn run(
    set: &[Graded],
    budget: Budget,
    eval: &Evaluator,
    tables: &TableSet,
    hash_mb: usize,
    mut each: impl FnMut(&Graded, Move, i32),
) -> Accuracy {
    let tt = TranspositionTable::new(hash_mb);
    let options = SearchOptions {
        limits: Limits {
            time: budget.time,
            nodes: budget.nodes,
            depth: None,
        },
        threads: 1,
        score_all_moves: false,
    };
    let mut acc = Accuracy::default();
    for g in set {
        tt.clear();
        let report = with_position!(g.position, p => {
            Search::new(&p, eval, &tt).tables(tables.get()).options(options).run(|_| {})
        });
        let Some(mv) = report.best else { continue };
        let value = g.value_of(mv).expect("the engine plays a legal move");
        let best = g.best();
        acc.positions += 1;
        acc.can_lose += g.can_lose() as usize;
        acc.total_loss += (best - value) as i64;
        if value == best {
            acc.kept += 1;
        } else {
            acc.misses.push(Miss {
                position: g.position,
                played: mv,
                value,
                best,
            });
        }
        each(g, mv, value);
    }
    acc.misses.sort_by_key(|m| {
        (
            std::cmp::Reverse((m.changes_outcome(), m.loss())),
            m.position.to_string(),
        )
    });
    acc
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A move that moves again is graded by its child's own value, not
    /// minus it: North's 12 sows into its store and moves again; both
    /// moves lose by 26 (the solver's and the search's value).
    #[test]
    fn a_move_that_moves_again_is_graded_from_the_movers_view() {
        let pos: AnyPosition = "kalah 3,0,13,2,10,0/0,0,0,1,0,1 N 9-9".parse().unwrap();
        let g = grade(&pos, &TableSet::default(), 4, u64::MAX).expect("small");
        assert_eq!(
            g.values,
            vec![(Move::from_pit(10), -26), (Move::from_pit(12), -26)]
        );
    }

    #[test]
    fn a_graded_position_grades_the_engine() {
        // South's 6 takes 6 seeds from 7 and 8 and wins; the other move
        // (5) does not: the engine finds 6 and keeps the value.
        let pos: AnyPosition = "bohnenspiel 0,0,0,0,1,2/1,3,0,0,0,2 S 31-32"
            .parse()
            .unwrap();
        let g = grade(&pos, &TableSet::default(), 4, u64::MAX).expect("small");
        assert_eq!(g.values.len(), 2);
        assert_eq!(g.best(), g.value_of(Move::from_pit(6)).unwrap());
        assert!(g.value_of(Move::from_pit(5)).unwrap() < g.best());
        let budget = Budget {
            time: None,
            nodes: Some(20_000),
        };
        let acc = run(
            std::slice::from_ref(&g),
            budget,
            &Evaluator::default(),
            &TableSet::default(),
            4,
            |_, _, _| {},
        );
        assert_eq!((acc.positions, acc.kept, acc.total_loss), (1, 1, 0));
        assert_eq!((acc.can_lose, acc.kept_where_it_can_lose()), (1, 1));
        // A position where every move is worth the same is kept whatever
        // is played, and not counted among those where a move can lose.
        let mut even = g.clone();
        for (_, v) in &mut even.values {
            *v = g.best();
        }
        assert!(!even.can_lose());
        let both = [even, g.clone()];
        let acc = run(
            &both,
            budget,
            &Evaluator::default(),
            &TableSet::default(),
            4,
            |_, _, _| {},
        );
        assert_eq!((acc.positions, acc.kept, acc.can_lose), (2, 2, 1));
        assert_eq!(acc.share_kept_where_it_can_lose(), 1.0);
        // A set whose "best" is a move the engine does not play counts as a
        // miss, with its loss.
        let mut wrong = g;
        for (m, v) in &mut wrong.values {
            if m.pit() == 5 {
                *v += 100;
            }
        }
        let acc = run(
            &[wrong],
            budget,
            &Evaluator::default(),
            &TableSet::default(),
            4,
            |_, _, _| {},
        );
        assert_eq!((acc.positions, acc.kept), (1, 0));
        assert_eq!((acc.can_lose, acc.kept_where_it_can_lose()), (1, 0));
        assert!(acc.misses[0].loss() > 0);
    }
}
