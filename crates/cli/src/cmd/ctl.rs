//! `pf1e ctl`: the client of the sweep service. Scriptable: `submit` prints
//! the sweep id alone on the last line of stdout; `--json` prints one JSON
//! document; usage and data errors exit 2 with one line on stderr.

use std::path::PathBuf;

use futures::StreamExt;
use pf1e_coordinator::sweep::{Sweep, bundle_from_disk};
use pf1e_wire::client::Target;
use pf1e_wire::proto;

use super::progress::Progress;
use super::{CmdError, CmdResult, ConnectArgs, document, runtime};

/// Arguments of `pf1e ctl`.
#[derive(Debug, Clone, clap::Args)]
pub struct CtlArgs {
    #[command(flatten)]
    pub connect: ConnectArgs,
    #[command(subcommand)]
    pub command: CtlCommand,
}

/// The `ctl` subcommands.
#[derive(Debug, Clone, clap::Subcommand)]
pub enum CtlCommand {
    /// Submit a sweep (the file and everything it references); print its id.
    Submit {
        /// The sweep file.
        sweep: PathBuf,
        /// Follow the sweep until it ends (exit 0 when it succeeds).
        #[arg(long)]
        watch: bool,
        /// No progress display.
        #[arg(long, short)]
        quiet: bool,
    },
    /// Follow a sweep until it ends.
    Watch {
        /// Sweep id.
        id: u64,
        /// Print each finished cell as a JSON line on stdout.
        #[arg(long)]
        cells: bool,
    },
    /// The state of one sweep, or of every sweep and the coordinator.
    Status {
        /// Sweep id.
        id: Option<u64>,
        /// One JSON document.
        #[arg(long)]
        json: bool,
    },
    /// The results of a finished sweep.
    Results {
        /// Sweep id.
        id: u64,
        /// One JSON document.
        #[arg(long)]
        json: bool,
        #[command(flatten)]
        report: super::report::ReportArgs,
    },
    /// Cancel a sweep.
    Cancel {
        /// Sweep id.
        id: u64,
    },
    /// Connected workers.
    Workers {
        /// One JSON document.
        #[arg(long)]
        json: bool,
    },
}

fn rpc<T>(r: Result<tonic::Response<T>, tonic::Status>) -> Result<T, CmdError> {
    r.map(tonic::Response::into_inner).map_err(|s| CmdError::from_status(&s))
}

/// Runs `pf1e ctl`.
pub fn run(args: &CtlArgs) -> CmdResult {
    // A bad sweep file is refused before any connection.
    let bundle = match &args.command {
        CtlCommand::Submit { sweep, .. } => {
            let bundle = bundle_from_disk(sweep).map_err(CmdError::data)?;
            let parsed = Sweep::from_bundle(&bundle).map_err(CmdError::data)?;
            parsed.validate(&bundle.sweep_yaml).map_err(CmdError::data)?;
            Some(bundle)
        }
        _ => None,
    };
    let target = args.connect.target()?;
    runtime()?.block_on(async move { dispatch(&target, &args.command, bundle).await })
}

async fn dispatch(target: &Target, command: &CtlCommand, bundle: Option<proto::SweepBundle>) -> CmdResult {
    let mut client = target.control().await.map_err(CmdError::runtime)?;
    match command {
        CtlCommand::Submit { watch, quiet, .. } => {
            let id = rpc(client.submit(proto::SubmitRequest { bundle }).await)?.sweep_id;
            if *watch {
                let info = follow(&mut client, id, *quiet, false).await?;
                println!("{id}");
                return finished_ok(&info);
            }
            println!("{id}");
            Ok(())
        }
        CtlCommand::Watch { id, cells } => {
            let info = follow(&mut client, *id, false, *cells).await?;
            eprintln!("sweep {} {}", info.id, info.status);
            finished_ok(&info)
        }
        CtlCommand::Status { id: Some(id), json } => {
            let mut info = rpc(client.get(proto::GetRequest { sweep_id: *id }).await)?;
            info.results_json.clear();
            if *json {
                println!("{}", document(&info, false));
            } else {
                let s = info.stats.unwrap_or_default();
                println!("sweep {} ({}): {}", info.id, info.name, info.status);
                println!("  cells  {}/{}", s.cells_done, s.cells_total);
                println!("  runs   {}/{}", s.runs_done, s.runs_total);
                println!(
                    "  shards {} total, {} computed, {} from cache, {} queued, {} leased",
                    s.shards_total, s.shards_computed, s.shards_from_cache, s.shards_queued, s.shards_leased
                );
                if !info.error.is_empty() {
                    println!("  error  {}", info.error);
                }
            }
            Ok(())
        }
        CtlCommand::Status { id: None, json } => {
            let list = rpc(client.list(proto::ListRequest {}).await)?;
            let c = list.coordinator.unwrap_or_default();
            if *json {
                let doc = serde_json::json!({
                    "coordinator": {
                        "shards_queued": c.shards_queued,
                        "shards_leased": c.shards_leased,
                        "shards_done": c.shards_done,
                        "cache_hits": c.cache_hits,
                        "workers": c.workers,
                        "runs_done": c.runs_done,
                        "runs_per_second": c.runs_per_second,
                    },
                    "sweeps": list.sweeps.iter().map(|i| document(i, false)).collect::<Vec<_>>(),
                });
                println!("{doc}");
            } else {
                println!(
                    "coordinator: {} workers, {} shards queued, {} leased, {} done, {} cache hits, {:.1} runs/s",
                    c.workers,
                    c.shards_queued,
                    c.shards_leased,
                    c.shards_done,
                    c.cache_hits,
                    c.runs_per_second
                );
                for i in &list.sweeps {
                    let s = i.stats.unwrap_or_default();
                    println!(
                        "{:>6}  {:<10} {:<24} {}/{} cells  {}/{} runs  {} shards ({} computed, {} from cache)",
                        i.id,
                        i.status,
                        i.name,
                        s.cells_done,
                        s.cells_total,
                        s.runs_done,
                        s.runs_total,
                        s.shards_total,
                        s.shards_computed,
                        s.shards_from_cache
                    );
                }
            }
            Ok(())
        }
        CtlCommand::Results { id, json, report } => {
            let info = rpc(client.get(proto::GetRequest { sweep_id: *id }).await)?;
            if info.status != "done" {
                return Err(CmdError::runtime(format!("sweep {id} is {} and has no results", info.status)));
            }
            super::report::emit(&info, *json, report)
        }
        CtlCommand::Cancel { id } => {
            let info = rpc(client.cancel(proto::CancelRequest { sweep_id: *id }).await)?;
            println!("sweep {} {}", info.id, info.status);
            Ok(())
        }
        CtlCommand::Workers { json } => {
            let list = rpc(client.list_workers(proto::ListWorkersRequest {}).await)?;
            if *json {
                let doc: Vec<_> = list
                    .workers
                    .iter()
                    .map(|w| {
                        serde_json::json!({
                            "id": w.worker_id, "name": w.name, "threads": w.threads,
                            "leases": w.leases, "shards_done": w.shards_done, "last_seen_ms": w.last_seen_ms,
                        })
                    })
                    .collect();
                println!("{}", serde_json::Value::Array(doc));
            } else {
                for w in &list.workers {
                    println!(
                        "{:<6} {:<20} {:>3} threads {:>5} leases {:>8} shards done, seen {} ms ago",
                        w.worker_id, w.name, w.threads, w.leases, w.shards_done, w.last_seen_ms
                    );
                }
            }
            Ok(())
        }
    }
}

fn finished_ok(info: &proto::SweepInfo) -> CmdResult {
    if info.status == "done" {
        Ok(())
    } else {
        Err(CmdError::runtime(format!(
            "sweep {} {}{}",
            info.id,
            info.status,
            if info.error.is_empty() { String::new() } else { format!(": {}", info.error) }
        )))
    }
}

/// Follows a sweep to its end; returns its final state.
async fn follow(
    client: &mut pf1e_wire::client::Control,
    id: u64,
    quiet: bool,
    print_cells: bool,
) -> Result<proto::SweepInfo, CmdError> {
    let mut stream = rpc(client.watch(proto::WatchRequest { sweep_id: id }).await)?;
    let mut progress = Progress::new(quiet);
    let mut last = None;
    while let Some(event) = stream.next().await {
        let event = event.map_err(|s| CmdError::from_status(&s))?;
        if print_cells {
            for c in &event.finished_cells {
                println!("{c}");
            }
        }
        if let Some(info) = event.info {
            progress.update(&info);
            last = Some(info);
        }
    }
    progress.finish();
    last.filter(|i| i.status != "running")
        .ok_or_else(|| CmdError::runtime(format!("lost the coordinator while watching sweep {id}")))
}
