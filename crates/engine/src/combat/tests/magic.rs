//! The spell engine rule by rule: slots, DCs, spell resistance, saves,
//! harmless spells, cure against undead, energy resistance, provocation and
//! concentration, cast times, metamagic, touch and ray attacks, areas and
//! cover, summons, buffs through the stacking rule, healing.

use serde_json::json;

use super::support::*;
use crate::combat::SimOptions;
use crate::combat::action::{Action, ActionKind, Reason};
use crate::combat::odds::Swing;
use crate::combat::spells::Metamagic;
use crate::effects::ConditionId as C;

fn dummy(name: &str, hp: i32, extra: serde_json::Value) -> crate::model::Combatant {
    let mut base = json!({ "hp_max": hp, "saves": { "fort": 0, "ref": 0, "will": 0 }, "attacks": [] });
    if let (serde_json::Value::Object(b), serde_json::Value::Object(o)) = (&mut base, extra) {
        b.extend(o);
    }
    creature(name, base)
}

fn results(
    e: &crate::combat::engine::Engine<'_, '_, crate::rng::ScriptedRng>,
    i: usize,
) -> Vec<(ActionKind, Option<Reason>)> {
    e.st.last_results(i).iter().map(|r| (r.kind, r.reason)).collect()
}

#[test]
fn casting_spends_a_slot_cantrips_are_free_and_an_empty_slot_costs_no_die() {
    let wizard = caster(
        "Wizard",
        &["Magic Missile", "Ray of Frost"],
        json!({ "spell_slots": { "1": 1 }, "spell_list": "wizard" }),
    );
    let prep = prepare_magic(
        arena(3, 8),
        vec![("a", wizard, at(1, 1)), ("b", dummy("Dummy", 100, json!({})), at(1, 6))],
    );
    let mm = prep.spell_index("Magic Missile").unwrap();
    let rof = prep.spell_index("ray of frost").unwrap();
    // Magic Missile at CL 5: 3 missiles of 1d4+1.
    let mut b = Bench::new(&[4, 4, 4]);
    let mut e = b.engine(&prep, &SimOptions::default());
    turn(&mut e, 0, vec![Action::cast(mm, Some(1))]);
    assert_eq!(e.st.hp(1), 100 - 15);
    assert_eq!(e.st.fighters[0].casting.slots[1], 0);
    let consumed = e.rng.consumed();
    turn(&mut e, 0, vec![Action::cast(mm, Some(1))]);
    assert_eq!(results(&e, 0), [(ActionKind::CastSpell, Some(Reason::NoSlot))]);
    assert_eq!(e.rng.consumed(), consumed, "a refused cast rolls nothing");
    drop(e);
    // A cantrip needs no slot: ray of frost, ranged touch d20=15, 1d3 cold.
    let mut b = Bench::new(&[4, 4, 4, 15, 3]);
    let mut e = b.engine(&prep, &SimOptions::default());
    turn(&mut e, 0, vec![Action::cast(mm, Some(1))]);
    turn(&mut e, 0, vec![Action::cast(rof, Some(1))]);
    assert_eq!(e.st.hp(1), 100 - 15 - 3);
    assert_eq!(e.st.fighters[0].casting.slots[0], 0, "level 0 is never spent");
}

#[test]
fn the_save_dc_is_ten_plus_spell_level_plus_the_casting_modifier() {
    let cleric = caster("Cleric", &["Hold Person"], json!({ "spell_list": "cleric" }));
    let prep = prepare_magic(
        arena(3, 8),
        vec![
            ("a", cleric, at(1, 1)),
            ("b", dummy("Orc", 20, json!({ "creature_type": "humanoid" })), at(1, 4)),
        ],
    );
    let hold = prep.spell_index("Hold Person").unwrap();
    // Will save d20=12 + 0 against DC 10 + 2 + 3 = 15: fails.
    let mut b = Bench::new(&[12]);
    let mut e = b.engine(&prep, &SimOptions::default());
    turn(&mut e, 0, vec![Action::cast(hold, Some(1))]);
    assert!(e.st.has_condition(1, C::Paralyzed));
    drop(e);
    assert!(b.lines().iter().any(|l| l.contains("vs DC 15 -> fails")));
    // Heighten raises the DC with the slot.
    let cleric = caster(
        "Cleric",
        &["Hold Person"],
        json!({ "spell_list": "cleric", "metamagic_feats": ["Heighten Spell"] }),
    );
    let prep = prepare_magic(
        arena(3, 8),
        vec![
            ("a", cleric, at(1, 1)),
            ("b", dummy("Orc", 20, json!({ "creature_type": "humanoid" })), at(1, 4)),
        ],
    );
    let mut b = Bench::new(&[15]);
    let mut e = b.engine(&prep, &SimOptions::default());
    turn(&mut e, 0, vec![Action::cast(hold, Some(1)).with_metamagic(Metamagic::HEIGHTEN)]);
    assert!(e.st.has_condition(1, C::Paralyzed), "15 fails against DC 16");
    assert_eq!(e.st.fighters[0].casting.slots[3], 4, "a heightened 2nd-level spell takes a 3rd-level slot");
}

#[test]
fn spell_resistance_is_checked_per_creature_with_caster_level() {
    let wizard = caster("Wizard", &["Magic Missile"], json!({ "spell_list": "wizard" }));
    let golem_like = dummy("Warded", 50, json!({ "spell_resistance": 20 }));
    let prep = prepare_magic(arena(3, 8), vec![("a", wizard, at(1, 1)), ("b", golem_like, at(1, 5))]);
    let mm = prep.spell_index("Magic Missile").unwrap();
    // d20=14 + CL 5 = 19 < 20: resisted, no damage die rolled.
    let mut b = Bench::new(&[14]);
    let mut e = b.engine(&prep, &SimOptions::default());
    turn(&mut e, 0, vec![Action::cast(mm, Some(1))]);
    assert_eq!(e.st.hp(1), 50);
    drop(e);
    assert!(b.lines().iter().any(|l| l.contains("RESISTED")));
    // d20=15: overcome.
    let mut b = Bench::new(&[15, 1, 1, 1]);
    let mut e = b.engine(&prep, &SimOptions::default());
    turn(&mut e, 0, vec![Action::cast(mm, Some(1))]);
    assert_eq!(e.st.hp(1), 50 - 6);
}

#[test]
fn a_willing_ally_forgoes_the_save_and_cure_harms_undead_with_a_will_save_for_half() {
    let cleric = caster("Cleric", &["Cure Light Wounds"], json!({ "spell_list": "cleric" }));
    let ally = dummy("Ally", 30, json!({}));
    let zombie = dummy(
        "Zombie",
        30,
        json!({ "creature_type": "undead", "abilities": { "str_score": 10, "dex_score": 10, "con_score": null, "int_score": null, "wis_score": 10, "cha_score": 10 } }),
    );
    let prep = prepare_magic(
        arena(3, 8),
        vec![("a", cleric, at(1, 1)), ("a", ally, at(1, 2)), ("b", zombie, at(2, 1))],
    );
    let clw = prep.spell_index("Cure Light Wounds").unwrap();
    // On the ally: 1d8 + 5, no save, no attack roll.
    let mut b = Bench::new(&[6]);
    let mut e = b.engine(&prep, &SimOptions::default());
    e.st.fighters[1].hp = 5;
    turn(&mut e, 0, vec![Action::cast(clw, Some(1))]);
    assert_eq!(e.st.hp(1), 16);
    assert_eq!(e.rng.consumed(), 1);
    assert_eq!(e.st.fighters[0].out.healing_given, 11);
    drop(e);
    // On the zombie: melee touch d20=15 (hits touch AC 10), Will d20=20 saves: half of 1d8+5.
    let mut b = Bench::new(&[15, 20, 7]);
    let mut e = b.engine(&prep, &SimOptions::default());
    turn(&mut e, 0, vec![Action::cast(clw, Some(2))]);
    assert_eq!(e.st.hp(2), 30 - 6);
}

#[test]
fn energy_resistance_applies_per_type_and_damage_reduction_never_to_spells() {
    let wizard = caster("Wizard", &["Burning Hands", "Magic Missile"], json!({ "spell_list": "wizard" }));
    let tough =
        dummy("Tough", 100, json!({ "resistances": { "fire": 5 }, "dr": { "amount": 10, "bypass": [] } }));
    let prep = prepare_magic(arena(3, 8), vec![("a", wizard, at(1, 1)), ("b", tough, at(1, 2))]);
    let bh = prep.spell_index("Burning Hands").unwrap();
    let mm = prep.spell_index("Magic Missile").unwrap();
    // Reflex d20=2 fails; Burning Hands 5d4 = 12 fire: 12 - 5.
    let mut b = Bench::new(&[2, 3, 3, 2, 2, 2]);
    let mut e = b.engine(&prep, &SimOptions::default());
    let mut cone = Action::cast(bh, None);
    cone.destination = Some(at(1, 2));
    turn(&mut e, 0, vec![cone]);
    assert_eq!(e.st.hp(1), 100 - 7);
    drop(e);
    // Force damage ignores the DR 10.
    let mut b = Bench::new(&[4, 4, 4]);
    let mut e = b.engine(&prep, &SimOptions::default());
    turn(&mut e, 0, vec![Action::cast(mm, Some(1))]);
    assert_eq!(e.st.hp(1), 100 - 15);
}

#[test]
fn energy_vulnerability_adds_half_of_a_spells_damage_after_the_save() {
    let wizard = caster("Wizard", &["Burning Hands"], json!({ "spell_list": "wizard" }));
    let frosty = dummy(
        "Frosty",
        100,
        json!({
            "features": [{ "name": "vulnerability to fire", "category": "special" }],
            "special_abilities": [{ "kind": "vulnerability", "name": "vulnerability to fire", "types": ["fire"] }]
        }),
    );
    let prep = prepare_magic(arena(3, 8), vec![("a", wizard, at(1, 1)), ("b", frosty, at(1, 2))]);
    let bh = prep.spell_index("Burning Hands").unwrap();
    let cone = || {
        let mut a = Action::cast(bh, None);
        a.destination = Some(at(1, 2));
        a
    };
    // Reflex d20=2 fails; Burning Hands 5d4 = 12 fire, +50 %: 18.
    let mut b = Bench::new(&[2, 3, 3, 2, 2, 2]);
    let mut e = b.engine(&prep, &SimOptions::default());
    turn(&mut e, 0, vec![cone()]);
    assert_eq!(e.st.hp(1), 100 - 18);
    drop(e);
    // Reflex d20=20 saves: half of 13 = 6, +50 %: 9 ("regardless of whether
    // a saving throw is allowed or if the save is a success or failure").
    let mut b = Bench::new(&[20, 3, 3, 3, 2, 2]);
    let mut e = b.engine(&prep, &SimOptions::default());
    turn(&mut e, 0, vec![cone()]);
    assert_eq!(e.st.hp(1), 100 - 9);
}

#[test]
fn casting_in_a_threatened_square_provokes_unless_cast_defensively() {
    let wizard = caster("Wizard", &["Magic Missile"], json!({ "spell_list": "wizard", "hp_max": 40 }));
    let brute = dummy("Brute", 30, json!({ "attacks": [melee("club", 10, "1d6")] }));
    let prep = prepare_magic(arena(3, 8), vec![("a", wizard, at(1, 1)), ("b", brute, at(1, 2))]);
    let mm = prep.spell_index("Magic Missile").unwrap();
    // AoO: d20=15 hits AC 10 for 1d6=4; concentration DC 10 + 4 + 1 = 15, d20=3 + 5 + 3 = 11: lost.
    let mut b = Bench::new(&[15, 4, 3]);
    let mut e = b.engine(&prep, &SimOptions::default());
    turn(&mut e, 0, vec![Action::cast(mm, Some(1))]);
    assert_eq!(e.st.hp(1), 30, "the spell was lost");
    assert_eq!(e.st.hp(0), 36);
    drop(e);
    assert!(b.lines().iter().any(|l| l.contains("Magic Missile is lost")));
    // Defensively: no attack of opportunity, DC 15 + 2 = 17, d20=10 + 8 = 18 succeeds.
    let mut b = Bench::new(&[10, 1, 1, 1]);
    let mut e = b.engine(&prep, &SimOptions::default());
    turn(&mut e, 0, vec![Action::cast(mm, Some(1)).defensively()]);
    assert_eq!(e.st.hp(0), 40);
    assert_eq!(e.st.hp(1), 24);
}

#[test]
fn a_one_round_spell_takes_effect_at_the_start_of_the_next_turn_and_damage_can_spoil_it() {
    let cleric = caster("Cleric", &["Sleep"], json!({ "spell_list": "wizard" }));
    let sleeper = dummy("Sleeper", 10, json!({ "level": 1 }));
    let prep = prepare_magic(arena(3, 8), vec![("a", cleric, at(1, 1)), ("b", sleeper, at(1, 6))]);
    let sleep = prep.spell_index("Sleep").unwrap();
    let mut b = Bench::new(&[5, 1]);
    let mut e = b.engine(&prep, &SimOptions::default());
    turn(&mut e, 0, vec![Action::cast(sleep, Some(1))]);
    assert!(!e.st.has_condition(1, C::Asleep), "not yet");
    assert!(e.st.fighters[0].casting.pending.is_some());
    turn(&mut e, 0, vec![]);
    assert!(e.st.has_condition(1, C::Asleep));
    drop(e);
    // Wounded in between: concentration DC 10 + 6 + 1 = 17, d20=2 + 8 = 10: fizzles.
    let mut b = Bench::new(&[2]);
    let mut e = b.engine(&prep, &SimOptions::default());
    turn(&mut e, 0, vec![Action::cast(sleep, Some(1))]);
    e.wound(0, 6);
    turn(&mut e, 0, vec![]);
    assert!(!e.st.has_condition(1, C::Asleep));
    drop(e);
    assert!(b.lines().iter().any(|l| l.contains("Sleep fizzles")));
}

#[test]
fn long_cast_times_are_refused_before_the_budget() {
    let cleric = caster("Cleric", &["Lesser Restoration"], json!({ "spell_list": "cleric" }));
    let prep =
        prepare_magic(arena(3, 8), vec![("a", cleric, at(1, 1)), ("b", dummy("X", 10, json!({})), at(1, 6))]);
    let lr = prep.spell_index("Restoration, Lesser").unwrap();
    let mut b = Bench::new(&[]);
    let mut e = b.engine(&prep, &SimOptions::default());
    turn(&mut e, 0, vec![Action::cast(lr, Some(0))]);
    assert_eq!(results(&e, 0), [(ActionKind::CastSpell, Some(Reason::SpellNotPlayable))]);
}

#[test]
fn maximize_empower_and_extend_change_numbers_and_slots() {
    let wizard = caster(
        "Wizard",
        &["Magic Missile", "Mage Armor"],
        json!({ "spell_list": "wizard", "metamagic_feats": ["Maximize Spell", "Empower Spell", "Extend Spell", "Quicken Spell"] }),
    );
    let prep = prepare_magic(
        arena(3, 8),
        vec![("a", wizard, at(1, 1)), ("b", dummy("Dummy", 100, json!({})), at(1, 6))],
    );
    let mm = prep.spell_index("Magic Missile").unwrap();
    // Maximize rolls no die.
    let mut b = Bench::new(&[2, 2, 2]);
    let mut e = b.engine(&prep, &SimOptions::default());
    turn(&mut e, 0, vec![Action::cast(mm, Some(1)).with_metamagic(Metamagic::MAXIMIZE)]);
    assert_eq!(e.st.hp(1), 100 - 15, "each missile at 5");
    assert_eq!(e.st.fighters[0].casting.slots[4], 4, "maximize: +3 levels");
    turn(&mut e, 0, vec![Action::cast(mm, Some(1)).with_metamagic(Metamagic::EMPOWER)]);
    assert_eq!(e.st.hp(1), 85 - 3 * (3 * 3 / 2), "each missile 1d4+1 = 3, ×1.5");
    assert_eq!(e.st.fighters[0].casting.slots[3], 4);
    // Quicken: a swift action, so a second spell fits the turn.
    let plan = vec![Action::cast(mm, Some(1)).with_metamagic(Metamagic::QUICKEN), Action::cast(mm, Some(1))];
    let mut b = Bench::new(&[1, 1, 1, 1, 1, 1]);
    let mut e = b.engine(&prep, &SimOptions::default());
    turn(&mut e, 0, plan);
    assert_eq!(e.st.hp(1), 100 - 12);
    assert_eq!(e.st.fighters[0].casting.slots[5], 4);
    // Extend doubles a duration in rounds.
    drop(e);
    let armor = prep.spell_index("Mage Armor").unwrap();
    let mut b = Bench::new(&[]);
    let mut e = b.engine(&prep, &SimOptions::default());
    turn(&mut e, 0, vec![Action::cast(armor, Some(0)).with_metamagic(Metamagic::EXTEND)]);
    assert!(e.st.effects(0).iter().any(|x| x.effect.spell == Some(armor)));
}

#[test]
fn a_missed_touch_holds_the_charge_and_a_later_touch_delivers_it() {
    let wizard = caster("Wizard", &["Shocking Grasp"], json!({ "spell_list": "wizard" }));
    let foe = dummy("Foe", 100, json!({ "ac": { "total": 15, "touch": 15, "flat_footed": 15 } }));
    let prep = prepare_magic(arena(3, 8), vec![("a", wizard, at(1, 1)), ("b", foe, at(1, 2))]);
    let sg = prep.spell_index("Shocking Grasp").unwrap();
    // Touch: +3 BAB, d20=5 misses touch AC 15; the next turn d20=14 hits.
    let mut b = Bench::new(&[5, 14, 1, 1, 1, 1, 1]);
    let mut e = b.engine(&prep, &SimOptions::default());
    turn(&mut e, 0, vec![Action::cast(sg, Some(1))]);
    assert!(e.st.fighters[0].casting.held.is_some());
    assert_eq!(e.st.hp(1), 100);
    turn(&mut e, 0, vec![Action::at(ActionKind::DischargeSpell, 1)]);
    assert!(e.st.fighters[0].casting.held.is_none());
    assert_eq!(e.st.hp(1), 95, "5d6 of ones");
}

#[test]
fn a_ray_that_confirms_a_critical_hit_doubles_its_damage() {
    let wizard = caster("Wizard", &["Ray of Frost"], json!({ "spell_list": "wizard" }));
    let prep = prepare_magic(
        arena(3, 8),
        vec![("a", wizard, at(1, 1)), ("b", dummy("Dummy", 100, json!({})), at(1, 6))],
    );
    let rof = prep.spell_index("Ray of Frost").unwrap();
    let mut b = Bench::new(&[20, 15, 3]);
    let mut e = b.engine(&prep, &SimOptions::default());
    turn(&mut e, 0, vec![Action::cast(rof, Some(1))]);
    assert_eq!(e.st.hp(1), 94);
    assert_eq!(e.st.fighters[0].out.crits, 1);
}

#[test]
fn a_burst_catches_every_creature_in_its_radius_and_cover_helps_the_reflex_save() {
    let rows = [
        "################",
        "#..............#",
        "#..............#",
        "#.......W......#",
        "#..............#",
        "################",
    ];
    let wizard = caster("Wizard", &["Fireball"], json!({ "spell_list": "wizard" }));
    let prep = prepare_magic(
        map(&rows),
        vec![
            ("a", wizard, at(1, 1)),
            ("b", dummy("Near", 100, json!({ "saves": { "fort": 0, "ref": 10, "will": 0 } })), at(2, 10)),
            ("b", dummy("Behind", 100, json!({ "saves": { "fort": 0, "ref": 10, "will": 0 } })), at(4, 8)),
            ("b", dummy("Far", 100, json!({})), at(1, 14)),
        ],
    );
    let fb = prep.spell_index("Fireball").unwrap();
    let mut cast = Action::cast(fb, None);
    cast.destination = Some(at(2, 8));
    // One roll for everyone, 5d6 of 3 = 15, DC 16. Near: Reflex 7 + 10 = 17 saves (7).
    // Behind the low ruin (cover +2 AC, so +1 on Reflex): 5 + 10 + 1 = 16 saves.
    let mut b = Bench::new(&[7, 3, 3, 3, 3, 3, 5]);
    let mut e = b.engine(&prep, &SimOptions::default());
    turn(&mut e, 0, vec![cast]);
    assert_eq!(e.st.hp(1), 100 - 7);
    assert_eq!(e.st.hp(3), 100, "outside the 20-ft radius");
    assert_eq!(e.st.hp(2), 100 - 7, "the ruin's cover made the save");
}

#[test]
fn a_partial_save_leaves_the_lesser_effect() {
    let cleric = caster("Cleric", &["Cause Fear"], json!({ "spell_list": "cleric" }));
    let prep = prepare_magic(
        arena(3, 8),
        vec![("a", cleric, at(1, 1)), ("b", dummy("Goblin", 10, json!({ "level": 1 })), at(1, 4))],
    );
    let cf = prep.spell_index("Cause Fear").unwrap();
    // Will d20=19 saves: shaken for 1 round instead of frightened.
    let mut b = Bench::new(&[19]);
    let mut e = b.engine(&prep, &SimOptions::default());
    turn(&mut e, 0, vec![Action::cast(cf, Some(1))]);
    assert!(e.st.has_condition(1, C::Shaken));
    assert!(!e.st.has_condition(1, C::Frightened));
}

#[test]
fn buffs_stack_by_the_shared_rule_bless_and_inspire_courage_add_and_two_morale_bonuses_do_not() {
    let cleric = caster("Cleric", &["Bless", "Heroism"], json!({}));
    let prep = prepare_magic(
        arena(3, 8),
        vec![("a", cleric, at(1, 1)), ("b", dummy("Dummy", 100, json!({})), at(1, 6))],
    );
    let bless = prep.spell_index("Bless").unwrap();
    let mut b = Bench::new(&[]);
    let mut e = b.engine(&prep, &SimOptions::default());
    let base = e.st.situation(0, 0, 1, Swing::default()).attack;
    e.execute_for_test(0, Action::cast(bless, None));
    assert_eq!(e.st.situation(0, 0, 1, Swing::default()).attack, base + 1);
    let heroism = prep.spell_index("Heroism").unwrap();
    e.execute_for_test(0, Action::cast(heroism, Some(0)));
    // Heroism's +2 morale replaces Bless's +1 morale.
    assert_eq!(e.st.situation(0, 0, 1, Swing::default()).attack, base + 2);
}

#[test]
fn healing_stops_bleeding_and_counts_as_healing_given() {
    let cleric = caster("Cleric", &["Cure Light Wounds"], json!({ "spell_list": "cleric" }));
    let prep = prepare_magic(
        arena(3, 8),
        vec![("a", cleric, at(1, 1)), ("a", dummy("Ally", 20, json!({})), at(1, 2))],
    );
    let clw = prep.spell_index("Cure Light Wounds").unwrap();
    let mut b = Bench::new(&[8]);
    let mut e = b.engine(&prep, &SimOptions::default());
    e.st.fighters[1].hp = 15;
    e.start_bleeding(1, 2);
    turn(&mut e, 0, vec![Action::cast(clw, Some(1))]);
    assert_eq!(e.st.hp(1), 20);
    assert_eq!(e.st.fighters[0].out.healing_given, 5, "capped at the maximum");
    assert!(!e.st.has_condition(1, C::Bleeding));
}

#[test]
fn false_life_gives_temporary_hit_points() {
    let wizard = caster("Wizard", &["False Life"], json!({ "spell_list": "wizard" }));
    let prep = prepare_magic(
        arena(3, 8),
        vec![("a", wizard, at(1, 1)), ("b", dummy("Dummy", 10, json!({})), at(1, 6))],
    );
    let fl = prep.spell_index("False Life").unwrap();
    let mut b = Bench::new(&[6]);
    let mut e = b.engine(&prep, &SimOptions::default());
    turn(&mut e, 0, vec![Action::cast(fl, None)]);
    assert_eq!(e.st.temp_hp(0), 11, "1d10 + CL 5");
}

#[test]
fn summoned_creatures_arrive_on_the_caster_s_turn_with_their_own_rows_and_leave_when_the_spell_ends() {
    let cleric = caster(
        "Cleric",
        &["Summon Monster I"],
        json!({ "spell_list": "cleric", "alignment": "NG", "level": 1 }),
    );
    let enc =
        encounter(arena(6, 10), vec![("a", cleric, at(1, 1)), ("b", dummy("Foe", 200, json!({})), at(4, 9))])
            .with_library(library());
    let prep = crate::combat::PreparedEncounter::new(&enc).unwrap();
    assert_eq!(prep.deployed(), 2);
    let roster = crate::combat::summon_roster(&enc);
    assert_eq!(roster.len(), 1);
    assert!(roster[0].id.starts_with("celestial_"), "{roster:?}");
    let sm = prep.spell_index("Summon Monster I").unwrap();
    let mut rng = crate::rng::SeededRng::for_run(3, 0);
    let mut events = Vec::new();
    let mut e =
        crate::combat::engine::Engine::new(&prep, &SimOptions::default(), &mut rng, Some(&mut events));
    e.roll_initiative();
    e.start_round();
    turn_any(&mut e, 0, vec![Action::cast(sm, Some(1))]);
    assert!(e.st.fighters[2].gone, "one round to cast");
    turn_any(&mut e, 0, vec![]);
    if e.st.fighters[2].gone {
        drop(e);
        panic!("not summoned: {:?}", super::support::english(&prep, &events));
    }
    assert!(e.st.is_active(2));
    assert_eq!(e.st.fighters[2].summon_left, 1, "1 round per level");
    turn_any(&mut e, 0, vec![]);
    assert!(e.st.fighters[2].gone, "the spell ended");
    drop(e);
    let lines = super::support::english(&prep, &events);
    assert!(lines.iter().any(|l| l.contains("is summoned")), "{lines:?}");
    // A whole battle reports the reserved row.
    let o = crate::runner::run_one(&enc, &SimOptions::default(), 1, 0);
    assert_eq!((o.combatants.len(), o.summons.len()), (2, 1));
}

fn turn_any<R: crate::rng::Dice>(
    e: &mut crate::combat::engine::Engine<'_, '_, R>,
    i: usize,
    actions: Vec<Action>,
) {
    e.take_turn(i, &mut script(actions));
}

#[test]
fn a_creature_under_shield_is_immune_to_magic_missile() {
    let wizard = caster("Wizard", &["Magic Missile", "Shield"], json!({ "spell_list": "wizard" }));
    let prep = prepare_magic(arena(3, 8), vec![("a", wizard.clone(), at(1, 1)), ("b", wizard, at(1, 6))]);
    let mm = prep.spell_index("Magic Missile").unwrap();
    let shield = prep.spell_index("Shield").unwrap();
    let mut b = Bench::new(&[]);
    let mut e = b.engine(&prep, &SimOptions::default());
    turn(&mut e, 1, vec![Action::cast(shield, None)]);
    turn(&mut e, 0, vec![Action::cast(mm, Some(1))]);
    assert_eq!(e.st.hp(1), e.st.hp_max(1));
}

#[test]
fn an_unknown_spell_in_a_combatant_file_is_a_data_error_naming_its_place() {
    let wizard = caster("Wizard", &["Magic Missile", "Fire Bal"], json!({}));
    let enc =
        encounter(arena(3, 8), vec![("a", wizard, at(1, 1)), ("b", dummy("X", 10, json!({})), at(1, 6))])
            .with_library(library());
    let err = crate::combat::PreparedEncounter::new(&enc).unwrap_err();
    assert_eq!(
        err.to_string(),
        "$.spells[1]: unknown spell \"Fire Bal\": the spell directory has 173 spells, none named so"
    );
}

#[test]
fn every_spell_the_engine_refuses_is_refused_without_spending_anything() {
    let lib = library();
    let names: Vec<String> = lib.spells.iter().map(|(_, s)| s.name.clone()).collect();
    let refs: Vec<&str> = names.iter().map(String::as_str).collect();
    let wizard = caster(
        "Wizard",
        &refs,
        json!({ "spell_slots": { "1": 9, "2": 9, "3": 9, "4": 9, "5": 9, "6": 9, "7": 9, "8": 9, "9": 9 } }),
    );
    let prep =
        prepare_magic(arena(3, 8), vec![("a", wizard, at(1, 1)), ("b", dummy("X", 10, json!({})), at(1, 6))]);
    let mut b = Bench::new(&[]);
    let mut e = b.engine(&prep, &SimOptions::default());
    for (k, (_, why)) in prep.spell_list().enumerate() {
        if why.is_some() {
            let r = e.execute_for_test(0, Action::cast(k as u16, Some(1)));
            assert_eq!(r.reason, Some(Reason::SpellNotPlayable));
        }
    }
    assert_eq!(e.rng.consumed(), 0);
    assert_eq!(e.st.fighters[0].casting.slots, [0, 9, 9, 9, 9, 9, 9, 9, 9, 9]);
}

#[test]
fn evasion_turns_a_reflex_save_for_half_into_no_damage_and_improved_evasion_halves_a_failure() {
    let wizard = caster("Wizard", &["Fireball"], json!({ "spell_list": "wizard" }));
    let reflex = json!({ "fort": 0, "ref": 10, "will": 0 });
    let prep = prepare_magic(
        arena(6, 16),
        vec![
            ("a", wizard, at(1, 1)),
            ("b", dummy("Rogue", 100, json!({ "saves": reflex, "features": ["Evasion"] })), at(2, 10)),
            ("b", dummy("Familiar", 100, json!({ "features": ["Improved Evasion"] })), at(3, 10)),
            ("b", dummy("Plain", 100, json!({ "saves": reflex })), at(4, 10)),
        ],
    );
    let fb = prep.spell_index("Fireball").unwrap();
    let mut cast = Action::cast(fb, None);
    cast.destination = Some(at(3, 10));
    // 5d6 of 3 = 15, DC 16. The rogue saves (7 + 10): nothing. The familiar
    // fails (d20 = 2, Reflex +0): half. The plain creature saves (8 + 10): half.
    // Saves are rolled per creature in order, the damage once, when first needed.
    let mut b = Bench::new(&[7, 2, 3, 3, 3, 3, 3, 8]);
    let mut e = b.engine(&prep, &SimOptions::default());
    turn(&mut e, 0, vec![cast]);
    assert_eq!((e.st.hp(1), e.st.hp(2), e.st.hp(3)), (100, 100 - 7, 100 - 7));
}

#[test]
fn true_strike_lasts_through_the_caster_s_next_turn_and_is_spent_by_one_attack() {
    // CRB "True Strike": the next single attack roll, if made before the
    // end of the next round, gains +20 insight.
    let wizard = caster(
        "Wizard",
        &["True Strike"],
        json!({ "spell_slots": { "1": 1 }, "spell_list": "wizard",
                "attacks": [melee("dagger", 0, "1d4")] }),
    );
    let prep = prepare_magic(
        arena(3, 8),
        vec![("a", wizard, at(1, 1)), ("b", dummy("Dummy", 100, json!({})), at(1, 2))],
    );
    let ts = prep.spell_index("True Strike").unwrap();
    let mut b = Bench::new(&[1, 1]);
    let mut e = b.engine(&prep, &SimOptions::default());
    turn(&mut e, 0, vec![Action::cast(ts, None)]);
    let base = e.st.situation(0, 0, 1, Swing::default()).attack;
    // The caster's next turn begins: the bonus is still there for its attack.
    turn(&mut e, 0, vec![]);
    assert_eq!(e.st.situation(0, 0, 1, Swing::default()).attack, base, "kept through the next turn");
    assert_eq!(e.st.effects(0).len(), 1);
    // The turn after, it has lapsed unused.
    turn(&mut e, 0, vec![]);
    assert!(e.st.effects(0).is_empty(), "gone at the start of the turn after next");
    drop(e);
    // Cast, then used on the next turn: +20 on that roll, then spent.
    let mut b = Bench::new(&[1, 1, 1]);
    let mut e = b.engine(&prep, &SimOptions::default());
    turn(&mut e, 0, vec![Action::cast(ts, None)]);
    assert_eq!(e.st.situation(0, 0, 1, Swing::default()).attack, base);
    turn(&mut e, 0, vec![Action::at(ActionKind::Attack, 1)]);
    assert!(e.st.effects(0).is_empty(), "spent by the attack");
    assert_eq!(e.st.situation(0, 0, 1, Swing::default()).attack, base - 20);
}
