//! Building an encounter from a map file and `--side NAME FILE...` groups.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use pf1e_engine::combat::{PrepareError, PreparedEncounter};
use pf1e_engine::encounter::{Encounter, EncounterError, SideSpec};
use pf1e_engine::map::Map;
use pf1e_engine::model::{Combatant, load_combatant};

use crate::failure::Failure;

/// One side as given on the command line.
#[derive(Clone, Debug)]
pub struct SideArg {
    /// Side name.
    pub name: String,
    /// Combatant files, in order; a repeated file is another copy.
    pub files: Vec<PathBuf>,
}

/// Turns clap's `--side NAME FILE...` groups into sides; refuses a side given twice.
pub fn parse_sides(groups: &[Vec<String>]) -> Result<Vec<SideArg>, Failure> {
    let mut sides: Vec<SideArg> = Vec::new();
    for group in groups {
        let Some((name, files)) = group.split_first() else { continue };
        if files.is_empty() {
            return Err(Failure::input(format!(
                "command line: --side {name}: the side has no combatant file"
            )));
        }
        if sides.iter().any(|s| &s.name == name) {
            return Err(Failure::input(format!(
                "command line: --side {name}: side given more than once (list all its files after one --side)"
            )));
        }
        sides.push(SideArg { name: name.clone(), files: files.iter().map(PathBuf::from).collect() });
    }
    Ok(sides)
}

/// An encounter ready to play: placed on its map and prepared once.
#[derive(Debug)]
pub struct Scenario {
    /// The encounter, for reports and transcripts.
    pub encounter: Encounter,
    /// The same encounter with its formulas parsed and its map tables built.
    pub prepared: PreparedEncounter,
}

/// Builds and prepares the encounter; a combatant that cannot be prepared is a
/// data error naming its file.
pub fn load(map_path: &Path, sides: &[SideArg]) -> Result<Scenario, Failure> {
    let encounter = build(map_path, sides)?;
    let prepared = PreparedEncounter::new(&encounter).map_err(|err| {
        let file = file_of(&encounter, sides, &err);
        Failure::input(format!("{}: {err}", file.unwrap_or(map_path).display()))
    })?;
    Ok(Scenario { encounter, prepared })
}

/// The file of the combatant a preparation error is about.
fn file_of<'a>(encounter: &Encounter, sides: &'a [SideArg], err: &PrepareError) -> Option<&'a Path> {
    #[allow(unreachable_patterns)] // Later variants may not name a combatant.
    let id = match err {
        PrepareError::BadAttack { combatant, .. } => combatant,
        _ => return None,
    };
    let index = encounter.combatants.iter().position(|d| &d.id == id)?;
    let side_index = encounter.combatants[index].side;
    let side = encounter.sides.get(side_index)?;
    // Deployment keeps each side's combatants in the order their files were given.
    let rank = encounter.combatants[..index].iter().filter(|d| d.side == side_index).count();
    sides.iter().find(|s| &s.name == side)?.files.get(rank).map(PathBuf::as_path)
}

/// Loads the map and every combatant file (each distinct path once) and places the sides.
pub fn build(map_path: &Path, sides: &[SideArg]) -> Result<Encounter, Failure> {
    let map = Map::load(map_path).map_err(Failure::input)?;
    let mut loaded: BTreeMap<&Path, Arc<Combatant>> = BTreeMap::new();
    let mut specs = Vec::with_capacity(sides.len());
    for side in sides {
        let mut combatants = Vec::with_capacity(side.files.len());
        for file in &side.files {
            let spec = match loaded.get(file.as_path()) {
                Some(spec) => Arc::clone(spec),
                None => {
                    let spec = Arc::new(load_combatant(file).map_err(Failure::input)?);
                    loaded.insert(file, Arc::clone(&spec));
                    spec
                }
            };
            combatants.push(spec);
        }
        specs.push(SideSpec { name: side.name.clone(), combatants });
    }
    Encounter::build(Arc::new(map), specs).map_err(|e| encounter_failure(map_path, &e))
}

/// Encounter errors are about the map's deployment versus the sides given.
fn encounter_failure(map_path: &Path, err: &EncounterError) -> Failure {
    let place = match err {
        EncounterError::UnknownSide { side, .. }
        | EncounterError::DuplicateSide(side)
        | EncounterError::EmptySide(side) => format!("deployment (--side {side})"),
        EncounterError::MissingSide(side) => format!("deployment.{side}"),
        EncounterError::ZoneTooSmall { side, zone, .. } => format!("deployment.{side} (zone {zone})"),
        EncounterError::NoDeployment => "deployment".to_string(),
    };
    Failure::input(format!("{}: {place}: {err}", map_path.display()))
}
