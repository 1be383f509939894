//! A resolved scenario: the map and every combatant by content, its canonical
//! hash, and how a scenario variant becomes a ready-to-play encounter.

use std::sync::Arc;

use pf1e_engine::combat::SimOptions;
use pf1e_engine::encounter::{Encounter, EncounterError, SideSpec};
use pf1e_engine::map::Map;

use crate::proto;
use crate::sweep::HpFraction;

/// One side of a scenario.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ScenarioSide {
    /// Side name.
    pub name: String,
    /// Zone letter the sweep file expects (checked against the map's deployment).
    pub zone: Option<char>,
    /// Combatant files: origin name and JSON content, in order.
    pub combatants: Vec<(String, Vec<u8>)>,
}

/// The content hash of a scenario.
pub type ScenarioHash = [u8; 32];

/// Everything an encounter is built from, by content.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Scenario {
    /// Origin name of the map (messages only).
    pub map_name: String,
    /// Map YAML.
    pub map_yaml: Vec<u8>,
    /// Sides sorted by name.
    pub sides: Vec<ScenarioSide>,
    /// Battle options.
    pub options: SimOptions,
    /// Canonical content hash.
    pub hash: ScenarioHash,
}

/// Why a scenario cannot become an encounter.
#[derive(Debug, Clone, thiserror::Error)]
pub enum ScenarioError {
    /// The map or a combatant file is refused by the engine (the message names it).
    #[error("{message}")]
    File {
        /// The offending file.
        origin: String,
        /// The engine's message (names the file and the place).
        message: String,
    },
    /// The sides do not fit the map.
    #[error("{message}")]
    Encounter {
        /// The map file.
        origin: String,
        /// The side concerned, when one is.
        side: Option<String>,
        /// What is wrong.
        message: String,
    },
}

impl ScenarioError {
    /// The file the error is about.
    pub fn origin(&self) -> &str {
        match self {
            ScenarioError::File { origin, .. } | ScenarioError::Encounter { origin, .. } => origin,
        }
    }
}

/// Length-prefixed canonical writer for content hashes.
pub(crate) struct Canon(blake3::Hasher);

impl Canon {
    pub(crate) fn new(domain: &str) -> Self {
        let mut c = Canon(blake3::Hasher::new());
        c.bytes(domain.as_bytes());
        c
    }
    pub(crate) fn bytes(&mut self, b: &[u8]) -> &mut Self {
        self.0.update(&(b.len() as u64).to_le_bytes());
        self.0.update(b);
        self
    }
    pub(crate) fn u64(&mut self, v: u64) -> &mut Self {
        self.0.update(&v.to_le_bytes());
        self
    }
    pub(crate) fn finish(&self) -> [u8; 32] {
        *self.0.finalize().as_bytes()
    }
}

/// Lower-case hex of a hash.
pub fn hex(h: &[u8]) -> String {
    h.iter().map(|b| format!("{b:02x}")).collect()
}

impl Scenario {
    /// Builds a scenario and computes its hash.
    ///
    /// The hash covers the rules version, the map's bytes, every side's name
    /// and combatant bytes in order, and the options; never a path.
    pub fn new(
        map_name: String,
        map_yaml: Vec<u8>,
        mut sides: Vec<ScenarioSide>,
        options: SimOptions,
    ) -> Self {
        sides.sort_by(|a, b| a.name.cmp(&b.name));
        let mut c = Canon::new("pf1e-scenario-v1");
        c.bytes(pf1e_engine::RULES_VERSION.as_bytes()).bytes(&map_yaml).u64(sides.len() as u64);
        for s in &sides {
            c.bytes(s.name.as_bytes()).u64(s.combatants.len() as u64);
            for (_, json) in &s.combatants {
                c.bytes(json);
            }
        }
        c.u64(u64::from(options.round_cap)).u64(u64::from(options.simple_monster_death));
        let hash = c.finish();
        Self { map_name, map_yaml, sides, options, hash }
    }

    /// The wire form sent to workers.
    pub fn to_proto(&self) -> proto::ScenarioBundle {
        proto::ScenarioBundle {
            hash: hex(&self.hash),
            map_name: self.map_name.clone(),
            map_yaml: self.map_yaml.clone(),
            sides: self
                .sides
                .iter()
                .map(|s| proto::SideBundle {
                    name: s.name.clone(),
                    combatants: s
                        .combatants
                        .iter()
                        .map(|(n, j)| proto::CombatantFile { name: n.clone(), json: j.clone() })
                        .collect(),
                })
                .collect(),
            round_cap: self.options.round_cap,
            simple_monster_death: self.options.simple_monster_death,
        }
    }

    /// Rebuilds a scenario from its wire form; `None` when the content does not match its hash.
    pub fn from_proto(b: &proto::ScenarioBundle) -> Option<Self> {
        let sides = b
            .sides
            .iter()
            .map(|s| ScenarioSide {
                name: s.name.clone(),
                zone: None,
                combatants: s.combatants.iter().map(|c| (c.name.clone(), c.json.clone())).collect(),
            })
            .collect();
        let s = Scenario::new(
            b.map_name.clone(),
            b.map_yaml.clone(),
            sides,
            SimOptions { round_cap: b.round_cap, simple_monster_death: b.simple_monster_death },
        );
        (hex(&s.hash) == b.hash).then_some(s)
    }

    /// Builds the encounter at full HP with the engine's loaders.
    pub fn base_encounter(&self) -> Result<Encounter, ScenarioError> {
        let text = String::from_utf8_lossy(&self.map_yaml);
        let map = Map::from_yaml_str(&text, &self.map_name)
            .map_err(|e| ScenarioError::File { origin: self.map_name.clone(), message: e.to_string() })?;
        let mut specs = Vec::new();
        for side in &self.sides {
            if let Some(zone) = side.zone {
                match map.deployment.iter().find(|(s, _)| s == &side.name) {
                    Some((_, z)) if *z != zone => {
                        return Err(ScenarioError::Encounter {
                            origin: self.map_name.clone(),
                            side: Some(side.name.clone()),
                            message: format!(
                                "side {:?}: zone {zone} does not match the map {}, which deploys it in zone {z}",
                                side.name, self.map_name
                            ),
                        });
                    }
                    _ => {}
                }
            }
            let mut combatants = Vec::new();
            for (name, json) in &side.combatants {
                let text = String::from_utf8_lossy(json);
                let c = pf1e_engine::model::parse_combatant(&text, name)
                    .map_err(|e| ScenarioError::File { origin: name.clone(), message: e.to_string() })?;
                combatants.push(Arc::new(c));
            }
            specs.push(SideSpec { name: side.name.clone(), combatants });
        }
        Encounter::build(Arc::new(map), specs).map_err(|e| {
            let side = match &e {
                EncounterError::UnknownSide { side, .. }
                | EncounterError::MissingSide(side)
                | EncounterError::DuplicateSide(side)
                | EncounterError::EmptySide(side)
                | EncounterError::ZoneTooSmall { side, .. } => Some(side.clone()),
                EncounterError::NoDeployment => None,
            };
            ScenarioError::Encounter {
                origin: self.map_name.clone(),
                side,
                message: format!("map {}: {e}", self.map_name),
            }
        })
    }
}

/// Applies a variant: a side with HP fraction `f` starts each member at
/// `max(1, ceil(hp_max * f))` hit points. Sides not listed keep full HP.
pub fn apply_variant(encounter: &mut Encounter, variant: &[proto::SideVariant]) {
    for d in &mut encounter.combatants {
        let side = &encounter.sides[d.side];
        if let Some(v) = variant.iter().find(|v| &v.side == side) {
            d.start_hp = HpFraction(v.hp_ppm).start_hp(d.spec.hp_max);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scenario(map: &str, a: &str) -> Scenario {
        Scenario::new(
            "m.yaml".into(),
            map.into(),
            vec![
                ScenarioSide {
                    name: "b".into(),
                    zone: None,
                    combatants: vec![("x.json".into(), b"B".to_vec())],
                },
                ScenarioSide {
                    name: "a".into(),
                    zone: Some('A'),
                    combatants: vec![("y.json".into(), a.into())],
                },
            ],
            SimOptions::default(),
        )
    }

    #[test]
    fn hash_covers_content_not_paths() {
        let s1 = scenario("MAP", "A");
        let mut s2 = scenario("MAP", "A");
        s2.map_name = "elsewhere.yaml".into();
        assert_eq!(
            s1.hash,
            Scenario::new(s2.map_name.clone(), s2.map_yaml.clone(), s2.sides.clone(), s2.options.clone())
                .hash
        );
        assert_ne!(s1.hash, scenario("MAP2", "A").hash);
        assert_ne!(s1.hash, scenario("MAP", "A2").hash);
        assert_eq!(s1.sides[0].name, "a");
    }

    #[test]
    fn proto_round_trip_checks_the_hash() {
        let s = scenario("MAP", "A");
        let p = s.to_proto();
        let back = Scenario::from_proto(&p).unwrap();
        assert_eq!(back.hash, s.hash);
        let mut bad = p.clone();
        bad.map_yaml = b"other".to_vec();
        assert!(Scenario::from_proto(&bad).is_none());
    }
}
