//! Weapon states during a battle: dropped (disarm), worn and broken
//! (sunder), and the actions that undo them (seed "retrieve_weapon",
//! "repair_weapon"; CRB "Disarm", "Sunder", "Actions in Combat").
//!
//! A dropped or broken weapon is excluded from every attack choice (the
//! automatic choice, `weapon_for`, threatened squares and attacks of
//! opportunity); an explicit `weapon` on it is refused with
//! `weapon_unavailable`. A combatant that lost a weapon to a maneuver has the
//! `disarmed` condition until it has none left on the ground or broken.

use crate::effects::ConditionId;
use crate::rng::Dice;

use super::action::Reason;
use super::engine::Engine;
use super::event::{CombatEvent, Event};
use super::log::emit;
use super::state::{BattleState, WEAPON_DURABILITY};

impl BattleState<'_> {
    /// The weapon a disarm or sunder aims at: `i`'s first usable
    /// manufactured weapon (natural attacks cannot be taken or broken).
    pub(crate) fn held_weapon(&self, i: usize) -> Option<usize> {
        let attacks = &self.prep.fighters[i].offense.attacks;
        (0..attacks.len()).find(|&w| !attacks[w].natural && self.is_usable(i, w))
    }

    /// Whether attack `w` of `i` was broken by sundering (not a firearm misfire).
    pub(crate) fn sundered(&self, i: usize, w: usize) -> bool {
        self.fighters[i].gear.wear.get(w).is_some_and(|&d| d >= WEAPON_DURABILITY)
    }
}

impl<R: Dice> Engine<'_, '_, R> {
    /// `i` drops attack `w`'s weapon (disarm).
    pub(crate) fn drop_weapon(&mut self, i: usize, w: usize) {
        if w < 64 {
            self.st.fighters[i].gear.dropped |= 1 << w;
            self.set_condition(i, ConditionId::Disarmed);
        }
    }

    /// Attack `w` of `i` takes `damage` from a sunder; whether it broke.
    pub(crate) fn sunder_weapon(&mut self, i: usize, w: usize, damage: u8) -> bool {
        let n = self.st.prep.fighters[i].offense.attacks.len();
        let f = &mut self.st.fighters[i];
        if w >= 64 || w >= n {
            return false;
        }
        if f.gear.wear.len() < n {
            f.gear.wear.resize(n, 0);
        }
        f.gear.wear[w] = f.gear.wear[w].saturating_add(damage);
        if f.gear.wear[w] >= WEAPON_DURABILITY {
            f.gear.broken |= 1 << w;
            self.set_condition(i, ConditionId::Disarmed);
            return true;
        }
        false
    }

    /// Clears `disarmed` once `i` has no dropped or sundered weapon left.
    fn settle_disarmed(&mut self, i: usize) {
        let sundered = (0..self.st.prep.fighters[i].offense.attacks.len()).any(|w| self.st.sundered(i, w));
        if self.st.fighters[i].gear.dropped == 0 && !sundered {
            self.clear_condition(i, ConditionId::Disarmed);
        }
    }

    /// Retrieve weapon (move action): picks up its first dropped weapon.
    /// Picking up an item provokes attacks of opportunity (CRB "Actions in Combat").
    pub(crate) fn retrieve_weapon(&mut self, i: usize) -> Result<(), Reason> {
        let dropped = self.st.fighters[i].gear.dropped;
        if dropped == 0 {
            return Err(Reason::NothingToRetrieve);
        }
        let w = dropped.trailing_zeros() as usize;
        self.provoke_in_place(i);
        if !self.st.is_active(i) {
            return Ok(());
        }
        self.st.fighters[i].gear.dropped &= !(1 << w);
        emit!(
            self,
            Event::Combat {
                who: i,
                what: CombatEvent::PicksUp {
                    weapon: self.st.prep.fighters[i].offense.attacks[w].name.clone()
                }
            }
        );
        self.settle_disarmed(i);
        Ok(())
    }

    /// Repair weapon (move action): mends its first weapon broken by a
    /// sunder (seed simplification; a misfired firearm stays broken).
    pub(crate) fn repair_weapon(&mut self, i: usize) -> Result<(), Reason> {
        let n = self.st.prep.fighters[i].offense.attacks.len();
        let Some(w) = (0..n).find(|&w| self.st.sundered(i, w)) else {
            return Err(Reason::NothingToRepair);
        };
        let f = &mut self.st.fighters[i];
        f.gear.wear[w] = 0;
        f.gear.broken &= !(1 << w);
        emit!(
            self,
            Event::Combat {
                who: i,
                what: CombatEvent::Repairs {
                    weapon: self.st.prep.fighters[i].offense.attacks[w].name.clone()
                }
            }
        );
        self.settle_disarmed(i);
        Ok(())
    }
}
