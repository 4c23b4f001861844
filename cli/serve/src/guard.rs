//! The server answers only its own page: the `Host`, `Origin` and
//! `Sec-Fetch-Site` checks of every request, and, when it is served
//! beyond this machine, its access token (docs/serve.md, "Safety").

use axum::extract::Request;
use axum::http::{header, HeaderMap, StatusCode};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};

/// Whether `authority` (`host:port`, as in `Host` or after `http://` in
/// `Origin`) names this server listening on `port`: `localhost` or an IP
/// address (a name could be anybody's, made to resolve here), and the
/// port served.
pub fn is_this_server(authority: &str, port: u16) -> bool {
    let (host, given) = match authority.rsplit_once(':') {
        Some((h, p)) if !p.contains(']') => (h, p.parse::<u16>().ok()),
        _ => (authority, Some(80)),
    };
    if given != Some(port) {
        return false;
    }
    let literal = match host.strip_prefix('[').and_then(|h| h.strip_suffix(']')) {
        Some(v6) => v6.parse::<std::net::Ipv6Addr>().is_ok(),
        None => host.parse::<std::net::Ipv4Addr>().is_ok(),
    };
    literal || host.eq_ignore_ascii_case("localhost")
}

/// Why a request is refused, if it is: a `Host` that is not this server,
/// an `Origin` of another site, or a browser's word that the request
/// comes from another site.
pub fn refusal(headers: &HeaderMap, port: u16) -> Option<String> {
    let text = |name: &str| headers.get(name).and_then(|v| v.to_str().ok());
    let host = text(header::HOST.as_str()).unwrap_or("");
    if !is_this_server(host, port) {
        return Some(format!(
            "Host '{}' is not this server's address: open the board at http://127.0.0.1:{port}/",
            host.chars().take(100).collect::<String>()
        ));
    }
    if let Some(origin) = text(header::ORIGIN.as_str()) {
        let ours = origin
            .strip_prefix("http://")
            .is_some_and(|a| is_this_server(a, port));
        if !ours {
            return Some(format!(
                "a request from another site ({}) is refused",
                origin.chars().take(100).collect::<String>()
            ));
        }
    }
    if let Some(site) = text("sec-fetch-site") {
        if !matches!(site, "same-origin" | "none") {
            return Some(format!("a request from another site ({site}) is refused"));
        }
    }
    None
}

/// The cookie that carries the access token once the page is opened
/// with it.
const COOKIE: &str = "mancala_token";

/// How a request shows the access token `token`: `?token=` in its query
/// (the address printed at start), or the cookie set by an answer to
/// such a request, or an `X-Mancala-Token` header (scripts).
#[derive(Debug, PartialEq, Eq)]
pub enum Shown {
    /// In the query: the answer sets the cookie.
    Query,
    /// In the cookie or the header.
    Kept,
    /// Not shown, or not this token.
    No,
}

/// Whether and how the request with `headers` and `query` shows `token`.
pub fn shows_token(headers: &HeaderMap, query: Option<&str>, token: &str) -> Shown {
    let same = |given: &str| {
        given.len() == token.len() && given.bytes().zip(token.bytes()).all(|(a, b)| a == b)
    };
    let in_query = query.is_some_and(|q| {
        q.split('&')
            .filter_map(|kv| kv.split_once('='))
            .any(|(k, v)| k == "token" && same(v))
    });
    if in_query {
        return Shown::Query;
    }
    let in_header = headers
        .get("x-mancala-token")
        .and_then(|v| v.to_str().ok())
        .is_some_and(same);
    let in_cookie = headers
        .get_all(header::COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(';'))
        .filter_map(|kv| kv.trim().split_once('='))
        .any(|(k, v)| k == COOKIE && same(v));
    if in_header || in_cookie {
        Shown::Kept
    } else {
        Shown::No
    }
}

/// The middleware: refused requests get 403 (401 without the token) and
/// `{"error": "…"}`.
pub async fn only_this_origin(
    port: u16,
    token: Option<std::sync::Arc<str>>,
    req: Request,
    next: Next,
) -> Response {
    let refuse = |status, why: String| {
        (status, axum::Json(serde_json::json!({ "error": why }))).into_response()
    };
    if let Some(why) = refusal(req.headers(), port) {
        return refuse(StatusCode::FORBIDDEN, why);
    }
    let Some(token) = token else {
        return next.run(req).await;
    };
    match shows_token(req.headers(), req.uri().query(), &token) {
        Shown::No => refuse(
            StatusCode::UNAUTHORIZED,
            "this board is served to a network and needs its token: open the address `mancala serve` printed".into(),
        ),
        Shown::Kept => next.run(req).await,
        Shown::Query => {
            let mut answer = next.run(req).await;
            let cookie = format!("{COOKIE}={token}; HttpOnly; SameSite=Strict; Path=/");
            if let Ok(v) = cookie.parse() {
                answer.headers_mut().append(header::SET_COOKIE, v);
            }
            answer
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_addresses_of_this_server_pass() {
        let cases = [
            ("127.0.0.1:8080", true),
            ("localhost:8080", true),
            ("LOCALHOST:8080", true),
            ("[::1]:8080", true),
            ("192.168.1.4:8080", true),
            ("127.0.0.1:8081", false),
            ("127.0.0.1", false),
            ("evil.example:8080", false),
            ("localhost.evil.example:8080", false),
            ("[::1]", false),
            ("", false),
            ("[zz]:8080", false),
        ];
        for (authority, ok) in cases {
            assert_eq!(is_this_server(authority, 8080), ok, "{authority}");
        }
        assert!(is_this_server("127.0.0.1", 80));
        assert_eq!(cases.len(), 12);
    }

    #[test]
    fn the_token_is_shown_by_query_cookie_or_header() {
        let t = "0123abcd";
        let h = |k: &'static str, v: &'static str| {
            let mut m = HeaderMap::new();
            m.insert(k, v.parse().unwrap());
            m
        };
        let none = HeaderMap::new();
        assert_eq!(
            shows_token(&none, Some("a=1&token=0123abcd"), t),
            Shown::Query
        );
        assert_eq!(
            shows_token(&h("cookie", "x=1; mancala_token=0123abcd"), None, t),
            Shown::Kept
        );
        assert_eq!(
            shows_token(&h("x-mancala-token", "0123abcd"), None, t),
            Shown::Kept
        );
        for (headers, query) in [
            (HeaderMap::new(), None),
            (HeaderMap::new(), Some("token=0123abc")),
            (HeaderMap::new(), Some("token=0123abcde")),
            (h("cookie", "mancala_token=nope"), Some("x=0123abcd")),
            (h("x-mancala-token", ""), None),
        ] {
            assert_eq!(
                shows_token(&headers, query, t),
                Shown::No,
                "{headers:?} {query:?}"
            );
        }
    }

    #[test]
    fn foreign_origins_and_sites_are_refused() {
        let headers = |pairs: &[(&'static str, &'static str)]| {
            let mut h = HeaderMap::new();
            for (k, v) in pairs {
                h.insert(*k, v.parse().unwrap());
            }
            h
        };
        let host = ("host", "127.0.0.1:9000");
        assert!(refusal(&headers(&[host]), 9000).is_none());
        assert!(refusal(&headers(&[host, ("origin", "http://localhost:9000")]), 9000).is_none());
        assert!(refusal(&headers(&[host, ("sec-fetch-site", "same-origin")]), 9000).is_none());
        for bad in [
            vec![("host", "evil.example:9000")],
            vec![host, ("origin", "http://evil.example")],
            vec![host, ("origin", "null")],
            vec![host, ("origin", "https://127.0.0.1:9000")],
            vec![host, ("sec-fetch-site", "cross-site")],
            vec![],
        ] {
            assert!(refusal(&headers(&bad), 9000).is_some(), "{bad:?}");
        }
    }
}
