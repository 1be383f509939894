//! The coordinator's HTTP side: the dashboard pages (assets compiled into
//! the binary), the JSON API that mirrors `pf1e ctl`, live updates by
//! server-sent events, the Prometheus metrics and the health probes. Axum
//! over the same [`Service`] as the gRPC services, on listeners of its own.
//!
//! Submodules, leaves first (none imports this one): `state` (what the
//! handlers share), `error` (JSON errors and documents), `tls` (the HTTPS
//! listener), `assets` (the pages), `metrics` (the Prometheus exposition),
//! `auth` (the bearer token), `guard` (what a foreign web page could send
//! through a browser), `api` (the JSON documents), `report` (a finished
//! sweep's `report.md`, laid out by pf1e-render), `events` (the event
//! stream).
//!
//! The JSON documents are the wire crate's serializable types
//! ([`pf1e_wire::status`], [`pf1e_wire::results`]): the API prints what
//! `pf1e ctl … --json` prints, keys sorted. The pages draw their charts
//! themselves; the one text for a person, `report.md`, is pf1e-render's,
//! the same the CLI prints.

mod api;
mod assets;
mod auth;
mod error;
mod events;
mod guard;
mod metrics;
mod report;
mod state;
mod tls;

use std::net::SocketAddr;
use std::time::Instant;

use axum::Router;
use axum::http::StatusCode;
use axum::response::IntoResponse;
use axum::routing::{get, post};
use tokio::net::TcpListener;
use tokio::task::JoinHandle;

use crate::net::{GuardedListener, Limits};
use crate::service::Service;
use state::AppState;

pub use guard::REQUEST_HEADER;
pub use metrics::exposition;
pub use tls::TlsError;

/// What a listener serves.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Scope {
    /// Everything: the pages, the JSON API and its events, `/metrics`,
    /// `/healthz` and `/readyz`.
    Dashboard,
    /// `/metrics`, `/healthz` and `/readyz` only (`--metrics-listen`),
    /// without the token: figures only, for a scraper.
    Metrics,
}

/// How to serve HTTP.
#[derive(Debug, Clone, Default)]
pub struct HttpOptions {
    /// Shared-secret token: with one, every data endpoint answers 401 without it.
    pub token: Option<String>,
    /// PEM certificate and key: serve HTTPS (the gRPC listener's identity).
    pub tls: Option<(Vec<u8>, Vec<u8>)>,
}

/// Why the HTTP side cannot start.
#[derive(Debug, thiserror::Error)]
pub enum HttpError {
    /// The TLS identity is refused.
    #[error(transparent)]
    Tls(#[from] TlsError),
    /// A listener lost its address.
    #[error("HTTP listener: {0}")]
    Listener(#[source] std::io::Error),
}

/// The routes of a listener.
fn router(state: AppState, scope: Scope, listen: SocketAddr) -> Router {
    let mut data = Router::new();
    let mut open = Router::new().route("/healthz", get(healthz)).route("/readyz", get(readyz));
    if scope == Scope::Metrics {
        // The metrics-only listener holds counters and gauges, no sweep,
        // result or name: a scraper reads it without the token (keep it on
        // a private network; the dashboard listener's /metrics needs it).
        open = open.route("/metrics", get(metrics::metrics));
    }
    if scope == Scope::Dashboard {
        data = data
            .route("/metrics", get(metrics::metrics))
            .route("/api/about", get(api::about))
            .route("/api/sweeps", get(api::sweeps))
            .route("/api/sweeps/{id}", get(api::sweep))
            .route("/api/sweeps/{id}/results", get(api::results))
            .route("/api/sweeps/{id}/report.md", get(report::report))
            .route("/api/sweeps/{id}/cancel", post(api::cancel))
            .route("/api/workers", get(api::workers))
            .route("/api/events", get(events::events));
        open = open
            .route("/api/auth", get(auth_required))
            .route("/", get(assets::fleet_page))
            .route("/sweeps/{id}", get(assets::sweep_page))
            .route("/assets/{name}", get(assets::asset));
    }
    // The metrics-only listener has no token-guarded route: axum refuses a
    // route layer on an empty router.
    let router = if scope == Scope::Dashboard {
        open.merge(data.route_layer(axum::middleware::from_fn_with_state(state.clone(), auth::require)))
    } else {
        open
    };
    router
        .fallback(not_found)
        .layer(axum::middleware::from_fn(move |req, next| guard::require(listen, req, next)))
        .with_state(state)
}

/// Liveness: the process answers.
async fn healthz() -> &'static str {
    "ok\n"
}

/// Readiness: the journal is loaded (it is before any listener opens), the
/// coordinator is not shutting down and its database's last write succeeded.
async fn readyz(axum::extract::State(st): axum::extract::State<AppState>) -> axum::response::Response {
    let s = st.service.lock();
    if s.draining() {
        (StatusCode::SERVICE_UNAVAILABLE, "draining\n").into_response()
    } else if let Some(e) = s.store_failure() {
        (StatusCode::SERVICE_UNAVAILABLE, format!("the cache database failed: {e}\n")).into_response()
    } else {
        (StatusCode::OK, "ready\n").into_response()
    }
}

/// `GET /api/auth`: whether a token is required, so that the page asks for
/// it before its first call rather than after a refusal. It says nothing
/// else (a refused call would say as much).
async fn auth_required(axum::extract::State(st): axum::extract::State<AppState>) -> axum::response::Response {
    (
        [(axum::http::header::CONTENT_TYPE, "application/json")],
        format!("{{\"token_required\":{}}}", st.auth.required()),
    )
        .into_response()
}

async fn not_found(uri: axum::http::Uri) -> axum::response::Response {
    error::ApiError::NotFound(uri.path().to_string()).into_response()
}

/// The running HTTP servers; dropping this stops them (open event streams
/// included: they never end by themselves).
pub struct Http {
    servers: Vec<JoinHandle<()>>,
    addrs: Vec<SocketAddr>,
}

impl Http {
    /// Serves each listener with its scope. Call inside a tokio runtime.
    pub fn start(
        service: &Service,
        listeners: Vec<(TcpListener, Scope)>,
        opts: &HttpOptions,
    ) -> Result<Self, HttpError> {
        let acceptor = match &opts.tls {
            Some((cert, key)) => Some(tls::acceptor(cert, key)?),
            None => None,
        };
        let state = AppState {
            service: service.clone(),
            auth: service.auth(opts.token.as_deref(), "client"),
            started: Instant::now(),
        };
        let mut http = Http { servers: Vec::new(), addrs: Vec::new() };
        for (listener, scope) in listeners {
            let addr = listener.local_addr().map_err(HttpError::Listener)?;
            http.addrs.push(addr);
            let app = router(state.clone(), scope, addr);
            let task = match &acceptor {
                None => tokio::spawn(async move {
                    let listener = GuardedListener::new(listener, Limits::HTTP);
                    if let Err(e) = axum::serve(listener, app).await {
                        tracing::error!("HTTP server: {e}");
                    }
                }),
                Some(acceptor) => {
                    let listener =
                        tls::TlsListener::new(listener, acceptor.clone()).map_err(HttpError::Listener)?;
                    tokio::spawn(async move {
                        if let Err(e) = axum::serve(listener, app).await {
                            tracing::error!("HTTPS server: {e}");
                        }
                    })
                }
            };
            http.servers.push(task);
        }
        Ok(http)
    }

    /// The bound addresses, in the order of the listeners.
    pub fn addrs(&self) -> &[SocketAddr] {
        &self.addrs
    }
}

impl Drop for Http {
    fn drop(&mut self) {
        for s in &self.servers {
            s.abort();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scheduler::{Scheduler, SchedulerConfig};
    use crate::store::{Store, StoreError};
    use tokio::io::{AsyncReadExt, AsyncWriteExt};

    async fn get(addr: SocketAddr, path: &str) -> String {
        let mut sock = tokio::net::TcpStream::connect(addr).await.unwrap();
        let head = format!("GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n");
        sock.write_all(head.as_bytes()).await.unwrap();
        let mut text = String::new();
        sock.read_to_string(&mut text).await.unwrap();
        text
    }

    /// `/readyz` on the metrics listener tells the truth: 503 with the
    /// database's error while its writes fail (a successful write clears
    /// it: the scheduler's `a_failed_commit_fails_its_sweep_…` test).
    #[tokio::test]
    async fn readyz_is_503_while_the_database_fails_its_writes() {
        let cfg = SchedulerConfig { validate: false, ..Default::default() };
        let service = Service::new(Scheduler::new(Store::in_memory().unwrap(), cfg));
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let http = Http::start(&service, vec![(listener, Scope::Metrics)], &HttpOptions::default()).unwrap();
        let addr = http.addrs()[0];
        assert!(get(addr, "/readyz").await.starts_with("HTTP/1.1 200"));
        let error = StoreError { path: "c.redb".into(), what: "write shards", source: "disk full".into() };
        service.lock().commit_failed(&[], &error);
        let answer = get(addr, "/readyz").await;
        assert!(answer.starts_with("HTTP/1.1 503"), "{answer}");
        assert!(answer.contains("the cache database failed") && answer.contains("disk full"), "{answer}");
        assert!(get(addr, "/healthz").await.starts_with("HTTP/1.1 200"), "alive all the same");
    }
}
