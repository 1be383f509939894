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

use super::super::action::{Action, ActionKind};
use super::super::state::BattleState;
use super::monster;
use crate::effects::Flags;

/// Whether `actor` can use flight this turn: it flies and may move.
fn can_fly(battle: &BattleState<'_>, actor: usize) -> bool {
    battle.fly_speed(actor) > 0 && !battle.flags(actor).has(Flags::CANT_MOVE)
}

/// A usable ranged attack of `actor`, if it has one.
fn ranged_attack(battle: &BattleState<'_>, actor: usize) -> Option<usize> {
    let attacks = &battle.prep.fighters[actor].attacks;
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
    if battle.breath_ready(actor).is_some_and(|b| safe <= b.range_ft) {
        let mut breath = Vec::new();
        if monster::plan_breath(battle, actor, &mut breath) {
            if here < safe {
                out.push(climb(Action::new(ActionKind::Move).with_destination(battle.pos(actor))));
            }
            out.extend(breath);
            return true;
        }
        // Nobody in the line yet: close in from above.
        out.push(climb(Action::at(ActionKind::Move, t)));
        out.push(Action::at(ActionKind::Attack, t));
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
