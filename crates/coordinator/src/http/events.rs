//! `GET /api/events[?sweep=ID]`: live updates as server-sent events.
//!
//! Each event is a fresh snapshot, never a delta, so a client that falls
//! behind loses nothing by skipping: nothing is queued for it. A snapshot is
//! taken only when the client has taken the previous one (the stream is
//! pulled as the connection drains), at most every [`MIN_INTERVAL`] and at
//! least every [`HEARTBEAT`] (workers' "last seen" and rates move even when
//! no sweep does). Memory per client is one snapshot, whatever its speed or
//! the length of the page's life.
//!
//! Events, each with an increasing `id`:
//! - `status`: the document of `GET /api/sweeps` (`ctl status --json`);
//! - `workers`: the document of `GET /api/workers` (`ctl workers --json`);
//! - `sweep` (with `?sweep=ID`): `{"sweep": <ctl status ID --json>, "jobs":
//!   [<each job's result so far>] | null}`; `jobs` holds the `kind` and
//!   `result` members of the final `results.jobs` entries, computed from
//!   the cells measured yet (live leaders, a danger map refining), and is
//!   null once the sweep has ended (its results are final: `GET
//!   /api/sweeps/ID/results`).

use std::convert::Infallible;
use std::time::{Duration, Instant};

use axum::extract::rejection::QueryRejection;
use axum::extract::{Query, State};
use axum::response::sse::{Event, Sse};
use futures::stream::{self, Stream, StreamExt};
use serde::{Deserialize, Serialize};

use pf1e_wire::results::JobResult;
use pf1e_wire::status::{StatusDocument, SweepDocument};

use super::error::{ApiError, sweep_id};
use super::state::AppState;

/// Least time between two snapshots of one client.
pub(super) const MIN_INTERVAL: Duration = Duration::from_millis(500);
/// Most time between two snapshots of one client.
pub(super) const HEARTBEAT: Duration = Duration::from_secs(2);

/// The query of `/api/events`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct EventsQuery {
    /// Also follow this sweep.
    sweep: Option<String>,
}

/// The `sweep` event.
#[derive(Debug, Serialize)]
struct LiveSweep<'a> {
    sweep: SweepDocument<'a>,
    jobs: Option<Vec<JobResult>>,
}

/// One client's feed.
struct Feed {
    state: AppState,
    sweep: Option<u64>,
    changes: tokio::sync::watch::Receiver<u64>,
    next_id: u64,
    /// When the next snapshot may be taken (none yet: at once).
    not_before: Option<tokio::time::Instant>,
}

impl Feed {
    /// Waits for a change (or the heartbeat), then takes a snapshot.
    async fn next(mut self) -> Option<(Vec<Event>, Self)> {
        if let Some(at) = self.not_before {
            tokio::time::sleep_until(at).await;
            // A change made while sleeping is seen at once; none: the heartbeat.
            let _ =
                tokio::time::timeout(HEARTBEAT.saturating_sub(MIN_INTERVAL), self.changes.changed()).await;
        }
        self.changes.mark_unchanged();
        let events = self.snapshot();
        self.not_before = Some(tokio::time::Instant::now() + MIN_INTERVAL);
        Some((events, self))
    }

    fn snapshot(&mut self) -> Vec<Event> {
        // Read under the scheduler's lock, serialized after it.
        let (sweeps, coordinator, workers, live) = {
            let s = self.state.service.lock();
            let now = Instant::now();
            let live =
                self.sweep.and_then(|id| s.info(id, false).ok().map(|info| (info, s.live_results(id))));
            (s.list(), s.coordinator_stats(now), s.workers(now), live)
        };
        let mut docs: Vec<(&'static str, Result<serde_json::Value, serde_json::Error>)> = Vec::new();
        let status =
            StatusDocument { coordinator, sweeps: sweeps.iter().map(|i| i.document(false)).collect() };
        docs.push(("status", serde_json::to_value(status)));
        docs.push(("workers", serde_json::to_value(workers)));
        if let Some((info, jobs)) = live {
            docs.push(("sweep", serde_json::to_value(LiveSweep { sweep: info.document(false), jobs })));
        }
        docs.into_iter()
            .filter_map(|(kind, doc)| match doc {
                Ok(doc) => {
                    self.next_id += 1;
                    Some(Event::default().event(kind).id(self.next_id.to_string()).data(doc.to_string()))
                }
                Err(e) => {
                    tracing::error!("event {kind}: cannot serialize: {e}");
                    None
                }
            })
            .collect()
    }
}

pub(super) async fn events(
    State(st): State<AppState>,
    query: Result<Query<EventsQuery>, QueryRejection>,
) -> Result<Sse<impl Stream<Item = Result<Event, Infallible>>>, ApiError> {
    let Query(q) = query.map_err(|e| ApiError::BadRequest(e.body_text()))?;
    let sweep = q.sweep.as_deref().map(sweep_id).transpose()?;
    let changes = {
        let s = st.service.lock();
        if let Some(id) = sweep {
            s.info(id, false)?;
        }
        s.subscribe()
    };
    let feed = Feed { state: st, sweep, changes, next_id: 0, not_before: None };
    let stream = stream::unfold(feed, Feed::next).flat_map(|events| stream::iter(events.into_iter().map(Ok)));
    Ok(Sse::new(stream))
}
