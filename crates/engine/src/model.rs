//! The data model of combatants (monsters and player characters), as read from JSON.
//!
//! Every field of the format is parsed and kept, even those whose rule lives
//! in a later part of the engine. Unknown fields are an error.
//! Validation (`load_combatant`, `Combatant::validate`) lives in `model::validate`.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

pub mod hands;
pub mod items;
pub mod mount;
pub(crate) mod path;
pub mod special;
pub mod validate;

pub use special::{
    BreathShape, EscapeActionName, HitEffect, PhysicalAbility, SaveName, SmiteAgainst, SpecialAbility,
};
pub use validate::{ModelError, load_combatant, parse_combatant};

/// Size categories, smallest first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize, Default)]
pub enum Size {
    /// Fine.
    Fine,
    /// Diminutive.
    Diminutive,
    /// Tiny.
    Tiny,
    /// Small.
    Small,
    /// Medium.
    #[default]
    Medium,
    /// Large.
    Large,
    /// Huge.
    Huge,
    /// Gargantuan.
    Gargantuan,
    /// Colossal.
    Colossal,
}

impl Size {
    /// The size modifier to attack rolls and AC (CRB Table 8-1: Fine +8 …
    /// Medium 0 … Colossal −8).
    pub const fn modifier(self) -> i32 {
        match self {
            Size::Fine => 8,
            Size::Diminutive => 4,
            Size::Tiny => 2,
            Size::Small => 1,
            Size::Medium => 0,
            Size::Large => -1,
            Size::Huge => -2,
            Size::Gargantuan => -4,
            Size::Colossal => -8,
        }
    }

    /// This size moved by `steps` categories, within Fine–Colossal.
    pub const fn shifted(self, steps: i32) -> Size {
        const ALL: [Size; 9] = [
            Size::Fine,
            Size::Diminutive,
            Size::Tiny,
            Size::Small,
            Size::Medium,
            Size::Large,
            Size::Huge,
            Size::Gargantuan,
            Size::Colossal,
        ];
        let k = self as i32 + steps;
        ALL[if k < 0 {
            0
        } else if k > 8 {
            8
        } else {
            k as usize
        }]
    }

    /// The special size modifier of CMB and CMD (CRB "Combat Maneuvers":
    /// Fine −8 … Medium 0 … Colossal +8), the opposite of `modifier`.
    pub const fn special_modifier(self) -> i32 {
        -self.modifier()
    }
}

/// The six ability scores. Constitution and Intelligence may be null
/// (undead and constructs have no Constitution; mindless creatures no Intelligence).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Abilities {
    /// Strength score.
    pub str_score: i32,
    /// Dexterity score.
    pub dex_score: i32,
    /// Constitution score, `null` for creatures without one.
    pub con_score: Option<i32>,
    /// Intelligence score, `null` for mindless creatures.
    pub int_score: Option<i32>,
    /// Wisdom score.
    pub wis_score: i32,
    /// Charisma score.
    pub cha_score: i32,
}

/// Armor class: final values, size modifier already included.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ArmorClass {
    /// Normal AC.
    pub total: i32,
    /// Touch AC.
    pub touch: i32,
    /// Flat-footed AC.
    pub flat_footed: i32,
}

/// Saving throw bonuses.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Saves {
    /// Fortitude.
    pub fort: i32,
    /// Reflex.
    #[serde(rename = "ref")]
    pub reflex: i32,
    /// Will.
    pub will: i32,
}

/// What kind of attack an attack entry makes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum AttackKind {
    /// A melee weapon or natural attack.
    Melee,
    /// A ranged weapon.
    Ranged,
    /// A touch attack: melee touch without `range_increment_ft`, ranged touch with it.
    Touch,
}

/// One component of an attack's damage: a formula and its damage types.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DamageComponent {
    /// Dice notation, e.g. `2d4+4`.
    pub formula: String,
    /// Damage types (`slashing`, `fire`…). Energy types are resisted per component.
    #[serde(default)]
    pub types: Vec<String>,
    /// Precision damage (sneak attack and the like): never multiplied on a critical hit.
    #[serde(default, skip_serializing_if = "is_false")]
    pub precision: bool,
    /// The creatures it harms when it harms only some (holy water:
    /// `["undead", "evil outsider"]`): a creature type, or an alignment word
    /// (`good`, `evil`, `lawful`, `chaotic`) and a creature type. Empty:
    /// every creature. The others take none of this component.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub harms: Vec<String>,
    /// The creatures it does not harm (an ochre jelly's acid, which
    /// "dissolves only flesh": `["construct", "ooze", "plant",
    /// "incorporeal"]`): a creature type, or `incorporeal` (a creature with
    /// an `incorporeal` special ability). Those take none of this component.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub spares: Vec<String>,
}

/// One attack a combatant can make.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AttackSpec {
    /// Stable identifier for `weapon_id` choices; defaults to the name.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub id: Option<String>,
    /// Display name.
    pub name: String,
    /// Melee, ranged or touch.
    pub kind: AttackKind,
    /// Final attack bonus (BAB, ability, size, enhancement already included).
    pub attack_bonus: i32,
    /// Damage components; the first physical one carries the weapon dice.
    pub damage: Vec<DamageComponent>,
    /// Flat damage bonus added to the weapon damage (multiplied on a critical hit).
    #[serde(default)]
    pub damage_bonus: i32,
    /// Lowest natural roll that threatens a critical hit (20 by default).
    #[serde(default = "default_crit_range")]
    pub crit_range: u32,
    /// Critical multiplier (×2 by default).
    #[serde(default = "default_crit_mult")]
    pub crit_mult: u32,
    /// Range increment in feet (ranged and thrown/firearm touch attacks).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub range_increment_ft: Option<u32>,
    /// Explicit reach in feet; on a natural attack it is the creature's natural reach.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reach_ft: Option<u32>,
    /// Natural attack (bite, claw…): never gains iterative attacks.
    #[serde(default, skip_serializing_if = "is_false")]
    pub natural: bool,
    /// Secondary natural attack (−5, −2 with Multiattack).
    #[serde(default, skip_serializing_if = "is_false")]
    pub secondary: bool,
    /// Firearm: touch AC in the first range increment, misfire on a natural 1.
    #[serde(default, skip_serializing_if = "is_false")]
    pub firearm: bool,
    /// Wielded in two hands (Power Attack +3X).
    #[serde(default, skip_serializing_if = "is_false")]
    pub two_handed: bool,
    /// Weapon with the reach quality: doubles natural reach, cannot hit adjacent foes.
    #[serde(default, skip_serializing_if = "is_false")]
    pub reach_weapon: bool,
    /// A light weapon (lighter two-weapon penalties in the off hand).
    #[serde(default, skip_serializing_if = "is_false")]
    pub light: bool,
    /// An off-hand weapon: made only as the off-hand attacks of a two-weapon
    /// full attack (`model::hands`); its printed bonus is without the
    /// two-weapon penalties, its printed damage with half the Strength bonus.
    #[serde(default, skip_serializing_if = "is_false")]
    pub off_hand: bool,
    /// Number of identical attacks made with one action (`2x talons`).
    #[serde(default = "default_count")]
    pub count: u32,
    /// Splash damage (CRB "Splash Weapons"): dealt to every creature within
    /// 5 feet of the target on a hit, or of where the missile lands on a
    /// miss; an attack with splash deals no precision damage.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub splash: Vec<DamageComponent>,
    /// The Reflex save DC of a creature the splash catches, for half of it
    /// (an alchemist's bomb, APG "Bomb": 10 + ½ alchemist level + Intelligence
    /// modifier); absent: no save.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub splash_dc: Option<i32>,
    /// Made only as the single attack of a standard action, never with
    /// iterative attacks (an alchemist's bomb: "drawing the components of,
    /// creating, and throwing a bomb requires a standard action").
    #[serde(default, skip_serializing_if = "is_false")]
    pub standard_action: bool,
    /// Damage a hit deals again at the start of the target's next turn
    /// (alchemist's fire: "on the round following a direct hit, the target
    /// takes an additional 1d6 points of fire damage").
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub lingering: Option<DamageComponent>,
    /// Special materials and qualities the weapon carries for damage reduction
    /// (`magic`, `silver`, `cold_iron`, `adamantine`, `good`…).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub qualities: Vec<String>,
    /// The action reloading this ranged weapon takes, final (Rapid Reload and
    /// cartridges included). Absent: from its name and firearm grip (CRB, UC
    /// "Rapid Reload": hand and light crossbows a move action, heavy crossbows
    /// and two-handed firearms a full round, one-handed firearms a standard
    /// action; Rapid Reload for the weapon one step less), else none.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reload: Option<ReloadTime>,
    /// Shots carried for this ranged weapon (bolts, bullets, cartridges);
    /// absent: never runs out.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ammunition: Option<u32>,
    /// Free-form notes.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub notes: Option<String>,
}

/// The action reloading a ranged weapon takes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ReloadTime {
    /// A free action: fires as often as a bow.
    Free,
    /// A move action.
    Move,
    /// A standard action.
    Standard,
    /// A full-round action.
    FullRound,
}

/// Damage reduction `amount/bypass`; every listed bypass component is required
/// (`DR 15/bludgeoning and magic`), or any one of `bypass_any`
/// (`DR 10/good or silver`). Both lists empty is `DR X/—`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DamageReduction {
    /// Points of damage prevented per attack.
    pub amount: u32,
    /// Components an attack must all carry to bypass the reduction.
    #[serde(default)]
    pub bypass: Vec<String>,
    /// Alternatives: an attack carrying any one of them bypasses the reduction.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub bypass_any: Vec<String>,
}

/// A named feature (feat, class feature, racial trait), as a bare name or an object.
///
/// Deserialized by hand (see `name_or_detail`) rather than as an untagged enum,
/// so that a bad entry reports the real problem instead of "did not match any variant".
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(untagged)]
pub enum Feature {
    /// Just the name, e.g. `"Power Attack"`.
    Name(String),
    /// A name with details.
    Detailed(FeatureDetail),
}

/// A feature with its category and source.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FeatureDetail {
    /// Feature name.
    pub name: String,
    /// `feat`, `class`, `racial` or `trait`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub category: Option<String>,
    /// Where it comes from (class level, race…).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub source_detail: Option<String>,
    /// Free-form notes.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub notes: Option<String>,
}

impl Feature {
    /// The feature's name.
    pub fn name(&self) -> &str {
        match self {
            Feature::Name(n) => n,
            Feature::Detailed(d) => &d.name,
        }
    }
}

/// Copies of one spell a prepared caster prepared, with their metamagic.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PreparedEntry {
    /// The spell's name, one of `spells`.
    pub spell: String,
    /// Metamagic feats applied when it was prepared (`["Maximize Spell"]`):
    /// it takes a slot that many levels higher.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub metamagic: Vec<String>,
    /// Copies prepared (1 by default).
    #[serde(default = "default_count")]
    pub count: u32,
    /// Prepared in the domain slot of its level (CRB "Cleric: Domains"):
    /// one of `domain_spells`, counted in `domain_slots`, never given up
    /// for a spontaneous conversion.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub domain: bool,
}

/// An item carried but not wielded (potions, scrolls, wands…), as a bare name or an object.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(untagged)]
pub enum CarriedItem {
    /// Just the name.
    Name(String),
    /// A name with a quantity and notes.
    Detailed(CarriedItemDetail),
}

/// A carried item with its quantity.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CarriedItemDetail {
    /// Item name.
    pub name: String,
    /// How many (1 by default).
    #[serde(default = "default_count")]
    pub quantity: u32,
    /// Charges left, for a wand (a new wand has 50; `model::items`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub charges: Option<u32>,
    /// Free-form notes.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub notes: Option<String>,
}

/// Flight maneuverability (CRB "Fly" skill): a modifier on Fly checks.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Maneuverability {
    /// −8 on Fly checks.
    Clumsy,
    /// −4.
    Poor,
    /// +0.
    Average,
    /// +4.
    Good,
    /// +8.
    Perfect,
}

impl Maneuverability {
    /// The modifier on Fly checks.
    pub const fn fly_modifier(self) -> i32 {
        match self {
            Self::Clumsy => -8,
            Self::Poor => -4,
            Self::Average => 0,
            Self::Good => 4,
            Self::Perfect => 8,
        }
    }
}

/// One skill entry.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Skill {
    /// Ranks invested.
    #[serde(default)]
    pub rank: i32,
    /// Whether it is a class skill (+3 when trained).
    #[serde(default)]
    pub class_skill: bool,
    /// Armor check penalty applied to it (≤ 0).
    #[serde(default)]
    pub armor_penalty: i32,
    /// Final bonus when the sheet gives it directly.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bonus: Option<i32>,
}

crate::named_enum! {
    /// The six abilities, by their short names.
    #[allow(missing_docs)]
    Ability {
        Str => "str",
        Dex => "dex",
        Con => "con",
        Int => "int",
        Wis => "wis",
        Cha => "cha",
    }
}

impl Ability {
    /// The ability a casting ability is.
    pub const fn of_casting(c: CastingAbility) -> Ability {
        match c {
            CastingAbility::Int => Ability::Int,
            CastingAbility::Wis => Ability::Wis,
            CastingAbility::Cha => Ability::Cha,
        }
    }
}

/// Spellcasting ability.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum CastingAbility {
    /// Intelligence.
    Int,
    /// Wisdom.
    Wis,
    /// Charisma.
    Cha,
}

/// Whether a file describes a player character or a monster.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "lowercase")]
pub enum CombatantRole {
    /// A monster or NPC (the default).
    #[default]
    Monster,
    /// A player character: never affected by `--simple-monster-death`.
    Pc,
}

/// A combatant as described by its JSON file.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Combatant {
    /// `pc` for player characters, `monster` (default) otherwise: the reliable
    /// marker that tells a PC from a monster.
    #[serde(default)]
    pub role: CombatantRole,
    /// Display name; ids are derived from it.
    pub name: String,
    /// Character level or hit dice (caster level for spells).
    #[serde(default = "default_level")]
    pub level: u32,
    /// Size category.
    #[serde(default)]
    pub size: Size,
    /// Challenge rating as written (`1/3`, `2`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cr: Option<String>,
    /// Experience award.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub xp: Option<u32>,
    /// Where the statistics come from.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub source: Option<String>,
    /// Creature type (`humanoid`, `undead`, `construct`…).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub creature_type: Option<String>,
    /// Two-letter alignment code (`LG` … `CE`, `N`).
    #[serde(default = "default_alignment")]
    pub alignment: String,
    /// Ability scores.
    pub abilities: Abilities,
    /// The enhancement bonus a worn item (a belt of giant strength, a
    /// headband) already puts in each printed score of `abilities`: a spell's
    /// enhancement bonus to that score adds only what exceeds it, since
    /// enhancement bonuses do not stack (CRB "Bonus Types").
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub ability_enhancements: BTreeMap<Ability, i32>,
    /// Maximum hit points.
    pub hp_max: i32,
    /// Armor class (final values).
    pub ac: ArmorClass,
    /// Base attack bonus.
    pub bab: i32,
    /// Combat maneuver bonus as printed (final value); computed from `bab`,
    /// Strength (Dexterity when Tiny or smaller) and size when absent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cmb: Option<i32>,
    /// Combat maneuver defense as printed (final value); computed when absent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cmd: Option<i32>,
    /// Initiative modifier.
    pub initiative_mod: i32,
    /// Land speed in feet.
    pub speed_land_ft: u32,
    /// Fly speed in feet, if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub speed_fly_ft: Option<u32>,
    /// Maneuverability of that fly speed (CRB "Fly" skill): average when
    /// absent, as the skill says of creatures without a listed rating.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fly_maneuverability: Option<Maneuverability>,
    /// Saving throws.
    pub saves: Saves,
    /// Attacks, in order of preference.
    pub attacks: Vec<AttackSpec>,
    /// Feats, class features and traits.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub features: Vec<Feature>,
    /// Metamagic feats known.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub metamagic_feats: Vec<String>,
    /// Damage reduction.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub dr: Option<DamageReduction>,
    /// Energy resistances by type.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub resistances: BTreeMap<String, u32>,
    /// Damage types the creature is immune to.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub immunities: Vec<String>,
    /// Spell resistance (0 = none).
    #[serde(default)]
    pub spell_resistance: u32,
    /// Whether the combatant is aware of its foes when the battle starts.
    #[serde(default = "default_true")]
    pub aware: bool,
    /// Spell slots per spell level (`"1": 4`), a final per-encounter budget.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub spell_slots: BTreeMap<String, u32>,
    /// Names of the spells the combatant can cast.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub spells: Vec<String>,
    /// Domain spell slots per spell level (`"1": 1`), beyond `spell_slots`
    /// (CRB "Cleric: Domains"): each is spent only on one of `domain_spells`.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub domain_slots: BTreeMap<String, u32>,
    /// Spells of `spells` that its domains grant: the only ones a domain slot holds.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub domain_spells: Vec<String>,
    /// A prepared caster's spells of the day (CRB "Preparing Wizard
    /// Spells"): each copy is cast once, a metamagic version only as
    /// prepared. Empty: the caster casts any of `spells` from `spell_slots`,
    /// as a spontaneous caster does.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub prepared: Vec<PreparedEntry>,
    /// Spells of `spells` a prepared caster casts by giving up a prepared
    /// spell of the same level (a cleric's cure or inflict wounds, a druid's
    /// summon nature's ally).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub spontaneous: Vec<String>,
    /// Spellcasting ability.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub casting_ability: Option<CastingAbility>,
    /// The class list whose spell levels the combatant casts at (`cleric`,
    /// `witch`, `magus`…, the keys of a spell file's `levels`); absent: the
    /// first of sorcerer, wizard, cleric, druid, bard that has the spell,
    /// else its lowest level.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub spell_list: Option<String>,
    /// Caster level when it is not `level` (a monster's spell-like abilities).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub caster_level: Option<u32>,
    /// Full-attack routines: attack ids made together by one full attack
    /// (`[["greataxe", "gore"]]`). Without a routine, a full attack with a
    /// natural attack makes every natural attack, one with a manufactured
    /// weapon that weapon's iterative attacks.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub full_attack: Vec<Vec<String>>,
    /// Limited-use resources (`channel_energy`, `grit`, `hexes`…).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub resources: BTreeMap<String, u32>,
    /// Monster special abilities the engine plays (`model::special`), each
    /// naming a `special` feature of `features`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub special_abilities: Vec<SpecialAbility>,
    /// Skills by name.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub skills: BTreeMap<String, Skill>,
    /// Items carried but not wielded.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub carried_items: Vec<CarriedItem>,
    /// The shield carried, whose bonus the printed AC holds (`model::hands`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub shield: Option<hands::Shield>,
    /// The armor worn, whose bonus the printed AC holds (`model::hands`):
    /// what a rust monster's antennae can corrode. Absent: no armor, or
    /// none a battle changes.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub armor: Option<hands::Armor>,
    /// The mount it rides when its side has it (`model::mount`, `combat::mounted`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mount: Option<mount::Mount>,
    /// Free-form notes (what was left out of the stat block and why).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub notes: Option<String>,
}

impl<'de> Deserialize<'de> for Feature {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        Ok(match name_or_detail(deserializer, "a feature name or an object with a `name`")? {
            NameOr::Name(name) => Feature::Name(name),
            NameOr::Detail(detail) => Feature::Detailed(detail),
        })
    }
}

impl CarriedItem {
    /// The item's name.
    pub fn name(&self) -> &str {
        match self {
            CarriedItem::Name(n) => n,
            CarriedItem::Detailed(d) => &d.name,
        }
    }

    /// How many of the item are carried (1 for a bare name).
    pub fn quantity(&self) -> u32 {
        match self {
            CarriedItem::Name(_) => 1,
            CarriedItem::Detailed(d) => d.quantity,
        }
    }

    /// The charges the file gives, if any.
    pub fn charges(&self) -> Option<u32> {
        match self {
            CarriedItem::Name(_) => None,
            CarriedItem::Detailed(d) => d.charges,
        }
    }
}

impl<'de> Deserialize<'de> for CarriedItem {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        Ok(match name_or_detail(deserializer, "an item name or an object with a `name`")? {
            NameOr::Name(name) => CarriedItem::Name(name),
            NameOr::Detail(detail) => CarriedItem::Detailed(detail),
        })
    }
}

/// Either a bare string or a detailed object.
enum NameOr<T> {
    Name(String),
    Detail(T),
}

/// Reads a string as a name and an object as `T`, so that an error inside the
/// object (unknown field, wrong type) surfaces with its own message and path.
fn name_or_detail<'de, D, T>(deserializer: D, expecting: &'static str) -> Result<NameOr<T>, D::Error>
where
    D: serde::Deserializer<'de>,
    T: Deserialize<'de>,
{
    struct Visit<T>(&'static str, std::marker::PhantomData<T>);

    impl<'de, T: Deserialize<'de>> serde::de::Visitor<'de> for Visit<T> {
        type Value = NameOr<T>;

        fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
            f.write_str(self.0)
        }

        fn visit_str<E: serde::de::Error>(self, v: &str) -> Result<Self::Value, E> {
            Ok(NameOr::Name(v.to_owned()))
        }

        fn visit_map<A: serde::de::MapAccess<'de>>(self, map: A) -> Result<Self::Value, A::Error> {
            T::deserialize(serde::de::value::MapAccessDeserializer::new(map)).map(NameOr::Detail)
        }
    }

    deserializer.deserialize_any(Visit(expecting, std::marker::PhantomData))
}

/// The creature types of the Bestiary ("Creature Types"), the words a
/// component's `harms` may name.
pub const CREATURE_TYPES: &[&str] = &[
    "aberration",
    "animal",
    "construct",
    "dragon",
    "fey",
    "humanoid",
    "magical beast",
    "monstrous humanoid",
    "ooze",
    "outsider",
    "plant",
    "undead",
    "vermin",
];

/// The `spares` entry naming incorporeal creatures.
const SPARES_INCORPOREAL: &str = "incorporeal";

/// The alignment words a `harms` entry may start with, and the letter of an
/// alignment code each one needs (first letter for law and chaos, last for
/// good and evil).
const HARM_ALIGNMENTS: [(&str, char, bool); 4] =
    [("good", 'G', false), ("evil", 'E', false), ("lawful", 'L', true), ("chaotic", 'C', true)];

/// One entry of a component's `harms`, read.
struct Harm<'a> {
    /// The letter an alignment code must have, and whether as its first
    /// letter (law, chaos) or its last (good, evil).
    alignment: Option<(char, bool)>,
    /// The creature type.
    kind: &'a str,
}

impl<'a> Harm<'a> {
    /// Reads an entry: an optional alignment word and a creature type;
    /// `Err` says what is wrong with it.
    fn parse(entry: &'a str) -> Result<Self, String> {
        let entry = entry.trim();
        let (alignment, kind) = match entry.split_once(' ') {
            Some((word, rest)) => match HARM_ALIGNMENTS.iter().find(|(w, ..)| word.eq_ignore_ascii_case(w)) {
                Some(&(_, letter, first)) => (Some((letter, first)), rest.trim()),
                None => (None, entry),
            },
            None => (None, entry),
        };
        if CREATURE_TYPES.iter().any(|t| t.eq_ignore_ascii_case(kind)) {
            Ok(Harm { alignment, kind })
        } else {
            Err(format!(
                "{entry:?} is not a creature type, optionally after good, evil, lawful or chaotic (types: {})",
                CREATURE_TYPES.join(", ")
            ))
        }
    }

    /// Whether `c` is of this type and alignment.
    fn matches(&self, c: &Combatant) -> bool {
        c.creature_type.as_deref().is_some_and(|t| t.trim().eq_ignore_ascii_case(self.kind))
            && self.alignment.is_none_or(|(letter, first)| {
                let code = c.alignment.trim();
                if first { code.starts_with(letter) } else { code.ends_with(letter) }
            })
    }
}

impl DamageComponent {
    /// Why an entry of `harms` cannot be read, with its index.
    pub fn bad_harm(&self) -> Option<(usize, String)> {
        self.harms.iter().enumerate().find_map(|(k, h)| Harm::parse(h).err().map(|e| (k, e)))
    }

    /// Why an entry of `spares` cannot be read, with its index.
    pub fn bad_spare(&self) -> Option<(usize, String)> {
        self.spares.iter().enumerate().find_map(|(k, s)| {
            let s = s.trim();
            let known = s.eq_ignore_ascii_case(SPARES_INCORPOREAL)
                || CREATURE_TYPES.iter().any(|t| t.eq_ignore_ascii_case(s));
            (!known).then(|| {
                (
                    k,
                    format!(
                        "{s:?} is neither a creature type nor incorporeal (types: {})",
                        CREATURE_TYPES.join(", ")
                    ),
                )
            })
        })
    }

    /// Whether this component harms `c`: `harms` empty or one entry matching
    /// its creature type and alignment, and no entry of `spares` matching
    /// its creature type (or `incorporeal`, when it is).
    pub fn harms_creature(&self, c: &Combatant) -> bool {
        (self.harms.is_empty() || self.harms.iter().filter_map(|h| Harm::parse(h).ok()).any(|h| h.matches(c)))
            && !self.spares.iter().any(|s| {
                let s = s.trim();
                if s.eq_ignore_ascii_case(SPARES_INCORPOREAL) {
                    c.special_abilities.iter().any(|a| matches!(a, SpecialAbility::Incorporeal { .. }))
                } else {
                    c.creature_type.as_deref().is_some_and(|t| t.trim().eq_ignore_ascii_case(s))
                }
            })
    }
}

impl AttackSpec {
    /// The identifier used to designate this attack (`weapon_id`): the `id`, or the name.
    pub fn weapon_id(&self) -> &str {
        self.id.as_deref().unwrap_or(&self.name)
    }
}

impl Combatant {
    /// Whether the combatant has a feature with this name (case-insensitive).
    pub fn has_feature(&self, name: &str) -> bool {
        self.features.iter().any(|f| f.name().eq_ignore_ascii_case(name))
    }

    /// The caster level: `caster_level`, else `level`.
    pub fn caster_level(&self) -> u32 {
        self.caster_level.unwrap_or(self.level)
    }

    /// Whether the combatant is a player character.
    pub fn is_pc(&self) -> bool {
        self.role == CombatantRole::Pc
    }

    /// Whether the creature type has no Constitution-based dying band
    /// (undead and constructs are destroyed at 0 hit points).
    pub fn destroyed_at_zero(&self) -> bool {
        matches!(self.creature_type.as_deref(), Some(t) if t.eq_ignore_ascii_case("undead") || t.eq_ignore_ascii_case("construct"))
    }
}

fn default_crit_range() -> u32 {
    20
}
fn default_crit_mult() -> u32 {
    2
}
fn default_count() -> u32 {
    1
}
fn default_level() -> u32 {
    1
}
fn default_true() -> bool {
    true
}
fn default_alignment() -> String {
    "N".to_string()
}
fn is_false(b: &bool) -> bool {
    !*b
}
