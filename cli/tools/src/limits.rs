//! Every size-like option (table sizes, threads, depths, counts) checked in
//! one place against what this machine has, with a one-line error: a value
//! the program accepts is one it can run with, never an abort, a swap storm
//! or a thousand idle threads.
//!
//! | option | at most |
//! |---|---|
//! | a transposition table (`--hash`, `hash=`) | three quarters of the memory available now |
//! | memory a run needs in all (a match's tables, a table build) | the memory available now, less 1 GiB for everything else |
//! | threads (`--threads`, `threads=`, `--speedup`, `--concurrency`) | [`MAX_THREADS`], and 8 a core |
//! | a search depth | the search's deepest iteration, [`MAX_DEPTH`] |
//! | a perft depth | [`MAX_PERFT_DEPTH`] |
//!
//! "Available" is `MemAvailable` of `/proc/meminfo`, lowered to the cgroup's
//! `memory.max` when the program runs under one, and to the address space
//! the process may still map when it runs under a limit of it (`ulimit -v`,
//! `RLIMIT_AS`: its limit less the address space already mapped).

use std::sync::OnceLock;

pub use mancala_engine::search::params::MAX_DEPTH;

/// The most threads any option may ask for, whatever the machine.
pub const MAX_THREADS: u64 = 1024;

/// The deepest perft: far beyond any count that finishes (depth 20 from
/// the Bohnenspiel start is already about 10^15 sequences).
pub const MAX_PERFT_DEPTH: u64 = 64;

/// Memory left for everything but the big tables (bytes).
const RESERVE: u64 = 1 << 30;

/// One MiB.
const MIB: u64 = 1 << 20;

/// What this machine offers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Machine {
    /// Cores (logical CPUs this process may use).
    pub cores: u64,
    /// Bytes of memory available now.
    pub memory: u64,
}

impl Machine {
    /// This machine, read once.
    pub fn this() -> Machine {
        static MACHINE: OnceLock<Machine> = OnceLock::new();
        *MACHINE.get_or_init(|| Machine {
            cores: std::thread::available_parallelism().map_or(1, |n| n.get() as u64),
            memory: available_memory(),
        })
    }

    /// The most threads an option may ask for here.
    pub fn most_threads(&self) -> u64 {
        (8 * self.cores).clamp(8, MAX_THREADS)
    }

    /// The largest transposition table an option may ask for here (MiB).
    pub fn most_hash_mb(&self) -> u64 {
        (self.memory / 4 * 3 / MIB).max(1)
    }

    /// The memory a whole run may need here (bytes).
    pub fn most_memory(&self) -> u64 {
        self.memory.saturating_sub(RESERVE).max(self.memory / 2)
    }
}

/// The memory available now: `MemAvailable`, and the cgroup's limit or
/// the address space left under `RLIMIT_AS` if lower; 4 GiB if none can
/// be read.
fn available_memory() -> u64 {
    let system = system_memory();
    match address_space_left() {
        Some(left) => system.min(left),
        None => system,
    }
}

/// The address space this process may still map under its `RLIMIT_AS`
/// (`None` without a limit): the limit less what is mapped now
/// (`VmSize`).
fn address_space_left() -> Option<u64> {
    let limit = rustix::process::getrlimit(rustix::process::Resource::As).current?;
    let mapped = kb_field("/proc/self/status", "VmSize:").unwrap_or(0);
    Some(limit.saturating_sub(mapped))
}

/// The bytes of the field `name` (`NAME: N kB`) of the file `path`
/// (`/proc/meminfo`, `/proc/self/status`).
fn kb_field(path: &str, name: &str) -> Option<u64> {
    let text = std::fs::read_to_string(path).ok()?;
    text.lines()
        .find_map(|l| l.strip_prefix(name))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse::<u64>().ok())
        .map(|kb| kb * 1024)
}

/// `MemAvailable`, and the cgroup's limit if it is lower; 4 GiB if neither
/// can be read.
fn system_memory() -> u64 {
    let meminfo = kb_field("/proc/meminfo", "MemAvailable:");
    let cgroup = std::fs::read_to_string("/sys/fs/cgroup/memory.max")
        .ok()
        .and_then(|t| t.trim().parse::<u64>().ok());
    match (meminfo, cgroup) {
        (Some(m), Some(c)) => m.min(c),
        (Some(m), None) => m,
        (None, Some(c)) => c,
        (None, None) => 4 << 30,
    }
}

/// An option out of its range.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum LimitError {
    /// Below the least value that makes sense.
    #[error("{option} must be at least {least}, not {value}")]
    TooSmall {
        /// The option, as the user wrote it (`--hash`, `hash=`).
        option: String,
        /// The value given.
        value: u64,
        /// The least allowed.
        least: u64,
    },
    /// Above the most this machine or the program allows.
    #[error("{option} {value}: at most {most} {why}")]
    TooLarge {
        /// The option.
        option: String,
        /// The value given.
        value: u64,
        /// The most allowed.
        most: u64,
        /// Why that is the most.
        why: String,
    },
    /// A run that would need more memory than the machine has.
    #[error("{what} would need {need_mb} MiB of memory; {have_mb} MiB are available")]
    Memory {
        /// What would need it.
        what: String,
        /// What it would need (MiB).
        need_mb: u64,
        /// What there is (MiB).
        have_mb: u64,
    },
}

fn range(
    option: &str,
    value: u64,
    least: u64,
    most: u64,
    why: impl FnOnce() -> String,
) -> Result<u64, LimitError> {
    if value < least {
        return Err(LimitError::TooSmall {
            option: option.to_string(),
            value,
            least,
        });
    }
    if value > most {
        return Err(LimitError::TooLarge {
            option: option.to_string(),
            value,
            most,
            why: why(),
        });
    }
    Ok(value)
}

/// A thread count: 1 to [`Machine::most_threads`].
pub fn threads(option: &str, value: u64) -> Result<usize, LimitError> {
    let m = Machine::this();
    range(option, value, 1, m.most_threads(), || {
        format!("(8 a core on this machine's {} cores)", m.cores)
    })
    .map(|v| v as usize)
}

/// A thread count given as `option` (checked as [`threads`]), else every
/// core of this machine.
pub fn threads_or_cores(option: &str, given: Option<u32>) -> Result<usize, LimitError> {
    match given {
        Some(t) => threads(option, t as u64),
        None => Ok(Machine::this().cores as usize),
    }
}

/// A transposition-table size in MiB: 1 to [`Machine::most_hash_mb`].
pub fn hash_mb(option: &str, value: u64) -> Result<usize, LimitError> {
    let m = Machine::this();
    range(option, value, 1, m.most_hash_mb(), || {
        format!(
            "(three quarters of the {} MiB of memory available)",
            m.memory / MIB
        )
    })
    .map(|v| v as usize)
}

/// A search depth: 1 to [`MAX_DEPTH`].
pub fn depth(option: &str, value: u64) -> Result<u32, LimitError> {
    range(option, value, 1, MAX_DEPTH as u64, || {
        "(the search's deepest iteration)".to_string()
    })
    .map(|v| v as u32)
}

/// A perft depth: 1 to [`MAX_PERFT_DEPTH`].
pub fn perft_depth(option: &str, value: u64) -> Result<u32, LimitError> {
    range(option, value, 1, MAX_PERFT_DEPTH, || {
        "(deeper counts never finish)".to_string()
    })
    .map(|v| v as u32)
}

/// A count in `least..=most` (games, plies, …); `why` says where `most`
/// comes from.
pub fn count(
    option: &str,
    value: u64,
    least: u64,
    most: u64,
    why: &str,
) -> Result<u64, LimitError> {
    range(option, value, least, most, || format!("({why})"))
}

/// Checks that `what` can have `bytes` of memory here.
pub fn memory(what: &str, bytes: u64) -> Result<(), LimitError> {
    let m = Machine::this();
    if bytes > m.most_memory() {
        return Err(LimitError::Memory {
            what: what.to_string(),
            need_mb: bytes.div_ceil(MIB),
            have_mb: m.most_memory() / MIB,
        });
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn this_machine_is_read() {
        let m = Machine::this();
        assert!(m.cores >= 1);
        assert!(m.memory >= 1 << 20, "{m:?}");
        assert!(m.most_threads() >= 8 && m.most_threads() <= MAX_THREADS);
        assert!(m.most_hash_mb() * MIB <= m.memory);
    }

    #[test]
    fn values_outside_the_machine_are_refused_with_the_reason() {
        assert_eq!(threads("--threads", 1), Ok(1));
        assert!(matches!(
            threads("--threads", 0),
            Err(LimitError::TooSmall { .. })
        ));
        let e = threads("threads=", 100_000).unwrap_err();
        assert!(
            e.to_string().starts_with("threads= 100000: at most "),
            "{e}"
        );
        assert_eq!(hash_mb("--hash", 16), Ok(16));
        let e = hash_mb("--hash", 1_000_000_000).unwrap_err();
        assert!(e.to_string().contains("of memory available"), "{e}");
        assert_eq!(depth("--depth", 200), Ok(200));
        assert!(depth("--depth", 201).is_err());
        assert!(perft_depth("--depth", u32::MAX as u64).is_err());
        assert!(memory("a build", 1 << 20).is_ok());
        let e = memory("a build", u64::MAX).unwrap_err();
        assert!(e.to_string().starts_with("a build would need "), "{e}");
        assert!(count("--games", 0, 2, 10, "x").is_err());
    }
}
