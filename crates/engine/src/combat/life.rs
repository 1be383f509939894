//! Life states: disabled at 0, dying below, stabilization, death (CRB "Injury and Death").

use crate::rng::Dice;

use super::engine::Engine;
use super::event::{AfflictionEvent, Event, LifeChange, StabilizationRoll};
use super::log::emit;
use super::state::LifeState;

/// DC of the Constitution check a dying creature makes each turn.
const STABILIZE_DC: i32 = 10;

/// The recorded stabilization roll.
fn roll(d20: i32, con_mod: i32, total: i32) -> StabilizationRoll {
    StabilizationRoll { d20, con_mod, total, dc: STABILIZE_DC }
}

impl<R: Dice> Engine<'_, '_, R> {
    /// Removes `amount` hit points from `i` (a wound), temporary hit points
    /// first, and settles its life state; while its regeneration works the
    /// damage is nonlethal instead (`combat::monster`).
    pub(crate) fn wound(&mut self, i: usize, amount: u32) {
        if amount > 0 && self.st.regenerating(i) && !self.st.fighters[i].dead {
            emit!(
                self,
                Event::Affliction { who: i, what: AfflictionEvent::RegenerationNonlethal { amount } }
            );
            self.deal_nonlethal(i, amount);
            return;
        }
        self.wound_lethal(i, amount);
        if amount > 0 && self.st.fighters[i].mobility.alt > 0 {
            self.wounded_aloft(i);
        }
    }

    /// A wound regeneration cannot turn into nonlethal damage (a death
    /// effect, ability damage, negative levels).
    pub(crate) fn wound_lethal(&mut self, i: usize, amount: u32) {
        if amount == 0 || self.st.fighters[i].dead {
            return;
        }
        let f = &mut self.st.fighters[i];
        let mut amount = amount as i32;
        if f.temp_hp > 0 {
            let absorbed = f.temp_hp.min(amount);
            f.temp_hp -= absorbed;
            amount -= absorbed;
            if f.temp_hp == 0 {
                f.temp_hp_from = None;
            }
            if amount == 0 {
                return;
            }
        }
        let before = self.st.life(i);
        self.st.fighters[i].hp -= amount;
        if self.st.fighters[i].fx & crate::effects::Behaviours::ENDS_ON_DAMAGE != 0 {
            self.wounded_wakes(i);
        }
        if before == LifeState::Stable {
            // A new wound on a stable creature starts it dying again.
            self.st.fighters[i].stable = false;
        }
        self.settle(i, before);
    }

    /// Applies death thresholds after a hit point loss and logs any change of state.
    pub(crate) fn settle(&mut self, i: usize, before: LifeState) {
        let hp = self.st.fighters[i].hp;
        let spec = &self.st.prep.fighters[i];
        let dead = if self.st.dies_at_zero(i) { hp <= 0 } else { hp <= -spec.scores.con_score.unwrap_or(0) };
        if dead {
            self.st.fighters[i].dead = true;
            self.st.vacate(i);
            let change = if spec.nature.destroyed_at_zero { LifeChange::Destroyed } else { LifeChange::Dies };
            emit!(self, Event::Life { who: i, change, hp });
            self.end_challenges_on(i);
            self.master_falls(i);
            return;
        }
        let after = self.st.life(i);
        if after == before {
            return;
        }
        match after {
            LifeState::Disabled if hp < 0 => {
                emit!(self, Event::Life { who: i, change: LifeChange::FightsOn, hp })
            }
            LifeState::Disabled => emit!(self, Event::Life { who: i, change: LifeChange::Disabled, hp }),
            LifeState::Dying if before == LifeState::Stable => {
                emit!(self, Event::Life { who: i, change: LifeChange::DyingAgain, hp })
            }
            LifeState::Dying => emit!(self, Event::Life { who: i, change: LifeChange::Dying, hp }),
            _ => {}
        }
        // A challenge lasts until its foe is dead or unconscious (APG "Challenge").
        if matches!(after, LifeState::Dying | LifeState::Stable) {
            self.end_challenges_on(i);
            // A master that falls gives no more orders (`monster::dominate`).
            self.master_falls(i);
            // So does a barbarian's rage when it falls unconscious (CRB "Rage").
            self.rage_falls(i, after);
        }
    }

    /// The start-of-turn Constitution check of a dying creature: DC 10,
    /// d20 + Con modifier − negative hit points; a natural 20 succeeds.
    /// Success stabilizes, failure loses 1 hit point. A dying creature that
    /// is bleeding fails without a roll (seed: "agonisant + saignement").
    pub(crate) fn dying_check(&mut self, i: usize) {
        let hp = self.st.fighters[i].hp;
        if self.st.fighters[i].bleed > 0 {
            emit!(self, Event::Stabilization { who: i, roll: None, stable: false, hp });
            self.st.fighters[i].hp -= 1;
            self.settle(i, LifeState::Dying);
            return;
        }
        let con_mod = self.st.prep.fighters[i].scores.con_mod;
        let d20 = self.rng.roll(20) as i32;
        let total = d20 + con_mod + hp;
        if d20 == 20 || total >= STABILIZE_DC {
            self.st.fighters[i].stable = true;
            emit!(
                self,
                Event::Stabilization { who: i, roll: Some(roll(d20, con_mod, total)), stable: true, hp }
            );
        } else {
            emit!(
                self,
                Event::Stabilization { who: i, roll: Some(roll(d20, con_mod, total)), stable: false, hp }
            );
            self.st.fighters[i].hp -= 1;
            self.settle(i, LifeState::Dying);
        }
    }

    /// A disabled creature that completes a standard (or full-round) action
    /// takes 1 damage afterwards and starts dying (CRB "Disabled").
    pub(crate) fn exert_if_disabled(&mut self, i: usize) {
        // Below 0 with ferocity: its hit point a round is lost at the start
        // of its turn (`ferocity_turn`), not per action.
        if self.st.life(i) != LifeState::Disabled || self.st.fighters[i].hp < 0 {
            return;
        }
        emit!(self, Event::Strains { who: i });
        self.st.fighters[i].hp -= 1;
        self.settle(i, LifeState::Disabled);
    }

    /// The start of the turn of a creature fighting on below 0 with ferocity
    /// (UMR "Ferocity"): it loses 1 hit point, and dies at −Con as any
    /// creature. Whether it can still act.
    pub(crate) fn ferocity_turn(&mut self, i: usize) -> bool {
        if self.st.fighters[i].hp >= 0 {
            return true;
        }
        self.st.fighters[i].hp -= 1;
        let hp = self.st.fighters[i].hp;
        emit!(self, Event::Life { who: i, change: LifeChange::Weakens, hp });
        self.settle(i, LifeState::Disabled);
        !self.st.fighters[i].dead
    }

    /// Restores up to `amount` hit points to `i` (capped at its maximum) and
    /// returns the points actually restored. At 0 or more the creature is no
    /// longer stable, so a later fall starts dying again. Any healing stops
    /// bleeding (CRB "Bleed") and removes as much nonlethal damage.
    pub(crate) fn heal(&mut self, i: usize, amount: u32) -> u32 {
        if self.st.fighters[i].dead {
            return 0;
        }
        self.stop_bleeding(i);
        let f = &mut self.st.fighters[i];
        let before = f.hp;
        // A rage's Constitution raises the maximum while it lasts.
        let max = self.st.prep.fighters[i].hp_max + f.class.rage.map_or(0, |r| r.hp);
        f.hp = (f.hp + amount as i32).min(max.max(before));
        if f.hp >= 0 {
            f.stable = false;
        }
        let restored = (f.hp - before) as u32;
        self.heal_nonlethal(i, amount);
        restored
    }
}
