//! `day`: an adventuring day (`docs/days.md`) played many times, as cells.
//!
//! A day file submitted as a sweep (`pf1e run day.yaml`, `pf1e ctl submit
//! day.yaml`, `pf1e day --coordinator`) is one `day` job of one cell: a
//! [`DayPlay`] holding the fights by scenario hash and the steps of the day
//! as written and of each plan, with the sweep's seed and runs. It is
//! sharded by run like battles, cached under the day's content (its fights'
//! scenarios, every play's steps, the rules version) and resumed like any
//! cell. A shard plays each of its days once per play, the steps the plays
//! share at their start once (`day::play_many`), on the same dice, so the
//! plans are compared with the day as written run by run (`day::plan`).
//!
//! One cell rather than one per play: the shared first fights are what a
//! day costs, and only a shard that plays every play of a run can play
//! them once. The price: editing one plan recomputes the whole day.

use std::sync::Arc;

use pf1e_engine::day::plan::{Plan, compare, planned_steps};
use pf1e_engine::day::summary::DaySummary;
use pf1e_engine::day::tally::DayTally;
use pf1e_engine::day::{DayShape, Step};
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
    /// The days its cell plays: as written, then each plan.
    pub fn plays(&self) -> DayPlay {
        let hashes: Vec<_> = self.fights.iter().map(|s| s.hash).collect();
        let plays = std::iter::once(self.steps.clone())
            .chain(self.plans.iter().map(|p| planned_steps(&self.steps, p)))
            .collect();
        DayPlay::with_plans(hashes, plays)
    }

    /// Days it plays (exactly).
    pub fn worst_case_runs(&self) -> u64 {
        (1 + self.plans.len() as u64).saturating_mul(self.runs)
    }
}

/// The planner: its one cell; the figures once it is in.
pub struct DayPlanner {
    job: DayJob,
    cells: Vec<CellSpec>,
    emitted: bool,
    /// Its days, every play tallied, once the cell is in.
    tally: Option<DayTally>,
    confidence: Confidence,
    seed: u64,
}

impl DayPlanner {
    /// The cells of `job` in the sweep of `ctx`.
    pub fn new(ctx: &JobContext, job: DayJob) -> Self {
        let mut cell = ctx.cell(
            &StrategySpec::default_spec(),
            &StrategySpec::default_spec(),
            HpFraction::FULL,
            HpFraction::FULL,
            job.runs,
        );
        cell.day = Some(job.plays());
        DayPlanner {
            job,
            cells: vec![cell],
            emitted: false,
            tally: None,
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
        if self.tally.is_some() { PlanStep::Done } else { PlanStep::Wait }
    }

    fn consume(&mut self, index: usize, result: &CellResult) {
        if index == 0 {
            self.tally = Some(result.day_tally().cloned().unwrap_or_default());
        }
    }

    fn state(&self) -> PlannerState {
        PlannerState::one_batch(self.emitted, self.cells.len(), usize::from(self.tally.is_some()))
    }

    fn result(&self) -> JobResult {
        // Every play, tallied or not (no day in yet: each has none).
        let mut plays = self.tally.as_ref().map_or_else(Vec::new, |t| t.plays.clone());
        plays.resize_with(1 + self.job.plans.len(), Default::default);
        let summaries: Vec<DaySummary> =
            plays.iter().map(|t| DaySummary::of_tally(&self.job.shape, t, self.confidence)).collect();
        let summary = summaries[0].clone();
        let plans = if self.job.plans.is_empty() {
            Vec::new()
        } else {
            let names: Vec<String> = std::iter::once(AS_WRITTEN.to_string())
                .chain(self.job.plans.iter().map(|p| p.name.clone()))
                .collect();
            compare(&names, &summaries, &plays, self.confidence)
        };
        JobResult::Day(DayResult { seed: self.seed, summary, plans })
    }
}
