//! Ratings from a round robin: the Bradley-Terry model fitted by maximum likelihood, with standard errors from the
//! curvature of the likelihood, on the Elo scale.
//!
//! Model: `P(i beats j) = 1 / (1 + exp(r_j - r_i))`; a draw counts as half a win for each side. Every player also
//! gets one virtual draw against a player rated 0 (a weak prior), which keeps an agent that won or lost everything
//! at a finite rating and makes the fit unique. The fit is Newton's method on the concave log posterior; the
//! covariance is the inverse of its negative Hessian, so an error bar reflects how many games and how close they
//! were, unlike a running Elo average, which also depends on the order the games were played in.

/// Natural rating units to Elo points (400 / ln 10).
pub const ELO_PER_UNIT: f64 = 173.717_792_761_245_1;

/// The mean rating on the reported scale.
pub const ELO_MEAN: f64 = 1500.0;

/// One player's fitted rating.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Rating {
    /// Elo-scale rating (mean of all players 1500).
    pub elo: f64,
    /// Standard error of `elo`.
    pub error: f64,
}

/// Fits ratings to `score[i][j]`: points player `i` scored against `j` (1 per win, 0.5 per draw) out of
/// `games[i][j]` games between them (symmetric). Returns one rating per player.
pub fn fit(score: &[Vec<f64>], games: &[Vec<f64>]) -> Vec<Rating> {
    let n = score.len();
    if n == 0 {
        return Vec::new();
    }
    let sigmoid = |x: f64| 1.0 / (1.0 + (-x).exp());
    let mut r = vec![0.0; n];
    for _ in 0..100 {
        let (gradient, hessian) = derivatives(&r, score, games, sigmoid);
        // Newton step: solve (-H) d = g.
        let Some(step) = solve(hessian, gradient) else { break };
        let largest = step.iter().fold(0.0f64, |m, d| m.max(d.abs()));
        let damp = if largest > 2.0 { 2.0 / largest } else { 1.0 };
        for (ri, d) in r.iter_mut().zip(&step) {
            *ri += damp * d;
        }
        if largest < 1e-10 {
            break;
        }
    }
    let (_, hessian) = derivatives(&r, score, games, sigmoid);
    let variance = centered_variances(hessian);
    let mean = r.iter().sum::<f64>() / n as f64;
    r.iter()
        .zip(variance)
        .map(|(ri, v)| Rating { elo: ELO_MEAN + (ri - mean) * ELO_PER_UNIT, error: v.max(0.0).sqrt() * ELO_PER_UNIT })
        .collect()
}

/// The gradient of the log posterior and its negative Hessian at `r`.
fn derivatives(
    r: &[f64],
    score: &[Vec<f64>],
    games: &[Vec<f64>],
    sigmoid: impl Fn(f64) -> f64,
) -> (Vec<f64>, Vec<Vec<f64>>) {
    let n = r.len();
    let mut gradient = vec![0.0; n];
    let mut neg_hessian = vec![vec![0.0; n]; n];
    for i in 0..n {
        // The virtual draw against a player rated 0.
        let p0 = sigmoid(r[i]);
        gradient[i] += 0.5 - p0;
        neg_hessian[i][i] += p0 * (1.0 - p0);
        for j in 0..n {
            let played = games[i][j];
            if i == j || played == 0.0 {
                continue;
            }
            let p = sigmoid(r[i] - r[j]);
            gradient[i] += score[i][j] - played * p;
            let w = played * p * (1.0 - p);
            neg_hessian[i][i] += w;
            neg_hessian[i][j] -= w;
        }
    }
    (gradient, neg_hessian)
}

/// Solves `a x = b` by Gaussian elimination with partial pivoting; `None` when `a` is singular.
fn solve(mut a: Vec<Vec<f64>>, mut b: Vec<f64>) -> Option<Vec<f64>> {
    let n = b.len();
    for col in 0..n {
        let pivot = (col..n).max_by(|&x, &y| a[x][col].abs().total_cmp(&a[y][col].abs()))?;
        if a[pivot][col].abs() < 1e-300 {
            return None;
        }
        a.swap(col, pivot);
        b.swap(col, pivot);
        for row in col + 1..n {
            let f = a[row][col] / a[col][col];
            if f != 0.0 {
                let (upper, lower) = a.split_at_mut(row);
                for (x, p) in lower[0][col..].iter_mut().zip(&upper[col][col..]) {
                    *x -= f * p;
                }
                b[row] -= f * b[col];
            }
        }
    }
    let mut x = vec![0.0; n];
    for row in (0..n).rev() {
        let s: f64 = (row + 1..n).map(|k| a[row][k] * x[k]).sum();
        x[row] = (b[row] - s) / a[row][row];
    }
    Some(x)
}

/// The variances of `r_i - mean(r)` under the covariance `a^-1`: only rating differences are identified by the
/// games, and the reported ratings are centred, so an error bar must not include the (prior-only) common level.
fn centered_variances(a: Vec<Vec<f64>>) -> Vec<f64> {
    let n = a.len();
    let columns: Vec<Vec<f64>> = (0..n)
        .map(|i| {
            let mut e = vec![0.0; n];
            e[i] = 1.0;
            solve(a.clone(), e).unwrap_or_else(|| vec![f64::INFINITY; n])
        })
        .collect();
    let nf = n as f64;
    let row_sum: Vec<f64> = columns.iter().map(|c| c.iter().sum()).collect();
    let total: f64 = row_sum.iter().sum();
    (0..n).map(|i| columns[i][i] - 2.0 * row_sum[i] / nf + total / (nf * nf)).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn table(n: usize, results: &[(usize, usize, f64, f64)]) -> (Vec<Vec<f64>>, Vec<Vec<f64>>) {
        let mut score = vec![vec![0.0; n]; n];
        let mut games = vec![vec![0.0; n]; n];
        for &(i, j, si, played) in results {
            score[i][j] += si;
            score[j][i] += played - si;
            games[i][j] += played;
            games[j][i] += played;
        }
        (score, games)
    }

    #[test]
    fn equal_results_give_equal_ratings_around_the_mean() {
        let (s, g) = table(3, &[(0, 1, 5.0, 10.0), (1, 2, 5.0, 10.0), (0, 2, 5.0, 10.0)]);
        for r in fit(&s, &g) {
            assert!((r.elo - ELO_MEAN).abs() < 1e-6);
            assert!(r.error > 0.0 && r.error.is_finite());
        }
    }

    #[test]
    fn a_75_percent_score_is_about_191_elo_and_more_games_shrink_the_error() {
        // Two players only (the prior pulls slightly toward the mean): 75% is 400*log10(3) = 190.8 Elo apart.
        let (s, g) = table(2, &[(0, 1, 300.0, 400.0)]);
        let r = fit(&s, &g);
        let gap = r[0].elo - r[1].elo;
        assert!((gap - 190.8).abs() < 2.0, "{gap}");
        // Var(r0 - r1) = 1 / (400 * 0.75 * 0.25); each centred rating carries half the difference:
        // 0.5 * sqrt(1 / 75) natural units = 10.03 Elo.
        assert!((r[0].error - 10.03).abs() < 0.3, "{}", r[0].error);
        let (s2, g2) = table(2, &[(0, 1, 30.0, 40.0)]);
        let r2 = fit(&s2, &g2);
        assert!(r2[0].error > r[0].error * 2.0);
    }

    #[test]
    fn a_perfect_record_stays_finite_and_on_top() {
        let (s, g) = table(3, &[(0, 1, 2.0, 2.0), (0, 2, 2.0, 2.0), (1, 2, 1.0, 2.0)]);
        let r = fit(&s, &g);
        assert!(r[0].elo.is_finite() && r[0].elo > r[1].elo && r[0].elo > r[2].elo);
        assert!((r[1].elo - r[2].elo).abs() < 1e-6);
    }
}
