//! The proof ledger worked to the end on one thread, against the
//! solver's own value: with the tables (a piece's `check` work sees them
//! only below its seeds) and without them (Bosh, whose small boards cycle).

use std::sync::Arc;

use mancala_engine::solve::ledger::{prove, tables_read, Ledger, WorkKind};
use mancala_engine::solve::Solver;
use mancala_engine::tablebase::{Below, BoardValues, NoTables, Tablebase};
use mancala_engine::tt::TranspositionTable;
use mancala_engine::{Bohnenspiel, Bosh, Position, Rules};

/// Works the ledger to the end on one thread, each piece within
/// `budget` positions (a piece stopped by it is split): the proofs made.
fn work<R: Rules, T: BoardValues<R> + ?Sized>(
    ledger: &mut Ledger<R>,
    tables: &T,
    top: u32,
    budget: u64,
) -> usize {
    let mut proofs = 0;
    while let Some(work) = ledger.next_work(top, &|_| true, None) {
        let limit = match work.kind {
            WorkKind::Check { below } => below,
            _ => u32::MAX,
        };
        let below = Below { tables, limit };
        let tt = TranspositionTable::new(1);
        let mut solver = Solver::with_table(&below, &tt);
        solver.set_ancestors(Arc::new(ledger.ancestors()));
        let read = tables_read(top, work.kind);
        let (found, nodes) = prove(
            &mut solver,
            0,
            &work,
            read,
            ledger.generation(),
            budget,
            &|_| false,
        );
        ledger.record(&work.pos, work.kind, found.stopped_by(true), nodes, 0.0);
        proofs += 1;
        assert!(proofs < 20_000, "the ledger does not end");
    }
    proofs
}

/// Small Bohnenspiel positions with tables to 8 seeds: the ledger's
/// root value, every piece proven twice (with the tables to 8 and to
/// 6 seeds), is the solver's.
#[test]
fn a_ledger_proof_gives_the_solvers_value() {
    let dir = std::env::temp_dir().join(format!("mancala-ledger-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let (tables, _) = mancala_engine::tablebase::build::<Bohnenspiel>(&dir, 8, &|_| {}).unwrap();
    let mut checked = 0;
    for (text, depth) in [
        ("bohnenspiel 1,2,0,3,1,2/2,0,1,1,3,0 S 30-26", 2),
        ("bohnenspiel 0,3,1,2,0,4/1,1,0,2,2,1 N 27-28", 3),
        ("bohnenspiel 2,0,2,1,1,2/1,2,2,0,2,1 S 28-28", 1),
    ] {
        let root: Position<Bohnenspiel> = text.parse().unwrap();
        let expected = Solver::new(&NoTables, 4).solve(&root).margin;
        let mut ledger = Ledger::new(root, depth).unwrap();
        work(&mut ledger, &tables, 8, u64::MAX);
        if depth == 2 {
            // A budget too small for some pieces splits them.
            let mut split = Ledger::new(root, depth).unwrap();
            work(&mut split, &tables, 8, 100);
            assert_eq!(
                split.standing().proven,
                (expected, expected),
                "{text}, split"
            );
            assert!(split.generation() >= 10, "{} splits", split.generation());
        }
        let st = ledger.standing();
        assert_eq!(st.solved, (expected, expected), "{text}");
        assert_eq!(st.proven, (expected, expected), "{text}");
        // Each first move's bounds hold the root's value for the best.
        assert!(st.moves.iter().any(|&(_, l, _)| l == expected));
        assert!(st.moves.iter().all(|&(_, _, u)| u <= expected));
        checked += 1;
    }
    assert_eq!(checked, 3);
    std::fs::remove_dir_all(&dir).unwrap();
    let _: &Tablebase<Bohnenspiel> = &tables;
}

/// Small Bosh boards cycle often: proofs lean on the interior, their
/// pieces are split, and the root's value is still the solver's.
#[test]
fn splits_and_cycles_keep_the_solvers_value() {
    let (mut splits, mut leaned_or_split) = (0, 0);
    let mut checked = 0;
    for text in [
        "bosh 1,0,2,0,0/0,1,0,2,0 S 17-17",
        "bosh 2,0,1,0,1/1,0,2,0,1 N 16-16",
        "bosh 1,1,1,1,0/0,1,1,1,1 S 16-16",
    ] {
        let root: Position<Bosh> = text.parse().unwrap();
        let expected = Solver::new(&NoTables, 4).solve(&root).margin;
        let mut ledger = Ledger::new(root, 4).unwrap();
        work(&mut ledger, &NoTables, 0, u64::MAX);
        assert_eq!(ledger.standing().solved, (expected, expected), "{text}");
        splits += ledger.generation();
        leaned_or_split += (ledger.generation() > 0) as usize;
        let again = Ledger::<Bosh>::parse(&ledger.format()).unwrap();
        assert_eq!(again.standing(), ledger.standing());
        checked += 1;
    }
    assert_eq!(checked, 3);
    assert!(splits >= 3 && leaned_or_split >= 1, "{splits} splits");
}
