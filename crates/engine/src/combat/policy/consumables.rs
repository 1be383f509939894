//! Potions in the default policy (`docs/strategy.md`, "Potions"): a
//! table's fighter pours a potion into a dying friend when no healer will
//! get there, and drinks one when badly hurt and out of reach of blades.
//! Wands are the healer's (`policy::heal`); a scroll of a cure is read
//! here by a carrier who casts no spells (Use Magic Device), when no
//! healer will reach the patient.

use crate::map::Pos;
use crate::spell::effect::EffectKind;

use super::super::action::{Action, ActionKind};
use super::super::items::ItemKind;
use super::super::spells::Metamagic;
use super::super::state::{BattleState, LifeState};
use crate::grid::NEIGHBOURS;

/// A combatant drinks a healing potion at or below this fraction of its
/// hit points (one quarter: one more hit of a monster of its level could
/// drop it).
const DRINK_BELOW: (i32, i32) = (1, 4);

/// The healing potion of `i` that restores the most on average, if any is left.
fn healing_potion(b: &BattleState<'_>, i: usize) -> Option<u8> {
    let spec = &b.prep.fighters[i];
    let mut best: Option<(f64, u8)> = None;
    for (k, it) in spec.items.iter().enumerate() {
        if it.kind != ItemKind::Potion || b.fighters[i].gear.items_left[k] == 0 {
            continue;
        }
        let mean: f64 = b.prep.spells[usize::from(it.spell)]
            .spell
            .effects
            .iter()
            .filter_map(|e| match &e.kind {
                EffectKind::Heal(h) => Some(h.amount.mean_at(it.cl)),
                _ => None,
            })
            .sum();
        let k = u8::try_from(k).ok()?;
        if mean > 0.0 && best.is_none_or(|(m, _)| mean > m) {
            best = Some((mean, k));
        }
    }
    best.map(|(_, k)| k)
}

/// Whether an ally of `j` other than `giver` can heal `j` this turn: one
/// able to act, with a cure spell it can cast, a healing wand with charges,
/// channel energy or Rebuke Death, within two moves and a touch of `j`.
fn healer_near(b: &BattleState<'_>, giver: usize, j: usize) -> bool {
    (0..b.len()).any(|h| {
        if h == giver || h == j || b.are_enemies(h, j) || !b.is_active(h) {
            return false;
        }
        let spec = &b.prep.fighters[h];
        let Some(caster) = spec.caster.as_deref() else { return false };
        // An alchemist's healing extracts heal only the alchemist.
        let cures = !caster.extracts
            && caster.known.iter().any(|k| {
                b.prep.spells[usize::from(k.spell)].role.heal
                    && b.can_cast(h, k.spell, Metamagic::NONE).is_ok()
            });
        let wand = spec.items.iter().enumerate().any(|(k, it)| {
            it.kind == ItemKind::Wand
                && it.usable
                && b.fighters[h].gear.items_left[k] > 0
                && b.prep.spells[usize::from(it.spell)].role.heal
        });
        let channel = spec.abilities.as_ref().and_then(|a| a.channel).is_some_and(|c| c.positive)
            && b.fighters[h].class.pools.channel_energy > 0;
        let rebuke = spec.abilities.as_ref().is_some_and(|a| a.rebuke_death.is_some())
            && b.fighters[h].class.pools.rebuke_death > 0;
        (cures || wand || channel || rebuke) && b.distance(h, j) <= 2 * b.move_budget(h) + b.touch_reach(h)
    })
}

/// What `i` does with a potion this turn, if anything: give one to a dying
/// ally it touches when no healer can reach that ally this turn; else drink
/// one at a quarter of its hit points or less, from a square no enemy
/// threatens (after a 5-foot step when one leads there), since drinking
/// provokes.
pub(super) fn plan(b: &BattleState<'_>, i: usize, out: &mut Vec<Action>) -> bool {
    if b.prep.fighters[i].items.is_empty() || b.life(i) != LifeState::Fighting {
        return false;
    }
    // A carrier who casts no spells reads a scroll of a cure (by Use Magic
    // Device) on an ally no healer will reach; a caster's scrolls are
    // weighed with its spells (`policy::heal`).
    if let Some(read) = super::heal::scroll_cure(b, i, |j| !healer_near(b, i, j)) {
        out.push(read);
        return true;
    }
    let Some(potion) = healing_potion(b, i) else { return plan_buff_potion(b, i, out) };
    // A clay golem's cursed wound: the potion's caster level must be able to overcome it.
    let cl = b.prep.fighters[i].items[usize::from(potion)].cl;
    let dying = (0..b.len())
        .filter(|&j| j != i && !b.are_enemies(i, j) && b.life(j) == LifeState::Dying)
        .filter(|&j| b.prep.fighters[j].reserve.is_none())
        .find(|&j| b.item_use(i, potion, j).is_ok() && !healer_near(b, i, j) && b.healing_odds(j, cl) > 0.0);
    if let Some(j) = dying {
        out.push(Action::use_item(potion, j));
        return true;
    }
    let (num, den) = DRINK_BELOW;
    if b.hp(i) * den > b.hp_max(i) * num || b.item_use(i, potion, i).is_err() || b.healing_odds(i, cl) <= 0.0
    {
        return plan_buff_potion(b, i, out);
    }
    let here = b.pos(i);
    if !b.threatened_at(i, here) {
        out.push(Action::use_item(potion, i));
        return true;
    }
    let Some(q) = NEIGHBOURS
        .iter()
        .map(|&(dr, dc)| Pos::new(here.row + dr, here.col + dc))
        .find(|&q| b.can_step(i, q) && !b.threatened_at(i, q))
    else {
        return false;
    };
    out.push(Action::new(ActionKind::FiveFootStep).with_destination(q));
    out.push(Action::use_item(potion, i));
    true
}

/// A potion of a buff `i` carries and would drink now, if any: the first
/// in its file's order whose spell is a buff (no damage, no healing) not
/// yet on `i` made only of bonuses, temporary hit points or a size change,
/// and, for a size change (Enlarge Person), one that raises its melee
/// damage (`magic::size_change_gain`).
fn buff_potion(b: &BattleState<'_>, i: usize) -> Option<u8> {
    let spec = &b.prep.fighters[i];
    spec.items.iter().enumerate().find_map(|(k, it)| {
        let prepared = &b.prep.spells[usize::from(it.spell)];
        let role = &prepared.role;
        let on = b.fighters[i].effects.iter().any(|e| e.effect.spell == Some(it.spell));
        // Only buffs whose worth is a number on the sheet: bonuses,
        // temporary hit points, a larger size (an invisibility potion's
        // worth depends on the approach; the policy leaves it be).
        let sheet = prepared.spell.effects.iter().all(|e| {
            matches!(e.kind, EffectKind::Modifiers(_) | EffectKind::TempHp(_) | EffectKind::SizeChange(_))
        });
        let worth = sheet
            && super::magic::growth_of(&prepared.spell)
                .is_none_or(|steps| super::magic::size_change_gain(b, i, steps) > 0.0);
        let k = u8::try_from(k).ok()?;
        (it.kind == ItemKind::Potion
            && role.buff
            && !role.damage
            && !role.heal
            && !on
            && worth
            && b.item_use(i, k, i).is_ok())
        .then_some(k)
    })
}

/// Drinks a buff potion (`buff_potion`) before the fight is joined: when
/// no enemy threatens `i` (drinking provokes) nor any of its allies, and
/// none of its attacks can reach a foe this turn (its turn would be a
/// double move: drinking, a move and a standard action, costs it one move
/// of its approach). A table drinks its bull's strength on the way in,
/// not in the ogre's reach.
fn plan_buff_potion(b: &BattleState<'_>, i: usize, out: &mut Vec<Action>) -> bool {
    let Some(potion) = buff_potion(b, i) else { return false };
    let foes = || (0..b.len()).filter(|&e| b.are_enemies(i, e) && b.is_active(e));
    let joined = (0..b.len())
        .filter(|&j| !b.are_enemies(i, j) && b.is_active(j))
        .any(|j| b.threatened_at(j, b.pos(j)));
    let reach = b.longest_reach(i).unwrap_or(0);
    let strikes = foes().any(|e| b.distance(i, e) <= b.move_budget(i) + reach);
    if joined || strikes {
        return false;
    }
    out.push(Action::use_item(potion, i));
    true
}
