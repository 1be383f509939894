//! Cleric domain powers (CRB "Domains") beyond Sun's Blessing (played by
//! channel energy, `channel`), and the domain, school and bloodline powers
//! the catalogue describes as data (`feats::power`).
//!
//! - **A power as data** (`DomainPower`; CRB "Evil/Chaos/Death/Trickery
//!   Domain", "Necromancy School", "Undead Bloodline"): one use of its pool
//!   (`Pools::powers`: `resources.<name>`, else 3 + the power's ability
//!   modifier a day). A **melee touch** is a standard action: a melee touch
//!   attack (base attack bonus + Strength + size against touch AC) on a
//!   creature within the user's touch; on a hit the effect lasts its rounds
//!   (½ class level, at least 1; touch of chaos 1 round): a condition
//!   (touch of evil: sickened), every d20 rolled twice and the worse kept
//!   (touch of chaos), 1d6 a round at the start of the bearer's turns until
//!   healed (bleeding touch), shaken, or frightened for 1 round when already
//!   shaken and of fewer Hit Dice than the user's level (grave touch). A
//!   power **on itself** is a move action: copycat's one mirror image for
//!   cleric-level rounds, not while it has images. *Simplified*: as a
//!   spell-like ability it would provoke attacks of opportunity; the engine
//!   does not apply them (as Rebuke Death).
//!
//! - **Rebuke Death** (Healing domain, 1st level, Sp): one use of
//!   `resources.rebuke_death` (3 + Wisdom modifier a day) heals **1d4 + 1
//!   per two cleric levels** hit points to a living creature **below 0 hit
//!   points** the cleric touches; a standard action. *Simplified*: as a
//!   spell-like ability it would provoke attacks of opportunity; the engine
//!   does not apply them (docs/rules/class-abilities.md).

use std::sync::Arc;

use crate::dice::DiceExpr;
use crate::effects::{Behaviour, ConditionId, ConditionSet, Descriptor, Duration, Effect, effect::Recurring};
use crate::feats::{PowerEffect, PowerSpec, PowerUse};
use crate::model::Combatant;
use crate::rng::Dice;
use crate::spell::model::CreatureType;

use super::super::action::{Action, Reason};
use super::super::engine::Engine;
use super::super::event::{ClassAbilityEvent, Event};
use super::super::log::emit;
use super::super::state::BattleState;

/// A domain, school or bloodline power as compiled for one combatant.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct DomainPower {
    /// The catalogue entry's name (`touch of evil`): the effect's name too.
    pub name: Arc<str>,
    /// What it does.
    pub spec: PowerSpec,
    /// The user's class level (the combatant's `level`).
    pub level: u32,
    /// Rounds its effect lasts.
    pub rounds: u32,
    /// Uses a day: `resources.<name>`, else 3 + the ability modifier.
    pub uses: u32,
}

impl DomainPower {
    /// The power `name` of `c`, whose ability modifier is `modifier`.
    pub(crate) fn of(c: &Combatant, name: &str, spec: PowerSpec, modifier: i32) -> Self {
        let key = crate::feats::catalog::power_resource_key(name);
        DomainPower {
            name: Arc::from(name),
            spec,
            level: c.level,
            rounds: spec.rounds_at(c.level),
            uses: c.resources.get(&key).copied().unwrap_or_else(|| PowerSpec::uses_for(modifier)),
        }
    }

    /// Whether it is used on its user (no target, no attack roll).
    pub(crate) fn on_itself(&self) -> bool {
        self.spec.how == PowerUse::SelfMove
    }
}

/// Rebuke Death as compiled.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct RebukeDeath {
    /// The bonus added to the d4 (1 per two cleric levels).
    pub bonus: u32,
}

impl RebukeDeath {
    /// The Rebuke Death of a cleric of `level`.
    pub(crate) fn of(level: u32) -> Self {
        RebukeDeath { bonus: level / 2 }
    }

    /// The mean hit points it heals.
    pub(crate) fn mean(self) -> f64 {
        2.5 + f64::from(self.bonus)
    }
}

impl BattleState<'_> {
    /// Whether `i` may rebuke death on `t` now: it has the power and a use
    /// left, `t` is an ally (or itself) below 0 hit points, alive, living
    /// (not undead or a construct), and within its touch.
    pub(crate) fn can_rebuke_death(&self, i: usize, t: usize) -> bool {
        self.prep.fighters[i].abilities.as_deref().is_some_and(|a| a.rebuke_death.is_some())
            && self.fighters[i].class.pools.rebuke_death > 0
            && t < self.len()
            && !self.are_enemies(i, t)
            && !self.fighters[t].dead
            && !self.fighters[t].gone
            && self.fighters[t].hp < 0
            && !matches!(
                self.prep.fighters[t].nature.ctype,
                Some(CreatureType::Undead | CreatureType::Construct)
            )
            && self.touch_reaches(i, t)
    }
}

impl BattleState<'_> {
    /// `i`'s power `k`, if it has one with a use left.
    pub(crate) fn power_ready(&self, i: usize, k: usize) -> Option<&DomainPower> {
        let p = self.prep.fighters[i].abilities.as_deref()?.powers.get(k)?;
        (self.fighters[i].class.pools.powers.get(k).copied().unwrap_or(0) > 0).then_some(p)
    }

    /// Whether power `p` of `i` has an effect on `t` (a touch's target):
    /// a living creature for a power that says so, not immune to its
    /// condition or (for fear) to fear and mind-affecting effects.
    pub(crate) fn power_affects(&self, p: &DomainPower, t: usize) -> bool {
        let spec = &self.prep.fighters[t];
        if p.spec.living_only
            && matches!(spec.nature.ctype, Some(CreatureType::Undead | CreatureType::Construct))
        {
            return false;
        }
        let immune = &spec.defense.immune;
        if p.spec.fear
            && (immune.descriptors.has(Descriptor::Fear) || immune.descriptors.has(Descriptor::MindAffecting))
        {
            return false;
        }
        match p.spec.effect {
            PowerEffect::Condition(c) => !immune.conditions.has(c),
            PowerEffect::ShakenOrFrightened => !immune.conditions.has(ConditionId::Shaken),
            PowerEffect::BleedD6(_) => !immune.conditions.has(ConditionId::Bleeding),
            PowerEffect::TakeWorse | PowerEffect::MirrorImages(_) => true,
        }
    }

    /// Whether `i` has mirror images now (copycat does not stack with them).
    pub(crate) fn has_images(&self, i: usize) -> bool {
        self.fighters[i].effects.iter().any(|e| {
            e.effect.pool > 0 && e.effect.behaviours.iter().any(|b| matches!(b, Behaviour::MirrorImages))
        })
    }
}

impl<R: Dice> Engine<'_, '_, R> {
    /// A domain, school or bloodline power: `action.option` is its index in
    /// the user's powers, `action.target` the creature a touch aims at.
    pub(crate) fn domain_power_action(&mut self, i: usize, action: Action) -> Result<(), Reason> {
        let k = usize::from(action.option);
        let Some(p) = self.st.power_ready(i, k).cloned() else { return Err(Reason::NoAbility) };
        if p.on_itself() {
            if action.target.is_some_and(|t| t != i) {
                return Err(Reason::MissingTarget);
            }
            // Copycat: one double at a time, and not with Mirror Image's images.
            if self.st.has_images(i) {
                return Err(Reason::NoAbility);
            }
            self.spend_power(i, k, &p, i);
            if let PowerEffect::MirrorImages(n) = p.spec.effect {
                let mut e = Effect::new(&p.name, Duration::Rounds(p.rounds))
                    .with_behaviours(vec![Behaviour::MirrorImages]);
                e.pool = n as i32;
                self.apply_effect(i, e, Some(i));
            }
            return Ok(());
        }
        let t = action.target.filter(|&t| t < self.st.len() && t != i).ok_or(Reason::MissingTarget)?;
        if !self.st.is_present(t) {
            return Err(Reason::MissingTarget);
        }
        if !self.st.touch_reaches(i, t) {
            return Err(Reason::OutOfRange);
        }
        if p.spec.living_only
            && matches!(
                self.st.prep.fighters[t].nature.ctype,
                Some(CreatureType::Undead | CreatureType::Construct)
            )
        {
            return Err(Reason::MissingTarget);
        }
        self.spend_power(i, k, &p, t);
        self.bearer_attacks(i);
        let (hit, _) = self.touch_attack(i, t, true, false, false, 0);
        if !hit || !self.st.is_present(t) {
            return Ok(());
        }
        if !self.st.power_affects(&p, t) {
            emit!(
                self,
                Event::ClassAbility {
                    who: t,
                    what: ClassAbilityEvent::ImmunePower { power: p.name.to_string() }
                }
            );
            return Ok(());
        }
        let rounds = Duration::Rounds(p.rounds);
        let e = match p.spec.effect {
            PowerEffect::Condition(c) => Effect::new(&p.name, rounds).with_conditions(ConditionSet::of(c)),
            PowerEffect::TakeWorse => {
                Effect::new(&p.name, rounds).with_behaviours(vec![Behaviour::TakeWorse])
            }
            PowerEffect::BleedD6(n) => {
                let Ok(dice) = DiceExpr::parse(&format!("{n}d6")) else { return Ok(()) };
                let mut e =
                    Effect::new(&p.name, rounds).with_conditions(ConditionSet::of(ConditionId::Bleeding));
                e.recurring = Some(Recurring { dice, energy: None, nonlethal: false });
                e
            }
            PowerEffect::ShakenOrFrightened => {
                let shaken = self.st.conditions(t).has(ConditionId::Shaken);
                if shaken && self.st.prep.fighters[t].nature.hd < p.level {
                    Effect::new(&p.name, Duration::Rounds(1))
                        .with_conditions(ConditionSet::of(ConditionId::Frightened))
                } else {
                    Effect::new(&p.name, rounds).with_conditions(ConditionSet::of(ConditionId::Shaken))
                }
            }
            PowerEffect::MirrorImages(_) => return Ok(()),
        };
        self.apply_effect(t, e, Some(i));
        Ok(())
    }

    /// Spends a use of `i`'s power `k` on `t` and says so.
    fn spend_power(&mut self, i: usize, k: usize, p: &DomainPower, t: usize) {
        let pool = &mut self.st.fighters[i].class.pools.powers[k];
        *pool = pool.saturating_sub(1);
        let left = u32::from(*pool);
        emit!(
            self,
            Event::ClassAbility {
                who: i,
                what: ClassAbilityEvent::UsesPower { target: t, power: p.name.to_string(), left }
            }
        );
    }

    /// Rebuke Death on `action.target`.
    pub(crate) fn rebuke_death_action(&mut self, i: usize, action: Action) -> Result<(), Reason> {
        let Some(t) = action.target else { return Err(Reason::MissingTarget) };
        if !self.st.can_rebuke_death(i, t) {
            return Err(if t < self.st.len() && self.st.fighters[t].hp < 0 && !self.st.touch_reaches(i, t) {
                Reason::OutOfRange
            } else {
                Reason::NoAbility
            });
        }
        let bonus =
            self.st.prep.fighters[i].abilities.as_deref().and_then(|a| a.rebuke_death).map_or(0, |r| r.bonus);
        self.st.fighters[i].class.pools.rebuke_death -= 1;
        let rolled = self.rng.roll(4);
        // A clay golem's cursed wound: a check at the cleric's level (`monster::golem`).
        let level = self.st.prep.fighters[i].nature.hd;
        let healed = if self.cursed_wound_stops(i, level, t) { 0 } else { self.heal(t, rolled + bonus) };
        self.st.fighters[i].out.healing_given += healed;
        let left = u32::from(self.st.fighters[i].class.pools.rebuke_death);
        let hp = self.st.fighters[t].hp;
        emit!(self, Event::RebukesDeath { who: i, target: t, rolled, bonus, healed, hp, left });
        Ok(())
    }
}
