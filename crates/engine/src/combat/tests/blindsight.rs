//! Blindsight (UMR "Blindsight and Blindsense", `concealment.rs`): within
//! its range, concealment, invisibility and the creature's own blindness
//! are irrelevant to its attacks; a lifesense notices only the living.

use serde_json::json;

use super::support::*;
use crate::combat::SimOptions;
use crate::combat::prepared::PreparedEncounter;
use crate::effects::ConditionId as C;

/// A creature with blindsight (or a lifesense, `living_only`) of 30 ft.
fn sensing(name: &str, living_only: bool) -> crate::model::Combatant {
    creature(
        name,
        json!({
            "role": "monster",
            "features": [{ "name": name, "category": "sense" }],
            "special_abilities": [{ "kind": "blindsight", "name": name, "range_ft": 30, "living_only": living_only }]
        }),
    )
}

fn encounter(seer: crate::model::Combatant, target: crate::model::Combatant, col: i32) -> PreparedEncounter {
    prepare(arena(3, 12), vec![("a", seer, at(1, 1)), ("b", target, at(1, col))])
}

#[test]
fn within_range_no_concealment_counts_beyond_it_every_kind_does() {
    for (condition, chance) in [(C::Blurred, 20), (C::Displaced, 50), (C::Invisible, 50)] {
        let near = encounter(sensing("blindsight", false), creature("Hero", json!({})), 7); // 25 ft
        let far = encounter(sensing("blindsight", false), creature("Hero", json!({})), 8); // 35 ft
        for (prep, expected) in [(&near, 0), (&far, chance)] {
            let mut bench = Bench::new(&[]);
            let mut e = bench.engine(prep, &SimOptions::default());
            e.set_condition(1, condition);
            assert_eq!(e.st.miss_chance(0, 1, true), expected, "{}", condition.name());
        }
    }
}

#[test]
fn a_blinded_creature_with_blindsight_misses_nothing_within_range_and_still_makes_its_attacks_of_opportunity()
{
    let prep = encounter(sensing("blindsight", false), creature("Hero", json!({})), 2);
    let mut bench = Bench::new(&[]);
    let mut e = bench.engine(&prep, &SimOptions::default());
    e.set_condition(0, C::Blinded);
    assert_eq!(e.st.miss_chance(0, 1, true), 0);
    assert!(!e.st.totally_concealed_from(0, 1));
    // Without the sense the blinded attacker has the 50 % of total concealment.
    let plain = encounter(creature("Brute", json!({})), creature("Hero", json!({})), 2);
    let mut bench = Bench::new(&[]);
    let mut e = bench.engine(&plain, &SimOptions::default());
    e.set_condition(0, C::Blinded);
    assert_eq!(e.st.miss_chance(0, 1, true), 50);
    assert!(e.st.totally_concealed_from(0, 1));
}

#[test]
fn an_invisible_attacker_within_range_gains_nothing_against_blindsight() {
    let prep = encounter(sensing("blindsight", false), creature("Hero", json!({})), 2);
    let mut bench = Bench::new(&[]);
    let mut e = bench.engine(&prep, &SimOptions::default());
    e.set_condition(1, C::Invisible);
    assert!(!e.st.denied_dex(0, Some(1)), "the seer keeps its Dexterity against the invisible hero");
    let plain = encounter(creature("Brute", json!({})), creature("Hero", json!({})), 2);
    let mut bench = Bench::new(&[]);
    let mut e = bench.engine(&plain, &SimOptions::default());
    e.set_condition(1, C::Invisible);
    assert!(e.st.denied_dex(0, Some(1)), "without the sense it loses it");
}

#[test]
fn a_lifesense_notices_the_living_not_the_undead() {
    let undead = creature("Zombie", json!({ "creature_type": "undead" }));
    for (target, expected) in [(creature("Hero", json!({})), 0), (undead, 50)] {
        let prep = encounter(sensing("lifesense", true), target, 2);
        let mut bench = Bench::new(&[]);
        let mut e = bench.engine(&prep, &SimOptions::default());
        e.set_condition(1, C::Invisible);
        assert_eq!(e.st.miss_chance(0, 1, true), expected);
    }
}
