//! Mounted combat rule by rule (CRB "Mounted Combat", "Ride", the feats
//! Mounted Combat, Spirited Charge and Unseat): the rider in its mount's
//! space at its speed, the mounted charge's damage, higher ground, the Ride
//! checks, falls, the directed mount; and Esha on Jeanne charging an ogre
//! on the open field over many seeds.

use std::sync::Arc;

use serde_json::json;

use super::support::*;
use crate::combat::SimOptions;
use crate::combat::action::{Action, ActionKind};
use crate::combat::event::{DismountCause, Event, LifeChange, MountedEvent};
use crate::combat::odds::Swing;
use crate::combat::prepared::{PrepareError, PreparedEncounter};
use crate::model::Combatant;

/// A Medium rider (speed 20, Str 18, Ride `ride`) on "Horse", with a
/// longsword (attack 0), a one-handed lance (attack 1, 1d8+4, ×3, reach)
/// and a two-handed lance (attack 2, 1d8+6, as a file prints it on foot).
fn rider(features: serde_json::Value, ride: i32) -> Combatant {
    creature(
        "Rider",
        json!({ "hp_max": 40, "bab": 4, "speed_land_ft": 20,
                "abilities": { "str_score": 18, "dex_score": 12, "con_score": 14, "int_score": 10,
                               "wis_score": 10, "cha_score": 10 },
                "features": features,
                "mount": { "name": "Horse" },
                "skills": { "Ride": { "bonus": ride } },
                "shield": { "name": "heavy steel shield", "kind": "heavy", "ac_bonus": 2 },
                "ac": { "total": 12, "touch": 10, "flat_footed": 12 },
                "attacks": [
                    melee("longsword", 8, "1d8+4"),
                    { "name": "lance", "kind": "melee", "attack_bonus": 8, "reach_weapon": true, "crit_mult": 3,
                      "damage": [{ "formula": "1d8+4", "types": ["piercing"] }] },
                    { "name": "heavy lance", "kind": "melee", "attack_bonus": 8, "reach_weapon": true,
                      "two_handed": true, "damage": [{ "formula": "1d8+6", "types": ["piercing"] }] }
                ] }),
    )
}

/// A Large horse (speed 50, 30 hp) with a bite and two hooves.
fn horse() -> Combatant {
    creature(
        "Horse",
        json!({ "size": "Large", "hp_max": 30, "speed_land_ft": 50, "bab": 3,
                "ac": { "total": 14, "touch": 9, "flat_footed": 13 },
                "attacks": [
                    { "name": "bite", "kind": "melee", "attack_bonus": 7, "natural": true,
                      "damage": [{ "formula": "1d4+5", "types": ["piercing"] }] },
                    { "name": "hooves", "kind": "melee", "attack_bonus": 2, "natural": true, "secondary": true,
                      "count": 2, "damage": [{ "formula": "1d6+2", "types": ["bludgeoning"] }] }
                ] }),
    )
}

/// A foe of `size` with 100 hp and AC 10.
fn foe(size: &str) -> Combatant {
    creature("Foe", json!({ "size": size, "hp_max": 100, "attacks": [melee("club", 5, "1d6")] }))
}

/// Rider (0) and horse (1) at (1, 1), the foe (2) at `foe_at`.
fn mounted(
    features: serde_json::Value,
    ride: i32,
    target: Combatant,
    foe_at: (i32, i32),
) -> PreparedEncounter {
    prepare(
        arena(10, 20),
        vec![
            ("a", rider(features, ride), at(1, 3)),
            ("a", horse(), at(1, 1)),
            ("b", target, at(foe_at.0, foe_at.1)),
        ],
    )
}

#[test]
fn a_rider_shares_its_mount_s_space_moves_at_its_speed_and_the_mount_follows() {
    let prep = mounted(json!([]), 5, foe("Medium"), (8, 18));
    let mut b = Bench::new(&[]);
    let mut e = b.engine(&prep, &SimOptions::default());
    assert_eq!((e.st.riding(0), e.st.ridden_by(1)), (Some(1), Some(0)));
    assert_eq!((e.st.pos(0), e.st.space(0)), (at(1, 1), 2), "in the horse's 2x2 space");
    assert_eq!(e.st.occupant(at(1, 3)), None, "its own deployment square is free");
    assert_eq!(e.st.speed(0), 50, "the horse's speed, not its own 20 ft");
    turn(&mut e, 0, vec![Action::new(ActionKind::Move).with_destination(at(1, 11))]);
    assert_eq!((e.st.pos(0), e.st.pos(1)), (at(1, 11), at(1, 11)), "50 ft in one move, together");
    assert_eq!(e.st.occupant(at(2, 12)), Some(1), "the mount holds the squares");
    assert_eq!(e.st.fighters[1].mobility.mount_used, 1);
}

#[test]
fn a_mounted_charge_doubles_a_lance_s_damage_and_spirited_charge_triples_it() {
    // d20 15 hits AC 10 without a threat; the d8 rolls 5: 5 + 4 = 9 a time.
    let cases = [
        (json!([]), 1, true, 18),
        (json!(["Mounted Combat", "Spirited Charge"]), 1, true, 27),
        (json!([]), 0, true, 9),
        (json!(["Mounted Combat", "Spirited Charge"]), 0, true, 18),
        (json!([]), 1, false, 9),
    ];
    for (features, w, charge, dealt) in cases {
        let prep = mounted(features.clone(), 5, foe("Medium"), (1, 4));
        let mut b = Bench::new(&[15, 5]);
        let mut e = b.engine(&prep, &SimOptions::default());
        e.strike(0, w, 2, Swing { charge, ..Swing::default() });
        assert_eq!(100 - e.st.hp(2), dealt, "{features} weapon {w} charge {charge}");
    }
    // On foot the charge is an ordinary one.
    let prep = mounted(json!([]), 5, foe("Medium"), (1, 4));
    let mut b = Bench::new(&[15, 5]);
    let mut e = b.engine(&prep, &SimOptions::default());
    e.st.dismount(0, at(5, 5));
    e.strike(0, 1, 2, Swing { charge: true, ..Swing::default() });
    assert_eq!(100 - e.st.hp(2), 9);
}

#[test]
fn a_critical_hit_of_a_mounted_lance_charge_adds_the_multipliers() {
    // ×3 critical and ×2 charge make ×4 (CRB "Multiplying Damage"): 4 × (5 + 4).
    let prep = mounted(json!([]), 5, foe("Medium"), (1, 4));
    let mut b = Bench::new(&[20, 15, 5]);
    let mut e = b.engine(&prep, &SimOptions::default());
    e.strike(0, 1, 2, Swing { charge: true, ..Swing::default() });
    assert_eq!(100 - e.st.hp(2), 36);
}

#[test]
fn a_two_handed_lance_is_one_handed_on_horseback_the_shield_stays_and_half_the_strength_goes() {
    let prep = mounted(json!([]), 5, foe("Medium"), (1, 4));
    let mut b = Bench::new(&[15, 5, 15, 5]);
    let mut e = b.engine(&prep, &SimOptions::default());
    // Printed 1d8+6 for two hands (1½ × Str 4); one hand: 1d8+4.
    e.strike(0, 2, 2, Swing::default());
    assert_eq!(100 - e.st.hp(2), 9);
    assert!(!e.st.fighters[0].turn.martial.shield_off, "the shield's +2 AC stays");
    e.st.dismount(0, at(5, 5));
    e.strike(0, 2, 2, Swing::default());
    assert_eq!(100 - e.st.hp(2), 9 + 11, "on foot: 5 + 6");
    assert!(e.st.fighters[0].turn.martial.shield_off);
}

#[test]
fn on_horseback_melee_attacks_get_plus_one_against_smaller_foes_on_foot() {
    for (size, bonus) in [("Medium", 1), ("Small", 1), ("Large", 0), ("Huge", 0)] {
        let prep = mounted(json!([]), 5, foe(size), (1, 4));
        let mut b = Bench::new(&[]);
        let mut e = b.engine(&prep, &SimOptions::default());
        let up = e.st.situation(0, 0, 2, Swing::default()).attack;
        e.st.dismount(0, at(1, 3));
        let down = e.st.situation(0, 0, 2, Swing::default()).attack;
        assert_eq!(up - down, bonus, "against a {size} foe");
    }
}

#[test]
fn mounted_combat_negates_a_hit_on_the_mount_once_a_round_when_the_ride_check_beats_the_attack_roll() {
    // The foe's club: +5; d20 15 makes 20 against the horse's AC 14.
    let features = json!(["Mounted Combat"]);
    // Ride +5: 16 + 5 = 21 > 20 negates; 15 + 5 = 20 does not (the result must be greater).
    let prep = mounted(features.clone(), 5, foe("Medium"), (1, 3));
    let mut b = Bench::new(&[15, 16]);
    let mut e = b.engine(&prep, &SimOptions::default());
    let (hit, _) = e.strike(2, 0, 1, Swing::default());
    assert!(!hit);
    assert_eq!(e.st.hp(1), 30);
    drop(e);
    assert!(b.events.iter().any(|r| matches!(
        r.event,
        Event::Mounted { who: 0, what: MountedEvent::Shields { mount: 1, attack: 20, negated: true, .. } }
    )));
    let prep = mounted(features, 5, foe("Medium"), (1, 3));
    // A failed check, then a second hit the same round: no second check.
    let mut b = Bench::new(&[15, 15, 3, 15, 3]);
    let mut e = b.engine(&prep, &SimOptions::default());
    assert!(e.strike(2, 0, 1, Swing::default()).0);
    assert!(e.strike(2, 0, 1, Swing::default()).0);
    assert_eq!(e.st.hp(1), 24);
    drop(e);
    let checks = b
        .events
        .iter()
        .filter(|r| matches!(r.event, Event::Mounted { what: MountedEvent::Shields { .. }, .. }));
    assert_eq!(checks.count(), 1);
    // Without the feat, no check.
    let prep = mounted(json!([]), 5, foe("Medium"), (1, 3));
    let mut b = Bench::new(&[15, 3]);
    let mut e = b.engine(&prep, &SimOptions::default());
    assert!(e.strike(2, 0, 1, Swing::default()).0);
}

#[test]
fn a_rider_whose_mount_falls_lands_softly_on_a_ride_check_of_15_else_takes_1d6_and_lies_prone() {
    for (d20, soft) in [(10, true), (9, false)] {
        let prep = mounted(json!([]), 5, foe("Medium"), (8, 18));
        let faces: &[u32] = if soft { &[d20] } else { &[d20, 4] };
        let mut b = Bench::new(faces);
        let mut e = b.engine(&prep, &SimOptions::default());
        e.wound(1, 60);
        e.settle_riders();
        assert_eq!(e.st.riding(0), None);
        assert_eq!(e.st.space(0), 1);
        assert_eq!(e.st.hp(0), if soft { 40 } else { 36 }, "Ride {d20} + 5 against 15");
        assert_eq!(e.st.is_prone(0), !soft);
        let to = e.st.pos(0);
        assert_eq!(e.st.occupant(to), Some(0), "back on the grid");
        drop(e);
        let fell = b.events.iter().any(|r| {
            matches!(
                r.event,
                Event::Mounted { who: 0, what: MountedEvent::Falls { cause: DismountCause::MountDown, .. } }
            )
        });
        assert!(fell);
    }
}

#[test]
fn a_rider_knocked_unconscious_stays_in_the_saddle_half_the_time() {
    for (d100, stays) in [(50, true), (51, false)] {
        let prep = mounted(json!([]), 5, foe("Medium"), (8, 18));
        let faces: &[u32] = if stays { &[d100] } else { &[d100, 2] };
        let mut b = Bench::new(faces);
        let mut e = b.engine(&prep, &SimOptions::default());
        e.wound(0, 41);
        e.settle_riders();
        assert_eq!(e.st.riding(0).is_some(), stays, "d100 {d100}");
        if !stays {
            assert_eq!(e.st.hp(0), -3, "1d6 more");
        }
        // Once stayed, no new roll.
        e.settle_riders();
    }
}

#[test]
fn the_mount_acts_on_its_riders_count_a_single_attack_after_one_move_none_after_a_charge() {
    // Foe 2 at (1, 8): after the move to (1, 6) the horse is adjacent.
    let prep = mounted(json!([]), 5, foe("Medium"), (1, 8));
    // Direct: d20 5 + 5 = 10 (DC 10); the bite: d20 15, 1d4 2.
    let mut b = Bench::new(&[5, 15, 2]);
    let mut e = b.engine(&prep, &SimOptions::default());
    turn(&mut e, 0, vec![Action::new(ActionKind::Move).with_destination(at(1, 6))]);
    turn(&mut e, 1, vec![Action::at(ActionKind::FullAttack, 2)]);
    assert_eq!(e.st.hp(2), 100 - 7, "one bite, no hooves");
    assert_eq!(b.rng.remaining(), 0);
    // After a charge: nothing, and its −2 AC lasts.
    let prep = mounted(json!([]), 5, foe("Medium"), (1, 10));
    let mut b = Bench::new(&[15, 5]);
    let mut e = b.engine(&prep, &SimOptions::default());
    turn(&mut e, 0, vec![Action::at(ActionKind::Charge, 2).with_weapon(1)]);
    assert_eq!(e.st.hp(2), 100 - 18, "the lance's double damage");
    turn(&mut e, 1, vec![Action::at(ActionKind::FullAttack, 2)]);
    assert_eq!(e.st.hp(2), 82, "the horse charged: no attack");
    assert!(e.st.fighters[1].turn.charged);
    drop(e);
    let lines = b.lines();
    assert!(
        lines.iter().any(|l| l.contains("rider: charges foe on horse with its lance (damage x2)")),
        "{lines:#?}"
    );
}

#[test]
fn a_failed_ride_check_keeps_the_mount_from_attacking() {
    let prep = mounted(json!([]), 5, foe("Medium"), (1, 3));
    let mut b = Bench::new(&[4]);
    let mut e = b.engine(&prep, &SimOptions::default());
    turn(&mut e, 1, vec![Action::at(ActionKind::FullAttack, 2)]);
    assert_eq!(e.st.hp(2), 100);
    drop(e);
    assert!(b.events.iter().any(|r| matches!(
        r.event,
        Event::Mounted { who: 0, what: MountedEvent::Directs { d20: 4, bonus: 5, dc: 10, ok: false, .. } }
    )));
}

#[test]
fn unseat_knocks_a_charged_rider_off_its_horse() {
    // Both sides ride: the lancer (0) on horse 1, the target rider (2) on horse 3.
    let mut target = rider(json!([]), 0);
    target.name = "Knight".into();
    let mut lancer = rider(json!(["Mounted Combat", "Power Attack", "Unseat"]), 5);
    lancer.cmb = Some(10);
    let prep = prepare(
        arena(10, 20),
        vec![
            ("a", lancer, at(1, 1)),
            ("a", horse(), at(1, 1)),
            ("b", target, at(1, 4)),
            ("b", horse(), at(1, 4)),
        ],
    );
    let mut b = Bench::new(&[15, 5, 15, 3, 6]);
    let mut e = b.engine(&prep, &SimOptions::default());
    assert_eq!(e.st.riding(2), Some(3));
    e.strike(0, 1, 2, Swing { charge: true, ..Swing::default() });
    assert_eq!(e.st.riding(2), None, "bull rush 15 + CMB against the knight's CMD");
    assert!(e.st.is_prone(2));
}

#[test]
fn a_mount_on_the_other_side_or_not_larger_is_refused_with_the_riders_mount_field() {
    let other_side = PreparedEncounter::new(&encounter(
        arena(6, 10),
        vec![("a", rider(json!([]), 5), at(1, 1)), ("b", horse(), at(1, 5))],
    ));
    let Err(PrepareError::BadMount { combatant, message }) = other_side else { panic!("refused") };
    assert_eq!(combatant, "rider");
    assert!(message.contains("on side \"b\", not on its own side \"a\""), "{message}");
    let mut pony = horse();
    pony.size = crate::model::Size::Medium;
    let err = PreparedEncounter::new(&encounter(
        arena(6, 10),
        vec![("a", rider(json!([]), 5), at(1, 1)), ("a", pony, at(1, 5))],
    ))
    .unwrap_err();
    assert!(err.to_string().contains("$.mount: its mount \"Horse\" is Medium, not larger"), "{err}");
    // No horse at all: the rider fights on foot.
    let prep =
        prepare(arena(6, 10), vec![("a", rider(json!([]), 5), at(1, 1)), ("b", foe("Medium"), at(1, 5))]);
    assert_eq!(prep.fighters[0].rider.mount, None);
    // A rider riding itself is refused by the file check.
    let mut v: serde_json::Value = serde_json::to_value(rider(json!([]), 5)).unwrap();
    v["mount"] = json!({ "name": "rider" });
    let err = crate::model::parse_combatant(&v.to_string(), "rider.json").unwrap_err();
    assert!(err.to_string().contains("$.mount.name"), "{err}");
}

/// Esha on Jeanne against a hill giant on the open field (it throws rocks
/// and waits: the ravine leaves room for a charge), as the default policy
/// plays it, over many seeds: she rides from the start, Jeanne never moves
/// on her own while Esha is in the saddle and up, Esha charges with her
/// lance for double damage in most battles, and when Jeanne goes down a
/// rider still in the saddle falls with the cause `mount_down`.
#[test]
fn esha_on_jeanne_charges_a_hill_giant_on_the_field_over_many_seeds() {
    let prep = esha_on_jeanne_against("hill_giant");
    let (esha, jeanne) = (0, 1);
    let runs: u32 = 200;
    let (mut lance_charges, mut thrown) = (0, 0);
    for run in 0..runs {
        let mut rng = crate::rng::SeededRng::for_run(7, u64::from(run));
        let mut events = Vec::new();
        crate::combat::run_prepared(
            &prep,
            &SimOptions::default(),
            &mut rng,
            Some(&mut events),
            &mut crate::combat::DefaultPolicy,
        );
        assert!(matches!(
            events.iter().find(|r| matches!(r.event, Event::Mounted { .. })).map(|r| &r.event),
            Some(Event::Mounted { who: 0, what: MountedEvent::Rides { mount: 1 } })
        ));
        let (mut in_saddle, mut up, mut charged) = (true, true, false);
        let mut owed_fall = false;
        for r in &events {
            match &r.event {
                Event::Mounted { who, what: MountedEvent::Falls { cause, .. } } if *who == esha => {
                    if owed_fall {
                        assert_eq!(*cause, DismountCause::MountDown, "run {run}");
                        thrown += 1;
                    }
                    (in_saddle, owed_fall) = (false, false);
                }
                Event::Life { who, .. } if *who == esha => up = false,
                Event::Life { who, change: LifeChange::Dies | LifeChange::Dying, .. }
                    if *who == jeanne && in_saddle && up =>
                {
                    owed_fall = true
                }
                Event::Mounted { what: MountedEvent::Charges { weapon, mult, .. }, .. } => {
                    assert!(in_saddle, "run {run}: a mounted charge on foot");
                    if weapon == "lance" {
                        assert_eq!(*mult, 2);
                        charged = true;
                    }
                }
                Event::Step { who, .. } if *who == jeanne && in_saddle && up => {
                    panic!("run {run}: Jeanne steps on her own with Esha in the saddle")
                }
                Event::Move { who, kind, .. } if *who == jeanne && in_saddle && up => {
                    panic!("run {run}: Jeanne moves on her own ({kind:?}) with Esha in the saddle")
                }
                _ => {}
            }
        }
        assert!(!owed_fall, "run {run}: Jeanne went down and Esha stayed in the saddle");
        lance_charges += u32::from(charged);
    }
    assert!(lance_charges * 4 > runs * 3, "a lance charge in most battles: {lance_charges} of {runs}");
    assert!(thrown > 0, "Jeanne is killed under Esha in some battles");
}

fn esha_on_jeanne_against(monster: &str) -> PreparedEncounter {
    let map = Arc::new(
        crate::map::Map::load(
            &std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../data/maps/field.yaml"),
        )
        .expect("field"),
    );
    let sides = vec![
        crate::encounter::SideSpec {
            name: "players".into(),
            combatants: vec![
                Arc::new(data_combatant("data/pcs/esha.json")),
                Arc::new(data_combatant("data/pcs/jeanne.json")),
            ],
        },
        crate::encounter::SideSpec {
            name: "monsters".into(),
            combatants: vec![Arc::new(data_combatant(&format!("data/monsters/{monster}.json")))],
        },
    ];
    let enc = crate::encounter::Encounter::build(map, sides).expect("encounter");
    PreparedEncounter::new(&enc).expect("prepared")
}

#[test]
#[ignore = "prints a transcript: cargo test -p pf1e-engine --lib mounted_transcript -- --ignored --nocapture"]
fn mounted_transcript() {
    let monster = std::env::var("MONSTER").unwrap_or_else(|_| "ogre".into());
    let prep = esha_on_jeanne_against(&monster);
    let run: u64 = std::env::var("RUN").ok().and_then(|r| r.parse().ok()).unwrap_or(0);
    let mut rng = crate::rng::SeededRng::for_run(7, run);
    let mut events = Vec::new();
    crate::combat::run_prepared(
        &prep,
        &SimOptions::default(),
        &mut rng,
        Some(&mut events),
        &mut crate::combat::DefaultPolicy,
    );
    for l in english(&prep, &events) {
        println!("{l}");
    }
}

/// The campaign's tower guard (data/sweeps/campaign_guard.yaml) with Esha
/// riding Jeanne and with Esha on foot beside her, same seeds: what mounting
/// changes (printed; the report names the command).
#[test]
#[ignore = "a measurement: cargo test -p pf1e-engine --lib campaign_guard_mounted_or_not -- --ignored --nocapture"]
fn campaign_guard_mounted_or_not() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../data");
    let map = Arc::new(crate::map::Map::load(&root.join("maps/tower.yaml")).expect("tower"));
    let pcs = ["jeanne", "esha", "harvie", "ierlieth", "misty", "nairda", "oni", "tammara"];
    let foes = ["thrune_agent", "orc", "orc", "goblin", "goblin"];
    for mounted in [true, false] {
        let players = pcs
            .iter()
            .map(|p| {
                let mut c = data_combatant(&format!("data/pcs/{p}.json"));
                if !mounted {
                    c.mount = None;
                }
                Arc::new(c)
            })
            .collect();
        let monsters =
            foes.iter().map(|m| Arc::new(data_combatant(&format!("data/monsters/{m}.json")))).collect();
        let sides = vec![
            crate::encounter::SideSpec { name: "players".into(), combatants: players },
            crate::encounter::SideSpec { name: "monsters".into(), combatants: monsters },
        ];
        let enc = crate::encounter::Encounter::build(Arc::clone(&map), sides)
            .expect("encounter")
            .with_library(library());
        let prep = PreparedEncounter::new(&enc).expect("prepared");
        let options = SimOptions { round_cap: 20, ..SimOptions::default() };
        if std::env::var("PRINT").is_ok_and(|p| p == mounted.to_string()) {
            let mut rng = crate::rng::SeededRng::for_run(12, 0);
            let mut events = Vec::new();
            crate::combat::run_prepared(
                &prep,
                &options,
                &mut rng,
                Some(&mut events),
                &mut crate::combat::DefaultPolicy,
            );
            for l in english(&prep, &events).iter().filter(|l| l.contains("esha") || l.contains("jeanne")) {
                println!("{l}");
            }
        }
        let runs = 1000;
        let (mut wins, mut pc_dies, mut esha_dies, mut jeanne_dies, mut rounds) = (0, 0, 0, 0, 0);
        for run in 0..runs {
            let mut rng = crate::rng::SeededRng::for_run(12, run);
            let out = crate::combat::run_prepared(
                &prep,
                &options,
                &mut rng,
                None,
                &mut crate::combat::DefaultPolicy,
            );
            wins += u32::from(out.winner == Some(0));
            pc_dies += u32::from(out.combatants[..8].iter().any(|c| c.dead));
            jeanne_dies += u32::from(out.combatants[0].dead);
            esha_dies += u32::from(out.combatants[1].dead);
            rounds += out.rounds;
        }
        println!(
            "mounted {mounted}: win {wins}/{runs}, a PC dies {pc_dies}, Esha dies {esha_dies}, Jeanne dies {jeanne_dies}, rounds {:.2}",
            f64::from(rounds) / runs as f64
        );
    }
}
