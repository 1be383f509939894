//! Bonds broken with a check (`combat::bonds`): Entangle's anchored
//! plants, Web's strands (grappled, the check to move through, cover), the
//! escape rate against its closed form on the event stream, concentration
//! while bound, and the choices of the default policy.

use serde_json::json;

use super::support::*;
use crate::combat::SimOptions;
use crate::combat::action::{Action, ActionKind};
use crate::combat::event::{EscapeSkill, Event, Record};
use crate::combat::policy::DefaultPolicy;
use crate::combat::prepared::PreparedEncounter;
use crate::effects::{ConditionId as C, Flags};
use crate::map::Pos;
use crate::rng::SeededRng;

fn druid() -> crate::model::Combatant {
    caster("Druid", &["Entangle"], json!({ "spell_list": "druid", "hp_max": 40 }))
}

fn wizard() -> crate::model::Combatant {
    caster("Wizard", &["Web"], json!({ "spell_list": "wizard", "hp_max": 40 }))
}

/// A brute with Strength 16 (+3), Reflex −10 (it fails but on a 20) and a club.
fn brute(name: &str) -> crate::model::Combatant {
    creature(
        name,
        json!({ "hp_max": 200, "saves": { "fort": 0, "ref": -10, "will": 0 },
                "abilities": { "str_score": 16, "dex_score": 10, "con_score": 12,
                               "int_score": 10, "wis_score": 10, "cha_score": 10 },
                "attacks": [melee("club", 5, "1d6+3")] }),
    )
}

fn cast_at(prep: &PreparedEncounter, spell: &str, p: Pos) -> Action {
    let mut a = Action::cast(prep.spell_index(spell).expect("spell"), None);
    a.destination = Some(p);
    a
}

/// Battle `seed`: the caster casts `spell` on `at`, then every other
/// combatant plays one turn of the default policy; the events.
fn one_round(prep: &PreparedEncounter, spell: &str, at: Pos, seed: u64) -> Vec<Record> {
    let mut rng = SeededRng::for_run(31, seed);
    let mut events = Vec::new();
    let mut e = started(prep, &mut rng, Some(&mut events));
    let cast = cast_at(prep, spell, at);
    e.take_turn(0, &mut script(vec![cast]));
    for i in 1..prep.fighters.len() {
        e.take_turn(i, &mut DefaultPolicy);
    }
    drop(e);
    events
}

#[test]
fn entangle_anchors_a_creature_that_fails_its_save_and_a_move_action_check_frees_it() {
    let prep = prepare_magic(arena(8, 24), vec![("a", druid(), at(1, 1)), ("b", brute("Brute"), at(4, 12))]);
    let mut b = Bench::new(&[1, 20]);
    let mut e = b.engine(&prep, &SimOptions::default());
    turn(&mut e, 0, vec![cast_at(&prep, "Entangle", at(4, 12))]);
    assert!(e.st.has_condition(1, C::Entangled), "failed its Reflex save");
    assert!(e.st.flags(1).has(Flags::CANT_MOVE), "anchored: it cannot move");
    assert_eq!(e.st.speed(1), 0);
    let (_, bonds) = e.st.bond(1).expect("bound");
    // DC 10 + 1 (spell level) + 3 (Wisdom); Strength +3 beats untrained Escape Artist (Dex 10, −4 entangled: −2).
    assert_eq!((bonds.strength, bonds.escape_artist, bonds.cmb), (Some(14), Some(14), None));
    assert_eq!(e.st.best_escape(1, &bonds), Some((EscapeSkill::Strength, 3, 14)));
    assert_eq!(
        e.st.data_slot(1, &Action::new(ActionKind::BreakFree)),
        Some(crate::combat::action::Slot::Move)
    );
    // 20 + 3 ≥ 14: free, and it can move again.
    turn(&mut e, 1, vec![Action::new(ActionKind::BreakFree)]);
    assert!(!e.st.has_condition(1, C::Entangled));
    assert!(!e.st.flags(1).has(Flags::CANT_MOVE));
    assert!(e.st.speed(1) > 0);
}

#[test]
fn the_escape_rate_from_entangle_is_the_chance_of_d20_plus_strength_against_the_spell_dc() {
    // The brute is out of reach of its only foe: it breaks free each time it is caught.
    let prep = prepare_magic(arena(8, 24), vec![("a", druid(), at(1, 1)), ("b", brute("Brute"), at(4, 12))]);
    let (bonus, dc) = (3, 14);
    let exact = f64::from(21 - (dc - bonus)) / 20.0;
    let (mut tries, mut freed) = (0u32, 0u32);
    for seed in 0..4000 {
        for r in one_round(&prep, "Entangle", at(4, 12), seed) {
            if let Event::EscapeCheck { who: 1, skill, bonus: b, dc: d, ok, .. } = r.event {
                assert_eq!((skill, b, d), (EscapeSkill::Strength, bonus, dc));
                tries += 1;
                freed += u32::from(ok);
            }
        }
    }
    // It fails its save on 1-19: about 3,800 tries.
    assert!(tries > 3500, "{tries} tries");
    let p = f64::from(freed) / f64::from(tries);
    let sigma = (exact * (1.0 - exact) / f64::from(tries)).sqrt();
    assert!((p - exact).abs() < 5.0 * sigma, "escape rate {p:.4}, exact {exact:.4}");
}

#[test]
fn web_grapples_its_strands_ask_a_check_to_move_through_and_give_cover() {
    let prep = prepare_magic(
        arena(10, 24),
        vec![
            ("a", wizard(), at(1, 1)),
            ("b", brute("Caught"), at(4, 12)),
            ("b", brute("Walker"), at(4, 18)),
            ("a", creature("Archer", json!({ "attacks": [ranged("bow", 5, "1d8", 100)] })), at(8, 1)),
        ],
    );
    // Caught fails its Reflex save (1); Walker is outside the 20-ft spread.
    let mut b = Bench::new(&[1, 1]);
    let mut e = b.engine(&prep, &SimOptions::default());
    turn(&mut e, 0, vec![cast_at(&prep, "Web", at(4, 12))]);
    assert!(e.st.has_condition(1, C::Grappled), "failed its save: grappled by the strands");
    assert!(!e.st.has_condition(2, C::Grappled));
    let (_, bonds) = e.st.bond(1).expect("bound");
    // DC 10 + 2 + 3; CMB or Escape Artist, a standard action.
    assert_eq!((bonds.cmb, bonds.escape_artist, bonds.strength), (Some(15), Some(15), None));
    assert_eq!(
        e.st.data_slot(1, &Action::new(ActionKind::BreakFree)),
        Some(crate::combat::action::Slot::Standard)
    );
    // Cover: the caught creature stands in the web; the walker beyond it has web between.
    assert_eq!(e.st.zone_cover(e.st.pos(3), 1), 4);
    assert_eq!(e.st.zone_cover(e.st.pos(3), 0), 0, "no web between the archer and the wizard");
    // Walker moves in: its CMB check (d20 = 1) fails: grappled where it entered, its move over.
    turn(&mut e, 2, vec![Action::new(ActionKind::Move).with_destination(at(4, 14))]);
    let p = e.st.pos(2);
    assert_eq!(p, at(4, 16), "stopped on the first web square");
    assert!(e.st.has_condition(2, C::Grappled));
}

#[test]
fn casting_while_held_by_a_web_asks_concentration_against_its_dc_plus_the_spell_level() {
    let trapped = caster(
        "Trapped",
        &["Magic Missile"],
        json!({ "spell_list": "wizard", "saves": { "fort": 0, "ref": -10, "will": 0 } }),
    );
    let prep = prepare_magic(
        arena(10, 24),
        vec![("a", wizard(), at(1, 1)), ("b", trapped, at(4, 12)), ("b", brute("Brute"), at(8, 22))],
    );
    let mut b = Bench::new(&[1, 1, 10]);
    let mut e = b.engine(&prep, &SimOptions::default());
    turn(&mut e, 0, vec![cast_at(&prep, "Web", at(4, 12))]);
    assert!(e.st.has_condition(1, C::Grappled));
    let mm = prep.spell_index("Magic Missile").unwrap();
    turn(&mut e, 1, vec![Action::cast(mm, Some(0))]);
    let dc = b
        .events
        .iter()
        .find_map(|r| match r.event {
            Event::Concentration { who: 1, dc, .. } => Some(dc),
            _ => None,
        })
        .expect("a concentration check");
    assert_eq!(dc, 15 + 1, "the web's DC 15 + spell level 1");
}

#[test]
fn a_bound_creature_breaks_free_when_it_pays_and_keeps_attacking_when_its_foe_is_in_reach() {
    let plan = |placed: Vec<(&str, crate::model::Combatant, Pos)>, who: usize| {
        let prep = prepare_magic(arena(10, 24), placed);
        let mut b = Bench::new(&[1, 1, 1]);
        let mut e = b.engine(&prep, &SimOptions::default());
        let spot = e.st.pos(who);
        turn(&mut e, 0, vec![cast_at(&prep, "Entangle", spot)]);
        assert!(e.st.has_condition(who, C::Entangled));
        let mut out = Vec::new();
        crate::combat::decide::Policy::plan(&mut DefaultPolicy, &e.st, who, &mut out);
        out.iter().map(|a| a.kind).collect::<Vec<_>>()
    };
    // Far from the druid: break free, then move toward it.
    let far = plan(vec![("a", druid(), at(1, 1)), ("b", brute("Brute"), at(4, 14))], 1);
    assert_eq!(far, [ActionKind::BreakFree, ActionKind::Move]);
    // A foe within reach: the full attack from here, no check.
    let near = plan(
        vec![("a", druid(), at(1, 1)), ("b", brute("Brute"), at(4, 14)), ("a", brute("Guard"), at(4, 15))],
        1,
    );
    assert!(!near.contains(&ActionKind::BreakFree), "{near:?}");
    assert!(near.contains(&ActionKind::FullAttack), "{near:?}");
    // A caster breaks free with its move action and casts with its standard one.
    let shaman = caster(
        "Shaman",
        &["Magic Missile"],
        json!({ "spell_list": "wizard", "saves": { "ref": -10, "fort": 0, "will": 0 } }),
    );
    let cast = plan(vec![("a", druid(), at(1, 1)), ("b", shaman, at(4, 14))], 1);
    assert_eq!(cast.first(), Some(&ActionKind::BreakFree), "{cast:?}");
    assert!(cast.contains(&ActionKind::CastSpell), "{cast:?}");
}

#[test]
fn the_default_policy_casts_web_on_a_group_of_foes_and_not_on_an_ally() {
    let casts_web = |placed: Vec<(&str, crate::model::Combatant, Pos)>| {
        let prep = prepare_magic(arena(10, 24), placed);
        let web = prep.spell_index("Web").unwrap();
        let mut b = Bench::new(&[]);
        let e = b.engine(&prep, &SimOptions::default());
        let mut out = Vec::new();
        crate::combat::decide::Policy::plan(&mut DefaultPolicy, &e.st, 0, &mut out);
        out.iter().any(|a| a.spell == Some(web))
    };
    let group = || {
        vec![
            ("a", wizard(), at(1, 1)),
            ("b", brute("A"), at(5, 10)),
            ("b", brute("B"), at(5, 11)),
            ("b", brute("C"), at(6, 10)),
        ]
    };
    assert!(casts_web(group()));
    let mut with_ally = group();
    with_ally.push(("a", brute("Friend"), at(6, 11)));
    assert!(!casts_web(with_ally), "an ally would be caught");
}

#[test]
fn a_spiders_web_entangles_at_the_rate_of_its_ranged_touch_attack_and_the_foe_walks_on_at_half_speed() {
    let spider = data_combatant("data/monsters/fiendish_giant_spider.json");
    let prep = prepare_magic(arena(6, 16), vec![("a", spider, at(2, 1)), ("b", brute("Prey"), at(2, 5))]);
    // 20 ft: one increment beyond the first, −2; BAB 2 + Dex 3 = +3 against touch AC 10: 7 or more.
    let exact = 14.0 / 20.0;
    let (mut throws, mut hits) = (0u32, 0u32);
    for seed in 0..3000u64 {
        let mut rng = SeededRng::for_run(33, seed);
        let mut events = Vec::new();
        let mut e = started(&prep, &mut rng, Some(&mut events));
        e.take_turn(0, &mut DefaultPolicy);
        let bound = e.st.has_condition(1, C::Entangled);
        if bound {
            assert!(!e.st.flags(1).has(Flags::CANT_MOVE), "a thrown web does not hold it in place");
            assert_eq!(e.st.speed(1), 15, "half speed");
            let mut out = Vec::new();
            crate::combat::decide::Policy::plan(&mut DefaultPolicy, &e.st, 1, &mut out);
            assert!(!out.iter().any(|a| a.kind == ActionKind::BreakFree), "it can move: no escape spent");
        }
        drop(e);
        for r in &events {
            if let Event::TouchAttack { who: 0, target: 1, bonus, ac, hit, .. } = r.event {
                assert_eq!((bonus, ac), (3, 10));
                throws += 1;
                hits += u32::from(hit);
                assert_eq!(hit, bound);
            }
        }
    }
    assert_eq!(throws, 3000, "it webs its foe before closing in");
    let p = f64::from(hits) / f64::from(throws);
    let sigma = (exact * (1.0 - exact) / f64::from(throws)).sqrt();
    assert!((p - exact).abs() < 5.0 * sigma, "web hit rate {p:.4}, exact {exact:.4}");
}

#[test]
fn a_web_is_escaped_by_escape_artist_or_strength_at_minus_four_as_a_standard_action() {
    let spider = data_combatant("data/monsters/fiendish_giant_spider.json");
    let prep = prepare_magic(arena(6, 16), vec![("a", spider, at(2, 1)), ("b", brute("Prey"), at(2, 5))]);
    // Hit (20), then the prey breaks free: Strength +3 against DC 16 (12 + 4), a standard action.
    let mut b = Bench::new(&[20, 13]);
    let mut e = b.engine(&prep, &SimOptions::default());
    turn(&mut e, 0, vec![Action::at(ActionKind::Entangle, 1)]);
    let (_, bonds) = e.st.bond(1).expect("webbed");
    assert_eq!((bonds.escape_artist, bonds.strength), (Some(12), Some(16)));
    assert_eq!(e.st.best_escape(1, &bonds), Some((EscapeSkill::Strength, 3, 16)));
    assert_eq!(
        e.st.data_slot(1, &Action::new(ActionKind::BreakFree)),
        Some(crate::combat::action::Slot::Standard)
    );
    turn(&mut e, 1, vec![Action::new(ActionKind::BreakFree)]);
    assert!(!e.st.has_condition(1, C::Entangled), "13 + 3 = 16: free");
    // A second web on a free foe is allowed; uses are counted.
    assert_eq!(e.st.fighters[0].monster.entangles_thrown, 1);
}

#[test]
fn frostbite_deals_nonlethal_damage_and_fatigues_until_the_nonlethal_damage_is_healed() {
    let witch = caster("Witch", &["Frostbite"], json!({ "spell_list": "witch", "level": 5 }));
    // Unarmed: casting beside it provokes nothing.
    let target = creature("Target", json!({ "hp_max": 200, "attacks": [] }));
    let prep = prepare_magic(arena(4, 6), vec![("a", witch, at(1, 1)), ("b", target, at(1, 2))]);
    let frost = prep.spell_index("Frostbite").unwrap();
    // 1d6 + 5 (caster level 5) nonlethal cold on each touch that hits (+3 against touch AC 10: 70 %).
    let mut samples = Vec::new();
    for seed in 0..2000u64 {
        let mut rng = SeededRng::for_run(34, seed);
        let mut e = started(&prep, &mut rng, None);
        e.take_turn(0, &mut script(vec![Action::cast(frost, Some(1))]));
        assert_eq!(e.st.hp(1), 200, "hit points untouched");
        let nl = e.st.nonlethal(1);
        if nl > 0 {
            assert!(e.st.has_condition(1, C::Fatigued));
            samples.push(f64::from(nl));
            e.heal_nonlethal(1, 100);
            assert!(!e.st.has_condition(1, C::Fatigued), "the fatigue ends with the nonlethal damage");
        }
    }
    let n = samples.len() as f64;
    let mean = samples.iter().sum::<f64>() / n;
    let sd = (samples.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / (n - 1.0)).sqrt();
    let p = n / 2000.0;
    assert!((p - 0.7).abs() < 5.0 * (0.7f64 * 0.3 / 2000.0).sqrt(), "touch hit rate {p:.3}");
    // A natural 20 (1 in 20 of all rolls) confirmed at the hit rate doubles it:
    // 5 % of the hits are critical, so the mean is 8.5 × 1.05.
    let exact = 8.5 * (1.0 + (0.05 * 0.7) / 0.7);
    assert!((mean - exact).abs() < 5.0 * sd / n.sqrt(), "mean nonlethal {mean:.3}, exact {exact}");
}

#[test]
fn pain_strike_deals_nonlethal_damage_each_round_after_a_failed_fortitude_save() {
    let wizard = caster("Wizard", &["Pain Strike"], json!({ "spell_list": "wizard", "level": 5 }));
    let victim = creature("Victim", json!({ "hp_max": 200, "saves": { "fort": -20, "ref": 0, "will": 0 } }));
    let prep = prepare_magic(arena(4, 8), vec![("a", wizard, at(1, 1)), ("b", victim, at(1, 5))]);
    let pain = prep.spell_index("Pain Strike").unwrap();
    let mut first = Vec::new();
    let mut tick = Vec::new();
    for seed in 0..2000u64 {
        let mut rng = SeededRng::for_run(35, seed);
        let mut e = started(&prep, &mut rng, None);
        e.take_turn(0, &mut script(vec![Action::cast(pain, Some(1))]));
        let a = e.st.nonlethal(1);
        if a == 0 {
            continue; // a natural 20
        }
        assert!(e.st.has_condition(1, C::Sickened));
        e.take_turn(1, &mut script(vec![]));
        first.push(f64::from(a));
        tick.push(f64::from(e.st.nonlethal(1) - a));
        assert_eq!(e.st.hp(1), 200);
    }
    for (what, s) in [("on the cast", &first), ("a round later", &tick)] {
        let n = s.len() as f64;
        let mean = s.iter().sum::<f64>() / n;
        let sd = (s.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / (n - 1.0)).sqrt();
        assert!((mean - 3.5).abs() < 5.0 * sd / n.sqrt(), "{what}: mean 1d6 nonlethal {mean:.3}");
    }
}

#[test]
fn grease_asks_an_acrobatics_check_dc_10_to_move_and_a_failure_by_5_falls() {
    let wizard = caster("Wizard", &["Grease"], json!({ "spell_list": "wizard", "hp_max": 40 }));
    // Dexterity 10: Acrobatics +0 (untrained); Reflex −20 (it fails but on a 20).
    let walker = creature(
        "Walker",
        json!({ "hp_max": 200, "saves": { "fort": 0, "ref": -20, "will": 0 }, "attacks": [] }),
    );
    let prep = prepare_magic(arena(6, 16), vec![("a", wizard, at(1, 5)), ("b", walker, at(3, 12))]);
    let (mut checks, mut ok, mut fell_by_5, mut by_5) = (0u32, 0u32, 0u32, 0u32);
    for seed in 0..3000u64 {
        let mut rng = SeededRng::for_run(36, seed);
        let mut events = Vec::new();
        let mut e = started(&prep, &mut rng, Some(&mut events));
        // The grease on the squares west of the walker (10-ft square from (3,8)).
        e.take_turn(0, &mut script(vec![cast_at(&prep, "Grease", at(3, 8))]));
        assert!(!e.st.has_condition(1, C::Prone), "outside the grease");
        e.take_turn(1, &mut script(vec![Action::new(ActionKind::Move).with_destination(at(3, 6))]));
        let prone = e.st.has_condition(1, C::Prone);
        let end = e.st.pos(1);
        drop(e);
        for r in &events {
            if let Event::EscapeCheck { who: 1, skill, bonus, total, dc, ok: o, stopped_at, .. } = r.event {
                assert_eq!((skill, bonus, dc), (EscapeSkill::Acrobatics, 0, 10));
                // A failure says where the movement ended.
                assert_eq!(stopped_at, (!o).then_some(end));
                checks += 1;
                ok += u32::from(o);
                if dc - total >= 5 {
                    by_5 += 1;
                    fell_by_5 += u32::from(prone);
                }
                if o {
                    assert!(!prone);
                }
            }
        }
    }
    assert_eq!(checks, 3000, "one check on stepping onto the grease");
    let (p, exact) = (f64::from(ok) / 3000.0, 11.0 / 20.0);
    assert!((p - exact).abs() < 5.0 * (exact * (1.0 - exact) / 3000.0).sqrt(), "success rate {p:.4}");
    assert_eq!(fell_by_5, by_5, "failing by 5 or more always falls");
}
