//! `sensitivity`: which single adversary lever moves the party's danger
//! most. Each single-lever variant of the default adversary is measured
//! against the party strategy; its delta of the party criterion versus the
//! default adversary comes with a paired interval (the same dice against
//! both adversaries) at the Bonferroni-adjusted level over the variants, so
//! the chance that any lever is called significant by chance is at most
//! 1 − the sweep's confidence. A lever matters when its delta is
//! significant. Ranking: significant levers first, then by |delta| (ties by
//! name).

use pf1e_engine::metrics::Sign;
use pf1e_engine::objectives::Criterion;
use pf1e_wire::results::{JobProgress, JobResult, SensitivityLever, SensitivityResult};
use serde::Deserialize;

use pf1e_llm::Side;

use crate::cell::{Decide, HpFraction, NotCompiled, StrategySpec, WrittenStrategy};
use crate::jobs::JobError;
use crate::jobs::metrics::{CellMetrics, MetricPlanner, cmp_f64, difference};
use crate::plan::{JobContext, PlannerState, Step};

/// The `sensitivity` job as written in the sweep file.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SensitivityFile {
    /// Runs per cell (default: the sweep's).
    #[serde(default)]
    pub runs: Option<u64>,
    /// Most runs the job may spend.
    #[serde(default)]
    pub max_total_runs: Option<u64>,
    /// The party's strategy.
    #[serde(default = "WrittenStrategy::default_spec")]
    pub party: WrittenStrategy,
    /// The party criterion.
    #[serde(default = "default_criterion")]
    pub criterion: Criterion,
}

impl SensitivityFile {
    /// The job of this file: `runs` the sweep's unless it writes its own,
    /// every strategy decided.
    pub fn decide(self, runs: u64, spec: &mut Decide) -> Result<SensitivityJob, NotCompiled> {
        Ok(SensitivityJob {
            runs: self.runs.unwrap_or(runs),
            max_total_runs: self.max_total_runs,
            party: spec(Side::Party, &self.party)?,
            criterion: self.criterion,
        })
    }
}

/// The `sensitivity` job, decided: its runs and strategy known.
#[derive(Debug, Clone, PartialEq)]
pub struct SensitivityJob {
    /// Runs per cell.
    pub runs: u64,
    /// Most runs the job may spend.
    pub max_total_runs: Option<u64>,
    /// The party's strategy.
    pub party: StrategySpec,
    /// The party criterion.
    pub criterion: Criterion,
}

fn default_criterion() -> Criterion {
    Criterion::ExpectedHpLost
}

/// The adversaries measured: the default first, then each single-lever
/// variant that can change anything in `ctx`'s scenario (no spell lever for
/// adversaries that cast nothing, no `focus_casters` against a party without
/// casters).
pub fn adversaries(ctx: &JobContext) -> Vec<StrategySpec> {
    let mut out = vec![StrategySpec::default_spec()];
    out.extend(
        pf1e_engine::strategy::StrategySpec::single_lever_variants_for(
            ctx.adversary_levers,
            ctx.levers.spells,
        )
        .into_iter()
        .map(StrategySpec::from_engine),
    );
    out
}

/// The most adversaries any scenario gives (what the budget reserves).
fn most_adversaries() -> usize {
    1 + pf1e_engine::strategy::StrategySpec::single_lever_variants().len()
}

impl SensitivityJob {
    /// The runs the job plans (exactly).
    pub fn worst_case_runs(&self) -> u64 {
        (most_adversaries() as u64).saturating_mul(self.runs)
    }

    /// Checks the budget before anything runs.
    pub fn check(&self) -> Result<(), JobError> {
        if let Some(max) = self.max_total_runs
            && self.worst_case_runs() > max
        {
            return Err(JobError::OverBudget {
                job: "sensitivity",
                plan: format!("up to {} adversaries", most_adversaries()),
                runs: self.worst_case_runs(),
                max,
            });
        }
        Ok(())
    }
}

/// The sensitivity planner.
pub struct Sensitivity {
    ctx: JobContext,
    job: SensitivityJob,
    specs: Vec<StrategySpec>,
    results: Vec<Option<CellMetrics>>,
    emitted: bool,
}

impl Sensitivity {
    /// The planner of `job`.
    pub fn new(ctx: JobContext, job: SensitivityJob) -> Self {
        let specs = adversaries(&ctx);
        let n = specs.len();
        Self { ctx, job, specs, results: vec![None; n], emitted: false }
    }

    /// The quantile of each lever's interval: Bonferroni over the variants.
    fn z(&self) -> f64 {
        self.ctx.confidence.bonferroni_z(self.specs.len().saturating_sub(1) as u64)
    }

    /// The measured variants: (index, value, delta, its interval, significant),
    /// significant first, then by |delta|.
    fn ranked(&self) -> Vec<(usize, f64, f64, [f64; 2], bool)> {
        let Some(base) = self.results[0].as_ref() else {
            return Vec::new();
        };
        let (c, z) = (self.job.criterion, self.z());
        let base_value = c.value(&base.party);
        let mut out: Vec<(usize, f64, f64, [f64; 2], bool)> = (1..self.specs.len())
            .filter_map(|i| {
                self.results[i].as_ref().map(|m| {
                    let v = c.value(&m.party);
                    let d = difference(m, base, c);
                    let (lo, hi) = d.interval(z);
                    (i, v, v - base_value, [lo, hi], d.sign(z) != Sign::Tied)
                })
            })
            .collect();
        out.sort_by(|a, b| {
            b.4.cmp(&a.4)
                .then(cmp_f64(b.2.abs(), a.2.abs()))
                .then(self.specs[a.0].as_str().cmp(self.specs[b.0].as_str()))
        });
        out
    }
}

impl MetricPlanner for Sensitivity {
    fn kind(&self) -> &'static str {
        "sensitivity"
    }

    fn step(&mut self) -> Step {
        if !self.emitted {
            self.emitted = true;
            let runs = self.job.runs;
            return Step::Emit(
                self.specs
                    .iter()
                    .map(|a| self.ctx.cell(&self.job.party, a, HpFraction::FULL, HpFraction::FULL, runs))
                    .collect(),
            );
        }
        if self.results.iter().all(Option::is_some) { Step::Done } else { Step::Wait }
    }

    fn consume_metrics(&mut self, index: usize, m: &CellMetrics) {
        if let Some(slot) = self.results.get_mut(index) {
            *slot = Some(m.clone());
        }
    }

    fn state(&self) -> PlannerState {
        PlannerState::one_batch(self.emitted, self.specs.len(), self.results.iter().flatten().count())
    }

    fn result(&self) -> JobResult {
        JobResult::Sensitivity(SensitivityResult {
            criterion: self.job.criterion,
            party_strategy: self.job.party.as_str().to_string(),
            baseline: self.results[0].as_ref().map(|m| self.job.criterion.value(&m.party)),
            levers: self
                .ranked()
                .into_iter()
                .enumerate()
                .filter_map(|(rank, (i, value, delta, delta_interval, significant))| {
                    Some(SensitivityLever {
                        rank: rank as u64 + 1,
                        adversary_strategy: self.specs[i].as_str().to_string(),
                        value,
                        delta,
                        party: self.results[i].as_ref()?.party.clone(),
                        delta_interval,
                        significant,
                    })
                })
                .collect(),
            confidence: self.ctx.confidence.level(),
            comparison_z: self.z(),
        })
    }

    fn progress(&self) -> Option<JobProgress> {
        let (i, _, delta, ..) = *self.ranked().first()?;
        Some(JobProgress::Sensitivity {
            adversary_strategy: self.specs[i].as_str().to_string(),
            criterion: self.job.criterion,
            delta,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::jobs::metrics::testing::{self, ctx, drive, metrics};

    #[test]
    fn a_lever_matters_only_when_its_paired_delta_is_significant() {
        // retreat=0.5 changes the deaths by 0.6 points (noise level at 400
        // runs), healer by 15 points: only healer matters, and it ranks
        // first although an insignificant lever could show a larger delta.
        let job = SensitivityJob {
            runs: 400,
            max_total_runs: None,
            party: StrategySpec::default_spec(),
            criterion: Criterion::PAnyDeath,
        };
        let salt = |c: &crate::cell::CellSpec| c.adversary_strategy.as_str().len() as u64 * 7919;
        let mut s = Sensitivity::new(ctx(), job);
        drive(&mut s, &|c| {
            let d = match c.adversary_strategy.as_str() {
                "healer" => 0.35,
                "retreat=0.5" => 0.206,
                _ => 0.2,
            };
            testing::synthetic(c.seed, salt(c), c.runs, d, d / 4.0, 5.0)
        });
        let JobResult::Sensitivity(r) = s.result() else { panic!("a sensitivity result") };
        assert_eq!(r.levers[0].adversary_strategy, "healer");
        assert!(r.levers[0].significant && r.levers[0].delta_interval[0] > 0.0, "{:?}", r.levers[0]);
        assert_eq!(r.levers.iter().filter(|l| l.significant).count(), 1, "{:?}", r.levers);
        let retreat = r.levers.iter().find(|l| l.adversary_strategy == "retreat=0.5").unwrap();
        assert!(retreat.delta_interval[0] <= 0.0 && retreat.delta_interval[1] >= 0.0);
        assert!(r.comparison_z > 3.0 && r.confidence > 0.99);
    }

    #[test]
    fn levers_rank_by_absolute_delta() {
        let job = SensitivityJob {
            runs: 20,
            max_total_runs: None,
            party: StrategySpec::default_spec(),
            criterion: Criterion::ExpectedHpLost,
        };
        let mut s = Sensitivity::new(ctx(), job.clone());
        let cells = drive(&mut s, &|c| {
            let lost = match c.adversary_strategy.as_str() {
                "healer" => 4.0,
                "retreat=0.5" => 17.0,
                "lowest_hp" => 14.0,
                _ => 10.0,
            };
            metrics(0.5, lost, c.runs)
        });
        // Every lever matters in the test context: the default and 14 variants.
        assert_eq!(cells.len(), 15);
        assert!(cells.iter().all(|c| c.party_strategy.as_str() == "default" && c.seed == 11));
        let JobResult::Sensitivity(r) = s.result() else { panic!("a sensitivity result") };
        assert_eq!(r.baseline, Some(10.0));
        let levers = &r.levers;
        assert_eq!(levers[0].adversary_strategy, "retreat=0.5");
        assert_eq!(levers[1].adversary_strategy, "healer");
        assert_eq!(levers[1].delta, -6.0);
        assert_eq!(levers[2].adversary_strategy, "lowest_hp");
        assert_eq!(levers.len(), 14);
        assert!(
            SensitivityJob { max_total_runs: Some(279), ..job.clone() }
                .check()
                .unwrap_err()
                .to_string()
                .contains("max_total_runs of 279")
        );
        // Adversaries that cast nothing and have no class ability, against a
        // party without casters: the six variants that can matter.
        let none =
            pf1e_engine::strategy::Relevance { spells: false, class_abilities: false, consumables: false };
        let ctx = JobContext { levers: none, adversary_levers: none, ..ctx() };
        let names: Vec<String> = adversaries(&ctx).iter().map(|s| s.as_str().to_string()).collect();
        assert_eq!(
            names,
            [
                "default",
                "weakest_ac",
                "lowest_hp",
                "healer",
                "retreat=0.25",
                "retreat=0.5",
                "use_charges=false"
            ]
        );
    }
}
