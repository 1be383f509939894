//! Pounce and rend (Bestiary, Universal Monster Rules).
//!
//! - Pounce: a creature that charges makes a full attack (each attack at
//!   the charge's +2) instead of one attack.
//! - Rend: when two hits of its rending attack (two claws) strike one foe
//!   in one round, it deals the rend damage once more (UMR "Rend": "once
//!   per round"). *Simplification*: rend damage meets energy resistance and
//!   immunity but not damage reduction.

use crate::rng::Dice;

use super::super::engine::Engine;
use super::super::event::{AfflictionEvent, Event};
use super::super::log::emit;

impl<R: Dice> Engine<'_, '_, R> {
    /// Whether `i` makes a full attack at the end of a charge.
    pub(crate) fn pounces(&self, i: usize) -> bool {
        self.st.prep.fighters[i].monster.as_deref().is_some_and(|m| m.pounce)
    }

    /// A hit of attack `w` of `a` on `t`: the second one of the rending attack this round rends.
    pub(crate) fn rend_hit(&mut self, a: usize, w: usize, t: usize) {
        let prep = self.st.prep;
        let Some(rend) = prep.fighters[a].monster.as_deref().and_then(|m| m.rend.as_ref()) else { return };
        if rend.attack != w || !self.st.is_present(t) {
            return;
        }
        let round = self.st.round;
        let state = &mut self.st.fighters[a].monster;
        if state.rend_round != round {
            state.rend_round = round;
            state.rend_hits.clear();
        }
        let hits = match state.rend_hits.iter_mut().find(|(x, _)| *x == t) {
            Some((_, n)) => {
                *n += 1;
                *n
            }
            None => {
                state.rend_hits.push((t, 1));
                1
            }
        };
        // Once per round: the second hit on any foe rends, later ones do not.
        if hits == 2 && !state.rend_hits.iter().any(|&(x, n)| x != t && n >= 2) {
            let n = rend.damage.roll(self.rng).max(0) as u32;
            emit!(
                self,
                Event::Affliction {
                    who: a,
                    what: AfflictionEvent::Rends { ability: rend.name.to_string(), target: t }
                }
            );
            self.spell_damage(a, t, n, &rend.types, false, None);
        }
    }
}
