//! Class abilities rule by rule (channel energy, hexes, deeds, inspire
//! courage, spell combat, spellstrike, the arcane pool, the lich), and
//! full attacks with every natural attack.

use serde_json::json;

use super::support::*;
use crate::combat::SimOptions;
use crate::combat::action::{Action, ActionKind, ClassAbilityUse, Reason};
use crate::combat::odds::Swing;
use crate::effects::ConditionId as C;
use crate::feats::{Deed, Hex};

fn dummy(name: &str, hp: i32, extra: serde_json::Value) -> crate::model::Combatant {
    let mut base = json!({ "hp_max": hp, "saves": { "fort": 0, "ref": 0, "will": 0 }, "attacks": [] });
    if let (serde_json::Value::Object(b), serde_json::Value::Object(o)) = (&mut base, extra) {
        b.extend(o);
    }
    creature(name, base)
}

fn undead(name: &str, hp: i32) -> crate::model::Combatant {
    dummy(
        name,
        hp,
        json!({ "creature_type": "undead", "abilities": { "str_score": 10, "dex_score": 10, "con_score": null,
                "int_score": null, "wis_score": 10, "cha_score": 10 } }),
    )
}

fn cleric(features: serde_json::Value) -> crate::model::Combatant {
    dummy(
        "Cleric",
        30,
        json!({ "level": 5, "abilities": { "str_score": 10, "dex_score": 10, "con_score": 10, "int_score": 10,
                "wis_score": 16, "cha_score": 14 }, "features": features, "resources": { "channel_energy": 2 } }),
    )
}

#[test]
fn positive_channel_heals_every_living_creature_in_30_ft_and_harms_undead_with_a_will_save_for_half() {
    let prep = prepare(
        arena(4, 12),
        vec![
            ("a", cleric(json!(["Channel Energy"])), at(1, 1)),
            ("a", dummy("Ally", 30, json!({})), at(1, 3)),
            ("b", dummy("Foe", 30, json!({})), at(2, 4)),
            ("b", dummy("Far", 30, json!({})), at(1, 12)),
            ("b", undead("Zombie", 30), at(2, 2)),
        ],
    );
    // 3d6 (level 5) = 3 + 4 + 5.
    let mut b = Bench::new(&[3, 4, 5]);
    let mut e = b.engine(&prep, &SimOptions::default());
    for j in 0..4 {
        e.st.fighters[j].hp = 10;
    }
    turn(&mut e, 0, vec![Action::new(ActionKind::ChannelEnergy).with_option(0)]);
    assert_eq!((e.st.hp(0), e.st.hp(1), e.st.hp(2), e.st.hp(3), e.st.hp(4)), (22, 22, 22, 10, 30));
    assert_eq!(e.st.fighters[0].out.healing_given, 24, "the ally and the foe");
    assert_eq!(e.st.fighters[0].class.pools.channel_energy, 1);
    // Harm: undead only, Will DC 10 + 2 + 2 = 14, d20=15 saves for half.
    drop(e);
    let mut b2 = Bench::new(&[6, 6, 6, 15, 1, 1, 1, 1]);
    let mut e2 = b2.engine(&prep, &SimOptions::default());
    turn(&mut e2, 0, vec![Action::new(ActionKind::ChannelEnergy).with_option(1)]);
    assert_eq!(e2.st.hp(4), 30 - 9);
    turn(&mut e2, 0, vec![Action::new(ActionKind::ChannelEnergy).with_option(1)]);
    turn(&mut e2, 0, vec![Action::new(ActionKind::ChannelEnergy).with_option(1)]);
    assert_eq!(
        e2.st.last_results(0).iter().map(|r| r.reason).collect::<Vec<_>>(),
        [Some(Reason::NoAbility)],
        "two uses in the pool"
    );
}

#[test]
fn selective_channeling_leaves_out_up_to_charisma_modifier_foes() {
    let prep = prepare(
        arena(4, 12),
        vec![
            ("a", cleric(json!(["Channel Energy", "Selective Channeling"])), at(1, 1)),
            ("b", dummy("Foe", 30, json!({})), at(2, 4)),
            ("b", dummy("Foe", 30, json!({})), at(2, 5)),
            ("b", dummy("Foe", 30, json!({})), at(2, 6)),
        ],
    );
    let mut b = Bench::new(&[1, 1, 1]);
    let mut e = b.engine(&prep, &SimOptions::default());
    for j in 1..4 {
        e.st.fighters[j].hp = 10;
    }
    turn(&mut e, 0, vec![Action::new(ActionKind::ChannelEnergy).with_option(0)]);
    // Charisma 14: two foes left out, the third healed.
    assert_eq!((e.st.hp(1), e.st.hp(2), e.st.hp(3)), (10, 10, 13));
}

fn witch(hexes: &[&str]) -> crate::model::Combatant {
    let features: Vec<String> = hexes.iter().map(|h| format!("Hex ({h})")).collect();
    dummy(
        "Witch",
        20,
        json!({ "level": 4, "abilities": { "str_score": 10, "dex_score": 10, "con_score": 10, "int_score": 18,
                "wis_score": 10, "cha_score": 10 }, "features": features }),
    )
}

#[test]
fn evil_eye_lasts_three_plus_intelligence_rounds_or_one_on_a_save_and_cackle_extends_it() {
    let prep = prepare(
        arena(3, 10),
        vec![
            ("a", witch(&["Evil Eye", "Cackle"]), at(1, 1)),
            ("b", dummy("Foe", 20, json!({ "attacks": [melee("axe", 5, "1d8")] })), at(1, 5)),
        ],
    );
    let eye = Action::at(ActionKind::Hex, 1).with_ability(ClassAbilityUse::Hex(Hex::EvilEye));
    // Will d20=5 against DC 10 + 2 + 4 = 16: fails, 3 + 4 = 7 rounds of −2 on attack rolls.
    let mut b = Bench::new(&[5, 18]);
    let mut e = b.engine(&prep, &SimOptions::default());
    let before = e.st.situation(1, 0, 0, Swing::default()).attack;
    turn(&mut e, 0, vec![eye]);
    assert_eq!(e.st.situation(1, 0, 0, Swing::default()).attack, before - 2);
    assert_eq!(e.st.effects(1)[0].rounds_left, Some(7));
    turn(&mut e, 0, vec![Action::new(ActionKind::Hex).with_ability(ClassAbilityUse::Hex(Hex::Cackle))]);
    assert_eq!(e.st.effects(1)[0].rounds_left, Some(7), "one round counted down, one added");
    // A save: 1 round.
    turn(&mut e, 0, vec![eye]);
    assert_eq!(e.st.effects(1)[0].rounds_left, Some(1));
}

#[test]
fn slumber_puts_a_creature_to_sleep_until_it_is_wounded_and_never_twice() {
    let prep = prepare(
        arena(3, 10),
        vec![("a", witch(&["Slumber"]), at(1, 1)), ("b", dummy("Foe", 20, json!({})), at(1, 5))],
    );
    let slumber = Action::at(ActionKind::Hex, 1).with_ability(ClassAbilityUse::Hex(Hex::Slumber));
    let mut b = Bench::new(&[2]);
    let mut e = b.engine(&prep, &SimOptions::default());
    turn(&mut e, 0, vec![slumber]);
    assert!(e.st.has_condition(1, C::Asleep) && e.st.is_helpless(1));
    e.wound(1, 1);
    assert!(!e.st.has_condition(1, C::Asleep), "damage wakes it");
    turn(&mut e, 0, vec![slumber]);
    assert_eq!(e.st.last_results(0)[0].reason, Some(Reason::MissingTarget), "not the same creature twice");
}

#[test]
fn the_ward_hex_ends_when_its_bearer_is_hit() {
    let prep = prepare(
        arena(3, 10),
        vec![
            ("a", witch(&["Ward"]), at(1, 1)),
            ("a", dummy("Ally", 20, json!({})), at(1, 2)),
            ("b", dummy("Foe", 20, json!({ "attacks": [melee("axe", 5, "1d8")] })), at(1, 3)),
        ],
    );
    let mut b = Bench::new(&[19, 3]);
    let mut e = b.engine(&prep, &SimOptions::default());
    turn(&mut e, 0, vec![Action::at(ActionKind::Hex, 1).with_ability(ClassAbilityUse::Hex(Hex::Ward))]);
    assert_eq!(e.st.armor_class(2, 1, true, false, false, false, 0), 12);
    turn(&mut e, 2, vec![Action::at(ActionKind::Attack, 1)]);
    assert!(e.st.effects(1).is_empty(), "hit: the ward ends");
}

fn gunslinger(deeds: &[&str], grit: u32) -> crate::model::Combatant {
    let features: Vec<String> = deeds.iter().map(|d| format!("Deed ({d})")).collect();
    dummy(
        "Gunslinger",
        20,
        json!({ "level": 4, "features": features, "resources": { "grit": grit },
                "attacks": [{ "name": "pistol", "kind": "ranged", "attack_bonus": 8, "firearm": true,
                              "range_increment_ft": 20, "crit_mult": 4, "damage": [{ "formula": "1d8", "types": ["piercing"] }],
                              // Rapid Reload with cartridges: shots on consecutive turns.
                              "reload": "free" }] }),
    )
}

#[test]
fn up_close_and_deadly_adds_precision_dice_on_a_hit_and_grazes_on_a_miss() {
    let prep = prepare(
        arena(3, 10),
        vec![
            ("a", gunslinger(&["Up Close and Deadly"], 2), at(1, 1)),
            ("b", dummy("Foe", 50, json!({})), at(1, 4)),
        ],
    );
    let deed = Action::new(ActionKind::Deed).with_ability(ClassAbilityUse::Deed(Deed::UpCloseAndDeadly));
    // Hit (touch AC within the first increment): 1d8=5 + 1d6=4.
    let mut b = Bench::new(&[12, 5, 4, 1, 6]);
    let mut e = b.engine(&prep, &SimOptions::default());
    turn(&mut e, 0, vec![deed, Action::at(ActionKind::Attack, 1)]);
    assert_eq!(e.st.hp(1), 41);
    assert_eq!(e.st.fighters[0].class.pools.grit, 1);
    // A miss (a natural 1, which also misfires) grazes for half of 1d6 = 6.
    turn(&mut e, 0, vec![deed, Action::at(ActionKind::Attack, 1)]);
    assert_eq!(e.st.hp(1), 41 - 3);
}

#[test]
fn quick_clear_repairs_a_misfired_firearm() {
    let prep = prepare(
        arena(3, 10),
        vec![("a", gunslinger(&["Quick Clear"], 1), at(1, 1)), ("b", dummy("Foe", 50, json!({})), at(1, 4))],
    );
    let mut b = Bench::new(&[1]);
    let mut e = b.engine(&prep, &SimOptions::default());
    turn(&mut e, 0, vec![Action::at(ActionKind::Attack, 1)]);
    assert!(e.st.is_broken(0, 0), "a natural 1 misfires");
    turn(
        &mut e,
        0,
        vec![Action::new(ActionKind::Deed).with_ability(ClassAbilityUse::Deed(Deed::QuickClear))],
    );
    assert!(!e.st.is_broken(0, 0));
    assert_eq!(e.st.fighters[0].class.pools.grit, 0, "a move action spends its grit");
}

#[test]
fn inspire_courage_gives_allies_competence_on_attacks_and_morale_against_fear() {
    let bard = dummy(
        "Bard",
        20,
        json!({ "level": 5, "features": ["Bardic Performance", "Bardic Performance (Inspire Courage)"],
                "resources": { "bardic_rounds": 3 }, "attacks": [melee("rapier", 3, "1d6")] }),
    );
    let prep = prepare(
        arena(3, 10),
        vec![
            ("a", bard, at(1, 1)),
            ("a", dummy("Ally", 20, json!({ "attacks": [melee("sword", 3, "1d8")] })), at(1, 2)),
            ("b", dummy("Foe", 20, json!({})), at(1, 3)),
        ],
    );
    let mut b = Bench::new(&[]);
    let mut e = b.engine(&prep, &SimOptions::default());
    let before = e.st.situation(1, 0, 2, Swing::default()).attack;
    turn(&mut e, 0, vec![Action::new(ActionKind::InspireCourage)]);
    assert_eq!(e.st.situation(1, 0, 2, Swing::default()).attack, before + 2, "+2 at 5th level");
    let fear = crate::effects::Context {
        descriptors: crate::effects::Descriptors::of(&[crate::effects::Descriptor::Fear]),
        ..Default::default()
    };
    assert_eq!(e.st.save_bonus(1, crate::effects::SaveKind::Will, &fear), 2);
    assert_eq!(e.st.save_bonus(1, crate::effects::SaveKind::Will, &Default::default()), 0);
    // It goes on at the bard's turns while rounds last, then stops.
    turn(&mut e, 0, vec![]);
    turn(&mut e, 0, vec![]);
    assert_eq!(e.st.fighters[0].class.pools.bardic_rounds, 0);
    turn(&mut e, 0, vec![]);
    assert!(!e.st.fighters[0].class.performing);
}

fn magus() -> crate::model::Combatant {
    caster(
        "Magus",
        &["Shocking Grasp", "Magic Missile"],
        json!({ "level": 4, "bab": 3, "spell_list": "magus", "casting_ability": "int",
                "abilities": { "str_score": 14, "dex_score": 12, "con_score": 12, "int_score": 16, "wis_score": 10, "cha_score": 10 },
                "features": ["Spell Combat", "Spellstrike", "Arcane Pool"], "resources": { "arcane_pool": 3 },
                "attacks": [melee("longsword", 5, "1d8+2")] }),
    )
}

#[test]
fn spell_combat_casts_and_attacks_at_minus_two_and_spellstrike_delivers_a_touch_spell_through_the_blade() {
    let prep = prepare_magic(
        arena(3, 10),
        vec![
            ("a", magus(), at(1, 1)),
            (
                "b",
                dummy("Foe", 100, json!({ "ac": { "total": 15, "touch": 10, "flat_footed": 15 } })),
                at(1, 2),
            ),
        ],
    );
    let sg = prep.spell_index("Shocking Grasp").unwrap();
    let mut combat = Action::at(ActionKind::SpellCombat, 1);
    combat.spell = Some(sg);
    // Spellstrike: longsword d20=10 + 5 - 2 = 13 < 15 misses (the charge is held); the full
    // attack's swing d20=14 + 5 - 2 = 17 hits: 1d8+2 = 6, and the held 4d6 = 8.
    let mut b = Bench::new(&[10, 14, 4, 2, 2, 2, 2]);
    let mut e = b.engine(&prep, &SimOptions::default());
    turn(&mut e, 0, vec![combat]);
    assert_eq!(e.st.hp(1), 100 - 6 - 8);
    assert!(e.st.fighters[0].casting.held.is_none());
    assert_eq!(e.st.fighters[0].turn.attack_penalty, 0, "the −2 ends with the action");
}

#[test]
fn the_arcane_pool_enhances_the_blade_for_the_battle() {
    let prep = prepare_magic(
        arena(3, 10),
        vec![("a", magus(), at(1, 1)), ("b", dummy("Foe", 100, json!({})), at(1, 2))],
    );
    let mut b = Bench::new(&[]);
    let mut e = b.engine(&prep, &SimOptions::default());
    let before = e.st.situation(0, 0, 1, Swing::default()).attack;
    turn(&mut e, 0, vec![Action::new(ActionKind::ArcanePool)]);
    assert_eq!(e.st.situation(0, 0, 1, Swing::default()).attack, before + 1);
    assert_eq!(e.st.fighters[0].class.pools.arcane_pool, 2);
}

#[test]
fn arcane_accuracy_adds_the_intelligence_bonus_to_attack_rolls_until_the_end_of_the_turn_for_one_point() {
    let mut m = magus();
    m.features.push(crate::model::Feature::Name("Magus Arcana (Arcane Accuracy)".into()));
    let prep = prepare_magic(
        arena(3, 10),
        vec![
            ("a", m, at(1, 1)),
            (
                "b",
                dummy("Foe", 100, json!({ "ac": { "total": 17, "touch": 10, "flat_footed": 17 } })),
                at(1, 2),
            ),
        ],
    );
    assert_eq!(prep.fighters[0].abilities.as_deref().map(|a| a.arcane_accuracy), Some(3), "Int 16");
    // d20 = 10: 10 + 5 + 3 = 18 hits AC 17 (1d8 = 4, + 2); the next turn 10 + 5 = 15 misses.
    let mut b = Bench::new(&[10, 4, 10]);
    let mut e = b.engine(&prep, &SimOptions::default());
    turn(&mut e, 0, vec![Action::new(ActionKind::ArcaneAccuracy), Action::at(ActionKind::Attack, 1)]);
    assert_eq!((e.st.hp(1), e.st.fighters[0].class.pools.arcane_pool), (94, 2));
    assert!(e.st.fighters[0].effects.is_empty(), "it lapses at the end of the turn");
    turn(&mut e, 0, vec![Action::at(ActionKind::Attack, 1)]);
    assert_eq!(e.st.hp(1), 94);
    e.st.fighters[0].class.pools.arcane_pool = 0;
    turn(&mut e, 0, vec![Action::new(ActionKind::ArcaneAccuracy)]);
    assert_eq!(e.st.last_results(0)[0].reason, Some(Reason::NoAbility), "no point left");
    drop(e);
    let lines = b.lines();
    assert!(
        lines
            .iter()
            .any(|l| l
                .contains("magus: arcane accuracy: +3 insight on attack rolls this turn (arcane pool 2)")),
        "{lines:#?}"
    );
    assert!(lines.iter().any(|l| l.contains("d20=10+8=18")), "{lines:#?}");
}

#[test]
fn the_policy_enhances_the_blade_first_then_spends_arcane_accuracy_on_turns_it_fights_in_melee() {
    let mut m = magus();
    m.features.push(crate::model::Feature::Name("Magus Arcana (Arcane Accuracy)".into()));
    m.spells.clear();
    let prep =
        prepare_magic(arena(3, 12), vec![("a", m, at(1, 1)), ("b", dummy("Foe", 200, json!({})), at(1, 2))]);
    let mut b = Bench::new(&[1; 12]);
    let mut e = b.engine(&prep, &SimOptions::default());
    e.take_turn(0, &mut crate::combat::policy::DefaultPolicy);
    assert_eq!(e.st.fighters[0].class.pools.arcane_pool, 2, "the enhancement on the first turn");
    e.start_round();
    e.take_turn(0, &mut crate::combat::policy::DefaultPolicy);
    assert_eq!(e.st.fighters[0].class.pools.arcane_pool, 1, "accuracy on the second");
    drop(e);
    let lines = b.lines();
    assert!(lines.iter().any(|l| l.contains("magus: arcane accuracy: +3")), "{lines:#?}");
}

#[test]
fn the_lich_s_aura_frightens_the_weak_and_shakes_the_rest_once_a_battle() {
    let lich = data_combatant("data/monsters/lich.json");
    let prep = prepare_magic(
        arena(4, 16),
        vec![
            ("b", lich, at(1, 1)),
            ("a", dummy("Weak", 20, json!({ "level": 2 })), at(1, 8)),
            ("a", dummy("Strong", 20, json!({ "level": 6 })), at(2, 8)),
        ],
    );
    // DC 10 + 5 + 3 = 18: both fail.
    let mut b = Bench::new(&[3, 4]);
    let mut e = b.engine(&prep, &SimOptions::default());
    turn(&mut e, 0, vec![]);
    assert!(e.st.has_condition(1, C::Frightened));
    assert!(e.st.has_condition(2, C::Shaken) && !e.st.has_condition(2, C::Frightened));
    turn(&mut e, 0, vec![]);
    assert_eq!(e.rng.consumed(), 2, "once a battle");
}

#[test]
fn the_lich_s_touch_paralyzes_a_living_creature_that_fails_its_fortitude_save() {
    let lich = data_combatant("data/monsters/lich.json");
    let prep = prepare_magic(
        arena(3, 10),
        vec![("b", lich, at(1, 1)), ("a", dummy("Victim", 60, json!({ "level": 6 })), at(1, 2))],
    );
    // Aura (Will d20=20 saves), touch d20=15 hits, 1d8+5 = 8, Fortitude d20=2 fails.
    let mut b = Bench::new(&[20, 15, 3, 2]);
    let mut e = b.engine(&prep, &SimOptions::default());
    turn(&mut e, 0, vec![Action::at(ActionKind::Attack, 1)]);
    assert!(e.st.has_condition(1, C::Paralyzed));
}

#[test]
fn a_full_attack_makes_every_natural_attack_and_a_routine_joins_weapon_and_natural_attacks() {
    let beast = dummy(
        "Beast",
        30,
        json!({ "attacks": [
            { "name": "claw", "kind": "melee", "attack_bonus": 5, "natural": true, "count": 2, "damage": [{ "formula": "1d4", "types": ["slashing"] }] },
            { "name": "bite", "kind": "melee", "attack_bonus": 5, "natural": true, "damage": [{ "formula": "1d6", "types": ["piercing"] }] }
        ] }),
    );
    let prep =
        prepare(arena(3, 10), vec![("a", beast, at(1, 1)), ("b", dummy("Foe", 100, json!({})), at(1, 2))]);
    let mut b = Bench::new(&[15, 1, 15, 2, 15, 3]);
    let mut e = b.engine(&prep, &SimOptions::default());
    turn(&mut e, 0, vec![Action::at(ActionKind::FullAttack, 1)]);
    assert_eq!(e.st.hp(1), 100 - 1 - 2 - 3, "two claws and the bite");
    assert_eq!(e.st.fighters[0].out.hits, 3);
    let minotaur = data_combatant("data/monsters/minotaur.json");
    let prep =
        prepare(arena(4, 10), vec![("a", minotaur, at(1, 1)), ("b", dummy("Foe", 200, json!({})), at(1, 3))]);
    let mut b = Bench::new(&[15, 1, 1, 1, 15, 1, 1, 1, 15, 1]);
    let mut e = b.engine(&prep, &SimOptions::default());
    turn(&mut e, 0, vec![Action::at(ActionKind::FullAttack, 1)]);
    assert_eq!(e.st.fighters[0].out.hits, 3, "greataxe twice and the gore");
}

#[test]
fn sun_s_blessing_adds_the_cleric_level_to_positive_energy_harming_undead_and_ignores_channel_resistance() {
    // A channel-resistant zombie (+4 on Will against channels): Will +0 against DC 14.
    let mut zombie = undead("Zombie", 60);
    zombie.features = vec![crate::model::Feature::Name("channel resistance".into())];
    zombie.special_abilities = serde_json::from_value(
        json!([{ "kind": "channel_resistance", "name": "channel resistance", "bonus": 4 }]),
    )
    .unwrap();
    let play = |features: serde_json::Value, faces: &[u32]| {
        let prep = prepare(
            arena(4, 12),
            vec![
                ("a", cleric(features), at(1, 1)),
                ("b", zombie.clone(), at(1, 3)),
                ("b", dummy("Foe", 30, json!({})), at(2, 2)),
            ],
        );
        let mut b = Bench::new(faces);
        let mut e = b.engine(&prep, &SimOptions::default());
        turn(&mut e, 0, vec![Action::new(ActionKind::ChannelEnergy).with_option(1)]);
        (e.st.hp(1), e.st.hp(2))
    };
    // 3d6 = 12; d20 = 12: 12 + 0 fails DC 14 with Sun's Blessing (no channel
    // resistance): 12 + level 5 = 17. Without it, 12 + 4 = 16 saves: half of 12.
    assert_eq!(play(json!(["Channel Energy", "Sun's Blessing"]), &[3, 4, 5, 12]), (60 - 17, 30));
    assert_eq!(play(json!(["Channel Energy"]), &[3, 4, 5, 12]), (60 - 6, 30));
    // A save halves the whole: d20 = 14 saves, (12 + 5) / 2 = 8. The living foe is not harmed.
    assert_eq!(play(json!(["Channel Energy", "Sun's Blessing"]), &[3, 4, 5, 14]), (60 - 8, 30));
}
