//! Evaluation weights, per game, loaded from and saved to JSON.

use std::path::Path;

use mancala_engine::GameId;
use serde::{Deserialize, Serialize};

/// The default weights shipped with the crate.
const DEFAULT_JSON: &str = include_str!("../weights/default.json");

/// One game's weights, in seeds per unit of each feature (see
/// [`Feature`](crate::Feature) for what each feature counts).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Weights {
    /// Banked seeds (store, captures, pool).
    pub banked: f64,
    /// Seeds in the row.
    pub row_seeds: f64,
    /// Non-empty pits (moves available).
    pub mobility: f64,
    /// Moves that capture.
    pub capture_moves: f64,
    /// Seeds the best capturing move takes at its landing pit.
    pub capture_seeds: f64,
    /// Own pits the opponent could capture.
    pub vulnerable: f64,
    /// Own empty pits the opponent's sowing reaches.
    pub feedable_empty: f64,
    /// Moves that relay (Bosh, Djenon-abe).
    pub relay: f64,
}

impl Weights {
    /// The weights in [`Feature::ALL`](crate::Feature::ALL) order.
    pub fn as_array(&self) -> [f64; crate::Feature::COUNT] {
        [
            self.banked,
            self.row_seeds,
            self.mobility,
            self.capture_moves,
            self.capture_seeds,
            self.vulnerable,
            self.feedable_empty,
            self.relay,
        ]
    }
}

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

    /// Parses weights from JSON text.
    pub fn from_json(text: &str) -> Result<Self, WeightError> {
        Ok(serde_json::from_str(text)?)
    }

    /// The weights as pretty JSON.
    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(self).expect("weights serialise")
    }

    /// Loads weights from a JSON file.
    pub fn load(path: &Path) -> Result<Self, WeightError> {
        let text = std::fs::read_to_string(path).map_err(|source| WeightError::Io {
            path: path.display().to_string(),
            source,
        })?;
        Self::from_json(&text)
    }

    /// Saves the weights to a JSON file.
    pub fn save(&self, path: &Path) -> Result<(), WeightError> {
        std::fs::write(path, self.to_json() + "\n").map_err(|source| WeightError::Io {
            path: path.display().to_string(),
            source,
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
        let missing = Path::new("/nonexistent/weights.json");
        assert!(matches!(
            WeightSet::load(missing),
            Err(WeightError::Io { .. })
        ));
    }
}
