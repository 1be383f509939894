//! A rust monster's rust (Bestiary, Rust Monster, "Rust (Su)": "A rust
//! monster's antennae are a primary touch attack that causes any metal
//! object they touch to swiftly rust and corrode. The object touched takes
//! half its maximum hp in damage and gains the broken condition—a second
//! hit destroys the item. [...] An attended object, any magic object, or a
//! metal creature can attempt a DC 15 Reflex save to negate this effect").
//!
//! - The antennae are an attack entry of their own (a touch attack dealing
//!   no damage); their `on_hit` rider with the `rust` effect plays the rest.
//! - The item touched: the foe's metal armor or metal shield (`armor` and
//!   `shield` of its file, `metal`), whichever gives more AC now, the armor
//!   on a tie; a foe with neither loses nothing. *Simplification*: weapons
//!   are never the item touched (the rust monster can strike one, as a
//!   sunder that does not provoke; the policy does not choose it).
//! - Every item a creature wears is attended: it saves, with the better of
//!   its wearer's Reflex bonus and its own (CRB "Saving Throws" for items:
//!   2 + ½ its caster level, magic only; the caster level of armor or a
//!   shield with only an enhancement bonus is three times that bonus, CRB
//!   "Magic Armor").
//! - Broken (CRB "Broken"): "If the item is a suit of armor or a shield,
//!   the bonus it grants to AC is halved, rounding down"; destroyed: no
//!   bonus. The loss comes off normal and flat-footed AC, never touch AC
//!   (which never had it) or CMD. *Simplification*: the doubled armor check
//!   penalty of broken armor is not played (no skill in a battle uses it),
//!   and the damage lasts the battle (a day's later battles get their gear
//!   back: no repair is played, and no carry either).
//! - A metal creature's 3d6+5 is not played: no file is a metal creature.

use crate::effects::{Context, SaveKind};
use crate::rng::Dice;

use super::super::engine::Engine;
use super::super::event::{AfflictionEvent, Event};
use super::super::log::emit;
use super::super::state::BattleState;

/// The armor's and the shield's places in `MonsterState::rusted`.
pub(crate) const ARMOR: usize = 0;
/// The shield's place.
pub(crate) const SHIELD: usize = 1;

/// The AC bonus an item of bonus `bonus` gives after `rusted` touches
/// (0: intact, 1: broken, halved rounding down, 2: destroyed).
pub(crate) fn ac_left(bonus: i32, rusted: u8) -> i32 {
    match rusted {
        0 => bonus,
        1 => bonus / 2,
        _ => 0,
    }
}

/// A magic item's own save bonus (2 + ½ caster level, the caster level of
/// armor or a shield three times its enhancement bonus); none for a
/// nonmagical item.
pub(crate) fn item_save(enhancement: u32) -> Option<i32> {
    (enhancement > 0).then(|| 2 + (3 * enhancement as i32) / 2)
}

impl BattleState<'_> {
    /// The AC `t`'s rusted armor and shield no longer give (a loss to normal
    /// and flat-footed AC; touch AC never had it). A shield already let go
    /// (`shield_off`) loses nothing more.
    pub(crate) fn rust_ac_loss(&self, t: usize) -> i32 {
        let rusted = self.fighters[t].monster.rusted;
        if rusted == [0, 0] {
            return 0;
        }
        let gear = &self.prep.fighters[t].defense.metal;
        let shield_off = self.fighters[t].turn.martial.shield_off;
        (0..2)
            .filter(|&k| k != SHIELD || !shield_off)
            .filter_map(|k| gear[k].as_ref().map(|g| g.ac_bonus - ac_left(g.ac_bonus, rusted[k])))
            .sum()
    }

    /// The item rust would touch on `t`: its metal armor or shield not yet
    /// destroyed that gives more AC now (the armor on a tie).
    pub(crate) fn rust_target(&self, t: usize) -> Option<usize> {
        let rusted = self.fighters[t].monster.rusted;
        let gear = &self.prep.fighters[t].defense.metal;
        let left =
            |k: usize| gear[k].as_ref().filter(|_| rusted[k] < 2).map(|g| ac_left(g.ac_bonus, rusted[k]));
        match (left(ARMOR), left(SHIELD)) {
            (Some(a), Some(s)) if s > a => Some(SHIELD),
            (Some(_), _) => Some(ARMOR),
            (None, Some(_)) => Some(SHIELD),
            (None, None) => None,
        }
    }
}

impl<R: Dice> Engine<'_, '_, R> {
    /// Rust from rider `k` of `a` on `t` (its hit landed): the item
    /// touched saves or is broken, or destroyed if it was broken.
    pub(crate) fn rust(&mut self, a: usize, k: usize, t: usize) {
        let prep = self.st.prep;
        let Some(r) = prep.fighters[a].monster.as_deref().and_then(|m| m.riders.get(k)) else { return };
        let Some(slot) = self.st.rust_target(t) else { return };
        let Some(gear) = prep.fighters[t].defense.metal[slot].as_ref() else { return };
        emit!(
            self,
            Event::Affliction {
                who: a,
                what: AfflictionEvent::Strikes { ability: r.name.to_string(), target: t }
            }
        );
        let kind = r.save.unwrap_or(SaveKind::Ref);
        let ctx = Context { other_alignment: prep.fighters[a].nature.alignment, ..Context::default() };
        let wearer = self.st.save_bonus(t, kind, &ctx);
        let extra = item_save(gear.enhancement).map_or(0, |own| (own - wearer).max(0));
        if self.roll_save_with(t, kind, r.dc, &ctx, extra) {
            return;
        }
        let rusted = &mut self.st.fighters[t].monster.rusted[slot];
        *rusted += 1;
        let (ac_left, destroyed) = (ac_left(gear.ac_bonus, *rusted), *rusted >= 2);
        emit!(
            self,
            Event::Affliction {
                who: t,
                what: AfflictionEvent::Rusts {
                    ability: r.name.to_string(),
                    item: gear.name.clone(),
                    ac_left,
                    destroyed
                }
            }
        );
    }
}
