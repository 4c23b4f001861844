//! Reading positions and moves from the command line, with one-line errors.

use std::fmt;

use clap::Args;
use mancala_engine::{AnyPosition, GameId, Move};

pub use mancala_tools::bad::{bad, BadInput, OrBad};

/// `POSITION | --game NAME`, shared by every command that takes a position.
#[derive(Args, Debug, Clone)]
pub struct PositionArg {
    /// Start from this game's start position instead of a written position.
    #[arg(long, value_name = "NAME")]
    pub game: Option<String>,
    /// The position in the notation of docs/rules.md, one quoted argument or its
    /// four fields (unless --game).
    #[arg(value_name = "POSITION")]
    pub free: Vec<String>,
    /// With --game: K seeds in every pit instead of the game's own number,
    /// the other seeds banked equally (Bohnenspiel(6,4) is `--game
    /// bohnenspiel --seeds-per-pit 4`: 4 a pit, 12-12 banked); Kalah(6,K)
    /// is `--game kalah --seeds-per-pit K`, K from 1 to 6, empty stores;
    /// Oware with K a pit is `--game oware --seeds-per-pit K`, K from 1 to 4.
    #[arg(long, value_name = "K")]
    pub seeds_per_pit: Option<u8>,
    /// With --game kalah or kalah-empty: M pits a row instead of six,
    /// M from 1 to 6 (Kalah(M,K) is `--game kalah --pits M --seeds-per-pit
    /// K`; pits are numbered 1 to 2M).
    #[arg(long, value_name = "M")]
    pub pits: Option<u8>,
}

/// The start of `game` with `k` seeds in every pit and the rest of the
/// game's seeds banked equally, South to move; in the games whose starts
/// vary (Kalah(m,k), Oware), nothing is banked. `row` pits a row where
/// the game has narrow boards (Kalah), else the game's own number.
pub fn start_with_seeds_per_pit(game: GameId, row: usize, k: u8) -> anyhow::Result<AnyPosition> {
    let pits = 2 * row as u32;
    let on_board = pits * k as u32;
    let total = if game.seeds_vary() && k > 0 {
        on_board.max(1)
    } else {
        game.total_seeds() as u32
    };
    let most = game.total_seeds() as u32;
    if game.seeds_vary() && (k == 0 || on_board > most) {
        return Err(bad(format!(
            "--seeds-per-pit {k}: {game} is played with 1 to {} seeds a pit",
            most / pits
        )));
    }
    if k == 0 || on_board > total || !(total - on_board).is_multiple_of(2) {
        return Err(bad(format!(
            "--seeds-per-pit {k}: {game} has {total} seeds for {pits} pits, so K is 1 to {} with an even remainder to bank",
            total / pits
        )));
    }
    let bank = (total - on_board) / 2;
    let row = vec![k.to_string(); row].join(",");
    let text = format!("{game} {row}/{row} S {bank}-{bank}");
    text.parse()
        .map_err(|e| bad(format!("--seeds-per-pit {k}: {e}")))
}

impl PositionArg {
    /// The start of `game` as `--pits` and `--seeds-per-pit` ask, or its
    /// own start.
    fn start(&self, game: GameId) -> anyhow::Result<AnyPosition> {
        let row = match self.pits {
            None => game.side_pits(),
            Some(_) if !game.narrow_boards() => {
                return Err(bad(format!(
                    "--pits: {game} has {} pits a row; only kalah and kalah-empty are played with fewer",
                    game.side_pits()
                )))
            }
            Some(m) if m == 0 || m as usize > game.side_pits() => {
                return Err(bad(format!(
                    "--pits {m}: {game} has 1 to {} pits a row",
                    game.side_pits()
                )))
            }
            Some(m) => m as usize,
        };
        match (self.seeds_per_pit, self.pits) {
            (None, None) => Ok(AnyPosition::start(game)),
            (k, _) => start_with_seeds_per_pit(game, row, k.unwrap_or(game.start_seeds())),
        }
    }

    /// Resolves the position: `--game NAME`, or the first free argument(s).
    /// A position may come as one argument (`"bohnenspiel 6,…/… S 0-0"`) or as
    /// its four fields in four arguments. Returns the position and the free
    /// arguments left over.
    pub fn resolve(&self) -> anyhow::Result<(AnyPosition, Vec<String>)> {
        let free = &self.free;
        if let Some(name) = &self.game {
            let game: GameId = name.parse().map_err(|e| bad(format!("{e}")))?;
            return Ok((self.start(game)?, free.to_vec()));
        }
        let Some(first) = free.first() else {
            return Err(bad("no position given: write one (\"bohnenspiel 6,6,6,6,6,6/6,6,6,6,6,6 S 0-0\"), a game's name for its start, or use --game NAME"));
        };
        // A game's name alone (`analyze bohnenspiel`) is its start, as
        // `--game NAME` is; followed by a row of pits it is the first of
        // a position's four fields.
        if let Ok(game) = first.parse::<GameId>() {
            if !free.get(1).is_some_and(|pits| pits.contains('/')) {
                return Ok((self.start(game)?, free[1..].to_vec()));
            }
        }
        if self.seeds_per_pit.is_some() || self.pits.is_some() {
            return Err(bad(
                "--seeds-per-pit and --pits go with a game's name (--game NAME), not a written position",
            ));
        }
        let (text, used) = if first.parse::<GameId>().is_ok() && free.len() >= 4 {
            (free[..4].join(" "), 4)
        } else {
            (first.clone(), 1)
        };
        // One word, no row of pits: a game's name misspelt (`bonenspiel`),
        // or a file that is not there (`review nofile.txt`).
        if used == 1 && !text.contains('/') && !text.trim().contains(char::is_whitespace) {
            if let Err(unknown) = text.parse::<GameId>() {
                if unknown.nearest().is_some() || !text.contains('.') {
                    return Err(bad(format!("{unknown}")));
                }
                return Err(bad(format!(
                    "'{text}': no such file, and not a position or a game's name"
                )));
            }
        }
        let pos: AnyPosition = text
            .parse()
            .map_err(|e| bad(format!("bad position '{text}': {e}")))?;
        Ok((pos, free[used..].to_vec()))
    }
}

impl PositionArg {
    /// As [`resolve`](Self::resolve), but with neither `--game` nor a
    /// position it starts from `game`'s start position (for the commands
    /// that work out of the box: `mancala analyze` analyses Bohnenspiel).
    pub fn resolve_or_start(&self, game: GameId) -> anyhow::Result<(AnyPosition, Vec<String>)> {
        if self.game.is_none() && self.free.is_empty() {
            return Ok((self.start(game)?, Vec::new()));
        }
        self.resolve()
    }
}

/// A position and the moves played since (`POSITION | --game NAME` and
/// `--moves`), for the commands that take both.
#[derive(Args, Debug, Clone)]
pub struct GameArgs {
    #[command(flatten)]
    pub position: PositionArg,
    #[command(flatten)]
    pub moves: MovesArg,
}

/// `--moves M1,M2,…`: the moves played from the position given, in order;
/// they count for the cycle rule (the position is the first occurrence).
#[derive(Args, Debug, Clone, Default)]
pub struct MovesArg {
    /// The moves played from the position, comma-separated (`3,9,2`); they
    /// count for the cycle rule.
    #[arg(long, value_name = "M1,M2,…", allow_hyphen_values = true)]
    pub moves: Option<String>,
}

impl MovesArg {
    /// The moves, checked legal in turn from `start` (cycle rule
    /// included): an illegal one is bad input naming its ply and pit.
    pub fn after(&self, start: &AnyPosition) -> anyhow::Result<Vec<Move>> {
        let moves = parse_moves(self.moves.as_slice()).map_err(|e| bad(format!("--moves: {e}")))?;
        mancala_engine::with_position!(start, p => mancala_tools::protocol::replay(*p, &moves).map(|_| ()))
            .map_err(|e| bad(format!("--moves: {e}")))?;
        Ok(moves)
    }
}

/// Parses moves given as separate arguments or comma-separated lists.
/// Each move is a pit number (`0` for a pass). Returns the moves in order.
pub fn parse_moves(args: &[String]) -> anyhow::Result<Vec<Move>> {
    let mut moves = Vec::new();
    for arg in args {
        for part in arg.split(',').filter(|p| !p.trim().is_empty()) {
            let part = part.trim();
            let ply = moves.len() + 1;
            let pit: u8 = part
                .parse()
                .map_err(|_| bad(format!("ply {ply}: '{part}' is not a move (a pit number)")))?;
            moves.push(Move::from_pit(pit));
        }
    }
    Ok(moves)
}

/// The games of the record file at `path` (docs/records.md); an error names
/// `option` (`"--save "`, or `""`) and the path.
pub fn read_records(
    option: &str,
    path: &std::path::Path,
) -> anyhow::Result<Vec<mancala_engine::pgn::WrittenGame>> {
    read_first_records(option, path, usize::MAX)
}

/// The first `n` games of the record file at `path`, as [`read_records`]
/// (the games after them are not parsed).
pub fn read_first_records(
    option: &str,
    path: &std::path::Path,
    n: usize,
) -> anyhow::Result<Vec<mancala_engine::pgn::WrittenGame>> {
    let fail = |e: &dyn fmt::Display| bad(format!("{option}{}: {e}", path.display()));
    let text = mancala_engine::files::read_text(path).map_err(|e| fail(&e))?;
    mancala_engine::pgn::parse_first(&text, n).map_err(|e| fail(&e))
}

/// Rejects `--depth 0` and similar.
pub fn positive(name: &str, value: u32) -> anyhow::Result<u32> {
    if value == 0 {
        Err(bad(format!("--{name} must be at least 1")))
    } else {
        Ok(value)
    }
}

/// A search's `--depth`, `--time` and `--nodes` as given, checked: the
/// depth within the engine's, at least one node.
pub fn search_limits(
    depth: Option<u32>,
    time: Option<std::time::Duration>,
    nodes: Option<u64>,
) -> anyhow::Result<mancala_engine::search::Limits> {
    let depth = depth
        .map(|d| mancala_tools::limits::depth("--depth", d as u64))
        .transpose()
        .or_bad()?;
    if nodes == Some(0) {
        return Err(bad("--nodes must be at least 1"));
    }
    Ok(mancala_engine::search::Limits { depth, time, nodes })
}

/// The longest `--time` a command takes (a proof may run for weeks).
const MAX_TIME_OPTION: std::time::Duration = std::time::Duration::from_secs(366 * 24 * 3600);

/// Reads a `--time` value for clap: `500ms`, `2s`, `1.5m`, `3h`, or a bare
/// number of milliseconds (as CLI.md writes `--time MS`).
pub fn time_arg(
    text: &str,
) -> Result<std::time::Duration, mancala_tools::matchplay::spec::DurationError> {
    mancala_tools::matchplay::spec::parse_duration_within(text, MAX_TIME_OPTION, "a year")
}
