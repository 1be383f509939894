//! The scheduler's behaviour through its public API: leases, reports,
//! resumption and failures, with a fake engine.

use std::collections::BTreeMap;
use std::sync::Arc;
use std::time::{Duration, Instant};

use pf1e_wire::proto;
use pf1e_wire::scenario::{Scenario, ScenarioHash};
use pf1e_wire::shard::{Lease, ShardResult, ShardSpec};
use pf1e_wire::status::SweepInfo;

use super::*;
use crate::embedded::drive;
use crate::store::{Store, StoreError, SweepStatus};
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
    proto::SweepBundle { sweep_path: "s.yaml".into(), sweep_yaml: text, files, ..Default::default() }
}

/// The scenarios of some leases, as a worker would hold them.
fn scenarios(sched: &Scheduler, leases: &[Lease]) -> BTreeMap<ScenarioHash, Arc<Scenario>> {
    leases.iter().filter_map(|l| sched.scenario(&l.spec.scenario).map(|s| (l.spec.scenario, s))).collect()
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
            let mut scen = scenarios(&sched, &l1);
            scen.extend(scenarios(&sched, &l2));
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
    let mut mine = rest.clone();
    mine.extend(again);
    let scen = scenarios(&sched, &mine);
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
    // Counted as superseded (the shards were delivered), never as refused.
    assert_eq!((sched.reports_superseded(), sched.reports_refused()), (4, 0));
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

/// A worker failure with an unbounded, many-line text.
struct Verbose;

impl ShardEvaluator for Verbose {
    fn evaluate(&self, _s: &Scenario, _spec: &ShardSpec) -> Result<ShardResult, EvalError> {
        Err(EvalError::UnknownScenario(format!("line one\nline two\n{}", "x".repeat(100_000))))
    }
}

#[test]
fn a_worker_failure_text_is_cut_to_one_bounded_line() {
    let mut sched = Scheduler::new(Store::in_memory().unwrap(), cfg());
    let id = sched.submit(bundle(4)).unwrap();
    let info = drive(&mut sched, id, &Verbose, 1, |_| {}).unwrap();
    assert_eq!(info.status, SweepStatus::Failed);
    assert!(info.error.contains("line one line two"), "{}", &info.error[..80]);
    assert!(!info.error.contains('\n'));
    // The sweep's own prefix, then at most MAX_ERROR_TEXT characters and an ellipsis.
    assert!(info.error.chars().count() <= MAX_ERROR_TEXT + 200, "{} characters", info.error.chars().count());
    assert!(info.error.ends_with('…'));
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
        let scen = scenarios(&sched, &leases);
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

#[test]
fn live_results_follow_a_running_sweep_and_stop_when_it_ends() {
    let dir = tempfile::tempdir().unwrap();
    let mut sched = Scheduler::new(Store::open(&dir.path().join("c.redb")).unwrap(), cfg());
    let id = sched.submit(bundle(4)).unwrap();
    let live = sched.live_results(id).expect("a running sweep has live results");
    assert_eq!(live.len(), 1);
    assert_eq!(live[0].kind(), "grid");
    assert!(sched.live_results(id + 1).is_none(), "an unknown sweep has none");
    let done = drive(&mut sched, id, &Fake, 2, |_| {}).unwrap();
    assert_eq!(done.status, SweepStatus::Done);
    assert!(sched.live_results(id).is_none(), "an ended sweep's results are final");
}

#[test]
fn a_journaled_sweep_that_no_longer_validates_fails_alone_at_restart() {
    // A sweep journaled before budgets were checked (`runs` far over the
    // default budget): the restarted coordinator records it as failed with
    // its error and keeps serving the others.
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("c.redb");
    let mut b = bundle(4);
    b.sweep_yaml = b.sweep_yaml.replace("runs: 10", "runs: 99999999999100");
    let state = crate::store::JournalState {
        name: "t".into(),
        status: SweepStatus::Running,
        error: String::new(),
        planners: Vec::new(),
        stats: None,
        llm: Default::default(),
    };
    let bad = Store::open(&path).unwrap().create_sweep(&b, &state).unwrap();
    let mut sched = Scheduler::new(Store::open(&path).unwrap(), cfg());
    assert_eq!(sched.resume().unwrap(), Vec::<u64>::new());
    let info = sched.info(bad, false).unwrap();
    assert_eq!(info.status, SweepStatus::Failed);
    assert!(info.error.contains("default budget"), "{}", info.error);
    let good = run_to_end(&mut sched, bundle(4));
    assert_eq!(good.status, SweepStatus::Done);
}

#[test]
fn ended_sweeps_leave_memory_but_keep_their_answers() {
    let dir = tempfile::tempdir().unwrap();
    let mut sched = Scheduler::new(Store::open(&dir.path().join("c.redb")).unwrap(), cfg());
    let runs: Vec<SweepInfo> =
        (0..FINISHED_IN_MEMORY + 3).map(|_| run_to_end(&mut sched, bundle(4))).collect();
    // One more submission evicts every ended sweep past the newest few.
    let last = run_to_end(&mut sched, bundle(4));
    // (The last one ended after that eviction.)
    assert_eq!(sched.sweeps.len(), FINISHED_IN_MEMORY + 1, "memory holds only the newest ended sweeps");
    assert_eq!(sched.history.len(), runs.len() - FINISHED_IN_MEMORY);
    for done in runs.iter().chain([&last]) {
        let info = sched.info(done.id, true).unwrap();
        assert_eq!(info.status, SweepStatus::Done);
        assert_eq!(info.results, done.results, "sweep {}: results from the store, bit for bit", done.id);
        assert_eq!(info.stats.runs_done, done.stats.runs_done);
    }
    assert_eq!(sched.list().len(), runs.len() + 1);
    // `/metrics` counts running sweeps without the list: none of these runs.
    assert_eq!(sched.sweeps_running(), 0);
    // Every sweep plays the same scenario, still live in the newest ones.
    assert_eq!(sched.scenarios.len(), 1);
}

#[test]
fn the_list_counts_shards_as_each_sweep_s_own_status_does() {
    let dir = tempfile::tempdir().unwrap();
    let mut sched = Scheduler::new(Store::open(&dir.path().join("c.redb")).unwrap(), cfg());
    let now = Instant::now();
    let a = sched.submit(bundle(4)).unwrap();
    let b = sched.submit(bundle(2)).unwrap();
    let w =
        sched.register_worker("w", 1, pf1e_engine::RULES_VERSION, pf1e_wire::PROTOCOL_VERSION, now).unwrap();
    assert!(!sched.lease(&w, 4, now).unwrap().is_empty());
    let listed = sched.list();
    assert_eq!(listed.len(), 2);
    assert_eq!(sched.sweeps_running(), listed.iter().filter(|i| !i.status.is_terminal()).count());
    assert_eq!(sched.sweeps_running(), 2);
    let mut leased = 0;
    for (info, id) in listed.iter().zip([a, b]) {
        let own = sched.info(id, false).unwrap();
        assert_eq!(info.id, id);
        assert_eq!(info.stats, own.stats, "sweep {id}");
        leased += own.stats.shards_leased;
        assert!(own.stats.shards_queued > 0, "sweep {id} has shards waiting");
    }
    assert!(leased > 0, "some shards are leased");
}

#[test]
fn a_coordinator_keeping_few_sweeps_removes_older_journals_as_it_runs() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("c.redb");
    let keep = FINISHED_IN_MEMORY + 1;
    let mut sched =
        Scheduler::new(Store::open(&path).unwrap(), SchedulerConfig { keep_sweeps: Some(keep), ..cfg() });
    let runs: Vec<SweepInfo> = (0..keep + 4).map(|_| run_to_end(&mut sched, bundle(4))).collect();
    // The last submission's eviction kept `keep` ended sweeps; then it ended too.
    let listed: Vec<u64> = sched.list().iter().map(|i| i.id).collect();
    let newest: Vec<u64> = runs.iter().rev().take(keep + 1).map(|i| i.id).rev().collect();
    assert_eq!(listed, newest, "only the newest sweeps are known");
    assert!(matches!(sched.info(runs[0].id, true), Err(SchedError::UnknownSweep(_))));
    drop(sched);
    // Removed from the file too, not only from memory; the shards stay cached.
    let mut sched = Scheduler::new(Store::open(&path).unwrap(), cfg());
    sched.resume().unwrap();
    assert_eq!(sched.list().len(), keep + 1);
    let again = run_to_end(&mut sched, bundle(4));
    assert_eq!(again.stats.shards_computed, 0, "cached shards outlive their sweeps' journals");
}

#[test]
fn gc_keeps_the_newest_ended_sweeps_and_never_a_running_one() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("c.redb");
    let mut sched = Scheduler::new(Store::open(&path).unwrap(), cfg());
    // Six ended sweeps: more than stay in memory, so both kinds are removed.
    let ended: Vec<u64> = (0..FINISHED_IN_MEMORY + 2).map(|_| run_to_end(&mut sched, bundle(4)).id).collect();
    let running = sched.submit(bundle(2)).unwrap();
    let before = sched.info(running, false).unwrap();
    assert!(matches!(sched.collect_garbage(MAX_KEEP_SWEEPS + 1), Err(SchedError::Keep(_))));
    assert_eq!(sched.list().len(), ended.len() + 1, "a refused gc removed something");

    let c = sched.collect_garbage(2).unwrap();
    assert_eq!((c.removed, c.kept, c.running), (ended.len() as u64 - 2, 2, 1));
    assert!(c.bytes > 0);
    let listed: Vec<u64> = sched.list().iter().map(|i| i.id).collect();
    assert_eq!(listed, vec![ended[ended.len() - 2], ended[ended.len() - 1], running]);
    assert_eq!(sched.info(running, false).unwrap(), before, "the running sweep changed");
    assert_eq!(sched.collect_garbage(2).unwrap().removed, 0);

    // Keep none: only the running sweep is left, and it ends as it would have.
    let none = sched.collect_garbage(0).unwrap();
    assert_eq!((none.removed, none.kept, none.running), (2, 0, 1));
    let done = drive(&mut sched, running, &Fake, 2, |_| {}).unwrap();
    let alone = run_to_end(&mut Scheduler::new(Store::in_memory().unwrap(), cfg()), bundle(2));
    assert_eq!(done.results, alone.results);
    drop(sched);
    // Removed from the file: a restarted coordinator knows the last sweep only.
    let mut sched = Scheduler::new(Store::open(&path).unwrap(), cfg());
    sched.resume().unwrap();
    assert_eq!(sched.list().iter().map(|i| i.id).collect::<Vec<_>>(), vec![running]);
}

/// A database that fails a group commit fails the sweeps waiting for
/// those shards, with its error, rather than leaving them "running"; the
/// coordinator is not ready (`/readyz`) until a write succeeds again.
#[test]
fn a_failed_commit_fails_its_sweep_and_readiness_until_a_write_succeeds() {
    let mut sched = Scheduler::new(Store::in_memory().unwrap(), cfg());
    let id = sched.submit(bundle(2)).unwrap();
    let now = Instant::now();
    let w =
        sched.register_worker("w", 1, pf1e_engine::RULES_VERSION, pf1e_wire::PROTOCOL_VERSION, now).unwrap();
    let leases = sched.lease(&w, 1, now).unwrap();
    let keys: Vec<_> = leases.iter().map(|l| l.key).collect();
    assert_eq!(sched.store_failure(), None);
    let error = StoreError { path: "c.redb".into(), what: "write shards", source: "disk full".into() };
    sched.commit_failed(&keys, &error);
    let info = sched.info(id, false).unwrap();
    assert_eq!(info.status, SweepStatus::Failed);
    assert!(
        info.error.contains("the cache database failed") && info.error.contains("disk full"),
        "{}",
        info.error
    );
    assert!(sched.store_failure().is_some_and(|e| e.contains("disk full")));
    // The next sweep's writes succeed: ready again.
    let next = run_to_end(&mut sched, bundle(4));
    assert_eq!(next.status, SweepStatus::Done);
    assert_eq!(sched.store_failure(), None);
}

/// A worker that lies with tables that check out: every run won by side 0
/// (the truth alternates), so its totals lie too.
struct Liar;

impl ShardEvaluator for Liar {
    fn evaluate(&self, _s: &Scenario, spec: &ShardSpec) -> Result<ShardResult, EvalError> {
        use crate::merge::tests::fake_result;
        let mut out = fake_result(0, 0..0);
        for i in spec.runs.clone() {
            let r = fake_result(i % 2, i..i + 1);
            out.summary.merge(&r.summary);
            out.winner.extend(r.winner);
            out.rounds.extend(r.rounds);
            out.final_hp.extend(r.final_hp);
            out.dead.extend(r.dead);
        }
        Ok(out)
    }
}

#[test]
fn audits_catch_a_lying_worker_quarantine_it_and_keep_the_true_results() {
    let reference = run_to_end(&mut Scheduler::new(Store::in_memory().unwrap(), cfg()), bundle(2)).results;
    let mut sched =
        Scheduler::new(Store::in_memory().unwrap(), SchedulerConfig { audit_fraction: 1.0, ..cfg() });
    let id = sched.submit(bundle(2)).unwrap();
    let now = Instant::now();
    let reg = |s: &mut Scheduler, name: &str| {
        s.register_worker(name, 1, pf1e_engine::RULES_VERSION, pf1e_wire::PROTOCOL_VERSION, now)
    };
    let liar = reg(&mut sched, "liar").unwrap();
    let honest = [reg(&mut sched, "h1").unwrap(), reg(&mut sched, "h2").unwrap()];
    let mut liar_alive = true;
    for _ in 0..200 {
        if sched.info(id, false).unwrap().status != SweepStatus::Running {
            break;
        }
        if liar_alive {
            match sched.lease(&liar, 1, now) {
                Ok(l) => {
                    let scen = scenarios(&sched, &l);
                    sched.report(&liar, evaluate_leases(&l, &scen, &Liar), now).unwrap();
                }
                Err(SchedError::UnknownWorker(_)) => liar_alive = false,
                Err(e) => panic!("{e}"),
            }
        }
        for w in &honest {
            let l = sched.lease(w, 1, now).unwrap();
            let scen = scenarios(&sched, &l);
            sched.report(w, evaluate_leases(&l, &scen, &Fake), now).unwrap();
        }
        // The coordinator's own replay settles every dispute.
        let disputes = sched.take_disputes();
        let scen = scenarios(&sched, &disputes);
        for r in evaluate_leases(&disputes, &scen, &Fake) {
            let quarantined = sched.arbitrate(r.key, r.outcome.unwrap(), now).unwrap();
            assert!(quarantined.iter().all(|w| w == &liar), "only the liar is quarantined: {quarantined:?}");
        }
    }
    let info = sched.info(id, true).unwrap();
    assert_eq!(info.status, SweepStatus::Done);
    assert_eq!(info.results, reference, "no lie reached a result");
    let counts = sched.audit_counts();
    assert_eq!(counts.quarantined, 1, "{counts:?}");
    assert!(counts.disputed >= 1 && counts.passed >= 1, "{counts:?}");
    assert!(!liar_alive, "the liar lost its registration");
    let again = reg(&mut sched, "liar").unwrap_err();
    assert!(matches!(again, SchedError::Quarantined(_)), "{again}");
}

#[test]
fn a_lone_worker_is_not_held_up_by_audits() {
    let reference = run_to_end(&mut Scheduler::new(Store::in_memory().unwrap(), cfg()), bundle(3)).results;
    let mut sched =
        Scheduler::new(Store::in_memory().unwrap(), SchedulerConfig { audit_fraction: 1.0, ..cfg() });
    let info = run_to_end(&mut sched, bundle(3));
    assert_eq!(info.status, SweepStatus::Done);
    assert_eq!(info.results, reference);
    let counts = sched.audit_counts();
    assert_eq!((counts.passed, counts.disputed), (0, 0));
    assert_eq!(counts.waived, info.stats.shards_computed, "every shard accepted on its one result");
}

#[test]
fn a_small_sweep_submitted_behind_a_big_one_gets_its_fair_share() {
    let mut sched = Scheduler::new(Store::in_memory().unwrap(), cfg());
    let big = sched.submit(bundle(1)).unwrap();
    let mut small_bundle = bundle(5);
    small_bundle.sweep_yaml = small_bundle.sweep_yaml.replace("seed: 3", "seed: 4");
    let small = sched.submit(small_bundle).unwrap();
    let now = Instant::now();
    let w =
        sched.register_worker("w", 1, pf1e_engine::RULES_VERSION, pf1e_wire::PROTOCOL_VERSION, now).unwrap();
    let mut rounds = 0;
    while sched.info(small, false).unwrap().status == SweepStatus::Running {
        let l = sched.lease(&w, 1, now).unwrap();
        let scen = scenarios(&sched, &l);
        sched.report(&w, evaluate_leases(&l, &scen, &Fake), now).unwrap();
        rounds += 1;
        assert!(rounds < 100, "the small sweep never finished");
    }
    // 6 shards of its own, one lease in two: done within 12 leases, while
    // the big one (30 shards) is still running.
    assert!(rounds <= 12, "the small sweep waited: {rounds} leases");
    assert_eq!(sched.info(big, false).unwrap().status, SweepStatus::Running);
}

/// A fake engine whose outcomes depend on the strategies too, with every
/// kind of run (wins both ways, draws, deaths): an analysis job's cells
/// differ.
struct Varied;

impl ShardEvaluator for Varied {
    fn evaluate(&self, _s: &Scenario, spec: &ShardSpec) -> Result<ShardResult, EvalError> {
        let name = format!("{}/{}", spec.party_strategy.name(), spec.adversary_strategy.name());
        let salt = name.bytes().fold(spec.seed, |h, b| (h ^ u64::from(b)).wrapping_mul(0x100_0000_01b3));
        let start = spec.runs.start + (salt % 1_000) * 1_000_000;
        Ok(crate::merge::tests::varied_result(start..start + (spec.runs.end - spec.runs.start)))
    }
}

/// A sensitivity sweep (its cells' shards report packed rows, spilled as
/// they arrive): the results are the same, byte for byte, whether its
/// shards come in order from the embedded driver or shuffled from a
/// worker, one report at a time.
#[test]
fn an_analysis_sweep_s_results_do_not_depend_on_the_order_its_spilled_shards_arrive() {
    let bundle = || {
        let mut b = bundle(7);
        b.sweep_yaml = b.sweep_yaml.replace("runs: 10", "runs: 300").replace(
            "  - grid: { hp: { players: [0.25, 0.5, 1.0] } }",
            "  - sensitivity: { criterion: expected_hp_lost }",
        );
        b
    };
    let json = |info: &SweepInfo| serde_json::to_string(info.results.as_deref().unwrap()).unwrap();
    let mut sched = Scheduler::new(Store::in_memory().unwrap(), cfg());
    let id = sched.submit(bundle()).unwrap();
    let reference = drive(&mut sched, id, &Varied, 2, |_| {}).unwrap();
    assert_eq!(reference.status, SweepStatus::Done, "{}", reference.error);
    assert!(reference.stats.cells_done >= 3);

    let mut sched = Scheduler::new(Store::in_memory().unwrap(), cfg());
    let id = sched.submit(bundle()).unwrap();
    let now = Instant::now();
    let w =
        sched.register_worker("a", 1, pf1e_engine::RULES_VERSION, pf1e_wire::PROTOCOL_VERSION, now).unwrap();
    let mut round = 0u64;
    loop {
        let leases = sched.lease(&w, 10_000, now).unwrap();
        if leases.is_empty() {
            break;
        }
        let scen = scenarios(&sched, &leases);
        let mut reports = evaluate_leases(&leases, &scen, &Varied);
        round += 1;
        reports.sort_by_key(|r| (r.lease ^ round).wrapping_mul(0x9e37_79b9_7f4a_7c15).rotate_left(31));
        for r in reports {
            sched.report(&w, vec![r], now).unwrap();
        }
    }
    let info = sched.info(id, true).unwrap();
    assert_eq!(info.status, SweepStatus::Done, "{}", info.error);
    assert_eq!(json(&info), json(&reference));
}
