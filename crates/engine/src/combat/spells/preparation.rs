//! A prepared caster's spells of the day (CRB "Preparing Wizard Spells",
//! "Cleric: Spontaneous Casting"): each prepared copy is cast once, with
//! the metamagic it was prepared with; a spontaneous conversion (a cleric's
//! cure wounds) gives up another prepared spell of the same level.

use crate::rng::Dice;

use super::super::engine::Engine;
use super::super::event::Event;
use super::super::log::emit;
use super::super::state::BattleState;
use super::casting::Cast;

impl BattleState<'_> {
    /// The prepared copy `i` spends for `cast` (a slot of level 1 or more):
    /// its own copy, or for a spontaneous conversion the copy given up. `None`
    /// for a caster without a prepared list.
    pub(crate) fn copy_spent(&self, i: usize, cast: &Cast) -> Option<usize> {
        let caster = self.prep.fighters[i].caster.as_deref()?;
        if !caster.is_prepared() {
            return None;
        }
        let left = &self.fighters[i].casting.prepared_left;
        let spontaneous = caster.known(cast.spell).is_some_and(|k| k.spontaneous);
        if !spontaneous {
            return caster.copy_to_cast(cast.spell, cast.metamagic, left);
        }
        // Give up what a table would: a spell that does not heal before one
        // that does, the last of the list (the least wanted) first; never a
        // domain spell (CRB "Cleric: Spontaneous Casting").
        let at_level =
            |p: &usize| caster.prepared[*p].slot == cast.slot && left[*p] > 0 && !caster.prepared[*p].domain;
        let heals = |p: usize| self.prep.spells[usize::from(caster.prepared[p].spell)].role.heal;
        let mut candidates = (0..caster.prepared.len()).rev().filter(at_level);
        let first = candidates.clone().find(|&p| !heals(p));
        first.or_else(|| candidates.next())
    }
}

impl<R: Dice> Engine<'_, '_, R> {
    /// Spends the prepared copy of `cast` (slot already spent), and says
    /// which spell a spontaneous conversion gave up.
    pub(crate) fn spend_prepared(&mut self, i: usize, cast: &Cast) {
        let Some(p) = self.st.copy_spent(i, cast) else { return };
        let prep = self.st.prep;
        let Some(caster) = prep.fighters[i].caster.as_deref() else { return };
        self.st.fighters[i].casting.prepared_left[p] -= 1;
        let copy = caster.prepared[p];
        if copy.spell != cast.spell || copy.metamagic != cast.metamagic {
            emit!(
                self,
                Event::GivesUpPrepared {
                    who: i,
                    given_up: prep.spells[usize::from(copy.spell)].spell.name.clone(),
                    spell: prep.spells[usize::from(cast.spell)].spell.name.clone(),
                }
            );
        }
    }
}
