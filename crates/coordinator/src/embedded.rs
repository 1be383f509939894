//! Embedded single-node mode: the scheduler driven by an in-process
//! evaluator on the current rayon pool, no network. The same planners,
//! scheduler and cache as the service; `pf1e run` composes it with the
//! worker's engine evaluator.

use std::collections::BTreeMap;
use std::sync::Arc;
use std::time::{Duration, Instant};

use pf1e_wire::evaluate::{BatchSizer, ShardEvaluator, evaluate_leases};
use pf1e_wire::scenario::{Scenario, ScenarioHash};
use pf1e_wire::status::SweepInfo;

use crate::scheduler::{SchedError, Scheduler};

/// Drives sweep `id` to its end with an in-process worker; `progress` sees
/// the state after every batch. Returns the final state with results.
pub fn drive(
    sched: &mut Scheduler,
    id: u64,
    evaluator: &dyn ShardEvaluator,
    threads: usize,
    mut progress: impl FnMut(&SweepInfo),
) -> Result<SweepInfo, SchedError> {
    let worker = sched.register_worker(
        "embedded",
        threads as u32,
        pf1e_engine::RULES_VERSION,
        pf1e_wire::PROTOCOL_VERSION,
        Instant::now(),
    )?;
    let mut sizer = BatchSizer::new(threads);
    loop {
        let info = sched.info(id, false)?;
        progress(&info);
        if info.status.is_terminal() {
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
        let scenarios: BTreeMap<ScenarioHash, Arc<Scenario>> = leases
            .iter()
            .flat_map(|l| l.spec.scenarios())
            .filter_map(|h| sched.scenario(&h).map(|sc| (h, sc)))
            .collect();
        let reports = evaluate_leases(&leases, &scenarios, evaluator);
        sizer.record(leases.len(), started.elapsed());
        sched.report(&worker, reports, Instant::now())?;
    }
}
