//! Spectral Hand (`spells::hand`, `policy::hand`; CRB "Spectral Hand"):
//! the caster loses 1d4 hit points that come back when the spell ends;
//! while it lasts, its touch spells of 4th level or lower reach any
//! creature within medium range (100 ft + 10 ft per level) with a +2 on
//! the touch attack and no flanking; the default policy shapes it when the
//! touch spells it would carry beat the caster's other options.

use serde_json::json;

use super::support::*;
use crate::combat::action::{Action, ActionKind, Reason};
use crate::combat::engine::Engine;
use crate::combat::event::{EffectEnd, Event, Record, SpellEvent};
use crate::rng::SeededRng;

const HAND: &str = "Spectral Hand";

/// A level-5 caster of `list` (AC 10, 30 hit points) who knows the hand and `more`.
fn necromancer(list: &str, more: &[&str]) -> crate::model::Combatant {
    let mut spells = vec![HAND];
    spells.extend_from_slice(more);
    caster(
        "Necromancer",
        &spells,
        json!({ "spell_list": list, "hp_max": 30, "ac": { "total": 10, "touch": 10, "flat_footed": 10 },
                "attacks": [melee("dagger", 0, "1d4")] }),
    )
}

/// A foe with many hit points (AC 10, touch 10).
fn dummy() -> crate::model::Combatant {
    creature("Dummy", json!({ "hp_max": 100000, "attacks": [melee("club", 0, "1d6")] }))
}

/// The caster (0) shapes its hand (`None` when a foe beside it made it
/// lose the spell).
fn try_hand<'a, 'p>(
    prep: &'p crate::combat::PreparedEncounter,
    rng: &'a mut SeededRng,
    events: &'a mut Vec<Record>,
) -> Option<Engine<'a, 'p, SeededRng>> {
    let spell = prep.spell_index(HAND).expect("the spell");
    let mut e = started(prep, rng, Some(events));
    let r = e.execute_for_test(0, Action::cast(spell, None));
    assert!(r.ok, "{:?}", r.reason);
    e.start_round();
    e.st.hand_of(0).is_some().then_some(e)
}

/// The caster (0) shapes its hand, out of every foe's reach.
fn with_hand<'a, 'p>(
    prep: &'p crate::combat::PreparedEncounter,
    rng: &'a mut SeededRng,
    events: &'a mut Vec<Record>,
) -> Engine<'a, 'p, SeededRng> {
    try_hand(prep, rng, events).expect("no foe in reach: the hand is shaped")
}

fn hand_formed(events: &[Record]) -> Vec<u32> {
    events
        .iter()
        .filter_map(|r| match &r.event {
            Event::Spell { who: 0, what: SpellEvent::HandFormed { hp_lost }, .. } => Some(*hp_lost),
            _ => None,
        })
        .collect()
}

/// The bonuses of the caster's touch attacks on combatant 1.
fn touch_bonuses(events: &[Record]) -> Vec<i32> {
    events
        .iter()
        .filter_map(|r| match &r.event {
            Event::TouchAttack { who: 0, target: 1, bonus, .. } => Some(*bonus),
            _ => None,
        })
        .collect()
}

#[test]
fn the_hand_costs_1d4_hit_points_lost_not_dealt() {
    let prep = prepare_magic(
        arena(4, 8),
        vec![("a", necromancer("wizard", &[]), at(1, 1)), ("b", dummy(), at(1, 6))],
    );
    let mut seen = [0u32; 5];
    let n = 400;
    for seed in 0..n {
        let mut rng = SeededRng::for_run(61, seed);
        let mut events = Vec::new();
        let e = with_hand(&prep, &mut rng, &mut events);
        let hp = e.st.fighters[0].hp;
        drop(e);
        let [lost] = hand_formed(&events)[..] else { panic!("one hand, seed {seed}") };
        assert!((1..=4).contains(&lost), "seed {seed}: {lost}");
        assert_eq!(hp, 30 - lost as i32, "seed {seed}");
        // A loss, not damage: no damage event on the caster.
        assert!(!events.iter().any(|r| matches!(&r.event, Event::SpellDamage { target: 0, .. })));
        seen[lost as usize] += 1;
    }
    // Each face about a quarter of the time (n/4 = 100, 4 sigma ~ 35).
    for k in 1..=4 {
        assert!((65..=135).contains(&seen[k]), "face {k}: {seen:?}");
    }
}

#[test]
fn the_hit_points_come_back_when_the_spell_ends_up_to_the_maximum() {
    let prep = prepare_magic(
        arena(4, 8),
        vec![("a", necromancer("wizard", &[]), at(1, 1)), ("b", dummy(), at(1, 6))],
    );
    for seed in 0..40 {
        let mut rng = SeededRng::for_run(62, seed);
        let mut events = Vec::new();
        let mut e = with_hand(&prep, &mut rng, &mut events);
        let k =
            e.st.fighters[0].effects.iter().position(|x| &*x.effect.name == HAND).expect("the hand's effect");
        // Healed to full meanwhile: nothing more comes back.
        let healed = seed % 2 == 0;
        if healed {
            e.st.fighters[0].hp = 30;
        }
        e.remove_effect_at(0, k, EffectEnd::Dispelled);
        let hp = e.st.fighters[0].hp;
        drop(e);
        let lost = hand_formed(&events)[0];
        let back: Vec<u32> = events
            .iter()
            .filter_map(|r| match &r.event {
                Event::Spell { who: 0, what: SpellEvent::HandReturns { hp }, .. } => Some(*hp),
                _ => None,
            })
            .collect();
        assert_eq!(hp, 30, "seed {seed}");
        assert_eq!(back, vec![if healed { 0 } else { lost }], "seed {seed}");
    }
}

#[test]
fn a_touch_spell_reaches_medium_range_through_the_hand_and_not_beyond() {
    // Caster level 5: 150 ft. The foe 150 ft away, then 155 ft.
    for (col, reaches) in [(31, true), (32, false)] {
        let prep = prepare_magic(
            arena(3, 34),
            vec![("a", necromancer("wizard", &["Shocking Grasp"]), at(1, 1)), ("b", dummy(), at(1, col))],
        );
        let sg = prep.spell_index("Shocking Grasp").unwrap();
        // Without the hand: out of reach.
        let mut rng = SeededRng::for_run(63, 0);
        let mut e = started(&prep, &mut rng, None);
        let r = e.execute_for_test(0, Action::cast(sg, Some(1)));
        assert_eq!(r.reason, Some(Reason::OutOfRange));
        drop(e);
        let mut rng = SeededRng::for_run(63, 1);
        let mut events = Vec::new();
        let mut e = with_hand(&prep, &mut rng, &mut events);
        let r = e.execute_for_test(0, Action::cast(sg, Some(1)));
        drop(e);
        assert_eq!(r.ok, reaches, "col {col}: {:?}", r.reason);
        if reaches {
            let by_hand = events.iter().any(|r| {
                matches!(&r.event, Event::Spell { who: 0, what: SpellEvent::ByHand { target: 1 }, .. })
            });
            assert!(by_hand && touch_bonuses(&events).len() == 1, "col {col}");
        } else {
            assert_eq!(r.reason, Some(Reason::OutOfRange));
        }
    }
}

#[test]
fn a_spell_above_fourth_level_is_not_carried() {
    // A witch: Inflict Light Wounds is 1st level for it, Inflict Critical Wounds 5th.
    let prep = prepare_magic(
        arena(3, 12),
        vec![
            ("a", necromancer("witch", &["Inflict Light Wounds", "Inflict Critical Wounds"]), at(1, 1)),
            ("b", dummy(), at(1, 8)),
        ],
    );
    for (name, reaches) in [("Inflict Light Wounds", true), ("Inflict Critical Wounds", false)] {
        let spell = prep.spell_index(name).unwrap();
        let mut rng = SeededRng::for_run(64, 0);
        let mut events = Vec::new();
        let mut e = with_hand(&prep, &mut rng, &mut events);
        let r = e.execute_for_test(0, Action::cast(spell, Some(1)));
        assert_eq!(r.ok, reaches, "{name}: {:?}", r.reason);
    }
}

/// The touch bonus of Shocking Grasp on the foe beside the caster, with
/// or without the hand, with or without an ally flanking the foe.
fn touch_bonus(hand: bool, flanked: bool) -> i32 {
    let mut placed =
        vec![("a", necromancer("wizard", &["Shocking Grasp"]), at(2, 2)), ("b", dummy(), at(2, 3))];
    if flanked {
        placed.push((
            "a",
            creature("Ally", json!({ "hp_max": 100, "attacks": [melee("sword", 0, "1d8")] })),
            at(2, 4),
        ));
    }
    let prep = prepare_magic(arena(5, 6), placed);
    let sg = prep.spell_index("Shocking Grasp").unwrap();
    // The first run whose casting goes off (cast defensively beside the foe).
    for seed in 0..50 {
        let mut rng = SeededRng::for_run(65, seed);
        let mut events = Vec::new();
        let mut e = if hand {
            let Some(e) = try_hand(&prep, &mut rng, &mut events) else { continue };
            e
        } else {
            started(&prep, &mut rng, Some(&mut events))
        };
        let r = e.execute_for_test(0, Action::cast(sg, Some(1)).defensively());
        assert!(r.ok, "{:?}", r.reason);
        drop(e);
        if let [bonus] = touch_bonuses(&events)[..] {
            return bonus;
        }
    }
    panic!("no casting went off in 50 runs")
}

#[test]
fn the_hand_adds_two_to_the_touch_and_never_flanks() {
    let plain = touch_bonus(false, false);
    assert_eq!(touch_bonus(false, true), plain + 2, "the caster's own touch flanks");
    assert_eq!(touch_bonus(true, false), plain + 2, "the hand's +2");
    assert_eq!(touch_bonus(true, true), plain + 2, "the hand does not flank");
}

#[test]
fn a_held_charge_is_discharged_through_the_hand() {
    let prep = prepare_magic(
        arena(3, 14),
        vec![("a", necromancer("wizard", &["Chill Touch"]), at(1, 1)), ("b", dummy(), at(1, 10))],
    );
    let ct = prep.spell_index("Chill Touch").unwrap();
    let mut rng = SeededRng::for_run(66, 0);
    let mut events = Vec::new();
    let mut e = with_hand(&prep, &mut rng, &mut events);
    // One touch per level: after the first, four charges are held.
    assert!(e.execute_for_test(0, Action::cast(ct, Some(1))).ok);
    assert!(e.st.fighters[0].casting.held.is_some());
    e.start_round();
    let r = e.execute_for_test(0, Action::at(ActionKind::DischargeSpell, 1));
    drop(e);
    assert!(r.ok, "{:?}", r.reason);
    assert_eq!(touch_bonuses(&events).len(), 2);
}

/// The caster's spell casts under the default policy over a battle, in order.
fn casts(prep: &crate::combat::PreparedEncounter, seed: u64) -> Vec<String> {
    policy_battle(prep, 67, seed)
        .iter()
        .filter_map(|r| match &r.event {
            Event::Casts { who: 0, spell, .. } => Some(spell.clone()),
            _ => None,
        })
        .collect()
}

#[test]
fn a_necromancer_whose_best_spells_are_touches_shapes_the_hand_and_touches_from_afar() {
    // Foes 40 ft away that do not come (no way to reach it: they shoot).
    let archer = || {
        creature(
            "Archer",
            json!({ "hp_max": 60, "speed_land_ft": 0, "attacks": [ranged("bow", 0, "1d4", 100)] }),
        )
    };
    let prep = prepare_magic(
        arena(6, 14),
        vec![
            ("a", necromancer("wizard", &["Shocking Grasp", "Vampiric Touch"]), at(2, 1)),
            ("b", archer(), at(2, 9)),
            ("b", archer(), at(3, 9)),
        ],
    );
    for seed in 0..30 {
        let casts = casts(&prep, seed);
        assert_eq!(casts.first().map(String::as_str), Some(HAND), "seed {seed}: {casts:?}");
        assert_eq!(casts.iter().filter(|c| c.as_str() == HAND).count(), 1, "once, seed {seed}: {casts:?}");
        assert!(casts.len() >= 2, "then touches, seed {seed}: {casts:?}");
    }
}

#[test]
fn a_caster_with_better_ranged_spells_keeps_them() {
    let prep = prepare_magic(
        arena(6, 14),
        vec![
            // 30 ft: within the ray's close range (35 ft at caster level 5).
            ("a", necromancer("wizard", &["Shocking Grasp", "Scorching Ray"]), at(2, 1)),
            ("b", dummy(), at(2, 7)),
        ],
    );
    let out = opening_plan(&prep, 1);
    let cast = out.iter().find(|a| a.kind == ActionKind::CastSpell).expect("a spell");
    assert_eq!(cast.spell, prep.spell_index("Scorching Ray"), "{out:?}");
}

#[test]
fn a_fire_shield_does_not_answer_the_hand() {
    let shielded = caster(
        "Pyromancer",
        &["Fire Shield"],
        json!({ "spell_list": "wizard", "hp_max": 100000, "ac": { "total": 10, "touch": 10, "flat_footed": 10 } }),
    );
    let prep = prepare_magic(
        arena(4, 6),
        vec![("a", necromancer("wizard", &["Shocking Grasp"]), at(1, 1)), ("b", shielded, at(1, 2))],
    );
    let (fs, sg) = (prep.spell_index("Fire Shield").unwrap(), prep.spell_index("Shocking Grasp").unwrap());
    let mut hits = 0;
    for seed in 0..80 {
        let mut rng = SeededRng::for_run(68, seed);
        let mut events = Vec::new();
        let Some(mut e) = try_hand(&prep, &mut rng, &mut events) else { continue };
        assert!(e.execute_for_test(1, Action::cast(fs, Some(1))).ok);
        e.start_round();
        assert!(e.execute_for_test(0, Action::cast(sg, Some(1)).defensively()).ok);
        drop(e);
        hits += events
            .iter()
            .filter(|r| matches!(&r.event, Event::TouchAttack { who: 0, hit: true, .. }))
            .count();
        assert!(
            !events
                .iter()
                .any(|r| matches!(&r.event, Event::Spell { what: SpellEvent::Retaliates { .. }, .. })),
            "seed {seed}: {:#?}",
            english(&prep, &events)
        );
    }
    assert!(hits > 15, "{hits}");
}
