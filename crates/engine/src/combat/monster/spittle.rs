//! A ranged touch made as a free action each round, with no damage of its
//! own (Bestiary, Gibbering Mouther, "Spittle (Ex)": "Each round as a free
//! action, a gibbering mouther can emit a stream of acidic spittle at one
//! target within 30 feet. On a successful attack, the target is blinded
//! for 1d4 rounds unless he succeeds on a DC 18 Fortitude save").
//!
//! - Once a round, at the start of the creature's turn (before it moves),
//!   when it can act: a ranged touch attack (BAB + Dexterity + size, the
//!   printed +6 of the mouther; shooting into melee applies) at one foe
//!   within `range_ft` with line of effect, no range increment.
//! - A ranged attack provokes attacks of opportunity (CRB "Attacks of
//!   Opportunity"): the policy spits only when no enemy threatens the
//!   creature, so a mouther in melee keeps to its bites (a free action is
//!   not worth an attack of opportunity per foe beside it).
//! - The target: the foe, not already under the effect nor immune to it,
//!   whose damage per round (its best attack's mean damage) times the
//!   chance it fails the save is highest: the archer or the fighter a game
//!   master would blind.
//! - A hit, then a failed save, gives the effect (blinded 1d4 rounds: an
//!   effect named after the ability).

use crate::effects::Context;
use crate::rng::Dice;

use super::super::engine::Engine;
use super::super::event::{AfflictionEvent, Event};
use super::super::log::emit;
use super::super::prepared::monster::Effect;

impl<R: Dice> Engine<'_, '_, R> {
    /// The start of `i`'s turn: its spittle at the foe worth it, if any.
    pub(crate) fn spittle_turn(&mut self, i: usize) {
        let prep = self.st.prep;
        let Some(sp) = prep.fighters[i].monster.as_deref().and_then(|m| m.spittle.as_ref()) else { return };
        if !self.st.can_act(i)
            || self.st.fighters[i].monster.spat_round == self.st.round
            || self.st.is_threatened(i)
        {
            return;
        }
        let Some(t) = self.spittle_target(i) else { return };
        self.st.fighters[i].monster.spat_round = self.st.round;
        emit!(self, Event::Affliction { who: i, what: AfflictionEvent::Uses { ability: sp.name.clone() } });
        let (hit, _) = self.touch_attack(i, t, false, false, false, 0);
        if !hit || !self.st.is_present(t) || self.st.fighters[t].dead {
            return;
        }
        if self.rider_save(i, t, sp.save, sp.dc, &sp.effect) {
            return;
        }
        let e = sp.effect.clone();
        self.afflict(i, t, &e, &sp.name);
    }

    /// The foe `i` spits at: in range, in line of effect, not under the
    /// effect already nor immune, the largest threat times chance to fail.
    pub(crate) fn spittle_target(&self, i: usize) -> Option<usize> {
        let st = &self.st;
        let sp = st.prep.fighters[i].monster.as_deref().and_then(|m| m.spittle.as_ref())?;
        let under = |t: usize| {
            st.fighters[t].effects.iter().any(|x| x.source == Some(i) && *x.effect.name == *sp.name)
        };
        let already = |t: usize| match &sp.effect {
            Effect::Condition(c, _) => st.has_condition(t, *c),
            _ => under(t),
        };
        let ctx = Context { other_alignment: st.prep.fighters[i].nature.alignment, ..Context::default() };
        let worth = |t: usize| {
            let kind = sp.save;
            let bonus = st.save_bonus(t, kind, &ctx);
            // A natural 1 always fails and a natural 20 always succeeds.
            let fails = f64::from((sp.dc - 1 - bonus).clamp(1, 19)) / 20.0;
            let threat = st.prep.fighters[t]
                .offense
                .attacks
                .iter()
                .map(|a| a.mean_damage * f64::from(a.count))
                .fold(1.0, f64::max);
            fails * threat
        };
        (0..st.len())
            .filter(|&t| {
                st.are_enemies(i, t)
                    && st.is_active(t)
                    && !st.is_swallowed(t)
                    && st.distance(i, t) <= sp.range_ft
                    && st.line_of_effect_from(i, st.pos(i), t)
                    && !already(t)
                    && !st.resists(t, &sp.effect)
            })
            .map(|t| (t, worth(t)))
            .fold(None, |best: Option<(usize, f64)>, (t, w)| match best {
                Some((_, bw)) if bw >= w => best,
                _ => Some((t, w)),
            })
            .map(|(t, _)| t)
    }
}
