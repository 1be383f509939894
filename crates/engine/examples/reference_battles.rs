//! Plays N battles of the reference encounter (3 goblins vs 2 orcs on
//! `data/maps/sample_arena.yaml`, seed 1) and prints their rounds and wins:
//! the engine alone, so two commits can be compared under callgrind without
//! building the CLI (`docs/performance.md`).
//!
//! `cargo run -p pf1e-engine --example reference_battles -- 200`
#![allow(missing_docs)]
// A measuring tool: its output is its purpose.
#![allow(clippy::print_stdout)]
use std::path::PathBuf;
use std::sync::Arc;

use pf1e_engine::combat::{DefaultPolicy, PreparedEncounter, SimOptions, run_prepared};
use pf1e_engine::encounter::{Encounter, SideSpec};
use pf1e_engine::map::Map;
use pf1e_engine::model::load_combatant;
use pf1e_engine::rng::SeededRng;

fn data(path: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../data").join(path)
}

fn main() {
    let n: u64 = std::env::args().nth(1).and_then(|a| a.parse().ok()).unwrap_or(20);
    let map = Map::load(&data("maps/sample_arena.yaml")).expect("map");
    let goblin = Arc::new(load_combatant(&data("monsters/goblin.json")).expect("goblin"));
    let orc = Arc::new(load_combatant(&data("monsters/orc.json")).expect("orc"));
    let sides = vec![
        SideSpec { name: "players".into(), combatants: vec![goblin; 3] },
        SideSpec { name: "monsters".into(), combatants: vec![orc; 2] },
    ];
    let enc = Encounter::build(Arc::new(map), sides).expect("enc");
    let prepared = PreparedEncounter::new(&enc).expect("prep");
    let options = SimOptions::default();
    let (mut rounds, mut wins) = (0u64, 0u64);
    for run in 0..n {
        let mut rng = SeededRng::for_run(1, run);
        let o = run_prepared(&prepared, &options, &mut rng, None, &mut DefaultPolicy);
        rounds += u64::from(o.rounds);
        wins += u64::from(o.winner == Some(0));
    }
    println!("battles {n} rounds {rounds} players_won {wins}");
}
