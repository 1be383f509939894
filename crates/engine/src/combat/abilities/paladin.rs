//! The paladin (CRB "Paladin"): smite evil and lay on hands.
//!
//! - **Smite evil** is the smite of the celestial template
//!   (`combat::monster::smite`: a swift action, + Charisma bonus on attack
//!   rolls, + paladin level on damage rolls, + Charisma bonus deflection to
//!   AC against the foe, damage reduction bypassed, until the foe is dead),
//!   switched on by the feature `Smite Evil` with uses in
//!   `resources.smite_evil` (1 + 1 per three levels after the first). The
//!   paladin's own rule on top: **the first hit against an undead, an evil
//!   outsider or an evil dragon adds the paladin level once more** (2 per
//!   level).
//! - **Lay on hands**: one use of `resources.lay_on_hands` (½ level +
//!   Charisma modifier a day) heals **(level / 2)d6** hit points by touch:
//!   a swift action on itself, a standard action on an ally it touches.
//!   Healing given counts as the channel's does.

use crate::effects::Alignment;
use crate::rng::Dice;
use crate::spell::model::CreatureType;

use super::super::action::{Action, Reason};
use super::super::engine::Engine;
use super::super::event::Event;
use super::super::log::emit;
use super::super::state::{BattleState, LifeState};
use crate::effects::ConditionId;

/// The aura of courage's morale bonus on allies' saves against fear.
pub(crate) const COURAGE_BONUS: i32 = 4;
/// The aura of courage's radius, in feet.
const COURAGE_RADIUS_FT: u32 = 10;

/// A paladin's lay on hands as compiled.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct LayOnHands {
    /// Number of d6 healed (half the paladin level).
    pub dice: u32,
}

impl LayOnHands {
    /// The lay on hands of a paladin of `level`.
    pub(crate) fn of(level: u32) -> Self {
        LayOnHands { dice: level / 2 }
    }
}

impl BattleState<'_> {
    /// Whether a conscious ally of `i` with an aura of courage stands
    /// within 10 ft of it (CRB "Aura of Courage"; `i` itself is immune).
    pub(crate) fn courage_near(&self, i: usize) -> bool {
        (0..self.len()).any(|j| {
            j != i
                && self.prep.fighters[j].abilities.as_deref().is_some_and(|a| a.aura_of_courage)
                && !self.are_enemies(i, j)
                && matches!(self.life(j), LifeState::Fighting | LifeState::Disabled)
                && !self.fighters[j].gone
                && !self.has_condition(j, ConditionId::Unconscious)
                && !self.has_condition(j, ConditionId::Asleep)
                && self.distance(i, j) <= COURAGE_RADIUS_FT
        })
    }

    /// Whether a paladin's first smiting hit on `t` deals double the smite's
    /// damage: `t` is undead, or an evil outsider or dragon (CRB "Smite Evil").
    pub(crate) fn smite_doubles_on(&self, t: usize) -> bool {
        let f = &self.prep.fighters[t];
        match f.nature.ctype {
            Some(CreatureType::Undead) => true,
            Some(CreatureType::Outsider | CreatureType::Dragon) => f.nature.alignment & Alignment::EVIL != 0,
            _ => false,
        }
    }

    /// The extra damage of `a`'s first smiting hit on `t` (0 after it, or
    /// when it is not a paladin's smite or `t` is not a creature it doubles on).
    #[inline]
    pub(crate) fn smite_first_hit(&self, a: usize, t: usize) -> i32 {
        if !self.fighters[a].class.smite_first || !self.smite_doubles_on(t) {
            return 0;
        }
        self.smite_damage(a, t)
    }

    /// Whether `i` may lay on hands on `t` now: it has the ability and a use
    /// left, `t` is itself or an ally it touches, alive and not undead.
    pub(crate) fn can_lay_on_hands(&self, i: usize, t: usize) -> bool {
        self.prep.fighters[i].abilities.as_deref().is_some_and(|a| a.lay_on_hands.is_some_and(|l| l.dice > 0))
            && self.fighters[i].class.pools.lay_on_hands > 0
            && t < self.len()
            && !self.are_enemies(i, t)
            && !self.fighters[t].dead
            && !self.fighters[t].gone
            && self.prep.fighters[t].nature.ctype != Some(CreatureType::Undead)
            && self.touch_reaches(i, t)
    }
}

impl<R: Dice> Engine<'_, '_, R> {
    /// After `i` smote: a paladin's first hit is still to come.
    pub(crate) fn smite_started(&mut self, i: usize) {
        let paladin = self.st.prep.fighters[i].abilities.as_deref().is_some_and(|a| a.smite.is_some());
        let smiting = self.st.smiting(i).is_some();
        self.st.fighters[i].class.smite_first = paladin && smiting;
    }

    /// A hit of `a` on `t` landed: a paladin's first smiting hit is spent.
    #[inline]
    pub(crate) fn smite_hit(&mut self, a: usize, t: usize) {
        if self.st.fighters[a].class.smite_first && self.st.smiting(a) == Some(t) {
            self.st.fighters[a].class.smite_first = false;
        }
    }

    /// Lay on hands on `action.target` (itself when none).
    pub(crate) fn lay_on_hands_action(&mut self, i: usize, action: Action) -> Result<(), Reason> {
        let t = action.target.unwrap_or(i);
        if !self.st.can_lay_on_hands(i, t) {
            return Err(if t < self.st.len() && !self.st.are_enemies(i, t) && !self.st.touch_reaches(i, t) {
                Reason::OutOfRange
            } else {
                Reason::NoAbility
            });
        }
        let prep = self.st.prep;
        let dice = prep.fighters[i].abilities.as_deref().and_then(|a| a.lay_on_hands).map_or(0, |l| l.dice);
        self.st.fighters[i].class.pools.lay_on_hands -= 1;
        let rolled: u32 = (0..dice).map(|_| self.rng.roll(6)).sum();
        // A clay golem's cursed wound: a check at the paladin's level (`monster::golem`).
        let healed =
            if self.cursed_wound_stops(i, prep.fighters[i].nature.hd, t) { 0 } else { self.heal(t, rolled) };
        self.st.fighters[i].out.healing_given += healed;
        let left = u32::from(self.st.fighters[i].class.pools.lay_on_hands);
        emit!(self, Event::LaysOnHands { who: i, target: t, dice, rolled, healed, left });
        Ok(())
    }
}
