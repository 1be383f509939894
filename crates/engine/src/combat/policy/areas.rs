//! Lasting areas in the default policy (`docs/strategy.md`, "Lasting
//! areas"): a creature that starts its turn inside a lasting area that
//! harms or holds it (Cloudkill, Stinking Cloud, Black Tentacles; not
//! Cloudkill for an undead: `BattleState::hindering_zones_on`), whoever
//! cast it, first gets out: a move action along the cheapest route to a square outside every
//! such area (on a tie, the one nearest its nearest foe), then what is
//! left of the turn it planned, played from there. Not when it cannot move
//! (held, paralysed, grappled), when leaving asks for a check or bonds of
//! the area hold it (Web, Grease, Entangle's plants: `zone_keeps`), nor when
//! it rides (its mount moves). When no square outside is within one move
//! but one is within two, and it may take two move actions (not nauseated
//! nor staggered), it spends its turn on both: a table runs out of a cloud
//! that may kill it rather than drink or cast in it.
//!
//! A melee combatant (no ranged attack it can use) whose foe could be
//! struck only from squares inside an area its side shuns (a foe held deep
//! in the party's web) fights the nearest foe that is not, and when every
//! foe is walled off so, readies an attack for when one comes within its
//! reach (`docs/strategy.md`, "At the edge of the web").

use crate::effects::Flags;
use crate::grid::{Access, Pathfinder};
use crate::map::Pos;

use super::super::action::{Action, ActionKind, ReadyTrigger, Slot};
use super::super::state::BattleState;
use super::cast_from::cast_holds_from;

/// How `i` gets out of the harmful lasting areas it stands in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum WayOut {
    /// A move action (or a 5-foot step) to this square, outside.
    Move(Pos),
    /// The whole turn: a move to the first square, then one to the second,
    /// outside.
    TwoMoves(Pos, Pos),
}

/// How `i` gets out of the harmful lasting areas it stands in, if it
/// should and can (see the module).
pub(super) fn way_out(b: &BattleState<'_>, i: usize) -> Option<WayOut> {
    if b.zones.is_empty() || !b.is_active(i) || b.is_swallowed(i) || b.riding(i).is_some() {
        return None;
    }
    let inside = b.hindering_zones_on(i);
    if inside.is_empty() || inside.iter().any(|&k| b.zone_keeps(k, i)) || b.flags(i).has(Flags::CANT_MOVE) {
        return None;
    }
    let budget = b.move_budget(i);
    if budget == 0 {
        return None;
    }
    let start = b.pos(i);
    let foe = b.nearest_enemy(i);
    let mut pf = b.prepared().pathfinder.clone();
    // The search a move to an explicit square makes (`Engine::route`).
    pf.run_as(b.map(), start, None, &|p| b.access(i, p), b.move_mode(i));
    let near = |q: Pos| foe.map_or(0, |t| b.distance_from(i, q, t));
    let nearest = |limit: u32| {
        outside_squares(b, i, &pf, start, limit).min_by_key(|&(feet, q)| (feet, near(q), q)).map(|(_, q)| q)
    };
    if let Some(q) = nearest(budget) {
        return Some(WayOut::Move(q));
    }
    if b.flags(i).has(Flags::SINGLE_MOVE) || b.flags(i).has(Flags::STAGGERED) {
        return None;
    }
    let q = nearest(budget.saturating_mul(2))?;
    let mut path = Vec::new();
    if !pf.path_to(q, &mut path) {
        return None;
    }
    // The first move ends on the farthest square of the path it pays for
    // where `i` may stand; the second must pay for the rest.
    let s = b.space(i);
    let map = b.map();
    (0..path.len().saturating_sub(1))
        .rev()
        .find(|&k| {
            let p = path[k];
            b.access(i, p) == Access::Open
                && crate::grid::footprint(p, s).all(|c| map.passable(c))
                && b.path_feet(i, start, &path[..=k]).is_some_and(|f| f <= budget)
                && b.path_feet(i, p, &path[k + 1..]).is_some_and(|f| f <= budget)
        })
        .map(|k| WayOut::TwoMoves(path[k], q))
}

/// Plans `i`'s turn to get out by `way` (`way_out`) in place of the turn
/// `out` it planned: `leave_first` for one move; for two, both moves and
/// the plan's swift and free actions, unless it was fleeing already.
pub(super) fn leave(b: &BattleState<'_>, i: usize, way: WayOut, out: &mut Vec<Action>) {
    match way {
        WayOut::Move(q) => leave_first(b, i, q, out),
        WayOut::TwoMoves(mid, q) => {
            if out.iter().any(flees) {
                return;
            }
            let planned = std::mem::take(out);
            out.push(Action::new(ActionKind::Move).with_destination(mid));
            out.push(Action::new(ActionKind::Move).with_destination(q));
            out.extend(planned.into_iter().filter(|a| {
                matches!(b.data_slot(i, a).unwrap_or(a.slot()), Slot::Swift | Slot::Free)
                    && (a.kind != ActionKind::CastSpell || cast_holds_from(b, i, a, q))
            }));
        }
    }
}

/// Whether `a` takes its creature away already (a withdrawal, a run, a
/// retreat off the map): that is its way out.
fn flees(a: &Action) -> bool {
    matches!(a.kind, ActionKind::Withdraw | ActionKind::LeaveBattle | ActionKind::Run)
}

/// The squares outside every harmful lasting area where `i` may end a move
/// from `start` along the paths of the last run of `pf` whose feet (counted
/// as a move counts them, a zone's difficult terrain included) are within
/// `budget`, with those feet; only paths that stay out of every such area
/// after leaving the one `i` stands in.
fn outside_squares<'a>(
    b: &'a BattleState<'_>,
    i: usize,
    pf: &'a Pathfinder,
    start: Pos,
    budget: u32,
) -> impl Iterator<Item = (u32, Pos)> + 'a {
    let map = b.map();
    let s = b.space(i);
    let mut path = Vec::new();
    (0..map.height).flat_map(move |row| (0..map.width).map(move |col| Pos::new(row, col))).filter_map(
        move |q| {
            let cost = pf.cost(q)?;
            if cost > budget
                || b.access(i, q) != Access::Open
                || !crate::grid::footprint(q, s).all(|c| map.passable(c))
                || b.in_hindering(q, s)
                || !pf.path_to(q, &mut path)
            {
                return None;
            }
            // Once out, the path stays out.
            let out = path.iter().position(|&p| !b.in_hindering(p, s))?;
            if path[out..].iter().any(|&p| b.in_hindering(p, s)) {
                return None;
            }
            let feet = b.path_feet(i, start, &path)?;
            (feet <= budget).then_some((feet, q))
        },
    )
}

/// Rewrites the turn `out` the policy planned for `i` where it stands so
/// that it first gets out to `q` (`way_out`), then does from there what is
/// left of it. A plan that does not move, with `q` a 5-foot step away:
/// the step, then the plan, an attack whose target no weapon reaches from
/// `q` giving way to `after_leaving`'s. Otherwise a move action to `q`
/// (after standing up, for a prone creature, which has nothing left then);
/// a full attack becomes one attack and an attack stays, when a weapon
/// reaches its target from `q`; other standard actions (a spell) stay, and
/// so do swift and free ones, a spell only when it still does its work
/// cast from `q` (`cast_holds_from`); moves, steps and charges go. A full-round
/// action (a potion, drawn and drunk) waits for the next turn, and so does
/// the creature; else, with the standard action unused, `after_leaving`. A creature fleeing or
/// leaving the battle keeps its turn: that is its way out.
fn leave_first(b: &BattleState<'_>, i: usize, q: Pos, out: &mut Vec<Action>) {
    if out.iter().any(flees) {
        return;
    }
    let planned = std::mem::take(out);
    let target =
        planned.iter().filter_map(|a| a.target).find(|&t| b.are_enemies(i, t)).or_else(|| b.nearest_enemy(i));
    let moving = |a: &Action| {
        matches!(
            a.kind,
            ActionKind::FiveFootStep
                | ActionKind::Move
                | ActionKind::Charge
                | ActionKind::StandUp
                | ActionKind::RetrieveWeapon
                | ActionKind::RepairWeapon
                | ActionKind::Trample
        )
    };
    let reaches = |a: &Action| {
        a.target.is_some_and(|t| match a.weapon {
            Some(w) => b.weapon_reaches(i, w, t, q),
            None => b.weapon_for(i, t, q).is_ok(),
        })
    };
    let strikes = |a: &Action| matches!(a.kind, ActionKind::Attack | ActionKind::FullAttack);
    // A spell aimed from where it stands that no longer does its work from
    // `q` (out of range, a cone turned from the old square) is dropped.
    let casts_from_q = |a: &Action| a.kind != ActionKind::CastSpell || cast_holds_from(b, i, a, q);
    if !planned.iter().any(moving) && b.can_step(i, q) {
        out.push(Action::new(ActionKind::FiveFootStep).with_destination(q));
        let lost = planned.iter().any(|a| (strikes(a) && !reaches(a)) || !casts_from_q(a));
        out.extend(planned.into_iter().filter(|a| (!strikes(a) || reaches(a)) && casts_from_q(a)));
        if lost && !out.iter().any(strikes) && !out.iter().any(|a| a.kind == ActionKind::CastSpell) {
            after_leaving(b, i, q, target, false, out);
        }
        return;
    }
    let prone = planned.first().is_some_and(|a| a.kind == ActionKind::StandUp);
    if prone {
        out.push(Action::new(ActionKind::StandUp));
    }
    out.push(Action::new(ActionKind::Move).with_destination(q));
    // Standing up and the move out take the move and the standard action.
    let mut standard = prone;
    // A full-round action of its own (a potion drawn and drunk) waits for
    // the next turn, and so does the creature.
    let mut waits = false;
    for mut a in planned.into_iter().skip(usize::from(prone)) {
        if moving(&a) || !casts_from_q(&a) {
            continue;
        }
        if strikes(&a) {
            if !standard && reaches(&a) {
                a.kind = ActionKind::Attack;
                standard = true;
                out.push(a);
            }
            continue;
        }
        match b.data_slot(i, &a).unwrap_or(a.slot()) {
            Slot::Swift | Slot::Free => out.push(a),
            Slot::Standard | Slot::Move if !standard => {
                standard = true;
                out.push(a);
            }
            Slot::FullRound => waits = true,
            _ => {}
        }
    }
    if !standard && !waits {
        after_leaving(b, i, q, target, true, out);
    }
}

/// The attack left to `i` once it is out on `q`: on `t` when a weapon
/// reaches it from `q`, else on the foe nearest `q` one reaches (a splash
/// weapon only where its splash endangers no ally); else, when `may_move`
/// (it got out by a move action), a second move toward `t`, to the square
/// nearest it within one move whose route stays out of every harmful area,
/// if that is nearer than `q`.
fn after_leaving(
    b: &BattleState<'_>,
    i: usize,
    q: Pos,
    t: Option<usize>,
    may_move: bool,
    out: &mut Vec<Action>,
) {
    let strikes =
        |e: usize| b.weapon_for(i, e, q).is_ok_and(|w| !super::splash::splash_endangers(b, i, w, e));
    let foe = t.filter(|&t| b.is_active(t) && strikes(t)).or_else(|| {
        (0..b.len())
            .filter(|&e| b.are_enemies(i, e) && b.is_active(e) && !b.is_swallowed(e) && strikes(e))
            .min_by_key(|&e| (b.distance_from(i, q, e), e))
    });
    if let Some(e) = foe {
        // After a 5-foot step the full attack is still there.
        let kind = if may_move { ActionKind::Attack } else { ActionKind::FullAttack };
        out.push(Action::at(kind, e));
        return;
    }
    let Some(t) = t.filter(|&t| may_move && b.is_active(t)) else { return };
    let budget = b.move_budget(i);
    let mut pf = b.prepared().pathfinder.clone();
    // Out on `q`, the second move does not walk back in: the harmful areas
    // are walls to its routes (so the mover's own route, which goes around
    // such areas when it can, finds one within the move).
    let s = b.space(i);
    let around = |p: Pos| if b.in_hindering(p, s) { Access::Blocked } else { b.access(i, p) };
    pf.run_as(b.map(), q, None, &around, b.move_mode(i));
    let best = outside_squares(b, i, &pf, q, budget)
        .filter(|&(_, p)| p != q)
        .min_by_key(|&(feet, p)| (b.distance_from(i, p, t), feet, p));
    if let Some((_, p)) = best.filter(|&(_, p)| b.distance_from(i, p, t) < b.distance_from(i, q, t)) {
        out.push(Action::at(ActionKind::Move, t).with_destination(p));
    }
}

/// Whether `i` fights in melee only: no ranged attack it can use.
fn melee_only(b: &BattleState<'_>, i: usize) -> bool {
    let attacks = &b.prep.fighters[i].offense.attacks;
    !attacks.is_empty() && (0..attacks.len()).all(|w| attacks[w].melee || !b.is_usable(i, w))
}

/// Whether melee combatant `i` could strike `t` only from squares inside an
/// area its side shuns (`BattleState::shunned_zones`) or beyond one: a foe
/// held deep in its own side's web, every square within `i`'s reach of it
/// webbed too or walled in by the web.
/// A table does not walk its fighter into the web to get at it.
fn walled_off(b: &BattleState<'_>, i: usize, t: usize) -> bool {
    if b.zones.is_empty() || b.weapon_for(i, t, b.pos(i)).is_ok() {
        return false;
    }
    let shunned = b.shunned_zones(i);
    if shunned.is_empty() {
        return false;
    }
    let attacks = &b.prep.fighters[i].offense.attacks;
    let reach = (0..attacks.len()).filter(|&w| attacks[w].melee).map(|w| b.reach(i, w).1).max().unwrap_or(5);
    let n = (reach / 5) as i32 + b.space(t);
    let (tp, s, map) = (b.pos(t), b.space(i), b.map());
    // The squares it can walk to without setting foot in a shunned area
    // (the search a move makes, `Engine::route`).
    let mut pf = b.prepared().pathfinder.clone();
    let access = |p: Pos| if b.in_shunned(&shunned, p, s) { Access::Blocked } else { b.access(i, p) };
    pf.run_as(map, b.pos(i), None, &access, b.move_mode(i));
    for dr in -n..=n {
        for dc in -n..=n {
            let q = Pos::new(tp.row + dr, tp.col + dc);
            if !map.in_bounds(q) || b.access(i, q) != Access::Open || b.weapon_for(i, t, q).is_err() {
                continue;
            }
            if pf.cost(q).is_some() {
                return false;
            }
        }
    }
    true
}

/// The foe melee combatant `i` fights: `t`, unless `t` is walled off by an
/// area its side shuns ([`walled_off`]); then the nearest active foe that
/// is not (`t` when every foe is).
pub(super) fn reachable_foe(b: &BattleState<'_>, i: usize, t: usize) -> usize {
    if b.zones.is_empty() || !melee_only(b, i) || !walled_off(b, i, t) {
        return t;
    }
    (0..b.len())
        .filter(|&e| b.are_enemies(i, e) && b.is_active(e) && !walled_off(b, i, e))
        .min_by_key(|&e| (b.distance(i, e), e))
        .unwrap_or(t)
}

/// A melee combatant whose foe is walled off by an area its side shuns (and
/// so is every other foe, [`reachable_foe`]) walks up to the area's edge
/// (a move toward the foe, which stops there) when a free square nearer the
/// foe is next to it, and readies an attack for when one comes within its
/// reach, as a table's fighter waits at the edge of the party's web for the
/// foe to break free; whether it planned the turn.
pub(super) fn plan_wait(b: &BattleState<'_>, i: usize, t: usize, out: &mut Vec<Action>) -> bool {
    if b.zones.is_empty() || !melee_only(b, i) || !walled_off(b, i, t) {
        return false;
    }
    let shunned = b.shunned_zones(i);
    let (here, s, dist) = (b.pos(i), b.space(i), b.distance(i, t));
    let nearer = crate::grid::NEIGHBOURS.iter().any(|&(dr, dc)| {
        let q = Pos::new(here.row + dr, here.col + dc);
        b.map().in_bounds(q)
            && b.access(i, q) == Access::Open
            && b.distance_from(i, q, t) < dist
            && !b.in_shunned(&shunned, q, s)
    });
    if nearer && !b.flags(i).has(Flags::CANT_MOVE) {
        out.push(Action::at(ActionKind::Move, t));
    }
    out.push(Action::at(ActionKind::Ready, t).with_trigger(ReadyTrigger::EnemyEntersReach));
    true
}
