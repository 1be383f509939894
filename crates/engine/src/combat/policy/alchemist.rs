//! An alchemist's mutagen in the default policy: as a table does, it drinks
//! its dose at the start of a fight, in its first or second round, before
//! it throws or swings, when it has a dose and no mutagen working (one
//! drunk in an earlier battle of the day lasts 10 minutes a level), a foe
//! able to fight is on the map, and no foe threatens it (drinking provokes).
//! Drinking is the turn's standard action; its move action is left unused
//! (a bomber keeps its distance).

use crate::effects::Flags;

use super::super::action::{Action, ActionKind};
use super::super::state::{BattleState, LifeState};

/// The last round in which the policy drinks a mutagen.
pub(super) const MUTAGEN_BY_ROUND: u32 = 2;

/// Plans `i`'s mutagen; `true` when the turn is planned.
pub(super) fn plan_mutagen(b: &BattleState<'_>, i: usize, out: &mut Vec<Action>) -> bool {
    if b.mutagen_ready(i).is_none()
        || b.mutated(i)
        || b.round() > MUTAGEN_BY_ROUND
        || b.life(i) != LifeState::Fighting
        || b.flags(i).has(Flags::MUST_FLEE)
        || b.is_threatened(i)
        || !(0..b.len()).any(|j| b.are_enemies(i, j) && b.is_active(j))
    {
        return false;
    }
    out.push(Action::new(ActionKind::Mutagen));
    true
}
