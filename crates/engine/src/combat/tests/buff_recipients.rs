//! Who receives a single-target buff (`policy::recipient`,
//! `docs/strategy.md`): Shield of Faith goes to the friend the foe is
//! hitting, Bull's Strength to the one who hits hardest, the caster keeps
//! a buff only when it is the one in the fight; a touch buff is carried to
//! a friend one safe move away.

use serde_json::json;

use super::support::*;
use crate::combat::event::{Event, Record};
use crate::combat::prepared::PreparedEncounter;

/// A friend who outlasts the battle (AC 18, 500 hit points) with a
/// greatsword (+16, 2d6+12).
pub(super) fn champion() -> crate::model::Combatant {
    creature(
        "Champion",
        json!({ "hp_max": 500, "ac": { "total": 18, "touch": 10, "flat_footed": 18 },
                "bab": 10, "attacks": [melee("greatsword", 16, "2d6+12")] }),
    )
}

/// A golem-like foe a light crossbow cannot hurt (damage reduction
/// 10/adamantine), 300 hit points, a slam.
pub(super) fn golem() -> crate::model::Combatant {
    creature(
        "Golem",
        json!({ "hp_max": 300, "ac": { "total": 24, "touch": 8, "flat_footed": 24 },
                "dr": { "amount": 10, "bypass": ["adamantine"] },
                "attacks": [melee("slam", 10, "1d6")] }),
    )
}

/// A cleric with these spells whose crossbow is of no use against the
/// golem, so it buffs (`policy::futile`).
fn cleric(spells: &[&str]) -> crate::model::Combatant {
    caster(
        "Cleric",
        spells,
        json!({ "spell_list": "cleric", "hp_max": 30, "attacks": [ranged("light crossbow", 3, "1d8", 80)] }),
    )
}

/// The first casting of `spell` by `who` in `events`: its round and target.
fn first_cast(events: &[Record], who: usize, spell: &str) -> Option<(u32, Option<usize>)> {
    events.iter().find_map(|r| match &r.event {
        Event::Casts { who: w, spell: s, target, .. } if *w == who && s == spell => Some((r.round, *target)),
        _ => None,
    })
}

/// The targets of the first casting of `spell` by the cleric (row 1) over 30 battles.
fn recipients(prep: &PreparedEncounter, stream: u64, spell: &str) -> Vec<Option<usize>> {
    (0..30)
        .filter_map(|seed| first_cast(&policy_battle(prep, stream, seed), 1, spell))
        .map(|(_, t)| t)
        .collect()
}

#[test]
fn shield_of_faith_goes_to_the_friend_the_foe_is_hitting_not_to_its_caster() {
    let prep = prepare_magic(
        arena(10, 20),
        vec![
            ("a", champion(), at(4, 10)),
            ("a", cleric(&["Shield of Faith"]), at(4, 9)),
            ("b", golem(), at(4, 11)),
        ],
    );
    let got = recipients(&prep, 61, "Shield of Faith");
    assert_eq!(got.len(), 30, "Shield of Faith cast in {} battles of 30", got.len());
    assert!(got.iter().all(|&t| t == Some(0)), "recipients {got:?}");
}

#[test]
fn bulls_strength_goes_to_the_friend_who_hits_hardest() {
    // Two friends in touch: a crossbowman whose bolts do nothing to the
    // golem (nearer the cleric) and the champion (not the one hit: the
    // golem stands next to the crossbowman).
    let archer =
        creature("Archer", json!({ "hp_max": 40, "attacks": [ranged("light crossbow", 3, "1d8", 80)] }));
    let prep = prepare_magic(
        arena(10, 20),
        vec![
            ("a", champion(), at(5, 9)),
            ("a", cleric(&["Bull's Strength"]), at(4, 9)),
            ("a", archer, at(4, 10)),
            ("b", golem(), at(4, 11)),
        ],
    );
    let got = recipients(&prep, 62, "Bull's Strength");
    assert_eq!(got.len(), 30, "Bull's Strength cast in {} battles of 30", got.len());
    assert!(got.iter().all(|&t| t == Some(0)), "recipients {got:?}");
}

#[test]
fn the_caster_the_foe_is_hitting_shields_itself() {
    let prep = prepare_magic(
        arena(10, 20),
        vec![
            ("a", champion(), at(4, 2)),
            ("a", cleric(&["Shield of Faith"]), at(4, 10)),
            ("b", golem(), at(4, 11)),
        ],
    );
    let got = recipients(&prep, 63, "Shield of Faith");
    assert_eq!(got.len(), 30, "Shield of Faith cast in {} battles of 30", got.len());
    assert!(got.iter().all(|&t| t == Some(1)), "recipients {got:?}");
}

#[test]
fn a_touch_buff_is_carried_to_the_friend_in_the_fight_when_one_safe_move_reaches_it() {
    // The champion fights 30 ft away; the squares beside it on the
    // cleric's side are out of the golem's reach.
    let prep = prepare_magic(
        arena(10, 20),
        vec![
            ("a", champion(), at(4, 10)),
            ("a", cleric(&["Shield of Faith"]), at(4, 4)),
            ("b", golem(), at(4, 11)),
        ],
    );
    for seed in 0..30 {
        let events = policy_battle(&prep, 64, seed);
        let (round, target) = first_cast(&events, 1, "Shield of Faith").expect("Shield of Faith cast");
        assert_eq!(target, Some(0), "seed {seed}");
        let walked =
            events.iter().any(|r| r.round == round && matches!(&r.event, Event::Move { who: 1, .. }));
        assert!(walked, "seed {seed}: no move before the casting in round {round}");
    }
}
