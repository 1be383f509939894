//! Grid geometry: 5-10-5 distances, step costs, the corner rule, Dijkstra with a budget.
//!
//! Distances and costs are in feet.

use crate::map::{Map, Pos};
use crate::model::Size;

mod path;

pub use path::Pathfinder;

/// How a square may be used by a moving creature.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Access {
    /// Free: can be crossed and ended on.
    Open,
    /// Can be crossed but not ended on (an ally's square).
    PassOnly,
    /// Cannot be entered (an enemy, or impassable terrain).
    Blocked,
    /// Can be ended on but not crossed: a route's last square only (a
    /// square a foe threatens, for a route that provokes nothing on the way).
    EndOnly,
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

/// The squares of the Bresenham line from `from` (excluded) to `to` (included).
#[derive(Clone, Debug)]
pub struct Line {
    cur: Pos,
    to: Pos,
    dc: i32,
    dr: i32,
    sc: i32,
    sr: i32,
    err: i32,
}

impl Line {
    /// The line from `from` to `to`.
    pub fn new(from: Pos, to: Pos) -> Self {
        let dc = (to.col - from.col).abs();
        let dr = -(to.row - from.row).abs();
        Self {
            cur: from,
            to,
            dc,
            dr,
            sc: if from.col < to.col { 1 } else { -1 },
            sr: if from.row < to.row { 1 } else { -1 },
            err: dc + dr,
        }
    }
}

impl Iterator for Line {
    type Item = Pos;

    fn next(&mut self) -> Option<Pos> {
        if self.cur == self.to {
            return None;
        }
        let e2 = 2 * self.err;
        if e2 >= self.dr {
            self.err += self.dr;
            self.cur.col += self.sc;
        }
        if e2 <= self.dc {
            self.err += self.dc;
            self.cur.row += self.sr;
        }
        Some(self.cur)
    }
}

/// How a creature moves: on the ground, or flying (see `step_cost_as`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum MoveMode {
    /// Walking: terrain costs, climbing and impassable squares apply.
    #[default]
    Ground,
    /// Flying: every square costs 5 ft (10 ft on every second diagonal); only
    /// squares that block line of effect stop the flier, and impassable squares
    /// that do not can be flown over but not ended on.
    Fly,
}

/// Whether a one-square step from `from` to `to` respects the corner rule:
/// a diagonal step needs both orthogonally adjacent squares passable.
///
/// Orthogonal steps always respect it; a "step" that is not to one of the
/// eight neighbours does not.
pub fn diagonal_allowed(map: &Map, from: Pos, to: Pos) -> bool {
    corner_ok(map, from, to, MoveMode::Ground)
}

/// The corner rule for `mode`: a flier is only stopped by squares that block
/// line of effect (walls), a walker by every impassable square.
fn corner_ok(map: &Map, from: Pos, to: Pos, mode: MoveMode) -> bool {
    let (dr, dc) = (to.row - from.row, to.col - from.col);
    if dr.abs() > 1 || dc.abs() > 1 || (dr == 0 && dc == 0) {
        return false;
    }
    if dr == 0 || dc == 0 {
        return true;
    }
    let flanks = [Pos::new(from.row, to.col), Pos::new(to.row, from.col)];
    match mode {
        MoveMode::Ground => flanks.iter().all(|&p| map.passable(p)),
        MoveMode::Fly => flanks.iter().all(|&p| !map.blocks_los(p)),
    }
}

/// Cost in feet of one step from `from` to the adjacent `to`, or `None` if `to`
/// is impassable or the corner rule forbids it. `diagonal_parity` is the number
/// of diagonals already taken on this move, mod 2 (5-10-5). Terrain multiplies
/// the step; climbing costs 5 ft more per level up.
pub fn step_cost(map: &Map, from: Pos, to: Pos, diagonal_parity: u8) -> Option<u32> {
    step_cost_as(map, from, to, diagonal_parity, MoveMode::Ground)
}

/// `step_cost` for a movement mode. A flier pays 5 ft per square (10 ft on
/// every second diagonal) whatever the terrain and height, and can enter any
/// square that does not block line of effect.
pub fn step_cost_as(map: &Map, from: Pos, to: Pos, diagonal_parity: u8, mode: MoveMode) -> Option<u32> {
    step_units(map, from, to, diagonal_parity, mode).map(|u| 5 * u)
}

/// Step cost in 5-ft units (see `step_cost_as`).
fn step_units(map: &Map, from: Pos, to: Pos, diagonal_parity: u8, mode: MoveMode) -> Option<u32> {
    if !map.in_bounds(from) || !map.in_bounds(to) || !corner_ok(map, from, to, mode) {
        return None;
    }
    let diagonal = from.row != to.row && from.col != to.col;
    let base = if diagonal && diagonal_parity % 2 == 1 { 2 } else { 1 };
    match mode {
        MoveMode::Ground => {
            let multiplier = map.terrain(to).move_cost?;
            let climb = u32::from(map.elevation(to).saturating_sub(map.elevation(from)));
            Some(base * multiplier + climb)
        }
        MoveMode::Fly => (!map.blocks_los(to)).then_some(base),
    }
}

#[cfg(test)]
mod tests;

/// Side of the square space a creature of `size` takes up, in squares (CRB
/// "Big and Little Creatures in Combat", Table 8-4): Large 2, Huge 3,
/// Gargantuan 4, Colossal 6, everything smaller 1.
pub const fn space_squares(size: Size) -> i32 {
    match size {
        Size::Large => 2,
        Size::Huge => 3,
        Size::Gargantuan => 4,
        Size::Colossal => 6,
        _ => 1,
    }
}

/// Natural reach in feet of a tall creature of `size` (Table 8-4): Tiny and
/// smaller 0, Small and Medium 5, Large 10, Huge 15, Gargantuan 20, Colossal 30.
pub const fn natural_reach_ft(size: Size) -> u32 {
    match size {
        Size::Fine | Size::Diminutive | Size::Tiny => 0,
        Size::Small | Size::Medium => 5,
        Size::Large => 10,
        Size::Huge => 15,
        Size::Gargantuan => 20,
        Size::Colossal => 30,
    }
}

/// 5-10-5 distance in feet between the closest squares of two square
/// footprints (`a` and `b` are their top-left squares, `sa` and `sb` their
/// sides); 0 when they overlap.
#[inline]
pub fn footprint_distance_ft(a: Pos, sa: i32, b: Pos, sb: i32) -> u32 {
    let dr = (b.row - (a.row + sa - 1)).max(a.row - (b.row + sb - 1)).max(0);
    let dc = (b.col - (a.col + sa - 1)).max(a.col - (b.col + sb - 1)).max(0);
    distance_ft(Pos::new(0, 0), Pos::new(dr, dc))
}

/// The squares of the footprint of side `s` whose top-left square is `anchor`, row-major.
pub fn footprint(anchor: Pos, s: i32) -> impl Iterator<Item = Pos> + Clone {
    (0..s).flat_map(move |r| (0..s).map(move |c| Pos::new(anchor.row + r, anchor.col + c)))
}
