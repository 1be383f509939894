//! True Strike as a table plays it (CRB "True Strike": +20 insight on the
//! caster's next single attack roll made before the end of the next round;
//! `docs/strategy.md`, "True Strike, then the blow").
//!
//! - A spell whose only use is a bonus on its caster's next attack roll is
//!   not a buff to hand out whenever nothing better is at hand: cast in a
//!   round where its caster cannot attack and followed by a spell the next,
//!   it lapses unused. It is cast when the blow it prepares pays for the
//!   turn it takes: when some attack of the caster reaches the foe after
//!   one move next turn and the bonus raises that one blow's expected
//!   damage (hit chance × mean damage) by more than the caster's weapon or
//!   best spell does this turn.
//! - While the bonus waits, the caster's next turn is an attack when a
//!   weapon reaches the foe after one move: no spell without an attack roll
//!   (it would not spend the bonus); a spell with an attack roll (a ray, a
//!   touch) still competes, since it spends the bonus too.

use crate::effects::ModTarget;
use crate::spell::Spell;
use crate::spell::effect::EffectKind;
use crate::spell::model::{Range, TargetKind};

use super::super::odds::{Swing, hit_chance};
use super::super::spells::Metamagic;
use super::super::state::BattleState;

/// A bonus on the caster's next attack roll, and whether that roll also
/// ignores the target's concealment.
#[derive(Clone, Copy, Debug)]
pub(super) struct NextAttack {
    bonus: i32,
    ignores_miss_chance: bool,
}

/// The bonus `s` puts on its caster's next attack roll (True Strike's
/// +20), when the spell is aimed at its caster and does nothing else.
pub(super) fn next_attack_bonus(s: &Spell) -> Option<NextAttack> {
    let personal =
        s.range == Range::Personal || s.target.as_ref().is_some_and(|t| t.kind == TargetKind::Caster);
    if !personal || s.effects.len() != 1 {
        return None;
    }
    match &s.effects[0].kind {
        EffectKind::OneShot(o) if o.applies_to.contains(&ModTarget::Attack) && o.value > 0 => {
            Some(NextAttack { bonus: o.value, ignores_miss_chance: o.ignores_miss_chance })
        }
        _ => None,
    }
}

/// Whether `i` carries the unspent bonus of such a spell.
pub(super) fn holds(b: &BattleState<'_>, i: usize) -> bool {
    b.fighters[i].effects.iter().any(|e| {
        e.effect.one_shot
            && e.effect
                .spell
                .is_some_and(|s| next_attack_bonus(&b.prep.spells[usize::from(s)].spell).is_some())
    })
}

/// The weapon attacks of `i` that can hit `t` after one move (from where
/// `i` stands, its move and the attack's reach or range).
fn attacks_next_turn<'a>(b: &'a BattleState<'_>, i: usize, t: usize) -> impl Iterator<Item = usize> + 'a {
    let attacks = &b.prep.fighters[i].offense.attacks;
    let (dist, budget) = (b.distance(i, t), b.move_budget(i));
    (0..attacks.len()).filter(move |&w| {
        let far = if attacks[w].melee { b.reach(i, w).1 } else { attacks[w].max_range_ft };
        dist <= budget + far
    })
}

/// Whether a weapon of `i` can hit `t` after one move.
pub(super) fn weapon_follows(b: &BattleState<'_>, i: usize, t: usize) -> bool {
    attacks_next_turn(b, i, t).next().is_some()
}

/// The expected damage of one blow of `i`'s attack `w` on `t` with `bonus`
/// more on the roll (`sure`: ignoring concealment).
fn blow(b: &BattleState<'_>, i: usize, w: usize, t: usize, bonus: i32, sure: bool) -> f64 {
    let atk = &b.prep.fighters[i].offense.attacks[w];
    let s = b.situation(i, w, t, Swing::default());
    let lands = if sure { 1.0 } else { 1.0 - f64::from(b.miss_chance(i, t, atk.melee)) / 100.0 };
    hit_chance(s.attack + bonus, s.ac) * lands * atk.mean_damage
}

/// The best single blow `i` can strike `t` after one move: what a turn
/// that moves then attacks is worth (the caster's alternative to casting
/// when its weapon does not reach from where it stands).
pub(super) fn blow_after_move(b: &BattleState<'_>, i: usize, t: usize) -> f64 {
    attacks_next_turn(b, i, t).map(|w| blow(b, i, w, t, 0, false)).fold(0.0, f64::max)
}

/// What `next` on `i`'s next attack roll against `t` adds to that one
/// blow's expected damage (the concealment it ignores included), with the
/// attack that gains most.
fn gain(b: &BattleState<'_>, i: usize, t: usize, next: NextAttack) -> f64 {
    attacks_next_turn(b, i, t)
        .map(|w| blow(b, i, w, t, next.bonus, next.ignores_miss_chance) - blow(b, i, w, t, 0, false))
        .fold(0.0, f64::max)
}

/// The spell of `i`'s that puts a bonus on its next attack against `t`
/// and what it adds to that blow, when `i` may cast it now (`allowed`:
/// the magic levers' own test) and holds no such bonus already.
pub(super) fn best(
    b: &BattleState<'_>,
    i: usize,
    t: usize,
    allowed: impl Fn(u16) -> bool,
) -> Option<(u16, f64)> {
    if holds(b, i) {
        return None;
    }
    let caster = b.prep.fighters[i].caster.as_deref()?;
    caster
        .known
        .iter()
        .filter_map(|k| next_attack_bonus(&b.prep.spells[usize::from(k.spell)].spell).map(|v| (k.spell, v)))
        .filter(|&(spell, _)| allowed(spell) && b.can_cast(i, spell, Metamagic::NONE).is_ok())
        .map(|(spell, v)| (spell, gain(b, i, t, v)))
        .max_by(|x, y| x.1.total_cmp(&y.1))
}
