//! Splash weapons in the default policy (`docs/strategy.md`, "Splash
//! weapons"): a table throws a flask when it does more this turn than the
//! thrower's weapons would, and not while a foe stands next to it with a
//! blade that works (taking the flask out and throwing both provoke).
//!
//! The comparison is of expected damage this turn against the chosen
//! target: the flask's hit chance against touch AC, with every modifier
//! of the throw from here (range, shooting into melee, cover, flanking:
//! the attack's own situation), times its damage and next round's burn,
//! plus its splash on the target's neighbours (a friend counts twice,
//! against); the weapons' best, a full attack when one reaches from here
//! (with its situation too), else one attack at its printed bonus when one
//! can reach this turn (a move, or a charge), else nothing. Damage counts
//! the target's immunities, resistances, vulnerabilities, damage reduction
//! and incorporeality; critical hits aside.

use super::super::action::{Action, ActionKind};
use super::super::odds::{Swing, hit_chance, iterations};
use super::super::prepared::AttackProfile;
use super::super::state::BattleState;
use super::reload;
use crate::dice::DiceExpr;
use crate::effects::effect::ENERGY;
use crate::model::ReloadTime;

/// Mean damage of one hit of `p` on combatant `j`: its components after
/// immunity, vulnerability and resistance, its flat bonus, less damage
/// reduction on the physical part.
pub(super) fn hit_damage(b: &BattleState<'_>, actor: usize, w: usize, p: &AttackProfile, j: usize) -> f64 {
    damage_on(b, actor, w, p, j, DiceExpr::mean)
}

/// The most damage one hit of `p` can deal combatant `j`: `hit_damage`
/// with every die at its highest.
fn max_hit_damage(b: &BattleState<'_>, actor: usize, w: usize, p: &AttackProfile, j: usize) -> f64 {
    damage_on(b, actor, w, p, j, |d| f64::from(d.max()))
}

/// `hit_damage` with each component's dice worth `dice`.
fn damage_on(
    b: &BattleState<'_>,
    actor: usize,
    w: usize,
    p: &AttackProfile,
    j: usize,
    dice: fn(&DiceExpr) -> f64,
) -> f64 {
    let Some(def) = p.vs.get(j) else { return 0.0 };
    let mut physical = 0.0;
    let mut other = 0.0;
    for (k, (c, d)) in p.components.iter().zip(&def.comps).enumerate() {
        if c.bleed || d.immune || d.heals {
            continue;
        }
        let mut m = dice(&c.dice).max(0.0);
        if p.bonus_component == Some(k) {
            m += f64::from(p.damage_bonus);
        }
        if d.vulnerable {
            m *= 1.5;
        }
        let m = (m - f64::from(d.resist)).max(0.0);
        if c.physical { physical += m } else { other += m }
    }
    let dealt = (physical - f64::from(def.dr)).max(0.0) + other;
    if !b.incorporeal(j) || b.incorporeal(actor) {
        return dealt;
    }
    let whole = p.carried.iter().any(|q| q == "force" || q == "ghost_touch");
    match (b.weapon_harms(actor, w, j), whole) {
        (false, _) => 0.0,
        (true, true) => dealt,
        (true, false) => dealt / 2.0,
    }
}

/// Mean damage of the burn a hit of `p` leaves on `t` (alchemist's fire).
pub(super) fn burn_damage(b: &BattleState<'_>, p: &AttackProfile, t: usize) -> f64 {
    let Some(rec) = &p.lingering else { return 0.0 };
    let spec = &b.prep.fighters[t];
    let mean = rec.dice.mean().max(0.0);
    match rec.energy.map(usize::from) {
        Some(e) if e < ENERGY.len() && spec.defense.energy_immune >> e & 1 == 1 => 0.0,
        Some(e) if e < ENERGY.len() => (mean - f64::from(spec.defense.energy_resist[e])).max(0.0),
        _ => mean,
    }
}

/// Expected damage this turn of throwing flask `w` of `actor` at `t`.
fn throw_value(b: &BattleState<'_>, actor: usize, w: usize, t: usize) -> f64 {
    let p = &b.prep.fighters[actor].offense.attacks[w];
    let s = b.situation(actor, w, t, Swing::default());
    let hit = hit_chance(s.attack, s.ac);
    hit * (hit_damage(b, actor, w, p, t) + burn_damage(b, p, t) + splash_value(b, actor, w, t))
}

/// Worth of the splash of attack `w` of `actor` hitting `t` on `t`'s
/// neighbours: its damage on each foe, less twice its damage on each friend.
pub(super) fn splash_value(b: &BattleState<'_>, actor: usize, w: usize, t: usize) -> f64 {
    splash_value_sparing(b, actor, w, t, None)
}

/// `splash_value` leaving out `spared` (a thrower about to step out of
/// the splash).
pub(super) fn splash_value_sparing(
    b: &BattleState<'_>,
    actor: usize,
    w: usize,
    t: usize,
    spared: Option<usize>,
) -> f64 {
    let Some(splash) = b.prep.fighters[actor].offense.attacks[w].splash.as_deref() else { return 0.0 };
    splashed(b, actor, t, spared)
        .map(|j| {
            let d = hit_damage(b, actor, w, splash, j);
            if b.are_enemies(actor, j) { d } else { -2.0 * d }
        })
        // In encounter order from +0.0, as the loop it replaces summed.
        .fold(0.0, |value, d| value + d)
}

/// The creatures besides `t` (and `spared`) that the splash of `actor`'s
/// weapon hitting `t` catches.
fn splashed<'a>(
    b: &'a BattleState<'_>,
    actor: usize,
    t: usize,
    spared: Option<usize>,
) -> impl Iterator<Item = usize> + 'a {
    let at = b.splash_square(actor, t);
    let alt = b.fighters[t].mobility.alt;
    (0..b.len())
        .filter(move |&j| j != t && Some(j) != spared && b.is_present(j) && b.within_splash(j, at, alt))
}

/// Whether the splash of attack `w` of `actor` hitting `t` would catch an
/// ally (`actor` itself included) it could drop: one it can hurt whose hit
/// points are at most the splash's largest damage on it (its immunities,
/// resistances and vulnerabilities counted), which takes in every ally at
/// 0 hit points or below (disabled, dying, stable). A table never aims a
/// bomb there (`docs/strategy.md`, "Splash weapons").
pub(super) fn splash_endangers(b: &BattleState<'_>, actor: usize, w: usize, t: usize) -> bool {
    splash_endangers_sparing(b, actor, w, t, None)
}

/// `splash_endangers` leaving out `spared` (a thrower about to step out of
/// the splash).
pub(super) fn splash_endangers_sparing(
    b: &BattleState<'_>,
    actor: usize,
    w: usize,
    t: usize,
    spared: Option<usize>,
) -> bool {
    let Some(splash) = b.prep.fighters[actor].offense.attacks[w].splash.as_deref() else { return false };
    splashed(b, actor, t, spared).any(|j| {
        !b.are_enemies(actor, j) && {
            let most = max_hit_damage(b, actor, w, splash, j);
            most > 0.0 && (b.hp(j) <= 0 || f64::from(b.hp(j)) <= most)
        }
    })
}

/// Expected damage this turn of `actor`'s best weapon (flasks aside) against `t`.
pub(super) fn weapons_value(b: &BattleState<'_>, actor: usize, t: usize) -> f64 {
    let spec = &b.prep.fighters[actor];
    let dist = b.distance(actor, t);
    let moves = b.move_budget(actor);
    let mut best = 0.0f64;
    for (w, p) in spec.offense.attacks.iter().enumerate() {
        if p.drawn || p.off_hand || !b.is_usable(actor, w) {
            continue;
        }
        let ac = if p.vs_touch {
            b.prep.fighters[t].defense.ac.touch
        } else {
            b.prep.fighters[t].defense.ac.total
        };
        let per_hit = hit_chance(p.bonus, ac) * hit_damage(b, actor, w, p, t);
        let attacks = if p.reaches(dist) {
            f64::from(p.count) * if p.iterates { f64::from(iterations(spec.offense.bab)) } else { 1.0 }
        } else if (p.melee && dist <= 2 * moves + p.reach_max) || (!p.melee && dist <= moves + p.max_range_ft)
        {
            1.0
        } else {
            0.0
        };
        best = best.max(per_hit * attacks);
    }
    best
}

/// Plans a throw at `t` when a flask of `actor` beats its weapons this
/// turn and its splash cannot drop an ally (`splash_endangers`): the flask taken out of the pack if none is in hand (a move
/// action), then thrown. Whether it planned the turn.
pub(super) fn plan(b: &BattleState<'_>, actor: usize, t: usize, out: &mut Vec<Action>) -> bool {
    let spec = &b.prep.fighters[actor];
    if !spec.offense.attacks.iter().any(|p| p.drawn) {
        return false;
    }
    let weapons = weapons_value(b, actor, t);
    if weapons > 0.0 && b.is_threatened(actor) {
        return false;
    }
    let here = b.pos(actor);
    let dist = b.distance(actor, t);
    let mut best: Option<(f64, usize)> = None;
    for (w, p) in spec.offense.attacks.iter().enumerate() {
        let in_hand = b.is_usable(actor, w);
        if !p.drawn || !(in_hand || b.can_reload(actor, w)) || !p.reaches(dist) {
            continue;
        }
        if splash_endangers(b, actor, w, t) {
            continue;
        }
        let v = throw_value(b, actor, w, t);
        if v > weapons && best.is_none_or(|(bv, _)| v > bv) {
            best = Some((v, w));
        }
    }
    let Some((_, w)) = best else { return false };
    if !b.line_of_effect_from(actor, here, t) {
        return false;
    }
    if !b.is_usable(actor, w) {
        out.push(Action::new(ActionKind::Reload).with_weapon(w));
    }
    out.push(Action::at(ActionKind::Attack, t).with_weapon(w));
    true
}

/// Whether the attack of `actor` on `t` from here is a splash weapon in
/// hand (a bomb): the only case `plan_guard` may change.
pub(super) fn throws_splash(b: &BattleState<'_>, actor: usize, t: usize) -> bool {
    let attacks = &b.prep.fighters[actor].offense.attacks;
    if attacks.iter().all(|p| p.splash.is_none()) {
        return false;
    }
    b.weapon_for(actor, t, b.pos(actor)).is_ok_and(|w| attacks[w].splash.is_some() && !attacks[w].drawn)
}

/// The attack a splash weapon that is the weapon of `actor`'s attack on `t`
/// from here (an alchemist's bomb, first in its file) gives way to when
/// its throw at `t` is worth less than nothing: the direct hit and the
/// splash on `t`'s neighbours, a friend's splash counting twice, against
/// (`throw_value`). A table does not bomb the ogre its own fighter stands
/// next to when the splash costs the fighter more than the bomb costs the
/// ogre, nor when the splash could drop an ally (`splash_endangers`).
/// Then: a throw at another foe in range whose throw is worth something
/// and whose splash endangers no ally (the best one); else another weapon
/// of `actor` that reaches `t` (a full attack with it, a melee one first
/// when a foe threatens `actor`); else total defense rather than burning
/// the friend. Whether it planned the turn.
pub(super) fn plan_guard(b: &BattleState<'_>, actor: usize, t: usize, out: &mut Vec<Action>) -> bool {
    let here = b.pos(actor);
    let Ok(w) = b.weapon_for(actor, t, here) else { return false };
    let spec = &b.prep.fighters[actor];
    let p = &spec.offense.attacks[w];
    if p.drawn
        || p.splash.is_none()
        || (throw_value(b, actor, w, t) >= 0.0 && !splash_endangers(b, actor, w, t))
    {
        return false;
    }
    let other = (0..b.len())
        .filter(|&e| {
            e != t
                && b.are_enemies(actor, e)
                && b.is_active(e)
                && b.weapon_reaches(actor, w, e, here)
                && !splash_endangers(b, actor, w, e)
        })
        .map(|e| (throw_value(b, actor, w, e), e))
        .filter(|&(v, _)| v > 0.0)
        .max_by(|x, y| x.0.total_cmp(&y.0).then(y.1.cmp(&x.1)));
    if let Some((_, e)) = other {
        out.push(Action::at(ActionKind::Attack, e).with_weapon(w));
        return true;
    }
    // In a foe's reach, a melee weapon first (shooting there provokes); a
    // weapon to reload only out of every reach (the reload provokes too).
    let threatened = b.is_threatened(actor);
    let dist = b.distance(actor, t);
    let dry = (0..spec.offense.attacks.len())
        .filter(|&v| {
            let q = &spec.offense.attacks[v];
            v != w
                && q.splash.is_none()
                && !q.drawn
                && !q.off_hand
                && (b.weapon_reaches(actor, v, t, here)
                    || (!threatened
                        && b.can_reload(actor, v)
                        && b.reaches(actor, v, dist)
                        && b.line_of_effect_from(actor, here, t)))
        })
        .min_by_key(|&v| (threatened && !spec.offense.attacks[v].melee, !b.is_usable(actor, v), v));
    match dry {
        Some(v) if !b.is_usable(actor, v) => {
            out.push(Action::new(ActionKind::Reload).with_weapon(v));
            if spec.offense.attacks[v].reload == Some(ReloadTime::Move) {
                out.push(Action::at(ActionKind::Attack, t).with_weapon(v));
            }
        }
        Some(v) => {
            out.push(Action::at(ActionKind::FullAttack, t).with_weapon(v));
            // A crossbow shot, then its reload, loaded for the next turn.
            reload::fire_and_reload(b, actor, out);
        }
        None => out.push(Action::new(ActionKind::TotalDefense)),
    }
    true
}
