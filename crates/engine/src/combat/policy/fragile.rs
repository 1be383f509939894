//! Fragile creatures stay out of reach (`docs/strategy.md`, "Familiars
//! keep out of the fight"): a combatant whose best attack deals on average
//! less than 2 hit points (a raven familiar's bite, 1d3−4) and that has no
//! ranged attack does nothing useful next to a foe and dies there. A table
//! keeps it out of the fight: while an ally still fights, it withdraws from
//! any foe that threatens it or could reach it by its next turn, and
//! otherwise keeps its square on total defense. Spells and abilities come
//! first (`policy::magic` plans before this).

use super::super::action::{Action, ActionKind};
use super::super::state::BattleState;
use crate::effects::Flags;

/// Mean damage a round under which an attack is of no use in a fight.
const USELESS_DAMAGE: f64 = 2.0;

/// Whether `i` is fragile: it has attacks, none of them ranged, and none
/// whose mean damage reaches `USELESS_DAMAGE` (a creature without attacks
/// is a test dummy or a caster, left to the other rules).
pub(super) fn is_fragile(b: &BattleState<'_>, i: usize) -> bool {
    let attacks = &b.prep.fighters[i].offense.attacks;
    !attacks.is_empty()
        && attacks.iter().all(|a| a.melee && a.mean_damage * f64::from(a.count.max(1)) < USELESS_DAMAGE)
}

/// Plans a fragile `actor`'s turn: a withdrawal when a foe threatens it or
/// could reach it by its next turn (a double move and its reach), else
/// total defense where it stands. Not when no ally able to fight is left
/// (it then fights as it can). Whether it planned the turn.
pub(super) fn plan(b: &BattleState<'_>, actor: usize, out: &mut Vec<Action>) -> bool {
    if !is_fragile(b, actor)
        || !(0..b.len())
            .any(|j| j != actor && !b.are_enemies(actor, j) && b.is_active(j) && !is_fragile(b, j))
    {
        return false;
    }
    let danger = (0..b.len()).any(|e| {
        b.are_enemies(actor, e)
            && b.is_active(e)
            && b.longest_reach(e).is_some_and(|r| b.distance(e, actor) <= 2 * b.move_budget(e) + r)
    });
    let flags = b.flags(actor);
    if (danger || b.is_threatened(actor)) && !flags.has(Flags::CANT_MOVE) {
        out.push(Action::new(ActionKind::Withdraw));
    } else {
        out.push(Action::new(ActionKind::TotalDefense));
    }
    true
}
