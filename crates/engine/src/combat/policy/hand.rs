//! When a caster shapes a spectral hand (Spectral Hand), as a table plays
//! it: the round spent on the hand must buy more than it costs. Once the
//! hand is up, its touch spells reach foes at a distance (the offense
//! scoring sees them through `spell_reaches`); before, the policy weighs
//! the touch spells the caster could then deliver this way against what it
//! does without the hand.
//!
//! The hand is worth, over the next [`HORIZON`] castings, what each of the
//! caster's best touch spells it carries would do through it (+2 on the
//! touch, from a distance) beyond the caster's best without it (`alt`:
//! its weapon or its best spell this round), each counted once; it is cast
//! when that gain beats `alt`, the round it costs. A caster whose touch
//! spells are its best (a necromancer with Chill Touch and Vampiric Touch
//! facing foes out of reach) shapes it; a lich with Scorching Ray and
//! Fireball left does not, until those run out.

use crate::spell::model::Range;

use super::super::spells::Metamagic;
use super::super::state::BattleState;

/// Touch castings through the hand the policy counts on: a fight rarely
/// leaves more rounds for them once the hand is up.
const HORIZON: usize = 2;

/// The hand spell `i` would cast now, its gain over `alt` (called only for
/// a caster who knows such a spell) and `alt`: among the
/// spells `castable` allows that shape a hand, none already on `i`, the one
/// whose carried touch spells gain the most. `touch_value(j, spell, bonus)`
/// is what `i`'s touch spell `spell` is worth on foe `j` with `bonus` more
/// on its touch attack (the policy's scoring, zero when it does nothing).
pub(super) fn best_hand(
    b: &BattleState<'_>,
    i: usize,
    alt: impl FnOnce() -> f64,
    castable: impl Fn(u16) -> bool,
    touch_value: impl Fn(usize, u16, i32) -> f64,
) -> Option<(u16, f64, f64)> {
    let caster = b.prep.fighters[i].caster.as_deref()?;
    // Most casters know no such spell: nothing to weigh.
    if caster.known.iter().all(|k| !b.prep.spells[usize::from(k.spell)].role.touch_delivery)
        || b.hand_of(i).is_some()
    {
        return None;
    }
    let alt = alt();
    let mut best: Option<(u16, f64, f64)> = None;
    for k in caster.known.iter().filter(|k| b.prep.spells[usize::from(k.spell)].role.touch_delivery) {
        let Some(hand) = b.hand_of_spell(k.spell, caster.cl) else { continue };
        // Its life force pays for the hand: not when that could fell it.
        if b.hp(i) <= 4 || !castable(k.spell) {
            continue;
        }
        let mut gains: Vec<f64> = caster
            .known
            .iter()
            .filter(|t| {
                t.level <= hand.max_level
                    && t.spell != k.spell
                    && b.can_cast(i, t.spell, Metamagic::NONE).is_ok()
            })
            .filter(|t| b.prep.spells[usize::from(t.spell)].spell.range == Range::Touch)
            .map(|t| {
                (0..b.len())
                    .filter(|&j| {
                        b.are_enemies(i, j)
                            && b.is_active(j)
                            && b.distance(i, j) <= hand.range_ft.max(b.touch_reach(i))
                            && b.line_of_effect_from(i, b.pos(i), j)
                    })
                    .map(|j| touch_value(j, t.spell, hand.bonus))
                    .fold(0.0, f64::max)
                    - alt
            })
            .filter(|&g| g > 0.0)
            .collect();
        gains.sort_by(|x, y| y.total_cmp(x));
        let gain: f64 = gains.iter().take(HORIZON).sum();
        if gain > 0.0 && best.is_none_or(|(_, g, _)| gain > g) {
            best = Some((k.spell, gain, alt));
        }
    }
    best
}
