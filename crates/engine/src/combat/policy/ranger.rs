//! How the default policy plays a ranger's hunter's bond (the companions'),
//! once the rest of its turn is planned (`docs/strategy.md`, "A ranger's
//! hunter's bond"):
//!
//! - only while no bond of its own runs (it renews one that lapsed);
//! - the move action must be spare, or a full attack must be worth less
//!   than the bond: the planned turn leaves its move action unused (a lone
//!   attack, a lone move), or it is a full attack that may become a single
//!   attack, whose lost attacks (the iteratives, Rapid Shot's arrow, the
//!   off-hand or flurry attack) are valued at the first attack's hit
//!   chance times its mean damage; a turn that moves and attacks keeps both;
//! - the foe: one of a favored type, with a line of effect, for which the
//!   allies within 30 ft gain the most: each ally able to act, whose
//!   nearest foe it is (the default policy's target), whose best favored
//!   enemy bonus against it is lower, and who reaches it from where it
//!   stands (its full attack) or after one move (one attack), gains its hit chance's rise times its mean damage plus the
//!   raised hit chance times the bonus, per attack, over the bond's rounds
//!   (at most two credited: battles are short and foes fall);
//! - it bonds when that gain beats the cost (0 for a spare move action).

use crate::effects::Flags;

use super::super::action::{Action, ActionKind};
use super::super::odds::{Swing, hit_chance};
use super::super::state::{BattleState, LifeState};
use super::ranged::full_attacks;
use super::spare;
use super::splash::hit_damage;

/// The most rounds of a bond the policy credits.
const CREDITED_ROUNDS: u32 = 2;

/// Inserts `i`'s hunter's bond before the planned turn `out` when it pays.
pub(super) fn plan_bond(b: &BattleState<'_>, i: usize, out: &mut Vec<Action>) {
    let rounds = b.hunters_bond_rounds(i);
    if rounds == 0
        || out.is_empty()
        || b.life(i) != LifeState::Fighting
        || b.flags(i).has(Flags::MUST_FLEE)
        || b.hunters_bond_running(i)
    {
        return;
    }
    let Some(spare) = spare::spare_move(b, i, out) else { return };
    let allies = b.hunters_bond_allies(i);
    if allies.is_empty() {
        return;
    }
    let credited = f64::from(rounds.min(CREDITED_ROUNDS));
    let mut best: Option<(f64, usize)> = None;
    for e in 0..b.len() {
        if !b.are_enemies(i, e) || !b.is_active(e) || b.is_swallowed(e) {
            continue;
        }
        let bonus = b.hunters_bond_bonus(i, e);
        if bonus == 0 || !b.line_of_effect_from(i, b.pos(i), e) {
            continue;
        }
        let gain = credited * allies.iter().map(|&j| ally_gain(b, j, e, bonus)).sum::<f64>();
        if gain > spare.cost && best.is_none_or(|(g, _)| gain > g) {
            best = Some((gain, e));
        }
    }
    let Some((_, e)) = best else { return };
    spare::take(&spare, out);
    out.insert(0, Action::at(ActionKind::HuntersBond, e));
}

/// What a bond of `bonus` against `e` is worth to ally `j` on its next turn
/// (expected damage): nothing when its own favored enemy (or another bond)
/// is as high, or when it will not attack `e`.
fn ally_gain(b: &BattleState<'_>, j: usize, e: usize, bonus: i32) -> f64 {
    let now = b.favored_enemy(j, e);
    // An ally held or paralysed will not attack on its next turn; one
    // fights the nearest foe (the default policy's target).
    if bonus <= now || !b.can_act(j) || b.nearest_enemy(j) != Some(e) {
        return 0.0;
    }
    let spec = &b.prep.fighters[j];
    let (w, n) = match b.weapon_for(j, e, b.pos(j)) {
        Ok(w) => (w, full_attacks(b, j, w)),
        Err(_) => {
            // Not from here: the foe it closes in on, within one move and its reach.
            let reach =
                spec.offense.attacks.iter().map(|a| a.reach_max.max(a.max_range_ft)).max().unwrap_or(0);
            if b.flags(j).has(Flags::CANT_MOVE) || b.distance(j, e) > b.move_budget(j) + reach {
                return 0.0;
            }
            let Some(w) = (0..spec.offense.attacks.len()).find(|&w| b.is_usable(j, w)) else { return 0.0 };
            (w, 1)
        }
    };
    let p = &spec.offense.attacks[w];
    let delta = bonus - now;
    let s = b.situation(j, w, e, Swing::default());
    let (hit, better) = (hit_chance(s.attack, s.ac), hit_chance(s.attack + delta, s.ac));
    f64::from(n) * ((better - hit) * hit_damage(b, j, w, p, e) + better * f64::from(delta))
}
