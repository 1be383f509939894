//! Concealment and blindness (CRB "Concealment", "Blinded", "Invisible";
//! seed "Concealment", "Attaquant aveugle").
//!
//! The miss chance of an attack is the target's (its conditions and effect
//! instances: blurred 20 %, displaced and invisible 50 %, Mirror Image's
//! images), raised to 50 % when the attacker is blinded (every foe has total
//! concealment against it). It is rolled after the hit and the confirmation.
//! Improved Precise Shot ignores concealment short of total on ranged attacks.

use super::attack::BLIND_MISS_CHANCE;
use super::state::BattleState;
use crate::effects::Flags;

/// Miss chance from which concealment is total (CRB: 50 %).
pub(crate) const TOTAL_CONCEALMENT: u8 = 50;

impl BattleState<'_> {
    /// The miss chance, in percent, of an attack by `a` on `t`.
    #[inline]
    pub(crate) fn miss_chance(&self, a: usize, t: usize, melee: bool) -> u8 {
        let mut m = self.fighters[t].miss_chance;
        if self.fighters[a].summary.flags.has(Flags::BLIND) {
            m = m.max(BLIND_MISS_CHANCE);
        }
        if !melee && m < TOTAL_CONCEALMENT && self.prep.fighters[a].improved_precise_shot {
            m = 0;
        }
        m
    }

    /// Whether `e` cannot make an attack of opportunity against `t` because
    /// `t` has total concealment against it (CRB: "you can't make attacks of
    /// opportunity against a creature with total concealment").
    #[inline]
    pub(crate) fn totally_concealed_from(&self, e: usize, t: usize) -> bool {
        self.fighters[t].miss_chance >= TOTAL_CONCEALMENT || self.fighters[e].summary.flags.has(Flags::BLIND)
    }
}
