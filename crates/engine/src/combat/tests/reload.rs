//! Reloading and ammunition (`combat::reload`): reload times per weapon and
//! Rapid Reload, at most one crossbow shot a round without it, counted
//! ammunition, the attack of opportunity reloading provokes, on the event
//! stream over many seeds.

use serde_json::{Value, json};

use super::support::*;
use crate::combat::SimOptions;
use crate::combat::action::{Action, ActionKind};
use crate::combat::engine::Engine;
use crate::combat::event::{Event, Record};
use crate::combat::policy::DefaultPolicy;
use crate::model::ReloadTime;
use crate::rng::SeededRng;

fn crossbow(name: &str, extra: Value) -> Value {
    let mut a = json!({ "name": name, "kind": "ranged", "attack_bonus": 5, "range_increment_ft": 80,
                        "damage": [{ "formula": "1d8", "types": ["piercing"] }] });
    a.as_object_mut().unwrap().extend(extra.as_object().unwrap().clone());
    a
}

/// A BAB +6 shooter (two attacks on a full attack) with `weapon` and a dagger.
fn shooter(weapon: Value, features: Value) -> crate::model::Combatant {
    creature(
        "Shooter",
        json!({ "bab": 6, "attacks": [weapon, melee("dagger", 0, "1d4")], "features": features, "hp_max": 40 }),
    )
}

/// Shots (attack events with the first attack's name) per round of the
/// shooter against a distant, sturdy target, default policy, over `seeds`.
fn shots_per_round(shooter: crate::model::Combatant, rounds: u32, seeds: u64) -> Vec<Vec<usize>> {
    let weapon = shooter.attacks[0].name.clone();
    let target = creature("Target", json!({ "hp_max": 10_000, "attacks": [] }));
    let prep = prepare(arena(3, 14), vec![("players", shooter, at(1, 0)), ("monsters", target, at(1, 12))]);
    (0..seeds)
        .map(|seed| {
            let mut rng = SeededRng::for_run(5, seed);
            let mut events: Vec<Record> = Vec::new();
            let mut e = Engine::new(&prep, &SimOptions::default(), &mut rng, Some(&mut events));
            for _ in 0..rounds {
                e.start_round();
                e.take_turn(0, &mut DefaultPolicy);
            }
            drop(e);
            let mut per_round = vec![0; rounds as usize];
            for r in &events {
                if let Event::Attack(a) = &r.event
                    && a.who == 0
                    && a.weapon == weapon
                {
                    per_round[r.round as usize - 1] += 1;
                }
            }
            per_round
        })
        .collect()
}

#[test]
fn a_light_crossbow_fires_at_most_once_a_round_without_rapid_reload() {
    for battle in shots_per_round(shooter(crossbow("light crossbow", json!({})), json!([])), 6, 100) {
        // Fire, then reload with the move action: a shot every round.
        assert_eq!(battle, [1; 6]);
    }
    // Rapid Reload makes it a free action: both attacks of the full attack.
    let rapid = shooter(crossbow("light crossbow", json!({})), json!(["Rapid Reload (light crossbow)"]));
    for battle in shots_per_round(rapid, 6, 50) {
        assert_eq!(battle, [2; 6]);
    }
    // A bow needs no reload.
    for battle in shots_per_round(shooter(crossbow("longbow", json!({})), json!([])), 3, 20) {
        assert_eq!(battle, [2; 3]);
    }
}

#[test]
fn a_heavy_crossbow_takes_a_full_round_to_reload_and_rapid_reload_makes_it_a_move_action() {
    for battle in shots_per_round(shooter(crossbow("heavy crossbow", json!({})), json!([])), 6, 50) {
        assert_eq!(battle, [1, 0, 1, 0, 1, 0]);
    }
    let rapid = shooter(crossbow("heavy crossbow", json!({})), json!(["Rapid Reload (heavy crossbow)"]));
    for battle in shots_per_round(rapid, 6, 50) {
        assert_eq!(battle, [1; 6]);
    }
}

#[test]
fn reload_times_follow_the_weapon_rapid_reload_and_the_file() {
    let time = |weapon: Value, features: Value| {
        let prep = prepare(
            arena(3, 6),
            vec![
                ("players", shooter(weapon, features), at(1, 0)),
                ("monsters", creature("T", json!({})), at(1, 5)),
            ],
        );
        prep.fighters[0].offense.attacks[0].reload
    };
    let pistol = json!({ "name": "pistol", "kind": "ranged", "attack_bonus": 5, "range_increment_ft": 20,
                         "firearm": true, "damage": [{ "formula": "1d8", "types": ["piercing"] }] });
    let mut musket = pistol.clone();
    musket["name"] = json!("musket");
    musket["two_handed"] = json!(true);
    assert_eq!(time(crossbow("hand crossbow", json!({})), json!([])), Some(ReloadTime::Move));
    assert_eq!(time(crossbow("heavy crossbow", json!({})), json!([])), Some(ReloadTime::FullRound));
    assert_eq!(time(pistol.clone(), json!([])), Some(ReloadTime::Standard));
    assert_eq!(time(pistol.clone(), json!(["Rapid Reload (pistol)"])), Some(ReloadTime::Move));
    assert_eq!(time(musket.clone(), json!([])), Some(ReloadTime::FullRound));
    assert_eq!(time(musket, json!(["Rapid Reload (musket)"])), Some(ReloadTime::Standard));
    // Rapid Reload for another weapon does not count; the file's value is final.
    assert_eq!(time(pistol, json!(["Rapid Reload (light crossbow)"])), Some(ReloadTime::Standard));
    assert_eq!(
        time(crossbow("light crossbow", json!({ "reload": "free" })), json!([])),
        Some(ReloadTime::Free)
    );
    assert_eq!(time(crossbow("shortbow", json!({})), json!([])), None);
}

#[test]
fn counted_ammunition_runs_out_and_reloading_provokes() {
    // Three bolts and Rapid Reload: 2 shots, then 1, then none (the dagger cannot reach).
    let limited = shooter(
        crossbow("light crossbow", json!({ "ammunition": 3 })),
        json!(["Rapid Reload (light crossbow)"]),
    );
    for battle in shots_per_round(limited, 4, 20) {
        assert_eq!(battle, [2, 1, 0, 0]);
    }
    // Reloading next to an enemy provokes its attack of opportunity.
    let prep = prepare(
        arena(3, 6),
        vec![
            ("players", shooter(crossbow("light crossbow", json!({})), json!([])), at(1, 1)),
            ("monsters", creature("Guard", json!({ "hp_max": 100 })), at(1, 2)),
        ],
    );
    let mut b = Bench::new(&[2, 2, 1, 1]);
    let mut e = b.engine(&prep, &SimOptions::default());
    e.st.fighters[0].gear.unloaded = 1;
    turn(&mut e, 0, vec![Action::new(ActionKind::Reload)]);
    assert!(!e.st.is_unloaded(0, 0));
    drop(e);
    let lines = b.lines();
    assert!(lines.iter().any(|l| l.contains("guard: AoO")), "{lines:#?}");
    assert!(lines.iter().any(|l| l.contains("shooter: reloads light crossbow")), "{lines:#?}");
}

#[test]
fn the_partys_crossbows_and_the_thrune_agents_reload_with_a_move_action() {
    let prep = prepare_magic(
        arena(4, 10),
        vec![
            ("players", data_combatant("data/pcs/oni.json"), at(0, 0)),
            ("players", data_combatant("data/pcs/nairda.json"), at(1, 0)),
            ("monsters", data_combatant("data/monsters/thrune_agent.json"), at(3, 9)),
        ],
    );
    for (i, ammo) in [(0, None), (1, Some(20)), (2, Some(10))] {
        let attacks = &prep.fighters[i].offense.attacks;
        let w = attacks.iter().position(|a| a.name == "light crossbow").expect("a light crossbow");
        assert_eq!(attacks[w].reload, Some(ReloadTime::Move), "{}", prep.fighters[i].id);
        assert_eq!((attacks[w].ammo != u32::MAX).then_some(attacks[w].ammo), ammo);
    }
}
