//! Logs on stderr: `tracing` events of every crate, filtered by `-v`/`-q`
//! (else `RUST_LOG`, else warnings), as text (colours only on a terminal) or
//! as one JSON object per line (`--log-format json`).

use std::io::IsTerminal;

use tracing_subscriber::EnvFilter;

/// How log lines are written.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, clap::ValueEnum)]
pub enum LogFormat {
    /// Human-readable lines.
    #[default]
    Text,
    /// One JSON object per line (timestamp, level, target, fields, spans).
    Json,
}

/// The filter directive of `-v`/`-q`; `None` leaves the choice to `RUST_LOG`.
pub fn directive(verbose: u8, quiet: bool) -> Option<&'static str> {
    match (quiet, verbose) {
        (true, _) => Some("error"),
        (false, 0) => None,
        (false, 1) => Some("info"),
        (false, 2) => Some("debug"),
        (false, _) => Some("trace"),
    }
}

/// Installs the subscriber; called once, before any subcommand runs.
pub fn init(verbose: u8, quiet: bool, format: LogFormat) {
    let filter = match directive(verbose, quiet) {
        Some(d) => EnvFilter::new(d),
        None => EnvFilter::try_from_default_env().unwrap_or_else(|_| EnvFilter::new("warn")),
    };
    let builder = tracing_subscriber::fmt().with_env_filter(filter).with_writer(std::io::stderr);
    match format {
        LogFormat::Text => builder.with_ansi(std::io::stderr().is_terminal()).init(),
        LogFormat::Json => builder.json().with_current_span(true).with_span_list(false).init(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn verbosity_flags_map_to_levels() {
        assert_eq!(directive(0, false), None);
        assert_eq!(directive(1, false), Some("info"));
        assert_eq!(directive(2, false), Some("debug"));
        assert_eq!(directive(5, false), Some("trace"));
        assert_eq!(directive(0, true), Some("error"));
    }
}
