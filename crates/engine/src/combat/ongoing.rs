//! What happens at the start of a turn before the combatant acts: the
//! durations its effects count, bleed and recurring damage, conditions that
//! cost it the turn, and confusion's d% table.
//!
//! Order (seed "Saignement", "Confus"): durations of the effects this
//! combatant created; bleed (CRB "Bleed": "at the beginning of its turn");
//! recurring damage of its effects; then, if it still stands, the dying
//! check, and the conditions: a `cant_act` condition loses the turn; a
//! confused creature rolls d%.

use crate::effects::effect::ENERGY;
use crate::effects::{ConditionId, Flags};
use crate::rng::Dice;

use super::engine::Engine;
use super::event::{ConfusedAct, Event, TurnEvent};
use super::log::emit;
use super::odds::Swing;

/// How a confused creature spends its turn (CRB "Confused").
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Confusion {
    /// 01–25: acts normally.
    ActsNormally,
    /// 26–50: does nothing but babble.
    Babbles,
    /// 51–75: deals 1d8 + Strength modifier to itself.
    HurtsItself,
    /// 76–100: attacks the nearest creature.
    AttacksNearest,
}

impl Confusion {
    /// The row of the table for a d% roll.
    pub(crate) const fn from_roll(d100: u32) -> Self {
        match d100 {
            0..=25 => Confusion::ActsNormally,
            26..=50 => Confusion::Babbles,
            51..=75 => Confusion::HurtsItself,
            _ => Confusion::AttacksNearest,
        }
    }
}

impl<R: Dice> Engine<'_, '_, R> {
    /// Durations, bleed and recurring damage at the start of `i`'s turn.
    pub(crate) fn start_of_turn_effects(&mut self, i: usize) {
        self.tick_effects(i);
        if self.st.fighters[i].dead {
            return;
        }
        let bleed = self.st.fighters[i].bleed;
        if bleed > 0 {
            let hp = self.st.fighters[i].hp;
            emit!(self, Event::Bleeds { who: i, amount: bleed, hp });
            self.st.fighters[i].out.damage_taken += bleed;
            self.wound(i, bleed);
        }
        let mut k = 0;
        while k < self.st.fighters[i].effects.len() && !self.st.fighters[i].dead {
            let Some(rec) = self.st.fighters[i].effects[k].effect.recurring.clone() else {
                k += 1;
                continue;
            };
            let name = self.st.fighters[i].effects[k].effect.name.clone();
            let rolled = rec.dice.roll(self.rng).max(0) as u32;
            let spec = &self.st.prep.fighters[i];
            let dealt = match rec.energy.map(usize::from) {
                Some(e) if e < ENERGY.len() && spec.defense.energy_immune >> e & 1 == 1 => 0,
                Some(e) if e < ENERGY.len() && spec.defense.energy_vulnerable >> e & 1 == 1 => {
                    super::prepared::vulnerable_amount(rolled).saturating_sub(spec.defense.energy_resist[e])
                }
                Some(e) if e < ENERGY.len() => rolled.saturating_sub(spec.defense.energy_resist[e]),
                _ => rolled,
            };
            if rec.nonlethal {
                // Pain Strike: its nonlethal event tells the amount.
                self.deal_nonlethal(i, dealt);
                k += 1;
                continue;
            }
            emit!(self, Event::RecurringDamage { who: i, dealt, effect: name.to_string() });
            self.st.fighters[i].out.damage_taken += dealt;
            self.wound(i, dealt);
            k += 1;
        }
    }

    /// `i` starts bleeding `amount` per turn; bleed effects do not stack,
    /// the worse counts (CRB "Bleed").
    pub(crate) fn start_bleeding(&mut self, i: usize, amount: u32) {
        let f = &mut self.st.fighters[i];
        if f.dead || amount <= f.bleed {
            return;
        }
        f.bleed = amount;
        self.set_condition(i, ConditionId::Bleeding);
        emit!(self, Event::StartsBleeding { who: i, amount });
    }

    /// Stops `i`'s bleeding (any healing does, CRB "Bleed"): its bleed, and
    /// the effects that make it bleed for a time (bleeding touch: "or until
    /// stopped with ... any spell or effect that heals damage").
    pub(crate) fn stop_bleeding(&mut self, i: usize) {
        let mut stopped = false;
        if self.st.fighters[i].bleed > 0 {
            self.st.fighters[i].bleed = 0;
            self.clear_condition(i, ConditionId::Bleeding);
            stopped = true;
        }
        while let Some(k) = self.st.fighters[i]
            .effects
            .iter()
            .position(|e| e.effect.recurring.is_some() && e.effect.conditions.has(ConditionId::Bleeding))
        {
            self.remove_effect_at(i, k, super::event::EffectEnd::Healed);
            stopped = true;
        }
        if stopped {
            emit!(self, Event::StopsBleeding { who: i });
        }
    }

    /// The conditions that decide whether `i`, able to act, plays its turn:
    /// a `cant_act` condition loses it; a confused creature rolls on the table.
    pub(crate) fn conditions_allow_turn(&mut self, i: usize) -> bool {
        let flags = self.st.flags(i);
        if flags.has(Flags::CANT_ACT) {
            if self.log.on() {
                let why: Vec<ConditionId> = self
                    .st
                    .conditions(i)
                    .iter()
                    .filter(|&c| crate::effects::definition(c).flags.has(Flags::CANT_ACT))
                    .collect();
                emit!(self, Event::Turn { who: i, what: TurnEvent::LosesTurn { conditions: why } });
            }
            return false;
        }
        if flags.has(Flags::CONFUSED) {
            return self.confused_turn(i);
        }
        true
    }

    /// Confusion's d% at the start of the turn (seed: the "attacks its
    /// attacker" clause is reduced to attacking the nearest creature).
    fn confused_turn(&mut self, i: usize) -> bool {
        let d100 = self.rng.roll(100);
        match Confusion::from_roll(d100) {
            Confusion::ActsNormally => {
                emit!(
                    self,
                    Event::Turn {
                        who: i,
                        what: TurnEvent::Confused { d100, act: ConfusedAct::ActsNormally }
                    }
                );
                true
            }
            Confusion::Babbles => {
                emit!(
                    self,
                    Event::Turn { who: i, what: TurnEvent::Confused { d100, act: ConfusedAct::Babbles } }
                );
                false
            }
            Confusion::HurtsItself => {
                let str_mod = self.st.prep.fighters[i].scores.str_mod + self.st.ability_deltas(i).0;
                let dmg = (self.rng.roll(8) as i32 + str_mod).max(0) as u32;
                let hp = self.st.fighters[i].hp;
                emit!(
                    self,
                    Event::Turn {
                        who: i,
                        what: TurnEvent::Confused { d100, act: ConfusedAct::HurtsItself { damage: dmg, hp } }
                    }
                );
                self.st.fighters[i].out.damage_taken += dmg;
                self.wound(i, dmg);
                false
            }
            Confusion::AttacksNearest => {
                let nearest = (0..self.st.len())
                    .filter(|&j| j != i && self.st.is_active(j) && !self.st.is_swallowed(j))
                    .min_by_key(|&j| (self.st.distance(i, j), j));
                let here = self.st.pos(i);
                let attack = nearest.and_then(|t| {
                    let attacks = &self.st.prep.fighters[i].offense.attacks;
                    (0..attacks.len())
                        .find(|&w| attacks[w].melee && self.st.weapon_reaches(i, w, t, here))
                        .map(|w| (t, w))
                });
                match attack {
                    Some((t, w)) => {
                        emit!(
                            self,
                            Event::Turn {
                                who: i,
                                what: TurnEvent::Confused { d100, act: ConfusedAct::Attacks { target: t } }
                            }
                        );
                        self.strike(i, w, t, Swing::default());
                    }
                    None => emit!(
                        self,
                        Event::Turn {
                            who: i,
                            what: TurnEvent::Confused { d100, act: ConfusedAct::NobodyInReach }
                        }
                    ),
                }
                false
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_confusion_table_follows_the_crb() {
        assert_eq!(Confusion::from_roll(1), Confusion::ActsNormally);
        assert_eq!(Confusion::from_roll(25), Confusion::ActsNormally);
        assert_eq!(Confusion::from_roll(26), Confusion::Babbles);
        assert_eq!(Confusion::from_roll(50), Confusion::Babbles);
        assert_eq!(Confusion::from_roll(51), Confusion::HurtsItself);
        assert_eq!(Confusion::from_roll(75), Confusion::HurtsItself);
        assert_eq!(Confusion::from_roll(76), Confusion::AttacksNearest);
        assert_eq!(Confusion::from_roll(100), Confusion::AttacksNearest);
    }
}
