//! When a coup de grâce is worth a full-round action (CRB "Helpless
//! Defenders"): a table delivers one to a helpless foe it can reach (held,
//! paralyzed, asleep: a foe that will fight again) when no other foe
//! threatens it, since the blow provokes and gives up its attacks. Foes
//! already down (dying, unconscious) are not worth it: they are out of the
//! fight, and the policy spends its turn on those still in it.

use super::super::action::{Action, ActionKind};
use super::super::state::BattleState;

/// The helpless foe `actor` should finish with a coup de grâce this turn, if any.
pub(super) fn coup_de_grace_target(b: &BattleState<'_>, actor: usize) -> Option<usize> {
    // The cheap question first: most turns see no helpless foe at all.
    let target = (0..b.len())
        .find(|&t| b.is_active(t) && b.is_helpless(t) && b.coup_de_grace_weapon(actor, t).is_ok())?;
    let pressed = (0..b.len())
        .any(|e| b.are_enemies(e, actor) && b.is_active(e) && !b.is_helpless(e) && b.threatens(e, actor));
    (!pressed).then_some(target)
}

/// Appends the coup de grâce, when one is worth it; whether it did.
pub(super) fn plan(b: &BattleState<'_>, actor: usize, out: &mut Vec<Action>) -> bool {
    match coup_de_grace_target(b, actor) {
        Some(t) => {
            out.push(Action::at(ActionKind::CoupDeGrace, t));
            true
        }
        None => false,
    }
}
