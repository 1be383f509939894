//! Spells used as supernatural abilities (`combat::monster::spell_like`):
//! the stone golem's slow and the clay golem's haste, on the event stream
//! of the shipped files over many seeds.

use serde_json::json;

use super::support::*;
use crate::combat::event::{AfflictionEvent, Event, Record};
use crate::effects::SaveKind;

/// Battles of the shipped golem `stem` against three plain foes (Will +0,
/// 200 hp: the battle lasts), two of them beside it and one far off (it
/// walks in later), over `runs` seeds.
fn golem_battles(stem: &str, runs: u64) -> Vec<Vec<Record>> {
    let foe = || creature("Foe", json!({ "level": 5, "hp_max": 200 }));
    let placed = vec![
        ("monsters", data_combatant(&format!("data/monsters/{stem}.json")), at(2, 2)),
        ("players", foe(), at(2, 4)),
        ("players", foe(), at(4, 3)),
        ("players", foe(), at(10, 14)),
    ];
    super::monsters::records(&prepare_magic(arena(12, 16), placed), 23, runs)
}

fn uses(events: &[Record], ability: &str) -> Vec<u32> {
    events
        .iter()
        .filter(|r| matches!(&r.event, Event::Affliction { who: 0, what: AfflictionEvent::Uses { ability: a } } if a == ability))
        .map(|r| r.round)
        .collect()
}

#[test]
fn the_stone_golem_slows_every_other_round_and_a_will_save_at_dc_17_negates_as_often_as_the_d20_says() {
    let (mut saves, mut failed, mut slowed, mut used) = (0u32, 0u32, 0u32, 0u32);
    for events in golem_battles("stone_golem", 100) {
        let rounds = uses(&events, "slow");
        assert!(rounds.windows(2).all(|w| w[1] >= w[0] + 2), "once every 2 rounds: {rounds:?}");
        used += rounds.len() as u32;
        // The saves that follow each use, up to the golem's next line.
        for (k, r) in events.iter().enumerate() {
            if !matches!(&r.event, Event::Affliction { who: 0, what: AfflictionEvent::Uses { .. } }) {
                continue;
            }
            for x in events[k + 1..].iter().take_while(|x| !matches!(x.event, Event::Attack(_))) {
                match &x.event {
                    Event::Save { kind: SaveKind::Will, dc: 17, success, bonus: 0, .. } => {
                        saves += 1;
                        failed += u32::from(!success);
                    }
                    Event::EffectGained { who, effect, rounds: Some(7) } if effect == "Slow" => {
                        assert_ne!(*who, 0, "not on itself");
                        slowed += 1;
                    }
                    _ => {}
                }
            }
        }
    }
    assert!(used >= 100, "it slows in battle: {used} uses in 100 battles");
    // d20 + 0 < 17 fails on 16 faces of 20: 0.8, 3 sigma below and above.
    let p = f64::from(failed) / f64::from(saves);
    let sigma = (0.8 * 0.2 / f64::from(saves)).sqrt();
    assert!((p - 0.8).abs() < 3.0 * sigma, "{failed} of {saves} failed: {p}");
    assert_eq!(slowed, failed, "each failed save slows for 7 rounds");
}

#[test]
fn the_clay_golem_hastes_itself_once_after_a_round_of_combat_for_three_rounds() {
    let mut hasted = 0;
    for events in golem_battles("clay_golem", 40) {
        let rounds = uses(&events, "haste");
        assert!(rounds.len() <= 1, "once a day: {rounds:?}");
        let Some(&r) = rounds.first() else { continue };
        assert!(r >= 2, "after a round of combat");
        hasted += 1;
        assert!(events.iter().any(|x| matches!(
            &x.event,
            Event::EffectGained { who: 0, effect, rounds: Some(3) } if effect == "Haste"
        )));
    }
    assert!(hasted >= 35, "it hastes in battle: {hasted} of 40");
}

#[test]
fn a_spell_effect_names_a_library_spell_and_lasts_at_least_a_round() {
    let mut golem = data_combatant("data/monsters/stone_golem.json");
    if let Some(crate::model::SpecialAbility::SpellEffect { spell, .. }) = golem.special_abilities.first_mut()
    {
        *spell = "Slowness".into();
    }
    let encounter = encounter(arena(3, 6), vec![("monsters", golem, at(1, 1))]).with_library(library());
    let e = crate::combat::PreparedEncounter::new(&encounter).expect_err("an unknown spell").to_string();
    assert!(e.contains("$.special_abilities[0].spell") && e.contains("Slowness"), "{e}");
    let mut text: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(
            std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../data/monsters/clay_golem.json"),
        )
        .expect("file"),
    )
    .expect("json");
    // The haste is the clay golem's third entry (after berserk and cursed wound).
    text["special_abilities"][2]["rounds"] = json!(0);
    let e =
        crate::model::parse_combatant(&text.to_string(), "clay_golem.json").expect_err("invalid").to_string();
    assert!(e.contains("$.special_abilities[2].rounds"), "{e}");
}
