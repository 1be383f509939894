//! `frontier`: the party hit-point fraction where a danger criterion
//! crosses a target, by bisection (the adversary at full hit points).
//!
//! Crossing: value ≥ target for p_tpk, p_any_death and expected_hp_lost;
//! value ≤ target for p_survives. Less party HP is assumed no safer. A
//! crossing at `min_fraction` returns it (ceiled to the precision grid);
//! otherwise, when `max_fraction` crosses, bisection narrows [lo, hi] to
//! the precision and returns ⌈hi / precision⌉ · precision, which stays on the
//! crossing side; when not even `max_fraction` crosses: no frontier.

use pf1e_engine::objectives::Criterion;
use pf1e_wire::results::{Crossing, FrontierProbe, FrontierResult, JobProgress, JobResult};
use serde::Deserialize;

use crate::cell::{HpFraction, StrategySpec};
use crate::jobs::JobError;
use crate::jobs::metrics::{CellMetrics, MetricPlanner};
use crate::plan::{JobContext, PlannerState, Step};

/// The `frontier` job as written in the sweep file.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FrontierJob {
    /// Runs per probe (default: the sweep's).
    #[serde(default)]
    pub runs: Option<u64>,
    /// Most runs the job may spend.
    #[serde(default)]
    pub max_total_runs: Option<u64>,
    /// The party's strategy.
    #[serde(default = "StrategySpec::default_spec")]
    pub party: StrategySpec,
    /// The adversary's strategy.
    #[serde(default = "StrategySpec::default_spec")]
    pub adversary: StrategySpec,
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
    /// Runs per probe.
    pub fn runs(&self) -> u64 {
        self.runs.unwrap_or(1)
    }

    fn precision_ppm(&self) -> u32 {
        (self.precision * 1e6).round().max(1.0) as u32
    }

    /// Probes at most: both ends and the bisection steps.
    pub fn worst_case_probes(&self) -> u64 {
        let (mut lo, hi) = (self.min_fraction.0, self.max_fraction.0);
        let mut steps = 0;
        while hi - lo > self.precision_ppm() {
            lo += (hi - lo) / 2;
            steps += 1;
        }
        2 + steps
    }

    /// The most runs the job can plan.
    pub fn worst_case_runs(&self) -> u64 {
        self.worst_case_probes().saturating_mul(self.runs())
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
        if let Some(max) = self.max_total_runs
            && self.worst_case_runs() > max
        {
            return Err(JobError::OverBudget {
                job: "frontier",
                plan: format!("{} probes of {} runs", self.worst_case_probes(), self.runs()),
                runs: self.worst_case_runs(),
                max,
            });
        }
        Ok(())
    }
}

#[derive(Debug, Clone, Copy, PartialEq)]
enum Phase {
    Min,
    Max,
    /// `lo` and `hi` were probed; exactly one of them crossed (`min_crossed` says which).
    Bisect {
        lo: u32,
        hi: u32,
        min_crossed: bool,
    },
    Done(Option<(u32, Crossing)>),
}

/// The frontier planner.
pub struct Frontier {
    ctx: JobContext,
    job: FrontierJob,
    phase: Phase,
    /// (fraction, value, crossed) of every probe, in order.
    probes: Vec<(u32, f64, bool)>,
    /// Fraction of the probe in flight.
    asked: Option<u32>,
}

impl Frontier {
    /// The planner of `job`.
    pub fn new(ctx: JobContext, job: FrontierJob) -> Self {
        Self { ctx, job, phase: Phase::Min, probes: Vec::new(), asked: None }
    }

    fn probe(&mut self, f: u32) -> Step {
        self.asked = Some(f);
        Step::Emit(vec![self.ctx.cell(
            &self.job.party,
            &self.job.adversary,
            HpFraction(f),
            HpFraction::FULL,
            self.job.runs(),
        )])
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
}

impl MetricPlanner for Frontier {
    fn kind(&self) -> &'static str {
        "frontier"
    }

    fn step(&mut self) -> Step {
        if self.asked.is_some() {
            return Step::Wait;
        }
        let last = self.probes.last().copied();
        let (min, max, prec) = (self.job.min_fraction.0, self.job.max_fraction.0, self.job.precision_ppm());
        loop {
            match self.phase {
                Phase::Min => match last {
                    None => return self.probe(min),
                    Some(_) => {
                        self.phase = Phase::Max;
                        return self.probe(max);
                    }
                },
                Phase::Max => {
                    let min_crossed = self.probes.first().is_some_and(|p| p.2);
                    let max_crossed = last.is_some_and(|p| p.2);
                    self.phase = match (min_crossed, max_crossed) {
                        (true, true) => Phase::Done(Some((self.ceil(min), Crossing::Everywhere))),
                        (false, false) => Phase::Done(None),
                        _ => Phase::Bisect { lo: min, hi: max, min_crossed },
                    };
                }
                Phase::Bisect { mut lo, mut hi, min_crossed } => {
                    if let Some((f, _, crossed)) = last
                        && f > lo
                        && f < hi
                    {
                        // Keep the crossing end on the side it started.
                        if crossed != min_crossed {
                            hi = f;
                        } else {
                            lo = f;
                        }
                        self.phase = Phase::Bisect { lo, hi, min_crossed };
                    }
                    if hi - lo <= prec {
                        // Round toward the crossing end, so the answer stays on the crossing side.
                        let answer = if min_crossed {
                            (self.floor(lo), Crossing::AtOrBelow)
                        } else {
                            (self.ceil(hi), Crossing::AtOrAbove)
                        };
                        self.phase = Phase::Done(Some(answer));
                        continue;
                    }
                    return self.probe(lo + (hi - lo) / 2);
                }
                Phase::Done(_) => return Step::Done,
            }
        }
    }

    fn consume_metrics(&mut self, _index: usize, m: &CellMetrics) {
        if let Some(f) = self.asked.take() {
            let v = self.job.criterion.value(&m.party);
            self.probes.push((f, v, self.job.criterion.crossed(v, self.job.target)));
        }
    }

    fn state(&self) -> PlannerState {
        PlannerState {
            phase: format!("{:?}", self.phase),
            cells: (self.probes.len() + usize::from(self.asked.is_some())) as u64,
            measured: self.probes.len() as u64,
        }
    }

    fn result(&self) -> JobResult {
        let (fraction, crossed) = match self.phase {
            Phase::Done(Some((f, side))) => (Some(f64::from(f) / 1e6), Some(side)),
            _ => (None, None),
        };
        JobResult::Frontier(FrontierResult {
            criterion: self.job.criterion,
            target: self.job.target,
            party_strategy: self.job.party.as_str().to_string(),
            adversary_strategy: self.job.adversary.as_str().to_string(),
            min_fraction: self.job.min_fraction.as_f64(),
            max_fraction: self.job.max_fraction.as_f64(),
            precision: self.job.precision,
            fraction,
            crossed,
            probes: self
                .probes
                .iter()
                .map(|&(f, value, crossed)| FrontierProbe { party_hp: f64::from(f) / 1e6, value, crossed })
                .collect(),
        })
    }

    fn progress(&self) -> Option<JobProgress> {
        let &(f, value, _) = self.probes.last()?;
        Some(JobProgress::Frontier { criterion: self.job.criterion, value, party_hp: f64::from(f) / 1e6 })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cell::CellSpec;
    use crate::jobs::metrics::testing::{ctx, drive, metrics};

    fn result(p: &Frontier) -> FrontierResult {
        match p.result() {
            JobResult::Frontier(r) => r,
            other => panic!("not a frontier: {other:?}"),
        }
    }

    fn job(criterion: Criterion, target: f64) -> FrontierJob {
        FrontierJob {
            runs: Some(50),
            max_total_runs: None,
            party: StrategySpec::default_spec(),
            adversary: StrategySpec::default_spec(),
            criterion,
            target,
            min_fraction: HpFraction(100_000),
            max_fraction: HpFraction::FULL,
            precision: 0.05,
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
        assert!(cells.iter().all(|c| c.hp["b"] == HpFraction::FULL && c.seed == 11));
    }

    #[test]
    fn crossing_at_both_ends_is_everywhere() {
        // Expected HP lost = 100 (1 − f) ≥ 0 holds at every fraction.
        let mut p = Frontier::new(ctx(), job(Criterion::ExpectedHpLost, 0.0));
        let cells = drive(&mut p, &curve);
        assert_eq!(cells.len(), 2);
        assert_eq!(result(&p).crossed, Some(Crossing::Everywhere));
    }

    #[test]
    fn no_frontier_when_even_the_maximum_does_not_cross() {
        let mut p = Frontier::new(ctx(), job(Criterion::ExpectedHpLost, 1000.0));
        let cells = drive(&mut p, &curve);
        assert_eq!(cells.len(), 2);
        assert_eq!(result(&p).fraction, None);
    }

    #[test]
    fn budget_reserves_the_worst_case() {
        let j = FrontierJob { max_total_runs: Some(100), ..job(Criterion::PTpk, 0.5) };
        let e = j.check().unwrap_err();
        assert!(matches!(e, JobError::OverBudget { job: "frontier", max: 100, .. }), "{e}");
        assert!(FrontierJob { max_total_runs: Some(j.worst_case_runs()), ..j }.check().is_ok());
        assert!(job(Criterion::PTpk, 1.5).check().is_err());
    }
}
