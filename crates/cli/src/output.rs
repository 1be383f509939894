//! Writing to the terminal: results to stdout, notes to stderr.
//!
//! A closed stdout (`pf1e run … | head`) ends the command quietly and
//! successfully, as in ripgrep: [`print`] turns the broken pipe into
//! [`CliError::Quiet`], which exits 0 without a word. Notes on stderr never
//! fail a command. JSON documents follow one convention: indented on a
//! terminal, one compact line when piped (`--json` on every command).

use std::io::{IsTerminal, Write};
use std::process::ExitCode;

use crate::error::CliError;

/// Writes `text` to stdout in one piece.
pub fn print(text: &str) -> Result<(), CliError> {
    let mut out = std::io::stdout().lock();
    out.write_all(text.as_bytes()).and_then(|()| out.flush()).map_err(stdout_error)
}

/// Writes `text` and a newline to stdout.
pub fn println(text: &str) -> Result<(), CliError> {
    let mut out = std::io::stdout().lock();
    out.write_all(text.as_bytes())
        .and_then(|()| out.write_all(b"\n"))
        .and_then(|()| out.flush())
        .map_err(stdout_error)
}

/// The failure to write to stdout: quiet when the reader has gone.
pub fn stdout_error(e: std::io::Error) -> CliError {
    if e.kind() == std::io::ErrorKind::BrokenPipe {
        CliError::Quiet
    } else {
        CliError::environment(format!("stdout: cannot write: {e}"))
    }
}

/// Writes a line to stderr; a closed stderr is ignored (a note is never worth failing for).
pub fn note(text: &str) {
    let mut err = std::io::stderr().lock();
    let _ = writeln!(err, "{text}");
}

/// Whether stdout is a terminal (a person reads it).
pub fn stdout_is_terminal() -> bool {
    std::io::stdout().is_terminal()
}

/// Whether stderr is a terminal.
pub fn stderr_is_terminal() -> bool {
    std::io::stderr().is_terminal()
}

/// A JSON document in the shape convention: indented on a terminal, one line when piped.
pub fn json_text<T: serde::Serialize + ?Sized>(value: &T, pretty: bool) -> Result<String, CliError> {
    let text = if pretty { serde_json::to_string_pretty(value) } else { serde_json::to_string(value) };
    text.map_err(|e| CliError::environment(format!("cannot write the JSON document: {e}")))
}

/// Prints a JSON document on stdout (see [`json_text`]).
pub fn json<T: serde::Serialize + ?Sized>(value: &T) -> Result<(), CliError> {
    println(&json_text(value, stdout_is_terminal())?)
}

/// The width tables must fit in: `COLUMNS` when set, else the terminal's,
/// else 120 columns.
pub fn width() -> usize {
    if let Some(n) = std::env::var("COLUMNS").ok().and_then(|c| c.trim().parse::<usize>().ok())
        && n > 0
    {
        return n;
    }
    console::Term::stdout().size_checked().map_or(120, |(_, cols)| usize::from(cols))
}

/// A progress bar's rate in whole units a second (`{rate}` in a template).
pub fn rate(state: &indicatif::ProgressState, w: &mut dyn std::fmt::Write) {
    let _ = write!(w, "{:.0}/s", state.per_sec());
}

/// Prints `failure`'s one-line message on stderr (none for a quiet one)
/// and returns its exit code.
pub fn report(failure: CliError) -> ExitCode {
    let code = failure.exit_code();
    if let CliError::Input(message) | CliError::Environment(message) = failure {
        note(&format!("error: {}", crate::error::one_line(&message)));
    }
    ExitCode::from(code)
}

/// Handles a command-line parsing failure: help and version go to stdout with
/// exit 0; usage errors go to stderr as one line (plus a hint) with exit 2.
pub fn clap_exit(err: &clap::Error) -> ExitCode {
    use clap::error::ErrorKind;
    match err.kind() {
        ErrorKind::DisplayHelp | ErrorKind::DisplayVersion => {
            // Nothing sensible is left to do if stdout is closed.
            let _ = err.print();
            ExitCode::SUCCESS
        }
        ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand => {
            let _ = err.print();
            ExitCode::from(2)
        }
        _ => {
            note(&crate::error::clap_line(err));
            ExitCode::from(2)
        }
    }
}
