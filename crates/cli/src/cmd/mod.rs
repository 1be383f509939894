//! The sweep-service subcommands: `run`, `coordinator`, `worker`, `ctl`,
//! `bench-service`, and what they share (errors and exit codes, the
//! coordinator address and token, progress display, result documents).

pub mod bench_service;
pub mod coordinator;
pub mod ctl;
pub mod progress;
pub mod report;
pub mod run;
pub mod worker;

use std::path::{Path, PathBuf};

use pf1e_wire::auth::{ClientAuth, read_token_file};
use pf1e_wire::client::Target;
use pf1e_wire::error::WireError;
use pf1e_wire::status::SweepInfo;

/// A failure with its exit status: 2 for usage and data errors, 1 otherwise.
#[derive(Debug)]
pub struct CmdError {
    /// Exit status.
    pub code: u8,
    /// One line for stderr.
    pub message: String,
}

impl CmdError {
    /// A usage or data error (exit 2).
    pub fn data(message: impl std::fmt::Display) -> Self {
        Self { code: 2, message: message.to_string() }
    }

    /// Any other failure (exit 1).
    pub fn runtime(message: impl std::fmt::Display) -> Self {
        Self { code: 1, message: message.to_string() }
    }

    /// Maps a gRPC status: refusals of the request are data errors.
    pub fn from_status(s: &tonic::Status) -> Self {
        use tonic::Code;
        let msg = s.message().to_string();
        match s.code() {
            Code::InvalidArgument
            | Code::NotFound
            | Code::Unauthenticated
            | Code::PermissionDenied
            | Code::FailedPrecondition => Self::data(msg),
            _ => Self::runtime(format!("coordinator: {msg}")),
        }
    }
}

impl From<WireError> for CmdError {
    fn from(e: WireError) -> Self {
        Self::runtime(format!(
            "the coordinator sent a message this pf1e cannot read ({e}): run the same pf1e version on both"
        ))
    }
}

impl From<CmdError> for crate::failure::Failure {
    fn from(e: CmdError) -> Self {
        if e.code == 2 { Self::input(e.message) } else { Self::internal(e.message) }
    }
}

/// Result of a subcommand.
pub type CmdResult = Result<(), CmdError>;

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
pub fn token(file: Option<&Path>) -> Result<Option<String>, CmdError> {
    if let Some(f) = file {
        return read_token_file(f).map_err(CmdError::data);
    }
    Ok(std::env::var("PF1E_TOKEN").ok().map(|t| t.trim().to_string()).filter(|t| !t.is_empty()))
}

impl ConnectArgs {
    /// The coordinator to talk to.
    pub fn target(&self) -> Result<Target, CmdError> {
        let url = self.coordinator.clone().ok_or_else(|| {
            CmdError::data("no coordinator: pass --coordinator URL or set PF1E_COORDINATOR")
        })?;
        let token = token(self.token_file.as_deref())?;
        let auth = ClientAuth::new(token.as_deref()).map_err(CmdError::data)?;
        let tls_ca = match &self.tls_ca {
            Some(p) => Some(std::fs::read(p).map_err(|e| CmdError::data(format!("{}: {e}", p.display())))?),
            None => None,
        };
        Ok(Target { url, auth, tls_ca })
    }
}

/// A tokio runtime for the networked subcommands.
pub fn runtime() -> Result<tokio::runtime::Runtime, CmdError> {
    tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .map_err(|e| CmdError::runtime(format!("cannot start the async runtime: {e}")))
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
