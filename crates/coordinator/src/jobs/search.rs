//! Continuous and integer lever ranges for `optimize` (`ranges:` in the
//! sweep file) and the settings of their Bayesian search (`search:`).
//!
//! A range is written `retreat: [0.0, 0.9]`: a numeric lever, its lowest
//! and highest value, inside the lever's domain. A fraction lever is kept
//! to thousandths and an integer lever (a choice whose values are all
//! integers, such as `area_min`) to units, so every point the search
//! proposes is a value the strategy can name — and one cache key. Points
//! are handled as integer ticks on each lever's lattice and mapped onto the
//! unit cube for the Gaussian process (`jobs::bayes`).

use pf1e_engine::strategy::{LEVERS, LeverKind};
use serde::Deserialize;

use crate::cell::StrategySpec;

/// The range of one numeric lever, on its lattice.
#[derive(Debug, Clone, PartialEq)]
pub struct LeverRange {
    /// The lever's name.
    pub name: &'static str,
    /// The lowest value, in ticks.
    pub lo: i64,
    /// The highest value, in ticks.
    pub hi: i64,
    /// The value of one tick (0.001 for a fraction, 1 for an integer).
    pub step: f64,
}

impl LeverRange {
    /// The value of tick `t` (divided, not multiplied, so thousandths print short).
    pub fn value(&self, t: i64) -> f64 {
        t as f64 / (1.0 / self.step).round()
    }

    /// The tick of `value` (rounded to the lattice).
    pub fn tick(&self, value: f64) -> i64 {
        (value / self.step).round() as i64
    }

    /// The number of lattice points in the range.
    pub fn points(&self) -> u64 {
        (self.hi - self.lo) as u64 + 1
    }

    /// Tick `t` on the unit interval.
    pub fn to_unit(&self, t: i64) -> f64 {
        (t - self.lo) as f64 / (self.hi - self.lo) as f64
    }

    /// The tick nearest to `u` of the unit interval.
    pub fn from_unit(&self, u: f64) -> i64 {
        (self.lo + (u.clamp(0.0, 1.0) * (self.hi - self.lo) as f64).round() as i64).clamp(self.lo, self.hi)
    }

    /// The value written as a spec writes it.
    pub fn text(&self, t: i64) -> String {
        if self.step >= 1.0 {
            format!("{}", (t as f64 * self.step).round() as i64)
        } else {
            format!("{}", self.value(t))
        }
    }

    /// The range as written (`retreat: [0, 0.9]`).
    pub fn describe(&self) -> String {
        format!("{}: [{}, {}]", self.name, self.text(self.lo), self.text(self.hi))
    }
}

/// The ranges of an optimize job, in the levers' canonical order.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct LeverRanges(pub Vec<LeverRange>);

/// The domain of a numeric lever: its lowest and highest tick and the tick.
fn domain(name: &str) -> Result<(&'static str, i64, i64, f64), String> {
    let known = || LEVERS.iter().map(|l| l.name).collect::<Vec<_>>().join(", ");
    let lever = LEVERS
        .iter()
        .find(|l| l.name == name)
        .ok_or_else(|| format!("unknown lever `{name}` (the levers are {})", known()))?;
    match lever.kind {
        LeverKind::Fraction => Ok((lever.name, 0, 1000, 0.001)),
        LeverKind::Choice(values) => {
            let ints: Option<Vec<i64>> = values.iter().map(|v| v.parse().ok()).collect();
            match ints {
                Some(ints) if !ints.is_empty() => {
                    let (lo, hi) = (ints.iter().min().copied(), ints.iter().max().copied());
                    Ok((lever.name, lo.unwrap_or(0), hi.unwrap_or(0), 1.0))
                }
                _ => Err(format!(
                    "`{name}` is not a numeric lever (its values are {}); list its values as candidates",
                    values.join(", ")
                )),
            }
        }
        LeverKind::Bool => {
            Err(format!("`{name}` is not a numeric lever (true or false); list its values as candidates"))
        }
    }
}

impl LeverRange {
    /// The range `[lo, hi]` of lever `name`, checked against its domain.
    pub fn new(name: &str, bounds: &[f64]) -> Result<Self, String> {
        let (name, dlo, dhi, step) = domain(name)?;
        let &[lo, hi] = bounds else {
            return Err(format!("`{name}` takes two numbers, [lowest, highest]"));
        };
        let shown = |t: i64| if step >= 1.0 { format!("{t}") } else { format!("{}", t as f64 * step) };
        if !lo.is_finite() || !hi.is_finite() {
            return Err(format!("`{name}`: [{lo}, {hi}] is not a range of numbers"));
        }
        if lo >= hi {
            return Err(format!("`{name}`: the lowest value {lo} must be below the highest {hi}"));
        }
        let r = Self { name, lo: 0, hi: 0, step };
        let (tlo, thi) = (r.tick(lo), r.tick(hi));
        if step >= 1.0 && (lo.fract() != 0.0 || hi.fract() != 0.0) {
            return Err(format!("`{name}` takes whole numbers, not [{lo}, {hi}]"));
        }
        if tlo < dlo || thi > dhi {
            return Err(format!(
                "`{name}`: [{lo}, {hi}] leaves the lever's values, {} to {}",
                shown(dlo),
                shown(dhi)
            ));
        }
        if tlo >= thi {
            return Err(format!("`{name}`: [{lo}, {hi}] holds a single value at the lever's precision"));
        }
        Ok(Self { lo: tlo, hi: thi, ..r })
    }
}

impl<'de> Deserialize<'de> for LeverRanges {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct Visit;
        impl<'de> serde::de::Visitor<'de> for Visit {
            type Value = LeverRanges;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("a mapping of numeric levers to [lowest, highest]")
            }
            fn visit_map<A: serde::de::MapAccess<'de>>(self, mut map: A) -> Result<LeverRanges, A::Error> {
                use serde::de::Error;
                let mut out: Vec<LeverRange> = Vec::new();
                while let Some(name) = map.next_key::<String>()? {
                    let bounds: Vec<f64> = map.next_value()?;
                    let range = LeverRange::new(&name, &bounds).map_err(A::Error::custom)?;
                    if out.iter().any(|r| r.name == range.name) {
                        return Err(A::Error::custom(format!("`{name}` has two ranges")));
                    }
                    out.push(range);
                }
                let order =
                    |r: &LeverRange| LEVERS.iter().position(|l| l.name == r.name).unwrap_or(usize::MAX);
                out.sort_by_key(order);
                Ok(LeverRanges(out))
            }
        }
        d.deserialize_map(Visit)
    }
}

impl LeverRanges {
    /// Whether no lever has a range.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// Points of the whole lattice (saturating).
    pub fn lattice_size(&self) -> u64 {
        self.0.iter().map(LeverRange::points).fold(1u64, u64::saturating_mul)
    }

    /// The ticks of `spec` on the ranged levers, when each lies in its range.
    pub fn ticks_of(&self, spec: &StrategySpec) -> Option<Vec<i64>> {
        self.0
            .iter()
            .map(|r| {
                let v: f64 = spec.levers().get(r.name)?.parse().ok()?;
                let t = r.tick(v);
                (r.lo..=r.hi).contains(&t).then_some(t)
            })
            .collect()
    }

    /// `base` with the ranged levers set to `ticks`.
    pub fn spec_at(&self, base: &StrategySpec, ticks: &[i64]) -> Option<StrategySpec> {
        let mut levers = base.levers().clone();
        for (r, &t) in self.0.iter().zip(ticks) {
            levers.set(r.name, Some(&r.text(t))).ok()?;
        }
        Some(StrategySpec::from_engine(levers))
    }

    /// `spec` with every ranged lever set to its lowest value: two specs
    /// share a slice when they differ in the ranged levers only.
    pub fn slice_key(&self, spec: &StrategySpec) -> Option<StrategySpec> {
        let lows: Vec<i64> = self.0.iter().map(|r| r.lo).collect();
        self.spec_at(spec, &lows)
    }

    /// Ticks on the unit cube.
    pub fn to_unit(&self, ticks: &[i64]) -> Vec<f64> {
        self.0.iter().zip(ticks).map(|(r, &t)| r.to_unit(t)).collect()
    }

    /// The lattice point nearest to a unit-cube point.
    pub fn from_unit(&self, u: &[f64]) -> Vec<i64> {
        self.0.iter().zip(u).map(|(r, &x)| r.from_unit(x)).collect()
    }

    /// The whole lattice, in lexicographic order (only when small).
    pub fn lattice(&self) -> Vec<Vec<i64>> {
        let mut out: Vec<Vec<i64>> = vec![Vec::new()];
        for r in &self.0 {
            out = out
                .into_iter()
                .flat_map(|p| (r.lo..=r.hi).map(move |t| [p.clone(), vec![t]].concat()))
                .collect();
        }
        out
    }
}

/// The settings of the search (`search:` in an optimize job).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SearchSettings {
    /// Batches of points (the first a Latin hypercube, then the Gaussian
    /// process's proposals).
    #[serde(default = "default_batches")]
    pub batches: u32,
    /// Points per batch (measured in parallel).
    #[serde(default = "default_points")]
    pub points: u32,
    /// The best points re-measured at the end (with the discrete leader).
    #[serde(default = "default_confirm")]
    pub confirm: u32,
    /// Runs of each re-measurement (default: 4 × the job's runs).
    #[serde(default)]
    pub confirm_runs: Option<u64>,
}

impl Default for SearchSettings {
    fn default() -> Self {
        Self {
            batches: default_batches(),
            points: default_points(),
            confirm: default_confirm(),
            confirm_runs: None,
        }
    }
}

fn default_batches() -> u32 {
    4
}
fn default_points() -> u32 {
    4
}
fn default_confirm() -> u32 {
    3
}

/// Most points a search may measure: the Gaussian process is fitted on
/// every measured point of its slice.
pub const MAX_SEARCH_POINTS: u32 = 64;

impl SearchSettings {
    /// Checks the settings (the job's ranges being non-empty).
    pub fn check(&self) -> Result<(), String> {
        if self.batches == 0 || self.points == 0 || self.confirm == 0 {
            return Err("search: batches, points and confirm must each be at least 1".into());
        }
        if self.batches.saturating_mul(self.points) > MAX_SEARCH_POINTS {
            return Err(format!(
                "search: {} batches of {} points is more than {MAX_SEARCH_POINTS} points",
                self.batches, self.points
            ));
        }
        if self.confirm_runs == Some(0) {
            return Err("search: confirm_runs must be at least 1".into());
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranges_are_checked_against_the_lever() {
        let r = LeverRange::new("retreat", &[0.0, 0.9]).unwrap();
        assert_eq!((r.lo, r.hi, r.points()), (0, 900, 901));
        assert_eq!(r.describe(), "retreat: [0, 0.9]");
        let a = LeverRange::new("area_min", &[1.0, 3.0]).unwrap();
        assert_eq!((a.lo, a.hi, a.text(2)), (1, 3, "2".to_string()));
        let err = |name: &str, b: &[f64]| LeverRange::new(name, b).unwrap_err();
        assert!(err("retreat", &[0.9, 0.1]).contains("must be below"), "{}", err("retreat", &[0.9, 0.1]));
        assert!(err("retreat", &[0.5, 1.5]).contains("leaves the lever's values, 0 to 1"));
        assert!(err("retreat", &[0.5]).contains("two numbers"));
        assert!(err("retreat", &[0.1, 0.1004]).contains("single value"));
        assert!(err("target", &[0.0, 1.0]).contains("not a numeric lever"));
        assert!(err("use_charges", &[0.0, 1.0]).contains("not a numeric lever"));
        assert!(err("area_min", &[1.5, 3.0]).contains("whole numbers"));
        assert!(err("area_min", &[0.0, 3.0]).contains("1 to 3"));
        assert!(err("retret", &[0.0, 1.0]).contains("unknown lever"));
    }

    #[test]
    fn specs_map_to_ticks_and_back() {
        let ranges = LeverRanges(vec![
            LeverRange::new("retreat", &[0.1, 0.9]).unwrap(),
            LeverRange::new("area_min", &[1.0, 3.0]).unwrap(),
        ]);
        let base = StrategySpec::parse("lowest_hp").unwrap();
        let s = ranges.spec_at(&base, &[347, 3]).unwrap();
        assert_eq!(s.as_str(), "lowest_hp, retreat=0.347, area_min=3");
        assert_eq!(ranges.ticks_of(&s), Some(vec![347, 3]));
        assert_eq!(ranges.ticks_of(&base), None, "retreat 0 is outside [0.1, 0.9]");
        assert_eq!(ranges.slice_key(&s), ranges.slice_key(&ranges.spec_at(&base, &[900, 1]).unwrap()));
        assert_eq!(ranges.to_unit(&[500, 2]), vec![0.5, 0.5]);
        assert_eq!(ranges.from_unit(&[0.5, 0.74]), vec![500, 2]);
        assert_eq!(ranges.lattice().len() as u64, ranges.lattice_size());
        assert_eq!(ranges.lattice()[0], vec![100, 1]);
    }
}
