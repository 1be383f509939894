//! `pf1e coordinator`: the sweep service.

use std::path::PathBuf;
use std::time::Duration;

use pf1e_coordinator::http::{Http, HttpOptions, Scope};
use pf1e_coordinator::scheduler::{Scheduler, SchedulerConfig};
use pf1e_coordinator::service::{GroupCommit, ServeOptions, Service, serve};
use pf1e_coordinator::store::Store;

use super::{server_runtime, shutdown_signal, token, worker_token};
use crate::error::{CliError, CliResult};

/// Arguments of `pf1e coordinator`.
#[derive(Debug, Clone, clap::Args)]
pub struct CoordinatorArgs {
    /// Address to serve gRPC on (port 0 picks a free port; the bound address is printed).
    #[arg(long, default_value = "127.0.0.1:7070")]
    pub listen: String,
    /// The redb database (cache and journal).
    #[arg(long)]
    pub db: PathBuf,
    /// Address of the dashboard, the JSON API, `/metrics`, `/healthz` and `/readyz`
    /// [default: the gRPC port + 1 on the same interface; a free port when --listen's port is 0].
    #[arg(long, conflicts_with = "no_http")]
    pub http_listen: Option<String>,
    /// Serve no HTTP at all (no dashboard, API, metrics or probes but --metrics-listen's).
    #[arg(long)]
    pub no_http: bool,
    /// An extra address serving only `/metrics`, `/healthz` and `/readyz`, without the token
    /// (figures only; e.g. on a private network for a scraper).
    #[arg(long)]
    pub metrics_listen: Option<String>,
    /// File holding the shared-secret token (else the PF1E_TOKEN variable; none: no authentication).
    /// Alone, it is every caller's token, workers' included.
    #[arg(long)]
    pub token_file: Option<PathBuf>,
    /// File holding the workers' token (else PF1E_WORKER_TOKEN): with it, the worker service
    /// takes only this token and clients (ctl, the dashboard) only theirs.
    #[arg(long, value_name = "FILE")]
    pub worker_token_file: Option<PathBuf>,
    /// PEM certificate for TLS (with --tls-key).
    #[arg(long, requires = "tls_key")]
    pub tls_cert: Option<PathBuf>,
    /// PEM private key for TLS (with --tls-cert).
    #[arg(long, requires = "tls_cert")]
    pub tls_key: Option<PathBuf>,
    /// Lease lifetime in milliseconds; a worker silent this long loses its shards.
    #[arg(long, default_value_t = 10_000)]
    pub lease_ttl_ms: u64,
    /// Longest a lease lives in seconds, heartbeats or not: then its shard goes to another worker.
    #[arg(long, default_value_t = 900, value_parser = crate::args::positive::<u64>)]
    pub max_lease_age_secs: u64,
    /// Ended sweeps whose journal (results included) the coordinator keeps,
    /// newest first; older ones are removed as it runs (default: all kept).
    /// Cached shards are kept either way.
    #[arg(long, value_name = "N", value_parser = crate::args::positive::<usize>)]
    pub keep_sweeps: Option<usize>,
    /// Fraction of shards (0 to 1) that a second worker plays too before their result is
    /// accepted; two results that differ are replayed by the coordinator itself, and a worker
    /// whose result differs from that replay is quarantined [default: 0, no audit].
    #[arg(long, value_name = "F", default_value_t = 0.0, value_parser = crate::args::fraction)]
    pub audit_fraction: f64,
    /// Page cache of the database in MiB (most of the coordinator's resident memory).
    #[arg(long, default_value_t = 256, value_parser = clap::value_parser!(u32).range(1..=65_536))]
    pub db_cache_mb: u32,
    /// Most MiB of cached shard results (keys and records) the database keeps: past it, a write
    /// removes the coldest (least recently stored or read) in its own transaction, down to 90 %
    /// of the limit [default: no limit].
    #[arg(long, value_name = "MIB", value_parser = clap::value_parser!(u64).range(1..=16_777_216))]
    pub cache_max_mb: Option<u64>,
    /// Group commit: once a report arrives, wait this long for others to commit with it in one
    /// durable transaction (0: commit at once what arrived while the previous commit ran).
    /// Every report is acknowledged only after its commit.
    #[arg(long, value_name = "MS", default_value_t = 0)]
    pub commit_interval_ms: u64,
    /// No group commit: each report call commits its results itself under the scheduler's
    /// lock, as coordinators did before (to measure the difference).
    #[arg(long, conflicts_with = "commit_interval_ms")]
    pub no_group_commit: bool,
    /// Benchmarks only: accept only synthetic workers (`pf1e worker --synthetic-battle-us`,
    /// made-up results) and refuse real ones. The database must be a new file; it is marked
    /// so that nothing else opens it afterwards.
    #[arg(long, conflicts_with = "audit_fraction")]
    pub synthetic_workers: bool,
    /// The LLM client that resolves sweeps using the LLM (nl: strategies, llm_candidates, llm_adversaries).
    #[command(flatten)]
    pub llm: crate::llm::LlmArgs,
}

/// The default HTTP address: the gRPC one with the next port (port 0 stays 0).
fn default_http(listen: &str, grpc: std::net::SocketAddr) -> Result<String, CliError> {
    let port = if listen.rsplit(':').next() == Some("0") {
        0
    } else {
        grpc.port().checked_add(1).ok_or_else(|| {
            CliError::input(format!(
                "--listen {listen}: no port after {} for HTTP: pass --http-listen",
                grpc.port()
            ))
        })?
    };
    Ok(std::net::SocketAddr::new(grpc.ip(), port).to_string())
}

async fn bind(addr: &str) -> Result<tokio::net::TcpListener, CliError> {
    tokio::net::TcpListener::bind(addr)
        .await
        .map_err(|e| CliError::input(format!("cannot listen on {addr}: {e}")))
}

fn read(p: &PathBuf) -> Result<Vec<u8>, CliError> {
    std::fs::read(p).map_err(|e| CliError::input(format!("{}: {e}", p.display())))
}

/// Runs `pf1e coordinator`.
pub fn run(args: &CoordinatorArgs) -> CliResult {
    let token = token(args.token_file.as_deref())?;
    let worker_token = worker_token(args.worker_token_file.as_deref())?;
    if worker_token.is_some() && worker_token == token {
        return Err(CliError::input(
            "--worker-token-file: the workers' token must differ from the clients' token",
        ));
    }
    let tls = match (&args.tls_cert, &args.tls_key) {
        (Some(c), Some(k)) => Some((read(c)?, read(k)?)),
        _ => None,
    };
    let cache_bytes = usize::try_from(args.db_cache_mb).unwrap_or(usize::MAX).saturating_mul(1024 * 1024);
    // The planners' spill files of per-run outcomes go next to the
    // database (a writable volume where the root file system is not).
    if let Some(dir) = args.db.parent().filter(|d| !d.as_os_str().is_empty()) {
        pf1e_coordinator::jobs::runs::set_spill_dir(dir.to_path_buf());
    }
    let mut store = if args.synthetic_workers {
        Store::open_synthetic(&args.db, cache_bytes)?
    } else {
        Store::open_with_cache(&args.db, cache_bytes)?
    };
    if let Some(mb) = args.cache_max_mb {
        let removed = store.set_shard_limit(mb * 1024 * 1024)?;
        if removed > 0 {
            tracing::info!(removed, limit_mb = mb, "cached shards past the size limit removed");
        }
    }
    let cfg = SchedulerConfig {
        lease_ttl: Duration::from_millis(args.lease_ttl_ms.max(100)),
        max_lease_age: Duration::from_secs(args.max_lease_age_secs),
        keep_sweeps: args.keep_sweeps,
        audit_fraction: args.audit_fraction,
        synthetic: args.synthetic_workers,
        ..Default::default()
    };
    let mut sched = Scheduler::new(store, cfg);
    let resumed = sched.resume()?;
    if !resumed.is_empty() {
        tracing::info!(?resumed, "resumed unfinished sweeps");
    }
    // Built at start: a bad prompt pack or LLM flag stops the coordinator
    // here. Without a base URL or key no model is called: a sweep that
    // needs one is refused at submission, saying so.
    let resolver =
        if args.llm.is_configured() { Some(crate::llm::sweep::resolver(&sched, &args.llm)?) } else { None };
    let rt = server_runtime()?;
    rt.block_on(async {
        let listener = bind(&args.listen).await?;
        let grpc = listener.local_addr().map_err(|e| CliError::environment(format!("gRPC listener: {e}")))?;
        let mut http_listeners = Vec::new();
        if let Some(a) = &args.metrics_listen {
            http_listeners.push((bind(a).await?, Scope::Metrics));
        }
        if !args.no_http {
            let addr = match &args.http_listen {
                Some(a) => a.clone(),
                None => default_http(&args.listen, grpc)?,
            };
            http_listeners.push((bind(&addr).await?, Scope::Dashboard));
        }
        // The arbiter of audits: the engine, played here on a disputed shard.
        let commit = GroupCommit {
            interval: Duration::from_millis(args.commit_interval_ms),
            enabled: !args.no_group_commit,
            ..GroupCommit::default()
        };
        let service = Service::with_group_commit(sched, commit)
            .with_arbiter(std::sync::Arc::new(pf1e_worker::EngineEvaluator::new()));
        let service = match resolver {
            Some(resolver) => service.with_llm(resolver),
            None => service,
        };
        let http =
            Http::start(&service, http_listeners, &HttpOptions { token: token.clone(), tls: tls.clone() })?;
        // The bound addresses, for scripts (port 0); a closed stdout is no reason to stop serving.
        let _ = crate::output::println(&format!("listening on {grpc}"));
        let scheme = if tls.is_some() { "https" } else { "http" };
        let mut addrs = http.addrs().iter();
        if args.metrics_listen.is_some()
            && let Some(a) = addrs.next()
        {
            let _ = crate::output::println(&format!("metrics on {a}"));
        }
        if let Some(a) = addrs.next() {
            let _ = crate::output::println(&format!("http on {a} (dashboard: {scheme}://{a}/)"));
        }
        let opts = ServeOptions { listener, token, worker_token, tls };
        let served = serve(service, opts, shutdown_signal()).await.map_err(CliError::from);
        drop(http);
        served
    })
}
