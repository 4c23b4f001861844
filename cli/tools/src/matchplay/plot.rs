//! `--plot FILE.svg`: the Elo estimate with its 95% interval as the games
//! go by, one panel per pairing, and the SPRT log-likelihood ratio with its
//! bounds when a test ran. Hand-written SVG, no dependencies.

use std::fmt::Write;

use super::runner::PairingStats;
use super::stats::Sprt;

const WIDTH: f64 = 760.0;
const PANEL: f64 = 260.0;
const LEFT: f64 = 64.0;
const RIGHT: f64 = 20.0;
const TOP: f64 = 34.0;
const BOTTOM: f64 = 40.0;
/// Elo values beyond this are drawn at the edge (early intervals are wide
/// and a perfect score is infinite).
const ELO_CLIP: f64 = 600.0;

struct Axes {
    x0: f64,
    x1: f64,
    y0: f64,
    y1: f64,
    top: f64,
}

impl Axes {
    fn x(&self, v: f64) -> f64 {
        LEFT + (v - self.x0) / (self.x1 - self.x0).max(1e-9) * (WIDTH - LEFT - RIGHT)
    }
    fn y(&self, v: f64) -> f64 {
        let v = v.clamp(self.y0, self.y1);
        self.top + PANEL - (v - self.y0) / (self.y1 - self.y0).max(1e-9) * PANEL
    }
}

fn nice_step(span: f64) -> f64 {
    let raw = span / 6.0;
    let mag = 10f64.powf(raw.log10().floor());
    [1.0, 2.0, 5.0, 10.0]
        .into_iter()
        .map(|m| m * mag)
        .find(|s| *s >= raw)
        .unwrap_or(10.0 * mag)
}

fn frame(svg: &mut String, ax: &Axes, title: &str, y_label: &str) {
    let bottom = ax.top + PANEL;
    let _ = writeln!(
        svg,
        r##"<text x="{LEFT}" y="{}" font-size="14" font-weight="bold">{}</text>"##,
        ax.top - 10.0,
        escape(title)
    );
    let _ = writeln!(
        svg,
        r##"<rect x="{LEFT}" y="{}" width="{}" height="{PANEL}" fill="none" stroke="#888"/>"##,
        ax.top,
        WIDTH - LEFT - RIGHT
    );
    let step = nice_step(ax.y1 - ax.y0);
    let decimals = if step >= 1.0 {
        0
    } else {
        (-step.log10()).ceil() as usize
    };
    let mut k = (ax.y0 / step).ceil();
    while k * step <= ax.y1 + 1e-9 {
        let v = k * step;
        k += 1.0;
        let y = ax.y(v);
        let label = format!("{:.*}", decimals, v + 0.0);
        let label = if label.trim_start_matches(['-', '0', '.']).is_empty() {
            "0".to_string()
        } else {
            label
        };
        let _ = writeln!(
            svg,
            r##"<line x1="{LEFT}" y1="{y:.1}" x2="{:.1}" y2="{y:.1}" stroke="#eee"/><text x="{:.1}" y="{:.1}" font-size="11" text-anchor="end">{}</text>"##,
            WIDTH - RIGHT,
            LEFT - 6.0,
            y + 4.0,
            label
        );
    }
    let step = nice_step(ax.x1 - ax.x0).max(1.0).round();
    let mut g = (ax.x0 / step).ceil() * step;
    while g <= ax.x1 + 1e-9 {
        let x = ax.x(g);
        let _ = writeln!(
            svg,
            r##"<text x="{x:.1}" y="{:.1}" font-size="11" text-anchor="middle">{g}</text>"##,
            bottom + 15.0
        );
        g += step;
    }
    let _ = writeln!(
        svg,
        r##"<text x="{:.1}" y="{:.1}" font-size="12" text-anchor="middle">games</text><text x="14" y="{:.1}" font-size="12" transform="rotate(-90 14 {:.1})" text-anchor="middle">{y_label}</text>"##,
        (LEFT + WIDTH - RIGHT) / 2.0,
        bottom + 32.0,
        ax.top + PANEL / 2.0,
        ax.top + PANEL / 2.0
    );
}

fn hline(svg: &mut String, ax: &Axes, v: f64, colour: &str, dash: bool) {
    let y = ax.y(v);
    let dash = if dash {
        r#" stroke-dasharray="6 4""#
    } else {
        ""
    };
    let _ = writeln!(
        svg,
        r##"<line x1="{LEFT}" y1="{y:.1}" x2="{:.1}" y2="{y:.1}" stroke="{colour}"{dash}/>"##,
        WIDTH - RIGHT
    );
}

fn escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

/// Draws the plot: `pairings` are (title, stats) in order.
pub fn svg(pairings: &[(String, &PairingStats)], sprt: Option<&Sprt>) -> String {
    let panels: usize = pairings.len() + if sprt.is_some() { 1 } else { 0 };
    let height = (TOP + PANEL + BOTTOM) * panels.max(1) as f64;
    let mut svg = String::new();
    let _ = writeln!(
        svg,
        r##"<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{height}" viewBox="0 0 {WIDTH} {height}" font-family="sans-serif"><rect width="100%" height="100%" fill="white"/>"##
    );
    for (k, (title, st)) in pairings.iter().enumerate() {
        elo_panel(&mut svg, k, title, st);
    }
    if let (Some(sprt), Some((_, st))) = (sprt, pairings.first()) {
        sprt_panel(&mut svg, pairings.len(), sprt, st);
    }
    svg.push_str("</svg>\n");
    svg
}

/// The Elo panel of pairing `k` (from 0): its estimate and 95 % interval
/// game by game.
fn elo_panel(svg: &mut String, k: usize, title: &str, st: &PairingStats) {
    let points = &st.history;
    let finite = |v: f64| v.is_finite().then_some(v.clamp(-ELO_CLIP, ELO_CLIP));
    let (mut lo, mut hi) = (-10.0f64, 10.0f64);
    // Scale to the second half of the run, where the interval has
    // settled; earlier points are clipped to the frame.
    for (_, e) in points.iter().skip(points.len() / 2) {
        for v in [e.low, e.elo, e.high].into_iter().filter_map(finite) {
            lo = lo.min(v);
            hi = hi.max(v);
        }
    }
    let pad = (hi - lo) * 0.1;
    let ax = Axes {
        x0: 0.0,
        x1: points.last().map_or(2.0, |p| p.0 as f64),
        y0: lo - pad,
        y1: hi + pad,
        top: TOP + k as f64 * (TOP + PANEL + BOTTOM),
    };
    let last = points
        .last()
        .map(|(n, e)| {
            format!(
                " — {n} games: {:+.1} [{:+.1}, {:+.1}]",
                e.elo, e.low, e.high
            )
        })
        .unwrap_or_default();
    frame(svg, &ax, &format!("{title}{last}"), "Elo (95% interval)");
    hline(svg, &ax, 0.0, "#444", false);
    if !points.is_empty() {
        let clip = |v: f64| v.clamp(ax.y0, ax.y1);
        let mut band = String::new();
        for (n, e) in points {
            let _ = write!(band, "{:.1},{:.1} ", ax.x(*n as f64), ax.y(clip(e.high)));
        }
        for (n, e) in points.iter().rev() {
            let _ = write!(band, "{:.1},{:.1} ", ax.x(*n as f64), ax.y(clip(e.low)));
        }
        let _ = writeln!(
            svg,
            r##"<polygon points="{}" fill="#9ecae1" fill-opacity="0.6" stroke="none"/>"##,
            band.trim_end()
        );
        let line: Vec<String> = points
            .iter()
            .map(|(n, e)| format!("{:.1},{:.1}", ax.x(*n as f64), ax.y(clip(e.elo))))
            .collect();
        let _ = writeln!(
            svg,
            r##"<polyline points="{}" fill="none" stroke="#08519c" stroke-width="2"/>"##,
            line.join(" ")
        );
    }
}

/// The SPRT panel, below `above` panels: the log-likelihood ratio of the
/// first pairing `st` game by game, between the test's bounds.
fn sprt_panel(svg: &mut String, above: usize, sprt: &Sprt, st: &PairingStats) {
    let points = &st.llr_history;
    let (lo, hi) = points
        .iter()
        .fold((sprt.lower(), sprt.upper()), |(l, h), (_, v)| {
            (l.min(*v), h.max(*v))
        });
    let ax = Axes {
        x0: 0.0,
        x1: points.last().map_or(2.0, |p| p.0 as f64),
        y0: lo - 0.3,
        y1: hi + 0.3,
        top: TOP + above as f64 * (TOP + PANEL + BOTTOM),
    };
    let title = format!(
        "SPRT elo0={} elo1={} alpha={} beta={}: log-likelihood ratio",
        sprt.elo0, sprt.elo1, sprt.alpha, sprt.beta
    );
    frame(svg, &ax, &title, "LLR");
    hline(svg, &ax, sprt.lower(), "#cb181d", true);
    hline(svg, &ax, sprt.upper(), "#238b45", true);
    hline(svg, &ax, 0.0, "#444", false);
    let line: Vec<String> = points
        .iter()
        .map(|(n, v)| format!("{:.1},{:.1}", ax.x(*n as f64), ax.y(*v)))
        .collect();
    let _ = writeln!(
        svg,
        r##"<polyline points="{}" fill="none" stroke="#6a51a3" stroke-width="2"/>"##,
        line.join(" ")
    );
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::matchplay::stats::Estimate;

    #[test]
    fn draws_band_line_and_bounds() {
        let mut st = PairingStats::default();
        for (n, elo) in [(2u32, f64::INFINITY), (4, 40.0), (6, 20.0)] {
            st.history.push((
                n,
                Estimate {
                    score: 0.5,
                    elo,
                    low: elo - 30.0,
                    high: elo + 30.0,
                },
            ));
            st.llr_history.push((n, 0.1 * n as f64));
        }
        let sprt = Sprt {
            elo0: 0.0,
            elo1: 10.0,
            alpha: 0.05,
            beta: 0.05,
        };
        let out = svg(&[("a <vs> b".to_string(), &st)], Some(&sprt));
        assert!(out.starts_with("<svg"));
        assert!(out.trim_end().ends_with("</svg>"));
        assert_eq!(out.matches("<polygon").count(), 1);
        assert_eq!(out.matches("<polyline").count(), 2);
        assert!(out.contains("a &lt;vs&gt; b"));
        assert!(!out.contains("NaN") && !out.contains("inf"));
    }
}
