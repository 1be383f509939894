//! Split (`combat::monster::split`): which hits split, the halved hit
//! points, the copy's rows, square and turn, the floor below which the
//! creature takes damage, against the Bestiary's text with scripted dice;
//! its data errors; the shipped ochre jelly against the level-4 party on
//! the event stream of many battles.

use serde_json::{Value, json};

use super::monsters::monster;
use super::support::*;
use crate::combat::SimOptions;
use crate::combat::action::{Action, ActionKind};
use crate::combat::event::{AfflictionEvent, Event, Record};
use crate::combat::prepared::PreparedEncounter;
use crate::combat::prepared::monster::split_copies;

fn split() -> Value {
    json!({ "kind": "split", "name": "split", "types": ["slashing", "piercing", "electricity"], "min_hp": 10 })
}

/// A Medium jelly of `hp` hit points that splits, AC 10.
fn jelly(hp: i32) -> crate::model::Combatant {
    monster("Jelly", json!([split()]), json!({ "hp_max": hp, "creature_type": "ooze" }))
}

/// A fighter with one weapon of `types`, +10 to hit, `1d6+2`.
fn fighter(types: &[&str]) -> crate::model::Combatant {
    creature(
        "Fighter",
        json!({ "attacks": [{ "name": "weapon", "kind": "melee", "attack_bonus": 10,
                              "damage": [{ "formula": "1d6+2", "types": types }] }] }),
    )
}

/// The jelly at (2,2), the fighter beside it at (2,3).
fn field(hp: i32, types: &[&str]) -> PreparedEncounter {
    prepare(arena(6, 8), vec![("monsters", jelly(hp), at(2, 2)), ("players", fighter(types), at(2, 3))])
}

fn splits(events: &[Record]) -> Vec<(usize, i32, i32, Option<usize>)> {
    events
        .iter()
        .filter_map(|r| match &r.event {
            Event::Affliction { who, what: AfflictionEvent::Splits { hp_before, hp, copy, .. } } => {
                Some((*who, *hp_before, *hp, *copy))
            }
            _ => None,
        })
        .collect()
}

#[test]
fn the_copies_a_creature_can_become_follow_the_halvings_down_to_its_floor() {
    // 63 → 31 → 15 → 7: eight jellies at most (the ochre jelly's 63 hp).
    assert_eq!(split_copies(63, 10), 8);
    assert_eq!(split_copies(40, 10), 4, "40 → 20 → 10, which no longer splits");
    assert_eq!(split_copies(11, 10), 2);
    assert_eq!(split_copies(10, 10), 1);
    let prep = field(40, &["slashing"]);
    assert_eq!(prep.deployed, 2);
    assert_eq!(prep.len(), 2 + 3, "three rows reserved for its copies");
    assert_eq!(prep.split_groups.len(), 1);
    assert_eq!(prep.split_groups[0].rows, 2..5);
}

#[test]
fn a_slashing_hit_deals_no_damage_and_splits_the_jelly_into_two_of_half_its_hit_points() {
    let prep = field(41, &["slashing"]);
    // d20 10 + 10 hits AC 10; 1d6 = 6: 8 damage, none dealt.
    let mut b = Bench::new(&[10, 6]);
    let mut e = b.engine(&prep, &SimOptions::default());
    turn(&mut e, 1, vec![Action::at(ActionKind::Attack, 0)]);
    assert_eq!(e.st.fighters[0].hp, 20, "41 halved, rounded down");
    let copy = 2;
    assert!(e.st.is_present(copy));
    assert_eq!(e.st.fighters[copy].hp, 20);
    assert!(e.st.distance(0, copy) <= 5, "the copy appears beside it");
    assert!(!e.st.are_enemies(0, copy));
    assert_eq!(
        e.st.order.iter().position(|&j| j == copy),
        Some(e.st.order.iter().position(|&j| j == 0).unwrap() + 1)
    );
    drop(e);
    assert_eq!(splits(&b.events), vec![(0, 41, 20, Some(copy))]);
    let dealt: Vec<u32> = b
        .events
        .iter()
        .filter_map(|r| match &r.event {
            Event::Attack(a) => a.steps.iter().find_map(|s| match s {
                crate::combat::event::AttackStep::Damage { dealt, .. } => Some(*dealt),
                _ => None,
            }),
            _ => None,
        })
        .collect();
    assert_eq!(dealt, vec![0]);
}

#[test]
fn piercing_splits_a_copy_too_and_each_split_takes_the_next_reserved_row() {
    let prep = field(40, &["piercing"]);
    let mut b = Bench::new(&[10, 1, 10, 1, 10, 1]);
    let mut e = b.engine(&prep, &SimOptions::default());
    turn(&mut e, 1, vec![Action::at(ActionKind::Attack, 0)]);
    // The copy (row 2) is hit next: 20 → 10 and 10, into row 3.
    let copy = 2;
    let q = e.st.fighters[copy].pos;
    let beside = crate::grid::NEIGHBOURS
        .iter()
        .map(|&(dr, dc)| crate::map::Pos::new(q.row + dr, q.col + dc))
        .find(|&p| e.st.can_stand(1, p))
        .expect("a free square beside the copy");
    e.st.relocate(1, beside);
    e.start_round();
    turn(&mut e, 1, vec![Action::at(ActionKind::Attack, copy)]);
    assert_eq!(e.st.fighters[copy].hp, 10);
    assert_eq!(e.st.fighters[3].hp, 10);
    // At 10 hit points it no longer splits: the hit wounds it (1 + 2 = 3).
    e.start_round();
    turn(&mut e, 1, vec![Action::at(ActionKind::Attack, copy)]);
    assert_eq!(e.st.fighters[copy].hp, 7);
    assert!(!e.st.is_present(4), "no third copy");
    drop(e);
    assert_eq!(splits(&b.events), vec![(0, 40, 20, Some(2)), (2, 20, 10, Some(3))]);
}

#[test]
fn a_bludgeoning_weapon_and_one_both_bludgeoning_and_piercing_wound_it_as_usual() {
    for types in [&["bludgeoning"][..], &["bludgeoning", "piercing"][..]] {
        let prep = field(40, types);
        let mut b = Bench::new(&[10, 6]);
        let mut e = b.engine(&prep, &SimOptions::default());
        turn(&mut e, 1, vec![Action::at(ActionKind::Attack, 0)]);
        assert_eq!(e.st.fighters[0].hp, 32, "{types:?}: 6 + 2 damage");
        drop(e);
        assert!(splits(&b.events).is_empty());
    }
}

#[test]
fn a_flaming_sword_splits_it_and_deals_no_fire_either() {
    let prep = prepare(
        arena(6, 8),
        vec![
            ("monsters", jelly(40), at(2, 2)),
            (
                "players",
                creature(
                    "Fighter",
                    json!({ "attacks": [{ "name": "flaming sword", "kind": "melee", "attack_bonus": 10,
                        "damage": [{ "formula": "1d6+2", "types": ["slashing"] },
                                   { "formula": "1d6", "types": ["fire"] }] }] }),
                ),
                at(2, 3),
            ),
        ],
    );
    let mut b = Bench::new(&[10, 6, 6]);
    let mut e = b.engine(&prep, &SimOptions::default());
    turn(&mut e, 1, vec![Action::at(ActionKind::Attack, 0)]);
    assert_eq!(e.st.fighters[0].hp, 20);
    assert_eq!(e.st.fighters[2].hp, 20);
}

#[test]
fn electricity_splits_it_and_fire_burns_it() {
    let prep = field(40, &["bludgeoning"]);
    let mut b = Bench::new(&[]);
    let mut e = b.engine(&prep, &SimOptions::default());
    let dealt = e.spell_damage(1, 0, 12, &["electricity".to_string()], false, None);
    assert_eq!(dealt, 0);
    assert_eq!((e.st.fighters[0].hp, e.st.fighters[2].hp), (20, 20));
    let dealt = e.spell_damage(1, 0, 12, &["fire".to_string()], false, None);
    assert_eq!(dealt, 12);
    assert_eq!(e.st.fighters[0].hp, 8);
    // At 8 hit points electricity wounds it.
    let dealt = e.spell_damage(1, 0, 5, &["electricity".to_string()], false, None);
    assert_eq!((dealt, e.st.fighters[0].hp), (5, 3));
}

#[test]
fn the_copy_acts_from_the_next_round_right_after_the_original() {
    let prep = field(40, &["slashing"]);
    let mut b = Bench::new(&[10, 6]);
    let mut e = b.engine(&prep, &SimOptions::default());
    turn(&mut e, 1, vec![Action::at(ActionKind::Attack, 0)]);
    assert!(e.st.fighters[2].turn.has_acted, "no turn in the round it appears");
    e.start_round();
    let order = e.st.order.clone();
    let k = order.iter().position(|&j| j == 0).unwrap();
    assert_eq!(order.get(k + 1), Some(&2));
}

#[test]
fn a_split_entry_without_types_or_with_a_floor_below_one_is_refused() {
    let bad = |specials: Value| super::holds::special_error(specials, json!([melee("sword", 0, "1d6")]));
    let mut s = split();
    s["types"] = json!([]);
    let e = bad(json!([s]));
    assert!(e.contains("special_abilities[0].types"), "{e}");
    let mut s = split();
    s["min_hp"] = json!(0);
    let e = bad(json!([s]));
    assert!(e.contains("special_abilities[0].min_hp"), "{e}");
}

// ---- The shipped ochre jelly against the level-4 party ---------------------

#[test]
fn the_partys_blades_split_the_ochre_jelly_and_its_copies_fight_on() {
    let placed = vec![
        ("monsters", data_combatant("data/monsters/ochre_jelly.json"), at(4, 4)),
        ("players", data_combatant("data/pcs/esha.json"), at(4, 9)),
        ("players", data_combatant("data/pcs/harvie.json"), at(6, 10)),
        ("players", data_combatant("data/pcs/oni.json"), at(2, 10)),
        ("players", data_combatant("data/pcs/nairda.json"), at(8, 10)),
    ];
    let prep = prepare_magic(arena(12, 16), placed);
    let deployed = prep.deployed;
    let jellies = |j: usize| j == 0 || prep.split_groups[0].rows.contains(&j);
    assert_eq!(prep.split_groups[0].rows.len(), 7, "63 hp: eight jellies at most");
    let battles = super::monsters::records(&prep, 29, 40);
    let (mut split_count, mut copies_attack) = (0, 0);
    for events in &battles {
        let lines = || english(&prep, events).join("\n");
        let mut appeared = vec![false; prep.len()];
        for r in events {
            match &r.event {
                Event::Affliction { who, what: AfflictionEvent::Splits { hp_before, hp: h, copy, .. } } => {
                    assert!(jellies(*who));
                    assert!(*hp_before > 10, "a jelly of 10 hp or fewer does not split:\n{}", lines());
                    assert_eq!(*h, hp_before / 2);
                    let c = copy.expect("rows enough for every split");
                    assert!(!appeared[c], "a row reused:\n{}", lines());
                    appeared[c] = true;
                    split_count += 1;
                }
                Event::Attack(a) if a.who >= deployed && jellies(a.who) && !a.aoo => {
                    assert!(appeared[a.who], "a copy attacks before it appears:\n{}", lines());
                    copies_attack += 1;
                }
                _ => {}
            }
        }
    }
    assert!(split_count >= battles.len(), "Esha's longsword splits the jelly: {split_count} splits");
    assert!(copies_attack > 0, "the copies fight");
}
