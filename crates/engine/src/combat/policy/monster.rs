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
//! - A creature with several natural attacks whose full attack from here
//!   would leave some of them out of reach (a dragon's 10-ft bite against a
//!   foe 10 ft away, its claws and wings reaching 5 ft) takes a 5-foot step
//!   first when one brings more of them within reach (`fuller_step`).
//! - A celestial or fiendish creature smites (swift action, before its
//!   attacks) the foe it will strike in melee this turn when that foe is of
//!   the punished alignment, it has a use left and no smitten foe alive, and
//!   the foe is worth it: more hit points left than one hit of its best
//!   melee attack with the smite's damage (not a foe about to fall).

use super::super::action::{Action, ActionKind};
use super::super::state::BattleState;
use crate::grid::NEIGHBOURS;
use crate::map::Pos;

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

/// Plans `actor`'s smite on `t` (see the module's text).
pub(super) fn plan_smite(battle: &BattleState<'_>, actor: usize, t: usize, out: &mut Vec<Action>) {
    let Some(smite) = battle.smite_of(actor) else { return };
    // A paladin's smite has its own choice (`policy::paladin`).
    if battle.prep.fighters[actor].abilities.as_deref().is_some_and(|a| a.smite.is_some()) {
        return;
    }
    if battle.smites_left(actor) == 0
        || battle.smiting(actor).is_some_and(|f| !battle.fighters[f].dead)
        || battle.fighters[actor].swift_used
        || !battle.smitable(actor, t)
        || !super::melee_this_turn(battle, actor, t, true)
    {
        return;
    }
    let hit = battle.prep.fighters[actor]
        .attacks
        .iter()
        .filter(|w| w.melee)
        .map(|w| w.mean_damage)
        .fold(0.0, f64::max);
    if f64::from(battle.hp(t)) > hit + f64::from(smite.damage) {
        out.push(Action::at(ActionKind::Smite, t));
    }
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
        .filter(|&e| {
            battle.are_enemies(actor, e)
                && battle.is_active(e)
                && battle.is_helpless(e)
                && !battle.is_swallowed(e)
        })
        .filter(|&e| battle.weapon_for(actor, e, here).is_ok() || battle.distance(actor, e) <= speed)
        .min_by_key(|&e| (battle.distance(actor, e), e))
        .unwrap_or(nearest)
}

/// A 5-foot step from which more attacks of `actor`'s natural routine reach
/// `t` than from here (each entry counted `count` times), if one exists and
/// some already reach from here. Fliers aloft do not step.
pub(super) fn fuller_step(battle: &BattleState<'_>, actor: usize, t: usize) -> Option<Pos> {
    let spec = &battle.prep.fighters[actor];
    if spec.natural_mask.count_ones() < 2 || battle.altitude(actor) != 0 {
        return None;
    }
    let natural = || (0..spec.attacks.len().min(64)).filter(|&w| spec.natural_mask >> w & 1 == 1);
    let reaching = |q: Pos| -> u32 {
        natural()
            .filter(|&w| battle.weapon_reaches(actor, w, t, q))
            .map(|w| spec.attacks[w].count.max(1))
            .sum()
    };
    let from = battle.pos(actor);
    let here = reaching(from);
    let all: u32 = natural().map(|w| spec.attacks[w].count.max(1)).sum();
    if here == 0 || here == all {
        return None;
    }
    let mut best: Option<(Pos, u32)> = None;
    for &(dr, dc) in &NEIGHBOURS {
        let q = Pos::new(from.row + dr, from.col + dc);
        if !battle.can_step(actor, q) {
            continue;
        }
        let n = reaching(q);
        if n > best.map_or(here, |(_, b)| b) {
            best = Some((q, n));
        }
    }
    best.map(|(q, _)| q)
}
