//! The solver against the tablebases, and the tablebases' files against
//! damage.

use mancala_engine::files::{self, parse_puzzles};
use mancala_engine::solve::{Outcome, Progress, Proof, Solver};
use mancala_engine::tablebase::{
    self, build_in_memory, layer_size, Below, BuildProgress, NoTables, Tablebase, TablebaseRules,
};
use mancala_engine::{AnyPosition, Bohnenspiel, DjenonAbe, Kalah, KalahEmpty, Position, Side};

/// Every entry of a layer, solved by search alone, equals the table.
fn layer_by_search<R: TablebaseRules>(tables: &Tablebase<R>, seeds: u32, step: u64) {
    let mut solver = Solver::new(&NoTables, 4);
    let size = layer_size(R::PITS, seeds);
    let mut r = 0;
    while r < size {
        R::walk(seeds, r, r + 1, |_, pits| {
            let pos = Position::<R>::from_key(pits);
            assert_eq!(
                solver.value(&pos),
                tables.probe(&pos).expect("layer built") as i32,
                "{pos}"
            );
        });
        r += step;
    }
}

#[test]
fn bohnenspiel_layer_six_by_search_alone() {
    let (tables, _) = build_in_memory::<Bohnenspiel>(6);
    layer_by_search(&tables, 6, 1);
}

#[test]
fn djenon_abe_layer_six_by_search_alone() {
    let (tables, _) = build_in_memory::<DjenonAbe>(6);
    layer_by_search(&tables, 6, 1);
}

/// Kalah's moves again: the solver's values, best moves and principal
/// variations from search alone against the tables, an odd layer (7) and
/// an even one (8, sampled), both variants.
#[test]
fn kalah_layers_by_search_alone_and_best_moves_from_tables() {
    fn check<R: TablebaseRules>() -> usize {
        let (tables, _) = build_in_memory::<R>(8);
        layer_by_search(&tables, 7, 1);
        let mut alone = Solver::new(&NoTables, 4);
        let (mut compared, mut again, mut ended) = (0, 0, 0);
        for r in (0..layer_size(12, 8)).step_by(97) {
            R::walk(8, r, r + 1, |_, pits| {
                for side in [Side::South, Side::North] {
                    let pos = Position::<R>::from_key(pits).with_side_to_move(side);
                    let a = alone.solve(&pos);
                    assert_eq!(Some(a.margin), tables.probe(&pos).map(i32::from), "{pos}");
                    // Every best move keeps the value by the tables.
                    for &mv in &a.best {
                        let child = pos.play_unchecked(mv);
                        let child_margin = match child.status() {
                            mancala_engine::Status::Over(t) => child.margin_of(t),
                            _ => {
                                tables.probe(&child).expect("built") as i32 + child.banked_margin()
                            }
                        };
                        assert_eq!(
                            child.for_parent(&pos, child_margin),
                            a.margin,
                            "{pos}: {mv}"
                        );
                        again += child.moves_again_after(&pos) as usize;
                    }
                    // The principal variation keeps the value to its end.
                    let mut at = pos;
                    for &mv in &a.pv {
                        at = at.try_play(mv).expect("a legal line");
                    }
                    if let mancala_engine::Status::Over(t) = at.status() {
                        let side_margin = mancala_engine::margin(t, pos.side_to_move());
                        assert_eq!(side_margin, a.margin, "{pos}: {:?}", a.pv);
                        ended += 1;
                    }
                    compared += 1;
                }
            });
        }
        assert!(again > 10, "{again} best moves move again");
        // Lines end in the game's end unless they are cut at their length.
        assert!(
            ended > compared * 9 / 10,
            "{ended} of {compared} lines ended"
        );
        compared
    }
    assert!(check::<Kalah>() > 100);
    assert!(check::<KalahEmpty>() > 100);
}

#[test]
fn bohnenspiel_layer_ten_sampled_by_search_over_smaller_layers() {
    let (tables, _) = build_in_memory::<Bohnenspiel>(10);
    let below = Below {
        tables: &tables,
        limit: 10,
    };
    let mut solver = Solver::new(&below, 4);
    let size = layer_size(12, 10);
    for r in (0..size).step_by(997) {
        Bohnenspiel::walk(10, r, r + 1, |_, pits| {
            let pos = Position::<Bohnenspiel>::from_key(pits).with_side_to_move(Side::South);
            assert_eq!(
                solver.value(&pos),
                tables.probe(&pos).unwrap() as i32,
                "{pos}"
            );
        });
    }
}

#[test]
fn solution_lists_every_best_move_and_a_line() {
    let (tables, _) = build_in_memory::<Bohnenspiel>(8);
    // South: 1 in pit 5, 1 in pit 6; North: 1,1,0,... Tallies make 72.
    let pos: Position<Bohnenspiel> = "bohnenspiel 0,0,0,0,1,1/1,1,0,0,0,0 S 34-34"
        .parse()
        .unwrap();
    let mut with_tables = Solver::new(&tables, 1);
    let mut alone = Solver::new(&NoTables, 1);
    let a = with_tables.solve(&pos);
    let b = alone.solve(&pos);
    assert_eq!(a.margin, b.margin);
    assert_eq!(a.best, b.best);
    assert!(!a.best.is_empty());
    assert_eq!(a.pv.first(), a.best.first());
    // The line of best moves ends where the margin says.
    let mut at = pos;
    for mv in &a.pv {
        at = at.play(*mv);
    }
    assert_eq!(Outcome::of_margin(a.margin), Outcome::of_margin(b.margin));
    // Every other move is worse.
    for (mv, child) in pos.children() {
        let v = -alone.value(&child);
        assert_eq!(v == a.margin, a.best.contains(&mv), "move {mv}");
        assert!(v <= a.margin);
    }
}

#[test]
fn damaged_table_files_are_refused() {
    let dir = std::env::temp_dir().join(format!("mancala-tb-test-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let (built, outcomes) =
        tablebase::build::<Bohnenspiel>(&dir, 6, &|_: BuildProgress| {}).expect("build");
    assert_eq!(outcomes.len(), 4);
    let (opened, refused) = Tablebase::<Bohnenspiel>::open(&dir);
    assert!(refused.is_empty(), "{refused:?}");
    assert_eq!(opened.complete_to(), Some(6));
    let probe: Position<Bohnenspiel> = "bohnenspiel 0,1,0,2,0,0/1,0,1,0,1,0 N 33-33"
        .parse()
        .unwrap();
    assert_eq!(opened.probe(&probe), built.probe(&probe));

    let path = tablebase::layer_path(&dir, mancala_engine::GameId::Bohnenspiel, 6);
    let good = std::fs::read(&path).unwrap();

    // One flipped bit in the entries.
    let mut bytes = good.clone();
    bytes[100] ^= 4;
    std::fs::write(&path, &bytes).unwrap();
    let (tb, refused) = Tablebase::<Bohnenspiel>::open(&dir);
    assert_eq!(refused.len(), 1);
    assert!(
        refused[0].to_string().contains("checksum"),
        "{}",
        refused[0]
    );
    assert_eq!(tb.complete_to(), Some(4));
    assert_eq!(tb.probe(&probe), None);

    // Truncated.
    std::fs::write(&path, &good[..good.len() - 1]).unwrap();
    let (_, refused) = Tablebase::<Bohnenspiel>::open(&dir);
    assert!(
        refused[0].to_string().contains("truncated"),
        "{}",
        refused[0]
    );

    // Another layer's file under this name.
    let other = std::fs::read(tablebase::layer_path(
        &dir,
        mancala_engine::GameId::Bohnenspiel,
        4,
    ))
    .unwrap();
    std::fs::write(&path, &other).unwrap();
    let (_, refused) = Tablebase::<Bohnenspiel>::open(&dir);
    assert!(refused[0].to_string().contains("layer"), "{}", refused[0]);

    // A resumed build rebuilds the damaged layer and keeps the others.
    let (_, outcomes) = tablebase::build::<Bohnenspiel>(&dir, 6, &|_| {}).expect("rebuild");
    assert!(matches!(
        outcomes[0],
        tablebase::LayerOutcome::Loaded { seeds: 0 }
    ));
    assert!(matches!(outcomes[3], tablebase::LayerOutcome::Built(_)));
    assert_eq!(std::fs::read(&path).unwrap(), good);
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The puzzle file: every puzzle with at most 12 seeds on the board is
/// re-solved here (tables to 8 seeds built in memory, search above them);
/// `mancala solve --check` re-solves them all with the full tables.
#[test]
fn puzzles_with_few_seeds_are_re_proved() {
    let (tables, _) = build_in_memory::<Bohnenspiel>(8);
    let mut solver = Solver::new(&tables, 16);
    let (mut all, mut checked) = (0, 0);
    for puzzle in parse_puzzles(files::PUZZLES).expect("the puzzle file parses") {
        all += 1;
        let AnyPosition::Bohnenspiel(pos) = puzzle.position else {
            panic!("{puzzle}: not bohnenspiel");
        };
        let (margin, best) = (puzzle.margin, puzzle.best);
        assert!(pos.legal_moves().len() >= 3, "{pos}");
        if pos.board_seeds() > 12 {
            continue;
        }
        let s = solver.solve(&pos);
        assert_eq!((s.margin, &s.best), (margin, &best), "{pos}");
        checked += 1;
    }
    assert!(all >= 100, "{all} puzzles");
    assert!(
        checked >= 20,
        "only {checked} puzzles with at most 12 seeds"
    );
}

/// The best moves found by search alone equal those read from the tables.
#[test]
fn best_moves_by_search_equal_best_moves_from_tables() {
    let (tables, _) = build_in_memory::<Bohnenspiel>(8);
    let mut alone = Solver::new(&NoTables, 4);
    let mut with = Solver::new(&tables, 4);
    let size = layer_size(12, 8);
    let mut compared = 0;
    for r in (0..size).step_by(601) {
        Bohnenspiel::walk(8, r, r + 1, |_, pits| {
            let pos = Position::<Bohnenspiel>::from_key(pits);
            let (a, b) = (alone.solve(&pos), with.solve(&pos));
            assert_eq!((a.margin, &a.best), (b.margin, &b.best), "{pos}");
            assert_eq!(a.best.is_empty(), pos.legal_moves().is_empty(), "{pos}");
            compared += 1;
        });
    }
    assert!(compared > 100);
}

/// A move that keeps a target, and one best move, against the full
/// solution: the puzzles with at most 16 seeds, every target around the
/// value.
#[test]
fn keeping_a_target_and_one_best_move_agree_with_the_solution() {
    let mut solver = Solver::new(&NoTables, 16);
    let mut checker = Solver::new(&NoTables, 16);
    let (mut positions, mut kept, mut refused) = (0, 0, 0);
    for puzzle in parse_puzzles(files::PUZZLES).expect("the puzzle file parses") {
        let AnyPosition::Bohnenspiel(pos) = puzzle.position else {
            panic!("{puzzle}: not bohnenspiel");
        };
        if pos.board_seeds() > 16 {
            continue;
        }
        positions += 1;
        let (margin, mv) = solver
            .prove(&pos)
            .best_move()
            .done()
            .flatten()
            .expect("no limit, and a move");
        assert_eq!(margin, puzzle.margin, "{pos}");
        assert!(puzzle.best.contains(&mv), "{pos}: {mv}");
        for target in margin - 3..=margin + 3 {
            match solver.prove(&pos).keeping(target) {
                Proof::Done(Some(mv)) => {
                    assert!(target <= margin, "{pos}: {target}");
                    // The move's value, proven apart.
                    let child = pos.play_unchecked(mv);
                    let v = match child.status() {
                        mancala_engine::Status::Over(t) => child.margin_of(t),
                        _ => checker.solve(&child).margin,
                    };
                    let v = if child.side_to_move() == pos.side_to_move() {
                        v
                    } else {
                        -v
                    };
                    assert!(v >= target, "{pos}: {mv} keeps {v} < {target}");
                    kept += 1;
                }
                Proof::Done(None) => {
                    assert!(target > margin, "{pos}: {target}");
                    refused += 1;
                }
                Proof::Stopped => panic!("{pos}: no limit was set"),
            }
        }
    }
    assert!(positions >= 20, "{positions} puzzles");
    assert_eq!(kept + refused, 7 * positions);
    assert_eq!(refused, 3 * positions);
    // A budget too small for the proof: no answer.
    let pos: Position<Bohnenspiel> = "bohnenspiel 2,2,2,2,2,2/2,2,2,2,2,2 S 24-24"
        .parse()
        .unwrap();
    assert_eq!(solver.prove(&pos).nodes(50).keeping(0), Proof::Stopped);
    assert_eq!(solver.prove(&pos).nodes(50).best_move(), Proof::Stopped);
}

#[test]
fn a_proof_stops_at_its_budget_and_goes_on_later() {
    let pos: Position<Bohnenspiel> = "bohnenspiel 0,0,2,0,1,2/0,2,1,1,15,0 S 24-24"
        .parse()
        .unwrap();
    let full = Solver::new(&NoTables, 16).solve(&pos);
    let mut solver = Solver::new(&NoTables, 16);
    assert_eq!(solver.prove(&pos).nodes(100).solution(), Proof::Stopped);
    assert!(solver.nodes() <= 101, "{}", solver.nodes());
    // Told to stop at the first look: nothing.
    assert_eq!(
        solver.prove(&pos).stop(&|_| true).solution(),
        Proof::Stopped
    );
    // Then with room enough: what `solve` finds.
    let s = solver
        .prove(&pos)
        .nodes(100 * full.nodes + 1_000_000)
        .solution()
        .done()
        .expect("solved");
    assert_eq!((s.margin, &s.best), (full.margin, &full.best));
    // And `solve` itself is not limited by an earlier budget.
    assert_eq!(solver.solve(&pos).margin, full.margin);
}

#[test]
fn a_proof_reports_its_progress_to_stop() {
    // Bohnenspiel(6,2): big enough for many progress calls.
    let pos: Position<Bohnenspiel> = "bohnenspiel 2,2,2,2,2,2/2,2,2,2,2,2 S 24-24"
        .parse()
        .unwrap();
    let seen = std::sync::Mutex::new(Vec::<Progress>::new());
    let mut solver = Solver::new(&NoTables, 16);
    let s = solver
        .prove(&pos)
        .stop(&|p| {
            seen.lock().unwrap().push(*p);
            false
        })
        .solution()
        .done()
        .expect("no limit");
    let seen = seen.into_inner().unwrap();
    assert!(seen.len() >= 3, "{} progress calls", seen.len());
    for w in seen.windows(2) {
        assert!(w[0].nodes < w[1].nodes);
        // Bounds only close in.
        assert!(w[0].bounds.lower <= w[1].bounds.lower);
        assert!(w[0].bounds.upper >= w[1].bounds.upper);
    }
    for p in &seen {
        assert!(
            p.bounds.lower <= s.margin && s.margin <= p.bounds.upper,
            "{p:?}"
        );
        assert!(p.nodes <= s.nodes);
        assert_eq!(p.moves, 6);
        assert!(p.settled <= p.moves);
    }
    // By the end (the best moves are tested one by one) moves are settled.
    assert!(seen.last().unwrap().settled > 0, "{:?}", seen.last());
}

/// `pos` solved on 1 + `helpers` threads in a fresh table of `megabytes`
/// MiB: the solution, and the split points its threads made.
fn solved_on_threads(
    pos: &Position<Bohnenspiel>,
    helpers: usize,
    megabytes: usize,
) -> (mancala_engine::solve::Solution, u64) {
    use mancala_engine::tt::TranspositionTable;
    let tt = TranspositionTable::new(megabytes);
    let mut solver = Solver::with_table(&NoTables, &tt);
    let s = solver
        .prove(pos)
        .helpers(helpers)
        .solution()
        .done()
        .expect("no limit");
    assert_eq!(s.nodes, solver.nodes(), "every thread's positions counted");
    (s, solver.splits())
}

/// Helpers sharing the table change the work, never the answer: the
/// puzzles of up to 16 seeds and Djenon-abe-sized middle games, solved with
/// one, two and three threads, and a resumed proof, give the same margin
/// and best moves (and the same line as one thread).
#[test]
fn helpers_and_resumed_proofs_give_the_same_answers() {
    use mancala_engine::tt::TranspositionTable;
    let mut checked = 0;
    for puzzle in parse_puzzles(files::PUZZLES).expect("the puzzle file parses") {
        let AnyPosition::Bohnenspiel(pos) = puzzle.position else {
            continue;
        };
        if pos.board_seeds() > 16 {
            continue;
        }
        let alone = Solver::new(&NoTables, 4).solve(&pos);
        for helpers in [1, 2] {
            let (s, _) = solved_on_threads(&pos, helpers, 4);
            assert_eq!((s.margin, &s.best), (puzzle.margin, &puzzle.best), "{pos}");
            // The line too: the lowest move keeping the value at each step.
            assert_eq!(s.pv, alone.pv, "{pos}");
        }
        checked += 1;
    }
    assert!(checked >= 30, "only {checked} puzzles of up to 16 seeds");
    // A proof big enough for the threads to share nodes out (Bohnenspiel
    // with two seeds a pit): the same margin, moves and line as one thread.
    let pos: Position<Bohnenspiel> = "bohnenspiel 2,2,2,2,2,2/2,2,2,2,2,2 S 24-24"
        .parse()
        .unwrap();
    let alone = Solver::new(&NoTables, 16).solve(&pos);
    for helpers in [1, 3] {
        let (s, splits) = solved_on_threads(&pos, helpers, 16);
        assert_eq!(
            (s.margin, &s.best, &s.pv),
            (alone.margin, &alone.best, &alone.pv)
        );
        assert!(splits > 10, "{splits} split points");
    }
    // A proof stopped by a node limit and resumed from its bounds in the
    // same table ends where one proof in one go does.
    let pos: Position<Bohnenspiel> = "bohnenspiel 2,2,2,2,2,2/2,2,2,2,2,2 S 24-24"
        .parse()
        .unwrap();
    let whole = Solver::new(&NoTables, 16).solve(&pos);
    let tt = TranspositionTable::new(16);
    let mut bounds = None;
    let mut sessions = 0;
    let s = loop {
        sessions += 1;
        assert!(sessions < 200);
        let mut solver = Solver::with_table(&NoTables, &tt);
        if let Some(b) = bounds {
            solver.resume_from(b);
        }
        match solver.prove(&pos).nodes(100_000).helpers(1).solution() {
            Proof::Done(s) => break s,
            Proof::Stopped => bounds = Some(solver.root_bounds()),
        }
    };
    assert!(sessions > 2, "{sessions}");
    assert_eq!((s.margin, &s.best), (whole.margin, &whole.best));
}

/// A game of a match (Oware, depth 8 against 50,000 nodes) that reached
/// `oware 0,0,1,0,1,1/0,0,0,1,0,1 N 17-26` for the second time, its
/// move 12 leading to a position met twice before. The solver scored the
/// root itself as a repetition of the history (the split, +8 for North)
/// and found no move keeping that, so the search had no move to play and
/// the match stopped. The root must be searched: both moves keep +6
/// (move 12 by the third occurrence, where each side keeps its own row).
#[test]
fn a_root_met_before_in_the_history_is_searched_not_scored_as_a_cycle() {
    use mancala_engine::{Move, Oware, Status};
    let start: Position<Oware> = "oware 1,7,6,6,5,4/4,4,0,5,0,6 S 0-0".parse().unwrap();
    let moves = "1 7 4 12 4 11 6 9 2 12 6 9 4 7 3 7 5 12 4 11 3 9 5 12 4 11 1 7 2 10 5 12 1 11 \
                 1 9 4 10 5 11 2 8 2 11 5 12 1 10 3 11 2 9 5 7 4 8 5 11 3 10 4 9 5 10 6 12 5 10 \
                 6 11 1 12 2 7 4 8 5 9 3 10 1 11 2 12 6 7 5 8 4 9 6 7 3 10 1 8 5 9 4 11 5 10 2 \
                 11 3 12 6 8 4 9 5 7 2 10 3 8 4 9 1 11 2 12 1 10 5 11 3 12 6 8 2 9 1 10 4 7 5 8 \
                 3 9 2 11 4";
    let mut history = Vec::new();
    let mut pos = start;
    for pit in moves.split_whitespace() {
        history.push(pos);
        pos = pos.play(Move::from_pit(pit.parse().unwrap()));
    }
    assert_eq!(pos.to_string(), "oware 0,0,1,0,1,1/0,0,0,1,0,1 N 17-26");
    assert_eq!(history.iter().filter(|&&p| p == pos).count(), 1);
    let mut solver = Solver::new(&NoTables, 16);
    // Each move's value, proven apart with the root on the history.
    let mut below = history.clone();
    below.push(pos);
    let mut values = Vec::new();
    for (mv, child) in pos.children() {
        assert_eq!(child.status(), Status::Ongoing);
        let v = match solver.prove(&child).history(&below).value() {
            Proof::Done(v) => -v,
            Proof::Stopped => panic!("no limit was set"),
        };
        values.push((mv.pit(), v));
    }
    assert_eq!(values, [(10, 6), (12, 6)]);
    let solution = match solver.prove(&pos).history(&history).solution() {
        Proof::Done(s) => s,
        Proof::Stopped => panic!("no limit was set"),
    };
    assert_eq!(solution.margin, 6);
    let best: Vec<u8> = solution.best.iter().map(|m| m.pit()).collect();
    assert_eq!(best, [10, 12]);
    assert!(!solution.pv.is_empty());
    assert_eq!(solver.prove(&pos).history(&history).value(), Proof::Done(6));
    let Proof::Done(Some((6, mv))) = solver.prove(&pos).history(&history).best_move() else {
        panic!("a best move keeping +6");
    };
    assert!(best.contains(&mv.pit()));
    assert!(matches!(
        solver.prove(&pos).history(&history).keeping(6),
        Proof::Done(Some(_))
    ));
    assert_eq!(
        solver.prove(&pos).history(&history).keeping(7),
        Proof::Done(None)
    );
}

/// Bounds a proof is resumed from that are false (an edited checkpoint)
/// are found out by the first search that falls outside them: the proof
/// throws them away, proves the value from the whole range and says so;
/// true bounds are kept and not flagged.
#[test]
fn false_resumed_bounds_are_found_out_not_believed() {
    use mancala_engine::solve::Bounds;
    use mancala_engine::tt::TranspositionTable;
    let pos: Position<Bohnenspiel> = "bohnenspiel 1,1,2,0,1,1/1,0,2,1,0,1 S 30-31"
        .parse()
        .unwrap();
    let whole = Solver::new(&NoTables, 16).solve(&pos);
    let v = whole.margin;
    let (least, most) = pos.margin_range();
    assert!((least..=most).contains(&v), "{v} in {least}..{most}");
    let mut checked = 0;
    for (lower, upper, guess, false_bounds) in [
        (-72, v - 1, v - 1, true),
        (v + 1, 72, v + 1, true),
        (v + 2, v + 5, v + 3, true),
        (-72, v, v, false),
        (v, 72, v, false),
    ] {
        let tt = TranspositionTable::new(16);
        let mut solver = Solver::with_table(&NoTables, &tt);
        solver.resume_from(Bounds {
            lower,
            upper,
            guess,
        });
        let Proof::Done(s) = solver.prove(&pos).solution() else {
            panic!("no limit: the proof ends");
        };
        assert_eq!((s.margin, &s.best), (v, &whole.best), "{lower}..{upper}");
        assert_eq!(
            solver.resumed_bounds_failed(),
            false_bounds,
            "{lower}..{upper}"
        );
        let b = solver.root_bounds();
        assert!(b.lower <= b.upper, "{b:?}");
        checked += 1;
    }
    assert_eq!(checked, 5);
}
