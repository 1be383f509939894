//! Damage an incorporeal creature takes (UMR "Incorporeal"): none from
//! nonmagical weapons; half from magic weapons, spells and other
//! corporeal sources; full from force effects and from other incorporeal
//! creatures. Its precision immunity is `prepared::precision_immune`.
//!
//! *Simplifications*: a weapon is magic when its attack lists the `magic`,
//! `ghost_touch` or `force` quality (an enhancement from a spell, such as
//! Magic Weapon, is not seen); the 50 % chance to ignore a corporeal
//! weapon's damage is played as half damage, as the UMR text states it;
//! moving through walls and the miss chance of a creature inside an object
//! are not modelled (the map keeps it in open squares).

use crate::rng::Dice;

use super::super::damage::Damage;
use super::super::engine::Engine;
use super::super::event::{AfflictionEvent, Event};
use super::super::log::emit;
use super::super::state::BattleState;

/// Qualities that let a weapon harm an incorporeal creature.
const HARMS_INCORPOREAL: [&str; 3] = ["magic", "ghost_touch", "force"];

impl BattleState<'_> {
    /// Whether `i` is incorporeal.
    pub(crate) fn incorporeal(&self, i: usize) -> bool {
        self.prep.fighters[i].monster.as_deref().is_some_and(|m| m.incorporeal)
    }

    /// Whether a hit of attack `w` of `a` can deal `t` any damage: not when
    /// `t` is incorporeal and the weapon is neither magic, ghost touch nor
    /// force (and `a` is not incorporeal itself).
    pub(crate) fn weapon_harms(&self, a: usize, w: usize, t: usize) -> bool {
        if !self.incorporeal(t) || self.incorporeal(a) {
            return true;
        }
        self.prep.fighters[a]
            .offense
            .attacks
            .get(w)
            .is_some_and(|atk| atk.carried.iter().any(|q| HARMS_INCORPOREAL.contains(&q.as_str())))
    }
}

impl<R: Dice> Engine<'_, '_, R> {
    /// Whether `i` is incorporeal.
    pub(crate) fn incorporeal(&self, i: usize) -> bool {
        self.st.incorporeal(i)
    }

    /// `dmg`, a hit of attack `w` of `a`, as incorporeal `t` takes it.
    pub(crate) fn incorporeal_hit(&mut self, a: usize, w: usize, t: usize, mut dmg: Damage) -> Damage {
        if !self.incorporeal(t) || self.incorporeal(a) {
            return dmg;
        }
        let carried = &self.st.prep.fighters[a].offense.attacks[w].carried;
        let full = carried.iter().any(|q| q == "force" || q == "ghost_touch");
        let magic = self.st.weapon_harms(a, w, t);
        if full {
            return dmg;
        }
        let kept = if magic { dmg.dealt / 2 } else { 0 };
        emit!(
            self,
            Event::Affliction {
                who: t,
                what: AfflictionEvent::Incorporeal { halved: magic, from: dmg.dealt, to: kept }
            }
        );
        dmg.physical = dmg.physical.min(kept);
        dmg.dealt = kept;
        dmg.nonlethal = 0;
        dmg.bleed = if magic { dmg.bleed / 2 } else { 0 };
        dmg
    }

    /// Spell damage `dealt` of `types` as `t` takes it: incorporeal halves
    /// it unless force; a type that stops its regeneration does so.
    pub(crate) fn monster_takes_spell_damage(&mut self, t: usize, dealt: u32, types: &[String]) -> u32 {
        let mut dealt = dealt;
        if dealt > 0 && self.st.damage_splits(t, types) {
            // Electricity splits an ochre jelly instead (`monster::split`).
            self.split(t);
            return 0;
        }
        if dealt > 0 && self.st.prep.fighters[t].monster.as_deref().is_some_and(|m| m.magic_energy.is_some())
        {
            // A golem's immunity to magic: energy that heals or slows it (`monster::golem`).
            dealt = self.magic_energy_damage(t, dealt, types);
        }
        if self.incorporeal(t) && !types.iter().any(|x| x == "force") {
            dealt /= 2;
        }
        if dealt > 0 {
            self.damage_types_hit(t, types);
        }
        dealt
    }
}
