//! The monk, rule by rule (CRB "Monk", "Stunning Fist"): flurry of blows by
//! level, the ki pool, Stunning Fist, the AC bonus lost while helpless, and
//! the default policy's use of them over many seeds.

use serde_json::json;

use super::monsters::battles;
use super::support::*;
use crate::combat::SimOptions;
use crate::combat::action::{Action, ActionKind, Reason};
use crate::combat::engine::Engine;
use crate::combat::event::{Event, KiPower, ModSource, StunOutcome};
use crate::combat::odds::Swing;
use crate::combat::style::Style;
use crate::effects::ConditionId;
use crate::rng::ScriptedRng;

type E<'a, 'p> = Engine<'a, 'p, ScriptedRng>;

/// The base attack bonus of a monk of `level` (three quarters).
fn monk_bab(level: u32) -> i32 {
    (level * 3 / 4) as i32
}

/// A human monk of `level` with Str 16 (+3), Wis 16 (+3) and its unarmed
/// strike printed at BAB + 3; `extra` features and resources join the monk's own.
fn monk(level: u32, resources: serde_json::Value) -> crate::model::Combatant {
    let bab = monk_bab(level);
    creature(
        "Monk",
        json!({ "level": level, "hp_max": 40, "bab": bab,
                "ac": { "total": 18, "touch": 18, "flat_footed": 16 },
                "abilities": { "str_score": 16, "dex_score": 14, "con_score": 12, "int_score": 10,
                               "wis_score": 16, "cha_score": 8 },
                "saves": { "fort": 5, "ref": 6, "will": 7 },
                "features": ["Flurry of Blows", "Stunning Fist", "Ki Pool", "AC Bonus"],
                "resources": resources,
                "attacks": [{ "name": "unarmed strike", "kind": "melee", "attack_bonus": bab + 3,
                              "damage": [{ "formula": "1d8+3", "types": ["bludgeoning"] }] }] }),
    )
}

fn foe(name: &str, overrides: serde_json::Value) -> crate::model::Combatant {
    let mut base = json!({ "hp_max": 200, "saves": { "fort": 2, "ref": 2, "will": 2 },
                           "attacks": [melee("claw", 5, "1d6")] });
    if let (serde_json::Value::Object(b), serde_json::Value::Object(o)) = (&mut base, overrides) {
        b.extend(o);
    }
    creature(name, base)
}

/// The attack bonuses of `i`'s flurry with its first attack (no haste, no ki).
fn flurry(e: &E<'_, '_>, i: usize) -> Vec<i32> {
    let printed = e.st.prep.fighters[i].offense.attacks[0].bonus;
    e.st.flurry_penalties(i, 0).iter().map(|p| printed + e.st.flurry_attack(i) - p).collect()
}

/// The attack events of the transcript: (attacker, bonus, flurry note).
fn attacks(events: &[crate::combat::event::Record]) -> Vec<(usize, i32, Option<i32>)> {
    events
        .iter()
        .filter_map(|r| match &r.event {
            Event::Attack(a) => {
                let note = a.notes.iter().find_map(|n| match n {
                    crate::combat::event::AttackNote::Modifier { source: ModSource::Flurry, value } => {
                        Some(*value)
                    }
                    _ => None,
                });
                Some((a.who, a.bonus, note))
            }
            _ => None,
        })
        .collect()
}

#[test]
fn flurry_uses_the_monk_level_as_base_attack_bonus_with_one_more_attack_two_from_8th_three_from_15th_at_minus_two()
 {
    // CRB Table 3-10 "Flurry of Blows Attack Bonus", + Str 3.
    let expected: [(u32, &[i32]); 8] = [
        (1, &[2, 2]),
        (4, &[5, 5]),
        (6, &[7, 7, 2]),
        (8, &[9, 9, 4, 4]),
        (11, &[12, 12, 7, 7, 2]),
        (12, &[13, 13, 8, 8, 3]),
        (15, &[16, 16, 11, 11, 6, 6]),
        (16, &[17, 17, 12, 12, 7, 7, 2]),
    ];
    for (level, bonuses) in expected {
        let prep = prepare(
            arena(3, 6),
            vec![("a", monk(level, json!({})), at(1, 1)), ("b", foe("Foe", json!({})), at(1, 2))],
        );
        let mut b = Bench::new(&[]);
        let e = b.engine(&prep, &SimOptions::default());
        assert_eq!(flurry(&e, 0), bonuses, "monk {level}");
    }
}

#[test]
fn a_declared_flurry_makes_its_attacks_on_the_event_stream_and_ki_buys_one_more() {
    let prep = prepare(
        arena(3, 6),
        vec![
            ("a", monk(4, json!({ "ki_pool": 5, "stunning_fist": 4 })), at(1, 1)),
            ("b", foe("Foe", json!({})), at(1, 2)),
        ],
    );
    // Every attack hits (d20 15 against AC 10) for 1d8 = 4.
    let mut b = Bench::new(&[15, 4, 15, 4, 15, 4, 15, 4, 15, 4, 15, 4]);
    let mut e = b.engine(&prep, &SimOptions::default());
    // Without the flurry: one attack at +6 (BAB 3).
    turn(&mut e, 0, vec![Action::at(ActionKind::FullAttack, 1)]);
    // Flurry: +5/+5 (monk level 4, −2).
    turn(&mut e, 0, vec![Action::declare(Style::Flurry), Action::at(ActionKind::FullAttack, 1)]);
    // Ki: one more at the highest bonus, a swift action.
    turn(
        &mut e,
        0,
        vec![
            Action::declare(Style::Flurry),
            Action::new(ActionKind::KiPool),
            Action::at(ActionKind::FullAttack, 1),
        ],
    );
    assert_eq!(e.st.fighters[0].class.pools.ki_pool, 4);
    assert_eq!(e.st.hp(1), 200 - 6 * 7);
    drop(e);
    let seen = attacks(&b.events);
    assert_eq!(
        seen,
        [
            (0, 6, None),
            (0, 5, Some(-1)),
            (0, 5, Some(-1)),
            (0, 5, Some(-1)),
            (0, 5, Some(-1)),
            (0, 5, Some(-1))
        ]
    );
    assert!(
        b.events
            .iter()
            .any(|r| matches!(r.event, Event::Ki { who: 0, power: KiPower::ExtraAttack, left: 4 }))
    );
    let lines = b.lines();
    assert!(lines.iter().any(|l| l.contains("monk: flurry of blows (-1 on every attack")), "{lines:#?}");
    assert!(
        lines.iter().any(|l| l.contains("monk: spends ki: one more flurry attack (4 left)")),
        "{lines:#?}"
    );
}

#[test]
fn ki_needs_points_and_its_dodge_gives_four_ac_until_the_next_turn() {
    let prep = prepare(
        arena(3, 6),
        vec![("a", monk(4, json!({ "ki_pool": 1 })), at(1, 1)), ("b", foe("Foe", json!({})), at(1, 3))],
    );
    let mut b = Bench::new(&[]);
    let mut e = b.engine(&prep, &SimOptions::default());
    let ac = |e: &E<'_, '_>| e.st.situation(1, 0, 0, Swing::default()).ac;
    // Acted once: no longer flat-footed.
    turn(&mut e, 0, vec![]);
    let before = ac(&e);
    turn(&mut e, 0, vec![Action::new(ActionKind::KiPool).with_option(1)]);
    assert_eq!(ac(&e), before + 4);
    turn(&mut e, 0, vec![Action::new(ActionKind::KiPool)]);
    assert_eq!(e.st.last_results(0)[0].reason, Some(Reason::NoAbility), "no point left");
    assert_eq!(ac(&e), before, "over at the start of its next turn");
}

#[test]
fn stunning_fist_stuns_on_a_failed_fortitude_save_until_the_monk_s_next_turn_dc_ten_half_level_wisdom() {
    let prep = prepare(
        arena(3, 6),
        vec![
            ("a", monk(4, json!({ "stunning_fist": 4 })), at(1, 1)),
            ("b", foe("Foe", json!({})), at(1, 2)),
            ("b", foe("Skel", json!({ "creature_type": "undead", "alignment": "NE" })), at(2, 1)),
        ],
    );
    // Hit (15), 1d8 = 4, Fort d20 12 + 2 = 14 < DC 15 (10 + 2 + Wis 3): stunned.
    let mut b = Bench::new(&[15, 4, 12, 3, 15, 4, 15, 4, 19]);
    let mut e = b.engine(&prep, &SimOptions::default());
    assert_eq!(e.st.prep.fighters[0].abilities.as_deref().and_then(|a| a.stunning_fist_dc), Some(15));
    turn(&mut e, 0, vec![Action::at(ActionKind::StunningFist, 1), Action::at(ActionKind::Attack, 1)]);
    assert!(e.st.has_condition(1, ConditionId::Stunned));
    assert_eq!(e.st.fighters[0].class.pools.stunning_fist, 3);
    // Once a round: refused again in the same round.
    turn(&mut e, 0, vec![Action::at(ActionKind::StunningFist, 1)]);
    assert_eq!(e.st.last_results(0)[0].reason, Some(Reason::NoAbility));
    e.start_round();
    // The stun lasts until the start of the monk's next turn; a miss (3) spends the use.
    turn(&mut e, 0, vec![Action::at(ActionKind::StunningFist, 1), Action::at(ActionKind::Attack, 1)]);
    assert!(!e.st.has_condition(1, ConditionId::Stunned));
    assert_eq!(e.st.fighters[0].class.pools.stunning_fist, 2);
    e.start_round();
    // An undead cannot be stunned; the use is spent by the hit.
    turn(&mut e, 0, vec![Action::at(ActionKind::StunningFist, 2), Action::at(ActionKind::Attack, 2)]);
    assert_eq!(e.st.fighters[0].class.pools.stunning_fist, 1);
    e.start_round();
    // A save of 19 + 2 = 21 resists.
    turn(&mut e, 0, vec![Action::at(ActionKind::StunningFist, 1), Action::at(ActionKind::Attack, 1)]);
    assert!(!e.st.has_condition(1, ConditionId::Stunned));
    drop(e);
    let outcomes: Vec<StunOutcome> = b
        .events
        .iter()
        .filter_map(|r| match r.event {
            Event::StunningFist { who: 0, dc: 15, outcome, .. } => Some(outcome),
            _ => None,
        })
        .collect();
    assert_eq!(
        outcomes,
        [StunOutcome::Stunned, StunOutcome::Missed, StunOutcome::Immune, StunOutcome::Saved]
    );
    let lines = b.lines();
    assert!(
        lines.iter().any(|l| l.contains("monk: stunning fist on foe (Fort DC 15): stunned (3 left)")),
        "{lines:#?}"
    );
}

#[test]
fn the_monk_ac_bonus_is_lost_while_helpless() {
    let plain = creature(
        "Plain",
        json!({ "abilities": { "str_score": 16, "dex_score": 14, "con_score": 12, "int_score": 10,
                               "wis_score": 16, "cha_score": 8 },
                "ac": { "total": 18, "touch": 18, "flat_footed": 16 } }),
    );
    let prep = prepare(
        arena(3, 6),
        vec![
            ("a", monk(8, json!({})), at(1, 1)),
            ("a", plain, at(2, 1)),
            ("b", foe("Foe", json!({})), at(1, 2)),
        ],
    );
    let mut b = Bench::new(&[]);
    let mut e = b.engine(&prep, &SimOptions::default());
    let ac = |e: &E<'_, '_>, t: usize| e.st.situation(2, 0, t, Swing::default()).ac;
    assert_eq!(ac(&e, 0), ac(&e, 1));
    e.set_condition(0, ConditionId::Paralyzed);
    e.set_condition(1, ConditionId::Paralyzed);
    // Wis 3 + 8 / 4 = 5.
    assert_eq!(ac(&e, 0), ac(&e, 1) - 5);
}

#[test]
fn the_policy_flurries_spends_ki_and_stuns_a_foe_worth_stunning() {
    let placed = || {
        vec![
            ("players", data_combatant("data/pcs/monk4.json"), at(3, 3)),
            (
                "monsters",
                foe(
                    "Ogre",
                    json!({ "hp_max": 30, "ac": { "total": 14, "touch": 9, "flat_footed": 14 },
                                   "saves": { "fort": 3, "ref": 0, "will": 1 },
                                   "attacks": [melee("club", 7, "2d8+7")] }),
                ),
                at(3, 7),
            ),
            (
                "monsters",
                foe(
                    "Zombie",
                    json!({ "hp_max": 20, "creature_type": "undead", "alignment": "NE",
                                     "attacks": [melee("slam", 4, "1d6+3")] }),
                ),
                at(5, 9),
            ),
        ]
    };
    let logs = battles(placed, 12);
    let (mut flurries, mut ki, mut stuns) = (0, 0, 0);
    for log in &logs {
        flurries += log.iter().filter(|l| l.contains("monk: flurry of blows")).count();
        ki += log.iter().filter(|l| l.contains("monk: spends ki")).count();
        stuns += log.iter().filter(|l| l.contains("monk: stunning fist on ogre")).count();
        assert!(log.iter().all(|l| !l.contains("stunning fist on zombie")), "never on an undead: {log:#?}");
    }
    assert!(flurries >= 12, "a flurry in every battle: {flurries}");
    assert!(ki >= 12 && stuns >= 12, "ki {ki}, stuns {stuns}");
}
