//! When a caster raises a globe that keeps spells out (Globe of
//! Invulnerability), as a table plays it: when the spells the foes can
//! still throw at it, of the levels the globe stops, would cost it more
//! over the next rounds than its own best does this round.
//!
//! Each foe counts with its best spell on the caster that the globe would
//! stop and that it can still cast (a slot or a prepared copy left),
//! weighed as the policy weighs its own spells (`spell_value`: the chance
//! it gets through, lands and does something), over [`HORIZON`] rounds.
//! A caster already inside a globe as strong raises none.

use crate::map::Pos;

use super::super::state::BattleState;

/// Rounds of the foes' spells the globe is counted to stop: the foes
/// learn soon that their spells fail and turn to other targets or blows.
const HORIZON: f64 = 3.0;

/// The globe spell `i` would raise now and its worth (the foes' spells it
/// stops over the horizon): among the spells `castable` allows that raise
/// a globe, the strongest, when no globe as strong stands around `i`
/// already and some foe's spell would be stopped. `spell_value(j, spell)`
/// is what foe `j`'s spell is worth on `i` (the policy's scoring).
pub(super) fn best_globe(
    b: &BattleState<'_>,
    i: usize,
    castable: impl Fn(u16) -> bool,
    spell_value: impl Fn(usize, u16) -> f64,
) -> Option<(u16, f64)> {
    let caster = b.prep.fighters[i].caster.as_deref()?;
    let (spell, level) = caster
        .known
        .iter()
        .filter_map(|k| b.prep.spells[usize::from(k.spell)].role.globe.map(|l| (k.spell, l)))
        .filter(|&(s, _)| castable(s))
        .max_by_key(|&(_, l)| l)?;
    if b.globe_excludes(i, level, None) {
        return None;
    }
    let stopped: f64 = (0..b.len())
        .filter(|&j| b.are_enemies(i, j) && b.is_active(j))
        .filter_map(|j| {
            let foe = b.prep.fighters[j].caster.as_deref()?;
            foe.known
                .iter()
                .filter(|k| k.level <= level && castable_now(b, j, k.spell))
                .map(|k| spell_value(j, k.spell))
                .max_by(f64::total_cmp)
        })
        .sum();
    (stopped > 0.0).then_some((spell, stopped * HORIZON))
}

/// Whether `i` standing on `q` keeps the globe it stands in now (one as
/// strong covers `q`), or that globe stops no spell a foe can still cast
/// (it is then worth nothing to stay in): a caster that raised a globe
/// against the foes' spells does not step out of it.
pub(super) fn keeps_globe(b: &BattleState<'_>, i: usize, q: Pos) -> bool {
    let level = b.globe_level_at(i, b.pos(i));
    level == 0 || b.globe_level_at(i, q) >= level || !foes_cast_up_to(b, i, level)
}

/// Whether an active foe of `i` can still cast a spell of `level` or lower.
fn foes_cast_up_to(b: &BattleState<'_>, i: usize, level: u8) -> bool {
    (0..b.len()).filter(|&j| b.are_enemies(i, j) && b.is_active(j)).any(|j| {
        b.prep.fighters[j]
            .caster
            .as_deref()
            .is_some_and(|foe| foe.known.iter().any(|k| k.level <= level && castable_now(b, j, k.spell)))
    })
}

/// Whether `j` can cast `spell` now (a slot or a prepared copy left).
fn castable_now(b: &BattleState<'_>, j: usize, spell: u16) -> bool {
    b.can_cast(j, spell, super::super::spells::Metamagic::NONE).is_ok()
}
