//! Line of effect and cover by the corner rule.

use crate::map::{Map, Pos};

/// Whether `from` has line of effect to `to`: some line from a corner of the
/// attacker's square to a corner of the target's square crosses no square that
/// blocks line of effect.
pub fn has_line_of_effect(_map: &Map, _from: Pos, _to: Pos) -> bool {
    todo!()
}

/// Terrain cover bonus (0, 2, 4 or 8) the target at `to` gets against an attack
/// from `from`. `adjacent_melee` selects the melee rule (any blocked line gives
/// cover); otherwise the attacker chooses its best corner (ranged rule).
pub fn terrain_cover(_map: &Map, _from: Pos, _to: Pos, _adjacent_melee: bool) -> u8 {
    todo!()
}

/// Whether a creature standing on one of `occupied` squares lies between `from`
/// and `to` (soft cover, +4 against ranged attacks).
pub fn soft_cover(_map: &Map, _from: Pos, _to: Pos, _occupied: &dyn Fn(Pos) -> bool) -> bool {
    todo!()
}
