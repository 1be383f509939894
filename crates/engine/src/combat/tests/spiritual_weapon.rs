//! Spell constructs (`spells::construct`, `policy::construct`; CRB
//! "Spiritual Weapon"): the weapon strikes when cast and at the end of each
//! of its caster's turns for its caster level in rounds, at the caster's
//! base attack bonus plus its casting modifier, 1d8 + 1 per three caster
//! levels of force; iterative attacks only on a target it keeps; spell
//! resistance on its first strike; redirecting it is a move action; the
//! default policy casts it and redirects it when its foe falls.

use serde_json::json;

use super::support::*;
use crate::combat::action::{Action, ActionKind, Reason};
use crate::combat::event::{AttackStep, Event, Record, SpellEvent};
use crate::rng::SeededRng;

const SW: &str = "Spiritual Weapon";

/// A cleric of caster level 5, Wisdom 16 (+3), base attack bonus `bab`.
fn cleric(bab: i32) -> crate::model::Combatant {
    caster("Cleric", &[SW], json!({ "bab": bab, "hp_max": 40, "attacks": [melee("mace", 3, "1d8")] }))
}

/// A target that never falls and never fights back: AC 16, `extra` fields.
fn post(name: &str, extra: serde_json::Value) -> crate::model::Combatant {
    let mut o =
        json!({ "hp_max": 100000, "ac": { "total": 16, "touch": 10, "flat_footed": 16 }, "attacks": [] });
    o.as_object_mut().unwrap().extend(extra.as_object().unwrap().clone());
    creature(name, o)
}

fn scene(bab: i32, foes: Vec<crate::model::Combatant>) -> crate::combat::PreparedEncounter {
    let mut placed = vec![("a", cleric(bab), at(2, 1))];
    for (k, f) in foes.into_iter().enumerate() {
        placed.push(("b", f, at(2 + 2 * k as i32, 6)));
    }
    prepare_magic(arena(9, 12), placed)
}

/// Construct attacks of combatant 0: (round, target, bonus, hit).
fn strikes(events: &[Record]) -> Vec<(u32, usize, i32, bool)> {
    events
        .iter()
        .filter_map(|r| match &r.event {
            Event::Attack(a) if a.who == 0 && a.weapon == SW => {
                let hit = !matches!(a.steps.first(), Some(AttackStep::Miss { .. }));
                Some((r.round, a.target, a.bonus, hit))
            }
            _ => None,
        })
        .collect()
}

/// Casts the weapon at `target` in round 1, then plays `rounds` more
/// rounds of the cleric doing nothing else (`redirect`: a redirection to
/// combatant 2 in round 3).
fn run(prep: &crate::combat::PreparedEncounter, seed: u64, rounds: u32, redirect: bool) -> Vec<Record> {
    let spell = prep.spell_index(SW).expect("the spell");
    let mut rng = SeededRng::for_run(31, seed);
    let mut events: Vec<Record> = Vec::new();
    let mut e = started(prep, &mut rng, Some(&mut events));
    let r = e.execute_for_test(0, Action::cast(spell, Some(1)));
    assert!(r.ok, "{:?}", r.reason);
    for round in 2..=rounds + 1 {
        e.start_round();
        let mut plan = Vec::new();
        if redirect && round == 3 {
            let mut a = Action::at(ActionKind::RedirectSpell, 2);
            a.spell = Some(spell);
            plan.push(a);
        }
        e.take_turn(0, &mut script(plan));
    }
    drop(e);
    events
}

#[test]
fn the_weapon_strikes_once_a_round_for_its_caster_level_at_bab_plus_wisdom_then_fades() {
    let prep = scene(3, vec![post("Post", json!({}))]);
    for seed in 0..10 {
        let events = run(&prep, seed, 7, false);
        let s = strikes(&events);
        // Cast in round 1, caster level 5: rounds 1 to 5, one attack each at +3 +3.
        let rounds: Vec<u32> = s.iter().map(|x| x.0).collect();
        assert_eq!(rounds, [1, 2, 3, 4, 5], "seed {seed}");
        assert!(s.iter().all(|x| x.1 == 1 && x.2 == 6), "{s:?}");
        let ends: Vec<u32> = events
            .iter()
            .filter(|r| matches!(&r.event, Event::Spell { what: SpellEvent::ConstructEnds, .. }))
            .map(|r| r.round)
            .collect();
        assert_eq!(ends, [6], "seed {seed}");
        // Force damage, 1d8 + 1 at caster level 5 (doubled on a critical hit).
        for r in &events {
            if let Event::SpellDamage { who: 0, target: 1, rolled, types, .. } = &r.event {
                assert!((2..=18).contains(rolled), "{rolled}");
                assert_eq!(types, &["force".to_string()]);
            }
        }
    }
}

#[test]
fn its_hit_rate_is_the_closed_form_of_d20_plus_bonus_against_ac() {
    // +6 against AC 16: a 10 or better, 11 chances in 20.
    let prep = scene(3, vec![post("Post", json!({}))]);
    let (mut hits, mut n, mut dealt, mut plain) = (0u32, 0u32, 0u64, 0u32);
    for seed in 0..240 {
        let events = run(&prep, seed, 5, false);
        for (_, _, _, hit) in strikes(&events) {
            n += 1;
            hits += u32::from(hit);
        }
        for r in &events {
            if let Event::SpellDamage { who: 0, rolled, .. } = &r.event
                && *rolled <= 9
            {
                dealt += u64::from(*rolled);
                plain += 1;
            }
        }
    }
    let p = f64::from(hits) / f64::from(n);
    let sigma = (0.55 * 0.45 / f64::from(n)).sqrt();
    assert!((p - 0.55).abs() < 4.0 * sigma, "hit rate {p} over {n}");
    // 1d8 + 1: a mean of 5.5 (crits and their rolls above 9 aside).
    let mean = dealt as f64 / f64::from(plain);
    assert!((mean - 5.5).abs() < 0.35, "mean damage {mean} over {plain}");
}

#[test]
fn iterative_attacks_come_only_on_a_target_it_keeps_and_a_redirection_costs_them_a_round() {
    // Base attack bonus 6: +9 and +4 once the weapon keeps its target.
    let prep = scene(6, vec![post("Post", json!({})), post("Other", json!({}))]);
    let events = run(&prep, 3, 4, true);
    let s: Vec<(u32, usize, i32)> = strikes(&events).into_iter().map(|x| (x.0, x.1, x.2)).collect();
    assert_eq!(s, [(1, 1, 9), (2, 1, 9), (2, 1, 4), (3, 2, 9), (4, 2, 9), (4, 2, 4), (5, 2, 9), (5, 2, 4)]);
    let redirected = events.iter().any(|r| {
        r.round == 3
            && matches!(&r.event, Event::Spell { who: 0, what: SpellEvent::Redirected { target: 2 }, .. })
    });
    assert!(redirected);
}

#[test]
fn spell_resistance_is_checked_on_the_first_strike_and_a_resisted_weapon_is_gone() {
    let prep = scene(3, vec![post("Demon", json!({ "spell_resistance": 40 }))]);
    let events = run(&prep, 1, 3, false);
    assert!(strikes(&events).is_empty());
    let resisted = events.iter().any(|r| {
        matches!(&r.event, Event::Spell { what: SpellEvent::Resistance { overcome: false, .. }, .. })
    });
    let gone = events
        .iter()
        .any(|r| r.round == 1 && matches!(&r.event, Event::Spell { what: SpellEvent::ConstructEnds, .. }));
    assert!(resisted && gone);
}

#[test]
fn a_redirection_needs_a_construct_and_a_foe_in_range() {
    let prep = scene(3, vec![post("Post", json!({})), post("Other", json!({}))]);
    let spell = prep.spell_index(SW).expect("the spell");
    let mut rng = SeededRng::for_run(31, 0);
    let mut e = started(&prep, &mut rng, None);
    let mut a = Action::at(ActionKind::RedirectSpell, 2);
    a.spell = Some(spell);
    assert_eq!(e.execute_for_test(0, a).reason, Some(Reason::NoConstruct));
    // Cast without a creature to strike: refused before anything is spent.
    assert_eq!(e.execute_for_test(0, Action::cast(spell, None)).reason, Some(Reason::MissingTarget));
    assert_eq!(e.st.fighters[0].casting.slots[2], 5);
}

/// A cleric with only Spiritual Weapon and a mace against two goblins 25 ft off.
fn goblins() -> crate::combat::PreparedEncounter {
    let goblin = || {
        creature(
            "Goblin",
            json!({ "hp_max": 9, "ac": { "total": 14, "touch": 12, "flat_footed": 13 },
                    "attacks": [melee("short sword", 2, "1d4")] }),
        )
    };
    prepare_magic(
        arena(9, 12),
        vec![("a", cleric(3), at(2, 1)), ("b", goblin(), at(2, 6)), ("b", goblin(), at(4, 6))],
    )
}

#[test]
fn the_default_policy_casts_the_weapon_first_and_redirects_it_when_its_foe_falls() {
    let prep = goblins();
    let (mut first, mut redirected, mut fell) = (0, 0, 0);
    for seed in 0..30 {
        let events = policy_battle(&prep, 113, seed);
        let cast_first = events
            .iter()
            .find_map(|r| match &r.event {
                Event::Casts { who: 0, spell, .. } => Some(spell == SW),
                Event::Attack(a) if a.who == 0 && a.weapon != SW => Some(false),
                _ => None,
            })
            .unwrap_or(false);
        first += usize::from(cast_first);
        // Its first target fell while the other goblin still fought: redirected after.
        let s = strikes(&events);
        let Some(&(_, t0, _, _)) = s.first() else { continue };
        let down = events.iter().find_map(|r| match &r.event {
            Event::SpellDamage { target, hp_after, .. } if *target == t0 && *hp_after <= 0 => Some(r.round),
            Event::Attack(a)
                if a.target == t0
                    && a.steps
                        .iter()
                        .any(|x| matches!(x, AttackStep::Damage { hp_after, .. } if *hp_after <= 0)) =>
            {
                Some(r.round)
            }
            _ => None,
        });
        let other = 3 - t0;
        let Some(round) = down else { continue };
        let other_up_after = events
            .iter()
            .any(|r| r.round > round + 1 && matches!(&r.event, Event::Attack(a) if a.who == other));
        let lasts = events.iter().all(|r| {
            r.round > round + 1 || !matches!(&r.event, Event::Spell { what: SpellEvent::ConstructEnds, .. })
        });
        if !other_up_after || !lasts {
            continue;
        }
        fell += 1;
        let ok = events.iter().any(|r| {
            matches!(&r.event, Event::Spell { who: 0, what: SpellEvent::Redirected { target }, .. } if *target == other)
        });
        if !ok && std::env::var("SW_DEBUG").is_ok() {
            eprintln!("seed {seed}:\n{}", english(&prep, &events).join("\n"));
        }
        redirected += usize::from(ok);
    }
    assert!(first >= 28, "the weapon first in {first} of 30");
    assert!(fell >= 5 && redirected == fell, "redirected in {redirected} of {fell}");
}
