//! `danger_map`: both sides' danger over party HP × adversary HP fractions,
//! refined coarse-to-fine near a danger threshold.
//!
//! The grid of `fractions` is measured first. Each square between four
//! neighbouring measured points whose corners lie on both sides of the
//! threshold (the party criterion crossed at some corners, not at others)
//! is split in four — its edge midpoints and centre are measured — down to
//! `depth` levels. Squares whose corners agree are left alone: the
//! boundary is sharp where it matters and cheap elsewhere.
//!
//! Uncertainty (`docs/statistics.md`): each point's criterion has its
//! interval at the sweep's confidence level; a point is decided crossed or
//! safe only when the interval lies on one side of the threshold. Before
//! each refinement level, the undecided points are measured again with
//! twice the runs, up to `resample` times (and within the job's budget,
//! which always keeps room for the refinement still possible); a point
//! still straddling the threshold is reported undecided. A square is split
//! unless its corners are all decided the same way. Each point plays its
//! own dice stream (a seed derived from the sweep's and the point), so the
//! errors of a map's cells are independent instead of all leaning the same
//! way. A layer names its most dangerous point only when that point's
//! interval is beyond every other point's.

use std::collections::BTreeMap;

use pf1e_engine::objectives::Criterion;
use pf1e_wire::results::{DangerLayer, DangerMapResult, DangerPoint, DangerSquare, JobProgress, JobResult};
use serde::Deserialize;

use pf1e_llm::Side as LlmSide;

use crate::cell::{CellSpec, Decide, HpFraction, NotCompiled, SideExtra, StrategySpec, WrittenStrategy};
use crate::jobs::JobError;
use crate::jobs::metrics::{CellMetrics, MetricPlanner};
use crate::plan::{JobContext, PlannerState, Step};

/// The `danger_map` job as written in the sweep file.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DangerMapFile {
    /// Runs per cell (default: the sweep's).
    #[serde(default)]
    pub runs: Option<u64>,
    /// Most runs the job may spend.
    #[serde(default)]
    pub max_total_runs: Option<u64>,
    /// HP fractions of both axes.
    #[serde(default = "default_fractions")]
    pub fractions: Vec<HpFraction>,
    /// The party's strategy.
    #[serde(default = "WrittenStrategy::default_spec")]
    pub party: WrittenStrategy,
    /// The adversary's strategy.
    #[serde(default = "WrittenStrategy::default_spec")]
    pub adversary: WrittenStrategy,
    /// The party criterion whose threshold drives refinement and colours.
    #[serde(default = "default_criterion")]
    pub criterion: Criterion,
    /// The danger threshold.
    #[serde(default = "default_threshold")]
    pub threshold: f64,
    /// Refinement levels (0: the grid only).
    #[serde(default)]
    pub depth: u32,
    /// Extra axis: awareness (surprise) of each listed side.
    #[serde(default)]
    pub aware: BTreeMap<String, Vec<bool>>,
    /// Extra axis: counts of extra copies, per side, per base combatant id.
    #[serde(default)]
    pub copies: BTreeMap<String, BTreeMap<String, Vec<u32>>>,
    /// Times an undecided point may be measured again with twice the runs.
    #[serde(default = "default_resample")]
    pub resample: u32,
}

impl DangerMapFile {
    /// The job of this file: `runs` the sweep's unless it writes its own,
    /// every strategy decided.
    pub fn decide(self, runs: u64, spec: &mut Decide) -> Result<DangerMapJob, NotCompiled> {
        Ok(DangerMapJob {
            runs: self.runs.unwrap_or(runs),
            max_total_runs: self.max_total_runs,
            fractions: self.fractions,
            party: spec(LlmSide::Party, &self.party)?,
            adversary: spec(LlmSide::Adversary, &self.adversary)?,
            criterion: self.criterion,
            threshold: self.threshold,
            depth: self.depth,
            aware: self.aware,
            copies: self.copies,
            resample: self.resample,
        })
    }
}

/// The `danger_map` job, decided: its runs and strategies known.
#[derive(Debug, Clone, PartialEq)]
pub struct DangerMapJob {
    /// Runs per cell.
    pub runs: u64,
    /// Most runs the job may spend.
    pub max_total_runs: Option<u64>,
    /// HP fractions of both axes.
    pub fractions: Vec<HpFraction>,
    /// The party's strategy.
    pub party: StrategySpec,
    /// The adversary's strategy.
    pub adversary: StrategySpec,
    /// The party criterion whose threshold drives refinement and colours.
    pub criterion: Criterion,
    /// The danger threshold.
    pub threshold: f64,
    /// Refinement levels (0: the grid only).
    pub depth: u32,
    /// Extra axis: awareness (surprise) of each listed side.
    pub aware: BTreeMap<String, Vec<bool>>,
    /// Extra axis: counts of extra copies, per side, per base combatant id.
    pub copies: BTreeMap<String, BTreeMap<String, Vec<u32>>>,
    /// Times an undecided point may be measured again with twice the runs.
    pub resample: u32,
}

fn default_resample() -> u32 {
    2
}

fn default_fractions() -> Vec<HpFraction> {
    vec![HpFraction(500_000), HpFraction(700_000), HpFraction::FULL]
}
fn default_criterion() -> Criterion {
    Criterion::PTpk
}
fn default_threshold() -> f64 {
    0.2
}

impl DangerMapJob {
    fn axis(&self) -> Vec<u32> {
        let mut a: Vec<u32> = self.fractions.iter().map(|f| f.0).collect();
        a.sort_unstable();
        a.dedup();
        a
    }

    /// Points at most: every square split at every level.
    pub fn worst_case_points(&self) -> u64 {
        let n = self.axis().len() as u64;
        if n < 2 {
            return n * n;
        }
        let side = (n - 1).saturating_mul(1u64 << self.depth.min(20)) + 1;
        side.saturating_mul(side)
    }

    /// The runs of every layer fully refined, each point measured once.
    pub fn fixed_runs(&self) -> u64 {
        self.worst_case_points().saturating_mul(self.layers().len() as u64).saturating_mul(self.runs)
    }

    /// The most runs the job can plan: its budget when it has one
    /// (resampling adapts to what is left), else every layer fully refined
    /// and every point resampled `resample` times (runs × (1 + 2 + … + 2^r)).
    pub fn worst_case_runs(&self) -> u64 {
        if let Some(max) = self.max_total_runs {
            return max;
        }
        let factor = (1u64 << (self.resample.min(20) + 1)) - 1;
        self.fixed_runs().saturating_mul(factor)
    }

    /// One map per combination of the extra axes (one map without them).
    pub fn layers(&self) -> Vec<BTreeMap<String, SideExtra>> {
        let mut layers: Vec<BTreeMap<String, SideExtra>> = vec![BTreeMap::new()];
        for (side, values) in &self.aware {
            layers = layers
                .into_iter()
                .flat_map(|l| {
                    values.iter().map(move |&v| {
                        let mut l = l.clone();
                        l.entry(side.clone()).or_default().aware = Some(v);
                        l
                    })
                })
                .collect();
        }
        for (side, ids) in &self.copies {
            for (id, counts) in ids {
                layers = layers
                    .into_iter()
                    .flat_map(|l| {
                        counts.iter().map(move |&n| {
                            let mut l = l.clone();
                            let e = l.entry(side.clone()).or_default();
                            e.copies.extend(std::iter::repeat_n(id.clone(), n as usize));
                            e.copies.sort();
                            l
                        })
                    })
                    .collect();
            }
        }
        for l in &mut layers {
            l.retain(|_, e| *e != SideExtra::default());
        }
        layers
    }

    /// Checks the job before anything runs.
    pub fn check(&self) -> Result<(), JobError> {
        if self.fractions.is_empty() {
            return Err(JobError::invalid("danger_map", "fractions must not be empty"));
        }
        if self.aware.values().any(Vec::is_empty)
            || self.copies.values().flat_map(|m| m.values()).any(Vec::is_empty)
        {
            return Err(JobError::invalid("danger_map", "an extra axis lists no value"));
        }
        if !self.threshold.is_finite() {
            return Err(JobError::invalid(
                "danger_map",
                format!("threshold must be a number, got {}", self.threshold),
            ));
        }
        if self.depth > 6 {
            return Err(JobError::invalid(
                "danger_map",
                format!("depth must be at most 6, got {}", self.depth),
            ));
        }
        if self.resample > 8 {
            return Err(JobError::invalid(
                "danger_map",
                format!("resample must be at most 8, got {}", self.resample),
            ));
        }
        if let Some(max) = self.max_total_runs
            && self.fixed_runs() > max
        {
            return Err(JobError::OverBudget {
                job: "danger_map",
                plan: format!(
                    "{} cells of {} runs",
                    self.worst_case_points() * self.layers().len() as u64,
                    self.runs
                ),
                runs: self.fixed_runs(),
                max,
            });
        }
        Ok(())
    }
}

/// A square of the map: party range × adversary range, at a level.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
struct Square {
    p0: u32,
    p1: u32,
    a0: u32,
    a1: u32,
    level: u32,
}

impl Square {
    fn corners(&self) -> [(u32, u32); 4] {
        [(self.p0, self.a0), (self.p0, self.a1), (self.p1, self.a0), (self.p1, self.a1)]
    }
}

/// A point of a layer.
#[derive(Debug, Clone)]
struct Point {
    /// Refinement level that first measured it.
    level: u32,
    /// Runs of the measurement asked for last.
    runs: u64,
    /// Times it was measured again.
    resampled: u32,
    /// Its largest measurement so far.
    metrics: Option<CellMetrics>,
    /// Whether a measurement is in flight.
    pending: bool,
}

/// Where a point lies with respect to the threshold.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Side {
    Crossed,
    Safe,
    Undecided,
}

/// One map: one combination of the extra axes.
#[derive(Default)]
struct Layer {
    extra: BTreeMap<String, SideExtra>,
    /// Points: (party ppm, adversary ppm) -> point.
    points: BTreeMap<(u32, u32), Point>,
    /// Squares of the current level; split squares are replaced by their children.
    frontier: Vec<Square>,
    leaves: Vec<Square>,
    level: u32,
    started: bool,
    done: bool,
}

/// The danger map planner: the layers one after the other.
pub struct DangerMap {
    ctx: JobContext,
    job: DangerMapJob,
    layers: Vec<Layer>,
    current: usize,
    /// (layer, point) of each emitted cell.
    emitted: Vec<(usize, (u32, u32))>,
    /// Runs planned so far.
    spent: u64,
    /// First measurements planned so far (the fixed part of the budget).
    first: u64,
}

/// The seed of a point: the sweep's mixed with the layer and the point, so
/// that each point plays its own dice (splitmix64 finaliser).
fn point_seed(seed: u64, layer: usize, p: (u32, u32)) -> u64 {
    let mut z = seed ^ ((layer as u64) << 48) ^ (u64::from(p.0) << 24) ^ u64::from(p.1);
    z = z.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

impl DangerMap {
    /// The planner of `job`.
    pub fn new(ctx: JobContext, job: DangerMapJob) -> Self {
        let layers = job.layers().into_iter().map(|extra| Layer { extra, ..Layer::default() }).collect();
        Self { ctx, job, layers, current: 0, emitted: Vec::new(), spent: 0, first: 0 }
    }

    fn cell(&mut self, li: usize, p: (u32, u32), runs: u64) -> CellSpec {
        self.emitted.push((li, p));
        self.spent += runs;
        let mut cell =
            self.ctx.cell(&self.job.party, &self.job.adversary, HpFraction(p.0), HpFraction(p.1), runs);
        cell.seed = point_seed(self.ctx.seed, li, p);
        cell.extra = self.layers[li].extra.clone();
        cell
    }

    fn emit(&mut self, pts: Vec<(u32, u32)>, level: u32) -> Vec<CellSpec> {
        let mut cells = Vec::new();
        let li = self.current;
        let runs = self.job.runs;
        for p in pts {
            if self.layers[li].points.contains_key(&p) {
                continue;
            }
            self.layers[li]
                .points
                .insert(p, Point { level, runs, resampled: 0, metrics: None, pending: true });
            self.first += 1;
            cells.push(self.cell(li, p, runs));
        }
        cells
    }

    /// Where point `p` of layer `li` lies: decided only when its interval
    /// is on one side of the threshold.
    fn side(&self, li: usize, p: (u32, u32)) -> Option<Side> {
        let m = self.layers[li].points.get(&p)?.metrics.as_ref()?;
        Some(side_of(self.job.criterion, self.job.threshold, &m.party))
    }

    /// Re-measures the undecided points of the current layer with twice the
    /// runs, when the rounds and the budget allow; empty when none.
    fn resample(&mut self) -> Vec<CellSpec> {
        let li = self.current;
        let undecided: Vec<((u32, u32), u64)> = self.layers[li]
            .points
            .iter()
            .filter(|(_, pt)| pt.resampled < self.job.resample)
            .filter(|&(&p, _)| self.side(li, p) == Some(Side::Undecided))
            .map(|(&p, pt)| (p, pt.runs * 2))
            .collect();
        let mut cells = Vec::new();
        for (p, runs) in undecided {
            if let Some(max) = self.job.max_total_runs {
                // Keep room for every first measurement still possible.
                let fixed_left = self.job.fixed_runs().saturating_sub(self.first * self.job.runs);
                if self.spent + runs + fixed_left > max {
                    continue;
                }
            }
            if let Some(pt) = self.layers[li].points.get_mut(&p) {
                pt.runs = runs;
                pt.resampled += 1;
                pt.pending = true;
            }
            cells.push(self.cell(li, p, runs));
        }
        cells
    }

    /// Steps the current layer; `None` when it is finished.
    fn step_layer(&mut self) -> Option<Step> {
        let li = self.current;
        if self.layers[li].done {
            return None;
        }
        if self.layers[li].points.values().any(|pt| pt.pending) {
            return Some(Step::Wait);
        }
        if !self.layers[li].started {
            self.layers[li].started = true;
            let axis = self.job.axis();
            let pts: Vec<(u32, u32)> = axis.iter().flat_map(|&p| axis.iter().map(move |&a| (p, a))).collect();
            for w in axis.windows(2) {
                for v in axis.windows(2) {
                    self.layers[li].frontier.push(Square {
                        p0: w[0],
                        p1: w[1],
                        a0: v[0],
                        a1: v[1],
                        level: 0,
                    });
                }
            }
            return Some(Step::Emit(self.emit(pts, 0)));
        }
        let again = self.resample();
        if !again.is_empty() {
            return Some(Step::Emit(again));
        }
        while self.layers[li].level < self.job.depth {
            self.layers[li].level += 1;
            let level = self.layers[li].level;
            let mut next = Vec::new();
            let mut pts = Vec::new();
            for sq in std::mem::take(&mut self.layers[li].frontier) {
                // Split unless every corner is decided, and the same way.
                let sides: Vec<Option<Side>> = sq.corners().iter().map(|&c| self.side(li, c)).collect();
                let split = sides.iter().any(|s| *s != sides[0]) || sides[0] == Some(Side::Undecided);
                let (pm, am) = (sq.p0 + (sq.p1 - sq.p0) / 2, sq.a0 + (sq.a1 - sq.a0) / 2);
                if !split || pm == sq.p0 || am == sq.a0 {
                    self.layers[li].leaves.push(sq);
                    continue;
                }
                for (p0, p1) in [(sq.p0, pm), (pm, sq.p1)] {
                    for (a0, a1) in [(sq.a0, am), (am, sq.a1)] {
                        next.push(Square { p0, p1, a0, a1, level });
                    }
                }
                pts.extend([(pm, sq.a0), (pm, sq.a1), (sq.p0, am), (sq.p1, am), (pm, am)]);
            }
            self.layers[li].frontier = next;
            let cells = self.emit(pts, level);
            if !cells.is_empty() {
                return Some(Step::Emit(cells));
            }
        }
        let layer = &mut self.layers[li];
        layer.leaves.append(&mut layer.frontier);
        layer.leaves.sort();
        layer.done = true;
        None
    }

    fn layer_result(&self, layer: &Layer) -> DangerLayer {
        let f = |x: u32| f64::from(x) / 1e6;
        let criterion = self.job.criterion;
        DangerLayer {
            aware: layer.extra.iter().filter_map(|(s, e)| e.aware.map(|a| (s.clone(), a))).collect(),
            copies: layer
                .extra
                .iter()
                .filter(|(_, e)| !e.copies.is_empty())
                .map(|(s, e)| (s.clone(), e.copies.clone()))
                .collect(),
            points: layer
                .points
                .iter()
                .filter_map(|(&(p, a), pt)| {
                    let m = pt.metrics.as_ref()?;
                    let value = criterion.value(&m.party);
                    let (lo, hi) = m.party.interval(criterion);
                    Some(DangerPoint {
                        party_hp: f(p),
                        adversary_hp: f(a),
                        level: pt.level,
                        value,
                        crossed: criterion.crossed(value, self.job.threshold),
                        party: m.party.clone(),
                        adversary: m.adversary.clone(),
                        interval: [lo, hi],
                        undecided: side_of(criterion, self.job.threshold, &m.party) == Side::Undecided,
                        resampled: pt.resampled,
                    })
                })
                .collect(),
            most_dangerous: most_dangerous(criterion, layer),
            squares: layer
                .leaves
                .iter()
                .map(|s| DangerSquare {
                    party_hp: [f(s.p0), f(s.p1)],
                    adversary_hp: [f(s.a0), f(s.a1)],
                    level: s.level,
                })
                .collect(),
        }
    }
}

/// Where `m` lies with respect to `threshold` on `criterion`, by its interval.
fn side_of(criterion: Criterion, threshold: f64, m: &pf1e_engine::objectives::DangerMetrics) -> Side {
    let (lo, hi) = m.interval(criterion);
    match (criterion.crossed(lo, threshold), criterion.crossed(hi, threshold)) {
        (true, true) => Side::Crossed,
        (false, false) => Side::Safe,
        _ => Side::Undecided,
    }
}

/// The layer's most dangerous point, `[party_hp, adversary_hp]`, when its
/// interval lies entirely beyond every other point's toward danger (a
/// conservative test: non-overlapping intervals); `None` otherwise.
fn most_dangerous(criterion: Criterion, layer: &Layer) -> Option<[f64; 2]> {
    let danger_up = !criterion.higher_is_better();
    let pts: Vec<((u32, u32), (f64, f64))> = layer
        .points
        .iter()
        .filter_map(|(&p, pt)| pt.metrics.as_ref().map(|m| (p, m.party.interval(criterion))))
        .collect();
    // The point whose safe-side bound is the most dangerous.
    let worst = pts.iter().copied().max_by(|a, b| {
        let key = |i: (f64, f64)| if danger_up { i.0 } else { -i.1 };
        key(a.1).total_cmp(&key(b.1)).then(b.0.cmp(&a.0))
    })?;
    let beyond = pts
        .iter()
        .filter(|(p, _)| *p != worst.0)
        .all(|(_, (lo, hi))| if danger_up { worst.1.0 > *hi } else { worst.1.1 < *lo });
    (beyond && pts.len() > 1).then_some([f64::from(worst.0.0) / 1e6, f64::from(worst.0.1) / 1e6])
}

impl MetricPlanner for DangerMap {
    fn kind(&self) -> &'static str {
        "danger_map"
    }

    fn step(&mut self) -> Step {
        while self.current < self.layers.len() {
            if let Some(step) = self.step_layer() {
                return step;
            }
            self.current += 1;
        }
        Step::Done
    }

    fn consume_metrics(&mut self, index: usize, m: &CellMetrics) {
        if let Some(&(li, p)) = self.emitted.get(index)
            && let Some(pt) = self.layers.get_mut(li).and_then(|l| l.points.get_mut(&p))
        {
            if pt.metrics.as_ref().is_none_or(|old| old.party.runs <= m.party.runs) {
                pt.metrics = Some(m.clone());
            }
            pt.pending = pt.metrics.as_ref().is_none_or(|have| have.party.runs < pt.runs);
        }
    }

    fn state(&self) -> PlannerState {
        let measured: usize =
            self.layers.iter().map(|l| l.points.values().filter(|pt| pt.metrics.is_some()).count()).sum();
        PlannerState {
            phase: format!("layer {} of {}", (self.current + 1).min(self.layers.len()), self.layers.len()),
            cells: self.emitted.len() as u64,
            measured: measured as u64,
        }
    }

    fn result(&self) -> JobResult {
        JobResult::DangerMap(DangerMapResult::new(
            self.job.criterion,
            self.job.threshold,
            self.job.party.as_str().to_string(),
            self.job.adversary.as_str().to_string(),
            self.job.depth,
            self.layers.iter().map(|l| self.layer_result(l)).collect(),
        ))
    }

    fn progress(&self) -> Option<JobProgress> {
        let measured: usize =
            self.layers.iter().map(|l| l.points.values().filter(|pt| pt.metrics.is_some()).count()).sum();
        (measured > 0).then_some(JobProgress::DangerMap { measured: measured as u64 })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::jobs::metrics::testing::{self, ctx, drive, metrics};

    fn result(d: &DangerMap) -> DangerMapResult {
        match d.result() {
            JobResult::DangerMap(r) => r,
            other => panic!("not a danger map: {other:?}"),
        }
    }

    fn job(depth: u32) -> DangerMapJob {
        DangerMapJob {
            runs: 10,
            max_total_runs: None,
            fractions: vec![HpFraction(200_000), HpFraction(600_000), HpFraction::FULL],
            party: StrategySpec::default_spec(),
            adversary: StrategySpec::default_spec(),
            criterion: Criterion::PTpk,
            threshold: 0.5,
            depth,
            aware: BTreeMap::new(),
            copies: BTreeMap::new(),
            resample: 2,
        }
    }

    /// p_tpk ≥ 0.5 exactly when the party has less than 0.5 HP: a vertical boundary.
    fn boundary(c: &CellSpec) -> CellMetrics {
        let p = c.hp["a"].as_f64();
        metrics(if p < 0.5 { 0.0 } else { 1.0 }, 0.0, c.runs)
    }

    #[test]
    fn the_grid_alone_and_both_sides_measured() {
        let mut d = DangerMap::new(ctx(), job(0));
        let cells = drive(&mut d, &boundary);
        assert_eq!(cells.len(), 9);
        let r = result(&d);
        assert_eq!(r.points.len(), 9);
        assert_eq!(r.points, r.layers[0].points, "the top level repeats the first layer");
        assert_eq!(r.points[0].adversary.runs, 10, "both sides are measured");
    }

    #[test]
    fn refinement_follows_the_boundary_only() {
        let mut d = DangerMap::new(ctx(), job(2));
        let cells = drive(&mut d, &boundary);
        // Only the column of squares between party 0.2 and 0.6 straddles the boundary.
        let parties: std::collections::BTreeSet<u32> = cells.iter().map(|c| c.hp["a"].0).collect();
        assert!(parties.contains(&400_000) && parties.contains(&500_000), "{parties:?}");
        assert!(!parties.contains(&800_000), "the safe half is not refined: {parties:?}");
        assert!((cells.len() as u64) < job(2).worst_case_points());
        let mut seen = std::collections::BTreeSet::new();
        assert!(cells.iter().all(|c| seen.insert((c.hp["a"], c.hp["b"]))), "no point is measured twice");
        let seeds: std::collections::BTreeSet<u64> = cells.iter().map(|c| c.seed).collect();
        assert_eq!(seeds.len(), cells.len(), "each point plays its own dice");
        assert!(
            DangerMapJob { max_total_runs: Some(100), ..job(2) }
                .check()
                .unwrap_err()
                .to_string()
                .contains("max_total_runs")
        );
    }

    #[test]
    fn extra_axes_make_one_layer_per_combination() {
        let mut j = job(0);
        j.aware.insert("a".into(), vec![true, false]);
        j.copies.insert("b".into(), [("orc".to_string(), vec![0, 2])].into_iter().collect());
        assert_eq!(j.layers().len(), 4);
        assert_eq!(j.fixed_runs(), 4 * 9 * 10);
        assert_eq!(j.worst_case_runs(), 4 * 9 * 10 * 7, "each point resampled twice at most");
        let mut d = DangerMap::new(ctx(), j);
        let cells = drive(&mut d, &boundary);
        assert_eq!(cells.len(), 4 * 9);
        assert!(cells.iter().any(|c| c.extra.get("b").is_some_and(|e| e.copies == ["orc", "orc"])));
        assert!(cells.iter().any(|c| c.extra.get("a").is_some_and(|e| e.aware == Some(false))));
        assert!(cells[..9].iter().all(|c| !c.extra.contains_key("b")), "the first layer adds no copy");
        assert_eq!(result(&d).layers.len(), 4);
    }

    #[test]
    fn points_straddling_the_threshold_are_measured_again_then_called_undecided() {
        // P(TPK) = 0.45 at party 0.2 (threshold 0.5): at 10 runs the interval
        // straddles it; twice resampled (40 runs) it still does: undecided.
        // Elsewhere 0 or 1: decided at once.
        let eval = |c: &CellSpec| {
            let p = c.hp["a"].as_f64();
            let t = if p < 0.3 {
                0.45
            } else if p < 0.7 {
                1.0
            } else {
                0.0
            };
            testing::synthetic(c.seed, 1, c.runs, t, t, 5.0)
        };
        let mut d = DangerMap::new(ctx(), job(0));
        let cells = drive(&mut d, &eval);
        let again: Vec<&CellSpec> = cells.iter().filter(|c| c.runs > 10).collect();
        assert_eq!(again.len(), 3 * 2, "the three points at party 0.2, twice each");
        assert!(again.iter().all(|c| c.hp["a"] == HpFraction(200_000)));
        let r = result(&d);
        let undecided: Vec<&DangerPoint> = r.points.iter().filter(|p| p.undecided).collect();
        assert_eq!(undecided.len(), 3);
        assert!(undecided.iter().all(|p| p.party.runs == 40 && p.resampled == 2));
        assert!(undecided.iter().all(|p| p.interval[0] < 0.5 && p.interval[1] >= 0.5), "{undecided:?}");
        // Every crossed point is at 1.0: none is significantly the worst.
        assert_eq!(r.layers[0].most_dangerous, None);

        // With a budget that leaves no room, nothing is resampled.
        let j = DangerMapJob { max_total_runs: Some(90), ..job(0) };
        let mut d = DangerMap::new(ctx(), j);
        assert_eq!(drive(&mut d, &eval).len(), 9);
    }

    #[test]
    fn the_most_dangerous_point_is_named_only_when_significantly_so() {
        let eval = |worst: f64| {
            move |c: &CellSpec| {
                let (p, a) = (c.hp["a"].as_f64(), c.hp["b"].as_f64());
                let t = if p < 0.3 && a > 0.9 { worst } else { 0.1 };
                testing::synthetic(c.seed, 1, c.runs, t, t, 5.0)
            }
        };
        let j = DangerMapJob { runs: 200, ..job(0) };
        let mut d = DangerMap::new(ctx(), j.clone());
        drive(&mut d, &eval(0.9));
        assert_eq!(result(&d).layers[0].most_dangerous, Some([0.2, 1.0]));
        let mut d = DangerMap::new(ctx(), j);
        drive(&mut d, &eval(0.12));
        assert_eq!(result(&d).layers[0].most_dangerous, None, "0.12 against 0.1 at 200 runs is noise");
    }
}
