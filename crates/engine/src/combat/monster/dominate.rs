//! A vampire's dominate (Bestiary, Vampire, "Dominate (Su)"): "a
//! standard action", against one creature "the vampire targets" (a
//! humanoid: `creature_types`) within 30 ft.; a Will save against the
//! printed DC (22) or it falls "under the vampire's influence, as though by
//! a *dominate person* spell (caster level 12th)".
//!
//! - What *dominate person* (CRB) gives its master in a fight: the subject
//!   carries out its orders, and "Fight" is one a master gives at once.
//!   The dominated creature fights on the vampire's side: its side is the
//!   vampire's while dominated (`BattleState::side`, kept by
//!   `refresh_status`), so its turns are planned as that side's are (the
//!   adversary's policy), its former allies are its enemies, and theirs.
//!   *Simplification*: the move action a new order costs is not spent
//!   (the first order comes with the domination, and it is never changed).
//! - "Any subject forced to take actions against its nature receives a new
//!   saving throw with a +2 bonus": fighting its companions is against its
//!   nature (the reading a table plays), so at the start of its first turn
//!   dominated it makes one new Will save against the DC at +2; a success
//!   throws off the domination. One order, one new save: while the order
//!   stands it makes no other.
//! - The effect is an enchantment (compulsion), mind-affecting
//!   (`descriptors`): a creature immune to one of them is unaffected and
//!   save bonuses against them apply; a ward against the vampire's
//!   alignment that blocks mental control (*protection from evil*) keeps
//!   the attempt from taking hold. Only creatures of the listed types are
//!   affected; the target needs line of effect and to be within range.
//! - *Simplification*: the domination lasts 12 days (the battle), but a
//!   master that can no longer act (destroyed, dying, unconscious) gives
//!   no orders: its subjects are released at once and fight on their own
//!   side again (at the table they stop obeying a destroyed master; the
//!   spell's text leaves an orderless subject's conduct to the GM).
//! - Not played: the vampire's "at the GM's discretion, some vampires
//!   might be able to affect different creature types" (the file lists
//!   the types).

use crate::effects::{Behaviour, Behaviours, Compulsion, Context, Duration, Effect, SaveKind};
use crate::rng::Dice;

use super::super::action::{Action, Reason};
use super::super::engine::Engine;
use super::super::event::{AfflictionEvent, EffectEnd, Event, ManeuverOutcome};
use super::super::log::emit;
use super::super::state::BattleState;

/// The bonus on the new save a subject forced to act against its nature
/// makes (CRB, *dominate person*).
pub(crate) const AGAINST_NATURE_BONUS: i32 = 2;

impl BattleState<'_> {
    /// The creature that dominates `t`, if any.
    pub fn dominator(&self, t: usize) -> Option<usize> {
        if !Behaviours(self.fighters[t].fx).has(Behaviours::COMPEL) {
            return None;
        }
        self.fighters[t].effects.iter().flat_map(|e| e.effect.behaviours.iter()).find_map(|b| match b {
            Behaviour::Compel { what: Compulsion::Dominated, caster, .. } => Some(*caster),
            _ => None,
        })
    }

    /// Whether `i`'s dominate may target `t` now: an enemy able to fight,
    /// on the map, of an affected type, within range and line of effect,
    /// not dominated already.
    pub(crate) fn dominable(&self, i: usize, t: usize) -> bool {
        let Some(d) = self.prep.fighters[i].monster.as_deref().and_then(|m| m.dominate.as_ref()) else {
            return false;
        };
        let ctype = self.prep.fighters[t].nature.ctype;
        i != t
            && self.are_enemies(i, t)
            && self.is_active(t)
            && !self.is_swallowed(t)
            && self.dominator(t).is_none()
            && (d.types.is_empty() || ctype.is_some_and(|c| d.types.contains(&c)))
            && self.distance(i, t) <= d.range_ft
            && self.line_of_effect_from(i, self.pos(i), t)
    }

    /// Whether a ward against `caster`'s alignment that blocks mental
    /// control (*protection from evil*) is on `t`.
    pub(crate) fn warded_from_control(&self, t: usize, caster: usize) -> bool {
        let alignment = self.prep.fighters[caster].nature.alignment;
        self.fighters[t].effects.iter().flat_map(|e| e.effect.behaviours.iter()).any(|b| {
            matches!(b, Behaviour::AlignmentWard { alignment: a, mental_control: true, .. } if alignment & a != 0)
        })
    }

    /// The chance that `t` falls under `i`'s dominate: 0 when it is immune
    /// or warded, else its chance to fail the Will save (a natural 1
    /// fails, a natural 20 succeeds).
    pub(crate) fn dominate_chance(&self, i: usize, t: usize) -> f64 {
        let Some(d) = self.prep.fighters[i].monster.as_deref().and_then(|m| m.dominate.as_ref()) else {
            return 0.0;
        };
        if self.prep.fighters[t].defense.immune.descriptors.0 & d.descriptors.0 != 0
            || self.warded_from_control(t, i)
        {
            return 0.0;
        }
        let bonus = self.save_bonus(t, SaveKind::Will, &self.dominate_context(i));
        (f64::from(d.dc - bonus - 1) / 20.0).clamp(0.05, 0.95)
    }

    /// The context of a save against `i`'s dominate.
    fn dominate_context(&self, i: usize) -> Context {
        let descriptors = self.prep.fighters[i]
            .monster
            .as_deref()
            .and_then(|m| m.dominate.as_ref())
            .map_or_else(Default::default, |d| d.descriptors);
        Context { descriptors, other_alignment: self.prep.fighters[i].nature.alignment, ..Context::default() }
    }
}

impl<R: Dice> Engine<'_, '_, R> {
    /// The dominate (`ActionKind::Dominate`) on the action's target: a Will
    /// save or dominated (see the module's text).
    pub(crate) fn dominate_action(&mut self, i: usize, action: Action) -> Result<(), Reason> {
        let prep = self.st.prep;
        let d =
            prep.fighters[i].monster.as_deref().and_then(|m| m.dominate.as_ref()).ok_or(Reason::NoAbility)?;
        let t = action.target.filter(|&t| t < self.st.len()).ok_or(Reason::MissingTarget)?;
        if !self.st.dominable(i, t) {
            return Err(if self.st.are_enemies(i, t) && self.st.distance(i, t) > d.range_ft {
                Reason::OutOfRange
            } else {
                Reason::MissingTarget
            });
        }
        let ability = d.name.clone();
        emit!(
            self,
            Event::Affliction {
                who: i,
                what: AfflictionEvent::Dominates { ability: ability.clone(), target: t }
            }
        );
        if prep.fighters[t].defense.immune.descriptors.0 & d.descriptors.0 != 0
            || self.st.warded_from_control(t, i)
        {
            emit!(self, Event::Affliction { who: t, what: AfflictionEvent::Immune { ability } });
            return Ok(());
        }
        let ctx = self.st.dominate_context(i);
        if self.roll_save(t, SaveKind::Will, d.dc, &ctx) {
            return Ok(());
        }
        emit!(self, Event::Affliction { who: t, what: AfflictionEvent::Dominated { ability, by: i } });
        let fx = Effect::new(&d.name, Duration::UntilRemoved).with_behaviours(vec![Behaviour::Compel {
            what: Compulsion::Dominated,
            caster: i,
            ends_when_threatened: false,
        }]);
        self.apply_effect(t, fx, Some(i));
        self.st.fighters[t].monster.against_nature_due = true;
        self.part_allies(t);
        Ok(())
    }

    /// The start of `t`'s turn, dominated: released when its master can no
    /// longer act; else the one new save its order against its nature
    /// gives (+2), which throws the domination off.
    pub(crate) fn dominated_turn_start(&mut self, t: usize) {
        let Some(m) = self.st.dominator(t) else { return };
        if !self.st.is_active(m) {
            self.release_dominated(t, m);
            return;
        }
        if !std::mem::take(&mut self.st.fighters[t].monster.against_nature_due) {
            return;
        }
        let Some(d) = self.st.prep.fighters[m].monster.as_deref().and_then(|x| x.dominate.as_ref()) else {
            return;
        };
        let ctx = self.st.dominate_context(m);
        if self.roll_save_with(t, SaveKind::Will, d.dc, &ctx, AGAINST_NATURE_BONUS) {
            self.free_dominated(t, m, EffectEnd::ShakenOff);
        }
    }

    /// `m` can no longer act: the creatures it dominates are released.
    pub(crate) fn master_falls(&mut self, m: usize) {
        for t in 0..self.st.len() {
            if self.st.dominator(t) == Some(m) {
                self.release_dominated(t, m);
            }
        }
    }

    fn release_dominated(&mut self, t: usize, m: usize) {
        self.free_dominated(t, m, EffectEnd::Released);
    }

    /// `t` is no longer dominated by `m` (`why`): back on its own side.
    fn free_dominated(&mut self, t: usize, m: usize, why: EffectEnd) {
        while let Some(k) = self.st.fighters[t].effects.iter().position(|e| {
            e.source == Some(m)
                && e.effect
                    .behaviours
                    .iter()
                    .any(|b| matches!(b, Behaviour::Compel { what: Compulsion::Dominated, .. }))
        }) {
            self.remove_effect_at(t, k, why);
        }
        self.st.fighters[t].monster.against_nature_due = false;
        self.part_allies(t);
    }

    /// `t` changed sides: grapples between it and creatures now on its side end.
    fn part_allies(&mut self, t: usize) {
        for j in 0..self.st.len() {
            let joined = self.st.fighters[j].grappled_with == Some(t)
                || (j != t && self.st.fighters[t].grappled_with == Some(j));
            if !joined || self.st.are_enemies(t, j) {
                continue;
            }
            let held = if self.st.fighters[j].grappled_with == Some(t) { j } else { t };
            self.release(held);
            emit!(self, Event::Maneuver { who: held, outcome: ManeuverOutcome::NoLongerGrappled });
        }
    }
}
