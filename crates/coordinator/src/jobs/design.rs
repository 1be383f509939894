//! `design`: encounters built to a target. Given the party, a target band on
//! its simulated danger (or a book label) and a pool of monsters, the job
//! draws candidate groups from the pool within a window of the book's
//! encounter CR (the Core Rulebook's XP table as the prior), measures each
//! as a cell whose variant gives the pool's side that group (`roster`),
//! races them (a candidate whose interval lies wholly outside a band is
//! dropped, one wholly inside is confirmed, the rest are measured again
//! with twice the runs, the first runs from the cache), then refines the
//! nearest too-dangerous groups on the monsters' starting hit points and
//! their count (one monster fewer), and the nearest too-easy ones on their
//! count (one monster more).
//!
//! The pool is read and filtered, and the candidates chosen, when the sweep
//! file is resolved (`crate::sweep`): the job arrives here with its groups,
//! so its worst case is known before any battle. Every cell plays the
//! sweep's seed, so the candidates are compared on the same dice.

use std::collections::BTreeMap;

use pf1e_engine::difficulty::{Cr, Label};
use pf1e_engine::model::Combatant;
use pf1e_engine::objectives::Criterion;
use pf1e_engine::party::Battle;
use pf1e_wire::results::{
    DangerMetrics, DesignBattle, DesignCandidate, DesignMember, DesignMetric, DesignPlan, DesignResult,
    JobResult, TargetBand,
};
use serde::Deserialize;

use pf1e_llm::Side;

use crate::cell::{CellSpec, Decide, HpFraction, NotCompiled, SideExtra, StrategySpec, WrittenStrategy};
use crate::jobs::JobError;
use crate::jobs::metrics::{CellMetrics, difference};
use crate::jobs::runs::{RunKeeper, RunOutcomes};
use crate::merge::CellResult;
use crate::plan::{JobContext, Planner, PlannerState, Step};

/// The largest pool: the pool's side places every member once in the base
/// encounter, and the groups are enumerated.
pub const MAX_POOL: usize = 24;

/// The most monsters in a group.
pub const MAX_MONSTERS: u32 = 6;

/// The most candidates a job races.
pub const MAX_CANDIDATES: usize = 64;

/// The most racing rounds (each doubles the runs of the undecided).
pub const MAX_RACE_ROUNDS: u32 = 6;

/// The most proposals a job searches a party plan for.
pub const MAX_PLANS: usize = 8;

/// The monsters' starting hit points tried on a too-dangerous group.
pub const REFINE_FRACTIONS: [HpFraction; 2] = [HpFraction(750_000), HpFraction(500_000)];

/// The window of CR − APL the candidates are drawn from when the target is
/// written on metrics: from one step below the party to epic and one more.
pub const DEFAULT_WINDOW: [i32; 2] = [-1, 4];

/// One monster of the pool.
#[derive(Debug, Clone, PartialEq)]
pub struct PoolMember {
    /// Its file, as the sweep file resolves it.
    pub file: String,
    /// Its rating by the book.
    pub cr: Cr,
}

/// A candidate group: (pool index, count), by pool index.
pub type Group = Vec<(usize, u32)>;

/// A group's neighbours on the count knob (`None`: none the zone places,
/// none within `max_monsters`, or the neighbour is itself a candidate).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Neighbours {
    /// One monster fewer of its most numerous kind (a too-dangerous group's
    /// refinement).
    pub fewer: Option<Group>,
    /// One monster more of its most numerous kind (a too-easy group's).
    pub more: Option<Group>,
}

/// The kind a count step changes: the most numerous, the cheapest by the
/// book among equals, the first in pool order among those (a group of a
/// dragon and three kobolds gains or loses a kobold, not the dragon).
fn counted_kind(pool: &[PoolMember], group: &Group) -> Option<usize> {
    (0..group.len()).min_by_key(|&k| {
        let (i, n) = group[k];
        (std::cmp::Reverse(n), pool.get(i).map_or(u64::MAX, |m| m.cr.xp()), i)
    })
}

/// Each of `groups`' neighbours on the count knob that `fits` accepts and
/// that is not itself one of `groups`.
pub fn neighbours_of(
    pool: &[PoolMember],
    groups: &[Group],
    max: u32,
    fits: &dyn Fn(&Group) -> bool,
) -> Vec<Neighbours> {
    let keep = |n: Option<Group>| n.filter(|n| !groups.contains(n) && fits(n));
    groups
        .iter()
        .map(|g| Neighbours { fewer: keep(one_fewer(pool, g)), more: keep(one_more(pool, g, max)) })
        .collect()
}

/// `group` with one monster fewer (`None` for a lone monster).
pub fn one_fewer(pool: &[PoolMember], group: &Group) -> Option<Group> {
    if group.iter().map(|&(_, n)| n).sum::<u32>() < 2 {
        return None;
    }
    let k = counted_kind(pool, group)?;
    let mut g = group.clone();
    if g[k].1 == 1 {
        g.remove(k);
    } else {
        g[k].1 -= 1;
    }
    Some(g)
}

/// `group` with one monster more (`None` beyond `max` monsters).
pub fn one_more(pool: &[PoolMember], group: &Group, max: u32) -> Option<Group> {
    if group.iter().map(|&(_, n)| n).sum::<u32>() >= max {
        return None;
    }
    let k = counted_kind(pool, group)?;
    let mut g = group.clone();
    g[k].1 += 1;
    Some(g)
}

/// The `design` job, resolved: its pool read and its candidates chosen.
#[derive(Debug, Clone, PartialEq)]
pub struct DesignJob {
    /// What is searched: the side, the target, the window and the candidates.
    pub search: DesignSearch,
    /// Runs of a candidate's first measurement.
    pub runs: u64,
    /// Racing rounds.
    pub race_rounds: u32,
    /// Too-dangerous groups refined on the monsters' hit points.
    pub refine: usize,
    /// Proposals (the best first) a party plan is searched for.
    pub plans: usize,
    /// Most runs the job may spend.
    pub max_total_runs: Option<u64>,
    /// The party's strategy.
    pub party: StrategySpec,
    /// The monsters' strategy.
    pub adversary: StrategySpec,
}

/// The most plans a proposal's search measures: every single-lever variant
/// of the party's strategy (what the budget reserves).
fn most_plans() -> usize {
    pf1e_engine::strategy::StrategySpec::single_lever_variants().len()
}

/// The band of P(some PC dies) the designer gives a label (`docs/designer.md`):
/// a convention of this job, not the book's, until a calibration replaces it.
pub fn label_band(label: Label) -> (f64, f64) {
    match label {
        Label::Easy => (0.0, 0.02),
        Label::Average => (0.02, 0.08),
        Label::Challenging => (0.08, 0.20),
        Label::Hard => (0.20, 0.40),
        Label::Epic => (0.40, 1.0),
    }
}

/// The label a measured P(some PC dies) earns (the bands of [`label_band`]).
pub fn simulated_label(p_some_pc_dies: f64) -> Label {
    [Label::Easy, Label::Average, Label::Challenging, Label::Hard]
        .into_iter()
        .find(|&l| p_some_pc_dies < label_band(l).1)
        .unwrap_or(Label::Epic)
}

/// The window of CR − APL searched for a label: its own steps and one on each side.
pub fn label_window(label: Label) -> [i32; 2] {
    match label {
        Label::Easy => [-3, 0],
        Label::Average => [-1, 1],
        Label::Challenging => [0, 2],
        Label::Hard => [1, 3],
        Label::Epic => [2, 5],
    }
}

/// A group's total XP and its encounter CR by the book.
pub fn group_xp(pool: &[PoolMember], group: &Group) -> (u64, Option<Cr>) {
    let xp = group.iter().map(|&(i, n)| pool.get(i).map_or(0, |m| m.cr.xp()) * u64::from(n)).sum();
    (xp, Cr::from_xp(xp))
}

/// Every group of 1 to `max` monsters drawn from `pool` whose encounter CR
/// lies `window` steps around `apl`, in enumeration order (pool order,
/// smaller counts first).
pub fn groups_in_window(pool: &[PoolMember], max: u32, apl: i32, window: [i32; 2]) -> Vec<Group> {
    fn walk(
        pool: &[PoolMember],
        from: usize,
        left: u32,
        current: &mut Group,
        keep: &dyn Fn(&Group) -> bool,
        out: &mut Vec<Group>,
    ) {
        for i in from..pool.len() {
            for n in 1..=left {
                current.push((i, n));
                if keep(current) {
                    out.push(current.clone());
                }
                walk(pool, i + 1, left - n, current, keep, out);
                current.pop();
            }
        }
    }
    let keep = |g: &Group| {
        group_xp(pool, g).1.is_some_and(|cr| (window[0]..=window[1]).contains(&(cr.step() - apl)))
    };
    let mut out = Vec::new();
    walk(pool, 0, max, &mut Vec::new(), &keep, &mut out);
    out
}

/// `count` of `groups` that `fits` accepts, drawn evenly across the
/// window's CR steps (round robin from the lowest step, each step's groups
/// in an order shuffled with `seed`), then ordered by XP and composition:
/// the same candidates for the same seed, and the dangerous end of the
/// window as well covered as the easy one (where small groups are many
/// more). `fits` is asked only of the groups drawn, in draw order.
pub fn sample(
    groups: Vec<Group>,
    count: usize,
    seed: u64,
    pool: &[PoolMember],
    fits: &dyn Fn(&Group) -> bool,
) -> Vec<Group> {
    let mut state = seed ^ 0x6a09_e667_f3bc_c908;
    let mut next = || {
        state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = state;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    };
    let step = |g: &Group| group_xp(pool, g).1.map_or(i32::MIN, Cr::step);
    let mut buckets: BTreeMap<i32, Vec<Group>> = BTreeMap::new();
    for g in groups {
        buckets.entry(step(&g)).or_default().push(g);
    }
    let mut buckets: Vec<Vec<Group>> = buckets
        .into_values()
        .map(|mut b| {
            for i in (1..b.len()).rev() {
                let j = (next() % (i as u64 + 1)) as usize;
                b.swap(i, j);
            }
            b.reverse();
            b
        })
        .collect();
    let mut chosen = Vec::with_capacity(count);
    while chosen.len() < count && buckets.iter().any(|b| !b.is_empty()) {
        for b in &mut buckets {
            if chosen.len() >= count {
                break;
            }
            while let Some(g) = b.pop() {
                if fits(&g) {
                    chosen.push(g);
                    break;
                }
            }
        }
    }
    chosen.sort_by(|a, b| group_xp(pool, a).0.cmp(&group_xp(pool, b).0).then_with(|| a.cmp(b)));
    chosen
}

impl DesignJob {
    /// The most refinement cells: each of the `refine` too-dangerous groups
    /// at every fraction of [`REFINE_FRACTIONS`] and with one monster fewer
    /// when it has that neighbour, and each of the `refine` too-easy ones
    /// with one more when it has that one.
    pub fn most_refinements(&self) -> usize {
        let n = self.refine.min(self.search.groups.len());
        let with =
            |f: &dyn Fn(&Neighbours) -> bool| self.search.neighbours.iter().filter(|x| f(x)).count().min(n);
        n * REFINE_FRACTIONS.len() + with(&|x| x.fewer.is_some()) + with(&|x| x.more.is_some())
    }

    /// The most runs the job plans: every candidate through every racing
    /// round (a round measures a cell of twice the runs), then the
    /// refinements at the last round's runs.
    pub fn worst_case_runs(&self) -> u64 {
        let rounds = self.race_rounds.min(MAX_RACE_ROUNDS);
        let race = (1u64 << (rounds + 1)) - 1;
        let last = 1u64 << rounds;
        let refine = self.most_refinements() as u64 * last;
        let plans = (self.plans.min(MAX_PLANS) * (most_plans() + 1)) as u64 * last;
        (self.search.groups.len() as u64 * race + refine + plans).saturating_mul(self.runs)
    }

    /// Checks the job before anything runs.
    pub fn check(&self) -> Result<(), JobError> {
        if self.race_rounds > MAX_RACE_ROUNDS {
            return Err(JobError::invalid(
                "design",
                format!("race_rounds: at most {MAX_RACE_ROUNDS}, not {}", self.race_rounds),
            ));
        }
        if self.plans > MAX_PLANS {
            return Err(JobError::invalid(
                "design",
                format!("plans: at most {MAX_PLANS}, not {}", self.plans),
            ));
        }
        if let Some(max) = self.max_total_runs
            && self.worst_case_runs() > max
        {
            return Err(JobError::OverBudget {
                job: "design",
                plan: format!(
                    "{} candidates over {} racing rounds, {} refinements and up to {} party plans for each of {} proposals",
                    self.search.groups.len(),
                    self.race_rounds,
                    self.most_refinements(),
                    most_plans(),
                    self.plans,
                ),
                runs: self.worst_case_runs(),
                max,
            });
        }
        Ok(())
    }
}

/// The `design` job as written in the sweep file.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DesignFile {
    /// The side the pool fills (default: the only side besides the party).
    #[serde(default)]
    pub side: Option<String>,
    /// A book label (`hard`) or bands on metrics (`p_some_pc_dies: [0.2, 0.4]`).
    pub target: serde_yaml::Value,
    /// Where the monsters come from.
    pub pool: PoolFile,
    /// The most monsters in a group.
    #[serde(default = "default_max_monsters")]
    pub max_monsters: u32,
    /// CR − APL of the candidates (default: the label's, else [`DEFAULT_WINDOW`]).
    #[serde(default)]
    pub window: Option<[i32; 2]>,
    /// The most candidates raced.
    #[serde(default = "default_candidates")]
    pub candidates: usize,
    /// Racing rounds.
    #[serde(default = "default_race_rounds")]
    pub race_rounds: u32,
    /// Too-dangerous groups refined on the monsters' hit points.
    #[serde(default = "default_refine")]
    pub refine: usize,
    /// Proposals, the best first, for which the party's best plan is searched.
    #[serde(default = "default_plans")]
    pub plans: usize,
    /// Runs of a candidate's first measurement (default: the sweep's).
    #[serde(default)]
    pub runs: Option<u64>,
    /// Most runs the job may spend.
    #[serde(default)]
    pub max_total_runs: Option<u64>,
    /// The party's strategy.
    #[serde(default = "WrittenStrategy::default_spec")]
    pub party: WrittenStrategy,
    /// The monsters' strategy.
    #[serde(default = "WrittenStrategy::default_spec")]
    pub adversary: WrittenStrategy,
}

/// The pool of a design job as written.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PoolFile {
    /// Monster files, or directories whose `*.json` files all join.
    pub monsters: Vec<String>,
    /// Creature types kept (`undead`, `humanoid`…); empty: every type.
    #[serde(default)]
    pub types: Vec<String>,
    /// The lowest and highest CR kept (`[1, 5]`, `["1/2", 3]`).
    #[serde(default)]
    pub cr: Option<[serde_yaml::Value; 2]>,
}

fn default_max_monsters() -> u32 {
    4
}
fn default_candidates() -> usize {
    16
}
fn default_race_rounds() -> u32 {
    2
}
fn default_refine() -> usize {
    2
}
fn default_plans() -> usize {
    3
}

fn invalid(problem: impl Into<String>) -> JobError {
    JobError::invalid("design", problem)
}

/// A CR written as a number or a string.
fn cr_of(v: &serde_yaml::Value) -> Result<Cr, JobError> {
    let text = match v {
        serde_yaml::Value::Number(n) => n.to_string(),
        serde_yaml::Value::String(s) => s.clone(),
        _ => String::new(),
    };
    Cr::parse(text.trim())
        .ok_or_else(|| invalid(format!("pool cr: {text:?} is not a CR of the book (1/8 … 99)")))
}

/// One band of the target: `[low, high]` or a bound (`"< 0.02"`, `">= 0.5"`).
fn band_of(metric: DesignMetric, v: &serde_yaml::Value) -> Result<TargetBand, JobError> {
    let name = metric.name();
    let bad = || {
        invalid(format!(
            "target {name}: expected a band [low, high] or a bound such as \"< 0.02\", between 0 and 1"
        ))
    };
    let (low, high) = match v {
        serde_yaml::Value::Sequence(s) if s.len() == 2 => {
            (s[0].as_f64().ok_or_else(bad)?, s[1].as_f64().ok_or_else(bad)?)
        }
        serde_yaml::Value::String(s) => {
            let t = s.trim();
            let (op, rest) = match t.char_indices().find(|(_, c)| c.is_ascii_digit() || *c == '.') {
                Some((i, _)) => t.split_at(i),
                None => return Err(bad()),
            };
            let x: f64 = rest.trim().parse().map_err(|_| bad())?;
            match op.trim() {
                "<" | "<=" | "≤" => (0.0, x),
                ">" | ">=" | "≥" => (x, 1.0),
                _ => return Err(bad()),
            }
        }
        _ => return Err(bad()),
    };
    if !(0.0..=1.0).contains(&low) || !(0.0..=1.0).contains(&high) || low > high {
        return Err(invalid(format!(
            "target {name}: the band [{low}, {high}] must lie in [0, 1], low first"
        )));
    }
    Ok(TargetBand { metric, low, high })
}

/// The target as written: a book label, or bands on metrics.
pub fn target_of(v: &serde_yaml::Value) -> Result<(Vec<TargetBand>, Option<Label>), JobError> {
    let labels = "easy, average, challenging, hard, epic";
    let metrics = DesignMetric::ALL.iter().map(|m| m.name()).collect::<Vec<_>>().join(", ");
    match v {
        serde_yaml::Value::String(s) => {
            let label: Label = serde_yaml::from_value(v.clone())
                .map_err(|_| invalid(format!("target: {s:?} is not a label of the book ({labels})")))?;
            let (low, high) = label_band(label);
            Ok((vec![TargetBand { metric: DesignMetric::PSomePcDies, low, high }], Some(label)))
        }
        serde_yaml::Value::Mapping(map) if !map.is_empty() => {
            let mut bands = Vec::new();
            for (k, v) in map {
                let key = k.as_str().unwrap_or_default();
                let metric = DesignMetric::from_name(key).ok_or_else(|| {
                    invalid(format!("target: unknown metric {key:?} (the metrics are {metrics})"))
                })?;
                bands.push(band_of(metric, v)?);
            }
            Ok((bands, None))
        }
        _ => Err(invalid(format!("target: write a label ({labels}) or bands on metrics ({metrics})"))),
    }
}

/// The pool: the monsters of `files` (path, parsed) that the filters keep,
/// in order. A file named one by one must be rated; a directory's unrated
/// files (player characters without a level, allies) are left out.
pub fn pool_of(file: &PoolFile, monsters: &[(String, Combatant, bool)]) -> Result<Vec<PoolMember>, JobError> {
    let range = match &file.cr {
        Some([lo, hi]) => {
            let (lo, hi) = (cr_of(lo)?, cr_of(hi)?);
            if lo.step() > hi.step() {
                return Err(invalid(format!("pool cr: [{lo}, {hi}] has its lowest CR first")));
            }
            Some((lo.step(), hi.step()))
        }
        None => None,
    };
    let mut out = Vec::new();
    for (path, c, named) in monsters {
        let Some(cr) = pf1e_engine::difficulty::rate(c) else {
            if *named {
                return Err(invalid(format!(
                    "pool: {path} has neither a cr nor xp: the book cannot rate it"
                )));
            }
            continue;
        };
        let typed = file.types.is_empty()
            || c.creature_type.as_deref().is_some_and(|t| file.types.iter().any(|w| w == t));
        let in_range = range.is_none_or(|(lo, hi)| (lo..=hi).contains(&cr.step()));
        if typed && in_range {
            out.push(PoolMember { file: path.clone(), cr });
        }
    }
    if out.is_empty() {
        return Err(invalid("pool: its filters (types, cr) leave no monster"));
    }
    if out.len() > MAX_POOL {
        return Err(invalid(format!(
            "pool: {} monsters after its filters, over the limit of {MAX_POOL}: narrow it (types, cr)",
            out.len()
        )));
    }
    Ok(out)
}

/// What a design job's search chose when the sweep was read: the side, the
/// target, the pool and the candidate groups (its strategies are decided
/// later, when a sentence has been compiled).
#[derive(Debug, Clone, PartialEq)]
pub struct DesignSearch {
    /// The side the pool fills.
    pub side: String,
    /// The target: every band must hold.
    pub target: Vec<TargetBand>,
    /// The label the target was written as.
    pub label: Option<Label>,
    /// CR − APL of the candidates, lowest and highest.
    pub window: [i32; 2],
    /// The party's APL.
    pub apl: i32,
    /// The pool, in the order its side lists it.
    pub pool: Vec<PoolMember>,
    /// The candidates raced.
    pub groups: Vec<Group>,
    /// Each candidate's neighbours on the count knob, chosen with the
    /// candidates (the map's zone must place them): the group with one
    /// monster fewer and with one more of its most numerous kind.
    pub neighbours: Vec<Neighbours>,
    /// Groups of the pool inside the window.
    pub groups_in_window: u64,
    /// How `pf1e sim` plays the scenario again (no command when `None`).
    pub replay: Option<Replay>,
}

/// The sweep's scenario as a `pf1e sim` command line, the pool's side left
/// for each proposal to fill: what a proposal's battle worth reading is
/// replayed with.
#[derive(Debug, Clone, PartialEq)]
pub struct Replay {
    /// The map file, as the sweep file writes it.
    pub map: String,
    /// Every side in encounter order with its files (the pool's side: none).
    pub sides: Vec<(String, Vec<String>)>,
    /// The round cap.
    pub round_cap: u32,
    /// Monsters die at 0 hit points.
    pub simple_monster_death: bool,
    /// The sweep's seed.
    pub seed: u64,
}

/// A word quoted for a POSIX shell when it needs it.
fn shell_word(w: &str) -> String {
    let plain = !w.is_empty() && w.chars().all(|c| c.is_ascii_alphanumeric() || "-_./=:,+@%".contains(c));
    if plain { w.to_string() } else { format!("'{}'", w.replace('\'', "'\\''")) }
}

impl Replay {
    /// The command playing `files` on `side` at `hp` with `runs` runs and
    /// showing run `run` as a table, the party playing `party`, the
    /// monsters `adversary`.
    pub fn command(
        &self,
        side: &str,
        files: &[String],
        hp: HpFraction,
        runs: u64,
        run: u64,
        strategies: (&StrategySpec, &StrategySpec),
    ) -> String {
        let mut words: Vec<String> = vec!["pf1e".into(), "sim".into(), "--map".into(), self.map.clone()];
        for (name, own) in &self.sides {
            words.push("--side".into());
            words.push(name.clone());
            words.extend(if name == side { files.to_vec() } else { own.clone() });
        }
        if self.round_cap != pf1e_engine::combat::SimOptions::default().round_cap {
            words.extend(["--round-cap".into(), self.round_cap.to_string()]);
        }
        if self.simple_monster_death {
            words.push("--simple-monster-death".into());
        }
        if hp != HpFraction::FULL {
            words.extend(["--start-hp".into(), side.to_string(), format!("{}", hp.as_f64())]);
        }
        for (flag, spec) in [("--strategy", strategies.0), ("--adversary-strategy", strategies.1)] {
            if !spec.levers().is_default() {
                words.extend([flag.to_string(), spec.levers().name()]);
            }
        }
        words.extend([
            "--seed".into(),
            self.seed.to_string(),
            "--runs".into(),
            runs.to_string(),
            "--transcript".into(),
            "--show".into(),
            "run".into(),
            run.to_string(),
        ]);
        words.iter().map(|w| shell_word(w)).collect::<Vec<_>>().join(" ")
    }
}

impl DesignFile {
    /// The search of this file for a party of average level `apl`, drawing
    /// its candidates from `pool` with the sweep's `seed`.
    /// Only the groups `fits` accepts (those the map's zone can place) are candidates.
    pub fn search(
        &self,
        side: String,
        pool: Vec<PoolMember>,
        apl: i32,
        seed: u64,
        fits: &dyn Fn(&Group) -> bool,
    ) -> Result<DesignSearch, JobError> {
        let (target, label) = target_of(&self.target)?;
        if !(1..=MAX_MONSTERS).contains(&self.max_monsters) {
            return Err(invalid(format!("max_monsters: 1 to {MAX_MONSTERS}, not {}", self.max_monsters)));
        }
        if !(1..=MAX_CANDIDATES).contains(&self.candidates) {
            return Err(invalid(format!("candidates: 1 to {MAX_CANDIDATES}, not {}", self.candidates)));
        }
        let window = self.window.unwrap_or_else(|| label.map_or(DEFAULT_WINDOW, label_window));
        if window[0] > window[1] {
            return Err(invalid(format!("window: [{}, {}] has its lowest step first", window[0], window[1])));
        }
        let all = groups_in_window(&pool, self.max_monsters, apl, window);
        let groups_in_window = all.len() as u64;
        let groups = sample(all, self.candidates, seed, &pool, fits);
        if groups.is_empty() {
            return Err(invalid(format!(
                "no group of 1 to {} monsters of the pool has an encounter CR between APL{:+} and APL{:+} (the party's APL is {apl}) and fits the side's zone: widen the window or the pool",
                self.max_monsters, window[0], window[1]
            )));
        }
        let neighbours = neighbours_of(&pool, &groups, self.max_monsters, fits);
        Ok(DesignSearch {
            side,
            target,
            label,
            window,
            apl,
            pool,
            groups,
            neighbours,
            groups_in_window,
            replay: None,
        })
    }

    /// The job of this file over its `search`: `runs` the sweep's unless it
    /// writes its own, every strategy decided.
    pub fn decide(
        &self,
        search: DesignSearch,
        runs: u64,
        spec: &mut Decide,
    ) -> Result<DesignJob, NotCompiled> {
        Ok(DesignJob {
            search,
            runs: self.runs.unwrap_or(runs),
            race_rounds: self.race_rounds,
            refine: self.refine,
            plans: self.plans,
            max_total_runs: self.max_total_runs,
            party: spec(Side::Party, &self.party)?,
            adversary: spec(Side::Adversary, &self.adversary)?,
        })
    }
}

/// Where a candidate stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Standing {
    /// Still measured.
    Racing,
    /// Every interval inside its band.
    Confirmed,
    /// Some interval wholly outside its band.
    Dropped,
    /// Measured as far as the job goes.
    Final,
}

#[derive(Debug, Clone)]
struct Candidate {
    /// The monsters.
    group: Group,
    /// Its index among the raced groups (`None`: a refinement's neighbour).
    raced: Option<usize>,
    hp: HpFraction,
    runs: u64,
    measured: Option<(CellMetrics, f64)>,
    standing: Standing,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Phase {
    Start,
    Race(u32),
    Refine,
    Plan,
    Combine,
    Done,
}

/// What an emitted cell measures.
#[derive(Debug, Clone, Copy)]
enum Emitted {
    /// A candidate, at the party's strategy.
    Candidate(usize),
    /// A plan of a proposal's search: (search, plan).
    Plan(usize, usize),
}

/// The search of a party plan against one proposal.
#[derive(Debug, Clone)]
struct PlanSearch {
    /// The proposal's candidate.
    candidate: usize,
    /// The plans, the party's single-lever variants.
    specs: Vec<StrategySpec>,
    /// Their measurements.
    measured: Vec<Option<CellMetrics>>,
}

/// The design planner.
pub struct Design {
    ctx: JobContext,
    job: DesignJob,
    /// The pool's ids in the base encounter, pool order.
    ids: Vec<String>,
    candidates: Vec<Candidate>,
    /// What each emitted cell measures.
    emitted: Vec<Emitted>,
    /// The party plans searched, one search per proposal.
    plans: Vec<PlanSearch>,
    pending: usize,
    phase: Phase,
    /// Where the per-run outcomes of its cells are kept.
    keeper: RunKeeper,
}

/// The battle `party::pick(.., Pick::Worst)` shows of these runs (the
/// middle of the worst ⌈10%⌉ by hit points lost, the first run with its
/// loss), found from a histogram of the losses (one bin per value, at
/// most one per hit point the party has) and one read of its run, so the
/// runs stay in the spill file.
fn worst_battle(runs: &RunOutcomes) -> Option<Battle> {
    let n = runs.len();
    if n == 0 {
        return None;
    }
    let battle = |run: usize, o: &pf1e_engine::objectives::Outcomes, i: usize| Battle {
        run: run as u64,
        won: o.won[i],
        some_death: !o.survived[i],
        all_down: o.tpk[i],
        fled: false,
        hp_lost: o.hp_lost[i].max(0).unsigned_abs(),
    };
    // Per loss: how many runs, and the first.
    let mut bins: std::collections::BTreeMap<u64, (usize, usize)> = Default::default();
    runs.for_each_chunk(|start, o| {
        for i in 0..o.len() {
            let bin = bins.entry(o.hp_lost[i].max(0).unsigned_abs()).or_insert((0, start + i));
            bin.0 += 1;
        }
    });
    // Sorted by (loss, run), the middle of the last `tail`.
    let tail = n.div_ceil(10).max(1).min(n);
    let rank = n - tail + tail / 2;
    let mut seen = 0;
    let first = bins.values().find_map(|&(count, first)| {
        seen += count;
        (seen > rank).then_some(first)
    })?;
    let o = runs.chunk(first..first + 1);
    Some(battle(first, &o, 0))
}

/// A band of the target, the candidate's value of its metric and the interval.
type Measured = (TargetBand, f64, (f64, f64));

/// A metric's value and interval in a candidate's measurement.
fn value_and_interval(metric: DesignMetric, m: &DangerMetrics, party_hp: f64, z: f64) -> (f64, (f64, f64)) {
    match metric {
        DesignMetric::PSomePcDies => (m.p_any_death, m.p_any_death_ci),
        DesignMetric::PTpk => (m.p_tpk, m.p_tpk_ci),
        DesignMetric::PWin => (m.win_rate, m.win_band),
        DesignMetric::HpLost => {
            let hp = party_hp.max(1.0);
            let (v, h) = (m.expected_hp_lost / hp, z * m.hp_lost_se / hp);
            (v, ((v - h).max(0.0), (v + h).min(1.0)))
        }
    }
}

/// Whether a larger value of `metric` is more dangerous for the party.
fn more_is_danger(metric: DesignMetric) -> bool {
    metric != DesignMetric::PWin
}

impl Design {
    /// The planner of `job`.
    pub fn new(ctx: JobContext, job: DesignJob) -> Self {
        let ids: Vec<String> = ctx
            .combatants
            .iter()
            .filter(|(side, _)| *side == job.search.side)
            .map(|(_, id)| id.clone())
            .collect();
        let candidates = (0..job.search.groups.len())
            .map(|k| Candidate {
                group: job.search.groups[k].clone(),
                raced: Some(k),
                hp: HpFraction::FULL,
                runs: 0,
                measured: None,
                standing: Standing::Racing,
            })
            .collect();
        Self {
            ctx,
            job,
            ids,
            candidates,
            emitted: Vec::new(),
            plans: Vec::new(),
            pending: 0,
            phase: Phase::Start,
            keeper: RunKeeper::default(),
        }
    }

    fn cell(&self, c: &Candidate, party: &StrategySpec) -> CellSpec {
        let mut cell = self.ctx.cell(party, &self.job.adversary, HpFraction::FULL, c.hp, c.runs);
        let roster = c
            .group
            .iter()
            .flat_map(|&(i, n)| std::iter::repeat_n(self.ids.get(i).cloned().unwrap_or_default(), n as usize))
            .collect();
        cell.extra.insert(self.job.search.side.clone(), SideExtra { roster, ..SideExtra::default() });
        cell
    }

    fn emit(&mut self, which: Vec<usize>, runs: u64) -> Step {
        let mut cells = Vec::with_capacity(which.len());
        for k in which {
            self.candidates[k].runs = runs;
            cells.push(self.cell(&self.candidates[k], &self.job.party));
            self.emitted.push(Emitted::Candidate(k));
        }
        self.pending = cells.len();
        if cells.is_empty() { Step::Done } else { Step::Emit(cells) }
    }

    /// Each band with the value and interval of a measured candidate.
    fn bands(&self, c: &Candidate) -> Option<Vec<Measured>> {
        let (m, hp) = c.measured.as_ref()?;
        let z = self.ctx.confidence.z();
        Some(
            self.job
                .search
                .target
                .iter()
                .map(|b| {
                    let (v, i) = value_and_interval(b.metric, &m.party, *hp, z);
                    (*b, v, i)
                })
                .collect(),
        )
    }

    /// How far a candidate's point estimates lie from the bands' centres,
    /// each in band widths: the ranking key of proposals.
    fn distance(&self, c: &Candidate) -> f64 {
        self.bands(c).map_or(f64::INFINITY, |bands| {
            bands
                .iter()
                .map(|(b, v, _)| (v - (b.low + b.high) / 2.0).abs() / (b.high - b.low).max(0.01))
                .sum()
        })
    }

    fn misses(&self, c: &Candidate) -> Vec<DesignMetric> {
        self.bands(c)
            .unwrap_or_default()
            .iter()
            .filter(|(b, v, _)| *v < b.low || *v > b.high)
            .map(|(b, _, _)| b.metric)
            .collect()
    }

    /// After a racing round: confirmed, dropped or still racing.
    fn classify(&mut self) {
        for k in 0..self.candidates.len() {
            if self.candidates[k].standing != Standing::Racing {
                continue;
            }
            let Some(bands) = self.bands(&self.candidates[k]) else { continue };
            let outside = bands.iter().any(|(b, _, (lo, hi))| *hi < b.low || *lo > b.high);
            let inside = bands.iter().all(|(b, _, (lo, hi))| *lo >= b.low && *hi <= b.high);
            self.candidates[k].standing = if outside {
                Standing::Dropped
            } else if inside {
                Standing::Confirmed
            } else {
                Standing::Racing
            };
        }
    }

    /// The refinements: the `refine` measured groups nearest the band among
    /// those that miss it only by being too dangerous, at each of
    /// [`REFINE_FRACTIONS`] and with one monster fewer; the `refine`
    /// nearest among those that miss it only by being too easy, with one
    /// monster more (each neighbour once, as the search chose them).
    fn refinements(&self) -> Vec<Candidate> {
        let misses_only = |c: &Candidate, dangerous: bool| {
            let bands = self.bands(c).unwrap_or_default();
            let missed: Vec<_> = bands.iter().filter(|(b, v, _)| *v < b.low || *v > b.high).collect();
            !missed.is_empty()
                && missed.iter().all(|(b, v, _)| {
                    let too_dangerous = if more_is_danger(b.metric) { *v > b.high } else { *v < b.low };
                    too_dangerous == dangerous
                })
        };
        let nearest = |dangerous: bool| {
            let mut near: Vec<&Candidate> = self
                .candidates
                .iter()
                .filter(|c| c.measured.is_some() && misses_only(c, dangerous))
                .collect();
            near.sort_by(|a, b| self.distance(a).total_cmp(&self.distance(b)).then(a.raced.cmp(&b.raced)));
            near.truncate(self.job.refine);
            near
        };
        let runs = self.job.runs << self.job.race_rounds.min(MAX_RACE_ROUNDS);
        let at = |group: &Group, hp: HpFraction| Candidate {
            group: group.clone(),
            raced: None,
            hp,
            runs,
            measured: None,
            standing: Standing::Final,
        };
        let neighbours = |c: &Candidate| c.raced.and_then(|k| self.job.search.neighbours.get(k));
        let mut out: Vec<Candidate> = Vec::new();
        for c in nearest(true) {
            out.extend(REFINE_FRACTIONS.iter().map(|&hp| at(&c.group, hp)));
            out.extend(neighbours(c).and_then(|n| n.fewer.as_ref()).map(|g| at(g, HpFraction::FULL)));
        }
        for c in nearest(false) {
            out.extend(neighbours(c).and_then(|n| n.more.as_ref()).map(|g| at(g, HpFraction::FULL)));
        }
        // Two candidates may share a neighbour (three ghouls less one, one
        // ghoul plus one): measured once.
        let mut seen = std::collections::BTreeSet::new();
        out.retain(|c| seen.insert((c.group.clone(), c.hp)));
        out
    }

    /// The measured candidates, best first: the proposals (inside every
    /// band) first, the confirmed among them first, then by distance to the
    /// bands' centres, the most measured first.
    fn ranked(&self) -> Vec<usize> {
        let mut order: Vec<usize> =
            (0..self.candidates.len()).filter(|&k| self.candidates[k].measured.is_some()).collect();
        let key = |k: usize| {
            let c = &self.candidates[k];
            (self.misses(c).is_empty(), c.standing == Standing::Confirmed, self.distance(c), c.runs, k)
        };
        order.sort_by(|&a, &b| {
            let (ia, ca, da, ra, ka) = key(a);
            let (ib, cb, db, rb, kb) = key(b);
            ib.cmp(&ia).then(cb.cmp(&ca)).then(da.total_cmp(&db)).then(rb.cmp(&ra)).then(ka.cmp(&kb))
        });
        order
    }

    /// Emits the party plans of the best `plans` proposals: each single-lever
    /// variant of the party's strategy that can change anything, on the
    /// proposal's own cell (its runs, its seed: the battles pair).
    fn start_plans(&mut self) -> Step {
        self.phase = Phase::Plan;
        let proposals: Vec<usize> = self
            .ranked()
            .into_iter()
            .filter(|&k| self.misses(&self.candidates[k]).is_empty())
            .take(self.job.plans.min(MAX_PLANS))
            .collect();
        let specs: Vec<StrategySpec> = pf1e_engine::strategy::StrategySpec::single_lever_variants_for(
            self.ctx.levers,
            self.ctx.adversary_levers.spells,
        )
        .into_iter()
        .map(StrategySpec::from_engine)
        .filter(|s| *s != self.job.party)
        .collect();
        let mut cells = Vec::new();
        for k in proposals {
            let search = self.plans.len();
            for (j, spec) in specs.iter().enumerate() {
                cells.push(self.cell(&self.candidates[k], spec));
                self.emitted.push(Emitted::Plan(search, j));
            }
            self.plans.push(PlanSearch {
                candidate: k,
                specs: specs.clone(),
                measured: vec![None; specs.len()],
            });
        }
        self.emit_plans(cells)
    }

    /// Emits plan cells, or ends the job when there are none.
    fn emit_plans(&mut self, cells: Vec<CellSpec>) -> Step {
        self.pending = cells.len();
        if cells.is_empty() {
            self.phase = Phase::Done;
            Step::Done
        } else {
            Step::Emit(cells)
        }
    }

    /// After the single-lever plans: for each proposal, the two best plans
    /// that lowered P(some PC dies) (at their estimates, paired), combined
    /// into one two-lever plan on the same cell, when their levers do not
    /// pull one lever two ways (the first combinable pair of the best
    /// three).
    fn start_combinations(&mut self) -> Step {
        self.phase = Phase::Combine;
        let mut cells = Vec::new();
        for s in 0..self.plans.len() {
            let Some(combined) = self.combination(&self.plans[s]) else { continue };
            let search = &mut self.plans[s];
            let j = search.specs.len();
            search.specs.push(combined.clone());
            search.measured.push(None);
            let k = search.candidate;
            cells.push(self.cell(&self.candidates[k], &combined));
            self.emitted.push(Emitted::Plan(s, j));
        }
        self.emit_plans(cells)
    }

    /// The two-lever plan of a search's best single-lever plans, if any.
    fn combination(&self, search: &PlanSearch) -> Option<StrategySpec> {
        let (base, _) = self.candidates.get(search.candidate)?.measured.as_ref()?;
        let mut better: Vec<(f64, f64, usize)> = search
            .measured
            .iter()
            .enumerate()
            .filter_map(|(j, m)| {
                let m = m.as_ref()?;
                let d = difference(m, base, Criterion::PAnyDeath).mean;
                (d < 0.0).then(|| (d, difference(m, base, Criterion::ExpectedHpLost).mean, j))
            })
            .collect();
        better.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.total_cmp(&b.1)).then(a.2.cmp(&b.2)));
        better.truncate(3);
        for (x, &(_, _, a)) in better.iter().enumerate() {
            for &(_, _, b) in &better[x + 1..] {
                let spec = search.specs[a].levers().combined(search.specs[b].levers());
                if let Some(spec) = spec.map(StrategySpec::from_engine)
                    && !search.specs.contains(&spec)
                {
                    return Some(spec);
                }
            }
        }
        None
    }

    /// The best plan of a search: the lowest P(some PC dies) paired with the
    /// proposal's own battles, then the fewest hit points lost; the party's
    /// own strategy when no plan does better.
    fn plan_result(&self, search: &PlanSearch) -> Option<DesignPlan> {
        let (base, _) = self.candidates.get(search.candidate)?.measured.as_ref()?;
        let measured: Vec<(usize, &CellMetrics)> =
            search.measured.iter().enumerate().filter_map(|(j, m)| m.as_ref().map(|m| (j, m))).collect();
        let key = |m: &CellMetrics| {
            (
                difference(m, base, Criterion::PAnyDeath).mean,
                difference(m, base, Criterion::ExpectedHpLost).mean,
            )
        };
        let &(j, best) = measured.iter().min_by(|a, b| {
            let (da, ha) = key(a.1);
            let (db, hb) = key(b.1);
            da.total_cmp(&db).then(ha.total_cmp(&hb)).then(a.0.cmp(&b.0))
        })?;
        let (d, _) = key(best);
        let better = d < 0.0;
        let z = self.ctx.confidence.bonferroni_z(measured.len() as u64);
        Some(if better {
            let change = difference(best, base, Criterion::PAnyDeath);
            let (lo, hi) = change.interval(z);
            DesignPlan {
                strategy: search.specs[j].as_str().to_string(),
                better: true,
                p_some_pc_dies: best.party.p_any_death,
                p_some_pc_dies_interval: [best.party.p_any_death_ci.0, best.party.p_any_death_ci.1],
                change: change.mean,
                change_interval: [lo, hi],
                told_apart: hi < 0.0,
                measured: measured.len() as u32,
            }
        } else {
            DesignPlan {
                strategy: self.job.party.as_str().to_string(),
                better: false,
                p_some_pc_dies: base.party.p_any_death,
                p_some_pc_dies_interval: [base.party.p_any_death_ci.0, base.party.p_any_death_ci.1],
                change: 0.0,
                change_interval: [0.0, 0.0],
                told_apart: false,
                measured: measured.len() as u32,
            }
        })
    }

    /// A proposal's battle worth reading: the middle battle of its worst
    /// decile by the party's hit points lost (`pf1e sim --show worst`).
    fn worth_reading(&self, c: &Candidate, m: &CellMetrics, files: &[String]) -> Option<DesignBattle> {
        let battle = worst_battle(&m.party_runs)?;
        let command = self.job.search.replay.as_ref().map_or_else(String::new, |r| {
            r.command(
                &self.job.search.side,
                files,
                c.hp,
                c.runs,
                battle.run,
                (&self.job.party, &self.job.adversary),
            )
        });
        Some(DesignBattle {
            run: battle.run,
            runs: c.runs,
            hp_lost: battle.hp_lost,
            some_death: battle.some_death,
            all_down: battle.all_down,
            command,
        })
    }

    fn candidate_result(&self, k: usize, rank: u64) -> Option<DesignCandidate> {
        let c = self.candidates.get(k)?;
        let (m, hp) = c.measured.as_ref()?;
        let group = &c.group;
        let members: Vec<DesignMember> = group
            .iter()
            .map(|&(i, n)| DesignMember {
                file: self.job.search.pool[i].file.clone(),
                id: self.ids.get(i).cloned().unwrap_or_default(),
                count: n,
                cr: self.job.search.pool[i].cr.to_string(),
            })
            .collect();
        let files: Vec<String> =
            members.iter().flat_map(|m| std::iter::repeat_n(m.file.clone(), m.count as usize)).collect();
        let (xp, cr) = group_xp(&self.job.search.pool, group);
        let delta = cr.map(|cr| cr.step() - self.job.search.apl);
        let (share, interval) =
            value_and_interval(DesignMetric::HpLost, &m.party, *hp, self.ctx.confidence.z());
        let misses = self.misses(c);
        let worth_reading = if misses.is_empty() { self.worth_reading(c, m, &files) } else { None };
        let plan = self.plans.iter().find(|s| s.candidate == k).and_then(|s| self.plan_result(s));
        Some(DesignCandidate {
            rank,
            inside: misses.is_empty(),
            confirmed: c.standing == Standing::Confirmed,
            dropped: c.standing == Standing::Dropped,
            misses,
            members,
            files,
            hp_fraction: c.hp.as_f64(),
            xp,
            cr: cr.map(|cr| cr.to_string()),
            cr_minus_apl: delta,
            book: delta.map(Label::of_delta),
            simulated: simulated_label(m.party.p_any_death),
            party: m.party.clone(),
            hp_lost_share: share,
            hp_lost_share_interval: [interval.0, interval.1],
            worth_reading,
            plan,
        })
    }
}

impl Planner for Design {
    fn kind(&self) -> &'static str {
        "design"
    }

    fn step(&mut self) -> Step {
        if self.pending > 0 {
            return Step::Wait;
        }
        match self.phase {
            Phase::Start => {
                if self.ids.len() < self.job.search.pool.len() {
                    // The scenario did not build: validation has said why.
                    self.phase = Phase::Done;
                    return Step::Done;
                }
                self.phase = Phase::Race(0);
                self.emit((0..self.candidates.len()).collect(), self.job.runs)
            }
            Phase::Race(r) => {
                self.classify();
                let racing: Vec<usize> = (0..self.candidates.len())
                    .filter(|&k| self.candidates[k].standing == Standing::Racing)
                    .collect();
                if r < self.job.race_rounds.min(MAX_RACE_ROUNDS) && !racing.is_empty() {
                    self.phase = Phase::Race(r + 1);
                    return self.emit(racing, self.job.runs << (r + 1));
                }
                for c in &mut self.candidates {
                    if c.standing == Standing::Racing {
                        c.standing = Standing::Final;
                    }
                }
                self.phase = Phase::Refine;
                let refined = self.refinements();
                let runs = refined.first().map_or(0, |c| c.runs);
                let first = self.candidates.len();
                self.candidates.extend(refined);
                let which: Vec<usize> = (first..self.candidates.len()).collect();
                if which.is_empty() {
                    return self.start_plans();
                }
                self.emit(which, runs)
            }
            Phase::Refine => self.start_plans(),
            Phase::Plan => self.start_combinations(),
            Phase::Combine | Phase::Done => {
                self.phase = Phase::Done;
                Step::Done
            }
        }
    }

    fn consume(&mut self, index: usize, result: &CellResult) {
        let Some(&emitted) = self.emitted.get(index) else { return };
        let m = CellMetrics::from_result_kept(result, &self.ctx.party, self.ctx.confidence, &mut self.keeper);
        let k = match emitted {
            Emitted::Candidate(k) => k,
            Emitted::Plan(search, plan) => {
                if let Some(slot) = self.plans.get_mut(search).and_then(|s| s.measured.get_mut(plan)) {
                    *slot = Some(m);
                }
                self.pending = self.pending.saturating_sub(1);
                return;
            }
        };
        let party_side = result.sides.iter().position(|s| *s == self.ctx.party);
        let hp: i64 = result
            .combatants
            .iter()
            .filter(|c| Some(c.side) == party_side)
            .map(|c| i64::from(c.start_hp))
            .sum();
        self.candidates[k].measured = Some((m, hp as f64));
        self.pending = self.pending.saturating_sub(1);
    }

    fn state(&self) -> PlannerState {
        let phase = match self.phase {
            Phase::Start => "planning".to_string(),
            Phase::Race(r) => format!("race {}", r + 1),
            Phase::Refine => "refine".to_string(),
            Phase::Plan => "party plans".to_string(),
            Phase::Combine => "two-lever plans".to_string(),
            Phase::Done => "done".to_string(),
        };
        PlannerState {
            phase,
            cells: self.emitted.len() as u64,
            measured: (self.emitted.len() - self.pending) as u64,
        }
    }

    fn result(&self) -> JobResult {
        let mut rank = 0;
        let candidates = self
            .ranked()
            .into_iter()
            .filter_map(|k| {
                let inside = self.misses(&self.candidates[k]).is_empty();
                if inside {
                    rank += 1;
                }
                self.candidate_result(k, if inside { rank } else { 0 })
            })
            .collect();
        JobResult::Design(DesignResult {
            party: self.ctx.party.clone(),
            side: self.job.search.side.clone(),
            apl: self.job.search.apl,
            target: self.job.search.target.clone(),
            label: self.job.search.label,
            window: self.job.search.window,
            pool: self.job.search.pool.iter().map(|m| m.file.clone()).collect(),
            groups_in_window: self.job.search.groups_in_window,
            confidence: self.ctx.confidence.level(),
            candidates,
        })
    }
}

#[cfg(test)]
mod tests {
    use pf1e_engine::summary::Summary;
    use pf1e_wire::shard::CombatantInfo;

    use super::*;
    use crate::jobs::metrics::testing::ctx;

    /// The worst battle found from the histogram of the spilled runs is
    /// the one `party::pick` finds sorting every battle.
    #[test]
    fn the_worst_battle_of_spilled_runs_is_the_one_pick_finds() {
        use pf1e_engine::objectives::Outcomes;
        use pf1e_engine::party::{Pick, pick};
        let mut keeper = RunKeeper::default();
        for (n, spread) in [(1usize, 3u64), (9, 2), (10, 5), (11, 1), (203, 7), (40_000, 60), (40_001, 1000)]
        {
            let mut o = Outcomes::default();
            for i in 0..n as u64 {
                let h = i.wrapping_mul(0x9e37_79b9_7f4a_7c15) >> 30;
                o.won.push(h & 1 == 0);
                o.survived.push(h & 2 == 0);
                o.tpk.push(h & 6 == 6);
                o.hp_lost.push(((h >> 3) % spread) as i64);
            }
            let battles: Vec<Battle> = (0..n)
                .map(|i| Battle {
                    run: i as u64,
                    won: o.won[i],
                    some_death: !o.survived[i],
                    all_down: o.tpk[i],
                    fled: false,
                    hp_lost: o.hp_lost[i].max(0).unsigned_abs(),
                })
                .collect();
            let expected = pick(&battles, Pick::Worst).unwrap();
            let got = worst_battle(&keeper.keep(o.clone())).unwrap();
            assert_eq!(got.run, expected.run, "{n} runs");
            assert_eq!(got, battles[got.run as usize]);
            assert_eq!(worst_battle(&o.into()).unwrap().run, expected.run);
        }
        assert!(worst_battle(&RunOutcomes::default()).is_none());
    }

    fn member(file: &str, cr: &str) -> PoolMember {
        PoolMember { file: file.into(), cr: Cr::parse(cr).unwrap() }
    }

    fn yaml(text: &str) -> serde_yaml::Value {
        serde_yaml::from_str(text).unwrap()
    }

    #[test]
    fn the_window_keeps_the_groups_whose_encounter_cr_is_that_many_steps_from_the_apl() {
        let pool = [member("one.json", "1"), member("three.json", "3")];
        // APL 4, window [0, 0]: encounter CR 4, 1,200 to 1,599 XP.
        let g = groups_in_window(&pool, 4, 4, [0, 0]);
        assert_eq!(g, vec![vec![(0, 1), (1, 1)], vec![(0, 3)]]);
        assert_eq!(group_xp(&pool, &g[1]), (1200, Cr::parse("4")));
        // One step wider on each side: 800 XP (CR 3) and 1,600 XP (CR 5) join.
        let wide = groups_in_window(&pool, 4, 4, [-1, 1]);
        assert!(wide.contains(&vec![(1, 1)]) && wide.contains(&vec![(0, 4)]) && wide.contains(&vec![(1, 2)]));
        assert!(!wide.contains(&vec![(0, 1)]), "400 XP is CR 1, three steps below");
        assert!(wide.iter().all(|g| g.iter().map(|&(_, n)| n).sum::<u32>() <= 4));
    }

    #[test]
    fn the_sample_is_the_same_for_a_seed_and_ordered_by_xp() {
        let pool =
            [member("a.json", "1/2"), member("b.json", "1"), member("c.json", "2"), member("d.json", "3")];
        let all = groups_in_window(&pool, 4, 4, [-1, 4]);
        assert!(all.len() > 8);
        let a = sample(all.clone(), 8, 7, &pool, &|_| true);
        assert_eq!(a, sample(all.clone(), 8, 7, &pool, &|_| true));
        assert_ne!(a, sample(all.clone(), 8, 8, &pool, &|_| true), "another seed draws other groups");
        assert_eq!(a.len(), 8);
        assert!(a.windows(2).all(|w| group_xp(&pool, &w[0]).0 <= group_xp(&pool, &w[1]).0));
        // Every CR step reachable has its share: 8 over 5 steps (four CR 3 make CR 7).
        let steps: Vec<i32> = a.iter().filter_map(|g| group_xp(&pool, g).1).map(Cr::step).collect();
        for s in 3..=7 {
            assert!(steps.contains(&s), "CR {s} is sampled: {steps:?}");
        }
        assert_eq!(sample(all.clone(), 1000, 7, &pool, &|_| true).len(), all.len());
        // Groups that do not fit are skipped, never counted.
        let small = |g: &Group| g.iter().map(|&(_, n)| n).sum::<u32>() <= 2;
        let fitting = sample(all.clone(), 8, 7, &pool, &small);
        assert_eq!(fitting.len(), 8);
        assert!(fitting.iter().all(small));
    }

    #[test]
    fn a_target_is_a_label_or_bands_and_bad_ones_say_why() {
        let (bands, label) = target_of(&yaml("hard")).unwrap();
        assert_eq!(label, Some(Label::Hard));
        assert_eq!(bands, [TargetBand { metric: DesignMetric::PSomePcDies, low: 0.2, high: 0.4 }]);
        let (bands, label) =
            target_of(&yaml("{ p_some_pc_dies: [0.2, 0.4], p_tpk: \"< 0.02\", p_win: \">= 0.9\" }")).unwrap();
        assert_eq!(label, None);
        assert_eq!(bands[1], TargetBand { metric: DesignMetric::PTpk, low: 0.0, high: 0.02 });
        assert_eq!(bands[2], TargetBand { metric: DesignMetric::PWin, low: 0.9, high: 1.0 });
        for (text, says) in [
            ("deadly", "not a label of the book"),
            ("{ p_death: [0, 1] }", "unknown metric \"p_death\""),
            ("{ p_tpk: [0.4, 0.2] }", "low first"),
            ("{ p_tpk: 0.2 }", "expected a band"),
            ("{ hp_lost: \"about 0.5\" }", "expected a band"),
            ("[1, 2]", "write a label"),
        ] {
            let e = target_of(&yaml(text)).unwrap_err().to_string();
            assert!(e.starts_with("design: ") && e.contains(says), "{text}: {e}");
        }
    }

    #[test]
    fn labels_and_their_simulated_bands_meet_end_to_end() {
        assert_eq!(simulated_label(0.0), Label::Easy);
        assert_eq!(simulated_label(0.02), Label::Average);
        assert_eq!(simulated_label(0.19), Label::Challenging);
        assert_eq!(simulated_label(0.2), Label::Hard);
        assert_eq!(simulated_label(0.4), Label::Epic);
        assert_eq!(label_window(Label::Hard), [1, 3]);
    }

    fn job(groups: Vec<Group>, runs: u64) -> DesignJob {
        job_of(vec![member("orc.json", "1/3")], groups, runs)
    }

    fn job_of(pool: Vec<PoolMember>, groups: Vec<Group>, runs: u64) -> DesignJob {
        DesignJob {
            search: DesignSearch {
                side: "b".into(),
                target: vec![TargetBand { metric: DesignMetric::PSomePcDies, low: 0.2, high: 0.4 }],
                label: None,
                window: DEFAULT_WINDOW,
                apl: 1,
                neighbours: neighbours_of(&pool, &groups, 3, &|_| true),
                pool,
                groups,
                groups_in_window: 3,
                replay: None,
            },
            runs,
            race_rounds: 2,
            refine: 1,
            plans: 0,
            max_total_runs: None,
            party: StrategySpec::default_spec(),
            adversary: StrategySpec::default_spec(),
        }
    }

    /// A cell of two party members (side `a`, 10 hp) against the roster:
    /// member 0 dies in the runs whose index modulo 10 is below `deaths_in_10`.
    fn result(runs: u64, roster: usize, deaths_in_10: u64) -> CellResult {
        let n = 2 + roster;
        let mut summary = Summary::new(2, n);
        summary.runs = runs;
        let (mut final_hp, mut dead, mut winner) = (Vec::new(), Vec::new(), Vec::new());
        for i in 0..runs {
            let d = i % 10 < deaths_in_10;
            winner.push(0);
            for c in 0..n {
                let is_dead = (c == 0 && d) || c >= 2;
                final_hp.push(if is_dead { -5 } else { 5 });
                dead.push(is_dead);
            }
        }
        let mut combatants: Vec<CombatantInfo> = ["x", "y"]
            .iter()
            .map(|id| CombatantInfo { id: (*id).into(), side: 0, hp_max: 10, start_hp: 10 })
            .collect();
        for k in 0..roster {
            combatants.push(CombatantInfo { id: format!("orc-{k}"), side: 1, hp_max: 6, start_hp: 6 });
        }
        CellResult::of_records(summary, winner, 3, final_hp, dead, combatants)
    }

    /// Drives the planner: `deaths(orcs)` of every 10 runs lose member 0;
    /// at a fraction of hit points, the orcs kill proportionally less.
    fn drive(p: &mut Design, deaths: &dyn Fn(usize, f64) -> u64) -> Vec<CellSpec> {
        drive_cells(p, &|c: &CellSpec| deaths(c.extra["b"].roster.len(), c.hp["b"].as_f64()))
    }

    /// Drives the planner, `deaths(cell)` of every 10 runs losing member 0.
    fn drive_cells(p: &mut Design, deaths: &dyn Fn(&CellSpec) -> u64) -> Vec<CellSpec> {
        let mut cells = Vec::new();
        loop {
            match p.step() {
                Step::Emit(batch) => {
                    let first = cells.len();
                    cells.extend(batch);
                    for (i, c) in cells.iter().enumerate().skip(first) {
                        p.consume(i, &result(c.runs, c.extra["b"].roster.len(), deaths(c)));
                    }
                }
                Step::Wait => panic!("fed synchronously, the planner never waits"),
                Step::Done => return cells,
            }
        }
    }

    #[test]
    fn racing_drops_the_hopeless_keeps_the_band_and_refines_the_too_dangerous() {
        let mut p = Design::new(ctx(), job(vec![vec![(0, 1)], vec![(0, 2)], vec![(0, 3)]], 40));
        let deaths = |orcs: usize, hp: f64| match orcs {
            1 => 0,
            2 => 3,
            _ => (9.0 * hp).round() as u64 - if hp < 1.0 { 4 } else { 0 },
        };
        let cells = drive(&mut p, &deaths);
        // Round 1: three candidates of 40 runs; one orc (0 deaths) and three
        // orcs (90 %) are wholly outside [20 %, 40 %]; two orcs (30 %) race on.
        assert_eq!(cells[..3].iter().map(|c| c.runs).collect::<Vec<_>>(), [40, 40, 40]);
        assert_eq!(cells[0].extra["b"].roster, ["orc"]);
        assert_eq!(cells[2].extra["b"].roster, ["orc", "orc", "orc"]);
        assert_eq!((cells[3].runs, cells[3].extra["b"].roster.len()), (80, 2));
        assert_eq!((cells[4].runs, cells[4].extra["b"].roster.len()), (160, 2));
        // Then the too-dangerous group at 75 % and 50 % of its hit points.
        assert_eq!(cells.len(), 7);
        assert_eq!(cells[5].hp["b"], REFINE_FRACTIONS[0]);
        assert_eq!(cells[6].hp["b"], REFINE_FRACTIONS[1]);
        assert!(cells.iter().all(|c| c.seed == ctx().seed && c.hp["a"] == HpFraction::FULL));
        let JobResult::Design(r) = p.result() else { panic!("a design result") };
        assert_eq!(r.candidates.len(), 5);
        let top = &r.candidates[0];
        assert_eq!((top.rank, top.inside, top.files.len(), top.party.runs), (1, true, 2, 160));
        assert_eq!(top.simulated, Label::Hard);
        // Three orcs at half their hit points: 9 × 0.5 − 4 → 1 in 10, too easy.
        // At 75 %: round(6.75) − 4 = 3 in 10, inside: the second proposal.
        let second = &r.candidates[1];
        assert_eq!((second.rank, second.hp_fraction, second.members[0].count), (2, 0.75, 3));
        assert!(r.candidates[2..].iter().all(|c| c.rank == 0 && !c.inside && !c.misses.is_empty()));
        let dropped: Vec<bool> = r.candidates[2..].iter().map(|c| c.dropped).collect();
        assert_eq!(dropped.iter().filter(|d| **d).count(), 2, "one orc and three orcs were dropped");
        // Dead, member 0 loses its 10 hp (clamped at 0), alive 5; member 1 loses 5.
        assert!(
            (top.hp_lost_share - (0.3 * 15.0 + 0.7 * 10.0) / 20.0).abs() < 1e-12,
            "{}",
            top.hp_lost_share
        );
    }

    #[test]
    fn a_count_step_changes_the_most_numerous_kind_the_cheapest_first() {
        let pool = vec![member("kobold.json", "1/4"), member("orc.json", "1/3"), member("dragon.json", "6")];
        // Two kobolds and two orcs: the cheaper kind changes; a dragon and a kobold: the kobold.
        assert_eq!(one_fewer(&pool, &vec![(0, 2), (1, 2)]), Some(vec![(0, 1), (1, 2)]));
        assert_eq!(one_more(&pool, &vec![(1, 1), (2, 1)], 6), Some(vec![(1, 2), (2, 1)]));
        assert_eq!(one_fewer(&pool, &vec![(0, 1), (2, 1)]), Some(vec![(2, 1)]));
        // A lone monster has no group of one fewer; `max` monsters none of one more.
        assert_eq!(one_fewer(&pool, &vec![(2, 1)]), None);
        assert_eq!(one_more(&pool, &vec![(0, 2), (1, 1)], 3), None);
        // A neighbour the zone cannot place, or one already raced, is none.
        let groups = vec![vec![(1, 3)], vec![(1, 2)], vec![(2, 1)]];
        let n = neighbours_of(&pool, &groups, 4, &|g: &Group| g != &vec![(2, 2)]);
        assert_eq!(n[0], Neighbours { fewer: None, more: Some(vec![(1, 4)]) });
        assert_eq!(n[1], Neighbours { fewer: Some(vec![(1, 1)]), more: None });
        assert_eq!(n[2], Neighbours { fewer: None, more: None });
    }

    #[test]
    fn a_too_dangerous_group_loses_a_monster_and_a_too_easy_one_gains_one() {
        let pool = vec![member("orc.json", "1/3"), member("ogre.json", "3")];
        let j = job_of(pool, vec![vec![(0, 3)], vec![(1, 1)]], 40);
        // Two raced groups × 40 × (1 + 2 + 4), then 75 % and 50 % and one orc
        // fewer for the orcs, one ogre more for the ogre, at 160 runs.
        assert_eq!(j.worst_case_runs(), 2 * 40 * 7 + 4 * 160);
        let mut c = ctx();
        c.combatants.push(("b".into(), "ogre".into()));
        let mut p = Design::new(c, j);
        // Three orcs kill member 0 in 9 runs of 10 (fewer with fewer hit
        // points), two orcs or two ogres in 3, one ogre never.
        let deaths = |cell: &CellSpec| {
            let roster = &cell.extra["b"].roster;
            let (orcs, ogres) = (
                roster.iter().filter(|r| *r == "orc").count(),
                roster.iter().filter(|r| *r == "ogre").count(),
            );
            match (orcs, ogres) {
                (3, 0) => (9.0 * cell.hp["b"].as_f64()).round() as u64,
                (2, 0) | (0, 2) => 3,
                _ => 0,
            }
        };
        let cells = drive_cells(&mut p, &deaths);
        let rosters: Vec<(Vec<String>, HpFraction, u64)> =
            cells.iter().map(|c| (c.extra["b"].roster.clone(), c.hp["b"], c.runs)).collect();
        let orcs = |n| vec!["orc".to_string(); n];
        let ogres = |n| vec!["ogre".to_string(); n];
        assert_eq!(
            rosters,
            [
                (orcs(3), HpFraction::FULL, 40),
                (ogres(1), HpFraction::FULL, 40),
                (orcs(3), REFINE_FRACTIONS[0], 160),
                (orcs(3), REFINE_FRACTIONS[1], 160),
                (orcs(2), HpFraction::FULL, 160),
                (ogres(2), HpFraction::FULL, 160),
            ]
        );
        let JobResult::Design(r) = p.result() else { panic!("a design result") };
        let proposals: Vec<(String, u32)> = r
            .candidates
            .iter()
            .filter(|c| c.inside)
            .map(|c| (c.members[0].id.clone(), c.members[0].count))
            .collect();
        assert_eq!(proposals, [("orc".to_string(), 2), ("ogre".to_string(), 2)]);
        assert!(
            r.candidates.iter().filter(|c| c.inside).all(|c| c.hp_fraction == 1.0 && c.party.runs == 160)
        );
    }

    #[test]
    fn the_worst_case_counts_every_round_and_refinement_and_the_budget_refuses_before_any_battle() {
        let j = job(vec![vec![(0, 1)], vec![(0, 2)], vec![(0, 3)]], 40);
        // 3 × 40 × (1 + 2 + 4) + 1 × 2 × 160.
        assert_eq!(j.worst_case_runs(), 840 + 320);
        assert!(j.check().is_ok());
        let over = DesignJob { max_total_runs: Some(1000), ..j.clone() };
        let e = over.check().unwrap_err().to_string();
        assert!(e.contains("1160 runs") && e.contains("3 candidates"), "{e}");
        // Each proposal's plan search reserves every single-lever variant at the last round's runs.
        let planned = DesignJob { plans: 2, ..j.clone() };
        // … and one two-lever plan.
        assert_eq!(planned.worst_case_runs(), 1160 + 2 * (most_plans() as u64 + 1) * 160);
        let e = DesignJob { plans: MAX_PLANS + 1, ..j }.check().unwrap_err().to_string();
        assert!(e.contains("plans: at most 8"), "{e}");
    }

    #[test]
    fn a_proposal_gets_its_safest_party_plan_paired_on_its_battles_and_its_worst_battle() {
        let mut j = job(vec![vec![(0, 2)]], 40);
        j.plans = 1;
        let mut p = Design::new(ctx(), j);
        // Two orcs kill member 0 in 3 runs of 10 (raced up to 160 runs); retreating at half hit
        // points saves two of those three; every other plan changes nothing.
        let deaths = |c: &CellSpec| if c.party_strategy.as_str() == "retreat=0.5" { 1 } else { 3 };
        let cells = drive_cells(&mut p, &deaths);
        let plans: Vec<&CellSpec> =
            cells.iter().filter(|c| c.party_strategy != StrategySpec::default_spec()).collect();
        assert_eq!(plans.len(), most_plans(), "every variant, on the proposal's own cell");
        assert!(
            plans.iter().all(|c| c.runs == 160 && c.seed == ctx().seed && c.extra["b"].roster.len() == 2)
        );
        let JobResult::Design(r) = p.result() else { panic!("a design result") };
        let top = &r.candidates[0];
        assert_eq!(top.rank, 1);
        let plan = top.plan.as_ref().expect("the proposal's plan");
        assert_eq!(
            (plan.strategy.as_str(), plan.better, plan.measured),
            ("retreat=0.5", true, most_plans() as u32)
        );
        // Paired: 2 runs of 10 change from a death to none, the rest nothing.
        assert!((plan.change + 0.2).abs() < 1e-12 && (plan.p_some_pc_dies - 0.1).abs() < 1e-12, "{plan:?}");
        assert!(plan.told_apart && plan.change_interval[1] < 0.0, "{plan:?}");
        // The worst decile loses 15 hp (member 0 dead); its middle's first run is run 0.
        let battle = top.worth_reading.as_ref().expect("a battle worth reading");
        assert_eq!((battle.run, battle.runs, battle.hp_lost, battle.some_death), (0, 160, 15, true));
        assert_eq!(battle.command, "", "no replay without the sweep's scenario");

        // When no plan does better, the party's own strategy is the plan.
        let mut j = job(vec![vec![(0, 2)]], 40);
        j.plans = 1;
        let mut p = Design::new(ctx(), j);
        drive_cells(&mut p, &|_| 3);
        let JobResult::Design(r) = p.result() else { panic!("a design result") };
        let plan = r.candidates[0].plan.clone().expect("a plan");
        assert_eq!(
            (plan.strategy.as_str(), plan.better, plan.told_apart, plan.change),
            ("default", false, false, 0.0)
        );
    }

    #[test]
    fn the_two_best_plans_are_tried_together_and_the_pair_wins_when_it_is_better() {
        let mut j = job(vec![vec![(0, 2)]], 40);
        j.plans = 1;
        let mut p = Design::new(ctx(), j);
        // Retreating at half hit points saves two deaths of three, targeting
        // the healer one, both together all three; nothing else changes.
        let deaths = |c: &CellSpec| match c.party_strategy.as_str() {
            "retreat=0.5" => 1,
            "healer" => 2,
            "healer, retreat=0.5" => 0,
            _ => 3,
        };
        let cells = drive_cells(&mut p, &deaths);
        let last = cells.last().expect("cells");
        assert_eq!((last.party_strategy.as_str(), last.runs), ("healer, retreat=0.5", 160));
        let JobResult::Design(r) = p.result() else { panic!("a design result") };
        let plan = r.candidates[0].plan.clone().expect("a plan");
        assert_eq!(
            (plan.strategy.as_str(), plan.better, plan.measured),
            ("healer, retreat=0.5", true, most_plans() as u32 + 1)
        );
        assert!((plan.change + 0.3).abs() < 1e-12, "{plan:?}");

        // One lever that helps is not combined with anything.
        let mut j = job(vec![vec![(0, 2)]], 40);
        j.plans = 1;
        let mut p = Design::new(ctx(), j);
        let cells =
            drive_cells(&mut p, &|c: &CellSpec| if c.party_strategy.as_str() == "healer" { 2 } else { 3 });
        assert_eq!(cells.len(), 3 + most_plans(), "three racing cells and the single-lever plans");
    }

    #[test]
    fn the_replay_command_is_the_sweeps_scenario_with_the_proposal_on_its_side() {
        let replay = Replay {
            map: "../maps/field.yaml".into(),
            sides: vec![("monsters".into(), vec![]), ("players".into(), vec!["../pcs/esha.json".into()])],
            round_cap: 30,
            simple_monster_death: false,
            seed: 4,
        };
        let files = vec!["../monsters/my orc.json".to_string(), "../monsters/ogre.json".to_string()];
        let retreat = StrategySpec::parse("retreat=0.5").unwrap();
        let cmd = replay.command(
            "monsters",
            &files,
            HpFraction(750_000),
            160,
            17,
            (&retreat, &StrategySpec::default_spec()),
        );
        assert_eq!(
            cmd,
            "pf1e sim --map ../maps/field.yaml --side monsters '../monsters/my orc.json' ../monsters/ogre.json \
             --side players ../pcs/esha.json --round-cap 30 --start-hp monsters 0.75 --strategy retreat=0.5 \
             --seed 4 --runs 160 --transcript --show run 17"
        );
        assert_eq!(shell_word("it's"), "'it'\\''s'");
    }
}
