//! Auras (Bestiary, Universal Monster Rules "Aura"; the mummy's despair,
//! the troglodyte's stench, the bone devil's fear aura; frightful presence
//! plays the same way) and the zombie's permanent staggered condition.
//!
//! - At the start of its turn, each creature within range of an enemy's
//!   aura that is able to fight meets it, once per aura and battle: immune
//!   (a descriptor or the condition it is immune to), or it saves; a failed
//!   save gives the aura's condition for its rounds (dice), or for the
//!   battle. A success makes it immune for 24 hours, that is for the battle
//!   (the texts of despair and stench).
//! - A repeating aura (`repeats`: a gibbering mouther's gibbering, confused
//!   for 1 round) is met again at the start of each turn after a failed
//!   save, until one succeeds. *Simplification*: gibbering is a free action
//!   on the mouther's turn; it is met at the start of each foe's turn.
//! - *Simplifications*: an aura affects enemies only (a troglodyte's
//!   stench spares troglodytes, and the files' auras have no friendly
//!   victims in a battle); "sees the mummy" is played as line of effect.
//! - An aura may give a penalty in place of a condition (the archons'
//!   aura of menace: −2 on attack rolls, AC and saves), which ends when
//!   the creature hits the aura's owner (`until_hit`).
//! - Staggered (UMR "Staggered", the zombie): the condition is applied for
//!   the battle at the start of the creature's first turn.

use crate::effects::{BonusType, ConditionSet, Context, Duration, Effect as Fx, Mod, ModTarget};
use crate::rng::Dice;

use super::super::engine::Engine;
use super::super::event::{AuraOutcome, EffectEnd, Event};
use super::super::log::emit;

/// What the `aura` event names for an aura that gives a penalty (aura of menace).
pub(crate) const MENACED: &str = "menaced";

impl<R: Dice> Engine<'_, '_, R> {
    /// The start of `t`'s turn: the auras of its enemies it has not met yet.
    pub(crate) fn meet_auras(&mut self, t: usize) {
        let prep = self.st.prep;
        for a in 0..self.st.len() {
            let Some(m) = prep.fighters[a].monster.as_deref() else { continue };
            for (k, aura) in m.auras.iter().enumerate() {
                if !self.st.are_enemies(a, t)
                    || !self.st.is_active(a)
                    || !self.st.is_active(t)
                    || self.st.distance(a, t) > aura.range_ft
                    || self.st.fighters[t].monster.auras_met.contains(&(a, k))
                    || !self.st.line_of_effect_from(a, self.st.pos(a), t)
                {
                    continue;
                }
                // A repeating aura (gibbering) is met again until a save succeeds.
                if !aura.repeats {
                    self.st.fighters[t].monster.auras_met.push((a, k));
                }
                let immune = &prep.fighters[t].defense.immune;
                let condition = aura.condition.map_or(MENACED, |c| c.name()).to_string();
                let ability = aura.name.clone();
                if immune.descriptors.0 & aura.descriptors.0 != 0
                    || aura.condition.is_some_and(|c| immune.conditions.has(c))
                {
                    if aura.repeats {
                        self.st.fighters[t].monster.auras_met.push((a, k));
                    }
                    let outcome = AuraOutcome::Immune;
                    emit!(self, Event::Aura { who: t, source: a, ability, outcome, condition, rounds: None });
                    continue;
                }
                let ctx = Context {
                    descriptors: aura.descriptors,
                    other_alignment: prep.fighters[a].nature.alignment,
                    ..Context::default()
                };
                if self.roll_save(t, aura.save, aura.dc, &ctx) {
                    if aura.repeats {
                        self.st.fighters[t].monster.auras_met.push((a, k));
                    }
                    let outcome = AuraOutcome::Saved;
                    emit!(self, Event::Aura { who: t, source: a, ability, outcome, condition, rounds: None });
                    continue;
                }
                let rounds = aura.rounds.as_ref().map(|d| d.roll(self.rng).max(1) as u32);
                let outcome = AuraOutcome::Affected;
                emit!(self, Event::Aura { who: t, source: a, ability, outcome, condition, rounds });
                let duration = rounds.map_or(Duration::UntilRemoved, Duration::Rounds);
                let fx = match aura.condition {
                    Some(c) => Fx::new(&aura.name, duration).with_conditions(ConditionSet::of(c)),
                    None => {
                        let p = -aura.penalty;
                        let mods = [ModTarget::Attack, ModTarget::Ac, ModTarget::Saves]
                            .into_iter()
                            .map(|target| Mod::new(target, p, BonusType::Untyped))
                            .collect();
                        Fx::new(&aura.name, duration).with_mods(mods)
                    }
                };
                self.apply_effect(t, fx, Some(a));
            }
        }
    }

    /// A creature that is always staggered (a zombie) gets the condition for the battle.
    pub(crate) fn stay_staggered(&mut self, i: usize) {
        use crate::effects::ConditionId;
        if self.st.fighters[i].conds.has(ConditionId::Staggered) {
            return;
        }
        let fx = Fx::new("staggered", Duration::UntilRemoved)
            .with_conditions(ConditionSet::of(ConditionId::Staggered));
        self.apply_effect(i, fx, None);
    }

    /// `a` hit `t`: the effects of `t`'s auras that end on such a hit (aura
    /// of menace: "until they successfully hit the archon") end on `a`.
    pub(crate) fn hit_ends_auras(&mut self, a: usize, t: usize) {
        let prep = self.st.prep;
        let Some(m) = prep.fighters[t].monster.as_deref() else { return };
        for aura in m.auras.iter().filter(|x| x.until_hit) {
            while let Some(k) = self.st.fighters[a]
                .effects
                .iter()
                .position(|e| e.source == Some(t) && *e.effect.name == *aura.name)
            {
                self.remove_effect_at(a, k, EffectEnd::Ends);
            }
        }
    }
}
