//! A small Gaussian process for noisy Bayesian optimisation of continuous
//! levers (`optimize` with `ranges`, `docs/statistics.md`).
//!
//! Points live in the unit cube `[0, 1]^d` (each lever's range mapped
//! onto `[0, 1]`). The model: a constant mean (the observations' mean), a
//! Matérn 5/2 kernel with one length scale, and a known noise variance per
//! observation (each cell's binomial or mean variance), standardised by the
//! observations' spread. The length scale and the signal variance are
//! chosen on a fixed grid by the marginal likelihood, so the model is a
//! deterministic function of its data. A batch is chosen by expected
//! improvement over the best posterior mean at an observed point (noisy EI,
//! plug-in), one point at a time: each chosen point joins the data as a
//! "believed" observation at its posterior mean before the next is chosen
//! (the kriging believer), which spreads a batch out. Matrices are at most
//! a few dozen points: a hand-rolled Cholesky factorisation is enough.

use pf1e_engine::metrics::normal_cdf;

/// One observation: a point of the unit cube, its value (larger is
/// better) and the variance of its measurement noise.
#[derive(Debug, Clone, PartialEq)]
pub struct Observation {
    /// The point, each coordinate in [0, 1].
    pub x: Vec<f64>,
    /// The measured value (larger is better).
    pub y: f64,
    /// The variance of the measurement (≥ 0).
    pub noise: f64,
}

/// The lower-triangular Cholesky factor `L` of a symmetric positive
/// definite matrix `a` (row-major, `n × n`): `a = L Lᵀ`. `None` when `a`
/// is not positive definite.
pub fn cholesky(a: &[f64], n: usize) -> Option<Vec<f64>> {
    let mut l = vec![0.0; n * n];
    for i in 0..n {
        for j in 0..=i {
            let s: f64 = (0..j).map(|k| l[i * n + k] * l[j * n + k]).sum();
            if i == j {
                let d = a[i * n + i] - s;
                if d <= 0.0 || !d.is_finite() {
                    return None;
                }
                l[i * n + j] = d.sqrt();
            } else {
                l[i * n + j] = (a[i * n + j] - s) / l[j * n + j];
            }
        }
    }
    Some(l)
}

/// Solves `L y = b` (forward substitution), `L` lower triangular.
pub fn solve_lower(l: &[f64], n: usize, b: &[f64]) -> Vec<f64> {
    let mut y = vec![0.0; n];
    for i in 0..n {
        let s: f64 = (0..i).map(|k| l[i * n + k] * y[k]).sum();
        y[i] = (b[i] - s) / l[i * n + i];
    }
    y
}

/// Solves `Lᵀ x = y` (back substitution), `L` lower triangular.
pub fn solve_upper_t(l: &[f64], n: usize, y: &[f64]) -> Vec<f64> {
    let mut x = vec![0.0; n];
    for i in (0..n).rev() {
        let s: f64 = (i + 1..n).map(|k| l[k * n + i] * x[k]).sum();
        x[i] = (y[i] - s) / l[i * n + i];
    }
    x
}

/// The Matérn 5/2 correlation at distance `r` for length scale `ell`.
pub fn matern52(r: f64, ell: f64) -> f64 {
    let s = 5f64.sqrt() * r / ell;
    (1.0 + s + s * s / 3.0) * (-s).exp()
}

fn distance(a: &[f64], b: &[f64]) -> f64 {
    a.iter().zip(b).map(|(x, y)| (x - y) * (x - y)).sum::<f64>().sqrt()
}

/// The length scales tried (in units of the unit cube).
const LENGTH_SCALES: [f64; 6] = [0.05, 0.1, 0.2, 0.35, 0.6, 1.0];
/// The signal variances tried (in units of the observations' variance).
const SIGNAL_VARIANCES: [f64; 4] = [0.1, 0.3, 1.0, 3.0];
/// Added to the diagonal for numerical safety (standardised units).
const JITTER: f64 = 1e-9;

/// A Gaussian process fitted to observations.
#[derive(Debug, Clone)]
pub struct Gp {
    xs: Vec<Vec<f64>>,
    /// The constant mean and the scale of the standardisation.
    mean: f64,
    scale: f64,
    ell: f64,
    signal: f64,
    /// Cholesky factor of K + diag(noise), standardised units.
    l: Vec<f64>,
    /// (K + N)⁻¹ (y − mean) / scale.
    alpha: Vec<f64>,
    /// Each observation's noise variance, standardised.
    noise: Vec<f64>,
}

impl Gp {
    /// The process with length scale `ell` and signal variance `signal`
    /// (standardised units), or `None` when the matrix is singular.
    fn with(obs: &[Observation], mean: f64, scale: f64, ell: f64, signal: f64) -> Option<(Self, f64)> {
        let n = obs.len();
        let mut k = vec![0.0; n * n];
        for i in 0..n {
            for j in 0..n {
                k[i * n + j] = signal * matern52(distance(&obs[i].x, &obs[j].x), ell);
            }
            k[i * n + i] += obs[i].noise / (scale * scale) + JITTER;
        }
        let l = cholesky(&k, n)?;
        let y: Vec<f64> = obs.iter().map(|o| (o.y - mean) / scale).collect();
        let v = solve_lower(&l, n, &y);
        let alpha = solve_upper_t(&l, n, &v);
        // log p(y) = −½ yᵀα − Σ log L_ii − n/2 log 2π
        let fit: f64 = y.iter().zip(&alpha).map(|(a, b)| a * b).sum();
        let det: f64 = (0..n).map(|i| l[i * n + i].ln()).sum();
        let ll = -0.5 * fit - det - 0.5 * n as f64 * (2.0 * std::f64::consts::PI).ln();
        let xs = obs.iter().map(|o| o.x.clone()).collect();
        let noise = obs.iter().map(|o| o.noise / (scale * scale)).collect();
        Some((Self { xs, mean, scale, ell, signal, l, alpha, noise }, ll))
    }

    /// The process fitted to `obs` (at least one): the hyperparameters of
    /// the grid with the largest marginal likelihood (the first on ties).
    pub fn fit(obs: &[Observation]) -> Option<Self> {
        if obs.is_empty() {
            return None;
        }
        let n = obs.len() as f64;
        let mean = obs.iter().map(|o| o.y).sum::<f64>() / n;
        let var = obs.iter().map(|o| (o.y - mean).powi(2)).sum::<f64>() / n;
        let noise = obs.iter().map(|o| o.noise).sum::<f64>() / n;
        // The spread of the data, or of its noise when the data are flat.
        let scale = [var, noise, 1e-12].into_iter().find(|v| *v > 1e-12).unwrap_or(1e-12).sqrt();
        let mut best: Option<(Self, f64)> = None;
        for &ell in &LENGTH_SCALES {
            for &signal in &SIGNAL_VARIANCES {
                if let Some((gp, ll)) = Self::with(obs, mean, scale, ell, signal)
                    && best.as_ref().is_none_or(|(_, b)| ll > *b)
                {
                    best = Some((gp, ll));
                }
            }
        }
        best.map(|(gp, _)| gp)
    }

    /// The length scale chosen.
    pub fn length_scale(&self) -> f64 {
        self.ell
    }

    /// The posterior mean and standard deviation of the latent value at `x`
    /// (the noise of a new measurement not included).
    pub fn posterior(&self, x: &[f64]) -> (f64, f64) {
        let n = self.xs.len();
        let k: Vec<f64> =
            self.xs.iter().map(|xi| self.signal * matern52(distance(xi, x), self.ell)).collect();
        let mu: f64 = k.iter().zip(&self.alpha).map(|(a, b)| a * b).sum();
        let v = solve_lower(&self.l, n, &k);
        let var = (self.signal - v.iter().map(|a| a * a).sum::<f64>()).max(0.0);
        (self.mean + self.scale * mu, self.scale * var.sqrt())
    }
}

/// Most points of the design the main effects are integrated on.
pub const MAX_DESIGN: usize = 4096;

/// The first-order shares of the variance of a process's posterior mean
/// over the unit cube (a functional ANOVA of the surrogate).
#[derive(Debug, Clone, PartialEq)]
pub struct SurrogateShares {
    /// Each axis's main-effect share of the variance.
    pub shares: Vec<f64>,
    /// The share measurement noise alone would give each axis (independent
    /// errors, the fitted hyperparameters).
    pub noise: Vec<f64>,
    /// The share no axis explains alone.
    pub interactions: f64,
    /// The standard deviation of the posterior mean over the cube (the
    /// observations' units).
    pub spread: f64,
    /// The mean posterior standard deviation over the design.
    pub uncertainty: f64,
    /// Points of the design.
    pub design: usize,
}

impl Gp {
    /// The main effects of the posterior mean `μ` over `[0, 1]^d`: on the
    /// tensor grid of `m` midpoints `(j + ½)/m` per axis (`m^d ≤`
    /// [`MAX_DESIGN`], at most 64) — a fixed design, so the answer is a
    /// deterministic function of the data — axis `i` explains
    /// `V_i = (1/m) Σ_v (μ̄_v − μ̄)²` of `V = Var(μ)`, `μ̄_v` the mean of `μ`
    /// over the points whose axis `i` is `v` (the other axes integrated
    /// out): its first-order (Sobol) share `V_i / V`. `μ` is linear in the
    /// data, `μ̄_v − μ̄ = b_vᵀ (y − ȳ)` with `b_v = (K + N)⁻¹ (k̄_v − k̄)`, so
    /// were the data pure noise of variances `N`, the axis would still show
    /// `E[V_i] = (1/m) Σ_v c_vᵀ N c_v`, `c_v = b_v` centred: its noise floor.
    /// `None` when the mean does not vary over the cube.
    pub fn main_effects(&self, d: usize) -> Option<SurrogateShares> {
        if d == 0 || self.xs.iter().any(|x| x.len() != d) {
            return None;
        }
        let m = (2..=64usize).rev().find(|&m| m.checked_pow(d as u32).is_some_and(|p| p <= MAX_DESIGN))?;
        let total = m.pow(d as u32);
        let n = self.xs.len();
        // Σ k(x) over the points of each (axis, level), and over all.
        let mut k_level = vec![vec![vec![0.0; n]; m]; d];
        let mut k_all = vec![0.0; n];
        let mut mu = Vec::with_capacity(total);
        let mut sd_sum = 0.0;
        let mut x = vec![0.0; d];
        let mut idx = vec![0usize; d];
        for p in 0..total {
            let mut rest = p;
            for a in 0..d {
                idx[a] = rest % m;
                rest /= m;
                x[a] = (idx[a] as f64 + 0.5) / m as f64;
            }
            let k: Vec<f64> =
                self.xs.iter().map(|xi| self.signal * matern52(distance(xi, &x), self.ell)).collect();
            mu.push(k.iter().zip(&self.alpha).map(|(a, b)| a * b).sum::<f64>());
            let v = solve_lower(&self.l, n, &k);
            sd_sum += (self.signal - v.iter().map(|a| a * a).sum::<f64>()).max(0.0).sqrt();
            for a in 0..d {
                for (acc, kj) in k_level[a][idx[a]].iter_mut().zip(&k) {
                    *acc += kj;
                }
            }
            for (acc, kj) in k_all.iter_mut().zip(&k) {
                *acc += kj;
            }
        }
        let tf = total as f64;
        let mean = mu.iter().sum::<f64>() / tf;
        let var = mu.iter().map(|v| (v - mean).powi(2)).sum::<f64>() / tf;
        if var <= 1e-18 {
            return None;
        }
        let per_level = (total / m) as f64;
        let (mut shares, mut noise) = (Vec::with_capacity(d), Vec::with_capacity(d));
        for levels in &k_level {
            let (mut v_i, mut floor) = (0.0, 0.0);
            for sums in levels {
                // b_v = (K + N)⁻¹ (k̄_v − k̄), centred over the observations.
                let diff: Vec<f64> = sums.iter().zip(&k_all).map(|(s, a)| s / per_level - a / tf).collect();
                let b = solve_upper_t(&self.l, n, &solve_lower(&self.l, n, &diff));
                let effect: f64 = diff.iter().zip(&self.alpha).map(|(a, b)| a * b).sum();
                v_i += effect * effect;
                let bm = b.iter().sum::<f64>() / n as f64;
                floor += b.iter().zip(&self.noise).map(|(b, s)| (b - bm).powi(2) * s).sum::<f64>();
            }
            // (Rounding can put a lone axis a hair above the whole.)
            shares.push((v_i / m as f64 / var).min(1.0));
            noise.push(floor / m as f64 / var);
        }
        let interactions = (1.0 - shares.iter().sum::<f64>()).max(0.0);
        Some(SurrogateShares {
            shares,
            noise,
            interactions,
            spread: self.scale * var.sqrt(),
            uncertainty: self.scale * sd_sum / tf,
            design: total,
        })
    }
}

/// The standard normal density φ(z).
pub fn normal_pdf(z: f64) -> f64 {
    (-0.5 * z * z).exp() / (2.0 * std::f64::consts::PI).sqrt()
}

/// Expected improvement over `best` of a value with posterior mean `mu`
/// and standard deviation `sd`: `(μ − f*) Φ(z) + σ φ(z)`, `z = (μ − f*)/σ`
/// (the positive part of `μ − f*` when `σ = 0`).
pub fn expected_improvement(mu: f64, sd: f64, best: f64) -> f64 {
    if sd <= 0.0 {
        return (mu - best).max(0.0);
    }
    let z = (mu - best) / sd;
    (mu - best) * normal_cdf(z) + sd * normal_pdf(z)
}

/// A deterministic uniform in [0, 1) of `key` (splitmix64).
pub fn uniform(key: u64) -> f64 {
    let mut z = key.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^= z >> 31;
    (z >> 11) as f64 / (1u64 << 53) as f64
}

/// Random weights on the simplex (`n` non-negative numbers summing to 1,
/// uniformly distributed) from `key`: normalised exponentials.
pub fn simplex_weights(n: usize, key: u64) -> Vec<f64> {
    let e: Vec<f64> = (0..n as u64)
        .map(|j| -uniform(key ^ j.wrapping_mul(0xa076_1d64_78bd_642f).wrapping_add(1)).max(1e-300).ln())
        .collect();
    let total: f64 = e.iter().sum();
    e.iter().map(|v| v / total).collect()
}

/// The weight of the sum in the augmented Chebyshev scalarisation (ParEGO's ρ).
pub const RHO: f64 = 0.05;

/// ParEGO's augmented Chebyshev scalarisation of points measured on several
/// criteria (`values[i][c]`: point `i`'s criterion `c`, larger is better,
/// with its variance), for `weights`: each criterion normalised to [0, 1]
/// over the points (0 the best, its scale at least the noise's), the
/// point's value `−(max_c w_c g_c + ρ Σ_c w_c g_c)` (larger is better) and
/// its variance as that of `Σ_c (1 + ρ) w_c g_c` (independent errors; no
/// smaller than the maximum's).
pub fn chebyshev(values: &[Vec<(f64, f64)>], weights: &[f64]) -> Vec<(f64, f64)> {
    let n = values.len().max(1) as f64;
    let bounds: Vec<(f64, f64)> = (0..weights.len())
        .map(|c| {
            let ys = values.iter().map(|v| v[c].0);
            let (lo, hi) = ys.fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), y| (a.min(y), b.max(y)));
            let noise = (values.iter().map(|v| v[c].1).sum::<f64>() / n).sqrt();
            (hi, (hi - lo).max(noise).max(1e-12))
        })
        .collect();
    values
        .iter()
        .map(|v| {
            let g: Vec<f64> = bounds.iter().zip(v).map(|((hi, range), (y, _))| (hi - y) / range).collect();
            let worst = g.iter().zip(weights).map(|(g, w)| g * w).fold(0.0, f64::max);
            let sum: f64 = g.iter().zip(weights).map(|(g, w)| g * w).sum();
            let noise: f64 = bounds
                .iter()
                .zip(v)
                .zip(weights)
                .map(|(((_, range), (_, var)), w)| ((1.0 + RHO) * w / range).powi(2) * var)
                .sum();
            (-(worst + RHO * sum), noise)
        })
        .collect()
}

/// A Latin hypercube of `n` points in `[0, 1]^d` from `seed`: on every
/// axis, one point in each of the `n` strata, the strata of the axes
/// paired by a seeded permutation.
pub fn latin_hypercube(n: usize, d: usize, seed: u64) -> Vec<Vec<f64>> {
    let mut points = vec![vec![0.0; d]; n];
    for axis in 0..d {
        let key = |i: usize, salt: u64| {
            seed.wrapping_mul(0x2545_f491_4f6c_dd1d) ^ ((axis as u64) << 40) ^ ((i as u64) << 8) ^ salt
        };
        // A seeded Fisher–Yates permutation of the strata.
        let mut strata: Vec<usize> = (0..n).collect();
        for i in (1..n).rev() {
            let j = (uniform(key(i, 1)) * (i + 1) as f64) as usize;
            strata.swap(i, j.min(i));
        }
        for (i, p) in points.iter_mut().enumerate() {
            p[axis] = (strata[i] as f64 + uniform(key(i, 2))) / n as f64;
        }
    }
    points
}

/// The next batch of `size` points among `candidates` (unit-cube points),
/// none of them closer than `gap` to a point of `exclude` or to another
/// chosen point: by expected improvement, each chosen point believed at
/// its posterior mean before the next is chosen. Fewer when the candidates
/// run out; in candidate order on equal improvement. (Without a gap, a
/// flat noisy objective draws the whole batch onto neighbours of the best
/// point, which under common random numbers play the same battles.)
pub fn propose(
    obs: &[Observation],
    candidates: &[Vec<f64>],
    exclude: &[Vec<f64>],
    size: usize,
    gap: f64,
) -> Vec<Vec<f64>> {
    let mut data = obs.to_vec();
    let mut chosen: Vec<Vec<f64>> = Vec::new();
    // A believed point has the smallest noise of the data (it is a mean).
    let believed_noise = obs.iter().map(|o| o.noise).fold(f64::INFINITY, f64::min);
    let believed_noise = if believed_noise.is_finite() { believed_noise } else { 0.0 };
    for _ in 0..size {
        let Some(gp) = Gp::fit(&data) else { break };
        let best = data.iter().map(|o| gp.posterior(&o.x).0).fold(f64::NEG_INFINITY, f64::max);
        let mut pick: Option<(usize, f64, f64)> = None;
        for (i, c) in candidates.iter().enumerate() {
            if exclude.iter().chain(&chosen).any(|x| x == c || distance(x, c) < gap) {
                continue;
            }
            let (mu, sd) = gp.posterior(c);
            let ei = expected_improvement(mu, sd, best);
            if pick.is_none_or(|(_, b, _)| ei > b) {
                pick = Some((i, ei, mu));
            }
        }
        let Some((i, _, mu)) = pick else { break };
        chosen.push(candidates[i].clone());
        data.push(Observation { x: candidates[i].clone(), y: mu, noise: believed_noise });
    }
    chosen
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cholesky_factors_and_solves_a_known_system() {
        // A = [[4, 2], [2, 3]]: L = [[2, 0], [1, √2]].
        let a = [4.0, 2.0, 2.0, 3.0];
        let l = cholesky(&a, 2).unwrap();
        assert!((l[0] - 2.0).abs() < 1e-12 && l[1] == 0.0);
        assert!((l[2] - 1.0).abs() < 1e-12 && (l[3] - 2f64.sqrt()).abs() < 1e-12);
        // A x = [2, 5] has x = [−0.5, 2].
        let x = solve_upper_t(&l, 2, &solve_lower(&l, 2, &[2.0, 5.0]));
        assert!((x[0] + 0.5).abs() < 1e-12 && (x[1] - 2.0).abs() < 1e-12, "{x:?}");
        // Not positive definite.
        assert!(cholesky(&[1.0, 2.0, 2.0, 1.0], 2).is_none());
    }

    #[test]
    fn matern_and_expected_improvement_match_their_formulas() {
        assert_eq!(matern52(0.0, 0.3), 1.0);
        // s = √5: (1 + √5 + 5/3) e^{−√5}.
        let s = 5f64.sqrt();
        assert!((matern52(0.2, 0.2) - (1.0 + s + 5.0 / 3.0) * (-s).exp()).abs() < 1e-12);
        // μ = f*: EI = σ φ(0) = σ / √(2π).
        assert!(
            (expected_improvement(1.0, 2.0, 1.0) - 2.0 / (2.0 * std::f64::consts::PI).sqrt()).abs() < 1e-12
        );
        // μ − f* = 1, σ = 1: Φ(1) + φ(1) = 0.841345 + 0.241971.
        assert!((expected_improvement(1.0, 1.0, 0.0) - 1.083_316).abs() < 1e-5);
        // No uncertainty: the plain improvement.
        assert_eq!(expected_improvement(0.5, 0.0, 0.2), 0.3);
        assert_eq!(expected_improvement(0.1, 0.0, 0.2), 0.0);
    }

    #[test]
    fn the_posterior_interpolates_precise_data_and_reverts_far_from_it() {
        let obs: Vec<Observation> = [(0.1, 1.0), (0.5, 3.0), (0.9, 2.0)]
            .iter()
            .map(|&(x, y)| Observation { x: vec![x], y, noise: 1e-10 })
            .collect();
        let gp = Gp::fit(&obs).unwrap();
        for o in &obs {
            let (mu, sd) = gp.posterior(&o.x);
            assert!((mu - o.y).abs() < 1e-3, "at {:?}: {mu} for {}", o.x, o.y);
            assert!(sd < 1e-3, "{sd}");
        }
        // Between the points, uncertainty grows.
        assert!(gp.posterior(&[0.3]).1 > gp.posterior(&[0.5]).1);
        // With noisy data the posterior shrinks toward the mean.
        let noisy: Vec<Observation> = obs.iter().map(|o| Observation { noise: 100.0, ..o.clone() }).collect();
        let gp = Gp::fit(&noisy).unwrap();
        let (mu, _) = gp.posterior(&[0.5]);
        assert!(mu < 3.0 - 0.1 && mu > 2.0 - 0.1, "{mu}");
    }

    #[test]
    fn one_observation_with_a_single_hyperparameter_has_the_closed_form_posterior() {
        // With one point, μ(x) = m + k(x)/(k(0) + τ) (y − m) = m (y = m):
        // the mean is the observation everywhere; the variance at the point
        // is s²·τ/(s² + τ) in standardised units.
        let obs = [Observation { x: vec![0.5], y: 2.0, noise: 0.25 }];
        let gp = Gp::fit(&obs).unwrap();
        let (mu, sd) = gp.posterior(&[0.5]);
        assert!((mu - 2.0).abs() < 1e-12);
        // scale = √noise = 0.5; τ = 1 (standardised); s² chosen on the grid.
        let s2 = gp.signal;
        let expected = 0.5 * (s2 * 1.0 / (s2 + 1.0 + JITTER)).sqrt();
        assert!((sd - expected).abs() < 1e-9, "{sd} vs {expected}");
    }

    /// `f` observed without noise on the `k × k` grid of the unit square.
    fn exact_square(k: usize, f: impl Fn(f64, f64) -> f64) -> Vec<Observation> {
        let mut obs = Vec::new();
        for i in 0..k {
            for j in 0..k {
                let (x, y) = (i as f64 / (k - 1) as f64, j as f64 / (k - 1) as f64);
                obs.push(Observation { x: vec![x, y], y: f(x, y), noise: 1e-10 });
            }
        }
        obs
    }

    #[test]
    fn the_surrogates_main_effects_match_a_linear_functions_closed_form() {
        // f = a·x + s·y on the unit square: Var(a·x) = a²/12, so x's share
        // is a² / (a² + s²) and nothing is left to interactions (the
        // midpoint design's variances of x and y are equal, the ratio exact).
        let (a, s) = (1.0, 0.3);
        let gp = Gp::fit(&exact_square(6, |x, y| a * x + s * y)).unwrap();
        let e = gp.main_effects(2).unwrap();
        eprintln!("a·x + s·y: {e:?}");
        assert_eq!(e.design, 64 * 64);
        let share_x = a * a / (a * a + s * s);
        assert!((e.shares[0] - share_x).abs() < 0.01, "{e:?} against {share_x}");
        assert!((e.shares[1] - (1.0 - share_x)).abs() < 0.01, "{e:?}");
        assert!(e.interactions < 0.01, "{e:?}");
        // The spread is the sd of a·x + s·y over the square: √((a² + s²)/12).
        let spread = ((a * a + s * s) / 12.0).sqrt();
        assert!((e.spread - spread).abs() < 0.01 * spread, "{} against {spread}", e.spread);
        // Exact data: no noise floor, little posterior uncertainty.
        assert!(e.noise.iter().all(|&n| n < 1e-6) && e.uncertainty < 0.01, "{e:?}");
        // Swapping the axes swaps the shares; a product x·y has interactions.
        let swapped = Gp::fit(&exact_square(6, |x, y| s * x + a * y)).unwrap().main_effects(2).unwrap();
        assert!((swapped.shares[1] - share_x).abs() < 0.01, "{swapped:?}");
        // (x − ½)(y − ½): no main effect at all, every bit interaction.
        let product =
            Gp::fit(&exact_square(6, |x, y| (x - 0.5) * (y - 0.5))).unwrap().main_effects(2).unwrap();
        assert!(product.shares.iter().all(|&v| v < 0.01) && product.interactions > 0.98, "{product:?}");
        // Deterministic, and flat data have no effects to share.
        assert_eq!(
            gp.main_effects(2),
            Gp::fit(&exact_square(6, |x, y| a * x + s * y)).unwrap().main_effects(2)
        );
        assert!(Gp::fit(&exact_square(3, |_, _| 1.0)).unwrap().main_effects(2).is_none());
    }

    #[test]
    fn the_noise_floor_is_what_pure_noise_puts_into_the_surrogates_variance() {
        // One axis, eight points, fixed hyperparameters: data that are pure
        // noise of variance 0.01 give the posterior mean a variance over the
        // cube whose expectation is the floor (the floor does not depend on
        // the data; its share times the spread² is that expectation).
        let xs: Vec<f64> = (0..8).map(|i| f64::from(i) / 7.0).collect();
        let (noise, replays) = (0.01f64, 4000u64);
        let normal = |key: u64| {
            let (u, v) = (uniform(key).max(1e-300), uniform(key ^ 0x5555));
            (-2.0 * u.ln()).sqrt() * (2.0 * std::f64::consts::PI * v).cos()
        };
        let (mut mean_var, mut floor) = (0.0, None);
        for r in 0..replays {
            let obs: Vec<Observation> = xs
                .iter()
                .enumerate()
                .map(|(i, &x)| Observation { x: vec![x], y: noise.sqrt() * normal(r * 64 + i as u64), noise })
                .collect();
            let ybar = obs.iter().map(|o| o.y).sum::<f64>() / 8.0;
            let (gp, _) = Gp::with(&obs, ybar, 0.1, 0.35, 1.0).unwrap();
            let e = gp.main_effects(1).unwrap();
            assert_eq!(e.design, 64);
            assert!((e.shares[0] - 1.0).abs() < 1e-9 && e.interactions < 1e-9, "one axis explains it all");
            let var = e.spread * e.spread;
            mean_var += var / replays as f64;
            let f = e.noise[0] * var;
            assert!(
                floor.is_none_or(|g: f64| (g - f).abs() < 1e-9 * g),
                "the floor depends on the design only"
            );
            floor = Some(f);
        }
        let floor = floor.unwrap();
        eprintln!("pure noise: mean variance {mean_var}, floor {floor}");
        // The replays' mean within 5 % (its own error is about 2 % here).
        assert!((mean_var / floor - 1.0).abs() < 0.05, "mean variance {mean_var} against the floor {floor}");
        // With a real effect of x the share stands far above its floor.
        let obs: Vec<Observation> = xs
            .iter()
            .enumerate()
            .map(|(i, &x)| Observation { x: vec![x, 0.5], y: x + noise.sqrt() * normal(i as u64), noise })
            .chain(xs.iter().enumerate().map(|(i, &x)| Observation {
                x: vec![x, 0.0],
                y: x + noise.sqrt() * normal(100 + i as u64),
                noise,
            }))
            .collect();
        let sloped = Gp::fit(&obs).unwrap().main_effects(2).unwrap();
        assert!(sloped.shares[0] > 0.8 && sloped.shares[0] > 10.0 * sloped.noise[0], "{sloped:?}");
    }

    #[test]
    fn chebyshev_scalarisations_normalise_and_weigh_the_criteria() {
        // Weights: on the simplex, deterministic, different per key.
        let w = simplex_weights(3, 7);
        assert!((w.iter().sum::<f64>() - 1.0).abs() < 1e-12 && w.iter().all(|&v| v > 0.0), "{w:?}");
        assert_eq!(w, simplex_weights(3, 7));
        assert_ne!(w, simplex_weights(3, 8));
        // Over many keys, each weight of two averages ½ (uniform on the simplex).
        let mean = (0..4000u64).map(|k| simplex_weights(2, k)[0]).sum::<f64>() / 4000.0;
        assert!((mean - 0.5).abs() < 0.02, "{mean}");
        // Two criteria, three points (larger is better): A best on the
        // first, C on the second, B between. Normalised: g(A) = (0, 1),
        // g(B) = (0.5, 0.5), g(C) = (1, 0).
        let v =
            vec![vec![(1.0, 0.0), (0.0, 0.0)], vec![(0.5, 0.0), (5.0, 0.0)], vec![(0.0, 0.0), (10.0, 0.0)]];
        let s = chebyshev(&v, &[0.5, 0.5]);
        // max(½g) + ρ Σ ½g: A and C −(0.5 + 0.025), B −(0.25 + 0.025): B is best.
        assert!((s[0].0 + 0.525).abs() < 1e-12 && (s[1].0 + 0.275).abs() < 1e-12, "{s:?}");
        assert_eq!(s[0].0, s[2].0);
        // All weight on the first criterion: A is best.
        let s = chebyshev(&v, &[1.0, 0.0]);
        assert!(s[0].0 > s[1].0 && s[1].0 > s[2].0, "{s:?}");
        // The variance: ((1 + ρ) w / range)² var summed: 0.01 on the second criterion (range 10).
        let noisy = vec![vec![(1.0, 0.0), (0.0, 0.01)], vec![(0.0, 0.0), (10.0, 0.01)]];
        let s = chebyshev(&noisy, &[0.5, 0.5]);
        assert!((s[0].1 - (1.05f64 * 0.5 / 10.0).powi(2) * 0.01).abs() < 1e-15, "{s:?}");
    }

    #[test]
    fn latin_hypercubes_fill_every_stratum_and_depend_on_the_seed() {
        let p = latin_hypercube(8, 2, 42);
        for axis in 0..2 {
            let mut strata: Vec<usize> = p.iter().map(|x| (x[axis] * 8.0) as usize).collect();
            strata.sort_unstable();
            assert_eq!(strata, (0..8).collect::<Vec<_>>());
        }
        assert_eq!(p, latin_hypercube(8, 2, 42));
        assert_ne!(p, latin_hypercube(8, 2, 43));
    }

    #[test]
    fn a_batch_goes_where_the_data_promise_and_spreads_out() {
        // A peak near 0.7 seen through five noisy points.
        let f = |x: f64| 1.0 - 4.0 * (x - 0.7) * (x - 0.7);
        let obs: Vec<Observation> = [0.0, 0.25, 0.5, 0.75, 1.0]
            .iter()
            .map(|&x| Observation { x: vec![x], y: f(x), noise: 1e-4 })
            .collect();
        let candidates: Vec<Vec<f64>> = (0..=100).map(|i| vec![f64::from(i) / 100.0]).collect();
        let batch = propose(&obs, &candidates, &[vec![0.75]], 3, 0.0);
        assert_eq!(batch.len(), 3);
        assert!((batch[0][0] - 0.7).abs() <= 0.1, "{batch:?}");
        assert!(!batch.contains(&vec![0.75]), "excluded");
        let mut xs: Vec<f64> = batch.iter().map(|x| x[0]).collect();
        xs.sort_by(f64::total_cmp);
        xs.dedup();
        assert_eq!(xs.len(), 3, "distinct points: {batch:?}");
        assert_eq!(batch, propose(&obs, &candidates, &[vec![0.75]], 3, 0.0), "deterministic");
        // With a gap, every point keeps its distance from the others and the excluded ones.
        let gapped = propose(&obs, &candidates, &[vec![0.75]], 3, 0.1);
        for (i, a) in gapped.iter().enumerate() {
            assert!((a[0] - 0.75).abs() >= 0.1 - 1e-12, "{gapped:?}");
            assert!(gapped[i + 1..].iter().all(|b| (a[0] - b[0]).abs() >= 0.1 - 1e-12), "{gapped:?}");
        }
    }
}
