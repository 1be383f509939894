//! Swallow whole (Bestiary, Universal Monster Rules "Swallow Whole"; a
//! gibbering mouther's engulf "functions as swallow whole").
//!
//! - A creature that begins its turn holding a foe with its grab, small
//!   enough (`smaller` size categories below it) and with room inside
//!   (`capacity`), swallows instead of maintaining the hold: a grapple check
//!   at the maintaining bonus ("a new combat maneuver check (as though
//!   attempting to pin the opponent)"), its standard action. A won check
//!   swallows the foe, which takes the mouth's damage ("the opponent takes
//!   bite damage"); a lost one ends the grapple, as a lost maintenance does.
//! - Inside, the foe is off the map (nobody reaches, targets or catches it
//!   in an area; it threatens nobody), keeps the grappled condition, and
//!   takes the printed damage (and effect) at the start of each of the
//!   swallower's turns; the swallower is free and fights on.
//! - On its turn a swallowed foe with a light slashing or piercing melee
//!   weapon cuts: an attack roll against the interior's AC, its damage
//!   (the swallower's damage reduction applies) added until it reaches the
//!   printed hit points, and it is out on a square beside the swallower,
//!   which cannot swallow again (unless it `reforms`). Without such a
//!   weapon it tries to escape the grapple (its CMB or Escape Artist
//!   against the swallower's CMD): a success puts it back in the mouth,
//!   beside the swallower and still grappled.
//! - A swallower that falls (dying, unconscious or dead) lets its foes out.

use crate::dice::DiceExpr;
use crate::effects::{ConditionId, Maneuver};
use crate::rng::Dice;

use super::super::damage::{Extra, roll_damage};
use super::super::engine::Engine;
use super::super::event::{AfflictionEvent, Event, ManeuverOutcome};
use super::super::log::emit;
use super::super::odds::Swing;
use super::super::state::BattleState;
use super::afflictions::GRAB_BONUS;
use super::hold::MAINTAIN_BONUS;

impl BattleState<'_> {
    /// The light slashing or piercing melee weapon `t` can cut its way out with, if any.
    fn cutting_weapon(&self, t: usize) -> Option<usize> {
        let attacks = &self.prep.fighters[t].offense.attacks;
        (0..attacks.len()).find(|&w| {
            let a = &attacks[w];
            a.melee
                && a.light
                && self.is_usable(t, w)
                && a.carried.iter().any(|c| c == "slashing" || c == "piercing")
        })
    }
}

impl<R: Dice> Engine<'_, '_, R> {
    /// Whether `i` may swallow the foe `t` it holds now: it has swallow
    /// whole, room inside, no hole cut in it, and `t` is small enough.
    pub(crate) fn may_swallow(&self, i: usize, t: usize) -> bool {
        let Some(s) = self.st.prep.fighters[i].monster.as_deref().and_then(|m| m.swallow.as_ref()) else {
            return false;
        };
        let m = &self.st.fighters[i].monster;
        (s.reforms || !m.holed)
            && m.swallowing < s.capacity
            && self.st.size(t) as u8 + s.smaller <= self.st.size(i) as u8
    }

    /// `i`'s attempt to swallow the foe `t` its grab holds (its standard
    /// action): a grapple check at the maintaining bonus; a win swallows it
    /// and deals the mouth's damage, a loss ends the grapple.
    pub(crate) fn swallow(&mut self, i: usize, t: usize) {
        let prep = self.st.prep;
        let Some(s) = prep.fighters[i].monster.as_deref().and_then(|m| m.swallow.as_ref()) else { return };
        self.st.fighters[i].monster.held_round = self.st.round;
        let bonus = self.st.cmb(i, Maneuver::Grapple, t) + MAINTAIN_BONUS + GRAB_BONUS;
        if !self.maneuver_roll(i, Maneuver::Grapple, t, bonus, 0).success {
            self.release(t);
            emit!(self, Event::Maneuver { who: t, outcome: ManeuverOutcome::NoLongerGrappled });
            return;
        }
        emit!(
            self,
            Event::Affliction {
                who: i,
                what: AfflictionEvent::Swallows { ability: s.name.clone(), target: t }
            }
        );
        self.st.vacate(t);
        let at = self.st.pos(i);
        let f = &mut self.st.fighters[t];
        f.pos = at;
        f.monster.swallowed_by = Some(i);
        f.monster.cut = 0;
        self.st.fighters[i].monster.swallowing += 1;
        let atk = &prep.fighters[i].offense.attacks[s.attack];
        let dmg = roll_damage(atk, &atk.vs[t], false, Extra::default(), self.rng);
        emit!(
            self,
            Event::Affliction {
                who: i,
                what: AfflictionEvent::Strikes { ability: atk.name.to_string(), target: t }
            }
        );
        self.spell_damage(i, t, dmg.dealt, &[], false, None);
    }

    /// `i`'s damage to `t` inside it (swallowed or engulfed): the named
    /// ability strikes, its dice rolled with their damage types.
    pub(crate) fn strikes_inside(
        &mut self,
        i: usize,
        t: usize,
        name: &str,
        damage: &DiceExpr,
        types: &[String],
    ) {
        emit!(
            self,
            Event::Affliction {
                who: i,
                what: AfflictionEvent::Strikes { ability: name.to_owned(), target: t }
            }
        );
        let n = damage.roll(self.rng).max(0) as u32;
        self.spell_damage(i, t, n, types, false, None);
    }

    /// The start of `i`'s turn: the foes inside it take its damage and effect
    /// (an engulf's, for those it engulfed).
    pub(crate) fn digest(&mut self, i: usize) {
        let prep = self.st.prep;
        let swallow = prep.fighters[i].monster.as_deref().and_then(|m| m.swallow.as_ref());
        self.check_grapples();
        for t in 0..self.st.len() {
            if self.st.fighters[t].monster.swallowed_by != Some(i) || self.st.fighters[t].dead {
                continue;
            }
            if self.st.fighters[t].monster.engulfed {
                // Engulfed by movement (`monster::engulf`).
                self.engulf_hits(i, t);
                continue;
            }
            let Some(s) = swallow else { continue };
            self.strikes_inside(i, t, &s.name, &s.damage, &s.types);
            let Some(e) = &s.effect else { continue };
            if self.st.fighters[t].dead {
                continue;
            }
            if self.st.resists(t, e) {
                let ability = s.name.clone();
                emit!(self, Event::Affliction { who: t, what: AfflictionEvent::Immune { ability } });
            } else {
                self.afflict(i, t, e, &s.name);
            }
        }
        self.check_grapples();
    }

    /// The turn of `t`, swallowed: it cuts its way out with a light slashing
    /// or piercing weapon, or tries to escape the grapple back into the mouth.
    pub(crate) fn swallowed_turn(&mut self, t: usize) {
        let Some(g) = self.st.fighters[t].monster.swallowed_by else { return };
        if self.st.fighters[t].monster.engulfed {
            self.engulfed_turn(t, g);
            return;
        }
        let prep = self.st.prep;
        let Some(s) = prep.fighters[g].monster.as_deref().and_then(|m| m.swallow.as_ref()) else { return };
        if let Some(w) = self.st.cutting_weapon(t) {
            let swing = Swing::default();
            let sit = self.st.situation(t, w, g, swing);
            let d20 = self.d20_for(t);
            let total = d20 + sit.attack;
            let hit = d20 != 1 && (d20 == 20 || total >= s.ac);
            let mut damage = 0;
            if hit {
                let extra = Extra { flat: self.st.damage_bonus(t, w, g, &sit, swing), ..Extra::default() };
                let atk = &prep.fighters[t].offense.attacks[w];
                damage = roll_damage(atk, &atk.vs[g], false, extra, self.rng).dealt;
            }
            let cut = self.st.fighters[t].monster.cut + damage;
            self.st.fighters[t].monster.cut = cut;
            emit!(
                self,
                Event::Affliction {
                    who: t,
                    what: AfflictionEvent::CutsInside {
                        d20,
                        bonus: sit.attack,
                        total,
                        ac: s.ac,
                        damage,
                        cut,
                        needed: s.hp
                    }
                }
            );
            if cut >= s.hp {
                self.leave_body(t, g);
                self.release(t);
                if !s.reforms {
                    self.st.fighters[g].monster.holed = true;
                }
                emit!(self, Event::Affliction { who: t, what: AfflictionEvent::CutsFree { from: g } });
            }
            return;
        }
        let bonus = self.st.escape_bonus(t, g);
        if self.maneuver_roll(t, Maneuver::Escape, g, bonus, 0).success {
            // "Success puts it back in the attacker's mouth": still grappled.
            self.leave_body(t, g);
            emit!(self, Event::Affliction { who: t, what: AfflictionEvent::BackInMouth { from: g } });
        }
    }

    /// `t` leaves the body of `g` for the square beside it nearest where it
    /// was (it stays off the map when none is free, until it moves).
    pub(crate) fn leave_body(&mut self, t: usize, g: usize) {
        self.st.fighters[t].monster.swallowed_by = None;
        self.st.fighters[t].monster.engulfed = false;
        self.st.fighters[t].monster.cut = 0;
        let m = &mut self.st.fighters[g].monster;
        m.swallowing = m.swallowing.saturating_sub(1);
        if let Some(q) = self.st.square_beside(g, t) {
            self.st.relocate(t, q);
        }
    }

    /// A swallowed `t` whose swallower `g` fell or who died inside: the dead
    /// stay, the living come out (ungrappled).
    pub(crate) fn out_of_a_fallen_swallower(&mut self, t: usize, g: usize) {
        if self.st.fighters[t].dead {
            self.st.fighters[t].monster.swallowed_by = None;
            self.st.fighters[t].monster.engulfed = false;
            let m = &mut self.st.fighters[g].monster;
            m.swallowing = m.swallowing.saturating_sub(1);
            return;
        }
        self.leave_body(t, g);
        emit!(self, Event::Affliction { who: t, what: AfflictionEvent::FallsOut { from: g } });
        if self.st.has_condition(t, ConditionId::Grappled) {
            self.release(t);
        }
    }
}
