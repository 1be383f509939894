//! A cleric's domain powers in the default policy.
//!
//! - **Rebuke Death** on the nearest dying ally (below 0 hit points, not
//!   stable) it touches from here or after one move (a standard action; the
//!   turn is planned), when its mean healing (2.5 + ½ cleric level) brings
//!   that ally to 1 hit point or more: before potions (a daily power is
//!   cheaper than a potion); or, after potions, when the cleric has no cure
//!   at hand (no heal spell to cast, no charged healing wand). Otherwise the
//!   healer's cure plan (`policy::heal`) plays: a deeper wound is worth a
//!   spell slot, a shallow one is not.

use crate::effects::Flags;

use super::super::action::{Action, ActionKind};
use super::super::state::{BattleState, LifeState};

/// Plans Rebuke Death on a dying ally; `true` when the turn is planned.
/// `brings_up_only`: only when its mean healing brings the ally to 1 hit
/// point or more (else also when the cleric has no cure at hand).
pub(super) fn plan_rebuke(
    b: &BattleState<'_>,
    i: usize,
    brings_up_only: bool,
    out: &mut Vec<Action>,
) -> bool {
    let Some(power) = b.prep.fighters[i].abilities.as_deref().and_then(|a| a.rebuke_death) else {
        return false;
    };
    if b.fighters[i].class.pools.rebuke_death == 0 {
        return false;
    }
    let Some(patient) = super::heal::nearest_dying(b, i) else { return false };
    let brings_up = f64::from(b.hp(patient)) + power.mean() >= 1.0;
    if !brings_up && (brings_up_only || super::heal::has_cure(b, i)) {
        return false;
    }
    let now = b.can_rebuke_death(i, patient);
    if !now && (b.flags(i).has(Flags::CANT_MOVE) || b.life(i) != LifeState::Fighting) {
        return false;
    }
    super::heal::touch_aid(b, i, patient, ActionKind::RebukeDeath, now, out)
}
