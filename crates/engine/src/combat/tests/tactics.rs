//! Action budget, movement, 5-foot step, charge and attacks of opportunity.

use serde_json::json;

use super::support::*;
use crate::combat::SimOptions;
use crate::combat::action::{Action, ActionKind, ActionResult, Reason};
use crate::combat::decide::Policy;
use crate::combat::policy::DefaultPolicy;

use ActionKind::*;

fn hero_vs_dummy(hero_at: crate::map::Pos, dummy_at: crate::map::Pos) -> crate::combat::PreparedEncounter {
    let hero =
        creature("Hero", json!({ "attacks": [melee("sword", 0, "1d6"), ranged("bow", 0, "1d6", 30)] }));
    prepare(
        arena(5, 12),
        vec![("a", hero, hero_at), ("b", creature("Dummy", json!({ "hp_max": 50 })), dummy_at)],
    )
}

#[test]
fn excess_actions_are_downgraded_and_reported() {
    let prep = hero_vs_dummy(at(1, 1), at(1, 2));
    let mut b = Bench::new(&[2]);
    let mut e = b.engine(&prep, &SimOptions::default());
    turn(&mut e, 0, vec![Action::at(Attack, 1), Action::at(Attack, 1), Action::at(FullAttack, 1)]);
    assert_eq!(
        e.st.last_results(0),
        [
            ActionResult::done(Attack),
            ActionResult::failed(Attack, Reason::DowngradedActionEconomy),
            ActionResult::failed(FullAttack, Reason::DowngradedActionEconomy),
        ]
    );
    drop(e);
    assert_eq!(
        b.lines(),
        [
            "round 1 hero: sword vs dummy d20=2+0=2 AC 10 -> MISS",
            "round 1 hero: attack dropped (downgraded:action_economy)",
            "round 1 hero: full_attack dropped (downgraded:action_economy)",
        ]
    );
}

#[test]
fn refused_actions_carry_their_reason() {
    let prep = hero_vs_dummy(at(1, 1), at(1, 12));
    let mut b = Bench::new(&[]);
    let mut e = b.engine(&prep, &SimOptions::default());
    let cases = [
        (Action::new(Attack), Reason::MissingTarget),
        (Action::at(Attack, 0), Reason::MissingTarget),
        (Action::at(Attack, 7), Reason::MissingTarget),
        (Action::at(Attack, 1).with_weapon(0), Reason::WeaponUnavailable),
        (Action::at(Attack, 1).with_weapon(9), Reason::WeaponUnavailable),
        (Action::new(Swift), Reason::UnsupportedKind),
        (Action::new(Move), Reason::MissingTarget),
        (Action::new(Move).with_destination(at(1, 12)), Reason::UnreachableDestination),
        (Action::new(Move).with_destination(at(5, 12)), Reason::UnreachableDestination),
        (Action::new(FiveFootStep).with_destination(at(1, 3)), Reason::UnreachableDestination),
    ];
    for (action, reason) in cases {
        turn(&mut e, 0, vec![action]);
        assert_eq!(e.st.last_results(0), [ActionResult::failed(action.kind, reason)], "{action:?}");
    }
    // The sword does not reach, the bow (300 ft) does.
    assert_eq!(e.st.weapon_for(0, 1, at(1, 1)), Ok(1));
    assert_eq!(e.st.weapon_for(0, 1, at(3, 3)), Ok(1));
    assert_eq!(e.rng.remaining(), 0);
}

#[test]
fn out_of_range_and_no_line_of_effect() {
    let m = map(&["#########", "#...#...#", "#########"]);
    let hero =
        creature("Hero", json!({ "attacks": [melee("sword", 0, "1d6"), ranged("sling", 0, "1d4", 5)] }));
    let prep = prepare(m, vec![("a", hero, at(1, 1)), ("b", creature("Dummy", json!({})), at(1, 7))]);
    let mut b = Bench::new(&[]);
    let mut e = b.engine(&prep, &SimOptions::default());
    assert_eq!(e.st.weapon_for(0, 1, at(1, 1)), Err(Reason::NoLineOfEffect));
    turn(&mut e, 0, vec![Action::at(Attack, 1)]);
    assert_eq!(e.st.last_results(0), [ActionResult::failed(Attack, Reason::NoLineOfEffect)]);
    // On this side of the wall, 10 ft away: the sling (up to 50 ft) reaches.
    e.st.relocate(1, at(1, 3));
    assert_eq!(e.st.weapon_for(0, 1, at(1, 1)), Ok(1));
    let hero_only_sword = creature("Hero", json!({}));
    let prep = prepare(
        arena(1, 5),
        vec![("a", hero_only_sword, at(1, 1)), ("b", creature("D", json!({})), at(1, 5))],
    );
    let mut b = Bench::new(&[]);
    let e = b.engine(&prep, &SimOptions::default());
    assert_eq!(e.st.weapon_for(0, 1, at(1, 1)), Err(Reason::OutOfRange));
}

#[test]
fn five_foot_step_excludes_other_movement() {
    let prep = hero_vs_dummy(at(3, 3), at(3, 10));
    let mut b = Bench::new(&[]);
    let mut e = b.engine(&prep, &SimOptions::default());
    turn(&mut e, 0, vec![Action::new(FiveFootStep).with_destination(at(3, 4)), Action::at(Move, 1)]);
    assert_eq!(
        e.st.last_results(0),
        [ActionResult::done(FiveFootStep), ActionResult::failed(Move, Reason::CannotCombine)]
    );
    assert_eq!(e.st.pos(0), at(3, 4));
    turn(
        &mut e,
        0,
        vec![
            Action::new(Move).with_destination(at(3, 5)),
            Action::new(FiveFootStep).with_destination(at(3, 6)),
        ],
    );
    assert_eq!(
        e.st.last_results(0),
        [ActionResult::done(Move), ActionResult::failed(FiveFootStep, Reason::CannotCombine)]
    );
    turn(&mut e, 0, vec![Action::new(FiveFootStep).with_destination(at(3, 6)), Action::at(Charge, 1)]);
    assert_eq!(e.st.last_results(0)[1], ActionResult::failed(Charge, Reason::CannotCombine));
}

#[test]
fn five_foot_step_avoids_difficult_terrain_and_corners() {
    let m = map(&["#####", "#.T.#", "#..##", "#####"]);
    let prep = prepare(
        m,
        vec![("a", creature("Hero", json!({})), at(2, 2)), ("b", creature("D", json!({})), at(1, 3))],
    );
    let mut b = Bench::new(&[]);
    let e = b.engine(&prep, &SimOptions::default());
    assert!(!e.st.can_step(0, at(1, 2)), "difficult terrain");
    assert!(e.st.can_step(0, at(2, 1)));
    assert!(e.st.can_step(0, at(1, 1)));
    // (2,2) -> (1,3) would cut the wall corner at (2,3) (and the square is taken).
    let m = map(&["#####", "#...#", "#..##", "#####"]);
    let prep = prepare(
        m,
        vec![("a", creature("Hero", json!({})), at(2, 2)), ("b", creature("D", json!({})), at(1, 1))],
    );
    let mut b = Bench::new(&[]);
    let e = b.engine(&prep, &SimOptions::default());
    assert!(!e.st.can_step(0, at(1, 3)), "corner rule");
    assert!(e.st.can_step(0, at(1, 2)));
}

#[test]
fn movement_passes_allies_but_never_ends_on_them() {
    let corridor = map(&["##############", "#............#", "##############"]);
    let prep = prepare(
        corridor,
        vec![
            ("a", creature("Hero", json!({})), at(1, 1)),
            ("a", creature("Friend", json!({})), at(1, 7)),
            ("b", creature("Foe", json!({})), at(1, 12)),
        ],
    );
    let mut b = Bench::new(&[]);
    let mut e = b.engine(&prep, &SimOptions::default());
    // Six squares would end on the friend at (1,7): the hero stops at (1,6).
    turn(&mut e, 0, vec![Action::at(Move, 2)]);
    assert_eq!(e.st.pos(0), at(1, 6));
    // Next move passes through the friend and ends next to the foe.
    turn(&mut e, 0, vec![Action::at(Move, 2)]);
    assert_eq!(e.st.pos(0), at(1, 11));
    assert_eq!(e.st.occupant(at(1, 7)), Some(1), "the friend is still there");
    drop(e);
    assert_eq!(
        b.lines(),
        [
            "round 1 hero: move (1,1)->(1,2)->(1,3)->(1,4)->(1,5)->(1,6)",
            "round 1 hero: move (1,6)->(1,7)->(1,8)->(1,9)->(1,10)->(1,11)",
        ]
    );
}

#[test]
fn enemies_block_the_way() {
    let corridor = map(&["##########", "#........#", "##########"]);
    let prep = prepare(
        corridor,
        vec![
            ("a", creature("Hero", json!({})), at(1, 1)),
            ("b", creature("Guard", json!({})), at(1, 4)),
            ("b", creature("Boss", json!({})), at(1, 8)),
        ],
    );
    let mut b = Bench::new(&[]);
    let mut e = b.engine(&prep, &SimOptions::default());
    turn(&mut e, 0, vec![Action::at(Move, 2)]);
    assert_eq!(e.st.last_results(0), [ActionResult::failed(Move, Reason::UnreachableDestination)]);
    assert_eq!(e.st.pos(0), at(1, 1));
}

#[test]
fn movement_follows_the_shortest_path_around_walls_and_pays_terrain() {
    let m = map(&["#######", "#..#..#", "#..#..#", "#.....#", "#######"]);
    let prep = prepare(
        m,
        vec![("a", creature("Hero", json!({})), at(1, 1)), ("b", creature("Foe", json!({})), at(1, 5))],
    );
    let mut b = Bench::new(&[]);
    let mut e = b.engine(&prep, &SimOptions::default());
    turn(&mut e, 0, vec![Action::at(Move, 1), Action::at(Move, 1)]);
    assert_eq!(e.st.pos(0), at(2, 4));
    drop(e);
    // 25 ft: one diagonal, then around the wall (no corner cut at (2,3)).
    assert_eq!(
        b.lines(),
        [
            "round 1 hero: move (1,1)->(2,1)->(3,2)->(3,3)->(3,4)->(2,4)",
            "round 1 hero: move: already in position at (2,4)"
        ]
    );
    // Difficult terrain doubles the cost: 30 ft buys three squares of rubble.
    let m = map(&["#########", "#TTTTTTT#", "#########"]);
    let prep = prepare(
        m,
        vec![("a", creature("Hero", json!({})), at(1, 1)), ("b", creature("Foe", json!({})), at(1, 7))],
    );
    let mut b = Bench::new(&[]);
    let mut e = b.engine(&prep, &SimOptions::default());
    turn(&mut e, 0, vec![Action::at(Move, 1)]);
    assert_eq!(e.st.pos(0), at(1, 4));
}

#[test]
fn leaving_threatened_squares_provokes_once_per_opponent_per_round() {
    let reflexes = json!({ "features": ["Combat Reflexes"],
        "abilities": { "str_score": 10, "dex_score": 14, "con_score": 12, "int_score": 10, "wis_score": 10, "cha_score": 10 } });
    let prep = prepare(
        arena(6, 8),
        vec![
            ("a", creature("Hero", json!({ "hp_max": 50 })), at(2, 2)),
            ("b", creature("Guard", reflexes), at(3, 3)),
            ("b", creature("Scout", json!({})), at(1, 4)),
        ],
    );
    assert_eq!(prep.fighters[1].offense.aoo_per_round, 3);
    let mut b = Bench::new(&[2, 2, 2]);
    let mut e = b.engine(&prep, &SimOptions::default());
    // (2,2), (2,3), (2,4) are all next to the guard; (2,3), (2,4) next to the scout.
    turn(
        &mut e,
        0,
        vec![Action::new(Move).with_destination(at(2, 5)), Action::new(Move).with_destination(at(2, 2))],
    );
    assert_eq!(e.st.aoo_left(1), 2);
    assert_eq!(e.st.aoo_left(2), 0);
    assert_eq!(e.rng.remaining(), 1);
    // A new round: the guard may strike again.
    e.start_round();
    turn(&mut e, 0, vec![Action::new(Move).with_destination(at(2, 1))]);
    assert_eq!(e.rng.remaining(), 0);
    drop(e);
    assert_eq!(
        b.lines(),
        [
            "round 1 hero: move (2,2)->(2,3)->(2,4)->(2,5)",
            "round 1 guard: AoO: sword vs hero d20=2+0=2 AC 10 -> MISS",
            "round 1 scout: AoO: sword vs hero d20=2+0=2 AC 10 -> MISS",
            "round 1 hero: move (2,5)->(2,4)->(2,3)->(2,2)",
            "round 2 hero: move (2,2)->(2,1)",
            "round 2 guard: AoO: sword vs hero d20=2+0=2 AC 10 -> MISS",
        ]
    );
}

#[test]
fn the_five_foot_step_never_provokes() {
    let prep = hero_vs_dummy(at(2, 2), at(2, 3));
    let mut b = Bench::new(&[]);
    let mut e = b.engine(&prep, &SimOptions::default());
    turn(&mut e, 0, vec![Action::new(FiveFootStep).with_destination(at(2, 1))]);
    assert_eq!(e.st.pos(0), at(2, 1));
    assert_eq!(e.st.aoo_left(1), 1);
}

#[test]
fn shooting_in_melee_provokes_before_the_shot() {
    let archer = creature("Archer", json!({ "attacks": [ranged("bow", 0, "1d6", 30)] }));
    let prep = prepare(
        arena(3, 5),
        vec![("a", archer, at(2, 2)), ("b", creature("Brute", json!({ "hp_max": 50 })), at(2, 3))],
    );
    let mut b = Bench::new(&[2, 3]);
    let mut e = b.engine(&prep, &SimOptions::default());
    turn(&mut e, 0, vec![Action::at(FullAttack, 1)]);
    drop(e);
    assert_eq!(
        b.lines(),
        [
            "round 1 brute: AoO: sword vs archer d20=2+0=2 AC 10 -> MISS",
            "round 1 archer: bow vs brute d20=3+0=3 AC 10 -> MISS",
        ]
    );
}

#[test]
fn no_attack_of_opportunity_against_a_target_with_cover() {
    let m = map(&["#######", "#.#...#", "#.....#", "#######"]);
    let prep = prepare(
        m,
        vec![("a", creature("Hero", json!({})), at(1, 1)), ("b", creature("Guard", json!({})), at(2, 2))],
    );
    let mut b = Bench::new(&[]);
    let mut e = b.engine(&prep, &SimOptions::default());
    assert!(e.st.threat_weapon(1, at(1, 1)).is_some(), "the guard threatens the square");
    turn(&mut e, 0, vec![Action::new(Move).with_destination(at(2, 1))]);
    assert_eq!(e.st.pos(0), at(2, 1));
    assert_eq!(e.st.aoo_left(1), 1, "not consumed");
}

#[test]
fn charge_moves_in_a_straight_line_and_attacks_at_plus_two() {
    let prep = prepare(
        arena(3, 10),
        vec![
            ("a", creature("Hero", json!({})), at(2, 1)),
            ("b", creature("Dummy", json!({ "hp_max": 50 })), at(2, 8)),
        ],
    );
    let mut b = Bench::new(&[9, 4, 7]);
    let mut e = b.engine(&prep, &SimOptions::default());
    assert_eq!(e.st.charge_end(0, 1), Ok((at(2, 7), 0)));
    turn(&mut e, 0, vec![Action::at(Charge, 1)]);
    assert_eq!(e.st.pos(0), at(2, 7));
    // The charger's AC is 2 lower until its next turn.
    e.strike(1, 0, 0, Default::default());
    turn(&mut e, 0, vec![]);
    assert!(!e.st.fighters[0].turn.charged);
    drop(e);
    assert_eq!(
        b.lines(),
        [
            "round 1 hero: charge (2,1)->(2,2)->(2,3)->(2,4)->(2,5)->(2,6)->(2,7)",
            "round 1 hero: sword vs dummy d20=9+2=11 AC 10 [charge +2] -> HIT 4 dmg (hp 50->46)",
            "round 1 dummy: sword vs hero d20=7+0=7 AC 8 [target charged -2] -> MISS",
        ]
    );
}

#[test]
fn charge_needs_a_clear_line_of_at_least_ten_feet() {
    let m = map(&["############", "#....T.....#", "#....T.....#", "#..........#", "############"]);
    let place = |hero: crate::map::Pos, others: Vec<(&'static str, crate::map::Pos, i32)>| {
        let mut placed = vec![("a", creature("Hero", json!({})), hero)];
        for (name, p, _) in &others {
            let side = if *name == "Friend" { "a" } else { "b" };
            placed.push((side, creature(name, json!({})), *p));
        }
        prepare(m.clone(), placed)
    };
    // Rubble on the line.
    let prep = place(at(1, 1), vec![("Foe", at(1, 9), 10)]);
    let mut b = Bench::new(&[]);
    let e = b.engine(&prep, &SimOptions::default());
    assert_eq!(e.st.charge_end(0, 1), Err(Reason::NoChargePath));
    // An ally on the line blocks; a dying one does not.
    let prep = prepare(
        arena(1, 12),
        vec![
            ("a", creature("Hero", json!({})), at(1, 1)),
            ("b", creature("Foe", json!({})), at(1, 9)),
            ("a", creature("Friend", json!({})), at(1, 4)),
        ],
    );
    let mut b = Bench::new(&[]);
    let mut e = b.engine(&prep, &SimOptions::default());
    assert_eq!(e.st.charge_end(0, 1), Err(Reason::NoChargePath));
    e.st.fighters[2].hp = -2;
    assert_eq!(e.st.charge_end(0, 1), Ok((at(1, 8), 0)));
    // Too close (the closest square is 5 ft away) and too far (beyond 60 ft).
    let prep = place(at(2, 1), vec![("Foe", at(2, 3), 10)]);
    let mut b = Bench::new(&[]);
    let e = b.engine(&prep, &SimOptions::default());
    assert_eq!(e.st.charge_end(0, 1), Err(Reason::NoChargePath));
    let wide = arena(1, 16);
    let prep = prepare(
        wide,
        vec![("a", creature("Hero", json!({})), at(1, 1)), ("b", creature("Foe", json!({})), at(1, 15))],
    );
    let mut b = Bench::new(&[]);
    let e = b.engine(&prep, &SimOptions::default());
    assert_eq!(e.st.charge_end(0, 1), Err(Reason::NoChargePath));
    let prep = prepare(
        arena(1, 16),
        vec![("a", creature("Hero", json!({})), at(1, 1)), ("b", creature("Foe", json!({})), at(1, 14))],
    );
    let mut b = Bench::new(&[]);
    let e = b.engine(&prep, &SimOptions::default());
    assert_eq!(e.st.charge_end(0, 1), Ok((at(1, 13), 0)));
}

#[test]
fn default_policy_choices() {
    let prep = hero_vs_dummy(at(3, 3), at(3, 4));
    let mut b = Bench::new(&[]);
    let mut e = b.engine(&prep, &SimOptions::default());
    let plan = |e: &crate::combat::engine::Engine<'_, '_, _>| {
        let mut out = Vec::new();
        DefaultPolicy.plan(&e.st, 0, &mut out);
        out
    };
    assert_eq!(plan(&e), [Action::at(FullAttack, 1)]);
    // The bow reaches from anywhere on this map; at 35 ft (a −2) one move
    // to a square the dummy does not threaten, within 30 ft, and one shot
    // is worth more than the one shot from here (`policy::ranged`).
    e.st.relocate(1, at(3, 10));
    let out = plan(&e);
    assert_eq!(out.len(), 2, "{out:?}");
    assert_eq!((out[0].kind, out[1].kind, out[1].weapon), (Move, Attack, Some(1)));
    let end = out[0].destination.expect("a square");
    assert!((16..=30).contains(&crate::grid::distance_ft(end, at(3, 10))), "{end:?}");
    // Melee only: charge when the line is clear...
    let prep = prepare(
        arena(5, 12),
        vec![("a", creature("Hero", json!({})), at(3, 3)), ("b", creature("D", json!({})), at(3, 10))],
    );
    let mut b = Bench::new(&[]);
    let mut e = b.engine(&prep, &SimOptions::default());
    assert_eq!(plan(&e), [Action::at(Charge, 1)]);
    // ...a 5-foot step when one suffices (10 ft away: too close to charge)...
    e.st.relocate(1, at(3, 5));
    assert_eq!(plan(&e), [Action::at(FiveFootStep, 1).with_destination(at(3, 4)), Action::at(FullAttack, 1)]);
    // ...otherwise move and attack.
    e.st.relocate(1, at(3, 12));
    e.st.fighters[0].hp = 0;
    assert_eq!(
        plan(&e),
        [Action::at(Move, 1), Action::at(Attack, 1)],
        "a disabled combatant does not charge"
    );
    // Too far to charge, and one move cannot end within reach: a double move.
    let prep = prepare(
        arena(5, 30),
        vec![("a", creature("Hero", json!({})), at(3, 3)), ("b", creature("D", json!({})), at(3, 25))],
    );
    let mut b = Bench::new(&[]);
    let e = b.engine(&prep, &SimOptions::default());
    assert_eq!(plan(&e), [Action::at(Move, 1), Action::at(Move, 1)], "22 squares away, speed 30");
}

#[test]
fn side_policies_plan_each_side_and_results_are_kept_per_combatant() {
    let prep = hero_vs_dummy(at(1, 1), at(1, 2));
    let mut rng = crate::rng::ScriptedRng::new(vec![20, 19, 1, 2]);
    let mut idle =
        |_: &crate::combat::BattleState<'_>, _: usize, out: &mut Vec<Action>| out.push(Action::new(Wait));
    let mut last = Vec::new();
    let mut recorder = |b: &crate::combat::BattleState<'_>, i: usize, out: &mut Vec<Action>| {
        last.push(b.last_results(i).to_vec());
        out.push(Action::at(Attack, 1));
        out.push(Action::new(TotalDefense));
        out.push(Action::new(Swift));
    };
    let options = SimOptions { round_cap: 2, ..SimOptions::default() };
    let mut policies = crate::combat::SidePolicies(vec![&mut recorder, &mut idle]);
    let outcome = crate::combat::run_prepared(&prep, &options, &mut rng, None, &mut policies);
    assert_eq!((outcome.winner, outcome.rounds), (None, 2));
    assert_eq!(
        last,
        [
            vec![],
            vec![
                ActionResult::done(Attack),
                ActionResult::failed(TotalDefense, Reason::DowngradedActionEconomy),
                ActionResult::failed(Swift, Reason::UnsupportedKind),
            ]
        ]
    );
}

/// Cost in feet of walking `path` from `start`.
fn path_cost(map: &crate::map::Map, start: crate::map::Pos, path: &[crate::map::Pos]) -> u32 {
    let (mut prev, mut parity, mut cost) = (start, 0u8, 0);
    for &p in path {
        cost += crate::grid::step_cost(map, prev, p, parity).expect("legal step");
        parity ^= u8::from(prev.row != p.row && prev.col != p.col);
        prev = p;
    }
    cost
}

#[test]
fn stored_paths_are_as_short_as_a_full_search() {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../data/maps/sample_arena.yaml");
    let m = std::sync::Arc::new(crate::map::Map::load(&path).unwrap());
    let fighter = || creature("F", json!({}));
    let archer = || creature("A", json!({ "attacks": [ranged("bow", 0, "1d6", 10)] }));
    let prep = prepare(
        m.clone(),
        vec![
            ("a", fighter(), at(1, 1)),
            ("a", archer(), at(1, 2)),
            ("a", fighter(), at(5, 5)),
            ("b", fighter(), at(6, 16)),
            ("b", fighter(), at(3, 12)),
        ],
    );
    let mut b = Bench::new(&[]);
    let mut e = b.engine(&prep, &SimOptions::default());
    let free: Vec<crate::map::Pos> =
        (0..m.height).flat_map(|r| (0..m.width).map(move |c| at(r, c))).filter(|&p| m.passable(p)).collect();
    let mut compared = 0;
    for (k, &start) in free.iter().enumerate().step_by(3) {
        for mover in [0, 1] {
            if e.st.occupant(start).is_some() {
                continue;
            }
            e.st.relocate(mover, start);
            for target in [3, 4] {
                e.path.clear();
                let Some(dest) = e.static_route(mover, target) else { continue };
                let stored = path_cost(&m, start, &e.path);
                e.path.clear();
                let searched = e.searched_route(mover, None, Some(target), 30).expect("reachable");
                assert_eq!(
                    stored,
                    path_cost(&m, start, &e.path),
                    "mover {mover} from {start} ({k}) to {dest} / {searched}"
                );
                compared += 1;
            }
        }
    }
    assert!(compared > 50, "{compared}");
}

/// For movers of every space (one square, Large, Huge), from every square
/// where they fit, toward every foe: when the stored paths give a route, it
/// is exactly the one the full creature-aware search gives (same end square,
/// same squares in the same order), so using them changes no outcome.
#[test]
fn stored_paths_give_the_route_of_a_full_search_for_every_space() {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../data/maps/ogre_field.yaml");
    let m = std::sync::Arc::new(crate::map::Map::load(&path).unwrap());
    let sized = |name: &str, size: &str, attacks: serde_json::Value| {
        creature(name, json!({ "size": size, "attacks": attacks }))
    };
    let spear = json!([{ "name": "longspear", "kind": "melee", "attack_bonus": 0, "reach_ft": 20,
                         "reach_weapon": true, "damage": [{ "formula": "1d8", "types": ["piercing"] }] }]);
    let prep = prepare(
        m.clone(),
        vec![
            ("a", sized("Man", "Medium", json!([melee("sword", 0, "1d6")])), at(1, 1)),
            ("a", sized("Archer", "Medium", json!([ranged("bow", 0, "1d6", 10)])), at(2, 1)),
            ("a", sized("Ogre", "Large", json!([melee("club", 0, "2d8")])), at(3, 1)),
            ("a", sized("Pikeman", "Large", spear), at(6, 1)),
            ("a", sized("Giant", "Huge", json!([melee("club", 0, "3d6")])), at(1, 3)),
            ("a", sized("Friend", "Medium", json!([melee("sword", 0, "1d6")])), at(4, 8)),
            ("b", sized("Foe", "Medium", json!([melee("sword", 0, "1d6")])), at(4, 12)),
            ("b", sized("Brute", "Large", json!([melee("club", 0, "2d8")])), at(6, 17)),
            ("b", sized("Scout", "Medium", json!([melee("sword", 0, "1d6")])), at(1, 19)),
        ],
    );
    let mut b = Bench::new(&[]);
    let mut e = b.engine(&prep, &SimOptions::default());
    let squares: Vec<crate::map::Pos> =
        (0..m.height).flat_map(|r| (0..m.width).map(move |c| at(r, c))).collect();
    let (mut stored, mut searched_only) = ([0; 4], 0);
    for mover in 0..5 {
        let home = e.st.pos(mover);
        for &start in &squares {
            if e.st.access(mover, start) != crate::grid::Access::Open
                || !crate::grid::footprint(start, e.st.space(mover)).all(|c| m.passable(c))
            {
                continue;
            }
            e.st.relocate(mover, start);
            for target in 6..9 {
                e.path.clear();
                let Some(dest) = e.static_route(mover, target) else {
                    searched_only += 1;
                    continue;
                };
                let route = e.path.clone();
                e.path.clear();
                let found =
                    e.searched_route(mover, None, Some(target), 30).expect("a stored route is reachable");
                assert_eq!((dest, &route), (found, &e.path), "mover {mover} from {start} toward {target}");
                stored[e.st.space(mover) as usize] += 1;
            }
        }
        e.st.relocate(mover, home);
    }
    assert!(stored[1] > 200 && stored[2] > 200 && stored[3] > 100, "{stored:?}");
    assert!(searched_only > 0, "some routes are blocked by a foe and searched");
}

/// The charge rule read literally (CRB "Charge"): the closest squares from
/// which the charger can attack in melee, then among them the free one with
/// a clear line, most directly ahead, then row-major.
fn charge_end_as_written(
    st: &crate::combat::BattleState<'_>,
    i: usize,
    t: usize,
) -> Option<(crate::map::Pos, usize)> {
    let (from, to) = (st.pos(i), st.pos(t));
    if !st.line_of_effect_from(i, from, t) {
        return None;
    }
    let map = st.map();
    let (si, size_t) = (st.space(i), st.space(t));
    let candidates: Vec<(crate::map::Pos, usize)> = (0..map.height)
        .flat_map(|r| (0..map.width).map(move |c| at(r, c)))
        .filter(|&q| crate::grid::footprint(q, si).all(|c| map.passable(c)))
        .filter(|&q| crate::grid::footprint_distance_ft(q, si, to, size_t) > 0)
        .filter_map(|q| st.melee_weapon_from(i, t, q).map(|w| (q, w)))
        .collect();
    let closest = candidates.iter().map(|&(q, _)| crate::grid::distance_ft(from, q)).min()?;
    candidates
        .into_iter()
        .filter(|&(q, _)| crate::grid::distance_ft(from, q) == closest && q != from)
        .filter(|&(q, _)| st.access(i, q) == crate::grid::Access::Open && st.charge_line_clear(i, t, from, q))
        .min_by_key(|&(q, _)| ((q.row - from.row).pow(2) + (q.col - from.col).pow(2), q))
}

/// `charge_end` prunes its search for speed; from every square of the ogre
/// field, for one-square, Large and reach-weapon chargers, among allies and
/// foes, it ends where the rule read literally ends.
#[test]
fn the_charge_ends_where_the_rule_read_literally_ends() {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../data/maps/ogre_field.yaml");
    let m = std::sync::Arc::new(crate::map::Map::load(&path).unwrap());
    let sized = |name: &str, size: &str, attacks: serde_json::Value| {
        creature(name, json!({ "size": size, "attacks": attacks, "speed_land_ft": 40 }))
    };
    let spear = json!([{ "name": "longspear", "kind": "melee", "attack_bonus": 0, "reach_ft": 20,
                         "reach_weapon": true, "damage": [{ "formula": "1d8", "types": ["piercing"] }] }]);
    let prep = prepare(
        m.clone(),
        vec![
            ("a", sized("Man", "Medium", json!([melee("sword", 0, "1d6")])), at(1, 1)),
            ("a", sized("Ogre", "Large", json!([melee("club", 0, "2d8")])), at(3, 1)),
            ("a", sized("Pikeman", "Large", spear), at(6, 1)),
            ("a", sized("Friend", "Medium", json!([melee("sword", 0, "1d6")])), at(4, 9)),
            ("b", sized("Foe", "Medium", json!([melee("sword", 0, "1d6")])), at(4, 12)),
            ("b", sized("Brute", "Large", json!([melee("club", 0, "2d8")])), at(6, 17)),
        ],
    );
    let mut b = Bench::new(&[]);
    let mut e = b.engine(&prep, &SimOptions::default());
    let (mut ends, mut refusals) = (0, 0);
    for mover in 0..3 {
        let home = e.st.pos(mover);
        for r in 0..m.height {
            for c in 0..m.width {
                let start = at(r, c);
                if e.st.access(mover, start) != crate::grid::Access::Open
                    || !crate::grid::footprint(start, e.st.space(mover)).all(|q| m.passable(q))
                {
                    continue;
                }
                e.st.relocate(mover, start);
                for target in [4, 5] {
                    let expected = charge_end_as_written(&e.st, mover, target);
                    assert_eq!(
                        e.st.charge_end(mover, target).ok(),
                        expected,
                        "{mover} from {start} at {target}"
                    );
                    if expected.is_some() { ends += 1 } else { refusals += 1 }
                }
            }
        }
        e.st.relocate(mover, home);
    }
    assert!(ends > 100 && refusals > 100, "{ends} charges, {refusals} refusals");
}

#[test]
fn large_maps_move_without_stored_paths() {
    let prep = prepare(
        arena(21, 21),
        vec![("a", creature("Hero", json!({})), at(11, 1)), ("b", creature("Foe", json!({})), at(11, 21))],
    );
    assert!(prep.paths.for_space(1).is_none(), "23x23 squares is above the stored-path limit");
    let mut b = Bench::new(&[]);
    let mut e = b.engine(&prep, &SimOptions::default());
    turn(&mut e, 0, vec![Action::at(Move, 1)]);
    assert_eq!(e.st.pos(0), at(11, 7));
    assert!(e.st.prepared().line_of_effect(at(11, 7), at(11, 21)));
}
