//! `day`: an adventuring day (`docs/days.md`) played many times, as cells.
//!
//! A day file submitted as a sweep (`pf1e run day.yaml`, `pf1e ctl submit
//! day.yaml`, `pf1e day --coordinator`) is one `day` job. Its cells are the
//! day as written and each of its plans, every one a [`DayPlay`] (the
//! fights by scenario hash and the steps, the plan applied) with the
//! sweep's seed and runs: sharded by run like battles, cached under the
//! day's content (its fights' scenarios and steps, with the rules version),
//! resumed like any cell. All cells share the seed, so the plans are
//! compared with the day as written on the same dice (`day::plan`).

use std::sync::Arc;

use pf1e_engine::day::plan::{Plan, compare, planned_steps};
use pf1e_engine::day::summary::DaySummary;
use pf1e_engine::day::{DayRecord, DayShape, Step};
use pf1e_engine::metrics::Confidence;
use pf1e_render::day::AS_WRITTEN;
use pf1e_wire::day::DayPlay;
use pf1e_wire::results::{DayResult, JobResult};
use pf1e_wire::scenario::Scenario;

use crate::cell::{CellSpec, HpFraction, StrategySpec};
use crate::merge::CellResult;
use crate::plan::{JobContext, Planner, PlannerState, Step as PlanStep};

/// A day job: the day read from its file, its fights resolved by content.
#[derive(Debug, Clone)]
pub struct DayJob {
    /// The day's name and its fights' and members' names.
    pub shape: DayShape,
    /// The fights' scenarios, in the order the steps index them.
    pub fights: Vec<Arc<Scenario>>,
    /// The steps as written.
    pub steps: Vec<Step>,
    /// The plans compared with the day as written.
    pub plans: Vec<Plan>,
    /// Days per cell.
    pub runs: u64,
}

impl PartialEq for DayJob {
    fn eq(&self, other: &Self) -> bool {
        self.shape == other.shape
            && self.plays() == other.plays()
            && self.plans.iter().map(|p| &p.name).eq(other.plans.iter().map(|p| &p.name))
            && self.runs == other.runs
    }
}

impl DayJob {
    /// The days its cells play: as written, then each plan.
    pub fn plays(&self) -> Vec<DayPlay> {
        let hashes: Vec<_> = self.fights.iter().map(|s| s.hash).collect();
        std::iter::once(self.steps.clone())
            .chain(self.plans.iter().map(|p| planned_steps(&self.steps, p)))
            .map(|steps| DayPlay::new(hashes.clone(), steps))
            .collect()
    }

    /// Days it plays (exactly).
    pub fn worst_case_runs(&self) -> u64 {
        (1 + self.plans.len() as u64).saturating_mul(self.runs)
    }
}

/// The planner: every cell in one batch; the figures once all are in.
pub struct DayPlanner {
    job: DayJob,
    cells: Vec<CellSpec>,
    emitted: bool,
    records: Vec<Option<Vec<DayRecord>>>,
    confidence: Confidence,
    seed: u64,
}

impl DayPlanner {
    /// The cells of `job` in the sweep of `ctx`.
    pub fn new(ctx: &JobContext, job: DayJob) -> Self {
        let cells: Vec<CellSpec> = job
            .plays()
            .into_iter()
            .map(|play| {
                let mut cell = ctx.cell(
                    &StrategySpec::default_spec(),
                    &StrategySpec::default_spec(),
                    HpFraction::FULL,
                    HpFraction::FULL,
                    job.runs,
                );
                cell.day = Some(play);
                cell
            })
            .collect();
        let n = cells.len();
        DayPlanner {
            job,
            cells,
            emitted: false,
            records: vec![None; n],
            confidence: ctx.confidence,
            seed: ctx.seed,
        }
    }
}

impl Planner for DayPlanner {
    fn kind(&self) -> &'static str {
        "day"
    }

    fn step(&mut self) -> PlanStep {
        if !self.emitted {
            self.emitted = true;
            return PlanStep::Emit(self.cells.clone());
        }
        if self.records.iter().all(Option::is_some) { PlanStep::Done } else { PlanStep::Wait }
    }

    fn consume(&mut self, index: usize, result: &CellResult) {
        if let Some(slot) = self.records.get_mut(index) {
            *slot = Some(result.days.clone());
        }
    }

    fn state(&self) -> PlannerState {
        PlannerState::one_batch(
            self.emitted,
            self.cells.len(),
            self.records.iter().filter(|r| r.is_some()).count(),
        )
    }

    fn result(&self) -> JobResult {
        let empty = Vec::new();
        let days: Vec<&Vec<DayRecord>> = self.records.iter().map(|r| r.as_ref().unwrap_or(&empty)).collect();
        let summary = DaySummary::of(&self.job.shape, days[0], self.confidence);
        let plans = if self.job.plans.is_empty() {
            Vec::new()
        } else {
            let names: Vec<String> = std::iter::once(AS_WRITTEN.to_string())
                .chain(self.job.plans.iter().map(|p| p.name.clone()))
                .collect();
            let summaries: Vec<DaySummary> =
                days.iter().map(|d| DaySummary::of(&self.job.shape, d, self.confidence)).collect();
            let all: Vec<Vec<DayRecord>> = days.iter().map(|d| (*d).clone()).collect();
            compare(&names, &summaries, &all, self.confidence)
        };
        JobResult::Day(DayResult { seed: self.seed, summary, plans })
    }
}
