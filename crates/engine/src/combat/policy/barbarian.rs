//! A barbarian's rage in the default policy: it flies into a rage (a free
//! action) at the start of the first turn a foe stands within its reach,
//! one move and its reach, or a charge, and keeps it while foes stand (the
//! engine spends a round each turn until none are left).

use super::super::action::{Action, ActionKind};
use super::super::state::BattleState;

/// Plans `i`'s rage: pushes it when worth starting now.
pub(super) fn plan(b: &BattleState<'_>, i: usize, out: &mut Vec<Action>) {
    if !b.can_rage(i) {
        return;
    }
    let reach =
        b.prep.fighters[i].offense.attacks.iter().map(|a| a.reach_max.max(a.max_range_ft)).max().unwrap_or(5);
    let near = b.move_budget(i) + reach;
    let foe_near = (0..b.len()).any(|e| {
        b.are_enemies(i, e) && b.is_active(e) && (b.distance(i, e) <= near || b.charge_end(i, e).is_ok())
    });
    if foe_near {
        out.push(Action::new(ActionKind::Rage));
    }
}
