//! Bardic performance: inspire courage (CRB "Bard"). Starting it is a
//! standard action (levels 1–6); each of the bard's turns it continues for
//! free while rounds of `resources.bardic_rounds` are left (one per round,
//! the starting round included). Allies who can hear it (not deafened, the
//! bard included) gain a competence bonus on attack and weapon damage rolls
//! and a morale bonus on saves against charm and fear: +1, +2 from 5th
//! level, +3 from 11th, +4 from 17th. The bonus is renewed at each of the
//! bard's turns and lapses one round after the performance stops.

use crate::effects::{BonusType, Descriptor, Duration, Effect, Mod, ModTarget, When};
use crate::rng::Dice;

use super::super::action::Reason;
use super::super::engine::Engine;
use super::super::event::{ClassAbilityEvent, Event};
use super::super::log::emit;

impl<R: Dice> Engine<'_, '_, R> {
    /// Starts inspiring courage.
    pub(crate) fn inspire_action(&mut self, i: usize) -> Result<(), Reason> {
        let prep = self.st.prep;
        let bonus = prep.fighters[i].abilities.as_deref().map_or(0, |a| a.inspire_courage);
        if bonus == 0 || self.st.fighters[i].class.pools.bardic_rounds == 0 {
            return Err(Reason::NoAbility);
        }
        if self.st.fighters[i].class.performing {
            return Ok(());
        }
        // An audible performance is not begun in a magical silence (CRB "Silence").
        if !self.st.zones.is_empty() && self.st.silenced(i) {
            return Err(Reason::Silenced);
        }
        self.st.fighters[i].class.performing = true;
        emit!(self, Event::ClassAbility { who: i, what: ClassAbilityEvent::InspiresCourage { bonus } });
        self.keep_performing(i);
        Ok(())
    }

    /// One round of inspire courage: a round spent, every ally that hears it
    /// inspired until the bard's next turn; without rounds it stops.
    pub(crate) fn keep_performing(&mut self, i: usize) {
        let prep = self.st.prep;
        let bonus = prep.fighters[i].abilities.as_deref().map_or(0, |a| a.inspire_courage);
        if self.st.fighters[i].class.pools.bardic_rounds == 0 || !self.st.is_active(i) {
            self.st.fighters[i].class.performing = false;
            emit!(self, Event::ClassAbility { who: i, what: ClassAbilityEvent::StopsPerforming });
            return;
        }
        self.st.fighters[i].class.pools.bardic_rounds -= 1;
        let mods = vec![
            Mod::new(ModTarget::Attack, bonus, BonusType::Competence),
            Mod::new(ModTarget::Damage, bonus, BonusType::Competence),
            Mod::new(ModTarget::Saves, bonus, BonusType::Morale).when(When::Descriptor(Descriptor::Charm)),
            Mod::new(ModTarget::Saves, bonus, BonusType::Morale).when(When::Descriptor(Descriptor::Fear)),
        ];
        for j in 0..self.st.len() {
            if self.st.are_enemies(i, j) || !self.st.is_present(j) || !self.st.hears(i, j) {
                continue;
            }
            // Renewed each of the bard's turns; it outlasts the bard's turn
            // by one round so that it never lapses while the bard performs.
            let e = Effect::new("inspire courage", Duration::Rounds(2)).with_mods(mods.clone());
            self.apply_effect(j, e, Some(i));
        }
    }
}
