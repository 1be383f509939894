//! One battle test per bestiary file whose abilities are played
//! (`special_abilities`): the shipped file against two or three PCs on an
//! open arena, with the default policy, over a few seeds; the event stream
//! must show each ability used. The rules themselves are tested against
//! their closed forms in `monsters.rs`.

use serde_json::json;

use super::support::*;
use crate::combat::SimOptions;
use crate::combat::action::{Action, ActionKind};
use crate::combat::event::{AfflictionEvent, Event};

/// English transcripts of `runs` battles of the shipped `stem` against the
/// fighters of `party` (file paths from the repository root).
fn battles(stem: &str, party: &[&str], runs: u32) -> (String, Vec<Vec<String>>) {
    let mut placed = vec![("monsters", data_combatant(&format!("data/monsters/{stem}.json")), at(2, 2))];
    for (k, pc) in (0..).zip(party) {
        placed.push(("players", data_combatant(pc), at(2 + 2 * k, 7)));
    }
    let id = prepare_magic(arena(12, 16), placed.clone()).fighters[0].id.clone();
    (id, super::monsters::battles(|| placed.clone(), runs))
}

/// Asserts that some battle of `stem` shows every line fragment of `shows`
/// (`{id}` stands for the monster's id).
fn shows(stem: &str, party: &[&str], shows: &[&str]) {
    let (id, logs) = battles(stem, party, 80);
    for needle in shows {
        let needle = &needle.replace("{id}", &id);
        assert!(
            logs.iter().flatten().any(|l| l.contains(needle)),
            "{stem}: no battle shows {needle:?}; first battle:\n{}",
            logs[0].join("\n")
        );
    }
}

const PARTY: [&str; 3] = ["data/pcs/esha.json", "data/pcs/oni.json", "data/pcs/harvie.json"];
/// Two gnolls (Medium, CE, 11 hp, CMD 13): foes a small summon can hit,
/// grab and poison, and whose hit points make a smite worth it.
const GNOLLS: [&str; 2] = ["data/monsters/gnoll.json", "data/monsters/gnoll.json"];

#[test]
fn the_young_blue_green_and_red_dragons_breathe() {
    for stem in ["young_blue_dragon", "young_green_dragon", "young_red_dragon"] {
        shows(stem, &PARTY, &["breath weapon at"]);
    }
}

#[test]
fn the_griffon_pounces_with_a_full_attack_at_the_end_of_its_charge() {
    let (id, logs) = battles("griffon", &PARTY, 40);
    // A charge line followed by at least two of its attacks before anyone else acts.
    let pounced = logs.iter().any(|l| {
        l.iter().enumerate().any(|(k, x)| {
            x.contains(&format!("{id}: charge"))
                && l[k + 1..]
                    .iter()
                    .take_while(|y| y.contains(&format!(" {id}: ")))
                    .filter(|y| y.contains(" vs "))
                    .count()
                    >= 2
        })
    });
    assert!(pounced, "no pounce in 40 battles; first:\n{}", logs[0].join("\n"));
}

#[test]
fn poison_riders_poison_in_battle() {
    for stem in ["wyvern", "imp", "quasit", "bone_devil"] {
        shows(stem, &PARTY, &["is poisoned by poison"]);
    }
    for stem in ["fiendish_viper", "celestial_giant_ant"] {
        shows(stem, &GNOLLS, &["is poisoned by poison"]);
    }
    // Web spinners open with a web from afar (`web_spinners_web_their_foes`):
    // beside their foes from the start, they bite.
    for (stem, party) in [
        ("ettercap", &PARTY[..]),
        ("fiendish_giant_spider", &GNOLLS[..]),
        ("celestial_giant_spider", &GNOLLS[..]),
    ] {
        let mut placed = vec![("monsters", data_combatant(&format!("data/monsters/{stem}.json")), at(2, 6))];
        for (k, pc) in (0..).zip(party) {
            placed.push(("players", data_combatant(pc), at(2 + 2 * k, 7)));
        }
        let logs = super::monsters::battles(|| placed.clone(), 40);
        assert!(logs.iter().flatten().any(|l| l.contains("is poisoned by poison")), "{stem}: no poison");
    }
}

#[test]
fn web_spinners_web_their_foes() {
    shows("ettercap", &PARTY, &["{id}: ranged touch vs", "is affected by web"]);
    for stem in ["fiendish_giant_spider", "celestial_giant_spider"] {
        shows(stem, &GNOLLS, &["{id}: ranged touch vs", "is affected by web"]);
    }
}

#[test]
fn grabbing_monsters_grapple_on_a_hit() {
    for stem in ["wyvern", "chuul", "otyugh", "ochre_jelly", "shambling_mound"] {
        shows(stem, &PARTY, &["is grappled by {id}"]);
    }
    for stem in ["celestial_giant_ant", "celestial_leopard", "gibbering_mouther"] {
        shows(stem, &GNOLLS, &["is grappled by {id}"]);
    }
}

#[test]
fn grabbers_maintain_their_hold_and_constrict_or_rake_again_or_let_go() {
    for stem in ["chuul", "shambling_mound"] {
        shows(stem, &PARTY, &["is grappled by {id}", "{id}: maintains its hold on", "{id}: constrict on"]);
    }
    shows("celestial_leopard", &GNOLLS, &["{id}: maintains its hold on", "{id}: rake vs "]);
    shows("wyvern", &PARTY, &["{id}: maintains its hold on", "{id}: rake vs "]);
    shows("owlbear", &PARTY, &["is grappled by {id}", "{id}: lets go of"]);
}

#[test]
fn the_griffon_rakes_after_a_pounce_and_the_minotaur_charges_with_its_powerful_gore() {
    shows("griffon", &PARTY, &["{id}: rake vs "]);
    shows("minotaur", &PARTY, &["{id}: powerful charge vs "]);
}

#[test]
fn the_dark_nagas_sting_puts_a_foe_to_sleep() {
    // Its spells out (it casts rather than stings while it has them): the
    // shipped file's sting against the party, 40 battles.
    let mut naga = data_combatant("data/monsters/dark_naga.json");
    naga.spells.clear();
    naga.spell_slots.clear();
    let mut placed = vec![("monsters", naga, at(2, 2))];
    for (k, pc) in (0..).zip(PARTY) {
        placed.push(("players", data_combatant(pc), at(2 + 2 * k, 7)));
    }
    let logs = super::monsters::battles(|| placed.clone(), 40);
    assert!(
        logs.iter().flatten().any(|l| l.contains("falls asleep")),
        "no sleep in 40 battles; first:\n{}",
        logs[0].join("\n")
    );
}

#[test]
fn the_archons_menace_their_foes_until_they_are_hit() {
    // The hound archon fights in melee: its foes come within 20 ft (the
    // lantern archon flies and shoots from farther).
    shows("hound_archon", &PARTY, &["{id}'s aura of menace: menaced", ": aura of menace ends"]);
}

#[test]
fn fast_healing_and_regeneration_heal_at_the_start_of_a_turn() {
    shows("imp", &PARTY, &["{id}: heals 2 (hp"]);
    shows("quasit", &PARTY, &["{id}: heals 2 (hp"]);
    shows("vampire", &PARTY, &["{id}: heals 5 (hp"]);
    shows("ogre_mage", &PARTY, &["{id}: heals 5 (hp", "{id}: regeneration: the"]);
}

#[test]
fn the_vampire_drains_two_levels_a_slam() {
    // Scripted: the vampire casts spells in a battle; its slam is what drains.
    let prep = prepare_magic(
        arena(3, 6),
        vec![
            ("monsters", data_combatant("data/monsters/vampire.json"), at(1, 1)),
            ("players", creature("Foe", json!({ "level": 5, "hp_max": 60 })), at(1, 2)),
        ],
    );
    // Slam: d20 15 hits AC 10; 1d4+4 with a 2.
    let mut b = Bench::new(&[15, 2]);
    let mut e = b.engine(&prep, &SimOptions::default());
    turn(&mut e, 0, vec![Action::at(ActionKind::Attack, 1)]);
    assert_eq!(e.st.fighters[1].monster.negative_levels, 2);
    assert!(b.events.iter().any(|r| matches!(
        r.event,
        Event::Affliction { who: 1, what: AfflictionEvent::NegativeLevels { levels: 2, total: 2 } }
    )));
}

#[test]
fn the_gelatinous_cube_engulfs_and_paralyzes() {
    shows(
        "gelatinous_cube",
        &PARTY,
        &["{id}: paralysis on", "is paralyzed for", "is engulfed by {id}'s engulf"],
    );
}

#[test]
fn celestial_summons_smite_an_evil_foe_and_the_fiendish_viper_a_good_one() {
    for stem in ["celestial_dog", "celestial_leopard", "celestial_giant_ant", "celestial_wolverine"] {
        shows(stem, &GNOLLS, &["{id}: smites evil"]);
    }
    shows("fiendish_viper", &["data/pcs/oni.json"], &["{id}: smites good"]);
}

#[test]
fn the_celestial_wolverine_rages_once_wounded() {
    shows(
        "celestial_wolverine",
        &["data/monsters/orc.json", "data/monsters/orc.json"],
        &["{id}: is affected by rage"],
    );
}

#[test]
fn the_chuuls_tentacles_paralyze_the_foe_it_holds() {
    shows(
        "chuul",
        &PARTY,
        &["{id}: maintains its hold on", "{id}: paralytic tentacles on", "is paralyzed for 6 rounds"],
    );
}

#[test]
fn the_green_hag_saps_strength_and_the_bearded_devil_bleeds_and_beards() {
    shows("green_hag", &PARTY, &["{id}: weakness on", "takes 2 str damage"]);
    shows("bearded_devil", &PARTY, &["is bleeding (2 per turn)", "{id}: beard "]);
}

#[test]
fn the_gibbering_mouther_confuses_and_the_small_fire_elemental_burns() {
    shows("gibbering_mouther", &PARTY, &["{id}'s gibbering: confused"]);
    shows("small_fire_elemental", &GNOLLS, &["{id}: burn on", "catches fire ("]);
}

#[test]
fn the_lamias_touch_drains_wisdom_and_the_mouther_engulfs_and_drains_blood() {
    shows("lamia", &PARTY, &["{id}: wisdom drain on", "wis damage"]);
    shows("gibbering_mouther", &PARTY, &["{id}: engulf: swallows", "{id}: engulf on", "con damage"]);
}

#[test]
fn the_succubus_grapples_and_kisses_and_the_vampire_pins_and_drinks_from_a_foe_its_slam_misses() {
    shows(
        "succubus",
        &PARTY,
        &["grapple vs", "is grappled by {id}", "{id}: maintains its hold on", "{id}: energy drain on"],
    );
    // The vampire's slam (two negative levels a hit) pays more than its
    // blood drain against a foe it hits; against a knight its slam hits only
    // on a 20 (AC 40, CMD 11) it grapples, pins and drinks once its
    // spells are out (it casts while it has them).
    let mut vampire = data_combatant("data/monsters/vampire.json");
    vampire.spells.clear();
    vampire.spell_slots.clear();
    let knight = creature(
        "Knight",
        json!({ "level": 5, "hp_max": 200, "ac": { "total": 40, "touch": 10, "flat_footed": 40 } }),
    );
    let placed = vec![("monsters", vampire, at(2, 2)), ("players", knight, at(2, 7))];
    let logs = super::monsters::battles(|| placed.clone(), 20);
    for needle in ["vampire: pins knight", "vampire: blood drain on knight", "knight: takes"] {
        assert!(
            logs.iter().flatten().any(|l| l.contains(needle)),
            "no battle shows {needle:?}; first:\n{}",
            logs[0].join("\n")
        );
    }
}

#[test]
fn the_stone_golem_slows_and_the_clay_golem_hastes_itself() {
    shows("stone_golem", &PARTY, &["{id}: uses slow", "is affected by Slow for 7 rounds"]);
    shows("clay_golem", &PARTY, &["{id}: uses haste", "{id}: is affected by Haste for 3 rounds"]);
}

#[test]
fn the_elephant_tramples() {
    shows("elephant", &PARTY, &["{id}: trample", "{id}: trample on"]);
}

#[test]
fn the_rust_monster_rusts_armor_and_the_mouther_spits_blindness() {
    shows("rust_monster", &PARTY, &["{id}: rust on", "is broken (AC bonus", "target's rusted armor"]);
    shows(
        "gibbering_mouther",
        &PARTY,
        &["{id}: uses spittle", "{id}: ranged touch vs", "is affected by spittle"],
    );
}
