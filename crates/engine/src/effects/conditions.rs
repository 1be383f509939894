//! The conditions: what each one does, as modifiers and behaviour flags
//! (CRB Appendix 2 "Conditions"; seed "Conditions effectives").
//!
//! A condition is a [`ConditionDef`]: modifiers (resolved with every other
//! modifier by the stacking rule), flags the engine reads while playing a
//! turn, a speed multiplier and a miss chance. A creature's conditions are a
//! [`ConditionSet`]; its [`Summary`] folds the set's flags, speed and miss
//! chance once whenever the set changes, so a turn pays one bit test per
//! flag.

use super::modifier::{Mod, Targets, When, targets_of};
use super::vocab::{BonusType, ConditionId, Descriptor, ModTarget};

/// Behaviour flags of a condition (bit set).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Flags(pub u32);

impl Flags {
    /// No flag.
    pub const NONE: Flags = Flags(0);
    /// Loses its turn (stunned, dazed, paralyzed, helpless, asleep, unconscious, fascinated, cowering).
    pub const CANT_ACT: Flags = Flags(1);
    /// Only a single move action per turn, no attack, maneuver or spell (nauseated, pinned).
    pub const SINGLE_MOVE: Flags = Flags(1 << 1);
    /// A single move or standard action, no full-round action (staggered).
    pub const STAGGERED: Flags = Flags(1 << 2);
    /// Cannot move from its square (grappled, pinned, paralyzed).
    pub const CANT_MOVE: Flags = Flags(1 << 3);
    /// Loses its Dexterity bonus (and dodge bonuses) to AC and CMD.
    pub const DENIES_DEX: Flags = Flags(1 << 4);
    /// Helpless: effective Dexterity 0, +4 on melee attacks against it.
    pub const HELPLESS: Flags = Flags(1 << 5);
    /// Flees: the default policy and strategies withdraw (frightened, panicked).
    pub const MUST_FLEE: Flags = Flags(1 << 6);
    /// Makes no attack of opportunity (confused, grappled, pinned).
    pub const CANT_AOO: Flags = Flags(1 << 7);
    /// Can neither run nor charge (fatigued, exhausted, entangled).
    pub const NO_RUN_CHARGE: Flags = Flags(1 << 8);
    /// Sees nothing: every foe has total concealment against it (blinded).
    pub const BLIND: Flags = Flags(1 << 9);
    /// Unseen: +2 on its attack rolls, its targets lose their Dexterity bonus (invisible).
    pub const INVISIBLE: Flags = Flags(1 << 10);
    /// Makes no attack and no maneuver (panicked).
    pub const NO_ATTACK: Flags = Flags(1 << 11);
    /// Rolls on the confusion table at the start of its turn (confused).
    pub const CONFUSED: Flags = Flags(1 << 12);
    /// No immediate action, no attack of opportunity without Combat Reflexes (flat-footed).
    pub const FLAT_FOOTED: Flags = Flags(1 << 13);
    /// Cannot cast spells or concentrate (nauseated).
    pub const CANT_CAST: Flags = Flags(1 << 14);

    /// Whether every flag of `other` is set.
    #[inline]
    pub const fn has(self, other: Flags) -> bool {
        self.0 & other.0 == other.0
    }

    /// The union.
    pub const fn or(self, other: Flags) -> Flags {
        Flags(self.0 | other.0)
    }
}

/// What a condition does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ConditionDef {
    /// The condition.
    pub id: ConditionId,
    /// Behaviour flags.
    pub flags: Flags,
    /// Modifiers it imposes on its bearer.
    pub mods: &'static [Mod],
    /// Speed multiplier in percent (100: unchanged; entangled and exhausted 50).
    pub speed_pct: u8,
    /// Miss chance of attacks against the bearer, in percent (concealment).
    pub miss_chance: u8,
}

const fn def(id: ConditionId, flags: Flags, mods: &'static [Mod]) -> ConditionDef {
    ConditionDef { id, flags, mods, speed_pct: 100, miss_chance: 0 }
}

const fn slow(mut d: ConditionDef) -> ConditionDef {
    d.speed_pct = 50;
    d
}

const fn concealed(mut d: ConditionDef, percent: u8) -> ConditionDef {
    d.miss_chance = percent;
    d
}

const U: BonusType = BonusType::Untyped;
use ModTarget as T;

const fn m(target: ModTarget, value: i32) -> Mod {
    Mod::new(target, value, U)
}

/// Shaken and frightened: −2 on attack rolls, saves and skill checks.
const FEAR_MODS: &[Mod] = &[m(T::Attack, -2), m(T::Saves, -2), m(T::Skills, -2)];
const SICKENED: &[Mod] = &[m(T::Attack, -2), m(T::Damage, -2), m(T::Saves, -2), m(T::Skills, -2)];
const FATIGUED: &[Mod] = &[m(T::Str, -2), m(T::Dex, -2)];
const EXHAUSTED: &[Mod] = &[m(T::Str, -6), m(T::Dex, -6)];
const ENTANGLED: &[Mod] = &[m(T::Attack, -2), m(T::Dex, -4)];
const DAZZLED: &[Mod] = &[m(T::Attack, -1)];
const BLINDED: &[Mod] = &[m(T::Ac, -2), m(T::DexSkills, -4), m(T::StrSkills, -4)];
const DEAFENED: &[Mod] = &[m(T::Initiative, -4)];
/// Prone: −4 on attack rolls (ranged treated as a crossbow, seed), −4 AC
/// against melee, +4 against ranged attacks.
const PRONE: &[Mod] = &[m(T::Attack, -4), m(T::Ac, -4).when(When::VsMelee), m(T::Ac, 4).when(When::VsRanged)];
/// Stunned: −2 AC; attackers get +4 on maneuver checks against it (as −4 CMD).
const STUNNED: &[Mod] = &[m(T::Ac, -2), m(T::Cmd, -4)];
const COWERING: &[Mod] = &[m(T::Ac, -2)];
/// Panicked: −2 on saves and skill checks (it makes no attack).
const PANICKED: &[Mod] = &[m(T::Saves, -2), m(T::Skills, -2)];
const BANE: &[Mod] = &[m(T::Attack, -1), m(T::Saves, -1).when(When::Descriptor(Descriptor::Fear))];
/// Grappled: −2 on attack rolls and combat maneuver checks (not to grapple
/// or escape: the maneuver rules leave this penalty out there), −4 Dexterity.
const GRAPPLED: &[Mod] = &[m(T::Attack, -2), m(T::Dex, -4)];
/// Pinned: −4 AC on top of losing its Dexterity bonus.
const PINNED: &[Mod] = &[m(T::Ac, -4), m(T::Dex, -4)];

const NONE: &[Mod] = &[];

use ConditionId as C;

/// Every condition, indexed by `ConditionId as usize` (declaration order).
pub static CONDITIONS: [ConditionDef; ConditionId::ALL.len()] = [
    def(C::Shaken, Flags::NONE, FEAR_MODS),
    def(C::Sickened, Flags::NONE, SICKENED),
    def(C::Fatigued, Flags::NO_RUN_CHARGE, FATIGUED),
    slow(def(C::Exhausted, Flags::NO_RUN_CHARGE, EXHAUSTED)),
    slow(def(C::Entangled, Flags::NO_RUN_CHARGE, ENTANGLED)),
    def(C::Dazzled, Flags::NONE, DAZZLED),
    slow(def(C::Blinded, Flags::DENIES_DEX.or(Flags::BLIND), BLINDED)),
    def(C::Deafened, Flags::NONE, DEAFENED),
    def(C::FlatFooted, Flags::DENIES_DEX.or(Flags::FLAT_FOOTED), NONE),
    def(C::Prone, Flags::NONE, PRONE),
    def(C::Stunned, Flags::CANT_ACT.or(Flags::DENIES_DEX), STUNNED),
    def(C::Paralyzed, Flags::CANT_ACT.or(Flags::HELPLESS).or(Flags::DENIES_DEX).or(Flags::CANT_MOVE), NONE),
    def(C::Nauseated, Flags::SINGLE_MOVE.or(Flags::CANT_CAST), NONE),
    def(C::Dazed, Flags::CANT_ACT, NONE),
    def(C::Staggered, Flags::STAGGERED, NONE),
    def(C::Frightened, Flags::MUST_FLEE, FEAR_MODS),
    def(C::Panicked, Flags::MUST_FLEE.or(Flags::NO_ATTACK), PANICKED),
    def(C::Cowering, Flags::CANT_ACT.or(Flags::DENIES_DEX), COWERING),
    def(C::Helpless, Flags::CANT_ACT.or(Flags::HELPLESS).or(Flags::DENIES_DEX), NONE),
    def(C::Fascinated, Flags::CANT_ACT, NONE),
    concealed(def(C::Invisible, Flags::INVISIBLE, NONE), 50),
    def(C::Bleeding, Flags::NONE, NONE),
    def(C::Confused, Flags::CONFUSED.or(Flags::CANT_AOO), NONE),
    def(C::Bane, Flags::NONE, BANE),
    concealed(def(C::Blurred, Flags::NONE, NONE), 20),
    concealed(def(C::Displaced, Flags::NONE, NONE), 50),
    def(C::Grappled, Flags::CANT_MOVE.or(Flags::CANT_AOO), GRAPPLED),
    def(C::Pinned, Flags::CANT_MOVE.or(Flags::CANT_AOO).or(Flags::DENIES_DEX).or(Flags::SINGLE_MOVE), PINNED),
    def(C::Asleep, Flags::CANT_ACT.or(Flags::HELPLESS).or(Flags::DENIES_DEX), NONE),
    def(C::Unconscious, Flags::CANT_ACT.or(Flags::HELPLESS).or(Flags::DENIES_DEX), NONE),
    def(C::Disarmed, Flags::NONE, NONE),
];

/// The definition of `id`.
#[inline]
pub fn definition(id: ConditionId) -> &'static ConditionDef {
    &CONDITIONS[id as usize]
}

/// A set of conditions (bit = `ConditionId as usize`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct ConditionSet(pub u64);

impl ConditionSet {
    /// The empty set.
    pub const EMPTY: ConditionSet = ConditionSet(0);

    /// The set of one condition.
    pub const fn of(id: ConditionId) -> Self {
        ConditionSet(1 << id as u64)
    }

    /// Whether `id` is in the set.
    #[inline]
    pub const fn has(self, id: ConditionId) -> bool {
        self.0 >> id as u64 & 1 == 1
    }

    /// The set with `id` added.
    pub const fn with(self, id: ConditionId) -> Self {
        ConditionSet(self.0 | 1 << id as u64)
    }

    /// The set with `id` removed.
    pub const fn without(self, id: ConditionId) -> Self {
        ConditionSet(self.0 & !(1 << id as u64))
    }

    /// The union.
    pub const fn union(self, other: ConditionSet) -> Self {
        ConditionSet(self.0 | other.0)
    }

    /// Whether the set is empty.
    #[inline]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// The conditions in the set, in declaration order.
    pub fn iter(self) -> impl Iterator<Item = ConditionId> + Clone {
        // Visits the set bits only: a set is folded at every status refresh,
        // and most hold no condition at all. Bit k is `ConditionId::ALL[k]`
        // (`every_condition_sits_on_its_own_bit`).
        let mut bits = self.0;
        std::iter::from_fn(move || {
            let k = bits.trailing_zeros() as usize;
            let id = ConditionId::ALL.get(k).copied()?;
            bits &= bits - 1;
            Some(id)
        })
    }
}

/// What a set of conditions does, folded once.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Summary {
    /// Union of the flags.
    pub flags: Flags,
    /// Lowest speed multiplier, in percent.
    pub speed_pct: u8,
    /// Highest miss chance, in percent.
    pub miss_chance: u8,
    /// Targets any of its modifiers change.
    pub targets: Targets,
}

impl Default for Summary {
    fn default() -> Self {
        Self { flags: Flags::NONE, speed_pct: 100, miss_chance: 0, targets: Targets::NONE }
    }
}

impl Summary {
    /// Folds the definitions of `set`.
    pub fn of(set: ConditionSet) -> Self {
        set.iter().map(definition).fold(Summary::default(), |acc, d| Summary {
            flags: acc.flags.or(d.flags),
            speed_pct: acc.speed_pct.min(d.speed_pct),
            miss_chance: acc.miss_chance.max(d.miss_chance),
            targets: acc.targets.union(targets_of(d.mods)),
        })
    }
}

/// The conditions a dirty trick may impose (APG "Dirty Trick").
pub const DIRTY_TRICK_CONDITIONS: [ConditionId; 6] = [
    ConditionId::Blinded,
    ConditionId::Dazzled,
    ConditionId::Deafened,
    ConditionId::Entangled,
    ConditionId::Shaken,
    ConditionId::Sickened,
];

#[cfg(test)]
mod tests {
    use super::*;
    use crate::effects::modifier::Context;
    use crate::effects::stacking::Tally;

    #[test]
    fn the_table_is_indexed_by_condition() {
        for (k, d) in CONDITIONS.iter().enumerate() {
            assert_eq!(d.id as usize, k, "{}", d.id);
            assert_eq!(definition(d.id).id, d.id);
        }
        assert_eq!(CONDITIONS.len(), 31);
    }

    #[test]
    fn flags_follow_the_checklist() {
        let has = |c: ConditionId, f: Flags| definition(c).flags.has(f);
        for c in [
            C::Stunned,
            C::Paralyzed,
            C::Dazed,
            C::Asleep,
            C::Helpless,
            C::Fascinated,
            C::Cowering,
            C::Unconscious,
        ] {
            assert!(has(c, Flags::CANT_ACT), "{c}");
        }
        assert!(has(C::Nauseated, Flags::SINGLE_MOVE) && has(C::Pinned, Flags::SINGLE_MOVE));
        assert!(has(C::Staggered, Flags::STAGGERED));
        for c in [C::FlatFooted, C::Blinded, C::Stunned, C::Paralyzed, C::Helpless, C::Cowering, C::Pinned] {
            assert!(has(c, Flags::DENIES_DEX), "{c}");
        }
        for c in [C::Helpless, C::Paralyzed, C::Asleep, C::Unconscious] {
            assert!(has(c, Flags::HELPLESS), "{c}");
        }
        assert!(!has(C::Stunned, Flags::HELPLESS), "stunned is not helpless");
        assert!(has(C::Frightened, Flags::MUST_FLEE) && has(C::Panicked, Flags::MUST_FLEE));
        assert!(has(C::Confused, Flags::CANT_AOO) && has(C::Grappled, Flags::CANT_AOO));
        assert!(has(C::Grappled, Flags::CANT_MOVE) && has(C::Pinned, Flags::CANT_MOVE));
        assert_eq!([C::Blurred, C::Displaced, C::Invisible].map(|c| definition(c).miss_chance), [20, 50, 50]);
        assert_eq!(definition(C::Entangled).speed_pct, 50);
        assert_eq!(definition(C::Exhausted).speed_pct, 50);
    }

    fn attack_total(set: ConditionSet, melee: bool) -> i32 {
        let mut t = Tally::new();
        let ctx = Context { melee, ranged: !melee, ..Context::default() };
        let targets = if melee { Targets::MELEE_ATTACK } else { Targets::RANGED_ATTACK };
        for c in set.iter() {
            crate::effects::modifier::collect(definition(c).mods, targets, &ctx, &mut t);
        }
        t.total()
    }

    #[test]
    fn untyped_condition_penalties_stack() {
        let set = ConditionSet::of(C::Shaken).with(C::Sickened).with(C::Dazzled);
        assert_eq!(attack_total(set, true), -5);
        assert_eq!(attack_total(ConditionSet::of(C::Prone), false), -4);
        assert_eq!(attack_total(ConditionSet::EMPTY, true), 0);
    }

    #[test]
    fn every_condition_sits_on_its_own_bit() {
        for (k, &id) in ConditionId::ALL.iter().enumerate() {
            assert_eq!(id as usize, k, "{id:?}");
        }
        let set = ConditionSet::default().with(ConditionId::ALL[3]).with(ConditionId::ALL[0]);
        assert_eq!(set.iter().collect::<Vec<_>>(), vec![ConditionId::ALL[0], ConditionId::ALL[3]]);
    }

    #[test]
    fn a_summary_folds_flags_speed_and_miss_chance() {
        let s = Summary::of(ConditionSet::of(C::Blurred).with(C::Entangled).with(C::Grappled));
        assert!(s.flags.has(Flags::CANT_MOVE) && s.flags.has(Flags::NO_RUN_CHARGE));
        assert_eq!((s.speed_pct, s.miss_chance), (50, 20));
        assert!(s.targets.meets(Targets::MELEE_ATTACK));
        assert_eq!(Summary::of(ConditionSet::EMPTY), Summary::default());
        let set = ConditionSet::EMPTY.with(C::Prone).with(C::Shaken).without(C::Prone);
        assert_eq!(set.iter().collect::<Vec<_>>(), [C::Shaken]);
    }
}
