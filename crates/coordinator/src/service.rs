//! The gRPC services (worker and control) over a shared scheduler, the lease
//! expiry ticker and graceful shutdown. The HTTP side (dashboard, JSON API,
//! metrics, probes) is [`crate::http`], over the same [`Service`].

use std::future::Future;
use std::net::SocketAddr;
use std::pin::Pin;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use tokio::net::TcpListener;
use tokio_stream::wrappers::ReceiverStream;
use tonic::{Request, Response, Status};

use pf1e_wire::auth::ServerAuth;
use pf1e_wire::canon::parse_hex;
use pf1e_wire::client::MAX_MESSAGE;
use pf1e_wire::error::causes;
use pf1e_wire::evaluate::{ShardEvaluator, evaluate_leases};
use pf1e_wire::proto::control_service_server::{ControlService, ControlServiceServer};
use pf1e_wire::proto::worker_service_server::{WorkerService, WorkerServiceServer};
use pf1e_wire::proto::{self};
use pf1e_wire::shard::{ShardKey, ShardReport, ShardResult, encode_leases};

use crate::llm::LlmResolver;
use crate::net::{GuardedListener, Limits};
use crate::scheduler::{SchedError, Scheduler, Staged};
use crate::store::encode_result;

/// How reports are made durable: many at once, one transaction per group.
#[derive(Debug, Clone, Copy)]
pub struct GroupCommit {
    /// How long the committer waits for more reports once one arrived
    /// (zero: it commits what has arrived as soon as the previous commit
    /// ends, so a group is whatever arrived during one commit).
    pub interval: Duration,
    /// Most shard results in one transaction.
    pub max_shards: usize,
    /// `false`: no group commit; each report call commits its results
    /// itself, under the scheduler's lock (how the coordinator worked
    /// before: kept to measure the difference).
    pub enabled: bool,
}

impl Default for GroupCommit {
    fn default() -> Self {
        Self { interval: Duration::ZERO, max_shards: 4096, enabled: true }
    }
}

/// Results of one report call waiting for their commit, and where to say
/// it happened.
struct Pending {
    results: Vec<(ShardKey, Arc<ShardResult>, Option<Vec<u8>>)>,
    done: Ack,
}

/// Where a report call waits for its commit.
type Ack = tokio::sync::oneshot::Sender<Result<(), Status>>;

/// Counters of the group committer.
#[derive(Debug, Default)]
pub struct CommitCounts {
    /// Transactions committed.
    pub commits: AtomicU64,
    /// Shard results committed.
    pub shards: AtomicU64,
}

/// The services' shared state.
#[derive(Clone)]
pub struct Service {
    sched: Arc<Mutex<Scheduler>>,
    /// The group committer's queue (none: every report commits itself).
    commits: Option<std::sync::mpsc::Sender<Pending>>,
    commit_counts: Arc<CommitCounts>,
    llm: Option<Arc<LlmResolver>>,
    /// Plays disputed audited shards on the coordinator itself
    /// (`scheduler::audit`); without one, audits are refused at start.
    arbiter: Option<Arc<dyn ShardEvaluator>>,
    /// The root of every token check of this coordinator (gRPC and HTTP):
    /// they share its count of failed authentications.
    auth: ServerAuth,
}

fn status(e: SchedError) -> Status {
    match e {
        SchedError::Invalid(e) => Status::invalid_argument(e.to_string()),
        SchedError::Share(_) | SchedError::Keep(_) => Status::invalid_argument(e.to_string()),
        SchedError::UnknownSweep(_) | SchedError::UnknownWorker(_) => Status::not_found(e.to_string()),
        SchedError::Quarantined(_) => Status::permission_denied(e.to_string()),
        SchedError::RulesVersion { .. }
        | SchedError::ProtocolVersion { .. }
        | SchedError::NeedsLlm
        | SchedError::Synthetic { .. } => Status::failed_precondition(e.to_string()),
        SchedError::Store(e) => Status::internal(e.to_string()),
    }
}

impl Service {
    /// Wraps a scheduler, with the default group commit.
    pub fn new(sched: Scheduler) -> Self {
        Self::with_group_commit(sched, GroupCommit::default())
    }

    /// Wraps a scheduler; reports are committed in groups as `commit` says,
    /// by a thread of their own, outside the scheduler's lock.
    pub fn with_group_commit(sched: Scheduler, commit: GroupCommit) -> Self {
        let store = sched.store();
        let sched = Arc::new(Mutex::new(sched));
        let counts = Arc::new(CommitCounts::default());
        let commits = commit.enabled.then(|| {
            let (tx, rx) = std::sync::mpsc::channel();
            let (sched, counts) = (Arc::clone(&sched), Arc::clone(&counts));
            // The thread ends when every clone of the service is gone.
            std::thread::Builder::new()
                .name("pf1e-commit".into())
                .spawn(move || committer(&rx, store, &sched, commit, &counts))
                .expect("the group committer thread starts"); // as std::thread::spawn would
            tx
        });
        Self { sched, commits, commit_counts: counts, llm: None, arbiter: None, auth: ServerAuth::new(None) }
    }

    /// The group committer's counters.
    pub fn commit_counts(&self) -> &CommitCounts {
        &self.commit_counts
    }

    /// Plays the shards that two workers' results dispute with `arbiter`
    /// (the engine's evaluator): needed when the scheduler audits.
    pub fn with_arbiter(mut self, arbiter: Arc<dyn ShardEvaluator>) -> Self {
        self.arbiter = Some(arbiter);
        self
    }

    /// Plays every disputed audited shard with the arbiter, outside the
    /// scheduler's lock, and hands the results back.
    async fn arbitrate(&self) -> Result<(), Status> {
        let disputes = self.lock().take_disputes();
        if disputes.is_empty() {
            return Ok(());
        }
        let Some(arbiter) = self.arbiter.clone() else {
            return Err(Status::internal("an audit needs an arbiter and this coordinator has none"));
        };
        let scenarios = {
            let s = self.lock();
            disputes
                .iter()
                .filter_map(|l| s.scenario(&l.spec.scenario).map(|sc| (l.spec.scenario, sc)))
                .collect()
        };
        let reports =
            tokio::task::spawn_blocking(move || evaluate_leases(&disputes, &scenarios, arbiter.as_ref()))
                .await
                .map_err(|e| Status::internal(format!("arbiter: {e}")))?;
        let mut s = self.lock();
        for r in reports {
            match r.outcome {
                Ok(truth) => {
                    let liars = s.arbitrate(r.key, truth, Instant::now()).map_err(status)?;
                    tracing::warn!(?liars, "audit arbitrated");
                }
                Err(e) => tracing::error!(error = %e, "the arbiter could not play a disputed shard"),
            }
        }
        Ok(())
    }

    /// A token check for `role` (`client`, `worker`) counted with every
    /// other check of this coordinator.
    pub fn auth(&self, token: Option<&str>, role: &'static str) -> ServerAuth {
        ServerAuth::for_role(token, role, &self.auth)
    }

    /// Failed authentications on every port since the start.
    pub fn auth_failures(&self) -> u64 {
        self.auth.failures()
    }

    /// Resolves the LLM decisions of submitted sweeps with `resolver`
    /// (whose client should cache in the scheduler's database,
    /// [`Scheduler::llm_cache`]). Without one, a sweep that uses the LLM is
    /// refused.
    pub fn with_llm(mut self, resolver: LlmResolver) -> Self {
        self.llm = Some(Arc::new(resolver));
        self
    }

    /// Locks the scheduler (a panic elsewhere does not make it unusable).
    pub fn lock(&self) -> MutexGuard<'_, Scheduler> {
        self.sched.lock().unwrap_or_else(|p| p.into_inner())
    }
}

#[tonic::async_trait]
impl WorkerService for Service {
    async fn register(
        &self,
        req: Request<proto::RegisterRequest>,
    ) -> Result<Response<proto::RegisterResponse>, Status> {
        let r = req.into_inner();
        let mut s = self.lock();
        let id = s
            .register_worker(&r.name, r.threads, &r.rules_version, r.protocol_version, Instant::now())
            .map_err(status)?;
        let ttl = s.config().lease_ttl.as_millis() as u64;
        Ok(Response::new(proto::RegisterResponse { worker_id: id, lease_ttl_ms: ttl }))
    }

    async fn lease(
        &self,
        req: Request<proto::LeaseRequest>,
    ) -> Result<Response<proto::LeaseResponse>, Status> {
        let r = req.into_inner();
        let (leases, ttl_ms, draining) = {
            let mut s = self.lock();
            let leases = s.lease(&r.worker_id, r.max_shards as usize, Instant::now()).map_err(status)?;
            (leases, s.config().lease_ttl.as_millis() as u64, s.draining())
        };
        // Encoded outside the scheduler's lock, each cell's spec once.
        let (leases, specs) = encode_leases(&leases);
        Ok(Response::new(proto::LeaseResponse { leases, ttl_ms, draining, specs }))
    }

    async fn heartbeat(
        &self,
        req: Request<proto::HeartbeatRequest>,
    ) -> Result<Response<proto::HeartbeatResponse>, Status> {
        let r = req.into_inner();
        let mut s = self.lock();
        let extended = s.heartbeat(&r.worker_id, Instant::now()).map_err(status)?;
        Ok(Response::new(proto::HeartbeatResponse { extended, draining: s.draining() }))
    }

    async fn report(
        &self,
        req: Request<proto::ReportRequest>,
    ) -> Result<Response<proto::ReportResponse>, Status> {
        let r = req.into_inner();
        let mut reports = Vec::with_capacity(r.reports.len());
        let mut malformed = Vec::new();
        for report in r.reports {
            let (lease, key) = (report.lease_id, <[u8; 32]>::try_from(report.shard_key.as_slice()).ok());
            match ShardReport::decode_keeping(report) {
                Ok(report) => reports.push(report),
                Err(e) => {
                    tracing::warn!(worker = %r.worker_id, lease, "malformed shard report ignored: {e}");
                    malformed.push((lease, key));
                }
            }
        }
        let staged = {
            let mut s = self.lock();
            // A malformed report's shard goes back to the queue at once, as an unplayed one would.
            for (lease, key) in &malformed {
                if let Some(key) = key {
                    s.release(&r.worker_id, *lease, *key);
                }
            }
            match &self.commits {
                None => {
                    let reports = reports.into_iter().map(|(r, _)| r).collect();
                    let (accepted, ignored) =
                        s.report(&r.worker_id, reports, Instant::now()).map_err(status)?;
                    Staged { results: Vec::new(), accepted, ignored }
                }
                Some(_) => s.stage_reports(&r.worker_id, reports, Instant::now()).map_err(status)?,
            }
        };
        let (accepted, ignored) = (staged.accepted, staged.ignored);
        if let Some(commits) = &self.commits
            && !staged.results.is_empty()
        {
            // Acknowledged once committed (with other reports', in one
            // transaction): an acknowledged report survives a crash.
            let (done, committed) = tokio::sync::oneshot::channel();
            commits
                .send(Pending { results: staged.results, done })
                .map_err(|_| Status::unavailable("the coordinator is stopping"))?;
            committed.await.map_err(|_| Status::unavailable("the coordinator is stopping"))??;
        }
        self.arbitrate().await?;
        Ok(Response::new(proto::ReportResponse { accepted, ignored: ignored + malformed.len() as u32 }))
    }

    async fn fetch_scenario(
        &self,
        req: Request<proto::FetchScenarioRequest>,
    ) -> Result<Response<proto::ScenarioBundle>, Status> {
        let hash = req.into_inner().hash;
        let scenario = parse_hex(&hash)
            .and_then(|h| self.lock().scenario(&h))
            .ok_or_else(|| Status::not_found(format!("no scenario {hash}")))?;
        let bundle = proto::ScenarioBundle::try_from(&*scenario)
            .map_err(|e| Status::not_found(format!("scenario {hash}: {e}")))?;
        Ok(Response::new(bundle))
    }

    async fn drain(
        &self,
        req: Request<proto::DrainRequest>,
    ) -> Result<Response<proto::DrainResponse>, Status> {
        let released = self.lock().drain_worker(&req.into_inner().worker_id);
        Ok(Response::new(proto::DrainResponse { released }))
    }
}

type EventStream = Pin<Box<dyn tokio_stream::Stream<Item = Result<proto::SweepEvent, Status>> + Send>>;

#[tonic::async_trait]
impl ControlService for Service {
    async fn submit(
        &self,
        req: Request<proto::SubmitRequest>,
    ) -> Result<Response<proto::SubmitResponse>, Status> {
        let bundle = req.into_inner().bundle.ok_or_else(|| Status::invalid_argument("no bundle"))?;
        // Parsed and validated outside the scheduler's lock (on a blocking
        // thread): leases and reports go on meanwhile.
        let validate = self.lock().config().validate;
        let (bundle, sweep) = tokio::task::spawn_blocking(move || {
            let sweep = crate::scheduler::check_bundle(&bundle, validate);
            (bundle, sweep)
        })
        .await
        .map_err(|e| Status::internal(format!("sweep validation failed: {e}")))?;
        let draft = sweep.map_err(status)?;
        let sweep = match &self.llm {
            // The scheduler is not locked while the model answers.
            Some(resolver) if draft.needs_llm() => resolver.resolve(&draft).await.map_err(|e| {
                let message = e.to_string();
                tracing::warn!(error = %message, "a sweep's LLM decisions failed");
                if e.is_input() { Status::failed_precondition(message) } else { Status::aborted(message) }
            })?,
            None if draft.needs_llm() => return Err(status(SchedError::NeedsLlm)),
            _ => draft.decide(&Default::default()).map_err(|e| status(e.into()))?,
        };
        let id = self.lock().submit_sweep(bundle, sweep).map_err(status)?;
        tracing::info!(sweep = id, "sweep submitted");
        Ok(Response::new(proto::SubmitResponse { sweep_id: id }))
    }

    type WatchStream = EventStream;

    async fn watch(&self, req: Request<proto::WatchRequest>) -> Result<Response<Self::WatchStream>, Status> {
        let id = req.into_inner().sweep_id;
        let mut changes = {
            let s = self.lock();
            s.info(id, false).map_err(status)?;
            s.subscribe()
        };
        let (tx, rx) = tokio::sync::mpsc::channel(16);
        let me = self.clone();
        tokio::spawn(async move {
            let mut cursor = 0usize;
            loop {
                let (info, cells, terminal) = {
                    let s = me.lock();
                    let info = match s.info(id, false) {
                        Ok(i) => i,
                        Err(e) => {
                            let _ = tx.try_send(Err(status(e)));
                            return;
                        }
                    };
                    let terminal = info.status.is_terminal();
                    let info = if terminal { s.info(id, true).unwrap_or(info) } else { info };
                    let cells = s.finished_cells(id, cursor);
                    (info, cells, terminal)
                };
                // Encoded outside the scheduler's lock.
                cursor += cells.len();
                let event = (
                    proto::SweepEvent {
                        info: Some(proto::SweepInfo::from(&info)),
                        cells: cells.iter().map(proto::FinishedCell::from).collect(),
                    },
                    terminal,
                );
                if tx.send(Ok(event.0)).await.is_err() || event.1 {
                    return;
                }
                // At most ten events a second; at least one every two seconds.
                tokio::time::sleep(Duration::from_millis(100)).await;
                let _ = tokio::time::timeout(Duration::from_secs(2), changes.changed()).await;
            }
        });
        Ok(Response::new(Box::pin(ReceiverStream::new(rx))))
    }

    async fn get(&self, req: Request<proto::GetRequest>) -> Result<Response<proto::SweepInfo>, Status> {
        let info = self.lock().info(req.into_inner().sweep_id, true).map_err(status)?;
        Ok(Response::new(proto::SweepInfo::from(&info)))
    }

    async fn list(&self, _req: Request<proto::ListRequest>) -> Result<Response<proto::ListResponse>, Status> {
        let (sweeps, stats) = {
            let s = self.lock();
            (s.list(), s.coordinator_stats(Instant::now()))
        };
        Ok(Response::new(proto::ListResponse {
            sweeps: sweeps.iter().map(proto::SweepInfo::from).collect(),
            coordinator: Some(proto::CoordinatorStats::from(&stats)),
        }))
    }

    async fn cancel(&self, req: Request<proto::CancelRequest>) -> Result<Response<proto::SweepInfo>, Status> {
        let info = self.lock().cancel(req.into_inner().sweep_id).map_err(status)?;
        Ok(Response::new(proto::SweepInfo::from(&info)))
    }

    async fn list_workers(
        &self,
        _req: Request<proto::ListWorkersRequest>,
    ) -> Result<Response<proto::ListWorkersResponse>, Status> {
        let workers = self.lock().workers(Instant::now());
        Ok(Response::new(proto::ListWorkersResponse {
            workers: workers.iter().map(proto::WorkerInfo::from).collect(),
        }))
    }

    async fn collect_garbage(
        &self,
        req: Request<proto::CollectGarbageRequest>,
    ) -> Result<Response<proto::CollectGarbageResponse>, Status> {
        let keep = req.into_inner().keep;
        let c = self.lock().collect_garbage(u64::from(keep)).map_err(status)?;
        Ok(Response::new(proto::CollectGarbageResponse {
            removed: c.removed,
            bytes: c.bytes,
            kept: c.kept,
            running: c.running,
        }))
    }
}

/// The group committer: takes the results of one report call, waits for
/// more as `cfg` says, commits them all in one durable transaction, then
/// hands them to the scheduler and acknowledges every call of the group.
fn committer(
    rx: &std::sync::mpsc::Receiver<Pending>,
    mut store: crate::store::Store,
    sched: &Mutex<Scheduler>,
    cfg: GroupCommit,
    counts: &CommitCounts,
) {
    use std::sync::mpsc::RecvTimeoutError;
    while let Ok(first) = rx.recv() {
        let mut shards = first.results.len();
        let mut group = vec![first];
        let deadline = Instant::now() + cfg.interval;
        while shards < cfg.max_shards {
            let next = if cfg.interval.is_zero() {
                rx.try_recv().map_err(|_| RecvTimeoutError::Timeout)
            } else {
                rx.recv_timeout(deadline.saturating_duration_since(Instant::now()))
            };
            match next {
                Ok(p) => {
                    shards += p.results.len();
                    group.push(p);
                }
                Err(_) => break,
            }
        }
        // Stored as the workers sent them (encoded here only when not).
        let encoded: Vec<(ShardKey, std::borrow::Cow<'_, [u8]>)> = group
            .iter()
            .flat_map(|p| p.results.iter())
            .map(|(k, r, bytes)| (*k, bytes.as_deref().map_or_else(|| encode_result(r).into(), Into::into)))
            .collect();
        let written = store.put_encoded(&encoded);
        drop(encoded);
        // The reports' bytes are freed here, not under the scheduler's lock.
        type Committed = Vec<(ShardKey, Arc<ShardResult>)>;
        let group: Vec<(Committed, Ack)> = group
            .into_iter()
            .map(|p| (p.results.into_iter().map(|(k, r, _)| (k, r)).collect(), p.done))
            .collect();
        let mut s = sched.lock().unwrap_or_else(|p| p.into_inner());
        match written {
            Ok(()) => {
                counts.commits.fetch_add(1, Ordering::Relaxed);
                counts.shards.fetch_add(shards as u64, Ordering::Relaxed);
                let mut acks = Vec::with_capacity(group.len());
                for (results, done) in group {
                    acks.push((done, s.accept_committed(results, Instant::now()).map_err(status)));
                }
                // What the merges let go of is freed after the lock, too.
                let trash = s.take_trash();
                drop(s);
                drop(trash);
                for (done, accepted) in acks {
                    let _ = done.send(accepted);
                }
            }
            Err(e) => {
                let keys: Vec<ShardKey> = group.iter().flat_map(|(r, _)| r.iter().map(|(k, _)| *k)).collect();
                s.commit_failed(&keys, &e);
                drop(s);
                for (_, done) in group {
                    let _ = done.send(Err(Status::internal(e.to_string())));
                }
            }
        }
    }
}

/// How to serve.
pub struct ServeOptions {
    /// The bound gRPC listener.
    pub listener: TcpListener,
    /// Shared-secret token of clients (`ctl`, the control service).
    pub token: Option<String>,
    /// Token of workers (the worker service); `None`: the client token
    /// serves both, as with one shared token.
    pub worker_token: Option<String>,
    /// PEM certificate and key for TLS.
    pub tls: Option<(Vec<u8>, Vec<u8>)>,
}

/// Why serving failed.
#[derive(Debug, thiserror::Error)]
pub enum ServeError {
    /// The transport failed (TLS identity refused, listener lost).
    #[error("gRPC server: {}", causes(.0))]
    Transport(#[from] tonic::transport::Error),
    /// The scheduler failed.
    #[error(transparent)]
    Sched(#[from] SchedError),
}

/// Longest a unary gRPC call may take to answer (a lease, a report, a
/// submission with its validation); a stream's life is not bounded by it.
pub const REQUEST_TIMEOUT: Duration = Duration::from_secs(60);

/// Serves until `shutdown` resolves; then stops leasing, waits briefly for
/// in-flight reports, makes every write durable and returns.
pub async fn serve(
    service: Service,
    opts: ServeOptions,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> Result<(), ServeError> {
    let auth = service.auth(opts.token.as_deref(), "client");
    let worker_auth = service.auth(opts.worker_token.as_deref().or(opts.token.as_deref()), "worker");
    let addr: Option<SocketAddr> = opts.listener.local_addr().ok();
    let ticker = {
        let service = service.clone();
        tokio::spawn(async move {
            loop {
                tokio::time::sleep(Duration::from_millis(200)).await;
                service.lock().expire(Instant::now());
            }
        })
    };
    // Requests end in bounded time and a connection stays alive only while
    // it speaks: HTTP/2 pings keep long `watch` streams from looking idle
    // (crate::net).
    let mut builder = tonic::transport::Server::builder()
        .timeout(REQUEST_TIMEOUT)
        .tcp_nodelay(true)
        .http2_keepalive_interval(Some(Duration::from_secs(20)))
        .http2_keepalive_timeout(Some(Duration::from_secs(20)));
    if let Some((cert, key)) = &opts.tls {
        let identity = tonic::transport::Identity::from_pem(cert, key);
        builder = builder.tls_config(tonic::transport::ServerTlsConfig::new().identity(identity))?;
    }
    let worker = WorkerServiceServer::new(service.clone())
        .max_decoding_message_size(MAX_MESSAGE)
        .max_encoding_message_size(MAX_MESSAGE);
    let control = ControlServiceServer::new(service.clone())
        .max_decoding_message_size(MAX_MESSAGE)
        .max_encoding_message_size(MAX_MESSAGE);
    // The standard gRPC health service (grpc.health.v1), without the token:
    // probes (Kubernetes `grpc:` probes, grpc_health_probe) carry none. The
    // whole server and both services are SERVING until the shutdown begins.
    let (health, health_service) = tonic_health::server::health_reporter();
    health.set_serving::<WorkerServiceServer<Service>>().await;
    health.set_serving::<ControlServiceServer<Service>>().await;
    let (stop_tx, stop_rx) = tokio::sync::oneshot::channel::<()>();
    let drain = {
        let service = service.clone();
        async move {
            shutdown.await;
            health.set_service_status("", tonic_health::ServingStatus::NotServing).await;
            health.set_not_serving::<WorkerServiceServer<Service>>().await;
            health.set_not_serving::<ControlServiceServer<Service>>().await;
            tracing::info!("shutting down: leasing stopped");
            if let Err(e) = service.lock().begin_shutdown() {
                tracing::error!("{e}");
            }
            // Give workers a moment to report the shards they are finishing.
            for _ in 0..20 {
                if service.lock().coordinator_stats(Instant::now()).shards_leased == 0 {
                    break;
                }
                tokio::time::sleep(Duration::from_millis(100)).await;
            }
            let _ = stop_tx.send(());
        }
    };
    tokio::spawn(drain);
    tracing::info!(?addr, "coordinator serving");
    let result = builder
        .add_service(health_service)
        .add_service(tonic::service::interceptor::InterceptedService::new(worker, worker_auth))
        .add_service(tonic::service::interceptor::InterceptedService::new(control, auth))
        .serve_with_incoming_shutdown(
            GuardedListener::new(opts.listener, Limits::GRPC).into_stream(),
            async {
                let _ = stop_rx.await;
            },
        )
        .await;
    ticker.abort();
    service.lock().flush()?;
    result?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scheduler::SchedulerConfig;
    use crate::store::Store;
    use pf1e_wire::evaluate::evaluate_leases;
    use pf1e_wire::proto::worker_service_server::WorkerService;

    struct Fake;

    impl ShardEvaluator for Fake {
        fn evaluate(
            &self,
            _s: &pf1e_wire::scenario::Scenario,
            spec: &pf1e_wire::shard::ShardSpec,
        ) -> Result<ShardResult, pf1e_wire::evaluate::EvalError> {
            Ok(crate::merge::tests::fake_result(spec.seed, spec.runs.clone()))
        }
    }

    fn bundle() -> proto::SweepBundle {
        let text = "name: t\nseed: 3\nruns: 40\nparty: players\nshard_size: 1\nscenario:\n  map: m.yaml\n  sides:\n    players: { combatants: [a.json] }\n    monsters: { combatants: [b.json] }\njobs:\n  - grid: { hp: { players: [0.5, 1.0] } }\n";
        let files = ["m.yaml", "a.json", "b.json"]
            .iter()
            .map(|p| proto::BundleFile { path: p.to_string(), content: p.as_bytes().to_vec() })
            .collect();
        proto::SweepBundle {
            sweep_path: "s.yaml".into(),
            sweep_yaml: text.into(),
            files,
            ..Default::default()
        }
    }

    /// Eight workers report one shard per call, all at once: the reports
    /// share transactions, and each call returns only once its result is
    /// in the file (read back from a second handle on the database).
    #[tokio::test(flavor = "multi_thread", worker_threads = 4)]
    async fn concurrent_reports_share_commits_and_are_acknowledged_once_stored() {
        let dir = tempfile::tempdir().unwrap();
        let store = Store::open(&dir.path().join("c.redb")).unwrap();
        let reader = store.clone();
        let cfg = SchedulerConfig { validate: false, ..Default::default() };
        // A short wait gathers the concurrent calls deterministically.
        let commit = GroupCommit { interval: Duration::from_millis(20), ..GroupCommit::default() };
        let service = Service::with_group_commit(Scheduler::new(store, cfg), commit);
        let id = service.lock().submit(bundle()).unwrap();
        let workers: Vec<String> = (0..8)
            .map(|i| {
                let v = pf1e_wire::PROTOCOL_VERSION;
                service.lock().register_worker(
                    &format!("w{i}"),
                    1,
                    pf1e_engine::RULES_VERSION,
                    v,
                    Instant::now(),
                )
            })
            .collect::<Result<_, _>>()
            .unwrap();
        let mut calls = 0u64;
        loop {
            let mut tasks = Vec::new();
            for w in &workers {
                let leases = service.lock().lease(w, 1, Instant::now()).unwrap();
                if leases.is_empty() {
                    continue;
                }
                let scenarios = leases
                    .iter()
                    .filter_map(|l| service.lock().scenario(&l.spec.scenario).map(|s| (l.spec.scenario, s)))
                    .collect();
                let reports = evaluate_leases(&leases, &scenarios, &Fake);
                let keys: Vec<ShardKey> = reports.iter().map(|r| r.key).collect();
                let req = proto::ReportRequest {
                    worker_id: w.clone(),
                    reports: reports.iter().map(proto::ShardReport::from).collect(),
                };
                let (service, reader) = (service.clone(), reader.clone());
                tasks.push(tokio::spawn(async move {
                    let r = service.report(Request::new(req)).await.unwrap().into_inner();
                    assert_eq!((r.accepted, r.ignored), (1, 0));
                    let stored = reader.get_shards(&keys).unwrap();
                    assert!(stored.iter().all(Option::is_some), "acknowledged before it was stored");
                }));
            }
            if tasks.is_empty() {
                break;
            }
            calls += tasks.len() as u64;
            for t in tasks {
                t.await.unwrap();
            }
        }
        let info = service.lock().info(id, false).unwrap();
        assert_eq!(info.status, pf1e_wire::status::SweepStatus::Done);
        assert_eq!(calls, 80);
        let counts = service.commit_counts();
        assert_eq!(counts.shards.load(Ordering::Relaxed), 80);
        let commits = counts.commits.load(Ordering::Relaxed);
        assert!(commits < calls / 2, "{commits} transactions for {calls} report calls");
    }
}
