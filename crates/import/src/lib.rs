//! Characters into pf1e combatants: class progressions, builds (the base
//! values a sheet is computed from), their derived statistics, the
//! conformance check of a combatant file against its build, and the
//! conversion of a Foundry VTT `pf1` actor export.
//!
//! ```
//! use pf1e_import::{ClassTable, foundry};
//! use pf1e_engine::spell::SpellBook;
//!
//! let sheet = r#"{"name": "Valeros", "type": "character",
//!   "system": {"abilities": {"str": {"value": 16}, "dex": {"value": 12}, "con": {"value": 14},
//!                            "int": {"value": 10}, "wis": {"value": 10}, "cha": {"value": 8}}},
//!   "items": [{"name": "Fighter", "type": "class",
//!              "system": {"tag": "fighter", "level": 1, "hd": 10, "hp": 10, "bab": "high",
//!                         "savingThrows": {"fort": {"value": "high"}}}},
//!             {"name": "Longsword", "type": "weapon",
//!              "system": {"equipped": true, "weaponSubtype": "1h", "actions": [{"actionType": "mwak",
//!                 "damage": {"parts": [{"formula": "sizeRoll(1, 8, @size)", "type": {"values": ["slashing"]}}]},
//!                 "ability": {"attack": "str", "damage": "str", "critRange": 19, "critMult": 2}}]}}]}"#;
//! let imported = foundry::convert(sheet, "valeros.json", ClassTable::builtin().unwrap(), &SpellBook::default()).unwrap();
//! assert_eq!(imported.combatant.hp_max, 12);
//! assert_eq!(imported.combatant.attacks[0].attack_bonus, 4);
//! assert!(imported.unmapped.is_empty());
//! ```

pub mod build;
pub mod check;
pub mod classes;
pub mod foundry;

pub use build::{Build, BuildError, Derived, MasterNumbers, parse_build};
pub use check::{Conformance, Mismatch, check};
pub use classes::{ClassTable, ClassTableError};

/// Why a file cannot be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Error {
    /// The JSON is malformed or a value has the wrong shape.
    #[error("{file}: {path}: {message}")]
    Json {
        /// The file.
        file: String,
        /// JSONPath-style place (`$.items[3].system.level`).
        path: String,
        /// What is wrong.
        message: String,
    },
    /// A build that cannot be derived.
    #[error("{file}: {source}")]
    Build {
        /// The file.
        file: String,
        /// The problem and its place.
        source: BuildError,
    },
}

/// A serde path in the JSONPath style of the project's other errors.
pub(crate) fn json_path(path: &serde_path_to_error::Path) -> String {
    use serde_path_to_error::Segment;
    let mut out = String::from("$");
    for seg in path.iter() {
        match seg {
            Segment::Seq { index } => out.push_str(&format!("[{index}]")),
            Segment::Map { key } | Segment::Enum { variant: key } => push_key(&mut out, key),
            Segment::Unknown => out.push_str(".?"),
        }
    }
    out
}

/// Appends `.key`, or `['key']` when the key is not a plain identifier.
pub(crate) fn push_key(out: &mut String, key: &str) {
    if !key.is_empty() && key.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
        out.push('.');
        out.push_str(key);
    } else {
        out.push_str(&format!("['{}']", key.replace('\'', "\\'")));
    }
}
