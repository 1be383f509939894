//! The sweep-service subcommands: `run`, `coordinator`, `worker`, `ctl`,
//! `bench-service`, `import` (its own module, no service), and what they share (the coordinator address and token,
//! progress display, result documents).

pub mod bench_service;
pub mod coordinator;
pub mod ctl;
pub mod import;
pub mod progress;
pub mod report;
pub mod run;
pub mod worker;

use std::path::{Path, PathBuf};

use pf1e_wire::auth::{ClientAuth, read_token_file};
use pf1e_wire::client::Target;
use pf1e_wire::status::SweepInfo;

use crate::error::CliError;

/// Connection options shared by `worker` and `ctl`.
#[derive(Debug, Clone, clap::Args)]
pub struct ConnectArgs {
    /// Coordinator URL (`http://host:port`).
    #[arg(long, env = "PF1E_COORDINATOR")]
    pub coordinator: Option<String>,
    /// File holding the shared-secret token (else the PF1E_TOKEN variable).
    #[arg(long)]
    pub token_file: Option<PathBuf>,
    /// PEM CA certificate to verify the coordinator's TLS certificate (https URLs).
    #[arg(long)]
    pub tls_ca: Option<PathBuf>,
}

/// The token: `--token-file`, else `PF1E_TOKEN`, else none.
pub fn token(file: Option<&Path>) -> Result<Option<String>, CliError> {
    if let Some(f) = file {
        return Ok(read_token_file(f)?);
    }
    Ok(std::env::var("PF1E_TOKEN").ok().map(|t| t.trim().to_string()).filter(|t| !t.is_empty()))
}

impl ConnectArgs {
    /// The coordinator to talk to.
    pub fn target(&self) -> Result<Target, CliError> {
        let url = self.coordinator.clone().ok_or_else(|| {
            CliError::input("no coordinator: pass --coordinator URL or set PF1E_COORDINATOR")
        })?;
        let token = token(self.token_file.as_deref())?;
        let auth = ClientAuth::new(token.as_deref())?;
        let tls_ca = match &self.tls_ca {
            Some(p) => Some(std::fs::read(p).map_err(|e| CliError::input(format!("{}: {e}", p.display())))?),
            None => None,
        };
        Ok(Target { url, auth, tls_ca })
    }
}

/// A tokio runtime for the networked subcommands.
pub fn runtime() -> Result<tokio::runtime::Runtime, CliError> {
    tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .map_err(|e| CliError::environment(format!("cannot start the async runtime: {e}")))
}

/// Resolves on SIGTERM or Ctrl-C.
pub async fn shutdown_signal() {
    #[cfg(unix)]
    {
        use tokio::signal::unix::{SignalKind, signal};
        match signal(SignalKind::terminate()) {
            Ok(mut term) => {
                tokio::select! {
                    _ = term.recv() => {}
                    _ = tokio::signal::ctrl_c() => {}
                }
            }
            Err(_) => {
                let _ = tokio::signal::ctrl_c().await;
            }
        }
    }
    #[cfg(not(unix))]
    {
        let _ = tokio::signal::ctrl_c().await;
    }
}

/// The JSON document of `run --json`, `ctl results --json` and `ctl status ID --json`
/// (keys sorted, as every JSON document pf1e prints).
pub fn document(info: &SweepInfo, with_results: bool) -> serde_json::Value {
    serde_json::to_value(info.document(with_results)).unwrap_or_default()
}
