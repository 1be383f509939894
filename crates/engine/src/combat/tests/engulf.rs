//! Engulf by movement (`combat::monster::engulf`): against its closed form
//! with scripted dice, its data errors, the shipped gelatinous cube's
//! numbers, and the cube against the level-4 party on the event stream of
//! many battles.

use std::sync::Arc;

use serde_json::{Value, json};

use super::monsters::monster;
use super::support::*;
use crate::combat::DefaultPolicy;
use crate::combat::SimOptions;
use crate::combat::action::{Action, ActionKind};
use crate::combat::decide::Policy;
use crate::combat::event::{AfflictionEvent, EngulfedHow, Event, LifeChange, MoveKind};
use crate::combat::prepared::PreparedEncounter;
use crate::effects::ConditionId;
use crate::encounter::Encounter;
use crate::map::Pos;

/// A Large engulfer (speed 15, a slam +0 1d6): engulf Reflex DC 12, 1d6
/// acid, and its paralysis (Fort DC 20, 3d6 rounds) as a rider.
fn engulfer() -> crate::model::Combatant {
    monster(
        "Cube",
        json!([
            { "kind": "on_hit", "name": "paralysis", "attacks": ["slam"], "save": "fort", "dc": 20,
              "effect": { "paralysis": { "rounds": "3d6" } } },
            { "kind": "engulf", "name": "engulf", "dc": 12, "damage": "1d6", "types": ["acid"],
              "riders": ["paralysis"] }
        ]),
        json!({ "size": "Large", "speed_land_ft": 15, "hp_max": 50,
                "attacks": [{ "name": "slam", "kind": "melee", "attack_bonus": 0, "natural": true,
                              "damage": [{ "formula": "1d6", "types": ["bludgeoning"] }] }] }),
    )
}

/// A Medium foe with 40 hit points and Reflex `reflex`.
fn foe(reflex: i32) -> crate::model::Combatant {
    creature("Foe", json!({ "hp_max": 40, "saves": { "fort": 0, "ref": reflex, "will": 0 } }))
}

/// The engulfer on (1,1) (its space: rows 1–2, columns 1–2), the foe on
/// (1,4): an engulf to (1,3) covers it on its last square.
fn duel(reflex: i32) -> PreparedEncounter {
    prepare(arena(6, 12), vec![("monsters", engulfer(), at(1, 1)), ("players", foe(reflex), at(1, 4))])
}

fn engulf_to(row: i32, col: i32) -> Vec<Action> {
    vec![Action::new(ActionKind::Engulf).with_destination(Pos::new(row, col))]
}

#[test]
fn a_failed_reflex_save_engulfs_the_foe_pinned_inside_taking_the_acid_and_paralysis_save_each_round() {
    let prep = duel(0);
    // Reflex d20 5 + 0 < 12: engulfed; acid 1d6 = 4; Fort d20 20 saves.
    // Next round: acid 3, Fort 20. Its turn: escape d20 1 fails.
    let mut b = Bench::new(&[5, 4, 20, 3, 20, 1]);
    let mut e = b.engine(&prep, &SimOptions::default());
    turn(&mut e, 0, engulf_to(1, 3));
    assert!(e.st.is_swallowed(1));
    assert_eq!(e.st.pos(0), Pos::new(1, 3));
    assert_eq!(e.st.occupant(Pos::new(1, 4)), Some(0), "the cube stands where the foe stood");
    assert!(e.st.has_condition(1, ConditionId::Pinned));
    assert_eq!(e.st.hp(1), 40 - 4);
    e.start_round();
    turn(&mut e, 0, vec![]);
    assert_eq!(e.st.hp(1), 40 - 4 - 3, "the acid again at the start of the engulfer's turn");
    turn(&mut e, 1, vec![]);
    assert!(e.st.is_swallowed(1), "a failed escape keeps it inside");
    drop(e);
    let engulfed: Vec<_> = b
        .events
        .iter()
        .filter(|r| {
            matches!(&r.event, Event::Affliction { who: 1, what: AfflictionEvent::Engulfed { by: 0, how, .. } }
                if *how == EngulfedHow::Save)
        })
        .collect();
    assert_eq!(engulfed.len(), 1);
    assert!(b.events.iter().any(|r| matches!(&r.event, Event::Move { who: 0, kind: MoveKind::Engulf, .. })));
    let strikes = b
        .events
        .iter()
        .filter(|r| matches!(&r.event, Event::Affliction { who: 0, what: AfflictionEvent::Strikes { ability, target: 1 } } if ability == "engulf"))
        .count();
    assert_eq!(strikes, 2, "caught, then one round inside");
}

#[test]
fn a_failed_paralysis_save_inside_paralyzes_and_an_escape_frees_the_foe_beside_the_engulfer() {
    let prep = duel(0);
    // Reflex 5 fails; acid 2; Fort d20 3 fails: paralyzed 3d6 = 1+1+1 rounds.
    let mut b = Bench::new(&[5, 2, 3, 1, 1, 1]);
    let mut e = b.engine(&prep, &SimOptions::default());
    turn(&mut e, 0, engulf_to(1, 3));
    assert!(e.st.has_condition(1, ConditionId::Paralyzed));
    drop(e);
    // Escape: d20 20 against the engulfer's CMD.
    let mut b = Bench::new(&[5, 2, 20, 20]);
    let mut e = b.engine(&prep, &SimOptions::default());
    turn(&mut e, 0, engulf_to(1, 3));
    turn(&mut e, 1, vec![]);
    assert!(!e.st.is_swallowed(1));
    assert!(!e.st.has_condition(1, ConditionId::Pinned));
    assert!(!e.st.has_condition(1, ConditionId::Grappled));
    assert_eq!(e.st.distance(0, 1), 5, "out beside the engulfer");
    let out = e.st.pos(1);
    assert_eq!(e.st.occupant(out), Some(1));
    drop(e);
    assert!(b.events.iter().any(|r| r.event
        == Event::Affliction { who: 1, what: AfflictionEvent::EscapesEngulf { from: 0, to: Some(out) } }));
}

#[test]
fn a_successful_reflex_save_pushes_the_foe_aside_out_of_the_engulfers_space() {
    let prep = duel(0);
    // Reflex d20 12 + 0 = 12: saved.
    let mut b = Bench::new(&[12]);
    let mut e = b.engine(&prep, &SimOptions::default());
    turn(&mut e, 0, engulf_to(1, 3));
    assert!(!e.st.is_swallowed(1));
    assert_eq!(e.st.hp(1), 40, "no acid, no paralysis save");
    assert_eq!(e.st.pos(0), Pos::new(1, 3));
    assert_eq!(e.st.distance(0, 1), 5, "pushed to a square beside the engulfer");
    let to = e.st.pos(1);
    assert_eq!(e.st.occupant(to), Some(1));
    drop(e);
    assert!(b.events.iter().any(|r| matches!(
        r.event,
        Event::Affliction { who: 1, what: AfflictionEvent::AvoidsEngulf { by: 0 } }
    )));
    assert!(
        b.events.iter().any(
            |r| r.event == Event::Affliction { who: 1, what: AfflictionEvent::PushedAside { by: 0, to } }
        )
    );
}

#[test]
fn a_paralyzed_foe_is_engulfed_without_a_save() {
    let prep = duel(30);
    // No Reflex roll: acid 1d6 = 6, then the paralysis rider's Fort d20 20.
    let mut b = Bench::new(&[6, 20]);
    let mut e = b.engine(&prep, &SimOptions::default());
    e.set_condition(1, ConditionId::Paralyzed);
    turn(&mut e, 0, engulf_to(1, 3));
    assert!(e.st.is_swallowed(1));
    assert_eq!(e.st.hp(1), 34);
    drop(e);
    assert!(b.events.iter().any(|r| matches!(
        &r.event,
        Event::Affliction { who: 1, what: AfflictionEvent::Engulfed { how: EngulfedHow::Helpless, .. } }
    )));
}

#[test]
fn a_foe_whose_save_needs_a_natural_20_attacks_instead_and_is_engulfed_without_a_save() {
    // Reflex −8 against DC 12: only a 20 saves (12 + 8 = 20).
    let prep = duel(-8);
    // Its attack of opportunity: d20 1 misses; acid 1d6 = 2; Fort 20.
    let mut b = Bench::new(&[1, 2, 20]);
    let mut e = b.engine(&prep, &SimOptions::default());
    assert!(e.st.engulf_attacks(0, 1, 12) || e.st.distance(0, 1) > 5);
    turn(&mut e, 0, engulf_to(1, 3));
    assert!(e.st.is_swallowed(1));
    assert_eq!(e.st.hp(1), 38);
    drop(e);
    assert!(b.events.iter().any(|r| matches!(&r.event, Event::Attack(a) if a.who == 1 && a.aoo)));
    assert!(b.events.iter().any(|r| matches!(
        &r.event,
        Event::Affliction {
            who: 1,
            what: AfflictionEvent::Engulfed { how: EngulfedHow::AttackOfOpportunity, .. }
        }
    )));
    // With Reflex −7 a 19 saves too: it saves instead.
    let prep = duel(-7);
    let mut b = Bench::new(&[]);
    let e = b.engine(&prep, &SimOptions::default());
    assert!(!e.st.engulf_attacks(0, 1, 12));
}

#[test]
fn the_route_stops_at_the_engulfers_speed_and_at_an_ally_in_its_path() {
    let mut route = crate::combat::prepared::monster::EngulfRoute::default();
    let prep = duel(0);
    let mut b = Bench::new(&[]);
    let e = b.engine(&prep, &SimOptions::default());
    // Speed 15: three squares.
    assert_eq!(e.st.engulf_route(0, Pos::new(1, 4), &mut route), Some(15));
    assert_eq!(route.over, vec![1]);
    assert_eq!(e.st.engulf_route(0, Pos::new(1, 5), &mut route), None, "20 ft: beyond its speed");
    assert_eq!(e.st.engulf_route(0, Pos::new(1, 1), &mut route), None, "it must move");
    drop(e);
    let ally = creature("Ally", json!({}));
    let prep = prepare(
        arena(6, 12),
        vec![("monsters", engulfer(), at(1, 1)), ("monsters", ally, at(1, 4)), ("players", foe(0), at(4, 8))],
    );
    let mut b = Bench::new(&[]);
    let e = b.engine(&prep, &SimOptions::default());
    assert_eq!(e.st.engulf_route(0, Pos::new(1, 3), &mut route), None, "over an ally");
}

#[test]
fn the_engulfer_takes_the_route_that_covers_two_foes_rather_than_one() {
    // Foes on (1,4) and (2,4): a move to (1,3) covers both; one on (4,1)
    // alone below it (a move to (3,1) covers that one only).
    let prep = prepare(
        arena(8, 12),
        vec![
            ("monsters", engulfer(), at(1, 1)),
            ("players", foe(0), at(4, 1)),
            ("players", foe(0), at(1, 4)),
            ("players", foe(0), at(2, 4)),
        ],
    );
    let mut b = Bench::new(&[]);
    let e = b.engine(&prep, &SimOptions::default());
    let mut out = Vec::new();
    DefaultPolicy.plan(&e.st, 0, &mut out);
    assert_eq!(out.len(), 1, "{out:?}");
    assert_eq!(out[0].kind, ActionKind::Engulf);
    let mut route = crate::combat::prepared::monster::EngulfRoute::default();
    e.st.engulf_route(0, out[0].destination.unwrap(), &mut route).unwrap();
    let mut over = route.over.clone();
    over.sort_unstable();
    assert_eq!(over, vec![2, 3]);
    // The expected catch: each foe fails Reflex DC 12 with +0 on 1–11: 55 %.
    let chance = crate::combat::policy::engulf_chance(&e.st, 0, 2, 12);
    assert!((chance - 0.55).abs() < 1e-9, "{chance}");
}

#[test]
fn an_engulf_entry_with_a_bad_rider_dc_or_dice_is_one_error_naming_the_field() {
    let slam = json!([{ "name": "slam", "kind": "melee", "attack_bonus": 0, "natural": true,
                        "damage": [{ "formula": "1d6", "types": ["bludgeoning"] }] }]);
    let bad = |specials: Value| super::holds::special_error(specials, slam.clone());
    let engulf =
        json!({ "kind": "engulf", "name": "engulf", "dc": 12, "damage": "1d6", "riders": ["paralysis"] });
    let e = bad(json!([engulf.clone()]));
    assert!(e.contains("special_abilities[0].riders") && e.contains("paralysis"), "{e}");
    let mut zero = engulf.clone();
    zero["riders"] = json!([]);
    zero["dc"] = json!(0);
    let e = bad(json!([zero]));
    assert!(e.contains("special_abilities[0].dc"), "{e}");
    let mut dice = engulf;
    dice["riders"] = json!([]);
    dice["damage"] = json!("1q6");
    let e = bad(json!([dice]));
    assert!(e.contains("special_abilities[0].damage"), "{e}");
}

#[test]
fn the_shipped_cubes_engulf_dc_and_damage_follow_its_stat_block() {
    let cube = data_combatant("data/monsters/gelatinous_cube.json");
    let modifier = |score: i32| (score - 10).div_euclid(2);
    let hd = 4; // 4d8+32
    let (mut engulf_dc, mut paralysis_dc) = (0, 0);
    for a in &cube.special_abilities {
        match a {
            crate::model::SpecialAbility::Engulf { dc, damage, types, riders, smaller, .. } => {
                engulf_dc = *dc;
                assert_eq!(damage, "1d6", "the slam's acid");
                assert_eq!(types, &vec!["acid".to_string()]);
                assert_eq!(riders, &vec!["paralysis".to_string()]);
                assert_eq!(*smaller, 0, "Large or smaller: its own size");
            }
            crate::model::SpecialAbility::OnHit { name, dc, .. } if name == "paralysis" => paralysis_dc = *dc,
            _ => {}
        }
    }
    // "The save DC is Strength-based": 10 + half its Hit Dice + Str modifier.
    assert_eq!(engulf_dc, 10 + hd / 2 + modifier(cube.abilities.str_score));
    // Paralysis, Constitution-based.
    assert_eq!(paralysis_dc, 10 + hd / 2 + modifier(cube.abilities.con_score.unwrap()));
    let slam = cube.attacks.iter().find(|a| a.name == "slam").unwrap();
    assert!(slam.damage.iter().any(|d| d.formula == "1d6" && d.types == ["acid"]));
}

/// Esha, Harvie, Oni and Nairda against the shipped gelatinous cube in the
/// crypt corridor, met at close quarters (the cube's 15 ft from the first
/// two, as a table springs a cube on a party in a dungeon): on the open
/// field the party shoots it down before it reaches anyone.
fn party_against_the_cube() -> Encounter {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../data");
    let map = Arc::new(crate::map::Map::load(&root.join("maps/corridor.yaml")).expect("corridor"));
    let pc = |p: &str| data_combatant(&format!("data/pcs/{p}.json"));
    encounter(
        map,
        vec![
            ("players", pc("esha"), at(3, 11)),
            ("players", pc("harvie"), at(4, 11)),
            ("players", pc("oni"), at(5, 9)),
            ("players", pc("nairda"), at(3, 7)),
            ("monsters", data_combatant("data/monsters/gelatinous_cube.json"), at(3, 14)),
        ],
    )
    .with_library(library())
}

#[test]
fn the_cube_engulfs_pcs_who_take_its_acid_each_round_nobody_attacks_inside_and_it_never_slams_that_turn() {
    let encounter = party_against_the_cube();
    let cube = 4;
    let (mut engulfed, mut avoided, mut acid, mut out) = (0, 0, 0, 0);
    for run in 0..60 {
        let transcript = spared_transcript(&encounter, 13, run);
        let mut inside: Vec<usize> = Vec::new();
        let mut engulfed_in: Option<u32> = None;
        let mut saved: Vec<(u32, usize)> = Vec::new();
        for r in &transcript.events {
            match &r.event {
                Event::Move { who, kind: MoveKind::Engulf, .. } => {
                    assert_eq!(*who, cube);
                    engulfed_in = Some(r.round);
                }
                Event::Affliction { who, what: AfflictionEvent::Engulfed { by, ability, .. } } => {
                    assert_eq!((*by, ability.as_str()), (cube, "engulf"));
                    assert_eq!(transcript.combatants[*who].side, 0, "only the party's side is engulfed");
                    assert!(!inside.contains(who));
                    inside.push(*who);
                    engulfed += 1;
                }
                Event::Affliction { who, what: AfflictionEvent::AvoidsEngulf { by } } => {
                    assert_eq!(*by, cube);
                    saved.push((r.round, *who));
                    avoided += 1;
                }
                Event::Affliction { who, what: AfflictionEvent::PushedAside { by, .. } } => {
                    assert_eq!(*by, cube);
                    assert!(
                        saved.contains(&(r.round, *who)),
                        "pushed aside without a saved engulf this round"
                    );
                }
                Event::Affliction { what: AfflictionEvent::Strikes { ability, target }, .. }
                    if ability == "engulf" =>
                {
                    assert!(inside.contains(target), "its acid falls on those inside");
                    acid += 1;
                }
                Event::Affliction {
                    who,
                    what: AfflictionEvent::EscapesEngulf { .. } | AfflictionEvent::FallsOut { .. },
                } => {
                    assert!(inside.contains(who));
                    inside.retain(|x| x != who);
                    out += 1;
                }
                Event::Life { who, change: LifeChange::Dies, .. } => inside.retain(|x| x != who),
                Event::Attack(a) => {
                    assert!(!inside.contains(&a.target), "an attack on a creature inside the cube");
                    assert!(
                        !(a.who == cube && engulfed_in == Some(r.round) && !a.aoo),
                        "a slam in a round it engulfs"
                    );
                }
                _ => {}
            }
        }
    }
    assert!(engulfed > 0 && avoided > 0 && acid > engulfed && out > 0, "{engulfed} {avoided} {acid} {out}");
}
