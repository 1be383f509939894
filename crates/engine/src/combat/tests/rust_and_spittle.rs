//! A rust monster's rust and a gibbering mouther's spittle
//! (`combat::monster::rust`, `combat::monster::spittle`): the broken and
//! destroyed armor's AC, the item's save, the spittle's attack bonus,
//! blindness and the policy's restraint when threatened, against the
//! Bestiary's text with scripted dice; the chance rust takes hold against
//! its closed form over many seeds; their data errors.

use serde_json::{Value, json};

use super::monsters::monster;
use super::support::*;
use crate::combat::SimOptions;
use crate::combat::action::{Action, ActionKind};
use crate::combat::event::{AfflictionEvent, Event};
use crate::combat::monster::rust::{ac_left, item_save};
use crate::combat::prepared::PreparedEncounter;
use crate::effects::{ConditionId, Maneuver};

/// A rust monster's antennae: a touch attack +0 with no damage, rust DC 15.
fn rust_monster() -> crate::model::Combatant {
    monster(
        "Rust Monster",
        json!([{ "kind": "on_hit", "name": "rust", "attacks": ["antennae"], "save": "ref", "dc": 15,
                 "effect": { "rust": {} } }]),
        json!({ "attacks": [{ "name": "antennae", "kind": "touch", "attack_bonus": 0, "natural": true,
                              "damage": [] }] }),
    )
}

/// A knight in full plate (9) with a heavy steel shield (2), Reflex +0:
/// AC 21, touch 10, flat-footed 21; `armor_enhancement` on the plate.
fn knight(armor_enhancement: u32, reflex: i32) -> crate::model::Combatant {
    let bonus = 9 + armor_enhancement as i32;
    creature(
        "Knight",
        json!({ "hp_max": 40,
                "ac": { "total": 12 + bonus, "touch": 10, "flat_footed": 12 + bonus },
                "saves": { "fort": 0, "ref": reflex, "will": 0 },
                "armor": { "name": "full plate", "ac_bonus": bonus, "metal": true, "enhancement": armor_enhancement },
                "shield": { "name": "heavy steel shield", "kind": "heavy", "ac_bonus": 2, "metal": true } }),
    )
}

fn duel(a: crate::model::Combatant, b: crate::model::Combatant) -> PreparedEncounter {
    prepare(arena(3, 12), vec![("monsters", a, at(1, 1)), ("players", b, at(1, 2))])
}

/// (normal, touch, flat-footed) AC of `t` against `a`'s melee attack.
fn acs(
    e: &crate::combat::engine::Engine<'_, '_, impl crate::rng::Dice>,
    a: usize,
    t: usize,
) -> (i32, i32, i32) {
    (
        e.st.armor_class(a, t, true, false, false, false, 0),
        e.st.armor_class(a, t, true, true, false, false, 0),
        e.st.armor_class(a, t, true, false, true, false, 0),
    )
}

#[test]
fn broken_halves_an_items_ac_bonus_rounding_down_and_a_magic_item_saves_at_two_plus_half_its_caster_level() {
    // CRB "Broken": "the bonus it grants to AC is halved, rounding down".
    assert_eq!([ac_left(9, 0), ac_left(9, 1), ac_left(9, 2)], [9, 4, 0]);
    assert_eq!([ac_left(7, 1), ac_left(2, 1), ac_left(1, 1)], [3, 1, 0]);
    // Caster level 3 × enhancement; save 2 + CL/2 rounded down.
    assert_eq!(item_save(0), None, "a nonmagical item has no save of its own");
    assert_eq!(item_save(1), Some(2 + 1), "CL 3");
    assert_eq!(item_save(2), Some(2 + 3), "CL 6");
    assert_eq!(item_save(5), Some(2 + 7), "CL 15");
}

#[test]
fn rust_breaks_then_destroys_the_armor_then_breaks_the_shield_and_touch_ac_and_cmd_never_change() {
    let prep = duel(rust_monster(), knight(0, 0));
    // Touch: d20 15 hits touch AC 10; Reflex d20 5 + 0 < 15: broken; thrice.
    let mut b = Bench::new(&[15, 5, 15, 5, 15, 5]);
    let mut e = b.engine(&prep, &SimOptions::default());
    let cmd = e.st.cmd(1, Maneuver::Trip, 0);
    assert_eq!(acs(&e, 0, 1), (21, 10, 21));
    turn(&mut e, 0, vec![Action::at(ActionKind::Attack, 1)]);
    assert_eq!(e.st.fighters[1].monster.rusted, [1, 0]);
    assert_eq!(acs(&e, 0, 1), (21 - 5, 10, 21 - 5), "full plate 9 -> 4");
    assert_eq!(e.st.hp(1), 40, "no hit-point damage");
    e.start_round();
    turn(&mut e, 0, vec![Action::at(ActionKind::Attack, 1)]);
    assert_eq!(e.st.fighters[1].monster.rusted, [2, 0]);
    assert_eq!(acs(&e, 0, 1), (12, 10, 12), "the plate is gone");
    e.start_round();
    // The shield (2) now gives more AC than the destroyed plate (0).
    turn(&mut e, 0, vec![Action::at(ActionKind::Attack, 1)]);
    assert_eq!(e.st.fighters[1].monster.rusted, [2, 1]);
    assert_eq!(acs(&e, 0, 1), (11, 10, 11), "shield 2 -> 1");
    assert_eq!(e.st.cmd(1, Maneuver::Trip, 0), cmd, "armor never counted in CMD");
    drop(e);
    let lines = b.lines();
    for needle in [
        "rust: the full plate is broken (AC bonus 4)",
        "rust: the full plate falls to rust (AC bonus 0)",
        "rust: the heavy steel shield is broken (AC bonus 1)",
        "ref save d20=5+0=5 vs DC 15",
    ] {
        assert!(lines.iter().any(|l| l.contains(needle)), "{needle:?} in {lines:#?}");
    }
    assert_eq!(
        rusts(&b.events),
        vec![
            (1, "full plate".to_string(), 4, false),
            (1, "full plate".to_string(), 0, true),
            (1, "heavy steel shield".to_string(), 1, false)
        ]
    );
}

#[test]
fn an_attack_on_a_rusted_foe_names_the_loss_and_hits_the_lower_ac() {
    let sword = creature("Swordsman", json!({ "attacks": [melee("sword", 0, "1d6")] }));
    let prep = prepare(
        arena(3, 12),
        vec![
            ("monsters", rust_monster(), at(1, 1)),
            ("players", knight(0, 0), at(1, 2)),
            ("monsters", sword, at(1, 3)),
        ],
    );
    // Touch 15, save 5: plate broken (AC 16). The sword (flanking with the
    // rust monster, +2): d20 16 + 2 hits 16, 1d6 = 3.
    let mut b = Bench::new(&[15, 5, 16, 3]);
    let mut e = b.engine(&prep, &SimOptions::default());
    turn(&mut e, 0, vec![Action::at(ActionKind::Attack, 1)]);
    turn(&mut e, 2, vec![Action::at(ActionKind::Attack, 1)]);
    assert_eq!(e.st.hp(1), 37);
    drop(e);
    let lines = b.lines();
    assert!(
        lines
            .iter()
            .any(|l| l.contains("sword vs knight d20=16+2=18 AC 16 [flanking +2, target's rusted armor -5]")),
        "{lines:#?}"
    );
}

#[test]
fn a_reflex_save_negates_rust_and_a_magic_item_saves_with_its_own_bonus_when_better() {
    // Reflex -1: the +2 plate (CL 6) saves at +5 instead: d20 10 + 5 = 15 saves.
    let prep = duel(rust_monster(), knight(2, -1));
    let mut b = Bench::new(&[15, 10]);
    let mut e = b.engine(&prep, &SimOptions::default());
    turn(&mut e, 0, vec![Action::at(ActionKind::Attack, 1)]);
    assert_eq!(e.st.fighters[1].monster.rusted, [0, 0]);
    drop(e);
    assert!(
        b.lines().iter().any(|l| l.contains("ref save d20=10+5=15 vs DC 15 -> saves")),
        "{:#?}",
        b.lines()
    );
    // The same roll with a mundane plate uses the wearer's -1 and fails.
    let prep = duel(rust_monster(), knight(0, -1));
    let mut b = Bench::new(&[15, 10]);
    let mut e = b.engine(&prep, &SimOptions::default());
    turn(&mut e, 0, vec![Action::at(ActionKind::Attack, 1)]);
    assert_eq!(e.st.fighters[1].monster.rusted, [1, 0]);
    // A wearer whose Reflex is better than the item's keeps its own: +7 against the +1 plate's +3.
    let prep = duel(rust_monster(), knight(1, 7));
    let mut b = Bench::new(&[15, 8]);
    let mut e = b.engine(&prep, &SimOptions::default());
    turn(&mut e, 0, vec![Action::at(ActionKind::Attack, 1)]);
    assert_eq!(e.st.fighters[1].monster.rusted, [0, 0], "8 + 7 = 15 saves");
}

#[test]
fn rust_finds_nothing_on_a_foe_without_metal_and_rolls_no_save() {
    let monk = creature(
        "Monk",
        json!({ "hp_max": 20,
        "armor": { "name": "leather armor", "ac_bonus": 2 }, "ac": { "total": 12, "touch": 10, "flat_footed": 12 } }),
    );
    let prep = duel(rust_monster(), monk);
    let mut b = Bench::new(&[15]);
    let mut e = b.engine(&prep, &SimOptions::default());
    turn(&mut e, 0, vec![Action::at(ActionKind::Attack, 1)]);
    assert_eq!(e.st.fighters[1].monster.rusted, [0, 0]);
    assert_eq!(acs(&e, 0, 1).0, 12);
    drop(e);
    assert!(!b.lines().iter().any(|l| l.contains("rust on") || l.contains(" save ")), "{:#?}", b.lines());
}

#[test]
fn the_chance_rust_breaks_an_armor_is_the_chance_to_hit_times_the_chance_to_fail_the_save() {
    // Touch +0 against touch AC 10: hits on 10..20, 11/20. Reflex +3 against
    // DC 15 fails on 1..11, 11/20. P = 121/400 = 0.3025.
    let prep = duel(rust_monster(), knight(0, 3));
    let runs = 4000u64;
    let mut broken = 0u32;
    for seed in 0..runs {
        let mut rng = crate::rng::SeededRng::for_run(17, seed);
        let mut e = crate::combat::engine::Engine::new(&prep, &SimOptions::default(), &mut rng, None);
        e.start_round();
        e.take_turn(0, &mut script(vec![Action::at(ActionKind::Attack, 1)]));
        broken += u32::from(e.st.fighters[1].monster.rusted[0] == 1);
    }
    let p = 121.0 / 400.0;
    let sigma = (p * (1.0 - p) / runs as f64).sqrt();
    let seen = f64::from(broken) / runs as f64;
    assert!((seen - p).abs() <= 3.0 * sigma, "{seen} against {p} ± {}", 3.0 * sigma);
}

// ---- Spittle -------------------------------------------------------------

/// The shipped gibbering mouther at (1,1) and `foes` from (1,6) on.
fn mouther_field(foes: Vec<crate::model::Combatant>) -> PreparedEncounter {
    let mut placed = vec![("monsters", data_combatant("data/monsters/gibbering_mouther.json"), at(1, 1))];
    for (k, f) in (0..).zip(foes) {
        placed.push(("players", f, at(1, 6 + k)));
    }
    prepare(arena(4, 14), placed)
}

#[test]
fn spittle_is_a_ranged_touch_at_bab_plus_dex_that_blinds_for_1d4_rounds_on_a_failed_fortitude_save() {
    let prep = mouther_field(vec![creature("Hero", json!({ "hp_max": 30 }))]);
    // Ranged touch d20 4 + 6 = 10 against touch AC 10 (25 ft); Fort d20 17 + 0 < 18; 1d4 = 3.
    let mut b = Bench::new(&[4, 17, 3]);
    let mut e = b.engine(&prep, &SimOptions::default());
    e.monster_turn_start(0);
    assert!(e.st.has_condition(1, ConditionId::Blinded));
    assert_eq!(e.st.fighters[0].monster.spat_round, e.st.round);
    // Once a round: a second start of turn in the same round spits no more.
    e.monster_turn_start(0);
    drop(e);
    let lines = b.lines();
    for needle in [
        "uses spittle",
        "ranged touch vs hero d20=4+6=10 touch AC 10",
        "fort save d20=17+0=17 vs DC 18",
        "is affected by spittle for 3 rounds",
    ] {
        assert!(lines.iter().any(|l| l.contains(needle)), "{needle:?} in {lines:#?}");
    }
    assert_eq!(lines.iter().filter(|l| l.contains("uses spittle")).count(), 1, "{lines:#?}");
}

#[test]
fn a_saved_or_missed_spittle_does_nothing_and_a_threatened_mouther_does_not_spit() {
    let prep = mouther_field(vec![creature("Hero", json!({ "hp_max": 30 }))]);
    // Hit (10 + 6 = 16), Fort 18 saves.
    let mut b = Bench::new(&[10, 18]);
    let mut e = b.engine(&prep, &SimOptions::default());
    e.monster_turn_start(0);
    assert!(!e.st.has_condition(1, ConditionId::Blinded));
    // A natural 1 misses.
    let mut b = Bench::new(&[1]);
    let mut e = b.engine(&prep, &SimOptions::default());
    e.monster_turn_start(0);
    assert!(!e.st.has_condition(1, ConditionId::Blinded));
    // Beside the hero (who threatens it with a sword), it keeps its free action.
    let mut b = Bench::new(&[]);
    let mut e = b.engine(&prep, &SimOptions::default());
    e.st.relocate(1, at(1, 2));
    e.monster_turn_start(0);
    assert_eq!(e.st.fighters[0].monster.spat_round, 0);
    drop(e);
    assert!(!b.lines().iter().any(|l| l.contains("spittle")), "{:#?}", b.lines());
}

#[test]
fn spittle_picks_the_foe_whose_damage_times_chance_to_fail_is_largest_and_skips_the_blind_and_the_far() {
    let archer = |fort: i32| {
        creature(
            "Archer",
            json!({ "hp_max": 30, "saves": { "fort": fort, "ref": 0, "will": 0 },
            "attacks": [ranged("bow", 5, "2d8", 100)] }),
        )
    };
    let peasant = creature("Peasant", json!({ "hp_max": 30, "attacks": [melee("club", 0, "1d4")] }));
    // Archer (9 mean, Fort +0: fails 17/20) over the peasant (2.5, 17/20).
    let prep = mouther_field(vec![peasant.clone(), archer(0)]);
    let mut b = Bench::new(&[]);
    let e = b.engine(&prep, &SimOptions::default());
    assert_eq!(e.spittle_target(0), Some(2));
    drop(e);
    // An archer with Fort +16 fails only on a 1 (1/20): 9 × 0.05 < 2.5 × 0.85.
    let prep = mouther_field(vec![peasant.clone(), archer(16)]);
    let mut b = Bench::new(&[]);
    let mut e = b.engine(&prep, &SimOptions::default());
    assert_eq!(e.spittle_target(0), Some(1));
    // Blinded already: the other one.
    e.set_condition(1, ConditionId::Blinded);
    assert_eq!(e.spittle_target(0), Some(2));
    // Beyond 30 ft: nobody.
    e.st.relocate(2, at(1, 8));
    e.st.relocate(1, at(3, 13));
    e.st.relocate(2, at(2, 13));
    assert_eq!(e.spittle_target(0), None);
}

// ---- Data errors ----------------------------------------------------------

fn error_of(specials: Value, overrides: Value) -> String {
    let names: Vec<Value> = specials
        .as_array()
        .unwrap()
        .iter()
        .map(|s| json!({ "name": s["name"], "category": "special" }))
        .collect();
    let mut base = json!({
        "name": "X", "abilities": { "str_score": 10, "dex_score": 10, "con_score": 12,
                                    "int_score": 10, "wis_score": 10, "cha_score": 10 },
        "hp_max": 10, "ac": { "total": 10, "touch": 10, "flat_footed": 10 }, "bab": 1,
        "initiative_mod": 0, "speed_land_ft": 30, "saves": { "fort": 0, "ref": 0, "will": 0 },
        "attacks": [melee("sword", 0, "1d6")], "features": names, "special_abilities": specials
    });
    base.as_object_mut().unwrap().extend(overrides.as_object().unwrap().clone());
    crate::model::parse_combatant(&base.to_string(), "x.json").unwrap_err().to_string()
}

#[test]
fn a_bad_rust_or_spittle_is_one_error_naming_the_file_and_the_field() {
    let cases = [
        (
            json!([{ "kind": "on_hit", "name": "rust", "attacks": ["sword"], "effect": { "rust": {} } }]),
            "x.json: $.special_abilities[0].save: this effect needs a save",
        ),
        (
            json!([{ "kind": "spittle", "name": "spittle", "range_ft": 30, "save": "fort", "dc": 18,
                     "effect": { "condition": { "condition": "blind", "rounds": "1d4" } } }]),
            "x.json: $.special_abilities[0].effect.condition.condition: \"blind\" is not a condition name",
        ),
        (
            json!([{ "kind": "spittle", "name": "spittle", "range_ft": 30, "save": "fort", "dc": 18,
                     "effect": { "rust": {} } }]),
            "x.json: $.special_abilities[0].effect: a spittle cannot trip, grab, poison, burn or rust",
        ),
        (
            json!([{ "kind": "spittle", "name": "spittle", "range_ft": 0, "save": "fort", "dc": 18,
                     "effect": { "condition": { "condition": "blinded" } } }]),
            "x.json: $.special_abilities[0].range_ft: a spittle reaches at least 5 ft",
        ),
        (
            json!([{ "kind": "gaze", "name": "gaze", "range_ft": 30, "save": "fort", "dc": 18,
                     "effect": { "rust": {} } }]),
            "x.json: $.special_abilities[0].effect: a gaze cannot trip, grab, poison, burn, bleed or rust",
        ),
    ];
    for (specials, expected) in cases {
        let e = error_of(specials, json!({}));
        assert!(e.starts_with(expected), "{e}\nexpected: {expected}");
        assert!(!e.contains('\n'), "one line: {e}");
    }
}

/// The rust events of a record list: (who, item, ac_left, destroyed).
fn rusts(events: &[crate::combat::event::Record]) -> Vec<(usize, String, i32, bool)> {
    events
        .iter()
        .filter_map(|r| match &r.event {
            Event::Affliction { who, what: AfflictionEvent::Rusts { item, ac_left, destroyed, .. } } => {
                Some((*who, item.clone(), *ac_left, *destroyed))
            }
            _ => None,
        })
        .collect()
}
