//! Plays many battles, in parallel, with per-run seeded streams.

use std::ops::Range;

use rayon::prelude::*;

use crate::combat::event::Transcript;
use crate::combat::{
    DefaultPolicy, Policy, PreparedEncounter, RunOutcome, SimOptions, run_combat, run_prepared,
};
use crate::encounter::Encounter;
use crate::rng::SeededRng;

/// Plays run `run` of the batch seeded with `seed`.
pub fn run_one(encounter: &Encounter, options: &SimOptions, seed: u64, run: u64) -> RunOutcome {
    let mut rng = SeededRng::for_run(seed, run);
    run_combat(encounter, options, &mut rng, None)
}

/// Plays run `run` and returns its transcript (the typed events) with its outcome.
///
/// # Panics
///
/// If the encounter cannot be prepared, which combatant validation rules out.
pub fn run_with_transcript(
    encounter: &Encounter,
    options: &SimOptions,
    seed: u64,
    run: u64,
) -> (RunOutcome, Transcript) {
    run_with_transcript_policy(encounter, options, seed, run, &mut DefaultPolicy)
}

/// `run_with_transcript` with the turns planned by `policy` (e.g. a
/// [`crate::combat::MatchupPolicy`]).
///
/// # Panics
///
/// If the encounter cannot be prepared, which combatant validation rules out.
pub fn run_with_transcript_policy(
    encounter: &Encounter,
    options: &SimOptions,
    seed: u64,
    run: u64,
    policy: &mut dyn Policy,
) -> (RunOutcome, Transcript) {
    let prepared = PreparedEncounter::new(encounter)
        .unwrap_or_else(|e| panic!("encounter passed validation but cannot be prepared: {e}"));
    let mut rng = SeededRng::for_run(seed, run);
    let mut transcript = Transcript::for_encounter(&prepared);
    let outcome = run_prepared(&prepared, options, &mut rng, Some(&mut transcript.events), policy);
    (outcome, transcript)
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

/// `run_batch_prepared` with every run played by a fresh copy of `policy`
/// (e.g. a [`MatchupPolicy`]). The all-default matchup plays exactly as
/// `run_batch_prepared`.
pub fn run_batch_policy<P: Policy + Clone + Sync>(
    prepared: &PreparedEncounter,
    options: &SimOptions,
    seed: u64,
    runs: Range<u64>,
    policy: &P,
) -> Vec<RunOutcome> {
    runs.into_par_iter()
        .map(|run| {
            let mut rng = SeededRng::for_run(seed, run);
            run_prepared(prepared, options, &mut rng, None, &mut policy.clone())
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use super::*;
    use crate::combat::MatchupPolicy;
    use crate::combat::event::{Event, MoveKind, Record};
    use crate::encounter::SideSpec;
    use crate::map::Map;
    use crate::model::load_combatant;
    use crate::strategy::StrategySpec;
    use crate::summary::Summary;

    #[allow(clippy::too_many_arguments)]
    fn run_batch_matchup(
        enc: &Encounter,
        prep: &PreparedEncounter,
        opts: &SimOptions,
        seed: u64,
        runs: Range<u64>,
        party_side: usize,
        party: &StrategySpec,
        adversary: &StrategySpec,
    ) -> Vec<RunOutcome> {
        run_batch_policy(prep, opts, seed, runs, &MatchupPolicy::new(enc, party_side, party, adversary))
    }

    fn goblins_vs_orc() -> Encounter {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../data");
        let map = Arc::new(Map::load(&root.join("maps/sample_arena.yaml")).unwrap());
        let c = |p: &str| Arc::new(load_combatant(&root.join(p)).unwrap());
        let sides: Vec<SideSpec> = map
            .deployment
            .iter()
            .enumerate()
            .map(|(i, (name, _))| SideSpec {
                name: name.clone(),
                combatants: if i == 0 {
                    vec![c("monsters/goblin.json"), c("monsters/goblin.json"), c("monsters/goblin.json")]
                } else {
                    vec![c("monsters/orc.json"), c("monsters/orc.json")]
                },
            })
            .collect();
        Encounter::build(map, sides).unwrap()
    }

    #[test]
    fn the_default_matchup_is_the_default_policy() {
        let enc = goblins_vs_orc();
        let prep = PreparedEncounter::new(&enc).unwrap();
        let opts = SimOptions::default();
        let d = StrategySpec::default_spec();
        let expected = run_batch_prepared(&prep, &opts, 9, 0..40);
        for side in [0, 1] {
            assert_eq!(run_batch_matchup(&enc, &prep, &opts, 9, 0..40, side, &d, &d), expected);
        }
    }

    #[test]
    fn a_wounded_combatant_below_its_retreat_fraction_withdraws() {
        let mut enc = goblins_vs_orc();
        // Goblins start at 2 of 6 hit points: below a 0.5 retreat fraction.
        for d in enc.combatants.iter_mut().filter(|d| d.side == 0) {
            d.start_hp = 2;
        }
        let prep = PreparedEncounter::new(&enc).unwrap();
        let spec = StrategySpec::parse("retreat=0.5").unwrap();
        let policy = MatchupPolicy::new(&enc, 0, &spec, &StrategySpec::default_spec());
        let mut withdrew = false;
        for run in 0..20 {
            let mut events = Vec::new();
            let mut rng = SeededRng::for_run(5, run);
            run_prepared(&prep, &SimOptions::default(), &mut rng, Some(&mut events), &mut policy.clone());
            let goblin = |who: usize| prep.fighters[who].id.starts_with("goblin");
            withdrew |= events.iter().any(|r| {
                r.round == 1
                    && matches!(r.event, Event::Move { who, kind: MoveKind::Withdraw, .. } if goblin(who))
            });
            // Withdrawing is the retreat: never a plain move away.
            let moved =
                |r: &Record| matches!(r.event, Event::Move { who, kind: MoveKind::Move, .. } if goblin(who));
            assert!(!events.iter().any(moved), "{events:?}");
        }
        assert!(withdrew, "wounded goblins withdraw on their first turn");
    }

    #[test]
    fn levers_change_play_and_stay_deterministic() {
        let enc = goblins_vs_orc();
        let prep = PreparedEncounter::new(&enc).unwrap();
        let opts = SimOptions::default();
        let d = StrategySpec::default_spec();
        let base = run_batch_prepared(&prep, &opts, 3, 0..60);
        let summary = |o: &[RunOutcome]| Summary::from_outcomes(2, enc.combatants.len(), o);
        for name in ["lowest_hp", "use_charges=false", "retreat=0.75", "weakest_ac, retreat=0.5"] {
            let spec = StrategySpec::parse(name).unwrap();
            // The lever plays for the goblins (side 0) in one matchup, for the orcs in the other.
            let mut changed = false;
            for party_side in [0, 1] {
                let a = run_batch_matchup(&enc, &prep, &opts, 3, 0..60, party_side, &spec, &d);
                let b = run_batch_matchup(&enc, &prep, &opts, 3, 0..60, party_side, &spec, &d);
                assert_eq!(a, b, "{name} is deterministic");
                changed |= summary(&a) != summary(&base);
            }
            assert!(changed, "{name} changes how someone plays");
        }
        // Inert levers (no spells, no class abilities in the engine yet) change nothing.
        let inert = StrategySpec::parse("spell_policy=none, use_class_abilities=false").unwrap();
        assert_eq!(run_batch_matchup(&enc, &prep, &opts, 3, 0..60, 0, &inert, &inert), base);
    }
}
