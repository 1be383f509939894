//! Prepared spells as prepared (CRB "Preparing Wizard Spells", "Metamagic
//! Feats", cleric "Spontaneous Casting"): a prepared caster casts each
//! prepared copy once, a metamagic version only as prepared; a cleric gives
//! up a prepared spell for a cure; a spontaneous caster's metamagic spell
//! takes a full-round action.

use std::collections::BTreeMap;
use std::sync::Arc;

use serde_json::json;

use super::support::*;
use crate::combat::SimOptions;
use crate::combat::action::{Action, ActionKind, Reason, Slot};
use crate::combat::event::Event;
use crate::combat::spells::Metamagic;
use crate::encounter::{Encounter, SideSpec};

fn target(name: &str, hp: i32) -> crate::model::Combatant {
    creature(name, json!({ "hp_max": hp, "saves": { "fort": 0, "ref": 0, "will": 0 }, "attacks": [] }))
}

fn results(
    e: &crate::combat::engine::Engine<'_, '_, crate::rng::ScriptedRng>,
    i: usize,
) -> Vec<Option<Reason>> {
    e.st.last_results(i).iter().map(|r| r.reason).collect()
}

#[test]
fn a_prepared_caster_casts_each_copy_once_and_a_metamagic_copy_only_as_prepared() {
    let wizard = caster(
        "Wizard",
        &["Magic Missile", "Fireball", "Shield"],
        json!({
            "spell_list": "wizard",
            "metamagic_feats": ["Maximize Spell", "Empower Spell"],
            "spell_slots": {},
            "prepared": [
                { "spell": "Magic Missile" },
                { "spell": "Fireball", "metamagic": ["Maximize Spell"] }
            ]
        }),
    );
    let prep =
        prepare_magic(arena(3, 12), vec![("a", wizard, at(1, 1)), ("b", target("Dummy", 500), at(1, 8))]);
    let mm = prep.spell_index("Magic Missile").unwrap();
    let fb = prep.spell_index("Fireball").unwrap();
    // The slots are the copies prepared: one 1st-level, one 6th-level (3 + 3).
    let caster = prep.fighters[0].caster.as_deref().unwrap();
    assert_eq!(caster.slots, [0, 1, 0, 0, 0, 0, 1, 0, 0, 0]);
    let shield = prep.spell_index("Shield").unwrap();
    let mut b = Bench::new(&[4, 4, 4, 20]);
    let mut e = b.engine(&prep, &SimOptions::default());
    // Shield is known, not prepared: the 1st-level slot is Magic Missile's.
    assert_eq!(e.st.can_cast(0, shield, Metamagic::NONE), Err(Reason::NotPrepared));
    // Magic Missile once (3 missiles of 1d4+1 at CL 5), then no copy is left.
    turn(&mut e, 0, vec![Action::cast(mm, Some(1))]);
    assert_eq!(e.st.hp(1), 500 - 15);
    turn(&mut e, 0, vec![Action::cast(mm, Some(1))]);
    assert_eq!(results(&e, 0), [Some(Reason::NoSlot)]);
    // Fireball was prepared maximized only: no 3rd-level (plain) or 5th-level
    // (empowered) slot, and the 6th-level one is the maximized copy's.
    assert_eq!(e.st.can_cast(0, fb, Metamagic::NONE), Err(Reason::NoSlot));
    assert_eq!(e.st.can_cast(0, fb, Metamagic::EMPOWER), Err(Reason::NoSlot));
    assert_eq!(e.st.can_cast(0, mm, Metamagic::MAXIMIZE.with(Metamagic::EMPOWER)), Err(Reason::NotPrepared));
    assert_eq!(e.st.can_cast(0, fb, Metamagic::MAXIMIZE), Ok((3, 6)));
    // A prepared metamagic spell keeps its casting time (a standard action).
    let maximized = Action::cast(fb, Some(1)).with_metamagic(Metamagic::MAXIMIZE);
    assert_eq!(e.st.cast_slot(0, &maximized), Slot::Standard);
    let hp = e.st.hp(1);
    turn(&mut e, 0, vec![maximized]);
    // Maximized 5d6 (CL 5) = 30, the Reflex save (d20=20) halves it.
    assert_eq!(hp - e.st.hp(1), 15);
    assert_eq!(e.st.can_cast(0, fb, Metamagic::MAXIMIZE), Err(Reason::NoSlot));
    assert_eq!(e.st.fighters[0].casting.prepared_left, [0, 0]);
}

#[test]
fn a_cleric_gives_up_a_prepared_spell_for_a_cure_of_its_level() {
    let cleric = caster(
        "Cleric",
        &["Bless", "Command", "Cure Light Wounds"],
        json!({
            "spell_list": "cleric",
            "spell_slots": {},
            "prepared": [{ "spell": "Bless" }, { "spell": "Command" }],
            "spontaneous": ["Cure Light Wounds"]
        }),
    );
    let prep =
        prepare_magic(arena(3, 8), vec![("a", cleric, at(1, 1)), ("a", target("Friend", 30), at(1, 2))]);
    let cure = prep.spell_index("Cure Light Wounds").unwrap();
    let mut b = Bench::new(&[8, 8]);
    let mut e = b.engine(&prep, &SimOptions::default());
    e.st.fighters[1].hp = 5;
    turn(&mut e, 0, vec![Action::cast(cure, Some(1))]);
    // 1d8+5 at CL 5: 13; Command (last, and no heal) was given up before Bless.
    assert_eq!(e.st.hp(1), 18);
    assert_eq!(e.st.fighters[0].casting.prepared_left, [1, 0]);
    turn(&mut e, 0, vec![Action::cast(cure, Some(1))]);
    assert_eq!(e.st.fighters[0].casting.prepared_left, [0, 0]);
    turn(&mut e, 0, vec![Action::cast(cure, Some(1))]);
    assert_eq!(results(&e, 0), [Some(Reason::NoSlot)], "no prepared spell left to give up");
    // Bless is not spontaneous: it was given up, so it cannot be cast.
    let bless = e.st.prep.spell_index("Bless").unwrap();
    assert_eq!(e.st.can_cast(0, bless, Metamagic::NONE), Err(Reason::NoSlot));
    drop(e);
    let lines = b.lines();
    assert!(lines.iter().any(|l| l.contains("gives up Command to cast Cure Light Wounds")), "{lines:#?}");
    assert!(lines.iter().any(|l| l.contains("gives up Bless to cast Cure Light Wounds")), "{lines:#?}");
}

#[test]
fn a_spontaneous_casters_metamagic_spell_takes_a_full_round_action_quicken_excepted() {
    let sorcerer = caster(
        "Sorcerer",
        &["Magic Missile", "Fireball"],
        json!({ "spell_list": "sorcerer", "metamagic_feats": ["Empower Spell", "Quicken Spell"] }),
    );
    let prep =
        prepare_magic(arena(3, 12), vec![("a", sorcerer, at(1, 1)), ("b", target("Dummy", 500), at(1, 8))]);
    let mm = prep.spell_index("Magic Missile").unwrap();
    let e_st = |mm_: Metamagic| {
        let mut b = Bench::new(&[]);
        let e = b.engine(&prep, &SimOptions::default());
        e.st.cast_slot(0, &Action::cast(mm, Some(1)).with_metamagic(mm_))
    };
    assert_eq!(e_st(Metamagic::NONE), Slot::Standard);
    assert_eq!(e_st(Metamagic::EMPOWER), Slot::FullRound);
    assert_eq!(e_st(Metamagic::QUICKEN), Slot::Swift);
    // With a move first, the full-round cast is dropped by the budget.
    let mut b = Bench::new(&[]);
    let mut e = b.engine(&prep, &SimOptions::default());
    turn(
        &mut e,
        0,
        vec![
            Action::new(ActionKind::Move).with_destination(at(1, 2)),
            Action::cast(mm, Some(1)).with_metamagic(Metamagic::EMPOWER),
        ],
    );
    assert_eq!(results(&e, 0), [None, Some(Reason::DowngradedActionEconomy)]);
}

#[test]
fn spell_slots_that_disagree_with_the_prepared_list_are_an_error_naming_the_level() {
    let wizard = caster(
        "Wizard",
        &["Magic Missile"],
        json!({ "spell_list": "wizard", "spell_slots": { "1": 2 }, "prepared": [{ "spell": "Magic Missile" }] }),
    );
    let err = PreparedEncounter_new(wizard);
    assert!(
        err.contains("$.spell_slots['1']") && err.contains("2 spells of level 1 given, 1 prepared"),
        "{err}"
    );
}

#[allow(non_snake_case)]
fn PreparedEncounter_new(c: crate::model::Combatant) -> String {
    let enc = encounter(arena(3, 8), vec![("a", c, at(1, 1)), ("b", target("Dummy", 5), at(1, 6))])
        .with_library(library());
    match crate::combat::PreparedEncounter::new(&enc) {
        Ok(_) => "prepared".into(),
        Err(e) => e.to_string(),
    }
}

#[test]
fn a_prepared_list_names_the_combatants_spells_with_played_metamagic_it_knows() {
    let check = |overrides: serde_json::Value| -> String {
        let mut v = serde_json::to_value(caster("Wizard", &["Magic Missile"], json!({}))).unwrap();
        if let (serde_json::Value::Object(b), serde_json::Value::Object(o)) = (&mut v, overrides) {
            b.extend(o);
        }
        match crate::model::parse_combatant(&v.to_string(), "w.json") {
            Ok(_) => "ok".into(),
            Err(e) => e.to_string(),
        }
    };
    let e = check(json!({ "prepared": [{ "spell": "Fireball" }] }));
    assert!(e.contains("$.prepared[0].spell") && e.contains("not one of the combatant's spells"), "{e}");
    let e = check(json!({ "prepared": [{ "spell": "Magic Missile", "count": 0 }] }));
    assert!(e.contains("$.prepared[0].count"), "{e}");
    let e = check(json!({ "prepared": [{ "spell": "Magic Missile", "metamagic": ["Maximize Spell"] }] }));
    assert!(e.contains("$.prepared[0].metamagic[0]") && e.contains("not in metamagic_feats"), "{e}");
    let e = check(json!({ "metamagic_feats": ["Silent Spell"],
        "prepared": [{ "spell": "Magic Missile", "metamagic": ["Silent Spell"] }] }));
    assert!(e.contains("is not played"), "{e}");
    let e = check(json!({ "spontaneous": ["Magic Missile"] }));
    assert!(e.contains("$.spontaneous[0]") && e.contains("needs a prepared list"), "{e}");
    assert_eq!(check(json!({ "prepared": [{ "spell": "Magic Missile", "count": 2 }] })), "ok");
}

/// The campaign's battle at the tower: the eight PCs against the lich, the
/// Thrune agent, two orcs and two goblins.
fn campaign() -> Encounter {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../data");
    let map = Arc::new(crate::map::Map::load(&root.join("maps/tower.yaml")).expect("tower"));
    let load = |rel: &str| Arc::new(data_combatant(&format!("data/{rel}.json")));
    let party = ["jeanne", "esha", "harvie", "ierlieth", "misty", "nairda", "oni", "tammara"]
        .iter()
        .map(|p| load(&format!("pcs/{p}")))
        .collect();
    let monsters = ["lich", "thrune_agent", "orc", "orc", "goblin", "goblin"]
        .iter()
        .map(|m| load(&format!("monsters/{m}")))
        .collect();
    Encounter::build(
        map,
        vec![
            SideSpec { name: "players".into(), combatants: party },
            SideSpec { name: "monsters".into(), combatants: monsters },
        ],
    )
    .expect("campaign")
    .with_library(library())
}

#[test]
fn the_lich_and_the_thrune_agent_never_cast_more_copies_than_they_prepared() {
    let encounter = campaign();
    let prep = crate::combat::PreparedEncounter::new(&encounter).expect("prepared");
    let ids: Vec<String> = encounter.combatants.iter().map(|c| c.id.clone()).collect();
    let mut casts_seen = 0;
    for run in 0..60 {
        let (_, transcript) = crate::runner::run_with_transcript(&encounter, &SimOptions::default(), 12, run);
        // (caster, spell, metamagic) -> copies spent: a conversion's cast
        // (announced just before it) spends the copy it gave up.
        let mut cast: BTreeMap<(usize, String, Vec<String>), i64> = BTreeMap::new();
        for r in &transcript.events {
            match &r.event {
                Event::Casts { who, spell, metamagic, slot, .. } if *slot > 0 => {
                    *cast.entry((*who, spell.clone(), metamagic.clone())).or_default() += 1;
                }
                Event::GivesUpPrepared { who, given_up, spell } => {
                    *cast.entry((*who, spell.clone(), vec![])).or_default() -= 1;
                    *cast.entry((*who, given_up.clone(), vec![])).or_default() += 1;
                }
                _ => {}
            }
        }
        for who in ["lich", "thrune_agent"] {
            let i = ids.iter().position(|id| id == who).unwrap();
            let caster = prep.fighters[i].caster.as_deref().unwrap();
            assert!(caster.is_prepared(), "{who} casts from a prepared list");
            for ((c, spell, metamagic), n) in &cast {
                if *c != i {
                    continue;
                }
                casts_seen += n;
                // The event names the feats as adjectives (`maximized`).
                let mm = Metamagic::NAMED
                    .iter()
                    .map(|(m, _)| *m)
                    .filter(|m| m.names().iter().any(|n| metamagic.iter().any(|x| x == n)))
                    .fold(Metamagic::NONE, Metamagic::with);
                let index = prep.spell_index(spell).unwrap();
                let spontaneous = caster.known(index).is_some_and(|k| k.spontaneous);
                let prepared = caster.prepared_copy(index, mm).map_or(0, |p| caster.prepared[p].count);
                assert!(
                    (spontaneous && *n == 0) || i64::from(prepared) >= *n,
                    "run {run}: {who} cast {spell} {metamagic:?} {n} times, prepared {prepared}"
                );
            }
        }
    }
    assert!(casts_seen > 60, "the casters cast: {casts_seen}");
}

#[test]
fn a_domain_slot_holds_only_a_domain_spell_and_is_spent_first() {
    // Two ordinary 1st-level slots and a domain slot (CRB "Cleric: Domains"):
    // three castings of 1st level, of which at most two are not Cure Light Wounds.
    let cleric = caster(
        "Cleric",
        &["Bless", "Cure Light Wounds"],
        json!({
            "spell_list": "cleric",
            "spell_slots": { "1": 2 },
            "domain_slots": { "1": 1 },
            "domain_spells": ["Cure Light Wounds"]
        }),
    );
    let prep =
        prepare_magic(arena(3, 8), vec![("a", cleric, at(1, 1)), ("a", target("Friend", 300), at(1, 2))]);
    let caster = prep.fighters[0].caster.as_deref().unwrap();
    assert_eq!((caster.slots[1], caster.domain[1]), (3, 1));
    let (cure, bless) = (prep.spell_index("Cure Light Wounds").unwrap(), prep.spell_index("Bless").unwrap());
    let mut b = Bench::new(&[8; 8]);
    let mut e = b.engine(&prep, &SimOptions::default());
    e.st.fighters[1].hp = 5;
    // The cure takes the domain slot, the one slot that holds nothing else.
    turn(&mut e, 0, vec![Action::cast(cure, Some(1))]);
    assert_eq!((e.st.fighters[0].casting.slots[1], e.st.fighters[0].casting.domain_left[1]), (2, 0));
    turn(&mut e, 0, vec![Action::cast(bless, None)]);
    turn(&mut e, 0, vec![Action::cast(bless, None)]);
    assert_eq!(e.st.can_cast(0, bless, Metamagic::NONE), Err(Reason::NoSlot));
    // Bless first: the last slot left is the domain slot, which Bless cannot take.
    let mut b = Bench::new(&[8; 8]);
    let mut e = b.engine(&prep, &SimOptions::default());
    e.st.fighters[1].hp = 5;
    turn(&mut e, 0, vec![Action::cast(bless, None)]);
    turn(&mut e, 0, vec![Action::cast(bless, None)]);
    assert_eq!(e.st.fighters[0].casting.slots[1], 1);
    assert_eq!(e.st.can_cast(0, bless, Metamagic::NONE), Err(Reason::NoSlot));
    assert_eq!(e.st.can_cast(0, cure, Metamagic::NONE), Ok((1, 1)));
    turn(&mut e, 0, vec![Action::cast(cure, Some(1))]);
    assert_eq!(e.st.fighters[0].casting.slots[1], 0);
    assert_eq!(e.st.hp(1), 5 + 8 + 5, "1d8 + 5 at caster level 5");
}

#[test]
fn a_spell_prepared_in_a_domain_slot_is_never_given_up_for_a_cure() {
    let cleric = caster(
        "Cleric",
        &["Bless", "Command", "Cure Light Wounds"],
        json!({
            "spell_list": "cleric",
            "spell_slots": { "1": 1 },
            "domain_slots": { "1": 1 },
            "domain_spells": ["Command"],
            "prepared": [{ "spell": "Bless" }, { "spell": "Command", "domain": true }],
            "spontaneous": ["Cure Light Wounds"]
        }),
    );
    let prep =
        prepare_magic(arena(3, 8), vec![("a", cleric, at(1, 1)), ("a", target("Friend", 30), at(1, 2))]);
    let spec = prep.fighters[0].caster.as_deref().unwrap();
    assert_eq!((spec.slots[1], spec.domain[1]), (2, 1));
    let cure = prep.spell_index("Cure Light Wounds").unwrap();
    let command = prep.spell_index("Command").unwrap();
    let mut b = Bench::new(&[8, 8]);
    let mut e = b.engine(&prep, &SimOptions::default());
    e.st.fighters[1].hp = 5;
    // Bless, not Command (last of the list, but in the domain slot), is given up.
    turn(&mut e, 0, vec![Action::cast(cure, Some(1))]);
    assert_eq!(e.st.fighters[0].casting.prepared_left, [0, 1]);
    assert_eq!(e.st.can_cast(0, cure, Metamagic::NONE), Err(Reason::NoSlot));
    assert_eq!(e.st.can_cast(0, command, Metamagic::NONE), Ok((1, 1)));
    // A domain copy beyond the domain slots is refused at preparation.
    let over = caster(
        "Cleric",
        &["Bless", "Command"],
        json!({
            "spell_list": "cleric",
            "spell_slots": { "1": 1 },
            "domain_slots": { "1": 1 },
            "domain_spells": ["Command"],
            "prepared": [{ "spell": "Bless" }, { "spell": "Command", "domain": true, "count": 2 }]
        }),
    );
    let encounter = encounter(arena(3, 8), vec![("a", over, at(1, 1))]).with_library(library());
    let err = crate::combat::PreparedEncounter::new(&encounter).expect_err("two copies in one domain slot");
    assert!(err.to_string().contains("domain_slots['1']"), "{err}");
}
