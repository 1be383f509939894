//! HTTPS: the gRPC listener's certificate and key, rustls with the ring
//! provider (as tonic's). Handshakes run beside the accept loop, bounded in
//! time, so a slow client never holds the listener.

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use rustls::pki_types::pem::PemObject;
use rustls::pki_types::{CertificateDer, PrivateKeyDer};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::mpsc;
use tokio::task::JoinHandle;
use tokio_rustls::TlsAcceptor;
use tokio_rustls::server::TlsStream;

use crate::net::{Guarded, GuardedListener, Limits};

/// Longest a TLS handshake may take.
const HANDSHAKE_TIMEOUT: Duration = Duration::from_secs(10);

/// Why the TLS identity cannot be used.
#[derive(Debug, thiserror::Error)]
pub enum TlsError {
    /// The certificate file holds no readable PEM certificate.
    #[error("HTTPS: the certificate is not a PEM certificate chain: {0}")]
    Certificate(#[source] rustls::pki_types::pem::Error),
    /// The key file holds no readable PEM private key.
    #[error("HTTPS: the key is not a PEM private key: {0}")]
    Key(#[source] rustls::pki_types::pem::Error),
    /// rustls refuses the pair.
    #[error("HTTPS: the certificate and key cannot serve TLS: {0}")]
    Config(#[from] rustls::Error),
}

/// A TLS acceptor for a PEM certificate chain and key.
pub(super) fn acceptor(cert_pem: &[u8], key_pem: &[u8]) -> Result<TlsAcceptor, TlsError> {
    let certs = CertificateDer::pem_slice_iter(cert_pem)
        .collect::<Result<Vec<_>, _>>()
        .map_err(TlsError::Certificate)?;
    let key = PrivateKeyDer::from_pem_slice(key_pem).map_err(TlsError::Key)?;
    let provider = Arc::new(rustls::crypto::ring::default_provider());
    let mut config = rustls::ServerConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()?
        .with_no_client_auth()
        .with_single_cert(certs, key)?;
    config.alpn_protocols = vec![b"http/1.1".to_vec()];
    Ok(TlsAcceptor::from(Arc::new(config)))
}

/// A listener whose connections arrive after their TLS handshake, under
/// the HTTP port's limits (`crate::net`).
pub(super) struct TlsListener {
    ready: mpsc::Receiver<(TlsStream<Guarded<TcpStream>>, SocketAddr)>,
    addr: SocketAddr,
    accept_loop: JoinHandle<()>,
}

impl TlsListener {
    /// Accepts on `listener` and shakes hands with `acceptor`.
    pub fn new(listener: TcpListener, acceptor: TlsAcceptor) -> std::io::Result<Self> {
        let addr = listener.local_addr()?;
        let (tx, ready) = mpsc::channel(16);
        let mut listener = GuardedListener::new(listener, Limits::HTTP);
        let accept_loop = tokio::spawn(async move {
            loop {
                let (sock, peer) = listener.accept_guarded().await;
                let (acceptor, tx) = (acceptor.clone(), tx.clone());
                tokio::spawn(async move {
                    match tokio::time::timeout(HANDSHAKE_TIMEOUT, acceptor.accept(sock)).await {
                        Ok(Ok(stream)) => {
                            let _ = tx.send((stream, peer)).await;
                        }
                        Ok(Err(e)) => tracing::debug!(%peer, "HTTPS handshake failed: {e}"),
                        Err(_) => tracing::debug!(%peer, "HTTPS handshake timed out"),
                    }
                });
            }
        });
        Ok(Self { ready, addr, accept_loop })
    }
}

impl axum::serve::Listener for TlsListener {
    type Io = TlsStream<Guarded<TcpStream>>;
    type Addr = SocketAddr;

    async fn accept(&mut self) -> (Self::Io, Self::Addr) {
        match self.ready.recv().await {
            Some(conn) => conn,
            // The accept loop is gone (the runtime is stopping): no more connections.
            None => std::future::pending().await,
        }
    }

    fn local_addr(&self) -> std::io::Result<Self::Addr> {
        Ok(self.addr)
    }
}

impl Drop for TlsListener {
    fn drop(&mut self) {
        self.accept_loop.abort();
    }
}
