//! The API key: a string that never shows itself.
//!
//! `Debug` and `Display` print `[redacted]`, the type is not `Serialize`, and
//! [`Secret::scrub`] removes the key from any text that came from elsewhere
//! (a server's error body, a transport error) before that text goes into an
//! error message or a log line.

use std::fmt;

/// What a redacted secret prints as.
pub const REDACTED: &str = "[redacted]";

/// A secret string (the LLM API key).
#[derive(Clone, PartialEq, Eq)]
pub struct Secret(String);

impl Secret {
    /// Wraps a secret.
    pub fn new(value: impl Into<String>) -> Self {
        Self(value.into())
    }

    /// The secret itself, for the one place that must send it (the
    /// `Authorization` header).
    pub fn expose(&self) -> &str {
        &self.0
    }

    /// Whether the secret is the empty string.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// `text` with every occurrence of the secret replaced by `[redacted]`.
    pub fn scrub(&self, text: &str) -> String {
        if self.0.is_empty() { text.to_string() } else { text.replace(&self.0, REDACTED) }
    }
}

impl fmt::Debug for Secret {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Secret({REDACTED})")
    }
}

impl fmt::Display for Secret {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(REDACTED)
    }
}

/// Scrubs `text` with an optional secret.
pub(crate) fn scrub(secret: Option<&Secret>, text: &str) -> String {
    match secret {
        Some(s) => s.scrub(text),
        None => text.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn debug_and_display_never_show_the_secret() {
        let s = Secret::new("sk-very-secret");
        assert_eq!(format!("{s}"), "[redacted]");
        assert_eq!(format!("{s:?}"), "Secret([redacted])");
        assert_eq!(format!("{:?}", Some(s.clone())), "Some(Secret([redacted]))");
        assert_eq!(s.expose(), "sk-very-secret");
    }

    #[test]
    fn scrub_removes_every_occurrence() {
        let s = Secret::new("sk-1");
        assert_eq!(s.scrub("key sk-1 and again sk-1."), "key [redacted] and again [redacted].");
        assert_eq!(Secret::new("").scrub("unchanged"), "unchanged");
    }
}
