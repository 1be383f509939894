//! Whole battles: shipped data, batches, determinism, throughput.

use std::sync::Arc;

use super::support::*;
use crate::combat::SimOptions;
use crate::encounter::{Encounter, SideSpec};
use crate::map::Map;
use crate::metrics::win_rate_sigma;
use crate::runner::{run_batch, run_with_transcript};

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

const RUNS: u64 = 2000;

/// `side` against an identical side on the mirror arena.
fn mirror(file: &str, count: usize) -> Encounter {
    let c = Arc::new(data_combatant(file));
    let side = |name: &str| SideSpec { name: name.into(), combatants: vec![c.clone(); count] };
    Encounter::build(data_map("data/maps/mirror_arena.yaml"), vec![side("players"), side("monsters")])
        .expect("encounter")
}

/// Identical combatants on mirrored zones must split the decisive battles
/// evenly: the first side's share stays inside the 3σ band around 50%.
///
/// Draws (round cap) are excluded: they favour neither side, so under
/// symmetry the first side wins half of the decisive battles, and the band
/// is computed on their number.
#[test]
fn mirror_matchups_split_evenly() {
    for (file, count) in
        [("data/monsters/orc.json", 2), ("data/monsters/goblin.json", 2), ("data/pcs/fighter.json", 1)]
    {
        let encounter = mirror(file, count);
        let outcomes = run_batch(&encounter, &SimOptions::default(), 2024, 0..RUNS);
        let first = outcomes.iter().filter(|o| o.winner == Some(0)).count() as u64;
        let second = outcomes.iter().filter(|o| o.winner == Some(1)).count() as u64;
        let decisive = first + second;
        assert!(decisive >= 1500, "{file}: only {decisive} decisive battles");
        let rate = first as f64 / decisive as f64;
        let sigma = win_rate_sigma(0.5, decisive);
        println!(
            "{file}: first side {first}, second {second}, draws {}; rate {rate:.4} ± {:.4}",
            RUNS - decisive,
            3.0 * sigma
        );
        assert!(
            (rate - 0.5).abs() <= 3.0 * sigma,
            "{file}: first side wins {rate:.4} of {decisive}, 3σ = {:.4}",
            3.0 * sigma
        );
    }
}

/// Same seed, same outcomes, whatever the number of threads.
#[test]
fn batches_are_deterministic_across_thread_counts() {
    let encounter = goblins_vs_orcs();
    let options = SimOptions::default();
    let pool = |n| rayon::ThreadPoolBuilder::new().num_threads(n).build().expect("pool");
    let one = pool(1).install(|| run_batch(&encounter, &options, 11, 0..300));
    let four = pool(4).install(|| run_batch(&encounter, &options, 11, 0..300));
    assert_eq!(one, four);
    assert_eq!(one, run_batch(&encounter, &options, 11, 0..300));
    // A shard of the batch gives the same runs.
    assert_eq!(one[100..200], run_batch(&encounter, &options, 11, 100..200)[..]);
    assert_ne!(one, run_batch(&encounter, &options, 12, 0..300));
    // With and without a transcript, run by run.
    for run in [0, 7, 123] {
        let (outcome, lines) = run_with_transcript(&encounter, &options, 11, run);
        assert_eq!(outcome, one[run as usize]);
        assert!(lines.last().is_some_and(|l| l.starts_with("battle over: ")));
    }
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
