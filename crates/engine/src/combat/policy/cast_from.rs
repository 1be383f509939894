//! Whether a cast the policy planned where its caster stands still does
//! what it was aimed to do once the caster has moved: what a 5-foot step
//! before casting (`magic::step_to_cast`) and a way out of a harmful area
//! (`areas::leave_first`) may keep.

use crate::grid::{distance_ft, footprint};
use crate::map::Pos;
use crate::spell::model::{Origin, Shape};

use super::super::action::Action;
use super::super::state::BattleState;

/// Whether `i`'s `cast`, planned where it stands, still does what it was
/// aimed to do cast from `q`: a spell on itself, from anywhere; a spell at
/// a creature (a touch on a friend included), within the spell's range of
/// it with line of effect; an area centred on a point (a burst, a spread,
/// a lasting area), within range of the point with line of effect and out
/// of the area; a point that is not an area's centre (an area a dispel
/// names, a teleport's arrival), within range with line of effect. A cone
/// or a line was turned from where the caster stands: not from elsewhere.
/// A cast without target or point (a summons, an area around the caster)
/// goes anywhere.
pub(super) fn cast_holds_from(b: &BattleState<'_>, i: usize, cast: &Action, q: Pos) -> bool {
    let Ok(c) = b.casting(i, cast) else { return false };
    let s = &b.prep.spells[usize::from(c.spell)].spell;
    let range = b.spell_range(i, s, c.cl).unwrap_or(u32::MAX);
    match (cast.target, cast.destination) {
        (Some(j), None) if j == i => true,
        (Some(j), None) => b.distance_from(i, q, j) <= range && b.line_of_effect_from(i, q, j),
        (None, Some(p)) => {
            if distance_ft(q, p) > range || !b.prep.line_of_effect(q, p) {
                return false;
            }
            match s.area.as_ref().filter(|_| s.target.is_none()) {
                None => true,
                Some(a) if a.origin == Origin::Point && !matches!(a.shape, Shape::Cone | Shape::Line) => b
                    .template(&c, a)
                    .is_some_and(|t| !footprint(q, b.space(i)).any(|x| t.squares.contains(&x))),
                Some(_) => false,
            }
        }
        _ => true,
    }
}
