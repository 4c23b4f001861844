//! The built-in engine player.

use super::player::{Player, PlayerSpec};

/// Builds the built-in engine for `spec`. The search is not on this branch
/// yet, so this reports that plainly instead of pretending.
pub fn build(spec: &PlayerSpec) -> Result<Box<dyn Player>, String> {
    Err(format!(
        "player '{}': the built-in engine is not available in this build (the search is not merged yet); use random, greedy or cmd=PROGRAM",
        spec.name
    ))
}
