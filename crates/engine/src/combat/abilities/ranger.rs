//! Ranger favored enemy (CRB "Ranger", "Favored Enemy").
//!
//! Switched on by features `Favored Enemy (undead +2)`, one per chosen
//! type: against a creature of that type the ranger gains the bonus on
//! weapon attack and damage rolls (an untyped bonus of the class; the
//! skill bonuses are not rolled in a battle). A creature of several chosen
//! entries uses the highest. *Simplified*: by creature type only, the data
//! having no subtypes.

use super::super::state::BattleState;

impl BattleState<'_> {
    /// The bonus of `a`'s favored enemy on attack and damage rolls against `t`.
    #[inline]
    pub(crate) fn favored_enemy(&self, a: usize, t: usize) -> i32 {
        match self.prep.fighters[a].abilities.as_deref() {
            Some(s) if !s.favored_enemies.is_empty() => s.favored_enemy(self.prep.fighters[t].nature.ctype),
            _ => 0,
        }
    }
}
