//! `mancala serve`'s API, in-process: every endpoint, bad input, a client
//! that goes away mid-analysis, many clients at once.

mod common;

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::{Duration, Instant};

use common::http::{encode, get, post, request_with, Events};
use mancala_engine::tablebase::TableSet;
use mancala_serve::{self as serve, State, MAX_ANALYSES};

/// A server on a free port, and its state. Its budget of cores lets every
/// analysis and job it allows run at once (the budget itself is
/// `every_search_waits_for_a_core_of_the_budget`'s).
fn server() -> (SocketAddr, Arc<State>) {
    server_with(MAX_ANALYSES + serve::MAX_JOBS)
}

/// A server on a free port whose searches share `cores` cores.
fn server_with(cores: usize) -> (SocketAddr, Arc<State>) {
    let state = Arc::new(State::with_cores(TableSet::default(), cores));
    let (tx, rx) = std::sync::mpsc::channel();
    let shared = state.clone();
    std::thread::spawn(move || {
        serve::run_with("127.0.0.1:0".parse().unwrap(), shared, |addr, token| {
            assert!(token.is_none(), "no token on loopback");
            tx.send(addr).unwrap()
        })
        .unwrap()
    });
    (
        rx.recv_timeout(Duration::from_secs(10)).expect("listening"),
        state,
    )
}

/// `mancala serve` on loopback in a process of its own, and its address.
fn local_process() -> (std::process::Child, SocketAddr) {
    let (child, url) = common::serve_process(&["--port", "0", "--no-tables"]);
    let addr = url
        .trim_start_matches("http://")
        .trim_end_matches('/')
        .parse()
        .unwrap();
    (child, addr)
}

fn wait_until(what: &str, mut done: impl FnMut() -> bool) {
    let start = Instant::now();
    while !done() {
        assert!(
            start.elapsed() < Duration::from_secs(20),
            "timed out: {what}"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
}

#[test]
fn the_page_and_the_games() {
    let (addr, _) = server();
    let page = get(addr, "/");
    assert_eq!(page.status, 200);
    assert!(
        page.body.contains("<svg id=\"board\""),
        "the page has the board"
    );
    assert!(
        !page.body.contains("http://") || !page.body.contains("<script src"),
        "nothing fetched from elsewhere"
    );
    let games = get(addr, "/api/games").json();
    let all = "bohnenspiel bohnenspiel-hemprich al-manqala bosh djenon-abe kalah kalah-empty oware";
    assert_eq!(names(&games), all.split(' ').collect::<Vec<_>>());
    assert_eq!(games[3]["start"], "bosh 4,4,4,4,4/4,4,4,4,4 S 0-0");
    assert_eq!(games[2]["pits"], 7);
    let missing = get(addr, "/nothing/here");
    assert_eq!(missing.status, 404);
    assert!(missing.json()["error"].is_string());
}

/// The board's game list is the one list of games, in its order.
#[test]
fn the_board_lists_every_game() {
    let (addr, _) = server();
    let games = get(addr, "/api/games").json();
    let all: Vec<&str> = mancala_engine::GameId::ALL
        .iter()
        .map(|g| g.name())
        .collect();
    assert_eq!(names(&games), all);
}

/// The names in `/api/games`'s answer, in its order.
fn names(games: &serde_json::Value) -> Vec<&str> {
    games
        .as_array()
        .unwrap()
        .iter()
        .map(|g| g["name"].as_str().unwrap())
        .collect()
}

#[test]
fn positions_and_moves() {
    let (addr, _) = server();
    let r = post(
        addr,
        "/api/position",
        r#"{"position":"bohnenspiel","moves":[3,9]}"#,
    );
    assert_eq!(r.status, 200, "{}", r.body);
    let v = r.json();
    assert_eq!(v["positions"].as_array().unwrap().len(), 3);
    assert_eq!(
        v["current"]["position"],
        "bohnenspiel 7,7,1,8,7,7/7,7,0,7,7,7 S 0-0"
    );
    assert_eq!(v["current"]["side"], "south");
    assert_eq!(v["current"]["legal"], serde_json::json!([1, 2, 3, 4, 5, 6]));
    assert_eq!(v["current"]["result"], serde_json::Value::Null);
    // Closed Bosh pits are null; a finished game has its result.
    let v = post(
        addr,
        "/api/position",
        r#"{"position":"bosh 4,4,4,4,4/x,4,4,4,4 N 3-1"}"#,
    )
    .json();
    assert_eq!(v["current"]["pits"][5], serde_json::Value::Null);
    assert_eq!(v["current"]["pits"][6], 4);
    let v = post(
        addr,
        "/api/position",
        r#"{"position":"bohnenspiel 0,0,0,0,0,0/0,0,0,0,0,1 S 40-31"}"#,
    )
    .json();
    assert_eq!(v["current"]["result"], serde_json::json!([40, 32]));
    assert_eq!(v["current"]["winner"], "south");
    assert_eq!(v["current"]["end"], "rules");
}

#[test]
fn bad_input_gets_the_cli_s_messages() {
    let (addr, _) = server();
    let cases = [
        ("/api/position", r#"{"position":"bohnenspiel 1,2/3 S 0-0"}"#, "bad position 'bohnenspiel 1,2/3 S 0-0': bohnenspiel: south's row has 2 pits, expected 6"),
        ("/api/position", r#"{"position":"bohnenspiel","moves":[3,3]}"#, "moves: ply 2: pit 3: the pit belongs to the other player"),
        ("/api/position", r#"{"position":"chess"}"#, "unknown game 'chess'"),
        ("/api/position", r#"{"position":"bohnenspiel 6,6,6,6,6,6/6,6,6,6,6,6 S 9-0"}"#, "bad position"),
        ("/api/position", r#"{"position":"#, "JSON"),
        ("/api/solve", r#"{"position":"bosh","time_ms":0}"#, "time_ms"),
        ("/api/engine", r#"{"position":"bosh","level":"grandmaster"}"#, "level"),
        ("/api/engine", r#"{"position":"bohnenspiel 0,0,0,0,0,0/0,0,0,0,0,1 S 40-31"}"#, "over"),
        ("/api/review", r#"{"position":"bosh","moves":[2,9],"time_ms":40000}"#, "time_ms times the moves"),
        ("/api/review", r#"{"position":"bosh","moves":[2],"time_ms":60001}"#, "time_ms"),
        ("/api/record/parse", r#"{"record":"[Game \"chess\"]\n\n1. e4 *"}"#, "record"),
        // Fields of the wrong type: 400 too (axum's own answer is 422).
        ("/api/position", r#"{"position":5}"#, "position"),
        ("/api/solve", r#"{"position":"bosh","moves":"x"}"#, "expected a sequence"),
    ];
    for (path, body, message) in cases {
        let r = post(addr, path, body);
        assert_eq!(r.status, 400, "{path} {body}: {}", r.body);
        let error = r.json()["error"].as_str().unwrap().to_string();
        assert!(
            error.contains(message),
            "{path} {body}: {error:?} should say {message:?}"
        );
        assert_eq!(error.lines().count(), 1);
    }
    // A query string of the wrong type: 400 and JSON, not plain text.
    for query in ["threads=99999999999999999999", "threads=x"] {
        let r = get(addr, &format!("/api/analyze?position=bosh&{query}"));
        assert_eq!(r.status, 400, "{query}: {}", r.body);
        assert!(r.json()["error"].as_str().unwrap().contains("threads"));
    }
    // A body over the limit.
    let huge = format!(
        r#"{{"position":"bosh","moves":[{}2]}}"#,
        "2,".repeat(serve::MAX_BODY)
    );
    assert_eq!(post(addr, "/api/position", &huge).status, 413);
    let r = common::http::get(addr, "/api/analyze?position=bosh&threads=99");
    assert_eq!(r.status, 400);
    assert!(r.json()["error"].as_str().unwrap().contains("threads"));
}

#[test]
fn solve_engine_review_and_records() {
    let (addr, _) = server();
    let v = post(
        addr,
        "/api/solve",
        r#"{"position":"bohnenspiel 0,1,0,2,0,3/1,0,1,0,0,0 S 32-32"}"#,
    )
    .json();
    assert_eq!(v["margin"], 4);
    assert_eq!(v["best"], serde_json::json!([2, 4]));
    assert_eq!(v["proven"], true);
    // A proof cut short by its time says what it proved.
    let v = post(
        addr,
        "/api/solve",
        r#"{"position":"djenon-abe","time_ms":50}"#,
    )
    .json();
    assert_eq!(v["proven"], false);
    assert!(v["lower"].as_i64().unwrap() <= v["upper"].as_i64().unwrap());
    // The engine at every level gives a legal move.
    for level in ["easy", "medium", "hard"] {
        let v = post(
            addr,
            "/api/engine",
            &format!(r#"{{"position":"bohnenspiel","moves":[3],"level":"{level}"}}"#),
        )
        .json();
        let mv = v["move"].as_u64().unwrap();
        assert!((7..=12).contains(&mv), "{level}: {v}");
    }
    // In a solved game the engine's move is proven.
    let v = post(
        addr,
        "/api/engine",
        r#"{"position":"bosh","level":"expert"}"#,
    )
    .json();
    assert_eq!(v["exact"], true);
    assert!([2, 5].contains(&v["move"].as_u64().unwrap()), "{v}");
    let plies = post(
        addr,
        "/api/review",
        r#"{"position":"bohnenspiel","moves":[3,9,2,8],"time_ms":20}"#,
    )
    .json();
    let plies = plies.as_array().unwrap();
    assert_eq!(plies.len(), 4);
    assert_eq!(plies[1]["side"], "north");
    assert_eq!(plies[1]["move"], 9);
    // A record written, then read back.
    let rec = post(
        addr,
        "/api/record",
        r#"{"position":"bosh","moves":[2,9],"south":"me"}"#,
    )
    .json();
    let text = rec["record"].as_str().unwrap();
    assert!(
        text.contains("[Game \"bosh\"]") && text.contains("[South \"me\"]"),
        "{text}"
    );
    let back = post(
        addr,
        "/api/record/parse",
        &serde_json::json!({ "record": text }).to_string(),
    )
    .json();
    assert_eq!(back[0]["moves"], serde_json::json!([2, 9]));
    assert_eq!(back[0]["position"], "bosh 4,4,4,4,4/4,4,4,4,4 S 0-0");
}

#[test]
fn a_live_analysis_streams_and_stops_when_its_client_goes() {
    let (addr, state) = server();
    let path = format!(
        "/api/analyze?position={}&moves=3&client=a",
        encode("bohnenspiel")
    );
    let mut events = Events::open(addr, &path);
    assert_eq!(events.status, 200);
    let mut depth = 0;
    for _ in 0..3 {
        let u = events.next().expect("an update");
        assert!(u["depth"].as_u64().unwrap() > depth);
        depth = u["depth"].as_u64().unwrap();
        assert_eq!(u["moves"].as_array().unwrap().len(), 6, "every move scored");
        assert_eq!(u["done"], false);
        // Alone, the analysis runs on every core of the server's budget.
        assert_eq!(u["threads"].as_u64(), Some(state.cores().budget() as u64));
    }
    assert_eq!(state.analyses_running(), 1);
    assert_eq!(state.cores().free(), 0);
    drop(events);
    wait_until("the analysis stops when its client goes", || {
        state.analyses_running() == 0
    });
    wait_until("its cores are given back", || {
        state.cores().free() == state.cores().budget()
    });

    // An endgame is proven: the stream ends with an exact, done update.
    let path = format!(
        "/api/analyze?position={}",
        encode("bohnenspiel 0,1,0,2,0,3/1,0,1,0,0,0 S 32-32")
    );
    let mut events = Events::open(addr, &path);
    let mut last = None;
    while let Some(u) = events.next() {
        let done = u["done"] == true;
        last = Some(u);
        if done {
            break;
        }
    }
    let last = last.expect("updates");
    assert_eq!(last["exact"], true);
    assert_eq!(last["score"], 4.0);
    wait_until("a finished analysis frees its place", || {
        state.analyses_running() == 0
    });
}

#[test]
fn a_client_s_new_analysis_ends_its_last_and_places_are_bounded() {
    let (addr, state) = server();
    let path = |client: &str| format!("/api/analyze?position=bohnenspiel&client={client}");
    let mut first = Events::open(addr, &path("same"));
    first.next().expect("an update");
    let mut second = Events::open(addr, &path("same"));
    second.next().expect("an update");
    // The first is stopped: its last update comes, then the stream ends.
    let mut ended = false;
    while let Some(u) = first.next() {
        if u["done"] == true {
            ended = true;
            break;
        }
    }
    assert!(ended, "the first analysis ended");
    drop(first);
    drop(second);
    wait_until("both gone", || state.analyses_running() == 0);
    // At most MAX_ANALYSES at once.
    let mut open: Vec<Events> = (0..MAX_ANALYSES)
        .map(|i| Events::open(addr, &path(&format!("c{i}"))))
        .collect();
    for e in &mut open {
        assert_eq!(e.status, 200);
        e.next().expect("an update");
    }
    let refused = get(addr, &path("one-too-many"));
    assert_eq!(refused.status, 503, "{}", refused.body);
    drop(open);
    wait_until("all gone", || state.analyses_running() == 0);
    // No client is remembered once its analysis has ended.
    wait_until("every client forgotten", || state.clients() == 0);
}

#[test]
fn many_clients_at_once_are_all_answered() {
    let (addr, _) = server();
    let start = Instant::now();
    let clients: Vec<_> = (0..32)
        .map(|i| {
            std::thread::spawn(move || {
                let body = format!(r#"{{"position":"djenon-abe","moves":[{}]}}"#, 1 + i % 6);
                let r = post(addr, "/api/position", &body);
                assert_eq!(r.status, 200, "{}", r.body);
                assert_eq!(get(addr, "/api/games").status, 200);
            })
        })
        .collect();
    for c in clients {
        c.join().expect("the client got its answers");
    }
    assert!(
        start.elapsed() < Duration::from_secs(20),
        "{:?}",
        start.elapsed()
    );
}

#[test]
fn bad_serve_options_exit_2() {
    common::assert_bad_input(
        &common::mancala(&["serve", "--host", "foo"]),
        &["--host foo"],
    );
    common::assert_bad_input(&common::mancala(&["serve", "--port", "99999"]), &["--port"]);
    // A port already taken.
    let taken = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = taken.local_addr().unwrap().port().to_string();
    common::assert_bad_input(
        &common::mancala(&["serve", "--port", &port]),
        &["cannot listen", &port],
    );
}

#[test]
fn other_searches_are_bounded_too() {
    let (addr, _) = server();
    // More slow solves at once than there are places: the extra ones are
    // refused at once (503), the others answered.
    let clients: Vec<_> = (0..serve::MAX_JOBS + 3)
        .map(|_| {
            std::thread::spawn(move || {
                post(
                    addr,
                    "/api/solve",
                    r#"{"position":"djenon-abe","time_ms":3000}"#,
                )
                .status
            })
        })
        .collect();
    let statuses: Vec<u16> = clients.into_iter().map(|c| c.join().unwrap()).collect();
    let answered = statuses.iter().filter(|&&s| s == 200).count();
    let refused = statuses.iter().filter(|&&s| s == 503).count();
    assert_eq!(answered + refused, statuses.len(), "{statuses:?}");
    assert!((1..=serve::MAX_JOBS).contains(&answered), "{statuses:?}");
    assert!(refused >= 3, "{statuses:?}");
    // The places are free again afterwards.
    assert_eq!(
        post(addr, "/api/solve", r#"{"position":"bosh","time_ms":3000}"#).status,
        200
    );
}

/// Only this server's own page is answered: a foreign `Host` (a page whose
/// name was made to resolve here) and a foreign `Origin` or a cross-site
/// fetch (any page the user visits) get 403, and start no search.
#[test]
fn other_sites_are_refused() {
    let (addr, state) = server();
    let port = addr.port();
    let analyze = format!(
        "/api/analyze?position={}",
        encode("bohnenspiel 6,6,6,6,6,6/6,6,6,6,6,6 S 0-0")
    );
    let mut refused = 0;
    for headers in [
        format!("Host: evil.example:{port}\r\n"),
        "Host: evil.example\r\n".to_string(),
        format!("Host: 127.0.0.1:{}\r\n", port.wrapping_add(1)),
        String::new(),
        format!("Host: {addr}\r\nOrigin: http://evil.example\r\n"),
        format!("Host: {addr}\r\nOrigin: null\r\n"),
        format!("Host: {addr}\r\nSec-Fetch-Site: cross-site\r\n"),
    ] {
        for (method, path) in [
            ("GET", "/api/games"),
            ("GET", analyze.as_str()),
            ("GET", "/"),
        ] {
            let a = request_with(addr, method, path, None, &headers);
            assert_eq!(a.status, 403, "{headers:?} {path}: {}", a.body);
            assert!(a.json()["error"].is_string());
            refused += 1;
        }
        let a = request_with(
            addr,
            "POST",
            "/api/solve",
            Some(r#"{"position":"bohnenspiel 6,6,6,6,6,6/6,6,6,6,6,6 S 0-0"}"#),
            &headers,
        );
        assert_eq!(a.status, 403, "{headers:?}: {}", a.body);
        refused += 1;
    }
    assert_eq!(refused, 28);
    assert_eq!(
        state.analyses_running(),
        0,
        "a refused request started a search"
    );
    // The board's own addresses, and its own page's requests, pass.
    for headers in [
        format!("Host: localhost:{port}\r\n"),
        format!("Host: {addr}\r\nOrigin: http://{addr}\r\nSec-Fetch-Site: same-origin\r\n"),
        format!("Host: localhost:{port}\r\nOrigin: http://127.0.0.1:{port}\r\n"),
    ] {
        let a = request_with(addr, "GET", "/api/games", None, &headers);
        assert_eq!(a.status, 200, "{headers:?}: {}", a.body);
    }
}

/// A connection that does not finish its headers, or sends nothing, is
/// closed after `HEADER_TIMEOUT`; more connections than `MAX_CONNECTIONS`
/// are not all taken (the server's descriptors stay bounded), and a normal
/// request still gets its answer once the stalled ones time out. The
/// server is a process of its own, so that its descriptors are counted
/// alone.
#[test]
fn stalled_and_excess_connections_are_bounded() {
    use std::io::{Read, Write};
    use std::net::TcpStream;
    let (mut child, addr) = local_process();
    let fds = || {
        std::fs::read_dir(format!("/proc/{}/fd", child.id()))
            .unwrap()
            .count()
    };
    let before = fds();
    let mut stalled = TcpStream::connect(addr).unwrap();
    stalled
        .write_all(b"GET /api/games HTTP/1.1\r\nHost: x\r\nX-a: ")
        .unwrap();
    let held: Vec<TcpStream> = (0..serve::MAX_CONNECTIONS + 50)
        .map(|_| TcpStream::connect(addr).unwrap())
        .collect();
    std::thread::sleep(Duration::from_millis(500));
    let accepted = fds() - before;
    assert!(
        accepted <= serve::MAX_CONNECTIONS,
        "{accepted} connections taken"
    );
    let started = Instant::now();
    let games = get(addr, "/api/games");
    assert_eq!(games.status, 200);
    let waited = started.elapsed();
    assert!(
        waited < serve::HEADER_TIMEOUT + Duration::from_secs(5),
        "{waited:?}"
    );
    // The stalled header was closed, not answered.
    stalled
        .set_read_timeout(Some(serve::HEADER_TIMEOUT + Duration::from_secs(10)))
        .unwrap();
    let mut rest = Vec::new();
    let n = stalled.read_to_end(&mut rest).unwrap_or(0);
    assert!(started.elapsed() < serve::HEADER_TIMEOUT + Duration::from_secs(10));
    assert!(
        n == 0 || String::from_utf8_lossy(&rest).starts_with("HTTP/1.1 408"),
        "{n}"
    );
    drop(held);
    let _ = child.kill();
    let _ = child.wait();
}

/// Served beyond loopback, the board prints an address with an access
/// token, and answers only requests that show it: in the query (the
/// answer then sets a cookie), the cookie, or a header.
#[test]
fn beyond_loopback_a_token_is_required() {
    let (mut child, url) =
        common::serve_process(&["--host", "0.0.0.0", "--port", "0", "--no-tables"]);
    let (authority, token) = url
        .trim_start_matches("http://")
        .split_once("/?token=")
        .unwrap_or_else(|| panic!("a token: {url}"));
    assert_eq!(token.len(), 32, "{token}");
    let addr: SocketAddr = authority.parse().unwrap();
    let host = format!("Host: {addr}\r\n");
    let no_token = request_with(addr, "GET", "/api/games", None, &host);
    assert_eq!(no_token.status, 401, "{}", no_token.body);
    assert!(no_token.json()["error"].as_str().unwrap().contains("token"));
    let wrong = request_with(addr, "GET", "/api/games?token=0", None, &host);
    assert_eq!(wrong.status, 401);
    let page = request_with(addr, "GET", &format!("/?token={token}"), None, &host);
    assert_eq!(page.status, 200);
    let cookie = format!("{host}Cookie: mancala_token={token}\r\n");
    assert_eq!(
        request_with(addr, "GET", "/api/games", None, &cookie).status,
        200
    );
    let header = format!("{host}X-Mancala-Token: {token}\r\n");
    assert_eq!(
        request_with(addr, "GET", "/api/games", None, &header).status,
        200
    );
    let _ = child.kill();
    let _ = child.wait();
}

/// Issue 66: connections that send a body slowly (a `Content-Length` they
/// do not keep) or that pipeline requests and never read the answers
/// hold their places no longer than the timeouts: a normal request made
/// while every place is taken is answered within them.
#[test]
fn slow_bodies_and_unread_answers_lock_no_one_out() {
    use std::io::Write;
    use std::net::TcpStream;
    let (mut child, addr) = local_process();
    let mut held = Vec::new();
    for _ in 0..200 {
        let mut s = TcpStream::connect(addr).unwrap();
        write!(
            s,
            "POST /api/position HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{{"
        )
        .unwrap();
        held.push(s);
    }
    let pipelined = format!("GET / HTTP/1.1\r\nHost: {addr}\r\n\r\n").repeat(200);
    for _ in 0..60 {
        let mut s = TcpStream::connect(addr).unwrap();
        s.set_nonblocking(true).unwrap();
        // Never read: the answers (the page, 200 times) fill the buffers.
        let _ = s.write_all(pipelined.as_bytes());
        held.push(s);
    }
    std::thread::sleep(Duration::from_millis(500));
    let started = Instant::now();
    let games = get(addr, "/api/games");
    let waited = started.elapsed();
    assert_eq!(games.status, 200, "{}", games.body);
    assert!(
        waited < serve::BODY_TIMEOUT.max(serve::WRITE_TIMEOUT) + Duration::from_secs(5),
        "{waited:?}"
    );
    drop(held);
    let _ = child.kill();
    let _ = child.wait();
}

/// Issue 66: analyses asked for without a client id are each a client of
/// their own (they stopped one another, all sharing the id ""), and a
/// client's new analysis takes its last one's place even when every place
/// is taken (it was refused with 503, leaving it none).
#[test]
fn clients_analyses_never_stop_another_s() {
    let (addr, state) = server();
    let anonymous = "/api/analyze?position=bohnenspiel";
    let mut first = Events::open(addr, anonymous);
    first.next().expect("an update");
    let mut second = Events::open(addr, anonymous);
    second.next().expect("an update");
    for _ in 0..2 {
        let u = first.next().expect("the first goes on");
        assert_ne!(u["done"], true, "the first was not stopped: {u}");
    }
    drop(first);
    drop(second);
    wait_until("both gone", || state.analyses_running() == 0);
    let path = |client: &str| format!("/api/analyze?position=bohnenspiel&client={client}");
    let mut open: Vec<Events> = (0..MAX_ANALYSES)
        .map(|i| Events::open(addr, &path(&format!("c{i}"))))
        .collect();
    for e in &mut open {
        e.next().expect("an update");
    }
    let mut again = Events::open(addr, &path("c0"));
    assert_eq!(
        again.status, 200,
        "a client's new analysis replaces its last"
    );
    again.next().expect("an update");
    drop(again);
    drop(open);
    wait_until("all gone", || state.analyses_running() == 0);
}

/// Issue 66: every search of the server holds a core of its budget while
/// it runs (`serve --threads 1` ran eight search threads): with one core
/// and an analysis running, a solve halts the analysis, runs on the core,
/// and gives it back; the analysis then goes on.
#[test]
fn every_search_holds_a_core_of_the_budget() {
    let (addr, state) = server_with(1);
    let mut analysis = Events::open(addr, "/api/analyze?position=bohnenspiel&client=a");
    let first = analysis.next().expect("an update");
    assert_eq!(first["threads"], 1, "{first}");
    assert_eq!(state.cores().free(), 0);
    let answer = post(
        addr,
        "/api/solve",
        r#"{"position":"bohnenspiel","time_ms":500}"#,
    );
    assert_eq!(answer.status, 200, "{}", answer.body);
    // The analysis halted for the solve and went on afterwards: its depths
    // start again (from its table, quickly), and it is not done.
    let started = Instant::now();
    let mut last = first["depth"].as_u64().unwrap();
    let mut seen = vec![last];
    let restarted = loop {
        let u = analysis.next().expect("the analysis goes on");
        assert_ne!(u["done"], true, "{u}");
        let depth = u["depth"].as_u64().unwrap();
        seen.push(depth);
        if depth <= last {
            break true;
        }
        last = depth;
        if started.elapsed() > Duration::from_secs(30) {
            break false;
        }
    };
    assert!(
        restarted,
        "the analysis yielded its core to the solve: {seen:?}"
    );
    drop(analysis);
    wait_until("the core given back", || state.cores().free() == 1);
}
