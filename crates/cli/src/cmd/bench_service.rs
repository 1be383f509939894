//! `pf1e bench-service`: measures the sweep service on this machine.
//!
//! - overhead: tiny shards (one run each) through a coordinator and two
//!   workers over loopback gRPC, in shards per second;
//! - scaling: the same sweep with one single-thread worker, then two;
//! - resume: a finished 10,000-cell sweep run again from its cache.
//!
//! Everything runs in this process (coordinator, workers, loopback sockets)
//! on throw-away databases: redb files in a temporary directory by default,
//! as a real coordinator keeps its cache (every report is a durable
//! commit), or in memory with `--store memory` to see the scheduling alone.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, Instant};

use pf1e_coordinator::embedded::drive;
use pf1e_coordinator::scheduler::{Scheduler, SchedulerConfig};
use pf1e_coordinator::service::{ServeOptions, Service, serve};
use pf1e_coordinator::store::Store;
use pf1e_coordinator::sweep::bundle_from_disk;
use pf1e_wire::auth::ClientAuth;
use pf1e_wire::client::Target;
use pf1e_wire::status::SweepStatus;
use pf1e_worker::{EngineEvaluator, WorkerConfig};

use super::runtime;
use crate::error::{CliError, CliResult};
use crate::output;

/// Arguments of `pf1e bench-service`.
#[derive(Debug, Clone, clap::Args)]
pub struct BenchServiceArgs {
    /// Which measurement.
    #[arg(long, value_enum, default_value_t = Which::All)]
    pub which: Which,
    /// The repository's data directory (maps and monsters).
    #[arg(long, default_value = "data")]
    pub data: PathBuf,
    /// Shards of the overhead measurement.
    #[arg(long, default_value_t = 5000)]
    pub shards: u64,
    /// Cells of the resume measurement.
    #[arg(long, default_value_t = 10_000)]
    pub cells: u64,
    /// Where the coordinator of the overhead and scaling measurements keeps
    /// its cache.
    #[arg(long, value_enum, default_value_t = StoreKind::Disk)]
    pub store: StoreKind,
    /// Print one JSON document: each measurement's figures by name.
    #[arg(long)]
    pub json: bool,
}

/// The coordinator's store during a measurement.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum StoreKind {
    /// A redb file in a temporary directory, durable commits: what a
    /// coordinator pays.
    Disk,
    /// redb in memory: the scheduling and the network without the disk.
    Memory,
}

impl StoreKind {
    fn open(self, dir: &Path, name: &str) -> Result<Store, CliError> {
        Ok(match self {
            StoreKind::Disk => Store::open(&dir.join(format!("{name}.redb")))?,
            StoreKind::Memory => Store::in_memory()?,
        })
    }

    fn name(self) -> &'static str {
        match self {
            StoreKind::Disk => "disk",
            StoreKind::Memory => "memory",
        }
    }
}

/// The measurements.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Which {
    /// All three.
    All,
    /// Scheduling overhead with one-run shards.
    Overhead,
    /// One worker against two.
    Scaling,
    /// A finished sweep again from the cache.
    Resume,
}

fn abs(p: &Path) -> Result<String, CliError> {
    let p = std::fs::canonicalize(p).map_err(|e| CliError::input(format!("{}: {e}", p.display())))?;
    Ok(p.display().to_string())
}

/// Writes a sweep file into `dir` and returns its path.
fn write_sweep(
    dir: &Path,
    data: &Path,
    name: &str,
    runs: u64,
    shard_size: u64,
    players: &[usize],
    hp: (&[f64], &[f64]),
) -> Result<PathBuf, CliError> {
    let map = abs(&data.join("maps/sample_arena.yaml"))?;
    let goblin = abs(&data.join("monsters/goblin.json"))?;
    let orc = abs(&data.join("monsters/orc.json"))?;
    let list = |v: &[f64]| v.iter().map(|f| format!("{f}")).collect::<Vec<_>>().join(", ");
    let n = players.len();
    let text = format!(
        "name: {name}\nseed: 1\nruns: {runs}\nparty: players\nshard_size: {shard_size}\nscenario:\n  map: {map}\n  sides:\n    players: {{ combatants: [{}] }}\n    monsters: {{ combatants: [{}] }}\njobs:\n  - grid: {{ hp: {{ players: [{}], monsters: [{}] }} }}\n",
        vec![goblin.as_str(); n].join(", "),
        vec![orc.as_str(); n].join(", "),
        list(hp.0),
        list(hp.1),
    );
    let path = dir.join(format!("{name}.yaml"));
    std::fs::write(&path, text).map_err(|e| CliError::environment(format!("{}: {e}", path.display())))?;
    Ok(path)
}

/// Runs a sweep through an in-process coordinator and `workers` single-thread
/// workers over loopback; returns the wall time and the shard count.
fn through_service(sweep: &Path, workers: usize, store: Store) -> Result<(Duration, u64), CliError> {
    let bundle = bundle_from_disk(sweep)?;
    let rt = runtime()?;
    rt.block_on(async move {
        let service = Service::new(Scheduler::new(store, SchedulerConfig::default()));
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.map_err(CliError::environment)?;
        let url = format!("http://{}", listener.local_addr().map_err(CliError::environment)?);
        let (stop_tx, stop_rx) = tokio::sync::watch::channel(false);
        let stopped = |mut rx: tokio::sync::watch::Receiver<bool>| async move {
            let _ = rx.wait_for(|s| *s).await;
        };
        let server = tokio::spawn(serve(
            service.clone(),
            ServeOptions { listener, token: None, worker_token: None, tls: None },
            stopped(stop_rx.clone()),
        ));
        let mut handles = Vec::new();
        for i in 0..workers {
            let cfg = WorkerConfig {
                target: Target { url: url.clone(), auth: ClientAuth::new(None)?, tls_ca: None },
                threads: 1,
                name: format!("bench-{i}"),
                rules_version: pf1e_engine::RULES_VERSION.to_string(),
                max_batch: None,
            };
            handles.push(tokio::spawn(pf1e_worker::run(
                cfg,
                Arc::new(EngineEvaluator::new()),
                stopped(stop_rx.clone()),
            )));
        }
        // Let the workers connect and warm up before the clock starts.
        tokio::time::sleep(Duration::from_millis(300)).await;
        let start = Instant::now();
        let id = service.lock().submit(bundle)?;
        let info = loop {
            let info = service.lock().info(id, false)?;
            if info.status.is_terminal() {
                break info;
            }
            tokio::time::sleep(Duration::from_millis(2)).await;
        };
        let elapsed = start.elapsed();
        let _ = stop_tx.send(true);
        for h in handles {
            let _ = h.await;
        }
        let _ = server.await;
        if info.status != SweepStatus::Done {
            return Err(CliError::environment(format!("bench sweep {}: {}", info.status, info.error)));
        }
        Ok((elapsed, info.stats.shards_total))
    })
}

/// Runs `pf1e bench-service`.
pub fn run(args: &BenchServiceArgs) -> CliResult {
    let dir = tempfile::tempdir().map_err(CliError::environment)?;
    let all = args.which == Which::All;
    let mut doc = serde_json::Map::new();
    let say = |line: String| if args.json { Ok(()) } else { output::println(&line) };
    if all || args.which == Which::Overhead {
        let sweep = write_sweep(dir.path(), &args.data, "overhead", args.shards, 1, &[1], (&[1.0], &[1.0]))?;
        let (t, shards) = through_service(&sweep, 2, args.store.open(dir.path(), "overhead")?)?;
        let rate = shards as f64 / t.as_secs_f64();
        let store = args.store.name();
        doc.insert(
            "overhead".into(),
            serde_json::json!({ "shards": shards, "seconds": t.as_secs_f64(), "shards_per_second": rate, "store": store }),
        );
        say(format!(
            "overhead: {shards} one-run shards through a coordinator ({store} store) and 2 workers over loopback in {:.2} s: {rate:.0} shards/s (target >= 5000)",
            t.as_secs_f64(),
        ))?;
    }
    if all || args.which == Which::Scaling {
        let sweep =
            write_sweep(dir.path(), &args.data, "scaling", 20000, 100, &[1, 1], (&[0.5, 0.75, 1.0], &[1.0]))?;
        let (one, shards) = through_service(&sweep, 1, args.store.open(dir.path(), "scaling-1")?)?;
        let (two, _) = through_service(&sweep, 2, args.store.open(dir.path(), "scaling-2")?)?;
        let speedup = one.as_secs_f64() / two.as_secs_f64();
        doc.insert(
            "scaling".into(),
            serde_json::json!({ "shards": shards, "one_worker_seconds": one.as_secs_f64(),
                                "two_workers_seconds": two.as_secs_f64(), "speedup": speedup }),
        );
        say(format!(
            "scaling: {shards} shards, 1 single-thread worker {:.2} s, 2 workers {:.2} s: {speedup:.2}x (target >= 1.8x)",
            one.as_secs_f64(),
            two.as_secs_f64(),
        ))?;
    }
    if all || args.which == Which::Resume {
        let side = (args.cells as f64).sqrt().ceil() as u64;
        let fractions: Vec<f64> = (1..=side).map(|i| i as f64 / side as f64).collect();
        let other: Vec<f64> = fractions.iter().copied().take(args.cells.div_ceil(side) as usize).collect();
        let sweep = write_sweep(dir.path(), &args.data, "resume", 1, 1, &[1], (&fractions, &other))?;
        let db = dir.path().join("resume.redb");
        let evaluator = EngineEvaluator::new();
        let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
        let mut times = Vec::new();
        for _ in 0..2 {
            let start = Instant::now();
            let bundle = bundle_from_disk(&sweep)?;
            let store = Store::open(&db)?;
            let mut sched = Scheduler::new(store, SchedulerConfig { validate: false, ..Default::default() });
            let id = sched.submit(bundle)?;
            let info = drive(&mut sched, id, &evaluator, threads, |_| {})?;
            times.push((start.elapsed(), info.stats));
        }
        let (t, s) = &times[1];
        doc.insert(
            "resume".into(),
            serde_json::json!({ "cells": s.cells_total, "first_seconds": times[0].0.as_secs_f64(),
                                "shards_from_cache": s.shards_from_cache, "shards": s.shards_total,
                                "rerun_seconds": t.as_secs_f64() }),
        );
        say(format!(
            "resume: {} cells computed in {:.2} s, then rerun with {} of {} shards from the cache in {:.2} s (target < 3 s)",
            s.cells_total,
            times[0].0.as_secs_f64(),
            s.shards_from_cache,
            s.shards_total,
            t.as_secs_f64()
        ))?;
    }
    if args.json {
        return output::json(&doc);
    }
    Ok(())
}
