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

/// The benchmark's large encounter: 3 fighters and 2 goblins (players)
/// against an ogre and an ogre spearman (Large, monsters) on the ogre field.
fn fighters_vs_ogres() -> Encounter {
    let load = |rel: &str| Arc::new(data_combatant(rel));
    let (fighter, goblin) = (load("data/pcs/fighter.json"), load("data/monsters/goblin.json"));
    let ogres = vec![load("data/monsters/ogre.json"), load("data/monsters/ogre_spearman.json")];
    Encounter::build(
        data_map("data/maps/ogre_field.yaml"),
        vec![
            SideSpec {
                name: "players".into(),
                combatants: vec![fighter.clone(), fighter.clone(), fighter, goblin.clone(), goblin],
            },
            SideSpec { name: "monsters".into(), combatants: ogres },
        ],
    )
    .expect("encounter")
}

/// Stored paths are a speed-up only: the same battles played with every
/// route found by the full creature-aware search give the same outcomes and
/// the same transcripts, for one-square movers (the reference encounter) and
/// Large ones (the ogres).
#[test]
fn stored_paths_change_no_outcome() {
    let options = SimOptions::default();
    for encounter in [goblins_vs_orcs(), fighters_vs_ogres()] {
        let stored = crate::combat::PreparedEncounter::new(&encounter).expect("prepared");
        let mut searched = crate::combat::PreparedEncounter::new(&encounter).expect("prepared");
        assert!(stored.paths.for_space(1).is_some());
        searched.paths = crate::combat::paths::MoverPaths::default();
        let a = crate::runner::run_batch_prepared(&stored, &options, 5, 0..3000);
        assert_eq!(a, crate::runner::run_batch_prepared(&searched, &options, 5, 0..3000));
        for run in 0..20 {
            let transcript = |prep: &crate::combat::PreparedEncounter| {
                let mut rng = crate::rng::SeededRng::for_run(5, run);
                let mut events = Vec::new();
                let policy = &mut crate::combat::DefaultPolicy;
                crate::combat::run_prepared(prep, &options, &mut rng, Some(&mut events), policy);
                events
            };
            assert_eq!(transcript(&stored), transcript(&searched), "run {run}");
        }
    }
}

/// `count` copies of `file` on each zone of the mirror arena, the west
/// (zone A) side listed (and numbered) first when `west_first`.
fn mirror_listed(file: &str, count: usize, west_first: bool) -> Encounter {
    let m = data_map("data/maps/mirror_arena.yaml");
    let squares =
        |zone| m.zone_cells(zone).into_iter().filter(|&p| m.passable(p)).take(count).collect::<Vec<_>>();
    let (west, east) = (squares('A'), squares('B'));
    let side = |name: &'static str, cells: &[crate::map::Pos]| {
        cells.iter().map(move |&p| (name, data_combatant(file), p)).collect::<Vec<_>>()
    };
    let mut placed = side("west", &west);
    if west_first {
        placed.extend(side("east", &east));
    } else {
        placed.splice(0..0, side("east", &east));
    }
    encounter(m, placed)
}

/// Runs per listing of a mirror match: at least 10,000 of them must be
/// decided (draws favour neither side and are left out of the shares).
const MIRROR_RUNS: u64 = 20_000;

/// Identical sides on mirrored zones, each side listed first in turn. The
/// side listed first must win half of the decided battles, within 3σ on at
/// least 10,000 of them, whichever zone it stands on: initiative ties go to
/// the higher modifier, then to a roll-off (CRB "Initiative"), never to the
/// order of the list. The west zone's share over both listings isolates the
/// geometry (movement, line of effect, ties between squares), which must be
/// symmetric too. For orcs, who drop a foe in one blow, acting first matters
/// most: with ties going to the list order, the side listed first won 48.8 %
/// of 19,323 decided battles (1 orc a side; the 3σ band is ±1.1 points).
#[test]
fn mirror_matches_split_evenly_whichever_side_is_listed_first() {
    for (file, count) in [
        ("data/monsters/orc.json", 1),
        ("data/monsters/orc.json", 2),
        ("data/monsters/goblin.json", 2),
        ("data/pcs/fighter.json", 1),
    ] {
        let mut west_total = 0;
        let mut decided_total = 0;
        for (listing, west_first) in [true, false].into_iter().enumerate() {
            let runs = listing as u64 * MIRROR_RUNS..(listing as u64 + 1) * MIRROR_RUNS;
            let outcomes =
                run_batch(&mirror_listed(file, count, west_first), &SimOptions::default(), 2024, runs);
            let wins = |side| outcomes.iter().filter(|o| o.winner == Some(side)).count() as u64;
            let (first, second) = (wins(0), wins(1));
            let decided = first + second;
            assert!(decided >= 10_000, "{file} x{count}: only {decided} decided battles");
            let rate = first as f64 / decided as f64;
            let band = 3.0 * win_rate_sigma(0.5, decided);
            println!(
                "{file} x{count}, {} listed first: first side {first}, second {second}; share {rate:.4} ± {band:.4}",
                if west_first { "west" } else { "east" }
            );
            assert!(
                (rate - 0.5).abs() <= band,
                "{file} x{count}: the side listed first wins {rate:.4} of {decided}, 3σ = {band:.4}"
            );
            west_total += if west_first { first } else { second };
            decided_total += decided;
        }
        let rate = west_total as f64 / decided_total as f64;
        let band = 3.0 * win_rate_sigma(0.5, decided_total);
        assert!((rate - 0.5).abs() <= band, "{file} x{count}: the west zone wins {rate:.4}, 3σ = {band:.4}");
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
        let (outcome, transcript) = run_with_transcript(&encounter, &options, 11, run);
        assert_eq!(outcome, one[run as usize]);
        let last = transcript.events.last().map(|r| &r.event);
        assert!(matches!(last, Some(crate::combat::event::Event::BattleOver { .. })), "{last:?}");
    }
}

#[test]
#[ignore = "prints a transcript"]
fn print_goblins_vs_orcs() {
    let (outcome, transcript) = run_with_transcript(&goblins_vs_orcs(), &SimOptions::default(), 1, 0);
    let ids: Vec<String> = transcript.combatants.iter().map(|c| c.id.clone()).collect();
    for l in crate::combat::event_text::lines(&ids, &transcript.sides, &transcript.events) {
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
