//! What a spell does: a list of effects, each one kind (`damage`,
//! `condition`, `modifiers`, `summon`, `zone`…) plus the fields every effect
//! shares (`only`, `save`, `save_kind`, `on_success`, `duration`).
//!
//! In a file an effect is one object whose kind is its only key besides the
//! shared ones:
//!
//! ```json
//! { "condition": { "conditions": ["panicked"] }, "save": "negates",
//!   "on_success": [ { "condition": { "conditions": ["shaken"] },
//!                     "duration": { "unit": "rounds", "amount": 1 } } ] }
//! ```

use std::fmt;

use serde::de::{self, MapAccess, Visitor};
use serde::ser::SerializeMap;
use serde::{Deserialize, Deserializer, Serialize, Serializer};

use super::model::{
    Ability, AlignmentComponent, Area, AttackKind, CreatureType, Filter, Range, SpellDuration, is_false,
};
use super::scaled::Scaled;
use crate::effects::{BonusType, ConditionId, Descriptor, ModCondition, ModTarget, Modifier, SaveKind};

/// One effect of a spell: its kind and the fields every kind shares.
#[derive(Clone, Debug, PartialEq)]
pub struct SpellEffect {
    /// What the effect does.
    pub kind: EffectKind,
    /// Which creatures it applies to (default: every creature the spell affects).
    pub only: Filter,
    /// What a successful save does to this effect (default: from the spell's saving throw).
    pub save: Option<EffectSave>,
    /// The save this effect calls for when it differs from the spell's
    /// (Chill Touch: Will for undead), or a second save after the spell's
    /// own failed (Phantasmal Killer: Fortitude after Will disbelief).
    pub save_kind: Option<SaveKind>,
    /// Effects applied instead when the save succeeds (Fear: shaken 1 round; Disintegrate: 5d6).
    pub on_success: Vec<SpellEffect>,
    /// How long it lasts (default: the spell's duration).
    pub duration: Option<SpellDuration>,
}

impl SpellEffect {
    /// An effect of this kind with every shared field at its default.
    pub fn new(kind: EffectKind) -> Self {
        Self {
            kind,
            only: Filter::default(),
            save: None,
            save_kind: None,
            on_success: Vec::new(),
            duration: None,
        }
    }
}

/// What a successful save does to one effect.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum EffectSave {
    /// The effect does not happen.
    Negates,
    /// Half damage, half healing, half a penalty (rounded down).
    Half,
    /// The save does not change this effect.
    None,
}

macro_rules! effect_kinds {
    ($( $(#[$doc:meta])* $variant:ident($ty:ty) => $name:literal, )+) => {
        /// The kinds of effect; the file key is the snake_case name.
        #[derive(Clone, Debug, PartialEq)]
        pub enum EffectKind {
            $( $(#[$doc])* $variant($ty), )+
        }

        impl EffectKind {
            /// Every kind's file key, in declaration order.
            pub const NAMES: &'static [&'static str] = &[$($name,)+];

            /// This kind's file key.
            pub fn name(&self) -> &'static str {
                match self {
                    $(EffectKind::$variant(_) => $name,)+
                }
            }

            fn read<'de, A: MapAccess<'de>>(key: &str, map: &mut A) -> Result<Option<Self>, A::Error> {
                Ok(Some(match key {
                    $($name => EffectKind::$variant(map.next_value()?),)+
                    _ => return Ok(None),
                }))
            }

            fn write<M: SerializeMap>(&self, map: &mut M) -> Result<(), M::Error> {
                match self {
                    $(EffectKind::$variant(v) => map.serialize_entry($name, v),)+
                }
            }
        }

        const EFFECT_KEYS: &[&str] = &["only", "save", "save_kind", "on_success", "duration", $($name,)+];
    };
}

effect_kinds! {
    /// Hit point damage.
    Damage(DamageEffect) => "damage",
    /// Healing (positive energy).
    Heal(HealEffect) => "heal",
    /// Temporary hit points.
    TempHp(TempHpEffect) => "temp_hp",
    /// Conditions.
    Condition(ConditionEffect) => "condition",
    /// Typed bonuses and penalties.
    Modifiers(ModifiersEffect) => "modifiers",
    /// A bonus on one later roll (Guidance, True Strike).
    OneShot(OneShotEffect) => "one_shot",
    /// Ability damage or drain.
    AbilityDamage(AbilityDamageEffect) => "ability_damage",
    /// Negative levels.
    NegativeLevels(NegativeLevelsEffect) => "negative_levels",
    /// The creature dies.
    Death(Empty) => "death",
    /// A dying creature becomes stable.
    Stabilize(Empty) => "stabilize",
    /// A stable creature resumes dying; a dying one takes 1 damage (Bleed).
    ResumeDying(Empty) => "resume_dying",
    /// Ends conditions and ability damage.
    RemoveConditions(RemoveConditionsEffect) => "remove_conditions",
    /// Summoned creatures.
    Summon(SummonEffect) => "summon",
    /// Mirror images.
    MirrorImages(MirrorImagesEffect) => "mirror_images",
    /// One size category larger or smaller.
    SizeChange(SizeChangeEffect) => "size_change",
    /// Faster or slower movement.
    SpeedChange(SpeedChangeEffect) => "speed_change",
    /// One extra attack at full base attack bonus in a full attack (Haste).
    ExtraAttack(Empty) => "extra_attack",
    /// A fly speed.
    Fly(FlyEffect) => "fly",
    /// Sees invisible creatures.
    SeeInvisibility(Empty) => "see_invisibility",
    /// Outlined: concealment from these sources stops working.
    Outline(OutlineEffect) => "outline",
    /// Immunities.
    Immunity(ImmunityEffect) => "immunity",
    /// Energy resistance.
    EnergyResistance(EnergyResistanceEffect) => "energy_resistance",
    /// Immunity to an energy type until a total is absorbed.
    EnergyAbsorption(EnergyAbsorptionEffect) => "energy_absorption",
    /// Half damage from an energy type, none on a successful Reflex save for half.
    EnergyWard(EnergyWardEffect) => "energy_ward",
    /// Damage reduction, optionally until a total is absorbed.
    DamageReduction(DamageReductionEffect) => "damage_reduction",
    /// Effects dealt to a creature that hits the subject in melee.
    Retaliation(RetaliationEffect) => "retaliation",
    /// A lasting area: terrain, concealment, and what happens to creatures in it.
    Zone(ZoneEffect) => "zone",
    /// A spell construct the caster directs (Spiritual Weapon, Flaming Sphere, Call Lightning).
    Controlled(ControlledEffect) => "controlled",
    /// An attack the subject may make for the duration (Produce Flame).
    GrantedAttack(GrantedAttackEffect) => "granted_attack",
    /// A combat maneuver made by the spell (Black Tentacles).
    Maneuver(ManeuverEffect) => "maneuver",
    /// The creature is pushed away from the caster.
    Push(PushEffect) => "push",
    /// The caster teleports.
    Teleport(TeleportEffect) => "teleport",
    /// Ends spells.
    Dispel(DispelEffect) => "dispel",
    /// The creature acts as told.
    Compel(CompelEffect) => "compel",
    /// Rolls taken twice or rerolled.
    Reroll(RerollEffect) => "reroll",
    /// A chance each turn to take no action (Bestow Curse).
    ActionLoss(ActionLossEffect) => "action_loss",
    /// The caster picks one option when casting.
    Choice(ChoiceEffect) => "choice",
    /// Touch spells delivered at range (Spectral Hand).
    TouchDelivery(TouchDeliveryEffect) => "touch_delivery",
    /// A straight move with one attack on the way (Bladed Dash).
    Dash(DashEffect) => "dash",
    /// Movement provokes no attack of opportunity.
    MovementProvokesNoAoo(Empty) => "movement_provokes_no_aoo",
    /// Attackers must save to attack the subject; ends when it attacks.
    Sanctuary(Empty) => "sanctuary",
    /// Protection from an alignment's summoned creatures and mental control.
    AlignmentWard(AlignmentWardEffect) => "alignment_ward",
    /// The targeted weapon gains qualities that overcome damage reduction.
    WeaponQualities(WeaponQualitiesEffect) => "weapon_qualities",
    /// The targeted weapon's threat range doubles.
    Keen(Empty) => "keen",
    /// A barbarian's rage restrictions: no spells, no concentration.
    RageRestrictions(Empty) => "rage_restrictions",
}

/// An effect kind with no parameter: `{}`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Empty {}

/// Hit point damage.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DamageEffect {
    /// How much.
    pub amount: Scaled,
    /// Damage types (`fire`, `negative`, `force`…; empty: untyped).
    #[serde(default)]
    pub types: Vec<String>,
    /// Nonlethal damage.
    #[serde(default, skip_serializing_if = "is_false")]
    pub nonlethal: bool,
    /// Multiplied on a confirmed critical hit of the spell's attack roll (default true).
    #[serde(default = "yes", skip_serializing_if = "is_true")]
    pub critical: bool,
    /// The rolled damage is halved before the save (Spear of Purity against a neutral creature).
    #[serde(default, skip_serializing_if = "is_false")]
    pub halved: bool,
    /// Half the damage has no type and ignores energy resistance (Flame Strike).
    #[serde(default, skip_serializing_if = "is_false")]
    pub untyped_half: bool,
    /// Several projectiles, each rolling `amount` (Magic Missile, Scorching Ray).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub projectiles: Option<Scaled>,
    /// Damage to each secondary target (Chain Lightning).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub secondary_amount: Option<Scaled>,
    /// Different damage against some creature types (Searing Light).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub vs: Vec<DamageVs>,
    /// Damage again on later rounds (Acid Arrow).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub recurring: Option<Recurring>,
    /// Negative energy: undead are healed by this amount instead.
    #[serde(default, skip_serializing_if = "is_false")]
    pub heals_undead: bool,
    /// The damage cannot take the target below this many hit points (Harm: 1).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub min_hp_left: Option<i32>,
    /// A creature this damage takes to 0 hit points or fewer dies (Disintegrate).
    #[serde(default, skip_serializing_if = "is_false")]
    pub slays_at_zero_hp: bool,
    /// The caster gains temporary hit points equal to the damage dealt (at most
    /// the target's hit points plus its Constitution score) for this long (Vampiric Touch).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub caster_temp_hp: Option<SpellDuration>,
}

fn yes() -> bool {
    true
}

fn is_true(v: &bool) -> bool {
    *v
}

/// Damage against one creature type.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DamageVs {
    /// The creature type.
    pub creature_type: CreatureType,
    /// Amount instead of the effect's.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub amount: Option<Scaled>,
    /// The rolled damage is multiplied by this (Wall of Fire against undead: 2).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub multiplier: Option<u32>,
}

/// Damage on later rounds, at the start of the target's turn.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Recurring {
    /// Damage each round.
    pub amount: Scaled,
    /// Damage types.
    #[serde(default)]
    pub types: Vec<String>,
    /// Rounds after the first hit.
    pub rounds: Scaled,
}

/// Healing.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct HealEffect {
    /// How much.
    pub amount: Scaled,
    /// Positive energy: an undead target takes this amount as damage instead.
    #[serde(default, skip_serializing_if = "is_false")]
    pub harms_undead: bool,
    /// When it harms undead, it cannot take them below this many hit points (Heal: 1).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub min_hp_left: Option<i32>,
}

/// Temporary hit points.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TempHpEffect {
    /// How many.
    pub amount: Scaled,
}

/// Conditions applied together.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ConditionEffect {
    /// The conditions.
    pub conditions: Vec<ConditionId>,
    /// Effects applied when these conditions end (Color Spray's stages).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub then: Vec<SpellEffect>,
    /// The subject may save again to end it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub save_again: Option<SaveAgain>,
    /// Ends when the subject attacks (Invisibility).
    #[serde(default, skip_serializing_if = "is_false")]
    pub ends_when_subject_attacks: bool,
    /// The subject cannot leave its square (Entangle).
    #[serde(default, skip_serializing_if = "is_false")]
    pub anchored: bool,
    /// How the subject can break free.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub escape: Option<Escape>,
    /// Fatigued on a fatigued creature makes it exhausted (otherwise a
    /// condition the creature already has changes nothing).
    #[serde(default, skip_serializing_if = "is_false")]
    pub escalates: bool,
    /// Ends when the subject has no nonlethal damage left (Frostbite).
    #[serde(default, skip_serializing_if = "is_false")]
    pub ends_without_nonlethal: bool,
    /// Duration instead when the spell's attack roll was a confirmed critical hit (Frigid Touch).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub duration_on_critical: Option<SpellDuration>,
}

/// When a subject may save again against a condition.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SaveAgain {
    /// Each of its turns, as a full-round action that provokes no attack (Hold Person).
    EachTurnFullRound,
    /// At the end of each of its turns, freely (Glitterdust).
    EachTurnEnd,
    /// Once, on its next turn, as a full-round action (Hideous Laughter).
    NextTurnFullRound,
}

/// Breaking free of a condition.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Escape {
    /// The checks the subject may use.
    pub checks: Vec<EscapeCheck>,
    /// Against what.
    pub dc: EscapeDc,
    /// The action it takes.
    pub action: ActionCost,
}

/// Checks that break free.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum EscapeCheck {
    /// A Strength check.
    Strength,
    /// An Escape Artist check.
    EscapeArtist,
    /// A combat maneuver check.
    Cmb,
}

/// The DC to break free.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum EscapeDc {
    /// The spell's save DC.
    SpellDc,
    /// The grappling effect's CMD (10 + its CMB).
    ManeuverCmd,
}

/// Action costs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[allow(missing_docs)]
pub enum ActionCost {
    Free,
    Swift,
    Move,
    Standard,
    FullRound,
}

/// Typed bonuses and penalties. Modifiers of one effect whose values are the
/// same dice expression share one roll (Touch of Idiocy: one 1d6 to Int, Wis and Cha).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ModifiersEffect {
    /// The modifiers.
    pub modifiers: Vec<SpellModifier>,
}

/// A typed modifier whose value may grow with caster level; at casting it
/// becomes a [`Modifier`] of the shared vocabulary.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SpellModifier {
    /// What it changes.
    pub target: ModTarget,
    /// Amount (negative for a penalty).
    pub value: Scaled,
    /// Bonus type (untyped when omitted).
    #[serde(rename = "type", default = "untyped")]
    pub bonus_type: BonusType,
    /// When it applies.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub condition: Option<ModCondition>,
    /// The descriptor tested by `save_vs_descriptor`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub descriptor: Option<Descriptor>,
    /// The creature type tested by `vs_creature_type`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub creature_type: Option<CreatureType>,
}

fn untyped() -> BonusType {
    BonusType::Untyped
}

impl SpellModifier {
    /// The vocabulary modifier with this value.
    pub fn resolve(&self, value: i32) -> Modifier {
        Modifier {
            target: self.target,
            value,
            bonus_type: self.bonus_type,
            condition: self.condition,
            descriptor: self.descriptor,
            creature_type: self.creature_type.map(|t| t.name().to_string()),
            weapon: None,
        }
    }
}

/// A bonus the subject spends on one later roll.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct OneShotEffect {
    /// The bonus.
    pub value: i32,
    /// Its type.
    #[serde(rename = "type")]
    pub bonus_type: BonusType,
    /// The rolls it may be spent on (`attack`, `saves`, `skills`).
    pub applies_to: Vec<ModTarget>,
    /// That roll also ignores the target's concealment miss chance (True Strike).
    #[serde(default, skip_serializing_if = "is_false")]
    pub ignores_miss_chance: bool,
}

/// Ability damage or drain.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AbilityDamageEffect {
    /// Which ability.
    pub ability: Ability,
    /// How many points.
    pub amount: Scaled,
}

/// Negative levels.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NegativeLevelsEffect {
    /// How many.
    pub amount: Scaled,
    /// An undead target instead gains this many temporary hit points per level rolled (Enervation: 5).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub undead_temp_hp_per_level: Option<u32>,
}

/// Ends conditions and heals ability damage.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RemoveConditionsEffect {
    /// Conditions ended.
    #[serde(default)]
    pub conditions: Vec<ConditionId>,
    /// Exhausted becomes fatigued.
    #[serde(default, skip_serializing_if = "is_false")]
    pub exhausted_to_fatigued: bool,
    /// Points of ability damage healed (one ability).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ability_damage: Option<Scaled>,
    /// Every point of ability damage healed.
    #[serde(default, skip_serializing_if = "is_false")]
    pub all_ability_damage: bool,
}

/// Summoned creatures: the caster picks one option.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SummonEffect {
    /// What may be summoned.
    pub options: Vec<SummonOption>,
}

/// One summoning choice: a creature, or any creature of a lower spell's list.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SummonOption {
    /// A creature, by its file name under `data/monsters/` (`dire_rat`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub monster: Option<String>,
    /// Any creature of that spell's own list (`summon_monster_i`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub from_spell: Option<String>,
    /// The template it arrives with.
    #[serde(default)]
    pub template: SummonTemplate,
    /// How many come (all of the same kind).
    pub count: Scaled,
}

/// Templates of summoned creatures.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SummonTemplate {
    /// As written.
    #[default]
    None,
    /// Celestial for a good caster, fiendish for an evil one, the caster's
    /// choice for a neutral one (CRB Table 10-1, creatures marked "*").
    CelestialOrFiendish,
}

/// Mirror images.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MirrorImagesEffect {
    /// How many images.
    pub count: Scaled,
}

/// A change of size category.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SizeChangeEffect {
    /// +1: one category larger (space, reach, weapon damage, size modifiers); −1: smaller.
    pub steps: i8,
}

/// A change of speed.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SpeedChangeEffect {
    /// Feet added.
    #[serde(default)]
    pub bonus_ft: i32,
    /// Type of that bonus (default enhancement).
    #[serde(default = "enhancement")]
    pub bonus_type: BonusType,
    /// Percent of the speed kept (Slow: 50, rounded down to 5 ft; default 100).
    #[serde(default = "hundred")]
    pub percent: u32,
    /// The result is at most this many times the normal speed (Haste: 2).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_factor: Option<u32>,
    /// Every movement mode, not only land speed.
    #[serde(default, skip_serializing_if = "is_false")]
    pub all_modes: bool,
}

fn enhancement() -> BonusType {
    BonusType::Enhancement
}

fn hundred() -> u32 {
    100
}

/// A fly speed.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FlyEffect {
    /// Fly speed.
    pub speed_ft: u32,
    /// Fly speed in medium or heavy armor or load.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub speed_ft_encumbered: Option<u32>,
    /// Maneuverability.
    pub maneuverability: Maneuverability,
    /// Bonus on Fly checks.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub skill_bonus: Option<Scaled>,
}

/// Flight maneuverability (the combatant model's).
pub use crate::model::Maneuverability;

/// Outlined creatures lose concealment from these sources.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct OutlineEffect {
    /// Conditions whose concealment stops working (`invisible`, `blurred`, `displaced`).
    pub negates: Vec<ConditionId>,
    /// Concealment from darkness stops working too.
    #[serde(default, skip_serializing_if = "is_false")]
    pub darkness: bool,
}

/// Immunities.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ImmunityEffect {
    /// Conditions that cannot be applied.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub conditions: Vec<ConditionId>,
    /// Effects with these descriptors do nothing.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub descriptors: Vec<Descriptor>,
    /// Damage types that do nothing (`negative`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub damage_types: Vec<String>,
    /// No negative levels (and those already gained have no penalties).
    #[serde(default, skip_serializing_if = "is_false")]
    pub negative_levels: bool,
    /// Grapple attempts against the subject fail, its escapes succeed.
    #[serde(default, skip_serializing_if = "is_false")]
    pub grapple: bool,
    /// Spells (by file name) that do nothing to the subject.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub spells: Vec<String>,
}

/// Energy resistance.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EnergyResistanceEffect {
    /// Energy types.
    pub types: Vec<String>,
    /// The caster picks one of `types`.
    #[serde(default, skip_serializing_if = "is_false")]
    pub choose_one: bool,
    /// Points resisted per attack.
    pub amount: Scaled,
}

/// Immunity to an energy type until `total` damage is absorbed.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EnergyAbsorptionEffect {
    /// Energy types.
    pub types: Vec<String>,
    /// The caster picks one of `types`.
    #[serde(default, skip_serializing_if = "is_false")]
    pub choose_one: bool,
    /// Damage absorbed before the spell is discharged.
    pub total: Scaled,
}

/// Half damage from energy types, none when a Reflex save for half succeeds.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EnergyWardEffect {
    /// Energy types.
    pub types: Vec<String>,
}

/// Damage reduction.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DamageReductionEffect {
    /// Points per attack.
    pub amount: u32,
    /// What overcomes it (as a combatant's `dr.bypass`).
    #[serde(default)]
    pub bypass: Vec<String>,
    /// Damage prevented before the spell is discharged.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub absorbs: Option<Scaled>,
}

/// Effects dealt back to attackers.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RetaliationEffect {
    /// What triggers it.
    pub trigger: RetaliationTrigger,
    /// What the attacker suffers (spell resistance applies).
    pub effects: Vec<SpellEffect>,
}

/// Triggers of a retaliation.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RetaliationTrigger {
    /// A melee hit with the body or a weapon without reach (Fire Shield).
    MeleeHitWithoutReach,
}

/// A lasting area (the spell's area, for the effect's duration).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ZoneEffect {
    /// The area is difficult terrain.
    #[serde(default, skip_serializing_if = "is_false")]
    pub difficult_terrain: bool,
    /// Concealment for creatures in or seen through the area.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub concealment: Option<ZoneConcealment>,
    /// Steps of light level (Darkness: −1).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub light_change: i32,
    /// No sound: no verbal components, sonic and language effects fail (Silence).
    #[serde(default, skip_serializing_if = "is_false")]
    pub silence: bool,
    /// Creatures cannot pass (a wall).
    #[serde(default, skip_serializing_if = "is_false")]
    pub blocks_movement: bool,
    /// Blocks sight and line of sight.
    #[serde(default, skip_serializing_if = "is_false")]
    pub blocks_sight: bool,
    /// Cover given by the area between two creatures (Web).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cover: Option<ZoneCover>,
    /// Spells of this level or lower cannot affect anything inside (Globe of Invulnerability).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub excludes_spells_up_to_level: Option<u8>,
    /// The area moves each round.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub moves: Option<ZoneMove>,
    /// Applied to each creature in the area when the spell takes effect.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub on_appear: Vec<SpellEffect>,
    /// Applied to each creature that enters the area later (or that the area moves onto).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub on_enter: Vec<SpellEffect>,
    /// Applied to each creature in the area every round on the caster's turn.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub each_round: Vec<SpellEffect>,
    /// Whether `each_round` happens at the start (default) or the end of the caster's turn.
    #[serde(default)]
    pub each_round_timing: RoundTiming,
    /// Applied to a creature that moves through the area (a wall).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub on_pass_through: Vec<SpellEffect>,
    /// Applied when the zone appears and every round on the caster's turn to
    /// creatures near the area (a wall's heat): each creature takes the first
    /// band whose distance it is within.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub radiates: Vec<Radiation>,
    /// A check to move in the area.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub movement_check: Option<MovementCheck>,
    /// Hit points of each 10-ft section (a wall).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hp_per_section: Option<Scaled>,
    /// Strength DC to break through a section with one blow.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub break_dc: Option<Scaled>,
}

fn is_zero(v: &i32) -> bool {
    *v == 0
}

/// Concealment in a zone.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ZoneConcealment {
    /// 20 %.
    Partial,
    /// 50 %, cannot be targeted by sight.
    Total,
    /// Fog: concealment at 5 ft, total concealment beyond.
    Fog,
}

/// Cover from a zone between two creatures.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ZoneCover {
    /// Feet of the area between them that give cover.
    pub cover_ft: u32,
    /// Feet that give total cover.
    pub total_cover_ft: u32,
}

/// How a zone moves.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ZoneMove {
    /// Feet per round.
    pub ft_per_round: u32,
    /// Directly away from the caster (Cloudkill).
    pub away_from_caster: bool,
}

/// When a zone's `each_round` effects happen.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RoundTiming {
    /// At the start of the caster's turn.
    #[default]
    StartOfCasterTurn,
    /// At the end of the caster's turn.
    EndOfCasterTurn,
}

/// Effects on creatures near a zone.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Radiation {
    /// Distance from the zone.
    pub within_ft: u32,
    /// Only on the side of the wall the caster chooses.
    #[serde(default, skip_serializing_if = "is_false")]
    pub one_side: bool,
    /// What they suffer.
    pub effects: Vec<SpellEffect>,
}

/// A check to move within a zone.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MovementCheck {
    /// The checks accepted.
    pub checks: Vec<MovementCheckKind>,
    /// The DC.
    pub dc: CheckDc,
    /// Moving succeeds only at half speed.
    #[serde(default, skip_serializing_if = "is_false")]
    pub half_speed: bool,
    /// Applied on a failure (the mover also loses the rest of its movement).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub on_failure: Vec<SpellEffect>,
    /// Applied on a failure by 5 or more.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub on_failure_by_5: Vec<SpellEffect>,
}

/// Checks made to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[allow(missing_docs)]
pub enum MovementCheckKind {
    Acrobatics,
    EscapeArtist,
    Cmb,
}

/// A check DC.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum CheckDc {
    /// The spell's save DC.
    SpellDc,
    /// A fixed DC.
    Fixed(u32),
}

/// A spell construct the caster directs.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ControlledEffect {
    /// What the caster spends to use it each round (`automatic`: it acts on its own every round).
    pub action: ControlAction,
    /// It acts once as part of the casting.
    #[serde(default, skip_serializing_if = "is_false")]
    pub on_cast: bool,
    /// What the caster spends to give it a new target.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub redirect_action: Option<ControlAction>,
    /// Uses in all (Call Lightning: one bolt per level, maximum 10).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub uses: Option<Scaled>,
    /// How far it moves each time it is directed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub moves_ft: Option<u32>,
    /// Its attack, when it makes attack rolls.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub attack: Option<ControlledAttack>,
    /// Where each use strikes (a bolt's square, the sphere's space).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub area: Option<Area>,
    /// What each use (or hit) does.
    pub effects: Vec<SpellEffect>,
}

/// Actions that direct a construct.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[allow(missing_docs)]
pub enum ControlAction {
    Automatic,
    Swift,
    Move,
    Standard,
}

/// A construct's attack roll.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ControlledAttack {
    /// Melee (resolved against normal AC).
    pub kind: ControlledAttackKind,
    /// Attack bonus.
    pub bonus: AttackBonusSource,
    /// Iterative attacks when the bonus allows them.
    #[serde(default, skip_serializing_if = "is_false")]
    pub iterative: bool,
    /// Lowest natural roll that threatens.
    pub crit_range: u32,
    /// Critical multiplier.
    pub crit_mult: u32,
}

/// Kinds of construct attacks.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ControlledAttackKind {
    /// An attack against normal AC.
    Melee,
}

/// Where an attack bonus comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum AttackBonusSource {
    /// The caster's base attack bonus plus its casting ability modifier.
    CasterBabPlusCastingModifier,
}

/// An attack the subject may make for the duration.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GrantedAttackEffect {
    /// How it may be made.
    pub kinds: Vec<AttackKind>,
    /// Range of a ranged use.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub range: Option<Range>,
    /// Uses in all.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub uses: Option<Scaled>,
    /// What a hit does.
    pub effects: Vec<SpellEffect>,
}

/// A combat maneuver made by the spell.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ManeuverEffect {
    /// Which maneuver.
    pub kind: ManeuverKind,
    /// Its combat maneuver bonus.
    pub cmb: Scaled,
    /// Bonus against a creature it already grapples.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub bonus_if_already_grappled: i32,
    /// One roll each round for every creature.
    #[serde(default, skip_serializing_if = "is_false")]
    pub one_roll_for_all: bool,
    /// What a success does.
    pub effects: Vec<SpellEffect>,
}

/// Maneuvers.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[allow(missing_docs)]
pub enum ManeuverKind {
    Grapple,
}

/// A push away from the caster.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PushEffect {
    /// Distance in feet.
    pub distance_ft: Scaled,
    /// Feet less per size category above Medium.
    #[serde(default)]
    pub less_per_size_above_medium_ft: u32,
}

/// The caster teleports within the spell's range.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TeleportEffect {
    /// Willing Medium creatures in contact it may bring.
    pub passengers: Scaled,
    /// The caster can take no other action until its next turn.
    #[serde(default, skip_serializing_if = "is_false")]
    pub ends_turn: bool,
}

/// Ends spells with a dispel check (d20 + caster level vs 11 + the spell's caster level).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DispelEffect {
    /// Highest caster level counted in the check.
    pub max_caster_level: u32,
    /// Ways it may be used.
    pub modes: Vec<DispelMode>,
}

/// Ways to dispel.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum DispelMode {
    /// One creature: the spell with the highest caster level first.
    Targeted,
    /// Counter a spell being cast.
    Counterspell,
}

/// The creature acts as told.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CompelEffect {
    /// What it does.
    pub behaviour: Behaviour,
    /// Ends when the caster or its allies threaten or attack the creature.
    #[serde(default, skip_serializing_if = "is_false")]
    pub ends_when_threatened: bool,
}

/// Compelled behaviours.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Behaviour {
    /// Moves toward the caster and does nothing else.
    ApproachCaster,
    /// Moves away from the caster and does nothing else.
    FleeCaster,
    /// Drops what it holds.
    DropHeldItems,
    /// Regards the caster as a friend: does not attack the caster or its allies.
    FriendlyToCaster,
    /// Stops fighting and leaves the battle.
    LeaveBattle,
}

/// Rolls taken twice or rerolled.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RerollEffect {
    /// How.
    pub mode: RerollMode,
    /// How many rolls it affects.
    pub rolls: Scaled,
}

/// Reroll modes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RerollMode {
    /// The subject's next d20 rolls are rolled twice, the worse kept (Ill Omen).
    TakeWorse,
    /// The subject rerolls the saving throw it just failed (Saving Finale).
    RerollFailedSave,
}

/// A chance each turn to take no action.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ActionLossEffect {
    /// Percent chance each turn of taking no action.
    pub chance_percent: u32,
}

/// The caster picks one option when casting.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ChoiceEffect {
    /// The options.
    pub options: Vec<ChoiceOption>,
}

/// One option of a choice.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ChoiceOption {
    /// Its name (`fall`, `warm_shield`).
    pub name: String,
    /// What it does.
    pub effects: Vec<SpellEffect>,
}

/// Touch spells delivered at range.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TouchDeliveryEffect {
    /// Bonus on the melee touch attack.
    pub attack_bonus: i32,
    /// Highest spell level it delivers.
    pub max_spell_level: u8,
    /// Hit points the caster loses while it lasts.
    pub caster_hp_cost: Scaled,
}

/// A straight move with one melee attack on the way.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DashEffect {
    /// Distance of the move.
    pub distance_ft: u32,
    /// The move provokes attacks of opportunity.
    #[serde(default)]
    pub provokes: bool,
    /// The attack's circumstance bonus is the best modifier of these abilities.
    pub attack_bonus_from: Vec<Ability>,
}

/// Protection against an alignment.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AlignmentWardEffect {
    /// The alignment warded against.
    pub alignment: AlignmentComponent,
    /// Natural attacks of summoned creatures of that alignment fail.
    #[serde(default, skip_serializing_if = "is_false")]
    pub blocks_summoned_contact: bool,
    /// Charm and compulsion effects from such creatures are suppressed.
    #[serde(default, skip_serializing_if = "is_false")]
    pub blocks_mental_control: bool,
}

/// Qualities the targeted weapon gains.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct WeaponQualitiesEffect {
    /// Qualities (as an attack's `qualities`).
    pub add: Vec<String>,
}

impl SpellEffect {
    /// The effects nested in this one (`on_success`, a condition's `then`, a
    /// zone's triggers, a choice's options…), each with its JSON path below `path`.
    pub fn children<'a>(&'a self, path: &str) -> Vec<(String, &'a SpellEffect)> {
        fn add<'a>(out: &mut Vec<(String, &'a SpellEffect)>, field: String, list: &'a [SpellEffect]) {
            out.extend(list.iter().enumerate().map(|(i, e)| (format!("{field}[{i}]"), e)));
        }
        let mut out: Vec<(String, &SpellEffect)> = Vec::new();
        let mut push = |field: String, list: &'a [SpellEffect]| add(&mut out, field, list);
        push(format!("{path}.on_success"), &self.on_success);
        let k = format!("{path}.{}", self.kind.name());
        match &self.kind {
            EffectKind::Condition(c) => push(format!("{k}.then"), &c.then),
            EffectKind::Retaliation(r) => push(format!("{k}.effects"), &r.effects),
            EffectKind::Controlled(c) => push(format!("{k}.effects"), &c.effects),
            EffectKind::GrantedAttack(g) => push(format!("{k}.effects"), &g.effects),
            EffectKind::Maneuver(m) => push(format!("{k}.effects"), &m.effects),
            EffectKind::Choice(c) => {
                for (i, option) in c.options.iter().enumerate() {
                    push(format!("{k}.options[{i}].effects"), &option.effects);
                }
            }
            EffectKind::Zone(z) => {
                push(format!("{k}.on_appear"), &z.on_appear);
                push(format!("{k}.on_enter"), &z.on_enter);
                push(format!("{k}.each_round"), &z.each_round);
                push(format!("{k}.on_pass_through"), &z.on_pass_through);
                for (i, r) in z.radiates.iter().enumerate() {
                    push(format!("{k}.radiates[{i}].effects"), &r.effects);
                }
                if let Some(m) = &z.movement_check {
                    push(format!("{k}.movement_check.on_failure"), &m.on_failure);
                    push(format!("{k}.movement_check.on_failure_by_5"), &m.on_failure_by_5);
                }
            }
            _ => {}
        }
        out
    }
}

// ---- the shared fields, read and written by hand ----

impl Serialize for SpellEffect {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut map = s.serialize_map(None)?;
        self.kind.write(&mut map)?;
        if !self.only.is_empty() {
            map.serialize_entry("only", &self.only)?;
        }
        if let Some(save) = &self.save {
            map.serialize_entry("save", save)?;
        }
        if let Some(kind) = &self.save_kind {
            map.serialize_entry("save_kind", kind)?;
        }
        if !self.on_success.is_empty() {
            map.serialize_entry("on_success", &self.on_success)?;
        }
        if let Some(duration) = &self.duration {
            map.serialize_entry("duration", duration)?;
        }
        map.end()
    }
}

impl<'de> Deserialize<'de> for SpellEffect {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_map(EffectVisitor)
    }
}

struct EffectVisitor;

impl<'de> Visitor<'de> for EffectVisitor {
    type Value = SpellEffect;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("an effect: an object with one kind key (damage, condition, modifiers…)")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<SpellEffect, A::Error> {
        let mut kind: Option<EffectKind> = None;
        let mut only = None;
        let mut save = None;
        let mut save_kind = None;
        let mut on_success = None;
        let mut duration = None;
        while let Some(EffectKey(key)) = map.next_key::<EffectKey>()? {
            match key.as_str() {
                "only" => set(&mut only, "only", map.next_value()?)?,
                "save" => set(&mut save, "save", map.next_value()?)?,
                "save_kind" => set(&mut save_kind, "save_kind", map.next_value()?)?,
                "on_success" => set(&mut on_success, "on_success", map.next_value()?)?,
                "duration" => set(&mut duration, "duration", map.next_value()?)?,
                other => match EffectKind::read(other, &mut map)? {
                    Some(k) => {
                        if let Some(first) = &kind {
                            return Err(de::Error::custom(format!(
                                "an effect has exactly one kind, found `{}` and `{other}` (write two effects)",
                                first.name()
                            )));
                        }
                        kind = Some(k);
                    }
                    None => return Err(de::Error::unknown_field(other, EFFECT_KEYS)),
                },
            }
        }
        let Some(kind) = kind else {
            return Err(de::Error::custom(format!(
                "missing effect kind: expected one of {}",
                EffectKind::NAMES.join(", ")
            )));
        };
        Ok(SpellEffect {
            kind,
            only: only.unwrap_or_default(),
            save,
            save_kind,
            on_success: on_success.unwrap_or_default(),
            duration,
        })
    }
}

/// A key of an effect object, refused while it is read when it is unknown
/// (so that the error's JSON path ends with the key, as for derived structs).
struct EffectKey(String);

impl<'de> Deserialize<'de> for EffectKey {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let key = String::deserialize(d)?;
        if EFFECT_KEYS.contains(&key.as_str()) {
            Ok(EffectKey(key))
        } else {
            Err(de::Error::unknown_field(&key, EFFECT_KEYS))
        }
    }
}

fn set<T, E: de::Error>(slot: &mut Option<T>, key: &'static str, value: T) -> Result<(), E> {
    if slot.is_some() {
        return Err(E::duplicate_field(key));
    }
    *slot = Some(value);
    Ok(())
}
