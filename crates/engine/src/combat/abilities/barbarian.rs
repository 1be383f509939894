//! Barbarian rage (CRB "Barbarian", "Rage").
//!
//! - **Switched on** by the feature `Rage` with rounds in
//!   `resources.rage_rounds` (4 + Constitution modifier + 2 per barbarian
//!   level after the first; the builds derive it). A creature whose
//!   `special_abilities` has a rage (the wolverine's) plays that one.
//! - **Starting** it is a free action on the barbarian's turn, refused while
//!   fatigued or exhausted, already raging, or without rounds left; it
//!   spends the round of that turn. The effect is the wolverine's
//!   (`combat::monster::rage`) with morale bonuses: **+4 morale Strength and
//!   Constitution, +2 morale on Will saves, −2 AC**. The Constitution's +2
//!   hit points per Hit Die are added to its current and maximum hit points.
//! - **Keeping** it: at the start of each later turn it spends one more
//!   round; with none left the rage ends.
//! - **Ending**: out of rounds, or the barbarian falls unconscious (below 0
//!   hit points). The hit points of the Constitution go (which may leave it
//!   dying or dead: they are not temporary hit points), and it is
//!   **fatigued for twice the rounds it raged**. A battle that ends during
//!   a rage ends the rage too (`BattleState::carry_out`).
//! - While raging it cannot cast spells (`combat::spells` refuses, `cannot_cast`).

use crate::effects::{BonusType, ConditionId, ConditionSet, Duration, Effect, Mod, ModTarget, When};
use crate::rng::Dice;

use super::super::action::Reason;
use super::super::engine::Engine;
use super::super::event::Event;
use super::super::log::emit;
use super::super::monster::{RAGE_BONUS, RAGE_EFFECT, rage_effect};
use super::super::state::{BattleState, LifeState};
use super::{RAGE_FATIGUE_EFFECT, Raging};

/// The morale bonus of a barbarian's rage on Will saves.
pub(crate) const RAGE_WILL_BONUS: i32 = 2;

/// A barbarian's rage as compiled.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Rage {
    /// Hit points the +4 Constitution gives (+2 per Hit Die).
    pub hp: i32,
    /// Rage power Superstition: its morale bonus on saves against spells
    /// while raging (+2, +1 per four barbarian levels; 0 without it).
    pub superstition: i32,
    /// Rage power Quick Reflexes: one more attack of opportunity a round while raging.
    pub quick_reflexes: bool,
}

impl Rage {
    /// The rage of a barbarian of `level` Hit Dice, without rage powers.
    pub(crate) fn of(level: u32) -> Self {
        Rage { hp: RAGE_BONUS / 2 * level as i32, superstition: 0, quick_reflexes: false }
    }

    /// The same rage with the rage powers `superstition` and `quick_reflexes`
    /// of a barbarian of `level` (CRB "Rage Powers").
    pub(crate) fn with_powers(self, level: u32, superstition: bool, quick_reflexes: bool) -> Self {
        Rage { superstition: if superstition { 2 + level as i32 / 4 } else { 0 }, quick_reflexes, ..self }
    }
}

impl BattleState<'_> {
    /// Whether `i` may start a rage now: it has one, rounds left, does not
    /// rage, and is neither fatigued nor exhausted.
    pub(crate) fn can_rage(&self, i: usize) -> bool {
        self.prep.fighters[i].abilities.as_deref().is_some_and(|a| a.rage.is_some())
            && self.fighters[i].class.rage.is_none()
            && self.fighters[i].class.pools.rage_rounds > 0
            && !self.has_condition(i, ConditionId::Fatigued)
            && !self.has_condition(i, ConditionId::Exhausted)
    }

    /// Hit points `i`'s rage adds to its maximum (0 when it does not rage).
    #[inline]
    pub(crate) fn rage_hp(&self, i: usize) -> i32 {
        self.fighters[i].class.rage.map_or(0, |r| r.hp)
    }
}

impl<R: Dice> Engine<'_, '_, R> {
    /// Rage (free action): starts `i`'s rage.
    pub(crate) fn rage_action(&mut self, i: usize) -> Result<(), Reason> {
        if !self.st.can_rage(i) {
            return Err(Reason::NoAbility);
        }
        let prep = self.st.prep;
        let Some(rage) = prep.fighters[i].abilities.as_deref().and_then(|a| a.rage) else {
            return Err(Reason::NoAbility);
        };
        let f = &mut self.st.fighters[i];
        f.class.pools.rage_rounds -= 1;
        f.class.rage = Some(Raging { rounds: 1, hp: rage.hp });
        f.hp += rage.hp;
        let left = u32::from(f.class.pools.rage_rounds);
        if rage.quick_reflexes {
            // Quick Reflexes: one more attack of opportunity this round already.
            f.turn.aoo_left += 1;
        }
        emit!(self, Event::Rages { who: i, hp: rage.hp, will: RAGE_WILL_BONUS, left });
        let mut effect = rage_effect(BonusType::Morale, RAGE_WILL_BONUS);
        if rage.superstition > 0 {
            // Superstition: a morale bonus on saves against spells (the
            // Will's +2 of the rage is morale too: the higher counts).
            let mut mods = effect.mods.to_vec();
            mods.push(Mod::new(ModTarget::Saves, rage.superstition, BonusType::Morale).when(When::Spells));
            effect = effect.with_mods(mods);
        }
        self.apply_effect(i, effect, None);
        self.st.refresh_status(i);
        Ok(())
    }

    /// The start of `i`'s turn while it rages: one more round, or the end.
    pub(crate) fn rage_upkeep(&mut self, i: usize) {
        let Some(mut r) = self.st.fighters[i].class.rage else { return };
        if self.st.fighters[i].class.pools.rage_rounds == 0 {
            self.end_rage(i);
            return;
        }
        self.st.fighters[i].class.pools.rage_rounds -= 1;
        r.rounds += 1;
        self.st.fighters[i].class.rage = Some(r);
    }

    /// Ends `i`'s rage: its hit points go, fatigue for twice its rounds.
    pub(crate) fn end_rage(&mut self, i: usize) {
        let Some(r) = self.st.fighters[i].class.rage.take() else { return };
        self.remove_effects_named(i, RAGE_EFFECT);
        let fatigued = 2 * r.rounds;
        emit!(self, Event::RageEnds { who: i, rounds: r.rounds, hp: r.hp, fatigued });
        if !self.st.fighters[i].dead {
            let before = self.st.life(i);
            self.st.fighters[i].hp -= r.hp;
            self.settle(i, before);
        }
        if !self.st.fighters[i].dead {
            let e = Effect::new(RAGE_FATIGUE_EFFECT, Duration::Rounds(fatigued))
                .with_conditions(ConditionSet::of(ConditionId::Fatigued));
            self.apply_effect(i, e, None);
        }
        self.st.refresh_status(i);
    }

    /// A rage ends when its barbarian falls unconscious (CRB "Rage").
    pub(crate) fn rage_falls(&mut self, i: usize, now: LifeState) {
        if self.st.fighters[i].class.rage.is_some() && matches!(now, LifeState::Dying | LifeState::Stable) {
            self.end_rage(i);
        }
    }
}
