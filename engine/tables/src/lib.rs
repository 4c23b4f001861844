//! Endgame tablebases: the exact value of every board with up to `K` seeds,
//! built by retrograde analysis (Bohnenspiel, Al-manqala, Djenon-abe).
//!
//! A table holds *board values*: the seeds still to be won by the side to
//! move minus those still to be won by the opponent, future captures and the
//! end-of-game distribution included, under optimal play and the cycle rule.
//! Banked seeds do not change the best play in these games, so the final
//! margin is the tallies' difference plus the board value. North-to-move
//! boards are turned round and read as South-to-move ones.
//!
//! Only even seed counts have layers, except in Kalah: every capture takes
//! 2, 4 or 6 seeds and every start position has an even number, so an odd
//! board never occurs in a game (a hand-made one is solved by search
//! alone). Kalah's stores take seeds one at a time: every count has a
//! layer there ([`layer_step`]).
//!
//! Its files, private, each item the crate needs re-exported here:
//! - `index.rs`: the perfect index of a layer;
//! - `build.rs`: the builder, retrograde analysis layer by layer, on one
//!   machine ([`build()`]) or on a cluster ([`build_cluster`]);
//! - `retro.rs`: the same layers on one machine working back from settled
//!   positions, for a game that undoes moves ([`TablebaseRules::PARENTS`]);
//! - `file.rs`: the file format, checked on opening, memory-mapped
//!   ([`check_header`], [`Refusal`]);
//! - `probe.rs`: [`Tablebase`], the probe API;
//! - `check.rs`: verification against the solver, and puzzles;
//! - `cluster.rs`: the ranks a build runs on ([`Cluster`], [`Solo`]) and
//!   how a layer is dealt to them.

mod build;
mod check;
mod cluster;
mod file;
mod index;
mod layer;
mod narrow;
mod probe;
mod retro;

use std::path::{Path, PathBuf};

use build::{BLOCK, UNIT};

pub use check::{
    puzzle_header, puzzles, random_position, verify, LayerCheck, PuzzleError, Puzzles,
};
pub use cluster::{Cluster, Solo, ThreadCluster};
pub use file::{check_header, checksum, layer_path, LayerData, Refusal};
pub use index::{layer_size, MAX_TABLE_SEEDS};
pub use layer::{BuildEvent, LayerStats};
pub use mancala_solve::values::{BoardValues, NoTables};
pub use narrow::{FivePitTables, FivePits};
pub use probe::{Below, Erased, TableSet, Tablebase};

// For `with_table_rules!`, which expands to it.
#[doc(hidden)]
pub use mancala_rules::dispatch_game;

use mancala_rules::{AlManqala, Bohnenspiel, DjenonAbe, Kalah, KalahEmpty, Oware};
use mancala_rules::{GameId, Rules};

/// The environment variable naming the table directory.
pub const DIR_VAR: &str = "MANCALA_TB_DIR";
/// The table directory when [`DIR_VAR`] is not set (relative to the
/// working directory).
pub const DEFAULT_DIR: &str = "tablebases";

/// The table directory: `$MANCALA_TB_DIR`, else `./tablebases`.
pub fn default_dir() -> PathBuf {
    match std::env::var_os(DIR_VAR) {
        Some(d) if !d.is_empty() => PathBuf::from(d),
        _ => PathBuf::from(DEFAULT_DIR),
    }
}

/// What can go wrong with table files.
#[derive(Debug, thiserror::Error)]
pub enum TablebaseError {
    /// Reading or writing failed. (The cause is part of the message, not
    /// a separate source, so that an error chain names it once.)
    #[error("{}: {cause}", path.display())]
    Io {
        /// The file.
        path: PathBuf,
        /// The cause.
        cause: std::io::Error,
    },
    /// A file failed a check and is not used.
    #[error("{}: refused: {reason}", path.display())]
    Refused {
        /// The file.
        path: PathBuf,
        /// The check that failed.
        reason: file::Refusal,
    },
    /// A cluster build cannot go on.
    #[error(transparent)]
    Cluster(#[from] cluster::ClusterError),
    /// The memory a layer needs was refused by the system.
    #[error("the system refused the {} MiB a layer needs", bytes.div_ceil(1 << 20))]
    OutOfMemory {
        /// The bytes asked for.
        bytes: u64,
    },
    /// Tables past the largest layer a table can have were asked for.
    #[error("cannot build {seeds}-seed tables: at most {most} seeds")]
    TooManySeeds {
        /// The seed count asked for.
        seeds: u32,
        /// The most a table of the game can have.
        most: u32,
    },
}

/// The games with tablebases: board values depend only on the board and the
/// side to move. Implemented for [`Bohnenspiel`], [`AlManqala`],
/// [`DjenonAbe`], [`Kalah`], [`KalahEmpty`] and [`Oware`] (and Kalah's
/// five-pit board, [`FivePits`]); the methods are the index for the
/// game's board size.
pub trait TablebaseRules: Rules {
    /// Whether boards with an odd number of seeds occur (Kalah: a store
    /// takes single seeds; Oware: captures of 2 and 3). In the other games
    /// every capture takes an even number from an even start, so their
    /// tables have even layers only ([`layer_step`]).
    const ODD_BOARDS: bool = false;
    /// Pits a row of the boards the tables hold: the game's own, or fewer
    /// for a narrow board's tables ([`FivePits`]). A board of another
    /// width misses.
    const ROW_PITS: usize = Self::SIDE_PITS;
    /// The rank of a South-to-move board among the boards with its seeds.
    fn rank(pits: u128) -> u64;
    /// The board turned round (North's row becomes South's).
    fn mirror(pits: u128) -> u128;
    /// Calls `f(rank, pits)` for every board of `seeds` seeds with a rank in
    /// `start..end`, in rank order.
    fn walk<F: FnMut(u64, u128)>(seeds: u32, start: u64, end: u64, f: F);
    /// Whether the game gives [`parents`](Self::parents): its layers are
    /// then built on one machine by working back from settled positions
    /// (`retro.rs`) rather than in passes.
    const PARENTS: bool = false;
    /// Calls `f` with the board of every position (South to move) that has
    /// a move staying in the layer to the board `pits` (South to move, as
    /// the tables hold it): once a move. Called only where
    /// [`PARENTS`](Self::PARENTS) holds.
    #[inline]
    fn parents<F: FnMut(u128)>(_pits: u128, _f: F) {}
    /// Positions in the layer of `seeds` seeds.
    fn layer_size(seeds: u32) -> u64 {
        layer_size(Self::PITS, seeds)
    }
    /// Whether what endless play is worth depends on the board (Oware: each
    /// side keeps its own row) rather than being the board's split, worth 0
    /// to either side.
    const CYCLES_BY_BOARD: bool = false;
    /// What endless play is worth to South, to move on the board `pits`
    /// (the cycle rule, [`Rules::cycle_totals`], with nothing banked).
    #[inline]
    fn cycle_value(pits: u128) -> i32 {
        if Self::CYCLES_BY_BOARD {
            let pos = mancala_rules::Position::<Self>::from_key(pits);
            mancala_rules::margin(Self::cycle_totals(&pos), mancala_rules::Side::South)
        } else {
            0
        }
    }
}

/// [`with_rules!`](mancala_rules::with_rules) for the games with endgame tables: `$R` is a
/// [`TablebaseRules`](crate::TablebaseRules) type; the games
/// without tables take the `_ =>` arm.
#[macro_export]
macro_rules! with_table_rules {
    ($game:expr, $R:ident => $body:expr, _ => $other:expr) => {
        $crate::dispatch_game!($game, $R => $body;
            [Bohnenspiel, AlManqala, DjenonAbe, Kalah, KalahEmpty, Oware];
            BohnenspielHemprich | Bosh => $other)
    };
}

/// Whether a game has endgame tables ([`TablebaseRules`]): its board values
/// depend on the board and the side to move alone.
pub const fn has_tables(game: GameId) -> bool {
    crate::with_table_rules!(game, _R => true, _ => false)
}

macro_rules! tablebase_rules {
    ($game:ty, $pits:literal) => {
        tablebase_rules!($game, $pits, false, false, {});
    };
    ($game:ty, $pits:literal, odd) => {
        tablebase_rules!($game, $pits, true, false, {});
    };
    ($game:ty, $pits:literal, $odd:literal, $by_board:literal, {$($parents:tt)*}) => {
        impl TablebaseRules for $game {
            const ODD_BOARDS: bool = $odd;
            const CYCLES_BY_BOARD: bool = $by_board;
            $($parents)*
            #[inline(always)]
            fn rank(pits: u128) -> u64 {
                index::rank::<$pits>(pits)
            }
            #[inline(always)]
            fn mirror(pits: u128) -> u128 {
                index::mirror::<$pits>(pits)
            }
            #[inline(always)]
            fn walk<F: FnMut(u64, u128)>(seeds: u32, start: u64, end: u64, mut f: F) {
                if start >= end {
                    return;
                }
                let mut w = index::Walker::<$pits>::at(seeds, start);
                for r in start..end {
                    f(r, w.pits());
                    if r + 1 < end {
                        w.advance();
                    }
                }
            }
        }
    };
}

tablebase_rules!(Bohnenspiel, 12);
tablebase_rules!(AlManqala, 14);
tablebase_rules!(DjenonAbe, 12);
// A Kalah store takes single seeds, and Oware's captures of 2 and 3 leave
// any count: their boards take odd counts too.
tablebase_rules!(Kalah, 12, odd);
tablebase_rules!(KalahEmpty, 12, odd);
tablebase_rules!(Oware, 12, true, true, {
    const PARENTS: bool = true;
    #[inline(always)]
    fn parents<F: FnMut(u128)>(pits: u128, f: F) {
        mancala_rules::layout::oware_unsow(index::mirror::<12>(pits), f)
    }
});

/// How a layer came to be available during [`build`](fn@build).
#[derive(Clone, Debug, PartialEq)]
pub enum LayerOutcome {
    /// A valid file was already there (a resumed build).
    Loaded {
        /// The layer.
        seeds: u32,
    },
    /// The layer was built and written.
    Built(LayerStats),
}

/// Everything [`build`](fn@build) reports, for a progress display.
#[derive(Clone, Debug)]
pub enum BuildProgress {
    /// Work on a layer begins (`loaded`: a valid file was found and is used).
    Layer {
        /// The layer.
        seeds: u32,
        /// Its positions.
        positions: u64,
        /// Whether it was found on disk instead of being built.
        loaded: bool,
    },
    /// A file was found but could not be read or failed a check; the
    /// layer is rebuilt.
    Refused(std::sync::Arc<TablebaseError>),
    /// Progress inside a layer being built.
    Step(BuildEvent),
    /// A layer has been built and written.
    Built(LayerStats),
    /// Another build of the game into the same directory holds its lock
    /// (this file): the build waits for it to end.
    Waiting(PathBuf),
}

/// The step between the seed counts that have layers: 2 (the even counts),
/// or 1 in the games whose boards take odd counts too ([`TablebaseRules::ODD_BOARDS`]).
pub const fn layer_step<R: TablebaseRules>() -> usize {
    if R::ODD_BOARDS {
        1
    } else {
        2
    }
}

/// The largest seed count at most `seeds` that has a layer in `R`'s
/// tables (the even counts for a game without tables).
pub const fn top_layer<R: Rules>(seeds: u32) -> u32 {
    let step = crate::with_table_rules!(R::ID, T => layer_step::<T>(), _ => 2);
    seeds - seeds % step as u32
}

/// Builds the tables of `R` for every (even) seed count up to `max_seeds` in
/// `dir`, layer by layer, in parallel on rayon's pool. A layer whose file
/// is already there and valid is loaded instead (so a stopped build
/// resumes at the first missing layer); a damaged one is rebuilt.
pub fn build<R: TablebaseRules>(
    dir: &Path,
    max_seeds: u32,
    progress: &(dyn Fn(BuildProgress) + Sync),
) -> Result<(Tablebase<R>, Vec<LayerOutcome>), TablebaseError> {
    build::build_layers::<R>(dir, max_seeds, &Solo, (BLOCK, UNIT), progress)
}

/// [`build`](fn@build) by the ranks of `cluster`: every rank calls it with
/// the same arguments, and `dir` must be the same directory for all (a
/// shared file system). Progress is reported on every rank with the whole
/// cluster's figures (give a no-op to all but one). The files are the
/// same bytes as one machine's.
pub fn build_cluster<R: TablebaseRules>(
    dir: &Path,
    max_seeds: u32,
    cluster: &dyn Cluster,
    progress: &(dyn Fn(BuildProgress) + Sync),
) -> Result<Vec<LayerOutcome>, TablebaseError> {
    build::build_layers::<R>(dir, max_seeds, cluster, (BLOCK, UNIT), progress).map(|(_, o)| o)
}

/// Refuses a build past the largest layer a table can have.
fn check_max_seeds<R: TablebaseRules>(max_seeds: u32) -> Result<(), TablebaseError> {
    let most = MAX_TABLE_SEEDS.min(R::TOTAL as u32);
    if max_seeds > most {
        return Err(TablebaseError::TooManySeeds {
            seeds: max_seeds,
            most,
        });
    }
    Ok(())
}

/// The layer file at `path`, if it is there and valid (a damaged one is
/// reported as [`BuildProgress::Refused`], to be rebuilt).
fn find_layer<R: TablebaseRules>(
    path: &Path,
    seeds: u32,
    progress: &(dyn Fn(BuildProgress) + Sync),
) -> Option<LayerData> {
    if !path.exists() {
        return None;
    }
    match file::open_layer(path, R::ID, R::PITS, seeds, R::layer_size(seeds)) {
        Ok(data) => Some(data),
        Err(e) => {
            progress(BuildProgress::Refused(std::sync::Arc::new(e)));
            None
        }
    }
}

/// A layer [`find_layer`] found, in a build: reported as loaded, kept in
/// `tables` (for the layers above it) and counted in `outcomes`.
fn keep_found_layer<R: TablebaseRules>(
    tables: &mut Tablebase<R>,
    outcomes: &mut Vec<LayerOutcome>,
    seeds: u32,
    data: LayerData,
    progress: &(dyn Fn(BuildProgress) + Sync),
) {
    progress(BuildProgress::Layer {
        seeds,
        positions: R::layer_size(seeds),
        loaded: true,
    });
    tables.insert(seeds, data);
    outcomes.push(LayerOutcome::Loaded { seeds });
}

/// Bytes of memory a build up to `max_seeds` needs at its peak: what its
/// largest layer needs ([`layer_memory`]).
pub fn build_memory<R: TablebaseRules>(max_seeds: u32) -> u64 {
    layer_memory::<R>(top_layer::<R>(max_seeds))
}

/// Bytes of memory building layer `seeds` on one machine takes: two bytes
/// a position of the layer (its two bounds; the values go from them to the
/// file; three where the layer is worked back, `retro.rs`) plus one byte a
/// position of every smaller layer (mapped files,
/// read at random). Alone, a rank keeps no round's buffers (a thread's
/// chunk at a time, about a megabyte).
pub fn layer_memory<R: TablebaseRules>(seeds: u32) -> u64 {
    let smaller: u64 = (0..seeds)
        .step_by(layer_step::<R>())
        .map(R::layer_size)
        .sum();
    building_bytes::<R>(1) * R::layer_size(seeds) + smaller
}

/// Whether a build of `R` on `ranks` ranks works its layers back from
/// settled positions (`retro.rs`: a game that undoes moves, on one rank)
/// rather than in passes.
pub const fn works_back<R: TablebaseRules>(ranks: usize) -> bool {
    R::PARENTS && ranks <= 1
}

/// Bytes a position of the layer being built takes on a rank of a build
/// on `ranks` ranks: its two bounds, and a third byte (a count and two
/// flags) where the layer is worked back.
pub const fn building_bytes<R: TablebaseRules>(ranks: usize) -> u64 {
    if works_back::<R>(ranks) {
        3
    } else {
        2
    }
}

/// Bytes of memory a rank needs to build layer `seeds` with `ranks` ranks:
/// two bytes a position of its share (its bounds; the values go from them
/// to the file) and the buffers of a round. The smaller layers are mapped
/// files, not counted: their pages are the page cache's, shared by the
/// ranks of a machine, and read only by the scan (docs/tablebases.md, "On
/// a cluster").
pub fn cluster_layer_memory<R: TablebaseRules>(seeds: u32, ranks: usize) -> u64 {
    if works_back::<R>(ranks) {
        // One rank works back alone, with no round's buffers.
        return building_bytes::<R>(ranks) * R::layer_size(seeds);
    }
    let share = cluster::Layout::new(R::layer_size(seeds), ranks.max(1), UNIT).most();
    building_bytes::<R>(ranks) * share + 128 * BLOCK.min(share)
}

/// Builds the tables of `R` up to `max_seeds` in memory only (tests,
/// benchmarks).
///
/// # Panics
///
/// If the system refuses the memory ([`try_build_in_memory`] says so
/// instead).
pub fn build_in_memory<R: TablebaseRules>(max_seeds: u32) -> (Tablebase<R>, Vec<LayerStats>) {
    try_build_in_memory::<R>(max_seeds).expect("the memory for the tables")
}

/// [`build_in_memory`], an error if the system refuses the memory.
pub fn try_build_in_memory<R: TablebaseRules>(
    max_seeds: u32,
) -> Result<(Tablebase<R>, Vec<LayerStats>), TablebaseError> {
    let mut tables = Tablebase::<R>::empty();
    let mut stats = Vec::new();
    for seeds in (0..=max_seeds.min(MAX_TABLE_SEEDS)).step_by(layer_step::<R>()) {
        let lower = tables.entries();
        let (bounds, s) = build::build_layer::<R>(seeds, &lower, &Solo, (BLOCK, UNIT), &|_| {})?;
        tables.insert(seeds, LayerData::Owned(layer::values::<R>(seeds, &bounds)));
        stats.push(s);
    }
    Ok((tables, stats))
}
