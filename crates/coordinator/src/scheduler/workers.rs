//! The registered workers: who they are, the leases they hold, and when they
//! were last heard from.

use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;
use std::time::{Duration, Instant};

use pf1e_wire::status::WorkerInfo;

/// One registered worker.
pub(super) struct WorkerState {
    /// Its id, shared with the leases it takes (no copy per lease).
    pub id: Arc<str>,
    name: String,
    threads: u32,
    /// Ids of the leases it holds.
    pub leases: BTreeSet<u64>,
    /// Shards it reported.
    pub shards_done: u64,
    /// When it last called.
    pub last_seen: Instant,
}

/// Every registered worker, by id (`w1`, `w2`…).
pub(super) struct Workers {
    map: BTreeMap<String, WorkerState>,
    next: u64,
}

impl Workers {
    /// No worker.
    pub fn new() -> Self {
        Self { map: BTreeMap::new(), next: 1 }
    }

    /// Registers a worker; its new id.
    pub fn register(&mut self, name: &str, threads: u32, now: Instant) -> String {
        let id = format!("w{}", self.next);
        self.next += 1;
        let state = WorkerState {
            id: Arc::from(id.as_str()),
            name: name.to_string(),
            threads,
            leases: BTreeSet::new(),
            shards_done: 0,
            last_seen: now,
        };
        self.map.insert(id.clone(), state);
        tracing::info!(worker = %id, name, threads, "worker registered");
        id
    }

    /// A worker, marked as heard from at `now`.
    pub fn touch(&mut self, id: &str, now: Instant) -> Option<&mut WorkerState> {
        let w = self.map.get_mut(id)?;
        w.last_seen = now;
        Some(w)
    }

    /// A worker.
    pub fn get_mut(&mut self, id: &str) -> Option<&mut WorkerState> {
        self.map.get_mut(id)
    }

    /// A worker's name.
    pub fn name(&self, id: &str) -> Option<&str> {
        self.map.get(id).map(|w| w.name.as_str())
    }

    /// Removes a worker (it left).
    pub fn remove(&mut self, id: &str) -> Option<WorkerState> {
        self.map.remove(id)
    }

    /// Forgets the lease `lease` of `worker`.
    pub fn drop_lease(&mut self, worker: &str, lease: u64) {
        if let Some(w) = self.map.get_mut(worker) {
            w.leases.remove(&lease);
        }
    }

    /// Forgets workers that hold no lease and were silent for longer than `timeout`.
    pub fn forget_silent(&mut self, now: Instant, timeout: Duration) {
        self.map.retain(|id, w| {
            let keep = !w.leases.is_empty() || now.saturating_duration_since(w.last_seen) <= timeout;
            if !keep {
                tracing::info!(worker = %id, "worker forgotten after silence");
            }
            keep
        });
    }

    /// How many are registered.
    pub fn len(&self) -> usize {
        self.map.len()
    }

    /// Their state, for `ctl workers`.
    pub fn infos(&self, now: Instant) -> Vec<WorkerInfo> {
        self.map
            .iter()
            .map(|(id, w)| WorkerInfo {
                id: id.clone(),
                name: w.name.clone(),
                threads: w.threads,
                leases: w.leases.len() as u32,
                shards_done: w.shards_done,
                last_seen_ms: now.saturating_duration_since(w.last_seen).as_millis() as u64,
            })
            .collect()
    }
}
