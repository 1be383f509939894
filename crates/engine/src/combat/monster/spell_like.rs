//! A spell's effect used as a supernatural ability (Bestiary, Golem, Stone
//! "Slow": "A stone golem can use a slow effect, as the spell, as a free
//! action once every 2 rounds. The effect has a range of 10 feet in a burst
//! centered on the golem and a duration of 7 rounds, requiring a DC 17 Will
//! save to negate"; Golem, Clay "Haste": "After it has engaged in at least 1
//! round of combat, a clay golem can haste itself once per day as a free
//! action. The effect lasts 3 rounds and is otherwise the same as the spell").
//!
//! - A free action at the start of the creature's turn (before it acts),
//!   when it can act, from round `after_rounds + 1`, `every` rounds after
//!   its last use, while it has uses left.
//! - A burst (`burst_ft` > 0) catches every other creature within that
//!   distance; the creature uses it when it catches more enemies able to
//!   fight than allies. On itself (0), it uses it when an enemy able to
//!   fight is within one move and its reach.
//! - The spell's effects apply as the spell's (its save, at `dc`; on itself
//!   no save), at caster level `rounds`, without spell resistance or the
//!   creature's immunity to magic (a supernatural ability).

use crate::rng::Dice;

use super::super::engine::Engine;
use super::super::event::{AfflictionEvent, Event};
use super::super::log::emit;
use super::super::spells::{Cast, Meeting};

impl<R: Dice> Engine<'_, '_, R> {
    /// The start of `i`'s turn: the spell effects it uses now.
    pub(crate) fn spell_effects_turn(&mut self, i: usize) {
        let prep = self.st.prep;
        let Some(m) = prep.fighters[i].monster.as_deref() else { return };
        for (k, fx) in m.spell_effects.iter().enumerate() {
            let state = &self.st.fighters[i].monster;
            let next = state.spell_next.get(k).copied().unwrap_or(0);
            let used = state.spell_used.get(k).copied().unwrap_or(0);
            if !self.st.can_act(i)
                || self.st.round <= fx.after_rounds
                || self.st.round < next
                || used >= fx.uses
                || usize::from(fx.spell) >= prep.spells.len()
            {
                continue;
            }
            let targets = self.spell_effect_targets(i, fx.burst_ft);
            if targets.is_empty() {
                continue;
            }
            let state = &mut self.st.fighters[i].monster;
            let n = m.spell_effects.len();
            state.spell_next.resize(n, 0);
            state.spell_used.resize(n, 0);
            state.spell_next[k] = self.st.round + fx.every;
            state.spell_used[k] += 1;
            emit!(
                self,
                Event::Affliction { who: i, what: AfflictionEvent::Uses { ability: fx.name.clone() } }
            );
            let cast = Cast {
                caster: i,
                spell: fx.spell,
                slot: 0,
                metamagic: Default::default(),
                target: None,
                point: None,
                option: 0,
                dc: fx.dc,
                cl: fx.rounds,
                weapon: None,
                extract: false,
            };
            for t in targets {
                if !self.st.is_present(t) || self.st.fighters[t].dead {
                    continue;
                }
                let mut meeting = Meeting { willing: t == i, ..Meeting::default() };
                self.affect(&Cast { target: Some(t), ..cast }, t, &mut meeting, None);
            }
        }
    }

    /// Who `i`'s spell effect of burst `burst_ft` (0: itself) would catch
    /// now, if it pays to use it (see the module's text); else nobody.
    fn spell_effect_targets(&self, i: usize, burst_ft: u32) -> Vec<usize> {
        let st = &self.st;
        let foe = |t: usize| st.are_enemies(i, t) && st.is_active(t) && !st.is_swallowed(t);
        if burst_ft == 0 {
            let reach = st.prep.fighters[i].offense.attacks.iter().map(|a| a.reach_max).max().unwrap_or(5);
            let near = (0..st.len()).any(|t| foe(t) && st.distance(i, t) <= st.move_budget(i) + reach);
            return if near { vec![i] } else { Vec::new() };
        }
        let caught: Vec<usize> = (0..st.len())
            .filter(|&t| {
                t != i
                    && st.is_present(t)
                    && !st.fighters[t].dead
                    && !st.is_swallowed(t)
                    && st.distance(i, t) <= burst_ft
            })
            .collect();
        let enemies = caught.iter().filter(|&&t| foe(t)).count();
        let allies = caught.iter().filter(|&&t| !st.are_enemies(i, t) && st.is_active(t)).count();
        if enemies > allies { caught } else { Vec::new() }
    }
}
