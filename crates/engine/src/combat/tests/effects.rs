//! Timed effects, temporary hit points, one-shot bonuses, saving throws,
//! bleed and recurring damage.

use serde_json::json;

use super::support::*;
use crate::combat::SimOptions;
use crate::combat::odds::Swing;
use crate::dice::DiceExpr;
use crate::effects::{
    BonusType, ConditionId as C, ConditionSet, Context, Descriptor, Descriptors, Duration, Effect, Mod,
    ModTarget, Recurring, SaveKind, When,
};

fn trio() -> crate::combat::PreparedEncounter {
    prepare(
        arena(3, 8),
        vec![
            ("a", creature("Caster", json!({})), at(1, 1)),
            (
                "b",
                creature("Target", json!({ "hp_max": 30, "saves": { "fort": 2, "ref": 1, "will": 0 } })),
                at(1, 3),
            ),
            ("b", creature("Other", json!({})), at(2, 5)),
        ],
    )
}

fn bless() -> Effect {
    Effect::new("bless", Duration::Rounds(2)).with_mods(vec![Mod::new(
        ModTarget::Attack,
        1,
        BonusType::Morale,
    )])
}

#[test]
fn a_timed_effect_ends_at_the_start_of_its_source_s_turn_after_its_rounds() {
    let prep = trio();
    let mut b = Bench::new(&[]);
    let mut e = b.engine(&prep, &SimOptions::default());
    e.apply_effect(1, bless(), Some(0));
    assert_eq!(e.st.situation(1, 0, 0, Swing::default()).attack, 1);
    // The bearer's own turns do not count the caster's rounds.
    e.begin_turn(1);
    e.begin_turn(1);
    assert_eq!(e.st.effects(1).len(), 1);
    e.begin_turn(0);
    assert_eq!(e.st.effects(1)[0].rounds_left, Some(1));
    e.begin_turn(0);
    assert!(e.st.effects(1).is_empty());
    assert_eq!(e.st.situation(1, 0, 0, Swing::default()).attack, 0);
    assert_eq!(e.st.timed_effects, 0);
    // Without a source, the bearer's turns count.
    e.apply_effect(1, bless(), None);
    e.begin_turn(1);
    e.begin_turn(1);
    assert!(e.st.effects(1).is_empty());
    drop(e);
    assert!(
        b.lines().contains(&"round 1 target: is affected by bless for 2 rounds".to_string()),
        "{:?}",
        b.lines()
    );
    assert!(b.lines().contains(&"round 1 target: bless wears off".to_string()), "{:?}", b.lines());
}

#[test]
fn the_same_effect_from_the_same_source_refreshes_instead_of_stacking() {
    let prep = trio();
    let mut b = Bench::new(&[]);
    let mut e = b.engine(&prep, &SimOptions::default());
    e.apply_effect(1, bless(), Some(0));
    e.begin_turn(0);
    e.apply_effect(1, bless(), Some(0));
    assert_eq!(e.st.effects(1).len(), 1);
    assert_eq!(e.st.effects(1)[0].rounds_left, Some(2));
    // Another caster's bless is another source, but morale bonuses do not stack.
    e.apply_effect(1, bless(), Some(2));
    assert_eq!(e.st.effects(1).len(), 2);
    assert_eq!(e.st.situation(1, 0, 0, Swing::default()).attack, 1);
}

#[test]
fn conditions_from_an_effect_come_and_go_with_it() {
    let prep = trio();
    let mut b = Bench::new(&[]);
    let mut e = b.engine(&prep, &SimOptions::default());
    e.condition_for(1, C::Dazed, 1, Some(0));
    assert!(e.st.has_condition(1, C::Dazed));
    assert!(!e.begin_turn(1), "dazed: no action");
    e.begin_turn(0);
    assert!(!e.st.has_condition(1, C::Dazed));
    assert!(e.begin_turn(1));
}

#[test]
fn temporary_hit_points_go_first_do_not_stack_and_leave_with_their_effect() {
    let prep = trio();
    let mut b = Bench::new(&[]);
    let mut e = b.engine(&prep, &SimOptions::default());
    let mut aid = Effect::new("aid", Duration::Rounds(1));
    aid.temp_hp = 8;
    e.apply_effect(1, aid, Some(0));
    let mut weaker = Effect::new("false life", Duration::UntilRemoved);
    weaker.temp_hp = 5;
    e.apply_effect(1, weaker, None);
    assert_eq!(e.st.temp_hp(1), 8);
    e.wound(1, 6);
    assert_eq!((e.st.temp_hp(1), e.st.hp(1)), (2, 30));
    e.wound(1, 5);
    assert_eq!((e.st.temp_hp(1), e.st.hp(1)), (0, 27));
    e.apply_effect(
        1,
        {
            let mut a = Effect::new("aid", Duration::Rounds(1));
            a.temp_hp = 8;
            a
        },
        Some(0),
    );
    e.begin_turn(0);
    assert_eq!(e.st.temp_hp(1), 0, "gone with the effect");
}

#[test]
fn a_one_shot_bonus_is_spent_by_the_first_roll_it_helps() {
    let prep = trio();
    let mut b = Bench::new(&[2, 2]);
    let mut e = b.engine(&prep, &SimOptions::default());
    let mut guidance = Effect::new("guidance", Duration::Rounds(10)).with_mods(vec![Mod::new(
        ModTarget::Attack,
        1,
        BonusType::Competence,
    )]);
    guidance.one_shot = true;
    e.apply_effect(0, guidance, Some(0));
    assert_eq!(e.st.situation(0, 0, 1, Swing::default()).attack, 1);
    e.st.relocate(0, at(1, 2));
    e.strike(0, 0, 1, Swing::default());
    assert!(e.st.effects(0).is_empty());
    assert_eq!(e.st.situation(0, 0, 1, Swing::default()).attack, 0);
}

#[test]
fn saving_throws_keep_natural_one_and_twenty_and_read_descriptors() {
    let prep = trio();
    let mut b = Bench::new(&[1, 20, 12, 12, 12]);
    let mut e = b.engine(&prep, &SimOptions::default());
    let none = Context::default();
    assert!(!e.saving_throw(1, SaveKind::Fort, -50, &none).success);
    assert!(e.saving_throw(1, SaveKind::Fort, 90, &none).success);
    // +2 morale against fear only; shaken −2 on every save.
    let brave = Effect::new("brave", Duration::UntilRemoved).with_mods(vec![
        Mod::new(ModTarget::Saves, 2, BonusType::Morale).when(When::Descriptor(Descriptor::Fear)),
    ]);
    e.apply_effect(1, brave, None);
    e.set_condition(1, C::Shaken);
    let fear =
        Context { descriptors: Descriptors::of(&[Descriptor::Fear, Descriptor::MindAffecting]), ..none };
    assert_eq!(e.st.save_bonus(1, SaveKind::Will, &fear), 0);
    assert_eq!(e.st.save_bonus(1, SaveKind::Will, &none), -2);
    assert!(e.saving_throw(1, SaveKind::Will, 12, &fear).success);
    assert!(!e.saving_throw(1, SaveKind::Will, 12, &none).success);
    // Reflex follows a Dexterity penalty (entangled −4 Dex: 10 → 6, −2).
    e.set_condition(1, C::Entangled);
    assert_eq!(e.st.save_bonus(1, SaveKind::Ref, &none), 1 - 2 - 2);
    let r = e.saving_throw(1, SaveKind::Fort, 12, &none);
    assert_eq!((r.d20, r.total()), (12, 12));
    drop(e);
    assert!(
        b.lines().contains(&"round 1 target: will save d20=12+0=12 vs DC 12 -> saves".to_string()),
        "{:?}",
        b.lines()
    );
}

#[test]
fn bleed_hurts_at_the_start_of_each_turn_until_healed() {
    let prep = trio();
    let mut b = Bench::new(&[]);
    let mut e = b.engine(&prep, &SimOptions::default());
    e.start_bleeding(1, 2);
    e.start_bleeding(1, 1);
    assert!(e.st.has_condition(1, C::Bleeding));
    e.begin_turn(1);
    e.begin_turn(1);
    assert_eq!(e.st.hp(1), 26, "the worse bleed counts, every turn");
    assert_eq!(e.heal(1, 3), 3);
    assert!(!e.st.has_condition(1, C::Bleeding));
    e.begin_turn(1);
    assert_eq!(e.st.hp(1), 29);
}

#[test]
fn a_dying_creature_that_bleeds_fails_its_stabilization_without_a_roll() {
    let prep = trio();
    let mut b = Bench::new(&[]);
    let mut e = b.engine(&prep, &SimOptions::default());
    e.st.fighters[1].hp = -2;
    e.start_bleeding(1, 1);
    assert!(!e.begin_turn(1));
    assert_eq!(e.st.hp(1), -4, "bleed 1, then the failed check 1");
    assert_eq!(e.rng.consumed(), 0);
}

#[test]
fn a_bleed_component_sets_its_target_bleeding() {
    let knife = json!([{ "name": "serrated knife", "kind": "melee", "attack_bonus": 10,
        "damage": [{ "formula": "1d4", "types": ["slashing"] }, { "formula": "1d2", "types": ["bleed"] }] }]);
    let prep = prepare(
        arena(3, 6),
        vec![
            ("a", creature("Cutter", json!({ "attacks": knife })), at(1, 1)),
            ("b", creature("V", json!({ "hp_max": 20 })), at(1, 2)),
        ],
    );
    let mut b = Bench::new(&[12, 3, 2]);
    let mut e = b.engine(&prep, &SimOptions::default());
    e.strike(0, 0, 1, Swing::default());
    assert_eq!((e.st.hp(1), e.st.fighters[1].bleed), (17, 2));
}

#[test]
fn recurring_damage_is_rolled_each_turn_and_resisted() {
    let prep = prepare(
        arena(3, 6),
        vec![
            ("a", creature("Caster", json!({})), at(1, 1)),
            ("b", creature("Salamander", json!({ "hp_max": 30, "resistances": { "acid": 2 } })), at(1, 3)),
        ],
    );
    let mut b = Bench::new(&[4, 1]);
    let mut e = b.engine(&prep, &SimOptions::default());
    let mut arrow = Effect::new("acid arrow", Duration::Rounds(2));
    arrow.recurring =
        Some(Recurring { dice: DiceExpr::parse("2d4").unwrap(), energy: Some(0), nonlethal: false });
    e.apply_effect(1, arrow, Some(0));
    e.begin_turn(1);
    assert_eq!(e.st.hp(1), 27);
    drop(e);
    assert!(
        b.lines().contains(&"round 1 salamander: takes 3 from acid arrow".to_string()),
        "{:?}",
        b.lines()
    );
}

#[test]
fn an_effect_s_miss_chance_is_carried_by_the_instance() {
    let prep = trio();
    let mut b = Bench::new(&[]);
    let mut e = b.engine(&prep, &SimOptions::default());
    let mut images =
        Effect::new("mirror image", Duration::Rounds(5)).with_conditions(ConditionSet::of(C::Blurred));
    images.miss_chance = 75;
    e.apply_effect(1, images, Some(1));
    assert_eq!(e.st.miss_chance(0, 1, true), 75);
    e.remove_effects_named(1, "mirror image");
    assert_eq!(e.st.miss_chance(0, 1, true), 0);
}
