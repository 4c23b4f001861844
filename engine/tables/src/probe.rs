//! Probing: the value of a position's board, read from the layer of its
//! seed count.

use std::marker::PhantomData;
use std::path::Path;

use super::file::{layer_path, open_layer, LayerData};
use super::index::MAX_TABLE_SEEDS;
use super::{TablebaseError, TablebaseRules};
use mancala_rules::Position;
use mancala_rules::Rules;
use mancala_rules::Side;
use mancala_solve::values::{BoardValues, NoTables};

/// Exact board values for one game, layer by layer.
///
/// `probe` gives the value of the seeds still to be won by the side to
/// move: their future captures plus what the end of the game gives them,
/// minus the same for the opponent, under optimal play and the cycle rule.
/// The final margin is the tallies' difference plus this value
/// ([`probe_margin`](Self::probe_margin)).
///
/// ```no_run
/// use mancala_rules::{Bohnenspiel, Position};
/// use mancala_tables::Tablebase;
/// let (tables, refused) = Tablebase::<Bohnenspiel>::open(std::path::Path::new("tablebases"));
/// for e in refused { eprintln!("{e}"); }
/// let pos: Position<Bohnenspiel> = "bohnenspiel 0,0,0,0,1,1/1,1,0,0,0,0 S 34-34".parse().unwrap();
/// println!("{:?}", tables.probe_margin(&pos));
/// ```
pub struct Tablebase<R: TablebaseRules> {
    layers: Vec<Option<LayerData>>,
    rules: PhantomData<R>,
}

impl<R: TablebaseRules> std::fmt::Debug for Tablebase<R> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Tablebase({}, layers {:?})", R::ID, self.layer_seeds())
    }
}

impl<R: TablebaseRules> Default for Tablebase<R> {
    fn default() -> Self {
        Self::empty()
    }
}

impl<R: TablebaseRules> Tablebase<R> {
    /// No layer at all: every probe misses.
    pub fn empty() -> Self {
        Tablebase {
            layers: Vec::new(),
            rules: PhantomData,
        }
    }

    /// Opens every layer of this game found in `dir`. Files that are
    /// missing are skipped silently; files that fail a check are refused
    /// and returned as errors, and the tables go on without them.
    pub fn open(dir: &Path) -> (Self, Vec<TablebaseError>) {
        let mut tb = Self::empty();
        let mut refused = Vec::new();
        for seeds in (0..=MAX_TABLE_SEEDS).step_by(super::layer_step::<R>()) {
            let path = layer_path(dir, R::ID, seeds);
            // Not `exists()`: a dangling or looping link is listed as
            // refused, not skipped.
            if std::fs::symlink_metadata(&path).is_err() {
                continue;
            }
            match open_layer(&path, R::ID, R::PITS, seeds, R::layer_size(seeds)) {
                Ok(data) => tb.insert(seeds, data),
                Err(e) => refused.push(e),
            }
        }
        (tb, refused)
    }

    /// Adds (or replaces) a layer.
    pub fn insert(&mut self, seeds: u32, data: LayerData) {
        let i = seeds as usize;
        if self.layers.len() <= i {
            self.layers.resize_with(i + 1, || None);
        }
        self.layers[i] = Some(data);
    }

    /// The layer of `seeds` seeds, if loaded.
    pub fn layer(&self, seeds: u32) -> Option<&LayerData> {
        self.layers.get(seeds as usize).and_then(|l| l.as_ref())
    }

    /// The seed counts of the layers loaded, ascending.
    pub fn layer_seeds(&self) -> Vec<u32> {
        (0..self.layers.len() as u32)
            .filter(|&s| self.layers[s as usize].is_some())
            .collect()
    }

    /// The largest `n` such that every layer `0..=n` is loaded (every
    /// even one; every one in Kalah).
    pub fn complete_to(&self) -> Option<u32> {
        let mut top = None;
        for seeds in (0..self.layers.len() as u32).step_by(super::layer_step::<R>()) {
            if self.layers[seeds as usize].is_none() {
                break;
            }
            top = Some(seeds);
        }
        top
    }

    /// The entries of every loaded layer, indexed by seed count.
    pub(crate) fn entries(&self) -> Vec<Option<&[u8]>> {
        self.layers
            .iter()
            .map(|l| l.as_ref().map(|d| d.entries()))
            .collect()
    }

    /// The value of the board to the side to move (see the type's
    /// documentation), or `None` if its layer is not loaded (odd seed counts
    /// never are but in Kalah: captures take even numbers, so no other game
    /// reaches them) or the board is not as wide as the tables' (Kalah(m,n)
    /// with m < 6 in the full board's tables).
    #[inline]
    pub fn probe(&self, pos: &Position<R>) -> Option<i8> {
        // The tables hold one width of board (Kalah(6,n), not Kalah(m,n)
        // with fewer pits, unless they are a narrow board's).
        if pos.row_pits() != R::ROW_PITS {
            return None;
        }
        let seeds = pos.board_seeds();
        let layer = self.layers.get(seeds as usize)?.as_ref()?;
        let mut pits = pos.key() & Position::<R>::PIT_MASK;
        if pos.side_to_move() == Side::North {
            pits = R::mirror(pits);
        }
        Some(layer.entries()[R::rank(pits) as usize] as i8)
    }

    /// The final margin from the side to move's view (own total minus the
    /// opponent's, banked seeds included) under optimal play, if the layer
    /// is loaded.
    #[inline]
    pub fn probe_margin(&self, pos: &Position<R>) -> Option<i32> {
        self.margin(pos)
    }
}

impl<R: TablebaseRules> BoardValues<R> for Tablebase<R> {
    #[inline]
    fn board_value(&self, pos: &Position<R>) -> Option<i8> {
        self.probe(pos)
    }

    fn complete_to(&self) -> Option<u32> {
        Tablebase::complete_to(self)
    }
}

/// Tables seen only below a seed count: `verify` checks a layer by a
/// search that may use the smaller layers but not the one checked, and a
/// book built with the tables to `K` seeds sees no more than those
/// (limit `K + 1`) wherever it is played.
#[derive(Debug)]
pub struct Below<'a, T: ?Sized> {
    /// The tables.
    pub tables: &'a T,
    /// Layers of this many seeds and more are hidden.
    pub limit: u32,
}

impl<R: Rules, T: BoardValues<R> + ?Sized> BoardValues<R> for Below<'_, T> {
    #[inline]
    fn board_value(&self, pos: &Position<R>) -> Option<i8> {
        if pos.board_seeds() < self.limit {
            self.tables.board_value(pos)
        } else {
            None
        }
    }

    fn complete_to(&self) -> Option<u32> {
        let top = self.tables.complete_to()?;
        if self.limit == 0 {
            return None;
        }
        // The largest count with a layer below the limit, if the tables
        // reach it.
        Some(top.min(super::top_layer::<R>(self.limit - 1)))
    }
}

/// A board-value source for one game, stored type-erased in a [`TableSet`].
pub type Erased<R> = Box<dyn BoardValues<R> + Send + Sync>;

/// The tables of every game that has them, opened together, for code that
/// learns the game at run time (the CLI's `solve` and `analyze`): hand
/// [`get`](Self::get) to a generic search.
///
/// ```
/// use mancala_tables::TableSet;
/// use mancala_rules::{with_position, AnyPosition};
/// let (tables, refused) = TableSet::open(std::path::Path::new("no-such-dir"));
/// assert!(refused.is_empty());
/// let pos: AnyPosition = "bosh 4,4,4,4,4/4,4,4,4,4 S 0-0".parse().unwrap();
/// // No tables for Bosh (nor here for any game): every probe misses.
/// assert!(with_position!(pos, p => tables.get().map(|t| t.board_value(&p))).is_none());
/// ```
#[derive(Default)]
pub struct TableSet {
    games: Vec<Box<dyn std::any::Any + Send + Sync>>,
}

impl std::fmt::Debug for TableSet {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "TableSet({} games)", self.games.len())
    }
}

impl TableSet {
    /// Opens the tables of Bohnenspiel, Al-manqala and Djenon-abe found in
    /// `dir`; the files refused are returned (the set goes on without them).
    pub fn open(dir: &Path) -> (Self, Vec<TablebaseError>) {
        Self::open_games(dir, &mancala_rules::GameId::ALL)
    }

    /// Opens the tables of the games in `games` only (those without tables
    /// are skipped), so a program that needs one game does not open and
    /// check the files of the others.
    pub fn open_games(dir: &Path, games: &[mancala_rules::GameId]) -> (Self, Vec<TablebaseError>) {
        let mut set = TableSet::default();
        let mut refused = Vec::new();
        for &game in games {
            crate::with_table_rules!(game, R => set.add_opened::<R>(dir, &mut refused), _ => {});
        }
        (set, refused)
    }

    fn add_opened<R: TablebaseRules>(&mut self, dir: &Path, refused: &mut Vec<TablebaseError>) {
        let (tables, mut errors) = Tablebase::<R>::open(dir);
        refused.append(&mut errors);
        self.insert(tables);
    }

    /// Adds (or replaces) the tables of one game; tables without a layer
    /// leave the game without tables.
    pub fn insert<R: TablebaseRules>(&mut self, tables: Tablebase<R>) {
        if tables.layer_seeds().is_empty() {
            self.remove::<R>();
        } else {
            self.insert_values::<R>(Box::new(tables));
        }
    }

    /// Adds (or replaces) the board values of game `R` from another source
    /// than its table files (Kalah's five-pit tables built in memory,
    /// [`FivePitTables`](super::FivePitTables)).
    pub fn insert_values<R: Rules>(&mut self, values: Erased<R>) {
        self.remove::<R>();
        self.games.push(Box::new(values));
    }

    /// Leaves game `R` without board values.
    fn remove<R: Rules>(&mut self) {
        self.games.retain(|g| !g.is::<Erased<R>>());
    }

    /// The board values of game `R`, if any of its layers is loaded
    /// (`None` for a game without tables, so that a search compiled for
    /// [`NoTables`] needs no call per node).
    pub fn get<R: Rules>(&self) -> Option<&dyn BoardValues<R>> {
        self.games
            .iter()
            .find_map(|g| g.downcast_ref::<Erased<R>>())
            .map(|t| t.as_ref() as &dyn BoardValues<R>)
    }

    /// Whether any layer of `game`'s tables is loaded.
    pub fn has(&self, game: mancala_rules::GameId) -> bool {
        crate::with_table_rules!(game, R => self.get::<R>().is_some(), _ => false)
    }

    /// The board values of game `R`: its tables, or [`NoTables`] if none
    /// is loaded (for code that takes any `BoardValues` and does not care
    /// which).
    pub fn values<R: Rules>(&self) -> &dyn BoardValues<R> {
        self.get().unwrap_or(&NoTables)
    }
}
