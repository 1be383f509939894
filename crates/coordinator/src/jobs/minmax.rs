//! `minmax`: alternating best responses. Each iteration the party picks its
//! best candidate against the current adversary (highest p_survives, then
//! fewest hit points lost, then name), then the adversary picks the
//! candidate worst for that party (lowest party p_survives, then most party
//! hit points lost, then name). A best response moves off the incumbent
//! (the current choice; the first candidate at the start) only when the
//! point-estimate leader is significantly better than it in the paired
//! comparisons common random numbers allow, criterion by criterion, at the
//! sweep's confidence with a Bonferroni adjustment over the candidates
//! (`docs/statistics.md`); candidates tied with the choice are reported.
//! Stops after `iterations`, or early when an iteration keeps the previous
//! pair.

use pf1e_wire::results::{JobProgress, JobResult, MinmaxIteration, MinmaxResult};
use serde::Deserialize;

use pf1e_llm::Side;

use crate::cell::{Decide, HpFraction, NotCompiled, Proposals, StrategySpec, WrittenStrategy};
use crate::jobs::JobError;
use pf1e_engine::metrics::Sign;
use pf1e_engine::objectives::Criterion;

use crate::jobs::metrics::{CellMetrics, MetricPlanner, cmp_f64, compare};
use crate::plan::{JobContext, PlannerState, Step};

/// The `minmax` job as written in the sweep file.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MinmaxFile {
    /// Runs per cell (default: the sweep's).
    #[serde(default)]
    pub runs: Option<u64>,
    /// Most runs the job may spend.
    #[serde(default)]
    pub max_total_runs: Option<u64>,
    /// Most iterations.
    #[serde(default = "default_iterations")]
    pub iterations: u32,
    /// Party candidates (the first starts).
    pub party: Vec<WrittenStrategy>,
    /// Adversary candidates (the first starts).
    pub adversary: Vec<WrittenStrategy>,
    /// Adversary specs to ask the LLM for (red team), added to the candidates.
    #[serde(default)]
    pub llm_adversaries: Option<usize>,
}

impl MinmaxFile {
    /// The job of this file: `runs` the sweep's unless it writes its own,
    /// every strategy decided, the LLM's proposals added to the adversary
    /// candidates (those not there already).
    pub fn decide(
        self,
        runs: u64,
        spec: &mut Decide,
        proposals: Proposals,
    ) -> Result<MinmaxJob, NotCompiled> {
        let party = self.party.iter().map(|s| spec(Side::Party, s)).collect::<Result<_, _>>()?;
        let mut adversary: Vec<StrategySpec> =
            self.adversary.iter().map(|s| spec(Side::Adversary, s)).collect::<Result<_, _>>()?;
        let llm_proposals = match proposals {
            Proposals::Reserved(n) => {
                adversary.extend(std::iter::repeat_n(StrategySpec::default_spec(), n));
                Vec::new()
            }
            Proposals::Answered(specs) => {
                let new: Vec<StrategySpec> =
                    specs.iter().filter(|s| !adversary.contains(s)).cloned().collect();
                adversary.extend(new);
                specs
            }
        };
        Ok(MinmaxJob {
            runs: self.runs.unwrap_or(runs),
            max_total_runs: self.max_total_runs,
            iterations: self.iterations,
            party,
            adversary,
            llm_adversaries: self.llm_adversaries,
            llm_proposals,
        })
    }
}

/// The `minmax` job, decided: its runs and its strategies known, the LLM's
/// proposals among the adversary candidates.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MinmaxJob {
    /// Runs per cell.
    pub runs: u64,
    /// Most runs the job may spend.
    pub max_total_runs: Option<u64>,
    /// Most iterations.
    pub iterations: u32,
    /// Party candidates (the first starts).
    pub party: Vec<StrategySpec>,
    /// Adversary candidates (the first starts), the LLM's proposals included.
    pub adversary: Vec<StrategySpec>,
    /// Adversary specs asked of the LLM (checked: 1 to `MAX_PROPOSALS`).
    pub llm_adversaries: Option<usize>,
    /// The LLM's proposals (already in `adversary`).
    pub llm_proposals: Vec<StrategySpec>,
}

fn default_iterations() -> u32 {
    3
}

impl MinmaxJob {
    /// The most runs the job can plan.
    pub fn worst_case_runs(&self) -> u64 {
        u64::from(self.iterations)
            .saturating_mul((self.party.len() + self.adversary.len()) as u64)
            .saturating_mul(self.runs)
    }

    /// Checks the job before anything runs.
    pub fn check(&self) -> Result<(), JobError> {
        if self.party.is_empty() || self.adversary.is_empty() {
            return Err(JobError::invalid("minmax", "party and adversary need at least one candidate"));
        }
        if self.iterations == 0 {
            return Err(JobError::invalid("minmax", "iterations must be at least 1"));
        }
        if let Some(n) = self.llm_adversaries
            && !(1..=pf1e_llm::MAX_PROPOSALS).contains(&n)
        {
            return Err(JobError::invalid(
                "minmax",
                format!("llm_adversaries: ask for 1 to {} strategies, not {n}", pf1e_llm::MAX_PROPOSALS),
            ));
        }
        if let Some(max) = self.max_total_runs
            && self.worst_case_runs() > max
        {
            return Err(JobError::OverBudget {
                job: "minmax",
                plan: format!(
                    "{} iterations over {} candidates",
                    self.iterations,
                    self.party.len() + self.adversary.len()
                ),
                runs: self.worst_case_runs(),
                max,
            });
        }
        Ok(())
    }
}

#[derive(Debug, Clone)]
struct Iteration {
    party: usize,
    adversary: usize,
    metrics: CellMetrics,
    party_tied: Vec<usize>,
    adversary_tied: Vec<usize>,
}

/// The criteria of a best response, in order.
const CHAIN: [Criterion; 2] = [Criterion::PSurvives, Criterion::ExpectedHpLost];

/// How candidate `a` compares with `b` for the side choosing (`party`:
/// better for the party; else worse for it): the first criterion of
/// [`CHAIN`] on which the paired comparison at `z` tells them apart decides.
fn versus(a: &CellMetrics, b: &CellMetrics, party: bool, z: f64) -> Sign {
    for c in CHAIN {
        let s = match (compare(a, b, c, z), party) {
            (s, true) | (s @ Sign::Tied, false) => s,
            (Sign::Greater, false) => Sign::Less,
            (Sign::Less, false) => Sign::Greater,
        };
        if s != Sign::Tied {
            return s;
        }
    }
    Sign::Tied
}

/// The point-estimate best candidate for the side choosing, then by name.
fn point_best(ms: &[CellMetrics], names: &[&str], party: bool) -> usize {
    (0..ms.len())
        .min_by(|&a, &b| {
            let (x, y) = (&ms[a].party, &ms[b].party);
            let order = if party {
                cmp_f64(y.p_survives, x.p_survives).then(cmp_f64(x.expected_hp_lost, y.expected_hp_lost))
            } else {
                cmp_f64(x.p_survives, y.p_survives).then(cmp_f64(y.expected_hp_lost, x.expected_hp_lost))
            };
            order.then(names[a].cmp(names[b]))
        })
        .unwrap_or(0)
}

/// A best response: the point-estimate leader when it is significantly
/// better than the `incumbent`, else the incumbent; and the candidates
/// statistically tied with the choice.
fn best_response(
    ms: &[CellMetrics],
    names: &[&str],
    incumbent: usize,
    party: bool,
    z: f64,
) -> (usize, Vec<usize>) {
    let leader = point_best(ms, names, party);
    let incumbent = incumbent.min(ms.len().saturating_sub(1));
    let chosen = if leader != incumbent && versus(&ms[leader], &ms[incumbent], party, z) != Sign::Greater {
        incumbent
    } else {
        leader
    };
    let tied = (0..ms.len())
        .filter(|&k| k != chosen && versus(&ms[k], &ms[chosen], party, z) == Sign::Tied)
        .collect();
    (chosen, tied)
}

/// The minmax planner.
pub struct Minmax {
    ctx: JobContext,
    job: MinmaxJob,
    party: usize,
    adversary: usize,
    /// Party candidates tied with the party's choice of this iteration.
    party_tied: Vec<usize>,
    /// Whose turn the batch in flight is (true: party), and its results.
    turn: Option<bool>,
    results: Vec<Option<CellMetrics>>,
    base: usize,
    next_index: usize,
    iterations: Vec<Iteration>,
    done: bool,
}

impl Minmax {
    /// The planner of `job`.
    pub fn new(ctx: JobContext, job: MinmaxJob) -> Self {
        Self {
            ctx,
            job,
            party: 0,
            adversary: 0,
            party_tied: Vec::new(),
            turn: None,
            results: Vec::new(),
            base: 0,
            next_index: 0,
            iterations: Vec::new(),
            done: false,
        }
    }

    fn emit(&mut self, party_turn: bool) -> Step {
        let runs = self.job.runs;
        let cells: Vec<_> = if party_turn {
            self.job
                .party
                .iter()
                .map(|p| {
                    self.ctx.cell(
                        p,
                        &self.job.adversary[self.adversary],
                        HpFraction::FULL,
                        HpFraction::FULL,
                        runs,
                    )
                })
                .collect()
        } else {
            self.job
                .adversary
                .iter()
                .map(|a| {
                    self.ctx.cell(&self.job.party[self.party], a, HpFraction::FULL, HpFraction::FULL, runs)
                })
                .collect()
        };
        self.turn = Some(party_turn);
        self.base = self.next_index;
        self.next_index += cells.len();
        self.results = vec![None; cells.len()];
        Step::Emit(cells)
    }
}

impl MetricPlanner for Minmax {
    fn kind(&self) -> &'static str {
        "minmax"
    }

    fn step(&mut self) -> Step {
        if self.done {
            return Step::Done;
        }
        let Some(party_turn) = self.turn else { return self.emit(true) };
        if self.results.iter().any(Option::is_none) {
            return Step::Wait;
        }
        let ms: Vec<CellMetrics> = self.results.iter().flatten().cloned().collect();
        // One choice compares the incumbent with every other candidate.
        let z = self.ctx.confidence.bonferroni_z(ms.len().saturating_sub(1) as u64);
        if party_turn {
            let names: Vec<&str> = self.job.party.iter().map(StrategySpec::as_str).collect();
            (self.party, self.party_tied) = best_response(&ms, &names, self.party, true, z);
            return self.emit(false);
        }
        let names: Vec<&str> = self.job.adversary.iter().map(StrategySpec::as_str).collect();
        let adversary_tied;
        (self.adversary, adversary_tied) = best_response(&ms, &names, self.adversary, false, z);
        let same =
            self.iterations.last().is_some_and(|it| it.party == self.party && it.adversary == self.adversary);
        self.iterations.push(Iteration {
            party: self.party,
            adversary: self.adversary,
            metrics: ms[self.adversary].clone(),
            party_tied: std::mem::take(&mut self.party_tied),
            adversary_tied,
        });
        if same || self.iterations.len() as u32 >= self.job.iterations {
            self.done = true;
            return Step::Done;
        }
        self.emit(true)
    }

    fn consume_metrics(&mut self, index: usize, m: &CellMetrics) {
        if let Some(slot) = index.checked_sub(self.base).and_then(|i| self.results.get_mut(i)) {
            *slot = Some(m.clone());
        }
    }

    fn state(&self) -> PlannerState {
        let pending = self.results.iter().filter(|r| r.is_none()).count();
        PlannerState {
            phase: if self.done { "done".into() } else { format!("iteration {}", self.iterations.len() + 1) },
            cells: self.next_index as u64,
            measured: (self.next_index - pending) as u64,
        }
    }

    fn result(&self) -> JobResult {
        let n = self.iterations.len();
        JobResult::Minmax(MinmaxResult {
            converged: n >= 2
                && self.iterations.last().map(|l| (l.party, l.adversary))
                    == self.iterations.get(n - 2).map(|l| (l.party, l.adversary)),
            iterations: self
                .iterations
                .iter()
                .enumerate()
                .map(|(i, it)| MinmaxIteration {
                    iteration: i as u32 + 1,
                    party_strategy: self.job.party[it.party].as_str().to_string(),
                    adversary_strategy: self.job.adversary[it.adversary].as_str().to_string(),
                    party: it.metrics.party.clone(),
                    adversary: it.metrics.adversary.clone(),
                    party_tied: it
                        .party_tied
                        .iter()
                        .map(|&k| self.job.party[k].as_str().to_string())
                        .collect(),
                    adversary_tied: it
                        .adversary_tied
                        .iter()
                        .map(|&k| self.job.adversary[k].as_str().to_string())
                        .collect(),
                })
                .collect(),
            llm_proposals: self.job.llm_proposals.iter().map(|s| s.as_str().to_string()).collect(),
        })
    }

    fn progress(&self) -> Option<JobProgress> {
        let it = self.iterations.last()?;
        Some(JobProgress::Minmax {
            iteration: self.iterations.len() as u32,
            party_strategy: self.job.party[it.party].as_str().to_string(),
            adversary_strategy: self.job.adversary[it.adversary].as_str().to_string(),
            p_survives: it.metrics.party.p_survives,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cell::CellSpec;
    use crate::jobs::metrics::testing::{ctx, drive, metrics};

    fn specs(names: &[&str]) -> Vec<StrategySpec> {
        names.iter().map(|n| StrategySpec::parse(n).unwrap()).collect()
    }

    /// Known payoffs: the party is best with lowest_hp against anything;
    /// the adversary hurts most with weakest_ac.
    fn payoff(c: &CellSpec) -> CellMetrics {
        let p = match c.party_strategy.as_str() {
            "lowest_hp" => 0.8,
            _ => 0.6,
        } - match c.adversary_strategy.as_str() {
            "weakest_ac" => 0.3,
            "healer" => 0.1,
            _ => 0.0,
        };
        metrics(p, 10.0, c.runs)
    }

    #[test]
    fn best_responses_converge_and_stop_early() {
        let job = MinmaxJob {
            runs: 400,
            max_total_runs: None,
            iterations: 5,
            party: specs(&["default", "lowest_hp"]),
            adversary: specs(&["default", "weakest_ac", "healer"]),
            llm_adversaries: None,
            llm_proposals: vec![],
        };
        let mut m = Minmax::new(ctx(), job.clone());
        let cells = drive(&mut m, &payoff);
        let JobResult::Minmax(r) = m.result() else { panic!("a minmax result") };
        let its = &r.iterations;
        assert_eq!(its.len(), 2, "the second iteration keeps the pair: stop");
        assert_eq!(its[0].party_strategy, "lowest_hp");
        assert_eq!(its[0].adversary_strategy, "weakest_ac");
        assert_eq!(its[1].party_strategy, "lowest_hp");
        assert!(r.converged);
        assert_eq!(cells.len(), 2 * (2 + 3));
        assert!((cells.len() as u64) * 400 <= job.worst_case_runs());
        let e = MinmaxJob { max_total_runs: Some(100), ..job }.check().unwrap_err();
        assert!(e.to_string().contains("max_total_runs of 100"), "{e}");
    }

    #[test]
    fn a_best_response_leaves_the_incumbent_only_for_a_significant_difference() {
        // lowest_hp leads by two points: at 40 runs a tie, at 40,000 a difference.
        let near = |c: &CellSpec| {
            let p = if c.party_strategy.as_str() == "lowest_hp" { 0.62 } else { 0.60 };
            metrics(p, 10.0, c.runs)
        };
        let job = |runs| MinmaxJob {
            runs,
            max_total_runs: None,
            iterations: 3,
            party: specs(&["default", "lowest_hp"]),
            adversary: specs(&["default"]),
            llm_adversaries: None,
            llm_proposals: vec![],
        };
        let mut m = Minmax::new(ctx(), job(40));
        drive(&mut m, &near);
        let JobResult::Minmax(r) = m.result() else { panic!("a minmax result") };
        assert_eq!(r.iterations[0].party_strategy, "default", "the incumbent stays on a tie");
        assert_eq!(r.iterations[0].party_tied, vec!["lowest_hp".to_string()]);
        let mut m = Minmax::new(ctx(), job(40_000));
        drive(&mut m, &near);
        let JobResult::Minmax(r) = m.result() else { panic!("a minmax result") };
        assert_eq!(r.iterations[0].party_strategy, "lowest_hp", "a measured difference moves it");
        assert!(r.iterations[0].party_tied.is_empty());
    }
}
