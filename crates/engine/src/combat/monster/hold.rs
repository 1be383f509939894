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
//!   ends the grapple. A constriction's `plus` components (an ochre
//!   jelly's "2d4+3 plus 1d4 acid") follow its damage, each through the
//!   target's energy immunity and resistance and its `spares`. One hold
//!   is maintained a turn; others are let go. A foe that died in its grip is released first (`pf1e-rules-12`:
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

use crate::dice::DiceExpr;
use crate::effects::{ConditionId, Maneuver};
use crate::model::PhysicalAbility;
use crate::rng::Dice;

use super::super::damage::{Extra, roll_damage};
use super::super::engine::Engine;
use super::super::event::{AfflictionEvent, CombatEvent, Event, ManeuverOutcome};
use super::super::log::emit;
use super::super::odds::{Swing, hit_chance};
use super::super::prepared::monster::Effect;
use super::super::state::BattleState;

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
            let keeps = if hold.own { self.st.grapple_pays(i, t) } else { hold.maintains };
            if maintained || !keeps || !self.st.can_act(i) {
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
            let bonus = self.st.cmb(i, Maneuver::Grapple, t) + MAINTAIN_BONUS + hold.bonus;
            if !self.maneuver_roll(i, Maneuver::Grapple, t, bonus, 0).success {
                self.release(t);
                emit!(self, Event::Maneuver { who: t, outcome: ManeuverOutcome::NoLongerGrappled });
                continue;
            }
            emit!(self, Event::Affliction { who: i, what: AfflictionEvent::MaintainsHold { target: t } });
            if hold.pins && !self.st.has_condition(t, ConditionId::Pinned) {
                self.set_condition(t, ConditionId::Pinned);
                emit!(self, Event::Affliction { who: i, what: AfflictionEvent::Pins { target: t } });
            }
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
            if h.heals > 0 && h.effect.as_ref().is_none_or(|e| !self.st.resists(t, e)) {
                self.drainer_heals(i, h.heals, &h.name);
            }
            let Some(e) = &h.effect else { continue };
            if !self.st.is_present(t) || self.st.fighters[t].dead {
                return;
            }
            if self.st.resists(t, e) {
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

    /// A holder's drain heals it `n` hit points, or gives it `n` temporary
    /// hit points when it is unhurt (a vampire's blood drain: "heals 5 hit
    /// points or gains 5 temporary hit points").
    fn drainer_heals(&mut self, i: usize, n: u32, name: &str) {
        let f = &self.st.fighters[i];
        if f.hp < self.st.prep.fighters[i].hp_max || f.nonlethal > 0 {
            self.heal_logged(i, n);
        } else {
            self.gain_temp_hp(i, n as i32, name);
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
                // A grapple of its own deals no damage by itself.
                let Some(k) = hold.attack else { return };
                let atk = &prep.fighters[i].offense.attacks[k];
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
        if hold.constrict.is_some() {
            // Bludgeoning (UMR "Constrict"): the held foe's damage
            // reduction applies, bypassed as the grabbing attack's would be.
            let carried = &hold.constrict_carried;
            let dr = prep.fighters[t].defense.dr.as_ref().map_or(0, |d| d.against(carried)).min(n);
            if dr > 0 {
                emit!(self, Event::Combat { who: t, what: CombatEvent::DamageReduction { absorbed: dr } });
            }
            let dr = dr + self.effect_dr(t, carried, n - dr);
            self.spell_damage(i, t, n - dr, &["bludgeoning".to_owned()], false, None);
        } else {
            self.spell_damage(i, t, n, &[], false, None);
        }
        // A constriction's further damage (an ochre jelly's acid), per
        // component: its energy immunity and resistance, and whom it spares.
        if hold.constrict.is_some() {
            for p in &hold.constrict_plus {
                if self.st.fighters[t].dead || self.st.spared_by(t, &p.spares) {
                    continue;
                }
                let n = p.dice.roll(self.rng).max(0) as u32;
                self.spell_damage(i, t, n, &p.types, false, None);
            }
        }
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

/// Hit points a negative level costs (UMR "Energy Drain"), as the grapple
/// choice counts it.
const LEVEL_WORTH: f64 = super::super::carry::HP_PER_NEGATIVE_LEVEL as f64;

impl BattleState<'_> {
    /// Whether damage that spares `spares` (normalized creature types, or
    /// `incorporeal`; `DamageComponent::spares`) leaves `t` untouched.
    pub(crate) fn spared_by(&self, t: usize, spares: &[String]) -> bool {
        let nature = &self.prep.fighters[t].nature;
        spares.iter().any(|s| {
            if s == "incorporeal" { self.incorporeal(t) } else { nature.ctype.is_some_and(|c| c.name() == s) }
        })
    }

    /// Whether `i`'s grapple of its own (a `grapple` entry) pays against `t`:
    /// what a round of holding `t` is worth — the damage and effects of its
    /// `while_holding` entries (`hold_worth`) — times the chance of holding
    /// it that round (the check to start the grapple, unless `t` is already
    /// held, times the maintenance check), is at least what its melee
    /// attacks are worth against `t` (`attack_worth`). See
    /// `docs/rules/monsters.md` "Grapples of their own".
    pub(crate) fn grapple_pays(&self, i: usize, t: usize) -> bool {
        let Some(hold) = self.prep.fighters[i].monster.as_deref().and_then(|m| m.hold.as_ref()) else {
            return false;
        };
        let worth = self.hold_worth(i, t);
        if worth <= 0.0 {
            return false;
        }
        let cmb = self.cmb(i, Maneuver::Grapple, t) + hold.bonus;
        let cmd = self.cmd(t, Maneuver::Grapple, i);
        let start = if self.fighters[t].grappled_with == Some(i) { 1.0 } else { hit_chance(cmb, cmd) };
        let keep = hit_chance(cmb + MAINTAIN_BONUS, cmd);
        start * keep * worth >= self.attack_worth(i, t)
    }

    /// Hit points a round of holding `t` is worth to `i`: each
    /// `while_holding` entry's mean damage, its effect's worth (halved with
    /// a save), and the hit points it heals `i` (up to its wounds).
    pub(crate) fn hold_worth(&self, i: usize, t: usize) -> f64 {
        let Some(m) = self.prep.fighters[i].monster.as_deref() else { return 0.0 };
        let wounds = f64::from((self.hp_max(i) - self.hp(i)).max(0));
        m.holding
            .iter()
            .map(|h| {
                let resisted = h.effect.as_ref().is_some_and(|e| self.resists(t, e));
                let damage = h.damage.as_ref().map_or(0.0, DiceExpr::mean);
                let effect = match (&h.effect, resisted) {
                    (Some(e), false) => self.effect_worth(t, e) * if h.save.is_some() { 0.5 } else { 1.0 },
                    _ => 0.0,
                };
                let heals = if resisted { 0.0 } else { f64::from(h.heals).min(wounds) };
                damage + effect + heals
            })
            .sum()
    }

    /// Hit points `i`'s melee attacks are worth against `t` in a round:
    /// each usable melee entry, `count` times, its chance to hit times its
    /// mean damage and the worth of its riders (halved with a save).
    pub(crate) fn attack_worth(&self, i: usize, t: usize) -> f64 {
        let spec = &self.prep.fighters[i];
        let riders = spec.monster.as_deref().map_or(&[][..], |m| &m.riders[..]);
        (0..spec.offense.attacks.len())
            .filter(|&w| spec.offense.attacks[w].melee && self.is_usable(i, w))
            .map(|w| {
                let a = &spec.offense.attacks[w];
                let s = self.situation(i, w, t, Swing::default());
                let on_hit: f64 = riders
                    .iter()
                    .filter(|r| w < 64 && r.attacks >> w & 1 == 1 && !self.resists(t, &r.effect))
                    .map(|r| self.effect_worth(t, &r.effect) * if r.save.is_some() { 0.5 } else { 1.0 })
                    .sum();
                f64::from(a.count.max(1)) * hit_chance(s.attack, s.ac) * (a.mean_damage + on_hit)
            })
            .sum()
    }

    /// Hit points effect `e` is worth against `t`: a negative level its 5
    /// and a Hit Die's share of `t`'s full hit points (as many levels as
    /// Hit Dice kill: each is that share of the way; the foe's hit points
    /// left when the levels reach its Hit Dice),
    /// Constitution damage half its mean times `t`'s Hit Dice (a modifier
    /// point per 2), any other ability damage a hit point a point; other
    /// effects nothing.
    fn effect_worth(&self, t: usize, e: &Effect) -> f64 {
        let hd = self.prep.fighters[t].nature.hd.max(1);
        match e {
            Effect::EnergyDrain(l) if self.fighters[t].monster.negative_levels + l >= hd => {
                f64::from(self.hp(t).max(0))
            }
            Effect::EnergyDrain(l) => {
                f64::from(*l) * (LEVEL_WORTH + f64::from(self.hp_max(t).max(0)) / f64::from(hd))
            }
            Effect::AbilityDamage(PhysicalAbility::Con, d)
            | Effect::AbilityDrain(PhysicalAbility::Con, d, _) => d.mean() / 2.0 * f64::from(hd),
            Effect::AbilityDamage(_, d) | Effect::AbilityDrain(_, d, _) => d.mean(),
            _ => 0.0,
        }
    }
}
