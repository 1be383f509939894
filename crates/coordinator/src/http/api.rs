//! The JSON API: the documents `pf1e ctl … --json` prints, over HTTP.
//!
//! - `GET /api/sweeps`: `ctl status --json` (the coordinator's figures and every sweep);
//! - `GET /api/sweeps/{id}`: `ctl status ID --json`;
//! - `GET /api/sweeps/{id}/results`: `ctl results ID --json` (409 until done);
//! - `GET /api/sweeps/{id}/report.md?lang=en|fr`: `ctl results ID --format md` (module `report`);
//! - `POST /api/sweeps/{id}/cancel`: cancels; the sweep's document after it;
//! - `GET /api/workers`: `ctl workers --json`;
//! - `GET /api/about`: the coordinator's version, rules, protocol and uptime.

use std::time::Instant;

use axum::extract::{Path, State};
use axum::response::Response;
use serde::Serialize;

use pf1e_wire::status::{StatusDocument, SweepStatus};

use super::error::{ApiError, json, sweep_id};
use super::state::AppState;

/// `GET /api/about`.
#[derive(Debug, Serialize)]
struct About {
    /// The pf1e version.
    version: &'static str,
    /// The engine rules version every battle is played with.
    rules_version: &'static str,
    /// The wire protocol version workers must speak.
    protocol_version: u32,
    /// Milliseconds since the coordinator started serving.
    uptime_ms: u64,
    /// Whether it is shutting down.
    draining: bool,
}

pub(super) async fn about(State(st): State<AppState>) -> Result<Response, ApiError> {
    json(&About {
        version: env!("CARGO_PKG_VERSION"),
        rules_version: pf1e_engine::RULES_VERSION,
        protocol_version: pf1e_wire::PROTOCOL_VERSION,
        uptime_ms: st.started.elapsed().as_millis() as u64,
        draining: st.service.lock().draining(),
    })
}

pub(super) async fn sweeps(State(st): State<AppState>) -> Result<Response, ApiError> {
    let (sweeps, coordinator) = {
        let s = st.service.lock();
        (s.list(), s.coordinator_stats(Instant::now()))
    };
    // Serialized outside the scheduler's lock.
    json(&StatusDocument { coordinator, sweeps: sweeps.iter().map(|i| i.document(false)).collect() })
}

pub(super) async fn sweep(State(st): State<AppState>, Path(id): Path<String>) -> Result<Response, ApiError> {
    let info = st.service.lock().info(sweep_id(&id)?, false)?;
    json(&info.document(false))
}

pub(super) async fn results(
    State(st): State<AppState>,
    Path(id): Path<String>,
) -> Result<Response, ApiError> {
    let id = sweep_id(&id)?;
    let info = st.service.lock().info(id, true)?;
    if info.status != SweepStatus::Done {
        return Err(ApiError::NoResults { id, status: info.status });
    }
    json(&info.document(true))
}

pub(super) async fn cancel(State(st): State<AppState>, Path(id): Path<String>) -> Result<Response, ApiError> {
    let id = sweep_id(&id)?;
    let info = st.service.lock().cancel(id)?;
    tracing::info!(sweep = id, status = %info.status, "cancel requested over HTTP");
    json(&info.document(false))
}

pub(super) async fn workers(State(st): State<AppState>) -> Result<Response, ApiError> {
    let workers = st.service.lock().workers(Instant::now());
    json(&workers)
}
