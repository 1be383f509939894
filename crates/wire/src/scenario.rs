//! A scenario by content: the map and every combatant file as bytes, the
//! battle options, and the canonical hash that identifies it in cache keys.
//!
//! This is the one path from files to a battle: `pf1e sim`, the sweeps'
//! validation and every worker build their encounters with
//! [`Scenario::encounter`] and [`Scenario::prepare`]. Nothing here reads a
//! file: callers read the bytes (the CLI from disk, the coordinator from a
//! submitted bundle, a worker from the coordinator) and the engine parses
//! them. The map is parsed once per scenario; on the wire it travels parsed
//! too, so a worker (built without the `yaml` feature) never parses YAML.

use std::collections::BTreeMap;
use std::sync::{Arc, OnceLock};

use pf1e_engine::combat::{PrepareError, PreparedEncounter, SimOptions};
use pf1e_engine::encounter::{Encounter, EncounterError, SideSpec};
use pf1e_engine::library::Library;
use pf1e_engine::map::{Map, MapError};
use pf1e_engine::model::{Combatant, ModelError, parse_combatant};
use pf1e_engine::spell::{SpellBook, SpellError, parse_spell};

use crate::canon::{Canon, ContentHash, hex};
use crate::error::{HashMismatch, WireError};
use crate::proto;

/// One side of a scenario.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ScenarioSide {
    /// Side name.
    pub name: String,
    /// Zone letter the sweep file expects (checked against the map's
    /// deployment; not part of the hash nor of the wire form).
    pub zone: Option<char>,
    /// Combatant files in order, each with its origin name (messages only)
    /// and its JSON content; a file repeated is a second copy.
    pub combatants: Vec<(String, Vec<u8>)>,
}

/// The content hash of a scenario.
pub type ScenarioHash = ContentHash;

/// Everything an encounter is built from, by content.
#[derive(Debug, Clone)]
pub struct Scenario {
    /// Origin name of the map (messages only).
    pub map_name: String,
    /// Map YAML (what the hash covers).
    pub map_yaml: Vec<u8>,
    /// Sides, in the order they were given.
    pub sides: Vec<ScenarioSide>,
    /// Battle options.
    pub options: SimOptions,
    /// Spell files the combatants use (origin, JSON), sorted by origin:
    /// only those [`Scenario::with_library`] selected, so that editing a spell
    /// changes the hash of exactly the scenarios that cast it.
    pub spells: Vec<(String, Vec<u8>)>,
    /// Creature files the summoning spells may call (origin, JSON), sorted by origin.
    pub creatures: Vec<(String, Vec<u8>)>,
    /// Canonical content hash.
    pub hash: ScenarioHash,
    /// The map, once parsed (or received parsed).
    map: OnceLock<Arc<Map>>,
    /// The library, once parsed.
    library: OnceLock<Arc<Library>>,
}

/// Why a scenario cannot become an encounter. Every message names the file.
#[derive(Debug, thiserror::Error)]
pub enum ScenarioError {
    /// The engine refused the map (the message names the file and the place).
    #[error(transparent)]
    Map(#[from] MapError),
    /// The engine refused a combatant file (the message names the file and the JSON path).
    #[error("{source}")]
    Combatant {
        /// The combatant file.
        origin: String,
        /// The engine's refusal.
        source: ModelError,
    },
    /// The sweep file puts a side in another zone than the map does.
    #[error("side {side:?}: zone {zone} does not match the map {map}, which deploys it in zone {map_zone}")]
    Zone {
        /// The map file.
        map: String,
        /// The side.
        side: String,
        /// The zone the sweep file gives.
        zone: char,
        /// The zone of the map's deployment.
        map_zone: char,
    },
    /// The sides do not fit the map's deployment.
    #[error("map {map}: {source}")]
    Encounter {
        /// The map file.
        map: String,
        /// The engine's refusal.
        source: EncounterError,
    },
    /// The map came as YAML to a build that reads no YAML (a worker).
    #[error("{0}: this build reads no map YAML; the coordinator sends maps parsed")]
    UnparsedMap(String),
    /// A spell file of the library was refused.
    #[error("{source}")]
    Spell {
        /// The spell file.
        origin: String,
        /// The engine's refusal.
        source: SpellError,
    },
    /// A combatant cannot be prepared for battle (a formula does not parse, a spell is unknown).
    #[error("{origin}: {source}")]
    Prepare {
        /// The combatant's file, or the map's when the error names no combatant.
        origin: String,
        /// The engine's refusal.
        source: PrepareError,
    },
}

impl ScenarioError {
    /// The file the error is about.
    pub fn origin(&self) -> &str {
        match self {
            ScenarioError::Map(e) => match e {
                MapError::Io { file, .. }
                | MapError::Syntax { file, .. }
                | MapError::Invalid { file, .. } => file,
            },
            ScenarioError::Combatant { origin, .. }
            | ScenarioError::Spell { origin, .. }
            | ScenarioError::Prepare { origin, .. }
            | ScenarioError::UnparsedMap(origin) => origin,
            ScenarioError::Zone { map, .. } | ScenarioError::Encounter { map, .. } => map,
        }
    }

    /// The side the error is about, when it is about one.
    pub fn side(&self) -> Option<&str> {
        match self {
            ScenarioError::Zone { side, .. } => Some(side),
            ScenarioError::Encounter { source, .. } => match source {
                EncounterError::UnknownSide { side, .. }
                | EncounterError::MissingSide(side)
                | EncounterError::DuplicateSide(side)
                | EncounterError::EmptySide(side)
                | EncounterError::ZoneTooSmall { side, .. } => Some(side),
                EncounterError::NoDeployment => None,
            },
            _ => None,
        }
    }
}

/// An encounter ready to play: placed on its map, and prepared once (map
/// tables built, formulas parsed).
#[derive(Debug)]
pub struct Playable {
    /// The encounter, for reports and transcripts.
    pub encounter: Encounter,
    /// The same encounter prepared for the batch runners.
    pub prepared: PreparedEncounter,
}

impl Scenario {
    /// Builds a scenario and computes its hash.
    ///
    /// The hash covers the rules version, the map's bytes, every side's name
    /// and combatant bytes in order (sides sorted by name, so the order they
    /// were written in does not matter), and the options; never a path.
    pub fn new(map_name: String, map_yaml: Vec<u8>, sides: Vec<ScenarioSide>, options: SimOptions) -> Self {
        let hash = Self::content_hash(&map_yaml, &sides, &options, &[], &[]);
        Self {
            map_name,
            map_yaml,
            sides,
            options,
            spells: Vec::new(),
            creatures: Vec::new(),
            hash,
            map: OnceLock::new(),
            library: OnceLock::new(),
        }
    }

    /// The same scenario with the library its combatants need, chosen among
    /// `spells` and `creatures` (every file of the spell and creature
    /// directories, as (origin, JSON)): the spells its combatants cast and
    /// the spells and creature files those call (summons), transitively
    /// (`Library::needs`). Only the chosen files are kept, and hashed. A
    /// spell file that does not parse is an error naming it; a creature file
    /// is parsed only when chosen.
    pub fn with_library(
        mut self,
        spells: Vec<(String, Vec<u8>)>,
        creatures: Vec<(String, Vec<u8>)>,
    ) -> Result<Self, ScenarioError> {
        if spells.is_empty() && creatures.is_empty() {
            return Ok(self);
        }
        let stem = |origin: &str| {
            std::path::Path::new(origin).file_stem().and_then(|s| s.to_str()).unwrap_or(origin).to_string()
        };
        let mut book = SpellBook::default();
        let mut spell_files: BTreeMap<String, (String, Vec<u8>)> = BTreeMap::new();
        for (origin, json) in spells {
            let spell = parse_spell(&String::from_utf8_lossy(&json), &origin)
                .map_err(|source| ScenarioError::Spell { origin: origin.clone(), source })?;
            book.insert(&origin, spell)
                .map_err(|source| ScenarioError::Spell { origin: origin.clone(), source })?;
            spell_files.insert(stem(&origin), (origin, json));
        }
        let mut creature_files: BTreeMap<String, (String, Vec<u8>)> =
            creatures.into_iter().map(|(o, j)| (stem(&o), (o, j))).collect();
        let mut parsed: BTreeMap<String, Arc<Combatant>> = BTreeMap::new();
        // What the combatants cast; one that does not parse is reported by
        // `encounter`, where every combatant error is. Summoned creatures are
        // parsed as they are needed.
        let combatants: Vec<Combatant> = self
            .sides
            .iter()
            .flat_map(|side| &side.combatants)
            .filter_map(|(origin, json)| parse_combatant(&String::from_utf8_lossy(json), origin).ok())
            .collect();
        let mut needs;
        loop {
            let library = Library::new(book.clone(), parsed.clone());
            needs = library.needs(combatants.iter());
            let mut more = false;
            for id in &needs.creatures {
                if parsed.contains_key(id) {
                    continue;
                }
                if let Some((origin, json)) = creature_files.get(id) {
                    let c = parse_combatant(&String::from_utf8_lossy(json), origin)
                        .map_err(|source| ScenarioError::Combatant { origin: origin.clone(), source })?;
                    parsed.insert(id.clone(), Arc::new(c));
                    more = true;
                }
            }
            if !more {
                break;
            }
        }
        self.spells = needs.spells.iter().filter_map(|id| spell_files.remove(id)).collect();
        self.creatures = needs.creatures.iter().filter_map(|id| creature_files.remove(id)).collect();
        self.spells.sort();
        self.creatures.sort();
        self.hash =
            Self::content_hash(&self.map_yaml, &self.sides, &self.options, &self.spells, &self.creatures);
        self.library = OnceLock::new();
        Ok(self)
    }

    fn content_hash(
        map_yaml: &[u8],
        sides: &[ScenarioSide],
        options: &SimOptions,
        spells: &[(String, Vec<u8>)],
        creatures: &[(String, Vec<u8>)],
    ) -> ScenarioHash {
        let mut sorted: Vec<&ScenarioSide> = sides.iter().collect();
        sorted.sort_by(|a, b| a.name.cmp(&b.name));
        let mut c = Canon::new("pf1e-scenario-v1");
        c.bytes(pf1e_engine::RULES_VERSION.as_bytes()).bytes(map_yaml).u64(sorted.len() as u64);
        for s in sorted {
            c.bytes(s.name.as_bytes()).u64(s.combatants.len() as u64);
            for (_, json) in &s.combatants {
                c.bytes(json);
            }
        }
        c.u64(u64::from(options.round_cap)).u64(u64::from(options.simple_monster_death));
        // The library by file name (its identifier) and content; absent, the hash is that of before.
        if !spells.is_empty() || !creatures.is_empty() {
            for list in [spells, creatures] {
                c.u64(list.len() as u64);
                for (origin, json) in list {
                    let stem =
                        std::path::Path::new(origin).file_stem().and_then(|s| s.to_str()).unwrap_or(origin);
                    c.bytes(stem.as_bytes()).bytes(json);
                }
            }
        }
        c.finish()
    }

    /// The library of the scenario (its selected spell and creature files), parsed once.
    pub fn library(&self) -> Result<Arc<Library>, ScenarioError> {
        if let Some(lib) = self.library.get() {
            return Ok(Arc::clone(lib));
        }
        let mut book = SpellBook::default();
        for (origin, json) in &self.spells {
            let spell = parse_spell(&String::from_utf8_lossy(json), origin)
                .map_err(|source| ScenarioError::Spell { origin: origin.clone(), source })?;
            book.insert(origin, spell)
                .map_err(|source| ScenarioError::Spell { origin: origin.clone(), source })?;
        }
        let mut creatures = BTreeMap::new();
        for (origin, json) in &self.creatures {
            let c = parse_combatant(&String::from_utf8_lossy(json), origin)
                .map_err(|source| ScenarioError::Combatant { origin: origin.clone(), source })?;
            let id = std::path::Path::new(origin)
                .file_stem()
                .and_then(|s| s.to_str())
                .unwrap_or(origin)
                .to_string();
            creatures.insert(id, Arc::new(c));
        }
        let lib = Arc::new(Library::new(book, creatures));
        Ok(Arc::clone(self.library.get_or_init(|| lib)))
    }

    /// The map, parsed by the engine on first use.
    pub fn map(&self) -> Result<Arc<Map>, ScenarioError> {
        if let Some(map) = self.map.get() {
            return Ok(Arc::clone(map));
        }
        #[cfg(feature = "yaml")]
        {
            let map = Arc::new(Map::from_yaml_str(&String::from_utf8_lossy(&self.map_yaml), &self.map_name)?);
            Ok(Arc::clone(self.map.get_or_init(|| map)))
        }
        #[cfg(not(feature = "yaml"))]
        Err(ScenarioError::UnparsedMap(self.map_name.clone()))
    }

    /// The encounter at full hit points: the map and every combatant parsed
    /// by the engine (each distinct content once), each side on its zone.
    ///
    /// Errors come in the order a reader meets them: the map, then each
    /// side's zone and combatants in the order given, then the deployment.
    pub fn encounter(&self) -> Result<Encounter, ScenarioError> {
        let map = self.map()?;
        let mut parsed: BTreeMap<&[u8], Arc<Combatant>> = BTreeMap::new();
        let mut specs = Vec::with_capacity(self.sides.len());
        for side in &self.sides {
            if let Some(zone) = side.zone
                && let Some((_, map_zone)) = map.deployment.iter().find(|(s, _)| s == &side.name)
                && *map_zone != zone
            {
                return Err(ScenarioError::Zone {
                    map: self.map_name.clone(),
                    side: side.name.clone(),
                    zone,
                    map_zone: *map_zone,
                });
            }
            let mut combatants = Vec::with_capacity(side.combatants.len());
            for (origin, json) in &side.combatants {
                let spec = match parsed.get(json.as_slice()) {
                    Some(spec) => Arc::clone(spec),
                    None => {
                        let c = parse_combatant(&String::from_utf8_lossy(json), origin)
                            .map_err(|source| ScenarioError::Combatant { origin: origin.clone(), source })?;
                        let spec = Arc::new(c);
                        parsed.insert(json, Arc::clone(&spec));
                        spec
                    }
                };
                combatants.push(spec);
            }
            specs.push(SideSpec { name: side.name.clone(), combatants });
        }
        let library = self.library()?;
        Encounter::build(map, specs)
            .map(|e| e.with_library(library))
            .map_err(|source| ScenarioError::Encounter { map: self.map_name.clone(), source })
    }

    /// Prepares `encounter` (this scenario's, or one of its variants) for
    /// battle; an error names the file of the combatant at fault.
    pub fn prepare(&self, encounter: Encounter) -> Result<Playable, ScenarioError> {
        match PreparedEncounter::new(&encounter) {
            Ok(prepared) => Ok(Playable { encounter, prepared }),
            Err(source) => {
                let origin = self.file_of(&encounter, &source).unwrap_or(&self.map_name).to_string();
                Err(ScenarioError::Prepare { origin, source })
            }
        }
    }

    /// The file of the combatant a preparation error is about.
    fn file_of(&self, encounter: &Encounter, err: &PrepareError) -> Option<&str> {
        #[allow(unreachable_patterns)] // Later variants may not name a combatant.
        let id = match err {
            PrepareError::BadAttack { combatant, .. } | PrepareError::BadSpell { combatant, .. } => combatant,
            PrepareError::BadFeature { combatant, .. } | PrepareError::BadMount { combatant, .. } => {
                combatant
            }
            _ => return None,
        };
        let index = encounter.combatants.iter().position(|d| &d.id == id)?;
        let side_index = encounter.combatants[index].side;
        let side = encounter.sides.get(side_index)?;
        // Deployment keeps each side's combatants in the order their files were given.
        let rank = encounter.combatants[..index].iter().filter(|d| d.side == side_index).count();
        self.sides.iter().find(|s| &s.name == side)?.combatants.get(rank).map(|(origin, _)| origin.as_str())
    }
}

impl TryFrom<&Scenario> for proto::ScenarioBundle {
    type Error = ScenarioError;

    /// The wire form, with the map parsed (which fails only for a map that does not parse).
    fn try_from(s: &Scenario) -> Result<Self, Self::Error> {
        Ok(proto::ScenarioBundle {
            hash: hex(&s.hash),
            map_name: s.map_name.clone(),
            map_yaml: s.map_yaml.clone(),
            sides: s
                .sides
                .iter()
                .map(|side| proto::SideBundle {
                    name: side.name.clone(),
                    combatants: side
                        .combatants
                        .iter()
                        .map(|(n, j)| proto::CombatantFile { name: n.clone(), json: j.clone() })
                        .collect(),
                })
                .collect(),
            round_cap: s.options.round_cap,
            simple_monster_death: s.options.simple_monster_death,
            map: Some(proto::MapData::from(&*s.map()?)),
            spell_files: s
                .spells
                .iter()
                .map(|(n, j)| proto::CombatantFile { name: n.clone(), json: j.clone() })
                .collect(),
            creature_files: s
                .creatures
                .iter()
                .map(|(n, j)| proto::CombatantFile { name: n.clone(), json: j.clone() })
                .collect(),
        })
    }
}

impl TryFrom<&proto::ScenarioBundle> for Scenario {
    type Error = WireError;

    /// Rebuilds a scenario from its wire form; refuses content that does not
    /// match its hash, and a parsed map whose tables disagree.
    fn try_from(b: &proto::ScenarioBundle) -> Result<Self, Self::Error> {
        let map = Map::try_from(b.map.as_ref().ok_or(WireError::Missing("ScenarioBundle.map"))?)?;
        let sides = b
            .sides
            .iter()
            .map(|s| ScenarioSide {
                name: s.name.clone(),
                zone: None,
                combatants: s.combatants.iter().map(|c| (c.name.clone(), c.json.clone())).collect(),
            })
            .collect();
        let mut s = Scenario::new(
            b.map_name.clone(),
            b.map_yaml.clone(),
            sides,
            SimOptions { round_cap: b.round_cap, simple_monster_death: b.simple_monster_death },
        );
        // The library travels already chosen: kept as sent, its hash checked with the rest.
        s.spells = b.spell_files.iter().map(|f| (f.name.clone(), f.json.clone())).collect();
        s.creatures = b.creature_files.iter().map(|f| (f.name.clone(), f.json.clone())).collect();
        s.hash = Scenario::content_hash(&s.map_yaml, &s.sides, &s.options, &s.spells, &s.creatures);
        let actual = hex(&s.hash);
        if actual != b.hash {
            return Err(HashMismatch { claimed: b.hash.clone(), actual }.into());
        }
        let _ = s.map.set(Arc::new(map));
        Ok(s)
    }
}

#[cfg(all(test, feature = "yaml"))]
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
    fn hash_covers_content_not_paths_nor_side_order() {
        let s1 = scenario("MAP", "A");
        let mut s2 = scenario("MAP", "A");
        s2.map_name = "elsewhere.yaml".into();
        s2.sides.reverse();
        let s2 = Scenario::new(s2.map_name, s2.map_yaml, s2.sides, s2.options);
        assert_eq!(s1.sides[0].name, "b", "the sides keep the order they were given");
        assert_eq!(s1.hash, s2.hash);
        assert_ne!(s1.hash, scenario("MAP2", "A").hash);
        assert_ne!(s1.hash, scenario("MAP", "A2").hash);
        let capped = Scenario::new(
            "m.yaml".into(),
            b"MAP".to_vec(),
            s1.sides.clone(),
            SimOptions { round_cap: 7, ..SimOptions::default() },
        );
        assert_ne!(s1.hash, capped.hash);
    }

    #[test]
    fn wire_round_trip_carries_the_parsed_map_and_checks_the_hash() {
        let s = arena(vec![
            side("players", None, &[("g.json", "monsters/goblin.json")]),
            side("monsters", None, &[("o.json", "monsters/orc.json")]),
        ]);
        let p = proto::ScenarioBundle::try_from(&s).unwrap();
        let back = Scenario::try_from(&p).unwrap();
        assert_eq!(back.hash, s.hash);
        assert!(back.map.get().is_some(), "the map arrives parsed");
        assert_eq!(format!("{:?}", back.encounter().unwrap()), format!("{:?}", s.encounter().unwrap()));
        let mut bad = p.clone();
        bad.map_yaml = b"other".to_vec();
        let e = Scenario::try_from(&bad).unwrap_err();
        assert!(matches!(&e, WireError::Mismatch(m) if m.claimed == hex(&s.hash)), "{e}");
        let mut no_map = p;
        no_map.map = None;
        assert_eq!(Scenario::try_from(&no_map).unwrap_err(), WireError::Missing("ScenarioBundle.map"));
        let unparsable = scenario("name: [", "A");
        assert!(proto::ScenarioBundle::try_from(&unparsable).is_err());
    }

    fn data(p: &str) -> Vec<u8> {
        std::fs::read(std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../data").join(p)).unwrap()
    }

    fn arena(sides: Vec<ScenarioSide>) -> Scenario {
        Scenario::new("arena.yaml".into(), data("maps/sample_arena.yaml"), sides, SimOptions::default())
    }

    fn side(name: &str, zone: Option<char>, files: &[(&str, &str)]) -> ScenarioSide {
        ScenarioSide {
            name: name.into(),
            zone,
            combatants: files.iter().map(|(origin, path)| (origin.to_string(), data(path))).collect(),
        }
    }

    #[test]
    fn builds_the_encounter_in_deployment_order_with_unique_ids() {
        let s = arena(vec![
            side("monsters", None, &[("o.json", "monsters/orc.json")]),
            side(
                "players",
                Some('A'),
                &[("g.json", "monsters/goblin.json"), ("g.json", "monsters/goblin.json")],
            ),
        ]);
        let enc = s.encounter().unwrap();
        assert_eq!(enc.sides, ["players", "monsters"]);
        let ids: Vec<&str> = enc.combatants.iter().map(|d| d.id.as_str()).collect();
        assert_eq!(ids, ["goblin", "goblin-2", "orc"]);
        assert!(Arc::ptr_eq(&enc.combatants[0].spec, &enc.combatants[1].spec), "one parse per content");
        s.prepare(enc).unwrap();
    }

    #[test]
    fn a_roster_replaces_a_side_by_those_members_placed_afresh_with_the_library_kept() {
        use crate::variant::{HpFraction, SideVariant, VariantError, variant_encounter};
        let s = arena(vec![
            side("players", None, &[("g.json", "monsters/goblin.json")]),
            side(
                "monsters",
                None,
                &[
                    ("o.json", "monsters/orc.json"),
                    ("k.json", "monsters/kobold.json"),
                    ("s.json", "monsters/skeleton.json"),
                ],
            ),
        ]);
        let base = s.encounter().unwrap();
        let v = |roster: &[&str]| SideVariant {
            side: "monsters".into(),
            hp: HpFraction::FULL,
            aware: None,
            copies: vec![],
            removed: vec![],
            roster: roster.iter().map(|r| r.to_string()).collect(),
        };
        let enc = variant_encounter(&base, &[v(&["skeleton", "orc", "skeleton"])]).unwrap();
        let ids: Vec<&str> = enc.combatants.iter().map(|d| d.id.as_str()).collect();
        assert_eq!(ids, ["goblin", "skeleton", "orc", "skeleton-2"]);
        let first = base.combatants.iter().find(|d| d.side == 1).unwrap().pos;
        assert_eq!(enc.combatants[1].pos, first, "the roster's first member takes the zone's first square");
        assert!(Arc::ptr_eq(&enc.library, &base.library), "the rebuilt encounter keeps the library");
        s.prepare(enc).unwrap();
        let e = variant_encounter(&base, &[v(&["troll"])]).unwrap_err();
        assert!(matches!(e, VariantError::UnknownRoster { .. }), "{e}");
    }

    #[test]
    fn errors_name_the_file_and_the_side() {
        let bad_zone = arena(vec![
            side("players", Some('B'), &[("g.json", "monsters/goblin.json")]),
            side("monsters", None, &[("o.json", "monsters/orc.json")]),
        ]);
        let e = bad_zone.encounter().unwrap_err();
        assert!(matches!(e, ScenarioError::Zone { zone: 'B', map_zone: 'A', .. }), "{e}");
        assert_eq!((e.origin(), e.side()), ("arena.yaml", Some("players")));

        let missing = arena(vec![side("players", None, &[("g.json", "monsters/goblin.json")])]);
        let e = missing.encounter().unwrap_err();
        assert_eq!(e.side(), Some("monsters"));
        assert!(e.to_string().starts_with("map arena.yaml: missing side"), "{e}");

        let broken = arena(vec![
            ScenarioSide {
                name: "players".into(),
                zone: None,
                combatants: vec![("bad.json".into(), b"{".to_vec())],
            },
            side("monsters", None, &[("o.json", "monsters/orc.json")]),
        ]);
        let e = broken.encounter().unwrap_err();
        assert_eq!(e.origin(), "bad.json");
        assert!(e.to_string().starts_with("bad.json: "), "{e}");

        let no_map = Scenario::new("nomap.yaml".into(), b"name: [".to_vec(), vec![], SimOptions::default());
        assert_eq!(no_map.encounter().unwrap_err().origin(), "nomap.yaml");
    }
}

/// The directories a scenario's library is read from: `spells` and
/// `monsters` beside the directory of each combatant file
/// (`data/pcs/oni.json` → `data/spells`, `data/monsters`), as paths written
/// like the combatant paths, normalized lexically (`a/b/../c` → `a/c`) and
/// deduplicated in first-use order. Readers (the CLI from disk, a sweep
/// bundle) list and read them; [`Scenario::with_library`] keeps what is used.
pub fn library_dirs<'a>(combatant_files: impl IntoIterator<Item = &'a str>) -> (Vec<String>, Vec<String>) {
    let mut spells: Vec<String> = Vec::new();
    let mut creatures: Vec<String> = Vec::new();
    for file in combatant_files {
        let parent = match file.rfind(['/', '\\']) {
            Some(k) => &file[..k],
            None => ".",
        };
        for (list, leaf) in [(&mut spells, "spells"), (&mut creatures, "monsters")] {
            let dir = normalize(&format!("{parent}/../{leaf}"));
            if !list.contains(&dir) {
                list.push(dir);
            }
        }
    }
    (spells, creatures)
}

/// Removes `.` and `x/..` segments from a `/`-separated path, lexically.
fn normalize(path: &str) -> String {
    let absolute = path.starts_with('/');
    let mut out: Vec<&str> = Vec::new();
    for part in path.split(['/', '\\']) {
        match part {
            "" | "." => {}
            ".." if out.last().is_some_and(|p| *p != "..") => {
                out.pop();
            }
            other => out.push(other),
        }
    }
    let joined = out.join("/");
    match (absolute, joined.is_empty()) {
        (true, _) => format!("/{joined}"),
        (false, true) => ".".to_string(),
        (false, false) => joined,
    }
}

#[cfg(test)]
mod library_dir_tests {
    use super::*;

    #[test]
    fn the_library_is_beside_the_combatant_directories() {
        assert_eq!(normalize("a/b/../c/./d"), "a/c/d");
        assert_eq!(normalize("/x/../y"), "/y");
        let (spells, creatures) = library_dirs([
            "data/pcs/oni.json",
            "data/monsters/lich.json",
            "../monsters/orc.json",
            "orc.json",
        ]);
        assert_eq!(spells, ["data/spells", "../spells"]);
        assert_eq!(creatures, ["data/monsters", "../monsters"]);
    }
}
