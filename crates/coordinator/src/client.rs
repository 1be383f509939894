//! Client-side helpers shared by `pf1e worker` and `pf1e ctl`.

use std::time::Duration;

use tonic::service::interceptor::InterceptedService;
use tonic::transport::{Certificate, Channel, ClientTlsConfig, Endpoint};

use crate::auth::ClientAuth;
use crate::proto::control_service_client::ControlServiceClient;
use crate::proto::worker_service_client::WorkerServiceClient;
use crate::service::MAX_MESSAGE;

/// How to reach a coordinator.
#[derive(Clone, Debug)]
pub struct Target {
    /// `http://host:port` or `https://host:port`.
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

impl Target {
    fn endpoint(&self) -> Result<Endpoint, String> {
        let url = if self.url.contains("://") { self.url.clone() } else { format!("http://{}", self.url) };
        let mut ep = Endpoint::from_shared(url.clone())
            .map_err(|e| format!("invalid coordinator URL {url:?}: {e}"))?
            .connect_timeout(Duration::from_secs(3))
            .tcp_nodelay(true);
        if let Some(ca) = &self.tls_ca {
            ep = ep
                .tls_config(ClientTlsConfig::new().ca_certificate(Certificate::from_pem(ca)))
                .map_err(|e| format!("TLS configuration: {e}"))?;
        }
        Ok(ep)
    }

    /// Connects once.
    pub async fn channel(&self) -> Result<Channel, String> {
        self.endpoint()?
            .connect()
            .await
            .map_err(|e| format!("cannot reach the coordinator at {}: {e}", self.url))
    }

    /// A control client.
    pub async fn control(&self) -> Result<Control, String> {
        let ch = self.channel().await?;
        Ok(ControlServiceClient::with_interceptor(ch, self.auth.clone())
            .max_decoding_message_size(MAX_MESSAGE)
            .max_encoding_message_size(MAX_MESSAGE))
    }

    /// A worker client.
    pub async fn worker(&self) -> Result<Worker, String> {
        let ch = self.channel().await?;
        Ok(WorkerServiceClient::with_interceptor(ch, self.auth.clone())
            .max_decoding_message_size(MAX_MESSAGE)
            .max_encoding_message_size(MAX_MESSAGE))
    }
}
