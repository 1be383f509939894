//! Fire Shield (`spells::retaliation`, `policy::strike_back`; CRB "Fire
//! Shield"): a creature that hits the bearer in melee without a reach
//! weapon takes 1d6 + caster level (at most +15) of the shield's energy,
//! its spell resistance applying; the bearer takes half damage from the
//! other energy, none when a Reflex save for half succeeds; the default
//! policy raises it once foes are in melee with the caster.

use serde_json::json;

use super::support::*;
use crate::combat::action::{Action, ActionKind};
use crate::combat::engine::Engine;
use crate::combat::event::{Event, Record, SpellEffectEvent, SpellEvent};
use crate::rng::SeededRng;

const FS: &str = "Fire Shield";

/// A caster of level 5 who knows Fire Shield (and `more`), AC 10, many hit points.
fn bearer(more: &[&str]) -> crate::model::Combatant {
    bearer_of_level(5, more)
}

/// The same caster at `level` (concentration: level + 3).
fn bearer_of_level(level: u32, more: &[&str]) -> crate::model::Combatant {
    let mut spells = vec![FS];
    spells.extend_from_slice(more);
    caster(
        "Wizard",
        &spells,
        json!({ "level": level, "hp_max": 100000, "ac": { "total": 10, "touch": 10, "flat_footed": 10 },
                "attacks": [melee("dagger", 0, "1d4")] }),
    )
}

/// A foe that always hits AC 10 but on a natural 1: `attack` and `extra` fields.
fn brute(attack: serde_json::Value, extra: serde_json::Value) -> crate::model::Combatant {
    let mut o = json!({ "hp_max": 100000, "attacks": [attack] });
    o.as_object_mut().unwrap().extend(extra.as_object().unwrap().clone());
    creature("Brute", o)
}

fn club() -> serde_json::Value {
    melee("club", 30, "1d8")
}

/// Where the foe waits while the wizard casts (out of its reach).
const AWAY: crate::map::Pos = at(5, 5);

/// Raises the wizard's (0) shield (`option`: 0 warm, 1 chill) with combatant
/// 1 out of reach, then brings combatant 1 to `to`.
fn shielded<'a, 'p>(
    prep: &'p crate::combat::PreparedEncounter,
    rng: &'a mut SeededRng,
    events: &'a mut Vec<Record>,
    option: u8,
    to: crate::map::Pos,
) -> Engine<'a, 'p, SeededRng> {
    let spell = prep.spell_index(FS).expect("the spell");
    let mut e = started(prep, rng, Some(events));
    let r = e.execute_for_test(0, Action::cast(spell, Some(0)).with_option(option));
    assert!(r.ok, "{:?}", r.reason);
    e.st.relocate(1, to);
    e
}

/// The wizard raises the shield (`option`), then combatant 1, from `to`,
/// makes `attacks` attacks on it, one turn each.
fn run(
    prep: &crate::combat::PreparedEncounter,
    seed: u64,
    option: u8,
    attacks: u32,
    to: crate::map::Pos,
) -> Vec<Record> {
    let mut rng = SeededRng::for_run(41, seed);
    let mut events: Vec<Record> = Vec::new();
    let mut e = shielded(prep, &mut rng, &mut events, option, to);
    for _ in 0..attacks {
        e.take_turn(1, &mut script(vec![Action::at(ActionKind::Attack, 0)]));
        e.start_round();
    }
    drop(e);
    events
}

/// A damage event of the shield: (rolled, dealt, types).
type Burn = (u32, u32, Vec<String>);

/// The brute's hits on the wizard, and the shield's answers: (hits,
/// retaliations, damage events of the wizard on the brute).
fn tally(events: &[Record]) -> (u32, u32, Vec<Burn>) {
    let (mut hits, mut answers, mut damage) = (0, 0, Vec::new());
    for r in events {
        match &r.event {
            Event::Attack(a) if a.who == 1 && a.target == 0 => {
                hits += u32::from(
                    a.steps.iter().any(|s| matches!(s, crate::combat::event::AttackStep::Damage { .. })),
                );
            }
            Event::Spell { who: 0, what: SpellEvent::Retaliates { attacker: 1 }, .. } => answers += 1,
            Event::SpellDamage { who: 0, target: 1, rolled, dealt, types, .. } => {
                damage.push((*rolled, *dealt, types.clone()))
            }
            _ => {}
        }
    }
    (hits, answers, damage)
}

#[test]
fn every_melee_hit_costs_the_attacker_1d6_plus_caster_level_of_fire() {
    let prep =
        prepare_magic(arena(6, 6), vec![("a", bearer(&[]), at(2, 2)), ("b", brute(club(), json!({})), AWAY)]);
    let (mut hits, mut sum, mut n) = (0, 0u64, 0u32);
    for seed in 0..300 {
        let events = run(&prep, seed, 0, 2, at(2, 3));
        let (h, answers, damage) = tally(&events);
        assert_eq!(answers, h, "one answer per hit, seed {seed}");
        assert_eq!(damage.len() as u32, h, "seed {seed}");
        for (rolled, dealt, types) in damage {
            // 1d6 + 5 at caster level 5, fire, no resistance: dealt whole.
            assert!((6..=11).contains(&rolled), "{rolled}");
            assert_eq!(dealt, rolled);
            assert_eq!(types, ["fire".to_string()]);
            sum += u64::from(rolled);
            n += 1;
        }
        hits += h;
    }
    // 600 swings at +30 against AC 10: only a natural 1 misses (19/20).
    let p: f64 = 19.0 / 20.0;
    let sd = (600.0 * p * (1.0 - p)).sqrt();
    assert!((f64::from(hits) - 600.0 * p).abs() < 4.0 * sd, "{hits}");
    // The mean of 1d6 + 5 is 8.5 (sd of one roll: 1.708).
    let mean = sum as f64 / f64::from(n);
    assert!((mean - 8.5).abs() < 4.0 * 1.708 / f64::from(n).sqrt(), "{mean}");
}

#[test]
fn the_chill_shield_answers_with_cold_and_an_immune_attacker_takes_nothing() {
    let prep =
        prepare_magic(arena(6, 6), vec![("a", bearer(&[]), at(2, 2)), ("b", brute(club(), json!({})), AWAY)]);
    let (_, answers, damage) = tally(&run(&prep, 3, 1, 3, at(2, 3)));
    assert!(answers > 0);
    assert!(damage.iter().all(|(_, _, t)| t == &["cold".to_string()]), "{damage:?}");
    let cold_proof = brute(club(), json!({ "immunities": ["cold"] }));
    let prep = prepare_magic(arena(6, 6), vec![("a", bearer(&[]), at(2, 2)), ("b", cold_proof, AWAY)]);
    let (_, answers, damage) = tally(&run(&prep, 3, 1, 3, at(2, 3)));
    assert!(answers > 0);
    assert!(damage.iter().all(|&(_, dealt, _)| dealt == 0), "{damage:?}");
}

#[test]
fn a_reach_weapon_is_not_answered_but_a_large_creatures_natural_reach_is() {
    let spear = json!({ "name": "longspear", "kind": "melee", "attack_bonus": 30, "reach_weapon": true,
                        "damage": [{ "formula": "1d8", "types": ["piercing"] }] });
    let prep =
        prepare_magic(arena(6, 6), vec![("a", bearer(&[]), at(2, 1)), ("b", brute(spear, json!({})), AWAY)]);
    for seed in 0..20 {
        let (hits, answers, _) = tally(&run(&prep, seed, 0, 2, at(2, 3)));
        assert!(hits > 0 || seed > 0);
        assert_eq!(answers, 0, "a longspear from 10 ft, seed {seed}");
    }
    // A Large ogre's slam reaches 10 ft with its body: answered.
    let slam = json!({ "name": "slam", "kind": "melee", "attack_bonus": 30, "natural": true,
                       "damage": [{ "formula": "1d8", "types": ["bludgeoning"] }] });
    let ogre = brute(slam, json!({ "size": "Large" }));
    let prep = prepare_magic(arena(6, 6), vec![("a", bearer(&[]), at(2, 0)), ("b", ogre, at(4, 4))]);
    let (hits, answers, _) = tally(&run(&prep, 1, 0, 2, at(2, 2)));
    assert!(hits > 0);
    assert_eq!(answers, hits);
}

#[test]
fn the_attackers_spell_resistance_applies_to_each_answer() {
    // SR 30 against caster level 5: only beaten by... nothing (d20 + 5 < 30).
    let demon = brute(club(), json!({ "spell_resistance": 30 }));
    let prep = prepare_magic(arena(6, 6), vec![("a", bearer(&[]), at(2, 2)), ("b", demon, AWAY)]);
    let events = run(&prep, 5, 0, 3, at(2, 3));
    let (hits, answers, damage) = tally(&events);
    assert!(hits > 0);
    assert_eq!(answers, hits);
    assert!(damage.is_empty(), "{damage:?}");
    let resisted = events
        .iter()
        .filter(|r| {
            matches!(
                &r.event,
                Event::Spell {
                    who: 1,
                    what: SpellEvent::Resistance { sr: 30, bonus: 5, overcome: false, .. },
                    ..
                }
            )
        })
        .count() as u32;
    assert_eq!(resisted, hits);
}

#[test]
fn a_melee_touch_spell_that_hits_the_bearer_is_answered() {
    let touch = caster("Magus", &["Shocking Grasp"], json!({ "hp_max": 100000, "bab": 30 }));
    let prep = prepare_magic(arena(6, 6), vec![("a", bearer(&[]), at(2, 2)), ("b", touch, AWAY)]);
    let sg = prep.spell_index("Shocking Grasp").unwrap();
    let mut answered = 0;
    for seed in 0..10 {
        let mut rng = SeededRng::for_run(43, seed);
        let mut events: Vec<Record> = Vec::new();
        let mut e = shielded(&prep, &mut rng, &mut events, 0, at(2, 3));
        e.take_turn(1, &mut script(vec![Action::cast(sg, Some(0))]));
        drop(e);
        let hit = events.iter().any(|r| matches!(&r.event, Event::TouchAttack { who: 1, hit: true, .. }));
        let answers = events
            .iter()
            .filter(|r| matches!(&r.event, Event::Spell { what: SpellEvent::Retaliates { attacker: 1 }, .. }))
            .count();
        assert_eq!(answers, usize::from(hit), "seed {seed}");
        answered += answers;
    }
    assert!(answered > 0);
}

#[test]
fn the_chill_shield_halves_fire_and_a_saved_fireball_deals_nothing() {
    // The bearer (Reflex +1) in a foe's Fireball (5d6 at caster level 5, DC 16).
    let pyro = caster("Pyro", &["Fireball"], json!({ "hp_max": 100000 }));
    let prep = prepare_magic(arena(12, 12), vec![("a", bearer(&[]), at(2, 2)), ("b", pyro, at(2, 9))]);
    let fb = prep.spell_index("Fireball").unwrap();
    let (mut saved, mut failed) = (0, 0);
    for seed in 0..60 {
        let mut rng = SeededRng::for_run(47, seed);
        let mut events: Vec<Record> = Vec::new();
        let mut e = shielded(&prep, &mut rng, &mut events, 1, at(2, 9));
        let mut cast = Action::cast(fb, None);
        cast.destination = Some(at(2, 2));
        e.take_turn(1, &mut script(vec![cast]));
        drop(e);
        let save = events.iter().find_map(|r| match &r.event {
            Event::Save { who: 0, success, .. } => Some(*success),
            _ => None,
        });
        let damage: Vec<(u32, u32)> = events
            .iter()
            .filter_map(|r| match &r.event {
                Event::SpellDamage { who: 1, target: 0, rolled, dealt, .. } => Some((*rolled, *dealt)),
                _ => None,
            })
            .collect();
        let warded = events
            .iter()
            .any(|r| matches!(&r.event, Event::SpellEffect { who: 0, what: SpellEffectEvent::WardedOff }));
        match save {
            Some(true) => {
                saved += 1;
                assert!(warded && damage.is_empty(), "seed {seed}: {damage:?}");
            }
            Some(false) => {
                failed += 1;
                assert!(!warded);
                let [(rolled, dealt)] = damage[..] else {
                    panic!("one damage event, seed {seed}: {damage:?}")
                };
                assert!((5..=30).contains(&rolled));
                assert_eq!(dealt, rolled / 2, "seed {seed}");
            }
            None => panic!("no save, seed {seed}"),
        }
    }
    assert!(saved > 0 && failed > 0, "{saved} {failed}");
}

/// The wizard's first action of round 1 under the default policy, with
/// foes placed as given.
fn first_cast(prep: &crate::combat::PreparedEncounter) -> Option<Action> {
    opening_plan(prep, 1).into_iter().find(|a| a.kind == ActionKind::CastSpell)
}

#[test]
fn the_policy_raises_the_shield_once_foes_are_in_melee_and_picks_the_energy_they_feel() {
    let fighter = |extra: serde_json::Value| {
        brute(
            json!({ "name": "sword", "kind": "melee", "attack_bonus": 8,
                      "damage": [{ "formula": "1d8+4", "types": ["slashing"] }] }),
            extra,
        )
    };
    let fs = |prep: &crate::combat::PreparedEncounter| prep.spell_index(FS).unwrap();
    // Two fighters beside the wizard: the warm shield.
    let prep = prepare_magic(
        arena(8, 8),
        vec![
            ("a", bearer_of_level(11, &["Magic Missile"]), at(3, 3)),
            ("b", fighter(json!({})), at(3, 4)),
            ("b", fighter(json!({})), at(4, 3)),
        ],
    );
    let a = first_cast(&prep).expect("a spell");
    assert_eq!((a.spell, a.option), (Some(fs(&prep)), 0), "{a:?}");
    // Fire-proof fighters: the chill shield.
    let proof = || fighter(json!({ "immunities": ["fire"] }));
    let prep = prepare_magic(
        arena(8, 8),
        vec![
            ("a", bearer_of_level(11, &["Magic Missile"]), at(3, 3)),
            ("b", proof(), at(3, 4)),
            ("b", proof(), at(4, 3)),
        ],
    );
    let a = first_cast(&prep).expect("a spell");
    assert_eq!((a.spell, a.option), (Some(fs(&prep)), 1), "{a:?}");
    // Far away, the wizard has better to do.
    let prep = prepare_magic(
        arena(8, 14),
        vec![
            ("a", bearer_of_level(11, &["Magic Missile"]), at(3, 1)),
            ("b", fighter(json!({})), at(3, 12)),
            ("b", fighter(json!({})), at(4, 12)),
        ],
    );
    let a = first_cast(&prep).expect("a spell");
    assert_ne!(a.spell, Some(fs(&prep)), "{a:?}");
    // Nor is it a buff to raise before anyone comes (nothing else to cast).
    let prep = prepare_magic(
        arena(8, 14),
        vec![
            ("a", bearer_of_level(11, &[]), at(3, 1)),
            ("b", fighter(json!({})), at(3, 12)),
            ("b", fighter(json!({})), at(4, 12)),
        ],
    );
    assert_eq!(first_cast(&prep), None);
    // Flanked with no step out of reach, a level-5 wizard would cast it
    // defensively 3 times in 10 (concentration +8 against DC 23): it keeps
    // to Magic Missile rather than offer the shield to their blows.
    let prep = prepare_magic(
        arena(8, 8),
        vec![
            ("a", bearer(&["Magic Missile"]), at(3, 3)),
            ("b", fighter(json!({})), at(3, 2)),
            ("b", fighter(json!({})), at(3, 4)),
        ],
    );
    let a = first_cast(&prep).expect("a spell");
    assert_ne!(a.spell, Some(fs(&prep)), "{a:?}");
    // At level 11 (+14 against DC 23: 6 in 10) it raises the shield defensively.
    let prep = prepare_magic(
        arena(8, 8),
        vec![
            ("a", bearer_of_level(11, &["Magic Missile"]), at(3, 3)),
            ("b", fighter(json!({})), at(3, 2)),
            ("b", fighter(json!({})), at(3, 4)),
        ],
    );
    let a = first_cast(&prep).expect("a spell");
    assert_eq!(a.spell, Some(fs(&prep)), "{a:?}");
    assert!(a.defensive, "{a:?}");
}

#[test]
fn in_battle_the_shielded_wizard_burns_the_fighters_who_close_in() {
    // Over many battles under the default policy, the shield goes up once
    // the fighters are on the wizard, and they take its fire.
    let fighter = || {
        brute(
            json!({ "name": "sword", "kind": "melee", "attack_bonus": 8,
                      "damage": [{ "formula": "1d8+4", "types": ["slashing"] }] }),
            json!({ "hp_max": 60 }),
        )
    };
    let prep = prepare_magic(
        arena(8, 10),
        vec![
            ("a", bearer_of_level(11, &["Magic Missile"]), at(3, 2)),
            ("b", fighter(), at(3, 7)),
            ("b", fighter(), at(4, 7)),
        ],
    );
    let (mut raised, mut burned) = (0, 0);
    for seed in 0..20 {
        let events = policy_battle(&prep, 53, seed);
        raised += usize::from(
            events.iter().any(|r| matches!(&r.event, Event::Casts { who: 0, spell, .. } if spell == FS)),
        );
        burned += events
            .iter()
            .filter(|r| matches!(&r.event, Event::SpellDamage { who: 0, types, dealt, .. } if types == &["fire".to_string()] && *dealt > 0))
            .count();
    }
    assert!(raised >= 15, "{raised}");
    assert!(burned >= 20, "{burned}");
}

#[test]
fn a_bearer_immune_to_cold_still_raises_the_shield_and_it_burns() {
    // The lich's case: immunity to cold keeps out cold damage, not a
    // helpful spell with the cold descriptor.
    let mut lichlike = bearer(&[]);
    lichlike.immunities = vec!["cold".to_string(), "electricity".to_string()];
    let prep =
        prepare_magic(arena(6, 6), vec![("a", lichlike, at(2, 2)), ("b", brute(club(), json!({})), AWAY)]);
    let events = run(&prep, 2, 0, 2, at(2, 3));
    assert!(!events.iter().any(|r| matches!(&r.event, Event::Spell { what: SpellEvent::Immune, .. })));
    let (hits, answers, damage) = tally(&events);
    assert!(hits > 0);
    assert_eq!(answers, hits);
    assert_eq!(damage.len() as u32, hits);
}
