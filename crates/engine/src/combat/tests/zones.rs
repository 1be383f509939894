//! Lasting areas (zones): effects when the area appears, on a creature that
//! moves in, each round on the caster's turn; fog concealment; difficult
//! terrain; the end of the duration.

use std::collections::BTreeMap;
use std::sync::Arc;

use serde_json::json;

use super::support::*;
use crate::combat::SimOptions;
use crate::combat::action::{Action, ActionKind};
use crate::combat::prepared::PreparedEncounter;
use crate::effects::ConditionId as C;
use crate::map::Pos;

fn dummy(name: &str) -> crate::model::Combatant {
    creature(name, json!({ "hp_max": 50, "saves": { "fort": 0, "ref": 0, "will": 0 }, "attacks": [] }))
}

fn wizard(spells: &[&str]) -> crate::model::Combatant {
    caster("Wizard", spells, json!({ "spell_list": "wizard" }))
}

/// The shipped spells plus a zone that sickens on appearing, on entering
/// and each round (Fort negates), to exercise every trigger.
fn library_with_test_zone() -> Arc<crate::library::Library> {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../data/spells");
    let mut book = crate::spell::load_spell_dir(&root).expect("shipped spells");
    let sicken = json!({ "condition": { "conditions": ["sickened"] }, "save": "negates",
                         "duration": { "unit": "rounds", "amount": 1 } });
    let spell = json!({
        "name": "Sickening Test Cloud", "summary": "test zone", "source": "test", "levels": { "wizard": 1 },
        "school": "conjuration", "components": ["V"], "cast_time": "standard", "range": "medium",
        "area": { "shape": "sphere", "spread": "spread", "radius_ft": 10 },
        "duration": { "unit": "rounds", "amount": 3 },
        "saving_throw": { "kind": "fort", "outcome": "negates" }, "spell_resistance": false,
        "effects": [{ "zone": { "on_appear": [sicken], "on_enter": [sicken], "each_round": [sicken] } }]
    });
    let spell =
        crate::spell::parse_spell(&spell.to_string(), "sickening_test_cloud.json").expect("test spell");
    book.insert("sickening_test_cloud.json", spell).expect("new spell");
    Arc::new(crate::library::Library::new(book, BTreeMap::new()))
}

fn prepare_with(
    library: Arc<crate::library::Library>,
    placed: Vec<(&str, crate::model::Combatant, Pos)>,
) -> PreparedEncounter {
    PreparedEncounter::new(&encounter(arena(8, 20), placed).with_library(library)).expect("prepared")
}

#[test]
fn a_zone_meets_creatures_when_it_appears_when_they_enter_and_each_round_until_it_ends() {
    let prep = prepare_with(
        library_with_test_zone(),
        vec![
            ("a", wizard(&["Sickening Test Cloud"]), at(1, 1)),
            ("b", dummy("Inside"), at(4, 10)),
            ("b", dummy("Walker"), at(4, 16)),
            ("b", dummy("Lucky"), at(4, 11)),
        ],
    );
    let spell = prep.spell_index("Sickening Test Cloud").unwrap();
    let mut cast = Action::cast(spell, None);
    cast.destination = Some(at(4, 10));
    // Appearing: Inside fails (1), Lucky saves (20). Walker enters: fails (1).
    // Each round on the caster's turn: Inside 20, Walker 20, Lucky fails (1).
    let mut b = Bench::new(&[1, 20, 1, 20, 20, 1]);
    let mut e = b.engine(&prep, &SimOptions::default());
    turn(&mut e, 0, vec![cast]);
    assert_eq!(e.st.zones.len(), 1);
    assert!(e.st.has_condition(1, C::Sickened), "failed the save when the zone appeared");
    assert!(!e.st.has_condition(3, C::Sickened), "made the save");
    assert!(!e.st.has_condition(2, C::Sickened), "outside the area");
    turn(&mut e, 2, vec![Action::new(ActionKind::Move).with_destination(at(4, 12))]);
    assert_eq!(e.st.pos(2), at(4, 12));
    assert!(e.st.has_condition(2, C::Sickened), "failed the save on entering");
    e.st.round += 1;
    turn(&mut e, 0, vec![]);
    assert!(e.st.has_condition(3, C::Sickened), "failed the save of the caster's next turn");
    // Three rounds after the cast (round 1), the area is gone at the start of the caster's turn.
    e.st.round = 4;
    turn(&mut e, 0, vec![]);
    assert!(e.st.zones.is_empty(), "the duration ran out");
}

#[test]
fn fog_gives_concealment_at_five_feet_and_total_concealment_beyond() {
    let prep = prepare_magic(
        arena(8, 20),
        vec![
            ("a", wizard(&["Obscuring Mist"]), at(4, 4)),
            ("b", dummy("Adjacent"), at(4, 5)),
            ("b", dummy("Inside"), at(4, 7)),
            ("b", dummy("Outside"), at(4, 16)),
        ],
    );
    let mist = prep.spell_index("Obscuring Mist").unwrap();
    let mut b = Bench::new(&[]);
    let mut e = b.engine(&prep, &SimOptions::default());
    assert_eq!(e.st.miss_chance(1, 0, true), 0, "no zone, no concealment");
    assert_eq!(e.st.miss_chance(3, 2, false), 0);
    turn(&mut e, 0, vec![Action::cast(mist, None)]);
    assert_eq!(e.st.zones.len(), 1);
    assert_eq!(e.st.miss_chance(1, 0, true), 20, "5 ft away in the fog: concealment");
    assert_eq!(e.st.miss_chance(2, 0, false), 50, "15 ft away in the fog: total concealment");
    assert_eq!(e.st.miss_chance(3, 2, false), 50, "shooting into the fog");
    assert_eq!(e.st.miss_chance(2, 3, false), 50, "shooting out of the fog");
    assert!(!e.st.totally_concealed_from(1, 0), "an adjacent foe still makes attacks of opportunity");
}

#[test]
fn a_zone_of_difficult_terrain_doubles_movement_and_forbids_the_five_foot_step() {
    let prep = prepare_magic(
        arena(8, 20),
        vec![("a", wizard(&["Ice Storm"]), at(1, 1)), ("b", dummy("Walker"), at(4, 17))],
    );
    let storm = prep.spell_index("Ice Storm").unwrap();
    let mut cast = Action::cast(storm, None);
    cast.destination = Some(at(4, 6));
    let mut b = Bench::new(&[3; 10]);
    let mut e = b.engine(&prep, &SimOptions::default());
    assert!(e.st.can_step(1, at(4, 16)));
    assert!(!e.st.zone_difficult(at(4, 6), 1));
    turn(&mut e, 0, vec![cast]);
    assert!(e.st.zone_difficult(at(4, 6), 1));
    assert!(!e.st.zone_difficult(at(4, 17), 1));
    // Speed 30 toward a square 30 ft away: 5 ft a floor square, 10 ft a storm square.
    e.st.relocate(1, at(4, 14));
    let (mut cost, mut expected) = (0, 14);
    for col in (8..14).rev() {
        let step = if e.st.zone_difficult(at(4, col), 1) { 10 } else { 5 };
        if cost + step > 30 {
            break;
        }
        cost += step;
        expected = col;
    }
    assert!(expected > 8, "the storm slows the walk");
    turn(&mut e, 1, vec![Action::new(ActionKind::Move).with_destination(at(4, 8))]);
    assert_eq!(e.st.pos(1), at(4, expected));
    e.st.fighters[1].turn.moved = false;
    e.st.fighters[1].turn.stepped = false;
    assert!(!e.st.can_step(1, at(4, expected - 1)), "no 5-foot step into difficult terrain");
}

#[test]
fn the_default_policy_casts_a_hindering_zone_even_on_one_enemy_and_never_on_an_ally() {
    use crate::combat::decide::Policy;
    use crate::combat::policy::DefaultPolicy;
    let brute = || creature("Brute", json!({ "hp_max": 30, "attacks": [melee("club", 5, "1d6+3")] }));
    // Where the wizard (row 0) centres the cloud on its turn, if it casts it.
    let plan = |placed: Vec<(&str, crate::model::Combatant, Pos)>| {
        let prep = prepare_with(library_with_test_zone(), placed);
        let spell = prep.spell_index("Sickening Test Cloud").unwrap();
        let mut b = Bench::new(&[]);
        let e = b.engine(&prep, &SimOptions::default());
        let mut out = Vec::new();
        DefaultPolicy.plan(&e.st, 0, &mut out);
        out.iter().find(|a| a.spell == Some(spell)).map(|a| a.destination.expect("a point"))
    };
    let wiz = || wizard(&["Sickening Test Cloud"]);
    assert!(
        plan(vec![("a", wiz(), at(1, 1)), ("b", brute(), at(4, 10)), ("b", brute(), at(4, 11))]).is_some()
    );
    // A zone that only hinders needs one enemy fewer than `area_min` (2):
    // a lone foe who hits hard enough for a sickening to beat the wizard's
    // charge with its sword.
    let ogre = || creature("Ogre", json!({ "hp_max": 30, "attacks": [melee("club", 5, "2d8+8")] }));
    assert!(plan(vec![("a", wiz(), at(1, 1)), ("b", ogre(), at(4, 10))]).is_some(), "a lone enemy is enough");
    // A friend beside the brutes: the cloud (10-ft radius on an open floor)
    // is centred where it spares the friend, two squares past the brutes.
    let point = plan(vec![
        ("a", wiz(), at(1, 1)),
        ("b", brute(), at(4, 10)),
        ("b", brute(), at(4, 11)),
        ("a", brute(), at(5, 10)),
    ]);
    let p = point.expect("a point that spares the friend");
    assert!(crate::grid::distance_ft(p, at(5, 10)) > 10, "the friend at (5,10) caught by a cloud at {p:?}");
    assert!(crate::grid::distance_ft(p, at(4, 10)) <= 10 && crate::grid::distance_ft(p, at(4, 11)) <= 10);
}

#[test]
fn stinking_cloud_nauseates_while_in_the_cloud_and_for_1d4_plus_1_rounds_after_leaving() {
    let prep = prepare_magic(
        arena(8, 20),
        vec![("a", wizard(&["Stinking Cloud"]), at(1, 1)), ("b", dummy("Victim"), at(4, 10))],
    );
    let cloud = prep.spell_index("Stinking Cloud").unwrap();
    let mut cast = Action::cast(cloud, None);
    cast.destination = Some(at(4, 10));
    // Fort 1 fails; once out of the cloud, 1d4 = 2: 3 rounds more.
    let mut b = Bench::new(&[1, 2]);
    let mut e = b.engine(&prep, &SimOptions::default());
    turn(&mut e, 0, vec![cast]);
    assert!(e.st.has_condition(1, C::Nauseated));
    assert_eq!(e.st.fighters[1].effects[0].rounds_left, None, "lasts while in the cloud");
    turn(&mut e, 1, vec![Action::new(ActionKind::Move).with_destination(at(4, 16))]);
    assert_eq!(e.st.pos(1), at(4, 16));
    assert!(e.st.has_condition(1, C::Nauseated), "still nauseated after leaving");
    assert_eq!(e.st.fighters[1].effects[0].rounds_left, Some(3));
}

/// The moves of Cloudkill in `events`: (round, new origin).
fn cloud_moves(events: &[crate::combat::event::Record]) -> Vec<(u32, Pos)> {
    use crate::combat::event::{Event, SpellEvent};
    events
        .iter()
        .filter_map(|r| match &r.event {
            Event::Spell { what: SpellEvent::ZoneMoves { to }, .. } => Some((r.round, *to)),
            _ => None,
        })
        .collect()
}

fn cloudkill_at(prep: &PreparedEncounter, p: Pos) -> Action {
    let mut a = Action::cast(prep.spell_index("Cloudkill").expect("spell"), None);
    a.destination = Some(p);
    a
}

#[test]
fn cloudkill_rolls_ten_feet_a_round_away_from_its_caster_and_its_fog_goes_with_it() {
    let wiz = caster("Wizard", &["Cloudkill"], json!({ "spell_list": "wizard", "level": 9, "hp_max": 60 }));
    // A probe 40 ft beyond the point of origin: outside the 20-ft cloud when it
    // is cast and after its first roll (30 ft), inside after the second (20 ft).
    let probe = creature("Probe", json!({ "hp_max": 500, "attacks": [] }));
    let prep = prepare_magic(arena(10, 30), vec![("a", wiz, at(5, 1)), ("b", probe, at(5, 18))]);
    // Ones: a failed save, the least of any die (the probe's fate in the cloud is not under test).
    let mut b = Bench::new(&[1; 40]);
    let mut e = b.engine(&prep, &SimOptions::default());
    turn(&mut e, 0, vec![cloudkill_at(&prep, at(5, 10))]);
    assert_eq!(e.st.zone_miss_chance(0, 1), 0, "40 ft from the origin: outside");
    e.start_round();
    turn(&mut e, 0, vec![]);
    assert_eq!(e.st.zone_miss_chance(0, 1), 0, "origin (5, 12), 30 ft: outside");
    e.start_round();
    turn(&mut e, 0, vec![]);
    assert_eq!(
        e.st.zone_miss_chance(0, 1),
        50,
        "origin (5, 14), 20 ft: in the fog, total concealment at 75 ft"
    );
    drop(e);
    assert_eq!(cloud_moves(&b.events), [(2, at(5, 12)), (3, at(5, 14))]);
}

#[test]
fn cloudkill_stops_at_a_wall_and_rolls_along_a_diagonal() {
    let wiz =
        || caster("Wizard", &["Cloudkill"], json!({ "spell_list": "wizard", "level": 9, "hp_max": 60 }));
    let probe = || creature("Probe", json!({ "hp_max": 500, "attacks": [] }));
    // Column 31 is the arena's wall: from (5, 29) the next origin is on it.
    let prep = prepare_magic(arena(10, 30), vec![("a", wiz(), at(5, 1)), ("b", probe(), at(9, 2))]);
    let mut b = Bench::new(&[1; 40]);
    let mut e = b.engine(&prep, &SimOptions::default());
    turn(&mut e, 0, vec![cloudkill_at(&prep, at(5, 27))]);
    for _ in 2..=4 {
        e.start_round();
        turn(&mut e, 0, vec![]);
    }
    drop(e);
    assert_eq!(cloud_moves(&b.events), [(2, at(5, 29))]);
    // Diagonal: (1, 1) toward (9, 9) rolls 10 ft, 1.41 squares on each axis: one square.
    let prep = prepare_magic(arena(20, 20), vec![("a", wiz(), at(1, 1)), ("b", probe(), at(19, 2))]);
    let mut b = Bench::new(&[1; 40]);
    let mut e = b.engine(&prep, &SimOptions::default());
    turn(&mut e, 0, vec![cloudkill_at(&prep, at(9, 9))]);
    for _ in 2..=3 {
        e.start_round();
        turn(&mut e, 0, vec![]);
    }
    drop(e);
    assert_eq!(cloud_moves(&b.events), [(2, at(10, 10)), (3, at(12, 12))]);
}

#[test]
fn two_overlapping_areas_of_one_spell_work_on_a_creature_once_a_round() {
    // Two Cloudkills on the same point (CRB "Combining Magic Effects": the
    // same spell does not stack): the 10-HD brute inside both loses 1d4
    // Constitution once a round, not twice.
    let wizard =
        caster("Wizard", &["Cloudkill"], json!({ "spell_list": "wizard", "level": 9, "hp_max": 60 }));
    let brute = creature(
        "Brute",
        json!({ "hp_max": 300, "level": 10, "speed_land_ft": 0, "attacks": [],
                "abilities": { "str_score": 10, "dex_score": 10, "con_score": 30,
                               "int_score": 10, "wis_score": 10, "cha_score": 10 } }),
    );
    let prep = prepare_magic(arena(9, 30), vec![("a", wizard, at(4, 1)), ("b", brute, at(4, 12))]);
    let spell = prep.spell_index("Cloudkill").expect("the spell");
    let cast = || {
        let mut a = Action::cast(spell, None);
        a.destination = Some(at(4, 12));
        a
    };
    let mut b = Bench::new(&[2; 400]);
    // The bench's engine starts in round 1.
    let mut e = b.engine(&prep, &SimOptions::default());
    assert!(e.execute_for_test(0, cast()).ok);
    assert!(e.execute_for_test(0, cast()).ok);
    assert_eq!(e.st.zones.len(), 2);
    for _ in 0..3 {
        e.start_round();
        turn(&mut e, 0, vec![]);
    }
    drop(e);
    let mut per_round: BTreeMap<u32, u32> = BTreeMap::new();
    for r in &b.events {
        if let crate::combat::event::Event::SpellEffect {
            who: 1,
            what: crate::combat::event::SpellEffectEvent::AbilityDamage { .. },
        } = &r.event
        {
            *per_round.entry(r.round).or_default() += 1;
        }
    }
    // Round 1: each casting's arrival (`on_appear`); then one a round
    // until the drifting clouds (10 ft a round) leave it behind.
    let expected: BTreeMap<u32, u32> = [(1, 2), (2, 1), (3, 1)].into();
    assert_eq!(per_round, expected, "{}", b.lines().join("\n"));
}
