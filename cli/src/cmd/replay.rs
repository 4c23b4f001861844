//! `mancala replay`: plays moves and prints every position (docs/protocol.md).

use mancala_engine::{with_position, GameRecord, Move, Position, Rules, Status};
use serde::Serialize;

use crate::input::{bad, parse_moves, PositionArg};

/// Arguments of `mancala replay`.
#[derive(clap::Args, Debug)]
pub struct Args {
    #[command(flatten)]
    position: PositionArg,
    /// One JSON object per line, as docs/protocol.md specifies.
    #[arg(long)]
    json: bool,
}

/// One line of `replay --json`; field order is the contract's.
#[derive(Serialize)]
struct Line {
    ply: usize,
    #[serde(rename = "move")]
    mv: Option<u8>,
    position: String,
    legal: Vec<u8>,
    over: bool,
    result: Option<[u8; 2]>,
}

pub fn run(args: Args) -> anyhow::Result<()> {
    let (pos, rest) = args.position.resolve()?;
    let moves = parse_moves(&rest)?;
    with_position!(pos, p => replay(p, &moves, args.json))
}

fn line<R: Rules>(game: &GameRecord<R>, mv: Option<Move>) -> Line {
    let result = match game.status() {
        Status::Over(t) => Some(t),
        Status::Ongoing => None,
    };
    Line {
        ply: game.ply(),
        mv: mv.map(|m| m.pit()),
        position: game.current().to_string(),
        legal: game.legal_moves().pits(),
        over: result.is_some(),
        result,
    }
}

fn print<R: Rules>(game: &GameRecord<R>, mv: Option<Move>, json: bool) {
    let l = line(game, mv);
    if json {
        println!("{}", serde_json::to_string(&l).expect("serialisable"));
    } else {
        let mv = l.mv.map_or("-".to_string(), |m| m.to_string());
        let state = match l.result {
            Some([s, n]) => format!("over {s}-{n}"),
            None => format!("legal {:?}", l.legal),
        };
        println!("{:>4}  {:>3}  {}  {}", l.ply, mv, l.position, state);
    }
}

fn replay<R: Rules>(start: Position<R>, moves: &[Move], json: bool) -> anyhow::Result<()> {
    let mut game = GameRecord::new(start);
    print(&game, None, json);
    for (i, &mv) in moves.iter().enumerate() {
        if let Err(e) = game.play(mv) {
            return Err(bad(format!(
                "ply {}: pit {}: illegal move: {}",
                i + 1,
                mv.pit(),
                e.reason
            )));
        }
        print(&game, Some(mv), json);
    }
    Ok(())
}
