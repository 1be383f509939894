//! `pf1e sim ... --llm-side NAME`: the per-turn showcase. The model plays
//! one side's turns (at most 20 battles), the other sides play the default
//! policy; the balance report of those battles is printed as usual, then
//! what the model did; every call goes to a JSON-lines replay log that
//! `pf1e replay` plays back without a model.

use std::path::{Path, PathBuf};

use pf1e_engine::combat::SimOptions;
use pf1e_engine::report::Report;
use pf1e_engine::summary::Summary;
use pf1e_llm::{MAX_SHOWCASE_RUNS, Showcase, ShowcaseError, TurnPlayer};
use pf1e_wire::canon::hex;
use pf1e_wire::scenario::{Playable, Scenario, ScenarioSide};
use serde_json::{Value, json};

use super::report::LlmReportArgs;
use super::{LlmArgs, LlmCacheArgs};
use crate::error::{CliError, CliResult};
use crate::i18n::Lang;
use crate::output;
use crate::render::balance;
use crate::render::llm::showcase as render_showcase;
use crate::scenario::SideArg;

/// Default replay log of a showcase.
pub const DEFAULT_LOG: &str = "llm-showcase.jsonl";

/// The LLM flags of `pf1e sim`.
#[derive(Debug, Clone, Default, clap::Args)]
pub struct SimLlmArgs {
    /// Play this side's turns through the model (per-turn showcase, at most 20 runs); the other sides play the default policy.
    #[arg(long, value_name = "SIDE", help_heading = "LLM")]
    pub llm_side: Option<String>,
    /// Replay log of the showcase: every model call, as JSON lines [default: DIR/llm-showcase.jsonl with --out, else beside the cache].
    #[arg(long, value_name = "FILE", requires = "llm_side", help_heading = "LLM")]
    pub llm_log: Option<PathBuf>,
    /// Directory of the showcase's replay log (llm-showcase.jsonl); never the current directory unless named.
    #[arg(long, value_name = "DIR", requires = "llm_side", conflicts_with = "llm_log", help_heading = "LLM")]
    pub out: Option<PathBuf>,
    #[command(flatten)]
    pub report: LlmReportArgs,
    #[command(flatten)]
    pub cache: LlmCacheArgs,
    #[command(flatten)]
    pub llm: LlmArgs,
}

/// The scenario of the battles, by content, for the log's header.
pub fn scenario_json(
    map: &Path,
    sides: &[SideArg],
    options: &SimOptions,
) -> Result<(Value, Scenario), CliError> {
    let read = |p: &Path| {
        std::fs::read(p).map_err(|e| CliError::input(format!("{}: cannot read: {e}", p.display())))
    };
    let text = |bytes: &[u8], p: &Path| {
        String::from_utf8(bytes.to_vec())
            .map_err(|_| CliError::input(format!("{}: not UTF-8 text", p.display())))
    };
    let map_yaml = read(map)?;
    let mut scenario_sides = Vec::new();
    let mut sides_json = Vec::new();
    for side in sides {
        let mut combatants = Vec::new();
        let mut files = Vec::new();
        for f in &side.files {
            let content = read(f)?;
            files.push(json!({"origin": f.display().to_string(), "json": text(&content, f)?}));
            combatants.push((f.display().to_string(), content));
        }
        sides_json.push(json!({"name": side.name, "combatants": files}));
        scenario_sides.push(ScenarioSide { name: side.name.clone(), zone: None, combatants });
    }
    let scenario =
        Scenario::new(map.display().to_string(), map_yaml.clone(), scenario_sides, options.clone());
    // The spell and creature files the casters need travel with the log.
    let scenario = crate::scenario::with_library_beside(scenario, map, sides)?;
    let files = |list: &[(String, Vec<u8>)]| -> Result<Vec<Value>, CliError> {
        list.iter()
            .map(|(origin, content)| Ok(json!({"origin": origin, "json": text(content, Path::new(origin))?})))
            .collect()
    };
    let value = json!({
        "hash": hex(&scenario.hash),
        "map": {"origin": map.display().to_string(), "yaml": text(&map_yaml, map)?},
        "sides": sides_json,
        "spells": files(&scenario.spells)?,
        "creatures": files(&scenario.creatures)?,
        "options": options,
    });
    Ok((value, scenario))
}

/// The scenario of a log's header; its hash must match (the files were
/// not edited).
pub fn scenario_from_json(value: &Value, file: &str) -> Result<Scenario, CliError> {
    let bad =
        |place: &str, what: &str| CliError::input(format!("{file}: line 1: header.scenario.{place}: {what}"));
    let str_at =
        |v: &Value, place: &str| v.as_str().map(str::to_string).ok_or_else(|| bad(place, "expected text"));
    let map = &value["map"];
    let mut sides = Vec::new();
    for (k, side) in
        value["sides"].as_array().ok_or_else(|| bad("sides", "expected a list"))?.iter().enumerate()
    {
        let mut combatants = Vec::new();
        let files = side["combatants"]
            .as_array()
            .ok_or_else(|| bad(&format!("sides[{k}].combatants"), "expected a list"))?;
        for (c, f) in files.iter().enumerate() {
            let place = format!("sides[{k}].combatants[{c}]");
            combatants.push((str_at(&f["origin"], &place)?, str_at(&f["json"], &place)?.into_bytes()));
        }
        sides.push(ScenarioSide {
            name: str_at(&side["name"], &format!("sides[{k}].name"))?,
            zone: None,
            combatants,
        });
    }
    let options: SimOptions =
        serde_json::from_value(value["options"].clone()).map_err(|e| bad("options", &e.to_string()))?;
    // Spell and creature files (absent from logs of battles without casters).
    let library = |key: &str| -> Result<Vec<(String, Vec<u8>)>, CliError> {
        let Some(list) = value.get(key) else { return Ok(Vec::new()) };
        let list = list.as_array().ok_or_else(|| bad(key, "expected a list"))?;
        list.iter()
            .enumerate()
            .map(|(k, f)| {
                let place = format!("{key}[{k}]");
                Ok((str_at(&f["origin"], &place)?, str_at(&f["json"], &place)?.into_bytes()))
            })
            .collect()
    };
    let (spells, creatures) = (library("spells")?, library("creatures")?);
    let scenario = Scenario::new(
        str_at(&map["origin"], "map.origin")?,
        str_at(&map["yaml"], "map.yaml")?.into_bytes(),
        sides,
        options,
    )
    .with_library(spells, creatures)
    .map_err(|e| CliError::input(format!("{file}: line 1: header.scenario: {e}")))?;
    if value["hash"].as_str() != Some(hex(&scenario.hash).as_str()) {
        return Err(bad(
            "hash",
            "does not match the scenario's content (edited, or written by another rules version)",
        ));
    }
    Ok(scenario)
}

/// Where the replay log goes: `--llm-log FILE`, else `--out DIR`, else
/// beside the cache (never the current directory unasked).
fn log_path(args: &SimLlmArgs) -> PathBuf {
    match (&args.llm_log, &args.out) {
        (Some(file), _) => file.clone(),
        (None, Some(dir)) => dir.join(DEFAULT_LOG),
        (None, None) => {
            let cache = args.cache.llm_cache.clone().unwrap_or_else(crate::cmd::cache::default_db);
            cache.parent().map_or_else(|| PathBuf::from(DEFAULT_LOG), |d| d.join(DEFAULT_LOG))
        }
    }
}

/// What `pf1e sim` asks of a showcase: its batch and output flags. Passed
/// as values so that this module does not depend on `sim` (which calls it).
pub struct SimRequest<'a> {
    /// The map file.
    pub map: &'a std::path::Path,
    /// The batch's seed.
    pub seed: u64,
    /// Battles asked for.
    pub runs: u64,
    /// `--transcript`.
    pub transcript: bool,
    /// `--json`.
    pub json: bool,
    /// The LLM flags of `sim`.
    pub llm: &'a SimLlmArgs,
}

/// Runs the showcase of `pf1e sim` (`playable` and `options` as `sim` built them).
pub fn run(
    sim: &SimRequest<'_>,
    side: &str,
    sides: &[SideArg],
    playable: &Playable,
    options: &SimOptions,
    lang: Lang,
) -> CliResult {
    let args = sim.llm;
    let (map, seed, runs, transcript) = (sim.map, sim.seed, sim.runs, sim.transcript);
    let json_output = sim.json;
    if runs > MAX_SHOWCASE_RUNS {
        return Err(ShowcaseError::TooManyRuns { runs }.into());
    }
    args.report.check(json_output)?;
    pf1e_llm::showcase::side_index(playable.prepared.sides(), side)?;
    let (scenario, _) = scenario_json(map, sides, options)?;
    let cache = args.cache.open()?;
    let llm = args.llm.build(cache.clone())?;
    let player = TurnPlayer::new(&llm.pack).map_err(CliError::input)?.with_max_repairs(llm.max_repairs);
    let rt = super::runtime()?;
    let showcase = Showcase {
        player: &player,
        model: &llm.client,
        runtime: rt.handle().clone(),
        side: side.to_string(),
    };
    let played =
        showcase.play(&playable.encounter, &playable.prepared, options, seed, runs, transcript, scenario)?;
    let log_path = log_path(args);
    if let Some(dir) = log_path.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir).map_err(|e| {
            CliError::environment(format!("{}: cannot create the log directory: {e}", dir.display()))
        })?;
    }
    std::fs::write(&log_path, played.log.to_jsonl()).map_err(|e| {
        CliError::environment(format!("{}: cannot write the replay log: {e}", log_path.display()))
    })?;
    let turns = player.stats();
    let model_turns = turns.calls.saturating_sub(turns.repairs_attempted).saturating_sub(turns.fallbacks);

    let encounter = &playable.encounter;
    let mut summary = Summary::new(encounter.sides.len(), encounter.combatants.len());
    for outcome in &played.outcomes {
        summary.add(outcome);
    }
    let lines = played.transcript.as_ref().map(crate::render::events::english_lines);
    let report = Report::build(encounter, &summary, options, seed, lines);
    let stats = player.stats();
    let block = render_showcase(&played, &stats, &log_path);
    let client = llm.client.stats();
    tracing::info!(requests = client.requests, cache_hits = client.cache_hits, "showcase calls");
    // A showcase in which the model played no turn showed nothing of it:
    // the battles and the log are kept, but the command fails.
    let no_turn = || {
        CliError::environment(format!(
            "the model played no turn of side {side:?} ({} answers asked, {} turns fell back to the default policy; see {})",
            turns.calls,
            turns.fallbacks,
            log_path.display()
        ))
    };
    if json_output {
        output::json(&report)?;
        output::note(block.trim_end());
        return if model_turns == 0 { Err(no_turn()) } else { Ok(()) };
    }
    output::print(&format!("{}\n{block}", balance::text(&report, played.transcript.as_ref(), lang)))?;
    if model_turns == 0 {
        return Err(no_turn());
    }
    if args.report.llm_report {
        let facts_report = Report { transcript: None, ..report };
        let facts = format!("{}\n{block}", balance::text(&facts_report, None, lang));
        drop(rt);
        super::report::narrate_blocking(&facts, &args.report, &args.llm, cache)?;
    }
    Ok(())
}

/// `--llm-report` after a plain `pf1e sim`: the balance report (without
/// the transcript) is the facts.
pub fn after_sim(report: &Report, args: &SimLlmArgs, json_output: bool, lang: Lang) -> CliResult {
    if !args.report.llm_report {
        return Ok(());
    }
    args.report.check(json_output)?;
    let facts = balance::text(&Report { transcript: None, ..report.clone() }, None, lang);
    super::report::narrate_blocking(&facts, &args.report, &args.llm, args.cache.open()?)
}
