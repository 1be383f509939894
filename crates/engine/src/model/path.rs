//! Places in a data file, in JSONPath style (`$.attacks[0].kind`,
//! `$.skills['Know (arcana)']`), for error messages. A leaf: the combatant
//! validation, the feat catalogue and the spell loader all name places
//! with it.

use std::fmt::Write as _;

use serde_path_to_error::Segment;

/// Renders a serde path in JSONPath style: `$`, `$.attacks[0].kind`, `$.skills['Know (arcana)']`.
pub(crate) fn json_path(path: &serde_path_to_error::Path) -> String {
    let mut out = String::from("$");
    for segment in path.iter() {
        match segment {
            Segment::Seq { index } => {
                let _ = write!(out, "[{index}]");
            }
            Segment::Map { key } | Segment::Enum { variant: key } => out = key_path(&out, key),
            Segment::Unknown => out.push_str(".?"),
        }
    }
    out
}

/// `parent.key`, or `parent['key']` when the key is not a plain identifier.
pub(crate) fn key_path(parent: &str, key: &str) -> String {
    let mut chars = key.chars();
    let identifier = chars.next().is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_');
    if identifier {
        format!("{parent}.{key}")
    } else {
        format!("{parent}['{}']", key.replace('\\', "\\\\").replace('\'', "\\'"))
    }
}

pub(crate) fn index_path(parent: &str, index: usize) -> String {
    format!("{parent}[{index}]")
}
