//! Combats per second on one thread for the reference encounters:
//! 3 goblins (players) vs 2 orcs (monsters) on `data/maps/sample_arena.yaml`,
//! and 3 fighters and 2 goblins vs two Large ogres (one with a longspear, a
//! reach weapon) on `data/maps/ogre_field.yaml`.
//!
//! Run with `cargo bench -p pf1e-engine --bench combat`.

// `criterion_group!` defines an undocumented public function.
#![allow(missing_docs)]

use std::hint::black_box;
use std::path::PathBuf;
use std::sync::Arc;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use pf1e_engine::combat::{DefaultPolicy, PreparedEncounter, SimOptions, run_prepared};
use pf1e_engine::encounter::{Encounter, SideSpec};
use pf1e_engine::map::Map;
use pf1e_engine::model::load_combatant;
use pf1e_engine::rng::SeededRng;

fn data(path: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../data").join(path)
}

fn reference_encounter() -> Encounter {
    let map = Map::load(&data("maps/sample_arena.yaml")).expect("bundled map");
    let goblin = Arc::new(load_combatant(&data("monsters/goblin.json")).expect("bundled goblin"));
    let orc = Arc::new(load_combatant(&data("monsters/orc.json")).expect("bundled orc"));
    let sides = vec![
        SideSpec { name: "players".into(), combatants: vec![goblin; 3] },
        SideSpec { name: "monsters".into(), combatants: vec![orc; 2] },
    ];
    Encounter::build(Arc::new(map), sides).expect("reference encounter")
}

fn large_encounter() -> Encounter {
    let map = Map::load(&data("maps/ogre_field.yaml")).expect("bundled map");
    let load = |p: &str| Arc::new(load_combatant(&data(p)).expect("bundled combatant"));
    let (fighter, goblin) = (load("pcs/fighter.json"), load("monsters/goblin.json"));
    let sides = vec![
        SideSpec {
            name: "players".into(),
            combatants: vec![fighter.clone(), fighter.clone(), fighter, goblin.clone(), goblin],
        },
        SideSpec {
            name: "monsters".into(),
            combatants: vec![load("monsters/ogre.json"), load("monsters/ogre_spearman.json")],
        },
    ];
    Encounter::build(Arc::new(map), sides).expect("large encounter")
}

fn large(c: &mut Criterion) {
    let prepared = PreparedEncounter::new(&large_encounter()).expect("large encounter prepares");
    let options = SimOptions::default();
    let mut group = c.benchmark_group("large");
    group.throughput(Throughput::Elements(1));
    let mut run = 0u64;
    group.bench_function("3 fighters and 2 goblins vs 2 ogres", |b| {
        b.iter(|| {
            run = (run + 1) % 1000;
            let mut rng = SeededRng::for_run(1, run);
            black_box(run_prepared(&prepared, &options, &mut rng, None, &mut DefaultPolicy))
        })
    });
    group.finish();
}

fn combat(c: &mut Criterion) {
    let encounter = reference_encounter();
    let prepared = PreparedEncounter::new(&encounter).expect("reference encounter prepares");
    let options = SimOptions::default();
    let mut group = c.benchmark_group("reference");
    group.throughput(Throughput::Elements(1));
    // The batch runner prepares an encounter once and plays every run on it,
    // so one element is one battle on the prepared encounter. Each iteration
    // plays the next run of seed 1, cycling over 1000 runs, so the figure
    // averages over many different battles rather than one.
    let mut run = 0u64;
    group.bench_function("3 goblins vs 2 orcs", |b| {
        b.iter(|| {
            run = (run + 1) % 1000;
            let mut rng = SeededRng::for_run(1, run);
            black_box(run_prepared(&prepared, &options, &mut rng, None, &mut DefaultPolicy))
        })
    });
    group.finish();
    // The one-off cost paid per batch (map tables, parsed formulas).
    c.bench_function("reference/prepare", |b| {
        b.iter(|| black_box(PreparedEncounter::new(&encounter).expect("prepares")))
    });
}

criterion_group!(benches, combat, large);
criterion_main!(benches);
