//! Planners: jobs as state machines that emit batches of cells, consume
//! their results and decide the next batch.
//!
//! A planner is deterministic: fed the same results it emits the same cells.
//! Resuming a sweep replays its planners against the cache, so every cell
//! measured before a restart is served from the cache, and the journaled
//! planner state records how far each job had gone.

use std::collections::BTreeMap;

use pf1e_wire::results::{JobProgress, JobResult};

use crate::results::CellResult;
use crate::sweep::{HpFraction, Job, StrategySpec, Sweep};

/// One measurement: a scenario variant, two strategies, runs and a seed.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct CellSpec {
    /// HP fraction per side (every side, sorted by name).
    pub hp: BTreeMap<String, HpFraction>,
    /// The measured side.
    pub party: String,
    /// Strategy of the party side.
    pub party_strategy: StrategySpec,
    /// Strategy of every other side.
    pub adversary_strategy: StrategySpec,
    /// Seed: run `i` uses the stream (seed, i).
    pub seed: u64,
    /// Number of runs.
    pub runs: u64,
    /// Extra per-side changes (awareness, extra copies); empty for most cells.
    pub extra: BTreeMap<String, SideExtra>,
}

/// Per-side changes of a variant beyond hit points.
#[derive(Debug, Clone, Default, PartialEq, Eq, PartialOrd, Ord)]
pub struct SideExtra {
    /// Awareness of every member, when overridden.
    pub aware: Option<bool>,
    /// Base combatant ids to add one more copy of.
    pub copies: Vec<String>,
}

/// What a planner asks for next.
#[derive(Debug, Clone, PartialEq)]
pub enum Step {
    /// Measure these cells (indices continue from the previous batches).
    Emit(Vec<CellSpec>),
    /// Wait for results of emitted cells.
    Wait,
    /// The job is finished.
    Done,
}

/// A job as a state machine.
pub trait Planner: Send {
    /// The job kind (`grid`…).
    fn kind(&self) -> &'static str;
    /// The next step; called again after every consumed result.
    fn step(&mut self) -> Step;
    /// The result of emitted cell `index`.
    fn consume(&mut self, index: usize, result: &CellResult);
    /// Journaled state (JSON).
    fn state(&self) -> serde_json::Value;
    /// The job's own result (rankings, maps…), complete once done.
    fn result(&self) -> JobResult;
    /// Partial results for progress displays.
    fn progress(&self) -> Option<JobProgress> {
        None
    }
}

/// The cartesian product of strategies and per-side HP fractions.
pub struct GridPlanner {
    cells: Vec<CellSpec>,
    emitted: bool,
    consumed: Vec<bool>,
}

impl GridPlanner {
    /// The grid of `job` in `sweep`: party strategy, adversary strategy, then
    /// the HP fractions of each side (sides sorted by name), last varying fastest.
    pub fn new(sweep: &Sweep, job: &crate::sweep::GridJob) -> Self {
        let mut variants: Vec<BTreeMap<String, HpFraction>> = vec![BTreeMap::new()];
        for (side, fractions) in &job.hp {
            let mut next = Vec::new();
            for v in &variants {
                for f in fractions {
                    let mut v = v.clone();
                    v.insert(side.clone(), *f);
                    next.push(v);
                }
            }
            variants = next;
        }
        let mut cells = Vec::new();
        for p in &job.party {
            for a in &job.adversary {
                for v in &variants {
                    cells.push(CellSpec {
                        hp: v.clone(),
                        party: sweep.party.clone(),
                        party_strategy: p.clone(),
                        adversary_strategy: a.clone(),
                        seed: sweep.seed,
                        runs: job.runs,
                        extra: BTreeMap::new(),
                    });
                }
            }
        }
        let n = cells.len();
        Self { cells, emitted: false, consumed: vec![false; n] }
    }
}

impl Planner for GridPlanner {
    fn kind(&self) -> &'static str {
        "grid"
    }

    fn step(&mut self) -> Step {
        if !self.emitted {
            self.emitted = true;
            return Step::Emit(self.cells.clone());
        }
        if self.consumed.iter().all(|c| *c) { Step::Done } else { Step::Wait }
    }

    fn consume(&mut self, index: usize, _result: &CellResult) {
        if let Some(c) = self.consumed.get_mut(index) {
            *c = true;
        }
    }

    fn state(&self) -> serde_json::Value {
        serde_json::json!({
            "emitted": self.emitted,
            "cells": self.cells.len(),
            "consumed": self.consumed.iter().filter(|c| **c).count(),
        })
    }

    fn result(&self) -> JobResult {
        JobResult::Grid(())
    }
}

/// The planner of a job.
pub fn planner_for(sweep: &Sweep, job: &Job) -> Box<dyn Planner> {
    use crate::jobs::{self, MetricAdapter};
    let ctx = jobs::JobContext {
        party: sweep.party.clone(),
        sides: sweep.scenario.sides.iter().map(|s| s.name.clone()).collect(),
        seed: sweep.seed,
    };
    let party = sweep.party.as_str();
    match job {
        Job::Grid(g) => Box::new(GridPlanner::new(sweep, g)),
        Job::Optimize(j) => {
            Box::new(MetricAdapter::new(party, jobs::optimize::Optimize::new(ctx, j.clone())))
        }
        Job::Minmax(j) => Box::new(MetricAdapter::new(party, jobs::minmax::Minmax::new(ctx, j.clone()))),
        Job::DangerMap(j) => {
            Box::new(MetricAdapter::new(party, jobs::danger_map::DangerMap::new(ctx, j.clone())))
        }
        Job::Frontier(j) => {
            Box::new(MetricAdapter::new(party, jobs::frontier::Frontier::new(ctx, j.clone())))
        }
        Job::Sensitivity(j) => {
            Box::new(MetricAdapter::new(party, jobs::sensitivity::Sensitivity::new(ctx, j.clone())))
        }
    }
}

/// Runs the jobs of a sweep will plan at most (checked against the budget):
/// adaptive jobs count their worst case.
pub fn planned_runs(sweep: &Sweep) -> u64 {
    sweep.jobs.iter().map(Job::worst_case_runs).fold(0u64, u64::saturating_add)
}
