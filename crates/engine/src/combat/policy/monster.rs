//! Decisions of creatures with played special abilities (`combat::monster`).
//!
//! - A breath weapon, when ready, is used from where the creature stands
//!   on the aim (an enemy's square) that catches the most enemies and no
//!   ally able to fight, if it catches at least [`BREATH_MIN_ENEMIES`]
//!   enemies, or at least one while no enemy is within reach of a full
//!   attack (a one-target breath is then worth more than a move and one
//!   attack). Ties: the first enemy in encounter order.
//! - A helpless enemy (a ghoul's paralyzed victim) within reach, or within
//!   one move, is attacked before the nearest enemy.

use super::super::action::{Action, ActionKind};
use super::super::state::BattleState;

/// Enemies a breath must catch when some enemy is already in reach.
pub(crate) const BREATH_MIN_ENEMIES: usize = 2;

/// The breath weapon's action, if the creature should breathe now.
pub(super) fn plan_breath(battle: &BattleState<'_>, actor: usize, out: &mut Vec<Action>) -> bool {
    let Some(b) = battle.breath_ready(actor) else { return false };
    let mut squares = Vec::new();
    let mut caught = Vec::new();
    let mut best: Option<(usize, usize)> = None;
    for aim in (0..battle.len()).filter(|&e| battle.are_enemies(actor, e) && battle.is_active(e)) {
        if !battle.breath_squares(actor, b, battle.pos(aim), &mut squares) {
            continue;
        }
        battle.breath_caught(actor, b, &squares, &mut caught);
        if caught.iter().any(|&c| !battle.are_enemies(actor, c) && battle.is_active(c)) {
            continue;
        }
        let enemies = caught.iter().filter(|&&c| battle.are_enemies(actor, c) && battle.is_active(c)).count();
        if best.is_none_or(|(_, n)| enemies > n) {
            best = Some((aim, enemies));
        }
    }
    let Some((aim, enemies)) = best else { return false };
    let here = battle.pos(actor);
    let in_reach = (0..battle.len()).any(|e| {
        battle.are_enemies(actor, e) && battle.is_active(e) && battle.weapon_for(actor, e, here).is_ok()
    });
    let standing = (0..battle.len()).filter(|&e| battle.are_enemies(actor, e) && battle.is_active(e)).count();
    let enough = enemies >= BREATH_MIN_ENEMIES.min(standing) || (!in_reach && enemies >= 1);
    if enough && enemies > 0 {
        out.push(Action::at(ActionKind::BreathWeapon, aim));
        return true;
    }
    false
}

/// The target of a creature with special abilities: the closest helpless
/// enemy it can reach this turn, else `nearest`.
pub(super) fn target(battle: &BattleState<'_>, actor: usize, nearest: usize) -> usize {
    if battle.is_helpless(nearest) {
        return nearest;
    }
    let here = battle.pos(actor);
    let speed = battle.prep.fighters[actor].speed_ft;
    (0..battle.len())
        .filter(|&e| battle.are_enemies(actor, e) && battle.is_active(e) && battle.is_helpless(e))
        .filter(|&e| battle.weapon_for(actor, e, here).is_ok() || battle.distance(actor, e) <= speed)
        .min_by_key(|&e| (battle.distance(actor, e), e))
        .unwrap_or(nearest)
}
