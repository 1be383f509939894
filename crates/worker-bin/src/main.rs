//! `pf1e-worker`: the worker alone, for images and hosts that only play
//! shards. It links the engine, the wire contract and the worker loop, and
//! none of the CLI's storage, plotting, YAML or LLM code; `pf1e worker`
//! runs the same loop from the all-in-one binary.
//!
//! Exit status: 0 after a drain (SIGTERM or Ctrl-C), 2 for a usage or
//! settings error (bad URL, unreadable token or CA file), 1 when the
//! coordinator refuses the worker or the worker cannot run.
#![allow(clippy::print_stderr, clippy::print_stdout)]

use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;

use clap::Parser;
use pf1e_wire::client::{Target, TargetSettings};
use pf1e_worker::{LeaseTimes, WorkerConfig, shutdown_signal};
use tracing_subscriber::EnvFilter;

/// A stateless pf1e worker: leases shards from a coordinator, plays them, reports.
#[derive(Debug, Parser)]
#[command(name = "pf1e-worker", version, about)]
struct Args {
    /// Coordinator URL (`http://host:port`, `https://host:port`).
    #[arg(long, env = "PF1E_COORDINATOR", value_name = "URL")]
    coordinator: Option<String>,
    /// File holding the worker token (else the PF1E_TOKEN variable).
    #[arg(long, value_name = "FILE")]
    token_file: Option<PathBuf>,
    /// PEM CA certificate to verify the coordinator's TLS certificate (https URLs).
    #[arg(long, value_name = "FILE")]
    tls_ca: Option<PathBuf>,
    /// Threads to play shards with (default: all cores).
    #[arg(long, value_parser = clap::value_parser!(u16).range(1..))]
    threads: Option<u16>,
    /// Name shown by `pf1e ctl workers` (default: the host name).
    #[arg(long)]
    name: Option<String>,
    /// Most shards per lease (default: adapts to about a tenth of a second of work).
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..))]
    max_batch: Option<u32>,
    /// Benchmarks only: play no battle, return made-up deterministic results after sleeping
    /// this many microseconds per battle on each thread (so --threads 64 stands for 64 cores).
    /// Only a coordinator started with --synthetic-workers accepts such a worker.
    #[arg(long, value_name = "MICROS")]
    synthetic_battle_us: Option<u32>,
    /// On exit, print one JSON line with the count of lease calls and their round trips'
    /// median, 99th percentile and maximum in microseconds.
    #[arg(long)]
    lease_stats: bool,
    /// More log lines on stderr (-v info, -vv debug); else RUST_LOG, else warnings.
    #[arg(short, long, action = clap::ArgAction::Count)]
    verbose: u8,
}

fn main() -> ExitCode {
    let args = Args::parse();
    let filter = match args.verbose {
        0 => EnvFilter::try_from_default_env().unwrap_or_else(|_| EnvFilter::new("warn")),
        1 => EnvFilter::new("info"),
        _ => EnvFilter::new("debug"),
    };
    tracing_subscriber::fmt().with_env_filter(filter).with_writer(std::io::stderr).init();

    let settings = TargetSettings {
        url: args.coordinator.clone(),
        token_file: args.token_file.as_deref(),
        token_env: std::env::var("PF1E_TOKEN").ok(),
        tls_ca: args.tls_ca.as_deref(),
    };
    let target = match Target::from_settings(settings) {
        Ok(t) => t,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(2);
        }
    };
    let mut cfg = WorkerConfig::new(
        target,
        args.threads.map(usize::from),
        args.name,
        args.max_batch.and_then(|b| usize::try_from(b).ok()),
    );
    let evaluator = pf1e_worker::synthetic::evaluator_for(&mut cfg, args.synthetic_battle_us);
    let times = args.lease_stats.then(|| Arc::new(LeaseTimes::default()));
    cfg.lease_times = times.clone();
    let rt = match tokio::runtime::Builder::new_multi_thread().worker_threads(2).enable_all().build() {
        Ok(rt) => rt,
        Err(e) => {
            eprintln!("error: cannot start the async runtime: {e}");
            return ExitCode::FAILURE;
        }
    };
    match rt.block_on(pf1e_worker::run(cfg, evaluator, shutdown_signal())) {
        Ok(()) => {
            if let Some(t) = times {
                println!("{}", t.summary_json());
            }
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}
