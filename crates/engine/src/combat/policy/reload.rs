//! Reloading decisions (`combat::reload`).
//!
//! - Before the attack ladder: when the attack `actor` would use against
//!   its target were everything loaded is an unloaded weapon it can reload
//!   (or nothing reaches the target and its first ranged weapon is the
//!   unloaded one), it reloads first; after a move-action reload it shoots
//!   if the weapon reaches, else moves toward the target.
//! - After the ladder: a full attack whose weapon holds one shot (a reload
//!   that is a move action) becomes one attack and a reload, so the weapon
//!   is loaded for the next turn (a crossbow fires once a round).

use super::super::action::{Action, ActionKind};
use super::super::state::BattleState;
use crate::model::ReloadTime;

/// The first attack of `actor` reaching `t` from where it stands, counting
/// unloaded weapons as loaded (broken and dropped ones aside; splash
/// weapons' flasks are `policy::splash`'s).
fn weapon_if_loaded(battle: &BattleState<'_>, actor: usize, t: usize) -> Option<usize> {
    let dist = battle.distance(actor, t);
    let f = &battle.fighters[actor];
    let lost = f.gear.broken | f.gear.dropped;
    let attacks = &battle.prep.fighters[actor].offense.attacks;
    (0..attacks.len())
        .find(|&w| (w >= 64 || lost >> w & 1 == 0) && !attacks[w].drawn && attacks[w].reaches(dist))
}

/// Reloads first when the weapon `actor` would fight `t` with is unloaded;
/// whether it planned the turn.
pub(super) fn plan_reload(battle: &BattleState<'_>, actor: usize, t: usize, out: &mut Vec<Action>) -> bool {
    if battle.fighters[actor].gear.unloaded == 0 {
        return false;
    }
    let attacks = &battle.prep.fighters[actor].offense.attacks;
    let w = match weapon_if_loaded(battle, actor, t) {
        Some(w) => w,
        // Nothing reaches: its first ranged weapon, to move to shooting range with it.
        None => match (0..attacks.len()).find(|&w| !attacks[w].melee && !attacks[w].drawn) {
            Some(w) => w,
            None => return false,
        },
    };
    if !battle.can_reload(actor, w) {
        return false;
    }
    out.push(Action::new(ActionKind::Reload).with_weapon(w));
    match attacks[w].reload {
        Some(ReloadTime::Move) => {
            if attacks[w].reaches(battle.distance(actor, t)) {
                out.push(Action::at(ActionKind::Attack, t).with_weapon(w));
            } else {
                out.push(Action::at(ActionKind::Move, t));
            }
        }
        Some(ReloadTime::Standard) if !attacks[w].reaches(battle.distance(actor, t)) => {
            out.push(Action::at(ActionKind::Move, t));
        }
        _ => {}
    }
    true
}

/// After the ladder: a full attack with a one-shot weapon reloaded by a move
/// action becomes an attack and a reload.
pub(super) fn fire_and_reload(battle: &BattleState<'_>, actor: usize, out: &mut Vec<Action>) {
    let [full] = out.as_slice() else { return };
    let attacks = &battle.prep.fighters[actor].offense.attacks;
    if full.kind != ActionKind::FullAttack || !attacks.iter().any(|a| a.reload == Some(ReloadTime::Move)) {
        return;
    }
    let Some(t) = full.target else { return };
    let w = match full.weapon {
        Some(w) => w,
        None => match battle.weapon_for(actor, t, battle.pos(actor)) {
            Ok(w) => w,
            Err(_) => return,
        },
    };
    let atk = &attacks[w];
    if atk.melee || atk.drawn || atk.reload != Some(ReloadTime::Move) {
        return;
    }
    out.clear();
    out.push(Action::at(ActionKind::Attack, t).with_weapon(w));
    // Nothing to reload with after the last shot.
    if battle.ammunition_left(actor, w).is_none_or(|n| n > 1) {
        out.push(Action::new(ActionKind::Reload).with_weapon(w));
    }
}
