//! Feats in play: Power Attack, Point-Blank Shot, Critical Focus, Far Shot,
//! sneak attack, and the final-values rule (nothing counted twice).

use serde_json::json;

use super::support::*;
use crate::combat::SimOptions;
use crate::combat::action::{Action, ActionKind, ActionResult, Reason};
use crate::combat::decide::Policy;
use crate::combat::odds::Swing;
use crate::combat::policy::DefaultPolicy;
use crate::effects::{ConditionId as C, Maneuver};

fn two_hander(features: serde_json::Value, bab: i32) -> crate::model::Combatant {
    creature(
        "Barbarian",
        json!({ "bab": bab, "features": features,
                "attacks": [{ "name": "greatsword", "kind": "melee", "attack_bonus": 6, "two_handed": true,
                              "damage": [{ "formula": "2d6+4", "types": ["slashing"] }] },
                            { "name": "dagger", "kind": "melee", "attack_bonus": 6,
                              "damage": [{ "formula": "1d4+3", "types": ["piercing"] }] },
                            { "name": "shocking grasp", "kind": "touch", "attack_bonus": 6,
                              "damage": [{ "formula": "1d6", "types": ["electricity"] }] }] }),
    )
}

fn dummy() -> crate::model::Combatant {
    creature("Dummy", json!({ "hp_max": 200, "ac": { "total": 14, "touch": 10, "flat_footed": 14 } }))
}

#[test]
fn power_attack_needs_the_feat_and_trades_attack_for_damage_until_the_next_turn() {
    let prep = prepare(
        arena(3, 6),
        vec![("a", two_hander(json!(["Power Attack"]), 4), at(1, 1)), ("b", dummy(), at(1, 2))],
    );
    // Power Attack, then greatsword: d20 10 + 6 − 2 = 14 hits; 2d6 = 3 + 4 → 7 + 4 + 3X (X = 2) = 17.
    let mut b = Bench::new(&[10, 3, 4]);
    let mut e = b.engine(&prep, &SimOptions::default());
    turn(
        &mut e,
        0,
        vec![Action::new(ActionKind::PowerAttack), Action::at(ActionKind::Attack, 1).with_weapon(0)],
    );
    assert_eq!(e.st.hp(1), 200 - 17);
    assert!(e.st.power_attack_on(0));
    let s = e.st.situation(0, 1, 1, Swing::default());
    assert_eq!(s.attack, 6 - 2);
    assert_eq!(e.st.damage_bonus(0, 1, 1, &s, Swing::default()), 4, "one-handed: +2X");
    let touch = e.st.situation(0, 2, 1, Swing::default());
    assert_eq!(touch.attack, 6 - 2, "melee touch takes the penalty");
    assert_eq!(e.st.damage_bonus(0, 2, 1, &touch, Swing::default()), 0, "but gains no damage");
    assert_eq!(e.st.cmb(0, Maneuver::Trip, 1), 4 - 2, "BAB 4 (Str 10) − X on combat maneuvers");
    e.begin_turn(0);
    assert!(!e.st.power_attack_on(0), "it lasts until its next turn");
    drop(e);
    assert_eq!(
        b.lines(),
        [
            "round 1 barbarian: power attack (-2 melee attack and CMB, +4 damage)",
            "round 1 barbarian: greatsword vs dummy d20=10+4=14 AC 14 [power attack -2] -> HIT 17 dmg (hp 200->183)",
        ]
    );
    let without =
        prepare(arena(3, 6), vec![("a", two_hander(json!([]), 4), at(1, 1)), ("b", dummy(), at(1, 2))]);
    let mut b = Bench::new(&[]);
    let mut e = b.engine(&without, &SimOptions::default());
    turn(&mut e, 0, vec![Action::new(ActionKind::PowerAttack)]);
    assert_eq!(e.st.last_results(0), [ActionResult::failed(ActionKind::PowerAttack, Reason::MissingFeat)]);
}

#[test]
fn the_default_policy_power_attacks_when_it_pays() {
    // Against AC 14, +6 with 2d6+4: 65 % × 11 = 7.15 without, 55 % × 17 = 9.35 with.
    let easy = prepare(
        arena(3, 6),
        vec![("a", two_hander(json!(["Power Attack"]), 4), at(1, 1)), ("b", dummy(), at(1, 2))],
    );
    let mut b = Bench::new(&[]);
    let e = b.engine(&easy, &SimOptions::default());
    let mut out = Vec::new();
    DefaultPolicy.plan(&e.st, 0, &mut out);
    assert_eq!(out, [Action::new(ActionKind::PowerAttack), Action::at(ActionKind::FullAttack, 1)]);
    // Against AC 25: 10 % × 11 = 1.1 without, 5 % × 17 = 0.85 with.
    let hard = creature("Wall", json!({ "ac": { "total": 25, "touch": 10, "flat_footed": 25 } }));
    let prep = prepare(
        arena(3, 6),
        vec![("a", two_hander(json!(["Power Attack"]), 4), at(1, 1)), ("b", hard, at(1, 2))],
    );
    let mut b = Bench::new(&[]);
    let e = b.engine(&prep, &SimOptions::default());
    assert!(!e.st.power_attack_pays(0, 1));
}

#[test]
fn point_blank_shot_adds_one_within_thirty_feet_only() {
    let archer = creature(
        "Archer",
        json!({ "features": ["Point-Blank Shot"], "attacks": [ranged("bow", 3, "1d8", 100)] }),
    );
    let prep = prepare(arena(1, 12), vec![("a", archer, at(1, 1)), ("b", dummy(), at(1, 7))]);
    let mut b = Bench::new(&[]);
    let mut e = b.engine(&prep, &SimOptions::default());
    let s = e.st.situation(0, 0, 1, Swing::default());
    assert_eq!(s.attack, 4);
    assert_eq!(e.st.damage_bonus(0, 0, 1, &s, Swing::default()), 1);
    e.st.relocate(1, at(1, 8));
    let s = e.st.situation(0, 0, 1, Swing::default());
    assert_eq!((s.attack, e.st.damage_bonus(0, 0, 1, &s, Swing::default())), (3, 0), "35 ft");
}

#[test]
fn combat_casting_helps_concentration_only_when_casting_defensively_or_grappled() {
    let caster = creature("Caster", json!({ "features": ["Combat Casting"] }));
    let prep = prepare(arena(3, 6), vec![("a", caster, at(1, 1)), ("b", dummy(), at(1, 2))]);
    let mut b = Bench::new(&[]);
    let e = b.engine(&prep, &SimOptions::default());
    assert_eq!(e.st.concentration_modifier(0, true), 4);
    assert_eq!(e.st.concentration_modifier(0, false), 0);
    assert_eq!(e.st.situation(0, 0, 1, Swing::default()).attack, 0, "nothing else changes");
}

#[test]
fn far_shot_halves_the_range_penalty() {
    let archer =
        creature("Archer", json!({ "features": ["Far Shot"], "attacks": [ranged("bow", 0, "1d8", 10)] }));
    let prep = prepare(arena(1, 12), vec![("a", archer, at(1, 1)), ("b", dummy(), at(1, 8))]);
    let mut b = Bench::new(&[]);
    let e = b.engine(&prep, &SimOptions::default());
    assert_eq!(e.st.situation(0, 0, 1, Swing::default()).range_penalty, 3);
}

#[test]
fn critical_focus_helps_only_the_confirmation() {
    let prep = prepare(
        arena(3, 6),
        vec![
            ("a", creature("Duelist", json!({ "features": ["Critical Focus"] })), at(1, 1)),
            ("b", dummy(), at(1, 2)),
        ],
    );
    // 20 threatens; confirmation 10 + 0 + 4 = 14 confirms against AC 14.
    let mut b = Bench::new(&[20, 10, 3, 3]);
    let mut e = b.engine(&prep, &SimOptions::default());
    assert_eq!(e.st.situation(0, 0, 1, Swing::default()).attack, 0);
    e.strike(0, 0, 1, Swing::default());
    assert_eq!(e.st.fighters[0].out.crits, 1);
}

#[test]
fn printed_feats_are_never_added_again_in_play() {
    // The orc's +5 falchion already holds Weapon Focus; the fighter's AC and
    // saves hold Iron Will and Toughness is in its hit points.
    let orc = data_combatant("data/monsters/orc.json");
    let fighter = data_combatant("data/pcs/fighter.json");
    let prep = prepare(arena(3, 6), vec![("a", orc, at(1, 1)), ("b", fighter, at(1, 2))]);
    let mut b = Bench::new(&[]);
    let e = b.engine(&prep, &SimOptions::default());
    assert_eq!(e.st.situation(0, 0, 1, Swing::default()).attack, 5);
    assert_eq!(e.st.save_bonus(1, crate::effects::SaveKind::Will, &crate::effects::Context::default()), 3);
    assert_eq!(e.st.hp(1), 14);
    assert!(prep.fighters[0].mods.is_empty() && prep.fighters[1].mods.is_empty());
    let trace = prep.features(1).trace();
    assert_eq!(
        trace,
        [
            "Iron Will: modifiers; 1 in final values",
            "Power Attack: rule power_attack",
            "Toughness: rule toughness",
        ]
    );
}

#[test]
fn dodge_is_in_the_printed_ac_but_counts_toward_a_computed_cmd() {
    let dodger = creature(
        "Dodger",
        json!({ "features": ["Dodge"], "ac": { "total": 13, "touch": 13, "flat_footed": 10 },
                "abilities": { "str_score": 10, "dex_score": 14, "con_score": 10,
                               "int_score": 10, "wis_score": 10, "cha_score": 10 } }),
    );
    let prep =
        prepare(arena(3, 6), vec![("a", creature("Hero", json!({})), at(1, 1)), ("b", dodger, at(1, 2))]);
    let mut b = Bench::new(&[]);
    let mut e = b.engine(&prep, &SimOptions::default());
    assert_eq!(e.st.situation(0, 0, 1, Swing::default()).ac, 13);
    // CMD = 10 + BAB 1 + Str 0 + Dex 2 + dodge 1.
    assert_eq!(e.st.cmd(1, Maneuver::Trip, 0), 14);
    e.set_condition(1, C::FlatFooted);
    assert_eq!(e.st.cmd(1, Maneuver::Trip, 0), 11, "no Dexterity bonus, no dodge");
    // A touch attack against it while denied loses the dodge too.
    assert_eq!(prep.fighters[1].defense.printed_dodge, 1);
}

fn rogue_and_friend(target: crate::model::Combatant) -> crate::combat::PreparedEncounter {
    let rogue = creature(
        "Rogue",
        json!({ "features": ["Sneak Attack +2d6"], "attacks": [melee("rapier", 10, "1d6"), ranged("bow", 10, "1d6", 60)] }),
    );
    prepare(
        arena(3, 12),
        vec![("a", rogue, at(1, 1)), ("a", creature("Friend", json!({})), at(1, 3)), ("b", target, at(1, 2))],
    )
}

#[test]
fn sneak_attack_adds_its_dice_against_a_flanked_foe_after_the_critical_multiplier() {
    let prep = rogue_and_friend(creature("Mark", json!({ "hp_max": 100 })));
    // Threat on 20, confirmed: (4 × 2) + 5 + 6 = 19 (precision never multiplied).
    let mut b = Bench::new(&[20, 15, 4, 5, 6]);
    let mut e = b.engine(&prep, &SimOptions::default());
    e.strike(0, 0, 2, Swing::default());
    assert_eq!(e.st.hp(2), 100 - 19);
    drop(e);
    assert!(b.lines()[0].contains("sneak attack +2d6 19 dmg"), "{:?}", b.lines());
}

#[test]
fn sneak_attack_needs_a_flank_or_a_denied_dexterity_and_reaches_undead() {
    let prep = rogue_and_friend(creature("Mark", json!({ "hp_max": 100 })));
    let mut b = Bench::new(&[15, 4, 15, 4, 1, 1]);
    let mut e = b.engine(&prep, &SimOptions::default());
    e.st.relocate(1, at(3, 10));
    e.strike(0, 0, 2, Swing::default());
    assert_eq!(e.st.hp(2), 96, "no flank, no sneak attack");
    e.set_condition(2, C::FlatFooted);
    e.strike(0, 0, 2, Swing::default());
    assert_eq!(e.st.hp(2), 90, "denied its Dexterity: 4 + 1 + 1");
    // At range: only within 30 ft, and only against a foe denied its Dexterity.
    e.st.relocate(0, at(1, 9));
    let s = e.st.situation(0, 1, 2, Swing::default());
    assert_eq!(e.st.sneak_attack_dice(0, 1, 2, &s, 0), 0, "35 ft");
    e.st.relocate(0, at(1, 8));
    let s = e.st.situation(0, 1, 2, Swing::default());
    assert_eq!(e.st.sneak_attack_dice(0, 1, 2, &s, 0), 2);
    let undead = creature(
        "Zombie",
        json!({ "creature_type": "undead", "abilities": { "str_score": 10,
        "dex_score": 10, "con_score": null, "int_score": null, "wis_score": 10, "cha_score": 10 } }),
    );
    let prep = rogue_and_friend(undead);
    let mut b = Bench::new(&[]);
    let e = b.engine(&prep, &SimOptions::default());
    let s = e.st.situation(0, 0, 2, Swing::default());
    assert!(s.flank);
    // PF1e's Undead traits grant no immunity to precision damage (pf1e-rules-5).
    assert_eq!(e.st.sneak_attack_dice(0, 0, 2, &s, 0), 2, "undead take sneak attack");
}

#[test]
fn sneak_attack_by_level_is_one_d6_per_two_levels() {
    let rogue = creature("Rogue", json!({ "level": 5, "features": ["Sneak Attack"] }));
    let prep = prepare(arena(3, 6), vec![("a", rogue, at(1, 1)), ("b", dummy(), at(1, 2))]);
    assert_eq!(prep.fighters[0].offense.sneak_dice, 3);
}

#[test]
fn every_shipped_combatant_resolves_its_features() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../data");
    for dir in ["monsters", "pcs"] {
        for entry in std::fs::read_dir(root.join(dir)).expect("data directory") {
            let path = entry.expect("entry").path();
            let c = crate::model::load_combatant(&path).unwrap_or_else(|e| panic!("{e}"));
            let resolved =
                crate::feats::resolve(&c, crate::feats::FeatCatalog::builtin().expect("catalogue"))
                    .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
            assert_eq!(resolved.features.len(), c.features.len());
        }
    }
}
