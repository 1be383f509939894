//! The eleven combat maneuvers, CMB and CMD, the provoked attack, the size
//! limit and weapon states.

use serde_json::json;

use super::support::*;
use crate::combat::SimOptions;
use crate::combat::action::{Action, ActionKind, ActionResult, Reason};
use crate::combat::decide::Policy;
use crate::combat::policy::StrategyPolicy;
use crate::effects::{ConditionId as C, Maneuver};

use Maneuver::*;

/// A fighter (BAB 4, Str 16: CMB 7) and a foe (BAB 1, Str 10, Dex 10: CMD 11) with a club.
fn fighter(features: serde_json::Value) -> crate::model::Combatant {
    creature(
        "Fighter",
        json!({ "bab": 4, "features": features, "hp_max": 40,
                "abilities": { "str_score": 16, "dex_score": 10, "con_score": 12,
                               "int_score": 10, "wis_score": 10, "cha_score": 10 },
                "attacks": [melee("sword", 7, "1d8+3")],
                "carried_items": ["potion", "scroll"] }),
    )
}

fn foe() -> crate::model::Combatant {
    creature(
        "Foe",
        json!({ "hp_max": 40, "attacks": [melee("club", 1, "1d6"), { "name": "bite", "kind": "melee",
                 "attack_bonus": 0, "natural": true, "damage": [{ "formula": "1d3", "types": ["piercing"] }] }],
                "carried_items": ["wand"] }),
    )
}

fn duel(features: serde_json::Value) -> crate::combat::PreparedEncounter {
    prepare(arena(5, 10), vec![("a", fighter(features), at(3, 3)), ("b", foe(), at(3, 4))])
}

#[test]
fn cmb_and_cmd_come_from_bab_strength_dexterity_and_size() {
    let prep = duel(json!([]));
    assert_eq!((prep.fighters[0].offense.cmb, prep.fighters[0].defense.cmd), (7, 17));
    assert_eq!((prep.fighters[1].offense.cmb, prep.fighters[1].defense.cmd), (1, 11));
    let mut b = Bench::new(&[]);
    let mut e = b.engine(&prep, &SimOptions::default());
    // Total defense's +4 dodge counts toward CMD; stunned gives −2 AC... and −4 CMD.
    e.st.fighters[1].turn.total_defense = true;
    assert_eq!(e.st.cmd(1, Trip, 0), 15);
    e.st.fighters[1].turn.total_defense = false;
    e.set_condition(1, C::Stunned);
    assert_eq!(e.st.cmd(1, Trip, 0), 11 - 2 - 4);
    // A printed CMB and CMD are final values.
    let printed = creature("Wolf", json!({ "cmb": 2, "cmd": 14 }));
    let p = prepare(arena(3, 3), vec![("a", printed, at(1, 1)), ("b", foe(), at(1, 2))]);
    assert_eq!((p.fighters[0].offense.cmb, p.fighters[0].defense.cmd), (2, 14));
}

#[test]
fn a_trip_provokes_and_the_damage_is_a_penalty_on_the_roll() {
    let prep = duel(json!([]));
    // The foe's attack of opportunity: d20 15 hits (AC 10), 1d6 = 4. Then d20 12 + 7 − 4 = 15 vs CMD 11.
    let mut b = Bench::new(&[15, 4, 12]);
    let mut e = b.engine(&prep, &SimOptions::default());
    turn(&mut e, 0, vec![Action::maneuver(Trip, 1)]);
    assert_eq!(e.st.last_results(0), [ActionResult::done(ActionKind::Maneuver)]);
    assert!(e.st.is_prone(1));
    assert_eq!(e.st.aoo_left(1), 0, "the provoked attack spends the foe's allowance");
    drop(e);
    assert!(
        b.lines().contains(
            &"round 1 fighter: trip vs foe CMB d20=12+3=15 vs CMD 11 [AoO damage -4] -> success".to_string()
        ),
        "{:?}",
        b.lines()
    );
}

#[test]
fn improved_trip_does_not_provoke_and_adds_two() {
    let prep = duel(json!(["Improved Trip"]));
    let mut b = Bench::new(&[2]);
    let mut e = b.engine(&prep, &SimOptions::default());
    assert_eq!(e.st.cmb(0, Trip, 1), 9);
    assert_eq!(e.st.cmd(0, Trip, 1), 19);
    assert_eq!(e.st.cmb(0, Disarm, 1), 7);
    turn(&mut e, 0, vec![Action::maneuver(Trip, 1)]);
    assert_eq!(e.st.aoo_left(1), 1);
    assert!(e.st.is_prone(1), "2 + 9 = 11 meets CMD 11");
}

#[test]
fn a_trip_that_fails_by_ten_trips_the_attacker() {
    let prep = prepare(arena(3, 6), vec![("a", foe(), at(1, 1)), ("b", fighter(json!([])), at(1, 2))]);
    // The fighter's AoO misses (natural 1); d20 5 + 1 = 6 vs CMD 17: fails by 11.
    let mut b = Bench::new(&[1, 5]);
    let mut e = b.engine(&prep, &SimOptions::default());
    turn(&mut e, 0, vec![Action::maneuver(Trip, 1)]);
    assert!(e.st.is_prone(0) && !e.st.is_prone(1));
}

#[test]
fn natural_twenty_succeeds_and_natural_one_fails() {
    for (cmd, d20, success) in [(2, 1, false), (40, 20, true)] {
        let target = creature("Target", json!({ "cmd": cmd }));
        let prep = prepare(
            arena(3, 6),
            vec![("a", fighter(json!(["Improved Disarm"])), at(1, 1)), ("b", target, at(1, 2))],
        );
        let mut b = Bench::new(&[d20]);
        let mut e = b.engine(&prep, &SimOptions::default());
        turn(&mut e, 0, vec![Action::maneuver(Disarm, 1)]);
        assert_eq!(e.st.is_dropped(1, 0), success, "CMD {cmd}, natural {d20}");
    }
}

#[test]
fn the_size_limit_refuses_before_any_roll_or_attack_of_opportunity() {
    let giant = creature("Giant", json!({ "size": "Huge" }));
    let prep = prepare(arena(5, 8), vec![("a", fighter(json!([])), at(1, 1)), ("b", giant, at(1, 2))]);
    let mut b = Bench::new(&[]);
    let mut e = b.engine(&prep, &SimOptions::default());
    turn(&mut e, 0, vec![Action::maneuver(Trip, 1)]);
    assert_eq!(e.st.last_results(0), [ActionResult::failed(ActionKind::Maneuver, Reason::TargetTooLarge)]);
    assert_eq!(e.st.aoo_left(1), 1);
    // Disarm has no size limit: it is played (and provokes).
    assert_eq!(e.st.size(1), crate::model::Size::Huge);
}

#[test]
fn disarm_drops_the_weapon_until_it_is_picked_up() {
    let prep = duel(json!(["Improved Disarm"]));
    let mut b = Bench::new(&[10, 10, 3]);
    let mut e = b.engine(&prep, &SimOptions::default());
    turn(&mut e, 0, vec![Action::maneuver(Disarm, 1)]);
    assert!(e.st.is_dropped(1, 0));
    assert!(e.st.has_condition(1, C::Disarmed));
    // Only the bite is left: the club neither attacks nor threatens.
    assert_eq!(e.st.weapon_for(1, 0, e.st.pos(1)), Ok(1));
    assert_eq!(e.st.threat_weapon(1, e.st.pos(0)), Some(1));
    turn(&mut e, 1, vec![Action::at(ActionKind::Attack, 0).with_weapon(0)]);
    assert_eq!(e.st.last_results(1), [ActionResult::failed(ActionKind::Attack, Reason::WeaponUnavailable)]);
    // Picking it up provokes (the fighter's AoO: d20 10 + 7 hits AC 10, 1d8 = 3).
    turn(&mut e, 1, vec![Action::new(ActionKind::RetrieveWeapon)]);
    assert!(e.st.is_usable(1, 0));
    assert!(!e.st.has_condition(1, C::Disarmed));
    assert_eq!(e.st.hp(1), 40 - 6);
    turn(&mut e, 1, vec![Action::new(ActionKind::RetrieveWeapon)]);
    assert_eq!(
        e.st.last_results(1),
        [ActionResult::failed(ActionKind::RetrieveWeapon, Reason::NothingToRetrieve)]
    );
    // No weapon to take: disarm is refused.
    let bare = creature(
        "Bare",
        json!({ "attacks": [{ "name": "claw", "kind": "melee", "attack_bonus": 0, "natural": true,
        "damage": [{ "formula": "1d4", "types": ["slashing"] }] }] }),
    );
    let p = prepare(arena(3, 6), vec![("a", fighter(json!([])), at(1, 1)), ("b", bare, at(1, 2))]);
    let mut b = Bench::new(&[]);
    let mut e = b.engine(&p, &SimOptions::default());
    turn(&mut e, 0, vec![Action::maneuver(Disarm, 1)]);
    assert_eq!(e.st.last_results(0), [ActionResult::failed(ActionKind::Maneuver, Reason::NothingToTake)]);
}

#[test]
fn sunder_wears_the_weapon_to_breaking_and_repair_mends_it() {
    let prep = duel(json!(["Improved Sunder"]));
    // Str +3: 5 damage per success; the second breaks the club.
    let mut b = Bench::new(&[15, 15]);
    let mut e = b.engine(&prep, &SimOptions::default());
    turn(&mut e, 0, vec![Action::maneuver(Sunder, 1)]);
    assert!(e.st.is_usable(1, 0));
    turn(&mut e, 0, vec![Action::maneuver(Sunder, 1)]);
    assert!(e.st.is_broken(1, 0) && e.st.has_condition(1, C::Disarmed));
    turn(&mut e, 1, vec![Action::new(ActionKind::RepairWeapon)]);
    assert!(e.st.is_usable(1, 0) && !e.st.has_condition(1, C::Disarmed));
    assert_eq!(e.st.hp(1), 40, "sunder damages the weapon, not the wielder");
}

#[test]
fn bull_rush_pushes_five_feet_plus_five_per_five_over_and_stops_at_walls() {
    let prep = duel(json!(["Improved Bull Rush"]));
    // 17 + 9 = 26 vs CMD 11: 15 over → 1 + 3 = 4 squares east.
    let mut b = Bench::new(&[17, 10]);
    let mut e = b.engine(&prep, &SimOptions::default());
    turn(&mut e, 0, vec![Action::maneuver(BullRush, 1)]);
    assert_eq!(e.st.pos(1), at(3, 8));
    e.st.relocate(1, at(3, 4));
    // 10 + 9 = 19: 8 over → 2 squares, pushed north by the direction given.
    turn(&mut e, 0, vec![Action::maneuver(BullRush, 1).with_direction(-1, 0)]);
    assert_eq!(e.st.pos(1), at(1, 4));
}

#[test]
fn grapple_holds_the_target_which_cannot_move_until_it_escapes() {
    let prep = duel(json!(["Improved Grapple"]));
    let mut b = Bench::new(&[10, 14]);
    let mut e = b.engine(&prep, &SimOptions::default());
    turn(&mut e, 0, vec![Action::maneuver(Grapple, 1)]);
    assert!(e.st.has_condition(1, C::Grappled));
    turn(&mut e, 1, vec![Action::new(ActionKind::Move).with_destination(at(1, 8))]);
    assert_eq!(e.st.last_results(1), [ActionResult::failed(ActionKind::Move, Reason::CannotMove)]);
    // Escape: 14 + CMB 1 (no grappled penalty on escape) = 15 vs the fighter's CMD 17: fails.
    turn(&mut e, 1, vec![Action::maneuver(Escape, 0)]);
    assert!(e.st.has_condition(1, C::Grappled));
    // The grappler walks away: the grapple ends.
    e.st.relocate(0, at(1, 1));
    assert!(e.begin_turn(1));
    assert!(!e.st.has_condition(1, C::Grappled));
    turn(&mut e, 1, vec![Action::maneuver(Escape, 0)]);
    assert_eq!(e.st.last_results(1), [ActionResult::failed(ActionKind::Maneuver, Reason::NotGrappled)]);
}

#[test]
fn a_grapple_at_reach_pulls_the_target_adjacent() {
    let spear = creature(
        "Spearman",
        json!({ "bab": 4, "features": ["Improved Grapple"], "attacks": [{ "name": "longspear", "kind": "melee",
            "attack_bonus": 5, "reach_weapon": true, "damage": [{ "formula": "1d8", "types": ["piercing"] }] }] }),
    );
    let prep = prepare(arena(3, 8), vec![("a", spear, at(2, 1)), ("b", foe(), at(2, 3))]);
    let mut b = Bench::new(&[18]);
    let mut e = b.engine(&prep, &SimOptions::default());
    turn(&mut e, 0, vec![Action::maneuver(Grapple, 1)]);
    assert_eq!(e.st.pos(1), at(2, 2));
    assert!(e.st.has_condition(1, C::Grappled));
}

#[test]
fn overrun_passes_through_and_knocks_down_when_five_over() {
    let prep = duel(json!(["Improved Overrun"]));
    let mut b = Bench::new(&[8]);
    let mut e = b.engine(&prep, &SimOptions::default());
    // 8 + 9 = 17 vs 11: 6 over.
    turn(&mut e, 0, vec![Action::maneuver(Overrun, 1)]);
    assert_eq!(e.st.pos(0), at(3, 5));
    assert!(e.st.is_prone(1));
    // An overrun needs the target adjacent.
    e.st.relocate(0, at(3, 8));
    turn(&mut e, 0, vec![Action::maneuver(Overrun, 1)]);
    assert_eq!(e.st.last_results(0), [ActionResult::failed(ActionKind::Maneuver, Reason::OutOfRange)]);
}

#[test]
fn dirty_trick_imposes_its_condition_for_a_round_plus_one_per_five_over() {
    let prep = duel(json!(["Improved Dirty Trick"]));
    let mut b = Bench::new(&[12]);
    let mut e = b.engine(&prep, &SimOptions::default());
    // 12 + 9 = 21: 10 over → 3 rounds.
    turn(&mut e, 0, vec![Action::maneuver(DirtyTrick, 1).with_trick(C::Sickened)]);
    assert!(e.st.has_condition(1, C::Sickened));
    assert_eq!(e.st.effects(1)[0].rounds_left, Some(3));
    turn(&mut e, 0, vec![Action::maneuver(DirtyTrick, 1).with_trick(C::Nauseated)]);
    assert_eq!(
        e.st.last_results(0),
        [ActionResult::failed(ActionKind::Maneuver, Reason::InvalidTrickCondition)]
    );
}

#[test]
fn steal_takes_carried_items_until_none_is_left() {
    let prep = duel(json!(["Improved Steal"]));
    let mut b = Bench::new(&[15]);
    let mut e = b.engine(&prep, &SimOptions::default());
    turn(&mut e, 0, vec![Action::maneuver(Steal, 1)]);
    assert_eq!(e.st.fighters[1].gear.stolen_items, 1);
    turn(&mut e, 0, vec![Action::maneuver(Steal, 1)]);
    assert_eq!(e.st.last_results(0), [ActionResult::failed(ActionKind::Maneuver, Reason::NothingToTake)]);
}

#[test]
fn reposition_keeps_the_target_in_reach_and_drag_pulls_it_along() {
    let prep = duel(json!(["Improved Reposition", "Improved Drag"]));
    let mut b = Bench::new(&[15, 15]);
    let mut e = b.engine(&prep, &SimOptions::default());
    // 15 + 9 = 24: 13 over, up to 3 squares, but a 5-ft reach keeps it adjacent: one step north.
    turn(&mut e, 0, vec![Action::maneuver(Reposition, 1)]);
    assert_eq!(e.st.pos(1), at(2, 4));
    e.st.relocate(1, at(3, 4));
    // Drag: both move back (west) up to 3 squares; the wall stops the fighter at column 1.
    turn(&mut e, 0, vec![Action::maneuver(Drag, 1)]);
    assert_eq!((e.st.pos(0), e.st.pos(1)), (at(3, 1), at(3, 2)));
}

#[test]
fn the_maneuver_lever_trips_when_the_odds_beat_an_attack() {
    let roster = std::sync::Arc::new(crate::combat::policy::Roster::default());
    let spec = crate::strategy::StrategySpec::parse("maneuver=trip").unwrap();
    let mut policy = StrategyPolicy::new(spec, roster);
    // CMB 9 vs CMD 11 (95 %) against +7 vs AC 10 (90 %): it trips.
    let prep = duel(json!(["Improved Trip"]));
    let mut b = Bench::new(&[]);
    let e = b.engine(&prep, &SimOptions::default());
    let mut out = Vec::new();
    policy.plan(&e.st, 0, &mut out);
    assert_eq!(out, [Action::maneuver(Trip, 1)]);
    // Against CMD 25 (25 %) it attacks.
    let sturdy = creature("Sturdy", json!({ "cmd": 25 }));
    let p = prepare(
        arena(5, 10),
        vec![("a", fighter(json!(["Improved Trip"])), at(3, 3)), ("b", sturdy, at(3, 4))],
    );
    let mut b = Bench::new(&[]);
    let e = b.engine(&p, &SimOptions::default());
    out.clear();
    policy.plan(&e.st, 0, &mut out);
    assert_eq!(out, [Action::at(ActionKind::FullAttack, 1)]);
}
