//! Failures and exit codes: 2 for bad usage or bad data, 1 for anything else.
//! Every failure is reported as ONE line on stderr, `error: <file>: <place>: <problem>`.

use std::process::ExitCode;

use clap::error::ErrorKind;

/// Why a subcommand stopped.
#[derive(Debug)]
pub enum Failure {
    /// The user's command line or data is wrong (exit 2).
    Input(String),
    /// The environment failed us (exit 1).
    Internal(String),
}

impl Failure {
    /// A usage or data error; `message` names the file, the place and the problem.
    pub fn input(message: impl std::fmt::Display) -> Self {
        Self::Input(message.to_string())
    }

    /// An environment error (thread pool, output).
    pub fn internal(message: impl std::fmt::Display) -> Self {
        Self::Internal(message.to_string())
    }

    /// Prints the one-line message and returns the exit code.
    pub fn report(self) -> ExitCode {
        let (code, message) = match self {
            Self::Input(m) => (2, m),
            Self::Internal(m) => (1, m),
        };
        eprintln!("error: {}", one_line(&message));
        ExitCode::from(code)
    }
}

/// Collapses a message onto one line so that a caller can rely on it.
pub fn one_line(message: &str) -> String {
    message.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// Handles a command-line parsing failure: help and version go to stdout with
/// exit 0; usage errors go to stderr as one line (plus a hint) with exit 2.
pub fn clap_exit(err: &clap::Error) -> ExitCode {
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
            let rendered = err.render().to_string();
            // Clap's message is its first paragraph; the rest is usage and a hint.
            let first = rendered.split("\n\n").next().unwrap_or_default();
            let text = one_line(first);
            let text = text.strip_prefix("error: ").unwrap_or(&text);
            eprintln!("error: command line: {text} (see --help)");
            ExitCode::from(2)
        }
    }
}
