//! A creature keeps out of its own side's harmful lasting areas (Stinking
//! Cloud, Web, Black Tentacles…), and a thinking one out of its foes' that
//! would harm it: it goes around when a way serves, and
//! waits at the edge when every square to attack from lies inside. One
//! that starts its turn inside any side's harmful area gets out first.

use serde_json::json;

use super::support::*;
use crate::combat::SimOptions;
use crate::combat::action::{Action, ActionKind};
use crate::combat::event::{Event, MoveKind, Record, SpellEvent};
use crate::combat::prepared::PreparedEncounter;
use crate::grid::distance_ft;
use crate::map::Pos;

fn wizard() -> crate::model::Combatant {
    caster("Wizard", &["Stinking Cloud"], json!({ "spell_list": "wizard", "hp_max": 40 }))
}

fn fighter() -> crate::model::Combatant {
    creature("Fighter", json!({ "hp_max": 60, "attacks": [melee("sword", 8, "1d8+4")] }))
}

fn dummy(name: &str) -> crate::model::Combatant {
    creature(name, json!({ "hp_max": 50, "attacks": [] }))
}

/// The wizard's Stinking Cloud centred on `p`.
fn cloud_at(prep: &PreparedEncounter, p: Pos) -> Action {
    let mut cast = Action::cast(prep.spell_index("Stinking Cloud").expect("the spell"), None);
    cast.destination = Some(p);
    cast
}

/// Whether `p` lies in Stinking Cloud's 20-ft spread from `point` on an open
/// arena (nothing to walk around: the 5-10-5 distance).
fn in_cloud(point: Pos, p: Pos) -> bool {
    distance_ft(point, p) <= 20
}

/// The cloud on the wizard's own side (0) at (6, 12), between the fighter (1)
/// at (6, 3) and a foe: the fighter's move toward the foe goes around it.
#[test]
fn a_move_toward_a_foe_goes_around_its_own_sides_cloud_when_a_way_serves() {
    let prep = prepare_magic(
        arena(13, 30),
        vec![("a", wizard(), at(6, 1)), ("a", fighter(), at(6, 3)), ("b", dummy("Far"), at(6, 24))],
    );
    let cast = cloud_at(&prep, at(6, 12));
    let mut b = Bench::new(&[10; 40]);
    let mut e = b.engine(&prep, &SimOptions::default());
    // Without the cloud the straight way runs along row 6.
    turn(&mut e, 0, vec![cast]);
    assert_eq!(e.st.zones.len(), 1);
    for round in 0..4 {
        turn(&mut e, 1, vec![Action::at(ActionKind::Move, 2), Action::at(ActionKind::Move, 2)]);
        let p = e.st.pos(1);
        assert!(!in_cloud(at(6, 12), p), "round {round}: the fighter stands in the cloud at {p:?}");
    }
    drop(e);
    let paths: Vec<&Vec<Pos>> = b
        .events
        .iter()
        .filter_map(|r| match &r.event {
            Event::Move { who: 1, path, .. } => Some(path),
            _ => None,
        })
        .collect();
    assert!(paths.len() >= 4, "the fighter moved: {paths:?}");
    for path in &paths {
        assert!(path.iter().all(|&p| !in_cloud(at(6, 12), p)), "a path through the cloud: {path:?}");
    }
    let last = paths.last().and_then(|p| p.last()).copied().unwrap();
    assert!(last.col > 16, "around the cloud and past it: {last:?}");
}

/// A foe of the other side goes around the same cloud too (the vapours are
/// there to see), unless it is mindless; a move to an explicit square inside
/// goes in.
#[test]
fn a_thinking_foe_goes_around_the_cloud_a_mindless_one_and_an_explicit_destination_go_in() {
    let cloud_between = |foe: crate::model::Combatant| {
        let prep = prepare_magic(
            arena(13, 30),
            vec![("a", wizard(), at(6, 1)), ("b", foe, at(6, 20)), ("a", dummy("Near"), at(6, 4))],
        );
        let cast = cloud_at(&prep, at(6, 12));
        let mut b = Bench::new(&[10; 40]);
        let mut e = b.engine(&prep, &SimOptions::default());
        turn(&mut e, 0, vec![cast]);
        turn(&mut e, 1, vec![Action::at(ActionKind::Move, 2)]);
        drop(e);
        b.events
            .iter()
            .find_map(|r| match &r.event {
                Event::Move { who: 1, path, .. } => Some(path.clone()),
                _ => None,
            })
            .expect("the foe moves")
    };
    let around = cloud_between(fighter());
    assert!(around.iter().all(|&p| !in_cloud(at(6, 12), p)), "a thinking foe walks through: {around:?}");
    let mut zombie = fighter();
    zombie.abilities.int_score = None;
    let through = cloud_between(zombie);
    assert!(through.iter().any(|&p| in_cloud(at(6, 12), p)), "a mindless foe goes around: {through:?}");
    let prep = prepare_magic(arena(13, 30), vec![("a", wizard(), at(6, 1)), ("a", fighter(), at(6, 6))]);
    let mut b = Bench::new(&[10; 40]);
    let mut e = b.engine(&prep, &SimOptions::default());
    let cast = cloud_at(&prep, at(6, 12));
    turn(&mut e, 0, vec![cast]);
    turn(&mut e, 1, vec![Action::new(ActionKind::Move).with_destination(at(6, 10))]);
    assert_eq!(e.st.pos(1), at(6, 10), "an explicit destination is reached");
}

/// Every foe inside the cloud: the fighter's move stops at its edge.
#[test]
fn with_every_square_to_attack_from_inside_the_mover_waits_at_the_edge() {
    let prep = prepare_magic(
        arena(13, 30),
        vec![("a", wizard(), at(6, 1)), ("a", fighter(), at(6, 3)), ("b", dummy("Caught"), at(6, 12))],
    );
    let cast = cloud_at(&prep, at(6, 12));
    // The dummy's Fortitude save: 1 (nauseated).
    let mut b = Bench::new(&[1; 40]);
    let mut e = b.engine(&prep, &SimOptions::default());
    turn(&mut e, 0, vec![cast]);
    turn(&mut e, 1, vec![Action::at(ActionKind::Move, 2)]);
    assert_eq!(e.st.pos(1), at(6, 7), "the last square before the cloud (20 ft from its centre is inside)");
}

/// The wizard and a fighter against a cluster of three brutes (`mindless`:
/// with no Intelligence score).
fn party_against_cluster(mindless: bool) -> crate::encounter::Encounter {
    let brute = |n: &str| {
        let mut c = creature(
            n,
            json!({ "hp_max": 25, "saves": { "fort": 2, "ref": 0, "will": 0 },
                    "attacks": [melee("club", 4, "1d6+2")] }),
        );
        if mindless {
            c.abilities.int_score = None;
        }
        c
    };
    encounter(
        arena(15, 40),
        vec![
            ("a", wizard(), at(7, 1)),
            ("a", fighter(), at(3, 2)),
            ("b", brute("A"), at(7, 22)),
            ("b", brute("B"), at(7, 23)),
            ("b", brute("C"), at(8, 22)),
        ],
    )
    .with_library(library())
}

/// Over 300 battles of [`party_against_cluster`]: (the clouds in place, the
/// party's moves that started outside one while it lasted, how many of them
/// went in, how many of the brutes' moves from outside went in).
fn cloud_entries(mindless: bool) -> (u32, u32, u32, u32) {
    // The wizard casts its cloud on two brutes at least (`area_min=3`), one
    // cloud at a time as the bookkeeping below assumes; the brutes play the
    // default policy.
    let enc = party_against_cluster(mindless);
    let prep = PreparedEncounter::new(&enc).expect("prepared");
    let (mut clouds, mut moves_beside, mut entered, mut foes_entered) = (0u32, 0u32, 0u32, 0u32);
    for seed in 0..300 {
        let mut rng = crate::rng::SeededRng::for_run(53, seed);
        let mut events: Vec<Record> = Vec::new();
        let mut policy = party_spares_control(&enc);
        crate::combat::run_prepared(&prep, &SimOptions::default(), &mut rng, Some(&mut events), &mut policy);
        // The points of the clouds in place.
        let mut live: Vec<Pos> = Vec::new();
        let mut aimed = None;
        for r in &events {
            let moved = match &r.event {
                Event::Casts { spell, point: Some(p), .. } if spell == "Stinking Cloud" => {
                    aimed = Some(*p);
                    None
                }
                // The cloud is there (a cast lost to a blow leaves none).
                Event::Spell { what: SpellEvent::Lasts { .. }, .. } => {
                    clouds += 1;
                    live.extend(aimed.take());
                    None
                }
                Event::Spell { what: SpellEvent::ZoneEnds, .. } => {
                    if !live.is_empty() {
                        live.remove(0);
                    }
                    None
                }
                Event::Move { who, kind, from, path } if *kind != MoveKind::Engulf => {
                    Some((*who, *from, path.clone()))
                }
                Event::Step { who, from, to } => Some((*who, *from, vec![*to])),
                _ => None,
            };
            let Some((who, from, path)) = moved else { continue };
            for &c in &live {
                if in_cloud(c, from) {
                    continue;
                }
                let into = path.iter().any(|&p| in_cloud(c, p));
                // Combatants 0 and 1 are the wizard's side.
                if who <= 1 {
                    moves_beside += 1;
                    entered += u32::from(into);
                } else {
                    foes_entered += u32::from(into);
                }
            }
        }
    }
    (clouds, moves_beside, entered, foes_entered)
}

#[test]
fn over_many_battles_no_thinking_creature_walks_into_a_cloud_only_mindless_foes_do() {
    let (clouds, moves_beside, entered, foes_entered) = cloud_entries(false);
    assert!(clouds > 150, "the wizard casts the cloud at the cluster: {clouds} casts in 300 battles");
    assert!(moves_beside > 150, "the party moves while a cloud lasts: {moves_beside}");
    assert_eq!(entered, 0, "moves of the party into its own cloud ({moves_beside} moves from outside)");
    // The brutes caught in it walk out, then around it toward the wizard,
    // not back in (their second move of the turn included).
    assert_eq!(foes_entered, 0, "moves of the brutes back into the cloud they saw");
    let (_, _, entered, foes_entered) = cloud_entries(true);
    assert_eq!(entered, 0, "moves of the party into its own cloud");
    assert!(foes_entered > 0, "mindless brutes walk into the cloud");
}

/// A wizard of the other side (0) at (6, 1) and the hero (1, 9 HD: Cloudkill
/// takes Constitution) at `hero_at` with a potion, its hit points set to
/// `hp` of 60 once the cloud is on it; and a foe (2) at `foe_at`. Over 30
/// seeds: the hero's turns (`rounds`, 1 or 2; the wizard does nothing
/// more) after Cloudkill centred on (6, 12), as (whether it ended each
/// turn out of the cloud, the potions it drank, its attacks, the events).
fn in_cloudkill(hero_at: Pos, hp: i32, foe_at: Pos, rounds: u32) -> Vec<(bool, u32, u32, Vec<Record>)> {
    in_cloudkill_at_speed(hero_at, hp, foe_at, rounds, 30)
}

/// [`in_cloudkill`] with the hero's land speed.
fn in_cloudkill_at_speed(
    hero_at: Pos,
    hp: i32,
    foe_at: Pos,
    rounds: u32,
    speed_ft: u32,
) -> Vec<(bool, u32, u32, Vec<Record>)> {
    use crate::combat::policy::DefaultPolicy;
    use crate::rng::SeededRng;
    let wiz = caster("Wizard", &["Cloudkill"], json!({ "spell_list": "wizard", "level": 9, "hp_max": 60 }));
    let hero = creature(
        "Hero",
        json!({ "level": 9, "hp_max": 60, "attacks": [melee("sword", 8, "1d8+4")], "speed_land_ft": speed_ft,
                "carried_items": [{ "name": "potion of cure light wounds", "quantity": 2 }] }),
    );
    let prep = prepare_magic(
        arena(13, 30),
        vec![("b", wiz, at(6, 1)), ("a", hero, hero_at), ("b", dummy("Foe"), foe_at)],
    );
    let cloudkill = prep.spell_index("Cloudkill").unwrap();
    (0..30)
        .map(|seed| {
            let mut rng = SeededRng::for_run(61, seed);
            let mut events: Vec<Record> = Vec::new();
            let mut e = started(&prep, &mut rng, Some(&mut events));
            let mut cast = Action::cast(cloudkill, None);
            cast.destination = Some(at(6, 12));
            e.take_turn(0, &mut script(vec![cast]));
            assert_eq!(e.st.zones.len(), 1, "the cloud is there");
            e.st.fighters[1].hp = hp;
            e.take_turn(1, &mut DefaultPolicy);
            let mut out = e.st.hindering_zones_on(1).is_empty();
            if rounds == 2 {
                e.start_round();
                e.take_turn(0, &mut script(vec![]));
                e.take_turn(1, &mut DefaultPolicy);
                out &= e.st.hindering_zones_on(1).is_empty();
            }
            drop(e);
            let drank =
                events.iter().filter(|r| matches!(r.event, Event::UsesItem { who: 1, .. })).count() as u32;
            let swings =
                events.iter().filter(|r| matches!(&r.event, Event::Attack(a) if a.who == 1)).count() as u32;
            (out, drank, swings, events)
        })
        .collect()
}

#[test]
fn a_hurt_creature_in_a_foes_cloudkill_walks_out_before_it_drinks() {
    // At 10 hp of 60, far from any blade, it would drink a potion (as Oni
    // did, in the cloud); drawing and drinking one takes the whole turn: it
    // walks out of the cloud, then drinks on its next turn.
    for (out, drank, _, events) in in_cloudkill(at(6, 12), 10, at(6, 27), 2) {
        assert!(out, "in the cloud at the end of a turn: {events:#?}");
        assert_eq!(drank, 1, "{events:#?}");
        let moved = events.iter().position(|r| matches!(r.event, Event::Move { who: 1, .. }));
        let drunk = events.iter().position(|r| matches!(r.event, Event::UsesItem { who: 1, .. }));
        assert!(moved.is_some() && moved < drunk, "the move before the potion: {events:#?}");
        assert!(drunk.is_some_and(|k| events[k].round == 2), "the potion on the next turn: {events:#?}");
    }
}

#[test]
fn a_slow_creature_at_the_heart_of_a_cloudkill_runs_out_with_both_moves() {
    // At 20 ft a move, 25 ft from the cloud's edge: no square outside within
    // one move, so it spends the turn on two (it drank in the cloud before),
    // ends it outside, and drinks on its next turn.
    for (out, drank, _, events) in in_cloudkill_at_speed(at(6, 12), 10, at(6, 27), 2, 20) {
        assert!(out, "in the cloud at the end of a turn: {events:#?}");
        let moves: Vec<u32> = events
            .iter()
            .filter(|r| matches!(r.event, Event::Move { who: 1, .. }))
            .map(|r| r.round)
            .collect();
        assert_eq!(moves.iter().filter(|&&r| r == 1).count(), 2, "two moves out: {events:#?}");
        assert_eq!(drank, 1, "{events:#?}");
    }
}

#[test]
fn a_creature_at_the_edge_of_a_cloudkill_steps_out_and_still_full_attacks() {
    // On the cloud's edge (20 ft east of its centre) next to a foe outside:
    // a 5-foot step out, then the full attack (BAB +1: one swing).
    for (out, _, swings, events) in in_cloudkill(at(6, 16), 60, at(6, 17), 1) {
        assert!(out, "still in the cloud: {events:#?}");
        assert!(events.iter().any(|r| matches!(r.event, Event::Step { who: 1, .. })), "{events:#?}");
        assert!(swings >= 1, "{events:#?}");
    }
}

/// A hero (1) in a foe's Web or Cloudkill centred on it (paralysed, or
/// undead, when told), over 30 seeds: the moves out its default plan makes
/// first (a move to a square, not toward a foe).
fn ways_out(spell: &str, paralysed: bool, undead: bool) -> usize {
    use crate::combat::decide::Policy;

    use crate::combat::policy::DefaultPolicy;
    use crate::effects::ConditionId;
    use crate::rng::SeededRng;
    let wiz = caster("Wizard", &[spell], json!({ "spell_list": "wizard", "level": 9, "hp_max": 60 }));
    let mut hero = json!({ "level": 9, "hp_max": 60, "attacks": [melee("sword", 8, "1d8+4")] });
    if undead {
        hero["creature_type"] = json!("undead");
    }
    let prep = prepare_magic(
        arena(13, 30),
        vec![("b", wiz, at(6, 1)), ("a", creature("Hero", hero), at(6, 12)), ("b", dummy("Foe"), at(6, 27))],
    );
    let index = prep.spell_index(spell).unwrap();
    let mut moves = 0;
    for seed in 0..30 {
        let mut rng = SeededRng::for_run(67, seed);
        let mut e = started(&prep, &mut rng, None);
        let mut cast = Action::cast(index, None);
        cast.destination = Some(at(6, 12));
        e.take_turn(0, &mut script(vec![cast]));
        assert_eq!(e.st.hindering_zones_on(1).is_empty(), undead, "the hero stands in the {spell}");
        if paralysed {
            e.set_condition(1, ConditionId::Paralyzed);
        }
        let mut plan = Vec::new();
        DefaultPolicy.plan(&e.st, 1, &mut plan);
        moves += plan
            .first()
            .filter(|a| a.kind == ActionKind::Move && a.target.is_none() && a.destination.is_some())
            .map_or(0, |_| 1);
    }
    moves
}

#[test]
fn no_way_out_is_planned_in_a_web_nor_when_paralysed_nor_from_a_harmless_cloud() {
    assert_eq!(ways_out("Cloudkill", false, false), 30, "the control: out of the cloud each time");
    assert_eq!(ways_out("Web", false, false), 0, "moving in a web asks a check: the engine's escape rules");
    assert_eq!(ways_out("Cloudkill", true, false), 0, "a paralysed hero cannot move");
    assert_eq!(ways_out("Cloudkill", false, true), 0, "Cloudkill is nothing to an undead");
}

/// The fighter's acts over three turns on the default policy, the wizard's
/// cloud on the dummy at (6, 12) (its Fortitude save a 1: nauseated), with
/// `free` another foe outside the cloud, or not.
fn at_the_edge(free: bool) -> (Vec<Record>, Pos) {
    let mut placed =
        vec![("a", wizard(), at(6, 1)), ("a", fighter(), at(6, 3)), ("b", dummy("Caught"), at(6, 12))];
    if free {
        placed.push(("b", dummy("Free"), at(12, 14)));
    }
    let prep = prepare_magic(arena(13, 30), placed);
    let cast = cloud_at(&prep, at(6, 12));
    let mut b = Bench::new(&[1; 200]);
    let mut e = b.engine(&prep, &SimOptions::default());
    turn(&mut e, 0, vec![cast]);
    for _ in 0..3 {
        e.start_round();
        e.take_turn(1, &mut crate::combat::policy::DefaultPolicy);
    }
    let p = e.st.pos(1);
    drop(e);
    (b.events, p)
}

#[test]
fn a_fighter_whose_foe_sits_deep_in_its_own_sides_cloud_goes_for_a_free_foe_else_readies_at_the_edge() {
    // Alone in the cloud: the fighter walks to its edge, then readies an
    // attack for when the foe comes out (before: "already in position" and
    // an attack that failed out of range, every turn).
    let (events, p) = at_the_edge(false);
    assert_eq!(p, at(6, 7), "at the edge");
    let failed: Vec<&Record> =
        events.iter().filter(|r| matches!(&r.event, Event::ActionFailed { who: 1, .. })).collect();
    assert!(failed.is_empty(), "{failed:?}");
    assert!(events.iter().any(|r| matches!(&r.event, Event::Readies { who: 1, .. })));
    // Another foe outside: the fighter goes for it.
    let (events, p) = at_the_edge(true);
    assert!(distance_ft(p, at(12, 14)) <= 5, "beside the free foe: {p:?}");
    assert!(events.iter().any(|r| matches!(&r.event, Event::Attack(a) if a.who == 1 && a.target == 3)));
    assert!(!events.iter().any(|r| matches!(&r.event, Event::ActionFailed { who: 1, .. })));
}

#[test]
fn a_second_cloud_is_not_aimed_at_foes_already_in_the_first() {
    // Two brutes side by side in the wizard's Stinking Cloud, both saved
    // (not nauseated): a second cloud of the same spell would not stack on
    // them, so the wizard aims none there. Outside the cloud, it would.
    let brute = || creature("Brute", json!({ "hp_max": 50, "attacks": [melee("club", 5, "1d8")] }));
    let prep = prepare_magic(
        arena(13, 30),
        vec![("a", wizard(), at(6, 1)), ("b", brute(), at(6, 14)), ("b", brute(), at(7, 14))],
    );
    let cloud = prep.spell_index("Stinking Cloud").expect("the spell");
    let casts_cloud = |st: &crate::combat::state::BattleState<'_>| {
        let mut out = Vec::new();
        crate::combat::decide::Policy::plan(&mut crate::combat::policy::DefaultPolicy, st, 0, &mut out);
        out.iter().any(|a| a.kind == ActionKind::CastSpell && a.spell == Some(cloud))
    };
    let mut b = Bench::new(&[20; 40]);
    let mut e = b.engine(&prep, &SimOptions::default());
    assert!(casts_cloud(&e.st), "before any cloud, the wizard casts one on the pair");
    turn(&mut e, 0, vec![cloud_at(&prep, at(6, 14))]);
    assert_eq!(e.st.zones.len(), 1);
    assert!(!e.st.has_condition(1, crate::effects::ConditionId::Nauseated));
    assert!(!casts_cloud(&e.st), "a second cloud on the same pair");
}

#[test]
fn a_second_web_is_aimed_at_foes_who_saved_against_the_first() {
    // Unlike a cloud, a web meets no one each round: its arrival is the only
    // save it asks, so a second Web on two brutes who saved against the
    // first catches them again (a table casts it).
    let brute = || creature("Brute", json!({ "hp_max": 50, "attacks": [melee("club", 5, "1d8")] }));
    let webber = caster("Wizard", &["Web"], json!({ "spell_list": "wizard", "hp_max": 40 }));
    let prep = prepare_magic(
        arena(13, 30),
        vec![("a", webber, at(6, 1)), ("b", brute(), at(6, 14)), ("b", brute(), at(7, 14))],
    );
    let web = prep.spell_index("Web").expect("the spell");
    let casts_web = |st: &crate::combat::state::BattleState<'_>| {
        let mut out = Vec::new();
        crate::combat::decide::Policy::plan(&mut crate::combat::policy::DefaultPolicy, st, 0, &mut out);
        out.iter().any(|a| a.kind == ActionKind::CastSpell && a.spell == Some(web))
    };
    let mut b = Bench::new(&[20; 40]);
    let mut e = b.engine(&prep, &SimOptions::default());
    assert!(casts_web(&e.st), "before any web, the wizard casts one on the pair");
    let mut cast = Action::cast(web, None);
    cast.destination = Some(at(6, 14));
    turn(&mut e, 0, vec![cast]);
    assert_eq!(e.st.zones.len(), 1);
    assert!(!e.st.has_condition(1, crate::effects::ConditionId::Grappled), "saved (natural 20s)");
    assert!(casts_web(&e.st), "a second web asks them a new save");
}
