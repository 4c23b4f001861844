//! Reviewing a game: every move scored against the engine's best, the loss
//! in seeds, and a mark where the move lost enough (the thresholds are
//! [`INACCURACY`], [`MISTAKE`] and [`BLUNDER`]; a move that turns a proven
//! win into a draw or a loss, or a draw into a loss, is always a blunder).
//!
//! Each position of the game is searched once, with the game's earlier
//! positions as history (the cycle rule) and every root move scored
//! exactly: the position's value is the best move's score and the move
//! played is scored by its own, both from the mover's view. Where the
//! tables or the solver prove a value it is exact.

use mancala_engine::search::score::SCALE;
use mancala_engine::search::{Report, Search, SearchOptions};
use mancala_engine::tablebase::TableSet;
use mancala_engine::tt::TranspositionTable;
use mancala_engine::{with_record, AnyRecord, GameRecord, Move, Rules, Side};
use mancala_eval::Evaluator;

/// The least loss (seeds) marked an inaccuracy.
pub const INACCURACY: f64 = 1.0;
/// The least loss (seeds) marked a mistake.
pub const MISTAKE: f64 = 3.0;
/// The least loss (seeds) marked a blunder.
pub const BLUNDER: f64 = 6.0;

/// How a move is marked.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Verdict {
    /// Lost at least [`INACCURACY`] seeds.
    Inaccuracy,
    /// Lost at least [`MISTAKE`] seeds.
    Mistake,
    /// Lost at least [`BLUNDER`] seeds, or a proven outcome.
    Blunder,
}

impl Verdict {
    /// The name used in JSON.
    pub const fn name(self) -> &'static str {
        match self {
            Verdict::Inaccuracy => "inaccuracy",
            Verdict::Mistake => "mistake",
            Verdict::Blunder => "blunder",
        }
    }

    /// The record's annotation mark.
    pub const fn mark(self) -> mancala_engine::pgn::Mark {
        use mancala_engine::pgn::Mark;
        match self {
            Verdict::Inaccuracy => Mark::Dubious,
            Verdict::Mistake => Mark::Mistake,
            Verdict::Blunder => Mark::Blunder,
        }
    }
}

/// One move of the game, reviewed.
#[derive(Clone, Debug, PartialEq)]
pub struct PlyReview {
    /// The ply, from 1.
    pub ply: usize,
    /// Who moved.
    pub side: Side,
    /// The move played.
    pub mv: Move,
    /// The engine's best move.
    pub best: Move,
    /// The position's value before the move (the best move's score), in
    /// seeds from the mover's view, banked seeds included.
    pub before: f64,
    /// The value after the move played (its own score), the same way.
    pub after: f64,
    /// Whether both values are proven.
    pub exact: bool,
    /// The mark, if any.
    pub verdict: Option<Verdict>,
}

impl PlyReview {
    /// The seeds the move lost against the best (never negative).
    pub fn loss(&self) -> f64 {
        (self.before - self.after).max(0.0)
    }
}

/// One side's summary.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct SideSummary {
    /// Moves reviewed.
    pub moves: usize,
    /// The mean loss a move (seeds).
    pub average_loss: f64,
    /// The mean of the moves' [`accuracy`], in per cent (100 with no move).
    pub accuracy: f64,
    /// Marked inaccuracies.
    pub inaccuracies: usize,
    /// Marked mistakes.
    pub mistakes: usize,
    /// Marked blunders.
    pub blunders: usize,
}

/// A reviewed game.
#[derive(Clone, Debug, PartialEq)]
pub struct Review {
    /// Every move, in order.
    pub plies: Vec<PlyReview>,
}

impl Review {
    /// The summary of `side`'s moves.
    pub fn summary(&self, side: Side) -> SideSummary {
        let mine: Vec<&PlyReview> = self.plies.iter().filter(|p| p.side == side).collect();
        let count = |v: Verdict| mine.iter().filter(|p| p.verdict == Some(v)).count();
        SideSummary {
            moves: mine.len(),
            average_loss: if mine.is_empty() {
                0.0
            } else {
                mine.iter().map(|p| p.loss()).sum::<f64>() / mine.len() as f64
            },
            accuracy: if mine.is_empty() {
                100.0
            } else {
                mine.iter()
                    .map(|p| accuracy(p.before, p.after))
                    .sum::<f64>()
                    / mine.len() as f64
            },
            inaccuracies: count(Verdict::Inaccuracy),
            mistakes: count(Verdict::Mistake),
            blunders: count(Verdict::Blunder),
        }
    }
}

/// How much a value of `seeds` (the mover's final margin) is worth as a
/// winning chance, in per cent: a logistic curve, 50 at 0, about 73 at
/// +4 seeds and 95 at +12 ([`WIN_CHANCE_SLOPE`]).
pub fn win_chance(seeds: f64) -> f64 {
    100.0 / (1.0 + (-WIN_CHANCE_SLOPE * seeds).exp())
}

/// The slope of [`win_chance`] per seed.
pub const WIN_CHANCE_SLOPE: f64 = 0.25;

/// A move's accuracy in per cent, as lichess computes it from winning
/// chances: 100 for a move that keeps the value, falling with the
/// winning chance it gives away (`103.17·e^(−0.04354·drop) − 3.17`,
/// clamped to 0–100), so a seed lost in a balanced position costs more
/// than one lost in a game already decided.
pub fn accuracy(before: f64, after: f64) -> f64 {
    let drop = win_chance(before) - win_chance(after);
    if drop <= 0.0 {
        return 100.0;
    }
    (103.1668 * (-0.04354 * drop).exp() - 3.1669).clamp(0.0, 100.0)
}

/// The mark of a move that took the value from `before` to `after`.
pub fn verdict(before: f64, after: f64, exact: bool) -> Option<Verdict> {
    // -1, 0 or 1: a loss, a draw or a win (`signum` makes 0.0 a 1).
    let outcome = |v: f64| (v > 0.0) as i32 - (v < 0.0) as i32;
    if exact && outcome(after) < outcome(before) {
        return Some(Verdict::Blunder);
    }
    let loss = before - after;
    if loss >= BLUNDER {
        Some(Verdict::Blunder)
    } else if loss >= MISTAKE {
        Some(Verdict::Mistake)
    } else if loss >= INACCURACY {
        Some(Verdict::Inaccuracy)
    } else {
        None
    }
}

/// How the review searches.
#[derive(Clone, Copy, Debug)]
pub struct ReviewOptions<'a> {
    /// Each position's search (its limits and threads; every root move is
    /// scored whatever this says).
    pub search: SearchOptions,
    /// The transposition table, kept from move to move.
    pub tt: &'a TranspositionTable,
}

/// Reviews every move of `game`: `on_ply` sees each move as it is
/// reviewed. `stop` ends the review early (the moves reviewed so far are
/// returned).
pub fn review(
    game: &AnyRecord,
    options: &ReviewOptions,
    eval: &Evaluator,
    tables: &TableSet,
    stop: &std::sync::atomic::AtomicBool,
    mut on_ply: impl FnMut(&PlyReview),
) -> Review {
    with_record!(game, r => review_of(r, options, eval, tables, stop, &mut on_ply))
}

fn review_of<R: Rules>(
    game: &GameRecord<R>,
    options: &ReviewOptions,
    eval: &Evaluator,
    tables: &TableSet,
    stop: &std::sync::atomic::AtomicBool,
    on_ply: &mut dyn FnMut(&PlyReview),
) -> Review {
    let positions = game.positions();
    let search_options = SearchOptions {
        score_all_moves: true,
        ..options.search
    };
    let mut plies = Vec::new();
    for (i, &mv) in game.moves().iter().enumerate() {
        if stop.load(std::sync::atomic::Ordering::Relaxed) {
            break;
        }
        let pos = &positions[i];
        let report: Report = Search::new(pos, eval, options.tt)
            .history(&positions[..i])
            .tables(tables.get())
            .options(search_options)
            .stop(stop)
            .run(|_| {});
        let seeds = |s: i32| s as f64 / SCALE as f64;
        let Some(played) = report.moves.iter().find(|m| m.mv == mv) else {
            // A pass (the only move) or a search stopped at once.
            continue;
        };
        let best = report.moves.first().map_or(mv, |m| m.mv);
        let before = seeds(report.score);
        let after = seeds(played.score);
        let exact = report.exact && played.proven;
        let ply = PlyReview {
            ply: i + 1,
            side: pos.side_to_move(),
            mv,
            best,
            before,
            after: after.min(before),
            exact,
            verdict: verdict(before, after.min(before), exact),
        };
        on_ply(&ply);
        plies.push(ply);
    }
    Review { plies }
}

/// The score graph of a review as SVG: from South's view (seeds), the value
/// of the start at ply 0 and of the position after each move at that move's
/// ply (so a move's loss shows where it was played), marks as coloured dots
/// on the moves' points (yellow inaccuracy, orange mistake, red blunder),
/// South's moves round and North's square, a legend whose entries do not
/// overlap.
pub fn svg(review: &Review, title: &str) -> String {
    use std::fmt::Write as _;
    let (w, h, left, top, right, bottom) = (800.0, 380.0, 50.0, 50.0, 20.0, 40.0);
    // South's view of a value from the mover's.
    let south = |p: &PlyReview, v: f64| match p.side {
        Side::South => v,
        Side::North => -v,
    };
    let n = review.plies.len().max(1) as f64;
    let span = review
        .plies
        .iter()
        .flat_map(|p| [south(p, p.before).abs(), south(p, p.after).abs()])
        .fold(4.0f64, f64::max)
        .ceil();
    // Ply 0 is the start; ply k the position after the k-th move, so a
    // move's loss shows at its own ply.
    let x = |ply: f64| left + (w - left - right) * ply / n;
    let y = |v: f64| top + (h - top - bottom) * (span - v) / (2.0 * span);
    let mut s = String::new();
    let _ = writeln!(
        s,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" viewBox="0 0 {w} {h}" font-family="sans-serif" font-size="12">"#
    );
    let _ = writeln!(s, r#"<rect width="{w}" height="{h}" fill="white"/>"#);
    let escape = |t: &str| {
        t.replace('&', "&amp;")
            .replace('<', "&lt;")
            .replace('>', "&gt;")
    };
    let _ = writeln!(s, r#"<text x="{left}" y="18">{}</text>"#, escape(title));
    axes(
        &mut s,
        (w, h),
        (left, right, bottom),
        span,
        review.plies.len(),
        (&x, &y),
    );
    let start = review.plies.first().map(|p| (0.0, south(p, p.before)));
    let points: Vec<String> = start
        .into_iter()
        .chain(
            review
                .plies
                .iter()
                .map(|p| (p.ply as f64, south(p, p.after))),
        )
        .map(|(ply, v)| format!("{:.1},{:.1}", x(ply), y(v)))
        .collect();
    let _ = writeln!(
        s,
        r##"<polyline fill="none" stroke="#2060c0" stroke-width="2" points="{}"/>"##,
        points.join(" ")
    );
    for p in &review.plies {
        let Some(v) = p.verdict else { continue };
        let tip = format!(
            "ply {}, {}'s {}{}: {}, best {}",
            p.ply,
            p.side.title(),
            p.mv,
            v.mark().symbol(),
            v.name(),
            p.best
        );
        let _ = writeln!(
            s,
            "{}",
            marker(
                p.side,
                verdict_colour(v),
                x(p.ply as f64),
                y(south(p, p.after)),
                &tip
            )
        );
    }
    legend(&mut s, left + 5.0);
    s.push_str("</svg>\n");
    s
}

/// The graph's axes: the value lines (`span` seeds either way of 0) and
/// their labels, the ply numbers (of `plies`) and the axes' names, in the
/// frame `(w, h)` with margins `(left, right, bottom)`, at the positions
/// `x(ply)` and `y(value)`.
fn axes(
    s: &mut String,
    (w, h): (f64, f64),
    (left, right, bottom): (f64, f64, f64),
    span: f64,
    plies: usize,
    (x, y): (&dyn Fn(f64) -> f64, &dyn Fn(f64) -> f64),
) {
    use std::fmt::Write as _;
    let n = plies.max(1) as f64;
    for v in [-span, -span / 2.0, 0.0, span / 2.0, span] {
        let colour = if v == 0.0 { "#888" } else { "#ddd" };
        let _ = writeln!(
            s,
            r#"<line x1="{left}" x2="{}" y1="{y}" y2="{y}" stroke="{colour}"/><text x="{}" y="{}" text-anchor="end">{}</text>"#,
            w - right,
            left - 6.0,
            y(v) + 4.0,
            if v == 0.0 {
                "0".to_string()
            } else {
                format!("{v:+}")
            },
            y = y(v)
        );
    }
    let step = [1, 2, 5, 10, 20, 50, 100]
        .into_iter()
        .find(|&k| n / k as f64 <= 12.0)
        .unwrap_or(200);
    for ply in (step..=plies).step_by(step) {
        let _ = writeln!(
            s,
            r#"<text x="{:.1}" y="{}" text-anchor="middle">{ply}</text>"#,
            x(ply as f64),
            h - bottom + 16.0
        );
    }
    let _ = writeln!(
        s,
        r#"<text x="{}" y="{}" text-anchor="middle">ply</text>"#,
        (w + left) / 2.0,
        h - 4.0
    );
    let _ = writeln!(
        s,
        r#"<text x="14" y="{}" transform="rotate(-90 14 {})" text-anchor="middle">South's value (seeds)</text>"#,
        h / 2.0,
        h / 2.0
    );
}

/// The legend, under the title, from `left` on: the colours of the marks
/// and the shapes of the two sides' moves.
fn legend(s: &mut String, left: f64) {
    use std::fmt::Write as _;
    let mut lx = left;
    for v in [Verdict::Inaccuracy, Verdict::Mistake, Verdict::Blunder] {
        let label = format!("{} {}", v.name(), v.mark().symbol());
        let _ = writeln!(
            s,
            r#"{}<text x="{}" y="38">{label}</text>"#,
            marker(Side::South, verdict_colour(v), lx, 34.0, &label),
            lx + 9.0
        );
        lx += legend_width(&label);
    }
    for side in Side::BOTH {
        let label = format!("{}'s move", side.title());
        let _ = writeln!(
            s,
            r#"{}<text x="{}" y="38">{label}</text>"#,
            marker(side, "#888", lx, 34.0, &label),
            lx + 9.0
        );
        lx += legend_width(&label);
    }
}

/// How far the next legend entry starts after one labelled `label`: its
/// marker, the label at up to 7 px a character (12 px sans-serif), a gap.
fn legend_width(label: &str) -> f64 {
    9.0 + 7.0 * label.chars().count() as f64 + 18.0
}

/// The colour of a mark on the graph.
fn verdict_colour(v: Verdict) -> &'static str {
    match v {
        Verdict::Inaccuracy => "#e0c000",
        Verdict::Mistake => "#f08000",
        Verdict::Blunder => "#d00000",
    }
}

/// A marked move on the graph: a circle for South's, a square for
/// North's, with `tip` as its tooltip.
fn marker(side: Side, colour: &str, x: f64, y: f64, tip: &str) -> String {
    match side {
        Side::South => format!(
            r#"<circle cx="{x:.1}" cy="{y:.1}" r="5" fill="{colour}"><title>{tip}</title></circle>"#
        ),
        Side::North => format!(
            r#"<rect x="{:.1}" y="{:.1}" width="9" height="9" fill="{colour}"><title>{tip}</title></rect>"#,
            x - 4.5,
            y - 4.5
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn marks_follow_the_thresholds_and_proven_outcomes() {
        assert_eq!(verdict(2.0, 1.5, false), None);
        assert_eq!(verdict(2.0, 1.0, false), Some(Verdict::Inaccuracy));
        assert_eq!(verdict(2.0, -1.0, false), Some(Verdict::Mistake));
        assert_eq!(verdict(8.0, 2.0, false), Some(Verdict::Blunder));
        // A proven win thrown to a draw, for one seed: a blunder.
        assert_eq!(verdict(1.0, 0.0, true), Some(Verdict::Blunder));
        assert_eq!(verdict(1.0, 0.0, false), Some(Verdict::Inaccuracy));
        // Accuracy: 100 for a kept value, less for a larger drop, less for
        // the same seeds lost nearer the balance.
        assert_eq!(accuracy(3.0, 3.0), 100.0);
        assert_eq!(accuracy(3.0, 5.0), 100.0);
        assert!(accuracy(1.0, -1.0) < accuracy(1.0, 0.0));
        assert!(accuracy(1.0, -1.0) < accuracy(21.0, 19.0));
        assert!(accuracy(30.0, -30.0) < 5.0);
        assert!((win_chance(0.0) - 50.0).abs() < 1e-9);
    }

    /// The graph marks each marked move with its side's shape and its
    /// mark's colour, and has a legend for both.
    #[test]
    fn the_graph_has_a_legend_and_tells_the_sides_apart() {
        let ply = |ply: usize, side: Side, before: f64, after: f64| PlyReview {
            ply,
            side,
            mv: Move::from_pit(1),
            best: Move::from_pit(2),
            before,
            after,
            exact: false,
            verdict: verdict(before, after, false),
        };
        let review = Review {
            plies: vec![
                ply(1, Side::South, 2.0, 0.5),
                ply(2, Side::North, -0.5, -4.0),
                ply(3, Side::South, 4.0, -3.0),
                ply(4, Side::North, 3.0, 3.0),
            ],
        };
        let svg = svg(
            &review,
            "bohnenspiel: A (South) vs B (North), South 40, North 32",
        );
        assert!(svg.contains(">bohnenspiel: A (South) vs B (North), South 40, North 32</text>"));
        const LEGEND: [&str; 5] = [
            "inaccuracy ?!",
            "mistake ?",
            "blunder ??",
            "South's move",
            "North's move",
        ];
        for label in LEGEND {
            assert!(svg.contains(&format!(">{label}</text>")), "{label}: {svg}");
        }
        // The plies: South's inaccuracy a circle, North's mistake a
        // square, South's blunder a circle; the unmarked fourth none.
        assert!(
            svg.contains(
                r##"fill="#e0c000"><title>ply 1, South's 1?!: inaccuracy, best 2</title></circle>"##
            ),
            "{svg}"
        );
        assert!(
            svg.contains(
                r##"fill="#f08000"><title>ply 2, North's 1?: mistake, best 2</title></rect>"##
            ),
            "{svg}"
        );
        assert!(
            svg.contains(
                r##"fill="#d00000"><title>ply 3, South's 1??: blunder, best 2</title></circle>"##
            ),
            "{svg}"
        );
        assert!(!svg.contains("<title>ply 4"), "{svg}");
        // The line: the start at ply 0, then the value after each move, so
        // South's blunder at ply 3 (+4 to -3) drops at ply 3, where its mark is.
        let line = svg
            .split("points=\"")
            .nth(1)
            .unwrap()
            .split('"')
            .next()
            .unwrap();
        let points: Vec<(f64, f64)> = line
            .split(' ')
            .map(|p| {
                let (a, b) = p.split_once(',').unwrap();
                (a.parse().unwrap(), b.parse().unwrap())
            })
            .collect();
        assert_eq!(points.len(), 5, "{line}");
        assert_eq!(points[0].0, 50.0, "ply 0 at the left edge");
        let blunder = svg
            .split("<circle cx=\"")
            .find(|c| c.contains("<title>ply 3,"));
        let (cx, rest) = blunder.unwrap().split_once('"').unwrap();
        let cy: f64 = rest
            .split("cy=\"")
            .nth(1)
            .unwrap()
            .split('"')
            .next()
            .unwrap()
            .parse()
            .unwrap();
        assert_eq!((cx.parse::<f64>().unwrap(), cy), points[3], "{svg}");
        assert!(points[3].1 > points[2].1, "the drop shows at ply 3: {line}");
        // The legend's entries, where the picture puts them, do not run into
        // each other: each label (at most 7 px a character) ends before the
        // next entry's marker (5 px left of its label's start, less 9).
        let label_x = |label: &str| -> f64 {
            let (before, _) = svg.split_once(&format!(">{label}</text>")).unwrap();
            let at = before.rsplit("<text x=\"").next().unwrap();
            at.split('"').next().unwrap().parse().unwrap()
        };
        for pair in LEGEND.windows(2) {
            let end = label_x(pair[0]) + 7.0 * pair[0].chars().count() as f64;
            assert!(end < label_x(pair[1]) - 14.0, "{pair:?}: {svg}");
        }
        let last = LEGEND[4];
        assert!(
            label_x(last) + 7.0 * last.len() as f64 <= 800.0,
            "the legend fits the width"
        );
    }
}
