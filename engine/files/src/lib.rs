//! The data files of `positions/`, one parser each, with one comment rule:
//! `#` starts a comment that runs to the end of the line, and lines left
//! blank are skipped. Every error names the line it is on.
//!
//! | file | a line | parser |
//! |---|---|---|
//! | `bench.txt` | `POSITION` | [`parse_positions`] |
//! | `openings/GAME.txt` | `POSITION` (of `GAME`, game not over) | [`parse_openings`] |
//! | `perft/GAME.perft` | `POSITION ;D1 n1 ;D2 n2 …` | [`parse_perft`] |
//! | `puzzles/GAME.txt` | `POSITION \| margin M \| best B,…` | [`parse_puzzles`] |
//!
//! The files shipped with the program are compiled in ([`BENCH`],
//! [`shipped_openings`], [`shipped_perft`], [`PUZZLES`]).

use std::fmt;
use std::fs::{self, File};
use std::io::{self, Write};
use std::path::Path;

use mancala_rules::AnyPosition;
use mancala_rules::Move;
use mancala_rules::PositionError;
use mancala_rules::{GameId, Status};

/// `positions/bench.txt`: the positions `mancala bench` searches.
pub const BENCH: &str = include_str!("../../../positions/bench.txt");

/// `positions/puzzles/bohnenspiel.txt`: Bohnenspiel endgame puzzles.
pub const PUZZLES: &str = include_str!("../../../positions/puzzles/bohnenspiel.txt");
/// The Bohnenspiel accuracy set: positions from games, every move's exact
/// value (`positions/accuracy/bohnenspiel.txt`).
pub const ACCURACY: &str = include_str!("../../../positions/accuracy/bohnenspiel.txt");

/// The file of every game in `positions/$folder/`, named after the game
/// with `$ext`, compiled in: `shipped!(game, "openings", ".txt")`. The
/// games and their names come from the one list of games
/// ([`mancala_rules::for_each_game!`]): a new game's files are expected
/// there, and the build says so if they are not.
macro_rules! shipped {
    ($game:expr, $folder:literal, $ext:literal) => {
        mancala_rules::for_each_game!(shipped_file [$game, $folder, $ext])
    };
}

/// [`shipped!`]'s callback of the list of games.
macro_rules! shipped_file {
    ([$game:expr, $folder:literal, $ext:literal] $(($g:ident, $name:literal, $doc:literal))+) => {
        match $game {
            $(GameId::$g => include_str!(concat!("../../../positions/", $folder, "/", $name, $ext)),)+
        }
    };
}

/// The opening file shipped for `game` (`positions/openings/GAME.txt`).
pub fn shipped_openings(game: GameId) -> &'static str {
    shipped!(game, "openings", ".txt")
}

/// The perft file shipped for `game` (`positions/perft/GAME.perft`).
pub fn shipped_perft(game: GameId) -> &'static str {
    shipped!(game, "perft", ".perft")
}

/// A file being written atomically: created at once under a temporary
/// name beside `path` (so a path that cannot be written is found before
/// any work is done), and renamed over `path` by
/// [`commit`](Self::commit) once complete and synced. Dropped uncommitted,
/// it removes the temporary file and leaves `path` as it was.
#[derive(Debug)]
pub struct AtomicFile {
    path: std::path::PathBuf,
    tmp: std::path::PathBuf,
    file: Option<File>,
}

impl AtomicFile {
    /// Creates the temporary file for `path`: a name of this writer's own
    /// (`FILE.PID.N.partial`), so that two processes or threads writing
    /// the same file never write into one temporary file; the last rename
    /// wins, whole.
    pub fn create(path: &Path) -> io::Result<AtomicFile> {
        static WRITERS: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
        let n = WRITERS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let mut name = path.file_name().unwrap_or_default().to_os_string();
        name.push(format!(".{}.{n}.partial", std::process::id()));
        let tmp = path.with_file_name(name);
        let file = File::options().write(true).create_new(true).open(&tmp)?;
        Ok(AtomicFile {
            path: path.to_path_buf(),
            tmp,
            file: Some(file),
        })
    }

    /// Fills the file with `write`, syncs it and renames it over the path.
    pub fn commit(
        mut self,
        write: impl FnOnce(&mut io::BufWriter<&File>) -> io::Result<()>,
    ) -> io::Result<()> {
        let file = self.file.take().expect("not yet committed");
        let mut out = io::BufWriter::new(&file);
        write(&mut out)?;
        out.flush()?;
        drop(out);
        file.sync_all()?;
        fs::rename(&self.tmp, &self.path)
    }
}

impl Drop for AtomicFile {
    fn drop(&mut self) {
        if self.file.take().is_some() || self.tmp.exists() {
            let _ = fs::remove_file(&self.tmp);
        }
    }
}

/// An exclusive lock on a file of its own beside the data it guards (a
/// proof ledger's `FILE.lock`, a table directory's `GAME.build.lock`): the
/// operating system's (`flock`), held from [`lock`](Self::lock) until the
/// value is dropped, and gone with the process however it ends; the file
/// itself stays, empty. Every writer of the data takes it first.
#[derive(Debug)]
pub struct LockFile(File);

impl LockFile {
    /// Opens (or creates) the lock file at `path`, not locked yet.
    pub fn open(path: &Path) -> io::Result<LockFile> {
        File::options()
            .create(true)
            .truncate(false)
            .write(true)
            .open(path)
            .map(LockFile)
    }

    /// Takes the lock, waiting while another process holds it (`waiting`
    /// is called first when it must wait).
    pub fn lock(&self, waiting: impl FnOnce()) -> io::Result<()> {
        match self.0.try_lock() {
            Ok(()) => Ok(()),
            Err(fs::TryLockError::WouldBlock) => {
                waiting();
                self.0.lock()
            }
            Err(fs::TryLockError::Error(e)) => Err(e),
        }
    }
}

impl Drop for LockFile {
    fn drop(&mut self) {
        let _ = self.0.unlock();
    }
}

/// Writes the file at `path` atomically ([`AtomicFile`]): `write` fills a
/// temporary file beside it, which is synced and then renamed over `path`,
/// so a crash or a full disk leaves either the old file or the new one,
/// never half of one.
pub fn write_atomically(
    path: &Path,
    write: impl FnOnce(&mut io::BufWriter<&File>) -> io::Result<()>,
) -> io::Result<()> {
    AtomicFile::create(path)?.commit(write)
}

/// FNV-1a, 64 bits: the checksum the program's own data files end with
/// (networks, training data), so that a damaged or cut file is refused.
pub fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| {
        (h ^ b as u64).wrapping_mul(0x0100_0000_01b3)
    })
}

/// The largest text file read ([`read_text`]): far above any opening,
/// puzzle or weight file.
pub const MAX_TEXT_FILE: u64 = 64 << 20;

/// Reads a text file given by the user: a regular file (a FIFO would block,
/// a device would be read without end) of at most [`MAX_TEXT_FILE`] bytes,
/// in UTF-8.
pub fn read_text(path: &Path) -> io::Result<String> {
    String::from_utf8(read_bytes(path, MAX_TEXT_FILE)?).map_err(|_| {
        io::Error::new(
            io::ErrorKind::InvalidData,
            "stream did not contain valid UTF-8",
        )
    })
}

/// Reads a file given by the user, as [`read_text`] does but of at most
/// `max` bytes and whatever they hold.
pub fn read_bytes(path: &Path, max: u64) -> io::Result<Vec<u8>> {
    use std::io::Read;
    let meta = fs::metadata(path)?;
    if !meta.is_file() {
        return Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            "not a regular file",
        ));
    }
    if meta.len() > max {
        return Err(io::Error::new(
            io::ErrorKind::InvalidData,
            format!("{} bytes, more than the {max} a file may have", meta.len()),
        ));
    }
    let mut bytes = Vec::new();
    File::open(path)?.take(max).read_to_end(&mut bytes)?;
    Ok(bytes)
}

/// [`write_atomically`] of a whole text or byte string.
pub fn write_file(path: &Path, bytes: impl AsRef<[u8]>) -> io::Result<()> {
    write_atomically(path, |out| out.write_all(bytes.as_ref()))
}

/// A line of a data file that cannot be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("line {line}: {problem}")]
pub struct FileError {
    /// The line, from 1 (0: the file as a whole).
    pub line: usize,
    /// What is wrong with it.
    pub problem: LineError,
}

/// What is wrong with a line of a data file.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum LineError {
    /// The position does not parse.
    #[error("bad position '{text}': {source}")]
    Position {
        /// The text.
        text: String,
        /// Why.
        #[source]
        source: PositionError,
    },
    /// An opening of another game.
    #[error("a {found} position in a {expected} file")]
    WrongGame {
        /// The game of the file.
        expected: GameId,
        /// The game of the line.
        found: GameId,
    },
    /// An opening where the game is already over.
    #[error("the game is already over at '{0}'")]
    GameOver(String),
    /// A field that is not of the form the file needs.
    #[error("bad field '{text}': expected {expected}")]
    Field {
        /// The field's text.
        text: String,
        /// What it should look like.
        expected: &'static str,
    },
    /// The wrong number of fields.
    #[error("expected {0}")]
    Shape(&'static str),
    /// A file with no entry at all.
    #[error("no entries in the file")]
    Empty,
}

/// The lines of a data file that hold an entry: `(line number from 1, text)`
/// with the comment cut off and the text trimmed. The one comment rule of
/// every file in `positions/`.
pub fn entries(text: &str) -> impl Iterator<Item = (usize, &str)> {
    text.lines().enumerate().filter_map(|(i, line)| {
        let entry = line.split('#').next().unwrap_or("").trim();
        (!entry.is_empty()).then_some((i + 1, entry))
    })
}

/// The position written `text` on line `line`, or the file error that
/// names the line.
pub fn position(line: usize, text: &str) -> Result<AnyPosition, FileError> {
    text.parse().map_err(|source| FileError {
        line,
        problem: LineError::Position {
            text: text.to_string(),
            source,
        },
    })
}

/// The error for a field on line `line` that is not what was `expected`.
pub fn field(line: usize, text: &str, expected: &'static str) -> FileError {
    FileError {
        line,
        problem: LineError::Field {
            text: text.to_string(),
            expected,
        },
    }
}

/// A file of positions, one a line (`bench.txt`).
pub fn parse_positions(text: &str) -> Result<Vec<AnyPosition>, FileError> {
    entries(text).map(|(n, l)| position(n, l)).collect()
}

/// An opening file: positions of `game` where the game is not over, at
/// least one.
pub fn parse_openings(text: &str, game: GameId) -> Result<Vec<AnyPosition>, FileError> {
    let mut out = Vec::new();
    for (line, entry) in entries(text) {
        let pos = position(line, entry)?;
        let problem = if pos.game() != game {
            LineError::WrongGame {
                expected: game,
                found: pos.game(),
            }
        } else if pos.status() != Status::Ongoing {
            LineError::GameOver(entry.to_string())
        } else {
            out.push(pos);
            continue;
        };
        return Err(FileError { line, problem });
    }
    if out.is_empty() {
        return Err(FileError {
            line: 0,
            problem: LineError::Empty,
        });
    }
    Ok(out)
}

/// A line of a perft file: a position and its counts for depths 1, 2, ….
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PerftEntry {
    /// The position.
    pub position: AnyPosition,
    /// Element `k`: the move sequences of `k + 1` moves.
    pub counts: Vec<u64>,
}

/// A perft file: `POSITION ;D1 n1 ;D2 n2 …`, the depths in order from 1.
pub fn parse_perft(text: &str) -> Result<Vec<PerftEntry>, FileError> {
    const FORM: &str = "';Dk n' with k = 1, 2, … in order";
    entries(text)
        .map(|(line, entry)| {
            let mut parts = entry.split(';');
            let position = position(line, parts.next().unwrap_or("").trim())?;
            let counts = parts
                .enumerate()
                .map(|(k, part)| {
                    let part = part.trim();
                    let (d, n) = part
                        .split_once(' ')
                        .ok_or_else(|| field(line, part, FORM))?;
                    if d != format!("D{}", k + 1) {
                        return Err(field(line, part, FORM));
                    }
                    n.trim().parse().map_err(|_| field(line, part, FORM))
                })
                .collect::<Result<Vec<u64>, _>>()?;
            Ok(PerftEntry { position, counts })
        })
        .collect()
}

/// A puzzle: a position, its proven margin and every move that keeps it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Puzzle {
    /// The position.
    pub position: AnyPosition,
    /// The final margin for the side to move under optimal play, banked
    /// seeds included.
    pub margin: i32,
    /// Every move that keeps the margin, ascending.
    pub best: Vec<Move>,
}

impl fmt::Display for Puzzle {
    /// The puzzle's line: `POSITION | margin M | best B,…`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} | margin {} | best ", self.position, self.margin)?;
        for (i, mv) in self.best.iter().enumerate() {
            if i > 0 {
                f.write_str(",")?;
            }
            write!(f, "{mv}")?;
        }
        Ok(())
    }
}

/// A puzzle file: `POSITION | margin M | best B,…` a line.
pub fn parse_puzzles(text: &str) -> Result<Vec<Puzzle>, FileError> {
    entries(text)
        .map(|(line, entry)| {
            let fields: Vec<&str> = entry.split('|').map(str::trim).collect();
            let [pos, margin, best] = fields[..] else {
                return Err(FileError {
                    line,
                    problem: LineError::Shape("'POSITION | margin M | best B,…'"),
                });
            };
            let position = position(line, pos)?;
            let margin = margin
                .strip_prefix("margin ")
                .and_then(|m| m.trim().parse().ok())
                .ok_or_else(|| field(line, margin, "'margin M'"))?;
            let best = best
                .strip_prefix("best ")
                .and_then(|b| {
                    b.split(',')
                        .map(|m| m.trim().parse::<u8>().ok().map(Move::from_pit))
                        .collect::<Option<Vec<_>>>()
                })
                .ok_or_else(|| field(line, best, "'best B,…' (pit numbers)"))?;
            Ok(Puzzle {
                position,
                margin,
                best,
            })
        })
        .collect()
}

/// A position with the exact value of every legal move (the accuracy
/// set, `positions/accuracy/`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Graded {
    /// The position (no history: the values are the position's own).
    pub position: AnyPosition,
    /// Every legal move with the final margin it leads to under optimal
    /// play, from the mover's view, banked seeds included; in move order.
    pub values: Vec<(Move, i32)>,
}

impl Graded {
    /// The best value of the position.
    pub fn best(&self) -> i32 {
        self.values.iter().map(|&(_, v)| v).max().unwrap_or(0)
    }

    /// The value of move `mv`, if it is legal.
    pub fn value_of(&self, mv: Move) -> Option<i32> {
        self.values.iter().find(|&&(m, _)| m == mv).map(|&(_, v)| v)
    }

    /// Whether some move loses value (where none does, any move keeps it,
    /// and the position grades nothing).
    pub fn can_lose(&self) -> bool {
        self.values.iter().any(|&(_, v)| v < self.best())
    }
}

impl fmt::Display for Graded {
    /// The line: `POSITION | values 1:+2,3:-4,5:+2`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let values: Vec<String> = self
            .values
            .iter()
            .map(|(m, v)| format!("{}:{v:+}", m.pit()))
            .collect();
        write!(f, "{} | values {}", self.position, values.join(","))
    }
}

/// A graded-position file: `POSITION | values M:V,…` a line.
pub fn parse_graded(text: &str) -> Result<Vec<Graded>, FileError> {
    entries(text)
        .map(|(line, entry)| {
            let fields: Vec<&str> = entry.split('|').map(str::trim).collect();
            let [pos, values] = fields[..] else {
                return Err(FileError {
                    line,
                    problem: LineError::Shape("'POSITION | values M:V,…'"),
                });
            };
            let position = position(line, pos)?;
            let values = values
                .strip_prefix("values ")
                .and_then(|list| {
                    list.split(',')
                        .map(|pair| {
                            let (m, v) = pair.trim().split_once(':')?;
                            Some((
                                Move::from_pit(m.trim().parse().ok()?),
                                v.trim().parse().ok()?,
                            ))
                        })
                        .collect::<Option<Vec<_>>>()
                })
                .filter(|v: &Vec<(Move, i32)>| !v.is_empty())
                .ok_or_else(|| field(line, values, "'values M:V,…' (pit:margin)"))?;
            Ok(Graded { position, values })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn graded_lines_round_trip_and_bad_ones_are_named() {
        let text =
            "# a comment\nbohnenspiel 0,1,0,2,0,3/1,0,1,0,0,0 S 32-32 | values 2:+4,4:+4,6:-2\n";
        let set = parse_graded(text).unwrap();
        assert_eq!(set.len(), 1);
        assert_eq!(set[0].best(), 4);
        assert_eq!(set[0].value_of(Move::from_pit(6)), Some(-2));
        assert_eq!(set[0].value_of(Move::from_pit(1)), None);
        assert_eq!(
            format!("{}\n", set[0]),
            text.lines().nth(1).unwrap().to_string() + "\n"
        );
        for bad in [
            "bohnenspiel 0,1,0,2,0,3/1,0,1,0,0,0 S 32-32",
            "bohnenspiel 0,1,0,2,0,3/1,0,1,0,0,0 S 32-32 | values",
            "bohnenspiel 0,1,0,2,0,3/1,0,1,0,0,0 S 32-32 | values 2=4",
            "bohnenspiel 0,1,0,2,0,3/1,0,1,0,0,0 S 32-31 | values 2:+4",
        ] {
            let e = parse_graded(bad).unwrap_err();
            assert_eq!(e.line, 1, "{bad}");
        }
    }

    #[test]
    fn the_shipped_files_parse() {
        assert!(parse_positions(BENCH).unwrap().len() >= 15);
        assert!(parse_puzzles(PUZZLES).unwrap().len() >= 100);
        let graded = parse_graded(ACCURACY).unwrap();
        assert!(graded.len() >= 150);
        for g in &graded {
            // Every legal move has its value, and only those.
            let legal: Vec<Move> = g.position.legal_moves().iter().copied().collect();
            let given: Vec<Move> = g.values.iter().map(|&(m, _)| m).collect();
            assert_eq!(given, legal, "{g}");
            let seeds = g.position.board_seeds();
            assert!((20..=40).contains(&seeds), "{g}");
        }
        for game in GameId::ALL {
            let openings = parse_openings(shipped_openings(game), game).unwrap();
            assert!(openings.len() >= 20, "{game}: {}", openings.len());
            let perft = parse_perft(shipped_perft(game)).unwrap();
            assert!(perft.len() >= 5, "{game}: {}", perft.len());
            assert!(perft
                .iter()
                .all(|e| e.position.game() == game && !e.counts.is_empty()));
        }
    }

    #[test]
    fn comments_and_blank_lines_are_skipped_everywhere() {
        let text = "# a header\n\n  bosh 4,4,4,4,4/4,4,4,4,4 S 0-0  # the start\n   \n";
        assert_eq!(
            entries(text).collect::<Vec<_>>(),
            vec![(3, "bosh 4,4,4,4,4/4,4,4,4,4 S 0-0")]
        );
        assert_eq!(parse_positions(text).unwrap().len(), 1);
        assert_eq!(parse_openings(text, GameId::Bosh).unwrap().len(), 1);
    }

    #[test]
    fn errors_name_the_line() {
        let e = parse_positions("# x\nbohnenspiel 6,6\n").unwrap_err();
        assert_eq!(e.line, 2);
        assert!(
            e.to_string()
                .starts_with("line 2: bad position 'bohnenspiel 6,6'"),
            "{e}"
        );
        let e =
            parse_openings("bosh 4,4,4,4,4/4,4,4,4,4 S 0-0\n", GameId::Bohnenspiel).unwrap_err();
        assert_eq!(
            e.to_string(),
            "line 1: a bosh position in a bohnenspiel file"
        );
        let over = "bohnenspiel 0,0,0,0,0,0/0,0,0,0,0,2 S 35-35";
        let e = parse_openings(over, GameId::Bohnenspiel).unwrap_err();
        assert_eq!(e.problem, LineError::GameOver(over.into()));
        assert_eq!(
            parse_openings("# none\n", GameId::Bosh)
                .unwrap_err()
                .problem,
            LineError::Empty
        );
        let e = parse_perft("bosh 4,4,4,4,4/4,4,4,4,4 S 0-0 ;D1 5 ;D3 79").unwrap_err();
        assert!(matches!(e.problem, LineError::Field { .. }), "{e}");
        let e = parse_puzzles("bosh 4,4,4,4,4/4,4,4,4,4 S 0-0 | margin 2").unwrap_err();
        assert!(matches!(e.problem, LineError::Shape(_)), "{e}");
        let e = parse_puzzles("bosh 4,4,4,4,4/4,4,4,4,4 S 0-0 | margin 2 | best x").unwrap_err();
        assert!(matches!(e.problem, LineError::Field { .. }), "{e}");
    }

    #[test]
    fn files_are_replaced_whole() {
        let dir = std::env::temp_dir().join(format!("mancala-files-{}", std::process::id()));
        fs::create_dir_all(&dir).unwrap();
        let path = dir.join("out.txt");
        write_file(&path, "old").unwrap();
        let failed = write_atomically(&path, |out| {
            out.write_all(b"half")?;
            Err(io::Error::other("disk full"))
        });
        assert!(failed.is_err());
        assert_eq!(fs::read_to_string(&path).unwrap(), "old");
        assert_eq!(
            fs::read_dir(&dir).unwrap().count(),
            1,
            "the temporary file is gone"
        );
        write_file(&path, "new").unwrap();
        assert_eq!(fs::read_to_string(&path).unwrap(), "new");
        fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_puzzle_line_round_trips() {
        let line = "bohnenspiel 0,0,0,0,1,1/1,1,0,0,0,0 S 34-34 | margin 2 | best 5,6";
        let p = parse_puzzles(line).unwrap();
        assert_eq!(p.len(), 1);
        assert_eq!(p[0].to_string(), line);
    }
}
