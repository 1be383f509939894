//! Writing results to stdout in one piece.

use std::io::Write;

use crate::error::CliError;

/// Writes `text` to stdout. A closed pipe (`pf1e sim … | head`) is not an error.
pub fn print(text: &str) -> Result<(), CliError> {
    let mut out = std::io::stdout().lock();
    match out.write_all(text.as_bytes()).and_then(|()| out.flush()) {
        Ok(()) => Ok(()),
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Ok(()),
        Err(e) => Err(CliError::environment(format!("stdout: cannot write: {e}"))),
    }
}
