//! `mancala serve`: the local web analysis board ([`mancala_serve`]).

use std::io::Write;
use std::net::{IpAddr, Ipv4Addr, SocketAddr};

use std::sync::Arc;

use mancala_engine::GameId;
use mancala_serve::State;
use mancala_tools::limits;

use crate::input::{bad, OrBad};
use crate::options::TableArgs;

/// Arguments of `mancala serve`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// The port (0: any free one; the address is printed).
    #[arg(long, default_value_t = 8080)]
    port: u16,
    /// The address to listen on. Only this machine can reach the default;
    /// any other makes the board (and the machine's cores) available to
    /// whoever can reach the address.
    #[arg(long, default_value = "127.0.0.1")]
    host: String,
    /// The cores the board's searches share, all clients together
    /// [default: every core]: an analysis or review runs as many threads
    /// as are free (at least one), and an analysis may ask for fewer.
    #[arg(long)]
    threads: Option<u32>,
    #[command(flatten)]
    tables: TableArgs,
}

pub fn run(args: Args) -> anyhow::Result<()> {
    let host: IpAddr = args.host.parse().map_err(|_| {
        bad(format!(
            "--host {}: not an IP address (127.0.0.1, ::1, 0.0.0.0, …)",
            args.host
        ))
    })?;
    if !host.is_loopback() {
        eprintln!(
            "mancala: warning: --host {host}: the board is open to every machine that can reach this address and has the token below"
        );
    }
    let cores = limits::threads_or_cores("--threads", args.threads).or_bad()?;
    let tables = args.tables.open(&GameId::ALL);
    let addr = SocketAddr::new(host, args.port);
    let state = Arc::new(State::with_cores(tables, cores));
    mancala_serve::run_with(addr, state, |bound, token| {
        let shown = if bound.ip() == IpAddr::V4(Ipv4Addr::UNSPECIFIED) {
            SocketAddr::new(IpAddr::V4(Ipv4Addr::LOCALHOST), bound.port())
        } else {
            bound
        };
        let query = token.map_or(String::new(), |t| format!("?token={t}"));
        println!("mancala serve: the board is at http://{shown}/{query} (Ctrl-C stops)");
        let _ = std::io::stdout().flush();
    })
    .map_err(|e| {
        if e.to_string().starts_with("cannot listen") {
            bad(e.to_string())
        } else {
            e
        }
    })
}
