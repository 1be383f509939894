//! The shipped bestiary (`data/monsters/`): every file loads, keeps the
//! bestiary's conventions, is listed in `docs/bestiary.md`, and plays.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use pf1e_engine::combat::{PreparedEncounter, SimOptions};
use pf1e_engine::encounter::{Encounter, SideSpec};
use pf1e_engine::map::Map;
use pf1e_engine::model::{Combatant, Feature, load_combatant};
use pf1e_engine::runner::{run_batch_prepared, run_with_transcript};

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// Every `data/monsters/*.json`, by file stem, in name order.
fn monsters() -> BTreeMap<String, Combatant> {
    let dir = repo().join("data/monsters");
    let mut out = BTreeMap::new();
    for entry in std::fs::read_dir(&dir).expect("data/monsters") {
        let path = entry.expect("directory entry").path();
        if path.extension().and_then(|e| e.to_str()) != Some("json") {
            continue;
        }
        let stem = path.file_stem().and_then(|s| s.to_str()).expect("utf-8 file name").to_string();
        let c = load_combatant(&path).unwrap_or_else(|e| panic!("{e}"));
        out.insert(stem, c);
    }
    out
}

/// The rows of the table under "## The monsters" in `docs/bestiary.md`:
/// file stem → CR as written.
fn documented() -> BTreeMap<String, String> {
    let text = std::fs::read_to_string(repo().join("docs/bestiary.md")).expect("docs/bestiary.md");
    let section = text.split("\n## The monsters\n").nth(1).expect("a '## The monsters' section");
    let section = section.split("\n## ").next().unwrap_or(section);
    let mut out = BTreeMap::new();
    for line in section.lines() {
        let Some(rest) = line.strip_prefix("| `") else { continue };
        let cells: Vec<&str> = rest.split('|').map(str::trim).collect();
        let file = cells[0].trim_end_matches('`');
        let stem = file
            .strip_suffix(".json")
            .unwrap_or_else(|| panic!("row {line:?}: first cell is not a .json file"));
        assert!(out.insert(stem.to_string(), cells[2].to_string()).is_none(), "{stem} is listed twice");
    }
    out
}

/// The "Played" and "Not played" cells of each row of the table in
/// `docs/bestiary.md`: file stem → (played names, not-played names).
fn documented_abilities() -> BTreeMap<String, (Vec<String>, Vec<String>)> {
    let text = std::fs::read_to_string(repo().join("docs/bestiary.md")).expect("docs/bestiary.md");
    let section = text.split("\n## The monsters\n").nth(1).expect("a '## The monsters' section");
    let section = section.split("\n## ").next().unwrap_or(section);
    let names = |cell: &str| -> Vec<String> {
        cell.split(", ").map(str::trim).filter(|n| !n.is_empty() && *n != "—").map(String::from).collect()
    };
    let mut out = BTreeMap::new();
    for line in section.lines() {
        let Some(rest) = line.strip_prefix("| `") else { continue };
        let cells: Vec<&str> = rest.split('|').map(str::trim).collect();
        let stem = cells[0].trim_end_matches('`').trim_end_matches(".json").to_string();
        out.insert(stem, (names(cells[4]), names(cells[5])));
    }
    out
}

/// Every special ability of every file is either played (an entry of
/// `special_abilities`, or a catalogue rule or modifiers) or listed as not played, and
/// the table says which: nothing is dropped silently.
#[test]
fn every_special_ability_is_played_or_listed_as_not_played() {
    let catalog = pf1e_engine::feats::FeatCatalog::builtin().expect("catalogue");
    let doc = documented_abilities();
    for (stem, c) in monsters() {
        let (played_doc, not_played_doc) =
            doc.get(&stem).unwrap_or_else(|| panic!("{stem} not in the table"));
        let played: Vec<String> = c.special_abilities.iter().map(|a| a.name().to_string()).collect();
        assert_eq!(&played, played_doc, "{stem}: the Played column differs from special_abilities");
        let resolved = pf1e_engine::feats::resolve(&c, catalog).expect("resolves");
        for (f, r) in c.features.iter().zip(&resolved.features) {
            let Feature::Detailed(d) = f else { continue };
            // A catalogue rule or catalogue modifiers (the hound archon's
            // magic circle against evil) play it.
            let catalogue = r.rule.is_some() || !r.in_play.is_empty();
            if !matches!(d.category.as_deref(), Some("special" | "class")) || catalogue {
                continue;
            }
            let is_played = played.contains(&d.name);
            let listed = not_played_doc.contains(&d.name);
            assert!(is_played != listed, "{stem}: {} must be either played or listed as not played", d.name);
        }
    }
}

/// Every name of the "Not played" column has a row in the reasons table of
/// `docs/bestiary.md` (why it cannot matter in a battle, or which gap it
/// is), and every row there names an ability of the column.
#[test]
fn every_ability_not_played_says_why() {
    let text = std::fs::read_to_string(repo().join("docs/bestiary.md")).expect("docs/bestiary.md");
    let block = text
        .split("<!-- reasons -->")
        .nth(1)
        .and_then(|b| b.split("<!-- /reasons -->").next())
        .expect("a <!-- reasons --> table");
    let mut reasons = BTreeMap::new();
    for line in block.lines().filter(|l| l.starts_with("| ") && !l.starts_with("| Ability")) {
        let cells: Vec<&str> =
            line.split(" | ").map(|c| c.trim_matches(|ch| ch == '|' || ch == ' ')).collect();
        assert!(cells.len() >= 2 && !cells[1].is_empty(), "a reason row without a reason: {line}");
        reasons.insert(cells[0].to_string(), cells[1].to_string());
    }
    let mut used = std::collections::BTreeSet::new();
    for (stem, (_, not_played)) in documented_abilities() {
        for name in not_played {
            assert!(
                reasons.contains_key(&name),
                "{stem}: {name:?} is not played and docs/bestiary.md says not why"
            );
            used.insert(name);
        }
    }
    for name in reasons.keys() {
        assert!(
            used.contains(name),
            "docs/bestiary.md gives a reason for {name:?}, which no file leaves unplayed"
        );
    }
}

/// Files kept as they were before the bestiary, as the reference encounters.
const REFERENCE: [&str; 6] = ["goblin", "ogre", "ogre_spearman", "orc", "skeleton", "wolf"];

#[test]
fn the_bestiary_holds_the_campaign_monsters_the_summons_and_at_least_forty_srd_monsters() {
    let all = monsters();
    for name in ["lich", "thrune_agent", "celestial_wolf"] {
        assert!(all.contains_key(name), "data/monsters/{name}.json is missing");
    }
    let summons =
        all.values().filter(|c| c.source.as_deref().is_some_and(|s| s.contains("Summon Monster"))).count();
    assert!(summons >= 15, "only {summons} Summon Monster creatures");
    // The bestiary proper: SRD monsters of CR 1/3 to 12 that are neither summons, nor the
    // campaign's NPCs, nor the reference encounters that were there before.
    let in_range = |cr: &str| match cr {
        "1/3" | "1/2" => true,
        _ => cr.parse::<u32>().is_ok_and(|n| (1..=12).contains(&n)),
    };
    let bestiary = all
        .iter()
        .filter(|(stem, c)| {
            !["lich", "thrune_agent"].contains(&stem.as_str())
                && !REFERENCE.contains(&stem.as_str())
                && !c.source.as_deref().is_some_and(|s| s.contains("Summon Monster"))
                && c.cr.as_deref().is_some_and(in_range)
        })
        .count();
    assert!(bestiary >= 40, "only {bestiary} bestiary monsters of CR 1/3 to 12");
}

#[test]
fn every_monster_file_follows_the_bestiary_conventions() {
    for (stem, c) in monsters() {
        assert!(!c.is_pc(), "{stem}: a monster must not carry role pc");
        assert!(c.source.as_deref().is_some_and(|s| !s.trim().is_empty()), "{stem}: no source");
        assert!(c.cr.is_some(), "{stem}: no cr");
        if REFERENCE.contains(&stem.as_str()) {
            continue;
        }
        assert!(c.notes.as_deref().is_some_and(|n| !n.trim().is_empty()), "{stem}: no notes");
        assert!(c.creature_type.is_some(), "{stem}: no creature_type");
        for f in &c.features {
            if let Feature::Detailed(d) = f {
                let category = d
                    .category
                    .as_deref()
                    .unwrap_or_else(|| panic!("{stem}: feature {} has no category", d.name));
                assert!(
                    ["special", "sense", "movement", "class", "racial", "feat"].contains(&category),
                    "{stem}: feature {} has category {category:?}",
                    d.name
                );
                if category == "special" {
                    assert!(
                        d.notes.as_deref().is_some_and(|n| n.len() > 10),
                        "{stem}: special ability {} does not say what it does",
                        d.name
                    );
                }
            }
        }
        // A weapon and natural attacks make one routine only when the file says so.
        let natural = c.attacks.iter().any(|a| a.natural);
        let weapon = c.attacks.iter().any(|a| !a.natural && a.kind == pf1e_engine::model::AttackKind::Melee);
        if natural && weapon && c.full_attack.is_empty() {
            assert!(
                c.has_feature("full attack routine") || c.has_feature("alternative routine"),
                "{stem}: a weapon and natural attacks but no full_attack routine nor a 'full attack routine' or 'alternative routine' feature saying why"
            );
        }
    }
}

#[test]
fn every_monster_file_is_in_the_bestiary_table_with_its_cr() {
    let files = monsters();
    let doc = documented();
    for (stem, c) in &files {
        let cr = doc.get(stem).unwrap_or_else(|| panic!("{stem}.json is not in docs/bestiary.md"));
        assert_eq!(
            Some(cr.as_str()),
            c.cr.as_deref(),
            "{stem}: CR in docs/bestiary.md differs from the file"
        );
    }
    for stem in doc.keys() {
        assert!(files.contains_key(stem), "docs/bestiary.md lists {stem}.json, which does not exist");
    }
}

fn arena() -> Arc<Map> {
    Arc::new(Map::load(&repo().join("data/maps/sample_arena.yaml")).expect("sample arena"))
}

/// The shipped spells and summonable creatures.
fn library() -> Arc<pf1e_engine::library::Library> {
    static LIBRARY: std::sync::OnceLock<Arc<pf1e_engine::library::Library>> = std::sync::OnceLock::new();
    LIBRARY
        .get_or_init(|| {
            let lib = pf1e_engine::library::load_library(
                &repo().join("data/spells"),
                &repo().join("data/monsters"),
            )
            .unwrap_or_else(|e| panic!("{e}"));
            Arc::new(lib)
        })
        .clone()
}

fn duel(map: &Arc<Map>, monster: &Combatant, foe: &Combatant) -> Encounter {
    Encounter::build(
        map.clone(),
        vec![
            SideSpec { name: "players".into(), combatants: vec![Arc::new(foe.clone())] },
            SideSpec { name: "monsters".into(), combatants: vec![Arc::new(monster.clone())] },
        ],
    )
    .unwrap_or_else(|e| panic!("{}: {e}", monster.name))
    .with_library(library())
}

/// Each monster fights an orc and then a copy of itself on the sample arena
/// (a Huge one on the field, whose zones hold its 15-ft space: the arena's
/// are two squares deep): the encounter prepares, every battle ends by the
/// round cap, and over a few battles the monster hits the orc at least once
/// (so its attack entries reach and roll damage), unless it won every one
/// by dominating the orc (a vampire: the lone orc then fights on its side).
#[test]
fn every_monster_plays_short_battles_against_an_orc_and_against_itself() {
    let (arena, field) = (arena(), Arc::new(Map::load(&repo().join("data/maps/field.yaml")).expect("field")));
    let all = monsters();
    let orc = &all["orc"];
    let options = SimOptions { round_cap: 20, ..SimOptions::default() };
    for (stem, monster) in &all {
        let map = if monster.size >= pf1e_engine::model::Size::Huge { &field } else { &arena };
        let vs_orc = duel(map, monster, orc);
        let prepared = PreparedEncounter::new(&vs_orc).unwrap_or_else(|e| panic!("{stem}: {e}"));
        let outcomes = run_batch_prepared(&prepared, &options, 12, 0..24);
        let me = vs_orc.combatants.iter().position(|d| d.side == 1).expect("monster deployed");
        for o in &outcomes {
            assert!(o.rounds >= 1 && o.rounds <= options.round_cap, "{stem}: {} rounds", o.rounds);
        }
        if !monster.attacks.is_empty() {
            let dealt: u32 = outcomes.iter().map(|o| o.combatants[me].damage_dealt).sum();
            let dominates = monster
                .special_abilities
                .iter()
                .any(|a| matches!(a, pf1e_engine::model::SpecialAbility::Dominate { .. }));
            let won = outcomes.iter().filter(|o| o.winner == Some(1)).count();
            assert!(
                dealt > 0 || (dominates && won == outcomes.len()),
                "{stem} never damaged the orc in {} battles",
                outcomes.len()
            );
        }
        let mirror = duel(map, monster, monster);
        let (outcome, transcript) = run_with_transcript(&mirror, &options, 7, 0);
        assert!(outcome.rounds >= 1, "{stem} against itself: no round played");
        assert!(!transcript.events.is_empty(), "{stem} against itself: empty transcript");
    }
}

#[test]
fn the_celestial_wolf_keeps_the_predecessors_numbers() {
    let wolf = &monsters()["celestial_wolf"];
    assert_eq!(wolf.hp_max, 13);
    assert_eq!(wolf.attacks.len(), 1);
    assert_eq!(wolf.attacks[0].name, "bite");
    assert_eq!(wolf.attacks[0].reach_ft, Some(5));
    assert!(wolf.attacks[0].natural);
    assert!(wolf.attacks.iter().all(|a| a.range_increment_ft.is_none()), "melee only");
}

#[test]
fn the_lich_is_the_bestiary_lich_with_its_prepared_spells() {
    let lich = &monsters()["lich"];
    assert_eq!((lich.hp_max, lich.level, lich.bab, lich.initiative_mod), (111, 11, 5, 2));
    assert_eq!(lich.abilities.int_score, Some(22), "the SRD's Int 22, not the predecessor's 20");
    assert_eq!(lich.abilities.str_score, 10);
    assert!(lich.destroyed_at_zero(), "undead");
    let dr = lich.dr.as_ref().expect("DR 15/bludgeoning and magic");
    assert_eq!(dr.amount, 15);
    assert_eq!(dr.bypass, ["bludgeoning", "magic"]);
    assert_eq!(lich.casting_ability, Some(pf1e_engine::model::CastingAbility::Int));
    for spell in ["Magic Missile", "Fireball", "Circle of Death", "Cone of Cold", "Scorching Ray"] {
        assert!(lich.spells.iter().any(|s| s == spell), "the lich has {spell} prepared");
    }
    assert_eq!(lich.spell_slots.get("6"), Some(&3));
    assert!(!lich.spell_slots.contains_key("0"), "cantrips are at will");
    for feature in ["Fear Aura (Lich)", "Paralyzing Touch (Lich)", "channel resistance"] {
        assert!(lich.has_feature(feature), "the lich names its {feature}");
    }
    let touch = &lich.attacks[0];
    assert_eq!((touch.attack_bonus, touch.damage[0].formula.as_str()), (5, "1d8+5"));
}

#[test]
fn the_thrune_agent_is_a_level_appropriate_caster() {
    let agent = &monsters()["thrune_agent"];
    let cr: u32 = agent.cr.as_deref().and_then(|c| c.parse().ok()).expect("a whole CR");
    assert!((4..=6).contains(&cr), "CR {cr} for a level-4 party");
    assert_eq!(agent.level, cr + 1, "a heroic NPC is CR level - 1");
    assert_eq!(agent.casting_ability, Some(pf1e_engine::model::CastingAbility::Wis));
    assert!(!agent.spells.is_empty() && !agent.spell_slots.is_empty());
    assert_eq!(agent.resources.get("channel_energy"), Some(&3));
}
