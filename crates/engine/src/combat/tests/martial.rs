//! The martial feats that decide damage (Rapid Shot, Manyshot, Deadly Aim,
//! two-weapon fighting, Double Slice, Vital Strike, Cleave, Combat
//! Expertise) and hands (a two-handed weapon lets go of the shield):
//! closed-form cases with scripted dice, and the default policy's choices.

use serde_json::{Value, json};

use super::support::*;
use crate::combat::SimOptions;
use crate::combat::Style;
use crate::combat::action::{Action, ActionKind, ActionResult, Reason};
use crate::combat::decide::Policy;
use crate::combat::odds::Swing;
use crate::combat::policy::DefaultPolicy;
use crate::effects::Maneuver;

fn dummy(ac: i32) -> crate::model::Combatant {
    creature("Dummy", json!({ "hp_max": 200, "ac": { "total": ac, "touch": 10, "flat_footed": ac } }))
}

/// An archer: BAB `bab`, a +10 bow of 1d8+2 (100 ft), with `features`.
fn archer(features: Value, bab: i32) -> crate::model::Combatant {
    creature(
        "Archer",
        json!({ "bab": bab, "features": features, "attacks": [ranged("bow", 10, "1d8+2", 100)] }),
    )
}

/// A swordsman: BAB `bab`, Str 16, a +5 longsword of 1d8+3, a +5 light
/// off-hand short sword of 1d6+1 (half Strength), with `features`.
fn swordsman(features: Value, bab: i32) -> crate::model::Combatant {
    creature(
        "Swordsman",
        json!({ "bab": bab, "features": features,
                "abilities": { "str_score": 16, "dex_score": 10, "con_score": 12,
                               "int_score": 10, "wis_score": 10, "cha_score": 10 },
                "attacks": [melee("longsword", 5, "1d8+3"),
                            { "name": "short sword", "kind": "melee", "attack_bonus": 5, "light": true,
                              "off_hand": true, "damage": [{ "formula": "1d6+1", "types": ["piercing"] }] }] }),
    )
}

#[test]
fn rapid_shot_adds_a_shot_at_the_highest_bonus_and_costs_two_on_every_shot() {
    let prep = prepare(
        arena(1, 12),
        vec![("a", archer(json!(["Rapid Shot"]), 6), at(1, 1)), ("b", dummy(14), at(1, 7))],
    );
    // BAB 6: +10/+5, with Rapid Shot +8/+8/+3. d20 10 → 18 hits (d8 4: 6), 18 hits (d8 3: 5), 13 misses.
    let mut b = Bench::new(&[10, 4, 10, 3, 10]);
    let mut e = b.engine(&prep, &SimOptions::default());
    turn(&mut e, 0, vec![Action::declare(Style::RapidShot), Action::at(ActionKind::FullAttack, 1)]);
    assert_eq!(e.st.hp(1), 200 - 6 - 5);
    drop(e);
    assert_eq!(
        b.lines(),
        [
            "round 1 archer: rapid shot (-2 on every attack, one more shot)",
            "round 1 archer: bow vs dummy d20=10+8=18 AC 14 [rapid shot -2] -> HIT 6 dmg (hp 200->194)",
            "round 1 archer: bow vs dummy d20=10+8=18 AC 14 [rapid shot -2] -> HIT 5 dmg (hp 194->189)",
            "round 1 archer: bow vs dummy d20=10+3=13 AC 14 [iterative -5, rapid shot -2] -> MISS",
        ]
    );
    let without =
        prepare(arena(1, 12), vec![("a", archer(json!([]), 6), at(1, 1)), ("b", dummy(14), at(1, 7))]);
    let mut b = Bench::new(&[]);
    let mut e = b.engine(&without, &SimOptions::default());
    turn(&mut e, 0, vec![Action::declare(Style::RapidShot)]);
    assert_eq!(e.st.last_results(0), [ActionResult::failed(ActionKind::Declare, Reason::MissingFeat)]);
}

#[test]
fn manyshot_fires_two_arrows_with_the_first_attack_the_second_never_multiplied() {
    let prep = prepare(
        arena(1, 12),
        vec![("a", archer(json!(["Rapid Shot", "Manyshot"]), 6), at(1, 1)), ("b", dummy(14), at(1, 7))],
    );
    // First shot: d20 20 threatens, confirmed by 15 (x2): (4 + 2) × 2 = 12, second arrow d8 3 + 2 = 5.
    // Second shot at +5: d20 10 → 15 hits, d8 6 + 2 = 8.
    let mut b = Bench::new(&[20, 15, 4, 3, 10, 6]);
    let mut e = b.engine(&prep, &SimOptions::default());
    turn(&mut e, 0, vec![Action::at(ActionKind::FullAttack, 1)]);
    assert_eq!(e.st.hp(1), 200 - 12 - 5 - 8);
    drop(e);
    assert!(b.lines()[0].ends_with("manyshot second arrow 5 17 dmg (hp 200->183)"), "{:?}", b.lines());
    // A single attack fires one arrow.
    let mut b = Bench::new(&[10, 4]);
    let mut e = b.engine(&prep, &SimOptions::default());
    turn(&mut e, 0, vec![Action::at(ActionKind::Attack, 1)]);
    assert_eq!(e.st.hp(1), 200 - 6);
}

#[test]
fn deadly_aim_trades_one_attack_for_two_damage_per_four_points_of_bab() {
    let prep = prepare(
        arena(1, 12),
        vec![("a", archer(json!(["Deadly Aim"]), 4), at(1, 1)), ("b", dummy(14), at(1, 7))],
    );
    // BAB 4: X = 2. d20 10 + 10 − 2 = 18 hits; d8 4 + 2 + 4 = 10.
    let mut b = Bench::new(&[10, 4]);
    let mut e = b.engine(&prep, &SimOptions::default());
    turn(&mut e, 0, vec![Action::declare(Style::DeadlyAim), Action::at(ActionKind::Attack, 1)]);
    assert_eq!(e.st.hp(1), 200 - 10);
    let s = e.st.situation(0, 0, 1, Swing::default());
    assert_eq!((s.attack, e.st.damage_bonus(0, 0, 1, &s, Swing::default())), (10 - 2, 4));
    e.begin_turn(0);
    assert!(!e.st.declared(0, Style::DeadlyAim), "it lasts until the next turn");
    drop(e);
    assert_eq!(b.lines()[0], "round 1 archer: deadly aim (-2 ranged attack, +4 damage)");
}

#[test]
fn two_weapon_penalties_follow_the_feat_and_the_off_hand_weapon_s_weight() {
    // Two-Weapon Fighting, light off hand: −2/−2. +3 longsword, +3 short sword.
    let prep = prepare(
        arena(3, 6),
        vec![("a", swordsman(json!(["Two-Weapon Fighting"]), 1), at(1, 1)), ("b", dummy(12), at(1, 2))],
    );
    // Longsword d20 10 → 13 hits, d8 5 + 3 = 8; short sword d20 10 → 13 hits, d6 4 + 1 = 5.
    let mut b = Bench::new(&[10, 5, 10, 4]);
    let mut e = b.engine(&prep, &SimOptions::default());
    turn(&mut e, 0, vec![Action::declare(Style::TwoWeapon), Action::at(ActionKind::FullAttack, 1)]);
    assert_eq!(e.st.hp(1), 200 - 8 - 5);
    drop(e);
    assert_eq!(
        b.lines(),
        [
            "round 1 swordsman: fights with two weapons (-2 main hand, -2 off hand)",
            "round 1 swordsman: longsword vs dummy d20=10+3=13 AC 12 [two weapons -2] -> HIT 8 dmg (hp 200->192)",
            "round 1 swordsman: short sword vs dummy d20=10+3=13 AC 12 [two weapons -2] -> HIT 5 dmg (hp 192->187)",
        ]
    );
    // Without the feat, light off hand: −4/−8 (+1 and −3 against AC 12: 11 + 1 = 12 hits, 11 − 3 = 8 misses).
    let prep =
        prepare(arena(3, 6), vec![("a", swordsman(json!([]), 1), at(1, 1)), ("b", dummy(12), at(1, 2))]);
    let mut b = Bench::new(&[11, 5, 11]);
    let mut e = b.engine(&prep, &SimOptions::default());
    turn(&mut e, 0, vec![Action::declare(Style::TwoWeapon), Action::at(ActionKind::FullAttack, 1)]);
    assert_eq!(e.st.hp(1), 200 - 8);
    drop(e);
    assert!(b.lines()[0].contains("(-4 main hand, -8 off hand)"), "{:?}", b.lines());
    assert!(b.lines()[2].contains("d20=11-3=8"), "{:?}", b.lines());
}

#[test]
fn improved_two_weapon_fighting_adds_an_off_hand_attack_at_minus_five_and_double_slice_full_strength() {
    let prep = prepare(
        arena(3, 6),
        vec![
            (
                "a",
                swordsman(json!(["Two-Weapon Fighting", "Improved Two-Weapon Fighting", "Double Slice"]), 6),
                at(1, 1),
            ),
            ("b", dummy(5), at(1, 2)),
        ],
    );
    // BAB 6: longsword +3/−2, short sword +3/−2; every d20 10 hits AC 5.
    // Longsword 1d8+3 (d8 1): 4, 4; short sword 1d6+1 + Double Slice (Str 16: +3 − 1 = +2) (d6 1): 4, 4.
    let mut b = Bench::new(&[10, 1, 10, 1, 10, 1, 10, 1]);
    let mut e = b.engine(&prep, &SimOptions::default());
    turn(&mut e, 0, vec![Action::declare(Style::TwoWeapon), Action::at(ActionKind::FullAttack, 1)]);
    assert_eq!(e.st.hp(1), 200 - 4 * 4);
    drop(e);
    let lines = b.lines();
    assert_eq!(lines.len(), 5, "{lines:?}");
    assert!(
        lines[4].contains("short sword vs dummy d20=10-2=8 AC 5 [iterative -5, two weapons -2]"),
        "{lines:?}"
    );
}

#[test]
fn vital_strike_rolls_the_weapon_dice_again_on_the_attack_action_and_never_multiplies_them() {
    let fighter = |features: Value| {
        creature(
            "Fighter",
            json!({ "bab": 6, "features": features, "attacks": [melee("longsword", 10, "1d8+3")] }),
        )
    };
    let prep = prepare(
        arena(3, 6),
        vec![
            ("a", fighter(json!(["Vital Strike", "Improved Vital Strike"])), at(1, 1)),
            ("b", dummy(14), at(1, 2)),
        ],
    );
    // d20 20 threatens, 15 confirms (x2): (5 + 3) × 2 = 16, then two more d8 (6, 2), not multiplied: 24.
    let mut b = Bench::new(&[20, 15, 5, 6, 2]);
    let mut e = b.engine(&prep, &SimOptions::default());
    turn(&mut e, 0, vec![Action::at(ActionKind::Attack, 1)]);
    assert_eq!(e.st.hp(1), 200 - 24);
    drop(e);
    assert!(b.lines()[0].contains("vital strike x3 dice 24 dmg"), "{:?}", b.lines());
    // A full attack is not the attack action: no extra dice (d20 10 → 20 hits: 5 + 3; 15 hits: 4 + 3).
    let mut b = Bench::new(&[10, 5, 10, 4]);
    let mut e = b.engine(&prep, &SimOptions::default());
    turn(&mut e, 0, vec![Action::at(ActionKind::FullAttack, 1)]);
    assert_eq!(e.st.hp(1), 200 - 8 - 7);
}

#[test]
fn cleave_goes_on_to_an_adjacent_foe_after_a_hit_and_great_cleave_goes_on_while_it_hits() {
    let fighter = |features: Value| {
        creature(
            "Fighter",
            json!({ "bab": 1, "features": features, "ac": { "total": 16, "touch": 10, "flat_footed": 16 },
                    "attacks": [melee("longsword", 5, "1d8+3")] }),
        )
    };
    // Three dummies in a column beside the fighter: (1,2), (2,2), (3,2), each adjacent to the next.
    let placed = |features: Value| {
        vec![
            ("a", fighter(features), at(2, 1)),
            ("b", dummy(12), at(1, 2)),
            ("b", dummy(12), at(2, 2)),
            ("b", dummy(12), at(3, 2)),
        ]
    };
    let prep = prepare(arena(3, 6), placed(json!(["Cleave"])));
    // Hit dummy (d20 10 → 15, d8 1: 4), then dummy-2 (d20 10, d8 2: 5); Cleave stops there.
    let mut b = Bench::new(&[10, 1, 10, 2]);
    let mut e = b.engine(&prep, &SimOptions::default());
    turn(&mut e, 0, vec![Action::declare(Style::Cleave), Action::at(ActionKind::Attack, 1)]);
    assert_eq!([e.st.hp(1), e.st.hp(2), e.st.hp(3)], [196, 195, 200]);
    assert_eq!(e.st.armor_class(1, 0, true, false, false, false, 0), 16 - 2, "−2 AC until its next turn");
    drop(e);
    assert_eq!(b.lines()[0], "round 1 fighter: cleave (-2 AC)");
    // Great Cleave: a third foe after a second hit; a miss stops the chain.
    let prep = prepare(arena(3, 6), placed(json!(["Cleave", "Great Cleave"])));
    let mut b = Bench::new(&[10, 1, 10, 2, 10, 3]);
    let mut e = b.engine(&prep, &SimOptions::default());
    turn(&mut e, 0, vec![Action::declare(Style::Cleave), Action::at(ActionKind::Attack, 1)]);
    assert_eq!([e.st.hp(1), e.st.hp(2), e.st.hp(3)], [196, 195, 194]);
    let mut b = Bench::new(&[2]);
    let mut e = b.engine(&prep, &SimOptions::default());
    turn(&mut e, 0, vec![Action::declare(Style::Cleave), Action::at(ActionKind::Attack, 1)]);
    assert_eq!([e.st.hp(1), e.st.hp(2), e.st.hp(3)], [200, 200, 200], "a miss ends it");
}

#[test]
fn combat_expertise_trades_melee_attack_and_cmb_for_dodge_ac() {
    let fighter = creature(
        "Fighter",
        json!({ "bab": 4, "features": ["Combat Expertise"], "ac": { "total": 16, "touch": 12, "flat_footed": 14 },
                "attacks": [melee("longsword", 8, "1d8+3")] }),
    );
    let prep = prepare(arena(3, 6), vec![("a", fighter, at(1, 1)), ("b", dummy(12), at(1, 2))]);
    let mut b = Bench::new(&[]);
    let mut e = b.engine(&prep, &SimOptions::default());
    let cmb = e.st.cmb(0, Maneuver::Trip, 1);
    turn(&mut e, 0, vec![Action::declare(Style::CombatExpertise)]);
    // BAB 4: X = 2.
    assert_eq!(e.st.situation(0, 0, 1, Swing::default()).attack, 8 - 2);
    assert_eq!(e.st.cmb(0, Maneuver::Trip, 1), cmb - 2);
    assert_eq!(e.st.armor_class(1, 0, true, false, false, false, 0), 16 + 2);
    assert_eq!(
        e.st.armor_class(1, 0, true, true, false, false, 0),
        12 + 2,
        "a dodge bonus counts against touch"
    );
    assert_eq!(e.st.armor_class(1, 0, true, false, true, false, 0), 14, "and is lost when denied Dexterity");
}

#[test]
fn a_two_handed_attack_lets_go_of_the_shield_until_the_next_turn() {
    let knight = creature(
        "Knight",
        json!({ "bab": 4, "ac": { "total": 22, "touch": 11, "flat_footed": 21 },
                "shield": { "name": "heavy steel shield", "kind": "heavy", "ac_bonus": 2 },
                "attacks": [melee("longsword", 10, "1d8+5"),
                            { "name": "lance", "kind": "melee", "attack_bonus": 8, "two_handed": true,
                              "reach_weapon": true, "damage": [{ "formula": "1d8+6", "types": ["piercing"] }] }] }),
    );
    let prep = prepare(arena(3, 6), vec![("a", knight, at(1, 1)), ("b", dummy(12), at(1, 3))]);
    let mut b = Bench::new(&[10, 4]);
    let mut e = b.engine(&prep, &SimOptions::default());
    let ac = |e: &crate::combat::engine::Engine<'_, '_, _>, touch| {
        e.st.armor_class(1, 0, true, touch, false, false, 0)
    };
    assert_eq!(ac(&e, false), 22);
    // 10 ft away: the lance (reach).
    turn(&mut e, 0, vec![Action::at(ActionKind::Attack, 1)]);
    assert_eq!(e.st.hp(1), 200 - 10);
    assert_eq!((ac(&e, false), ac(&e, true)), (20, 11), "the shield's +2 is gone, touch AC never had it");
    e.begin_turn(0);
    assert_eq!(ac(&e, false), 22, "back on its next turn");
}

#[test]
fn the_default_policy_declares_rapid_shot_and_deadly_aim_when_they_pay() {
    let plan = |features: Value, ac: i32| {
        let prep =
            prepare(arena(1, 12), vec![("a", archer(features, 6), at(1, 1)), ("b", dummy(ac), at(1, 7))]);
        let mut b = Bench::new(&[]);
        let e = b.engine(&prep, &SimOptions::default());
        let mut out = Vec::new();
        DefaultPolicy.plan(&e.st, 0, &mut out);
        out
    };
    let full = Action::at(ActionKind::FullAttack, 1);
    // Against AC 14 (+10/+5): 0.85 + 0.6 = 1.45 hits without, 0.75 × 2 + 0.5 = 2.0 with Rapid Shot;
    // Deadly Aim (X = 2, 1d8+2: 6.5): 2.0 × 6.5 = 13 without, (0.65 × 2 + 0.4) × 10.5 = 17.85 with.
    assert_eq!(
        plan(json!(["Rapid Shot", "Deadly Aim"]), 14),
        [Action::declare(Style::RapidShot), Action::declare(Style::DeadlyAim), full]
    );
    // Against AC 30 only natural 20s hit: the extra roll still pays (3 × 0.05 > 2 × 0.05).
    assert_eq!(plan(json!(["Rapid Shot"]), 30), [Action::declare(Style::RapidShot), full]);
    assert_eq!(plan(json!([]), 14), [full]);
}

#[test]
fn the_default_policy_fights_with_two_weapons_and_cleaves_when_they_pay() {
    let prep = prepare(
        arena(3, 6),
        vec![("a", swordsman(json!(["Two-Weapon Fighting"]), 1), at(1, 1)), ("b", dummy(12), at(1, 2))],
    );
    let mut b = Bench::new(&[]);
    let e = b.engine(&prep, &SimOptions::default());
    let mut out = Vec::new();
    DefaultPolicy.plan(&e.st, 0, &mut out);
    assert_eq!(out, [Action::declare(Style::TwoWeapon), Action::at(ActionKind::FullAttack, 1)]);
    // BAB 1, Cleave, two foes side by side: the attack action with Cleave instead of a one-attack full attack.
    let fighter = creature(
        "Fighter",
        json!({ "bab": 1, "features": ["Cleave"], "attacks": [melee("axe", 5, "1d8+3")] }),
    );
    let prep = prepare(
        arena(3, 6),
        vec![("a", fighter, at(1, 1)), ("b", dummy(12), at(1, 2)), ("b", dummy(12), at(2, 2))],
    );
    let mut b = Bench::new(&[]);
    let e = b.engine(&prep, &SimOptions::default());
    let mut out = Vec::new();
    DefaultPolicy.plan(&e.st, 0, &mut out);
    let t = out.last().and_then(|a| a.target).expect("a target");
    assert_eq!(out, [Action::declare(Style::Cleave), Action::at(ActionKind::Attack, t)]);
}

#[test]
fn harvie_declares_rapid_shot_in_battle_and_deals_more_damage_than_without_the_feat() {
    use crate::combat::event::Event;
    use crate::runner::run_with_transcript;
    // Harvie (shipped, Rapid Shot) against a tough dummy 60 ft away, 30 seeds;
    // then the same Harvie without the feat, same seeds.
    let harvie = data_combatant("data/pcs/harvie.json");
    let mut plain = harvie.clone();
    plain.features.retain(|f| f.name() != "Rapid Shot");
    let target = || {
        creature(
            "Dummy",
            json!({ "hp_max": 400, "speed_land_ft": 0, "attacks": [melee("fist", 0, "1")],
                                              "ac": { "total": 18, "touch": 10, "flat_footed": 18 } }),
        )
    };
    let damage = |archer: crate::model::Combatant| {
        let enc = encounter(arena(1, 16), vec![("a", archer, at(1, 1)), ("b", target(), at(1, 13))]);
        let (mut dealt, mut declared) = (0u64, 0u32);
        for run in 0..30 {
            let (_, t) =
                run_with_transcript(&enc, &SimOptions { round_cap: 5, ..SimOptions::default() }, 3, run);
            for r in &t.events {
                match &r.event {
                    Event::Declares { style: Style::RapidShot, .. } => declared += 1,
                    Event::Attack(a) => {
                        for s in &a.steps {
                            if let crate::combat::event::AttackStep::Damage { dealt: d, .. } = s {
                                dealt += u64::from(*d);
                            }
                        }
                    }
                    _ => {}
                }
            }
        }
        (dealt, declared)
    };
    let (with, declared) = damage(harvie);
    let (without, none) = damage(plain);
    assert!(declared >= 30 * 4, "declared {declared} times in 30 battles of 5 rounds");
    assert_eq!(none, 0);
    assert!(with * 10 > without * 12, "{with} with Rapid Shot against {without} without");
}
