//! Gunslinger deeds (UC "Gunslinger: Deeds"), paid with grit: up close and
//! deadly (pistolero: 1 grit, declared before an attack: on a firearm hit
//! +1d6 precision damage, +1d6 at 5th level and every five levels; a miss
//! grazes for half), deadeye (1 grit per range increment beyond the first:
//! that attack is resolved against touch AC), quick clear (a standard
//! action with at least 1 grit, or a move action spending 1: removes the
//! broken condition a misfire gave a firearm), gunslinger's dodge (1 grit,
//! an immediate action when a ranged attack targets her: +2 AC against it;
//! the engine takes it whenever grit and the immediate action allow),
//! pistol-whip (a standard action, 1 grit: a melee bash with the butt of a
//! firearm, `pistol_whip`).

use crate::effects::{ConditionId, Maneuver};
use crate::feats::Deed;
use crate::model::Size;
use crate::rng::Dice;

use super::super::action::{Action, ClassAbilityUse, Reason, Slot};
use super::super::engine::Engine;
use super::super::event::{AcKind, Attack, AttackStep, ClassAbilityEvent, Event, ManeuverOutcome};
use super::super::log::emit;
use super::super::state::BattleState;

/// Declared deeds waiting for the next firearm attack (`Fighter::deeds` bits).
pub(crate) const UP_CLOSE: u8 = 1;
/// Deadeye declared.
pub(crate) const DEADEYE: u8 = 2;

impl BattleState<'_> {
    /// The budget slot of a deed: quick clear is a standard action (a move
    /// action when it spends grit), pistol-whip a standard action,
    /// gunslinger's dodge an immediate one, the others free declarations
    /// made with an attack.
    pub(crate) fn deed_slot(&self, i: usize, deed: Deed) -> Slot {
        match deed {
            Deed::QuickClear if self.fighters[i].class.pools.grit > 0 => Slot::Move,
            Deed::QuickClear | Deed::PistolWhip => Slot::Standard,
            Deed::GunslingersDodge => Slot::Swift,
            Deed::UpCloseAndDeadly | Deed::Deadeye => Slot::Free,
        }
    }

    /// The firearm a pistol-whip of `i` swings: its first firearm attack
    /// still in hand (not sundered or dropped). A misfired (broken) or
    /// empty firearm still makes a club: that is when the deed pays most.
    pub fn pistol_whip_firearm(&self, i: usize) -> Option<usize> {
        let attacks = &self.prep.fighters[i].offense.attacks;
        let dropped = self.fighters[i].gear.dropped;
        (0..attacks.len().min(64))
            .find(|&w| attacks[w].firearm && !self.sundered(i, w) && dropped >> w & 1 == 0)
    }

    /// A pistol-whip of `i` with firearm `w`: its attack bonus (BAB,
    /// Strength, size modifier), its damage die (by the firearm's handedness and `i`'s size) and the Strength
    /// part of its damage (no enhancement bonus: the model has none).
    pub fn pistol_whip_numbers(&self, i: usize, w: usize) -> (i32, u32, i32) {
        let spec = &self.prep.fighters[i];
        let str_mod = spec.scores.str_mod + self.ability_deltas(i).0;
        let two_handed = spec.offense.attacks[w].two_handed;
        let small = self.size(i) as u8 <= Size::Small as u8;
        let die = match (two_handed, small) {
            (false, false) => 6,
            (false, true) => 4,
            (true, false) => 10,
            (true, true) => 8,
        };
        let str_damage = if two_handed && str_mod > 0 { str_mod + str_mod / 2 } else { str_mod };
        (spec.offense.bab + str_mod + self.size(i).modifier(), die, str_damage)
    }
}

impl<R: Dice> Engine<'_, '_, R> {
    /// A deed (`action.ability`).
    pub(crate) fn deed_action(&mut self, i: usize, action: Action) -> Result<(), Reason> {
        let prep = self.st.prep;
        let spec = prep.fighters[i].abilities.as_deref().ok_or(Reason::NoAbility)?;
        let Some(ClassAbilityUse::Deed(deed)) = action.ability else { return Err(Reason::NoAbility) };
        if !spec.has_deed(deed) {
            return Err(Reason::NoAbility);
        }
        let grit = self.st.fighters[i].class.pools.grit;
        match deed {
            Deed::UpCloseAndDeadly | Deed::Deadeye => {
                if grit == 0 {
                    return Err(Reason::NoAbility);
                }
                self.st.fighters[i].class.pools.grit -= 1;
                let bit = if deed == Deed::UpCloseAndDeadly { UP_CLOSE } else { DEADEYE };
                self.st.fighters[i].turn.deeds |= bit;
                emit!(
                    self,
                    Event::ClassAbility {
                        who: i,
                        what: ClassAbilityEvent::GritSpent {
                            deed: deed.name().to_string(),
                            grit: u32::from(grit - 1)
                        }
                    }
                );
            }
            Deed::QuickClear => {
                let Some(w) = (0..prep.fighters[i].offense.attacks.len()).find(|&w| {
                    prep.fighters[i].offense.attacks[w].firearm
                        && self.st.is_broken(i, w)
                        && !self.st.sundered(i, w)
                }) else {
                    return Err(Reason::NothingToRepair);
                };
                if grit == 0 {
                    return Err(Reason::NoAbility);
                }
                if action.slot() == Slot::Move {
                    self.st.fighters[i].class.pools.grit -= 1;
                }
                self.st.fighters[i].gear.broken &= !(1u64 << w);
                emit!(
                    self,
                    Event::ClassAbility {
                        who: i,
                        what: ClassAbilityEvent::QuickClear {
                            weapon: prep.fighters[i].offense.attacks[w].name.clone(),
                            grit: u32::from(self.st.fighters[i].class.pools.grit)
                        }
                    }
                );
            }
            Deed::PistolWhip => return self.pistol_whip(i, action),
            Deed::GunslingersDodge => return Err(Reason::UnsupportedKind),
        }
        Ok(())
    }

    /// Pistol-whip (UC "Deeds", 3rd level): 1 grit and a standard action for
    /// a melee attack with the butt of the first usable firearm against an
    /// adjacent foe. The gunslinger is proficient with it: BAB, size and
    /// Strength on the roll, plus the firearm's enhancement bonus (the model
    /// keeps no enhancement bonus on weapons: 0). 1d6 bludgeoning for a
    /// one-handed firearm, 1d10 two-handed (1d4/1d8 when Small), plus
    /// Strength (×1½ for a two-handed firearm, the rule of two-handed melee
    /// weapons); a threat on a natural 20 only, ×2.
    /// On a hit a free trip: a free action, so it provokes nothing, and the
    /// deed grants it without Improved Trip; like a monster's trip on a hit
    /// a failure never trips her back. The roll meets the target's AC
    /// against melee (prone, denied Dexterity); flanking and the other
    /// situational modifiers of a weapon attack are not applied.
    fn pistol_whip(&mut self, i: usize, action: Action) -> Result<(), Reason> {
        let prep = self.st.prep;
        let t = self.enemy_target(i, action)?;
        let w = self.st.pistol_whip_firearm(i).ok_or(Reason::NoWeapon)?;
        if self.st.distance(i, t) > 5 {
            return Err(Reason::OutOfRange);
        }
        let grit = self.st.fighters[i].class.pools.grit;
        if grit == 0 {
            return Err(Reason::NoAbility);
        }
        self.st.fighters[i].class.pools.grit -= 1;
        emit!(
            self,
            Event::ClassAbility {
                who: i,
                what: ClassAbilityEvent::GritSpent {
                    deed: Deed::PistolWhip.name().to_string(),
                    grit: u32::from(grit - 1)
                }
            }
        );
        let firearm = &prep.fighters[i].offense.attacks[w];
        let (bonus, die, str_damage) = self.st.pistol_whip_numbers(i, w);
        let denied = self.st.denied_dex(t, Some(i));
        let ac = self.st.armor_class(i, t, true, false, denied, false, 0);
        let d20 = self.d20_for(i);
        let total = d20 + bonus;
        let hit = d20 != 1 && (d20 == 20 || total >= ac);
        let mut ev = self.log.on().then(|| {
            Box::new(Attack {
                who: i,
                target: t,
                weapon: format!("pistol-whip ({})", firearm.name),
                aoo: false,
                d20,
                bonus,
                total,
                ac_kind: AcKind::Normal,
                ac,
                notes: Vec::new(),
                steps: Vec::new(),
            })
        });
        if !hit {
            if let Some(mut ev) = ev {
                ev.steps.push(AttackStep::Miss { misfire: false });
                self.log.push(self.st.round, Event::Attack(ev));
            }
            self.after_attack(i, t, false);
            return Ok(());
        }
        let mut crit = false;
        if d20 == 20 {
            let c20 = self.rng.roll(20) as i32;
            let ctotal = c20 + bonus;
            crit = c20 != 1 && (c20 == 20 || ctotal >= ac);
            if let Some(ev) = ev.as_mut() {
                ev.steps.push(AttackStep::Threat {
                    d20: c20,
                    bonus,
                    total: ctotal,
                    crit_mult: crit.then_some(2),
                });
            }
        } else if let Some(ev) = ev.as_mut() {
            ev.steps.push(AttackStep::Hit);
        }
        let mult = if crit { 2 } else { 1 };
        let rolled: i32 = (0..mult).map(|_| self.rng.roll(die) as i32 + str_damage).sum();
        // A hit deals at least 1 point (CRB "Damage"); bludgeoning meets the damage reduction it does not bypass.
        let rolled = rolled.max(1) as u32;
        let carried = ["bludgeoning".to_string()];
        let dr = prep.fighters[t].defense.dr.as_ref().map_or(0, |d| d.against(&carried));
        let dealt = rolled.saturating_sub(dr);
        let (hp_before, temp_before) = (self.st.fighters[t].hp, self.st.fighters[t].temp_hp);
        self.st.fighters[i].out.damage_dealt += dealt;
        self.st.fighters[t].out.damage_taken += dealt;
        self.wound(t, dealt);
        if let Some(mut ev) = ev {
            let temp = temp_before - self.st.fighters[t].temp_hp;
            ev.steps.push(AttackStep::Damage {
                dealt,
                rolled,
                hp_before,
                hp_after: self.st.fighters[t].hp,
                temp,
            });
            self.log.push(self.st.round, Event::Attack(ev));
        }
        self.pistol_whip_trip(i, t);
        self.after_attack(i, t, true);
        Ok(())
    }

    /// The free trip of a pistol-whip that hit: no attack of opportunity,
    /// the trip's size limit, and no fall on a failure.
    fn pistol_whip_trip(&mut self, i: usize, t: usize) {
        if self.st.is_prone(t) || !self.st.is_active(t) || self.st.size(t) as u8 >= self.st.size(i) as u8 + 2
        {
            return;
        }
        let bonus = self.st.cmb(i, Maneuver::Trip, t);
        if self.maneuver_roll(i, Maneuver::Trip, t, bonus, 0).success {
            self.set_condition(t, ConditionId::Prone);
            emit!(self, Event::Maneuver { who: t, outcome: ManeuverOutcome::Tripped });
        }
    }

    /// Gunslinger's dodge against a ranged attack on `t`: the AC bonus it
    /// buys (2), spending 1 grit and the immediate action, or 0.
    pub(crate) fn gunslingers_dodge(&mut self, t: usize) -> i32 {
        let prep = self.st.prep;
        let has = prep.fighters[t].abilities.as_deref().is_some_and(|a| a.has_deed(Deed::GunslingersDodge));
        if !has || self.st.fighters[t].class.pools.grit == 0 || !self.can_take_immediate(t) {
            return 0;
        }
        if self.immediate(t).is_err() {
            return 0;
        }
        self.st.fighters[t].class.pools.grit -= 1;
        emit!(
            self,
            Event::ClassAbility {
                who: t,
                what: ClassAbilityEvent::GunslingersDodge {
                    grit: u32::from(self.st.fighters[t].class.pools.grit)
                }
            }
        );
        2
    }
}
