//! When a caster wraps itself in a spell that burns those who strike it
//! (Fire Shield), as a table plays it: once foes stand in melee with it,
//! and when the blows they will land over the next rounds cost them more
//! than the caster's best spell or weapon does this round. The option of
//! the spell's choice (a warm or a chill shield) is the one that costs
//! them most (their energy resistances and immunities counted).

use super::super::odds::{Swing, hit_chance, iterations};
use super::super::state::BattleState;

/// Rounds over which the policy counts the shield's answers (a fight
/// rarely lasts longer; the spell lasts a round per level).
const HORIZON: f64 = 3.0;

/// The hits per round `e` lands on `i` from where it stands with the melee
/// attacks a shield answers (no reach weapon): its full attack with the
/// weapon it would use on `i`.
fn blows(b: &BattleState<'_>, e: usize, i: usize) -> f64 {
    let Ok(w) = b.weapon_for(e, i, b.pos(e)) else { return 0.0 };
    let spec = &b.prep.fighters[e];
    let routine = b.routine(e, w);
    spec.offense
        .attacks
        .iter()
        .enumerate()
        .filter(|&(k, a)| k < 64 && routine >> k & 1 == 1 && a.melee && a.reach_min == 0)
        .map(|(k, a)| {
            let s = b.situation(e, k, i, Swing::default());
            let iters = if a.iterates { iterations(spec.offense.bab).max(1) } else { 1 };
            hit_chance(s.attack, s.ac) * f64::from(a.count.max(1)) * f64::from(iters)
        })
        .sum()
}

/// The retaliation spell `i` would cast now (among those `castable`
/// allows and not already on it), with its option and its worth: the
/// damage its answers would deal over [`HORIZON`] rounds to the foes in
/// melee with `i`, each capped at that foe's hit points.
pub(super) fn best_shield(
    b: &BattleState<'_>,
    i: usize,
    castable: impl Fn(u16) -> bool,
) -> Option<(u16, u8, f64)> {
    let caster = b.prep.fighters[i].caster.as_deref()?;
    // Most casters know no such spell: nothing to weigh.
    if caster.known.iter().all(|k| !b.prep.spells[usize::from(k.spell)].role.retaliation) {
        return None;
    }
    let foes: Vec<(usize, f64)> = (0..b.len())
        .filter(|&e| b.are_enemies(i, e) && b.is_active(e))
        .map(|e| (e, blows(b, e, i)))
        .filter(|&(_, h)| h > 0.0)
        .collect();
    if foes.is_empty() {
        return None;
    }
    let mut best: Option<(u16, u8, f64)> = None;
    for k in &caster.known {
        let options = b.retaliation_options(k.spell);
        if options.is_empty()
            || b.fighters[i].effects.iter().any(|e| e.effect.spell == Some(k.spell))
            || !castable(k.spell)
        {
            continue;
        }
        for option in options {
            let worth: f64 = foes
                .iter()
                .map(|&(e, hits)| {
                    let hp = f64::from((b.fighters[e].hp + b.fighters[e].temp_hp).max(1));
                    (hits * b.retaliation_blow(i, k.spell, option, e) * HORIZON).min(hp)
                })
                .sum();
            if worth > 0.0 && best.is_none_or(|(_, _, w)| worth > w) {
                best = Some((k.spell, option, worth));
            }
        }
    }
    best
}
