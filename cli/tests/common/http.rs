//! A small HTTP/1.1 client over a socket, for the tests of `mancala serve`
//! and for driving ChromeDriver (its WebDriver API is JSON over HTTP).
#![allow(dead_code)]

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::time::Duration;

/// An answer: the status and the body.
pub struct Answer {
    pub status: u16,
    pub body: String,
}

impl Answer {
    /// The body as JSON.
    pub fn json(&self) -> serde_json::Value {
        serde_json::from_str(&self.body).unwrap_or_else(|e| panic!("{e}: {}", self.body))
    }
}

/// Sends one request (`Connection: close`) and reads the whole answer.
pub fn request(addr: SocketAddr, method: &str, path: &str, body: Option<&str>) -> Answer {
    request_with(addr, method, path, body, &format!("Host: {addr}\r\n"))
}

/// [`request`] with `headers` (whole lines, `Host` among them) instead of
/// the `Host` of `addr`.
pub fn request_with(
    addr: SocketAddr,
    method: &str,
    path: &str,
    body: Option<&str>,
    headers: &str,
) -> Answer {
    let mut s = TcpStream::connect(addr).expect("the server listens");
    s.set_read_timeout(Some(Duration::from_secs(120))).unwrap();
    let body = body.unwrap_or("");
    write!(
        s,
        "{method} {path} HTTP/1.1\r\n{headers}Content-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    )
    .unwrap();
    let mut reader = BufReader::new(s);
    let (status, headers) = head(&mut reader);
    let mut raw = Vec::new();
    if headers
        .iter()
        .any(|h| h.eq_ignore_ascii_case("transfer-encoding: chunked"))
    {
        loop {
            let mut size = String::new();
            reader.read_line(&mut size).unwrap();
            let n = usize::from_str_radix(size.trim(), 16).unwrap_or(0);
            if n == 0 {
                break;
            }
            let mut chunk = vec![0; n + 2];
            reader.read_exact(&mut chunk).unwrap();
            raw.extend_from_slice(&chunk[..n]);
        }
    } else if let Some(n) = headers.iter().find_map(|h| {
        let (name, value) = h.split_once(':')?;
        name.eq_ignore_ascii_case("content-length")
            .then(|| value.trim().parse::<usize>().ok())?
    }) {
        raw.resize(n, 0);
        reader.read_exact(&mut raw).unwrap();
    } else {
        reader.read_to_end(&mut raw).unwrap();
    }
    Answer {
        status,
        body: String::from_utf8_lossy(&raw).into_owned(),
    }
}

/// Reads the status line and the headers.
fn head(reader: &mut impl BufRead) -> (u16, Vec<String>) {
    let mut line = String::new();
    reader.read_line(&mut line).unwrap();
    let status = line
        .split_whitespace()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(|| panic!("a status line: {line:?}"));
    let mut headers = Vec::new();
    loop {
        let mut h = String::new();
        reader.read_line(&mut h).unwrap();
        let h = h.trim_end().to_string();
        if h.is_empty() {
            break;
        }
        headers.push(h);
    }
    (status, headers)
}

pub fn get(addr: SocketAddr, path: &str) -> Answer {
    request(addr, "GET", path, None)
}

pub fn post(addr: SocketAddr, path: &str, body: &str) -> Answer {
    request(addr, "POST", path, Some(body))
}

/// A server-sent event stream being read.
pub struct Events {
    reader: BufReader<TcpStream>,
    pub status: u16,
}

impl Events {
    /// Opens `path` as an event stream.
    pub fn open(addr: SocketAddr, path: &str) -> Events {
        let mut s = TcpStream::connect(addr).expect("the server listens");
        s.set_read_timeout(Some(Duration::from_secs(60))).unwrap();
        write!(
            s,
            "GET {path} HTTP/1.1\r\nHost: {addr}\r\nAccept: text/event-stream\r\n\r\n"
        )
        .unwrap();
        let mut reader = BufReader::new(s);
        let (status, _) = head(&mut reader);
        Events { reader, status }
    }

    /// The next event's data as JSON, `None` at the end of the stream.
    pub fn next(&mut self) -> Option<serde_json::Value> {
        let mut line = String::new();
        loop {
            line.clear();
            if self.reader.read_line(&mut line).ok()? == 0 {
                return None;
            }
            // Chunk sizes and keep-alive comments come between the events.
            if let Some(data) = line.trim_end().strip_prefix("data: ") {
                return serde_json::from_str(data).ok();
            }
        }
    }
}

/// URL-encodes a query value.
pub fn encode(text: &str) -> String {
    text.bytes()
        .map(|b| match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'.' => (b as char).to_string(),
            _ => format!("%{b:02X}"),
        })
        .collect()
}
