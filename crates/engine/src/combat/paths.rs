//! Shortest paths over the bare terrain, computed once per encounter for
//! each size of space its combatants take up.
//!
//! Creatures only ever take squares away from a mover (enemies block; allies
//! and fallen creatures can be crossed at the same cost), so a creature-free
//! shortest path that no enemy stands on is also a shortest path for the
//! mover, and its cost is a lower bound for every other route. Movement tries
//! these stored paths first and falls back to a full creature-aware search
//! when an enemy is in the way.
//!
//! A mover of space `s` (Large 2, Huge 3…) is searched over its top-left
//! square, which may stand on a square only when every square of its space
//! is passable; the stored paths for space `s` are that same search without
//! creatures. Both searches use the same step tables and break ties between
//! equally cheap paths by the same rule (`grid::Pathfinder`), so when no
//! enemy blocks the stored path, the full search would have returned that
//! very path: stored paths change speed, never outcomes.

use crate::grid::{Access, Pathfinder, footprint};
use crate::map::{Map, Pos};

/// Largest map, in squares, whose all-pairs paths are stored (a few MB at most
/// per size of space).
const MAX_SQUARES: usize = 400;

/// The stored paths of an encounter, one table per size of space.
#[derive(Debug, Default)]
pub(crate) struct MoverPaths {
    /// `(space, its paths)`, in increasing order of space.
    tables: Vec<(i32, StaticPaths)>,
}

impl MoverPaths {
    /// The paths of `map` for movers of every space in `spaces` (none when
    /// the map is too large to store them).
    pub(crate) fn new(map: &Map, pathfinder: &Pathfinder, spaces: impl IntoIterator<Item = i32>) -> Self {
        let mut spaces: Vec<i32> = spaces.into_iter().filter(|&s| s >= 1).collect();
        spaces.sort_unstable();
        spaces.dedup();
        let tables =
            spaces.into_iter().filter_map(|s| StaticPaths::new(map, pathfinder, s).map(|p| (s, p))).collect();
        Self { tables }
    }

    /// The paths for a mover whose space is `space` squares wide, if stored.
    #[inline]
    pub(crate) fn for_space(&self, space: i32) -> Option<&StaticPaths> {
        self.tables.iter().find(|(s, _)| *s == space).map(|(_, p)| p)
    }
}

/// Cost and path between every pair of squares of one map for a mover of one
/// space, ignoring creatures. Squares are the mover's top-left squares.
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
    /// The paths of `map` for a mover of side `space` squares, or `None` when
    /// the map is too large to store them.
    pub(crate) fn new(map: &Map, pathfinder: &Pathfinder, space: i32) -> Option<Self> {
        let (w, h) = (map.width.max(0), map.height.max(0));
        let n = (w * h) as usize;
        if n == 0 || n > MAX_SQUARES {
            return None;
        }
        let pos = |k: usize| Pos::new(k as i32 / w, k as i32 % w);
        // Where the mover's space fits on the terrain alone, as the creature-aware
        // search sees it (`BattleState::access`).
        let fits: Vec<bool> = (0..n).map(|k| footprint(pos(k), space).all(|c| map.passable(c))).collect();
        let terrain = |p: Pos| {
            let fits = map.in_bounds(p) && fits[map.index(p)];
            if fits { Access::Open } else { Access::Blocked }
        };
        let mut pf = pathfinder.clone();
        let mut dist = vec![u16::MAX; n * n];
        let mut offsets = Vec::with_capacity(n * n + 1);
        let mut cells = Vec::new();
        let mut buf = Vec::new();
        for s in 0..n {
            if fits[s] {
                pf.run(map, pos(s), None, &terrain);
            }
            for t in 0..n {
                offsets.push(cells.len() as u32);
                if !fits[s] {
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
