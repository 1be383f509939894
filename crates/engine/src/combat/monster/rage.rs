//! A wolverine's rage (Bestiary, Wolverine: "A wolverine that takes damage
//! in combat flies into a berserk rage on its next turn, clawing and biting
//! madly until either it or its opponent is dead. It gains +4 to Strength,
//! +4 to Constitution, and –2 to AC. The creature cannot end its rage
//! voluntarily.").
//!
//! At the start of its turn, a creature with `rage` that has taken damage
//! (hit points below its maximum) and does not rage yet starts raging for
//! the rest of the battle: +4 Strength and +4 Constitution (the engine's
//! derived numbers follow: attack and damage of Strength-based attacks,
//! CMB, Fortitude; the Constitution's +2 hit points per Hit Die are added
//! to its current hit points, as Augment Summoning's), −2 AC. *Simplification*: "until
//! it or its opponent is dead" is played as the battle: it keeps fighting
//! the next foe in the same rage.

use crate::effects::{BonusType, Duration, Effect, Mod, ModTarget};
use crate::rng::Dice;

use super::super::engine::Engine;

/// The effect's name on the event stream.
pub(crate) const RAGE_EFFECT: &str = "rage";
/// Strength and Constitution bonus of the rage.
pub(crate) const RAGE_BONUS: i32 = 4;
/// AC penalty of the rage.
pub(crate) const RAGE_AC_PENALTY: i32 = 2;

/// The effect of a rage: +4 Strength and Constitution of bonus type `ty`,
/// −2 AC, and `will` on Will saves of the same type (a barbarian's +2
/// morale; the wolverine's rage has none). Shared by the wolverine's rage
/// and the barbarian's (`combat::abilities::barbarian`).
pub(crate) fn rage_effect(ty: BonusType, will: i32) -> Effect {
    let mut mods = vec![
        Mod::new(ModTarget::Str, RAGE_BONUS, ty),
        Mod::new(ModTarget::Con, RAGE_BONUS, ty),
        Mod::new(ModTarget::Ac, -RAGE_AC_PENALTY, BonusType::Untyped),
    ];
    if will != 0 {
        mods.push(Mod::new(ModTarget::Will, will, ty));
    }
    Effect::new(RAGE_EFFECT, Duration::UntilRemoved).with_mods(mods)
}

impl<R: Dice> Engine<'_, '_, R> {
    /// The start of `i`'s turn: a wounded creature with rage starts raging.
    pub(crate) fn rage_turn(&mut self, i: usize) {
        let prep = self.st.prep;
        let f = &self.st.fighters[i];
        if f.monster.raging || f.dead || f.hp >= prep.fighters[i].hp_max {
            return;
        }
        self.st.fighters[i].monster.raging = true;
        let e = rage_effect(BonusType::Untyped, 0);
        // +4 Constitution: +2 hit points per Hit Die (as Augment Summoning's).
        self.st.fighters[i].hp += RAGE_BONUS / 2 * prep.fighters[i].nature.hd as i32;
        self.apply_effect(i, e, None);
        self.st.refresh_status(i);
    }
}
