//! Cleric domain powers (CRB "Domains") beyond Sun's Blessing (played by
//! channel energy, `channel`).
//!
//! - **Rebuke Death** (Healing domain, 1st level, Sp): one use of
//!   `resources.rebuke_death` (3 + Wisdom modifier a day) heals **1d4 + 1
//!   per two cleric levels** hit points to a living creature **below 0 hit
//!   points** the cleric touches; a standard action. *Simplified*: as a
//!   spell-like ability it would provoke attacks of opportunity; the engine
//!   does not apply them (docs/rules/class-abilities.md).

use crate::rng::Dice;
use crate::spell::model::CreatureType;

use super::super::action::{Action, Reason};
use super::super::engine::Engine;
use super::super::event::Event;
use super::super::log::emit;
use super::super::state::BattleState;

/// Rebuke Death as compiled.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct RebukeDeath {
    /// The bonus added to the d4 (1 per two cleric levels).
    pub bonus: u32,
}

impl RebukeDeath {
    /// The Rebuke Death of a cleric of `level`.
    pub(crate) fn of(level: u32) -> Self {
        RebukeDeath { bonus: level / 2 }
    }

    /// The mean hit points it heals.
    pub(crate) fn mean(self) -> f64 {
        2.5 + f64::from(self.bonus)
    }
}

impl BattleState<'_> {
    /// Whether `i` may rebuke death on `t` now: it has the power and a use
    /// left, `t` is an ally (or itself) below 0 hit points, alive, living
    /// (not undead or a construct), and within its touch.
    pub(crate) fn can_rebuke_death(&self, i: usize, t: usize) -> bool {
        self.prep.fighters[i].abilities.as_deref().is_some_and(|a| a.rebuke_death.is_some())
            && self.fighters[i].class.pools.rebuke_death > 0
            && t < self.len()
            && !self.are_enemies(i, t)
            && !self.fighters[t].dead
            && !self.fighters[t].gone
            && self.fighters[t].hp < 0
            && !matches!(
                self.prep.fighters[t].nature.ctype,
                Some(CreatureType::Undead | CreatureType::Construct)
            )
            && self.touch_reaches(i, t)
    }
}

impl<R: Dice> Engine<'_, '_, R> {
    /// Rebuke Death on `action.target`.
    pub(crate) fn rebuke_death_action(&mut self, i: usize, action: Action) -> Result<(), Reason> {
        let Some(t) = action.target else { return Err(Reason::MissingTarget) };
        if !self.st.can_rebuke_death(i, t) {
            return Err(if t < self.st.len() && self.st.fighters[t].hp < 0 && !self.st.touch_reaches(i, t) {
                Reason::OutOfRange
            } else {
                Reason::NoAbility
            });
        }
        let bonus =
            self.st.prep.fighters[i].abilities.as_deref().and_then(|a| a.rebuke_death).map_or(0, |r| r.bonus);
        self.st.fighters[i].class.pools.rebuke_death -= 1;
        let rolled = self.rng.roll(4);
        // A clay golem's cursed wound: a check at the cleric's level (`monster::golem`).
        let level = self.st.prep.fighters[i].nature.hd;
        let healed = if self.cursed_wound_stops(i, level, t) { 0 } else { self.heal(t, rolled + bonus) };
        self.st.fighters[i].out.healing_given += healed;
        let left = u32::from(self.st.fighters[i].class.pools.rebuke_death);
        let hp = self.st.fighters[t].hp;
        emit!(self, Event::RebukesDeath { who: i, target: t, rolled, bonus, healed, hp, left });
        Ok(())
    }
}
