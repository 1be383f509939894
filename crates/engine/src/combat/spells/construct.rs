//! Spell constructs that fight on their own (CRB "Spiritual Weapon"): a
//! weapon of force that strikes the creature its caster designates, on the
//! caster's turn, every round of the spell's duration.
//!
//! - The casting designates the target (a creature within range with line
//!   of effect) and, for a construct that acts `on_cast`, the weapon
//!   strikes at once: one attack.
//! - At the end of each later turn of its caster it strikes its target
//!   again, once a round: one attack in a round it has a new target, then
//!   as many as the caster's base attack bonus allows (−5 each) when the
//!   attack is `iterative`. The roll is the caster's base attack bonus plus
//!   its casting ability modifier against the target's normal AC; a natural
//!   20 threatens, confirmed by a second roll; damage is the construct's
//!   effects (force: no damage reduction), rolled again on a critical hit.
//! - It strikes only while its target is able to fight, within the spell's
//!   range of the caster with line of effect, and the caster itself is able
//!   to act (a caster who cannot direct it leaves it hovering: the
//!   simplification is in `docs/rules/spells.md`). Redirecting it to
//!   another creature is the caster's move action (`RedirectSpell`).
//! - Spell resistance is checked the first time it strikes each creature;
//!   a weapon that fails is dispelled (the file's notes).
//! - It ends at the start of its caster's turn once its duration has run,
//!   or when the caster dies.

use crate::rng::Dice;
use crate::spell::Spell;
use crate::spell::effect::{ControlledEffect, EffectKind};

use super::super::action::{Action, Reason};
use super::super::engine::Engine;
use super::super::event::{AcKind, Attack, AttackStep, Event, SpellEvent};
use super::super::log::emit;
use super::super::state::BattleState;
use super::casting::{Cast, Construct, Meeting};

/// The construct of `spell`, if it makes one.
pub(crate) fn construct_effect(spell: &Spell) -> Option<&ControlledEffect> {
    spell.effects.iter().find_map(|e| match &e.kind {
        EffectKind::Controlled(c) => Some(c),
        _ => None,
    })
}

impl BattleState<'_> {
    /// The construct of spell `spell` that `i` directs, if any.
    pub(crate) fn construct_of(&self, i: usize, spell: u16) -> Option<&Construct> {
        self.constructs.iter().find(|c| c.cast.caster == i && c.cast.spell == spell)
    }

    /// Whether `i`'s construct `c` could strike `t` now: `t` able to fight,
    /// within the spell's range of `i` with line of effect.
    pub(crate) fn construct_reaches(&self, c: &Construct, t: usize) -> bool {
        let spell = &self.prep.spells[usize::from(c.cast.spell)].spell;
        let i = c.cast.caster;
        self.is_active(t) && self.spell_reaches(i, t, spell, c.cast.cl).is_ok()
    }

    /// The constructs of `i` that have nothing to strike (their target fell
    /// or left their reach): the spells to redirect.
    pub(crate) fn idle_constructs(&self, i: usize) -> impl Iterator<Item = u16> + '_ {
        self.constructs
            .iter()
            .filter(move |c| c.cast.caster == i && !self.construct_reaches(c, c.target))
            .map(|c| c.cast.spell)
    }

    /// The attack bonus of `i`'s construct and its number of attacks on a
    /// target it keeps (one on a new target).
    pub(crate) fn construct_attack(&self, i: usize, spell: u16) -> (i32, u32) {
        let spec = &self.prep.fighters[i];
        let bonus = spec.offense.bab + spec.caster.as_deref().map_or(0, |c| c.ability_mod);
        let iterative = construct_effect(&self.prep.spells[usize::from(spell)].spell)
            .and_then(|c| c.attack.as_ref())
            .is_some_and(|a| a.iterative);
        let attacks = if iterative { 1 + (spec.offense.bab.max(1) - 1) as u32 / 5 } else { 1 };
        (bonus, attacks.clamp(1, 4))
    }

    /// The mean damage of one hit of `i`'s construct of `spell` (no critical hit).
    pub(crate) fn construct_mean_damage(&self, i: usize, spell: u16) -> f64 {
        let cl = self.prep.fighters[i].caster.as_deref().map_or(1, |c| c.cl);
        construct_effect(&self.prep.spells[usize::from(spell)].spell).map_or(0.0, |c| {
            c.effects
                .iter()
                .map(|e| match &e.kind {
                    EffectKind::Damage(d) => d.amount.mean_at(cl).max(0.0),
                    _ => 0.0,
                })
                .sum()
        })
    }

    /// The rounds a construct of `spell` cast by `i` lasts (its mean
    /// duration at `i`'s caster level; `u32::MAX` for a minute or more).
    pub(crate) fn construct_rounds(&self, i: usize, spell: u16) -> u32 {
        let cl = self.prep.fighters[i].caster.as_deref().map_or(1, |c| c.cl);
        let d = &self.prep.spells[usize::from(spell)].spell.duration;
        match d.unit {
            crate::spell::model::DurationUnit::Rounds => {
                d.amount.as_ref().map_or(1.0, |a| a.mean_at(cl)).max(1.0) as u32
            }
            _ => u32::MAX,
        }
    }

    /// The armor class `t` opposes to a construct of `i`'s.
    pub(crate) fn construct_target_ac(&self, i: usize, t: usize) -> i32 {
        let denied = self.denied_dex(t, Some(i));
        self.armor_class(i, t, true, false, denied, false, 0)
    }
}

impl<R: Dice> Engine<'_, '_, R> {
    /// `cast` makes its construct, aimed at its target; one acting on the
    /// casting strikes at once.
    pub(crate) fn conjure(&mut self, cast: Cast) {
        let spell = &self.st.prep.spells[usize::from(cast.spell)].spell;
        let Some(c) = construct_effect(spell) else { return };
        let Some(t) = cast.target else { return };
        let ends = self.spell_ends(&cast);
        let on_cast = c.on_cast;
        let k = self.st.constructs.len();
        self.st.constructs.push(Construct {
            cast,
            target: t,
            ends,
            struck: 0,
            rounds_on_target: 0,
            overcame: 0,
        });
        if on_cast {
            self.construct_strikes(k);
        }
    }

    /// The end of `i`'s turn: each of its constructs strikes its target.
    pub(crate) fn constructs_act(&mut self, i: usize) {
        let mut k = 0;
        while k < self.st.constructs.len() {
            let c = self.st.constructs[k];
            let before = self.st.constructs.len();
            if c.cast.caster == i && c.struck != self.st.round {
                self.construct_strikes(k);
            }
            // A construct dispelled by spell resistance is gone from the list.
            if self.st.constructs.len() == before {
                k += 1;
            }
        }
    }

    /// The start of `i`'s turn: its constructs whose duration ran out end,
    /// and every construct of a caster who died.
    pub(crate) fn constructs_expire(&mut self, i: usize) {
        let round = self.st.round;
        let mut k = 0;
        while k < self.st.constructs.len() {
            let c = self.st.constructs[k];
            let owner = c.cast.caster;
            let expired = c.ends.is_some_and(|e| round >= e) && owner == i;
            if expired || self.st.fighters[owner].dead {
                self.end_construct(k);
            } else {
                k += 1;
            }
        }
    }

    /// Construct `k` ends.
    fn end_construct(&mut self, k: usize) {
        let c = self.st.constructs.remove(k);
        let name = self.st.prep.spells[usize::from(c.cast.spell)].spell.name.to_string();
        emit!(self, Event::Spell { who: c.cast.caster, spell: name, what: SpellEvent::ConstructEnds });
    }

    /// `i` redirects its construct of `action.spell` to `action.target` (a
    /// move action, CRB "Spiritual Weapon").
    pub(crate) fn redirect_action(&mut self, i: usize, action: Action) -> Result<(), Reason> {
        let spell = action.spell.ok_or(Reason::UnknownSpell)?;
        let t = action.target.filter(|&t| t < self.st.len()).ok_or(Reason::MissingTarget)?;
        let k = self
            .st
            .constructs
            .iter()
            .position(|c| c.cast.caster == i && c.cast.spell == spell)
            .ok_or(Reason::NoConstruct)?;
        let c = self.st.constructs[k];
        if !self.st.construct_reaches(&c, t) {
            return Err(Reason::OutOfRange);
        }
        let name = self.st.prep.spells[usize::from(spell)].spell.name.to_string();
        emit!(self, Event::Spell { who: i, spell: name, what: SpellEvent::Redirected { target: t } });
        let c = &mut self.st.constructs[k];
        c.target = t;
        c.rounds_on_target = 0;
        Ok(())
    }

    /// Construct `k` strikes its target, if it reaches it: its attacks this
    /// round, spell resistance first against a creature it never struck.
    fn construct_strikes(&mut self, k: usize) {
        let c = self.st.constructs[k];
        let i = c.cast.caster;
        let t = c.target;
        if !self.st.can_act(i) || !self.st.construct_reaches(&c, t) {
            return;
        }
        self.st.constructs[k].struck = self.st.round;
        if t < 64 && c.overcame >> t & 1 == 0 {
            let mut meeting = Meeting::default();
            let mut probe = c.cast;
            probe.target = Some(t);
            if !self.passes_defenses(&probe, t, &mut meeting) {
                self.end_construct(k);
                return;
            }
            self.st.constructs[k].overcame |= 1 << t;
        }
        let (bonus, full) = self.st.construct_attack(i, c.cast.spell);
        let attacks = if c.rounds_on_target == 0 { 1 } else { full };
        self.st.constructs[k].rounds_on_target += 1;
        for n in 0..attacks {
            if !self.st.is_active(t) {
                break;
            }
            self.construct_swing(&c, bonus - 5 * n as i32);
        }
    }

    /// One attack of construct `c` at `bonus` against its target's normal AC.
    fn construct_swing(&mut self, c: &Construct, bonus: i32) {
        let prep = self.st.prep;
        let spell = &prep.spells[usize::from(c.cast.spell)].spell;
        let Some(ctl) = construct_effect(spell) else { return };
        let Some(atk) = ctl.attack.as_ref() else { return };
        let (i, t) = (c.cast.caster, c.target);
        let ac = self.st.construct_target_ac(i, t);
        let d20 = self.rng.roll(20) as i32;
        let mut hit = d20 != 1 && (d20 == 20 || d20 + bonus >= ac);
        let mut steps = Vec::new();
        let mut crit = false;
        if hit && d20 >= atk.crit_range as i32 {
            let c20 = self.rng.roll(20) as i32;
            crit = c20 != 1 && (c20 == 20 || c20 + bonus >= ac);
            let crit_mult = crit.then_some(atk.crit_mult);
            steps.push(AttackStep::Threat { d20: c20, bonus, total: c20 + bonus, crit_mult });
        } else {
            steps.push(if hit { AttackStep::Hit } else { AttackStep::Miss { misfire: false } });
        }
        // The target's concealment, as against any attack roll.
        let chance = if hit { self.st.miss_chance(i, t, true) } else { 0 };
        if chance > 0 {
            let d100 = self.rng.roll(100);
            let missed = d100 <= u32::from(chance);
            steps.push(AttackStep::MissChance { blinded: false, chance, d100, missed });
            hit &= !missed;
            crit &= !missed;
        }
        if self.log.on() {
            let ev = Attack {
                who: i,
                target: t,
                weapon: spell.name.to_string(),
                aoo: false,
                d20,
                bonus,
                total: d20 + bonus,
                ac_kind: AcKind::Normal,
                ac,
                notes: Vec::new(),
                steps,
            };
            self.log.push(self.st.round, Event::Attack(Box::new(ev)));
        }
        if !hit {
            return;
        }
        let out = &mut self.st.fighters[i].out;
        out.hits += 1;
        out.crits += u32::from(crit);
        let times = if crit { atk.crit_mult } else { 1 };
        for e in &ctl.effects {
            if let EffectKind::Damage(d) = &e.kind {
                let rolled: i32 = (0..times).map(|_| self.roll_scaled(&c.cast, &d.amount).max(0)).sum();
                self.spell_damage(i, t, rolled as u32, &d.types, false, None);
            }
        }
    }
}
