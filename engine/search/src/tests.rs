//! Search tests: proven scores against a naive full-width solver, limits,
//! determinism and threads.

use std::sync::atomic::AtomicBool;
use std::time::Duration;

use super::score::SCALE;
use super::{Evaluate, Limits, Report, Search, SearchOptions};
use mancala_rules::{
    AlManqala, Bohnenspiel, BohnenspielHemprich, Bosh, DjenonAbe, Position, Rules, Side, Status,
};
use mancala_solve::tt::{Bound, TranspositionTable};

/// Banked seeds only: enough to drive the search in tests.
struct Banked;

impl<R: Rules> Evaluate<R> for Banked {
    fn evaluate(&self, pos: &Position<R>) -> i32 {
        pos.banked_margin() * SCALE
    }
}

/// The exact margin by plain alpha-beta over the whole game tree (no table,
/// so nothing path-dependent is reused), a repetition on the line scored as
/// the cycle split. With the full window it returns the exact value.
fn naive<R: Rules>(pos: &Position<R>, line: &mut Vec<u128>) -> i32 {
    naive_within(pos, line, u64::MAX).expect("no budget")
}

thread_local! {
    /// Positions [`naive_within`] may still visit.
    static NAIVE_BUDGET: std::cell::Cell<u64> = const { std::cell::Cell::new(u64::MAX) };
}

/// [`naive`], or `None` if it needs more than `budget` positions (the plain
/// search is exponential; some small endgames take it minutes).
fn naive_within<R: Rules>(pos: &Position<R>, line: &mut Vec<u128>, budget: u64) -> Option<i32> {
    NAIVE_BUDGET.set(budget);
    let v = naive_ab(pos, line, -1000, 1000);
    (NAIVE_BUDGET.get() > 0).then_some(v)
}

fn naive_ab<R: Rules>(pos: &Position<R>, line: &mut Vec<u128>, mut alpha: i32, beta: i32) -> i32 {
    let left = NAIVE_BUDGET.get();
    if left == 0 {
        return 0;
    }
    NAIVE_BUDGET.set(left - 1);
    let margin = |t: [u8; 2]| pos.margin_of(t);
    if line.contains(&pos.board_key()) {
        return margin(pos.cycle_totals());
    }
    if let Status::Over(t) = pos.status() {
        return margin(t);
    }
    line.push(pos.board_key());
    let mut best = -1000;
    for (_, child) in pos.children() {
        let v = -naive_ab(&child, line, -beta, -alpha);
        best = best.max(v);
        alpha = alpha.max(v);
        if alpha >= beta {
            break;
        }
    }
    line.pop();
    best
}

/// Default options with a fixed depth.
fn to_depth(depth: u32) -> SearchOptions {
    SearchOptions {
        limits: Limits {
            depth: Some(depth),
            ..Limits::default()
        },
        ..SearchOptions::default()
    }
}

fn run<R: Rules>(pos: &Position<R>, options: &SearchOptions) -> Report {
    let tt = TranspositionTable::new(1);
    Search::new(pos, &Banked, &tt).options(*options).run(|_| {})
}

/// Small random endgames: `seeds` on the board, the rest banked.
fn endgames<R: Rules>(count: usize, seeds: u32, seed: u64) -> Vec<Position<R>> {
    use rand::{Rng, SeedableRng};
    let mut out = Vec::new();
    let mut rng = rand::rngs::StdRng::seed_from_u64(seed);
    let mut next = || rng.random::<u64>();
    while out.len() < count {
        let mut pits = vec![Some(0u8); R::PITS];
        for _ in 0..seeds {
            let i = (next() % R::PITS as u64) as usize;
            pits[i] = pits[i].map(|n| n + 1);
        }
        let rest = R::TOTAL as u32 - seeds;
        let south = (next() % (rest as u64 + 1)) as u8;
        let side = if next() % 2 == 0 {
            Side::South
        } else {
            Side::North
        };
        let pos = Position::<R>::from_parts(&pits, side, [south, rest as u8 - south]).unwrap();
        if pos.status() == Status::Ongoing {
            out.push(pos);
        }
    }
    out
}

/// A depth limit for the proof tests: proofs through cycles can take the
/// search very deep, so the tests check every proof that arrives in time
/// and that some do.
const PROOF_DEPTH: u32 = 12;

/// Positions the naive solver may visit to check one proof.
const NAIVE_BUDGET_NODES: u64 = 200_000;

/// Searches small random endgames of `R` on each of `threads` and checks
/// every proven score (and that the best move keeps it) against the naive
/// solver. Returns the proofs checked and, of those, the best moves
/// checked (the naive solver may run out of budget on a child).
fn proofs_match_the_naive_solver<R: Rules>(seeds: u32, seed: u64, threads: &[usize]) -> Checked {
    let (mut proven, mut best_moves) = (0, 0);
    for pos in endgames::<R>(4, seeds, seed) {
        let mut expected = None;
        for &threads in threads {
            let options = SearchOptions {
                threads,
                ..to_depth(PROOF_DEPTH)
            };
            let report = run(&pos, &options);
            if !report.exact {
                continue;
            }
            let value = *expected
                .get_or_insert_with(|| naive_within(&pos, &mut Vec::new(), NAIVE_BUDGET_NODES));
            let Some(value) = value else { continue };
            proven += 1;
            assert_eq!(report.score, value * SCALE, "{pos} on {threads} threads");
            let child = pos.play(report.best.unwrap());
            let line = &mut vec![pos.board_key()];
            if let Some(v) = naive_within(&child, line, NAIVE_BUDGET_NODES) {
                assert_eq!(-v, value, "{pos} on {threads} threads: the best move");
                best_moves += 1;
            }
        }
    }
    Checked { proven, best_moves }
}

/// What [`proofs_match_the_naive_solver`] checked.
#[derive(Clone, Copy, Debug, Default)]
struct Checked {
    proven: usize,
    best_moves: usize,
}

/// Asserts that the proofs of [`proofs_in_every_game`] checked at least
/// `proofs` proven scores and half as many best moves in all.
fn assert_checked(checked: [Checked; 5], proofs: usize) {
    let proven: usize = checked.iter().map(|c| c.proven).sum();
    let best: usize = checked.iter().map(|c| c.best_moves).sum();
    eprintln!("proven and checked: {checked:?}");
    assert!(proven >= proofs, "{checked:?}");
    assert!(2 * best >= proven, "{checked:?}");
}

/// [`proofs_match_the_naive_solver`] in every game (four seeds on the
/// board, one random stream per game).
fn proofs_in_every_game(threads: &[usize], seed: u64) -> [Checked; 5] {
    [
        proofs_match_the_naive_solver::<Bohnenspiel>(4, seed + 1, threads),
        proofs_match_the_naive_solver::<BohnenspielHemprich>(4, seed + 2, threads),
        proofs_match_the_naive_solver::<AlManqala>(4, seed + 3, threads),
        proofs_match_the_naive_solver::<Bosh>(4, seed + 4, threads),
        proofs_match_the_naive_solver::<DjenonAbe>(4, seed + 5, threads),
    ]
}

#[test]
fn proven_scores_are_exact_in_every_game() {
    assert_checked(proofs_in_every_game(&[1], 0), 16);
}

#[test]
fn every_root_move_gets_its_exact_score() {
    for threads in [1, 2] {
        every_root_move_gets_its_exact_score_on(threads);
    }
}

fn every_root_move_gets_its_exact_score_on(threads: usize) {
    let options = SearchOptions {
        score_all_moves: true,
        threads,
        ..to_depth(PROOF_DEPTH)
    };
    for pos in endgames::<Bohnenspiel>(4, 6, 11) {
        let report = run(&pos, &options);
        assert_eq!(report.moves.len(), pos.legal_moves().len());
        assert!(report.moves.windows(2).all(|w| w[0].score >= w[1].score));
        assert_eq!(report.moves[0].mv, report.best.unwrap());
        for m in report.moves.iter().filter(|m| m.proven) {
            let child = pos.play(m.mv);
            let value = -naive(&child, &mut vec![pos.board_key()]);
            assert_eq!(m.score, value * SCALE, "{pos} move {}", m.mv);
        }
    }
}

#[test]
fn a_finished_game_is_scored_without_search() {
    let pos: Position<Bohnenspiel> = "bohnenspiel 0,0,0,0,0,0/1,2,0,0,0,0 S 30-39"
        .parse()
        .unwrap();
    let report = run(&pos, &SearchOptions::default());
    assert_eq!(report.best, None);
    assert!(report.exact);
    // North takes the 3 seeds left: 30 - 42.
    assert_eq!(report.score, -12 * SCALE);
}

#[test]
fn depth_and_node_limits_are_kept() {
    let start = Position::<Bohnenspiel>::start();
    let at = |limits| SearchOptions {
        limits,
        ..SearchOptions::default()
    };
    let r = run(
        &start,
        &at(Limits {
            depth: Some(5),
            ..Limits::default()
        }),
    );
    assert_eq!(r.depth, 5);
    assert_eq!(r.pv.len(), 5);
    assert!(!r.exact);
    let r = run(
        &start,
        &at(Limits {
            nodes: Some(20_000),
            ..Limits::default()
        }),
    );
    assert!(
        r.nodes < 20_000 + 2 * super::params::CHECK_EVERY,
        "{}",
        r.nodes
    );
    assert!(r.best.is_some());
}

/// An iteration cut short by a limit: a root move that beat the first
/// one before the limit is played, with the lower bound it was found at;
/// otherwise the last finished iteration's move and score stand.
#[test]
fn an_unfinished_iteration_plays_the_move_that_beat_the_first() {
    let mut positions = vec![Position::<Bohnenspiel>::start()];
    positions.extend(endgames::<Bohnenspiel>(40, 40, 7));
    let (mut promoted, mut kept) = (0, 0);
    for pos in &positions {
        for nodes in (1..=10).map(|k| k * 3_000) {
            let limits = Limits {
                nodes: Some(nodes),
                ..Limits::default()
            };
            let limited = run(
                pos,
                &SearchOptions {
                    limits,
                    ..SearchOptions::default()
                },
            );
            let finished = run(pos, &to_depth(limited.depth));
            if limited.exact || finished.exact {
                continue;
            }
            let best = limited.best.expect("a move");
            assert_eq!(limited.moves[0].mv, best);
            assert_eq!(limited.pv[0], best);
            if Some(best) == finished.best {
                assert_eq!(limited.score, finished.score);
                kept += 1;
            } else {
                assert_eq!(limited.moves[0].bound, mancala_solve::tt::Bound::Lower);
                assert_eq!(limited.moves[0].score, limited.score);
                promoted += 1;
            }
        }
    }
    assert!(
        promoted >= 1 && kept >= 100,
        "{promoted} promoted, {kept} kept"
    );
}

#[test]
fn a_stop_flag_set_before_the_search_still_gives_a_move() {
    let stop = AtomicBool::new(true);
    let tt = TranspositionTable::new(1);
    let options = SearchOptions {
        limits: Limits {
            time: Some(Duration::from_secs(60)),
            ..Limits::default()
        },
        ..SearchOptions::default()
    };
    let r = Search::new(&Position::<Bohnenspiel>::start(), &Banked, &tt)
        .options(options)
        .stop(&stop)
        .run(|_| {});
    assert_eq!(r.depth, 1);
    assert!(r.best.is_some());
}

#[test]
fn one_thread_is_deterministic_and_two_threads_agree_on_proofs() {
    let start = Position::<Bohnenspiel>::start();
    let options = to_depth(7);
    let a = run(&start, &options);
    let b = run(&start, &options);
    assert_eq!((a.nodes, a.score, &a.pv), (b.nodes, b.score, &b.pv));
    // Two threads, and eight on however many cores (oversubscribed).
    for threads in [2, 8] {
        let many = SearchOptions {
            threads,
            ..to_depth(PROOF_DEPTH)
        };
        let mut proven = 0;
        for pos in endgames::<Bohnenspiel>(3, 4, 21) {
            let r = run(&pos, &many);
            if r.exact {
                assert_eq!(r.score, naive(&pos, &mut Vec::new()) * SCALE, "{pos}");
                proven += 1;
            }
        }
        assert!(
            proven >= 2,
            "only {proven} of 3 proven on {threads} threads"
        );
    }
}

/// Proofs of the parallel search (Lazy SMP with deferred children) on two
/// and three threads.
#[test]
fn parallel_proofs_are_exact_in_every_game() {
    assert_checked(proofs_in_every_game(&[2, 3], 40), 24);
}

#[test]
fn a_parallel_search_completes_the_depth_asked_for() {
    // Helpers search past the limit; the main thread's iteration is the
    // result, at the depth asked for, in both modes and oversubscribed.
    let start = Position::<Bohnenspiel>::start();
    let mut searches = 0;
    for threads in [2, 3, 8] {
        for all_moves in [false, true] {
            for depth in 6..=13 {
                let options = SearchOptions {
                    threads,
                    score_all_moves: all_moves,
                    ..to_depth(depth)
                };
                let r = run(&start, &options);
                let at = format!("{threads} threads, depth {depth}, all moves {all_moves}");
                assert_eq!(r.depth, depth, "{at}");
                assert_eq!(r.moves.len(), 6, "{at}");
                assert_eq!(r.pv.first(), r.best.as_ref(), "{at}");
                assert_eq!(r.moves[0].mv, r.best.unwrap(), "{at}");
                assert_eq!(r.moves[0].score, r.score, "{at}");
                if all_moves {
                    assert!(r.moves.iter().all(|m| m.bound == Bound::Exact), "{at}");
                    assert!(r.moves.windows(2).all(|w| w[0].score >= w[1].score), "{at}");
                }
                searches += 1;
            }
        }
    }
    assert_eq!(searches, 48);
}

#[test]
fn the_node_limit_holds_on_two_threads() {
    let options = SearchOptions {
        limits: Limits {
            nodes: Some(200_000),
            ..Limits::default()
        },
        threads: 2,
        ..SearchOptions::default()
    };
    let r = run(&Position::<Bohnenspiel>::start(), &options);
    // Each thread may hold a check's worth unreported when the limit is
    // reached, and search a check's worth more; a proof inside the search
    // asks the clock only every `STOP_CHECK_EVERY` positions.
    let check = super::params::CHECK_EVERY + mancala_solve::STOP_CHECK_EVERY;
    assert!(r.nodes < 200_000 + 2 * check, "{}", r.nodes);
    assert!(r.depth >= 6, "{}", r.depth);
}

/// The naive value of `pos` with `pos` itself already in the game's
/// history: any line back to it is a repetition.
fn value_after_itself<R: Rules>(pos: &Position<R>) -> i32 {
    let mut line = vec![pos.board_key()];
    pos.children()
        .iter()
        .map(|(_, c)| -naive(c, &mut line))
        .max()
        .unwrap()
}

#[test]
fn the_cycle_rule_counts_the_game_history() {
    // With the root already in the game's history, any line back to it is
    // a repetition: compare with the naive solver given the same line.
    let options = to_depth(PROOF_DEPTH);
    let mut proven = 0;
    for pos in endgames::<Bohnenspiel>(3, 4, 31) {
        let history = [pos];
        let tt = TranspositionTable::new(1);
        let r = Search::new(&pos, &Banked, &tt)
            .history(&history)
            .options(options)
            .run(|_| {});
        if !r.exact {
            continue;
        }
        assert_eq!(r.score, value_after_itself(&pos) * SCALE, "{pos}");
        proven += 1;
    }
    assert!(proven >= 2, "only {proven} of 3 proven");
}

#[test]
fn values_that_relied_on_the_history_are_not_reused_as_proven() {
    // The same table for a search with the root in the history and then
    // for one without: what the first proved through repetitions of the
    // history must not pass as proven in the second.
    let options = to_depth(PROOF_DEPTH);
    let mut checked = 0;
    for pos in endgames::<Bohnenspiel>(40, 5, 77) {
        let tt = TranspositionTable::new(1);
        let stop = AtomicBool::new(false);
        // A history of positions the search will meet: the root and the
        // positions along its first moves.
        let mut history = vec![pos];
        let mut at = pos;
        for _ in 0..6 {
            let Some((_, next)) = at.children().into_iter().next() else {
                break;
            };
            history.push(next);
            at = next;
        }
        history.reverse();
        let with_history = Search::new(&pos, &Banked, &tt).history(&history);
        with_history.options(options).stop(&stop).run(|_| {});
        let r = Search::new(&pos, &Banked, &tt)
            .options(options)
            .stop(&stop)
            .run(|_| {});
        if let (true, Some(value)) = (
            r.exact,
            naive_within(&pos, &mut Vec::new(), NAIVE_BUDGET_NODES),
        ) {
            assert_eq!(r.score, value * SCALE, "{pos}");
            checked += 1;
        }
    }
    assert!(checked >= 6, "{checked}");
}

#[test]
fn the_solver_counts_the_game_history() {
    // As above, for the exact solver the search hands small endgames to.
    let mut solver = mancala_solve::Solver::new(&mancala_tables::NoTables, 1);
    for pos in endgames::<Bohnenspiel>(8, 4, 37) {
        let s = solver
            .prove(&pos)
            .history(&[pos])
            .solution()
            .done()
            .unwrap();
        assert_eq!(s.margin, value_after_itself(&pos), "{pos}");
    }
}

/// The Bohnenspiel puzzles (`positions/puzzles/bohnenspiel.txt`): position,
/// margin, best move.
fn puzzles() -> Vec<(Position<Bohnenspiel>, i32, u8)> {
    mancala_files::parse_puzzles(mancala_files::PUZZLES)
        .unwrap()
        .into_iter()
        .map(|p| {
            let mancala_rules::AnyPosition::Bohnenspiel(pos) = p.position else {
                panic!("a bohnenspiel puzzle: {p}");
            };
            (pos, p.margin, p.best[0].pit())
        })
        .collect()
}

#[test]
fn small_endgames_are_proven_without_tables() {
    // The search's horizon alone rarely proves these (cycles); the solver
    // it hands them to does, within the depth limit.
    let mut checked = 0;
    for (pos, margin, best) in puzzles().into_iter().filter(|p| p.0.board_seeds() <= 12) {
        for threads in [1, 2] {
            // No depth limit: the solver's budget grows with the nodes
            // searched (however slowly the iterations grow in a cycle).
            let options = SearchOptions {
                threads,
                score_all_moves: true,
                limits: Limits {
                    nodes: Some(5_000_000),
                    ..Limits::default()
                },
            };
            let r = run(&pos, &options);
            assert!(r.exact, "{pos}: depth {} nodes {}", r.depth, r.nodes);
            assert_eq!(r.score, margin * SCALE, "{pos}");
            assert_eq!(r.best.map(|m| m.pit()), Some(best), "{pos}");
            assert_eq!(r.pv.first(), r.best.as_ref(), "{pos}");
            assert_eq!(r.moves[0].mv, r.best.unwrap(), "{pos}");
            assert!(r.moves[1..].iter().all(|m| m.score < r.score), "{pos}");
        }
        checked += 1;
    }
    assert!(checked >= 20, "{checked}");
}

mod with_tables {
    //! The search with endgame tables: scores against the solver by search
    //! alone (no tables), so a wrong probe cannot agree with itself.

    use super::*;
    use mancala_solve::Solver;
    use mancala_tables::{self as tablebase, BoardValues, LayerData, NoTables, Tablebase};

    fn run_tables<R: Rules>(
        pos: &Position<R>,
        tables: &dyn BoardValues<R>,
        options: &SearchOptions,
    ) -> Report {
        let tt = TranspositionTable::new(1);
        Search::new(pos, &Banked, &tt)
            .tables(Some(tables))
            .options(*options)
            .run(|_| {})
    }

    /// The exact margin by the solver without tables.
    fn solved<R: Rules>(pos: &Position<R>) -> mancala_solve::Solution {
        Solver::new(&NoTables, 4).solve(pos)
    }

    #[test]
    fn table_positions_get_the_solvers_margin_on_the_first_iteration() {
        let (tables, _) = tablebase::build_in_memory::<Bohnenspiel>(8);
        // No depth limit: the search stops by itself once the root is proven.
        let options = SearchOptions {
            score_all_moves: true,
            ..SearchOptions::default()
        };
        for (seeds, seed) in [(4, 41), (6, 42), (8, 43)] {
            for pos in endgames::<Bohnenspiel>(4, seeds, seed) {
                let report = run_tables(&pos, &tables, &options);
                let solution = solved(&pos);
                assert_eq!(report.depth, 1, "{pos}");
                assert!(report.exact, "{pos}");
                assert_eq!(report.score, solution.margin * SCALE, "{pos}");
                assert!(solution.best.contains(&report.best.unwrap()), "{pos}");
                // The PV goes on through the tables, every move keeping the
                // value, to the end of the game or a repetition.
                assert_eq!(report.pv[0], report.best.unwrap());
                let mut solver = Solver::new(&NoTables, 4);
                let (mut at, mut value) = (pos, solution.margin);
                for &mv in &report.pv {
                    at = at.play(mv);
                    let next = solver.value(&at);
                    assert_eq!(next, -value, "{pos} pv {:?}", report.pv);
                    value = next;
                }
                let mut line = vec![pos.board_key()];
                let mut at = pos;
                for &mv in &report.pv {
                    at = at.play(mv);
                    line.push(at.board_key());
                }
                let last = line.pop().unwrap();
                assert!(
                    at.status() != Status::Ongoing || line.contains(&last) || report.pv.len() == 64,
                    "{pos} pv {:?}",
                    report.pv
                );
                for m in &report.moves {
                    assert!(m.proven, "{pos} move {}", m.mv);
                    let child = pos.play(m.mv);
                    let value = -Solver::new(&NoTables, 4).value(&child);
                    assert_eq!(m.score, value * SCALE, "{pos} move {}", m.mv);
                }
            }
        }
    }

    #[test]
    fn tables_below_the_root_prove_what_the_search_alone_does_not() {
        let (tables, _) = tablebase::build_in_memory::<Bohnenspiel>(8);
        // Shallower than the search's hand-over to the exact solver.
        let depth = crate::params::PROOF_FROM_DEPTH - 1;
        let options = to_depth(depth);
        let (mut with, mut without) = (0, 0);
        for pos in endgames::<Bohnenspiel>(6, 10, 44) {
            let report = run_tables(&pos, &tables, &options);
            without += run(&pos, &options).exact as usize;
            if report.exact {
                with += 1;
                assert_eq!(report.score, solved(&pos).margin * SCALE, "{pos}");
            }
        }
        eprintln!(
            "proven to depth {depth} of 6 ten-seed positions: {with} with tables, {without} without"
        );
        assert!(with > without, "{with} with tables, {without} without");
    }

    #[test]
    fn a_root_in_the_tables_is_exact_when_the_best_move_is_proven() {
        // Only the 8-seed layer: a capture's child (fewer seeds) is not in
        // the tables, but the root is, so a proven best move that keeps the
        // root's value is enough.
        let (full, _) = tablebase::build_in_memory::<Bohnenspiel>(8);
        let mut top = Tablebase::<Bohnenspiel>::empty();
        top.insert(
            8,
            LayerData::Owned(full.layer(8).unwrap().entries().to_vec()),
        );
        let options = to_depth(1);
        let mut exact_with_unproven_moves = 0;
        for pos in endgames::<Bohnenspiel>(40, 8, 45) {
            let report = run_tables(&pos, &top, &options);
            let margin = top.probe_margin(&pos).unwrap();
            if report.exact {
                assert_eq!(report.score, margin * SCALE, "{pos}");
                assert_eq!(margin, solved(&pos).margin, "{pos}");
                exact_with_unproven_moves += report.moves.iter().any(|m| !m.proven) as usize;
            } else {
                // Only a capture into the missing layers can leave it open.
                assert!(
                    pos.children().iter().any(|(_, c)| c.board_seeds() < 8),
                    "{pos}"
                );
            }
        }
        assert!(exact_with_unproven_moves > 0);
    }

    #[test]
    fn without_tables_nothing_changes() {
        let start = Position::<Bohnenspiel>::start();
        let options = to_depth(7);
        let a = run(&start, &options);
        let b = run_tables(&start, &NoTables, &options);
        assert_eq!((a.nodes, a.score, &a.pv), (b.nodes, b.score, &b.pv));
    }
}
