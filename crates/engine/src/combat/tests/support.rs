//! Builders for combat tests: maps from ASCII rows, combatants from JSON
//! overrides, encounters with explicit squares, and scripted policies.

use std::sync::Arc;

use serde_json::{Value, json};

use crate::combat::SimOptions;
use crate::combat::action::Action;
use crate::combat::decide::Policy;
use crate::combat::engine::Engine;
use crate::combat::event::{Record, Transcript};
use crate::combat::prepared::PreparedEncounter;
use crate::combat::state::BattleState;
use crate::encounter::{Deployed, Encounter, id_base};
use crate::map::{Map, Pos};
use crate::model::{Combatant, parse_combatant};
use crate::rng::ScriptedRng;

/// Legend shared by test maps: `#` wall, `.` floor, `T` difficult, `C` pillar
/// (impassable, cover, no LoE block), `W` low ruin (impassable, partial cover).
const LEGEND: &str = r##"legend:
  "#": { type: wall, move_cost: null, blocks_los: true }
  ".": { type: floor, move_cost: 1 }
  "T": { type: rubble, move_cost: 2 }
  "C": { type: pillar, move_cost: null, cover: true }
  "W": { type: ruin, move_cost: null, cover_bonus: 2 }
"##;

fn block(rows: &[&str]) -> String {
    rows.iter().map(|r| format!("  {r}\n")).collect()
}

/// A map from terrain rows (and optional elevation rows).
pub fn map_with(rows: &[&str], elevation: Option<&[&str]>) -> Arc<Map> {
    let mut yaml = format!("name: test\nterrain: |\n{}{LEGEND}", block(rows));
    if let Some(e) = elevation {
        yaml.push_str(&format!("elevation: |\n{}", block(e)));
    }
    Arc::new(Map::from_yaml_str(&yaml, "test-map").expect("test map"))
}

/// A map from terrain rows.
pub fn map(rows: &[&str]) -> Arc<Map> {
    map_with(rows, None)
}

/// An open `rows` x `cols` floor surrounded by walls.
pub fn arena(rows: usize, cols: usize) -> Arc<Map> {
    let wall = "#".repeat(cols + 2);
    let inner = format!("#{}#", ".".repeat(cols));
    let mut lines = vec![wall.clone()];
    lines.extend(std::iter::repeat_n(inner, rows));
    lines.push(wall);
    let refs: Vec<&str> = lines.iter().map(String::as_str).collect();
    map(&refs)
}

/// A melee attack entry.
pub fn melee(name: &str, bonus: i32, formula: &str) -> Value {
    json!({ "name": name, "kind": "melee", "attack_bonus": bonus,
            "damage": [{ "formula": formula, "types": ["slashing"] }] })
}

/// A ranged attack entry.
pub fn ranged(name: &str, bonus: i32, formula: &str, increment: u32) -> Value {
    json!({ "name": name, "kind": "ranged", "attack_bonus": bonus, "range_increment_ft": increment,
            "damage": [{ "formula": formula, "types": ["piercing"] }] })
}

/// A validated combatant: a plain Medium humanoid (hp 10, AC 10, Con 12,
/// speed 30, BAB +1, one sword +0 1d6) with the top-level fields of
/// `overrides` replaced.
pub fn creature(name: &str, overrides: Value) -> Combatant {
    let mut base = json!({
        "name": name,
        "abilities": { "str_score": 10, "dex_score": 10, "con_score": 12,
                       "int_score": 10, "wis_score": 10, "cha_score": 10 },
        "hp_max": 10,
        "ac": { "total": 10, "touch": 10, "flat_footed": 10 },
        "bab": 1,
        "initiative_mod": 0,
        "speed_land_ft": 30,
        "saves": { "fort": 0, "ref": 0, "will": 0 },
        "attacks": [melee("sword", 0, "1d6")]
    });
    let (Value::Object(b), Value::Object(o)) = (&mut base, overrides) else { panic!("objects expected") };
    b.extend(o);
    parse_combatant(&base.to_string(), name).expect("valid test combatant")
}

/// A loaded data file (`data/monsters/goblin.json`…).
pub fn data_combatant(rel: &str) -> Combatant {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../..").join(rel);
    crate::model::load_combatant(&path).expect("shipped combatant")
}

/// An encounter with explicit squares: `(side name, combatant, square)`;
/// sides are numbered in order of first appearance, ids made unique as
/// `Encounter::build` does.
pub fn encounter(map: Arc<Map>, placed: Vec<(&str, Combatant, Pos)>) -> Encounter {
    let mut sides: Vec<String> = Vec::new();
    let mut combatants: Vec<Deployed> = Vec::new();
    for (side, c, pos) in placed {
        let s = sides.iter().position(|n| n == side).unwrap_or_else(|| {
            sides.push(side.to_string());
            sides.len() - 1
        });
        let base = id_base(&c.name);
        let mut id = base.clone();
        let mut n = 1;
        while combatants.iter().any(|d| d.id == id) {
            n += 1;
            id = format!("{base}-{n}");
        }
        combatants.push(Deployed { id, side: s, start_hp: c.hp_max, aware: c.aware, spec: Arc::new(c), pos });
    }
    Encounter { map, sides, combatants, library: Arc::default() }
}

/// Prepares an encounter.
pub fn prepare(map: Arc<Map>, placed: Vec<(&str, Combatant, Pos)>) -> PreparedEncounter {
    PreparedEncounter::new(&encounter(map, placed)).expect("prepared")
}

/// A policy that plays the given actions every turn.
pub fn script(actions: Vec<Action>) -> impl Policy {
    move |_: &BattleState<'_>, _: usize, out: &mut Vec<Action>| out.extend_from_slice(&actions)
}

/// Scripted dice and a transcript for one engine.
pub struct Bench {
    pub rng: ScriptedRng,
    pub events: Vec<Record>,
    /// The ids and side names of the last encounter given to `engine`.
    names: (Vec<String>, Vec<String>),
}

/// The English lines of `events` of a battle on `prep` (the test formatter).
pub fn english(prep: &PreparedEncounter, events: &[Record]) -> Vec<String> {
    let t = Transcript::for_encounter(prep);
    let ids: Vec<String> = t.combatants.into_iter().map(|c| c.id).collect();
    crate::combat::event_text::lines(&ids, &t.sides, events)
}

impl Bench {
    /// Dice that will return `faces` in order.
    pub fn new(faces: &[u32]) -> Self {
        Self { rng: ScriptedRng::new(faces.to_vec()), events: Vec::new(), names: Default::default() }
    }

    /// The transcript so far as English lines (the test formatter).
    pub fn lines(&self) -> Vec<String> {
        crate::combat::event_text::lines(&self.names.0, &self.names.1, &self.events)
    }

    /// An engine on `prep` in round 1 (initiative in encounter order).
    pub fn engine<'a, 'p>(
        &'a mut self,
        prep: &'p PreparedEncounter,
        options: &SimOptions,
    ) -> Engine<'a, 'p, ScriptedRng> {
        let t = Transcript::for_encounter(prep);
        self.names = (t.combatants.into_iter().map(|c| c.id).collect(), t.sides);
        let mut e = Engine::new(prep, options, &mut self.rng, Some(&mut self.events));
        e.start_round();
        e
    }
}

/// Plays one turn of `i` with a scripted list of actions.
pub fn turn(e: &mut Engine<'_, '_, ScriptedRng>, i: usize, actions: Vec<Action>) {
    e.take_turn(i, &mut script(actions));
}

/// Places combatant `i` on `p` and sets its hit points.
pub fn set(e: &mut Engine<'_, '_, ScriptedRng>, i: usize, p: Pos, hp: i32) {
    e.st.relocate(i, p);
    e.st.fighters[i].hp = hp;
}

/// Shorthand for a square.
pub const fn at(row: i32, col: i32) -> Pos {
    Pos::new(row, col)
}

/// The shipped spells and summonable creatures (`data/spells`, `data/monsters`).
pub fn library() -> Arc<crate::library::Library> {
    static LIBRARY: std::sync::OnceLock<Arc<crate::library::Library>> = std::sync::OnceLock::new();
    LIBRARY
        .get_or_init(|| {
            let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../data");
            Arc::new(
                crate::library::load_library(&root.join("spells"), &root.join("monsters"))
                    .expect("shipped library"),
            )
        })
        .clone()
}

/// Prepares an encounter with the shipped library.
pub fn prepare_magic(map: Arc<Map>, placed: Vec<(&str, Combatant, Pos)>) -> PreparedEncounter {
    PreparedEncounter::new(&encounter(map, placed).with_library(library())).expect("prepared")
}

/// A caster: `creature` with these spells, Wisdom 16 (+3), caster level 5, and slots.
pub fn caster(name: &str, spells: &[&str], overrides: Value) -> Combatant {
    let mut base = json!({
        "level": 5,
        "bab": 3,
        "abilities": { "str_score": 10, "dex_score": 10, "con_score": 12,
                       "int_score": 10, "wis_score": 16, "cha_score": 10 },
        "casting_ability": "wis",
        "spell_slots": { "1": 5, "2": 5, "3": 5, "4": 5, "5": 5, "6": 5 },
        "spells": spells,
    });
    let (Value::Object(b), Value::Object(o)) = (&mut base, overrides) else { panic!("objects expected") };
    b.extend(o);
    creature(name, base)
}

/// An engine on `prep` in its first round (its dice from `rng`), recording
/// into `events` when given.
pub fn started<'a, 'p>(
    prep: &'p PreparedEncounter,
    rng: &'a mut crate::rng::SeededRng,
    events: Option<&'a mut Vec<Record>>,
) -> Engine<'a, 'p, crate::rng::SeededRng> {
    let mut e = Engine::new(prep, &SimOptions::default(), rng, events);
    e.start_round();
    e
}

/// What the default policy has combatant 0 do on its first turn, before
/// anything happened (the engine's dice from stream `stream`).
pub fn opening_plan(prep: &PreparedEncounter, stream: u64) -> Vec<Action> {
    let mut out = Vec::new();
    let mut rng = crate::rng::SeededRng::for_run(stream, 0);
    let e = Engine::new(prep, &SimOptions::default(), &mut rng, None);
    crate::combat::policy::DefaultPolicy.plan(&e.st, 0, &mut out);
    out
}

/// The events of run `seed` of stream `stream` on `prep`, every side on the default policy.
pub fn policy_battle(prep: &PreparedEncounter, stream: u64, seed: u64) -> Vec<Record> {
    let mut rng = crate::rng::SeededRng::for_run(stream, seed);
    let mut events = Vec::new();
    crate::combat::run_prepared(
        prep,
        &SimOptions::default(),
        &mut rng,
        Some(&mut events),
        &mut crate::combat::policy::DefaultPolicy,
    );
    events
}

/// The policy of a fight about a lone monster's own play: the party (side
/// 0) keeps its control areas for groups (`area_min=3`: a control area on
/// two foes at least), so no Web or Glitterdust on the lone monster takes
/// its turns away; the monster plays the default policy.
pub fn party_spares_control(encounter: &crate::encounter::Encounter) -> crate::combat::policy::MatchupPolicy {
    let party = crate::strategy::StrategySpec::parse("area_min=3").expect("a valid spec");
    crate::combat::policy::MatchupPolicy::new(encounter, 0, &party, &crate::strategy::StrategySpec::default())
}

/// Run `run` (seed `seed`) of `encounter` under [`party_spares_control`]: its transcript.
pub fn spared_transcript(encounter: &Encounter, seed: u64, run: u64) -> Transcript {
    let mut policy = party_spares_control(encounter);
    crate::runner::run_with_transcript_policy(encounter, &SimOptions::default(), seed, run, &mut policy).1
}

/// The campaign's level-4 party (Esha, Harvie, Oni, Nairda) against the
/// shipped monster `data/monsters/<monster>.json` on the field map, as
/// `pf1e sim` deploys them.
pub fn party_on_field(monster: &str) -> Encounter {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../data");
    let map = Arc::new(crate::map::Map::load(&root.join("maps/field.yaml")).expect("field map"));
    let load = |rel: &str| Arc::new(data_combatant(&format!("data/{rel}.json")));
    let party = ["esha", "harvie", "oni", "nairda"].iter().map(|p| load(&format!("pcs/{p}"))).collect();
    Encounter::build(
        map,
        vec![
            crate::encounter::SideSpec { name: "players".into(), combatants: party },
            crate::encounter::SideSpec {
                name: "monsters".into(),
                combatants: vec![load(&format!("monsters/{monster}"))],
            },
        ],
    )
    .expect("encounter")
    .with_library(library())
}

/// A level-4 chaotic evil ogre with a club (60 hp, AC 14, +6 for 1d8+4),
/// with `overrides` merged in: the bomber's and the drinker's foe.
pub fn club_ogre(overrides: Value) -> Combatant {
    let mut base = json!({ "hp_max": 60, "alignment": "CE", "level": 4,
                           "ac": { "total": 14, "touch": 10, "flat_footed": 14 },
                           "attacks": [melee("club", 6, "1d8+4")] });
    if let (Value::Object(b), Value::Object(o)) = (&mut base, overrides) {
        b.extend(o);
    }
    creature("Ogre", base)
}

/// An alchemist 4's bomb (2d6+4 fire, splash 6, Reflex DC 16, first in
/// its file; 20-ft increments) and a light crossbow (80-ft increments).
pub fn bomber() -> Combatant {
    creature(
        "Bomber",
        json!({ "hp_max": 30, "bab": 3, "attacks": [
            { "name": "bomb", "kind": "touch", "attack_bonus": 6,
              "damage": [{ "formula": "2d6+4", "types": ["fire"] }], "range_increment_ft": 20,
              "splash": [{ "formula": "6", "types": ["fire"] }], "splash_dc": 16,
              "standard_action": true, "ammunition": 8 },
            { "name": "light crossbow", "kind": "ranged", "attack_bonus": 5,
              "damage": [{ "formula": "1d8", "types": ["piercing"] }], "range_increment_ft": 80 } ] }),
    )
}
