//! Sneak attack (CRB rogue "Sneak Attack"; seed "Attaque sournoise").
//!
//! Precision d6 when the target is flanked (melee, melee touch included) or
//! denied its Dexterity bonus against the attacker (melee, or ranged within
//! 30 ft); never against a target with any concealment (or by a blinded
//! attacker), never against oozes, elementals or incorporeal creatures
//! (their traits; undead and constructs are not immune in PF1e). The dice are rolled after
//! the critical multiplier, never multiplied, and meet damage reduction with
//! the weapon's physical damage (`damage::roll_damage`).

use super::odds::Situation;
use super::state::BattleState;

/// Farthest range of a ranged sneak attack (CRB: "within 30 feet").
const RANGED_SNEAK_FT: u32 = 30;

impl BattleState<'_> {
    /// The sneak attack d6 of a hit of attack `w` of `a` on `t` (0: none).
    #[inline]
    pub(crate) fn sneak_attack_dice(
        &self,
        a: usize,
        w: usize,
        t: usize,
        s: &Situation,
        miss_chance: u8,
    ) -> u32 {
        let spec = &self.prep.fighters[a];
        if spec.offense.sneak_dice == 0 || miss_chance > 0 || self.prep.fighters[t].defense.precision_immune {
            return 0;
        }
        let melee = spec.offense.attacks[w].melee;
        let applies =
            if melee { s.flank || s.denied } else { s.denied && self.distance(a, t) <= RANGED_SNEAK_FT };
        if applies { spec.offense.sneak_dice } else { 0 }
    }
}
