//! The board as the players see it, in text: each row from its owner's
//! left, the stores or tallies, the side to move, the last move marked
//! (in colour on a terminal) with what it took, and the game's status.
//! `mancala show` prints it, `mancala play` plays on it.

use std::fmt::Write;

use mancala_engine::{EndReason, GameRecord, MoveList, Position, Rules, Side, Status};

/// The board of a game's current position (its last move marked, in
/// colour on a terminal), the number of moves, and the game's own status
/// (the cycle rule counts the moves played).
pub fn draw_record<R: Rules>(game: &GameRecord<R>) -> String {
    let style = Style {
        seat: Side::South,
        colour: Style::colour_for_stdout(),
    };
    let (last, text) = last_move(game).unzip();
    let mut out = board_styled(&game.current(), style, &last.unwrap_or_default());
    if let Some(text) = text {
        let _ = writeln!(
            out,
            "after {} move(s) from {}; the last: {text}",
            game.ply(),
            game.start()
        );
    }
    let cycle = game.end_reason() == Some(EndReason::Repetition);
    out += &status_line(&game.current(), game.status(), &game.legal_moves(), cycle);
    out
}

/// How a board is drawn: from whose seat, in colour or not.
#[derive(Clone, Copy, Debug)]
pub struct Style {
    /// The player whose row is drawn at the bottom, left to right.
    pub seat: Side,
    /// ANSI colours (a terminal, and `NO_COLOR` not set).
    pub colour: bool,
}

impl Style {
    /// Colour when `stdout` is a terminal and `NO_COLOR` is unset or empty
    /// (<https://no-color.org>).
    pub fn colour_for_stdout() -> bool {
        use std::io::IsTerminal;
        std::io::stdout().is_terminal() && std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty())
    }
}

/// The last move, as drawn on the board: the pit played, the pits whose
/// seeds were taken.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LastMove {
    /// The pit played (index from 0).
    pub played: Option<usize>,
    /// The pits taken (indices from 0).
    pub taken: Vec<usize>,
}

const BOLD_YELLOW: &str = "\x1b[1;33m";
const BOLD_RED: &str = "\x1b[1;31m";
const BOLD: &str = "\x1b[1m";
const RESET: &str = "\x1b[0m";

/// [`describe_move`] of the last move of `game`, if it has one.
pub fn last_move<R: Rules>(game: &GameRecord<R>) -> Option<(LastMove, String)> {
    let ply = game.ply().checked_sub(1)?;
    Some(describe_move(
        &game.positions()[ply],
        game.moves()[ply],
        &game.current(),
    ))
}

/// What a move did, for people: `South plays 3 and takes 6 seeds from pits
/// 9 10 (South 10 → 16).` and the pits to mark on the board: the pits the
/// rules' capture took ([`Position::taken_pits`]), also in relay games and
/// for a move that ends the game.
pub fn describe_move<R: Rules>(
    before: &Position<R>,
    mv: mancala_engine::Move,
    after: &Position<R>,
) -> (LastMove, String) {
    let me = before.side_to_move();
    // (None for a pass.)
    let origin = (mv.pit() as usize).checked_sub(1);
    let gain =
        |side: Side| after.tallies()[side.index()] as i32 - before.tallies()[side.index()] as i32;
    let mine = gain(me);
    let taken = if mine > 0 {
        before.taken_pits(mv)
    } else {
        Vec::new()
    };
    let tally = |side: Side| {
        format!(
            "{} {} \u{2192} {}",
            side.title(),
            before.tallies()[side.index()],
            after.tallies()[side.index()]
        )
    };
    let mut text = format!("{} plays {}", me.title(), mv.pit());
    if mine > 0 {
        text += &format!(" and takes {mine} seed{}", if mine == 1 { "" } else { "s" });
        if !taken.is_empty() {
            let pits: Vec<String> = taken.iter().map(|i| (i + 1).to_string()).collect();
            text += &format!(
                " from pit{} {}",
                if pits.len() == 1 { "" } else { "s" },
                pits.join(" ")
            );
        }
        text += &format!(" ({})", tally(me));
    }
    let theirs = gain(!me);
    if theirs > 0 {
        text += &format!(
            "; {} takes {theirs} seed{} ({})",
            (!me).title(),
            if theirs == 1 { "" } else { "s" },
            tally(!me)
        );
    }
    text.push('.');
    (
        LastMove {
            played: origin,
            taken,
        },
        text,
    )
}

/// The board seen from `style.seat`: the opponent's row on top, right to
/// left; the seat's row below, left to right; each tally at its owner's
/// right-hand end. The last move's pit is drawn `( n)` (yellow in colour),
/// the pits it took `[ n]` (red).
pub fn board_styled<R: Rules>(pos: &Position<R>, style: Style, last: &LastMove) -> String {
    // Pits by number (`k` is pit `k + 1`); a narrow Kalah board's lanes
    // are not its pit numbers.
    let n = pos.row_pits();
    let lanes: Vec<usize> = pos.pit_lanes().collect();
    let paint = |text: String, code: &str| {
        if style.colour {
            format!("{code}{text}{RESET}")
        } else {
            text
        }
    };
    let cell = |k: usize| {
        let seeds = pos.seeds(lanes[k]);
        if pos.is_closed(lanes[k]) {
            "  x ".to_string()
        } else if last.played == Some(k) {
            paint(format!("({seeds:>2})"), BOLD_YELLOW)
        } else if last.taken.contains(&k) {
            paint(format!("[{seeds:>2}]"), BOLD_RED)
        } else {
            format!("{seeds:>3} ")
        }
    };
    let (top_side, bottom_side) = (!style.seat, style.seat);
    let row_of = |side: Side| match side {
        Side::South => 0..n,
        Side::North => n..2 * n,
    };
    let top: Vec<usize> = row_of(top_side).rev().collect();
    let bottom: Vec<usize> = row_of(bottom_side).collect();
    let rule = format!("      +{}\n", "----+".repeat(n));
    let numbers = |pits: &[usize]| {
        let mut s = String::from("      ");
        for &i in pits {
            let _ = write!(s, "{:>4} ", i + 1);
        }
        s.trim_end().to_string() + "\n"
    };
    let row = |pits: &[usize]| {
        let mut s = String::from("|");
        for &i in pits {
            let _ = write!(s, "{}|", cell(i));
        }
        s
    };
    let letter = |side: Side| {
        let l = &side.title()[..1];
        if side == pos.side_to_move() && pos.status() == Status::Ongoing {
            paint(l.to_string(), BOLD)
        } else {
            l.to_string()
        }
    };
    let tally = |side: Side| pos.tallies()[side.index()];
    let mut out = String::new();
    let _ = writeln!(out, "{}", pos);
    out += &numbers(&top);
    out += &rule;
    // `  N 0 |`: the label right-aligned in five columns (the colour codes
    // take no column).
    let t = tally(top_side).to_string();
    let pad = 5usize.saturating_sub(2 + t.len());
    let _ = writeln!(
        out,
        "{}{} {t} {}",
        " ".repeat(pad),
        letter(top_side),
        row(&top)
    );
    out += &rule;
    let _ = writeln!(
        out,
        "      {} {} {}",
        row(&bottom),
        letter(bottom_side),
        tally(bottom_side)
    );
    out += &rule;
    out += &numbers(&bottom);
    out
}

/// Who is to move and the legal moves, or the result.
pub fn status_line<R: Rules>(
    pos: &Position<R>,
    status: Status,
    legal: &MoveList,
    cycle: bool,
) -> String {
    let mover = match pos.side_to_move() {
        Side::South => "South",
        Side::North => "North",
    };
    match status {
        Status::Ongoing => {
            let moves: Vec<String> = legal.iter().map(|m| m.to_string()).collect();
            format!("{mover} to move; legal moves: {}\n", moves.join(" "))
        }
        Status::Over([s, n]) if cycle => {
            format!("Game over by the cycle rule (third occurrence): South {s}, North {n}\n")
        }
        Status::Over([s, n]) => format!("Game over: South {s}, North {n}\n"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use mancala_engine::{Bosh, Move};

    fn after<R: Rules>(text: &str, pit: u8) -> (Position<R>, Position<R>) {
        let before: Position<R> = text.parse().unwrap();
        (before, before.play(Move::from_pit(pit)))
    }

    #[test]
    fn colour_marks_the_last_move_and_nothing_else_changes() {
        let (before, now) =
            after::<mancala_engine::Bohnenspiel>("bohnenspiel 0,0,0,0,1,2/1,3,0,0,0,2 S 31-32", 6);
        let (last, _) = describe_move(&before, Move::from_pit(6), &now);
        assert_eq!(last.taken, vec![6, 7]);
        let plain = board_styled(
            &now,
            Style {
                seat: Side::South,
                colour: false,
            },
            &last,
        );
        let colour = board_styled(
            &now,
            Style {
                seat: Side::South,
                colour: true,
            },
            &last,
        );
        assert!(!plain.contains('\x1b'));
        assert!(colour.contains("\x1b[1;33m( 0)\x1b[0m"), "{colour}");
        assert!(colour.contains("\x1b[1;31m[ 0]\x1b[0m"), "{colour}");
        // Without the escape codes the two are the same board.
        let stripped = colour
            .replace("\x1b[1;33m", "")
            .replace("\x1b[1;31m", "")
            .replace("\x1b[1m", "")
            .replace("\x1b[0m", "");
        assert_eq!(stripped, plain);
    }

    /// A capture that ends the game names its pit too.
    #[test]
    fn a_capture_that_ends_the_game_names_its_pit() {
        let (before, now) =
            after::<mancala_engine::Bohnenspiel>("bohnenspiel 0,0,0,0,0,1/1,0,0,0,0,0 S 35-35", 6);
        assert_ne!(now.status(), Status::Ongoing);
        let (last, text) = describe_move(&before, Move::from_pit(6), &now);
        assert_eq!(last.taken, vec![6]);
        assert_eq!(
            text,
            "South plays 6 and takes 2 seeds from pit 7 (South 35 \u{2192} 37)."
        );
    }

    /// A relay's capture names its pits too: Bosh takes one pit, the one
    /// after the empty pit the move ends at; Djenon-abe a chain of 2s and
    /// 4s. Random walks from the start, every capturing move checked.
    #[test]
    fn a_relay_names_the_pits_it_takes() {
        fn walk<R: Rules>(mut pos: Position<R>, most_pits: usize) -> usize {
            let mut checked = 0;
            for step in 0..400 {
                let moves = pos.legal_moves();
                if moves.is_empty() {
                    break;
                }
                let mv = moves[(step * 7) % moves.len()];
                let next = pos.play(mv);
                let (last, text) = describe_move(&pos, mv, &next);
                let me = pos.side_to_move().index();
                let took = next.tallies()[me] > pos.tallies()[me];
                assert_eq!(!last.taken.is_empty(), took, "{text} ({pos})");
                if took {
                    assert!(last.taken.len() <= most_pits, "{text} ({pos})");
                    assert!(text.contains(" from pit"), "{text}");
                    // The pits taken are empty after the move.
                    assert!(
                        last.taken.iter().all(|&i| next.seeds(i) == 0),
                        "{text} ({pos})"
                    );
                    checked += 1;
                }
                pos = next;
            }
            checked
        }
        assert!(
            walk(Position::<Bosh>::start(), 1) > 0,
            "no Bosh move took stones"
        );
        let djenon = walk(Position::<mancala_engine::DjenonAbe>::start(), 12);
        assert!(djenon > 0, "no Djenon-abe move took seeds");
    }
}
