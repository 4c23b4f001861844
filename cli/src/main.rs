//! `mancala`: play, analyse and solve two-row mancala games from the command
//! line. The contract for scripts is `docs/protocol.md`; the library behind
//! the commands is `mancala_tools` (`src/lib.rs`). This crate's binary holds
//! the clap arguments and the output formatting only.

use std::io::Write;
use std::process::ExitCode;

use anyhow::Context;
use clap::{Parser, Subcommand};

#[cfg(feature = "mpi")]
mod cluster;
mod cmd;
mod input;
mod options;

use input::BadInput;
use mancala_tools::interrupt::{self, Interrupted};

#[derive(Parser)]
#[command(
    name = "mancala",
    version,
    about = "Analyse, solve and play two-row mancala games"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Draw a position as the players see it.
    Show(cmd::show::Args),
    /// Play moves from a position and print every position reached:
    /// `replay POSITION MOVE…`, the moves pit numbers, as separate
    /// arguments or comma-separated (`3,9,2`).
    Replay(cmd::replay::Args),
    /// Count move sequences of each length (move-generator check and speed).
    Perft(cmd::perft::Args),
    /// Prove the exact value of a position: margin, every best move, a line.
    Solve(cmd::solve::Args),
    /// Build, inspect and verify endgame tablebases; write puzzles.
    #[command(subcommand)]
    Tablebase(cmd::tablebase::Command),
    /// Build the books of proven moves of the solved games, and test them.
    #[command(subcommand)]
    Book(cmd::book::Command),
    /// Play players against each other and measure the Elo difference.
    Match(cmd::r#match::Args),
    /// Write an opening file for `mancala match`.
    Openings(cmd::openings::Args),
    /// Fit a game's evaluation weights to self-play data.
    Tune(cmd::tune::Args),
    /// Play against the engine in the terminal.
    Play(cmd::play::Args),
    /// Search a position: best move, score, principal variation, every move's score.
    #[command(visible_alias = "analyse")]
    Analyze(cmd::analyze::Args),
    /// Score every move of a game against the engine's best: marks, a summary, a graph.
    Review(cmd::review::Args),
    /// Search the bench positions at a fixed depth: `N nodes M nps`.
    Bench(cmd::bench::Args),
    /// Speak a line protocol on stdin/stdout (for front ends and match runners).
    Engine(cmd::engine::Args),
    /// Print a game's rules in a few lines.
    Rules(cmd::rules::Args),
    /// Serve a web analysis board on this machine (http://127.0.0.1:8080/).
    Serve(cmd::serve::Args),
    /// Print shell completions (bash, zsh, fish, elvish, powershell).
    Completions {
        /// The shell.
        shell: clap_complete::Shell,
    },
    /// Print the man page (roff).
    Manpage,
}

impl Command {
    /// Whether a signal asks this command to finish early with what it has
    /// (the module [`interrupt`] says what each keeps) rather than end it.
    fn finishes_early(&self) -> bool {
        matches!(
            self,
            Command::Analyze(_)
                | Command::Review(_)
                | Command::Solve(_)
                | Command::Match(_)
                | Command::Book(_)
        )
    }
}

fn run(cli: Cli) -> anyhow::Result<()> {
    if cli.command.finishes_early() {
        interrupt::install()?;
    }
    match cli.command {
        Command::Show(a) => cmd::show::run(a),
        Command::Replay(a) => cmd::replay::run(a),
        Command::Perft(a) => cmd::perft::run(a),
        Command::Solve(a) => cmd::solve::run(a),
        Command::Tablebase(a) => cmd::tablebase::run(a),
        Command::Book(a) => cmd::book::run(a),
        Command::Match(a) => cmd::r#match::run(a),
        Command::Openings(a) => cmd::openings::run(a),
        Command::Tune(a) => cmd::tune::run(a),
        Command::Play(a) => cmd::play::run(a),
        Command::Analyze(a) => cmd::analyze::run(a),
        Command::Review(a) => cmd::review::run(a),
        Command::Bench(a) => cmd::bench::run(a),
        Command::Engine(a) => cmd::engine::run(a),
        Command::Rules(a) => cmd::rules::run(a),
        Command::Serve(a) => cmd::serve::run(a),
        Command::Completions { shell } => {
            // Made in memory, then written: clap_complete panics on a
            // failed write.
            let mut command = <Cli as clap::CommandFactory>::command();
            let mut script = Vec::new();
            clap_complete::generate(shell, &mut command, "mancala", &mut script);
            let mut out = std::io::stdout().lock();
            out.write_all(&script)
                .and_then(|()| out.flush())
                .context("cannot write the output")?;
            Ok(())
        }
        Command::Manpage => {
            let command = <Cli as clap::CommandFactory>::command();
            let mut out = std::io::stdout().lock();
            clap_mangen::Man::new(command)
                .render(&mut out)
                .and_then(|()| out.flush())
                .context("cannot write the output")?;
            Ok(())
        }
    }
}

/// What a failed write to stdout or stderr means here: a reader that
/// stopped reading (`mancala … | head`) is the reader's choice, and the
/// program ends quietly with status 0; anything else (a full disk, a
/// closed terminal) is one error line, if stderr still takes it, and
/// status 1. `println!` reports such a failure by panicking, so the panic
/// hook is where every output write is checked.
fn output_failures_end_the_program() {
    let default = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        let payload = info.payload();
        let text = payload
            .downcast_ref::<String>()
            .map(String::as_str)
            .or_else(|| payload.downcast_ref::<&str>().copied())
            .unwrap_or("");
        if text.contains("Broken pipe") {
            std::process::exit(0);
        }
        if let Some(reason) = text.strip_prefix("failed printing to stdout: ") {
            let _ = writeln!(
                std::io::stderr(),
                "mancala: cannot write the output: {reason}"
            );
            std::process::exit(1);
        }
        if text.starts_with("failed printing to stderr") {
            std::process::exit(1);
        }
        default(info);
    }));
}

/// The longest error line printed (characters of the message).
const MAX_ERROR_CHARS: usize = 300;

/// An error message as one line: control characters (a newline, an
/// escape sequence in a bad position) shown escaped, and a message longer
/// than [`MAX_ERROR_CHARS`] cut short.
fn one_line(message: &str) -> String {
    let mut out = String::new();
    for (n, c) in message.chars().enumerate() {
        if n == MAX_ERROR_CHARS {
            out.push('…');
            break;
        }
        if c.is_control() {
            out.extend(c.escape_default());
        } else {
            out.push(c);
        }
    }
    out
}

/// The argument, subcommand or value clap suggests for a misspelt one
/// (`--depht` → `'--depth'`), quoted, alternatives joined by "or".
fn suggestion(e: &clap::Error) -> Option<String> {
    use clap::error::{ContextKind, ContextValue};
    let kinds = [
        ContextKind::SuggestedArg,
        ContextKind::SuggestedSubcommand,
        ContextKind::SuggestedValue,
    ];
    kinds.into_iter().find_map(|kind| match e.get(kind)? {
        ContextValue::String(s) => Some(format!("'{s}'")),
        ContextValue::Strings(v) if !v.is_empty() => Some(
            v.iter()
                .map(|s| format!("'{s}'"))
                .collect::<Vec<_>>()
                .join(" or "),
        ),
        _ => None,
    })
}

/// Whether `e` is, at bottom, a write into a closed pipe.
fn is_broken_pipe(e: &anyhow::Error) -> bool {
    e.chain().any(|cause| {
        cause
            .downcast_ref::<std::io::Error>()
            .is_some_and(|io| io.kind() == std::io::ErrorKind::BrokenPipe)
    })
}

fn main() -> ExitCode {
    output_failures_end_the_program();
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => {
            use clap::error::ErrorKind;
            if matches!(e.kind(), ErrorKind::DisplayHelp | ErrorKind::DisplayVersion)
                || matches!(
                    e.kind(),
                    ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand
                )
            {
                if let Err(w) = e.print().and_then(|()| std::io::stdout().flush()) {
                    if w.kind() == std::io::ErrorKind::BrokenPipe {
                        return ExitCode::SUCCESS;
                    }
                    let _ = writeln!(std::io::stderr(), "mancala: cannot write the output: {w}");
                    return ExitCode::from(1);
                }
                return if e.kind() == ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand {
                    ExitCode::from(2)
                } else {
                    ExitCode::SUCCESS
                };
            }
            // One line on stderr, as for every other bad input, with
            // clap's "did you mean" kept.
            let text = e.to_string();
            let first = text.lines().next().unwrap_or("bad arguments");
            let mut line = first.trim_start_matches("error: ").to_string();
            if let Some(hint) = suggestion(&e) {
                line.push_str(&format!(" (did you mean {hint}?)"));
            }
            eprintln!("mancala: {}", one_line(&line));
            return ExitCode::from(2);
        }
    };
    match run(cli) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) if is_broken_pipe(&e) => ExitCode::SUCCESS,
        Err(e) if e.downcast_ref::<Interrupted>().is_some() => {
            eprintln!("mancala: interrupted");
            ExitCode::from(interrupt::exit_status())
        }
        Err(e) => {
            let code = if e.downcast_ref::<BadInput>().is_some() {
                2
            } else {
                1
            };
            // One write, so that the ranks of an MPI job, failing
            // together, do not interleave their lines.
            let line = format!("mancala: {}\n", one_line(&format!("{e:#}")));
            let _ = std::io::stderr().write_all(line.as_bytes());
            ExitCode::from(code)
        }
    }
}
