//! A player as the command line describes it (`--player` text): which
//! kind, its limits and its name ([`PlayerSpec`]), parsed and checked, and
//! built into a [`Player`].

use std::time::Duration;

use super::builtin::DEFAULT_HASH_MB;
use super::external::External;
use super::game::Unit;
use super::player::{BuildError, Greedy, Limits, Player, RandomPlayer};
use crate::bad::{bad, OrBad};
use crate::limits;
use mancala_engine::GameId;

/// Which kind of player a spec describes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Kind {
    /// Uniformly random legal moves (seeded per game).
    Random,
    /// The move with the largest immediate gain, ties to the lowest pit.
    Greedy,
    /// A program speaking the `mancala engine` line protocol.
    External {
        /// The program and its arguments.
        command: Vec<String>,
        /// How long to wait for a move before the engine forfeits.
        timeout: Duration,
    },
    /// The built-in search engine.
    Engine {
        /// Search threads.
        threads: u32,
        /// Transposition-table size in MB.
        hash: Option<u32>,
        /// Evaluation weights file.
        weights: Option<String>,
        /// Play the proven moves of a solved game: the book, then the
        /// runtime solver ([`mancala_engine::book`]), before searching.
        book: bool,
    },
}

/// A player as described on the command line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlayerSpec {
    /// The name shown in results.
    pub name: String,
    /// Which player.
    pub kind: Kind,
    /// Search limits (engine players).
    pub limits: Limits,
}

/// The longest time a player spec may give (a day).
pub const MAX_TIME: Duration = Duration::from_secs(24 * 3600);

/// A time that is not a positive duration of at most [`MAX_TIME`] (or the
/// longest time the option takes).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("'{text}' is not a positive time of at most {most} (write 50ms, 1s, 1.5s, 2m or 1h)")]
pub struct DurationError {
    /// The text given.
    pub text: String,
    /// The longest time taken, in words.
    pub most: &'static str,
}

/// Parses a duration of at most [`MAX_TIME`]: `50ms`, `1s`, `1.5s`, `2m`,
/// `1h`, or a bare number of milliseconds.
pub fn parse_duration(text: &str) -> Result<Duration, DurationError> {
    parse_duration_within(text, MAX_TIME, "a day")
}

/// [`parse_duration`] with another longest time, `most` (named `words`).
pub fn parse_duration_within(
    text: &str,
    most: Duration,
    words: &'static str,
) -> Result<Duration, DurationError> {
    let t = text.trim();
    let (num, scale) = if let Some(n) = t.strip_suffix("ms") {
        (n, 1e-3)
    } else if let Some(n) = t.strip_suffix('s') {
        (n, 1.0)
    } else if let Some(n) = t.strip_suffix("min").or_else(|| t.strip_suffix('m')) {
        (n, 60.0)
    } else if let Some(n) = t.strip_suffix('h') {
        (n, 3600.0)
    } else {
        (t, 1e-3)
    };
    match num.trim().parse::<f64>() {
        Ok(v) if v > 0.0 && v * scale <= most.as_secs_f64() => {
            Ok(Duration::from_secs_f64(v * scale))
        }
        _ => Err(DurationError {
            text: text.to_string(),
            most: words,
        }),
    }
}

/// A named strength for `mancala play --level`, weakest first. Each is a
/// fixed search limit (a player spec); their order was confirmed by
/// matches (docs/strength.md, "Play levels").
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Level {
    /// Two plies deep: sees its own captures and the reply.
    Easy,
    /// Six plies deep.
    Medium,
    /// 300,000 positions a move (about 30 ms here).
    Hard,
    /// One second a move.
    Expert,
}

impl Level {
    /// Every level, weakest first.
    pub const ALL: [Level; 4] = [Level::Easy, Level::Medium, Level::Hard, Level::Expert];

    /// The name, as `--level` takes it.
    pub const fn name(self) -> &'static str {
        match self {
            Level::Easy => "easy",
            Level::Medium => "medium",
            Level::Hard => "hard",
            Level::Expert => "expert",
        }
    }

    /// The player spec (as `--player` writes it) the level plays with.
    pub const fn spec(self) -> &'static str {
        match self {
            Level::Easy => "depth=2,book=no",
            Level::Medium => "depth=6,book=no",
            Level::Hard => "nodes=300000,book=no",
            Level::Expert => "time=1s",
        }
    }
}

/// A `--level` name that is not one of [`Level::ALL`].
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("'{0}' is not a level (easy, medium, hard or expert)")]
pub struct LevelError(pub String);

impl std::str::FromStr for Level {
    type Err = LevelError;
    fn from_str(text: &str) -> Result<Self, LevelError> {
        Level::ALL
            .into_iter()
            .find(|l| l.name().eq_ignore_ascii_case(text.trim()))
            .ok_or_else(|| LevelError(text.to_string()))
    }
}

/// A player spec that cannot be read (the grammar of `--player`).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SpecError {
    /// A part that is neither a base player nor `KEY=VALUE`.
    #[error("player '{spec}': '{part}' is not random, greedy or KEY=VALUE")]
    BadPart {
        /// The whole spec.
        spec: String,
        /// The part.
        part: String,
    },
    /// A setting the grammar does not have.
    #[error("player '{spec}': unknown setting '{part}'")]
    UnknownSetting {
        /// The whole spec.
        spec: String,
        /// The part.
        part: String,
    },
    /// A value that is not a number.
    #[error("{key}={value}: not a number")]
    NotANumber {
        /// The setting.
        key: String,
        /// Its value.
        value: String,
    },
    /// A number out of its range.
    #[error("{key}={value}: {rule}")]
    OutOfRange {
        /// The setting.
        key: &'static str,
        /// Its value.
        value: String,
        /// The range.
        rule: &'static str,
    },
    /// A bad time.
    #[error(transparent)]
    Duration(#[from] DurationError),
    /// A size beyond this machine ([`crate::limits`]).
    #[error(transparent)]
    Limit(#[from] crate::limits::LimitError),
    /// A setting given twice.
    #[error("player '{spec}': {key}= is given twice")]
    Repeated {
        /// The whole spec.
        spec: String,
        /// The setting.
        key: String,
    },
    /// `cmd=` with nothing after it.
    #[error("cmd= needs a program")]
    NoProgram,
    /// Settings that do not go together.
    #[error("player '{spec}': {why}")]
    Conflict {
        /// The whole spec.
        spec: String,
        /// What does not go with what.
        why: &'static str,
    },
}

fn number<T: std::str::FromStr>(key: &str, value: &str) -> Result<T, SpecError> {
    value.parse().map_err(|_| SpecError::NotANumber {
        key: key.to_string(),
        value: value.to_string(),
    })
}

/// The settings of a spec as [`PlayerSpec::parse`] reads them, before
/// they make a player.
#[derive(Default)]
struct Settings<'t> {
    /// `random` or `greedy`.
    base: Option<&'t str>,
    name: Option<String>,
    limits: Limits,
    command: Option<Vec<String>>,
    timeout: Option<Duration>,
    threads: Option<u32>,
    hash: Option<u32>,
    weights: Option<String>,
    book: Option<bool>,
}

impl Settings<'_> {
    /// Sets `key` to `value`; `false` if there is no such setting.
    fn set(&mut self, key: &str, value: &str) -> Result<bool, SpecError> {
        let range = |key, rule| SpecError::OutOfRange {
            key,
            value: value.to_string(),
            rule,
        };
        match key {
            "name" if !value.is_empty() => self.name = Some(value.to_string()),
            "depth" => {
                self.limits.depth = Some(crate::limits::depth("depth=", number(key, value)?)?)
            }
            "time" => self.limits.time = Some(parse_duration(value)?),
            "nodes" => match number::<u64>(key, value)? {
                0 => return Err(range("nodes", "the node budget must be at least 1")),
                n => self.limits.nodes = Some(n),
            },
            "threads" => {
                let t = crate::limits::threads("threads=", number(key, value)?)?;
                self.threads = Some(t as u32);
            }
            "hash" => {
                self.hash = Some(crate::limits::hash_mb("hash=", number(key, value)?)? as u32)
            }
            "weights" if !value.is_empty() => self.weights = Some(value.to_string()),
            "book" => {
                self.book = Some(match value {
                    "yes" | "on" => true,
                    "no" | "off" => false,
                    _ => return Err(range("book", "book= takes yes or no")),
                })
            }
            "cmd" => {
                let words: Vec<String> = value.split_whitespace().map(String::from).collect();
                if words.is_empty() {
                    return Err(SpecError::NoProgram);
                }
                self.command = Some(words);
            }
            "timeout" => self.timeout = Some(parse_duration(value)?),
            _ => return Ok(false),
        }
        Ok(true)
    }

    /// The kind of player the settings make, or why they conflict.
    fn kind(self) -> Result<Kind, &'static str> {
        let has_limits = self.limits != Limits::default();
        let engine_only = self.hash.is_some() || self.weights.is_some() || self.book.is_some();
        match (self.base, self.command) {
            (Some(_), Some(_)) => Err("cmd= cannot be combined with random/greedy"),
            (Some(b), None) => {
                if has_limits || engine_only || self.timeout.is_some() {
                    return Err(if b == "random" {
                        "random takes no search settings"
                    } else {
                        "greedy takes no search settings"
                    });
                }
                Ok(if b == "random" {
                    Kind::Random
                } else {
                    Kind::Greedy
                })
            }
            (None, Some(command)) => {
                if !has_limits {
                    return Err("an external engine needs a limit: depth=, time= or nodes=");
                }
                if engine_only || self.threads.unwrap_or(1) != 1 {
                    return Err("threads=, hash=, weights= and book= are the built-in engine's; the line protocol cannot pass them");
                }
                let timeout = self.timeout.unwrap_or_else(|| match self.limits.time {
                    Some(t) => t + Duration::from_secs(1),
                    None => Duration::from_secs(10),
                });
                Ok(Kind::External { command, timeout })
            }
            (None, None) => {
                if !has_limits {
                    return Err(
                        "say random, greedy, cmd=PROGRAM or give engine limits (depth=, time=, nodes=)",
                    );
                }
                if self.timeout.is_some() {
                    return Err("timeout= is for external engines");
                }
                Ok(Kind::Engine {
                    threads: self.threads.unwrap_or(1),
                    hash: self.hash,
                    weights: self.weights,
                    book: self.book.unwrap_or(true),
                })
            }
        }
    }
}

impl PlayerSpec {
    /// Parses a spec: `random`, `greedy`, engine settings
    /// (`depth=8,time=50ms,nodes=100000,threads=1,weights=FILE,hash=MB,book=no`), or
    /// an external program (`cmd=PROGRAM ARGS…,time=50ms[,timeout=2s]`);
    /// any of them may add `name=NAME`.
    pub fn parse(text: &str) -> Result<PlayerSpec, SpecError> {
        let mut settings = Settings::default();
        let mut seen: Vec<&str> = Vec::new();
        for part in text.split(',').map(str::trim).filter(|p| !p.is_empty()) {
            let Some((key, value)) = part.split_once('=') else {
                match part {
                    "random" | "greedy" if settings.base.is_none() => settings.base = Some(part),
                    _ => {
                        return Err(SpecError::BadPart {
                            spec: text.to_string(),
                            part: part.to_string(),
                        })
                    }
                }
                continue;
            };
            let key = key.trim();
            if seen.contains(&key) {
                return Err(SpecError::Repeated {
                    spec: text.to_string(),
                    key: key.to_string(),
                });
            }
            seen.push(key);
            if !settings.set(key, value.trim())? {
                return Err(SpecError::UnknownSetting {
                    spec: text.to_string(),
                    part: part.to_string(),
                });
            }
        }
        let limits = settings.limits;
        let name = settings.name.take();
        let kind = settings.kind().map_err(|why| SpecError::Conflict {
            spec: text.to_string(),
            why,
        })?;
        Ok(PlayerSpec {
            name: name.unwrap_or_else(|| text.to_string()),
            kind,
            limits,
        })
    }

    /// Builds a fresh player.
    pub fn build(&self) -> Result<Box<dyn Player>, BuildError> {
        match &self.kind {
            Kind::Random => Ok(Box::new(RandomPlayer::default())),
            Kind::Greedy => Ok(Box::new(Greedy)),
            Kind::External { command, timeout } => Ok(Box::new(External::new(
                command.clone(),
                self.limits,
                *timeout,
            ))),
            Kind::Engine {
                threads,
                hash,
                weights,
                book,
            } => super::builtin::build(
                &self.name,
                *threads,
                *hash,
                weights.as_deref(),
                *book,
                self.limits,
            ),
        }
    }
}

/// The players of `texts`, a name repeated numbered (`engine#2`).
pub fn players(texts: &[String]) -> anyhow::Result<Vec<PlayerSpec>> {
    let mut specs = Vec::new();
    for text in texts {
        let mut spec = PlayerSpec::parse(text).map_err(|e| bad(format!("--player: {e}")))?;
        let base = spec.name.clone();
        let mut k = 2;
        while specs.iter().any(|s: &PlayerSpec| s.name == spec.name) {
            spec.name = format!("{base}#{k}");
            k += 1;
        }
        specs.push(spec);
    }
    if specs.len() < 2 {
        return Err(bad("--player: a match needs at least two players"));
    }
    Ok(specs)
}

/// Refuses a match whose workers would start more threads or allocate
/// more table memory than the machine allows: every worker builds every
/// player, so their threads and tables add up.
pub fn check_resources(specs: &[PlayerSpec], concurrency: u32) -> anyhow::Result<()> {
    let (mut threads, mut table_mb) = (0u64, 0u64);
    for spec in specs {
        if let Kind::Engine {
            threads: t, hash, ..
        } = &spec.kind
        {
            threads = threads.max(*t as u64);
            table_mb += hash.unwrap_or(DEFAULT_HASH_MB) as u64;
        }
    }
    limits::threads(
        "--concurrency times the players' threads=",
        concurrency as u64 * threads.max(1),
    )
    .or_bad()?;
    limits::memory(
        &format!("{concurrency} workers with the players' tables"),
        (concurrency as u64 * table_mb) << 20,
    )
    .or_bad()?;
    Ok(())
}

/// `unit`, if `game` has it: a Partie is Bohnenspiel's (and Hemprich's),
/// a match of rounds is Bosh's.
pub fn unit_for(game: GameId, unit: Unit) -> anyhow::Result<Unit> {
    let fits = match unit {
        Unit::Game => true,
        Unit::Partie => matches!(game, GameId::Bohnenspiel | GameId::BohnenspielHemprich),
        Unit::BoshMatch => game == GameId::Bosh,
    };
    if !fits {
        let owner = if unit == Unit::Partie {
            "Bohnenspiel's"
        } else {
            "Bosh's"
        };
        return Err(bad(format!(
            "--unit {}: {owner}, not {game}'s",
            unit.name()
        )));
    }
    Ok(unit)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn levels_are_named_specs() {
        for level in Level::ALL {
            assert_eq!(level.name().parse::<Level>(), Ok(level));
            assert_eq!(level.name().to_uppercase().parse::<Level>(), Ok(level));
            assert!(PlayerSpec::parse(level.spec()).is_ok(), "{level:?}");
        }
        assert!(Level::ALL.windows(2).all(|w| w[0] < w[1]));
        assert_eq!(
            "grandmaster".parse::<Level>(),
            Err(LevelError("grandmaster".into()))
        );
    }

    #[test]
    fn durations_take_units() {
        assert_eq!(parse_duration("250"), Ok(Duration::from_millis(250)));
        assert_eq!(parse_duration("250ms"), Ok(Duration::from_millis(250)));
        assert_eq!(parse_duration("1.5s"), Ok(Duration::from_millis(1500)));
        assert_eq!(parse_duration("2m"), Ok(Duration::from_secs(120)));
        assert_eq!(parse_duration("2min"), Ok(Duration::from_secs(120)));
        assert_eq!(parse_duration("1h"), Ok(Duration::from_secs(3600)));
        for bad in ["", "0", "-1s", "25h", "1x", "NaN", "infs"] {
            assert!(parse_duration(bad).is_err(), "{bad}");
        }
        let week = Duration::from_secs(7 * 24 * 3600);
        assert!(parse_duration_within("100h", week, "a week").is_ok());
        assert!(parse_duration_within("200h", week, "a week").is_err());
    }

    #[test]
    fn specs_parse() {
        let s = PlayerSpec::parse("depth=8,time=50ms,nodes=100000,threads=1,hash=16").unwrap();
        assert_eq!(s.limits.depth, Some(8));
        assert_eq!(s.limits.time, Some(Duration::from_millis(50)));
        assert_eq!(s.limits.nodes, Some(100_000));
        assert!(matches!(
            s.kind,
            Kind::Engine {
                threads: 1,
                hash: Some(16),
                ..
            }
        ));
        assert_eq!(PlayerSpec::parse("random").unwrap().kind, Kind::Random);
        let g = PlayerSpec::parse("greedy,name=G").unwrap();
        assert_eq!((g.kind, g.name.as_str()), (Kind::Greedy, "G"));
        let e = PlayerSpec::parse("cmd=./eng --fast,time=1s").unwrap();
        assert_eq!(
            e.kind,
            Kind::External {
                command: vec!["./eng".into(), "--fast".into()],
                timeout: Duration::from_secs(2)
            }
        );
        for wrong in [
            "",
            "depth=0",
            "depth=x",
            "time=-5ms",
            "random,depth=3",
            "cmd=./e",
            "cmd=./e,depth=2,hash=4",
            "colour=red",
            "depth=3,timeout=1s",
            "greedy,random",
        ] {
            assert!(PlayerSpec::parse(wrong).is_err(), "{wrong} accepted");
        }
    }

    #[test]
    fn durations() {
        assert_eq!(parse_duration("50ms"), Ok(Duration::from_millis(50)));
        assert_eq!(parse_duration("1.5s"), Ok(Duration::from_millis(1500)));
        assert_eq!(parse_duration("20"), Ok(Duration::from_millis(20)));
        assert!(parse_duration("0s").is_err());
        assert!(parse_duration("soon").is_err());
        // Found by the player_spec fuzz target: a huge time panicked.
        assert!(parse_duration("1e300s").is_err());
        assert!(parse_duration("86401s").is_err());
        assert!(parse_duration("86400s").is_ok());
    }
}
