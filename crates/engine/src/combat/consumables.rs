//! Potions and wands used in battle (CRB "Magic Items": "Potions",
//! "Wands", "Use Magic Device"; Table 8-2), `docs/rules/items.md`.
//!
//! - **Drinking a potion** is a standard action that provokes attacks of
//!   opportunity; the potion must first be taken out of a pack or pouch
//!   ("retrieve a stored item", a move action), so drinking takes the
//!   move and the standard action of a turn.
//! - **Administering a potion** to an unconscious creature (dying, stable,
//!   asleep) is a full-round action that provokes; the potion is drawn as
//!   part of it (the CRB prices the whole act at one full-round action).
//! - **A wand** is a spell trigger item: activating it is a standard action
//!   that does not provoke; drawing it (a move action that provokes) comes
//!   first unless it is already in hand, where it stays afterwards.
//!
//! The spell takes effect as cast at the item's caster level, with the
//! save DC of the lowest ability score that casts it (CRB "Magic Item
//! Creation": DC 10 + spell level + that score's modifier). The user is
//! the effect's caster (a potion's drinker is, by the rule; a potion given
//! to an ally counts as its giver's healing in the battle's tallies).

use crate::effects::ConditionId;
use crate::rng::Dice;

use super::action::{Action, Reason, Slot};
use super::engine::Engine;
use super::event::Event;
use super::items::ItemKind;
use super::log::emit;
use super::spells::{Cast, Metamagic};
use super::state::{BattleState, LifeState};

/// How a use of an item goes: who gets the spell and what it costs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum ItemUse {
    /// Its carrier drinks a potion (retrieve, then drink).
    Drink,
    /// Its carrier pours a potion into an unconscious ally's mouth.
    Administer,
    /// Its carrier activates a wand, drawn first unless `in_hand`.
    Wand { in_hand: bool },
}

impl ItemUse {
    /// The action budget the use takes.
    pub(crate) const fn slot(self) -> Slot {
        match self {
            ItemUse::Wand { in_hand: true } => Slot::Standard,
            // Move (retrieve or draw) + standard, or the full-round administering.
            ItemUse::Drink | ItemUse::Administer | ItemUse::Wand { in_hand: false } => Slot::FullRound,
        }
    }
}

impl BattleState<'_> {
    /// Whether `t` is unconscious, so that a potion can be poured into it:
    /// alive and dying, stable, knocked out by nonlethal damage, asleep or
    /// unconscious.
    pub(crate) fn unconscious(&self, t: usize) -> bool {
        let f = &self.fighters[t];
        if f.dead || f.gone {
            return false;
        }
        matches!(self.life(t), LifeState::Dying | LifeState::Stable)
            || f.nonlethal > f.hp
            || self.has_condition(t, ConditionId::Unconscious)
            || self.has_condition(t, ConditionId::Asleep)
    }

    /// How `i` would use its item `item` on `t`, when it can: uses left,
    /// usable by its carrier, and a target the item allows (a potion: the
    /// carrier itself, or an unconscious ally it touches; a wand: whom its
    /// spell reaches at the wand's caster level).
    pub(crate) fn item_use(&self, i: usize, item: u8, t: usize) -> Result<ItemUse, Reason> {
        let spec = &self.prep.fighters[i];
        let it = spec.items.get(usize::from(item)).ok_or(Reason::NoItem)?;
        if !it.usable || self.fighters[i].gear.items_left.get(usize::from(item)).is_none_or(|&n| n == 0) {
            return Err(Reason::NoItem);
        }
        if t >= self.len() || !self.is_present(t) {
            return Err(Reason::MissingTarget);
        }
        let spell = &self.prep.spells[usize::from(it.spell)].spell;
        match it.kind {
            ItemKind::Potion if t == i => {
                // Incorporeal creatures cannot swallow a potion (CRB "Potions").
                if self.incorporeal(i) { Err(Reason::MissingTarget) } else { Ok(ItemUse::Drink) }
            }
            ItemKind::Potion => {
                if self.are_enemies(i, t) || !self.unconscious(t) || self.incorporeal(t) {
                    return Err(Reason::MissingTarget);
                }
                if !self.touch_reaches(i, t) {
                    return Err(Reason::OutOfRange);
                }
                Ok(ItemUse::Administer)
            }
            ItemKind::Wand => {
                self.spell_reaches(i, t, spell, it.cl)?;
                Ok(ItemUse::Wand { in_hand: self.fighters[i].gear.wand_in_hand == Some(item) })
            }
        }
    }

    /// The budget slot of a `use_item` action (a full round when the use
    /// is refused: the engine reports the refusal when it plays it).
    pub(crate) fn item_slot(&self, i: usize, a: &Action) -> Slot {
        a.target.and_then(|t| self.item_use(i, a.option, t).ok()).map_or(Slot::FullRound, ItemUse::slot)
    }

    /// The casting an item makes: its spell at its caster level, no slot,
    /// the DC of the minimum ability score for the spell's level.
    fn item_cast(&self, i: usize, item: u8, t: usize) -> Cast {
        let it = &self.prep.fighters[i].items[usize::from(item)];
        let spell = &self.prep.spells[usize::from(it.spell)].spell;
        let level = i32::from(spell.lowest_level().unwrap_or(1));
        Cast {
            caster: i,
            spell: it.spell,
            slot: 0,
            metamagic: Metamagic::NONE,
            target: Some(t),
            point: None,
            option: 0,
            dc: item_dc(level),
            cl: it.cl,
            weapon: None,
        }
    }
}

/// The save DC of an item's spell of `level` (CRB "Magic Item Creation"):
/// 10 + the spell level + the modifier of the lowest score that casts it
/// (10 + level, so a modifier of level / 2).
pub(crate) const fn item_dc(level: i32) -> i32 {
    10 + level + level / 2
}

impl<R: Dice> Engine<'_, '_, R> {
    /// The `use_item` action: `action.option` is the item, `action.target`
    /// the creature it is used on.
    pub(crate) fn use_item_action(&mut self, i: usize, action: Action) -> Result<(), Reason> {
        let t = action.target.ok_or(Reason::MissingTarget)?;
        let item = action.option;
        let how = self.st.item_use(i, item, t)?;
        let prep = self.st.prep;
        let it = &prep.fighters[i].items[usize::from(item)];
        let f = &mut self.st.fighters[i];
        f.gear.items_left[usize::from(item)] -= 1;
        f.out.items_spent += 1;
        let left = f.gear.items_left[usize::from(item)];
        if matches!(how, ItemUse::Wand { .. }) {
            f.gear.wand_in_hand = Some(item);
        }
        emit!(
            self,
            Event::UsesItem {
                who: i,
                wand: it.kind == ItemKind::Wand,
                spell: prep.spells[usize::from(it.spell)].spell.name.clone(),
                target: t,
                left,
            }
        );
        // Drinking, administering and drawing a wand provoke; activating one
        // does not (CRB Table 8-2).
        let provokes = !matches!(how, ItemUse::Wand { in_hand: true });
        if provokes && self.threatened(i) {
            self.provoke_in_place(i);
            if !self.st.can_act(i) {
                return Ok(());
            }
        }
        if !self.st.is_present(t) {
            return Ok(());
        }
        let cast = self.st.item_cast(i, item, t);
        self.deliver(cast);
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_item_s_dc_is_that_of_the_lowest_score_that_casts_its_spell() {
        // CRB "Magic Item Creation": a 1st-level spell needs Int 11 (+0): DC 11;
        // 2nd: 12 (+1), DC 13; 3rd: 13 (+1), DC 14.
        assert_eq!([item_dc(0), item_dc(1), item_dc(2), item_dc(3)], [10, 11, 13, 14]);
    }

    #[test]
    fn drinking_and_administering_take_a_full_round_a_wand_in_hand_a_standard_action() {
        assert_eq!(ItemUse::Drink.slot(), Slot::FullRound);
        assert_eq!(ItemUse::Administer.slot(), Slot::FullRound);
        assert_eq!(ItemUse::Wand { in_hand: false }.slot(), Slot::FullRound);
        assert_eq!(ItemUse::Wand { in_hand: true }.slot(), Slot::Standard);
    }
}
