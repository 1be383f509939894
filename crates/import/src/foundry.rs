//! A Foundry VTT `pf1` actor export (the system's data model, v10: an actor
//! with `system.abilities`, `system.attributes`, `system.traits`,
//! `system.details` and `items` of type `class`, `race`, `feat`, `weapon`,
//! `attack`, `equipment`, `spell`, `buff`…) turned into a pf1e combatant.
//!
//! The sheet's base values become a [`Build`] (classes, race, equipment,
//! active buffs), whose printed numbers the engine's derivation computes, as
//! for the campaign's PCs; feats and class features are resolved against the
//! feature catalogue (`data/feats.json`), spells against the spell book. What
//! cannot be mapped — an unknown feat, a spell the book lacks, a formula that
//! is not a number, an inactive buff — is listed in [`Imported::unmapped`],
//! never dropped silently. The conversion is pure: text in, combatant out.

use std::collections::{BTreeMap, BTreeSet};

use pf1e_engine::effects::{BonusType, ModTarget};
use pf1e_engine::feats::{FeatCatalog, resolve};
use pf1e_engine::model::{
    AttackKind, AttackSpec, CarriedItem, CarriedItemDetail, Combatant, CombatantRole, DamageComponent,
    DamageReduction, Feature, FeatureDetail, Size, parse_combatant,
};
use pf1e_engine::spell::SpellBook;
use serde_json::Value;

use crate::build::{
    Ability, AbilityBuild, AbilityMethod, ArmorCategory, Build, CastingBuild, ClassLevels, DomainSlots, Grip,
    HitPointMethod, HitPoints, ItemBonus, Progression, Race, Weapon,
};
use crate::check::damage_formula;
use crate::classes::{BabProgression, ClassTable, SaveKind};
use crate::{Error, push_key};

/// Something of the sheet that the combatant does not carry, and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Unmapped {
    /// Where in the sheet (`$.items[7]`, `$.system.abilities.str.damage`).
    pub path: String,
    /// What it is (`feat "Arcane Strike"`, `spell "Snowball"`).
    pub what: String,
    /// Why it was left out.
    pub reason: String,
}

impl std::fmt::Display for Unmapped {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}: {}", self.path, self.what, self.reason)
    }
}

/// A converted sheet.
#[derive(Clone, Debug)]
pub struct Imported {
    /// The combatant, valid for the engine.
    pub combatant: Combatant,
    /// The build it was derived from.
    pub build: Build,
    /// What the combatant leaves out.
    pub unmapped: Vec<Unmapped>,
}

/// A JSON value with its path, for error messages.
#[derive(Clone, Copy)]
struct Node<'a> {
    value: &'a Value,
    path: &'a str,
}

/// Reads the sheet, collecting what it cannot map.
struct Reader<'a> {
    file: &'a str,
    unmapped: Vec<Unmapped>,
}

fn kind_of(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

fn child_path(path: &str, key: &str) -> String {
    let mut p = path.to_string();
    push_key(&mut p, key);
    p
}

impl<'a> Reader<'a> {
    fn error(&self, path: &str, message: impl Into<String>) -> Error {
        Error::Json { file: self.file.to_string(), path: path.to_string(), message: message.into() }
    }

    fn leave_out(&mut self, path: impl Into<String>, what: impl Into<String>, reason: impl Into<String>) {
        self.unmapped.push(Unmapped { path: path.into(), what: what.into(), reason: reason.into() });
    }

    /// The member `key` of an object (absent or null: `None`); a non-object is an error.
    fn get<'v>(&self, node: Node<'v>, key: &str, path: &'v mut String) -> Result<Option<Node<'v>>, Error> {
        match node.value {
            Value::Object(map) => {
                *path = child_path(node.path, key);
                Ok(map.get(key).filter(|v| !v.is_null()).map(|value| Node { value, path }))
            }
            Value::Null => Ok(None),
            other => Err(self.error(node.path, format!("expected an object, found {}", kind_of(other)))),
        }
    }

    fn object_at(&self, root: &'a Value, keys: &[&str]) -> Result<Option<(&'a Value, String)>, Error> {
        let mut value = root;
        let mut path = String::from("$");
        for key in keys {
            match value {
                Value::Object(map) => match map.get(*key) {
                    Some(v) if !v.is_null() => {
                        value = v;
                        push_key(&mut path, key);
                    }
                    _ => return Ok(None),
                },
                other => {
                    return Err(self.error(&path, format!("expected an object, found {}", kind_of(other))));
                }
            }
        }
        Ok(Some((value, path)))
    }
}

/// A number, or a string holding one (Foundry stores many numbers as text).
fn number(v: &Value) -> Option<f64> {
    match v {
        Value::Number(n) => n.as_f64(),
        Value::String(s) => s.trim().parse::<f64>().ok(),
        _ => None,
    }
}

/// The largest magnitude a sheet's number may have: far beyond any real
/// sheet, small enough that no sum of them overflows.
const LIMIT: i64 = 100_000;

fn int_at(r: &Reader<'_>, v: &Value, path: &str, key: &str, default: i64) -> Result<i64, Error> {
    match v.get(key) {
        None | Some(Value::Null) => Ok(default),
        Some(Value::String(s)) if s.trim().is_empty() => Ok(default),
        Some(x) => match number(x) {
            Some(n) if n.fract() == 0.0 && n.abs() <= LIMIT as f64 => Ok(n as i64),
            Some(n) if n.fract() == 0.0 => Err(
                r.error(&child_path(path, key), format!("{n} is out of range (at most {LIMIT} either way)"))
            ),
            _ => Err(r.error(&child_path(path, key), format!("expected a whole number, found {x}"))),
        },
    }
}

fn str_at<'v>(r: &Reader<'_>, v: &'v Value, path: &str, key: &str) -> Result<Option<&'v str>, Error> {
    match v.get(key) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(s)) => Ok(Some(s.as_str())),
        Some(other) => {
            Err(r.error(&child_path(path, key), format!("expected a string, found {}", kind_of(other))))
        }
    }
}

fn bool_at(r: &Reader<'_>, v: &Value, path: &str, key: &str, default: bool) -> Result<bool, Error> {
    match v.get(key) {
        None | Some(Value::Null) => Ok(default),
        Some(Value::Bool(b)) => Ok(*b),
        Some(other) => {
            Err(r.error(&child_path(path, key), format!("expected true or false, found {}", kind_of(other))))
        }
    }
}

fn array_at<'v>(r: &Reader<'_>, v: &'v Value, path: &str, key: &str) -> Result<&'v [Value], Error> {
    match v.get(key) {
        None | Some(Value::Null) => Ok(&[]),
        Some(Value::Array(a)) => Ok(a),
        Some(other) => {
            Err(r.error(&child_path(path, key), format!("expected an array, found {}", kind_of(other))))
        }
    }
}

/// Foundry size keys.
fn size_of(key: &str) -> Option<Size> {
    Some(match key {
        "fine" => Size::Fine,
        "dim" => Size::Diminutive,
        "tiny" => Size::Tiny,
        "sm" => Size::Small,
        "med" => Size::Medium,
        "lg" => Size::Large,
        "huge" => Size::Huge,
        "grg" => Size::Gargantuan,
        "col" => Size::Colossal,
        _ => return None,
    })
}

/// Foundry bonus types (`pf1.config.bonusTypes`).
fn bonus_type(key: &str) -> Option<BonusType> {
    Some(match key {
        "" | "untyped" | "untypedPerm" | "base" | "inherent" => BonusType::Untyped,
        "enh" => BonusType::Enhancement,
        "dodge" => BonusType::Dodge,
        "deflection" => BonusType::Deflection,
        "morale" => BonusType::Morale,
        "luck" => BonusType::Luck,
        "sacred" => BonusType::Sacred,
        "insight" => BonusType::Insight,
        "resist" => BonusType::Resistance,
        "profane" => BonusType::Profane,
        "trait" => BonusType::Trait,
        "racial" => BonusType::Racial,
        "size" => BonusType::Size,
        "competence" => BonusType::Competence,
        "circumstance" => BonusType::Circumstance,
        "alchemical" => BonusType::Alchemical,
        _ => return None,
    })
}

fn ability_of(key: &str) -> Option<Ability> {
    Some(match key {
        "str" => Ability::Str,
        "dex" => Ability::Dex,
        "con" => Ability::Con,
        "int" => Ability::Int,
        "wis" => Ability::Wis,
        "cha" => Ability::Cha,
        _ => return None,
    })
}

/// Foundry damage type ids to the engine's.
fn damage_type(id: &str) -> Option<&'static str> {
    Some(match id {
        "bludgeoning" => "bludgeoning",
        "piercing" => "piercing",
        "slashing" => "slashing",
        "fire" => "fire",
        "cold" => "cold",
        "electric" | "electricity" => "electricity",
        "acid" => "acid",
        "sonic" => "sonic",
        "force" => "force",
        "negative" => "negative",
        "positive" => "positive",
        "untyped" => "untyped",
        _ => return None,
    })
}

/// Where a numeric change goes.
enum ChangeTarget {
    Ability(Ability),
    Bonus(ModTarget),
    NaturalArmor,
    ArmorBonus,
    ShieldBonus,
    HitPoints,
    LandSpeed,
    FlySpeed,
}

fn change_target(key: &str) -> Option<ChangeTarget> {
    use ChangeTarget::*;
    Some(match key {
        "str" | "dex" | "con" | "int" | "wis" | "cha" => Ability(ability_of(key)?),
        "ac" => Bonus(ModTarget::Ac),
        "aac" => ArmorBonus,
        "sac" => ShieldBonus,
        "nac" => NaturalArmor,
        "allSavingThrows" => Bonus(ModTarget::Saves),
        "fort" => Bonus(ModTarget::Fort),
        "ref" => Bonus(ModTarget::Ref),
        "will" => Bonus(ModTarget::Will),
        "init" => Bonus(ModTarget::Initiative),
        "attack" | "wattack" => Bonus(ModTarget::Attack),
        "mattack" => Bonus(ModTarget::MeleeAttack),
        "rattack" => Bonus(ModTarget::RangedAttack),
        "damage" | "wdamage" => Bonus(ModTarget::Damage),
        "mwdamage" => Bonus(ModTarget::MeleeDamage),
        "rwdamage" => Bonus(ModTarget::RangedDamage),
        "cmb" => Bonus(ModTarget::Cmb),
        "cmd" => Bonus(ModTarget::Cmd),
        "mhp" => HitPoints,
        "landSpeed" => LandSpeed,
        "flySpeed" => FlySpeed,
        _ => return None,
    })
}

/// Copies of a spell a prepared spellbook holds (`preparation.max`, older
/// sheets `preparedAmount` or `maxAmount`).
fn prepared_count(sys: &Value) -> u32 {
    let prep = sys.get("preparation");
    ["max", "preparedAmount", "maxAmount"]
        .iter()
        .find_map(|k| prep.and_then(|p| p.get(*k)).and_then(number))
        .map_or(0, |n| n.max(0.0) as u32)
}

/// The prepared list of a prepared spellbook, when its copies fill exactly
/// the class table's slots of every level; otherwise none (the spells stay
/// a repertoire cast from the slots) and the report says why.
fn prepared_list(
    r: &mut Reader<'_>,
    prepared: &[(String, u32, u32)],
    slots: &BTreeMap<String, u32>,
) -> Vec<pf1e_engine::model::PreparedEntry> {
    if prepared.is_empty() {
        return Vec::new();
    }
    let mut totals: BTreeMap<String, u32> = BTreeMap::new();
    for (_, level, count) in prepared {
        *totals.entry(level.to_string()).or_default() += count;
    }
    let table: BTreeMap<String, u32> =
        slots.iter().filter(|(l, n)| *l != "0" && **n > 0).map(|(l, n)| (l.clone(), *n)).collect();
    if totals != table {
        r.leave_out(
            "$.items",
            "the prepared spells".to_string(),
            format!(
                "their copies per level {totals:?} do not fill the class table's slots {table:?} (a domain slot, an unfinished preparation): the spells are cast from the slots as a repertoire"
            ),
        );
        return Vec::new();
    }
    prepared
        .iter()
        .map(|(name, _, count)| pf1e_engine::model::PreparedEntry {
            spell: name.clone(),
            metamagic: Vec::new(),
            count: *count,
            domain: false,
        })
        .collect()
}

/// What the importer builds while reading.
#[derive(Default)]
struct Parts {
    race_abilities: BTreeMap<Ability, i32>,
    other_abilities: BTreeMap<Ability, i32>,
    /// Enhancement bonuses of items to ability scores (a belt, a headband):
    /// kept apart so that a spell's enhancement bonus does not stack with them.
    item_enhancements: BTreeMap<Ability, i32>,
    bonuses: Vec<ItemBonus>,
    natural_armor: i32,
    hp_bonus: i32,
    land_speed_bonus: i64,
    fly_speed_bonus: i64,
    classes: Vec<ClassLevels>,
    recorded_hp: Vec<i32>,
    favored_hp: i32,
    features: Vec<Feature>,
    weapons: Vec<(Weapon, AttackSpec)>,
    spells: Vec<String>,
    /// Copies prepared per spell of a prepared spellbook: (name, level, count).
    prepared: Vec<(String, u32, u32)>,
    carried: Vec<CarriedItem>,
    /// Projectile weapons that add Strength to damage (a composite bow), with their rating.
    strength_rated: Vec<(String, Option<i32>)>,
}

/// The magus arcana of Ultimate Magic, which a sheet names bare.
const MAGUS_ARCANA: [&str; 20] = [
    "Arcane Accuracy",
    "Broad Study",
    "Close Range",
    "Concentrate",
    "Critical Strike",
    "Dispelling Strike",
    "Empowered Magic",
    "Familiar",
    "Hasted Assault",
    "Maneuver Mastery",
    "Maximized Magic",
    "Pool Strike",
    "Quickened Magic",
    "Reflection",
    "Silent Magic",
    "Spell Blending",
    "Spell Shield",
    "Still Magic",
    "Wand Mastery",
    "Wand Wielder",
];

/// Feature names a feature of the sheet may take in the catalogue: its own
/// name without `(Ex)`, `(Su)` or `(Sp)`, then, for a class feature of a
/// class the sheet has, the catalogue's family form (`Evil Eye` of a witch is
/// `Hex (Evil Eye)`).
fn catalogue_names(name: &str, class_feature: bool, classes: &BTreeSet<String>) -> Vec<String> {
    let base = name.trim();
    let stripped =
        ["(Ex)", "(Su)", "(Sp)"].iter().find_map(|s| base.strip_suffix(s)).map(str::trim_end).unwrap_or(base);
    let mut out = vec![stripped.to_string()];
    if class_feature {
        for (class, family) in [("witch", "Hex"), ("gunslinger", "Deed"), ("bard", "Bardic Performance")] {
            if classes.contains(class) {
                out.push(format!("{family} ({stripped})"));
            }
        }
        if classes.contains("magus") && MAGUS_ARCANA.iter().any(|a| a.eq_ignore_ascii_case(stripped)) {
            out.push(format!("Magus Arcana ({stripped})"));
        }
    }
    out
}

/// Converts a sheet. `file` names it in errors; `classes` is the class table
/// (`ClassTable::builtin()`); `spells` the spell book its spells are looked up in.
pub fn convert(text: &str, file: &str, classes: &ClassTable, spells: &SpellBook) -> Result<Imported, Error> {
    let root: Value = serde_json::from_str(text).map_err(|e| Error::Json {
        file: file.into(),
        path: "$".into(),
        message: format!("not JSON: {e}"),
    })?;
    let mut r = Reader { file, unmapped: Vec::new() };
    let top = Node { value: &root, path: "$" };
    if !root.is_object() {
        return Err(r.error("$", format!("expected an actor object, found {}", kind_of(&root))));
    }
    let name = match str_at(&r, &root, "$", "name")? {
        Some(n) if !n.trim().is_empty() => n.trim().to_string(),
        _ => return Err(r.error("$.name", "missing: the actor's name")),
    };
    let role = match str_at(&r, &root, "$", "type")? {
        Some("character") => CombatantRole::Pc,
        Some("npc") => CombatantRole::Monster,
        Some(other) => {
            return Err(r.error("$.type", format!("{other:?} is not a character or npc actor")));
        }
        None => return Err(r.error("$.type", "missing: \"character\" or \"npc\"")),
    };
    let mut system_path = String::new();
    let Some(system) = r.get(top, "system", &mut system_path)? else {
        return Err(r.error("$.system", "missing: the actor's data (a pf1 export has `system`)"));
    };
    let system = system.value;

    // Abilities: the base scores; racial and item changes are added below.
    let mut base_abilities = BTreeMap::new();
    for &ability in Ability::ALL {
        let key = ability.name();
        let path = format!("$.system.abilities.{key}");
        let node = system.get("abilities").and_then(|a| a.get(key));
        let (score, extra) = match node {
            None | Some(Value::Null) => (10, None),
            Some(v @ Value::Object(_)) => {
                let score = int_at(&r, v, &path, "value", 10)?;
                let drain = int_at(&r, v, &path, "drain", 0)?;
                let damage = int_at(&r, v, &path, "damage", 0)?;
                let penalty = int_at(&r, v, &path, "userPenalty", 0)?;
                (score - drain, Some((drain, damage, penalty)))
            }
            Some(other) => {
                return Err(r.error(&path, format!("expected an object, found {}", kind_of(other))));
            }
        };
        if !(0..=60).contains(&score) {
            return Err(
                r.error(&format!("{path}.value"), format!("{score} is not an ability score (0 to 60)"))
            );
        }
        if let Some((drain, damage, penalty)) = extra {
            if drain != 0 {
                r.leave_out(
                    &path,
                    format!("{key} drain {drain}"),
                    "subtracted from the score (drain is permanent)",
                );
            }
            if damage != 0 || penalty != 0 {
                r.leave_out(
                    &path,
                    format!("{key} damage or penalty"),
                    "not applied: a combatant starts a fight unhurt",
                );
            }
        }
        base_abilities.insert(ability, score as i32);
    }

    let attrs = system.get("attributes").unwrap_or(&Value::Null);
    let traits = system.get("traits").unwrap_or(&Value::Null);
    let details = system.get("details").unwrap_or(&Value::Null);
    let mut size = match traits.get("size") {
        Some(Value::String(s)) => {
            size_of(s).ok_or_else(|| r.error("$.system.traits.size", format!("unknown size {s:?}")))?
        }
        None | Some(Value::Null) => Size::Medium,
        Some(other) => {
            return Err(
                r.error("$.system.traits.size", format!("expected a size key, found {}", kind_of(other)))
            );
        }
    };
    let speed = |key: &str| -> Result<Option<i64>, Error> {
        match attrs.get("speed").and_then(|s| s.get(key)) {
            Some(v) => Ok(Some(int_at(&r, v, &format!("$.system.attributes.speed.{key}"), "base", 0)?)),
            None => Ok(None),
        }
    };
    let mut land = speed("land")?.unwrap_or(30);
    let mut fly = speed("fly")?.filter(|&f| f > 0);
    let mut creature_type = "humanoid".to_string();
    let mut parts = Parts {
        natural_armor: int_at(&r, attrs, "$.system.attributes", "naturalAC", 0)? as i32,
        ..Parts::default()
    };
    let init_bonus =
        attrs.get("init").map(|i| int_at(&r, i, "$.system.attributes.init", "value", 0)).transpose()?;
    if let Some(v) = init_bonus.filter(|&v| v != 0) {
        parts.bonuses.push(item_bonus(
            "sheet initiative bonus",
            ModTarget::Initiative,
            BonusType::Untyped,
            v as i32,
        ));
    }

    let items = array_at(&r, &root, "$", "items")?;
    let mut spellbook_classes: BTreeMap<String, String> = BTreeMap::new();
    let mut prepared_books: Vec<String> = Vec::new();
    if let Some((books, books_path)) =
        r.object_at(&root, &["system", "attributes", "spells", "spellbooks"])?
    {
        let Value::Object(books) = books else {
            return Err(r.error(&books_path, "expected an object of spellbooks"));
        };
        for (key, book) in books {
            let path = child_path(&books_path, key);
            let in_use = bool_at(&r, book, &path, "inUse", false)?;
            let class = str_at(&r, book, &path, "class")?.unwrap_or_default();
            if in_use && !class.is_empty() {
                spellbook_classes.insert(key.clone(), class.to_string());
                if str_at(&r, book, &path, "spellPreparationMode")? == Some("prepared") {
                    prepared_books.push(key.clone());
                }
            }
        }
    }

    let natural_count = items
        .iter()
        .filter(|i| i.get("type") == Some(&Value::String("attack".into())))
        .filter(|i| i.pointer("/system/subType").and_then(Value::as_str) == Some("natural"))
        .count();
    let has_weapons = items.iter().any(|i| {
        i.get("type") == Some(&Value::String("weapon".into()))
            && i.pointer("/system/equipped").and_then(Value::as_bool).unwrap_or(true)
    });

    // The classes first: a class feature is looked up in its class's family.
    let class_keys: BTreeSet<String> = items
        .iter()
        .filter(|i| i.get("type").and_then(Value::as_str) == Some("class"))
        .filter_map(|i| {
            let tag = i.pointer("/system/tag").and_then(Value::as_str).filter(|t| !t.is_empty());
            tag.or_else(|| i.get("name").and_then(Value::as_str)).map(crate::classes::class_key)
        })
        .collect();
    let catalog =
        FeatCatalog::builtin().map_err(|e| r.error("$", format!("the feature catalogue is invalid: {e}")))?;
    for (i, item) in items.iter().enumerate() {
        let path = format!("$.items[{i}]");
        if !item.is_object() {
            return Err(r.error(&path, format!("expected an item object, found {}", kind_of(item))));
        }
        let item_name = str_at(&r, item, &path, "name")?.unwrap_or("(unnamed)").trim().to_string();
        let kind = str_at(&r, item, &path, "type")?.unwrap_or_default().to_string();
        let sys_path = format!("{path}.system");
        let sys = match item.get("system") {
            None | Some(Value::Null) => &Value::Null,
            Some(v @ Value::Object(_)) => v,
            Some(other) => {
                return Err(r.error(&sys_path, format!("expected an object, found {}", kind_of(other))));
            }
        };
        match kind.as_str() {
            "race" => {
                if let Some(s) = str_at(&r, sys, &sys_path, "size")? {
                    size = size_of(s)
                        .ok_or_else(|| r.error(&format!("{sys_path}.size"), format!("unknown size {s:?}")))?;
                }
                if let Some(t) = str_at(&r, sys, &sys_path, "creatureType")? {
                    creature_type = crate::classes::class_key(t);
                }
                if let Some(speeds) = sys.get("speeds").filter(|v| v.is_object()) {
                    let sp = format!("{sys_path}.speeds");
                    if speeds.get("land").is_some_and(|v| !v.is_null()) {
                        land = int_at(&r, speeds, &sp, "land", land)?;
                    }
                    if speeds.get("fly").is_some_and(|v| !v.is_null()) {
                        fly = Some(int_at(&r, speeds, &sp, "fly", 0)?).filter(|&f| f > 0);
                    }
                }
                let _ = read_changes(&mut r, &mut parts, sys, &sys_path, &item_name, true)?;
            }
            "class" => {
                read_class(&mut r, &mut parts, classes, sys, &sys_path, &item_name)?;
                let _ = read_changes(&mut r, &mut parts, sys, &sys_path, &item_name, false)?;
            }
            "feat" => {
                if bool_at(&r, sys, &sys_path, "disabled", false)? {
                    r.leave_out(&path, format!("feature {item_name:?}"), "disabled on the sheet");
                    continue;
                }
                let sub = str_at(&r, sys, &sys_path, "subType")?.unwrap_or("feat");
                let category = match sub {
                    "classFeat" => "class",
                    "racial" => "racial",
                    "trait" => "trait",
                    "template" => "template",
                    _ => "feat",
                };
                // A feature the catalogue knows acts through its catalogue entry
                // (its Foundry changes would count it twice); an unknown one
                // keeps only its numeric changes.
                let found = catalogue_names(&item_name, sub == "classFeat", &class_keys)
                    .into_iter()
                    .find(|n| catalog.lookup(n).is_some());
                match found {
                    Some(n) => parts.features.push(Feature::Detailed(FeatureDetail {
                        name: n,
                        category: Some(category.into()),
                        source_detail: Some(format!("Foundry item {item_name:?}")),
                        notes: None,
                    })),
                    None => {
                        let applied = read_changes(&mut r, &mut parts, sys, &sys_path, &item_name, false)?;
                        let why = if applied > 0 {
                            "not in the feature catalogue (data/feats.json): its numeric changes are applied, nothing else of it is played"
                        } else {
                            "not in the feature catalogue (data/feats.json): left out"
                        };
                        r.leave_out(&path, format!("{category} {item_name:?}"), why);
                    }
                }
            }
            "weapon" | "attack" => {
                let equipped = bool_at(&r, sys, &sys_path, "equipped", true)?;
                if kind == "weapon" && !equipped {
                    r.leave_out(&path, format!("weapon {item_name:?}"), "not equipped at export");
                    continue;
                }
                let natural = kind == "attack" && str_at(&r, sys, &sys_path, "subType")? == Some("natural");
                let sole_natural = natural && natural_count == 1 && !has_weapons;
                read_weapon(&mut r, &mut parts, sys, &sys_path, &item_name, natural, sole_natural, size)?;
                let _ = read_changes(&mut r, &mut parts, sys, &sys_path, &item_name, false)?;
            }
            "equipment" => {
                if !bool_at(&r, sys, &sys_path, "equipped", true)? {
                    r.leave_out(&path, format!("equipment {item_name:?}"), "not worn at export");
                    continue;
                }
                read_equipment(&mut r, &mut parts, sys, &sys_path, &item_name)?;
                let _ = read_changes(&mut r, &mut parts, sys, &sys_path, &item_name, false)?;
            }
            "buff" => {
                if bool_at(&r, sys, &sys_path, "active", false)? {
                    let _ = read_changes(&mut r, &mut parts, sys, &sys_path, &item_name, false)?;
                } else {
                    r.leave_out(&path, format!("buff {item_name:?}"), "inactive at export: not applied");
                }
            }
            "spell" => {
                let book = str_at(&r, sys, &sys_path, "spellbook")?.unwrap_or("primary");
                if spellbook_classes.keys().next().map(String::as_str) != Some(book) {
                    let why = if spellbook_classes.contains_key(book) {
                        "a second spellbook: the combatant format has one casting ability"
                    } else {
                        "its spellbook is not in use on the sheet"
                    };
                    r.leave_out(&path, format!("spell {item_name:?}"), why);
                    continue;
                }
                let list = spellbook_classes.get(book).map(|c| crate::classes::class_key(c));
                match spells.find(&item_name) {
                    Some((_, spell))
                        if list.as_deref().is_some_and(|l| {
                            pf1e_engine::spell::CLASSES.contains(&l) && !spell.levels.contains_key(l)
                        }) =>
                    {
                        r.leave_out(
                            &path,
                            format!("spell {item_name:?}"),
                            format!(
                                "not on the {} list of data/spells (a patron, domain or bloodline spell)",
                                list.as_deref().unwrap_or_default()
                            ),
                        );
                    }
                    Some((_, spell)) => {
                        if !parts.spells.contains(&spell.name) {
                            parts.spells.push(spell.name.clone());
                        }
                        if prepared_books.iter().any(|b| b == book) {
                            let level = int_at(&r, sys, &sys_path, "level", 0)?.max(0) as u32;
                            let count = prepared_count(sys);
                            if level > 0 && count > 0 {
                                parts.prepared.push((spell.name.clone(), level, count));
                            }
                        }
                    }
                    None => r.leave_out(
                        &path,
                        format!("spell {item_name:?}"),
                        "not in the spell directory (data/spells)",
                    ),
                }
            }
            "consumable" => {
                let quantity = int_at(&r, sys, &sys_path, "quantity", 1)?.max(1) as u32;
                // A wand's charges are its uses left (`system.uses.value`);
                // absent, the engine takes a new wand's 50.
                let wand = matches!(
                    pf1e_engine::model::items::ItemUse::of(&item_name),
                    pf1e_engine::model::items::ItemUse::Wand(_)
                );
                let charges = match sys.get("uses") {
                    Some(uses) if wand => {
                        let left = int_at(&r, uses, &child_path(&sys_path, "uses"), "value", -1)?;
                        u32::try_from(left).ok().map(|c| c.min(pf1e_engine::model::items::WAND_CHARGES))
                    }
                    _ => None,
                };
                if charges == Some(0) {
                    r.leave_out(&path, format!("wand {item_name:?}"), "no charge left");
                    continue;
                }
                parts.carried.push(CarriedItem::Detailed(CarriedItemDetail {
                    name: item_name,
                    quantity,
                    charges,
                    notes: None,
                }));
            }
            other => r.leave_out(
                &path,
                format!("{other} {item_name:?}"),
                "an item type the combatant format does not carry",
            ),
        }
    }
    if parts.classes.is_empty() {
        return Err(r.error(
            "$.items",
            "no class item: level, base attack bonus, saves and hit points come from the class items",
        ));
    }
    let strength = base_abilities.get(&Ability::Str).copied().unwrap_or(10)
        + parts.race_abilities.get(&Ability::Str).copied().unwrap_or(0)
        + parts.other_abilities.get(&Ability::Str).copied().unwrap_or(0)
        + parts.item_enhancements.get(&Ability::Str).copied().unwrap_or(0);
    let str_mod = pf1e_engine::dice::ability_modifier(strength);
    for (weapon, max) in std::mem::take(&mut parts.strength_rated) {
        let value = max.map_or(str_mod, |m| str_mod.min(m));
        if value != 0 {
            let rating = format!("{weapon} (Strength to damage)");
            parts.bonuses.push(ItemBonus {
                weapon: Some(weapon),
                ..item_bonus(&rating, ModTarget::Damage, BonusType::Untyped, value)
            });
        }
    }

    // Spellcasting: the first spellbook in use.
    let casting = match spellbook_classes.iter().next() {
        Some((book, class)) => match classes.get(class).and_then(|c| c.casting) {
            Some(_)
                if parts
                    .classes
                    .iter()
                    .any(|c| crate::classes::class_key(&c.class) == crate::classes::class_key(class)) =>
            {
                Some(CastingBuild {
                    class: class.clone(),
                    domain_slots: DomainSlots::LeftOut,
                    domains: Vec::new(),
                })
            }
            _ => {
                r.leave_out(
                    format!("$.system.attributes.spells.spellbooks.{book}"),
                    format!("spellbook of class {class:?}"),
                    "its class is not one of the sheet's casting classes in data/classes.json: no spell slots",
                );
                None
            }
        },
        None => None,
    };
    if casting.is_none() && !parts.spells.is_empty() {
        r.leave_out(
            "$.items",
            format!("{} spells", parts.spells.len()),
            "no casting class: they cannot be cast",
        );
        parts.spells.clear();
    }

    let weapons: Vec<Weapon> = parts.weapons.iter().map(|(w, _)| w.clone()).collect();
    let build = Build {
        combatant: file.to_string(),
        source: format!("Foundry VTT pf1 actor export {file}"),
        race: Race {
            name: "as exported".into(),
            size,
            creature_type: creature_type.clone(),
            speed_land_ft: (land + parts.land_speed_bonus).max(0) as u32,
            speed_fly_ft: fly.map(|f| (f + parts.fly_speed_bonus).max(0) as u32),
            abilities: parts.race_abilities.clone(),
            natural_armor: parts.natural_armor,
        },
        abilities: AbilityBuild {
            method: AbilityMethod::AsGiven,
            points: None,
            base: base_abilities,
            increases: vec![],
            advancement: parts.other_abilities.clone(),
            enhancement: parts.item_enhancements.clone(),
        },
        classes: parts.classes.clone(),
        companion: None,
        hit_points: HitPoints {
            method: HitPointMethod::Recorded,
            favored_class: parts.favored_hp,
            recorded: parts.recorded_hp.clone(),
            bonus: parts.hp_bonus,
        },
        bonuses: parts.bonuses.clone(),
        weapons,
        casting,
    };

    let alignment = match details.get("alignment") {
        Some(Value::String(a)) => alignment_code(a)
            .ok_or_else(|| r.error("$.system.details.alignment", format!("unknown alignment {a:?}")))?,
        _ => "N",
    };
    let cr = details.get("cr").and_then(|c| c.get("base")).and_then(number).map(cr_text);
    let (dr, resistances, immunities) = read_defenses(&mut r, traits)?;

    // A first combatant carries the features, so the catalogue resolves them.
    let mut combatant = Combatant {
        role,
        name: name.clone(),
        level: 1,
        size,
        cr: if role == CombatantRole::Monster { cr } else { None },
        xp: None,
        source: Some(format!("Foundry VTT pf1 actor export {file}, converted by pf1e import foundry")),
        creature_type: Some(creature_type),
        alignment: alignment.to_string(),
        abilities: pf1e_engine::model::Abilities {
            str_score: 10,
            dex_score: 10,
            con_score: Some(10),
            int_score: Some(10),
            wis_score: 10,
            cha_score: 10,
        },
        hp_max: 1,
        ac: pf1e_engine::model::ArmorClass { total: 10, touch: 10, flat_footed: 10 },
        bab: 0,
        cmb: None,
        cmd: None,
        initiative_mod: 0,
        speed_land_ft: 0,
        speed_fly_ft: None,
        fly_maneuverability: None,
        saves: pf1e_engine::model::Saves { fort: 0, reflex: 0, will: 0 },
        attacks: vec![],
        features: parts.features.clone(),
        metamagic_feats: vec![],
        dr,
        resistances,
        immunities,
        spell_resistance: 0,
        aware: true,
        spell_slots: BTreeMap::new(),
        spells: vec![],
        domain_slots: BTreeMap::new(),
        domain_spells: vec![],
        prepared: vec![],
        spontaneous: vec![],
        casting_ability: None,
        spell_list: None,
        caster_level: None,
        full_attack: vec![],
        resources: BTreeMap::new(),
        special_abilities: vec![],
        skills: BTreeMap::new(),
        carried_items: parts.carried.clone(),
        shield: None,
        armor: None,
        mount: None,
        notes: None,
        ability_enhancements: BTreeMap::new(),
    };
    let features = resolve(&combatant, catalog)
        .map_err(|e| r.error(&format!("$.items (feature {})", e.index), e.message))?;
    let derived = build
        .derive(classes, &features, None)
        .map_err(|source| Error::Build { file: file.to_string(), source })?;

    let s = &derived.stats;
    combatant.level = derived.level;
    combatant.abilities = derived.abilities.clone();
    combatant.ability_enhancements = derived.ability_enhancements.clone();
    combatant.hp_max = s.hp_max.max(1);
    combatant.ac = s.ac;
    combatant.bab = derived.bab;
    combatant.cmb = Some(s.cmb);
    combatant.cmd = Some(s.cmd);
    combatant.initiative_mod = s.initiative;
    combatant.speed_land_ft = derived.speed_land_ft / 5 * 5;
    combatant.speed_fly_ft = derived.speed_fly_ft.map(|f| f / 5 * 5);
    combatant.saves = s.saves;
    combatant.attacks = parts
        .weapons
        .iter()
        .zip(&s.attacks)
        .map(|((w, spec), d)| {
            let mut a = spec.clone();
            a.attack_bonus = d.attack_bonus;
            a.crit_range = d.crit_range;
            if let Some(first) = a.damage.first_mut() {
                first.formula = damage_formula(&w.dice, d.damage_bonus);
            }
            a
        })
        .collect();
    if let Some(c) = &derived.casting {
        combatant.casting_ability = Some(c.ability);
        combatant.spell_slots = c.slots.clone();
        combatant.spells = parts.spells.clone();
        combatant.prepared = prepared_list(&mut r, &parts.prepared, &c.slots);
        if c.domain_slots_left_out > 0 {
            r.leave_out(
                "$.system.attributes.spells.spellbooks",
                format!("{} domain slot(s)", c.domain_slots_left_out),
                "the importer does not read the sheet's domains, which a domain slot (the format's domain_slots) is filled from",
            );
        }
        // The casting class's list sets spell levels; a caster level below
        // the character's level (a multiclass caster) is written down.
        combatant.spell_list =
            pf1e_engine::spell::CLASSES.iter().find(|l| **l == c.class).map(|l| (*l).to_string());
        if combatant.spell_list.is_none() {
            r.leave_out(
                "$.items",
                format!("spell list {:?}", c.class),
                "the spell data set has no list of that class: the first list that has each spell applies",
            );
        }
        if c.caster_level != derived.level {
            combatant.caster_level = Some(c.caster_level);
        }
    }
    combatant.resources = derived.resources.clone();
    combatant.notes = Some(format!(
        "Converted by pf1e import foundry from {file}: {} item(s) or value(s) not carried over (listed by the command).",
        r.unmapped.len()
    ));

    // The engine's own validation: the output must load.
    let json = serde_json::to_string(&combatant).map_err(|e| r.error("$", e.to_string()))?;
    let combatant = parse_combatant(&json, file)
        .map_err(|e| r.error("$", format!("the converted combatant does not load: {e}")))?;
    Ok(Imported { combatant, build, unmapped: r.unmapped })
}

fn item_bonus(item: &str, target: ModTarget, bonus_type: BonusType, value: i32) -> ItemBonus {
    ItemBonus { item: item.into(), target, bonus_type, value, weapon: None, max_dex: None, armor: None }
}

fn alignment_code(a: &str) -> Option<&'static str> {
    Some(match a {
        "lg" => "LG",
        "ng" => "NG",
        "cg" => "CG",
        "ln" => "LN",
        "tn" | "n" => "N",
        "cn" => "CN",
        "le" => "LE",
        "ne" => "NE",
        "ce" => "CE",
        _ => return None,
    })
}

fn cr_text(cr: f64) -> String {
    match cr {
        c if (c - 0.5).abs() < 1e-6 => "1/2".into(),
        c if (c - 1.0 / 3.0).abs() < 1e-3 => "1/3".into(),
        c if (c - 0.25).abs() < 1e-6 => "1/4".into(),
        c if (c - 1.0 / 6.0).abs() < 1e-3 => "1/6".into(),
        c if (c - 0.125).abs() < 1e-6 => "1/8".into(),
        c => format!("{}", c.round().max(1.0) as i64),
    }
}

/// Numeric changes of an item: ability adjustments, AC, saves, initiative,
/// attack and damage, hit points, speeds. Anything else is listed. Returns
/// how many were applied.
fn read_changes(
    r: &mut Reader<'_>,
    parts: &mut Parts,
    sys: &Value,
    sys_path: &str,
    item: &str,
    racial: bool,
) -> Result<usize, Error> {
    let mut applied = 0;
    for (j, change) in array_at(r, sys, sys_path, "changes")?.iter().enumerate() {
        let path = format!("{sys_path}.changes[{j}]");
        if !change.is_object() {
            return Err(r.error(&path, format!("expected a change object, found {}", kind_of(change))));
        }
        let target = str_at(r, change, &path, "target")?
            .or(str_at(r, change, &path, "subTarget")?)
            .unwrap_or_default();
        let ty =
            str_at(r, change, &path, "type")?.or(str_at(r, change, &path, "modifier")?).unwrap_or("untyped");
        let formula = match change.get("formula") {
            Some(Value::String(s)) => s.clone(),
            Some(Value::Number(n)) => n.to_string(),
            _ => String::new(),
        };
        let what = format!("change of {item:?}: {target} {formula:?}");
        if str_at(r, change, &path, "operator")?.is_some_and(|o| o != "add") {
            r.leave_out(&path, what, "only additive changes are read");
            continue;
        }
        let Some(value) = formula.trim().parse::<i32>().ok() else {
            r.leave_out(&path, what, "its formula is not a number");
            continue;
        };
        if i64::from(value).abs() > LIMIT {
            return Err(r.error(&path, format!("{value} is out of range (at most {LIMIT} either way)")));
        }
        let (Some(target_kind), Some(bonus)) = (change_target(target), bonus_type(ty)) else {
            r.leave_out(&path, what, "a target or bonus type the combatant format has no number for");
            continue;
        };
        match target_kind {
            ChangeTarget::Ability(a) if racial => *parts.race_abilities.entry(a).or_default() += value,
            ChangeTarget::Ability(a) if bonus == BonusType::Enhancement => {
                *parts.item_enhancements.entry(a).or_default() += value
            }
            ChangeTarget::Ability(a) => *parts.other_abilities.entry(a).or_default() += value,
            ChangeTarget::Bonus(t) => parts.bonuses.push(item_bonus(item, t, bonus, value)),
            ChangeTarget::NaturalArmor => parts.natural_armor += value,
            ChangeTarget::ArmorBonus => {
                parts.bonuses.push(item_bonus(item, ModTarget::Ac, BonusType::Armor, value))
            }
            ChangeTarget::ShieldBonus => {
                parts.bonuses.push(item_bonus(item, ModTarget::Ac, BonusType::Shield, value))
            }
            ChangeTarget::HitPoints => parts.hp_bonus += value,
            ChangeTarget::LandSpeed => parts.land_speed_bonus += i64::from(value),
            ChangeTarget::FlySpeed => parts.fly_speed_bonus += i64::from(value),
        }
        applied += 1;
    }
    Ok(applied)
}

fn progression(r: &Reader<'_>, sys: &Value, sys_path: &str) -> Result<Progression, Error> {
    let hit_die = int_at(r, sys, sys_path, "hd", 8)?;
    let bab = match str_at(r, sys, sys_path, "bab")?.unwrap_or("low") {
        "high" => BabProgression::Full,
        "med" => BabProgression::ThreeQuarters,
        "low" => BabProgression::Half,
        other => {
            return Err(r.error(&format!("{sys_path}.bab"), format!("{other:?}: expected high, med or low")));
        }
    };
    let mut good_saves = Vec::new();
    for (key, save) in [("fort", SaveKind::Fort), ("ref", SaveKind::Ref), ("will", SaveKind::Will)] {
        let v = sys.pointer(&format!("/savingThrows/{key}/value")).and_then(Value::as_str).unwrap_or("low");
        if v == "high" {
            good_saves.push(save);
        }
    }
    let prestige = str_at(r, sys, sys_path, "subType")? == Some("prestige");
    Ok(Progression { hit_die: hit_die as u32, bab, good_saves, prestige })
}

fn read_class(
    r: &mut Reader<'_>,
    parts: &mut Parts,
    table: &ClassTable,
    sys: &Value,
    sys_path: &str,
    item: &str,
) -> Result<(), Error> {
    if str_at(r, sys, sys_path, "subType")? == Some("mythic") {
        r.leave_out(sys_path, format!("mythic path {item:?}"), "mythic rules are not modelled");
        return Ok(());
    }
    let level = int_at(r, sys, sys_path, "level", 1)?;
    if !(1..=40).contains(&level) {
        return Err(r.error(&format!("{sys_path}.level"), format!("{level} is not a class level (1 to 40)")));
    }
    let tag = str_at(r, sys, sys_path, "tag")?.filter(|t| !t.is_empty()).unwrap_or(item).to_string();
    let known = table.get(&tag).or_else(|| table.get(item));
    let (class, progression) = match known {
        Some(entry) => (entry.name.clone(), None),
        None => (tag, Some(progression(r, sys, sys_path)?)),
    };
    let hit_die = progression.as_ref().map_or_else(|| known.map_or(8, |k| k.hit_die), |p| p.hit_die) as i64;
    let hp = int_at(r, sys, sys_path, "hp", hit_die + (level - 1) * (hit_die / 2 + 1))?;
    parts.recorded_hp.push(hp as i32);
    parts.favored_hp += sys.pointer("/fc/hp/value").and_then(number).unwrap_or(0.0) as i32;
    if progression.is_some() {
        r.leave_out(
            sys_path,
            format!("class {item:?}"),
            "not in data/classes.json: its sheet progression is used, without spellcasting",
        );
    }
    parts.classes.push(ClassLevels { class, level: level as u32, archetype: None, progression });
    Ok(())
}

/// Parses `sizeRoll(c, s, @size)`, a plain `NdS`, or `N` into dice at the wielder's size.
fn weapon_dice(formula: &str, size: Size) -> Option<String> {
    let f = formula.trim();
    if let Some(inner) = f.strip_prefix("sizeRoll(").and_then(|s| s.strip_suffix(')')) {
        let args: Vec<&str> = inner.split(',').map(str::trim).collect();
        let (count, sides) = (args.first()?.parse::<u32>().ok()?, args.get(1)?.parse::<u32>().ok()?);
        return scale_dice(count, sides, size);
    }
    pf1e_engine::dice::DiceExpr::parse(f).ok().map(|_| f.to_string())
}

/// Medium weapon dice at another size (CRB Table 6-5, "Tiny and Large Weapon Damage").
fn scale_dice(count: u32, sides: u32, size: Size) -> Option<String> {
    const LADDER: [&str; 14] =
        ["1", "1d2", "1d3", "1d4", "1d6", "1d8", "1d10", "2d6", "2d8", "3d6", "3d8", "4d6", "4d8", "6d6"];
    let medium = format!("{count}d{sides}");
    let alias = match medium.as_str() {
        "1d12" | "2d4" => "1d10",
        "2d10" => "2d8",
        m => m,
    };
    let at = LADDER.iter().position(|d| *d == alias)?;
    let step: i32 = match size {
        Size::Fine => -4,
        Size::Diminutive => -3,
        Size::Tiny => -2,
        Size::Small => -1,
        Size::Medium => return Some(medium),
        Size::Large => 1,
        Size::Huge => 2,
        Size::Gargantuan => 3,
        Size::Colossal => 4,
    };
    // A step up from 1d6 or less is one rung of the ladder, from 1d8 on two
    // (1d8 → 2d6 → 3d6); a step down is one rung.
    let mut to = at as i32;
    for _ in 0..step.abs() {
        to += if step < 0 {
            -1
        } else if to <= 4 {
            1
        } else {
            2
        };
    }
    let to = to.clamp(0, LADDER.len() as i32 - 1) as usize;
    Some(LADDER[to].to_string())
}

#[allow(clippy::too_many_arguments)]
fn read_weapon(
    r: &mut Reader<'_>,
    parts: &mut Parts,
    sys: &Value,
    sys_path: &str,
    item: &str,
    natural: bool,
    sole_natural: bool,
    size: Size,
) -> Result<(), Error> {
    let actions = array_at(r, sys, sys_path, "actions")?;
    let enhancement = int_at(r, sys, sys_path, "enh", 0)? as i32;
    let masterwork = bool_at(r, sys, sys_path, "masterwork", false)?;
    let subtype = str_at(r, sys, sys_path, "weaponSubtype")?.unwrap_or("1h");
    let firearm = str_at(r, sys, sys_path, "subType")? == Some("firearm");
    let held_2h_item = str_at(r, sys, sys_path, "held")? == Some("2h");
    let reach = sys.pointer("/properties/rch").and_then(Value::as_bool).unwrap_or(false);
    let proficient = bool_at(r, sys, sys_path, "proficient", true)?;
    let attacking: Vec<(usize, &Value)> = actions
        .iter()
        .enumerate()
        .filter(|(_, a)| {
            matches!(a.get("actionType").and_then(Value::as_str), Some("mwak" | "rwak" | "twak"))
        })
        .collect();
    for (j, a) in actions.iter().enumerate() {
        if !attacking.iter().any(|(k, _)| *k == j) {
            let t = a.get("actionType").and_then(Value::as_str).unwrap_or("other");
            r.leave_out(
                format!("{sys_path}.actions[{j}]"),
                format!("action {t} of {item:?}"),
                "not a weapon attack",
            );
        }
    }
    if attacking.is_empty() {
        r.leave_out(sys_path, format!("weapon {item:?}"), "no attack action (mwak, rwak or twak)");
        return Ok(());
    }
    let first_attack = attacking[0].0;
    for (j, action) in attacking {
        let apath = format!("{sys_path}.actions[{j}]");
        let action_type = action.get("actionType").and_then(Value::as_str).unwrap_or_default();
        let action_name = str_at(r, action, &apath, "name")?.unwrap_or_default();
        let name = if j != first_attack && !action_name.is_empty() {
            format!("{} ({})", item.to_lowercase(), action_name.to_lowercase())
        } else {
            item.to_lowercase()
        };
        let parts_arr =
            action.pointer("/damage/parts").and_then(Value::as_array).map(Vec::as_slice).unwrap_or(&[]);
        let Some(first) = parts_arr.first() else {
            r.leave_out(&apath, format!("attack {name:?}"), "no damage formula: a placeholder weapon");
            continue;
        };
        let formula = first.get("formula").and_then(Value::as_str).unwrap_or_default();
        let Some(dice) = weapon_dice(formula, size) else {
            r.leave_out(
                &apath,
                format!("attack {name:?}"),
                format!("damage formula {formula:?} is not dice"),
            );
            continue;
        };
        let mut damage = Vec::new();
        for (k, part) in parts_arr.iter().enumerate() {
            let f = if k == 0 {
                dice.clone()
            } else {
                part.get("formula").and_then(Value::as_str).unwrap_or_default().to_string()
            };
            let mut types = Vec::new();
            for t in part.pointer("/type/values").and_then(Value::as_array).map(Vec::as_slice).unwrap_or(&[])
            {
                match t.as_str().and_then(damage_type) {
                    Some(t) => types.push(t.to_string()),
                    None => r.leave_out(
                        format!("{apath}.damage.parts[{k}]"),
                        format!("damage type {t}"),
                        "unknown: left untyped",
                    ),
                }
            }
            if k > 0 && pf1e_engine::dice::DiceExpr::parse(&f).is_err() {
                r.leave_out(
                    format!("{apath}.damage.parts[{k}]"),
                    format!("damage {f:?} of {name:?}"),
                    "not dice",
                );
                continue;
            }
            damage.push(DamageComponent {
                formula: f,
                types,
                precision: false,
                harms: vec![],
                spares: vec![],
            });
        }
        let crit_range = int_at(
            r,
            action.get("ability").unwrap_or(&Value::Null),
            &format!("{apath}.ability"),
            "critRange",
            20,
        )?;
        let crit_mult = int_at(
            r,
            action.get("ability").unwrap_or(&Value::Null),
            &format!("{apath}.ability"),
            "critMult",
            2,
        )?;
        if !(2..=20).contains(&crit_range) || !(2..=6).contains(&crit_mult) {
            return Err(r.error(
                &format!("{apath}.ability"),
                format!("critical {crit_range}/x{crit_mult} out of range"),
            ));
        }
        let secondary =
            natural && action.pointer("/naturalAttack/primary").and_then(Value::as_bool) == Some(false);
        let held_2h = held_2h_item || action.get("held").and_then(Value::as_str) == Some("2h");
        let grip = match (natural, action_type) {
            (true, _) if secondary => Grip::NaturalSecondary,
            (true, _) if sole_natural => Grip::NaturalOnly,
            (true, _) => Grip::Natural,
            (false, "twak") => Grip::Thrown,
            (false, "rwak") if firearm => Grip::Firearm,
            (false, "rwak") => Grip::Projectile,
            _ if held_2h || subtype == "2h" => Grip::TwoHanded,
            _ if subtype == "light" => Grip::Light,
            _ => Grip::OneHanded,
        };
        let ranged = matches!(grip, Grip::Thrown | Grip::Projectile | Grip::Firearm);
        let range = action.pointer("/range/value").and_then(number).map(|v| v as i64);
        let range_units = action.pointer("/range/units").and_then(Value::as_str).unwrap_or("ft");
        let range_increment_ft = if ranged {
            match range {
                Some(v) if v > 0 && range_units == "ft" => Some((v as u32).div_ceil(5) * 5),
                _ => {
                    r.leave_out(
                        &apath,
                        format!("attack {name:?}"),
                        "a ranged attack without a range in feet",
                    );
                    continue;
                }
            }
        } else {
            None
        };
        if let Some(bonus) = str_at(r, action, &apath, "attackBonus")?.filter(|b| !b.trim().is_empty()) {
            match bonus.trim().parse::<i32>() {
                Ok(v) => parts.bonuses.push(ItemBonus {
                    weapon: Some(name.clone()),
                    ..item_bonus(item, ModTarget::Attack, BonusType::Untyped, v)
                }),
                Err(_) => r.leave_out(&apath, format!("attack bonus {bonus:?} of {name:?}"), "not a number"),
            }
        }
        if !proficient {
            parts.bonuses.push(ItemBonus {
                weapon: Some(name.clone()),
                ..item_bonus("not proficient", ModTarget::Attack, BonusType::Untyped, -4)
            });
        }
        // A composite bow's Strength rating: Strength to damage up to `ability.max`.
        if grip == Grip::Projectile
            && action.pointer("/ability/damage").and_then(Value::as_str) == Some("str")
        {
            let max = action.pointer("/ability/max").and_then(number).map(|m| m as i32);
            parts.strength_rated.push((name.clone(), max));
        }
        let weapon = Weapon {
            attack: name.clone(),
            dice,
            grip,
            finesse: false,
            enhancement,
            masterwork,
            crit_range: crit_range as u32,
            crit_mult: crit_mult as u32,
        };
        let spec = AttackSpec {
            id: None,
            name: name.clone(),
            kind: if ranged { AttackKind::Ranged } else { AttackKind::Melee },
            attack_bonus: 0,
            damage,
            damage_bonus: 0,
            crit_range: crit_range as u32,
            crit_mult: crit_mult as u32,
            range_increment_ft,
            reach_ft: None,
            natural,
            secondary,
            firearm: grip == Grip::Firearm,
            two_handed: grip == Grip::TwoHanded,
            reach_weapon: reach,
            light: false,
            off_hand: false,
            count: 1,
            splash: vec![],
            splash_dc: None,
            standard_action: false,
            lingering: None,
            qualities: if enhancement > 0 { vec!["magic".into()] } else { vec![] },
            reload: None,
            ammunition: None,
            notes: Some(format!("From the Foundry item {item:?}.")),
        };
        if parts.weapons.iter().any(|(w, _)| w.attack == name) {
            r.leave_out(&apath, format!("attack {name:?}"), "a second attack of the same name");
            continue;
        }
        parts.weapons.push((weapon, spec));
    }
    Ok(())
}

fn read_equipment(
    r: &mut Reader<'_>,
    parts: &mut Parts,
    sys: &Value,
    sys_path: &str,
    item: &str,
) -> Result<(), Error> {
    let sub = str_at(r, sys, sys_path, "subType")?.unwrap_or("other");
    if sub != "armor" && sub != "shield" {
        return Ok(());
    }
    let armor = sys.get("armor").unwrap_or(&Value::Null);
    let apath = format!("{sys_path}.armor");
    let value = int_at(r, armor, &apath, "value", 0)? + int_at(r, armor, &apath, "enh", 0)?;
    let max_dex = armor.get("dex").and_then(number).map(|d| d as i32);
    let category = match str_at(r, sys, sys_path, "equipmentSubtype")? {
        Some("mediumArmor") => Some(ArmorCategory::Medium),
        Some("heavyArmor") => Some(ArmorCategory::Heavy),
        Some("lightArmor") => Some(ArmorCategory::Light),
        _ => None,
    };
    let ty = if sub == "armor" { BonusType::Armor } else { BonusType::Shield };
    parts.bonuses.push(ItemBonus {
        max_dex,
        armor: if sub == "armor" { category } else { None },
        ..item_bonus(item, ModTarget::Ac, ty, value as i32)
    });
    Ok(())
}

type Defenses = (Option<DamageReduction>, BTreeMap<String, u32>, Vec<String>);

fn read_defenses(r: &mut Reader<'_>, traits: &Value) -> Result<Defenses, Error> {
    let mut dr = None;
    for (i, entry) in traits
        .pointer("/dr/value")
        .and_then(Value::as_array)
        .map(Vec::as_slice)
        .unwrap_or(&[])
        .iter()
        .enumerate()
    {
        let path = format!("$.system.traits.dr.value[{i}]");
        let amount = int_at(r, entry, &path, "amount", 0)?;
        let bypass: Vec<String> = entry
            .get("types")
            .and_then(Value::as_array)
            .map(|t| {
                t.iter().filter_map(Value::as_str).filter(|s| !s.is_empty()).map(str::to_lowercase).collect()
            })
            .unwrap_or_default();
        if amount > 0 && dr.is_none() {
            dr = Some(DamageReduction { amount: amount as u32, bypass, bypass_any: vec![] });
        } else if amount > 0 {
            r.leave_out(path, format!("DR {amount}"), "a second damage reduction: the format holds one");
        }
    }
    let mut resistances = BTreeMap::new();
    for (i, entry) in traits
        .pointer("/eres/value")
        .and_then(Value::as_array)
        .map(Vec::as_slice)
        .unwrap_or(&[])
        .iter()
        .enumerate()
    {
        let path = format!("$.system.traits.eres.value[{i}]");
        let amount = int_at(r, entry, &path, "amount", 0)?;
        for t in entry.get("types").and_then(Value::as_array).map(Vec::as_slice).unwrap_or(&[]) {
            match t
                .as_str()
                .and_then(damage_type)
                .filter(|t| ["acid", "cold", "electricity", "fire", "sonic"].contains(t))
            {
                Some(t) if amount > 0 => {
                    resistances.insert(t.to_string(), amount as u32);
                }
                _ => r.leave_out(&path, format!("resistance {t}"), "not an energy type"),
            }
        }
    }
    let mut immunities = Vec::new();
    for t in traits.pointer("/di/value").and_then(Value::as_array).map(Vec::as_slice).unwrap_or(&[]) {
        match t.as_str().and_then(damage_type) {
            Some(t) => immunities.push(t.to_string()),
            None => r.leave_out(
                "$.system.traits.di",
                format!("immunity {t}"),
                "not a damage type the engine knows",
            ),
        }
    }
    Ok((dr, resistances, immunities))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn weapon_dice_scale_with_the_wielders_size() {
        assert_eq!(weapon_dice("sizeRoll(1, 8, @size)", Size::Medium).as_deref(), Some("1d8"));
        assert_eq!(weapon_dice("sizeRoll(1, 8, @size)", Size::Small).as_deref(), Some("1d6"));
        assert_eq!(weapon_dice("sizeRoll(1, 8, @size)", Size::Large).as_deref(), Some("2d6"));
        assert_eq!(weapon_dice("sizeRoll(1, 6, @size)", Size::Large).as_deref(), Some("1d8"));
        assert_eq!(weapon_dice("sizeRoll(2, 6, @size)", Size::Large).as_deref(), Some("3d6"));
        assert_eq!(weapon_dice("sizeRoll(1, 4, @size)", Size::Tiny).as_deref(), Some("1d2"));
        assert_eq!(weapon_dice("1d6", Size::Large).as_deref(), Some("1d6"));
        assert_eq!(weapon_dice("@abilities.str.mod", Size::Medium), None);
    }

    #[test]
    fn class_features_are_looked_up_with_their_family() {
        let witch: BTreeSet<String> = ["witch".to_string()].into();
        let names = catalogue_names("Evil Eye (Su)", true, &witch);
        assert_eq!(names, ["Evil Eye", "Hex (Evil Eye)"]);
        assert_eq!(catalogue_names("Evil Eye", false, &witch), ["Evil Eye"], "a feat is not a hex");
        let magus: BTreeSet<String> = ["magus".to_string()].into();
        assert_eq!(
            catalogue_names("Arcane Accuracy", true, &magus),
            ["Arcane Accuracy", "Magus Arcana (Arcane Accuracy)"]
        );
        assert_eq!(catalogue_names("Nimble", true, &magus), ["Nimble"], "only the arcana are arcana");
    }
}
