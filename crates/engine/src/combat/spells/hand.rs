//! Touch spells delivered at a distance (CRB "Spectral Hand"): "a ghostly
//! hand shaped from your life force ... allowing you to deliver low-level,
//! touch range spells at a distance".
//!
//! - Casting it costs the caster 1d4 hit points (the file's
//!   `caster_hp_cost`), lost, not dealt as damage: no damage reduction, no
//!   temporary hit points in the way. They "return when the spell ends
//!   (even if it is dispelled)", at most up to the caster's maximum.
//! - While it lasts, every touch spell of the caster of 4th level or lower
//!   (its level for this caster; a scroll's, the lowest of its lists)
//!   reaches any creature within the hand's range (medium: 100 ft + 10 ft
//!   per caster level of the hand) with line of effect from the caster,
//!   and its melee touch attack gains +2. A charge held after a miss is
//!   delivered the same way.
//! - "The hand cannot flank targets like a creature can": the touch
//!   through the hand has no flanking bonus; it "always strikes from your
//!   direction", so the caster's other circumstances (high ground, its own
//!   penalties) stay.
//! - The hand itself (AC 22, 1–4 hit points) is not a creature on the
//!   map: nobody attacks it, so it lasts the whole duration (the file's
//!   simplification).

use crate::effects::{Behaviour, Behaviours};
use crate::rng::Dice;
use crate::spell::Spell;
use crate::spell::effect::{EffectKind, TouchDeliveryEffect};
use crate::spell::model::Range;

use super::super::engine::Engine;
use super::super::event::{Event, SpellEvent};
use super::super::log::emit;
use super::super::state::{BattleState, LifeState};
use super::casting::{Cast, Held};

/// The spectral hand `i` bears: its attack bonus, the highest spell level
/// it delivers and its range in feet.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Hand {
    /// Bonus on the melee touch attack.
    pub bonus: i32,
    /// Highest spell level delivered.
    pub max_level: u8,
    /// Range from the caster, in feet.
    pub range_ft: u32,
}

impl BattleState<'_> {
    /// The spectral hand `i` bears, if any (the longest-reaching of two).
    pub(crate) fn hand_of(&self, i: usize) -> Option<Hand> {
        let f = &self.fighters[i];
        if !Behaviours(f.fx).has(Behaviours::TOUCH_DELIVERY) {
            return None;
        }
        f.effects
            .iter()
            .flat_map(|e| e.effect.behaviours.iter())
            .filter_map(|b| match *b {
                Behaviour::TouchDelivery { bonus, max_level, range_ft, .. } => {
                    Some(Hand { bonus: i32::from(bonus), max_level, range_ft })
                }
                _ => None,
            })
            .max_by_key(|h| (h.range_ft, h.max_level, h.bonus))
    }

    /// The level of `spell` as `i` casts it: the level it knows it at; a
    /// spell it does not know (a scroll's), the lowest of its lists.
    pub(crate) fn level_as_cast_by(&self, i: usize, spell: &Spell) -> u8 {
        let known = self.prep.fighters[i].caster.as_deref().and_then(|c| {
            c.known.iter().find(|k| std::ptr::eq(&self.prep.spells[usize::from(k.spell)].spell, spell))
        });
        known.map_or_else(|| spell.levels.values().copied().min().unwrap_or(0), |k| k.level)
    }

    /// The hand a casting of `spell` at caster level `cl` would shape, if
    /// the spell shapes one.
    pub(crate) fn hand_of_spell(&self, spell: u16, cl: u32) -> Option<Hand> {
        let s = &self.prep.spells[usize::from(spell)].spell;
        s.effects.iter().find_map(|e| match &e.kind {
            EffectKind::TouchDelivery(td) => Some(Hand {
                bonus: td.attack_bonus,
                max_level: td.max_spell_level,
                range_ft: s.range.feet_at(cl).unwrap_or(0),
            }),
            _ => None,
        })
    }

    /// Whether the held charge `held` reaches `t`: a touch, or its caster's
    /// spectral hand when one carries the spell.
    pub(crate) fn charge_reaches(&self, held: &Held, t: usize) -> bool {
        let spell = &self.prep.spells[usize::from(held.cast.spell)].spell;
        self.spell_reaches(held.cast.caster, t, spell, held.cast.cl).is_ok()
    }

    /// The hand that carries `i`'s touch spell `spell`, if one does: a
    /// touch spell no higher than the hand's level.
    pub(crate) fn hand_for(&self, i: usize, spell: &Spell) -> Option<Hand> {
        if spell.range != Range::Touch {
            return None;
        }
        self.hand_of(i).filter(|h| self.level_as_cast_by(i, spell) <= h.max_level)
    }
}

impl<R: Dice> Engine<'_, '_, R> {
    /// `cast` shapes its caster's hand: the caster loses the hand's hit
    /// points now. The behaviour to put on the caster for the duration.
    pub(crate) fn form_hand(&mut self, cast: &Cast, td: &TouchDeliveryEffect) -> Behaviour {
        let i = cast.caster;
        // The cost is not the spell's effect: metamagic does not raise it.
        let lost = td.caster_hp_cost.roll_with(cast.cl, self.rng, false, false).clamp(0, 255) as u8;
        let spell = &self.st.prep.spells[usize::from(cast.spell)].spell;
        emit!(
            self,
            Event::Spell {
                who: i,
                spell: spell.name.to_string(),
                what: SpellEvent::HandFormed { hp_lost: u32::from(lost) }
            }
        );
        if lost > 0 {
            let before = self.st.life(i);
            self.st.fighters[i].hp -= i32::from(lost);
            if before == LifeState::Stable {
                self.st.fighters[i].stable = false;
            }
            self.settle(i, before);
        }
        let h = self.st.hand_of_spell(cast.spell, cast.cl).unwrap_or(Hand {
            bonus: 0,
            max_level: 0,
            range_ft: 0,
        });
        Behaviour::TouchDelivery {
            bonus: h.bonus.clamp(-128, 127) as i8,
            max_level: h.max_level,
            range_ft: h.range_ft,
            hp_lost: lost,
        }
    }

    /// The hand of `spell` on `i` is gone: the `hp` it cost come back, up to
    /// `i`'s maximum ("even if it is dispelled").
    pub(crate) fn hand_returns(&mut self, i: usize, spell: &str, hp: u8) {
        if hp == 0 || self.st.fighters[i].dead {
            return;
        }
        let max = self.st.hp_max(i);
        let f = &mut self.st.fighters[i];
        let back = i32::from(hp).min((max - f.hp).max(0));
        f.hp += back;
        if f.hp >= 0 {
            f.stable = false;
        }
        emit!(
            self,
            Event::Spell {
                who: i,
                spell: spell.to_string(),
                what: SpellEvent::HandReturns { hp: back as u32 }
            }
        );
    }
}
