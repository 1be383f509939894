//! Decisions of fliers (`combat::flight`).
//!
//! - A flier that can hover without risking a plummet
//!   ([`BattleState::hovers_safely`]: Fly +10 or better, Hover, magic
//!   flight) and has a ranged option this turn (a breath weapon ready, a
//!   usable ranged attack) fights from above: it climbs to the lowest
//!   altitude no enemy's melee reach covers ([`BattleState::out_of_reach_altitude`])
//!   and breathes or shoots from there (a breath by the rule of
//!   `policy::monster`, judged where it is before climbing: from the
//!   ground next to a foe only when it catches two); with its breath ready but nobody in
//!   its line yet it flies toward its target at that altitude (and attacks
//!   if a weapon reaches from there). A breath is only used from above when
//!   that altitude lies within the breath's length.
//! - A breather whose breath recharges waits it out at that altitude, out
//!   of every melee reach, instead of diving in to trade blows (measured in
//!   `docs/bestiary.md`: a dragon that dives between two breaths, or only
//!   once below half or three quarters of its hit points, loses more often).
//! - A flier aloft with nothing but melee this turn dives in: its move goes
//!   down to the ground first (a dragon between two breaths).
//!
//! A flier on the ground with melee only stays there, as before.
//!
//! Below a flier: a combatant that cannot fly, with no usable ranged
//! attack, whose foe hovers higher above it than any of its melee reaches
//! ([`hovers_beyond`]) turns to the nearest foe it can reach; when every
//! foe hovers so, it readies an attack for the moment one comes within
//! reach (CRB "Ready") instead of walking and swinging at the air.

use super::super::action::{Action, ActionKind, ReadyTrigger};
use super::super::state::BattleState;
use super::monster;
use crate::effects::Flags;
use crate::grid::MoveMode;

/// Whether `actor` can use flight this turn: it flies and may move.
fn can_fly(battle: &BattleState<'_>, actor: usize) -> bool {
    battle.fly_speed(actor) > 0 && !battle.flags(actor).has(Flags::CANT_MOVE)
}

/// A usable ranged attack of `actor`, if it has one.
fn ranged_attack(battle: &BattleState<'_>, actor: usize) -> Option<usize> {
    let attacks = &battle.prep.fighters[actor].offense.attacks;
    (0..attacks.len())
        .find(|&w| !attacks[w].melee && attacks[w].max_range_ft > 0 && battle.is_usable(actor, w))
}

/// Plans a turn from above for a flier with a ranged option; whether it did.
pub(super) fn plan_from_above(
    battle: &BattleState<'_>,
    actor: usize,
    t: usize,
    out: &mut Vec<Action>,
) -> bool {
    if !can_fly(battle, actor) || !battle.hovers_safely(actor) {
        return false;
    }
    let safe = battle.out_of_reach_altitude(actor);
    let here = battle.altitude(actor);
    let climb = |a: Action| if here < safe { a.with_altitude(safe) } else { a };
    // Staggered (disabled at 0 hit points): one move or one breath, not both.
    let one_action = battle.turn_limits(actor).staggered;
    if battle.breath_ready(actor).is_some_and(|b| safe <= b.range_ft) {
        // It breathes from here, unless a move lines up more enemies.
        let mut breath = Vec::new();
        let from_here = monster::plan_breath(battle, actor, &mut breath).unwrap_or(0);
        let budget = battle.move_budget(actor).saturating_sub(battle.climb_feet(actor, safe));
        let mode = if safe > 0 { MoveMode::Fly } else { MoveMode::Ground };
        let flight = |q| monster::straight_move(battle, actor, mode, q, budget);
        if !one_action
            && let Some((q, aim)) = monster::breath_position(battle, actor, safe, flight, from_here)
        {
            out.push(climb(Action::new(ActionKind::Move).with_destination(q)));
            out.push(Action::at(ActionKind::BreathWeapon, aim));
            return true;
        }
        if from_here > 0 {
            if here < safe && !one_action {
                out.push(climb(Action::new(ActionKind::Move).with_destination(battle.pos(actor))));
            }
            out.extend(breath);
            return true;
        }
        // …or, nobody within a move and a breath, closes in from above.
        out.push(climb(Action::at(ActionKind::Move, t)));
        if !one_action {
            out.push(climb(Action::at(ActionKind::Move, t)));
        }
        return true;
    }
    // Its breath recharging: it waits above the party's reach for the
    // breath to come back instead of trading blows (strafing).
    if battle.has_breath(actor) {
        if here < safe {
            out.push(climb(Action::new(ActionKind::Move).with_destination(battle.pos(actor))));
        }
        return true;
    }
    if ranged_attack(battle, actor).is_some() && here < safe {
        out.push(climb(Action::at(ActionKind::Move, t)));
        out.push(Action::at(ActionKind::Attack, t));
        return true;
    }
    false
}

/// After the attack ladder: a flier aloft with only melee this turn dives
/// in (its first move goes down to the ground first).
pub(super) fn dive(battle: &BattleState<'_>, actor: usize, out: &mut [Action]) {
    if battle.altitude(actor) == 0
        || battle.breath_ready(actor).is_some()
        || battle.has_breath(actor)
        || ranged_attack(battle, actor).is_some()
    {
        return;
    }
    if let Some(m) = out.iter_mut().find(|a| a.kind == ActionKind::Move && a.altitude.is_none()) {
        m.altitude = Some(0);
    }
}

/// Whether `t` hovers higher above `actor` than every melee reach of its
/// attacks: no move on the ground brings it within reach.
fn hovers_beyond(battle: &BattleState<'_>, actor: usize, t: usize) -> bool {
    let rise = battle.altitude(t).saturating_sub(battle.altitude(actor));
    rise > 0 && battle.prep.fighters[actor].offense.attacks.iter().all(|p| !p.melee || p.reach_max < rise)
}

/// Whether `actor` fights only from the ground with melee: it cannot fly
/// and has no usable ranged attack.
fn grounded_melee(battle: &BattleState<'_>, actor: usize) -> bool {
    !can_fly(battle, actor) && ranged_attack(battle, actor).is_none()
}

/// The foe a grounded melee combatant fights: `t`, unless `t` hovers
/// beyond its reach; then the nearest active foe that does not.
pub(super) fn reachable_target(battle: &BattleState<'_>, actor: usize, t: usize) -> usize {
    if !grounded_melee(battle, actor) || !hovers_beyond(battle, actor, t) {
        return t;
    }
    (0..battle.len())
        .filter(|&e| battle.are_enemies(actor, e) && battle.is_active(e) && !hovers_beyond(battle, actor, e))
        .min_by_key(|&e| (battle.distance(actor, e), e))
        .unwrap_or(t)
}

/// A grounded melee combatant whose foe `t` hovers beyond its reach (and
/// so does every other foe, [`reachable_target`]) readies an attack for
/// when one comes within reach; whether it planned the turn.
pub(super) fn plan_below(battle: &BattleState<'_>, actor: usize, t: usize, out: &mut Vec<Action>) -> bool {
    if battle.prep.fighters[actor].offense.attacks.is_empty()
        || !grounded_melee(battle, actor)
        || !hovers_beyond(battle, actor, t)
    {
        return false;
    }
    out.push(Action::at(ActionKind::Ready, t).with_trigger(ReadyTrigger::EnemyEntersReach));
    true
}

/// A flier with melee only that cannot hover safely (a celestial eagle, Fly
/// +8), whose foe `t` hovers beyond its reach, flies up to `t`'s altitude as
/// its move and attacks, instead of attacking the air from the ground; a
/// move that leaves it short of its foe ends with a Fly check as any slow
/// flight (`combat::flight`). Whether it planned the turn.
pub(super) fn plan_climb(battle: &BattleState<'_>, actor: usize, t: usize, out: &mut Vec<Action>) -> bool {
    if !can_fly(battle, actor)
        || battle.hovers_safely(actor)
        || ranged_attack(battle, actor).is_some()
        || !hovers_beyond(battle, actor, t)
    {
        return false;
    }
    out.push(Action::at(ActionKind::Move, t).with_altitude(battle.altitude(t)));
    out.push(Action::at(ActionKind::Attack, t));
    true
}
