//! Spells that strike back at those who hit their bearer (CRB "Fire
//! Shield"): "any creature striking you with its body or a handheld weapon
//! deals normal damage, but at the same time the attacker takes" the
//! spell's damage.
//!
//! - The trigger is a hit of a melee attack, natural or manufactured, that
//!   is not made with a reach weapon ("creatures wielding weapons with
//!   exceptional reach are not subject to this damage"); a large creature
//!   striking with its natural reach is, and so is a melee touch spell
//!   that hits. A hit an image takes, or that concealment turns into a
//!   miss, strikes nobody.
//! - The attacker's spell resistance applies (the spell's text), rolled at
//!   each blow against the bearer's caster level; a creature immune to
//!   spells that allow spell resistance (a golem) takes nothing.
//! - The damage is the casting's (its caster level and metamagic), dealt
//!   by the bearer as spell damage: the attacker's energy resistance and
//!   immunity apply, damage reduction does not.

use crate::effects::{Behaviour, Behaviours};
use crate::rng::Dice;
use crate::spell::Spell;
use crate::spell::effect::{EffectKind, RetaliationEffect, SpellEffect};

use super::super::engine::Engine;
use super::super::event::{Event, SpellEvent};
use super::super::log::emit;
use super::super::state::BattleState;
use super::apply::energy_index;
use super::book::Metamagic;
use super::casting::{Cast, Meeting};

/// The retaliation of `spell` under the option `option` of its choice (a
/// warm or a chill shield), if it has one.
pub(crate) fn retaliation_of(spell: &Spell, option: u8) -> Option<&RetaliationEffect> {
    fn find(effects: &[SpellEffect], option: u8) -> Option<&RetaliationEffect> {
        effects.iter().find_map(|e| match &e.kind {
            EffectKind::Retaliation(r) => Some(r),
            EffectKind::Choice(c) => {
                let k = usize::from(option).min(c.options.len().saturating_sub(1));
                c.options.get(k).and_then(|o| find(&o.effects, option))
            }
            _ => None,
        })
    }
    find(&spell.effects, option)
}

/// The options of `spell`'s choice that a retaliation can take (1 without a choice).
fn option_count(spell: &Spell) -> u8 {
    spell
        .effects
        .iter()
        .find_map(|e| match &e.kind {
            EffectKind::Choice(c) => u8::try_from(c.options.len()).ok(),
            _ => None,
        })
        .unwrap_or(1)
}

impl BattleState<'_> {
    /// The options of `spell` (a retaliation spell) the policies weigh:
    /// `0..n`, empty when the spell does not strike back.
    pub(crate) fn retaliation_options(&self, spell: u16) -> std::ops::Range<u8> {
        let s = &self.prep.spells[usize::from(spell)].spell;
        if retaliation_of(s, 0).is_none() { 0..0 } else { 0..option_count(s) }
    }

    /// The mean damage one blow of `attacker` against a bearer of `spell`
    /// (option `option`, cast by `caster`) costs the attacker: the
    /// retaliation's damage at the caster's level, less the attacker's own
    /// energy resistance (nothing when it is immune), weighed by the odds
    /// of the caster level check against its spell resistance.
    pub(crate) fn retaliation_blow(&self, caster: usize, spell: u16, option: u8, attacker: usize) -> f64 {
        let s = &self.prep.spells[usize::from(spell)].spell;
        let Some(r) = retaliation_of(s, option) else { return 0.0 };
        let defense = &self.prep.fighters[attacker].defense;
        if defense.immune.magic {
            return 0.0;
        }
        let cl = self.prep.fighters[caster].caster.as_deref().map_or(1, |c| c.cl);
        let mean: f64 = r
            .effects
            .iter()
            .map(|e| match &e.kind {
                EffectKind::Damage(d) => {
                    let energies: Vec<usize> = d.types.iter().filter_map(|x| energy_index(x)).collect();
                    if energies.iter().any(|&k| defense.energy_immune >> k & 1 == 1) {
                        return 0.0;
                    }
                    let resist = energies.iter().map(|&k| defense.energy_resist[k]).max().unwrap_or(0);
                    (d.amount.mean_at(cl) - f64::from(resist)).max(0.0)
                }
                _ => 0.0,
            })
            .sum();
        let sr = defense.spell_resistance as i32;
        let through = if sr <= 0 {
            1.0
        } else {
            let pen = self.prep.fighters[caster].caster.as_deref().map_or(0, |c| c.penetration);
            (f64::from(21 + cl as i32 + pen - sr) / 20.0).clamp(0.0, 1.0)
        };
        mean * through
    }
}

impl<R: Dice> Engine<'_, '_, R> {
    /// `a` hit `t` with its attack `w` (`None`: a melee touch spell): every
    /// retaliation on `t` strikes `a` back when the attack is a melee one
    /// without a reach weapon.
    pub(crate) fn retaliate(&mut self, a: usize, w: Option<usize>, t: usize) {
        if !Behaviours(self.st.fighters[t].fx).has(Behaviours::RETALIATION) {
            return;
        }
        if let Some(w) = w {
            let atk = &self.st.prep.fighters[a].offense.attacks[w];
            // A reach weapon's ring starts beyond the wielder's natural reach.
            if !atk.melee || atk.reach_min > 0 {
                return;
            }
        }
        let casts: Vec<Cast> = self.st.fighters[t]
            .effects
            .iter()
            .flat_map(|e| e.effect.behaviours.iter().map(move |b| (b, e.effect.caster_level)))
            .filter_map(|(b, cl)| match *b {
                Behaviour::Retaliation { caster, spell, option, metamagic, dc } => Some(Cast {
                    caster,
                    spell,
                    slot: 0,
                    metamagic: Metamagic(metamagic),
                    target: Some(a),
                    point: None,
                    option,
                    dc,
                    cl: u32::from(cl),
                    weapon: None,
                    extract: false,
                }),
                _ => None,
            })
            .collect();
        for cast in casts {
            if !self.st.is_present(a) {
                return;
            }
            self.strike_back(t, a, &cast);
        }
    }

    /// One retaliation of `cast` (on `bearer`) against `a`.
    fn strike_back(&mut self, bearer: usize, a: usize, cast: &Cast) {
        let prep = self.st.prep;
        let spell = &prep.spells[usize::from(cast.spell)].spell;
        let Some(r) = retaliation_of(spell, cast.option) else { return };
        emit!(
            self,
            Event::Spell {
                who: bearer,
                spell: spell.name.to_string(),
                what: SpellEvent::Retaliates { attacker: a }
            }
        );
        if prep.fighters[a].defense.immune.magic {
            emit!(self, Event::Spell { who: a, spell: spell.name.to_string(), what: SpellEvent::Immune });
            return;
        }
        if !self.overcomes_resistance(cast, a) {
            return;
        }
        let mut meeting = Meeting::default();
        self.affect_with(cast, a, &r.effects, &mut meeting);
    }
}
