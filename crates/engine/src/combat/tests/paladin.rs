//! The paladin's mercies and lay on hands against undead (CRB "Paladin":
//! Lay On Hands, Mercy), rule by rule, the load errors of a mercy, and the
//! default policy's use of each over many seeds.

use serde_json::{Value, json};

use super::monsters::monster;
use super::support::*;
use crate::combat::SimOptions;
use crate::combat::action::{Action, ActionKind, Reason};
use crate::combat::event::{Event, Record};
use crate::combat::prepared::PreparedEncounter;
use crate::effects::{ConditionId, ConditionSet, Duration, Effect};

/// A paladin of `level` (Str 16, Cha 14: +2) with lay on hands, `mercies`
/// (`Mercy (…)` features) and a mundane longsword +8 (1d8+3).
fn paladin(level: u32, mercies: &[&str]) -> crate::model::Combatant {
    let mut features = vec![json!("Lay On Hands")];
    features.extend(mercies.iter().map(|m| json!(format!("Mercy ({m})"))));
    paladin_with(level, features)
}

/// A paladin of `level` (Str 16, Cha 14: +2) with these `features`, five
/// uses of lay on hands and a mundane longsword +8 (1d8+3).
pub(super) fn paladin_with(level: u32, features: Vec<Value>) -> crate::model::Combatant {
    creature(
        "Pal",
        json!({ "level": level, "hp_max": 40, "bab": level, "alignment": "LG",
                "ac": { "total": 20, "touch": 10, "flat_footed": 20 },
                "abilities": { "str_score": 16, "dex_score": 10, "con_score": 12, "int_score": 10,
                               "wis_score": 10, "cha_score": 14 },
                "features": features,
                "resources": { "lay_on_hands": 5 },
                "attacks": [melee("longsword", 8, "1d8+3")] }),
    )
}

/// A foe of `hp` hit points, AC 14 (touch 10), with a weak claw, `extra` merged in.
fn foe(name: &str, hp: i32, extra: Value) -> crate::model::Combatant {
    let mut base = json!({ "hp_max": hp, "alignment": "NE",
                           "ac": { "total": 14, "touch": 10, "flat_footed": 14 },
                           "attacks": [melee("claw", 2, "1d3")] });
    if let (Value::Object(b), Value::Object(o)) = (&mut base, extra) {
        b.extend(o);
    }
    creature(name, base)
}

fn condition(name: &str, c: ConditionId, rounds: u32) -> Effect {
    Effect::new(name, Duration::Rounds(rounds)).with_conditions(ConditionSet::of(c))
}

// ---- mercies: the rule ----

/// A paladin 6 with the sickened and staggered mercies beside a 30-hp ally, a foe afar.
fn paladin6_beside_an_ally() -> crate::combat::prepared::PreparedEncounter {
    prepare(
        arena(4, 8),
        vec![
            ("a", paladin(6, &["sickened", "staggered"]), at(1, 1)),
            ("a", creature("Ally", json!({ "hp_max": 30 })), at(1, 2)),
            ("b", foe("Foe", 60, json!({})), at(3, 7)),
        ],
    )
}

#[test]
fn a_lay_on_hands_ends_the_conditions_of_the_paladin_s_mercies_and_no_other() {
    let prep = paladin6_beside_an_ally();
    let mut b = Bench::new(&[2, 3, 4]);
    let mut e = b.engine(&prep, &SimOptions::default());
    e.st.fighters[1].hp = 10;
    e.set_condition(1, ConditionId::Sickened);
    e.apply_effect(1, condition("slow", ConditionId::Staggered, 5), None);
    e.set_condition(1, ConditionId::Shaken);
    // Level 6: 3d6 = 9; sickened (lasting) and staggered (an effect) end, shaken stays.
    turn(&mut e, 0, vec![Action::at(ActionKind::LayOnHands, 1)]);
    assert_eq!(e.st.hp(1), 19);
    let left = |c| e.st.has_condition(1, c);
    assert_eq!(
        (left(ConditionId::Sickened), left(ConditionId::Staggered), left(ConditionId::Shaken)),
        (false, false, true)
    );
    drop(e);
    let lines = b.lines();
    assert!(
        lines
            .iter()
            .any(|l| l.contains("pal: lays on hands on ally: 3d6=9, heals 9, ends sickened, staggered")),
        "{lines:#?}"
    );
}

#[test]
fn the_staggered_mercy_leaves_a_creature_at_exactly_zero_hit_points_staggered() {
    let prep = paladin6_beside_an_ally();
    let mut b = Bench::new(&[1, 1, 1]);
    let mut e = b.engine(&prep, &SimOptions::default());
    e.st.fighters[1].hp = -3;
    e.set_condition(1, ConditionId::Staggered);
    e.set_condition(1, ConditionId::Sickened);
    turn(&mut e, 0, vec![Action::at(ActionKind::LayOnHands, 1)]);
    assert_eq!(e.st.hp(1), 0);
    assert!(e.st.has_condition(1, ConditionId::Staggered), "at exactly 0 hit points");
    assert!(!e.st.has_condition(1, ConditionId::Sickened));
}

#[test]
fn the_poisoned_mercy_ends_running_poisons_and_the_nauseated_one_nausea() {
    let prep = prepare(
        arena(4, 8),
        vec![
            ("a", paladin(9, &["sickened", "nauseated", "poisoned"]), at(1, 1)),
            ("a", creature("Ally", json!({ "hp_max": 30 })), at(1, 2)),
            ("b", foe("Foe", 60, json!({})), at(3, 7)),
        ],
    );
    let mut b = Bench::new(&[6, 6, 6, 6]);
    let mut e = b.engine(&prep, &SimOptions::default());
    e.apply_effect(1, condition("stinking cloud", ConditionId::Nauseated, 3), None);
    let dose = crate::combat::prepared::monster::Poisoned {
        from: 2,
        rider: 0,
        rounds_left: 5,
        dc: 13,
        successes: 0,
    };
    e.st.fighters[1].monster.poisons.push(dose);
    turn(&mut e, 0, vec![Action::at(ActionKind::LayOnHands, 1)]);
    assert!(!e.st.has_condition(1, ConditionId::Nauseated));
    assert!(e.st.fighters[1].monster.poisons.is_empty(), "neutralized");
    let removed = b.events.iter().find_map(|r| match &r.event {
        Event::LaysOnHands { removed, .. } => Some(removed.clone()),
        _ => None,
    });
    assert_eq!(removed, Some(vec!["nauseated".to_string(), "poisoned".to_string()]));
}

// ---- mercies: load errors ----

/// The load error of a paladin file of `level` with `features` ("" when it loads).
pub(super) fn refused(level: u32, features: Value) -> String {
    let file = json!({
        "name": "Pal", "level": level, "features": features, "hp_max": 30, "bab": level,
        "abilities": { "str_score": 16, "dex_score": 10, "con_score": 12,
                       "int_score": 10, "wis_score": 10, "cha_score": 14 },
        "ac": { "total": 18, "touch": 10, "flat_footed": 18 }, "initiative_mod": 0, "speed_land_ft": 30,
        "saves": { "fort": 5, "ref": 1, "will": 3 }, "attacks": [melee("longsword", 7, "1d8+3")]
    });
    match crate::model::parse_combatant(&file.to_string(), "pal.json") {
        Ok(_) => String::new(),
        Err(e) => e.to_string(),
    }
}

#[test]
fn a_mercy_is_refused_when_unknown_too_early_without_its_prerequisite_twice_or_one_too_many() {
    let unknown = refused(6, json!(["Lay On Hands", "Mercy (sleepy)"]));
    assert!(
        unknown.contains("\"Mercy (sleepy)\" names no mercy") && unknown.contains("staggered"),
        "{unknown}"
    );
    assert!(refused(6, json!(["Mercy"])).contains("names no mercy"), "a mercy needs its name");
    let early = refused(4, json!(["Mercy (staggered)"]));
    assert!(early.contains("paladin level 6 or more; this combatant is level 4"), "{early}");
    let alone = refused(9, json!(["Mercy (nauseated)", "Mercy (shaken)"]));
    assert!(alone.contains("needs the mercy \"sickened\""), "{alone}");
    assert!(refused(6, json!(["Mercy (shaken)", "Mercy (Shaken)"])).contains("listed twice"));
    let many = refused(5, json!(["Mercy (shaken)", "Mercy (sickened)"]));
    assert!(many.contains("2 mercies listed, a paladin of level 5 has 1"), "{many}");
    assert_eq!(refused(5, json!(["Mercy (shaken)", "Extra Mercy", "Mercy (sickened)"])), "");
    assert_eq!(refused(9, json!(["Mercy (nauseated)", "Mercy (sickened)", "Mercy (poisoned)"])), "");
}

#[test]
fn the_reference_paladins_name_their_mercies() {
    for (file, mercies) in [
        ("data/pcs/paladin2.json", vec![]),
        ("data/pcs/paladin4.json", vec![ConditionId::Sickened]),
        ("data/pcs/paladin6.json", vec![ConditionId::Sickened, ConditionId::Staggered]),
        ("data/pcs/paladin8.json", vec![ConditionId::Sickened, ConditionId::Staggered]),
    ] {
        let prep = prepare_magic(arena(3, 6), vec![("a", data_combatant(file), at(1, 1))]);
        let l = prep.fighters[0].abilities.as_deref().and_then(|a| a.lay_on_hands).expect("lay on hands");
        assert_eq!(l.mercies.iter().collect::<Vec<_>>(), mercies, "{file}");
    }
}

// ---- lay on hands against undead: the rule ----

#[test]
fn lay_on_hands_harms_an_undead_by_a_melee_touch_half_level_d6_no_save_halved_if_incorporeal() {
    let undead = |name: &str, specials: Value| {
        let ac = json!({ "total": 18, "touch": 12, "flat_footed": 18 });
        monster(name, specials, json!({ "hp_max": 40, "creature_type": "undead", "ac": ac }))
    };
    let prep = prepare(
        arena(4, 8),
        vec![
            ("a", paladin(4, &["sickened"]), at(1, 1)),
            ("b", undead("Zombie", json!([])), at(1, 2)),
            ("b", undead("Shade", json!([{ "kind": "incorporeal", "name": "incorporeal" }])), at(2, 1)),
            ("b", foe("Orc", 40, json!({ "creature_type": "humanoid" })), at(2, 2)),
        ],
    );
    // Touch attack: d20 9 + 7 (BAB 4, Str 3) = 16 against touch AC 12, then 2d6 = 3 + 4.
    let mut b = Bench::new(&[9, 3, 4, 9, 3, 4, 1]);
    let mut e = b.engine(&prep, &SimOptions::default());
    turn(&mut e, 0, vec![Action::at(ActionKind::LayOnHands, 1)]);
    assert_eq!(e.st.hp(1), 33, "7 positive energy, no save");
    turn(&mut e, 0, vec![Action::at(ActionKind::LayOnHands, 2)]);
    assert_eq!(e.st.hp(2), 37, "incorporeal: half of 7");
    // A natural 1 misses: the use is spent.
    turn(&mut e, 0, vec![Action::at(ActionKind::LayOnHands, 1)]);
    assert_eq!((e.st.hp(1), e.st.fighters[0].class.pools.lay_on_hands), (33, 2));
    turn(&mut e, 0, vec![Action::at(ActionKind::LayOnHands, 3)]);
    assert_eq!(e.st.last_results(0)[0].reason, Some(Reason::NoAbility), "a living foe");
    assert_eq!(e.st.fighters[0].class.pools.lay_on_hands, 2);
    drop(e);
    assert!(!b.events.iter().any(|r| matches!(r.event, Event::Save { .. })), "no save");
    // The orc beside her threatens her: the touch provokes no attack of opportunity.
    assert!(
        !b.events.iter().any(|r| matches!(&r.event, Event::Attack(a) if a.aoo)),
        "no attack of opportunity"
    );
    let lines = b.lines();
    assert!(
        lines.iter().any(|l| l.contains("pal: lays on hands to harm zombie: 2d6=7 (4 left)")),
        "{lines:#?}"
    );
    assert!(
        lines.iter().any(|l| l.contains("pal: lays on hands to harm zombie: misses (2 left)")),
        "{lines:#?}"
    );
}

// ---- the policy ----

/// The events of `runs` default-policy battles of `prep` (random stream
/// `stream`), each started with `setup` applied to the engine.
pub(super) fn seeded(
    prep: &PreparedEncounter,
    stream: u64,
    runs: u64,
    setup: impl Fn(&mut crate::combat::engine::Engine<'_, '_, crate::rng::SeededRng>),
) -> Vec<Vec<Record>> {
    (0..runs)
        .map(|seed| {
            let mut rng = crate::rng::SeededRng::for_run(stream, seed);
            let mut events = Vec::new();
            let mut e =
                crate::combat::engine::Engine::new(prep, &SimOptions::default(), &mut rng, Some(&mut events));
            setup(&mut e);
            e.run(&mut crate::combat::policy::DefaultPolicy);
            drop(e);
            events
        })
        .collect()
}

/// The first lay on hands of combatant 0 in `events`: target, removed, harms.
fn first_lay(events: &[Record]) -> Option<(usize, Vec<String>, bool)> {
    events.iter().find_map(|r| match &r.event {
        Event::LaysOnHands { who: 0, target, removed, harms, .. } => Some((*target, removed.clone(), *harms)),
        _ => None,
    })
}

/// A paladin 6 (sickened, staggered), an ally fighting an ogre-like foe
/// 10 ft from her.
fn mercy_scene() -> PreparedEncounter {
    let ally = creature("Ally", json!({ "hp_max": 60, "attacks": [melee("axe", 8, "1d12+4")] }));
    prepare(
        arena(6, 10),
        vec![
            ("a", paladin(6, &["sickened", "staggered"]), at(2, 1)),
            ("a", ally, at(2, 3)),
            (
                "b",
                foe("Brute", 200, json!({ "ac": { "total": 12, "touch": 9, "flat_footed": 12 } })),
                at(2, 4),
            ),
        ],
    )
}

#[test]
fn the_policy_lays_on_hands_on_a_staggered_ally_and_not_on_a_merely_sickened_unhurt_one() {
    let prep = mercy_scene();
    for events in seeded(&prep, 71, 12, |e| e.set_condition(1, ConditionId::Staggered)) {
        assert_eq!(first_lay(&events), Some((1, vec!["staggered".to_string()], false)));
        // Her first lay on hands comes before her first attack.
        let lay = events.iter().position(|r| matches!(r.event, Event::LaysOnHands { who: 0, .. }));
        let swing = events.iter().position(|r| matches!(&r.event, Event::Attack(a) if a.who == 0));
        assert!(lay < swing.or(Some(usize::MAX)), "laid hands after swinging");
    }
    // Sickened alone and unhurt: not worth a use (and a standard action).
    for events in seeded(&prep, 71, 12, |e| e.set_condition(1, ConditionId::Sickened)) {
        let early = events
            .iter()
            .take_while(|r| r.round <= 1)
            .any(|r| matches!(&r.event, Event::LaysOnHands { who: 0, target: 1, .. }));
        assert!(!early, "spent a use on an unhurt sickened ally in round 1");
    }
    // Sickened and missing more than the healing's mean (3d6: 10.5): it pays.
    for events in seeded(&prep, 71, 12, |e| {
        e.set_condition(1, ConditionId::Sickened);
        e.st.fighters[1].hp = 40;
    }) {
        assert_eq!(first_lay(&events), Some((1, vec!["sickened".to_string()], false)));
    }
}

#[test]
fn the_policy_lays_on_hands_on_itself_when_staggered_as_its_swift_action() {
    let prep = mercy_scene();
    for events in seeded(&prep, 71, 12, |e| e.set_condition(0, ConditionId::Staggered)) {
        assert_eq!(first_lay(&events), Some((0, vec!["staggered".to_string()], false)));
    }
}

#[test]
fn the_policy_harms_an_undead_its_weapon_cannot_hurt_and_keeps_a_use_for_healing() {
    let shade = || {
        monster(
            "Shade",
            json!([{ "kind": "incorporeal", "name": "incorporeal" }]),
            json!({ "hp_max": 60, "creature_type": "undead", "alignment": "CE",
                    "ac": { "total": 13, "touch": 13, "flat_footed": 12 },
                    "attacks": [melee("touch", 2, "1d4")] }),
        )
    };
    let prep = prepare(arena(6, 10), vec![("a", paladin(4, &[]), at(2, 1)), ("b", shade(), at(2, 4))]);
    let (mut harmed, mut battles) = (0, 0);
    for events in seeded(&prep, 71, 12, |_| {}) {
        battles += 1;
        let harms = events
            .iter()
            .filter(|r| matches!(r.event, Event::LaysOnHands { who: 0, harms: true, .. }))
            .count();
        // Five uses, one kept for healing.
        assert!((1..=4).contains(&harms), "{harms} harms");
        harmed += usize::from(harms > 0);
        assert!(
            !events.iter().any(|r| matches!(&r.event, Event::Attack(a) if a.who == 0)),
            "swung a mundane sword"
        );
    }
    assert_eq!(harmed, battles);
}

#[test]
fn the_policy_keeps_its_sword_against_an_undead_it_hurts_more_with_it() {
    // A paladin 6 with a +1 longsword (+13, 1d8+6, two attacks) against a
    // plain zombie (AC 12): the sword's full attack beats 3d6 by touch.
    let zombie = foe(
        "Zombie",
        120,
        json!({ "creature_type": "undead",
                                             "ac": { "total": 12, "touch": 10, "flat_footed": 12 } }),
    );
    let prep = prepare_magic(
        arena(6, 10),
        vec![("a", data_combatant("data/pcs/paladin6.json"), at(2, 1)), ("b", zombie, at(2, 2))],
    );
    for events in seeded(&prep, 71, 12, |_| {}) {
        assert!(
            !events.iter().any(|r| matches!(r.event, Event::LaysOnHands { harms: true, .. })),
            "laid hands on a zombie her sword cuts better"
        );
    }
}

// ---- spells ----

/// The bonus spells of a spell level for an ability modifier (CRB Table 1-3).
fn bonus_spells(modifier: i32, level: i32) -> u32 {
    if modifier < level { 0 } else { ((modifier - level) / 4 + 1) as u32 }
}

#[test]
fn the_reference_paladins_slots_are_the_class_table_and_charisma_and_their_caster_level_is_level_minus_3() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../data");
    let classes: Value =
        serde_json::from_str(&std::fs::read_to_string(root.join("classes.json")).expect("classes"))
            .expect("json");
    let table = &classes["spells_per_day"]["prepared_low"];
    // Paladin 8 casts nothing yet (her notes say why).
    for level in [2u32, 4, 6] {
        let c = data_combatant(&format!("data/pcs/paladin{level}.json"));
        let cha = crate::dice::ability_modifier(c.abilities.cha_score);
        let mut expected = std::collections::BTreeMap::new();
        for (k, base) in table[level as usize - 1].as_array().expect("a row").iter().enumerate() {
            let n = base.as_u64().expect("a count") as u32 + bonus_spells(cha, k as i32 + 1);
            if n > 0 {
                expected.insert((k + 1).to_string(), n);
            }
        }
        assert_eq!(c.spell_slots, expected, "paladin {level}");
        if !expected.is_empty() {
            assert_eq!(c.caster_level, Some(level - 3), "CRB: paladin level - 3");
            assert_eq!(c.spell_list.as_deref(), Some("paladin"));
        }
    }
    // Level 4 with Cha 14: none from the table, one for Charisma; level 6 with Cha 16: 1 + 1.
    let slots = |l: u32| data_combatant(&format!("data/pcs/paladin{l}.json")).spell_slots;
    assert_eq!(slots(4).get("1"), Some(&1));
    assert_eq!(slots(6).get("1"), Some(&2));
}

#[test]
fn the_paladin_blesses_her_party_while_the_foe_is_out_of_reach_and_favours_herself_after() {
    for file in ["data/pcs/paladin4.json", "data/pcs/paladin6.json"] {
        blesses_then_favours(file);
    }
}

/// The paladin of `file` and an ally 35 ft from a brute with a club (no
/// energy: Resist Energy is never worth a turn).
fn blesses_then_favours(file: &'static str) {
    let placed = || {
        vec![
            ("players", data_combatant(file), at(2, 2)),
            (
                "players",
                creature("Ally", json!({ "hp_max": 60, "attacks": [melee("axe", 8, "1d12+4")] })),
                at(3, 2),
            ),
            (
                "monsters",
                foe("Brute", 120, json!({ "alignment": "CE", "attacks": [melee("club", 8, "2d6+6")] })),
                at(2, 9),
            ),
        ]
    };
    let (mut blessed, runs) = (0, 12);
    for log in super::monsters::battles(placed, runs) {
        let casts: Vec<&String> = log.iter().filter(|l| l.contains("paladin: casts")).collect();
        assert!(casts.len() <= 2, "{file}: Bless and Divine Favor at most: {casts:#?}");
        if let Some(first) = casts.first() {
            assert!(first.contains("casts Bless"), "Bless first: {log:#?}");
            blessed += 1;
            assert!(log.iter().any(|l| l.contains("Bless covers") && l.contains("ally")), "{log:#?}");
        }
        if casts.len() == 2 {
            assert!(casts[1].contains("casts Divine Favor on paladin"), "{log:#?}");
        }
    }
    assert!(blessed >= runs / 3, "{file}: she blessed in {blessed} of {runs} battles");
}
