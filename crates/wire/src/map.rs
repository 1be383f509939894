//! A parsed map on the wire: the coordinator sends maps parsed, so a worker
//! plays them without a YAML parser. Decoding checks that the tables agree
//! (sizes, legend indices, zones, markers), so a bad message is an error,
//! never a panic in the engine.

use pf1e_engine::map::{MAX_MOVE_COST, MAX_SIDE, Map, Pos, Terrain};

use crate::error::WireError;
use crate::proto;

impl From<&Map> for proto::MapData {
    fn from(m: &Map) -> Self {
        proto::MapData {
            name: m.name.clone(),
            square_size_ft: m.square_size_ft,
            width: m.width.max(0) as u32,
            height: m.height.max(0) as u32,
            legend: m
                .legend
                .iter()
                .map(|(symbol, t)| proto::TerrainData {
                    symbol: u32::from(*symbol),
                    kind: t.kind.clone(),
                    move_cost: t.move_cost,
                    blocks_los: t.blocks_los,
                    cover_bonus: u32::from(t.cover_bonus),
                })
                .collect(),
            cells: m.cells.iter().map(|&c| u32::from(c)).collect(),
            elevation: m.elevation.clone(),
            zones: m.zones.iter().map(|z| z.map_or(0, u32::from)).collect(),
            markers: m
                .markers
                .iter()
                .map(|(name, p)| (name.clone(), proto::Square { row: p.row, col: p.col }))
                .collect(),
            deployment: m
                .deployment
                .iter()
                .map(|(side, zone)| proto::Deployment { side: side.clone(), zone: u32::from(*zone) })
                .collect(),
            exits: m.exits.iter().flatten().map(|p| proto::Square { row: p.row, col: p.col }).collect(),
            exits_declared: m.exits.is_some(),
        }
    }
}

fn letter(code: u32, field: &'static str) -> Result<char, WireError> {
    char::from_u32(code).ok_or_else(|| WireError::invalid(field, format!("{code} is not a character")))
}

impl TryFrom<&proto::MapData> for Map {
    type Error = WireError;

    fn try_from(m: &proto::MapData) -> Result<Self, Self::Error> {
        let side = |v: u32, field| match usize::try_from(v) {
            Ok(n) if (1..=MAX_SIDE).contains(&n) => Ok(n),
            _ => Err(WireError::invalid(field, format!("{v} is outside 1..={MAX_SIDE}"))),
        };
        let (w, h) = (side(m.width, "MapData.width")?, side(m.height, "MapData.height")?);
        let squares = w * h;
        let legend = m
            .legend
            .iter()
            .map(|t| {
                let cover = u8::try_from(t.cover_bonus).ok().filter(|c| [0, 2, 4, 8].contains(c));
                let cover = cover.ok_or_else(|| {
                    WireError::invalid(
                        "MapData.legend.cover_bonus",
                        format!("{} is not 0, 2, 4 or 8", t.cover_bonus),
                    )
                })?;
                if t.move_cost.is_some_and(|c| c == 0 || c > MAX_MOVE_COST) {
                    return Err(WireError::invalid("MapData.legend.move_cost", "outside 1..=255"));
                }
                Ok((
                    letter(t.symbol, "MapData.legend.symbol")?,
                    Terrain {
                        kind: t.kind.clone(),
                        move_cost: t.move_cost,
                        blocks_los: t.blocks_los,
                        cover_bonus: cover,
                    },
                ))
            })
            .collect::<Result<Vec<_>, _>>()?;
        if m.cells.len() != squares || m.elevation.len() != squares || m.zones.len() != squares {
            return Err(WireError::invalid(
                "MapData.cells",
                format!("the layers do not all have {w} × {h} squares"),
            ));
        }
        let cells =
            m.cells
                .iter()
                .map(|&c| {
                    u16::try_from(c).ok().filter(|&c| usize::from(c) < legend.len()).ok_or_else(|| {
                        WireError::invalid("MapData.cells", format!("{c} is not a legend index"))
                    })
                })
                .collect::<Result<Vec<_>, _>>()?;
        let zones = m
            .zones
            .iter()
            .map(|&z| if z == 0 { Ok(None) } else { letter(z, "MapData.zones").map(Some) })
            .collect::<Result<Vec<_>, _>>()?;
        let (width, height) = (w as i32, h as i32);
        let markers = m
            .markers
            .iter()
            .map(|(name, p)| {
                let pos = Pos::new(p.row, p.col);
                if (0..height).contains(&pos.row) && (0..width).contains(&pos.col) {
                    Ok((name.clone(), pos))
                } else {
                    Err(WireError::invalid("MapData.markers", format!("{name} {pos} is off the map")))
                }
            })
            .collect::<Result<_, _>>()?;
        let deployment = m
            .deployment
            .iter()
            .map(|d| Ok((d.side.clone(), letter(d.zone, "MapData.deployment.zone")?)))
            .collect::<Result<Vec<_>, WireError>>()?;
        let exits = m
            .exits
            .iter()
            .map(|p| {
                let pos = Pos::new(p.row, p.col);
                if (0..height).contains(&pos.row) && (0..width).contains(&pos.col) {
                    Ok(pos)
                } else {
                    Err(WireError::invalid("MapData.exits", format!("{pos} is off the map")))
                }
            })
            .collect::<Result<Vec<_>, _>>()?;
        if !m.exits_declared && !exits.is_empty() {
            return Err(WireError::invalid("MapData.exits", "exits listed but not declared"));
        }
        Ok(Map {
            name: m.name.clone(),
            square_size_ft: m.square_size_ft,
            width,
            height,
            legend,
            cells,
            elevation: m.elevation.clone(),
            zones,
            markers,
            deployment,
            exits: m.exits_declared.then_some(exits),
        })
    }
}

#[cfg(all(test, feature = "yaml"))]
mod tests {
    use super::*;

    fn arena() -> Map {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../data/maps/sample_arena.yaml");
        Map::load(&path).unwrap()
    }

    #[test]
    fn a_map_survives_the_wire_whole() {
        let map = arena();
        let back = Map::try_from(&proto::MapData::from(&map)).unwrap();
        assert_eq!(format!("{back:?}"), format!("{map:?}"));
    }

    #[test]
    fn inconsistent_tables_are_refused() {
        let good = proto::MapData::from(&arena());
        let mut short = good.clone();
        short.cells.pop();
        assert!(Map::try_from(&short).is_err());
        let mut stray = good.clone();
        stray.cells[0] = 999;
        assert!(Map::try_from(&stray).is_err());
        let mut off = good.clone();
        off.markers.insert("far".into(), proto::Square { row: -1, col: 0 });
        assert!(Map::try_from(&off).is_err());
        let mut huge = good.clone();
        huge.width = 100_000;
        assert!(Map::try_from(&huge).is_err());
        let mut exit_off = good;
        exit_off.exits_declared = true;
        exit_off.exits.push(proto::Square { row: 0, col: 99 });
        assert!(Map::try_from(&exit_off).is_err());
    }

    #[test]
    fn declared_exits_survive_the_wire_and_an_old_map_has_the_border() {
        let mut map = arena();
        assert_eq!(Map::try_from(&proto::MapData::from(&map)).unwrap().exits, None);
        map.exits = Some(vec![Pos::new(1, 1), Pos::new(6, 18)]);
        let back = Map::try_from(&proto::MapData::from(&map)).unwrap();
        assert_eq!(back.exits, map.exits);
        map.exits = Some(Vec::new());
        assert_eq!(Map::try_from(&proto::MapData::from(&map)).unwrap().exits, Some(Vec::new()));
    }
}
