//! No attack that cannot hit (`policy::futile`, `policy::harmless`,
//! `docs/strategy.md`): a combatant none of whose attacks is of use
//! against any foe (only a natural 20 hits, or damage reduction swallows
//! every blow) helps, buffs or keeps back instead, while a friend fights.

use serde_json::json;

use super::support::*;
use crate::combat::event::{Event, MoveKind, Record};
use crate::combat::prepared::PreparedEncounter;

/// A friend nobody can hurt (AC 40, 500 hit points) with a greatsword that
/// hits AC 24 on an 8 and gets through damage reduction 10.
fn champion() -> crate::model::Combatant {
    creature(
        "Champion",
        json!({ "hp_max": 500, "ac": { "total": 40, "touch": 40, "flat_footed": 40 },
                "bab": 10, "attacks": [melee("greatsword", 16, "2d6+12")] }),
    )
}

/// A golem-like foe: AC 24 (touch 8), damage reduction 10/adamantine,
/// `hp` hit points, a feeble slam.
fn golem(hp: i32) -> crate::model::Combatant {
    creature(
        "Golem",
        json!({ "hp_max": hp, "ac": { "total": 24, "touch": 8, "flat_footed": 24 },
                "dr": { "amount": 10, "bypass": ["adamantine"] },
                "attacks": [melee("slam", 10, "1d6")] }),
    )
}

/// The events of 30 default-policy battles on `prep`.
fn battles(prep: &PreparedEncounter, stream: u64) -> Vec<Vec<Record>> {
    (0..30).map(|seed| policy_battle(prep, stream, seed)).collect()
}

/// Attacks (not of opportunity) by `who` in `events`.
fn attacks_by(events: &[Record], who: usize) -> usize {
    events.iter().filter(|r| matches!(&r.event, Event::Attack(a) if a.who == who && !a.aoo)).count()
}

#[test]
fn a_crossbow_whose_bolts_damage_reduction_swallows_is_not_shot_while_a_friend_fights() {
    // A light crossbow +3 (1d8) at AC 24 and DR 10: a hit on a natural 20
    // deals nothing. Before, the crossbowman shot it every round.
    let archer =
        creature("Archer", json!({ "hp_max": 20, "attacks": [ranged("light crossbow", 3, "1d8", 80)] }));
    let prep = prepare(
        arena(10, 20),
        vec![("a", champion(), at(4, 10)), ("a", archer, at(4, 2)), ("b", golem(120), at(4, 11))],
    );
    let (mut shots, mut kept_back) = (0, 0);
    for events in battles(&prep, 41) {
        shots += attacks_by(&events, 1);
        kept_back += events
            .iter()
            .filter(|r| match &r.event {
                Event::TotalDefense { who, .. } => *who == 1,
                Event::Move { who, kind, .. } => *who == 1 && *kind == MoveKind::Withdraw,
                _ => false,
            })
            .count();
    }
    assert_eq!(shots, 0, "the archer shot {shots} bolts");
    assert!(kept_back >= 30, "the archer kept back {kept_back} times in 30 battles");
}

#[test]
fn a_swordsman_who_hits_only_on_a_20_aids_the_friend_who_hits_and_fights_alone() {
    // A sword +2 against AC 28: only a natural 20 hits (it would hurt).
    let squire = || creature("Squire", json!({ "hp_max": 30, "attacks": [melee("sword", 2, "1d8+2")] }));
    let knight = |hp: i32| {
        creature(
            "Knight",
            json!({ "hp_max": hp, "ac": { "total": 28, "touch": 10, "flat_footed": 28 },
                    "attacks": [melee("mace", 0, "1d4")] }),
        )
    };
    let prep = prepare(
        arena(8, 12),
        vec![("a", champion(), at(3, 4)), ("a", squire(), at(3, 6)), ("b", knight(150), at(3, 5))],
    );
    let (mut swings, mut aids) = (0, 0);
    for events in battles(&prep, 42) {
        swings += attacks_by(&events, 1);
        aids += events
            .iter()
            .filter(|r| {
                matches!(
                    &r.event,
                    Event::Combat {
                        who: 1,
                        what: crate::combat::event::CombatEvent::AidAnother { target: 0, .. }
                    }
                )
            })
            .count();
    }
    assert_eq!(swings, 0, "the squire swung {swings} times");
    assert!(aids >= 30, "{aids} aids in 30 battles");
    // Alone, the natural 20 is its only hope: it swings.
    let alone = prepare(arena(8, 12), vec![("a", squire(), at(3, 6)), ("b", knight(20), at(3, 5))]);
    for events in battles(&alone, 43) {
        assert!(attacks_by(&events, 0) > 0, "alone, the squire never swung");
    }
}

#[test]
fn a_cleric_whose_crossbow_is_no_use_blesses_and_shields_instead() {
    let cleric = caster(
        "Cleric",
        &["Bless", "Shield of Faith"],
        json!({ "spell_list": "cleric", "hp_max": 30, "attacks": [ranged("light crossbow", 3, "1d8", 80)] }),
    );
    let prep = prepare_magic(
        arena(10, 20),
        vec![("a", champion(), at(4, 10)), ("a", cleric, at(4, 4)), ("b", golem(200), at(4, 11))],
    );
    let mut shielded = 0;
    for events in battles(&prep, 44) {
        let casts: Vec<&str> = events
            .iter()
            .filter_map(|r| match &r.event {
                Event::Casts { who: 1, spell, .. } if r.round <= 3 => Some(spell.as_str()),
                _ => None,
            })
            .collect();
        // Bless first (a lost concentration may call for a second casting).
        assert_eq!(casts.first(), Some(&"Bless"), "{casts:?}");
        shielded += usize::from(casts.contains(&"Shield of Faith"));
        assert_eq!(attacks_by(&events, 1), 0);
    }
    assert!(shielded >= 20, "Shield of Faith in {shielded} battles of 30");
}
