//! Entangling throws (Bestiary, Universal Monster Rules "Web"; an erinyes'
//! rope, "entangles as an *animate rope* spell"): a standard action, a
//! ranged touch attack (BAB + Dexterity + size, −2 per range increment
//! beyond the first; none for the rope) at a foe in range, at most `uses`
//! times a battle; a hit (and for the rope a failed Reflex save) leaves the
//! foe entangled, not held in place, until it breaks free (`combat::bonds`:
//! Escape Artist against the escape DC, or a Strength check against the
//! burst DC, as a standard or full-round action). A web holds foes up to one
//! size larger than the spinner; the rope holds one foe at a time.

use crate::effects::{Behaviour, ConditionId, ConditionSet, Context, Duration, Effect, SaveKind};
use crate::rng::Dice;

use super::super::action::{Action, Reason};
use super::super::engine::Engine;
use super::super::prepared::monster::Entangler;
use super::super::state::BattleState;

impl BattleState<'_> {
    /// The entangling throw `i` may make at `t` now, or why not.
    pub(crate) fn entangle_throw(&self, i: usize, t: usize) -> Result<&Entangler, Reason> {
        let e = self.prep.fighters[i]
            .monster
            .as_deref()
            .and_then(|m| m.entangle.as_ref())
            .ok_or(Reason::NoAbility)?;
        if self.fighters[i].monster.entangles_thrown >= e.uses {
            return Err(Reason::NoAbility);
        }
        if !self.are_enemies(i, t) || !self.is_active(t) || self.is_swallowed(t) {
            return Err(Reason::MissingTarget);
        }
        if self.distance(i, t) > e.range_ft || !self.line_of_effect_from(i, self.pos(i), t) {
            return Err(Reason::OutOfRange);
        }
        if self.size(t) as u8 > (self.size(i) as u8).saturating_add(e.larger_sizes) {
            return Err(Reason::TargetTooLarge);
        }
        let holds = |j: usize| {
            self.fighters[j].effects.iter().any(|x| x.source == Some(i) && *x.effect.name == *e.name)
        };
        if holds(t) || (e.one_at_a_time && (0..self.len()).any(|j| self.is_present(j) && holds(j))) {
            return Err(Reason::NothingToTake);
        }
        Ok(e)
    }
}

impl<R: Dice> Engine<'_, '_, R> {
    /// The throw (`ActionKind::Entangle` at the target).
    pub(crate) fn entangle_action(&mut self, i: usize, action: Action) -> Result<(), Reason> {
        let t = action.target.filter(|&t| t < self.st.len()).ok_or(Reason::MissingTarget)?;
        let e = self.st.entangle_throw(i, t)?;
        let (name, bonds, save_dc, increment) = (e.name.clone(), e.bonds, e.save_dc, e.increment_ft);
        self.st.fighters[i].monster.entangles_thrown += 1;
        let increments = (self.st.distance(i, t).max(1) - 1).checked_div(increment).unwrap_or(0);
        let penalty = 2 * increments as i32;
        let (hit, _) = self.touch_attack(i, t, false, false, false, penalty);
        if !hit {
            return Ok(());
        }
        if let Some(dc) = save_dc {
            let ctx =
                Context { other_alignment: self.st.prep.fighters[i].nature.alignment, ..Context::default() };
            if self.roll_save(t, SaveKind::Ref, dc, &ctx) {
                return Ok(());
            }
        }
        let conditions = self.allowed_conditions(t, &[ConditionId::Entangled], false);
        if conditions.is_empty() {
            return Ok(());
        }
        let effect = Effect::new(&name, Duration::UntilRemoved)
            .with_conditions(ConditionSet::EMPTY.union(conditions))
            .with_behaviours(vec![Behaviour::Bound(bonds)]);
        self.apply_effect(t, effect, Some(i));
        Ok(())
    }
}
