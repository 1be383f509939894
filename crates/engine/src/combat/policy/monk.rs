//! A monk in the default policy (docs/rules/class-abilities.md §15): the
//! flurry is declared by `policy::martial` when it raises the expected hits
//! of the full attack; then, before the attack on the target, a ki point
//! buys one more flurry attack while points are left, and Stunning Fist is
//! declared against a foe worth stunning: one that can be stunned, is not
//! already stunned or helpless, has more hit points than a blow takes, and
//! fails its Fortitude save at least a quarter of the time.

use crate::effects::ConditionId;

use super::super::action::{Action, ActionKind};
use super::super::state::BattleState;
use super::super::style::Style;

/// The least chance of a failed save for which a Stunning Fist is spent.
const STUN_WORTH: f64 = 0.25;

/// Inserts the ki point and the Stunning Fist before the attack on `t` that `out` plans.
pub(super) fn declare(battle: &BattleState<'_>, actor: usize, t: usize, out: &mut Vec<Action>) {
    let Some(k) = out.iter().position(|a| {
        matches!(a.kind, ActionKind::FullAttack | ActionKind::Attack | ActionKind::Charge)
            && a.target == Some(t)
    }) else {
        return;
    };
    let flurry = out[..k].iter().any(|a| *a == Action::declare(Style::Flurry));
    let mut k = k;
    if flurry
        && out[k].kind == ActionKind::FullAttack
        && battle.monk(actor).is_some_and(|m| m.ki)
        && battle.fighters[actor].class.pools.ki_pool > 0
    {
        out.insert(k, Action::new(ActionKind::KiPool));
        k += 1;
    }
    if worth_stunning(battle, actor, t) {
        out.insert(k, Action::at(ActionKind::StunningFist, t));
    }
}

/// Whether `actor` should spend a Stunning Fist on `t`.
fn worth_stunning(battle: &BattleState<'_>, actor: usize, t: usize) -> bool {
    if !battle.can_stunning_fist(actor) || battle.stun_immune(t) || battle.is_helpless(t) {
        return false;
    }
    if battle.fighters[t].conds.has(ConditionId::Stunned) {
        return false;
    }
    let attacks = &battle.prep.fighters[actor].offense.attacks;
    let Some(blow) = attacks.iter().find(|a| a.name.to_ascii_lowercase().contains("unarmed strike")) else {
        return false;
    };
    f64::from(battle.hp(t)) > blow.mean_damage && battle.stun_chance(actor, t) >= STUN_WORTH
}
