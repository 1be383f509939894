//! Whole battles: shipped data, batches, determinism, throughput.

use std::sync::Arc;

use super::support::*;
use crate::combat::SimOptions;
use crate::encounter::{Encounter, SideSpec};
use crate::map::Map;
use crate::runner::run_with_transcript;

fn data_map(rel: &str) -> Arc<Map> {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../..").join(rel);
    Arc::new(Map::load(&path).expect("shipped map"))
}

/// 3 goblins (players) against 2 orcs (monsters) on the sample arena.
pub fn goblins_vs_orcs() -> Encounter {
    let goblin = Arc::new(data_combatant("data/monsters/goblin.json"));
    let orc = Arc::new(data_combatant("data/monsters/orc.json"));
    Encounter::build(
        data_map("data/maps/sample_arena.yaml"),
        vec![
            SideSpec { name: "players".into(), combatants: vec![goblin.clone(), goblin.clone(), goblin] },
            SideSpec { name: "monsters".into(), combatants: vec![orc.clone(), orc] },
        ],
    )
    .expect("encounter")
}

#[test]
#[ignore = "prints a transcript"]
fn print_goblins_vs_orcs() {
    let (outcome, lines) = run_with_transcript(&goblins_vs_orcs(), &SimOptions::default(), 1, 0);
    for l in &lines {
        println!("{l}");
    }
    println!("{outcome:?}");
}

/// Throughput on one core, printed (run with `--release --ignored --nocapture`).
#[test]
#[ignore = "timing printout, run in release"]
fn throughput_goblins_vs_orcs() {
    let prepared = crate::combat::PreparedEncounter::new(&goblins_vs_orcs()).expect("prepared");
    let pool = rayon::ThreadPoolBuilder::new().num_threads(1).build().expect("pool");
    let options = SimOptions::default();
    pool.install(|| crate::runner::run_batch_prepared(&prepared, &options, 7, 0..2_000));
    let runs = 100_000u64;
    let start = std::time::Instant::now();
    let outcomes = pool.install(|| crate::runner::run_batch_prepared(&prepared, &options, 7, 0..runs));
    let secs = start.elapsed().as_secs_f64();
    let rounds: u64 = outcomes.iter().map(|o| u64::from(o.rounds)).sum();
    let wins = outcomes.iter().filter(|o| o.winner == Some(0)).count();
    println!(
        "{runs} combats in {secs:.3} s: {:.0} combats/s/core; mean rounds {:.2}; players win {:.1}%",
        runs as f64 / secs,
        rounds as f64 / runs as f64,
        100.0 * wins as f64 / runs as f64
    );
}
