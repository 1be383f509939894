//! The magus (UM "Magus"): spell combat (a full-round action: one spell of
//! casting time one standard action or less, and a full attack with the
//! melee weapon, every attack at −2; the spell first), spellstrike (a touch
//! spell is delivered by a melee weapon attack instead of a touch attack:
//! the weapon's damage and the spell on a hit, a critical hit doubling the
//! spell's damage), and the arcane pool's weapon enhancement (a swift
//! action and 1 point: +1 enhancement on attack and damage with the first
//! manufactured weapon for the battle, +2 from 5th level, and the weapon
//! counts as magic against damage reduction), and the arcana Arcane
//! Accuracy (UM "Magus Arcana": a swift action and 1 point, + Intelligence
//! bonus insight on attack rolls until the end of its turn).

use std::sync::Arc;

use crate::effects::{Behaviour, BonusType, Duration, Effect, ModTarget};
use crate::rng::Dice;
use crate::spell::model::CastTime;

use super::super::action::{Action, ActionKind, Reason};
use super::super::engine::Engine;
use super::super::event::{ClassAbilityEvent, Event};
use super::super::log::emit;
use super::super::odds::Swing;
use super::ARCANE_ACCURACY;

/// The attack penalty of spell combat.
pub(crate) const SPELL_COMBAT_PENALTY: i32 = 2;

impl<R: Dice> Engine<'_, '_, R> {
    /// Spell combat: the spell of `action` (standard action or less), then a
    /// full attack on `action.target` at −2.
    pub(crate) fn spell_combat_action(&mut self, i: usize, action: Action) -> Result<(), Reason> {
        let prep = self.st.prep;
        if !prep.fighters[i].abilities.as_deref().is_some_and(|a| a.spell_combat) {
            return Err(Reason::NoAbility);
        }
        let cast = self.st.casting(i, &action)?;
        let spell = &prep.spells[usize::from(cast.spell)].spell;
        if matches!(spell.cast_time, CastTime::FullRound | CastTime::OneRound | CastTime::Long) {
            return Err(Reason::DowngradedCastTime);
        }
        self.check_cast_targets(&cast)?;
        let t = action.target.filter(|&t| t < self.st.len() && self.st.are_enemies(i, t));
        self.st.fighters[i].turn.attack_penalty += SPELL_COMBAT_PENALTY;
        let result = self.begin_casting(i, cast, action.defensive);
        if let (Ok(()), Some(t)) = (result, t)
            && self.st.is_active(i)
            && self.st.is_active(t)
        {
            let attack = Action {
                kind: ActionKind::FullAttack,
                weapon: None,
                ..Action::at(ActionKind::FullAttack, t)
            };
            if let Err(reason) = self.attack_action(i, attack, true) {
                emit!(
                    self,
                    Event::ClassAbility {
                        who: i,
                        what: ClassAbilityEvent::SpellCombatNoAttack { reason: reason.as_str().to_string() }
                    }
                );
            }
        }
        self.st.fighters[i].turn.attack_penalty -= SPELL_COMBAT_PENALTY;
        result
    }

    /// A spellstrike: one attack with melee weapon `w` at `t`, with its
    /// damage; whether it hit, and whether it was a confirmed critical hit.
    pub(crate) fn spellstrike_hit(&mut self, i: usize, w: usize, t: usize) -> (bool, bool) {
        emit!(
            self,
            Event::ClassAbility {
                who: i,
                what: ClassAbilityEvent::Spellstrike {
                    weapon: self.st.prep.fighters[i].offense.attacks[w].name.clone()
                }
            }
        );
        self.strike(i, w, t, Swing::default())
    }

    /// The melee weapon with which `i` spellstrikes `t` from where it stands, if any.
    pub(crate) fn spellstrike_weapon(&self, i: usize, t: usize) -> Option<usize> {
        let prep = self.st.prep;
        if !prep.fighters[i].abilities.as_deref().is_some_and(|a| a.spellstrike) {
            return None;
        }
        let w = self.st.melee_weapon_from(i, t, self.st.pos(i))?;
        (!prep.fighters[i].offense.attacks[w].natural).then_some(w)
    }

    /// The arcane pool's weapon enhancement.
    pub(crate) fn arcane_pool_action(&mut self, i: usize) -> Result<(), Reason> {
        let prep = self.st.prep;
        let bonus = prep.fighters[i].abilities.as_deref().map_or(0, |a| a.arcane_enhancement);
        if bonus == 0 || self.st.fighters[i].class.pools.arcane_pool == 0 {
            return Err(Reason::NoAbility);
        }
        let w = self.st.held_weapon(i).ok_or(Reason::NoWeapon)?;
        self.st.fighters[i].class.pools.arcane_pool -= 1;
        let bits = if w < 64 { 1u64 << w } else { 0 };
        let mut attack = crate::effects::Mod::new(ModTarget::Attack, bonus, BonusType::Enhancement);
        attack.weapons = bits;
        let mut damage = crate::effects::Mod::new(ModTarget::Damage, bonus, BonusType::Enhancement);
        damage.weapons = bits;
        let e = Effect::new("arcane pool", Duration::UntilRemoved)
            .with_mods(vec![attack, damage])
            .with_behaviours(vec![Behaviour::WeaponQualities {
                qualities: Arc::from(vec!["magic".to_string()]),
                weapon: Some(w),
            }]);
        self.apply_effect(i, e, Some(i));
        emit!(
            self,
            Event::ClassAbility {
                who: i,
                what: ClassAbilityEvent::Enhances {
                    weapon: prep.fighters[i].offense.attacks[w].name.clone(),
                    bonus,
                    pool: u32::from(self.st.fighters[i].class.pools.arcane_pool)
                }
            }
        );
        Ok(())
    }

    /// Arcane Accuracy: 1 arcane pool point, + Intelligence bonus insight
    /// on attack rolls until the end of the turn (`end_arcane_accuracy`).
    pub(crate) fn arcane_accuracy_action(&mut self, i: usize) -> Result<(), Reason> {
        let bonus = self.st.prep.fighters[i].abilities.as_deref().map_or(0, |a| a.arcane_accuracy);
        if bonus == 0 || self.st.fighters[i].class.pools.arcane_pool == 0 {
            return Err(Reason::NoAbility);
        }
        self.st.fighters[i].class.pools.arcane_pool -= 1;
        let e = Effect::new(ARCANE_ACCURACY, Duration::UntilRemoved)
            .with_mods(vec![crate::effects::Mod::new(ModTarget::Attack, bonus, BonusType::Insight)]);
        self.apply_effect(i, e, Some(i));
        let pool = u32::from(self.st.fighters[i].class.pools.arcane_pool);
        emit!(self, Event::ClassAbility { who: i, what: ClassAbilityEvent::Accuracy { bonus, pool } });
        Ok(())
    }

    /// The end of `i`'s turn: its Arcane Accuracy lapses.
    pub(crate) fn end_arcane_accuracy(&mut self, i: usize) {
        if self.st.prep.fighters[i].abilities.as_deref().is_some_and(|a| a.arcane_accuracy > 0)
            && self.st.fighters[i].effects.iter().any(|e| &*e.effect.name == ARCANE_ACCURACY)
        {
            self.remove_effects_named(i, ARCANE_ACCURACY);
        }
    }
}
