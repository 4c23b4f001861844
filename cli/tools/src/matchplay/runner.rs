//! The match runner: schedules game pairs (one opening, colours swapped)
//! for every pairing of players, plays them on worker threads, and keeps
//! the statistics as results come in. SPRT can stop the match early.

use std::collections::{HashMap, VecDeque};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{mpsc, Mutex};
use std::thread;

use mancala_engine::{AnyPosition, Side};
use rand::seq::SliceRandom;
use rand::SeedableRng;

use super::game::{play_unit, End, Outcome, Unit};
use super::player::{BuildError, Player};
use super::spec::PlayerSpec;
use super::stats::{penta_estimate, Estimate, Penta, Sprt, SprtState, Wdl};

/// Everything a match needs.
#[derive(Clone, Debug)]
pub struct Config {
    /// The unit every game is (single game, Partie, Bosh match).
    pub unit: Unit,
    /// The players.
    pub players: Vec<PlayerSpec>,
    /// Who plays whom: indices into `players`, first the one whose results
    /// are reported.
    pub pairings: Vec<(usize, usize)>,
    /// Games per pairing (even: each opening twice, colours swapped).
    pub games: u32,
    /// Games played at once.
    pub concurrency: usize,
    /// Seed for the opening order and the random players.
    pub seed: u64,
    /// The ply cap.
    pub ply_cap: usize,
    /// Opening positions (at least one).
    pub openings: Vec<AnyPosition>,
    /// Stop early by SPRT (only with a single pairing).
    pub sprt: Option<Sprt>,
}

/// One scheduled game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Job {
    /// 1-based game number in schedule order.
    pub number: u32,
    /// Index into [`Config::pairings`].
    pub pairing: usize,
    /// Pair number within the pairing.
    pub pair: u32,
    /// 0: the pairing's first player is South; 1: colours swapped.
    pub leg: u8,
    /// The opening played.
    pub opening: AnyPosition,
    /// The seed handed to the players.
    pub seed: u64,
}

impl Job {
    /// The seat of the pairing's first player.
    pub fn first_seat(&self) -> Side {
        if self.leg == 0 {
            Side::South
        } else {
            Side::North
        }
    }
}

/// A finished game.
#[derive(Clone, Debug)]
pub struct Finished {
    /// What was played.
    pub job: Job,
    /// How it went.
    pub outcome: Outcome,
}

impl Finished {
    /// What the statistics count of this game.
    pub fn tally(&self) -> Tally {
        let end = &self.outcome.end;
        let forfeited_by = match end {
            End::Forfeit { seat, .. } => Some(*seat),
            _ => None,
        };
        Tally::of(&self.job, self.outcome.winner, forfeited_by, end.is_cycle())
    }
}

/// What the statistics count of one game: its pairing and pair, the half
/// points of the pairing's first player, who forfeited and whether a cycle
/// or the ply cap ended it. A game of an earlier run (`match --resume`)
/// is counted from this alone.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Tally {
    /// Index into [`Config::pairings`].
    pub pairing: usize,
    /// Pair number within the pairing.
    pub pair: u32,
    /// Half points (0, 1, 2) of the pairing's first player.
    pub half: u8,
    /// A forfeit: `true` if by the pairing's first player.
    pub forfeit: Option<bool>,
    /// Ended by the cycle rule or the ply cap.
    pub cycle: bool,
}

impl Tally {
    /// Game `job` as counted: `winner` won (`None`: a draw), the player in
    /// seat `forfeited_by` forfeited (if one did), and `cycle` says whether
    /// the cycle rule or the ply cap ended it. Both a game just played
    /// ([`Finished::tally`]) and one read back by `--resume` are counted
    /// through this.
    pub fn of(job: &Job, winner: Option<Side>, forfeited_by: Option<Side>, cycle: bool) -> Tally {
        let first = job.first_seat();
        Tally {
            pairing: job.pairing,
            pair: job.pair,
            half: match winner {
                None => 1,
                Some(s) if s == first => 2,
                Some(_) => 0,
            },
            forfeit: forfeited_by.map(|seat| seat == first),
            cycle,
        }
    }
}

/// Statistics of one pairing, from its first player's view.
#[derive(Clone, Debug, Default)]
pub struct PairingStats {
    /// Games won, drawn and lost.
    pub wdl: Wdl,
    /// Complete game pairs by points.
    pub penta: Penta,
    /// Forfeits by the first and second player.
    pub forfeits: [u32; 2],
    /// Units ended by the cycle rule or the ply cap (last game).
    pub cycles: u32,
    /// The Elo estimate after every complete pair: (games, estimate).
    pub history: Vec<(u32, Estimate)>,
    /// The SPRT log-likelihood ratio after every complete pair.
    pub llr_history: Vec<(u32, f64)>,
    pending: HashMap<u32, u8>,
}

/// The match at its end.
#[derive(Clone, Debug)]
pub struct Summary {
    /// Per pairing, in [`Config::pairings`] order.
    pub stats: Vec<PairingStats>,
    /// Games counted.
    pub games: u32,
    /// The SPRT verdict and final LLR, if one was run.
    pub sprt: Option<(SprtState, f64)>,
    /// Games that were running when the SPRT (or Ctrl-C) stopped the
    /// match; not counted.
    pub discarded: u32,
    /// Whether Ctrl-C stopped the match.
    pub interrupted: bool,
}

fn splitmix(mut x: u64) -> u64 {
    x = x.wrapping_add(0x9e37_79b9_7f4a_7c15);
    x = (x ^ (x >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    x ^ (x >> 31)
}

/// The schedule: pairs in order, all pairings interleaved, each pair's two
/// legs one after the other. Openings are shuffled by the seed; pair `p`
/// plays opening `p` (cycling) in every pairing.
pub fn schedule(config: &Config) -> Vec<Job> {
    let mut openings = config.openings.clone();
    let mut rng = rand::rngs::StdRng::seed_from_u64(config.seed);
    openings.shuffle(&mut rng);
    let mut jobs = Vec::new();
    for pair in 0..config.games / 2 {
        for pairing in 0..config.pairings.len() {
            for leg in 0..2u8 {
                let number = jobs.len() as u32 + 1;
                jobs.push(Job {
                    number,
                    pairing,
                    pair,
                    leg,
                    opening: openings[pair as usize % openings.len()],
                    seed: splitmix(config.seed ^ splitmix(number as u64)),
                });
            }
        }
    }
    jobs
}

enum Message {
    Done(Box<Finished>),
    Failed(BuildError),
}

fn worker(
    config: &Config,
    queue: &Mutex<VecDeque<Job>>,
    stop: &AtomicBool,
    tx: mpsc::SyncSender<Message>,
) {
    let mut players: Vec<Option<Box<dyn Player>>> = config.players.iter().map(|_| None).collect();
    loop {
        // An interrupt starts no new game (the counting thread clears the
        // queue only when the next result comes in).
        if stop.load(Ordering::Relaxed) || crate::interrupt::requested() {
            return;
        }
        let Some(job) = queue.lock().expect("queue").pop_front() else {
            return;
        };
        let (a, b) = config.pairings[job.pairing];
        let (south, north) = if job.leg == 0 { (a, b) } else { (b, a) };
        let mut take = |i: usize| match players[i].take() {
            Some(p) => Ok(p),
            None => config.players[i].build(),
        };
        let (mut s, mut n) = match (take(south), take(north)) {
            (Ok(s), Ok(n)) => (s, n),
            (Err(e), _) | (_, Err(e)) => {
                let _ = tx.send(Message::Failed(e));
                return;
            }
        };
        let outcome = play_unit(
            job.opening,
            config.unit,
            &mut [s.as_mut(), n.as_mut()],
            job.seed,
            config.ply_cap,
        );
        players[south] = Some(s);
        players[north] = Some(n);
        if tx
            .send(Message::Done(Box::new(Finished { job, outcome })))
            .is_err()
        {
            return;
        }
    }
}

/// A player's standing over all its games.
#[derive(Clone, Debug, PartialEq)]
pub struct Standing {
    /// The player's index in [`Config::players`].
    pub player: usize,
    /// Games played.
    pub games: u32,
    /// Points per game (`None` before any game).
    pub score: Option<f64>,
}

/// Each player's score over all its games, best first.
pub fn standings(config: &Config, stats: &[PairingStats]) -> Vec<Standing> {
    let mut table: Vec<(usize, u32, f64)> =
        (0..config.players.len()).map(|i| (i, 0, 0.0)).collect();
    for (k, &(a, b)) in config.pairings.iter().enumerate() {
        let w = &stats[k].wdl;
        let pa = w.wins as f64 + 0.5 * w.draws as f64;
        table[a].1 += w.games();
        table[a].2 += pa;
        table[b].1 += w.games();
        table[b].2 += w.games() as f64 - pa;
    }
    table.sort_by(|x, y| {
        let s = |t: &(usize, u32, f64)| if t.1 == 0 { 0.0 } else { t.2 / t.1 as f64 };
        s(y).total_cmp(&s(x))
    });
    table
        .into_iter()
        .map(|(player, games, points)| Standing {
            player,
            games,
            score: (games > 0).then(|| points / games as f64),
        })
        .collect()
}

/// Adds a game to its pairing's statistics; when it completes a pair and
/// an SPRT runs, the SPRT's new state and LLR.
fn count(stats: &mut [PairingStats], t: &Tally, sprt: Option<&Sprt>) -> Option<(SprtState, f64)> {
    let st = &mut stats[t.pairing];
    st.wdl.add(t.half);
    if let Some(first) = t.forfeit {
        st.forfeits[if first { 0 } else { 1 }] += 1;
    }
    if t.cycle {
        st.cycles += 1;
    }
    let Some(other) = st.pending.remove(&t.pair) else {
        st.pending.insert(t.pair, t.half);
        return None;
    };
    st.penta.add(other, t.half);
    if let Some(e) = penta_estimate(&st.penta) {
        st.history.push((st.wdl.games(), e));
    }
    let sprt = sprt?;
    let llr = sprt.llr_penta(&st.penta);
    st.llr_history.push((st.wdl.games(), llr));
    Some((sprt.state(llr), llr))
}

/// Runs the match, calling `on_game` after every counted game with the
/// statistics so far. `earlier` are the first games of the schedule,
/// played by an earlier run (`match --resume`, whole pairs): they are
/// counted first, and the schedule goes on after them (nothing is played
/// if they already decided the SPRT). Returns the summary, or an error if
/// a player could not be built.
pub fn run(
    config: &Config,
    earlier: &[Tally],
    mut on_game: impl FnMut(&Finished, &[PairingStats], u32),
) -> Result<Summary, BuildError> {
    let mut stats: Vec<PairingStats> = config.pairings.iter().map(|_| Default::default()).collect();
    let mut verdict = None;
    for t in earlier {
        if let Some(v) = count(&mut stats, t, config.sprt.as_ref()) {
            verdict = Some(v);
        }
    }
    let mut games = earlier.len() as u32;
    let decided = verdict.is_some_and(|(state, _)| state != SprtState::Continue);
    let jobs = schedule(config);
    let total = jobs.len() as u32;
    let skip = if decided { jobs.len() } else { earlier.len() };
    let queue = Mutex::new(jobs.into_iter().skip(skip).collect::<VecDeque<_>>());
    let stop = AtomicBool::new(false);
    let mut discarded = 0;
    let mut failure = None;
    thread::scope(|scope| {
        // A rendezvous channel: a worker waits until its result is counted, so
        // after an SPRT stop at most one game a worker is left uncounted.
        let (tx, rx) = mpsc::sync_channel(0);
        for _ in 0..config.concurrency.max(1) {
            let tx = tx.clone();
            let (queue, stop) = (&queue, &stop);
            scope.spawn(move || worker(config, queue, stop, tx));
        }
        drop(tx);
        for message in rx {
            let finished = match message {
                Message::Done(f) => f,
                Message::Failed(e) => {
                    failure.get_or_insert(e);
                    stop.store(true, Ordering::Relaxed);
                    continue;
                }
            };
            let interrupted = crate::interrupt::requested();
            if interrupted && !stop.swap(true, Ordering::Relaxed) {
                queue.lock().expect("queue").clear();
            }
            // After an interrupt a game that ended by the rules still
            // counts; one the interrupt cut short (adjudicated, or a player
            // stopped mid-move) does not, nor any game after an SPRT stop.
            let finished_by_rules = matches!(finished.outcome.end, End::Rules | End::Repetition);
            let sprt_stopped = verdict.is_some_and(|(state, _)| state != SprtState::Continue);
            if stop.load(Ordering::Relaxed) && (sprt_stopped || !(interrupted && finished_by_rules))
            {
                discarded += 1;
                continue;
            }
            games += 1;
            if let Some((state, llr)) = count(&mut stats, &finished.tally(), config.sprt.as_ref()) {
                verdict = Some((state, llr));
                if state != SprtState::Continue {
                    stop.store(true, Ordering::Relaxed);
                    queue.lock().expect("queue").clear();
                }
            }
            on_game(&finished, &stats, total);
        }
    });
    if let Some(e) = failure {
        return Err(e);
    }
    if config.sprt.is_some() && verdict.is_none() {
        verdict = Some((SprtState::Continue, 0.0));
    }
    Ok(Summary {
        stats,
        games,
        sprt: verdict,
        discarded,
        interrupted: crate::interrupt::requested(),
    })
}
