//! Spells as data: the spell file format ([`Spell`] and its [`Effect`]s),
//! its strict loader and the [`SpellBook`] of a directory.
//!
//! The format only describes; the casting rules that play it live in the
//! combat engine. `docs/data-format.md` ("Spell files") documents every
//! field, and `docs/rules/spells.md` every place where a file departs from
//! the SRD.
//!
//! ```
//! use pf1e_engine::spell::parse_spell;
//!
//! let fireball = parse_spell(r#"{
//!     "name": "Fireball", "source": "PRPG Core Rulebook pg. 283",
//!     "levels": {"sorcerer": 3, "wizard": 3}, "school": "evocation", "descriptors": ["fire"],
//!     "components": ["V", "S", "M"], "range": "long",
//!     "area": {"shape": "sphere", "spread": "spread", "radius_ft": 20},
//!     "duration": {"unit": "instantaneous"},
//!     "saving_throw": {"kind": "ref", "outcome": "half"}, "spell_resistance": true,
//!     "effects": [{"damage": {"amount": {"per_step": "1d6", "max_steps": 10}, "types": ["fire"]}}]
//! }"#, "fireball.json").unwrap();
//! assert_eq!(fireball.levels["wizard"], 3);
//! ```

mod check;
pub mod effect;
mod file;
mod load;
pub mod model;
pub mod scaled;

pub use check::{is_id, spell_id};
pub use effect::{EffectKind, EffectSave, SpellEffect};
pub use file::Spell;
pub use load::{SpellBook, SpellError, load_spell, load_spell_dir, parse_spell, spell_book};
pub use model::CLASSES;
pub use scaled::{Formula, Scaled};

#[cfg(test)]
mod tests;
