//! Evaluation weights, per game, loaded from and saved to JSON.

use std::path::Path;

use mancala_engine::GameId;
use serde::{Deserialize, Serialize};

/// The default weights shipped with the crate.
const DEFAULT_JSON: &str = include_str!("../weights/default.json");

pub use crate::features::Weights;

/// The largest weight accepted, in seeds per unit of a feature: the largest
/// game has 98 seeds, so a larger weight can only break the scores (the
/// shipped ones are within ±2).
pub const MAX_WEIGHT: f64 = 100.0;

/// The most seeds on the board an endgame range may name (the largest
/// game has 98).
pub const MAX_SEEDS: u32 = 98;

/// Weights for every game, one set a game of [`GameId::ALL`]; written as
/// a JSON object keyed by the games' names (`eval/weights/default.json`).
/// A new game in the list of games needs its weights in that file.
#[derive(Clone, Debug, PartialEq)]
pub struct WeightSet {
    games: [GameWeights; GameId::ALL.len()],
}

/// The games' names, the keys of a weight file.
const NAMES: [&str; GameId::ALL.len()] = {
    let mut names = [""; GameId::ALL.len()];
    let mut i = 0;
    while i < names.len() {
        names[i] = GameId::ALL[i].name();
        i += 1;
    }
    names
};

impl Serialize for WeightSet {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let mut map = s.serialize_map(Some(NAMES.len()))?;
        for (name, weights) in NAMES.iter().zip(&self.games) {
            map.serialize_entry(name, weights)?;
        }
        map.end()
    }
}

impl<'de> Deserialize<'de> for WeightSet {
    /// Every game's weights, once each, and nothing else.
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct Games;
        impl<'de> serde::de::Visitor<'de> for Games {
            type Value = WeightSet;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("an object of every game's weights")
            }
            fn visit_map<A: serde::de::MapAccess<'de>>(
                self,
                mut map: A,
            ) -> Result<WeightSet, A::Error> {
                use serde::de::Error;
                let mut games: [Option<GameWeights>; GameId::ALL.len()] = Default::default();
                while let Some(key) = map.next_key::<String>()? {
                    let Some(i) = NAMES.iter().position(|n| *n == key) else {
                        return Err(A::Error::unknown_field(&key, &NAMES));
                    };
                    if games[i].is_some() {
                        return Err(A::Error::duplicate_field(NAMES[i]));
                    }
                    games[i] = Some(map.next_value()?);
                }
                let mut got = Vec::with_capacity(NAMES.len());
                for (i, g) in games.into_iter().enumerate() {
                    got.push(g.ok_or_else(|| A::Error::missing_field(NAMES[i]))?);
                }
                Ok(WeightSet {
                    games: got.try_into().expect("one a game"),
                })
            }
        }
        d.deserialize_map(Games)
    }
}

/// One game's weights: one set for every position, or an opening set and
/// an endgame set blended by the seeds left on the board.
///
/// In JSON, the plain set is the object of weights; the blended one is
/// `{"opening": {…}, "endgame": {…}, "endgame_seeds": 24, "opening_seeds":
/// 48}`.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(try_from = "serde_json::Value", into = "GameWeightsJson")]
pub struct GameWeights {
    /// The weights of the opening and middle game (of every position,
    /// without an endgame set).
    pub opening: Weights,
    /// The endgame set and where it takes over.
    pub endgame: Option<Endgame>,
}

/// The endgame weights of a [`GameWeights`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Endgame {
    /// The weights.
    pub weights: Weights,
    /// With this many seeds on the board or fewer, these weights alone.
    pub endgame_seeds: u32,
    /// With this many or more, the opening weights alone; in between, the
    /// two are blended linearly.
    pub opening_seeds: u32,
}

impl GameWeights {
    /// The same weights for every position.
    pub fn plain(weights: Weights) -> Self {
        GameWeights {
            opening: weights,
            endgame: None,
        }
    }

    /// The share of the opening weights in the evaluation of a position
    /// with `seeds` on the board: 1 without an endgame set or from
    /// `opening_seeds` up, 0 at `endgame_seeds` and below, linear between.
    pub fn opening_share(&self, seeds: u32) -> f64 {
        match self.endgame {
            None => 1.0,
            Some(e) if seeds >= e.opening_seeds => 1.0,
            Some(e) if seeds <= e.endgame_seeds => 0.0,
            Some(e) => {
                (seeds - e.endgame_seeds) as f64 / (e.opening_seeds - e.endgame_seeds) as f64
            }
        }
    }
}

/// The JSON forms of [`GameWeights`] (read by its `TryFrom`, which picks
/// the form by the `opening` key, so that an error names the field).
#[derive(Serialize)]
#[serde(untagged)]
enum GameWeightsJson {
    Blended(BlendedJson),
    Plain(Weights),
}

#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct BlendedJson {
    opening: Weights,
    endgame: Weights,
    endgame_seeds: u32,
    opening_seeds: u32,
}

/// A game's weights that do not make a [`GameWeights`].
#[derive(Debug, thiserror::Error)]
pub enum GameWeightsError {
    /// Malformed, or a weight missing or unknown.
    #[error(transparent)]
    Json(#[from] serde_json::Error),
    /// The blend's seed range is empty or past the board.
    #[error(
        "endgame_seeds {endgame_seeds} and opening_seeds {opening_seeds}: need endgame_seeds < opening_seeds <= {MAX_SEEDS}"
    )]
    Range {
        /// Where the endgame set takes over.
        endgame_seeds: u32,
        /// Where the opening set takes over.
        opening_seeds: u32,
    },
}

impl TryFrom<serde_json::Value> for GameWeights {
    type Error = GameWeightsError;

    fn try_from(json: serde_json::Value) -> Result<Self, GameWeightsError> {
        let blended = json.get("opening").is_some();
        Ok(match blended {
            false => GameWeights::plain(serde_json::from_value(json)?),
            true => {
                let b: BlendedJson = serde_json::from_value(json)?;
                if b.endgame_seeds >= b.opening_seeds || b.opening_seeds > MAX_SEEDS {
                    return Err(GameWeightsError::Range {
                        endgame_seeds: b.endgame_seeds,
                        opening_seeds: b.opening_seeds,
                    });
                }
                GameWeights {
                    opening: b.opening,
                    endgame: Some(Endgame {
                        weights: b.endgame,
                        endgame_seeds: b.endgame_seeds,
                        opening_seeds: b.opening_seeds,
                    }),
                }
            }
        })
    }
}

impl From<GameWeights> for GameWeightsJson {
    fn from(w: GameWeights) -> Self {
        match w.endgame {
            None => GameWeightsJson::Plain(w.opening),
            Some(e) => GameWeightsJson::Blended(BlendedJson {
                opening: w.opening,
                endgame: e.weights,
                endgame_seeds: e.endgame_seeds,
                opening_seeds: e.opening_seeds,
            }),
        }
    }
}

/// A weight file that cannot be read or parsed.
#[derive(Debug, thiserror::Error)]
pub enum WeightError {
    /// The file could not be read or written.
    #[error("{}: {source}", path.display())]
    Io {
        /// The file.
        path: std::path::PathBuf,
        /// What went wrong.
        source: std::io::Error,
    },
    /// The JSON is malformed or misses a weight.
    #[error("bad weights: {0}")]
    Json(#[from] serde_json::Error),
    /// A weight beyond any sensible value.
    #[error("bad weights: {game} {feature} = {value}: a weight must be a number within ±{MAX_WEIGHT} seeds")]
    OutOfRange {
        /// The game.
        game: GameId,
        /// The feature's name.
        feature: &'static str,
        /// The value.
        value: f64,
    },
}

impl Default for WeightSet {
    /// The weights shipped in `eval/weights/default.json`.
    fn default() -> Self {
        Self::from_json(DEFAULT_JSON).expect("the shipped weights parse")
    }
}

impl WeightSet {
    /// The weights of one game.
    pub fn for_game(&self, game: GameId) -> &GameWeights {
        &self.games[game.index()]
    }

    /// Parses weights from JSON text; every weight must lie within
    /// ±[`MAX_WEIGHT`].
    pub fn from_json(text: &str) -> Result<Self, WeightError> {
        let set: WeightSet = serde_json::from_str(text)?;
        for game in GameId::ALL {
            let w = set.for_game(game);
            for weights in std::iter::once(&w.opening).chain(w.endgame.as_ref().map(|e| &e.weights))
            {
                for (feature, value) in crate::Feature::ALL.iter().zip(weights.as_array()) {
                    if !value.is_finite() || value.abs() > MAX_WEIGHT {
                        return Err(WeightError::OutOfRange {
                            game,
                            feature: feature.name(),
                            value,
                        });
                    }
                }
            }
        }
        Ok(set)
    }

    /// The weights as pretty JSON.
    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(self).expect("weights serialise")
    }

    /// Loads weights from a JSON file.
    pub fn load(path: &Path) -> Result<Self, WeightError> {
        let text = mancala_engine::files::read_text(path).map_err(|source| WeightError::Io {
            path: path.to_path_buf(),
            source,
        })?;
        Self::from_json(&text)
    }

    /// The weights of one game, to change them.
    pub fn for_game_mut(&mut self, game: GameId) -> &mut GameWeights {
        &mut self.games[game.index()]
    }

    /// Saves the weights to a JSON file (atomically).
    pub fn save(&self, path: &Path) -> Result<(), WeightError> {
        mancala_engine::files::write_file(path, self.to_json() + "\n").map_err(|source| {
            WeightError::Io {
                path: path.to_path_buf(),
                source,
            }
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The shipped file is written back as it is: a game a key, in the
    /// list's order, named as in the notation.
    #[test]
    fn the_shipped_weights_write_back_unchanged() {
        assert_eq!(WeightSet::default().to_json() + "\n", DEFAULT_JSON);
    }

    /// A file without a game's weights, with one twice, or with a key that
    /// is no game, is refused, naming it.
    #[test]
    fn every_game_once_and_nothing_else() {
        let json: serde_json::Value = serde_json::from_str(DEFAULT_JSON).unwrap();
        let mut missing = json.clone();
        missing.as_object_mut().unwrap().remove("oware");
        let e = WeightSet::from_json(&missing.to_string()).unwrap_err();
        assert!(e.to_string().contains("missing field `oware`"), "{e}");
        let mut unknown = json.clone();
        unknown["owari"] = json["oware"].clone();
        let e = WeightSet::from_json(&unknown.to_string()).unwrap_err();
        assert!(e.to_string().contains("unknown field `owari`"), "{e}");
        let twice = DEFAULT_JSON.replacen("\"bosh\":", "\"bosh\": {}, \"bosh\":", 1);
        assert!(WeightSet::from_json(&twice).is_err());
    }

    #[test]
    fn default_weights_round_trip_through_json_and_a_file() {
        let w = WeightSet::default();
        assert_eq!(WeightSet::from_json(&w.to_json()).unwrap(), w);
        let path =
            std::env::temp_dir().join(format!("mancala-weights-{}.json", std::process::id()));
        w.save(&path).unwrap();
        assert_eq!(WeightSet::load(&path).unwrap(), w);
        std::fs::remove_file(&path).unwrap();
    }

    /// A blended game writes and reads back as a blended object; the other
    /// games stay plain weight objects, as the files before blending were.
    #[test]
    fn an_endgame_set_round_trips_and_bad_ranges_are_refused() {
        let mut w = WeightSet::default();
        let plain_json = w.to_json();
        let g = w.for_game_mut(GameId::Bosh);
        let mut endgame = g.opening;
        endgame.mobility = 0.75;
        g.endgame = Some(Endgame {
            weights: endgame,
            endgame_seeds: 10,
            opening_seeds: 30,
        });
        let json = w.to_json();
        assert_eq!(WeightSet::from_json(&json).unwrap(), w);
        let v: serde_json::Value = serde_json::from_str(&json).unwrap();
        assert_eq!(v["bosh"]["endgame"]["mobility"], 0.75);
        assert_eq!(v["bosh"]["opening_seeds"], 30);
        assert!(v["al-manqala"].get("opening").is_none());
        assert_eq!(
            WeightSet::from_json(&plain_json).unwrap(),
            WeightSet::default()
        );
        assert_eq!(w.for_game(GameId::Bosh).opening_share(30), 1.0);
        assert_eq!(w.for_game(GameId::Bosh).opening_share(20), 0.5);
        assert_eq!(w.for_game(GameId::Bosh).opening_share(10), 0.0);
        assert_eq!(w.for_game(GameId::Bosh).opening_share(0), 0.0);
        assert_eq!(w.for_game(GameId::AlManqala).opening_share(0), 1.0);
        for (lo, hi) in [(30, 30), (31, 30), (10, 99)] {
            let mut v = v.clone();
            v["bosh"]["endgame_seeds"] = lo.into();
            v["bosh"]["opening_seeds"] = hi.into();
            let err = WeightSet::from_json(&v.to_string())
                .unwrap_err()
                .to_string();
            assert!(err.contains("endgame_seeds"), "{err}");
        }
        let mut v = v.clone();
        v["bosh"]["endgame"]["mobility"] = 1e9.into();
        assert!(matches!(
            WeightSet::from_json(&v.to_string()),
            Err(WeightError::OutOfRange {
                feature: "mobility",
                ..
            })
        ));
        v["bosh"]["endgame"]
            .as_object_mut()
            .unwrap()
            .remove("relay");
        let err = WeightSet::from_json(&v.to_string())
            .unwrap_err()
            .to_string();
        assert!(err.contains("relay"), "{err}");
    }

    #[test]
    fn bad_weight_files_are_errors() {
        assert!(WeightSet::from_json("{}").is_err());
        assert!(WeightSet::from_json("not json").is_err());
        let mut huge: serde_json::Value =
            serde_json::from_str(&WeightSet::default().to_json()).unwrap();
        huge["bosh"]["banked"] = serde_json::json!(1e30);
        let huge = huge.to_string();
        assert!(matches!(
            WeightSet::from_json(&huge),
            Err(WeightError::OutOfRange {
                feature: "banked",
                ..
            })
        ));
        assert!(matches!(
            WeightSet::load(Path::new("/dev/zero")),
            Err(WeightError::Io { .. })
        ));
        let missing = Path::new("/nonexistent/weights.json");
        assert!(matches!(
            WeightSet::load(missing),
            Err(WeightError::Io { .. })
        ));
    }
}
