//! Concealment and blindness (CRB "Concealment", "Blinded", "Invisible";
//! seed "Concealment", "Attaquant aveugle").
//!
//! The miss chance of an attack is the target's (its conditions and effect
//! instances: blurred 20 %, displaced and invisible 50 %, Mirror Image's
//! images), raised to 50 % when the attacker is blinded (every foe has total
//! concealment against it). It is rolled after the hit and the confirmation.
//! Improved Precise Shot ignores concealment short of total on ranged attacks.
//! Blindsight makes all of it irrelevant within its range.

use super::attack::BLIND_MISS_CHANCE;
use super::state::BattleState;
use crate::effects::{Behaviour, Behaviours, ConditionId, ConditionSet, Flags, definition};

/// Miss chance from which concealment is total (CRB: 50 %).
pub(crate) const TOTAL_CONCEALMENT: u8 = 50;

impl BattleState<'_> {
    /// The miss chance, in percent, of an attack by `a` on `t`.
    #[inline]
    pub(crate) fn miss_chance(&self, a: usize, t: usize, melee: bool) -> u8 {
        let mut m = self.fighters[t].miss_chance;
        if m > 0
            && (self.fighters[a].fx | self.fighters[t].fx) & (Behaviours::SEE_INVISIBLE | Behaviours::OUTLINE)
                != 0
        {
            m = self.miss_chance_seen(a, t);
        }
        if self.fighters[a].summary.flags.has(Flags::BLIND) {
            m = m.max(BLIND_MISS_CHANCE);
        }
        if !self.zones.is_empty() {
            m = m.max(self.zone_miss_chance(a, t));
        }
        if m > 0 && self.perceives_by_blindsight(a, t) {
            return 0;
        }
        if !melee && m < TOTAL_CONCEALMENT && self.prep.fighters[a].feats.improved_precise_shot {
            m = 0;
        }
        m
    }

    /// The miss chance of attacks by `a` on `t` when `a` sees invisible
    /// creatures or `t` is outlined (Faerie Fire, Glitterdust): the
    /// concealment those negate does not count.
    #[cold]
    fn miss_chance_seen(&self, a: usize, t: usize) -> u8 {
        let mut negated = ConditionSet::EMPTY;
        if Behaviours(self.fighters[a].fx).has(Behaviours::SEE_INVISIBLE) {
            negated = negated.with(ConditionId::Invisible);
        }
        for e in &self.fighters[t].effects {
            for b in e.effect.behaviours.iter() {
                if let Behaviour::Outline { negates } = b {
                    negated = negated.union(*negates);
                }
            }
        }
        let f = &self.fighters[t];
        let from_conditions =
            f.conds.iter().filter(|&c| !negated.has(c)).map(|c| definition(c).miss_chance).max().unwrap_or(0);
        let from_effects = f.effects.iter().map(|e| e.effect.miss_chance).max().unwrap_or(0);
        from_conditions.max(from_effects)
    }

    /// Whether `t` sees invisible creatures (See Invisibility).
    #[inline]
    pub(crate) fn sees_invisible(&self, t: usize) -> bool {
        Behaviours(self.fighters[t].fx).has(Behaviours::SEE_INVISIBLE)
    }

    /// Whether `e` cannot make an attack of opportunity against `t` because
    /// `t` has total concealment against it (CRB: "you can't make attacks of
    /// opportunity against a creature with total concealment").
    #[inline]
    pub(crate) fn totally_concealed_from(&self, e: usize, t: usize) -> bool {
        (self.fighters[t].miss_chance >= TOTAL_CONCEALMENT
            || self.fighters[e].summary.flags.has(Flags::BLIND)
            || (!self.zones.is_empty() && self.zone_miss_chance(e, t) >= TOTAL_CONCEALMENT))
            && !self.perceives_by_blindsight(e, t)
    }

    /// Whether `j` has blindsight of any kind: blindness leaves it its
    /// attacks on whatever stands within that range (the policy weighs a
    /// blinding spell on it as a mere dazzle: −2 AC at most).
    pub(crate) fn sees_without_eyes(&self, j: usize) -> bool {
        self.prep.fighters[j].monster.as_deref().is_some_and(|m| m.blindsight.is_some())
    }

    /// Whether `a` notices `t` by blindsight (UMR "Blindsight and
    /// Blindsense"): `t` within its range (a lifesense notices only living
    /// creatures); then invisibility, darkness, concealment and its own
    /// blindness are irrelevant to its attacks on `t`. Line of effect is the
    /// attack's own requirement.
    #[cold]
    pub(crate) fn perceives_by_blindsight(&self, a: usize, t: usize) -> bool {
        let Some((range, living_only)) = self.prep.fighters[a].monster.as_deref().and_then(|m| m.blindsight)
        else {
            return false;
        };
        let living = !matches!(
            self.prep.fighters[t].nature.ctype,
            Some(crate::spell::model::CreatureType::Undead | crate::spell::model::CreatureType::Construct)
        );
        (living || !living_only) && self.distance(a, t) <= range
    }
}
