//! The sweep-service subcommands: `run`, `coordinator`, `worker`, `ctl`,
//! `bench-service`, `import` (its own module, no service), and what they share (the coordinator address and token,
//! progress display, result documents).

pub mod bench_service;
pub mod cache;
pub mod coordinator;
pub mod ctl;
pub mod docs;
pub mod import;
pub mod progress;
pub mod report;
pub mod run;
pub mod worker;

use std::path::{Path, PathBuf};

use pf1e_wire::auth::{ClientAuth, read_token_file};
use pf1e_wire::client::Target;

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

/// Refuses a coordinator URL whose scheme is neither `http` nor `https`
/// (a bare `host:port` means `http://host:port`).
pub fn check_url(url: &str) -> Result<(), CliError> {
    let bad = |why: &str| {
        CliError::input(format!(
            "invalid coordinator URL {url:?}: {why} (expected http://HOST:PORT or https://HOST:PORT; check --coordinator or PF1E_COORDINATOR)"
        ))
    };
    match url.split_once("://") {
        Some((scheme, rest)) => {
            if !scheme.eq_ignore_ascii_case("http") && !scheme.eq_ignore_ascii_case("https") {
                return Err(bad(&format!("unsupported scheme {scheme:?}")));
            }
            if rest.is_empty() || rest.starts_with('/') || rest.starts_with(':') {
                return Err(bad("no host"));
            }
            Ok(())
        }
        None if url.trim().is_empty() => Err(bad("empty")),
        None => Ok(()),
    }
}

/// The token: `--token-file`, else `PF1E_TOKEN`, else none.
pub fn token(file: Option<&Path>) -> Result<Option<String>, CliError> {
    if let Some(f) = file {
        return Ok(read_token_file(f)?);
    }
    Ok(std::env::var("PF1E_TOKEN").ok().map(|t| t.trim().to_string()).filter(|t| !t.is_empty()))
}

/// The coordinator's worker token: `--worker-token-file`, else
/// `PF1E_WORKER_TOKEN`; `None` when neither is set (the client token then
/// serves workers too).
pub fn worker_token(file: Option<&Path>) -> Result<Option<String>, CliError> {
    if let Some(f) = file {
        return Ok(read_token_file(f)?);
    }
    Ok(std::env::var("PF1E_WORKER_TOKEN").ok().map(|t| t.trim().to_string()).filter(|t| !t.is_empty()))
}

impl ConnectArgs {
    /// The coordinator to talk to.
    pub fn target(&self) -> Result<Target, CliError> {
        let url = self.coordinator.clone().ok_or_else(|| {
            CliError::input("no coordinator: pass --coordinator URL or set PF1E_COORDINATOR")
        })?;
        check_url(&url)?;
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn coordinator_urls_need_an_http_scheme_and_a_host() {
        for ok in ["http://127.0.0.1:7070", "https://c.example:7070", "HTTP://h:1", "localhost:7070"] {
            assert!(check_url(ok).is_ok(), "{ok}");
        }
        for bad in ["ftp://h:1", "grpc://h:7070", "http://", "http://:7070", ""] {
            let Err(CliError::Input(m)) = check_url(bad) else { panic!("{bad} accepted") };
            assert!(m.contains("http://HOST:PORT"), "{m}");
        }
    }
}
