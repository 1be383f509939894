//! `pf1e_import::foundry` on hand-made sheets in the Foundry VTT pf1 export
//! format (v10 data model), one per class among the campaign's PCs: cleric
//! (Oni), witch (Nairda), magus and bard (Misty), gunslinger (Tammara),
//! fighter (Harvie), cavalier (Esha), plus an NPC (the Bestiary orc, a
//! warrior). Each sheet describes the same character as the shipped file, so
//! the conversion must print the same numbers; what it cannot map is listed.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use pf1e_engine::model::{Combatant, load_combatant};
use pf1e_engine::spell::{SpellBook, load_spell_dir};
use pf1e_import::foundry::{Imported, convert};
use pf1e_import::{ClassTable, Error};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn spells() -> SpellBook {
    load_spell_dir(&root().join("data/spells")).expect("data/spells")
}

fn fixture_text(name: &str) -> String {
    let path =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures").join(format!("{name}.foundry.json"));
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn import(name: &str) -> Imported {
    let file = format!("{name}.foundry.json");
    convert(&fixture_text(name), &file, ClassTable::builtin().unwrap(), &spells())
        .unwrap_or_else(|e| panic!("{e}"))
}

fn shipped(rel: &str) -> Combatant {
    load_combatant(&root().join("data").join(rel)).unwrap_or_else(|e| panic!("{e}"))
}

/// An attack's name without its enhancement (`+1 longsword` → `longsword`).
fn plain(name: &str) -> String {
    name.trim_start_matches(|c: char| c == '+' || c.is_ascii_digit()).trim().to_lowercase()
}

/// Every printed number of `got` that differs from `want`.
fn differences(got: &Combatant, want: &Combatant) -> Vec<String> {
    let mut out = Vec::new();
    let mut same = |what: &str, a: String, b: String| {
        if a != b {
            out.push(format!("{what}: imported {a}, shipped {b}"));
        }
    };
    same("abilities", format!("{:?}", got.abilities), format!("{:?}", want.abilities));
    same("level", got.level.to_string(), want.level.to_string());
    same("size", format!("{:?}", got.size), format!("{:?}", want.size));
    same("hp_max", got.hp_max.to_string(), want.hp_max.to_string());
    same("ac", format!("{:?}", got.ac), format!("{:?}", want.ac));
    same("saves", format!("{:?}", got.saves), format!("{:?}", want.saves));
    same("bab", got.bab.to_string(), want.bab.to_string());
    same("initiative", got.initiative_mod.to_string(), want.initiative_mod.to_string());
    if want.cmb.is_some() {
        same("cmb/cmd", format!("{:?}/{:?}", got.cmb, got.cmd), format!("{:?}/{:?}", want.cmb, want.cmd));
    }
    same(
        "speeds",
        format!("{} {:?}", got.speed_land_ft, got.speed_fly_ft),
        format!("{} {:?}", want.speed_land_ft, want.speed_fly_ft),
    );
    same("spell_slots", format!("{:?}", got.spell_slots), format!("{:?}", want.spell_slots));
    same("spell_list", format!("{:?}", got.spell_list), format!("{:?}", want.spell_list));
    same("caster_level", format!("{:?}", got.caster_level), format!("{:?}", want.caster_level));
    same("casting_ability", format!("{:?}", got.casting_ability), format!("{:?}", want.casting_ability));
    same(
        "spells",
        format!("{:?}", got.spells.iter().collect::<BTreeSet<_>>()),
        format!("{:?}", want.spells.iter().collect::<BTreeSet<_>>()),
    );
    same("resources", format!("{:?}", got.resources), format!("{:?}", want.resources));
    same("resistances", format!("{:?}", got.resistances), format!("{:?}", want.resistances));
    for w in &want.attacks {
        match got.attacks.iter().find(|g| plain(&g.name) == plain(&w.name)) {
            None => out.push(format!("attack {:?} missing", w.name)),
            Some(g) => {
                let key = |a: &pf1e_engine::model::AttackSpec| {
                    (
                        a.attack_bonus,
                        a.damage[0].formula.clone(),
                        a.crit_range,
                        a.crit_mult,
                        a.natural,
                        a.secondary,
                        a.firearm,
                        a.range_increment_ft,
                    )
                };
                if key(g) != key(w) {
                    out.push(format!("attack {:?}: imported {:?}, shipped {:?}", w.name, key(g), key(w)));
                }
            }
        }
    }
    out
}

/// The unmapped entries, as `what: reason`.
fn unmapped(i: &Imported) -> Vec<String> {
    i.unmapped.iter().map(|u| format!("{}: {}", u.what, u.reason)).collect()
}

fn assert_listed(i: &Imported, needle: &str) {
    assert!(unmapped(i).iter().any(|u| u.contains(needle)), "{needle:?} is not listed in {:#?}", unmapped(i));
}

#[test]
fn the_cleric_sheet_converts_to_oni() {
    let i = import("cleric");
    let oni = shipped("pcs/oni.json");
    assert_eq!(differences(&i.combatant, &oni), Vec::<String>::new());
    assert!(i.combatant.is_pc());
    assert!(i.combatant.has_feature("Channel Energy") && i.combatant.has_feature("Selective Channeling"));
    // Sun's Blessing is played since pf1e-rules-9: it is mapped, not listed.
    assert!(i.combatant.has_feature("Sun's Blessing"));
    assert_listed(&i, "2 domain slot(s)");
    assert_listed(&i, "buff \"Bless\": inactive at export");
    assert!(i.combatant.carried_items.iter().any(|c| c.name() == "Wand of Cure Light Wounds"));
}

#[test]
fn the_witch_sheet_converts_to_nairda_and_lists_the_spell_the_book_lacks() {
    let i = import("witch");
    assert_eq!(differences(&i.combatant, &shipped("pcs/nairda.json")), Vec::<String>::new());
    for hex in ["Hex (Evil Eye)", "Hex (Slumber)", "Hex (Cackle)"] {
        assert!(i.combatant.has_feature(hex), "{hex}");
    }
    assert_listed(&i, "spell \"Disguise Self\": not on the witch list of data/spells");
    assert_listed(&i, "class \"Witch's Familiar\"");
    // The dagger's throw is a second attack of the same item.
    assert!(
        i.combatant.attacks.iter().any(|a| a.name == "dagger (throw)" && a.range_increment_ft == Some(10))
    );
}

#[test]
fn the_magus_and_bard_sheet_converts_to_misty_with_one_spellbook() {
    let i = import("magus");
    let got = &i.combatant;
    assert_eq!(differences(got, &shipped("pcs/misty.json")), Vec::<String>::new());
    assert!(got.has_feature("Spell Combat") && got.has_feature("Bardic Performance (Inspire Courage)"));
    assert!(got.has_feature("Magus Arcana (Arcane Accuracy)"));
    assert_listed(&i, "spell \"Cure Light Wounds\": a second spellbook");
    assert_eq!(got.caster_level, Some(3), "magus 3, bard 1");
    assert_eq!(got.creature_type.as_deref(), Some("outsider"));
}

#[test]
fn the_gunslinger_sheet_converts_to_tammara() {
    let i = import("gunslinger");
    assert_eq!(differences(&i.combatant, &shipped("pcs/tammara.json")), Vec::<String>::new());
    for deed in ["Deed (Up Close and Deadly)", "Deed (Quick Clear)", "Deed (Gunslinger Initiative)", "Grit"] {
        assert!(i.combatant.has_feature(deed), "{deed}");
    }
    assert_listed(
        &i,
        "class \"Nimble\": not in the feature catalogue (data/feats.json): its numeric changes are applied",
    );
    assert_listed(&i, "class \"Gunsmith\"");
}

#[test]
fn the_fighter_sheet_converts_to_harvie_with_the_bows_strength_rating() {
    let i = import("fighter");
    assert_eq!(differences(&i.combatant, &shipped("pcs/harvie.json")), Vec::<String>::new());
    assert_listed(
        &i,
        "change of \"Bravery\": will \"ceil(@classes.fighter.level / 4)\": its formula is not a number",
    );
    assert_listed(&i, "weapon \"Dagger\": not equipped at export");
    assert_listed(&i, "buff \"Haste\": inactive");
}

#[test]
fn the_cavalier_sheet_converts_to_esha_with_its_active_buff() {
    let i = import("cavalier");
    let mut esha = shipped("pcs/esha.json");
    // The sheet was exported under an active Shield of Faith: +2 deflection.
    esha.ac.total += 2;
    esha.ac.touch += 2;
    esha.ac.flat_footed += 2;
    esha.cmd = esha.cmd.map(|c| c + 2);
    assert_eq!(differences(&i.combatant, &esha), Vec::<String>::new());
    let lance = i.combatant.attacks.iter().find(|a| a.name == "lance").expect("lance");
    assert!(lance.reach_weapon && lance.two_handed);
    // The order is in the catalogue since pf1e-rules-9; the mount is not a feature.
    assert!(i.combatant.has_feature("Order of the Lion"));
    assert_listed(&i, "class \"Mount\"");
}

#[test]
fn the_npc_sheet_converts_to_the_bestiary_orc() {
    let i = import("npc-warrior");
    let got = &i.combatant;
    assert_eq!(differences(got, &shipped("monsters/orc.json")), Vec::<String>::new());
    assert!(!got.is_pc());
    assert_eq!((got.cr.as_deref(), got.alignment.as_str()), (Some("1/3"), "CE"));
    assert_listed(&i, "weapon \"Javelin\": not equipped at export");
}

#[test]
fn the_converted_file_round_trips_through_the_engines_loader() {
    for name in ["cleric", "witch", "magus", "gunslinger", "fighter", "cavalier", "npc-warrior"] {
        let i = import(name);
        let text = serde_json::to_string_pretty(&i.combatant).unwrap();
        let again =
            pf1e_engine::model::parse_combatant(&text, "out.json").unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(again, i.combatant, "{name}");
        assert!(!i.unmapped.is_empty(), "{name}: every sheet has something the format does not carry");
    }
}

fn error_of(text: &str) -> String {
    match convert(text, "bad.json", ClassTable::builtin().unwrap(), &SpellBook::default()) {
        Err(e @ Error::Json { .. }) | Err(e @ Error::Build { .. }) => e.to_string(),
        Ok(_) => panic!("accepted: {text}"),
    }
}

#[test]
fn a_broken_sheet_is_one_error_naming_the_file_and_the_json_path() {
    assert!(error_of("{").starts_with("bad.json: $: not JSON: "));
    assert_eq!(error_of("[]"), "bad.json: $: expected an actor object, found an array");
    assert_eq!(
        error_of(r#"{"name": "X", "type": "vehicle", "system": {}}"#),
        r#"bad.json: $.type: "vehicle" is not a character or npc actor"#
    );
    assert_eq!(
        error_of(r#"{"name": "X", "type": "npc"}"#),
        "bad.json: $.system: missing: the actor's data (a pf1 export has `system`)"
    );
    let sheet = fixture_text("fighter");
    let mut v: serde_json::Value = serde_json::from_str(&sheet).unwrap();
    v["items"][1]["system"]["level"] = serde_json::json!("four");
    assert_eq!(
        error_of(&v.to_string()),
        r#"bad.json: $.items[1].system.level: expected a whole number, found "four""#
    );
    v["items"][1]["system"]["level"] = serde_json::json!(4);
    v["system"]["abilities"]["str"]["value"] = serde_json::json!(99);
    assert_eq!(
        error_of(&v.to_string()),
        "bad.json: $.system.abilities.str.value: 99 is not an ability score (0 to 60)"
    );
    v["system"]["abilities"]["str"]["value"] = serde_json::json!(14);
    v["items"] = serde_json::json!([]);
    assert!(error_of(&v.to_string()).starts_with("bad.json: $.items: no class item"));
}
