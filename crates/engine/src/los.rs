//! Line of effect and cover by the corner rule.
//!
//! Lines join corners of squares: lattice points `(x, y)` with `x` the column
//! and `y` the row, so square `(row r, col c)` spans `[c, c+1] x [r, r+1]`.
//! Every test is exact integer arithmetic. What a line "meets" (see
//! docs/rules/geometry.md for the reasoning):
//!
//! 1. every square whose interior it crosses;
//! 2. every unit border it runs along, as the weaker of the two squares
//!    sharing it (a line running along a wall's face is not blocked; one
//!    running between two walls is);
//! 3. every grid point strictly inside it where two diagonally touching
//!    squares lie on opposite sides of it, as the weaker of the two (a
//!    diagonal wall has no gaps);
//! 4. at each end, when it leaves the corner away from its own square (into
//!    the quadrant diagonally opposite), the two squares beside its own
//!    square at that corner, as the weaker of the two; a zero-length line
//!    between diagonal neighbours meets the same pair.
//!
//! Off the map counts as solid, so a line cannot slip along the map's edge
//! past a wall that touches it (lines never leave the map, so only rules 2-4
//! ever see off-map squares, and there the on-map square decides). A line is
//! blocked if it meets a square that blocks line of effect; its cover is the
//! largest cover bonus it meets.

use crate::map::{Map, Pos};

mod table;

pub use table::LosTable;

/// What a line meets: a solid barrier, and the largest cover bonus.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Meet {
    blocked: bool,
    cover: u8,
}

impl Meet {
    fn join(&mut self, other: Meet) {
        self.blocked |= other.blocked;
        self.cover = self.cover.max(other.cover);
    }

    /// The weaker of two squares a line slips between.
    fn weaker(a: Meet, b: Meet) -> Meet {
        Meet { blocked: a.blocked && b.blocked, cover: a.cover.min(b.cover) }
    }

    /// One byte: bit 7 blocked, low bits the cover bonus.
    fn pack(self) -> u8 {
        (u8::from(self.blocked) << 7) | self.cover
    }

    fn unpack(b: u8) -> Meet {
        Meet { blocked: b & 0x80 != 0, cover: b & 0x7f }
    }
}

/// What a square contributes to lines, by (row, col); off-map squares are solid.
trait Squares {
    fn at(&self, row: i32, col: i32) -> Meet;
}

/// Off the map: the strongest value, so that `Meet::weaker` returns the
/// on-map square's value.
const OFF_MAP: Meet = Meet { blocked: true, cover: 8 };

impl Squares for Map {
    fn at(&self, row: i32, col: i32) -> Meet {
        let p = Pos::new(row, col);
        if !self.in_bounds(p) {
            return OFF_MAP;
        }
        let t = self.terrain(p);
        Meet { blocked: t.blocks_los, cover: t.cover_bonus }
    }
}

/// A lattice point.
type Pt = (i32, i32);

/// The four corners of a square.
fn corners(p: Pos) -> [Pt; 4] {
    [(p.col, p.row), (p.col + 1, p.row), (p.col, p.row + 1), (p.col + 1, p.row + 1)]
}

fn gcd(mut a: i32, mut b: i32) -> i32 {
    while b != 0 {
        (a, b) = (b, a % b);
    }
    a
}

/// The square in quadrant `(ux, uy)` (each ±1) of lattice point `p`, as (row, col).
fn quadrant(p: Pt, ux: i32, uy: i32) -> (i32, i32) {
    (if uy > 0 { p.1 } else { p.1 - 1 }, if ux > 0 { p.0 } else { p.0 - 1 })
}

/// Whether `f(row, col)` holds for some square whose interior the segment
/// `a`-`b` crosses. Axis-aligned and zero-length segments cross none.
fn any_crossed(a: Pt, b: Pt, mut f: impl FnMut(i32, i32) -> bool) -> bool {
    let (dx, dy) = (b.0 - a.0, b.1 - a.1);
    if dx == 0 || dy == 0 {
        return false;
    }
    let g = gcd(dx.abs(), dy.abs());
    let (w, h) = (dx.abs() / g, dy.abs() / g);
    let (sx, sy) = (dx.signum(), dy.signum());
    // The segment is g copies of a primitive one from (0,0) to (w,h), which
    // crosses, in column strip i, the rows floor(h*i/w) ..= ceil(h*(i+1)/w) - 1.
    for k in 0..g {
        let (px, py) = (a.0 + k * w * sx, a.1 + k * h * sy);
        for i in 0..w {
            let col = if sx > 0 { px + i } else { px - 1 - i };
            let (lo, hi) = ((h * i) / w, (h * (i + 1) + w - 1) / w - 1);
            for j in lo..=hi {
                let row = if sy > 0 { py + j } else { py - 1 - j };
                if f(row, col) {
                    return true;
                }
            }
        }
    }
    false
}

/// Rules 1-3: what the segment `a`-`b` meets between its ends.
fn core(sq: &impl Squares, a: Pt, b: Pt) -> Meet {
    let mut m = Meet::default();
    let (dx, dy) = (b.0 - a.0, b.1 - a.1);
    if dx == 0 && dy == 0 {
        return m;
    }
    if dy == 0 {
        let (y, lo, hi) = (a.1, a.0.min(b.0), a.0.max(b.0));
        for x in lo..hi {
            m.join(Meet::weaker(sq.at(y - 1, x), sq.at(y, x)));
        }
        for x in lo + 1..hi {
            m.join(Meet::weaker(sq.at(y - 1, x - 1), sq.at(y, x)));
            m.join(Meet::weaker(sq.at(y - 1, x), sq.at(y, x - 1)));
        }
        return m;
    }
    if dx == 0 {
        let (x, lo, hi) = (a.0, a.1.min(b.1), a.1.max(b.1));
        for y in lo..hi {
            m.join(Meet::weaker(sq.at(y, x - 1), sq.at(y, x)));
        }
        for y in lo + 1..hi {
            m.join(Meet::weaker(sq.at(y - 1, x - 1), sq.at(y, x)));
            m.join(Meet::weaker(sq.at(y - 1, x), sq.at(y, x - 1)));
        }
        return m;
    }
    any_crossed(a, b, |row, col| {
        m.join(sq.at(row, col));
        false
    });
    let g = gcd(dx.abs(), dy.abs());
    let (sx, sy) = (dx / g, dy / g);
    for k in 1..g {
        let p = (a.0 + k * sx, a.1 + k * sy);
        // The squares ahead-in-x/behind-in-y and behind-in-x/ahead-in-y.
        let (r1, c1) = quadrant(p, sx, -sy);
        let (r2, c2) = quadrant(p, -sx, sy);
        m.join(Meet::weaker(sq.at(r1, c1), sq.at(r2, c2)));
    }
    m
}

/// The weaker of the two squares beside `own` at its corner `p` (the pair a
/// line squeezes between when it leaves `own` diagonally through `p`).
fn beside(sq: &impl Squares, p: Pt, own: Pos) -> Meet {
    // `own` lies in quadrant (qx, qy) of p.
    let qx = if p.0 == own.col { 1 } else { -1 };
    let qy = if p.1 == own.row { 1 } else { -1 };
    let (r1, c1) = quadrant(p, -qx, qy);
    let (r2, c2) = quadrant(p, qx, -qy);
    Meet::weaker(sq.at(r1, c1), sq.at(r2, c2))
}

/// Rule 4 at one end: the line leaves corner `p` of square `own` in direction `d`.
fn end_pinch(sq: &impl Squares, p: Pt, own: Pos, d: Pt) -> Meet {
    let qx = if p.0 == own.col { 1 } else { -1 };
    let qy = if p.1 == own.row { 1 } else { -1 };
    if d.0 * qx > 0 || d.1 * qy > 0 {
        return Meet::default(); // the line starts into or along its own square
    }
    beside(sq, p, own)
}

/// Rule 4 for both ends of the line from corner `a` of `from` to corner `b` of `to`.
fn ends(sq: &impl Squares, a: Pt, from: Pos, b: Pt, to: Pos) -> Meet {
    let d = (b.0 - a.0, b.1 - a.1);
    if d == (0, 0) {
        // Zero-length: diagonal neighbours touching at this corner are
        // separated by the other two squares there.
        let diagonal = from.row != to.row && from.col != to.col;
        return if diagonal { beside(sq, a, from) } else { Meet::default() };
    }
    let mut m = end_pinch(sq, a, from, d);
    m.join(end_pinch(sq, b, to, (-d.0, -d.1)));
    m
}

/// Everything the line from corner `a` of `from` to corner `b` of `to` meets.
fn line(sq: &impl Squares, a: Pt, from: Pos, b: Pt, to: Pos) -> Meet {
    let mut m = core(sq, a, b);
    m.join(ends(sq, a, from, b, to));
    m
}

/// Cover bonus of 16 lines reduced by the ranged rule (attacker's best corner)
/// or the adjacent-melee rule (any line).
fn reduce(lines: impl Fn(usize, usize) -> Meet, adjacent_melee: bool) -> u8 {
    if adjacent_melee {
        (0..16).map(|k| lines(k / 4, k % 4).cover).max().unwrap_or(0)
    } else {
        (0..4).map(|i| (0..4).map(|j| lines(i, j).cover).max().unwrap_or(0)).min().unwrap_or(0)
    }
}

/// Whether `from` has line of effect to `to`: some line from a corner of the
/// attacker's square to a corner of the target's square crosses no square that
/// blocks line of effect.
pub fn has_line_of_effect(map: &Map, from: Pos, to: Pos) -> bool {
    if !map.in_bounds(from) || !map.in_bounds(to) {
        return false;
    }
    let (cf, ct) = (corners(from), corners(to));
    from == to || cf.iter().any(|&a| ct.iter().any(|&b| !line(map, a, from, b, to).blocked))
}

/// Terrain cover bonus (0, 2, 4 or 8) the target at `to` gets against an attack
/// from `from`. `adjacent_melee` selects the melee rule (any blocked line gives
/// cover); otherwise the attacker chooses its best corner (ranged rule).
pub fn terrain_cover(map: &Map, from: Pos, to: Pos, adjacent_melee: bool) -> u8 {
    if !map.in_bounds(from) || !map.in_bounds(to) || from == to {
        return 0;
    }
    let (cf, ct) = (corners(from), corners(to));
    reduce(|i, j| line(map, cf[i], from, ct[j], to), adjacent_melee)
}

/// Whether a creature standing on one of `occupied` squares lies between `from`
/// and `to` (soft cover, +4 against ranged attacks).
///
/// The corner rule with creatures: whichever corner of its square the
/// attacker picks, some line from it to a corner of the target's square
/// crosses the interior of a square (other than the attacker's and the
/// target's) for which `occupied` holds. Grazing a creature's square along an
/// edge or at a corner does not count.
pub fn soft_cover(map: &Map, from: Pos, to: Pos, occupied: &dyn Fn(Pos) -> bool) -> bool {
    if !map.in_bounds(from) || !map.in_bounds(to) || from == to {
        return false;
    }
    let hit = |row, col| {
        let q = Pos::new(row, col);
        q != from && q != to && occupied(q)
    };
    let ct = corners(to);
    corners(from).iter().all(|&a| ct.iter().any(|&b| any_crossed(a, b, hit)))
}

/// Whether the segment `a`-`b` crosses the interior of square `q`.
fn crosses(a: Pt, b: Pt, q: Pos) -> bool {
    let (x0, x1, y0, y1) = (q.col, q.col + 1, q.row, q.row + 1);
    // Separating axes: the square's two axes, then the segment's normal.
    if a.0.max(b.0) <= x0 || a.0.min(b.0) >= x1 || a.1.max(b.1) <= y0 || a.1.min(b.1) >= y1 {
        return false;
    }
    let (dx, dy) = (b.0 - a.0, b.1 - a.1);
    let side = |x: i32, y: i32| dx * (y - a.1) - dy * (x - a.0);
    let s = [side(x0, y0), side(x1, y0), side(x0, y1), side(x1, y1)];
    s.iter().any(|&v| v < 0) && s.iter().any(|&v| v > 0)
}

/// Whether some line from corner `a` to a corner of `to` crosses a creature's
/// square other than `from` and `to`.
fn corner_screened(a: Pt, from: Pos, to: Pos, creatures: &[Pos]) -> bool {
    let ct = corners(to);
    // Lines stay inside the bounding box of the two squares.
    let (r0, r1) = (from.row.min(to.row), from.row.max(to.row));
    let (c0, c1) = (from.col.min(to.col), from.col.max(to.col));
    creatures.iter().any(|&c| {
        let inside = (r0..=r1).contains(&c.row) && (c0..=c1).contains(&c.col);
        inside && c != from && c != to && ct.iter().any(|&b| crosses(a, b, c))
    })
}

/// `soft_cover` given the creatures' squares as a list (faster: no scan).
pub fn soft_cover_among(map: &Map, from: Pos, to: Pos, creatures: &[Pos]) -> bool {
    if !map.in_bounds(from) || !map.in_bounds(to) || from == to {
        return false;
    }
    corners(from).iter().all(|&a| corner_screened(a, from, to, creatures))
}

/// Cover bonus against a ranged attack, terrain and creatures together, as
/// the SRD words it: the attacker picks one corner; the target has the cover
/// of the worst line from that corner, a creature crossed counting as +4.
/// Never less than `max(terrain_cover(.., false), 4 if soft_cover)`: picking
/// one corner for terrain and another for creatures would favour the attacker.
pub fn ranged_cover(map: &Map, from: Pos, to: Pos, creatures: &[Pos]) -> u8 {
    if !map.in_bounds(from) || !map.in_bounds(to) || from == to {
        return 0;
    }
    let ct = corners(to);
    let per_corner = |a: Pt| {
        let terrain = ct.iter().map(|&b| line(map, a, from, b, to).cover).max().unwrap_or(0);
        if corner_screened(a, from, to, creatures) { terrain.max(4) } else { terrain }
    };
    corners(from).iter().map(|&a| per_corner(a)).min().unwrap_or(0)
}

#[cfg(test)]
mod tests;
