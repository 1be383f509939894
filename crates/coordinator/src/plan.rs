//! Planners: jobs as state machines that emit batches of cells, consume
//! their results and decide the next batch.
//!
//! A planner is deterministic: fed the same results it emits the same cells.
//! Resuming a sweep replays its planners against the cache, so every cell
//! measured before a restart is served from the cache, and the journaled
//! planner state records how far each job had gone.

use std::collections::BTreeMap;

use pf1e_wire::results::{JobProgress, JobResult};
use serde::{Deserialize, Serialize};

use crate::cell::{CellSpec, HpFraction, StrategySpec};
use crate::merge::CellResult;

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

/// How far a planner has gone, journaled with its sweep. Informative only:
/// a resumed sweep replays its planners against the cache rather than
/// reading this back, so a planner's logic is its only state.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct PlannerState {
    /// Where the planner is (`grid`, `Race(2)`, `layer 1 of 4`…).
    pub phase: String,
    /// Cells emitted so far.
    pub cells: u64,
    /// Cells whose result the planner has consumed.
    pub measured: u64,
}

impl PlannerState {
    /// The state of a job that emits all its `cells` in one batch:
    /// `planning` before, `emitted` after, with `measured` results read.
    pub fn one_batch(emitted: bool, cells: usize, measured: usize) -> Self {
        PlannerState {
            phase: if emitted { "emitted" } else { "planning" }.into(),
            cells: if emitted { cells as u64 } else { 0 },
            measured: measured as u64,
        }
    }
}

/// A job as a state machine.
pub trait Planner: Send {
    /// The job kind (`grid`…).
    fn kind(&self) -> &'static str;
    /// The next step; called again after every consumed result.
    fn step(&mut self) -> Step;
    /// The result of emitted cell `index`.
    fn consume(&mut self, index: usize, result: &CellResult);
    /// How far the job has gone, for the journal.
    fn state(&self) -> PlannerState;
    /// The job's own result (rankings, maps…), complete once done.
    fn result(&self) -> JobResult;
    /// Partial results for progress displays.
    fn progress(&self) -> Option<JobProgress> {
        None
    }
    /// Whether it reads its cells run by run (paired comparisons, tails):
    /// else its battle cells' shards report totals (`ShardSpec::totals`),
    /// whose size does not depend on their number of runs.
    fn needs_runs(&self) -> bool {
        true
    }
}

/// What every job needs from the sweep.
#[derive(Debug, Clone)]
pub struct JobContext {
    /// The measured side.
    pub party: String,
    /// Every side, sorted by name.
    pub sides: Vec<String>,
    /// The seed shared by every cell (common random numbers).
    pub seed: u64,
    /// Which levers can change anything for the party (the optimize job
    /// varies only those).
    pub levers: pf1e_engine::strategy::Relevance,
    /// Which levers can change anything for the other sides (the
    /// sensitivity job varies only those).
    pub adversary_levers: pf1e_engine::strategy::Relevance,
    /// The confidence level of every interval and comparison of the jobs.
    pub confidence: pf1e_engine::metrics::Confidence,
    /// The base encounter's combatants as (side, id), in encounter order
    /// (empty when the scenario does not build): whom the contribution job
    /// leaves out in turn.
    pub combatants: Vec<(String, String)>,
}

impl JobContext {
    /// A cell: the party at `party_hp`, every other side at `adversary_hp`.
    pub fn cell(
        &self,
        party: &StrategySpec,
        adversary: &StrategySpec,
        party_hp: HpFraction,
        adversary_hp: HpFraction,
        runs: u64,
    ) -> CellSpec {
        let hp: BTreeMap<String, HpFraction> = self
            .sides
            .iter()
            .map(|s| (s.clone(), if *s == self.party { party_hp } else { adversary_hp }))
            .collect();
        CellSpec {
            hp,
            party: self.party.clone(),
            party_strategy: party.clone(),
            adversary_strategy: adversary.clone(),
            seed: self.seed,
            runs,
            extra: BTreeMap::new(),
            day: None,
        }
    }
}
