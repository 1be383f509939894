//! `pf1e run sweep.yaml`: embedded single-node mode. The coordinator's
//! planner and scheduler with an in-process worker pool, no network, and a
//! cache file so an interrupted run resumes where it stopped.

use std::path::PathBuf;

use pf1e_coordinator::embedded::drive;
use pf1e_coordinator::scheduler::{Scheduler, SchedulerConfig};
use pf1e_coordinator::store::Store;
use pf1e_coordinator::sweep::{Sweep, bundle_from_disk};
use pf1e_wire::status::SweepStatus;
use pf1e_worker::EngineEvaluator;

use super::progress::Progress;
use crate::error::{CliError, CliResult};

/// Arguments of `pf1e run`.
#[derive(Debug, Clone, clap::Args)]
pub struct RunArgs {
    /// The sweep file.
    pub sweep: PathBuf,
    /// Print one JSON document (id, status, stats, results) on stdout.
    #[arg(long)]
    pub json: bool,
    /// Cache database (default: $PF1E_CACHE, else $XDG_CACHE_HOME/pf1e/cache.redb, else ~/.cache/pf1e/cache.redb).
    #[arg(long)]
    pub db: Option<PathBuf>,
    /// Use no cache file: compute everything, keep nothing.
    #[arg(long, conflicts_with = "db")]
    pub no_cache: bool,
    /// Threads (default: all cores).
    #[arg(long)]
    pub threads: Option<usize>,
    /// No progress display.
    #[arg(long, short)]
    pub quiet: bool,
    #[command(flatten)]
    pub report: super::report::ReportArgs,
    #[command(flatten)]
    pub llm_report: crate::llm::report::LlmReportArgs,
    #[command(flatten)]
    pub llm: crate::llm::LlmArgs,
}

/// The default cache file.
pub fn default_db() -> PathBuf {
    if let Some(p) = std::env::var_os("PF1E_CACHE") {
        return PathBuf::from(p);
    }
    let base = std::env::var_os("XDG_CACHE_HOME")
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".cache")))
        .unwrap_or_else(|| PathBuf::from("."));
    base.join("pf1e").join("cache.redb")
}

/// Runs `pf1e run`.
pub fn run(args: &RunArgs) -> CliResult {
    // Everything is read and checked before the cache is opened: a bad sweep writes nothing.
    let bundle = bundle_from_disk(&args.sweep)?;
    let sweep = Sweep::from_bundle(&bundle)?;
    sweep.validate(&bundle.sweep_yaml)?;
    args.llm_report.check(args.json)?;

    let store = if args.no_cache {
        Store::in_memory()
    } else {
        Store::open(&args.db.clone().unwrap_or_else(default_db))
    }?;
    let threads =
        args.threads.unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get())).max(1);
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .map_err(|e| CliError::environment(format!("thread pool: {e}")))?;
    let mut sched = Scheduler::new(store, SchedulerConfig { validate: false, ..Default::default() });
    let id = crate::llm::sweep::submit(&mut sched, bundle, &args.llm)?;
    let evaluator = EngineEvaluator::new();
    let mut progress = Progress::new(args.quiet);
    let info = pool.install(|| drive(&mut sched, id, &evaluator, threads, |i| progress.update(i)))?;
    progress.finish();
    if info.status != SweepStatus::Done {
        return Err(CliError::environment(format!("sweep {} {}: {}", info.id, info.status, info.error)));
    }
    super::report::emit(&info, args.json, &args.report)?;
    if args.llm_report.llm_report {
        let facts = crate::llm::report::sweep_facts(&info);
        let cache = std::sync::Arc::new(sched.llm_cache());
        crate::llm::report::narrate_blocking(&facts, &args.llm_report, &args.llm, cache)?;
    }
    Ok(())
}
