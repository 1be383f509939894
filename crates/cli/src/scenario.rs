//! Building an encounter from a map file and `--side NAME FILE...` groups.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

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
