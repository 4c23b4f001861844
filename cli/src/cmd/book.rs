//! `mancala book`: build the books of proven moves of the solved games
//! (`positions/book/`, [`mancala_engine::book`]) and test that the engine
//! keeps the proven value with them.

use std::cell::RefCell;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use clap::Subcommand;
use mancala_engine::book::{self, Book, BuildProgress, RUNTIME};
use mancala_engine::files::{read_text, write_file};
use mancala_engine::solve::{Progress, Solver};
use mancala_engine::tablebase::NoTables;
use mancala_engine::{with_rules, GameId, GameRecord, Move, Position, Rules, Side};

use mancala_cli::interrupt::{self, Interrupted};
use mancala_cli::limits;
use mancala_cli::matchplay::game::{play_unit, End, Unit, PLY_CAP};
use mancala_cli::matchplay::player::{Fault, Player, PlayerSpec, Reply, Request};
use mancala_cli::text;

use crate::input::{bad, OrBad};

/// Arguments of `mancala book`.
#[derive(clap::Args, Debug)]
pub struct Args {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Build (or complete) the book of a solved game: every position the
    /// engine can meet, as South or North, before the runtime solver proves
    /// it, proven with its every best move. Resumes from FILE.
    Build {
        /// A game solved from its start (bosh, djenon-abe).
        #[arg(long)]
        game: String,
        /// The book file (read first if it exists; written atomically after
        /// every new entry). Beside it, FILE.leaves caches the positions the
        /// runtime solver proved, so that a resumed build skips them.
        #[arg(long, value_name = "FILE")]
        out: PathBuf,
        /// The proofs' transposition table in MiB (kept from proof to proof).
        #[arg(long, value_name = "MIB", default_value_t = 1024)]
        hash: u64,
    },
    /// Play games from the start between the engine (with its book and
    /// runtime solver) and an opponent, the engine taking South and North in
    /// turn, and check every engine move against a proof: exit status 1 if
    /// one loses value.
    Test {
        /// A game solved from its start (bosh, djenon-abe).
        #[arg(long)]
        game: String,
        /// Games (the engine is South in the odd ones, North in the even ones).
        #[arg(long, default_value_t = 10)]
        games: u32,
        /// The engine's player spec (as `mancala match --player` takes it).
        #[arg(long, default_value = "time=100ms")]
        player: String,
        /// The opponent's player spec.
        #[arg(long, default_value = "random")]
        opponent: String,
        /// Seed of the games (random players are reseeded per game from it).
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// The checking solver's transposition table in MiB.
        #[arg(long, value_name = "MIB", default_value_t = 512)]
        hash: u64,
    },
}

/// A game that has a book.
pub fn book_game(name: &str) -> anyhow::Result<GameId> {
    let game: GameId = name.parse().map_err(|e| bad(format!("{e}")))?;
    if !book::SOLVED.contains(&game) {
        let with: Vec<&str> = book::SOLVED.iter().map(|g| g.name()).collect();
        return Err(bad(format!(
            "{game} has no book: books are for the games solved from their start ({})",
            with.join(", ")
        )));
    }
    Ok(game)
}

/// The book in `path`, or an empty one if there is no such file.
fn read_book(path: &Path, game: GameId) -> anyhow::Result<Book> {
    if !path.exists() {
        return Ok(Book::new());
    }
    let text = read_text(path).map_err(|e| bad(format!("{}: {e}", path.display())))?;
    Book::parse(&text, game).map_err(|e| bad(format!("{}: {e}", path.display())))
}

pub fn run(args: Args) -> anyhow::Result<()> {
    match args.command {
        Command::Build { game, out, hash } => {
            let game = book_game(&game)?;
            let hash = limits::hash_mb("--hash", hash).or_bad()?;
            let mut existing = read_book(&out, game)?;
            interrupt::install().map_err(|e| anyhow::anyhow!("Ctrl-C handler: {e}"))?;
            with_rules!(game, R => build::<R>(&mut existing, &out, hash))
        }
        Command::Test {
            game,
            games,
            player,
            opponent,
            seed,
            hash,
        } => {
            let game = book_game(&game)?;
            if games == 0 || games > 100_000 {
                return Err(bad(format!("--games {games}: between 1 and 100,000")));
            }
            let hash = limits::hash_mb("--hash", hash).or_bad()?;
            let spec = |flag: &str, text: &str| {
                PlayerSpec::parse(text).map_err(|e| bad(format!("{flag}: {e}")))
            };
            let (player, opponent) = (spec("--player", &player)?, spec("--opponent", &opponent)?);
            let build = |flag: &str, spec: &PlayerSpec| {
                spec.build().map_err(|e| bad(format!("{flag}: {e}")))
            };
            let mut players = [build("--player", &player)?, build("--opponent", &opponent)?];
            interrupt::install().map_err(|e| anyhow::anyhow!("Ctrl-C handler: {e}"))?;
            with_rules!(game, R => test::<R>(&mut players, games, seed, hash, &player.name, &opponent.name))
        }
    }
}

/// A player that remembers, reply by reply, whether it claimed a proven
/// score.
struct Recording<'p> {
    inner: &'p mut dyn Player,
    exact: Vec<bool>,
}

impl Player for Recording<'_> {
    fn new_game(&mut self, seed: u64) -> Result<(), Fault> {
        self.exact.clear();
        self.inner.new_game(seed)
    }

    fn choose(&mut self, request: &Request) -> Result<Reply, Fault> {
        let reply = self.inner.choose(request)?;
        self.exact.push(reply.exact);
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
    kept: u64,
    proven: u64,
    kept_searched: u64,
    games_at_value: u32,
}

fn test<R: Rules>(
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
    let Some(root) = checker.try_solve(&[], &start, u64::MAX, &stop) else {
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
            exact: Vec::new(),
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
        let round = &played.rounds[0];
        let totals = round
            .result
            .expect("a game that was not forfeited has a result");
        // Every engine move, checked against a proof of the position it was
        // played in (the game's earlier positions count for the cycle rule).
        let mut game = GameRecord::new(start);
        let mut claims = recorded.exact.iter();
        let (mut engine_moves, mut kept) = (0u32, 0u32);
        for (ply, &pit) in round.moves.iter().enumerate() {
            let (mv, pos) = (Move::from_pit(pit), game.current());
            if pos.side_to_move() == engine {
                let exact = *claims.next().expect("a reply for every engine move");
                let history = &game.positions()[..ply];
                let Some(proof) = checker.try_solve(history, &pos, u64::MAX, &stop) else {
                    return Err(Interrupted.into());
                };
                engine_moves += 1;
                tally.moves += 1;
                tally.proven += exact as u64;
                if proof.best.contains(&mv) {
                    kept += 1;
                    tally.kept += 1;
                    tally.kept_searched += !exact as u64;
                } else {
                    let before: Vec<String> =
                        round.moves[..ply].iter().map(|m| m.to_string()).collect();
                    println!(
                        "  game {}: {pos} moves={}: {} played {mv} ({}), best {:?} keeps {}",
                        g + 1,
                        before.join(","),
                        engine.title(),
                        if exact { "proven" } else { "searched" },
                        proof.best.iter().map(|m| m.pit()).collect::<Vec<_>>(),
                        text::outcome(pos.side_to_move(), proof.margin as i64),
                    );
                }
            }
            game.play(mv).expect("the game was played by the rules");
        }
        let own = engine.index();
        let result = totals[own] as i32 - totals[1 - own] as i32;
        let due = if engine == Side::South {
            root.margin
        } else {
            -root.margin
        };
        tally.games_at_value += (result >= due) as u32;
        println!(
            "game {:>3}: the engine is {}: {} (the proven value: {}); {kept}/{engine_moves} of its moves kept the value",
            g + 1,
            engine.title(),
            text::outcome(engine, result as i64),
            text::outcome(engine, due as i64)
        );
    }
    let share = |a: u64, b: u64| 100.0 * a as f64 / b.max(1) as f64;
    println!(
        "engine moves {}: kept the value {} ({:.1} %); played with a proven score (book, solver or search) {} ({:.1} %), the others {} (of them kept {})",
        tally.moves,
        tally.kept,
        share(tally.kept, tally.moves),
        tally.proven,
        share(tally.proven, tally.moves),
        tally.moves - tally.proven,
        tally.kept_searched
    );
    println!(
        "games where the engine scored at least its proven value: {}/{games}",
        tally.games_at_value
    );
    if tally.kept < tally.moves {
        anyhow::bail!("{} engine moves lost value", tally.moves - tally.kept);
    }
    Ok(())
}

/// The cache of leaves beside a book file.
fn leaves_path(out: &Path) -> PathBuf {
    let mut name = out.as_os_str().to_owned();
    name.push(".leaves");
    PathBuf::from(name)
}

/// The leaves cached in `path` (one key a line, in hex): a line that is not
/// a key (a write cut short) is skipped, since a missing leaf is only
/// checked again.
fn read_leaves(path: &Path) -> anyhow::Result<book::Leaves> {
    if !path.exists() {
        return Ok(book::Leaves::new());
    }
    let text = read_text(path).map_err(|e| bad(format!("{}: {e}", path.display())))?;
    Ok(text
        .lines()
        .filter_map(|l| u128::from_str_radix(l.trim(), 16).ok())
        .collect())
}

fn build<R: Rules>(book: &mut Book, out: &Path, hash_mb: usize) -> anyhow::Result<()> {
    use std::io::Write as _;
    let mut solver = Solver::try_new(&NoTables, hash_mb).or_bad()?;
    let cache = leaves_path(out);
    let mut leaves = read_leaves(&cache)?;
    let mut cache_file = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(&cache)
        .map_err(|e| bad(format!("{}: {e}", cache.display())))?;
    let started = Instant::now();
    let already = book.len();
    eprintln!(
        "book: {} from its start, {already} entries in {} and {} leaves known; runtime solver {} positions in {} MiB",
        R::ID,
        out.display(),
        leaves.len(),
        RUNTIME.nodes,
        RUNTIME.hash_mb
    );
    let failed: RefCell<Option<anyhow::Error>> = RefCell::new(None);
    let mut last_line = Instant::now();
    let show = |p: &BuildProgress| {
        eprintln!(
            "book: {:.0} s, {} entries ({} new), {} positions looked at, {} left to the runtime solver, {} positions proven",
            started.elapsed().as_secs_f64(),
            p.entries,
            p.proven,
            p.visited,
            p.leaves,
            p.proof_nodes
        )
    };
    let done = book::build::<R>(
        book,
        &mut leaves,
        &mut solver,
        RUNTIME,
        |book, progress| {
            if let Err(e) = write_file(out, book.to_text()) {
                failed.replace(Some(anyhow::anyhow!("cannot write {}: {e}", out.display())));
            }
            if last_line.elapsed() >= Duration::from_secs(10) {
                show(progress);
                last_line = Instant::now();
            }
        },
        |key| {
            if let Err(e) = writeln!(cache_file, "{key:032x}") {
                failed.replace(Some(anyhow::anyhow!(
                    "cannot write {}: {e}",
                    cache.display()
                )));
            }
        },
        &|| interrupt::requested() || failed.borrow().is_some(),
    );
    if let Some(e) = failed.into_inner() {
        return Err(e);
    }
    write_file(out, book.to_text())
        .map_err(|e| anyhow::anyhow!("cannot write {}: {e}", out.display()))?;
    eprintln!(
        "book: {} entries ({} new) in {:.1} s, written to {}",
        book.len(),
        book.len() - already,
        started.elapsed().as_secs_f64(),
        out.display()
    );
    if !done {
        eprintln!("book: stopped; the same command goes on from the file");
        return Err(Interrupted.into());
    }
    Ok(())
}
