//! Attack rolls: criticals, iteratives, modifiers, AC, damage defenses.

use serde_json::json;

use super::support::*;
use crate::combat::SimOptions;
use crate::combat::action::{Action, ActionKind};
use crate::combat::odds::opposite_sides;
use crate::combat::odds::{Swing, iterations};

#[test]
fn iterative_attacks_come_at_six_eleven_sixteen() {
    assert_eq!([0, 1, 5, 6, 10, 11, 16, 20].map(iterations), [1, 1, 1, 2, 2, 3, 4, 4]);
}

#[test]
fn flanking_needs_opposite_borders_or_corners() {
    let t = at(5, 5);
    assert!(opposite_sides(at(4, 5), at(6, 5), t));
    assert!(opposite_sides(at(5, 4), at(5, 6), t));
    assert!(opposite_sides(at(4, 4), at(6, 6), t));
    assert!(opposite_sides(at(4, 6), at(6, 4), t));
    assert!(!opposite_sides(at(4, 4), at(6, 5), t), "left border to bottom border");
    assert!(!opposite_sides(at(4, 5), at(5, 6), t));
    assert!(!opposite_sides(at(4, 4), at(4, 6), t));
    // Reach: the line from (3,4) to (7,6) enters the top border and leaves the bottom one.
    assert!(opposite_sides(at(3, 4), at(7, 6), t));
    assert!(opposite_sides(at(3, 5), at(7, 5), t));
    // From (3,4) to (6,6) it enters the top border and leaves the right one.
    assert!(!opposite_sides(at(3, 4), at(6, 6), t));
    // A line that only touches a corner does not cross the square.
    assert!(!opposite_sides(at(3, 5), at(6, 6), t));
}

/// A fighter with BAB `bab` and `attacks` next to a target of AC 15 with 100 hp.
fn range(bab: i32, attacks: serde_json::Value) -> crate::combat::PreparedEncounter {
    let attacker = creature("Fighter", json!({ "bab": bab, "attacks": attacks }));
    let target =
        creature("Dummy", json!({ "hp_max": 100, "ac": { "total": 15, "touch": 11, "flat_footed": 15 } }));
    prepare(arena(3, 30), vec![("a", attacker, at(2, 1)), ("b", target, at(2, 2))])
}

#[test]
fn full_attack_iterates_manufactured_weapons() {
    let prep = range(6, json!([melee("longsword", 8, "1d8")]));
    // 10+8 = 18 hits (dmg 4), 9+3 = 12 misses.
    let mut b = Bench::new(&[10, 4, 9]);
    let mut e = b.engine(&prep, &SimOptions::default());
    turn(&mut e, 0, vec![Action::at(ActionKind::FullAttack, 1)]);
    drop(e);
    assert_eq!(
        b.lines(),
        [
            "round 1 fighter: longsword vs dummy d20=10+8=18 AC 15 -> HIT 4 dmg (hp 100->96)",
            "round 1 fighter: longsword vs dummy d20=9+3=12 AC 15 [iterative -5] -> MISS",
        ]
    );
}

#[test]
fn natural_attacks_never_iterate_and_count_sweeps() {
    let claws = json!([{ "name": "claw", "kind": "melee", "attack_bonus": 5, "natural": true, "count": 2,
                         "damage": [{ "formula": "1d4", "types": ["slashing"] }] }]);
    let prep = range(11, claws);
    let mut b = Bench::new(&[15, 2, 3]);
    let mut e = b.engine(&prep, &SimOptions::default());
    turn(&mut e, 0, vec![Action::at(ActionKind::FullAttack, 1)]);
    drop(e);
    assert_eq!(
        b.lines(),
        [
            "round 1 fighter: claw vs dummy d20=15+5=20 AC 15 -> HIT 2 dmg (hp 100->98)",
            "round 1 fighter: claw vs dummy d20=3+5=8 AC 15 -> MISS",
        ]
    );
}

#[test]
fn remaining_sweeps_are_lost_when_the_target_falls() {
    let claws = json!([{ "name": "claw", "kind": "melee", "attack_bonus": 5, "natural": true, "count": 3,
                         "damage": [{ "formula": "1d4+20", "types": ["slashing"] }] }]);
    let attacker = creature("Beast", json!({ "attacks": claws }));
    let prep =
        prepare(arena(1, 3), vec![("a", attacker, at(1, 1)), ("b", creature("Dummy", json!({})), at(1, 2))]);
    let mut b = Bench::new(&[15, 2]);
    let mut e = b.engine(&prep, &SimOptions::default());
    turn(&mut e, 0, vec![Action::at(ActionKind::FullAttack, 1)]);
    assert_eq!(e.rng.remaining(), 0, "no roll after the target fell");
    assert_eq!(e.st.hp(1), -12);
}

#[test]
fn natural_twenty_always_hits_and_natural_one_always_misses() {
    let prep = range(1, json!([melee("dagger", -10, "1d4"), melee("club", 30, "1d6")]));
    let mut b = Bench::new(&[20, 5, 1]);
    let mut e = b.engine(&prep, &SimOptions::default());
    e.strike(0, 0, 1, Swing::default());
    drop(e);
    assert_eq!(
        b.lines(),
        [
            "round 1 fighter: dagger vs dummy d20=20-10=10 AC 15 natural 20 -> HIT, threat: confirm d20=5-10=-5 -> no crit, 1 dmg (hp 100->99)"
        ]
    );
    let mut b = Bench::new(&[1]);
    let mut e = b.engine(&prep, &SimOptions::default());
    e.strike(0, 1, 1, Swing::default());
    drop(e);
    assert_eq!(b.lines(), ["round 1 fighter: club vs dummy d20=1+30=31 AC 15 natural 1 -> MISS"]);
}

fn falchion(features: serde_json::Value) -> crate::combat::PreparedEncounter {
    let attacker = creature(
        "Orc",
        json!({ "features": features, "attacks": [{ "name": "falchion", "kind": "melee", "attack_bonus": 5,
                 "crit_range": 18, "damage": [{ "formula": "2d4+4", "types": ["slashing"] }] }] }),
    );
    let target =
        creature("Dummy", json!({ "hp_max": 100, "ac": { "total": 15, "touch": 11, "flat_footed": 15 } }));
    prepare(arena(1, 3), vec![("a", attacker, at(1, 1)), ("b", target, at(1, 2))])
}

#[test]
fn threat_range_and_confirmation_with_the_same_modifiers() {
    let prep = falchion(json!([]));
    // 18 threatens (18-20), confirmation 10+5 = 15 vs AC 15 confirms: (3+2+4) x2.
    let mut b = Bench::new(&[18, 10, 3, 2]);
    let mut e = b.engine(&prep, &SimOptions::default());
    e.strike(0, 0, 1, Swing::default());
    assert_eq!(e.st.fighters[0].out.crits, 1);
    drop(e);
    assert_eq!(
        b.lines(),
        [
            "round 1 orc: falchion vs dummy d20=18+5=23 AC 15 -> HIT, threat: confirm d20=10+5=15 -> CRIT x2, 18 dmg (hp 100->82)"
        ]
    );
    // 17 does not threaten without Improved Critical.
    let mut b = Bench::new(&[17, 3, 2]);
    let mut e = b.engine(&prep, &SimOptions::default());
    e.strike(0, 0, 1, Swing::default());
    drop(e);
    assert_eq!(b.lines(), ["round 1 orc: falchion vs dummy d20=17+5=22 AC 15 -> HIT 9 dmg (hp 100->91)"]);
}

#[test]
fn natural_twenty_on_the_confirmation_confirms() {
    let prep = falchion(json!([]));
    let mut b = Bench::new(&[19, 20, 1, 1]);
    let mut e = b.engine(&prep, &SimOptions::default());
    e.st.fighters[1].hp = 100;
    e.strike(0, 0, 1, Swing::default());
    assert_eq!(e.st.hp(1), 100 - 12);
    // A natural 1 on the confirmation fails even when the total would beat the AC.
    let easy = falchion_easy();
    let mut b = Bench::new(&[19, 1, 1, 1]);
    let mut e = b.engine(&easy, &SimOptions::default());
    e.strike(0, 0, 1, Swing::default());
    assert_eq!(e.st.fighters[0].out.crits, 0);
}

fn falchion_easy() -> crate::combat::PreparedEncounter {
    let attacker = creature(
        "Orc",
        json!({ "attacks": [{ "name": "falchion", "kind": "melee", "attack_bonus": 30,
                 "crit_range": 18, "damage": [{ "formula": "2d4+4", "types": ["slashing"] }] }] }),
    );
    prepare(
        arena(1, 3),
        vec![("a", attacker, at(1, 1)), ("b", creature("Dummy", json!({"hp_max": 100})), at(1, 2))],
    )
}

#[test]
fn the_printed_threat_range_already_holds_improved_critical() {
    // Final values: a falchion printed 18-20 stays 18-20 with the feat (the
    // printed range of a creature with Improved Critical is 15-20).
    assert_eq!(
        falchion(json!(["Improved Critical (falchion)"])).fighters[0].offense.attacks[0].threat_min,
        18
    );
    let printed = creature(
        "Orc",
        json!({ "features": ["Improved Critical (falchion)"], "attacks": [{ "name": "falchion", "kind": "melee",
                 "attack_bonus": 5, "crit_range": 15, "damage": [{ "formula": "2d4+4", "types": ["slashing"] }] }] }),
    );
    let target =
        creature("Dummy", json!({ "hp_max": 100, "ac": { "total": 15, "touch": 11, "flat_footed": 15 } }));
    let prep = prepare(arena(1, 3), vec![("a", printed, at(1, 1)), ("b", target, at(1, 2))]);
    assert_eq!(prep.fighters[0].offense.attacks[0].threat_min, 15);
    let mut b = Bench::new(&[15, 19, 3, 2]);
    let mut e = b.engine(&prep, &SimOptions::default());
    e.strike(0, 0, 1, Swing::default());
    assert_eq!(e.st.fighters[0].out.crits, 1);
    // The feat widens the threat, never the confirmation: 14 does not threaten.
    let mut b = Bench::new(&[14, 3, 2]);
    let mut e = b.engine(&prep, &SimOptions::default());
    e.strike(0, 0, 1, Swing::default());
    assert_eq!(e.st.fighters[0].out.crits, 0);
    assert_eq!(e.rng.remaining(), 0);
}

#[test]
fn the_printed_secondary_bonus_already_holds_multiattack() {
    let bite = |features: serde_json::Value| {
        creature(
            "Beast",
            json!({ "features": features, "attacks": [{ "name": "bite", "kind": "melee", "attack_bonus": 0,
                "natural": true, "secondary": true, "damage": [{ "formula": "1d4", "types": ["piercing"] }] }] }),
        )
    };
    // Final values: the printed bonus is −5 or −2 already; the feat adds nothing in play.
    for (features, bonus) in [(json!([]), 0), (json!(["Multiattack"]), 0)] {
        let prep = prepare(
            arena(1, 3),
            vec![("a", bite(features), at(1, 1)), ("b", creature("D", json!({})), at(1, 2))],
        );
        assert_eq!(prep.fighters[0].offense.attacks[0].bonus, bonus);
    }
}

#[test]
fn damage_reduction_needs_every_bypass_component() {
    let weapons = json!([
        { "name": "plain", "kind": "melee", "attack_bonus": 0, "damage": [{ "formula": "1d8", "types": ["slashing"] }] },
        { "name": "magic", "kind": "melee", "attack_bonus": 0, "qualities": ["magic"],
          "damage": [{ "formula": "1d8", "types": ["slashing"] }] },
        { "name": "silver magic", "kind": "melee", "attack_bonus": 0, "qualities": ["magic", "silver"],
          "damage": [{ "formula": "1d8", "types": ["slashing"] }] },
        { "name": "flaming frost", "kind": "melee", "attack_bonus": 0, "qualities": ["Magic", "silver"],
          "damage": [{ "formula": "1d8", "types": ["slashing"] }, { "formula": "1d6", "types": ["fire"] },
                     { "formula": "1d6", "types": ["cold"] }] }
    ]);
    let attacker = creature("Hero", json!({ "attacks": weapons }));
    let golem = creature(
        "Golem",
        json!({ "dr": { "amount": 10, "bypass": ["magic", "silver"] }, "resistances": { "fire": 5 }, "immunities": ["cold"] }),
    );
    let slasher = creature("Slasher", json!({ "dr": { "amount": 5, "bypass": ["slashing"] } }));
    let stone = creature("Stone", json!({ "dr": { "amount": 5, "bypass": [] } }));
    let prep = prepare(
        arena(1, 5),
        vec![
            ("a", attacker, at(1, 1)),
            ("b", golem, at(1, 2)),
            ("b", slasher, at(1, 3)),
            ("b", stone, at(1, 4)),
        ],
    );
    let drs: Vec<[u32; 3]> =
        prep.fighters[0].offense.attacks.iter().map(|a| [a.vs[1].dr, a.vs[2].dr, a.vs[3].dr]).collect();
    assert_eq!(drs, [[10, 0, 5], [10, 0, 5], [0, 0, 5], [0, 0, 5]]);
    let comps: Vec<(u32, bool)> =
        prep.fighters[0].offense.attacks[3].vs[1].comps.iter().map(|c| (c.resist, c.immune)).collect();
    assert_eq!(comps, [(0, false), (5, false), (0, true)]);
}

#[test]
fn damage_reduction_with_alternatives_yields_to_any_one_of_them() {
    // DR 10/good or silver (a bone devil's kin, Bestiary): a silver weapon and
    // a good one each bypass it, a magic one does not.
    let weapons = json!([
        { "name": "plain", "kind": "melee", "attack_bonus": 0, "damage": [{ "formula": "1d8", "types": ["slashing"] }] },
        { "name": "silver", "kind": "melee", "attack_bonus": 0, "qualities": ["silver"],
          "damage": [{ "formula": "1d8", "types": ["slashing"] }] },
        { "name": "holy", "kind": "melee", "attack_bonus": 0, "qualities": ["magic", "good"],
          "damage": [{ "formula": "1d8", "types": ["slashing"] }] },
        { "name": "magic", "kind": "melee", "attack_bonus": 0, "qualities": ["magic"],
          "damage": [{ "formula": "1d8", "types": ["slashing"] }] }
    ]);
    let attacker = creature("Hero", json!({ "attacks": weapons }));
    let devil = creature("Devil", json!({ "dr": { "amount": 10, "bypass_any": ["good", "silver"] } }));
    let prep = prepare(arena(1, 3), vec![("a", attacker, at(1, 1)), ("b", devil, at(1, 2))]);
    let drs: Vec<u32> = prep.fighters[0].offense.attacks.iter().map(|a| a.vs[1].dr).collect();
    assert_eq!(drs, [10, 0, 0, 10]);
}

#[test]
fn energy_is_resisted_per_component_and_never_multiplied() {
    let flaming = json!([{ "name": "flaming sword", "kind": "melee", "attack_bonus": 10, "crit_range": 19,
        "damage": [{ "formula": "1d8+2", "types": ["slashing"] }, { "formula": "1d6", "types": ["fire"] },
                   { "formula": "2d6", "types": ["piercing"], "precision": true }] }]);
    let attacker = creature("Hero", json!({ "attacks": flaming }));
    let target = creature(
        "Troll",
        json!({ "hp_max": 100, "dr": { "amount": 3, "bypass": ["cold_iron"] }, "resistances": { "fire": 2 } }),
    );
    let prep = prepare(arena(1, 3), vec![("a", attacker, at(1, 1)), ("b", target, at(1, 2))]);
    // Crit: (5+2) x2 = 14 slashing + precision 3+4 = 7 -> physical 21 - DR 3 = 18; fire 6 - 2 = 4.
    let mut b = Bench::new(&[19, 12, 5, 6, 3, 4]);
    let mut e = b.engine(&prep, &SimOptions::default());
    e.strike(0, 0, 1, Swing::default());
    assert_eq!(e.st.hp(1), 100 - 22);
    assert_eq!(e.st.fighters[0].out.damage_dealt, 22);
    assert_eq!(e.st.fighters[1].out.damage_taken, 22);
    drop(e);
    assert_eq!(
        b.lines(),
        [
            "round 1 hero: flaming sword vs troll d20=19+10=29 AC 10 -> HIT, threat: confirm d20=12+10=22 -> CRIT x2, 22 dmg (rolled 27) (hp 100->78)"
        ]
    );
}
