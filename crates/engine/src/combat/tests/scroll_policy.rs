//! Scrolls of cures and of buffs in the default policy (`policy::heal`,
//! `policy::magic`, `policy::consumables`; `docs/rules/items.md`
//! "Scrolls", `docs/strategy.md`): a healer reads a scroll of a cure only
//! when no slot and no wand charge cures, a carrier who cannot read the
//! scroll never does, and a caster out of buffs reads a scroll of one on
//! the ally it helps most.

use serde_json::{Value, json};

use super::buff_recipients::{champion, golem};
use super::support::*;
use crate::combat::event::{Event, Record};
use crate::combat::prepared::PreparedEncounter;

/// A friend (40 hp, AC 10, a longsword) the ogre is hitting.
fn friend() -> crate::model::Combatant {
    creature(
        "Friend",
        json!({ "hp_max": 40, "ac": { "total": 10, "touch": 10, "flat_footed": 10 },
                "attacks": [melee("longsword", 5, "1d8+3")] }),
    )
}

/// An ogre that does not move (so it never comes to threaten the reader),
/// 300 hit points, a club that hits the friend nearly every time.
fn ogre() -> crate::model::Combatant {
    let mut o = creature("Ogre", json!({ "hp_max": 300, "attacks": [melee("club", 10, "2d6+5")] }));
    o.speed_land_ft = 0;
    o
}

/// A cleric 5 who knows Cure Light Wounds with `slots` 1st-level slots, a
/// light crossbow (it shoots from where it stands, out of the ogre's
/// reach), and `scrolls` scrolls of cure light wounds.
fn cleric(slots: u32, scrolls: u32) -> crate::model::Combatant {
    caster(
        "Cleric",
        &["Cure Light Wounds"],
        json!({ "spell_list": "cleric", "hp_max": 30, "spell_slots": { "1": slots },
                "attacks": [ranged("light crossbow", 3, "1d8", 80)],
                "carried_items": [{ "name": "scroll of cure light wounds", "quantity": scrolls }] }),
    )
}

/// The cleric (row 0) beside the friend (row 1), the ogre (row 2) beyond
/// the friend: the cleric touches the friend and the ogre does not reach her.
fn party(healer: crate::model::Combatant) -> PreparedEncounter {
    prepare_magic(
        arena(6, 10),
        vec![("a", healer, at(2, 1)), ("a", friend(), at(2, 2)), ("b", ogre(), at(2, 3))],
    )
}

/// The indices of `who`'s scroll readings in `events`.
fn readings(events: &[Record], who: usize) -> Vec<usize> {
    (0..events.len())
        .filter(|&k| matches!(events[k].event, Event::ReadsScroll { who: w, .. } if w == who))
        .collect()
}

/// The hit points the first healing of `who` after event `k` found it at.
fn healed_from(events: &[Record], k: usize, who: usize) -> Option<i32> {
    events[k..].iter().find_map(|r| match r.event {
        Event::Healed { who: w, hp_before, .. } if w == who => Some(hp_before),
        _ => None,
    })
}

#[test]
fn a_cleric_without_a_cure_slot_reads_her_scroll_of_cure_on_a_friend_under_half() {
    let prep = party(cleric(0, 2));
    let mut battles = 0;
    for seed in 0..30 {
        let events = policy_battle(&prep, 91, seed);
        let reads = readings(&events, 0);
        assert!(reads.len() <= 2, "seed {seed}: {} readings of 2 scrolls", reads.len());
        for &k in &reads {
            let Event::ReadsScroll { ref spell, target, .. } = events[k].event else { unreachable!() };
            assert_eq!((spell.as_str(), target), ("Cure Light Wounds", 1), "seed {seed}");
            // The need test of the heal plan: under half its hit points
            // (the reading may be lost to nothing here: no foe threatens her).
            let before = healed_from(&events, k, 1).expect("the cure heals");
            assert!(2 * before < 40, "seed {seed}: read on a friend at {before} of 40");
        }
        battles += usize::from(!reads.is_empty());
    }
    assert!(battles >= 25, "a scroll read in {battles} battles of 30");
}

#[test]
fn a_cleric_with_a_cure_slot_casts_it_and_keeps_her_scroll_until_it_is_spent() {
    let prep = party(cleric(1, 1));
    let mut cast = 0;
    for seed in 0..30 {
        let events = policy_battle(&prep, 92, seed);
        let first_cast = events.iter().position(
            |r| matches!(&r.event, Event::Casts { who: 0, spell, .. } if spell == "Cure Light Wounds"),
        );
        if let Some(&k) = readings(&events, 0).first() {
            assert!(first_cast.is_some_and(|c| c < k), "seed {seed}: the scroll read before the slot");
        }
        cast += usize::from(first_cast.is_some());
    }
    assert!(cast >= 25, "the slot cast in {cast} battles of 30");
}

/// A fighter with the scroll of cure light wounds in its pack, with `overrides`.
fn carrier(overrides: Value) -> crate::model::Combatant {
    let mut base = json!({ "hp_max": 40, "attacks": [ranged("light crossbow", 3, "1d8", 80)],
                           "carried_items": [{ "name": "scroll of cure light wounds", "quantity": 1 }] });
    if let (Value::Object(b), Value::Object(o)) = (&mut base, overrides) {
        b.extend(o);
    }
    creature("Carrier", base)
}

#[test]
fn a_fighter_without_use_magic_device_never_reads_a_cleric_s_scroll_and_one_with_it_does() {
    let untrained = party(carrier(json!({})));
    assert!(!untrained.fighters[0].items[0].usable);
    let rogue = party(carrier(json!({ "skills": { "Use Magic Device": { "bonus": 20 } } })));
    assert!(rogue.fighters[0].items[0].usable);
    let mut read = 0;
    for seed in 0..30 {
        let events = policy_battle(&untrained, 93, seed);
        assert!(readings(&events, 0).is_empty(), "seed {seed}: an untrained fighter read the scroll");
        assert!(
            !events.iter().any(|r| matches!(r.event, Event::ItemCheck { who: 0, .. })),
            "seed {seed}: an untrained fighter tried the scroll"
        );
        // The same carrier with Use Magic Device +20 (DC 21: always) reads
        // it on the friend under half: no healer of the party will.
        let events = policy_battle(&rogue, 93, seed);
        let reads = readings(&events, 0);
        assert!(reads.len() <= 1, "seed {seed}");
        if let Some(&k) = reads.first() {
            let before = healed_from(&events, k, 1).expect("the cure heals");
            assert!(2 * before < 40, "seed {seed}: read on a friend at {before} of 40");
            read += 1;
        }
    }
    assert!(read >= 25, "the rogue read the scroll in {read} battles of 30");
}

#[test]
fn no_scroll_of_cure_is_read_on_an_undead_friend() {
    let zombie = creature(
        "Zombie",
        json!({ "hp_max": 40, "creature_type": "undead", "ac": { "total": 10, "touch": 10, "flat_footed": 10 },
                "attacks": [melee("slam", 5, "1d8+3")] }),
    );
    let prep = prepare_magic(
        arena(6, 10),
        vec![("a", cleric(0, 2), at(2, 1)), ("a", zombie, at(2, 2)), ("b", ogre(), at(2, 3))],
    );
    for seed in 0..20 {
        let events = policy_battle(&prep, 94, seed);
        assert!(readings(&events, 0).is_empty(), "seed {seed}: cure read on an undead friend");
    }
}

#[test]
fn a_wizard_out_of_slots_reads_bull_s_strength_on_the_friend_who_hits_hardest() {
    // Her bolts do nothing to the golem (`policy::futile`) and her one
    // spell has no slot: she would buff, and the scroll is the buff.
    let wizard = caster(
        "Wizard",
        &["Magic Missile"],
        json!({ "spell_list": "wizard", "casting_ability": "int", "hp_max": 30, "spell_slots": { "1": 0 },
                "attacks": [ranged("light crossbow", 3, "1d8", 80)],
                "carried_items": [{ "name": "scroll of bull's strength", "quantity": 1 }] }),
    );
    let prep = prepare_magic(
        arena(10, 20),
        vec![("a", champion(), at(4, 10)), ("a", wizard, at(4, 9)), ("b", golem(), at(4, 11))],
    );
    assert!(prep.fighters[1].items[0].usable);
    for seed in 0..30 {
        let events = policy_battle(&prep, 95, seed);
        let reads = readings(&events, 1);
        assert_eq!(reads.len(), 1, "seed {seed}: {} readings of one scroll", reads.len());
        let Event::ReadsScroll { ref spell, target, .. } = events[reads[0]].event else { unreachable!() };
        assert_eq!((spell.as_str(), target), ("Bull's Strength", 0), "seed {seed}");
        assert_eq!(events[reads[0]].round, 1, "seed {seed}: read on her first turn");
    }
}
