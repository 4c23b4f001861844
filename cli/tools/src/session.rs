//! A game against the engine at a prompt (`mancala play`), over any
//! reader and writer: the board redrawn after every move, the engine's
//! move and score, `moves`, `hint`, `undo`, `save`, `resign`, `new` and
//! `quit`; bad input explained, never fatal; the game saved (atomically)
//! after every move when it has a file.

use std::io::{self, BufRead, Write};

use mancala_engine::files;
use mancala_engine::pgn::{self, WrittenGame};
use mancala_engine::{GameRecord, Move, Position, Rules, Side, Status};

use crate::bad::OrBad;
use crate::board::{board_styled, last_move, status_line, Style};
use crate::lines::{lines, Line};
use crate::matchplay::builtin::BuiltinPlayer;
use crate::matchplay::player::{Player, Request};
use crate::protocol::replay;
use crate::text;

/// What the prompt says it understands.
const HELP: &str = "Type a pit number to move, or: moves (the legal moves), hint (the engine's best move, at full strength), undo (take back your last move), board, save [FILE], resign, new (a new game), help, quit.";

/// Where a game is saved (`--save FILE`, or `save FILE` at the prompt):
/// the games the file held before, then this session's.
pub struct Saver {
    /// The file, if the game is saved.
    pub path: Option<std::path::PathBuf>,
    /// The games to keep before the current one: the file's, then this
    /// session's finished ones.
    pub earlier: Vec<WrittenGame>,
    /// South's name in the record.
    pub south: String,
    /// North's name in the record.
    pub north: String,
    /// The record's date.
    pub date: String,
}

impl Saver {
    /// The record of `game`, tagged with the players and the date.
    fn record<R: Rules>(
        &self,
        game: &GameRecord<R>,
        resigned: Option<Side>,
    ) -> anyhow::Result<WrittenGame> {
        let mut record = WrittenGame::new(game.start().into(), game.moves()).or_bad()?;
        record.set_tag("Date", &self.date);
        record.set_tag("South", &self.south);
        record.set_tag("North", &self.north);
        if let Some(side) = resigned {
            record.set_tag("Termination", &format!("{} resigns", side.title()));
        }
        Ok(record)
    }

    /// Writes the file (atomically): the earlier games and `game`.
    fn save<R: Rules>(&self, game: &GameRecord<R>, resigned: Option<Side>) -> anyhow::Result<()> {
        let Some(path) = &self.path else {
            return Ok(());
        };
        let mut games = self.earlier.clone();
        games.push(self.record(game, resigned)?);
        files::write_file(path, pgn::write(&games))
            .map_err(|e| anyhow::anyhow!("cannot save to {}: {e}", path.display()))
    }

    /// Keeps `game` (if it has a move) as an earlier game, for `new`.
    fn finish<R: Rules>(
        &mut self,
        game: &GameRecord<R>,
        resigned: Option<Side>,
    ) -> anyhow::Result<()> {
        if !game.moves().is_empty() && self.path.is_some() {
            let record = self.record(game, resigned)?;
            self.earlier.push(record);
        }
        Ok(())
    }
}

/// The result line of a finished game, from the human's view.
fn result_line<R: Rules>(game: &GameRecord<R>, human: Side) -> Option<String> {
    let Status::Over([s, n]) = game.status() else {
        return None;
    };
    let how = match game.end_reason() {
        Some(mancala_engine::EndReason::Repetition) => {
            " by the cycle rule (third occurrence: the board is split)"
        }
        _ => "",
    };
    let (mine, theirs) = if human == Side::South { (s, n) } else { (n, s) };
    let verdict = match mine.cmp(&theirs) {
        std::cmp::Ordering::Greater => "You win",
        std::cmp::Ordering::Less => "The engine wins",
        std::cmp::Ordering::Equal => "A draw",
    };
    Some(format!(
        "Game over{how}: South {s}, North {n}. {verdict}. Type undo, new or quit."
    ))
}

/// The board of the game's current position from `style`'s seat, its last
/// move marked, then whose move it is; at the end of a game the board as
/// the rules leave it (the seeds left on it counted to their takers) and
/// the result.
fn show_board<R: Rules>(
    game: &GameRecord<R>,
    style: Style,
    human: Side,
    out: &mut impl Write,
) -> io::Result<()> {
    let last = last_move(game).map(|(l, _)| l).unwrap_or_default();
    let pos = game.current();
    if let Some(result) = result_line(game, human) {
        let swept = match game.status() {
            Status::Over(totals) => final_board(&pos, totals),
            Status::Ongoing => None,
        };
        let shown = swept.unwrap_or(pos);
        return writeln!(out, "{}{result}", board_styled(&shown, style, &last));
    }
    write!(
        out,
        "{}{}",
        board_styled(&pos, style, &last),
        status_line(&pos, game.status(), &game.legal_moves(), false)
    )
}

/// `pos` with its board emptied into the final totals, when the rules give
/// every seed left to a player (the totals add up to the game's seeds).
fn final_board<R: Rules>(pos: &Position<R>, totals: [u8; 2]) -> Option<Position<R>> {
    let pits: Vec<Option<u8>> = pos
        .pits()
        .iter()
        .enumerate()
        .map(|(i, _)| (!pos.is_closed(i)).then_some(0))
        .collect();
    Position::from_parts(&pits, pos.side_to_move(), totals).ok()
}

/// What the last move did (`South plays 3 and takes 4 seeds …`); called
/// right after a move.
fn last_move_text<R: Rules>(game: &GameRecord<R>) -> String {
    last_move(game).map(|(_, text)| text).unwrap_or_default()
}

/// A game in the terminal: the human's side, how the board is drawn, the
/// opponent, the hint engine and where the game is saved.
pub struct Session<'a> {
    /// The human's side.
    pub human: Side,
    /// How the board is drawn.
    pub style: Style,
    /// The opponent.
    pub engine: &'a mut dyn Player,
    /// The engine that gives hints.
    pub hint: &'a mut BuiltinPlayer,
    /// Where the game is saved.
    pub saver: &'a mut Saver,
}

/// What the engine's turn came to.
enum EngineTurn {
    Moved,
    /// It failed or played an illegal move: the human wins by forfeit.
    Forfeit,
}

impl Session<'_> {
    /// Runs games from `start` and `moves`: human moves are read from
    /// `input`, the engine plays the other side. Returns at `quit` or the
    /// end of the input.
    pub fn run<R: Rules>(
        &mut self,
        start: &Position<R>,
        moves: &[Move],
        input: impl BufRead,
        out: &mut impl Write,
    ) -> anyhow::Result<()> {
        let new_game = || replay(*start, moves).or_bad();
        let mut game = new_game()?;
        let human = self.human;
        writeln!(out, "You play {}. {HELP}", human.title())?;
        let mut lines = lines(input);
        let mut redraw = true;
        let mut resigned = None;
        loop {
            if resigned.is_none() && self.engine_turns(&mut game, &mut redraw, out)? {
                return Ok(());
            }
            if redraw {
                show_board(&game, self.style, human, out)?;
            }
            redraw = false;
            write!(out, "> ")?;
            out.flush()?;
            let Some(line) = lines.next() else {
                writeln!(out)?;
                return Ok(());
            };
            let Line::Text(line) = line else {
                writeln!(out, "That line is too long; type a pit number, or help.")?;
                continue;
            };
            let mut words = line.split_whitespace();
            let word = words.next().unwrap_or("");
            let over = resigned.is_some() || game.status() != Status::Ongoing;
            match word {
                "quit" | "q" | "exit" => return Ok(()),
                "help" | "?" => writeln!(out, "{HELP}")?,
                "" | "board" => redraw = true,
                "moves" | "m" if over => writeln!(out, "The game is over: no moves.")?,
                "moves" | "m" => {
                    let legal: Vec<String> =
                        game.legal_moves().iter().map(|m| m.to_string()).collect();
                    writeln!(out, "Legal moves: {}.", legal.join(" "))?;
                }
                "undo" | "u" => {
                    if self.undo(&mut game, out)? {
                        resigned = None;
                        self.keep(&game, None, out)?;
                        redraw = true;
                    }
                }
                "hint" | "h" if over => writeln!(out, "The game is over.")?,
                "hint" | "h" => self.hint(&game, out)?,
                "save" => self.save_to(words.next(), &game, resigned, out)?,
                "resign" if over => writeln!(out, "The game is over.")?,
                "resign" => {
                    resigned = Some(human);
                    self.keep(&game, resigned, out)?;
                    writeln!(out, "You resign: the engine wins. Type undo, new or quit.")?;
                }
                "new" => {
                    self.saver.finish(&game, resigned)?;
                    game = new_game()?;
                    resigned = None;
                    self.engine
                        .new_game(0)
                        .map_err(|e| anyhow::anyhow!("the engine: {e}"))?;
                    writeln!(out, "A new game. You play {}.", human.title())?;
                    redraw = true;
                }
                _ => match word.parse::<u8>() {
                    Err(_) => writeln!(out, "'{word}' is not a pit number or a command. {HELP}")?,
                    Ok(_) if over => writeln!(out, "The game is over: type undo, new or quit.")?,
                    Ok(pit) => redraw = self.human_move(&mut game, pit, out)?,
                },
            }
        }
    }

    /// The engine's moves, while it is its turn in a game still going
    /// (the board drawn before each if `redraw`, which each move sets):
    /// whether it forfeited (the session ends).
    fn engine_turns<R: Rules>(
        &mut self,
        game: &mut GameRecord<R>,
        redraw: &mut bool,
        out: &mut impl Write,
    ) -> anyhow::Result<bool> {
        while game.status() == Status::Ongoing && game.current().side_to_move() != self.human {
            if *redraw {
                show_board(game, self.style, self.human, out)?;
            }
            match self.engine_move(game, out)? {
                EngineTurn::Moved => {
                    self.keep(game, None, out)?;
                    *redraw = true;
                }
                EngineTurn::Forfeit => return Ok(true),
            }
        }
        Ok(false)
    }

    /// `save [FILE]`: keeps the game in `path` (or the file saved to
    /// before), with its resignation if any.
    fn save_to<R: Rules>(
        &mut self,
        path: Option<&str>,
        game: &GameRecord<R>,
        resigned: Option<Side>,
        out: &mut impl Write,
    ) -> anyhow::Result<()> {
        if let Some(path) = path {
            self.saver.path = Some(path.into());
        }
        match &self.saver.path {
            None => writeln!(out, "Save where? Type save FILE.")?,
            Some(path) => {
                let path = path.clone();
                self.keep(game, resigned, out)?;
                writeln!(out, "Saved to {}.", path.display())?;
            }
        }
        Ok(())
    }

    /// The human plays `pit`, if it is legal (else says why not and which
    /// are); whether it was played.
    fn human_move<R: Rules>(
        &mut self,
        game: &mut GameRecord<R>,
        pit: u8,
        out: &mut impl Write,
    ) -> anyhow::Result<bool> {
        if game.play(Move::from_pit(pit)).is_ok() {
            writeln!(out, "You: {}", last_move_text(game))?;
            self.keep(game, None, out)?;
            return Ok(true);
        }
        if let Err(e) = game.current().try_play(Move::from_pit(pit)) {
            let legal: Vec<String> = game.legal_moves().iter().map(|m| m.to_string()).collect();
            writeln!(
                out,
                "Pit {pit} is not a legal move: {}. Legal moves: {}.",
                e.reason,
                legal.join(" ")
            )?;
        }
        Ok(false)
    }

    /// Saves the game (with `--save` or after `save FILE`); a failed write
    /// is said and the game goes on (the file keeps its last good state:
    /// writes are atomic).
    fn keep<R: Rules>(
        &self,
        game: &GameRecord<R>,
        resigned: Option<Side>,
        out: &mut impl Write,
    ) -> anyhow::Result<()> {
        if let Err(e) = self.saver.save(game, resigned) {
            writeln!(out, "Not saved: {e:#}. The game goes on; try save FILE.")?;
        }
        Ok(())
    }

    /// The engine's move, played and described.
    fn engine_move<R: Rules>(
        &mut self,
        game: &mut GameRecord<R>,
        out: &mut impl Write,
    ) -> io::Result<EngineTurn> {
        let request = Request {
            start: game.start().into(),
            moves: game.moves(),
            current: game.current().into(),
        };
        match self.engine.choose(&request) {
            Ok(reply) => match game.play(reply.mv) {
                Ok(()) => {
                    let score = reply.score.map_or(String::new(), |s| {
                        format!(" (its score: {})", text::value(!self.human, s, reply.exact))
                    });
                    writeln!(out, "Engine: {}{score}", last_move_text(game))?;
                    Ok(EngineTurn::Moved)
                }
                Err(e) => {
                    writeln!(
                        out,
                        "The engine tried an illegal move {}: {}. You win by forfeit.",
                        reply.mv, e.reason
                    )?;
                    Ok(EngineTurn::Forfeit)
                }
            },
            Err(fault) => {
                writeln!(out, "The engine failed ({fault}). You win by forfeit.")?;
                Ok(EngineTurn::Forfeit)
            }
        }
    }

    /// Takes back moves to the human's turn, at least one human move;
    /// whether anything was taken back.
    fn undo<R: Rules>(
        &mut self,
        game: &mut GameRecord<R>,
        out: &mut impl Write,
    ) -> io::Result<bool> {
        let mut undone = Vec::new();
        while let Some(mv) = game.undo() {
            undone.push(mv);
            if game.current().side_to_move() == self.human {
                break;
            }
        }
        if game.current().side_to_move() != self.human || undone.is_empty() {
            // Nothing of the human's to take back: restore.
            for mv in undone.into_iter().rev() {
                let _ = game.play(mv);
            }
            writeln!(out, "Nothing to undo.")?;
            return Ok(false);
        }
        let list: Vec<String> = undone.iter().rev().map(|m| m.to_string()).collect();
        writeln!(out, "Took back {}.", list.join(" "))?;
        Ok(true)
    }

    /// The engine's best move for the human, at full strength.
    fn hint<R: Rules>(&mut self, game: &GameRecord<R>, out: &mut impl Write) -> io::Result<()> {
        self.hint.clear();
        let report = self.hint.think(game.start(), game.moves(), |_| {});
        let pv: Vec<String> = report.pv.iter().map(|m| m.to_string()).collect();
        writeln!(
            out,
            "Hint: {} ({} at depth {}; line {})",
            report.best.map_or("-".into(), |m| m.to_string()),
            text::of_search(self.human, report.score, report.exact),
            report.depth,
            pv.join(" ")
        )
    }
}
