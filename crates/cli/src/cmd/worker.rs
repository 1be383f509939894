//! `pf1e worker`: a stateless worker; safe to kill at any time.

use std::sync::Arc;

use pf1e_worker::{LeaseTimes, WorkerConfig};

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
    /// Benchmarks only: play no battle, return made-up deterministic results after sleeping
    /// this many microseconds per battle on each thread (so --threads 64 stands for 64 cores).
    /// Only a coordinator started with --synthetic-workers accepts such a worker.
    #[arg(long, value_name = "MICROS")]
    pub synthetic_battle_us: Option<u32>,
    /// On exit, print one JSON line with the count of lease calls and their round trips'
    /// median, 99th percentile and maximum in microseconds.
    #[arg(long)]
    pub lease_stats: bool,
}

/// Runs `pf1e worker`.
pub fn run(args: &WorkerArgs) -> CliResult {
    let target = args.connect.target()?;
    let mut cfg = WorkerConfig::new(target, args.threads, args.name.clone(), args.max_batch);
    let evaluator = pf1e_worker::synthetic::evaluator_for(&mut cfg, args.synthetic_battle_us);
    let times = args.lease_stats.then(|| Arc::new(LeaseTimes::default()));
    cfg.lease_times = times.clone();
    let rt = runtime()?;
    rt.block_on(pf1e_worker::run(cfg, evaluator, shutdown_signal()))?;
    if let Some(t) = times {
        crate::output::println(&t.summary_json())?;
    }
    Ok(())
}
