//! Ranged details, defensive options, attack structure, and initiative
//! actions (surprise, delay, ready).

use serde_json::json;

use super::support::*;
use crate::combat::SimOptions;
use crate::combat::action::{Action, ActionKind, ActionResult, AidMode, ReadyTrigger, Reason};
use crate::combat::odds::Swing;

use ActionKind::*;

fn target() -> crate::model::Combatant {
    creature("Target", json!({ "hp_max": 50, "ac": { "total": 16, "touch": 12, "flat_footed": 14 } }))
}

#[test]
fn shooting_into_melee_costs_4_unless_the_ally_is_10_ft_away_or_precise_shot() {
    let archer = creature("Archer", json!({ "attacks": [ranged("bow", 5, "1d6", 100)] }));
    let sniper = creature(
        "Sniper",
        json!({ "attacks": [ranged("bow", 5, "1d6", 100)], "features": ["Precise Shot"] }),
    );
    let spear = json!({ "name": "longspear", "kind": "melee", "attack_bonus": 0, "reach_weapon": true,
                        "damage": [{ "formula": "1d8", "types": ["piercing"] }] });
    let prep = prepare(
        arena(5, 12),
        vec![
            ("a", archer, at(1, 1)),
            ("a", sniper, at(2, 1)),
            ("a", creature("Ally", json!({})), at(3, 9)),
            ("a", creature("Pikeman", json!({ "attacks": [spear] })), at(5, 12)),
            ("b", target(), at(3, 10)),
        ],
    );
    let mut b = Bench::new(&[]);
    let mut e = b.engine(&prep, &SimOptions::default());
    let s = e.st.situation(0, 0, 4, Swing::default());
    assert!(s.into_melee);
    assert_eq!(s.attack, 5 - 4);
    assert!(!e.st.situation(1, 0, 4, Swing::default()).into_melee, "Precise Shot");
    // The adjacent ally steps away; the pikeman threatens from 10 ft: no penalty.
    e.st.relocate(2, at(1, 5));
    e.st.relocate(3, at(3, 12));
    assert!(e.st.threatens(3, 4));
    assert!(!e.st.situation(0, 0, 4, Swing::default()).into_melee);
}

#[test]
fn prone_attacker_and_target() {
    let hero =
        creature("Hero", json!({ "attacks": [melee("sword", 5, "1d6"), ranged("bow", 5, "1d6", 100)] }));
    let prep = prepare(arena(3, 12), vec![("a", hero, at(1, 1)), ("b", target(), at(1, 2))]);
    let mut b = Bench::new(&[]);
    let mut e = b.engine(&prep, &SimOptions::default());
    turn(&mut e, 1, vec![Action::new(DropProne), Action::new(DropProne)]);
    assert_eq!(
        e.st.last_results(1),
        [ActionResult::done(DropProne), ActionResult::failed(DropProne, Reason::AlreadyProne)]
    );
    assert_eq!(e.st.situation(0, 0, 1, Swing::default()).ac, 16 - 4, "prone: −4 AC against melee");
    e.st.relocate(0, at(1, 8));
    assert_eq!(e.st.situation(0, 1, 1, Swing::default()).ac, 16 + 4, "prone: +4 AC against ranged");
    e.set_condition(0, crate::effects::ConditionId::Prone);
    assert_eq!(e.st.situation(0, 1, 1, Swing::default()).attack, 5 - 4, "prone attacker −4");
}

#[test]
fn standing_up_provokes_while_still_prone() {
    let prep =
        prepare(arena(3, 6), vec![("a", creature("Hero", json!({})), at(1, 1)), ("b", target(), at(1, 2))]);
    let mut b = Bench::new(&[8, 3]);
    let mut e = b.engine(&prep, &SimOptions::default());
    turn(&mut e, 0, vec![Action::new(StandUp)]);
    assert_eq!(e.st.last_results(0), [ActionResult::failed(StandUp, Reason::NotProne)]);
    e.set_condition(0, crate::effects::ConditionId::Prone);
    turn(&mut e, 0, vec![Action::new(StandUp)]);
    assert!(!e.st.is_prone(0));
    drop(e);
    assert_eq!(
        &b.lines()[1..],
        [
            "round 1 target: AoO: sword vs hero d20=8+0=8 AC 6 [target prone -4] -> HIT 3 dmg (hp 10->7)",
            "round 1 hero: stands up",
        ]
    );
}

#[test]
fn total_defense_and_fighting_defensively() {
    let prep =
        prepare(arena(3, 6), vec![("a", creature("Hero", json!({})), at(1, 1)), ("b", target(), at(1, 2))]);
    let mut b = Bench::new(&[10]);
    let mut e = b.engine(&prep, &SimOptions::default());
    turn(&mut e, 0, vec![Action::new(TotalDefense)]);
    assert_eq!(e.st.situation(1, 0, 0, Swing::default()).ac, 14);
    // No attack of opportunity while in total defense: the target walks away freely.
    turn(&mut e, 1, vec![Action::new(Move).with_destination(at(1, 5))]);
    assert_eq!(e.st.aoo_left(0), 1);
    // Its next turn ends the bonus; fighting defensively: −4 attack, +2 AC.
    e.st.relocate(1, at(1, 2));
    turn(&mut e, 0, vec![Action::new(FightDefensively), Action::at(Attack, 1)]);
    assert_eq!(e.st.situation(1, 0, 0, Swing::default()).ac, 12);
    drop(e);
    assert!(
        b.lines()
            .iter()
            .any(|l| l == "round 1 hero: sword vs target d20=10-4=6 AC 16 [fighting defensively -4] -> MISS"),
        "{:?}",
        b.lines()
    );
}

#[test]
fn total_defense_and_fighting_defensively_are_dodge_bonuses_that_stack() {
    let prep =
        prepare(arena(3, 6), vec![("a", creature("Hero", json!({})), at(1, 1)), ("b", target(), at(1, 2))]);
    let mut b = Bench::new(&[]);
    let mut e = b.engine(&prep, &SimOptions::default());
    turn(&mut e, 0, vec![Action::new(FightDefensively), Action::new(TotalDefense)]);
    assert_eq!(e.st.situation(1, 0, 0, Swing::default()).ac, 10 + 2 + 4);
    // Dodge bonuses are lost when Dexterity is denied.
    e.set_condition(0, crate::effects::ConditionId::FlatFooted);
    assert_eq!(e.st.situation(1, 0, 0, Swing::default()).ac, 10);
}

#[test]
fn aid_another_stacks_and_expires() {
    let prep = prepare(
        arena(3, 6),
        vec![
            ("a", creature("Hero", json!({})), at(1, 1)),
            ("a", creature("Helper", json!({})), at(2, 1)),
            ("a", creature("Helper", json!({})), at(3, 1)),
            ("b", target(), at(1, 2)),
        ],
    );
    let mut b = Bench::new(&[10, 12, 1, 5]);
    let mut e = b.engine(&prep, &SimOptions::default());
    turn(&mut e, 1, vec![Action::at(AidAnother, 0)]);
    turn(&mut e, 2, vec![Action::at(AidAnother, 0)]);
    assert_eq!(e.st.fighters[0].turn.aid_attack, 4);
    turn(&mut e, 1, vec![Action::at(AidAnother, 0).with_aid(AidMode::Ac)]);
    assert_eq!(e.st.fighters[0].turn.aid_ac, 0, "natural 1 fails");
    turn(&mut e, 1, vec![Action::new(AidAnother)]);
    assert_eq!(e.st.last_results(1), [ActionResult::failed(AidAnother, Reason::MissingTarget)]);
    // The hero's turn starts: unused bonuses expire.
    e.take_turn(0, &mut script(vec![]));
    assert_eq!(e.st.fighters[0].turn.aid_attack, 0);
}

#[test]
fn a_firearm_misfires_on_a_natural_1_and_breaks() {
    let gun = json!({ "name": "pistol", "kind": "ranged", "attack_bonus": 3, "range_increment_ft": 20, "firearm": true,
                      "damage": [{ "formula": "1d8", "types": ["piercing"] }] });
    let prep = prepare(
        arena(3, 12),
        vec![("a", creature("Gunner", json!({ "attacks": [gun] })), at(1, 1)), ("b", target(), at(1, 4))],
    );
    let mut b = Bench::new(&[1]);
    let mut e = b.engine(&prep, &SimOptions::default());
    turn(&mut e, 0, vec![Action::at(Attack, 1)]);
    assert!(e.st.is_broken(0, 0));
    turn(&mut e, 0, vec![Action::at(Attack, 1)]);
    assert_eq!(e.st.last_results(0), [ActionResult::failed(Attack, Reason::OutOfRange)]);
    turn(&mut e, 0, vec![Action::at(Attack, 1).with_weapon(0)]);
    assert_eq!(e.st.last_results(0), [ActionResult::failed(Attack, Reason::WeaponUnavailable)]);
    drop(e);
    assert_eq!(
        b.lines()[0],
        "round 1 gunner: pistol vs target d20=1+3=4 touch AC 12 natural 1 -> MISS, MISFIRE (broken)"
    );
}

#[test]
fn natural_attacks_never_iterate_and_count_sweeps_stop_when_the_target_falls() {
    let claws = json!({ "name": "claw", "kind": "melee", "attack_bonus": 10, "natural": true, "count": 2,
                        "damage": [{ "formula": "1d4+20", "types": ["slashing"] }] });
    let beast = creature("Beast", json!({ "bab": 11, "attacks": [claws] }));
    let prep =
        prepare(arena(3, 6), vec![("a", beast, at(1, 1)), ("b", creature("Victim", json!({})), at(1, 2))]);
    let mut b = Bench::new(&[15, 4]);
    let mut e = b.engine(&prep, &SimOptions::default());
    turn(&mut e, 0, vec![Action::at(FullAttack, 1)]);
    drop(e);
    // One claw kills (10 - 24 = -14 <= -12): the second sweep is lost, no iteratives.
    assert_eq!(b.lines().iter().filter(|l| l.contains("claw vs")).count(), 1, "{:?}", b.lines());
}

#[test]
fn surprise_round_gives_aware_combatants_one_action() {
    let mut sleeper = creature("Sleeper", json!({}));
    sleeper.aware = false;
    let prep =
        prepare(arena(3, 8), vec![("a", creature("Hero", json!({})), at(1, 1)), ("b", sleeper, at(1, 4))]);
    // Initiative: hero 15, sleeper 5; surprise: move + attack -> move only, full attack dropped...
    let mut rng = crate::rng::ScriptedRng::new(vec![15, 5, 20, 5, 3]);
    let mut events = Vec::new();
    let mut policy = script(vec![Action::at(Move, 1), Action::at(Attack, 1), Action::new(Swift)]);
    let mut e = crate::combat::engine::Engine::new(
        &prep,
        &SimOptions { round_cap: 0, ..SimOptions::default() },
        &mut rng,
        Some(&mut events),
    );
    e.roll_initiative();
    assert!(e.surprise_applies());
    e.surprise_round(&mut policy);
    assert_eq!(
        e.st.last_results(0),
        [
            ActionResult::done(Move),
            ActionResult::failed(Attack, Reason::DowngradedSurprise),
            ActionResult::failed(Swift, Reason::DowngradedSurprise),
        ]
    );
    drop(e);
    let lines = super::support::english(&prep, &events);
    assert!(lines.iter().any(|l| l == "round 0 sleeper: surprised: does not act"), "{lines:?}");
}

#[test]
fn delay_moves_the_turn_and_persists() {
    let prep = prepare(
        arena(3, 12),
        vec![
            ("a", creature("First", json!({ "initiative_mod": 3 })), at(1, 1)),
            ("a", creature("Second", json!({ "initiative_mod": 2 })), at(2, 1)),
            ("b", creature("Third", json!({ "initiative_mod": 1 })), at(1, 12)),
        ],
    );
    let mut rng = crate::rng::ScriptedRng::new(vec![10, 10, 10]);
    let mut events = Vec::new();
    let mut delayed_once = false;
    let mut policy = |st: &crate::combat::BattleState<'_>, i: usize, out: &mut Vec<Action>| {
        if i == 0 && !delayed_once {
            delayed_once = true;
            out.push(Action::new(Delay));
            out.push(Action::new(Move).with_destination(at(1, 2)));
        } else if st.round() == 1 {
            out.push(Action::new(Wait));
        }
    };
    let mut e = crate::combat::engine::Engine::new(
        &prep,
        &SimOptions { round_cap: 2, ..SimOptions::default() },
        &mut rng,
        Some(&mut events),
    );
    e.roll_initiative();
    assert_eq!(e.st.order, [0, 1, 2]);
    e.start_round();
    e.queue = e.st.order.iter().rev().map(|&i| (i, false)).collect();
    let mut played = Vec::new();
    while let Some((i, resumed)) = e.queue.pop() {
        played.push((i, resumed));
        if resumed {
            e.take_turn_resumed(i, &mut policy);
        } else {
            e.take_turn(i, &mut policy);
        }
    }
    assert_eq!(played, [(0, false), (1, false), (2, false), (0, true)]);
    // The resumed turn is planned and played normally.
    assert_eq!(e.st.last_results(0), [ActionResult::done(Wait)]);
    e.start_round();
    assert_eq!(e.st.order, [1, 2, 0], "the new count persists");
    drop(e);
    let lines = super::support::english(&prep, &events);
    assert!(lines.iter().any(|l| l == "round 1 first: move failed (delayed)"), "{lines:?}");
}

#[test]
fn a_readied_attack_fires_when_an_enemy_comes_into_reach_and_shifts_initiative() {
    let prep = prepare(
        arena(3, 12),
        vec![("a", creature("Guard", json!({})), at(1, 1)), ("b", creature("Intruder", json!({})), at(1, 6))],
    );
    let mut b = Bench::new(&[15, 4]);
    let mut e = b.engine(&prep, &SimOptions::default());
    e.init_keys = vec![(30, 0, 2), (20, 0, 1)];
    turn(&mut e, 0, vec![Action::new(Ready).with_trigger(ReadyTrigger::EnemyEntersReach)]);
    assert_eq!(e.st.last_results(0), [ActionResult { kind: Ready, ok: true, reason: Some(Reason::Readied) }]);
    turn(&mut e, 1, vec![Action::new(Move).with_destination(at(1, 2))]);
    assert!(e.st.fighters[0].turn.readied.is_none(), "one shot");
    assert_eq!(e.init_keys[0].0, 21, "just ahead of the intruder");
    drop(e);
    assert_eq!(
        &b.lines()[1..],
        [
            "round 1 intruder: move (1,6)->(1,5)->(1,4)->(1,3)->(1,2)",
            "round 1 guard: readied attack set off (enemy_enters_reach)",
            "round 1 guard: sword vs intruder d20=15+0=15 AC 10 -> HIT 4 dmg (hp 10->6)",
        ]
    );
}

#[test]
fn a_readied_action_expires_at_the_start_of_the_next_turn() {
    let prep = prepare(
        arena(3, 12),
        vec![("a", creature("Guard", json!({})), at(1, 1)), ("b", creature("Intruder", json!({})), at(1, 9))],
    );
    let mut b = Bench::new(&[]);
    let mut e = b.engine(&prep, &SimOptions::default());
    turn(&mut e, 0, vec![Action::new(Ready).with_trigger(ReadyTrigger::EnemyAttacks)]);
    turn(&mut e, 0, vec![]);
    assert!(e.st.fighters[0].turn.readied.is_none());
    drop(e);
    assert_eq!(b.lines()[1], "round 1 guard: ready expired (trigger never occurred)");
}

#[test]
fn withdraw_spares_the_starting_square_only() {
    let prep = prepare(
        arena(3, 14),
        vec![("a", creature("Coward", json!({})), at(2, 5)), ("b", creature("Brute", json!({})), at(2, 4))],
    );
    let mut b = Bench::new(&[]);
    let mut e = b.engine(&prep, &SimOptions::default());
    turn(&mut e, 0, vec![Action::new(Withdraw)]);
    assert_eq!(e.st.last_results(0), [ActionResult::done(Withdraw)]);
    assert_eq!(e.st.aoo_left(1), 1, "leaving the first square does not provoke");
    assert_eq!(e.st.pos(0).col, 14, "60 ft away from the brute, as far as the arena allows");
}

#[test]
fn a_staggered_creature_withdraws_as_a_standard_action_at_its_speed() {
    let prep = prepare(
        arena(3, 20),
        vec![("a", creature("Coward", json!({})), at(2, 2)), ("b", creature("Brute", json!({})), at(2, 1))],
    );
    let mut b = Bench::new(&[]);
    let mut e = b.engine(&prep, &SimOptions::default());
    e.st.fighters[0].hp = 0;
    turn(&mut e, 0, vec![Action::new(Withdraw)]);
    assert_eq!(e.st.last_results(0), [ActionResult::done(Withdraw)]);
    assert_eq!(e.st.pos(0).col, 8, "30 ft");
    drop(e);
    assert!(b.lines()[0].starts_with("round 1 coward: restricted withdraw"), "{:?}", b.lines());
}

#[test]
fn run_is_a_straight_line_stopping_at_the_first_obstacle() {
    let m = map(&["##############", "#............#", "#......T.....#", "##############"]);
    let prep = prepare(
        m,
        vec![("a", creature("Runner", json!({})), at(2, 1)), ("b", creature("Foe", json!({})), at(2, 12))],
    );
    let mut b = Bench::new(&[]);
    let mut e = b.engine(&prep, &SimOptions::default());
    turn(&mut e, 0, vec![Action::at(Run, 1)]);
    assert_eq!(e.st.last_results(0), [ActionResult::done(Run)]);
    assert_eq!(e.st.pos(0), at(2, 6), "stops before the rubble");
    assert!(e.st.fighters[0].run.running);
    // Running: the runner loses its Dexterity bonus (flat-footed AC).
    let mut sit = e.st.situation(1, 0, 0, crate::combat::odds::Swing::default());
    assert_eq!(sit.ac, 10);
    e.st.fighters[0].run.running = false;
    sit = e.st.situation(1, 0, 0, crate::combat::odds::Swing::default());
    assert_eq!(sit.ac, 10);
    // A destination the straight line cannot honour is refused.
    turn(&mut e, 0, vec![Action::new(Run).with_destination(at(1, 12))]);
    assert_eq!(e.st.last_results(0), [ActionResult::failed(Run, Reason::UnreachableDestination)]);
    turn(&mut e, 0, vec![Action::new(Run)]);
    assert_eq!(e.st.last_results(0), [ActionResult::failed(Run, Reason::MissingTarget)]);
}

#[test]
fn running_past_the_constitution_score_needs_checks_then_rest() {
    let runner = creature(
        "Runner",
        json!({ "abilities": { "str_score": 10, "dex_score": 10, "con_score": 2,
        "int_score": 10, "wis_score": 10, "cha_score": 10 } }),
    );
    let prep =
        prepare(arena(3, 40), vec![("a", runner, at(1, 1)), ("b", creature("Foe", json!({})), at(3, 40))]);
    // Con 2 (−4): rounds 1-2 free, round 3 check DC 10 (d20=15 -> 11 ok), round 4 DC 11 (d20=14 -> 10 fails).
    let mut b = Bench::new(&[15, 14]);
    let mut e = b.engine(&prep, &SimOptions::default());
    let mut results = Vec::new();
    for k in 0..6 {
        let dest = if k % 2 == 0 { at(1, 20) } else { at(1, 1) };
        turn(&mut e, 0, vec![Action::new(Run).with_destination(dest)]);
        results.push(e.st.last_results(0)[0]);
    }
    assert_eq!(
        results,
        [
            ActionResult::done(Run),
            ActionResult::done(Run),
            ActionResult::done(Run),
            ActionResult::failed(Run, Reason::RunStopped),
            ActionResult::failed(Run, Reason::Resting),
            ActionResult::failed(Run, Reason::Resting),
        ]
    );
    drop(e);
    assert!(
        b.lines()
            .iter()
            .any(|l| l == "round 1 runner: run endurance: Con check d20=14-4=10 vs DC 11 -> run stopped"),
        "{:?}",
        b.lines()
    );
}

#[test]
fn immediate_actions_spend_the_swift_action() {
    use crate::combat::decide::{ReactionEvent, Reactions};
    struct Always;
    impl Reactions for Always {
        fn react(
            &mut self,
            _: &crate::combat::BattleState<'_>,
            who: usize,
            _: ReactionEvent,
        ) -> Option<Action> {
            (who == 1).then_some(Action::new(Immediate))
        }
    }
    let prep =
        prepare(arena(3, 8), vec![("a", creature("Hero", json!({})), at(1, 1)), ("b", target(), at(1, 2))]);
    let mut b = Bench::new(&[5, 5, 5]);
    let mut always = Always;
    let mut e = b.engine(&prep, &SimOptions::default());
    e.reactions = Some(&mut always);
    // Flat-footed (no turn yet): no immediate action.
    turn(&mut e, 0, vec![Action::at(Attack, 1)]);
    assert_eq!(e.st.fighters[1].turn.immediate_round, u32::MAX);
    // After its first turn, an attack on it sets off an immediate action out of turn...
    turn(&mut e, 1, vec![]);
    turn(&mut e, 0, vec![Action::at(Attack, 1)]);
    assert!(e.st.fighters[1].turn.immediate_used);
    // ... which spends its next swift action.
    turn(&mut e, 1, vec![Action::new(Swift), Action::new(Immediate)]);
    assert_eq!(
        e.st.last_results(1),
        [
            ActionResult::failed(Swift, Reason::DowngradedImmediateSwift),
            ActionResult::failed(Immediate, Reason::DowngradedImmediateSwift),
        ]
    );
}

#[test]
fn an_immediate_action_on_its_own_turn_takes_that_turn_s_swift_action() {
    let prep =
        prepare(arena(3, 8), vec![("a", creature("Hero", json!({})), at(1, 1)), ("b", target(), at(1, 5))]);
    let mut b = Bench::new(&[]);
    let mut e = b.engine(&prep, &SimOptions::default());
    turn(&mut e, 0, vec![Action::new(Immediate), Action::new(Swift)]);
    assert_eq!(
        e.st.last_results(0),
        [ActionResult::done(Immediate), ActionResult::failed(Swift, Reason::DowngradedImmediateSwift)]
    );
}

/// Four combatants: Bravo ties Alpha and Charlie on 10 with a better
/// modifier and goes first; Alpha and Charlie, still tied, roll off (4
/// against 15); Delta is alone on 5 and rolls nothing more.
#[test]
fn initiative_ties_go_to_the_higher_modifier_then_to_a_roll_off() {
    let prep = prepare(
        arena(4, 12),
        vec![
            ("a", creature("Alpha", json!({})), at(1, 1)),
            ("a", creature("Bravo", json!({ "initiative_mod": 2 })), at(2, 1)),
            ("b", creature("Charlie", json!({})), at(1, 12)),
            ("b", creature("Delta", json!({})), at(2, 12)),
        ],
    );
    let mut rng = crate::rng::ScriptedRng::new(vec![10, 8, 10, 5, 4, 15]);
    let mut events = Vec::new();
    let mut e =
        crate::combat::engine::Engine::new(&prep, &SimOptions::default(), &mut rng, Some(&mut events));
    e.roll_initiative();
    assert_eq!(e.st.order, [1, 2, 0, 3]);
    e.start_round();
    assert_eq!(e.st.order, [1, 2, 0, 3], "the keys keep the roll-off's verdict");
    drop(e);
    let lines = super::support::english(&prep, &events);
    assert_eq!(rng.remaining(), 0, "one roll-off die each for the two tied combatants");
    assert_eq!(
        lines,
        [
            "initiative: bravo d20=8+2=10",
            "initiative: charlie d20=10+0=10, roll-off d20=15",
            "initiative: alpha d20=10+0=10, roll-off d20=4",
            "initiative: delta d20=5+0=5",
        ]
    );
}

/// Three combatants tied on total and modifier: the roll-off ties two of
/// them again (7 and 7), and only those two roll once more.
#[test]
fn combatants_still_tied_after_a_roll_off_roll_again_among_themselves() {
    let prep = prepare(
        arena(4, 12),
        vec![
            ("a", creature("Alpha", json!({})), at(1, 1)),
            ("a", creature("Bravo", json!({})), at(2, 1)),
            ("b", creature("Charlie", json!({})), at(1, 12)),
        ],
    );
    // Checks 12, 12, 12; roll-off 7, 3, 7; Alpha and Charlie again: 2, 9.
    let mut rng = crate::rng::ScriptedRng::new(vec![12, 12, 12, 7, 3, 7, 2, 9]);
    let mut events = Vec::new();
    let mut e =
        crate::combat::engine::Engine::new(&prep, &SimOptions::default(), &mut rng, Some(&mut events));
    e.roll_initiative();
    assert_eq!(e.st.order, [2, 0, 1]);
    drop(e);
    let lines = super::support::english(&prep, &events);
    assert_eq!(rng.remaining(), 0);
    assert_eq!(
        lines,
        [
            "initiative: charlie d20=12+0=12, roll-off d20=7, roll-off d20=9",
            "initiative: alpha d20=12+0=12, roll-off d20=7, roll-off d20=2",
            "initiative: bravo d20=12+0=12, roll-off d20=3",
        ]
    );
}
