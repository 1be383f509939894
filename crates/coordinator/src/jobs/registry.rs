//! The job registry: every kind of job a sweep file may list, what each
//! reserves of the budget, and the planner that runs it.

use crate::jobs::JobError;
use crate::jobs::contribution::{Contribution, ContributionJob};
use crate::jobs::danger_map::{DangerMap, DangerMapJob};
use crate::jobs::day::{DayJob, DayPlanner};
use crate::jobs::design::{Design, DesignJob};
use crate::jobs::frontier::{Frontier, FrontierJob};
use crate::jobs::grid::{GridJob, GridPlanner};
use crate::jobs::metrics::MetricAdapter;
use crate::jobs::minmax::{Minmax, MinmaxJob};
use crate::jobs::optimize::{Optimize, OptimizeJob};
use crate::jobs::sensitivity::{Sensitivity, SensitivityJob};
use crate::plan::{JobContext, Planner};

/// Every job kind, as written in the sweep file.
pub const KINDS: [&str; 8] =
    ["grid", "optimize", "minmax", "danger_map", "frontier", "sensitivity", "contribution", "design"];

/// A job of a sweep.
#[derive(Debug, Clone, PartialEq)]
pub enum Job {
    /// Cartesian grid.
    Grid(GridJob),
    /// The party's best strategy.
    Optimize(OptimizeJob),
    /// Alternating best responses.
    Minmax(MinmaxJob),
    /// Danger over party × adversary HP.
    DangerMap(DangerMapJob),
    /// The party HP where danger crosses a target.
    Frontier(FrontierJob),
    /// Which adversary lever matters.
    Sensitivity(SensitivityJob),
    /// Who carries the fight.
    Contribution(ContributionJob),
    /// Encounters built to a target.
    Design(DesignJob),
    /// An adventuring day (a day file, not a job a sweep file lists).
    Day(Box<DayJob>),
}

impl Job {
    /// The job kind as written in the sweep file.
    pub fn kind(&self) -> &'static str {
        match self {
            Job::Grid(_) => "grid",
            Job::Optimize(_) => "optimize",
            Job::Minmax(_) => "minmax",
            Job::DangerMap(_) => "danger_map",
            Job::Frontier(_) => "frontier",
            Job::Sensitivity(_) => "sensitivity",
            Job::Contribution(_) => "contribution",
            Job::Design(_) => "design",
            Job::Day(_) => "day",
        }
    }

    /// The most runs the job can plan (its budget reserved up front).
    pub fn worst_case_runs(&self) -> u64 {
        match self {
            Job::Grid(g) => g.worst_case_runs(),
            Job::Optimize(j) => j.worst_case_runs(),
            Job::Minmax(j) => j.worst_case_runs(),
            Job::DangerMap(j) => j.worst_case_runs(),
            Job::Frontier(j) => j.worst_case_runs(),
            Job::Sensitivity(j) => j.worst_case_runs(),
            Job::Contribution(j) => j.worst_case_runs(),
            Job::Design(j) => j.worst_case_runs(),
            Job::Day(j) => j.worst_case_runs(),
        }
    }

    /// Checks the job's parameters and its own budget before anything runs.
    pub fn check(&self) -> Result<(), JobError> {
        match self {
            Job::Grid(_) => Ok(()),
            Job::Optimize(j) => j.check(),
            Job::Minmax(j) => j.check(),
            Job::DangerMap(j) => j.check(),
            Job::Frontier(j) => j.check(),
            Job::Sensitivity(j) => j.check(),
            Job::Contribution(j) => j.check(),
            Job::Design(j) => j.check(),
            Job::Day(_) => Ok(()),
        }
    }

    /// Runs of the job's first measurement of a cell (the sweep's unless
    /// the job writes its own).
    pub fn runs(&self) -> u64 {
        match self {
            Job::Grid(g) => g.runs,
            Job::Optimize(j) => j.runs,
            Job::Minmax(j) => j.runs,
            Job::DangerMap(j) => j.runs,
            Job::Frontier(j) => j.runs,
            Job::Sensitivity(j) => j.runs,
            Job::Contribution(j) => j.runs,
            Job::Design(j) => j.runs,
            Job::Day(j) => j.runs,
        }
    }

    /// The planner of the job: a deterministic state machine over cells.
    pub fn planner(&self, ctx: &JobContext) -> Box<dyn Planner> {
        let (ctx, party) = (ctx.clone(), ctx.party.as_str());
        match self {
            Job::Grid(g) => Box::new(GridPlanner::new(&ctx, g)),
            Job::Optimize(j) => {
                Box::new(MetricAdapter::new(party, ctx.confidence, Optimize::new(ctx.clone(), j.clone())))
            }
            Job::Minmax(j) => {
                Box::new(MetricAdapter::new(party, ctx.confidence, Minmax::new(ctx.clone(), j.clone())))
            }
            Job::DangerMap(j) => {
                Box::new(MetricAdapter::new(party, ctx.confidence, DangerMap::new(ctx.clone(), j.clone())))
            }
            Job::Frontier(j) => {
                Box::new(MetricAdapter::new(party, ctx.confidence, Frontier::new(ctx.clone(), j.clone())))
            }
            Job::Sensitivity(j) => {
                Box::new(MetricAdapter::new(party, ctx.confidence, Sensitivity::new(ctx.clone(), j.clone())))
            }
            Job::Contribution(j) => Box::new(Contribution::new(ctx.clone(), j.clone())),
            Job::Design(j) => Box::new(Design::new(ctx.clone(), j.clone())),
            Job::Day(j) => Box::new(DayPlanner::new(&ctx, (**j).clone())),
        }
    }
}

/// Runs the jobs will plan at most (checked against the sweep's budget):
/// adaptive jobs count their worst case.
pub fn planned_runs(jobs: &[Job]) -> u64 {
    jobs.iter().map(Job::worst_case_runs).fold(0u64, u64::saturating_add)
}
