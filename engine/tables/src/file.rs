//! The table file format, and reading it back through a memory map.
//!
//! One file a layer, `<game>-<seeds>.mtb` (`bohnenspiel-18.mtb`): a 64-byte
//! header, then one signed byte a position in rank order.
//!
//! | bytes  | contents                                              |
//! |--------|-------------------------------------------------------|
//! | 0..8   | magic `MANCALTB`                                      |
//! | 8..12  | format version, `u32` little-endian                   |
//! | 12..36 | game name, ASCII, zero-padded                         |
//! | 36     | pits on the board                                     |
//! | 37     | seeds on the board (the layer)                        |
//! | 38..40 | zero                                                  |
//! | 40..48 | entries, `u64`                                        |
//! | 48..56 | checksum of the entries, `u64`                        |
//! | 56..64 | checksum of bytes 0..56, `u64`                        |
//!
//! A file is trusted only if every field matches what the reader expects,
//! its length is exact and both checksums agree.

use std::fs::{self, File};
use std::io::Write;
use std::path::{Path, PathBuf};

use mancala_files::LockFile;
use mancala_rules::GameId;

use super::TablebaseError;

/// The first eight bytes of every table file.
pub const MAGIC: &[u8; 8] = b"MANCALTB";
/// The format version written and the only one read.
pub const FORMAT_VERSION: u32 = 1;
/// Bytes before the entries.
pub const HEADER_LEN: usize = 64;

/// The file name of a layer: `bohnenspiel-18.mtb`.
pub fn file_name(game: GameId, seeds: u32) -> String {
    format!("{}-{seeds:02}.mtb", game.name())
}

/// The path of a layer in `dir`.
pub fn layer_path(dir: &Path, game: GameId, seeds: u32) -> PathBuf {
    dir.join(file_name(game, seeds))
}

/// A 64-bit checksum of `data` (four multiply-rotate lanes over 8-byte
/// words, then the tail and the length). Fast enough to check a table each
/// time it is opened; meant for damage, not for an adversary.
pub fn checksum(data: &[u8]) -> u64 {
    const M: u64 = 0x9E37_79B9_7F4A_7C15;
    let mut h = [
        0x243F_6A88_85A3_08D3u64,
        0x1319_8A2E_0370_7344,
        0xA409_3822_299F_31D0,
        0x082E_FA98_EC4E_6C89,
    ];
    let mut blocks = data.chunks_exact(32);
    for block in &mut blocks {
        for (j, lane) in h.iter_mut().enumerate() {
            let w = u64::from_le_bytes(block[8 * j..8 * j + 8].try_into().expect("8 bytes"));
            *lane = (*lane ^ w).wrapping_mul(M).rotate_left(29);
        }
    }
    let mut tail = 0u64;
    for (i, &b) in blocks.remainder().iter().enumerate() {
        tail ^= (b as u64) << (8 * (i % 8));
        if i % 8 == 7 {
            h[0] = (h[0] ^ tail).wrapping_mul(M).rotate_left(29);
            tail = 0;
        }
    }
    let mut out = (data.len() as u64).wrapping_mul(M) ^ tail;
    for lane in h {
        out = (out ^ lane).wrapping_mul(M).rotate_left(31);
    }
    out ^ (out >> 32)
}

fn header(game: GameId, pits: usize, seeds: u32, data: &[u8]) -> [u8; HEADER_LEN] {
    let mut h = [0u8; HEADER_LEN];
    h[0..8].copy_from_slice(MAGIC);
    h[8..12].copy_from_slice(&FORMAT_VERSION.to_le_bytes());
    let name = game.name().as_bytes();
    h[12..12 + name.len()].copy_from_slice(name);
    h[36] = pits as u8;
    h[37] = seeds as u8;
    h[40..48].copy_from_slice(&(data.len() as u64).to_le_bytes());
    h[48..56].copy_from_slice(&checksum(data).to_le_bytes());
    let own = checksum(&h[..56]);
    h[56..64].copy_from_slice(&own.to_le_bytes());
    h
}

/// Writes a layer to `path` atomically (a temporary file, then a rename), so
/// a build stopped half-way never leaves a file that looks complete. (The
/// builds write through their own buffers; the tests use this.)
#[cfg(test)]
pub fn write_layer(
    path: &Path,
    game: GameId,
    pits: usize,
    seeds: u32,
    data: &[u8],
) -> Result<(), TablebaseError> {
    let io = |cause| TablebaseError::Io {
        path: path.to_path_buf(),
        cause,
    };
    if let Some(dir) = path.parent() {
        fs::create_dir_all(dir).map_err(io)?;
    }
    mancala_files::write_atomically(path, |out| {
        out.write_all(&header(game, pits, seeds, data))?;
        out.write_all(data)
    })
    .map_err(io)
}

/// The bytes of a layer: read from a file through a memory map, or held in
/// memory (just built).
pub enum LayerData {
    /// A mapped file, header included.
    Mapped(memmap2::Mmap),
    /// Entries in memory.
    Owned(Vec<u8>),
}

impl LayerData {
    /// The entries, one byte a position in rank order.
    #[inline]
    pub fn entries(&self) -> &[u8] {
        match self {
            LayerData::Mapped(map) => &map[HEADER_LEN..],
            LayerData::Owned(v) => v,
        }
    }
}

impl std::fmt::Debug for LayerData {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let kind = match self {
            LayerData::Mapped(_) => "mapped",
            LayerData::Owned(_) => "owned",
        };
        write!(f, "LayerData({kind}, {} entries)", self.entries().len())
    }
}

/// Maps a file read-only.
#[allow(unsafe_code)]
fn map(file: &File) -> std::io::Result<memmap2::Mmap> {
    // SAFETY: the map is read-only and private to this process. Its bytes
    // are checked (length, header, checksum) before any is trusted, so a
    // damaged file is refused; the remaining hazard, another process
    // truncating the file while it is mapped, is the usual caveat of table
    // files and is documented in the README (Endgame tablebases).
    unsafe { memmap2::Mmap::map(file) }
}

/// Why a layer file is refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Refusal {
    /// A FIFO, device or directory: never opened.
    #[error("not a regular file")]
    NotAFile,
    /// Shorter than the header.
    #[error("truncated: {len} bytes, shorter than the header")]
    ShortHeader {
        /// The file's length.
        len: u64,
    },
    /// The first bytes are not `MAGIC`.
    #[error("not a mancala table (bad magic)")]
    BadMagic,
    /// The header's own checksum does not match.
    #[error("damaged header (checksum mismatch)")]
    DamagedHeader,
    /// Another format version.
    #[error("format version {found}, this program reads {FORMAT_VERSION}")]
    Version {
        /// The version in the file.
        found: u32,
    },
    /// A table of another game or board size.
    #[error("a {} table, expected {expected}", name_field(found))]
    OtherGame {
        /// The game name field of the file (ASCII, zero-padded).
        found: [u8; 24],
        /// The game asked for.
        expected: GameId,
    },
    /// Another layer.
    #[error("holds the {found}-seed layer, expected {expected}")]
    OtherLayer {
        /// The layer in the file.
        found: u8,
        /// The layer asked for.
        expected: u32,
    },
    /// A wrong entry count for the layer.
    #[error("{found} entries, a {seeds}-seed layer has {expected}")]
    Entries {
        /// The count in the header.
        found: u64,
        /// The layer.
        seeds: u32,
        /// Its positions.
        expected: u64,
    },
    /// The length is not the header plus the entries.
    #[error("truncated or padded: {len} bytes, expected {expected}")]
    Length {
        /// The file's length.
        len: u64,
        /// The header and the entries.
        expected: u64,
    },
    /// The entries' checksum does not match.
    #[error("damaged entries (checksum mismatch)")]
    DamagedEntries,
}

/// The game name field of a header, up to its first zero byte.
fn name_field(field: &[u8; 24]) -> std::borrow::Cow<'_, str> {
    let end = field.iter().position(|&b| b == 0).unwrap_or(field.len());
    String::from_utf8_lossy(&field[..end])
}

/// Checks a layer file's header `h` (its first `HEADER_LEN`, 64 bytes) for a
/// file of `len` bytes holding the `seeds`-seed layer of `game` (`pits`
/// pits, `expected_entries` entries); the reason it is refused if not. The
/// entries' checksum is checked by `open_layer`.
pub fn check_header(
    h: &[u8],
    game: GameId,
    pits: usize,
    seeds: u32,
    expected_entries: u64,
    len: u64,
) -> Result<(), Refusal> {
    let Some(h) = h.get(..HEADER_LEN) else {
        return Err(Refusal::ShortHeader {
            len: h.len() as u64,
        });
    };
    if &h[0..8] != MAGIC {
        return Err(Refusal::BadMagic);
    }
    let own = u64::from_le_bytes(h[56..64].try_into().expect("8 bytes"));
    if checksum(&h[..56]) != own {
        return Err(Refusal::DamagedHeader);
    }
    let version = u32::from_le_bytes(h[8..12].try_into().expect("4 bytes"));
    if version != FORMAT_VERSION {
        return Err(Refusal::Version { found: version });
    }
    let name: [u8; 24] = h[12..36].try_into().expect("24 bytes");
    if name_field(&name) != game.name() || h[36] as usize != pits {
        return Err(Refusal::OtherGame {
            found: name,
            expected: game,
        });
    }
    if h[37] as u32 != seeds {
        return Err(Refusal::OtherLayer {
            found: h[37],
            expected: seeds,
        });
    }
    let entries = u64::from_le_bytes(h[40..48].try_into().expect("8 bytes"));
    if entries != expected_entries {
        return Err(Refusal::Entries {
            found: entries,
            seeds,
            expected: expected_entries,
        });
    }
    if Some(len) != (HEADER_LEN as u64).checked_add(entries) {
        return Err(Refusal::Length {
            len,
            expected: HEADER_LEN as u64 + entries,
        });
    }
    Ok(())
}

/// Opens the layer `seeds` of `game` at `path`, checking everything:
/// magic, version, game, board size, seed count, length and checksums.
pub fn open_layer(
    path: &Path,
    game: GameId,
    pits: usize,
    seeds: u32,
    expected_entries: u64,
) -> Result<LayerData, TablebaseError> {
    let io = |cause| TablebaseError::Io {
        path: path.to_path_buf(),
        cause,
    };
    let bad = |reason: Refusal| TablebaseError::Refused {
        path: path.to_path_buf(),
        reason,
    };
    // Only a regular file is opened: a FIFO would block the open, a device
    // would be read without end.
    let kind = std::fs::metadata(path).map_err(io)?.file_type();
    if !kind.is_file() {
        return Err(bad(Refusal::NotAFile));
    }
    let file = File::open(path).map_err(io)?;
    let len = file.metadata().map_err(io)?.len();
    if len < HEADER_LEN as u64 {
        return Err(bad(Refusal::ShortHeader { len }));
    }
    let map = map(&file).map_err(io)?;
    let h = &map[..HEADER_LEN];
    check_header(h, game, pits, seeds, expected_entries, len).map_err(bad)?;
    let sum = u64::from_le_bytes(h[48..56].try_into().expect("8 bytes"));
    if checksum(&map[HEADER_LEN..]) != sum {
        return Err(bad(Refusal::DamagedEntries));
    }
    Ok(LayerData::Mapped(map))
}

/// Takes the lock a build holds on its table directory for a game
/// (`DIR/GAME.build.lock`, a [`LockFile`]) while it builds: another build
/// of that game into the same directory waits for it (`waiting` is told
/// the lock's path first), then loads what it built.
pub fn build_lock(
    dir: &Path,
    game: &str,
    waiting: impl FnOnce(&Path),
) -> Result<LockFile, TablebaseError> {
    let path = dir.join(format!("{game}.build.lock"));
    let io = |cause| TablebaseError::Io {
        path: path.clone(),
        cause,
    };
    fs::create_dir_all(dir).map_err(io)?;
    let lock = LockFile::open(&path).map_err(io)?;
    lock.lock(|| waiting(&path)).map_err(io)?;
    Ok(lock)
}

/// The file a cluster build writes a layer's shares into before
/// [`seal_parts`] renames it to `path`: `bohnenspiel-18.mtb.parts`.
pub fn parts_path(path: &Path) -> PathBuf {
    let mut name = path.file_name().unwrap_or_default().to_os_string();
    name.push(".parts");
    path.with_file_name(name)
}

/// Runs `f` on the parts file of the layer at `path`; an I/O error names
/// that file.
fn on_parts<T>(
    path: &Path,
    f: impl FnOnce(&Path) -> std::io::Result<T>,
) -> Result<T, TablebaseError> {
    let parts = parts_path(path);
    f(&parts).map_err(|cause| TablebaseError::Io { path: parts, cause })
}

/// Creates (or empties) the parts file of the layer at `path`, sized for
/// the header and `entries` entries (zeros until written).
pub fn create_parts(path: &Path, entries: u64) -> Result<(), TablebaseError> {
    on_parts(path, |parts| {
        if let Some(dir) = path.parent() {
            fs::create_dir_all(dir)?;
        }
        File::create(parts)?.set_len(HEADER_LEN as u64 + entries)
    })
}

/// Writes pieces of the layer at `path` into its parts file (made by
/// [`create_parts`]), and syncs them: each piece is the entries from the
/// given rank on.
pub fn write_part<D: AsRef<[u8]>>(
    path: &Path,
    pieces: impl Iterator<Item = (u64, D)>,
) -> Result<(), TablebaseError> {
    use std::io::{Seek, SeekFrom};
    on_parts(path, |parts| {
        let mut file = fs::OpenOptions::new().write(true).open(parts)?;
        for (offset, data) in pieces {
            file.seek(SeekFrom::Start(HEADER_LEN as u64 + offset))?;
            file.write_all(data.as_ref())?;
        }
        file.sync_data()
    })
}

/// Completes the parts file of the `seeds`-seed layer of `game` at `path`,
/// once every share is written: the header (with the entries' checksum) is
/// written, the file synced and renamed to `path`.
pub fn seal_parts(
    path: &Path,
    game: GameId,
    pits: usize,
    seeds: u32,
    entries: u64,
) -> Result<(), TablebaseError> {
    use std::io::{Seek, SeekFrom};
    on_parts(path, |parts| {
        let mut file = fs::OpenOptions::new().read(true).write(true).open(parts)?;
        let (len, want) = (file.metadata()?.len(), HEADER_LEN as u64 + entries);
        if len != want {
            return Err(std::io::Error::other(format!(
                "{len} bytes, expected {want}: changed while the layer was written"
            )));
        }
        let h = header(game, pits, seeds, &map(&file)?[HEADER_LEN..]);
        file.seek(SeekFrom::Start(0))?;
        file.write_all(&h)?;
        file.sync_all()?;
        fs::rename(parts, path)
    })
}
