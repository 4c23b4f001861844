//! Named tuning constants of the search (the score unit is in
//! [`super::score`]).

use super::score::SCALE;

/// The deepest iteration the search will start (plies).
pub const MAX_DEPTH: u32 = 200;

/// Plies of search path the per-ply tables (killers, PV) can hold: the
/// deepest iteration plus room.
pub(crate) const MAX_PLY: usize = MAX_DEPTH as usize + 8;

/// Half-width of the first aspiration window, in internal units (1 seed).
pub(crate) const ASPIRATION_WINDOW: i32 = SCALE;

/// Factor the aspiration window widens by after each failure.
pub(crate) const ASPIRATION_GROWTH: i32 = 4;

/// The first iteration that uses an aspiration window.
pub(crate) const ASPIRATION_FROM_DEPTH: u32 = 4;

/// With a time limit, a new iteration starts only while less than this
/// share of the time (per cent) is gone. 80 against 50 measured stronger
/// once an unfinished iteration's better root move was played; 100
/// against 80, no better (docs/search.md).
pub(crate) const ITERATION_START_PERCENT: u32 = 80;

/// Nodes between two looks at the clock, node limit and stop flag.
pub(crate) const CHECK_EVERY: u64 = 1024;

/// Ordering bonus per seed a move captures (captures go first, largest
/// first).
pub(crate) const CAPTURE_BONUS: i32 = 1 << 20;

/// Ordering bonus of the first and second killer move of a ply.
pub(crate) const KILLER_BONUS: [i32; 2] = [1 << 19, 1 << 18];

// History scores are kept below `HISTORY_MAX`, 2^16, in `crate::history`
// beside the table it bounds (the solver orders by it too).

/// The shallowest remaining depth at which nodes use the transposition
/// table (below it a probe's cache miss costs more than it saves: from 3,
/// probes took a quarter of the time; from 4, depth 19 comes 7-25 %
/// sooner with 5 % more nodes; 5 measured alike with 11 % more nodes).
pub(crate) const TT_MIN_DEPTH: i32 = 4;

/// Internal iterative reduction: a node with at least this many plies to
/// go and no move from the transposition table is searched a ply
/// shallower. Measured against no reduction at 20 ms a move (SPRT) and on
/// the accuracy set (docs/strength.md).
pub(crate) const IIR_MIN_DEPTH: i32 = 6;

/// Late move reductions: at a node with at least this many plies to go,
/// a move that captures nothing and comes after the first
/// [`LMR_FROM_MOVE`] in the order is searched [`LMR_PLIES`] shallower
/// with the null window first, and again at full depth only if it fails
/// high. Not at the root.
pub(crate) const LMR_MIN_DEPTH: i32 = 3;

/// See [`LMR_MIN_DEPTH`]: the moves (by their place in the order) searched
/// at full depth.
pub(crate) const LMR_FROM_MOVE: usize = 2;

/// See [`LMR_MIN_DEPTH`].
pub(crate) const LMR_PLIES: i32 = 1;

/// Reverse futility pruning: the deepest remaining depth at which a node
/// off the principal variation may fail high on its evaluation alone.
/// Chosen on the accuracy set against 2 and 5 (docs/strength.md).
pub(crate) const RFP_MAX_DEPTH: i32 = 3;

/// Reverse futility pruning: how far (per ply to go) the evaluation must
/// be above beta: 2 seeds, chosen on the accuracy set against 1 and 3.
pub(crate) const RFP_MARGIN: i32 = 2 * SCALE;

/// With two threads or more: the shallowest remaining depth at which a
/// node puts off a later child another thread is searching (see
/// `deferral::Deferrals`).
pub(crate) const DEFER_MIN_DEPTH: i32 = 4;

/// Slots of the table of children being searched (a power of two).
pub(crate) const DEFER_SLOTS: usize = 1 << 15;

/// The first iteration after which a root the search has not proven, with
/// at most a third of the game's seeds on the board, is handed to the exact
/// solver (which has no horizon), with a budget of half the nodes searched
/// so far (at least half of [`PROOF_MIN_NODES`]); after a failed attempt,
/// the next waits until the nodes searched have doubled.
pub(crate) const PROOF_FROM_DEPTH: u32 = 6;

/// See [`PROOF_FROM_DEPTH`].
pub(crate) const PROOF_MIN_NODES: u64 = 20_000;

/// A root with more seeds is also handed to the solver (as for
/// [`PROOF_FROM_DEPTH`]) when an iteration from this depth on searched no
/// more nodes than the one before: a tree that no longer grows goes round
/// in cycles whose end the horizon does not reach. (Iterations that merely
/// grow slowly, as the odd and even ones of a middle game can, do not
/// count.)
pub(crate) const STAGNANT_FROM_DEPTH: u32 = 12;

/// The largest table of the solver for those attempts (MiB); a smaller one
/// (a slot per node of budget, at least 1 MiB) is made while budgets are
/// small, as a short search cannot afford to clear 16 MiB.
pub(crate) const PROOF_HASH_MB: usize = 16;
