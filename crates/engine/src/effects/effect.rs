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
use super::modifier::{Mod, Targets, targets_of};
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
}

/// The energy types in the order `Recurring::energy` indexes them.
pub const ENERGY: [&str; 5] = ["acid", "cold", "electricity", "fire", "sonic"];

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
    /// Damage at the start of each of the bearer's turns.
    pub recurring: Option<Recurring>,
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
            recurring: None,
        }
    }

    /// The same effect with these modifiers.
    pub fn with_mods(mut self, mods: Vec<Mod>) -> Self {
        self.mods = Arc::from(mods);
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
        let mut a = ActiveEffect { effect: e, source: Some(0), rounds_left: Some(2) };
        assert!(!a.tick());
        assert!(a.tick());
        let mut forever = ActiveEffect {
            effect: Effect::new("prone", Duration::UntilRemoved),
            source: None,
            rounds_left: None,
        };
        assert!(!forever.tick());
    }
}
