//! Regeneration and fast healing (Bestiary, Universal Monster Rules).
//!
//! - Regeneration: at the start of its turn the creature heals its amount
//!   (hit points and as much nonlethal damage). Damage it takes is
//!   nonlethal, except damage of a type that stops it (a troll's acid and
//!   fire): that damage is lethal and stops regeneration through the end of
//!   the next round, during which all damage is lethal and the creature can
//!   die. *Simplification*: an attack or spell of such a type stops it as a
//!   whole (a flaming sword's slashing part included), and while it is
//!   stopped every damage is lethal (UMR: "the creature's regeneration
//!   stops functioning on the round following the attack").
//! - Fast healing: heals its amount at the start of each turn, even dying.

use crate::rng::Dice;

use super::super::engine::Engine;
use super::super::event::{AfflictionEvent, Event};
use super::super::log::emit;
use super::super::state::BattleState;

impl BattleState<'_> {
    /// Whether damage to `i` is nonlethal now (its regeneration works).
    #[inline]
    pub(crate) fn regenerating(&self, i: usize) -> bool {
        self.prep.fighters[i].monster.as_deref().is_some_and(|m| m.regeneration.is_some())
            && self.fighters[i].monster.regen_off_through < self.round
    }
}

impl<R: Dice> Engine<'_, '_, R> {
    /// Damage of `types` reaches `t`: a type its regeneration names stops it
    /// for this round and the next.
    pub(crate) fn damage_types_hit(&mut self, t: usize, types: &[String]) {
        let prep = self.st.prep;
        let Some((_, stoppers)) = prep.fighters[t].monster.as_deref().and_then(|m| m.regeneration.as_ref())
        else {
            return;
        };
        if types.iter().any(|ty| stoppers.contains(ty)) {
            self.stop_regeneration(t, types);
        }
    }

    /// Stops `t`'s regeneration for this round and the next (by `what`).
    pub(crate) fn stop_regeneration(&mut self, t: usize, types: &[String]) {
        let through = self.st.round + 1;
        if self.st.fighters[t].monster.regen_off_through < through {
            self.st.fighters[t].monster.regen_off_through = through;
            emit!(
                self,
                Event::Affliction {
                    who: t,
                    what: AfflictionEvent::RegenerationStopped { by: types.to_vec(), through }
                }
            );
        }
    }

    /// The start of `i`'s turn: regeneration and fast healing heal.
    pub(crate) fn monster_healing(&mut self, i: usize) {
        let prep = self.st.prep;
        let Some(m) = prep.fighters[i].monster.as_deref() else { return };
        if self.st.fighters[i].dead {
            return;
        }
        let mut amount = m.fast_healing;
        if let Some((regen, _)) = m.regeneration
            && self.st.regenerating(i)
        {
            amount += regen;
        }
        let hurt =
            self.st.fighters[i].hp < self.st.prep.fighters[i].hp_max || self.st.fighters[i].nonlethal > 0;
        if amount > 0 && hurt {
            self.heal_logged(i, amount);
        }
    }

    /// `i` heals `amount` (hit points, then nonlethal damage), logged.
    pub(crate) fn heal_logged(&mut self, i: usize, amount: u32) {
        let before = (self.st.fighters[i].hp, self.st.fighters[i].nonlethal);
        self.heal(i, amount);
        let (hp, nl) = (self.st.fighters[i].hp, self.st.fighters[i].nonlethal);
        emit!(
            self,
            Event::Affliction {
                who: i,
                what: AfflictionEvent::Heals {
                    amount,
                    hp_before: before.0,
                    hp_after: hp,
                    nonlethal_before: before.1,
                    nonlethal_after: nl
                }
            }
        );
    }
}
