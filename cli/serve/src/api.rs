//! The handlers of `mancala serve` (the table in [`super`]).

use std::convert::Infallible;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use axum::extract::{DefaultBodyLimit, State as Shared};
use axum::http::StatusCode;
use axum::response::sse::{Event, KeepAlive, Sse};
use axum::response::{Html, IntoResponse};
use axum::routing::{get, post};
use axum::{Json, Router};
use serde::{Deserialize, Serialize};

use mancala_engine::pgn::{self, WrittenGame};
use mancala_engine::search::{self, Limits, Report, Search, SearchOptions};
use mancala_engine::solve::{Progress, Proof, Solution, Solver};
use mancala_engine::tablebase::{BoardValues, NoTables};
use mancala_engine::tt::{Bound, TranspositionTable};
use mancala_engine::{
    with_record, AnyPosition, EndReason, GameId, GameRecord, Rules, Side, Status,
};

use super::request::{bad, resolve, ApiError, Body, Game, Params};
use super::state::{Halts, State};
use super::{MAX_ANALYSES, MAX_ANALYSIS, MAX_BODY, MAX_JOBS, MAX_WORK};
use mancala_tools::limits;
use mancala_tools::matchplay::player::Request;
use mancala_tools::matchplay::spec::{Level, PlayerSpec};
use mancala_tools::protocol::SolveReport;
use mancala_tools::review::{self, ReviewOptions, Verdict};

/// The page, compiled in.
const PAGE: &str = include_str!("page.html");

/// The API and the page.
pub fn router(state: Arc<State>) -> Router {
    Router::new()
        .route("/", get(|| async { Html(PAGE) }))
        .route("/api/games", get(games))
        .route("/api/position", post(position))
        .route("/api/analyze", get(analyze))
        .route("/api/solve", post(solve))
        .route("/api/engine", post(engine))
        .route("/api/review", post(review_game))
        .route("/api/record", post(record))
        .route("/api/record/parse", post(parse_record))
        .fallback(|| async { ApiError(StatusCode::NOT_FOUND, "no such page".into()) })
        .layer(DefaultBodyLimit::max(MAX_BODY))
        .with_state(state)
}

#[derive(Serialize)]
struct GameInfo {
    name: &'static str,
    pits: usize,
    seeds: u8,
    start: String,
    tables: bool,
}

async fn games(Shared(state): Shared<Arc<State>>) -> Json<Vec<GameInfo>> {
    Json(
        GameId::ALL
            .into_iter()
            .map(|g| GameInfo {
                name: g.name(),
                pits: g.side_pits(),
                seeds: g.total_seeds(),
                start: AnyPosition::start(g).to_string(),
                tables: mancala_engine::with_rules!(g, R => state.tables.get::<R>().is_some()),
            })
            .collect(),
    )
}

/// A position as the page draws it.
#[derive(Serialize)]
struct Board {
    position: String,
    game: &'static str,
    side: &'static str,
    /// Seeds in pits 1, 2, …, 2N; `null` for a closed pit.
    pits: Vec<Option<u8>>,
    tallies: [u8; 2],
    legal: Vec<u8>,
    /// `rules` or `repetition` once the game is over.
    end: Option<&'static str>,
    /// The final totals once the game is over.
    result: Option<[u8; 2]>,
    winner: Option<&'static str>,
}

fn board_of<R: Rules>(game: &GameRecord<R>) -> Board {
    let pos = game.current();
    let result = match game.status() {
        Status::Over(totals) => Some(totals),
        Status::Ongoing => None,
    };
    Board {
        position: pos.to_string(),
        game: R::ID.name(),
        side: pos.side_to_move().name(),
        pits: pos
            .pit_lanes()
            .map(|i| (!pos.is_closed(i)).then(|| pos.seeds(i)))
            .collect(),
        tallies: pos.tallies(),
        legal: game
            .legal_moves()
            .as_slice()
            .iter()
            .map(|m| m.pit())
            .collect(),
        end: game.end_reason().map(|r| match r {
            EndReason::Rules => "rules",
            EndReason::Repetition => "repetition",
            EndReason::PlyCap => "plycap",
        }),
        result,
        winner: result.and_then(|t| R::ID.winner(t)).map(Side::name),
    }
}

#[derive(Serialize)]
struct PositionReply {
    start: String,
    /// Every position of the game, the start first.
    positions: Vec<String>,
    current: Board,
}

async fn position(Body(game): Body<Game>) -> Result<Json<PositionReply>, ApiError> {
    let record = resolve(&game)?;
    Ok(Json(with_record!(&record, r => PositionReply {
        start: r.start().to_string(),
        positions: r.positions().iter().map(|q| q.to_string()).collect(),
        current: board_of(r),
    })))
}

#[derive(Deserialize)]
struct AnalyzeQuery {
    position: String,
    /// Comma-separated pit numbers.
    #[serde(default)]
    moves: String,
    threads: Option<usize>,
    /// The client's id: a new analysis of the same client stops its last.
    #[serde(default)]
    client: String,
}

/// One update of a live analysis.
#[derive(Serialize)]
struct Update {
    depth: u32,
    /// The side to move's score in seeds.
    score: f64,
    exact: bool,
    best: Option<u8>,
    pv: Vec<u8>,
    moves: Vec<MoveUpdate>,
    nodes: u64,
    nps: u64,
    /// The search threads running (the server's free cores, at least one).
    threads: usize,
    ms: u128,
    /// The last update of this analysis.
    done: bool,
}

#[derive(Serialize)]
struct MoveUpdate {
    #[serde(rename = "move")]
    mv: u8,
    score: f64,
    /// The move's value is proven to be `score`.
    exact: bool,
    /// The score (a value or a bound) is proven to the end of the game.
    proven: bool,
    /// `exact`, `lower` or `upper`: how the score bounds the move's value.
    bound: &'static str,
}

fn update_of(r: &Report, threads: usize, done: bool) -> Update {
    Update {
        depth: r.depth,
        score: search::seeds(r.score),
        exact: r.exact,
        best: r.best.map(|m| m.pit()),
        pv: r.pv.iter().map(|m| m.pit()).collect(),
        moves: r
            .moves
            .iter()
            .map(|m| MoveUpdate {
                mv: m.mv.pit(),
                score: search::seeds(m.score),
                exact: m.proven && m.bound == Bound::Exact,
                proven: m.proven,
                bound: match m.bound {
                    Bound::Exact => "exact",
                    Bound::Lower => "lower",
                    Bound::Upper => "upper",
                },
            })
            .collect(),
        nodes: r.nodes,
        nps: r.nps(),
        threads,
        ms: r.elapsed.as_millis(),
        done,
    }
}

/// Sets the stop flag of an analysis and frees its place when dropped:
/// when the client goes away, axum drops the event stream holding it.
/// It also forgets its client's entry, unless a newer analysis of the same
/// client has taken it.
struct Running {
    stop: Arc<Halts>,
    state: Arc<State>,
    client: String,
}

impl Drop for Running {
    fn drop(&mut self) {
        self.stop.stop();
        self.state.forget(&self.client, &self.stop);
        self.state.running.fetch_sub(1, Ordering::SeqCst);
    }
}

fn parse_move_list(text: &str) -> Result<Vec<u8>, ApiError> {
    text.split(',')
        .map(str::trim)
        .filter(|m| !m.is_empty())
        .map(|m| {
            m.parse::<u8>()
                .map_err(|_| bad(format!("moves: '{m}' is not a pit number")))
        })
        .collect()
}

async fn analyze(
    Shared(state): Shared<Arc<State>>,
    Params(q): Params<AnalyzeQuery>,
) -> Result<impl IntoResponse, ApiError> {
    let game = Game {
        position: q.position.clone(),
        moves: parse_move_list(&q.moves)?,
    };
    let record = resolve(&game)?;
    let budget = state.cores.budget();
    let wanted = limits::count(
        "threads",
        q.threads.unwrap_or(budget) as u64,
        1,
        budget as u64,
        "the server's cores",
    )
    .map_err(|e| bad(e.to_string()))? as usize;
    if q.client.len() > 64 {
        return Err(bad("client: at most 64 characters"));
    }
    // A request without a client id is a client of its own: it stops no
    // other analysis (ids of this kind cannot be chosen, a chosen id
    // being at most 64 characters).
    let client = match q.client.as_str() {
        "" => format!("{:065}", state.anonymous.fetch_add(1, Ordering::SeqCst)),
        id => id.to_string(),
    };
    // The same client's last analysis stops, and the new one takes its
    // place; another client's needs a free place.
    let stop = Arc::new(Halts::default());
    let replaced = {
        let mut analyses = state.analyses.lock().unwrap_or_else(|e| e.into_inner());
        let running = state.running.load(Ordering::SeqCst);
        let old = analyses.get(&client).cloned();
        if old.is_none() && running >= MAX_ANALYSES {
            return Err(ApiError(
                StatusCode::SERVICE_UNAVAILABLE,
                format!("{MAX_ANALYSES} analyses are running; stop one first"),
            ));
        }
        analyses.insert(client.clone(), stop.clone());
        state.running.fetch_add(1, Ordering::SeqCst);
        old
    };
    if let Some(old) = replaced {
        old.stop();
    }
    let guard = Running {
        stop: stop.clone(),
        state: state.clone(),
        client,
    };
    let (tx, rx) = tokio::sync::mpsc::channel::<Update>(16);
    let worker_state = state.clone();
    let cores = state.cores.clone();
    std::thread::spawn(move || {
        let Ok(tt) = TranspositionTable::try_new(64) else {
            return;
        };
        let started = Instant::now();
        let _member = cores.join();
        loop {
            // The analysis waits for a core (stopped meanwhile, it ends),
            // and yields it to a solve, an engine move or a review that
            // waits: its search halts, and goes on afterwards in the same
            // table.
            let Some(lease) = cores.lend_yielding(wanted, &stop.stop, &stop.halt) else {
                return;
            };
            let threads = lease.threads();
            let options = SearchOptions {
                limits: Limits {
                    time: Some(MAX_ANALYSIS.saturating_sub(started.elapsed())),
                    ..Limits::default()
                },
                threads,
                score_all_moves: true,
            };
            let report = with_record!(&record, r => {
                let (root, history) = r.positions().split_last().expect("a start");
                Search::new(root, &worker_state.eval, &tt)
                    .history(history)
                    .tables(worker_state.tables.get())
                    .options(options)
                    .stop(&stop.halt)
                    .run(|r| {
                        // A client gone (the receiver dropped) stops the search.
                        if tx.blocking_send(update_of(r, threads, false)).is_err() {
                            stop.stop();
                        }
                    })
            });
            drop(lease);
            let yielded = stop.halt.load(Ordering::SeqCst) && !stop.stop.load(Ordering::SeqCst);
            if !yielded || started.elapsed() >= MAX_ANALYSIS {
                let _ = tx.blocking_send(update_of(&report, threads, true));
                return;
            }
        }
    });
    let stream = futures_util::stream::unfold((rx, guard), |(mut rx, guard)| async move {
        let update = rx.recv().await?;
        let event = Event::default()
            .json_data(&update)
            .unwrap_or_else(|_| Event::default().data("{}"));
        Some((Ok::<_, Infallible>(event), (rx, guard)))
    });
    Ok(Sse::new(stream).keep_alive(KeepAlive::default()))
}

#[derive(Deserialize)]
struct WorkRequest {
    #[serde(flatten)]
    game: Game,
    /// The time allowed, ms (default 5 s; at most [`MAX_WORK`]).
    time_ms: Option<u64>,
}

fn time_of(ms: Option<u64>, default: u64) -> Result<Duration, ApiError> {
    let most = MAX_WORK.as_millis() as u64;
    let ms = limits::count("time_ms", ms.unwrap_or(default), 1, most, "ms")
        .map_err(|e| bad(e.to_string()))?;
    Ok(Duration::from_millis(ms))
}

/// Runs `work` on a thread of its own (searches never run on the server's).
/// At most [`MAX_JOBS`] at once, all clients together.
async fn off_thread<T: Send + 'static>(
    state: &State,
    work: impl FnOnce() -> T + Send + 'static,
) -> Result<T, ApiError> {
    let place = state.jobs.clone().try_acquire_owned().map_err(|_| {
        ApiError(
            StatusCode::SERVICE_UNAVAILABLE,
            format!("{MAX_JOBS} solves, engine moves or reviews are running; try again"),
        )
    })?;
    // Every search holds a core of the server's budget while it runs.
    let cores = state.cores.clone();
    let work = move || {
        let _place = place;
        let _core = cores.lend(1, &AtomicBool::new(false));
        work()
    };
    tokio::task::spawn_blocking(work).await.map_err(|_| {
        ApiError(
            StatusCode::INTERNAL_SERVER_ERROR,
            "the search failed".into(),
        )
    })
}

async fn solve(
    Shared(state): Shared<Arc<State>>,
    Body(req): Body<WorkRequest>,
) -> Result<Json<SolveReport>, ApiError> {
    let record = resolve(&req.game)?;
    let time = time_of(req.time_ms, 5000)?;
    let shared = state.clone();
    off_thread(
        &state,
        move || with_record!(&record, r => solve_in(&shared, r, time)),
    )
    .await
    .map(Json)
}

fn solve_in<R: Rules>(state: &State, record: &GameRecord<R>, time: Duration) -> SolveReport {
    let (root, history) = record.positions().split_last().expect("a start");
    let started = Instant::now();
    let none = NoTables;
    let tables: &dyn BoardValues<R> = state.tables.get::<R>().unwrap_or(&none);
    let mut solver = Solver::new(tables, 64);
    let stop = |_: &Progress| started.elapsed() >= time;
    let solved = solver.prove(root).history(history).stop(&stop).solution();
    let seconds = started.elapsed().as_secs_f64();
    let pos = AnyPosition::from(*root);
    match solved {
        Proof::Done(s) => SolveReport::new(&pos, &s, None, seconds, 1),
        Proof::Stopped => {
            let b = solver.root_bounds();
            let tried = Solution {
                margin: b.guess.clamp(b.lower, b.upper),
                best: Vec::new(),
                pv: Vec::new(),
                nodes: solver.nodes(),
                from_tables: false,
            };
            SolveReport::new(&pos, &tried, Some(b), seconds, 1)
        }
    }
}

#[derive(Deserialize)]
struct EngineRequest {
    #[serde(flatten)]
    game: Game,
    /// `easy`, `medium`, `hard` or `expert` (the default).
    level: Option<String>,
}

#[derive(Serialize)]
struct EngineReply {
    #[serde(rename = "move")]
    mv: u8,
    /// The engine's score for the side to move, seeds.
    score: Option<f64>,
    exact: bool,
}

async fn engine(
    Shared(state): Shared<Arc<State>>,
    Body(req): Body<EngineRequest>,
) -> Result<Json<EngineReply>, ApiError> {
    let record = resolve(&req.game)?;
    let level: Level = req
        .level
        .as_deref()
        .unwrap_or("expert")
        .parse()
        .map_err(|e| bad(format!("level: {e}")))?;
    let spec = PlayerSpec::parse(level.spec()).map_err(|e| bad(e.to_string()))?;
    let current = with_record!(&record, r => {
        if r.status() != Status::Ongoing {
            return Err(bad("the game is over"));
        }
        AnyPosition::from(r.current())
    });
    off_thread(&state, move || {
        let mut player = spec.build().map_err(|e| bad(e.to_string()))?;
        player.new_game(0).map_err(|e| bad(e.to_string()))?;
        let request = Request {
            start: record.start(),
            moves: record.moves(),
            current,
        };
        // The move's search runs on its core alone, and so does what it
        // does on rayon's pool (a book's tables, built once a run): a pool
        // of one thread, not the machine's.
        let reply = match rayon::ThreadPoolBuilder::new().num_threads(1).build() {
            Ok(pool) => pool.install(|| player.choose(&request)),
            Err(_) => player.choose(&request),
        }
        .map_err(|e| bad(e.to_string()))?;
        Ok(EngineReply {
            mv: reply.mv.pit(),
            score: reply.score,
            exact: reply.exact,
        })
    })
    .await?
    .map(Json)
}

#[derive(Serialize)]
struct ReviewPly {
    ply: usize,
    side: &'static str,
    #[serde(rename = "move")]
    mv: u8,
    best: u8,
    /// The value before the move and after it, from the mover's view.
    before: f64,
    after: f64,
    /// The move's accuracy in per cent ([`review::accuracy`]).
    accuracy: f64,
    exact: bool,
    verdict: Option<&'static str>,
}

async fn review_game(
    Shared(state): Shared<Arc<State>>,
    Body(req): Body<WorkRequest>,
) -> Result<Json<Vec<ReviewPly>>, ApiError> {
    let record = resolve(&req.game)?;
    let time = time_of(req.time_ms, 100)?;
    if time.as_secs_f64() * record.moves().len() as f64 > MAX_WORK.as_secs_f64() {
        return Err(bad(format!(
            "time_ms times the moves must be at most {} s",
            MAX_WORK.as_secs()
        )));
    }
    let shared = state.clone();
    off_thread(&state, move || {
        let state = shared;
        // A review holds a core (its place's) and takes those free.
        let lease = state.cores.try_lend(state.cores.budget() - 1);
        let threads = lease.as_ref().map_or(1, |l| l.threads() + 1);
        let tt = TranspositionTable::new(64);
        let options = ReviewOptions {
            search: SearchOptions {
                limits: Limits {
                    time: Some(time),
                    ..Limits::default()
                },
                threads,
                ..SearchOptions::default()
            },
            tt: &tt,
        };
        let never = AtomicBool::new(false);
        let r = review::review(
            &record,
            &options,
            &state.eval,
            &state.tables,
            &never,
            |_| {},
        );
        r.plies
            .iter()
            .map(|p| ReviewPly {
                ply: p.ply,
                side: p.side.name(),
                mv: p.mv.pit(),
                best: p.best.pit(),
                before: p.before,
                after: p.after,
                accuracy: review::accuracy(p.before, p.after),
                exact: p.exact,
                verdict: p.verdict.map(Verdict::name),
            })
            .collect()
    })
    .await
    .map(Json)
}

#[derive(Deserialize)]
struct RecordRequest {
    #[serde(flatten)]
    game: Game,
    south: Option<String>,
    north: Option<String>,
}

async fn record(Body(req): Body<RecordRequest>) -> Result<Json<serde_json::Value>, ApiError> {
    let record = resolve(&req.game)?;
    let mut text =
        WrittenGame::new(record.start(), record.moves()).map_err(|e| bad(e.to_string()))?;
    for (tag, value) in [("South", &req.south), ("North", &req.north)] {
        if let Some(v) = value {
            text.set_tag(tag, v);
        }
    }
    text.set_tag("Date", &pgn::today());
    Ok(Json(serde_json::json!({ "record": pgn::write(&[text]) })))
}

#[derive(Deserialize)]
struct ParseRequest {
    record: String,
}

#[derive(Serialize)]
struct ParsedGame {
    position: String,
    moves: Vec<u8>,
    south: Option<String>,
    north: Option<String>,
}

async fn parse_record(Body(req): Body<ParseRequest>) -> Result<Json<Vec<ParsedGame>>, ApiError> {
    let games = pgn::parse(&req.record).map_err(|e| bad(format!("record: {e}")))?;
    Ok(Json(
        games
            .iter()
            .map(|g| ParsedGame {
                position: g.start.to_string(),
                moves: g.plain_moves().iter().map(|m| m.pit()).collect(),
                south: g.tag("South").map(str::to_string),
                north: g.tag("North").map(str::to_string),
            })
            .collect(),
    ))
}
