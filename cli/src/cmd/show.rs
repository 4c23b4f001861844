//! `mancala show`: the board as the players see it.

use std::fmt::Write;

use mancala_engine::{
    with_position, EndReason, GameRecord, MoveList, Position, Rules, Side, Status,
};

use crate::input::{GameArgs, OrBad};
use mancala_engine::GameId;

/// Arguments of `mancala show`.
#[derive(clap::Args, Debug)]
pub struct Args {
    #[command(flatten)]
    given: GameArgs,
}

pub fn run(args: Args) -> anyhow::Result<()> {
    let (pos, rest) = args.given.position.resolve_or_start(GameId::Bohnenspiel)?;
    if let Some(extra) = rest.first() {
        return Err(crate::input::bad(format!("unexpected argument '{extra}'")));
    }
    let moves = args.given.moves.after(&pos)?;
    let text = with_position!(pos, p => {
        let game = mancala_cli::protocol::replay(p, &moves).or_bad()?;
        draw_record(&game)
    });
    print!("{text}");
    Ok(())
}

/// [`draw`] of a game's current position, with the game's own status
/// (the cycle rule counts the moves played) and the number of moves.
pub fn draw_record<R: Rules>(game: &GameRecord<R>) -> String {
    let mut out = board(&game.current());
    if game.ply() > 0 {
        let _ = writeln!(out, "after {} move(s) from {}", game.ply(), game.start());
    }
    let cycle = game.end_reason() == Some(EndReason::Repetition);
    out + &status_line(&game.current(), game.status(), &game.legal_moves(), cycle)
}

/// Draws the board from South's seat: North's row on top, right to left;
/// South's row below, left to right; pit numbers outside the rows; the
/// tallies at each player's right-hand end (North's on the left); then the
/// legal moves or the result.
pub fn draw<R: Rules>(pos: &Position<R>) -> String {
    board(pos) + &status_line(pos, pos.status(), &pos.legal_moves(), false)
}

/// The board of [`draw`], without the status line.
fn board<R: Rules>(pos: &Position<R>) -> String {
    let n = R::SIDE_PITS;
    let cell = |i: usize| {
        if pos.is_closed(i) {
            "  x".to_string()
        } else {
            format!("{:>3}", pos.seeds(i))
        }
    };
    let north: Vec<usize> = (n..2 * n).rev().collect();
    let south: Vec<usize> = (0..n).collect();
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
            let _ = write!(s, "{} |", cell(i));
        }
        s
    };
    let [ts, tn] = pos.tallies();
    let mut out = String::new();
    let _ = writeln!(out, "{}", pos);
    out += &numbers(&north);
    out += &rule;
    let _ = writeln!(out, "{:>5} {}", format!("N {tn}"), row(&north));
    out += &rule;
    let _ = writeln!(out, "{:>5} {} S {ts}", "", row(&south));
    out += &rule;
    out += &numbers(&south);
    out
}

/// Who is to move and the legal moves, or the result.
fn status_line<R: Rules>(
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
