//! `pf1e coordinator`: the sweep service.

use std::io::Write;
use std::path::PathBuf;
use std::time::Duration;

use pf1e_coordinator::scheduler::{Scheduler, SchedulerConfig};
use pf1e_coordinator::service::{ServeOptions, Service, serve};
use pf1e_coordinator::store::Store;

use super::{runtime, shutdown_signal, token};
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
    /// Address to serve Prometheus metrics on (`GET /metrics`).
    #[arg(long)]
    pub metrics_listen: Option<String>,
    /// File holding the shared-secret token (else the PF1E_TOKEN variable; none: no authentication).
    #[arg(long)]
    pub token_file: Option<PathBuf>,
    /// PEM certificate for TLS (with --tls-key).
    #[arg(long, requires = "tls_key")]
    pub tls_cert: Option<PathBuf>,
    /// PEM private key for TLS (with --tls-cert).
    #[arg(long, requires = "tls_cert")]
    pub tls_key: Option<PathBuf>,
    /// Lease lifetime in milliseconds; a worker silent this long loses its shards.
    #[arg(long, default_value_t = 10_000)]
    pub lease_ttl_ms: u64,
    /// The LLM client that resolves sweeps using the LLM (nl: strategies, llm_candidates, llm_adversaries).
    #[command(flatten)]
    pub llm: crate::llm::LlmArgs,
}

fn read(p: &PathBuf) -> Result<Vec<u8>, CliError> {
    std::fs::read(p).map_err(|e| CliError::input(format!("{}: {e}", p.display())))
}

/// Runs `pf1e coordinator`.
pub fn run(args: &CoordinatorArgs) -> CliResult {
    let token = token(args.token_file.as_deref())?;
    let tls = match (&args.tls_cert, &args.tls_key) {
        (Some(c), Some(k)) => Some((read(c)?, read(k)?)),
        _ => None,
    };
    let store = Store::open(&args.db)?;
    let cfg = SchedulerConfig {
        lease_ttl: Duration::from_millis(args.lease_ttl_ms.max(100)),
        ..Default::default()
    };
    let mut sched = Scheduler::new(store, cfg);
    let resumed = sched.resume()?;
    if !resumed.is_empty() {
        tracing::info!(?resumed, "resumed unfinished sweeps");
    }
    // Built at start: a bad prompt pack or LLM flag stops the coordinator here.
    let resolver = crate::llm::sweep::resolver(&sched, &args.llm)?;
    let rt = runtime()?;
    rt.block_on(async {
        let listener = tokio::net::TcpListener::bind(&args.listen)
            .await
            .map_err(|e| CliError::input(format!("cannot listen on {}: {e}", args.listen)))?;
        let metrics = match &args.metrics_listen {
            Some(a) => Some(
                tokio::net::TcpListener::bind(a)
                    .await
                    .map_err(|e| CliError::input(format!("cannot listen on {a}: {e}")))?,
            ),
            None => None,
        };
        let mut out = std::io::stdout();
        if let Ok(a) = listener.local_addr() {
            let _ = writeln!(out, "listening on {a}");
        }
        if let Some(Ok(a)) = metrics.as_ref().map(|m| m.local_addr()) {
            let _ = writeln!(out, "metrics on {a}");
        }
        let _ = out.flush();
        let opts = ServeOptions { listener, metrics, token, tls };
        serve(Service::new(sched).with_llm(resolver), opts, shutdown_signal()).await.map_err(CliError::from)
    })
}
