//! A vampire's dominate (`combat::monster::dominate`): its save, the side
//! its subject fights on, the one new save against its nature, release
//! when the master falls, its limits (type, range, immunity, a ward) with
//! scripted dice; its data errors; the shipped vampire against the
//! level-4 party on the event stream of many battles.

use serde_json::{Value, json};

use super::monsters::monster;
use super::support::*;
use crate::combat::SimOptions;
use crate::combat::action::{Action, ActionKind, Reason};
use crate::combat::event::{AfflictionEvent, EffectEnd, Event, Record};
use crate::combat::prepared::PreparedEncounter;

fn dominate() -> Value {
    json!({ "kind": "dominate", "name": "dominate", "range_ft": 30, "dc": 22,
            "creature_types": ["humanoid"], "descriptors": ["mind_affecting", "compulsion"] })
}

/// A Medium master (dominate DC 22) with a sword, 40 hp.
fn master() -> crate::model::Combatant {
    monster("Master", json!([dominate()]), json!({ "hp_max": 40, "creature_type": "undead" }))
}

/// A humanoid foe: Will +2, 20 hp, and `overrides`.
fn foe(name: &str, overrides: Value) -> crate::model::Combatant {
    let mut o = json!({ "hp_max": 20, "creature_type": "humanoid",
                        "saves": { "fort": 0, "ref": 0, "will": 2 } });
    o.as_object_mut().unwrap().extend(overrides.as_object().unwrap().clone());
    creature(name, o)
}

/// The master at (1,1), a foe 25 ft away at (1,6) beside its companion
/// at (1,7), and a third foe 45 ft away at (3,10).
fn field(first: crate::model::Combatant) -> PreparedEncounter {
    prepare(
        arena(5, 14),
        vec![
            ("monsters", master(), at(1, 1)),
            ("players", first, at(1, 6)),
            ("players", foe("Companion", json!({})), at(1, 7)),
            ("players", foe("Far", json!({})), at(3, 10)),
        ],
    )
}

fn dominate_on(t: usize) -> Vec<Action> {
    vec![Action::at(ActionKind::Dominate, t)]
}

fn saves(events: &[Record]) -> Vec<(usize, i32, i32, bool)> {
    events
        .iter()
        .filter_map(|r| match r.event {
            Event::Save { who, bonus, dc, success, .. } => Some((who, bonus, dc, success)),
            _ => None,
        })
        .collect()
}

#[test]
fn a_failed_will_save_puts_the_foe_on_the_masters_side_and_a_success_leaves_it() {
    let prep = field(foe("Foe", json!({})));
    // Will +2 against DC 22: 19 + 2 = 21 fails, 20 + 2 saves.
    let mut b = Bench::new(&[19, 20]);
    let mut e = b.engine(&prep, &SimOptions::default());
    assert!(e.st.are_enemies(0, 1) && !e.st.are_enemies(1, 2));
    turn(&mut e, 0, dominate_on(1));
    assert_eq!(e.st.dominator(1), Some(0));
    assert_eq!(e.st.side(1), e.st.side(0), "it fights on the master's side");
    assert!(!e.st.are_enemies(0, 1));
    assert!(e.st.are_enemies(1, 2) && e.st.are_enemies(1, 3), "its companions are its foes now");
    assert_eq!(e.st.prep.side(1), e.st.prep.side(2), "its own side is unchanged");
    e.start_round();
    turn(&mut e, 0, dominate_on(2));
    assert_eq!(e.st.dominator(2), None);
    assert!(e.st.are_enemies(0, 2));
    drop(e);
    assert_eq!(saves(&b.events), vec![(1, 2, 22, false), (2, 2, 22, true)]);
    assert!(b.events.iter().any(|r| matches!(
        &r.event,
        Event::Affliction { who: 1, what: AfflictionEvent::Dominated { by: 0, .. } }
    )));
}

#[test]
fn dominating_is_a_standard_action() {
    assert_eq!(ActionKind::Dominate.slot(), crate::combat::action::Slot::Standard);
    let prep = field(foe("Foe", json!({})));
    let mut b = Bench::new(&[1, 1]);
    let mut e = b.engine(&prep, &SimOptions::default());
    turn(&mut e, 0, vec![Action::at(ActionKind::Attack, 1), Action::at(ActionKind::Dominate, 1)]);
    assert_eq!(e.st.dominator(1), None, "the standard action is spent: the dominate is dropped");
}

#[test]
fn the_subject_makes_one_new_save_at_plus_two_on_its_first_turn_and_no_more() {
    // Dominated (1), then the new save: 18 + 2 + 2 = 22 throws it off.
    let prep = field(foe("Foe", json!({})));
    let mut b = Bench::new(&[1, 18]);
    let mut e = b.engine(&prep, &SimOptions::default());
    turn(&mut e, 0, dominate_on(1));
    turn(&mut e, 1, vec![Action::new(ActionKind::Wait)]);
    assert_eq!(e.st.dominator(1), None);
    assert!(e.st.are_enemies(0, 1), "back on its own side");
    drop(e);
    assert_eq!(saves(&b.events), vec![(1, 2, 22, false), (1, 4, 22, true)]);
    assert!(
        b.events
            .iter()
            .any(|r| matches!(&r.event, Event::EffectEnds { who: 1, why: EffectEnd::ShakenOff, .. }))
    );

    // 17 + 4 = 21 fails: it stays dominated, and later turns bring no save.
    let mut b = Bench::new(&[1, 17]);
    let mut e = b.engine(&prep, &SimOptions::default());
    turn(&mut e, 0, dominate_on(1));
    turn(&mut e, 1, vec![Action::new(ActionKind::Wait)]);
    e.start_round();
    turn(&mut e, 1, vec![Action::new(ActionKind::Wait)]);
    e.start_round();
    turn(&mut e, 1, vec![Action::new(ActionKind::Wait)]);
    assert_eq!(e.st.dominator(1), Some(0));
    drop(e);
    assert_eq!(saves(&b.events).len(), 2, "one save to resist, one against its nature");
}

#[test]
fn the_subject_attacks_its_companion_and_its_companions_may_attack_it() {
    let prep = field(foe("Foe", json!({})));
    // Dominated, the new save failed (1), then its sword: 15 hits AC 10, 4 damage.
    let mut b = Bench::new(&[1, 1, 15, 4, 15, 4]);
    let mut e = b.engine(&prep, &SimOptions::default());
    turn(&mut e, 0, dominate_on(1));
    turn(&mut e, 1, vec![Action::at(ActionKind::Attack, 2)]);
    assert_eq!(e.st.fighters[2].hp, 16, "it struck its companion");
    // Its companion strikes back: it is a foe now.
    turn(&mut e, 2, vec![Action::at(ActionKind::Attack, 1)]);
    assert_eq!(e.st.fighters[1].hp, 16);
    // It cannot attack its master.
    e.start_round();
    turn(&mut e, 1, vec![Action::at(ActionKind::Attack, 0)]);
    assert_eq!(e.st.fighters[0].hp, 40);
    drop(e);
    assert!(b.events.iter().any(|r| matches!(
        &r.event,
        Event::ActionFailed { who: 1, reason, .. } if reason == Reason::MissingTarget.as_str()
    )));
}

#[test]
fn a_master_that_falls_releases_its_subjects_at_once() {
    let prep = field(foe("Foe", json!({})));
    // Dominated (1); then the master is destroyed (40 damage, undead: dead at 0).
    let mut b = Bench::new(&[1]);
    let mut e = b.engine(&prep, &SimOptions::default());
    turn(&mut e, 0, dominate_on(1));
    assert_eq!(e.st.dominator(1), Some(0));
    e.wound(0, 40);
    assert!(e.st.fighters[0].dead, "an undead master is destroyed at 0");
    assert_eq!(e.st.dominator(1), None);
    assert!(!e.st.are_enemies(1, 2), "back with its companions");
    drop(e);
    assert!(
        b.events
            .iter()
            .any(|r| matches!(&r.event, Event::EffectEnds { who: 1, why: EffectEnd::Released, .. }))
    );
}

#[test]
fn only_humanoids_within_thirty_feet_in_line_of_effect_can_be_dominated() {
    let prep = field(foe("Foe", json!({ "creature_type": "monstrous_humanoid" })));
    let mut b = Bench::new(&[1, 1]);
    let mut e = b.engine(&prep, &SimOptions::default());
    assert!(!e.st.dominable(0, 1), "not a humanoid");
    assert!(e.st.dominable(0, 2), "25-30 ft away, a humanoid");
    assert!(!e.st.dominable(0, 3), "45 ft away");
    turn(&mut e, 0, dominate_on(3));
    assert_eq!(e.st.dominator(3), None);
    drop(e);
    assert!(b.events.iter().any(|r| matches!(
        &r.event,
        Event::ActionFailed { who: 0, reason, .. } if reason == Reason::OutOfRange.as_str()
    )));
    assert!(saves(&b.events).is_empty());
}

#[test]
fn a_creature_immune_to_mind_affecting_effects_is_not_dominated() {
    let prep = field(foe("Foe", json!({ "immunities": ["mind_affecting"] })));
    let mut b = Bench::new(&[1]);
    let mut e = b.engine(&prep, &SimOptions::default());
    assert_eq!(e.st.dominate_chance(0, 1), 0.0);
    turn(&mut e, 0, dominate_on(1));
    assert_eq!(e.st.dominator(1), None);
    drop(e);
    assert!(saves(&b.events).is_empty(), "no save: immune");
    assert!(
        b.events
            .iter()
            .any(|r| matches!(&r.event, Event::Affliction { who: 1, what: AfflictionEvent::Immune { .. } }))
    );
}

#[test]
fn the_chance_to_dominate_is_the_chance_to_fail_the_will_save() {
    let prep = field(foe("Foe", json!({ "saves": { "fort": 0, "ref": 0, "will": 7 } })));
    let b = Bench::new(&[]);
    let e = {
        let mut b = b;
        let e = b.engine(&prep, &SimOptions::default());
        (e.st.dominate_chance(0, 1), e.st.dominate_chance(0, 2))
    };
    // DC 22: Will +7 fails on 1–14 (14/20), Will +2 on 1–19 (19/20, capped at 95 %).
    assert!((e.0 - 0.70).abs() < 1e-9, "{}", e.0);
    assert!((e.1 - 0.95).abs() < 1e-9, "{}", e.1);
}

#[test]
fn a_dominate_entry_with_a_bad_descriptor_or_range_is_refused() {
    let bad = |specials: Value| super::holds::special_error(specials, json!([melee("sword", 0, "1d6")]));
    let mut d = dominate();
    d["descriptors"] = json!(["loud"]);
    let e = bad(json!([d]));
    assert!(e.contains("special_abilities[0].descriptors") && e.contains("loud"), "{e}");
    let mut d = dominate();
    d["range_ft"] = json!(0);
    let e = bad(json!([d]));
    assert!(e.contains("special_abilities[0].range_ft"), "{e}");
    let mut d = dominate();
    d["creature_types"] = json!(["people"]);
    let e = bad(json!([d]));
    assert!(e.contains("people"), "{e}");
}

// ---- The shipped vampire against the level-4 party --------------------------

fn vampire_battles(runs: u64) -> (PreparedEncounter, Vec<Vec<Record>>) {
    let placed = vec![
        ("monsters", data_combatant("data/monsters/vampire.json"), at(2, 2)),
        ("players", data_combatant("data/pcs/esha.json"), at(2, 9)),
        ("players", data_combatant("data/pcs/harvie.json"), at(4, 9)),
        ("players", data_combatant("data/pcs/oni.json"), at(6, 9)),
        ("players", data_combatant("data/pcs/nairda.json"), at(8, 9)),
    ];
    let prep = prepare_magic(arena(12, 16), placed);
    let records = super::monsters::records(&prep, 23, runs);
    (prep, records)
}

#[test]
fn the_vampire_dominates_the_pc_likeliest_to_fail_and_its_subject_turns_on_the_party() {
    let (prep, battles) = vampire_battles(60);
    let vampire = 0;
    let will = |p: usize| prep.fighters[p].defense.saves.will;
    let (mut first_tries, mut turned, mut struck_friend) = (0, 0, 0);
    for events in &battles {
        let lines = || english(&prep, events).join("\n");
        let own: Vec<usize> = prep.fighters.iter().map(|f| f.side).collect();
        let mut subject = vec![false; prep.fighters.len()];
        let mut down = vec![false; prep.fighters.len()];
        let mut first = true;
        for r in events {
            match &r.event {
                Event::Affliction { who, what: AfflictionEvent::Dominates { target, .. } } => {
                    assert_eq!(*who, vampire);
                    if first {
                        // Every PC within its reach: the worst Will of those standing (Esha's and Harvie's +2).
                        let lowest = (1..5).filter(|&p| !down[p]).map(will).min().unwrap_or(i32::MAX);
                        assert_eq!(will(*target), lowest, "not the worst Will:\n{}", lines());
                        first_tries += 1;
                        first = false;
                    }
                    assert!(!subject[*target], "dominates its own subject:\n{}", lines());
                }
                Event::Life { who, .. } => down[*who] = true,
                Event::Affliction { who, what: AfflictionEvent::Dominated { by, .. } } => {
                    assert_eq!(*by, vampire);
                    subject[*who] = true;
                    turned += 1;
                }
                Event::EffectEnds { who, effect, .. } if effect == "dominate" => subject[*who] = false,
                Event::Attack(a) if subject[a.who] && !a.aoo => {
                    assert_ne!(a.target, vampire, "a subject attacks its master:\n{}", lines());
                    assert_eq!(
                        own[a.target],
                        own[a.who],
                        "a subject attacks the vampire's side:\n{}",
                        lines()
                    );
                    struck_friend += 1;
                }
                _ => {}
            }
        }
    }
    assert!(
        first_tries * 10 >= battles.len() * 9,
        "the vampire dominates: {first_tries} in {}",
        battles.len()
    );
    assert!(
        turned > 0 && struck_friend > 0,
        "subjects turn on the party: {turned} turned, {struck_friend} blows"
    );
}
