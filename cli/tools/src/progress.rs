//! One progress style for every long command (`tablebase build`, `solve`,
//! `review`, `match`, `tune`, `book build`, `tablebase accuracy-set`): on
//! stderr when it is a terminal, never when it is not (scripts read stderr
//! for errors only; the long ones log a line now and then instead). Work of a known size is a bar,
//! `review [=====>    ] 12/40 moves  00:00:07 (ETA 16s)  message`;
//! work of an unknown size a spinner, `solve ⠋ 00:01:12  message`.

use std::io::IsTerminal;
use std::time::Duration;

use indicatif::{MultiProgress, ProgressBar, ProgressDrawTarget, ProgressStyle};

/// A bar for `len` steps of `unit` (`"games"`, `"moves"`; `"%"` shows a
/// percentage instead of the counts), named `what`.
pub fn bar(what: &str, len: u64, unit: &str) -> ProgressBar {
    bar_to(what, len, unit, target())
}

fn bar_to(what: &str, len: u64, unit: &str, target: ProgressDrawTarget) -> ProgressBar {
    let counts = if unit == "%" {
        "{percent:>3}%".to_string()
    } else {
        format!("{{pos}}/{{len}} {unit}")
    };
    let template =
        format!("{{prefix}} [{{bar:30}}] {counts}  {{elapsed_precise}} (ETA {{eta}})  {{msg}}");
    let bar = ProgressBar::with_draw_target(Some(len), target);
    bar.set_style(
        ProgressStyle::with_template(&template)
            .expect("a valid template")
            .progress_chars("=> "),
    );
    bar.set_prefix(what.to_string());
    bar
}

/// A spinner for work of unknown size, named `what`, ticking on its own.
pub fn spinner(what: &str) -> ProgressBar {
    let bar = ProgressBar::with_draw_target(None, target());
    bar.set_style(
        ProgressStyle::with_template("{prefix} {spinner} {elapsed_precise}  {msg}")
            .expect("a valid template"),
    );
    bar.set_prefix(what.to_string());
    if !bar.is_hidden() {
        bar.enable_steady_tick(Duration::from_millis(200));
    }
    bar
}

/// A group of bars drawn together (work running in parallel, each with
/// its own line): add each with [`MultiProgress::add`].
pub fn group() -> MultiProgress {
    MultiProgress::with_draw_target(target())
}

/// Stderr when it is a terminal, else nowhere.
fn target() -> ProgressDrawTarget {
    if std::io::stderr().is_terminal() {
        ProgressDrawTarget::stderr()
    } else {
        ProgressDrawTarget::hidden()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The bar counts and names its work; off a terminal it draws nothing.
    #[test]
    fn bars_count_and_are_hidden_off_a_terminal() {
        let b = bar_to("review", 40, "moves", ProgressDrawTarget::hidden());
        assert!(b.is_hidden());
        b.inc(3);
        assert_eq!((b.position(), b.length()), (3, Some(40)));
        assert_eq!(b.prefix(), "review");
        let p = bar_to("build", 10, "%", ProgressDrawTarget::hidden());
        p.inc(10);
        assert_eq!(p.position(), 10);
    }
}
