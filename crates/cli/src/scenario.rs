//! An encounter from a map file and `--side NAME FILE...` groups: the CLI
//! reads the files, and [`pf1e_wire::scenario::Scenario`] builds the
//! encounter the same way sweeps and workers do.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use pf1e_engine::combat::SimOptions;
use pf1e_engine::encounter::EncounterError;
use pf1e_wire::scenario::{Playable, Scenario, ScenarioError, ScenarioSide};

use crate::error::CliError;

/// One side as given on the command line.
#[derive(Clone, Debug)]
pub struct SideArg {
    /// Side name.
    pub name: String,
    /// Combatant files, in order; a repeated file is another copy.
    pub files: Vec<PathBuf>,
}

/// Turns clap's `--side NAME FILE...` groups into sides; refuses a side given twice.
pub fn parse_sides(groups: &[Vec<String>]) -> Result<Vec<SideArg>, CliError> {
    let mut sides: Vec<SideArg> = Vec::new();
    for group in groups {
        let Some((name, files)) = group.split_first() else { continue };
        if files.is_empty() {
            return Err(CliError::input(format!(
                "command line: --side {name}: the side has no combatant file"
            )));
        }
        if sides.iter().any(|s| &s.name == name) {
            return Err(CliError::input(format!(
                "command line: --side {name}: side given more than once (list all its files after one --side)"
            )));
        }
        sides.push(SideArg { name: name.clone(), files: files.iter().map(PathBuf::from).collect() });
    }
    Ok(sides)
}

/// Reads a file whole; the error names it as the engine's messages do.
fn read(path: &Path) -> Result<Vec<u8>, CliError> {
    std::fs::read(path).map_err(|e| CliError::input(format!("{}: cannot read: {e}", path.display())))
}

/// Reads the map and every combatant file (each distinct path once), then
/// builds and prepares the encounter; a data error names its file and place.
pub fn load(map_path: &Path, sides: &[SideArg], options: &SimOptions) -> Result<Playable, CliError> {
    let map_yaml = read(map_path)?;
    let mut files: BTreeMap<&Path, Vec<u8>> = BTreeMap::new();
    let mut scenario_sides = Vec::with_capacity(sides.len());
    for side in sides {
        let mut combatants = Vec::with_capacity(side.files.len());
        for file in &side.files {
            let content = match files.get(file.as_path()) {
                Some(c) => c.clone(),
                None => {
                    let c = read(file)?;
                    files.insert(file, c.clone());
                    c
                }
            };
            combatants.push((file.display().to_string(), content));
        }
        scenario_sides.push(ScenarioSide { name: side.name.clone(), zone: None, combatants });
    }
    let scenario = Scenario::new(map_path.display().to_string(), map_yaml, scenario_sides, options.clone());
    let scenario = with_library_beside(scenario, map_path, sides)?;
    let encounter = scenario.encounter().map_err(|e| failure(map_path, e))?;
    scenario.prepare(encounter).map_err(|e| failure(map_path, e))
}

/// `scenario` with the spells and summonable creatures beside the
/// combatant files of `sides` (`data/spells`, `data/monsters`).
pub fn with_library_beside(
    scenario: Scenario,
    map_path: &Path,
    sides: &[SideArg],
) -> Result<Scenario, CliError> {
    let origins: Vec<String> =
        sides.iter().flat_map(|s| s.files.iter().map(|f| f.display().to_string())).collect();
    let (spell_dirs, creature_dirs) = pf1e_wire::scenario::library_dirs(origins.iter().map(String::as_str));
    scenario
        .with_library(read_dirs(&spell_dirs)?, read_dirs(&creature_dirs)?)
        .map_err(|e| failure(map_path, e))
}

/// Every `*.json` file of the directories that exist, as (path, content), in path order.
pub(crate) fn read_dirs(dirs: &[String]) -> Result<Vec<(String, Vec<u8>)>, CliError> {
    let mut out = Vec::new();
    for dir in dirs {
        let Ok(entries) = std::fs::read_dir(dir) else { continue };
        let mut paths: Vec<PathBuf> = entries
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.extension().is_some_and(|x| x == "json") && p.is_file())
            .collect();
        paths.sort();
        for path in paths {
            out.push((path.display().to_string(), read(&path)?));
        }
    }
    Ok(out)
}

/// The one-line message of a scenario error; deployment errors say which
/// `--side` they are about.
fn failure(map_path: &Path, err: ScenarioError) -> CliError {
    match err {
        ScenarioError::Encounter { source, .. } => encounter_failure(map_path, &source),
        ScenarioError::Combatant { source, .. } => CliError::input(source),
        other => CliError::input(other),
    }
}

/// Encounter errors are about the map's deployment versus the sides given.
fn encounter_failure(map_path: &Path, err: &EncounterError) -> CliError {
    let place = match err {
        EncounterError::UnknownSide { side, .. }
        | EncounterError::DuplicateSide(side)
        | EncounterError::EmptySide(side) => format!("deployment (--side {side})"),
        EncounterError::MissingSide(side) => format!("deployment.{side}"),
        EncounterError::ZoneTooSmall { side, zone, .. } => format!("deployment.{side} (zone {zone})"),
        EncounterError::NoDeployment => "deployment".to_string(),
    };
    CliError::input(format!("{}: {place}: {err}", map_path.display()))
}
