//! A ledger worked by an MPI job (`solve --ledger FILE --mpi`): rank 0
//! keeps the ledger file, takes needed pieces from it and hands them out;
//! every rank proves them, rank 0 too (in a thread of its own), each with
//! its own transposition table and its own tables (`--dir` on its
//! machine, or one shared directory). Only rank 0 reads and writes the
//! ledger, under its lock as every process does, so independent processes
//! and other jobs may share the file.
//!
//! The messages are few and small beside a proof: a worker says it is
//! ready, rank 0 sends it a piece with the ledger as it stands (the piece's
//! interior is in it), the worker sends back what it found and whether it
//! is leaving (Ctrl-C or `--time`), rank 0 records it and sends the next
//! piece, or tells it to stop when nothing needed is left, the run's limits
//! are reached, or a proof failed. Between messages nobody spins: rank 0
//! and an idle worker look for a message every few milliseconds.
//!
//! The leader's side is `Wire` and a worker's is `Boss`, so the same
//! protocol runs over threads in the tests and over MPI on a cluster.

use std::collections::HashMap;
use std::path::Path;
use std::sync::mpsc::{channel, Receiver, Sender};
use std::time::{Duration, Instant};

use serde::{Deserialize, Serialize};

use crate::interrupt;
use mancala_engine::solve::ledger::{self, Found, Ledger, Work, WorkKind};
use mancala_engine::tablebase::{BoardValues, TableSet};
use mancala_engine::{with_position, AnyPosition, Position, Rules};

#[cfg(test)]
use super::read;
use super::{claim_for, claimant, finish, now, put, take, Plan, Prover};
use crate::tables::OpenTables;
use crate::transport::Ranks;

/// How often rank 0 and an idle worker look for a message.
const POLL: Duration = Duration::from_millis(5);

/// From rank 0 to a worker.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
enum Down {
    /// Prove `piece` (reached by `history` from the root) against the
    /// interior of `ledger` (the file's text). `split_to`: the worker's
    /// last piece was split, which began this generation.
    Work {
        ledger: String,
        piece: String,
        history: Vec<String>,
        kind: WorkKind,
        split_to: Option<u32>,
    },
    /// Take no more pieces.
    Stop,
}

/// From a worker to rank 0.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
enum Up {
    /// Ready for a piece.
    Ready,
    /// The last piece's proof; `leaving`: the worker stops (Ctrl-C or
    /// `--time`) and wants nothing more.
    Done {
        found: Found,
        nodes: u64,
        seconds: f64,
        leaving: bool,
    },
    /// The worker could not go on.
    Failed(String),
}

/// The leader's side of the messages: workers `0..workers()`.
trait Wire {
    fn workers(&self) -> usize;
    fn send(&self, to: usize, msg: Down);
    fn poll(&self) -> Option<(usize, Up)>;
}

/// A worker's side: to and from rank 0.
trait Boss {
    fn send(&self, msg: Up);
    /// The next message (waiting for it); `None` if rank 0 is gone.
    fn receive(&self) -> Option<Down>;
}

/// Workers that are threads of this process.
struct Threads {
    to: Vec<Sender<Down>>,
    from: Receiver<(usize, Up)>,
}

/// A worker thread's side of [`Threads`].
struct ThreadBoss {
    id: usize,
    to: Sender<(usize, Up)>,
    from: Receiver<Down>,
}

/// `n` workers' channels: the leader's side and each worker's.
fn threads(n: usize) -> (Threads, Vec<ThreadBoss>) {
    let (up, from) = channel();
    let (to, bosses) = (0..n)
        .map(|id| {
            let (down, rx) = channel();
            let boss = ThreadBoss {
                id,
                to: up.clone(),
                from: rx,
            };
            (down, boss)
        })
        .unzip();
    (Threads { to, from }, bosses)
}

impl Wire for Threads {
    fn workers(&self) -> usize {
        self.to.len()
    }

    fn send(&self, to: usize, msg: Down) {
        // A worker that has ended wants nothing more.
        let _ = self.to[to].send(msg);
    }

    fn poll(&self) -> Option<(usize, Up)> {
        self.from.try_recv().ok()
    }
}

impl Boss for ThreadBoss {
    fn send(&self, msg: Up) {
        let _ = self.to.send((self.id, msg));
    }

    fn receive(&self) -> Option<Down> {
        self.from.recv().ok()
    }
}

/// Rank 0's workers: itself (a thread, worker 0) and the other ranks.
struct Job<'a> {
    local: Threads,
    ranks: &'a dyn Ranks,
}

impl Wire for Job<'_> {
    fn workers(&self) -> usize {
        self.ranks.ranks()
    }

    fn send(&self, to: usize, msg: Down) {
        if to == 0 {
            self.local.send(0, msg);
        } else {
            let bytes = serde_json::to_vec(&msg).expect("a message serialises");
            self.ranks.send(to, &bytes);
        }
    }

    fn poll(&self) -> Option<(usize, Up)> {
        if let Some(m) = self.local.poll() {
            return Some(m);
        }
        let (from, bytes) = self.ranks.poll()?;
        let msg = serde_json::from_slice(&bytes)
            .unwrap_or_else(|e| Up::Failed(format!("a message rank 0 cannot read: {e}")));
        Some((from, msg))
    }
}

/// A rank's side of [`Job`].
struct RankBoss<'a>(&'a dyn Ranks);

impl Boss for RankBoss<'_> {
    fn send(&self, msg: Up) {
        let bytes = serde_json::to_vec(&msg).expect("a message serialises");
        self.0.send(0, &bytes);
    }

    fn receive(&self) -> Option<Down> {
        loop {
            if let Some((from, bytes)) = self.0.poll() {
                if from != 0 {
                    continue;
                }
                return serde_json::from_slice(&bytes).ok();
            }
            std::thread::sleep(POLL);
        }
    }
}

/// Rank 0: proves pieces in a thread of its own and hands out pieces to
/// the other ranks of `job`, until nothing needed is left or the plan's
/// limits are reached.
pub(super) fn lead<R: Rules>(
    root: &Position<R>,
    plan: &Plan,
    mut prover: Prover<'_, R>,
    job: &dyn Ranks,
) -> anyhow::Result<()> {
    eprintln!(
        "solve: ledger {} worked by {} ranks, {} thread(s) each",
        plan.file.display(),
        job.ranks(),
        plan.threads
    );
    let top = prover.top;
    let (local, mut bosses) = threads(1);
    let boss = bosses.pop().expect("one worker");
    let wire = Job { local, ranks: job };
    std::thread::scope(|s| {
        let me = s.spawn(move || serve(&boss, root, &mut prover, None));
        let led = coordinate::<R>(plan, top, &wire);
        // Worker 0 has had its stop (or its error) by now.
        let mine = me.join().expect("rank 0's prover does not panic");
        led.and(mine)
    })?;
    finish::<R>(&plan.file, plan.json)
}

/// A rank other than 0: proves what rank 0 hands it until told to stop.
pub(super) fn follow(plan: &Plan, open: OpenTables<'_>, job: &dyn Ranks) -> anyhow::Result<()> {
    let boss = RankBoss(job);
    boss.send(Up::Ready);
    let Some(first) = boss.receive() else {
        return Ok(());
    };
    let Down::Work { ledger: text, .. } = &first else {
        return Ok(());
    };
    let root: AnyPosition = match ledger::root_line(text).map(str::parse) {
        Some(Ok(root)) => root,
        _ => {
            let why = "the ledger from rank 0 has no root";
            boss.send(Up::Failed(why.to_string()));
            anyhow::bail!(why);
        }
    };
    let tables: TableSet = open(&[root.game()]);
    with_position!(root, p => {
        let t: &dyn BoardValues<_> = tables.values();
        let mut prover = Prover::new(plan, t)?;
        serve(&boss, &p, &mut prover, Some(first))
    })
}

/// A worker: proves each piece `boss` sends of the ledger of `root`
/// (`first`, if it came already; else it says it is ready) until told to
/// stop or this process is to stop. A failure is told to `boss` too.
fn serve<R: Rules>(
    boss: &dyn Boss,
    root: &Position<R>,
    prover: &mut Prover<'_, R>,
    first: Option<Down>,
) -> anyhow::Result<()> {
    let mut next = match first {
        Some(m) => Some(m),
        None => {
            boss.send(Up::Ready);
            boss.receive()
        }
    };
    while let Some(Down::Work {
        ledger,
        piece,
        history,
        kind,
        split_to,
    }) = next
    {
        if let Some(g) = split_to {
            prover.recorded(true, g);
        }
        let work = match piece_work(root, &ledger, &piece, &history, kind) {
            Ok(w) => w,
            Err(e) => {
                boss.send(Up::Failed(format!("{e:#}")));
                return Err(e);
            }
        };
        let (found, nodes, seconds) = prover.prove(&work.1, &work.0);
        let leaving = prover.done();
        boss.send(Up::Done {
            found,
            nodes,
            seconds,
            leaving,
        });
        if leaving {
            return Ok(());
        }
        next = boss.receive();
    }
    Ok(())
}

/// A piece's work as it came over the wire, of the ledger of `root`.
fn piece_work<R: Rules>(
    root: &Position<R>,
    text: &str,
    piece: &str,
    history: &[String],
    kind: WorkKind,
) -> anyhow::Result<(Ledger<R>, Work<R>)> {
    let ledger = Ledger::<R>::parse(text).map_err(|e| anyhow::anyhow!("rank 0's ledger: {e}"))?;
    if ledger.root() != root {
        anyhow::bail!(
            "rank 0's ledger is the proof of {}, not of {root}",
            ledger.root()
        );
    }
    let pos = |t: &str| {
        t.parse::<Position<R>>()
            .map_err(|e| anyhow::anyhow!("rank 0's piece '{t}': {e}"))
    };
    let work = Work {
        pos: pos(piece)?,
        history: history
            .iter()
            .map(|h| pos(h))
            .collect::<anyhow::Result<_>>()?,
        kind,
    };
    Ok((ledger, work))
}

/// Rank 0's loop: hands out pieces to the idle workers of `wire`,
/// records what they send back, and stops them all at the end.
fn coordinate<R: Rules>(plan: &Plan, top: u32, wire: &dyn Wire) -> anyhow::Result<()> {
    let file: &Path = &plan.file;
    let n = wire.workers();
    let who = claimant();
    let mut active = n;
    let mut idle: Vec<usize> = Vec::new();
    let mut busy: HashMap<usize, Work<R>> = HashMap::new();
    let mut prefer: Vec<Option<Position<R>>> = vec![None; n];
    let mut split_to: Vec<Option<u32>> = vec![None; n];
    let mut proofs = 0u64;
    let mut failure: Option<anyhow::Error> = None;
    let mut dry = false;
    while active > 0 {
        let past = interrupt::requested() || plan.deadline.is_some_and(|d| Instant::now() >= d);
        let mut waiting = Vec::new();
        for w in std::mem::take(&mut idle) {
            let stopping = failure.is_some() || past || proofs + busy.len() as u64 >= plan.pieces;
            if stopping {
                wire.send(w, Down::Stop);
                active -= 1;
                continue;
            }
            let until = now() + claim_for(plan);
            match take::<R>(file, top, &who, until, prefer[w].as_ref()) {
                Ok((Some(work), ledger)) => {
                    wire.send(
                        w,
                        Down::Work {
                            ledger: ledger.format(),
                            piece: work.pos.to_string(),
                            history: work.history.iter().map(|p| p.to_string()).collect(),
                            kind: work.kind,
                            split_to: split_to[w].take(),
                        },
                    );
                    busy.insert(w, work);
                }
                Ok((None, _)) => waiting.push(w),
                Err(e) => {
                    failure = Some(e);
                    wire.send(w, Down::Stop);
                    active -= 1;
                }
            }
        }
        idle = waiting;
        if busy.is_empty() && !idle.is_empty() && idle.len() == active {
            // Nothing in flight can make more work: the end.
            dry = true;
            for w in idle.drain(..) {
                wire.send(w, Down::Stop);
                active -= 1;
            }
            continue;
        }
        let Some((from, msg)) = wire.poll() else {
            std::thread::sleep(POLL);
            continue;
        };
        match msg {
            Up::Ready => idle.push(from),
            Up::Done {
                found,
                nodes,
                seconds,
                leaving,
            } => {
                let Some(work) = busy.remove(&from) else {
                    failure = Some(anyhow::anyhow!("rank {from} sent a proof of nothing"));
                    active -= 1;
                    continue;
                };
                let legal = found.legal_in(&work.pos).ok_or_else(|| {
                    anyhow::anyhow!("rank {from}: a proof of {} gave an illegal move", work.pos)
                });
                let recorded = legal.and_then(|found| {
                    put(
                        file,
                        &format!("rank {from}: "),
                        &work,
                        (found, nodes, seconds),
                    )
                });
                match recorded {
                    Ok((split, after)) => {
                        proofs += 1;
                        prefer[from] = split.then_some(work.pos);
                        split_to[from] = split.then_some(after.generation());
                    }
                    Err(e) => failure = Some(e),
                }
                if leaving {
                    active -= 1;
                } else {
                    idle.push(from);
                }
            }
            Up::Failed(why) => {
                busy.remove(&from);
                failure = Some(anyhow::anyhow!("rank {from}: {why}"));
                active -= 1;
            }
        }
    }
    if let Some(e) = failure {
        return Err(e);
    }
    if dry {
        eprintln!("solve: no needed piece is left");
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use mancala_engine::solve::Solver;
    use mancala_engine::tablebase::NoTables;
    use mancala_engine::Bohnenspiel;
    use mancala_engine::Move;
    use std::path::PathBuf;

    fn plan(file: PathBuf, pieces: u64) -> Plan {
        Plan {
            file,
            root: None,
            depth: 2,
            hash: 16,
            threads: 1,
            piece_time: None,
            piece_nodes: 20_000,
            deadline: None,
            pieces,
            status: false,
            estimate: None,
            json: false,
        }
    }

    /// Three workers over threads prove a ledger with the protocol of the
    /// MPI job, stopped after a few pieces and resumed, to the solver's
    /// value.
    #[test]
    fn workers_over_the_wire_prove_the_solvers_value() {
        let root: Position<Bohnenspiel> = "bohnenspiel 1,2,0,3,1,2/2,0,1,1,3,0 S 30-26"
            .parse()
            .unwrap();
        let expected = Solver::new(&NoTables, 4).solve(&root).margin;
        let file = std::env::temp_dir().join(format!("mancala-ranks-{}.txt", std::process::id()));
        let ledger = Ledger::new(root, 2).unwrap();
        super::super::write(&file, &ledger).unwrap();
        let mut proofs = Vec::new();
        for pieces in [3, u64::MAX] {
            let plan = plan(file.clone(), pieces);
            let (wire, bosses) = threads(3);
            std::thread::scope(|s| {
                for boss in bosses {
                    let plan = &plan;
                    s.spawn(move || {
                        let mut prover = Prover::new(plan, &NoTables).unwrap();
                        serve(&boss, &root, &mut prover, None).unwrap();
                    });
                }
                coordinate::<Bohnenspiel>(&plan, 0, &wire).unwrap();
            });
            let l = read::<Bohnenspiel>(&file).unwrap();
            let c = l.counts();
            proofs.push(c.solved + c.proven + c.split);
        }
        assert_eq!(proofs[0], 3, "the first run stops after 3 proofs");
        let l = read::<Bohnenspiel>(&file).unwrap();
        assert_eq!(l.standing().solved, (expected, expected));
        // Whether a piece splits depends on which worker took which piece
        // before it (each keeps its table): splitting is tested where it
        // is deterministic (engine/solve/src/ledger.rs, ledger_cli.rs).
        assert!(l.pieces().iter().all(|p| p.claim.is_none()));
        std::fs::remove_file(&file).unwrap();
    }

    #[test]
    fn messages_read_back_as_sent() {
        let msgs = [
            Up::Ready,
            Up::Done {
                found: Found::Value {
                    value: -4,
                    best: Move::from_pit(3),
                    tables: 30,
                    generation: 2,
                },
                nodes: 7,
                seconds: 0.5,
                leaving: true,
            },
            Up::Failed("x".into()),
        ];
        for m in msgs {
            let text = serde_json::to_vec(&m).unwrap();
            assert_eq!(serde_json::from_slice::<Up>(&text).unwrap(), m);
        }
        let d = Down::Work {
            ledger: "root x".into(),
            piece: "p".into(),
            history: vec!["a".into()],
            kind: WorkKind::Check { below: 28 },
            split_to: Some(4),
        };
        let text = serde_json::to_vec(&d).unwrap();
        assert_eq!(serde_json::from_slice::<Down>(&text).unwrap(), d);
    }
}
