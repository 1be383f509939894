//! Class progressions (`data/classes.json`, compiled in): hit die, base
//! attack bonus and base saves by level, spells per day, the animal
//! companion and familiar tables.
//!
//! The numbers are the books' tables; the formulas below are how those
//! tables are built (CRB Table 3-1 "Character Advancement": a full base
//! attack bonus is the level, three-quarters and half round down; a good
//! save is 2 + level / 2, a poor one level / 3; multiclass characters add
//! each class's values).

use std::collections::BTreeMap;
use std::sync::OnceLock;

use pf1e_engine::model::CastingAbility;
use serde::{Deserialize, Serialize};

/// The compiled-in table.
const BUILTIN_TEXT: &str = include_str!("../../../data/classes.json");
/// Where it comes from, for error messages.
const BUILTIN_ORIGIN: &str = "data/classes.json";

/// A class table that does not parse.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{origin}: {path}: {message}")]
pub struct ClassTableError {
    /// The file.
    pub origin: String,
    /// JSON path of the problem.
    pub path: String,
    /// What is wrong.
    pub message: String,
}

/// Base attack bonus progression.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum BabProgression {
    /// One per level (fighter).
    Full,
    /// Three per four levels (cleric).
    ThreeQuarters,
    /// One per two levels (wizard).
    Half,
}

impl BabProgression {
    /// The base attack bonus after `levels` levels of this progression.
    pub const fn at(self, levels: u32) -> i32 {
        let l = levels as i32;
        match self {
            BabProgression::Full => l,
            BabProgression::ThreeQuarters => l * 3 / 4,
            BabProgression::Half => l / 2,
        }
    }
}

/// A saving throw.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SaveKind {
    /// Fortitude.
    Fort,
    /// Reflex.
    Ref,
    /// Will.
    Will,
}

/// The base save after `levels` levels: good 2 + level / 2, poor level / 3.
pub const fn base_save(good: bool, levels: u32) -> i32 {
    let l = levels as i32;
    if good { 2 + l / 2 } else { l / 3 }
}

/// What a class is, for the rules that tell them apart.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ClassKind {
    /// A player class (core, base, hybrid, alternate).
    Base,
    /// An NPC class (warrior, expert…).
    Npc,
    /// Racial Hit Dice of a creature type (animal, undead…).
    Racial,
    /// A prestige class: good saves (1 + level) / 2, poor (1 + level) / 3.
    Prestige,
}

/// Prepared or spontaneous casting.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum CastingType {
    /// Prepares spells from a book or a prayer (cleric, wizard, witch, magus).
    Prepared,
    /// Casts any known spell (sorcerer, bard, oracle).
    Spontaneous,
}

/// Spells-per-day progression.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum CastingProgression {
    /// Up to 4th-level spells from 4th level (paladin, ranger).
    Low,
    /// Up to 6th-level spells (bard, magus).
    Med,
    /// Up to 9th-level spells (cleric, wizard).
    High,
}

/// How a class casts.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Casting {
    /// The ability that sets DCs and bonus spells.
    pub ability: CastingAbility,
    /// Prepared or spontaneous.
    #[serde(rename = "type")]
    pub casting_type: CastingType,
    /// Which spells-per-day table.
    pub progression: CastingProgression,
    /// One extra slot per spell level for domain spells (cleric).
    #[serde(default)]
    pub domain_slots: bool,
}

/// One class.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ClassEntry {
    /// Lower-case name (`cleric`, `magical_beast`).
    pub name: String,
    /// Player, NPC or racial.
    pub kind: ClassKind,
    /// Hit die size.
    pub hit_die: u32,
    /// Base attack bonus progression.
    pub bab: BabProgression,
    /// The good saves.
    pub good_saves: Vec<SaveKind>,
    /// Spellcasting, if the class casts.
    #[serde(default)]
    pub casting: Option<Casting>,
    /// The book.
    pub source: String,
}

impl ClassEntry {
    /// The base save of `kind` after `levels` levels of this class.
    pub fn base_save(&self, kind: SaveKind, levels: u32) -> i32 {
        let good = self.good_saves.contains(&kind);
        match self.kind {
            ClassKind::Prestige => {
                let l = levels as i32;
                if good { (1 + l) / 2 } else { (1 + l) / 3 }
            }
            _ => base_save(good, levels),
        }
    }
}

/// One row of the animal companion table (CRB "Animal Companion Base Statistics").
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CompanionRow {
    /// The master's effective druid level.
    pub level: u32,
    /// The companion's Hit Dice (d8, animal progressions).
    pub hit_dice: u32,
    /// Natural armor bonus added to the species' own.
    pub natural_armor: i32,
    /// Added to Strength and Dexterity.
    pub str_dex: i32,
    /// Ability score increases earned so far (one point each).
    pub ability_increases: u32,
}

/// One row of the familiar table (CRB "Familiars").
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FamiliarRow {
    /// The master's class level.
    pub level: u32,
    /// Natural armor adjustment.
    pub natural_armor: i32,
    /// The familiar's Intelligence.
    pub int_score: i32,
}

/// A cleric domain's spells (CRB "Cleric: Domains"): the spell a domain
/// slot of each level, 1st to 9th, may hold.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Domain {
    /// Lower-case name (`healing`).
    pub name: String,
    /// Its spells of levels 1 to 9, in order.
    pub spells: Vec<String>,
    /// The book.
    pub source: String,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Raw {
    #[allow(dead_code)]
    source: String,
    classes: Vec<ClassEntry>,
    spells_per_day: BTreeMap<String, Vec<Vec<u32>>>,
    animal_companion: Vec<CompanionRow>,
    familiar: Vec<FamiliarRow>,
    #[serde(default)]
    domains: Vec<Domain>,
}

/// Every class progression.
#[derive(Clone, Debug)]
pub struct ClassTable {
    classes: BTreeMap<String, ClassEntry>,
    spells_per_day: BTreeMap<String, Vec<Vec<u32>>>,
    animal_companion: Vec<CompanionRow>,
    familiar: Vec<FamiliarRow>,
    domains: BTreeMap<String, Domain>,
}

/// The key of a spells-per-day table.
fn table_key(c: &Casting) -> String {
    let t = match c.casting_type {
        CastingType::Prepared => "prepared",
        CastingType::Spontaneous => "spontaneous",
    };
    let p = match c.progression {
        CastingProgression::Low => "low",
        CastingProgression::Med => "med",
        CastingProgression::High => "high",
    };
    format!("{t}_{p}")
}

/// Lower case, words joined by `_` (`Magical Beast` → `magical_beast`).
pub fn class_key(name: &str) -> String {
    name.split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .collect::<Vec<_>>()
        .join("_")
        .to_lowercase()
}

impl ClassTable {
    /// Parses and checks a table; `origin` names it in errors.
    pub fn parse(text: &str, origin: &str) -> Result<Self, ClassTableError> {
        let fail = |path: String, message: String| ClassTableError { origin: origin.into(), path, message };
        let mut de = serde_json::Deserializer::from_str(text);
        let raw: Raw = serde_path_to_error::deserialize(&mut de)
            .map_err(|e| fail(e.path().to_string(), e.inner().to_string()))?;
        let mut classes = BTreeMap::new();
        for (i, c) in raw.classes.into_iter().enumerate() {
            if ![6, 8, 10, 12].contains(&c.hit_die) {
                return Err(fail(format!("classes[{i}].hit_die"), format!("{} is not a hit die", c.hit_die)));
            }
            if let Some(casting) = &c.casting
                && !raw.spells_per_day.contains_key(&table_key(casting))
            {
                return Err(fail(
                    format!("classes[{i}].casting"),
                    format!("no table {}", table_key(casting)),
                ));
            }
            if let Some(previous) = classes.insert(c.name.clone(), c) {
                return Err(fail(
                    format!("classes[{i}].name"),
                    format!("{:?} is listed twice", previous.name),
                ));
            }
        }
        for (key, rows) in &raw.spells_per_day {
            if rows.len() != 20 {
                return Err(fail(
                    format!("spells_per_day.{key}"),
                    format!("{} levels, expected 20", rows.len()),
                ));
            }
        }
        let ordered = |levels: Vec<u32>| levels.iter().enumerate().all(|(i, &l)| l == i as u32 + 1);
        if !ordered(raw.animal_companion.iter().map(|r| r.level).collect()) {
            return Err(fail("animal_companion".into(), "rows must be levels 1, 2, 3… in order".into()));
        }
        if !ordered(raw.familiar.iter().map(|r| r.level).collect()) {
            return Err(fail("familiar".into(), "rows must be levels 1, 2, 3… in order".into()));
        }
        let mut domains = BTreeMap::new();
        for (i, d) in raw.domains.into_iter().enumerate() {
            if d.spells.len() != 9 {
                return Err(fail(
                    format!("domains[{i}].spells"),
                    format!("{} spells, a domain has one of each level 1 to 9", d.spells.len()),
                ));
            }
            if let Some(previous) = domains.insert(class_key(&d.name), d) {
                return Err(fail(
                    format!("domains[{i}].name"),
                    format!("{:?} is listed twice", previous.name),
                ));
            }
        }
        Ok(Self {
            classes,
            spells_per_day: raw.spells_per_day,
            animal_companion: raw.animal_companion,
            familiar: raw.familiar,
            domains,
        })
    }

    /// The table shipped with pf1e (`data/classes.json`, compiled in).
    pub fn builtin() -> Result<&'static ClassTable, &'static ClassTableError> {
        static BUILTIN: OnceLock<Result<ClassTable, ClassTableError>> = OnceLock::new();
        BUILTIN.get_or_init(|| ClassTable::parse(BUILTIN_TEXT, BUILTIN_ORIGIN)).as_ref()
    }

    /// The class called `name` (any case; spaces or hyphens for `_`).
    pub fn get(&self, name: &str) -> Option<&ClassEntry> {
        self.classes.get(&class_key(name))
    }

    /// Every class name.
    pub fn names(&self) -> impl Iterator<Item = &str> {
        self.classes.keys().map(String::as_str)
    }

    /// Spells per day of spell levels 1, 2… at `class_level` (without bonus
    /// spells; a 0 means "bonus spells only"); empty before the first spell level.
    pub fn spells_per_day(&self, casting: &Casting, class_level: u32) -> &[u32] {
        let rows = self.spells_per_day.get(&table_key(casting));
        let index = class_level.clamp(1, 20) as usize - 1;
        rows.and_then(|r| r.get(index)).map_or(&[], Vec::as_slice)
    }

    /// The animal companion row for an effective druid level.
    pub fn companion(&self, level: u32) -> Option<&CompanionRow> {
        self.animal_companion.get((level as usize).checked_sub(1)?)
    }

    /// The domain called `name` (any case).
    pub fn domain(&self, name: &str) -> Option<&Domain> {
        self.domains.get(&class_key(name))
    }

    /// Every domain name.
    pub fn domain_names(&self) -> impl Iterator<Item = &str> {
        self.domains.keys().map(String::as_str)
    }

    /// The familiar row for a master's class level.
    pub fn familiar(&self, level: u32) -> Option<&FamiliarRow> {
        self.familiar.get((level as usize).checked_sub(1)?)
    }
}

/// Bonus spells of `spell_level` (≥ 1) for a casting ability modifier (CRB
/// Table 1-3 "Ability Modifiers and Bonus Spells").
pub const fn bonus_spells(ability_mod: i32, spell_level: u32) -> u32 {
    let l = spell_level as i32;
    if spell_level == 0 || ability_mod < l { 0 } else { ((ability_mod - l) / 4 + 1) as u32 }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn table() -> &'static ClassTable {
        ClassTable::builtin().expect("data/classes.json")
    }

    #[test]
    fn the_shipped_table_loads_with_the_classes_of_the_campaign() {
        for name in [
            "cleric",
            "witch",
            "magus",
            "bard",
            "gunslinger",
            "fighter",
            "cavalier",
            "animal",
            "Magical Beast",
        ] {
            assert!(table().get(name).is_some(), "{name}");
        }
    }

    #[test]
    fn progressions_follow_the_core_rulebook_table() {
        let cleric = table().get("cleric").unwrap();
        assert_eq!(cleric.bab.at(4), 3);
        assert_eq!(
            (
                cleric.base_save(SaveKind::Fort, 4),
                cleric.base_save(SaveKind::Ref, 4),
                cleric.base_save(SaveKind::Will, 4)
            ),
            (4, 1, 4)
        );
        assert_eq!(table().get("fighter").unwrap().bab.at(7), 7);
        assert_eq!(table().get("witch").unwrap().bab.at(7), 3);
        assert_eq!(table().get("gunslinger").unwrap().base_save(SaveKind::Ref, 1), 2);
    }

    #[test]
    fn spells_per_day_and_bonus_spells_match_the_books() {
        let t = table();
        let slots =
            |class: &str, level| t.spells_per_day(&t.get(class).unwrap().casting.unwrap(), level).to_vec();
        assert_eq!(slots("cleric", 4), vec![3, 2]);
        assert_eq!(slots("witch", 1), vec![1]);
        assert_eq!(slots("magus", 4), vec![3, 1]);
        assert_eq!(slots("bard", 1), vec![1]);
        assert_eq!(slots("sorcerer", 4), vec![6, 3]);
        assert_eq!(slots("paladin", 4), vec![0]);
        assert_eq!(slots("paladin", 3), Vec::<u32>::new());
        assert_eq!(slots("wizard", 20), vec![4; 9]);
        // Int 21 (+5): two bonus 1st-level spells and one of levels 2 to 5; Wis 18 (+4) one of 1 to 4.
        assert_eq!((1..=6).map(|l| bonus_spells(5, l)).collect::<Vec<_>>(), vec![2, 1, 1, 1, 1, 0]);
        assert_eq!(bonus_spells(4, 4), 1);
        assert_eq!(bonus_spells(12, 1), 3);
        assert_eq!(bonus_spells(-1, 1), 0);
    }

    #[test]
    fn companion_and_familiar_rows_are_the_core_rulebook_ones() {
        let row = table().companion(4).unwrap();
        assert_eq!((row.hit_dice, row.natural_armor, row.str_dex, row.ability_increases), (4, 2, 1, 1));
        assert_eq!(table().companion(9).unwrap().ability_increases, 2);
        let fam = table().familiar(4).unwrap();
        assert_eq!((fam.natural_armor, fam.int_score), (2, 7));
        assert_eq!(table().familiar(20).unwrap().int_score, 15);
        assert!(table().companion(21).is_none());
    }

    #[test]
    fn a_broken_table_names_its_place() {
        let e = ClassTable::parse(r#"{"source":"x","classes":[{"name":"x","kind":"base","hit_die":7,"bab":"full","good_saves":[],"source":"x"}],"spells_per_day":{},"animal_companion":[],"familiar":[]}"#, "t.json").unwrap_err();
        assert_eq!(e.to_string(), "t.json: classes[0].hit_die: 7 is not a hit die");
    }
}
