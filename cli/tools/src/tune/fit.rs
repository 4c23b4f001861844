//! Fitting evaluation weights: ridge-regularised least squares of a linear
//! evaluation (weights · feature differences) against labels in seeds (a
//! game's final margin, or a deeper search's score), pulled towards the
//! starting weights so that a feature that never varies keeps its weight.

/// One labelled position: feature differences (side to move minus
/// opponent) and the target in seeds from the side to move's view.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sample<const N: usize> {
    /// Feature differences (scaled by the share of the weights fitted,
    /// where two sets are blended).
    pub features: [f64; N],
    /// The label, in seeds.
    pub target: f64,
}

/// The linear evaluation of a sample, in seeds.
pub fn predict<const N: usize>(w: &[f64; N], x: &[f64; N]) -> f64 {
    w.iter().zip(x).map(|(w, x)| w * x).sum()
}

/// Mean squared error of `w` on `samples` (0 for no samples).
pub fn mse<const N: usize>(w: &[f64; N], samples: &[Sample<N>]) -> f64 {
    if samples.is_empty() {
        return 0.0;
    }
    samples
        .iter()
        .map(|s| (predict(w, &s.features) - s.target).powi(2))
        .sum::<f64>()
        / samples.len() as f64
}

/// Variance of the labels (the error of the best constant guess).
pub fn variance(labels: &[f64]) -> f64 {
    if labels.is_empty() {
        return 0.0;
    }
    let n = labels.len() as f64;
    let mean = labels.iter().sum::<f64>() / n;
    labels.iter().map(|y| (y - mean).powi(2)).sum::<f64>() / n
}

/// Solves `a x = b` by Gaussian elimination with partial pivoting; `None`
/// if `a` is singular.
pub fn solve<const N: usize>(mut a: [[f64; N]; N], mut b: [f64; N]) -> Option<[f64; N]> {
    for col in 0..N {
        let pivot = (col..N).max_by(|&i, &j| a[i][col].abs().total_cmp(&a[j][col].abs()))?;
        if a[pivot][col].abs() < 1e-12 {
            return None;
        }
        a.swap(col, pivot);
        b.swap(col, pivot);
        for row in col + 1..N {
            let f = a[row][col] / a[col][col];
            let pivot_row = a[col];
            for (x, p) in a[row][col..].iter_mut().zip(&pivot_row[col..]) {
                *x -= f * p;
            }
            b[row] -= f * b[col];
        }
    }
    let mut x = [0.0; N];
    for row in (0..N).rev() {
        let rest: f64 = (row + 1..N).map(|k| a[row][k] * x[k]).sum();
        x[row] = (b[row] - rest) / a[row][row];
    }
    Some(x)
}

/// The weights minimising `Σ (w·x − y)² + λ n Σ (w − start)²`, with
/// `n` the number of samples.
pub fn fit<const N: usize>(samples: &[Sample<N>], start: &[f64; N], lambda: f64) -> [f64; N] {
    let n = samples.len().max(1) as f64;
    let mut a = [[0.0; N]; N];
    let mut b = [0.0; N];
    for s in samples {
        for i in 0..N {
            let xi = s.features[i];
            b[i] += xi * s.target;
            for (aij, xj) in a[i].iter_mut().zip(&s.features) {
                *aij += xi * xj;
            }
        }
    }
    for i in 0..N {
        a[i][i] += lambda * n;
        b[i] += lambda * n * start[i];
    }
    solve(a, b).unwrap_or(*start)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn solves_a_hand_worked_system() {
        // 2x + y = 5, x + 3y = 10 → x = 1, y = 3.
        let x = solve([[2.0, 1.0], [1.0, 3.0]], [5.0, 10.0]).unwrap();
        assert!((x[0] - 1.0).abs() < 1e-12 && (x[1] - 3.0).abs() < 1e-12);
        assert_eq!(solve([[1.0, 2.0], [2.0, 4.0]], [1.0, 2.0]), None);
    }

    #[test]
    fn recovers_known_weights_and_keeps_constant_features() {
        // y = 1.5 a − 0.5 b exactly; the third feature is always 0.
        let mut samples = Vec::new();
        for a in -5..=5 {
            for b in -3..=3 {
                samples.push(Sample {
                    features: [a as f64, b as f64, 0.0],
                    target: 1.5 * a as f64 - 0.5 * b as f64,
                });
            }
        }
        let w = fit(&samples, &[1.0, 0.0, 0.25], 1e-9);
        assert!((w[0] - 1.5).abs() < 1e-6, "{w:?}");
        assert!((w[1] + 0.5).abs() < 1e-6, "{w:?}");
        assert!((w[2] - 0.25).abs() < 1e-12, "{w:?}");
        assert!(mse(&w, &samples) < 1e-10);
        // A strong pull keeps the start.
        let w = fit(&samples, &[1.0, 0.0, 0.25], 1e9);
        assert!((w[0] - 1.0).abs() < 1e-6 && w[1].abs() < 1e-6);
    }

    #[test]
    fn errors_by_hand() {
        let s = [
            Sample {
                features: [1.0],
                target: 2.0,
            },
            Sample {
                features: [2.0],
                target: 2.0,
            },
        ];
        // w = 1: errors −1 and 0 → mean square 0.5.
        assert!((mse(&[1.0], &s) - 0.5).abs() < 1e-12);
        assert_eq!(variance(&s.map(|s| s.target)), 0.0);
        assert!((variance(&[1.0, 3.0]) - 1.0).abs() < 1e-12);
    }
}
