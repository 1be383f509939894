//! Tests of the spell format: what it accepts, and the one-line errors it
//! gives for what it refuses.

use serde_json::{Value, json};

use super::effect::{EffectKind, SummonTemplate};
use super::model::{CastTime, Range, SaveOutcome, TargetKind};
use super::*;

const FILE: &str = "data/spells/test.json";

fn base() -> Value {
    json!({
        "name": "Fireball",
        "source": "PRPG Core Rulebook pg. 283",
        "levels": {"sorcerer": 3, "wizard": 3, "magus": 3},
        "school": "evocation",
        "descriptors": ["fire"],
        "components": ["V", "S", "M"],
        "range": "long",
        "area": {"shape": "sphere", "spread": "spread", "radius_ft": 20},
        "duration": {"unit": "instantaneous"},
        "saving_throw": {"kind": "ref", "outcome": "half"},
        "spell_resistance": true,
        "effects": [{"damage": {"amount": {"per_step": "1d6", "max_steps": 10}, "types": ["fire"]}}]
    })
}

fn parse(value: &Value) -> Result<Spell, SpellError> {
    parse_spell(&value.to_string(), FILE)
}

/// The error of `base()` after `mutate`.
fn error_of(mutate: impl FnOnce(&mut Value)) -> String {
    let mut value = base();
    mutate(&mut value);
    match parse(&value) {
        Ok(s) => panic!("expected an error, parsed {s:?}"),
        Err(e) => e.to_string(),
    }
}

/// The message names the file, then the JSON path, then contains the reason, on one line.
fn assert_error(message: &str, path: &str, reason: &str) {
    let prefix = format!("{FILE}: {path}: ");
    assert!(message.starts_with(&prefix), "expected prefix {prefix:?} in {message:?}");
    assert!(message.contains(reason), "expected {reason:?} in {message:?}");
    assert!(!message.contains('\n'), "error must be one line: {message:?}");
}

#[test]
fn the_base_spell_reads_with_its_defaults() {
    let s = parse(&base()).unwrap();
    assert_eq!(s.cast_time, CastTime::Standard);
    assert_eq!(s.range, Range::Long);
    assert_eq!(s.range.feet_at(5), Some(600));
    assert_eq!(s.saving_throw.as_ref().map(|t| t.outcome), Some(SaveOutcome::Half));
    assert!(!s.harmless);
    let EffectKind::Damage(d) = &s.effects[0].kind else { panic!("not damage") };
    assert_eq!(d.amount.describe_at(12), "10d6");
    assert!(d.critical);
}

#[test]
fn a_spell_survives_a_round_trip_through_json() {
    let s = parse(&base()).unwrap();
    let again = parse_spell(&serde_json::to_string(&s).unwrap(), FILE).unwrap();
    assert_eq!(s, again);
}

#[test]
fn the_srd_wordings_of_cast_times_are_accepted() {
    for (text, expected) in [
        ("1 round", CastTime::OneRound),
        ("1 full-round action", CastTime::FullRound),
        ("1 immediate action", CastTime::Immediate),
        ("10 minutes", CastTime::Long),
        ("swift", CastTime::Swift),
    ] {
        let mut v = base();
        v["cast_time"] = json!(text);
        assert_eq!(parse(&v).unwrap().cast_time, expected, "{text}");
    }
    assert_error(
        &error_of(|v| v["cast_time"] = json!("2 rounds")),
        "$.cast_time",
        "unknown variant `2 rounds`",
    );
}

#[test]
fn an_unknown_top_level_field_names_its_path() {
    assert_error(&error_of(|v| v["dc"] = json!(15)), "$.dc", "unknown field `dc`");
}

#[test]
fn an_unknown_field_inside_an_effect_names_its_path() {
    let msg = error_of(|v| v["effects"][0]["damage"]["dice"] = json!("1d6"));
    assert_error(&msg, "$.effects[0].damage.dice", "unknown field `dice`");
}

#[test]
fn an_unknown_effect_kind_lists_the_kinds() {
    let msg = error_of(|v| v["effects"][0] = json!({"damge": {"amount": "1d6"}}));
    assert_error(&msg, "$.effects[0].damge", "unknown field `damge`, expected one of `only`");
    assert!(msg.contains("`damage`"), "{msg}");
}

#[test]
fn an_effect_has_exactly_one_kind() {
    let msg = error_of(|v| {
        v["effects"][0]["heal"] = json!({"amount": "1d8"});
    });
    assert_error(&msg, "$.effects[0]", "exactly one kind");
    let msg = error_of(|v| v["effects"][0] = json!({"save": "half"}));
    assert_error(&msg, "$.effects[0]", "missing effect kind");
}

#[test]
fn a_bad_dice_formula_is_refused_at_its_field() {
    let msg = error_of(|v| v["effects"][0]["damage"]["amount"]["per_step"] = json!("ld6"));
    assert_error(&msg, "$.effects[0].damage.amount.per_step", "invalid dice notation \"ld6\"");
}

#[test]
fn a_scaled_value_rejects_unknown_fields() {
    let msg = error_of(|v| v["effects"][0]["damage"]["amount"]["max_dice"] = json!(10));
    assert_error(&msg, "$.effects[0].damage.amount.max_dice", "unknown field `max_dice`");
}

#[test]
fn the_per_level_die_must_match_the_base_die() {
    let msg = error_of(|v| v["effects"][0]["damage"]["amount"]["base"] = json!("1d8"));
    assert_error(&msg, "$.effects[0].damage.amount.per_step", "must match the base die");
}

#[test]
fn an_unknown_damage_type_is_refused() {
    let msg = error_of(|v| v["effects"][0]["damage"]["types"] = json!(["flame"]));
    assert_error(&msg, "$.effects[0].damage.types[0]", "unknown damage type \"flame\"");
}

#[test]
fn an_unknown_class_is_refused() {
    let msg = error_of(|v| v["levels"]["warlock"] = json!(3));
    assert_error(&msg, "$.levels.warlock", "unknown class \"warlock\"");
    let msg = error_of(|v| v["levels"]["wizard"] = json!(10));
    assert_error(&msg, "$.levels.wizard", "spell level must be 0 to 9");
}

#[test]
fn unknown_vocabulary_is_refused() {
    assert_error(&error_of(|v| v["school"] = json!("evokation")), "$.school", "unknown variant `evokation`");
    assert_error(
        &error_of(|v| v["descriptors"] = json!(["fiery"])),
        "$.descriptors[0]",
        "unknown variant `fiery`",
    );
    assert_error(
        &error_of(|v| v["components"] = json!(["V", "X"])),
        "$.components[1]",
        "unknown variant `X`",
    );
    assert_error(&error_of(|v| v["range"] = json!("far")), "$.range", "unknown variant `far`");
}

#[test]
fn a_fixed_range_is_written_in_feet() {
    let mut v = base();
    v["range"] = json!({"feet": 30});
    assert_eq!(parse(&v).unwrap().range, Range::Feet(30));
    assert_error(&error_of(|v| v["range"] = json!({"feet": 32})), "$.range.feet", "multiple of 5");
}

#[test]
fn an_area_needs_the_sizes_of_its_shape() {
    let msg = error_of(|v| v["area"] = json!({"shape": "cone", "origin": "caster"}));
    assert_error(&msg, "$.area", "missing: `length_ft`");
    let msg = error_of(|v| v["area"] = json!({"shape": "cone", "length_ft": 30}));
    assert_error(&msg, "$.area.origin", "starts at the caster");
    let msg = error_of(|v| v["area"]["length_ft"] = json!(20));
    assert_error(&msg, "$.area.length_ft", "a sphere has no length_ft");
}

#[test]
fn a_duration_in_rounds_needs_an_amount() {
    let msg = error_of(|v| v["duration"] = json!({"unit": "rounds"}));
    assert_error(&msg, "$.duration", "missing: `amount`");
    let msg = error_of(|v| v["duration"] = json!({"unit": "instantaneous", "amount": 1}));
    assert_error(&msg, "$.duration.amount", "takes no amount");
}

#[test]
fn a_partial_save_must_say_what_it_does_to_each_effect() {
    let msg = error_of(|v| v["saving_throw"]["outcome"] = json!("partial"));
    assert_error(&msg, "$.effects[0]", "missing: `save`");
    let mut v = base();
    v["saving_throw"]["outcome"] = json!("partial");
    v["effects"][0]["save"] = json!("none");
    assert!(parse(&v).is_ok());
}

#[test]
fn a_condition_cannot_be_halved() {
    let msg = error_of(|v| v["effects"][0] = json!({"condition": {"conditions": ["shaken"]}}));
    assert_error(&msg, "$.effects[0]", "cannot halve this effect");
    let msg =
        error_of(|v| v["effects"][0] = json!({"condition": {"conditions": ["shaken"]}, "save": "half"}));
    assert_error(&msg, "$.effects[0].save", "cannot be halved");
}

#[test]
fn on_success_replaces_a_negated_effect() {
    let mut v = base();
    v["saving_throw"] = json!({"kind": "fort", "outcome": "partial"});
    v["effects"][0]["save"] = json!("negates");
    v["effects"][0]["on_success"] = json!([{"damage": {"amount": "5d6"}, "save": "none"}]);
    let s = parse(&v).unwrap();
    assert_eq!(s.effects[0].on_success.len(), 1);
    let msg = error_of(|v| {
        v["effects"][0]["save"] = json!("half");
        v["effects"][0]["on_success"] = json!([{"damage": {"amount": "5d6"}}]);
    });
    assert_error(&msg, "$.effects[0].on_success", "write \"save\": \"negates\"");
}

#[test]
fn a_spell_without_effects_must_say_why() {
    let msg = error_of(|v| v["effects"] = json!([]));
    assert_error(&msg, "$.effects", "must say in `simplifications`");
}

#[test]
fn a_creatures_target_needs_a_count() {
    let msg = error_of(|v| v["target"] = json!({"kind": "creatures", "within_ft": 30}));
    assert_error(&msg, "$.target", "missing: `count`");
    let mut v = base();
    v["target"] = json!({"kind": "creatures", "count": {"per_step": 1}, "within_ft": 30});
    let s = parse(&v).unwrap();
    let target = s.target.unwrap();
    assert_eq!(target.kind, TargetKind::Creatures);
    assert_eq!(target.count.unwrap().fixed_at(7), Some(7));
}

#[test]
fn a_melee_touch_attack_needs_touch_range() {
    let msg = error_of(|v| {
        v["target"] = json!({"kind": "creature"});
        v["attack"] = json!({"kind": "melee_touch"});
    });
    assert_error(&msg, "$.attack.kind", "needs range \"touch\"");
}

#[test]
fn summons_name_a_monster_or_a_lower_list() {
    let mut v = base();
    v["saving_throw"] = Value::Null;
    v["area"] = Value::Null;
    v["effects"] = json!([{"summon": {"options": [
        {"monster": "dire_rat", "template": "celestial_or_fiendish", "count": 1},
        {"from_spell": "summon_monster_i", "count": "1d3"}
    ]}}]);
    let s = parse(&v).unwrap();
    let EffectKind::Summon(summon) = &s.effects[0].kind else { panic!("not a summons") };
    assert_eq!(summon.options[0].template, SummonTemplate::CelestialOrFiendish);
    let msg = error_of(|v| {
        v["saving_throw"] = Value::Null;
        v["effects"] = json!([{"summon": {"options": [{"monster": "Dire Rat", "count": 1}]}}]);
    });
    assert_error(&msg, "$.effects[0].summon.options[0].monster", "not a file name");
}

#[test]
fn a_modifier_condition_needs_its_argument() {
    let msg = error_of(|v| {
        v["saving_throw"] = Value::Null;
        v["effects"] = json!([{"modifiers": {"modifiers": [
            {"target": "saves", "value": 1, "type": "morale", "condition": "save_vs_descriptor"}
        ]}}]);
    });
    assert_error(&msg, "$.effects[0].modifiers.modifiers[0]", "missing: `descriptor`");
}

#[test]
fn spell_ids_follow_the_file_names() {
    assert_eq!(spell_id("Bull's Strength"), "bulls_strength");
    assert_eq!(spell_id("Blindness/Deafness"), "blindness_deafness");
    assert_eq!(spell_id("Restoration, Lesser"), "restoration_lesser");
    assert_eq!(spell_id("  Summon Monster III "), "summon_monster_iii");
    assert!(is_id("cure_light_wounds"));
    assert!(!is_id("Cure Light Wounds"));
}

#[test]
fn a_book_refuses_a_duplicate_name_and_a_misnamed_file() {
    let mut book = SpellBook::default();
    let fireball = parse(&base()).unwrap();
    book.insert("spells/fireball.json", fireball.clone()).unwrap();
    let msg = book.insert("spells/fireball2.json", fireball.clone()).unwrap_err().to_string();
    assert!(msg.starts_with("spells/fireball2.json: $.name: "), "{msg}");
    let mut book = SpellBook::default();
    let msg = book.insert("spells/fire_ball.json", fireball).unwrap_err().to_string();
    assert!(msg.contains("must be named fireball.json"), "{msg}");
}

#[test]
fn a_book_finds_spells_by_name_or_alias() {
    let mut book = SpellBook::default();
    let mut v = base();
    v["aliases"] = json!(["Ball of Fire"]);
    book.insert("fireball.json", parse(&v).unwrap()).unwrap();
    assert_eq!(book.find("FIREBALL").map(|(id, _)| id), Some("fireball"));
    assert_eq!(book.find("ball of fire").map(|(id, _)| id), Some("fireball"));
    assert!(book.find("lightning bolt").is_none());
}

#[test]
fn a_book_refuses_a_reference_to_a_missing_spell() {
    let mut book = SpellBook::default();
    let mut v = base();
    v["dispels"] = json!(["bane"]);
    book.insert("fireball.json", parse(&v).unwrap()).unwrap();
    let msg = book.check_references(|id| format!("{id}.json")).unwrap_err().to_string();
    assert_eq!(msg, "fireball.json: $.dispels[0]: no spell \"bane\" in the spell directory");
}
