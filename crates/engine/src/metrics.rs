//! Closed-form statistics: win rate, its standard error, the 3σ band.

/// Observed rate `wins / n` (0 when `n == 0`).
pub fn win_rate(wins: u64, n: u64) -> f64 {
    if n == 0 { 0.0 } else { wins as f64 / n as f64 }
}

/// Binomial standard error σ = √(p(1−p)/n) (0 when `n == 0`).
pub fn win_rate_sigma(p: f64, n: u64) -> f64 {
    if n == 0 { 0.0 } else { (p * (1.0 - p) / n as f64).sqrt() }
}

/// The band `[p − kσ, p + kσ]` clamped to `[0, 1]`.
pub fn band(p: f64, n: u64, k: f64) -> (f64, f64) {
    let s = win_rate_sigma(p, n);
    ((p - k * s).clamp(0.0, 1.0), (p + k * s).clamp(0.0, 1.0))
}

/// The 3σ band of `wins` out of `n`.
pub fn win_rate_band(wins: u64, n: u64) -> (f64, f64) {
    band(win_rate(wins, n), n, 3.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rate_and_sigma() {
        assert_eq!(win_rate(0, 0), 0.0);
        assert!((win_rate(250, 1000) - 0.25).abs() < 1e-12);
        let s = win_rate_sigma(0.25, 1000);
        assert!((s - (0.25f64 * 0.75 / 1000.0).sqrt()).abs() < 1e-12);
    }

    #[test]
    fn band_is_clamped() {
        assert_eq!(win_rate_band(0, 100), (0.0, 0.0));
        assert_eq!(win_rate_band(100, 100), (1.0, 1.0));
        let (lo, hi) = win_rate_band(2, 10);
        assert_eq!(lo, 0.0);
        assert!(hi > 0.2 && hi < 1.0);
        let (lo, hi) = win_rate_band(500, 1000);
        let s = (0.25f64 / 1000.0).sqrt();
        assert!((lo - (0.5 - 3.0 * s)).abs() < 1e-12 && (hi - (0.5 + 3.0 * s)).abs() < 1e-12);
    }
}
