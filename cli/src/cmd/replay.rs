//! `mancala replay`: plays moves and prints every position (docs/protocol.md).

use mancala_engine::{with_position, GameRecord, Move, Position, Rules, Status};
use serde::Serialize;

use crate::input::{bad, parse_moves, read_records, PositionArg};

/// Arguments of `mancala replay`.
#[derive(clap::Args, Debug)]
pub struct Args {
    #[command(flatten)]
    position: PositionArg,
    /// One JSON object per line, as docs/protocol.md specifies.
    #[arg(long)]
    json: bool,
    /// Replay every game of this record file instead (docs/records.md),
    /// one after another.
    #[arg(long, value_name = "FILE", conflicts_with_all = ["free", "game"])]
    record: Option<std::path::PathBuf>,
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
    if let Some(path) = &args.record {
        let games = read_records("", path)?;
        if games.is_empty() {
            return Err(bad(format!("{}: no game in the file", path.display())));
        }
        for g in games {
            let moves = g.plain_moves();
            with_position!(g.start, p => replay(p, &moves, args.json))?;
        }
        return Ok(());
    }
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
