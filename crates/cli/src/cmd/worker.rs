//! `pf1e worker`: a stateless worker; safe to kill at any time.

use std::sync::Arc;

use pf1e_worker::{EngineEvaluator, WorkerConfig};

use super::{ConnectArgs, runtime, shutdown_signal};
use crate::error::CliResult;

/// Arguments of `pf1e worker`.
#[derive(Debug, Clone, clap::Args)]
pub struct WorkerArgs {
    #[command(flatten)]
    pub connect: ConnectArgs,
    /// Threads to play shards with (default: all cores).
    #[arg(long)]
    pub threads: Option<usize>,
    /// Name shown by `ctl workers` (default: the host name).
    #[arg(long)]
    pub name: Option<String>,
    /// Most shards per lease (default: adapts to about a tenth of a second of work).
    #[arg(long)]
    pub max_batch: Option<usize>,
}

/// Runs `pf1e worker`.
pub fn run(args: &WorkerArgs) -> CliResult {
    let target = args.connect.target()?;
    let threads =
        args.threads.unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get())).max(1);
    let name = args.name.clone().unwrap_or_else(|| {
        std::fs::read_to_string("/etc/hostname")
            .map(|h| h.trim().to_string())
            .unwrap_or_else(|_| "worker".into())
    });
    let rules_version = pf1e_engine::RULES_VERSION.to_string();
    let cfg = WorkerConfig { target, threads, name, rules_version, max_batch: args.max_batch };
    let rt = runtime()?;
    Ok(rt.block_on(pf1e_worker::run(cfg, Arc::new(EngineEvaluator::new()), shutdown_signal()))?)
}
