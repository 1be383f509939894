//! The state of sweeps, workers and the coordinator, as the control API
//! reports them (`pf1e ctl status`, `workers`, `watch`; the dashboard).
//! Serialized with serde, they are the documents `--json` prints.

use std::sync::Arc;

use serde::{Deserialize, Serialize};

use crate::results::{CellReport, JobProgress, SweepResults};

/// Lifecycle of a sweep. There is no queued state: a sweep runs from the
/// moment it is accepted.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SweepStatus {
    /// Being planned and measured.
    Running,
    /// Finished with results.
    Done,
    /// Stopped by an error.
    Failed,
    /// Cancelled by a user.
    Cancelled,
}

impl SweepStatus {
    /// The status word of the CLI and the JSON documents.
    pub fn as_str(self) -> &'static str {
        match self {
            SweepStatus::Running => "running",
            SweepStatus::Done => "done",
            SweepStatus::Failed => "failed",
            SweepStatus::Cancelled => "cancelled",
        }
    }

    /// Whether the sweep will not change any more.
    pub fn is_terminal(self) -> bool {
        self != SweepStatus::Running
    }
}

impl std::fmt::Display for SweepStatus {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.pad(self.as_str())
    }
}

/// Counters of one sweep. A counter missing from a document reads as 0.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct Stats {
    /// Shards planned.
    pub shards_total: u64,
    /// Shards computed by workers for this submission.
    pub shards_computed: u64,
    /// Shards served from the cache.
    pub shards_from_cache: u64,
    /// Shards waiting for a worker.
    pub shards_queued: u64,
    /// Shards leased to a worker.
    pub shards_leased: u64,
    /// Cells planned.
    pub cells_total: u64,
    /// Cells measured.
    pub cells_done: u64,
    /// Runs planned.
    pub runs_total: u64,
    /// Runs measured (computed or cached).
    pub runs_done: u64,
    /// The most runs the planners can ask for, known before any battle (the
    /// sum of each job's worst case): the total of a progress bar that never
    /// moves backwards. Racing and refinement usually stop before it.
    pub runs_worst_case: u64,
    /// Shards the coordinator had leased, to every sweep, when this
    /// sweep's last shard was leased (its place in the fair share, counted
    /// in shards rather than time); 0 while it runs or when none was leased.
    pub leases_at_end: u64,
}

/// The state of one sweep.
#[derive(Debug, Clone, PartialEq)]
pub struct SweepInfo {
    /// Sweep id (journal key).
    pub id: u64,
    /// Sweep name.
    pub name: String,
    /// Where it is in its lifecycle.
    pub status: SweepStatus,
    /// Its counters.
    pub stats: Stats,
    /// Why it failed (empty otherwise).
    pub error: String,
    /// Its results, once done and when asked for.
    pub results: Option<Arc<SweepResults>>,
    /// Partial results of its running analysis jobs.
    pub progress: Vec<JobProgress>,
}

impl SweepInfo {
    /// Its JSON document: `id`, `name`, `status`, `stats`, `error` when it
    /// failed, and `results` (null until done) when asked for.
    pub fn document(&self, with_results: bool) -> SweepDocument<'_> {
        SweepDocument {
            id: self.id,
            name: &self.name,
            status: self.status,
            stats: self.stats,
            error: &self.error,
            results: with_results.then_some(self.results.as_deref()),
        }
    }
}

/// The JSON document of one sweep (`pf1e run --json`, `pf1e ctl status ID
/// --json`, `pf1e ctl results ID --json`, `results.json`).
#[derive(Debug, Clone, Serialize)]
pub struct SweepDocument<'a> {
    /// Sweep id.
    pub id: u64,
    /// Sweep name.
    pub name: &'a str,
    /// Where it is in its lifecycle.
    pub status: SweepStatus,
    /// Its counters.
    pub stats: Stats,
    /// Why it failed; absent otherwise.
    #[serde(skip_serializing_if = "str::is_empty")]
    pub error: &'a str,
    /// Its results when asked for (null until done); absent otherwise.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub results: Option<Option<&'a SweepResults>>,
}

/// The JSON document of the coordinator and its sweeps (`pf1e ctl status --json`).
#[derive(Debug, Clone, Serialize)]
pub struct StatusDocument<'a> {
    /// Coordinator-wide figures.
    pub coordinator: CoordinatorStats,
    /// Every sweep, without results.
    pub sweeps: Vec<SweepDocument<'a>>,
}

/// A cell a job has just measured (`ctl watch --cells`, live views).
#[derive(Debug, Clone, PartialEq)]
pub struct FinishedCell {
    /// Index of the job in the sweep file.
    pub job: usize,
    /// The cell.
    pub cell: CellReport,
}

/// A connected worker.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct WorkerInfo {
    /// Id the coordinator gave it.
    pub id: String,
    /// Its name (host name by default).
    pub name: String,
    /// Threads it plays shards with.
    pub threads: u32,
    /// Leases it holds.
    pub leases: u32,
    /// Shards it reported.
    pub shards_done: u64,
    /// Milliseconds since it was last heard from.
    pub last_seen_ms: u64,
}

/// Coordinator-wide figures (`ctl status`, the metrics endpoint).
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize, Deserialize)]
pub struct CoordinatorStats {
    /// Shards waiting for a worker.
    pub shards_queued: u64,
    /// Shards leased to workers.
    pub shards_leased: u64,
    /// Shards computed by workers since the start.
    pub shards_done: u64,
    /// Shards served from the cache since the start.
    pub cache_hits: u64,
    /// Registered workers.
    pub workers: u64,
    /// Battles per second over the last 10 s.
    pub runs_per_second: f64,
    /// Battles computed by workers since the start.
    pub runs_done: u64,
}
