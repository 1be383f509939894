//! Coup de grâce (CRB "Helpless Defenders"): a full-round action against a
//! helpless foe within reach of a melee weapon. It provokes attacks of
//! opportunity; the blow hits automatically as a confirmed critical hit
//! (sneak attack added: a helpless foe is denied its Dexterity), and a
//! defender that survives makes a Fortitude save (DC 10 + the damage dealt)
//! or dies. A creature immune to critical hits cannot be dealt one.

use crate::effects::{Context, SaveKind, SaveRoll, Targets};
use crate::rng::Dice;

use super::action::{Action, Reason};
use super::damage::{Extra, roll_damage};
use super::engine::Engine;
use super::event::Event;
use super::log::emit;
use super::odds::Swing;
use super::state::BattleState;

impl BattleState<'_> {
    /// The melee attack `i` would deal a coup de grâce to `t` with, from
    /// where it stands: `t` an enemy on the battlefield, helpless, not immune
    /// to critical hits (the Ooze and Elemental traits, incorporeal: those
    /// immune to precision damage), within reach.
    pub fn coup_de_grace_weapon(&self, i: usize, t: usize) -> Result<usize, Reason> {
        if t >= self.len() || !self.are_enemies(i, t) || self.fighters[t].dead || self.fighters[t].gone {
            return Err(Reason::MissingTarget);
        }
        if !self.is_helpless(t) {
            return Err(Reason::NotHelpless);
        }
        if self.prep.fighters[t].defense.precision_immune {
            return Err(Reason::ImmuneToCriticals);
        }
        self.melee_weapon_from(i, t, self.pos(i)).ok_or(Reason::OutOfRange)
    }
}

impl<R: Dice> Engine<'_, '_, R> {
    /// The coup de grâce action of `i` on `action.target`.
    pub(crate) fn coup_de_grace_action(&mut self, i: usize, action: Action) -> Result<(), Reason> {
        let t = action.target.ok_or(Reason::MissingTarget)?;
        let w = self.st.coup_de_grace_weapon(i, t)?;
        self.provoke_in_place(i);
        if !self.st.is_active(i) || self.st.fighters[t].dead {
            return Ok(());
        }
        let s = self.st.situation(i, w, t, Swing::default());
        let extra = Extra {
            flat: self.st.damage_bonus(i, w, t, &s, Swing::default()),
            precision_d6: self.st.sneak_attack_dice(i, w, t, &s, 0),
            vital: 0,
            mult: 0,
            resize: self.st.resize_of(i),
            half: false,
        };
        let atk = &self.st.prep.fighters[i].offense.attacks[w];
        let shielded = self.st.energy_shielded(t).then(|| self.st.energy_defense(atk, t, atk.vs[t].clone()));
        let mut dmg = roll_damage(atk, shielded.as_ref().unwrap_or(&atk.vs[t]), true, extra, self.rng);
        if dmg.absorbable != [0; 5] {
            self.absorb_energy(t, &mut dmg);
        }
        let hp_before = self.st.fighters[t].hp;
        {
            let out = &mut self.st.fighters[i].out;
            out.hits += 1;
            out.crits += 1;
            out.damage_dealt += dmg.dealt;
        }
        self.st.fighters[t].out.damage_taken += dmg.dealt;
        let weapon = atk.name.clone();
        emit!(self, Event::CoupDeGrace { who: i, target: t, weapon, dealt: dmg.dealt, hp_before });
        self.wound(t, dmg.dealt);
        if self.st.fighters[t].dead {
            return Ok(());
        }
        let dc = 10 + dmg.dealt as i32;
        let ctx = Context::default();
        let bonus = self.st.save_bonus(t, SaveKind::Fort, &ctx);
        let d20 = self.rng.roll(20) as i32;
        let save = SaveRoll::new(d20, bonus, dc);
        emit!(self, Event::CoupDeGraceSave { who: t, d20, bonus, dc, success: save.success });
        self.spend_one_shots(t, Targets::save(SaveKind::Fort), &ctx);
        if !save.success {
            self.slay(t);
        }
        Ok(())
    }
}
