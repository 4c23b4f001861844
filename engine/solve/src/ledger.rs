//! A proof in pieces: the ledger of a proof too long for one run.
//!
//! The tree from a root is cut at a *frontier*: every position fewer than
//! `depth` plies from the root (transpositions merged) is *interior*, and
//! every child of an interior position that is not interior itself, and not
//! a finished game, is a *piece*. Each piece is proven on its own, by
//! whatever process takes it, and its result is written to the ledger; the
//! root's value is the minimax of the pieces' values over the interior,
//! which is small enough to walk along every path.
//!
//! **The cycle rule across pieces.** The solver scores a position that
//! repeats one on the line as the cycle-rule split. A piece is proven with
//! every interior position held as an [`Ancestors`] set: reaching one of
//! them counts as a repetition, and the solver says whether its result
//! leaned on one ([`Solver::take_leaned`]). A value that leaned on none is
//! the piece's own whichever path through the interior led to it (no line
//! below it came back up), and the walk over the interior applies the
//! cycle rule itself along each path. A piece whose proof leaned on the
//! interior is split instead: it becomes interior, where its repetitions
//! are scored exactly, and its children become pieces.
//!
//! **Splitting.** A piece that does not finish within its budget is split
//! too. Every split starts a new *generation* of the interior; a piece
//! records the generation of the interior its proof held as ancestors, and
//! its value is used on a path only if every interior position of the path
//! is that old (else it is proven again).
//!
//! **Independent proofs.** A piece is *solved* after one proof and
//! *proven* after a second one with another table size that agrees. The
//! ledger reports the root's bounds from both.

use super::{Ancestors, Outcome, Proof, Solver, Stop};
use crate::values::BoardValues;
use mancala_rules::repetition::Line;
use mancala_rules::Move;
use mancala_rules::Position;
use mancala_rules::{Rules, Status};
use std::collections::{HashMap, HashSet};
use std::fmt::Write as _;

/// The deepest frontier a ledger may be cut at.
pub const MAX_DEPTH: u32 = 8;

/// The most seconds a piece's line may give (a thousand years): more is
/// damage, and a sum of such lines stays finite.
const MAX_SECONDS: f64 = 3.2e10;

/// What is known of a piece.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum State {
    /// Not proven yet: its value (the final margin for the side to move)
    /// is between the bounds.
    Open {
        /// The value is at least this.
        lower: i32,
        /// The value is at most this.
        upper: i32,
    },
    /// Proven once, with the tables to `tables` seeds (0: none).
    Solved {
        /// The value.
        value: i32,
        /// A move that keeps it.
        best: Move,
        /// The largest table layer the proof read.
        tables: u32,
    },
    /// Proven twice, with two table sizes, to the same value.
    Proven {
        /// The value.
        value: i32,
        /// A move that keeps it.
        best: Move,
        /// The largest table layer each proof read.
        tables: [u32; 2],
    },
    /// Two proofs disagree: a bug in the program or in a table. Never used
    /// in the root's value; reported.
    Conflict {
        /// The two values.
        values: [i32; 2],
        /// The largest table layer each proof read.
        tables: [u32; 2],
    },
    /// Made interior: its children are pieces.
    Split,
}

/// A process working on a piece, and until when its claim holds (seconds
/// since the Unix epoch): others leave the piece alone until then.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Claim {
    /// Who (`host:pid`, or an MPI rank).
    pub by: String,
    /// Until when.
    pub until: u64,
}

/// One piece of the proof.
#[derive(Clone, Debug, PartialEq)]
pub struct Piece<R: Rules> {
    /// The position.
    pub pos: Position<R>,
    /// What is proven of it.
    pub state: State,
    /// Positions its proofs visited, in all.
    pub nodes: u64,
    /// Seconds its proofs took, in all.
    pub seconds: f64,
    /// The generation of the interior its proof held as ancestors.
    pub generation: u32,
    /// Proofs stopped by their budget.
    pub tries: u32,
    /// A process working on it.
    pub claim: Option<Claim>,
}

/// What a proof of a piece gave. With the `serde` feature it is also
/// what goes over the wire between the ranks of a job (a move as its pit
/// number; check it against the piece with [`Found::legal_in`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum Found {
    /// Its value and a move that keeps it, with the tables to `tables`
    /// seeds, the interior of `generation` held as ancestors.
    Value {
        /// The value.
        value: i32,
        /// A move that keeps it.
        #[cfg_attr(feature = "serde", serde(with = "pit"))]
        best: Move,
        /// The largest table layer read.
        tables: u32,
        /// The interior's generation.
        generation: u32,
    },
    /// Stopped before the value, with these bounds; `budget`: by its budget
    /// (the piece is then split), not by the user.
    Bounds {
        /// The value is at least this.
        lower: i32,
        /// The value is at most this.
        upper: i32,
        /// Whether the piece's budget stopped it.
        budget: bool,
    },
    /// The proof leaned on a repetition of the interior: the piece is split.
    Leaned,
}

impl Found {
    /// This result, with a stop marked as the piece's budget's doing
    /// (`budget`) or not.
    pub fn stopped_by(self, budget: bool) -> Found {
        match self {
            Found::Bounds { lower, upper, .. } => Found::Bounds {
                lower,
                upper,
                budget,
            },
            f => f,
        }
    }

    /// This result, if its move (a value's best move) is legal in `pos`,
    /// the piece it is a proof of: a result read from elsewhere is checked
    /// before it is recorded.
    pub fn legal_in<R: Rules>(self, pos: &Position<R>) -> Option<Found> {
        match self {
            Found::Value { best, .. } if !pos.legal_moves().contains(best) => None,
            f => Some(f),
        }
    }
}

/// A move as its pit number, for the wire.
#[cfg(feature = "serde")]
mod pit {
    use mancala_rules::Move;

    pub fn serialize<S: serde::Serializer>(mv: &Move, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_u8(mv.pit())
    }

    pub fn deserialize<'d, D: serde::Deserializer<'d>>(d: D) -> Result<Move, D::Error> {
        <u8 as serde::Deserialize>::deserialize(d).map(Move::from_pit)
    }
}

/// A piece's proof, for one process.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Work<R: Rules> {
    /// The piece.
    pub pos: Position<R>,
    /// The game's positions from the root to the piece's parent, oldest
    /// first: the proof's history.
    pub history: Vec<Position<R>>,
    /// The kind of proof.
    pub kind: WorkKind,
}

/// Which proof a piece needs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum WorkKind {
    /// Its first proof.
    First,
    /// The second, independent proof, with tables of fewer seeds than
    /// `first` (the first proof's largest layer): up to `below - 1`.
    Check {
        /// Hide the layers of this many seeds and more.
        below: u32,
    },
    /// Proven before the interior grew on one of its paths: proven again
    /// from scratch with the interior of today.
    Again,
}

/// How a ledger file is wrong.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
#[error("line {line}: {problem}")]
pub struct LedgerError {
    /// The line (1-based; 0: the file as a whole).
    pub line: usize,
    /// What is wrong.
    pub problem: LedgerProblem,
}

/// What is wrong with a ledger, or with a line of one. Positions are
/// kept as written (the error is the same for every game).
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum LedgerProblem {
    /// A depth out of range.
    #[error("depth {0}: from 1 to {MAX_DEPTH}")]
    Depth(u32),
    /// A root whose game is over.
    #[error("{0}: the game is over, nothing to prove")]
    GameOver(String),
    /// A split that is no piece of the tree.
    #[error("split {0} is not a piece of the ledger")]
    SplitNotAPiece(String),
    /// A position that does not parse.
    #[error("'{text}': {error}")]
    Position {
        /// The text.
        text: String,
        /// Why it is no position.
        error: mancala_rules::PositionError,
    },
    /// `depth` followed by no number.
    #[error("'depth N'")]
    DepthLine,
    /// A line of an unknown kind.
    #[error("unexpected '{0}'")]
    Unexpected(String),
    /// No `root` line.
    #[error("no 'root POSITION' line")]
    NoRoot,
    /// No `depth` line.
    #[error("no 'depth N' line")]
    NoDepth,
    /// A piece given twice.
    #[error("{0} has two lines")]
    TwoLines(String),
    /// Pieces that are not the frontier of the root.
    #[error("the pieces are not the frontier of the root at depth {depth} with its splits ({lines} lines, {expected} expected)")]
    NotTheFrontier {
        /// The ledger's depth.
        depth: u32,
        /// The piece lines.
        lines: usize,
        /// The frontier's size.
        expected: usize,
    },
    /// A split whose piece is not marked split.
    #[error("split {0}: its piece is not marked split")]
    SplitNotMarked(String),
    /// A piece marked split with no split line.
    #[error("a piece is marked split without a 'split' line")]
    MarkedSplitWithoutLine,
    /// A piece line without its state.
    #[error("no state")]
    NoState,
    /// A bound that is not a number.
    #[error("'{0}' is not a number")]
    NotANumber(String),
    /// A seed count that is not one.
    #[error("'{0}' is not a seed count")]
    NotASeedCount(String),
    /// A margin beyond the game's seeds.
    #[error("margin {0} is out of range")]
    MarginOutOfRange(i32),
    /// A value the piece's seeds cannot give (an edited or damaged line).
    #[error("{value:+} cannot be the value of {position}: its seeds allow {least:+} to {most:+}")]
    ValueCannotBe {
        /// The value written.
        value: i32,
        /// The least margin the seeds allow.
        least: i32,
        /// The most.
        most: i32,
        /// The piece.
        position: String,
    },
    /// The checksum line does not match the lines above it.
    #[error("the checksum does not match the ledger's lines: it was edited or damaged")]
    Checksum,
    /// A checksum line that does not read, or is not the last line.
    #[error("'checksum HEX' must be the last line, once")]
    ChecksumLine,
    /// A move that is not a pit number.
    #[error("'{0}' is not a pit")]
    NotAPit(String),
    /// A move that is not legal in its piece.
    #[error("{pit} is not a legal move of {position}")]
    IllegalMove {
        /// The pit.
        pit: u8,
        /// The piece's position.
        position: String,
    },
    /// A lower bound above the upper.
    #[error("bounds cross")]
    BoundsCross,
    /// A state word that is none.
    #[error("unknown state '{0}'")]
    UnknownState(String),
    /// A field whose value does not read.
    #[error("'{0}'")]
    BadField(String),
    /// A count too large for its field.
    #[error("{0}")]
    CountTooLarge(&'static str),
    /// A claim that does not read.
    #[error("'{0}': 'claim WHO until SECONDS'")]
    BadClaim(String),
    /// A field of an unknown name.
    #[error("unknown field '{0}'")]
    UnknownField(String),
}

fn bad(line: usize, problem: LedgerProblem) -> LedgerError {
    LedgerError { line, problem }
}

/// The interior and the frontier, derived from the root, the depth and
/// the splits.
#[derive(Clone, Debug)]
struct Tree<R: Rules> {
    /// Every interior position by key: the position and its generation.
    interior: HashMap<u128, (Position<R>, u32)>,
    /// Each position's parent on the path it was first reached by.
    parent: HashMap<u128, u128>,
    /// The pieces, in the order they were reached (splits' children last).
    frontier: Vec<Position<R>>,
}

impl<R: Rules> Tree<R> {
    fn new(root: &Position<R>, depth: u32, splits: &[Position<R>]) -> Result<Self, LedgerProblem> {
        let mut tree = Tree {
            interior: HashMap::new(),
            parent: HashMap::new(),
            frontier: Vec::new(),
        };
        let mut seen = HashSet::from([root.key()]);
        let mut level = vec![*root];
        for _ in 0..depth {
            let mut next = Vec::new();
            for pos in &level {
                if is_over(pos) {
                    continue;
                }
                tree.interior.insert(pos.key(), (*pos, 0));
                for (_, child) in pos.children() {
                    if seen.insert(child.key()) {
                        tree.parent.insert(child.key(), pos.key());
                        next.push(child);
                    }
                }
            }
            level = next;
        }
        tree.frontier = level.into_iter().filter(|p| !is_over(p)).collect();
        for (i, split) in splits.iter().enumerate() {
            let key = split.key();
            if tree.interior.contains_key(&key) || !tree.frontier.iter().any(|p| p.key() == key) {
                return Err(LedgerProblem::SplitNotAPiece(split.to_string()));
            }
            tree.frontier.retain(|p| p.key() != key);
            tree.interior.insert(key, (*split, i as u32 + 1));
            for (_, child) in split.children() {
                if seen.insert(child.key()) {
                    tree.parent.insert(child.key(), key);
                    if !is_over(&child) {
                        tree.frontier.push(child);
                    }
                }
            }
        }
        Ok(tree)
    }
}

fn is_over<R: Rules>(pos: &Position<R>) -> bool {
    matches!(pos.status(), Status::Over(_))
}

/// Which results the root's value is taken from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Grade {
    /// Pieces proven at least once.
    Solved,
    /// Pieces proven twice.
    Proven,
}

/// A proof's ledger: the root, the frontier and every piece's state.
#[derive(Clone, Debug)]
pub struct Ledger<R: Rules> {
    root: Position<R>,
    depth: u32,
    /// The pieces split, in order: the i-th starts generation i + 1.
    splits: Vec<Position<R>>,
    pieces: Vec<Piece<R>>,
    /// Where each piece is in `pieces`.
    index: HashMap<u128, usize>,
    tree: Tree<R>,
}

/// The pieces of a ledger by state ([`Ledger::counts`]).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Counts {
    /// Open pieces.
    pub open: usize,
    /// Pieces solved once.
    pub solved: usize,
    /// Pieces proven twice.
    pub proven: usize,
    /// Pieces split.
    pub split: usize,
    /// Pieces whose proofs disagree.
    pub conflict: usize,
    /// Positions the proofs visited, in all.
    pub nodes: u64,
    /// Seconds the proofs took, in all.
    pub seconds: f64,
}

/// What the ledger shows of the root.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Standing {
    /// The root's value is between these, from the pieces solved at least
    /// once.
    pub solved: (i32, i32),
    /// The same from the pieces proven twice.
    pub proven: (i32, i32),
    /// Each first move's bounds (from the pieces solved at least once).
    pub moves: Vec<(Move, i32, i32)>,
}

impl<R: Rules> Ledger<R> {
    /// A new ledger for `root`, cut `depth` plies deep (1 to
    /// [`MAX_DEPTH`]), every piece open.
    pub fn new(root: Position<R>, depth: u32) -> Result<Self, LedgerError> {
        let mut ledger = Self::cut(root, depth, Vec::new())?;
        ledger.add_frontier();
        Ok(ledger)
    }

    /// The ledger of `root` cut `depth` plies deep with `splits`, no piece
    /// yet.
    fn cut(root: Position<R>, depth: u32, splits: Vec<Position<R>>) -> Result<Self, LedgerError> {
        if !(1..=MAX_DEPTH).contains(&depth) {
            return Err(bad(0, LedgerProblem::Depth(depth)));
        }
        if is_over(&root) {
            return Err(bad(0, LedgerProblem::GameOver(root.to_string())));
        }
        let tree = Tree::new(&root, depth, &splits).map_err(|e| bad(0, e))?;
        Ok(Ledger {
            root,
            depth,
            splits,
            pieces: Vec::new(),
            index: HashMap::new(),
            tree,
        })
    }

    /// Adds a fresh piece for every frontier position without one.
    fn add_frontier(&mut self) {
        let total = R::TOTAL as i32;
        let generation = self.generation();
        for pos in &self.tree.frontier {
            if !self.index.contains_key(&pos.key()) {
                self.index.insert(pos.key(), self.pieces.len());
                self.pieces.push(Piece {
                    pos: *pos,
                    state: State::Open {
                        lower: -total,
                        upper: total,
                    },
                    nodes: 0,
                    seconds: 0.0,
                    generation,
                    tries: 0,
                    claim: None,
                });
            }
        }
    }

    /// The root.
    pub fn root(&self) -> &Position<R> {
        &self.root
    }

    /// The frontier's depth.
    pub fn depth(&self) -> u32 {
        self.depth
    }

    /// The interior's generation: the number of pieces split.
    pub fn generation(&self) -> u32 {
        self.splits.len() as u32
    }

    /// Every piece, in the ledger's order.
    pub fn pieces(&self) -> &[Piece<R>] {
        &self.pieces
    }

    /// The piece at `pos`, if it is one.
    pub fn piece(&self, pos: &Position<R>) -> Option<&Piece<R>> {
        self.index.get(&pos.key()).map(|&i| &self.pieces[i])
    }

    /// The interior of today, for a proof's [`Ancestors`].
    pub fn ancestors(&self) -> Ancestors {
        Ancestors::of(self.tree.interior.values().map(|(p, _)| p))
    }

    /// What is proven of the root and of each first move.
    pub fn standing(&self) -> Standing {
        let mut walk = Walk::new(self, Grade::Solved);
        let solved = walk.bounds(&self.root, 0);
        let moves: Vec<(Move, i32, i32)> = self
            .root
            .children()
            .into_iter()
            .map(|(mv, child)| {
                walk.line.push(&self.root);
                let (l, u, _) = walk.value(&child, 0);
                walk.line.pop();
                let (l, u) = child.bounds_for_parent(&self.root, (l, u));
                (mv, l, u)
            })
            .collect();
        let proven = Walk::new(self, Grade::Proven).bounds(&self.root, 0);
        // Nothing proven is said as the root's whole range, not the game's.
        let (least, most) = self.root.margin_range();
        let seen = |(l, u): (i32, i32)| (l.clamp(least, most), u.clamp(least, most));
        Standing {
            solved: seen(solved),
            proven: seen(proven),
            moves: moves
                .into_iter()
                .map(|(mv, l, u)| {
                    let (l, u) = seen((l, u));
                    (mv, l, u)
                })
                .collect(),
        }
    }

    /// The pieces whose value can still change the root's bounds from the
    /// pieces of `grade`, each with the path it is needed on and whether
    /// its proof is too old for that path; in the order of the interior's
    /// moves.
    fn needed(&self, grade: Grade) -> Vec<(usize, Vec<Position<R>>, bool)> {
        let mut walk = Walk::new(self, grade);
        let mut out = Vec::new();
        let mut seen = HashSet::new();
        walk.collect(&self.root, &mut Vec::new(), 0, &mut seen, &mut out);
        out
    }

    /// The next proof to make, for a process whose tables reach `top`
    /// seeds (0: none): a needed piece that nobody holds a claim on (`lapsed`
    /// says which claims no longer hold: past their time, or their process
    /// gone), open first, then a second proof of a solved one (which needs
    /// tables of another size than the first proof's). A piece below
    /// `prefer` (a piece just split) goes first. `None` when nothing needed
    /// is left to this process.
    pub fn next_work(
        &self,
        top: u32,
        lapsed: &dyn Fn(&Claim) -> bool,
        prefer: Option<&Position<R>>,
    ) -> Option<Work<R>> {
        let free = |i: usize| self.pieces[i].claim.as_ref().is_none_or(lapsed);
        let mut first: Vec<(usize, Vec<Position<R>>, WorkKind)> = self
            .needed(Grade::Solved)
            .into_iter()
            .filter(|(i, _, _)| free(*i))
            .filter_map(|(i, path, stale)| match self.pieces[i].state {
                _ if stale => Some((i, path, WorkKind::Again)),
                State::Open { .. } => Some((i, path, WorkKind::First)),
                _ => None,
            })
            .collect();
        if first.is_empty() {
            first =
                self.needed(Grade::Proven)
                    .into_iter()
                    .filter(|(i, _, _)| free(*i))
                    .filter_map(|(i, path, _)| match self.pieces[i].state {
                        State::Solved { tables, .. } => check_tables(tables, top)
                            .map(|below| (i, path, WorkKind::Check { below })),
                        _ => None,
                    })
                    .collect();
        }
        let below_preferred = first.iter().position(|(_, path, _)| {
            path.last()
                .zip(prefer)
                .is_some_and(|(q, p)| q.key() == p.key())
        });
        if first.is_empty() {
            return None;
        }
        let (i, history, kind) = first.swap_remove(below_preferred.unwrap_or(0));
        Some(Work {
            pos: self.pieces[i].pos,
            history,
            kind,
        })
    }

    /// Claims the piece at `pos` for `by` until `until`.
    pub fn claim(&mut self, pos: &Position<R>, by: &str, until: u64) {
        if let Some(&i) = self.index.get(&pos.key()) {
            self.pieces[i].claim = Some(Claim {
                by: by.to_string(),
                until,
            });
        }
    }

    /// Records a proof of the piece at `pos` (`kind` as handed out), with
    /// the positions and seconds it took, and releases its claim. A piece
    /// whose proof ran out of budget or leaned on the interior is split:
    /// returns whether it was.
    pub fn record(
        &mut self,
        pos: &Position<R>,
        kind: WorkKind,
        found: Found,
        nodes: u64,
        seconds: f64,
    ) -> bool {
        let Some(&i) = self.index.get(&pos.key()) else {
            return false;
        };
        let piece = &mut self.pieces[i];
        piece.claim = None;
        piece.nodes += nodes;
        piece.seconds += seconds;
        if piece.state == State::Split {
            return false;
        }
        match found {
            Found::Value {
                value,
                best,
                tables,
                generation,
            } => {
                let fresh = State::Solved {
                    value,
                    best,
                    tables,
                };
                match piece.state {
                    // A first proof, or one made again for a newer interior.
                    _ if kind == WorkKind::Again || matches!(piece.state, State::Open { .. }) => {
                        piece.state = fresh;
                        piece.generation = generation;
                    }
                    State::Solved {
                        value: v,
                        best: b,
                        tables: t,
                    } if t != tables => {
                        piece.state = if v == value {
                            State::Proven {
                                value,
                                best: b,
                                tables: [t, tables],
                            }
                        } else {
                            State::Conflict {
                                values: [v, value],
                                tables: [t, tables],
                            }
                        };
                        piece.generation = piece.generation.min(generation);
                    }
                    State::Solved {
                        value: v,
                        tables: t,
                        ..
                    }
                    | State::Proven {
                        value: v,
                        tables: [t, _],
                        ..
                    } if v != value => {
                        piece.state = State::Conflict {
                            values: [v, value],
                            tables: [t, tables],
                        };
                    }
                    _ => {}
                }
                false
            }
            Found::Bounds {
                lower,
                upper,
                budget,
            } => {
                if let State::Open { lower: l, upper: u } = piece.state {
                    piece.state = State::Open {
                        lower: l.max(lower),
                        upper: u.min(upper),
                    };
                }
                if budget {
                    // Too big for its budget: its children are smaller.
                    piece.tries += 1;
                    self.split(pos);
                    return true;
                }
                false
            }
            Found::Leaned => {
                self.split(pos);
                true
            }
        }
    }

    /// Makes the piece at `pos` interior: its children become pieces, and
    /// the interior's generation goes up by one.
    fn split(&mut self, pos: &Position<R>) {
        let i = self.index[&pos.key()];
        self.pieces[i].state = State::Split;
        self.pieces[i].claim = None;
        self.splits.push(*pos);
        self.tree = Tree::new(&self.root, self.depth, &self.splits).expect("a piece can be split");
        self.add_frontier();
    }

    /// Whether any piece's two proofs disagree.
    pub fn conflicts(&self) -> Vec<&Piece<R>> {
        self.pieces
            .iter()
            .filter(|p| matches!(p.state, State::Conflict { .. }))
            .collect()
    }

    /// How many pieces are in each state, and the proofs' positions and
    /// seconds in all.
    pub fn counts(&self) -> Counts {
        let mut c = Counts::default();
        for p in &self.pieces {
            *match p.state {
                State::Open { .. } => &mut c.open,
                State::Solved { .. } => &mut c.solved,
                State::Proven { .. } => &mut c.proven,
                State::Split => &mut c.split,
                State::Conflict { .. } => &mut c.conflict,
            } += 1;
            c.nodes = c.nodes.saturating_add(p.nodes);
            c.seconds += p.seconds;
        }
        c
    }

    /// The ledger as text ([`parse`](Self::parse) reads it back).
    pub fn format(&self) -> String {
        let mut s = String::new();
        let st = self.standing();
        let show = |(l, u): (i32, i32)| {
            if l == u {
                format!("{l:+} ({})", Outcome::of_margin(l).name())
            } else {
                format!("between {l:+} and {u:+}")
            }
        };
        let _ = writeln!(
            s,
            "# mancala proof ledger: docs/solved.md, \"Proving in pieces\"."
        );
        let _ = writeln!(s, "# Worked by `mancala solve --ledger FILE`; the summary lines (#) are rewritten each time.");
        let _ = writeln!(s, "# root value (pieces solved once): {}", show(st.solved));
        let _ = writeln!(s, "# root value (pieces proven twice): {}", show(st.proven));
        for (mv, l, u) in &st.moves {
            let _ = writeln!(s, "# first move {mv}: {}", show((*l, *u)));
        }
        let c = self.counts();
        let _ = writeln!(
            s,
            "# pieces: {} open, {} solved, {} proven, {} split, {} in conflict; {} interior positions; {} positions and {:.0} s of proof",
            c.open, c.solved, c.proven, c.split, c.conflict,
            self.tree.interior.len(),
            c.nodes, c.seconds,
        );
        let _ = writeln!(s, "root {}", self.root);
        let _ = writeln!(s, "depth {}", self.depth);
        for p in &self.splits {
            let _ = writeln!(s, "split {p}");
        }
        for p in &self.pieces {
            let state = match p.state {
                State::Open { lower, upper } => format!("open {lower:+} {upper:+}"),
                State::Solved {
                    value,
                    best,
                    tables,
                } => format!("solved {value:+} best {best} tables {tables}"),
                State::Proven {
                    value,
                    best,
                    tables: [a, b],
                } => format!("proven {value:+} best {best} tables {a} {b}"),
                State::Conflict {
                    values: [v, w],
                    tables: [a, b],
                } => format!("conflict {v:+} {w:+} tables {a} {b}"),
                State::Split => "split".to_string(),
            };
            let _ = write!(
                s,
                "piece {} | {state} | nodes {} | seconds {:.1} | generation {} | tries {}",
                p.pos, p.nodes, p.seconds, p.generation, p.tries
            );
            if let Some(c) = &p.claim {
                let _ = write!(s, " | claim {} until {}", c.by, c.until);
            }
            s.push('\n');
        }
        let _ = writeln!(s, "checksum {:016x}", checksum(&s));
        s
    }

    /// Reads a ledger written by [`format`](Self::format), checking that
    /// its pieces are exactly the frontier of its root, depth and splits,
    /// that every value is one its piece's seeds allow, and that its last
    /// line's checksum covers the lines above it. A ledger without a
    /// checksum line (written before there was one) is read, its values
    /// checked against the seeds only; [`Ledger::format`] adds one.
    pub fn parse(text: &str) -> Result<Self, LedgerError> {
        Self::parse_checked(text).map(|(ledger, _)| ledger)
    }

    /// [`parse`](Self::parse), and whether the file had a checksum line.
    pub fn parse_checked(text: &str) -> Result<(Self, bool), LedgerError> {
        let mut root: Option<Position<R>> = None;
        let mut depth = None;
        let mut splits = Vec::new();
        let mut pieces = Vec::new();
        let mut summed = false;
        for (n, raw) in text.lines().enumerate() {
            let line = n + 1;
            let entry = raw.trim();
            if summed && !entry.is_empty() {
                return Err(bad(line, LedgerProblem::ChecksumLine));
            }
            if let Some(stated) = entry.strip_prefix("checksum ") {
                let stated = u64::from_str_radix(stated, 16)
                    .map_err(|_| bad(line, LedgerProblem::ChecksumLine))?;
                let offset = raw.as_ptr() as usize - text.as_ptr() as usize;
                if checksum(&text[..offset]) != stated {
                    return Err(bad(line, LedgerProblem::Checksum));
                }
                summed = true;
                continue;
            }
            if entry.is_empty() || entry.starts_with('#') {
                continue;
            }
            let (word, rest) = entry.split_once(' ').unwrap_or((entry, ""));
            let position = |text: &str| {
                text.trim().parse::<Position<R>>().map_err(|error| {
                    bad(
                        line,
                        LedgerProblem::Position {
                            text: text.trim().to_string(),
                            error,
                        },
                    )
                })
            };
            match word {
                "root" if root.is_none() => root = Some(position(rest)?),
                "depth" if depth.is_none() => {
                    depth = Some(
                        rest.trim()
                            .parse::<u32>()
                            .map_err(|_| bad(line, LedgerProblem::DepthLine))?,
                    )
                }
                "split" => splits.push(position(rest)?),
                "piece" => pieces.push((line, parse_piece::<R>(line, rest)?)),
                _ => return Err(bad(line, LedgerProblem::Unexpected(word.to_string()))),
            }
        }
        let root = root.ok_or_else(|| bad(0, LedgerProblem::NoRoot))?;
        let depth = depth.ok_or_else(|| bad(0, LedgerProblem::NoDepth))?;
        let mut ledger = Self::cut(root, depth, splits)?;
        for (line, piece) in pieces {
            if ledger
                .index
                .insert(piece.pos.key(), ledger.pieces.len())
                .is_some()
            {
                return Err(bad(line, LedgerProblem::TwoLines(piece.pos.to_string())));
            }
            ledger.pieces.push(piece);
        }
        let frontier = ledger.tree.frontier.len() + ledger.splits.len();
        if ledger.pieces.len() != frontier
            || ledger
                .tree
                .frontier
                .iter()
                .any(|p| !ledger.index.contains_key(&p.key()))
        {
            return Err(bad(
                0,
                LedgerProblem::NotTheFrontier {
                    depth,
                    lines: ledger.pieces.len(),
                    expected: frontier,
                },
            ));
        }
        for s in &ledger.splits {
            if ledger.piece(s).map(|p| p.state) != Some(State::Split) {
                return Err(bad(0, LedgerProblem::SplitNotMarked(s.to_string())));
            }
        }
        if ledger
            .pieces
            .iter()
            .filter(|p| p.state == State::Split)
            .count()
            != ledger.splits.len()
        {
            return Err(bad(0, LedgerProblem::MarkedSplitWithoutLine));
        }
        Ok((ledger, summed))
    }
}

/// The checksum of a ledger's text above its checksum line: FNV-1a of its
/// lines that are not summaries (`#`), each with its newline, so that the
/// summaries may be rewritten and the lines that assert are covered.
fn checksum(text: &str) -> u64 {
    let mut bytes = Vec::with_capacity(text.len());
    for l in text.lines().filter(|l| !l.trim_start().starts_with('#')) {
        bytes.extend_from_slice(l.trim_end().as_bytes());
        bytes.push(b'\n');
    }
    mancala_files::fnv1a(&bytes)
}

/// A walk over a ledger's interior along every path, the cycle rule
/// applied on each, with the bounds of positions that did not depend on
/// their path remembered.
struct Walk<'a, R: Rules> {
    ledger: &'a Ledger<R>,
    grade: Grade,
    /// The path from the root.
    line: Line,
    /// Bounds of interior positions (with the newest generation on their
    /// path) that no repetition above them decided.
    known: HashMap<(u128, u32), (i32, i32)>,
}

/// No repetition decided a value.
const NO_REP: usize = usize::MAX;

impl<'a, R: Rules> Walk<'a, R> {
    fn new(ledger: &'a Ledger<R>, grade: Grade) -> Self {
        Walk {
            ledger,
            grade,
            line: Line::new(),
            known: HashMap::new(),
        }
    }

    /// The bounds of `pos`, the path's interior positions being at most
    /// generation `newest`.
    fn bounds(&mut self, pos: &Position<R>, newest: u32) -> (i32, i32) {
        let (l, u, _) = self.value(pos, newest);
        (l, u)
    }

    /// [`bounds`](Self::bounds), and the lowest ply of a position on the
    /// line whose repetition decided them.
    fn value(&mut self, pos: &Position<R>, newest: u32) -> (i32, i32, usize) {
        let ledger = self.ledger;
        let total = R::TOTAL as i32;
        if let Some(i) = self.line.earlier(pos) {
            let v = pos.margin_of(pos.cycle_totals());
            return (v, v, i);
        }
        if let Status::Over(t) = pos.status() {
            let v = pos.margin_of(t);
            return (v, v, NO_REP);
        }
        if let Some(&(_, generation)) = ledger.tree.interior.get(&pos.key()) {
            let newest = newest.max(generation);
            if let Some(&(l, u)) = self.known.get(&(pos.key(), newest)) {
                return (l, u, NO_REP);
            }
            let ply = self.line.len();
            self.line.push(pos);
            let (mut lower, mut upper, mut rep) = (-total - 1, -total - 1, NO_REP);
            for (_, child) in pos.children() {
                let (l, u, r) = self.value(&child, newest);
                let (l, u) = child.bounds_for_parent(pos, (l, u));
                lower = lower.max(l);
                upper = upper.max(u);
                rep = rep.min(r);
            }
            self.line.pop();
            if rep >= ply {
                self.known.insert((pos.key(), newest), (lower, upper));
                rep = NO_REP;
            }
            return (lower, upper, rep);
        }
        let piece = &ledger.pieces[ledger.index[&pos.key()]];
        let bounds = match (piece.state, self.grade) {
            _ if piece.generation < newest => (-total, total),
            (State::Open { lower, upper }, Grade::Solved) => (lower, upper),
            (State::Solved { value, .. }, Grade::Solved) | (State::Proven { value, .. }, _) => {
                (value, value)
            }
            _ => (-total, total),
        };
        (bounds.0, bounds.1, NO_REP)
    }

    /// Adds to `out` the pieces below `pos` (interior) whose value can
    /// still change the bounds of `pos`; `path` is the line as positions,
    /// `seen` the interior positions already walked whose bounds did not
    /// depend on their path.
    fn collect(
        &mut self,
        pos: &Position<R>,
        path: &mut Vec<Position<R>>,
        newest: u32,
        seen: &mut HashSet<(u128, u32)>,
        out: &mut Vec<(usize, Vec<Position<R>>, bool)>,
    ) {
        let ledger = self.ledger;
        let Some(&(_, generation)) = ledger.tree.interior.get(&pos.key()) else {
            return;
        };
        let newest = newest.max(generation);
        let (lower, upper, rep) = self.value(pos, newest);
        if lower == upper || (rep == NO_REP && !seen.insert((pos.key(), newest))) {
            return;
        }
        self.line.push(pos);
        path.push(*pos);
        for (_, child) in pos.children() {
            let (l, u, _) = self.value(&child, newest);
            // The child's value for `pos` is between these: it matters
            // while it could be above what `pos` is sure of already.
            let (_, for_pos) = child.bounds_for_parent(pos, (l, u));
            if l == u || for_pos <= lower || self.line.repeats(&child) {
                continue;
            }
            match ledger.index.get(&child.key()) {
                Some(&i) if !ledger.tree.interior.contains_key(&child.key()) => {
                    if !out.iter().rev().any(|(j, _, _)| *j == i) {
                        out.push((i, path.clone(), ledger.pieces[i].generation < newest));
                    }
                }
                _ => self.collect(&child, path, newest, seen, out),
            }
        }
        path.pop();
        self.line.pop();
    }
}

/// The layers a second proof of a piece first proven with tables to
/// `first` seeds may read, for a process whose tables reach `top`: hidden
/// from `below` on; `None` if this process cannot make a proof with a
/// different table size.
fn check_tables(first: u32, top: u32) -> Option<u32> {
    if top != first {
        Some(top + 1)
    } else if first >= 2 {
        Some(first)
    } else {
        None
    }
}

/// The largest layer a proof with tables to `top` seeds reads when layers
/// from `below` on are hidden.
pub fn tables_read(top: u32, kind: WorkKind) -> u32 {
    match kind {
        WorkKind::Check { below } => top.min(below.saturating_sub(1) & !1),
        _ => top,
    }
}

/// The state of the piece at `pos` written `state_text` (`open L U`,
/// `solved V best B tables T`, …) on ledger line `line`.
fn parse_state<R: Rules>(
    line: usize,
    pos: &Position<R>,
    state_text: &str,
) -> Result<State, LedgerError> {
    let words: Vec<&str> = state_text.split_whitespace().collect();
    let num = |w: &str| {
        w.parse::<i32>()
            .map_err(|_| bad(line, LedgerProblem::NotANumber(w.to_string())))
    };
    let seeds = |w: &str| {
        w.parse::<u32>()
            .map_err(|_| bad(line, LedgerProblem::NotASeedCount(w.to_string())))
    };
    let total = R::TOTAL as i32;
    let margin = |w: &str| {
        let v = num(w)?;
        if v.abs() > total {
            return Err(bad(line, LedgerProblem::MarginOutOfRange(v)));
        }
        Ok(v)
    };
    let best = |w: &str| {
        let pit = w
            .parse::<u8>()
            .map_err(|_| bad(line, LedgerProblem::NotAPit(w.to_string())))?;
        let mv = Move::from_pit(pit);
        if !pos.legal_moves().contains(mv) {
            return Err(bad(
                line,
                LedgerProblem::IllegalMove {
                    pit,
                    position: pos.to_string(),
                },
            ));
        }
        Ok(mv)
    };
    // Seeds banked stay banked: a value outside the piece's range cannot
    // have been proven (`Position::margin_range`).
    let (least, most) = pos.margin_range();
    let cannot = |value: i32| {
        bad(
            line,
            LedgerProblem::ValueCannotBe {
                value,
                least,
                most,
                position: pos.to_string(),
            },
        )
    };
    let value = |w: &str| {
        let v = margin(w)?;
        if !(least..=most).contains(&v) {
            return Err(cannot(v));
        }
        Ok(v)
    };
    let state = match words[..] {
        ["open", l, u] => {
            let (lower, upper) = (margin(l)?, margin(u)?);
            if lower > upper {
                return Err(bad(line, LedgerProblem::BoundsCross));
            }
            // Proven bounds hold the value, which is in the range.
            if lower > most {
                return Err(cannot(lower));
            }
            if upper < least {
                return Err(cannot(upper));
            }
            State::Open { lower, upper }
        }
        ["solved", v, "best", b, "tables", t] => State::Solved {
            value: value(v)?,
            best: best(b)?,
            tables: seeds(t)?,
        },
        ["proven", v, "best", b, "tables", t, u] => State::Proven {
            value: value(v)?,
            best: best(b)?,
            tables: [seeds(t)?, seeds(u)?],
        },
        ["conflict", v, w, "tables", t, u] => State::Conflict {
            values: [value(v)?, value(w)?],
            tables: [seeds(t)?, seeds(u)?],
        },
        ["split"] => State::Split,
        _ => {
            return Err(bad(
                line,
                LedgerProblem::UnknownState(state_text.to_string()),
            ))
        }
    };
    Ok(state)
}

impl<R: Rules> Piece<R> {
    /// Sets one of the fields after a piece's state on ledger line
    /// `line`: `nodes N`, `seconds S`, `generation G`, `tries T` or
    /// `claim BY until T`.
    fn set_field(&mut self, line: usize, field: &str) -> Result<(), LedgerError> {
        let (key, value) = field.split_once(' ').unwrap_or((field, ""));
        let count = || {
            value
                .parse::<u64>()
                .map_err(|_| bad(line, LedgerProblem::BadField(field.to_string())))
        };
        match key {
            "nodes" => self.nodes = count()?,
            "seconds" => {
                self.seconds = value
                    .parse::<f64>()
                    .ok()
                    .filter(|s| (0.0..=MAX_SECONDS).contains(s))
                    .ok_or_else(|| bad(line, LedgerProblem::BadField(field.to_string())))?
            }
            "generation" => {
                self.generation = u32::try_from(count()?)
                    .map_err(|_| bad(line, LedgerProblem::CountTooLarge("generation")))?
            }
            "tries" => {
                self.tries = u32::try_from(count()?)
                    .map_err(|_| bad(line, LedgerProblem::CountTooLarge("tries")))?
            }
            "claim" => {
                let (by, until) = value
                    .split_once(" until ")
                    .and_then(|(b, u)| Some((b.to_string(), u.parse::<u64>().ok()?)))
                    .ok_or_else(|| bad(line, LedgerProblem::BadClaim(field.to_string())))?;
                self.claim = Some(Claim { by, until });
            }
            _ => return Err(bad(line, LedgerProblem::UnknownField(field.to_string()))),
        }
        Ok(())
    }
}

fn parse_piece<R: Rules>(line: usize, rest: &str) -> Result<Piece<R>, LedgerError> {
    let fields: Vec<&str> = rest.split('|').map(str::trim).collect();
    let pos: Position<R> = fields[0].parse().map_err(|error| {
        bad(
            line,
            LedgerProblem::Position {
                text: fields[0].to_string(),
                error,
            },
        )
    })?;
    let state_text = fields
        .get(1)
        .ok_or_else(|| bad(line, LedgerProblem::NoState))?;
    let state = parse_state(line, &pos, state_text)?;
    let mut piece = Piece {
        pos,
        state,
        nodes: 0,
        seconds: 0.0,
        generation: 0,
        tries: 0,
        claim: None,
    };
    for field in &fields[2..] {
        piece.set_field(line, field)?;
    }
    Ok(piece)
}

/// Proves the piece of `work` with `solver` (which holds the ledger's
/// [`Ancestors`] and, for a [`WorkKind::Check`], the tables it may read) and
/// `helpers` more threads, within `max_nodes` positions and `stop`: what it
/// found (`Bounds` with `budget` false if it was stopped; the caller knows
/// why) and the positions visited. `tables` and `generation` are recorded
/// with a value: the largest layer the solver reads and the interior's
/// generation its ancestors are.
pub fn prove<R: Rules, T: BoardValues<R> + ?Sized>(
    solver: &mut Solver<'_, R, T>,
    helpers: usize,
    work: &Work<R>,
    tables: u32,
    generation: u32,
    max_nodes: u64,
    stop: &Stop,
) -> (Found, u64) {
    let before = solver.nodes();
    solver.take_leaned();
    let found = solver
        .prove(&work.pos)
        .history(&work.history)
        .nodes(max_nodes)
        .stop(stop)
        .helpers(helpers)
        .best_move();
    let nodes = solver.nodes() - before;
    if solver.take_leaned() {
        return (Found::Leaned, nodes);
    }
    let found = match found {
        Proof::Done(Some((value, best))) => Found::Value {
            value,
            best,
            tables,
            generation,
        },
        // No move: a piece is never over by the rules, so its history has
        // ended the game, a value of the line and not of the piece.
        Proof::Done(None) => return (Found::Leaned, nodes),
        Proof::Stopped => {
            let b = solver.root_bounds();
            Found::Bounds {
                lower: b.lower,
                upper: b.upper,
                budget: false,
            }
        }
    };
    (found, nodes)
}

/// The root of a ledger's text, to learn its game before reading it.
pub fn root_line(text: &str) -> Option<&str> {
    text.lines()
        .map(str::trim)
        .find_map(|l| l.strip_prefix("root "))
}

#[cfg(test)]
mod tests {
    use super::*;
    use mancala_rules::Bohnenspiel;

    #[test]
    fn a_ledger_reads_back_as_written() {
        let root: Position<Bohnenspiel> = "bohnenspiel 2,2,2,2,2,2/2,2,2,2,2,2 S 24-24"
            .parse()
            .unwrap();
        let mut ledger = Ledger::new(root, 2).unwrap();
        assert_eq!(ledger.pieces().len(), 36);
        let first = ledger.pieces()[0].pos;
        let mv = first.legal_moves()[0];
        ledger.record(
            &first,
            WorkKind::First,
            Found::Value {
                value: 2,
                best: mv,
                tables: 30,
                generation: 0,
            },
            1234,
            1.5,
        );
        let second = ledger.pieces()[1].pos;
        ledger.claim(&second, "host:7", 99);
        let text = ledger.format();
        let again = Ledger::<Bohnenspiel>::parse(&text).unwrap();
        assert_eq!(again.format(), text);
        assert_eq!(
            again.pieces()[0].state,
            State::Solved {
                value: 2,
                best: mv,
                tables: 30
            }
        );
        assert_eq!(again.pieces()[1].claim.as_ref().unwrap().by, "host:7");
    }

    #[test]
    fn a_damaged_ledger_is_refused_with_its_line() {
        let root: Position<Bohnenspiel> = "bohnenspiel 2,2,2,2,2,2/2,2,2,2,2,2 S 24-24"
            .parse()
            .unwrap();
        let summed = Ledger::new(root, 2).unwrap().format();
        assert!(Ledger::<Bohnenspiel>::parse_checked(&summed).unwrap().1);
        // Any edit of a line that asserts breaks the checksum, named on
        // the checksum's line; summaries may be rewritten.
        let checksum_line = summed.lines().count();
        for (from, to) in [("open -72 +72", "open -70 +72"), ("depth 2", "depth  2")] {
            let e = Ledger::<Bohnenspiel>::parse(&summed.replacen(from, to, 1)).unwrap_err();
            assert_eq!(
                (e.line, &e.problem),
                (checksum_line, &LedgerProblem::Checksum),
                "{to}"
            );
        }
        let resummarised = summed.replacen("# root value", "# the root's value", 1);
        assert!(Ledger::<Bohnenspiel>::parse(&resummarised).is_ok());
        let e = Ledger::<Bohnenspiel>::parse(&format!("{summed}piece x\n")).unwrap_err();
        assert_eq!(e.problem, LedgerProblem::ChecksumLine);
        // Without its checksum line (an older ledger) it is read, each line
        // checked on its own.
        let text: String = summed
            .lines()
            .filter(|l| !l.starts_with("checksum"))
            .map(|l| format!("{l}\n"))
            .collect();
        assert!(!Ledger::<Bohnenspiel>::parse_checked(&text).unwrap().1);
        // A piece missing.
        let short: String = text
            .lines()
            .filter(|l| !l.starts_with("piece"))
            .collect::<Vec<_>>()
            .join("\n");
        assert!(matches!(
            Ledger::<Bohnenspiel>::parse(&short).unwrap_err().problem,
            LedgerProblem::NotTheFrontier { .. }
        ));
        // A margin out of range, a bad state, a bad move.
        let piece_line = text.lines().position(|l| l.starts_with("piece")).unwrap() + 1;
        for (from, to) in [
            ("open -72 +72", "open -99 +72"),
            ("open -72 +72", "opened"),
            ("open -72 +72", "solved +2 best 9 tables 0"),
            // Values the piece's seeds (24 on the board) cannot give.
            ("open -72 +72", "open +60 +72"),
            ("open -72 +72", "open -72 -60"),
            ("open -72 +72", "conflict +2 +60 tables 0 0"),
        ] {
            let damaged = text.replacen(from, to, 1);
            let e = Ledger::<Bohnenspiel>::parse(&damaged).unwrap_err();
            assert_eq!(e.line, piece_line, "{to}: {e}");
        }
        let damaged = text.replacen("open -72 +72", "open +60 +72", 1);
        let e = Ledger::<Bohnenspiel>::parse(&damaged).unwrap_err();
        assert!(
            matches!(e.problem, LedgerProblem::ValueCannotBe { value: 60, .. }),
            "{e}"
        );
        assert!(Ledger::<Bohnenspiel>::new(root, 0).is_err());
        assert!(Ledger::<Bohnenspiel>::new(root, MAX_DEPTH + 1).is_err());
    }
}
