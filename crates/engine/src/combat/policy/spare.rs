//! The move action a planned turn leaves spare, or frees by making its
//! full attack a single attack (`docs/strategy.md`, "A ranger's hunter's
//! bond", "A spiritual weapon"): what a move-action feature (a hunter's
//! bond, redirecting a spiritual weapon) may take.
//!
//! - Spare: the planned turn is a lone attack or standard action, a lone
//!   move, or nothing that takes a move or full-round action.
//! - Freed: the turn is one full attack (and swift or free declarations);
//!   it becomes one attack, and its lost attacks (the iteratives, Rapid
//!   Shot's arrow, the off-hand or flurry attack) cost the first attack's
//!   hit chance times its mean damage each.
//! - A turn that moves and attacks, or plans any other full-round action,
//!   has no move action to give.

use super::super::action::{Action, ActionKind, Slot};
use super::super::odds::{Swing, hit_chance};
use super::super::state::BattleState;
use super::super::style::Style;
use super::ranged::full_attacks;
use super::splash::hit_damage;

/// The move action a planned turn can give.
pub(super) struct SpareMove {
    /// The full attack that becomes one attack to free it, if any.
    convert: Option<usize>,
    /// What the turn loses (expected damage; 0 when the move action is spare).
    pub(super) cost: f64,
}

/// The move action `i`'s planned turn `out` can give, if any.
pub(super) fn spare_move(b: &BattleState<'_>, i: usize, out: &[Action]) -> Option<SpareMove> {
    let slot = |x: &Action| b.data_slot(i, x).unwrap_or_else(|| x.slot());
    let moves = out.iter().filter(|x| slot(x) == Slot::Move).count();
    let standard = out.iter().any(|x| slot(x) == Slot::Standard);
    let full: Vec<usize> = (0..out.len()).filter(|&k| slot(&out[k]) == Slot::FullRound).collect();
    if full.is_empty() && (moves == 0 || (moves == 1 && !standard)) {
        return Some(SpareMove { convert: None, cost: 0.0 });
    }
    if moves == 0 && !standard && full.len() == 1 && out[full[0]].kind == ActionKind::FullAttack {
        let k = full[0];
        return lost_attacks_value(b, i, out, k).map(|cost| SpareMove { convert: Some(k), cost });
    }
    None
}

/// Frees the move action of `spare` in `out`: its full attack becomes one
/// attack, without the declarations only a full attack uses.
pub(super) fn take(spare: &SpareMove, out: &mut Vec<Action>) {
    let Some(k) = spare.convert else { return };
    out[k].kind = ActionKind::Attack;
    out.retain(|x| {
        x.kind != ActionKind::Declare
            || !matches!(
                Style::from_option(x.option),
                Some(Style::RapidShot | Style::TwoWeapon | Style::Flurry)
            )
    });
}

/// What the full attack `out[k]` of `i` loses when it becomes one attack:
/// its attacks after the first, each at the first's hit chance and mean
/// damage. `None` when the attack is not known (no target, no weapon).
fn lost_attacks_value(b: &BattleState<'_>, i: usize, out: &[Action], k: usize) -> Option<f64> {
    let t = out[k].target?;
    let w = out[k].weapon.or_else(|| b.weapon_for(i, t, b.pos(i)).ok())?;
    let spec = &b.prep.fighters[i];
    let p = spec.offense.attacks.get(w)?;
    let mut n = full_attacks(b, i, w);
    n += out
        .iter()
        .filter(|x| x.kind == ActionKind::Declare)
        .filter(|x| {
            matches!(Style::from_option(x.option), Some(Style::RapidShot | Style::TwoWeapon | Style::Flurry))
        })
        .count() as i32;
    let s = b.situation(i, w, t, Swing::default());
    Some(f64::from(n - 1) * hit_chance(s.attack, s.ac) * hit_damage(b, i, w, p, t))
}
