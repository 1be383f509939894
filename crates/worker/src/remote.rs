//! The worker loop: register, lease, play, heartbeat, report; reconnect with
//! backoff while the coordinator is away. Stateless: everything it holds
//! (scenarios by hash, unsent reports) can be lost without harm.

use std::collections::BTreeMap;
use std::future::Future;
use std::sync::Arc;
use std::time::{Duration, Instant};

use pf1e_coordinator::client::{Target, Worker};
use pf1e_coordinator::embedded::{BatchSizer, ShardEvaluator, evaluate_leases};
use pf1e_coordinator::proto;
use pf1e_coordinator::scenario::Scenario;
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
    /// Most shards per lease (the batch otherwise adapts to ~0.1 s of work).
    pub max_batch: Option<usize>,
}

/// Why a worker stopped.
#[derive(Debug, thiserror::Error)]
pub enum WorkerError {
    /// The coordinator refused this worker for good (rules version, token).
    #[error("refused by the coordinator: {0}")]
    Refused(String),
    /// A local failure.
    #[error("{0}")]
    Local(String),
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
    let pool = Arc::new(
        rayon::ThreadPoolBuilder::new()
            .num_threads(cfg.threads.max(1))
            .build()
            .map_err(|e| WorkerError::Local(format!("thread pool: {e}")))?,
    );
    let (stop_tx, stop_rx) = tokio::sync::watch::channel(false);
    tokio::spawn(async move {
        shutdown.await;
        let _ = stop_tx.send(true);
    });
    let mut scenarios: BTreeMap<String, Arc<Scenario>> = BTreeMap::new();
    let mut unsent: Vec<proto::ShardReport> = Vec::new();
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
    let refused = |s: &tonic::Status| Err(Err(WorkerError::Refused(s.message().to_string())));
    if fatal(&status) {
        return refused(&status);
    }
    if status.code() != Code::NotFound {
        return Err(Ok(Step::Reconnect));
    }
    match client.register(register.clone()).await {
        Ok(r) => Ok(r.into_inner().worker_id),
        Err(s) if fatal(&s) => refused(&s),
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
    scenarios: &mut BTreeMap<String, Arc<Scenario>>,
    unsent: &mut Vec<proto::ShardReport>,
    mut stop: tokio::sync::watch::Receiver<bool>,
    backoff: &mut Duration,
) -> Result<Step, WorkerError> {
    let register = proto::RegisterRequest {
        name: cfg.name.clone(),
        threads: cfg.threads as u32,
        rules_version: cfg.rules_version.clone(),
    };
    let reg = match client.register(register.clone()).await {
        Ok(r) => r.into_inner(),
        Err(s) if fatal(&s) => return Err(WorkerError::Refused(s.message().to_string())),
        Err(_) => return Ok(Step::Reconnect),
    };
    let mut worker_id = reg.worker_id;
    let ttl = Duration::from_millis(reg.lease_ttl_ms.max(300));
    tracing::info!(worker = %worker_id, "registered");
    *backoff = Duration::from_millis(100);
    let mut sizer = BatchSizer::new(cfg.threads, Duration::from_millis(100));
    let mut idle = Duration::from_millis(5);
    loop {
        if !unsent.is_empty() {
            let req = proto::ReportRequest { worker_id: worker_id.clone(), reports: unsent.clone() };
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
        if *stop.borrow() {
            let _ = client.drain(proto::DrainRequest { worker_id: worker_id.clone() }).await;
            tracing::info!("drained");
            return Ok(Step::Stop);
        }
        let max = cfg.max_batch.map_or(sizer.next(), |m| sizer.next().min(m.max(1)));
        let resp = match client
            .lease(proto::LeaseRequest { worker_id: worker_id.clone(), max_shards: max as u32 })
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
        for l in &resp.leases {
            let hash = l.spec.as_ref().map(|s| s.scenario_hash.clone()).unwrap_or_default();
            if scenarios.contains_key(&hash) {
                continue;
            }
            let bundle = match client.fetch_scenario(proto::FetchScenarioRequest { hash: hash.clone() }).await
            {
                Ok(b) => b.into_inner(),
                Err(s) if s.code() == Code::NotFound => continue,
                Err(_) => return Ok(Step::Reconnect),
            };
            match Scenario::from_proto(&bundle) {
                Some(s) => {
                    scenarios.insert(hash, Arc::new(s));
                }
                None => return Err(WorkerError::Local(format!("scenario {hash} does not match its hash"))),
            }
        }
        let started = Instant::now();
        let leases = resp.leases;
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
        let reports = loop {
            tokio::select! {
                r = &mut work => break r.map_err(|e| WorkerError::Local(format!("shard execution: {e}")))?,
                _ = tokio::time::sleep(ttl / 3) => {
                    let hb = proto::HeartbeatRequest { worker_id: worker_id.clone() };
                    if let Err(s) = client.heartbeat(hb).await {
                        tracing::warn!("heartbeat failed: {}", s.message());
                    }
                }
            }
        };
        sizer.record(n, started.elapsed());
        *unsent = reports;
    }
}
