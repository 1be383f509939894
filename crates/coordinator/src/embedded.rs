//! Embedded single-node mode: the scheduler with an in-process worker pool
//! (rayon), no network. The same planner, scheduler and cache as the service.

use std::collections::BTreeMap;
use std::sync::Arc;
use std::time::{Duration, Instant};

use rayon::prelude::*;

use crate::proto;
use crate::scenario::Scenario;
use crate::scheduler::{SchedError, Scheduler};
use crate::store::SweepStatus;

/// Plays shards: the engine in production, a fake in scheduler tests.
pub trait ShardEvaluator: Send + Sync {
    /// Plays the runs of `spec` in `scenario`; an error fails the sweep.
    fn evaluate(&self, scenario: &Scenario, spec: &proto::ShardSpec) -> Result<proto::ShardResult, String>;
}

/// Sizes lease batches so one batch takes about `target` of wall time.
#[derive(Debug, Clone)]
pub struct BatchSizer {
    threads: usize,
    per_shard: Option<Duration>,
    target: Duration,
}

impl BatchSizer {
    /// A sizer for `threads` threads.
    pub fn new(threads: usize, target: Duration) -> Self {
        Self { threads: threads.max(1), per_shard: None, target }
    }

    /// Shards to lease next.
    pub fn next(&self) -> usize {
        let t = self.threads;
        match self.per_shard {
            None => t,
            Some(d) => {
                let n = (self.target.as_secs_f64() * t as f64 / d.as_secs_f64().max(1e-7)) as usize;
                n.clamp(t, 1024)
            }
        }
    }

    /// Records that `shards` took `elapsed` on all threads.
    pub fn record(&mut self, shards: usize, elapsed: Duration) {
        if shards == 0 {
            return;
        }
        let per = elapsed.mul_f64(self.threads as f64 / shards as f64);
        self.per_shard = Some(match self.per_shard {
            None => per,
            Some(old) => old.mul_f64(0.7) + per.mul_f64(0.3),
        });
    }
}

/// Plays a batch of leases in parallel on the current rayon pool.
pub fn evaluate_leases(
    leases: &[proto::Lease],
    scenarios: &BTreeMap<String, Arc<Scenario>>,
    evaluator: &dyn ShardEvaluator,
) -> Vec<proto::ShardReport> {
    leases
        .par_iter()
        .map(|l| {
            let spec = l.spec.clone().unwrap_or_default();
            let outcome = match scenarios.get(&spec.scenario_hash) {
                // A panic in the engine fails the sweep with a message instead of killing the worker.
                Some(s) => {
                    std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| evaluator.evaluate(s, &spec)))
                        .unwrap_or_else(|p| {
                            let what = p
                                .downcast_ref::<String>()
                                .cloned()
                                .or_else(|| p.downcast_ref::<&str>().map(|s| s.to_string()))
                                .unwrap_or_default();
                            Err(format!(
                                "the engine panicked on runs {}..{}: {what}",
                                spec.run_start, spec.run_end
                            ))
                        })
                }
                None => Err(format!("unknown scenario {}", spec.scenario_hash)),
            };
            let (result, error) = match outcome {
                Ok(r) => (Some(r), String::new()),
                Err(e) => (None, e),
            };
            proto::ShardReport { lease_id: l.lease_id, shard_key: l.shard_key.clone(), result, error }
        })
        .collect()
}

/// Drives sweep `id` to its end with an in-process worker; `progress` sees
/// the state after every batch. Returns the final state with results.
pub fn drive(
    sched: &mut Scheduler,
    id: u64,
    evaluator: &dyn ShardEvaluator,
    threads: usize,
    mut progress: impl FnMut(&proto::SweepInfo),
) -> Result<proto::SweepInfo, SchedError> {
    let worker =
        sched.register_worker("embedded", threads as u32, pf1e_engine::RULES_VERSION, Instant::now())?;
    let mut sizer = BatchSizer::new(threads, Duration::from_millis(200));
    loop {
        let info = sched.info(id, false)?;
        progress(&info);
        if info.status != SweepStatus::Running.as_str() {
            sched.drain_worker(&worker);
            sched.flush()?;
            return sched.info(id, true);
        }
        let leases = sched.lease(&worker, sizer.next(), Instant::now())?;
        if leases.is_empty() {
            // Every queued shard is leased to another worker of this scheduler.
            std::thread::sleep(Duration::from_millis(5));
            continue;
        }
        let started = Instant::now();
        let scenarios: BTreeMap<String, Arc<Scenario>> = leases
            .iter()
            .filter_map(|l| l.spec.as_ref())
            .filter_map(|s| sched.scenario(&s.scenario_hash).map(|sc| (s.scenario_hash.clone(), sc)))
            .collect();
        let reports = evaluate_leases(&leases, &scenarios, evaluator);
        sizer.record(leases.len(), started.elapsed());
        sched.report(&worker, reports, Instant::now())?;
    }
}
