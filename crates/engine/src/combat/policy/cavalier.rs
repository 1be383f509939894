//! How the default policy plays a cavalier (`abilities::cavalier`):
//!
//! - on a turn it cannot attack at all (no reach, no charge lane, no 5-foot
//!   step, the target farther than one move and its reach), it spends its
//!   standard action rallying and moves once (unless the foe is helpless):
//!   **tactician** first, when it pays (`outflank_pays`): an ally within
//!   30 ft whose main attack is a melee one lacks Outflank, and it and a
//!   partner with Outflank once lent (the cavalier, another ally who
//!   receives it, or one who has it) can stand on opposite sides of the
//!   same foe by their next turns; else
//!   **lion's call**, when at least two allies within 60 ft have no
//!   competence bonus on attack rolls yet and no ally is still under its
//!   last call (a table does not call again while the call runs: a
//!   summoned creature or the familiar arriving out of range is not worth
//!   a standard action);
//! - it **challenges** the foe it fights (swift action, before the attack)
//!   when it will strike it in melee this turn, has no challenge in force,
//!   and the foe is worth it: more hit points left than two of its hits
//!   with the challenge's damage (not a foe about to fall).

use crate::effects::{BonusType, Flags, ModTarget};
use crate::grid::{Access, Pathfinder, footprint_distance_ft};
use crate::map::Pos;

use super::super::abilities::AbilitySpec;
use super::super::action::{Action, ActionKind};
use super::super::odds::opposite_borders;
use super::super::state::BattleState;

/// Plans `i`'s cavalier abilities against target `t`; `true` when the turn is planned.
pub(super) fn plan(b: &BattleState<'_>, i: usize, t: usize, a: &AbilitySpec, out: &mut Vec<Action>) -> bool {
    let f = &b.fighters[i];
    if rally_turn(b, i, t) {
        let spec = &b.prep.fighters[i];
        // An ally who fights in melee: its first (main) attack is a melee one.
        let melee = |j: usize| b.prep.fighters[j].offense.attacks.first().is_some_and(|w| w.melee);
        if a.tactician_rounds > 0 && spec.feats.outflank && f.class.pools.tactician > 0 {
            let lent: Vec<usize> = b.tactician_allies(i).into_iter().filter(|&j| melee(j)).collect();
            if outflank_pays(b, i, &lent) {
                out.push(Action::new(ActionKind::Tactician));
                out.push(Action::at(ActionKind::Move, t));
                return true;
            }
        }
        if a.lions_call.is_some()
            && !b.lions_call_running(i)
            && b.lions_call_allies(i).into_iter().filter(|&j| !competence_on_attacks(b, j)).count() >= 2
        {
            out.push(Action::new(ActionKind::LionsCall));
            out.push(Action::at(ActionKind::Move, t));
            return true;
        }
    }
    if let Some(c) = a.challenge
        && f.class.pools.challenge > 0
        && f.class.challenged.is_none()
        && !f.turn.swift_used
        && (super::melee_this_turn(b, i, t, true) || melee_after_move(b, i, t))
        && worth_challenging(b, i, t, c.damage)
    {
        out.push(Action::at(ActionKind::Challenge, t));
    }
    false
}

/// Whether a move and a melee attack of `i` reach `t` this turn (the
/// ladder's move then attack: a challenge before the first blow).
fn melee_after_move(b: &BattleState<'_>, i: usize, t: usize) -> bool {
    let reach = b.prep.fighters[i].offense.attacks.iter().filter(|a| a.melee).map(|a| a.reach_max).max();
    !b.flags(i).has(Flags::CANT_MOVE) && reach.is_some_and(|r| b.distance(i, t) <= b.move_budget(i) + r)
}

/// Whether `i` cannot attack `t` at all this turn and may move: no weapon
/// reaches it, no charge, no 5-foot step, and it stands farther than one
/// move and its longest reach.
fn rally_turn(b: &BattleState<'_>, i: usize, t: usize) -> bool {
    // A helpless foe is better reached (a coup de grâce) than rallied against.
    if b.flags(i).has(Flags::CANT_MOVE) || b.is_helpless(t) || b.weapon_for(i, t, b.pos(i)).is_ok() {
        return false;
    }
    if super::melee_this_turn(b, i, t, true) || b.step_to_attack(i, t).is_some() {
        return false;
    }
    let reach =
        b.prep.fighters[i].offense.attacks.iter().map(|a| a.reach_max.max(a.max_range_ft)).max().unwrap_or(0);
    b.distance(i, t) > b.move_budget(i) + reach
}

/// Whether lending Outflank now pays (APG "Outflank": the +4 needs both
/// flankers to have the feat): some ally of `lent` (those who would receive
/// it) and a partner who has Outflank once it is lent (the cavalier `i`,
/// another of `lent`, or an ally who has it already, each with a melee main
/// attack) can flank the same foe by their next turns: two squares next to
/// the foe on opposite borders of its space (CRB "Flanking"), each free (or
/// its flanker's own) and each within one move of its flanker along a path
/// (allies passed, foes around). In a corridor one square wide, or with the
/// allies far from every foe, it does not pay: the standard action is better
/// spent closing in. *Simplification*: a flanker threatens the squares next
/// to it (a reach weapon's ring is not searched).
pub(super) fn outflank_pays(b: &BattleState<'_>, i: usize, lent: &[usize]) -> bool {
    if lent.is_empty() {
        return false;
    }
    let melee = |j: usize| b.prep.fighters[j].offense.attacks.first().is_some_and(|w| w.melee);
    // Every flanker: those who receive the feat, then the partners who have it.
    let mut flankers: Vec<usize> = lent.to_vec();
    flankers.extend((0..b.len()).filter(|&k| {
        !lent.contains(&k)
            && (k == i || (!b.are_enemies(i, k) && b.is_active(k) && b.has_outflank(k) && melee(k)))
    }));
    let foes: Vec<usize> =
        (0..b.len()).filter(|&e| b.are_enemies(i, e) && b.is_active(e) && !b.is_swallowed(e)).collect();
    // The squares next to each foe's space.
    let rings: Vec<Vec<Pos>> = foes
        .iter()
        .map(|&e| {
            let (at, s) = (b.pos(e), b.space(e));
            (at.row - 1..=at.row + s)
                .flat_map(|r| (at.col - 1..=at.col + s).map(move |c| Pos::new(r, c)))
                .filter(|q| q.row < at.row || q.row >= at.row + s || q.col < at.col || q.col >= at.col + s)
                .collect()
        })
        .collect();
    let map = b.map();
    // reach[f][e]: the ring squares of foe e that flanker f can stand on by its next turn.
    let mut pf = None;
    let reach: Vec<Vec<Vec<Pos>>> = flankers
        .iter()
        .map(|&f| {
            let budget = b.move_budget(f);
            let free = |q: Pos| map.passable(q) && b.access(f, q) == Access::Open;
            // A straight 5-10-5 bound first: no path is searched for a flanker out of reach.
            let near = |q: Pos| footprint_distance_ft(b.pos(f), b.space(f), q, 1) <= budget;
            if !rings.iter().flatten().any(|&q| free(q) && near(q)) {
                return vec![Vec::new(); rings.len()];
            }
            let pf: &mut Pathfinder = pf.get_or_insert_with(|| b.prepared().pathfinder.clone());
            pf.run(map, b.pos(f), Some(budget), &|p| b.access(f, p));
            rings
                .iter()
                .map(|ring| ring.iter().copied().filter(|&q| free(q) && pf.cost(q).is_some()).collect())
                .collect()
        })
        .collect();
    foes.iter().enumerate().any(|(e, &foe)| {
        let (at, s) = (b.pos(foe), b.space(foe));
        (0..lent.len()).any(|j| {
            reach[j][e].iter().any(|&q| {
                (0..flankers.len())
                    .any(|k| k != j && reach[k][e].iter().any(|&r| r != q && opposite_borders(q, r, at, s)))
            })
        })
    })
}

/// Whether `t` has more hit points left than two hits of `i`'s melee weapon
/// with `extra` damage.
fn worth_challenging(b: &BattleState<'_>, i: usize, t: usize, extra: i32) -> bool {
    let hit = b.prep.fighters[i].best_melee_mean_damage();
    f64::from(b.hp(t)) > 2.0 * (hit + f64::from(extra))
}

/// Whether an effect on `j` already gives it a competence bonus on attack rolls.
fn competence_on_attacks(b: &BattleState<'_>, j: usize) -> bool {
    b.fighters[j].effects.iter().any(|e| {
        e.effect.mods.iter().any(|m| m.target == ModTarget::Attack && m.bonus_type == BonusType::Competence)
    })
}
