//! A cleric's domain powers in the default policy.
//!
//! - **Rebuke Death** on the nearest dying ally (below 0 hit points, not
//!   stable) it touches from here or after one move (a standard action; the
//!   turn is planned), when its mean healing (2.5 + ½ cleric level) brings
//!   that ally to 1 hit point or more: before potions (a daily power is
//!   cheaper than a potion); or, after potions, when the cleric has no cure
//!   at hand (no heal spell to cast, no charged healing wand). Otherwise the
//!   healer's cure plan (`policy::heal`) plays: a deeper wound is worth a
//!   spell slot, a shallow one is not.
//! - **A power's touch** (touch of evil, touch of chaos, bleeding touch,
//!   grave touch; `best_touch`, played from `policy::magic`'s class
//!   abilities): on a foe within its touch from where it stands (no move
//!   for it), the one where the touch is worth most: the chance to hit its
//!   touch AC times the effect's worth in the spell planner's units (the
//!   foe's damage per round × the condition's severity × its rounds, at
//!   most 3; bleed: the mean damage over its rounds; a foe already under
//!   the same effect is worth nothing). Played when it beats both the
//!   weapon's expected damage against that foe and the best offensive
//!   spell's score.
//! - **Copycat** (`plan_copycat`, the default policy): the move action a
//!   planned turn leaves unused (no move, no full-round action), when a foe
//!   able to fight is within 30 ft and the user has no mirror image.

use crate::effects::{ConditionId, Flags};
use crate::feats::PowerEffect;

use super::super::abilities::AbilitySpec;
use super::super::action::{Action, ActionKind, Slot};
use super::super::odds::hit_chance;
use super::super::state::{BattleState, LifeState};

/// How far a foe may be for copycat to be worth its move action, in feet.
const COPYCAT_FOE_FT: u32 = 30;
/// The most rounds of a touch's condition the policy credits (battles are short).
const CREDITED_ROUNDS: u32 = 3;

/// A touch the policy weighs.
#[derive(Clone, Copy, Debug)]
pub(super) struct Touch {
    /// The power's index in the user's powers.
    pub power: u8,
    /// The foe touched.
    pub target: usize,
    /// Its worth, in the spell planner's units.
    pub value: f64,
}

impl Touch {
    /// The action.
    pub(super) fn action(self) -> Action {
        Action::at(ActionKind::DomainPower, self.target).with_option(self.power)
    }
}

/// The best touch of `i`'s powers on a foe it touches from here, if any.
pub(super) fn best_touch(b: &BattleState<'_>, i: usize, a: &AbilitySpec) -> Option<Touch> {
    let mut best: Option<Touch> = None;
    for (k, p) in a.powers.iter().enumerate() {
        if p.on_itself() || b.power_ready(i, k).is_none() {
            continue;
        }
        for j in 0..b.len() {
            if !b.are_enemies(i, j) || !b.is_active(j) || !b.touch_reaches(i, j) || !b.power_affects(p, j) {
                continue;
            }
            // The same power's effect on it already: nothing more to gain.
            if b.fighters[j].effects.iter().any(|e| e.effect.name == p.name && e.source == Some(i)) {
                continue;
            }
            let threat = if b.flags(j).has(Flags::CANT_ACT) { 0.0 } else { super::worth::threat_of(b, j) };
            let rounds = f64::from(p.rounds.min(CREDITED_ROUNDS));
            let worth = match p.spec.effect {
                PowerEffect::Condition(c) if !b.has_condition(j, c) => {
                    threat * super::worth::severity(c) * rounds
                }
                PowerEffect::Condition(_) | PowerEffect::MirrorImages(_) => 0.0,
                // As the spell planner's rerolls: half the foe's threat, for its rounds.
                PowerEffect::TakeWorse => threat * 0.5 * rounds,
                PowerEffect::BleedD6(n) => {
                    (3.5 * f64::from(n) * f64::from(p.rounds)).min(f64::from(b.hp(j).max(1)))
                }
                PowerEffect::ShakenOrFrightened => {
                    if b.has_condition(j, ConditionId::Shaken) && b.prep.fighters[j].nature.hd < p.level {
                        threat * super::worth::severity(ConditionId::Frightened)
                    } else if b.has_condition(j, ConditionId::Shaken)
                        || b.has_condition(j, ConditionId::Frightened)
                    {
                        0.0
                    } else {
                        threat * super::worth::severity(ConditionId::Shaken) * rounds
                    }
                }
            };
            let sit = b.touch_situation(i, j, true);
            let value = hit_chance(sit.attack, sit.ac) * worth;
            if value > 0.0 && best.is_none_or(|x| value > x.value + 1e-9) {
                best = Some(Touch { power: k as u8, target: j, value });
            }
        }
    }
    best
}

/// Copycat before the planned actions, when the turn leaves its move action
/// unused and a foe able to fight is within 30 ft.
pub(super) fn plan_copycat(b: &BattleState<'_>, i: usize, out: &mut Vec<Action>) {
    let Some(a) = b.prep.fighters[i].abilities.as_deref() else { return };
    let Some(k) = (0..a.powers.len()).find(|&k| a.powers[k].on_itself() && b.power_ready(i, k).is_some())
    else {
        return;
    };
    if out.is_empty()
        || b.life(i) != LifeState::Fighting
        || b.flags(i).has(Flags::MUST_FLEE)
        || b.has_images(i)
        || !(0..b.len()).any(|j| b.are_enemies(i, j) && b.is_active(j) && b.distance(i, j) <= COPYCAT_FOE_FT)
    {
        return;
    }
    let busy = out.iter().any(|x| {
        matches!(b.data_slot(i, x).unwrap_or_else(|| x.slot()), Slot::Move | Slot::FullRound)
            || matches!(x.kind, ActionKind::FiveFootStep)
    });
    if !busy {
        out.insert(0, Action::new(ActionKind::DomainPower).with_option(k as u8));
    }
}

/// Plans Rebuke Death on a dying ally; `true` when the turn is planned.
/// `brings_up_only`: only when its mean healing brings the ally to 1 hit
/// point or more (else also when the cleric has no cure at hand).
pub(super) fn plan_rebuke(
    b: &BattleState<'_>,
    i: usize,
    brings_up_only: bool,
    out: &mut Vec<Action>,
) -> bool {
    let Some(power) = b.prep.fighters[i].abilities.as_deref().and_then(|a| a.rebuke_death) else {
        return false;
    };
    if b.fighters[i].class.pools.rebuke_death == 0 {
        return false;
    }
    let Some(patient) = super::heal::nearest_dying(b, i) else { return false };
    // A clay golem's cursed wound the cleric's level cannot overcome.
    if b.healing_odds(patient, b.prep.fighters[i].nature.hd) <= 0.0 {
        return false;
    }
    let brings_up = f64::from(b.hp(patient)) + power.mean() >= 1.0;
    if !brings_up && (brings_up_only || super::heal::has_cure(b, i)) {
        return false;
    }
    let now = b.can_rebuke_death(i, patient);
    if !now && (b.flags(i).has(Flags::CANT_MOVE) || b.life(i) != LifeState::Fighting) {
        return false;
    }
    super::heal::touch_aid(b, i, patient, ActionKind::RebukeDeath, now, out)
}
