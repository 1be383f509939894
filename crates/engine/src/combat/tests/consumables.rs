//! Potions and wands in battle (`combat::consumables`, `policy::consumables`,
//! `docs/rules/items.md`): the choices a table makes, and the action costs
//! of the CRB.

use serde_json::{Value, json};

use super::support::*;
use crate::combat::SimOptions;
use crate::combat::action::{Action, ActionKind, Slot};
use crate::combat::decide::Policy;
use crate::combat::engine::Engine;
use crate::combat::event::{Event, Record};
use crate::combat::policy::DefaultPolicy;
use crate::combat::prepared::PreparedEncounter;
use crate::rng::SeededRng;

/// A fighter (40 hp, a longsword) carrying two potions of cure light wounds, with `overrides`.
fn fighter(name: &str, overrides: Value) -> crate::model::Combatant {
    let mut base = json!({
        "hp_max": 40,
        "attacks": [melee("longsword", 5, "1d8+3")],
        "carried_items": [{ "name": "potion of cure light wounds", "quantity": 2 }]
    });
    if let (Value::Object(b), Value::Object(o)) = (&mut base, overrides) {
        b.extend(o);
    }
    creature(name, base)
}

/// A foe with 200 hit points and a `reach`-ft glaive.
fn brute(reach: u32) -> crate::model::Combatant {
    let mut glaive = melee("glaive", 0, "1d4");
    glaive["reach_ft"] = json!(reach);
    creature("Brute", json!({ "hp_max": 200, "attacks": [glaive] }))
}

/// The actions the default policy plans for combatant `i` with hit points
/// `hp` set first (`hp` per combatant index).
fn plan_of(prep: &PreparedEncounter, i: usize, hp: &[(usize, i32)]) -> Vec<Action> {
    let mut rng = SeededRng::for_run(1, 0);
    let mut e = Engine::new(prep, &SimOptions::default(), &mut rng, None);
    for &(j, h) in hp {
        e.st.fighters[j].hp = h;
    }
    let mut out = Vec::new();
    DefaultPolicy.plan(&e.st, i, &mut out);
    out
}

#[test]
fn a_fighter_gives_a_potion_to_a_dying_friend_when_no_healer_can_reach_it() {
    let prep = prepare_magic(
        arena(6, 14),
        vec![
            ("a", fighter("Guard", json!({})), at(1, 1)),
            ("a", fighter("Friend", json!({})), at(1, 2)),
            ("b", brute(5), at(1, 12)),
        ],
    );
    let plan = plan_of(&prep, 0, &[(1, -3)]);
    assert_eq!(plan.first().map(|a| (a.kind, a.target, a.option)), Some((ActionKind::UseItem, Some(1), 0)));
    // Administering is a full-round action (CRB "Potions").
    let mut rng = SeededRng::for_run(1, 0);
    let e = Engine::new(&prep, &SimOptions::default(), &mut rng, None);
    assert_eq!(e.st.item_slot(0, &plan[0]), Slot::FullRound);
    // A friend above 0 hit points drinks for itself: nobody pours into a
    // conscious mouth.
    let plan = plan_of(&prep, 0, &[(1, 5)]);
    assert_ne!(plan.first().map(|a| a.kind), Some(ActionKind::UseItem));
}

#[test]
fn no_potion_is_given_when_a_cleric_with_a_cure_can_reach_the_dying_friend() {
    let cleric = caster(
        "Cleric",
        &["Cure Light Wounds"],
        json!({ "spell_list": "cleric", "attacks": [melee("mace", 0, "1d8")] }),
    );
    let prep = prepare_magic(
        arena(6, 14),
        vec![
            ("a", fighter("Guard", json!({})), at(1, 1)),
            ("a", fighter("Friend", json!({})), at(1, 2)),
            ("a", cleric, at(4, 4)),
            ("b", brute(5), at(1, 12)),
        ],
    );
    let plan = plan_of(&prep, 0, &[(1, -3)]);
    assert_ne!(plan.first().map(|a| a.kind), Some(ActionKind::UseItem), "{plan:?}");
}

#[test]
fn a_badly_hurt_fighter_drinks_where_no_foe_threatens_it_stepping_away_first_if_it_can() {
    // Far from the brute, at 10 of 40 hit points (a quarter): it drinks.
    let far = prepare_magic(
        arena(6, 14),
        vec![("a", fighter("Guard", json!({})), at(1, 1)), ("b", brute(5), at(1, 12))],
    );
    let plan = plan_of(&far, 0, &[(0, 10)]);
    assert_eq!(plan.first().map(|a| (a.kind, a.target)), Some((ActionKind::UseItem, Some(0))));
    // At 11 of 40 it fights on.
    let plan = plan_of(&far, 0, &[(0, 11)]);
    assert_ne!(plan.first().map(|a| a.kind), Some(ActionKind::UseItem));
    // Next to a 5-ft brute: a 5-foot step out of its reach, then the potion.
    let near = prepare_magic(
        arena(6, 14),
        vec![("a", fighter("Guard", json!({})), at(2, 2)), ("b", brute(5), at(2, 3))],
    );
    let plan = plan_of(&near, 0, &[(0, 10)]);
    let kinds: Vec<ActionKind> = plan.iter().map(|a| a.kind).collect();
    assert_eq!(kinds, [ActionKind::FiveFootStep, ActionKind::UseItem]);
    // A 10-ft reach covers every square a step reaches: it does not drink
    // there (drinking provokes).
    let reach = prepare_magic(
        arena(6, 14),
        vec![("a", fighter("Guard", json!({})), at(2, 2)), ("b", brute(10), at(2, 3))],
    );
    let plan = plan_of(&reach, 0, &[(0, 10)]);
    assert!(plan.iter().all(|a| a.kind != ActionKind::UseItem), "{plan:?}");
}

/// Plays one turn of combatant 0 with `actions` and returns the events.
fn play(prep: &PreparedEncounter, hp: &[(usize, i32)], actions: Vec<Action>) -> (Vec<Record>, Vec<u32>, i32) {
    let mut rng = SeededRng::for_run(2, 0);
    let mut events = Vec::new();
    let (left, hp0) = {
        let mut e = Engine::new(prep, &SimOptions::default(), &mut rng, Some(&mut events));
        for &(j, h) in hp {
            e.st.fighters[j].hp = h;
        }
        e.take_turn(0, &mut script(actions));
        (e.st.fighters[0].gear.items_left.clone(), e.st.fighters[0].hp)
    };
    (events, left, hp0)
}

#[test]
fn drinking_spends_a_potion_heals_1d8_plus_1_and_provokes_from_a_threatening_foe() {
    let prep = prepare_magic(
        arena(6, 14),
        vec![("a", fighter("Guard", json!({})), at(2, 2)), ("b", brute(5), at(2, 3))],
    );
    let (events, left, hp) = play(&prep, &[(0, 10)], vec![Action::use_item(0, 0)]);
    assert_eq!(left, [1], "one potion of two left");
    let uses = events
        .iter()
        .position(|r| matches!(r.event, Event::UsesItem { who: 0, wand: false, target: 0, left: 1, .. }));
    let aoo = events.iter().position(|r| matches!(&r.event, Event::Attack(a) if a.aoo && a.who == 1));
    let healed = events.iter().find_map(|r| match r.event {
        Event::Healed { who: 0, amount, .. } => Some(amount),
        _ => None,
    });
    assert!(uses.is_some() && aoo.is_some() && uses < aoo, "the drink provokes: {events:?}");
    // CL 1 cure light wounds: 1d8+1, 2 to 9 (less when the AoO hurt less than that).
    let amount = healed.expect("healed");
    assert!((2..=9).contains(&amount), "{amount}");
    assert!(hp <= 40);
}

#[test]
fn a_potion_cannot_be_poured_into_a_conscious_ally_nor_drunk_when_none_is_left() {
    let prep = prepare_magic(
        arena(6, 14),
        vec![
            (
                "a",
                fighter(
                    "Guard",
                    json!({ "carried_items": [{ "name": "potion of cure light wounds", "quantity": 1 }] }),
                ),
                at(1, 1),
            ),
            ("a", fighter("Friend", json!({})), at(1, 2)),
            ("b", brute(5), at(1, 12)),
        ],
    );
    let mut rng = SeededRng::for_run(1, 0);
    let mut e = Engine::new(&prep, &SimOptions::default(), &mut rng, None);
    assert_eq!(e.st.item_use(0, 0, 1), Err(crate::combat::action::Reason::MissingTarget));
    assert_eq!(e.st.item_use(0, 0, 2), Err(crate::combat::action::Reason::MissingTarget), "not a foe");
    e.st.fighters[0].gear.items_left[0] = 0;
    assert_eq!(e.st.item_use(0, 0, 0), Err(crate::combat::action::Reason::NoItem));
    assert_eq!(e.st.item_use(0, 7, 0), Err(crate::combat::action::Reason::NoItem));
}

#[test]
fn a_cleric_without_cures_left_heals_with_her_wand_drawing_it_first() {
    // Cure light wounds known but no 1st-level slot left; a wand of it.
    let cleric = caster(
        "Cleric",
        &["Cure Light Wounds"],
        json!({
            "spell_list": "cleric",
            "spell_slots": { "1": 1 },
            "attacks": [melee("mace", 0, "1d8")],
            "carried_items": [{ "name": "wand of cure light wounds", "charges": 10 }]
        }),
    );
    let prep = prepare_magic(
        arena(6, 14),
        vec![
            ("a", cleric, at(1, 1)),
            ("a", fighter("Friend", json!({})), at(1, 2)),
            ("b", brute(5), at(1, 12)),
        ],
    );
    let mut rng = SeededRng::for_run(1, 0);
    let mut events = Vec::new();
    let mut e = Engine::new(&prep, &SimOptions::default(), &mut rng, Some(&mut events));
    e.st.fighters[0].casting.slots[1] = 0;
    e.st.fighters[1].hp = 8;
    let mut out = Vec::new();
    DefaultPolicy.plan(&e.st, 0, &mut out);
    assert_eq!(out.first().map(|a| (a.kind, a.target)), Some((ActionKind::UseItem, Some(1))), "{out:?}");
    // Drawing the wand is the move action: a full round the first time, a
    // standard action once in hand.
    assert_eq!(e.st.item_slot(0, &out[0]), Slot::FullRound);
    e.take_turn(0, &mut script(vec![out[0]]));
    assert_eq!(e.st.fighters[0].gear.items_left, [9]);
    assert_eq!(e.st.fighters[0].gear.wand_in_hand, Some(0));
    assert_eq!(e.st.item_slot(0, &out[0]), Slot::Standard);
    drop(e);
    assert!(
        events
            .iter()
            .any(|r| matches!(r.event, Event::UsesItem { who: 0, wand: true, target: 1, left: 9, .. }))
    );
    assert!(events.iter().any(|r| matches!(r.event, Event::Healed { who: 1, .. })));
}

#[test]
fn the_party_drinks_only_out_of_reach_and_never_more_potions_than_it_carries() {
    // The level-4 party against the young black dragon, 40 battles: every
    // potion drunk by its drinker is drunk where no foe threatened it (no
    // attack of opportunity answers it), and nobody uses more potions than
    // its sheet carries.
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../data");
    let map = std::sync::Arc::new(crate::map::Map::load(&root.join("maps/field.yaml")).expect("field"));
    let load = |rel: &str| std::sync::Arc::new(data_combatant(&format!("data/{rel}.json")));
    let party = ["esha", "harvie", "oni", "nairda"].iter().map(|p| load(&format!("pcs/{p}"))).collect();
    let encounter = crate::encounter::Encounter::build(
        map,
        vec![
            crate::encounter::SideSpec { name: "players".into(), combatants: party },
            crate::encounter::SideSpec {
                name: "monsters".into(),
                combatants: vec![load("monsters/young_black_dragon")],
            },
        ],
    )
    .expect("encounter")
    .with_library(library());
    let mut used = 0;
    for run in 0..40 {
        let (_, transcript) = crate::runner::run_with_transcript(&encounter, &SimOptions::default(), 3, run);
        let mut per: std::collections::BTreeMap<usize, u32> = std::collections::BTreeMap::new();
        for (k, r) in transcript.events.iter().enumerate() {
            if let Event::UsesItem { who, wand: false, target, .. } = r.event {
                used += 1;
                *per.entry(who).or_default() += 1;
                if who == target {
                    // An attack of opportunity it provoked would come right after it.
                    let provoked = transcript
                        .events
                        .get(k + 1)
                        .is_some_and(|n| matches!(&n.event, Event::Attack(a) if a.aoo));
                    assert!(
                        !provoked,
                        "run {run} round {}: {} drinks next to a foe",
                        r.round,
                        transcript.id(who)
                    );
                }
            }
        }
        for (who, n) in per {
            assert!(n <= 2, "run {run}: {} used {n} potions of 2", transcript.id(who));
        }
    }
    assert!(used > 0, "no potion in 40 battles against an epic foe");
}

// ---- potions of buffs ----

/// A fighter carrying one potion of bull's strength and nothing else.
fn strong_fighter() -> crate::model::Combatant {
    fighter("Guard", json!({ "carried_items": [{ "name": "potion of bull's strength", "quantity": 1 }] }))
}

#[test]
fn a_fighter_drinks_bull_s_strength_before_the_fight_is_joined_and_not_within_a_foe_s_reach() {
    // The brute 55 ft away: out of one move and a reach; the drink takes the turn.
    let far =
        prepare_magic(arena(6, 14), vec![("a", strong_fighter(), at(1, 1)), ("b", brute(5), at(1, 12))]);
    let plan = plan_of(&far, 0, &[]);
    assert_eq!(plan.first().map(|a| (a.kind, a.option, a.target)), Some((ActionKind::UseItem, 0, Some(0))));
    // The brute 25 ft away: one move and a blow; the fight comes first.
    let near =
        prepare_magic(arena(6, 14), vec![("a", strong_fighter(), at(1, 1)), ("b", brute(5), at(1, 6))]);
    assert!(plan_of(&near, 0, &[]).iter().all(|a| a.kind != ActionKind::UseItem));
    // An ally already fighting: the fight is joined, no drink.
    let joined = prepare_magic(
        arena(6, 14),
        vec![
            ("a", strong_fighter(), at(1, 1)),
            ("b", brute(5), at(1, 12)),
            ("a", fighter("Friend", json!({ "carried_items": [] })), at(1, 11)),
        ],
    );
    assert!(plan_of(&joined, 0, &[]).iter().all(|a| a.kind != ActionKind::UseItem));
    // A potion of invisibility is no number on the sheet: left be.
    let unseen =
        fighter("Guard", json!({ "carried_items": [{ "name": "potion of invisibility", "quantity": 1 }] }));
    let far = prepare_magic(arena(6, 14), vec![("a", unseen, at(1, 1)), ("b", brute(5), at(1, 12))]);
    assert!(plan_of(&far, 0, &[]).iter().all(|a| a.kind != ActionKind::UseItem));
}

#[test]
fn bull_s_strength_from_a_potion_gives_two_on_attack_and_damage_for_thirty_rounds() {
    let prep =
        prepare_magic(arena(6, 14), vec![("a", strong_fighter(), at(1, 1)), ("b", brute(5), at(1, 12))]);
    let mut rng = SeededRng::for_run(2, 0);
    let mut e = Engine::new(&prep, &SimOptions::default(), &mut rng, None);
    let swing = crate::combat::odds::Swing::default();
    let before = e.st.situation(0, 0, 1, swing);
    let dmg_before = e.st.damage_bonus(0, 0, 1, &before, swing);
    e.take_turn(0, &mut script(vec![Action::use_item(0, 0)]));
    assert_eq!(e.st.fighters[0].gear.items_left, [0]);
    assert_eq!(e.st.fighters[0].out.items_spent, 1);
    let after = e.st.situation(0, 0, 1, swing);
    // +4 enhancement to Strength: +2 on melee attack and damage rolls.
    assert_eq!(after.attack - before.attack, 2);
    assert_eq!(e.st.damage_bonus(0, 0, 1, &after, swing) - dmg_before, 2);
    // A 2nd-level spell: caster level 3 (1 minute per level, 30 rounds: the
    // battle keeps it for its whole length, a day counts it by that level).
    let effect = e.st.fighters[0].effects.iter().find(|x| x.effect.spell.is_some()).expect("the buff");
    assert_eq!(effect.effect.caster_level, 3);
    assert_eq!(effect.effect.duration, crate::effects::Duration::UntilRemoved);
    // Nothing more to drink: the plan goes back to the fight.
    let mut out = Vec::new();
    DefaultPolicy.plan(&e.st, 0, &mut out);
    assert!(out.iter().all(|a| a.kind != ActionKind::UseItem));
}

#[test]
fn over_many_seeds_a_buff_potion_is_drunk_once_out_of_reach_before_the_first_blow() {
    // The brute 115 ft away: even after its double move the fight is not joined.
    let prep = prepare_magic(
        arena(6, 24),
        vec![
            (
                "a",
                fighter(
                    "Guard",
                    json!({ "carried_items": [
                { "name": "potion of bull's strength", "quantity": 2 },
                { "name": "potion of enlarge person", "quantity": 1 } ] }),
                ),
                at(1, 1),
            ),
            ("b", brute(5), at(1, 24)),
        ],
    );
    let mut drank_first = 0;
    for run in 0..30 {
        let events = policy_battle(&prep, 17, run);
        let mut struck = false;
        let mut drinks = Vec::new();
        for (k, r) in events.iter().enumerate() {
            match &r.event {
                Event::UsesItem { who: 0, wand: false, spell, .. } => {
                    assert!(!struck, "run {run}: a buff drunk after the fight was joined");
                    let provoked =
                        events.get(k + 1).is_some_and(|n| matches!(&n.event, Event::Attack(a) if a.aoo));
                    assert!(!provoked, "run {run}: drunk within a foe's reach");
                    drinks.push(spell.clone());
                }
                Event::Attack(a) if a.who == 0 || a.target == 0 => struck = true,
                _ => {}
            }
        }
        // Each buff once: a second bull's strength would not stack.
        let mut unique = drinks.clone();
        unique.sort();
        unique.dedup();
        assert_eq!(unique.len(), drinks.len(), "run {run}: {drinks:?}");
        drank_first += usize::from(!drinks.is_empty());
    }
    assert!(drank_first >= 25, "a buff before the fight in {drank_first} of 30 battles");
}

// ---- scrolls and Use Magic Device ----

/// A wizard 5 who knows Magic Missile (five 1st-level slots) and carries
/// `scrolls` scrolls of it, with `overrides`; a dagger.
fn scroll_wizard(scrolls: u32, overrides: Value) -> crate::model::Combatant {
    let mut base = json!({
        "spell_list": "wizard",
        "casting_ability": "int",
        "abilities": { "str_score": 10, "dex_score": 10, "con_score": 12,
                       "int_score": 16, "wis_score": 10, "cha_score": 10 },
        "attacks": [melee("dagger", 0, "1d4")],
        "carried_items": [{ "name": "scroll of magic missile", "quantity": scrolls }]
    });
    if let (Value::Object(b), Value::Object(o)) = (&mut base, overrides) {
        b.extend(o);
    }
    caster("Wizard", &["Magic Missile"], base)
}

#[test]
fn a_wizard_reads_her_scroll_of_magic_missile_only_when_no_slot_is_left() {
    let prep = prepare_magic(
        arena(6, 14),
        vec![("a", scroll_wizard(2, json!({})), at(1, 1)), ("b", brute(5), at(1, 12))],
    );
    // With slots: the spell from a slot.
    let plan = plan_of(&prep, 0, &[]);
    assert_eq!(plan.first().map(|a| a.kind), Some(ActionKind::CastSpell), "{plan:?}");
    // Without: the scroll, at the brute; taking it out and reading it fill the turn.
    let mut rng = SeededRng::for_run(1, 0);
    let mut events = Vec::new();
    let mut e = Engine::new(&prep, &SimOptions::default(), &mut rng, Some(&mut events));
    e.st.fighters[0].casting.slots[1] = 0;
    let mut out = Vec::new();
    DefaultPolicy.plan(&e.st, 0, &mut out);
    assert_eq!(
        out.first().map(|a| (a.kind, a.target, a.option)),
        Some((ActionKind::UseItem, Some(1), 0)),
        "{out:?}"
    );
    assert_eq!(e.st.item_slot(0, &out[0]), Slot::FullRound);
    let hp = e.st.fighters[1].hp;
    e.take_turn(0, &mut script(vec![out[0]]));
    assert_eq!(e.st.fighters[0].gear.items_left, [1], "one scroll of two left");
    // Caster level 1 (a 1st-level spell's scroll): one missile, 1d4+1.
    let dealt = hp - e.st.fighters[1].hp;
    assert!((2..=5).contains(&dealt), "{dealt}");
    drop(e);
    assert!(events.iter().any(|r| matches!(r.event, Event::ReadsScroll { who: 0, target: 1, left: 1, .. })));
    // Her caster level (5) is not lower than the scroll's (1): no check.
    assert!(!events.iter().any(|r| matches!(r.event, Event::ItemCheck { .. })));
}

#[test]
fn a_scroll_of_a_spell_above_the_reader_s_caster_level_needs_a_caster_level_check_dc_scroll_cl_plus_one() {
    // A wizard 1 (caster level 1) with a scroll of scorching ray (2nd
    // level: caster level 3): DC 4, d20 + 1; a failure keeps the scroll
    // unless the DC 5 Wisdom check (Wis 10: +0) fails too (a mishap: 1d6
    // per spell level to the reader, the scroll spent).
    let reader = scroll_wizard(
        1,
        json!({ "level": 1, "caster_level": 1, "spell_slots": { "1": 1 },
                "carried_items": [{ "name": "scroll of scorching ray", "quantity": 1 }] }),
    );
    // The brute 20 ft away: within scorching ray's 30 ft at caster level 3.
    let prep = prepare_magic(arena(6, 14), vec![("a", reader, at(1, 1)), ("b", brute(5), at(1, 5))]);
    let (mut passed, mut failed, mut mishaps) = (0, 0, 0);
    for seed in 0..200 {
        let mut rng = SeededRng::for_run(5, seed);
        let mut events = Vec::new();
        let left = {
            let mut e = Engine::new(&prep, &SimOptions::default(), &mut rng, Some(&mut events));
            e.take_turn(0, &mut script(vec![Action::use_item(0, 1)]));
            e.st.fighters[0].gear.items_left[0]
        };
        let check = events.iter().find_map(|r| match r.event {
            Event::ItemCheck {
                check: crate::combat::event::ItemCheckKind::CasterLevel,
                d20,
                bonus,
                dc,
                success,
                ..
            } => Some((d20, bonus, dc, success)),
            _ => None,
        });
        let (d20, bonus, dc, success) = check.expect("a caster level check");
        assert_eq!((bonus, dc), (1, 4));
        assert_eq!(success, d20 != 1 && d20 + 1 >= 4, "d20 {d20}");
        let read = events.iter().any(|r| matches!(r.event, Event::ReadsScroll { .. }));
        let mishap = events.iter().any(|r| matches!(r.event, Event::ItemMishap { who: 0, .. }));
        assert_eq!(read, success);
        if success {
            passed += 1;
            assert_eq!(left, 0);
        } else {
            failed += 1;
            let wis = events.iter().find_map(|r| match r.event {
                Event::ItemCheck { check: crate::combat::event::ItemCheckKind::Wisdom, d20, dc, .. } => {
                    Some((d20, dc))
                }
                _ => None,
            });
            let (wd20, wdc) = wis.expect("a Wisdom check after a failure");
            assert_eq!(wdc, 5);
            assert_eq!(mishap, wd20 < 5);
            assert_eq!(left, if mishap { 0 } else { 1 }, "a failed reading keeps the scroll unless a mishap");
            mishaps += usize::from(mishap);
        }
    }
    // d20 3 to 20 succeed: 90 %; a failure (10 %) is a mishap on a Wisdom d20 of 1 to 4 (20 %).
    assert!((165..=195).contains(&passed), "{passed} of 200");
    assert_eq!(passed + failed, 200);
    assert!(mishaps <= 10, "{mishaps}");
}

#[test]
fn use_magic_device_reads_a_scroll_off_the_list_at_dc_20_plus_caster_level() {
    // A fighter with Use Magic Device +10 and a scroll of magic missile
    // (caster level 1): DC 21, 10 of 20 faces; a failure keeps the scroll,
    // a failure by 10 or more (d20 1) is a mishap (2d6), and a natural 1
    // bars the scroll for the battle.
    let rogue = fighter(
        "Rogue",
        json!({ "skills": { "Use Magic Device": { "bonus": 10 } },
                "carried_items": [{ "name": "scroll of magic missile", "quantity": 1 }] }),
    );
    let untrained =
        fighter("Guard", json!({ "carried_items": [{ "name": "scroll of magic missile", "quantity": 1 }] }));
    let prep = prepare_magic(
        arena(6, 14),
        vec![("a", rogue, at(1, 1)), ("a", untrained, at(3, 1)), ("b", brute(5), at(1, 8))],
    );
    assert_eq!(prep.fighters[0].items[0].umd, Some(10));
    assert!(prep.fighters[0].items[0].usable);
    // Untrained (a trained-only skill) and not a caster: no use at all.
    assert!(!prep.fighters[1].items[0].usable);
    let mut read = 0;
    for seed in 0..200 {
        let mut rng = SeededRng::for_run(6, seed);
        let mut events = Vec::new();
        let (left, barred) = {
            let mut e = Engine::new(&prep, &SimOptions::default(), &mut rng, Some(&mut events));
            e.take_turn(0, &mut script(vec![Action::use_item(0, 2)]));
            (e.st.fighters[0].gear.items_left[0], e.st.fighters[0].gear.items_barred)
        };
        let (d20, dc, success) = events
            .iter()
            .find_map(|r| match r.event {
                Event::ItemCheck {
                    check: crate::combat::event::ItemCheckKind::UseMagicDevice,
                    d20,
                    dc,
                    success,
                    ..
                } => Some((d20, dc, success)),
                _ => None,
            })
            .expect("a Use Magic Device check");
        assert_eq!(dc, 21);
        assert_eq!(success, d20 >= 11);
        assert_eq!(left, u32::from(!success));
        assert_eq!(barred == 1, d20 == 1);
        let mishap = events.iter().any(|r| matches!(r.event, Event::ItemMishap { who: 0, .. }));
        assert_eq!(mishap, d20 == 1, "failed by 10 or more only on a 1");
        read += usize::from(success);
    }
    assert!((80..=120).contains(&read), "{read} of 200");
}

#[test]
fn over_many_seeds_the_wizard_reads_her_scrolls_after_her_slots_and_never_more_than_she_carries() {
    // A brute that does not move: she is never threatened (reading
    // provokes, so a threatened reader keeps her scroll).
    let wizard = scroll_wizard(2, json!({ "spell_slots": { "1": 2 } }));
    let mut post = brute(5);
    post.speed_land_ft = 0;
    let prep = prepare_magic(arena(6, 14), vec![("a", wizard, at(1, 1)), ("b", post, at(1, 12))]);
    let mut with_scroll = 0;
    for seed in 0..30 {
        let events = policy_battle(&prep, 17, seed);
        let casts: Vec<usize> = (0..events.len())
            .filter(|&k| matches!(&events[k].event, Event::Casts { who: 0, slot: 1, .. }))
            .collect();
        let reads: Vec<usize> = (0..events.len())
            .filter(|&k| matches!(events[k].event, Event::ReadsScroll { who: 0, .. }))
            .collect();
        assert!(reads.len() <= 2, "seed {seed}: {} readings of 2 scrolls", reads.len());
        if let Some(&first) = reads.first() {
            assert!(
                casts.len() == 2 && casts[1] < first,
                "seed {seed}: a scroll read before the slots were spent"
            );
            with_scroll += 1;
        }
    }
    assert!(with_scroll > 20, "scrolls read in {with_scroll} of 30 battles");
}

#[test]
fn the_consumables_lever_save_spends_no_potion_wand_scroll_or_flask() {
    use crate::combat::policy::{Roster, StrategyPolicy};
    use crate::strategy::StrategySpec;
    let wizard = scroll_wizard(2, json!({ "spell_slots": { "1": 1 } }));
    let guard = fighter(
        "Guard",
        json!({ "carried_items": [
        { "name": "potion of cure light wounds", "quantity": 2 }, { "name": "alchemist's fire", "quantity": 3 }] }),
    );
    let prep = prepare_magic(
        arena(6, 14),
        vec![("a", wizard, at(1, 1)), ("a", guard, at(3, 1)), ("b", brute(5), at(2, 12))],
    );
    let spent = |spec: &str| {
        let spec = StrategySpec::parse(spec).unwrap();
        let mut n = 0;
        for seed in 0..20 {
            let mut rng = SeededRng::for_run(19, seed);
            let mut events = Vec::new();
            let mut policy =
                StrategyPolicy::new(spec.clone(), std::sync::Arc::new(Roster::of_prepared(&prep)));
            crate::combat::run_prepared(
                &prep,
                &SimOptions::default(),
                &mut rng,
                Some(&mut events),
                &mut policy,
            );
            n += events
                .iter()
                .filter(|r| match &r.event {
                    Event::UsesItem { .. } | Event::ReadsScroll { .. } => true,
                    Event::Attack(a) => a.weapon == "alchemist's fire",
                    _ => false,
                })
                .count();
        }
        n
    };
    // A non-default spec that spends them (the brute's 200 hit points
    // outlast the wizard's slot), and the same with consumables=save.
    assert!(spent("lowest_hp") > 0);
    assert_eq!(spent("lowest_hp, consumables=save"), 0);
}
