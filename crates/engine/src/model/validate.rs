//! Loading combatant JSON with errors that name the file, the JSON path and the reason.

use super::Combatant;

/// Why a combatant file was refused.
#[derive(Debug, thiserror::Error)]
pub enum ModelError {
    /// The file could not be read.
    #[error("{file}: cannot read: {source}")]
    Io {
        /// The file.
        file: String,
        /// The I/O error.
        source: std::io::Error,
    },
    /// The JSON is malformed, a field is unknown or has the wrong type, or a value breaks a rule.
    #[error("{file}: {path}: {message}")]
    Invalid {
        /// The file.
        file: String,
        /// JSON path of the offending value (`$.attacks[0].damage[0].formula`).
        path: String,
        /// What is wrong.
        message: String,
    },
}

/// Reads and validates a combatant file.
pub fn load_combatant(path: &std::path::Path) -> Result<Combatant, ModelError> {
    let file = path.display().to_string();
    let text =
        std::fs::read_to_string(path).map_err(|source| ModelError::Io { file: file.clone(), source })?;
    parse_combatant(&text, &file)
}

/// Parses and validates combatant JSON; `file` names the origin in errors.
pub fn parse_combatant(_text: &str, _file: &str) -> Result<Combatant, ModelError> {
    todo!("combatant validation")
}
