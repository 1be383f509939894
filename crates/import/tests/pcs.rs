//! Every player character of `data/pcs/` is recomputed from its build in
//! `data/builds/` (class levels, race, ability generation, equipment, feats)
//! and must print exactly those numbers: attack bonuses, damage, AC, saves,
//! initiative, hit points, CMB/CMD, speed, spell slots, casting ability, the
//! spells' levels on its class list, and its resource pools.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use pf1e_engine::feats::{FeatCatalog, ResolvedFeatures, resolve};
use pf1e_engine::model::{Combatant, load_combatant};
use pf1e_engine::spell::{SpellBook, load_spell_dir};
use pf1e_import::build::{Companion, Derived, MasterNumbers};
use pf1e_import::{Build, ClassTable, check, parse_build};

fn data() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../data")
}

/// The campaign's eight PCs (the predecessor's names), by file stem.
const PCS: [&str; 8] = ["esha", "harvie", "ierlieth", "jeanne", "misty", "nairda", "oni", "tammara"];

/// Reference PCs of the classes the campaign lacks (issue 22) at the
/// calibration study's party levels (issue 26), built and checked like the
/// campaign's; the stem ends in the level.
const REFERENCE: [&str; 16] = [
    "barbarian2",
    "monk2",
    "paladin2",
    "ranger2",
    "barbarian4",
    "monk4",
    "paladin4",
    "ranger4",
    "barbarian6",
    "monk6",
    "paladin6",
    "ranger6",
    "barbarian8",
    "monk8",
    "paladin8",
    "ranger8",
];

fn load_build(stem: &str) -> Build {
    let path = data().join("builds").join(format!("{stem}.json"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    parse_build(&text, &path.display().to_string()).unwrap_or_else(|e| panic!("{e}"))
}

fn load_pc(stem: &str) -> Combatant {
    load_combatant(&data().join("pcs").join(format!("{stem}.json"))).unwrap_or_else(|e| panic!("{e}"))
}

fn features(c: &Combatant) -> ResolvedFeatures {
    resolve(c, FeatCatalog::builtin().expect("catalogue")).unwrap_or_else(|e| panic!("{}: {e}", c.name))
}

fn spells() -> SpellBook {
    load_spell_dir(&data().join("spells")).expect("data/spells")
}

/// Derives a PC, its master first when it is a familiar.
fn derive(stem: &str, cache: &mut BTreeMap<String, Derived>) -> Derived {
    if let Some(d) = cache.get(stem) {
        return d.clone();
    }
    let build = load_build(stem);
    assert_eq!(build.combatant, format!("{stem}.json"), "the build names its combatant file");
    let master = match &build.companion {
        Some(Companion::Familiar { master, .. }) => {
            let m = derive(master.trim_end_matches(".json"), cache);
            Some(MasterNumbers {
                bab: m.bab,
                base_saves: m.base_saves,
                hp_max: m.stats.hp_max,
                level: m.level,
            })
        }
        _ => None,
    };
    let pc = load_pc(stem);
    let table = ClassTable::builtin().expect("classes");
    let d = build.derive(table, &features(&pc), master.as_ref()).unwrap_or_else(|e| panic!("{stem}: {e}"));
    cache.insert(stem.to_string(), d.clone());
    d
}

#[test]
fn every_pc_prints_the_numbers_its_build_derives() {
    let book = spells();
    let mut cache = BTreeMap::new();
    let mut failures = Vec::new();
    for stem in PCS.into_iter().chain(REFERENCE) {
        let pc = load_pc(stem);
        let d = derive(stem, &mut cache);
        let report = check(&pc, &d, &book);
        failures.extend(report.mismatches.iter().map(|m| format!("data/pcs/{stem}.json: {m}")));
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn every_pc_is_a_player_character_with_a_source_and_notes() {
    for stem in PCS {
        let pc = load_pc(stem);
        assert!(pc.is_pc(), "{stem}: role pc");
        assert!(pc.source.as_deref().is_some_and(|s| !s.is_empty()), "{stem}: source");
        let notes = pc.notes.as_deref().unwrap_or_default();
        assert!(
            notes.contains("Clues:") && notes.contains("Chosen:"),
            "{stem}: notes say what the clues fix and what was chosen"
        );
    }
    for stem in REFERENCE {
        let pc = load_pc(stem);
        assert!(pc.is_pc(), "{stem}: role pc");
        let level: u32 = stem.trim_start_matches(char::is_alphabetic).parse().expect("a level in the stem");
        assert_eq!(pc.level, level, "{stem}: level {level}");
        assert!(
            pc.notes.as_deref().is_some_and(|n| n.contains("Chosen:")),
            "{stem}: notes say what was chosen"
        );
    }
}

#[test]
fn the_clues_of_the_predecessor_hold() {
    let oni = load_pc("oni");
    assert_eq!(oni.abilities.wis_score, 18);
    assert_eq!(oni.spell_slots.get("1"), Some(&4));
    assert_eq!(oni.spell_slots.get("2"), Some(&3));
    for spell in ["Shield of Faith", "Sound Burst", "Guidance", "Stabilize"] {
        assert!(oni.spells.iter().any(|s| s == spell), "oni casts {spell}");
    }
    assert!(oni.has_feature("Channel Energy"));
    let nairda = load_pc("nairda");
    assert_eq!((nairda.abilities.int_score, nairda.ac.total, nairda.level), (Some(21), 13, 4));
    for hex in ["Hex (Evil Eye)", "Hex (Slumber)", "Hex (Cackle)"] {
        assert!(nairda.has_feature(hex), "nairda has {hex}");
    }
    let misty = load_pc("misty");
    let bite = misty.attacks.iter().find(|a| a.name == "bite").expect("misty's bite");
    assert!(bite.natural && bite.damage[0].formula.starts_with("1d6"));
    assert!(misty.has_feature("Spell Combat") && misty.has_feature("Bardic Performance (Inspire Courage)"));
    let tammara = load_pc("tammara");
    assert!(tammara.attacks.iter().any(|a| a.firearm));
    assert!(tammara.resources.contains_key("grit"));
    assert!(tammara.has_feature("Deed (Up Close and Deadly)") && tammara.has_feature("Deed (Quick Clear)"));
    let harvie = load_pc("harvie");
    assert!(
        harvie.speed_fly_ft.is_some_and(|f| f > harvie.speed_land_ft),
        "harvie flies faster than it walks"
    );
    let ierlieth = load_pc("ierlieth");
    assert_eq!((format!("{:?}", ierlieth.size), ierlieth.speed_fly_ft), ("Tiny".to_string(), Some(40)));
    assert!(ierlieth.attacks.iter().any(|a| a.name == "bite" && a.natural && a.reach_ft == Some(5)));
    let jeanne = load_pc("jeanne");
    assert_eq!(jeanne.ac.total, 23);
    assert!(jeanne.attacks.iter().any(|a| a.name == "hooves" && a.natural && a.reach_ft == Some(10)));
}

#[test]
fn a_drifted_number_is_caught() {
    let book = spells();
    let mut cache = BTreeMap::new();
    let d = derive("oni", &mut cache);
    let mut pc = load_pc("oni");
    pc.ac.total += 1;
    pc.attacks[0].attack_bonus -= 1;
    pc.spells.push("Fireball".into());
    pc.resources.insert("channel_energy".into(), 9);
    let paths: Vec<String> = check(&pc, &d, &book).mismatches.into_iter().map(|m| m.path).collect();
    assert_eq!(paths, ["$.ac", "$.attacks[0].attack_bonus", "$.spells[12]", "$.resources"]);
}

#[test]
fn what_the_format_cannot_say_yet_is_reported_as_notes() {
    let book = spells();
    let mut cache = BTreeMap::new();
    let notes = |stem: &str, cache: &mut BTreeMap<String, Derived>| {
        check(&load_pc(stem), &derive(stem, cache), &book).notes
    };
    assert_eq!(
        notes("misty", &mut cache),
        ["caster level 3 (magus levels) but the file's level 4 sets the caster level"]
    );
    assert_eq!(
        notes("oni", &mut cache),
        ["2 domain slot(s) left out of spell_slots (no slot restricted to domain spells)"]
    );
    assert!(notes("nairda", &mut cache).is_empty());
}

#[test]
fn every_build_file_is_the_build_of_a_campaign_or_reference_pc() {
    let mut stems: Vec<String> = std::fs::read_dir(data().join("builds"))
        .expect("data/builds")
        .map(|e| e.expect("entry").path())
        .map(|p| {
            assert_eq!(p.extension().and_then(|e| e.to_str()), Some("json"), "{}", p.display());
            p.file_stem().and_then(|s| s.to_str()).expect("a file name").to_string()
        })
        .collect();
    stems.sort();
    let mut expected: Vec<&str> = PCS.into_iter().chain(REFERENCE).collect();
    expected.sort_unstable();
    assert_eq!(stems, expected);
}

#[test]
fn a_monk_build_derives_its_unarmed_damage_ac_bonus_maneuver_training_and_fast_movement() {
    let table = ClassTable::builtin().expect("classes");
    let pc = load_pc("monk4");
    let derived = |b: &Build| b.derive(table, &features(&pc), None);
    let d = derived(&load_build("monk4")).unwrap_or_else(|e| panic!("{e}"));
    // AC 10 + Dex 2 + Wis 3 + 1 (4th level) + natural 1 + deflection 1 + Dodge 1; CMB: monk level 4 + Str 3.
    assert_eq!((d.stats.ac.total, d.stats.ac.touch, d.stats.ac.flat_footed), (19, 18, 16));
    assert_eq!((d.stats.cmb, d.stats.cmd, d.speed_land_ft), (7, 24, 40));
    assert_eq!((d.resources.get("ki_pool"), d.resources.get("stunning_fist")), (Some(&5), Some(&4)));
    // A 4th-level Medium monk's unarmed strike is 1d8 (CRB Table 3-10): 1d6 is refused.
    let mut wrong = load_build("monk4");
    wrong.weapons[0].dice = "1d6".into();
    let err = derived(&wrong).expect_err("wrong unarmed damage");
    assert!(err.to_string().contains("unarmed strike deals 1d8"), "{err}");
    // In a chain shirt: neither the Wisdom and level bonus (to AC and CMD) nor fast movement.
    let mut armored = load_build("monk4");
    armored.bonuses.push(
        serde_json::from_value(serde_json::json!({ "item": "chain shirt", "target": "ac", "type": "armor",
                                                    "value": 4, "max_dex": 4, "armor": "light" }))
        .expect("a bonus"),
    );
    let a = derived(&armored).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!((a.stats.ac.total, a.stats.cmd, a.speed_land_ft), (19 - 4 + 4, 24 - 4, 30));
}
