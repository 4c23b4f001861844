//! The game record format: PGN-like text, several games a file.
//!
//! ```text
//! [Game "bohnenspiel"]
//! [Date "2026.12.01"]
//! [South "you"]
//! [North "mancala time=1s"]
//! [Result "40-32"]
//!
//! 1. 3 9 2. 4 {the only capture} 10? 3. 2!? …
//! 40-32
//! ```
//!
//! - **Tag pairs** `[Name "value"]`, one a line (`\"` and `\\` escape a
//!   quote and a backslash). Known names, written in this order: `Game`
//!   (required: the rule set), `Round`, `Date`, `South`, `North`,
//!   `TimeControl`, `Start` (the start position, when it is not the
//!   game's start), `Result`; others are kept as they come.
//! - **Movetext**: moves are pit numbers (`0`: Hemprich's pass), each full
//!   move numbered `N.` before South's move (`N...` when the game starts
//!   with North to move; in Kalah, where a player may move again, before
//!   the first move of South's turn). A move may carry an annotation mark, `!`, `?`,
//!   `!!`, `??`, `!?` or `?!`, and be followed by a comment in braces,
//!   `{…}` (which may span lines; `;` starts a comment to the end of the
//!   line too). The movetext ends with the result: the final totals
//!   `S-N`, or `*` for a game not finished. A game stopped before its end
//!   (a match's ply cap) may give the totals it was scored with: the
//!   board split as by the cycle rule.
//! - Reading is tolerant (spaces, line breaks, move numbers may be
//!   missing or wrong) and every error names its line and column; the
//!   moves must be legal, the cycle rule included. Writing is canonical:
//!   [`write()`] of what [`parse`] read gives the same text again.

use std::fmt::{self, Write as _};

use crate::any::AnyPosition;
use crate::board::Rules;
use crate::game::{GameId, Status};
use crate::moves::Move;
use crate::record::GameRecord;
use crate::side::Side;

/// An annotation mark after a move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Mark {
    /// `!!`: a brilliant move.
    Brilliant,
    /// `!`: a good move.
    Good,
    /// `!?`: an interesting move.
    Interesting,
    /// `?!`: a dubious move (an inaccuracy).
    Dubious,
    /// `?`: a mistake.
    Mistake,
    /// `??`: a blunder.
    Blunder,
}

impl Mark {
    /// Every mark.
    pub const ALL: [Mark; 6] = [
        Mark::Brilliant,
        Mark::Good,
        Mark::Interesting,
        Mark::Dubious,
        Mark::Mistake,
        Mark::Blunder,
    ];

    /// The mark as written.
    pub const fn symbol(self) -> &'static str {
        match self {
            Mark::Brilliant => "!!",
            Mark::Good => "!",
            Mark::Interesting => "!?",
            Mark::Dubious => "?!",
            Mark::Mistake => "?",
            Mark::Blunder => "??",
        }
    }

    /// The mark written `s`, if it is one.
    pub fn from_symbol(s: &str) -> Option<Mark> {
        Mark::ALL.into_iter().find(|m| m.symbol() == s)
    }
}

/// A move as the record has it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RecordedMove {
    /// The move.
    pub mv: Move,
    /// Its annotation mark.
    pub mark: Option<Mark>,
    /// The comment after it.
    pub comment: Option<String>,
}

impl RecordedMove {
    /// A move without mark or comment.
    pub fn plain(mv: Move) -> Self {
        RecordedMove {
            mv,
            mark: None,
            comment: None,
        }
    }
}

/// One game as a record file writes it: tags, start, moves with their
/// marks and comments, result. (The game as the rules play it, with every
/// position and the cycle rule, is [`GameRecord`].)
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WrittenGame {
    /// The tag pairs other than `Game`, `Start` and `Result`, in order.
    pub tags: Vec<(String, String)>,
    /// The start position (`Start`, or the game's start).
    pub start: AnyPosition,
    /// A comment before the first move.
    pub comment: Option<String>,
    /// The moves.
    pub moves: Vec<RecordedMove>,
    /// The final totals `[south, north]`, or `None` for an unfinished game
    /// (`*`).
    pub result: Option<[u8; 2]>,
}

impl WrittenGame {
    /// A game from `start` with `moves`, its result worked out by the rules
    /// (the cycle rule included), and no tags.
    pub fn new(start: AnyPosition, moves: &[Move]) -> Result<WrittenGame, crate::IllegalMove> {
        let result = outcome(start, moves)?;
        Ok(WrittenGame {
            tags: Vec::new(),
            start,
            comment: None,
            moves: moves.iter().map(|&m| RecordedMove::plain(m)).collect(),
            result,
        })
    }

    /// The value of tag `name`, if given.
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }

    /// Sets tag `name` (not `Game`, `Start` or `Result`, which the game
    /// itself gives), keeping the tags in the order they are written.
    pub fn set_tag(&mut self, name: &str, value: &str) {
        match self.tags.iter_mut().find(|(n, _)| n == name) {
            Some((_, v)) => *v = value.to_string(),
            None => {
                self.tags.push((name.to_string(), value.to_string()));
                let rank = |n: &str| KNOWN.iter().position(|k| *k == n).unwrap_or(KNOWN.len());
                self.tags.sort_by_key(|(n, _)| rank(n));
            }
        }
    }

    /// The moves alone.
    pub fn plain_moves(&self) -> Vec<Move> {
        self.moves.iter().map(|m| m.mv).collect()
    }
}

/// The final totals of `moves` played from `start` if they end the game,
/// by every end rule including the cycle rule.
fn outcome(start: AnyPosition, moves: &[Move]) -> Result<Option<[u8; 2]>, crate::IllegalMove> {
    crate::with_position!(start, p => {
        let mut game = GameRecord::new(p);
        for &mv in moves {
            game.play(mv)?;
        }
        Ok(match game.status() {
            Status::Over(totals) => Some(totals),
            Status::Ongoing => None,
        })
    })
}

/// What cannot be read in a record file, and where.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("line {line}, column {column}: {problem}")]
pub struct RecordError {
    /// The line, from 1.
    pub line: usize,
    /// The column (characters), from 1.
    pub column: usize,
    /// What is wrong.
    pub problem: RecordProblem,
}

/// What is wrong at a place in a record file.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RecordProblem {
    /// `[ "value"]`.
    #[error("a tag needs a name: [Name \"value\"]")]
    TagWithoutName,
    /// `[Name value]`.
    #[error("tag {0}: its value goes in double quotes")]
    TagValueUnquoted(String),
    /// `[Name "value]`.
    #[error("tag {0}: the value's closing quote is missing")]
    TagValueUnclosed(String),
    /// An escape other than `\"` and `\\`.
    #[error("only \\\" and \\\\ are escapes in a tag value")]
    BadEscape,
    /// `[Name "value"` without its bracket.
    #[error("tag {0}: ']' expected")]
    TagUnclosed(String),
    /// `{…` to the end.
    #[error("this comment is not closed with '}}'")]
    CommentUnclosed,
    /// The same tag twice in a game.
    #[error("tag {0} is given twice")]
    TagTwice(String),
    /// More tag pairs than a game may have.
    #[error("more than {MAX_TAGS} tag pairs in one game")]
    TooManyTags,
    /// A game without `[Game "…"]`.
    #[error("a game starts with its [Game \"…\"] tag")]
    NoGameTag,
    /// `[Game "…"]` names no game.
    #[error("{0}")]
    Game(#[from] crate::error::UnknownGame),
    /// `[Start "…"]` is no position.
    #[error("Start: {0}")]
    Start(crate::error::PositionError),
    /// `[Start "…"]` is another game's position.
    #[error("Start is a {start} position in a {game} game")]
    StartOfAnotherGame {
        /// The Start position's game.
        start: GameId,
        /// The game's.
        game: GameId,
    },
    /// The text ends before the result.
    #[error("the game ends without its result (S-N or *)")]
    NoResult,
    /// A tag among the moves.
    #[error("tag {0} inside the moves (the result S-N or * must come first)")]
    TagInMoves(String),
    /// `3-x`.
    #[error("'{0}' is not a move or a result")]
    NotMoveOrResult(String),
    /// `3?x`.
    #[error("'{0}' is not a mark (!, ?, !!, ??, !?, ?!)")]
    NotMark(String),
    /// `x3`.
    #[error("'{0}' is not a move (a pit number)")]
    NotMove(String),
    /// An illegal move, counted from 1.
    #[error("move {number}: {illegal}")]
    Illegal {
        /// The move's number in the game, from 1.
        number: usize,
        /// Why it is illegal.
        illegal: crate::error::IllegalMove,
    },
    /// `[Result "…"]` and the movetext's result differ.
    #[error("the Result tag says {tag}, the movetext {movetext}")]
    ResultTag {
        /// The tag's value.
        tag: String,
        /// The movetext's result.
        movetext: String,
    },
    /// The result is not what the moves end the game with.
    #[error("the result says {}-{}, the moves end the game {}-{}", .stated[0], .stated[1], .due[0], .due[1])]
    ResultWrong {
        /// The result written.
        stated: [u8; 2],
        /// The totals the moves give.
        due: [u8; 2],
    },
}

/// Tags written first, in this order.
const KNOWN: [&str; 8] = [
    "Game",
    "Round",
    "Date",
    "South",
    "North",
    "TimeControl",
    "Start",
    "Result",
];

/// The movetext's line width when written.
const WIDTH: usize = 79;

fn quote(value: &str) -> String {
    let mut out = String::with_capacity(value.len() + 2);
    out.push('"');
    for c in value.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' | '\r' => out.push(' '),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// A comment as written: braces inside it would end it, so they become
/// parentheses; line breaks become spaces.
fn comment_text(c: &str) -> String {
    let c: String = c
        .chars()
        .map(|ch| match ch {
            '{' => '(',
            '}' => ')',
            '\n' | '\r' => ' ',
            ch => ch,
        })
        .collect();
    format!("{{{}}}", c.trim())
}

fn result_text(result: Option<[u8; 2]>) -> String {
    match result {
        Some([s, n]) => format!("{s}-{n}"),
        None => "*".to_string(),
    }
}

/// Writes games in the canonical form, a blank line between them.
pub fn write(games: &[WrittenGame]) -> String {
    let mut out = String::new();
    for (i, g) in games.iter().enumerate() {
        if i > 0 {
            out.push('\n');
        }
        write_game(&mut out, g);
    }
    out
}

fn write_game(out: &mut String, g: &WrittenGame) {
    let game = g.start.game();
    let mut tags: Vec<(&str, String)> = vec![("Game", game.name().to_string())];
    let known_value = |name: &str| g.tag(name).map(str::to_string);
    for name in ["Round", "Date", "South", "North", "TimeControl"] {
        if let Some(v) = known_value(name) {
            tags.push((name, v));
        }
    }
    if g.start != AnyPosition::start(game) {
        tags.push(("Start", g.start.to_string()));
    }
    tags.push(("Result", result_text(g.result)));
    for (n, v) in &g.tags {
        if !KNOWN.contains(&n.as_str()) {
            tags.push((n, v.clone()));
        }
    }
    for (n, v) in tags {
        let _ = writeln!(out, "[{n} {}]", quote(&v));
    }
    out.push('\n');
    let mut tokens = Vec::new();
    if let Some(c) = &g.comment {
        tokens.push(comment_text(c));
    }
    // The side to move, from the positions: in Kalah a player may move
    // several times in a row, and a turn's moves share its number.
    let mut pos = g.start;
    let mut before = None;
    let mut number = 1;
    for (i, m) in g.moves.iter().enumerate() {
        let side = pos.side_to_move();
        if before == Some(Side::North) && side == Side::South {
            number += 1;
        }
        // A move number and its move are one token: a line never ends
        // between them.
        let number_text = match side {
            Side::South if before != Some(Side::South) => format!("{number}. "),
            Side::North if i == 0 => format!("{number}... "),
            _ => String::new(),
        };
        tokens.push(format!(
            "{number_text}{}{}",
            m.mv,
            m.mark.map_or("", Mark::symbol)
        ));
        if let Some(c) = &m.comment {
            tokens.push(comment_text(c));
        }
        before = Some(side);
        pos = pos.try_play(m.mv).unwrap_or(pos);
    }
    tokens.push(result_text(g.result));
    let mut line = String::new();
    for t in tokens {
        if !line.is_empty() && line.len() + 1 + t.len() > WIDTH {
            out.push_str(&line);
            out.push('\n');
            line.clear();
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(&t);
    }
    out.push_str(&line);
    out.push('\n');
}

/// A reader over the text with line and column.
struct Cursor<'a> {
    chars: std::iter::Peekable<std::str::Chars<'a>>,
    line: usize,
    column: usize,
}

impl Cursor<'_> {
    fn peek(&mut self) -> Option<char> {
        self.chars.peek().copied()
    }

    fn next(&mut self) -> Option<char> {
        let c = self.chars.next()?;
        if c == '\n' {
            self.line += 1;
            self.column = 1;
        } else {
            self.column += 1;
        }
        Some(c)
    }

    fn error(&self, problem: RecordProblem) -> RecordError {
        RecordError {
            line: self.line,
            column: self.column,
            problem,
        }
    }

    fn skip_space(&mut self) {
        while self.peek().is_some_and(char::is_whitespace) {
            self.next();
        }
    }
}

/// One token, with the line and column where it began.
type Placed = (Token, usize, usize);

/// One token of the movetext.
enum Token {
    Tag(String, String),
    Comment(String),
    Word(String),
}

fn next_token(c: &mut Cursor) -> Result<Option<Placed>, RecordError> {
    loop {
        c.skip_space();
        if c.peek() == Some(';') {
            while c.peek().is_some_and(|ch| ch != '\n') {
                c.next();
            }
            continue;
        }
        break;
    }
    let (line, column) = (c.line, c.column);
    let Some(first) = c.peek() else {
        return Ok(None);
    };
    let token = match first {
        '[' => {
            c.next();
            let mut name = String::new();
            while c.peek().is_some_and(|ch| ch.is_alphanumeric() || ch == '_') {
                name.push(c.next().expect("peeked"));
            }
            if name.is_empty() {
                return Err(c.error(RecordProblem::TagWithoutName));
            }
            c.skip_space();
            if c.next() != Some('"') {
                return Err(c.error(RecordProblem::TagValueUnquoted(name)));
            }
            let mut value = String::new();
            loop {
                match c.next() {
                    None | Some('\n') => return Err(c.error(RecordProblem::TagValueUnclosed(name))),
                    Some('\\') => match c.next() {
                        Some(ch @ ('"' | '\\')) => value.push(ch),
                        _ => return Err(c.error(RecordProblem::BadEscape)),
                    },
                    Some('"') => break,
                    Some(ch) => value.push(ch),
                }
            }
            c.skip_space();
            if c.next() != Some(']') {
                return Err(c.error(RecordProblem::TagUnclosed(name)));
            }
            Token::Tag(name, value)
        }
        '{' => {
            c.next();
            // Runs of white space become one space as the text is read
            // (no second copy of a long comment).
            let mut text = String::new();
            let mut space = false;
            loop {
                match c.next() {
                    None => {
                        return Err(RecordError {
                            line,
                            column,
                            problem: RecordProblem::CommentUnclosed,
                        })
                    }
                    Some('}') => break,
                    Some(ch) if ch.is_whitespace() => space = true,
                    Some(ch) => {
                        if space && !text.is_empty() {
                            text.push(' ');
                        }
                        space = false;
                        text.push(ch);
                    }
                }
            }
            Token::Comment(text)
        }
        _ => {
            let mut word = String::new();
            while c
                .peek()
                .is_some_and(|ch| !ch.is_whitespace() && !matches!(ch, '{' | '[' | ';'))
            {
                word.push(c.next().expect("peeked"));
            }
            Token::Word(word)
        }
    };
    Ok(Some((token, line, column)))
}

/// The games of `text` up to the first that does not read, and that
/// game's error if there is one: what is left of a record whose writer
/// was killed in the middle of a game.
pub fn parse_readable(text: &str) -> (Vec<WrittenGame>, Option<RecordError>) {
    read_games(text, usize::MAX)
}

/// The first `n` games of `text` (fewer if it has fewer), stopping at the
/// first that does not read: the games read before it, and its error.
fn read_games(text: &str, n: usize) -> (Vec<WrittenGame>, Option<RecordError>) {
    let mut c = Cursor {
        chars: text.chars().peekable(),
        line: 1,
        column: 1,
    };
    let mut games = Vec::new();
    let mut pending = match next_token(&mut c) {
        Ok(t) => t,
        Err(e) => return (games, Some(e)),
    };
    while pending.is_some() && games.len() < n {
        match parse_game(&mut c, pending.take()) {
            Ok((game, next)) => {
                games.push(game);
                pending = next;
            }
            Err(e) => return (games, Some(e)),
        }
    }
    (games, None)
}

/// The most tag pairs a game may have: far more than any program writes,
/// few enough that a record of a million tags is refused at once rather
/// than read and written back.
pub const MAX_TAGS: usize = 1000;

/// Reads every game of a record file.
pub fn parse(text: &str) -> Result<Vec<WrittenGame>, RecordError> {
    parse_first(text, usize::MAX)
}

/// The first `n` games of `text` (fewer if it has fewer); the rest of the
/// text is not parsed, so a caller that wants one game of a large record
/// pays for that game only.
pub fn parse_first(text: &str, n: usize) -> Result<Vec<WrittenGame>, RecordError> {
    match read_games(text, n) {
        (games, None) => Ok(games),
        (_, Some(e)) => Err(e),
    }
}

/// One game, from its first token; returns the game and the first token
/// of the next.
fn parse_game(
    c: &mut Cursor,
    mut token: Option<Placed>,
) -> Result<(WrittenGame, Option<Placed>), RecordError> {
    let at = |line, column, problem: RecordProblem| RecordError {
        line,
        column,
        problem,
    };
    let (first_line, first_column) = token.as_ref().map_or((c.line, c.column), |t| (t.1, t.2));
    let mut tags: Vec<(String, String)> = Vec::new();
    // The names seen, so that a game of many tags is read in linear time.
    let mut names = std::collections::HashSet::new();
    let mut start_at = (first_line, first_column);
    while let Some((Token::Tag(name, value), line, column)) = &token {
        if !names.insert(name.clone()) {
            return Err(at(*line, *column, RecordProblem::TagTwice(name.clone())));
        }
        if names.len() > MAX_TAGS {
            return Err(at(*line, *column, RecordProblem::TooManyTags));
        }
        if name == "Start" {
            start_at = (*line, *column);
        }
        tags.push((name.clone(), value.clone()));
        token = next_token(c)?;
    }
    let value = |name: &str| {
        tags.iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    };
    let Some(game_name) = value("Game") else {
        return Err(at(first_line, first_column, RecordProblem::NoGameTag));
    };
    let game: GameId = game_name
        .parse()
        .map_err(|e| at(first_line, first_column, RecordProblem::Game(e)))?;
    let start = match value("Start") {
        Some(text) => {
            let pos: AnyPosition = text
                .parse()
                .map_err(|e| at(start_at.0, start_at.1, RecordProblem::Start(e)))?;
            if pos.game() != game {
                return Err(at(
                    start_at.0,
                    start_at.1,
                    RecordProblem::StartOfAnotherGame {
                        start: pos.game(),
                        game,
                    },
                ));
            }
            pos
        }
        None => AnyPosition::start(game),
    };
    let Movetext {
        comment,
        moves,
        result,
    } = crate::with_position!(start, p => movetext(c, &mut token, GameRecord::new(p)))?;
    if let Some(stated) = value("Result") {
        if stated != result_text(result) {
            return Err(at(
                first_line,
                first_column,
                RecordProblem::ResultTag {
                    tag: stated.to_string(),
                    movetext: result_text(result),
                },
            ));
        }
    }
    let tags = tags
        .into_iter()
        .filter(|(n, _)| !matches!(n.as_str(), "Game" | "Start" | "Result"))
        .collect();
    let next = next_token(c)?;
    Ok((
        WrittenGame {
            tags,
            start,
            comment,
            moves,
            result,
        },
        next,
    ))
}

fn append(slot: &mut Option<String>, text: String) {
    match slot {
        Some(c) => {
            c.push(' ');
            c.push_str(&text);
        }
        None => *slot = Some(text),
    }
}

/// A game's movetext, read.
struct Movetext {
    comment: Option<String>,
    moves: Vec<RecordedMove>,
    result: Option<[u8; 2]>,
}

/// The movetext of a game from `record`'s start, up to and with its
/// result: the comment before the first move, the moves (played on
/// `record`, the cycle rule included) and the result. `token` is the
/// first token, and is left at the one after the result.
fn movetext<R: Rules>(
    c: &mut Cursor,
    token: &mut Option<Placed>,
    mut record: GameRecord<R>,
) -> Result<Movetext, RecordError> {
    let at = |line, column, problem: RecordProblem| RecordError {
        line,
        column,
        problem,
    };
    let mut comment = None;
    let mut moves: Vec<RecordedMove> = Vec::new();
    let result;
    loop {
        let Some((tok, line, column)) = token.take() else {
            return Err(at(c.line, c.column, RecordProblem::NoResult));
        };
        match tok {
            Token::Tag(name, _) => return Err(at(line, column, RecordProblem::TagInMoves(name))),
            Token::Comment(text) => match moves.last_mut() {
                Some(m) => append(&mut m.comment, text),
                None => append(&mut comment, text),
            },
            Token::Word(word) => {
                if word == "*" {
                    result = None;
                    break;
                }
                if let Some((s, n)) = word.split_once('-') {
                    let totals = (s.parse::<u8>(), n.parse::<u8>());
                    let (Ok(s), Ok(n)) = totals else {
                        return Err(at(line, column, RecordProblem::NotMoveOrResult(word)));
                    };
                    result = Some([s, n]);
                    break;
                }
                // Move numbers: "12." or "12..." (or glued: "12.3").
                let rest = word.trim_start_matches(|ch: char| ch.is_ascii_digit());
                let body = if rest.starts_with('.') && rest.len() < word.len() {
                    rest.trim_start_matches('.')
                } else {
                    word.as_str()
                };
                if body.is_empty() {
                    *token = next_token(c)?;
                    continue;
                }
                let digits = body.trim_end_matches(['!', '?']);
                let mark_text = &body[digits.len()..];
                let mark = if mark_text.is_empty() {
                    None
                } else {
                    Some(Mark::from_symbol(mark_text).ok_or_else(|| {
                        at(line, column, RecordProblem::NotMark(mark_text.to_string()))
                    })?)
                };
                let pit: u8 = digits
                    .parse()
                    .map_err(|_| at(line, column, RecordProblem::NotMove(word.clone())))?;
                let mv = Move::from_pit(pit);
                record.play(mv).map_err(|illegal| {
                    at(
                        line,
                        column,
                        RecordProblem::Illegal {
                            number: moves.len() + 1,
                            illegal,
                        },
                    )
                })?;
                moves.push(RecordedMove {
                    mv,
                    mark,
                    comment: None,
                });
            }
        }
        *token = next_token(c)?;
    }
    let (line, column) = (c.line, c.column);
    if let Some(r) = result {
        // A finished game's totals, or an unfinished one's adjudication
        // (a ply cap): the board split as by the cycle rule.
        let due = match record.status() {
            Status::Over(totals) => totals,
            Status::Ongoing => record.current().cycle_totals(),
        };
        if r != due {
            return Err(at(
                line,
                column,
                RecordProblem::ResultWrong { stated: r, due },
            ));
        }
    }
    Ok(Movetext {
        comment,
        moves,
        result,
    })
}

/// Today's date as a record writes it, `YYYY.MM.DD` (UTC).
pub fn today() -> String {
    let secs = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    let (y, m, d) = civil_from_days((secs / 86_400) as i64);
    format!("{y:04}.{m:02}.{d:02}")
}

/// The calendar date of a day count since 1970-01-01 (proleptic
/// Gregorian; H. Hinnant's algorithm).
fn civil_from_days(z: i64) -> (i64, u32, u32) {
    let z = z + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    let y = yoe + era * 400 + (m <= 2) as i64;
    (y, m, d)
}

impl fmt::Display for WrittenGame {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&write(std::slice::from_ref(self)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn game() -> WrittenGame {
        let start = AnyPosition::start(GameId::Bohnenspiel);
        let moves: Vec<Move> = [3, 9, 4, 10, 2].map(Move::from_pit).to_vec();
        let mut g = WrittenGame::new(start, &moves).unwrap();
        g.set_tag("South", "you \"the human\"");
        g.set_tag("North", "mancala time=1s");
        g.set_tag("Date", "2026.12.01");
        g.set_tag("Event", "a test");
        g.comment = Some("from the start".into());
        g.moves[2].mark = Some(Mark::Mistake);
        g.moves[2].comment = Some("better 5 {or 6}".into());
        g.moves[4].mark = Some(Mark::Interesting);
        g
    }

    #[test]
    fn a_record_round_trips_and_writing_is_canonical() {
        let g = game();
        let text = write(&[g.clone(), g.clone()]);
        assert!(text.starts_with("[Game \"bohnenspiel\"]\n[Date \"2026.12.01\"]\n[South \"you \\\"the human\\\"\"]\n"), "{text}");
        assert!(
            text.contains("{from the start} 1. 3 9 2. 4? {better 5 (or 6)} 10 3. 2!? *"),
            "{text}"
        );
        let back = parse(&text).unwrap();
        assert_eq!(back.len(), 2);
        let mut expected = g;
        expected.moves[2].comment = Some("better 5 (or 6)".into());
        assert_eq!(back[0], expected);
        assert_eq!(write(&back), text);
    }

    /// However the comments fall, no line ends with a move number: it
    /// stays with its move.
    #[test]
    fn move_numbers_stay_with_their_moves() {
        let start = AnyPosition::start(crate::GameId::Bohnenspiel);
        let moves = [3, 9, 4, 10, 2, 11].map(Move::from_pit);
        let mut checked = 0;
        for width in 1..60 {
            let mut g = WrittenGame::new(start, &moves).unwrap();
            for m in &mut g.moves {
                m.comment = Some("x".repeat(width));
            }
            let text = write(&[g]);
            for line in text.lines().filter(|l| !l.starts_with('[')) {
                let last = line.split(' ').next_back().unwrap_or("");
                assert!(!last.ends_with('.'), "width {width}: {line:?}\n{text}");
                checked += 1;
            }
        }
        assert!(checked > 100, "{checked} lines checked");
    }

    #[test]
    fn dates() {
        assert_eq!(civil_from_days(0), (1970, 1, 1));
        assert_eq!(civil_from_days(20_788), (2026, 12, 1));
        assert_eq!(civil_from_days(11_016), (2000, 2, 29));
        assert_eq!(today().len(), 10);
    }

    #[test]
    fn reading_is_tolerant() {
        let text =
            "\n[Game   \"bohnenspiel\"]\n; a remark\n3 9\n 2.4 {a\n long comment} 10 3... 2 *\n";
        let g = &parse(text).unwrap()[0];
        assert_eq!(g.plain_moves(), [3, 9, 4, 10, 2].map(Move::from_pit));
        assert_eq!(g.moves[2].comment.as_deref(), Some("a long comment"));
        assert_eq!(g.result, None);
    }

    #[test]
    fn a_finished_game_and_another_start() {
        let start: AnyPosition = "bohnenspiel 0,0,0,0,0,2/0,0,0,0,0,0 N 35-35"
            .parse()
            .unwrap();
        // North has no seeds: the game is already over, South takes 2.
        let g = WrittenGame::new(start, &[]).unwrap();
        assert_eq!(g.result, Some([37, 35]));
        let text = write(std::slice::from_ref(&g));
        assert!(
            text.contains("[Start \"bohnenspiel 0,0,0,0,0,2/0,0,0,0,0,0 N 35-35\"]"),
            "{text}"
        );
        assert_eq!(parse(&text).unwrap(), vec![g]);
        // North to move first: "1..." before its move.
        let north: AnyPosition = "bohnenspiel 6,6,0,7,7,7/7,7,7,6,6,6 N 0-0".parse().unwrap();
        let g = WrittenGame::new(north, &[Move::from_pit(9)]).unwrap();
        assert!(write(&[g]).contains("1... 9 *"));
    }

    #[test]
    fn errors_name_line_and_column() {
        let e = parse("[Game \"bohnenspiel\"]\n\n1. 3 3 *").unwrap_err();
        assert_eq!((e.line, e.column), (3, 6), "{e}");
        assert!(
            matches!(e.problem, RecordProblem::Illegal { number: 2, .. }),
            "{e}"
        );
        assert!(e.problem.to_string().contains("move 2"), "{e}");
        let e = parse("[Game \"chess\"]\n*").unwrap_err();
        assert_eq!(e.line, 1, "{e}");
        let e = parse("1. 3 *").unwrap_err();
        assert!(e.problem.to_string().contains("[Game"), "{e}");
        let e = parse("[Game \"bohnenspiel\"]\n1. 3 {open").unwrap_err();
        assert_eq!((e.line, e.column), (2, 6), "{e}");
        let e = parse("[Game \"bohnenspiel\"]\n1. 3 9").unwrap_err();
        assert!(e.problem.to_string().contains("without its result"), "{e}");
        let e = parse("[Game \"bohnenspiel\"]\n1. 3?? 9!?! *").unwrap_err();
        assert!(e.problem.to_string().contains("not a mark"), "{e}");
        let e = parse("[Game \"bohnenspiel\"]\n[Result \"40-32\"]\n1. 3 *").unwrap_err();
        assert!(e.problem.to_string().contains("Result tag"), "{e}");
        let e = parse("[Game \"bohnenspiel\"]\n1. 3 40-32").unwrap_err();
        assert!(e.problem.to_string().contains("the moves end"), "{e}");
        let e = parse("[Game \"bohnenspiel\"]\n[Game \"bosh\"]\n*").unwrap_err();
        assert!(e.problem.to_string().contains("twice"), "{e}");
    }

    #[test]
    fn the_cycle_rule_ends_a_recorded_game() {
        // 39 plies from this Bosh round reach a position for the third time.
        let start: AnyPosition = "bosh 1,0,2,0,0/0,1,0,2,0 S 17-17".parse().unwrap();
        let pits = [
            3, 9, 4, 10, 1, 7, 3, 8, 4, 9, 5, 10, 1, 6, 2, 8, 3, 9, 4, 10, 5, 6, 1, 7, 2, 8, 3, 9,
            4, 10, 5, 6, 1, 7, 2, 8, 3, 9, 4,
        ];
        let moves: Vec<Move> = pits.map(Move::from_pit).to_vec();
        let g = WrittenGame::new(start, &moves).unwrap();
        assert_eq!(g.result, Some([21, 19]));
        let back = parse(&write(std::slice::from_ref(&g))).unwrap();
        assert_eq!(back, vec![g]);
        // A move after the third occurrence is refused.
        let text = write(&[WrittenGame::new(start, &moves).unwrap()]).replace(" 21-19", " 1 *");
        assert!(parse(&text)
            .unwrap_err()
            .problem
            .to_string()
            .contains("the game is over"));
    }
}
