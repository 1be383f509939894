//! The best shot (`docs/strategy.md`, "The best shot"): when the attack
//! ladder would shoot, a table weighs every ranged attack it has, with the
//! range-increment penalties of where it stands, and closes in first when
//! one move and a single shot are worth more than everything it can do
//! from here.
//!
//! An alchemist 100 ft from a troll throws his bomb, first in his file, at
//! −8 (four increments of 20 ft past the first); his light crossbow shoots
//! at −2 (one increment of 80 ft past the first), and a move of 30 ft brings
//! the bomb to −4. The ladder took the first attack that reaches; this
//! chooses by expected damage this turn: the hit chance of each attack
//! (the attack's whole situation from here: range, cover, shooting into
//! melee, Point-Blank Shot) times its mean damage on the target after its
//! defenses, plus a splash weapon's splash on the target's neighbours (a
//! friend's counting twice, against, as `policy::splash` weighs a flask).
//! A full attack from here counts its iterative attacks (one shot when the
//! weapon needs a reload); after a move, one attack. The squares a move may
//! end on are the free ones within one move from which the attack reaches
//! the target with line of effect, closer to it, that no foe threatens
//! (shooting there would provoke, and a table keeps its archer out of
//! reach).
//!
//! Simplifications: critical hits are left out; after a move, the cover
//! and the shooting-into-melee penalty are those of the shot from here
//! (the range penalty, a firearm's touch increment and Point-Blank Shot
//! are counted at the new square).

use super::super::action::{Action, ActionKind, Slot};
use super::super::odds::{Swing, hit_chance, iterations};
use super::super::state::BattleState;
use super::splash::{burn_damage, hit_damage, splash_endangers_sparing, splash_value_sparing};
use crate::effects::{Context, Flags, Targets};
use crate::grid::Access;
use crate::map::Pos;

/// Expected damage on `t` of one attack with `w` by `actor` standing on
/// `from` (its own square or where a move ends), and of `n` iterative
/// attacks when `n > 1` (at −5 each after the first).
fn shot_value(b: &BattleState<'_>, actor: usize, w: usize, t: usize, from: Pos, n: i32) -> f64 {
    shot_value_sparing(b, actor, w, t, from, n, None)
}

/// `shot_value`, the splash leaving out `spared` (the thrower stepping out of it).
fn shot_value_sparing(
    b: &BattleState<'_>,
    actor: usize,
    w: usize,
    t: usize,
    from: Pos,
    n: i32,
    spared: Option<usize>,
) -> f64 {
    let p = &b.prep.fighters[actor].offense.attacks[w];
    let s = b.situation(actor, w, t, Swing::default());
    let here = b.distance(actor, t);
    let there = b.distance_from(actor, from, t);
    let per_increment = if b.prep.fighters[actor].feats.far_shot { 1 } else { 2 };
    let penalty = per_increment * ((there.max(1) - 1) / p.increment.max(1)) as i32;
    let mut attack = s.attack + s.range_penalty - penalty;
    let mut bonus = 0.0;
    // Point-Blank Shot and anything else that counts only within 30 ft.
    if (here <= 30) != (there <= 30) {
        let (a, d) = near_gain(b, actor, w, t);
        let sign = if there <= 30 { 1 } else { -1 };
        attack += sign * a;
        bonus = f64::from(sign * d);
    }
    let touch = p.vs_touch || (p.firearm && there <= p.increment);
    let ac =
        if touch == s.touch { s.ac } else { b.armor_class(actor, t, false, touch, s.denied, false, s.cover) };
    let per_hit = (hit_damage(b, actor, w, p, t) + bonus).max(0.0) + burn_damage(b, p, t);
    let splash = splash_value_sparing(b, actor, w, t, spared);
    (0..n.max(1)).map(|k| hit_chance(attack - 5 * k, ac) * (per_hit + splash)).sum()
}

/// What `actor`'s ranged attack `w` on `t` gains within 30 ft (Point-Blank
/// Shot: +1 on the attack and damage rolls): on the attack roll, on damage.
fn near_gain(b: &BattleState<'_>, actor: usize, w: usize, t: usize) -> (i32, i32) {
    let ctx = |within_30ft| Context {
        ranged: true,
        within_30ft,
        weapon: Some(w),
        other_type: b.prep.fighters[t].nature.creature_type,
        other_alignment: b.prep.fighters[t].nature.alignment,
        ..Context::default()
    };
    let (near, far) = (ctx(true), ctx(false));
    let gain = |targets| b.modifier(actor, targets, &near) - b.modifier(actor, targets, &far);
    (gain(Targets::RANGED_ATTACK), gain(Targets::RANGED_DAMAGE))
}

/// How many attacks a full attack with `w` makes from here: one for a
/// weapon reloaded by an action or thrown as a standard action, else its
/// count times its iterative attacks.
pub(super) fn full_attacks(b: &BattleState<'_>, actor: usize, w: usize) -> i32 {
    let spec = &b.prep.fighters[actor];
    let p = &spec.offense.attacks[w];
    if p.reload.is_some() || !p.iterates {
        return p.count.max(1) as i32;
    }
    p.count.max(1) as i32 * iterations(spec.offense.bab)
}

/// Whether `w` of `actor` is a ranged attack the ladder may choose: in
/// hand and usable, not a flask to draw (`policy::splash`'s), not an
/// off-hand weapon.
fn candidate(b: &BattleState<'_>, actor: usize, w: usize) -> bool {
    let p = &b.prep.fighters[actor].offense.attacks[w];
    !p.melee && !p.drawn && !p.off_hand && b.is_usable(actor, w)
}

/// Plans `actor`'s shot at `t` when the ladder would shoot from here (the
/// first attack reaching `t` is a ranged one, no foe threatens `actor`)
/// and another choice is worth more: another ranged attack from here (a
/// full attack with it), or a move to a square closer to `t` that no foe
/// threatens and one attack. When nothing reaches `t` from here and
/// `actor` is a shooter (the first attack of its file is ranged), the move
/// ends on the best such square. Whether it planned the turn.
pub(super) fn plan(b: &BattleState<'_>, actor: usize, t: usize, out: &mut Vec<Action>) -> bool {
    let here = b.pos(actor);
    let attacks = &b.prep.fighters[actor].offense.attacks;
    let flags = b.flags(actor);
    if attacks.is_empty()
        || b.is_threatened(actor)
        || flags.has(Flags::MUST_FLEE)
        || b.fighters[actor].gear.dropped != 0
        || b.is_prone(actor)
    {
        return false;
    }
    let first = match b.weapon_for(actor, t, here) {
        Ok(w) if attacks[w].melee => return false,
        Ok(w) => w,
        // Out of range of everything, a shooter (its file's first attack
        // is a ranged one) walks to the square it shoots best from rather
        // than to the first from which its first attack reaches.
        Err(_) if !attacks[0].melee && !flags.has(Flags::CANT_MOVE) => {
            let Some((_, w, q)) = best_square(b, actor, t) else { return false };
            out.push(Action::at(ActionKind::Move, t).with_destination(q));
            out.push(Action::at(ActionKind::Attack, t).with_weapon(w));
            return true;
        }
        Err(_) => return false,
    };
    let dist = b.distance(actor, t);
    let mut best: Option<(f64, usize)> = None;
    let mut far = false;
    for w in (0..attacks.len()).filter(|&w| candidate(b, actor, w)) {
        if !b.weapon_reaches(actor, w, t, here) {
            continue;
        }
        let p = &attacks[w];
        far |= dist > p.increment || (dist > 30 && near_gain(b, actor, w, t) != (0, 0));
        let v = shot_value(b, actor, w, t, here, full_attacks(b, actor, w));
        if best.is_none_or(|(bv, _)| v > bv) {
            best = Some((v, w));
        }
    }
    let Some((stay, w_stay)) = best else { return false };
    // A move and one attack, when a square within one move is worth more.
    let moved = if far && !flags.has(Flags::CANT_MOVE) { best_square(b, actor, t) } else { None };
    if let Some((v, w, q)) = moved
        && v > stay
    {
        out.push(Action::at(ActionKind::Move, t).with_destination(q));
        out.push(Action::at(ActionKind::Attack, t).with_weapon(w));
        return true;
    }
    if w_stay == first {
        return false;
    }
    out.push(Action::at(ActionKind::FullAttack, t).with_weapon(w_stay));
    true
}

/// Plans a 5-foot step out of every foe's reach, then a full attack on `t`
/// with the best ranged attack from there, when the attack ladder would
/// shoot (or throw a bomb) from a square a foe threatens
/// (`docs/strategy.md`, "Step back, then shoot"): shooting there provokes
/// an attack of opportunity from each foe that threatens it, and a bomb
/// at a foe beside its thrower splashes the thrower. The step provokes
/// nothing (CRB "5-Foot Step") and leaves the full attack. The square: a
/// free one the step may take (not into a harmful area of its own side)
/// that no foe threatens, from which a ranged attack reaches `t` with
/// line of effect and whose splash endangers no ally; the best full
/// attack from it (the thrower left out of its own splash), then the
/// farther from the nearest foe, then neighbour order. Whether it planned
/// the turn.
pub(super) fn plan_step_out(b: &BattleState<'_>, actor: usize, t: usize, out: &mut Vec<Action>) -> bool {
    // Only swift and free declarations before it (a deed, rage, smite).
    if out.iter().any(|a| !matches!(a.slot(), Slot::Swift | Slot::Free)) {
        return false;
    }
    let Some((w, q)) = step_out(b, actor, t) else { return false };
    out.push(Action::at(ActionKind::FiveFootStep, t).with_destination(q));
    out.push(Action::at(ActionKind::FullAttack, t).with_weapon(w));
    true
}

/// The ranged attack and the square of [`plan_step_out`], if any.
pub(super) fn step_out(b: &BattleState<'_>, actor: usize, t: usize) -> Option<(usize, Pos)> {
    let attacks = &b.prep.fighters[actor].offense.attacks;
    let flags = b.flags(actor);
    let here = b.pos(actor);
    // Cheap tests first: most creatures have no ranged attack.
    if !attacks.iter().any(|p| !p.melee)
        || !b.is_threatened(actor)
        || flags.has(Flags::MUST_FLEE)
        || flags.has(Flags::CANT_MOVE)
        || b.fighters[actor].gear.dropped != 0
        || b.is_prone(actor)
        || !matches!(b.weapon_for(actor, t, here), Ok(w) if !attacks[w].melee)
    {
        return None;
    }
    let foes = foes_of(b, actor);
    let nearest = |q: Pos| foes.iter().map(|&e| b.distance_from(actor, q, e)).min().unwrap_or(u32::MAX);
    let mut best: Option<((f64, u32), usize, Pos)> = None;
    for q in safe_steps(b, actor, &foes) {
        for w in (0..attacks.len()).filter(|&w| candidate(b, actor, w)) {
            if !b.weapon_reaches(actor, w, t, q) || splash_endangers_sparing(b, actor, w, t, Some(actor)) {
                continue;
            }
            let v = shot_value_sparing(b, actor, w, t, q, full_attacks(b, actor, w), Some(actor));
            let key = (v, nearest(q));
            if v > 0.0 && best.as_ref().is_none_or(|(k, _, _)| key.0 > k.0 || (key.0 == k.0 && key.1 > k.1)) {
                best = Some((key, w, q));
            }
        }
    }
    best.map(|(_, w, q)| (w, q))
}

/// The active foes of `actor`.
fn foes_of(b: &BattleState<'_>, actor: usize) -> Vec<usize> {
    (0..b.len()).filter(|&e| b.are_enemies(actor, e) && b.is_active(e)).collect()
}

/// The squares a 5-foot step of `actor` may take that none of `foes`
/// threatens (and not into a harmful area of its own side, nor out of the
/// globe that keeps the foes' spells out of it: `globe::keeps_globe`), in
/// neighbour order.
fn safe_steps<'a>(b: &'a BattleState<'_>, actor: usize, foes: &'a [usize]) -> impl Iterator<Item = Pos> + 'a {
    let here = b.pos(actor);
    let shunned = b.shunned_zones(actor);
    crate::grid::NEIGHBOURS.iter().map(move |&(dr, dc)| Pos::new(here.row + dr, here.col + dc)).filter(
        move |&q| {
            b.can_step(actor, q)
                && !b.in_shunned(&shunned, q, b.space(actor))
                && !threatened_at(b, actor, q, foes)
                && super::globe::keeps_globe(b, actor, q)
        },
    )
}

/// A 5-foot step out of every foe's reach before `actor` casts a spell
/// (`docs/strategy.md`, "Step back, then shoot"): casting where a foe
/// threatens it asks a concentration check to cast defensively, or
/// provokes; after the step it casts as usual. The first square in
/// neighbour order, among those the step may take and no foe threatens,
/// that `keeps` accepts (the spell still reaches from there); none when
/// `actor` is not threatened or cannot step.
pub(super) fn step_before_casting(
    b: &BattleState<'_>,
    actor: usize,
    keeps: impl Fn(Pos) -> bool,
) -> Option<Pos> {
    let flags = b.flags(actor);
    if !b.is_threatened(actor)
        || flags.has(Flags::CANT_MOVE)
        || flags.has(Flags::MUST_FLEE)
        || b.is_prone(actor)
    {
        return None;
    }
    let foes = foes_of(b, actor);
    safe_steps(b, actor, &foes).find(|&q| keeps(q))
}

/// The best square within one move of `actor` to shoot `t` from, with the
/// attack and its worth: free, closer to `t`, reached by a ranged
/// candidate with line of effect, threatened by no foe. Ties: the farther
/// from the nearest foe, then the cheaper move.
fn best_square(b: &BattleState<'_>, actor: usize, t: usize) -> Option<(f64, usize, Pos)> {
    let map = b.map();
    let budget = b.move_budget(actor);
    let start = b.pos(actor);
    let dist = b.distance(actor, t);
    let mut pf = b.prepared().pathfinder.clone();
    pf.run(map, start, Some(budget), &|p| b.access(actor, p));
    let attacks = &b.prep.fighters[actor].offense.attacks;
    let foes: Vec<usize> = (0..b.len()).filter(|&e| b.are_enemies(actor, e) && b.is_active(e)).collect();
    let nearest = |q: Pos| foes.iter().map(|&e| b.distance_from(actor, q, e)).min().unwrap_or(u32::MAX);
    let mut best: Option<(SquareKey, usize, Pos)> = None;
    for row in 0..map.height {
        for col in 0..map.width {
            let q = Pos::new(row, col);
            let Some(cost) = pf.cost(q) else { continue };
            if q == start
                || cost > budget
                || b.access(actor, q) != Access::Open
                || b.distance_from(actor, q, t) >= dist
                || threatened_at(b, actor, q, &foes)
            {
                continue;
            }
            for w in (0..attacks.len()).filter(|&w| candidate(b, actor, w)) {
                if !b.weapon_reaches(actor, w, t, q) {
                    continue;
                }
                let v = shot_value(b, actor, w, t, q, 1);
                let key = (v, nearest(q), std::cmp::Reverse(cost));
                let better = best
                    .as_ref()
                    .is_none_or(|(k, _, _)| key.0 > k.0 || (key.0 == k.0 && (key.1, key.2) > (k.1, k.2)));
                if better {
                    best = Some((key, w, q));
                }
            }
        }
    }
    best.map(|((v, _, _), w, q)| (v, w, q))
}

/// How a square to shoot from ranks: the shot's worth, the distance to the
/// nearest foe, the move's cost (cheaper first).
type SquareKey = (f64, u32, std::cmp::Reverse<u32>);

/// Whether a foe in `foes` threatens square `q` for `actor`.
fn threatened_at(b: &BattleState<'_>, actor: usize, q: Pos, foes: &[usize]) -> bool {
    let (s, alt) = (b.space(actor), b.fighters[actor].mobility.alt);
    foes.iter().any(|&e| b.threat_weapon_on(e, q, s, alt).is_some())
}
