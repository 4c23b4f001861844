//! The game file of `mancala match --out`: one JSON line a game, written
//! as each game finishes ([`game_line`]), and read back by `--resume`
//! ([`read_back`]), which checks every line against the match's own
//! schedule and counts the whole pairs. The format is in
//! `docs/strength.md` ("Output").

use std::collections::BTreeMap;

use mancala_engine::files;
use mancala_engine::pgn::{self, WrittenGame};
use mancala_engine::{AnyPosition, Move, Side};
use serde::{Deserialize, Serialize};

use super::game::{End, Round, Unit};
use super::player::Fault;
use super::runner::{self, Config, Finished, Job, Tally};
use crate::bad::bad;

/// One line of `--out`.
#[derive(Serialize)]
struct GameLine<'a> {
    game: u32,
    south: &'a str,
    north: &'a str,
    opening: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    moves: Option<&'a [u8]>,
    #[serde(skip_serializing_if = "Option::is_none")]
    result: Option<Option<[u8; 2]>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    rounds: Option<&'a [Round]>,
    #[serde(skip_serializing_if = "Option::is_none")]
    points: Option<[u32; 2]>,
    winner: Option<&'static str>,
    end: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    detail: Option<String>,
}

/// The names of the players in `job`'s seats: (South, North).
pub fn seat_names<'a>(config: &'a Config, job: &Job) -> (&'a str, &'a str) {
    let (a, b) = config.pairings[job.pairing];
    let (a, b) = (&config.players[a].name, &config.players[b].name);
    if job.first_seat() == Side::South {
        (a, b)
    } else {
        (b, a)
    }
}

/// The line of `--out` for a finished game (or Partie, or Bosh match).
pub fn game_line(config: &Config, f: &Finished) -> String {
    let (south, north) = seat_names(config, &f.job);
    let o = &f.outcome;
    let single = config.unit == Unit::Game;
    let line = GameLine {
        game: f.job.number,
        south,
        north,
        opening: f.job.opening.to_string(),
        moves: single.then(|| o.rounds.first().map_or(&[][..], |r| &r.moves[..])),
        result: single.then(|| o.rounds.first().and_then(|r| r.result)),
        rounds: (!single).then_some(&o.rounds[..]),
        points: (!single).then_some(o.points),
        winner: o.winner.map(Side::name),
        end: o.end.name(),
        detail: match &o.end {
            End::Forfeit { seat, fault } => Some(format!("{} {fault}", seat.name())),
            _ => None,
        },
    };
    serde_json::to_string(&line).expect("serialisable")
}

/// One line of an earlier run's `--out`, as `--resume` reads it.
#[derive(Deserialize)]
struct PlayedLine {
    game: u32,
    south: String,
    north: String,
    opening: String,
    winner: Option<String>,
    end: String,
    detail: Option<String>,
}

/// What `--resume` takes from an earlier run's `--out`: the games of its
/// whole pairs, in the schedule's order, and their lines as the file
/// will now hold them.
#[derive(Debug, PartialEq)]
pub struct Resumed {
    /// The games kept, as the statistics count them.
    pub tallies: Vec<Tally>,
    /// Their lines, each ended by a newline.
    pub kept: String,
    /// How many games were kept: those numbered 1 to this.
    pub games: u32,
}

/// A line of the file that is not a game of this match.
#[derive(Debug, thiserror::Error)]
#[error("line {line}: {what}")]
pub struct GameFileError {
    /// The line, from 1.
    pub line: usize,
    /// What is wrong with it.
    pub what: String,
}

/// Reads an earlier run's `--out` (its text) for `--resume`: every game
/// must be the one this match's schedule has under its number (the same
/// players, seats and opening); games are kept up to the last whole block
/// of pairs (every pairing's pair), those after it dropped. A last line
/// cut short (a run killed while writing it) is dropped too.
pub fn read_back(config: &Config, text: &str) -> Result<Resumed, GameFileError> {
    let jobs = runner::schedule(config);
    let lines: Vec<&str> = text.lines().collect();
    let mut games = BTreeMap::new();
    for (i, line) in lines.iter().enumerate() {
        let at = |what: String| GameFileError { line: i + 1, what };
        let played: PlayedLine = match serde_json::from_str(line) {
            Ok(p) => p,
            Err(_) if i + 1 == lines.len() && !text.ends_with('\n') => break,
            Err(e) => return Err(at(format!("not a game of `--out` ({e})"))),
        };
        let job = (played.game as usize)
            .checked_sub(1)
            .and_then(|k| jobs.get(k))
            .ok_or_else(|| {
                at(format!(
                    "game {} is not in this match's schedule",
                    played.game
                ))
            })?;
        let (south, north) = seat_names(config, job);
        let opening = job.opening.to_string();
        if (
            played.south.as_str(),
            played.north.as_str(),
            &played.opening,
        ) != (south, north, &opening)
        {
            return Err(at(format!(
                "game {} was {} vs {} from {}, but in this match it is {south} vs {north} from \
                 {opening} (resume with the same game, players, --seed and openings)",
                played.game, played.south, played.north, played.opening
            )));
        }
        let side = |name: &str| match name {
            "south" => Ok(Side::South),
            "north" => Ok(Side::North),
            other => Err(at(format!("no side `{other}`"))),
        };
        let winner = played.winner.as_deref().map(side).transpose()?;
        let by_the_game = End::BY_THE_GAME
            .into_iter()
            .find(|e| e.name() == played.end);
        let forfeited_by = match (&by_the_game, played.end.as_str()) {
            (Some(_), _) => None,
            (None, kind) if Fault::KINDS.contains(&kind) => {
                let seat = played.detail.as_deref().and_then(|d| d.split(' ').next());
                Some(side(seat.unwrap_or_default())?)
            }
            (None, other) => return Err(at(format!("no end `{other}`"))),
        };
        let cycle = by_the_game.is_some_and(|e| e.is_cycle());
        let tally = Tally::of(job, winner, forfeited_by, cycle);
        if games.insert(played.game, (tally, *line)).is_some() {
            return Err(at(format!("game {} a second time", played.game)));
        }
    }
    let block = 2 * config.pairings.len() as u32;
    let whole = (1..).take_while(|n| games.contains_key(n)).count() as u32;
    let kept_games = whole - whole % block;
    // (Game numbers start at 1; `..=` also serves a file of less than a
    // block, where `1..=0` would be an inverted range.)
    let (tallies, kept): (Vec<Tally>, Vec<&str>) = games
        .range(..=kept_games)
        .map(|(_, &(tally, line))| (tally, line))
        .unzip();
    let mut kept = kept.join("\n");
    if !kept.is_empty() {
        kept.push('\n');
    }
    Ok(Resumed {
        tallies,
        kept,
        games: kept_games,
    })
}

/// The games of a finished unit in the record format: one a round.
pub fn game_records(config: &Config, f: &Finished, date: &str) -> Vec<WrittenGame> {
    let (south, north) = seat_names(config, &f.job);
    let rounds = &f.outcome.rounds;
    rounds
        .iter()
        .enumerate()
        .filter_map(|(i, r)| {
            let start: AnyPosition = r.start.parse().ok()?;
            let moves: Vec<Move> = r.moves.iter().map(|&m| Move::from_pit(m)).collect();
            let mut g = WrittenGame::new(start, &moves).ok()?;
            // Adjudicated and forfeited rounds: the result the match scored.
            g.result = r.result;
            let round = if rounds.len() > 1 || config.unit != Unit::Game {
                format!("{}.{}", f.job.number, i + 1)
            } else {
                f.job.number.to_string()
            };
            g.set_tag("Round", &round);
            g.set_tag("Date", date);
            g.set_tag("South", south);
            g.set_tag("North", north);
            g.set_tag("Termination", r.end);
            Some(g)
        })
        .collect()
}

/// The `--record` of a match resumed: its games of the first `games`
/// game numbers (those `--out` kept) are kept, the others dropped, since
/// they are played again (a round's number is `N` or `N.R`); so is a
/// last game cut short by a run killed while writing it. The file is
/// rewritten (atomically) before the match appends to it.
pub fn keep_recorded(path: &std::path::Path, games: u32) -> anyhow::Result<()> {
    let shown = path.display();
    let text = match files::read_text(path) {
        Ok(t) => t,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(()),
        Err(e) => return Err(bad(format!("--record {shown}: {e}"))),
    };
    let (read, cut) = pgn::parse_readable(&text);
    if let Some(e) = &cut {
        eprintln!(
            "match: --record {shown}: the games from {e} on are dropped (cut short or damaged)"
        );
    }
    let kept: Vec<WrittenGame> = read
        .into_iter()
        .filter(|g| {
            g.tag("Round")
                .and_then(|r| r.split('.').next()?.parse::<u32>().ok())
                .is_some_and(|n| (1..=games).contains(&n))
        })
        .collect();
    let body = if kept.is_empty() {
        String::new()
    } else {
        pgn::write(&kept) + "\n"
    };
    files::write_file(path, body).map_err(|e| bad(format!("--record {shown}: {e}")))
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use mancala_engine::{AnyPosition, GameId};

    use super::*;
    use crate::matchplay::game::{Outcome, PLY_CAP};
    use crate::matchplay::spec::PlayerSpec;

    fn config() -> Config {
        Config {
            unit: Unit::Game,
            players: vec![
                PlayerSpec::parse("random,name=a").unwrap(),
                PlayerSpec::parse("greedy,name=b").unwrap(),
            ],
            pairings: vec![(0, 1)],
            games: 6,
            concurrency: 1,
            seed: 7,
            ply_cap: PLY_CAP,
            openings: vec![AnyPosition::start(GameId::Bohnenspiel)],
            sprt: None,
        }
    }

    /// A made-up end for each game of the schedule: every kind of end,
    /// both winners, a draw.
    fn finished(config: &Config) -> Vec<Finished> {
        let ends = [
            (Some(Side::South), End::Rules),
            (None, End::Repetition),
            (
                Some(Side::South),
                End::Forfeit {
                    seat: Side::North,
                    fault: Fault::Timeout(Duration::from_millis(50)),
                },
            ),
            (None, End::PlyCap),
            (
                Some(Side::North),
                End::Forfeit {
                    seat: Side::South,
                    fault: Fault::Garbled("?".into()),
                },
            ),
            (Some(Side::North), End::Rules),
        ];
        runner::schedule(config)
            .into_iter()
            .zip(ends)
            .map(|(job, (winner, end))| Finished {
                job,
                outcome: Outcome {
                    rounds: vec![Round {
                        start: job.opening.to_string(),
                        moves: vec![3, 9],
                        result: Some([40, 32]),
                        end: end.name(),
                    }],
                    winner,
                    end,
                    points: [40, 32],
                },
            })
            .collect()
    }

    #[test]
    fn lines_written_read_back_as_the_same_games() {
        let config = config();
        let games = finished(&config);
        assert_eq!(games.len(), 6);
        let text: String = games.iter().map(|f| game_line(&config, f) + "\n").collect();
        let back = read_back(&config, &text).unwrap();
        let tallies: Vec<Tally> = games.iter().map(Finished::tally).collect();
        assert_eq!(back.tallies, tallies);
        assert_eq!(back.kept, text);
        // Cut inside the fourth line: the second pair is unfinished, and
        // only the first is kept.
        let cut = text.match_indices('\n').nth(2).unwrap().0 + 10;
        let back = read_back(&config, &text[..cut]).unwrap();
        assert_eq!(back.tallies, tallies[..2]);
        assert_eq!(back.kept.lines().count(), 2);
    }

    #[test]
    fn a_line_of_another_match_is_refused_with_its_number() {
        let config = config();
        let games = finished(&config);
        let mut lines: Vec<String> = games.iter().map(|f| game_line(&config, f)).collect();
        lines[1] = lines[1].replace("\"end\":\"repetition\"", "\"end\":\"resigned\"");
        let e = read_back(&config, &(lines.join("\n") + "\n")).unwrap_err();
        assert_eq!(e.line, 2);
        assert!(e.what.contains("no end `resigned`"), "{e}");
        let mut other = config.clone();
        other.players.swap(0, 1);
        let text = lines[..1].join("\n") + "\n";
        let e = read_back(&other, &text).unwrap_err();
        assert_eq!(e.line, 1);
        assert!(e.what.contains("resume with the same game"), "{e}");
    }

    /// A file of one game (a match stopped before the second of its first
    /// pair) keeps nothing, and so does an empty one.
    #[test]
    fn less_than_a_pair_keeps_nothing() {
        let config = config();
        let games = finished(&config);
        for text in [game_line(&config, &games[0]) + "\n", String::new()] {
            let back = read_back(&config, &text).unwrap();
            assert_eq!(
                back,
                Resumed {
                    tallies: vec![],
                    kept: String::new(),
                    games: 0,
                }
            );
        }
    }
}
