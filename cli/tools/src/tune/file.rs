//! Training data on disk: `tune --save-data FILE` writes the labelled
//! positions of a run, `tune --data FILE` trains on them again without
//! playing and labelling the games (the slow part), so that a network's
//! data can be kept beside it and training settings compared on the same
//! positions; `--data` given again adds a file, so the runs of several
//! rounds train one network together.
//!
//! The file is a text header and binary records:
//!
//! ```text
//! mancala-data 1
//! game bohnenspiel
//! train 1852691 test 205503
//! <records: the training positions, then the held-out ones>
//! <8 bytes: FNV-1a of everything before, little-endian>
//! ```
//!
//! A record is 24 bytes: the position's key ([`Position::key`], 16 bytes)
//! and its label in seeds (an `f64`), both little-endian. A record is
//! accepted only if its key is a position of the game whose notation reads
//! back as the same key.

use std::path::Path;

use mancala_engine::files::{fnv1a, read_bytes, write_file};
use mancala_engine::{with_rules, GameId, Position, Rules};

use super::{Data, Labelled};

const MAGIC: &str = "mancala-data 1";
/// Bytes a record takes.
const RECORD: usize = 24;
/// The most records a file may hold (about 2.4 GB).
pub const MAX_RECORDS: u64 = 100_000_000;

/// Why a data file was refused.
#[derive(Debug, thiserror::Error)]
pub enum DataFileError {
    /// It could not be read or written.
    #[error("{0}")]
    Io(#[from] std::io::Error),
    /// It is not a data file, or not one this version reads.
    #[error("not a training data file (it must begin `{MAGIC}`)")]
    NotData,
    /// Its header does not say what it holds.
    #[error("damaged header: {0}")]
    Header(String),
    /// It holds another game's positions.
    #[error("the data is of {found}, not {expected}")]
    Game {
        /// The game the file holds.
        found: String,
        /// The game asked for.
        expected: &'static str,
    },
    /// Its length or checksum is wrong: it was cut or changed.
    #[error("the data file is damaged ({0})")]
    Damaged(String),
    /// A record is not a position of the game.
    #[error("record {0} is not a position of the game")]
    Position(u64),
    /// The files together hold more positions than one run trains on.
    #[error("too many positions in all (at most {MAX_RECORDS})")]
    TooMany,
}

/// Writes `data`, labelled positions of `game`, to `path` (atomically).
pub fn save(data: &Data, game: GameId, path: &Path) -> Result<(), DataFileError> {
    let mut bytes = format!(
        "{MAGIC}\ngame {}\ntrain {} test {}\n",
        game.name(),
        data.train.len(),
        data.test.len()
    )
    .into_bytes();
    bytes.reserve((data.train.len() + data.test.len()) * RECORD + 8);
    for l in data.train.iter().chain(&data.test) {
        bytes.extend_from_slice(&l.key.to_le_bytes());
        bytes.extend_from_slice(&l.target.to_le_bytes());
    }
    let sum = fnv1a(&bytes);
    bytes.extend_from_slice(&sum.to_le_bytes());
    write_file(path, &bytes)?;
    Ok(())
}

/// Reads the labelled positions of `game` from `path`, refusing a file that
/// is not one, holds another game, or is damaged.
pub fn load(game: GameId, path: &Path) -> Result<Data, DataFileError> {
    let bytes = read_bytes(path, MAX_RECORDS * RECORD as u64 + 4096)?;
    let (header, records) = split_header(&bytes)?;
    let lines: Vec<&str> = header.lines().collect();
    if lines.first() != Some(&MAGIC) {
        return Err(DataFileError::NotData);
    }
    let found = lines
        .get(1)
        .and_then(|l| l.strip_prefix("game "))
        .ok_or_else(|| DataFileError::Header("no `game` line".into()))?;
    if found != game.name() {
        return Err(DataFileError::Game {
            found: found.to_string(),
            expected: game.name(),
        });
    }
    let counts = lines
        .get(2)
        .and_then(|l| {
            let rest = l.strip_prefix("train ")?;
            let (train, test) = rest.split_once(" test ")?;
            Some((train.parse::<u64>().ok()?, test.parse::<u64>().ok()?))
        })
        .filter(|&(train, test)| train + test <= MAX_RECORDS)
        .ok_or_else(|| DataFileError::Header("no `train N test M` line".into()))?;
    let (train, test) = counts;
    let expected = (train + test) as usize * RECORD + 8;
    if records.len() != expected {
        return Err(DataFileError::Damaged(format!(
            "{} bytes of records, {expected} expected",
            records.len()
        )));
    }
    let body = bytes.len() - 8;
    let stated = u64::from_le_bytes(bytes[body..].try_into().expect("8 bytes"));
    if fnv1a(&bytes[..body]) != stated {
        return Err(DataFileError::Damaged("checksum".into()));
    }
    let labelled = with_rules!(game, R => read_records::<R>(&records[..records.len() - 8]))?;
    let mut train_part = labelled;
    let test_part = train_part.split_off(train as usize);
    Ok(Data {
        train: train_part,
        test: test_part,
    })
}

/// Reads several data files of `game` as one: the training positions of
/// each, in order, and the held-out ones of each (a position held out in
/// its own file stays held out). More than [`MAX_RECORDS`] positions in
/// all are refused. An error comes with the index in `paths` of the file
/// it concerns.
pub fn load_all(game: GameId, paths: &[impl AsRef<Path>]) -> Result<Data, (usize, DataFileError)> {
    load_within(game, paths, MAX_RECORDS)
}

/// [`load_all`] with at most `max` positions in all.
fn load_within(
    game: GameId,
    paths: &[impl AsRef<Path>],
    max: u64,
) -> Result<Data, (usize, DataFileError)> {
    let mut all = Data::default();
    for (i, path) in paths.iter().enumerate() {
        let data = load(game, path.as_ref()).map_err(|e| (i, e))?;
        all.train.extend(data.train);
        all.test.extend(data.test);
        if (all.train.len() + all.test.len()) as u64 > max {
            return Err((i, DataFileError::TooMany));
        }
    }
    Ok(all)
}

/// The header (its three lines) and what follows it.
fn split_header(bytes: &[u8]) -> Result<(&str, &[u8]), DataFileError> {
    let mut end = 0;
    for _ in 0..3 {
        let newline = bytes[end..]
            .iter()
            .take(256)
            .position(|&b| b == b'\n')
            .ok_or(DataFileError::NotData)?;
        end += newline + 1;
    }
    let header = std::str::from_utf8(&bytes[..end]).map_err(|_| DataFileError::NotData)?;
    Ok((header, &bytes[end..]))
}

fn read_records<R: Rules>(records: &[u8]) -> Result<Vec<Labelled>, DataFileError> {
    records
        .chunks_exact(RECORD)
        .enumerate()
        .map(|(i, r)| {
            let key = u128::from_le_bytes(r[..16].try_into().expect("16 bytes"));
            let target = f64::from_le_bytes(r[16..].try_into().expect("8 bytes"));
            let pos = Position::<R>::from_key(key);
            let valid = target.is_finite()
                && pos.to_string().parse::<Position<R>>().map(|p| p.key()) == Ok(key);
            if valid {
                Ok(Labelled::of(&pos, target))
            } else {
                Err(DataFileError::Position(i as u64 + 1))
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use mancala_engine::Bohnenspiel;

    fn sample() -> Data {
        let mut pos = Position::<Bohnenspiel>::start();
        let mut train = Vec::new();
        for i in 0..3 {
            train.push(Labelled::of(&pos, i as f64 - 0.5));
            pos = pos.play(pos.legal_moves()[i]);
        }
        Data {
            train,
            test: vec![Labelled::of(&pos, 3.25)],
        }
    }

    #[test]
    fn data_files_read_back_what_was_written_and_refuse_damage() {
        let path = std::env::temp_dir().join(format!("mancala-data-{}.bin", std::process::id()));
        let data = sample();
        save(&data, GameId::Bohnenspiel, &path).expect("written");
        let back = load(GameId::Bohnenspiel, &path).expect("read");
        assert_eq!(back.train, data.train);
        assert_eq!(back.test, data.test);

        let other = load(GameId::Oware, &path).unwrap_err();
        assert!(matches!(other, DataFileError::Game { .. }), "{other}");

        let mut bytes = std::fs::read(&path).expect("read");
        let last_record = bytes.len() - 12;
        bytes[last_record] ^= 1;
        std::fs::write(&path, &bytes).expect("written");
        let damaged = load(GameId::Bohnenspiel, &path).unwrap_err();
        assert!(damaged.to_string().contains("checksum"), "{damaged}");

        bytes.truncate(bytes.len() - 30);
        std::fs::write(&path, &bytes).expect("written");
        let cut = load(GameId::Bohnenspiel, &path).unwrap_err();
        assert!(cut.to_string().contains("damaged"), "{cut}");

        // Several files: the training parts in order, then the held-out
        // ones; the second of two files over the limit is named.
        let second = path.with_extension("second");
        save(&data, GameId::Bohnenspiel, &path).expect("written");
        let mut more = sample();
        more.train.reverse();
        save(&more, GameId::Bohnenspiel, &second).expect("written");
        let both = load_all(GameId::Bohnenspiel, &[&path, &second]).expect("read");
        assert_eq!(both.train, [&data.train[..], &more.train[..]].concat());
        assert_eq!(both.test, [&data.test[..], &more.test[..]].concat());
        let over = load_within(GameId::Bohnenspiel, &[&path, &second], 7).unwrap_err();
        assert!(matches!(over, (1, DataFileError::TooMany)), "{over:?}");
        assert!(load_within(GameId::Bohnenspiel, &[&path, &second], 8).is_ok());
        std::fs::remove_file(&second).expect("removed");

        std::fs::write(&path, "mancala-network 1\ngame bohnenspiel\n").expect("written");
        assert!(matches!(
            load(GameId::Bohnenspiel, &path),
            Err(DataFileError::NotData)
        ));
        std::fs::remove_file(&path).expect("removed");
    }
}
