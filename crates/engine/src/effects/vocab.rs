//! The names data files use for modifiers, conditions, saves and descriptors.
//!
//! Every enum serializes as its snake_case name (`natural_armor`,
//! `flat_footed`, `mind_affecting`) and has `ALL` and `name()`, so a data
//! error can list the accepted values. Renaming a variant changes the data
//! format: update `docs/data-format.md` and every data file with it.

use serde::{Deserialize, Serialize};

crate::named_enum! {
    /// Bonus (and penalty) types of the CRB ("Bonuses"). Dodge, racial,
    /// trait, untyped and circumstance bonuses from different sources add up;
    /// every other type keeps only the largest bonus. Penalties follow the
    /// same rule.
    BonusType {
        /// Alchemical.
        Alchemical => "alchemical",
        /// Armor (counts toward AC, not touch AC).
        Armor => "armor",
        /// Circumstance.
        Circumstance => "circumstance",
        /// Competence.
        Competence => "competence",
        /// Deflection (AC, touch and flat-footed).
        Deflection => "deflection",
        /// Dodge (lost when denied Dexterity).
        Dodge => "dodge",
        /// Enhancement.
        Enhancement => "enhancement",
        /// Insight.
        Insight => "insight",
        /// Luck.
        Luck => "luck",
        /// Morale.
        Morale => "morale",
        /// Natural armor (not touch AC).
        NaturalArmor => "natural_armor",
        /// Profane.
        Profane => "profane",
        /// Racial.
        Racial => "racial",
        /// Resistance (saves).
        Resistance => "resistance",
        /// Sacred.
        Sacred => "sacred",
        /// Shield (not touch AC).
        Shield => "shield",
        /// Size.
        Size => "size",
        /// Trait.
        Trait => "trait",
        /// Untyped.
        Untyped => "untyped",
    }
}

impl BonusType {
    /// Whether bonuses of this type from different sources add up (CRB:
    /// dodge, racial, trait, untyped and circumstance); every other type
    /// keeps only the largest.
    pub const fn stacks(self) -> bool {
        matches!(
            self,
            BonusType::Dodge
                | BonusType::Racial
                | BonusType::Trait
                | BonusType::Untyped
                | BonusType::Circumstance
        )
    }
}

crate::named_enum! {
    /// What a modifier changes.
    ModTarget {
        /// Every attack roll.
        Attack => "attack",
        /// Melee attack rolls (melee touch included).
        MeleeAttack => "melee_attack",
        /// Ranged attack rolls (ranged touch included).
        RangedAttack => "ranged_attack",
        /// Weapon damage rolls (not spells).
        Damage => "damage",
        /// Melee weapon damage.
        MeleeDamage => "melee_damage",
        /// Ranged weapon damage.
        RangedDamage => "ranged_damage",
        /// Armor class; the bonus type decides whether touch and flat-footed AC see it.
        Ac => "ac",
        /// Fortitude saves.
        Fort => "fort",
        /// Reflex saves.
        Ref => "ref",
        /// Will saves.
        Will => "will",
        /// Every saving throw.
        Saves => "saves",
        /// Initiative checks.
        Initiative => "initiative",
        /// Combat maneuver bonus.
        Cmb => "cmb",
        /// Combat maneuver defense.
        Cmd => "cmd",
        /// Concentration checks.
        Concentration => "concentration",
        /// Every skill check.
        Skills => "skills",
        /// Dexterity-based skill checks.
        DexSkills => "dex_skills",
        /// Strength-based skill checks.
        StrSkills => "str_skills",
        /// Strength score.
        Str => "str",
        /// Dexterity score.
        Dex => "dex",
        /// Constitution score.
        Con => "con",
        /// Intelligence score.
        Int => "int",
        /// Wisdom score.
        Wis => "wis",
        /// Charisma score.
        Cha => "cha",
        /// Base land speed, in feet.
        Speed => "speed",
        /// Caster level.
        CasterLevel => "caster_level",
        /// Spell resistance.
        SpellResistance => "spell_resistance",
        /// Ability checks (all six abilities).
        AbilityChecks => "ability_checks",
        /// Strength checks.
        StrChecks => "str_checks",
        /// Attack rolls made to confirm a critical hit (on top of the attack roll's own modifiers).
        CritConfirm => "crit_confirm",
    }
}

impl ModTarget {
    /// What each negative level takes 1 from: attack rolls, saving throws,
    /// skill and ability checks, CMB and CMD (SRD, Universal Monster Rules,
    /// "Energy Drain and Negative Levels"). Spells and monsters share it.
    pub const NEGATIVE_LEVEL: [ModTarget; 6] = [
        ModTarget::Attack,
        ModTarget::Saves,
        ModTarget::Skills,
        ModTarget::Cmb,
        ModTarget::Cmd,
        ModTarget::AbilityChecks,
    ];
}

crate::named_enum! {
    /// When a conditioned modifier applies; a modifier with no condition
    /// always applies.
    ModCondition {
        /// Against melee attacks (AC) or on melee attacks.
        VsMelee => "vs_melee",
        /// Against ranged attacks (AC) or on ranged attacks.
        VsRanged => "vs_ranged",
        /// A ranged attack at a target within 30 ft (Point-Blank Shot).
        RangedWithin30Ft => "ranged_within_30ft",
        /// On attacks of opportunity.
        AttackOfOpportunity => "attack_of_opportunity",
        /// On a charge.
        Charging => "charging",
        /// Saves against an effect with the modifier's `descriptor`.
        SaveVsDescriptor => "save_vs_descriptor",
        /// Saves against spells and spell-like abilities.
        SaveVsSpells => "save_vs_spells",
        /// Against creatures of the modifier's `creature_type`.
        VsCreatureType => "vs_creature_type",
        /// Against attacks made and effects created by evil creatures (Protection from Evil).
        VsEvil => "vs_evil",
        /// Against attacks made and effects created by good creatures.
        VsGood => "vs_good",
        /// Against attacks made and effects created by chaotic creatures.
        VsChaotic => "vs_chaotic",
        /// Against attacks made and effects created by lawful creatures.
        VsLawful => "vs_lawful",
        /// Concentration checks to cast defensively or while grappled (Combat Casting).
        CastingDefensivelyOrGrappled => "casting_defensively_or_grappled",
        /// Trip checks (CMB), or defending against a trip (CMD).
        Trip => "trip",
        /// Disarm checks, or defending against a disarm.
        Disarm => "disarm",
        /// Bull rush checks, or defending against a bull rush.
        BullRush => "bull_rush",
        /// Sunder checks, or defending against a sunder.
        Sunder => "sunder",
        /// Grapple checks, or defending against a grapple.
        Grapple => "grapple",
        /// Checks to escape a grapple.
        Escape => "escape",
        /// Overrun checks, or defending against an overrun.
        Overrun => "overrun",
        /// Dirty trick checks, or defending against a dirty trick.
        DirtyTrick => "dirty_trick",
        /// Steal checks, or defending against a steal.
        Steal => "steal",
        /// Reposition checks, or defending against a reposition.
        Reposition => "reposition",
        /// Drag checks, or defending against a drag.
        Drag => "drag",
    }
}

crate::named_enum! {
    /// A saving throw.
    SaveKind {
        /// Fortitude.
        Fort => "fort",
        /// Reflex.
        Ref => "ref",
        /// Will.
        Will => "will",
    }
}

crate::named_enum! {
    /// Descriptors an effect carries, which conditioned save modifiers test
    /// (`+2 racial vs poison`, `+1 morale vs fear`).
    Descriptor {
        /// Fear effects.
        Fear => "fear",
        /// Mind-affecting effects.
        MindAffecting => "mind_affecting",
        /// Charm effects.
        Charm => "charm",
        /// Compulsion effects.
        Compulsion => "compulsion",
        /// Emotion effects.
        Emotion => "emotion",
        /// Poison.
        Poison => "poison",
        /// Disease.
        Disease => "disease",
        /// Sleep effects.
        Sleep => "sleep",
        /// Paralysis.
        Paralysis => "paralysis",
        /// Death effects.
        Death => "death",
        /// Acid.
        Acid => "acid",
        /// Cold.
        Cold => "cold",
        /// Electricity.
        Electricity => "electricity",
        /// Fire.
        Fire => "fire",
        /// Sonic.
        Sonic => "sonic",
        /// Force.
        Force => "force",
        /// Light.
        Light => "light",
        /// Darkness.
        Darkness => "darkness",
        /// Evil.
        Evil => "evil",
        /// Good.
        Good => "good",
        /// Chaotic.
        Chaotic => "chaotic",
        /// Lawful.
        Lawful => "lawful",
        /// Language-dependent.
        LanguageDependent => "language_dependent",
        /// Enchantment school.
        Enchantment => "enchantment",
        /// Illusion school.
        Illusion => "illusion",
        /// Divination school.
        Divination => "divination",
        /// Necromancy school.
        Necromancy => "necromancy",
        /// Effects of fey creatures.
        Fey => "fey",
        /// Traps.
        Traps => "traps",
        /// Water.
        Water => "water",
        /// Curses.
        Curse => "curse",
        /// Pain effects.
        Pain => "pain",
    }
}

crate::named_enum! {
    /// The conditions of the CRB appendix the engine plays (29, plus
    /// `unconscious` and `disarmed`), and the spell states that behave as
    /// conditions (`blurred`, `displaced`, `bane`).
    ConditionId {
        /// Shaken.
        Shaken => "shaken",
        /// Sickened.
        Sickened => "sickened",
        /// Fatigued.
        Fatigued => "fatigued",
        /// Exhausted.
        Exhausted => "exhausted",
        /// Entangled.
        Entangled => "entangled",
        /// Dazzled.
        Dazzled => "dazzled",
        /// Blinded.
        Blinded => "blinded",
        /// Deafened.
        Deafened => "deafened",
        /// Flat-footed.
        FlatFooted => "flat_footed",
        /// Prone.
        Prone => "prone",
        /// Stunned.
        Stunned => "stunned",
        /// Paralyzed.
        Paralyzed => "paralyzed",
        /// Nauseated.
        Nauseated => "nauseated",
        /// Dazed.
        Dazed => "dazed",
        /// Staggered.
        Staggered => "staggered",
        /// Frightened.
        Frightened => "frightened",
        /// Panicked.
        Panicked => "panicked",
        /// Cowering.
        Cowering => "cowering",
        /// Helpless.
        Helpless => "helpless",
        /// Fascinated.
        Fascinated => "fascinated",
        /// Invisible.
        Invisible => "invisible",
        /// Bleeding.
        Bleeding => "bleeding",
        /// Confused.
        Confused => "confused",
        /// Under a Bane spell.
        Bane => "bane",
        /// Blurred (Blur, Mirror Image).
        Blurred => "blurred",
        /// Displaced (Displacement).
        Displaced => "displaced",
        /// Grappled.
        Grappled => "grappled",
        /// Pinned.
        Pinned => "pinned",
        /// Asleep.
        Asleep => "asleep",
        /// Unconscious.
        Unconscious => "unconscious",
        /// Disarmed.
        Disarmed => "disarmed",
    }
}

crate::named_enum! {
    /// The combat maneuvers (CRB "Combat Maneuvers", APG).
    Maneuver {
        /// Trip: the target falls prone.
        Trip => "trip",
        /// Disarm: the target drops its weapon.
        Disarm => "disarm",
        /// Bull rush: the target is pushed away.
        BullRush => "bull_rush",
        /// Sunder: the target's weapon is damaged.
        Sunder => "sunder",
        /// Grapple: the target is grappled.
        Grapple => "grapple",
        /// Escape a grapple.
        Escape => "escape",
        /// Overrun: move through the target's space.
        Overrun => "overrun",
        /// Dirty trick: a short condition.
        DirtyTrick => "dirty_trick",
        /// Steal: take a carried item.
        Steal => "steal",
        /// Reposition: move the target.
        Reposition => "reposition",
        /// Drag: pull the target along.
        Drag => "drag",
    }
}

impl Maneuver {
    /// The modifier condition naming this maneuver (`+2 cmb` only on trips…).
    pub const fn condition(self) -> ModCondition {
        match self {
            Maneuver::Trip => ModCondition::Trip,
            Maneuver::Disarm => ModCondition::Disarm,
            Maneuver::BullRush => ModCondition::BullRush,
            Maneuver::Sunder => ModCondition::Sunder,
            Maneuver::Grapple => ModCondition::Grapple,
            Maneuver::Escape => ModCondition::Escape,
            Maneuver::Overrun => ModCondition::Overrun,
            Maneuver::DirtyTrick => ModCondition::DirtyTrick,
            Maneuver::Steal => ModCondition::Steal,
            Maneuver::Reposition => ModCondition::Reposition,
            Maneuver::Drag => ModCondition::Drag,
        }
    }
}

/// A typed modifier as data files write it:
/// `{ "target": "attack", "value": 1, "type": "morale" }`, optionally with a
/// condition (`"condition": "save_vs_descriptor", "descriptor": "fear"`) or a
/// weapon filter (`"weapon": "falchion"`: attacks whose name or id contains it,
/// case-insensitively).
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Modifier {
    /// What it changes.
    pub target: ModTarget,
    /// Signed amount (a penalty is negative).
    pub value: i32,
    /// Bonus type (untyped when omitted).
    #[serde(rename = "type", default = "untyped")]
    pub bonus_type: BonusType,
    /// When it applies (always when omitted).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub condition: Option<ModCondition>,
    /// The descriptor tested by `save_vs_descriptor`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub descriptor: Option<Descriptor>,
    /// The creature type tested by `vs_creature_type`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub creature_type: Option<String>,
    /// Only attacks and damage with a weapon whose name or id contains this text.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub weapon: Option<String>,
}

fn untyped() -> BonusType {
    BonusType::Untyped
}

impl Modifier {
    /// A modifier that always applies, to every weapon.
    pub const fn new(target: ModTarget, value: i32, bonus_type: BonusType) -> Modifier {
        Modifier {
            target,
            value,
            bonus_type,
            condition: None,
            descriptor: None,
            creature_type: None,
            weapon: None,
        }
    }

    /// The same modifier, limited to attacks and damage with the weapons whose name or id contains `weapon`.
    pub fn on_weapon(self, weapon: impl Into<String>) -> Modifier {
        Modifier { weapon: Some(weapon.into()), ..self }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip_through_serde_and_from_name() {
        for c in ConditionId::ALL {
            let json = serde_json::to_string(c).unwrap();
            assert_eq!(json, format!("\"{}\"", c.name()));
            assert_eq!(ConditionId::from_name(c.name()), Some(*c));
        }
        assert_eq!(ConditionId::ALL.len(), 31);
        assert_eq!(BonusType::from_name("natural_armor"), Some(BonusType::NaturalArmor));
    }

    #[test]
    fn a_modifier_reads_with_untyped_default_and_refuses_unknown_fields() {
        let m: Modifier = serde_json::from_str(r#"{"target":"attack","value":1}"#).unwrap();
        assert_eq!(m.bonus_type, BonusType::Untyped);
        assert!(serde_json::from_str::<Modifier>(r#"{"target":"attack","value":1,"kind":"x"}"#).is_err());
        assert!(serde_json::from_str::<Modifier>(r#"{"target":"attak","value":1}"#).is_err());
    }

    #[test]
    fn only_the_crb_stacking_types_stack() {
        let stacking: Vec<_> = BonusType::ALL.iter().filter(|t| t.stacks()).map(|t| t.name()).collect();
        assert_eq!(stacking, ["circumstance", "dodge", "racial", "trait", "untyped"]);
    }
}
