//! `mancala perft`: counts move sequences of each length (docs/protocol.md).

use std::time::Instant;

use mancala_engine::{perft, perft_divide, with_position, LeafCounting};
use serde::Serialize;

use mancala_tools::limits;

use crate::input::{bad, OrBad, PositionArg};

/// Arguments of `mancala perft`.
#[derive(clap::Args, Debug)]
pub struct Args {
    #[command(flatten)]
    position: PositionArg,
    /// Longest move sequence to count.
    #[arg(long, short)]
    depth: u32,
    /// `{"depth":[n1,…,nD],"nodes":total,"seconds":s}` on one line.
    #[arg(long)]
    json: bool,
    /// Also print the count of sequences of length D under each root move.
    #[arg(long)]
    divide: bool,
    /// Make every leaf move instead of counting the legal moves in bulk.
    #[arg(long)]
    play_leaves: bool,
}

#[derive(Serialize)]
struct Report {
    depth: Vec<u64>,
    nodes: u64,
    seconds: f64,
}

pub fn run(args: Args) -> anyhow::Result<()> {
    let (pos, rest) = args.position.resolve()?;
    if let Some(extra) = rest.first() {
        return Err(bad(format!("unexpected argument '{extra}'")));
    }
    let depth = limits::perft_depth("--depth", args.depth as u64).or_bad()?;
    let counting = if args.play_leaves {
        LeafCounting::PlayEvery
    } else {
        LeafCounting::Bulk
    };
    let started = Instant::now();
    let counts = with_position!(pos, p => perft(&p, depth, counting));
    let seconds = started.elapsed().as_secs_f64();
    let nodes: u64 = counts.iter().sum();
    if args.json {
        let report = Report {
            depth: counts,
            nodes,
            seconds,
        };
        println!("{}", serde_json::to_string(&report)?);
    } else {
        for (d, n) in counts.iter().enumerate() {
            println!("depth {:>2}  {n:>16}", d + 1);
        }
        let nps = nodes as f64 / seconds.max(1e-9);
        println!(
            "nodes {nodes}  time {seconds:.3} s  {:.1} Mnodes/s",
            nps / 1e6
        );
    }
    if args.divide {
        for (mv, n) in with_position!(pos, p => perft_divide(&p, depth)) {
            println!("{mv}: {n}");
        }
    }
    Ok(())
}
