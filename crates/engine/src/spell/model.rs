//! The spell file: what a spell is, who casts it, how far it reaches, whom
//! it affects, how long it lasts and how it is resisted. Its effects are in
//! [`super::effect`]. The format is documented in `docs/data-format.md`
//! ("Spell files").

use serde::{Deserialize, Serialize};

use super::scaled::Scaled;
use crate::effects::SaveKind;

/// The class spell lists a `levels` key may name.
pub const CLASSES: &[&str] = &[
    "adept",
    "alchemist",
    "antipaladin",
    "arcanist",
    "bard",
    "bloodrager",
    "cleric",
    "druid",
    "hunter",
    "inquisitor",
    "investigator",
    "magus",
    "medium",
    "mesmerist",
    "occultist",
    "oracle",
    "paladin",
    "psychic",
    "ranger",
    "red_mantis_assassin",
    "sahir_afiyun",
    "shaman",
    "skald",
    "sorcerer",
    "spiritualist",
    "summoner",
    "summoner_unchained",
    "warpriest",
    "witch",
    "wizard",
];

/// The eight schools of magic, and universal.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[allow(missing_docs)]
pub enum School {
    Abjuration,
    Conjuration,
    Divination,
    Enchantment,
    Evocation,
    Illusion,
    Necromancy,
    Transmutation,
    Universal,
}

/// Subschools.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[allow(missing_docs)]
pub enum Subschool {
    Calling,
    Creation,
    Healing,
    Summoning,
    Teleportation,
    Scrying,
    Charm,
    Compulsion,
    Figment,
    Glamer,
    Pattern,
    Phantasm,
    Shadow,
    Polymorph,
}

/// Spell components. `M/DF` and `F/DF`: arcane casters need the material
/// component or focus, divine casters their divine focus.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Component {
    /// Verbal.
    #[serde(rename = "V")]
    Verbal,
    /// Somatic.
    #[serde(rename = "S")]
    Somatic,
    /// Material.
    #[serde(rename = "M")]
    Material,
    /// Focus.
    #[serde(rename = "F")]
    Focus,
    /// Divine focus.
    #[serde(rename = "DF")]
    DivineFocus,
    /// Material (arcane) or divine focus (divine).
    #[serde(rename = "M/DF")]
    MaterialOrDivineFocus,
    /// Focus (arcane) or divine focus (divine).
    #[serde(rename = "F/DF")]
    FocusOrDivineFocus,
}

/// Casting time. Files write the codes; the SRD wordings are accepted as aliases.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
pub enum CastTime {
    /// A standard action.
    #[default]
    #[serde(rename = "standard", alias = "standard action", alias = "1 standard action")]
    Standard,
    /// A swift action.
    #[serde(rename = "swift", alias = "swift action", alias = "1 swift action")]
    Swift,
    /// An immediate action.
    #[serde(rename = "immediate", alias = "immediate action", alias = "1 immediate action")]
    Immediate,
    /// A free action.
    #[serde(rename = "free", alias = "free action", alias = "1 free action")]
    Free,
    /// A full-round action; the spell takes effect at once.
    #[serde(
        rename = "full_round",
        alias = "1 full-round action",
        alias = "full-round action",
        alias = "full-round"
    )]
    FullRound,
    /// One round: the spell takes effect just before the caster's next turn.
    #[serde(rename = "one_round", alias = "1 round", alias = "one round")]
    OneRound,
    /// Longer than a round (3 rounds, minutes, hours): not cast in a fight.
    #[serde(rename = "long", alias = "1 minute", alias = "10 minutes", alias = "1 hour")]
    Long,
}

/// Range. Close is 25 ft + 5 ft per two caster levels, medium 100 ft + 10 ft
/// per level, long 400 ft + 40 ft per level; `{"feet": 30}` is a fixed range.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Range {
    /// The caster only.
    Personal,
    /// A creature the caster touches (the caster included).
    Touch,
    /// 25 ft + 5 ft per two levels.
    Close,
    /// 100 ft + 10 ft per level.
    Medium,
    /// 400 ft + 40 ft per level.
    Long,
    /// Anywhere.
    Unlimited,
    /// A fixed distance in feet (multiple of 5; 0 for "0 ft.").
    Feet(u32),
}

impl Range {
    /// The range in feet at this caster level (`None` for unlimited).
    pub fn feet_at(self, caster_level: u32) -> Option<u32> {
        match self {
            Range::Personal | Range::Touch => Some(0),
            Range::Close => Some(25 + 5 * (caster_level / 2)),
            Range::Medium => Some(100 + 10 * caster_level),
            Range::Long => Some(400 + 40 * caster_level),
            Range::Unlimited => None,
            Range::Feet(ft) => Some(ft),
        }
    }
}

/// Whom a targeted spell designates.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Target {
    /// What is targeted.
    pub kind: TargetKind,
    /// How many (`creatures`: one per level…; `primary_and_secondary`: the secondary targets).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub count: Option<Scaled>,
    /// No two targets more than this far apart (`creatures`), or every
    /// secondary target within this distance of the primary one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub within_ft: Option<u32>,
    /// Which creatures qualify.
    #[serde(default, skip_serializing_if = "Filter::is_empty")]
    pub filter: Filter,
    /// Save DC adjustment for secondary targets (Chain Lightning: −2).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub secondary_dc_adjust: i32,
}

fn is_zero(v: &i32) -> bool {
    *v == 0
}

/// Kinds of target.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TargetKind {
    /// The caster ("you").
    #[serde(rename = "self")]
    Caster,
    /// One creature (the caster may be it when the range is touch).
    Creature,
    /// Several creatures: `count`, no two more than `within_ft` apart.
    Creatures,
    /// One creature, then `count` secondary creatures within `within_ft` of it.
    PrimaryAndSecondary,
    /// A weapon held by a creature (the effects apply to that weapon's attacks).
    Weapon,
    /// A suit of armor or a shield worn by a creature.
    Armor,
    /// An unattended object.
    Object,
}

/// Which creatures a target, an area or an effect applies to. Every field
/// narrows; an empty filter accepts everyone.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Filter {
    /// Only these creature types (any of them).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub creature_types: Vec<CreatureType>,
    /// Not these creature types.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub not_creature_types: Vec<CreatureType>,
    /// Only creatures with one of these alignment components.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub alignments: Vec<AlignmentComponent>,
    /// Not creatures with any of these alignment components.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub not_alignments: Vec<AlignmentComponent>,
    /// Only living creatures (neither undead nor construct).
    #[serde(default, skip_serializing_if = "is_false")]
    pub living: bool,
    /// Only creatures with at least this many Hit Dice.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub min_hd: Option<u32>,
    /// Only creatures with at most this many Hit Dice.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_hd: Option<u32>,
    /// Only creatures with at least this Intelligence (Hideous Laughter: 3).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub min_int: Option<u32>,
    /// Only creatures that can see (not blinded, not sightless).
    #[serde(default, skip_serializing_if = "is_false")]
    pub can_see: bool,
    /// Only creatures that can hear (not deafened).
    #[serde(default, skip_serializing_if = "is_false")]
    pub can_hear: bool,
    /// Only creatures at −1 hit points or fewer (Stabilize, Bleed).
    #[serde(default, skip_serializing_if = "is_false")]
    pub negative_hp: bool,
    /// Only the caster's side or only the other side.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub side: Option<Side>,
    /// Only creatures that accept the spell (always true of allies).
    #[serde(default, skip_serializing_if = "is_false")]
    pub willing: bool,
}

pub(crate) fn is_false(v: &bool) -> bool {
    !*v
}

impl Filter {
    /// Whether the filter accepts every creature.
    pub fn is_empty(&self) -> bool {
        *self == Filter::default()
    }
}

/// The creature types of the Bestiary.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[allow(missing_docs)]
pub enum CreatureType {
    Aberration,
    Animal,
    Construct,
    Dragon,
    Fey,
    Humanoid,
    MagicalBeast,
    MonstrousHumanoid,
    Ooze,
    Outsider,
    Plant,
    Undead,
    Vermin,
}

impl CreatureType {
    /// The name used in data files (and in a combatant's `creature_type`).
    pub fn name(self) -> &'static str {
        match self {
            CreatureType::Aberration => "aberration",
            CreatureType::Animal => "animal",
            CreatureType::Construct => "construct",
            CreatureType::Dragon => "dragon",
            CreatureType::Fey => "fey",
            CreatureType::Humanoid => "humanoid",
            CreatureType::MagicalBeast => "magical_beast",
            CreatureType::MonstrousHumanoid => "monstrous_humanoid",
            CreatureType::Ooze => "ooze",
            CreatureType::Outsider => "outsider",
            CreatureType::Plant => "plant",
            CreatureType::Undead => "undead",
            CreatureType::Vermin => "vermin",
        }
    }
}

/// The alignment components.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[allow(missing_docs)]
pub enum AlignmentComponent {
    Good,
    Evil,
    Lawful,
    Chaotic,
}

/// A side of the battle, seen from the caster.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Side {
    /// The caster and its allies.
    Allies,
    /// The caster's enemies.
    Enemies,
}

/// The area a spell fills.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Area {
    /// Geometric shape.
    pub shape: Shape,
    /// How it spreads (default `burst`).
    #[serde(default)]
    pub spread: Spread,
    /// Radius (sphere, cylinder).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub radius_ft: Option<Scaled>,
    /// Length (cone, line, wall).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub length_ft: Option<Scaled>,
    /// Width of a line (default 5 ft).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub width_ft: Option<u32>,
    /// Height (cylinder, cloud, wall).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub height_ft: Option<Scaled>,
    /// Side of a square.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub side_ft: Option<u32>,
    /// Where it is centred (cones and lines always start at the caster).
    #[serde(default)]
    pub origin: Origin,
    /// It stays where it was created instead of moving with the creature it
    /// is centred on (Globe of Invulnerability, Obscuring Mist).
    #[serde(default, skip_serializing_if = "is_false")]
    pub fixed: bool,
    /// Which creatures in it are affected.
    #[serde(default, skip_serializing_if = "Filter::is_empty")]
    pub filter: Filter,
    /// A budget of Hit Dice shared by the creatures affected (Sleep, Circle of Death).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hit_dice_pool: Option<Scaled>,
}

/// Shapes of areas.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Shape {
    /// A sphere of `radius_ft` (on the map, a circle).
    Sphere,
    /// A quarter circle of `length_ft` from the caster.
    Cone,
    /// A line of `length_ft` (and `width_ft`) from the caster.
    Line,
    /// A cylinder of `radius_ft` and `height_ft`.
    Cylinder,
    /// A square of `side_ft`.
    Square,
    /// A wall of `length_ft` and `height_ft`.
    Wall,
}

/// How an area spreads (CRB "Aiming a Spell").
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Spread {
    /// Affects what is in the area when cast, blocked by total cover.
    #[default]
    Burst,
    /// Like a burst, and lasts for the duration.
    Emanation,
    /// Flows around corners up to its size.
    Spread,
}

/// Where an area is centred.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Origin {
    /// A point the caster chooses within range.
    #[default]
    Point,
    /// The caster (and it moves with the caster).
    Caster,
    /// The targeted creature or object (and it moves with it).
    Target,
}

/// The attack roll that delivers a spell.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AttackRoll {
    /// Which attack.
    pub kind: AttackKind,
    /// Touches the charge can deliver (Chill Touch: one per level; default 1).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub charges: Option<Scaled>,
    /// Attack bonus against a foe in metal armor or made of metal (Shocking Grasp: +3).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub bonus_vs_metal: i32,
}

/// Kinds of spell attack roll.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum AttackKind {
    /// A melee touch attack (holding the charge on a miss).
    MeleeTouch,
    /// A ranged touch attack that is not a ray.
    RangedTouch,
    /// A ray: a ranged touch attack.
    Ray,
}

/// How long a spell or an effect lasts.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SpellDuration {
    /// Unit.
    pub unit: DurationUnit,
    /// How many units (`rounds`, `minutes`, `hours`, `days`; the most
    /// rounds of `concentration`; the rounds after leaving for `in_area`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub amount: Option<Scaled>,
    /// Rounds the effect lasts after concentration stops ("concentration + 1 round/level").
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub after_concentration: Option<Scaled>,
    /// The caster may dismiss it ("(D)").
    #[serde(default, skip_serializing_if = "is_false")]
    pub dismissible: bool,
    /// It also ends when its use is spent ("or until discharged").
    #[serde(default, skip_serializing_if = "is_false")]
    pub until_discharged: bool,
}

/// Duration units. Minutes, hours and days outlast any battle; the engine
/// keeps them for the whole fight.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum DurationUnit {
    /// Happens and is over.
    Instantaneous,
    /// Until the end of the current turn.
    EndOfTurn,
    /// Rounds.
    Rounds,
    /// Minutes (10 rounds each).
    Minutes,
    /// Hours.
    Hours,
    /// Days.
    Days,
    /// While the caster concentrates (a standard action each round), up to `amount` rounds.
    Concentration,
    /// While the creature stays in the spell's area, then `amount` rounds.
    InArea,
    /// Until dispelled.
    Permanent,
}

/// A spell's saving throw line.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SavingThrow {
    /// Which save.
    pub kind: SaveKind,
    /// What a success does: the default for every effect.
    pub outcome: SaveOutcome,
    /// The SRD line says "see text" (the effects say what the save does).
    #[serde(default, skip_serializing_if = "is_false")]
    pub see_text: bool,
    /// Circumstances that give the target a bonus on this save.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub bonuses: Vec<SaveBonus>,
}

/// What a successful save does.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SaveOutcome {
    /// Nothing happens.
    Negates,
    /// Half damage (or a halved penalty).
    Half,
    /// A lesser effect: each effect says what the save does to it.
    Partial,
    /// An illusion seen through: nothing happens, before any other save.
    Disbelief,
}

/// A bonus on the save in some circumstance.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SaveBonus {
    /// When it applies.
    pub when: SaveBonusWhen,
    /// How much.
    pub value: i32,
}

/// Circumstances of a [`SaveBonus`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SaveBonusWhen {
    /// The target's creature type differs from the caster's (Hideous Laughter).
    DifferentCreatureType,
    /// The caster or its allies are threatening or attacking the target (Charm Person).
    ThreatenedByCasterSide,
}

/// The six abilities (defined with the combatant model, which names them too).
pub use crate::model::Ability;
