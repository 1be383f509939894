//! A harpy's captivating song (`combat::monster::song`): its save, its
//! captives' turns, their defenselessness against the singer, its duration
//! and immunities against the Bestiary's text with scripted dice; its data
//! errors; the shipped harpy against the level-4 party on the event stream
//! of many battles.

use serde_json::{Value, json};

use super::monsters::monster;
use super::support::*;
use crate::combat::SimOptions;
use crate::combat::action::{Action, ActionKind};
use crate::combat::event::{AfflictionEvent, EffectEnd, Event, Record};
use crate::combat::prepared::PreparedEncounter;
use crate::effects::ConditionId;

fn song() -> Value {
    json!({ "kind": "captivating_song", "name": "captivating song", "range_ft": 300, "dc": 16,
            "descriptors": ["sonic", "mind_affecting", "charm"] })
}

/// A Medium singer (its song DC 16) with a sword.
fn singer() -> crate::model::Combatant {
    monster("Singer", json!([song()]), json!({ "hp_max": 40 }))
}

/// A Medium foe: Will +2, Dex 14 (AC 12, touch 12, flat-footed 10), 40 hp.
fn foe(overrides: Value) -> crate::model::Combatant {
    let mut o = json!({ "hp_max": 40, "saves": { "fort": 0, "ref": 0, "will": 2 },
        "abilities": { "str_score": 10, "dex_score": 14, "con_score": 12,
                       "int_score": 10, "wis_score": 10, "cha_score": 10 },
        "ac": { "total": 12, "touch": 12, "flat_footed": 10 } });
    o.as_object_mut().unwrap().extend(overrides.as_object().unwrap().clone());
    creature("Foe", o)
}

/// The singer at (1,1), two foes 45 ft away at (1,10) and (2,10), and an
/// ally of the singer at (3,1).
fn field(second: crate::model::Combatant) -> PreparedEncounter {
    prepare(
        arena(5, 14),
        vec![
            ("monsters", singer(), at(1, 1)),
            ("players", foe(json!({})), at(1, 10)),
            ("players", second, at(2, 10)),
            ("monsters", creature("Ally", json!({})), at(3, 1)),
        ],
    )
}

fn sing() -> Vec<Action> {
    vec![Action::new(ActionKind::Sing)]
}

fn saves(events: &[Record]) -> Vec<(usize, bool)> {
    events
        .iter()
        .filter_map(|r| match r.event {
            Event::Save { who, success, .. } => Some((who, success)),
            _ => None,
        })
        .collect()
}

#[test]
fn a_failed_will_save_captivates_and_a_success_makes_the_foe_immune_to_that_singer() {
    let prep = field(foe(json!({})));
    // Will +2 against DC 16: 13 + 2 = 15 fails, 14 + 2 = 16 saves.
    let mut b = Bench::new(&[13, 14]);
    let mut e = b.engine(&prep, &SimOptions::default());
    turn(&mut e, 0, sing());
    assert_eq!(e.st.captor(1), Some(0));
    assert_eq!(e.st.captor(2), None);
    assert_eq!(e.st.captor(3), None, "the singer's allies do not hear it as foes");
    assert!(e.st.fighters[2].monster.songs_resisted.contains(&0));
    e.start_round();
    // Sung again: the captive is held already, the one that saved is immune (no die).
    turn(&mut e, 0, sing());
    assert_eq!(e.st.captor(1), Some(0));
    assert_eq!(e.st.captor(2), None);
    drop(e);
    assert_eq!(saves(&b.events), vec![(1, false), (2, true)]);
    let sung = b
        .events
        .iter()
        .filter(|r| matches!(&r.event, Event::Affliction { who: 0, what: AfflictionEvent::Sings { .. } }))
        .count();
    assert_eq!(sung, 2);
    assert!(b.events.iter().any(|r| matches!(
        &r.event,
        Event::Affliction { who: 1, what: AfflictionEvent::Captivated { by: 0, .. } }
    )));
}

#[test]
fn singing_is_a_standard_action() {
    assert_eq!(ActionKind::Sing.slot(), crate::combat::action::Slot::Standard);
    let prep = field(foe(json!({})));
    let mut b = Bench::new(&[13, 14]);
    let mut e = b.engine(&prep, &SimOptions::default());
    // A standard action already taken: the song is dropped from the budget.
    turn(&mut e, 0, vec![Action::at(ActionKind::Attack, 1), Action::new(ActionKind::Sing)]);
    assert_eq!(e.st.captor(1), None);
    assert_eq!(e.st.fighters[0].monster.sang_round, 0);
}

#[test]
fn a_captive_walks_to_the_singer_by_two_moves_then_stands_beside_it_and_does_nothing_else() {
    let prep = field(foe(json!({})));
    let mut b = Bench::new(&[13, 14]);
    let mut e = b.engine(&prep, &SimOptions::default());
    turn(&mut e, 0, sing());
    assert_eq!(e.st.distance(0, 1), 45);
    let before = e.st.fighters[1].pos;
    // Its own plan (an attack on the singer) gives way to the song.
    turn(&mut e, 1, vec![Action::at(ActionKind::Attack, 0)]);
    assert!(e.st.distance(0, 1) <= 5, "45 ft at speed 30 in two moves: beside the singer");
    assert_ne!(e.st.fighters[1].pos, before);
    e.start_round();
    turn(&mut e, 0, sing());
    let here = e.st.fighters[1].pos;
    turn(&mut e, 1, vec![Action::at(ActionKind::FullAttack, 0)]);
    assert_eq!(e.st.fighters[1].pos, here, "beside the singer it stands");
    drop(e);
    assert!(
        !b.events.iter().any(|r| matches!(&r.event, Event::Attack(a) if a.who == 1)),
        "a captive makes no attack:\n{}",
        b.lines().join("\n")
    );
    let turns: Vec<bool> = b
        .events
        .iter()
        .filter_map(|r| match &r.event {
            Event::Affliction { who: 1, what: AfflictionEvent::Captive { by: 0, beside } } => Some(*beside),
            _ => None,
        })
        .collect();
    assert_eq!(turns, vec![false, true]);
}

#[test]
fn a_captive_beside_the_singer_is_helpless_against_its_attacks_only_and_makes_no_attack_of_opportunity() {
    let prep = field(foe(json!({})));
    let mut b = Bench::new(&[13, 14]);
    let mut e = b.engine(&prep, &SimOptions::default());
    turn(&mut e, 0, sing());
    e.st.relocate(1, at(1, 2));
    e.st.relocate(3, at(2, 2));
    assert!(e.st.captive_of(1, 0));
    assert!(!e.st.captive_of(1, 3), "captivated by the singer, not by its ally");
    // Against the singer: denied its Dexterity, and helpless: Dexterity 0
    // (flat-footed 10, −5 for Dexterity 0 in place of its +2) = 5.
    let denied = e.st.denied_dex(1, Some(0));
    assert!(denied);
    assert_eq!(e.st.armor_class(0, 1, true, false, denied, false, 0), 5);
    // Against the singer's ally, it defends itself: AC 12.
    let denied = e.st.denied_dex(1, Some(3));
    assert!(!denied);
    assert_eq!(e.st.armor_class(3, 1, true, false, denied, false, 0), 12);
    assert!(e.st.fighters[1].no_aoo, "a captive takes no action but to move");
    assert!(!e.st.fighters[2].no_aoo);
    // Farther than 5 ft, it is not defenseless yet.
    e.st.relocate(1, at(1, 6));
    assert!(!e.st.captive_of(1, 0) && !e.st.denied_dex(1, Some(0)));
}

#[test]
fn the_singers_melee_attack_on_its_captive_gets_the_helpless_bonus() {
    let prep = field(foe(json!({})));
    // Save 13 fails; the sword: d20 1 misses whatever the bonus, so the
    // event's bonus is the whole modifier: the printed +0, +4 helpless.
    let mut b = Bench::new(&[13, 14, 1]);
    let mut e = b.engine(&prep, &SimOptions::default());
    turn(&mut e, 0, sing());
    e.st.relocate(1, at(1, 2));
    e.start_round();
    turn(&mut e, 0, vec![Action::at(ActionKind::Attack, 1)]);
    drop(e);
    let bonus = b.events.iter().find_map(|r| match &r.event {
        Event::Attack(a) if a.who == 0 && a.target == 1 => Some(a.bonus),
        _ => None,
    });
    assert_eq!(bonus, Some(4), "{}", b.lines().join("\n"));
}

#[test]
fn the_song_holds_one_round_after_the_last_singing_and_frees_its_captives_at_the_singers_next_turn() {
    let prep = field(foe(json!({})));
    let mut b = Bench::new(&[13, 14]);
    let mut e = b.engine(&prep, &SimOptions::default());
    turn(&mut e, 0, sing());
    e.start_round();
    // Round 2: it does not sing; the song holds through this round.
    turn(&mut e, 0, vec![Action::new(ActionKind::Wait)]);
    assert_eq!(e.st.captor(1), Some(0));
    turn(&mut e, 1, vec![]);
    assert_eq!(e.st.captor(1), Some(0), "1 round thereafter");
    e.start_round();
    // Round 3: at the start of its turn, not having sung in round 2, its captive is free.
    turn(&mut e, 0, vec![Action::new(ActionKind::Wait)]);
    assert_eq!(e.st.captor(1), None);
    drop(e);
    assert!(b.events.iter().any(|r| matches!(
        &r.event,
        Event::EffectEnds { who: 1, effect, why: EffectEnd::Ends } if effect == "captivating song"
    )));
}

#[test]
fn singing_every_round_holds_the_captive_and_a_dead_singers_captive_is_free_after_the_round() {
    let prep = field(foe(json!({})));
    let mut b = Bench::new(&[13, 14]);
    let mut e = b.engine(&prep, &SimOptions::default());
    turn(&mut e, 0, sing());
    for _ in 0..3 {
        e.start_round();
        turn(&mut e, 0, sing());
        assert_eq!(e.st.captor(1), Some(0));
    }
    // Round 4 it sang; it dies. Round 5: still held; round 6: free.
    e.st.fighters[0].hp = -50;
    e.st.fighters[0].dead = true;
    e.start_round();
    turn(&mut e, 1, vec![]);
    assert_eq!(e.st.captor(1), Some(0), "the round after its last song");
    e.start_round();
    turn(&mut e, 1, vec![]);
    assert_eq!(e.st.captor(1), None);
}

#[test]
fn mind_affecting_immune_and_deafened_foes_do_not_hear_the_song() {
    let prep = field(foe(json!({ "creature_type": "undead" })));
    // Foe 1 is deafened: no save; foe 2 (undead) is immune: no save.
    let mut b = Bench::new(&[]);
    let mut e = b.engine(&prep, &SimOptions::default());
    e.set_condition(1, ConditionId::Deafened);
    turn(&mut e, 0, sing());
    assert_eq!(e.st.captor(1), None);
    assert_eq!(e.st.captor(2), None);
    assert!(e.st.fighters[2].monster.songs_resisted.contains(&0), "immune for good");
    assert!(!e.st.fighters[1].monster.songs_resisted.contains(&0), "deafness may pass");
    drop(e);
    assert!(saves(&b.events).is_empty());
    let immune = b
        .events
        .iter()
        .filter(|r| matches!(&r.event, Event::Affliction { what: AfflictionEvent::Immune { .. }, .. }))
        .count();
    assert_eq!(immune, 2);
}

#[test]
fn a_bad_song_entry_is_one_error_naming_the_field() {
    let bad = |specials: Value| super::holds::special_error(specials, json!([melee("sword", 0, "1d6")]));
    let mut s = song();
    s["descriptors"] = json!(["loud"]);
    let e = bad(json!([s]));
    assert!(e.contains("special_abilities[0].descriptors") && e.contains("loud"), "{e}");
    let mut s = song();
    s["range_ft"] = json!(0);
    let e = bad(json!([s]));
    assert!(e.contains("special_abilities[0].range_ft"), "{e}");
    let mut s = song();
    s["dc"] = json!(0);
    let e = bad(json!([s]));
    assert!(e.contains("special_abilities[0].dc"), "{e}");
}

// ---- The shipped harpy against the level-4 party ----------------------------

fn harpy_battles(runs: u64) -> (PreparedEncounter, Vec<Vec<Record>>) {
    let placed = vec![
        ("monsters", data_combatant("data/monsters/harpy.json"), at(2, 2)),
        ("players", data_combatant("data/pcs/esha.json"), at(2, 12)),
        ("players", data_combatant("data/pcs/harvie.json"), at(4, 12)),
        ("players", data_combatant("data/pcs/oni.json"), at(6, 12)),
        ("players", data_combatant("data/pcs/nairda.json"), at(8, 12)),
    ];
    let prep = prepare_magic(arena(12, 16), placed);
    let records = super::monsters::records(&prep, 19, runs);
    (prep, records)
}

#[test]
fn the_harpy_sings_first_its_captives_only_walk_and_it_attacks_them_beside_it() {
    let (prep, battles) = harpy_battles(60);
    let harpy = 0;
    let (mut opened, mut captured, mut struck) = (0, 0, 0);
    for events in &battles {
        let lines = || english(&prep, events).join("\n");
        // The harpy's first action is its song.
        let first = events.iter().find_map(|r| match &r.event {
            Event::Affliction { who: 0, what: AfflictionEvent::Sings { .. } } => Some(true),
            Event::Attack(a) if a.who == harpy && !a.aoo => Some(false),
            Event::Move { who: 0, .. } => Some(false),
            _ => None,
        });
        assert_ne!(first, Some(false), "the harpy's first action is its song:\n{}", lines());
        opened += usize::from(first == Some(true));
        let mut captive = vec![false; prep.fighters.len()];
        let mut resisted = vec![false; prep.fighters.len()];
        let mut song_saves = false;
        for r in events {
            match &r.event {
                Event::Affliction { who: 0, what: AfflictionEvent::Sings { .. } } => song_saves = true,
                Event::Save { who, success, .. } if song_saves => {
                    if *success {
                        resisted[*who] = true;
                    }
                }
                Event::Affliction { who, what: AfflictionEvent::Captivated { by: 0, .. } } => {
                    assert!(!resisted[*who], "captivated after saving against the song:\n{}", lines());
                    captive[*who] = true;
                    captured += 1;
                }
                Event::EffectGained { .. }
                | Event::Affliction { what: AfflictionEvent::Immune { .. }, .. } => {}
                // A summon's row is reused by the next summon.
                Event::Summoned { who, .. } => {
                    (captive[*who], resisted[*who], song_saves) = (false, false, false);
                }
                Event::EffectEnds { who, effect, .. } if effect == "captivating song" => {
                    captive[*who] = false
                }
                Event::Attack(a) if captive[a.who] => panic!("a captive attacks:\n{}", lines()),
                Event::Casts { who, .. } if captive[*who] => panic!("a captive casts:\n{}", lines()),
                Event::Attack(a) if a.who == harpy && captive[a.target] => {
                    struck += 1;
                    song_saves = false;
                }
                _ => song_saves = false,
            }
        }
    }
    // The others: the harpy slept (a witch's slumber) or fell before its first turn.
    assert!(opened * 2 >= battles.len(), "the harpy opens with its song: {opened}/{}", battles.len());
    assert!(captured >= battles.len(), "DC 16 against the party's Will saves: {captured} captives");
    assert!(struck > 0, "the harpy attacks its captives");
}

#[test]
fn the_harpy_climbs_out_of_the_partys_melee_reach_to_sing_and_dives_to_strike_its_captives() {
    let (prep, battles) = harpy_battles(60);
    let harpy = 0;
    // Esha's lance reaches 10 ft above her 5-ft top: the harpy sings from 15 ft.
    let (mut aloft, mut ground, mut dives) = (0, 0, 0);
    for events in &battles {
        let lines = || english(&prep, events).join("\n");
        let mut alt = 0;
        let mut captive = vec![false; prep.fighters.len()];
        for r in events {
            match &r.event {
                Event::Affliction { who, what: AfflictionEvent::Captivated { by: 0, .. } } => {
                    captive[*who] = true
                }
                Event::EffectEnds { who, effect, .. } if effect == "captivating song" => {
                    captive[*who] = false
                }
                Event::Summoned { who, .. } => captive[*who] = false,
                Event::Altitude { who: 0, from_ft, to_ft } => {
                    assert_eq!(*from_ft, alt);
                    if *to_ft == 0 && alt > 0 {
                        dives += 1;
                    }
                    alt = *to_ft;
                }
                Event::Affliction { who: 0, what: AfflictionEvent::Sings { .. } } => {
                    if alt >= 15 {
                        aloft += 1;
                    } else {
                        ground += 1;
                    }
                }
                Event::Attack(a) if a.who == harpy && !a.aoo && captive[a.target] => {
                    assert_eq!(alt, 0, "the harpy strikes its captive from the ground:\n{}", lines());
                }
                Event::Altitude { who, to_ft, .. } if *who != harpy && captive[*who] => {
                    assert_eq!(*to_ft, 0, "a captive walks beneath the harpy:\n{}", lines());
                }
                _ => {}
            }
        }
    }
    // On the ground when a foe threatens it (its freed captives beside it, after an attack).
    assert!(aloft >= battles.len() / 2, "songs aloft {aloft} in {} battles", battles.len());
    assert!(ground > 0, "songs on the ground, threatened: {ground}");
    assert!(dives > 0, "the harpy dives to strike its captives");
}
