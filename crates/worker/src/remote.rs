//! The worker loop: register, lease, play, heartbeat, report; reconnect with
//! backoff while the coordinator is away. Stateless: everything it holds
//! (scenarios by hash, unsent reports) can be lost without harm.

use std::collections::BTreeMap;
use std::future::Future;
use std::sync::Arc;
use std::time::{Duration, Instant};

use pf1e_wire::client::{Target, Worker};
use pf1e_wire::error::WireError;
use pf1e_wire::evaluate::{BatchSizer, ShardEvaluator, evaluate_leases};
use pf1e_wire::proto;
use pf1e_wire::scenario::{Scenario, ScenarioHash};
use pf1e_wire::shard::{Lease, ShardFailure, ShardReport, UnreadableLease};
use tonic::Code;

/// How a worker runs.
#[derive(Clone, Debug)]
pub struct WorkerConfig {
    /// The coordinator.
    pub target: Target,
    /// Threads to play shards with.
    pub threads: usize,
    /// Name shown by `ctl workers`.
    pub name: String,
    /// Engine rules version announced at registration.
    pub rules_version: String,
    /// Most shards per lease (the batch otherwise adapts to
    /// [`BATCH_TARGET`](pf1e_wire::evaluate::BATCH_TARGET) of work).
    pub max_batch: Option<usize>,
    /// Where to record the round trip of every lease call (benchmarks).
    pub lease_times: Option<Arc<LeaseTimes>>,
}

/// Round trips of lease calls, as a worker saw them (`pf1e bench-service`
/// reports their percentiles). Keeps the first [`LeaseTimes::KEPT`].
#[derive(Debug, Default)]
pub struct LeaseTimes(std::sync::Mutex<Vec<Duration>>);

impl LeaseTimes {
    /// Most round trips kept.
    pub const KEPT: usize = 1 << 20;

    /// Records one round trip.
    pub fn record(&self, d: Duration) {
        let mut v = self.0.lock().unwrap_or_else(|p| p.into_inner());
        if v.len() < Self::KEPT {
            v.push(d);
        }
    }

    /// The round trips recorded, sorted.
    pub fn sorted(&self) -> Vec<Duration> {
        let mut v = self.0.lock().unwrap_or_else(|p| p.into_inner()).clone();
        v.sort_unstable();
        v
    }
}

impl LeaseTimes {
    /// One line of JSON: the count of lease calls and their round trips'
    /// median, 99th percentile and maximum in microseconds
    /// (`{"leases":N,"lease_p50_us":…,"lease_p99_us":…,"lease_max_us":…}`).
    pub fn summary_json(&self) -> String {
        let v = self.sorted();
        let us = |d: Option<Duration>| d.map_or(0, |d| d.as_micros());
        format!(
            "{{\"leases\":{},\"lease_p50_us\":{},\"lease_p99_us\":{},\"lease_max_us\":{}}}",
            v.len(),
            us(percentile(&v, 50.0)),
            us(percentile(&v, 99.0)),
            us(v.last().copied())
        )
    }
}

/// The nearest-rank percentile `p` (0 to 100) of sorted durations.
pub fn percentile(sorted: &[Duration], p: f64) -> Option<Duration> {
    if sorted.is_empty() {
        return None;
    }
    let rank = ((p / 100.0) * sorted.len() as f64).ceil() as usize;
    sorted.get(rank.clamp(1, sorted.len()) - 1).copied()
}

async fn timed_lease(
    client: &mut Worker,
    req: proto::LeaseRequest,
    times: Option<&LeaseTimes>,
) -> Result<tonic::Response<proto::LeaseResponse>, tonic::Status> {
    let start = Instant::now();
    let r = client.lease(req).await;
    if let Some(t) = times {
        t.record(start.elapsed());
    }
    r
}

impl WorkerConfig {
    /// A worker of this engine's rules: `threads` defaults to every core,
    /// `name` to the host name (then `worker`).
    pub fn new(
        target: Target,
        threads: Option<usize>,
        name: Option<String>,
        max_batch: Option<usize>,
    ) -> Self {
        let threads =
            threads.unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get())).max(1);
        let name = name.unwrap_or_else(|| {
            std::fs::read_to_string("/etc/hostname")
                .map(|h| h.trim().to_string())
                .ok()
                .filter(|h| !h.is_empty())
                .unwrap_or_else(|| "worker".into())
        });
        Self {
            target,
            threads,
            name,
            rules_version: pf1e_engine::RULES_VERSION.to_string(),
            max_batch,
            lease_times: None,
        }
    }
}

/// Why a worker stopped.
#[derive(Debug, thiserror::Error)]
pub enum WorkerError {
    /// The coordinator refused this worker for good (rules or protocol
    /// version, token): the message says which.
    #[error("refused by the coordinator: {}", .0.message())]
    Refused(tonic::Status),
    /// The thread pool could not start.
    #[error("cannot start the thread pool: {0}")]
    ThreadPool(#[from] rayon::ThreadPoolBuildError),
    /// The task playing shards died.
    #[error("shard execution: {0}")]
    Execution(#[from] tokio::task::JoinError),
    /// A scenario arrived unreadable or altered (another pf1e version, or
    /// something between the coordinator and this worker corrupts data).
    #[error("scenario from the coordinator: {0}")]
    Scenario(#[from] WireError),
}

enum Step {
    /// The connection broke: reconnect.
    Reconnect,
    /// Asked to stop.
    Stop,
}

fn fatal(s: &tonic::Status) -> bool {
    matches!(
        s.code(),
        Code::FailedPrecondition | Code::Unauthenticated | Code::PermissionDenied | Code::InvalidArgument
    )
}

/// Runs until `shutdown` resolves (then drains) or the coordinator refuses the worker.
pub async fn run(
    cfg: WorkerConfig,
    evaluator: Arc<dyn ShardEvaluator>,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> Result<(), WorkerError> {
    let pool = Arc::new(rayon::ThreadPoolBuilder::new().num_threads(cfg.threads.max(1)).build()?);
    let (stop_tx, stop_rx) = tokio::sync::watch::channel(false);
    tokio::spawn(async move {
        shutdown.await;
        let _ = stop_tx.send(true);
    });
    let mut scenarios: BTreeMap<ScenarioHash, Arc<Scenario>> = BTreeMap::new();
    let mut unsent: Vec<ShardReport> = Vec::new();
    let mut backoff = Duration::from_millis(100);
    loop {
        if *stop_rx.borrow() {
            return Ok(());
        }
        let client = match cfg.target.worker().await {
            Ok(c) => c,
            Err(e) => {
                tracing::warn!("{e}; retrying in {backoff:?}");
                let mut rx = stop_rx.clone();
                tokio::select! {
                    _ = tokio::time::sleep(backoff) => {}
                    _ = rx.changed() => {}
                }
                backoff = (backoff * 2).min(Duration::from_secs(5));
                continue;
            }
        };
        match session(
            &cfg,
            client,
            &evaluator,
            &pool,
            &mut scenarios,
            &mut unsent,
            stop_rx.clone(),
            &mut backoff,
        )
        .await?
        {
            Step::Stop => return Ok(()),
            Step::Reconnect => {
                tracing::warn!("lost the coordinator; reconnecting in {backoff:?}");
                let mut rx = stop_rx.clone();
                tokio::select! {
                    _ = tokio::time::sleep(backoff) => {}
                    _ = rx.changed() => {}
                }
                backoff = (backoff * 2).min(Duration::from_secs(5));
            }
        }
    }
}

/// What a failed call means for the session: `Ok(id)` when the coordinator
/// had forgotten this worker (it restarted) and the worker registered again
/// under `id`; otherwise how the session ends (refused, or reconnect).
async fn recover(
    status: tonic::Status,
    client: &mut Worker,
    register: &proto::RegisterRequest,
) -> Result<String, Result<Step, WorkerError>> {
    if fatal(&status) {
        return Err(Err(WorkerError::Refused(status)));
    }
    if status.code() != Code::NotFound {
        return Err(Ok(Step::Reconnect));
    }
    match client.register(register.clone()).await {
        Ok(r) => Ok(r.into_inner().worker_id),
        Err(s) if fatal(&s) => Err(Err(WorkerError::Refused(s))),
        Err(_) => Err(Ok(Step::Reconnect)),
    }
}

/// One connected session: register, then lease, play and report until the
/// coordinator goes away (reconnect) or the worker is told to stop.
#[allow(clippy::too_many_arguments)] // the loop state outlives sessions: the caller owns it
async fn session(
    cfg: &WorkerConfig,
    mut client: Worker,
    evaluator: &Arc<dyn ShardEvaluator>,
    pool: &Arc<rayon::ThreadPool>,
    scenarios: &mut BTreeMap<ScenarioHash, Arc<Scenario>>,
    unsent: &mut Vec<ShardReport>,
    mut stop: tokio::sync::watch::Receiver<bool>,
    backoff: &mut Duration,
) -> Result<Step, WorkerError> {
    let register = proto::RegisterRequest {
        name: cfg.name.clone(),
        threads: cfg.threads as u32,
        rules_version: cfg.rules_version.clone(),
        protocol_version: pf1e_wire::PROTOCOL_VERSION,
    };
    let reg = match client.register(register.clone()).await {
        Ok(r) => r.into_inner(),
        Err(s) if fatal(&s) => return Err(WorkerError::Refused(s)),
        Err(_) => return Ok(Step::Reconnect),
    };
    let mut worker_id = reg.worker_id;
    let ttl = Duration::from_millis(reg.lease_ttl_ms.max(300));
    tracing::info!(worker = %worker_id, "registered");
    *backoff = Duration::from_millis(100);
    let mut sizer = BatchSizer::new(cfg.threads);
    let mut idle = Duration::from_millis(5);
    // The next batch, leased while the pool played the last one.
    let mut prefetched: Option<proto::LeaseResponse> = None;
    loop {
        if *stop.borrow() || prefetched.is_none() {
            // Nothing leased ahead (or stopping): report, then lease, in turn.
            if !unsent.is_empty() {
                let reports = unsent.iter().map(proto::ShardReport::from).collect();
                let req = proto::ReportRequest { worker_id: worker_id.clone(), reports };
                match client.report(req).await {
                    Ok(_) => unsent.clear(),
                    // Registered again after a coordinator restart: resend.
                    Err(s) => match recover(s, &mut client, &register).await {
                        Ok(id) => {
                            worker_id = id;
                            continue;
                        }
                        Err(exit) => return exit,
                    },
                }
            }
        }
        if *stop.borrow() {
            // The drain also returns any batch leased ahead to the queue.
            let _ = client.drain(proto::DrainRequest { worker_id: worker_id.clone() }).await;
            tracing::info!("drained");
            return Ok(Step::Stop);
        }
        let max = cfg.max_batch.map_or(sizer.next(), |m| sizer.next().min(m.max(1)));
        let resp = match prefetched.take() {
            Some(r) => r,
            None => match timed_lease(
                &mut client,
                proto::LeaseRequest { worker_id: worker_id.clone(), max_shards: max as u32 },
                cfg.lease_times.as_deref(),
            )
            .await
            {
                Ok(r) => r.into_inner(),
                Err(s) => match recover(s, &mut client, &register).await {
                    Ok(id) => {
                        worker_id = id;
                        continue;
                    }
                    Err(exit) => return exit,
                },
            },
        };
        if resp.leases.is_empty() {
            tokio::select! {
                _ = tokio::time::sleep(idle) => {}
                _ = stop.changed() => {}
            }
            idle = (idle * 2).min(if resp.draining {
                Duration::from_secs(1)
            } else {
                Duration::from_millis(200)
            });
            continue;
        }
        idle = Duration::from_millis(5);
        let (leases, refused) = decode_leases(&resp);
        // Every scenario the leases play (a day's shard plays several).
        for hash in leases.iter().flat_map(|l| l.spec.scenarios()) {
            if scenarios.contains_key(&hash) {
                continue;
            }
            let request = proto::FetchScenarioRequest { hash: pf1e_wire::canon::hex(&hash) };
            let bundle = match client.fetch_scenario(request).await {
                Ok(b) => b.into_inner(),
                Err(s) if s.code() == Code::NotFound => continue,
                Err(_) => return Ok(Step::Reconnect),
            };
            scenarios.insert(hash, Arc::new(Scenario::try_from(&bundle)?));
        }
        let started = Instant::now();
        let n = leases.len();
        let work = {
            let pool = Arc::clone(pool);
            let evaluator = Arc::clone(evaluator);
            let scen = scenarios.clone();
            tokio::task::spawn_blocking(move || {
                pool.install(|| evaluate_leases(&leases, &scen, evaluator.as_ref()))
            })
        };
        tokio::pin!(work);
        // While the pool plays: report the previous batch and lease the next
        // one (pipelined), so the pool never waits for a round trip. A failed
        // call leaves its reports for the in-turn path above.
        let ahead = ahead(
            client.clone(),
            worker_id.clone(),
            std::mem::take(unsent),
            max,
            stop.clone(),
            cfg.lease_times.clone(),
        );
        tokio::pin!(ahead);
        let mut ahead_done = false;
        let reports = loop {
            tokio::select! {
                r = &mut work => break r?,
                (left, next) = &mut ahead, if !ahead_done => {
                    ahead_done = true;
                    *unsent = left;
                    prefetched = next;
                }
                _ = tokio::time::sleep(ttl / 3) => {
                    let hb = proto::HeartbeatRequest { worker_id: worker_id.clone() };
                    if let Err(s) = client.heartbeat(hb).await {
                        tracing::warn!("heartbeat failed: {}", s.message());
                    }
                }
            }
        };
        if !ahead_done {
            // The batch finished before the calls returned: wait for them
            // (they are short), so reports are never lost or sent twice.
            let (left, next) = ahead.await;
            *unsent = left;
            prefetched = next;
        }
        sizer.record(n, started.elapsed());
        unsent.extend(reports);
        unsent.extend(refused);
    }
}

/// Reports `done` and, unless stopping, leases up to `max` shards ahead.
/// Returns the reports still to send (all of them when the report failed)
/// and the batch leased, if any.
async fn ahead(
    mut client: Worker,
    worker_id: String,
    done: Vec<ShardReport>,
    max: usize,
    stop: tokio::sync::watch::Receiver<bool>,
    times: Option<Arc<LeaseTimes>>,
) -> (Vec<ShardReport>, Option<proto::LeaseResponse>) {
    if !done.is_empty() {
        let reports = done.iter().map(proto::ShardReport::from).collect();
        let req = proto::ReportRequest { worker_id: worker_id.clone(), reports };
        if client.report(req).await.is_err() {
            return (done, None);
        }
    }
    if *stop.borrow() {
        return (Vec::new(), None);
    }
    let req = proto::LeaseRequest { worker_id, max_shards: max as u32 };
    let next = timed_lease(&mut client, req, times.as_deref())
        .await
        .ok()
        .map(tonic::Response::into_inner)
        .filter(|r| !r.leases.is_empty());
    (Vec::new(), next)
}

/// Decodes leased shards. A shard this worker cannot read is reported as
/// failed at once (it fails its sweep with the reason) rather than left to
/// expire and be leased again forever.
fn decode_leases(resp: &proto::LeaseResponse) -> (Vec<Lease>, Vec<ShardReport>) {
    let mut ok = Vec::with_capacity(resp.leases.len());
    let mut refused = Vec::new();
    for l in pf1e_wire::shard::decode_leases(resp) {
        match l {
            Ok(lease) => ok.push(lease),
            Err(UnreadableLease { id, key: Some(key), error }) => refused.push(ShardReport {
                lease: id,
                key,
                outcome: Err(ShardFailure(format!("this worker cannot read the shard: {error}"))),
            }),
            Err(UnreadableLease { id, key: None, error }) => {
                tracing::warn!(lease = id, "unreadable lease ignored: {error}")
            }
        }
    }
    (ok, refused)
}
