//! The shipped spell data set (`data/spells/`): every file loads, the
//! transcribed numbers match the SRD on spot checks, and
//! `docs/rules/spells.md` lists exactly the spells that carry simplifications.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use pf1e_engine::effects::{BonusType, ConditionId, ModTarget, SaveKind};
use pf1e_engine::spell::effect::{DamageEffect, EffectKind, SummonTemplate};
use pf1e_engine::spell::model::{
    AttackKind, CastTime, DurationUnit, Origin, Range, SaveOutcome, Shape, Spread, TargetKind,
};
use pf1e_engine::spell::{Spell, SpellBook, load_spell_dir};

fn data_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../data/spells")
}

fn book() -> SpellBook {
    match load_spell_dir(&data_dir()) {
        Ok(book) => book,
        Err(e) => panic!("{e}"),
    }
}

fn spell<'a>(book: &'a SpellBook, id: &str) -> &'a Spell {
    book.get(id).unwrap_or_else(|| panic!("no spell {id}"))
}

/// The first damage effect of a spell.
fn damage(spell: &Spell) -> &DamageEffect {
    spell
        .effects
        .iter()
        .find_map(|e| match &e.kind {
            EffectKind::Damage(d) => Some(d),
            _ => None,
        })
        .unwrap_or_else(|| panic!("{} has no damage effect", spell.name))
}

#[test]
fn every_spell_file_loads_and_the_set_has_at_least_108_spells() {
    let book = book();
    let files = std::fs::read_dir(data_dir())
        .unwrap()
        .filter(|e| e.as_ref().unwrap().path().extension().is_some_and(|x| x == "json"))
        .count();
    assert_eq!(book.len(), files, "every file is one spell");
    assert!(book.len() >= 108, "only {} spells", book.len());
}

#[test]
fn every_spell_named_by_the_predecessor_is_in_the_set() {
    let book = book();
    let named = [
        "Enhance Water",
        "Silence",
        "Sleep",
        "Summon Instrument",
        "Summon Monster I",
        "Summon Monster II",
        "Grasp",
        "Saving Finale",
        "Make Whole",
        "Masterwork Transformation",
        "Mending",
        "Restoration, Lesser",
        "Ray of Frost",
        "Ray of Enfeeblement",
        "Scorching Ray",
        "Acid Arrow",
        "Acid Splash",
        "Disrupt Undead",
        "Shard of Chaos",
        "Spear of Purity",
        "Grace",
        "Magic Missile",
        "Aid",
        "Bless",
        "Bane",
        "Fireball",
        "Lightning Bolt",
        "Burning Hands",
        "Shocking Grasp",
        "Inflict Light Wounds",
        "Cure Light Wounds",
        "Cure Moderate Wounds",
        "Flurry of Snowballs",
        "Web",
        "Darkness",
        "Sanctuary",
        "Mirror Image",
        "Bleed",
        "Color Spray",
        "Sound Burst",
        "Fear",
        "Heroism",
        "Bladed Dash",
        "Guidance",
        "Shield of Faith",
        "Stabilize",
        "Protection from Chaos",
        "Protection from Evil",
        "Protection from Good",
        "Protection from Law",
        "Blur",
        "Displacement",
        "Invisibility",
    ];
    let missing: Vec<_> = named.iter().filter(|n| book.find(n).is_none()).collect();
    assert!(missing.is_empty(), "missing: {missing:?}");
}

#[test]
fn every_prepared_spell_of_the_bestiary_lich_is_in_the_set() {
    let book = book();
    let lich = [
        "circle of death",
        "globe of invulnerability",
        "fireball",
        "cloudkill",
        "cone of cold",
        "magic missile",
        "waves of fatigue",
        "dimension door",
        "enervation",
        "fire shield",
        "wall of ice",
        "dispel magic",
        "suggestion",
        "vampiric touch",
        "darkness",
        "mage armor",
        "false life",
        "scorching ray",
        "see invisibility",
        "spectral hand",
        "magic missile",
        "ray of enfeeblement",
        "shield",
        "bleed",
        "detect magic",
        "ray of frost",
        "read magic",
    ];
    let missing: Vec<_> = lich.iter().filter(|n| book.find(n).is_none()).collect();
    assert!(missing.is_empty(), "missing: {missing:?}");
}

#[test]
fn every_spell_survives_a_round_trip_through_its_serialized_form() {
    let book = book();
    for (id, spell) in book.iter() {
        let text = serde_json::to_string(spell).unwrap();
        let again = pf1e_engine::spell::parse_spell(&text, id).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(&again, spell, "{id}");
    }
}

#[test]
fn fireball_matches_the_srd() {
    let book = book();
    let s = spell(&book, "fireball");
    assert_eq!(s.levels["wizard"], 3);
    assert_eq!(s.levels["sorcerer"], 3);
    assert_eq!(s.levels["magus"], 3);
    assert_eq!(s.level_for(["cleric", "wizard"]), Some(3));
    assert_eq!(s.lowest_level(), Some(3));
    assert_eq!(s.range, Range::Long);
    assert_eq!(s.range.feet_at(10), Some(800));
    let area = s.area.as_ref().unwrap();
    assert_eq!((area.shape, area.spread, area.origin), (Shape::Sphere, Spread::Spread, Origin::Point));
    assert_eq!(area.radius_ft.as_ref().unwrap().fixed_at(1), Some(20));
    let save = s.saving_throw.as_ref().unwrap();
    assert_eq!((save.kind, save.outcome), (SaveKind::Ref, SaveOutcome::Half));
    assert!(s.spell_resistance);
    let d = damage(s);
    assert_eq!(d.types, ["fire"]);
    let dice: Vec<_> = [1, 5, 10, 11, 20].iter().map(|&cl| d.amount.describe_at(cl)).collect();
    assert_eq!(dice, ["1d6", "5d6", "10d6", "10d6", "10d6"]);
}

#[test]
fn magic_missile_fires_one_missile_per_two_levels_beyond_first_up_to_five() {
    let book = book();
    let s = spell(&book, "magic_missile");
    let d = damage(s);
    assert_eq!(d.amount.describe_at(9), "1d4+1");
    assert_eq!(d.types, ["force"]);
    let missiles = d.projectiles.as_ref().unwrap();
    let counts: Vec<_> = (1..=12).map(|cl| missiles.fixed_at(cl).unwrap()).collect();
    assert_eq!(counts, [1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 5, 5]);
    assert_eq!(missiles.fixed_at(11), Some(5), "the lich (CL 11) fires five");
    assert!(s.attack.is_none(), "magic missile never misses");
    assert_eq!(s.target.as_ref().unwrap().within_ft, Some(15));
}

#[test]
fn cure_light_wounds_heals_1d8_plus_1_per_level_up_to_5_and_harms_undead() {
    let book = book();
    let s = spell(&book, "cure_light_wounds");
    let EffectKind::Heal(h) = &s.effects[0].kind else { panic!("not a heal") };
    assert!(h.harms_undead);
    let amounts: Vec<_> = [1, 3, 5, 6, 20].iter().map(|&cl| h.amount.describe_at(cl)).collect();
    assert_eq!(amounts, ["1d8+1", "1d8+3", "1d8+5", "1d8+5", "1d8+5"]);
    assert!((h.amount.mean_at(1) - 5.5).abs() < 1e-9);
    assert!(s.harmless);
    let save = s.saving_throw.as_ref().unwrap();
    assert_eq!((save.kind, save.outcome), (SaveKind::Will, SaveOutcome::Half));
    assert_eq!(s.levels["cleric"], 1);
    assert_eq!(s.levels["witch"], 1);
    assert_eq!(s.levels["ranger"], 2);
}

#[test]
fn scorching_ray_fires_one_two_then_three_rays_of_4d6_fire() {
    let book = book();
    let s = spell(&book, "scorching_ray");
    assert_eq!(s.attack.as_ref().unwrap().kind, AttackKind::Ray);
    let d = damage(s);
    assert_eq!(d.amount.describe_at(11), "4d6");
    let rays = d.projectiles.as_ref().unwrap();
    let counts: Vec<_> = [3, 6, 7, 10, 11, 20].iter().map(|&cl| rays.fixed_at(cl).unwrap()).collect();
    assert_eq!(counts, [1, 1, 2, 2, 3, 3]);
    assert!(d.critical, "a ray can score a critical hit");
}

#[test]
fn acid_arrow_burns_one_more_round_per_three_levels_up_to_six_more() {
    let book = book();
    let s = spell(&book, "acid_arrow");
    assert!(!s.spell_resistance);
    assert_eq!(s.attack.as_ref().unwrap().kind, AttackKind::RangedTouch);
    let d = damage(s);
    assert_eq!(d.amount.describe_at(5), "2d4");
    let r = d.recurring.as_ref().unwrap();
    assert_eq!(r.amount.describe_at(5), "2d4");
    assert_eq!(r.types, ["acid"]);
    let rounds: Vec<_> = [1, 2, 3, 6, 17, 18, 20].iter().map(|&cl| r.rounds.fixed_at(cl).unwrap()).collect();
    assert_eq!(rounds, [0, 0, 1, 2, 5, 6, 6]);
}

#[test]
fn area_spells_have_their_srd_shapes() {
    let book = book();
    let cases = [
        ("lightning_bolt", Shape::Line, 120),
        ("burning_hands", Shape::Cone, 15),
        ("cone_of_cold", Shape::Cone, 60),
        ("color_spray", Shape::Cone, 15),
        ("fear", Shape::Cone, 30),
    ];
    for (id, shape, length) in cases {
        let area = spell(&book, id).area.as_ref().unwrap();
        assert_eq!(area.shape, shape, "{id}");
        assert_eq!(area.origin, Origin::Caster, "{id}");
        assert_eq!(area.length_ft.as_ref().unwrap().fixed_at(1), Some(length), "{id}");
    }
    for id in ["bless", "bane"] {
        let area = spell(&book, id).area.as_ref().unwrap();
        assert_eq!((area.shape, area.origin), (Shape::Sphere, Origin::Caster), "{id}");
        assert_eq!(area.radius_ft.as_ref().unwrap().fixed_at(1), Some(50), "{id}");
    }
}

#[test]
fn sleep_and_color_spray_follow_hit_dice() {
    let book = book();
    let sleep = spell(&book, "sleep");
    assert_eq!(sleep.cast_time, CastTime::OneRound);
    let area = sleep.area.as_ref().unwrap();
    assert_eq!(area.hit_dice_pool.as_ref().unwrap().fixed_at(9), Some(4));
    assert_eq!(area.filter.max_hd, Some(4));
    let spray = spell(&book, "color_spray");
    let tiers: Vec<_> = spray.effects.iter().map(|e| (e.only.min_hd, e.only.max_hd)).collect();
    assert_eq!(tiers, [(None, Some(2)), (None, Some(2)), (Some(3), Some(4)), (Some(5), None)]);
}

#[test]
fn fear_panics_and_a_successful_save_still_shakes_for_one_round() {
    let book = book();
    let fear = spell(&book, "fear");
    let e = &fear.effects[0];
    let EffectKind::Condition(c) = &e.kind else { panic!("not a condition") };
    assert_eq!(c.conditions, [ConditionId::Panicked]);
    let EffectKind::Condition(shaken) = &e.on_success[0].kind else { panic!("not a condition") };
    assert_eq!(shaken.conditions, [ConditionId::Shaken]);
    assert_eq!(e.on_success[0].duration.as_ref().unwrap().amount.as_ref().unwrap().fixed_at(9), Some(1));
    assert_eq!(fear.duration.unit, DurationUnit::Rounds);
}

#[test]
fn buffs_carry_typed_bonuses() {
    let book = book();
    let modifiers = |id: &str| -> Vec<(ModTarget, BonusType, Option<i32>)> {
        spell(&book, id)
            .effects
            .iter()
            .filter_map(|e| match &e.kind {
                EffectKind::Modifiers(m) => Some(m),
                _ => None,
            })
            .flat_map(|m| m.modifiers.iter().map(|x| (x.target, x.bonus_type, x.value.fixed_at(18))))
            .collect()
    };
    assert_eq!(modifiers("shield_of_faith"), [(ModTarget::Ac, BonusType::Deflection, Some(5))]);
    assert_eq!(modifiers("mage_armor"), [(ModTarget::Ac, BonusType::Armor, Some(4))]);
    assert_eq!(modifiers("shield"), [(ModTarget::Ac, BonusType::Shield, Some(4))]);
    assert_eq!(modifiers("bulls_strength"), [(ModTarget::Str, BonusType::Enhancement, Some(4))]);
    assert_eq!(modifiers("barkskin"), [(ModTarget::Ac, BonusType::NaturalArmor, Some(5))]);
    let favor = spell(&book, "divine_favor");
    let EffectKind::Modifiers(m) = &favor.effects[0].kind else { panic!("not modifiers") };
    let bonus: Vec<_> =
        [1, 5, 6, 9, 20].iter().map(|&cl| m.modifiers[0].value.fixed_at(cl).unwrap()).collect();
    assert_eq!(bonus, [1, 1, 2, 3, 3]);
}

#[test]
fn summon_monster_ii_offers_its_list_or_1d3_from_the_first() {
    let book = book();
    let s = spell(&book, "summon_monster_ii");
    assert_eq!(s.cast_time, CastTime::OneRound);
    assert_eq!(s.duration.unit, DurationUnit::Rounds);
    let EffectKind::Summon(summon) = &s.effects[0].kind else { panic!("not a summons") };
    let wolf = summon.options.iter().find(|o| o.monster.as_deref() == Some("wolf")).unwrap();
    assert_eq!(wolf.template, SummonTemplate::CelestialOrFiendish);
    let lower = summon.options.iter().find(|o| o.from_spell.is_some()).unwrap();
    assert_eq!(lower.from_spell.as_deref(), Some("summon_monster_i"));
    assert_eq!(lower.count.bounds_at(5), (1, 3));
}

#[test]
fn harmless_spells_and_touch_delivery_are_marked() {
    let book = book();
    for id in ["bless", "shield_of_faith", "haste", "cure_light_wounds", "guidance", "stabilize"] {
        assert!(spell(&book, id).harmless, "{id} is harmless");
    }
    for id in ["fireball", "bane", "hold_person", "inflict_light_wounds"] {
        assert!(!spell(&book, id).harmless, "{id} is not harmless");
    }
    for id in ["shocking_grasp", "inflict_light_wounds", "vampiric_touch", "chill_touch"] {
        let s = spell(&book, id);
        assert_eq!(s.range, Range::Touch, "{id}");
        assert_eq!(s.attack.as_ref().map(|a| a.kind), Some(AttackKind::MeleeTouch), "{id}");
    }
    let hold = spell(&book, "hold_person");
    assert_eq!(hold.target.as_ref().unwrap().kind, TargetKind::Creature);
}

/// The counts the README quotes; printed rather than compared with the predecessor's.
#[test]
fn the_data_set_counts_are_reported() {
    let book = book();
    let mut by_cast_time = std::collections::BTreeMap::new();
    let (mut harmless, mut no_sr, mut simplified) = (0, 0, 0);
    for (_, s) in book.iter() {
        *by_cast_time.entry(format!("{:?}", s.cast_time)).or_insert(0) += 1;
        harmless += usize::from(s.harmless);
        no_sr += usize::from(!s.spell_resistance);
        simplified += usize::from(!s.simplifications.is_empty());
    }
    println!(
        "{} spells; harmless {harmless}; spell resistance no {no_sr}; with simplifications {simplified}; cast times {by_cast_time:?}",
        book.len()
    );
    assert_eq!(by_cast_time.values().sum::<usize>(), book.len());
}

/// `docs/rules/spells.md` lists, under "## Simplified spells", one `### Name
/// (id)` heading per spell whose file has simplifications, and no other.
#[test]
fn the_conformance_document_lists_exactly_the_simplified_spells() {
    let book = book();
    let doc_path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../docs/rules/spells.md");
    let doc = std::fs::read_to_string(&doc_path).unwrap();
    let section = doc.split("\n## Simplified spells").nth(1).expect("a `## Simplified spells` section");
    let section = section.split("\n## ").next().unwrap_or(section);
    let listed: BTreeSet<String> = section
        .lines()
        .filter_map(|l| l.strip_prefix("### "))
        .filter_map(|l| l.rsplit_once('(').map(|(_, id)| id.trim_end_matches(')').trim().to_string()))
        .collect();
    let simplified: BTreeSet<String> =
        book.iter().filter(|(_, s)| !s.simplifications.is_empty()).map(|(id, _)| id.to_string()).collect();
    let undocumented: Vec<_> = simplified.difference(&listed).collect();
    let not_simplified: Vec<_> = listed.difference(&simplified).collect();
    assert!(undocumented.is_empty(), "simplified in data but not in docs/rules/spells.md: {undocumented:?}");
    assert!(
        not_simplified.is_empty(),
        "in docs/rules/spells.md but without simplifications: {not_simplified:?}"
    );
    for (id, s) in book.iter().filter(|(_, s)| !s.simplifications.is_empty()) {
        let heading = format!("### {} ({id})", s.name);
        let body = section.split(&heading).nth(1).unwrap_or_else(|| panic!("no heading {heading:?}"));
        let body = body.split("\n### ").next().unwrap_or(body);
        for text in &s.simplifications {
            assert!(body.contains(text.as_str()), "docs/rules/spells.md, {heading}: missing {text:?}");
        }
    }
}
