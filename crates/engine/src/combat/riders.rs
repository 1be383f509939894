//! What spells and class abilities add to a weapon attack: Sanctuary and
//! Protection from Evil stopping it, deadeye and gunslinger's dodge
//! changing the armor class, misfortune and fortune rolling the d20 twice,
//! Keen Edge doubling the threat range, Magic Weapon overcoming damage
//! reduction, Stoneskin absorbing damage, up close and deadly's extra dice,
//! and after a hit: the ward hex breaking, the lich's paralyzing touch, a
//! held charge delivered by spellstrike.

use crate::effects::{Behaviour, Behaviours};
use crate::rng::Dice;

use super::engine::Engine;
use super::event::{CombatEvent, EffectEnd, Event, SpellEvent};
use super::log::emit;
use super::odds::Situation;
use super::prepared::{DefenseVs, norm};
use super::state::BattleState;

impl BattleState<'_> {
    /// The defense of `t` against attack `w` of `a` when an effect gives the
    /// weapon qualities that may overcome `t`'s damage reduction (Magic
    /// Weapon, the arcane pool); `None` when nothing changes.
    pub(crate) fn defense_now(&self, a: usize, w: usize, t: usize) -> Option<DefenseVs> {
        let spec_t = &self.prep.fighters[t];
        let dr = spec_t.defense.dr.as_ref()?;
        let atk = &self.prep.fighters[a].offense.attacks[w];
        let base = &atk.vs[t];
        // A smite's attacks bypass the foe's damage reduction (CRB "Smite Evil").
        if base.dr > 0 && self.smiting(a) == Some(t) {
            return Some(DefenseVs { dr: 0, comps: base.comps.clone() });
        }
        if base.dr == 0 || !Behaviours(self.fighters[a].fx).has(Behaviours::WEAPON) {
            return None;
        }
        let mut carried = atk.carried.clone();
        for e in &self.fighters[a].effects {
            for b in e.effect.behaviours.iter() {
                if let Behaviour::WeaponQualities { qualities, weapon } = b
                    && weapon.is_none_or(|x| x == w)
                {
                    carried.extend(qualities.iter().cloned());
                }
            }
        }
        Some(DefenseVs { dr: dr.against(&carried), comps: base.comps.clone() })
    }
}

impl<R: Dice> Engine<'_, '_, R> {
    /// Whether `a` may make attack `w` on `t` at all, and the changes to its
    /// situation: the attacker's invisibility ends, Sanctuary, Protection
    /// from Evil against a summoned creature's natural attack, deadeye,
    /// gunslinger's dodge.
    pub(crate) fn attack_allowed(&mut self, a: usize, w: usize, t: usize, s: &mut Situation) -> bool {
        let prep = self.st.prep;
        if self.st.fighters[a].fx != 0 {
            self.bearer_attacks(a);
        }
        if !self.sanctuary_allows(a, t) {
            return false;
        }
        let atk = &prep.fighters[a].offense.attacks[w];
        if prep.fighters[a].reserve.is_some()
            && atk.natural
            && Behaviours(self.st.fighters[t].fx).has(Behaviours::WARD_ALIGNMENT)
        {
            let alignment = prep.fighters[a].nature.alignment;
            let warded = self.st.fighters[t].effects.iter().flat_map(|e| e.effect.behaviours.iter()).any(|b| {
                matches!(b, Behaviour::AlignmentWard { alignment: x, summoned_contact: true, .. } if alignment & x != 0)
            });
            if warded {
                emit!(self, Event::Combat { who: a, what: CombatEvent::CannotTouch { target: t } });
                return false;
            }
        }
        if !atk.melee {
            let dist = self.st.distance(a, t);
            if atk.firearm
                && dist > atk.increment
                && self.st.fighters[a].turn.deeds & super::abilities::DEADEYE != 0
            {
                s.touch = true;
                s.ac = self.st.armor_class(a, t, false, true, s.denied, false, s.cover);
            }
            let dodge = self.gunslingers_dodge(t);
            s.ac += dodge;
        }
        true
    }

    /// The d20 of `a`'s attack roll: rolled twice under misfortune (the
    /// worse) or fortune (the better).
    pub(crate) fn d20_for(&mut self, a: usize) -> i32 {
        let d20 = self.rng.roll(20) as i32;
        if !Behaviours(self.st.fighters[a].fx).has(Behaviours::REROLL) {
            return d20;
        }
        let (worse, better) = self.reroll_effects(a);
        if worse == better {
            return d20;
        }
        let again = self.rng.roll(20) as i32;
        emit!(self, Event::Combat { who: a, what: CombatEvent::RollsTwice { first: d20, second: again } });
        self.spend_rerolls(a, worse, better);
        if worse { d20.min(again) } else { d20.max(again) }
    }

    /// The lowest natural roll that threatens with attack `w` of `a` (Keen Edge doubles the range).
    pub(crate) fn threat_min(&self, a: usize, w: usize) -> i32 {
        let base = self.st.prep.fighters[a].offense.attacks[w].threat_min as i32;
        let keen = Behaviours(self.st.fighters[a].fx).has(Behaviours::WEAPON)
            && self.st.fighters[a]
                .effects
                .iter()
                .flat_map(|e| e.effect.behaviours.iter())
                .any(|b| matches!(b, Behaviour::Keen { weapon } if weapon.is_none_or(|x| x == w)));
        if keen { 21 - 2 * (21 - base) } else { base }
    }

    /// Up close and deadly's dice: 1d6, +1d6 at 5th level and every five levels.
    pub(crate) fn up_close_dice(&self, a: usize) -> u32 {
        1 + self.st.prep.fighters[a].nature.hd / 5
    }

    /// Up close and deadly missed: the target is grazed for half the dice.
    pub(crate) fn graze(&mut self, a: usize, t: usize) {
        let dice = self.up_close_dice(a);
        let rolled: u32 = (0..dice).map(|_| self.rng.roll(6)).sum();
        let n = rolled / 2;
        emit!(self, Event::Combat { who: a, what: CombatEvent::UpCloseGrazes { target: t, amount: n } });
        self.st.fighters[a].out.damage_dealt += n;
        self.st.fighters[t].out.damage_taken += n;
        self.wound(t, n);
    }

    /// Damage an effect's damage reduction (Stoneskin) takes off the physical
    /// part of a hit by attack `w` of `a` on `t`; its pool counts down.
    pub(crate) fn spell_dr(&mut self, a: usize, w: usize, t: usize, physical: u32) -> u32 {
        if !Behaviours(self.st.fighters[t].fx).has(Behaviours::DR) {
            return 0;
        }
        let prep = self.st.prep;
        self.effect_dr(t, &prep.fighters[a].offense.attacks[w].carried, physical)
    }

    /// Damage an effect's damage reduction (Stoneskin) on `t` takes off
    /// `physical` points of damage carrying `carried` (types and qualities,
    /// normalized); its pool counts down.
    pub(crate) fn effect_dr(&mut self, t: usize, carried: &[String], physical: u32) -> u32 {
        if physical == 0 || !Behaviours(self.st.fighters[t].fx).has(Behaviours::DR) {
            return 0;
        }
        let found = self.st.fighters[t].effects.iter().enumerate().find_map(|(k, e)| {
            e.effect.behaviours.iter().find_map(|b| match b {
                Behaviour::DamageReduction { amount, bypass, absorbs } => {
                    let bypassed = !bypass.is_empty() && bypass.iter().all(|x| carried.contains(&norm(x)));
                    (!bypassed).then_some((k, *amount, *absorbs))
                }
                _ => None,
            })
        });
        let Some((k, amount, absorbs)) = found else { return 0 };
        let mut prevented = amount.min(physical);
        if absorbs {
            let pool = self.st.fighters[t].effects[k].effect.pool.max(0) as u32;
            prevented = prevented.min(pool);
            self.st.fighters[t].effects[k].effect.pool -= prevented as i32;
            if self.st.fighters[t].effects[k].effect.pool <= 0 {
                self.remove_effect_at(t, k, EffectEnd::Discharged);
            }
        }
        if prevented > 0 {
            emit!(self, Event::Combat { who: t, what: CombatEvent::DamageReduction { absorbed: prevented } });
        }
        prevented
    }

    /// After attack `w` of `a` hit `t`: the ward hex breaks, the lich's touch
    /// paralyzes, a held charge rides a spellstrike.
    pub(crate) fn after_magic_hit(&mut self, a: usize, w: usize, t: usize, crit: bool) {
        self.ward_breaks(t);
        self.retaliate(a, Some(w), t);
        let prep = self.st.prep;
        let atk = &prep.fighters[a].offense.attacks[w];
        if atk.vs_touch && atk.natural && self.st.is_present(t) {
            self.paralyzing_touch(a, t);
        }
        if atk.melee
            && !atk.natural
            && prep.fighters[a].abilities.as_deref().is_some_and(|x| x.spellstrike)
            && let Some(mut held) = self.st.fighters[a].casting.held.take()
            && self.st.is_present(t)
        {
            emit!(
                self,
                Event::Spell {
                    who: a,
                    spell: prep.spells[usize::from(held.cast.spell)].spell.name.to_string(),
                    what: SpellEvent::Delivered
                }
            );
            let cast = super::spells::Cast { target: Some(t), ..held.cast };
            let mut meeting = super::spells::Meeting { crit, ..super::spells::Meeting::default() };
            if self.passes_defenses(&cast, t, &mut meeting) {
                self.affect(&cast, t, &mut meeting, None);
            }
            held.charges = held.charges.saturating_sub(1);
            if held.charges > 0 {
                self.st.fighters[a].casting.held = Some(held);
            }
        }
    }
}
