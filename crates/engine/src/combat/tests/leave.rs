//! Leaving the battle from an exit square (`combat::leave`) and the retreat
//! lever's way out (`policy::StrategyPolicy::toward_exit`, `routed`).

use serde_json::json;

use super::support::*;
use crate::combat::action::{Action, ActionKind, ActionResult, Reason};
use crate::combat::event::{BattleResult, Event, MoveKind, Record};
use crate::combat::policy::MatchupPolicy;
use crate::combat::{PreparedEncounter, RunOutcome, SimOptions};
use crate::encounter::Encounter;
use crate::map::{Map, Pos};
use crate::strategy::StrategySpec;

use ActionKind::*;

/// An open field of `rows` x `cols` floor squares with no wall: every
/// square on its edge is an exit.
fn field(rows: usize, cols: usize) -> std::sync::Arc<Map> {
    let row = ".".repeat(cols);
    let lines = vec![row.as_str(); rows];
    map(&lines)
}

/// A hero (`hp` of 20) and a dummy foe.
fn hero_and_foe(m: std::sync::Arc<Map>, hero: Pos, foe: Pos) -> PreparedEncounter {
    let h = creature("Hero", json!({ "hp_max": 20 }));
    prepare(m, vec![("a", h, hero), ("b", creature("Foe", json!({ "hp_max": 50 })), foe)])
}

#[test]
fn a_combatant_on_an_exit_square_leaves_alive_with_its_hit_points() {
    let prep = hero_and_foe(field(5, 10), at(2, 0), at(2, 8));
    let mut b = Bench::new(&[]);
    let mut e = b.engine(&prep, &SimOptions::default());
    e.st.fighters[0].hp = 7;
    turn(&mut e, 0, vec![Action::new(LeaveBattle)]);
    assert_eq!(e.st.last_results(0), [ActionResult::done(LeaveBattle)]);
    assert!(!e.st.is_active(0) && !e.st.is_present(0), "out of the fight");
    assert_eq!(e.st.occupant(at(2, 0)), None, "its square is free");
    assert_eq!(e.st.nearest_enemy(1), None, "no one to target");
    drop(e);
    assert_eq!(b.lines(), ["round 1 hero: leaves the battle at (2,0) with 7 hp"]);
}

#[test]
fn leaving_needs_an_exit_square_a_free_move_and_no_step_before() {
    let prep = hero_and_foe(field(5, 10), at(2, 1), at(2, 8));
    let mut b = Bench::new(&[]);
    let mut e = b.engine(&prep, &SimOptions::default());
    turn(&mut e, 0, vec![Action::new(LeaveBattle)]);
    assert_eq!(e.st.last_results(0), [ActionResult::failed(LeaveBattle, Reason::NotOnExit)]);
    // A 5-foot step onto the edge, then off: not in the same round (CRB "Take 5-Foot Step").
    turn(&mut e, 0, vec![Action::new(FiveFootStep).with_destination(at(2, 0)), Action::new(LeaveBattle)]);
    assert_eq!(
        e.st.last_results(0),
        [ActionResult::done(FiveFootStep), ActionResult::failed(LeaveBattle, Reason::CannotCombine)]
    );
    assert!(e.st.is_present(0));
    // A move along the edge, then off: two move actions.
    turn(&mut e, 0, vec![Action::new(Move).with_destination(at(0, 0)), Action::new(LeaveBattle)]);
    assert_eq!(e.st.last_results(0), [ActionResult::done(Move), ActionResult::done(LeaveBattle)]);
    assert!(!e.st.is_present(0));
}

#[test]
fn a_map_that_declares_its_exits_has_no_other() {
    let yaml =
        "terrain: |\n  .....\n  .....\nlegend:\n  \".\": { type: floor, move_cost: 1 }\nexits: [[1, 2]]\n";
    let m = std::sync::Arc::new(Map::from_yaml_str(yaml, "t").unwrap());
    let prep = hero_and_foe(m, at(0, 0), at(0, 4));
    let mut b = Bench::new(&[]);
    let mut e = b.engine(&prep, &SimOptions::default());
    turn(&mut e, 0, vec![Action::new(LeaveBattle)]);
    assert_eq!(e.st.last_results(0), [ActionResult::failed(LeaveBattle, Reason::NotOnExit)], "a corner");
    turn(&mut e, 0, vec![Action::new(LeaveBattle).with_destination(at(1, 2))]);
    assert_eq!(e.st.last_results(0), [ActionResult::done(LeaveBattle)], "a withdraw to the exit and off");
    drop(e);
    let lines = b.lines();
    assert_eq!(lines.last().unwrap(), "round 1 hero: leaves the battle at (1,2) with 20 hp");
}

#[test]
fn stepping_off_a_threatened_square_provokes_unless_it_is_a_withdraw_s_first_square() {
    // The foe stands next to the hero on the edge; its sword hits on 20 (d20 1 misses).
    for (action, provokes) in
        [(Action::new(LeaveBattle), true), (Action::new(LeaveBattle).with_destination(at(2, 0)), false)]
    {
        let prep = hero_and_foe(field(5, 10), at(2, 0), at(2, 1));
        let mut b = Bench::new(&[1]);
        let mut e = b.engine(&prep, &SimOptions::default());
        turn(&mut e, 0, vec![action]);
        assert_eq!(e.st.last_results(0), [ActionResult::done(LeaveBattle)]);
        drop(e);
        let aoo = b.lines().iter().any(|l| l.starts_with("round 1 foe: AoO: sword vs hero"));
        assert_eq!(aoo, provokes, "{action:?}: {:?}", b.lines());
        assert_eq!(b.rng.remaining(), usize::from(!provokes), "the d20 of the attack of opportunity");
    }
}

/// The encounter of `placed`, the combatants of side "a" starting at the
/// given hit points.
fn hurt(m: std::sync::Arc<Map>, placed: Vec<(&str, crate::model::Combatant, Pos)>, hp: &[i32]) -> Encounter {
    let mut enc = encounter(m, placed);
    for (d, &h) in enc.combatants.iter_mut().zip(hp) {
        d.start_hp = h;
    }
    enc
}

/// Battle `seed` of `enc`, the party (side 0) on `party`, the foes on the default plan.
fn battle(enc: &Encounter, party: &str, seed: u64) -> (RunOutcome, Vec<Record>) {
    let prep = PreparedEncounter::new(enc).unwrap();
    let mut policy =
        MatchupPolicy::new(enc, 0, &StrategySpec::parse(party).unwrap(), &StrategySpec::default());
    let mut rng = crate::rng::SeededRng::for_run(0x1ea5e, seed);
    let mut events = Vec::new();
    let out =
        crate::combat::run_prepared(&prep, &SimOptions::default(), &mut rng, Some(&mut events), &mut policy);
    (out, events)
}

fn ogre() -> crate::model::Combatant {
    creature(
        "Ogre",
        json!({ "hp_max": 60, "bab": 8, "attacks": [melee("club", 10, "2d8+7")], "speed_land_ft": 30 }),
    )
}

fn left_at(events: &[Record], who: usize) -> Option<(usize, i32)> {
    events.iter().enumerate().find_map(|(k, r)| match r.event {
        Event::LeavesBattle { who: w, hp, .. } if w == who => Some((k, hp)),
        _ => None,
    })
}

/// Whether `who` rolled the best initiative.
fn acts_first(events: &[Record], who: usize) -> bool {
    matches!(events.first().map(|r| &r.event), Some(Event::Initiative { who: w, .. }) if *w == who)
}

fn targeted(r: &Record, who: usize) -> bool {
    match &r.event {
        Event::Attack(a) => a.target == who,
        Event::TouchAttack { target, .. } => *target == who,
        _ => false,
    }
}

#[test]
fn a_lone_hurt_hero_next_to_an_exit_leaves_and_the_ogre_holds_the_field() {
    // The hero (20 hp, at 6) stands a square from the west edge; the ogre 20 ft east.
    let enc = hurt(
        field(5, 12),
        vec![("a", creature("Hero", json!({ "hp_max": 20 })), at(2, 1)), ("b", ogre(), at(2, 5))],
        &[6],
    );
    let mut fled = 0;
    for seed in 0..200 {
        let (out, events) = battle(&enc, "retreat=0.9", seed);
        let hero = &out.combatants[0];
        match left_at(&events, 0) {
            Some((k, hp)) => {
                fled += 1;
                assert!(hero.fled && !hero.dead && !hero.dying, "seed {seed}: {hero:?}");
                assert_eq!(hero.final_hp, hp, "seed {seed}: it keeps what it had as it left");
                assert_eq!(out.winner, Some(1), "seed {seed}: the ogre holds the field");
                assert!(!events[k..].iter().any(|r| targeted(r, 0)), "seed {seed}: attacked after it left");
                let over = events.last().unwrap();
                assert!(
                    matches!(over.event, Event::BattleOver { result: BattleResult::Held { side: 1 }, .. }),
                    "seed {seed}: {over:?}"
                );
            }
            // The ogre acted first and felled it before its turn.
            None => assert!(
                !acts_first(&events, 0) && !hero.fled && (hero.dead || hero.final_hp < 0),
                "seed {seed}: {hero:?}"
            ),
        }
    }
    assert!(fled >= 60, "the hero got out in {fled} of 200 battles");
}

#[test]
fn without_the_lever_or_without_a_way_out_nobody_leaves() {
    let placed = || vec![("a", creature("Hero", json!({ "hp_max": 20 })), at(2, 1)), ("b", ogre(), at(2, 5))];
    // The default plan fights on, even next to an exit.
    let open = hurt(field(5, 12), placed(), &[6]);
    // In a walled arena, below the threshold, it withdraws as before.
    let walled = hurt(
        arena(5, 12),
        placed().into_iter().map(|(s, c, p)| (s, c, at(p.row, p.col + 1))).collect(),
        &[6],
    );
    let mut withdrew = 0;
    for seed in 0..100 {
        let (out, events) = battle(&open, "default", seed);
        assert!(left_at(&events, 0).is_none() && !out.combatants[0].fled, "seed {seed}");
        let (out, events) = battle(&walled, "retreat=0.9", seed);
        assert!(left_at(&events, 0).is_none() && !out.combatants[0].fled, "seed {seed}");
        assert!(!matches!(
            events.last().unwrap().event,
            Event::BattleOver { result: BattleResult::Held { .. }, .. }
        ));
        let withdraws =
            events.iter().any(|r| matches!(r.event, Event::Move { who: 0, kind: MoveKind::Withdraw, .. }));
        assert!(withdraws || !acts_first(&events, 0), "seed {seed}: it withdraws when it acts first");
        withdrew += usize::from(withdraws);
    }
    assert!(withdrew >= 30, "withdrew in {withdrew} of 100 battles");
}

#[test]
fn a_routed_party_leaves_even_its_unhurt_members() {
    // Two heroes of 10 hp: one dying (−1), one unhurt beside the edge. The
    // side's standing hit points are 10 of 20: routed below 0.6 (10 < 12),
    // not below 0.4 (10 ≥ 8); the unhurt hero is never below its own threshold.
    let hero = |name: &str| creature(name, json!({ "hp_max": 10 }));
    let enc = hurt(
        field(5, 20),
        vec![("a", hero("Down"), at(4, 6)), ("a", hero("Up"), at(2, 1)), ("b", ogre(), at(2, 19))],
        &[-1, 10],
    );
    for seed in 0..50 {
        let (out, events) = battle(&enc, "retreat=0.6", seed);
        let first = events.iter().find_map(|r| match r.event {
            Event::LeavesBattle { who, .. } => Some((who, r.round)),
            _ => None,
        });
        assert_eq!(first, Some((1, 1)), "seed {seed}: the unhurt hero leaves on its first turn");
        assert!(out.combatants[1].fled && out.winner == Some(1));
        // Not routed: it fights on, and leaves only once below its own threshold.
        let (_, events) = battle(&enc, "retreat=0.4", seed);
        for (k, r) in events.iter().enumerate() {
            if let Event::LeavesBattle { who: 1, hp, .. } = r.event {
                assert!(r.round > 1 && hp * 10 < 4 * 10, "seed {seed}: left at {hp} hp in round {}", r.round);
                assert!(events[..k].iter().any(|r| targeted(r, 1)), "seed {seed}: left unhurt");
            }
        }
    }
}
