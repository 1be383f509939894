//! Building an encounter: sides placed on the map's deployment zones.

use std::sync::Arc;

use crate::map::{Map, Pos};
use crate::model::Combatant;

/// One side as given by the user: a name and its combatants, in order.
#[derive(Clone, Debug)]
pub struct SideSpec {
    /// Side name; must match the map's `deployment`.
    pub name: String,
    /// Combatants, in the order given (a file repeated is a second copy).
    pub combatants: Vec<Arc<Combatant>>,
}

/// A combatant placed on the map.
#[derive(Clone, Debug)]
pub struct Deployed {
    /// Unique id (`goblin`, `goblin-2`…).
    pub id: String,
    /// Index into `Encounter::sides`.
    pub side: usize,
    /// Its statistics.
    pub spec: Arc<Combatant>,
    /// Starting square.
    pub pos: Pos,
    /// Hit points at the start of the battle (`hp_max` unless a scenario variant says otherwise).
    pub start_hp: i32,
    /// Whether it is aware of its foes at the start (the file's `aware` unless a variant overrides it).
    pub aware: bool,
}

/// A ready-to-play encounter: a map and every combatant placed on it.
#[derive(Clone, Debug)]
pub struct Encounter {
    /// The battlefield.
    pub map: Arc<Map>,
    /// Side names, in deployment order.
    pub sides: Vec<String>,
    /// Combatants in deployment order (side by side, each side in given order).
    pub combatants: Vec<Deployed>,
    /// The spells the combatants cast and the creatures their summons call.
    pub library: Arc<crate::library::Library>,
}

/// Why an encounter cannot be built.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum EncounterError {
    /// A side given by the user is not in the map's deployment.
    #[error("unknown side {side:?}: the map's deployment lists {known}")]
    UnknownSide {
        /// The side.
        side: String,
        /// The sides the map knows, comma-separated.
        known: String,
    },
    /// A side of the deployment was not given.
    #[error("missing side {0:?}: every side of the map's deployment must be given")]
    MissingSide(String),
    /// The same side was given twice.
    #[error("side {0:?} is given more than once")]
    DuplicateSide(String),
    /// A side has no combatant.
    #[error("side {0:?} has no combatant")]
    EmptySide(String),
    /// The map has no deployment section.
    #[error("the map has no deployment zones")]
    NoDeployment,
    /// A zone has fewer free squares than the side has combatants.
    #[error("zone {zone} of side {side:?} has {squares} free squares for {combatants} combatants")]
    ZoneTooSmall {
        /// Side name.
        side: String,
        /// Zone letter.
        zone: char,
        /// Usable squares in the zone.
        squares: usize,
        /// Combatants to place.
        combatants: usize,
    },
}

/// The id base of a combatant: its name, lower-cased, with runs of characters
/// other than letters and digits replaced by `_`.
pub fn id_base(name: &str) -> String {
    let mut out = String::new();
    let mut pending_sep = false;
    for ch in name.chars() {
        if ch.is_alphanumeric() {
            if pending_sep && !out.is_empty() {
                out.push('_');
            }
            pending_sep = false;
            out.extend(ch.to_lowercase());
        } else {
            pending_sep = true;
        }
    }
    if out.is_empty() { "combatant".to_string() } else { out }
}

impl Encounter {
    /// The same encounter with a library of spells and summonable creatures.
    pub fn with_library(mut self, library: Arc<crate::library::Library>) -> Self {
        self.library = library;
        self
    }

    /// The same encounter without combatant `index`: everyone else keeps
    /// its square, id and starting state (what "the fight without it"
    /// means). `None` when there is no such combatant or it is the last of
    /// its side.
    pub fn without(&self, index: usize) -> Option<Encounter> {
        let side = self.combatants.get(index)?.side;
        if self.combatants.iter().filter(|d| d.side == side).count() < 2 {
            return None;
        }
        let mut out = self.clone();
        out.combatants.remove(index);
        Some(out)
    }

    /// Places the sides on their deployment zones.
    ///
    /// Sides are deployed in the map's deployment order; each side fills the
    /// passable squares of its zone in (row, column) order; ids are made unique
    /// across the whole encounter in that order (`goblin`, `goblin-2`…).
    pub fn build(map: Arc<Map>, sides: Vec<SideSpec>) -> Result<Self, EncounterError> {
        if map.deployment.is_empty() {
            return Err(EncounterError::NoDeployment);
        }
        let known = map.deployment.iter().map(|(s, _)| s.as_str()).collect::<Vec<_>>().join(", ");
        for (i, side) in sides.iter().enumerate() {
            if !map.deployment.iter().any(|(s, _)| s == &side.name) {
                return Err(EncounterError::UnknownSide { side: side.name.clone(), known });
            }
            if sides[..i].iter().any(|s| s.name == side.name) {
                return Err(EncounterError::DuplicateSide(side.name.clone()));
            }
            if side.combatants.is_empty() {
                return Err(EncounterError::EmptySide(side.name.clone()));
            }
        }
        let mut names = Vec::new();
        let mut combatants = Vec::new();
        let mut used_ids: Vec<String> = Vec::new();
        // Squares taken by the sides already deployed (zones may overlap a large space).
        let mut taken: Vec<Pos> = Vec::new();
        for (side_index, (side_name, zone)) in map.deployment.iter().enumerate() {
            let Some(side) = sides.iter().find(|s| &s.name == side_name) else {
                return Err(EncounterError::MissingSide(side_name.clone()));
            };
            names.push(side_name.clone());
            let squares: Vec<Pos> = map.zone_cells(*zone).into_iter().filter(|&p| map.passable(p)).collect();
            if squares.len() < side.combatants.len() {
                return Err(EncounterError::ZoneTooSmall {
                    side: side_name.clone(),
                    zone: *zone,
                    squares: squares.len(),
                    combatants: side.combatants.len(),
                });
            }
            // Each combatant takes the first zone square (row-major) where its
            // whole space is passable and free; a Large creature's space may
            // overhang the zone.
            let mut used: Vec<Pos> = Vec::new();
            let mut anchors = Vec::with_capacity(side.combatants.len());
            for spec in &side.combatants {
                let s = crate::grid::space_squares(spec.size);
                let fits = |&&p: &&Pos| {
                    crate::grid::footprint(p, s)
                        .all(|c| map.passable(c) && !used.contains(&c) && !taken.contains(&c))
                };
                let Some(&pos) = squares.iter().find(fits) else {
                    return Err(EncounterError::ZoneTooSmall {
                        side: side_name.clone(),
                        zone: *zone,
                        squares: squares.len(),
                        combatants: side.combatants.len(),
                    });
                };
                used.extend(crate::grid::footprint(pos, s));
                anchors.push(pos);
            }
            taken.extend(used);
            for (spec, &pos) in side.combatants.iter().zip(&anchors) {
                let base = id_base(&spec.name);
                let mut id = base.clone();
                let mut n = 1;
                while used_ids.contains(&id) {
                    n += 1;
                    id = format!("{base}-{n}");
                }
                used_ids.push(id.clone());
                combatants.push(Deployed {
                    id,
                    side: side_index,
                    start_hp: spec.hp_max,
                    aware: spec.aware,
                    spec: Arc::clone(spec),
                    pos,
                });
            }
        }
        Ok(Self { map, sides: names, combatants, library: Arc::default() })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn id_base_slugs_names() {
        assert_eq!(id_base("Goblin"), "goblin");
        assert_eq!(id_base("Orc Warrior"), "orc_warrior");
        assert_eq!(id_base("  "), "combatant");
        assert_eq!(id_base("Élan d'Or"), "élan_d_or");
    }
}
