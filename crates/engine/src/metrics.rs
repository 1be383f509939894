//! Closed-form statistics: rates, score intervals for proportions, standard
//! errors of means, paired differences and the multiplicity adjustment of
//! the analysis jobs. The methods and their error rates are described in
//! `docs/statistics.md`.
//!
//! - A proportion `k / n` gets the Wilson score interval at the confidence
//!   level; at `k = 0` and `k = n` the exact (Clopper–Pearson) bound is
//!   closed-form and used instead, so 0/n is never `[0, 0]`.
//! - A mean gets its standard error `s / √n` (sample standard deviation)
//!   and the normal interval `mean ± z·se`.
//! - A comparison of two cells measured with common random numbers uses the
//!   per-run paired differences (see [`Paired`]).

/// The default confidence level: the two-sided 3σ level, 2Φ(3) − 1.
pub const THREE_SIGMA_LEVEL: f64 = 0.997_300_203_936_739_8;

/// A two-sided confidence level in (0, 1), with its normal quantile.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Confidence {
    level: f64,
    z: f64,
}

/// A confidence level outside (0, 1) (or not a number).
#[derive(Clone, Copy, Debug, PartialEq, thiserror::Error)]
#[error("confidence level must be strictly between 0 and 1 (e.g. 0.95 or 0.997), got {0}")]
pub struct BadConfidence(pub f64);

impl Default for Confidence {
    fn default() -> Self {
        Self { level: THREE_SIGMA_LEVEL, z: 3.0 }
    }
}

impl Confidence {
    /// The level `level` (e.g. 0.95).
    pub fn new(level: f64) -> Result<Self, BadConfidence> {
        if !(level > 0.0 && level < 1.0) {
            return Err(BadConfidence(level));
        }
        if level == THREE_SIGMA_LEVEL {
            return Ok(Self::default());
        }
        Ok(Self { level, z: normal_quantile(1.0 - (1.0 - level) / 2.0) })
    }

    /// The level.
    pub fn level(self) -> f64 {
        self.level
    }

    /// Its two-sided normal quantile (3 at the default level).
    pub fn z(self) -> f64 {
        self.z
    }

    /// The error rate `1 − level`.
    pub fn alpha(self) -> f64 {
        1.0 - self.level
    }

    /// The two-sided quantile of a Bonferroni adjustment over `m`
    /// comparisons: each at error `α / m`, so that the chance that any of
    /// them errs is at most `α`.
    pub fn bonferroni_z(self, m: u64) -> f64 {
        if m <= 1 {
            return self.z;
        }
        normal_quantile(1.0 - self.alpha() / (2.0 * m as f64))
    }
}

/// Observed rate `wins / n` (0 when `n == 0`).
pub fn win_rate(wins: u64, n: u64) -> f64 {
    if n == 0 { 0.0 } else { wins as f64 / n as f64 }
}

/// Binomial standard error σ = √(p(1−p)/n) (0 when `n == 0`).
pub fn win_rate_sigma(p: f64, n: u64) -> f64 {
    if n == 0 { 0.0 } else { (p * (1.0 - p) / n as f64).sqrt() }
}

/// The interval of the proportion `k / n` at confidence `c`: Wilson's score
/// interval, with the exact Clopper–Pearson interval at `k = 0`
/// (`[0, 1 − (α/2)^{1/n}]`) and at `k = n`, and the exact lower bound at
/// `k = 1` (`1 − (1 − α/2)^{1/n}`; the upper one at `k = n − 1`). No runs:
/// `[0, 1]`.
pub fn proportion_interval(k: u64, n: u64, c: Confidence) -> (f64, f64) {
    if n == 0 {
        return (0.0, 1.0);
    }
    let k = k.min(n);
    let edge = 1.0 - (c.alpha() / 2.0).powf(1.0 / n as f64);
    if k == 0 {
        return (0.0, edge);
    }
    if k == n {
        return (1.0 - edge, 1.0);
    }
    // One success (or one failure): the exact bound on that side is
    // closed-form too, and Wilson's misses p well below 1/n there.
    let one = 1.0 - (1.0 - c.alpha() / 2.0).powf(1.0 / n as f64);
    let (mut lo, mut hi) = wilson(k, n, c.z());
    if k == 1 {
        lo = one;
    }
    if k == n - 1 {
        hi = 1.0 - one;
    }
    (lo, hi)
}

/// Wilson's score interval of `k / n` with normal quantile `z`.
pub fn wilson(k: u64, n: u64, z: f64) -> (f64, f64) {
    if n == 0 {
        return (0.0, 1.0);
    }
    let nf = n as f64;
    let p = k.min(n) as f64 / nf;
    let z2 = z * z;
    let denom = 1.0 + z2 / nf;
    let center = (p + z2 / (2.0 * nf)) / denom;
    let half = z / denom * (p * (1.0 - p) / nf + z2 / (4.0 * nf * nf)).sqrt();
    ((center - half).clamp(0.0, 1.0), (center + half).clamp(0.0, 1.0))
}

/// The interval of a proportion given as a rate over `n` runs (the count is
/// recovered by rounding `p · n`).
pub fn rate_interval(p: f64, n: u64, c: Confidence) -> (f64, f64) {
    let k = (p * n as f64).round().max(0.0) as u64;
    proportion_interval(k, n, c)
}

/// The interval of the win rate, `wins` out of `n`, at the default level.
pub fn win_rate_band(wins: u64, n: u64) -> (f64, f64) {
    proportion_interval(wins, n, Confidence::default())
}

/// The standard error of a mean from the population standard deviation
/// `sd` of `n` values (Bessel-corrected: `sd · √(n/(n−1)) / √n`); 0 below
/// two values.
pub fn mean_se(sd: f64, n: u64) -> f64 {
    if n < 2 { 0.0 } else { sd / ((n - 1) as f64).sqrt() }
}

/// The paired difference of two cells measured on the same dice: the mean
/// and standard error of the per-run differences `a_i − b_i`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Paired {
    /// Runs paired.
    pub n: u64,
    /// Mean difference.
    pub mean: f64,
    /// Its standard error (sample standard deviation of the differences / √n).
    pub se: f64,
}

/// The sign of a comparison at a given quantile.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Sign {
    /// The first is significantly larger.
    Greater,
    /// The second is significantly larger.
    Less,
    /// Not told apart.
    Tied,
}

impl Paired {
    /// The paired differences of `a` and `b` over their common first runs.
    pub fn of(a: &[f64], b: &[f64]) -> Self {
        Self::from_fn(a.len().min(b.len()), |i| a[i] - b[i])
    }

    /// The `n` differences `d(0) … d(n − 1)`.
    pub fn from_fn(n: usize, d: impl Fn(usize) -> f64) -> Self {
        if n == 0 {
            return Self { n: 0, mean: 0.0, se: 0.0 };
        }
        let mean = (0..n).map(&d).sum::<f64>() / n as f64;
        let ss: f64 = (0..n).map(|i| (d(i) - mean).powi(2)).sum();
        let se = if n < 2 { 0.0 } else { (ss / (n - 1) as f64).sqrt() / (n as f64).sqrt() };
        Self { n: n as u64, mean, se }
    }

    /// The paired differences of a 0/1 outcome over `n` runs: `up` runs of
    /// +1 (the first holds, the second not), `down` of −1, the rest 0.
    /// [`of`](Self::of)'s mean exactly (its sum of integers is exact), and
    /// its spread summed per value rather than run by run, so it depends
    /// on the counts only, not on the runs' order.
    pub fn of_counts(up: u64, down: u64, n: u64) -> Self {
        if n == 0 {
            return Self { n: 0, mean: 0.0, se: 0.0 };
        }
        let zero = n.saturating_sub(up.saturating_add(down));
        let mean = (up as f64 - down as f64) / n as f64;
        let ss = up as f64 * (1.0 - mean).powi(2)
            + down as f64 * (-1.0 - mean).powi(2)
            + zero as f64 * (0.0 - mean).powi(2);
        let se = if n < 2 { 0.0 } else { (ss / (n - 1) as f64).sqrt() / (n as f64).sqrt() };
        Self { n, mean, se }
    }

    /// Whether the difference is significant at quantile `z`: `|mean| > z·se`.
    /// A difference with zero spread is significant whenever it is not 0
    /// (every run moved the same way); no runs is a tie.
    pub fn sign(&self, z: f64) -> Sign {
        if self.n == 0 || self.mean == 0.0 || self.mean.abs() <= z * self.se {
            Sign::Tied
        } else if self.mean > 0.0 {
            Sign::Greater
        } else {
            Sign::Less
        }
    }

    /// The interval `mean ± z·se`.
    pub fn interval(&self, z: f64) -> (f64, f64) {
        (self.mean - z * self.se, self.mean + z * self.se)
    }
}

/// The standard normal quantile Φ⁻¹(p) for p in (0, 1) (Acklam's rational
/// approximation, relative error below 1.2e−9).
pub fn normal_quantile(p: f64) -> f64 {
    const A: [f64; 6] = [
        -3.969_683_028_665_376e1,
        2.209_460_984_245_205e2,
        -2.759_285_104_469_687e2,
        1.383_577_518_672_69e2,
        -3.066_479_806_614_716e1,
        2.506_628_277_459_239,
    ];
    const B: [f64; 5] = [
        -5.447_609_879_822_406e1,
        1.615_858_368_580_409e2,
        -1.556_989_798_598_866e2,
        6.680_131_188_771_972e1,
        -1.328_068_155_288_572e1,
    ];
    const C: [f64; 6] = [
        -7.784_894_002_430_293e-3,
        -3.223_964_580_411_365e-1,
        -2.400_758_277_161_838,
        -2.549_732_539_343_734,
        4.374_664_141_464_968,
        2.938_163_982_698_783,
    ];
    const D: [f64; 4] =
        [7.784_695_709_041_462e-3, 3.224_671_290_700_398e-1, 2.445_134_137_142_996, 3.754_408_661_907_416];
    if p <= 0.0 {
        return f64::NEG_INFINITY;
    }
    if p >= 1.0 {
        return f64::INFINITY;
    }
    let low = 0.024_25;
    let x = if p < low {
        let q = (-2.0 * p.ln()).sqrt();
        (((((C[0] * q + C[1]) * q + C[2]) * q + C[3]) * q + C[4]) * q + C[5])
            / ((((D[0] * q + D[1]) * q + D[2]) * q + D[3]) * q + 1.0)
    } else if p <= 1.0 - low {
        let q = p - 0.5;
        let r = q * q;
        (((((A[0] * r + A[1]) * r + A[2]) * r + A[3]) * r + A[4]) * r + A[5]) * q
            / (((((B[0] * r + B[1]) * r + B[2]) * r + B[3]) * r + B[4]) * r + 1.0)
    } else {
        let q = (-2.0 * (1.0 - p).ln()).sqrt();
        -(((((C[0] * q + C[1]) * q + C[2]) * q + C[3]) * q + C[4]) * q + C[5])
            / ((((D[0] * q + D[1]) * q + D[2]) * q + D[3]) * q + 1.0)
    };
    // No refinement step: `erfc` below is less accurate than this.
    x
}

/// The standard normal distribution function Φ(x).
pub fn normal_cdf(x: f64) -> f64 {
    0.5 * erfc(-x / std::f64::consts::SQRT_2)
}

/// The complementary error function (W. J. Cody's rational Chebyshev
/// approximation as given in Numerical Recipes, `erfcc`, fractional error
/// below 1.2e−7).
fn erfc(x: f64) -> f64 {
    let z = x.abs();
    let t = 1.0 / (1.0 + 0.5 * z);
    let poly = -z * z - 1.265_512_23
        + t * (1.000_023_68
            + t * (0.374_091_96
                + t * (0.096_784_18
                    + t * (-0.186_288_06
                        + t * (0.278_868_07
                            + t * (-1.135_203_98
                                + t * (1.488_515_87 + t * (-0.822_152_23 + t * 0.170_872_77))))))));
    let r = t * poly.exp();
    if x >= 0.0 { r } else { 2.0 - r }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64, tol: f64) -> bool {
        (a - b).abs() <= tol
    }

    #[test]
    fn rate_and_sigma() {
        assert_eq!(win_rate(0, 0), 0.0);
        assert!((win_rate(250, 1000) - 0.25).abs() < 1e-12);
        let s = win_rate_sigma(0.25, 1000);
        assert!((s - (0.25f64 * 0.75 / 1000.0).sqrt()).abs() < 1e-12);
    }

    #[test]
    fn normal_quantiles_match_the_tables() {
        assert!(close(normal_quantile(0.975), 1.959_963_985, 1e-7));
        assert!(close(normal_quantile(0.995), 2.575_829_304, 1e-7));
        assert!(close(normal_quantile(0.5), 0.0, 1e-9));
        assert!(close(normal_quantile(0.001_349_898), -3.0, 1e-5));
        assert!(close(normal_cdf(3.0), 0.998_650_102, 1e-7));
        assert!(close(Confidence::new(0.95).unwrap().z(), 1.959_963_985, 1e-7));
        assert_eq!(Confidence::default().z(), 3.0);
        assert!(
            Confidence::new(1.0).is_err()
                && Confidence::new(0.0).is_err()
                && Confidence::new(f64::NAN).is_err()
        );
        // Bonferroni over 10 comparisons at 95 %: each at 0.5 %, z = Φ⁻¹(0.9975).
        assert!(close(Confidence::new(0.95).unwrap().bonferroni_z(10), 2.807_033_768, 1e-6));
    }

    #[test]
    fn wilson_matches_known_values() {
        // Wilson 95 % for 81/263 (Wallis 2013 style check, computed by hand
        // from the formula): [0.2553, 0.3662].
        let (lo, hi) = wilson(81, 263, 1.959_963_985);
        assert!(close(lo, 0.255_3, 5e-4) && close(hi, 0.366_2, 5e-4), "{lo} {hi}");
        // 5/10 at z = 1.96: center 0.5, half-width 1.96·√(0.025 + 0.0096)/1.384.
        let (lo, hi) = wilson(5, 10, 1.96);
        assert!(close(lo, 0.236_6, 1e-4) && close(hi, 0.763_4, 1e-4), "{lo} {hi}");
        // At z = 3, 1 of 200: center (0.005 + 0.0225)/1.045.
        let (lo, hi) = wilson(1, 200, 3.0);
        let c = (0.005 + 9.0 / 400.0) / 1.045;
        let h = 3.0 / 1.045 * (0.005 * 0.995 / 200.0 + 9.0 / 160_000.0f64).sqrt();
        assert!(close(lo, c - h, 1e-12) && close(hi, c + h, 1e-12));
    }

    #[test]
    fn the_edges_get_exact_bounds_never_a_point() {
        let c = Confidence::default();
        let (lo, hi) = proportion_interval(0, 200, c);
        assert_eq!(lo, 0.0);
        let exact = 1.0 - (c.alpha() / 2.0).powf(1.0 / 200.0);
        assert!(close(hi, exact, 1e-15) && hi > 0.03 && hi < 0.034, "{hi}");
        // The case: 200/200 with a true rate of 99.35 % must cover it.
        let (lo, hi) = proportion_interval(200, 200, c);
        assert_eq!(hi, 1.0);
        assert!(lo < 0.9935, "{lo}");
        // 95 % for 0/10: 1 − 0.025^{1/10} = 0.3085 (the textbook value).
        let (_, hi) = proportion_interval(0, 10, Confidence::new(0.95).unwrap());
        assert!(close(hi, 0.308_5, 1e-4), "{hi}");
        assert_eq!(proportion_interval(0, 0, c), (0.0, 1.0));
    }

    /// A tiny deterministic generator for the coverage simulation.
    fn splitmix(state: &mut u64) -> f64 {
        *state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = *state;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^= z >> 31;
        (z >> 11) as f64 / (1u64 << 53) as f64
    }

    #[test]
    fn intervals_cover_at_least_the_nominal_level_within_simulation_error() {
        // For true rates near the edges and in the middle, 4000 samples of n
        // runs each: the interval must cover p in at least the nominal share
        // minus 3 simulation standard errors (Wilson dips slightly below
        // nominal at a few p; the margin is that dip's known size).
        let mut state = 2026u64;
        for (level, n) in [(0.95, 50u64), (0.95, 200), (THREE_SIGMA_LEVEL, 200), (0.99, 100)] {
            let c = Confidence::new(level).unwrap();
            let mut worst = 1.0f64;
            for &p in &[0.002, 0.01, 0.05, 0.2, 0.5, 0.8, 0.95, 0.9935, 0.999] {
                let trials = 4000;
                let mut covered = 0;
                for _ in 0..trials {
                    let k = (0..n).filter(|_| splitmix(&mut state) < p).count() as u64;
                    let (lo, hi) = proportion_interval(k, n, c);
                    covered += u32::from(lo <= p && p <= hi);
                }
                let share = f64::from(covered) / f64::from(trials);
                let sim_se = (share * (1.0 - share) / f64::from(trials)).sqrt();
                // Near the edges (fewer than 3 expected successes or
                // failures) Wilson's coverage dips well below nominal at
                // some p (Brown, Cai & DasGupta 2001); exact coverages of
                // this method there: ≥ 0.91 at 95 %, ≥ 0.97 at 99 %,
                // ≥ 0.98 at 99.73 %.
                let edge = (n as f64 * p).min(n as f64 * (1.0 - p)) < 3.0;
                let dip = if edge { 0.05 } else { 0.01 };
                assert!(
                    share >= level - 3.0 * sim_se - dip,
                    "level {level}, n {n}, p {p}: coverage {share:.4} below nominal"
                );
                worst = worst.min(share);
            }
            assert!(worst > level - 0.06, "level {level} n {n}: worst coverage {worst}");
        }
    }

    #[test]
    fn paired_differences() {
        let a = [1.0, 1.0, 0.0, 1.0];
        let b = [1.0, 0.0, 0.0, 1.0, 1.0];
        let p = Paired::of(&a, &b);
        assert_eq!(p.n, 4);
        assert_eq!(p.mean, 0.25);
        // Differences 0, 1, 0, 0: sample sd √(0.25), se 0.25.
        assert!(close(p.se, 0.25, 1e-12));
        assert_eq!(p.sign(3.0), Sign::Tied);
        assert_eq!(Paired::of(&[1.0; 5], &[0.0; 5]).sign(3.0), Sign::Greater);
        assert_eq!(Paired::of(&[0.0; 5], &[0.0; 5]).sign(3.0), Sign::Tied);
        assert_eq!(Paired::of(&[], &[]).sign(3.0), Sign::Tied);
        assert!(close(mean_se(2.0, 5), 1.0, 1e-12));
    }
}
