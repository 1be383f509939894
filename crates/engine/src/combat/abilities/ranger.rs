//! Ranger favored enemy (CRB "Ranger", "Favored Enemy") and the companions'
//! hunter's bond (CRB "Ranger", "Hunter's Bond").
//!
//! - **Favored enemy**: switched on by features `Favored Enemy (undead +2)`,
//!   one per chosen type: against a creature of that type the ranger gains
//!   the bonus on weapon attack and damage rolls (an untyped bonus of the
//!   class; the skill bonuses are not rolled in a battle). A creature of
//!   several chosen entries uses the highest. *Simplified*: by creature
//!   type only, the data having no subtypes.
//! - **Hunter's bond** (`Hunter's Bond (companions)`, 4th level): a move
//!   action against one foe of a favored type; every ally within 30 ft who
//!   can see or hear the ranger (not blinded and deafened both), the
//!   ranger left out, gains half the ranger's favored enemy bonus against
//!   that foe (rounded down: +2 gives +1) on attack and damage rolls, for
//!   the Wisdom modifier in rounds (minimum 1), counted on the ranger's
//!   turns. It does not stack with an ally's own favored enemy bonus against
//!   the foe: the higher counts. Readings: the rule gives no uses per day,
//!   so it is at will; one bond at a time per ranger, a new one ending the
//!   last (a table does not track two bonds of one ranger); who is within
//!   30 ft is fixed when it is granted (an ally who walks away keeps it).
//!   A dead ranger's bond ends with him (its rounds are counted on his
//!   turns, which stop).

use crate::effects::{ConditionId, Duration, Effect};
use crate::rng::Dice;

use super::super::action::{Action, Reason};
use super::super::engine::Engine;
use super::super::event::{EffectEnd, Event};
use super::super::log::emit;
use super::super::state::BattleState;
use super::HuntersBond;

/// Hunter's bond's reach, in feet.
pub(crate) const HUNTERS_BOND_RADIUS_FT: u32 = 30;
/// The effect an ally under a hunter's bond carries (its source is the ranger).
pub(crate) const HUNTERS_BOND_EFFECT: &str = "hunter's bond";

impl BattleState<'_> {
    /// The bonus on attack and damage rolls of `a` against `t` from favored
    /// enemies: its own, or a ranger's hunter's bond, whichever is higher
    /// (CRB: "they use whichever bonus is higher").
    #[inline]
    pub(crate) fn favored_enemy(&self, a: usize, t: usize) -> i32 {
        self.own_favored_enemy(a, t).max(self.hunters_bond(a, t))
    }

    /// The bonus of `a`'s own favored enemy against `t`.
    #[inline]
    pub(crate) fn own_favored_enemy(&self, a: usize, t: usize) -> i32 {
        match self.prep.fighters[a].abilities.as_deref() {
            Some(s) if !s.favored_enemies.is_empty() => s.favored_enemy(self.prep.fighters[t].nature.ctype),
            _ => 0,
        }
    }

    /// The best bonus a hunter's bond gives `a` against `t` (0: none).
    #[inline]
    pub(crate) fn hunters_bond(&self, a: usize, t: usize) -> i32 {
        let effects = &self.fighters[a].effects;
        if effects.is_empty() {
            return 0;
        }
        effects
            .iter()
            .filter(|e| &*e.effect.name == HUNTERS_BOND_EFFECT)
            .filter_map(|e| e.source)
            .filter(|&s| !self.fighters[s].dead)
            .filter_map(|s| self.fighters[s].class.bond)
            .filter(|b| b.target == t)
            .map(|b| b.bonus)
            .max()
            .unwrap_or(0)
    }

    /// Rounds a hunter's bond of `i` lasts (0: `i` has none).
    pub(crate) fn hunters_bond_rounds(&self, i: usize) -> u32 {
        self.prep.fighters[i].abilities.as_deref().map_or(0, |a| a.hunters_bond_rounds)
    }

    /// The bonus `i`'s hunter's bond against `t` would give (half its own
    /// favored enemy bonus, rounded down; 0: not a favored foe).
    pub(crate) fn hunters_bond_bonus(&self, i: usize, t: usize) -> i32 {
        self.own_favored_enemy(i, t) / 2
    }

    /// The allies a hunter's bond of `i` reaches now: within 30 ft, able to
    /// fight, and able to see or hear it (not blinded and deafened both).
    pub(crate) fn hunters_bond_allies(&self, i: usize) -> Vec<usize> {
        (0..self.len())
            .filter(|&j| {
                j != i
                    && !self.are_enemies(i, j)
                    && self.is_active(j)
                    && self.distance(i, j) <= HUNTERS_BOND_RADIUS_FT
                    && (!self.has_condition(j, ConditionId::Blinded) || self.hears(i, j))
            })
            .collect()
    }

    /// Whether an ally still holds a hunter's bond of `i`.
    pub(crate) fn hunters_bond_running(&self, i: usize) -> bool {
        self.fighters[i].class.bond.is_some()
            && (0..self.len()).any(|j| {
                self.fighters[j]
                    .effects
                    .iter()
                    .any(|e| e.source == Some(i) && &*e.effect.name == HUNTERS_BOND_EFFECT)
            })
    }
}

impl<R: Dice> Engine<'_, '_, R> {
    /// Hunter's bond against `action.target`, a foe of one of `i`'s favored
    /// types it has a line of effect to (a foe of no favored type: `NoAbility`).
    pub(crate) fn hunters_bond_action(&mut self, i: usize, action: Action) -> Result<(), Reason> {
        let rounds = self.st.hunters_bond_rounds(i);
        if rounds == 0 {
            return Err(Reason::NoAbility);
        }
        let t = self.enemy_target(i, action)?;
        let bonus = self.st.hunters_bond_bonus(i, t);
        if bonus == 0 {
            return Err(Reason::NoAbility);
        }
        if !self.st.line_of_effect_from(i, self.st.pos(i), t) {
            return Err(Reason::NoLineOfEffect);
        }
        // One bond at a time: the last one ends on every ally who holds it.
        for j in 0..self.st.len() {
            while let Some(k) = self.st.fighters[j]
                .effects
                .iter()
                .position(|e| e.source == Some(i) && &*e.effect.name == HUNTERS_BOND_EFFECT)
            {
                self.remove_effect_at(j, k, EffectEnd::Ends);
            }
        }
        let allies = self.st.hunters_bond_allies(i);
        self.st.fighters[i].class.bond = Some(HuntersBond { target: t, bonus });
        let count = allies.len() as u32;
        emit!(self, Event::HuntersBond { who: i, target: t, bonus, allies: count, rounds });
        for j in allies {
            self.apply_effect(j, Effect::new(HUNTERS_BOND_EFFECT, Duration::Rounds(rounds)), Some(i));
        }
        Ok(())
    }
}
