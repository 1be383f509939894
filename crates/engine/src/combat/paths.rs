//! Shortest paths over the bare terrain, computed once per encounter.
//!
//! Creatures only ever take squares away from a mover (enemies block; allies
//! and fallen creatures can be crossed at the same cost), so a creature-free
//! shortest path that no enemy stands on is also a shortest path for the
//! mover, and its cost is a lower bound for every other route. Movement tries
//! these stored paths first and falls back to a full creature-aware search
//! when an enemy is in the way.

use crate::grid::{Access, Pathfinder};
use crate::map::{Map, Pos};

/// Largest map, in squares, whose all-pairs paths are stored (a few MB at most).
const MAX_SQUARES: usize = 400;

/// Cost and path between every pair of squares of one map, ignoring creatures.
#[derive(Debug)]
pub(crate) struct StaticPaths {
    n: usize,
    width: i32,
    /// Cost in 5-ft units from square `s` to square `t` at `s * n + t`; `u16::MAX` when unreachable.
    dist: Vec<u16>,
    /// Offsets into `cells` of the path of each pair (`n * n + 1` entries).
    offsets: Vec<u32>,
    /// Square indices of every path, start excluded, end included.
    cells: Vec<u16>,
}

impl StaticPaths {
    /// The paths of `map`, or `None` when the map is too large to store them.
    pub(crate) fn new(map: &Map, pathfinder: &Pathfinder) -> Option<Self> {
        let (w, h) = (map.width.max(0), map.height.max(0));
        let n = (w * h) as usize;
        if n == 0 || n > MAX_SQUARES {
            return None;
        }
        let mut pf = pathfinder.clone();
        let mut dist = vec![u16::MAX; n * n];
        let mut offsets = Vec::with_capacity(n * n + 1);
        let mut cells = Vec::new();
        let mut buf = Vec::new();
        let pos = |k: usize| Pos::new(k as i32 / w, k as i32 % w);
        for s in 0..n {
            let passable = map.passable(pos(s));
            if passable {
                pf.run(map, pos(s), None, &|_| Access::Open);
            }
            for t in 0..n {
                offsets.push(cells.len() as u32);
                if !passable {
                    continue;
                }
                let Some(cost) = pf.cost(pos(t)) else { continue };
                dist[s * n + t] = u16::try_from(cost / 5).unwrap_or(u16::MAX);
                pf.path_to(pos(t), &mut buf);
                cells.extend(buf.iter().map(|p| map.index(*p) as u16));
            }
        }
        offsets.push(cells.len() as u32);
        Some(Self { n, width: w, dist, offsets, cells })
    }

    /// Cost in feet from square index `s` to square index `t`, if reachable.
    #[inline]
    pub(crate) fn cost(&self, s: usize, t: usize) -> Option<u32> {
        let d = self.dist[s * self.n + t];
        (d != u16::MAX).then_some(5 * u32::from(d))
    }

    /// The squares of the path from `s` (excluded) to `t` (included).
    pub(crate) fn path(&self, s: usize, t: usize) -> impl Iterator<Item = Pos> + '_ {
        let k = s * self.n + t;
        let (a, b) = (self.offsets[k] as usize, self.offsets[k + 1] as usize);
        let w = self.width;
        self.cells[a..b].iter().map(move |&c| Pos::new(i32::from(c) / w, i32::from(c) % w))
    }
}
