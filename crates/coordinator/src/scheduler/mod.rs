//! The scheduler: a small façade over five concerns, one module each —
//! the running sweeps and their planners (`sweeps`), the shard queue and
//! its leases (`queue`), the registered workers (`workers`), the audit of
//! their results (`audit`) and the coordinator-wide counters
//! (`throughput`). The façade keeps them
//! consistent and is the only one to write the store.
//!
//! Synchronous and single-owner; the gRPC service and the embedded mode both
//! drive it (behind a mutex for the service). Time is passed in (`now`) so
//! lease expiry is testable without sleeping.

mod audit;
mod queue;
pub(crate) use queue::KeyHasher;
mod sweeps;
mod throughput;
mod workers;

use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;
use std::time::{Duration, Instant};

use pf1e_wire::proto;
use pf1e_wire::results::JobResult;
use pf1e_wire::scenario::{Scenario, ScenarioHash};
use pf1e_wire::shard::{Lease, ShardKey, ShardReport, ShardResult, ShardSpec};
use pf1e_wire::status::{CoordinatorStats, FinishedCell, SweepInfo, WorkerInfo};

use crate::store::{JournalState, Store, StoreError, SweepStatus};
use crate::sweep::{Sweep, SweepDraft, SweepError};
pub use audit::AuditCounts;
use audit::{Audits, Opinion};
pub use queue::Share;
use queue::{ShardQueue, Waiter};
use sweeps::{Planned, Slot, SweepRun};
use throughput::Throughput;
use workers::Workers;

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
    /// Longest a lease lives, heartbeats or not: then its shard goes to
    /// another worker (a hung shard does not stall its sweep forever).
    pub max_lease_age: Duration,
    /// Ended sweeps whose journal (bundle, state, results) is kept, newest
    /// first; older ones are removed while the coordinator runs (`None`:
    /// all are kept). Cached shards stay whatever this says.
    pub keep_sweeps: Option<usize>,
    /// Fraction of shards (0 to 1) played by two different workers before
    /// their result is accepted (`audit`); 0: none.
    pub audit_fraction: f64,
    /// Accept only synthetic workers (benchmarks: made-up results at a
    /// chosen speed, `pf1e_worker::synthetic`), and refuse real ones.
    pub synthetic: bool,
}

impl Default for SchedulerConfig {
    fn default() -> Self {
        Self {
            lease_ttl: Duration::from_secs(10),
            max_lease: 1024,
            worker_timeout: Duration::from_secs(60),
            validate: true,
            max_lease_age: Duration::from_secs(15 * 60),
            keep_sweeps: None,
            audit_fraction: 0.0,
            synthetic: false,
        }
    }
}

/// Checked reports whose results wait for their commit
/// ([`Scheduler::stage_reports`]).
#[derive(Debug, Default)]
pub struct Staged {
    /// The results to store, then to hand to [`Scheduler::accept_committed`],
    /// each with the bytes it arrived as (if it did: stored as they came).
    /// (Shared from here on: a result is moved no more, only its pointer.)
    pub results: Vec<(ShardKey, Arc<ShardResult>, Option<Vec<u8>>)>,
    /// Reports accepted (results and failures).
    pub accepted: u32,
    /// Reports ignored.
    pub ignored: u32,
}

/// Ended sweeps kept whole in memory (newest first); older ones live in
/// the history and the store only.
pub const FINISHED_IN_MEMORY: usize = 4;

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
    /// The sweep needs LLM decisions (`nl:`, `llm_candidates`,
    /// `llm_adversaries`) that were not resolved before submission.
    #[error(
        "the sweep uses the LLM (nl: strategies, llm_candidates or llm_adversaries) and must be resolved by a coordinator with an LLM client before it is planned"
    )]
    NeedsLlm,
    /// The worker was quarantined: a result of it differed from the
    /// coordinator's own replay of the same shard (`audit`).
    #[error(
        "worker {0:?} is quarantined: one of its results differed from the coordinator's replay of the same shard"
    )]
    Quarantined(String),
    /// A synthetic worker (made-up results, benchmarks) met a real
    /// coordinator, or a real worker a coordinator of synthetic workers.
    #[error("{}", if *worker {
        "this worker makes up its results (--synthetic-battle-us): only a coordinator started with --synthetic-workers takes it"
    } else {
        "this coordinator takes only synthetic workers (--synthetic-workers, a benchmark): start the worker with --synthetic-battle-us, or use another coordinator"
    })]
    Synthetic {
        /// Whether the worker is the synthetic one.
        worker: bool,
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
    /// A submission's weight or priority is out of range.
    #[error("{0}")]
    Share(String),
    /// `gc --keep` beyond [`MAX_KEEP_SWEEPS`].
    #[error("keep {0} is out of range: at most {MAX_KEEP_SWEEPS} ended sweeps may be kept")]
    Keep(u64),
    /// The database failed.
    #[error(transparent)]
    Store(#[from] StoreError),
}

/// Largest weight a sweep submission may ask for (`SweepBundle.weight`).
pub const MAX_WEIGHT: u32 = 100;
/// Largest priority a sweep submission may ask for (`SweepBundle.priority`).
pub const MAX_PRIORITY: u32 = 9;

/// The most ended sweeps `pf1e ctl gc --keep` may keep (beyond it, the
/// number is a typing error rather than a policy).
pub const MAX_KEEP_SWEEPS: u64 = 1_000_000;

/// The ids of `ended` past the newest `keep` (the highest ids): the
/// sweeps `gc --keep` removes, online or offline.
pub fn past_newest(ended: impl IntoIterator<Item = u64>, keep: u64) -> Vec<u64> {
    let ended: BTreeSet<u64> = ended.into_iter().collect();
    ended.into_iter().rev().skip(usize::try_from(keep).unwrap_or(usize::MAX)).collect()
}

/// What [`Scheduler::collect_garbage`] did.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Collected {
    /// Ended sweeps whose journal was removed.
    pub removed: u64,
    /// Bytes their records held.
    pub bytes: u64,
    /// Ended sweeps kept.
    pub kept: u64,
    /// Running sweeps (never touched).
    pub running: u64,
}

/// How a submitted bundle asks to share the workers: its weight (0 on the
/// wire means 1) and priority, checked against [`MAX_WEIGHT`] and
/// [`MAX_PRIORITY`].
pub fn share_of(bundle: &proto::SweepBundle) -> Result<Share, SchedError> {
    if bundle.weight > MAX_WEIGHT {
        return Err(SchedError::Share(format!(
            "{}: weight {} is out of range: give 1 to {MAX_WEIGHT}",
            bundle.sweep_path, bundle.weight
        )));
    }
    if bundle.priority > MAX_PRIORITY {
        return Err(SchedError::Share(format!(
            "{}: priority {} is out of range: give 0 to {MAX_PRIORITY}",
            bundle.sweep_path, bundle.priority
        )));
    }
    Ok(Share { priority: bundle.priority, weight: bundle.weight.max(1) })
}

/// The scheduler.
pub struct Scheduler {
    store: Store,
    cfg: SchedulerConfig,
    /// Sweeps started by this process (running, or finished since it started).
    sweeps: BTreeMap<u64, SweepRun>,
    /// Sweeps of the journal that ended before this process started.
    history: BTreeMap<u64, JournalState>,
    scenarios: BTreeMap<ScenarioHash, Arc<Scenario>>,
    queue: ShardQueue,
    workers: Workers,
    throughput: Throughput,
    audits: Audits,
    draining: bool,
    /// The last database error, until a write succeeds again (`/readyz`).
    store_failed: Option<String>,
    changes: tokio::sync::watch::Sender<u64>,
}

/// What the scheduler let go of, to be freed outside its lock.
pub struct Trash {
    _specs: Vec<Arc<ShardSpec>>,
}

impl Scheduler {
    /// A scheduler over a store.
    pub fn new(store: Store, cfg: SchedulerConfig) -> Self {
        let audits = Audits::new(cfg.audit_fraction);
        Self {
            store,
            cfg,
            sweeps: BTreeMap::new(),
            history: BTreeMap::new(),
            scenarios: BTreeMap::new(),
            queue: ShardQueue::new(),
            workers: Workers::new(),
            throughput: Throughput::default(),
            audits,
            draining: false,
            store_failed: None,
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

    // ------------------------------------------------------------- sweeps

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
            // The LLM's decisions come from the journal: resuming calls no model.
            let share = share_of(&bundle).unwrap_or_default();
            let parsed = SweepDraft::from_bundle(&bundle).and_then(|draft| draft.decide(&state.llm));
            match parsed {
                Ok(sweep) => {
                    self.start(id, sweep, share)?;
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

    /// Validates, journals and starts a sweep that needs no LLM decision.
    /// Nothing is written when it is invalid.
    pub fn submit(&mut self, bundle: proto::SweepBundle) -> Result<u64, SchedError> {
        let draft = self.check(&bundle)?;
        if draft.needs_llm() {
            return Err(SchedError::NeedsLlm);
        }
        let sweep = draft.decide(&Default::default())?;
        self.submit_sweep(bundle, sweep)
    }

    /// Parses and validates a bundle; writes nothing. A sweep that uses
    /// the LLM comes back as a draft whose decisions are still to make
    /// (`crate::llm::LlmResolver`) before [`Scheduler::submit_sweep`].
    pub fn check(&self, bundle: &proto::SweepBundle) -> Result<SweepDraft, SchedError> {
        check_bundle(bundle, self.cfg.validate)
    }

    /// Journals and starts `sweep`, parsed from `bundle` and decided: its
    /// LLM decisions are journaled with it, in the same transaction.
    pub fn submit_sweep(&mut self, bundle: proto::SweepBundle, sweep: Sweep) -> Result<u64, SchedError> {
        let state = JournalState {
            name: sweep.name.clone(),
            status: SweepStatus::Running,
            error: String::new(),
            planners: Vec::new(),
            stats: None,
            llm: sweep.llm.clone(),
        };
        let share = share_of(&bundle)?;
        let id = self.store.create_sweep(&bundle, &state)?;
        self.start(id, sweep, share)?;
        Ok(id)
    }

    /// Starts a journaled sweep. Planning that fails (an error, or a
    /// panic in a planner) fails this sweep, recorded with its error, and
    /// never the coordinator: the same sweep found again at restart must
    /// not stop it either. Only a failure to record that is an error.
    fn start(&mut self, id: u64, sweep: Sweep, share: Share) -> Result<(), SchedError> {
        self.evict_finished();
        self.queue.set_share(id, share);
        for scenario in sweep.scenarios() {
            self.scenarios.entry(scenario.hash).or_insert(scenario);
        }
        self.sweeps.insert(id, SweepRun::new(sweep));
        let planned = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| self.pump(id)));
        let failure = match planned {
            Ok(Ok(())) => None,
            Ok(Err(e)) => Some(format!("planning failed: {e}")),
            Err(panic) => Some(format!("planning failed: {}", panic_text(panic.as_ref()))),
        };
        if let Some(error) = failure {
            self.stop(id, SweepStatus::Failed, error)?;
        }
        self.bump();
        Ok(())
    }

    /// Moves the ended sweeps past the newest [`FINISHED_IN_MEMORY`] from
    /// memory to the history (their journal and results stay in the store,
    /// read on demand), and forgets the scenarios no live sweep plays: a
    /// coordinator's memory follows its active work, not every sweep it
    /// ever ran. The newest ended sweeps stay whole so that their watchers
    /// receive the last cells and progress.
    fn evict_finished(&mut self) {
        let ended: Vec<u64> =
            self.sweeps.iter().filter(|(_, r)| r.status().is_terminal()).map(|(id, _)| *id).collect();
        let excess = ended.len().saturating_sub(FINISHED_IN_MEMORY);
        for id in ended.into_iter().take(excess) {
            if let Some(run) = self.sweeps.remove(&id) {
                self.history.insert(id, run.journal_state());
            }
        }
        let live: BTreeSet<ScenarioHash> =
            self.sweeps.values().flat_map(|r| r.sweep().scenarios()).map(|s| s.hash).collect();
        self.scenarios.retain(|hash, _| live.contains(hash));
        if let Some(keep) = self.cfg.keep_sweeps {
            self.forget_old_journals(keep);
        }
    }

    /// Removes the journals of the ended sweeps past the newest `keep`
    /// (counting those still in memory), as `pf1e cache gc --keep` does
    /// with the coordinator stopped. A failure is logged and retried at
    /// the next eviction: it never stops a sweep.
    fn forget_old_journals(&mut self, keep: usize) {
        let in_memory = self.sweeps.values().filter(|r| r.status().is_terminal()).count();
        let room = keep.saturating_sub(in_memory);
        let ended: Vec<u64> =
            self.history.iter().filter(|(_, s)| s.status.is_terminal()).map(|(id, _)| *id).collect();
        let old: Vec<u64> = ended.iter().rev().skip(room).copied().collect();
        if old.is_empty() {
            return;
        }
        match self.store.remove_sweeps(&old) {
            Ok(removed) => {
                for id in &old {
                    self.history.remove(id);
                }
                tracing::info!(
                    removed = removed.sweeps,
                    bytes = removed.bytes,
                    keep,
                    "removed old sweep journals"
                );
            }
            Err(e) => tracing::warn!(error = %e, "could not remove old sweep journals"),
        }
    }

    /// `pf1e ctl gc --keep N` on a running coordinator: removes the
    /// journals of the ended sweeps past the newest `keep` (by id, as
    /// `pf1e cache gc --keep` does offline), in one transaction of the
    /// coordinator's own database, under the scheduler's lock: no running
    /// sweep is touched, whatever `keep` says, and cached shards stay.
    /// Ended sweeps still in memory go too (a watcher of one is told it is
    /// gone). Refuses a `keep` above [`MAX_KEEP_SWEEPS`].
    pub fn collect_garbage(&mut self, keep: u64) -> Result<Collected, SchedError> {
        if keep > MAX_KEEP_SWEEPS {
            return Err(SchedError::Keep(keep));
        }
        let in_memory = self.sweeps.iter().filter(|(_, r)| r.status().is_terminal()).map(|(id, _)| *id);
        let history = self.history.iter().filter(|(_, s)| s.status.is_terminal()).map(|(id, _)| *id);
        let ended: Vec<u64> = in_memory.chain(history).collect();
        let old = past_newest(ended.iter().copied(), keep);
        let removed = self.store.remove_sweeps(&old)?;
        for id in &old {
            self.history.remove(id);
            self.sweeps.remove(id);
        }
        let live: BTreeSet<ScenarioHash> =
            self.sweeps.values().flat_map(|r| r.sweep().scenarios()).map(|s| s.hash).collect();
        self.scenarios.retain(|hash, _| live.contains(hash));
        self.bump();
        let collected = Collected {
            removed: removed.sweeps,
            bytes: removed.bytes,
            kept: (ended.len() - old.len()) as u64,
            running: self.sweeps_running() as u64,
        };
        tracing::info!(keep, ?collected, "collected old sweep journals");
        Ok(collected)
    }

    /// Steps the planners of a sweep until they wait or finish.
    fn pump(&mut self, id: u64) -> Result<(), SchedError> {
        let _span = tracing::debug_span!("sweep", id).entered();
        loop {
            let Some(run) = self.sweeps.get_mut(&id) else { return Ok(()) };
            if run.status() != SweepStatus::Running {
                return Ok(());
            }
            // A planner that panics (a spill file of its runs that cannot
            // be read back, or a bug) fails its sweep, not the coordinator.
            let planned = match std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| run.plan())) {
                Ok(planned) => planned,
                Err(panic) => {
                    let error = format!("planning failed: {}", panic_text(panic.as_ref()));
                    return self.stop(id, SweepStatus::Failed, error);
                }
            };
            match planned {
                Planned::Waiting => {
                    tracing::debug!(sweep = id, "planner step: waiting for results");
                    return Ok(());
                }
                Planned::Finished => {
                    tracing::debug!(sweep = id, "planner step: every job is done");
                    return self.finish(id);
                }
                Planned::Cells(cells) => {
                    tracing::debug!(sweep = id, cells = cells.len(), "planner step: new cells");
                    self.journal(id)?;
                    self.place_shards(id, &cells)?;
                }
            }
        }
    }

    /// Serves new cells' shards from the cache or queues them.
    fn place_shards(&mut self, id: u64, cells: &[(usize, usize)]) -> Result<(), SchedError> {
        let Some(run) = self.sweeps.get_mut(&id) else { return Ok(()) };
        let wanted = run.slots(cells);
        let keys: Vec<ShardKey> = wanted.iter().map(|(_, k)| *k).collect();
        let cached = self.store.get_shards(&keys)?;
        let hits = cached.iter().filter(|c| c.is_some()).count();
        tracing::debug!(sweep = id, shards = keys.len(), hits, misses = keys.len() - hits, "cache lookup");
        let mut completed = Vec::new();
        for ((slot, key), hit) in wanted.into_iter().zip(cached) {
            match hit {
                Some(result) => {
                    self.throughput.cache_hits += 1;
                    if run.fill_from_cache(slot, Arc::new(result)) {
                        completed.push((slot.job, slot.cell));
                    }
                }
                None => {
                    let waiter = Waiter { sweep: id, job: slot.job, cell: slot.cell, shard: slot.shard };
                    self.queue.want(key, || run.shard_spec(slot), waiter);
                }
            }
        }
        for (job, cell) in completed {
            self.complete_cell(id, job, cell)?;
        }
        Ok(())
    }

    fn complete_cell(&mut self, id: u64, job: usize, cell: usize) -> Result<(), SchedError> {
        let Some(run) = self.sweeps.get_mut(&id) else { return Ok(()) };
        match run.complete(job, cell) {
            Ok(()) => Ok(()),
            Err(e) => self.stop(id, SweepStatus::Failed, e.to_string()),
        }
    }

    fn journal(&mut self, id: u64) -> Result<(), SchedError> {
        if let Some(run) = self.sweeps.get(&id) {
            self.store.update_sweep(id, &run.journal_state(), None)?;
        }
        Ok(())
    }

    fn finish(&mut self, id: u64) -> Result<(), SchedError> {
        let Some(run) = self.sweeps.get_mut(&id) else { return Ok(()) };
        run.set_leases_at_end(self.queue.end_share(id));
        let results = match std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| run.finish())) {
            Ok(results) => results,
            Err(panic) => {
                let error = format!("summing up the results failed: {}", panic_text(panic.as_ref()));
                return self.stop(id, SweepStatus::Failed, error);
            }
        };
        self.store.update_sweep(id, &run.journal_state(), Some(&results))?;
        tracing::info!(sweep = id, "sweep finished");
        self.bump();
        Ok(())
    }

    /// Ends a sweep (failed or cancelled) and drops the shards only it waited for.
    fn stop(&mut self, id: u64, status: SweepStatus, error: String) -> Result<(), SchedError> {
        let Some(run) = self.sweeps.get_mut(&id) else { return Err(SchedError::UnknownSweep(id)) };
        if run.status().is_terminal() {
            return Ok(());
        }
        tracing::warn!(sweep = id, status = status.as_str(), %error, "sweep stopped");
        run.stop(status, error);
        let state = run.journal_state();
        for (lease, worker) in self.queue.forget_sweep(id) {
            self.workers.drop_lease(&worker, lease);
        }
        let queue = &self.queue;
        self.audits.retain(|k| queue.spec(k).is_some());
        self.bump();
        // Stopped in memory first: a database that fails here still leaves
        // the sweep failed for every reader, not "running" forever.
        self.store.update_sweep(id, &state, None)?;
        Ok(())
    }

    /// Stops a sweep when the database may be failing: a journal write
    /// that fails too is logged, the sweep stays stopped in memory.
    fn stop_unrecorded(&mut self, id: u64, error: String) {
        if let Err(e) = self.stop(id, SweepStatus::Failed, error) {
            tracing::error!(sweep = id, error = %e, "could not journal a failed sweep");
        }
    }

    /// The last database error, while no write has succeeded since.
    pub fn store_failure(&self) -> Option<&str> {
        self.store_failed.as_deref()
    }

    /// Reports refused since the start: for a shard the worker did not
    /// hold, or with tables that do not check out.
    pub fn reports_refused(&self) -> u64 {
        self.throughput.forged_reports
    }

    /// Reports for a shard already delivered (duplicates and late reports)
    /// since the start.
    pub fn reports_superseded(&self) -> u64 {
        self.throughput.superseded_reports
    }

    /// The LLM response cache of the scheduler's database.
    pub fn llm_cache(&self) -> crate::store::LlmCache {
        self.store.llm_cache()
    }

    /// Cancels a running sweep.
    pub fn cancel(&mut self, id: u64) -> Result<SweepInfo, SchedError> {
        if self.history.contains_key(&id) {
            return self.info(id, false);
        }
        self.stop(id, SweepStatus::Cancelled, "cancelled".into())?;
        self.info(id, false)
    }

    // ------------------------------------------------------------ workers

    /// Registers a worker; refuses one with other rules or another protocol.
    pub fn register_worker(
        &mut self,
        name: &str,
        threads: u32,
        rules_version: &str,
        protocol_version: u32,
        now: Instant,
    ) -> Result<String, SchedError> {
        let expected = if self.cfg.synthetic {
            pf1e_wire::evaluate::synthetic_rules_version()
        } else {
            pf1e_engine::RULES_VERSION.to_string()
        };
        let synthetic = rules_version.ends_with(pf1e_wire::evaluate::SYNTHETIC_SUFFIX);
        if synthetic != self.cfg.synthetic {
            return Err(SchedError::Synthetic { worker: synthetic });
        }
        if rules_version != expected {
            return Err(SchedError::RulesVersion {
                worker: rules_version.to_string(),
                coordinator: expected,
            });
        }
        if protocol_version != pf1e_wire::PROTOCOL_VERSION {
            return Err(SchedError::ProtocolVersion {
                worker: protocol_version,
                coordinator: pf1e_wire::PROTOCOL_VERSION,
            });
        }
        if self.audits.is_quarantined(name) {
            return Err(SchedError::Quarantined(name.to_string()));
        }
        Ok(self.workers.register(name, threads, now))
    }

    /// Returns expired leases to the queue and forgets silent workers.
    pub fn expire(&mut self, now: Instant) {
        for (lease, worker) in self.queue.expire(now) {
            self.workers.drop_lease(&worker, lease);
        }
        self.workers.forget_silent(now, self.cfg.worker_timeout);
    }

    /// Leases up to `max` shards to a worker.
    pub fn lease(&mut self, worker: &str, max: usize, now: Instant) -> Result<Vec<Lease>, SchedError> {
        self.expire(now);
        // No worker takes more than its share of the queue, so the tail of a sweep stays balanced.
        let share = self.queue.queued_len().div_ceil(self.workers.len().max(1));
        let max = max.clamp(1, self.cfg.max_lease).min(share.max(1));
        if self.workers.len() == 1 && self.workers.touch(worker, now).is_some() {
            // The only worker left: nobody can play its audited shards a
            // second time, so their held results are accepted as they are.
            let waived = self.audits.waive(worker);
            if !waived.is_empty() {
                tracing::info!(worker, shards = waived.len(), "audit waived: no other worker");
                let touched =
                    self.accept(waived.into_iter().map(|(k, r)| (k, Arc::new(r))).collect(), now)?;
                for id in touched {
                    self.pump(id)?;
                }
                self.bump();
            }
        }
        let Some(w) = self.workers.touch(worker, now) else {
            return Err(SchedError::UnknownWorker(worker.into()));
        };
        let mut out = Vec::new();
        if self.draining {
            return Ok(out);
        }
        let deadline = now + self.cfg.lease_ttl;
        let id = Arc::clone(&w.id);
        while out.len() < max {
            let latest = now.checked_add(self.cfg.max_lease_age);
            let Some(lease) = self.queue.lease_until(&id, deadline, latest) else { break };
            w.leases.insert(lease.id);
            out.push(lease);
        }
        if !out.is_empty() {
            tracing::debug!(worker, leased = out.len(), queued = self.queue.queued_len(), "lease");
        }
        Ok(out)
    }

    /// Extends every lease of a worker; returns how many.
    pub fn heartbeat(&mut self, worker: &str, now: Instant) -> Result<u32, SchedError> {
        self.expire(now);
        let Some(w) = self.workers.touch(worker, now) else {
            return Err(SchedError::UnknownWorker(worker.into()));
        };
        self.queue.extend(&w.leases, now + self.cfg.lease_ttl);
        Ok(w.leases.len() as u32)
    }

    /// Returns the shard of lease `lease` (held by `worker`, for shard `key`)
    /// to the front of the queue; a lease that is not that worker's, or is
    /// already gone, is left alone.
    pub fn release(&mut self, worker: &str, lease: u64, key: ShardKey) {
        if self.queue.release(worker, lease, key) {
            self.workers.drop_lease(worker, lease);
        }
    }

    /// A worker leaves: its leases return to the queue at once.
    pub fn drain_worker(&mut self, worker: &str) -> u32 {
        let Some(w) = self.workers.remove(worker) else { return 0 };
        let released = w.leases.iter().filter(|&&id| self.queue.revoke(id)).count() as u32;
        tracing::info!(worker, released, "worker drained");
        released
    }

    /// Records shard reports. A report for a shard nobody waits for (a
    /// duplicate, a late report, a cancelled sweep) is acknowledged and
    /// ignored. So is a report from a worker that does not hold the lease
    /// it names for that shard (a forged or expired one), and a result
    /// whose tables do not check out. Returns (accepted, ignored).
    pub fn report(
        &mut self,
        worker: &str,
        reports: Vec<ShardReport>,
        now: Instant,
    ) -> Result<(u32, u32), SchedError> {
        let reports = reports.into_iter().map(|r| (r, None)).collect();
        let staged = self.stage_reports(worker, reports, now)?;
        let touched = self.accept(staged.results.into_iter().map(|(k, r, _)| (k, r)).collect(), now)?;
        for id in touched {
            self.pump(id)?;
        }
        self.bump();
        // No group committer takes the trash here: freed now.
        drop(self.take_trash());
        Ok((staged.accepted, staged.ignored))
    }

    /// The first half of [`report`](Self::report), for a group commit:
    /// checks the reports and acts on the failed and audited ones, and
    /// returns the results to store. They count only once committed and
    /// handed to [`accept_committed`](Self::accept_committed) (until then
    /// the worker keeps its leases); a report acknowledged only after that
    /// is on disk whatever happens next. Each report comes with the bytes
    /// its result arrived as, if any (kept for the store).
    pub fn stage_reports(
        &mut self,
        worker: &str,
        reports: Vec<(ShardReport, Option<Vec<u8>>)>,
        now: Instant,
    ) -> Result<Staged, SchedError> {
        if self.workers.touch(worker, now).is_none() {
            return Err(SchedError::UnknownWorker(worker.into()));
        }
        let (mut accepted, mut ignored) = (0u32, 0u32);
        let mut good: Vec<(ShardKey, Arc<ShardResult>, Option<Vec<u8>>)> = Vec::with_capacity(reports.len());
        let mut failures = Vec::new();
        for (r, encoded) in reports {
            let key = r.key;
            if !self.queue.holds(worker, r.lease, &key) {
                if self.queue.spec(&key).is_some() {
                    tracing::warn!(
                        worker,
                        lease = r.lease,
                        "report for a shard this worker does not hold ignored"
                    );
                    self.throughput.forged_reports += 1;
                } else {
                    self.throughput.superseded_reports += 1;
                }
                ignored += 1;
                continue;
            }
            let Some(spec) = self.queue.spec(&key) else {
                ignored += 1;
                continue;
            };
            let runs = spec.runs.end - spec.runs.start;
            match r.outcome {
                Err(error) => {
                    self.release(worker, r.lease, key);
                    failures.push((key, bounded(&error.to_string())));
                    accepted += 1;
                }
                Ok(result) => match result.check(runs) {
                    Ok(()) if self.audits.sampled(&key) => {
                        accepted += 1;
                        match self.audits.opinion(key, worker, &result) {
                            Opinion::Held => {
                                // Another worker plays it too before it counts.
                                self.queue.requeue_excluding(worker, r.lease, key);
                                self.workers.drop_lease(worker, r.lease);
                            }
                            Opinion::Agreed => good.push((key, Arc::new(result), encoded)),
                            Opinion::Disputed => {
                                tracing::warn!(
                                    worker,
                                    "audited shard: two workers' results differ; arbitrating"
                                );
                                self.queue.hold(worker, r.lease, key);
                                self.workers.drop_lease(worker, r.lease);
                            }
                        }
                    }
                    Ok(()) => {
                        good.push((key, Arc::new(result), encoded));
                        accepted += 1;
                    }
                    Err(e) => {
                        // The shard goes back to the queue for another worker.
                        self.release(worker, r.lease, key);
                        tracing::warn!(worker, error = %e, "shard result that does not check out ignored");
                        self.throughput.forged_reports += 1;
                        ignored += 1;
                    }
                },
            }
        }
        if let Some(w) = self.workers.get_mut(worker) {
            w.shards_done += good.len() as u64;
        }
        let mut stopped = false;
        for (key, error) in failures {
            for sweep in self.queue.sweeps_waiting(&key) {
                self.stop(sweep, SweepStatus::Failed, format!("worker {worker}: {error}"))?;
                stopped = true;
            }
        }
        tracing::debug!(worker, accepted, ignored, "report");
        self.throughput.prune(now);
        if stopped {
            self.bump();
        }
        Ok(Staged { results: good, accepted, ignored })
    }

    /// Hands results that were committed to the store (by a group commit,
    /// [`stage_reports`](Self::stage_reports)) to the cells waiting for
    /// them, and plans what follows.
    pub fn accept_committed(
        &mut self,
        results: Vec<(ShardKey, Arc<ShardResult>)>,
        now: Instant,
    ) -> Result<(), SchedError> {
        let touched = self.delivered(results, now)?;
        for id in touched {
            self.pump(id)?;
        }
        self.bump();
        Ok(())
    }

    /// A group commit of the results of shards `keys` failed: the sweeps
    /// waiting for them fail with the database's error instead of waiting
    /// forever, and `/readyz` says the coordinator is not ready until a
    /// write succeeds again.
    pub fn commit_failed(&mut self, keys: &[ShardKey], error: &StoreError) {
        self.store_failed = Some(error.to_string());
        let sweeps: BTreeSet<u64> = keys.iter().flat_map(|k| self.queue.sweeps_waiting(k)).collect();
        for sweep in sweeps {
            self.stop_unrecorded(sweep, format!("the cache database failed: {error}"));
        }
    }

    /// What the scheduler let go of since the last call (the specs of
    /// shards done; shard results are folded as they arrive): the caller frees it after
    /// releasing the lock. Without calls it stays bounded (past
    /// `queue::TRASH_MAX`, things are freed at once).
    pub fn take_trash(&mut self) -> Trash {
        Trash { _specs: self.queue.take_trash() }
    }

    /// The store, shared (a group committer writes shard results with it).
    pub fn store(&self) -> Store {
        self.store.clone()
    }

    /// Stores computed results and hands them to the cells waiting for
    /// them; returns the sweeps touched.
    fn accept(
        &mut self,
        good: Vec<(ShardKey, Arc<ShardResult>)>,
        now: Instant,
    ) -> Result<BTreeSet<u64>, SchedError> {
        let refs: Vec<(ShardKey, &ShardResult)> = good.iter().map(|(k, r)| (*k, &**r)).collect();
        if let Err(e) = self.store.put_shards(&refs) {
            let keys: Vec<ShardKey> = good.iter().map(|(k, _)| *k).collect();
            self.commit_failed(&keys, &e);
            return Err(e.into());
        }
        self.delivered(good, now)
    }

    /// Hands stored results to the cells waiting for them; returns the
    /// sweeps touched. A result nobody waits for any more (a duplicate) is
    /// not counted.
    fn delivered(
        &mut self,
        good: Vec<(ShardKey, Arc<ShardResult>)>,
        now: Instant,
    ) -> Result<BTreeSet<u64>, SchedError> {
        self.store_failed = None;
        let mut touched = BTreeSet::new();
        for (key, result) in good {
            if self.queue.spec(&key).is_none() {
                continue;
            }
            self.throughput.computed(result.runs(), now);
            self.deliver(key, result, &mut touched)?;
        }
        Ok(touched)
    }

    // -------------------------------------------------------------- audit

    /// Disputed audited shards for the arbiter to play (each handed out
    /// once), as leases of id 0 that no worker holds.
    pub fn take_disputes(&mut self) -> Vec<Lease> {
        self.audits
            .take_disputes()
            .into_iter()
            .filter_map(|key| self.queue.spec(&key).map(|spec| Lease { id: 0, key, spec: spec.clone() }))
            .collect()
    }

    /// The arbiter's own result of disputed shard `key`: it is accepted, and
    /// every worker whose result differs from it is quarantined. Returns
    /// the workers quarantined.
    pub fn arbitrate(
        &mut self,
        key: ShardKey,
        truth: ShardResult,
        now: Instant,
    ) -> Result<Vec<String>, SchedError> {
        let liars = self.audits.settle(&key, &truth);
        for w in &liars {
            self.quarantine(w);
        }
        let touched = self.accept(vec![(key, Arc::new(truth))], now)?;
        for id in touched {
            self.pump(id)?;
        }
        self.bump();
        Ok(liars)
    }

    /// Removes `worker` for good: its leases return to the queue, its held
    /// audit results are dropped (those shards are played again by
    /// others), and its name may not register again.
    fn quarantine(&mut self, worker: &str) {
        let name = self.workers.name(worker).map(str::to_string);
        tracing::warn!(
            worker,
            name = name.as_deref().unwrap_or("?"),
            "worker quarantined: its result differs from the coordinator's replay"
        );
        for key in self.audits.quarantine(worker, name.as_deref()) {
            self.queue.include_all(&key);
        }
        self.drain_worker(worker);
    }

    /// Audit counters since the start.
    pub fn audit_counts(&self) -> AuditCounts {
        self.audits.counts
    }

    /// Hands a computed result to every cell waiting for it; adds the sweeps touched to `touched`.
    fn deliver(
        &mut self,
        key: ShardKey,
        result: Arc<ShardResult>,
        touched: &mut BTreeSet<u64>,
    ) -> Result<(), SchedError> {
        let Some((waiters, lease)) = self.queue.take(&key) else { return Ok(()) };
        if let Some((lease, worker)) = lease {
            self.workers.drop_lease(&worker, lease);
        }
        for w in waiters {
            let Some(run) = self.sweeps.get_mut(&w.sweep) else { continue };
            if run.status() != SweepStatus::Running {
                continue;
            }
            let slot = Slot { job: w.job, cell: w.cell, shard: w.shard };
            if run.fill_computed(slot, Arc::clone(&result)) {
                self.complete_cell(w.sweep, w.job, w.cell)?;
            }
            touched.insert(w.sweep);
        }
        Ok(())
    }

    // ----------------------------------------------------------- shutdown

    /// Stops leasing (shutdown) and makes every write durable.
    pub fn begin_shutdown(&mut self) -> Result<(), SchedError> {
        self.draining = true;
        let running: Vec<u64> = self
            .sweeps
            .iter()
            .filter(|(_, r)| r.status() == SweepStatus::Running)
            .map(|(id, _)| *id)
            .collect();
        for id in running {
            self.journal(id)?;
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

    // -------------------------------------------------------------- views

    /// How many sweeps are being measured: one look at each sweep started by
    /// this process (ended sweeps of the journal never run again), no scan
    /// of the queue.
    pub fn sweeps_running(&self) -> usize {
        self.sweeps.values().filter(|r| !r.status().is_terminal()).count()
    }

    /// A scenario by hash.
    pub fn scenario(&self, hash: &ScenarioHash) -> Option<Arc<Scenario>> {
        self.scenarios.get(hash).cloned()
    }

    /// The state of a sweep, with its results when asked and available.
    pub fn info(&self, id: u64, with_results: bool) -> Result<SweepInfo, SchedError> {
        self.info_counted(id, self.queue.counts(id), with_results)
    }

    /// [`info`](Self::info) with the sweep's (queued, leased) shard counts given.
    fn info_counted(&self, id: u64, counts: (u64, u64), with_results: bool) -> Result<SweepInfo, SchedError> {
        if let Some(run) = self.sweeps.get(&id) {
            return Ok(run.info(id, counts, with_results));
        }
        let Some(state) = self.history.get(&id) else { return Err(SchedError::UnknownSweep(id)) };
        let results = if with_results { self.store.sweep_results(id)?.map(Arc::new) } else { None };
        let (shards_queued, shards_leased) = counts;
        Ok(SweepInfo {
            id,
            name: state.name.clone(),
            status: state.status,
            stats: pf1e_wire::status::Stats {
                shards_queued,
                shards_leased,
                ..state.stats.unwrap_or_default()
            },
            error: state.error.clone(),
            results,
            progress: Vec::new(),
        })
    }

    /// Every sweep known, oldest first, without results.
    pub fn list(&self) -> Vec<SweepInfo> {
        // The queue keeps its counts per sweep: no pass over the pending shards.
        let counts = self.queue.counts_by_sweep();
        let ids: BTreeSet<u64> = self.sweeps.keys().chain(self.history.keys()).copied().collect();
        ids.into_iter()
            .filter_map(|id| self.info_counted(id, counts.get(&id).copied().unwrap_or_default(), false).ok())
            .collect()
    }

    /// Every job's result so far while a sweep runs (a playbook ranked on
    /// the cells measured yet, a danger map with the points measured yet…),
    /// for live views; `None` once it has ended (its results are final) or
    /// for an unknown sweep.
    pub fn live_results(&self, id: u64) -> Option<Vec<JobResult>> {
        self.sweeps.get(&id).filter(|r| r.status() == SweepStatus::Running).map(|r| r.job_results())
    }

    /// The cells of a sweep finished after the first `from`.
    pub fn finished_cells(&self, id: u64, from: usize) -> Vec<FinishedCell> {
        self.sweeps.get(&id).map(|r| r.finished_cells(from)).unwrap_or_default()
    }

    /// Connected workers.
    pub fn workers(&self, now: Instant) -> Vec<WorkerInfo> {
        self.workers.infos(now)
    }

    /// Coordinator-wide figures (the metrics endpoint and `ctl status`).
    pub fn coordinator_stats(&self, now: Instant) -> CoordinatorStats {
        let (shards_queued, shards_leased) = self.queue.totals();
        CoordinatorStats {
            shards_queued,
            shards_leased,
            shards_done: self.throughput.shards_done,
            cache_hits: self.throughput.cache_hits,
            workers: self.workers.len() as u64,
            runs_per_second: self.throughput.runs_per_second(now),
            runs_done: self.throughput.runs_done,
        }
    }
}

#[cfg(test)]
mod tests;

/// Parses and validates a bundle (against the engine when `validate`)
/// without a scheduler: a server calls it outside the scheduler's lock, so
/// a large sweep file never stalls leases and reports.
pub fn check_bundle(bundle: &proto::SweepBundle, validate: bool) -> Result<SweepDraft, SchedError> {
    share_of(bundle)?;
    let draft = SweepDraft::from_bundle(bundle)?;
    if validate {
        draft.validate()?;
    }
    Ok(draft)
}

/// The longest error text a worker's failure report keeps.
const MAX_ERROR_TEXT: usize = 1000;

/// `text` cut to [`MAX_ERROR_TEXT`] characters, on one line.
fn bounded(text: &str) -> String {
    let one_line: String = text.chars().map(|c| if c.is_control() { ' ' } else { c }).collect();
    if one_line.chars().count() <= MAX_ERROR_TEXT {
        return one_line;
    }
    one_line.chars().take(MAX_ERROR_TEXT).chain("…".chars()).collect()
}

/// The message of a caught panic, bounded.
fn panic_text(panic: &(dyn std::any::Any + Send)) -> String {
    let text = panic
        .downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| panic.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "a planner panicked".into());
    text.chars().take(500).collect()
}
