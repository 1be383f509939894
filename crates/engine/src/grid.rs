//! Grid geometry: 5-10-5 distances, step costs, the corner rule, Dijkstra with a budget.
//!
//! Distances and costs are in feet.

use crate::map::{Map, Pos};

/// How a square may be used by a moving creature.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Access {
    /// Free: can be crossed and ended on.
    Open,
    /// Can be crossed but not ended on (an ally's square).
    PassOnly,
    /// Cannot be entered (an enemy, or impassable terrain).
    Blocked,
}

/// 5-10-5 distance between two squares in feet (every second diagonal costs 10 ft).
#[inline]
pub fn distance_ft(a: Pos, b: Pos) -> u32 {
    let dr = (a.row - b.row).unsigned_abs();
    let dc = (a.col - b.col).unsigned_abs();
    let diag = dr.min(dc);
    let straight = dr.max(dc) - diag;
    5 * (straight + diag + diag / 2)
}

/// The eight neighbouring offsets, orthogonal first.
pub const NEIGHBOURS: [(i32, i32); 8] =
    [(-1, 0), (0, 1), (1, 0), (0, -1), (-1, 1), (1, 1), (1, -1), (-1, -1)];

/// Whether a one-square step from `from` to `to` respects the corner rule:
/// a diagonal step needs both orthogonally adjacent squares passable.
pub fn diagonal_allowed(_map: &Map, _from: Pos, _to: Pos) -> bool {
    todo!("corner rule")
}

/// Cost in feet of one step from `from` to the adjacent `to`, or `None` if `to`
/// is impassable or the corner rule forbids it. `diagonal_parity` is the number
/// of diagonals already taken on this move, mod 2 (5-10-5). Terrain multiplies
/// the step; climbing costs 5 ft more per level up.
pub fn step_cost(_map: &Map, _from: Pos, _to: Pos, _diagonal_parity: u8) -> Option<u32> {
    todo!("step cost")
}

/// Reusable Dijkstra over (square, diagonal parity), with buffers kept between runs.
#[derive(Clone, Debug, Default)]
pub struct Pathfinder {
    _private: (),
}

impl Pathfinder {
    /// A pathfinder sized for `map`.
    pub fn new(_map: &Map) -> Self {
        todo!("pathfinder")
    }

    /// Computes the cheapest cost from `start` to every square reachable within
    /// `budget_ft` (unbounded when `None`), entering only squares whose access
    /// is not `Blocked`. The start square is always reachable at cost 0.
    pub fn run(&mut self, _map: &Map, _start: Pos, _budget_ft: Option<u32>, _access: &dyn Fn(Pos) -> Access) {
        todo!("dijkstra")
    }

    /// Cheapest cost to `p` from the last run, if reached.
    pub fn cost(&self, _p: Pos) -> Option<u32> {
        todo!()
    }

    /// The cheapest path from the start (excluded) to `p` (included), if reached.
    pub fn path_to(&self, _p: Pos, _out: &mut Vec<Pos>) -> bool {
        todo!()
    }
}
