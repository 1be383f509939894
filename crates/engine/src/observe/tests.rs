//! The observation, its size against the raw snapshot, the candidates
//! against what the engine then plays, and actions by id.

use std::path::Path;
use std::sync::Arc;

use crate::combat::{
    Action, ActionKind, BattleState, DefaultPolicy, Policy, PreparedEncounter, Reason, SimOptions,
    run_prepared,
};
use crate::encounter::{Encounter, SideSpec};
use crate::map::Map;
use crate::model::load_combatant;
use crate::rng::SeededRng;

use super::*;

fn data() -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../data")
}

/// The sample arena with `a` against `b` (file names under data/).
fn encounter(a: &[&str], b: &[&str]) -> Encounter {
    let map = Arc::new(Map::load(&data().join("maps/sample_arena.yaml")).unwrap());
    let load = |p: &&str| Arc::new(load_combatant(&data().join(p)).unwrap());
    let names: Vec<String> = map.deployment.iter().map(|(n, _)| n.clone()).collect();
    let sides = vec![
        SideSpec { name: names[0].clone(), combatants: a.iter().map(load).collect() },
        SideSpec { name: names[1].clone(), combatants: b.iter().map(load).collect() },
    ];
    let library = crate::library::load_library(&data().join("spells"), &data().join("monsters")).unwrap();
    Encounter::build(map, sides).unwrap().with_library(Arc::new(library))
}

fn warband() -> Encounter {
    encounter(
        &[
            "pcs/fighter.json",
            "monsters/hobgoblin.json",
            "monsters/drow.json",
            "monsters/celestial_wolf.json",
        ],
        &["monsters/lich.json", "monsters/thrune_agent.json", "monsters/orc.json", "monsters/goblin.json"],
    )
}

/// A policy that records what `look` returns at every turn, then plays the default policy.
struct Spy<F> {
    look: F,
}

impl<F: FnMut(&BattleState<'_>, usize)> Policy for Spy<F> {
    fn plan(&mut self, battle: &BattleState<'_>, actor: usize, out: &mut Vec<Action>) {
        (self.look)(battle, actor);
        DefaultPolicy.plan(battle, actor, out);
    }
}

fn play(enc: &Encounter, seed: u64, policy: &mut dyn Policy) {
    let prep = PreparedEncounter::new(enc).unwrap();
    let options = SimOptions { round_cap: 20, ..SimOptions::default() };
    run_prepared(&prep, &options, &mut SeededRng::for_run(seed, 0), None, policy);
}

#[test]
fn an_observation_names_every_living_combatant_and_pairs_the_acting_one_with_the_others() {
    let enc = warband();
    let mut seen = Vec::new();
    play(&enc, 1, &mut Spy { look: |b: &BattleState<'_>, i| seen.push(observe(b, i)) });
    let first = &seen[0];
    assert_eq!(first.schema_version, OBSERVATION_SCHEMA_VERSION);
    assert_eq!(first.round, 1);
    assert_eq!(first.combatants.len(), 8);
    assert_eq!(first.pairs.len(), 7);
    assert!(first.pairs.iter().all(|p| p.other != first.acting));
    assert_eq!(first.initiative.len(), 8);
    assert!(first.map.terrain.iter().any(|t| t.kind == "wall" && t.move_cost.is_none()));
    assert!(
        !first.map.terrain.iter().any(|t| t.kind == "floor" && t.elevation == 0),
        "plain floor is left out"
    );
    let text = first.render();
    assert!(text.starts_with("schema_version=1\n"), "{text}");
    assert!(text.contains(&format!("acting={}", first.acting)));
    // The serde form round-trips (it is what a replay log stores).
    for o in &seen {
        let json = serde_json::to_string(o).unwrap();
        assert_eq!(&serde_json::from_str::<Observation>(&json).unwrap(), o);
    }
    // Later turns see the battle move on.
    assert!(seen.iter().any(|o| o.round > 1 && !o.last_results.is_empty()));
}

#[test]
fn the_compact_view_is_under_a_quarter_of_the_raw_snapshot() {
    for enc in [warband(), encounter(&["monsters/goblin.json"], &["monsters/orc.json"])] {
        let prep = PreparedEncounter::new(&enc).unwrap();
        let mut worst = 0.0f64;
        let mut policy = Spy {
            look: |b: &BattleState<'_>, i| {
                let view = observe(b, i).render().len() as f64;
                let raw = serde_json::to_string(&raw_snapshot(&enc, b, i)).unwrap().len() as f64;
                worst = worst.max(view / raw);
            },
        };
        run_prepared(
            &prep,
            &SimOptions { round_cap: 20, ..SimOptions::default() },
            &mut SeededRng::for_run(1, 0),
            None,
            &mut policy,
        );
        assert!(worst > 0.0 && worst < 0.25, "compact view / raw snapshot = {worst:.3}");
    }
}

/// Plays every turn with `pick` applied to the candidates; returns what
/// each played candidate became.
fn play_candidates(
    enc: &Encounter,
    seed: u64,
    pick: fn(&[Action]) -> Action,
) -> Vec<(Action, Vec<crate::combat::ActionResult>)> {
    let mut played: Vec<(usize, Action)> = Vec::new();
    let mut results = Vec::new();
    let mut policy = |b: &BattleState<'_>, i: usize, out: &mut Vec<Action>| {
        // What the previous pick of this combatant became.
        if let Some(k) = played.iter().rposition(|(who, _)| *who == i) {
            let (_, a) = played.remove(k);
            results.push((a, b.last_results(i).to_vec()));
        }
        let menu = candidate_actions(b, i);
        assert!(!menu.is_empty() && menu.len() <= MAX_CANDIDATES);
        for a in &menu {
            let spec = ActionSpec::from_action(b, a);
            assert_eq!(spec.to_action(b).as_ref(), Ok(a), "{spec:?}");
        }
        let a = pick(&menu);
        played.push((i, a));
        out.push(a);
    };
    play(enc, seed, &mut policy);
    results
}

#[test]
fn listed_attacks_charges_and_steps_are_ones_the_engine_plays() {
    let enc = warband();
    let mut checked = 0;
    for seed in 0..6 {
        for (action, results) in play_candidates(&enc, seed, |menu| menu[0]) {
            let Some(r) = results.first() else { continue };
            if matches!(
                action.kind,
                ActionKind::Attack
                    | ActionKind::FullAttack
                    | ActionKind::Charge
                    | ActionKind::FiveFootStep
                    | ActionKind::Move
            ) {
                checked += 1;
                assert!(
                    !matches!(
                        r.reason,
                        Some(
                            Reason::OutOfRange
                                | Reason::NoLineOfEffect
                                | Reason::NoChargePath
                                | Reason::MissingTarget
                                | Reason::NoWeapon
                                | Reason::UnreachableDestination
                        )
                    ),
                    "{action:?} listed but refused: {r:?}"
                );
            }
        }
    }
    assert!(checked > 20, "only {checked} actions checked");
}

#[test]
fn every_listed_action_converts_to_its_serializable_form_and_back() {
    // play_candidates checks the round trip of every menu entry.
    let results = play_candidates(&warband(), 3, |menu| *menu.last().unwrap());
    assert!(!results.is_empty());
}

#[test]
fn an_action_spec_with_an_unknown_name_is_refused() {
    let enc = warband();
    let prep = PreparedEncounter::new(&enc).unwrap();
    let b = BattleState::new(&prep, &SimOptions::default());
    let bad =
        |json: &str| serde_json::from_str::<ActionSpec>(json).unwrap().to_action(&b).unwrap_err().to_string();
    assert!(bad(r#"{"kind": "fireball"}"#).contains("unknown action kind"));
    assert!(bad(r#"{"kind": "attack", "target": "dragon"}"#).contains("no combatant"));
    assert!(bad(r#"{"kind": "maneuver", "maneuver": "suplex"}"#).contains("unknown maneuver"));
    assert!(bad(r#"{"kind": "ready", "trigger": "whenever"}"#).contains("unknown trigger"));
    assert!(bad(r#"{"kind": "maneuver", "direction": [2, 0]}"#).contains("direction"));
    assert!(serde_json::from_str::<ActionSpec>(r#"{"kind": "attack", "spell": "x"}"#).is_err());
    let ok: ActionSpec = serde_json::from_str(r#"{"kind": "attack", "target": "orc"}"#).unwrap();
    assert_eq!(ok.to_action(&b).unwrap().kind, ActionKind::Attack);
}
