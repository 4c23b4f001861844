//! Playing one scored unit between two seated players: a single game, a
//! Bohnenspiel Partie (games until 100 points) or a Bosh match (rounds
//! until a player cannot fill a pit). The cycle rule comes from
//! [`GameRecord`]; a game still running at the ply cap is adjudicated as a
//! cycle (docs/rules.md).

use mancala_engine::{
    with_position, AnyPosition, Bosh, BoshMatch, EndReason, GameRecord, Partie, Position, Rules,
    Side, Status,
};
use serde::Serialize;

use super::player::{Fault, Player, Request};

/// The match adjudication cap in plies (docs/rules.md).
pub const PLY_CAP: usize = 1000;
/// Games of a Partie, or rounds of a Bosh match, after which it is called a
/// draw (neither ever ends that late in practice: a Partie takes about
/// three games).
pub const ROUND_CAP: usize = 100;

/// What one scored unit of a match is (`match --unit`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Unit {
    /// One game (for Bosh: one round, won by the larger pool).
    Game,
    /// A Bohnenspiel Partie: games until a player has 100 points.
    Partie,
    /// A Bosh match: rounds until a player cannot fill a pit.
    BoshMatch,
}

impl Unit {
    /// The name `--unit` takes and the summary's `unit` field shows.
    pub fn name(self) -> &'static str {
        match self {
            Unit::Game => "game",
            Unit::Partie => "partie",
            Unit::BoshMatch => "bosh-match",
        }
    }
}

/// One game (or Bosh round) as played, for the game file.
#[derive(Clone, Debug, Serialize)]
pub struct Round {
    /// The start position, in the notation.
    pub start: String,
    /// The moves, as pit numbers.
    pub moves: Vec<u8>,
    /// Final totals `[south, north]`; `null` if a player forfeited.
    pub result: Option<[u8; 2]>,
    /// How it ended: `rules`, `repetition`, `plycap`, or a forfeit reason.
    pub end: &'static str,
}

/// How a unit ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum End {
    /// By the rules (game over, Partie or Bosh match decided).
    Rules,
    /// The cycle rule ended the (last) game.
    Repetition,
    /// The ply cap ended the (last) game, scored as a cycle.
    PlyCap,
    /// The Partie or Bosh match ran into [`ROUND_CAP`]: a draw.
    RoundCap,
    /// A player forfeited.
    Forfeit {
        /// The seat of the player at fault.
        seat: Side,
        /// What went wrong.
        fault: Fault,
    },
}

impl End {
    /// The ends that are not a forfeit.
    pub const BY_THE_GAME: [End; 4] = [End::Rules, End::Repetition, End::PlyCap, End::RoundCap];

    /// Whether the statistics count it as ended by a cycle (the cycle rule
    /// or the ply cap).
    pub fn is_cycle(&self) -> bool {
        matches!(self, End::Repetition | End::PlyCap)
    }

    /// The reason as written in the game file.
    pub fn name(&self) -> &'static str {
        match self {
            End::Rules => "rules",
            End::Repetition => "repetition",
            End::PlyCap => "plycap",
            End::RoundCap => "roundcap",
            End::Forfeit { fault, .. } => fault.kind(),
        }
    }
}

/// The result of a unit.
#[derive(Clone, Debug)]
pub struct Outcome {
    /// The games (rounds) played.
    pub rounds: Vec<Round>,
    /// The winning seat, `None` for a draw.
    pub winner: Option<Side>,
    /// How it ended.
    pub end: End,
    /// Partie points or Bosh pools at the end `[south, north]`; for a single
    /// game its final totals.
    pub points: [u32; 2],
}

/// A finished round: its record, final totals and how it ended.
type Played = (Round, [u8; 2], EndReason);
/// A forfeited round: its record so far, the seat at fault and the fault.
type Forfeited = (Round, Side, Fault);

/// Plays one game (round) from `start`; `players[0]` is South.
/// `Err` carries the round so far, the seat at fault and the fault.
fn play_round<R: Rules>(
    start: Position<R>,
    players: &mut [&mut dyn Player; 2],
    ply_cap: usize,
) -> Result<Played, Forfeited> {
    let mut game = GameRecord::new(start);
    let round = |game: &GameRecord<R>, result, end| Round {
        start: start.to_string(),
        moves: game.moves().iter().map(|m| m.pit()).collect(),
        result,
        end,
    };
    loop {
        if let Status::Over(totals) = game.status() {
            let reason = game.end_reason().unwrap_or(EndReason::Rules);
            let end = match reason {
                EndReason::Rules => "rules",
                EndReason::Repetition => "repetition",
                EndReason::PlyCap => "plycap",
            };
            return Ok((round(&game, Some(totals), end), totals, reason));
        }
        // After Ctrl-C the runner counts no more games: end this one now.
        if game.ply() >= ply_cap || crate::interrupt::requested() {
            game.adjudicate();
            continue;
        }
        let current = game.current();
        let seat = current.side_to_move();
        let request = Request {
            start: start.into(),
            moves: game.moves(),
            current: current.into(),
        };
        let reply = players[seat.index()].choose(&request);
        let fault = match reply {
            Ok(reply) => match game.play(reply.mv) {
                Ok(()) => continue,
                Err(_) => Fault::Illegal(reply.mv.pit()),
            },
            Err(fault) => fault,
        };
        let kind = fault.kind();
        return Err((round(&game, None, kind), seat, fault));
    }
}

fn forfeit(rounds: Vec<Round>, seat: Side, fault: Fault, points: [u32; 2]) -> Outcome {
    Outcome {
        rounds,
        winner: Some(!seat),
        end: End::Forfeit { seat, fault },
        points,
    }
}

fn widen(t: [u8; 2]) -> [u32; 2] {
    [t[0] as u32, t[1] as u32]
}

fn single<R: Rules>(start: Position<R>, players: &mut [&mut dyn Player; 2], cap: usize) -> Outcome {
    match play_round(start, players, cap) {
        Ok((round, totals, reason)) => Outcome {
            rounds: vec![round],
            winner: R::WIN.winner(totals),
            end: match reason {
                EndReason::Rules => End::Rules,
                EndReason::Repetition => End::Repetition,
                EndReason::PlyCap => End::PlyCap,
            },
            points: widen(totals),
        },
        Err((round, seat, fault)) => forfeit(vec![round], seat, fault, [0, 0]),
    }
}

fn partie<R: Rules>(first: Position<R>, players: &mut [&mut dyn Player; 2], cap: usize) -> Outcome {
    let mut partie = Partie::<R>::new();
    let mut rounds = Vec::new();
    let mut start = first;
    while rounds.len() < ROUND_CAP {
        match play_round(start, players, cap) {
            Ok((round, totals, _)) => {
                rounds.push(round);
                if let Some(winner) = partie.record(totals) {
                    return Outcome {
                        rounds,
                        winner: Some(winner),
                        end: End::Rules,
                        points: partie.points(),
                    };
                }
            }
            Err((round, seat, fault)) => {
                rounds.push(round);
                return forfeit(rounds, seat, fault, partie.points());
            }
        }
        start = partie.next_start();
    }
    Outcome {
        rounds,
        winner: None,
        end: End::RoundCap,
        points: partie.points(),
    }
}

fn bosh_match(first: Position<Bosh>, players: &mut [&mut dyn Player; 2], cap: usize) -> Outcome {
    let mut state = BoshMatch::new();
    let mut rounds = Vec::new();
    let mut start = first;
    let pools = |s: &BoshMatch| widen(s.pools);
    while rounds.len() < ROUND_CAP {
        match play_round(start, players, cap) {
            Ok((round, totals, _)) => {
                rounds.push(round);
                state.finish_round(totals);
            }
            Err((round, seat, fault)) => {
                rounds.push(round);
                return forfeit(rounds, seat, fault, pools(&state));
            }
        }
        match state.start_round() {
            Ok(next) => start = next,
            Err(end) => {
                return Outcome {
                    rounds,
                    winner: Some(!end.loser),
                    end: End::Rules,
                    points: pools(&state),
                }
            }
        }
    }
    Outcome {
        rounds,
        winner: None,
        end: End::RoundCap,
        points: pools(&state),
    }
}

/// Plays one unit from `opening` with `players[0]` as South and
/// `players[1]` as North. `seed` is handed to both players. The opening's
/// game must suit the unit (checked by the caller: Partie for the two
/// Bohnenspiel rule sets, Bosh match for Bosh).
pub fn play_unit(
    opening: AnyPosition,
    unit: Unit,
    players: &mut [&mut dyn Player; 2],
    seed: u64,
    ply_cap: usize,
) -> Outcome {
    for seat in Side::BOTH {
        if let Err(fault) = players[seat.index()].new_game(seed) {
            return forfeit(Vec::new(), seat, fault, [0, 0]);
        }
    }
    let outcome = match (unit, opening) {
        (Unit::BoshMatch, AnyPosition::Bosh(p)) => bosh_match(p, players, ply_cap),
        (Unit::Partie, _) => with_position!(opening, p => partie(p, players, ply_cap)),
        _ => with_position!(opening, p => single(p, players, ply_cap)),
    };
    if let End::Forfeit { seat, .. } = &outcome.end {
        players[seat.index()].reset();
    }
    outcome
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::matchplay::player::{Greedy, RandomPlayer, Reply};
    use mancala_engine::{GameId, Move};

    /// The name a unit shows in the summary is the one `--unit` takes.
    #[test]
    fn unit_names_are_the_option_values() {
        use clap::ValueEnum;
        let mut checked = 0;
        for unit in Unit::value_variants() {
            let value = unit.to_possible_value().expect("no unit is skipped");
            assert_eq!(value.get_name(), unit.name());
            checked += 1;
        }
        assert_eq!(checked, 3);
    }

    /// Always plays pit 1 (illegal once North is to move).
    struct PitOne;
    impl Player for PitOne {
        fn new_game(&mut self, _: u64) -> Result<(), Fault> {
            Ok(())
        }
        fn choose(&mut self, _: &Request) -> Result<Reply, Fault> {
            Ok(Reply {
                mv: Move::from_pit(1),
                score: None,
                exact: false,
                proven: false,
            })
        }
    }

    #[test]
    fn a_game_is_played_to_the_end_and_replays() {
        for game in GameId::ALL {
            let (mut a, mut b) = (RandomPlayer::default(), Greedy);
            let out = play_unit(
                AnyPosition::start(game),
                Unit::Game,
                &mut [&mut a, &mut b],
                7,
                PLY_CAP,
            );
            assert_eq!(out.rounds.len(), 1);
            let round = &out.rounds[0];
            let totals = round.result.unwrap();
            let start = AnyPosition::start(game);
            let seeds =
                start.board_seeds() + start.tallies().iter().map(|&t| t as u32).sum::<u32>();
            assert_eq!(totals[0] as u32 + totals[1] as u32, seeds);
            assert_eq!(out.winner, game.winner(totals));
            // The moves replay to the same end.
            let start: AnyPosition = round.start.parse().unwrap();
            with_position!(start, p => {
                let mut rec = GameRecord::new(p);
                for &m in &round.moves {
                    rec.play(Move::from_pit(m)).unwrap();
                }
                assert_eq!(rec.status(), Status::Over(totals));
            });
        }
    }

    #[test]
    fn the_ply_cap_adjudicates_as_a_cycle() {
        let (mut a, mut b) = (RandomPlayer::default(), RandomPlayer::default());
        let start = AnyPosition::start(GameId::Bohnenspiel);
        let out = play_unit(start, Unit::Game, &mut [&mut a, &mut b], 1, 4);
        assert_eq!(out.end, End::PlyCap);
        assert_eq!(out.rounds[0].moves.len(), 4);
        let reached = with_position!(start, p => {
            let mut pos = p;
            for &m in &out.rounds[0].moves {
                pos = pos.play(Move::from_pit(m));
            }
            pos.cycle_totals()
        });
        assert_eq!(out.rounds[0].result, Some(reached));
    }

    #[test]
    fn an_illegal_move_forfeits() {
        let (mut a, mut b) = (Greedy, PitOne);
        let start = AnyPosition::start(GameId::Bohnenspiel);
        let out = play_unit(start, Unit::Game, &mut [&mut a, &mut b], 1, PLY_CAP);
        assert_eq!(out.winner, Some(Side::South));
        assert_eq!(
            out.end,
            End::Forfeit {
                seat: Side::North,
                fault: Fault::Illegal(1)
            }
        );
        assert_eq!(out.rounds[0].moves, vec![1]);
    }

    #[test]
    fn partie_and_bosh_match_play_to_a_decision() {
        let (mut a, mut b) = (Greedy, RandomPlayer::default());
        let out = play_unit(
            AnyPosition::start(GameId::Bohnenspiel),
            Unit::Partie,
            &mut [&mut a, &mut b],
            3,
            PLY_CAP,
        );
        assert!(out.points.iter().any(|&p| p >= 100), "{:?}", out.points);
        assert!(out.rounds.len() >= 2);
        assert_eq!(out.end, End::Rules);
        let [south, north] = out.points;
        let leader = if south > north {
            Side::South
        } else {
            Side::North
        };
        assert_eq!(out.winner, Some(leader), "{:?}", out.points);
        // Partie starters alternate.
        assert!(out.rounds[1].start.contains(" N "));

        // Bosh matches from a few seeds: each ends by the rules (a player
        // cannot fill a pit) or at the round cap; those by the rules are
        // counted, and some must be.
        let mut by_rules = 0;
        for seed in 1..=6 {
            let out = play_unit(
                AnyPosition::start(GameId::Bosh),
                Unit::BoshMatch,
                &mut [&mut a, &mut b],
                seed,
                PLY_CAP,
            );
            assert!(matches!(out.end, End::Rules | End::RoundCap), "seed {seed}");
            if out.end == End::Rules {
                let loser = !out.winner.unwrap();
                assert!(out.points[loser.index()] < 4, "seed {seed}");
                by_rules += 1;
            }
            assert_eq!(out.points[0] + out.points[1], 40, "seed {seed}");
        }
        assert!(
            by_rules >= 3,
            "only {by_rules} of 6 Bosh matches ended by the rules"
        );
    }
}
