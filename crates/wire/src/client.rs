//! How a worker or a client reaches a coordinator: its URL, the token and
//! the TLS trust anchor, and the typed clients of both services.

use std::time::Duration;

use tonic::service::interceptor::InterceptedService;
use tonic::transport::{Certificate, Channel, ClientTlsConfig, Endpoint};

use crate::auth::ClientAuth;
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

impl Target {
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
