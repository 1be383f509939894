//! A grab's hold on later turns (maintained with constrict, or let go),
//! rake and powerful charge (`combat::monster::hold`), against their closed
//! forms with scripted dice.

use serde_json::{Value, json};

use super::monsters::monster;
use super::support::*;
use crate::combat::SimOptions;
use crate::combat::action::{Action, ActionKind, Reason};
use crate::combat::event::{AfflictionEvent, Event};
use crate::effects::ConditionId;

fn claw(bonus: i32, dice: &str, count: u32) -> Value {
    json!({ "name": "claw", "kind": "melee", "attack_bonus": bonus, "natural": true, "count": count,
            "damage": [{ "formula": dice, "types": ["slashing"] }] })
}

/// A constrictor: one claw (+0, 1d4) with grab, constrict 1d6+1, CMB +0.
fn constrictor() -> crate::model::Combatant {
    monster(
        "Constrictor",
        json!([{ "kind": "on_hit", "name": "grab", "attacks": ["claw"], "effect": { "grab": {} } },
               { "kind": "constrict", "name": "constrict", "damage": "1d6+1" }]),
        json!({ "cmb": 0, "attacks": [claw(0, "1d4", 1)] }),
    )
}

fn foe() -> crate::model::Combatant {
    creature("Foe", json!({ "hp_max": 40 }))
}

fn duel(a: crate::model::Combatant) -> crate::combat::prepared::PreparedEncounter {
    prepare(arena(3, 12), vec![("monsters", a, at(1, 1)), ("players", foe(), at(1, 2))])
}

#[test]
fn a_grab_constricts_and_each_maintained_hold_constricts_again_until_a_check_fails() {
    let prep = duel(constrictor());
    // Claw: d20 15 hits, 1d4 = 2; grab: d20 15 wins; constrict 1d6+1 = 3+1.
    // Next turn: the maintenance check (d20 15 at +0 +5 +4) wins, constrict 5+1.
    // The turn after: a natural 1 loses the hold.
    let mut b = Bench::new(&[15, 2, 15, 3, 15, 5, 1]);
    let mut e = b.engine(&prep, &SimOptions::default());
    turn(&mut e, 0, vec![Action::at(ActionKind::Attack, 1)]);
    assert_eq!(e.st.hp(1), 40 - 2 - 4);
    assert_eq!(e.st.fighters[1].grappled_with, Some(0));
    e.start_round();
    turn(&mut e, 0, vec![Action::at(ActionKind::FullAttack, 1)]);
    assert_eq!(
        e.st.hp(1),
        40 - 2 - 4 - 6,
        "constrict again, and no attack: maintaining was the standard action"
    );
    assert_eq!(e.st.turn_limits(0).single_move, Some(Reason::DowngradedHolding));
    e.start_round();
    turn(&mut e, 0, vec![]);
    assert_eq!(e.st.fighters[1].grappled_with, None);
    assert!(!e.st.has_condition(1, ConditionId::Grappled));
    assert_eq!(e.st.hp(1), 40 - 12, "a lost check deals nothing");
    assert_eq!(e.st.turn_limits(0).single_move, Some(Reason::DowngradedHolding), "the check was its action");
}

#[test]
fn the_maintenance_check_adds_five_and_grabs_four_to_the_cmb() {
    let prep = duel(constrictor());
    let mut b = Bench::new(&[15, 2, 15, 3, 10, 5]);
    let mut e = b.engine(&prep, &SimOptions::default());
    turn(&mut e, 0, vec![Action::at(ActionKind::Attack, 1)]);
    e.start_round();
    turn(&mut e, 0, vec![]);
    drop(e);
    let bonuses: Vec<i32> = b
        .events
        .iter()
        .filter_map(|r| match &r.event {
            Event::ManeuverRoll { bonus, .. } => Some(*bonus),
            _ => None,
        })
        .collect();
    assert_eq!(bonuses, [4, 9], "grab +4; maintain +5 +4");
    assert!(b.events.iter().any(|r| matches!(
        r.event,
        Event::Affliction { who: 0, what: AfflictionEvent::MaintainsHold { target: 1 } }
    )));
}

/// A leopard-like grabber: two claws (+0, 1d4), a bite (+0, 1d6) with grab,
/// rake 2 claws +5 (1d3+1).
fn raker() -> crate::model::Combatant {
    monster(
        "Raker",
        json!([{ "kind": "on_hit", "name": "grab", "attacks": ["bite"], "effect": { "grab": {} } },
               { "kind": "rake", "name": "rake", "attack": "claw", "attack_bonus": 5, "damage": "1d3+1" }]),
        json!({ "cmb": 0, "attacks": [claw(0, "1d4", 2),
            { "name": "bite", "kind": "melee", "attack_bonus": 0, "natural": true,
              "damage": [{ "formula": "1d6", "types": ["piercing"] }] }] }),
    )
}

#[test]
fn a_maintained_hold_without_constrict_deals_the_grabbing_attacks_damage_then_two_rakes() {
    let prep = duel(raker());
    let hold = prep.fighters[0].monster.as_deref().and_then(|m| m.hold.as_ref()).expect("a hold");
    assert!(hold.maintains, "3.5 + half of 2 x 3 >= half of 2 x 2.5 + 3.5");
    // Turn 1, a single bite: d20 15 hits, 1d6 = 3; grab d20 15 wins.
    // Turn 2: maintain d20 15; the bite's damage 1d6 = 4 without a roll;
    // rake 1: d20 10 (+5: 15 >= AC) 1d3 = 2, +1; rake 2: d20 1 misses.
    let mut b = Bench::new(&[15, 3, 15, 15, 4, 10, 2, 1]);
    let mut e = b.engine(&prep, &SimOptions::default());
    turn(&mut e, 0, vec![Action::at(ActionKind::Attack, 1).with_weapon(1)]);
    assert_eq!((e.st.hp(1), e.st.fighters[1].grappled_with), (40 - 3, Some(0)));
    e.start_round();
    turn(&mut e, 0, vec![]);
    assert_eq!(e.st.hp(1), 40 - 3 - 4 - 3);
}

#[test]
fn a_grabber_whose_full_attack_is_worth_more_lets_go_and_attacks() {
    // Two claws 1d8 and a bite 1d8 with grab, no constrict: 4.5 < 13.5 / 2.
    let grabber = monster(
        "Hugger",
        json!([{ "kind": "on_hit", "name": "grab", "attacks": ["claw"], "effect": { "grab": {} } }]),
        json!({ "cmb": 0, "attacks": [claw(0, "1d8", 3)] }),
    );
    let prep = duel(grabber);
    assert!(!prep.fighters[0].monster.as_deref().and_then(|m| m.hold.as_ref()).expect("hold").maintains);
    let mut b = Bench::new(&[15, 2, 15]);
    let mut e = b.engine(&prep, &SimOptions::default());
    turn(&mut e, 0, vec![Action::at(ActionKind::Attack, 1)]);
    assert_eq!(e.st.fighters[1].grappled_with, Some(0));
    e.start_round();
    turn(&mut e, 0, vec![]);
    assert_eq!(e.st.fighters[1].grappled_with, None);
    assert_eq!(e.st.turn_limits(0).single_move, None, "letting go is free: its turn is whole");
}

#[test]
fn the_shipped_grabbers_maintain_when_the_hold_deals_at_least_half_their_full_attack() {
    for (stem, keeps) in [
        ("chuul", true),
        ("shambling_mound", true),
        ("ochre_jelly", true),
        ("celestial_leopard", true),
        ("wyvern", true),
        ("otyugh", false),
        ("owlbear", false),
        ("gibbering_mouther", true),
    ] {
        let prep = prepare(
            arena(6, 12),
            vec![
                ("monsters", data_combatant(&format!("data/monsters/{stem}.json")), at(1, 1)),
                ("players", foe(), at(1, 6)),
            ],
        );
        let hold = prep.fighters[0].monster.as_deref().and_then(|m| m.hold.as_ref()).expect("a hold");
        assert_eq!(hold.maintains, keeps, "{stem}");
    }
}

#[test]
fn a_pounce_ends_with_the_rakes() {
    let cat = monster(
        "Cat",
        json!([{ "kind": "pounce", "name": "pounce" },
               { "kind": "rake", "name": "rake", "attack": "claw", "attack_bonus": 5, "damage": "1d3+1" }]),
        json!({ "attacks": [claw(0, "1d4", 2)] }),
    );
    let prep = prepare(arena(3, 12), vec![("monsters", cat, at(2, 1)), ("players", foe(), at(2, 6))]);
    // Claws (+2 charge): 15/2, 15/3; rakes (+5 +2): 15 and 1d3 = 1, +1; 1 misses.
    let mut b = Bench::new(&[15, 2, 15, 3, 15, 1, 1]);
    let mut e = b.engine(&prep, &SimOptions::default());
    turn(&mut e, 0, vec![Action::at(ActionKind::Charge, 1)]);
    assert_eq!(e.st.hp(1), 40 - 2 - 3 - 2);
}

#[test]
fn a_powerful_charge_strikes_with_its_printed_bonus_and_damage() {
    let bull = monster(
        "Bull",
        json!([{ "kind": "powerful_charge", "name": "powerful charge", "attack": "gore",
                 "attack_bonus": 11, "damage": "2d6+6" }]),
        json!({ "attacks": [{ "name": "gore", "kind": "melee", "attack_bonus": 0, "natural": true,
                              "damage": [{ "formula": "1d6", "types": ["piercing"] }] }] }),
    );
    let armored =
        creature("Foe", json!({ "hp_max": 40, "ac": { "total": 20, "touch": 10, "flat_footed": 20 } }));
    let prep = prepare(arena(3, 12), vec![("monsters", bull, at(2, 1)), ("players", armored, at(2, 6))]);
    // d20 9: 9 + 11 (the charge's +2 included) = 20 hits AC 20; 2d6+6 = 3 + 4 + 6.
    let mut b = Bench::new(&[9, 3, 4]);
    let mut e = b.engine(&prep, &SimOptions::default());
    turn(&mut e, 0, vec![Action::at(ActionKind::Charge, 1)]);
    assert_eq!(e.st.hp(1), 40 - 13);
    // One less on the die misses: the bonus is 11, not 11 + 2.
    let mut b = Bench::new(&[8, 3, 4]);
    let mut e = b.engine(&prep, &SimOptions::default());
    turn(&mut e, 0, vec![Action::at(ActionKind::Charge, 1)]);
    assert_eq!(e.st.hp(1), 40);
}

#[test]
fn a_constrict_without_a_grab_or_a_rake_without_its_attack_is_one_error_naming_the_field() {
    let bad = |specials: Value| special_error(specials, json!([claw(0, "1d4", 2)]));
    let e = bad(json!([{ "kind": "constrict", "name": "constrict", "damage": "1d6" }]));
    assert!(e.contains("special_abilities[0]") && e.contains("needs a grab"), "{e}");
    let e = bad(
        json!([{ "kind": "rake", "name": "rake", "attack": "talon", "attack_bonus": 2, "damage": "1d4" }]),
    );
    assert!(e.contains("special_abilities[0].attack") && e.contains("talon"), "{e}");
    let e = bad(json!([{ "kind": "powerful_charge", "name": "powerful charge", "attack": "claw",
                         "attack_bonus": 2, "damage": "2q6" }]));
    assert!(e.contains("special_abilities[0].damage"), "{e}");
}

/// The load error of a combatant with `attacks` and `specials` (each
/// `special_abilities` entry with its feature).
pub(super) fn special_error(specials: Value, attacks: Value) -> String {
    let names: Vec<Value> = specials
        .as_array()
        .unwrap()
        .iter()
        .map(|s| json!({ "name": s["name"], "category": "special" }))
        .collect();
    let mut base = json!({
        "name": "Bad", "abilities": { "str_score": 10, "dex_score": 10, "con_score": 10,
        "int_score": 10, "wis_score": 10, "cha_score": 10 }, "hp_max": 10,
        "ac": { "total": 10, "touch": 10, "flat_footed": 10 }, "bab": 0, "initiative_mod": 0,
        "speed_land_ft": 30, "saves": { "fort": 0, "ref": 0, "will": 0 }, "attacks": attacks });
    base["features"] = Value::Array(names);
    base["special_abilities"] = specials;
    crate::model::parse_combatant(&base.to_string(), "bad.json").map(|_| ()).unwrap_err().to_string()
}

/// A chuul-like grabber: the constrictor with paralytic tentacles (1d4+1
/// a round from its mandibles, Fort DC 19 or paralyzed 6 rounds).
fn tentacled() -> crate::model::Combatant {
    monster(
        "Tentacled",
        json!([{ "kind": "on_hit", "name": "grab", "attacks": ["claw"], "effect": { "grab": {} } },
               { "kind": "constrict", "name": "constrict", "damage": "1d6+1" },
               { "kind": "while_holding", "name": "paralytic tentacles", "damage": "1d4+1",
                 "save": "fort", "dc": 19, "effect": { "paralysis": { "rounds": "6" } } }]),
        json!({ "cmb": 0, "attacks": [claw(0, "1d4", 1)] }),
    )
}

#[test]
fn a_maintained_hold_deals_the_tentacles_damage_and_paralyzes_six_rounds_on_a_failed_save() {
    let prep = duel(tentacled());
    // Turn 1: claw d20 15 hits, 1d4 = 2; grab d20 15 wins; constrict 3+1.
    // Turn 2: maintain d20 15, constrict 5+1; tentacles 1d4+1 = 2+1 without
    // a roll; Fort d20 18 + 0 < 19: paralyzed for 6 rounds.
    let mut b = Bench::new(&[15, 2, 15, 3, 15, 5, 2, 18]);
    let mut e = b.engine(&prep, &SimOptions::default());
    turn(&mut e, 0, vec![Action::at(ActionKind::Attack, 1)]);
    assert!(!e.st.has_condition(1, ConditionId::Paralyzed), "the grab alone does not reach the tentacles");
    assert_eq!(e.st.hp(1), 40 - 2 - 4);
    e.start_round();
    turn(&mut e, 0, vec![]);
    assert_eq!(e.st.hp(1), 40 - 2 - 4 - 6 - 3);
    assert!(e.st.has_condition(1, ConditionId::Paralyzed));
    drop(e);
    let events: Vec<&Event> = b.events.iter().map(|r| &r.event).collect();
    let tentacles = events.iter().position(|x| {
        matches!(x, Event::Affliction { who: 0, what: AfflictionEvent::Strikes { ability, target: 1 } }
            if ability == "paralytic tentacles")
    });
    let paralyzed = events.iter().position(|x| {
        matches!(x, Event::Affliction { who: 1, what: AfflictionEvent::Paralyzed { rounds: Some(6) } })
    });
    assert!(tentacles.is_some() && paralyzed > tentacles, "{events:?}");
}

#[test]
fn a_save_against_the_tentacles_keeps_the_foe_moving_but_not_the_mandibles_damage_off() {
    let prep = duel(tentacled());
    // As above, but the Fort save rolls 19: saved; the 1d4+1 is dealt all the same.
    let mut b = Bench::new(&[15, 2, 15, 3, 15, 5, 2, 19]);
    let mut e = b.engine(&prep, &SimOptions::default());
    turn(&mut e, 0, vec![Action::at(ActionKind::Attack, 1)]);
    e.start_round();
    turn(&mut e, 0, vec![]);
    assert_eq!(e.st.hp(1), 40 - 2 - 4 - 6 - 3);
    assert!(!e.st.has_condition(1, ConditionId::Paralyzed));
}

#[test]
fn damage_while_holding_counts_in_keeping_the_hold() {
    // Three claws 1d8 with grab, no constrict (4.5 < 13.5 / 2: it lets go),
    // and with 1d8+7 a round while holding (4.5 + 11.5 >= 6.75: it keeps it).
    let holder = |while_holding: bool| {
        let mut specials =
            vec![json!({ "kind": "on_hit", "name": "grab", "attacks": ["claw"], "effect": { "grab": {} } })];
        if while_holding {
            specials
                .push(json!({ "kind": "while_holding", "name": "paralytic tentacles", "damage": "1d8+7" }));
        }
        monster("Holder", Value::Array(specials), json!({ "cmb": 0, "attacks": [claw(0, "1d8", 3)] }))
    };
    for (with, keeps) in [(false, false), (true, true)] {
        let prep = duel(holder(with));
        let hold = prep.fighters[0].monster.as_deref().and_then(|m| m.hold.as_ref()).expect("hold");
        assert_eq!(hold.maintains, keeps);
    }
}

#[test]
fn a_foe_that_died_in_the_grip_is_released_without_a_maintenance_check() {
    let prep = duel(constrictor());
    // Claw d20 15, 1d4 = 2; grab d20 15; constrict 3+1. No die after: the
    // next turn must roll no maintenance check on the dead foe.
    let mut b = Bench::new(&[15, 2, 15, 3]);
    let mut e = b.engine(&prep, &SimOptions::default());
    turn(&mut e, 0, vec![Action::at(ActionKind::Attack, 1)]);
    assert_eq!(e.st.fighters[1].grappled_with, Some(0));
    e.slay(1);
    e.start_round();
    turn(&mut e, 0, vec![]);
    assert_eq!(e.st.fighters[1].grappled_with, None);
    assert_eq!(e.st.turn_limits(0).single_move, None, "no hold maintained: its turn is whole");
}

#[test]
fn constrict_is_bludgeoning_damage_that_damage_reduction_reduces_unless_bludgeoning_or_the_grabbers_qualities_bypass_it()
 {
    // Claw d20 15 hits (1d4 = 4, slashing); grab d20 15 wins; constrict 1d6+1 = 5+1 = 6.
    let dice = [15, 4, 15, 5];
    let run = |dr: Value, claw_qualities: Value| {
        let mut c = constrictor();
        c.attacks[0].qualities = serde_json::from_value(claw_qualities).unwrap();
        let target = creature("Foe", json!({ "hp_max": 40, "dr": dr }));
        let prep = prepare(arena(3, 12), vec![("monsters", c, at(1, 1)), ("players", target, at(1, 2))]);
        let mut b = Bench::new(&dice);
        let mut e = b.engine(&prep, &SimOptions::default());
        turn(&mut e, 0, vec![Action::at(ActionKind::Attack, 1)]);
        let hp = e.st.hp(1);
        drop(e);
        (hp, b.lines())
    };
    // DR 5/—: the claw's 4 is stopped, the constriction's 6 loses 5.
    let (hp, lines) = run(json!({ "amount": 5, "bypass": [] }), json!([]));
    assert_eq!(hp, 40 - 1, "{lines:#?}");
    assert!(lines.iter().any(|l| l.contains("damage reduction absorbs 5")), "{lines:#?}");
    // DR 5/bludgeoning: the slashing claw is stopped, the constriction is not.
    let (hp, lines) = run(json!({ "amount": 5, "bypass": ["bludgeoning"] }), json!([]));
    assert_eq!(hp, 40 - 6, "{lines:#?}");
    // DR 5/slashing: the claw passes, the bludgeoning constriction does not.
    let (hp, lines) = run(json!({ "amount": 5, "bypass": ["slashing"] }), json!([]));
    assert_eq!(hp, 40 - 4 - 1, "{lines:#?}");
    // DR 5/magic against a magic claw: both pass (the constriction carries the claw's qualities).
    let (hp, lines) = run(json!({ "amount": 5, "bypass": ["magic"] }), json!(["magic"]));
    assert_eq!(hp, 40 - 4 - 6, "{lines:#?}");
}
