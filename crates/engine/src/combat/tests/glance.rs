//! Flat-footed before one's first action (CRB "Combat", "Flat-Footed") and
//! the coup de grâce (CRB "Helpless Defenders"), with the default policy's
//! choice of when a coup de grâce is worth its full-round action.

use serde_json::json;

use super::support::*;
use crate::combat::SimOptions;
use crate::combat::action::{Action, ActionKind, Reason};
use crate::combat::event::Event;
use crate::combat::odds::Swing;
use crate::combat::policy::DefaultPolicy;
use crate::effects::ConditionId as C;

fn fighter(features: serde_json::Value) -> crate::model::Combatant {
    creature(
        "Fighter",
        json!({ "hp_max": 30, "abilities": { "str_score": 14, "dex_score": 16, "con_score": 12,
                    "int_score": 10, "wis_score": 10, "cha_score": 10 },
                "ac": { "total": 17, "touch": 13, "flat_footed": 14 },
                "features": features,
                "attacks": [melee("longsword", 5, "1d8+2")] }),
    )
}

fn dummy(name: &str, hp: i32, extra: serde_json::Value) -> crate::model::Combatant {
    let mut base = json!({ "hp_max": hp, "saves": { "fort": 0, "ref": 0, "will": 0 },
                           "ac": { "total": 12, "touch": 12, "flat_footed": 10 },
                           "attacks": [melee("claw", 0, "1d4")] });
    if let (serde_json::Value::Object(b), serde_json::Value::Object(o)) = (&mut base, extra) {
        b.extend(o);
    }
    creature(name, base)
}

#[test]
fn before_its_first_turn_a_combatant_is_flat_footed_without_dexterity_or_attacks_of_opportunity() {
    let prep = prepare(
        arena(3, 8),
        vec![
            ("a", fighter(json!([])), at(1, 1)),
            ("b", dummy("Orc", 20, json!({})), at(1, 2)),
            ("a", fighter(json!(["Combat Reflexes"])), at(2, 1)),
            ("a", fighter(json!(["Uncanny Dodge"])), at(3, 1)),
        ],
    );
    let mut b = Bench::new(&[]);
    let mut e = b.engine(&prep, &SimOptions::default());
    e.st.start_flat_footed();
    // The orc's claw (+0) against the fighter: its flat-footed AC 14, not 17.
    let s = e.st.situation(1, 0, 0, Swing::default());
    assert!(s.denied);
    assert_eq!(s.ac, 14);
    // Uncanny Dodge keeps the Dexterity bonus: AC 17.
    let s = e.st.situation(1, 0, 3, Swing::default());
    assert!(!s.denied);
    assert_eq!(s.ac, 17);
    // No attack of opportunity while flat-footed, unless Combat Reflexes (or Uncanny Dodge).
    assert!(e.st.has_condition(0, C::FlatFooted));
    assert!(e.st.fighters[0].no_aoo);
    assert!(!e.st.fighters[2].no_aoo);
    assert!(!e.st.has_condition(3, C::FlatFooted) && !e.st.fighters[3].no_aoo);
    // Its first turn ends it.
    turn(&mut e, 0, vec![Action::new(ActionKind::Wait)]);
    assert!(!e.st.has_condition(0, C::FlatFooted));
    assert!(!e.st.fighters[0].no_aoo);
    let s = e.st.situation(1, 0, 0, Swing::default());
    assert_eq!((s.denied, s.ac), (false, 17));
}

#[test]
fn the_winner_of_initiative_hits_the_flat_footed_ac_in_round_one_only() {
    // The orc (claw +0, initiative +10) acts first; the fighter does nothing.
    // Round 1: d20=15 hits the fighter's flat-footed AC 14; round 2, the
    // fighter has had its turn: the same 15 misses AC 17.
    let orc = dummy("Orc", 20, json!({ "initiative_mod": 10, "attacks": [melee("claw", 0, "1d4")] }));
    let prep = prepare(arena(3, 8), vec![("a", fighter(json!([])), at(1, 1)), ("b", orc, at(1, 2))]);
    let mut policy = |b: &crate::combat::BattleState<'_>, i: usize, out: &mut Vec<Action>| {
        if b.side(i) == 1 {
            out.push(Action::at(ActionKind::Attack, 0));
        }
    };
    let mut rng = crate::rng::ScriptedRng::new(vec![1, 1, 15, 2, 15]);
    let mut events = Vec::new();
    let options = SimOptions { round_cap: 2, ..SimOptions::default() };
    crate::combat::run_prepared(&prep, &options, &mut rng, Some(&mut events), &mut policy);
    let lines = english(&prep, &events);
    assert!(
        lines.contains(&"round 1 orc: claw vs fighter d20=15+0=15 AC 14 [target denied Dex, target flat_footed] -> HIT 2 dmg (hp 30->28)".to_string()),
        "{lines:#?}"
    );
    assert!(
        lines.contains(&"round 2 orc: claw vs fighter d20=15+0=15 AC 17 -> MISS".to_string()),
        "{lines:#?}"
    );
}

#[test]
fn a_coup_de_grace_is_an_automatic_critical_hit_then_a_fortitude_save_against_ten_plus_the_damage() {
    let prep = prepare(
        arena(3, 8),
        vec![("a", fighter(json!([])), at(1, 1)), ("b", dummy("Orc", 30, json!({})), at(1, 2))],
    );
    // 1d8=5: (5 + 2) x 2 = 14 damage; Fort d20=9+0 against DC 24 fails: dead.
    let mut b = Bench::new(&[5, 9]);
    let mut e = b.engine(&prep, &SimOptions::default());
    turn(&mut e, 0, vec![Action::at(ActionKind::CoupDeGrace, 1)]);
    assert_eq!(e.st.last_results(0)[0].reason, Some(Reason::NotHelpless));
    e.set_condition(1, C::Paralyzed);
    turn(&mut e, 0, vec![Action::at(ActionKind::CoupDeGrace, 1)]);
    assert!(e.st.fighters[1].dead);
    drop(e);
    assert_eq!(
        &b.lines()[1..],
        [
            "round 1 fighter: coup de grace with longsword on orc: 14 damage, hp 30 -> 16",
            "round 1 orc: Fort save d20=9+0=9 vs DC 24 -> dies",
            "round 1 orc: dies (hp -12)",
        ]
    );
    // A natural 20 saves; an ooze is immune to critical hits.
    let ooze = dummy("Ooze", 30, json!({ "creature_type": "ooze" }));
    let prep = prepare(
        arena(3, 8),
        vec![
            ("a", fighter(json!([])), at(1, 1)),
            ("b", dummy("Orc", 30, json!({})), at(1, 2)),
            ("b", ooze, at(2, 2)),
        ],
    );
    let mut b = Bench::new(&[5, 20]);
    let mut e = b.engine(&prep, &SimOptions::default());
    e.set_condition(1, C::Paralyzed);
    e.set_condition(2, C::Paralyzed);
    turn(&mut e, 0, vec![Action::at(ActionKind::CoupDeGrace, 2)]);
    assert_eq!(e.st.last_results(0)[0].reason, Some(Reason::ImmuneToCriticals));
    turn(&mut e, 0, vec![Action::at(ActionKind::CoupDeGrace, 1)]);
    assert_eq!(e.st.hp(1), 16);
    assert!(!e.st.fighters[1].dead);
}

/// The events of the fighter's first turn under the default policy, foe 1
/// paralyzed, for 50 seeds.
fn first_turns(prep: &crate::combat::PreparedEncounter) -> Vec<Vec<crate::combat::event::Record>> {
    (0..50)
        .map(|seed| {
            let mut rng = crate::rng::SeededRng::for_run(3, seed);
            let mut events = Vec::new();
            let mut e =
                crate::combat::engine::Engine::new(prep, &SimOptions::default(), &mut rng, Some(&mut events));
            e.set_condition(1, C::Paralyzed);
            e.start_round();
            e.take_turn(0, &mut DefaultPolicy);
            drop(e);
            events
        })
        .collect()
}

#[test]
fn the_policy_delivers_a_coup_de_grace_to_a_helpless_foe_when_no_other_foe_threatens() {
    let placed = |other: crate::map::Pos| {
        prepare(
            arena(5, 10),
            vec![
                ("a", fighter(json!([])), at(1, 1)),
                ("b", dummy("Held", 40, json!({})), at(1, 2)),
                ("b", dummy("Other", 40, json!({})), other),
            ],
        )
    };
    let battles = first_turns(&placed(at(5, 10)));
    let coups = battles
        .iter()
        .filter(|ev| ev.iter().any(|r| matches!(r.event, Event::CoupDeGrace { who: 0, target: 1, .. })))
        .count();
    let kills =
        battles.iter().filter(|ev| ev.iter().any(|r| matches!(r.event, Event::Life { who: 1, .. }))).count();
    assert_eq!(coups, 50, "every seed: the held foe gets the coup de grâce");
    assert!(kills >= 45, "{kills}: 1d8+2 doubled is 6-20 damage, DC 16-30 against Fort +0");
    // Another foe beside the fighter threatens it: it fights that one instead.
    let battles = first_turns(&placed(at(2, 1)));
    assert!(!battles.iter().flatten().any(|r| matches!(r.event, Event::CoupDeGrace { .. })));
}
