//! Gaze attacks (UMR "Gaze"): at the start of its turn, each creature
//! within range of an enemy's gaze, with line of effect and not blinded,
//! saves against it, once per gazer.
//!
//! Averting the eyes: every creature does (the default a game master
//! plays once the gaze is known), so each exposure has a 50 % chance to
//! need no save. *Simplification*: the gazer's concealment (20 %) against
//! creatures that avert their eyes is not modelled, and nobody closes its
//! eyes entirely.

use crate::effects::Flags;
use crate::rng::Dice;

use super::super::engine::Engine;
use super::super::event::{AfflictionEvent, Event};
use super::super::log::emit;

/// The d100 chance (in percent) that averted eyes avoid a gaze.
pub(crate) const AVERT_CHANCE: u32 = 50;

impl<R: Dice> Engine<'_, '_, R> {
    /// The start of `t`'s turn: the gazes of its enemies.
    pub(crate) fn meet_gazes(&mut self, t: usize) {
        let prep = self.st.prep;
        for g in 0..self.st.len() {
            let Some(gaze) = prep.fighters[g].monster.as_deref().and_then(|m| m.gaze.as_ref()) else {
                continue;
            };
            if !self.st.are_enemies(g, t)
                || !self.st.is_active(g)
                || self.st.fighters[t].dead
                || !self.st.is_active(t)
                || self.st.distance(g, t) > gaze.range_ft
                || self.st.flags(t).has(Flags::BLIND)
                || prep.fighters[t].defense.immune.gaze
                || !self.st.line_of_effect_from(g, self.st.pos(g), t)
                || self.st.resists(t, &gaze.effect)
            {
                continue;
            }
            let d100 = self.rng.roll(100);
            let averted = d100 <= AVERT_CHANCE;
            emit!(
                self,
                Event::Affliction {
                    who: t,
                    what: AfflictionEvent::Gaze { source: g, ability: gaze.name.to_string(), d100, averted }
                }
            );
            if averted {
                continue;
            }
            if !self.rider_save(g, t, gaze.save, gaze.dc, &gaze.effect) {
                let e = gaze.effect.clone();
                self.afflict(g, t, &e, &gaze.name);
            }
        }
    }
}
