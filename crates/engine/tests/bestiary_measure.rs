//! The measurement of `docs/bestiary.md` ("The party against the CR 3–7
//! bestiary"): the four PCs Esha, Harvie, Oni and Nairda on
//! `data/maps/field.yaml` against each encounter, as `pf1e sim` builds it
//! (sides `players` and `monsters`, combatants in command-line order), with
//! the per-run numbers `pf1e sim` does not print: P(some PC dies) and
//! P(every PC down at the end: the monsters' wins). Ignored by default (it plays thousands of
//! battles); run it with
//! `cargo test --release -p pf1e-engine --test bestiary_measure -- --ignored --nocapture`
//! (`MEASURE_RUNS` sets the battles per encounter, 1000 by default;
//! `MEASURE_ONLY` keeps the encounters whose name contains it, or one of
//! its comma-separated parts).

use std::path::{Path, PathBuf};
use std::sync::Arc;

use pf1e_engine::combat::{PreparedEncounter, SimOptions};
use pf1e_engine::encounter::{Encounter, SideSpec};
use pf1e_engine::map::Map;
use pf1e_engine::model::load_combatant;
use pf1e_engine::runner::run_batch_prepared;

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// The encounters: a name and the monster files (repeated for copies).
const ENCOUNTERS: [(&str, &[&str]); 24] = [
    ("owlbear (CR 4)", &["owlbear"]),
    ("troll (CR 5)", &["troll"]),
    ("two wights (CR 5)", &["wight", "wight"]),
    ("four ghouls (CR 5)", &["ghoul", "ghoul", "ghoul", "ghoul"]),
    ("wraith (CR 5)", &["wraith"]),
    ("basilisk (CR 5)", &["basilisk"]),
    ("young white dragon (CR 6)", &["young_white_dragon"]),
    ("young black dragon (CR 7)", &["young_black_dragon"]),
    ("medusa (CR 7)", &["medusa"]),
    ("troll and two ghouls (CR 6)", &["troll", "ghoul", "ghoul"]),
    // Added with pf1e-rules-11 (grab holds, constrict, rake, powerful charge).
    ("minotaur (CR 4)", &["minotaur"]),
    ("otyugh (CR 4)", &["otyugh"]),
    ("shambling mound (CR 6)", &["shambling_mound"]),
    ("wyvern (CR 6)", &["wyvern"]),
    ("chuul (CR 7)", &["chuul"]),
    // Added with pf1e-rules-12 (weakness, infernal wound and beard, gibbering).
    ("green hag (CR 5)", &["green_hag"]),
    ("bearded devil (CR 5)", &["bearded_devil"]),
    ("gibbering mouther (CR 5)", &["gibbering_mouther"]),
    // Added with pf1e-rules-13 (the mouther's engulf and blood drain above; Wisdom drain).
    ("lamia (CR 6)", &["lamia"]),
    // Added with pf1e-rules-14 (grapples of their own: the kiss, blood drain).
    ("succubus (CR 7)", &["succubus"]),
    ("vampire (CR 9)", &["vampire"]),
    // Added with pf1e-rules-15 (the captivating song).
    ("harpy (CR 4)", &["harpy"]),
    // Added with pf1e-rules-16 (engulf by movement).
    ("gelatinous cube (CR 3)", &["gelatinous_cube"]),
    // Added with pf1e-rules-18 (trample).
    ("elephant (CR 7)", &["elephant"]),
];

const PARTY: [&str; 4] = ["esha", "harvie", "oni", "nairda"];

/// The encounter of `files` against the party, prepared as `pf1e sim` does.
fn prepared(files: &[&str]) -> PreparedEncounter {
    let map = Arc::new(Map::load(&repo().join("data/maps/field.yaml")).expect("field map"));
    let library = Arc::new(
        pf1e_engine::library::load_library(&repo().join("data/spells"), &repo().join("data/monsters"))
            .expect("library"),
    );
    let load = |rel: String| Arc::new(load_combatant(&repo().join(rel)).expect("combatant"));
    let party: Vec<_> = PARTY.iter().map(|p| load(format!("data/pcs/{p}.json"))).collect();
    let monsters: Vec<_> = files.iter().map(|m| load(format!("data/monsters/{m}.json"))).collect();
    let encounter = Encounter::build(
        map,
        vec![
            SideSpec { name: "players".into(), combatants: party },
            SideSpec { name: "monsters".into(), combatants: monsters },
        ],
    )
    .expect("encounter")
    .with_library(library);
    PreparedEncounter::new(&encounter).expect("prepared")
}

/// Every encounter of the measurement prepares and plays (two battles each),
/// so a file added to the list is checked without the long run.
#[test]
fn every_measured_encounter_prepares_and_plays() {
    for (name, files) in ENCOUNTERS {
        let outcomes = run_batch_prepared(&prepared(files), &SimOptions::default(), 1, 0..2);
        assert_eq!(outcomes.len(), 2, "{name}");
        assert!(outcomes.iter().all(|o| o.rounds > 0), "{name}");
    }
}

#[test]
#[ignore = "a measurement: thousands of battles"]
fn the_party_against_the_cr_3_to_7_bestiary() {
    let runs: u64 = std::env::var("MEASURE_RUNS").ok().and_then(|v| v.parse().ok()).unwrap_or(1000);
    println!("| Encounter | Win rate | P(some PC dies) | P(all PCs down) | Rounds |");
    println!("|---|---|---|---|---|");
    let only = std::env::var("MEASURE_ONLY").unwrap_or_default();
    for (name, files) in ENCOUNTERS.into_iter().filter(|(name, _)| only.split(',').any(|o| name.contains(o)))
    {
        let outcomes = run_batch_prepared(&prepared(files), &SimOptions::default(), 1, 0..runs);
        let pcs = 0..PARTY.len();
        let wins = outcomes.iter().filter(|o| o.winner == Some(0)).count();
        let death = outcomes.iter().filter(|o| pcs.clone().any(|i| o.combatants[i].dead)).count();
        // Every PC down: the monsters won (no PC able to fight at the end).
        let down = outcomes.iter().filter(|o| o.winner == Some(1)).count();
        let rounds: u64 = outcomes.iter().map(|o| u64::from(o.rounds)).sum();
        let pct = |n: usize| 100.0 * n as f64 / runs as f64;
        println!(
            "| {name} | {:.1} % | {:.1} % | {:.1} % | {:.1} |",
            pct(wins),
            pct(death),
            pct(down),
            rounds as f64 / runs as f64
        );
    }
}
