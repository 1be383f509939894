//! The attack riders and auras of `pf1e-rules-12` (issue 19): burn, bleed
//! (a bearded devil's infernal wound), a green hag's weakness and a
//! repeating aura (a gibbering mouther's gibbering), each against its SRD
//! text with scripted dice.

use serde_json::json;

use super::monsters::monster;
use super::support::*;
use crate::combat::SimOptions;
use crate::combat::action::{Action, ActionKind};
use crate::combat::event::{AfflictionEvent, AuraOutcome, Event};
use crate::effects::ConditionId;

fn slam(name: &str) -> serde_json::Value {
    json!({ "name": name, "kind": "melee", "attack_bonus": 0, "natural": true,
            "damage": [{ "formula": "1d4", "types": ["bludgeoning"] }] })
}

/// A small fire elemental's slam: 1d4 plus burn (1d4, Reflex DC 11).
fn burner() -> crate::model::Combatant {
    monster(
        "Burner",
        json!([{ "kind": "on_hit", "name": "burn", "attacks": ["slam"], "save": "ref", "dc": 11,
                 "effect": { "burn": { "damage": "1d4", "rounds": "1d4" } } }]),
        json!({ "attacks": [slam("slam")] }),
    )
}

fn duel(
    a: crate::model::Combatant,
    b: crate::model::Combatant,
) -> crate::combat::prepared::PreparedEncounter {
    prepare(arena(3, 12), vec![("monsters", a, at(1, 1)), ("players", b, at(1, 2))])
}

#[test]
fn burn_deals_its_fire_on_the_hit_and_a_failed_reflex_save_burns_at_the_start_of_each_turn() {
    let prep = duel(burner(), creature("Foe", json!({ "hp_max": 40 })));
    // Slam: d20 15 hits, 1d4 = 2; burn 1d4 = 3 fire; Reflex d20 10 + 0 < 11:
    // catches fire for 1d4 = 2 rounds. Its turn: 1d4 = 4 fire.
    let mut b = Bench::new(&[15, 2, 3, 10, 2, 4]);
    let mut e = b.engine(&prep, &SimOptions::default());
    turn(&mut e, 0, vec![Action::at(ActionKind::Attack, 1)]);
    assert_eq!(e.st.hp(1), 40 - 2 - 3);
    e.start_of_turn_effects(1);
    assert_eq!(e.st.hp(1), 40 - 2 - 3 - 4);
    drop(e);
    assert!(b.events.iter().any(|r| matches!(
        r.event,
        Event::Affliction { who: 1, what: AfflictionEvent::CatchesFire { rounds: 2 } }
    )));
    assert!(b.lines().iter().any(|l| l.contains("catches fire (2 rounds)")), "{:?}", b.lines());
    // Reflex d20 11 saves: the hit's fire only, no fire at its turn (no die left).
    let mut b = Bench::new(&[15, 2, 3, 11]);
    let mut e = b.engine(&prep, &SimOptions::default());
    turn(&mut e, 0, vec![Action::at(ActionKind::Attack, 1)]);
    e.start_of_turn_effects(1);
    assert_eq!(e.st.hp(1), 40 - 2 - 3);
}

#[test]
fn a_creature_immune_to_fire_neither_burns_nor_saves() {
    let prep = duel(burner(), creature("Salamander", json!({ "hp_max": 40, "immunities": ["fire"] })));
    let mut b = Bench::new(&[15, 2]);
    let mut e = b.engine(&prep, &SimOptions::default());
    turn(&mut e, 0, vec![Action::at(ActionKind::Attack, 1)]);
    e.start_of_turn_effects(1);
    assert_eq!(e.st.hp(1), 40 - 2);
}

#[test]
fn an_infernal_wound_bleeds_two_a_turn_without_stacking_until_healed() {
    let devil = monster(
        "Devil",
        json!([{ "kind": "on_hit", "name": "infernal wound", "attacks": ["glaive"],
                 "effect": { "bleed": { "amount": "2" } } }]),
        json!({ "attacks": [slam("glaive")] }),
    );
    let prep = duel(devil, creature("Foe", json!({ "hp_max": 40 })));
    // Two hits (d20 15, 1d4 = 3 and 1), each setting a bleed of 2: 2 a turn, not 4.
    let mut b = Bench::new(&[15, 3, 15, 1]);
    let mut e = b.engine(&prep, &SimOptions::default());
    turn(&mut e, 0, vec![Action::at(ActionKind::Attack, 1)]);
    e.start_round();
    turn(&mut e, 0, vec![Action::at(ActionKind::Attack, 1)]);
    assert_eq!(e.st.fighters[1].bleed, 2);
    e.start_of_turn_effects(1);
    assert_eq!(e.st.hp(1), 40 - 3 - 1 - 2);
    assert!(e.st.has_condition(1, ConditionId::Bleeding));
    e.heal(1, 1);
    assert_eq!(e.st.fighters[1].bleed, 0, "any healing stops it");
}

#[test]
fn the_green_hags_claw_saps_two_strength_on_a_failed_fortitude_save_against_dc_16() {
    let hag = data_combatant("data/monsters/green_hag.json");
    let hero = creature(
        "Hero",
        json!({ "hp_max": 40, "saves": { "fort": 5, "ref": 0, "will": 0 },
                "abilities": { "str_score": 16, "dex_score": 10, "con_score": 12,
                               "int_score": 10, "wis_score": 10, "cha_score": 10 } }),
    );
    let prep = prepare_magic(arena(3, 12), vec![("monsters", hag, at(1, 1)), ("players", hero, at(1, 2))]);
    // Claw +13: d20 10 hits AC 10, 1d4+4 = 1+4; Fort d20 10 + 5 = 15 < 16: 2 Str.
    let mut b = Bench::new(&[10, 1, 10]);
    let mut e = b.engine(&prep, &SimOptions::default());
    turn(&mut e, 0, vec![Action::at(ActionKind::Attack, 1)]);
    assert_eq!(e.st.fighters[1].monster.ability_damage[0], 2);
    // Fort d20 11 + 5 = 16 saves: nothing.
    let mut b = Bench::new(&[10, 1, 11]);
    let mut e = b.engine(&prep, &SimOptions::default());
    turn(&mut e, 0, vec![Action::at(ActionKind::Attack, 1)]);
    assert_eq!(e.st.fighters[1].monster.ability_damage[0], 0);
}

/// A gibbering mouther's gibbering: 60 ft, Will DC 13 or confused 1 round,
/// met again after each failure.
fn gibbering() -> crate::model::Combatant {
    monster(
        "Mouther",
        json!([{ "kind": "aura", "name": "gibbering", "range_ft": 60, "save": "will", "dc": 13,
                 "condition": "confused", "rounds": "1", "repeats": true,
                 "descriptors": ["mind_affecting", "compulsion"] }]),
        json!({}),
    )
}

#[test]
fn a_repeating_aura_is_met_each_turn_until_a_save_succeeds() {
    let prep = prepare(
        arena(3, 20),
        vec![("monsters", gibbering(), at(1, 1)), ("players", creature("Victim", json!({})), at(1, 12))],
    );
    // Will +0 against DC 13: 12 fails (confused), 5 fails, 13 saves; then
    // no save any more (no die left).
    let mut b = Bench::new(&[12, 5, 13]);
    let mut e = b.engine(&prep, &SimOptions::default());
    e.monster_turn_start(1);
    assert!(e.st.has_condition(1, ConditionId::Confused));
    for _ in 0..3 {
        e.monster_turn_start(1);
    }
    drop(e);
    let outcomes: Vec<AuraOutcome> = b
        .events
        .iter()
        .filter_map(|r| match &r.event {
            Event::Aura { who: 1, outcome, .. } => Some(*outcome),
            _ => None,
        })
        .collect();
    assert_eq!(outcomes, [AuraOutcome::Affected, AuraOutcome::Affected, AuraOutcome::Saved]);
    // A mind-affecting immunity: one "immune" and never again.
    let prep = prepare(
        arena(3, 20),
        vec![
            ("monsters", gibbering(), at(1, 1)),
            ("players", creature("Golem", json!({ "immunities": ["mind_affecting"] })), at(1, 12)),
        ],
    );
    let mut b = Bench::new(&[]);
    let mut e = b.engine(&prep, &SimOptions::default());
    e.monster_turn_start(1);
    e.monster_turn_start(1);
    drop(e);
    let immune =
        b.events.iter().filter(|r| matches!(r.event, Event::Aura { outcome: AuraOutcome::Immune, .. }));
    assert_eq!(immune.count(), 1);
}
