//! Plays many battles, in parallel, with per-run seeded streams.

use std::ops::Range;

use rayon::prelude::*;

use crate::combat::{DefaultPolicy, PreparedEncounter, RunOutcome, SimOptions, run_combat, run_prepared};
use crate::encounter::Encounter;
use crate::rng::SeededRng;

/// Plays run `run` of the batch seeded with `seed`.
pub fn run_one(encounter: &Encounter, options: &SimOptions, seed: u64, run: u64) -> RunOutcome {
    let mut rng = SeededRng::for_run(seed, run);
    run_combat(encounter, options, &mut rng, None)
}

/// Plays run `run` and returns its transcript with its outcome.
pub fn run_with_transcript(
    encounter: &Encounter,
    options: &SimOptions,
    seed: u64,
    run: u64,
) -> (RunOutcome, Vec<String>) {
    let mut rng = SeededRng::for_run(seed, run);
    let mut lines = Vec::new();
    let outcome = run_combat(encounter, options, &mut rng, Some(&mut lines));
    (outcome, lines)
}

/// Plays the runs of `runs` on the current rayon pool and returns their
/// outcomes in run order. The result does not depend on the number of threads.
///
/// The encounter is prepared once for the whole batch.
///
/// # Panics
///
/// If the encounter cannot be prepared, which combatant validation rules out.
pub fn run_batch(
    encounter: &Encounter,
    options: &SimOptions,
    seed: u64,
    runs: Range<u64>,
) -> Vec<RunOutcome> {
    let prepared = PreparedEncounter::new(encounter)
        .unwrap_or_else(|e| panic!("encounter passed validation but cannot be prepared: {e}"));
    run_batch_prepared(&prepared, options, seed, runs)
}

/// `run_batch` on an encounter prepared by the caller.
pub fn run_batch_prepared(
    prepared: &PreparedEncounter,
    options: &SimOptions,
    seed: u64,
    runs: Range<u64>,
) -> Vec<RunOutcome> {
    runs.into_par_iter()
        .map(|run| {
            let mut rng = SeededRng::for_run(seed, run);
            run_prepared(prepared, options, &mut rng, None, &mut DefaultPolicy)
        })
        .collect()
}
