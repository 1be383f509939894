//! Line of effect and terrain cover of every pair of squares, computed once per map.

use super::{Meet, OFF_MAP, Pt, Squares, core, corner_screened, corners, ends, reduce};
use crate::map::{Map, Pos};

/// Largest number of lattice points (square corners) for which tables are
/// built: about 1,100 squares (a 32x32 map), about 2.6 MB of tables.
const MAX_LATTICE: usize = 1200;

/// Cover bonus of a 2-bit code.
const DECODE: [u8; 4] = [0, 2, 4, 8];

/// 2-bit code of a cover bonus (0, 2, 4 or 8).
fn code(cover: u8) -> u8 {
    match cover {
        0 => 0,
        1..=2 => 1,
        3..=4 => 2,
        _ => 3,
    }
}

/// Line of effect and terrain cover of every pair of squares of one map.
///
/// Answers are identical to `has_line_of_effect` and `terrain_cover`, in
/// constant time. Maps with more than about 1,100 squares are not tabulated:
/// queries then compute directly. Queries with a map of other dimensions than
/// the one the table was built for also compute directly.
#[derive(Clone, Debug, Default)]
pub struct LosTable {
    width: i32,
    height: i32,
    /// Per pair of lattice points: packed `Meet` of the line between them (rules 1-3).
    segments: Vec<u8>,
    /// Per (from, to): bit 0 line of effect, bits 1-2 ranged cover code,
    /// bits 3-4 adjacent-melee cover code.
    pairs: Vec<u8>,
    /// Per (from, to): for each corner `i` of `from`, bits `2i..2i+2` hold the
    /// cover code of its worst line to the target (for `ranged_cover`).
    corner_covers: Vec<u8>,
}

/// Square values copied out of the map for fast building.
struct Cells {
    width: i32,
    height: i32,
    meets: Vec<Meet>,
}

impl Squares for Cells {
    fn at(&self, row: i32, col: i32) -> Meet {
        if row < 0 || col < 0 || row >= self.height || col >= self.width {
            return OFF_MAP;
        }
        self.meets[(row * self.width + col) as usize]
    }
}

impl LosTable {
    /// Builds the tables for `map` (or an empty table for a large map).
    pub fn new(map: &Map) -> Self {
        let (w, h) = (map.width.max(0), map.height.max(0));
        let lw = (w + 1) as usize;
        let lattice = lw * (h + 1) as usize;
        let mut table =
            Self { width: w, height: h, segments: Vec::new(), pairs: Vec::new(), corner_covers: Vec::new() };
        if w == 0 || h == 0 || lattice > MAX_LATTICE {
            return table;
        }
        let n = (w * h) as usize;
        let cells = Cells {
            width: w,
            height: h,
            meets: (0..n).map(|i| map.at(i as i32 / w, i as i32 % w)).collect(),
        };
        let point = |i: usize| -> Pt { ((i % lw) as i32, (i / lw) as i32) };
        let mut segments = vec![0u8; lattice * lattice];
        for i in 0..lattice {
            for j in i..lattice {
                let v = core(&cells, point(i), point(j)).pack();
                segments[i * lattice + j] = v;
                segments[j * lattice + i] = v;
            }
        }
        table.segments = segments;
        let pos = |i: usize| Pos::new(i as i32 / w, i as i32 % w);
        let mut pairs = vec![0u8; n * n];
        let mut corner_covers = vec![0u8; n * n];
        for f in 0..n {
            for t in 0..n {
                let (from, to) = (pos(f), pos(t));
                if from == to {
                    pairs[f * n + t] = 1;
                    continue;
                }
                let (cf, ct) = (corners(from), corners(to));
                let mut lines = [[Meet::default(); 4]; 4];
                for (i, &a) in cf.iter().enumerate() {
                    for (j, &b) in ct.iter().enumerate() {
                        let mut m = table.segment(a, b);
                        m.join(ends(&cells, a, from, b, to));
                        lines[i][j] = m;
                    }
                }
                let loe = lines.iter().flatten().any(|m| !m.blocked);
                corner_covers[f * n + t] = lines.iter().enumerate().fold(0, |acc, (i, row)| {
                    acc | (code(row.iter().map(|m| m.cover).max().unwrap_or(0)) << (2 * i))
                });
                let ranged = reduce(|i, j| lines[i][j], false);
                let melee = reduce(|i, j| lines[i][j], true);
                pairs[f * n + t] = u8::from(loe) | (code(ranged) << 1) | (code(melee) << 3);
            }
        }
        table.pairs = pairs;
        table.corner_covers = corner_covers;
        table
    }

    /// Whether this table was built (the map was small enough).
    pub fn is_tabulated(&self) -> bool {
        !self.pairs.is_empty()
    }

    /// The tabulated byte of a pair, if the table applies to `map` and both squares are on it.
    fn pair(&self, map: &Map, from: Pos, to: Pos) -> Option<u8> {
        if self.pairs.is_empty() || map.width != self.width || map.height != self.height {
            return None;
        }
        if !map.in_bounds(from) || !map.in_bounds(to) {
            return None;
        }
        let n = (self.width * self.height) as usize;
        Some(self.pairs[map.index(from) * n + map.index(to)])
    }

    /// The tabulated line between two lattice points (rules 1-3).
    fn segment(&self, a: Pt, b: Pt) -> Meet {
        let lw = self.width + 1;
        let lattice = (lw * (self.height + 1)) as usize;
        let (i, j) = ((a.1 * lw + a.0) as usize, (b.1 * lw + b.0) as usize);
        Meet::unpack(self.segments[i * lattice + j])
    }

    /// `los::has_line_of_effect`, from the table when possible.
    pub fn has_line_of_effect(&self, map: &Map, from: Pos, to: Pos) -> bool {
        match self.pair(map, from, to) {
            Some(b) => b & 1 != 0,
            None => super::has_line_of_effect(map, from, to),
        }
    }

    /// `los::terrain_cover`, from the table when possible.
    pub fn terrain_cover(&self, map: &Map, from: Pos, to: Pos, adjacent_melee: bool) -> u8 {
        match self.pair(map, from, to) {
            Some(b) if adjacent_melee => DECODE[usize::from((b >> 3) & 3)],
            Some(b) => DECODE[usize::from((b >> 1) & 3)],
            None => super::terrain_cover(map, from, to, adjacent_melee),
        }
    }

    /// `los::ranged_cover`, using the tabulated lines when possible.
    pub fn ranged_cover(&self, map: &Map, from: Pos, to: Pos, creatures: &[Pos]) -> u8 {
        if self.pair(map, from, to).is_none() {
            return super::ranged_cover(map, from, to, creatures);
        }
        if from == to {
            return 0;
        }
        let n = (self.width * self.height) as usize;
        let codes = self.corner_covers[map.index(from) * n + map.index(to)];
        let per_corner = |(i, &a): (usize, &Pt)| {
            let terrain = DECODE[usize::from((codes >> (2 * i)) & 3)];
            if terrain < 4 && corner_screened(a, from, to, creatures) { 4 } else { terrain }
        };
        corners(from).iter().enumerate().map(per_corner).min().unwrap_or(0)
    }
}
