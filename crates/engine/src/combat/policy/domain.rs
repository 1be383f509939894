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
    let Some(patient) = (0..b.len())
        .filter(|&j| j != i && !b.are_enemies(i, j) && b.life(j) == LifeState::Dying)
        .filter(|&j| b.prep.fighters[j].reserve.is_none())
        .min_by_key(|&j| (b.distance(i, j), j))
    else {
        return false;
    };
    let brings_up = f64::from(b.hp(patient)) + power.mean() >= 1.0;
    if !brings_up && (brings_up_only || super::heal::has_cure(b, i)) {
        return false;
    }
    if b.can_rebuke_death(i, patient) {
        out.push(Action::at(ActionKind::RebukeDeath, patient));
        return true;
    }
    if b.flags(i).has(Flags::CANT_MOVE) || b.life(i) != LifeState::Fighting {
        return false;
    }
    match super::heal::approach(b, i, patient) {
        Some((q, None)) => {
            out.push(Action::new(ActionKind::Move).with_destination(q));
            out.push(Action::at(ActionKind::RebukeDeath, patient));
            true
        }
        _ => false,
    }
}
