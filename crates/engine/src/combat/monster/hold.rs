//! A grab's hold on the grappler's later turns, rake and powerful charge
//! (Bestiary, Universal Monster Rules "Grab", "Constrict", "Rake",
//! "Powerful Charge"; CRB "Grapple").
//!
//! - At the start of its turn, a creature holding a foe with its grab either
//!   maintains the hold — a grapple check at its CMB + 5 (CRB: "+5
//!   circumstance bonus on checks made to grapple a foe you are already
//!   grappling") + 4 (UMR "Grab"), its standard action — or lets go (a free
//!   action) and fights on (`prepared::monster::maintains` decides from its
//!   numbers). A won check deals its constrict damage, or without constrict
//!   the damage of the attack that grabbed ("each successful grapple check
//!   it makes during successive rounds automatically deals the damage
//!   indicated for the attack that established the hold"), then its rakes
//!   ("must begin its turn already grappling to use its rake"). A lost check
//!   ends the grapple. One hold is maintained a turn; others are let go.
//!   A foe that died in its grip is released first (`pf1e-rules-12`:
//!   before, a chuul went on maintaining its hold on a dead PC).
//! - A `while_holding` entry acts on the held foe after each maintained
//!   hold's damage and rakes (a chuul's paralytic tentacles, a gibbering
//!   mouther's blood drain): its damage without a roll, then its effect
//!   unless saved. *Simplification*: the chuul's transfer of its victim to
//!   its tentacles (a move action) is not charged; a creature maintaining a
//!   hold stays beside its victim anyway (its standard action is spent), and
//!   its claws do not attack another foe.
//! - Rake also follows a pounce's full attack (UMR "Pounce": "including rake
//!   attacks if the creature also has the rake ability").
//! - Powerful charge: the charge's attack is the named one, at its printed
//!   bonus (the charge's +2 included) and damage.

use crate::effects::{ConditionId, Maneuver};
use crate::rng::Dice;

use super::super::damage::{Extra, roll_damage};
use super::super::engine::Engine;
use super::super::event::{AfflictionEvent, Event, ManeuverOutcome};
use super::super::log::emit;
use super::super::odds::Swing;
use super::afflictions::GRAB_BONUS;

/// The bonus on a check to grapple a foe already grappled (CRB "Grapple").
pub(crate) const MAINTAIN_BONUS: i32 = 5;

impl<R: Dice> Engine<'_, '_, R> {
    /// The start of `i`'s turn: the holds of its grab, maintained or let go.
    pub(crate) fn keep_holds(&mut self, i: usize) {
        let prep = self.st.prep;
        let Some(hold) = prep.fighters[i].monster.as_deref().and_then(|m| m.hold.as_ref()) else { return };
        // A foe that died in its grip is no longer held (a dead creature
        // takes no turn to end its own grapple): nothing to maintain.
        self.check_grapples();
        let mut maintained = false;
        for t in 0..self.st.len() {
            if self.st.fighters[t].grappled_with != Some(i)
                || !self.st.has_condition(t, ConditionId::Grappled)
                || self.st.is_swallowed(t)
            {
                continue;
            }
            if maintained || !hold.maintains || !self.st.can_act(i) {
                self.release(t);
                emit!(self, Event::Affliction { who: i, what: AfflictionEvent::LetsGo { target: t } });
                continue;
            }
            maintained = true;
            if self.may_swallow(i, t) {
                self.swallow(i, t);
                continue;
            }
            self.st.fighters[i].monster.held_round = self.st.round;
            let bonus = self.st.cmb(i, Maneuver::Grapple, t) + MAINTAIN_BONUS + GRAB_BONUS;
            if !self.maneuver_roll(i, Maneuver::Grapple, t, bonus, 0).success {
                self.release(t);
                emit!(self, Event::Maneuver { who: t, outcome: ManeuverOutcome::NoLongerGrappled });
                continue;
            }
            emit!(self, Event::Affliction { who: i, what: AfflictionEvent::MaintainsHold { target: t } });
            self.hold_damage(i, t, true);
            self.rake(i, t);
            self.while_holding(i, t);
        }
    }

    /// What `i`'s `while_holding` entries do to the foe `t` whose hold it
    /// just maintained: their damage without a roll, then their effect
    /// unless `t` is immune or saves (a chuul's paralytic tentacles: Fort
    /// DC 19 or paralyzed 6 rounds, and 1d8+7 from its mandibles).
    pub(crate) fn while_holding(&mut self, i: usize, t: usize) {
        let prep = self.st.prep;
        let Some(m) = prep.fighters[i].monster.as_deref() else { return };
        for h in &m.holding {
            if !self.st.is_present(t)
                || self.st.fighters[t].dead
                || self.st.fighters[t].grappled_with != Some(i)
            {
                return;
            }
            let ability = h.name.to_string();
            emit!(self, Event::Affliction { who: i, what: AfflictionEvent::Strikes { ability, target: t } });
            if let Some(d) = &h.damage {
                let n = d.roll(self.rng).max(0) as u32;
                self.spell_damage(i, t, n, &h.types, false, None);
            }
            let Some(e) = &h.effect else { continue };
            if !self.st.is_present(t) || self.st.fighters[t].dead {
                return;
            }
            if self.resists(t, e) {
                let ability = h.name.to_string();
                emit!(self, Event::Affliction { who: t, what: AfflictionEvent::Immune { ability } });
                continue;
            }
            let saved = match h.save {
                Some(kind) => self.rider_save(i, t, kind, h.dc, e),
                None => false,
            };
            if !saved {
                self.afflict(i, t, e, &h.name);
            }
        }
    }

    /// A grapple check of `i`'s grab won against `t`: its constrict damage,
    /// or, on a maintained hold (`maintained`), the grabbing attack's damage.
    pub(crate) fn hold_damage(&mut self, i: usize, t: usize, maintained: bool) {
        let prep = self.st.prep;
        let Some(hold) = prep.fighters[i].monster.as_deref().and_then(|m| m.hold.as_ref()) else { return };
        if !self.st.is_present(t) || self.st.fighters[t].dead {
            return;
        }
        let (name, n) = match &hold.constrict {
            Some((name, d)) => (name.as_str(), d.roll(self.rng).max(0) as u32),
            None if !maintained => return,
            None => {
                let atk = &prep.fighters[i].attacks[hold.attack];
                let dmg = roll_damage(atk, &atk.vs[t], false, Extra::default(), self.rng);
                (atk.name.as_str(), dmg.dealt)
            }
        };
        emit!(
            self,
            Event::Affliction {
                who: i,
                what: AfflictionEvent::Strikes { ability: name.to_string(), target: t }
            }
        );
        self.spell_damage(i, t, n, &[], false, None);
    }

    /// `i`'s rakes against `t` (each an attack roll of the rake's numbers).
    pub(crate) fn rake(&mut self, i: usize, t: usize) {
        let prep = self.st.prep;
        let Some(r) = prep.fighters[i].monster.as_deref().and_then(|m| m.rake.as_ref()) else { return };
        let swing = Swing { variant: (r.strike + 1) as u8, ..Swing::default() };
        for _ in 0..r.count {
            if !self.st.is_active(t) || !self.st.can_act(i) {
                break;
            }
            self.strike(i, r.base, t, swing);
        }
    }

    /// The attack and swing of `i`'s powerful charge on `t` from where it
    /// stands, if it has one that reaches.
    pub(crate) fn powerful_charge(&self, i: usize, t: usize) -> Option<(usize, Swing)> {
        let pc = self.st.prep.fighters[i].monster.as_deref()?.powerful_charge.as_ref()?;
        let here = self.st.pos(i);
        self.st
            .weapon_reaches(i, pc.base, t, here)
            .then_some((pc.base, Swing { charge: true, variant: (pc.strike + 1) as u8, ..Swing::default() }))
    }
}
