//! What a condition or a foe is worth to the policy: the weights the spell
//! planner and the domain powers share (one scale, so a touch and a spell
//! are compared on the same footing).

use crate::combat::state::BattleState;
use crate::effects::ConditionId;

/// How much a condition takes away from a creature's turns (1: all of it).
pub(super) fn severity(k: ConditionId) -> f64 {
    use ConditionId as C;
    match k {
        C::Paralyzed
        | C::Asleep
        | C::Unconscious
        | C::Helpless
        | C::Stunned
        | C::Dazed
        | C::Cowering
        | C::Fascinated => 2.0,
        C::Panicked | C::Confused | C::Nauseated => 1.5,
        C::Frightened | C::Blinded | C::Pinned | C::Grappled => 1.0,
        C::Staggered | C::Entangled | C::Exhausted => 0.6,
        C::Shaken | C::Sickened | C::Fatigued | C::Dazzled | C::Deafened | C::Bane => 0.3,
        _ => 0.2,
    }
}

/// The damage per round `j` threatens: its best attack's mean damage (at least 1).
pub(super) fn threat_of(b: &BattleState<'_>, j: usize) -> f64 {
    b.prep.fighters[j].offense.attacks.iter().map(|a| a.mean_damage * f64::from(a.count)).fold(1.0, f64::max)
}
