//! What a request of `mancala serve` carries, read and checked: JSON
//! bodies and query strings whose errors answer in the API's shape, and a
//! game (a start and its moves) replayed once for the handlers.

use axum::extract::Query;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde::Deserialize;

use mancala_engine::{AnyPosition, AnyRecord, GameId, Move};

use super::MAX_MOVES;

/// An error answer: `{"error": "…"}`.
pub struct ApiError(pub(super) StatusCode, pub(super) String);

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        (self.0, Json(serde_json::json!({ "error": self.1 }))).into_response()
    }
}

/// A 400 answer: the request is bad input.
pub(super) fn bad(message: impl Into<String>) -> ApiError {
    ApiError(StatusCode::BAD_REQUEST, message.into())
}

/// A JSON body, its errors (malformed JSON, a body too large) in our shape.
pub(super) struct Body<T>(pub(super) T);

impl<S: Send + Sync, T: serde::de::DeserializeOwned> axum::extract::FromRequest<S> for Body<T> {
    type Rejection = ApiError;
    async fn from_request(req: axum::extract::Request, state: &S) -> Result<Self, ApiError> {
        // A body sent slowly (or never: a Content-Length it does not keep)
        // holds its connection no longer than BODY_TIMEOUT.
        let read = tokio::time::timeout(super::BODY_TIMEOUT, Json::<T>::from_request(req, state));
        let Ok(read) = read.await else {
            return Err(ApiError(
                StatusCode::REQUEST_TIMEOUT,
                format!(
                    "the body did not arrive within {} s",
                    super::BODY_TIMEOUT.as_secs()
                ),
            ));
        };
        match read {
            Ok(Json(v)) => Ok(Body(v)),
            // A body of the wrong shape is bad input like any other: 400
            // (axum says 422), as docs/serve.md promises; a body too
            // large keeps its 413.
            Err(e) if e.status() == StatusCode::UNPROCESSABLE_ENTITY => Err(bad(e.body_text())),
            Err(e) => Err(ApiError(e.status(), e.body_text())),
        }
    }
}

/// A query string, its errors (a field of the wrong type, a number out of
/// range) as `{"error": "…"}` with 400, like every other bad input.
pub(super) struct Params<T>(pub(super) T);

impl<S: Send + Sync, T: serde::de::DeserializeOwned> axum::extract::FromRequestParts<S>
    for Params<T>
{
    type Rejection = ApiError;
    async fn from_request_parts(
        parts: &mut axum::http::request::Parts,
        state: &S,
    ) -> Result<Self, ApiError> {
        match Query::<T>::from_request_parts(parts, state).await {
            Ok(Query(v)) => Ok(Params(v)),
            Err(e) => Err(bad(e.body_text())),
        }
    }
}

/// A position and the moves played from it, as requests give them.
#[derive(Deserialize)]
pub(super) struct Game {
    /// The notation, or a game's name for its start.
    pub(super) position: String,
    /// Pit numbers.
    #[serde(default)]
    pub(super) moves: Vec<u8>,
}

/// The start position of `text` (notation or a game's name).
fn start_of(text: &str) -> Result<AnyPosition, ApiError> {
    let text = text.trim();
    if !text.contains(char::is_whitespace) {
        // One word: a game's name.
        let game: GameId = text.parse().map_err(|e| bad(format!("{e}")))?;
        return Ok(AnyPosition::start(game));
    }
    text.parse()
        .map_err(|e| bad(format!("bad position '{text}': {e}")))
}

/// `game`'s record: its start and its moves, each checked (the cycle rule
/// included), played once for every handler to read.
pub(super) fn resolve(game: &Game) -> Result<AnyRecord, ApiError> {
    let start = start_of(&game.position)?;
    if game.moves.len() > MAX_MOVES {
        return Err(bad(format!("at most {MAX_MOVES} moves")));
    }
    let moves: Vec<Move> = game.moves.iter().map(|&p| Move::from_pit(p)).collect();
    mancala_tools::protocol::replay_any(start, &moves).map_err(|e| bad(format!("moves: {e}")))
}
