//! What every handler shares.

use std::time::Instant;

use pf1e_wire::auth::ServerAuth;

use crate::service::Service;

/// The shared state of the HTTP handlers.
#[derive(Clone)]
pub(super) struct AppState {
    /// The scheduler, shared with the gRPC services.
    pub service: Service,
    /// The token check, shared with the gRPC services.
    pub auth: ServerAuth,
    /// When the HTTP side started (the coordinator's uptime).
    pub started: Instant,
}
