//! `mancala show`: the board as the players see it.

use std::fmt::Write;

use mancala_engine::{with_position, Position, Rules, Side, Status};

use crate::input::PositionArg;
use mancala_engine::GameId;

/// Arguments of `mancala show`.
#[derive(clap::Args, Debug)]
pub struct Args {
    #[command(flatten)]
    position: PositionArg,
}

pub fn run(args: Args) -> anyhow::Result<()> {
    let (pos, rest) = args.position.resolve_or_start(GameId::Bohnenspiel)?;
    if let Some(extra) = rest.first() {
        return Err(crate::input::bad(format!("unexpected argument '{extra}'")));
    }
    let text = with_position!(pos, p => draw(&p));
    print!("{text}");
    Ok(())
}

/// Draws the board from South's seat: North's row on top, right to left;
/// South's row below, left to right; pit numbers outside the rows; the
/// tallies at each player's right-hand end (North's on the left).
pub fn draw<R: Rules>(pos: &Position<R>) -> String {
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
    let mover = match pos.side_to_move() {
        Side::South => "South",
        Side::North => "North",
    };
    match pos.status() {
        Status::Ongoing => {
            let moves: Vec<String> = pos.legal_moves().iter().map(|m| m.to_string()).collect();
            let _ = writeln!(out, "{mover} to move; legal moves: {}", moves.join(" "));
        }
        Status::Over([s, n]) => {
            let _ = writeln!(out, "Game over: South {s}, North {n}");
        }
    }
    out
}
