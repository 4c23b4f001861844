//! The eight rule sets, one file each. Each is a zero-sized marker type
//! implementing [`Rules`].

mod al_manqala;
mod bohnenspiel;
mod bosh;
mod djenon_abe;
mod kalah;
mod oware;

pub use al_manqala::AlManqala;
pub use bohnenspiel::{Bohnenspiel, BohnenspielHemprich};
pub use bosh::{Bosh, BoshMatch, MatchEnd};
pub use djenon_abe::DjenonAbe;
pub use kalah::{Kalah, KalahEmpty};
#[doc(hidden)]
pub use oware::unsow as oware_unsow;
pub use oware::Oware;

/// **The one list of games.** Each line is a game: its [`GameId`] variant,
/// which is also the name of its [`Rules`] type; its name in the notation;
/// what it is. Everything that names every game follows from this list:
/// [`GameId`] and its names, [`AnyPosition`](crate::AnyPosition) and
/// [`AnyRecord`](crate::AnyRecord), the dispatch of
/// [`with_rules!`](crate::with_rules), [`with_position!`](crate::with_position)
/// and [`with_record!`](crate::with_record), and, above this crate, the
/// files each game ships (`mancala-files`). A crate that needs something of
/// every game (the tables, the evaluation) matches on [`GameId`]
/// exhaustively, so a game it does not know yet is a compile error there.
/// docs/architecture.md says how to add a game.
///
/// It calls `$callback! { [ARGS] (Variant, "name", "what it is") … }`, the
/// callback a macro's path (`$crate::x` or a local macro's name).
#[doc(hidden)]
#[macro_export]
macro_rules! for_each_game {
    ($($callback:tt)::+ [$($args:tt)*]) => {
        $($callback)::+! { [$($args)*]
            (Bohnenspiel, "bohnenspiel", "Bohnenspiel, 2×6, 72 seeds, captures of 2/4/6.")
            (BohnenspielHemprich, "bohnenspiel-hemprich", "Bohnenspiel as Hemprich (1926) plays it: a player with no seeds passes.")
            (AlManqala, "al-manqala", "Al-manqala, 2×7, 98 seeds, captures of 2/4, feeding.")
            (Bosh, "bosh", "Bosh, 2×5, 40 stones, relay sowing, rounds with closed pits.")
            (DjenonAbe, "djenon-abe", "Djenon-abe, 2×6, 48 seeds, multi-lap relay sowing, feeding, final gift.")
            (Kalah, "kalah", "Kalah(6,n), 2×6 with stores, 4 seeds a pit by default: the last seed in one's own store moves again.")
            (KalahEmpty, "kalah-empty", "Kalah with the \"empty capture\" variant.")
            (Oware, "oware", "Oware (Awale) abapa, 2×6, 4 seeds a pit by default: laps skip their origin, chains of 2/3 on the opponent's row, no grand slam, feeding.")
        }
    };
}

use crate::board::{Position, Rules};
use crate::game::GameId;
use crate::moves::Move;
use crate::side::Side;

/// Every non-empty pit of the side to move that sows to an end is a legal
/// move (no feeding rule).
#[inline(always)]
pub(crate) fn generate_all<R: Rules, F: FnMut(Move, Position<R>)>(pos: &Position<R>, mut f: F) {
    let mut movable = pos.movable_mask();
    while movable != 0 {
        let i = movable.trailing_zeros() as usize;
        movable &= movable - 1;
        if let Some(child) = R::sow(pos, i) {
            f(pos.move_at(i), child);
        }
    }
}

/// Whether some non-empty pit of the side to move sows to an end in a
/// position `keep` accepts; stops at the first.
#[inline(always)]
pub(crate) fn any_move<R: Rules>(pos: &Position<R>, keep: impl Fn(&Position<R>) -> bool) -> bool {
    let mut movable = pos.movable_mask();
    while movable != 0 {
        let i = movable.trailing_zeros() as usize;
        movable &= movable - 1;
        if R::sow(pos, i).is_some_and(|child| keep(&child)) {
            return true;
        }
    }
    false
}

/// Whether [`generate_feeding`] would produce a move; stops at the first.
#[inline(always)]
pub(crate) fn has_feeding_move<R: Rules>(pos: &Position<R>) -> bool {
    let them = !pos.side_to_move();
    if pos.row_has_seeds(them) {
        any_move(pos, |_| true)
    } else {
        any_move(pos, |child| child.row_has_seeds(them))
    }
}

/// Al-manqala rule 2 (and Djenon-abe's): when the opponent's row is empty at
/// the start of the move, only moves that leave it holding a seed (captures
/// included) are legal; if there is none, there is no legal move.
#[inline(always)]
pub(crate) fn generate_feeding<R: Rules, F: FnMut(Move, Position<R>)>(pos: &Position<R>, mut f: F) {
    let them = !pos.side_to_move();
    if pos.row_has_seeds(them) {
        return generate_all(pos, f);
    }
    generate_all(pos, |mv, child| {
        if child.row_has_seeds(them) {
            f(mv, child)
        }
    });
}

/// [`generate_feeding`]'s number of moves in a one-lap game (every sowing
/// ends): every non-empty pit unless the opponent's row is empty.
#[inline(always)]
pub(crate) fn count_feeding_moves<R: Rules>(pos: &Position<R>) -> u32 {
    if pos.row_has_seeds(!pos.side_to_move()) {
        pos.movable_mask().count_ones()
    } else {
        let mut n = 0;
        generate_feeding(pos, |_, _| n += 1);
        n
    }
}

/// Whether [`generate_feeding`] yields a move in a one-lap game: a seed in
/// the mover's row unless the opponent's row is empty.
#[inline(always)]
pub(crate) fn has_feeding_moves<R: Rules>(pos: &Position<R>) -> bool {
    if pos.row_has_seeds(!pos.side_to_move()) {
        pos.row_has_seeds(pos.side_to_move())
    } else {
        has_feeding_move(pos)
    }
}

/// Final totals when every seed left on the board goes to the player who did
/// not move last... i.e. to the side *not* to move.
#[inline]
pub(crate) fn board_to_opponent<R: Rules>(pos: &Position<R>) -> [u8; 2] {
    let mut t = pos.tallies();
    t[(!pos.side_to_move()).index()] += pos.board_seeds() as u8;
    t
}

/// Final totals when each side keeps the seeds left in its own row (Kalah's
/// end, Oware's end and cycle).
#[inline]
pub(crate) fn rows_to_owners<R: Rules>(pos: &Position<R>) -> [u8; 2] {
    let mut t = pos.tallies();
    t[0] += pos.row_seeds(Side::South) as u8;
    t[1] += pos.row_seeds(Side::North) as u8;
    t
}

/// What a game's [`Rules`] say, for code that holds a [`GameId`].
impl GameId {
    /// The rules in a few lines ([`Rules::SUMMARY`]).
    pub const fn summary(self) -> &'static str {
        crate::with_rules!(self, R => R::SUMMARY)
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
}

/// Runs a generic expression with `$R` standing for the [`Rules`] type of a
/// [`GameId`]: `with_rules!(game, R => R::PITS)`. The one place a game's
/// name becomes its type; every dispatch on a `GameId` goes through it (or
/// the engine's `with_table_rules!`, for the games with tables), so none can
/// fall through to the wrong game.
#[macro_export]
macro_rules! with_rules {
    ($game:expr, $R:ident => $body:expr) => {
        $crate::for_each_game!($crate::dispatch_every_game [$game, $R => $body])
    };
}

/// [`with_rules!`]'s callback of [`for_each_game!`]: every game of the list.
#[doc(hidden)]
#[macro_export]
macro_rules! dispatch_every_game {
    ([$game:expr, $R:ident => $body:expr] $(($g:ident, $name:literal, $doc:literal))+) => {
        $crate::dispatch_game!($game, $R => $body; [$($g),+])
    };
}

/// The match behind [`with_rules!`] and the engine's `with_table_rules!`: each
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
