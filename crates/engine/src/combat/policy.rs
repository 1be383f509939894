//! Policies decide what a combatant does on its turn; the default policy.

use super::action::{Action, ActionKind};
use super::state::{BattleState, LifeState};

/// Chooses the actions of a combatant's turn.
///
/// The engine calls `plan` at the start of each turn of a combatant able to
/// act, with `out` empty; the requested actions are then checked against the
/// action budget and played in order. What became of each one is readable
/// next turn through `BattleState::last_results`.
pub trait Policy {
    /// Appends the actions `actor` wants to take this turn to `out`.
    fn plan(&mut self, battle: &BattleState<'_>, actor: usize, out: &mut Vec<Action>);
}

impl<F: FnMut(&BattleState<'_>, usize, &mut Vec<Action>)> Policy for F {
    fn plan(&mut self, battle: &BattleState<'_>, actor: usize, out: &mut Vec<Action>) {
        self(battle, actor, out)
    }
}

/// The default tactics: close in on the nearest enemy and hit it.
///
/// Target: the nearest enemy able to fight (5-10-5 distance, ties by
/// encounter order). Then the first that applies: a full attack when a weapon
/// reaches it from here; a charge when a clear straight line exists; a
/// 5-foot step and a full attack when one step suffices; otherwise a move
/// toward the closest square from which to attack, and an attack. A disabled
/// combatant does not charge (it cannot take full-round actions).
#[derive(Clone, Copy, Debug, Default)]
pub struct DefaultPolicy;

impl Policy for DefaultPolicy {
    fn plan(&mut self, battle: &BattleState<'_>, actor: usize, out: &mut Vec<Action>) {
        let Some(t) = battle.nearest_enemy(actor) else { return };
        if battle.weapon_for(actor, t, battle.pos(actor)).is_ok() {
            out.push(Action::at(ActionKind::FullAttack, t));
        } else if battle.life(actor) != LifeState::Disabled && battle.charge_end(actor, t).is_ok() {
            out.push(Action::at(ActionKind::Charge, t));
        } else if let Some(q) = battle.step_to_attack(actor, t) {
            out.push(Action::at(ActionKind::FiveFootStep, t).with_destination(q));
            out.push(Action::at(ActionKind::FullAttack, t));
        } else {
            out.push(Action::at(ActionKind::Move, t));
            out.push(Action::at(ActionKind::Attack, t));
        }
    }
}

/// One policy per side: the turn of a combatant of side `s` is planned by `self.0[s]`.
pub struct SidePolicies<'a>(pub Vec<&'a mut dyn Policy>);

impl Policy for SidePolicies<'_> {
    fn plan(&mut self, battle: &BattleState<'_>, actor: usize, out: &mut Vec<Action>) {
        if let Some(policy) = self.0.get_mut(battle.side(actor)) {
            policy.plan(battle, actor, out);
        }
    }
}
