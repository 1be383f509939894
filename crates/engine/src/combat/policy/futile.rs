//! No attack that cannot hit (`docs/strategy.md`, "No attack that cannot
//! hit"): a table does not shoot a light crossbow at a clay golem round
//! after round when only a natural 20 hits it and its damage reduction
//! swallows the bolt anyway. Which attacks are of any use against which
//! foe; `policy::harmless` and `policy::magic` decide what to do instead.
//!
//! An attack is of use against a foe when it can hurt it on a hit (the
//! most a hit deals, critical hits aside, after damage reduction,
//! resistances, immunities and incorporeality, is above 0: a +1 longbow's
//! 1d8+5 gets through a clay golem's DR 10 on a 6 or more, a light
//! crossbow's 1d8 never) and hits it on
//! something other than a natural 20: the attack's bonus with its
//! situation against the foe (conditions, effects, flanking, aid…) but
//! without range penalties and cover, which a move can shed (the best
//! shot, `policy::ranged`, looks after those), against its armor class
//! without cover; a firearm counts its touch increment. Printed figures
//! that hit on an 11 or better leave a margin no situation takes away,
//! and the check stops there (it runs every turn).

use super::super::odds::{Swing, hit_chance};
use super::super::state::BattleState;

/// Whether attack `w` of `actor` is of any use against foe `e` (see the
/// module's documentation): ready or ready after a reload or a draw, hurts
/// `e` on a hit, hits `e` on more than a natural 20.
pub(super) fn useful(b: &BattleState<'_>, actor: usize, w: usize, e: usize) -> bool {
    let p = &b.prep.fighters[actor].offense.attacks[w];
    if !(b.is_usable(actor, w) || b.can_reload(actor, w)) || most_damage(b, actor, w, e) <= 0 {
        return false;
    }
    let touch = p.vs_touch || p.firearm;
    let ac = &b.prep.fighters[e].defense.ac;
    if p.bonus + 11 >= if touch { ac.touch } else { ac.total } {
        return true;
    }
    let s = b.situation(actor, w, e, Swing::default());
    let ac = b.armor_class(actor, e, p.melee, touch, s.denied, false, 0);
    hit_chance(s.attack + s.range_penalty, ac) > NATURAL_20
}

/// The chance of a hit on a natural 20 alone.
const NATURAL_20: f64 = 0.05 + 1e-9;

/// Whether some attack of `actor` is of use against `e`.
pub(super) fn any_useful(b: &BattleState<'_>, actor: usize, e: usize) -> bool {
    (0..b.prep.fighters[actor].offense.attacks.len()).any(|w| useful(b, actor, w, e))
}

/// The active foes of `i` (not swallowed).
fn foes<'a>(b: &'a BattleState<'_>, i: usize) -> impl Iterator<Item = usize> + 'a {
    (0..b.len()).filter(move |&e| b.are_enemies(i, e) && b.is_active(e) && !b.is_swallowed(e))
}

/// Whether `i` has attacks and none of them is of use against any active
/// foe: its weapon is worth nothing this battle.
pub(super) fn all_futile(b: &BattleState<'_>, i: usize) -> bool {
    !b.prep.fighters[i].offense.attacks.is_empty() && !foes(b, i).any(|e| any_useful(b, i, e))
}

/// Whether an ally of `i` able to fight has an attack of use against some
/// active foe: while one has, `i` helps instead of swinging for nothing;
/// when none has, the side's only hope is the natural 20, and it fights.
pub(super) fn ally_fights(b: &BattleState<'_>, i: usize) -> bool {
    (0..b.len())
        .filter(|&a| a != i && !b.are_enemies(i, a) && b.is_active(a))
        .any(|a| foes(b, i).any(|e| any_useful(b, a, e)))
}

/// The most one hit of attack `w` of `actor` deals to `j`, critical hits
/// aside: each component's largest roll after immunity, vulnerability and
/// resistance, less damage reduction on the physical part; nothing when
/// the attack cannot touch an incorporeal `j` (half, rounded down, when it
/// touches it as a magic weapon does).
pub(super) fn most_damage(b: &BattleState<'_>, actor: usize, w: usize, j: usize) -> i32 {
    let p = &b.prep.fighters[actor].offense.attacks[w];
    let Some(def) = p.vs.get(j) else { return 0 };
    let (mut physical, mut other) = (0i32, 0i32);
    for (k, (c, d)) in p.components.iter().zip(&def.comps).enumerate() {
        if c.bleed || d.immune || d.heals {
            continue;
        }
        let mut m = c.dice.max().max(0);
        if p.bonus_component == Some(k) {
            m += p.damage_bonus;
        }
        if d.vulnerable {
            m += m / 2;
        }
        let m = (m - d.resist as i32).max(0);
        if c.physical { physical += m } else { other += m }
    }
    let dealt = (physical - def.dr as i32).max(0) + other;
    if !b.incorporeal(j) || b.incorporeal(actor) {
        return dealt;
    }
    let whole = p.carried.iter().any(|q| q == "force" || q == "ghost_touch");
    match (b.weapon_harms(actor, w, j), whole) {
        (false, _) => 0,
        (true, true) => dealt,
        (true, false) => dealt / 2,
    }
}
