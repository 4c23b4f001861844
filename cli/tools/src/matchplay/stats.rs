//! Match statistics: score, Elo difference with a 95% interval (trinomial
//! and pentanomial), likelihood of superiority and the sequential
//! probability ratio test. Pure functions, the formulas cutechess-cli and
//! fastchess use (logistic Elo; the SPRT log-likelihood ratio is the
//! generalised SPRT of fishtest's `LLR_logistic`, after M. Van den Bergh).

/// Two-sided 95% quantile of the standard normal distribution.
pub const Z95: f64 = 1.959_963_984_540_054;

/// Wins, draws and losses, from one player's point of view.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Wdl {
    /// Games won.
    pub wins: u32,
    /// Games drawn.
    pub draws: u32,
    /// Games lost.
    pub losses: u32,
}

impl Wdl {
    /// Games counted.
    pub fn games(&self) -> u32 {
        self.wins + self.draws + self.losses
    }

    /// Adds one game scored 1, ½ or 0 (given in half points: 2, 1, 0).
    pub fn add(&mut self, half_points: u8) {
        match half_points {
            2 => self.wins += 1,
            1 => self.draws += 1,
            _ => self.losses += 1,
        }
    }

    /// The score fraction, `(W + D/2) / N`; `None` before the first game.
    pub fn score(&self) -> Option<f64> {
        let n = self.games();
        (n > 0).then(|| (self.wins as f64 + 0.5 * self.draws as f64) / n as f64)
    }

    /// The share of draws; `None` before the first game.
    pub fn draw_ratio(&self) -> Option<f64> {
        let n = self.games();
        (n > 0).then(|| self.draws as f64 / n as f64)
    }

    /// Mean and variance of one game's score.
    fn moments(&self) -> Option<(f64, f64)> {
        let n = self.games() as f64;
        let s = self.score()?;
        let var = (self.wins as f64 * (1.0 - s).powi(2)
            + self.draws as f64 * (0.5 - s).powi(2)
            + self.losses as f64 * s.powi(2))
            / n;
        Some((s, var))
    }
}

/// Pentanomial counts: game pairs (one opening, colours swapped) by the
/// points the player took from the pair: index 0 = 0 points (LL), 1 = ½
/// (LD), 2 = 1 (DD or WL), 3 = 1½ (WD), 4 = 2 (WW).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Penta(pub [u32; 5]);

impl Penta {
    /// Pairs counted.
    pub fn pairs(&self) -> u32 {
        self.0.iter().sum()
    }

    /// Adds a pair given the player's half points in its two games.
    pub fn add(&mut self, first: u8, second: u8) {
        self.0[(first + second).min(4) as usize] += 1;
    }

    /// Mean and variance of one pair's score (as a fraction 0, ¼, …, 1).
    fn moments(&self) -> Option<(f64, f64)> {
        let n = self.pairs() as f64;
        if n == 0.0 {
            return None;
        }
        let value = |i: usize| i as f64 / 4.0;
        let mean = (0..5).map(|i| self.0[i] as f64 * value(i)).sum::<f64>() / n;
        let var = (0..5)
            .map(|i| self.0[i] as f64 * (value(i) - mean).powi(2))
            .sum::<f64>()
            / n;
        Some((mean, var))
    }
}

/// An Elo estimate with its 95% interval. Values are infinite when the
/// score (or a bound) is 0 or 1.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Estimate {
    /// The score fraction.
    pub score: f64,
    /// Elo difference of the score.
    pub elo: f64,
    /// Lower end of the 95% interval.
    pub low: f64,
    /// Upper end of the 95% interval.
    pub high: f64,
}

impl Estimate {
    /// Whether the interval is known: the samples differ (two drawn
    /// games give none).
    pub fn has_interval(&self) -> bool {
        self.low.is_finite() || self.high.is_finite()
    }
}

/// Logistic Elo difference of a score fraction: `-400 log10(1/s - 1)`.
pub fn score_to_elo(score: f64) -> f64 {
    if score <= 0.0 {
        f64::NEG_INFINITY
    } else if score >= 1.0 {
        f64::INFINITY
    } else {
        -400.0 * (1.0 / score - 1.0).log10()
    }
}

/// Expected score of an Elo difference: `1 / (1 + 10^(-elo/400))`.
pub fn elo_to_score(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// The estimate of a mean score and its variance over `n` samples. Where
/// every sample scored the same (two drawn games) the variance is 0 and
/// says nothing of the spread: the interval is then the whole line, not
/// a point ([`Estimate::has_interval`]).
fn estimate(mean: f64, var: f64, n: f64) -> Estimate {
    if var <= 0.0 {
        return Estimate {
            score: mean,
            elo: score_to_elo(mean),
            low: f64::NEG_INFINITY,
            high: f64::INFINITY,
        };
    }
    let half = Z95 * (var / n).sqrt();
    Estimate {
        score: mean,
        elo: score_to_elo(mean),
        low: score_to_elo(mean - half),
        high: score_to_elo(mean + half),
    }
}

/// The Elo estimate from game results (trinomial model).
pub fn wdl_estimate(wdl: &Wdl) -> Option<Estimate> {
    let (s, var) = wdl.moments()?;
    Some(estimate(s, var, wdl.games() as f64))
}

/// The Elo estimate from game pairs (pentanomial model, tighter because it
/// accounts for the pairing of colours and openings).
pub fn penta_estimate(penta: &Penta) -> Option<Estimate> {
    let (s, var) = penta.moments()?;
    Some(estimate(s, var, penta.pairs() as f64))
}

/// Likelihood of superiority, cutechess-cli's formula:
/// `½ (1 + erf((W - L) / √(2 (W + L))))`. ½ when no game was decisive.
pub fn los(wdl: &Wdl) -> f64 {
    let decisive = (wdl.wins + wdl.losses) as f64;
    if decisive == 0.0 {
        return 0.5;
    }
    0.5 * (1.0 + erf((wdl.wins as f64 - wdl.losses as f64) / (2.0 * decisive).sqrt()))
}

/// The error function, to about 1e-13 (Taylor series below 3, the
/// continued fraction of erfc above).
pub fn erf(x: f64) -> f64 {
    if x < 0.0 {
        return -erf(-x);
    }
    if x < 3.0 {
        // erf x = 2/√π Σ (-1)^n x^(2n+1) / (n! (2n+1))
        let mut term = x;
        let mut sum = x;
        let x2 = x * x;
        for n in 1..200 {
            term *= -x2 / n as f64;
            let add = term / (2 * n + 1) as f64;
            sum += add;
            if add.abs() < 1e-17 * sum.abs() {
                break;
            }
        }
        sum * 2.0 / std::f64::consts::PI.sqrt()
    } else {
        // erfc x = e^(-x²)/√π · 1/(x + (1/2)/(x + 1/(x + (3/2)/(x + …))))
        let mut frac = x;
        for k in (1..80).rev() {
            frac = x + (k as f64 / 2.0) / frac;
        }
        1.0 - (-x * x).exp() / (std::f64::consts::PI.sqrt() * frac)
    }
}

/// The distribution closest to `p` (maximum likelihood) whose expected
/// value of `values` is `mean`: `pᵢ / (1 + λ (vᵢ − mean))` with λ found by
/// bisection (the constraint is monotone in λ). `mean` must lie strictly
/// between the smallest and the largest value.
fn constrained_mle(p: &[f64], values: &[f64], mean: f64) -> Vec<f64> {
    let d: Vec<f64> = values.iter().map(|v| v - mean).collect();
    let max = d.iter().cloned().fold(f64::MIN, f64::max);
    let min = d.iter().cloned().fold(f64::MAX, f64::min);
    // 1 + λ dᵢ > 0 for every i: λ in (−1/max, −1/min).
    let (mut lo, mut hi) = (-1.0 / max, -1.0 / min);
    let f = |l: f64| -> f64 { p.iter().zip(&d).map(|(p, d)| p * d / (1.0 + l * d)).sum() };
    for _ in 0..200 {
        let mid = 0.5 * (lo + hi);
        if f(mid) > 0.0 {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    let l = 0.5 * (lo + hi);
    p.iter().zip(&d).map(|(p, d)| p / (1.0 + l * d)).collect()
}

/// The sequential probability ratio test between H0: Elo = `elo0` and
/// H1: Elo = `elo1` (logistic Elo), with error rates `alpha` and `beta`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sprt {
    /// Elo under H0.
    pub elo0: f64,
    /// Elo under H1.
    pub elo1: f64,
    /// False-positive rate (accepting H1 when H0 holds).
    pub alpha: f64,
    /// False-negative rate (accepting H0 when H1 holds).
    pub beta: f64,
}

/// An `--sprt` setting that cannot be read (the grammar
/// `elo0=E elo1=E alpha=A beta=B`, any of them, separated by spaces or
/// commas).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SprtSpecError {
    /// A word that is not `KEY=VALUE`.
    #[error("'{0}' is not KEY=VALUE")]
    NotKeyValue(String),
    /// A value that is not a finite number.
    #[error("{key}={value}: not a number")]
    NotANumber {
        /// The key.
        key: String,
        /// Its value.
        value: String,
    },
    /// A key the test does not have.
    #[error("unknown key '{0}' (elo0, elo1, alpha, beta)")]
    UnknownKey(String),
    /// `elo0` not below `elo1`.
    #[error("elo0 must be below elo1")]
    Order,
    /// An error rate outside `(0, 0.5)`.
    #[error("{0} must be between 0 and 0.5")]
    Rate(&'static str),
}

impl Sprt {
    /// Reads the settings from `words`; the ones not given are
    /// `elo0=0 elo1=10 alpha=0.05 beta=0.05`.
    pub fn parse<S: AsRef<str>>(words: &[S]) -> Result<Sprt, SprtSpecError> {
        let mut sprt = Sprt {
            elo0: 0.0,
            elo1: 10.0,
            alpha: 0.05,
            beta: 0.05,
        };
        for word in words
            .iter()
            .flat_map(|w| w.as_ref().split([',', ' ']))
            .filter(|w| !w.is_empty())
        {
            let (key, value) = word
                .split_once('=')
                .ok_or_else(|| SprtSpecError::NotKeyValue(word.to_string()))?;
            let v: f64 = value
                .parse()
                .ok()
                .filter(|v: &f64| v.is_finite())
                .ok_or_else(|| SprtSpecError::NotANumber {
                    key: key.to_string(),
                    value: value.to_string(),
                })?;
            match key {
                "elo0" => sprt.elo0 = v,
                "elo1" => sprt.elo1 = v,
                "alpha" => sprt.alpha = v,
                "beta" => sprt.beta = v,
                _ => return Err(SprtSpecError::UnknownKey(key.to_string())),
            }
        }
        if sprt.elo0 >= sprt.elo1 {
            return Err(SprtSpecError::Order);
        }
        for (name, v) in [("alpha", sprt.alpha), ("beta", sprt.beta)] {
            if !(v > 0.0 && v < 0.5) {
                return Err(SprtSpecError::Rate(name));
            }
        }
        Ok(sprt)
    }
}

/// What the SPRT says so far.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SprtState {
    /// Neither bound crossed: keep playing.
    Continue,
    /// The lower bound was crossed: H0 accepted (`elo0` more likely).
    H0,
    /// The upper bound was crossed: H1 accepted (`elo1` more likely).
    H1,
}

impl Sprt {
    /// Lower bound of the LLR: `ln(β / (1 − α))`.
    pub fn lower(&self) -> f64 {
        (self.beta / (1.0 - self.alpha)).ln()
    }

    /// Upper bound of the LLR: `ln((1 − β) / α)`.
    pub fn upper(&self) -> f64 {
        ((1.0 - self.beta) / self.alpha).ln()
    }

    /// The generalised log-likelihood ratio of outcome `counts` with
    /// scores `values` (fishtest's `LLR_logistic`): the outcome
    /// distribution is estimated by maximum likelihood under each
    /// hypothesis' expected score, and the LLR is
    /// `N Σ p̂ᵢ ln(p₁ᵢ / p₀ᵢ)`. Empty bins count as 0.001 (fishtest's
    /// regularisation), so that both estimates exist.
    fn llr(&self, counts: &[u32], values: &[f64]) -> f64 {
        if counts.iter().all(|&c| c == 0) {
            return 0.0;
        }
        let reg: Vec<f64> = counts.iter().map(|&c| (c as f64).max(1e-3)).collect();
        let n: f64 = reg.iter().sum();
        let p: Vec<f64> = reg.iter().map(|c| c / n).collect();
        let p0 = constrained_mle(&p, values, elo_to_score(self.elo0));
        let p1 = constrained_mle(&p, values, elo_to_score(self.elo1));
        n * p
            .iter()
            .zip(p0.iter().zip(&p1))
            .map(|(p, (a, b))| p * (b / a).ln())
            .sum::<f64>()
    }

    /// Log-likelihood ratio from game pairs (pentanomial model).
    pub fn llr_penta(&self, penta: &Penta) -> f64 {
        self.llr(&penta.0, &[0.0, 0.25, 0.5, 0.75, 1.0])
    }

    /// Log-likelihood ratio from single games (trinomial model).
    pub fn llr_wdl(&self, wdl: &Wdl) -> f64 {
        self.llr(&[wdl.losses, wdl.draws, wdl.wins], &[0.0, 0.5, 1.0])
    }

    /// Which bound, if any, an LLR has crossed.
    pub fn state(&self, llr: f64) -> SprtState {
        if llr >= self.upper() {
            SprtState::H1
        } else if llr <= self.lower() {
            SprtState::H0
        } else {
            SprtState::Continue
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64, tol: f64) {
        assert!((a - b).abs() <= tol, "{a} is not {b} (±{tol})");
    }

    // Expected values below were worked from the formulas by hand (with a
    // calculator), not produced by this code.

    #[test]
    fn elo_of_scores() {
        close(score_to_elo(0.5), 0.0, 1e-12);
        // 3:1 odds: 400 log10 3.
        close(score_to_elo(0.75), 190.848_501_887_865, 1e-9);
        close(score_to_elo(0.6), 70.436_503_622_272, 1e-9);
        close(score_to_elo(0.25), -190.848_501_887_865, 1e-9);
        assert_eq!(score_to_elo(1.0), f64::INFINITY);
        assert_eq!(score_to_elo(0.0), f64::NEG_INFINITY);
        close(elo_to_score(190.848_501_887_865), 0.75, 1e-12);
    }

    #[test]
    fn erf_matches_tables() {
        close(erf(0.0), 0.0, 1e-15);
        close(erf(0.5), 0.520_499_877_813_046_5, 1e-13);
        close(erf(1.0), 0.842_700_792_949_714_9, 1e-13);
        close(erf(-1.2), -0.910_313_978_229_635_3, 1e-13);
        close(erf(2.5), 0.999_593_047_982_555, 1e-13);
        close(erf(3.5), 0.999_999_256_901_627_6, 1e-13);
    }

    #[test]
    fn trinomial_interval() {
        // 30 wins, 40 draws, 30 losses: s = ½, per-game variance
        // (30·¼ + 30·¼)/100 = 0.15, standard error √(0.15/100) = 0.038730,
        // so s = 0.5 ± 0.075909 → ±53.158 Elo.
        let wdl = Wdl {
            wins: 30,
            draws: 40,
            losses: 30,
        };
        let e = wdl_estimate(&wdl).unwrap();
        close(e.elo, 0.0, 1e-9);
        close(e.low, -53.157_979_780_053, 1e-6);
        close(e.high, 53.157_979_780_053, 1e-6);
        close(wdl.draw_ratio().unwrap(), 0.4, 1e-12);

        // 60-25-15: s = 0.725 (168.402 Elo), variance 0.136875,
        // interval [109.441, 238.135].
        let wdl = Wdl {
            wins: 60,
            draws: 25,
            losses: 15,
        };
        let e = wdl_estimate(&wdl).unwrap();
        close(e.score, 0.725, 1e-12);
        close(e.elo, 168.402_125_096_292, 1e-6);
        close(e.low, 109.441_054_254_899, 1e-6);
        close(e.high, 238.135_223_361_395, 1e-6);
        assert_eq!(wdl_estimate(&Wdl::default()), None);
    }

    #[test]
    fn pentanomial_interval() {
        // Pairs [5, 20, 50, 15, 10]: mean (20·¼ + 50·½ + 15·¾ + 10)/100
        // = 0.5125, variance 0.05921875, standard error 0.0243349,
        // interval [-24.497, 42.032] around 8.688 Elo.
        let p = Penta([5, 20, 50, 15, 10]);
        let e = penta_estimate(&p).unwrap();
        close(e.score, 0.5125, 1e-12);
        close(e.elo, 8.687_699_877_294, 1e-6);
        close(e.low, -24.496_874_902_266, 1e-6);
        close(e.high, 42.032_002_342_477, 1e-6);
        let mut q = Penta::default();
        q.add(2, 0);
        q.add(1, 1);
        q.add(2, 1);
        assert_eq!(q, Penta([0, 0, 2, 1, 0]));
    }

    #[test]
    fn likelihood_of_superiority() {
        let los_of = |wins, losses| {
            los(&Wdl {
                wins,
                draws: 7,
                losses,
            })
        };
        // ½(1 + erf(2/√20)) = 0.736455…
        close(los_of(6, 4), 0.736_455_371_567_231, 1e-12);
        close(los_of(4, 6), 1.0 - 0.736_455_371_567_231, 1e-12);
        close(los_of(5, 5), 0.5, 1e-15);
        close(los_of(0, 0), 0.5, 1e-15);
        close(los_of(60, 15), 0.999_999_898_272_269, 1e-12);
    }

    #[test]
    fn sprt_bounds_and_llr() {
        let sprt = Sprt {
            elo0: 0.0,
            elo1: 10.0,
            alpha: 0.05,
            beta: 0.05,
        };
        // ln(0.05/0.95) = -2.944439
        close(sprt.lower(), -2.944_438_979_166_44, 1e-12);
        close(sprt.upper(), 2.944_438_979_166_44, 1e-12);
        // s0 = ½, s1 = 1/(1 + 10^(-1/40)) = 0.514387. Expected values from
        // a separate Python transcription of fishtest's LLR_logistic
        // (regularised counts, constrained MLE by 3000-step bisection).
        close(
            sprt.llr_penta(&Penta([5, 20, 50, 15, 10])),
            0.129_775_709_202_094,
            1e-9,
        );
        close(
            sprt.llr_penta(&Penta([6, 10, 24, 22, 40])),
            2.110_016_763_741_653,
            1e-9,
        );
        close(
            sprt.llr_penta(&Penta([25, 40, 192, 83, 160])),
            10.105_291_959_978_16,
            1e-8,
        );
        close(
            sprt.llr_penta(&Penta([0, 10, 30, 10, 0])),
            -0.206_506_381_691_527,
            1e-9,
        );
        // Five won pairs prove little about a 10 Elo difference: the
        // normal approximation would say 3.2 here and stop the test.
        close(
            sprt.llr_penta(&Penta([0, 0, 0, 1, 4])),
            0.141_864_046_159_628,
            1e-9,
        );
        let wdl = Wdl {
            wins: 60,
            draws: 25,
            losses: 15,
        };
        close(sprt.llr_wdl(&wdl), 1.676_516_052_259_388, 1e-9);
        let even = Wdl {
            wins: 30,
            draws: 40,
            losses: 30,
        };
        close(sprt.llr_wdl(&even), -0.069_012_915_691_753, 1e-9);
        assert_eq!(sprt.state(2.0), SprtState::Continue);
        assert_eq!(sprt.state(3.0), SprtState::H1);
        assert_eq!(sprt.state(-3.0), SprtState::H0);
        assert_eq!(sprt.llr_penta(&Penta::default()), 0.0);
    }

    #[test]
    fn sprt_settings_parse_and_bad_ones_are_refused() {
        let s = Sprt::parse(&["elo0=0 elo1=5", "alpha=0.1,beta=0.2"]).unwrap();
        assert_eq!((s.elo0, s.elo1, s.alpha, s.beta), (0.0, 5.0, 0.1, 0.2));
        let d = Sprt::parse::<&str>(&[]).unwrap();
        assert_eq!((d.elo0, d.elo1, d.alpha, d.beta), (0.0, 10.0, 0.05, 0.05));
        assert_eq!(
            Sprt::parse(&["elo0"]),
            Err(SprtSpecError::NotKeyValue("elo0".into()))
        );
        assert!(matches!(
            Sprt::parse(&["elo1=x"]),
            Err(SprtSpecError::NotANumber { .. })
        ));
        assert_eq!(
            Sprt::parse(&["gamma=1"]),
            Err(SprtSpecError::UnknownKey("gamma".into()))
        );
        assert_eq!(
            Sprt::parse(&["elo0=10", "elo1=0"]),
            Err(SprtSpecError::Order)
        );
        assert_eq!(
            Sprt::parse(&["alpha=0.5"]),
            Err(SprtSpecError::Rate("alpha"))
        );
    }
}
