//! Gunslinger deeds (UC "Gunslinger: Deeds"), paid with grit: up close and
//! deadly (pistolero: 1 grit, declared before an attack: on a firearm hit
//! +1d6 precision damage, +1d6 at 5th level and every five levels; a miss
//! grazes for half), deadeye (1 grit per range increment beyond the first:
//! that attack is resolved against touch AC), quick clear (a standard
//! action with at least 1 grit, or a move action spending 1: removes the
//! broken condition a misfire gave a firearm), gunslinger's dodge (1 grit,
//! an immediate action when a ranged attack targets her: +2 AC against it;
//! the engine takes it whenever grit and the immediate action allow).

use crate::feats::Deed;
use crate::rng::Dice;

use super::super::action::{Action, ClassAbilityUse, Reason, Slot};
use super::super::engine::Engine;
use super::super::event::{ClassAbilityEvent, Event};
use super::super::log::emit;
use super::super::state::BattleState;

/// Declared deeds waiting for the next firearm attack (`Fighter::deeds` bits).
pub(crate) const UP_CLOSE: u8 = 1;
/// Deadeye declared.
pub(crate) const DEADEYE: u8 = 2;

impl BattleState<'_> {
    /// The budget slot of a deed: quick clear is a standard action (a move
    /// action when it spends grit), gunslinger's dodge an immediate one,
    /// the others free declarations made with an attack.
    pub(crate) fn deed_slot(&self, i: usize, deed: Deed) -> Slot {
        match deed {
            Deed::QuickClear if self.fighters[i].class.pools.grit > 0 => Slot::Move,
            Deed::QuickClear => Slot::Standard,
            Deed::GunslingersDodge => Slot::Swift,
            Deed::UpCloseAndDeadly | Deed::Deadeye => Slot::Free,
        }
    }
}

impl<R: Dice> Engine<'_, '_, R> {
    /// A deed (`action.ability`).
    pub(crate) fn deed_action(&mut self, i: usize, action: Action) -> Result<(), Reason> {
        let prep = self.st.prep;
        let spec = prep.fighters[i].abilities.as_deref().ok_or(Reason::NoAbility)?;
        let Some(ClassAbilityUse::Deed(deed)) = action.ability else { return Err(Reason::NoAbility) };
        if !spec.has_deed(deed) {
            return Err(Reason::NoAbility);
        }
        let grit = self.st.fighters[i].class.pools.grit;
        match deed {
            Deed::UpCloseAndDeadly | Deed::Deadeye => {
                if grit == 0 {
                    return Err(Reason::NoAbility);
                }
                self.st.fighters[i].class.pools.grit -= 1;
                let bit = if deed == Deed::UpCloseAndDeadly { UP_CLOSE } else { DEADEYE };
                self.st.fighters[i].turn.deeds |= bit;
                emit!(
                    self,
                    Event::ClassAbility {
                        who: i,
                        what: ClassAbilityEvent::GritSpent {
                            deed: deed.name().to_string(),
                            grit: u32::from(grit - 1)
                        }
                    }
                );
            }
            Deed::QuickClear => {
                let Some(w) = (0..prep.fighters[i].offense.attacks.len()).find(|&w| {
                    prep.fighters[i].offense.attacks[w].firearm
                        && self.st.is_broken(i, w)
                        && !self.st.sundered(i, w)
                }) else {
                    return Err(Reason::NothingToRepair);
                };
                if grit == 0 {
                    return Err(Reason::NoAbility);
                }
                if action.slot() == Slot::Move {
                    self.st.fighters[i].class.pools.grit -= 1;
                }
                self.st.fighters[i].gear.broken &= !(1u64 << w);
                emit!(
                    self,
                    Event::ClassAbility {
                        who: i,
                        what: ClassAbilityEvent::QuickClear {
                            weapon: prep.fighters[i].offense.attacks[w].name.clone(),
                            grit: u32::from(self.st.fighters[i].class.pools.grit)
                        }
                    }
                );
            }
            Deed::GunslingersDodge => return Err(Reason::UnsupportedKind),
        }
        Ok(())
    }

    /// Gunslinger's dodge against a ranged attack on `t`: the AC bonus it
    /// buys (2), spending 1 grit and the immediate action, or 0.
    pub(crate) fn gunslingers_dodge(&mut self, t: usize) -> i32 {
        let prep = self.st.prep;
        let has = prep.fighters[t].abilities.as_deref().is_some_and(|a| a.has_deed(Deed::GunslingersDodge));
        if !has || self.st.fighters[t].class.pools.grit == 0 || !self.can_take_immediate(t) {
            return 0;
        }
        if self.immediate(t).is_err() {
            return 0;
        }
        self.st.fighters[t].class.pools.grit -= 1;
        emit!(
            self,
            Event::ClassAbility {
                who: t,
                what: ClassAbilityEvent::GunslingersDodge {
                    grit: u32::from(self.st.fighters[t].class.pools.grit)
                }
            }
        );
        2
    }
}
