//! A spell's own combat maneuver (CRB *Black Tentacles*, pg. 248): a
//! lasting area that grapples the creatures in it, as a `maneuver` effect
//! of its `zone` (`on_appear`, `each_round`, `on_enter`).
//!
//! - The check is d20 + the spell's CMB (Black Tentacles: caster level as
//!   its base attack bonus, +4 Strength, +1 size: `cmb` base 5 + 1 per
//!   level) against the creature's CMD, a combat maneuver check (a natural
//!   20 succeeds, a natural 1 fails). The spell is no creature: nothing it
//!   does makes the target flat-footed, and no attack of opportunity is
//!   provoked ("the tentacles do not provoke attacks of opportunity").
//! - `one_roll_for_all`: one d20 for every creature one timing meets ("roll
//!   only once for the entire spell effect each round"): the roll is shared
//!   as an area's damage is (`Engine::area_rolls`), by the casting when it
//!   appears, by the round on the caster's turn, by the creature for one
//!   that enters the area.
//! - Against a creature the spell already grapples the check has
//!   `bonus_if_already_grappled` (+5) and is a check to maintain the hold:
//!   a success deals the damage again, a failure releases it (CRB
//!   "Grapple": a grappler keeps its hold with a successful check; the
//!   monsters' holds of `monster::hold` do the same).
//! - A success applies the maneuver's `effects` (Black Tentacles: 1d6+4
//!   bludgeoning, rolled once for all as an area's damage, and the grappled
//!   condition as a bond whose escape DC is the spell's CMD, 10 + its CMB,
//!   without the +5); a creature held already keeps its bond.
//! - A creature that cannot be grappled is passed over: an incorporeal one
//!   (Bestiary, UMR "Incorporeal": "cannot be tripped or grappled"), one
//!   immune to the grappled condition, one whose effects make grapple
//!   attempts against it fail (Freedom of Movement).

use crate::effects::{Behaviour, ConditionId, Maneuver};
use crate::rng::Dice;
use crate::spell::effect::{EffectKind, ManeuverEffect, ManeuverKind};

use super::super::engine::Engine;
use super::super::event::{EffectEnd, Event, SpellEffectEvent};
use super::super::log::emit;
use super::super::state::BattleState;
use super::apply::Pack;
use super::casting::{Cast, Meeting};

impl BattleState<'_> {
    /// The index among `t`'s effects of the bond of `spell` holding it, if any.
    pub(crate) fn bond_of_spell(&self, t: usize, spell: u16) -> Option<usize> {
        self.fighters[t].effects.iter().position(|e| {
            e.effect.spell == Some(spell)
                && e.effect.behaviours.iter().any(|b| matches!(b, Behaviour::Bound(_)))
        })
    }

    /// Whether `t` cannot be grappled at all: incorporeal, immune to the
    /// grappled condition, or under an effect that makes grapples fail.
    pub(crate) fn grapple_proof(&self, t: usize) -> bool {
        self.incorporeal(t)
            || self.prep.fighters[t].defense.immune.conditions.has(ConditionId::Grappled)
            || self.fighters[t].effects.iter().any(|e| {
                e.effect.behaviours.iter().any(|b| match b {
                    Behaviour::Immunity { grapple, conditions, .. } => {
                        *grapple || conditions.has(ConditionId::Grappled)
                    }
                    _ => false,
                })
            })
    }

    /// The chance a first check of maneuver `mv` (caster level `cl`) takes
    /// hold of `t` (for the policies): d20 + CMB ≥ CMD, a natural 20
    /// succeeding and a natural 1 failing.
    pub(crate) fn spell_maneuver_chance(&self, t: usize, mv: &ManeuverEffect, cl: u32) -> f64 {
        if self.grapple_proof(t) {
            return 0.0;
        }
        let cmb = mv.cmb.bounds_at(cl).0;
        let need = self.cmd_against(t, maneuver_of(mv.kind), None) - cmb;
        f64::from((21 - need).clamp(1, 19)) / 20.0
    }
}

/// The maneuver a spell's `maneuver` effect makes.
pub(crate) const fn maneuver_of(kind: ManeuverKind) -> Maneuver {
    match kind {
        ManeuverKind::Grapple => Maneuver::Grapple,
    }
}

impl<R: Dice> Engine<'_, '_, R> {
    /// The maneuver `mv` of `cast` against `t`: the check, then on a
    /// success its effects (the module's rules).
    pub(crate) fn spell_maneuver(
        &mut self,
        cast: &Cast,
        t: usize,
        mv: &ManeuverEffect,
        m: &mut Meeting,
        pack: &mut Pack,
        single: Option<u32>,
    ) {
        if self.st.grapple_proof(t) {
            return;
        }
        let maneuver = maneuver_of(mv.kind);
        let held = self.st.bond_of_spell(t, cast.spell);
        // The CMB is a number, not a roll: metamagic does not change it.
        let cmb = mv.cmb.roll_with(cast.cl, self.rng, false, false);
        let bonus = cmb + if held.is_some() { mv.bonus_if_already_grappled } else { 0 };
        let key = std::ptr::from_ref(mv) as usize;
        let d20 = match self.area_rolls.iter().find(|(k, _)| mv.one_roll_for_all && *k == key) {
            Some(&(_, v)) => v,
            None => {
                let v = self.rng.roll(20) as i32;
                if mv.one_roll_for_all {
                    self.area_rolls.push((key, v));
                }
                v
            }
        };
        let cmd = self.st.cmd_against(t, maneuver, None);
        let total = (d20 + bonus).max(0);
        let success = d20 != 1 && (d20 == 20 || total >= cmd);
        emit!(
            self,
            Event::SpellEffect {
                who: t,
                what: SpellEffectEvent::Maneuver {
                    maneuver,
                    d20,
                    bonus,
                    total,
                    cmd,
                    holding: held.is_some(),
                    success
                }
            }
        );
        if !success {
            if let Some(k) = held {
                self.remove_effect_at(t, k, EffectEnd::Released);
            }
            return;
        }
        m.maneuver_cmd = Some(10 + cmb);
        for child in &mv.effects {
            if !self.st.is_present(t) {
                break;
            }
            // A creature held already keeps its bond; the damage comes again.
            if held.is_some() && matches!(child.kind, EffectKind::Condition(_)) {
                continue;
            }
            self.apply_one(cast, t, child, m, pack, single);
        }
    }
}
