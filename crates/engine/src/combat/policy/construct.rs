//! How the default policy plays spell constructs that strike on their own
//! (Spiritual Weapon; `docs/strategy.md`, "A spiritual weapon"):
//!
//! - `magic.rs` casts one when none of the caster's own is fighting and its
//!   expected damage over the rounds counted on (at most [`HORIZON`]) beats
//!   what the caster's weapon or best spell does this turn;
//! - it is aimed at the policy's target when it reaches it, else at the
//!   nearest foe it reaches;
//! - once the rest of the turn is planned, a construct whose target fell or
//!   left its reach is redirected (a move action) at the planned turn's foe
//!   when the construct reaches it, else the nearest foe it reaches, when
//!   the planned turn leaves the move action spare or the construct's
//!   attack this round is worth more than the attacks lost by making the
//!   turn's full attack a single attack (`policy::spare`).

use super::super::action::{Action, ActionKind};
use super::super::odds::hit_chance;
use super::super::state::{BattleState, LifeState};
use super::spare;

/// Rounds of a construct the policy counts on: a battle rarely lasts
/// longer, and its target may fall sooner (as for a summoned creature).
pub(super) const HORIZON: u32 = 3;

/// The foe `i`'s construct of `spell` strikes: `preferred` when it reaches
/// it, else the nearest foe it reaches (ties: encounter order).
pub(super) fn target(b: &BattleState<'_>, i: usize, spell: u16, preferred: Option<usize>) -> Option<usize> {
    let s = &b.prep.spells[usize::from(spell)].spell;
    let cl = b.prep.fighters[i].caster.as_deref().map_or(1, |c| c.cl);
    let reaches = |j: usize| {
        j < b.len()
            && b.are_enemies(i, j)
            && b.is_active(j)
            && b.spell_reaches(i, j, s, cl).is_ok()
            && !b.globe_shuts_out(i, j, spell)
    };
    if let Some(t) = preferred.filter(|&t| reaches(t)) {
        return Some(t);
    }
    (0..b.len()).filter(|&j| reaches(j)).min_by_key(|&j| (b.distance(i, j), j))
}

/// The damage `i`'s construct of `spell` is expected to deal to `j` over
/// the rounds counted on: one attack in its first round, then its full
/// attacks (spell resistance aside), at most the hit points the foes it
/// could strike have left (a GM does not conjure a weapon for the last
/// goblin at 1 hit point).
pub(super) fn worth(b: &BattleState<'_>, i: usize, spell: u16, j: usize) -> f64 {
    let (bonus, attacks) = b.construct_attack(i, spell);
    let blow = hit_chance(bonus, b.construct_target_ac(i, j)) * b.construct_mean_damage(i, spell);
    let rounds = b.construct_rounds(i, spell).clamp(1, HORIZON);
    let left: i32 = (0..b.len())
        .filter(|&e| b.are_enemies(i, e) && b.is_active(e))
        .map(|e| b.fighters[e].hp.max(0))
        .sum();
    (blow * (1.0 + f64::from(attacks) * f64::from(rounds - 1))).min(f64::from(left))
}

/// Inserts the redirection of an idle construct of `i`'s before the
/// planned turn `out` when its move action is spare.
pub(super) fn plan_redirect(b: &BattleState<'_>, i: usize, out: &mut Vec<Action>) {
    if out.is_empty() || b.life(i) != LifeState::Fighting {
        return;
    }
    let Some(spell) = b.idle_constructs(i).next() else { return };
    let Some(spare) = spare::spare_move(b, i, out) else { return };
    let planned = out.iter().find_map(|x| x.target).filter(|&j| j != i);
    let Some(j) = target(b, i, spell, planned) else { return };
    // One attack this round on a new target.
    let (bonus, _) = b.construct_attack(i, spell);
    let blow = hit_chance(bonus, b.construct_target_ac(i, j)) * b.construct_mean_damage(i, spell);
    if blow <= spare.cost {
        return;
    }
    spare::take(&spare, out);
    let mut a = Action::at(ActionKind::RedirectSpell, j);
    a.spell = Some(spell);
    out.insert(0, a);
}
