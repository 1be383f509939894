//! `grid`: the cartesian product of strategies and per-side HP fractions,
//! one cell each; its cells are its result.

use std::collections::BTreeMap;

use pf1e_wire::results::JobResult;

use crate::cell::{CellSpec, HpFraction, StrategySpec};
use crate::merge::CellResult;
use crate::plan::{JobContext, Planner, PlannerState, Step};

/// A `grid` job: the cartesian product of strategies and per-side HP fractions.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GridJob {
    /// Party strategies.
    pub party: Vec<StrategySpec>,
    /// Adversary strategies.
    pub adversary: Vec<StrategySpec>,
    /// HP fractions per side (every side present; `[1.0]` unless given).
    pub hp: BTreeMap<String, Vec<HpFraction>>,
    /// Runs per cell.
    pub runs: u64,
}

impl GridJob {
    /// The runs the grid plans (exactly).
    pub fn worst_case_runs(&self) -> u64 {
        let variants: u64 = self.hp.values().map(|v| v.len() as u64).product();
        (self.party.len() as u64)
            .saturating_mul(self.adversary.len() as u64)
            .saturating_mul(variants)
            .saturating_mul(self.runs)
    }
}

/// The cartesian product of strategies and per-side HP fractions.
pub struct GridPlanner {
    cells: Vec<CellSpec>,
    emitted: bool,
    consumed: Vec<bool>,
}

impl GridPlanner {
    /// The grid of `job`: party strategy, adversary strategy, then the HP
    /// fractions of each side (sides sorted by name), last varying fastest.
    pub fn new(ctx: &JobContext, job: &GridJob) -> Self {
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
                        party: ctx.party.clone(),
                        party_strategy: p.clone(),
                        adversary_strategy: a.clone(),
                        seed: ctx.seed,
                        runs: job.runs,
                        extra: BTreeMap::new(),
                        day: None,
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

    /// A grid reports each cell alone: its shards report totals.
    fn needs_runs(&self) -> bool {
        false
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

    fn state(&self) -> PlannerState {
        PlannerState::one_batch(self.emitted, self.cells.len(), self.consumed.iter().filter(|c| **c).count())
    }

    fn result(&self) -> JobResult {
        JobResult::Grid(())
    }
}
