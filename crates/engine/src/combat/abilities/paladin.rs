//! The paladin (CRB "Paladin"): smite evil and lay on hands.
//!
//! - **Smite evil** is the smite of the celestial template
//!   (`combat::monster::smite`: a swift action, + Charisma bonus on attack
//!   rolls, + paladin level on damage rolls, + Charisma bonus deflection to
//!   AC against the foe, damage reduction bypassed, until the foe is dead),
//!   switched on by the feature `Smite Evil` with uses in
//!   `resources.smite_evil` (1 + 1 per three levels after the first). The
//!   paladin's own rule on top: **the first hit against an undead, an evil
//!   outsider or an evil dragon adds the paladin level once more** (2 per
//!   level).
//! - **Lay on hands**: one use of `resources.lay_on_hands` (½ level +
//!   Charisma modifier a day) heals **(level / 2)d6** hit points by touch:
//!   a swift action on itself, a standard action on an ally it touches.
//!   Healing given counts as the channel's does.
//! - **Mercies** (`feats::mercy`): each lay on hands that heals also ends
//!   the conditions of the paladin's mercies on the target (staggered not
//!   at exactly 0 hit points), and with the poisoned mercy its running
//!   poisons; the event lists what ended.
//! - **Harming undead**: a lay on hands on an undead is a melee touch
//!   attack (no attack of opportunity) dealing the same dice of positive
//!   energy damage, no save; the use is spent hit or miss.

use crate::effects::{Alignment, ConditionSet};
use crate::feats::{Mercies, Mercy};
use crate::rng::Dice;
use crate::spell::model::CreatureType;

use super::super::action::{Action, Reason};
use super::super::engine::Engine;
use super::super::event::Event;
use super::super::log::emit;
use super::super::state::{BattleState, LifeState};
use crate::effects::ConditionId;

/// The aura of courage's morale bonus on allies' saves against fear.
pub(crate) const COURAGE_BONUS: i32 = 4;
/// The aura of courage's radius, in feet.
const COURAGE_RADIUS_FT: u32 = 10;

/// A paladin's lay on hands as compiled.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct LayOnHands {
    /// Number of d6 healed (half the paladin level).
    pub dice: u32,
    /// The conditions its mercies end.
    pub mercies: ConditionSet,
    /// The poisoned mercy: it ends the target's running poisons.
    pub neutralizes: bool,
}

impl LayOnHands {
    /// The lay on hands of a paladin of `level` with `mercies`.
    pub(crate) fn of(level: u32, mercies: Mercies) -> Self {
        let ends =
            mercies.iter().filter_map(Mercy::condition).fold(ConditionSet::default(), ConditionSet::with);
        LayOnHands { dice: level / 2, mercies: ends, neutralizes: mercies.has(Mercy::Poisoned) }
    }
}

impl BattleState<'_> {
    /// Whether a conscious ally of `i` with an aura of courage stands
    /// within 10 ft of it (CRB "Aura of Courage"; `i` itself is immune).
    pub(crate) fn courage_near(&self, i: usize) -> bool {
        (0..self.len()).any(|j| {
            j != i
                && self.prep.fighters[j].abilities.as_deref().is_some_and(|a| a.aura_of_courage)
                && !self.are_enemies(i, j)
                && matches!(self.life(j), LifeState::Fighting | LifeState::Disabled)
                && !self.fighters[j].gone
                && !self.has_condition(j, ConditionId::Unconscious)
                && !self.has_condition(j, ConditionId::Asleep)
                && self.distance(i, j) <= COURAGE_RADIUS_FT
        })
    }

    /// Whether a paladin's first smiting hit on `t` deals double the smite's
    /// damage: `t` is undead, or an evil outsider or dragon (CRB "Smite Evil").
    pub(crate) fn smite_doubles_on(&self, t: usize) -> bool {
        let f = &self.prep.fighters[t];
        match f.nature.ctype {
            Some(CreatureType::Undead) => true,
            Some(CreatureType::Outsider | CreatureType::Dragon) => f.nature.alignment & Alignment::EVIL != 0,
            _ => false,
        }
    }

    /// The extra damage of `a`'s first smiting hit on `t` (0 after it, or
    /// when it is not a paladin's smite or `t` is not a creature it doubles on).
    #[inline]
    pub(crate) fn smite_first_hit(&self, a: usize, t: usize) -> i32 {
        if !self.fighters[a].class.smite_first || !self.smite_doubles_on(t) {
            return 0;
        }
        self.smite_damage(a, t)
    }

    /// `i`'s lay on hands when it has a use of it left.
    pub(crate) fn lay_on_hands_ready(&self, i: usize) -> Option<LayOnHands> {
        let l = self.prep.fighters[i].abilities.as_deref().and_then(|a| a.lay_on_hands)?;
        (l.dice > 0 && self.fighters[i].class.pools.lay_on_hands > 0).then_some(l)
    }

    /// The conditions of `t` that `i`'s mercies would end now (staggered
    /// stays on a creature at exactly 0 hit points: CRB "Mercy").
    pub(crate) fn mercy_conditions(&self, i: usize, t: usize) -> ConditionSet {
        let Some(l) = self.prep.fighters[i].abilities.as_deref().and_then(|a| a.lay_on_hands) else {
            return ConditionSet::default();
        };
        let mut on = ConditionSet::default();
        for c in l.mercies.iter().filter(|&c| self.has_condition(t, c)) {
            on = on.with(c);
        }
        on
    }

    /// The conditions of `t` that `i`'s mercies would end and that would
    /// otherwise outlast the next round: lasting ones, or an effect's with
    /// more than one round left (a policy does not spend a use on a daze
    /// about to wear off).
    pub(crate) fn mercy_lasting(&self, i: usize, t: usize) -> ConditionSet {
        let f = &self.fighters[t];
        let mut on = ConditionSet::default();
        for c in self.mercy_conditions(i, t).iter() {
            let lasts = f.base_conds.has(c)
                || f.effects
                    .iter()
                    .any(|e| e.effect.conditions.has(c) && e.rounds_left.is_none_or(|r| r > 1));
            if lasts {
                on = on.with(c);
            }
        }
        on
    }

    /// Whether `i` may lay on hands on `t` now: it has the ability and a use
    /// left, `t` is itself or an ally it touches, alive and not undead.
    pub(crate) fn can_lay_on_hands(&self, i: usize, t: usize) -> bool {
        self.lay_on_hands_ready(i).is_some()
            && t < self.len()
            && !self.are_enemies(i, t)
            && !self.fighters[t].dead
            && !self.fighters[t].gone
            && self.prep.fighters[t].nature.ctype != Some(CreatureType::Undead)
            && self.touch_reaches(i, t)
    }

    /// Whether `i` may lay on hands on `t` to harm it: it has a use left,
    /// `t` is an undead foe it touches from here.
    pub(crate) fn can_harm_with_hands(&self, i: usize, t: usize) -> bool {
        self.lay_on_hands_ready(i).is_some()
            && t < self.len()
            && self.are_enemies(i, t)
            && self.is_present(t)
            && self.prep.fighters[t].nature.ctype == Some(CreatureType::Undead)
            && self.touch_reaches(i, t)
    }
}

impl<R: Dice> Engine<'_, '_, R> {
    /// After `i` smote: a paladin's first hit is still to come.
    pub(crate) fn smite_started(&mut self, i: usize) {
        let paladin = self.st.prep.fighters[i].abilities.as_deref().is_some_and(|a| a.smite.is_some());
        let smiting = self.st.smiting(i).is_some();
        self.st.fighters[i].class.smite_first = paladin && smiting;
    }

    /// A hit of `a` on `t` landed: a paladin's first smiting hit is spent.
    #[inline]
    pub(crate) fn smite_hit(&mut self, a: usize, t: usize) {
        if self.st.fighters[a].class.smite_first && self.st.smiting(a) == Some(t) {
            self.st.fighters[a].class.smite_first = false;
        }
    }

    /// Lay on hands on `action.target` (itself when none): healing, or
    /// harm on an undead foe.
    pub(crate) fn lay_on_hands_action(&mut self, i: usize, action: Action) -> Result<(), Reason> {
        let t = action.target.unwrap_or(i);
        if self.st.can_harm_with_hands(i, t) {
            self.harm_with_hands(i, t);
            return Ok(());
        }
        if !self.st.can_lay_on_hands(i, t) {
            return Err(if t < self.st.len() && !self.st.are_enemies(i, t) && !self.st.touch_reaches(i, t) {
                Reason::OutOfRange
            } else {
                Reason::NoAbility
            });
        }
        let prep = self.st.prep;
        let Some(l) = self.st.lay_on_hands_ready(i) else { return Err(Reason::NoAbility) };
        self.st.fighters[i].class.pools.lay_on_hands -= 1;
        let rolled: u32 = (0..l.dice).map(|_| self.rng.roll(6)).sum();
        // A clay golem's cursed wound: a check at the paladin's level (`monster::golem`).
        let healed =
            if self.cursed_wound_stops(i, prep.fighters[i].nature.hd, t) { 0 } else { self.heal(t, rolled) };
        self.st.fighters[i].out.healing_given += healed;
        let removed = self.mercies_on(i, t, l);
        let left = u32::from(self.st.fighters[i].class.pools.lay_on_hands);
        let dice = l.dice;
        emit!(
            self,
            Event::LaysOnHands { who: i, target: t, dice, rolled, healed, left, removed, harms: false }
        );
        Ok(())
    }

    /// The mercies of `i`'s lay on hands `l` on `t`: the conditions they
    /// end (after the healing: staggered stays at exactly 0 hit points) and
    /// the poisons the poisoned mercy neutralizes; their names.
    fn mercies_on(&mut self, i: usize, t: usize, l: LayOnHands) -> Vec<String> {
        let mut removed = Vec::new();
        let mut ending = self.st.mercy_conditions(i, t);
        if self.st.fighters[t].hp == 0 {
            ending = ending.without(ConditionId::Staggered);
        }
        for c in ending.iter() {
            self.clear_condition(t, c);
            removed.push(c.name().to_string());
        }
        if l.neutralizes && !self.st.fighters[t].monster.poisons.is_empty() {
            // Neutralize poison ends the poison; the ability damage it dealt stays.
            self.st.fighters[t].monster.poisons.clear();
            removed.push(String::from("poisoned"));
        }
        removed
    }

    /// A lay on hands harming undead `t` (CRB "Lay On Hands"): a melee
    /// touch attack that does not provoke, (level / 2)d6 positive energy
    /// on a hit, no save. The use is spent hit or miss.
    fn harm_with_hands(&mut self, i: usize, t: usize) {
        let Some(l) = self.st.lay_on_hands_ready(i) else { return };
        self.st.fighters[i].class.pools.lay_on_hands -= 1;
        self.bearer_attacks(i);
        let (hit, _) = self.touch_attack(i, t, true, false, false, 0);
        let rolled: u32 =
            if hit && self.st.is_present(t) { (0..l.dice).map(|_| self.rng.roll(6)).sum() } else { 0 };
        let left = u32::from(self.st.fighters[i].class.pools.lay_on_hands);
        let dice = l.dice;
        emit!(
            self,
            Event::LaysOnHands {
                who: i,
                target: t,
                dice,
                rolled,
                healed: 0,
                left,
                removed: Vec::new(),
                harms: true
            }
        );
        if rolled > 0 {
            self.spell_damage(i, t, rolled, &[String::from("positive")], false, None);
        }
    }
}
