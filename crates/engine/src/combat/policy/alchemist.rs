//! An alchemist's mutagen in the default policy: as a table does, it drinks
//! its dose at the start of a fight, in its first or second round, before
//! it throws or swings, when it has a dose and no mutagen working (one
//! drunk in an earlier battle of the day lasts 10 minutes a level), a foe
//! able to fight is on the map, and no foe threatens it (drinking provokes).
//! Drinking is the turn's standard action; its move action is left unused
//! (a bomber keeps its distance).
//!
//! Its extracts (APG "Alchemy"), drunk like potions (a standard action
//! that provokes) and affecting only the alchemist, in the same spirit:
//! under half its hit points it drinks the healing extract that covers the
//! most of what it misses (`heal::self_cure`), from a square no foe
//! threatens, after a 5-foot step when one leads there; a buff extract
//! (`magic::best_buff`, restricted to the drinker) when its weapons reach
//! no foe, or in the first two rounds under a strategy that opens with
//! buffs (as a caster's buffs), never in a threatened square. Neither
//! needs concentration: an extract is not cast.

use crate::effects::Flags;
use crate::grid::NEIGHBOURS;
use crate::map::Pos;

use super::super::action::{Action, ActionKind};
use super::super::state::{BattleState, LifeState};
use super::magic::{Magic, best_buff, weapon_value};

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

/// The last round in which a strategy that opens with buffs drinks a buff
/// extract while its weapons reach a foe (as a caster casts its buffs).
pub(super) const EXTRACTS_BY_ROUND: u32 = 2;

/// Whether `i` may drink an extract now: an alchemist fighting, able to
/// drink, with a foe on the map, under levers that let it use spells.
fn may_drink(b: &BattleState<'_>, i: usize, m: Magic) -> bool {
    b.drinks_extracts(i)
        && m.spells != crate::strategy::SpellPolicy::None
        && b.can_cast_now(i)
        && b.life(i) == LifeState::Fighting
        && !b.flags(i).has(Flags::MUST_FLEE)
        && (0..b.len()).any(|j| b.are_enemies(i, j) && b.is_active(j))
}

/// A square next to `i` it can 5-foot step to that no foe threatens.
fn safe_step(b: &BattleState<'_>, i: usize) -> Option<Pos> {
    let here = b.pos(i);
    NEIGHBOURS
        .iter()
        .map(|&(dr, dc)| Pos::new(here.row + dr, here.col + dc))
        .find(|&q| b.can_step(i, q) && !b.threatened_at(i, q))
}

/// Plans a healing extract for `i` under half its hit points; `true` when
/// the turn is planned. Threatened, it steps out first (5 feet) or waits.
pub(super) fn plan_extract_heal(b: &BattleState<'_>, i: usize, m: Magic, out: &mut Vec<Action>) -> bool {
    if !may_drink(b, i, m) {
        return false;
    }
    let Some(spell) = super::heal::self_cure(b, i) else { return false };
    if b.is_threatened(i) {
        let Some(q) = safe_step(b, i) else { return false };
        out.push(Action::new(ActionKind::FiveFootStep).with_destination(q));
    }
    out.push(Action::cast(spell, Some(i)));
    true
}

/// Plans a buff extract for `i` against its target `t`, as a caster's buff
/// (`magic::plan_spells`): when its weapons are of no use against `t` from
/// where it stands (out of range or sight, or futile), or in the first
/// [`EXTRACTS_BY_ROUND`] rounds under a strategy that opens with buffs; never
/// when a foe threatens it. A round spent drinking is a bomb not thrown: in
/// a short fight the bomb is worth more. `true` when planned.
pub(super) fn plan_extract_buff(
    b: &BattleState<'_>,
    i: usize,
    t: usize,
    m: Magic,
    out: &mut Vec<Action>,
) -> bool {
    if !may_drink(b, i, m) || b.is_threatened(i) {
        return false;
    }
    let opening = m.open_with_buffs && b.round() <= EXTRACTS_BY_ROUND;
    if !opening && !super::futile::all_futile(b, i) && weapon_value(b, i, t) > 0.0 {
        return false;
    }
    let Some(o) = best_buff(b, i, m) else { return false };
    out.push(Action::cast(o.cast.spell, Some(i)));
    true
}
