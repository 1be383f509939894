//! The sweep-service subcommands: `run`, `coordinator`, `worker`, `ctl`,
//! `bench-service`, `import` (its own module, no service), and what they share (the coordinator address and token,
//! progress display, result documents).

pub mod bench_service;
pub mod cache;
pub mod coordinator;
pub mod ctl;
pub mod day;
pub mod design;
pub mod docs;
pub mod import;
pub mod progress;
pub mod report;
pub mod run;
pub mod worker;

use std::path::{Path, PathBuf};

use pf1e_wire::client::{Target, TargetSettings, token_from};

use crate::error::CliError;

/// Connection options shared by `worker` and `ctl`, accepted anywhere on
/// the line (`pf1e ctl status --coordinator URL`).
#[derive(Debug, Clone, clap::Args)]
pub struct ConnectArgs {
    /// Coordinator URL (`http://host:port`, `https://host:port`).
    #[arg(long, env = "PF1E_COORDINATOR", global = true, value_name = "URL")]
    pub coordinator: Option<String>,
    /// File holding the shared-secret token (else the PF1E_TOKEN variable).
    #[arg(long, global = true, value_name = "FILE")]
    pub token_file: Option<PathBuf>,
    /// PEM CA certificate to verify the coordinator's TLS certificate (https URLs).
    #[arg(long, global = true, value_name = "FILE")]
    pub tls_ca: Option<PathBuf>,
}

/// The token: `--token-file`, else `PF1E_TOKEN`, else none.
pub fn token(file: Option<&Path>) -> Result<Option<String>, CliError> {
    Ok(token_from(file, std::env::var("PF1E_TOKEN").ok())?)
}

/// The coordinator's worker token: `--worker-token-file`, else
/// `PF1E_WORKER_TOKEN`; `None` when neither is set (the client token then
/// serves workers too).
pub fn worker_token(file: Option<&Path>) -> Result<Option<String>, CliError> {
    Ok(token_from(file, std::env::var("PF1E_WORKER_TOKEN").ok())?)
}

impl ConnectArgs {
    /// The coordinator to talk to.
    pub fn target(&self) -> Result<Target, CliError> {
        Ok(Target::from_settings(TargetSettings {
            url: self.coordinator.clone(),
            token_file: self.token_file.as_deref(),
            token_env: std::env::var("PF1E_TOKEN").ok(),
            tls_ca: self.tls_ca.as_deref(),
        })?)
    }
}

/// A tokio runtime for the networked clients (`ctl`, `worker`: their work is
/// network waits; a worker plays shards on its own thread pool).
pub fn runtime() -> Result<tokio::runtime::Runtime, CliError> {
    runtime_with(2)
}

/// A runtime for the coordinator: one thread per core (at least two), since
/// leases, reports, status reads and the HTTP API all run on it.
pub fn server_runtime() -> Result<tokio::runtime::Runtime, CliError> {
    runtime_with(std::thread::available_parallelism().map_or(2, |n| n.get()).max(2))
}

fn runtime_with(threads: usize) -> Result<tokio::runtime::Runtime, CliError> {
    tokio::runtime::Builder::new_multi_thread()
        .worker_threads(threads)
        .enable_all()
        .build()
        .map_err(|e| CliError::environment(format!("cannot start the async runtime: {e}")))
}

pub use pf1e_worker::shutdown_signal;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_malformed_coordinator_url_is_a_usage_error() {
        for bad in ["ftp://h:1", "http://"] {
            let args = ConnectArgs { coordinator: Some(bad.into()), token_file: None, tls_ca: None };
            let Err(CliError::Input(m)) = args.target() else { panic!("{bad} accepted") };
            assert!(m.contains("http://HOST:PORT"), "{m}");
        }
    }
}
