//! `contribution`: who carries the fight. The full encounter is measured
//! once, then once without each combatant that has a side-mate (the last of
//! a side leaves no battle to play), every cell on the sweep's seed so run
//! `i` of each starts from the same dice. Each combatant's own figures
//! (damage per round, healing and conditions inflicted per battle) come
//! from the full encounter's sums; the party's win rate and P(a PC dies)
//! without it are compared with the full encounter run by run, intervals
//! Bonferroni-adjusted over the removals (`pf1e_engine::contribution`, the
//! same arithmetic as `pf1e sim --contribution`).

use pf1e_engine::contribution::{self, Contribution as Figures, Without};
use pf1e_engine::metrics::{Sign, win_rate};
use pf1e_engine::objectives::Criterion;
use pf1e_wire::results::{ContributionResult, JobResult};
use serde::Deserialize;

use pf1e_llm::Side;

use crate::cell::{CellSpec, Decide, HpFraction, NotCompiled, SideExtra, StrategySpec, WrittenStrategy};
use crate::jobs::JobError;
use crate::jobs::metrics::CellMetrics;
use crate::jobs::runs::{RunKeeper, RunOutcomes, paired};
use crate::merge::CellResult;
use crate::plan::{JobContext, Planner, PlannerState, Step};

/// The most combatants the job leaves out in turn (what its budget
/// reserves); the combatants past it keep their own figures only.
pub const MOST_REMOVED: usize = 32;

/// The `contribution` job as written in the sweep file.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ContributionFile {
    /// Runs per cell (default: the sweep's).
    #[serde(default)]
    pub runs: Option<u64>,
    /// Most runs the job may spend.
    #[serde(default)]
    pub max_total_runs: Option<u64>,
    /// The party's strategy.
    #[serde(default = "WrittenStrategy::default_spec")]
    pub party: WrittenStrategy,
    /// The other sides' strategy.
    #[serde(default = "WrittenStrategy::default_spec")]
    pub adversary: WrittenStrategy,
}

impl ContributionFile {
    /// The job of this file: `runs` the sweep's unless it writes its own,
    /// every strategy decided.
    pub fn decide(self, runs: u64, spec: &mut Decide) -> Result<ContributionJob, NotCompiled> {
        Ok(ContributionJob {
            runs: self.runs.unwrap_or(runs),
            max_total_runs: self.max_total_runs,
            party: spec(Side::Party, &self.party)?,
            adversary: spec(Side::Adversary, &self.adversary)?,
        })
    }
}

/// The `contribution` job, decided: its runs and strategies known.
#[derive(Debug, Clone, PartialEq)]
pub struct ContributionJob {
    /// Runs per cell.
    pub runs: u64,
    /// Most runs the job may spend.
    pub max_total_runs: Option<u64>,
    /// The party's strategy.
    pub party: StrategySpec,
    /// The other sides' strategy.
    pub adversary: StrategySpec,
}

impl ContributionJob {
    /// The most runs the job plans: the full encounter and every removal.
    pub fn worst_case_runs(&self) -> u64 {
        (1 + MOST_REMOVED as u64).saturating_mul(self.runs)
    }

    /// Checks the budget before anything runs.
    pub fn check(&self) -> Result<(), JobError> {
        if let Some(max) = self.max_total_runs
            && self.worst_case_runs() > max
        {
            return Err(JobError::OverBudget {
                job: "contribution",
                plan: format!("the full encounter and up to {MOST_REMOVED} without one combatant"),
                runs: self.worst_case_runs(),
                max,
            });
        }
        Ok(())
    }
}

/// The combatants left out in turn, as (index in the encounter, side, id):
/// those with a side-mate, at most [`MOST_REMOVED`].
pub fn removals(ctx: &JobContext) -> Vec<(usize, String, String)> {
    let mates = |side: &str| ctx.combatants.iter().filter(|(s, _)| s == side).count();
    ctx.combatants
        .iter()
        .enumerate()
        .filter(|(_, (side, _))| mates(side) > 1)
        .map(|(i, (side, id))| (i, side.clone(), id.clone()))
        .take(MOST_REMOVED)
        .collect()
}

/// The contribution planner.
pub struct Contribution {
    ctx: JobContext,
    job: ContributionJob,
    removals: Vec<(usize, String, String)>,
    /// The full encounter's figures, once measured.
    figures: Option<Vec<Figures>>,
    /// The party's runs: the full encounter first, then each removal (in
    /// the spill file of `keeper`).
    runs: Vec<Option<RunOutcomes>>,
    keeper: RunKeeper,
    emitted: bool,
}

impl Contribution {
    /// The planner of `job`.
    pub fn new(ctx: JobContext, job: ContributionJob) -> Self {
        let removals = removals(&ctx);
        let runs = vec![None; 1 + removals.len()];
        Self { ctx, job, removals, figures: None, runs, keeper: RunKeeper::default(), emitted: false }
    }

    /// The quantile of each removal's intervals: Bonferroni over the removals.
    fn z(&self) -> f64 {
        self.ctx.confidence.bonferroni_z(self.removals.len() as u64)
    }

    fn cells(&self) -> Vec<CellSpec> {
        let runs = self.job.runs;
        let base =
            self.ctx.cell(&self.job.party, &self.job.adversary, HpFraction::FULL, HpFraction::FULL, runs);
        let mut out = vec![base.clone()];
        for (_, side, id) in &self.removals {
            let mut cell = base.clone();
            cell.extra.insert(side.clone(), SideExtra { removed: vec![id.clone()], ..SideExtra::default() });
            out.push(cell);
        }
        out
    }
}

/// The party without a combatant (`without`) against the full encounter
/// (`with`), paired over their common runs, intervals at quantile `z`:
/// `pf1e_engine::contribution::compare` (what `pf1e sim --contribution`
/// computes), its runs streamed from the spill file, bit for bit the same.
fn compare(with: &RunOutcomes, without: &RunOutcomes, z: f64) -> Without {
    let win = paired(without, with, |o, i| o.value(Criterion::PWin, i));
    let death = paired(without, with, |o, i| o.value(Criterion::PAnyDeath, i));
    let (mut won, mut died) = (0u64, 0u64);
    without.for_each_chunk(|_, o| {
        won += o.won.iter().filter(|&&b| b).count() as u64;
        died += o.survived.iter().filter(|&&s| !s).count() as u64;
    });
    let runs = without.len() as u64;
    let (wl, wh) = win.interval(z);
    let (dl, dh) = death.interval(z);
    Without {
        runs,
        p_win: win_rate(won, runs),
        p_pc_dies: win_rate(died, runs),
        win_change: win.mean,
        win_interval: [wl, wh],
        death_change: death.mean,
        death_interval: [dl, dh],
        significant: win.sign(z) != Sign::Tied || death.sign(z) != Sign::Tied,
    }
}

impl Planner for Contribution {
    fn kind(&self) -> &'static str {
        "contribution"
    }

    fn step(&mut self) -> Step {
        if !self.emitted {
            self.emitted = true;
            return Step::Emit(self.cells());
        }
        if self.runs.iter().all(Option::is_some) { Step::Done } else { Step::Wait }
    }

    fn consume(&mut self, index: usize, result: &CellResult) {
        let m = CellMetrics::from_result_kept(result, &self.ctx.party, self.ctx.confidence, &mut self.keeper);
        if index == 0 {
            let who: Vec<(&str, &str)> = result
                .combatants
                .iter()
                .map(|c| (c.id.as_str(), result.sides.get(c.side).map_or("", String::as_str)))
                .collect();
            self.figures = Some(contribution::figures_of(&who, &result.summary));
        }
        if let Some(slot) = self.runs.get_mut(index) {
            *slot = Some(m.party_runs);
        }
    }

    fn state(&self) -> PlannerState {
        PlannerState::one_batch(self.emitted, self.runs.len(), self.runs.iter().flatten().count())
    }

    fn result(&self) -> JobResult {
        let z = self.z();
        let mut combatants = self.figures.clone().unwrap_or_default();
        if let Some(with) = &self.runs[0] {
            for (k, (i, _, _)) in self.removals.iter().enumerate() {
                if let (Some(c), Some(Some(without))) = (combatants.get_mut(*i), self.runs.get(k + 1)) {
                    c.without = Some(compare(with, without, z));
                }
            }
        }
        JobResult::Contribution(ContributionResult {
            party: self.ctx.party.clone(),
            party_strategy: self.job.party.as_str().to_string(),
            adversary_strategy: self.job.adversary.as_str().to_string(),
            combatants,
            confidence: self.ctx.confidence.level(),
            comparison_z: z,
        })
    }
}

#[cfg(test)]
mod tests {
    use pf1e_engine::summary::{CombatantTotals, Summary};
    use pf1e_wire::shard::CombatantInfo;

    use super::*;
    use crate::jobs::metrics::testing::ctx;

    fn job(runs: u64) -> ContributionJob {
        ContributionJob {
            runs,
            max_total_runs: None,
            party: StrategySpec::default_spec(),
            adversary: StrategySpec::default_spec(),
        }
    }

    /// A cell of `members` party members (side `a`, 10 HP) and one foe:
    /// the party wins the runs of `won`, member 0 dies in those of `died`.
    fn result(members: usize, won: &[bool], died: &[bool]) -> CellResult {
        let n = members + 1;
        let mut summary = Summary::new(2, n);
        summary.runs = won.len() as u64;
        summary.rounds = 4 * won.len() as u64;
        summary.combatants[0] = CombatantTotals {
            damage_dealt: 40,
            healing_given: 6,
            conditions_inflicted: 3,
            ..CombatantTotals::default()
        };
        let (mut final_hp, mut dead, mut winner) = (Vec::new(), Vec::new(), Vec::new());
        for (w, d) in won.iter().zip(died) {
            winner.push(if *w { 0 } else { 1 });
            for c in 0..n {
                let is_dead = (c == 0 && *d) || (c == members && *w);
                final_hp.push(if is_dead { -12 } else { 10 });
                dead.push(is_dead);
            }
        }
        let mut combatants: Vec<CombatantInfo> = (0..members)
            .map(|i| CombatantInfo { id: ["x", "y"][i].into(), side: 0, hp_max: 10, start_hp: 10 })
            .collect();
        combatants.push(CombatantInfo { id: "orc".into(), side: 1, hp_max: 10, start_hp: 10 });
        CellResult::of_records(summary, winner, 4, final_hp, dead, combatants)
    }

    #[test]
    fn every_combatant_with_a_side_mate_is_left_out_once_and_the_budget_counts_them() {
        let mut p = Contribution::new(ctx(), job(10));
        let Step::Emit(cells) = p.step() else { panic!("the first step emits") };
        // The full encounter, then x and y of side a; the orc is alone on side b.
        assert_eq!(cells.len(), 3);
        assert!(cells[0].extra.is_empty());
        assert_eq!(cells[1].extra["a"].removed, ["x"]);
        assert_eq!(cells[2].extra["a"].removed, ["y"]);
        assert!(cells.iter().all(|c| c.seed == cells[0].seed && c.runs == 10));
        assert_eq!(p.step(), Step::Wait);
        assert_eq!(job(10).worst_case_runs(), 330);
        let over = ContributionJob { max_total_runs: Some(100), ..job(10) };
        assert!(matches!(over.check(), Err(JobError::OverBudget { .. })));
    }

    #[test]
    fn the_result_pairs_each_removal_with_the_full_encounter() {
        let mut p = Contribution::new(ctx(), job(4));
        let _ = p.step();
        let t = [true; 4];
        p.consume(0, &result(2, &t, &[false; 4]));
        // Without x the party wins half the runs and member y... (member 0) dies in them.
        p.consume(1, &result(1, &[true, false, true, false], &[false, true, false, true]));
        p.consume(2, &result(1, &t, &[false; 4]));
        assert_eq!(p.step(), Step::Done);
        let JobResult::Contribution(r) = p.result() else { panic!("a contribution result") };
        assert_eq!(r.combatants.len(), 3);
        let x = &r.combatants[0];
        // 40 damage over 16 rounds; 6 healing and 3 conditions over 4 battles.
        assert_eq!((x.id.as_str(), x.damage_per_round, x.healing, x.conditions), ("x", 2.5, 1.5, 0.75));
        let w = x.without.as_ref().unwrap();
        assert_eq!((w.p_win, w.p_pc_dies, w.win_change, w.death_change), (0.5, 0.5, -0.5, 0.5));
        let y = r.combatants[1].without.as_ref().unwrap();
        assert_eq!((y.win_change, y.death_change, y.significant), (0.0, 0.0, false));
        assert!(r.combatants[2].without.is_none(), "the orc is the last of its side");
        // The streamed comparison is the engine's on the per-run vectors.
        let engine =
            |won: &[bool], died: &[bool]| contribution::PartyRuns { won: won.to_vec(), died: died.to_vec() };
        let expected = contribution::compare(
            &engine(&t, &[false; 4]),
            &engine(&[true, false, true, false], &[false, true, false, true]),
            r.comparison_z,
        );
        assert_eq!(format!("{w:?}"), format!("{expected:?}"));
        assert_eq!(r.comparison_z, ctx().confidence.bonferroni_z(2));
    }
}
