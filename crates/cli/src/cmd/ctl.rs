//! `pf1e ctl`: the client of the sweep service. Scriptable: `submit` prints
//! the sweep id alone on the last line of stdout; `--json` prints one JSON
//! document; usage and data errors exit 2 with one line on stderr.

use std::path::PathBuf;

use futures::StreamExt;
use pf1e_coordinator::sweep::{Sweep, bundle_from_disk};
use pf1e_wire::client::Target;
use pf1e_wire::proto;
use pf1e_wire::status::{CoordinatorStats, FinishedCell, StatusDocument, SweepInfo, SweepStatus, WorkerInfo};

use super::progress::Progress;
use super::{ConnectArgs, document, runtime};
use crate::error::{CliError, CliResult};

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
        #[command(flatten)]
        llm: Box<crate::llm::report::ResultsLlmArgs>,
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

fn rpc<T>(r: Result<tonic::Response<T>, tonic::Status>) -> Result<T, CliError> {
    r.map(tonic::Response::into_inner).map_err(|s| CliError::from_status(&s))
}

/// Runs `pf1e ctl`.
pub fn run(args: &CtlArgs) -> CliResult {
    // A bad sweep file is refused before any connection.
    let bundle = match &args.command {
        CtlCommand::Submit { sweep, .. } => {
            let bundle = bundle_from_disk(sweep)?;
            let parsed = Sweep::from_bundle(&bundle)?;
            parsed.validate(&bundle.sweep_yaml)?;
            Some(bundle)
        }
        _ => None,
    };
    let target = args.connect.target()?;
    runtime()?.block_on(async move { dispatch(&target, &args.command, bundle).await })
}

async fn dispatch(target: &Target, command: &CtlCommand, bundle: Option<proto::SweepBundle>) -> CliResult {
    let mut client = target.control().await?;
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
            let info = SweepInfo::try_from(&rpc(client.get(proto::GetRequest { sweep_id: *id }).await)?)?;
            if *json {
                println!("{}", document(&info, false));
            } else {
                let s = info.stats;
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
            let c = list.coordinator.as_ref().map(CoordinatorStats::from).unwrap_or_default();
            let sweeps = list.sweeps.iter().map(SweepInfo::try_from).collect::<Result<Vec<_>, _>>()?;
            if *json {
                let doc = StatusDocument {
                    coordinator: c,
                    sweeps: sweeps.iter().map(|i| i.document(false)).collect(),
                };
                let doc = serde_json::to_value(doc).unwrap_or_default();
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
                for i in &sweeps {
                    let s = i.stats;
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
        CtlCommand::Results { id, json, report, llm } => {
            let info = SweepInfo::try_from(&rpc(client.get(proto::GetRequest { sweep_id: *id }).await)?)?;
            if info.status != SweepStatus::Done {
                return Err(CliError::environment(format!(
                    "sweep {id} is {} and has no results",
                    info.status
                )));
            }
            super::report::emit(&info, *json, report)?;
            crate::llm::report::after_results(&info, *json, llm).await
        }
        CtlCommand::Cancel { id } => {
            let info =
                SweepInfo::try_from(&rpc(client.cancel(proto::CancelRequest { sweep_id: *id }).await)?)?;
            println!("sweep {} {}", info.id, info.status);
            Ok(())
        }
        CtlCommand::Workers { json } => {
            let list = rpc(client.list_workers(proto::ListWorkersRequest {}).await)?;
            let workers: Vec<WorkerInfo> = list.workers.iter().map(WorkerInfo::from).collect();
            if *json {
                println!("{}", serde_json::to_value(&workers).unwrap_or_default());
            } else {
                for w in &workers {
                    println!(
                        "{:<6} {:<20} {:>3} threads {:>5} leases {:>8} shards done, seen {} ms ago",
                        w.id, w.name, w.threads, w.leases, w.shards_done, w.last_seen_ms
                    );
                }
            }
            Ok(())
        }
    }
}

fn finished_ok(info: &SweepInfo) -> CliResult {
    if info.status == SweepStatus::Done {
        Ok(())
    } else {
        Err(CliError::environment(format!(
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
) -> Result<SweepInfo, CliError> {
    let mut stream = rpc(client.watch(proto::WatchRequest { sweep_id: id }).await)?;
    let mut progress = Progress::new(quiet);
    let mut last = None;
    while let Some(event) = stream.next().await {
        let event = event.map_err(|s| CliError::from_status(&s))?;
        if print_cells {
            for c in &event.cells {
                let c = FinishedCell::try_from(c)?;
                println!("{}", serde_json::to_value(&c.cell).unwrap_or_default());
            }
        }
        if let Some(info) = &event.info {
            let info = SweepInfo::try_from(info)?;
            progress.update(&info);
            last = Some(info);
        }
    }
    progress.finish();
    last.filter(|i| i.status.is_terminal())
        .ok_or_else(|| CliError::environment(format!("lost the coordinator while watching sweep {id}")))
}
