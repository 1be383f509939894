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
    /// Capacity: synthetic worker processes.
    #[arg(long, default_value_t = 4, value_parser = crate::args::positive::<usize>)]
    pub synthetic_workers: usize,
    /// Capacity: threads of each synthetic worker, each standing for one core.
    #[arg(long, default_value_t = 64, value_parser = crate::args::positive::<usize>)]
    pub synthetic_threads: usize,
    /// Capacity: wall time of one synthetic battle in microseconds (about the reference
    /// encounter's on one core).
    #[arg(long, default_value_t = 11)]
    pub battle_us: u32,
    /// Capacity: shards of the sweep.
    #[arg(long, default_value_t = 20_000, value_parser = crate::args::positive::<u64>)]
    pub capacity_shards: u64,
    /// Capacity: run the coordinator without group commit (one transaction per report call,
    /// under the scheduler's lock, as before), to measure the difference.
    #[arg(long)]
    pub no_group_commit: bool,
    /// Capacity: most shards per lease of each synthetic worker (`pf1e worker --max-batch`;
    /// default: sized to a tenth of a second of work, up to 1,024). Small batches make many
    /// small reports, the load that group commit is for.
    #[arg(long, value_parser = crate::args::positive::<usize>)]
    pub worker_max_batch: Option<usize>,
    /// Capacity: runs per shard.
    #[arg(long, default_value_t = 100, value_parser = crate::args::positive::<u64>)]
    pub shard_size: u64,
    /// Status: finished sweeps in the journal.
    #[arg(long, default_value_t = 300)]
    pub past_sweeps: u64,
    /// Status: one-run shards of a sweep waiting for a worker (0: no such sweep).
    #[arg(long, default_value_t = 200_000)]
    pub pending_shards: u64,
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
    /// One coordinator process (disk store) fed by synthetic worker processes over loopback:
    /// its CPU per shard and per battle, shards/s, lease latency, memory.
    Capacity,
    /// `ctl status` with many past sweeps and many pending shards: its round trip and the
    /// time it holds the scheduler's lock.
    Status,
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
    let budget = (runs * (hp.0.len() * hp.1.len()) as u64).max(1);
    let text = format!(
        "name: {name}\nseed: 1\nruns: {runs}\nparty: players\nshard_size: {shard_size}\nbudget: {{ max_total_runs: {budget} }}\nscenario:\n  map: {map}\n  sides:\n    players: {{ combatants: [{}] }}\n    monsters: {{ combatants: [{}] }}\njobs:\n  - grid: {{ hp: {{ players: [{}], monsters: [{}] }} }}\n",
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
                lease_times: None,
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
    if all || args.which == Which::Capacity {
        let c = capacity(args, dir.path())?;
        let secs = |d: Duration| d.as_secs_f64();
        let per_shard_us = secs(c.cpu) * 1e6 / c.shards.max(1) as f64;
        let per_battle_ns = secs(c.cpu) * 1e9 / c.battles.max(1) as f64;
        let shards_per_second = c.shards as f64 / secs(c.wall);
        let battles_per_second = c.battles as f64 / secs(c.wall);
        // What one core of the coordinator sustains at this CPU per shard.
        let ceiling_battles = c.battles as f64 / secs(c.cpu).max(1e-9);
        let core_battles = 1e6 / f64::from(args.battle_us.max(1));
        let cores_fed = ceiling_battles / core_battles;
        let offered = args.synthetic_workers * args.synthetic_threads;
        let worst = |k: &str| c.leases.iter().filter_map(|l| l[k].as_u64()).max().unwrap_or(0);
        let lease_calls: u64 = c.leases.iter().filter_map(|l| l["leases"].as_u64()).sum();
        doc.insert(
            "capacity".into(),
            serde_json::json!({
                "shards": c.shards, "battles": c.battles, "shard_size": args.shard_size,
                "worker_processes": args.synthetic_workers, "cores_offered": offered,
                "battle_us": args.battle_us, "seconds": secs(c.wall),
                "group_commit": !args.no_group_commit,
                "worker_max_batch": args.worker_max_batch,
                "coordinator_cpu_seconds": secs(c.cpu),
                "coordinator_cpu_per_shard_us": per_shard_us,
                "coordinator_cpu_per_battle_ns": per_battle_ns,
                "coordinator_cores_busy": secs(c.cpu) / secs(c.wall),
                "shards_per_second": shards_per_second, "battles_per_second": battles_per_second,
                "battles_per_coordinator_core_second": ceiling_battles,
                "reference_cores_per_coordinator_core": cores_fed,
                "lease_calls": lease_calls,
                "lease_p50_us_worst_worker": worst("lease_p50_us"),
                "lease_p99_us_worst_worker": worst("lease_p99_us"),
                "lease_max_us": worst("lease_max_us"),
                "coordinator_rss_kib": c.rss_kib, "coordinator_peak_rss_kib": c.peak_kib,
            }),
        );
        say(format!(
            "capacity: {} shards of {} runs ({} battles) from {} synthetic worker processes ({offered} cores of {} us a battle) through one coordinator process (disk store) in {:.2} s: {shards_per_second:.0} shards/s, {battles_per_second:.0} battles/s",
            c.shards,
            args.shard_size,
            c.battles,
            args.synthetic_workers,
            args.battle_us,
            secs(c.wall),
        ))?;
        say(format!(
            "  coordinator CPU {:.2} s ({:.2} cores busy): {per_shard_us:.1} us per shard, {per_battle_ns:.1} ns per battle; one coordinator core sustains {ceiling_battles:.0} battles/s = {cores_fed:.0} cores of {} us a battle",
            secs(c.cpu),
            secs(c.cpu) / secs(c.wall),
            args.battle_us,
        ))?;
        say(format!(
            "  lease round trips: {lease_calls} calls, p50 {} us, p99 {} us (worst worker), max {} us; coordinator memory {} MiB resident at the end, {} MiB peak",
            worst("lease_p50_us"),
            worst("lease_p99_us"),
            worst("lease_max_us"),
            c.rss_kib / 1024,
            c.peak_kib / 1024,
        ))?;
    }
    if args.which == Which::Status {
        let (trips, locked) = status_cost(args, dir.path())?;
        let ms = |d: Duration| d.as_secs_f64() * 1e3;
        let at =
            |v: &[Duration], q: usize| v.get((v.len() * q / 100).min(v.len().saturating_sub(1))).copied();
        let (p50, p99, lock50, lock99) = (
            at(&trips, 50).map_or(0.0, ms),
            at(&trips, 99).map_or(0.0, ms),
            at(&locked, 50).map_or(0.0, ms),
            at(&locked, 99).map_or(0.0, ms),
        );
        doc.insert(
            "status".into(),
            serde_json::json!({ "past_sweeps": args.past_sweeps, "pending_shards": args.pending_shards,
                                "calls": trips.len(), "round_trip_p50_ms": p50, "round_trip_p99_ms": p99,
                                "lock_held_p50_ms": lock50, "lock_held_p99_ms": lock99 }),
        );
        say(format!(
            "status: ctl status's list with {} past sweeps and {} pending shards, {} calls over loopback gRPC: round trip p50 {p50:.2} ms, p99 {p99:.2} ms; the scheduler's lock held p50 {lock50:.2} ms, p99 {lock99:.2} ms (target <= 20 ms)",
            args.past_sweeps,
            args.pending_shards,
            trips.len()
        ))?;
    }
    if args.json {
        return output::json(&doc);
    }
    Ok(())
}

/// `ctl status`'s cost: the list of sweeps and the coordinator's figures
/// (`ListSweeps` over loopback gRPC, as `pf1e ctl status` asks it) with
/// `past` finished sweeps in the journal and one sweep of `pending`
/// one-run shards waiting for a worker. Returns the round trips, sorted,
/// and the time the scheduler's lock was held for the read, sorted.
fn status_cost(args: &BenchServiceArgs, dir: &Path) -> Result<(Vec<Duration>, Vec<Duration>), CliError> {
    let store = Store::open(&dir.join("status.redb"))?;
    let mut sched = Scheduler::new(store, SchedulerConfig { validate: false, ..Default::default() });
    let evaluator = EngineEvaluator::new();
    let past = write_sweep(dir, &args.data, "past", 1, 1, &[1], (&[1.0], &[1.0]))?;
    for _ in 0..args.past_sweeps {
        let id = sched.submit(bundle_from_disk(&past)?)?;
        drive(&mut sched, id, &evaluator, 1, |_| {})?;
    }
    if args.pending_shards > 0 {
        let pending =
            write_sweep(dir, &args.data, "pending", args.pending_shards, 1, &[1], (&[0.5], &[1.0]))?;
        sched.submit(bundle_from_disk(&pending)?)?;
    }
    let rt = runtime()?;
    rt.block_on(async move {
        let service = Service::new(sched);
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.map_err(CliError::environment)?;
        let url = format!("http://{}", listener.local_addr().map_err(CliError::environment)?);
        let (stop_tx, mut stop_rx) = tokio::sync::watch::channel(false);
        let server = tokio::spawn(serve(
            service.clone(),
            ServeOptions { listener, token: None, worker_token: None, tls: None },
            async move {
                let _ = stop_rx.wait_for(|s| *s).await;
            },
        ));
        let target = Target { url, auth: ClientAuth::new(None)?, tls_ca: None };
        let mut client = target.control().await.map_err(CliError::environment)?;
        let (mut trips, mut locked) = (Vec::new(), Vec::new());
        for _ in 0..STATUS_CALLS {
            let start = Instant::now();
            let list = client
                .list(pf1e_wire::proto::ListRequest {})
                .await
                .map_err(|s| CliError::environment(s.message().to_string()))?;
            trips.push(start.elapsed());
            let expected = args.past_sweeps + u64::from(args.pending_shards > 0);
            if list.into_inner().sweeps.len() as u64 != expected {
                return Err(CliError::environment("the status bench: sweeps missing from the list"));
            }
            let start = Instant::now();
            {
                let s = service.lock();
                std::hint::black_box((s.list(), s.coordinator_stats(Instant::now())));
            }
            locked.push(start.elapsed());
        }
        let _ = stop_tx.send(true);
        let _ = server.await;
        trips.sort();
        locked.sort();
        Ok((trips, locked))
    })
}

/// Status calls timed by the status measurement.
const STATUS_CALLS: usize = 50;

/// A child process of the capacity measurement, stopped (SIGTERM, then
/// waited for) when dropped.
struct Child(std::process::Child);

impl Child {
    fn spawn(args: &[String]) -> Result<Self, CliError> {
        let exe = std::env::current_exe().map_err(CliError::environment)?;
        let child = std::process::Command::new(exe)
            .args(args)
            .env_remove("PF1E_TOKEN")
            .env_remove("PF1E_WORKER_TOKEN")
            .env_remove("PF1E_COORDINATOR")
            .stdin(std::process::Stdio::null())
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::inherit())
            .spawn()
            .map_err(|e| CliError::environment(format!("cannot start {}: {e}", args[0])))?;
        Ok(Self(child))
    }

    fn pid(&self) -> u32 {
        self.0.id()
    }

    /// Sends SIGTERM (the graceful stop of a coordinator and a worker).
    fn terminate(&self) {
        let _ = std::process::Command::new("kill")
            .args(["-TERM", &self.pid().to_string()])
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .status();
    }

    /// Stops the process and returns what it printed on stdout.
    fn finish(mut self) -> String {
        use std::io::Read;
        self.terminate();
        let mut out = String::new();
        if let Some(mut o) = self.0.stdout.take() {
            let _ = o.read_to_string(&mut out);
        }
        let _ = self.0.wait();
        out
    }
}

impl Drop for Child {
    fn drop(&mut self) {
        if matches!(self.0.try_wait(), Ok(None)) {
            self.terminate();
            let _ = self.0.wait();
        }
    }
}

/// CPU time (user + system, every thread) of process `pid`, from
/// `/proc/PID/stat` (in clock ticks of 1/100 s, Linux's `USER_HZ`).
fn process_cpu(pid: u32) -> Result<Duration, CliError> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).map_err(|e| {
        CliError::environment(format!("/proc/{pid}/stat: {e} (the capacity measurement needs Linux)"))
    })?;
    // Fields after the command name (which may hold spaces) start at the state, field 3.
    let rest = stat.rsplit_once(')').map_or("", |(_, r)| r);
    let fields: Vec<&str> = rest.split_whitespace().collect();
    let tick = |i: usize| fields.get(i).and_then(|f| f.parse::<u64>().ok()).unwrap_or(0);
    // utime is field 14 and stime 15: indices 11 and 12 from field 3.
    Ok(Duration::from_millis((tick(11) + tick(12)) * 10))
}

/// (resident, peak resident) memory of process `pid` in KiB, from `/proc/PID/status`.
fn process_memory(pid: u32) -> (u64, u64) {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap_or_default();
    let field = |name: &str| {
        status
            .lines()
            .find_map(|l| l.strip_prefix(name))
            .and_then(|v| v.split_whitespace().next())
            .and_then(|v| v.parse::<u64>().ok())
            .unwrap_or(0)
    };
    (field("VmRSS:"), field("VmHWM:"))
}

/// The capacity figures.
struct Capacity {
    shards: u64,
    battles: u64,
    wall: Duration,
    cpu: Duration,
    rss_kib: u64,
    peak_kib: u64,
    /// Per worker: its JSON line of lease round trips.
    leases: Vec<serde_json::Value>,
}

/// One coordinator process on a fresh disk store, fed by synthetic worker
/// processes over 127.0.0.1, and one sweep through it.
fn capacity(args: &BenchServiceArgs, dir: &Path) -> Result<Capacity, CliError> {
    let runs_per_cell = args.shard_size.saturating_mul(10);
    let cells = (args.capacity_shards * args.shard_size).div_ceil(runs_per_cell).max(1);
    let side = (cells as f64).sqrt().ceil() as u64;
    let fractions: Vec<f64> = (1..=side).map(|i| i as f64 / side as f64).collect();
    let other: Vec<f64> = fractions.iter().copied().take(cells.div_ceil(side) as usize).collect();
    let sweep =
        write_sweep(dir, &args.data, "capacity", runs_per_cell, args.shard_size, &[1], (&fractions, &other))?;
    let bundle = bundle_from_disk(&sweep)?;
    let db = dir.join("capacity.redb");
    let mut coordinator_args: Vec<String> =
        ["coordinator", "--listen", "127.0.0.1:0", "--no-http", "--synthetic-workers", "--db"]
            .iter()
            .map(|a| a.to_string())
            .collect();
    coordinator_args.push(db.display().to_string());
    if args.no_group_commit {
        coordinator_args.push("--no-group-commit".into());
    }
    let mut coordinator = Child::spawn(&coordinator_args)?;
    // Its stdout stays open until the end (it may print more).
    let mut stdout = std::io::BufReader::new(
        coordinator.0.stdout.take().ok_or_else(|| CliError::environment("coordinator: no stdout"))?,
    );
    let addr = {
        use std::io::BufRead;
        let mut line = String::new();
        stdout.read_line(&mut line).map_err(CliError::environment)?;
        line.trim().strip_prefix("listening on ").map(str::to_string).ok_or_else(|| {
            CliError::environment(format!("the coordinator did not start (it printed {line:?})"))
        })?
    };
    let url = format!("http://{addr}");
    let mut workers = Vec::new();
    for i in 0..args.synthetic_workers {
        let mut worker_args: Vec<String> = vec![
            "worker".into(),
            "--coordinator".into(),
            url.clone(),
            "--threads".into(),
            args.synthetic_threads.to_string(),
            "--synthetic-battle-us".into(),
            args.battle_us.to_string(),
            "--lease-stats".into(),
            "--name".into(),
            format!("synthetic-{i}"),
        ];
        if let Some(b) = args.worker_max_batch {
            worker_args.extend(["--max-batch".into(), b.to_string()]);
        }
        workers.push(Child::spawn(&worker_args)?);
    }
    let rt = runtime()?;
    let (wall, cpu, stats) = rt.block_on(async {
        let target = Target { url: url.clone(), auth: ClientAuth::new(None)?, tls_ca: None };
        let mut control = target.control().await?;
        // Every worker registered before the clock starts.
        for _ in 0..200 {
            let n = control
                .list_workers(pf1e_wire::proto::ListWorkersRequest {})
                .await?
                .into_inner()
                .workers
                .len();
            if n == args.synthetic_workers {
                break;
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        let cpu0 = process_cpu(coordinator.pid())?;
        let start = Instant::now();
        let id = control
            .submit(pf1e_wire::proto::SubmitRequest { bundle: Some(bundle) })
            .await?
            .into_inner()
            .sweep_id;
        loop {
            let list = control.list(pf1e_wire::proto::ListRequest {}).await?.into_inner();
            let info = list
                .sweeps
                .iter()
                .find(|s| s.id == id)
                .ok_or_else(|| CliError::environment("the bench sweep vanished"))?;
            let info = pf1e_wire::status::SweepInfo::try_from(info)?;
            if info.status.is_terminal() {
                let (wall, cpu) = (start.elapsed(), process_cpu(coordinator.pid())?.saturating_sub(cpu0));
                if info.status != SweepStatus::Done {
                    return Err(CliError::environment(format!(
                        "bench sweep {}: {}",
                        info.status, info.error
                    )));
                }
                return Ok::<_, CliError>((wall, cpu, info.stats));
            }
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    })?;
    let (rss_kib, peak_kib) = process_memory(coordinator.pid());
    for w in &workers {
        w.terminate();
    }
    let leases = workers
        .into_iter()
        .filter_map(|w| w.finish().lines().find_map(|l| serde_json::from_str::<serde_json::Value>(l).ok()))
        .collect();
    coordinator.finish();
    drop(stdout);
    Ok(Capacity {
        shards: stats.shards_computed,
        battles: stats.runs_done,
        wall,
        cpu,
        rss_kib,
        peak_kib,
        leases,
    })
}
