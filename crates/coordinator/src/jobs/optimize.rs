//! `optimize`: the party's best plan against a fixed adversary.
//!
//! Stages: a coarse grid (target × spell policy × charges × class
//! abilities; the spell policy only for a party that casts, class
//! abilities only for one that has some), retreat refinement (0.25/0.5/0.75) of the best cells, the
//! candidate specs of the sweep — each deduplicated against what was
//! measured. Then racing: while a contender's 3σ bands overlap the
//! leader's, the leader and those contenders are measured again with twice
//! the runs (the first runs come from the cache: same seed, same streams),
//! until they separate, the race rounds are spent or the budget is. Ranking:
//! (−p_survives, expected_hp_lost, −worst_decile_hp, rounds, name).
//!
//! Specs that played identically (every statistic equal over the same runs:
//! under common random numbers, inert levers) form one group, measured
//! further only through its best-named member and ranked as one. The
//! leader gets the racing budget first: before a racing round, a leader
//! measured with fewer runs than another group is brought up to them, so
//! the rank-1 row never rests on fewer runs than a row below it (a round
//! keeps the runs of that top-up in reserve; should the budget still run
//! short, rank 1 goes to the best of the most-measured groups).

use std::cmp::Ordering;

use pf1e_engine::strategy::{Relevance, SpellPolicy, StrategySpec as Levers, TargetPriority};
use pf1e_wire::results::{JobProgress, JobResult, Leader, OptimizeResult, PlaybookEntry, Stage};
use serde::Deserialize;

use crate::cell::{CellSpec, HpFraction, StrategySpec};
use crate::jobs::JobError;
use crate::jobs::metrics::{CellMetrics, MetricPlanner, cmp_f64, statistically_tied};
use crate::plan::{JobContext, PlannerState, Step};

/// The `optimize` job as written in the sweep file.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct OptimizeJob {
    /// Runs per cell (default: the sweep's).
    #[serde(default)]
    pub runs: Option<u64>,
    /// Most runs the job may spend, racing included.
    #[serde(default)]
    pub max_total_runs: Option<u64>,
    /// The adversary's strategy.
    #[serde(default = "StrategySpec::default_spec")]
    pub adversary: StrategySpec,
    /// Extra specs to measure after the grid and the refinement.
    #[serde(default)]
    pub candidates: Vec<StrategySpec>,
    /// Party specs to ask the LLM for (hypothesis generator), measured with
    /// the candidates.
    #[serde(default)]
    pub llm_candidates: Option<usize>,
    /// The LLM's proposals: filled before planning (`None`: not asked
    /// yet), never read from the file.
    #[serde(skip)]
    pub llm_proposals: Option<Vec<StrategySpec>>,
    /// Grid cells refined on retreat thresholds.
    #[serde(default = "default_refine")]
    pub refine_top: usize,
    /// Racing rounds (each doubles the contenders' runs).
    #[serde(default = "default_race")]
    pub race_rounds: u32,
}

fn default_refine() -> usize {
    3
}

fn default_race() -> u32 {
    3
}

/// Retreat thresholds tried on the best grid cells.
pub const RETREATS: [f64; 3] = [0.25, 0.5, 0.75];

/// The coarse grid for a party whose relevant levers are `levers`: target ×
/// spell policy × charges × class abilities, without the spell policy when
/// the party casts nothing and without class abilities when it has none
/// (an inert lever would only repeat cells).
pub fn grid_specs(levers: Relevance) -> Vec<StrategySpec> {
    let spell_policies: &[SpellPolicy] =
        if levers.spells { &[SpellPolicy::Default, SpellPolicy::None] } else { &[SpellPolicy::Default] };
    let abilities: &[bool] = if levers.class_abilities { &[true, false] } else { &[true] };
    let mut out = Vec::new();
    for target in TargetPriority::ALL {
        for &spell_policy in spell_policies {
            for use_charges in [true, false] {
                for &use_class_abilities in abilities {
                    out.push(StrategySpec::from_engine(Levers {
                        target,
                        spell_policy,
                        use_charges,
                        use_class_abilities,
                        ..Levers::default_spec()
                    }));
                }
            }
        }
    }
    out
}

impl OptimizeJob {
    /// Runs per cell.
    pub fn runs(&self) -> u64 {
        self.runs.unwrap_or(1)
    }

    /// The runs of the fixed stages (grid, refinement, candidates), at most.
    pub fn fixed_runs(&self) -> u64 {
        // The budget holds for any party: the full grid.
        let grid = grid_specs(Relevance::ALL);
        let refine = (self.refine_top.min(grid.len()) * RETREATS.len()) as u64;
        let cands = self.candidates.iter().filter(|c| !grid.contains(c)).count() as u64;
        let llm = match &self.llm_proposals {
            Some(p) => p.len(),
            None => self.llm_candidates.unwrap_or(0),
        } as u64;
        (grid.len() as u64 + refine + cands + llm).saturating_mul(self.runs())
    }

    /// The most runs the job can plan: its budget when it has one (racing
    /// adapts to what is left), else the fixed stages plus every racing
    /// round doubling every spec.
    pub fn worst_case_runs(&self) -> u64 {
        if let Some(max) = self.max_total_runs {
            return max;
        }
        let specs = self.fixed_runs() / self.runs().max(1);
        let mut total = self.fixed_runs();
        for k in 1..=self.race_rounds.min(20) {
            total = total.saturating_add(specs.saturating_mul(self.runs() << k));
        }
        total
    }

    /// Checks the job before anything runs.
    pub fn check(&self) -> Result<(), JobError> {
        if let Some(n) = self.llm_candidates
            && !(1..=pf1e_llm::MAX_PROPOSALS).contains(&n)
        {
            return Err(JobError::invalid(
                "optimize",
                format!("llm_candidates: ask for 1 to {} strategies, not {n}", pf1e_llm::MAX_PROPOSALS),
            ));
        }
        if let Some(max) = self.max_total_runs
            && self.fixed_runs() > max
        {
            return Err(JobError::OverBudget {
                job: "optimize",
                plan: "the grid, refinement and candidates".into(),
                runs: self.fixed_runs(),
                max,
            });
        }
        Ok(())
    }
}

#[derive(Debug, Clone)]
struct Entry {
    spec: StrategySpec,
    stage: Stage,
    runs: u64,
    metrics: Option<CellMetrics>,
    raced: u32,
    /// The entry whose group it joined: it played identically with it.
    same_as: Option<usize>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Phase {
    Start,
    Grid,
    Refine,
    Candidates,
    Race(u32),
    Done,
}

/// The optimize planner.
pub struct Optimize {
    ctx: JobContext,
    job: OptimizeJob,
    entries: Vec<Entry>,
    /// Entry of each emitted cell.
    emitted: Vec<usize>,
    pending: usize,
    phase: Phase,
    spent: u64,
}

/// The ranking key: best first.
fn rank(a: &Entry, b: &Entry) -> Ordering {
    match (&a.metrics, &b.metrics) {
        (Some(x), Some(y)) => {
            let (x, y) = (&x.party, &y.party);
            cmp_f64(y.p_survives, x.p_survives)
                .then(cmp_f64(x.expected_hp_lost, y.expected_hp_lost))
                .then(cmp_f64(y.worst_decile_hp, x.worst_decile_hp))
                .then(cmp_f64(x.expected_rounds, y.expected_rounds))
                .then_with(|| a.spec.as_str().cmp(b.spec.as_str()))
        }
        (Some(_), None) => Ordering::Less,
        (None, Some(_)) => Ordering::Greater,
        (None, None) => a.spec.as_str().cmp(b.spec.as_str()),
    }
}

impl Optimize {
    /// The planner of `job`.
    pub fn new(ctx: JobContext, job: OptimizeJob) -> Self {
        Self { ctx, job, entries: Vec::new(), emitted: Vec::new(), pending: 0, phase: Phase::Start, spent: 0 }
    }

    fn ranked(&self) -> Vec<usize> {
        let mut idx: Vec<usize> = (0..self.entries.len()).collect();
        idx.sort_by(|&a, &b| rank(&self.entries[a], &self.entries[b]));
        idx
    }

    /// The groups' representatives (entries that joined no group), best first.
    fn ranked_groups(&self) -> Vec<usize> {
        self.ranked().into_iter().filter(|&i| self.entries[i].same_as.is_none()).collect()
    }

    /// The representatives in the order of the result: the ranking, except
    /// that rank 1 always has the most runs (should the budget not have let
    /// the leader be brought up to them, the best of the most-measured
    /// groups leads).
    fn presented_groups(&self) -> Vec<usize> {
        let mut order: Vec<usize> =
            self.ranked_groups().into_iter().filter(|&i| self.entries[i].metrics.is_some()).collect();
        let most = order.iter().map(|&i| self.runs_of(i)).max().unwrap_or(0);
        if let Some(pos) = order.iter().position(|&i| self.runs_of(i) == most)
            && pos > 0
        {
            let best = order.remove(pos);
            order.insert(0, best);
        }
        order
    }

    /// Runs of an entry's current measurement.
    fn runs_of(&self, i: usize) -> u64 {
        self.entries[i].metrics.as_ref().map_or(0, |m| m.party.runs)
    }

    /// Puts every newly measured entry that played identically with an
    /// already measured one (same runs, every statistic equal) in that
    /// one's group. Called between batches, in ranking order, so the
    /// groups do not depend on the order results arrived in.
    fn group_identical(&mut self) {
        let order = self.ranked();
        for (pos, &i) in order.iter().enumerate() {
            let e = &self.entries[i];
            if e.same_as.is_some() || e.raced > 0 {
                continue;
            }
            let Some(m) = &e.metrics else { continue };
            let twin = order[..pos].iter().copied().find(|&k| self.entries[k].metrics.as_ref() == Some(m));
            let Some(k) = twin else { continue };
            let rep = self.entries[k].same_as.unwrap_or(k);
            if rep == i {
                continue;
            }
            for other in &mut self.entries {
                if other.same_as == Some(i) {
                    other.same_as = Some(rep);
                }
            }
            self.entries[i].same_as = Some(rep);
        }
    }

    /// Brings a leader measured with fewer runs than another group up to
    /// them; `None` when the leader has the most runs already or the
    /// budget cannot pay for it.
    fn top_up(&mut self) -> Option<Vec<CellSpec>> {
        let order = self.ranked_groups();
        let &leader = order.first()?;
        self.entries[leader].metrics.as_ref()?;
        let most = order.iter().map(|&i| self.runs_of(i)).max().unwrap_or(0);
        if self.runs_of(leader) >= most || most > self.left() {
            return None;
        }
        self.entries[leader].runs = most;
        Some(vec![self.emit(leader, most)])
    }

    /// Runs the budget still allows.
    fn left(&self) -> u64 {
        self.job.max_total_runs.map_or(u64::MAX, |m| m.saturating_sub(self.spent))
    }

    /// Adds specs not measured yet; returns the cells to emit.
    fn add(&mut self, specs: Vec<StrategySpec>, stage: Stage) -> Vec<CellSpec> {
        let runs = self.job.runs();
        let mut cells = Vec::new();
        for spec in specs {
            if self.entries.iter().any(|e| e.spec == spec) {
                continue;
            }
            self.entries.push(Entry { spec, stage, runs, metrics: None, raced: 0, same_as: None });
            cells.push(self.emit(self.entries.len() - 1, runs));
        }
        cells
    }

    fn emit(&mut self, entry: usize, runs: u64) -> CellSpec {
        self.emitted.push(entry);
        self.pending += 1;
        self.spent += runs;
        let e = &self.entries[entry];
        self.ctx.cell(&e.spec, &self.job.adversary, HpFraction::FULL, HpFraction::FULL, runs)
    }

    /// The next racing batch: the leader and the contenders it cannot be told from.
    fn race(&mut self, round: u32) -> Vec<CellSpec> {
        if round > self.job.race_rounds {
            return Vec::new();
        }
        let order = self.ranked_groups();
        let Some(&leader) = order.first() else { return Vec::new() };
        let Some(lm) = self.entries[leader].metrics.clone() else { return Vec::new() };
        let contenders: Vec<usize> = order[1..]
            .iter()
            .copied()
            .filter(|&i| {
                self.entries[i].metrics.as_ref().is_some_and(|m| {
                    // Identical results under common random numbers cannot be separated by more runs.
                    m.party != lm.party && statistically_tied(&m.party, &lm.party)
                })
            })
            .collect();
        if contenders.is_empty() {
            return Vec::new();
        }
        let runs = contenders
            .iter()
            .map(|&i| self.entries[i].runs)
            .max()
            .unwrap_or(0)
            .max(self.entries[leader].runs)
            * 2;
        // One measurement at these runs stays in reserve: should a contender
        // overtake the leader, the new leader is brought up to them.
        let left = self.left();
        let reserve = if self.job.max_total_runs.is_some() { 1 } else { 0 };
        let fit = ((left / runs.max(1)) as usize).saturating_sub(reserve);
        if fit < 2 {
            return Vec::new();
        }
        // Specs with identical results (inert levers: the same battles under
        // common random numbers) are raced once, through the first of them.
        let mut chosen = vec![leader];
        for c in contenders {
            if chosen.len() >= fit {
                break;
            }
            let m = &self.entries[c].metrics;
            if !chosen.iter().any(|&k| self.entries[k].metrics == *m) {
                chosen.push(c);
            }
        }
        if chosen.len() < 2 {
            return Vec::new();
        }
        let mut cells = Vec::new();
        for i in chosen {
            self.entries[i].runs = runs;
            self.entries[i].raced += 1;
            cells.push(self.emit(i, runs));
        }
        cells
    }

    fn tied_with_leader(&self, leader: Option<usize>, i: usize) -> bool {
        let Some(leader) = leader else { return false };
        let rep = self.entries[i].same_as.unwrap_or(i);
        match (&self.entries[leader].metrics, &self.entries[rep].metrics) {
            (Some(l), Some(m)) => rep != leader && statistically_tied(&l.party, &m.party),
            _ => false,
        }
    }
}

impl MetricPlanner for Optimize {
    fn kind(&self) -> &'static str {
        "optimize"
    }

    fn step(&mut self) -> Step {
        if self.pending > 0 {
            return Step::Wait;
        }
        self.group_identical();
        if matches!(self.phase, Phase::Race(_) | Phase::Done)
            && let Some(cells) = self.top_up()
        {
            return Step::Emit(cells);
        }
        loop {
            let cells = match self.phase {
                Phase::Start => {
                    self.phase = Phase::Grid;
                    self.add(grid_specs(self.ctx.levers), Stage::Grid)
                }
                Phase::Grid => {
                    self.phase = Phase::Refine;
                    let top: Vec<StrategySpec> = self
                        .ranked_groups()
                        .into_iter()
                        .take(self.job.refine_top)
                        .map(|i| self.entries[i].spec.clone())
                        .collect();
                    let mut refined = Vec::new();
                    for spec in top {
                        for r in RETREATS {
                            if let Ok(l) = spec.levers().clone().with_retreat(r) {
                                refined.push(StrategySpec::from_engine(l));
                            }
                        }
                    }
                    self.add(refined, Stage::Refine)
                }
                Phase::Refine => {
                    self.phase = Phase::Candidates;
                    let mut cells = self.add(self.job.candidates.clone(), Stage::Candidate);
                    cells.extend(
                        self.add(self.job.llm_proposals.clone().unwrap_or_default(), Stage::LlmProposal),
                    );
                    cells
                }
                Phase::Candidates => {
                    self.phase = Phase::Race(1);
                    continue;
                }
                Phase::Race(k) => {
                    let cells = self.race(k);
                    self.phase = if cells.is_empty() { Phase::Done } else { Phase::Race(k + 1) };
                    if cells.is_empty()
                        && let Some(top) = self.top_up()
                    {
                        return Step::Emit(top);
                    }
                    cells
                }
                Phase::Done => return Step::Done,
            };
            if !cells.is_empty() {
                return Step::Emit(cells);
            }
        }
    }

    fn consume_metrics(&mut self, index: usize, m: &CellMetrics) {
        let Some(&entry) = self.emitted.get(index) else { return };
        let e = &mut self.entries[entry];
        // A racing cell supersedes the smaller measurement of the same spec.
        if e.metrics.as_ref().is_none_or(|old| old.party.runs <= m.party.runs) {
            e.metrics = Some(m.clone());
        }
        self.pending = self.pending.saturating_sub(1);
    }

    fn state(&self) -> PlannerState {
        PlannerState {
            phase: format!("{:?}", self.phase),
            cells: self.emitted.len() as u64,
            measured: (self.emitted.len() - self.pending) as u64,
        }
    }

    fn result(&self) -> JobResult {
        // One rank per group of identical play; members follow their
        // representative. Unmeasured entries are left out.
        let groups = self.presented_groups();
        let leader = groups.first().copied();
        let order = self.ranked();
        let mut playbook = Vec::new();
        for (rank, &rep) in groups.iter().enumerate() {
            let members = std::iter::once(rep)
                .chain(order.iter().copied().filter(|&i| self.entries[i].same_as == Some(rep)));
            for i in members {
                let e = &self.entries[i];
                let Some(m) = e.metrics.as_ref() else { continue };
                playbook.push(PlaybookEntry {
                    rank: rank as u64 + 1,
                    strategy: e.spec.as_str().to_string(),
                    stage: e.stage,
                    runs: m.party.runs,
                    raced: e.raced,
                    tied_with_leader: self.tied_with_leader(leader, i),
                    party: m.party.clone(),
                    adversary: m.adversary.clone(),
                    same_as: e.same_as.map(|k| self.entries[k].spec.as_str().to_string()),
                });
            }
        }
        JobResult::Optimize(OptimizeResult {
            adversary_strategy: self.job.adversary.as_str().to_string(),
            spent_runs: self.spent,
            playbook,
        })
    }

    fn progress(&self) -> Option<JobProgress> {
        // One leader per result: specs measured in this batch that played
        // identically are grouped only at the next step.
        let mut shown: Vec<&CellMetrics> = Vec::new();
        let mut leaders: Vec<Leader> = Vec::new();
        for &i in &self.presented_groups() {
            let e = &self.entries[i];
            let Some(m) = e.metrics.as_ref() else { continue };
            if shown.contains(&m) {
                continue;
            }
            shown.push(m);
            leaders.push(Leader { strategy: e.spec.as_str().to_string(), p_survives: m.party.p_survives });
            if leaders.len() == 3 {
                break;
            }
        }
        (!leaders.is_empty()).then_some(JobProgress::Optimize { leaders })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::jobs::metrics::testing::{ctx, drive, metrics};

    fn playbook(o: &Optimize) -> Vec<PlaybookEntry> {
        match o.result() {
            JobResult::Optimize(r) => r.playbook,
            other => panic!("not an optimize result: {other:?}"),
        }
    }

    fn job(max: Option<u64>) -> OptimizeJob {
        OptimizeJob {
            runs: Some(100),
            max_total_runs: max,
            adversary: StrategySpec::default_spec(),
            candidates: vec![
                StrategySpec::parse("healer, retreat=0.3").unwrap(),
                StrategySpec::default_spec(),
            ],
            llm_candidates: None,
            llm_proposals: None,
            refine_top: 3,
            race_rounds: 3,
        }
    }

    /// Known survival per spec: lowest_hp is best, retreats help a little.
    fn eval(c: &CellSpec) -> CellMetrics {
        let l = c.party_strategy.levers();
        let mut p = match l.target {
            TargetPriority::LowestHp => 0.9,
            TargetPriority::WeakestAc => 0.6,
            _ => 0.5,
        };
        p += f64::from(l.retreat_milli) / 10_000.0;
        if !l.use_charges {
            p -= 0.2;
        }
        metrics(p, 100.0 * (1.0 - p), c.runs)
    }

    #[test]
    fn stages_rank_and_deduplicate() {
        let mut o = Optimize::new(ctx(), job(None));
        let cells = drive(&mut o, &eval);
        // 32 grid cells, 9 refinements, one new candidate (default is in the grid).
        assert_eq!(cells.len(), 32 + 9 + 1, "clear winners are not raced");
        assert!(cells.iter().all(|c| c.seed == 11), "common random numbers: one seed for every cell");
        let r = playbook(&o);
        assert_eq!(r[0].strategy, "lowest_hp, retreat=0.75");
        assert_eq!(r[0].stage, Stage::Refine);
        assert_eq!(r.len(), 42);
        let names: Vec<&str> = r.iter().map(|e| e.strategy.as_str()).collect();
        let mut dedup = names.clone();
        dedup.sort_unstable();
        dedup.dedup();
        assert_eq!(dedup.len(), names.len());
    }

    #[test]
    fn close_contenders_are_raced_until_separated_or_out_of_budget() {
        // Two specs 2 points apart: tied at 100 runs, separated with more runs.
        let close = |c: &CellSpec| {
            let l = c.party_strategy.levers();
            let p = match (l.target, l.retreat_milli) {
                (TargetPriority::LowestHp, 0)
                    if l.use_charges && l.use_class_abilities && l.spell_policy == SpellPolicy::Default =>
                {
                    0.80
                }
                (TargetPriority::WeakestAc, 0)
                    if l.use_charges && l.use_class_abilities && l.spell_policy == SpellPolicy::Default =>
                {
                    0.78
                }
                _ => 0.3,
            };
            metrics(p, 5.0, c.runs)
        };
        let mut o = Optimize::new(ctx(), OptimizeJob { candidates: vec![], refine_top: 1, ..job(None) });
        let cells = drive(&mut o, &close);
        let raced: Vec<&CellSpec> = cells.iter().filter(|c| c.runs > 100).collect();
        assert!(!raced.is_empty(), "the close pair is raced");
        assert!(raced.iter().all(|c| ["lowest_hp", "weakest_ac"].contains(&c.party_strategy.as_str())));
        let r = playbook(&o);
        assert_eq!(r[0].strategy, "lowest_hp");
        assert!(r[0].runs > 100);

        // With a budget, racing stops when the budget is spent (a round keeps
        // one measurement in reserve for the leader).
        let fixed = OptimizeJob { candidates: vec![], refine_top: 1, ..job(None) }.fixed_runs();
        let mut o =
            Optimize::new(ctx(), OptimizeJob { candidates: vec![], refine_top: 1, ..job(Some(fixed + 600)) });
        let cells = drive(&mut o, &close);
        let total: u64 = cells.iter().map(|c| c.runs).sum();
        assert!(total <= fixed + 600, "{total}");
        assert_eq!(total, fixed + 400, "one racing round of two specs at 200 runs");
        assert!(playbook(&o)[1].tied_with_leader);
    }

    /// Survival that wobbles with the runs measured, as a real estimate does:
    /// a base per target and retreat plus a deterministic jitter of the
    /// (spec, runs, salt) hash, so leaders drop and contenders overtake.
    fn wobbly(salt: u64) -> impl Fn(&CellSpec) -> CellMetrics {
        move |c: &CellSpec| {
            let l = c.party_strategy.levers();
            let base = match l.target {
                TargetPriority::LowestHp => 0.80,
                TargetPriority::WeakestAc => 0.79,
                TargetPriority::Healer => 0.78,
                _ => 0.77,
            } + f64::from(l.retreat_milli) / 100_000.0;
            let mut h = salt ^ c.runs.wrapping_mul(0x9e37_79b9_7f4a_7c15);
            for b in c.party_strategy.as_str().bytes() {
                h = (h ^ u64::from(b)).wrapping_mul(0x100_0000_01b3);
            }
            let jitter = ((h >> 11) % 1000) as f64 / 1000.0 * 0.06 - 0.03;
            metrics(base + jitter, 5.0, c.runs)
        }
    }

    #[test]
    fn rank_one_never_rests_on_fewer_runs_than_a_row_below() {
        for salt in 0..40 {
            for max in [None, Some(13_000), Some(15_000), Some(20_000)] {
                let j = OptimizeJob { candidates: vec![], refine_top: 2, race_rounds: 4, ..job(max) };
                let mut o = Optimize::new(ctx(), j);
                let cells = drive(&mut o, &wobbly(salt));
                let total: u64 = cells.iter().map(|c| c.runs).sum();
                if let Some(m) = max {
                    assert!(total <= m, "salt {salt}: {total} > {m}");
                }
                let r = playbook(&o);
                let most = r.iter().map(|e| e.runs).max().unwrap();
                assert_eq!(r[0].runs, most, "salt {salt}, budget {max:?}: {:?}", &r[..3]);
                assert_eq!(r[0].rank, 1);
            }
        }
    }

    #[test]
    fn specs_that_played_identically_share_a_rank_and_name_their_group() {
        // Spell policy and class abilities are inert here: four specs per
        // (target, charges) play identically.
        let mut o = Optimize::new(ctx(), job(None));
        drive(&mut o, &eval);
        let r = playbook(&o);
        let leader: Vec<&PlaybookEntry> = r.iter().filter(|e| e.rank == 1).collect();
        assert_eq!(leader.len(), 1, "the refined leader has no twin: {leader:?}");
        let second: Vec<&PlaybookEntry> = r.iter().filter(|e| e.rank == 2).collect();
        assert!(second.iter().all(|e| e.party == second[0].party), "{second:?}");
        let grid_twins: Vec<&PlaybookEntry> =
            r.iter().filter(|e| e.strategy.starts_with("lowest_hp") && e.stage == Stage::Grid).collect();
        assert_eq!(grid_twins.len(), 8);
        let with_charges: Vec<&&PlaybookEntry> =
            grid_twins.iter().filter(|e| !e.strategy.contains("use_charges=false")).collect();
        assert_eq!(with_charges.len(), 4);
        assert!(with_charges.iter().all(|e| e.rank == with_charges[0].rank));
        assert_eq!(with_charges.iter().filter(|e| e.same_as.is_none()).count(), 1, "{with_charges:?}");
        let rep = with_charges.iter().find(|e| e.same_as.is_none()).unwrap();
        assert_eq!(rep.strategy, "lowest_hp", "the best-named member represents the group");
        assert!(with_charges.iter().filter_map(|e| e.same_as.as_deref()).all(|s| s == "lowest_hp"));
        // Refinement tried distinct groups, not three twins of one.
        let refined: std::collections::BTreeSet<&str> = r
            .iter()
            .filter(|e| e.stage == Stage::Refine)
            .map(|e| e.strategy.split(", retreat").next().unwrap())
            .collect();
        assert_eq!(refined.len(), 3, "{refined:?}");
    }

    #[test]
    fn llm_proposals_are_measured_with_the_candidates_and_marked_as_such() {
        let mut j = job(None);
        j.llm_candidates = Some(2);
        // One proposal is a grid spec (measured as such), one is new.
        j.llm_proposals = Some(vec![
            StrategySpec::parse("lowest_hp").unwrap(),
            StrategySpec::parse("healer, retreat=0.9").unwrap(),
        ]);
        let mut o = Optimize::new(ctx(), j.clone());
        let cells = drive(&mut o, &eval);
        assert_eq!(cells.len(), 32 + 9 + 1 + 1);
        let r = playbook(&o);
        let stage = |name: &str| r.iter().find(|e| e.strategy == name).map(|e| e.stage);
        assert_eq!(stage("healer, retreat=0.9"), Some(Stage::LlmProposal));
        assert_eq!(stage("lowest_hp"), Some(Stage::Grid), "deduplicated by canonical name");
        assert_eq!(stage("healer, retreat=0.3"), Some(Stage::Candidate));
        j.llm_candidates = Some(0);
        assert!(j.check().unwrap_err().to_string().contains("llm_candidates: ask for 1 to 20"));
    }

    #[test]
    fn budget_is_refused_before_any_battle() {
        let j = job(Some(1000));
        assert!(matches!(j.check(), Err(JobError::OverBudget { job: "optimize", max: 1000, .. })));
        assert!(job(Some(j.fixed_runs())).check().is_ok());
    }
}
