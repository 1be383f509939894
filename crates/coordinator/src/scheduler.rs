//! The scheduler: sweeps, their planners and cells, the shard queue, leases
//! and workers. Synchronous and single-owner; the gRPC service and the
//! embedded mode both drive it (behind a mutex for the service).
//!
//! Time is passed in (`now`) so lease expiry is testable without sleeping.

use std::collections::{BTreeMap, BTreeSet, VecDeque};
use std::ops::Range;
use std::sync::Arc;
use std::time::{Duration, Instant};

use pf1e_wire::canon::hex;
use pf1e_wire::proto;
use pf1e_wire::results::{JobReport, SweepResults};
use pf1e_wire::scenario::{Scenario, ScenarioHash};
use pf1e_wire::shard::{Lease, ShardKey, ShardReport, ShardResult, ShardSpec};
use pf1e_wire::status::{CoordinatorStats, FinishedCell, Stats, SweepInfo, WorkerInfo};

use crate::cell::CellSpec;
use crate::merge::CellResult;
use crate::plan::{Planner, Step};
use crate::shard::{shard_key, shard_spec, split};
use crate::store::{JournalState, Store, StoreError, SweepStatus};
use crate::sweep::{Sweep, SweepError};

/// Tuning of the scheduler.
#[derive(Debug, Clone)]
pub struct SchedulerConfig {
    /// Lifetime of a lease unless extended by a heartbeat.
    pub lease_ttl: Duration,
    /// Most shards handed out by one lease call (backpressure).
    pub max_lease: usize,
    /// A worker silent for this long is forgotten.
    pub worker_timeout: Duration,
    /// Check submitted scenarios with the engine's loaders.
    pub validate: bool,
}

impl Default for SchedulerConfig {
    fn default() -> Self {
        Self {
            lease_ttl: Duration::from_secs(10),
            max_lease: 1024,
            worker_timeout: Duration::from_secs(60),
            validate: true,
        }
    }
}

/// Why a scheduler call was refused.
#[derive(Debug, thiserror::Error)]
pub enum SchedError {
    /// The submitted sweep is invalid (nothing was written).
    #[error("{0}")]
    Invalid(#[from] SweepError),
    /// No sweep has this id.
    #[error("no sweep with id {0}")]
    UnknownSweep(u64),
    /// The worker is not registered (or was forgotten): register again.
    #[error("unknown worker {0:?}: register again")]
    UnknownWorker(String),
    /// The worker runs other rules.
    #[error(
        "worker rules version {worker:?} differs from the coordinator's {coordinator:?}: run the same pf1e version on both"
    )]
    RulesVersion {
        /// The worker's.
        worker: String,
        /// The coordinator's.
        coordinator: String,
    },
    /// The worker speaks another version of the wire protocol.
    #[error(
        "worker protocol version {worker} differs from the coordinator's {coordinator}: run the same pf1e version on both"
    )]
    ProtocolVersion {
        /// The worker's.
        worker: u32,
        /// The coordinator's.
        coordinator: u32,
    },
    /// The database failed.
    #[error(transparent)]
    Store(#[from] StoreError),
}

struct ShardSlot {
    range: Range<u64>,
    key: ShardKey,
    result: Option<Arc<ShardResult>>,
}

struct CellRun {
    spec: CellSpec,
    shards: Vec<ShardSlot>,
    remaining: usize,
    result: Option<CellResult>,
}

struct JobRun {
    planner: Box<dyn Planner>,
    cells: Vec<CellRun>,
    done: bool,
}

struct SweepRun {
    name: String,
    sweep: Sweep,
    status: SweepStatus,
    error: String,
    jobs: Vec<JobRun>,
    /// Counters (queued and leased are computed when asked).
    stats: Stats,
    /// Reports of the cells in the order they finished.
    finished: Vec<FinishedCell>,
    results: Option<Arc<SweepResults>>,
}

#[derive(Clone, Copy)]
struct Waiter {
    sweep: u64,
    job: usize,
    cell: usize,
    shard: usize,
}

struct Pending {
    spec: ShardSpec,
    waiters: Vec<Waiter>,
    lease: Option<u64>,
}

struct LeaseInfo {
    key: ShardKey,
    worker: String,
    deadline: Instant,
}

struct WorkerState {
    name: String,
    threads: u32,
    leases: BTreeSet<u64>,
    shards_done: u64,
    last_seen: Instant,
}

/// Coordinator-wide counters.
#[derive(Debug, Clone, Default)]
struct Totals {
    shards_done: u64,
    cache_hits: u64,
    runs_done: u64,
}

/// The scheduler.
pub struct Scheduler {
    store: Store,
    cfg: SchedulerConfig,
    sweeps: BTreeMap<u64, SweepRun>,
    history: BTreeMap<u64, JournalState>,
    scenarios: BTreeMap<ScenarioHash, Arc<Scenario>>,
    pending: BTreeMap<ShardKey, Pending>,
    queue: VecDeque<ShardKey>,
    leases: BTreeMap<u64, LeaseInfo>,
    next_expiry: Option<Instant>,
    workers: BTreeMap<String, WorkerState>,
    next_lease: u64,
    next_worker: u64,
    draining: bool,
    totals: Totals,
    rate: VecDeque<(Instant, u64)>,
    changes: tokio::sync::watch::Sender<u64>,
}

impl Scheduler {
    /// A scheduler over a store.
    pub fn new(store: Store, cfg: SchedulerConfig) -> Self {
        Self {
            store,
            cfg,
            sweeps: BTreeMap::new(),
            history: BTreeMap::new(),
            scenarios: BTreeMap::new(),
            pending: BTreeMap::new(),
            queue: VecDeque::new(),
            leases: BTreeMap::new(),
            next_expiry: None,
            workers: BTreeMap::new(),
            next_lease: 1,
            next_worker: 1,
            draining: false,
            totals: Totals::default(),
            rate: VecDeque::new(),
            changes: tokio::sync::watch::Sender::new(0),
        }
    }

    /// The configuration.
    pub fn config(&self) -> &SchedulerConfig {
        &self.cfg
    }

    /// A receiver that changes whenever any sweep progresses.
    pub fn subscribe(&self) -> tokio::sync::watch::Receiver<u64> {
        self.changes.subscribe()
    }

    fn bump(&self) {
        self.changes.send_modify(|g| *g = g.wrapping_add(1));
    }

    /// Loads the journal: finished sweeps become history, unfinished ones
    /// are planned again (their measured shards come from the cache).
    /// Returns the ids of the resumed sweeps.
    pub fn resume(&mut self) -> Result<Vec<u64>, SchedError> {
        let mut resumed = Vec::new();
        for (id, bundle, state) in self.store.sweeps()? {
            if state.status.is_terminal() {
                self.history.insert(id, state);
                continue;
            }
            match Sweep::from_bundle(&bundle) {
                Ok(sweep) => {
                    self.start(id, sweep)?;
                    resumed.push(id);
                }
                Err(e) => {
                    let mut state = state;
                    state.status = SweepStatus::Failed;
                    state.error = format!("cannot resume: {e}");
                    self.store.update_sweep(id, &state, None)?;
                    self.history.insert(id, state);
                }
            }
        }
        Ok(resumed)
    }

    /// Validates, journals and starts a sweep. Nothing is written when it is invalid.
    pub fn submit(&mut self, bundle: proto::SweepBundle) -> Result<u64, SchedError> {
        let sweep = Sweep::from_bundle(&bundle)?;
        if self.cfg.validate {
            sweep.validate(&bundle.sweep_yaml)?;
        }
        let state = JournalState {
            name: sweep.name.clone(),
            status: SweepStatus::Running,
            error: String::new(),
            planners: Vec::new(),
            stats: None,
        };
        let id = self.store.create_sweep(&bundle, &state)?;
        self.start(id, sweep)?;
        Ok(id)
    }

    fn start(&mut self, id: u64, sweep: Sweep) -> Result<(), SchedError> {
        let jobs = sweep
            .jobs
            .iter()
            .map(|j| JobRun { planner: j.planner(&sweep.job_context()), cells: Vec::new(), done: false })
            .collect();
        self.scenarios.entry(sweep.scenario.hash).or_insert_with(|| Arc::clone(&sweep.scenario));
        let run = SweepRun {
            name: sweep.name.clone(),
            sweep,
            status: SweepStatus::Running,
            error: String::new(),
            jobs,
            stats: Stats::default(),
            finished: Vec::new(),
            results: None,
        };
        self.sweeps.insert(id, run);
        self.pump(id)?;
        self.bump();
        Ok(())
    }

    /// Steps the planners of a sweep until they wait or finish.
    fn pump(&mut self, id: u64) -> Result<(), SchedError> {
        loop {
            let Some(run) = self.sweeps.get_mut(&id) else { return Ok(()) };
            if run.status != SweepStatus::Running {
                return Ok(());
            }
            let scenario_hash = run.sweep.scenario.hash;
            let shard_size = run.sweep.shard_size;
            let mut new_cells = Vec::new();
            let mut all_done = true;
            for (j, job) in run.jobs.iter_mut().enumerate() {
                if job.done {
                    continue;
                }
                match job.planner.step() {
                    Step::Emit(cells) => {
                        all_done = false;
                        for spec in cells {
                            let shards: Vec<ShardSlot> = split(spec.runs, shard_size)
                                .into_iter()
                                .map(|range| ShardSlot {
                                    key: shard_key(&scenario_hash, &spec, &range),
                                    range,
                                    result: None,
                                })
                                .collect();
                            run.stats.shards_total += shards.len() as u64;
                            run.stats.cells_total += 1;
                            run.stats.runs_total += spec.runs;
                            new_cells.push((j, job.cells.len()));
                            job.cells.push(CellRun { remaining: shards.len(), shards, spec, result: None });
                        }
                    }
                    Step::Wait => all_done = false,
                    Step::Done => job.done = true,
                }
            }
            if new_cells.is_empty() {
                if all_done {
                    self.finish(id)?;
                }
                return Ok(());
            }
            self.journal(id)?;
            self.place_shards(id, &new_cells)?;
        }
    }

    /// Serves new cells' shards from the cache or queues them.
    fn place_shards(&mut self, id: u64, cells: &[(usize, usize)]) -> Result<(), SchedError> {
        let Some(run) = self.sweeps.get(&id) else { return Ok(()) };
        let mut wanted = Vec::new();
        for &(j, c) in cells {
            for (s, slot) in run.jobs[j].cells[c].shards.iter().enumerate() {
                wanted.push((Waiter { sweep: id, job: j, cell: c, shard: s }, slot.key));
            }
        }
        let keys: Vec<ShardKey> = wanted.iter().map(|(_, k)| *k).collect();
        let cached = self.store.get_shards(&keys)?;
        let mut completed = Vec::new();
        for ((w, key), hit) in wanted.into_iter().zip(cached) {
            match hit {
                Some(result) => {
                    self.totals.cache_hits += 1;
                    let Some(run) = self.sweeps.get_mut(&id) else { continue };
                    run.stats.shards_from_cache += 1;
                    if Self::fill(run, w, Arc::new(result)) {
                        completed.push((w.job, w.cell));
                    }
                }
                None => {
                    let Some(run) = self.sweeps.get(&id) else { continue };
                    let cell = &run.jobs[w.job].cells[w.cell];
                    let spec = shard_spec(&run.sweep.scenario.hash, &cell.spec, &cell.shards[w.shard].range);
                    let entry = self.pending.entry(key).or_insert_with(|| {
                        self.queue.push_back(key);
                        Pending { spec, waiters: Vec::new(), lease: None }
                    });
                    entry.waiters.push(w);
                }
            }
        }
        for (j, c) in completed {
            self.complete_cell(id, j, c)?;
        }
        Ok(())
    }

    /// Puts a shard result in its slot; true when the cell is complete.
    fn fill(run: &mut SweepRun, w: Waiter, result: Arc<ShardResult>) -> bool {
        let cell = &mut run.jobs[w.job].cells[w.cell];
        let slot = &mut cell.shards[w.shard];
        if slot.result.is_some() {
            return false;
        }
        run.stats.runs_done += slot.range.end - slot.range.start;
        slot.result = Some(result);
        cell.remaining -= 1;
        cell.remaining == 0
    }

    fn complete_cell(&mut self, id: u64, j: usize, c: usize) -> Result<(), SchedError> {
        let Some(run) = self.sweeps.get_mut(&id) else { return Ok(()) };
        let cell = &mut run.jobs[j].cells[c];
        let parts: Vec<(u64, &ShardResult)> =
            cell.shards.iter().filter_map(|s| s.result.as_deref().map(|r| (s.range.start, r))).collect();
        match CellResult::merge(parts, cell.spec.runs) {
            Ok(result) => {
                run.finished.push(FinishedCell { job: j, cell: result.report(c, &cell.spec) });
                run.jobs[j].planner.consume(c, &result);
                let cell = &mut run.jobs[j].cells[c];
                cell.result = Some(result);
                for s in &mut cell.shards {
                    s.result = None;
                }
                run.stats.cells_done += 1;
                Ok(())
            }
            Err(e) => self.fail(id, e.to_string()),
        }
    }

    fn journal_state(run: &SweepRun) -> JournalState {
        JournalState {
            name: run.name.clone(),
            status: run.status,
            error: run.error.clone(),
            planners: run.jobs.iter().map(|j| j.planner.state()).collect(),
            stats: Some(run.stats),
        }
    }

    fn journal(&mut self, id: u64) -> Result<(), SchedError> {
        if let Some(run) = self.sweeps.get(&id) {
            self.store.update_sweep(id, &Self::journal_state(run), None)?;
        }
        Ok(())
    }

    fn finish(&mut self, id: u64) -> Result<(), SchedError> {
        let Some(run) = self.sweeps.get_mut(&id) else { return Ok(()) };
        let sweep = &run.sweep;
        let jobs = run
            .jobs
            .iter()
            .map(|job| JobReport {
                result: job.planner.result(),
                // Every cell is measured when every planner is done.
                cells: job
                    .cells
                    .iter()
                    .enumerate()
                    .filter_map(|(i, c)| c.result.as_ref().map(|r| r.report(i, &c.spec)))
                    .collect(),
            })
            .collect();
        let results = SweepResults {
            name: sweep.name.clone(),
            seed: sweep.seed,
            party: sweep.party.clone(),
            rules_version: pf1e_engine::RULES_VERSION.to_string(),
            scenario: hex(&sweep.scenario.hash),
            jobs,
        };
        run.status = SweepStatus::Done;
        let state = Self::journal_state(run);
        self.store.update_sweep(id, &state, Some(&results))?;
        if let Some(run) = self.sweeps.get_mut(&id) {
            run.results = Some(Arc::new(results));
            for job in &mut run.jobs {
                for c in &mut job.cells {
                    c.result = None;
                }
            }
        }
        tracing::info!(sweep = id, "sweep finished");
        self.bump();
        Ok(())
    }

    fn fail(&mut self, id: u64, error: String) -> Result<(), SchedError> {
        self.stop(id, SweepStatus::Failed, error)
    }

    fn stop(&mut self, id: u64, status: SweepStatus, error: String) -> Result<(), SchedError> {
        let Some(run) = self.sweeps.get_mut(&id) else { return Err(SchedError::UnknownSweep(id)) };
        if run.status.is_terminal() {
            return Ok(());
        }
        tracing::warn!(sweep = id, status = status.as_str(), %error, "sweep stopped");
        run.status = status;
        run.error = error;
        let state = Self::journal_state(run);
        self.store.update_sweep(id, &state, None)?;
        let mut orphans = Vec::new();
        for (key, p) in &mut self.pending {
            p.waiters.retain(|w| w.sweep != id);
            if p.waiters.is_empty() {
                orphans.push(*key);
            }
        }
        for key in orphans {
            if let Some(p) = self.pending.remove(&key) {
                self.drop_lease(p.lease);
            }
        }
        self.bump();
        Ok(())
    }

    fn drop_lease(&mut self, lease: Option<u64>) {
        if let Some(l) = lease.and_then(|l| self.leases.remove(&l).map(|info| (l, info)))
            && let Some(w) = self.workers.get_mut(&l.1.worker)
        {
            w.leases.remove(&l.0);
        }
    }

    /// Cancels a running sweep.
    pub fn cancel(&mut self, id: u64) -> Result<SweepInfo, SchedError> {
        if self.history.contains_key(&id) {
            return self.info(id, false);
        }
        self.stop(id, SweepStatus::Cancelled, "cancelled".into())?;
        self.info(id, false)
    }

    /// Registers a worker; refuses one with other rules.
    pub fn register_worker(
        &mut self,
        name: &str,
        threads: u32,
        rules_version: &str,
        protocol_version: u32,
        now: Instant,
    ) -> Result<String, SchedError> {
        if rules_version != pf1e_engine::RULES_VERSION {
            return Err(SchedError::RulesVersion {
                worker: rules_version.to_string(),
                coordinator: pf1e_engine::RULES_VERSION.to_string(),
            });
        }
        if protocol_version != pf1e_wire::PROTOCOL_VERSION {
            return Err(SchedError::ProtocolVersion {
                worker: protocol_version,
                coordinator: pf1e_wire::PROTOCOL_VERSION,
            });
        }
        let id = format!("w{}", self.next_worker);
        self.next_worker += 1;
        self.workers.insert(
            id.clone(),
            WorkerState {
                name: name.to_string(),
                threads,
                leases: BTreeSet::new(),
                shards_done: 0,
                last_seen: now,
            },
        );
        tracing::info!(worker = %id, name, threads, "worker registered");
        Ok(id)
    }

    /// Returns expired leases to the queue and forgets silent workers.
    pub fn expire(&mut self, now: Instant) {
        if self.next_expiry.is_some_and(|t| now >= t) || self.next_expiry.is_none() && !self.leases.is_empty()
        {
            let expired: Vec<u64> =
                self.leases.iter().filter(|(_, l)| l.deadline <= now).map(|(id, _)| *id).collect();
            for id in expired {
                if let Some(l) = self.leases.remove(&id) {
                    tracing::info!(worker = %l.worker, lease = id, "lease expired; shard re-queued");
                    if let Some(w) = self.workers.get_mut(&l.worker) {
                        w.leases.remove(&id);
                    }
                    if let Some(p) = self.pending.get_mut(&l.key)
                        && p.lease == Some(id)
                    {
                        p.lease = None;
                        self.queue.push_front(l.key);
                    }
                }
            }
            self.next_expiry = self.leases.values().map(|l| l.deadline).min();
        }
        let timeout = self.cfg.worker_timeout;
        let gone: Vec<String> = self
            .workers
            .iter()
            .filter(|(_, w)| w.leases.is_empty() && now.saturating_duration_since(w.last_seen) > timeout)
            .map(|(id, _)| id.clone())
            .collect();
        for id in gone {
            tracing::info!(worker = %id, "worker forgotten after silence");
            self.workers.remove(&id);
        }
    }

    /// Leases up to `max` shards to a worker.
    pub fn lease(&mut self, worker: &str, max: usize, now: Instant) -> Result<Vec<Lease>, SchedError> {
        self.expire(now);
        let ttl = self.cfg.lease_ttl;
        // No worker takes more than its share of the queue, so the tail of a sweep stays balanced.
        let share = self.queue.len().div_ceil(self.workers.len().max(1));
        let max = max.clamp(1, self.cfg.max_lease).min(share.max(1));
        let Some(w) = self.workers.get_mut(worker) else {
            return Err(SchedError::UnknownWorker(worker.into()));
        };
        w.last_seen = now;
        let mut out = Vec::new();
        if self.draining {
            return Ok(out);
        }
        while out.len() < max {
            let Some(key) = self.queue.pop_front() else { break };
            let Some(p) = self.pending.get_mut(&key) else { continue };
            if p.lease.is_some() {
                continue;
            }
            let id = self.next_lease;
            self.next_lease += 1;
            p.lease = Some(id);
            let deadline = now + ttl;
            self.leases.insert(id, LeaseInfo { key, worker: worker.to_string(), deadline });
            self.next_expiry = Some(self.next_expiry.map_or(deadline, |t| t.min(deadline)));
            w.leases.insert(id);
            out.push(Lease { id, key, spec: p.spec.clone() });
        }
        Ok(out)
    }

    /// Extends every lease of a worker; returns how many.
    pub fn heartbeat(&mut self, worker: &str, now: Instant) -> Result<u32, SchedError> {
        self.expire(now);
        let Some(w) = self.workers.get_mut(worker) else {
            return Err(SchedError::UnknownWorker(worker.into()));
        };
        w.last_seen = now;
        let deadline = now + self.cfg.lease_ttl;
        for id in &w.leases {
            if let Some(l) = self.leases.get_mut(id) {
                l.deadline = deadline;
            }
        }
        Ok(w.leases.len() as u32)
    }

    /// Records shard reports. A report for a shard nobody waits for (a
    /// duplicate, a late report, a cancelled sweep) is acknowledged and
    /// ignored. Returns (accepted, ignored).
    pub fn report(
        &mut self,
        worker: &str,
        reports: Vec<ShardReport>,
        now: Instant,
    ) -> Result<(u32, u32), SchedError> {
        let Some(w) = self.workers.get_mut(worker) else {
            return Err(SchedError::UnknownWorker(worker.into()));
        };
        w.last_seen = now;
        let (mut accepted, mut ignored) = (0u32, 0u32);
        let mut good: Vec<(ShardKey, ShardResult)> = Vec::new();
        let mut failures = Vec::new();
        for r in reports {
            let key = r.key;
            self.release(worker, r.lease, key);
            let Some(p) = self.pending.get(&key) else {
                ignored += 1;
                continue;
            };
            if good.iter().any(|(k, _)| *k == key) {
                ignored += 1;
                continue;
            }
            match r.outcome {
                Err(error) => {
                    failures.push((key, error));
                    accepted += 1;
                }
                Ok(result) if result.runs() == p.spec.runs.end - p.spec.runs.start => {
                    good.push((key, result));
                    accepted += 1;
                }
                Ok(result) => {
                    tracing::warn!(
                        worker,
                        runs = result.runs(),
                        "shard result with the wrong number of runs ignored"
                    );
                    ignored += 1;
                }
            }
        }
        let refs: Vec<(ShardKey, &ShardResult)> = good.iter().map(|(k, r)| (*k, r)).collect();
        self.store.put_shards(&refs)?;
        if let Some(w) = self.workers.get_mut(worker) {
            w.shards_done += good.len() as u64;
        }
        let mut touched = BTreeSet::new();
        for (key, result) in good {
            let runs = result.winner.len() as u64;
            self.totals.shards_done += 1;
            self.totals.runs_done += runs;
            self.rate.push_back((now, runs));
            touched.extend(self.deliver(key, Arc::new(result))?);
        }
        for (key, error) in failures {
            if let Some(p) = self.pending.get(&key) {
                let sweeps: BTreeSet<u64> = p.waiters.iter().map(|w| w.sweep).collect();
                for s in sweeps {
                    self.fail(s, format!("worker {worker}: {error}"))?;
                }
            }
        }
        while self
            .rate
            .front()
            .is_some_and(|(t, _)| now.saturating_duration_since(*t) > Duration::from_secs(10))
        {
            self.rate.pop_front();
        }
        for id in touched {
            self.pump(id)?;
        }
        self.bump();
        Ok((accepted, ignored))
    }

    /// Hands a computed result to every cell waiting for it; returns the sweeps touched.
    fn deliver(&mut self, key: ShardKey, result: Arc<ShardResult>) -> Result<BTreeSet<u64>, SchedError> {
        let mut touched = BTreeSet::new();
        let Some(p) = self.pending.remove(&key) else { return Ok(touched) };
        self.drop_lease(p.lease);
        for w in p.waiters {
            let Some(run) = self.sweeps.get_mut(&w.sweep) else { continue };
            if run.status != SweepStatus::Running {
                continue;
            }
            run.stats.shards_computed += 1;
            if Self::fill(run, w, Arc::clone(&result)) {
                self.complete_cell(w.sweep, w.job, w.cell)?;
            }
            touched.insert(w.sweep);
        }
        Ok(touched)
    }

    /// A worker leaves: its leases return to the queue at once.
    pub fn drain_worker(&mut self, worker: &str) -> u32 {
        let Some(w) = self.workers.remove(worker) else { return 0 };
        let mut released = 0;
        for id in w.leases {
            if let Some(l) = self.leases.remove(&id)
                && let Some(p) = self.pending.get_mut(&l.key)
                && p.lease == Some(id)
            {
                p.lease = None;
                self.queue.push_front(l.key);
                released += 1;
            }
        }
        tracing::info!(worker, released, "worker drained");
        released
    }

    /// Stops leasing (shutdown) and makes every write durable.
    pub fn begin_shutdown(&mut self) -> Result<(), SchedError> {
        self.draining = true;
        for id in self.sweeps.keys().copied().collect::<Vec<_>>() {
            if self.sweeps.get(&id).is_some_and(|r| r.status == SweepStatus::Running) {
                self.journal(id)?;
            }
        }
        self.store.flush()?;
        Ok(())
    }

    /// Whether the scheduler stopped leasing.
    pub fn draining(&self) -> bool {
        self.draining
    }

    /// Makes every write durable.
    pub fn flush(&mut self) -> Result<(), SchedError> {
        Ok(self.store.flush()?)
    }

    /// A scenario by hash.
    pub fn scenario(&self, hash: &ScenarioHash) -> Option<Arc<Scenario>> {
        self.scenarios.get(hash).cloned()
    }

    /// Returns the shard of lease `lease` (held by `worker`, for shard `key`)
    /// to the front of the queue; a lease that is not that worker's, or is
    /// already gone, is left alone.
    pub fn release(&mut self, worker: &str, lease: u64, key: ShardKey) {
        if let Some(l) = self.leases.get(&lease)
            && l.worker == worker
            && l.key == key
        {
            self.leases.remove(&lease);
            if let Some(w) = self.workers.get_mut(worker) {
                w.leases.remove(&lease);
            }
            if let Some(p) = self.pending.get_mut(&key)
                && p.lease == Some(lease)
            {
                p.lease = None;
                self.queue.push_front(key);
            }
        }
    }

    fn stats(&self, id: u64, s: &Stats) -> Stats {
        let (mut queued, mut leased) = (0, 0);
        for p in self.pending.values() {
            let n = p.waiters.iter().filter(|w| w.sweep == id).count() as u64;
            if p.lease.is_some() {
                leased += n;
            } else {
                queued += n;
            }
        }
        Stats {
            shards_total: s.shards_total,
            shards_computed: s.shards_computed,
            shards_from_cache: s.shards_from_cache,
            shards_queued: queued,
            shards_leased: leased,
            cells_total: s.cells_total,
            cells_done: s.cells_done,
            runs_total: s.runs_total,
            runs_done: s.runs_done,
        }
    }

    /// The state of a sweep, with its results when asked and available.
    pub fn info(&self, id: u64, with_results: bool) -> Result<SweepInfo, SchedError> {
        if let Some(run) = self.sweeps.get(&id) {
            return Ok(SweepInfo {
                id,
                name: run.name.clone(),
                status: run.status,
                stats: self.stats(id, &run.stats),
                error: run.error.clone(),
                results: if with_results { run.results.clone() } else { None },
                progress: run.jobs.iter().filter_map(|j| j.planner.progress()).collect(),
            });
        }
        let Some(state) = self.history.get(&id) else { return Err(SchedError::UnknownSweep(id)) };
        let stats = state.stats.unwrap_or_default();
        let results = if with_results { self.store.sweep_results(id)?.map(Arc::new) } else { None };
        Ok(SweepInfo {
            id,
            name: state.name.clone(),
            status: state.status,
            stats: self.stats(id, &stats),
            error: state.error.clone(),
            results,
            progress: Vec::new(),
        })
    }

    /// Every sweep known, oldest first, without results.
    pub fn list(&self) -> Vec<SweepInfo> {
        let ids: BTreeSet<u64> = self.sweeps.keys().chain(self.history.keys()).copied().collect();
        ids.into_iter().filter_map(|id| self.info(id, false).ok()).collect()
    }

    /// The cells of a sweep finished after the first `from`.
    pub fn finished_cells(&self, id: u64, from: usize) -> Vec<FinishedCell> {
        self.sweeps.get(&id).map(|r| r.finished.get(from..).unwrap_or_default().to_vec()).unwrap_or_default()
    }

    /// Connected workers.
    pub fn workers(&self, now: Instant) -> Vec<WorkerInfo> {
        self.workers
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

    /// Coordinator-wide figures (the metrics endpoint and `ctl status`).
    pub fn coordinator_stats(&self, now: Instant) -> CoordinatorStats {
        let leased = self.pending.values().filter(|p| p.lease.is_some()).count() as u64;
        let window_runs: u64 = self.rate.iter().map(|(_, r)| r).sum();
        let runs_per_second = match self.rate.front() {
            Some((t, _)) => {
                let secs = now.saturating_duration_since(*t).as_secs_f64().max(1.0);
                window_runs as f64 / secs
            }
            None => 0.0,
        };
        CoordinatorStats {
            shards_queued: self.pending.len() as u64 - leased,
            shards_leased: leased,
            shards_done: self.totals.shards_done,
            cache_hits: self.totals.cache_hits,
            workers: self.workers.len() as u64,
            runs_per_second,
            runs_done: self.totals.runs_done,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::embedded::drive;
    use pf1e_wire::evaluate::{EvalError, ShardEvaluator, evaluate_leases};

    /// Deterministic fake engine: outcomes depend on the seed, the variant and the run index only.
    pub(crate) struct Fake;

    impl ShardEvaluator for Fake {
        fn evaluate(&self, _s: &Scenario, spec: &ShardSpec) -> Result<ShardResult, EvalError> {
            let salt: u64 = spec.variant.iter().map(|v| u64::from(v.hp.0)).sum();
            Ok(crate::merge::tests::fake_result(spec.seed + salt, spec.runs.clone()))
        }
    }

    fn bundle(shard_size: u64) -> proto::SweepBundle {
        let text = format!(
            "name: t\nseed: 3\nruns: 10\nparty: players\nshard_size: {shard_size}\nscenario:\n  map: m.yaml\n  sides:\n    players: {{ combatants: [a.json] }}\n    monsters: {{ combatants: [b.json] }}\njobs:\n  - grid: {{ hp: {{ players: [0.25, 0.5, 1.0] }} }}\n"
        );
        let files = ["m.yaml", "a.json", "b.json"]
            .iter()
            .map(|p| proto::BundleFile { path: p.to_string(), content: p.as_bytes().to_vec() })
            .collect();
        proto::SweepBundle { sweep_path: "s.yaml".into(), sweep_yaml: text, files }
    }

    fn cfg() -> SchedulerConfig {
        SchedulerConfig { validate: false, ..Default::default() }
    }

    fn run_to_end(sched: &mut Scheduler, b: proto::SweepBundle) -> SweepInfo {
        let id = sched.submit(b).unwrap();
        drive(sched, id, &Fake, 2, |_| {}).unwrap()
    }

    #[test]
    fn embedded_run_then_rerun_from_cache() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("c.redb");
        let mut sched = Scheduler::new(Store::open(&path).unwrap(), cfg());
        let first = run_to_end(&mut sched, bundle(4));
        assert_eq!(first.status, SweepStatus::Done);
        let st = first.stats;
        assert_eq!((st.shards_total, st.shards_computed, st.shards_from_cache), (9, 9, 0));
        assert_eq!((st.cells_total, st.cells_done, st.runs_done), (3, 3, 30));
        let results = first.results.as_ref().unwrap();
        assert_eq!(results.jobs[0].cells.len(), 3);
        assert_eq!(results.jobs[0].cells[0].runs, 10);
        drop(sched);

        let mut sched = Scheduler::new(Store::open(&path).unwrap(), cfg());
        sched.resume().unwrap();
        let journaled = sched.info(first.id, true).unwrap();
        assert_eq!(journaled.results, first.results, "results come back from the journal bit for bit");
        let second = run_to_end(&mut sched, bundle(4));
        let st = second.stats;
        assert_eq!((st.shards_total, st.shards_computed, st.shards_from_cache), (9, 0, 9));
        assert_eq!(second.results, first.results);
        assert_eq!(sched.list().len(), 2);
    }

    #[test]
    fn results_do_not_depend_on_shard_size_or_report_order() {
        let mut reference = None;
        for size in [1, 3, 10] {
            let mut sched = Scheduler::new(Store::in_memory().unwrap(), cfg());
            let id = sched.submit(bundle(size)).unwrap();
            let now = Instant::now();
            let w1 = sched
                .register_worker("a", 1, pf1e_engine::RULES_VERSION, pf1e_wire::PROTOCOL_VERSION, now)
                .unwrap();
            let w2 = sched
                .register_worker("b", 1, pf1e_engine::RULES_VERSION, pf1e_wire::PROTOCOL_VERSION, now)
                .unwrap();
            loop {
                let l1 = sched.lease(&w1, 2, now).unwrap();
                let l2 = sched.lease(&w2, 3, now).unwrap();
                if l1.is_empty() && l2.is_empty() {
                    break;
                }
                let scen: BTreeMap<_, _> = sched.scenarios.iter().map(|(k, v)| (*k, Arc::clone(v))).collect();
                let mut r2 = evaluate_leases(&l2, &scen, &Fake);
                r2.reverse();
                sched.report(&w2, r2, now).unwrap();
                sched.report(&w1, evaluate_leases(&l1, &scen, &Fake), now).unwrap();
            }
            let info = sched.info(id, true).unwrap();
            assert_eq!(info.status, SweepStatus::Done);
            match &reference {
                None => reference = Some(info.results),
                Some(r) => assert_eq!(r, &info.results, "shard size {size}"),
            }
        }
    }

    #[test]
    fn expired_leases_requeue_and_late_or_duplicate_reports_change_nothing() {
        let mut sched = Scheduler::new(Store::in_memory().unwrap(), cfg());
        let id = sched.submit(bundle(10)).unwrap();
        let t0 = Instant::now();
        let dead = sched
            .register_worker("dead", 1, pf1e_engine::RULES_VERSION, pf1e_wire::PROTOCOL_VERSION, t0)
            .unwrap();
        let live = sched
            .register_worker("live", 1, pf1e_engine::RULES_VERSION, pf1e_wire::PROTOCOL_VERSION, t0)
            .unwrap();
        let lost = sched.lease(&dead, 1, t0).unwrap();
        assert_eq!(lost.len(), 1);
        let mut rest = sched.lease(&live, 10, t0).unwrap();
        assert_eq!(rest.len(), 1, "no worker takes more than its share of the queue");
        rest.extend(sched.lease(&live, 10, t0).unwrap());
        assert_eq!(rest.len(), 2);
        assert!(sched.lease(&live, 10, t0).unwrap().is_empty(), "the dead worker's shard is still leased");
        let ttl = sched.config().lease_ttl;
        sched.heartbeat(&live, t0 + ttl / 2).unwrap();
        let t1 = t0 + ttl + Duration::from_millis(1);
        let again = sched.lease(&live, 10, t1).unwrap();
        assert_eq!(again.len(), 1, "the expired lease returns to the queue: {again:?}");
        assert_eq!(again[0].key, lost[0].key);
        let scen: BTreeMap<_, _> = sched.scenarios.iter().map(|(k, v)| (*k, Arc::clone(v))).collect();
        let mut mine = rest.clone();
        mine.extend(again);
        let reports = evaluate_leases(&mine, &scen, &Fake);
        assert_eq!(sched.report(&live, reports.clone(), t1).unwrap(), (3, 0));
        let done = sched.info(id, true).unwrap();
        assert_eq!(done.status, SweepStatus::Done);
        // A duplicate, and the late report of the dead worker, are acknowledged and ignored.
        assert_eq!(sched.report(&live, reports, t1).unwrap(), (0, 3));
        let late = evaluate_leases(&lost, &scen, &Fake);
        assert_eq!(sched.report(&dead, late, t1).unwrap(), (0, 1));
        let after = sched.info(id, true).unwrap();
        assert_eq!(after, done);
    }

    #[test]
    fn other_rules_or_protocol_versions_and_unknown_workers_are_refused() {
        let mut sched = Scheduler::new(Store::in_memory().unwrap(), cfg());
        let err = sched
            .register_worker("x", 1, "pf1e-rules-0", pf1e_wire::PROTOCOL_VERSION, Instant::now())
            .unwrap_err();
        assert!(matches!(err, SchedError::RulesVersion { .. }), "{err}");
        assert!(err.to_string().contains("pf1e-rules-0"));
        assert!(matches!(sched.lease("w99", 1, Instant::now()), Err(SchedError::UnknownWorker(_))));
        let err = sched.register_worker("x", 1, pf1e_engine::RULES_VERSION, 1, Instant::now()).unwrap_err();
        assert!(matches!(err, SchedError::ProtocolVersion { worker: 1, .. }), "{err}");
    }

    struct Panicky;

    impl ShardEvaluator for Panicky {
        fn evaluate(&self, _s: &Scenario, spec: &ShardSpec) -> Result<ShardResult, EvalError> {
            assert!(spec.runs.start < 4, "engine bug");
            Ok(crate::merge::tests::fake_result(spec.seed, spec.runs.clone()))
        }
    }

    #[test]
    fn an_engine_panic_fails_the_sweep_with_a_message() {
        let mut sched = Scheduler::new(Store::in_memory().unwrap(), cfg());
        let id = sched.submit(bundle(4)).unwrap();
        let info = drive(&mut sched, id, &Panicky, 1, |_| {}).unwrap();
        assert_eq!(info.status, SweepStatus::Failed);
        assert!(info.error.contains("engine bug"), "{}", info.error);
    }

    #[test]
    fn cancel_drops_queued_shards() {
        let mut sched = Scheduler::new(Store::in_memory().unwrap(), cfg());
        let id = sched.submit(bundle(2)).unwrap();
        let info = sched.cancel(id).unwrap();
        assert_eq!(info.status, SweepStatus::Cancelled);
        let w = sched
            .register_worker("a", 1, pf1e_engine::RULES_VERSION, pf1e_wire::PROTOCOL_VERSION, Instant::now())
            .unwrap();
        assert!(sched.lease(&w, 10, Instant::now()).unwrap().is_empty());
    }

    #[test]
    fn a_crash_mid_sweep_resumes_from_the_journal_and_the_cache() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("c.redb");
        let reference = {
            let mut s = Scheduler::new(Store::in_memory().unwrap(), cfg());
            run_to_end(&mut s, bundle(4)).results
        };
        let id = {
            let mut sched = Scheduler::new(Store::open(&path).unwrap(), cfg());
            let id = sched.submit(bundle(4)).unwrap();
            let now = Instant::now();
            let w = sched
                .register_worker("a", 1, pf1e_engine::RULES_VERSION, pf1e_wire::PROTOCOL_VERSION, now)
                .unwrap();
            let leases = sched.lease(&w, 4, now).unwrap();
            let scen: BTreeMap<_, _> = sched.scenarios.iter().map(|(k, v)| (*k, Arc::clone(v))).collect();
            sched.report(&w, evaluate_leases(&leases, &scen, &Fake), now).unwrap();
            sched.flush().unwrap();
            id
            // Dropped without finishing: the crash.
        };
        let mut sched = Scheduler::new(Store::open(&path).unwrap(), cfg());
        assert_eq!(sched.resume().unwrap(), vec![id]);
        let info = drive(&mut sched, id, &Fake, 1, |_| {}).unwrap();
        let st = info.stats;
        assert_eq!(info.status, SweepStatus::Done);
        assert_eq!((st.shards_from_cache, st.shards_computed), (4, 5));
        assert_eq!(info.results, reference);
    }
}
