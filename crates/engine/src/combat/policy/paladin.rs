//! A paladin's smite evil and lay on hands in the default policy.
//!
//! - **Lay on hands on an ally**: an ally who is dying (below 0 hit points,
//!   not stable) and whom it touches from here or after one move gets it
//!   (a standard action); the turn is planned.
//! - **Lay on hands on itself**: the swift action of a turn that starts
//!   with it under half its hit points.
//! - **Smite evil**: while its smite lasts it fights the smitten foe when it
//!   reaches it this turn; otherwise, with a use and the swift action left,
//!   it smites the most dangerous evil foe it reaches this turn (the
//!   highest expected damage of a full attack, then the nearest) whose hit
//!   points outlast one of its hits with the smite's damage, and fights it.

use super::super::action::{Action, ActionKind};
use super::super::state::BattleState;

/// Plans a lay on hands on a dying ally; `true` when the turn is planned.
pub(super) fn plan_aid(b: &BattleState<'_>, i: usize, out: &mut Vec<Action>) -> bool {
    let Some(patient) = super::heal::nearest_dying(b, i) else { return false };
    // A clay golem's cursed wound the paladin's level cannot overcome.
    if b.healing_odds(patient, b.prep.fighters[i].nature.hd) <= 0.0 {
        return false;
    }
    if b.fighters[i].class.pools.lay_on_hands == 0
        || b.prep.fighters[i].abilities.as_deref().is_none_or(|a| a.lay_on_hands.is_none())
    {
        return false;
    }
    super::heal::touch_aid(b, i, patient, ActionKind::LayOnHands, b.can_lay_on_hands(i, patient), out)
}

/// Plans the paladin's swift action (lay on hands on itself, or smite
/// evil) and returns the foe to fight this turn (`t` unless the smite says otherwise).
pub(super) fn plan(b: &BattleState<'_>, i: usize, t: usize, out: &mut Vec<Action>) -> usize {
    let Some(a) = b.prep.fighters[i].abilities.as_deref() else { return t };
    if b.fighters[i].turn.swift_used {
        return t;
    }
    if a.lay_on_hands.is_some()
        && 2 * b.hp(i) < b.hp_max(i)
        && b.can_lay_on_hands(i, i)
        && b.healing_odds(i, b.prep.fighters[i].nature.hd) > 0.0
    {
        out.push(Action::new(ActionKind::LayOnHands));
        return keep_smitten(b, i, t);
    }
    let Some(smite) = a.smite else { return t };
    if let Some(s) = b.smiting(i).filter(|&s| b.is_active(s)) {
        return if reaches_this_turn(b, i, s) { s } else { t };
    }
    if b.smites_left(i) == 0 {
        return t;
    }
    let hit = b.prep.fighters[i].best_melee_mean_damage();
    let danger = |e: usize| -> f64 {
        b.prep.fighters[e].offense.attacks.iter().map(|w| w.mean_damage * f64::from(w.count.max(1))).sum()
    };
    let best = (0..b.len())
        .filter(|&e| b.are_enemies(i, e) && b.is_active(e) && b.smitable(i, e))
        .filter(|&e| f64::from(b.hp(e)) > hit + f64::from(smite.damage) && reaches_this_turn(b, i, e))
        .max_by(|&x, &y| danger(x).total_cmp(&danger(y)).then(b.distance(i, y).cmp(&b.distance(i, x))));
    match best {
        Some(e) => {
            out.push(Action::at(ActionKind::Smite, e));
            e
        }
        None => t,
    }
}

/// The smitten foe when it still stands and `i` reaches it this turn, else `t`.
fn keep_smitten(b: &BattleState<'_>, i: usize, t: usize) -> usize {
    b.smiting(i).filter(|&s| b.is_active(s) && reaches_this_turn(b, i, s)).unwrap_or(t)
}

/// Whether `i` can attack `e` in melee this turn: from here, after a
/// 5-foot step, by a charge, or after one move.
fn reaches_this_turn(b: &BattleState<'_>, i: usize, e: usize) -> bool {
    let reach =
        b.prep.fighters[i].offense.attacks.iter().filter(|w| w.melee).map(|w| w.reach_max).max().unwrap_or(0);
    reach > 0
        && (super::melee_this_turn(b, i, e, true)
            || b.step_to_attack(i, e).is_some()
            || b.distance(i, e) <= b.move_budget(i) + reach)
}
