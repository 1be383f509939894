//! Enlarge Person and Reduce Person (CRB pp. 277 and 330): one size
//! category up or down, with its space, reach, size modifiers, ±2 size
//! Strength and Dexterity and weapon damage dice; the policy grows an ally
//! who fights in melee.

use serde_json::json;

use super::support::*;
use crate::combat::SimOptions;
use crate::combat::action::{Action, ActionKind};
use crate::combat::damage::resized_dice;
use crate::combat::event::{Event, SpellEffectEvent};
use crate::combat::odds::Swing;
use crate::effects::Maneuver;
use crate::model::Size;

fn wizard(spells: &[&str]) -> crate::model::Combatant {
    caster(
        "Wizard",
        spells,
        json!({ "spell_list": "wizard", "creature_type": "humanoid", "casting_ability": "int",
                "abilities": { "str_score": 10, "dex_score": 10, "con_score": 12,
                               "int_score": 16, "wis_score": 10, "cha_score": 10 },
                "attacks": [melee("dagger", 2, "1d4")] }),
    )
}

/// Str 16, Dex 14, BAB +5, AC 17 (touch 12), a longsword +8 1d8+3.
fn fighter() -> crate::model::Combatant {
    creature(
        "Fighter",
        json!({ "creature_type": "humanoid", "hp_max": 40, "bab": 5,
                "abilities": { "str_score": 16, "dex_score": 14, "con_score": 12,
                               "int_score": 10, "wis_score": 10, "cha_score": 10 },
                "ac": { "total": 17, "touch": 12, "flat_footed": 15 },
                "attacks": [melee("longsword", 8, "1d8+3")] }),
    )
}

fn dummy() -> crate::model::Combatant {
    creature("Dummy", json!({ "creature_type": "humanoid", "hp_max": 200 }))
}

#[test]
fn weapon_dice_follow_the_tiny_and_large_weapon_damage_table() {
    // CRB Table 6-4 and "Tiny and Large Weapon Damage".
    for (dice, from, steps, to) in [
        ((1, 8), Size::Medium, 1, (2, 6)),
        ((1, 6), Size::Medium, 1, (1, 8)),
        ((1, 4), Size::Medium, 1, (1, 6)),
        ((1, 10), Size::Medium, 1, (2, 8)),
        ((1, 12), Size::Medium, 1, (3, 6)),
        ((2, 6), Size::Medium, 1, (3, 6)),
        ((2, 4), Size::Medium, 1, (2, 6)),
        ((1, 8), Size::Medium, -1, (1, 6)),
        ((2, 6), Size::Medium, -1, (1, 10)),
        ((1, 6), Size::Small, -1, (1, 4)),
        ((1, 6), Size::Medium, -1, (1, 4)),
        ((1, 4), Size::Small, -1, (1, 3)),
        ((1, 6), Size::Small, 1, (1, 8)),
        ((2, 8), Size::Large, -1, (1, 10)),
        ((3, 6), Size::Large, -1, (1, 12)),
        // Outside Tiny–Large, and dice the table does not list: unchanged.
        ((1, 8), Size::Large, 1, (1, 8)),
        ((3, 4), Size::Medium, 1, (3, 4)),
    ] {
        assert_eq!(resized_dice(dice, from, steps), to, "{dice:?} {from:?} {steps:+}");
    }
}

/// Attack bonus and AC (the dummy attacking it), touch AC, trip CMB and CMD,
/// and reach of combatant 1 (the fighter) against combatant 2.
fn numbers(st: &crate::combat::BattleState<'_>) -> [i32; 6] {
    let attack = st.situation(1, 0, 2, Swing::default()).attack;
    let ac = st.armor_class(2, 1, true, false, false, false, 0);
    let touch = st.armor_class(2, 1, true, true, false, false, 0);
    let (_, reach) = st.reach(1, 0);
    [attack, ac, touch, st.cmb(1, Maneuver::Trip, 2), st.cmd(1, Maneuver::Trip, 2), reach as i32]
}

#[test]
fn enlarge_person_makes_an_ally_large_with_every_number_of_its_new_size() {
    let prep = prepare_magic(
        arena(5, 10),
        vec![
            ("a", wizard(&["Enlarge Person"]), at(1, 1)),
            ("a", fighter(), at(1, 3)),
            ("b", dummy(), at(1, 6)),
        ],
    );
    let enlarge = prep.spell_index("Enlarge Person").unwrap();
    // The ally forgoes its save: the only dice are the fighter's attack (d20 15) and 2d6 (3, 4).
    let mut b = Bench::new(&[15, 3, 4]);
    let mut e = b.engine(&prep, &SimOptions::default());
    let before = numbers(&e.st);
    // Printed: +8, AC 17, touch 12, CMB 5 + 3 = 8, CMD 10 + 5 + 3 + 2 = 20, reach 5.
    assert_eq!(before, [8, 17, 12, 8, 20, 5]);
    assert!(e.st.weapon_for(1, 2, e.st.pos(1)).is_err(), "15 ft away: out of reach");
    turn(&mut e, 0, vec![Action::cast(enlarge, Some(1))]);
    assert_eq!(e.st.size(1), Size::Medium, "a 1-round casting lands at the start of the next turn");
    turn(&mut e, 0, vec![]);
    assert_eq!(e.st.size(1), Size::Large);
    assert_eq!(e.st.space(1), 2);
    for p in [at(1, 3), at(1, 4), at(2, 3), at(2, 4)] {
        assert_eq!(e.st.occupant(p), Some(1), "{p}");
    }
    // Attack: −1 size, +1 Strength (16 → 18). AC: −1 size, −1 Dexterity (14 → 12),
    // touch too. CMB: +1 special size, +1 Strength. CMD: +1 size, +1 Str, −1 Dex. Reach 10 ft.
    assert_eq!(numbers(&e.st), [8, 15, 10, 10, 21, 10]);
    // Now 10 ft from its right edge: it hits with a Large longsword, 2d6 + 3 + 1.
    turn(&mut e, 1, vec![Action::at(ActionKind::Attack, 2)]);
    assert_eq!(e.st.fighters[2].hp, 200 - (3 + 4 + 3 + 1));
    drop(e);
    assert!(b.events.iter().any(|r| matches!(
        &r.event,
        Event::SpellEffect { who: 1, what: SpellEffectEvent::Resized { size: Size::Large } }
    )));
}

/// The wizard (Enlarge Person) on (1, 1), the fighter on (1, 3), a dummy foe on (1, `col`).
fn wizard_and_fighter(map: std::sync::Arc<crate::map::Map>, col: i32) -> crate::combat::PreparedEncounter {
    prepare_magic(
        map,
        vec![
            ("a", wizard(&["Enlarge Person"]), at(1, 1)),
            ("a", fighter(), at(1, 3)),
            ("b", dummy(), at(1, col)),
        ],
    )
}

/// The wizard casts Enlarge Person on the fighter: it lands at the start of its next turn.
fn enlarge_fighter(e: &mut crate::combat::engine::Engine<'_, '_, crate::rng::ScriptedRng>) {
    let enlarge = e.st.prep.spell_index("Enlarge Person").unwrap();
    turn(e, 0, vec![Action::cast(enlarge, Some(1))]);
    turn(e, 0, vec![]);
}

#[test]
fn its_end_brings_the_creature_back_to_its_own_size_and_square() {
    let prep = wizard_and_fighter(arena(5, 10), 8);
    let mut b = Bench::new(&[]);
    let mut e = b.engine(&prep, &SimOptions::default());
    let before = numbers(&e.st);
    enlarge_fighter(&mut e);
    let k = e.st.fighters[1].effects.iter().position(|x| x.effect.name.as_ref() == "Enlarge Person").unwrap();
    // 1 minute per level: it outlasts a battle (`docs/rules/magic.md`).
    assert_eq!(e.st.fighters[1].effects[k].rounds_left, None);
    e.remove_effect_at(1, k, crate::combat::event::EffectEnd::Ends);
    assert_eq!(e.st.size(1), Size::Medium);
    assert_eq!(e.st.space(1), 1);
    assert_eq!(e.st.occupant(at(1, 3)), Some(1));
    assert_eq!(e.st.occupant(at(2, 4)), None);
    assert_eq!(numbers(&e.st), before);
}

#[test]
fn without_room_to_grow_it_keeps_its_size_and_the_spell_changes_nothing() {
    // A corridor one square wide: no 2×2 space holds the fighter's square.
    let corridor = map(&["############", "#..........#", "############"]);
    let prep = wizard_and_fighter(corridor, 9);
    let mut b = Bench::new(&[]);
    let mut e = b.engine(&prep, &SimOptions::default());
    let before = numbers(&e.st);
    enlarge_fighter(&mut e);
    assert_eq!(e.st.size(1), Size::Medium);
    assert_eq!(numbers(&e.st), before, "no Strength, Dexterity or size change");
    drop(e);
    assert!(
        b.events
            .iter()
            .any(|r| matches!(&r.event, Event::SpellEffect { who: 1, what: SpellEffectEvent::NoRoomToGrow }))
    );
}

/// A Large humanoid brute: Str 18, Dex 10, AC 14 (−1 size), a greatclub +9 2d8+6, reach 10 ft.
fn ogre() -> crate::model::Combatant {
    let mut club = melee("greatclub", 9, "2d8+6");
    club["two_handed"] = json!(true);
    creature(
        "Ogre",
        json!({ "creature_type": "humanoid", "size": "Large", "hp_max": 30, "bab": 3,
                "abilities": { "str_score": 18, "dex_score": 10, "con_score": 12,
                               "int_score": 6, "wis_score": 10, "cha_score": 6 },
                "ac": { "total": 14, "touch": 9, "flat_footed": 14 },
                "attacks": [club] }),
    )
}

#[test]
fn reduce_person_shrinks_a_large_foe_that_fails_its_fortitude_save() {
    let prep = prepare_magic(
        arena(5, 10),
        vec![("a", wizard(&["Reduce Person"]), at(1, 1)), ("b", ogre(), at(1, 4)), ("a", dummy(), at(4, 9))],
    );
    let reduce = prep.spell_index("Reduce Person").unwrap();
    // Fortitude d20 2 + 0 against DC 10 + 1 + 3 = 14: fails.
    let mut b = Bench::new(&[2]);
    let mut e = b.engine(&prep, &SimOptions::default());
    let ogre_numbers = |st: &crate::combat::BattleState<'_>| {
        [
            st.situation(1, 0, 2, Swing::default()).attack,
            st.armor_class(2, 1, true, false, false, false, 0),
            st.cmb(1, Maneuver::Trip, 2),
            st.cmd(1, Maneuver::Trip, 2),
            st.reach(1, 0).1 as i32,
        ]
    };
    let before = ogre_numbers(&e.st);
    turn(&mut e, 0, vec![Action::cast(reduce, Some(1))]);
    turn(&mut e, 0, vec![]);
    assert_eq!(e.st.size(1), Size::Medium);
    assert_eq!(e.st.space(1), 1);
    assert_eq!(e.st.occupant(at(2, 5)), None, "its old space is free");
    // Attack: +1 size, −1 Strength (18 → 16). AC: +1 size, +1 Dexterity (10 → 12).
    // CMB: −1 special size, −1 Str. CMD: −1 size, −1 Str, +1 Dex. Reach 5 ft.
    let after = ogre_numbers(&e.st);
    assert_eq!(
        [after[0] - before[0], after[1] - before[1], after[2] - before[2], after[3] - before[3]],
        [0, 2, -2, -1]
    );
    assert_eq!((before[4], after[4]), (10, 5));
    assert_eq!(e.st.resize_of(1), Some((Size::Large, -1)));
}

#[test]
fn a_foe_that_makes_its_fortitude_save_keeps_its_size() {
    let prep = prepare_magic(
        arena(5, 10),
        vec![("a", wizard(&["Reduce Person"]), at(1, 1)), ("b", ogre(), at(1, 4)), ("a", dummy(), at(4, 9))],
    );
    let reduce = prep.spell_index("Reduce Person").unwrap();
    let mut b = Bench::new(&[14]);
    let mut e = b.engine(&prep, &SimOptions::default());
    turn(&mut e, 0, vec![Action::cast(reduce, Some(1))]);
    turn(&mut e, 0, vec![]);
    assert_eq!(e.st.size(1), Size::Large);
    assert_eq!(e.st.ability_deltas(1), (0, 0));
}

/// Over `runs` default-policy battles: the battles where the wizard
/// (combatant 0) acts before combatant `on`, those of them where its first
/// spell is Enlarge Person on `on`, and its casts of it on anyone else.
fn first_enlargements(encounter: &crate::encounter::Encounter, on: usize, runs: u64) -> (u64, u64, u64) {
    let (mut before, mut first, mut other) = (0, 0, 0);
    for run in 0..runs {
        let (_, transcript) = crate::runner::run_with_transcript(encounter, &SimOptions::default(), 11, run);
        // Initiative lines come in turn order.
        let order: Vec<usize> = transcript
            .events
            .iter()
            .filter_map(|r| match &r.event {
                Event::Initiative { who, .. } => Some(*who),
                _ => None,
            })
            .collect();
        let rank = |w: usize| order.iter().position(|&x| x == w);
        if rank(0) > rank(on) {
            continue;
        }
        before += 1;
        let mut casts = transcript.events.iter().filter_map(|r| match &r.event {
            Event::Casts { who: 0, spell, target, .. } => Some((spell.clone(), *target)),
            _ => None,
        });
        if casts.next().is_some_and(|(s, t)| s == "Enlarge Person" && t == Some(on)) {
            first += 1;
        }
        other += transcript
            .events
            .iter()
            .filter(|r| {
                matches!(&r.event, Event::Casts { spell, target, .. }
                    if spell == "Enlarge Person" && *target != Some(on))
            })
            .count() as u64;
    }
    (before, first, other)
}

#[test]
fn the_policy_enlarges_the_allied_melee_fighter_first_and_never_the_archer_or_itself() {
    let archer = creature(
        "Archer",
        json!({ "creature_type": "humanoid", "hp_max": 30, "bab": 5,
                "attacks": [ranged("longbow", 8, "1d8", 100)] }),
    );
    let orc = creature(
        "Orc",
        json!({ "creature_type": "humanoid", "hp_max": 30, "attacks": [melee("falchion", 5, "2d4+4")] }),
    );
    let enc = encounter(
        arena(8, 16),
        vec![
            ("players", wizard(&["Enlarge Person"]), at(4, 2)),
            ("players", fighter(), at(4, 4)),
            ("players", archer, at(6, 2)),
            ("monsters", orc.clone(), at(3, 15)),
            ("monsters", orc, at(5, 15)),
        ],
    )
    .with_library(library());
    let (before, first, other) = first_enlargements(&enc, 1, 60);
    assert!(before >= 15, "{before} battles where the wizard acts first");
    assert_eq!(first, before, "the wizard opens with Enlarge Person on the fighter");
    assert_eq!(other, 0, "never on the archer or itself");
}

#[test]
fn the_policy_shrinks_a_large_humanoid_brute_and_never_an_ally() {
    let enc = encounter(
        arena(8, 16),
        vec![
            ("players", wizard(&["Reduce Person"]), at(4, 2)),
            ("players", fighter(), at(4, 4)),
            ("monsters", ogre(), at(4, 12)),
        ],
    )
    .with_library(library());
    let runs = 40;
    let (mut on_ogre, mut on_ally) = (0, 0);
    for run in 0..runs {
        let (_, transcript) = crate::runner::run_with_transcript(&enc, &SimOptions::default(), 13, run);
        for r in &transcript.events {
            if let Event::Casts { spell, target, .. } = &r.event
                && spell == "Reduce Person"
            {
                if *target == Some(2) {
                    on_ogre += 1;
                } else {
                    on_ally += 1;
                }
            }
        }
    }
    // Out of its close range at first, the ogre is often on the fighter before the wizard can aim.
    assert!(on_ogre >= runs as usize / 3, "Reduce Person on the ogre in {on_ogre} of {runs} battles");
    assert_eq!(on_ally, 0);
}
