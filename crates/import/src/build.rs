//! A character build: the base values a sheet is computed from (race,
//! ability score generation, class levels, hit points, equipment bonuses,
//! weapons, casting), as written in `data/builds/*.json` or read from a
//! Foundry sheet, and the printed numbers derived from it.
//!
//! The derivation is the engine's own ([`pf1e_engine::feats::derive`]): this
//! module turns class levels into base attack bonus, base saves and hit dice
//! (from [`crate::classes`]), equipment into typed bonuses, and adds what the
//! engine does not compute (speed, spell slots, resource pools).

use std::collections::BTreeMap;

use pf1e_engine::dice::ability_modifier;
use pf1e_engine::effects::{BonusType, ModTarget, Modifier};
use pf1e_engine::feats::ResolvedFeatures;
use pf1e_engine::feats::derive::{BaseStatistics, BaseWeapon, DerivedStatistics, derive};
use pf1e_engine::model::{Abilities, AttackKind, CastingAbility, Saves, Size};
use serde::{Deserialize, Serialize};

use crate::classes::{ClassEntry, ClassKind, ClassTable, SaveKind, bonus_spells};

pub use pf1e_engine::spell::model::Ability;

/// Race or species: size, speeds, ability adjustments, natural armor.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Race {
    /// Name (`human`, `strix`, `horse`).
    pub name: String,
    /// Size category.
    pub size: Size,
    /// Creature type (`humanoid`, `outsider`, `animal`).
    pub creature_type: String,
    /// Base land speed.
    pub speed_land_ft: u32,
    /// Fly speed, if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub speed_fly_ft: Option<u32>,
    /// Racial ability adjustments (a human's or half-elf's +2 where the build puts it).
    #[serde(default)]
    pub abilities: BTreeMap<Ability, i32>,
    /// Natural armor bonus of the species.
    #[serde(default)]
    pub natural_armor: i32,
}

/// How the ability scores were generated.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum AbilityMethod {
    /// Point buy (CRB Table 1-1): every base score 7 to 18, their costs add up to `points`.
    PointBuy,
    /// The species' printed scores (an animal companion or a familiar).
    Species,
    /// Whatever the sheet says (an imported sheet): no check.
    AsGiven,
}

/// Ability scores from their parts.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AbilityBuild {
    /// How the base scores were generated.
    pub method: AbilityMethod,
    /// Point-buy budget (15 standard, 20 high fantasy…), with `point_buy`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub points: Option<i32>,
    /// Base scores, before race and levels.
    pub base: BTreeMap<Ability, i32>,
    /// One point per entry: the increases of every fourth Hit Die (characters)
    /// or of the companion table.
    #[serde(default)]
    pub increases: Vec<Ability>,
    /// Other permanent changes (an animal companion's level advancement).
    #[serde(default)]
    pub advancement: BTreeMap<Ability, i32>,
    /// Enhancement bonuses of worn items (a belt of giant strength).
    #[serde(default)]
    pub enhancement: BTreeMap<Ability, i32>,
}

/// Levels in one class.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ClassLevels {
    /// Class name, as in `data/classes.json` (`cleric`, `magical beast`).
    pub class: String,
    /// Levels (Hit Dice) in it.
    pub level: u32,
    /// Archetype, for the reader (`pistolero`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub archetype: Option<String>,
    /// The progression of a class `data/classes.json` does not list (an
    /// imported sheet's prestige or homebrew class).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub progression: Option<Progression>,
}

/// A class's progression written out.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Progression {
    /// Hit die.
    pub hit_die: u32,
    /// Base attack bonus progression.
    pub bab: crate::classes::BabProgression,
    /// Good saves.
    pub good_saves: Vec<SaveKind>,
    /// A prestige class (its own save formulas).
    #[serde(default)]
    pub prestige: bool,
}

/// A creature whose statistics follow its master's level.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
pub enum Companion {
    /// An animal companion or a cavalier's mount (CRB "Animal Companions"):
    /// Hit Dice, natural armor and Strength/Dexterity from the table at the
    /// master's effective druid level; animal progressions.
    AnimalCompanion {
        /// The master's effective druid level.
        master_level: u32,
        /// The master's file (`esha.json`), for the reader.
        master: String,
    },
    /// A familiar (CRB "Familiars"): the master's base attack bonus and
    /// better base saves, half the master's hit points, natural armor and
    /// Intelligence from the table.
    Familiar {
        /// The master's file (`nairda.json`); its build gives the numbers.
        master: String,
        /// The master's class level for the table.
        master_level: u32,
        /// The species' own Hit Dice (a raven: 1).
        hit_dice: u32,
        /// The species' racial class (`animal`).
        creature_class: String,
    },
}

/// How hit points were rolled.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum HitPointMethod {
    /// Maximum at the first Hit Die of the first class, then half the die
    /// plus one per Hit Die (the Pathfinder Society rule).
    MaxThenFixed,
    /// The average of every die, rounded down once (Bestiary creatures,
    /// animal companions).
    Average,
    /// Half the master's hit points, rounded down (a familiar).
    HalfMaster,
    /// Each class's rolled total as the sheet records it (an imported sheet).
    Recorded,
}

/// Hit points.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct HitPoints {
    /// How the dice were counted.
    pub method: HitPointMethod,
    /// Favored class bonus taken as hit points (one per favored-class level at most).
    #[serde(default)]
    pub favored_class: i32,
    /// The dice totals per class, with `recorded`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub recorded: Vec<i32>,
    /// Hit points from items and effects (an imported sheet's `mhp` changes).
    #[serde(default)]
    pub bonus: i32,
}

/// Armor weight class, which slows a wearer.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ArmorCategory {
    /// Light armor: no speed change.
    Light,
    /// Medium armor or barding: slower.
    Medium,
    /// Heavy armor or barding: slower.
    Heavy,
}

/// A bonus from an item, the race or a class feature on a printed number.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ItemBonus {
    /// Where it comes from (`+1 breastplate`, `cloak of resistance +1`).
    pub item: String,
    /// What it changes (`ac`, `saves`, `fort`, `initiative`, `attack`…).
    pub target: ModTarget,
    /// Bonus type.
    #[serde(rename = "type")]
    pub bonus_type: BonusType,
    /// Amount.
    pub value: i32,
    /// Only this weapon (`longsword`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub weapon: Option<String>,
    /// Maximum Dexterity bonus of armor or a shield.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_dex: Option<i32>,
    /// Armor category, when it is armor (medium and heavy slow the wearer).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub armor: Option<ArmorCategory>,
}

/// How a weapon is held, which sets the share of Strength to damage.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Grip {
    /// A light weapon (Weapon Finesse applies), Strength to damage.
    Light,
    /// A one-handed weapon, Strength to damage.
    OneHanded,
    /// Two hands: 1½ × Strength.
    TwoHanded,
    /// A projectile weapon: no Strength to damage (a composite bow's rating is an item bonus).
    Projectile,
    /// A firearm: no Strength to damage, Dexterity to hit.
    Firearm,
    /// A thrown weapon: Dexterity to hit, Strength to damage.
    Thrown,
    /// A primary natural attack, Strength to damage (Weapon Finesse applies).
    Natural,
    /// A creature's only natural attack: 1½ × Strength.
    NaturalOnly,
    /// A secondary natural attack: −5 (−2 with Multiattack), ½ Strength.
    NaturalSecondary,
    /// An alchemist's bomb (APG "Bomb"): a ranged touch attack, Dexterity to
    /// hit, no Strength; the alchemist's Intelligence to damage, its dice by
    /// alchemist level.
    Bomb,
}

/// One weapon or natural attack of the build.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Weapon {
    /// The attack's id (or name) in the combatant file.
    pub attack: String,
    /// Weapon dice at the wielder's size (`1d8`).
    pub dice: String,
    /// How it is held.
    pub grip: Grip,
    /// Finesse weapon beyond the light ones (rapier, whip…).
    #[serde(default)]
    pub finesse: bool,
    /// Enhancement bonus.
    #[serde(default)]
    pub enhancement: i32,
    /// Masterwork (+1 on attack rolls when it has no enhancement bonus).
    #[serde(default)]
    pub masterwork: bool,
    /// Lowest natural roll that threatens, before Improved Critical.
    #[serde(default = "twenty")]
    pub crit_range: u32,
    /// Critical multiplier.
    #[serde(default = "two")]
    pub crit_mult: u32,
}

/// The most levels one class entry may have: class tables stop at 20, racial
/// Hit Dice go higher (a great wyrm has 30-odd); this only keeps sums bounded.
const MAX_CLASS_LEVEL: u32 = 100;

/// Bound on a recorded hit dice total and on bonus hit points, so sums stay exact.
const MAX_HP_PART: i32 = 10_000;

const fn twenty() -> u32 {
    20
}

const fn two() -> u32 {
    2
}

/// What a domain slot becomes in the per-encounter budget.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum DomainSlots {
    /// Left out of the combatant file.
    LeftOut,
    /// Counted as ordinary slots (a simplification: any spell may fill them).
    Counted,
    /// The combatant's `domain_slots`, one per spell level, each filled only
    /// with a spell of `domains` (CRB "Cleric: Domains").
    Restricted,
}

/// Spellcasting.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CastingBuild {
    /// The casting class (its spell list, ability and table).
    pub class: String,
    /// Domain slots (clerics).
    #[serde(default = "left_out")]
    pub domain_slots: DomainSlots,
    /// The cleric's domains (`healing`, `sun`), as `data/classes.json` lists them.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub domains: Vec<String>,
}

const fn left_out() -> DomainSlots {
    DomainSlots::LeftOut
}

/// A character, companion or familiar from its base values.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Build {
    /// The combatant file this build is for (`oni.json`).
    pub combatant: String,
    /// How it was built and why (a reader's summary).
    pub source: String,
    /// Race or species.
    pub race: Race,
    /// Ability scores.
    pub abilities: AbilityBuild,
    /// Class levels (empty for a companion or familiar, whose `companion` says).
    #[serde(default)]
    pub classes: Vec<ClassLevels>,
    /// A companion or familiar.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub companion: Option<Companion>,
    /// Hit points.
    pub hit_points: HitPoints,
    /// Item and racial bonuses on printed numbers.
    #[serde(default)]
    pub bonuses: Vec<ItemBonus>,
    /// Weapons and natural attacks, one per attack of the combatant file.
    #[serde(default)]
    pub weapons: Vec<Weapon>,
    /// Spellcasting.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub casting: Option<CastingBuild>,
}

/// What the master of a familiar contributes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MasterNumbers {
    /// Base attack bonus.
    pub bab: i32,
    /// Base saves (before abilities).
    pub base_saves: Saves,
    /// Maximum hit points.
    pub hp_max: i32,
    /// Character level.
    pub level: u32,
}

/// Why a build cannot be derived.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{path}: {message}")]
pub struct BuildError {
    /// JSON path in the build (`$.classes[0].class`).
    pub path: String,
    /// What is wrong.
    pub message: String,
}

fn fail<T>(path: impl Into<String>, message: impl Into<String>) -> Result<T, BuildError> {
    Err(BuildError { path: path.into(), message: message.into() })
}

/// Everything derived from a build.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Derived {
    /// Final ability scores.
    pub abilities: Abilities,
    /// The worn items' enhancement bonuses the final scores hold (the
    /// combatant's `ability_enhancements`).
    pub ability_enhancements: BTreeMap<Ability, i32>,
    /// Size.
    pub size: Size,
    /// Character level or Hit Dice (the combatant's `level`).
    pub level: u32,
    /// Base attack bonus.
    pub bab: i32,
    /// Base saves, before abilities and bonuses.
    pub base_saves: Saves,
    /// The printed numbers (AC, saves, initiative, hit points, attacks, CMB, CMD).
    pub stats: DerivedStatistics,
    /// Land speed after armor.
    pub speed_land_ft: u32,
    /// Fly speed.
    pub speed_fly_ft: Option<u32>,
    /// Casting: its ability, class (the spell list), caster level and per-encounter slots.
    pub casting: Option<DerivedCasting>,
    /// Resource pools of the class features.
    pub resources: BTreeMap<String, u32>,
    /// The base weapons, in build order (their names are the attack ids).
    pub weapons: Vec<Weapon>,
    /// The AC bonus of the build's shield (its `shield` bonus on `ac`), if it has one.
    pub shield_ac: Option<i32>,
    /// An alchemist's bomb numbers, when it has a bomb weapon.
    pub bomb: Option<BombNumbers>,
}

/// An alchemist's bombs (APG "Alchemist", "Bomb", "Throw Anything").
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BombNumbers {
    /// The bomb weapon's attack id.
    pub attack: String,
    /// Fire dice: 1d6, +1d6 at every odd level after the first.
    pub dice: String,
    /// The splash: the bomb's minimum damage (one per die + Intelligence modifier).
    pub splash: i32,
    /// Reflex DC for half the splash: 10 + ½ alchemist level + Intelligence modifier.
    pub dc: i32,
    /// Bombs a day: alchemist level + Intelligence modifier.
    pub per_day: u32,
}

/// The fire dice of an alchemist's bomb at `level`: 1d6 at 1st, +1d6 at
/// every odd level after (APG "Bomb").
pub fn bomb_dice(level: u32) -> String {
    format!("{}d6", level.max(1).div_ceil(2))
}

/// An alchemist's bomb numbers at alchemist `level` with Intelligence modifier `int`.
pub fn bomb_numbers(attack: &str, level: u32, int: i32) -> BombNumbers {
    let dice = level.max(1).div_ceil(2);
    BombNumbers {
        attack: attack.to_string(),
        dice: bomb_dice(level),
        splash: dice as i32 + int,
        dc: 10 + level as i32 / 2 + int,
        per_day: (level as i32 + int).max(0) as u32,
    }
}

/// Derived spellcasting.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DerivedCasting {
    /// The casting class (`cleric`), whose spell list applies.
    pub class: String,
    /// Ability that sets DCs.
    pub ability: CastingAbility,
    /// Caster level (the casting class's level).
    pub caster_level: u32,
    /// Spells per spell level (`"1"` → 4): class table plus bonus spells.
    pub slots: BTreeMap<String, u32>,
    /// Domain slots left out of `slots` (one per level a cleric can cast).
    pub domain_slots_left_out: u32,
    /// Domain slots per spell level (`"1"` → 1), restricted to domain spells.
    pub domain_slots: BTreeMap<String, u32>,
    /// The spells of its domains, lower case, with their domain spell level.
    pub domain_spells: BTreeMap<String, u32>,
    /// The highest spell level it can cast.
    pub max_spell_level: u32,
}

impl DerivedCasting {
    /// The save DC of a spell of `level`: 10 + level + casting modifier.
    pub fn dc(&self, level: u32, abilities: &Abilities) -> i32 {
        10 + level as i32 + ability_modifier(score(abilities, Ability::of_casting(self.ability)))
    }
}

/// A final ability score.
pub fn score(a: &Abilities, ability: Ability) -> i32 {
    match ability {
        Ability::Str => a.str_score,
        Ability::Dex => a.dex_score,
        Ability::Con => a.con_score.unwrap_or(0),
        Ability::Int => a.int_score.unwrap_or(0),
        Ability::Wis => a.wis_score,
        Ability::Cha => a.cha_score,
    }
}

/// The point-buy cost of a base score (CRB Table 1-1), if it can be bought.
pub const fn point_cost(score: i32) -> Option<i32> {
    Some(match score {
        7 => -4,
        8 => -2,
        9 => -1,
        10 => 0,
        11 => 1,
        12 => 2,
        13 => 3,
        14 => 5,
        15 => 7,
        16 => 10,
        17 => 13,
        18 => 17,
        _ => return None,
    })
}

/// Land speed in medium or heavy armor (CRB Table 6-6 and barding: 20 → 15,
/// 30 → 20, 40 → 30, 50 → 35, 60 → 40): two thirds, rounded up to 5 ft.
pub const fn armored_speed(base: u32) -> u32 {
    (base * 2).div_ceil(15) * 5
}

fn bonus_modifier(b: &ItemBonus) -> Modifier {
    Modifier { weapon: b.weapon.clone(), ..Modifier::new(b.target, b.value, b.bonus_type) }
}

impl Build {
    /// The total Hit Dice of its classes.
    fn class_hit_dice(&self) -> u32 {
        self.classes.iter().map(|c| c.level).sum()
    }

    fn class_entries(&self, table: &ClassTable) -> Result<Vec<(ClassEntry, u32)>, BuildError> {
        self.classes
            .iter()
            .enumerate()
            .map(|(i, c)| {
                if !(1..=MAX_CLASS_LEVEL).contains(&c.level) {
                    return fail(
                        format!("$.classes[{i}].level"),
                        format!("a class has 1 to {MAX_CLASS_LEVEL} levels"),
                    );
                }
                match (&c.progression, table.get(&c.class)) {
                    (Some(p), _) => {
                        if ![6, 8, 10, 12].contains(&p.hit_die) {
                            return fail(format!("$.classes[{i}].progression.hit_die"), "not a hit die");
                        }
                        let entry = ClassEntry {
                            name: crate::classes::class_key(&c.class),
                            kind: if p.prestige { ClassKind::Prestige } else { ClassKind::Base },
                            hit_die: p.hit_die,
                            bab: p.bab,
                            good_saves: p.good_saves.clone(),
                            casting: None,
                            source: "as written".into(),
                        };
                        Ok((entry, c.level))
                    }
                    (None, Some(entry)) => Ok((entry.clone(), c.level)),
                    (None, None) => fail(
                        format!("$.classes[{i}].class"),
                        format!(
                            "unknown class {:?} (data/classes.json lists {})",
                            c.class,
                            list(table.names())
                        ),
                    ),
                }
            })
            .collect()
    }

    /// The final ability scores; checks the point buy and the number of increases.
    pub fn ability_scores(&self, table: &ClassTable) -> Result<Abilities, BuildError> {
        let a = &self.abilities;
        let mut total = BTreeMap::new();
        for &ability in Ability::ALL {
            let Some(&base) = a.base.get(&ability) else {
                return fail("$.abilities.base", format!("missing: {}", ability.name()));
            };
            total.insert(ability, base);
        }
        match a.method {
            AbilityMethod::PointBuy => {
                let Some(points) = a.points else {
                    return fail("$.abilities.points", "missing: a point buy needs its budget");
                };
                let mut spent = 0;
                for (ability, &base) in &a.base {
                    let Some(cost) = point_cost(base) else {
                        return fail(
                            format!("$.abilities.base.{}", ability.name()),
                            format!("{base} cannot be bought (7 to 18)"),
                        );
                    };
                    spent += cost;
                }
                if spent != points {
                    return fail(
                        "$.abilities.base",
                        format!("the scores cost {spent} points, the budget is {points}"),
                    );
                }
            }
            AbilityMethod::Species | AbilityMethod::AsGiven => {}
        }
        let expected_increases = match (&self.companion, a.method) {
            (_, AbilityMethod::AsGiven) => None,
            (Some(Companion::AnimalCompanion { master_level, .. }), _) => {
                Some(companion_row(table, *master_level)?.ability_increases as usize)
            }
            (Some(Companion::Familiar { .. }), _) => Some(0),
            (None, _) => Some(self.class_hit_dice() as usize / 4),
        };
        if let Some(n) = expected_increases
            && a.increases.len() != n
        {
            return fail(
                "$.abilities.increases",
                format!("{} increases, the level gives {n}", a.increases.len()),
            );
        }
        let add = |total: &mut BTreeMap<Ability, i32>, parts: &BTreeMap<Ability, i32>| {
            for (ability, v) in parts {
                *total.entry(*ability).or_default() += v;
            }
        };
        add(&mut total, &self.race.abilities);
        add(&mut total, &a.advancement);
        add(&mut total, &a.enhancement);
        for ability in &a.increases {
            *total.entry(*ability).or_default() += 1;
        }
        match &self.companion {
            Some(Companion::AnimalCompanion { master_level, .. }) => {
                let row = companion_row(table, *master_level)?;
                *total.entry(Ability::Str).or_default() += row.str_dex;
                *total.entry(Ability::Dex).or_default() += row.str_dex;
            }
            Some(Companion::Familiar { master_level, .. }) => {
                let Some(row) = table.familiar(*master_level) else {
                    return fail("$.companion.master_level", "the familiar table covers levels 1 to 20");
                };
                total.insert(Ability::Int, row.int_score);
            }
            None => {}
        }
        let get = |ability| total.get(&ability).copied().unwrap_or(10);
        Ok(Abilities {
            str_score: get(Ability::Str),
            dex_score: get(Ability::Dex),
            con_score: Some(get(Ability::Con)),
            int_score: Some(get(Ability::Int)),
            wis_score: get(Ability::Wis),
            cha_score: get(Ability::Cha),
        })
    }

    /// Derives the printed numbers. `features` are the combatant's resolved
    /// features (their final-value modifiers count); `master` is needed for a familiar.
    pub fn derive(
        &self,
        table: &ClassTable,
        features: &ResolvedFeatures,
        master: Option<&MasterNumbers>,
    ) -> Result<Derived, BuildError> {
        let abilities = self.ability_scores(table)?;
        let entries = self.class_entries(table)?;
        let con_mod = abilities.con_score.map_or(0, ability_modifier);

        // Base attack bonus, base saves, Hit Dice and the dice's hit points.
        let (bab, base_saves, hit_dice, die_hp, level) = match &self.companion {
            None => {
                if entries.is_empty() {
                    return fail("$.classes", "a character needs a class");
                }
                let bab = entries.iter().map(|(c, l)| c.bab.at(*l)).sum();
                let save = |k| entries.iter().map(|(c, l)| c.base_save(k, *l)).sum();
                let saves = Saves {
                    fort: save(SaveKind::Fort),
                    reflex: save(SaveKind::Ref),
                    will: save(SaveKind::Will),
                };
                let hd = self.class_hit_dice();
                let dice: Vec<u32> =
                    entries.iter().flat_map(|(c, l)| std::iter::repeat_n(c.hit_die, *l as usize)).collect();
                let hp = self.dice_hit_points(&dice)?;
                (bab, saves, hd, hp, hd)
            }
            Some(Companion::AnimalCompanion { master_level, .. }) => {
                let row = companion_row(table, *master_level)?;
                let animal = class(table, "animal")?;
                let saves = Saves {
                    fort: animal.base_save(SaveKind::Fort, row.hit_dice),
                    reflex: animal.base_save(SaveKind::Ref, row.hit_dice),
                    will: animal.base_save(SaveKind::Will, row.hit_dice),
                };
                let dice = vec![animal.hit_die; row.hit_dice as usize];
                let hp = self.dice_hit_points(&dice)?;
                (animal.bab.at(row.hit_dice), saves, row.hit_dice, hp, row.hit_dice)
            }
            Some(Companion::Familiar { hit_dice, creature_class, master_level, .. }) => {
                let Some(m) = master else {
                    return fail("$.companion", "a familiar's numbers need its master's build");
                };
                if m.level != *master_level {
                    return fail(
                        "$.companion.master_level",
                        format!("{master_level}, but the master is level {}", m.level),
                    );
                }
                if self.hit_points.method != HitPointMethod::HalfMaster {
                    return fail(
                        "$.hit_points.method",
                        "a familiar has half its master's hit points: half_master",
                    );
                }
                let species = class(table, creature_class)?;
                let own = |k| species.base_save(k, *hit_dice);
                let saves = Saves {
                    fort: own(SaveKind::Fort).max(m.base_saves.fort),
                    reflex: own(SaveKind::Ref).max(m.base_saves.reflex),
                    will: own(SaveKind::Will).max(m.base_saves.will),
                };
                // derive() adds Constitution per Hit Die: take it back out of half the master's.
                let hd = (*hit_dice).max(m.level);
                (m.bab, saves, hd, m.hp_max / 2 - con_mod * hd as i32, hd)
            }
        };

        let mut bonuses: Vec<Modifier> = self.bonuses.iter().map(bonus_modifier).collect();
        let natural = self.race.natural_armor
            + match &self.companion {
                Some(Companion::AnimalCompanion { master_level, .. }) => {
                    companion_row(table, *master_level)?.natural_armor
                }
                Some(Companion::Familiar { master_level, .. }) => {
                    table.familiar(*master_level).map_or(0, |r| r.natural_armor)
                }
                None => 0,
            };
        if natural != 0 {
            bonuses.push(bonus_modifier(&ItemBonus {
                item: "natural armor".into(),
                target: ModTarget::Ac,
                bonus_type: BonusType::NaturalArmor,
                value: natural,
                weapon: None,
                max_dex: None,
                armor: None,
            }));
        }
        let max_dex = self.bonuses.iter().filter_map(|b| b.max_dex).min();
        let mut weapons = Vec::with_capacity(self.weapons.len());
        for (i, w) in self.weapons.iter().enumerate() {
            if w.masterwork && w.enhancement == 0 {
                bonuses.push(
                    Modifier::new(ModTarget::Attack, 1, BonusType::Enhancement).on_weapon(w.attack.clone()),
                );
            }
            if pf1e_engine::dice::DiceExpr::parse(&w.dice).is_err() {
                return fail(format!("$.weapons[{i}].dice"), format!("invalid dice {:?}", w.dice));
            }
            // A monk's unarmed strike deals the damage of its level and size (CRB Table 3-10).
            if let Some((_, l)) = entries.iter().find(|(c, _)| c.name == "monk")
                && w.attack.to_ascii_lowercase().contains("unarmed strike")
                && let Some(dice) = pf1e_engine::feats::monk_unarmed_damage(*l, self.race.size)
                && w.dice != dice
            {
                return fail(
                    format!("$.weapons[{i}].dice"),
                    format!(
                        "a {:?} monk {l}'s unarmed strike deals {dice}, not {:?}",
                        self.race.size, w.dice
                    ),
                );
            }
            weapons.push(base_weapon(w));
        }
        // Bombs (APG "Alchemist"): the dice of the alchemist level, the
        // Intelligence modifier to damage (Throw Anything's alchemist rider:
        // "adds his Intelligence modifier to damage done with splash
        // weapons"), the feat's +1 circumstance bonus on the attack.
        let mut bomb = None;
        for (i, w) in self.weapons.iter().enumerate().filter(|(_, w)| w.grip == Grip::Bomb) {
            let Some((_, l)) = entries.iter().find(|(c, _)| c.name == "alchemist") else {
                return fail(format!("$.weapons[{i}].grip"), "a bomb needs alchemist levels");
            };
            let int = ability_modifier(score(&abilities, Ability::Int));
            let numbers = bomb_numbers(&w.attack, *l, int);
            if w.dice != numbers.dice {
                return fail(
                    format!("$.weapons[{i}].dice"),
                    format!("an alchemist {l}'s bomb deals {}, not {:?}", numbers.dice, w.dice),
                );
            }
            let on_bomb = |target, value, bonus_type| {
                Modifier::new(target, value, bonus_type).on_weapon(w.attack.clone())
            };
            bonuses.push(on_bomb(ModTarget::Damage, int, BonusType::Untyped));
            if features.features.iter().any(|f| f.entry.eq_ignore_ascii_case("Throw Anything")) {
                bonuses.push(on_bomb(ModTarget::Attack, 1, BonusType::Circumstance));
            }
            bomb = Some(numbers);
        }
        // Divine grace (CRB "Paladin", 2nd level): the Charisma bonus, if any, on every save.
        let cha = ability_modifier(score(&abilities, Ability::Cha));
        if cha > 0 && entries.iter().any(|(c, l)| c.name == "paladin" && *l >= 2) {
            bonuses.push(Modifier::new(ModTarget::Saves, cha, BonusType::Untyped));
        }
        // Monk (CRB "Monk"): the AC bonus (Wisdom bonus + 1 per four levels, to
        // AC and CMD) without armor or shield; maneuver training from 3rd
        // level (the monk level in place of the monk's base attack bonus in CMB).
        let unarmored = !self.bonuses.iter().any(|b| b.armor.is_some() || b.bonus_type == BonusType::Shield);
        if let Some((monk, l)) = entries.iter().find(|(c, _)| c.name == "monk") {
            let untyped = |target, value| Modifier::new(target, value, BonusType::Untyped);
            let ac_bonus = ability_modifier(score(&abilities, Ability::Wis)).max(0) + *l as i32 / 4;
            if unarmored && ac_bonus > 0 {
                bonuses.push(untyped(ModTarget::Ac, ac_bonus));
                bonuses.push(untyped(ModTarget::Cmd, ac_bonus));
            }
            if *l >= 3 && *l as i32 > monk.bab.at(*l) {
                bonuses.push(untyped(ModTarget::Cmb, *l as i32 - monk.bab.at(*l)));
            }
        }
        if !(0..=level as i32).contains(&self.hit_points.favored_class) {
            return fail(
                "$.hit_points.favored_class",
                format!("at most one favored class hit point per level (0 to {level})"),
            );
        }
        if !(-MAX_HP_PART..=MAX_HP_PART).contains(&self.hit_points.bonus) {
            return fail("$.hit_points.bonus", format!("must be between -{MAX_HP_PART} and {MAX_HP_PART}"));
        }
        let base = BaseStatistics {
            abilities: abilities.clone(),
            size: self.race.size,
            bab,
            hit_dice,
            hit_die_hp: die_hp + self.hit_points.favored_class + self.hit_points.bonus,
            base_saves,
            bonuses,
            max_dex,
            weapons,
        };
        let stats = derive(&base, features);

        let slowed = self
            .bonuses
            .iter()
            .any(|b| matches!(b.armor, Some(ArmorCategory::Medium | ArmorCategory::Heavy)));
        // Fast movement (CRB "Barbarian"): +10 ft out of heavy armor, before the armor's reduction.
        let heavy = self.bonuses.iter().any(|b| b.armor == Some(ArmorCategory::Heavy));
        let barbarian = if !heavy && entries.iter().any(|(c, _)| c.name == "barbarian") { 10 } else { 0 };
        // A monk's (CRB "Monk"): +10 ft per three monk levels, without armor.
        let armored = self.bonuses.iter().any(|b| b.armor.is_some());
        let monk = entries.iter().find(|(c, _)| c.name == "monk").map_or(0, |(_, l)| 10 * (*l / 3));
        let fast = barbarian + if armored { 0 } else { monk };
        let base_speed = self.race.speed_land_ft + fast;
        let speed_land_ft = if slowed { armored_speed(base_speed) } else { base_speed };
        let casting = self.casting(table, &entries, &abilities)?;
        let resources = resources(&entries, &abilities, features);
        Ok(Derived {
            abilities,
            ability_enhancements: self
                .abilities
                .enhancement
                .iter()
                .filter(|&(_, &v)| v != 0)
                .map(|(&a, &v)| (a, v))
                .collect(),
            size: self.race.size,
            level,
            bab,
            base_saves,
            stats,
            speed_land_ft,
            speed_fly_ft: self.race.speed_fly_ft,
            casting,
            resources,
            weapons: self.weapons.clone(),
            shield_ac: self
                .bonuses
                .iter()
                .filter(|b| b.target == ModTarget::Ac && b.bonus_type == BonusType::Shield)
                .map(|b| b.value)
                .max(),
            bomb,
        })
    }

    /// Hit points of the dice (before Constitution, favored class and feats).
    fn dice_hit_points(&self, dice: &[u32]) -> Result<i32, BuildError> {
        Ok(match self.hit_points.method {
            HitPointMethod::MaxThenFixed => {
                dice.iter().enumerate().map(|(i, &d)| if i == 0 { d as i32 } else { d as i32 / 2 + 1 }).sum()
            }
            HitPointMethod::Average => dice.iter().map(|&d| d as i32 + 1).sum::<i32>() / 2,
            HitPointMethod::Recorded => {
                if self.hit_points.recorded.len() != self.classes.len() {
                    return fail("$.hit_points.recorded", "one total per class");
                }
                if let Some(i) = self.hit_points.recorded.iter().position(|r| !(0..=MAX_HP_PART).contains(r))
                {
                    return fail(
                        format!("$.hit_points.recorded[{i}]"),
                        format!("a class's hit dice total must be between 0 and {MAX_HP_PART}"),
                    );
                }
                self.hit_points.recorded.iter().sum()
            }
            HitPointMethod::HalfMaster => {
                return fail("$.hit_points.method", "half_master is for a familiar");
            }
        })
    }

    fn casting(
        &self,
        table: &ClassTable,
        entries: &[(ClassEntry, u32)],
        abilities: &Abilities,
    ) -> Result<Option<DerivedCasting>, BuildError> {
        let Some(cb) = &self.casting else { return Ok(None) };
        let Some((entry, class_level)) =
            entries.iter().find(|(e, _)| e.name == crate::classes::class_key(&cb.class))
        else {
            return fail("$.casting.class", format!("{:?} is not one of the build's classes", cb.class));
        };
        let Some(casting) = entry.casting else {
            return fail("$.casting.class", format!("{} does not cast spells", entry.name));
        };
        let modifier = ability_modifier(score(abilities, Ability::of_casting(casting.ability)));
        let class_level = *class_level;
        let per_day = table.spells_per_day(&casting, class_level);
        let domain = casting.domain_slots;
        if !domain && (cb.domain_slots == DomainSlots::Restricted || !cb.domains.is_empty()) {
            return fail("$.casting", format!("a {} has no domains", entry.name));
        }
        if cb.domain_slots == DomainSlots::Restricted && cb.domains.is_empty() {
            return fail("$.casting.domains", "restricted domain slots need the domains that fill them");
        }
        let mut domain_spells = BTreeMap::new();
        for (i, name) in cb.domains.iter().enumerate() {
            let Some(d) = table.domain(name) else {
                return fail(
                    format!("$.casting.domains[{i}]"),
                    format!(
                        "unknown domain {name:?} (data/classes.json lists {})",
                        list(table.domain_names())
                    ),
                );
            };
            for (level, spell) in d.spells.iter().enumerate() {
                domain_spells.insert(spell.to_lowercase(), level as u32 + 1);
            }
        }
        let mut slots = BTreeMap::new();
        let mut domain_slots = BTreeMap::new();
        let mut left_out = 0;
        for (i, &base) in per_day.iter().enumerate() {
            let level = i as u32 + 1;
            let domain_slot = u32::from(domain);
            let (counted, restricted) = match cb.domain_slots {
                DomainSlots::Counted => (domain_slot, 0),
                DomainSlots::Restricted => (0, domain_slot),
                DomainSlots::LeftOut => (0, 0),
            };
            left_out += domain_slot - counted - restricted;
            if restricted > 0 {
                domain_slots.insert(level.to_string(), restricted);
            }
            let n = base + bonus_spells(modifier, level) + counted;
            if n > 0 {
                slots.insert(level.to_string(), n);
            }
        }
        Ok(Some(DerivedCasting {
            class: entry.name.clone(),
            ability: casting.ability,
            caster_level: class_level,
            slots,
            domain_slots_left_out: left_out,
            domain_slots,
            domain_spells,
            max_spell_level: per_day.len() as u32,
        }))
    }
}

fn list<'a>(names: impl Iterator<Item = &'a str>) -> String {
    names.collect::<Vec<_>>().join(", ")
}

fn class<'t>(table: &'t ClassTable, name: &str) -> Result<&'t ClassEntry, BuildError> {
    table
        .get(name)
        .ok_or_else(|| BuildError { path: "$.companion".into(), message: format!("unknown class {name:?}") })
}

fn companion_row(table: &ClassTable, level: u32) -> Result<&crate::classes::CompanionRow, BuildError> {
    table.companion(level).ok_or_else(|| BuildError {
        path: "$.companion.master_level".into(),
        message: format!("{level}: the animal companion table covers levels 1 to 20"),
    })
}

/// The engine's base weapon of a build weapon.
fn base_weapon(w: &Weapon) -> BaseWeapon {
    let ranged = matches!(w.grip, Grip::Projectile | Grip::Firearm | Grip::Thrown | Grip::Bomb);
    BaseWeapon {
        name: w.attack.clone(),
        kind: if ranged { AttackKind::Ranged } else { AttackKind::Melee },
        ranged,
        enhancement: w.enhancement,
        finesse: w.finesse
            || matches!(w.grip, Grip::Light | Grip::Natural | Grip::NaturalOnly | Grip::NaturalSecondary),
        two_handed: matches!(w.grip, Grip::TwoHanded | Grip::NaturalOnly),
        secondary: w.grip == Grip::NaturalSecondary,
        strength_to_damage: !matches!(w.grip, Grip::Projectile | Grip::Firearm | Grip::Bomb),
        crit_range: w.crit_range,
    }
}

/// The resource pools the classes give (per day, the per-encounter budget).
///
/// - `channel_energy`: cleric, 3 + Charisma modifier (+2 per Extra Channel);
/// - `grit`: gunslinger, Wisdom modifier, at least 1;
/// - `arcane_pool`: magus, half the magus level (at least 1) + Intelligence modifier;
/// - `bardic_rounds`: bard, 4 + Charisma modifier + 2 per bard level after the first
///   (+6 per Extra Performance);
/// - `smite_evil`: paladin, 1 + 1 per three levels after the first;
/// - `lay_on_hands`: paladin from 2nd level, half the paladin level + Charisma modifier;
/// - `rage_rounds`: barbarian, 4 + Constitution modifier + 2 per barbarian level
///   after the first (+6 per Extra Rage);
/// - `ki_pool`: monk from 4th level, half the monk level + Wisdom modifier;
/// - `stunning_fist` (with the feat): the monk level + 1 per four levels of other classes;
/// - `challenge`: cavalier, 1 + 1 per three levels after the first (APG "Challenge");
/// - `tactician`: cavalier, 1 + 1 at 5th level and every five levels after (APG "Tactician");
/// - `rebuke_death` (with the feature Rebuke Death, a Healing domain cleric): 3 + Wisdom modifier.
pub fn resources(
    entries: &[(ClassEntry, u32)],
    abilities: &Abilities,
    features: &ResolvedFeatures,
) -> BTreeMap<String, u32> {
    let m = |a| ability_modifier(score(abilities, a));
    let count =
        |name: &str| features.features.iter().filter(|f| f.entry.eq_ignore_ascii_case(name)).count() as i32;
    let mut out = BTreeMap::new();
    for (entry, level) in entries {
        let l = *level as i32;
        let pool = match entry.name.as_str() {
            "cleric" => Some(("channel_energy", 3 + m(Ability::Cha) + 2 * count("Extra Channel"))),
            "gunslinger" => Some(("grit", m(Ability::Wis).max(1))),
            "magus" => Some(("arcane_pool", (l / 2).max(1) + m(Ability::Int))),
            "bard" => {
                Some(("bardic_rounds", 4 + m(Ability::Cha) + 2 * (l - 1) + 6 * count("Extra Performance")))
            }
            "paladin" => {
                if l >= 2 {
                    out.insert("lay_on_hands".to_string(), (l / 2 + m(Ability::Cha)).max(0) as u32);
                }
                Some(("smite_evil", 1 + (l - 1) / 3))
            }
            "barbarian" => Some(("rage_rounds", 4 + m(Ability::Con) + 2 * (l - 1) + 6 * count("Extra Rage"))),
            // Ki pool from 4th level: half the monk level + Wisdom modifier.
            "monk" => (l >= 4).then(|| ("ki_pool", l / 2 + m(Ability::Wis))),
            "cavalier" => {
                // Tactician: once a day, once more at 5th level and every 5 levels after.
                out.insert("tactician".to_string(), (1 + l / 5) as u32);
                Some(("challenge", 1 + (l - 1) / 3))
            }
            _ => None,
        };
        if let Some((key, n)) = pool {
            out.insert(key.to_string(), n.max(0) as u32);
        }
    }
    // Rebuke Death (CRB "Healing Domain"): 3 + Wisdom modifier a day.
    if count("Rebuke Death") > 0 {
        out.insert("rebuke_death".to_string(), (3 + m(Ability::Wis)).max(0) as u32);
    }
    // Stunning Fist: once a day per four levels; a monk, once per monk level
    // and once more per four levels of its other classes (CRB "Stunning Fist").
    if count("Stunning Fist") > 0 {
        let monk: u32 = entries.iter().filter(|(c, _)| c.name == "monk").map(|(_, l)| *l).sum();
        let other: u32 = entries.iter().filter(|(c, _)| c.name != "monk").map(|(_, l)| *l).sum();
        out.insert("stunning_fist".to_string(), monk + other / 4);
    }
    out
}

/// Parses a build file; `file` names it in errors.
pub fn parse_build(text: &str, file: &str) -> Result<Build, crate::Error> {
    let mut de = serde_json::Deserializer::from_str(text);
    let build = serde_path_to_error::deserialize(&mut de).map_err(|e| crate::Error::Json {
        file: file.into(),
        path: crate::json_path(e.path()),
        message: e.inner().to_string(),
    })?;
    de.end().map_err(|e| crate::Error::Json {
        file: file.into(),
        path: "$".into(),
        message: e.to_string(),
    })?;
    Ok(build)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn armor_slows_as_the_core_rulebook_table_says() {
        assert_eq!([20, 30, 40, 50, 60].map(armored_speed), [15, 20, 30, 35, 40]);
    }

    #[test]
    fn point_buy_costs_follow_table_1_1() {
        let total: i32 = [12, 10, 14, 10, 16, 13].iter().map(|&s| point_cost(s).unwrap()).sum();
        assert_eq!(total, 2 + 5 + 10 + 3);
        assert_eq!(point_cost(19), None);
        assert_eq!(point_cost(6), None);
    }
}
