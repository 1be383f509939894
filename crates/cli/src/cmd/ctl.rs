//! `pf1e ctl`: the client of the sweep service. Scriptable: `submit` prints
//! the sweep id alone on the last line of stdout; `--json` prints one JSON
//! document on every subcommand; usage and data errors exit 2 with one line
//! on stderr. `--coordinator`, `--token-file` and `--tls-ca` are accepted
//! anywhere on the line.

use std::path::PathBuf;

use futures::StreamExt;
use pf1e_coordinator::sweep::{SweepDraft, bundle_from_disk};
use pf1e_wire::client::Target;
use pf1e_wire::proto;
use pf1e_wire::status::{CoordinatorStats, FinishedCell, StatusDocument, SweepInfo, SweepStatus, WorkerInfo};

use super::progress::Progress;
use super::{ConnectArgs, runtime};
use crate::GlobalArgs;
use crate::error::{CliError, CliResult};
use crate::help;
use crate::i18n::{Lang, T};
use crate::output;
use crate::render::table::{self, Align};

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
    #[command(after_help = help::CTL_SUBMIT)]
    Submit {
        /// The sweep file.
        sweep: PathBuf,
        /// Follow the sweep until it ends (exit 0 when it succeeds).
        #[arg(long)]
        watch: bool,
        /// Print `{"id": N}` (with --watch: the final state of the sweep).
        #[arg(long)]
        json: bool,
        /// Share of the workers relative to the other sweeps of its priority (1 to 100).
        #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=i64::from(pf1e_coordinator::scheduler::MAX_WEIGHT)))]
        weight: u32,
        /// Priority class (0 to 9): sweeps of a higher priority are served first.
        #[arg(long, default_value_t = 0, value_parser = clap::value_parser!(u32).range(0..=i64::from(pf1e_coordinator::scheduler::MAX_PRIORITY)))]
        priority: u32,
    },
    /// Follow a sweep until it ends.
    #[command(after_help = help::CTL_WATCH)]
    Watch {
        /// Sweep id.
        id: u64,
        /// Print each finished cell as a JSON line on stdout.
        #[arg(long, conflicts_with = "json")]
        cells: bool,
        /// Print the final state of the sweep as one JSON document.
        #[arg(long)]
        json: bool,
    },
    /// The state of one sweep, or of every sweep and the coordinator.
    #[command(after_help = help::CTL_STATUS)]
    Status {
        /// Sweep id.
        id: Option<u64>,
        /// One JSON document.
        #[arg(long)]
        json: bool,
    },
    /// The results of a finished sweep.
    #[command(after_help = help::CTL_RESULTS)]
    Results {
        /// Sweep id.
        id: u64,
        #[command(flatten)]
        report: super::report::ReportArgs,
        #[command(flatten)]
        llm: Box<crate::llm::report::ResultsLlmArgs>,
    },
    /// Cancel a sweep.
    #[command(after_help = help::CTL_CANCEL)]
    Cancel {
        /// Sweep id.
        id: u64,
        /// Print the sweep's state as one JSON document.
        #[arg(long)]
        json: bool,
    },
    /// Connected workers.
    #[command(after_help = help::CTL_WORKERS)]
    Workers {
        /// One JSON document.
        #[arg(long)]
        json: bool,
    },
    /// Remove the journals of old ended sweeps while the coordinator runs
    /// (running sweeps and cached shards stay).
    #[command(after_help = help::CTL_GC)]
    Gc {
        /// Ended sweeps to keep, newest first (0 to 1000000).
        #[arg(long, default_value_t = 10, value_name = "N", value_parser = clap::value_parser!(u32).range(0..=pf1e_coordinator::scheduler::MAX_KEEP_SWEEPS as i64))]
        keep: u32,
        /// One JSON document.
        #[arg(long)]
        json: bool,
    },
    /// Ask the coordinator's gRPC health service (grpc.health.v1); exit 0 when SERVING.
    #[command(after_help = help::CTL_HEALTH)]
    Health {
        /// The service to ask about (default: the whole server), e.g. pf1e.v1.ControlService.
        #[arg(long, default_value = "")]
        service: String,
        /// One JSON document.
        #[arg(long)]
        json: bool,
    },
}

pub(crate) fn rpc<T>(r: Result<tonic::Response<T>, tonic::Status>) -> Result<T, CliError> {
    r.map(tonic::Response::into_inner).map_err(|s| CliError::from_status(&s))
}

/// Runs `pf1e ctl`.
pub fn run(args: &CtlArgs, global: &GlobalArgs) -> CliResult {
    // A bad sweep file is refused before any connection.
    let bundle = match &args.command {
        CtlCommand::Submit { sweep, weight, priority, .. } => {
            let mut bundle = bundle_from_disk(sweep)?;
            SweepDraft::from_bundle(&bundle)?.validate()?;
            bundle.weight = *weight;
            bundle.priority = *priority;
            Some(bundle)
        }
        _ => None,
    };
    let target = args.connect.target()?;
    let lang = global.lang();
    runtime()?.block_on(async move { dispatch(&target, &args.command, bundle, lang, global.quiet).await })
}

async fn dispatch(
    target: &Target,
    command: &CtlCommand,
    bundle: Option<proto::SweepBundle>,
    lang: Lang,
    quiet: bool,
) -> CliResult {
    if let CtlCommand::Health { service, json } = command {
        return health(target, service, *json).await;
    }
    let mut client = target.control().await?;
    match command {
        CtlCommand::Health { .. } => Ok(()),
        CtlCommand::Submit { watch, json, .. } => {
            let id = rpc(client.submit(proto::SubmitRequest { bundle }).await)?.sweep_id;
            tracing::debug!(sweep = id, "submitted");
            let workers = rpc(client.list_workers(proto::ListWorkersRequest {}).await)?;
            if workers.workers.is_empty() && !quiet {
                output::note(&format!(
                    "warning: no worker is connected to {}: sweep {id} waits until one is (start one with `pf1e worker --coordinator {}`)",
                    target.url, target.url
                ));
            }
            if *watch {
                let info = follow(&mut client, id, quiet, false, lang).await?;
                if *json {
                    output::json(&info.document(false))?;
                } else {
                    output::println(&id.to_string())?;
                }
                return finished_ok(&info);
            }
            if *json {
                return output::json(&serde_json::json!({ "id": id }));
            }
            output::println(&id.to_string())
        }
        CtlCommand::Watch { id, cells, json } => {
            let info = follow(&mut client, *id, quiet, *cells, lang).await?;
            if *json {
                output::json(&info.document(false))?;
            } else if !quiet {
                output::note(&lang.f(T::Sweep, &[&info.id, &info.name, &info.status]));
            }
            finished_ok(&info)
        }
        CtlCommand::Status { id: Some(id), json } => {
            let info = SweepInfo::try_from(&rpc(client.get(proto::GetRequest { sweep_id: *id }).await)?)?;
            if *json {
                return output::json(&info.document(false));
            }
            output::print(&sweep_status(&info, lang))
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
                return output::json(&doc);
            }
            output::print(&coordinator_status(&c, &sweeps, lang))
        }
        CtlCommand::Results { id, report, llm } => {
            let info = SweepInfo::try_from(&rpc(client.get(proto::GetRequest { sweep_id: *id }).await)?)?;
            match info.status {
                SweepStatus::Done => {
                    let json = report.format() == super::report::Format::Json;
                    llm.report.check(json)?;
                    super::report::emit(&info, report, lang)?;
                    crate::llm::report::after_results(&info, json, llm, lang).await
                }
                SweepStatus::Running => Err(CliError::environment(format!(
                    "sweep {id} is still running and has no results yet: follow it with `pf1e ctl watch {id}`, then ask again"
                ))),
                other => Err(CliError::environment(format!(
                    "sweep {id} is {other} and has no results{}",
                    if info.error.is_empty() { String::new() } else { format!(": {}", info.error) }
                ))),
            }
        }
        CtlCommand::Cancel { id, json } => {
            let info =
                SweepInfo::try_from(&rpc(client.cancel(proto::CancelRequest { sweep_id: *id }).await)?)?;
            if *json {
                return output::json(&info.document(false));
            }
            output::println(&lang.f(T::Sweep, &[&info.id, &info.name, &info.status]))
        }
        CtlCommand::Gc { keep, json } => {
            let gc = match client.collect_garbage(proto::CollectGarbageRequest { keep: *keep }).await {
                Err(s) if s.code() == tonic::Code::Unimplemented => {
                    return Err(CliError::environment(format!(
                        "the coordinator at {} predates `pf1e ctl gc`: stop it and run `pf1e cache gc --keep {keep} --db FILE`",
                        target.url
                    )));
                }
                answer => rpc(answer)?,
            };
            if *json {
                return output::json(&serde_json::json!({
                    "removed": gc.removed, "bytes": gc.bytes, "kept": gc.kept, "running": gc.running,
                }));
            }
            output::println(&lang.f(
                T::CtlGcRemoved,
                &[&gc.removed, &super::cache::size_text(gc.bytes), &gc.kept, &gc.running],
            ))
        }
        CtlCommand::Workers { json } => {
            let list = rpc(client.list_workers(proto::ListWorkersRequest {}).await)?;
            let workers: Vec<WorkerInfo> = list.workers.iter().map(WorkerInfo::from).collect();
            if *json {
                return output::json(&workers);
            }
            output::print(&workers_table(&workers, lang))
        }
    }
}

/// `ctl health`: the standard gRPC health check, which needs no token.
async fn health(target: &Target, service: &str, json: bool) -> CliResult {
    let channel = target.channel().await?;
    let mut client = tonic_health::pb::health_client::HealthClient::new(channel);
    let answer = client
        .check(tonic_health::pb::HealthCheckRequest { service: service.to_string() })
        .await
        .map_err(|s| CliError::from_status(&s))?
        .into_inner();
    let status = tonic_health::pb::health_check_response::ServingStatus::try_from(answer.status)
        .map_or("UNKNOWN", |s| s.as_str_name());
    if json {
        output::json(&serde_json::json!({ "service": service, "status": status }))?;
    } else {
        output::println(status)?;
    }
    if status == "SERVING" {
        Ok(())
    } else {
        Err(CliError::environment(format!("the coordinator at {} is {status}", target.url)))
    }
}

/// `ctl status ID` for people.
fn sweep_status(info: &SweepInfo, lang: Lang) -> String {
    let s = info.stats;
    let mut out = lang.f(T::SweepStatusTitle, &[&info.id, &info.name, &info.status]) + "\n";
    let label = |t: T, v: String| format!("  {}\n", lang.label(t, v));
    out += &label(T::StatusCells, format!("{}/{}", s.cells_done, s.cells_total));
    let mut runs = format!("{}/{}", s.runs_done, s.runs_total);
    if s.runs_worst_case > s.runs_total {
        runs += &format!(" ({} {})", lang.t(T::StatusWorstCase), s.runs_worst_case);
    }
    out += &label(T::StatusRuns, runs);
    out += &label(
        T::StatusShards,
        lang.f(
            T::StatusShardsDetail,
            &[&s.shards_total, &s.shards_computed, &s.shards_from_cache, &s.shards_queued, &s.shards_leased],
        ),
    );
    if !info.error.is_empty() {
        out += &label(T::StatusError, info.error.clone());
    }
    out
}

/// `ctl status` for people: the coordinator's line, then a table of sweeps.
fn coordinator_status(c: &CoordinatorStats, sweeps: &[SweepInfo], lang: Lang) -> String {
    let mut out = lang.f(
        T::CoordinatorLine,
        &[
            &c.workers,
            &c.shards_queued,
            &c.shards_leased,
            &c.shards_done,
            &c.cache_hits,
            &format!("{:.1}", c.runs_per_second),
        ],
    ) + "\n";
    if sweeps.is_empty() {
        out += lang.t(T::NoSweeps);
        out += "\n";
        return out;
    }
    let headers = [
        T::ColId,
        T::ColStatus,
        T::ColName,
        T::ColCells,
        T::ColRuns,
        T::ColShards,
        T::ColComputed,
        T::ColFromCache,
    ]
    .map(|t| lang.t(t));
    let rows: Vec<Vec<String>> = sweeps
        .iter()
        .map(|i| {
            let s = i.stats;
            vec![
                i.id.to_string(),
                i.status.to_string(),
                i.name.clone(),
                format!("{}/{}", s.cells_done, s.cells_total),
                format!("{}/{}", s.runs_done, s.runs_total),
                s.shards_total.to_string(),
                s.shards_computed.to_string(),
                s.shards_from_cache.to_string(),
            ]
        })
        .collect();
    let aligns = [
        Align::Right,
        Align::Left,
        Align::Left,
        Align::Right,
        Align::Right,
        Align::Right,
        Align::Right,
        Align::Right,
    ];
    out += &table::render(&headers, &aligns, &rows);
    out
}

/// `ctl workers` for people.
fn workers_table(workers: &[WorkerInfo], lang: Lang) -> String {
    if workers.is_empty() {
        return format!("{}\n", lang.t(T::NoWorkers));
    }
    let headers = [T::ColId, T::ColName, T::ColThreads, T::ColLeases, T::ColShardsDone, T::ColLastSeen]
        .map(|t| lang.t(t));
    let rows: Vec<Vec<String>> = workers
        .iter()
        .map(|w| {
            vec![
                w.id.clone(),
                w.name.clone(),
                w.threads.to_string(),
                w.leases.to_string(),
                w.shards_done.to_string(),
                lang.f(T::MsAgo, &[&w.last_seen_ms]),
            ]
        })
        .collect();
    let aligns = [Align::Left, Align::Left, Align::Right, Align::Right, Align::Right, Align::Right];
    table::render(&headers, &aligns, &rows)
}

pub(crate) fn finished_ok(info: &SweepInfo) -> CliResult {
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
pub(crate) async fn follow(
    client: &mut pf1e_wire::client::Control,
    id: u64,
    quiet: bool,
    print_cells: bool,
    lang: Lang,
) -> Result<SweepInfo, CliError> {
    let mut stream = rpc(client.watch(proto::WatchRequest { sweep_id: id }).await)?;
    let mut progress = Progress::new(quiet, lang);
    let mut last = None;
    while let Some(event) = stream.next().await {
        let event = event.map_err(|s| CliError::from_status(&s))?;
        if print_cells {
            for c in &event.cells {
                let c = FinishedCell::try_from(c)?;
                output::println(&output::json_text(&c.cell, false)?)?;
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn empty_lists_say_so_and_tables_have_headers() {
        assert_eq!(workers_table(&[], Lang::En), "no workers\n");
        assert_eq!(workers_table(&[], Lang::Fr), "aucun worker\n");
        let c = CoordinatorStats::default();
        assert!(coordinator_status(&c, &[], Lang::En).ends_with("\nno sweeps\n"));
        let w = WorkerInfo {
            id: "w1".into(),
            name: "host".into(),
            threads: 2,
            leases: 1,
            shards_done: 7,
            last_seen_ms: 40,
        };
        let t = workers_table(&[w], Lang::En);
        assert!(t.starts_with("Id  Name  Threads  Leases  Shards done  Last seen\n"), "{t}");
        assert!(t.contains("40 ms ago"), "{t}");
    }
}
