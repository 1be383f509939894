//! Modifiers in the form the engine plays them: compiled once from the data
//! form ([`Modifier`]), with the weapon filter turned into a set of the
//! bearer's attacks and the condition into a test on the roll being made.

use super::stacking::Tally;
use super::vocab::{BonusType, Descriptor, Maneuver, ModCondition, ModTarget, Modifier};

/// A set of modifier targets (bit = `ModTarget as usize`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Targets(pub u32);

impl Targets {
    /// No target.
    pub const NONE: Targets = Targets(0);

    /// The set of one target.
    pub const fn of(t: ModTarget) -> Self {
        Targets(1 << t as u32)
    }

    /// The union of two sets.
    pub const fn with(self, t: ModTarget) -> Self {
        Targets(self.0 | 1 << t as u32)
    }

    /// Whether the sets share a target.
    #[inline]
    pub const fn meets(self, other: Targets) -> bool {
        self.0 & other.0 != 0
    }

    /// The union of two sets.
    pub const fn union(self, other: Targets) -> Self {
        Targets(self.0 | other.0)
    }

    /// Targets read by a melee attack roll.
    pub const MELEE_ATTACK: Targets = Targets::of(ModTarget::Attack).with(ModTarget::MeleeAttack);
    /// Targets read by a ranged attack roll.
    pub const RANGED_ATTACK: Targets = Targets::of(ModTarget::Attack).with(ModTarget::RangedAttack);
    /// Targets read by melee weapon damage.
    pub const MELEE_DAMAGE: Targets = Targets::of(ModTarget::Damage).with(ModTarget::MeleeDamage);
    /// Targets read by ranged weapon damage.
    pub const RANGED_DAMAGE: Targets = Targets::of(ModTarget::Damage).with(ModTarget::RangedDamage);
    /// Armor class.
    pub const AC: Targets = Targets::of(ModTarget::Ac);
    /// Ability scores that change derived numbers (Strength, Dexterity).
    pub const STR_DEX: Targets = Targets::of(ModTarget::Str).with(ModTarget::Dex);
    /// A combat maneuver check: the attack roll's modifiers and the CMB's.
    pub const CMB: Targets = Targets::of(ModTarget::Cmb).with(ModTarget::Attack).with(ModTarget::MeleeAttack);
    /// Combat maneuver defense, and the AC modifiers that count toward it.
    pub const CMD: Targets = Targets::of(ModTarget::Cmd).with(ModTarget::Ac);
    /// Initiative.
    pub const INITIATIVE: Targets = Targets::of(ModTarget::Initiative);
    /// Concentration.
    pub const CONCENTRATION: Targets = Targets::of(ModTarget::Concentration);
    /// Critical confirmation rolls (on top of the attack roll's targets).
    pub const CRIT_CONFIRM: Targets = Targets::of(ModTarget::CritConfirm);
    /// Movement speed.
    pub const SPEED: Targets = Targets::of(ModTarget::Speed);

    /// Targets read by a saving throw of `kind`.
    pub const fn save(kind: super::SaveKind) -> Targets {
        let own = match kind {
            super::SaveKind::Fort => ModTarget::Fort,
            super::SaveKind::Ref => ModTarget::Ref,
            super::SaveKind::Will => ModTarget::Will,
        };
        Targets::of(ModTarget::Saves).with(own)
    }

    /// Targets read by a skill check (`dex` / `str`: its key ability).
    pub const fn skill(dex: bool, str: bool) -> Targets {
        let mut t = Targets::of(ModTarget::Skills);
        if dex {
            t = t.with(ModTarget::DexSkills);
        }
        if str {
            t = t.with(ModTarget::StrSkills);
        }
        t
    }
}

/// A set of descriptors (bit = `Descriptor as usize`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Descriptors(pub u64);

impl Descriptors {
    /// No descriptor.
    pub const NONE: Descriptors = Descriptors(0);

    /// The set of these descriptors.
    pub fn of(list: &[Descriptor]) -> Self {
        Descriptors(list.iter().fold(0, |acc, &d| acc | 1 << d as u64))
    }

    /// Whether `d` is in the set.
    #[inline]
    pub const fn has(self, d: Descriptor) -> bool {
        self.0 >> d as u64 & 1 == 1
    }
}

/// When a compiled modifier applies.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum When {
    /// Always.
    Always,
    /// On melee attacks, or as AC against melee attacks.
    VsMelee,
    /// On ranged attacks, or as AC against ranged attacks.
    VsRanged,
    /// A ranged attack at a target within 30 ft.
    RangedWithin30Ft,
    /// On attacks of opportunity, or as AC against them.
    AttackOfOpportunity,
    /// On a charge.
    Charging,
    /// Saves against an effect with this descriptor.
    Descriptor(Descriptor),
    /// Saves against spells and spell-like abilities.
    Spells,
    /// Against creatures of this type (an index into the encounter's creature types).
    CreatureType(u16),
    /// Concentration to cast defensively or while grappled.
    CastingDefensivelyOrGrappled,
    /// On this maneuver's check, or defending against it.
    Maneuver(Maneuver),
    /// Against a creature with this alignment component (bit of [`Alignment`]).
    VsAlignment(u8),
    /// Never: a condition that cannot hold in this encounter (a creature type nobody has).
    Never,
}

/// The roll a modifier is asked about: what `When` conditions test.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Context {
    /// A melee attack (or AC against one).
    pub melee: bool,
    /// A ranged attack (or AC against one).
    pub ranged: bool,
    /// Ranged, at a target within 30 ft.
    pub within_30ft: bool,
    /// An attack of opportunity.
    pub aoo: bool,
    /// Part of a charge.
    pub charging: bool,
    /// Descriptors of the effect a save is made against.
    pub descriptors: Descriptors,
    /// The save is against a spell or spell-like ability.
    pub spell: bool,
    /// Creature type index of the other creature (`u16::MAX`: none).
    pub other_type: Option<u16>,
    /// Concentration to cast defensively or while grappled.
    pub defensive_casting: bool,
    /// The maneuver being made or defended against.
    pub maneuver: Option<Maneuver>,
    /// The bearer's attack used (index into its attacks), for weapon filters.
    pub weapon: Option<usize>,
    /// Alignment components of the other creature (the attacker, the target,
    /// the caster of the effect saved against), [`Alignment`] bits.
    pub other_alignment: u8,
    /// The save is against channeled energy (channel resistance applies).
    pub channel: bool,
}

/// Alignment components as bits (`Context::other_alignment`).
pub struct Alignment;

impl Alignment {
    /// Good.
    pub const GOOD: u8 = 1;
    /// Evil.
    pub const EVIL: u8 = 2;
    /// Lawful.
    pub const LAWFUL: u8 = 4;
    /// Chaotic.
    pub const CHAOTIC: u8 = 8;

    /// The components of an alignment code (`LG`, `N`, `CE`…).
    pub fn of(code: &str) -> u8 {
        let mut bits = 0;
        let mut chars = code.chars();
        match chars.next() {
            Some('L') => bits |= Self::LAWFUL,
            Some('C') => bits |= Self::CHAOTIC,
            _ => {}
        }
        match code.chars().last() {
            Some('G') => bits |= Self::GOOD,
            Some('E') => bits |= Self::EVIL,
            _ => {}
        }
        bits
    }
}

impl When {
    /// Whether the condition holds for the roll `ctx`.
    #[inline]
    pub fn holds(self, ctx: &Context) -> bool {
        match self {
            When::Always => true,
            When::VsMelee => ctx.melee,
            When::VsRanged => ctx.ranged,
            When::RangedWithin30Ft => ctx.ranged && ctx.within_30ft,
            When::AttackOfOpportunity => ctx.aoo,
            When::Charging => ctx.charging,
            When::Descriptor(d) => ctx.descriptors.has(d),
            When::Spells => ctx.spell,
            When::CreatureType(t) => ctx.other_type == Some(t),
            When::CastingDefensivelyOrGrappled => ctx.defensive_casting,
            When::Maneuver(m) => ctx.maneuver == Some(m),
            When::VsAlignment(bit) => ctx.other_alignment & bit != 0,
            When::Never => false,
        }
    }
}

/// All of the bearer's attacks.
pub const ALL_WEAPONS: u64 = u64::MAX;

/// A modifier ready to play.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Mod {
    /// What it changes.
    pub target: ModTarget,
    /// Signed amount.
    pub value: i32,
    /// Bonus type.
    pub bonus_type: BonusType,
    /// When it applies.
    pub when: When,
    /// The bearer's attacks it applies to (bit k: attack k); `ALL_WEAPONS` for every roll.
    pub weapons: u64,
}

impl Mod {
    /// An unconditional modifier.
    pub const fn new(target: ModTarget, value: i32, bonus_type: BonusType) -> Self {
        Self { target, value, bonus_type, when: When::Always, weapons: ALL_WEAPONS }
    }

    /// The same modifier under a condition.
    pub const fn when(mut self, when: When) -> Self {
        self.when = when;
        self
    }

    /// An untyped modifier.
    pub const fn untyped(target: ModTarget, value: i32) -> Self {
        Self::new(target, value, BonusType::Untyped)
    }

    /// Compiles the data form for a bearer whose attack names and ids are
    /// `attacks`; `creature_type` maps a creature type name to the
    /// encounter's index for it (`None`: nobody in the encounter has it).
    pub fn compile<'a>(
        m: &Modifier,
        attacks: impl IntoIterator<Item = (&'a str, &'a str)>,
        creature_type: impl Fn(&str) -> Option<u16>,
    ) -> Self {
        let when = match m.condition {
            None => When::Always,
            Some(ModCondition::VsMelee) => When::VsMelee,
            Some(ModCondition::VsRanged) => When::VsRanged,
            Some(ModCondition::RangedWithin30Ft) => When::RangedWithin30Ft,
            Some(ModCondition::AttackOfOpportunity) => When::AttackOfOpportunity,
            Some(ModCondition::Charging) => When::Charging,
            Some(ModCondition::SaveVsDescriptor) => m.descriptor.map_or(When::Never, When::Descriptor),
            Some(ModCondition::SaveVsSpells) => When::Spells,
            Some(ModCondition::VsCreatureType) => {
                m.creature_type.as_deref().and_then(&creature_type).map_or(When::Never, When::CreatureType)
            }
            Some(ModCondition::CastingDefensivelyOrGrappled) => When::CastingDefensivelyOrGrappled,
            Some(ModCondition::VsEvil) => When::VsAlignment(Alignment::EVIL),
            Some(ModCondition::VsGood) => When::VsAlignment(Alignment::GOOD),
            Some(ModCondition::VsLawful) => When::VsAlignment(Alignment::LAWFUL),
            Some(ModCondition::VsChaotic) => When::VsAlignment(Alignment::CHAOTIC),
            Some(c) => maneuver_of(c).map_or(When::Never, When::Maneuver),
        };
        let weapons = match &m.weapon {
            None => ALL_WEAPONS,
            Some(filter) => weapon_bits(filter, attacks),
        };
        Self { target: m.target, value: m.value, bonus_type: m.bonus_type, when, weapons }
    }

    /// Whether it applies to a roll reading `targets` in `ctx`.
    #[inline]
    pub fn applies(&self, targets: Targets, ctx: &Context) -> bool {
        Targets::of(self.target).meets(targets)
            && (self.weapons == ALL_WEAPONS
                || ctx.weapon.is_some_and(|w| w < 64 && self.weapons >> w & 1 == 1))
            && self.when.holds(ctx)
    }
}

/// The maneuver a modifier condition names, if any.
pub const fn maneuver_of(c: ModCondition) -> Option<Maneuver> {
    Some(match c {
        ModCondition::Trip => Maneuver::Trip,
        ModCondition::Disarm => Maneuver::Disarm,
        ModCondition::BullRush => Maneuver::BullRush,
        ModCondition::Sunder => Maneuver::Sunder,
        ModCondition::Grapple => Maneuver::Grapple,
        ModCondition::Escape => Maneuver::Escape,
        ModCondition::Overrun => Maneuver::Overrun,
        ModCondition::DirtyTrick => Maneuver::DirtyTrick,
        ModCondition::Steal => Maneuver::Steal,
        ModCondition::Reposition => Maneuver::Reposition,
        ModCondition::Drag => Maneuver::Drag,
        _ => return None,
    })
}

/// The attacks (bit k: attack k) whose name or id contains `filter`, case-insensitively.
pub fn weapon_bits<'a>(filter: &str, attacks: impl IntoIterator<Item = (&'a str, &'a str)>) -> u64 {
    let needle = filter.trim().to_lowercase();
    attacks
        .into_iter()
        .enumerate()
        .filter(|&(k, (name, id))| {
            k < 64 && (name.to_lowercase().contains(&needle) || id.to_lowercase().contains(&needle))
        })
        .fold(0, |acc, (k, _)| acc | 1 << k)
}

/// Adds every modifier of `mods` that applies to the roll to `tally`.
#[inline]
pub fn collect(mods: &[Mod], targets: Targets, ctx: &Context, tally: &mut Tally) {
    for m in mods {
        if m.applies(targets, ctx) {
            tally.add(m.bonus_type, m.value);
        }
    }
}

/// The targets any of `mods` may change.
pub fn targets_of(mods: &[Mod]) -> Targets {
    mods.iter().fold(Targets::NONE, |acc, m| acc.with(m.target))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn data(json: &str) -> Modifier {
        serde_json::from_str(json).expect("modifier")
    }

    #[test]
    fn a_weapon_filter_selects_attacks_by_name_or_id() {
        let attacks = [("Falchion", "falchion"), ("Javelin", "jav"), ("Bite", "bite")];
        let m = Mod::compile(
            &data(r#"{"target":"attack","value":1,"weapon":"FALCHION"}"#),
            attacks.iter().copied(),
            |_| None,
        );
        assert_eq!(m.weapons, 0b001);
        let on = |w| Context { weapon: Some(w), ..Context::default() };
        assert!(m.applies(Targets::MELEE_ATTACK, &on(0)));
        assert!(!m.applies(Targets::MELEE_ATTACK, &on(1)));
        assert!(!m.applies(Targets::MELEE_ATTACK, &Context::default()), "no weapon, no filtered bonus");
        let none = Mod::compile(
            &data(r#"{"target":"attack","value":1,"weapon":"axe"}"#),
            attacks.iter().copied(),
            |_| None,
        );
        assert_eq!(none.weapons, 0, "a filter that matches nothing applies to nothing");
    }

    #[test]
    fn conditions_test_the_roll() {
        let pbs = Mod::compile(
            &data(r#"{"target":"ranged_attack","value":1,"condition":"ranged_within_30ft"}"#),
            [],
            |_| None,
        );
        let near = Context { ranged: true, within_30ft: true, ..Context::default() };
        let far = Context { ranged: true, ..Context::default() };
        assert!(pbs.applies(Targets::RANGED_ATTACK, &near));
        assert!(!pbs.applies(Targets::RANGED_ATTACK, &far));
        assert!(!pbs.applies(Targets::MELEE_ATTACK, &near), "melee rolls do not read ranged_attack");
        let fear = Mod::compile(
            &data(
                r#"{"target":"saves","value":2,"type":"morale","condition":"save_vs_descriptor","descriptor":"fear"}"#,
            ),
            [],
            |_| None,
        );
        let will = Targets::save(super::super::SaveKind::Will);
        let vs_fear = Context { descriptors: Descriptors::of(&[Descriptor::Fear]), ..Context::default() };
        assert!(fear.applies(will, &vs_fear));
        assert!(!fear.applies(will, &Context::default()));
        // A descriptor condition without a descriptor never holds.
        let broken = Mod::compile(
            &data(r#"{"target":"saves","value":2,"condition":"save_vs_descriptor"}"#),
            [],
            |_| None,
        );
        assert_eq!(broken.when, When::Never);
    }

    #[test]
    fn creature_types_and_maneuvers_compile_to_indices() {
        let vs_orc = Mod::compile(
            &data(r#"{"target":"attack","value":1,"condition":"vs_creature_type","creature_type":"orc"}"#),
            [],
            |t| (t == "orc").then_some(3),
        );
        assert_eq!(vs_orc.when, When::CreatureType(3));
        let trip = Mod::compile(&data(r#"{"target":"cmb","value":2,"condition":"trip"}"#), [], |_| None);
        assert_eq!(trip.when, When::Maneuver(Maneuver::Trip));
        let ctx = Context { maneuver: Some(Maneuver::Trip), ..Context::default() };
        assert!(trip.applies(Targets::CMB, &ctx));
        assert!(!trip.applies(Targets::CMB, &Context { maneuver: Some(Maneuver::Disarm), ..ctx }));
    }
}
