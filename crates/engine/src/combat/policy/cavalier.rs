//! How the default policy plays a cavalier (`abilities::cavalier`):
//!
//! - on a turn it cannot attack at all (no reach, no charge lane, no 5-foot
//!   step, the target farther than one move and its reach), it spends its
//!   standard action rallying and moves once (unless the foe is helpless):
//!   **tactician** first, when an ally within 30 ft whose main attack is a
//!   melee one lacks its teamwork feat; else
//!   **lion's call**, when at least two allies within 60 ft have no
//!   competence bonus on attack rolls yet;
//! - it **challenges** the foe it fights (swift action, before the attack)
//!   when it will strike it in melee this turn, has no challenge in force,
//!   and the foe is worth it: more hit points left than two of its hits
//!   with the challenge's damage (not a foe about to fall).

use crate::effects::{BonusType, Flags, ModTarget};

use super::super::abilities::AbilitySpec;
use super::super::action::{Action, ActionKind};
use super::super::state::BattleState;

/// Plans `i`'s cavalier abilities against target `t`; `true` when the turn is planned.
pub(super) fn plan(b: &BattleState<'_>, i: usize, t: usize, a: &AbilitySpec, out: &mut Vec<Action>) -> bool {
    let f = &b.fighters[i];
    if rally_turn(b, i, t) {
        let spec = &b.prep.fighters[i];
        // An ally who fights in melee: its first (main) attack is a melee one.
        let melee = |j: usize| b.prep.fighters[j].offense.attacks.first().is_some_and(|w| w.melee);
        if a.tactician_rounds > 0
            && spec.feats.outflank
            && f.class.pools.tactician > 0
            && b.tactician_allies(i).into_iter().any(melee)
        {
            out.push(Action::new(ActionKind::Tactician));
            out.push(Action::at(ActionKind::Move, t));
            return true;
        }
        if a.lions_call.is_some()
            && b.lions_call_allies(i).into_iter().filter(|&j| !competence_on_attacks(b, j)).count() >= 2
        {
            out.push(Action::new(ActionKind::LionsCall));
            out.push(Action::at(ActionKind::Move, t));
            return true;
        }
    }
    if let Some(c) = a.challenge
        && f.class.pools.challenge > 0
        && f.class.challenged.is_none()
        && !f.turn.swift_used
        && super::melee_this_turn(b, i, t, true)
        && worth_challenging(b, i, t, c.damage)
    {
        out.push(Action::at(ActionKind::Challenge, t));
    }
    false
}

/// Whether `i` cannot attack `t` at all this turn and may move: no weapon
/// reaches it, no charge, no 5-foot step, and it stands farther than one
/// move and its longest reach.
fn rally_turn(b: &BattleState<'_>, i: usize, t: usize) -> bool {
    // A helpless foe is better reached (a coup de grâce) than rallied against.
    if b.flags(i).has(Flags::CANT_MOVE) || b.is_helpless(t) || b.weapon_for(i, t, b.pos(i)).is_ok() {
        return false;
    }
    if super::melee_this_turn(b, i, t, true) || b.step_to_attack(i, t).is_some() {
        return false;
    }
    let reach =
        b.prep.fighters[i].offense.attacks.iter().map(|a| a.reach_max.max(a.max_range_ft)).max().unwrap_or(0);
    b.distance(i, t) > b.move_budget(i) + reach
}

/// Whether `t` has more hit points left than two hits of `i`'s melee weapon
/// with `extra` damage.
fn worth_challenging(b: &BattleState<'_>, i: usize, t: usize, extra: i32) -> bool {
    let hit = b.prep.fighters[i].best_melee_mean_damage();
    f64::from(b.hp(t)) > 2.0 * (hit + f64::from(extra))
}

/// Whether an effect on `j` already gives it a competence bonus on attack rolls.
fn competence_on_attacks(b: &BattleState<'_>, j: usize) -> bool {
    b.fighters[j].effects.iter().any(|e| {
        e.effect.mods.iter().any(|m| m.target == ModTarget::Attack && m.bonus_type == BonusType::Competence)
    })
}
