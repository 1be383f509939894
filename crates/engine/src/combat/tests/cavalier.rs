//! The cavalier rule by rule (APG "Cavalier"): challenge and the order of
//! the lion's bonus, tactician lending Outflank, lion's call.

use serde_json::json;

use super::support::*;
use crate::combat::SimOptions;
use crate::combat::action::{Action, ActionKind, Reason};
use crate::combat::event::Event;
use crate::combat::odds::Swing;
use crate::effects::{Context, Descriptor, Descriptors, SaveKind};

/// A cavalier 4 (Cha 14) with `features`, two challenges and one tactician.
fn cavalier(features: serde_json::Value) -> crate::model::Combatant {
    creature(
        "Cav",
        json!({ "level": 4, "hp_max": 40, "bab": 4,
                "ac": { "total": 20, "touch": 10, "flat_footed": 20 },
                "abilities": { "str_score": 16, "dex_score": 10, "con_score": 12, "int_score": 10,
                               "wis_score": 10, "cha_score": 14 },
                "features": features, "resources": { "challenge": 2, "tactician": 1 },
                "attacks": [melee("longsword", 8, "1d8+3")] }),
    )
}

fn foe(name: &str, hp: i32) -> crate::model::Combatant {
    creature(name, json!({ "hp_max": hp, "attacks": [melee("claw", 5, "1d6")] }))
}

#[test]
fn a_lion_s_challenge_adds_level_damage_and_two_dodge_ac_against_its_foe_and_costs_two_ac_against_the_others()
{
    let prep = prepare(
        arena(4, 8),
        vec![
            ("a", cavalier(json!(["Challenge", "Order of the Lion"])), at(1, 1)),
            ("b", foe("Foe", 30), at(1, 2)),
            ("b", foe("Other", 30), at(2, 1)),
        ],
    );
    let mut b = Bench::new(&[]);
    let mut e = b.engine(&prep, &SimOptions::default());
    let ac =
        |e: &crate::combat::engine::Engine<'_, '_, _>, a: usize| e.st.situation(a, 0, 0, Swing::default()).ac;
    let damage = |e: &crate::combat::engine::Engine<'_, '_, _>, t: usize| {
        let s = e.st.situation(0, 0, t, Swing::default());
        e.st.damage_bonus(0, 0, t, &s, Swing::default())
    };
    assert_eq!((ac(&e, 1), ac(&e, 2), damage(&e, 1), damage(&e, 2)), (20, 20, 0, 0));
    turn(&mut e, 0, vec![Action::at(ActionKind::Challenge, 1)]);
    // Level 4: +4 damage on the foe; lion: +1 + 4/4 = +2 dodge AC against it; −2 AC against the other.
    assert_eq!((ac(&e, 1), ac(&e, 2), damage(&e, 1), damage(&e, 2)), (22, 18, 4, 0));
    assert_eq!(e.st.fighters[0].class.pools.challenge, 1);
    // One challenge at a time.
    turn(&mut e, 0, vec![Action::at(ActionKind::Challenge, 2)]);
    assert_eq!(e.st.last_results(0)[0].reason, Some(Reason::NoAbility));
    // The challenge ends when its foe falls unconscious.
    e.wound(1, 31);
    assert_eq!((ac(&e, 2), e.st.fighters[0].class.challenged), (20, None));
    assert!(b.events.iter().any(|r| matches!(r.event, Event::ChallengeEnds { who: 0, target: 1 })));
    let lines = b.lines();
    assert!(
        lines.iter().any(|l| l.contains("challenges foe (+4 damage, +2 dodge AC against it; 1 left)")),
        "{lines:#?}"
    );
}

#[test]
fn a_challenge_without_the_lion_gives_no_dodge_bonus_and_an_empty_pool_refuses() {
    let mut c = cavalier(json!(["Challenge"]));
    c.resources.insert("challenge".into(), 1);
    let prep = prepare(
        arena(4, 8),
        vec![("a", c, at(1, 1)), ("b", foe("Foe", 30), at(1, 2)), ("b", foe("Other", 30), at(1, 5))],
    );
    let mut b = Bench::new(&[]);
    let mut e = b.engine(&prep, &SimOptions::default());
    turn(&mut e, 0, vec![Action::at(ActionKind::Challenge, 1)]);
    assert_eq!(e.st.situation(1, 0, 0, Swing::default()).ac, 20);
    e.wound(1, 40);
    turn(&mut e, 0, vec![Action::at(ActionKind::Challenge, 2)]);
    assert_eq!(e.st.last_results(0)[0].reason, Some(Reason::NoAbility), "one use");
}

#[test]
fn outflank_lent_by_tactician_raises_the_flanking_bonus_to_four_for_five_rounds() {
    let prep = prepare(
        arena(4, 16),
        vec![
            ("a", cavalier(json!(["Tactician", "Outflank"])), at(1, 1)),
            ("b", foe("Foe", 30), at(1, 2)),
            ("a", creature("Ally", json!({})), at(1, 3)),
            ("a", creature("Far", json!({})), at(1, 12)),
        ],
    );
    let mut b = Bench::new(&[]);
    let mut e = b.engine(&prep, &SimOptions::default());
    let flank =
        |e: &crate::combat::engine::Engine<'_, '_, _>| (e.st.flank_bonus(0, 1), e.st.flank_bonus(2, 1));
    assert_eq!(flank(&e), (2, 2), "the ally lacks Outflank");
    turn(&mut e, 0, vec![Action::new(ActionKind::Tactician)]);
    assert_eq!(flank(&e), (4, 4));
    assert!(!e.st.has_outflank(3), "60 ft away");
    assert_eq!(e.st.fighters[0].class.pools.tactician, 0);
    // 3 + 4/2 = 5 rounds, counted on the cavalier's turns.
    for _ in 0..4 {
        turn(&mut e, 0, vec![]);
    }
    assert_eq!(flank(&e), (4, 4));
    turn(&mut e, 0, vec![]);
    assert_eq!(flank(&e), (2, 2));
    turn(&mut e, 0, vec![Action::new(ActionKind::Tactician)]);
    assert_eq!(e.st.last_results(0)[0].reason, Some(Reason::NoAbility), "once a day at 4th level");
    drop(e);
    assert!(b.events.iter().any(|r| matches!(&r.event, Event::Tactician { allies: 1, rounds: 5, .. })));
}

#[test]
fn tactician_without_a_teamwork_feat_does_nothing() {
    let prep = prepare(
        arena(4, 8),
        vec![("a", cavalier(json!(["Tactician"])), at(1, 1)), ("b", foe("Foe", 30), at(1, 4))],
    );
    let mut b = Bench::new(&[]);
    let mut e = b.engine(&prep, &SimOptions::default());
    turn(&mut e, 0, vec![Action::new(ActionKind::Tactician)]);
    assert_eq!(e.st.last_results(0)[0].reason, Some(Reason::NoAbility));
}

#[test]
fn lion_s_call_gives_allies_in_60_ft_one_competence_on_attacks_and_charisma_on_fear_saves() {
    let prep = prepare(
        arena(4, 20),
        vec![
            ("a", cavalier(json!(["Lion's Call"])), at(1, 1)),
            ("a", creature("Ally", json!({})), at(1, 12)),
            ("a", creature("Far", json!({})), at(1, 19)),
            ("b", foe("Foe", 30), at(2, 12)),
        ],
    );
    let mut b = Bench::new(&[]);
    let mut e = b.engine(&prep, &SimOptions::default());
    let attack = |e: &crate::combat::engine::Engine<'_, '_, _>, a: usize| {
        e.st.situation(a, 0, 3, Swing::default()).attack
    };
    let before = (attack(&e, 1), attack(&e, 2));
    turn(&mut e, 0, vec![Action::new(ActionKind::LionsCall)]);
    assert_eq!((attack(&e, 1), attack(&e, 2)), (before.0 + 1, before.1), "55 ft and 90 ft away");
    let fear = Context { descriptors: Descriptors::of(&[Descriptor::Fear]), ..Context::default() };
    assert_eq!(e.st.save_bonus(1, SaveKind::Will, &fear), 2, "Cha 14");
    assert_eq!(e.st.save_bonus(1, SaveKind::Will, &Context::default()), 0);
    // Cavalier level 4 rounds.
    for _ in 0..4 {
        turn(&mut e, 0, vec![]);
    }
    assert_eq!(attack(&e, 1), before.0);
}
