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

/// Weights for every game.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct WeightSet {
    /// Bohnenspiel.
    pub bohnenspiel: Weights,
    /// Bohnenspiel (Hemprich).
    #[serde(rename = "bohnenspiel-hemprich")]
    pub bohnenspiel_hemprich: Weights,
    /// Al-manqala.
    #[serde(rename = "al-manqala")]
    pub al_manqala: Weights,
    /// Bosh.
    pub bosh: Weights,
    /// Djenon-abe.
    #[serde(rename = "djenon-abe")]
    pub djenon_abe: Weights,
}

/// A weight file that cannot be read or parsed.
#[derive(Debug, thiserror::Error)]
pub enum WeightError {
    /// The file could not be read or written.
    #[error("{path}: {source}")]
    Io {
        /// The file.
        path: String,
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
    pub fn for_game(&self, game: GameId) -> &Weights {
        match game {
            GameId::Bohnenspiel => &self.bohnenspiel,
            GameId::BohnenspielHemprich => &self.bohnenspiel_hemprich,
            GameId::AlManqala => &self.al_manqala,
            GameId::Bosh => &self.bosh,
            GameId::DjenonAbe => &self.djenon_abe,
        }
    }

    /// Parses weights from JSON text; every weight must lie within
    /// ±[`MAX_WEIGHT`].
    pub fn from_json(text: &str) -> Result<Self, WeightError> {
        let set: WeightSet = serde_json::from_str(text)?;
        for game in GameId::ALL {
            let w = set.for_game(game).as_array();
            for (feature, value) in crate::Feature::ALL.iter().zip(w) {
                if !value.is_finite() || value.abs() > MAX_WEIGHT {
                    return Err(WeightError::OutOfRange {
                        game,
                        feature: feature.name(),
                        value,
                    });
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
            path: path.display().to_string(),
            source,
        })?;
        Self::from_json(&text)
    }

    /// The weights of one game, to change them.
    pub fn for_game_mut(&mut self, game: GameId) -> &mut Weights {
        match game {
            GameId::Bohnenspiel => &mut self.bohnenspiel,
            GameId::BohnenspielHemprich => &mut self.bohnenspiel_hemprich,
            GameId::AlManqala => &mut self.al_manqala,
            GameId::Bosh => &mut self.bosh,
            GameId::DjenonAbe => &mut self.djenon_abe,
        }
    }

    /// Saves the weights to a JSON file (atomically).
    pub fn save(&self, path: &Path) -> Result<(), WeightError> {
        mancala_engine::files::write_file(path, self.to_json() + "\n").map_err(|source| {
            WeightError::Io {
                path: path.display().to_string(),
                source,
            }
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
