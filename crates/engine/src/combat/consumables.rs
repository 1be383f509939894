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
//! - **A scroll** is a spell completion item: taken out of the pack (a move
//!   action), then read, as long as casting its spell (a standard action
//!   here; the item is compiled unusable otherwise) and provoking and
//!   risking concentration exactly as casting does; a reader whose caster
//!   level is below the scroll's makes a caster level check (DC = the
//!   scroll's caster level + 1), and on a failure a DC 5 Wisdom check
//!   against a mishap (1d6 damage per spell level to the reader). The
//!   scroll is spent when its spell is cast, or by a mishap.
//! - **Use Magic Device** stands in for a class list that lacks the spell:
//!   DC 20 for a wand, 20 + the caster level for a scroll; a failure uses
//!   nothing, a failure by 10 or more is a mishap (2d6 damage to the user),
//!   and a natural 1 that fails bars the item for the rest of the battle.
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
use super::event::{Event, ItemCheckKind, SpellLoss};
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
    /// Its carrier takes a scroll out of its pack and reads it.
    Scroll,
}

/// Use Magic Device DC to use a wand (CRB "Use Magic Device").
pub(crate) const UMD_WAND_DC: i32 = 20;
/// Use Magic Device DC to use a scroll, before its caster level.
pub(crate) const UMD_SCROLL_DC: i32 = 20;
/// A Use Magic Device failure by this much or more is a mishap.
pub(crate) const UMD_MISHAP_MARGIN: i32 = 10;
/// DC of the Wisdom check that avoids a scroll mishap (CRB "Scrolls").
pub(crate) const SCROLL_MISHAP_WIS_DC: i32 = 5;

/// The Use Magic Device DC of an item of `kind` at caster level `cl`.
pub(crate) const fn umd_dc(kind: ItemKind, cl: u32) -> i32 {
    match kind {
        ItemKind::Scroll => UMD_SCROLL_DC + cl as i32,
        ItemKind::Wand | ItemKind::Potion => UMD_WAND_DC,
    }
}

/// The DC of a scroll's caster level check: its caster level + 1.
pub(crate) const fn scroll_cl_dc(cl: u32) -> i32 {
    cl as i32 + 1
}

/// The chance a d20 + `bonus` meets `dc`; a natural 1 fails and a natural
/// 20 succeeds when `naturals` (caster level checks; skill checks have no
/// automatic results).
pub(crate) fn d20_odds(bonus: i32, dc: i32, naturals: bool) -> f64 {
    let p = f64::from(21 - (dc - bonus)) / 20.0;
    if naturals { p.clamp(0.05, 0.95) } else { p.clamp(0.0, 1.0) }
}

impl ItemUse {
    /// The action budget the use takes.
    pub(crate) const fn slot(self) -> Slot {
        match self {
            ItemUse::Wand { in_hand: true } => Slot::Standard,
            // Move (retrieve or draw) + standard, or the full-round administering.
            ItemUse::Drink | ItemUse::Administer | ItemUse::Wand { in_hand: false } | ItemUse::Scroll => {
                Slot::FullRound
            }
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
        if item < 64 && self.fighters[i].gear.items_barred >> item & 1 == 1 {
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
            ItemKind::Scroll => {
                // Reading is casting: whatever stops casting stops it.
                if !self.can_cast_now(i) {
                    return Err(Reason::CannotCast);
                }
                self.spell_reaches(i, t, spell, it.cl)?;
                Ok(ItemUse::Scroll)
            }
        }
    }

    /// The chance `i`'s use of item `item` works: its Use Magic Device
    /// check, or a scroll's caster level check when the reader's caster
    /// level is lower than the scroll's; 1 otherwise.
    pub(crate) fn item_odds(&self, i: usize, item: u8) -> f64 {
        let Some(it) = self.prep.fighters[i].items.get(usize::from(item)) else { return 0.0 };
        if let Some(umd) = it.umd {
            return d20_odds(umd, umd_dc(it.kind, it.cl), false);
        }
        let cl = self.prep.fighters[i].caster.as_deref().map_or(0, |c| c.cl);
        if it.kind == ItemKind::Scroll && cl < it.cl {
            return d20_odds(cl as i32, scroll_cl_dc(it.cl), true);
        }
        1.0
    }

    /// The budget slot of a `use_item` action (a full round when the use
    /// is refused: the engine reports the refusal when it plays it).
    pub(crate) fn item_slot(&self, i: usize, a: &Action) -> Slot {
        a.target.and_then(|t| self.item_use(i, a.option, t).ok()).map_or(Slot::FullRound, ItemUse::slot)
    }

    /// The casting an item makes: its spell at its caster level, no slot,
    /// the DC of the minimum ability score for the spell's level.
    pub(crate) fn item_cast(&self, i: usize, item: u8, t: usize) -> Cast {
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
            extract: false,
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
        if !self.item_works(i, item) {
            return Ok(());
        }
        if how == ItemUse::Scroll {
            return self.read_scroll(i, item, t);
        }
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
        self.release_item(i, item, t);
        Ok(())
    }

    /// The item's spell takes effect on `t`, if `t` is still there.
    fn release_item(&mut self, i: usize, item: u8, t: usize) {
        if self.st.is_present(t) {
            let cast = self.st.item_cast(i, item, t);
            self.deliver(cast);
        }
    }

    /// The checks `i`'s use of `item` calls for, rolled: Use Magic Device
    /// when its list lacks the spell, a scroll's caster level check when
    /// its caster level is lower (and the Wisdom check against a mishap on
    /// a failure). Whether the item works; a mishap wounds the user and
    /// spends a scroll.
    fn item_works(&mut self, i: usize, item: u8) -> bool {
        let prep = self.st.prep;
        let it = &prep.fighters[i].items[usize::from(item)];
        let level = prep.spells[usize::from(it.spell)].spell.lowest_level().unwrap_or(1);
        if let Some(umd) = it.umd {
            let dc = umd_dc(it.kind, it.cl);
            let d20 = self.rng.roll(20) as i32;
            let ok = d20 + umd >= dc;
            self.item_check(i, item, ItemCheckKind::UseMagicDevice, d20, umd, dc);
            if ok {
                return true;
            }
            if d20 == 1 && item < 64 {
                self.st.fighters[i].gear.items_barred |= 1 << item;
            }
            if dc - (d20 + umd) >= UMD_MISHAP_MARGIN {
                let damage = self.rng.roll(6) + self.rng.roll(6);
                self.item_mishap(i, item, damage);
            }
            return false;
        }
        let cl = prep.fighters[i].caster.as_deref().map_or(0, |c| c.cl);
        if it.kind != ItemKind::Scroll || cl >= it.cl {
            return true;
        }
        let dc = scroll_cl_dc(it.cl);
        let d20 = self.rng.roll(20) as i32;
        let ok = d20 != 1 && (d20 == 20 || d20 + cl as i32 >= dc);
        self.item_check(i, item, ItemCheckKind::CasterLevel, d20, cl as i32, dc);
        if ok {
            return true;
        }
        let wis = crate::dice::ability_modifier(prep.fighters[i].scores.wis_score);
        let d20 = self.rng.roll(20) as i32;
        let safe = d20 + wis >= SCROLL_MISHAP_WIS_DC;
        self.item_check(i, item, ItemCheckKind::Wisdom, d20, wis, SCROLL_MISHAP_WIS_DC);
        if !safe {
            let damage = (0..level.max(1)).map(|_| self.rng.roll(6)).sum();
            let f = &mut self.st.fighters[i];
            f.gear.items_left[usize::from(item)] -= 1;
            f.out.items_spent += 1;
            self.item_mishap(i, item, damage);
        }
        false
    }

    fn item_check(&mut self, i: usize, item: u8, check: ItemCheckKind, d20: i32, bonus: i32, dc: i32) {
        let prep = self.st.prep;
        let spell =
            prep.spells[usize::from(prep.fighters[i].items[usize::from(item)].spell)].spell.name.clone();
        let total = d20 + bonus;
        let success = match check {
            ItemCheckKind::CasterLevel => d20 != 1 && (d20 == 20 || total >= dc),
            ItemCheckKind::UseMagicDevice | ItemCheckKind::Wisdom => total >= dc,
        };
        emit!(self, Event::ItemCheck { who: i, check, spell, d20, bonus, total, dc, success });
    }

    fn item_mishap(&mut self, i: usize, item: u8, damage: u32) {
        let prep = self.st.prep;
        let spell =
            prep.spells[usize::from(prep.fighters[i].items[usize::from(item)].spell)].spell.name.clone();
        let hp_before = self.st.fighters[i].hp;
        let f = &self.st.fighters[i];
        let hp_after = hp_before - (damage as i32 - f.temp_hp).max(0);
        emit!(self, Event::ItemMishap { who: i, spell, damage, hp_before, hp_after });
        self.wound(i, damage);
    }

    /// Reads scroll `item` on `t` (its checks passed): the scroll is spent,
    /// then its spell is cast as from a slot of its level would be
    /// (provoking, concentration), at the scroll's caster level and DC.
    fn read_scroll(&mut self, i: usize, item: u8, t: usize) -> Result<(), Reason> {
        let prep = self.st.prep;
        let it = &prep.fighters[i].items[usize::from(item)];
        let spell = &prep.spells[usize::from(it.spell)].spell;
        let f = &mut self.st.fighters[i];
        f.gear.items_left[usize::from(item)] -= 1;
        f.out.items_spent += 1;
        let left = f.gear.items_left[usize::from(item)];
        emit!(self, Event::ReadsScroll { who: i, spell: spell.name.clone(), target: t, left });
        let level = spell.lowest_level().unwrap_or(1);
        if !self.concentrate_while_casting(i, level, false) {
            emit!(
                self,
                Event::SpellLost { who: i, spell: spell.name.clone(), why: SpellLoss::Concentration }
            );
            return Ok(());
        }
        self.release_item(i, item, t);
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
        assert_eq!(ItemUse::Scroll.slot(), Slot::FullRound);
    }

    #[test]
    fn use_magic_device_and_scroll_caster_level_dcs() {
        // CRB "Use Magic Device": a wand DC 20; a scroll 20 + its caster
        // level (a 3rd-level spell's scroll: caster level 5, DC 25).
        assert_eq!(umd_dc(ItemKind::Wand, 1), 20);
        assert_eq!(umd_dc(ItemKind::Scroll, 1), 21);
        assert_eq!(umd_dc(ItemKind::Scroll, 5), 25);
        // CRB "Scrolls": the caster level check, DC = the scroll's caster level + 1.
        assert_eq!(scroll_cl_dc(5), 6);
        assert_eq!(SCROLL_MISHAP_WIS_DC, 5);
        assert_eq!(UMD_MISHAP_MARGIN, 10);
        // A cleric 3 reading a scroll of dispel magic (caster level 5):
        // d20 + 3 >= 6 on 3 to 20, 18 faces of 20.
        assert!((d20_odds(3, 6, true) - 0.9).abs() < 1e-12);
        // A natural 1 always fails a caster level check, a natural 20 succeeds.
        assert!((d20_odds(10, 6, true) - 0.95).abs() < 1e-12);
        assert!((d20_odds(0, 30, true) - 0.05).abs() < 1e-12);
        // A skill check has no automatic results: Use Magic Device +5 against DC 25 never succeeds.
        assert_eq!(d20_odds(5, 26, false), 0.0);
        // +8 against DC 21 (a 1st-level scroll): 8 faces of 20 (13 to 20).
        assert!((d20_odds(8, 21, false) - 0.4).abs() < 1e-12);
    }
}
