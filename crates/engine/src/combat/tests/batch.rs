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
/// Draws (round cap, or nobody left standing) are excluded: they favour
/// neither side, so under symmetry the first side wins half of the decisive
/// battles, and the band is computed on their number.
///
/// Orcs are left to the next test: initiative ties go to the side listed
/// first (seed rule), and for orcs, who drop a foe in one blow, acting first
/// is a disadvantage: the side listed first wins about 48% of the decisive
/// battles (measured over 20,000 runs with either zone listed first), a real
/// rule effect of about 2% that a 2,000-run band (±3.4%) does not always
/// contain.
#[test]
fn mirror_matchups_split_evenly() {
    for (file, count) in [("data/monsters/goblin.json", 2), ("data/pcs/fighter.json", 1)] {
        let encounter = mirror(file, count);
        let outcomes = run_batch(&encounter, &SimOptions::default(), 2024, 0..RUNS);
        let first = outcomes.iter().filter(|o| o.winner == Some(0)).count() as u64;
        let second = outcomes.iter().filter(|o| o.winner == Some(1)).count() as u64;
        let decisive = first + second;
        assert!(decisive >= RUNS * 3 / 4, "{file}: only {decisive} decisive battles");
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

/// The same mirror, once with the west side listed first and once with the
/// east side listed first: the initiative tie-break then favours each zone
/// in turn, and the west zone's share of all decisive battles isolates the
/// geometry (movement, line of effect, tie-breaks between squares), which
/// must be symmetric. 2,000 runs with each listing.
#[test]
fn mirror_zones_are_symmetric_whichever_side_is_listed_first() {
    for (file, count) in [
        ("data/monsters/orc.json", 1),
        ("data/monsters/orc.json", 2),
        ("data/monsters/goblin.json", 2),
        ("data/pcs/fighter.json", 1),
    ] {
        let west_first = mirror_listed(file, count, true);
        let east_first = mirror_listed(file, count, false);
        let a = run_batch(&west_first, &SimOptions::default(), 2024, 0..RUNS);
        let b = run_batch(&east_first, &SimOptions::default(), 2024, RUNS..2 * RUNS);
        let count_wins = |o: &[crate::combat::RunOutcome], side| {
            o.iter().filter(|o| o.winner == Some(side)).count() as u64
        };
        let west = count_wins(&a, 0) + count_wins(&b, 1);
        let east = count_wins(&a, 1) + count_wins(&b, 0);
        let decisive = west + east;
        let rate = west as f64 / decisive as f64;
        let sigma = win_rate_sigma(0.5, decisive);
        println!(
            "{file}: west {west}, east {east}; rate {rate:.4} ± {:.4} (west/east wins, west listed first: {}/{}, east listed first: {}/{})",
            3.0 * sigma,
            count_wins(&a, 0),
            count_wins(&a, 1),
            count_wins(&b, 1),
            count_wins(&b, 0)
        );
        assert!(
            (rate - 0.5).abs() <= 3.0 * sigma,
            "{file}: west wins {rate:.4} of {decisive}, 3σ = {:.4}",
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
