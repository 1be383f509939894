//! `danger_map`: both sides' danger over party HP × adversary HP fractions,
//! refined coarse-to-fine near a danger threshold.
//!
//! The grid of `fractions` is measured first. Each square between four
//! neighbouring measured points whose corners lie on both sides of the
//! threshold (the party criterion crossed at some corners, not at others)
//! is split in four — its edge midpoints and centre are measured — down to
//! `depth` levels. Squares whose corners agree are left alone: the
//! boundary is sharp where it matters and cheap elsewhere.

use std::collections::BTreeMap;

use pf1e_engine::objectives::Criterion;
use pf1e_wire::results::{DangerLayer, DangerMapResult, DangerPoint, DangerSquare, JobProgress, JobResult};
use serde::Deserialize;

use crate::cell::{CellSpec, HpFraction, SideExtra, StrategySpec};
use crate::jobs::JobError;
use crate::jobs::metrics::{CellMetrics, MetricPlanner};
use crate::plan::{JobContext, PlannerState, Step};

/// The `danger_map` job as written in the sweep file.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DangerMapJob {
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
    #[serde(default = "StrategySpec::default_spec")]
    pub party: StrategySpec,
    /// The adversary's strategy.
    #[serde(default = "StrategySpec::default_spec")]
    pub adversary: StrategySpec,
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
    /// Runs per cell.
    pub fn runs(&self) -> u64 {
        self.runs.unwrap_or(1)
    }

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

    /// The most runs the job can plan: every layer fully refined.
    pub fn worst_case_runs(&self) -> u64 {
        self.worst_case_points().saturating_mul(self.layers().len() as u64).saturating_mul(self.runs())
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
        if let Some(max) = self.max_total_runs
            && self.worst_case_runs() > max
        {
            return Err(JobError::OverBudget {
                job: "danger_map",
                plan: format!(
                    "{} cells of {} runs",
                    self.worst_case_points() * self.layers().len() as u64,
                    self.runs()
                ),
                runs: self.worst_case_runs(),
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

/// One map: one combination of the extra axes.
#[derive(Default)]
struct Layer {
    extra: BTreeMap<String, SideExtra>,
    /// Measured points: (party ppm, adversary ppm) -> (level, metrics).
    points: BTreeMap<(u32, u32), (u32, Option<CellMetrics>)>,
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
}

impl DangerMap {
    /// The planner of `job`.
    pub fn new(ctx: JobContext, job: DangerMapJob) -> Self {
        let layers = job.layers().into_iter().map(|extra| Layer { extra, ..Layer::default() }).collect();
        Self { ctx, job, layers, current: 0, emitted: Vec::new() }
    }

    fn emit(&mut self, pts: Vec<(u32, u32)>, level: u32) -> Vec<CellSpec> {
        let mut cells = Vec::new();
        let li = self.current;
        for p in pts {
            if self.layers[li].points.contains_key(&p) {
                continue;
            }
            self.layers[li].points.insert(p, (level, None));
            self.emitted.push((li, p));
            let mut cell = self.ctx.cell(
                &self.job.party,
                &self.job.adversary,
                HpFraction(p.0),
                HpFraction(p.1),
                self.job.runs(),
            );
            cell.extra = self.layers[li].extra.clone();
            cells.push(cell);
        }
        cells
    }

    fn crossed(&self, li: usize, p: (u32, u32)) -> Option<bool> {
        let m = self.layers[li].points.get(&p)?.1.as_ref()?;
        let v = self.job.criterion.value(&m.party);
        Some(self.job.criterion.crossed(v, self.job.threshold))
    }

    /// Steps the current layer; `None` when it is finished.
    fn step_layer(&mut self) -> Option<Step> {
        let li = self.current;
        if self.layers[li].done {
            return None;
        }
        if self.layers[li].points.values().any(|(_, m)| m.is_none()) {
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
        while self.layers[li].level < self.job.depth {
            self.layers[li].level += 1;
            let level = self.layers[li].level;
            let mut next = Vec::new();
            let mut pts = Vec::new();
            for sq in std::mem::take(&mut self.layers[li].frontier) {
                let flags: Vec<Option<bool>> = sq.corners().iter().map(|&c| self.crossed(li, c)).collect();
                let split = flags.contains(&Some(true)) && flags.contains(&Some(false));
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
                .filter_map(|(&(p, a), (level, m))| {
                    let m = m.as_ref()?;
                    let value = criterion.value(&m.party);
                    Some(DangerPoint {
                        party_hp: f(p),
                        adversary_hp: f(a),
                        level: *level,
                        value,
                        crossed: criterion.crossed(value, self.job.threshold),
                        party: m.party.clone(),
                        adversary: m.adversary.clone(),
                    })
                })
                .collect(),
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
            && let Some(slot) = self.layers.get_mut(li).and_then(|l| l.points.get_mut(&p))
        {
            slot.1 = Some(m.clone());
        }
    }

    fn state(&self) -> PlannerState {
        let measured: usize =
            self.layers.iter().map(|l| l.points.values().filter(|(_, m)| m.is_some()).count()).sum();
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
            self.layers.iter().map(|l| l.points.values().filter(|(_, m)| m.is_some()).count()).sum();
        (measured > 0).then_some(JobProgress::DangerMap { measured: measured as u64 })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::jobs::metrics::testing::{ctx, drive, metrics};

    fn result(d: &DangerMap) -> DangerMapResult {
        match d.result() {
            JobResult::DangerMap(r) => r,
            other => panic!("not a danger map: {other:?}"),
        }
    }

    fn job(depth: u32) -> DangerMapJob {
        DangerMapJob {
            runs: Some(10),
            max_total_runs: None,
            fractions: vec![HpFraction(200_000), HpFraction(600_000), HpFraction::FULL],
            party: StrategySpec::default_spec(),
            adversary: StrategySpec::default_spec(),
            criterion: Criterion::PTpk,
            threshold: 0.5,
            depth,
            aware: BTreeMap::new(),
            copies: BTreeMap::new(),
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
        assert!(cells.iter().all(|c| c.seed == 11));
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
        assert_eq!(j.worst_case_runs(), 4 * 9 * 10);
        let mut d = DangerMap::new(ctx(), j);
        let cells = drive(&mut d, &boundary);
        assert_eq!(cells.len(), 4 * 9);
        assert!(cells.iter().any(|c| c.extra.get("b").is_some_and(|e| e.copies == ["orc", "orc"])));
        assert!(cells.iter().any(|c| c.extra.get("a").is_some_and(|e| e.aware == Some(false))));
        assert!(cells[..9].iter().all(|c| !c.extra.contains_key("b")), "the first layer adds no copy");
        assert_eq!(result(&d).layers.len(), 4);
    }
}
