//! `mancala serve`: a local web analysis board.
//!
//! One page, compiled into the binary (`page.html`: HTML, CSS and script
//! in one file, nothing fetched from elsewhere), and the JSON API behind it
//! (docs/serve.md), usable by any other front end:
//!
//! | request | answer |
//! |---|---|
//! | `GET /` | the page |
//! | `GET /api/games` | every game: name, pits, seeds, start position, tables loaded |
//! | `POST /api/position` `{position, moves}` | the position after the moves: board, tallies, side to move, legal moves, result; every position on the way |
//! | `GET /api/analyze?position=…&moves=…&threads=T&client=C` | a live analysis as server-sent events, one update a completed depth |
//! | `POST /api/solve` `{position, moves, time_ms}` | the proof, as `mancala solve --json` prints it |
//! | `POST /api/engine` `{position, moves, level}` | the engine's move at a play level |
//! | `POST /api/review` `{position, moves, time_ms}` | every move scored and marked |
//! | `POST /api/record` `{position, moves, south, north}` / `POST /api/record/parse` `{record}` | a game record written / read |
//!
//! A request is answered only if it names this server (the `guard` module): its
//! `Host` is `localhost` or an IP address with the port served, and its
//! `Origin` (if any) is such an address too, and a browser's
//! `Sec-Fetch-Site` (if sent) says the page is the board's own; else 403.
//! This keeps other web pages out: one whose name is made to resolve to
//! this machine (DNS rebinding) sends its own name as `Host`, and one
//! that sends requests here sends its own `Origin` or `cross-site`.
//!
//! Errors are `{"error": "…"}` with status 400 (the CLI's messages), 404,
//! 408 (a body not sent whole within [`BODY_TIMEOUT`]), 413
//! (a body over [`MAX_BODY`]) or 503 (more than [`MAX_ANALYSES`] analyses, or
//! [`MAX_JOBS`] other searches, at once). The
//! searches run on their own threads, never on the server's; an analysis
//! stops when its client goes away, when the same client starts another,
//! or after [`MAX_ANALYSIS`].
//!
//! The modules: `api` (the routes and their handlers), `request` (bodies
//! and query strings read in the API's error shape, and a game replayed
//! once), `state` (what the requests share: tables, evaluation, analyses,
//! the budget of cores) and `guard` (which requests are answered).

mod api;
mod guard;
mod request;
mod stall;
mod state;

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use mancala_engine::tablebase::TableSet;

pub use api::router;
pub use state::State;

/// The largest request body accepted.
pub const MAX_BODY: usize = 64 * 1024;
/// Analyses running at once, all clients together.
pub const MAX_ANALYSES: usize = 4;
/// Solves, engine moves and reviews running at once, all clients together.
pub const MAX_JOBS: usize = 4;
/// The longest an analysis runs.
pub const MAX_ANALYSIS: Duration = Duration::from_secs(600);
/// The longest a solve, an engine move or a review's position may take.
pub const MAX_WORK: Duration = Duration::from_secs(60);
/// Moves a request may carry.
pub const MAX_MOVES: usize = 2000;
/// Connections open at once; past it the server accepts no more until
/// one closes (they wait in the system's queue).
pub const MAX_CONNECTIONS: usize = 256;
/// The longest a connection may take to send a request's headers, or stay
/// open with no request.
pub const HEADER_TIMEOUT: Duration = Duration::from_secs(10);
/// The longest a request's body may take to arrive, whole.
pub const BODY_TIMEOUT: Duration = Duration::from_secs(10);
/// The longest an answer may wait for its client to read (`stall`).
pub const WRITE_TIMEOUT: Duration = Duration::from_secs(10);

/// Serves the board on `addr` until the process ends; `on_listening` is
/// told the address actually bound (port 0 picks a free one) and, when
/// that is not a loopback address, the access token every request must
/// carry (the `guard` module).
pub fn run(
    addr: SocketAddr,
    tables: TableSet,
    on_listening: impl FnOnce(SocketAddr, Option<&str>),
) -> anyhow::Result<()> {
    run_with(addr, Arc::new(State::new(tables)), on_listening)
}

/// [`run`] with a state the caller keeps (a test reads it).
pub fn run_with(
    addr: SocketAddr,
    state: Arc<State>,
    on_listening: impl FnOnce(SocketAddr, Option<&str>),
) -> anyhow::Result<()> {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()?;
    runtime.block_on(async move {
        let listener = tokio::net::TcpListener::bind(addr)
            .await
            .map_err(|e| anyhow::anyhow!("cannot listen on {addr}: {e}"))?;
        let bound = listener.local_addr()?;
        // Served beyond this machine, the board asks for a token, given
        // with the address.
        let token: Option<Arc<str>> =
            (!bound.ip().is_loopback()).then(|| format!("{:032x}", rand::random::<u128>()).into());
        on_listening(bound, token.as_deref());
        let app = router(state).layer(axum::middleware::from_fn(move |req, next| {
            guard::only_this_origin(bound.port(), token.clone(), req, next)
        }));
        accept_loop(listener, app).await
    })
}

/// Serves `app` on every connection `listener` accepts, at most
/// [`MAX_CONNECTIONS`] at once, each closed if it does not send a
/// request's headers within [`HEADER_TIMEOUT`] (a half-open connection,
/// or one held idle, costs a slot for that long at most), its body within
/// [`BODY_TIMEOUT`] (`request::Body`), or does not read an answer for
/// [`WRITE_TIMEOUT`] (`stall`). Every read and write of a connection is
/// thus under a deadline. axum's own `serve` has none of these bounds;
/// this is its loop with hyper's HTTP/1 builder, which has the first.
async fn accept_loop(listener: tokio::net::TcpListener, app: axum::Router) -> anyhow::Result<()> {
    use hyper_util::rt::{TokioIo, TokioTimer};
    use tower_service::Service;
    let slots = Arc::new(tokio::sync::Semaphore::new(MAX_CONNECTIONS));
    loop {
        let slot = slots.clone().acquire_owned().await?;
        let socket = match listener.accept().await {
            Ok((socket, _)) => socket,
            // Out of descriptors, or a connection reset before it was
            // accepted: try again shortly, as axum::serve does.
            Err(_) => {
                tokio::time::sleep(Duration::from_millis(50)).await;
                continue;
            }
        };
        let _ = socket.set_nodelay(true);
        let app = app.clone();
        tokio::spawn(async move {
            let service = hyper::service::service_fn(move |req| app.clone().call(req));
            let connection = hyper::server::conn::http1::Builder::new()
                .timer(TokioTimer::new())
                .header_read_timeout(HEADER_TIMEOUT)
                .serve_connection(
                    TokioIo::new(stall::Stalling::new(socket, WRITE_TIMEOUT)),
                    service,
                );
            // A failed connection concerns only its client.
            let _ = connection.await;
            drop(slot);
        });
    }
}
