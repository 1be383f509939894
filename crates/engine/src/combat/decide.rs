//! The decision traits: what the engine asks of a policy (`Policy`: the
//! actions of a turn; `Reactions`: an immediate action in answer to an
//! event). The rules call them; the policies (`combat::policy`) implement
//! them. Data floor: no rule or decision module.

use super::action::Action;
use super::state::BattleState;

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

/// An event a reaction policy may answer with an immediate action.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ReactionEvent {
    /// `attacker` made an attack roll against `target`.
    AttackResolved {
        /// Who attacked.
        attacker: usize,
        /// Who was attacked.
        target: usize,
    },
    /// `mover` took one step of movement.
    MovementStep {
        /// Who moved.
        mover: usize,
    },
    /// `victim` lost hit points to an attack by `by`.
    DamageTaken {
        /// Who was hurt.
        victim: usize,
        /// Who hurt it.
        by: usize,
    },
}

/// Chooses immediate actions out of turn; the default is none.
///
/// Asked, for every event, about each combatant able to take an immediate
/// action now (encounter order); an answer of kind `immediate` is played
/// (one per combatant per event, without cascade), any other is ignored.
pub trait Reactions {
    /// The immediate action `who` takes in answer to `event`, if any.
    fn react(&mut self, battle: &BattleState<'_>, who: usize, event: ReactionEvent) -> Option<Action>;
}
