//! `mancala book`: build the books of proven moves of the solved games
//! (`positions/book/`, [`mancala_engine::book`]) and test that the engine
//! keeps the proven value with them.

use std::path::PathBuf;

use clap::Subcommand;
use mancala_engine::book::Book;
use mancala_engine::{with_rules, GameId};

use mancala_tools::book::{book_game, book_to_build, build, check, read_book, side_threads, test};
use mancala_tools::limits;
use mancala_tools::matchplay::spec::PlayerSpec;

use crate::input::{bad, OrBad};

/// The subcommands of `mancala book`.
#[derive(Subcommand, Debug)]
pub enum Command {
    /// Build (or complete) the book of a solved game: every position the
    /// engine can meet, as South or North, before the runtime solver answers
    /// it, with a move proven to keep the start's value. Resumes from FILE.
    Build {
        /// A game solved from its start (bosh, djenon-abe).
        #[arg(long)]
        game: GameId,
        /// The book file (read first if it exists; written atomically every
        /// 30 seconds and at the end). Beside it, FILE.leaves caches the
        /// positions the runtime solver answered, so that a resumed build
        /// skips them.
        #[arg(long, value_name = "FILE")]
        out: PathBuf,
        /// The proofs' transposition table in MiB (kept from proof to
        /// proof; shared out between the threads).
        #[arg(long, value_name = "MIB", default_value_t = 1024)]
        hash: u64,
        /// 2: the engine's South and North books are built at once, one
        /// thread each.
        #[arg(long, default_value_t = 1)]
        threads: u32,
        /// Keep every position's own value, also after an opponent's
        /// mistake: a leaf is then a position whose exact value the runtime
        /// solver proves (a bigger book). Without it, the book keeps the
        /// start's value.
        #[arg(long)]
        strict: bool,
        /// Play the book with the game's endgame tables to K seeds (an
        /// even K up to 20), built in memory: a position they hold ends the
        /// walk, and the runtime solver reads them (the engine builds the
        /// same tables when it plays the book). A book keeps the K it was
        /// started with.
        #[arg(long, value_name = "K")]
        tables: Option<u32>,
    },
    /// Check a book: its start value and every entry proven again, and every
    /// position the engine can meet covered (in the book or answered by the
    /// runtime solver). Exit status 1 if it fails.
    Check {
        /// A game solved from its start (bosh, djenon-abe).
        #[arg(long)]
        game: GameId,
        /// The book file (default: the book shipped for the game).
        #[arg(long, value_name = "FILE")]
        book: Option<PathBuf>,
        /// The checking solver's transposition table in MiB.
        #[arg(long, value_name = "MIB", default_value_t = 512)]
        hash: u64,
        /// 2: walk the engine's South and North positions at once.
        #[arg(long, default_value_t = 1)]
        threads: u32,
        /// Check that the book keeps every position's own value (built with
        /// `book build --strict`), not only the start's.
        #[arg(long)]
        strict: bool,
    },
    /// Play games from the start between the engine (with its book and
    /// runtime solver) and an opponent, the engine taking South and North in
    /// turn, and check every engine move against a proof: exit status 1 if
    /// one loses value.
    Test {
        /// A game solved from its start (bosh, djenon-abe).
        #[arg(long)]
        game: GameId,
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

pub fn run(command: Command) -> anyhow::Result<()> {
    match command {
        Command::Build {
            game,
            out,
            hash,
            threads,
            strict,
            tables,
        } => {
            let game = book_game(game)?;
            let hash = limits::hash_mb("--hash", hash).or_bad()?;
            let threads = side_threads(threads)?;
            let existing = book_to_build(&out, game, tables)?;
            with_rules!(game, R => build::<R>(existing, &out, hash, threads, strict))
        }
        Command::Check {
            game,
            book,
            hash,
            threads,
            strict,
        } => {
            let game = book_game(game)?;
            let hash = limits::hash_mb("--hash", hash).or_bad()?;
            let threads = side_threads(threads)?;
            let (the_book, name) = match &book {
                Some(path) => {
                    if !path.exists() {
                        return Err(bad(format!("{}: no such file", path.display())));
                    }
                    (read_book(path, game)?, path.display().to_string())
                }
                None => match Book::shipped(game) {
                    Some(b) => (b.clone(), format!("the shipped {game} book")),
                    None => return Err(bad(format!("{game} ships no book yet: give --book FILE"))),
                },
            };
            with_rules!(game, R => check::<R>(&the_book, &name, hash, threads, strict))
        }
        Command::Test {
            game,
            games,
            player,
            opponent,
            seed,
            hash,
        } => {
            let game = book_game(game)?;
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
            with_rules!(game, R => test::<R>(&mut players, games, seed, hash, &player.name, &opponent.name))
        }
    }
}
