//! Conditions in play: modifiers, flags, the action filters, concealment,
//! blindness, invisibility, helplessness, confusion, fear.

use serde_json::json;

use super::support::*;
use crate::combat::SimOptions;
use crate::combat::action::{Action, ActionKind, ActionResult, Reason};
use crate::combat::decide::Policy;
use crate::combat::odds::Swing;
use crate::combat::policy::DefaultPolicy;
use crate::effects::ConditionId as C;

use ActionKind::*;

/// A hero (sword +0, 1d6) and a target (AC 16, touch 12, flat-footed 14, Dex 14).
fn duel() -> crate::combat::PreparedEncounter {
    let target = creature(
        "Target",
        json!({ "hp_max": 50, "ac": { "total": 16, "touch": 12, "flat_footed": 14 },
                "abilities": { "str_score": 10, "dex_score": 14, "con_score": 12,
                               "int_score": 10, "wis_score": 10, "cha_score": 10 } }),
    );
    prepare(arena(3, 8), vec![("a", creature("Hero", json!({})), at(1, 1)), ("b", target, at(1, 2))])
}

#[test]
fn fear_sickness_and_dazzle_penalties_stack_on_the_attack_roll() {
    let prep = duel();
    let mut b = Bench::new(&[]);
    let mut e = b.engine(&prep, &SimOptions::default());
    for c in [C::Shaken, C::Sickened, C::Dazzled] {
        e.set_condition(0, c);
    }
    let s = e.st.situation(0, 0, 1, Swing::default());
    assert_eq!(s.attack, -5);
    // Sickened also costs 2 points of weapon damage.
    assert_eq!(e.st.damage_bonus(0, 0, 1, &s, Swing::default()), -2);
    e.clear_condition(0, C::Shaken);
    assert_eq!(e.st.situation(0, 0, 1, Swing::default()).attack, -3);
}

#[test]
fn a_blinded_target_loses_its_dexterity_and_two_more_points() {
    let prep = duel();
    let mut b = Bench::new(&[]);
    let mut e = b.engine(&prep, &SimOptions::default());
    e.set_condition(1, C::Blinded);
    let s = e.st.situation(0, 0, 1, Swing::default());
    assert!(s.denied);
    assert_eq!(s.ac, 14 - 2, "flat-footed AC, −2");
    assert_eq!(e.st.speed(1), 15, "half speed");
}

#[test]
fn a_blinded_attacker_misses_half_its_hits_and_makes_no_attack_of_opportunity() {
    let prep = duel();
    // Hit (15), then the 50 % miss chance: 50 misses, 51 hits.
    let mut b = Bench::new(&[18, 50, 18, 51, 3]);
    let mut e = b.engine(&prep, &SimOptions::default());
    e.set_condition(0, C::Blinded);
    assert_eq!(e.st.miss_chance(0, 1, true), 50);
    e.strike(0, 0, 1, Swing::default());
    assert_eq!(e.st.hp(1), 50);
    e.strike(0, 0, 1, Swing::default());
    assert_eq!(e.st.hp(1), 47);
    // Leaving the blinded hero's reach provokes nothing.
    turn(&mut e, 1, vec![Action::new(Move).with_destination(at(1, 6))]);
    assert_eq!(e.st.aoo_left(0), 1);
    drop(e);
    assert!(b.lines().iter().any(|l| l.contains("attacker blinded 50%: d100=50 -> MISS")), "{:?}", b.lines());
    assert!(
        b.lines().iter().any(|l| l.contains("AoO on target suppressed (total concealment)")),
        "{:?}",
        b.lines()
    );
}

#[test]
fn a_helpless_target_is_hit_at_plus_four_in_melee_against_dexterity_zero() {
    let prep = duel();
    let mut b = Bench::new(&[]);
    let mut e = b.engine(&prep, &SimOptions::default());
    e.set_condition(1, C::Paralyzed);
    let s = e.st.situation(0, 0, 1, Swing::default());
    assert!(s.helpless && s.denied);
    assert_eq!(s.attack, 4);
    // Flat-footed 14 without its +2 Dex already; effective Dex 0 is −5 more.
    assert_eq!(s.ac, 14 - 5);
    assert!(e.st.is_helpless(1));
    // Paralyzed: it loses its turn.
    turn(&mut e, 1, vec![Action::at(Attack, 0)]);
    assert!(e.st.last_results(1).is_empty());
    drop(e);
    assert!(b.lines().iter().any(|l| l == "round 1 target: loses its turn (paralyzed)"), "{:?}", b.lines());
}

#[test]
fn an_invisible_attacker_gets_plus_two_and_its_target_loses_dexterity() {
    let prep = duel();
    let mut b = Bench::new(&[]);
    let mut e = b.engine(&prep, &SimOptions::default());
    e.set_condition(0, C::Invisible);
    let s = e.st.situation(0, 0, 1, Swing::default());
    assert_eq!((s.attack, s.ac, s.invisible), (2, 14, true));
    // And the target of an invisible creature attacks into total concealment.
    assert_eq!(e.st.miss_chance(1, 0, true), 50);
}

#[test]
fn concealment_is_rolled_after_the_hit_and_blur_is_twenty_percent() {
    let prep = duel();
    let mut b = Bench::new(&[12, 20, 12, 21, 4]);
    let mut e = b.engine(&prep, &SimOptions::default());
    e.set_condition(1, C::Blurred);
    e.set_condition(1, C::Stunned);
    e.strike(0, 0, 1, Swing::default());
    assert_eq!(e.st.hp(1), 50, "d100 = 20 misses");
    e.strike(0, 0, 1, Swing::default());
    assert_eq!(e.st.hp(1), 46);
    drop(e);
    assert_eq!(
        b.lines()[0],
        "round 1 hero: sword vs target d20=12+0=12 AC 12 [target denied Dex, target stunned blurred] -> HIT concealment 20%: d100=20 -> MISS"
    );
}

#[test]
fn stunned_loses_the_turn_takes_minus_two_ac_and_loses_dexterity() {
    let prep = duel();
    let mut b = Bench::new(&[]);
    let mut e = b.engine(&prep, &SimOptions::default());
    e.set_condition(1, C::Stunned);
    assert_eq!(e.st.situation(0, 0, 1, Swing::default()).ac, 14 - 2);
    assert!(!e.begin_turn(1));
}

#[test]
fn a_nauseated_creature_only_moves_and_a_staggered_one_takes_one_action() {
    let prep = duel();
    // The target's attack of opportunity on the move misses (natural 1); the staggered attack misses.
    let mut b = Bench::new(&[1, 10]);
    let mut e = b.engine(&prep, &SimOptions::default());
    e.set_condition(0, C::Nauseated);
    turn(&mut e, 0, vec![Action::at(Attack, 1), Action::new(Move).with_destination(at(2, 1))]);
    assert_eq!(
        e.st.last_results(0),
        [ActionResult::failed(Attack, Reason::DowngradedNauseated), ActionResult::done(Move)]
    );
    e.clear_condition(0, C::Nauseated);
    e.set_condition(0, C::Staggered);
    e.st.relocate(0, at(1, 1));
    turn(&mut e, 0, vec![Action::at(Attack, 1), Action::new(Move).with_destination(at(2, 1))]);
    assert_eq!(
        e.st.last_results(0),
        [ActionResult::done(Attack), ActionResult::failed(Move, Reason::DowngradedStaggered)]
    );
}

#[test]
fn grappled_and_entangled_creatures_move_less() {
    let prep = duel();
    let mut b = Bench::new(&[]);
    let mut e = b.engine(&prep, &SimOptions::default());
    e.set_condition(0, C::Grappled);
    turn(&mut e, 0, vec![Action::new(Move).with_destination(at(2, 1))]);
    assert_eq!(e.st.last_results(0), [ActionResult::failed(Move, Reason::CannotMove)]);
    assert_eq!(e.st.situation(0, 0, 1, Swing::default()).attack, -2);
    e.clear_condition(0, C::Grappled);
    e.set_condition(0, C::Entangled);
    assert_eq!(e.st.move_budget(0), 15);
    turn(&mut e, 0, vec![Action::at(Charge, 1)]);
    assert_eq!(e.st.last_results(0), [ActionResult::failed(Charge, Reason::CannotRunOrCharge)]);
}

#[test]
fn a_target_s_dexterity_penalty_lowers_its_ac_even_when_flat_footed() {
    let prep = duel();
    let mut b = Bench::new(&[]);
    let mut e = b.engine(&prep, &SimOptions::default());
    // Exhausted: Dex 14 −6 = 8, modifier +2 → −1.
    e.set_condition(1, C::Exhausted);
    assert_eq!(e.st.situation(0, 0, 1, Swing::default()).ac, 16 - 3);
    e.set_condition(1, C::FlatFooted);
    assert_eq!(e.st.situation(0, 0, 1, Swing::default()).ac, 14 - 1, "the penalty part stays");
}

#[test]
fn frightened_creatures_withdraw_and_cornered_panicked_ones_defend() {
    let prep = duel();
    let mut b = Bench::new(&[]);
    let mut e = b.engine(&prep, &SimOptions::default());
    e.set_condition(0, C::Frightened);
    let mut out = Vec::new();
    DefaultPolicy.plan(&e.st, 0, &mut out);
    assert_eq!(out, [Action::new(Withdraw)]);
    e.set_condition(0, C::Panicked);
    e.set_condition(0, C::Grappled);
    out.clear();
    DefaultPolicy.plan(&e.st, 0, &mut out);
    assert_eq!(out, [Action::new(TotalDefense)]);
    // The engine refuses a panicked creature's attacks whatever its policy asks.
    turn(&mut e, 0, vec![Action::at(Attack, 1)]);
    assert_eq!(e.st.last_results(0), [ActionResult::failed(Attack, Reason::CannotAttack)]);
}

#[test]
fn a_prone_creature_stands_up_before_attacking() {
    let prep = duel();
    let mut b = Bench::new(&[]);
    let mut e = b.engine(&prep, &SimOptions::default());
    e.set_condition(0, C::Prone);
    let mut out = Vec::new();
    DefaultPolicy.plan(&e.st, 0, &mut out);
    assert_eq!(out, [Action::new(StandUp), Action::at(Attack, 1)]);
}

#[test]
fn confusion_rolls_d100_at_the_start_of_the_turn() {
    let prep = prepare(
        arena(3, 8),
        vec![
            ("a", creature("Hero", json!({})), at(1, 1)),
            ("a", creature("Friend", json!({ "hp_max": 30 })), at(1, 2)),
            ("b", creature("Foe", json!({ "hp_max": 30 })), at(1, 6)),
        ],
    );
    // 10: acts normally (its policy attacks the foe out of reach: no roll);
    // 40: babbles; 60 + d8 = 5: hurts itself for 5 (Str 10); 90: attacks the
    // nearest creature, its friend (d20 12 hits AC 10, d6 = 4).
    let mut b = Bench::new(&[10, 40, 60, 5, 90, 12, 4]);
    let mut e = b.engine(&prep, &SimOptions::default());
    e.set_condition(0, C::Confused);
    assert!(e.begin_turn(0));
    assert!(!e.begin_turn(0));
    assert!(!e.begin_turn(0));
    assert_eq!(e.st.hp(0), 5);
    assert!(!e.begin_turn(0));
    assert_eq!(e.st.hp(1), 26);
    assert!(e.st.fighters[0].no_aoo, "a confused creature makes no attack of opportunity");
    drop(e);
    let lines = b.lines();
    let confusion: Vec<&str> =
        lines.iter().filter(|l| l.contains(": confused d%")).map(String::as_str).collect();
    assert_eq!(
        confusion,
        [
            "round 1 hero: confused d%=10: acts normally",
            "round 1 hero: confused d%=40: babbles incoherently",
            "round 1 hero: confused d%=60: hurts itself for 5 (hp 10->5)",
            "round 1 hero: confused d%=90: attacks the nearest creature, friend",
        ]
    );
}

#[test]
fn flat_footed_creatures_make_no_attack_of_opportunity_without_combat_reflexes() {
    let prep = duel();
    let mut b = Bench::new(&[]);
    let mut e = b.engine(&prep, &SimOptions::default());
    e.set_condition(0, C::FlatFooted);
    assert!(e.st.fighters[0].no_aoo);
    let reflexes = prepare(
        arena(3, 8),
        vec![
            ("a", creature("Hero", json!({ "features": ["Combat Reflexes"] })), at(1, 1)),
            ("b", creature("T", json!({})), at(1, 2)),
        ],
    );
    let mut b = Bench::new(&[]);
    let mut e = b.engine(&reflexes, &SimOptions::default());
    e.set_condition(0, C::FlatFooted);
    assert!(!e.st.fighters[0].no_aoo);
}

#[test]
fn a_displaced_mover_provokes_nothing_and_cannot_be_sneak_attacked() {
    let rogue = creature("Rogue", json!({ "features": ["Sneak Attack +2d6"] }));
    let prep = prepare(
        arena(3, 8),
        vec![
            ("a", rogue, at(1, 1)),
            ("a", creature("Ally", json!({})), at(1, 3)),
            ("b", creature("Target", json!({ "hp_max": 40 })), at(1, 2)),
        ],
    );
    let mut b = Bench::new(&[15, 60, 3]);
    let mut e = b.engine(&prep, &SimOptions::default());
    e.set_condition(2, C::Displaced);
    // Flanked, but concealed: the hit (d100 60 > 50) deals no sneak attack.
    e.strike(0, 0, 2, Swing::default());
    assert_eq!(e.st.hp(2), 37);
    turn(&mut e, 2, vec![Action::new(Move).with_destination(at(3, 6))]);
    assert_eq!((e.st.aoo_left(0), e.st.aoo_left(1)), (1, 1));
}
