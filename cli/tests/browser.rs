//! The board in a real browser: headless Chromium, driven through
//! ChromeDriver's WebDriver API, loads `mancala serve`'s page, plays moves
//! by clicking pits, watches the analysis, edits a position, and keeps a
//! screenshot of every rule set in `target/browser/`.
//!
//! It needs `/usr/bin/chromium` and `/usr/bin/chromedriver` (Debian's
//! chromium and chromium-driver), so it is ignored by a plain `cargo test`;
//! `.ci/run` installs them and runs it with `--ignored`.

mod common;

use std::io::{BufRead, BufReader};
use std::net::{SocketAddr, TcpListener};
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use common::http::request;
use serde_json::{json, Value};

/// Kills a child process when dropped (a failed assertion included).
struct Killed(Child);

impl Drop for Killed {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

/// A WebDriver session.
struct Browser {
    driver: SocketAddr,
    session: String,
}

const ELEMENT: &str = "element-6066-11e4-a52e-4f735466cecf";

/// Ends the session (and so the browser) when dropped, a failed
/// assertion included: ChromeDriver's own end would leave Chromium running.
impl Drop for Browser {
    fn drop(&mut self) {
        let path = format!("/session/{}", self.session);
        if let Ok(mut s) = std::net::TcpStream::connect(self.driver) {
            use std::io::{Read, Write};
            let _ = s.set_read_timeout(Some(Duration::from_secs(10)));
            let _ = write!(s, "DELETE {path} HTTP/1.1\r\nHost: {}\r\nContent-Length: 0\r\nConnection: close\r\n\r\n", self.driver);
            let _ = s.read(&mut [0u8; 256]);
        }
    }
}

impl Browser {
    fn call(&self, method: &str, path: &str, body: Option<Value>) -> Value {
        let path = format!("/session/{}{path}", self.session);
        let body = body.map(|b| b.to_string());
        let answer = request(self.driver, method, &path, body.as_deref());
        let v = answer.json();
        assert_eq!(answer.status, 200, "{method} {path}: {v}");
        v["value"].clone()
    }

    fn find(&self, css: &str) -> String {
        let v = self.call(
            "POST",
            "/element",
            Some(json!({"using": "css selector", "value": css})),
        );
        v[ELEMENT]
            .as_str()
            .unwrap_or_else(|| panic!("{css}: {v}"))
            .to_string()
    }

    fn click(&self, css: &str) {
        let id = self.find(css);
        self.call("POST", &format!("/element/{id}/click"), Some(json!({})));
    }

    fn type_into(&self, css: &str, text: &str) {
        let id = self.find(css);
        self.call("POST", &format!("/element/{id}/clear"), Some(json!({})));
        self.call(
            "POST",
            &format!("/element/{id}/value"),
            Some(json!({ "text": text })),
        );
    }

    fn script(&self, script: &str) -> Value {
        self.call(
            "POST",
            "/execute/sync",
            Some(json!({"script": script, "args": []})),
        )
    }

    fn text(&self, id: &str) -> String {
        let v = self.script(&format!(
            "const e = document.getElementById('{id}'); return e ? e.textContent : null;"
        ));
        v.as_str().unwrap_or("").to_string()
    }

    /// Waits until `check` holds (the page updates asynchronously).
    fn wait(&self, what: &str, mut check: impl FnMut(&Browser) -> bool) {
        let start = Instant::now();
        while !check(self) {
            assert!(
                start.elapsed() < Duration::from_secs(30),
                "timed out waiting for {what}"
            );
            std::thread::sleep(Duration::from_millis(100));
        }
    }

    fn screenshot(&self, name: &str) -> PathBuf {
        let png = decode_base64(self.call("GET", "/screenshot", None).as_str().unwrap());
        assert_eq!(&png[1..4], b"PNG");
        let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../target/browser");
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join(format!("{name}.png"));
        std::fs::write(&path, png).unwrap();
        path
    }
}

fn decode_base64(text: &str) -> Vec<u8> {
    let value = |c: u8| match c {
        b'A'..=b'Z' => c - b'A',
        b'a'..=b'z' => c - b'a' + 26,
        b'0'..=b'9' => c - b'0' + 52,
        b'+' => 62,
        b'/' => 63,
        _ => panic!("not base64: {c}"),
    };
    let bytes: Vec<u8> = text
        .bytes()
        .filter(|&c| c != b'=' && !c.is_ascii_whitespace())
        .collect();
    let mut out = Vec::with_capacity(bytes.len() * 3 / 4);
    for chunk in bytes.chunks(4) {
        let mut n = 0u32;
        for (i, &c) in chunk.iter().enumerate() {
            n |= (value(c) as u32) << (18 - 6 * i);
        }
        out.extend_from_slice(&n.to_be_bytes()[1..chunk.len()]);
    }
    out
}

#[test]
#[ignore = "needs Chromium and ChromeDriver: .ci/run runs it"]
fn the_board_in_chromium() {
    // The server, on a free port it prints.
    let mut server = Command::new(env!("CARGO_BIN_EXE_mancala"))
        .args(["serve", "--port", "0", "--no-tables"])
        .stdout(Stdio::piped())
        .spawn()
        .expect("mancala serve starts");
    let mut line = String::new();
    BufReader::new(server.stdout.take().unwrap())
        .read_line(&mut line)
        .unwrap();
    let _server = Killed(server);
    let url = line
        .split_whitespace()
        .find(|w| w.starts_with("http://"))
        .unwrap_or_else(|| panic!("an address: {line}"))
        .to_string();

    let port = free_port();
    let driver = Killed(
        Command::new("/usr/bin/chromedriver")
            .arg(format!("--port={port}"))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("chromedriver starts"),
    );
    let addr: SocketAddr = format!("127.0.0.1:{port}").parse().unwrap();
    let start = Instant::now();
    while std::net::TcpStream::connect(addr).is_err() {
        assert!(
            start.elapsed() < Duration::from_secs(20),
            "chromedriver listens"
        );
        std::thread::sleep(Duration::from_millis(100));
    }
    let profile = std::env::temp_dir().join(format!("mancala-chromium-{}", std::process::id()));
    let caps = json!({"capabilities": {"alwaysMatch": {
        "browserName": "chrome",
        "goog:chromeOptions": {
            "binary": "/usr/bin/chromium",
            "args": ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                     "--disable-background-networking", "--disable-component-update", "--disable-sync",
                     "--window-size=1300,900", format!("--user-data-dir={}", profile.display())]
        }
    }}});
    let answer = request(addr, "POST", "/session", Some(&caps.to_string()));
    assert_eq!(answer.status, 200, "{}", answer.body);
    let session = answer.json()["value"]["sessionId"]
        .as_str()
        .unwrap()
        .to_string();
    let b = Browser {
        driver: addr,
        session,
    };

    b.call("POST", "/url", Some(json!({ "url": url })));
    b.wait("the board", |b| b.text("status") == "South to move");
    assert_eq!(
        b.script("return document.querySelectorAll('.pit').length;"),
        12
    );

    // Moves by clicking pits.
    b.click("#pit-3");
    b.wait("South's move", |b| b.text("status") == "North to move");
    b.click("#pit-9");
    b.wait("North's move", |b| b.text("status") == "South to move");
    assert_eq!(b.text("moves"), "1.39");
    assert_eq!(b.text("notation").len(), 0, "an input has no text content");
    let notation = b.script("return document.getElementById('notation').value;");
    assert_eq!(notation, "bohnenspiel 7,7,1,8,7,7/7,7,0,7,7,7 S 0-0");
    // Undo and redo.
    b.click("#back");
    b.wait("undo", |b| b.text("status") == "North to move");
    b.click("#forward");
    b.wait("redo", |b| b.text("status") == "South to move");

    // The analysis: depth grows, every legal pit gets its score.
    b.click("#analyse");
    b.wait("the analysis", |b| {
        b.text("depth").parse::<u32>().is_ok_and(|d| d >= 4)
    });
    b.wait("scores on the pits", |b| {
        b.script("return document.querySelectorAll('.mscore').length;") == 6
    });
    assert!(b.text("score").starts_with("South "), "{}", b.text("score"));
    assert!(!b.text("pv").is_empty());
    b.screenshot("analysis");

    // An endgame set in the editor: proven, "exact" shown.
    b.type_into("#notation", "bohnenspiel 0,1,0,2,0,3/1,0,1,0,0,0 S 32-32");
    b.click("#set-notation");
    b.wait("the endgame proven", |b| b.text("exact") == "exact");
    assert_eq!(b.text("score"), "South +4 seeds");
    // All three moves proven: 2 and 4 win by 4; 6, a draw through a
    // repetition, proven by the solver after the search.
    b.wait("exact scores on the pits", |b| {
        b.script("return document.querySelectorAll('.mscore.exact').length;") == 3
    });
    assert!(!b.text("score-6").is_empty());
    b.screenshot("exact");
    b.click("#analyse");

    // The board editor: a pit's seeds changed, the notation follows.
    b.click("#editor summary");
    b.type_into("#edit-pit-6", "1");
    b.type_into("#edit-ts", "34");
    b.click("#edit-apply");
    b.wait("the edited position", |b| {
        b.script("return document.getElementById('notation').value;")
            == "bohnenspiel 0,1,0,2,0,1/1,0,1,0,0,0 S 34-32"
    });
    // A bad edit is refused with the CLI's message.
    b.type_into("#edit-ts", "35");
    b.click("#edit-apply");
    b.wait("the error", |b| b.text("error").starts_with("bad position"));

    // Every rule set drawn.
    for (game, pits) in [
        ("bohnenspiel", 12),
        ("bohnenspiel-hemprich", 12),
        ("al-manqala", 14),
        ("bosh", 10),
        ("djenon-abe", 12),
    ] {
        b.type_into("#notation", game);
        b.click("#set-notation");
        b.wait(game, |b| {
            b.script("return document.querySelectorAll('.pit').length;") == pits
                && b.text("error").is_empty()
                && b.text("depth") == "–"
        });
        b.screenshot(game);
    }
    // Hemprich: a player without seeds passes (move 0), by a button.
    b.type_into(
        "#notation",
        "bohnenspiel-hemprich 0,0,0,0,0,0/0,0,0,0,2,1 S 35-34",
    );
    b.click("#set-notation");
    b.wait("the pass button", |b| {
        b.script("return document.getElementById('pass').hidden;") == false
    });
    b.click("#pass");
    b.wait("the pass played", |b| {
        b.text("moves") == "1.0" && b.text("status") == "North to move"
    });
    assert_eq!(
        b.script("return document.getElementById('pass').hidden;"),
        true
    );
    // Bosh with a closed pit.
    b.type_into("#notation", "bosh 4,4,4,4,4/x,4,4,4,4 N 3-1");
    b.click("#set-notation");
    b.wait("a closed pit", |b| {
        b.script("return document.querySelectorAll('.pit.closed').length;") == 1
    });
    b.screenshot("bosh-closed");

    // Against the engine: it answers as North.
    b.type_into("#notation", "bohnenspiel");
    b.click("#set-notation");
    b.wait("the start", |b| b.text("status") == "South to move");
    b.script("const s = document.getElementById('level'); s.value = 'easy'; const e = document.getElementById('engine-side'); e.value = 'north'; e.dispatchEvent(new Event('change')); return 0;");
    b.click("#pit-1");
    b.wait("the engine's reply", |b| {
        b.text("moves").split_whitespace().count() >= 1 && b.text("status") == "South to move"
    });
    b.screenshot("engine");
    b.script("document.getElementById('engine-side').value = ''; return 0;");

    // Save the game, load it back, review it: a graph with clickable marks.
    b.click("#save");
    b.wait("the record", |b| {
        b.script("return document.getElementById('record').value;")
            .as_str()
            .is_some_and(|r| r.starts_with("[Game \"bohnenspiel\"]"))
    });
    b.type_into("#record", "[Game \"bosh\"]\n\n1. 1 9 2. 5 *\n");
    b.click("#load");
    b.wait("the loaded game", |b| b.text("moves") == "1.192.5");
    b.script("document.getElementById('review-time').value = '50'; return 0;");
    b.click("#review");
    b.wait("the review graph", |b| {
        b.script("return document.querySelectorAll('#graph polyline').length;") == 1
            && b.text("review-summary").starts_with("South:")
    });
    let marks = b.script("return document.querySelectorAll('#graph .mark').length;");
    assert!(
        marks.as_u64().unwrap() >= 1,
        "a proven or marked move: {marks}"
    );
    // The graph has axes, a legend and the sides' shapes.
    let labels = b.script(
        "return Array.from(document.querySelectorAll('#graph text')).map((t) => t.textContent).join('|');",
    );
    let labels = labels.as_str().unwrap();
    for label in [
        "+20",
        "-20",
        "inaccuracy ?!",
        "mistake ?",
        "blunder ??",
        "● South ■ North",
        "ply (click to go there)",
        "South's value, seeds",
    ] {
        assert!(labels.contains(label), "{label}: {labels}");
    }
    let ply = b.script("return Number(document.querySelector('#graph .mark').dataset.ply);");
    let ply = ply.as_u64().unwrap();
    b.click("#graph .mark");
    // The marked move is the current one: the position after it.
    let current =
        "const c = document.querySelector('#moves .current'); return c ? c.dataset.ply : null;";
    b.wait("the marked move", |b| {
        b.script(current) == json!(ply.to_string())
    });
    // A click on the plot goes to the nearest ply: the far left is the
    // start (no move current).
    b.script(
        "const a = document.querySelector('#graph .area'); const r = a.getBoundingClientRect(); \
         a.dispatchEvent(new MouseEvent('click', { clientX: r.left + 1, clientY: r.top + r.height / 2, bubbles: true })); return 0;",
    );
    b.wait("the start, from a click on the graph", |b| {
        b.script(current) == Value::Null
    });
    // The summary: accuracy and average loss per side, singular for one.
    let summary = b.text("review-summary");
    assert!(
        summary.contains("South: accuracy ") && summary.contains(" %, average loss "),
        "{summary}"
    );
    assert!(
        !summary.contains(" 1 inaccuracies")
            && !summary.contains(" 1 mistakes")
            && !summary.contains(" 1 blunders"),
        "{summary}"
    );
    b.screenshot("review");

    // A phone: 400 px wide. The header keeps to two rows, the pit numbers
    // and scores stay readable (at least 9 px high on the screen).
    b.call(
        "POST",
        "/window/rect",
        Some(json!({"width": 400, "height": 900})),
    );
    b.wait("the narrow layout", |b| {
        b.script("return window.innerWidth;")
            .as_u64()
            .is_some_and(|w| w <= 420)
    });
    let header =
        b.script("return document.querySelector('header').getBoundingClientRect().height;");
    assert!(header.as_f64().unwrap() <= 80.0, "header {header} px high");
    let smallest = b.script(
        "return Math.min(...Array.from(document.querySelectorAll('#board .num, #board .mscore')).map((t) => t.getBoundingClientRect().height).filter((h) => h > 0));",
    );
    assert!(
        smallest.as_f64().unwrap() >= 9.0,
        "smallest board text {smallest} px"
    );
    let wide = b.script("return document.documentElement.scrollWidth;");
    assert!(
        wide.as_u64().unwrap() <= 420,
        "the page scrolls sideways: {wide} px"
    );
    b.script("window.scrollTo(0, 0); return 0;");
    b.screenshot("narrow-400px");
    drop(b);
    let _ = std::fs::remove_dir_all(profile);
    drop(driver);
}
