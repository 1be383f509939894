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
    let cfg = WorkerConfig::new(target, args.threads, args.name.clone(), args.max_batch);
    let rt = runtime()?;
    Ok(rt.block_on(pf1e_worker::run(cfg, Arc::new(EngineEvaluator::new()), shutdown_signal()))?)
}
