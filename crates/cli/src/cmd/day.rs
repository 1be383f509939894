//! `pf1e day`: an adventuring day (`docs/days.md`) played many times, and
//! its report: how often the party gets through, who dies and where, what
//! it has left before each fight.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use clap::Args;
use pf1e_engine::combat::SimOptions;
use pf1e_engine::day::file::{DayFile, StepSpec};
use pf1e_engine::day::plan::planned_steps;
use pf1e_engine::day::plan::{PlanResult, compare};
use pf1e_engine::day::summary::DaySummary;
use pf1e_engine::day::tally::DayTally;
use pf1e_engine::day::{Day, Step, play_watched, record_many};
use pf1e_engine::metrics::Confidence;

use super::ctl;
use crate::GlobalArgs;
use crate::error::CliError;
use crate::output;
use crate::render::day as render;
use crate::scenario::{self, SideArg};

/// Arguments of `pf1e day`.
#[derive(Debug, Args)]
pub struct DayArgs {
    /// The day file (YAML; format in docs/days.md).
    #[arg(value_name = "FILE")]
    pub file: PathBuf,
    /// Days to play (default: the file's `runs`).
    #[arg(long, value_parser = crate::args::positive::<u64>)]
    pub runs: Option<u64>,
    /// Seed (default: the file's `seed`); day i uses the streams derived from (seed, i).
    #[arg(long)]
    pub seed: Option<u64>,
    /// Print the figures as one JSON object instead of text.
    #[arg(long)]
    pub json: bool,
    /// Print day N (0-based) fight by fight before the report: every event,
    /// and what the party did between fights.
    #[arg(long, value_name = "N", conflicts_with = "json")]
    pub transcript: Option<u64>,
    /// Worker threads (default: all cores). Results do not depend on it.
    #[arg(long, value_name = "N", value_parser = crate::args::positive::<u32>)]
    pub threads: Option<u32>,
    /// With `--coordinator URL`: play the days on a coordinator's workers
    /// (the day is submitted as a sweep, sharded by day, cached and
    /// resumed like any); the figures are the same as played here.
    #[command(flatten)]
    pub connect: super::ConnectArgs,
}

/// Days played between two tallies: enough to keep every core busy, few
/// enough that their records stay small.
const DAYS_PER_BATCH: u64 = 4096;

/// Reads and checks the day file, builds every encounter, plays the days.
pub fn run(args: &DayArgs, global: &GlobalArgs) -> Result<(), CliError> {
    let origin = args.file.display().to_string();
    let text = std::fs::read_to_string(&args.file)
        .map_err(|e| CliError::input(format!("{origin}: cannot read: {e}")))?;
    let (spec, keys) = pf1e_coordinator::sweep::day_file(&text, &origin)?;
    let day = load(&args.file, &spec)?;
    let options = options(&spec);
    let runs = args.runs.unwrap_or(spec.runs);
    let seed = args.seed.unwrap_or(spec.seed);
    if args.connect.coordinator.is_some() {
        let result = remote(args, &spec, runs, seed, global)?;
        return report(args, global, &day, &options, &result.summary, &result.plans, seed);
    }
    let pool = crate::sim::thread_pool(args.threads)?;
    // The day as written and its plans, their shared first steps played
    // once per day (`day::play_many`): the figures are those of each played
    // alone.
    let plans_spec: Vec<_> = spec.plans();
    let plays: Vec<Vec<Step>> = std::iter::once(day.steps.clone())
        .chain(plans_spec.iter().map(|p| planned_steps(&day.steps, p)))
        .collect();
    let confidence = Confidence::new(keys.confidence)
        .map_err(|e| CliError::input(format!("{origin}: confidence: {e}")))?;
    // The days played by batches, each tallied and its records dropped:
    // the figures are sums over the days, so memory stays that of one
    // batch whatever the runs, and the figures do not depend on the batches.
    let mut tally = DayTally::default();
    let mut played = 0;
    let mut start = 0;
    while start < runs {
        let end = runs.min(start.saturating_add(DAYS_PER_BATCH));
        let (batch, n) = pool.install(|| record_many(&day, &plays, &options, seed, start..end));
        tally.merge(&DayTally::of_plays(&batch));
        played += n;
        start = end;
    }
    tracing::debug!(played, "day steps played");
    tally.plays.resize_with(plays.len(), Default::default);
    let shape = day.shape();
    let summaries: Vec<DaySummary> =
        tally.plays.iter().map(|t| DaySummary::of_tally(&shape, t, confidence)).collect();
    let summary = summaries[0].clone();
    let plans = if plans_spec.is_empty() {
        Vec::new()
    } else {
        let names: Vec<String> = std::iter::once(render::AS_WRITTEN.to_string())
            .chain(plans_spec.into_iter().map(|p| p.name))
            .collect();
        compare(&names, &summaries, &tally.plays, confidence)
    };
    report(args, global, &day, &options, &summary, &plans, seed)
}

/// Prints the figures (JSON or the report, after the transcript asked for).
fn report(
    args: &DayArgs,
    global: &GlobalArgs,
    day: &Day,
    options: &SimOptions,
    summary: &DaySummary,
    plans: &[PlanResult],
    seed: u64,
) -> Result<(), CliError> {
    if args.json {
        return output::json(&Figures { summary, plans });
    }
    let lang = global.lang();
    if let Some(run) = args.transcript {
        let (outcome, transcripts) = play_watched(day, options, seed, run);
        output::print(&render::day_transcript(day, &outcome, &transcripts, run, lang))?;
    }
    output::print(&render::report(summary, plans, seed, lang))
}

/// The day text `yaml` with its top-level `key:` set to `value` (the
/// command line's `--runs` and `--seed`: they are part of the submitted day).
fn with_key(yaml: &str, key: &str, value: u64) -> String {
    let prefix = format!("{key}:");
    let mut out: String =
        yaml.lines().filter(|l| !l.starts_with(&prefix)).fold(String::new(), |mut out, l| {
            out.push_str(l);
            out.push('\n');
            out
        });
    out.push_str(&format!("{prefix} {value}\n"));
    out
}

/// Submits the day to the coordinator of `args.connect`, follows it and
/// returns its figures.
fn remote(
    args: &DayArgs,
    spec: &DayFile,
    runs: u64,
    seed: u64,
    global: &GlobalArgs,
) -> Result<pf1e_wire::results::DayResult, CliError> {
    use pf1e_wire::proto;
    use pf1e_wire::results::JobResult;
    use pf1e_wire::status::SweepInfo;
    let mut bundle = pf1e_coordinator::sweep::bundle_from_disk(&args.file)?;
    if runs != spec.runs {
        bundle.sweep_yaml = with_key(&bundle.sweep_yaml, "runs", runs);
    }
    if seed != spec.seed {
        bundle.sweep_yaml = with_key(&bundle.sweep_yaml, "seed", seed);
    }
    pf1e_coordinator::sweep::SweepDraft::from_bundle(&bundle)?.validate()?;
    let target = args.connect.target()?;
    let (lang, quiet) = (global.lang(), global.quiet);
    let info = super::runtime()?.block_on(async move {
        let mut client = target.control().await?;
        let id = ctl::rpc(client.submit(proto::SubmitRequest { bundle: Some(bundle) }).await)?.sweep_id;
        let end = ctl::follow(&mut client, id, quiet, false, lang).await?;
        ctl::finished_ok(&end)?;
        let got = ctl::rpc(client.get(proto::GetRequest { sweep_id: id }).await)?;
        Ok::<_, CliError>(SweepInfo::try_from(&got)?)
    })?;
    let results = info.results.as_ref().ok_or_else(|| {
        CliError::environment(format!("sweep {} is done but the coordinator sent no results", info.id))
    })?;
    match results.jobs.first().map(|j| &j.result) {
        Some(JobResult::Day(d)) => Ok(d.clone()),
        _ => Err(CliError::environment(format!("sweep {}: the coordinator's results hold no day", info.id))),
    }
}

/// What `--json` prints: the day's figures, and its plans when it has some.
#[derive(serde::Serialize)]
struct Figures<'a> {
    #[serde(flatten)]
    summary: &'a DaySummary,
    #[serde(skip_serializing_if = "<[PlanResult]>::is_empty")]
    plans: &'a [PlanResult],
}

/// The battle options of the day's fights.
fn options(spec: &DayFile) -> SimOptions {
    let mut options = SimOptions::default();
    if let Some(cap) = spec.round_cap {
        options.round_cap = cap;
    }
    options
}

/// Builds the day: each fight from its map, the party and its foes (paths
/// relative to the day file), prepared as `pf1e sim` prepares one.
pub fn load(file: &Path, spec: &DayFile) -> Result<Day, CliError> {
    let dir = file.parent().unwrap_or(Path::new("."));
    let party = SideArg {
        name: spec.party.side.clone(),
        files: spec.party.combatants.iter().map(|p| dir.join(p)).collect(),
    };
    let options = options(spec);
    let mut fights = Vec::new();
    let mut members = None;
    let mut steps = Vec::with_capacity(spec.steps.len());
    for step in &spec.steps {
        steps.push(match step {
            StepSpec::Encounter(e) => {
                let foes = SideArg {
                    name: e.side.clone(),
                    files: e.combatants.iter().map(|p| dir.join(p)).collect(),
                };
                let playable = scenario::load(&dir.join(&e.map), &[party.clone(), foes], &options)?;
                if members.is_none() {
                    members = Some(
                        playable
                            .encounter
                            .combatants
                            .iter()
                            .filter(|d| playable.encounter.sides[d.side] == spec.party.side)
                            .map(|d| Arc::clone(&d.spec))
                            .collect::<Vec<_>>(),
                    );
                }
                fights.push((e.name.clone(), Arc::new(playable.prepared)));
                Step::Encounter(fights.len() - 1)
            }
            StepSpec::ShortRest(spending) => Step::ShortRest(*spending),
            StepSpec::LongRest => Step::LongRest,
            StepSpec::Pass(rounds) => Step::Pass(*rounds),
            StepSpec::Branch(cond, choice) => Step::Branch(*cond, *choice),
        });
    }
    let party_files = members.unwrap_or_default();
    Day::new(spec.name.clone(), party_files, fights, &spec.party.side, steps)
        .map_err(|e| CliError::input(format!("{}: {e}", file.display())))
}
