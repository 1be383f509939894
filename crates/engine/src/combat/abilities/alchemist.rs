//! An alchemist's mutagen (APG "Alchemist": Mutagen).
//!
//! - **Switched on** by the feature `Mutagen (Dexterity)` (Strength,
//!   Dexterity or Constitution: the score the dose was brewed for). An
//!   alchemist keeps one dose at a time (brewing takes an hour), so it has
//!   `resources.mutagen` doses a day, 1 when the file does not say.
//! - **Drinking** it is a standard action that provokes attacks of
//!   opportunity, as drinking a potion does (CRB Table 8-2; the APG calls it
//!   "a standard action to drink", and an extract is drunk "as if imbibing a
//!   potion"). For **10 minutes per alchemist level** (100 rounds a level:
//!   it outlasts a battle and is carried into the next of the day) it gives
//!   **+4 alchemical** to the chosen score, **−2** (an alchemical penalty)
//!   to the matching mental score (Strength → Intelligence, Dexterity →
//!   Wisdom, Constitution → Charisma) and **+2 natural armor**. The scores'
//!   modifiers reach what the engine derives from them in play: Strength
//!   melee attacks, damage and CMB, Dexterity ranged attacks, AC, Reflex
//!   and CMD, Constitution Fortitude, Wisdom Will (`BattleState::ability_deltas`,
//!   `score_delta`). A Constitution mutagen adds **2 hit points per Hit Die**
//!   to the drinker's current and maximum hit points and takes them from both
//!   when it ends (`Effect::hp_bonus`; CRB "Ability Score Bonuses").
//!   *Simplified*: the printed numbers the build derived from Intelligence (a
//!   bomb's damage and DC) and Charisma are not recomputed.
//! - A new dose ends the previous one (APG: "the effects of any previous
//!   mutagen immediately end"), one carried from an earlier battle included.

use crate::dice::ability_modifier;
use crate::effects::{BonusType, Duration, Effect, Mod, ModTarget};
use crate::feats::MutagenScore;
use crate::rng::Dice;

use super::super::action::Reason;
use super::super::carry::ROUNDS_PER_MINUTE;
use super::super::engine::Engine;
use super::super::event::{ClassAbilityEvent, Event};
use super::super::log::emit;
use super::super::state::BattleState;

/// The effect's name (the policy looks for it).
pub(crate) const MUTAGEN_EFFECT: &str = "mutagen";
/// The alchemical bonus to the physical score.
pub(crate) const MUTAGEN_BONUS: i32 = 4;
/// The alchemical penalty to the mental score.
pub(crate) const MUTAGEN_PENALTY: i32 = 2;
/// The natural armor bonus.
pub(crate) const MUTAGEN_NATURAL_ARMOR: i32 = 2;

/// A mutagen as compiled.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Mutagen {
    /// The score it raises.
    pub score: MutagenScore,
    /// Rounds it lasts (10 minutes per alchemist level).
    pub rounds: u32,
}

impl Mutagen {
    /// The mutagen of an alchemist of `level` brewed for `score`.
    pub(crate) fn of(score: MutagenScore, level: u32) -> Self {
        Mutagen { score, rounds: 10 * ROUNDS_PER_MINUTE * level.max(1) }
    }

    /// The scores it raises and lowers.
    pub(crate) fn targets(self) -> (ModTarget, ModTarget) {
        match self.score {
            MutagenScore::Strength => (ModTarget::Str, ModTarget::Int),
            MutagenScore::Dexterity => (ModTarget::Dex, ModTarget::Wis),
            MutagenScore::Constitution => (ModTarget::Con, ModTarget::Cha),
        }
    }

    /// Its effect on a drinker of Constitution `con` (its score, `None` for
    /// a creature without one) and `hd` Hit Dice: a Constitution mutagen
    /// adds Hit Dice × the modifier's rise to its current and maximum hit
    /// points while it lasts (CRB "Ability Score Bonuses"; +2 per Hit Die,
    /// +4 raising the modifier by 2 from any score).
    pub(crate) fn effect(self, con: Option<i32>, hd: u32) -> Effect {
        let (up, down) = self.targets();
        let hp = match (self.score, con) {
            (MutagenScore::Constitution, Some(con)) => {
                let rise = ability_modifier(con + MUTAGEN_BONUS) - ability_modifier(con);
                (rise.max(0) as u32) * hd.max(1)
            }
            _ => 0,
        };
        Effect::new(MUTAGEN_EFFECT, Duration::Rounds(self.rounds))
            .with_mods(vec![
                Mod::new(up, MUTAGEN_BONUS, BonusType::Alchemical),
                Mod::new(down, -MUTAGEN_PENALTY, BonusType::Alchemical),
                Mod::new(ModTarget::Ac, MUTAGEN_NATURAL_ARMOR, BonusType::NaturalArmor),
            ])
            .with_hp_bonus(hp)
    }

    /// Its name in events (`mutagen (dexterity)`).
    pub(crate) fn name(self) -> String {
        format!("{MUTAGEN_EFFECT} ({})", self.score.name())
    }
}

impl BattleState<'_> {
    /// `i`'s mutagen, when it has a dose left.
    pub(crate) fn mutagen_ready(&self, i: usize) -> Option<Mutagen> {
        let m = self.prep.fighters[i].abilities.as_deref()?.mutagen?;
        (self.fighters[i].class.pools.mutagen > 0).then_some(m)
    }

    /// Whether a mutagen works on `i` now.
    pub(crate) fn mutated(&self, i: usize) -> bool {
        self.fighters[i].effects.iter().any(|e| &*e.effect.name == MUTAGEN_EFFECT)
    }
}

impl<R: Dice> Engine<'_, '_, R> {
    /// Drinks `i`'s mutagen (a standard action that provokes).
    pub(crate) fn mutagen_action(&mut self, i: usize) -> Result<(), Reason> {
        let Some(m) = self.st.mutagen_ready(i) else { return Err(Reason::NoAbility) };
        let f = &mut self.st.fighters[i];
        f.class.pools.mutagen -= 1;
        let left = u32::from(f.class.pools.mutagen);
        emit!(
            self,
            Event::ClassAbility {
                who: i,
                what: ClassAbilityEvent::UsesPower { target: i, power: m.name(), left }
            }
        );
        if self.threatened(i) {
            self.provoke_in_place(i);
            if !self.st.can_act(i) {
                return Ok(());
            }
        }
        // "Whenever an alchemist drinks a mutagen, the effects of any previous
        // mutagen immediately end" (APG), one carried from an earlier battle too.
        self.remove_effects_named(i, MUTAGEN_EFFECT);
        if !self.st.can_act(i) {
            return Ok(());
        }
        let spec = &self.st.prep.fighters[i];
        self.apply_effect(i, m.effect(spec.scores.con_score, spec.nature.hd), Some(i));
        self.st.refresh_status(i);
        Ok(())
    }
}
