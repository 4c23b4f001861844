//! A deliberately naive, independent reference implementation of the eight
//! rule sets of `docs/rules.md`.
//!
//! It exists only to cross-check the fast engine: a plain `Vec<u32>` board,
//! one seed dropped at a time, every rule written out in the most literal
//! way. Speed does not matter here; clarity does. Standard library only.
//!
//! Pit `i` of the vectors is pit number `i + 1` of the notation. South owns
//! `0..n`, North owns `n..2n`; sowing runs `i -> i + 1 (mod 2n)`.
//!
//! Bosh: the functions here cover ONE round (no refill between rounds).
//! Closed pits (`x`) do not exist for sowing, relay or capture.
#![allow(dead_code)]

use std::collections::HashSet;

// ---------------------------------------------------------------------------
// The games
// ---------------------------------------------------------------------------

const GAMES: [&str; 8] = [
    "bohnenspiel",
    "bohnenspiel-hemprich",
    "al-manqala",
    "bosh",
    "djenon-abe",
    "kalah",
    "kalah-empty",
    "oware",
];

/// (pits per row, seeds per pit at the start, total seeds) of a game; for
/// Kalah, whose starts have 1 to 6 seeds a pit, the total is the most a
/// position may hold.
fn spec(game: &str) -> Option<(usize, u32, u32)> {
    match game {
        "kalah" | "kalah-empty" => Some((6, 4, 72)),
        "bohnenspiel" | "bohnenspiel-hemprich" => Some((6, 6, 72)),
        "al-manqala" => Some((7, 7, 98)),
        "bosh" => Some((5, 4, 40)),
        "djenon-abe" => Some((6, 4, 48)),
        "oware" => Some((6, 4, 48)),
        _ => None,
    }
}

/// A position: pits, closed pits (Bosh only), side to move, banked seeds.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct NaivePos {
    /// "bohnenspiel" | "bohnenspiel-hemprich" | "al-manqala" | "bosh" | "djenon-abe"
    pub game: String,
    /// index i = pit number i+1 (notation order)
    pub pits: Vec<u32>,
    /// Bosh closed pits ('x'); all false elsewhere
    pub closed: Vec<bool>,
    /// true when South is to move
    pub south_to_move: bool,
    /// South, North (store / captures / pool)
    pub banked: [u32; 2],
}

impl NaivePos {
    /// Pits per row.
    fn n(&self) -> usize {
        self.pits.len() / 2
    }

    /// 0 = South, 1 = North.
    pub fn mover(&self) -> usize {
        if self.south_to_move {
            0
        } else {
            1
        }
    }

    /// Seeds in the row of `side` (0 = South, 1 = North).
    fn row_sum(&self, side: usize) -> u32 {
        let n = self.n();
        self.pits[side * n..(side + 1) * n].iter().sum()
    }

    pub fn board_sum(&self) -> u32 {
        self.pits.iter().sum()
    }

    /// Does pit index `i` belong to `side`?
    fn owns(&self, side: usize, i: usize) -> bool {
        (i / self.n()) == side
    }
}

// ---------------------------------------------------------------------------
// Notation
// ---------------------------------------------------------------------------

/// Parses "game s1,..,sN/nN+1,..,n2N S|N a-b".
pub fn parse(s: &str) -> Result<NaivePos, String> {
    let fields: Vec<&str> = s.split_whitespace().collect();
    if fields.len() != 4 {
        return Err(format!("expected 4 fields, found {}", fields.len()));
    }
    let game = fields[0];
    let (n, _, total) = spec(game).ok_or_else(|| format!("unknown game '{game}'"))?;

    let rows: Vec<&str> = fields[1].split('/').collect();
    if rows.len() != 2 {
        return Err("pits: expected two rows separated by '/'".to_string());
    }
    // Kalah(m,n) is played with 1 to 6 pits a row: South's row says how
    // many.
    let south = rows[0].split(',').count();
    let n = if game.starts_with("kalah") && (1..=n).contains(&south) {
        south
    } else {
        n
    };
    let mut pits = Vec::new();
    let mut closed = Vec::new();
    for (r, row) in rows.iter().enumerate() {
        let cells: Vec<&str> = row.split(',').collect();
        if cells.len() != n {
            return Err(format!(
                "pits: row {} has {} pits, {game} needs {n}",
                r + 1,
                cells.len()
            ));
        }
        for cell in cells {
            if cell == "x" {
                if game != "bosh" {
                    return Err("pits: closed pit 'x' exists only in bosh".to_string());
                }
                pits.push(0);
                closed.push(true);
            } else {
                pits.push(parse_count(cell)?);
                closed.push(false);
            }
        }
    }

    let south_to_move = match fields[2] {
        "S" => true,
        "N" => false,
        other => return Err(format!("side to move: expected S or N, found '{other}'")),
    };

    let banks: Vec<&str> = fields[3].split('-').collect();
    if banks.len() != 2 {
        return Err(format!("banked: expected 'a-b', found '{}'", fields[3]));
    }
    let banked = [parse_count(banks[0])?, parse_count(banks[1])?];

    let sum: u64 =
        pits.iter().map(|&x| x as u64).sum::<u64>() + banked[0] as u64 + banked[1] as u64;
    let kalah = game.starts_with("kalah") || game == "oware";
    if (kalah && (sum == 0 || sum > total as u64)) || (!kalah && sum != total as u64) {
        return Err(format!("seeds add up to {sum}, {game} has {total}"));
    }
    Ok(NaivePos {
        game: game.to_string(),
        pits,
        closed,
        south_to_move,
        banked,
    })
}

fn parse_count(cell: &str) -> Result<u32, String> {
    if cell.is_empty() || !cell.chars().all(|c| c.is_ascii_digit()) {
        return Err(format!("not a seed count: '{cell}'"));
    }
    cell.parse::<u32>()
        .map_err(|_| format!("not a seed count: '{cell}'"))
}

/// Canonical notation, e.g. "bohnenspiel 6,6,0,7,7,7/7,7,7,6,6,6 N 0-0".
pub fn format(p: &NaivePos) -> String {
    let n = p.n();
    let cell = |i: usize| {
        if p.closed[i] {
            "x".to_string()
        } else {
            p.pits[i].to_string()
        }
    };
    let south: Vec<String> = (0..n).map(cell).collect();
    let north: Vec<String> = (n..2 * n).map(cell).collect();
    format!(
        "{} {}/{} {} {}-{}",
        p.game,
        south.join(","),
        north.join(","),
        if p.south_to_move { "S" } else { "N" },
        p.banked[0],
        p.banked[1]
    )
}

/// The start position of a game (Bosh: the first round). Panics on an unknown game.
pub fn start(game: &str) -> NaivePos {
    let (n, per, _) = spec(game).unwrap_or_else(|| panic!("unknown game '{game}'"));
    NaivePos {
        game: game.to_string(),
        pits: vec![per; 2 * n],
        closed: vec![false; 2 * n],
        south_to_move: true,
        banked: [0, 0],
    }
}

// ---------------------------------------------------------------------------
// Sowing and capturing, one seed at a time
// ---------------------------------------------------------------------------

/// Single lap (Bohnenspiel, Al-manqala): lift the pit, drop one seed in each
/// following pit (the origin included when lapping). Returns the last pit.
fn sow_single_lap(pits: &mut [u32], from: usize) -> usize {
    let len = pits.len();
    let mut hand = pits[from];
    pits[from] = 0;
    let mut pos = from;
    while hand > 0 {
        pos = (pos + 1) % len;
        pits[pos] += 1;
        hand -= 1;
    }
    pos
}

/// Capture chain: the landing pit if it holds one of `counts`, then each pit
/// before it (clockwise), across rows and around the board, while the pit
/// holds one of `counts`. At most every pit once (the landing pit is emptied
/// when taken, and we never step more than 2n times). Returns the seeds taken.
fn capture_chain(pits: &mut [u32], last: usize, counts: &[u32]) -> u32 {
    let len = pits.len();
    let mut taken = 0;
    let mut pos = last;
    for _ in 0..len {
        if counts.contains(&pits[pos]) {
            taken += pits[pos];
            pits[pos] = 0;
            pos = (pos + len - 1) % len;
        } else {
            break;
        }
    }
    taken
}

/// The next open pit after `i` (Bosh closed pits skipped).
fn next_open(closed: &[bool], i: usize) -> usize {
    let len = closed.len();
    let mut j = i;
    for _ in 0..len {
        j = (j + 1) % len;
        if !closed[j] {
            return j;
        }
    }
    panic!("no open pit on the board");
}

/// Plays the sowing of pit index `from` without asking whether the move is
/// allowed by feeding rules. `None` when the sowing never ends (relay games).
fn raw_move(p: &NaivePos, from: usize) -> Option<NaivePos> {
    let me = p.mover();
    let mut q = p.clone();
    match p.game.as_str() {
        "bohnenspiel" | "bohnenspiel-hemprich" => {
            let last = sow_single_lap(&mut q.pits, from);
            q.banked[me] += capture_chain(&mut q.pits, last, &[2, 4, 6]);
        }
        "al-manqala" => {
            let last = sow_single_lap(&mut q.pits, from);
            q.banked[me] += capture_chain(&mut q.pits, last, &[2, 4]);
        }
        "bosh" => {
            let closed = q.closed.clone();
            relay_sow(
                &mut q,
                from,
                |pos| next_open(&closed, pos),
                |q, pos| {
                    let look = next_open(&closed, pos);
                    if q.pits[look] > 0 {
                        return Some(look); // relay: lift it, sow from the pit after it
                    }
                    // ends at the empty pit `look`: capture the open pit after it
                    let target = next_open(&closed, look);
                    q.banked[me] += q.pits[target];
                    q.pits[target] = 0;
                    None
                },
            )?;
        }
        "djenon-abe" => {
            let len = q.pits.len();
            relay_sow(
                &mut q,
                from,
                |pos| (pos + 1) % len,
                |q, pos| match q.pits[pos] {
                    1 => None, // landed in an empty pit: end, no capture
                    2 | 4 => {
                        q.banked[me] += capture_chain(&mut q.pits, pos, &[2, 4]);
                        None
                    }
                    _ => Some(pos), // 3 or 5 and more: a new lap from the next pit
                },
            )?;
        }
        "kalah" | "kalah-empty" => return Some(kalah_move(p, from)),
        "oware" => return Some(oware_move(p, from)),
        g => panic!("unknown game '{g}'"),
    }
    q.south_to_move = !p.south_to_move;
    Some(q)
}

/// Relay sowing from pit `lift`: lifts it, sows one seed a pit along
/// `next`, and asks `then` (given the pit the last seed fell in) which pit
/// to lift next (`None`: the move ends). `None` when a state comes back:
/// the board after a lift and the pit lifted are the whole state (the hand
/// is the rest of the seeds), so the sowing would never end.
fn relay_sow(
    q: &mut NaivePos,
    mut lift: usize,
    next: impl Fn(usize) -> usize,
    mut then: impl FnMut(&mut NaivePos, usize) -> Option<usize>,
) -> Option<()> {
    let mut seen: HashSet<(Vec<u32>, usize)> = HashSet::new();
    loop {
        let mut hand = q.pits[lift];
        q.pits[lift] = 0;
        if !seen.insert((q.pits.clone(), lift)) {
            return None; // endless
        }
        let mut pos = lift;
        while hand > 0 {
            pos = next(pos);
            q.pits[pos] += 1;
            hand -= 1;
        }
        match then(q, pos) {
            Some(pit) => lift = pit,
            None => return Some(()),
        }
    }
}

/// Kalah: the board as a ring of 14 places, South's pits, South's store,
/// North's pits, North's store; one seed at a time into every place but
/// the opponent's store. A last seed in the mover's store: the mover moves
/// again. A last seed in an empty pit of the mover's: it and the opposite
/// pit go to the store if the opposite pit holds seeds (always, for
/// kalah-empty).
fn kalah_move(p: &NaivePos, from: usize) -> NaivePos {
    let me = p.mover();
    let n = p.n();
    // ring[k]: pit index, or None for a store (k == n: South's, k == 2n+1: North's).
    let place = |k: usize| -> Option<usize> {
        if k < n {
            Some(k)
        } else if k == n || k == 2 * n + 1 {
            None
        } else {
            Some(k - 1)
        }
    };
    let ring_of = |i: usize| if i < n { i } else { i + 1 };
    let my_store = if me == 0 { n } else { 2 * n + 1 };
    let their_store = if me == 0 { 2 * n + 1 } else { n };
    let mut q = p.clone();
    let mut hand = q.pits[from];
    q.pits[from] = 0;
    let mut k = ring_of(from);
    while hand > 0 {
        k = (k + 1) % (2 * n + 2);
        if k == their_store {
            continue;
        }
        match place(k) {
            Some(i) => q.pits[i] += 1,
            None => q.banked[me] += 1,
        }
        hand -= 1;
    }
    if k == my_store {
        return q; // the mover moves again
    }
    let last = place(k).expect("not a store");
    if q.owns(me, last) && q.pits[last] == 1 {
        let opposite = 2 * n - 1 - last;
        if q.pits[opposite] > 0 || p.game == "kalah-empty" {
            q.banked[me] += q.pits[opposite] + 1;
            q.pits[opposite] = 0;
            q.pits[last] = 0;
        }
    }
    q.south_to_move = !p.south_to_move;
    q
}

/// Oware (abapa): one seed at a time into each following pit, never into
/// the pit lifted; then, while the last pit sown (and each before it,
/// going back) is the opponent's and holds 2 or 3, it is taken, unless the
/// pits taken would be every non-empty pit of the opponent's row.
fn oware_move(p: &NaivePos, from: usize) -> NaivePos {
    let me = p.mover();
    let len = p.pits.len();
    let mut q = p.clone();
    let mut hand = q.pits[from];
    q.pits[from] = 0;
    let mut pos = from;
    while hand > 0 {
        pos = (pos + 1) % len;
        if pos == from {
            continue;
        }
        q.pits[pos] += 1;
        hand -= 1;
    }
    let mut taken_pits = Vec::new();
    let mut i = pos;
    while q.owns(1 - me, i) && (q.pits[i] == 2 || q.pits[i] == 3) {
        taken_pits.push(i);
        if i.is_multiple_of(p.n()) {
            break; // the first pit of the row: the chain stops there
        }
        i -= 1;
    }
    let taken: u32 = taken_pits.iter().map(|&i| q.pits[i]).sum();
    let grand_slam = taken > 0 && taken == q.row_sum(1 - me);
    if !grand_slam {
        for &i in &taken_pits {
            q.pits[i] = 0;
        }
        q.banked[me] += taken;
    }
    q.south_to_move = !p.south_to_move;
    q
}

/// Candidate moves: the mover's own open non-empty pits whose sowing ends,
/// with the position after each. Pit numbers ascending.
fn sowing_moves(p: &NaivePos) -> Vec<(u32, NaivePos)> {
    let me = p.mover();
    let mut out = Vec::new();
    for i in 0..p.pits.len() {
        if p.owns(me, i) && !p.closed[i] && p.pits[i] > 0 {
            if let Some(q) = raw_move(p, i) {
                out.push((i as u32 + 1, q));
            }
        }
    }
    out
}

/// Keeps only the moves after which the opponent's row holds a seed.
fn feeding_only(p: &NaivePos, moves: Vec<(u32, NaivePos)>) -> Vec<(u32, NaivePos)> {
    let opp = 1 - p.mover();
    moves
        .into_iter()
        .filter(|(_, q)| q.row_sum(opp) > 0)
        .collect()
}

/// Board seeds each player gets when the game ends, by the game's end rule:
/// everything to `side`.
fn all_to(p: &NaivePos, side: usize) -> [u32; 2] {
    let mut t = p.banked;
    t[side] += p.board_sum();
    t
}

/// Each player takes the seeds in their own row.
fn own_rows(p: &NaivePos) -> [u32; 2] {
    [p.banked[0] + p.row_sum(0), p.banked[1] + p.row_sum(1)]
}

/// Djenon-abe rule 5: own rows, with the final gift of one seed when only
/// one player has seeds left in their row.
fn djenon_final(p: &NaivePos) -> [u32; 2] {
    let mut s = p.row_sum(0);
    let mut n = p.row_sum(1);
    if s > 0 && n == 0 {
        s -= 1;
        n += 1;
    } else if n > 0 && s == 0 {
        n -= 1;
        s += 1;
    }
    [p.banked[0] + s, p.banked[1] + n]
}

/// The heart of it: the legal moves with their successors, or the final
/// totals when the game (Bosh: the round) is over here by its own end rules.
fn analyse(p: &NaivePos) -> (Vec<(u32, NaivePos)>, Option<[u32; 2]>) {
    let me = p.mover();
    let opp = 1 - me;
    match p.game.as_str() {
        "bohnenspiel" => {
            // Rule 3: mover has no seeds -> the other (last mover) takes the board.
            if p.row_sum(me) == 0 {
                return (vec![], Some(all_to(p, opp)));
            }
            (sowing_moves(p), None)
        }
        "bohnenspiel-hemprich" => {
            // Rule 6: ends only when the board is empty; a seedless player passes.
            if p.board_sum() == 0 {
                return (vec![], Some(p.banked));
            }
            if p.row_sum(me) == 0 {
                let mut q = p.clone();
                q.south_to_move = !p.south_to_move;
                return (vec![(0, q)], None);
            }
            (sowing_moves(p), None)
        }
        "al-manqala" => {
            // Rule 4, decision: mover's row empty -> each takes own row.
            if p.row_sum(me) == 0 {
                return (vec![], Some(own_rows(p)));
            }
            let moves = sowing_moves(p);
            if p.row_sum(opp) == 0 {
                // Rule 2: must feed if possible; rule 4: otherwise the game
                // ends and the starved opponent takes every seed on the board.
                let feeding = feeding_only(p, moves);
                if feeding.is_empty() {
                    return (vec![], Some(all_to(p, opp)));
                }
                return (feeding, None);
            }
            (moves, None)
        }
        "bosh" => {
            // Rule 3 (and the endless-move decision): no (finite) move ->
            // the round ends and the other player takes every stone.
            let moves = sowing_moves(p);
            if moves.is_empty() {
                return (vec![], Some(all_to(p, opp)));
            }
            (moves, None)
        }
        "djenon-abe" => {
            // Rule 4: one seed in each row -> end.
            if p.row_sum(0) == 1 && p.row_sum(1) == 1 {
                return (vec![], Some(djenon_final(p)));
            }
            if p.row_sum(me) == 0 {
                return (vec![], Some(djenon_final(p)));
            }
            let mut moves = sowing_moves(p);
            if p.row_sum(opp) == 0 {
                moves = feeding_only(p, moves);
            }
            if moves.is_empty() {
                return (vec![], Some(djenon_final(p)));
            }
            (moves, None)
        }
        "kalah" | "kalah-empty" => {
            // The game ends as soon as either row is empty; each side keeps
            // its own row.
            if p.row_sum(0) == 0 || p.row_sum(1) == 0 {
                return (vec![], Some(own_rows(p)));
            }
            (sowing_moves(p), None)
        }
        "oware" => {
            // Must feed an empty row if some move does; with no move (own
            // row empty, or none feeds) each side keeps its own row.
            let mut moves = sowing_moves(p);
            if p.row_sum(opp) == 0 {
                moves = feeding_only(p, moves);
            }
            if moves.is_empty() {
                return (vec![], Some(own_rows(p)));
            }
            (moves, None)
        }
        g => panic!("unknown game '{g}'"),
    }
}

/// Legal moves, ascending; `vec![0]` when Hemprich must pass; empty when over.
pub fn legal_moves(p: &NaivePos) -> Vec<u32> {
    analyse(p).0.into_iter().map(|(m, _)| m).collect()
}

/// The position after `mv`. Panics on an illegal move.
pub fn play(p: &NaivePos, mv: u32) -> NaivePos {
    match analyse(p).0.into_iter().find(|(m, _)| *m == mv) {
        Some((_, q)) => q,
        None => panic!("illegal move {mv} in {}", format(p)),
    }
}

/// Final totals when the game (Bosh: the round) is over at `p` by the game's
/// own end rules (not the cycle rule).
pub fn final_totals(p: &NaivePos) -> Option<[u32; 2]> {
    analyse(p).1
}

/// Totals when the game ends by the cycle rule at `p`: the board is split
/// equally, an odd seed to the player to move; in Oware each keeps its own
/// row.
pub fn cycle_totals(p: &NaivePos) -> [u32; 2] {
    if p.game == "oware" {
        return own_rows(p);
    }
    let board = p.board_sum();
    let mut t = [p.banked[0] + board / 2, p.banked[1] + board / 2];
    if board % 2 == 1 {
        t[p.mover()] += 1;
    }
    t
}

/// What the cycle rule compares: the pits (with closed pits) and the side to move.
fn same_position(a: &NaivePos, b: &NaivePos) -> bool {
    a.pits == b.pits && a.closed == b.closed && a.south_to_move == b.south_to_move
}

fn occurrences(history: &[NaivePos], p: &NaivePos) -> usize {
    history.iter().filter(|h| same_position(h, p)).count()
}

// ---------------------------------------------------------------------------
// replay and perft, as in docs/protocol.md
// ---------------------------------------------------------------------------

/// One line of `replay --json`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReplayLine {
    /// 0 for the start position.
    pub ply: u32,
    /// The move played to reach this line (None at ply 0).
    pub mv: Option<u32>,
    /// The position in notation.
    pub position: String,
    /// Legal moves, ascending; [] when over; [0] for a Hemprich pass.
    pub legal: Vec<u32>,
    /// The game (Bosh: round) has ended.
    pub over: bool,
    /// [south, north] final totals when over.
    pub result: Option<[u32; 2]>,
}

fn line_for(
    history: &[NaivePos],
    p: &NaivePos,
    ply: u32,
    mv: Option<u32>,
) -> (ReplayLine, Vec<(u32, NaivePos)>) {
    if occurrences(history, p) >= 3 {
        let line = ReplayLine {
            ply,
            mv,
            position: format(p),
            legal: vec![],
            over: true,
            result: Some(cycle_totals(p)),
        };
        return (line, vec![]);
    }
    let (moves, fin) = analyse(p);
    let line = ReplayLine {
        ply,
        mv,
        position: format(p),
        legal: moves.iter().map(|(m, _)| *m).collect(),
        over: fin.is_some(),
        result: fin,
    };
    (line, moves)
}

/// Plays `moves` from `start` (which counts as the first occurrence). An
/// illegal move gives `Err` naming its ply and pit.
pub fn replay(start: &NaivePos, moves: &[u32]) -> Result<Vec<ReplayLine>, String> {
    let mut history = vec![start.clone()];
    let (line, mut legal) = line_for(&history, start, 0, None);
    let mut lines = vec![line];
    for (k, &mv) in moves.iter().enumerate() {
        let ply = k as u32 + 1;
        let next = match legal.into_iter().find(|(m, _)| *m == mv) {
            Some((_, q)) => q,
            None => return Err(format!("ply {ply}: illegal move {mv}")),
        };
        history.push(next.clone());
        let (line, l) = line_for(&history, &next, ply, Some(mv));
        lines.push(line);
        legal = l;
    }
    Ok(lines)
}

/// Counts of move sequences of length 1..=depth from `p` (the root counts as
/// the first occurrence; a finished game, by third occurrence too, has no moves).
pub fn perft(p: &NaivePos, depth: u32) -> Vec<u64> {
    let mut counts = vec![0u64; depth as usize];
    let mut history = vec![p.clone()];
    perft_rec(&mut history, depth as usize, 0, &mut counts);
    counts
}

fn perft_rec(history: &mut Vec<NaivePos>, depth: usize, ply: usize, counts: &mut [u64]) {
    if ply >= depth {
        return;
    }
    let p = history.last().unwrap().clone();
    if occurrences(history, &p) >= 3 {
        return;
    }
    let (moves, _) = analyse(&p);
    counts[ply] += moves.len() as u64;
    if ply + 1 < depth {
        for (_, q) in moves {
            history.push(q);
            perft_rec(history, depth, ply + 1, counts);
            history.pop();
        }
    }
}

// ---------------------------------------------------------------------------
// Hand-worked examples, one or more per numbered rule
// ---------------------------------------------------------------------------

#[cfg(test)]
mod tests {
    use super::*;

    fn pos(s: &str) -> NaivePos {
        parse(s).unwrap_or_else(|e| panic!("{s}: {e}"))
    }

    fn after(s: &str, mv: u32) -> String {
        format(&play(&pos(s), mv))
    }

    // ----- notation -----

    #[test]
    fn notation_round_trips_and_rejects() {
        for g in GAMES {
            let p = start(g);
            assert_eq!(parse(&format(&p)).unwrap(), p);
        }
        assert_eq!(
            format(&start("bohnenspiel")),
            "bohnenspiel 6,6,6,6,6,6/6,6,6,6,6,6 S 0-0"
        );
        let b = "bosh x,3,0,5,2/x,x,4,1,6 S 7-12";
        assert_eq!(format(&pos(b)), b);
        assert!(parse("bohnenspiel 6,6,6,6,6,6/6,6,6,6,6,5 S 0-0").is_err()); // 71 seeds
        assert!(parse("bohnenspiel 6,6,6,6,6/6,6,6,6,6,6,6 S 0-0").is_err()); // 5+7 pits
        assert!(parse("bohnenspiel x,6,6,6,6,6/6,6,6,6,6,6 S 6-0").is_err()); // x outside bosh
        assert!(parse("bohnenspiel 6,6,6,6,6,6/6,6,6,6,6,6 W 0-0").is_err());
        assert!(parse("bohnenspiel 6,6,6,6,6,6/6,6,6,6,6,6 S 0").is_err());
        assert!(parse("bohnenspiel 6,6,6,6,6,6/6,6,6,6,6,6 S -0-0").is_err());
        assert!(parse("awari 4,4,4,4,4,4/4,4,4,4,4,4 S 0-0").is_err());
        assert!(parse("bohnenspiel 6,6,6,6,6,6/6,6,6,6,6,+6 S 0-0").is_err());
    }

    // ----- Bohnenspiel -----

    #[test]
    fn bohnenspiel_rules_example() {
        let p = start("bohnenspiel");
        assert_eq!(legal_moves(&p), vec![1, 2, 3, 4, 5, 6]);
        assert_eq!(
            format(&play(&p, 3)),
            "bohnenspiel 6,6,0,7,7,7/7,7,7,6,6,6 N 0-0"
        );
        assert_eq!(legal_moves(&play(&p, 3)), vec![7, 8, 9, 10, 11, 12]);
    }

    #[test]
    fn bohnenspiel_sowing_laps_into_origin() {
        // Rule 1 + common ground: 13 seeds from pit 1: pits 2..12, 1, 2.
        // Pit 2: 1+2 = 3, odd: no capture. Origin gets one seed.
        assert_eq!(
            after("bohnenspiel 13,1,1,1,1,1/1,1,1,1,1,1 S 25-23", 1),
            "bohnenspiel 1,3,2,2,2,2/2,2,2,2,2,2 N 25-23"
        );
    }

    #[test]
    fn bohnenspiel_capture_chain_backwards() {
        // Rule 2: South 6 (2 seeds) -> 7 becomes 2, 8 becomes 4: take 8, 7; pit 6 is 0: stop.
        assert_eq!(
            after("bohnenspiel 6,6,6,6,6,2/1,3,5,6,6,6 S 7-6", 6),
            "bohnenspiel 6,6,6,6,6,0/0,0,5,6,6,6 N 13-6"
        );
        // 6 is captured (not only 2 and 4); 7 or more stops the chain.
        // South 5 (3 seeds) -> 6: 5+1=6, 7: 1+1=2, 8: 5+1=6 -> take 8, 7, 6; pit 5 is 0.
        assert_eq!(
            after("bohnenspiel 6,6,6,6,3,5/1,5,6,6,6,6 S 4-6", 5),
            "bohnenspiel 6,6,6,6,0,0/0,0,6,6,6,6 N 18-6"
        );
        // Landing pit 7 or more: nothing.
        assert_eq!(
            after("bohnenspiel 6,6,6,6,6,1/6,6,6,6,6,6 S 5-0", 6),
            "bohnenspiel 6,6,6,6,6,0/7,6,6,6,6,6 N 5-0"
        );
        // Chain stops at an odd pit: North 12 (1 seed) -> pit 1: 3+1 = 4, take; pit 12 is 0.
        assert_eq!(
            after("bohnenspiel 3,2,2,2,2,2/2,2,2,2,2,1 N 24-24", 12),
            "bohnenspiel 0,2,2,2,2,2/2,2,2,2,2,0 S 24-28"
        );
    }

    #[test]
    fn bohnenspiel_chain_wraps_from_pit_1_to_pit_12() {
        // North 11 (3 seeds): 12: 1->2, 1: 3->4, 2: 5->6. Take 2, 1, 12; pit 11 is 0.
        assert_eq!(
            after("bohnenspiel 3,5,6,6,6,6/6,6,6,6,3,1 N 6-6", 11),
            "bohnenspiel 0,0,6,6,6,6/6,6,6,6,0,0 S 6-18"
        );
    }

    #[test]
    fn bohnenspiel_chain_takes_whole_board_once() {
        // 25 seeds from pit 1: every pit twice, pit 2 a third time. All pits
        // then hold 2, 4 or 6: the chain takes all 12 pits, landing pit once.
        let q = play(&pos("bohnenspiel 25,1,2,2,2,2/2,2,2,2,2,2 S 13-13"), 1);
        assert_eq!(format(&q), "bohnenspiel 0,0,0,0,0,0/0,0,0,0,0,0 N 59-13");
        // Rule 3: North to move with no seeds: game over.
        assert_eq!(legal_moves(&q), Vec::<u32>::new());
        assert_eq!(final_totals(&q), Some([59, 13]));
    }

    #[test]
    fn bohnenspiel_end_rule_3() {
        // North to move, empty row: South (last mover) takes the board.
        let p = pos("bohnenspiel 1,0,3,0,0,2/0,0,0,0,0,0 N 30-36");
        assert!(legal_moves(&p).is_empty());
        assert_eq!(final_totals(&p), Some([36, 36]));
        // South to move with seeds: not over.
        let p = pos("bohnenspiel 1,0,3,0,0,2/0,0,0,0,0,0 S 30-36");
        assert_eq!(legal_moves(&p), vec![1, 3, 6]);
        assert_eq!(final_totals(&p), None);
    }

    // ----- Bohnenspiel-Hemprich -----

    #[test]
    fn hemprich_pass_and_end() {
        let p = pos("bohnenspiel-hemprich 1,0,3,0,0,2/0,0,0,0,0,0 N 30-36");
        assert_eq!(legal_moves(&p), vec![0]);
        assert_eq!(final_totals(&p), None);
        assert_eq!(
            format(&play(&p, 0)),
            "bohnenspiel-hemprich 1,0,3,0,0,2/0,0,0,0,0,0 S 30-36"
        );
        let e = pos("bohnenspiel-hemprich 0,0,0,0,0,0/0,0,0,0,0,0 S 30-42");
        assert!(legal_moves(&e).is_empty());
        assert_eq!(final_totals(&e), Some([30, 42]));
        // The capture of everything leaves an empty board: over, no pass.
        let q = play(
            &pos("bohnenspiel-hemprich 25,1,2,2,2,2/2,2,2,2,2,2 S 13-13"),
            1,
        );
        assert_eq!(final_totals(&q), Some([59, 13]));
        assert!(legal_moves(&q).is_empty());
    }

    #[test]
    fn hemprich_single_seed_cycle_replay_and_perft() {
        // One seed runs round the board; the forced line has period 22 plies
        // (12 sowings + 10 passes). Third occurrence at ply 44: split 1 seed,
        // the odd seed to South (to move).
        let p = pos("bohnenspiel-hemprich 0,0,0,0,0,1/0,0,0,0,0,0 S 35-36");
        let mut moves = vec![];
        let mut q = p.clone();
        for _ in 0..44 {
            let l = legal_moves(&q);
            assert_eq!(l.len(), 1);
            moves.push(l[0]);
            q = play(&q, l[0]);
        }
        assert_eq!(&moves[..4], &[6, 7, 0, 8]);
        let lines = replay(&p, &moves).unwrap();
        assert_eq!(lines.len(), 45);
        assert_eq!(lines[22].position, format(&p));
        assert!(!lines[22].over);
        assert!(!lines[43].over);
        assert!(lines[44].over);
        assert_eq!(lines[44].legal, Vec::<u32>::new());
        assert_eq!(lines[44].result, Some([36, 36]));
        assert_eq!(lines[44].position, format(&p));
        let mut more = moves.clone();
        more.push(6);
        assert_eq!(replay(&p, &more).unwrap_err(), "ply 45: illegal move 6");
        let counts = perft(&p, 46);
        assert!(counts[..44].iter().all(|&c| c == 1));
        assert_eq!(counts[44], 0);
        assert_eq!(counts[45], 0);
    }

    // ----- Al-manqala -----

    #[test]
    fn al_manqala_sowing_and_capture() {
        let p = start("al-manqala");
        assert_eq!(legal_moves(&p), vec![1, 2, 3, 4, 5, 6, 7]);
        assert_eq!(
            format(&play(&p, 1)),
            "al-manqala 0,8,8,8,8,8,8/8,7,7,7,7,7,7 N 0-0"
        );
        // Rule 3: 2 and 4 captured backwards, across rows; 6 is not.
        // South 6 (3 seeds): 7: 1->2, 8: 1->2, 9: 3->4. Take 9, 8, 7; pit 6 is 0.
        assert_eq!(
            after("al-manqala 7,7,7,7,7,3,1/1,3,7,7,7,7,7 S 10-10", 6),
            "al-manqala 7,7,7,7,7,0,0/0,0,7,7,7,7,7 N 18-10"
        );
        // Landing makes 6: no capture.
        assert_eq!(
            after("al-manqala 7,7,7,7,7,7,1/5,7,7,7,7,7,7 S 8-0", 7),
            "al-manqala 7,7,7,7,7,7,0/6,7,7,7,7,7,7 N 8-0"
        );
        // Chain stops at a 6 (which Bohnenspiel would take).
        // South 7 (2 seeds): 8: 5->6, 9: 3->4. Take 9 only.
        assert_eq!(
            after("al-manqala 7,7,7,7,7,7,2/5,3,7,7,7,7,7 S 11-0", 7),
            "al-manqala 7,7,7,7,7,7,0/6,0,7,7,7,7,7 N 15-0"
        );
    }

    #[test]
    fn al_manqala_feeding() {
        // North's row is empty: South must feed. Pit 1 (1 seed) stays home; pit 7 feeds.
        let p = pos("al-manqala 1,0,0,0,0,0,3/0,0,0,0,0,0,0 S 47-47");
        assert_eq!(legal_moves(&p), vec![7]);
        assert_eq!(
            format(&play(&p, 7)),
            "al-manqala 1,0,0,0,0,0,0/1,1,1,0,0,0,0 N 47-47"
        );
        // Captures included: pit 7 (21 seeds) puts 2 in every North pit then
        // takes them all, so it does not feed; pit 6 (1 seed) does not either.
        // Rule 4: the game ends, starved North takes every seed on the board.
        let p = pos("al-manqala 0,0,0,0,0,1,21/0,0,0,0,0,0,0 S 40-36");
        assert_eq!(
            format(&raw_move(&p, 6).unwrap()),
            "al-manqala 1,1,1,1,1,2,1/0,0,0,0,0,0,0 N 54-36"
        );
        assert!(legal_moves(&p).is_empty());
        assert_eq!(final_totals(&p), Some([40, 58]));
        // Same, but pit 6 with 2 seeds reaches pit 8: that move is the only one.
        let p = pos("al-manqala 0,0,0,0,0,2,21/0,0,0,0,0,0,0 S 39-36");
        assert_eq!(legal_moves(&p), vec![6]);
    }

    #[test]
    fn al_manqala_mover_with_empty_row() {
        // Rule 4 decision: each player takes their own row.
        let p = pos("al-manqala 0,0,0,0,0,0,0/1,2,0,0,0,0,0 S 50-45");
        assert!(legal_moves(&p).is_empty());
        assert_eq!(final_totals(&p), Some([50, 48]));
    }

    // ----- Bosh -----

    #[test]
    fn bosh_relay_and_capture() {
        // Rule 1/2 from the start: 1 -> 2..5 (5 each); next pit 6 holds 4:
        // lift, sow 7..10 (5 each); next pit 1 is empty: end, capture pit 2 (5).
        let p = start("bosh");
        assert_eq!(legal_moves(&p), vec![1, 2, 3, 4, 5]);
        assert_eq!(format(&play(&p, 1)), "bosh 0,0,5,5,5/0,5,5,5,5 N 5-0");
        // Two empty pits in a row: nothing captured.
        // South 5 (1 stone) -> 6: 1; next 7 empty, 8 empty: no capture.
        assert_eq!(
            after("bosh 1,1,1,1,1/0,0,0,0,0 S 20-15", 5),
            "bosh 1,1,1,1,0/1,0,0,0,0 N 20-15"
        );
        // Capture may take from the mover's own row:
        // North 10 (1 stone) -> 1: 0->1... next pit 2 empty, capture pit 3.
        assert_eq!(
            after("bosh 0,0,3,1,1/0,0,0,0,1 N 20-14", 10),
            "bosh 1,0,0,1,1/0,0,0,0,0 S 20-17"
        );
    }

    #[test]
    fn bosh_closed_pits() {
        // Closed pits are skipped for sowing, relay and capture.
        // South 5 (2): 6 and 7 closed -> 8: 1->2, 9: 0->1. Next open pit 10
        // holds 3: lift, sow 2, 3, 4 (1 closed). Next open 5 is empty
        // (lifted): capture the next open pit after 5, which is 8 (2 stones).
        assert_eq!(
            after("bosh x,0,0,0,2/x,x,1,0,3 S 10-24", 5),
            "bosh x,1,1,1,0/x,x,0,1,0 N 12-24"
        );
        // Relay "next pit" skips closed pits: South 4 (1) -> 5: 1->2;
        // next open after 5 is 8 (6, 7 closed), holds 2: lift, sow 9, 10.
        // Next open after 10 is 2 (1 closed), empty: capture pit 3 (3).
        assert_eq!(
            after("bosh x,0,3,1,1/x,x,2,0,0 S 15-18", 4),
            "bosh x,0,0,0,2/x,x,0,1,1 N 18-18"
        );
    }

    #[test]
    fn bosh_endless_move_is_illegal_and_round_end() {
        // Only pits 5 and 10 open. South 5 (2): 10:1->2, 5:0->1; next 10 holds 2:
        // lift: 5:1->2, 10:0->1; next 5 holds 2: lift: 10:1->2, 5:0->1 ... the
        // state after lifting repeats: endless. No legal move: the round ends,
        // North takes every stone on the board.
        let p = pos("bosh x,x,x,x,2/x,x,x,x,1 S 20-17");
        assert!(raw_move(&p, 4).is_none());
        assert!(legal_moves(&p).is_empty());
        assert_eq!(final_totals(&p), Some([20, 20]));
        // A finite one: 5 (1) -> 10: 1->2; next open 5 empty: capture 10 (2).
        let p = pos("bosh x,x,x,x,1/x,x,x,x,1 S 20-18");
        assert_eq!(
            after("bosh x,x,x,x,1/x,x,x,x,1 S 20-18", 5),
            "bosh x,x,x,x,0/x,x,x,x,0 N 22-18"
        );
        assert_eq!(final_totals(&p), None);
        // Rule 3: mover with no stones in open pits.
        let p = pos("bosh 0,0,0,0,0/1,2,0,0,3 S 20-14");
        assert!(legal_moves(&p).is_empty());
        assert_eq!(final_totals(&p), Some([20, 20]));
    }

    #[test]
    fn bosh_long_finite_moves_exist() {
        // The rule book: finite moves of over 90 relays occur eight plies
        // from the start. Not checked here in detail; just play 8 plies of
        // every line of a small perft without panicking.
        let c = perft(&start("bosh"), 3);
        assert_eq!(c[0], 5);
    }

    // ----- Djenon-abe -----

    #[test]
    fn djenon_relay_end_and_capture() {
        // c = 1: end, nothing captured.
        assert_eq!(
            after("djenon-abe 1,0,0,0,0,3/3,3,3,3,3,3 S 12-14", 1),
            "djenon-abe 0,1,0,0,0,3/3,3,3,3,3,3 N 12-14"
        );
        // c = 2 and 4: capture, chain backwards over 2s and 4s.
        // South 6 (2): 7: 1->2, 8: 3->4. Take 8, 7; pit 6 is 0.
        assert_eq!(
            after("djenon-abe 4,4,4,4,4,2/1,3,4,4,4,4 S 6-0", 6),
            "djenon-abe 4,4,4,4,4,0/0,0,4,4,4,4 N 12-0"
        );
        // c = 3: relay. South 6 (1): 7: 2->3, lift 3: 8, 9, 10: 0->1: end.
        assert_eq!(
            after("djenon-abe 4,4,4,4,4,1/2,0,0,0,4,4 S 10-7", 6),
            "djenon-abe 4,4,4,4,4,0/0,1,1,1,4,4 N 10-7"
        );
        // c = 6: relay, not capture. South 6 (1): 7: 5->6, lift 6: 8..12 and 1.
        // Pit 1: 0->1: end. (8: 1->2 is not a landing pit: no capture.)
        assert_eq!(
            after("djenon-abe 0,4,4,4,4,1/5,1,0,0,0,0 S 10-15", 6),
            "djenon-abe 1,4,4,4,4,0/0,2,1,1,1,1 N 10-15"
        );
        // c = 4 after a relay, chain across rows back to the relay pit:
        // South 6 (1): 7: 2->3 relay; lift 3: 8: 1->2, 9: 0->1, 10: 3->4.
        // Take 10 (4); 9 holds 1: stop.
        assert_eq!(
            after("djenon-abe 4,4,4,4,4,1/2,1,0,3,4,4 S 8-5", 6),
            "djenon-abe 4,4,4,4,4,0/0,2,1,0,4,4 N 12-5"
        );
        // The first lap starts at the pit after the origin, the origin
        // is sown into on a lap: South 1 (12): 2..12 and 1: 0->1: end.
        assert_eq!(
            after("djenon-abe 12,0,0,0,0,0/0,0,0,0,0,0 S 18-18", 1),
            "djenon-abe 1,1,1,1,1,1/1,1,1,1,1,1 N 18-18"
        );
    }

    #[test]
    fn djenon_start_move() {
        // South 1 from the start, worked by hand:
        // lift 4 @1: 2..5 -> 5 each; c=5 relay @5: 6..10 -> 6:5, 7..10: 5;
        // c=5 relay @10: 11:5, 12:5, 1:1, 2:6, 3:6; c=6 relay @3:
        // 4:6, 5:1, 6:6, 7:6, 8:6, 9:6; c=6 relay @9: 10:1, 11:6, 12:6,
        // 1:2, 2:7, 3:1; c=1: end.
        assert_eq!(
            format(&play(&start("djenon-abe"), 1)),
            "djenon-abe 2,7,1,6,1,6/6,6,0,1,6,6 N 0-0"
        );
    }

    #[test]
    fn djenon_feeding_and_end() {
        // North's row empty: South must feed. Pit 1 (1) -> 2 does not; pit 6 (1) -> 7 does.
        let p = pos("djenon-abe 1,0,0,0,0,1/0,0,0,0,0,0 S 23-23");
        assert_eq!(legal_moves(&p), vec![6]);
        // No feeding move: game over; South keeps 2 but gives one (final gift).
        let p = pos("djenon-abe 1,1,0,0,0,0/0,0,0,0,0,0 S 23-23");
        assert!(legal_moves(&p).is_empty());
        assert_eq!(final_totals(&p), Some([24, 24]));
        // Mover with an empty row: North keeps 3, gives one to South.
        let p = pos("djenon-abe 0,0,0,0,0,0/3,0,0,0,0,0 S 20-25");
        assert!(legal_moves(&p).is_empty());
        assert_eq!(final_totals(&p), Some([21, 27]));
        // Each player exactly one seed: over, each takes their own.
        let p = pos("djenon-abe 0,0,0,0,0,1/1,0,0,0,0,0 S 20-26");
        assert!(legal_moves(&p).is_empty());
        assert_eq!(final_totals(&p), Some([21, 27]));
        // One seed to South, two to North: play goes on.
        let p = pos("djenon-abe 0,0,0,0,0,1/1,1,0,0,0,0 S 20-25");
        assert_eq!(legal_moves(&p), vec![6]);
        // Empty board: over, no gift.
        let p = pos("djenon-abe 0,0,0,0,0,0/0,0,0,0,0,0 N 20-28");
        assert_eq!(final_totals(&p), Some([20, 28]));
    }

    #[test]
    fn cycle_split() {
        let p = pos("bosh 1,0,0,0,0/0,0,0,0,2 N 20-17");
        assert_eq!(cycle_totals(&p), [21, 19]);
        let p = pos("bosh 1,0,0,0,0/0,0,0,0,2 S 20-17");
        assert_eq!(cycle_totals(&p), [22, 18]);
        let p = pos("al-manqala 2,0,0,0,0,0,0/0,0,0,0,0,0,2 S 47-47");
        assert_eq!(cycle_totals(&p), [49, 49]);
    }

    #[test]
    fn start_perft_small() {
        assert_eq!(perft(&start("bohnenspiel"), 2), vec![6, 36]);
        assert_eq!(perft(&start("al-manqala"), 2), vec![7, 49]);
    }
}
