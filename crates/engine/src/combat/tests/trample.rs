//! Trample (`combat::monster::trample`): against its closed form with
//! scripted dice, its route, its data errors, the shipped elephant's
//! numbers, and the elephant against the level-4 party on the event stream
//! of many battles.

use std::sync::Arc;

use serde_json::json;

use super::monsters::monster;
use super::support::*;
use crate::combat::DefaultPolicy;
use crate::combat::SimOptions;
use crate::combat::action::{Action, ActionKind};
use crate::combat::decide::Policy;
use crate::combat::event::{AfflictionEvent, AttackNote, Event, ModSource, MoveKind};
use crate::combat::prepared::PreparedEncounter;
use crate::combat::prepared::monster::EngulfRoute;
use crate::effects::ConditionId;
use crate::encounter::Encounter;
use crate::map::Pos;

/// A Huge trampler (speed 40, a slam +0 1d6 with its default 15-ft reach):
/// trample 2d8+15, Reflex DC 25.
fn trampler() -> crate::model::Combatant {
    monster(
        "Elephant",
        json!([{ "kind": "trample", "name": "trample", "damage": "2d8+15", "dc": 25 }]),
        json!({ "size": "Huge", "speed_land_ft": 40, "hp_max": 90,
                "attacks": [{ "name": "slam", "kind": "melee", "attack_bonus": 0, "natural": true,
                              "damage": [{ "formula": "1d6", "types": ["bludgeoning"] }] }] }),
    )
}

/// A Medium foe with 60 hit points, Reflex `reflex` and no weapon (so no
/// attack of opportunity: it saves).
fn unarmed(reflex: i32) -> crate::model::Combatant {
    creature("Foe", json!({ "hp_max": 60, "saves": { "fort": 0, "ref": reflex, "will": 0 }, "attacks": [] }))
}

/// A Medium foe with 60 hit points, Reflex +0 and a sword +10 2d6+10.
fn armed() -> crate::model::Combatant {
    creature("Fighter", json!({ "hp_max": 60, "attacks": [melee("sword", 10, "2d6+10")] }))
}

/// The trampler on (1,1) (its space: rows 1–3, columns 1–3), the foe on
/// (2,5): a trample to (1,6) goes over it on (1,3), (1,4) and (1,5), and
/// ends past it.
fn duel(foe: crate::model::Combatant) -> PreparedEncounter {
    prepare(arena(8, 14), vec![("monsters", trampler(), at(1, 1)), ("players", foe, at(2, 5))])
}

fn trample_to(row: i32, col: i32) -> Vec<Action> {
    vec![Action::new(ActionKind::Trample).with_destination(Pos::new(row, col))]
}

fn strikes(events: &[crate::combat::event::Record], t: usize) -> usize {
    events
        .iter()
        .filter(|r| {
            matches!(&r.event, Event::Affliction { what: AfflictionEvent::Strikes { ability, target }, .. }
                if ability == "trample" && *target == t)
        })
        .count()
}

#[test]
fn a_failed_reflex_save_takes_the_whole_trample_damage_once_though_the_trampler_covers_it_three_squares() {
    let prep = duel(unarmed(0));
    // Reflex d20 5 + 0 < 25: fails; 2d8 = 3 + 4, + 15 = 22.
    let mut b = Bench::new(&[5, 3, 4]);
    let mut e = b.engine(&prep, &SimOptions::default());
    turn(&mut e, 0, trample_to(1, 6));
    assert_eq!(e.st.hp(1), 60 - 22);
    assert_eq!(e.st.pos(0), Pos::new(1, 6), "ends past the foe");
    assert_eq!(e.st.pos(1), Pos::new(2, 5), "the foe is not moved");
    assert!(!e.st.has_condition(1, ConditionId::Prone), "no overrun check: not knocked prone");
    drop(e);
    assert_eq!(strikes(&b.events, 1), 1, "trampling damage once a round");
    assert!(b.events.iter().any(|r| matches!(&r.event, Event::Move { who: 0, kind: MoveKind::Trample, .. })));
}

#[test]
fn a_successful_reflex_save_halves_the_damage_rounded_down() {
    let prep = duel(unarmed(0));
    // A natural 20 saves; 2d8 = 3 + 5, + 15 = 23: half is 11.
    let mut b = Bench::new(&[20, 3, 5]);
    let mut e = b.engine(&prep, &SimOptions::default());
    turn(&mut e, 0, trample_to(1, 6));
    assert_eq!(e.st.hp(1), 60 - 11);
}

#[test]
fn a_helpless_foe_takes_the_damage_without_a_save() {
    let prep = duel(unarmed(30));
    // No Reflex roll: 2d8 = 8 + 8, + 15 = 31.
    let mut b = Bench::new(&[8, 8]);
    let mut e = b.engine(&prep, &SimOptions::default());
    e.set_condition(1, ConditionId::Paralyzed);
    turn(&mut e, 0, trample_to(1, 6));
    assert_eq!(e.st.hp(1), 60 - 31);
}

#[test]
fn a_foe_that_attacks_does_so_at_minus_4_and_takes_the_whole_damage_without_a_save() {
    let prep = duel(armed());
    let mut b = Bench::new(&[]);
    let e = b.engine(&prep, &SimOptions::default());
    // Its sword: +10 − 4 against AC 10, hits on 4+ (85 %), 17 on average:
    // 14.45 against the 5 % × 12 its Reflex +0 would spare it.
    assert!(e.st.trample_attacks(0, 1));
    drop(e);
    // Its attack of opportunity: d20 10 hits, 2d6 = 1 + 1, + 10 = 12; then
    // the trample's 2d8 = 2 + 2, + 15 = 19, no save.
    let mut b = Bench::new(&[10, 1, 1, 2, 2]);
    let mut e = b.engine(&prep, &SimOptions::default());
    turn(&mut e, 0, trample_to(1, 6));
    assert_eq!(e.st.hp(0), 90 - 12);
    assert_eq!(e.st.hp(1), 60 - 19);
    drop(e);
    let aoo: Vec<_> = b
        .events
        .iter()
        .filter_map(|r| match &r.event {
            Event::Attack(a) if a.who == 1 && a.aoo => Some(a.clone()),
            _ => None,
        })
        .collect();
    assert_eq!(aoo.len(), 1);
    assert_eq!(aoo[0].bonus, 10 - 4);
    assert!(aoo[0].notes.contains(&AttackNote::Modifier { source: ModSource::Trample, value: -4 }));
    assert!(!b.events.iter().any(|r| matches!(&r.event, Event::Save { who: 1, .. })), "no save");
}

#[test]
fn the_choice_between_the_blow_and_the_save_weighs_their_hit_points() {
    // Reflex +20 against DC 25: saves on 5+ (80 %), sparing 0.8 × 12 = 9.6
    // of the trample's 24; a sword +0 1d6 (−4: hits AC 10 on 14+, 35 %,
    // 3.5 on average: 1.2) is worth less: it saves.
    let foe = creature(
        "Dodger",
        json!({ "hp_max": 60, "saves": { "fort": 0, "ref": 20, "will": 0 }, "attacks": [melee("sword", 0, "1d6")] }),
    );
    let prep = duel(foe);
    let mut b = Bench::new(&[]);
    let e = b.engine(&prep, &SimOptions::default());
    assert!(!e.st.trample_attacks(0, 1));
    // Expected damage: 24 − 9.6 = 14.4.
    assert!((e.st.trample_expected(0, 1) - 14.4).abs() < 1e-9, "{}", e.st.trample_expected(0, 1));
}

#[test]
fn the_route_goes_over_smaller_foes_and_allies_but_not_a_foe_its_size_and_ends_on_free_squares() {
    let mut route = EngulfRoute::default();
    let prep = duel(unarmed(0));
    let mut b = Bench::new(&[]);
    let e = b.engine(&prep, &SimOptions::default());
    assert_eq!(e.st.trample_route(0, Pos::new(1, 6), &mut route), Some(25));
    assert_eq!(route.over, vec![1]);
    assert_eq!(e.st.trample_route(0, Pos::new(1, 5), &mut route), None, "it would end on the foe");
    assert_eq!(e.st.trample_route(0, Pos::new(1, 10), &mut route), None, "45 ft: beyond its speed");
    assert_eq!(e.st.trample_route(0, Pos::new(1, 1), &mut route), None, "it must move");
    drop(e);
    // A Huge foe in the path: not smaller, no route; an ally is passed over unharmed.
    let huge = creature("Giant", json!({ "size": "Huge" }));
    let prep = prepare(arena(8, 14), vec![("monsters", trampler(), at(1, 1)), ("players", huge, at(1, 4))]);
    let mut b = Bench::new(&[]);
    let e = b.engine(&prep, &SimOptions::default());
    assert_eq!(e.st.trample_route(0, Pos::new(1, 8), &mut route), None, "over a Huge foe");
    drop(e);
    let prep = prepare(
        arena(8, 14),
        vec![
            ("monsters", trampler(), at(1, 1)),
            ("monsters", creature("Ally", json!({})), at(2, 5)),
            ("players", unarmed(0), at(7, 12)),
        ],
    );
    let mut b = Bench::new(&[]);
    let mut e = b.engine(&prep, &SimOptions::default());
    assert_eq!(e.st.trample_route(0, Pos::new(1, 6), &mut route), Some(25));
    assert!(route.over.is_empty(), "an ally is not trampled");
    turn(&mut e, 0, trample_to(1, 6));
    assert_eq!((e.st.pos(0), e.st.hp(1)), (Pos::new(1, 6), 10));
}

#[test]
fn the_trampler_goes_over_two_foes_rather_than_full_attack_one_and_full_attacks_a_lone_foe_in_reach() {
    // Two unarmed foes (Reflex +0: 22.95 expected each) in a row: a trample
    // over both beats a full attack on one (slam +0 1d6).
    let prep = prepare(
        arena(8, 14),
        vec![
            ("monsters", trampler(), at(1, 1)),
            ("players", unarmed(0), at(2, 5)),
            ("players", unarmed(0), at(2, 7)),
        ],
    );
    let mut b = Bench::new(&[]);
    let e = b.engine(&prep, &SimOptions::default());
    let mut out = Vec::new();
    DefaultPolicy.plan(&e.st, 0, &mut out);
    assert_eq!(out.len(), 1, "{out:?}");
    assert_eq!(out[0].kind, ActionKind::Trample);
    let mut route = EngulfRoute::default();
    e.st.trample_route(0, out[0].destination.unwrap(), &mut route).unwrap();
    let mut over = route.over.clone();
    over.sort_unstable();
    assert_eq!(over, vec![1, 2]);
    drop(e);
    // A lone foe whom a slam +40 3d6+60 reaches from here: its full attack
    // (≈ 70) beats the trample's ≈ 23.
    let mut brute = trampler();
    brute.attacks[0].attack_bonus = 40;
    brute.attacks[0].damage[0].formula = "3d6+60".into();
    let prep = prepare(arena(8, 14), vec![("monsters", brute, at(1, 1)), ("players", unarmed(0), at(2, 5))]);
    let mut b = Bench::new(&[]);
    let e = b.engine(&prep, &SimOptions::default());
    let mut out = Vec::new();
    DefaultPolicy.plan(&e.st, 0, &mut out);
    assert!(out.iter().all(|a| a.kind != ActionKind::Trample), "{out:?}");
}

#[test]
fn a_trample_entry_with_a_bad_dc_dice_or_size_is_one_error_naming_the_field() {
    let slam = json!([{ "name": "slam", "kind": "melee", "attack_bonus": 0, "natural": true,
                        "damage": [{ "formula": "1d6", "types": ["bludgeoning"] }] }]);
    let bad = |specials: serde_json::Value| super::holds::special_error(specials, slam.clone());
    let e = bad(json!([{ "kind": "trample", "name": "trample", "damage": "2d8+15", "dc": 0 }]));
    assert!(e.contains("special_abilities[0].dc"), "{e}");
    let e = bad(json!([{ "kind": "trample", "name": "trample", "damage": "2q8", "dc": 25 }]));
    assert!(e.contains("special_abilities[0].damage"), "{e}");
    let e = bad(json!([{ "kind": "trample", "name": "trample", "damage": "2d8", "dc": 25, "smaller": 0 }]));
    assert!(e.contains("special_abilities[0].smaller"), "{e}");
}

#[test]
fn the_shipped_elephants_trample_follows_its_stat_block_and_the_umr_dc() {
    let elephant = data_combatant("data/monsters/elephant.json");
    let modifier = |score: i32| (score - 10).div_euclid(2);
    let hd = 11; // 11d8+44
    let [crate::model::SpecialAbility::Trample { damage, types, dc, smaller, .. }] =
        elephant.special_abilities.as_slice()
    else {
        panic!("one trample entry")
    };
    // "10 + 1/2 the creature's HD + the creature's Strength modifier".
    assert_eq!(*dc, 10 + hd / 2 + modifier(elephant.abilities.str_score));
    assert_eq!(*dc, 25, "printed");
    // Printed 2d8+15: the bonus is 1½ × its Strength modifier.
    assert_eq!(damage, "2d8+15");
    assert_eq!(modifier(elephant.abilities.str_score) * 3 / 2, 15);
    assert_eq!((types.as_slice(), *smaller), (&["bludgeoning".to_string()][..], 1));
    assert_eq!(elephant.size, crate::model::Size::Huge);
    assert!(elephant.attacks.iter().all(|a| a.reach_ft == Some(10)), "reach 10 ft. as printed");
}

/// Esha, Harvie, Oni and Nairda against the shipped elephant on the open
/// field (`data/maps/field.yaml`), as `pf1e sim` places them.
fn party_against_the_elephant() -> Encounter {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../data");
    let map = Arc::new(crate::map::Map::load(&root.join("maps/field.yaml")).expect("field"));
    let pc = |p: &str| Arc::new(data_combatant(&format!("data/pcs/{p}.json")));
    Encounter::build(
        map,
        vec![
            crate::encounter::SideSpec {
                name: "players".into(),
                combatants: ["esha", "harvie", "oni", "nairda"].iter().map(|p| pc(p)).collect(),
            },
            crate::encounter::SideSpec {
                name: "monsters".into(),
                combatants: vec![Arc::new(data_combatant("data/monsters/elephant.json"))],
            },
        ],
    )
    .expect("encounter")
    .with_library(library())
}

#[test]
fn the_elephant_tramples_pcs_once_a_round_each_makes_no_other_attack_that_turn_and_their_blows_take_minus_4()
{
    let encounter = party_against_the_elephant();
    let elephant = 4;
    let (mut tramples, mut struck, mut two, mut blows, mut saves) = (0, 0, 0, 0, 0);
    for run in 0..60 {
        let (_, transcript) = crate::runner::run_with_transcript(&encounter, &SimOptions::default(), 17, run);
        let mut trampled_in: Option<u32> = None;
        let mut hit: Vec<usize> = Vec::new();
        for r in &transcript.events {
            match &r.event {
                Event::Move { who, kind: MoveKind::Trample, .. } => {
                    assert_eq!(*who, elephant);
                    assert_ne!(trampled_in, Some(r.round), "one trample a round");
                    trampled_in = Some(r.round);
                    two += usize::from(hit.len() >= 2);
                    hit.clear();
                    tramples += 1;
                }
                Event::Affliction { who, what: AfflictionEvent::Strikes { ability, target } }
                    if ability == "trample" =>
                {
                    assert_eq!((*who, trampled_in), (elephant, Some(r.round)));
                    assert_eq!(transcript.combatants[*target].side, 0, "only the party is trampled");
                    assert!(!hit.contains(target), "a PC trampled twice in one trample");
                    hit.push(*target);
                    struck += 1;
                }
                Event::Save { dc, .. } if trampled_in == Some(r.round) && *dc == 25 => saves += 1,
                Event::Attack(a) if a.target == elephant && a.aoo && trampled_in == Some(r.round) => {
                    blows += usize::from(
                        a.notes.contains(&AttackNote::Modifier { source: ModSource::Trample, value: -4 }),
                    );
                }
                Event::Attack(a) => assert!(
                    !(a.who == elephant && !a.aoo && trampled_in == Some(r.round)),
                    "an elephant attack in a round it tramples"
                ),
                _ => {}
            }
        }
        two += usize::from(hit.len() >= 2);
    }
    assert!(tramples >= 30, "the elephant tramples: {tramples} in 60 battles");
    assert!(struck >= tramples, "each trample goes over a PC: {struck} of {tramples}");
    assert!(two > 0, "some trample catches two PCs");
    assert!(saves > 0, "some PC saves against DC 25");
    assert!(blows > 0, "some PC strikes at −4 instead");
}
