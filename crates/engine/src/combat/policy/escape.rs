//! When a caster teleports out of a melee (Dimension Door), as a table
//! plays it: when the foes beside it would bring it down within two rounds
//! of their blows, or one holds it in a grapple, and a spot within the
//! spell's range lets it breathe.
//!
//! The spot is one no melee foe can reach and strike next round (its move
//! and its reach); among those, one with line of effect to a foe within
//! medium range (so its spells still reach next round), then the one
//! farthest from the nearest foe, then the first in reading order.

use crate::map::Pos;
use crate::spell::model::Range;

use super::super::state::BattleState;
use super::worth::threat_of;

/// Rounds of blows the caster accepts before it goes.
const ROUNDS_TO_FALL: f64 = 2.0;

/// The foes' mean damage on `i` a round from those threatening it now, and
/// whether one holds it in a grapple.
fn pressure(b: &BattleState<'_>, i: usize) -> (f64, bool) {
    let damage = (0..b.len())
        .filter(|&e| b.are_enemies(i, e) && b.is_active(e) && b.threatens(e, i))
        .map(|e| threat_of(b, e))
        .sum();
    let held = b.fighters[i].grappled_with.is_some_and(|g| b.is_active(g));
    (damage, held)
}

/// How far `e` strikes in melee: its longest melee reach.
fn melee_reach(b: &BattleState<'_>, e: usize) -> Option<u32> {
    let spec = &b.prep.fighters[e];
    spec.offense.attacks.iter().enumerate().filter(|(_, a)| a.melee).map(|(w, _)| b.reach(e, w).1).max()
}

/// The spot `i` would teleport to with `spell`, when it should: see the
/// module's doc. `None` when nothing presses it or no spot is safe.
pub(super) fn escape_to(b: &BattleState<'_>, i: usize, spell: u16, cl: u32) -> Option<Pos> {
    let (damage, held) = pressure(b, i);
    let hp = f64::from((b.hp(i) + b.fighters[i].temp_hp).max(1));
    if !held && (damage == 0.0 || damage * ROUNDS_TO_FALL < hp) {
        return None;
    }
    let s = &b.prep.spells[usize::from(spell)].spell;
    let range = s.range.feet_at(cl).unwrap_or(u32::MAX);
    let here = b.pos(i);
    let melee: Vec<(usize, u32)> = (0..b.len())
        .filter(|&e| b.are_enemies(i, e) && b.is_active(e))
        .filter_map(|e| melee_reach(b, e).map(|r| (e, b.move_budget(e) + r)))
        .collect();
    let foes: Vec<usize> = (0..b.len()).filter(|&e| b.are_enemies(i, e) && b.is_active(e)).collect();
    let sight = Range::Medium.feet_at(cl).unwrap_or(0);
    let shunned = b.shunned_zones(i);
    let map = b.map();
    let mut best: Option<(bool, u32, Pos)> = None;
    for row in 0..map.height {
        for col in 0..map.width {
            let q = Pos::new(row, col);
            if crate::grid::distance_ft(here, q) > range || !b.can_arrive(i, q) {
                continue;
            }
            if b.in_shunned(&shunned, q, b.space(i))
                || melee.iter().any(|&(e, far)| b.distance_from(i, q, e) <= far)
            {
                continue;
            }
            let sees =
                foes.iter().any(|&e| b.distance_from(i, q, e) <= sight && b.line_of_effect_from(i, q, e));
            let room = foes.iter().map(|&e| b.distance_from(i, q, e)).min().unwrap_or(u32::MAX);
            if best.is_none_or(|(s0, r0, _)| (sees, room) > (s0, r0)) {
                best = Some((sees, room, q));
            }
        }
    }
    best.map(|(_, _, q)| q)
}
