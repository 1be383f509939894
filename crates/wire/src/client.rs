//! How a worker or a client reaches a coordinator: its URL, the token and
//! the TLS trust anchor, and the typed clients of both services.

use std::path::Path;
use std::time::Duration;

use tonic::service::interceptor::InterceptedService;
use tonic::transport::{Certificate, Channel, ClientTlsConfig, Endpoint};

use crate::auth::{ClientAuth, TokenError, read_token_file};
use crate::error::causes;
use crate::proto::control_service_client::ControlServiceClient;
use crate::proto::worker_service_client::WorkerServiceClient;

/// Largest message accepted or sent, on both ends (bundles and results of big sweeps).
pub const MAX_MESSAGE: usize = 256 * 1024 * 1024;

/// How long a connection attempt may take.
pub const CONNECT_TIMEOUT: Duration = Duration::from_secs(3);

/// How to reach a coordinator.
#[derive(Clone, Debug)]
pub struct Target {
    /// `http://host:port` or `https://host:port` (`host:port` means `http://`).
    pub url: String,
    /// Interceptor carrying the token.
    pub auth: ClientAuth,
    /// PEM CA certificate for TLS.
    pub tls_ca: Option<Vec<u8>>,
}

/// A control client.
pub type Control = ControlServiceClient<InterceptedService<Channel, ClientAuth>>;
/// A worker client.
pub type Worker = WorkerServiceClient<InterceptedService<Channel, ClientAuth>>;

/// Why a coordinator cannot be reached. The messages say what to check.
#[derive(Debug, thiserror::Error)]
pub enum ConnectError {
    /// No coordinator was named.
    #[error("no coordinator: pass --coordinator URL or set PF1E_COORDINATOR")]
    NoCoordinator,
    /// The URL names no usable scheme or host (checked before any connection).
    #[error(
        "invalid coordinator URL {url:?}: {why} (expected http://HOST:PORT or https://HOST:PORT; check --coordinator or PF1E_COORDINATOR)"
    )]
    Malformed {
        /// The URL as given.
        url: String,
        /// What is wrong with it.
        why: String,
    },
    /// The token cannot be read or sent.
    #[error(transparent)]
    Token(#[from] TokenError),
    /// The CA certificate file cannot be read.
    #[error("{path}: cannot read the CA certificate: {source}")]
    CaFile {
        /// The file.
        path: String,
        /// The I/O error.
        source: std::io::Error,
    },
    /// The URL does not parse.
    #[error(
        "invalid coordinator URL {url:?}: {} (expected http://HOST:PORT or https://HOST:PORT)",
        causes(source)
    )]
    Url {
        /// The URL as given.
        url: String,
        /// The parser's error.
        source: tonic::transport::Error,
    },
    /// The TLS settings are refused (for instance an unreadable CA certificate).
    #[error("TLS configuration for {url}: {} (check --tls-ca)", causes(source))]
    Tls {
        /// The URL.
        url: String,
        /// The TLS layer's error.
        source: tonic::transport::Error,
    },
    /// Nothing answers at the URL, or the TLS handshake fails.
    #[error(
        "cannot reach the coordinator at {url}: {} (is `pf1e coordinator` running there? check --coordinator or PF1E_COORDINATOR)",
        causes(source)
    )]
    Unreachable {
        /// The URL.
        url: String,
        /// The transport's error, with its causes.
        source: tonic::transport::Error,
    },
}

/// Refuses a coordinator URL whose scheme is neither `http` nor `https`
/// (a bare `host:port` means `http://host:port`).
pub fn check_url(url: &str) -> Result<(), ConnectError> {
    let bad = |why: &str| ConnectError::Malformed { url: url.to_string(), why: why.to_string() };
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

/// The token a process sends or expects: the content of `file` (trimmed)
/// when given, else `env` (the value of an environment variable, read by the
/// binary), else none. Blank values mean none.
pub fn token_from(file: Option<&Path>, env: Option<String>) -> Result<Option<String>, TokenError> {
    if let Some(f) = file {
        return read_token_file(f);
    }
    Ok(env.map(|t| t.trim().to_string()).filter(|t| !t.is_empty()))
}

/// Where and how to reach a coordinator, as a user writes it (flags and
/// environment), before it is checked.
#[derive(Clone, Debug, Default)]
pub struct TargetSettings<'a> {
    /// `--coordinator` or `PF1E_COORDINATOR`.
    pub url: Option<String>,
    /// `--token-file`.
    pub token_file: Option<&'a Path>,
    /// `PF1E_TOKEN`, used when no token file is given.
    pub token_env: Option<String>,
    /// `--tls-ca`.
    pub tls_ca: Option<&'a Path>,
}

impl Target {
    /// Checks the settings and reads the files they name (no connection yet).
    pub fn from_settings(s: TargetSettings<'_>) -> Result<Self, ConnectError> {
        let url = s.url.ok_or(ConnectError::NoCoordinator)?;
        check_url(&url)?;
        let token = token_from(s.token_file, s.token_env)?;
        let auth = ClientAuth::new(token.as_deref())?;
        let tls_ca = match s.tls_ca {
            Some(p) => Some(
                std::fs::read(p)
                    .map_err(|source| ConnectError::CaFile { path: p.display().to_string(), source })?,
            ),
            None => None,
        };
        Ok(Self { url, auth, tls_ca })
    }

    fn endpoint(&self) -> Result<Endpoint, ConnectError> {
        let url = if self.url.contains("://") { self.url.clone() } else { format!("http://{}", self.url) };
        let mut ep = Endpoint::from_shared(url.clone())
            .map_err(|source| ConnectError::Url { url: url.clone(), source })?
            .connect_timeout(CONNECT_TIMEOUT)
            .tcp_nodelay(true);
        if let Some(ca) = &self.tls_ca {
            ep = ep
                .tls_config(ClientTlsConfig::new().ca_certificate(Certificate::from_pem(ca)))
                .map_err(|source| ConnectError::Tls { url: url.clone(), source })?;
        }
        Ok(ep)
    }

    /// Connects once.
    pub async fn channel(&self) -> Result<Channel, ConnectError> {
        self.endpoint()?
            .connect()
            .await
            .map_err(|source| ConnectError::Unreachable { url: self.url.clone(), source })
    }

    /// A control client.
    pub async fn control(&self) -> Result<Control, ConnectError> {
        let ch = self.channel().await?;
        Ok(ControlServiceClient::with_interceptor(ch, self.auth.clone())
            .max_decoding_message_size(MAX_MESSAGE)
            .max_encoding_message_size(MAX_MESSAGE))
    }

    /// A worker client.
    pub async fn worker(&self) -> Result<Worker, ConnectError> {
        let ch = self.channel().await?;
        Ok(WorkerServiceClient::with_interceptor(ch, self.auth.clone())
            .max_decoding_message_size(MAX_MESSAGE)
            .max_encoding_message_size(MAX_MESSAGE))
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
            let Err(e) = check_url(bad) else { panic!("{bad} accepted") };
            assert!(e.to_string().contains("http://HOST:PORT"), "{e}");
        }
    }

    #[test]
    fn a_token_file_wins_over_the_environment_and_blanks_are_none() {
        let dir = std::env::temp_dir().join(format!("pf1e-token-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let f = dir.join("t");
        std::fs::write(&f, "  from-file \n").unwrap();
        assert_eq!(token_from(Some(&f), Some("env".into())).unwrap().as_deref(), Some("from-file"));
        assert_eq!(token_from(None, Some(" env ".into())).unwrap().as_deref(), Some("env"));
        assert_eq!(token_from(None, Some("   ".into())).unwrap(), None);
        assert_eq!(token_from(None, None).unwrap(), None);
        let missing = dir.join("missing");
        assert!(token_from(Some(&missing), None).unwrap_err().to_string().contains("missing"));
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn settings_without_a_coordinator_or_with_a_missing_ca_say_so() {
        let e = Target::from_settings(TargetSettings::default()).unwrap_err();
        assert!(e.to_string().contains("PF1E_COORDINATOR"), "{e}");
        let ca = Path::new("/nonexistent/ca.pem");
        let s =
            TargetSettings { url: Some("http://127.0.0.1:1".into()), tls_ca: Some(ca), ..Default::default() };
        let e = Target::from_settings(s).unwrap_err();
        assert!(e.to_string().starts_with("/nonexistent/ca.pem: "), "{e}");
    }
}
