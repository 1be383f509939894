//! Dijkstra over (square, diagonal parity) states with reusable buffers.
//!
//! Costs are kept in 5-ft units. Step costs are precomputed per map and mode,
//! so a run only reads tables; the queue is Dial's circular bucket queue
//! (step costs are small integers), and per-run state is invalidated by a run
//! stamp instead of being cleared, so a run allocates nothing once sized.

use super::{Access, MoveMode, NEIGHBOURS, step_units};
use crate::map::{Map, Pos};

/// Predecessor of the start state.
const NONE: u32 = u32::MAX;

/// Step costs out of one square: `[parity][direction]` in 5-ft units, 0 = forbidden.
type Steps = [[u16; 8]; 2];

/// Reusable Dijkstra over (square, diagonal parity), with buffers kept between runs.
///
/// Ties between equally cheap paths are broken by the predecessor state with
/// the smallest index (row-major square, then parity 0 before 1), which does
/// not depend on queue order: the same inputs always give the same paths.
#[derive(Clone, Debug, Default)]
pub struct Pathfinder {
    width: i32,
    height: i32,
    /// Step tables, indexed by `MoveMode as usize`.
    steps: [Vec<Steps>; 2],
    /// What the terrain alone allows per mode (`PassOnly`: flown over, no landing).
    terrain: [Vec<Access>; 2],
    /// Square-index offset of each direction of `NEIGHBOURS`.
    offsets: [isize; 8],
    /// Circular buckets of states, one more than the largest step cost.
    buckets: Vec<Vec<u32>>,
    dist: Vec<u32>,
    pred: Vec<u32>,
    /// Run stamp of `dist`/`pred` per state: entries of older runs are stale.
    seen: Vec<u32>,
    /// Access of each square for the current run, asked once per square.
    access: Vec<Access>,
    access_seen: Vec<u32>,
    stamp: u32,
    /// Square index of the last run's start, if it was on the map.
    start: Option<usize>,
}

/// The more restrictive of two accesses.
fn restrict(a: Access, b: Access) -> Access {
    match (a, b) {
        (Access::Blocked, _) | (_, Access::Blocked) => Access::Blocked,
        (Access::PassOnly, _) | (_, Access::PassOnly) => Access::PassOnly,
        _ => Access::Open,
    }
}

impl Pathfinder {
    /// A pathfinder sized for `map`.
    pub fn new(map: &Map) -> Self {
        let (w, h) = (map.width.max(0), map.height.max(0));
        let n = (w as usize) * (h as usize);
        let mut steps = [vec![[[0u16; 8]; 2]; n], vec![[[0u16; 8]; 2]; n]];
        let mut terrain = [vec![Access::Blocked; n], vec![Access::Blocked; n]];
        let mut max_step = 1u32;
        for (m, mode) in [MoveMode::Ground, MoveMode::Fly].into_iter().enumerate() {
            for i in 0..n {
                let p = Pos::new(i as i32 / w, i as i32 % w);
                for parity in 0..2u8 {
                    for (d, (dr, dc)) in NEIGHBOURS.iter().enumerate() {
                        let to = Pos::new(p.row + dr, p.col + dc);
                        let units = step_units(map, p, to, parity, mode).unwrap_or(0);
                        max_step = max_step.max(units);
                        // Map validation bounds a step to 2 * MAX_MOVE_COST + 9 units.
                        steps[m][i][usize::from(parity)][d] = u16::try_from(units).unwrap_or(0);
                    }
                }
                terrain[m][i] = if map.passable(p) {
                    Access::Open
                } else if mode == MoveMode::Fly && !map.blocks_los(p) {
                    Access::PassOnly
                } else {
                    Access::Blocked
                };
            }
        }
        let offsets = NEIGHBOURS.map(|(dr, dc)| (dr * w + dc) as isize);
        Self {
            width: w,
            height: h,
            steps,
            terrain,
            offsets,
            buckets: vec![Vec::new(); max_step as usize + 1],
            dist: vec![0; 2 * n],
            pred: vec![NONE; 2 * n],
            seen: vec![0; 2 * n],
            access: vec![Access::Blocked; n],
            access_seen: vec![0; n],
            stamp: 0,
            start: None,
        }
    }

    /// Computes the cheapest cost from `start` to every square reachable within
    /// `budget_ft` (unbounded when `None`), entering only squares whose access
    /// is not `Blocked`. The start square is always reachable at cost 0.
    ///
    /// `access` is not asked about the start square, and is asked at most once
    /// per square per run. `map` must be the map the pathfinder was built for
    /// (a map of other dimensions rebuilds the tables).
    pub fn run(&mut self, map: &Map, start: Pos, budget_ft: Option<u32>, access: &dyn Fn(Pos) -> Access) {
        self.run_as(map, start, budget_ft, access, MoveMode::Ground);
    }

    /// `run` for a movement mode (see `MoveMode`).
    pub fn run_as(
        &mut self,
        map: &Map,
        start: Pos,
        budget_ft: Option<u32>,
        access: &dyn Fn(Pos) -> Access,
        mode: MoveMode,
    ) {
        if map.width != self.width || map.height != self.height || self.buckets.is_empty() {
            *self = Self::new(map);
        }
        self.stamp = self.stamp.wrapping_add(1);
        if self.stamp == 0 {
            self.seen.fill(0);
            self.access_seen.fill(0);
            self.stamp = 1;
        }
        self.start = None;
        if !map.in_bounds(start) {
            return;
        }
        let origin = map.index(start);
        self.start = Some(origin);
        let stamp = self.stamp;
        let budget = budget_ft.map_or(u32::MAX, |b| b / 5);
        let m = mode as usize;
        let nb = self.buckets.len();
        let width = self.width as usize;

        let s0 = 2 * origin;
        self.seen[s0] = stamp;
        self.dist[s0] = 0;
        self.pred[s0] = NONE;
        self.buckets[0].push(s0 as u32);
        let mut pending = 1usize;
        let mut cur = 0u32;
        while pending > 0 {
            let Some(state) = self.buckets[cur as usize % nb].pop() else {
                cur += 1;
                continue;
            };
            pending -= 1;
            let si = state as usize;
            if self.dist[si] != cur {
                continue; // superseded by a cheaper entry
            }
            let (sq, parity) = (si >> 1, si & 1);
            let row = self.steps[m][sq][parity];
            for (d, &units) in row.iter().enumerate() {
                if units == 0 {
                    continue;
                }
                let cost = cur + u32::from(units);
                if cost > budget {
                    continue;
                }
                let next = sq.wrapping_add_signed(self.offsets[d]);
                if self.access_seen[next] != stamp {
                    let p = Pos::new((next / width) as i32, (next % width) as i32);
                    self.access[next] = restrict(access(p), self.terrain[m][next]);
                    self.access_seen[next] = stamp;
                }
                if self.access[next] == Access::Blocked {
                    continue;
                }
                let ns = 2 * next + (if d >= 4 { parity ^ 1 } else { parity });
                if self.seen[ns] != stamp || cost < self.dist[ns] {
                    self.seen[ns] = stamp;
                    self.dist[ns] = cost;
                    self.pred[ns] = state;
                    self.buckets[cost as usize % nb].push(ns as u32);
                    pending += 1;
                } else if cost == self.dist[ns] && state < self.pred[ns] {
                    self.pred[ns] = state;
                }
            }
        }
    }

    /// The reached state of square `i` with the lowest cost (parity 0 on ties).
    fn best_state(&self, i: usize) -> Option<usize> {
        let start = self.start?;
        if i == start {
            return Some(2 * i);
        }
        if self.access_seen[i] == self.stamp && self.access[i] == Access::PassOnly {
            return None;
        }
        let reached = |s: usize| (self.seen[s] == self.stamp).then_some(self.dist[s]);
        match (reached(2 * i), reached(2 * i + 1)) {
            (Some(a), Some(b)) => Some(if b < a { 2 * i + 1 } else { 2 * i }),
            (Some(_), None) => Some(2 * i),
            (None, Some(_)) => Some(2 * i + 1),
            (None, None) => None,
        }
    }

    /// Square index of an on-map position.
    fn square(&self, p: Pos) -> Option<usize> {
        let on_map = p.row >= 0 && p.col >= 0 && p.row < self.height && p.col < self.width;
        on_map.then(|| (p.row * self.width + p.col) as usize)
    }

    /// Cheapest cost to `p` from the last run, if reached.
    ///
    /// A square that can only be crossed (`PassOnly`, or flown over) is not a
    /// place to stop, so it has no cost.
    pub fn cost(&self, p: Pos) -> Option<u32> {
        let state = self.best_state(self.square(p)?)?;
        Some(5 * self.dist[state])
    }

    /// The cheapest path from the start (excluded) to `p` (included), if reached.
    pub fn path_to(&self, p: Pos, out: &mut Vec<Pos>) -> bool {
        out.clear();
        let Some(mut state) = self.square(p).and_then(|i| self.best_state(i)) else {
            return false;
        };
        let width = self.width as usize;
        while self.pred[state] != NONE {
            let sq = state >> 1;
            out.push(Pos::new((sq / width) as i32, (sq % width) as i32));
            state = self.pred[state] as usize;
        }
        out.reverse();
        true
    }
}
