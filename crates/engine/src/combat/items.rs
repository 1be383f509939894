//! The wands and potions a combatant carries (`model::items`), compiled for
//! play: the spell each holds (an index into the encounter's spell table),
//! the caster level it is cast at, and how many uses it has.
//!
//! Played so far: a wand of a healing spell, used between battles by a
//! member whose class list has the spell (`carry::Party::short_rest`).
//! Potions are counted and carried through a day but not drunk yet;
//! `docs/rules/items.md` says what is not played and why.

use crate::library::Library;
use crate::model::Combatant;
use crate::model::items::{ItemUse, WAND_CHARGES};
use crate::spell::Spell;

/// A wand or a potion.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum ItemKind {
    /// Spell trigger, one charge per use.
    Wand,
    /// Drunk (or poured into a helpless ally), one potion per use.
    Potion,
}

/// One carried wand or stack of potions.
#[derive(Clone, Debug)]
pub(crate) struct PreparedItem {
    pub kind: ItemKind,
    /// Index into `PreparedEncounter::spells`.
    pub spell: u16,
    /// The item's caster level: the lowest that can cast the spell (CRB
    /// "Magic Item Creation": the minimum caster level is the default).
    pub cl: u32,
    /// Uses at the start of the day: a wand's charges, the potions' number.
    pub uses: u32,
    /// Whether its carrier may use it: anyone drinks a potion; a wand is a
    /// spell trigger item, usable only by a caster whose list has the spell
    /// (Use Magic Device is not played).
    pub usable: bool,
}

/// The lowest caster level that casts `spell`: 1 for a 0- or 1st-level
/// spell, then two levels per spell level (CRB "Magic Item Creation").
fn item_cl(spell: &Spell) -> u32 {
    let level = u32::from(spell.lowest_level().unwrap_or(1));
    (2 * level).saturating_sub(1).max(1)
}

/// Compiles `c`'s wands and potions; `index_of` maps a spell identifier to
/// its index in the encounter's spell table. An item naming a spell the
/// library lacks is an error at its place.
pub(crate) fn prepare_items(
    c: &Combatant,
    library: &Library,
    index_of: &mut dyn FnMut(&str, &Spell) -> u16,
) -> Result<Vec<PreparedItem>, (String, String)> {
    let mut out = Vec::new();
    // Without a spell directory no item can be played: the items are carried
    // for the record only (`docs/rules/items.md`).
    if library.spells.is_empty() {
        return Ok(out);
    }
    for (i, item) in c.carried_items.iter().enumerate() {
        let use_ = ItemUse::of(item.name());
        let kind = match use_ {
            ItemUse::Wand(_) => ItemKind::Wand,
            ItemUse::Potion(_) => ItemKind::Potion,
            ItemUse::Scroll(_) | ItemUse::Splash(_) | ItemUse::Other => continue,
        };
        let name = use_.spell().unwrap_or_default();
        let Some((id, spell)) = library.spell(name) else {
            return Err((
                format!("$.carried_items[{i}]"),
                format!("{:?}: no spell named {name:?}", item.name()),
            ));
        };
        let on_list = !c.spells.is_empty()
            && c.spell_list.as_deref().is_none_or(|list| spell.levels.contains_key(list));
        out.push(PreparedItem {
            kind,
            spell: index_of(id, spell),
            cl: item_cl(spell),
            uses: match kind {
                ItemKind::Wand => item.charges().unwrap_or(WAND_CHARGES),
                ItemKind::Potion => item.quantity(),
            },
            usable: kind == ItemKind::Potion || on_list,
        });
    }
    Ok(out)
}
