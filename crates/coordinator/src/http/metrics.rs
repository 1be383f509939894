//! `GET /metrics`: the coordinator's figures in the Prometheus text format
//! (a wire format read by a scraper, not a report).

use std::fmt::Write;
use std::time::Instant;

use axum::extract::State;
use axum::http::header::CONTENT_TYPE;
use axum::response::IntoResponse;

use pf1e_wire::status::CoordinatorStats;

use super::state::AppState;
use crate::scheduler::{AuditCounts, Scheduler};

/// The figures `/metrics` shows, copied under the scheduler's lock so that
/// formatting them happens after it is released.
#[derive(Debug, Clone, Copy)]
pub struct Figures {
    stats: CoordinatorStats,
    running: usize,
    refused: u64,
    superseded: u64,
    audits: AuditCounts,
}

impl Figures {
    /// Reads the figures of `s` (a few counters; nothing scans the queue
    /// or the sweeps' history).
    pub fn of(s: &Scheduler) -> Self {
        Self {
            stats: s.coordinator_stats(Instant::now()),
            running: s.sweeps_running(),
            refused: s.reports_refused(),
            superseded: s.reports_superseded(),
            audits: s.audit_counts(),
        }
    }
}

/// The Prometheus text exposition of the coordinator's figures.
pub fn exposition(f: &Figures) -> String {
    let (c, running) = (&f.stats, f.running);
    let mut out = String::new();
    let mut metric = |name: &str, kind: &str, help: &str, value: String| {
        let _ = write!(out, "# HELP {name} {help}\n# TYPE {name} {kind}\n{name} {value}\n");
    };
    metric("pf1e_shards_queued", "gauge", "Shards waiting for a worker.", c.shards_queued.to_string());
    metric("pf1e_shards_leased", "gauge", "Shards leased to workers.", c.shards_leased.to_string());
    metric("pf1e_shards_done_total", "counter", "Shards computed by workers.", c.shards_done.to_string());
    metric("pf1e_cache_hits_total", "counter", "Shards served from the cache.", c.cache_hits.to_string());
    metric("pf1e_workers", "gauge", "Registered workers.", c.workers.to_string());
    metric("pf1e_runs_done_total", "counter", "Battles computed by workers.", c.runs_done.to_string());
    metric(
        "pf1e_runs_per_second",
        "gauge",
        "Battles per second over the last 10 s.",
        format!("{:.3}", c.runs_per_second),
    );
    metric("pf1e_sweeps_running", "gauge", "Sweeps being measured.", running.to_string());
    metric(
        "pf1e_reports_refused_total",
        "counter",
        "Shard reports refused: for a shard the worker did not hold, or with tables that do not check out.",
        f.refused.to_string(),
    );
    metric(
        "pf1e_reports_superseded_total",
        "counter",
        "Shard reports for a shard already delivered: a duplicate, or a late report after another worker's.",
        f.superseded.to_string(),
    );
    let a = f.audits;
    metric(
        "pf1e_audits_passed_total",
        "counter",
        "Audited shards whose two workers' results agreed.",
        a.passed.to_string(),
    );
    metric(
        "pf1e_audits_disputed_total",
        "counter",
        "Audited shards whose two workers' results differed (the coordinator replayed them).",
        a.disputed.to_string(),
    );
    metric(
        "pf1e_audits_waived_total",
        "counter",
        "Audited shards accepted on one result: their worker was the only one registered.",
        a.waived.to_string(),
    );
    metric(
        "pf1e_workers_quarantined_total",
        "counter",
        "Workers quarantined for a result that differed from the coordinator's replay.",
        a.quarantined.to_string(),
    );
    out
}

pub(super) async fn metrics(State(st): State<AppState>) -> impl IntoResponse {
    // Only the counters are read under the lock; the text is built after.
    let figures = Figures::of(&st.service.lock());
    let mut body = exposition(&figures);
    let name = "pf1e_auth_failures_total";
    let _ = write!(
        body,
        "# HELP {name} Requests refused for a missing or wrong token (gRPC and HTTP).\n# TYPE {name} counter\n{name} {}\n",
        st.service.auth_failures()
    );
    let commits = st.service.commit_counts();
    for (name, help, value) in [
        (
            "pf1e_commits_total",
            "Durable transactions of shard results (a group commit holds the reports that arrived together).",
            commits.commits.load(std::sync::atomic::Ordering::Relaxed),
        ),
        (
            "pf1e_committed_shards_total",
            "Shard results committed by the group committer.",
            commits.shards.load(std::sync::atomic::Ordering::Relaxed),
        ),
    ] {
        let _ = write!(body, "# HELP {name} {help}\n# TYPE {name} counter\n{name} {value}\n");
    }
    ([(CONTENT_TYPE, "text/plain; version=0.0.4; charset=utf-8")], body)
}
