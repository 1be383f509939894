//! The results of a sweep, typed: what every job found, cell by cell.
//!
//! These types are the public, stable shape of pf1e's answers. Serialized
//! with serde (JSON), they are the `results` member of `results.json`,
//! `pf1e run --json` and `pf1e ctl results --json`; on the wire they travel
//! as the typed messages of `proto/pf1e.proto` (conversions in
//! [`convert`]). The coordinator's planners produce them, the CLI renders
//! them, the dashboard and the LLM layer read them. A field is added, never
//! renamed or retyped: readers of older documents keep working.
//!
//! Rates and probabilities are in [0, 1]; hit-point fractions in (0, 1];
//! strategy specs are their canonical names (`lowest_hp, retreat=0.5`).

pub mod convert;
mod day;

use std::collections::BTreeMap;

pub use pf1e_engine::contribution::{Contribution, Without};
pub use pf1e_engine::difficulty::{Difficulty, FoeRating, Label as DifficultyLabel};
pub use pf1e_engine::objectives::{Criterion, DangerMetrics};
pub use pf1e_engine::party::Simulated;
use serde::{Deserialize, Serialize};

/// The results of a finished sweep.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SweepResults {
    /// Sweep name (from the sweep file).
    pub name: String,
    /// The seed every cell plays (common random numbers).
    pub seed: u64,
    /// The measured side.
    pub party: String,
    /// Engine rules version that played every battle.
    pub rules_version: String,
    /// Hex content hash of the scenario (map and combatants by content).
    pub scenario: String,
    /// One entry per job, in the order of the sweep file.
    pub jobs: Vec<JobReport>,
    /// What the LLM decided before planning (absent from the JSON when nothing).
    #[serde(default, skip_serializing_if = "LlmDecisions::is_empty")]
    pub llm: LlmDecisions,
    /// The encounter's difficulty by the book, from the party's side
    /// (absent from older documents and when the party is empty).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub difficulty: Option<Difficulty>,
    /// Display name of the scenario's map (empty in older documents).
    #[serde(default)]
    pub map: String,
    /// The simulated difficulty beside the book's: the encounter as written
    /// (both sides' default plans, full hit points) as measured for the
    /// party, derived from the sweep's [baseline cell](SweepResults::baseline)
    /// by [`SweepResults::measure_baseline`] (absent when no job measured
    /// that cell, and from older documents). Derived, so it does not travel
    /// on the wire: the conversion from proto derives it again.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub simulated: Option<SimulatedBaseline>,
}

/// The encounter as written as the simulation measured it for the party.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SimulatedBaseline {
    /// Battles of the baseline cell.
    pub runs: u64,
    /// Its figures: win, a PC dies, everyone down, hit points lost and
    /// resources spent per battle.
    #[serde(flatten)]
    pub figures: Simulated,
}

impl SweepResults {
    /// The cell that plays the encounter as written: both sides' default
    /// plans at full hit points (danger maps aside: their layers may change
    /// awareness or add foes at full hit points too; and design jobs, whose
    /// cells each play another group of monsters, and days, whose cells
    /// play a chain of fights).
    pub fn baseline(&self) -> Option<&CellReport> {
        let plays_as_written = |j: &&JobReport| {
            !matches!(j.result, JobResult::DangerMap(_) | JobResult::Design(_) | JobResult::Day(_))
        };
        self.jobs.iter().filter(plays_as_written).flat_map(|j| &j.cells).find(|c| {
            c.party_strategy == "default"
                && c.adversary_strategy == "default"
                && c.runs > 0
                && c.hp.values().all(|&f| f == 1.0)
        })
    }

    /// The party's figures in the [baseline cell](Self::baseline).
    pub fn measure_baseline(&self) -> Option<SimulatedBaseline> {
        let c = self.baseline()?;
        let members = || c.combatants.iter().filter(|m| m.side == self.party);
        let start: i64 = members().map(|m| i64::from(m.start_hp.max(0))).sum();
        let (slots, uses, items) = members().fold((0u64, 0u64, 0u64), |(s, u, i), m| {
            (s + m.slots_spent, u + m.uses_spent, i + m.items_spent)
        });
        let per_battle = |n: u64| n as f64 / c.runs as f64;
        Some(SimulatedBaseline {
            runs: c.runs,
            figures: Simulated {
                p_win: c.party_win_rate,
                p_pc_dies: c.party_death_rate,
                p_all_down: c.party_all_down_rate,
                p_fled: c.party_fled_rate,
                hp_lost: c.party_hp_lost.mean,
                hp_lost_share: if start == 0 { 0.0 } else { c.party_hp_lost.mean / start as f64 },
                slots_spent: per_battle(slots),
                uses_spent: per_battle(uses),
                items_spent: per_battle(items),
            },
        })
    }
}

/// What the LLM layer decided before any cell was planned: the strategies
/// written as sentences and the strategies it proposed. Journaled with the
/// sweep, so a resumed sweep plans the same cells and calls no model.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct LlmDecisions {
    /// Every sentence (`{ nl: "..." }`) with the strategy it compiled to.
    #[serde(default)]
    pub strategies: Vec<NlStrategy>,
    /// Every job's proposals (`llm_candidates`, `llm_adversaries`).
    #[serde(default)]
    pub proposals: Vec<LlmProposals>,
}

impl LlmDecisions {
    /// Whether the LLM decided nothing.
    pub fn is_empty(&self) -> bool {
        self.strategies.is_empty() && self.proposals.is_empty()
    }

    /// The sentence a strategy of `side` was compiled from, if any.
    pub fn sentence_of(&self, side: &str, strategy: &str) -> Option<&str> {
        self.strategies.iter().find(|s| s.side == side && s.strategy == strategy).map(|s| s.sentence.as_str())
    }
}

/// A strategy written as a sentence, and what it compiled to.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct NlStrategy {
    /// `party` or `adversary`.
    pub side: String,
    /// The sentence, as written.
    pub sentence: String,
    /// Its canonical strategy name.
    pub strategy: String,
    /// The model that compiled it.
    pub model: String,
    /// The prompt version it was compiled with.
    pub prompt_version: String,
    /// Model answers read (1 without repair).
    pub answers: u32,
}

/// The strategies the model proposed for one job.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct LlmProposals {
    /// Index of the job in the sweep file (0 for the first).
    pub job: u32,
    /// The prompt: `candidates` (optimize) or `red_team` (minmax).
    pub prompt: String,
    /// `party` or `adversary`.
    pub side: String,
    /// Strategies asked for.
    pub asked: u32,
    /// New strategies, by canonical name, in the model's order.
    pub strategies: Vec<String>,
    /// Proposed strategies already known (or repeated), dropped.
    pub duplicates: Vec<String>,
    /// The model.
    pub model: String,
    /// The prompt version.
    pub prompt_version: String,
    /// Model answers read (1 without repair).
    pub answers: u32,
}

/// One job's answer and the cells it measured.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct JobReport {
    /// The job's own result, tagged by kind (`"kind"` and `"result"` in JSON).
    #[serde(flatten)]
    pub result: JobResult,
    /// Every cell the job measured, in the order it asked for them.
    pub cells: Vec<CellReport>,
}

/// A job's own result. In JSON: `"kind": "<job kind>", "result": {...}`
/// (`null` for a grid, whose cells are its result).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", content = "result", rename_all = "snake_case")]
pub enum JobResult {
    /// A cartesian grid.
    Grid(()),
    /// The party's best plan.
    Optimize(OptimizeResult),
    /// Alternating best responses.
    Minmax(MinmaxResult),
    /// Danger over party × adversary hit points.
    DangerMap(DangerMapResult),
    /// The party hit points where danger crosses a target.
    Frontier(FrontierResult),
    /// Which adversary lever matters.
    Sensitivity(SensitivityResult),
    /// Who carries the fight.
    Contribution(ContributionResult),
    /// Encounters whose simulated danger hits a target.
    Design(DesignResult),
    /// An adventuring day played many times.
    Day(DayResult),
}

impl JobResult {
    /// The job kind as written in the sweep file.
    pub fn kind(&self) -> &'static str {
        match self {
            JobResult::Grid(()) => "grid",
            JobResult::Optimize(_) => "optimize",
            JobResult::Minmax(_) => "minmax",
            JobResult::DangerMap(_) => "danger_map",
            JobResult::Frontier(_) => "frontier",
            JobResult::Sensitivity(_) => "sensitivity",
            JobResult::Contribution(_) => "contribution",
            JobResult::Day(_) => "day",
            JobResult::Design(_) => "design",
        }
    }
}

/// One measured cell: a scenario variant, two strategies, runs and a seed.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CellReport {
    /// Index of the cell in its job.
    pub index: u64,
    /// Strategy of the party.
    pub party_strategy: String,
    /// Strategy of every other side.
    pub adversary_strategy: String,
    /// Starting hit-point fraction of each side.
    pub hp: BTreeMap<String, f64>,
    /// Seed of the cell.
    pub seed: u64,
    /// Battles played.
    pub runs: u64,
    /// Battles won by each side.
    pub wins: BTreeMap<String, u64>,
    /// Battles without a winner.
    pub draws: u64,
    /// Share of battles the party won.
    pub party_win_rate: f64,
    /// 3σ band of `party_win_rate`, `[low, high]`.
    pub party_win_band: [f64; 2],
    /// Share of battles that ended with every party member down: dying
    /// (below 0 hit points) or dead (what a table calls a TPK).
    pub party_all_down_rate: f64,
    /// Share of battles that ended with some party member dead (0 in
    /// documents older than the field).
    #[serde(default)]
    pub party_death_rate: f64,
    /// Share of battles the party fled: another side won and a party member
    /// left the battle alive (`pf1e_engine::party::party_fled`; 0 in
    /// documents older than the field, and for a day cell, whose withdrawals
    /// are the day report's).
    #[serde(default)]
    pub party_fled_rate: f64,
    /// Mean rounds per battle.
    pub mean_rounds: f64,
    /// Hit points lost by the party per battle.
    pub party_hp_lost: HpLost,
    /// Every combatant, in encounter order.
    pub combatants: Vec<CombatantReport>,
}

/// The party's hit points lost per battle: Σ (start − max(final, 0)) over its members.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct HpLost {
    /// Mean.
    pub mean: f64,
    /// Median (nearest rank).
    pub p50: i64,
    /// 90th percentile (nearest rank).
    pub p90: i64,
    /// Largest.
    pub max: i64,
}

/// One combatant's totals over the runs of a cell.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CombatantReport {
    /// Unique id in the encounter.
    pub id: String,
    /// Side name.
    pub side: String,
    /// Maximum hit points.
    pub hp_max: i32,
    /// Hit points at the start of each battle.
    pub start_hp: i32,
    /// Mean final hit points (negative when dying or dead).
    pub mean_final_hp: f64,
    /// Battles it ended dead.
    pub deaths: u64,
    /// Attacks that hit.
    pub hits: u64,
    /// Confirmed critical hits.
    pub crits: u64,
    /// Damage dealt.
    pub damage_dealt: u64,
    /// Damage taken.
    pub damage_taken: u64,
    /// Hit points restored to others.
    pub healing_given: u64,
    /// Spell slots spent, summed over the runs (absent from older documents).
    #[serde(default)]
    pub slots_spent: u64,
    /// Class-ability uses spent, summed over the runs.
    #[serde(default)]
    pub uses_spent: u64,
    /// Consumables spent (potions, wand charges), summed over the runs.
    #[serde(default)]
    pub items_spent: u64,
}

/// Where an `optimize` entry was first measured.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Stage {
    /// The coarse grid of levers.
    Grid,
    /// Retreat thresholds tried on the best grid cells.
    Refine,
    /// A candidate of the sweep file.
    Candidate,
    /// A candidate proposed by the LLM (`llm_candidates`).
    LlmProposal,
    /// A point proposed by the Bayesian search of the lever ranges.
    Search,
}

/// How a plan stands against the outcome constraints of an `optimize` job,
/// from its point estimates and intervals (at the job's confidence).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ConstraintStatus {
    /// Every constraint holds over its whole interval.
    Met,
    /// Every point estimate holds; some interval straddles a bound.
    Likely,
    /// Some point estimate fails; no interval lies wholly on the wrong side.
    Unlikely,
    /// Some interval lies wholly on the wrong side of its bound.
    Violated,
}

impl ConstraintStatus {
    /// Whether the point estimates meet every constraint: the plans ranked first.
    pub fn feasible(self) -> bool {
        matches!(self, ConstraintStatus::Met | ConstraintStatus::Likely)
    }
}

/// `optimize`: the ranked playbook of the party against one adversary.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct OptimizeResult {
    /// The adversary's strategy.
    pub adversary_strategy: String,
    /// Battles the job played (racing included).
    pub spent_runs: u64,
    /// Every measured strategy, best first.
    pub playbook: Vec<PlaybookEntry>,
    /// The criterion the playbook is ranked by; ties on it (paired, at the
    /// adjusted level) are broken toward fewer wipes, then fewer deaths,
    /// then fewer hit points lost.
    #[serde(default = "default_objective")]
    pub objective: Criterion,
    /// The family confidence level of the comparisons with the leader.
    #[serde(default)]
    pub confidence: f64,
    /// The Bonferroni-adjusted normal quantile of each paired comparison.
    #[serde(default)]
    pub comparison_z: f64,
    /// Comparisons the adjustment covers (contenders × looks).
    #[serde(default)]
    pub comparisons: u64,
    /// No measured plan kept every party member alive in any run: rank 1 is
    /// then only the least bad.
    #[serde(default)]
    pub none_survives: bool,
    /// When none survives, the least bad plan (rank 1).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub least_bad: Option<String>,
    /// The levers that matter: for at least one pair of measured plans that
    /// differ in that lever alone, the paired difference on the objective
    /// is significant (Bonferroni over the pairs tested). Sorted by name.
    #[serde(default)]
    pub levers_that_matter: Vec<String>,
    /// The criteria of the Pareto front ([`PlaybookEntry::pareto`]).
    #[serde(default)]
    pub pareto_criteria: Vec<Criterion>,
    /// The outcome constraints, written canonically (`p_tpk <= 0.02`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub constraints: Vec<String>,
    /// Constraints were given and no measured plan meets them at its point
    /// estimates: rank 1 is then the best of the plans that do not.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub none_feasible: bool,
    /// The Bayesian search of the job's lever ranges (`ranges:`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub search: Option<SearchResult>,
    /// The levers' first-order shares of the variance of the objective over
    /// the grid's cells (a functional ANOVA of the full factorial).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub importance: Option<Importance>,
}

/// Lever importance: a functional ANOVA of the `optimize` grid (a full
/// factorial), on the job's objective.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Importance {
    /// Cells of the grid.
    pub cells: u64,
    /// Each varied lever, largest share first.
    pub levers: Vec<LeverImportance>,
    /// The share no single lever explains.
    pub interactions: f64,
}

/// One lever's first-order share of the variance.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct LeverImportance {
    /// The lever.
    pub lever: String,
    /// Its main effect's share of the variance of the objective.
    pub share: f64,
    /// The share measurement noise alone would give (independent errors).
    pub noise: f64,
    /// Whether its change alone moved the objective significantly (paired).
    pub significant: bool,
}

/// The Bayesian search of an `optimize` job's continuous (or integer)
/// lever ranges: every point of the searched slice (the base strategy with
/// the ranged levers moved), the best after re-measurement and how it
/// compares with the best value measured outside the search.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SearchResult {
    /// The ranges as written (`retreat: [0, 0.9]`).
    pub ranges: Vec<String>,
    /// The levers searched, in the order of [`SearchPoint::values`].
    pub levers: Vec<String>,
    /// The strategy the other levers come from (the discrete leader).
    pub base: String,
    /// Batches proposed.
    pub batches: u32,
    /// Points per batch.
    pub points_per_batch: u32,
    /// Runs the search spent (its points and the re-measurements).
    pub spent_runs: u64,
    /// Every measured point of the slice, in the order measured.
    pub points: Vec<SearchPoint>,
    /// The best re-measured point (the staged paired ranking among them).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub best: Option<String>,
    /// The best point against the best one measured outside the search.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub vs_grid: Option<SearchVersus>,
    /// The ranged levers' first-order shares of the variance of the
    /// Gaussian process's posterior mean over the ranges.
    /// (Boxed: it keeps the optimize result, and every job result, small.)
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub importance: Option<Box<RangeImportance>>,
    /// The criteria whose Pareto front the search proposed points for
    /// (random Chebyshev scalarisations, ParEGO); empty when it proposed
    /// points for the objective alone.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub pareto: Vec<Criterion>,
}

/// Lever importance for the levers searched as ranges: a functional ANOVA
/// of the search's Gaussian process (its posterior mean integrated over
/// the other ranges on a fixed grid design), on the job's objective.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RangeImportance {
    /// Measured points the process was fitted on.
    pub points: u64,
    /// Points of the design the mean was integrated on.
    pub design: u64,
    /// Each ranged lever, largest share first.
    pub levers: Vec<RangeLeverImportance>,
    /// The share no single ranged lever explains.
    pub interactions: f64,
    /// The standard deviation of the posterior mean over the ranges (the
    /// objective's units): how much the ranges move the objective at all.
    pub spread: f64,
    /// The mean posterior standard deviation over the ranges.
    pub uncertainty: f64,
}

/// One ranged lever's first-order share of the surrogate's variance.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RangeLeverImportance {
    /// The lever.
    pub lever: String,
    /// Its main effect's share of the variance of the posterior mean.
    pub share: f64,
    /// The share the measurements' noise alone would give (independent
    /// errors, the fitted hyperparameters).
    pub noise: f64,
}

/// One measured point of a search's slice.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SearchPoint {
    /// The strategy.
    pub strategy: String,
    /// The values of the searched levers.
    pub values: Vec<f64>,
    /// Its batch (1 for the first); 0 for a point measured before the search.
    pub batch: u32,
    /// Runs of its measurement.
    pub runs: u64,
    /// The objective's estimate.
    pub objective: f64,
    /// Its interval at the sweep's level.
    pub interval: [f64; 2],
    /// The Gaussian process's posterior mean of the objective at the end.
    pub posterior: f64,
    /// Re-measured at the end.
    pub confirmed: bool,
    /// On the Pareto front of the searched points (the job's `pareto`
    /// criteria, the same dominance as the playbook's): only when the
    /// search proposed points for the front.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub front: bool,
}

/// The search's best point against the best value measured outside it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SearchVersus {
    /// The best plan of the slice measured outside the search.
    pub strategy: String,
    /// The paired difference on the objective (search's best − it).
    pub delta: PairedDelta,
    /// Whether the difference is significant at the job's adjusted level.
    pub significant: bool,
}

fn default_objective() -> Criterion {
    Criterion::PSurvives
}

/// A paired difference of a plan with the leader on the ranking objective,
/// over the runs both measured (the same dice).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PairedDelta {
    /// Runs paired.
    pub runs: u64,
    /// Mean of the per-run differences (this plan − the leader).
    pub mean: f64,
    /// Its interval at the adjusted quantile.
    pub interval: [f64; 2],
}

/// A ranked strategy of the playbook.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PlaybookEntry {
    /// 1 for the best.
    pub rank: u64,
    /// The party's strategy.
    pub strategy: String,
    /// Where it was first measured.
    pub stage: Stage,
    /// Battles of its largest measurement.
    pub runs: u64,
    /// Racing rounds it took part in.
    pub raced: u32,
    /// Whether it cannot be told from the leader on the ranking objective:
    /// its paired difference is not significant at the adjusted level.
    pub tied_with_leader: bool,
    /// The party's danger.
    pub party: DangerMetrics,
    /// The adversary's danger.
    pub adversary: DangerMetrics,
    /// The strategy it played identically with (every statistic equal over
    /// the same runs under common random numbers: inert levers), when it did.
    /// It then shares that strategy's rank, is measured further only through
    /// it, and keeps its own (smaller) measurement here.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub same_as: Option<String>,
    /// Its paired difference with the leader on the objective (none for
    /// the leader, its twins, or a plan without per-run records).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub vs_leader: Option<PairedDelta>,
    /// On the Pareto front of the job's `pareto_criteria`: no other plan
    /// (among those meeting the constraints, when some do) is at least as
    /// good on every criterion by point estimate and significantly better
    /// on one (paired, at the adjusted level). Members of a group of
    /// identical play share their group's.
    #[serde(default)]
    pub pareto: bool,
    /// Against the outcome constraints; none when the job has none.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub constraints: Option<ConstraintStatus>,
}

/// `minmax`: alternating best responses.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct MinmaxResult {
    /// Whether the last iteration kept the previous pair.
    pub converged: bool,
    /// Every iteration, in order.
    pub iterations: Vec<MinmaxIteration>,
    /// Adversary candidates proposed by the LLM (`llm_adversaries`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub llm_proposals: Vec<String>,
}

/// One iteration: the party's best response, then the adversary's.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct MinmaxIteration {
    /// 1 for the first.
    pub iteration: u32,
    /// The party's best strategy against the previous adversary.
    pub party_strategy: String,
    /// The adversary's strategy worst for that party.
    pub adversary_strategy: String,
    /// The party's danger in that pairing.
    pub party: DangerMetrics,
    /// The adversary's danger in that pairing.
    pub adversary: DangerMetrics,
    /// Party candidates statistically tied with the chosen one (paired, on
    /// every criterion at the job's confidence): the choice among them is
    /// the incumbent's, not a measured difference.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub party_tied: Vec<String>,
    /// Adversary candidates statistically tied with the chosen one.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub adversary_tied: Vec<String>,
}

/// `danger_map`: both sides' danger over party × adversary hit points.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct DangerMapResult {
    /// The party criterion that drives refinement.
    pub criterion: Criterion,
    /// Its danger threshold.
    pub threshold: f64,
    /// The party's strategy.
    pub party_strategy: String,
    /// The adversary's strategy.
    pub adversary_strategy: String,
    /// Refinement levels asked for.
    pub depth: u32,
    /// The first layer's points (repeated from `layers`, for readers of one map).
    pub points: Vec<DangerPoint>,
    /// The first layer's squares (repeated from `layers`).
    pub squares: Vec<DangerSquare>,
    /// One map per combination of the extra axes (one without them).
    pub layers: Vec<DangerLayer>,
}

impl DangerMapResult {
    /// A result whose top-level `points` and `squares` repeat the first layer's.
    pub fn new(
        criterion: Criterion,
        threshold: f64,
        party_strategy: String,
        adversary_strategy: String,
        depth: u32,
        layers: Vec<DangerLayer>,
    ) -> Self {
        let (points, squares) =
            layers.first().map(|l| (l.points.clone(), l.squares.clone())).unwrap_or_default();
        Self { criterion, threshold, party_strategy, adversary_strategy, depth, points, squares, layers }
    }
}

/// One map of a `danger_map` job: one combination of the extra axes.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct DangerLayer {
    /// Awareness override per side (sides not listed: as in the files).
    pub aware: BTreeMap<String, bool>,
    /// Extra copies per side: base combatant ids, one per copy.
    pub copies: BTreeMap<String, Vec<String>>,
    /// Measured points.
    pub points: Vec<DangerPoint>,
    /// The squares between points, after refinement.
    pub squares: Vec<DangerSquare>,
    /// `[party_hp, adversary_hp]` of the point whose interval lies beyond
    /// every other point's toward danger; `None` when no point is
    /// significantly the most dangerous.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub most_dangerous: Option<[f64; 2]>,
}

/// A measured point of a danger map.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct DangerPoint {
    /// The party's starting hit-point fraction.
    pub party_hp: f64,
    /// Every other side's starting hit-point fraction.
    pub adversary_hp: f64,
    /// Refinement level that measured it (0: the grid).
    pub level: u32,
    /// The criterion's value for the party.
    pub value: f64,
    /// Whether the value crossed the threshold toward danger.
    pub crossed: bool,
    /// The party's danger.
    pub party: DangerMetrics,
    /// The adversary's danger.
    pub adversary: DangerMetrics,
    /// The criterion's interval at the sweep's confidence level.
    #[serde(default)]
    pub interval: [f64; 2],
    /// Whether the interval still straddles the threshold after resampling:
    /// `crossed` is then only the point estimate's side.
    #[serde(default)]
    pub undecided: bool,
    /// Times the point was measured again with twice the runs.
    #[serde(default)]
    pub resampled: u32,
}

/// A square of a danger map: `[low, high]` of both fractions.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct DangerSquare {
    /// Party hit-point fractions.
    pub party_hp: [f64; 2],
    /// Adversary hit-point fractions.
    pub adversary_hp: [f64; 2],
    /// Refinement level.
    pub level: u32,
}

/// On which side of a frontier the criterion crosses its target.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Crossing {
    /// At this party fraction and below (danger grows as hit points fall).
    AtOrBelow,
    /// At this fraction and above.
    AtOrAbove,
    /// Over the whole probed range.
    Everywhere,
}

/// `frontier`: the party hit-point fraction where a criterion crosses a target.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct FrontierResult {
    /// The party criterion.
    pub criterion: Criterion,
    /// Its target.
    pub target: f64,
    /// The party's strategy.
    pub party_strategy: String,
    /// The adversary's strategy.
    pub adversary_strategy: String,
    /// Lowest fraction probed.
    pub min_fraction: f64,
    /// Highest fraction probed.
    pub max_fraction: f64,
    /// Resolution of the answer.
    pub precision: f64,
    /// The answer; `None` when neither end crossed (no frontier).
    pub fraction: Option<f64>,
    /// Which side of `fraction` crosses; `None` with no frontier.
    pub crossed: Option<Crossing>,
    /// Every probe, in order.
    pub probes: Vec<FrontierProbe>,
    /// Every crossing found, lowest fraction first (`fraction` and
    /// `crossed` repeat the highest one: the first met as hit points fall).
    #[serde(default)]
    pub crossings: Vec<FrontierCrossing>,
    /// Whether danger changes side at most once over the probed range.
    #[serde(default = "yes")]
    pub monotone: bool,
}

fn yes() -> bool {
    true
}

/// One crossing of a frontier.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct FrontierCrossing {
    /// The fraction, on the precision grid, on the crossing side.
    pub fraction: f64,
    /// Which side of it crosses.
    pub crossed: Crossing,
    /// Whether a probe bracketing it stayed undecided (its interval
    /// straddles the target): the crossing may be noise.
    pub undecided: bool,
}

/// A probe of a frontier.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct FrontierProbe {
    /// The party's starting hit-point fraction.
    pub party_hp: f64,
    /// The criterion's value.
    pub value: f64,
    /// Whether it crossed the target (point estimate).
    pub crossed: bool,
    /// The criterion's interval at the sweep's confidence level.
    #[serde(default)]
    pub interval: [f64; 2],
    /// Whether the interval straddles the target.
    #[serde(default)]
    pub undecided: bool,
    /// Runs of its largest measurement.
    #[serde(default)]
    pub runs: u64,
}

/// `contribution`: who carries the fight. Each combatant's damage per round,
/// healing and conditions inflicted per battle in the full encounter, and
/// the party's win rate and P(a PC dies) in the encounter played without
/// it, paired run by run with the full one.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ContributionResult {
    /// The measured side (whose win rate and deaths the removals change).
    pub party: String,
    /// The party's strategy.
    pub party_strategy: String,
    /// The other sides' strategy.
    pub adversary_strategy: String,
    /// Every combatant of the full encounter, in encounter order (empty
    /// until the full encounter is measured).
    pub combatants: Vec<Contribution>,
    /// The family confidence level of the removal tests.
    pub confidence: f64,
    /// The Bonferroni-adjusted quantile of each removal's paired intervals.
    pub comparison_z: f64,
}

/// `day`: an adventuring day (`docs/days.md`) played many times: how often
/// the party completes it, who dies and where, what it has left before each
/// fight, and its plans compared with the day as written.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct DayResult {
    /// Seed of the days: day `i` uses the streams derived from (seed, i).
    pub seed: u64,
    /// The figures of the day as written.
    #[serde(flatten)]
    pub summary: pf1e_engine::day::summary::DaySummary,
    /// The plans, best first, the day as written among them (empty when
    /// the day file writes none).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub plans: Vec<pf1e_engine::day::plan::PlanResult>,
}

/// `design`: candidate groups drawn from a pool of monsters within a window
/// of the book's CR, raced against a target band on the party's simulated
/// danger. The candidates inside the band are the proposals, ranked.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct DesignResult {
    /// The measured side.
    pub party: String,
    /// The side the pool fills.
    pub side: String,
    /// The party's average level by the book.
    pub apl: i32,
    /// The target: every band must hold.
    pub target: Vec<TargetBand>,
    /// The book label the target was written as, if it was.
    pub label: Option<DifficultyLabel>,
    /// The candidates' encounter CR − APL, lowest and highest allowed.
    pub window: [i32; 2],
    /// The pool's files (paths as the sweep file resolves them), pool order.
    pub pool: Vec<String>,
    /// Groups of the pool inside the window (the candidates are a sample of
    /// them when there are more than the job races).
    pub groups_in_window: u64,
    /// The confidence level of every interval.
    pub confidence: f64,
    /// Every candidate measured: the proposals (inside the band) first, by
    /// rank, then the others.
    pub candidates: Vec<DesignCandidate>,
}

pf1e_engine::named_enum! {
    /// A metric the design job can target.
    DesignMetric {
        /// P(some party member dies).
        PSomePcDies => "p_some_pc_dies",
        /// P(every party member down).
        PTpk => "p_tpk",
        /// Share of the party's starting hit points lost per battle.
        HpLost => "hp_lost",
        /// The party's win rate.
        PWin => "p_win",
    }
}

/// One band of a design target: `low ≤ metric ≤ high`.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct TargetBand {
    /// The metric.
    pub metric: DesignMetric,
    /// Lowest value inside.
    pub low: f64,
    /// Highest value inside.
    pub high: f64,
}

/// One kind of monster in a candidate group.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct DesignMember {
    /// Its file (as the sweep file resolves it).
    pub file: String,
    /// Its id in the pool.
    pub id: String,
    /// How many.
    pub count: u32,
    /// Its CR as rated.
    pub cr: String,
}

/// A candidate group and what the simulation measured of it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct DesignCandidate {
    /// 1 for the best proposal; 0 for a candidate outside the band.
    pub rank: u64,
    /// Every band holds at the point estimates: a proposal.
    pub inside: bool,
    /// Every band holds over the whole interval of its metric.
    pub confirmed: bool,
    /// Racing stopped measuring it: some interval lay wholly outside its band.
    pub dropped: bool,
    /// The bands its point estimates miss.
    pub misses: Vec<DesignMetric>,
    /// The group, one entry per kind.
    pub members: Vec<DesignMember>,
    /// One file per monster, ready for `pf1e sim`.
    pub files: Vec<String>,
    /// The monsters' starting hit points, a fraction of their maximum.
    pub hp_fraction: f64,
    /// Total XP by the book.
    pub xp: u64,
    /// Encounter CR by the book.
    pub cr: Option<String>,
    /// Encounter CR − APL.
    pub cr_minus_apl: Option<i32>,
    /// The book's label.
    pub book: Option<DifficultyLabel>,
    /// The label the simulated danger earns (`docs/designer.md`).
    pub simulated: DifficultyLabel,
    /// The party's danger, with intervals at the sweep's level.
    pub party: DangerMetrics,
    /// Share of the party's starting hit points lost per battle.
    pub hp_lost_share: f64,
    /// Its interval.
    pub hp_lost_share_interval: [f64; 2],
    /// The battle worth reading (a proposal's only): the middle battle of
    /// its worst decile by the party's hit points lost.
    #[serde(default)]
    pub worth_reading: Option<DesignBattle>,
    /// The party's best plan against it (the first proposals only).
    #[serde(default)]
    pub plan: Option<DesignPlan>,
}

/// A proposal's battle worth reading and how to replay it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct DesignBattle {
    /// Its run index in the proposal's measurement.
    pub run: u64,
    /// Runs of that measurement.
    pub runs: u64,
    /// Hit points the party lost in it.
    pub hp_lost: u64,
    /// A member of the party died in it.
    pub some_death: bool,
    /// Every member of the party was down in it.
    pub all_down: bool,
    /// The `pf1e sim` command that plays the proposal again and prints this
    /// battle (paths as the sweep file writes them, from its folder); empty
    /// when the scenario cannot be written as one.
    pub command: String,
}

/// The best party plan found for a proposal: the single-lever strategy of
/// the party with the lowest P(some PC dies), paired with the proposal's own
/// battles.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct DesignPlan {
    /// The plan's canonical name (the party's own strategy when no variant
    /// does better).
    pub strategy: String,
    /// Whether a variant does better than the party's own strategy.
    pub better: bool,
    /// P(some PC dies) with it.
    pub p_some_pc_dies: f64,
    /// Its interval.
    pub p_some_pc_dies_interval: [f64; 2],
    /// Its change against the proposal's own battles (negative: safer).
    pub change: f64,
    /// The paired interval of the change (Bonferroni over the plans measured).
    pub change_interval: [f64; 2],
    /// The interval of the change excludes zero.
    pub told_apart: bool,
    /// Plans measured.
    pub measured: u32,
}

/// `sensitivity`: single-lever adversary variants, ranked by their effect.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SensitivityResult {
    /// The party criterion.
    pub criterion: Criterion,
    /// The party's strategy.
    pub party_strategy: String,
    /// The criterion against the default adversary, once measured.
    pub baseline: Option<f64>,
    /// The variants: the significant changes first, largest absolute
    /// change first within each part.
    pub levers: Vec<SensitivityLever>,
    /// The family confidence level of the lever tests.
    #[serde(default)]
    pub confidence: f64,
    /// The Bonferroni-adjusted quantile of each lever's paired interval
    /// (over the variants measured).
    #[serde(default)]
    pub comparison_z: f64,
}

/// A single-lever adversary variant and its effect.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SensitivityLever {
    /// 1 for the largest effect.
    pub rank: u64,
    /// The adversary's strategy.
    pub adversary_strategy: String,
    /// The criterion against it.
    pub value: f64,
    /// `value − baseline`.
    pub delta: f64,
    /// The party's danger.
    pub party: DangerMetrics,
    /// The paired interval of `delta` (the same dice against both
    /// adversaries), at the adjusted quantile.
    #[serde(default)]
    pub delta_interval: [f64; 2],
    /// Whether `delta` is significant: the lever matters.
    #[serde(default)]
    pub significant: bool,
}

/// Partial results of a running analysis job, for progress displays.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum JobProgress {
    /// The best strategies so far.
    Optimize {
        /// Best first, at most three.
        leaders: Vec<Leader>,
    },
    /// The last finished iteration.
    Minmax {
        /// 1 for the first.
        iteration: u32,
        /// The party's strategy.
        party_strategy: String,
        /// The adversary's strategy.
        adversary_strategy: String,
        /// The party's survival in that pairing.
        p_survives: f64,
    },
    /// Cells measured so far.
    DangerMap {
        /// Points measured over every layer.
        measured: u64,
    },
    /// The last probe.
    Frontier {
        /// The criterion.
        criterion: Criterion,
        /// Its value.
        value: f64,
        /// At this party hit-point fraction.
        party_hp: f64,
    },
    /// The lever with the largest effect so far.
    Sensitivity {
        /// The adversary's strategy.
        adversary_strategy: String,
        /// The criterion.
        criterion: Criterion,
        /// Its change against the default adversary.
        delta: f64,
    },
}

/// A strategy leading an `optimize` job.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Leader {
    /// The party's strategy.
    pub strategy: String,
    /// Its survival probability so far.
    pub p_survives: f64,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_grid_job_has_a_null_result_and_a_job_names_its_kind() {
        let grid = JobReport { result: JobResult::Grid(()), cells: vec![] };
        let v = serde_json::to_value(&grid).unwrap();
        assert_eq!(v, serde_json::json!({ "kind": "grid", "result": null, "cells": [] }));
        assert_eq!(serde_json::from_value::<JobReport>(v).unwrap(), grid);
        let frontier = JobReport {
            result: JobResult::Frontier(FrontierResult {
                criterion: Criterion::PTpk,
                target: 0.2,
                party_strategy: "default".into(),
                adversary_strategy: "default".into(),
                min_fraction: 0.25,
                max_fraction: 1.0,
                precision: 0.05,
                fraction: None,
                crossed: Some(Crossing::AtOrBelow),
                probes: vec![],
                crossings: vec![],
                monotone: true,
            }),
            cells: vec![],
        };
        let v = serde_json::to_value(&frontier).unwrap();
        assert_eq!(v["kind"], "frontier");
        assert_eq!(v["result"]["criterion"], "p_tpk");
        assert_eq!(v["result"]["crossed"], "at_or_below");
        assert!(v["result"]["fraction"].is_null());
        assert_eq!(serde_json::from_value::<JobReport>(v).unwrap(), frontier);
    }
}
