//! Coordinator-wide counters since the start, and the battle rate over the
//! last ten seconds (the metrics endpoint, `ctl status`).

use std::collections::VecDeque;
use std::time::{Duration, Instant};

/// How long the rate looks back.
const WINDOW: Duration = Duration::from_secs(10);

#[derive(Default)]
pub(super) struct Throughput {
    /// Shards computed by workers.
    pub shards_done: u64,
    /// Shards served from the cache.
    pub cache_hits: u64,
    /// Battles computed by workers.
    pub runs_done: u64,
    /// Reports refused: for a shard the worker did not hold, or whose
    /// tables do not check out.
    pub forged_reports: u64,
    /// Reports for a shard nobody waits for any more: a duplicate (a worker
    /// resending what it reported when the answer was lost), or a late
    /// report after another worker delivered the shard.
    pub superseded_reports: u64,
    /// Battles of each computed shard, by arrival, over the window.
    window: VecDeque<(Instant, u64)>,
    /// Σ battles of the window (a status read does not walk it).
    window_runs: u64,
}

impl Throughput {
    /// A shard of `runs` battles arrived from a worker at `now`.
    pub fn computed(&mut self, runs: u64, now: Instant) {
        self.shards_done += 1;
        self.runs_done += runs;
        self.window.push_back((now, runs));
        self.window_runs += runs;
    }

    /// Forgets arrivals older than the window.
    pub fn prune(&mut self, now: Instant) {
        while self.window.front().is_some_and(|(t, _)| now.saturating_duration_since(*t) > WINDOW) {
            if let Some((_, runs)) = self.window.pop_front() {
                self.window_runs -= runs;
            }
        }
    }

    /// Battles per second since the oldest arrival of the window (at least one second).
    pub fn runs_per_second(&self, now: Instant) -> f64 {
        let runs = self.window_runs;
        match self.window.front() {
            Some((t, _)) => runs as f64 / now.saturating_duration_since(*t).as_secs_f64().max(1.0),
            None => 0.0,
        }
    }
}
