//! What a combatant does when none of its weapons can hurt the foe in
//! front of it (a nonmagical blade against an incorporeal wraith, UMR
//! "Incorporeal") and no other foe can be hurt: a table does not swing for
//! nothing, it helps (`docs/strategy.md`, "No swing for nothing").
//!
//! From where it stands, reaching that foe in melee: Aid Another (CRB:
//! an attack roll against AC 10 that gives +2) on the attack of an ally
//! who threatens the foe and can hurt it; else +2 AC to an ally the foe
//! threatens; else total defense when the foe threatens it. Out of reach,
//! it walks up (one move, no charge nor swing) to help once there.

use crate::effects::{ConditionId, Flags};

use super::super::action::{Action, ActionKind, AidMode};
use super::super::state::BattleState;

/// Whether some usable weapon of `a` can hurt `t`.
fn harms(b: &BattleState<'_>, a: usize, t: usize) -> bool {
    (0..b.prep.fighters[a].offense.attacks.len()).any(|w| b.is_usable(a, w) && b.weapon_harms(a, w, t))
}

/// Plans the turn of `actor` that cannot hurt `t`; whether it did.
pub(super) fn plan(b: &BattleState<'_>, actor: usize, t: usize, out: &mut Vec<Action>) -> bool {
    let f = &b.fighters[actor];
    // Fleeing and standing up come first (`plan_turn`).
    if f.summary.flags.has(Flags::MUST_FLEE) || f.conds.has(ConditionId::Prone) {
        return false;
    }
    if b.prep.fighters[actor].offense.attacks.is_empty() || harms(b, actor, t) {
        return false;
    }
    if !b.threatens(actor, t) {
        // Walk up to help next turn; no charge, no swing.
        if b.flags(actor).has(Flags::CANT_MOVE) {
            return false;
        }
        out.push(Action::at(ActionKind::Move, t));
        return true;
    }
    let allies = || (0..b.len()).filter(|&a| a != actor && !b.are_enemies(actor, a) && b.is_active(a));
    let striker =
        allies().filter(|&a| b.threatens(a, t) && harms(b, a, t)).min_by_key(|&a| (b.distance(actor, a), a));
    if let Some(a) = striker {
        out.push(Action::at(ActionKind::AidAnother, a));
        return true;
    }
    let guarded = allies().filter(|&a| b.threatens(t, a)).min_by_key(|&a| (b.hp(a), a));
    if let Some(a) = guarded {
        let mut aid = Action::at(ActionKind::AidAnother, a);
        aid.aid = AidMode::Ac;
        out.push(aid);
        return true;
    }
    if b.threatens(t, actor) {
        out.push(Action::new(ActionKind::TotalDefense));
        return true;
    }
    false
}
