//! Several objectives for `optimize`: outcome constraints ("P(everyone
//! down) ≤ 2 %") and the Pareto front of two or three criteria.
//!
//! Both read the same measurements as the ranking and use the same paired
//! comparisons (common random numbers) at the job's adjusted level, so a
//! plan leaves the front only for a difference that would also separate it
//! in the ranking (`docs/statistics.md`, "Several objectives").

use std::fmt;

use pf1e_engine::metrics::Sign;
use pf1e_engine::objectives::{Criterion, DangerMetrics};
use pf1e_wire::results::ConstraintStatus;
use serde::Deserialize;

use crate::jobs::metrics::{CellMetrics, compare};

/// The front's criteria when the job names none: win, lose nobody, keep
/// hit points — the three a table weighs.
pub const DEFAULT_PARETO: [Criterion; 3] = [Criterion::PWin, Criterion::PAnyDeath, Criterion::ExpectedHpLost];

/// An outcome constraint on the party's figures, written `p_tpk <= 0.02`
/// (also `≤`, `>=`, `≥`; a probability may be written `2%`).
#[derive(Debug, Clone, Copy, PartialEq, Deserialize)]
#[serde(try_from = "String")]
pub struct Constraint {
    /// What is bounded.
    pub criterion: Criterion,
    /// `<=` (else `>=`).
    pub at_most: bool,
    /// The bound: a probability in [0, 1], or hit points.
    pub bound: f64,
}

impl TryFrom<String> for Constraint {
    type Error = String;

    fn try_from(text: String) -> Result<Self, String> {
        let shape = || {
            format!(
                "`{text}`: a constraint is `<criterion> <= <value>` or `>=`, the criterion one of {}",
                Criterion::ALL.iter().map(|c| c.name()).collect::<Vec<_>>().join(", ")
            )
        };
        let (at, op_len, at_most) = ["<=", "≤", ">=", "≥"]
            .iter()
            .find_map(|op| text.find(op).map(|at| (at, op.len(), *op == "<=" || *op == "≤")))
            .ok_or_else(shape)?;
        let name = text[..at].trim();
        let value = text[at + op_len..].trim();
        let criterion = Criterion::from_name(name).ok_or_else(shape)?;
        let (number, percent) = match value.strip_suffix('%') {
            Some(n) => (n.trim(), true),
            None => (value, false),
        };
        let mut bound: f64 = number.parse().map_err(|_| format!("`{text}`: `{value}` is not a number"))?;
        if percent {
            if !criterion.is_probability() {
                return Err(format!("`{text}`: {name} is hit points, not a percentage"));
            }
            bound /= 100.0;
        }
        if !bound.is_finite() || bound < 0.0 || (criterion.is_probability() && bound > 1.0) {
            let range = if criterion.is_probability() { "0 to 1 (or 0% to 100%)" } else { "0 or more" };
            return Err(format!("`{text}`: the bound of {name} is {range}"));
        }
        Ok(Constraint { criterion, at_most, bound })
    }
}

impl fmt::Display for Constraint {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {} {}", self.criterion, if self.at_most { "<=" } else { ">=" }, self.bound)
    }
}

impl Constraint {
    /// Whether `value` meets the bound.
    fn holds(self, value: f64) -> bool {
        if self.at_most { value <= self.bound } else { value >= self.bound }
    }
}

/// How `m` stands against `constraints` (none when there are none): the
/// worst of its constraints, each judged on its point estimate and on its
/// interval at the metrics' level.
pub fn status(constraints: &[Constraint], m: &DangerMetrics) -> Option<ConstraintStatus> {
    constraints
        .iter()
        .map(|&k| {
            let point = k.holds(k.criterion.value(m));
            let (lo, hi) = m.interval(k.criterion);
            match (k.holds(lo), k.holds(hi), point) {
                (true, true, _) => ConstraintStatus::Met,
                (false, false, _) => ConstraintStatus::Violated,
                (_, _, true) => ConstraintStatus::Likely,
                (_, _, false) => ConstraintStatus::Unlikely,
            }
        })
        .max_by_key(|s| match s {
            ConstraintStatus::Met => 0,
            ConstraintStatus::Likely => 1,
            ConstraintStatus::Unlikely => 2,
            ConstraintStatus::Violated => 3,
        })
}

/// Checks the front's criteria: two or three, distinct, not a criterion and
/// its mirror (`p_survives` is 1 − `p_any_death`).
pub fn check_criteria(criteria: &[Criterion]) -> Result<(), String> {
    if !(2..=3).contains(&criteria.len()) {
        return Err(format!("pareto: two or three criteria, not {}", criteria.len()));
    }
    for (i, c) in criteria.iter().enumerate() {
        if criteria[..i].contains(c) {
            return Err(format!("pareto: {c} is named twice"));
        }
    }
    if criteria.contains(&Criterion::PSurvives) && criteria.contains(&Criterion::PAnyDeath) {
        return Err("pareto: p_survives and p_any_death are one criterion (each is 1 − the other)".into());
    }
    Ok(())
}

/// Whether `a` dominates `b`: at least as good on every criterion by point
/// estimate, and significantly better on one (paired, at quantile `z`). A
/// trade-off the estimates show is never removed for want of runs, and a
/// noise-level lead removes nothing.
pub fn dominates(a: &CellMetrics, b: &CellMetrics, criteria: &[Criterion], z: f64) -> bool {
    let at_least_as_good = criteria.iter().all(|&c| {
        let (va, vb) = (c.value(&a.party), c.value(&b.party));
        if c.higher_is_better() { va >= vb } else { va <= vb }
    });
    at_least_as_good && criteria.iter().any(|&c| compare(a, b, c, z) == Sign::Greater)
}

/// Which of `plans` are on the Pareto front: dominated by none of the others.
pub fn front(plans: &[&CellMetrics], criteria: &[Criterion], z: f64) -> Vec<bool> {
    plans
        .iter()
        .enumerate()
        .map(|(i, b)| !plans.iter().enumerate().any(|(k, a)| k != i && dominates(a, b, criteria, z)))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Summaries only (no per-run records: comparisons are unpaired).
    fn metrics(p_any_death: f64, p_tpk: f64, hp_lost: f64, runs: u64) -> CellMetrics {
        CellMetrics {
            party: DangerMetrics {
                runs,
                p_survives: 1.0 - p_any_death,
                p_any_death,
                p_tpk,
                expected_hp_lost: hp_lost,
                hp_lost_sd: 5.0,
                win_rate: 1.0 - p_any_death,
                ..DangerMetrics::default()
            },
            ..CellMetrics::default()
        }
    }

    fn parse(s: &str) -> Result<Constraint, String> {
        Constraint::try_from(s.to_string())
    }

    #[test]
    fn constraints_parse_in_every_spelling_and_refuse_what_cannot_be_bounded() {
        let k = parse("p_tpk <= 0.02").unwrap();
        assert_eq!((k.criterion, k.at_most, k.bound), (Criterion::PTpk, true, 0.02));
        assert_eq!(parse("p_tpk≤2%").unwrap(), k);
        assert_eq!(k.to_string(), "p_tpk <= 0.02");
        let w = parse("p_win >= 0.9").unwrap();
        assert!(!w.at_most);
        assert_eq!(parse("expected_hp_lost ≥ 30").unwrap().bound, 30.0);
        for (bad, says) in [
            ("p_tpk < 0.02", "a constraint is"),
            ("p_wipe <= 0.02", "a constraint is"),
            ("p_tpk <= lots", "is not a number"),
            ("p_tpk <= 1.5", "0 to 1"),
            ("expected_hp_lost <= 20%", "not a percentage"),
            ("expected_hp_lost <= -1", "0 or more"),
        ] {
            let e = parse(bad).unwrap_err();
            assert!(e.contains(says), "{bad}: {e}");
        }
    }

    #[test]
    fn a_constraint_is_met_likely_unlikely_or_violated_by_its_interval() {
        // 1 wipe in 100 runs: Wilson 3σ interval ≈ [0.001, 0.100].
        let m = metrics(0.1, 0.01, 10.0, 100);
        let k = |s: &str| vec![parse(s).unwrap()];
        assert_eq!(status(&k("p_tpk <= 0.5"), &m.party), Some(ConstraintStatus::Met));
        assert_eq!(status(&k("p_tpk <= 0.02"), &m.party), Some(ConstraintStatus::Likely));
        assert_eq!(status(&k("p_tpk <= 0.005"), &m.party), Some(ConstraintStatus::Unlikely));
        assert_eq!(status(&k("p_tpk >= 0.5"), &m.party), Some(ConstraintStatus::Violated));
        assert_eq!(status(&[], &m.party), None);
        // The worst of several.
        let both = [parse("p_tpk <= 0.5").unwrap(), parse("p_tpk <= 0.02").unwrap()];
        assert_eq!(status(&both, &m.party), Some(ConstraintStatus::Likely));
        assert!(ConstraintStatus::Likely.feasible() && !ConstraintStatus::Unlikely.feasible());
    }

    #[test]
    fn the_front_keeps_every_plan_no_other_beats_significantly() {
        let z = 3.0;
        let safe = metrics(0.01, 0.0, 30.0, 10_000); // nobody dies, but bloody
        let cheap = metrics(0.20, 0.05, 5.0, 10_000); // loses people, keeps hit points
        let worse = metrics(0.21, 0.06, 31.0, 10_000); // beaten by `safe` on both
        let twin = metrics(0.01, 0.0, 30.0, 10_000);
        let crit = [Criterion::PAnyDeath, Criterion::ExpectedHpLost];
        assert_eq!(front(&[&safe, &cheap, &worse], &crit, z), [true, true, false]);
        // A plan tied with another on every criterion does not dominate it.
        assert_eq!(front(&[&safe, &twin], &crit, z), [true, true]);
        // Within noise: 40 runs cannot tell 20 % from 21 %, so nothing falls off.
        let (a, b) = (metrics(0.20, 0.05, 5.0, 40), metrics(0.21, 0.06, 5.5, 40));
        assert_eq!(front(&[&a, &b], &crit, z), [true, true]);
        assert!(check_criteria(&crit).is_ok());
        assert!(check_criteria(&DEFAULT_PARETO).is_ok());
        assert!(check_criteria(&[Criterion::PWin]).unwrap_err().contains("two or three"));
        assert!(check_criteria(&[Criterion::PWin, Criterion::PWin]).unwrap_err().contains("twice"));
        assert!(
            check_criteria(&[Criterion::PSurvives, Criterion::PAnyDeath])
                .unwrap_err()
                .contains("one criterion")
        );
    }
}
