//! What a carried item is for (CRB "Magic Items": potions, wands, scrolls),
//! read from its name: `potion of cure light wounds`, `wand of cure light
//! wounds`. The engine plays wands and potions of spells (`combat::items`);
//! every other item is carried without a use in play, and
//! `docs/rules/items.md` lists why.

/// Charges of a new wand (CRB "Wands": "a newly created wand has 50 charges").
pub const WAND_CHARGES: u32 = 50;

/// What an item named this way does.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ItemUse {
    /// A wand of the named spell (spell trigger; charges).
    Wand(String),
    /// A potion of the named spell (drunk, or given to a helpless ally).
    Potion(String),
    /// A scroll of the named spell (not played yet).
    Scroll(String),
    /// Anything else (ammunition, oil, holy water, gear).
    Other,
}

impl ItemUse {
    /// Reads an item's name: `<kind> of <spell>`, any case.
    pub fn of(name: &str) -> ItemUse {
        let lower = name.trim().to_ascii_lowercase();
        let spell =
            |prefix: &str| lower.strip_prefix(prefix).map(|s| s.trim().to_string()).filter(|s| !s.is_empty());
        if let Some(s) = spell("wand of ") {
            ItemUse::Wand(s)
        } else if let Some(s) = spell("potion of ") {
            ItemUse::Potion(s)
        } else if let Some(s) = spell("scroll of ") {
            ItemUse::Scroll(s)
        } else {
            ItemUse::Other
        }
    }

    /// The spell a wand or potion holds.
    pub fn spell(&self) -> Option<&str> {
        match self {
            ItemUse::Wand(s) | ItemUse::Potion(s) => Some(s),
            ItemUse::Scroll(_) | ItemUse::Other => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_item_s_use_is_read_from_its_name() {
        assert_eq!(ItemUse::of("Wand of Cure Light Wounds"), ItemUse::Wand("cure light wounds".into()));
        assert_eq!(ItemUse::of(" potion of cure light wounds"), ItemUse::Potion("cure light wounds".into()));
        assert_eq!(ItemUse::of("scroll of bless"), ItemUse::Scroll("bless".into()));
        assert_eq!(ItemUse::of("holy water"), ItemUse::Other);
        assert_eq!(ItemUse::of("wand of "), ItemUse::Other);
        assert_eq!(ItemUse::of("arrows").spell(), None);
    }
}
