//! YAML map loading and validation (the format: `docs/rules/geometry.md`, "Map files").
//!
//! Shape errors (malformed YAML, unknown fields, wrong types) come from
//! serde_yaml with their line and column. Value rules (legend values, layer
//! sizes and characters, zones, deployment, markers) are checked afterwards
//! and located by scanning the text for the offending key or layer row:
//! serde_yaml attaches errors raised by our own validation to the enclosing
//! mapping, not to the value.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt;
use std::marker::PhantomData;

use serde::Deserialize;
use serde::de::{self, Deserializer, MapAccess, Visitor};

use super::{MAX_MOVE_COST, MAX_SIDE, Map, MapError, Pos, Terrain};

/// Square size when `square_size_ft` is omitted.
const DEFAULT_SQUARE_FT: u32 = 5;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawMap {
    #[serde(default)]
    name: Option<String>,
    #[serde(default)]
    square_size_ft: Option<i64>,
    terrain: String,
    #[serde(default)]
    legend: Option<Entries<RawTerrain>>,
    #[serde(default)]
    elevation: Option<String>,
    #[serde(default)]
    zones: Option<String>,
    #[serde(default)]
    markers: Option<Entries<[i64; 2]>>,
    #[serde(default)]
    deployment: Option<Entries<String>>,
    #[serde(default)]
    exits: Option<Vec<[i64; 2]>>,
}

/// A legend entry as written in the file.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawTerrain {
    #[serde(rename = "type")]
    kind: String,
    #[serde(default)]
    move_cost: Option<i64>,
    #[serde(default)]
    blocks_los: bool,
    #[serde(default)]
    cover: Option<bool>,
    #[serde(default)]
    cover_bonus: Option<i64>,
}

impl RawTerrain {
    /// Checks the entry and resolves its cover level.
    fn validate(self) -> Result<Terrain, String> {
        if self.kind.trim().is_empty() {
            return Err("type must not be empty".into());
        }
        let move_cost = match self.move_cost {
            None => None,
            Some(c) if c >= 1 && c <= i64::from(MAX_MOVE_COST) => Some(c as u32),
            Some(c) => {
                return Err(format!(
                    "move_cost must be an integer from 1 to {MAX_MOVE_COST}, or null for impassable; got {c}"
                ));
            }
        };
        let cover_bonus = match (self.cover_bonus, self.cover) {
            (Some(b @ (2 | 4 | 8)), Some(true) | None) => b as u8,
            (Some(2 | 4 | 8), Some(false)) => {
                return Err("cover: false contradicts cover_bonus (drop one of them)".into());
            }
            (Some(b), _) => {
                return Err(format!(
                    "cover_bonus must be 2 (partial), 4 (standard) or 8 (improved); got {b}"
                ));
            }
            (None, Some(true)) => 4,
            (None, _) if self.blocks_los => 4,
            (None, _) => 0,
        };
        Ok(Terrain { kind: self.kind, move_cost, blocks_los: self.blocks_los, cover_bonus })
    }
}

/// A YAML mapping kept in file order. Scalar keys (strings, integers,
/// booleans) are read as their text. The first repeated key is remembered
/// (and its value dropped) so the caller can report it with its line.
struct Entries<V> {
    items: Vec<(String, V)>,
    duplicate: Option<String>,
}

/// A mapping key read as text.
struct Key(String);

impl<'de> Deserialize<'de> for Key {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct KeyVisitor;
        impl Visitor<'_> for KeyVisitor {
            type Value = Key;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a scalar key")
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<Key, E> {
                Ok(Key(v.to_string()))
            }
            fn visit_i64<E: de::Error>(self, v: i64) -> Result<Key, E> {
                Ok(Key(v.to_string()))
            }
            fn visit_u64<E: de::Error>(self, v: u64) -> Result<Key, E> {
                Ok(Key(v.to_string()))
            }
            fn visit_bool<E: de::Error>(self, v: bool) -> Result<Key, E> {
                Ok(Key(v.to_string()))
            }
        }
        d.deserialize_any(KeyVisitor)
    }
}

impl<'de, V: Deserialize<'de>> Deserialize<'de> for Entries<V> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct EntriesVisitor<V>(PhantomData<V>);
        impl<'de, V: Deserialize<'de>> Visitor<'de> for EntriesVisitor<V> {
            type Value = Entries<V>;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a mapping")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut access: A) -> Result<Entries<V>, A::Error> {
                let mut items: Vec<(String, V)> = Vec::new();
                let mut seen = BTreeSet::new();
                let mut duplicate = None;
                while let Some(Key(key)) = access.next_key::<Key>()? {
                    let value = access.next_value::<V>()?;
                    if seen.insert(key.clone()) {
                        items.push((key, value));
                    } else {
                        duplicate.get_or_insert(key);
                    }
                }
                Ok(Entries { items, duplicate })
            }
        }
        d.deserialize_map(EntriesVisitor(PhantomData))
    }
}

/// Error-building context: the file name and its text (to find lines).
struct Ctx<'a> {
    file: &'a str,
    text: &'a str,
}

impl Ctx<'_> {
    /// A content error at `line`, or at `fallback_place` when no line was found.
    fn invalid(&self, line: Option<usize>, fallback_place: &str, message: String) -> MapError {
        let place = match line {
            Some(l) => format!("line {l}"),
            None => fallback_place.to_string(),
        };
        MapError::Invalid { file: self.file.to_string(), place, message }
    }

    /// 1-based line of a top-level `key:`.
    fn key_line(&self, key: &str) -> Option<usize> {
        self.text.lines().position(|l| starts_with_key(l, key)).map(|i| i + 1)
    }

    /// 1-based line of `key:` inside the block of top-level `section:`.
    fn sub_key_line(&self, section: &str, key: &str) -> Option<usize> {
        self.nth_sub_key_line(section, key, 0)
    }

    /// 1-based line of the `nth` (0-based) `key:` inside top-level `section:`.
    fn nth_sub_key_line(&self, section: &str, key: &str, mut nth: usize) -> Option<usize> {
        let start = self.key_line(section)?;
        for (i, line) in self.text.lines().enumerate().skip(start) {
            let trimmed = line.trim_start();
            if trimmed.is_empty() || trimmed.starts_with('#') {
                continue;
            }
            if trimmed.len() == line.len() {
                return None; // next top-level key: left the section
            }
            if starts_with_key(trimmed, key) {
                if nth == 0 {
                    return Some(i + 1);
                }
                nth -= 1;
            }
        }
        None
    }

    /// 1-based line of item `k` of top-level list `section:` written one
    /// `- ` item a line; the key's own line for a flow list (`[...]`).
    fn item_line(&self, section: &str, k: usize) -> Option<usize> {
        let start = self.key_line(section)?;
        let items = self.text.lines().enumerate().skip(start).take_while(|(_, l)| {
            let t = l.trim_start();
            t.is_empty() || t.starts_with('#') || t.len() != l.len() || t.starts_with('-')
        });
        let mut items = items.filter(|(_, l)| l.trim_start().starts_with('-'));
        Some(items.nth(k).map_or(start, |(i, _)| i + 1))
    }

    /// 1-based line of row `row` of a layer written as a `|` block scalar.
    fn row_line(&self, layer: &str, row: usize) -> Option<usize> {
        let l = self.key_line(layer)?;
        let after = self.text.lines().nth(l - 1)?.split_once(':')?.1.trim_start();
        after.starts_with('|').then_some(l + 1 + row)
    }
}

/// Whether `line` starts with `key:` (key bare, single- or double-quoted).
fn starts_with_key(line: &str, key: &str) -> bool {
    for quote in ["", "\"", "'"] {
        if let Some(rest) = line.strip_prefix(quote).and_then(|r| r.strip_prefix(key))
            && let Some(rest) = rest.strip_prefix(quote)
            && rest.trim_start().starts_with(':')
        {
            return true;
        }
    }
    false
}

/// A serde_yaml error as `file: line L column C: message`.
fn syntax_error(file: &str, err: &serde_yaml::Error) -> MapError {
    let mut message = err.to_string();
    let location = match err.location() {
        Some(loc) => {
            let at = format!("line {} column {}", loc.line(), loc.column());
            message = message.replacen(&format!(" at {at}"), "", 1);
            at
        }
        None => "document".to_string(),
    };
    // Name the shapes by what the user wrote, not by our private types.
    let message = message
        .replace("struct RawMap", "a mapping of map fields")
        .replace("struct RawTerrain", "a legend entry mapping")
        .replace(['\n', '\r'], " ");
    MapError::Syntax { file: file.to_string(), location, message }
}

/// Splits a layer block into rows of characters (a final newline is not a row).
fn layer_rows(block: &str) -> Vec<Vec<char>> {
    let block = block.strip_suffix('\n').unwrap_or(block);
    block.split('\n').map(|l| l.strip_suffix('\r').unwrap_or(l).chars().collect()).collect()
}

/// Parses an optional layer and checks it has the terrain's dimensions.
fn sized_layer(
    ctx: &Ctx,
    name: &str,
    block: &str,
    width: usize,
    height: usize,
) -> Result<Vec<Vec<char>>, MapError> {
    let rows = layer_rows(block);
    if rows.len() != height {
        return Err(ctx.invalid(
            ctx.key_line(name),
            name,
            format!("{name} has {} rows, expected {height} (the terrain's height)", rows.len()),
        ));
    }
    for (r, row) in rows.iter().enumerate() {
        if row.len() != width {
            return Err(ctx.invalid(
                ctx.row_line(name, r),
                &format!("{name} row {r}"),
                format!(
                    "{name} row {r} has {} characters, expected {width} (the terrain's width)",
                    row.len()
                ),
            ));
        }
    }
    Ok(rows)
}

/// The entries of an optional section, refusing a repeated key.
fn entries<V>(ctx: &Ctx, section: &str, e: Option<Entries<V>>) -> Result<Vec<(String, V)>, MapError> {
    let Some(e) = e else { return Ok(Vec::new()) };
    if let Some(key) = e.duplicate {
        return Err(ctx.invalid(
            ctx.nth_sub_key_line(section, &key, 1),
            &format!("{section}.{key}"),
            format!("{section}: duplicate key {key:?}"),
        ));
    }
    Ok(e.items)
}

/// Parses and validates map YAML (see `Map::from_yaml_str`).
pub(super) fn parse(text: &str, file: &str) -> Result<Map, MapError> {
    let ctx = Ctx { file, text };
    let raw: RawMap = serde_yaml::from_str(text).map_err(|e| syntax_error(file, &e))?;
    let square_size_ft = match raw.square_size_ft {
        None => DEFAULT_SQUARE_FT,
        Some(n) if n > 0 && n <= i64::from(u32::MAX) => n as u32,
        Some(n) => {
            return Err(ctx.invalid(
                ctx.key_line("square_size_ft"),
                "square_size_ft",
                format!("square_size_ft must be an integer > 0, got {n}"),
            ));
        }
    };

    // Terrain fixes the dimensions.
    let rows = layer_rows(&raw.terrain);
    let width = rows.first().map_or(0, Vec::len);
    if width == 0 {
        return Err(ctx.invalid(ctx.key_line("terrain"), "terrain", "terrain is empty".into()));
    }
    let height = rows.len();
    if width > MAX_SIDE || height > MAX_SIDE {
        return Err(ctx.invalid(
            ctx.key_line("terrain"),
            "terrain",
            format!("terrain is {width}x{height}; at most {MAX_SIDE} squares per side are supported"),
        ));
    }
    for (r, row) in rows.iter().enumerate() {
        if row.len() != width {
            return Err(ctx.invalid(
                ctx.row_line("terrain", r),
                &format!("terrain row {r}"),
                format!(
                    "terrain row {r} has {} characters, expected {width} (every row must have the length of row 0)",
                    row.len()
                ),
            ));
        }
    }

    // Legend.
    let mut legend: Vec<(char, Terrain)> = Vec::new();
    let mut legend_index: BTreeMap<char, u16> = BTreeMap::new();
    for (key, raw_terrain) in entries(&ctx, "legend", raw.legend)? {
        let line = ctx.sub_key_line("legend", &key);
        let place = format!("legend.{key}");
        let mut chars = key.chars();
        let (Some(c), None) = (chars.next(), chars.next()) else {
            return Err(ctx.invalid(line, &place, format!("legend key {key:?} must be a single character")));
        };
        let terrain =
            raw_terrain.validate().map_err(|m| ctx.invalid(line, &place, format!("legend {key:?}: {m}")))?;
        let Ok(index) = u16::try_from(legend.len()) else {
            return Err(ctx.invalid(line, &place, "legend has too many entries".into()));
        };
        legend_index.insert(c, index);
        legend.push((c, terrain));
    }
    let mut cells = Vec::with_capacity(width * height);
    for (r, row) in rows.iter().enumerate() {
        for (c, ch) in row.iter().enumerate() {
            let Some(&index) = legend_index.get(ch) else {
                return Err(ctx.invalid(
                    ctx.row_line("terrain", r),
                    &format!("terrain row {r}"),
                    format!("terrain character {ch:?} at row {r}, column {c} is not in the legend"),
                ));
            };
            cells.push(index);
        }
    }

    // Elevation.
    let mut elevation = vec![0u8; width * height];
    if let Some(block) = &raw.elevation {
        let layer = sized_layer(&ctx, "elevation", block, width, height)?;
        for (r, row) in layer.iter().enumerate() {
            for (c, &ch) in row.iter().enumerate() {
                elevation[r * width + c] = match ch {
                    '.' => 0,
                    '0'..='9' => ch as u8 - b'0',
                    _ => {
                        return Err(ctx.invalid(
                            ctx.row_line("elevation", r),
                            &format!("elevation row {r}"),
                            format!(
                                "elevation character {ch:?} at row {r}, column {c} is not a digit or '.'"
                            ),
                        ));
                    }
                };
            }
        }
    }

    // Zones.
    let mut zones = vec![None; width * height];
    if let Some(block) = &raw.zones {
        let layer = sized_layer(&ctx, "zones", block, width, height)?;
        for (r, row) in layer.iter().enumerate() {
            for (c, &ch) in row.iter().enumerate() {
                zones[r * width + c] = match ch {
                    '.' => None,
                    _ if ch.is_ascii_alphabetic() => Some(ch),
                    _ => {
                        return Err(ctx.invalid(
                            ctx.row_line("zones", r),
                            &format!("zones row {r}"),
                            format!("zones character {ch:?} at row {r}, column {c} is not a letter or '.'"),
                        ));
                    }
                };
            }
        }
    }

    // Markers.
    let mut markers = BTreeMap::new();
    for (name, [row, col]) in entries(&ctx, "markers", raw.markers)? {
        let on_map = (0..height as i64).contains(&row) && (0..width as i64).contains(&col);
        if !on_map {
            return Err(ctx.invalid(
                ctx.sub_key_line("markers", &name),
                &format!("markers.{name}"),
                format!("marker {name:?} at [{row}, {col}] lies outside the {width}x{height} map"),
            ));
        }
        markers.insert(name, Pos::new(row as i32, col as i32));
    }

    // Deployment.
    let mut deployment: Vec<(String, char)> = Vec::new();
    let deployment_present = raw.deployment.is_some();
    let sides = entries(&ctx, "deployment", raw.deployment)?;
    match (&raw.zones, deployment_present) {
        (None, true) => {
            return Err(ctx.invalid(
                ctx.key_line("deployment"),
                "deployment",
                "deployment requires a zones layer".into(),
            ));
        }
        (Some(_), false) => {
            return Err(ctx.invalid(
                ctx.key_line("zones"),
                "zones",
                "a zones layer requires a deployment section (side -> zone letter)".into(),
            ));
        }
        (None, false) => {}
        (Some(_), true) => {
            if sides.is_empty() {
                return Err(ctx.invalid(
                    ctx.key_line("deployment"),
                    "deployment",
                    "deployment is empty".into(),
                ));
            }
            for (side, letter) in sides {
                let line = ctx.sub_key_line("deployment", &side);
                let place = format!("deployment.{side}");
                if side.trim().is_empty() {
                    return Err(ctx.invalid(line, &place, "side name must not be empty".into()));
                }
                let mut chars = letter.chars();
                let (Some(letter), None) = (chars.next(), chars.next()) else {
                    return Err(ctx.invalid(
                        line,
                        &place,
                        format!("side {side:?}: zone letter must be a single letter, got {letter:?}"),
                    ));
                };
                if !zones.contains(&Some(letter)) {
                    return Err(ctx.invalid(
                        line,
                        &place,
                        format!("side {side:?}: zone letter {letter} does not appear in the zones layer"),
                    ));
                }
                if let Some((other, _)) = deployment.iter().find(|(_, l)| *l == letter) {
                    return Err(ctx.invalid(
                        line,
                        &place,
                        format!(
                            "sides {other:?} and {side:?} share zone letters ({letter}); each side needs its own zone"
                        ),
                    ));
                }
                deployment.push((side, letter));
            }
        }
    }

    // Exits: squares on the map, passable, each once.
    let exits = match raw.exits {
        None => None,
        Some(list) => {
            let mut exits: Vec<Pos> = Vec::with_capacity(list.len());
            for (k, [row, col]) in list.into_iter().enumerate() {
                let line = ctx.item_line("exits", k);
                let place = format!("exits[{k}]");
                let on_map = (0..height as i64).contains(&row) && (0..width as i64).contains(&col);
                if !on_map {
                    return Err(ctx.invalid(
                        line,
                        &place,
                        format!("exit {k} at [{row}, {col}] lies outside the {width}x{height} map"),
                    ));
                }
                let p = Pos::new(row as i32, col as i32);
                if legend[usize::from(cells[row as usize * width + col as usize])].1.move_cost.is_none() {
                    return Err(ctx.invalid(
                        line,
                        &place,
                        format!("exit {k} at [{row}, {col}] is impassable terrain: no one can stand there to leave"),
                    ));
                }
                if exits.contains(&p) {
                    return Err(ctx.invalid(
                        line,
                        &place,
                        format!("exit {k} at [{row}, {col}] is listed twice"),
                    ));
                }
                exits.push(p);
            }
            Some(exits)
        }
    };

    let name = match raw.name {
        Some(n) => n,
        None => std::path::Path::new(file)
            .file_stem()
            .map_or_else(|| file.to_string(), |s| s.to_string_lossy().into_owned()),
    };
    Ok(Map {
        name,
        square_size_ft,
        width: width as i32,
        height: height as i32,
        legend,
        cells,
        elevation,
        zones,
        markers,
        deployment,
        exits,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    const GOOD: &str = r##"name: Test
square_size_ft: 5
terrain: |
  #####
  #.T.#
  #####
legend:
  "#": { type: wall, move_cost: null, blocks_los: true }
  ".": { type: floor, move_cost: 1 }
  "T": { type: rubble, move_cost: 2 }
elevation: |
  .....
  .12..
  .....
zones: |
  .....
  .A.B.
  .....
markers:
  spot: [1, 2]
deployment:
  players: A
  monsters: B
"##;

    fn err(text: &str) -> String {
        match Map::from_yaml_str(text, "maps/t.yaml") {
            Ok(_) => panic!("expected an error"),
            Err(e) => e.to_string(),
        }
    }

    /// Replaces the first occurrence of `from` in GOOD and expects an error.
    fn err_with(from: &str, to: &str) -> String {
        assert!(GOOD.contains(from), "fixture lacks {from:?}");
        err(&GOOD.replacen(from, to, 1))
    }

    fn assert_msg(msg: &str, place: &str, problem: &str) {
        assert!(msg.starts_with("maps/t.yaml: "), "no file in {msg:?}");
        assert!(msg.contains(place), "no place {place:?} in {msg:?}");
        assert!(msg.contains(problem), "no problem {problem:?} in {msg:?}");
        assert!(!msg.contains('\n'), "multi-line message {msg:?}");
    }

    #[test]
    fn good_map_loads_every_layer() {
        let m = Map::from_yaml_str(GOOD, "maps/t.yaml").unwrap();
        assert_eq!((m.name.as_str(), m.width, m.height, m.square_size_ft), ("Test", 5, 3, 5));
        assert_eq!(m.terrain(Pos::new(1, 2)).kind, "rubble");
        assert_eq!(m.terrain(Pos::new(1, 2)).move_cost, Some(2));
        assert_eq!(m.terrain(Pos::new(0, 0)).cover_bonus, 4, "blocks_los means cover 4");
        assert_eq!(m.elevation(Pos::new(1, 1)), 1);
        assert_eq!(m.elevation(Pos::new(1, 2)), 2);
        assert_eq!(m.zone_cells('A'), vec![Pos::new(1, 1)]);
        assert_eq!(m.markers["spot"], Pos::new(1, 2));
        assert_eq!(m.deployment, vec![("players".to_string(), 'A'), ("monsters".to_string(), 'B')]);
    }

    fn data_map(name: &str) -> Map {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../data/maps").join(name);
        Map::load(&path).unwrap_or_else(|e| panic!("{e}"))
    }

    #[test]
    fn sample_arena_loads_from_disk() {
        let m = data_map("sample_arena.yaml");
        assert_eq!((m.name.as_str(), m.width, m.height), ("Arène d'essai", 20, 8));
        let chars: Vec<char> = m.legend.iter().map(|(c, _)| *c).collect();
        assert_eq!(chars, vec!['#', '.', 'T', '~', 'C', 'W']);
        assert!(m.blocks_los(Pos::new(1, 8)), "central wall block");
        assert_eq!(m.terrain(Pos::new(2, 3)).cover_bonus, 4, "pillar");
        assert_eq!(m.terrain(Pos::new(4, 3)).move_cost, Some(2), "rubble");
        assert_eq!(m.elevation(Pos::new(1, 2)), 1);
        assert_eq!(m.elevation(Pos::new(3, 2)), 0);
        let a = m.zone_cells('A');
        assert_eq!(a.len(), 8);
        assert!(a.iter().all(|p| (1..=2).contains(&p.row) && (1..=4).contains(&p.col)));
        let b = m.zone_cells('B');
        assert!(b.len() == 8 && b.iter().all(|p| (1..=2).contains(&p.row) && (15..=18).contains(&p.col)));
        assert_eq!(m.markers["autel"], Pos::new(1, 16));
        assert_eq!(m.deployment, vec![("players".to_string(), 'A'), ("monsters".to_string(), 'B')]);
    }

    #[test]
    fn mirror_arena_is_left_right_symmetric() {
        let m = data_map("mirror_arena.yaml");
        let mirror = |p: Pos| Pos::new(p.row, m.width - 1 - p.col);
        for row in 0..m.height {
            for col in 0..m.width {
                let p = Pos::new(row, col);
                assert_eq!(m.terrain(p), m.terrain(mirror(p)), "terrain at {p}");
                assert_eq!(m.elevation(p), m.elevation(mirror(p)));
            }
        }
        let a = m.zone_cells('A');
        let b = m.zone_cells('B');
        assert_eq!(a.iter().map(|&p| mirror(p)).collect::<Vec<_>>(), b, "zones mirror in fill order");
        assert!(a.iter().all(|&p| m.passable(p)));
    }

    #[test]
    fn defaults_name_square_size_and_optional_layers() {
        let text = "terrain: |\n  ..\nlegend:\n  \".\": { type: floor, move_cost: 1 }\n";
        let m = Map::from_yaml_str(text, "dir/small.yaml").unwrap();
        assert_eq!(m.name, "small");
        assert_eq!(m.square_size_ft, 5);
        assert_eq!(m.elevation, vec![0, 0]);
        assert_eq!(m.zones, vec![None, None]);
        assert!(m.deployment.is_empty() && m.markers.is_empty());
    }

    #[test]
    fn exits_default_to_the_passable_border_and_can_be_declared() {
        // A 3x4 floor with a wall at (0,0) and a pillar at (1,1).
        let text = "terrain: |\n  #...\n  .#..\n  ....\nlegend:\n  \".\": { type: floor, move_cost: 1 }\n  \"#\": { type: wall }\n";
        let m = Map::from_yaml_str(text, "t").unwrap();
        assert_eq!(m.exits, None);
        assert!(!m.is_exit(Pos::new(0, 0)), "a wall on the border is no exit");
        assert!(m.is_exit(Pos::new(0, 1)) && m.is_exit(Pos::new(2, 3)) && m.is_exit(Pos::new(1, 0)));
        assert!(!m.is_exit(Pos::new(1, 2)), "an inner square is no exit");
        assert!(!m.is_exit(Pos::new(5, 5)), "off the map");
        let declared = format!("{text}exits:\n  - [1, 2]\n  - [2, 0]\n");
        let m = Map::from_yaml_str(&declared, "t").unwrap();
        assert_eq!(m.exits, Some(vec![Pos::new(1, 2), Pos::new(2, 0)]));
        assert!(m.is_exit(Pos::new(1, 2)) && !m.is_exit(Pos::new(0, 1)), "only the declared ones");
        let none = format!("{text}exits: []\n");
        let m = Map::from_yaml_str(&none, "t").unwrap();
        assert!((0..3).all(|r| (0..4).all(|c| !m.is_exit(Pos::new(r, c)))), "exits: [] closes the map");
    }

    #[test]
    fn error_exits_off_the_map_impassable_or_twice() {
        let msg = err(&format!("{GOOD}exits:\n  - [1, 1]\n  - [7, 1]\n"));
        assert_msg(&msg, "line 26", "exit 1 at [7, 1] lies outside the 5x3 map");
        let msg = err(&format!("{GOOD}exits:\n  - [0, 0]\n"));
        assert_msg(&msg, "line 25", "exit 0 at [0, 0] is impassable terrain");
        let msg = err(&format!("{GOOD}exits: [[1, 1], [1, 1]]\n"));
        assert_msg(&msg, "line 24", "exit 1 at [1, 1] is listed twice");
        let msg = err(&format!("{GOOD}exits: [[1]]\n"));
        assert_msg(&msg, "line 24", "");
    }

    #[test]
    fn cover_levels_resolve() {
        let text = r##"terrain: "abcde"
legend:
  a: { type: pillar, cover: true }
  b: { type: ruin, cover_bonus: 2 }
  c: { type: slit, cover_bonus: 8, blocks_los: true }
  d: { type: bush, move_cost: 2, cover: true, cover_bonus: 2 }
  e: { type: floor, move_cost: 1, cover: false }
"##;
        let m = Map::from_yaml_str(text, "t").unwrap();
        let covers: Vec<u8> = m.legend.iter().map(|(_, t)| t.cover_bonus).collect();
        assert_eq!(covers, vec![4, 2, 8, 2, 0]);
        assert_eq!(m.legend[0].1.move_cost, None, "omitted move_cost is impassable");
    }

    #[test]
    fn error_malformed_yaml() {
        let msg = err("name: x\nterrain: \"unclosed\n");
        assert_msg(&msg, "line 2 column 10", "found unexpected end of stream");
    }

    #[test]
    fn error_empty_legend_type() {
        let msg = err_with("{ type: rubble, move_cost: 2 }", "{ type: \"\", move_cost: 2 }");
        assert_msg(&msg, "line 10", "legend \"T\": type must not be empty");
    }

    #[test]
    fn error_duplicate_marker() {
        let msg = err_with("  spot: [1, 2]\n", "  spot: [1, 2]\n  spot: [1, 3]\n");
        assert_msg(&msg, "line 21", "markers: duplicate key \"spot\"");
    }

    #[test]
    fn error_empty_side_name() {
        let msg = err_with("  players: A", "  \"\": A");
        assert_msg(&msg, "line 22", "side name must not be empty");
    }

    #[test]
    fn error_missing_terrain() {
        let msg = err("name: x\n");
        assert_msg(&msg, "maps/t.yaml", "missing field `terrain`");
    }

    #[test]
    fn error_unknown_top_level_field() {
        let msg = err_with("square_size_ft: 5", "square_size_ft: 5\ncolour: red");
        assert_msg(&msg, "line 3", "unknown field `colour`");
    }

    #[test]
    fn error_unknown_legend_field() {
        let msg = err_with("move_cost: 2 }", "move_cost: 2, slippery: true }");
        assert_msg(&msg, "line 10", "unknown field `slippery`");
    }

    #[test]
    fn error_square_size_not_positive() {
        let msg = err_with("square_size_ft: 5", "square_size_ft: 0");
        assert_msg(&msg, "line 2", "square_size_ft must be an integer > 0");
    }

    #[test]
    fn error_empty_terrain() {
        let msg = err("terrain: \"\"\nlegend: {}\n");
        assert_msg(&msg, "line 1", "terrain is empty");
    }

    #[test]
    fn error_ragged_terrain_row() {
        let msg = err_with("  #.T.#\n", "  #.T.##\n");
        assert_msg(&msg, "line 5", "terrain row 1 has 6 characters, expected 5");
    }

    #[test]
    fn error_terrain_char_not_in_legend() {
        let msg = err_with("  #.T.#\n", "  #.X.#\n");
        assert_msg(&msg, "line 5", "terrain character 'X' at row 1, column 2 is not in the legend");
    }

    #[test]
    fn error_legend_key_not_single_char() {
        let msg = err_with("\"T\": { type: rubble", "\"TT\": { type: rubble");
        assert_msg(&msg, "line 10", "legend key \"TT\" must be a single character");
    }

    #[test]
    fn error_duplicate_legend_key() {
        let msg = err_with("\"T\": { type: rubble", "\".\": { type: rubble");
        assert_msg(&msg, "line 10", "duplicate key \".\"");
    }

    #[test]
    fn error_move_cost_zero() {
        let msg = err_with("move_cost: 2 }", "move_cost: 0 }");
        assert_msg(&msg, "line 10", "move_cost must be an integer from 1 to 255");
    }

    #[test]
    fn error_move_cost_not_integer() {
        let msg = err_with("move_cost: 2 }", "move_cost: 1.5 }");
        assert_msg(&msg, "line 10", "move_cost");
    }

    #[test]
    fn error_bad_cover_bonus() {
        let msg = err_with("move_cost: 2 }", "move_cost: 2, cover_bonus: 3 }");
        assert_msg(&msg, "line 10", "cover_bonus must be 2 (partial), 4 (standard) or 8 (improved); got 3");
    }

    #[test]
    fn error_cover_false_with_bonus() {
        let msg = err_with("move_cost: 2 }", "move_cost: 2, cover: false, cover_bonus: 2 }");
        assert_msg(&msg, "line 10", "cover: false contradicts cover_bonus");
    }

    #[test]
    fn error_missing_legend_type() {
        let msg = err_with("{ type: rubble, move_cost: 2 }", "{ move_cost: 2 }");
        assert_msg(&msg, "line 10", "missing field `type`");
    }

    #[test]
    fn error_layer_row_count() {
        let msg = err_with("elevation: |\n  .....\n", "elevation: |\n");
        assert_msg(&msg, "line 11", "elevation has 2 rows, expected 3");
    }

    #[test]
    fn error_ragged_elevation_row() {
        let msg = err_with("  .12..\n", "  .12.\n");
        assert_msg(&msg, "line 13", "elevation row 1 has 4 characters, expected 5");
    }

    #[test]
    fn error_elevation_not_digit() {
        let msg = err_with("  .12..\n", "  .1x..\n");
        assert_msg(&msg, "line 13", "elevation character 'x' at row 1, column 2 is not a digit");
    }

    #[test]
    fn error_zones_not_letter() {
        let msg = err_with("  .A.B.\n", "  .A.B3\n");
        assert_msg(&msg, "line 17", "zones character '3' at row 1, column 4 is not a letter");
    }

    #[test]
    fn error_ragged_zones_row() {
        let msg = err_with("  .A.B.\n", "  .A.B..\n");
        assert_msg(&msg, "line 17", "zones row 1 has 6 characters, expected 5");
    }

    #[test]
    fn error_marker_off_map() {
        let msg = err_with("spot: [1, 2]", "spot: [1, 5]");
        assert_msg(&msg, "line 20", "marker \"spot\" at [1, 5] lies outside the 5x3 map");
    }

    #[test]
    fn error_marker_not_a_pair() {
        let msg = err_with("spot: [1, 2]", "spot: [1, 2, 3]");
        assert_msg(&msg, "line 20", "markers.spot");
    }

    #[test]
    fn error_zones_without_deployment() {
        let msg = err_with("deployment:\n  players: A\n  monsters: B\n", "");
        assert_msg(&msg, "line 15", "a zones layer requires a deployment section");
    }

    #[test]
    fn error_deployment_without_zones() {
        let msg = err_with("zones: |\n  .....\n  .A.B.\n  .....\n", "");
        assert_msg(&msg, "line 17", "deployment requires a zones layer");
    }

    #[test]
    fn error_empty_deployment() {
        let msg = err_with("deployment:\n  players: A\n  monsters: B\n", "deployment: {}\n");
        assert_msg(&msg, "line 21", "deployment is empty");
    }

    #[test]
    fn error_deployment_letter_absent_from_zones() {
        let msg = err_with("monsters: B", "monsters: C");
        assert_msg(&msg, "line 23", "side \"monsters\": zone letter C does not appear in the zones layer");
    }

    #[test]
    fn error_deployment_sides_share_letter() {
        let msg = err_with("monsters: B", "monsters: A");
        assert_msg(&msg, "line 23", "share zone letters");
    }

    #[test]
    fn error_deployment_letter_not_single() {
        let msg = err_with("monsters: B", "monsters: BB");
        assert_msg(&msg, "line 23", "zone letter must be a single letter");
    }

    #[test]
    fn error_duplicate_side() {
        let msg = err_with("monsters: B", "players: B");
        assert_msg(&msg, "line 23", "duplicate key \"players\"");
    }

    #[test]
    fn error_oversized_map() {
        let row = ".".repeat(MAX_SIDE + 1);
        let msg = err(&format!("terrain: \"{row}\"\n"));
        assert_msg(&msg, "line 1", &format!("at most {MAX_SIDE} squares per side"));
    }

    #[test]
    fn error_unreadable_file() {
        let e = Map::load(std::path::Path::new("/nonexistent/dir/m.yaml")).unwrap_err();
        assert_msg_file(&e.to_string(), "/nonexistent/dir/m.yaml: cannot read");
    }

    fn assert_msg_file(msg: &str, prefix: &str) {
        assert!(msg.starts_with(prefix), "{msg:?}");
    }

    #[test]
    fn hostile_inputs_never_panic() {
        let inputs = [
            "",
            "---\n---\n",
            "terrain: 5\n",
            "terrain: |\n  ab\n  a\n",
            "- a\n- b\n",
            "terrain: !!binary aGVsbG8=\n",
            "a: &a [*a]\n",
            "terrain: \"\\u0000\"\nlegend: {\"\\u0000\": {type: x}}\n",
            "terrain: \"é\"\nlegend: {\"é\": {type: x, move_cost: 1}}\nzones: \"A\"\ndeployment: {\"\": A}\n",
            "terrain: x\nlegend: {1: {type: x, move_cost: 99999999999999999999}}\n",
            "terrain: x\nlegend: {x: {type: x, move_cost: -3}}\n",
            "terrain: x\nmarkers: {m: [-1, 0]}\n",
        ];
        for text in inputs {
            if let Err(e) = Map::from_yaml_str(text, "f") {
                let msg = e.to_string();
                assert!(msg.starts_with("f: ") && !msg.contains('\n'), "{msg:?}");
            }
        }
    }
}
