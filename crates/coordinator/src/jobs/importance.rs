//! Lever importance: a functional ANOVA of the `optimize` grid.
//!
//! The coarse grid of `optimize` is a full factorial over the levers it
//! varies (target × spell policy × charges × class abilities, the inert ones
//! left out), so the variance of the objective over its cells splits
//! exactly into main effects and interactions. Lever `L` with `k` levels
//! has the main-effect variance `V_L = (1/k) Σ_v (ȳ_v − ȳ)²`, `ȳ_v` the mean
//! of the cells where `L = v`; its first-order share is `V_L / V`, `V` the
//! variance of the cells (equal weights), and what no single lever explains
//! is the interactions' share. Each cell is an estimate: were the cells'
//! errors independent with variances `s_i²`, a lever without effect would
//! still show `E[V_L] = (k − 1) · mean(s_i²) / N` (`N` cells) — its noise
//! floor, reported beside each share. Under common random numbers the
//! cells' errors are positively correlated and the floor overstates the
//! noise of the differences; whether a lever matters is the paired test's
//! answer (`levers_that_matter`).

/// One cell of a full factorial: each lever's level, the value, its variance.
#[derive(Debug, Clone, PartialEq)]
pub struct Cell {
    /// The level of each lever, in the order of the lever names.
    pub levels: Vec<String>,
    /// The measured value.
    pub y: f64,
    /// The variance of the measurement.
    pub var: f64,
}

/// A lever's first-order share of the variance and its noise floor.
#[derive(Debug, Clone, PartialEq)]
pub struct Share {
    /// Index of the lever in the names given.
    pub lever: usize,
    /// `V_L / V`.
    pub share: f64,
    /// The share noise alone would give (independent errors).
    pub noise: f64,
}

/// The main-effect shares of `levers` levers over `cells` (a full
/// factorial: every combination of the levels seen exactly once), and the
/// interactions' share; `None` when the cells are not a full factorial, a
/// lever has a single level, or the values do not vary.
pub fn main_effects(levers: usize, cells: &[Cell]) -> Option<(Vec<Share>, f64)> {
    let n = cells.len();
    if n < 2 || cells.iter().any(|c| c.levels.len() != levers) {
        return None;
    }
    let levels: Vec<Vec<&str>> = (0..levers)
        .map(|l| {
            let mut v: Vec<&str> = cells.iter().map(|c| c.levels[l].as_str()).collect();
            v.sort_unstable();
            v.dedup();
            v
        })
        .collect();
    let combinations: usize = levels.iter().map(Vec::len).product();
    let mut seen: Vec<&Vec<String>> = cells.iter().map(|c| &c.levels).collect();
    seen.sort();
    seen.dedup();
    if levels.iter().any(|v| v.len() < 2) || combinations != n || seen.len() != n {
        return None;
    }
    let nf = n as f64;
    let mean = cells.iter().map(|c| c.y).sum::<f64>() / nf;
    let total = cells.iter().map(|c| (c.y - mean).powi(2)).sum::<f64>() / nf;
    if total <= 0.0 {
        return None;
    }
    let noise = cells.iter().map(|c| c.var).sum::<f64>() / nf;
    let mut shares = Vec::new();
    for (l, values) in levels.iter().enumerate() {
        let k = values.len() as f64;
        let v_l = values
            .iter()
            .map(|v| {
                let ys: Vec<f64> = cells.iter().filter(|c| c.levels[l] == *v).map(|c| c.y).collect();
                (ys.iter().sum::<f64>() / ys.len() as f64 - mean).powi(2)
            })
            .sum::<f64>()
            / k;
        shares.push(Share { lever: l, share: v_l / total, noise: (k - 1.0) * noise / nf / total });
    }
    let interactions = (1.0 - shares.iter().map(|s| s.share).sum::<f64>()).max(0.0);
    Some((shares, interactions))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cell(a: &str, b: &str, y: f64) -> Cell {
        Cell { levels: vec![a.into(), b.into()], y, var: 0.0 }
    }

    #[test]
    fn an_additive_factorial_splits_its_variance_exactly() {
        // y = a + b with a ∈ {0, 2}, b ∈ {0, 1}: V_a = 1, V_b = 0.25, V = 1.25.
        let cells = [cell("0", "0", 0.0), cell("0", "1", 1.0), cell("2", "0", 2.0), cell("2", "1", 3.0)];
        let (s, inter) = main_effects(2, &cells).unwrap();
        assert!((s[0].share - 0.8).abs() < 1e-12 && (s[1].share - 0.2).abs() < 1e-12, "{s:?}");
        assert!(inter.abs() < 1e-12);
        assert_eq!(s[0].noise, 0.0);
    }

    #[test]
    fn a_pure_interaction_has_no_main_effect_and_noise_has_its_floor() {
        // y = a xor b: no main effect, all interaction.
        let mut cells = [cell("0", "0", 0.0), cell("0", "1", 1.0), cell("1", "0", 1.0), cell("1", "1", 0.0)];
        let (s, inter) = main_effects(2, &cells).unwrap();
        assert!(s.iter().all(|s| s.share.abs() < 1e-12) && (inter - 1.0).abs() < 1e-12);
        // Variance 0.25 per cell: floor (2 − 1) · 0.25 / 4 over V = 0.25.
        for c in &mut cells {
            c.var = 0.25;
        }
        let (s, _) = main_effects(2, &cells).unwrap();
        assert!((s[0].noise - 0.25).abs() < 1e-12, "{s:?}");
    }

    #[test]
    fn anything_but_a_full_factorial_is_refused() {
        let cells = [cell("0", "0", 0.0), cell("0", "1", 1.0), cell("2", "0", 2.0)];
        assert!(main_effects(2, &cells).is_none(), "a combination missing");
        let flat = [cell("0", "0", 1.0), cell("0", "1", 1.0), cell("2", "0", 1.0), cell("2", "1", 1.0)];
        assert!(main_effects(2, &flat).is_none(), "no variance");
    }
}
