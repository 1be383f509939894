//! Three-dimensional flight (`combat::flight`): distance and reach with
//! altitude, climbing and diving costs, Fly checks to stay aloft, falls, and
//! the fliers' policy, each against its closed form, scripted dice or the
//! event stream over many seeds.

use serde_json::{Value, json};

use super::support::*;
use crate::combat::SimOptions;
use crate::combat::action::{Action, ActionKind};
use crate::combat::engine::Engine;
use crate::combat::event::{AfflictionEvent, Event, FallCause, Record};
use crate::combat::flight::{climb_cost, fall_dice, lift, vertical_gap};
use crate::combat::policy::DefaultPolicy;
use crate::combat::prepared::PreparedEncounter;
use crate::rng::SeededRng;

/// A Medium winged flier (fly 60 ft, average) with Fly `bonus`, 30 hp.
fn flier(name: &str, bonus: i32, extra: Value) -> crate::model::Combatant {
    let mut o = json!({ "speed_fly_ft": 60, "fly_maneuverability": "average", "hp_max": 30,
                        "skills": { "Fly": { "bonus": bonus } } });
    o.as_object_mut().unwrap().extend(extra.as_object().unwrap().clone());
    creature(name, o)
}

/// The Hover monster rule (no Fly check to stay in place).
fn hovering() -> Value {
    json!({ "features": [{ "name": "hover", "category": "special", "notes": "what the test plays" }] })
}

#[test]
fn distance_adds_the_vertical_gap_as_a_third_axis_of_the_5_10_5_count() {
    // Three diagonal steps cost 5 + 10 + 5.
    assert_eq!(lift(15, 15), 20);
    assert_eq!(lift(10, 10), 15);
    // Adjacent on the ground, 20 ft up: 20 ft.
    assert_eq!(lift(5, 20), 20);
    assert_eq!(lift(30, 0), 30);
    // Medium on the ground against a Medium flier at 20 ft: 20 ft apart in
    // height; the layers touch at 5 ft; a Large creature is 10 ft tall.
    assert_eq!(vertical_gap(0, 1, 20, 1), 20);
    assert_eq!(vertical_gap(20, 1, 0, 1), 20);
    assert_eq!(vertical_gap(0, 1, 5, 1), 5);
    assert_eq!(vertical_gap(0, 2, 20, 1), 15);
    assert_eq!(vertical_gap(0, 2, 5, 1), 0);
    // Climbing costs double, diving normal; falls: 1d6 per full 10 ft, at most 20d6.
    assert_eq!(climb_cost(0, 20), 40);
    assert_eq!(climb_cost(20, 0), 20);
    assert_eq!(
        [fall_dice(5), fall_dice(10), fall_dice(35), fall_dice(200), fall_dice(1000)],
        [0, 1, 3, 20, 20]
    );
}

/// Plays `rounds` rounds of `walker` (default policy) against a flier set at
/// `alt` feet that does nothing, for `seeds` seeds; returns the walker's
/// attack events against the flier.
fn walker_attacks_on_flier(walker: crate::model::Combatant, alt: u32, seeds: u64) -> usize {
    let prep = prepare(
        arena(6, 6),
        vec![("players", walker, at(2, 2)), ("monsters", flier("Flier", 0, hovering()), at(2, 4))],
    );
    let mut attacks = 0;
    for seed in 0..seeds {
        let mut rng = SeededRng::for_run(11, seed);
        let mut events: Vec<Record> = Vec::new();
        let mut e = Engine::new(&prep, &SimOptions::default(), &mut rng, Some(&mut events));
        e.st.fighters[1].mobility.alt = alt;
        for _ in 0..4 {
            e.start_round();
            e.take_turn(0, &mut DefaultPolicy);
            e.take_turn(1, &mut script(vec![]));
        }
        drop(e);
        attacks += events
            .iter()
            .filter(|r| matches!(&r.event, Event::Attack(a) if a.who == 0 && a.target == 1))
            .count();
    }
    attacks
}

#[test]
fn a_hovering_flier_at_20_ft_takes_no_melee_attack_from_a_medium_creature_without_reach() {
    let swordsman = || creature("Swordsman", json!({ "attacks": [melee("sword", 5, "1d6")] }));
    assert_eq!(walker_attacks_on_flier(swordsman(), 20, 100), 0);
    // Nor with a reach weapon (10 ft); at 5 ft the sword reaches it.
    let spear = json!({ "name": "longspear", "kind": "melee", "attack_bonus": 5, "reach_weapon": true,
                        "damage": [{ "formula": "1d8", "types": ["piercing"] }] });
    assert_eq!(walker_attacks_on_flier(creature("Pikeman", json!({ "attacks": [spear] })), 20, 100), 0);
    assert!(walker_attacks_on_flier(swordsman(), 5, 20) >= 20);
    // A bow reaches it at 20 ft.
    let archer = creature("Archer", json!({ "attacks": [ranged("bow", 5, "1d8", 100)] }));
    assert!(walker_attacks_on_flier(archer, 20, 20) >= 20);
}

#[test]
fn climbing_costs_double_before_the_move_across_and_walkers_cannot_climb() {
    let prep = prepare(
        arena(3, 12),
        vec![
            ("players", flier("Hawk", 10, json!({})), at(1, 0)),
            ("monsters", creature("Man", json!({})), at(1, 11)),
        ],
    );
    // Fly 60: a climb of 20 ft costs 40, leaving 20 ft across.
    let mut b = Bench::new(&[15]);
    let mut e = b.engine(&prep, &SimOptions::default());
    let up = |to: crate::map::Pos| Action::new(ActionKind::Move).with_destination(to).with_altitude(20);
    turn(&mut e, 0, vec![up(at(1, 4))]);
    assert_eq!((e.st.altitude(0), e.st.pos(0)), (20, at(1, 4)));
    drop(e);
    let mut b = Bench::new(&[15]);
    let mut e = b.engine(&prep, &SimOptions::default());
    turn(&mut e, 0, vec![up(at(1, 5))]);
    assert_eq!(e.st.pos(0), at(1, 0), "25 ft across is beyond the 20 ft left");
    // Diving costs normal speed: 20 down and 40 across.
    e.st.fighters[0].mobility.alt = 20;
    e.start_round();
    turn(&mut e, 0, vec![Action::new(ActionKind::Move).with_destination(at(1, 8)).with_altitude(0)]);
    assert_eq!((e.st.altitude(0), e.st.pos(0)), (0, at(1, 8)));
    // A walker cannot leave the ground.
    e.start_round();
    turn(&mut e, 1, vec![Action::new(ActionKind::Move).with_destination(at(1, 10)).with_altitude(10)]);
    assert_eq!((e.st.altitude(1), e.st.pos(1)), (0, at(1, 11)));
    assert!(b.lines().iter().any(|l| l.contains("man: move failed (cannot_move)")), "{:#?}", b.lines());
}

#[test]
fn a_flier_that_stays_in_place_checks_dc_15_and_plummets_on_wings_when_it_fails_by_5() {
    let prep = prepare(
        arena(3, 8),
        vec![
            ("players", flier("Hawk", 0, json!({})), at(1, 0)),
            ("monsters", creature("Man", json!({})), at(1, 7)),
        ],
    );
    // d20 15: stays. d20 11: fails by 4, sinks 10 ft. d20 10: fails by 5,
    // falls 10 ft (1d6 = 4).
    let mut b = Bench::new(&[15, 11, 10, 4]);
    let mut e = b.engine(&prep, &SimOptions::default());
    e.st.fighters[0].mobility.alt = 20;
    turn(&mut e, 0, vec![]);
    assert_eq!(e.st.altitude(0), 20);
    e.start_round();
    turn(&mut e, 0, vec![]);
    assert_eq!(e.st.altitude(0), 10);
    e.start_round();
    turn(&mut e, 0, vec![]);
    assert_eq!((e.st.altitude(0), e.st.hp(0)), (0, 30 - 4));
    drop(e);
    let falls: Vec<_> = b
        .events
        .iter()
        .filter_map(|r| match r.event {
            Event::Falls { who: 0, from_ft, feet, cause, damage } => Some((from_ft, feet, cause, damage)),
            _ => None,
        })
        .collect();
    assert_eq!(falls, [(10, 10, FallCause::FailedCheck, 4)]);
    // Moving more than half its speed needs no check.
    let mut b = Bench::new(&[20, 20, 20]);
    let mut e = b.engine(&prep, &SimOptions::default());
    e.st.fighters[0].mobility.alt = 20;
    turn(&mut e, 0, vec![Action::new(ActionKind::Move).with_destination(at(2, 7))]);
    assert_eq!((e.st.altitude(0), e.st.pos(0)), (20, at(2, 7)));
    drop(e);
    assert!(!b.lines().iter().any(|l| l.contains("Fly check")), "{:#?}", b.lines());
}

/// Mean falling damage of a flier knocked out at `alt` feet, over `runs` seeds, from the event stream.
fn mean_fall(prep: &PreparedEncounter, alt: u32, runs: u64) -> (f64, u32) {
    let (mut total, mut max) = (0u64, 0u32);
    for seed in 0..runs {
        let mut rng = SeededRng::for_run(3, seed);
        let mut events = Vec::new();
        let mut e = started(prep, &mut rng, Some(&mut events));
        e.st.fighters[0].mobility.alt = alt;
        // Unconscious: nonlethal damage above its hit points.
        e.st.fighters[0].nonlethal = 1000;
        let hp = e.st.hp(0);
        e.settle_fliers();
        let lost = (hp - e.st.hp(0)) as u32;
        assert_eq!(e.st.altitude(0), 0);
        drop(e);
        let damage: u32 = events
            .iter()
            .filter_map(|r| match r.event {
                Event::Falls { who: 0, cause: FallCause::Helpless, damage, .. } => Some(damage),
                _ => None,
            })
            .sum();
        assert_eq!(damage, lost);
        total += u64::from(damage);
        max = max.max(damage);
    }
    (total as f64 / runs as f64, max)
}

#[test]
fn an_unconscious_flier_falls_and_takes_1d6_per_10_ft_at_most_20d6() {
    let prep = prepare(
        arena(3, 8),
        vec![
            ("players", flier("Hawk", 0, json!({ "hp_max": 500 })), at(1, 0)),
            ("monsters", creature("Man", json!({})), at(1, 7)),
        ],
    );
    // 6d6: mean 21, standard deviation 4.2 (0.07 over 4,000 falls).
    let (mean, max) = mean_fall(&prep, 65, 4000);
    assert!((mean - 21.0).abs() < 0.3, "mean {mean}");
    assert!(max <= 36);
    // 500 ft: capped at 20d6 (mean 70, at most 120).
    let (mean, max) = mean_fall(&prep, 500, 1000);
    assert!((mean - 70.0).abs() < 1.2, "mean {mean}");
    assert!(max <= 120);
}

/// The level-4 party against the bestiary's young black dragon on the field
/// map, as `pf1e sim` builds it.
fn dragon_fight() -> (crate::encounter::Encounter, PreparedEncounter) {
    let encounter = party_on_field("young_black_dragon");
    let prep = PreparedEncounter::new(&encounter).expect("prepared");
    (encounter, prep)
}

/// The events of battle `seed` of the dragon fight: the dragon on the
/// default policy, the party sparing it its control areas (a Glitterdust
/// before the dragon's first turn would test the party, not the dragon).
fn dragon_battle(
    encounter: &crate::encounter::Encounter,
    prep: &PreparedEncounter,
    seed: u64,
) -> Vec<Record> {
    let mut rng = crate::rng::SeededRng::for_run(1, seed);
    let mut events = Vec::new();
    let mut policy = party_spares_control(encounter);
    crate::combat::run_prepared(prep, &SimOptions::default(), &mut rng, Some(&mut events), &mut policy);
    events
}

#[test]
fn the_young_black_dragon_breathes_from_above_the_partys_reach_and_no_pc_melees_it_there() {
    let (encounter, prep) = dragon_fight();
    let d = 4;
    let safe = crate::combat::BattleState::new(&prep, &SimOptions::default()).out_of_reach_altitude(d);
    assert!(safe >= 10, "out of reach at {safe} ft");
    let (runs, mut from_above, mut rounds_above) = (60u64, 0, 0u32);
    for seed in 0..runs {
        let events = dragon_battle(&encounter, &prep, seed);
        let (mut alt, mut breathed_above, mut last_round) = (0u32, false, u32::MAX);
        let mut flown = vec![0u32; prep.fighters.len()];
        for r in &events {
            if let Event::Altitude { who, to_ft, .. } = &r.event
                && let Some(f) = flown.get_mut(*who)
            {
                *f = *to_ft;
            }
            match &r.event {
                Event::Altitude { who, to_ft, .. } if *who == d => alt = *to_ft,
                Event::Falls { who, .. } if *who == d => alt = 0,
                Event::Affliction { who, what: AfflictionEvent::Breath { .. } } if *who == d => {
                    breathed_above |= alt >= safe;
                }
                // The PCs on the ground (summoned eagles, and Harvie once
                // out of arrows, fly up to it: `plan_climb`).
                Event::Attack(a) if a.target == d && a.who < d && alt >= safe => {
                    let melee =
                        prep.fighters[a.who].offense.attacks.iter().any(|w| w.melee && w.name == a.weapon);
                    assert!(
                        !melee || flown[a.who] > 0,
                        "seed {seed}: {} meleed the dragon at {alt} ft from the ground",
                        a.who
                    );
                }
                _ => {}
            }
            if alt >= safe && r.round != last_round {
                last_round = r.round;
                rounds_above += 1;
            }
        }
        from_above += u64::from(breathed_above);
    }
    assert!(from_above * 10 >= runs * 9, "breathed from above in {from_above} of {runs} battles");
    assert!(rounds_above as u64 >= runs, "{rounds_above} rounds above reach in {runs} battles");
}

#[test]
fn the_young_black_dragon_waits_aloft_while_its_breath_recharges_instead_of_diving_in() {
    // Strafing (issue 19): after its first breath the dragon makes no attack
    // of its own (attacks of opportunity aside) unless a fall grounded it;
    // it breathes again when the breath is back.
    let (encounter, prep) = dragon_fight();
    let d = 4;
    let (runs, mut breaths) = (40u64, 0u64);
    for seed in 0..runs {
        let events = dragon_battle(&encounter, &prep, seed);
        let (mut breathed, mut fell) = (false, false);
        for r in &events {
            match &r.event {
                Event::Falls { who, .. } if *who == d => fell = true,
                Event::Affliction { who, what: AfflictionEvent::Breath { .. } } if *who == d => {
                    breathed = true;
                    breaths += 1;
                }
                Event::Attack(a) if a.who == d && !a.aoo => {
                    assert!(
                        !breathed || fell,
                        "seed {seed}: the dragon attacked {} after a breath",
                        a.target
                    );
                }
                _ => {}
            }
        }
    }
    assert!(breaths >= 2 * runs, "{breaths} breaths in {runs} battles");
}

#[test]
fn the_young_black_dragon_flies_to_line_up_its_breath_on_its_first_turn() {
    // Issue 19: out of its breath's 60-ft line at the start, the dragon
    // spends its move flying to where the line catches the most PCs and
    // breathes in the same turn, instead of closing in and breathing a
    // round later; it never tries an attack that cannot reach.
    let (encounter, prep) = dragon_fight();
    let d = 4;
    let runs = 40u64;
    let (mut first_turn, mut caught_two) = (0u64, 0u64);
    for seed in 0..runs {
        let events = dragon_battle(&encounter, &prep, seed);
        let mut moved = false;
        let mut first_breath = None;
        for r in &events {
            match &r.event {
                Event::Move { who, .. } if *who == d && r.round == 1 => moved = true,
                Event::Affliction { who, what: AfflictionEvent::Breath { caught, .. } } if *who == d => {
                    first_breath.get_or_insert((r.round, moved, caught.len()));
                }
                // (A move may fail under a Command's compulsion, not by its
                // choice; a dragon felled on its way breathes no more.)
                Event::ActionFailed { who, action, reason, .. }
                    if *who == d && action != "move" && reason != "actor_down" =>
                {
                    panic!("seed {seed}: the dragon's {action} failed in round {} ({reason})", r.round)
                }
                _ => {}
            }
        }
        if let Some((round, moved, n)) = first_breath {
            first_turn += u64::from(round == 1 && moved);
            caught_two += u64::from(n >= 2);
        }
    }
    assert!(first_turn * 10 >= runs * 9, "moved and breathed in round 1 in {first_turn} of {runs} battles");
    assert!(caught_two * 10 >= runs * 8, "first breath caught two or more in {caught_two} of {runs} battles");
}

#[test]
fn a_caster_does_not_cast_a_spell_again_on_a_foe_that_still_carries_it() {
    // The same spell does not stack with itself: Nairda does not cast Ill
    // Omen on the dragon while its last Ill Omen is unspent (a dragon aloft
    // rolls no d20 for rounds, and she used to cast it again each round).
    let (encounter, prep) = dragon_fight();
    let (d, nairda) = (4, 3);
    let (runs, mut casts) = (40u64, 0u64);
    for seed in 0..runs {
        let mut carries = false;
        for r in &dragon_battle(&encounter, &prep, seed) {
            match &r.event {
                Event::EffectGained { who, effect, .. } if *who == d && effect.starts_with("Ill Omen") => {
                    carries = true
                }
                Event::EffectEnds { who, effect, .. } if *who == d && effect.starts_with("Ill Omen") => {
                    carries = false
                }
                Event::Casts { who, spell, target, .. }
                    if *who == nairda && spell == "Ill Omen" && *target == Some(d) =>
                {
                    assert!(!carries, "seed {seed}: Ill Omen cast again in round {}", r.round);
                    casts += 1;
                }
                _ => {}
            }
        }
    }
    assert!(casts >= runs / 4, "Ill Omen cast {casts} times in {runs} battles");
}

#[test]
fn a_flier_that_cannot_hover_safely_flies_up_to_a_foe_aloft_and_attacks_it() {
    // A celestial eagle (fly 60, Fly +8, talons only) under a foe hovering
    // at 20 ft used to "attack" from the ground, out of reach, every turn.
    let eagle = flier("Eagle", 8, json!({ "attacks": [melee("talon", 5, "1d4")] }));
    let prep = prepare(
        arena(6, 6),
        vec![("players", eagle, at(2, 2)), ("monsters", flier("Flier", 0, hovering()), at(2, 4))],
    );
    let (runs, mut climbed_and_hit) = (30u64, 0u64);
    for seed in 0..runs {
        let mut rng = SeededRng::for_run(13, seed);
        let mut events: Vec<Record> = Vec::new();
        let mut e = Engine::new(&prep, &SimOptions::default(), &mut rng, Some(&mut events));
        e.st.fighters[1].mobility.alt = 20;
        e.start_round();
        e.take_turn(0, &mut DefaultPolicy);
        drop(e);
        let failed = events.iter().any(|r| matches!(&r.event, Event::ActionFailed { who: 0, .. }));
        assert!(!failed, "seed {seed}: {events:?}");
        let climbed = events.iter().any(|r| matches!(&r.event, Event::Altitude { who: 0, to_ft: 20, .. }));
        let attacked =
            events.iter().any(|r| matches!(&r.event, Event::Attack(a) if a.who == 0 && a.target == 1));
        climbed_and_hit += u64::from(climbed && attacked);
    }
    assert_eq!(climbed_and_hit, runs);
}

#[test]
fn a_swordsman_below_a_hovering_flier_turns_to_a_foe_on_the_ground_else_readies_an_attack() {
    let swordsman = || creature("Swordsman", json!({ "attacks": [melee("sword", 5, "1d6")] }));
    // Alone under a flier at 20 ft: it readies an attack for when the flier
    // comes within reach, every turn, and never swings at the air.
    let prep = prepare(
        arena(6, 6),
        vec![("players", swordsman(), at(2, 2)), ("monsters", flier("Flier", 0, hovering()), at(2, 4))],
    );
    for seed in 0..30 {
        let mut rng = SeededRng::for_run(12, seed);
        let mut events: Vec<Record> = Vec::new();
        let mut e = Engine::new(&prep, &SimOptions::default(), &mut rng, Some(&mut events));
        e.st.fighters[1].mobility.alt = 20;
        for _ in 0..3 {
            e.start_round();
            e.take_turn(0, &mut DefaultPolicy);
        }
        drop(e);
        let readies = events.iter().filter(|r| matches!(&r.event, Event::Readies { who: 0, .. })).count();
        let swings = events.iter().filter(|r| matches!(&r.event, Event::Attack(a) if a.who == 0)).count();
        assert_eq!((readies, swings), (3, 0), "seed {seed}");
    }
    // With a goblin on the ground farther away, it goes for the goblin.
    let prep = prepare(
        arena(6, 8),
        vec![
            ("players", swordsman(), at(2, 2)),
            ("monsters", flier("Flier", 0, hovering()), at(2, 3)),
            ("monsters", creature("Goblin", json!({ "hp_max": 200 })), at(2, 6)),
        ],
    );
    for seed in 0..30 {
        let mut rng = SeededRng::for_run(12, seed);
        let mut events: Vec<Record> = Vec::new();
        let mut e = Engine::new(&prep, &SimOptions::default(), &mut rng, Some(&mut events));
        e.st.fighters[1].mobility.alt = 20;
        for _ in 0..2 {
            e.start_round();
            e.take_turn(0, &mut DefaultPolicy);
        }
        drop(e);
        assert!(
            events.iter().any(|r| matches!(&r.event, Event::Attack(a) if a.who == 0 && a.target == 2)),
            "seed {seed}"
        );
        assert!(!events.iter().any(|r| matches!(&r.event, Event::Readies { who: 0, .. })), "seed {seed}");
    }
}
