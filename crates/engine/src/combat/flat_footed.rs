//! Flat-footed before one's first action (CRB "Combat", "Flat-Footed";
//! "Uncanny Dodge"): a combatant that has not yet acted in a battle is
//! flat-footed: it loses its Dexterity bonus to AC and CMD and makes no
//! attack of opportunity unless it has Combat Reflexes. Uncanny Dodge keeps
//! both. The condition is the effects layer's `flat_footed`; it ends at the
//! start of the combatant's first turn (the surprise round's included, so
//! the surprised stay flat-footed through it).

use super::state::BattleState;
use crate::effects::ConditionId;

impl BattleState<'_> {
    /// Makes every combatant on the battlefield flat-footed at the start of
    /// the battle, except those with Uncanny Dodge.
    pub(crate) fn start_flat_footed(&mut self) {
        for i in 0..self.len() {
            let f = &self.fighters[i];
            if f.gone || f.dead || f.turn.has_acted || self.prep.fighters[i].feats.uncanny_dodge {
                continue;
            }
            self.fighters[i].base_conds = f.base_conds.with(ConditionId::FlatFooted);
            self.refresh_status(i);
        }
    }

    /// Ends `i`'s flat-footedness of the start of the battle (its first turn begins).
    pub(crate) fn end_flat_footed(&mut self, i: usize) {
        let f = &mut self.fighters[i];
        if f.base_conds.has(ConditionId::FlatFooted) {
            f.base_conds = f.base_conds.without(ConditionId::FlatFooted);
            self.refresh_status(i);
        }
    }
}
