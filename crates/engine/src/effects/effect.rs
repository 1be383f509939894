//! Effects: what a spell, a class ability or a maneuver leaves on a creature
//! — modifiers, conditions, temporary hit points, recurring damage — and for
//! how long.
//!
//! Durations count rounds of the creature that created the effect (its
//! `source`): an effect of `n` rounds ends at the start of the source's turn
//! `n` rounds later (CRB "Duration": a round-based duration runs from the
//! caster's turn to the caster's turn), so a "1 round" effect lasts through
//! everyone else's next turn. An effect without a source (given by a
//! scenario) counts its bearer's turns instead. A delayed turn does not
//! count again when it resumes.

use std::sync::Arc;

use super::conditions::ConditionSet;
use super::modifier::{Descriptors, Mod, Targets, targets_of};
use super::vocab::SaveKind;
use crate::dice::DiceExpr;

/// How long an effect lasts.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Duration {
    /// This many rounds (at least 1).
    Rounds(u32),
    /// Until something removes it (healing for bleed, standing up for prone…).
    UntilRemoved,
}

/// Damage dealt to the bearer at the start of each of its turns (acid arrow,
/// a burning creature): rolled each time.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Recurring {
    /// The damage roll.
    pub dice: DiceExpr,
    /// Energy type index into `ENERGY` (resisted per tick), `None` for untyped.
    pub energy: Option<u8>,
    /// Nonlethal damage (Pain Strike).
    pub nonlethal: bool,
}

/// The energy types in the order `Recurring::energy` indexes them.
pub const ENERGY: [&str; 5] = ["acid", "cold", "electricity", "fire", "sonic"];

/// The energy types among `types` (any case, surrounding blanks ignored),
/// as bits: bit k is `ENERGY[k]`.
pub fn energy_bits<S: AsRef<str>>(types: &[S]) -> u8 {
    types.iter().fold(0u8, |bits, t| {
        let t = t.as_ref().trim();
        ENERGY.iter().position(|e| e.eq_ignore_ascii_case(t)).map_or(bits, |k| bits | 1 << k)
    })
}

/// An effect to apply to a creature.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Effect {
    /// What it is (`bless`, `dirty trick`, `evil eye`): shown in the
    /// transcript, and the same-source key — applying an effect of the same
    /// name and source again refreshes it instead of stacking.
    pub name: Arc<str>,
    /// Modifiers on the bearer, compiled for it.
    pub mods: Arc<[Mod]>,
    /// Conditions the bearer has while the effect lasts.
    pub conditions: ConditionSet,
    /// Miss chance of attacks against the bearer carried by this instance
    /// (Mirror Image's images), in percent; 0 for none.
    pub miss_chance: u8,
    /// How long it lasts.
    pub duration: Duration,
    /// Removed after the first roll one of its modifiers applies to (Guidance).
    pub one_shot: bool,
    /// Temporary hit points granted while it lasts (lost first; they do not
    /// stack with other temporary hit points: the larger amount counts).
    pub temp_hp: u32,
    /// Hit points added to the bearer's current and maximum hit points while
    /// it lasts and taken from both when it ends: the hit points of a
    /// temporary Constitution bonus (CRB "Ability Score Bonuses": Hit Dice ×
    /// the modifier's rise). They are not temporary hit points: losing them
    /// at the end may leave the bearer dying or dead.
    pub hp_bonus: u32,
    /// Damage at the start of each of the bearer's turns.
    pub recurring: Option<Recurring>,
    /// What the effect does besides modifiers and conditions (spells, class abilities).
    pub behaviours: Arc<[Behaviour]>,
    /// The spell it comes from (index into the encounter's spells), for
    /// dispelling, immunities and the same-spell rule.
    pub spell: Option<u16>,
    /// Caster level of the spell or ability that created it (dispel checks).
    pub caster_level: u8,
    /// A pool the behaviours use up (energy absorbed, damage prevented,
    /// mirror images, rolls taken twice); 0 when unused.
    pub pool: i32,
}

/// When a creature under a condition may save again to end it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Retry {
    /// At the start of each of its turns, spending the turn (Hold Person).
    EachTurn,
    /// At the end of each of its turns (Glitterdust).
    EachTurnEnd,
    /// Once, at the start of its next turn (Hideous Laughter).
    NextTurn,
}

/// How a compelled creature behaves (Command, Suggestion, Charm Person).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Compulsion {
    /// Moves toward its caster and does nothing else.
    Approach,
    /// Moves away from its caster and does nothing else.
    Flee,
    /// Drops what it holds.
    Drop,
    /// Does not attack its caster or the caster's allies.
    Friendly,
    /// Withdraws from the battle.
    Leave,
    /// Captivated by a song (a harpy's): moves toward its caster by the most
    /// direct route, takes no other action, and beside it offers no
    /// resistance to its attacks (`combat::monster::song`).
    Captivated,
    /// Dominated (a vampire's dominate, as *dominate person*): it fights on
    /// its caster's side, planned as its caster's side plans
    /// (`combat::monster::dominate`).
    Dominated,
}

/// What an effect does besides its modifiers and conditions.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Behaviour {
    /// Energy resistance (bit k: `ENERGY[k]`).
    EnergyResist {
        /// Energy types.
        types: u8,
        /// Points subtracted from each component of those types.
        amount: u32,
    },
    /// Half damage from these energies, none when a Reflex save for half
    /// succeeds (Fire Shield's ward; bit k: `ENERGY[k]`).
    EnergyWard {
        /// Energy types.
        types: u8,
    },
    /// Immune to these energies until the effect's pool is used up.
    EnergyAbsorb {
        /// Energy types.
        types: u8,
    },
    /// Damage reduction, until the pool is used up when `absorbs`.
    DamageReduction {
        /// Points per hit.
        amount: u32,
        /// Weapon qualities and damage types that bypass it (all required).
        bypass: Arc<[String]>,
        /// Ends when the pool of prevented damage is used up.
        absorbs: bool,
    },
    /// Immunities.
    Immunity {
        /// Conditions it cannot get.
        conditions: ConditionSet,
        /// Effects with these descriptors do nothing to it.
        descriptors: Descriptors,
        /// Energy types that deal it nothing (bit k: `ENERGY[k]`).
        energy: u8,
        /// Negative levels do not affect it.
        negative_levels: bool,
        /// Grapple attempts against it fail.
        grapple: bool,
        /// These spells do nothing to it (encounter spell indices).
        spells: Arc<[u16]>,
    },
    /// Its speed is multiplied (percent) and capped at a multiple of its normal speed.
    SpeedFactor {
        /// Percent of the speed (Slow: 50; 100: unchanged).
        percent: u8,
        /// At most this many times its normal speed (Haste: 2; 0: no cap).
        max_factor: u8,
    },
    /// One extra attack at full bonus in a full attack (Haste).
    ExtraAttack,
    /// Sees invisible creatures.
    SeeInvisible,
    /// Outlined: these concealments stop working against attacks on it.
    Outline {
        /// Conditions whose concealment is negated.
        negates: ConditionSet,
    },
    /// Mirror images: the pool counts the images left.
    MirrorImages,
    /// Its movement provokes no attack of opportunity.
    NoMovementAoo,
    /// A creature attacking it must first save against this DC.
    Sanctuary {
        /// The save.
        kind: SaveKind,
        /// The DC.
        dc: i32,
    },
    /// Ends when the bearer attacks (Invisibility, Sanctuary).
    EndsWhenBearerAttacks,
    /// Ends when the bearer takes damage (sleep, slumber).
    EndsOnDamage,
    /// Ends when the bearer is hit or fails a saving throw (the ward hex).
    EndsWhenHitOrFailsSave,
    /// The bearer may save again to end it.
    SaveAgain {
        /// The save.
        kind: SaveKind,
        /// Its DC.
        dc: i32,
        /// When.
        when: Retry,
        /// Descriptors of the saved-against effect.
        descriptors: Descriptors,
    },
    /// The bearer acts as told by `caster`.
    Compel {
        /// How.
        what: Compulsion,
        /// The creature that compelled it.
        caster: usize,
        /// Ends when the caster or its allies threaten or attack the bearer.
        ends_when_threatened: bool,
    },
    /// Each turn this chance, in percent, of taking no action.
    ActionLoss {
        /// Percent.
        percent: u8,
    },
    /// Its d20 rolls are rolled twice and the worse kept (the pool counts the rolls left; 0: every roll).
    TakeWorse,
    /// Its next d20 roll is rolled twice and the better kept, once (fortune).
    TakeBetter,
    /// Its weapons carry these qualities against damage reduction (Magic Weapon).
    WeaponQualities {
        /// Qualities (`magic`, `good`…).
        qualities: Arc<[String]>,
        /// Only this attack (index into the bearer's attacks), or every one.
        weapon: Option<usize>,
    },
    /// The threat range of its weapon is doubled (Keen Edge).
    Keen {
        /// Only this attack, or every one.
        weapon: Option<usize>,
    },
    /// It flies at this speed.
    Fly {
        /// Fly speed in feet.
        speed_ft: u32,
    },
    /// It cannot cast spells or concentrate (Rage).
    CannotCast,
    /// Protection from an alignment (Protection from Evil).
    AlignmentWard {
        /// The warded alignment component (`Alignment` bit).
        alignment: u8,
        /// Natural attacks of summoned creatures of that alignment fail.
        summoned_contact: bool,
        /// Charm and compulsion effects of creatures of that alignment fail.
        mental_control: bool,
    },
    /// The one-shot bonus also ignores the target's miss chance (True Strike).
    IgnoresMissChance,
    /// When this effect ends, `next` begins (Color Spray's stages).
    Then {
        /// The next stage.
        next: Box<Effect>,
    },
    /// Ends when the bearer has no nonlethal damage left (Frostbite's fatigue).
    EndsWithoutNonlethal,
    /// Bonds the bearer breaks with a check (Entangle's plants, Web's
    /// strands, a spider's thrown web, an erinyes' rope): the effect ends
    /// when one of its checks meets its DC (`combat::bonds`).
    Bound(Bonds),
    /// Its size category changes by `steps` (Enlarge Person +1, Reduce
    /// Person −1): space, reach, size modifiers and weapon damage dice
    /// follow its size of the moment (`combat::size`).
    SizeChange {
        /// Categories up (positive) or down.
        steps: i8,
    },
    /// A creature that strikes the bearer in melee without a reach weapon
    /// meets the `retaliation` effects of this casting (Fire Shield;
    /// `combat::spells::retaliation`). The effect's caster level is the
    /// casting's.
    Retaliation {
        /// The caster.
        caster: usize,
        /// The spell (encounter spell index).
        spell: u16,
        /// The option chosen of the spell's choice (warm or chill shield).
        option: u8,
        /// The casting's metamagic bits.
        metamagic: u8,
        /// The casting's save DC.
        dc: i32,
    },
    /// Its touch spells of `max_level` or lower reach `range_ft` and gain
    /// `bonus` on their melee touch attack (Spectral Hand,
    /// `combat::spells::hand`); the `hp_lost` it cost return when it ends.
    TouchDelivery {
        /// Bonus on the melee touch attack.
        bonus: i8,
        /// Highest spell level it delivers.
        max_level: u8,
        /// How far from its bearer it delivers them.
        range_ft: u32,
        /// Hit points its bearer lost to form it.
        hp_lost: u8,
    },
}

/// How a creature breaks free of bonds: each check it may make, with its DC
/// (none: that check is not allowed), and the action it takes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Bonds {
    /// Escape Artist DC.
    pub escape_artist: Option<i32>,
    /// Strength check DC (a web's −4 on bursting is folded in).
    pub strength: Option<i32>,
    /// Combat maneuver check DC (Web).
    pub cmb: Option<i32>,
    /// The bonds hold it in place (Entangle: it cannot move at all).
    pub anchored: bool,
    /// The action one attempt takes.
    pub action: EscapeAction,
}

/// The action an attempt to break free takes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum EscapeAction {
    /// A move action (Entangle).
    Move,
    /// A standard action (Web, a monster's web).
    Standard,
    /// A full-round action (a rope, a net).
    FullRound,
}

impl Behaviour {
    /// The flag of this behaviour in [`Behaviours`].
    pub const fn flag(&self) -> u32 {
        match self {
            Behaviour::EnergyResist { .. }
            | Behaviour::EnergyAbsorb { .. }
            | Behaviour::EnergyWard { .. } => Behaviours::ENERGY,
            Behaviour::DamageReduction { .. } => Behaviours::DR,
            Behaviour::Immunity { .. } => Behaviours::IMMUNITY,
            Behaviour::SpeedFactor { .. } | Behaviour::Fly { .. } => Behaviours::SPEED,
            Behaviour::ExtraAttack => Behaviours::EXTRA_ATTACK,
            Behaviour::SeeInvisible => Behaviours::SEE_INVISIBLE,
            Behaviour::Outline { .. } => Behaviours::OUTLINE,
            Behaviour::MirrorImages => Behaviours::IMAGES,
            Behaviour::NoMovementAoo => Behaviours::NO_MOVE_AOO,
            Behaviour::Sanctuary { .. } => Behaviours::SANCTUARY,
            Behaviour::EndsWhenBearerAttacks => Behaviours::ENDS_ON_ATTACK,
            Behaviour::EndsOnDamage => Behaviours::ENDS_ON_DAMAGE,
            Behaviour::EndsWhenHitOrFailsSave => Behaviours::WARD,
            Behaviour::SaveAgain { .. } => Behaviours::SAVE_AGAIN,
            Behaviour::Compel { .. } => Behaviours::COMPEL,
            Behaviour::ActionLoss { .. } => Behaviours::ACTION_LOSS,
            Behaviour::TakeWorse | Behaviour::TakeBetter => Behaviours::REROLL,
            Behaviour::WeaponQualities { .. } | Behaviour::Keen { .. } => Behaviours::WEAPON,
            Behaviour::CannotCast => Behaviours::CANNOT_CAST,
            Behaviour::AlignmentWard { .. } => Behaviours::WARD_ALIGNMENT,
            Behaviour::IgnoresMissChance => Behaviours::TRUE_STRIKE,
            Behaviour::Then { .. } => Behaviours::THEN,
            Behaviour::Bound(_) => Behaviours::BOUND,
            Behaviour::EndsWithoutNonlethal => Behaviours::ENDS_WITHOUT_NONLETHAL,
            Behaviour::SizeChange { .. } => Behaviours::SIZE,
            Behaviour::Retaliation { .. } => Behaviours::RETALIATION,
            Behaviour::TouchDelivery { .. } => Behaviours::TOUCH_DELIVERY,
        }
    }
}

/// The behaviours a creature's effects carry, as bits (folded with its status).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Behaviours(pub u32);

impl Behaviours {
    /// Energy resistance, absorption or ward.
    pub const ENERGY: u32 = 1;
    /// Damage reduction from an effect.
    pub const DR: u32 = 1 << 1;
    /// Immunities from an effect.
    pub const IMMUNITY: u32 = 1 << 2;
    /// Speed changes.
    pub const SPEED: u32 = 1 << 3;
    /// An extra attack in a full attack.
    pub const EXTRA_ATTACK: u32 = 1 << 4;
    /// Sees invisible creatures.
    pub const SEE_INVISIBLE: u32 = 1 << 5;
    /// Outlined.
    pub const OUTLINE: u32 = 1 << 6;
    /// Mirror images.
    pub const IMAGES: u32 = 1 << 7;
    /// Movement provokes nothing.
    pub const NO_MOVE_AOO: u32 = 1 << 8;
    /// Sanctuary.
    pub const SANCTUARY: u32 = 1 << 9;
    /// An effect ends when it attacks.
    pub const ENDS_ON_ATTACK: u32 = 1 << 10;
    /// An effect ends when it takes damage.
    pub const ENDS_ON_DAMAGE: u32 = 1 << 11;
    /// The ward hex.
    pub const WARD: u32 = 1 << 12;
    /// A new save each turn.
    pub const SAVE_AGAIN: u32 = 1 << 13;
    /// Compelled.
    pub const COMPEL: u32 = 1 << 14;
    /// May lose its action.
    pub const ACTION_LOSS: u32 = 1 << 15;
    /// Rolls twice.
    pub const REROLL: u32 = 1 << 16;
    /// Its weapon is enhanced (qualities, keen).
    pub const WEAPON: u32 = 1 << 17;
    /// Cannot cast.
    pub const CANNOT_CAST: u32 = 1 << 18;
    /// Protection from an alignment.
    pub const WARD_ALIGNMENT: u32 = 1 << 19;
    /// True Strike.
    pub const TRUE_STRIKE: u32 = 1 << 20;
    /// A staged effect.
    pub const THEN: u32 = 1 << 21;
    /// Bonds it can break.
    pub const BOUND: u32 = 1 << 22;
    /// An effect ends once its bearer's nonlethal damage is healed.
    pub const ENDS_WITHOUT_NONLETHAL: u32 = 1 << 23;
    /// Its size category changed (Enlarge Person).
    pub const SIZE: u32 = 1 << 24;
    /// Strikes back at those who hit it in melee (Fire Shield).
    pub const RETALIATION: u32 = 1 << 25;
    /// Delivers its touch spells at range (Spectral Hand).
    pub const TOUCH_DELIVERY: u32 = 1 << 26;

    /// Whether a behaviour of `flag` is present.
    #[inline]
    pub const fn has(self, flag: u32) -> bool {
        self.0 & flag != 0
    }
}

impl Effect {
    /// An effect called `name` with nothing in it yet, for `duration`.
    pub fn new(name: &str, duration: Duration) -> Self {
        Self {
            name: Arc::from(name),
            mods: Arc::from([]),
            conditions: ConditionSet::EMPTY,
            miss_chance: 0,
            duration,
            one_shot: false,
            temp_hp: 0,
            hp_bonus: 0,
            recurring: None,
            behaviours: Arc::from([]),
            spell: None,
            caster_level: 0,
            pool: 0,
        }
    }

    /// The same effect with these behaviours.
    pub fn with_behaviours(mut self, behaviours: Vec<Behaviour>) -> Self {
        self.behaviours = Arc::from(behaviours);
        self
    }

    /// The bits of its behaviours.
    pub fn behaviour_bits(&self) -> u32 {
        self.behaviours.iter().fold(0, |acc, b| acc | b.flag())
    }

    /// The same effect with these modifiers.
    pub fn with_mods(mut self, mods: Vec<Mod>) -> Self {
        self.mods = Arc::from(mods);
        self
    }

    /// The same effect adding `hp` to its bearer's current and maximum hit points.
    pub fn with_hp_bonus(mut self, hp: u32) -> Self {
        self.hp_bonus = hp;
        self
    }

    /// The same effect with these conditions.
    pub fn with_conditions(mut self, conditions: ConditionSet) -> Self {
        self.conditions = conditions;
        self
    }

    /// The targets its modifiers change.
    pub fn targets(&self) -> Targets {
        targets_of(&self.mods)
    }
}

/// An effect on a creature.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ActiveEffect {
    /// The effect.
    pub effect: Effect,
    /// The creature that created it (its turns count the rounds), if any.
    pub source: Option<usize>,
    /// Rounds left, `None` until removed.
    pub rounds_left: Option<u32>,
    /// The battle round in which it began: what an adventuring day reads to
    /// count the rounds left of an effect the battle keeps for its whole
    /// length (a spell of minutes or hours, `combat::carry`).
    pub since: u32,
}

impl ActiveEffect {
    /// Counts one round down; whether the effect is over.
    pub fn tick(&mut self) -> bool {
        match &mut self.rounds_left {
            Some(n) => {
                *n = n.saturating_sub(1);
                *n == 0
            }
            None => false,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_timed_effect_counts_down_to_its_end() {
        let e = Effect::new("bless", Duration::Rounds(2));
        let mut a = ActiveEffect { effect: e, source: Some(0), rounds_left: Some(2), since: 1 };
        assert!(!a.tick());
        assert!(a.tick());
        let mut forever = ActiveEffect {
            effect: Effect::new("prone", Duration::UntilRemoved),
            source: None,
            rounds_left: None,
            since: 1,
        };
        assert!(!forever.tick());
    }
}
