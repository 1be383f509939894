//! Every life-state transition.

use serde_json::json;

use super::support::*;
use crate::combat::SimOptions;
use crate::combat::action::{Action, ActionKind, ActionResult};
use crate::combat::prepared::PreparedEncounter;
use crate::combat::state::LifeState;

/// A PC (Con 12 unless `con` says otherwise) facing a monster, on a 1x10 strip.
fn duel(hero: serde_json::Value) -> PreparedEncounter {
    let mut overrides = json!({ "role": "pc" });
    overrides.as_object_mut().unwrap().extend(hero.as_object().unwrap().clone());
    prepare(
        arena(1, 10),
        vec![
            ("players", creature("Hero", overrides), at(1, 1)),
            ("monsters", creature("Brute", json!({})), at(1, 10)),
        ],
    )
}

#[test]
fn exactly_zero_is_disabled_and_still_active() {
    let prep = duel(json!({}));
    let mut b = Bench::new(&[]);
    let mut e = b.engine(&prep, &SimOptions::default());
    e.wound(0, 10);
    assert_eq!(e.st.life(0), LifeState::Disabled);
    assert!(e.st.is_active(0));
    drop(e);
    assert_eq!(b.lines(), ["round 1 hero: is disabled (hp 0)"]);
}

#[test]
fn a_standard_action_at_zero_costs_one_hit_point() {
    let prep = duel(json!({}));
    // Attack d20 10 vs AC 10 hits, 1d6 = 3.
    let mut b = Bench::new(&[10, 3]);
    let mut e = b.engine(&prep, &SimOptions::default());
    set(&mut e, 0, at(1, 9), 0);
    turn(&mut e, 0, vec![Action::at(ActionKind::FullAttack, 1)]);
    assert_eq!(e.st.hp(0), -1);
    assert_eq!(e.st.life(0), LifeState::Dying);
    assert_eq!(e.st.hp(1), 7);
    // The full attack was played as a single attack.
    assert_eq!(e.st.last_results(0), [ActionResult::done(ActionKind::Attack)]);
    drop(e);
    assert_eq!(
        b.lines(),
        [
            "round 1 hero: sword vs brute d20=10+0=10 AC 10 -> HIT 3 dmg (hp 10->7)",
            "round 1 hero: strains while disabled (hp 0->-1)",
            "round 1 hero: falls unconscious, dying (hp -1)",
        ]
    );
}

#[test]
fn a_move_at_zero_is_free_but_at_half_speed() {
    let prep = duel(json!({}));
    let mut b = Bench::new(&[]);
    let mut e = b.engine(&prep, &SimOptions::default());
    set(&mut e, 0, at(1, 1), 0);
    turn(&mut e, 0, vec![Action::at(ActionKind::Move, 1), Action::at(ActionKind::Attack, 1)]);
    assert_eq!(e.st.hp(0), 0);
    assert_eq!(e.st.pos(0), at(1, 4));
    assert_eq!(
        e.st.last_results(0),
        [
            ActionResult::done(ActionKind::Move),
            ActionResult::failed(ActionKind::Attack, crate::combat::Reason::DowngradedStaggered)
        ]
    );
}

#[test]
fn dying_check_failure_loses_one_hit_point() {
    let prep = duel(json!({}));
    // d20 5 + 1 (Con 12) - 3 = 3 < 10.
    let mut b = Bench::new(&[5]);
    let mut e = b.engine(&prep, &SimOptions::default());
    set(&mut e, 0, at(1, 1), -3);
    turn(&mut e, 0, vec![Action::at(ActionKind::FullAttack, 1)]);
    assert_eq!(e.st.hp(0), -4);
    assert_eq!(e.st.life(0), LifeState::Dying);
    assert!(e.st.last_results(0).is_empty(), "a dying creature does not act");
    drop(e);
    assert_eq!(b.lines(), ["round 1 hero: stabilization d20=5+1-3=3 vs DC 10 -> fails (hp -3->-4)"]);
}

#[test]
fn dying_check_success_stabilizes() {
    let prep = duel(json!({}));
    let mut b = Bench::new(&[12]);
    let mut e = b.engine(&prep, &SimOptions::default());
    set(&mut e, 0, at(1, 1), -3);
    turn(&mut e, 0, vec![]);
    assert_eq!(e.st.life(0), LifeState::Stable);
    assert_eq!(e.st.hp(0), -3);
    // A stable creature no longer rolls: no die is consumed.
    turn(&mut e, 0, vec![]);
    assert_eq!(e.rng.remaining(), 0);
    drop(e);
    assert_eq!(b.lines(), ["round 1 hero: stabilization d20=12+1-3=10 vs DC 10 -> stable"]);
}

#[test]
fn natural_twenty_stabilizes_whatever_the_total() {
    let con20 = json!({ "abilities": { "str_score": 10, "dex_score": 10, "con_score": 20,
                                       "int_score": 10, "wis_score": 10, "cha_score": 10 } });
    let prep = duel(con20);
    // 19 + 5 - 17 = 7 fails; 20 + 5 - 18 = 7 but a natural 20 succeeds.
    let mut b = Bench::new(&[19, 20]);
    let mut e = b.engine(&prep, &SimOptions::default());
    set(&mut e, 0, at(1, 1), -17);
    turn(&mut e, 0, vec![]);
    assert_eq!((e.st.hp(0), e.st.life(0)), (-18, LifeState::Dying));
    turn(&mut e, 0, vec![]);
    assert_eq!((e.st.hp(0), e.st.life(0)), (-18, LifeState::Stable));
}

#[test]
fn a_new_wound_on_a_stable_creature_resumes_dying() {
    let prep = duel(json!({}));
    let mut b = Bench::new(&[3]);
    let mut e = b.engine(&prep, &SimOptions::default());
    set(&mut e, 0, at(1, 1), -3);
    e.st.fighters[0].stable = true;
    e.wound(0, 2);
    assert_eq!((e.st.hp(0), e.st.life(0)), (-5, LifeState::Dying));
    turn(&mut e, 0, vec![]);
    assert_eq!(e.st.hp(0), -6);
    drop(e);
    assert_eq!(
        b.lines(),
        [
            "round 1 hero: is wounded again, dying (hp -5)",
            "round 1 hero: stabilization d20=3+1-5=-1 vs DC 10 -> fails (hp -5->-6)",
        ]
    );
}

#[test]
fn healing_to_zero_or_more_clears_stabilization() {
    let prep = duel(json!({}));
    let mut b = Bench::new(&[]);
    let mut e = b.engine(&prep, &SimOptions::default());
    set(&mut e, 0, at(1, 1), -3);
    e.st.fighters[0].stable = true;
    assert_eq!(e.heal(0, 2), 2);
    assert_eq!(e.st.life(0), LifeState::Stable, "still below 0");
    assert_eq!(e.heal(0, 4), 4);
    assert_eq!((e.st.hp(0), e.st.life(0)), (3, LifeState::Fighting));
    e.wound(0, 4);
    assert_eq!(e.st.life(0), LifeState::Dying, "a later fall is not stable");
    assert_eq!(e.heal(0, 100), 11, "capped at hp_max");
}

#[test]
fn death_at_minus_constitution() {
    let prep = duel(json!({}));
    let mut b = Bench::new(&[]);
    let mut e = b.engine(&prep, &SimOptions::default());
    e.wound(0, 21);
    assert_eq!((e.st.hp(0), e.st.life(0)), (-11, LifeState::Dying));
    e.wound(0, 1);
    assert_eq!((e.st.hp(0), e.st.life(0)), (-12, LifeState::Dead));
    assert_eq!(e.st.occupant(at(1, 1)), None, "the dead leave the grid");
    drop(e);
    assert_eq!(b.lines(), ["round 1 hero: falls unconscious, dying (hp -11)", "round 1 hero: dies (hp -12)"]);
}

#[test]
fn undead_are_destroyed_at_zero() {
    let skeleton = json!({ "role": "monster", "creature_type": "undead",
        "abilities": { "str_score": 15, "dex_score": 14, "con_score": null,
                       "int_score": null, "wis_score": 10, "cha_score": 10 } });
    let prep = duel(skeleton);
    let mut b = Bench::new(&[]);
    let mut e = b.engine(&prep, &SimOptions::default());
    e.wound(0, 10);
    assert_eq!(e.st.life(0), LifeState::Dead);
    drop(e);
    assert_eq!(b.lines(), ["round 1 hero: is destroyed (hp 0)"]);
}

#[test]
fn simple_monster_death_spares_player_characters() {
    let prep = duel(json!({}));
    let options = SimOptions { simple_monster_death: true, ..SimOptions::default() };
    let mut b = Bench::new(&[]);
    let mut e = b.engine(&prep, &options);
    e.wound(1, 10);
    assert_eq!(e.st.life(1), LifeState::Dead, "a monster dies at 0");
    e.wound(0, 10);
    assert_eq!(e.st.life(0), LifeState::Disabled, "a PC keeps the full rule");
    e.wound(0, 5);
    assert_eq!(e.st.life(0), LifeState::Dying);
    // Without the option the monster is only disabled at 0.
    let mut b = Bench::new(&[]);
    let mut e = b.engine(&prep, &SimOptions::default());
    e.wound(1, 10);
    assert_eq!(e.st.life(1), LifeState::Disabled);
}

#[test]
fn a_scenario_may_start_a_combatant_wounded() {
    let hero = creature("Hero", json!({ "role": "pc" }));
    let brute = creature("Brute", json!({}));
    let mut encounter =
        encounter(arena(1, 10), vec![("players", hero, at(1, 1)), ("monsters", brute, at(1, 10))]);
    encounter.combatants[0].start_hp = 0;
    encounter.combatants[1].start_hp = -3;
    let prep = PreparedEncounter::new(&encounter).unwrap();
    let mut b = Bench::new(&[]);
    let e = b.engine(&prep, &SimOptions::default());
    assert_eq!((e.st.hp(0), e.st.life(0)), (0, LifeState::Disabled));
    assert_eq!((e.st.hp(1), e.st.life(1)), (-3, LifeState::Dying));
    // A monster under simple death starting at -3 is already dead, and off the map.
    let options = SimOptions { simple_monster_death: true, ..SimOptions::default() };
    let mut b = Bench::new(&[]);
    let e = b.engine(&prep, &options);
    assert_eq!(e.st.life(1), LifeState::Dead);
    assert_eq!(e.st.occupant(at(1, 10)), None);
}

/// A monster with ferocity (UMR "Ferocity") facing a PC on a 1x10 strip.
fn ferocious_duel() -> PreparedEncounter {
    let brute = creature(
        "Brute",
        json!({
            "features": [{ "name": "ferocity", "category": "special" }],
            "special_abilities": [{ "kind": "ferocity", "name": "ferocity" }]
        }),
    );
    prepare(
        arena(1, 10),
        vec![
            ("players", creature("Hero", json!({ "role": "pc" })), at(1, 1)),
            ("monsters", brute, at(1, 10)),
        ],
    )
}

#[test]
fn ferocity_fights_on_below_zero_staggered_and_loses_one_hit_point_a_round() {
    let prep = ferocious_duel();
    // Its turn: d20 10 vs AC 10 hits, 1d6 = 3.
    let mut b = Bench::new(&[10, 3]);
    let mut e = b.engine(&prep, &SimOptions::default());
    e.wound(1, 12);
    assert_eq!((e.st.hp(1), e.st.life(1)), (-2, LifeState::Disabled), "conscious below 0");
    assert!(e.st.is_active(1), "it still acts and counts for its side");
    set(&mut e, 1, at(1, 2), -2);
    turn(&mut e, 1, vec![Action::at(ActionKind::FullAttack, 0)]);
    // Its hit point of the round at the start of its turn, then a single
    // attack (staggered), and no further loss for acting.
    assert_eq!(e.st.hp(1), -3);
    assert_eq!(e.st.hp(0), 7);
    assert_eq!(e.st.last_results(1), [ActionResult::done(ActionKind::Attack)]);
    drop(e);
    assert_eq!(
        b.lines(),
        [
            "round 1 brute: fights on below 0 (ferocity, staggered) (hp -2)",
            "round 1 brute: loses 1 hp to ferocity (hp -3)",
            "round 1 brute: sword vs hero d20=10+0=10 AC 10 -> HIT 3 dmg (hp 10->7)",
        ]
    );
}

#[test]
fn ferocity_dies_at_minus_con_and_a_creature_without_it_falls() {
    let prep = ferocious_duel();
    let mut b = Bench::new(&[]);
    let mut e = b.engine(&prep, &SimOptions::default());
    // Con 12: dead at -12. At -11 its round's hit point kills it.
    set(&mut e, 1, at(1, 10), -11);
    turn(&mut e, 1, vec![Action::at(ActionKind::FullAttack, 0)]);
    assert_eq!(e.st.life(1), LifeState::Dead);
    assert!(e.st.last_results(1).is_empty(), "dead before it acts");
    // The same wound on a creature without ferocity: unconscious, dying.
    let prep = duel(json!({}));
    let mut b = Bench::new(&[]);
    let mut e = b.engine(&prep, &SimOptions::default());
    e.wound(1, 12);
    assert_eq!(e.st.life(1), LifeState::Dying);
    assert!(!e.st.is_active(1));
}

/// Goblins against the Bestiary's orcs, whose ferocity keeps them fighting
/// below 0: over many seeds an orc below 0 attacks, loses 1 hit point at
/// each of its turns there, and never lies dying.
#[test]
fn orcs_fight_on_below_zero_as_a_table_plays_them() {
    use crate::combat::event::{Event, LifeChange};
    use crate::encounter::{Encounter, SideSpec};
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../data");
    let map = std::sync::Arc::new(crate::map::Map::load(&root.join("maps/sample_arena.yaml")).expect("map"));
    let load = |m: &str| std::sync::Arc::new(data_combatant(&format!("data/monsters/{m}.json")));
    let encounter = Encounter::build(
        map,
        vec![
            SideSpec {
                name: "players".into(),
                combatants: vec![load("goblin"), load("goblin"), load("goblin")],
            },
            SideSpec { name: "monsters".into(), combatants: vec![load("orc"), load("orc")] },
        ],
    )
    .expect("encounter");
    let orcs = [3usize, 4];
    let (mut fights_on, mut swings_below_zero) = (0, 0);
    for run in 0..200 {
        let (_, t) = crate::runner::run_with_transcript(&encounter, &SimOptions::default(), 9, run);
        let mut below = [false; 5];
        for r in &t.events {
            match &r.event {
                Event::Life { who, change: LifeChange::FightsOn, hp } => {
                    assert!(orcs.contains(who) && *hp < 0, "run {run}: {r:?}");
                    below[*who] = true;
                    fights_on += 1;
                }
                Event::Life { who, change: LifeChange::Dying, .. } => {
                    assert!(!orcs.contains(who), "run {run}: an orc lies dying: {r:?}");
                }
                Event::Life { who, change: LifeChange::Dies, .. } => below[*who] = false,
                Event::Attack(a) if below[a.who] => swings_below_zero += 1,
                _ => {}
            }
        }
    }
    assert!(fights_on > 20, "orcs fell below 0 and fought on in {fights_on} cases");
    assert!(swings_below_zero > 10, "orcs below 0 attacked {swings_below_zero} times");
}
