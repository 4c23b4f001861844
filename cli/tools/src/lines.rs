//! Reading lines from a pipe, a terminal or another program without
//! trusting it: bytes are read as bytes and decoded per line (a byte that
//! is not UTF-8 becomes U+FFFD instead of ending the stream), and a line is
//! at most [`MAX_LINE`] bytes (the rest of a longer one is read and thrown
//! away, in bounded memory).

use std::io::{self, BufRead};

/// The longest line kept (bytes); no protocol line comes near it.
pub const MAX_LINE: usize = 64 * 1024;

/// One line read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Line {
    /// A line, without its end of line, decoded (invalid bytes as U+FFFD).
    Text(String),
    /// A line longer than [`MAX_LINE`] bytes: how many bytes it had.
    TooLong(usize),
}

/// Reads the next line of `input`: `None` at the end of the input.
pub fn read_line(input: &mut impl BufRead) -> io::Result<Option<Line>> {
    let mut kept = Vec::new();
    let mut total = 0usize;
    let mut any = false;
    loop {
        let chunk = match input.fill_buf() {
            Ok(c) => c,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if chunk.is_empty() {
            break;
        }
        any = true;
        let (take, end) = match chunk.iter().position(|&b| b == b'\n') {
            Some(i) => (i, true),
            None => (chunk.len(), false),
        };
        let room = MAX_LINE.saturating_sub(kept.len());
        kept.extend_from_slice(&chunk[..take.min(room)]);
        total += take;
        input.consume(take + end as usize);
        if end {
            break;
        }
    }
    if !any {
        return Ok(None);
    }
    if total > MAX_LINE {
        return Ok(Some(Line::TooLong(total)));
    }
    if kept.last() == Some(&b'\r') {
        kept.pop();
    }
    Ok(Some(Line::Text(
        String::from_utf8_lossy(&kept).into_owned(),
    )))
}

/// Every line of `input` until its end or a read error.
pub fn lines(mut input: impl BufRead) -> impl Iterator<Item = Line> {
    std::iter::from_fn(move || read_line(&mut input).ok().flatten())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bytes_that_are_not_utf8_do_not_end_the_input() {
        let got: Vec<Line> = lines(&b"isready\n\xff\nisready\r\nlast"[..]).collect();
        assert_eq!(
            got,
            vec![
                Line::Text("isready".into()),
                Line::Text("\u{fffd}".into()),
                Line::Text("isready".into()),
                Line::Text("last".into()),
            ]
        );
    }

    #[test]
    fn a_line_too_long_is_reported_and_skipped_in_bounded_memory() {
        let mut text = vec![b'x'; 3 * MAX_LINE];
        text.extend_from_slice(b"\nnext\n");
        let got: Vec<Line> = lines(&text[..]).collect();
        assert_eq!(
            got,
            vec![Line::TooLong(3 * MAX_LINE), Line::Text("next".into())]
        );
        let empty: Vec<Line> = lines(&b""[..]).collect();
        assert!(empty.is_empty());
        let blank: Vec<Line> = lines(&b"\n"[..]).collect();
        assert_eq!(blank, vec![Line::Text(String::new())]);
    }
}
