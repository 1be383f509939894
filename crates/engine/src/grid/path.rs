//! Dijkstra over (square, diagonal parity) states with reusable buffers.
//!
//! Costs are kept in 5-ft units. Step costs are precomputed per map and mode,
//! so a run only reads tables; the queue is Dial's circular bucket queue
//! (step costs are small integers), and per-run state is invalidated by a run
//! stamp instead of being cleared, so a run allocates nothing once sized.

use std::sync::Arc;

use super::{Access, MoveMode, NEIGHBOURS, step_units};
use crate::map::{Map, Pos};

/// Predecessor of the start state.
const NONE: u32 = u32::MAX;

/// Step costs out of one square: `[parity][direction]` in 5-ft units,
/// `FORBIDDEN` when the step is not allowed.
type Steps = [[u32; 8]; 2];

/// Step cost of a forbidden step: above any budget (budgets are capped below it).
const FORBIDDEN: u32 = u32::MAX / 2;

/// Largest budget in 5-ft units: cost + FORBIDDEN always exceeds it.
const MAX_BUDGET: u64 = (u32::MAX / 4) as u64;

/// Reusable Dijkstra over (square, diagonal parity), with buffers kept between runs.
///
/// Ties between equally cheap paths are broken by the predecessor state with
/// the smallest index (row-major square, then parity 0 before 1), which does
/// not depend on queue order: the same inputs always give the same paths.
#[derive(Clone, Debug, Default)]
pub struct Pathfinder {
    width: i32,
    height: i32,
    /// The map's tables, shared by every clone: a clone copies only the
    /// per-run buffers (the policy clones the encounter's pathfinder for
    /// each search it makes).
    tables: Arc<Tables>,
    /// Square-index offset of each direction of `NEIGHBOURS`.
    offsets: [isize; 8],
    /// Circular buckets of states: a power of two above the largest step cost.
    buckets: Vec<Vec<u32>>,
    /// `base + cost` per state; values below `base` belong to older runs.
    dist: Vec<u64>,
    base: u64,
    pred: Vec<u32>,
    /// Access of each square for the current run, `stamp << 2 | code`, asked once per square.
    access: Vec<u32>,
    stamp: u32,
    /// Square index of the last run's start, if it was on the map.
    start: Option<usize>,
}

/// What a map gives every search on it, computed once.
#[derive(Debug, Default)]
struct Tables {
    /// Step tables, indexed by `MoveMode as usize`.
    steps: [Vec<Steps>; 2],
    /// What the terrain alone allows per mode (`PassOnly`: flown over, no landing).
    terrain: [Vec<Access>; 2],
    /// Position of each square.
    pos: Vec<Pos>,
}

/// Two-bit code of an access.
const fn code(a: Access) -> u32 {
    match a {
        Access::Open => 0,
        Access::PassOnly => 1,
        Access::Blocked => 2,
        Access::EndOnly => 3,
    }
}

/// The more restrictive of two accesses: a square that may be neither
/// crossed (end only) nor ended on (pass only) is blocked.
fn restrict(a: Access, b: Access) -> u32 {
    match (a, b) {
        (Access::Blocked, _) | (_, Access::Blocked) => code(Access::Blocked),
        (Access::EndOnly, Access::PassOnly) | (Access::PassOnly, Access::EndOnly) => code(Access::Blocked),
        (Access::EndOnly, _) | (_, Access::EndOnly) => code(Access::EndOnly),
        _ => code(a).max(code(b)),
    }
}

/// Largest access stamp before the stamps are reset.
const MAX_STAMP: u32 = u32::MAX >> 2;

impl Pathfinder {
    /// A pathfinder sized for `map`.
    pub fn new(map: &Map) -> Self {
        let (w, h) = (map.width.max(0), map.height.max(0));
        let n = (w as usize) * (h as usize);
        let mut steps = [vec![[[FORBIDDEN; 8]; 2]; n], vec![[[FORBIDDEN; 8]; 2]; n]];
        let mut terrain = [vec![Access::Blocked; n], vec![Access::Blocked; n]];
        let pos: Vec<Pos> = (0..n).map(|i| Pos::new(i as i32 / w, i as i32 % w)).collect();
        let mut max_step = 1u32;
        for (m, mode) in [MoveMode::Ground, MoveMode::Fly].into_iter().enumerate() {
            for (i, &p) in pos.iter().enumerate() {
                for parity in 0..2u8 {
                    for (d, (dr, dc)) in NEIGHBOURS.iter().enumerate() {
                        let to = Pos::new(p.row + dr, p.col + dc);
                        if let Some(units) = step_units(map, p, to, parity, mode) {
                            max_step = max_step.max(units);
                            steps[m][i][usize::from(parity)][d] = units;
                        }
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
            tables: Arc::new(Tables { steps, terrain, pos }),
            offsets,
            buckets: vec![Vec::new(); (max_step as usize + 1).next_power_of_two()],
            dist: vec![0; 2 * n],
            base: 1,
            pred: vec![NONE; 2 * n],
            access: vec![0; n],
            stamp: 0,
            start: None,
        }
    }

    /// Computes the cheapest cost from `start` to every square reachable within
    /// `budget_ft` (unbounded when `None`), entering only squares whose access
    /// is not `Blocked`, and going on from none that is `EndOnly`. The start
    /// square is always reachable at cost 0.
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
        self.stamp += 1;
        if self.stamp > MAX_STAMP {
            self.access.fill(0);
            self.stamp = 1;
        }
        self.start = None;
        if !map.in_bounds(start) {
            return;
        }
        let origin = map.index(start);
        self.start = Some(origin);
        let (stamp, base) = (self.stamp, self.base);
        let budget = budget_ft.map_or(MAX_BUDGET, |b| u64::from(b / 5).min(MAX_BUDGET));
        let m = mode as usize;
        let mask = self.buckets.len() - 1;
        let offsets = self.offsets;
        let Self { tables, buckets, dist, pred, access: acc, .. } = self;
        let (steps, terrain, pos) = (&tables.steps[m][..], &tables.terrain[m][..], &tables.pos[..]);

        let s0 = 2 * origin;
        dist[s0] = base;
        pred[s0] = NONE;
        buckets[0].push(s0 as u32);
        let mut pending = 1usize;
        let mut cur = 0u64;
        while pending > 0 {
            let Some(state) = buckets[cur as usize & mask].pop() else {
                cur += 1;
                continue;
            };
            pending -= 1;
            let si = state as usize;
            if dist[si] != base + cur {
                continue; // superseded by a cheaper entry
            }
            let (sq, parity) = (si >> 1, si & 1);
            // A square that may only end a route is not crossed.
            if sq != origin && acc[sq] & 3 == code(Access::EndOnly) {
                continue;
            }
            let row = &steps[sq][parity];
            for d in 0..8 {
                let units = row[d];
                let cost = cur + u64::from(units);
                if cost > budget {
                    continue;
                }
                let next = sq.wrapping_add_signed(offsets[d]);
                let mut a = acc[next];
                if a >> 2 != stamp {
                    a = (stamp << 2) | restrict(access(pos[next]), terrain[next]);
                    acc[next] = a;
                }
                if a & 3 == code(Access::Blocked) {
                    continue;
                }
                // Diagonals (directions 4..8) flip the parity.
                let ns = 2 * next + (parity ^ usize::from(d >= 4));
                let old = dist[ns];
                if old < base || base + cost < old {
                    dist[ns] = base + cost;
                    pred[ns] = state;
                    buckets[cost as usize & mask].push(ns as u32);
                    pending += 1;
                } else if base + cost == old && state < pred[ns] {
                    pred[ns] = state;
                }
            }
        }
        // Every stored cost is at most `cur`: the next run's values start above.
        self.base = base + cur + 1;
    }

    /// The reached state of square `i` with the lowest cost (parity 0 on ties),
    /// and that cost in 5-ft units.
    fn best_state(&self, i: usize) -> Option<(usize, u64)> {
        let start = self.start?;
        if i == start {
            return Some((2 * i, 0));
        }
        let a = self.access[i];
        if a >> 2 == self.stamp && a & 3 == code(Access::PassOnly) {
            return None;
        }
        // The last run's values lie in [previous base, base).
        let run_base = self.dist[2 * start];
        let reached = |s: usize| {
            (self.dist[s] >= run_base && self.dist[s] < self.base).then(|| self.dist[s] - run_base)
        };
        match (reached(2 * i), reached(2 * i + 1)) {
            (Some(a), Some(b)) if b < a => Some((2 * i + 1, b)),
            (Some(a), _) => Some((2 * i, a)),
            (None, Some(b)) => Some((2 * i + 1, b)),
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
        let (_, units) = self.best_state(self.square(p)?)?;
        u32::try_from(5 * units).ok()
    }

    /// The cheapest path from the start (excluded) to `p` (included), if reached.
    pub fn path_to(&self, p: Pos, out: &mut Vec<Pos>) -> bool {
        out.clear();
        let Some((mut state, _)) = self.square(p).and_then(|i| self.best_state(i)) else {
            return false;
        };
        while self.pred[state] != NONE {
            out.push(self.tables.pos[state >> 1]);
            state = self.pred[state] as usize;
        }
        out.reverse();
        true
    }
}
