//! The monk (CRB "Monk"): flurry of blows, Stunning Fist, the ki pool and
//! the AC bonus (docs/rules/class-abilities.md §15).
//!
//! - **Flurry of blows** is a declared option of a full attack
//!   (`Style::Flurry`, a free action) with unarmed strikes and the special
//!   monk weapons: the monk level is its base attack bonus (iterative
//!   attacks included), it makes **one more attack at the highest bonus**
//!   (two at 8th level, the second at −5; three at 15th, the third at −10:
//!   as Two-Weapon Fighting and its Improved and Greater forms), and every
//!   roll takes **−2**. The printed attack bonus holds the normal base
//!   attack bonus: a flurry attack adds `level − bab − 2` to it.
//! - **Ki pool** (4th level, `resources.ki_pool`): a point buys one more
//!   attack at the highest bonus in this turn's flurry, or +4 dodge AC
//!   until its next turn; each a swift action.
//! - **Stunning Fist** (`resources.stunning_fist`: a monk's level a day, one
//!   per four levels otherwise): declared before an unarmed attack roll
//!   (a free action), at most once a round; the attack roll spends the use,
//!   hit or miss. A foe it damages makes a Fortitude save (DC 10 + ½ level +
//!   Wisdom modifier) or is **stunned until the start of the monk's next
//!   turn**. Constructs, oozes, plants, undead, creatures immune to critical
//!   hits (precision damage) or to stunning are not stunned.
//! - **AC bonus**: Wisdom bonus + 1 per four monk levels, in the printed AC
//!   (touch and flat-footed too, as the CRB says); it is lost while helpless.

use crate::effects::{BonusType, ConditionId, Context, Duration, Effect, Mod, ModTarget, SaveKind};
use crate::rng::Dice;
use crate::spell::model::CreatureType;

use super::super::action::{Action, Reason};
use super::super::engine::Engine;
use super::super::event::{Event, KiPower, StunOutcome};
use super::super::log::emit;
use super::super::state::BattleState;
use super::super::style::Style;

/// The flurry's penalty on every attack roll (CRB "Flurry of Blows": as Two-Weapon Fighting).
pub(crate) const FLURRY_PENALTY: i32 = 2;
/// The ki pool's dodge bonus to AC (CRB "Ki Pool").
pub(crate) const KI_DODGE_AC: i32 = 4;
/// The effect of the ki pool's dodge bonus.
const KI_DODGE_EFFECT: &str = "ki dodge";
/// The special monk weapons of the Core Rulebook, with which (and unarmed
/// strikes) a monk flurries, matched against an attack's id or name.
const MONK_WEAPONS: [&str; 7] =
    ["unarmed strike", "kama", "nunchaku", "quarterstaff", "sai", "shuriken", "siangham"];

/// The iterative penalties of the flurry's extra attacks at monk `level`:
/// one at the highest bonus, a second at −5 from 8th level, a third at −10
/// from 15th (CRB "Flurry of Blows").
pub(crate) const fn flurry_extra_attacks(level: u32) -> &'static [i32] {
    match level {
        0 => &[],
        1..=7 => &[0],
        8..=14 => &[0, 5],
        _ => &[0, 5, 10],
    }
}

/// Whether an attack called `id` / `name` is an unarmed strike or a special monk weapon.
pub(crate) fn is_monk_weapon(id: &str, name: &str) -> bool {
    let matches = |s: &str| {
        let s = s.trim().to_ascii_lowercase();
        MONK_WEAPONS
            .iter()
            .any(|w| s == *w || s.starts_with(&format!("{w} ")) || s.ends_with(&format!(" {w}")))
    };
    matches(id) || matches(name)
}

/// Whether an attack called `id` / `name` is an unarmed strike.
fn is_unarmed(id: &str, name: &str) -> bool {
    let unarmed = |s: &str| s.to_ascii_lowercase().contains("unarmed strike");
    unarmed(id) || unarmed(name)
}

impl BattleState<'_> {
    /// `i`'s monk abilities, if any.
    #[inline]
    pub(crate) fn monk(&self, i: usize) -> Option<super::Monk> {
        self.prep.fighters[i].abilities.as_deref().and_then(|a| a.monk)
    }

    /// Whether `i` may flurry with attack `w`: it has flurry of blows and
    /// `w` is an unarmed strike or a monk weapon, in melee or thrown.
    pub(crate) fn flurry_weapon(&self, i: usize, w: usize) -> bool {
        let atk = &self.prep.fighters[i].offense.attacks[w];
        self.monk(i).is_some_and(|m| m.flurry) && !atk.natural && is_monk_weapon(&atk.id, &atk.name)
    }

    /// Whether `i` has a weapon to flurry with.
    pub(crate) fn may_flurry(&self, i: usize) -> bool {
        (0..self.prep.fighters[i].offense.attacks.len()).any(|w| self.flurry_weapon(i, w))
    }

    /// The change a flurry makes to the printed attack bonus of `i`: the
    /// monk level in place of the base attack bonus, −2.
    pub(crate) fn flurry_attack(&self, i: usize) -> i32 {
        self.monk(i).map_or(0, |m| m.level as i32 - self.prep.fighters[i].offense.bab - FLURRY_PENALTY)
    }

    /// The penalties of the rolls of a flurry by `i` with attack `w` (its
    /// iterative attacks at the monk level and the extra ones), without
    /// haste or ki.
    pub(crate) fn flurry_penalties(&self, i: usize, w: usize) -> Vec<i32> {
        let level = self.monk(i).map_or(0, |m| m.level);
        let atk = &self.prep.fighters[i].offense.attacks[w];
        let iters = if atk.iterates { super::super::odds::iterations(level as i32) } else { 1 };
        let mut out: Vec<i32> =
            (0..iters).map(|j| 5 * j).chain(flurry_extra_attacks(level).iter().copied()).collect();
        out.sort_unstable();
        out
    }

    /// Whether a flurry raises the expected damage of a full attack by `i`
    /// with attack `w` on `t` over its full attack without one.
    pub(crate) fn flurry_pays(&self, i: usize, w: usize, t: usize) -> bool {
        if !self.flurry_weapon(i, w) {
            return false;
        }
        let spec = &self.prep.fighters[i];
        let s = self.situation(i, w, t, super::super::odds::Swing::default());
        let hits = |pens: &mut dyn Iterator<Item = i32>, delta: i32| -> f64 {
            pens.map(|p| super::super::odds::hit_chance(s.attack + delta - p, s.ac)).sum()
        };
        let iters = if spec.offense.attacks[w].iterates {
            super::super::odds::iterations(spec.offense.bab)
        } else {
            1
        };
        let without = hits(&mut (0..iters).map(|j| 5 * j), 0);
        let with = hits(&mut self.flurry_penalties(i, w).into_iter(), self.flurry_attack(i));
        with > without
    }

    /// Whether `i` may declare Stunning Fist now: it has the feat, a use
    /// left, has not declared it and has not used it this round.
    pub(crate) fn can_stunning_fist(&self, i: usize) -> bool {
        let f = &self.fighters[i];
        self.prep.fighters[i].abilities.as_deref().is_some_and(|a| a.stunning_fist_dc.is_some())
            && f.class.pools.stunning_fist > 0
            && !f.class.monk.stunning_armed
            && f.class.monk.stunning_round != Some(self.round)
    }

    /// Whether `t` cannot be stunned by Stunning Fist: a construct, ooze,
    /// plant or undead, immune to critical hits, or immune to stunning.
    pub(crate) fn stun_immune(&self, t: usize) -> bool {
        let spec = &self.prep.fighters[t];
        matches!(
            spec.nature.ctype,
            Some(CreatureType::Construct | CreatureType::Ooze | CreatureType::Plant | CreatureType::Undead)
        ) || spec.defense.precision_immune
            || spec.defense.immune.conditions.has(ConditionId::Stunned)
    }

    /// Whether attack `w` of `i` carries a declared Stunning Fist: an unarmed strike.
    fn stunning_strike(&self, i: usize, w: usize) -> bool {
        let atk = &self.prep.fighters[i].offense.attacks[w];
        self.fighters[i].class.monk.stunning_armed && is_unarmed(&atk.id, &atk.name)
    }

    /// The chance that `t` fails its Fortitude save against `i`'s Stunning Fist.
    pub(crate) fn stun_chance(&self, i: usize, t: usize) -> f64 {
        let Some(dc) = self.prep.fighters[i].abilities.as_deref().and_then(|a| a.stunning_fist_dc) else {
            return 0.0;
        };
        let bonus = self.save_bonus(t, SaveKind::Fort, &Context::default());
        // A natural 1 always fails, a natural 20 always succeeds.
        f64::from((dc - 1 - bonus).clamp(1, 19)) / 20.0
    }

    /// The AC bonus a helpless monk `t` loses (CRB "AC Bonus"), 0 otherwise.
    #[inline]
    pub(crate) fn monk_ac_lost(&self, t: usize) -> i32 {
        match self.monk(t) {
            Some(m) if m.ac_bonus > 0 && self.is_helpless(t) => m.ac_bonus,
            _ => 0,
        }
    }
}

impl<R: Dice> Engine<'_, '_, R> {
    /// Stunning Fist (free action): declared for `i`'s next unarmed attack this turn.
    pub(crate) fn stunning_fist_action(&mut self, i: usize) -> Result<(), Reason> {
        if !self.st.can_stunning_fist(i) {
            return Err(Reason::NoAbility);
        }
        self.st.fighters[i].class.monk.stunning_armed = true;
        Ok(())
    }

    /// A ki power (swift action): `option` 0 one more attack in this turn's
    /// flurry, 1 +4 dodge AC until the start of its next turn.
    pub(crate) fn ki_action(&mut self, i: usize, action: Action) -> Result<(), Reason> {
        let ki = self.st.monk(i).is_some_and(|m| m.ki) && self.st.fighters[i].class.pools.ki_pool > 0;
        let power = match action.option {
            0 => KiPower::ExtraAttack,
            1 => KiPower::Dodge,
            _ => return Err(Reason::UnsupportedKind),
        };
        if !ki
            || (power == KiPower::ExtraAttack
                && (self.st.fighters[i].class.monk.ki_attack || !self.st.may_flurry(i)))
        {
            return Err(Reason::NoAbility);
        }
        self.st.fighters[i].class.pools.ki_pool -= 1;
        let left = u32::from(self.st.fighters[i].class.pools.ki_pool);
        emit!(self, Event::Ki { who: i, power, left });
        match power {
            KiPower::ExtraAttack => self.st.fighters[i].class.monk.ki_attack = true,
            KiPower::Dodge => {
                let e = Effect::new(KI_DODGE_EFFECT, Duration::Rounds(1)).with_mods(vec![Mod::new(
                    ModTarget::Ac,
                    KI_DODGE_AC,
                    BonusType::Dodge,
                )]);
                self.apply_effect(i, e, Some(i));
            }
        }
        Ok(())
    }

    /// Whether `i` flurries with attack `w` in this full attack (declared, a monk weapon).
    pub(crate) fn flurries(&self, i: usize, w: usize) -> bool {
        self.st.declared(i, Style::Flurry) && self.st.flurry_weapon(i, w)
    }

    /// Takes the ki point spent for one more flurry attack this turn.
    pub(crate) fn take_ki_attack(&mut self, i: usize) -> bool {
        std::mem::take(&mut self.st.fighters[i].class.monk.ki_attack)
    }

    /// Spends a declared Stunning Fist on the attack roll of attack `w`, if
    /// it is an unarmed strike: returns whether this attack carries it.
    pub(crate) fn spend_stunning_fist(&mut self, a: usize, w: usize) -> bool {
        if !self.st.stunning_strike(a, w) {
            return false;
        }
        let round = self.st.round;
        let f = &mut self.st.fighters[a];
        f.class.monk.stunning_armed = false;
        f.class.monk.stunning_round = Some(round);
        f.class.pools.stunning_fist = f.class.pools.stunning_fist.saturating_sub(1);
        true
    }

    /// What a Stunning Fist carried by an attack of `a` on `t` does after
    /// it: nothing on a miss or without damage, else a Fortitude save or
    /// stunned until the start of `a`'s next turn.
    pub(crate) fn stunning_fist_lands(&mut self, a: usize, t: usize, hit: bool, dealt: u32) {
        let Some(dc) = self.st.prep.fighters[a].abilities.as_deref().and_then(|x| x.stunning_fist_dc) else {
            return;
        };
        let left = u32::from(self.st.fighters[a].class.pools.stunning_fist);
        let outcome = if !hit {
            StunOutcome::Missed
        } else if dealt == 0 {
            StunOutcome::NoDamage
        } else if !self.st.is_active(t) {
            StunOutcome::Down
        } else if self.st.stun_immune(t) {
            StunOutcome::Immune
        } else if self.roll_save(t, SaveKind::Fort, dc, &Context::default()) {
            StunOutcome::Saved
        } else {
            StunOutcome::Stunned
        };
        emit!(self, Event::StunningFist { who: a, target: t, dc, outcome, left });
        if outcome == StunOutcome::Stunned {
            self.condition_for(t, ConditionId::Stunned, 1, Some(a));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_flurry_gains_an_attack_at_1st_8th_and_15th_level() {
        assert_eq!(flurry_extra_attacks(1), &[0]);
        assert_eq!(flurry_extra_attacks(7), &[0]);
        assert_eq!(flurry_extra_attacks(8), &[0, 5]);
        assert_eq!(flurry_extra_attacks(14), &[0, 5]);
        assert_eq!(flurry_extra_attacks(15), &[0, 5, 10]);
        assert_eq!(flurry_extra_attacks(20), &[0, 5, 10]);
    }

    #[test]
    fn monk_weapons_are_matched_by_name() {
        assert!(is_monk_weapon("unarmed strike", "Unarmed Strike"));
        assert!(is_monk_weapon("kama", "+1 kama"));
        assert!(is_monk_weapon("quarterstaff", "quarterstaff"));
        assert!(!is_monk_weapon("longsword", "longsword"));
        assert!(!is_monk_weapon("saif", "saif"));
        assert!(is_unarmed("unarmed strike", "unarmed strike"));
        assert!(!is_unarmed("kama", "kama"));
    }
}
