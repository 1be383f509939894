//! `frontier`: the party hit-point fractions where a danger criterion
//! crosses a target (the adversary at full hit points).
//!
//! Crossing: value ≥ target for p_tpk, p_any_death and expected_hp_lost;
//! value ≤ target for p_survives. Danger is not assumed monotone: a coarse
//! scan of `scan` evenly spaced fractions from `min_fraction` to
//! `max_fraction` comes first, then every pair of neighbouring probes on
//! opposite sides is bisected down to the precision — each such bracket is
//! one crossing, reported on the precision grid on its crossing side
//! (⌊lo⌋ when the lower end crosses, ⌈hi⌉ when the upper one does). More
//! than one crossing means danger is not monotone in the party's hit
//! points, and the result says so. A crossing narrower than the scan step
//! can be missed.
//!
//! Uncertainty (`docs/statistics.md`): each probe's criterion has its
//! interval at the sweep's confidence; a probe whose interval straddles the
//! target is measured again with twice the runs, up to `resample` times
//! (within the budget, which keeps room for every probe still possible),
//! then reported undecided, and so is a crossing it brackets. Each probe
//! plays its own dice stream, so the curve's errors are independent.

use std::collections::{BTreeMap, VecDeque};

use pf1e_engine::objectives::Criterion;
use pf1e_wire::results::{Crossing, FrontierCrossing, FrontierProbe, FrontierResult, JobProgress, JobResult};
use serde::Deserialize;

use pf1e_llm::Side;

use crate::cell::{Decide, HpFraction, NotCompiled, StrategySpec, WrittenStrategy};
use crate::jobs::JobError;
use crate::jobs::metrics::{CellMetrics, MetricPlanner};
use crate::plan::{JobContext, PlannerState, Step};

/// The `frontier` job as written in the sweep file.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FrontierFile {
    /// Runs per probe (default: the sweep's).
    #[serde(default)]
    pub runs: Option<u64>,
    /// Most runs the job may spend.
    #[serde(default)]
    pub max_total_runs: Option<u64>,
    /// The party's strategy.
    #[serde(default = "WrittenStrategy::default_spec")]
    pub party: WrittenStrategy,
    /// The adversary's strategy.
    #[serde(default = "WrittenStrategy::default_spec")]
    pub adversary: WrittenStrategy,
    /// The party criterion.
    #[serde(default = "default_criterion")]
    pub criterion: Criterion,
    /// The target value.
    pub target: f64,
    /// Lowest party HP fraction probed.
    #[serde(default = "default_min")]
    pub min_fraction: HpFraction,
    /// Highest party HP fraction probed.
    #[serde(default = "default_max")]
    pub max_fraction: HpFraction,
    /// Resolution of the answer.
    #[serde(default = "default_precision")]
    pub precision: f64,
    /// Fractions of the coarse scan, both ends included (at least 2).
    #[serde(default = "default_scan")]
    pub scan: u32,
    /// Times an undecided probe may be measured again with twice the runs.
    #[serde(default = "default_resample")]
    pub resample: u32,
}

impl FrontierFile {
    /// The job of this file: `runs` the sweep's unless it writes its own,
    /// every strategy decided.
    pub fn decide(self, runs: u64, spec: &mut Decide) -> Result<FrontierJob, NotCompiled> {
        Ok(FrontierJob {
            runs: self.runs.unwrap_or(runs),
            max_total_runs: self.max_total_runs,
            party: spec(Side::Party, &self.party)?,
            adversary: spec(Side::Adversary, &self.adversary)?,
            criterion: self.criterion,
            target: self.target,
            min_fraction: self.min_fraction,
            max_fraction: self.max_fraction,
            precision: self.precision,
            scan: self.scan,
            resample: self.resample,
        })
    }
}

/// The `frontier` job, decided: its runs and strategies known.
#[derive(Debug, Clone, PartialEq)]
pub struct FrontierJob {
    /// Runs per probe.
    pub runs: u64,
    /// Most runs the job may spend.
    pub max_total_runs: Option<u64>,
    /// The party's strategy.
    pub party: StrategySpec,
    /// The adversary's strategy.
    pub adversary: StrategySpec,
    /// The party criterion.
    pub criterion: Criterion,
    /// The target value.
    pub target: f64,
    /// Lowest party HP fraction probed.
    pub min_fraction: HpFraction,
    /// Highest party HP fraction probed.
    pub max_fraction: HpFraction,
    /// Resolution of the answer.
    pub precision: f64,
    /// Fractions of the coarse scan, both ends included (at least 2).
    pub scan: u32,
    /// Times an undecided probe may be measured again with twice the runs.
    pub resample: u32,
}

fn default_scan() -> u32 {
    5
}
fn default_resample() -> u32 {
    2
}

fn default_criterion() -> Criterion {
    Criterion::PTpk
}
fn default_min() -> HpFraction {
    HpFraction(250_000)
}
fn default_max() -> HpFraction {
    HpFraction::FULL
}
fn default_precision() -> f64 {
    0.05
}

impl FrontierJob {
    fn precision_ppm(&self) -> u32 {
        (self.precision * 1e6).round().max(1.0) as u32
    }

    /// The fractions of the coarse scan.
    fn scan_points(&self) -> Vec<u32> {
        let (min, max) = (u64::from(self.min_fraction.0), u64::from(self.max_fraction.0));
        let k = u64::from(self.scan.max(2)) - 1;
        let mut out: Vec<u32> = (0..=k).map(|i| (min + (max - min) * i / k) as u32).collect();
        out.dedup();
        out
    }

    /// Bisection steps of a bracket `[lo, hi]` down to the precision.
    fn steps(&self, mut lo: u32, hi: u32) -> u64 {
        let mut steps = 0;
        while hi - lo > self.precision_ppm() {
            lo += (hi - lo) / 2;
            steps += 1;
        }
        steps
    }

    /// Probes at most, each measured once: the scan and every bracket bisected.
    pub fn worst_case_probes(&self) -> u64 {
        let pts = self.scan_points();
        let bisect: u64 = pts.windows(2).map(|w| self.steps(w[0], w[1])).sum();
        pts.len() as u64 + bisect
    }

    /// The runs of every probe measured once.
    pub fn fixed_runs(&self) -> u64 {
        self.worst_case_probes().saturating_mul(self.runs)
    }

    /// The most runs the job can plan: its budget when it has one
    /// (resampling adapts to what is left), else every probe resampled
    /// `resample` times (runs × (1 + 2 + … + 2^r)).
    pub fn worst_case_runs(&self) -> u64 {
        if let Some(max) = self.max_total_runs {
            return max;
        }
        self.fixed_runs().saturating_mul((1u64 << (self.resample.min(20) + 1)) - 1)
    }

    /// Checks the parameters and the budget before anything runs.
    pub fn check(&self) -> Result<(), JobError> {
        if self.criterion.is_probability() && !(self.target > 0.0 && self.target < 1.0) {
            return Err(JobError::invalid(
                "frontier",
                format!("target must be in (0, 1) for {}, got {}", self.criterion.name(), self.target),
            ));
        }
        if !self.criterion.is_probability() && (self.target.is_nan() || self.target < 0.0) {
            return Err(JobError::invalid(
                "frontier",
                format!("target must be at least 0, got {}", self.target),
            ));
        }
        if self.min_fraction > self.max_fraction {
            return Err(JobError::invalid("frontier", "min_fraction must not exceed max_fraction"));
        }
        if !(self.precision > 0.0 && self.precision <= 1.0) {
            return Err(JobError::invalid(
                "frontier",
                format!("precision must be in (0, 1], got {}", self.precision),
            ));
        }
        if !(2..=33).contains(&self.scan) {
            return Err(JobError::invalid(
                "frontier",
                format!("scan must be 2 to 33 fractions, got {}", self.scan),
            ));
        }
        if self.resample > 8 {
            return Err(JobError::invalid(
                "frontier",
                format!("resample must be at most 8, got {}", self.resample),
            ));
        }
        if let Some(max) = self.max_total_runs
            && self.fixed_runs() > max
        {
            return Err(JobError::OverBudget {
                job: "frontier",
                plan: format!("{} probes of {} runs", self.worst_case_probes(), self.runs),
                runs: self.fixed_runs(),
                max,
            });
        }
        Ok(())
    }
}

/// A probe of the curve.
#[derive(Debug, Clone)]
struct Probe {
    runs: u64,
    resampled: u32,
    metrics: Option<CellMetrics>,
    pending: bool,
}

/// A bracket being bisected: `[lo, hi]`, the lower end crossed or not.
#[derive(Debug, Clone, Copy, PartialEq)]
struct Bracket {
    lo: u32,
    hi: u32,
    low_crossed: bool,
}

/// The frontier planner.
pub struct Frontier {
    ctx: JobContext,
    job: FrontierJob,
    /// Probes by fraction (ppm).
    probes: BTreeMap<u32, Probe>,
    /// Fractions in the order first probed.
    order: Vec<u32>,
    /// Fraction of each emitted cell.
    emitted: Vec<u32>,
    scanned: bool,
    /// Brackets left to bisect (`None`: not built yet).
    queue: Option<VecDeque<Bracket>>,
    current: Option<Bracket>,
    /// Crossings found: (fraction ppm, side, undecided).
    crossings: Vec<(u32, Crossing, bool)>,
    done: bool,
    spent: u64,
}

/// The seed of a probe: the sweep's mixed with the fraction, so that each
/// probe plays its own dice (splitmix64 finaliser).
fn probe_seed(seed: u64, f: u32) -> u64 {
    let mut z = seed ^ (u64::from(f) << 20) ^ 0x6672_6f6e_7469_6572;
    z = z.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

impl Frontier {
    /// The planner of `job`.
    pub fn new(ctx: JobContext, job: FrontierJob) -> Self {
        Self {
            ctx,
            job,
            probes: BTreeMap::new(),
            order: Vec::new(),
            emitted: Vec::new(),
            scanned: false,
            queue: None,
            current: None,
            crossings: Vec::new(),
            done: false,
            spent: 0,
        }
    }

    fn cell(&mut self, f: u32, runs: u64) -> crate::cell::CellSpec {
        self.emitted.push(f);
        self.spent += runs;
        let mut cell =
            self.ctx.cell(&self.job.party, &self.job.adversary, HpFraction(f), HpFraction::FULL, runs);
        cell.seed = probe_seed(self.ctx.seed, f);
        cell
    }

    /// Emits a first measurement of `f` (none when it was probed already).
    fn probe(&mut self, f: u32) -> Option<crate::cell::CellSpec> {
        if self.probes.contains_key(&f) {
            return None;
        }
        let runs = self.job.runs;
        self.probes.insert(f, Probe { runs, resampled: 0, metrics: None, pending: true });
        self.order.push(f);
        Some(self.cell(f, runs))
    }

    /// The value, interval and side of probe `f`: (crossed by the point
    /// estimate, undecided).
    fn flags(&self, f: u32) -> Option<(bool, bool)> {
        let m = &self.probes.get(&f)?.metrics.as_ref()?.party;
        let (c, t) = (self.job.criterion, self.job.target);
        let (lo, hi) = m.interval(c);
        Some((c.crossed(c.value(m), t), c.crossed(lo, t) != c.crossed(hi, t)))
    }

    /// Re-measures every undecided probe with twice the runs, when the
    /// rounds and the budget allow.
    fn resample(&mut self) -> Vec<crate::cell::CellSpec> {
        let again: Vec<(u32, u64)> = self
            .probes
            .iter()
            .filter(|(_, p)| p.resampled < self.job.resample)
            .filter(|&(&f, _)| self.flags(f).is_some_and(|(_, undecided)| undecided))
            .map(|(&f, p)| (f, p.runs * 2))
            .collect();
        let mut cells = Vec::new();
        for (f, runs) in again {
            if let Some(max) = self.job.max_total_runs {
                let first = self.probes.len() as u64 * self.job.runs;
                if self.spent + runs + self.job.fixed_runs().saturating_sub(first) > max {
                    continue;
                }
            }
            if let Some(p) = self.probes.get_mut(&f) {
                p.runs = runs;
                p.resampled += 1;
                p.pending = true;
            }
            cells.push(self.cell(f, runs));
        }
        cells
    }

    fn ceil(&self, f: u32) -> u32 {
        let p = self.job.precision_ppm();
        f.div_ceil(p) * p
    }

    /// Rounds down to the precision grid, never below the minimum fraction.
    fn floor(&self, f: u32) -> u32 {
        let p = self.job.precision_ppm();
        (f / p * p).max(self.job.min_fraction.0)
    }

    /// The brackets of the scan: neighbours on opposite sides.
    fn brackets(&self) -> VecDeque<Bracket> {
        let pts = self.job.scan_points();
        pts.windows(2)
            .filter_map(|w| {
                let (a, b) = (self.flags(w[0])?.0, self.flags(w[1])?.0);
                (a != b).then_some(Bracket { lo: w[0], hi: w[1], low_crossed: a })
            })
            .collect()
    }

    /// The crossing reported: the highest (the first met as hit points
    /// fall), or the whole range when every scanned probe crossed.
    fn answer(&self) -> Option<(u32, Crossing)> {
        if let Some(&(f, side, _)) = self.crossings.iter().max_by_key(|c| c.0) {
            return Some((f, side));
        }
        let pts = self.job.scan_points();
        let all = pts.iter().all(|&f| self.flags(f).is_some_and(|(crossed, _)| crossed));
        (self.done && all).then(|| (self.ceil(self.job.min_fraction.0), Crossing::Everywhere))
    }
}

impl MetricPlanner for Frontier {
    fn kind(&self) -> &'static str {
        "frontier"
    }

    fn step(&mut self) -> Step {
        if self.done {
            return Step::Done;
        }
        if self.probes.values().any(|p| p.pending) {
            return Step::Wait;
        }
        if !self.scanned {
            self.scanned = true;
            let cells: Vec<_> = self.job.scan_points().into_iter().filter_map(|f| self.probe(f)).collect();
            return Step::Emit(cells);
        }
        let again = self.resample();
        if !again.is_empty() {
            return Step::Emit(again);
        }
        let prec = self.job.precision_ppm();
        loop {
            let Some(mut b) = self.current else {
                if self.queue.is_none() {
                    self.queue = Some(self.brackets());
                }
                match self.queue.as_mut().and_then(VecDeque::pop_front) {
                    Some(b) => {
                        self.current = Some(b);
                        continue;
                    }
                    None => {
                        self.crossings.sort_by_key(|c| c.0);
                        self.done = true;
                        return Step::Done;
                    }
                }
            };
            // Narrow the bracket by its measured midpoint, if any.
            let mid = b.lo + (b.hi - b.lo) / 2;
            if b.hi - b.lo > prec
                && let Some((crossed, _)) = self.flags(mid)
            {
                if crossed == b.low_crossed {
                    b.lo = mid;
                } else {
                    b.hi = mid;
                }
                self.current = Some(b);
                continue;
            }
            if b.hi - b.lo <= prec {
                let undecided = [b.lo, b.hi].iter().any(|&f| self.flags(f).is_some_and(|(_, u)| u));
                let found = if b.low_crossed {
                    (self.floor(b.lo), Crossing::AtOrBelow, undecided)
                } else {
                    (self.ceil(b.hi), Crossing::AtOrAbove, undecided)
                };
                self.crossings.push(found);
                self.current = None;
                continue;
            }
            if let Some(cell) = self.probe(mid) {
                return Step::Emit(vec![cell]);
            }
            // Probed but not measured cannot happen: nothing is pending here.
            return Step::Wait;
        }
    }

    fn consume_metrics(&mut self, index: usize, m: &CellMetrics) {
        if let Some(&f) = self.emitted.get(index)
            && let Some(p) = self.probes.get_mut(&f)
        {
            if p.metrics.as_ref().is_none_or(|old| old.party.runs <= m.party.runs) {
                p.metrics = Some(m.clone());
            }
            p.pending = p.metrics.as_ref().is_none_or(|have| have.party.runs < p.runs);
        }
    }

    fn state(&self) -> PlannerState {
        PlannerState {
            phase: if self.done {
                "done".into()
            } else {
                format!("{} crossings so far", self.crossings.len())
            },
            cells: self.emitted.len() as u64,
            measured: self.probes.values().filter(|p| p.metrics.is_some()).count() as u64,
        }
    }

    fn result(&self) -> JobResult {
        let (fraction, crossed) = match self.answer() {
            Some((f, side)) => (Some(f64::from(f) / 1e6), Some(side)),
            None => (None, None),
        };
        let c = self.job.criterion;
        JobResult::Frontier(FrontierResult {
            criterion: c,
            target: self.job.target,
            party_strategy: self.job.party.as_str().to_string(),
            adversary_strategy: self.job.adversary.as_str().to_string(),
            min_fraction: self.job.min_fraction.as_f64(),
            max_fraction: self.job.max_fraction.as_f64(),
            precision: self.job.precision,
            fraction,
            crossed,
            probes: self
                .order
                .iter()
                .filter_map(|&f| {
                    let m = &self.probes.get(&f)?.metrics.as_ref()?.party;
                    let (crossed, undecided) = self.flags(f)?;
                    let (lo, hi) = m.interval(c);
                    Some(FrontierProbe {
                        party_hp: f64::from(f) / 1e6,
                        value: c.value(m),
                        crossed,
                        interval: [lo, hi],
                        undecided,
                        runs: m.runs,
                    })
                })
                .collect(),
            crossings: self
                .crossings
                .iter()
                .map(|&(f, crossed, undecided)| FrontierCrossing {
                    fraction: f64::from(f) / 1e6,
                    crossed,
                    undecided,
                })
                .collect(),
            monotone: self.crossings.len() <= 1,
        })
    }

    fn progress(&self) -> Option<JobProgress> {
        let &f = self.order.last()?;
        let m = &self.probes.get(&f)?.metrics.as_ref()?.party;
        Some(JobProgress::Frontier {
            criterion: self.job.criterion,
            value: self.job.criterion.value(m),
            party_hp: f64::from(f) / 1e6,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cell::CellSpec;
    use crate::jobs::metrics::testing::{self, ctx, drive, metrics};

    fn result(p: &Frontier) -> FrontierResult {
        match p.result() {
            JobResult::Frontier(r) => r,
            other => panic!("not a frontier: {other:?}"),
        }
    }

    fn job(criterion: Criterion, target: f64) -> FrontierJob {
        FrontierJob {
            runs: 50,
            max_total_runs: None,
            party: StrategySpec::default_spec(),
            adversary: StrategySpec::default_spec(),
            criterion,
            target,
            min_fraction: HpFraction(100_000),
            max_fraction: HpFraction::FULL,
            precision: 0.05,
            scan: 5,
            resample: 0,
        }
    }

    /// A monotone danger curve: p_tpk = 1 − party hp fraction.
    fn curve(c: &CellSpec) -> CellMetrics {
        let f = c.hp["a"].as_f64();
        metrics(f, 100.0 * (1.0 - f), c.runs)
    }

    #[test]
    fn bisection_finds_where_falling_hp_crosses_and_floors_it() {
        // p_tpk = 1 − f ≥ 0.62 ⇔ f ≤ 0.38: danger grows as party HP falls (the usual case).
        let mut p = Frontier::new(ctx(), job(Criterion::PTpk, 0.62));
        let cells = drive(&mut p, &curve);
        let r = result(&p);
        // The largest crossing probe lies in (0.33, 0.38]; floored to the 0.05 grid it stays crossing.
        assert_eq!(r.fraction, Some(0.35));
        assert_eq!(r.crossed, Some(Crossing::AtOrBelow));
        assert!(cells.len() > 2);
        assert!(cells.len() as u64 <= job(Criterion::PTpk, 0.62).worst_case_probes());
    }

    #[test]
    fn bisection_finds_where_rising_hp_crosses_and_ceils_it() {
        // survival = 1 − f ≤ 0.42 ⇔ f ≥ 0.58 (the predecessor's case).
        let inverted = |c: &CellSpec| {
            let f = c.hp["a"].as_f64();
            metrics(1.0 - f, 0.0, c.runs)
        };
        let mut p = Frontier::new(ctx(), job(Criterion::PSurvives, 0.42));
        let cells = drive(&mut p, &inverted);
        let r = result(&p);
        // Bisection ends with hi = 0.60625 (lo = 0.578125, within the 0.05 precision), and hi is
        // ceiled to the precision grid: 0.65.
        assert_eq!(r.fraction, Some(0.65));
        assert_eq!(r.crossed, Some(Crossing::AtOrAbove));
        assert!(cells.len() as u64 <= job(Criterion::PSurvives, 0.42).worst_case_probes());
        assert!(cells.iter().all(|c| c.hp["b"] == HpFraction::FULL));
        let seeds: std::collections::BTreeSet<u64> = cells.iter().map(|c| c.seed).collect();
        assert_eq!(seeds.len(), cells.len(), "each probe plays its own dice");
        assert!(r.monotone && r.crossings.len() == 1);
    }

    #[test]
    fn crossing_at_both_ends_is_everywhere() {
        // Expected HP lost = 100 (1 − f) ≥ 0 holds at every fraction.
        let mut p = Frontier::new(ctx(), job(Criterion::ExpectedHpLost, 0.0));
        let cells = drive(&mut p, &curve);
        assert_eq!(cells.len(), 5, "the scan only");
        assert_eq!(result(&p).crossed, Some(Crossing::Everywhere));
    }

    #[test]
    fn no_frontier_when_even_the_maximum_does_not_cross() {
        let mut p = Frontier::new(ctx(), job(Criterion::ExpectedHpLost, 1000.0));
        let cells = drive(&mut p, &curve);
        assert_eq!(cells.len(), 5);
        assert_eq!(result(&p).fraction, None);
    }

    #[test]
    fn every_crossing_is_found_and_non_monotone_danger_is_said() {
        // p_tpk high at low HP, low in the middle, high again near full HP
        // (as the campaign curve: a party at full HP charges in).
        let bumpy = |c: &CellSpec| {
            let f = c.hp["a"].as_f64();
            let t = if f < 0.3 {
                0.8
            } else if f < 0.7 {
                0.1
            } else {
                0.7
            };
            testing::synthetic(c.seed, 1, c.runs, t, t, 5.0)
        };
        let j = FrontierJob { runs: 200, resample: 2, ..job(Criterion::PTpk, 0.4) };
        let mut p = Frontier::new(ctx(), j.clone());
        let cells = drive(&mut p, &bumpy);
        let r = result(&p);
        assert!(!r.monotone);
        let found: Vec<(f64, Crossing)> = r.crossings.iter().map(|c| (c.fraction, c.crossed)).collect();
        // Each on the grid, on its crossing side: ⌊0.297⌋ = 0.25 and ⌈0.719⌉ = 0.75.
        assert_eq!(found, [(0.25, Crossing::AtOrBelow), (0.75, Crossing::AtOrAbove)], "{r:?}");
        assert!(r.crossings.iter().all(|c| !c.undecided));
        assert_eq!(r.fraction, Some(0.75), "the first crossing met as hit points fall");
        assert!(cells.len() as u64 <= j.worst_case_probes() * 3);
    }

    #[test]
    fn probes_straddling_the_target_are_resampled_then_undecided() {
        // p_tpk = 0.47 everywhere below 0.5, target 0.4: never decided at
        // 200 runs (the interval is ±0.1 wide).
        let flat = |c: &CellSpec| {
            let t = if c.hp["a"].as_f64() < 0.5 { 0.47 } else { 0.0 };
            testing::synthetic(c.seed, 1, c.runs, t, t, 5.0)
        };
        let j = FrontierJob { runs: 50, resample: 2, ..job(Criterion::PTpk, 0.4) };
        let mut p = Frontier::new(ctx(), j.clone());
        let cells = drive(&mut p, &flat);
        let r = result(&p);
        assert!(cells.iter().any(|c| c.runs == 200), "resampled twice: 50, 100, 200 runs");
        assert!(r.probes.iter().any(|p| p.undecided), "{:?}", r.probes);
        assert!(r.probes.iter().filter(|p| p.undecided).all(|p| p.runs == 200), "{:?}", r.probes);
        assert!(r.probes.iter().filter(|p| p.party_hp >= 0.5).all(|p| !p.undecided && !p.crossed));
        // Within a budget that cannot pay for it, nothing is resampled.
        let tight = FrontierJob { max_total_runs: Some(j.fixed_runs()), ..j };
        let mut p = Frontier::new(ctx(), tight.clone());
        let cells = drive(&mut p, &flat);
        assert!(cells.iter().all(|c| c.runs == 50));
        assert!(cells.iter().map(|c| c.runs).sum::<u64>() <= tight.fixed_runs());
    }

    #[test]
    fn budget_reserves_the_worst_case() {
        let j = FrontierJob { max_total_runs: Some(100), ..job(Criterion::PTpk, 0.5) };
        let e = j.check().unwrap_err();
        assert!(matches!(e, JobError::OverBudget { job: "frontier", max: 100, .. }), "{e}");
        assert!(FrontierJob { max_total_runs: Some(j.fixed_runs()), ..j.clone() }.check().is_ok());
        assert_eq!(FrontierJob { resample: 2, ..j.clone() }.worst_case_runs(), 100, "a budget bounds it");
        let free = FrontierJob { max_total_runs: None, resample: 2, ..j };
        assert_eq!(free.worst_case_runs(), free.fixed_runs() * 7);
        assert!(job(Criterion::PTpk, 1.5).check().is_err());
    }
}
