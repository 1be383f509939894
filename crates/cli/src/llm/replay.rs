//! `pf1e replay LOG`: plays the battles of a showcase's replay log again,
//! with the recorded actions and no model, and prints the same report. A
//! log whose observations diverge from the battles is refused (exit 2).

use std::path::PathBuf;

use pf1e_engine::report::Report;
use pf1e_engine::summary::Summary;
use pf1e_llm::ReplayLog;

use crate::GlobalArgs;
use crate::error::{CliError, CliResult};
use crate::output;
use crate::render::balance;

/// Arguments of `pf1e replay`.
#[derive(Debug, clap::Args)]
pub struct ReplayArgs {
    /// The replay log written by `pf1e sim --llm-side`.
    pub log: PathBuf,
    /// Print the first battle (run 0) as a table before the report.
    #[arg(long)]
    pub transcript: bool,
    /// Print the report as one JSON object instead of text.
    #[arg(long)]
    pub json: bool,
}

/// Runs `pf1e replay`.
pub fn run(args: &ReplayArgs, global: &GlobalArgs) -> CliResult {
    let lang = global.lang();
    let file = args.log.display().to_string();
    let text = std::fs::read_to_string(&args.log)
        .map_err(|e| CliError::input(format!("{file}: cannot read: {e}")))?;
    let log = ReplayLog::parse(&text, &file)?;
    let scenario = super::showcase::scenario_from_json(&log.header.scenario, &file)?;
    let encounter = scenario.encounter().map_err(CliError::input)?;
    let playable = scenario.prepare(encounter).map_err(CliError::input)?;
    let options = scenario.options.clone();
    let (outcomes, transcript) = pf1e_llm::replay(&log, &playable.prepared, &options, args.transcript)?;
    let encounter = &playable.encounter;
    let mut summary = Summary::new(encounter.sides.len(), encounter.combatants.len());
    for outcome in &outcomes {
        summary.add(outcome);
    }
    let lines = transcript.as_ref().map(crate::render::events::english_lines);
    let report = Report::build(encounter, &summary, &options, log.header.seed, lines);
    let note = format!(
        "replay: {} battles and {} model calls of {} played back from {file}, identical to the log; no model was called\n",
        outcomes.len(),
        log.calls.len(),
        log.header.side
    );
    if args.json {
        output::json(&report)?;
        output::note(note.trim_end());
        return Ok(());
    }
    output::print(&format!("{}\n{note}", balance::text(&report, transcript.as_ref(), lang)))
}
