//! What the analysis jobs share: the danger metrics of a cell (both
//! sides, with intervals at the sweep's confidence level), the party's
//! per-run outcomes, planners that read cells as metrics, and the paired
//! comparisons of their rankings (`docs/statistics.md`).

use pf1e_engine::metrics::{Confidence, Paired, Sign};
use pf1e_engine::objectives::{Criterion, DangerMetrics, DangerSums, Outcomes, Records, RunRow};

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
        // Packed runs (its shards' own, spilled or not) or per-run records: the same rows.
        let (ours, theirs) = r.rows_of(party_side);
        Self {
            party: DangerMetrics::from_rows(&ours, conf),
            adversary: DangerMetrics::from_rows(&theirs, conf),
            party_runs: Outcomes::from_rows(&ours).into(),
        }
    }

    /// [`CellMetrics::from_result`] with the party's outcomes kept by
    /// `keeper`, streamed: the packed runs of the cell (merged in memory,
    /// or spilled as its shards arrived and read back shard by shard) are
    /// read by chunks of [`CHUNK`](super::runs::CHUNK) runs, twice
    /// ([`streamed_metrics`]), and the outcomes written to the spill file
    /// (the job's, shared with the cell's rows) as they come, so the rows
    /// of the cell's runs are never all unpacked at once. The same figures,
    /// bit for bit, wherever the rows were.
    pub fn from_result_kept(r: &CellResult, party: &str, conf: Confidence, keeper: &mut RunKeeper) -> Self {
        if let Some(spill) = r.spill() {
            keeper.share(spill);
        }
        let party_side = r.sides.iter().position(|s| s == party).unwrap_or(0);
        let chunk = super::runs::CHUNK;
        // Packed runs that do not unpack read as the records, as `run_rows` reads them.
        if r.packed_chunks(party_side, chunk, |_, _| {}).is_none() {
            return Self::from_result(r, party, conf).kept(keeper);
        }
        let party_metrics = streamed_metrics(
            &mut |f| {
                let _ = r.packed_chunks(party_side, chunk, |ours, _| f(ours));
            },
            conf,
        );
        let adversary = streamed_metrics(
            &mut |f| {
                let _ = r.packed_chunks(party_side, chunk, |_, theirs| f(theirs));
            },
            conf,
        );
        let party_runs = keeper.keep_stream(|put| {
            let _ = r.packed_chunks(party_side, chunk, |ours, _| put(&Outcomes::from_rows(ours)));
        });
        Self { party: party_metrics, adversary, party_runs }
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

/// A pass over rows: calls its argument with every chunk of rows, in run order.
pub(crate) type RowPasses<'a> = dyn FnMut(&mut dyn FnMut(&[RunRow])) + 'a;

/// `DangerMetrics::from_rows` of the rows `pass` gives chunk by chunk in
/// run order (called twice, with the same rows in the same order): the
/// counts and integer sums in the first pass, with a histogram of the
/// losses (one bin per value: at most one per hit point the group has);
/// the squares around the means, summed in run order as `from_rows` sums
/// them, and the worst decile's hit points in the second: the runs above
/// the histogram's threshold loss, and the first in run order at it (the
/// ties `from_rows`'s stable sort keeps). Bit for bit `from_rows`.
pub(crate) fn streamed_metrics(pass: &mut RowPasses<'_>, conf: Confidence) -> DangerMetrics {
    let mut sums = DangerSums::default();
    let mut bins: std::collections::BTreeMap<i64, u64> = Default::default();
    pass(&mut |rows| {
        for r in rows {
            sums.runs += 1;
            sums.survives += u64::from(!r.dead);
            sums.tpk += u64::from(r.all_down);
            sums.any_death += u64::from(r.dead);
            sums.wins += u64::from(r.won);
            sums.draws += u64::from(r.draw);
            sums.fled += u64::from(r.fled);
            sums.lost_sum += r.lost;
            sums.rounds_sum += u64::from(r.rounds);
            *bins.entry(r.lost).or_default() += 1;
        }
    });
    let mean = sums.per_run(sums.lost_sum as f64);
    let rounds_mean = sums.per_run(sums.rounds_sum as f64);
    let take = DangerSums::tail_len(sums.runs).min(sums.runs);
    // The largest losses first: every run above `threshold`, and the first
    // `at_threshold` runs at it.
    let (mut above, mut threshold, mut at_threshold) = (0u64, i64::MAX, 0u64);
    for (&v, &c) in bins.iter().rev() {
        if above + c >= take {
            (threshold, at_threshold) = (v, take - above);
            break;
        }
        above += c;
    }
    // The same fold as `Iterator::sum` for f64 (its neutral element is −0.0).
    let (mut ss, mut rounds_ss, mut tail_sum, mut taken) = (-0.0f64, -0.0f64, 0i64, 0u64);
    pass(&mut |rows| {
        for r in rows {
            ss += (r.lost as f64 - mean).powi(2);
            rounds_ss += (f64::from(r.rounds) - rounds_mean).powi(2);
            if r.lost > threshold || (r.lost == threshold && taken < at_threshold) {
                taken += u64::from(r.lost == threshold);
                tail_sum += r.remaining;
            }
        }
    });
    (sums.lost_ss, sums.rounds_ss, sums.tail_remaining) = (ss, rounds_ss, tail_sum);
    DangerMetrics::from_sums(&sums, conf)
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
    /// The last progress computed, until the planner moves on. A progress
    /// may compare cells paired (a sensitivity ranks its levers), reading
    /// their runs back from the spill file; a client polls it after every
    /// batch, far more often than a cell completes.
    progress: std::sync::Mutex<Option<Option<JobProgress>>>,
}

impl<P: MetricPlanner> MetricAdapter<P> {
    /// Wraps `inner`, measuring side `party` with intervals at `confidence`.
    pub fn new(party: &str, confidence: Confidence, inner: P) -> Self {
        Self {
            party: party.to_string(),
            confidence,
            inner,
            keeper: RunKeeper::default(),
            progress: std::sync::Mutex::new(None),
        }
    }

    /// Forgets the cached progress (the planner's state changed).
    fn moved_on(&mut self) {
        *self.progress.get_mut().unwrap_or_else(std::sync::PoisonError::into_inner) = None;
    }
}

impl<P: MetricPlanner> Planner for MetricAdapter<P> {
    fn kind(&self) -> &'static str {
        self.inner.kind()
    }
    fn step(&mut self) -> Step {
        // The scheduler steps a planner after every report; one that waits
        // has changed nothing (each checks what it waits for first), so
        // only a step that emits or ends forgets the progress.
        let step = self.inner.step();
        if step != Step::Wait {
            self.moved_on();
        }
        step
    }
    fn consume(&mut self, index: usize, result: &CellResult) {
        self.moved_on();
        let m = CellMetrics::from_result_kept(result, &self.party, self.confidence, &mut self.keeper);
        self.inner.consume_metrics(index, &m);
    }
    fn state(&self) -> PlannerState {
        self.inner.state()
    }
    fn result(&self) -> JobResult {
        self.inner.result()
    }
    fn progress(&self) -> Option<JobProgress> {
        let mut cached = self.progress.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        cached.get_or_insert_with(|| self.inner.progress()).clone()
    }
}

/// Total order on floats for rankings.
pub(crate) fn cmp_f64(a: f64, b: f64) -> std::cmp::Ordering {
    a.total_cmp(&b)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Rows of `n` runs with heavy ties in the losses (the worst decile's
    /// boundary falls inside a bin) and every flag.
    fn rows(n: u64, spread: u64) -> Vec<RunRow> {
        (0..n)
            .map(|i| {
                let h = i.wrapping_mul(0x9e37_79b9_7f4a_7c15) >> 24;
                RunRow {
                    won: h & 1 != 0,
                    draw: h & 6 == 6,
                    rounds: (h % 13) as u32 + 1,
                    dead: h & 8 != 0,
                    all_down: h & 24 == 24,
                    fled: h & 96 == 96,
                    lost: ((h >> 7) % spread) as i64,
                    remaining: ((h >> 17) % 50) as i64,
                }
            })
            .collect()
    }

    /// A planner that counts how often its progress is computed; it emits
    /// (nothing) every other step and waits on the others; its progress
    /// names how many times it emitted.
    struct Counting {
        steps: usize,
        computed: std::sync::Arc<std::sync::atomic::AtomicUsize>,
    }

    impl MetricPlanner for Counting {
        fn kind(&self) -> &'static str {
            "counting"
        }
        fn step(&mut self) -> Step {
            self.steps += 1;
            if self.steps % 2 == 1 { Step::Emit(Vec::new()) } else { Step::Wait }
        }
        fn consume_metrics(&mut self, _: usize, _: &CellMetrics) {}
        fn state(&self) -> PlannerState {
            PlannerState::default()
        }
        fn result(&self) -> JobResult {
            JobResult::Grid(())
        }
        fn progress(&self) -> Option<JobProgress> {
            self.computed.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            Some(JobProgress::Sensitivity {
                adversary_strategy: self.steps.div_ceil(2).to_string(),
                criterion: pf1e_engine::objectives::Criterion::PSurvives,
                delta: 0.0,
            })
        }
    }

    /// Polled after every batch, a planner's progress is computed once per
    /// change of the planner (a step that emits or ends, a consumed cell),
    /// not after each of the scheduler's steps that find it waiting, and
    /// is the planner's own.
    #[test]
    fn progress_is_computed_once_per_change_of_the_planner() {
        let computed = std::sync::Arc::new(std::sync::atomic::AtomicUsize::new(0));
        let mut a = MetricAdapter::new(
            "players",
            Confidence::default(),
            Counting { steps: 0, computed: computed.clone() },
        );
        let named = |p: Option<JobProgress>| match p {
            Some(JobProgress::Sensitivity { adversary_strategy, .. }) => adversary_strategy,
            other => panic!("{other:?}"),
        };
        for _ in 0..3 {
            assert_eq!(named(a.progress()), "0");
        }
        assert_eq!(computed.load(std::sync::atomic::Ordering::Relaxed), 1);
        Planner::step(&mut a);
        for _ in 0..3 {
            assert_eq!(named(a.progress()), "1");
        }
        assert_eq!(computed.load(std::sync::atomic::Ordering::Relaxed), 2);
        // A step that finds it waiting: the same progress, not computed again.
        assert_eq!(Planner::step(&mut a), Step::Wait);
        assert_eq!(named(a.progress()), "1");
        assert_eq!(computed.load(std::sync::atomic::Ordering::Relaxed), 2);
        Planner::step(&mut a);
        assert_eq!(named(a.progress()), "2");
        assert_eq!(computed.load(std::sync::atomic::Ordering::Relaxed), 3);
    }

    /// The streamed metrics are `DangerMetrics::from_rows`'s, bit for bit
    /// (floats compared by their shortest round-trip text), whatever the
    /// chunks the rows come in.
    #[test]
    fn streamed_metrics_are_the_per_run_ones_bit_for_bit() {
        let conf = Confidence::default();
        for (n, spread) in
            [(0u64, 1u64), (1, 1), (9, 3), (10, 2), (11, 40), (1_003, 7), (40_000, 1_000), (40_001, 2)]
        {
            let all = rows(n, spread);
            let expected = format!("{:?}", DangerMetrics::from_rows(&all, conf));
            for chunk in [1usize, 7, 4_096, 100_000] {
                let got = streamed_metrics(
                    &mut |f| {
                        for c in all.chunks(chunk) {
                            f(c);
                        }
                    },
                    conf,
                );
                assert_eq!(format!("{got:?}"), expected, "{n} runs by chunks of {chunk}");
            }
        }
    }
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
