//! The wands and potions a combatant carries (`model::items`), compiled for
//! play: the spell each holds (an index into the encounter's spell table),
//! the caster level it is cast at, and how many uses it has.
//!
//! Played in battle by `combat::consumables`; between battles a healing
//! wand is used by a member whose class list has the spell
//! (`carry::Party::short_rest`). `docs/rules/items.md` says what is played
//! and what is not.

use crate::library::Library;
use crate::model::Combatant;
use crate::model::items::{ItemUse, WAND_CHARGES};
use crate::spell::Spell;

/// A wand, a potion or a scroll.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum ItemKind {
    /// Spell trigger, one charge per use.
    Wand,
    /// Drunk (or poured into a helpless ally), one potion per use.
    Potion,
    /// Spell completion, read once (CRB "Scrolls").
    Scroll,
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
    /// Whether its carrier may use it: anyone drinks a potion; a wand
    /// (spell trigger) or a scroll (spell completion) is usable by a caster
    /// whose class list has the spell, or by anyone trained in Use Magic
    /// Device (`umd`). A scroll also needs a spell cast as a standard action
    /// (reading it and taking it out of the pack fill the turn).
    pub usable: bool,
    /// The Use Magic Device bonus its carrier rolls to use it, when its
    /// class list lacks the spell (CRB "Use Magic Device": DC 20 for a
    /// wand, 20 + the caster level for a scroll); `None` when the list has
    /// it or the carrier is untrained.
    pub umd: Option<i32>,
}

/// The Use Magic Device bonus of `c`, when trained (a trained-only skill):
/// the sheet's bonus when it gives one, else ranks, +3 for a class skill,
/// and the Charisma modifier. `None` without ranks or a bonus.
pub(crate) fn umd_bonus(c: &Combatant) -> Option<i32> {
    let (_, s) = c.skills.iter().find(|(k, _)| k.eq_ignore_ascii_case("use magic device"))?;
    if let Some(b) = s.bonus {
        return Some(b);
    }
    (s.rank > 0).then(|| {
        s.rank + if s.class_skill { 3 } else { 0 } + crate::dice::ability_modifier(c.abilities.cha_score)
    })
}

/// The lowest caster level that casts `spell`: 1 for a 0- or 1st-level
/// spell, then two levels per spell level (CRB "Magic Item Creation").
pub(crate) fn item_cl(spell: &Spell) -> u32 {
    let level = u32::from(spell.lowest_level().unwrap_or(1));
    (2 * level).saturating_sub(1).max(1)
}

/// Compiles `c`'s wands, potions and scrolls; `index_of` maps a spell
/// identifier to its index in the encounter's spell table. A wand or a
/// potion naming a spell the library lacks is an error at its place; such
/// a scroll is carried for the record (printed gear such as the lich's
/// scroll of teleport is for outside the battle; `docs/rules/items.md`).
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
            ItemUse::Scroll(_) => ItemKind::Scroll,
            ItemUse::Splash(_) | ItemUse::Other => continue,
        };
        let name = use_.spell().unwrap_or_default();
        let found = library.spell(name);
        if found.is_none() && kind == ItemKind::Scroll {
            continue;
        }
        let Some((id, spell)) = found else {
            return Err((
                format!("$.carried_items[{i}]"),
                format!("{:?}: no spell named {name:?}", item.name()),
            ));
        };
        let on_list = !c.spells.is_empty()
            && c.spell_list.as_deref().is_none_or(|list| spell.levels.contains_key(list));
        let umd = if on_list { None } else { umd_bonus(c) };
        let standard = spell.cast_time == crate::spell::model::CastTime::Standard;
        out.push(PreparedItem {
            kind,
            spell: index_of(id, spell),
            cl: item_cl(spell),
            uses: match kind {
                ItemKind::Wand => item.charges().unwrap_or(WAND_CHARGES),
                ItemKind::Potion | ItemKind::Scroll => item.quantity(),
            },
            usable: match kind {
                ItemKind::Potion => true,
                ItemKind::Wand => on_list || umd.is_some(),
                ItemKind::Scroll => (on_list || umd.is_some()) && standard,
            },
            umd: if kind == ItemKind::Potion { None } else { umd },
        });
    }
    Ok(out)
}
