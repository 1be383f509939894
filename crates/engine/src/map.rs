//! Battle maps: the YAML format (documented in `docs/rules/geometry.md`,
//! "Map files"), loading and validation (with the `yaml` feature, on by
//! default).

use std::collections::BTreeMap;

#[cfg(feature = "yaml")]
mod load;

/// Largest accepted width or height of a map, in squares.
pub const MAX_SIDE: usize = 256;

/// Largest accepted `move_cost`: keeps step costs small integers.
pub const MAX_MOVE_COST: u32 = 255;

/// A square of the grid, `(row, col)`, row 0 at the top.
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Default, serde::Serialize, serde::Deserialize,
)]
pub struct Pos {
    /// Row index (0 = first line of the layer).
    pub row: i32,
    /// Column index (0 = first character of the line).
    pub col: i32,
}

impl Pos {
    /// A position.
    pub const fn new(row: i32, col: i32) -> Self {
        Self { row, col }
    }
}

impl std::fmt::Display for Pos {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "({},{})", self.row, self.col)
    }
}

/// What a legend character means.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Terrain {
    /// The `type` identifier (`wall`, `floor`…).
    pub kind: String,
    /// Movement cost multiplier; `None` is impassable.
    pub move_cost: Option<u32>,
    /// Solid barrier: blocks line of effect.
    pub blocks_los: bool,
    /// Cover granted by the square: 0, 2 (partial), 4 (standard) or 8 (improved).
    /// `cover: true` and `blocks_los` without `cover_bonus` mean 4.
    pub cover_bonus: u8,
}

/// A loaded, validated map.
#[derive(Clone, Debug)]
pub struct Map {
    /// Display name.
    pub name: String,
    /// Side of a square in feet.
    pub square_size_ft: u32,
    /// Number of columns.
    pub width: i32,
    /// Number of rows.
    pub height: i32,
    /// Legend entries, indexed by `cells`.
    pub legend: Vec<(char, Terrain)>,
    /// Index into `legend` for every square, row-major.
    pub cells: Vec<u16>,
    /// Ground height of every square, row-major (0 where the layer is absent or `.`).
    pub elevation: Vec<u8>,
    /// Deployment zone letter of every square, row-major.
    pub zones: Vec<Option<char>>,
    /// Named points, validated to lie on the map.
    pub markers: BTreeMap<String, Pos>,
    /// Side name -> zone letter, in file order.
    pub deployment: Vec<(String, char)>,
    /// The squares a combatant may leave the battle from (`exits:`, in file
    /// order); `None` when the file declares none: then every passable
    /// square on the map's border is an exit (`docs/rules/movement.md`,
    /// "Leaving the battle").
    pub exits: Option<Vec<Pos>>,
}

/// Why a map was refused. Every message names the file and the place.
#[derive(Debug, thiserror::Error)]
pub enum MapError {
    /// The file could not be read.
    #[error("{file}: cannot read: {source}")]
    Io {
        /// The file.
        file: String,
        /// The I/O error.
        source: std::io::Error,
    },
    /// The YAML is malformed or a field has the wrong shape.
    #[error("{file}: {location}: {message}")]
    Syntax {
        /// The file.
        file: String,
        /// `line L column C` or a field path.
        location: String,
        /// What is wrong.
        message: String,
    },
    /// The content breaks a rule of the format.
    #[error("{file}: {place}: {message}")]
    Invalid {
        /// The file.
        file: String,
        /// Field (and row/column where relevant).
        place: String,
        /// What is wrong.
        message: String,
    },
}

impl Map {
    /// Loads and validates a map file (tests and benchmarks: the product
    /// reads files outside the engine and calls [`Map::from_yaml_str`]).
    #[cfg(feature = "yaml")]
    pub fn load(path: &std::path::Path) -> Result<Self, MapError> {
        let file = path.display().to_string();
        let text =
            std::fs::read_to_string(path).map_err(|source| MapError::Io { file: file.clone(), source })?;
        Self::from_yaml_str(&text, &file)
    }

    /// Parses and validates map YAML; `file` names the origin in error messages.
    #[cfg(feature = "yaml")]
    pub fn from_yaml_str(text: &str, file: &str) -> Result<Self, MapError> {
        load::parse(text, file)
    }

    /// Whether `p` lies on the map.
    #[inline]
    pub fn in_bounds(&self, p: Pos) -> bool {
        p.row >= 0 && p.col >= 0 && p.row < self.height && p.col < self.width
    }

    /// Row-major index of an in-bounds square.
    #[inline]
    pub fn index(&self, p: Pos) -> usize {
        (p.row * self.width + p.col) as usize
    }

    /// The terrain of an in-bounds square.
    #[inline]
    pub fn terrain(&self, p: Pos) -> &Terrain {
        &self.legend[self.cells[self.index(p)] as usize].1
    }

    /// Whether a creature can stand on `p` (in bounds and not impassable).
    #[inline]
    pub fn passable(&self, p: Pos) -> bool {
        self.in_bounds(p) && self.terrain(p).move_cost.is_some()
    }

    /// Whether `p` is out of bounds or a solid barrier for line of effect.
    #[inline]
    pub fn blocks_los(&self, p: Pos) -> bool {
        !self.in_bounds(p) || self.terrain(p).blocks_los
    }

    /// Ground height of an in-bounds square.
    #[inline]
    pub fn elevation(&self, p: Pos) -> u8 {
        self.elevation[self.index(p)]
    }

    /// Whether a combatant may leave the battle from `p`: one of the declared
    /// `exits`, or, when the map declares none, a passable square on its border.
    pub fn is_exit(&self, p: Pos) -> bool {
        match &self.exits {
            Some(exits) => exits.contains(&p),
            None => {
                self.passable(p)
                    && (p.row == 0 || p.col == 0 || p.row == self.height - 1 || p.col == self.width - 1)
            }
        }
    }

    /// Squares of zone `letter` in (row, column) order.
    pub fn zone_cells(&self, letter: char) -> Vec<Pos> {
        let mut out = Vec::new();
        for row in 0..self.height {
            for col in 0..self.width {
                let p = Pos::new(row, col);
                if self.zones[self.index(p)] == Some(letter) {
                    out.push(p);
                }
            }
        }
        out
    }
}
