//! The default policy's martial declarations (docs/rules/feats.md §6): once
//! the attack ladder has chosen its attack on the target, the options that
//! raise its expected damage are declared before it — Rapid Shot and Deadly
//! Aim for a ranged attack, two-weapon fighting and Cleave (which trades a
//! one-attack full attack for the attack action) in melee — and Combat
//! Expertise when the attacker is wounded and threatened.

use super::super::action::{Action, ActionKind};
use super::super::state::BattleState;
use super::super::style::Style;

/// Inserts the declarations that pay before the attack on `t` that `out`
/// plans, if it plans one from where `actor` stands or after a 5-foot step.
pub(super) fn declare(battle: &BattleState<'_>, actor: usize, t: usize, out: &mut Vec<Action>) {
    // Most combatants have no style to declare: say so before any search.
    if !Style::ALL.iter().any(|&s| battle.may_declare(actor, s)) {
        return;
    }
    let Some(k) = out
        .iter()
        .position(|a| matches!(a.kind, ActionKind::FullAttack | ActionKind::Attack) && a.target == Some(t))
    else {
        return;
    };
    let mut from = battle.pos(actor);
    for a in &out[..k] {
        match a.kind {
            ActionKind::FiveFootStep => from = a.destination.unwrap_or(from),
            ActionKind::PowerAttack | ActionKind::Declare => {}
            // After a move the weapon is not known here.
            _ => return,
        }
    }
    let Ok(w) = battle.weapon_for(actor, t, from) else { return };
    let full = out[k].kind == ActionKind::FullAttack;
    let may = |s: Style| battle.may_declare(actor, s);
    let mut styles: Vec<Style> = Vec::new();
    if battle.prep.fighters[actor].offense.attacks[w].melee {
        if full && may(Style::Flurry) && battle.flurry_pays(actor, w, t) {
            styles.push(Style::Flurry);
        } else if full && may(Style::TwoWeapon) && battle.two_weapon_pays(actor, w, t) {
            styles.push(Style::TwoWeapon);
        } else if may(Style::Cleave) && battle.cleave_pays(actor, w, t, full) {
            styles.push(Style::Cleave);
            out[k].kind = ActionKind::Attack;
        }
        if may(Style::CombatExpertise) && wounded_and_threatened(battle, actor) {
            styles.push(Style::CombatExpertise);
        }
    } else {
        let rapid = full && may(Style::RapidShot) && battle.rapid_shot_pays(actor, w, t);
        if rapid {
            styles.push(Style::RapidShot);
        }
        if may(Style::DeadlyAim) && battle.deadly_aim_pays(actor, w, t, full, rapid) {
            styles.push(Style::DeadlyAim);
        }
    }
    for (n, s) in styles.into_iter().enumerate() {
        out.insert(k + n, Action::declare(s));
    }
}

/// Below half its hit points with an enemy threatening it: Combat
/// Expertise's dodge bonus is worth its attack penalty (a rule of thumb:
/// the damage it saves is not estimated).
fn wounded_and_threatened(battle: &BattleState<'_>, actor: usize) -> bool {
    let f = &battle.fighters[actor];
    2 * f.hp < battle.prep.fighters[actor].hp_max
        && (0..battle.len()).any(|j| battle.are_enemies(actor, j) && battle.threatens(j, actor))
}
