//! A long proof's saved state, so that it survives a shutdown, a crash or
//! a power cut: the solver's transposition table (every entry in it is a
//! proven bound on a position's value, independent of the line, so a copy
//! taken at any moment is sound) and what the proof had shown of the root.
//!
//! The file is a short text header, then the table's words:
//!
//! ```text
//! mancala solve checkpoint 2
//! position bohnenspiel 4,4,4,4,4,4/4,4,4,4,4,4 S 12-12
//! moves 3,9
//! bounds -4 8 2
//! nodes 123456789
//! seconds 812.5
//! buckets 4194304
//! age 0
//! checksum 1234567890123
//! end
//! <buckets × 64 bytes: the table, little-endian words>
//! ```
//!
//! `bounds` is lower, upper and the last guess from the side to move's
//! view; `checksum` covers what the file asserts: the header's lines above
//! it (FNV-1a of their bytes) mixed with the table's words
//! ([`TranspositionTable::save`]), so an edited bound is found as damage,
//! as a flipped bit in the table is. It is written atomically
//! ([`mancala_files::write_atomically`]): a crash while writing leaves the
//! previous checkpoint.
//!
//! A file of the first version (`mancala solve checkpoint 1`, whose
//! checksum covered the table only) is still read: its table, which its
//! checksum vouches for, is kept, and its header's bounds are not believed
//! (the proof starts from the whole range, the table re-proves them
//! quickly); [`Header::bounds_checked`] says which.

use std::io::{BufRead, Read, Write};
use std::path::Path;

use super::Bounds;
use crate::tt::TranspositionTable;
use mancala_files::fnv1a;

/// The first line of a checkpoint.
const MAGIC: &str = "mancala solve checkpoint 2";
/// The first line of a checkpoint of the first version (header unchecked).
const MAGIC_1: &str = "mancala solve checkpoint 1";
/// The longest header line read.
const MAX_LINE: usize = 4096;

/// What a checkpoint says about its proof.
#[derive(Clone, Debug, PartialEq)]
pub struct Header {
    /// The position the moves start from, in the notation.
    pub position: String,
    /// The moves played from it to the root (pit numbers).
    pub moves: Vec<u8>,
    /// What was proven of the root's value.
    pub bounds: Bounds,
    /// Positions visited by the proof so far (all sessions).
    pub nodes: u64,
    /// Seconds spent on the proof so far (all sessions).
    pub seconds: f64,
    /// Whether the checksum covered `bounds` (false for a first-version
    /// file: its bounds are then no more than a guess).
    pub bounds_checked: bool,
}

/// A checkpoint that cannot be read.
#[derive(Debug, thiserror::Error)]
pub enum CheckpointError {
    /// The file cannot be read.
    #[error("{0}")]
    Io(#[from] std::io::Error),
    /// The first line is not a checkpoint's.
    #[error("not a solve checkpoint (its first line is not '{MAGIC}')")]
    NotACheckpoint,
    /// A header line is missing or cannot be read.
    #[error("damaged checkpoint: the '{0}' line is missing or unreadable")]
    Field(&'static str),
    /// The table is shorter than the header says.
    #[error("damaged checkpoint: the table is cut short")]
    Truncated,
    /// The header or the table does not match the checksum.
    #[error("damaged checkpoint: its header or table does not match its checksum")]
    Checksum,
    /// Bytes after the table.
    #[error("damaged checkpoint: data after the table")]
    Trailing,
}

/// The header's lines that the checksum covers, as written.
fn header_text(header: &Header, buckets: usize, age: u8) -> String {
    let moves: Vec<String> = header.moves.iter().map(|m| m.to_string()).collect();
    let b = header.bounds;
    format!(
        "{MAGIC}\nposition {}\nmoves {}\nbounds {} {} {}\nnodes {}\nseconds {}\nbuckets {buckets}\nage {age}\n",
        header.position,
        moves.join(","),
        b.lower,
        b.upper,
        b.guess,
        header.nodes,
        header.seconds,
    )
}

/// The checksum of a header's text and its table's sum.
fn mixed(text: &str, table_sum: u64) -> u64 {
    fnv1a(text.as_bytes()).rotate_left(17) ^ table_sum
}

/// Writes a checkpoint of `header` and `tt` to `path`, atomically.
pub fn write(path: &Path, header: &Header, tt: &TranspositionTable) -> std::io::Result<()> {
    mancala_files::write_atomically(path, |out| {
        // The checksum comes before the table in the file, so the table is
        // read once for it first (fast beside the writing).
        let sum = tt.save(&mut std::io::sink())?;
        let text = header_text(header, tt.buckets(), tt.age());
        write!(out, "{text}checksum {}\nend\n", mixed(&text, sum))?;
        tt.save(out)?;
        Ok(())
    })
}

/// Reads a checkpoint: its header and its table. The table's memory is
/// allocated as the header says (an allocation that fails is an error,
/// not an abort).
pub fn read(path: &Path) -> Result<(Header, TranspositionTable), CheckpointError> {
    let file = std::fs::File::open(path)?;
    let mut input = std::io::BufReader::with_capacity(1 << 20, file);
    let mut line = || -> Result<String, CheckpointError> {
        let mut buf = Vec::new();
        (&mut input)
            .take(MAX_LINE as u64)
            .read_until(b'\n', &mut buf)?;
        if buf.last() != Some(&b'\n') {
            return Err(CheckpointError::NotACheckpoint);
        }
        buf.pop();
        String::from_utf8(buf).map_err(|_| CheckpointError::NotACheckpoint)
    };
    let first = line()?;
    let checked = match first.as_str() {
        MAGIC => true,
        MAGIC_1 => false,
        _ => return Err(CheckpointError::NotACheckpoint),
    };
    let mut field = |name: &'static str| -> Result<String, CheckpointError> {
        let text = line().map_err(|_| CheckpointError::Field(name))?;
        text.strip_prefix(name)
            .and_then(|rest| rest.strip_prefix(' ').or((rest.is_empty()).then_some("")))
            .map(str::to_string)
            .ok_or(CheckpointError::Field(name))
    };
    let position = field("position")?;
    let moves = parse_moves(&field("moves")?)?;
    let bounds = parse_bounds(&field("bounds")?)?;
    let number = |text: String, name| {
        text.parse::<u64>()
            .map_err(|_| CheckpointError::Field(name))
    };
    let nodes = number(field("nodes")?, "nodes")?;
    let seconds = field("seconds")?
        .parse::<f64>()
        .ok()
        .filter(|s| s.is_finite() && *s >= 0.0)
        .ok_or(CheckpointError::Field("seconds"))?;
    let buckets = number(field("buckets")?, "buckets")?;
    let age = number(field("age")?, "age")?;
    let sum = number(field("checksum")?, "checksum")?;
    if !field("end")?.is_empty() {
        return Err(CheckpointError::Field("end"));
    }
    if buckets == 0 || age > 63 {
        return Err(CheckpointError::Field(if buckets == 0 {
            "buckets"
        } else {
            "age"
        }));
    }
    // The file must hold the table the header describes before memory is
    // asked for it.
    let size = std::fs::metadata(path)?.len();
    let table_bytes = buckets
        .checked_mul(64)
        .ok_or(CheckpointError::Field("buckets"))?;
    if size < table_bytes {
        return Err(CheckpointError::Truncated);
    }
    let header = Header {
        position,
        moves,
        bounds,
        nodes,
        seconds,
        bounds_checked: checked,
    };
    // The sum the table must have: the stated one less the header's share
    // (a first-version file's sum is the table's alone).
    let table_sum = if checked {
        sum ^ fnv1a(header_text(&header, buckets as usize, age as u8).as_bytes()).rotate_left(17)
    } else {
        sum
    };
    let tt = read_table(&mut input, buckets as usize, age as u8, table_sum)?;
    Ok((header, tt))
}

/// The moves of a header's `moves` line: pits, comma-separated.
fn parse_moves(text: &str) -> Result<Vec<u8>, CheckpointError> {
    text.split(',')
        .filter(|m| !m.is_empty())
        .map(|m| m.parse::<u8>())
        .collect::<Result<Vec<_>, _>>()
        .map_err(|_| CheckpointError::Field("moves"))
}

/// The root's bounds of a header's `bounds` line: `LOWER UPPER GUESS`,
/// the guess between the bounds.
fn parse_bounds(text: &str) -> Result<Bounds, CheckpointError> {
    let numbers = text
        .split(' ')
        .map(|v| v.parse::<i32>())
        .collect::<Result<Vec<_>, _>>()
        .map_err(|_| CheckpointError::Field("bounds"))?;
    let [lower, upper, guess] = numbers[..] else {
        return Err(CheckpointError::Field("bounds"));
    };
    if lower > upper || !(lower..=upper).contains(&guess) {
        return Err(CheckpointError::Field("bounds"));
    }
    Ok(Bounds {
        lower,
        upper,
        guess,
    })
}

/// The table after a checkpoint's header in `input`: `buckets` buckets of
/// age `age` whose checksum must be `sum`, and nothing after them.
fn read_table(
    input: &mut impl Read,
    buckets: usize,
    age: u8,
    sum: u64,
) -> Result<TranspositionTable, CheckpointError> {
    let (tt, read_sum) =
        TranspositionTable::load(&mut *input, buckets, age).map_err(|e| match e.kind() {
            std::io::ErrorKind::UnexpectedEof => CheckpointError::Truncated,
            _ => CheckpointError::Io(e),
        })?;
    if read_sum != sum {
        return Err(CheckpointError::Checksum);
    }
    if input.read(&mut [0u8])? != 0 {
        return Err(CheckpointError::Trailing);
    }
    Ok(tt)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tt::{Bound, TtEntry};

    fn header() -> Header {
        Header {
            position: "bohnenspiel 2,2,2,2,2,2/2,2,2,2,2,2 S 24-24".into(),
            moves: vec![3, 9],
            bounds: Bounds {
                lower: -4,
                upper: 8,
                guess: 2,
            },
            nodes: 12345,
            seconds: 1.5,
            bounds_checked: true,
        }
    }

    #[test]
    fn a_checkpoint_reads_back_and_damage_is_found() {
        let dir = std::env::temp_dir().join(format!("mancala-ckpt-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("proof.ckpt");
        let tt = TranspositionTable::new(1);
        let e = TtEntry {
            mv: None,
            score: 64,
            depth: 0,
            bound: Bound::Exact,
            proven: true,
        };
        tt.store(77, e);
        write(&path, &header(), &tt).unwrap();
        let (h, back) = read(&path).unwrap();
        assert_eq!(h, header());
        assert_eq!(back.probe(77), Some(e));
        assert_eq!(back.buckets(), tt.buckets());
        let good = std::fs::read(&path).unwrap();
        let damaged = |bytes: &[u8]| {
            std::fs::write(&path, bytes).unwrap();
            read(&path).unwrap_err().to_string()
        };
        // A flipped bit in the table, a cut, extra bytes, a bad header.
        let mut flipped = good.clone();
        let last = flipped.len() - 1;
        flipped[last] ^= 0x40;
        assert!(damaged(&flipped).contains("checksum"));
        assert!(damaged(&good[..good.len() - 8]).contains("cut short"));
        let mut longer = good.clone();
        longer.push(0);
        assert!(damaged(&longer).contains("after the table"));
        assert!(damaged(b"hello\n").contains("not a solve checkpoint"));
        assert!(damaged(b"").contains("not a solve checkpoint"));
        let end = good.windows(4).position(|w| w == b"end\n").unwrap() + 4;
        let text = String::from_utf8(good[..end].to_vec()).unwrap();
        let bad_bounds = text.replace("bounds -4 8 2", "bounds 9 8 2");
        let mut bytes = bad_bounds.into_bytes();
        bytes.extend_from_slice(&good[end..]);
        assert!(damaged(&bytes).contains("'bounds'"));
        // Bounds edited to others that read well, or the proof's counts:
        // the checksum covers them.
        for (from, to) in [
            ("bounds -4 8 2", "bounds 2 2 2"),
            ("nodes 12345", "nodes 1"),
        ] {
            let mut bytes = text.replace(from, to).into_bytes();
            bytes.extend_from_slice(&good[end..]);
            assert!(damaged(&bytes).contains("checksum"), "{to}");
        }
        // A first-version file: its checksum covers the table only, so it
        // reads with its bounds marked unchecked.
        let sum = tt.save(&mut std::io::sink()).unwrap();
        let first: String = text
            .lines()
            .map(|l| match l {
                MAGIC => MAGIC_1.to_string(),
                l if l.starts_with("checksum ") => format!("checksum {sum}"),
                l => l.to_string(),
            })
            .map(|l| l + "\n")
            .collect();
        let mut bytes = first.into_bytes();
        bytes.extend_from_slice(&good[end..]);
        std::fs::write(&path, &bytes).unwrap();
        let (h, _) = read(&path).unwrap();
        assert!(!h.bounds_checked);
        assert_eq!(h.bounds, header().bounds);
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
