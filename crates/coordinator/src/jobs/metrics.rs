//! What the analysis jobs share: the danger metrics of a cell (both
//! sides), planners that read cells as metrics, and the 3σ comparisons of
//! their rankings.

use pf1e_engine::objectives::{DangerMetrics, Records};
use pf1e_wire::results::{JobProgress, JobResult};
use serde::Serialize;

use crate::merge::CellResult;
use crate::plan::{Planner, PlannerState, Step};

/// The danger of both sides in one cell.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct CellMetrics {
    /// The party side.
    pub party: DangerMetrics,
    /// Every other side together.
    pub adversary: DangerMetrics,
}

impl CellMetrics {
    /// The metrics of a merged cell, `party` being the measured side's name.
    pub fn from_result(r: &CellResult, party: &str) -> Self {
        let party_side = r.sides.iter().position(|s| s == party).unwrap_or(0);
        let side_of: Vec<usize> = r.combatants.iter().map(|c| c.side).collect();
        let start_hp: Vec<i32> = r.combatants.iter().map(|c| c.start_hp).collect();
        let rec = Records {
            side_of: &side_of,
            start_hp: &start_hp,
            winner: &r.winner,
            rounds: &r.rounds,
            final_hp: &r.final_hp,
            dead: &r.dead,
        };
        Self { party: rec.side_metrics(party_side), adversary: rec.group_metrics(&|s| s != party_side) }
    }
}

/// A job planner that reads cells as metrics (tests feed it metrics directly).
pub trait MetricPlanner: Send {
    /// The job kind.
    fn kind(&self) -> &'static str;
    /// The next step.
    fn step(&mut self) -> Step;
    /// The metrics of emitted cell `index`.
    fn consume_metrics(&mut self, index: usize, m: &CellMetrics);
    /// Journaled state.
    fn state(&self) -> PlannerState;
    /// The job's result so far (complete once `step` returned `Done`).
    fn result(&self) -> JobResult;
    /// Partial results for progress displays.
    fn progress(&self) -> Option<JobProgress>;
}

/// Runs a [`MetricPlanner`] as a scheduler [`Planner`].
pub struct MetricAdapter<P> {
    party: String,
    inner: P,
}

impl<P: MetricPlanner> MetricAdapter<P> {
    /// Wraps `inner`, measuring side `party`.
    pub fn new(party: &str, inner: P) -> Self {
        Self { party: party.to_string(), inner }
    }
}

impl<P: MetricPlanner> Planner for MetricAdapter<P> {
    fn kind(&self) -> &'static str {
        self.inner.kind()
    }
    fn step(&mut self) -> Step {
        self.inner.step()
    }
    fn consume(&mut self, index: usize, result: &CellResult) {
        self.inner.consume_metrics(index, &CellMetrics::from_result(result, &self.party));
    }
    fn state(&self) -> PlannerState {
        self.inner.state()
    }
    fn result(&self) -> JobResult {
        self.inner.result()
    }
    fn progress(&self) -> Option<JobProgress> {
        self.inner.progress()
    }
}

/// Total order on floats for rankings.
pub(crate) fn cmp_f64(a: f64, b: f64) -> std::cmp::Ordering {
    a.total_cmp(&b)
}

/// Whether two 3σ intervals `[m − 3s, m + 3s]` intersect.
pub(crate) fn overlap(a: (f64, f64), b: (f64, f64)) -> bool {
    a.0 <= b.1 && b.0 <= a.1
}

/// The 3σ band of the party's survival probability.
pub(crate) fn survive_band(m: &DangerMetrics) -> (f64, f64) {
    pf1e_engine::metrics::band(m.p_survives, m.runs, 3.0)
}

/// The 3σ band of the mean hit points lost.
pub(crate) fn hp_lost_band(m: &DangerMetrics) -> (f64, f64) {
    let se = if m.runs == 0 { 0.0 } else { m.hp_lost_sd / (m.runs as f64).sqrt() };
    (m.expected_hp_lost - 3.0 * se, m.expected_hp_lost + 3.0 * se)
}

/// Whether two measurements cannot be told apart at 3σ: their survival
/// bands overlap and so do their hit-points-lost bands.
pub(crate) fn statistically_tied(a: &DangerMetrics, b: &DangerMetrics) -> bool {
    overlap(survive_band(a), survive_band(b)) && overlap(hp_lost_band(a), hp_lost_band(b))
}

#[cfg(test)]
pub(crate) mod testing {
    //! A fake cell evaluator: drives a planner with metrics computed from the cell spec.

    use super::*;
    use crate::cell::CellSpec;
    use crate::plan::JobContext;

    /// Metrics with the given party survival and hit points lost over `runs` runs.
    pub fn metrics(p_survives: f64, hp_lost: f64, runs: u64) -> CellMetrics {
        let party = DangerMetrics {
            runs,
            p_survives,
            p_tpk: 1.0 - p_survives,
            p_any_death: 1.0 - p_survives,
            expected_hp_lost: hp_lost,
            hp_lost_sd: 1.0,
            expected_rounds: 3.0,
            worst_decile_hp: 0.0,
            wins: (p_survives * runs as f64) as u64,
            ..DangerMetrics::default()
        };
        CellMetrics { adversary: DangerMetrics { runs, ..DangerMetrics::default() }, party }
    }

    /// Drives `p` to its end; returns every emitted cell in order.
    pub fn drive(p: &mut dyn MetricPlanner, eval: &dyn Fn(&CellSpec) -> CellMetrics) -> Vec<CellSpec> {
        let mut cells = Vec::new();
        loop {
            match p.step() {
                Step::Emit(batch) => {
                    for c in batch {
                        let m = eval(&c);
                        let index = cells.len();
                        cells.push(c);
                        p.consume_metrics(index, &m);
                    }
                }
                Step::Wait => panic!("a planner fed synchronously never waits"),
                Step::Done => return cells,
            }
        }
    }

    /// A context with sides `a` (the party) and `b`.
    pub fn ctx() -> JobContext {
        JobContext {
            party: "a".into(),
            sides: vec!["a".into(), "b".into()],
            seed: 11,
            levers: pf1e_engine::strategy::Relevance::ALL,
            adversary_levers: pf1e_engine::strategy::Relevance::ALL,
        }
    }
}
