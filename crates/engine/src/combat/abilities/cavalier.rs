//! The cavalier (APG "Cavalier"): challenge, tactician with its teamwork
//! feat (Outflank), and the order of the lion's challenge bonus and lion's
//! call.
//!
//! - **Challenge** (swift action, one use of `resources.challenge`): one foe
//!   in sight. The cavalier's melee attacks against it deal + cavalier level
//!   damage; the cavalier takes −2 AC against every other attacker; the
//!   order of the lion adds a dodge bonus to AC against the challenged foe
//!   (+1, +1 more per four cavalier levels). It lasts until the foe is dead
//!   or unconscious (below 0 hit points), or the battle ends. One challenge
//!   at a time.
//! - **Tactician** (standard action, one use of `resources.tactician`): the
//!   cavalier's teamwork feats to every ally within 30 ft who can see and
//!   hear it, for 3 + ½ cavalier level rounds (counted on the cavalier's
//!   turns). Outflank is the teamwork feat the engine plays.
//! - **Outflank**: flanking a foe with an ally who also has the feat, the
//!   flanking bonus is +4 instead of +2.
//! - **Lion's call** (standard action, at will): allies within 60 ft who can
//!   hear it gain +1 competence on attack rolls and a competence bonus equal
//!   to the cavalier's Charisma modifier on saves against fear, for
//!   cavalier-level rounds.

use crate::effects::{BonusType, ConditionId, Descriptor, Duration, Effect, Mod, ModTarget, Tally, When};
use crate::rng::Dice;

use super::super::action::{Action, Reason};
use super::super::engine::Engine;
use super::super::event::Event;
use super::super::log::emit;
use super::super::state::BattleState;

/// The AC penalty of a challenge against attackers other than the challenged foe.
pub(crate) const CHALLENGE_AC_PENALTY: i32 = 2;
/// The flanking bonus when both flankers have Outflank (APG "Outflank").
pub(crate) const OUTFLANK_BONUS: i32 = 4;
/// Tactician's reach, in feet.
pub(crate) const TACTICIAN_RADIUS_FT: u32 = 30;
/// Lion's call's reach, in feet.
pub(crate) const LIONS_CALL_RADIUS_FT: u32 = 60;
/// The effect that lends Outflank to an ally (tactician).
pub(crate) const TEAMWORK_EFFECT: &str = "outflank (tactician)";
/// The effect of lion's call.
pub(crate) const LIONS_CALL_EFFECT: &str = "lion's call";
/// The teamwork feat tactician lends, by name (the only one the engine plays).
const OUTFLANK: &str = "Outflank";

impl BattleState<'_> {
    /// Whether `j` has Outflank now: its own, or lent by a tactician.
    pub(crate) fn has_outflank(&self, j: usize) -> bool {
        self.prep.fighters[j].feats.outflank
            || self.fighters[j].effects.iter().any(|e| &*e.effect.name == TEAMWORK_EFFECT)
    }

    /// What `t`'s challenge does to its AC against an attack by `a`: −2
    /// against anyone but the challenged foe; the order's dodge bonus
    /// against the challenged foe. 0 without a challenge.
    #[inline]
    pub(crate) fn challenge_ac(&self, a: usize, t: usize) -> (i32, BonusType) {
        let Some(foe) = self.fighters[t].class.challenged else { return (0, BonusType::Untyped) };
        if foe != a {
            return (-CHALLENGE_AC_PENALTY, BonusType::Untyped);
        }
        let dodge =
            self.prep.fighters[t].abilities.as_deref().and_then(|s| s.challenge).map_or(0, |c| c.dodge);
        (dodge, BonusType::Dodge)
    }

    /// Adds `t`'s challenge to its AC against `a` (`challenge_ac`).
    #[inline]
    pub(crate) fn challenge_guard(&self, a: usize, t: usize, guard: &mut Tally) {
        match self.challenge_ac(a, t) {
            (0, _) => {}
            (v, BonusType::Untyped) => guard.untyped(v),
            (v, ty) => guard.add(ty, v),
        }
    }

    /// The extra damage of a melee hit of `a` on `t` from `a`'s challenge.
    #[inline]
    pub(crate) fn challenge_damage(&self, a: usize, melee: bool, t: usize) -> i32 {
        if !melee || self.fighters[a].class.challenged != Some(t) {
            return 0;
        }
        self.prep.fighters[a].abilities.as_deref().and_then(|s| s.challenge).map_or(0, |c| c.damage)
    }

    /// Allies of `i` within `radius` feet who can hear it (`hears`), and
    /// see it too when `see`; `i` left out.
    fn allies_around(&self, i: usize, radius: u32, see: bool) -> Vec<usize> {
        (0..self.len())
            .filter(|&j| {
                j != i
                    && !self.are_enemies(i, j)
                    && self.is_active(j)
                    && self.distance(i, j) <= radius
                    && self.hears(i, j)
                    && (!see || !self.has_condition(j, ConditionId::Blinded))
            })
            .collect()
    }

    /// The allies tactician would lend Outflank to now (those without it).
    pub(crate) fn tactician_allies(&self, i: usize) -> Vec<usize> {
        let mut allies = self.allies_around(i, TACTICIAN_RADIUS_FT, true);
        allies.retain(|&j| !self.has_outflank(j));
        allies
    }

    /// Whether an ally of `i` is still under a lion's call of `i`.
    pub(crate) fn lions_call_running(&self, i: usize) -> bool {
        (0..self.len()).any(|j| {
            j != i
                && !self.are_enemies(i, j)
                && self.fighters[j]
                    .effects
                    .iter()
                    .any(|e| e.source == Some(i) && &*e.effect.name == LIONS_CALL_EFFECT)
        })
    }

    /// The allies lion's call reaches now.
    pub(crate) fn lions_call_allies(&self, i: usize) -> Vec<usize> {
        self.allies_around(i, LIONS_CALL_RADIUS_FT, false)
    }
}

impl<R: Dice> Engine<'_, '_, R> {
    /// Challenge: `action.target` becomes the challenged foe.
    pub(crate) fn challenge_action(&mut self, i: usize, action: Action) -> Result<(), Reason> {
        let prep = self.st.prep;
        let spec =
            prep.fighters[i].abilities.as_deref().and_then(|a| a.challenge).ok_or(Reason::NoAbility)?;
        if self.st.fighters[i].class.pools.challenge == 0 || self.st.fighters[i].class.challenged.is_some() {
            return Err(Reason::NoAbility);
        }
        let t = self.enemy_target(i, action)?;
        if !self.st.line_of_effect_from(i, self.st.pos(i), t) {
            return Err(Reason::NoLineOfEffect);
        }
        self.st.fighters[i].class.pools.challenge -= 1;
        self.st.fighters[i].class.challenged = Some(t);
        let left = u32::from(self.st.fighters[i].class.pools.challenge);
        emit!(self, Event::Challenges { who: i, target: t, damage: spec.damage, dodge: spec.dodge, left });
        Ok(())
    }

    /// Ends every challenge of which `t` is the foe (it died or fell unconscious).
    pub(crate) fn end_challenges_on(&mut self, t: usize) {
        for i in 0..self.st.len() {
            if self.st.fighters[i].class.challenged == Some(t) {
                self.st.fighters[i].class.challenged = None;
                emit!(self, Event::ChallengeEnds { who: i, target: t });
            }
        }
    }

    /// Tactician: Outflank lent to the allies within 30 ft who lack it.
    pub(crate) fn tactician_action(&mut self, i: usize) -> Result<(), Reason> {
        let prep = self.st.prep;
        let rounds = prep.fighters[i].abilities.as_deref().map_or(0, |a| a.tactician_rounds);
        if rounds == 0 || !prep.fighters[i].feats.outflank || self.st.fighters[i].class.pools.tactician == 0 {
            return Err(Reason::NoAbility);
        }
        self.st.fighters[i].class.pools.tactician -= 1;
        let allies = self.st.tactician_allies(i);
        let count = allies.len() as u32;
        emit!(self, Event::Tactician { who: i, feat: OUTFLANK.to_string(), allies: count, rounds });
        for j in allies {
            self.apply_effect(j, Effect::new(TEAMWORK_EFFECT, Duration::Rounds(rounds)), Some(i));
        }
        Ok(())
    }

    /// Lion's call: +1 competence on attacks and + Charisma on saves against
    /// fear to the allies within 60 ft.
    pub(crate) fn lions_call_action(&mut self, i: usize) -> Result<(), Reason> {
        let prep = self.st.prep;
        let call =
            prep.fighters[i].abilities.as_deref().and_then(|a| a.lions_call).ok_or(Reason::NoAbility)?;
        let allies = self.st.lions_call_allies(i);
        let count = allies.len() as u32;
        let (attack, fear_saves, rounds) = (call.attack, call.fear_saves, call.rounds);
        emit!(self, Event::LionsCall { who: i, allies: count, attack, fear_saves, rounds });
        let mut mods = vec![Mod::new(ModTarget::Attack, attack, BonusType::Competence)];
        if fear_saves > 0 {
            mods.push(
                Mod::new(ModTarget::Saves, fear_saves, BonusType::Competence)
                    .when(When::Descriptor(Descriptor::Fear)),
            );
        }
        for j in allies {
            let e = Effect::new(LIONS_CALL_EFFECT, Duration::Rounds(rounds)).with_mods(mods.clone());
            self.apply_effect(j, e, Some(i));
        }
        Ok(())
    }
}
