//! What the analysis jobs share: the danger metrics of a cell (both
//! sides, with intervals at the sweep's confidence level), the party's
//! per-run outcomes, planners that read cells as metrics, and the paired
//! comparisons of their rankings (`docs/statistics.md`).

use pf1e_engine::metrics::{Confidence, Paired, Sign};
use pf1e_engine::objectives::{Criterion, DangerMetrics, Outcomes, Records};

use super::runs::{RunKeeper, RunOutcomes};
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
    /// The party's per-run outcomes, in run order: run `i` of every cell of
    /// a sweep plays the same dice, so two cells compare run by run. Empty
    /// when only summaries are known (some tests); comparisons then fall
    /// back to unpaired ones. Kept in the planner's spill file once a
    /// planner keeps them ([`CellMetrics::kept`]).
    #[serde(skip)]
    pub party_runs: RunOutcomes,
}

impl CellMetrics {
    /// The metrics of a merged cell, `party` being the measured side's name.
    pub fn from_result(r: &CellResult, party: &str, conf: Confidence) -> Self {
        let party_side = r.sides.iter().position(|s| s == party).unwrap_or(0);
        // Packed runs (its shards' own) or per-run records: the same rows.
        let (ours, theirs) = r.run_rows(party_side);
        Self {
            party: DangerMetrics::from_rows(&ours, conf),
            adversary: DangerMetrics::from_rows(&theirs, conf),
            party_runs: Outcomes::from_rows(&ours).into(),
        }
    }

    /// These metrics with their per-run outcomes moved to `keeper`'s spill
    /// file: what a planner holds of them no longer grows with the runs.
    pub fn kept(mut self, keeper: &mut RunKeeper) -> Self {
        if self.party_runs.bytes_in_memory() > 0 {
            let runs = std::mem::take(&mut self.party_runs);
            self.party_runs = keeper.keep(runs.chunk(0..runs.len()));
        }
        self
    }

    /// The metrics of per-run records, the party being side `party_side`.
    pub fn from_records(rec: &Records<'_>, party_side: usize, conf: Confidence) -> Self {
        Self {
            party: rec.group_metrics_at(&|s| s == party_side, conf),
            adversary: rec.group_metrics_at(&|s| s != party_side, conf),
            party_runs: rec.outcomes(&|s| s == party_side).into(),
        }
    }
}

/// Whether a larger value of `c` is better for the party.
pub(crate) fn higher_is_better(c: Criterion) -> bool {
    c.higher_is_better()
}

/// The difference `a − b` on `c`: paired over the runs both measured when
/// both have per-run outcomes, else unpaired (difference of the summaries,
/// standard errors added in quadrature).
pub(crate) fn difference(a: &CellMetrics, b: &CellMetrics, c: Criterion) -> Paired {
    let (x, y) = (&a.party_runs, &b.party_runs);
    if !x.is_empty() && !y.is_empty() {
        // Streamed from the spill file by chunks, bit for bit the per-run figures.
        return super::runs::paired_on(x, y, c);
    }
    let se = |m: &DangerMetrics| {
        let n = m.runs.max(1) as f64;
        if c.is_probability() {
            let p = c.value(m);
            (p * (1.0 - p) / n).sqrt()
        } else {
            m.hp_lost_sd / n.sqrt()
        }
    };
    let (ma, mb) = (&a.party, &b.party);
    Paired {
        n: ma.runs.min(mb.runs),
        mean: c.value(ma) - c.value(mb),
        se: (se(ma).powi(2) + se(mb).powi(2)).sqrt(),
    }
}

/// How `a` compares with `b` on `c` at quantile `z`: `Greater` when `a` is
/// significantly better for the party, `Less` when significantly worse.
pub(crate) fn compare(a: &CellMetrics, b: &CellMetrics, c: Criterion, z: f64) -> Sign {
    let s = difference(a, b, c).sign(z);
    match (s, higher_is_better(c)) {
        (Sign::Tied, _) => Sign::Tied,
        (s, true) => s,
        (Sign::Greater, false) => Sign::Less,
        (Sign::Less, false) => Sign::Greater,
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
    confidence: Confidence,
    inner: P,
    /// Where the per-run outcomes of the cells it reads are kept.
    keeper: RunKeeper,
}

impl<P: MetricPlanner> MetricAdapter<P> {
    /// Wraps `inner`, measuring side `party` with intervals at `confidence`.
    pub fn new(party: &str, confidence: Confidence, inner: P) -> Self {
        Self { party: party.to_string(), confidence, inner, keeper: RunKeeper::default() }
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
        let m = CellMetrics::from_result(result, &self.party, self.confidence).kept(&mut self.keeper);
        self.inner.consume_metrics(index, &m);
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
        CellMetrics {
            adversary: DangerMetrics { runs, ..DangerMetrics::default() },
            party,
            party_runs: RunOutcomes::default(),
        }
    }

    /// A deterministic uniform in [0, 1) of `key` (splitmix64).
    pub fn uniform(key: u64) -> f64 {
        crate::jobs::bayes::uniform(key)
    }

    /// A synthetic cell with per-run outcomes under common random numbers:
    /// two party members (side 0, 20 hp each) and one foe (side 1). Run `i`
    /// draws from the dice of `(seed, i)`: a shared draw decides whether the
    /// run's fate is the shared uniform (70 %) or the spec's own (`salt`),
    /// so cells of one sweep are positively correlated as battles on the
    /// same dice are, and each marginal is exact. Member 0 dies when the
    /// fate is below `p_death`, both when it is below `p_tpk` (≤ `p_death`);
    /// a living member loses `⌊hp × u⌋` hit points, `u` a shared uniform in
    /// [0, 2), at most 19. So P(survive) = 1 − p_death, P(TPK) = p_tpk.
    pub fn synthetic(seed: u64, salt: u64, runs: u64, p_death: f64, p_tpk: f64, hp: f64) -> CellMetrics {
        let n = runs as usize;
        let (mut winner, mut rounds, mut final_hp, mut dead) =
            (Vec::new(), Vec::new(), Vec::new(), Vec::new());
        for i in 0..runs {
            let key = seed.wrapping_mul(0x2545_f491_4f6c_dd1d) ^ i.wrapping_mul(0x9e37_79b9_7f4a_7c15);
            let own = uniform(key ^ salt.wrapping_mul(0xd6e8_feb8_6659_fd93).rotate_left(17));
            let fate = if uniform(key ^ 1) < 0.7 { uniform(key ^ 2) } else { own };
            let loss = ((hp * 2.0 * uniform(key ^ 3)) as i32).min(19);
            let (d0, d1) = (fate < p_death, fate < p_tpk);
            winner.push(if d0 && d1 { 1 } else { 0 });
            rounds.push(3);
            final_hp.extend([if d0 { -5 } else { 20 - loss }, if d1 { -5 } else { 20 - loss }, 0]);
            dead.extend([d0, d1, !(d0 && d1)]);
        }
        let rec = Records {
            side_of: &[0, 0, 1],
            start_hp: &[20, 20, 10],
            winner: &winner,
            rounds: &rounds,
            final_hp: &final_hp,
            dead: &dead,
            fled: &[],
        };
        debug_assert_eq!(rec.runs(), n);
        CellMetrics::from_records(&rec, 0, Confidence::default())
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
            confidence: Confidence::default(),
            combatants: vec![("a".into(), "x".into()), ("a".into(), "y".into()), ("b".into(), "orc".into())],
        }
    }
}
