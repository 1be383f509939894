//! What spells and class abilities add to a weapon attack: Sanctuary and
//! Protection from Evil stopping it, deadeye and gunslinger's dodge
//! changing the armor class, misfortune and fortune rolling the d20 twice,
//! Keen Edge doubling the threat range, Magic Weapon overcoming damage
//! reduction, Stoneskin absorbing damage, up close and deadly's extra dice,
//! and after a hit: the ward hex breaking, the lich's paralyzing touch, a
//! held charge delivered by spellstrike.

use crate::effects::effect::ENERGY;
use crate::effects::{Behaviour, Behaviours, energy_bits};
use crate::rng::Dice;

use super::damage::Damage;
use super::engine::Engine;
use super::event::{CombatEvent, EffectEnd, Event, SpellEvent};
use super::log::emit;
use super::odds::Situation;
use super::prepared::{AttackProfile, DefenseVs, norm};
use super::state::BattleState;

impl BattleState<'_> {
    /// The defense of `t` against attack `w` of `a` (its profile `atk`, a
    /// monster's strike variant included) when an effect changes it: weapon
    /// qualities that may overcome `t`'s damage reduction (Magic Weapon, the
    /// arcane pool, a smite), or `t`'s energy spells (`energy_defense`);
    /// `None` when nothing changes.
    pub(crate) fn defense_now(&self, a: usize, w: usize, t: usize, atk: &AttackProfile) -> Option<DefenseVs> {
        let def = self.dr_now(a, w, t, atk);
        if !self.energy_shielded(t) {
            return def;
        }
        Some(self.energy_defense(atk, t, def.unwrap_or_else(|| atk.vs[t].clone())))
    }

    /// The damage reduction part of `defense_now`.
    fn dr_now(&self, a: usize, w: usize, t: usize, atk: &AttackProfile) -> Option<DefenseVs> {
        let spec_t = &self.prep.fighters[t];
        let dr = spec_t.defense.dr.as_ref()?;
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

    /// The energy types (bits, `ENERGY` order) `j` can deal: its attacks'
    /// energy, its breath weapon's, its known spells' damage (for the
    /// policies: a ward against energy is worth nothing against foes that
    /// deal none).
    pub(crate) fn energy_dealt(&self, j: usize) -> u8 {
        let spec = &self.prep.fighters[j];
        let attacks =
            spec.offense.attacks.iter().flat_map(|a| a.components.iter()).fold(0, |acc, c| acc | c.energy);
        let breath =
            spec.monster.as_deref().and_then(|m| m.breath.as_ref()).map_or(0, |b| energy_bits(&b.types));
        let spells = spec.caster.as_deref().map_or(0, |c| {
            c.known.iter().fold(0, |acc, k| {
                self.prep.spells[usize::from(k.spell)].spell.effects.iter().fold(acc, |acc, e| {
                    match &e.kind {
                        crate::spell::effect::EffectKind::Damage(d) => acc | energy_bits(&d.types),
                        _ => acc,
                    }
                })
            })
        });
        attacks | breath | spells
    }

    /// Whether an effect on `t` may change the energy damage it takes
    /// (`energy_defense`).
    pub(crate) fn energy_shielded(&self, t: usize) -> bool {
        Behaviours(self.fighters[t].fx).has(Behaviours::ENERGY)
            || Behaviours(self.fighters[t].fx).has(Behaviours::IMMUNITY)
    }

    /// `def` (the defense of `t` against `atk`) with `t`'s energy spells
    /// folded into each energy component, as they treat a spell's damage
    /// (`Engine::after_energy`): an immunity zeroes it, Resist Energy's
    /// resistance replaces a lower one, a Fire Shield halves it before the
    /// rest, and Protection from Energy absorbs what is left in place of
    /// resistance (`Engine::absorb_energy`, after the roll). A weapon's fire
    /// is fire damage like a spell's (CRB "Resist Energy": "whenever it
    /// would take energy damage").
    pub(crate) fn energy_defense(&self, atk: &AttackProfile, t: usize, mut def: DefenseVs) -> DefenseVs {
        let shield = EnergyShield::of(self, t);
        for (c, d) in atk.components.iter().zip(def.comps.iter_mut()) {
            if c.energy == 0 {
                continue;
            }
            let energies = (0..ENERGY.len()).filter(|k| c.energy >> k & 1 == 1);
            d.resist = energies.clone().map(|k| shield.resist[k]).fold(d.resist, u32::max);
            d.immune |= c.energy & shield.immune != 0;
            d.halved = c.energy & shield.warded != 0;
            d.absorbed = energies.filter(|&k| shield.absorbs >> k & 1 == 1).min().map(|k| k as u8);
        }
        def
    }
}

/// What the live effects on a creature do to energy damage, by type: the
/// one reading of its energy spells, for a weapon's energy
/// (`energy_defense`) and a spell's (`Engine::after_energy`).
pub(crate) struct EnergyShield {
    /// Resistance per energy type (`ENERGY` order), the highest effect's.
    pub(crate) resist: [u32; ENERGY.len()],
    /// Types (bits) an effect makes it immune to.
    pub(crate) immune: u8,
    /// Types an energy ward halves.
    pub(crate) warded: u8,
    /// Types an effect absorbs.
    pub(crate) absorbs: u8,
}

impl EnergyShield {
    pub(crate) fn of(st: &BattleState<'_>, t: usize) -> Self {
        let mut s = EnergyShield { resist: [0; ENERGY.len()], immune: 0, warded: 0, absorbs: 0 };
        for b in st.fighters[t].effects.iter().flat_map(|e| e.effect.behaviours.iter()) {
            match b {
                Behaviour::EnergyResist { types, amount } => {
                    for (k, r) in s.resist.iter_mut().enumerate() {
                        if types >> k & 1 == 1 {
                            *r = (*r).max(*amount);
                        }
                    }
                }
                Behaviour::EnergyWard { types } => s.warded |= types,
                Behaviour::EnergyAbsorb { types } => s.absorbs |= types,
                Behaviour::Immunity { energy, .. } => s.immune |= energy,
                _ => {}
            }
        }
        s
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

    /// The energy of a hit that `t`'s absorbing effects take (CRB
    /// "Protection from Energy": it absorbs the energy damage until its
    /// pool is spent, and is then discharged), off `dmg.dealt`. What a
    /// spent pool leaves passes on, as for a spell (`after_energy`).
    pub(crate) fn absorb_energy(&mut self, t: usize, dmg: &mut Damage) {
        for e in 0..ENERGY.len() {
            let amount = std::mem::take(&mut dmg.absorbable[e]);
            if amount != 0 {
                dmg.dealt -= self.draw_absorption(t, 1 << e, amount.min(dmg.dealt));
            }
        }
    }

    /// How much of `amount` points of energy `types` (bits) the first of
    /// `t`'s effects absorbing one of them takes from its pool; a pool spent
    /// ends its effect (`used_up`). The one pool draw of a weapon's energy
    /// (`absorb_energy`) and a spell's (`after_energy`).
    pub(crate) fn draw_absorption(&mut self, t: usize, types: u8, amount: u32) -> u32 {
        let absorbs = |b: &Behaviour| matches!(b, Behaviour::EnergyAbsorb { types: x } if x & types != 0);
        let Some(k) =
            self.st.fighters[t].effects.iter().position(|x| x.effect.behaviours.iter().any(absorbs))
        else {
            return 0;
        };
        let pool = &mut self.st.fighters[t].effects[k].effect.pool;
        let taken = amount.min((*pool).max(0) as u32);
        *pool -= taken as i32;
        if *pool <= 0 {
            self.remove_effect_at(t, k, EffectEnd::UsedUp);
        }
        taken
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
