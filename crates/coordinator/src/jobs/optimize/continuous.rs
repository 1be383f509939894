//! The search of an `optimize` job's lever ranges (`ranges:`): after the
//! discrete part (grid, refinement, candidates, racing), the ranged levers
//! of the discrete leader are moved by Bayesian optimisation
//! (`jobs::bayes`) in batches of cells the fleet measures in parallel, on
//! the sweep's dice (common random numbers: run `i` of every point plays
//! the same dice, so points compare run by run). The first batch is a
//! Latin hypercube, the next ones the Gaussian process's proposals by
//! expected improvement; the model reads every measured point of the
//! slice (the leader with the ranged levers moved), the grid's own
//! refinements included. At the end, the best points by posterior mean
//! (one per group of identical play) and the discrete leader are measured
//! again with `confirm_runs` and ranked by the job's paired staged ranking:
//! the reported best carries its interval and its difference with the
//! discrete leader.

use pf1e_engine::metrics::Sign;
use pf1e_engine::objectives::Criterion;
use pf1e_wire::results::{
    PairedDelta, RangeImportance, RangeLeverImportance, SearchPoint, SearchResult, SearchVersus, Stage,
};

use super::{Entry, Optimize, criteria};
use crate::cell::{CellSpec, StrategySpec};
use crate::jobs::bayes::{self, Gp, Observation};
use crate::jobs::front;
use crate::jobs::metrics::{CellMetrics, cmp_f64, difference, higher_is_better};

/// Most candidate points an acquisition scores: the whole lattice when it
/// is smaller, else a seeded Latin hypercube of this many points.
const MAX_CANDIDATES: usize = 4096;

/// Criterion `c` of `m` oriented so that larger is better, and the variance
/// of its measurement: binomial for a probability (with one success and
/// one failure added, so 0/n and n/n are not certain), sd²/n for hit points.
fn oriented(c: Criterion, m: &CellMetrics) -> (f64, f64) {
    let v = c.value(&m.party);
    let n = m.party.runs.max(1) as f64;
    let noise = if c.is_probability() {
        let p = (v * n + 1.0) / (n + 2.0);
        p * (1.0 - p) / n
    } else {
        (m.party.hp_lost_sd.powi(2) / n).max(1e-9)
    };
    (if higher_is_better(c) { v } else { -v }, noise)
}

impl Optimize {
    /// The strategy the search moves: the discrete leader (the default
    /// strategy when nothing was measured), fixed when the search begins.
    fn base(&mut self) -> StrategySpec {
        if let Some(b) = &self.search_base {
            return b.clone();
        }
        let b = self
            .presented_groups()
            .first()
            .map_or_else(StrategySpec::default_spec, |&i| self.entries[i].spec.clone());
        self.search_base = Some(b.clone());
        b
    }

    /// The entries of the base's slice (differing from it in the ranged
    /// levers only, each inside its range) with their ticks.
    fn slice(&self) -> Vec<(usize, Vec<i64>)> {
        let Some(base) = &self.search_base else { return Vec::new() };
        let ranges = &self.job.ranges;
        let key = ranges.slice_key(base);
        self.entries
            .iter()
            .enumerate()
            .filter_map(|(i, e)| {
                let t = ranges.ticks_of(&e.spec)?;
                (ranges.slice_key(&e.spec) == key).then_some((i, t))
            })
            .collect()
    }

    /// The measured entries of `slice` on the Pareto front of the job's
    /// `pareto` criteria (the playbook's dominance: at least as good on
    /// each by point estimate, significantly better on one), among those
    /// meeting the constraints when some do.
    fn slice_front(&self, slice: &[(usize, Vec<i64>)]) -> Vec<usize> {
        let measured: Vec<usize> =
            slice.iter().map(|(i, _)| *i).filter(|&i| self.entries[i].metrics.is_some()).collect();
        let pool: Vec<usize> = if measured.iter().any(|&i| self.feasible(i)) {
            measured.into_iter().filter(|&i| self.feasible(i)).collect()
        } else {
            measured
        };
        let plans: Vec<&CellMetrics> =
            pool.iter().filter_map(|&i| self.entries[i].metrics.as_ref()).collect();
        let on = front::front(&plans, &self.job.pareto, self.z());
        pool.into_iter().zip(on).filter(|&(_, on)| on).map(|(i, _)| i).collect()
    }

    /// A measurement as the model sees it: the objective (larger is
    /// better) and its variance — binomial for a probability (with one
    /// success and one failure added, so 0/n and n/n are not certain),
    /// sd²/n for hit points.
    fn observation(&self, x: Vec<f64>, m: &CellMetrics) -> Observation {
        let (y, noise) = oriented(self.job.objective, m);
        Observation { x, y, noise }
    }

    /// Batch `k`'s proposals for the Pareto front (ParEGO): each point of
    /// the batch scalarises the job's `pareto` criteria with its own random
    /// weights (seeded by the sweep's seed, the batch and the point) and is
    /// the lattice point of largest expected improvement of that
    /// scalarisation, at the search's gap from every measured point and
    /// from the batch's earlier points.
    fn pareto_batch(
        &self,
        k: u32,
        measured: &[(Vec<f64>, &CellMetrics)],
        candidates: &[Vec<f64>],
        exclude: &[Vec<f64>],
        gap: f64,
    ) -> Vec<Vec<f64>> {
        let criteria = &self.job.pareto;
        // Each criterion oriented (larger is better) with its variance.
        let values: Vec<Vec<(f64, f64)>> =
            measured.iter().map(|(_, m)| criteria.iter().map(|&c| oriented(c, m)).collect()).collect();
        let mut chosen: Vec<Vec<f64>> = Vec::new();
        for j in 0..self.job.search.points {
            let key = self.ctx.seed
                ^ u64::from(k).wrapping_mul(0x9e37_79b9_7f4a_7c15)
                ^ u64::from(j).wrapping_mul(0xd6e8_feb8_6659_fd93);
            let weights = bayes::simplex_weights(criteria.len(), key);
            let obs: Vec<Observation> = measured
                .iter()
                .zip(bayes::chebyshev(&values, &weights))
                .map(|((x, _), (y, noise))| Observation { x: x.clone(), y, noise })
                .collect();
            let out: Vec<Vec<f64>> = exclude.iter().chain(&chosen).cloned().collect();
            match bayes::propose(&obs, candidates, &out, 1, gap).pop() {
                Some(p) => chosen.push(p),
                None => break,
            }
        }
        chosen
    }

    /// The model of the slice's measured points.
    fn model(&self, slice: &[(usize, Vec<i64>)]) -> Option<Gp> {
        let obs: Vec<Observation> = slice
            .iter()
            .filter_map(|(i, t)| {
                let m = self.entries[*i].metrics.as_ref()?;
                Some(self.observation(self.job.ranges.to_unit(t), m))
            })
            .collect();
        Gp::fit(&obs)
    }

    /// Batch `k` (from 1): a Latin hypercube first (or when the model
    /// cannot be fitted), then the model's proposals; never a point of the
    /// slice measured already.
    pub(super) fn search_batch(&mut self, k: u32) -> Vec<CellSpec> {
        let base = self.base();
        let ranges = self.job.ranges.clone();
        let slice = self.slice();
        let tried: Vec<Vec<i64>> = slice.iter().map(|(_, t)| t.clone()).collect();
        let size = self.job.search.points as usize;
        let seed = self.ctx.seed ^ u64::from(k).wrapping_mul(0x9e37_79b9_7f4a_7c15);
        let lhs = |n: usize| -> Vec<Vec<i64>> {
            bayes::latin_hypercube(n, ranges.0.len(), seed).iter().map(|u| ranges.from_unit(u)).collect()
        };
        let mut points: Vec<Vec<i64>> = Vec::new();
        if k > 1 {
            let measured: Vec<(Vec<f64>, &CellMetrics)> = slice
                .iter()
                .filter_map(|(i, t)| Some((ranges.to_unit(t), self.entries[*i].metrics.as_ref()?)))
                .collect();
            let candidates = if ranges.lattice_size() <= MAX_CANDIDATES as u64 {
                ranges.lattice()
            } else {
                lhs(MAX_CANDIDATES)
            };
            let units: Vec<Vec<f64>> = candidates.iter().map(|t| ranges.to_unit(t)).collect();
            let exclude: Vec<Vec<f64>> = tried.iter().map(|t| ranges.to_unit(t)).collect();
            // Points at least half the spacing of the whole budget's points apart.
            let gap = 0.5 / (self.job.search_points() as f64).powf(1.0 / ranges.0.len() as f64);
            let proposed = if self.job.pareto_search() {
                self.pareto_batch(k, &measured, &units, &exclude, gap)
            } else {
                let obs: Vec<Observation> =
                    measured.iter().map(|(x, m)| self.observation(x.clone(), m)).collect();
                bayes::propose(&obs, &units, &exclude, size, gap)
            };
            points = proposed.iter().map(|u| ranges.from_unit(u)).collect();
        }
        if points.is_empty() {
            for p in lhs(size) {
                if !tried.contains(&p) && !points.contains(&p) {
                    points.push(p);
                }
            }
        }
        let specs: Vec<StrategySpec> = points.iter().filter_map(|t| ranges.spec_at(&base, t)).collect();
        let first = self.entries.len();
        let cells = self.add(specs, Stage::Search);
        for e in &mut self.entries[first..] {
            e.batch = k;
        }
        cells
    }

    /// The re-measurements: the `confirm` best points of the slice by
    /// posterior mean (one per group of identical play) and the discrete
    /// leader, each brought up to `confirm_runs`.
    pub(super) fn confirm(&mut self) -> Vec<CellSpec> {
        let base = self.base();
        let slice = self.slice();
        let runs = self.job.search.confirm_runs.unwrap_or(self.job.runs);
        let mut chosen: Vec<usize> = Vec::new();
        // The job's leader first when it is a point of the slice: rank 1
        // is then measured within the planned budget.
        if let Some(&lead) = self.ranked_groups().first()
            && slice.iter().any(|(i, _)| *i == lead)
            && self.entries[lead].spec != base
        {
            chosen.push(lead);
        }
        if self.job.pareto_search() {
            // The slice's front, spread along its first criterion.
            let mut on: Vec<usize> = self.slice_front(&slice);
            let c = self.job.pareto[0];
            let value = |i: usize| self.entries[i].metrics.as_ref().map_or(0.0, |m| c.value(&m.party));
            on.sort_by(|&a, &b| {
                cmp_f64(value(a), value(b))
                    .then_with(|| self.entries[a].spec.as_str().cmp(self.entries[b].spec.as_str()))
            });
            // One member per result (identical play measures alike), none
            // like one chosen already, and not the base (re-measured anyway):
            // every planned re-measurement goes to a different point.
            let mut distinct: Vec<usize> = Vec::new();
            for i in on {
                let m = &self.entries[i].metrics;
                if self.entries[i].spec != base
                    && !chosen.iter().chain(&distinct).any(|&k| self.entries[k].metrics == *m)
                {
                    distinct.push(i);
                }
            }
            let count = (self.job.search.confirm as usize).saturating_sub(chosen.len()).min(distinct.len());
            for q in 0..count {
                // Evenly spaced ranks from the first member to the last.
                let at =
                    if count <= 1 { 0 } else { (q * (distinct.len() - 1) + (count - 1) / 2) / (count - 1) };
                chosen.push(distinct[at]);
            }
        } else if let Some(gp) = self.model(&slice) {
            let mut scored: Vec<(usize, f64)> = slice
                .iter()
                .filter(|(i, _)| self.entries[*i].metrics.is_some())
                .map(|(i, t)| (*i, gp.posterior(&self.job.ranges.to_unit(t)).0))
                .collect();
            scored.sort_by(|a, b| {
                b.1.total_cmp(&a.1)
                    .then_with(|| self.entries[a.0].spec.as_str().cmp(self.entries[b.0].spec.as_str()))
            });
            for (i, _) in scored {
                if chosen.len() >= self.job.search.confirm as usize {
                    break;
                }
                let m = &self.entries[i].metrics;
                if !chosen.iter().any(|&c| self.entries[c].metrics == *m) {
                    chosen.push(i);
                }
            }
        }
        let leader = match self.entries.iter().position(|e| e.spec == base) {
            Some(b) => b,
            None => {
                // Nothing was measured before the search: the base joins as a candidate.
                self.entries.push(Entry {
                    spec: base,
                    stage: Stage::Candidate,
                    runs: 0,
                    metrics: None,
                    raced: 0,
                    same_as: None,
                    batch: 0,
                    confirmed: false,
                });
                self.entries.len() - 1
            }
        };
        if !chosen.contains(&leader) {
            chosen.push(leader);
        }
        let mut cells = Vec::new();
        for i in chosen {
            let e = &mut self.entries[i];
            e.confirmed = true;
            // A re-measured member of a group of identical play stands alone.
            e.same_as = None;
            if e.metrics.as_ref().is_none_or(|m| m.party.runs < runs) {
                e.runs = runs;
                cells.push(self.emit(i, runs));
            }
        }
        self.order.replace(None);
        cells
    }

    /// The search's part of the result.
    pub(super) fn search_result(&self) -> Option<SearchResult> {
        if self.job.ranges.is_empty() {
            return None;
        }
        let base = self.search_base.as_ref()?;
        let (c, ranges) = (self.job.objective, &self.job.ranges);
        let sign = if higher_is_better(c) { 1.0 } else { -1.0 };
        let slice = self.slice();
        let gp = self.model(&slice);
        let runs = self.job.search.confirm_runs.unwrap_or(self.job.runs);
        let on_front = if self.job.pareto_search() { self.slice_front(&slice) } else { Vec::new() };
        let points: Vec<SearchPoint> = slice
            .iter()
            .filter_map(|(i, t)| {
                let e = &self.entries[*i];
                let m = e.metrics.as_ref()?;
                let (lo, hi) = m.party.interval(c);
                let posterior =
                    gp.as_ref().map_or(c.value(&m.party), |g| sign * g.posterior(&ranges.to_unit(t)).0);
                Some(SearchPoint {
                    strategy: e.spec.as_str().to_string(),
                    values: ranges.0.iter().zip(t).map(|(r, &t)| r.value(t)).collect(),
                    batch: e.batch,
                    runs: m.party.runs,
                    objective: c.value(&m.party),
                    interval: [lo, hi],
                    posterior,
                    confirmed: e.confirmed || m.party.runs >= runs,
                    front: on_front.contains(i),
                })
            })
            .collect();
        // The points measured at least as much as a re-measurement (and the base).
        let measured = |i: usize| self.entries[i].metrics.as_ref().is_some_and(|m| m.party.runs >= runs);
        let confirmed: Vec<usize> = (0..self.entries.len())
            .filter(|&i| {
                let in_slice = slice.iter().any(|(k, _)| *k == i) || self.entries[i].spec == *base;
                in_slice && (self.entries[i].confirmed || measured(i))
            })
            .collect();
        let best = self.staged(&criteria(c), confirmed, 0).first().copied();
        let leader = self.entries.iter().position(|e| e.spec == *base);
        let vs_grid = match (best, leader) {
            (Some(x), Some(b)) if x != b => match (&self.entries[x].metrics, &self.entries[b].metrics) {
                (Some(mx), Some(mb)) => {
                    let z = self.z();
                    let d = difference(mx, mb, c);
                    let (lo, hi) = d.interval(z);
                    Some(SearchVersus {
                        strategy: base.as_str().to_string(),
                        delta: PairedDelta { runs: d.n, mean: d.mean, interval: [lo, hi] },
                        significant: d.sign(z) != Sign::Tied,
                    })
                }
                _ => None,
            },
            _ => None,
        };
        let importance = gp.as_ref().and_then(|g| {
            let e = g.main_effects(ranges.0.len())?;
            let mut levers: Vec<RangeLeverImportance> = ranges
                .0
                .iter()
                .enumerate()
                .map(|(i, r)| RangeLeverImportance {
                    lever: r.name.to_string(),
                    share: e.shares[i],
                    noise: e.noise[i],
                })
                .collect();
            levers.sort_by(|a, b| b.share.total_cmp(&a.share).then_with(|| a.lever.cmp(&b.lever)));
            Some(Box::new(RangeImportance {
                points: points.len() as u64,
                design: e.design as u64,
                levers,
                interactions: e.interactions,
                spread: e.spread,
                uncertainty: e.uncertainty,
            }))
        });
        Some(SearchResult {
            importance,
            pareto: if self.job.pareto_search() { self.job.pareto.clone() } else { Vec::new() },
            ranges: ranges.0.iter().map(|r| r.describe()).collect(),
            levers: ranges.0.iter().map(|r| r.name.to_string()).collect(),
            base: base.as_str().to_string(),
            batches: self.job.search.batches,
            points_per_batch: self.job.search.points,
            spent_runs: self.search_spent,
            points,
            best: best.map(|i| self.entries[i].spec.as_str().to_string()),
            vs_grid,
        })
    }
}
