//! Mounted combat in the policies (`combat::mounted`): a mount whose rider
//! can act goes where the rider takes it and attacks, on its own count, a
//! foe its natural attacks reach from there (a combat-trained mount's
//! attack: a full attack when the rider did not move it, one attack after a
//! move, nothing after a charge or a double move — the engine cuts the
//! plan); and a foe facing a rider and its mount in one space strikes the
//! one closer to falling (fewer hit points), the rider on a tie: a mount
//! killed throws its rider.

use super::super::action::{Action, ActionKind};
use super::super::state::BattleState;

/// A directed mount's turn: a full attack on the most wounded foe it
/// reaches, else nothing (it does not move on its own). Returns whether
/// `actor` is such a mount (and its plan is made).
pub(super) fn plan_mount(battle: &BattleState<'_>, actor: usize, out: &mut Vec<Action>) -> bool {
    let Some(r) = battle.ridden_by(actor) else { return false };
    if !battle.is_active(r) {
        return false;
    }
    let here = battle.pos(actor);
    let foe = (0..battle.len())
        .filter(|&e| battle.are_enemies(actor, e) && battle.is_active(e))
        .filter(|&e| battle.weapon_for(actor, e, here).is_ok())
        .min_by_key(|&e| (battle.hp(e), e));
    if let Some(t) = foe {
        out.push(Action::at(ActionKind::FullAttack, t));
    }
    true
}

/// Between a rider and its mount sharing a space, the one to strike: the
/// one with fewer hit points, the rider on a tie; anyone else is `t`.
pub(super) fn target(battle: &BattleState<'_>, t: usize) -> usize {
    let pair = match (battle.riding(t), battle.ridden_by(t)) {
        (Some(m), _) => (t, m),
        (_, Some(r)) => (r, t),
        _ => return t,
    };
    let (rider, mount) = pair;
    if !battle.is_active(rider) {
        return mount;
    }
    if !battle.is_active(mount) || battle.hp(rider) <= battle.hp(mount) { rider } else { mount }
}
