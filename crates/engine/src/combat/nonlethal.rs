//! Nonlethal damage (CRB "Nonlethal Damage"): tracked apart from hit
//! points; a creature whose nonlethal damage equals its current hit points
//! is staggered, one whose nonlethal damage exceeds them falls unconscious
//! (out of the fight: `BattleState::is_active`). Healing removes as much
//! nonlethal damage as the hit points it restores. Undead and constructs
//! are not subject to it (Bestiary, Undead and Construct traits).

use crate::rng::Dice;
use crate::spell::model::CreatureType;

use super::engine::Engine;
use crate::effects::{Behaviour, Behaviours};

use super::event::{EffectEnd, Event, NonlethalState};
use super::log::emit;
use super::state::BattleState;

impl BattleState<'_> {
    /// Whether `i` is not subject to nonlethal damage (undead, constructs).
    pub(crate) fn nonlethal_immune(&self, i: usize) -> bool {
        matches!(self.prep.fighters[i].nature.ctype, Some(CreatureType::Undead | CreatureType::Construct))
    }

    /// Nonlethal damage `i` has taken.
    pub fn nonlethal(&self, i: usize) -> i32 {
        self.fighters[i].nonlethal
    }

    /// Whether `i`'s nonlethal damage equals its current hit points (staggered).
    #[inline]
    pub(crate) fn nonlethal_staggered(&self, i: usize) -> bool {
        let f = &self.fighters[i];
        f.nonlethal > 0 && f.nonlethal == f.hp
    }
}

impl<R: Dice> Engine<'_, '_, R> {
    /// Deals `amount` nonlethal damage to `i` and logs a change of state.
    pub(crate) fn deal_nonlethal(&mut self, i: usize, amount: u32) {
        if amount == 0 || self.st.fighters[i].dead || self.st.nonlethal_immune(i) {
            return;
        }
        let f = &mut self.st.fighters[i];
        let before = f.nonlethal;
        f.nonlethal += amount as i32;
        let (hp, nl) = (f.hp, f.nonlethal);
        if hp < 0 {
            return;
        }
        if nl > hp && before <= hp {
            emit!(
                self,
                Event::Nonlethal { who: i, state: NonlethalState::Unconscious, amount, nonlethal: nl, hp }
            );
        } else if nl == hp {
            emit!(
                self,
                Event::Nonlethal { who: i, state: NonlethalState::Staggered, amount, nonlethal: nl, hp }
            );
        } else {
            emit!(self, Event::Nonlethal { who: i, state: NonlethalState::Takes, amount, nonlethal: nl, hp });
        }
    }

    /// Healing of `amount` hit points also removes as much nonlethal damage.
    pub(crate) fn heal_nonlethal(&mut self, i: usize, amount: u32) {
        let f = &mut self.st.fighters[i];
        if f.nonlethal == 0 {
            return;
        }
        let was_out = f.nonlethal > f.hp && f.hp >= 0;
        f.nonlethal = (f.nonlethal - amount as i32).max(0);
        if was_out && f.nonlethal <= f.hp {
            let (nl, hp) = (f.nonlethal, f.hp);
            emit!(
                self,
                Event::Nonlethal { who: i, state: NonlethalState::WakesUp, amount: 0, nonlethal: nl, hp }
            );
        }
        if self.st.fighters[i].nonlethal == 0
            && Behaviours(self.st.fighters[i].fx).has(Behaviours::ENDS_WITHOUT_NONLETHAL)
        {
            // Frostbite's fatigue ends with the nonlethal damage.
            while let Some(k) = self.st.fighters[i].effects.iter().position(|e| {
                e.effect.behaviours.iter().any(|b| matches!(b, Behaviour::EndsWithoutNonlethal))
            }) {
                self.remove_effect_at(i, k, EffectEnd::Healed);
            }
        }
    }
}
