//! Monster special abilities (`combat::monster`), nonlethal damage and the
//! rule corrections of `pf1e-rules-5`, each against its closed form or its
//! SRD text with scripted dice, and the policy choices over many seeds.

use serde_json::{Value, json};

use super::support::*;
use crate::combat::SimOptions;
use crate::combat::action::{Action, ActionKind};
use crate::combat::prepared::PreparedEncounter;
use crate::effects::ConditionId;

/// A creature with `special_abilities` and the `special` features they name.
pub(super) fn monster(name: &str, specials: Value, overrides: Value) -> crate::model::Combatant {
    let names: Vec<Value> = specials
        .as_array()
        .expect("an array")
        .iter()
        .map(|s| json!({ "name": s["name"], "category": "special", "notes": "what the test plays" }))
        .collect();
    let mut o = json!({ "features": names, "special_abilities": specials });
    o.as_object_mut().unwrap().extend(overrides.as_object().unwrap().clone());
    creature(name, o)
}

fn duel(a: crate::model::Combatant, b: crate::model::Combatant) -> PreparedEncounter {
    prepare(arena(3, 12), vec![("players", a, at(1, 1)), ("monsters", b, at(1, 2))])
}

// ---- Rule corrections ----------------------------------------------------

#[test]
fn undead_and_constructs_take_sneak_attack_but_oozes_elementals_and_incorporeal_creatures_do_not() {
    let rogue = || creature("Rogue", json!({ "features": ["Sneak Attack +2d6"] }));
    for (kind, features, immune) in [
        ("undead", json!([]), false),
        ("construct", json!([]), false),
        ("ooze", json!([]), true),
        ("outsider", json!([{ "name": "elemental traits", "category": "special", "notes": "traits" }]), true),
        ("undead", json!([{ "name": "incorporeal", "category": "special", "notes": "no body" }]), true),
    ] {
        let con = if matches!(kind, "undead" | "construct") { Value::Null } else { json!(10) };
        let target = creature(
            "Target",
            json!({ "creature_type": kind, "features": features, "hp_max": 50,
            "abilities": { "str_score": 10, "dex_score": 10, "con_score": con,
                           "int_score": null, "wis_score": 10, "cha_score": 10 } }),
        );
        let prep = duel(rogue(), target);
        assert_eq!(prep.fighters[1].defense.precision_immune, immune, "{kind} {features}");
    }
}

#[test]
fn a_standard_attack_with_a_count_two_entry_makes_one_attack() {
    let owl = creature(
        "Owl",
        json!({ "attacks": [{ "name": "claw", "kind": "melee", "attack_bonus": 0, "natural": true, "count": 2,
                              "damage": [{ "formula": "1d4", "types": ["slashing"] }] }] }),
    );
    let prep = duel(owl, creature("Foe", json!({ "hp_max": 50 })));
    // Standard attack: one roll (d20 15, 1d4 = 2).
    let mut b = Bench::new(&[15, 2, 15, 3, 15, 4]);
    let mut e = b.engine(&prep, &SimOptions::default());
    turn(&mut e, 0, vec![Action::at(ActionKind::Attack, 1)]);
    assert_eq!(e.st.hp(1), 48);
    // Full attack: both claws.
    e.start_round();
    turn(&mut e, 0, vec![Action::at(ActionKind::FullAttack, 1)]);
    assert_eq!(e.st.hp(1), 48 - 3 - 4);
}

#[test]
fn a_hit_whose_damage_falls_below_one_deals_one_nonlethal_and_undead_ignore_it() {
    let weak = creature("Weak", json!({ "attacks": [melee("fist", 0, "1d3-3")] }));
    let prep = duel(weak.clone(), creature("Foe", json!({})));
    let mut b = Bench::new(&[15, 2]);
    let mut e = b.engine(&prep, &SimOptions::default());
    turn(&mut e, 0, vec![Action::at(ActionKind::Attack, 1)]);
    assert_eq!((e.st.hp(1), e.st.nonlethal(1)), (10, 1));
    drop(e);
    let zombie = creature(
        "Zombie",
        json!({ "creature_type": "undead",
        "abilities": { "str_score": 10, "dex_score": 10, "con_score": null,
                       "int_score": null, "wis_score": 10, "cha_score": 10 } }),
    );
    let prep = duel(weak, zombie);
    let mut b = Bench::new(&[15, 2]);
    let mut e = b.engine(&prep, &SimOptions::default());
    turn(&mut e, 0, vec![Action::at(ActionKind::Attack, 1)]);
    assert_eq!((e.st.hp(1), e.st.nonlethal(1)), (10, 0));
}

#[test]
fn negative_energy_heals_an_undead_target() {
    let toucher = creature(
        "Toucher",
        json!({ "attacks": [{ "name": "touch", "kind": "touch", "attack_bonus": 0,
                              "damage": [{ "formula": "1d8+5", "types": ["negative"] }] }] }),
    );
    let undead = creature(
        "Ghoul",
        json!({ "creature_type": "undead", "hp_max": 30,
        "abilities": { "str_score": 10, "dex_score": 10, "con_score": null,
                       "int_score": 10, "wis_score": 10, "cha_score": 10 } }),
    );
    let prep = duel(toucher, undead);
    let mut b = Bench::new(&[15, 3]);
    let mut e = b.engine(&prep, &SimOptions::default());
    e.st.fighters[1].hp = 10;
    turn(&mut e, 0, vec![Action::at(ActionKind::Attack, 1)]);
    assert_eq!(e.st.hp(1), 18);
}

// ---- Nonlethal damage ----------------------------------------------------

#[test]
fn nonlethal_equal_to_hit_points_staggers_and_above_knocks_out_and_healing_removes_it() {
    let prep = duel(creature("A", json!({})), creature("B", json!({})));
    let mut b = Bench::new(&[]);
    let mut e = b.engine(&prep, &SimOptions::default());
    e.deal_nonlethal(1, 9);
    assert!(e.st.is_active(1) && !e.st.turn_limits(1).staggered);
    e.deal_nonlethal(1, 1);
    assert!(e.st.is_active(1) && e.st.turn_limits(1).staggered, "10 nonlethal = 10 hp");
    e.deal_nonlethal(1, 1);
    assert!(!e.st.is_active(1), "11 nonlethal > 10 hp: unconscious");
    e.wound(1, 2);
    e.heal(1, 2);
    assert_eq!((e.st.hp(1), e.st.nonlethal(1)), (10, 9));
    assert!(e.st.is_active(1));
}

// ---- Regeneration and fast healing ----------------------------------------

fn troll() -> crate::model::Combatant {
    monster(
        "Troll",
        json!([{ "kind": "regeneration", "name": "regeneration", "amount": 5, "stopped_by": ["acid", "fire"] },
               { "kind": "rend", "name": "rend", "attack": "claw", "damage": "1d6+7", "types": ["slashing"] }]),
        json!({ "hp_max": 63,
                "attacks": [{ "name": "claw", "kind": "melee", "attack_bonus": 0, "natural": true, "count": 2,
                              "damage": [{ "formula": "1d6", "types": ["slashing"] }] }] }),
    )
}

#[test]
fn regeneration_makes_damage_nonlethal_heals_five_and_fire_makes_it_lethal_through_the_next_round() {
    let torch = creature(
        "Torch",
        json!({ "attacks": [{ "name": "torch", "kind": "melee", "attack_bonus": 0,
        "damage": [{ "formula": "1d6", "types": ["fire"] }] }] }),
    );
    let prep = duel(torch, troll());
    let mut b = Bench::new(&[]);
    let mut e = b.engine(&prep, &SimOptions::default());
    e.wound(1, 40);
    assert_eq!((e.st.hp(1), e.st.nonlethal(1)), (63, 40));
    e.wound(1, 30);
    assert!(!e.st.is_active(1), "70 nonlethal > 63 hp: down");
    // Its turn: regeneration heals 5 nonlethal; 65 > 63 still down, and it does not act.
    e.start_round();
    turn(&mut e, 1, vec![]);
    assert_eq!(e.st.nonlethal(1), 65);
    e.start_round();
    turn(&mut e, 1, vec![]);
    assert_eq!(e.st.nonlethal(1), 60);
    assert!(e.st.is_active(1), "wakes at 60 nonlethal");
    drop(e);
    // Fire: lethal, and regeneration stops this round and the next.
    let mut b = Bench::new(&[15, 4]);
    let mut e = b.engine(&prep, &SimOptions::default());
    turn(&mut e, 0, vec![Action::at(ActionKind::Attack, 1)]);
    assert_eq!((e.st.hp(1), e.st.nonlethal(1)), (59, 0));
    e.wound(1, 10);
    assert_eq!(e.st.hp(1), 49, "stopped: every damage is lethal");
    e.start_round();
    turn(&mut e, 1, vec![]);
    assert_eq!(e.st.hp(1), 49, "no healing in the round after the fire");
    e.start_round();
    turn(&mut e, 1, vec![]);
    assert_eq!(e.st.hp(1), 54, "working again in round 3");
}

#[test]
fn rend_deals_its_damage_once_when_both_claws_hit() {
    let prep = duel(troll(), creature("Foe", json!({ "hp_max": 60 })));
    // Claws: d20 15, 1d6 = 2; d20 15, 1d6 = 3; rend 1d6+7 = 4+7.
    let mut b = Bench::new(&[15, 2, 15, 3, 4]);
    let mut e = b.engine(&prep, &SimOptions::default());
    turn(&mut e, 0, vec![Action::at(ActionKind::FullAttack, 1)]);
    assert_eq!(e.st.hp(1), 60 - 2 - 3 - 11);
}

// ---- Breath weapon ---------------------------------------------------------

fn dragon() -> crate::model::Combatant {
    monster(
        "Dragon",
        json!([{ "kind": "breath_weapon", "name": "breath weapon", "shape": "line", "range_ft": 60,
                 "damage": "6d6", "types": ["acid"], "dc": 17 }]),
        json!({ "hp_max": 80 }),
    )
}

#[test]
fn a_breath_weapon_halves_on_a_save_and_recharges_in_one_to_four_rounds() {
    let hero = |n| creature(n, json!({ "hp_max": 40, "saves": { "fort": 0, "ref": 5, "will": 0 } }));
    let prep = prepare(
        arena(3, 14),
        vec![
            ("monsters", dragon(), at(2, 1)),
            ("players", hero("A"), at(2, 4)),
            ("players", hero("B"), at(2, 8)),
        ],
    );
    // 6d6 = 21 (1,2,3,4,5,6), recharge 1d4 = 2; A saves (d20 12 + 5 = 17), B fails (d20 3).
    let mut b = Bench::new(&[1, 2, 3, 4, 5, 6, 2, 12, 3]);
    let mut e = b.engine(&prep, &SimOptions::default());
    turn(&mut e, 0, vec![Action::at(ActionKind::BreathWeapon, 2)]);
    assert_eq!(e.st.hp(1), 40 - 10);
    assert_eq!(e.st.hp(2), 40 - 21);
    // Breathed in round 1 with 2: unusable in rounds 2 and 3, usable in round 4.
    for (round, ready) in [(2, false), (3, false), (4, true)] {
        e.start_round();
        assert_eq!(e.st.round, round);
        assert_eq!(e.st.breath_ready(0).is_some(), ready, "round {round}");
    }
}

#[test]
fn the_expected_breath_damage_against_a_known_reflex_save_matches_its_closed_form() {
    // 6d6 (mean 21) vs Reflex +5 against DC 17: the save succeeds on 12+ (45 %).
    // Expected damage = 21 * (0.55 + 0.45 / 2) less the rounding of halves:
    // E[floor(X/2)] = (21 - P(X odd)/1) / 2 with P(X odd) = 1/2 for 6d6.
    let p_save = 9.0 / 20.0;
    let expected = (1.0 - p_save) * 21.0 + p_save * (21.0 - 0.5) / 2.0;
    let hero = creature("A", json!({ "hp_max": 200, "saves": { "fort": 0, "ref": 5, "will": 0 } }));
    let prep = prepare(arena(3, 14), vec![("monsters", dragon(), at(2, 1)), ("players", hero, at(2, 4))]);
    let runs = 20_000;
    let mut total = 0u64;
    for seed in 0..runs {
        let mut rng = crate::rng::SeededRng::for_run(7, seed);
        let mut e = crate::combat::engine::Engine::new(&prep, &SimOptions::default(), &mut rng, None);
        e.start_round();
        e.take_turn(0, &mut script(vec![Action::at(ActionKind::BreathWeapon, 1)]));
        total += (200 - e.st.hp(1)) as u64;
    }
    let mean = total as f64 / runs as f64;
    // Standard deviation of one breath is about 7: 3σ of the mean is 0.15.
    assert!((mean - expected).abs() < 0.2, "mean {mean} vs {expected}");
}

// ---- Riders ---------------------------------------------------------------

fn ghoul() -> crate::model::Combatant {
    monster(
        "Ghoul",
        json!([{ "kind": "on_hit", "name": "paralysis", "attacks": ["claw"], "save": "fort", "dc": 13,
                 "effect": { "paralysis": { "rounds": "1d4+1" } }, "immune_features": ["elven immunities"] }]),
        json!({ "attacks": [{ "name": "claw", "kind": "melee", "attack_bonus": 0, "natural": true,
                              "damage": [{ "formula": "1d6", "types": ["slashing"] }] }] }),
    )
}

#[test]
fn ghoul_paralysis_needs_a_failed_fortitude_save_and_spares_elves() {
    let prep = duel(ghoul(), creature("Human", json!({ "hp_max": 30 })));
    // Hit (15), 1d6 = 2, Fort d20 5 + 0 < 13: paralyzed for 1d4+1 = 3+1.
    let mut b = Bench::new(&[15, 2, 5, 3]);
    let mut e = b.engine(&prep, &SimOptions::default());
    turn(&mut e, 0, vec![Action::at(ActionKind::Attack, 1)]);
    assert!(e.st.has_condition(1, ConditionId::Paralyzed));
    drop(e);
    let elf = creature(
        "Elf",
        json!({ "hp_max": 30,
        "features": [{ "name": "elven immunities", "category": "racial", "notes": "immune to ghoul paralysis" }] }),
    );
    let prep = duel(ghoul(), elf);
    let mut b = Bench::new(&[15, 2]);
    let mut e = b.engine(&prep, &SimOptions::default());
    turn(&mut e, 0, vec![Action::at(ActionKind::Attack, 1)]);
    assert!(!e.st.has_condition(1, ConditionId::Paralyzed));
}

#[test]
fn energy_drain_gives_negative_levels_five_hit_points_each_and_kills_at_as_many_as_hit_dice() {
    let wight = monster(
        "Wight",
        json!([{ "kind": "on_hit", "name": "energy drain", "attacks": ["slam"],
                 "effect": { "energy_drain": { "levels": 1 } } }]),
        json!({ "attacks": [{ "name": "slam", "kind": "melee", "attack_bonus": 0, "natural": true,
                              "damage": [{ "formula": "1d4", "types": ["bludgeoning"] }] }] }),
    );
    let prep = duel(wight, creature("Squire", json!({ "level": 2, "hp_max": 40 })));
    let mut b = Bench::new(&[15, 1, 15, 1]);
    let mut e = b.engine(&prep, &SimOptions::default());
    turn(&mut e, 0, vec![Action::at(ActionKind::Attack, 1)]);
    assert_eq!(e.st.hp(1), 40 - 1 - 5);
    assert_eq!(e.st.temp_hp(0), 5);
    assert_eq!(e.st.save_bonus(1, crate::effects::SaveKind::Fort, &Default::default()), -1);
    e.start_round();
    turn(&mut e, 0, vec![Action::at(ActionKind::Attack, 1)]);
    assert!(e.st.fighters[1].dead, "2 negative levels on 2 Hit Dice");
}

#[test]
fn a_poison_still_running_as_a_day_s_battle_ends_runs_its_course_before_the_next() {
    let snake = monster(
        "Snake",
        json!([{ "kind": "on_hit", "name": "poison", "attacks": ["bite"], "save": "fort", "dc": 18,
                 "effect": { "poison": { "ability": "str", "amount": "1d3", "rounds": 6, "cure": 2 } } }]),
        json!({ "attacks": [{ "name": "bite", "kind": "melee", "attack_bonus": 0, "natural": true,
                              "damage": [{ "formula": "1d4", "types": ["piercing"] }] }] }),
    );
    let prep = duel(
        snake,
        creature(
            "Hero",
            json!({ "hp_max": 40,
        "abilities": { "str_score": 16, "dex_score": 10, "con_score": 12,
                       "int_score": 10, "wis_score": 10, "cha_score": 10 } }),
        ),
    );
    // Hit, 1d4 = 1, initial save fails (2): 1d3 = 2 Str. The battle ends
    // there; after it: a failed save (2) and 1d3 = 3, then two saves in a
    // row (20, 20) cure it — 5 of its 6 rounds.
    let mut b = Bench::new(&[15, 1, 2, 2, 2, 3, 20, 20]);
    let mut e = b.engine(&prep, &SimOptions::default());
    turn(&mut e, 0, vec![Action::at(ActionKind::Attack, 1)]);
    assert_eq!(e.st.fighters[1].monster.poisons.len(), 1);
    e.poisons_run_their_course();
    assert!(e.st.fighters[1].monster.poisons.is_empty());
    assert_eq!(e.st.carry_out(1).ability_damage[0], 5, "2 in the battle, 3 after");
    assert_eq!(e.rng.consumed(), 8);
}

#[test]
fn poison_deals_its_ability_damage_over_its_frequency_until_cured() {
    let snake = monster(
        "Snake",
        json!([{ "kind": "on_hit", "name": "poison", "attacks": ["bite"], "save": "fort", "dc": 18,
                 "effect": { "poison": { "ability": "str", "amount": "1d3", "rounds": 6, "cure": 2 } } }]),
        json!({ "attacks": [{ "name": "bite", "kind": "melee", "attack_bonus": 0, "natural": true,
                              "damage": [{ "formula": "1d4", "types": ["piercing"] }] }] }),
    );
    let prep = duel(
        snake,
        creature(
            "Hero",
            json!({ "hp_max": 40,
        "abilities": { "str_score": 16, "dex_score": 10, "con_score": 12,
                       "int_score": 10, "wis_score": 10, "cha_score": 10 } }),
        ),
    );
    // Hit, 1d4 = 1, initial save fails (2): 1d3 = 2 Str.
    let mut b = Bench::new(&[
        15, 1, 2, 2, /* round 2: fail, 3 */ 2, 3, /* round 3: save */ 20,
        /* round 4: save again: cured */ 20,
    ]);
    let mut e = b.engine(&prep, &SimOptions::default());
    turn(&mut e, 0, vec![Action::at(ActionKind::Attack, 1)]);
    assert_eq!(e.st.fighters[1].monster.ability_damage[0], 2);
    for _ in 0..3 {
        e.start_round();
        turn(&mut e, 1, vec![]);
    }
    assert_eq!(e.st.fighters[1].monster.ability_damage[0], 5);
    assert!(e.st.fighters[1].monster.poisons.is_empty(), "two saves in a row cure it");
    // Str 16 - 5 = 11: modifier +3 -> +0, so -3 on damage.
    assert_eq!(e.st.ability_deltas(1).0, -3);
}

#[test]
fn a_negative_level_count_of_constitution_damage_costs_hit_points_by_hit_dice() {
    let wraith = monster(
        "Wraith",
        json!([{ "kind": "on_hit", "name": "constitution drain", "attacks": ["touch"], "save": "fort", "dc": 17,
                 "effect": { "ability_drain": { "ability": "con", "amount": "1d6", "attacker_temp_hp": 5 } } }]),
        json!({ "attacks": [{ "name": "touch", "kind": "touch", "attack_bonus": 0, "natural": true,
                              "damage": [{ "formula": "1d6", "types": ["negative"] }] }] }),
    );
    let prep = duel(wraith, creature("Hero", json!({ "level": 4, "hp_max": 40 })));
    // Hit, 1d6 = 1, save fails (2), 1d6 = 4 Con: 12 -> 8, modifier +1 -> -1: 2 x 4 HD = 8 hp.
    let mut b = Bench::new(&[15, 1, 2, 4]);
    let mut e = b.engine(&prep, &SimOptions::default());
    turn(&mut e, 0, vec![Action::at(ActionKind::Attack, 1)]);
    assert_eq!(e.st.hp(1), 40 - 1 - 8);
    assert_eq!(e.st.temp_hp(0), 5);
}

// ---- Incorporeal and gaze --------------------------------------------------

#[test]
fn an_incorporeal_creature_takes_nothing_from_a_mundane_weapon_and_half_from_a_magic_one() {
    let ghost = || {
        monster("Ghost", json!([{ "kind": "incorporeal", "name": "incorporeal" }]), json!({ "hp_max": 40 }))
    };
    let mundane = creature("Mundane", json!({}));
    let magic = creature(
        "Magic",
        json!({ "attacks": [{ "name": "sword", "kind": "melee", "attack_bonus": 0,
        "qualities": ["magic"], "damage": [{ "formula": "1d6+4", "types": ["slashing"] }] }] }),
    );
    let prep = duel(mundane, ghost());
    let mut b = Bench::new(&[15, 6]);
    let mut e = b.engine(&prep, &SimOptions::default());
    turn(&mut e, 0, vec![Action::at(ActionKind::Attack, 1)]);
    assert_eq!(e.st.hp(1), 40);
    drop(e);
    let prep = duel(magic, ghost());
    let mut b = Bench::new(&[15, 5]);
    let mut e = b.engine(&prep, &SimOptions::default());
    turn(&mut e, 0, vec![Action::at(ActionKind::Attack, 1)]);
    assert_eq!(e.st.hp(1), 40 - 9 / 2);
}

#[test]
fn a_petrifying_gaze_is_met_at_the_start_of_a_turn_unless_the_eyes_are_averted() {
    let basilisk = monster(
        "Basilisk",
        json!([{ "kind": "gaze", "name": "gaze", "range_ft": 30, "save": "fort", "dc": 15,
                 "effect": { "petrification": {} } }]),
        json!({}),
    );
    let prep = duel(creature("Hero", json!({})), basilisk);
    // d100 60 > 50: meets the gaze; Fort d20 3 fails.
    let mut b = Bench::new(&[60, 3]);
    let mut e = b.engine(&prep, &SimOptions::default());
    turn(&mut e, 0, vec![]);
    assert!(e.st.fighters[0].dead, "turned to stone");
    drop(e);
    // d100 30: averted.
    let mut b = Bench::new(&[30]);
    let mut e = b.engine(&prep, &SimOptions::default());
    turn(&mut e, 0, vec![]);
    assert!(!e.st.fighters[0].dead);
}

#[test]
fn a_pouncing_creature_makes_a_full_attack_at_the_end_of_its_charge() {
    let cat = monster(
        "Cat",
        json!([{ "kind": "pounce", "name": "pounce" }]),
        json!({ "attacks": [{ "name": "claw", "kind": "melee", "attack_bonus": 0, "natural": true, "count": 2,
                              "damage": [{ "formula": "1d4", "types": ["slashing"] }] }] }),
    );
    let prep = prepare(
        arena(3, 12),
        vec![("monsters", cat, at(2, 1)), ("players", creature("Foe", json!({ "hp_max": 30 })), at(2, 6))],
    );
    let mut b = Bench::new(&[15, 2, 15, 3]);
    let mut e = b.engine(&prep, &SimOptions::default());
    turn(&mut e, 0, vec![Action::at(ActionKind::Charge, 1)]);
    assert_eq!(e.st.hp(1), 30 - 2 - 3);
}

// ---- Policy over many seeds -----------------------------------------------

/// Battles of the shipped files on an open arena with the default policy.
pub(super) fn battles(
    placed: impl Fn() -> Vec<(&'static str, crate::model::Combatant, crate::map::Pos)>,
    runs: u32,
) -> Vec<Vec<String>> {
    let prep = prepare_magic(arena(12, 16), placed());
    records(&prep, 11, u64::from(runs)).iter().map(|events| super::support::english(&prep, events)).collect()
}

/// The typed events of `runs` battles of `prep` (default policy), run `k`
/// on the dice of `(batch, k)`.
pub(super) fn records(
    prep: &PreparedEncounter,
    batch: u64,
    runs: u64,
) -> Vec<Vec<crate::combat::event::Record>> {
    (0..runs)
        .map(|seed| {
            let mut rng = crate::rng::SeededRng::for_run(batch, seed);
            let mut events = Vec::new();
            let mut e =
                crate::combat::engine::Engine::new(prep, &SimOptions::default(), &mut rng, Some(&mut events));
            e.run(&mut crate::combat::DefaultPolicy);
            drop(e);
            events
        })
        .collect()
}

#[test]
fn a_young_dragon_breathes_on_a_clustered_party_in_every_battle() {
    let logs = battles(
        || {
            vec![
                ("monsters", data_combatant("data/monsters/young_black_dragon.json"), at(2, 2)),
                ("players", data_combatant("data/pcs/esha.json"), at(2, 10)),
                ("players", data_combatant("data/pcs/harvie.json"), at(2, 12)),
                ("players", data_combatant("data/pcs/oni.json"), at(2, 14)),
            ]
        },
        100,
    );
    // Since pf1e-rules-9 Esha's challenge can drop the dragon in round 1
    // before its first turn (a charge and a critical attack of opportunity):
    // those battles give it no chance to breathe.
    let felled_first =
        |l: &&Vec<String>| l.iter().any(|x| x.starts_with("round 1 young_black_dragon: falls unconscious"));
    let fought = logs.iter().filter(|l| !felled_first(l)).count();
    let breathed = logs.iter().filter(|l| l.iter().any(|x| x.contains("breath weapon at"))).count();
    assert_eq!(breathed, fought);
    assert!(fought >= 95, "the dragon fell before its first turn in {} of 100 battles", 100 - fought);
    // Never while recharging: no two breaths in consecutive rounds.
    for l in &logs {
        let rounds: Vec<u32> = l
            .iter()
            .filter(|x| x.contains("young-black-dragon: breath weapon at"))
            .filter_map(|x| x.split_whitespace().nth(1)?.parse().ok())
            .collect();
        assert!(rounds.windows(2).all(|w| w[1] >= w[0] + 2), "{rounds:?}");
    }
}

#[test]
fn ghouls_attack_the_victim_they_paralyzed() {
    let logs = battles(
        || {
            vec![
                ("monsters", data_combatant("data/monsters/ghoul.json"), at(2, 2)),
                ("monsters", data_combatant("data/monsters/ghoul.json"), at(4, 2)),
                ("players", data_combatant("data/pcs/esha.json"), at(3, 6)),
                ("players", data_combatant("data/pcs/oni.json"), at(3, 9)),
            ]
        },
        200,
    );
    // After a victim is paralyzed, the next ghoul attack of that battle is on a paralyzed victim.
    let (mut cases, mut on_victim) = (0, 0);
    for l in &logs {
        let Some(k) = l.iter().position(|x| x.contains("is paralyzed for")) else { continue };
        let victim = l[k].split_whitespace().nth(2).unwrap_or("").trim_end_matches(':').to_string();
        // A coup de grâce on the helpless victim counts (`combat::coup_de_grace`).
        let next = l[k + 1..].iter().find(|x| {
            x.contains(": claw vs") || x.contains(": bite vs") || x.contains(": coup de grace with")
        });
        if let Some(x) = next {
            cases += 1;
            on_victim +=
                usize::from(x.contains(&format!("vs {victim} ")) || x.contains(&format!(" on {victim}:")));
        }
    }
    assert!(cases >= 20, "{cases} paralyses followed by an attack");
    assert!(on_victim * 10 >= cases * 9, "{on_victim} of {cases} next attacks on the paralyzed victim");
}

// ---- Full attacks of natural routines (issue 19, pf1e-rules-8) -----------

/// A creature with a claw (reach 5 ft) and a bite (reach 10 ft).
fn clawed_biter() -> crate::model::Combatant {
    creature(
        "Biter",
        json!({ "attacks": [
            { "name": "claw", "kind": "melee", "attack_bonus": 0, "natural": true, "reach_ft": 5,
              "damage": [{ "formula": "1d4", "types": ["slashing"] }] },
            { "name": "bite", "kind": "melee", "attack_bonus": 0, "natural": true, "reach_ft": 10,
              "damage": [{ "formula": "1d6", "types": ["piercing"] }] }
        ] }),
    )
}

#[test]
fn a_full_attack_goes_on_against_another_foe_in_reach_when_its_target_falls() {
    // Two foes of 1 hit point side by side: the claw drops the first, the
    // bite goes to the second (CRB "Full Attack": attacks may be split).
    let prep = prepare(
        arena(3, 6),
        vec![
            ("monsters", clawed_biter(), at(1, 1)),
            ("players", creature("A", json!({ "hp_max": 1 })), at(1, 2)),
            ("players", creature("B", json!({ "hp_max": 1 })), at(0, 2)),
        ],
    );
    // Claw: d20 15, 1d4 = 3; bite: d20 15, 1d6 = 4.
    let mut b = Bench::new(&[15, 3, 15, 4]);
    let mut e = b.engine(&prep, &SimOptions::default());
    turn(&mut e, 0, vec![Action::at(ActionKind::FullAttack, 1)]);
    assert!(e.st.hp(1) < 0 && e.st.hp(2) < 0, "hp {} and {}", e.st.hp(1), e.st.hp(2));
}

#[test]
fn a_biter_whose_claws_do_not_reach_steps_in_before_its_full_attack() {
    // The foe 10 ft away: only the bite reaches; a 5-foot step brings the
    // claw within reach, so the default policy steps first.
    let prep = prepare(
        arena(3, 8),
        vec![
            ("monsters", clawed_biter(), at(1, 1)),
            ("players", creature("Foe", json!({ "hp_max": 500 })), at(1, 3)),
        ],
    );
    let st = crate::combat::BattleState::new(&prep, &SimOptions::default());
    let mut out = Vec::new();
    crate::combat::decide::Policy::plan(&mut crate::combat::policy::DefaultPolicy, &st, 0, &mut out);
    let kinds: Vec<_> = out.iter().map(|a| a.kind).collect();
    assert_eq!(kinds, [ActionKind::FiveFootStep, ActionKind::FullAttack]);
    let q = out[0].destination.expect("a square");
    assert_eq!(crate::grid::distance_ft(q, at(1, 3)), 5);
    // Adjacent already: no step.
    let prep = prepare(
        arena(3, 8),
        vec![
            ("monsters", clawed_biter(), at(1, 1)),
            ("players", creature("Foe", json!({ "hp_max": 500 })), at(1, 2)),
        ],
    );
    let st = crate::combat::BattleState::new(&prep, &SimOptions::default());
    let mut out = Vec::new();
    crate::combat::decide::Policy::plan(&mut crate::combat::policy::DefaultPolicy, &st, 0, &mut out);
    assert_eq!(out.iter().map(|a| a.kind).collect::<Vec<_>>(), [ActionKind::FullAttack]);
}

// ---- Auras and staggered (issue 19, pf1e-rules-8) -------------------------

/// A creature with the mummy's despair: 30 ft, Will DC 16 or paralyzed 1d4 rounds.
fn despairing() -> crate::model::Combatant {
    monster(
        "Mummy",
        json!([{ "kind": "aura", "name": "despair", "range_ft": 30, "save": "will", "dc": 16,
                 "condition": "paralyzed", "rounds": "1d4", "descriptors": ["fear", "mind_affecting"] }]),
        json!({}),
    )
}

#[test]
fn an_aura_is_saved_against_once_per_battle_at_the_start_of_a_turn_within_its_range() {
    // Will +3 against DC 16: a d20 of 12 fails (15), then 1d4 = 3 rounds.
    let victim = || creature("Victim", json!({ "saves": { "fort": 0, "ref": 0, "will": 3 } }));
    let prep =
        prepare(arena(3, 12), vec![("monsters", despairing(), at(1, 1)), ("players", victim(), at(1, 5))]);
    let mut b = Bench::new(&[12, 3]);
    let mut e = b.engine(&prep, &SimOptions::default());
    e.monster_turn_start(1);
    assert!(e.st.fighters[1].conds.has(ConditionId::Paralyzed));
    // Met once: no second save (no die left to roll).
    e.monster_turn_start(1);
    drop(e);
    assert!(
        b.lines().iter().any(|l| l.contains("meets mummy's despair: paralyzed for 3 rounds")),
        "{:?}",
        b.lines()
    );
    // A d20 of 13 saves (16): no condition.
    let mut b = Bench::new(&[13]);
    let mut e = b.engine(&prep, &SimOptions::default());
    e.monster_turn_start(1);
    assert!(!e.st.fighters[1].conds.has(ConditionId::Paralyzed));
    drop(e);
    assert!(b.lines().iter().any(|l| l.contains("despair: saves")), "{:?}", b.lines());
    // Beyond 30 ft: nothing (no die rolled).
    let far =
        prepare(arena(3, 12), vec![("monsters", despairing(), at(1, 1)), ("players", victim(), at(1, 9))]);
    let mut b = Bench::new(&[]);
    let mut e = b.engine(&far, &SimOptions::default());
    e.monster_turn_start(1);
    assert!(e.st.fighters[1].monster.auras_met.is_empty());
}

#[test]
fn a_creature_immune_to_one_of_the_auras_descriptors_is_unaffected_without_a_save() {
    // Undead are immune to mind-affecting effects.
    let zombie = creature(
        "Zombie",
        json!({ "creature_type": "undead", "abilities": { "str_score": 10, "dex_score": 10, "con_score": null,
                "int_score": null, "wis_score": 10, "cha_score": 10 } }),
    );
    let prep =
        prepare(arena(3, 12), vec![("monsters", despairing(), at(1, 1)), ("players", zombie, at(1, 3))]);
    let mut b = Bench::new(&[]);
    let mut e = b.engine(&prep, &SimOptions::default());
    e.monster_turn_start(1);
    assert!(!e.st.fighters[1].conds.has(ConditionId::Paralyzed));
    drop(e);
    assert!(b.lines().iter().any(|l| l.contains("despair: immune")), "{:?}", b.lines());
}

#[test]
fn the_chance_an_aura_takes_hold_is_the_chance_to_fail_its_save() {
    // Fort +2 against the troglodyte's stench (DC 13): fails on 1-10, 50 %.
    let prep = prepare(
        arena(3, 12),
        vec![
            ("monsters", data_combatant("data/monsters/troglodyte.json"), at(1, 1)),
            ("players", creature("Victim", json!({ "saves": { "fort": 2, "ref": 0, "will": 0 } })), at(1, 4)),
        ],
    );
    let runs = 4000u64;
    let mut sick = 0;
    for seed in 0..runs {
        let mut rng = crate::rng::SeededRng::for_run(19, seed);
        let mut e = crate::combat::engine::Engine::new(&prep, &SimOptions::default(), &mut rng, None);
        e.start_round();
        e.monster_turn_start(1);
        sick += u64::from(e.st.fighters[1].conds.has(ConditionId::Sickened));
    }
    let p = sick as f64 / runs as f64;
    // 5 standard deviations of a proportion of 0.5 over 4,000 trials: 0.04.
    assert!((p - 0.5).abs() < 0.04, "sickened in {p}");
}

#[test]
fn a_zombie_is_staggered_from_its_first_turn_for_the_battle() {
    let prep = prepare(
        arena(3, 12),
        vec![
            ("monsters", data_combatant("data/monsters/human_zombie.json"), at(1, 1)),
            ("players", creature("Foe", json!({ "hp_max": 500 })), at(1, 2)),
        ],
    );
    let mut b = Bench::new(&[15; 8]);
    let mut e = b.engine(&prep, &SimOptions::default());
    e.monster_turn_start(0);
    assert!(e.st.fighters[0].conds.has(ConditionId::Staggered));
    // Still staggered later (for the battle).
    e.start_round();
    e.monster_turn_start(0);
    assert!(e.st.fighters[0].conds.has(ConditionId::Staggered));
}

#[test]
fn a_mummy_battle_shows_its_despair_on_the_event_stream() {
    let logs = battles(
        || {
            vec![
                ("monsters", data_combatant("data/monsters/mummy.json"), at(2, 2)),
                ("players", data_combatant("data/pcs/esha.json"), at(3, 6)),
                ("players", data_combatant("data/pcs/oni.json"), at(3, 9)),
            ]
        },
        30,
    );
    let met = logs.iter().filter(|l| l.iter().any(|x| x.contains("meets mummy's despair"))).count();
    assert_eq!(met, logs.len(), "despair met in {met} of {} battles", logs.len());
    assert!(logs.iter().flatten().any(|x| x.contains("despair: paralyzed for")));
}

#[test]
fn a_bad_aura_or_channel_resistance_is_one_error_naming_the_file_and_the_field() {
    let with = |entry: Value| {
        let c = json!({
            "name": "Bad", "hp_max": 10, "bab": 0, "initiative_mod": 0, "speed_land_ft": 30,
            "abilities": { "str_score": 10, "dex_score": 10, "con_score": 10, "int_score": 10,
                           "wis_score": 10, "cha_score": 10 },
            "ac": { "total": 10, "touch": 10, "flat_footed": 10 },
            "saves": { "fort": 0, "ref": 0, "will": 0 },
            "attacks": [melee("slam", 0, "1d4")],
            "features": [{ "name": "x", "category": "special", "notes": "n" }],
            "special_abilities": [entry]
        });
        crate::model::parse_combatant(&c.to_string(), "bad.json").map(|_| ()).unwrap_err().to_string()
    };
    let e = with(json!({ "kind": "aura", "name": "x", "range_ft": 30, "save": "will", "dc": 16,
                         "condition": "gloomy" }));
    assert!(
        e.contains("bad.json") && e.contains("$.special_abilities[0].condition") && e.contains("gloomy"),
        "{e}"
    );
    let e = with(json!({ "kind": "aura", "name": "x", "range_ft": 30, "save": "will", "dc": 16,
                         "condition": "shaken", "descriptors": ["scary"] }));
    assert!(e.contains("$.special_abilities[0].descriptors") && e.contains("scary"), "{e}");
    let e = with(json!({ "kind": "channel_resistance", "name": "x", "bonus": 0 }));
    assert!(e.contains("$.special_abilities[0].bonus") && e.contains("positive"), "{e}");
}

// ---- Smite (celestial and fiendish templates, pf1e-rules-10) --------------

/// A celestial creature of 4 HD, Cha 14 (+2), with one smite evil.
fn smiter() -> crate::model::Combatant {
    monster(
        "Smiter",
        json!([{ "kind": "smite", "name": "smite evil", "against": "evil" }]),
        json!({ "level": 4, "alignment": "NG", "hp_max": 30,
                "abilities": { "str_score": 10, "dex_score": 10, "con_score": 12, "int_score": 2,
                               "wis_score": 10, "cha_score": 14 },
                "resources": { "smite_evil": 1 },
                "attacks": [{ "name": "bite", "kind": "melee", "attack_bonus": 3, "natural": true,
                              "damage": [{ "formula": "1d6", "types": ["piercing"] }] }] }),
    )
}

#[test]
fn smite_evil_adds_cha_to_attack_hd_to_damage_deflection_ac_and_bypasses_dr_until_the_foe_dies() {
    use crate::combat::odds::Swing;
    let evil = |name: &str| {
        creature(
            name,
            json!({ "alignment": "CE", "hp_max": 40, "dr": { "amount": 5, "bypass": ["good"] },
                    "attacks": [melee("claw", 0, "1d4")] }),
        )
    };
    let prep = prepare(
        arena(4, 8),
        vec![
            ("a", smiter(), at(1, 1)),
            ("b", evil("Fiend"), at(1, 2)),
            ("b", evil("Other"), at(2, 1)),
            ("b", creature("Neutral", json!({ "alignment": "N", "hp_max": 40 })), at(2, 2)),
        ],
    );
    let mut b = Bench::new(&[15, 4, 15, 4]);
    let mut e = b.engine(&prep, &SimOptions::default());
    let attack = |e: &crate::combat::engine::Engine<'_, '_, _>, t: usize| {
        e.st.situation(0, 0, t, Swing::default()).attack
    };
    let ac =
        |e: &crate::combat::engine::Engine<'_, '_, _>, a: usize| e.st.situation(a, 0, 0, Swing::default()).ac;
    let damage = |e: &crate::combat::engine::Engine<'_, '_, _>, t: usize| {
        let s = e.st.situation(0, 0, t, Swing::default());
        e.st.damage_bonus(0, 0, t, &s, Swing::default())
    };
    assert_eq!((attack(&e, 1), damage(&e, 1), ac(&e, 1), ac(&e, 2)), (3, 0, 10, 10));
    // Before the smite the bite (1d6 = 4) meets DR 5: nothing.
    turn(&mut e, 0, vec![Action::at(ActionKind::Attack, 1)]);
    assert_eq!(e.st.hp(1), 40);
    turn(&mut e, 0, vec![Action::at(ActionKind::Smite, 1), Action::at(ActionKind::Attack, 1)]);
    // +2 attack (Cha), +4 damage (HD), +2 deflection AC against the fiend only; DR bypassed: 4 + 4.
    assert_eq!((attack(&e, 1), damage(&e, 1), ac(&e, 1), ac(&e, 2)), (5, 4, 12, 10));
    assert_eq!((attack(&e, 2), damage(&e, 2)), (3, 0));
    assert_eq!(e.st.hp(1), 40 - 8);
    assert_eq!(e.st.fighters[0].class.pools.smite_evil, 0);
    assert!(b.events.iter().any(|r| matches!(
        r.event,
        crate::combat::event::Event::Smites {
            who: 0,
            target: 1,
            evil: true,
            attack: 2,
            damage: 4,
            ac: 2,
            left: 0
        }
    )));
}

#[test]
fn a_smite_on_a_foe_of_another_alignment_is_wasted_and_the_policy_never_tries_it() {
    let neutral = creature("Neutral", json!({ "alignment": "N", "hp_max": 40 }));
    let prep = duel(smiter(), neutral);
    let mut b = Bench::new(&[]);
    let mut e = b.engine(&prep, &SimOptions::default());
    turn(&mut e, 0, vec![Action::at(ActionKind::Smite, 1)]);
    assert_eq!((e.st.fighters[0].class.pools.smite_evil, e.st.smiting(0)), (0, None));
    // The default policy smites an evil foe it fights, never a neutral one.
    let evil = creature("Fiend", json!({ "alignment": "NE", "hp_max": 40 }));
    let logs = battles(|| vec![("players", smiter(), at(2, 2)), ("monsters", evil.clone(), at(2, 6))], 5);
    assert!(
        logs.iter().all(|l| l.iter().filter(|x| x.contains("smites evil")).count() == 1),
        "{:?}",
        logs[0]
    );
    let logs = battles(
        || {
            vec![
                ("players", smiter(), at(2, 2)),
                ("monsters", creature("N", json!({ "alignment": "N", "hp_max": 40 })), at(2, 6)),
            ]
        },
        5,
    );
    assert!(logs.iter().flatten().all(|x| !x.contains("smites")));
}

#[test]
fn a_bad_smite_is_one_error_naming_the_field() {
    let text = json!({
        "name": "S", "abilities": { "str_score": 10, "dex_score": 10, "con_score": 10, "int_score": 10,
                                    "wis_score": 10, "cha_score": 10 },
        "hp_max": 5, "ac": { "total": 10, "touch": 10, "flat_footed": 10 }, "bab": 0, "initiative_mod": 0,
        "speed_land_ft": 30, "saves": { "fort": 0, "ref": 0, "will": 0 }, "attacks": [melee("bite", 0, "1d4")],
        "features": [{ "name": "smite evil", "category": "special", "notes": "n" }],
        "special_abilities": [{ "kind": "smite", "name": "smite evil", "against": "evil" }]
    });
    let err = crate::model::parse_combatant(&text.to_string(), "s.json").unwrap_err().to_string();
    assert!(err.contains("special_abilities[0].against") && err.contains("resources.smite_evil"), "{err}");
}

// ---- Rage (the wolverine's, pf1e-rules-10) ---------------------------------

#[test]
fn a_wounded_wolverine_rages_from_its_next_turn_with_four_str_and_con_and_two_less_ac() {
    use crate::combat::odds::Swing;
    let wolverine = monster(
        "Wolverine",
        json!([{ "kind": "rage", "name": "rage" }]),
        json!({ "level": 3, "hp_max": 20, "ac": { "total": 14, "touch": 12, "flat_footed": 12 },
                "abilities": { "str_score": 15, "dex_score": 10, "con_score": 15, "int_score": 2,
                               "wis_score": 10, "cha_score": 10 },
                "saves": { "fort": 5, "ref": 0, "will": 0 },
                "attacks": [{ "name": "claw", "kind": "melee", "attack_bonus": 4, "natural": true,
                              "damage": [{ "formula": "1d6+2", "types": ["slashing"] }] }] }),
    );
    let prep = duel(wolverine, creature("Foe", json!({ "hp_max": 40 })));
    let mut b = Bench::new(&[]);
    let mut e = b.engine(&prep, &SimOptions::default());
    let numbers = |e: &crate::combat::engine::Engine<'_, '_, _>| {
        let s = e.st.situation(0, 0, 1, Swing::default());
        (
            s.attack,
            e.st.damage_bonus(0, 0, 1, &s, Swing::default()),
            e.st.situation(1, 0, 0, Swing::default()).ac,
        )
    };
    // Unhurt: no rage.
    e.monster_turn_start(0);
    assert_eq!((numbers(&e), e.st.hp(0)), ((4, 0, 14), 20));
    e.wound(0, 5);
    assert_eq!(e.st.hp(0), 15);
    e.monster_turn_start(0);
    // Str 15 -> 19: +2 attack and damage; Con 15 -> 19: +2 hp per HD (3 HD); AC 14 - 2.
    assert_eq!((numbers(&e), e.st.hp(0)), ((6, 2, 12), 21));
    // Once: the next turn adds nothing.
    e.monster_turn_start(0);
    assert_eq!(e.st.hp(0), 21);
    assert!(b.events.iter().any(|r| matches!(&r.event,
        crate::combat::event::Event::EffectGained { who: 0, effect, .. } if effect == "rage")));
}

// ---- Sleep poison (the dark naga's, pf1e-rules-11) ------------------------

fn sleeper() -> crate::model::Combatant {
    monster(
        "Naga",
        json!([{ "kind": "on_hit", "name": "poison", "attacks": ["sting"], "save": "fort", "dc": 19,
                 "effect": { "sleep": {} } }]),
        json!({ "attacks": [{ "name": "sting", "kind": "melee", "attack_bonus": 0, "natural": true,
                              "damage": [{ "formula": "1d4", "types": ["piercing"] }] }] }),
    )
}

#[test]
fn a_sleep_poison_puts_a_failed_fortitude_save_to_sleep_until_a_wound_wakes_it() {
    let prep = duel(creature("Foe", json!({ "hp_max": 30 })), sleeper());
    // Sting: d20 15 hits, 1d4 = 2; Fort d20 18 + 0 < 19: asleep (helpless).
    // Second sting: d20 15 hits, 1d4 = 3 wakes it; Fort d20 19 saves.
    let mut b = Bench::new(&[15, 2, 18, 15, 3, 19]);
    let mut e = b.engine(&prep, &SimOptions::default());
    turn(&mut e, 1, vec![Action::at(ActionKind::Attack, 0)]);
    assert!(e.st.has_condition(0, ConditionId::Asleep) && e.st.is_helpless(0));
    e.start_round();
    turn(&mut e, 1, vec![Action::at(ActionKind::Attack, 0)]);
    assert_eq!(e.st.hp(0), 30 - 2 - 3);
    assert!(!e.st.has_condition(0, ConditionId::Asleep), "the wound woke it and the save held");
}

#[test]
fn a_creature_immune_to_poison_does_not_fall_asleep_and_rolls_no_save() {
    let prep = duel(creature("Dwarf", json!({ "hp_max": 30, "immunities": ["poison"] })), sleeper());
    let mut b = Bench::new(&[15, 2]);
    let mut e = b.engine(&prep, &SimOptions::default());
    turn(&mut e, 1, vec![Action::at(ActionKind::Attack, 0)]);
    assert!(!e.st.has_condition(0, ConditionId::Asleep));
}

// ---- Ability damage and drain to any score ------------------------------

/// A drainer whose touch (+0, no damage of its own) drains `amount` of
/// `ability` without a save (a lamia's Wisdom drain), or damages it.
fn mind_drainer(ability: &str, amount: &str, drain: bool) -> crate::model::Combatant {
    let effect = if drain { "ability_drain" } else { "ability_damage" };
    monster(
        "Drainer",
        json!([{ "kind": "on_hit", "name": "wisdom drain", "attacks": ["touch"],
                 "effect": { effect: { "ability": ability, "amount": amount } } }]),
        json!({ "attacks": [{ "name": "touch", "kind": "touch", "attack_bonus": 0, "natural": true,
                              "damage": [] }] }),
    )
}

#[test]
fn a_wisdom_drain_touch_lowers_will_saves_and_deals_no_hit_point_damage() {
    let prep = duel(mind_drainer("wis", "1d4", true), creature("Hero", json!({ "hp_max": 40 })));
    // Hit (15), no damage dice, no save: 1d4 = 3 Wis, 10 -> 7: modifier 0 -> -2.
    let mut b = Bench::new(&[15, 3]);
    let mut e = b.engine(&prep, &SimOptions::default());
    let will = |e: &crate::combat::engine::Engine<'_, '_, _>| {
        e.st.save_bonus(1, crate::effects::SaveKind::Will, &Default::default())
    };
    assert_eq!(will(&e), 0);
    turn(&mut e, 0, vec![Action::at(ActionKind::Attack, 1)]);
    assert_eq!(e.st.fighters[1].monster.ability_damage[4], 3);
    assert_eq!(will(&e), -2);
    assert_eq!(e.st.hp(1), 40, "the touch deals no damage");
    assert_eq!(e.st.fighters[1].nonlethal, 0, "not even the 1 nonlethal of a damage roll below 1");
    drop(e);
    assert!(b.lines().iter().any(|l| l.contains("takes 3 wis damage (7 left)")), "{:?}", b.lines());
}

#[test]
fn a_mental_score_damaged_to_zero_knocks_the_creature_unconscious() {
    for ability in ["int", "wis", "cha"] {
        let prep = duel(mind_drainer(ability, "10", false), creature("Hero", json!({ "hp_max": 40 })));
        let mut b = Bench::new(&[15]);
        let mut e = b.engine(&prep, &SimOptions::default());
        turn(&mut e, 0, vec![Action::at(ActionKind::Attack, 1)]);
        assert!(e.st.has_condition(1, ConditionId::Unconscious), "{ability} 0");
        assert!(!e.st.fighters[1].dead, "{ability} 0 is not death");
        assert!(!e.st.can_act(1));
    }
}

#[test]
fn undead_take_mental_damage_but_not_drain_constructs_neither_and_the_mindless_no_int_damage() {
    let undead = || {
        creature(
            "Ghost",
            json!({ "hp_max": 40, "creature_type": "undead",
        "abilities": { "str_score": 10, "dex_score": 10, "int_score": 10, "wis_score": 10, "cha_score": 10 } }),
        )
    };
    let construct = || {
        creature(
            "Golem",
            json!({ "hp_max": 40, "creature_type": "construct",
        "abilities": { "str_score": 10, "dex_score": 10, "wis_score": 10, "cha_score": 10 } }),
        )
    };
    for (target, ability, drain, taken) in [
        (undead(), "wis", false, 3),
        (undead(), "wis", true, 0),
        (undead(), "str", false, 0),
        (construct(), "cha", false, 0),
        (construct(), "int", false, 0),
    ] {
        let prep = duel(mind_drainer(ability, "3", drain), target);
        let mut b = Bench::new(&[15]);
        let mut e = b.engine(&prep, &SimOptions::default());
        turn(&mut e, 0, vec![Action::at(ActionKind::Attack, 1)]);
        let k = ["str", "dex", "con", "int", "wis", "cha"].iter().position(|a| *a == ability).unwrap();
        let name = &prep.fighters[1].id;
        assert_eq!(e.st.fighters[1].monster.ability_damage[k], taken, "{name} {ability} drain {drain}");
    }
}
