//! `pf1e run sweep.yaml`: embedded single-node mode. The coordinator's
//! planner and scheduler with an in-process worker pool, no network, and a
//! cache file so an interrupted run resumes where it stopped.

use std::path::PathBuf;

use pf1e_coordinator::embedded::drive;
use pf1e_coordinator::scheduler::{Scheduler, SchedulerConfig};
use pf1e_coordinator::store::Store;
use pf1e_coordinator::sweep::{SweepDraft, bundle_from_disk};
use pf1e_wire::status::SweepStatus;
use pf1e_worker::EngineEvaluator;

use super::cache::{default_db, open_waiting};
use super::progress::Progress;
use crate::GlobalArgs;
use crate::error::{CliError, CliResult};

/// Arguments of `pf1e run`.
#[derive(Debug, Clone, clap::Args)]
pub struct RunArgs {
    /// The sweep file.
    pub sweep: PathBuf,
    /// Cache database (default: $PF1E_CACHE, else $XDG_CACHE_HOME/pf1e/cache.redb, else
    /// ~/.cache/pf1e/cache.redb). Another pf1e using it is waited for.
    #[arg(long, value_name = "FILE")]
    pub db: Option<PathBuf>,
    /// Use no cache file: compute everything, keep nothing.
    #[arg(long, conflicts_with = "db")]
    pub no_cache: bool,
    /// Confidence level of every interval and comparison (default: the sweep file's
    /// `confidence:`, else 0.9973, the 3σ level).
    #[arg(long, value_name = "LEVEL", value_parser = crate::args::confidence)]
    pub confidence: Option<f64>,
    /// Threads (default: all cores).
    #[arg(long, value_parser = crate::args::positive::<usize>)]
    pub threads: Option<usize>,
    #[command(flatten)]
    pub report: super::report::ReportArgs,
    #[command(flatten)]
    pub llm_report: crate::llm::report::LlmReportArgs,
    #[command(flatten)]
    pub llm: crate::llm::LlmArgs,
}

/// The most bytes of shard results `pf1e run --no-cache` keeps in memory
/// for the cells a sweep measures twice.
const NO_CACHE_SHARD_BYTES: u64 = 8 * 1024 * 1024;

/// Runs `pf1e run`.
pub fn run(args: &RunArgs, global: &GlobalArgs) -> CliResult {
    let lang = global.lang();
    // Everything is read and checked before the cache is opened: a bad sweep writes nothing.
    let mut bundle = bundle_from_disk(&args.sweep)?;
    if let Some(level) = args.confidence {
        bundle.sweep_yaml = pf1e_coordinator::sweep::with_confidence(&bundle.sweep_yaml, level);
    }
    SweepDraft::from_bundle(&bundle)?.validate()?;
    args.llm_report.check(args.report.format() == super::report::Format::Json)?;

    // The scheduler owns the store; the owner note lives until the run ends.
    let (store, _owner) = if args.no_cache {
        let mut store = Store::in_memory()?;
        // Nothing outlives the run: the shards a cell measured again finds
        // are kept up to a fixed size, the coldest dropped past it (and
        // computed again if asked: the same results), so that the memory
        // of a run without a cache does not grow with its runs.
        store.set_shard_limit(NO_CACHE_SHARD_BYTES)?;
        (store, None)
    } else {
        let db = args.db.clone().unwrap_or_else(default_db);
        // The planners' spill files of per-run outcomes go next to the cache.
        if let Some(dir) = db.parent().filter(|d| !d.as_os_str().is_empty()) {
            pf1e_coordinator::jobs::runs::set_spill_dir(dir.to_path_buf());
        }
        let cache = open_waiting(&db, lang, global.quiet)?;
        (cache.store, Some(cache.owner))
    };
    let threads =
        args.threads.unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get())).max(1);
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .map_err(|e| CliError::environment(format!("thread pool: {e}")))?;
    let mut sched = Scheduler::new(store, SchedulerConfig { validate: false, ..Default::default() });
    let id = crate::llm::sweep::submit(&mut sched, bundle, &args.llm)?;
    let evaluator = EngineEvaluator::new();
    let mut progress = Progress::new(global.quiet, lang);
    let info = pool.install(|| drive(&mut sched, id, &evaluator, threads, |i| progress.update(i)))?;
    progress.finish();
    // The narrative's cache is the run's redb file, kept open past the scheduler.
    let llm_cache = args.llm_report.llm_report.then(|| std::sync::Arc::new(sched.llm_cache()));
    drop(sched);
    if info.status != SweepStatus::Done {
        return Err(CliError::environment(format!("sweep {} {}: {}", info.id, info.status, info.error)));
    }
    super::report::emit(&info, &args.report, lang)?;
    if let Some(cache) = llm_cache {
        let facts = crate::llm::report::sweep_facts(&info, lang);
        crate::llm::report::narrate_blocking(&facts, &args.llm_report, &args.llm, cache)?;
    }
    Ok(())
}
