//! The transposition table shared by the search and the solver.
//!
//! Lock-free and without `unsafe` of its own: every slot is two [`AtomicU64`] words, the
//! entry's packed `data` and `check = hash ^ data`, where `hash` is a 64-bit
//! signature of the position's 128-bit key. A reader accepts a slot only if
//! `check ^ data` equals the signature, so a slot torn by two threads writing
//! at once (one word from each) reads as a miss, not as a wrong entry (the
//! "xor trick" of Hyatt and Mann, as in Carp).
//!
//! Slots come in buckets of four, one 64-byte cache line each (the buckets
//! are aligned to it, so a probe reads one line). A store replaces, in order
//! of preference: the slot already holding the position, an empty slot, or
//! the slot whose entry is worth least by depth and age (entries of
//! older searches, see [`TranspositionTable::new_search`], go first). A
//! proven entry is never replaced by an unproven one of the same position.
//! Storing the very entry a slot already holds writes nothing, so threads
//! re-proving the same positions (the solver stores at every node) do not
//! take each other's cache lines for nothing.
//!
//! ```
//! use mancala_solve::tt::{Bound, TranspositionTable, TtEntry};
//! use mancala_rules::{Bohnenspiel, Move, Position};
//! let tt = TranspositionTable::new(1);
//! let key = Position::<Bohnenspiel>::start().key();
//! let entry = TtEntry { mv: Some(Move::from_pit(3)), score: 12, depth: 7, bound: Bound::Exact, proven: false };
//! tt.store(key, entry);
//! assert_eq!(tt.probe(key), Some(entry));
//! assert_eq!(entry.proven_margin(), None);
//! // A proven margin goes in as whole seeds and comes back so.
//! let proof = TtEntry::proven(None, -3, Bound::Upper, 12);
//! tt.store(key ^ 1, proof);
//! assert_eq!(tt.probe(key ^ 1).and_then(|e| e.proven_margin()), Some(-3));
//! ```

use std::sync::atomic::{AtomicU64, AtomicU8, Ordering::Relaxed};

use mancala_rules::Move;

/// How a stored score relates to the true value of the position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    /// The score is the value (to the stored depth).
    Exact,
    /// The value is at least the score (the search failed high).
    Lower,
    /// The value is at most the score (the search failed low).
    Upper,
}

impl Bound {
    /// This bound of a child's value, read as a bound of the move's value
    /// from the parent's side: negating swaps lower and upper, and where
    /// the mover moves again (Kalah) the child's value is the parent's.
    pub fn for_parent(self, again: bool) -> Bound {
        match self {
            Bound::Lower if !again => Bound::Upper,
            Bound::Upper if !again => Bound::Lower,
            b => b,
        }
    }
}

/// Units a seed in a stored score: the search's scores are sixteenths of
/// a seed (`search::score`), a proven margin a whole number of seeds
/// ([`TtEntry::proven`]).
pub const SCALE: i32 = 16;

/// One table entry as the search and the solver see it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TtEntry {
    /// The best (or refuting) move found, if any.
    pub mv: Option<Move>,
    /// The score, [`SCALE`] units a seed, from the side to move's view.
    pub score: i16,
    /// The depth (plies) the score was searched to; for the exact
    /// solver's entries, which hold at every depth, the size of the proof
    /// on a log scale (what a full bucket keeps goes by it).
    pub depth: u8,
    /// How the score bounds the value.
    pub bound: Bound,
    /// Whether the score (with its bound) is proven to the end of the game,
    /// by search or by a tablebase: then it holds at every depth.
    pub proven: bool,
}

impl TtEntry {
    /// The entry of a proven final `margin` (whole seeds, from the side to
    /// move's view) bounded by `bound`, found with the move `mv`; `depth`
    /// says what a full bucket should keep (a proof holds at every depth).
    pub fn proven(mv: Option<Move>, margin: i32, bound: Bound, depth: u8) -> Self {
        TtEntry {
            mv,
            score: (margin * SCALE) as i16,
            depth,
            bound,
            proven: true,
        }
    }

    /// The proven margin this entry bounds (with [`bound`](Self::bound)),
    /// in whole seeds: `None` for a search's estimate.
    pub fn proven_margin(&self) -> Option<i32> {
        self.proven.then_some(self.score as i32 / SCALE)
    }
}

/// Slots per bucket: four 16-byte slots fill a 64-byte cache line.
const BUCKET: usize = 4;
/// Bytes one slot takes.
const SLOT_BYTES: usize = 16;
/// Ages wrap around modulo this.
const AGE_CYCLE: u8 = 64;

// Layout of the data word (bit 0 least significant).
const MOVE_SHIFT: u32 = 0; // 4 bits, 15 = no move
const NO_MOVE: u64 = 15;
const SCORE_SHIFT: u32 = 4; // 16 bits
const DEPTH_SHIFT: u32 = 20; // 8 bits
const BOUND_SHIFT: u32 = 28; // 2 bits
const PROVEN_BIT: u64 = 1 << 30;
const AGE_SHIFT: u32 = 32; // 6 bits
const OCCUPIED_BIT: u64 = 1 << 63;

/// One bucket: `(check, data)` for each of its slots, aligned so that a
/// bucket is exactly one cache line (a probe touches one line, not two).
#[repr(C, align(64))]
struct Bucket([AtomicU64; 2 * BUCKET]);

const _: () = assert!(std::mem::size_of::<Bucket>() == BUCKET * SLOT_BYTES);

/// Words a bucket holds.
const WORDS: usize = 2 * BUCKET;

impl Bucket {
    fn empty() -> Self {
        Bucket(std::array::from_fn(|_| AtomicU64::new(0)))
    }
}

/// A lock-free transposition table, safe to share between threads (`&self`
/// everywhere).
pub struct TranspositionTable {
    table: Vec<Bucket>,
    age: AtomicU8,
}

impl std::fmt::Debug for TranspositionTable {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("TranspositionTable")
            .field("buckets", &self.table.len())
            .field("age", &self.age.load(Relaxed))
            .finish()
    }
}

/// A 64-bit mix (the splitmix64 finaliser).
#[inline]
fn mix(mut x: u64) -> u64 {
    x ^= x >> 30;
    x = x.wrapping_mul(0xbf58_476d_1ce4_e5b9);
    x ^= x >> 27;
    x = x.wrapping_mul(0x94d0_49bb_1331_11eb);
    x ^ (x >> 31)
}

/// The 64-bit signature of a key (stored, xor-ed with the data) and the
/// index hash (picks the bucket), computed independently so that a false hit
/// needs both to collide.
#[inline]
fn hashes(key: u128) -> (u64, u64) {
    let lo = key as u64;
    let hi = (key >> 64) as u64;
    let signature = mix(lo ^ mix(hi ^ 0x9e37_79b9_7f4a_7c15));
    let index = mix(hi ^ mix(lo.wrapping_add(0x2545_f491_4f6c_dd1d)));
    (signature, index)
}

fn bound_bits(b: Bound) -> u64 {
    match b {
        Bound::Exact => 0,
        Bound::Lower => 1,
        Bound::Upper => 2,
    }
}

fn pack(e: &TtEntry, age: u8) -> u64 {
    let mv = e.mv.map_or(NO_MOVE, |m| m.pit() as u64 & 0xf);
    OCCUPIED_BIT
        | mv << MOVE_SHIFT
        | (e.score as u16 as u64) << SCORE_SHIFT
        | (e.depth as u64) << DEPTH_SHIFT
        | bound_bits(e.bound) << BOUND_SHIFT
        | if e.proven { PROVEN_BIT } else { 0 }
        | ((age % AGE_CYCLE) as u64) << AGE_SHIFT
}

fn unpack(d: u64) -> TtEntry {
    let mv = (d >> MOVE_SHIFT) & 0xf;
    TtEntry {
        mv: (mv != NO_MOVE).then(|| Move::from_pit(mv as u8)),
        score: (d >> SCORE_SHIFT) as u16 as i16,
        depth: (d >> DEPTH_SHIFT) as u8,
        bound: match (d >> BOUND_SHIFT) & 3 {
            0 => Bound::Exact,
            1 => Bound::Lower,
            _ => Bound::Upper,
        },
        proven: d & PROVEN_BIT != 0,
    }
}

/// The checksum of a saved table: FNV-1a over its words.
const CHECKSUM_SEED: u64 = 0xcbf2_9ce4_8422_2325;

#[inline]
fn checksum_step(sum: u64, word: u64) -> u64 {
    (sum ^ word).wrapping_mul(0x0000_0100_0000_01b3)
}

#[inline]
fn data_age(d: u64) -> u8 {
    ((d >> AGE_SHIFT) & (AGE_CYCLE as u64 - 1)) as u8
}

/// A transposition table that could not be allocated.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("cannot allocate a {megabytes} MiB transposition table")]
pub struct TableTooLarge {
    /// The size asked for.
    pub megabytes: usize,
}

impl TranspositionTable {
    /// A table of (about) `megabytes` MiB, at least one bucket.
    ///
    /// # Panics
    /// If the memory cannot be allocated; [`try_new`](Self::try_new) says
    /// so instead.
    pub fn new(megabytes: usize) -> Self {
        match Self::try_new(megabytes) {
            Ok(tt) => tt,
            Err(e) => panic!("{e}"),
        }
    }

    /// [`new`](Self::new), or an error if the memory cannot be had (the
    /// allocation is tried, not assumed).
    pub fn try_new(megabytes: usize) -> Result<Self, TableTooLarge> {
        let bytes = megabytes.saturating_mul(1 << 20);
        let buckets = (bytes / (BUCKET * SLOT_BYTES)).max(1);
        let tt = Self::try_with_buckets(buckets).map_err(|_| TableTooLarge { megabytes })?;
        // The allocation comes zeroed but not yet mapped: write it once now,
        // on one thread, rather than page-faulting it in during the search,
        // where the faults of two or more threads contend in the kernel
        // (measured: a 2-thread depth-13 search spent 80 % of its time so).
        tt.clear();
        Ok(tt)
    }

    /// A table of exactly `buckets` buckets (as a checkpoint names them).
    pub fn try_with_buckets(buckets: usize) -> Result<Self, TableTooLarge> {
        let megabytes = buckets.saturating_mul(BUCKET * SLOT_BYTES) >> 20;
        let len = buckets.max(1);
        // A size past the address space is refused here too.
        let mut table = Vec::new();
        table
            .try_reserve_exact(len)
            .map_err(|_| TableTooLarge { megabytes })?;
        // Before the first write, which faults the pages in: probes land
        // anywhere in the table, and with 4 KiB pages nearly every one
        // missed the TLB too (docs/tablebases.md, "The solver").
        crate::memory::advise_huge_pages(
            table.as_ptr() as *const u8,
            len * std::mem::size_of::<Bucket>(),
        );
        table.extend(std::iter::repeat_with(Bucket::empty).take(len));
        Ok(TranspositionTable {
            table,
            age: AtomicU8::new(0),
        })
    }

    /// Buckets in the table (four slots each).
    pub fn buckets(&self) -> usize {
        self.table.len()
    }

    /// Every word of the table, bucket by bucket.
    fn words(&self) -> impl Iterator<Item = &AtomicU64> {
        self.table.iter().flat_map(|b| b.0.iter())
    }

    /// The current search's age (0 to 63).
    pub fn age(&self) -> u8 {
        self.age.load(Relaxed) % AGE_CYCLE
    }

    /// Writes the table's contents (every word, little-endian) to `out`
    /// and returns their [`checksum`](Self::load). Read while no thread
    /// writes to the table, it is a snapshot.
    pub fn save(&self, out: &mut impl std::io::Write) -> std::io::Result<u64> {
        let mut sum = CHECKSUM_SEED;
        let mut buf = Vec::with_capacity(1 << 20);
        for chunk in self.table.chunks((1 << 17) / WORDS) {
            buf.clear();
            for w in chunk.iter().flat_map(|b| b.0.iter()) {
                let v = w.load(Relaxed);
                sum = checksum_step(sum, v);
                buf.extend_from_slice(&v.to_le_bytes());
            }
            out.write_all(&buf)?;
        }
        Ok(sum)
    }

    /// A table of `buckets` buckets and age `age` read from what
    /// [`save`](Self::save) wrote; returns it with the checksum of what
    /// was read, for the caller to compare with the one saved. A short
    /// input is an error.
    pub fn load(
        input: &mut impl std::io::Read,
        buckets: usize,
        age: u8,
    ) -> std::io::Result<(Self, u64)> {
        let tt = Self::try_with_buckets(buckets)
            .map_err(|e| std::io::Error::new(std::io::ErrorKind::OutOfMemory, e))?;
        let mut sum = CHECKSUM_SEED;
        let mut buf = vec![0u8; 1 << 20];
        for chunk in tt.table.chunks((1 << 17) / WORDS) {
            let bytes = &mut buf[..chunk.len() * WORDS * 8];
            input.read_exact(bytes)?;
            let words = chunk.iter().flat_map(|b| b.0.iter());
            for (w, b) in words.zip(bytes.chunks_exact(8)) {
                let v = u64::from_le_bytes(b.try_into().expect("8 bytes"));
                sum = checksum_step(sum, v);
                w.store(v, Relaxed);
            }
        }
        tt.age.store(age % AGE_CYCLE, Relaxed);
        Ok((tt, sum))
    }

    /// Slots in the table.
    pub fn capacity(&self) -> usize {
        self.table.len() * BUCKET
    }

    #[inline]
    fn bucket(&self, index_hash: u64) -> &Bucket {
        // Lemire's multiply-shift maps the hash onto 0..buckets evenly.
        &self.table[(((index_hash as u128) * (self.table.len() as u128)) >> 64) as usize]
    }

    /// Brings the bucket `key` falls in towards the cache, for a
    /// [`probe`](Self::probe) or [`store`](Self::store) soon after: the
    /// misses of several keys prefetched in a row overlap.
    #[inline]
    pub fn prefetch(&self, key: u128) {
        crate::memory::prefetch(self.bucket(hashes(key).1));
    }

    /// The entry stored for `key` (a [`Position::key`](mancala_rules::Position::key)),
    /// if any.
    #[inline]
    pub fn probe(&self, key: u128) -> Option<TtEntry> {
        let (sig, idx) = hashes(key);
        let bucket = &self.bucket(idx).0;
        for s in 0..BUCKET {
            let check = bucket[2 * s].load(Relaxed);
            let data = bucket[2 * s + 1].load(Relaxed);
            if data & OCCUPIED_BIT != 0 && check ^ data == sig {
                return Some(unpack(data));
            }
        }
        None
    }

    /// Empties the bucket `key` falls in (every entry there, of any
    /// position): with the buckets of every key stored, a table is as new.
    pub fn clear_bucket_of(&self, key: u128) {
        for w in &self.bucket(hashes(key).1).0 {
            w.store(0, Relaxed);
        }
    }

    /// Whether no slot holds an entry and the age is 0: as a new table.
    pub fn is_new(&self) -> bool {
        self.age.load(Relaxed) == 0 && self.words().all(|w| w.load(Relaxed) == 0)
    }

    /// Stores an entry for `key`. See the module docs for the replacement
    /// policy. A store without a move keeps the move already stored for the
    /// same position.
    pub fn store(&self, key: u128, entry: TtEntry) {
        let (sig, idx) = hashes(key);
        let bucket = self.bucket(idx);
        let age = self.age.load(Relaxed) % AGE_CYCLE;
        let mut victim = 0;
        let mut victim_worth = i32::MAX;
        for s in 0..BUCKET {
            let check = bucket.0[2 * s].load(Relaxed);
            let data = bucket.0[2 * s + 1].load(Relaxed);
            if data & OCCUPIED_BIT == 0 {
                if victim_worth > i32::MIN {
                    victim = s;
                    victim_worth = i32::MIN;
                }
                continue;
            }
            if check ^ data == sig {
                let old = unpack(data);
                if old.proven && !entry.proven {
                    // A proven value holds at every depth; keep it, but let
                    // it live on into this search.
                    if data_age(data) != age {
                        Self::write(bucket, s, sig, pack(&old, age));
                    }
                    return;
                }
                let mut new = entry;
                if new.mv.is_none() {
                    new.mv = old.mv;
                }
                // The same entry again (a re-search storing what it found
                // before) is not written: a write takes the cache line from
                // every other thread reading it.
                let packed = pack(&new, age);
                if packed != data {
                    Self::write(bucket, s, sig, packed);
                }
                return;
            }
            let stale = (age.wrapping_sub(data_age(data)) % AGE_CYCLE) as i32;
            let old = unpack(data);
            let worth = old.depth as i32 - 8 * stale
                + if old.proven { 64 } else { 0 }
                + if old.bound == Bound::Exact { 2 } else { 0 };
            if worth < victim_worth {
                victim = s;
                victim_worth = worth;
            }
        }
        Self::write(bucket, victim, sig, pack(&entry, age));
    }

    /// Writes slot `s` of `bucket`.
    #[inline]
    fn write(bucket: &Bucket, s: usize, sig: u64, data: u64) {
        bucket.0[2 * s].store(sig ^ data, Relaxed);
        bucket.0[2 * s + 1].store(data, Relaxed);
    }

    /// Starts a new search: entries stored before become older, so they are
    /// replaced first.
    pub fn new_search(&self) {
        let next = (self.age.load(Relaxed) + 1) % AGE_CYCLE;
        self.age.store(next, Relaxed);
    }

    /// Empties the table.
    pub fn clear(&self) {
        for w in self.words() {
            w.store(0, Relaxed);
        }
        self.age.store(0, Relaxed);
    }

    /// How full the table is, per mille, counting the entries of the current
    /// search among the first (up to) 1000 slots.
    pub fn hashfull(&self) -> u32 {
        let age = self.age.load(Relaxed) % AGE_CYCLE;
        let slots = self.capacity().min(1000);
        let used = (0..slots)
            .filter(|&s| {
                let data = self.table[s / BUCKET].0[2 * (s % BUCKET) + 1].load(Relaxed);
                data & OCCUPIED_BIT != 0 && data_age(data) == age
            })
            .count();
        (used * 1000 / slots) as u32
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(score: i16, depth: u8) -> TtEntry {
        TtEntry {
            mv: Some(Move::from_pit(5)),
            score,
            depth,
            bound: Bound::Lower,
            proven: false,
        }
    }

    #[test]
    fn a_saved_table_loads_back_the_same() {
        let tt = TranspositionTable::new(1);
        for k in 0..5000u128 {
            tt.store(
                k * 0x9e37_79b9_7f4a_7c15,
                entry((k % 300) as i16, (k % 40) as u8),
            );
        }
        tt.new_search();
        let mut bytes = Vec::new();
        let sum = tt.save(&mut bytes).unwrap();
        assert_eq!(bytes.len(), tt.buckets() * BUCKET * SLOT_BYTES);
        let (back, read) =
            TranspositionTable::load(&mut bytes.as_slice(), tt.buckets(), tt.age()).unwrap();
        assert_eq!(read, sum);
        assert_eq!(back.age(), 1);
        for k in 0..5000u128 {
            let key = k * 0x9e37_79b9_7f4a_7c15;
            assert_eq!(back.probe(key), tt.probe(key));
        }
        // A changed byte changes the checksum; a short input is an error.
        bytes[100] ^= 1;
        let (_, changed) =
            TranspositionTable::load(&mut bytes.as_slice(), tt.buckets(), 0).unwrap();
        assert_ne!(changed, sum);
        assert!(TranspositionTable::load(&mut &bytes[..bytes.len() - 1], tt.buckets(), 0).is_err());
    }

    #[test]
    fn pack_round_trips_every_field() {
        for mv in [
            None,
            Some(Move::PASS),
            Some(Move::from_pit(1)),
            Some(Move::from_pit(14)),
        ] {
            for score in [i16::MIN, -1568, -1, 0, 1, 1568, i16::MAX] {
                for bound in [Bound::Exact, Bound::Lower, Bound::Upper] {
                    for proven in [false, true] {
                        let e = TtEntry {
                            mv,
                            score,
                            depth: 200,
                            bound,
                            proven,
                        };
                        assert_eq!(unpack(pack(&e, 63)), e);
                    }
                }
            }
        }
    }

    #[test]
    fn probe_finds_what_was_stored_and_nothing_else() {
        let tt = TranspositionTable::new(1);
        let e = entry(-37, 9);
        tt.store(12345, e);
        assert_eq!(tt.probe(12345), Some(e));
        assert_eq!(tt.probe(12346), None);
        assert_eq!(tt.probe(12345 | 1 << 127), None);
        tt.clear();
        assert_eq!(tt.probe(12345), None);
    }

    #[test]
    fn same_position_is_overwritten_and_keeps_its_move() {
        let tt = TranspositionTable::new(1);
        tt.store(7, entry(10, 5));
        let no_move = TtEntry {
            mv: None,
            ..entry(20, 3)
        };
        tt.store(7, no_move);
        let got = tt.probe(7).unwrap();
        assert_eq!(got.score, 20);
        assert_eq!(got.depth, 3);
        assert_eq!(got.mv, Some(Move::from_pit(5)));
    }

    #[test]
    fn proven_entries_survive_unproven_stores() {
        let tt = TranspositionTable::new(1);
        let proven = TtEntry {
            proven: true,
            bound: Bound::Exact,
            ..entry(48, 2)
        };
        tt.store(99, proven);
        tt.store(99, entry(3, 30));
        assert_eq!(tt.probe(99), Some(proven));
        let better = TtEntry {
            score: 50,
            ..proven
        };
        tt.store(99, better);
        assert_eq!(tt.probe(99), Some(better));
    }

    #[test]
    fn a_one_bucket_table_replaces_the_shallowest_then_the_oldest() {
        let tt = TranspositionTable::new(0);
        assert_eq!(tt.capacity(), BUCKET);
        for k in 0..4u128 {
            tt.store(k, entry(k as i16, 10 + k as u8));
        }
        // Full: the shallowest (key 0, depth 10) goes.
        tt.store(100, entry(0, 12));
        assert_eq!(tt.probe(0), None);
        assert!(tt.probe(100).is_some());
        assert!((1..4).all(|k| tt.probe(k).is_some()));
        // After a new search even a deep old entry yields to a shallow new one.
        tt.new_search();
        tt.store(200, entry(0, 1));
        assert!(tt.probe(200).is_some());
        assert_eq!((1..4).filter(|&k| tt.probe(k).is_some()).count(), 2);
    }

    #[test]
    fn a_torn_slot_reads_as_a_miss() {
        let tt = TranspositionTable::new(0);
        tt.store(1, entry(1, 1));
        let s = (0..BUCKET)
            .find(|&s| tt.table[0].0[2 * s + 1].load(Relaxed) != 0)
            .unwrap();
        // Another writer's data lands without its check word.
        tt.table[0].0[2 * s + 1].store(pack(&entry(-500, 60), 0), Relaxed);
        assert_eq!(tt.probe(1), None);
    }

    #[test]
    fn hashfull_counts_current_entries() {
        let tt = TranspositionTable::new(0);
        assert_eq!(tt.hashfull(), 0);
        tt.store(1, entry(1, 1));
        tt.store(2, entry(1, 1));
        assert_eq!(tt.hashfull(), 500);
        tt.new_search();
        assert_eq!(tt.hashfull(), 0);
    }

    #[test]
    fn concurrent_writers_never_produce_a_wrong_entry() {
        let tt = TranspositionTable::new(0);
        let hits: usize = std::thread::scope(|s| {
            let threads: Vec<_> = (0..4u8)
                .map(|t| {
                    let tt = &tt;
                    s.spawn(move || {
                        let mut hits = 0;
                        for i in 0..20_000u32 {
                            let key = (i % 16) as u128;
                            // Each key always gets the score equal to the key.
                            tt.store(key, entry(key as i16, t));
                            if let Some(e) = tt.probe(((i + 7) % 16) as u128) {
                                assert_eq!(e.score as u32, (i + 7) % 16);
                                hits += 1;
                            }
                        }
                        hits
                    })
                })
                .collect();
            threads.into_iter().map(|h| h.join().unwrap()).sum()
        });
        // Sixteen keys in a table of four slots: many probes miss, but a
        // key stored a few steps before is often still there.
        assert!(hits >= 1_000, "only {hits} of 80,000 probes hit");
    }
}
