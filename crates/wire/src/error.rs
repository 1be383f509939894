//! Why a message received on the wire cannot become its Rust type.

use pf1e_engine::strategy::SpecError;

use crate::variant::VariantError;

/// A message that does not decode into its Rust type: a field is missing,
/// out of range or unknown to this version. Messages built by a pf1e of the
/// same [`PROTOCOL_VERSION`](crate::PROTOCOL_VERSION) never fail; a failure
/// means another version or a bug on the other end.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum WireError {
    /// A required sub-message is absent.
    #[error("{0} is missing")]
    Missing(&'static str),
    /// A field that must hold a content hash does not.
    #[error("{field}: {value:?} is not a content hash (32 bytes, or 64 hex digits)")]
    Hash {
        /// The field.
        field: &'static str,
        /// What it held (hex of the bytes when binary).
        value: String,
    },
    /// An enum field holds a value this version does not know.
    #[error("{field}: unknown value {value}")]
    Enum {
        /// The field.
        field: &'static str,
        /// The value received.
        value: i32,
    },
    /// A field's value is out of range or inconsistent with the others.
    #[error("{field}: {problem}")]
    Invalid {
        /// The field.
        field: &'static str,
        /// What is wrong.
        problem: String,
    },
    /// A scenario variant is out of range.
    #[error(transparent)]
    Variant(#[from] VariantError),
    /// A strategy spec does not parse.
    #[error(transparent)]
    Strategy(#[from] SpecError),
    /// A scenario's content does not match its hash.
    #[error(transparent)]
    Mismatch(#[from] HashMismatch),
}

impl WireError {
    /// An inconsistent field.
    pub fn invalid(field: &'static str, problem: impl Into<String>) -> Self {
        Self::Invalid { field, problem: problem.into() }
    }
}

/// A scenario hash does not match the content that came with it.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("scenario {claimed} does not match its content (hash {actual}): the bundle was altered in transit")]
pub struct HashMismatch {
    /// The hash the bundle claims.
    pub claimed: String,
    /// The hash of its content.
    pub actual: String,
}

/// The messages of an error's causes, outermost first, joined by `: `.
///
/// Transport errors say only "transport error" at the top; what the user
/// needs ("Connection refused", "invalid peer certificate") is in their
/// sources. A cause whose text the previous one already contains is skipped.
pub fn causes(e: &(dyn std::error::Error + 'static)) -> String {
    let mut parts: Vec<String> = Vec::new();
    let mut next = Some(e);
    while let Some(err) = next {
        let text = err.to_string();
        if !parts.last().is_some_and(|p| p.contains(&text)) && !text.is_empty() {
            parts.push(text);
        }
        next = err.source();
    }
    if parts.len() > 1 && parts[0] == "transport error" {
        parts.remove(0);
    }
    parts.join(": ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Debug, thiserror::Error)]
    #[error("transport error")]
    struct Outer(#[source] std::io::Error);

    #[test]
    fn causes_reach_the_root_and_drop_the_empty_words() {
        let e = Outer(std::io::Error::new(std::io::ErrorKind::ConnectionRefused, "Connection refused"));
        assert_eq!(causes(&e), "Connection refused");
        let plain = std::io::Error::other("disk full");
        assert_eq!(causes(&plain), "disk full");
    }
}
