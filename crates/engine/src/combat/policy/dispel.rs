//! When a caster casts a targeted dispel (Dispel Magic), as a table plays
//! it: on a foe's lasting area ("one spell affecting an area") that holds
//! or harms the caster's friends (Web, Black Tentacles, Stinking Cloud,
//! Cloudkill) or silences a friend who casts, or on a friend a foe's spell
//! keeps from acting (Hold Person, Sleep, Daze), when freeing them is
//! worth more than the caster's own best this round.
//!
//! The worth of ending an area is the threat of each friend it meets or
//! holds (`threat_of`), less that of each active foe it meets or holds
//! (they go free too), over [`RELIEF_ROUNDS`] rounds, times the chance of
//! the dispel check (d20 + caster level, capped, against 11 + the area's
//! caster level). The worth of freeing a friend is its threat over the
//! same rounds times the chance that the dispel ends a spell that keeps it
//! from acting (`dispel_odds`: one d20 for every spell on it, highest
//! caster level first).

use crate::effects::{Flags, definition};
use crate::map::Pos;

use super::super::state::BattleState;
use super::worth::threat_of;

/// Rounds of the friends' blows a dispelled area is counted to give back:
/// a held friend would mostly break free or be carried out within two.
const RELIEF_ROUNDS: f64 = 2.0;

/// The chance that a dispel check of `bonus` ends a spell of caster level
/// `cl` (a caster level check: a natural 20 is no sure success).
pub(super) fn dispel_chance(bonus: u32, cl: u32) -> f64 {
    let need = 11 + i64::from(cl) - i64::from(bonus);
    ((21 - need).clamp(0, 20) as f64) / 20.0
}

/// The dispel `i` would cast now on a foe's lasting area, the square that
/// names it, and its worth: among the spells `castable` allows that make
/// a targeted dispel, the first known; among the foes' areas that hinder
/// those in them (`zone_hinders`) or silence a friend who casts, the one
/// worth most, named at the square of a friend it catches (or its point of
/// origin) within range and line of effect where it is the area the
/// dispel names (`zone_to_dispel_at`).
pub(super) fn best_area_dispel(
    b: &BattleState<'_>,
    i: usize,
    castable: impl Fn(u16) -> bool,
) -> Option<(u16, Pos, f64)> {
    if b.zones.is_empty() {
        return None;
    }
    let (spell, cap) = dispel_known(b, i, castable)?;
    let caster = b.prep.fighters[i].caster.as_deref()?;
    let def = &b.prep.spells[usize::from(spell)].spell;
    let range = b.spell_range(i, def, caster.cl).unwrap_or(u32::MAX);
    let names = |p: Pos, k: usize| {
        b.map().in_bounds(p)
            && crate::grid::distance_ft(b.pos(i), p) <= range
            && b.prep.line_of_effect(b.pos(i), p)
            && b.zone_to_dispel_at(i, p) == Some(k)
    };
    let mut best: Option<(u16, Pos, f64)> = None;
    for k in 0..b.zones.len() {
        let z = &b.zones[k];
        if !b.are_enemies(i, z.cast.caster) {
            continue;
        }
        let hinders = b.zone_hinders(k);
        let silences = b.zone_silences(k);
        if !hinders && !silences {
            continue;
        }
        let mut relief = 0.0;
        let mut aim: Option<Pos> = None;
        for t in b.zone_catches(k) {
            if b.are_enemies(i, t) {
                if hinders && b.is_active(t) {
                    relief -= threat_of(b, t);
                }
                continue;
            }
            let casts = b.prep.fighters[t].caster.is_some();
            if b.fighters[t].dead || (!hinders && !casts) {
                continue;
            }
            relief += threat_of(b, t);
            if aim.is_none() && names(b.pos(t), k) {
                aim = Some(b.pos(t));
            }
        }
        let Some(p) = aim.or_else(|| names(z.origin, k).then_some(z.origin)) else { continue };
        let worth = relief * RELIEF_ROUNDS * dispel_chance(caster.cl.min(cap), z.cast.cl);
        if worth > 0.0 && best.is_none_or(|(_, _, w)| worth > w) {
            best = Some((spell, p, worth));
        }
    }
    best
}

/// The first spell `i` knows that makes a targeted dispel and that
/// `castable` allows, with its caster level cap.
fn dispel_known(b: &BattleState<'_>, i: usize, castable: impl Fn(u16) -> bool) -> Option<(u16, u32)> {
    b.prep.fighters[i]
        .caster
        .as_deref()?
        .known
        .iter()
        .filter_map(|k| b.prep.spells[usize::from(k.spell)].role.dispel.map(|cap| (k.spell, cap)))
        .find(|&(s, _)| castable(s))
}

/// The dispel `i` would cast now on a friend that a foe's spell keeps
/// from acting (a condition that allows no action: held, asleep, dazed,
/// stunned), within the spell's range and line of effect: the friend
/// whose freeing is worth most, and that worth.
pub(super) fn best_friend_dispel(
    b: &BattleState<'_>,
    i: usize,
    castable: impl Fn(u16) -> bool,
) -> Option<(u16, usize, f64)> {
    let (spell, cap) = dispel_known(b, i, castable)?;
    let caster = b.prep.fighters[i].caster.as_deref()?;
    let def = &b.prep.spells[usize::from(spell)].spell;
    let bonus = caster.cl.min(cap);
    (0..b.len())
        .filter(|&t| {
            !b.are_enemies(i, t)
                && b.is_present(t)
                && !b.fighters[t].dead
                && b.flags(t).has(Flags::CANT_ACT)
                && b.spell_reaches(i, t, def, caster.cl).is_ok()
        })
        .filter_map(|t| {
            let freed: f64 =
                b.dispel_odds(i, t, bonus).iter().filter(|(s, _)| disables(b, t, *s)).map(|(_, p)| p).sum();
            let worth = threat_of(b, t) * RELIEF_ROUNDS * freed;
            (worth > 0.0).then_some((spell, t, worth))
        })
        .max_by(|x, y| x.2.total_cmp(&y.2))
}

/// Whether `spell` puts on `t` a condition that allows no action.
fn disables(b: &BattleState<'_>, t: usize, spell: u16) -> bool {
    b.fighters[t].effects.iter().any(|e| {
        e.effect.spell == Some(spell)
            && e.effect.conditions.iter().any(|c| definition(c).flags.has(Flags::CANT_ACT))
    })
}

#[cfg(test)]
mod tests {
    use super::dispel_chance;

    #[test]
    fn the_dispel_chance_is_d20_plus_the_capped_level_against_eleven_plus_the_area_s() {
        // CL 10 against CL 10: 11 or better on the d20, 10 in 20.
        assert_eq!(dispel_chance(10, 10), 0.5);
        // CL 5 against CL 15: 21 needed, never.
        assert_eq!(dispel_chance(5, 15), 0.0);
        // CL 15 against CL 3: 1 or better, always.
        assert_eq!(dispel_chance(15, 3), 1.0);
        // CL 7 against CL 5: 9 or better, 12 in 20.
        assert_eq!(dispel_chance(7, 5), 0.6);
    }
}
