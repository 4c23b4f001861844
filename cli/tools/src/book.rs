//! The books of proven moves of the solved games ([`mancala_engine::book`])
//! as `mancala book` works them: a book built by the walk that plays the
//! engine's side with proofs (one thread, or one a side), its leaves'
//! cache beside it; a book checked; a book tested by games against other
//! players, counting every claim of a proven score that the game belied.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use mancala_engine::book::{
    self, Book, BuildEnd, BuildProgress, CheckEnd, PlayTables, Walk, RUNTIME,
};
use mancala_engine::files::{read_text, write_file};
use mancala_engine::solve::{Progress, Proof, Solver};
use mancala_engine::tablebase::NoTables;
use mancala_engine::{with_table_rules, GameId, GameRecord, Move, Position, Rules, Side};

use crate::bad::{bad, OrBad};
use crate::interrupt::{self, Interrupted};
use crate::matchplay::game::{play_unit, End, Unit, PLY_CAP};
use crate::matchplay::player::{Fault, Player, Reply, Request};
use crate::text;

/// A game that has a book.
pub fn book_game(game: GameId) -> anyhow::Result<GameId> {
    if !book::SOLVED.contains(&game) {
        let with: Vec<&str> = book::SOLVED.iter().map(|g| g.name()).collect();
        return Err(bad(format!(
            "{game} has no book: books are for the games solved from their start ({})",
            with.join(", ")
        )));
    }
    Ok(game)
}

/// `--threads` of a build or check: one thread, or one for each side.
pub fn side_threads(threads: u32) -> anyhow::Result<usize> {
    if !(1..=2).contains(&threads) {
        return Err(bad(format!(
            "--threads {threads}: 1 or 2 (one for each side)"
        )));
    }
    Ok(threads as usize)
}

/// The book in `path`, or an empty one if there is no such file.
pub fn read_book(path: &Path, game: GameId) -> anyhow::Result<Book> {
    if !path.exists() {
        return Ok(Book::new());
    }
    let text = read_text(path).map_err(|e| bad(format!("{}: {e}", path.display())))?;
    Book::parse(&text, game).map_err(|e| bad(format!("{}: {e}", path.display())))
}

/// The book `book build` goes on with: the one in `out` (empty if there
/// is none), to be played with the tables to `tables` seeds, which must be
/// what it was built with.
pub fn book_to_build(out: &Path, game: GameId, tables: Option<u32>) -> anyhow::Result<Book> {
    let mut existing = read_book(out, game)?;
    if let Some(k) = tables {
        if !book::valid_table_seeds(k) {
            return Err(bad(format!(
                "--tables {k}: an even number of seeds from 2 to {}",
                book::MAX_BOOK_TABLES
            )));
        }
    }
    if !existing.is_empty() && existing.tables() != tables {
        let said = |t: Option<u32>| {
            t.map_or("without --tables".to_string(), |k| {
                format!("with --tables {k}")
            })
        };
        return Err(bad(format!(
            "{}: the book was built {}: go on the same way, or start a new file",
            out.display(),
            said(existing.tables()),
        )));
    }
    existing.set_tables(tables);
    if tables.is_some() && !with_table_rules!(game, R => true, _ => false) {
        return Err(bad(format!("--tables: {game} has no endgame tables")));
    }
    Ok(existing)
}

/// A player that remembers, reply by reply, whether it claimed a proven
/// score and whether the move came from a proof.
struct Recording<'p> {
    inner: &'p mut dyn Player,
    /// `(exact, proven)` of each reply.
    claims: Vec<(bool, bool)>,
}

impl Player for Recording<'_> {
    fn new_game(&mut self, seed: u64) -> Result<(), Fault> {
        self.claims.clear();
        self.inner.new_game(seed)
    }

    fn choose(&mut self, request: &Request) -> Result<Reply, Fault> {
        let reply = self.inner.choose(request)?;
        self.claims.push((reply.exact, reply.proven));
        Ok(reply)
    }

    fn reset(&mut self) {
        self.inner.reset();
    }
}

/// What `book test` counted.
#[derive(Default)]
struct Tally {
    moves: u64,
    /// Moves that kept the position's own value.
    kept: u64,
    /// Moves that kept at least the start's value.
    held: u64,
    /// Moves played with an exact proven score.
    proven: u64,
    /// Moves from the search, not from the book or the runtime solver.
    searched: u64,
    games_at_value: u32,
    /// Games in which a position came again (where the cycle rule could
    /// count: docs/solved.md, "Perfect play").
    with_repetition: u32,
}

impl Tally {
    /// Prints the counts over `games` games; an error if an engine move
    /// fell below the start's value.
    fn report(&self, games: u32) -> anyhow::Result<()> {
        let share = |a: u64| 100.0 * a as f64 / self.moves.max(1) as f64;
        println!(
            "engine moves {}: kept at least the start's value {} ({:.1} %); kept the position's own value {} ({:.1} %); played with an exact proven score {} ({:.1} %); from the search, not the book or the runtime solver, {}",
            self.moves,
            self.held,
            share(self.held),
            self.kept,
            share(self.kept),
            self.proven,
            share(self.proven),
            self.searched,
        );
        println!(
            "games where the engine scored at least its proven value: {}/{games}; games in which a position came again: {}",
            self.games_at_value, self.with_repetition
        );
        if self.held < self.moves {
            anyhow::bail!(
                "{} engine moves fell below the start's value",
                self.moves - self.held
            );
        }
        Ok(())
    }
}

/// `book test`: `games` games from the start of `players[0]` (the engine
/// with the book, `engine_name`) against `players[1]` (`opponent_name`),
/// colours alternating, `seed` for the players' chances; every engine move
/// is checked against proofs (a solver of `hash_mb` MiB) and a summary
/// printed. An error if a move fell below the start's value.
pub fn test<R: Rules>(
    players: &mut [Box<dyn Player>; 2],
    games: u32,
    seed: u64,
    hash_mb: usize,
    engine_name: &str,
    opponent_name: &str,
) -> anyhow::Result<()> {
    let mut checker = Solver::try_new(&NoTables, hash_mb).or_bad()?;
    let start = Position::<R>::start();
    let stop = |_: &Progress| interrupt::requested();
    let Proof::Done(root) = checker.prove(&start).stop(&stop).solution() else {
        return Err(Interrupted.into());
    };
    println!(
        "{}: from the start, {}, proven; the engine ({engine_name}) against {opponent_name}",
        R::ID,
        text::outcome(Side::South, root.margin as i64)
    );
    let mut tally = Tally::default();
    for g in 0..games {
        let engine = if g % 2 == 0 { Side::South } else { Side::North };
        let [ours, theirs] = &mut *players;
        let mut recorded = Recording {
            inner: ours.as_mut(),
            claims: Vec::new(),
        };
        let mut seats: [&mut dyn Player; 2] = if engine == Side::South {
            [&mut recorded, theirs.as_mut()]
        } else {
            [theirs.as_mut(), &mut recorded]
        };
        let played = play_unit(
            start.into(),
            Unit::Game,
            &mut seats,
            seed.wrapping_add(g as u64),
            PLY_CAP,
        );
        if let End::Forfeit { seat, fault } = &played.end {
            anyhow::bail!("game {}: {} forfeited: {fault}", g + 1, seat.title());
        }
        let tested = TestedGame {
            number: g + 1,
            engine,
            due: if engine == Side::South {
                root.margin
            } else {
                -root.margin
            },
            round: &played.rounds[0],
            claims: &recorded.claims,
        };
        tested.check(&mut checker, &mut tally)?;
    }
    tally.report(games)
}

/// A game of `book test`, whose engine moves are checked.
struct TestedGame<'a> {
    /// The game's number, from 1.
    number: u32,
    /// The side the engine played.
    engine: Side,
    /// The start's value from the engine's side.
    due: i32,
    round: &'a crate::matchplay::game::Round,
    /// `(exact, proven)` of each engine reply.
    claims: &'a [(bool, bool)],
}

impl TestedGame<'_> {
    /// Checks every engine move against proofs of the position it was
    /// played in and of the one it led to (the game's earlier positions
    /// count for the cycle rule), counting in `tally`; prints the game's
    /// line and every move that was not best.
    fn check<R: Rules>(
        &self,
        checker: &mut Solver<'_, R, NoTables>,
        tally: &mut Tally,
    ) -> anyhow::Result<()> {
        let (engine, due) = (self.engine, self.due);
        let stop = |_: &Progress| interrupt::requested();
        let mut game = GameRecord::new(Position::<R>::start());
        let mut claims = self.claims.iter();
        let (mut engine_moves, mut kept, mut held, mut searched) = (0u32, 0u32, 0u32, 0u32);
        for (ply, &pit) in self.round.moves.iter().enumerate() {
            let (mv, pos) = (Move::from_pit(pit), game.current());
            if pos.side_to_move() == engine {
                let (exact, from_proof) = *claims.next().expect("a reply for every engine move");
                searched += !from_proof as u32;
                tally.searched += !from_proof as u64;
                let history = &game.positions()[..ply];
                let Proof::Done(proof) =
                    checker.prove(&pos).history(history).stop(&stop).solution()
                else {
                    return Err(Interrupted.into());
                };
                engine_moves += 1;
                tally.moves += 1;
                tally.proven += exact as u64;
                let value = if proof.best.contains(&mv) {
                    kept += 1;
                    tally.kept += 1;
                    proof.margin
                } else {
                    let Some(value) = book::move_value(checker, history, &pos, mv, &stop) else {
                        return Err(Interrupted.into());
                    };
                    let before: Vec<String> = self.round.moves[..ply]
                        .iter()
                        .map(|m| m.to_string())
                        .collect();
                    println!(
                        "  game {}: {pos} moves={}: {} played {mv} ({}) for {}, best {:?} for {}",
                        self.number,
                        before.join(","),
                        engine.title(),
                        match (from_proof, exact) {
                            (false, _) => "from the search",
                            (true, true) => "proven exact",
                            (true, false) => "proven to keep the start's value",
                        },
                        text::outcome(engine, value as i64),
                        proof.best.iter().map(|m| m.pit()).collect::<Vec<_>>(),
                        text::outcome(engine, proof.margin as i64),
                    );
                    value
                };
                if value >= due {
                    held += 1;
                    tally.held += 1;
                }
            }
            game.play(mv).expect("the game was played by the rules");
        }
        let totals = self
            .round
            .result
            .expect("a game that was not forfeited has a result");
        let own = engine.index();
        let result = totals[own] as i32 - totals[1 - own] as i32;
        tally.games_at_value += (result >= due) as u32;
        let mut seen = std::collections::HashSet::new();
        let repeated = game.positions().iter().any(|p| !seen.insert(p.key()));
        tally.with_repetition += repeated as u32;
        println!(
            "game {:>3}: the engine is {}: {} (the proven value: {}); of its {engine_moves} moves, {held} kept the start's value, {kept} the position's; {searched} from the search",
            self.number,
            engine.title(),
            text::outcome(engine, result as i64),
            text::outcome(engine, due as i64)
        );
        Ok(())
    }
}

/// The cache of leaves beside a book file.
fn leaves_path(out: &Path) -> PathBuf {
    let mut name = out.as_os_str().to_owned();
    name.push(".leaves");
    PathBuf::from(name)
}

/// The runtime solver's answers cached in `path` ([`book::read_leaves`]);
/// `None` if there is no cache or it was made for another build.
fn read_leaves(path: &Path, header: &str) -> anyhow::Result<Option<book::Leaves>> {
    if !path.exists() {
        return Ok(None);
    }
    let text = read_text(path).map_err(|e| bad(format!("{}: {e}", path.display())))?;
    Ok(book::read_leaves(&text, header))
}

/// What the build's threads share: the whole book (written out every 30
/// seconds), the leaves cache and the first error.
struct Shared<'a> {
    book: Book,
    /// The book's file.
    out: &'a Path,
    /// The runtime solver's slowest answer.
    slowest: Duration,
    written: Instant,
    cache: std::fs::File,
    cache_path: PathBuf,
    failed: Option<anyhow::Error>,
}

impl Shared<'_> {
    /// Writes the book to its file (atomically).
    fn save(&self) -> anyhow::Result<()> {
        save_book(&self.book, self.out)
    }

    /// Adds an entry a side's build proved; writes the book out if it
    /// was last written 30 seconds ago.
    fn add_entry(&mut self, entry: &book::Entry) {
        self.book.insert(entry.clone());
        if self.written.elapsed() >= Duration::from_secs(30) {
            if let Err(e) = self.save() {
                self.failed.get_or_insert(e);
            }
            self.written = Instant::now();
        }
    }

    /// Adds an answer of the runtime solver to the leaves cache.
    fn add_leaf(&mut self, key: u128, mv: mancala_engine::Move, progress: &BuildProgress) {
        use std::io::Write as _;
        self.slowest = self.slowest.max(progress.slowest);
        if let Err(e) = writeln!(self.cache, "{}", book::leaf_line(key, mv)) {
            let e = anyhow::anyhow!("cannot write {}: {e}", self.cache_path.display());
            self.failed.get_or_insert(e);
        }
    }
}

/// Writes `book` to `out` (atomically).
fn save_book(book: &Book, out: &Path) -> anyhow::Result<()> {
    write_file(out, book.to_text())
        .map_err(|e| anyhow::anyhow!("cannot write {}: {e}", out.display()))
}

/// A side's progress, as a line: `total` entries in the book in all.
fn progress_line(p: &BuildProgress, total: usize) -> String {
    format!(
        "{} entries ({} new), {} positions looked at, {} left to the runtime solver, {} to the tables, {} positions proven; {total} entries in all",
        p.entries, p.proven, p.visited, p.leaves, p.in_tables, p.proof_nodes,
    )
}

/// The build's end from each side's: whether the book is complete (not
/// if a side was stopped), or the error of the first side that failed or
/// met a contradiction.
fn build_ends(ends: Vec<anyhow::Result<BuildEnd>>, out: &Path) -> anyhow::Result<bool> {
    let mut complete = true;
    for end in ends {
        match end? {
            BuildEnd::Complete => {}
            BuildEnd::Stopped => complete = false,
            BuildEnd::Contradiction(pos) => {
                return Err(bad(format!(
                    "{}: no move keeps the start's value at {pos}: the book does not belong to these rules",
                    out.display()
                )))
            }
        }
    }
    Ok(complete)
}

/// What each side's build of [`build`] works with.
struct SideBuild<'a, 's, R: Rules> {
    shared: &'a std::sync::Mutex<Shared<'s>>,
    tables: &'a dyn mancala_engine::tablebase::BoardValues<R>,
    play_tables: &'a PlayTables,
    leaves: &'a book::Leaves,
    /// The walk, but for its side.
    walk: Walk,
    /// The side's solver's table, MiB.
    hash_mb: usize,
    started: Instant,
    /// On a terminal a spinner a side; otherwise a line every 10 s.
    bars: indicatif::MultiProgress,
}

impl<'s, R: Rules> SideBuild<'_, 's, R> {
    fn lock(&self) -> std::sync::MutexGuard<'_, Shared<'s>> {
        self.shared.lock().expect("no thread panics holding it")
    }

    /// Builds the book of the engine playing `side`.
    fn run(&self, side: Side) -> anyhow::Result<BuildEnd> {
        let bar = self.bars.add(crate::progress::spinner(&format!(
            "book, the engine {}",
            side.title()
        )));
        let every = match bar.is_hidden() {
            true => Duration::from_secs(10),
            false => Duration::from_millis(100),
        };
        // This side's entries: the positions with its side to move.
        let mut half = self.lock().book.side(side);
        let mut solver = Solver::try_new(self.tables, self.hash_mb).or_bad()?;
        let mut leaves = self.leaves.clone();
        let mut last_line = Instant::now();
        let on_entry = |entry: &book::Entry, p: &BuildProgress| {
            let mut s = self.lock();
            s.add_entry(entry);
            if last_line.elapsed() >= every {
                let line = progress_line(p, s.book.len());
                if bar.is_hidden() {
                    let (t, side) = (self.started.elapsed().as_secs_f64(), side.title());
                    eprintln!("book: {t:.0} s, {} (the engine {side}): {line}", R::ID);
                } else {
                    bar.set_message(line);
                }
                last_line = Instant::now();
            }
        };
        let on_leaf = |key, mv, p: &BuildProgress| self.lock().add_leaf(key, mv, p);
        let stop =
            || interrupt::requested() || self.shared.lock().is_ok_and(|s| s.failed.is_some());
        let walk = Walk {
            engine: side,
            ..self.walk
        };
        let end = book::build(
            &mut half,
            &mut leaves,
            &mut solver,
            self.play_tables,
            walk,
            on_entry,
            on_leaf,
            &stop,
        );
        bar.finish_and_clear();
        let said = match &end {
            BuildEnd::Complete => "complete",
            BuildEnd::Stopped => "stopped",
            BuildEnd::Contradiction(_) => "contradiction",
        };
        let (t, title) = (self.started.elapsed().as_secs_f64(), side.title());
        self.bars.suspend(|| {
            eprintln!(
                "book: {} (the engine {title}): {said} after {t:.1} s",
                R::ID
            )
        });
        Ok(end)
    }
}

/// `book build`: goes on building `book` (as [`book_to_build`] gave it)
/// into `out`, the proofs' table `hash_mb` MiB, on `threads` threads (one
/// a side); `strict` keeps every position's own value. The book and its
/// leaves' cache are saved as it goes, and at the end.
pub fn build<R: Rules>(
    mut book: Book,
    out: &Path,
    hash_mb: usize,
    threads: usize,
    strict: bool,
) -> anyhow::Result<()> {
    use std::sync::Mutex;
    let table_seeds = book.tables();
    let play_tables = PlayTables::for_book::<R>(&book);
    let tables = &play_tables.below::<R>();
    let cache_path = leaves_path(out);
    let (cache, leaves) = open_leaves(&cache_path, strict, table_seeds)?;
    let started = Instant::now();
    let already = book.len();
    let strictly = if strict { ", strict" } else { "" };
    let with = table_seeds.map_or(String::new(), |k| format!(", with the tables to {k} seeds"));
    let (out_name, known, r) = (out.display(), leaves.len(), RUNTIME);
    eprintln!(
        "book: {} from its start{strictly}{with}, {already} entries in {out_name} and {known} leaves known; runtime solver {} + {} positions in {} MiB",
        R::ID, r.exact_nodes, r.keep_nodes, r.hash_mb
    );
    let start_value = {
        let mut solver = Solver::try_new(tables, hash_mb).or_bad()?;
        let value = book::prove_start(&mut book, &mut solver, &|| interrupt::requested());
        save_book(&book, out)?;
        value.ok_or(Interrupted)?
    };
    eprintln!(
        "book: the start, proven: {}",
        text::outcome(Side::South, start_value as i64)
    );
    let shared = Mutex::new(Shared {
        book,
        out,
        slowest: Duration::ZERO,
        written: Instant::now(),
        cache,
        cache_path,
        failed: None,
    });
    let job = SideBuild {
        shared: &shared,
        tables,
        play_tables: &play_tables,
        leaves: &leaves,
        walk: Walk {
            engine: Side::South,
            start_value,
            budget: RUNTIME,
            strict,
        },
        hash_mb: (hash_mb / threads).max(1),
        started,
        bars: crate::progress::group(),
    };
    let run_side = |side| job.run(side);
    let ends = both_sides(threads, run_side, |e| *e == BuildEnd::Complete);
    let shared = shared.into_inner().expect("no thread panics holding it");
    finish_build(shared, ends, already, started)
}

/// The end of `book build`: the book written out one last time, the first
/// error if any, and the figures; `Interrupted` if a side was stopped.
fn finish_build(
    shared: Shared,
    ends: Vec<anyhow::Result<BuildEnd>>,
    already: usize,
    started: Instant,
) -> anyhow::Result<()> {
    let out = shared.out;
    shared.save()?;
    if let Some(e) = shared.failed {
        return Err(e);
    }
    let complete = build_ends(ends, out)?;
    eprintln!(
        "book: {} entries ({} new) in {:.1} s, written to {}; the runtime solver's slowest answer {:.1} ms",
        shared.book.len(),
        shared.book.len() - already,
        started.elapsed().as_secs_f64(),
        out.display(),
        shared.slowest.as_secs_f64() * 1000.0
    );
    if !complete {
        eprintln!("book: stopped; the same command goes on from the file");
        return Err(Interrupted.into());
    }
    Ok(())
}

/// The leaves cache of a build at `path`: the file, open to append its
/// runtime solver's answers, and the answers it already holds (a new file,
/// with its header, when there is none or it was made for another build).
fn open_leaves(
    path: &Path,
    strict: bool,
    table_seeds: Option<u32>,
) -> anyhow::Result<(std::fs::File, book::Leaves)> {
    use std::io::Write as _;
    let header = book::leaves_header(RUNTIME, strict, table_seeds);
    let known = read_leaves(path, &header)?;
    let mut options = std::fs::OpenOptions::new();
    match known {
        Some(_) => options.append(true),
        None => options.write(true).truncate(true).create(true),
    };
    let mut cache = options
        .open(path)
        .map_err(|e| bad(format!("{}: {e}", path.display())))?;
    if known.is_none() {
        writeln!(cache, "{header}").map_err(|e| bad(format!("{}: {e}", path.display())))?;
    }
    Ok((cache, known.unwrap_or_default()))
}

/// Runs `side_job` for the engine as South and as North: at once on two
/// threads, or South first and North only if South's ended `complete`.
fn both_sides<E: Send>(
    threads: usize,
    side_job: impl Fn(Side) -> anyhow::Result<E> + Sync,
    complete: impl Fn(&E) -> bool,
) -> Vec<anyhow::Result<E>> {
    if threads == 2 {
        std::thread::scope(|scope| {
            let n = scope.spawn(|| side_job(Side::North));
            let s = side_job(Side::South);
            vec![s, n.join().expect("the North thread does not panic")]
        })
    } else {
        let s = side_job(Side::South);
        match s {
            Ok(end) if complete(&end) => vec![Ok(end), side_job(Side::North)],
            other => vec![other],
        }
    }
}

/// `book check`: the book's start value and every entry proven again with
/// a fresh solver (its own table size), then the build's walk made again
/// without the leaves cache: every position the engine can meet is in the
/// book or answered by the runtime solver. Exit status 1 if something
/// fails.
/// Every entry of `book` proven again with `checker`: the position's value
/// and the value of the position its move leads to. Prints the wrong ones
/// and a summary; returns how many are wrong.
fn check_entries<R: Rules>(
    book: &Book,
    checker: &mut Solver<'_, R, NoTables>,
    started: Instant,
) -> anyhow::Result<usize> {
    let stop = |_: &Progress| interrupt::requested();
    let mut entries: Vec<&book::Entry> = book.iter().collect();
    entries.sort_by_key(|e| e.position.to_string());
    let (mut wrong, before) = (0, checker.nodes());
    for entry in &entries {
        let pos = Position::<R>::from_key(entry.position.key());
        let (Proof::Done(value), Some(kept)) = (
            checker.prove(&pos).stop(&stop).value(),
            book::move_value(checker, &[], &pos, entry.mv, &stop),
        ) else {
            return Err(Interrupted.into());
        };
        if value != entry.margin || kept != entry.margin {
            wrong += 1;
            println!("  {entry}: the position is worth {value}, the move keeps {kept}");
        }
    }
    println!(
        "entries: {}, every value and move proven again ({} positions, {:.1} s): {} are right",
        entries.len(),
        checker.nodes() - before,
        started.elapsed().as_secs_f64(),
        entries.len() - wrong
    );
    Ok(wrong)
}

/// The walk of `book check` for the engine playing `walk.engine`: whether
/// every position it can meet is covered. Prints its end.
fn check_side<R: Rules>(
    book: &Book,
    tables: &PlayTables,
    walk: Walk,
    started: Instant,
) -> CheckEnd {
    let visited = std::cell::Cell::new(0u64);
    let slowest = std::cell::Cell::new(Duration::ZERO);
    let on_leaf = |_, _, p: &BuildProgress| {
        visited.set(visited.get() + 1);
        slowest.set(p.slowest);
    };
    let end = book::check::<R>(book, tables, walk, on_leaf, &|| interrupt::requested());
    println!(
        "the engine {}: {} after {:.1} s; {} positions answered by the runtime solver, the slowest in {:.1} ms",
        walk.engine.title(),
        match &end {
            CheckEnd::Complete => "every position it can meet is covered".to_string(),
            CheckEnd::Stopped => "stopped".to_string(),
            CheckEnd::Gap(p) => format!("not covered: {p}"),
        },
        started.elapsed().as_secs_f64(),
        visited.get(),
        slowest.get().as_secs_f64() * 1000.0
    );
    end
}

/// `book check`: `book` (called `name` in what is printed) proven again
/// entry by entry, and every position the engine can meet covered. An
/// error if it fails.
pub fn check<R: Rules>(
    book: &Book,
    name: &str,
    hash_mb: usize,
    threads: usize,
    strict: bool,
) -> anyhow::Result<()> {
    let started = Instant::now();
    let stop = |_: &Progress| interrupt::requested();
    // The start and the entries are proven again without tables: a proof
    // independent of the build's.
    let mut checker = Solver::try_new(&NoTables, hash_mb).or_bad()?;
    let start = Position::<R>::start();
    let Some(claimed) = book.start_value(R::ID) else {
        anyhow::bail!("{name}: the start is not in the book");
    };
    let Proof::Done(root) = checker.prove(&start).stop(&stop).solution() else {
        return Err(Interrupted.into());
    };
    println!(
        "{}: the start, proven again: {} ({} positions); the book says {}",
        R::ID,
        text::outcome(Side::South, root.margin as i64),
        root.nodes,
        text::outcome(Side::South, claimed as i64)
    );
    if root.margin != claimed {
        anyhow::bail!("{name}: the book's value of the start is wrong");
    }
    let wrong = check_entries(book, &mut checker, started)?;
    drop(checker);
    // The walk: complete?
    let play_tables = PlayTables::for_book::<R>(book);
    let walk = Walk {
        engine: Side::South,
        start_value: claimed,
        budget: RUNTIME,
        strict,
    };
    let side_job = |side| {
        Ok(check_side::<R>(
            book,
            &play_tables,
            Walk {
                engine: side,
                ..walk
            },
            started,
        ))
    };
    let mut complete = true;
    for end in both_sides(threads, side_job, |e| *e == CheckEnd::Complete) {
        match end? {
            CheckEnd::Complete => {}
            CheckEnd::Stopped => return Err(Interrupted.into()),
            CheckEnd::Gap(_) => complete = false,
        }
    }
    if wrong > 0 || !complete {
        anyhow::bail!("{name}: the book failed its check");
    }
    println!(
        "{name}: checked ({}), {:.1} s",
        if strict {
            "strict: every position's own value"
        } else {
            "the start's value"
        },
        started.elapsed().as_secs_f64()
    );
    Ok(())
}
