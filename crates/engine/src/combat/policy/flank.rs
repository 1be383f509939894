//! Flanking as a table plays it (CRB "Flanking": +2 on melee attack rolls
//! against a foe an ally threatens from the opposite border of its space;
//! APG "Outflank": +4 when both flankers have the feat).
//!
//! - A melee combatant that will close in on its foe with a move (not a
//!   pouncer, whose charge brings every attack) ends that move, when it
//!   pays, on a square from which it flanks the foe with an ally who
//!   threatens it, instead of the plain approach or a charge (the same +2
//!   without the charge's −2 AC, and the ally gains it too). The move walks
//!   a route that leaves no square a foe threatens when one exists within
//!   the move (`Engine::unprovoking_route`); else its attacks of
//!   opportunity (one per foe) are weighed, at their hit chance and mean
//!   damage, against what the flank is worth over about three blows: 5 %
//!   more hits a point of bonus for the mover and each partner, and the
//!   mover's sneak attack, which the flank switches on. The square of most
//!   worth is taken, then the cheaper move; none when nothing pays.
//! - One already within reach of its foe, not flanking it, takes a 5-foot
//!   step to such a square when one still reaches the foe, then makes its
//!   full attack: the step costs nothing and gives +2 to every blow (and
//!   its partner's), and to a rogue its sneak attack.
//!
//! A one-square creature on foot only: a rider keeps its mounted charge, and
//! a large creature's ring is not searched (*simplification*).

use crate::grid::{Access, MoveMode};
use crate::map::Pos;

use super::super::state::BattleState;

/// The allies of `i` who threaten `t` (the partners a flank needs); none
/// when `i` cannot flank on foot.
fn partners(b: &BattleState<'_>, i: usize, t: usize) -> Vec<usize> {
    let m = &b.fighters[i].mobility;
    if b.space(i) != 1 || m.riding.is_some() || m.ridden_by.is_some() {
        return Vec::new();
    }
    (0..b.len()).filter(|&k| k != i && k != t && !b.are_enemies(i, k) && b.threatens(k, t)).collect()
}

/// Where `i` moves to strike `t` in melee flanking it (see the module
/// comment): `None` when no square within one move flanks it without a
/// provoking route.
pub(super) fn flank_square(b: &BattleState<'_>, i: usize, t: usize) -> Option<Pos> {
    let partners = partners(b, i, t);
    if partners.is_empty() {
        return None;
    }
    let (at, s) = (b.pos(t), b.space(t));
    let map = b.map();
    let budget = b.move_budget(i);
    let start = b.pos(i);
    let attacks = &b.prep.fighters[i].offense.attacks;
    let melee_reach = (0..attacks.len()).filter(|&w| attacks[w].melee).map(|w| b.reach(i, w).1).max()?;
    // A straight 5-10-5 bound first: no path is searched when the foe is out of reach.
    if crate::grid::footprint_distance_ft(start, 1, at, s) > budget + melee_reach {
        return None;
    }
    let alt = b.fighters[i].mobility.alt;
    // Only a foe whose reach meets the squares this move can cross can threaten one.
    let foes: Vec<usize> = (0..b.len())
        .filter(|&e| b.are_enemies(i, e) && b.is_active(e))
        .filter(|&e| {
            let reach = (0..b.prep.fighters[e].offense.attacks.len()).map(|w| b.reach(e, w).1).max();
            reach.is_some_and(|r| b.distance(i, e) <= budget + r)
        })
        .collect();
    let threat = |e: usize, p: Pos| b.threat_weapon_on(e, p, 1, alt);
    let threatened = |p: Pos| foes.iter().any(|&e| threat(e, p).is_some());
    let reach = melee_reach as i32 / 5;
    let mut candidates: Vec<(i32, Pos)> = Vec::new();
    for row in (at.row - reach)..=(at.row + s - 1 + reach) {
        for col in (at.col - reach)..=(at.col + s - 1 + reach) {
            let q = Pos::new(row, col);
            if q == start
                || !map.in_bounds(q)
                || b.access(i, q) != Access::Open
                || crate::grid::distance_ft(start, q) > budget
                || b.melee_weapon_from(i, t, q).is_none()
            {
                continue;
            }
            let bonus = b.flank_bonus_at(i, t, q);
            if bonus > 0 {
                candidates.push((bonus, q));
            }
        }
    }
    if candidates.is_empty() {
        return None;
    }
    let (per_point, sneak) = flank_worth(b, i, t, &partners);
    // Its own side's harmful areas, and its foes' that would harm it, are
    // kept out of (`shunned_zones`).
    let shunned = b.shunned_zones(i);
    let open = |p: Pos| if b.in_shunned(&shunned, p, 1) { Access::Blocked } else { b.access(i, p) };
    candidates.retain(|&(_, q)| !b.in_shunned(&shunned, q, 1));
    // The route the move walks: one that leaves no threatened square (the
    // start aside) when there is one (`Engine::unprovoking_route`), else
    // the cheapest, whose attacks of opportunity are weighed. The stored
    // creature-free path answers when nothing stands on it (`combat::paths`:
    // it is then the path a search finds); else one search serves every
    // square: a threatened square may end a route, not be crossed.
    let stored = if b.move_mode(i) == MoveMode::Ground { b.prep.paths.for_space(1) } else { None };
    let from = map.index(start);
    let mut safe: Option<crate::grid::Pathfinder> = None;
    let mut plain: Option<crate::grid::Pathfinder> = None;
    let mut path = Vec::new();
    // (worth, then the cheaper move), the square.
    let mut best: Option<((f64, std::cmp::Reverse<u32>), Pos)> = None;
    for (bonus, q) in candidates {
        // The stored path when it is free: its cost, and whether it leaves a threatened square.
        let direct = stored.and_then(|paths| {
            let to = map.index(q);
            let cost = paths.cost(from, to).filter(|&c| c <= budget)?;
            let mut threatening = false;
            for p in paths.path(from, to) {
                if open(p) == Access::Blocked {
                    return None;
                }
                threatening |= p != q && threatened(p);
            }
            Some((cost, threatening))
        });
        if let Some((cost, false)) = direct {
            consider(&mut best, bonus, q, cost, 0.0, per_point, sneak);
            continue;
        }
        let safe = safe.get_or_insert_with(|| {
            let mut pf = b.prepared().pathfinder.clone();
            let access = |p: Pos| match open(p) {
                Access::Open if threatened(p) => Access::EndOnly,
                Access::PassOnly if threatened(p) => Access::Blocked,
                a => a,
            };
            pf.run_as(map, start, Some(budget), &access, b.move_mode(i));
            pf
        });
        if let Some(cost) = safe.cost(q).filter(|&c| c <= budget) {
            consider(&mut best, bonus, q, cost, 0.0, per_point, sneak);
            continue;
        }
        let cost = match direct {
            Some((cost, _)) => {
                path.clear();
                path.extend(stored.into_iter().flat_map(|paths| paths.path(from, map.index(q))));
                cost
            }
            None => {
                // The plain search does not depend on the square: run once.
                let plain = plain.get_or_insert_with(|| {
                    let mut pf = b.prepared().pathfinder.clone();
                    pf.run_as(map, start, Some(budget), &open, b.move_mode(i));
                    pf
                });
                let Some(cost) = plain.cost(q).filter(|&c| c <= budget) else { continue };
                if !plain.path_to(q, &mut path) {
                    continue;
                }
                cost
            }
        };
        // Each foe gets one attack however many of its squares are left.
        let left = &path[..path.len().saturating_sub(1)];
        let risk: f64 = foes
            .iter()
            .filter_map(|&e| left.iter().find_map(|&p| threat(e, p)).map(|w| (e, w)))
            .map(|(e, w)| {
                let sit = b.situation(e, w, i, super::super::odds::Swing::default());
                super::super::odds::hit_chance(sit.attack, sit.ac)
                    * b.prep.fighters[e].offense.attacks[w].mean_damage
            })
            .sum();
        consider(&mut best, bonus, q, cost, risk, per_point, sneak);
    }
    best.map(|(_, q)| q)
}

/// Keeps square `q` in `best` when its flank, worth `bonus` points at
/// `per_point` each plus `sneak`, less `risk`, pays and beats the best so
/// far (then the cheaper move).
fn consider(
    best: &mut Option<((f64, std::cmp::Reverse<u32>), Pos)>,
    bonus: i32,
    q: Pos,
    cost: u32,
    risk: f64,
    per_point: f64,
    sneak: f64,
) {
    let worth = f64::from(bonus) * per_point + sneak - risk;
    if worth <= 0.0 {
        return;
    }
    let key = (worth, std::cmp::Reverse(cost));
    if best.is_none_or(|(k, _)| key > k) {
        *best = Some((key, q));
    }
}

/// Blows a flank is counted for: this turn's and about two rounds more.
const FLANKED_BLOWS: f64 = 3.0;

/// What a flank is worth to `i`'s side over [`FLANKED_BLOWS`] blows on
/// `t`, in hit points: (per point of flanking bonus: 5 % more hits for `i`
/// and each partner at their melee weapons' mean damage; `i`'s sneak attack,
/// which the flank switches on, on about half its blows).
fn flank_worth(b: &BattleState<'_>, i: usize, t: usize, partners: &[usize]) -> (f64, f64) {
    let hits: f64 = std::iter::once(i)
        .chain(partners.iter().copied())
        .map(|k| b.prep.fighters[k].best_melee_mean_damage())
        .sum();
    let sneak = if b.prep.fighters[t].defense.precision_immune {
        0.0
    } else {
        f64::from(b.prep.fighters[i].offense.sneak_dice) * 3.5 * 0.5
    };
    (FLANKED_BLOWS * 0.05 * hits, FLANKED_BLOWS * sneak)
}

/// A 5-foot step that lets `i`, within reach of `t` and not flanking it,
/// flank it and still strike it in melee (see the module comment).
pub(super) fn flank_step(b: &BattleState<'_>, i: usize, t: usize) -> Option<Pos> {
    if b.flank_bonus(i, t) > 0 || b.melee_weapon_from(i, t, b.pos(i)).is_none() {
        return None;
    }
    let partners = partners(b, i, t);
    if partners.is_empty() {
        return None;
    }
    let shunned = b.shunned_zones(i);
    let from = b.pos(i);
    crate::grid::NEIGHBOURS
        .iter()
        .map(|&(dr, dc)| Pos::new(from.row + dr, from.col + dc))
        .filter(|&q| {
            b.can_step(i, q) && !b.in_shunned(&shunned, q, 1) && b.melee_weapon_from(i, t, q).is_some()
        })
        .map(|q| (b.flank_bonus_at(i, t, q), q))
        .filter(|&(bonus, _)| bonus > 0)
        // The best bonus; on a tie the first in neighbour order.
        .fold(
            None,
            |best: Option<(i32, Pos)>, x| if best.is_none_or(|(v, _)| x.0 > v) { Some(x) } else { best },
        )
        .map(|(_, q)| q)
}
