//! The eight rule sets, named, and the `Rules` trait that monomorphises the
//! move generator per game.

use std::fmt;
use std::str::FromStr;

use crate::board::Position;
use crate::moves::Move;
use crate::side::Side;

/// One of the supported rule sets.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum GameId {
    /// Bohnenspiel, 2×6, 72 seeds, captures of 2/4/6.
    Bohnenspiel,
    /// Bohnenspiel as Hemprich (1926) plays it: a player with no seeds passes.
    BohnenspielHemprich,
    /// Al-manqala, 2×7, 98 seeds, captures of 2/4, feeding.
    AlManqala,
    /// Bosh, 2×5, 40 stones, relay sowing, rounds with closed pits.
    Bosh,
    /// Djenon-abe, 2×6, 48 seeds, multi-lap relay sowing, feeding, final gift.
    DjenonAbe,
    /// Kalah(6,n), 2×6 with stores, 4 seeds a pit by default: the last seed
    /// in one's own store moves again.
    Kalah,
    /// Kalah with the "empty capture" variant.
    KalahEmpty,
    /// Oware (Awale) abapa, 2×6, 4 seeds a pit by default: laps skip their
    /// origin, chains of 2/3 on the opponent's row, no grand slam, feeding.
    Oware,
}

impl GameId {
    /// Every game, in a fixed order.
    pub const ALL: [GameId; 8] = [
        GameId::Bohnenspiel,
        GameId::BohnenspielHemprich,
        GameId::AlManqala,
        GameId::Bosh,
        GameId::DjenonAbe,
        GameId::Kalah,
        GameId::KalahEmpty,
        GameId::Oware,
    ];

    /// The name used in the notation (`bohnenspiel`, `al-manqala`, …).
    pub const fn name(self) -> &'static str {
        match self {
            GameId::Bohnenspiel => "bohnenspiel",
            GameId::BohnenspielHemprich => "bohnenspiel-hemprich",
            GameId::AlManqala => "al-manqala",
            GameId::Bosh => "bosh",
            GameId::DjenonAbe => "djenon-abe",
            GameId::Kalah => "kalah",
            GameId::KalahEmpty => "kalah-empty",
            GameId::Oware => "oware",
        }
    }

    /// Pits in each row (`N`).
    pub const fn side_pits(self) -> usize {
        crate::with_rules!(self, R => R::SIDE_PITS)
    }

    /// Whether the game is also played with fewer pits a row (Kalah(m,n),
    /// [`Rules::NARROW_BOARDS`]).
    pub const fn narrow_boards(self) -> bool {
        crate::with_rules!(self, R => R::NARROW_BOARDS)
    }

    /// Seeds in every pit at the start.
    pub const fn start_seeds(self) -> u8 {
        crate::with_rules!(self, R => R::START_SEEDS)
    }

    /// Total seeds in the game (board plus both tallies); for the games
    /// whose starts vary ([`Rules::SEEDS_VARY`], Kalah) the most a position
    /// may hold.
    pub const fn total_seeds(self) -> u8 {
        crate::with_rules!(self, R => R::TOTAL)
    }

    /// The winner by the game's own win rule ([`Rules::WIN`]), from final
    /// totals `[south, north]`; `None` for a draw.
    pub const fn winner(self, totals: [u8; 2]) -> Option<Side> {
        crate::with_rules!(self, R => R::WIN.winner(totals))
    }

    /// Whether a position may hold fewer seeds than [`total_seeds`](Self::total_seeds)
    /// ([`Rules::SEEDS_VARY`]: Kalah(6,n) for every n).
    pub const fn seeds_vary(self) -> bool {
        crate::with_rules!(self, R => R::SEEDS_VARY)
    }

    /// Whether a move may leave the same side to move ([`Rules::MOVES_AGAIN`]).
    pub const fn moves_again(self) -> bool {
        crate::with_rules!(self, R => R::MOVES_AGAIN)
    }

    /// Whether the game has endgame tables
    /// ([`TablebaseRules`](crate::tablebase::TablebaseRules)): its board
    /// values depend on the board and the side to move alone.
    pub const fn has_tables(self) -> bool {
        crate::with_table_rules!(self, _R => true, _ => false)
    }
}

/// Runs a generic expression with `$R` standing for the [`Rules`] type of a
/// [`GameId`]: `with_rules!(game, R => R::PITS)`. The one place a game's
/// name becomes its type; every dispatch on a `GameId` goes through it (or
/// [`with_table_rules!`](crate::with_table_rules)), so none can fall through to the wrong game.
#[macro_export]
macro_rules! with_rules {
    ($game:expr, $R:ident => $body:expr) => {
        $crate::dispatch_game!($game, $R => $body;
            [Bohnenspiel, BohnenspielHemprich, AlManqala, Bosh, DjenonAbe, Kalah, KalahEmpty, Oware])
    };
}

/// [`with_rules!`] for the games with endgame tables: `$R` is a
/// [`TablebaseRules`](crate::tablebase::TablebaseRules) type; the games
/// without tables take the `_ =>` arm.
#[macro_export]
macro_rules! with_table_rules {
    ($game:expr, $R:ident => $body:expr, _ => $other:expr) => {
        $crate::dispatch_game!($game, $R => $body;
            [Bohnenspiel, AlManqala, DjenonAbe, Kalah, KalahEmpty, Oware];
            BohnenspielHemprich | Bosh => $other)
    };
}

/// The match behind [`with_rules!`] and [`with_table_rules!`]: each
/// listed game (a [`GameId`] variant named as its rules type) runs `$body`
/// with `$R` its type; the games after `;` run `$other`. The compiler's
/// exhaustiveness check keeps every game in one of the two lists.
#[doc(hidden)]
#[macro_export]
macro_rules! dispatch_game {
    ($game:expr, $R:ident => $body:expr; [$($g:ident),+] $(; $($rest:ident)|+ => $other:expr)?) => {
        match $game {
            $(
                $crate::GameId::$g => {
                    type $R = $crate::$g;
                    $body
                }
            )+
            $($($crate::GameId::$rest)|+ => $other,)?
        }
    };
}

impl fmt::Display for GameId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The error for a game name that is not one of ours. It suggests the
/// nearest name where one is close (`bohnenspeil`: did you mean
/// bohnenspiel?), else lists them all.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub struct UnknownGame(pub String);

impl fmt::Display for UnknownGame {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "unknown game '{}'", self.0)?;
        match self.nearest() {
            Some(g) => write!(f, " (did you mean {g}?)"),
            None => {
                let names: Vec<&str> = GameId::ALL.iter().map(|g| g.name()).collect();
                write!(f, " (expected one of: {})", names.join(", "))
            }
        }
    }
}

impl UnknownGame {
    /// The game whose name is nearest the one given, if it is close: at
    /// most two letters added, dropped, changed or swapped (a third of the
    /// name's length at most).
    pub fn nearest(&self) -> Option<GameId> {
        let given = self.0.to_ascii_lowercase();
        if given.len() > 64 {
            return None;
        }
        GameId::ALL
            .into_iter()
            .map(|g| (edit_distance(&given, g.name()), g))
            .filter(|&(d, g)| d <= 2 && 3 * d <= g.name().len())
            .min_by_key(|&(d, _)| d)
            .map(|(_, g)| g)
    }
}

/// The optimal string alignment distance of two short strings: letters
/// added, dropped, changed, or two neighbours swapped.
fn edit_distance(a: &str, b: &str) -> usize {
    let (a, b): (Vec<char>, Vec<char>) = (a.chars().collect(), b.chars().collect());
    let mut d = vec![vec![0usize; b.len() + 1]; a.len() + 1];
    for (i, row) in d.iter_mut().enumerate() {
        row[0] = i;
    }
    for (j, cell) in d[0].iter_mut().enumerate() {
        *cell = j;
    }
    for i in 1..=a.len() {
        for j in 1..=b.len() {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            let mut best = (d[i - 1][j] + 1)
                .min(d[i][j - 1] + 1)
                .min(d[i - 1][j - 1] + cost);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                best = best.min(d[i - 2][j - 2] + 1);
            }
            d[i][j] = best;
        }
    }
    d[a.len()][b.len()]
}

impl FromStr for GameId {
    type Err = UnknownGame;
    /// A game's name, in any case (`Bohnenspiel`, `BOSH`); it is written in
    /// lower case.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        GameId::ALL
            .into_iter()
            .find(|g| g.name().eq_ignore_ascii_case(s))
            .ok_or_else(|| UnknownGame(s.to_string()))
    }
}

/// Whether a game is still on, and its final totals once it is over.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Status {
    /// The side to move has a legal move.
    Ongoing,
    /// The game (for Bosh: the round) has ended with these final totals,
    /// `[south, north]`, after every end-of-game rule.
    Over([u8; 2]),
}

/// Which counts a capture takes, for the games whose captures go by the
/// count in the pit the last seed makes (a set of counts below 8).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct CaptureSet(u8);

impl CaptureSet {
    /// The set of `counts` (each below 8).
    pub const fn of(counts: &[u8]) -> Self {
        let mut bits = 0u8;
        let mut i = 0;
        while i < counts.len() {
            bits |= 1 << counts[i];
            i += 1;
        }
        CaptureSet(bits)
    }

    /// Whether a pit holding `count` seeds is taken.
    #[inline(always)]
    pub const fn contains(self, count: u8) -> bool {
        // Shifting the 8-bit set right by 8 to 31 leaves nothing: no
        // compare and branch for the large counts.
        let shift = if count < 31 { count } else { 31 };
        (self.0 as u32 >> shift) & 1 != 0
    }

    /// The counts, ascending.
    pub fn counts(self) -> Vec<u8> {
        (0..8).filter(|&c| self.contains(c)).collect()
    }
}

/// How a move captures (docs/rules.md: each game's capture rule).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Capture {
    /// The pit the last seed falls in is taken if it then holds a count of
    /// the set, and so, going backwards, is every pit before it that does,
    /// until one does not (Bohnenspiel 2/4/6; Al-manqala and Djenon-abe
    /// 2/4).
    Chain(CaptureSet),
    /// The move ends at an empty pit and the pit after it is taken (Bosh).
    AfterEmpty,
    /// The last seed falls in an empty pit of the mover's own row: it and
    /// the seeds of the opposite pit go to the mover's store, when that pit
    /// holds seeds (Kalah) or always (`empty`, Kalah's "empty capture").
    Opposite {
        /// Whether an empty opposite pit still takes the last seed.
        empty: bool,
    },
    /// As [`Capture::Chain`], but on the opponent's row only, and a chain
    /// that would take every seed of that row takes nothing (Oware 2/3).
    OpponentChain(CaptureSet),
}

impl Capture {
    /// Whether the last seed making a pit hold `count` takes it (always
    /// `false` for [`Capture::AfterEmpty`] and [`Capture::Opposite`], which
    /// go by position).
    #[inline(always)]
    pub const fn takes(self, count: u8) -> bool {
        match self {
            Capture::Chain(set) | Capture::OpponentChain(set) => set.contains(count),
            Capture::AfterEmpty | Capture::Opposite { .. } => false,
        }
    }
}

/// How far a move sows.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Sowing {
    /// One lap: the move ends where its last seed falls.
    SingleLap,
    /// Relay from the landing pit (Djenon-abe): unless the last seed's pit
    /// then holds one seed or is captured, its seeds are sown on.
    RelayFromLanding,
    /// Relay from the next pit (Bosh): if the pit after the last seed's is
    /// not empty, its seeds are sown on; if it is, the one after it is
    /// captured.
    RelayFromNext,
}

impl Sowing {
    /// Whether a move may sow more than one lap.
    pub const fn relays(self) -> bool {
        !matches!(self, Sowing::SingleLap)
    }
}

/// Who wins from the final totals.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum WinRule {
    /// More than this many seeds (Bohnenspiel: more than 36).
    MoreThan(u8),
    /// At least this many seeds (Al-manqala: 50).
    AtLeast(u8),
    /// More seeds than the opponent (Bosh, Djenon-abe, Kalah, Oware).
    MoreThanOpponent,
}

impl WinRule {
    /// The winner of final totals `[south, north]`; `None` for a draw.
    pub const fn winner(self, totals: [u8; 2]) -> Option<Side> {
        let [s, n] = totals;
        if self.wins(s, n) {
            Some(Side::South)
        } else if self.wins(n, s) {
            Some(Side::North)
        } else {
            None
        }
    }

    const fn wins(self, mine: u8, theirs: u8) -> bool {
        match self {
            WinRule::MoreThan(t) => mine > t,
            WinRule::AtLeast(t) => mine >= t,
            WinRule::MoreThanOpponent => mine > theirs,
        }
    }
}

/// The margin of `totals` (`[south, north]`, final or banked) from
/// `side`'s view: its seeds minus the opponent's. In every game the seeds
/// add up to an even total, so a positive margin wins and zero draws.
#[inline]
pub const fn margin(totals: [u8; 2], side: Side) -> i32 {
    let me = side.index();
    totals[me] as i32 - totals[1 - me] as i32
}

/// The rules of one game. Implemented by zero-sized marker types
/// ([`Bohnenspiel`](crate::Bohnenspiel), …) so that `Position<R>` and
/// everything built on it is monomorphised per game: no `match game` runs in
/// the sowing loop.
pub trait Rules:
    Copy + Clone + Default + PartialEq + Eq + std::hash::Hash + fmt::Debug + Send + Sync + 'static
{
    /// Which game this is.
    const ID: GameId;
    /// Pits in each row (`N`).
    const SIDE_PITS: usize;
    /// Pits on the board (`2N`).
    const PITS: usize = 2 * Self::SIDE_PITS;
    /// Seeds in every pit at the start.
    const START_SEEDS: u8;
    /// Total seeds (board plus tallies).
    const TOTAL: u8 = 2 * Self::SIDE_PITS as u8 * Self::START_SEEDS;
    /// Whether a position may hold any number of seeds up to [`TOTAL`](Self::TOTAL)
    /// (Kalah(6,n): the start's seeds a pit vary), rather than exactly it.
    const SEEDS_VARY: bool = false;
    /// Whether a move may leave the same side to move (Kalah: the last seed
    /// in one's own store). Where it can, the value of a child is the
    /// parent's own when the side to move did not change
    /// ([`Position::for_parent`]).
    const MOVES_AGAIN: bool = false;
    /// Whether boards with an odd number of seeds occur (Kalah: a store
    /// takes single seeds). In the other games every capture takes an even
    /// number from an even start, so their tables have even layers only
    /// ([`layer_step`](crate::tablebase::layer_step)).
    const ODD_BOARDS: bool = false;
    /// Whether pits can be closed (Bosh).
    const HAS_CLOSED_PITS: bool = false;
    /// Whether a position may have fewer than [`SIDE_PITS`](Self::SIDE_PITS)
    /// pits a side (Kalah(m,n): m from 1 to 6). A narrow board keeps its
    /// pits in the first `m` lanes of each row, the lanes after them empty,
    /// and its width in the key ([`Position::row_pits`]); pits are
    /// numbered 1 to `2m` all the same.
    const NARROW_BOARDS: bool = false;
    /// How a move captures.
    const CAPTURE: Capture;
    /// How far a move sows.
    const SOWING: Sowing = Sowing::SingleLap;
    /// Whether a player with no seeds passes (move `0`) instead of the game
    /// ending (Bohnenspiel as Hemprich plays it).
    const PASSES: bool = false;
    /// Whether a move must feed an opponent whose row is empty (Al-manqala,
    /// Djenon-abe).
    const FEEDING: bool = false;
    /// Who wins from the final totals.
    const WIN: WinRule;

    /// Sows the pit at 0-based `index` for the side to move, applies captures
    /// and hands the move to the other side (or, where the game says so,
    /// [`MOVES_AGAIN`](Self::MOVES_AGAIN), keeps it). Returns `None` for a move whose
    /// sowing never ends (relay games). Does not check feeding rules.
    fn sow(pos: &Position<Self>, index: usize) -> Option<Position<Self>>;

    /// The lanes (a mask of whole pit lanes) of the pits the move from
    /// `index` takes, to say which pits a move took; `None` for a move
    /// whose sowing never ends. This default serves one-lap sowing, where
    /// sowing empties only the pit it starts from: the pits taken are the
    /// others it leaves empty. Relay games, whose laps also empty the pits
    /// they lift, trace their captures themselves.
    fn taken_lanes(pos: &Position<Self>, index: usize) -> Option<u128> {
        let after = Self::sow(pos, index)?;
        let mut mask = 0;
        for i in (0..Self::PITS).filter(|&i| i != index) {
            if pos.seeds(i) > 0 && after.seeds(i) == 0 {
                mask |= crate::board::lanes(i, i + 1);
            }
        }
        Some(mask)
    }

    /// Calls `f` with every legal move, in ascending pit order, and the
    /// position it leads to. Calls nothing when the game is over.
    fn generate<F: FnMut(Move, Position<Self>)>(pos: &Position<Self>, f: F);

    /// The number of legal moves (bulk counting for perft).
    #[inline]
    fn count_moves(pos: &Position<Self>) -> u32 {
        let mut n = 0;
        Self::generate(pos, |_, _| n += 1);
        n
    }

    /// Whether the side to move has a legal move: `count_moves(pos) != 0`,
    /// but stopping at the first move found (the search asks it at every
    /// leaf).
    #[inline]
    fn has_moves(pos: &Position<Self>) -> bool {
        Self::count_moves(pos) != 0
    }

    /// Whether the game has ended at `pos` although the side to move could
    /// sow (Djenon-abe: each player has exactly one seed in their row).
    #[inline]
    fn ends_early(_pos: &Position<Self>) -> bool {
        false
    }

    /// The final totals `[south, north]` of a position where the game is over
    /// (no legal move, or an early end), every end-of-game rule applied.
    fn final_totals(pos: &Position<Self>) -> [u8; 2];

    /// The final totals `[south, north]` when the game ends here by the
    /// cycle rule: by default the seeds on the board are split equally, the
    /// odd seed to the side to move (docs/rules.md, "Cycles"); in Oware each
    /// side keeps the seeds of its own row.
    #[inline]
    fn cycle_totals(pos: &Position<Self>) -> [u8; 2] {
        let board = pos.board_seeds() as u8;
        let mut totals = pos.tallies();
        let mover = pos.side_to_move().index();
        totals[mover] += board.div_ceil(2);
        totals[1 - mover] += board / 2;
        totals
    }
}
