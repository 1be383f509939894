//! Situational modifiers: range, high ground, touch and firearm AC, flanking, cover.

use serde_json::json;

use super::support::*;
use crate::combat::odds::{Situation, Swing};
use crate::combat::prepared::PreparedEncounter;
use crate::combat::{Reason, SimOptions};

fn target() -> crate::model::Combatant {
    creature("Target", json!({ "hp_max": 50, "ac": { "total": 16, "touch": 12, "flat_footed": 14 } }))
}

fn situation(prep: &PreparedEncounter, a: usize, w: usize, t: usize) -> Situation {
    let mut b = Bench::new(&[]);
    let e = b.engine(prep, &SimOptions::default());
    e.st.situation(a, w, t, Swing::default())
}

#[test]
fn range_penalty_per_full_increment_beyond_the_first() {
    let weapons = json!([ranged("bow", 5, "1d6", 10),
        { "name": "ray", "kind": "touch", "attack_bonus": 5, "range_increment_ft": 10,
          "damage": [{ "formula": "1d6", "types": ["fire"] }] }]);
    let shooter = creature("Archer", json!({ "attacks": weapons }));
    let prep = prepare(arena(1, 30), vec![("a", shooter, at(1, 1)), ("b", target(), at(1, 2))]);
    let mut b = Bench::new(&[]);
    let mut e = b.engine(&prep, &SimOptions::default());
    for (col, penalty) in [(2, 0), (3, 0), (4, 2), (5, 2), (6, 4), (11, 8)] {
        e.st.relocate(1, at(1, col));
        let s = e.st.situation(0, 0, 1, Swing::default());
        assert_eq!((s.range_penalty, s.attack), (penalty, 5 - penalty), "target at {col}");
    }
    // A ranged weapon reaches 10 increments, a ranged touch attack 5.
    e.st.relocate(1, at(1, 11));
    assert!(e.st.weapon_reaches(0, 1, 1, at(1, 1)), "50 ft");
    e.st.relocate(1, at(1, 12));
    assert!(e.st.weapon_reaches(0, 0, 1, at(1, 1)), "55 ft");
    assert!(!e.st.weapon_reaches(0, 1, 1, at(1, 1)), "55 ft");
    e.st.relocate(1, at(1, 21));
    assert!(e.st.weapon_reaches(0, 0, 1, at(1, 1)), "100 ft");
    e.st.relocate(1, at(1, 22));
    assert_eq!(e.st.weapon_for(0, 1, at(1, 1)), Err(Reason::OutOfRange));
}

#[test]
fn touch_attacks_and_firearms_target_touch_ac() {
    let weapons = json!([
        { "name": "shocking grasp", "kind": "touch", "attack_bonus": 1, "damage": [{ "formula": "1d6", "types": ["electricity"] }] },
        { "name": "pistol", "kind": "ranged", "attack_bonus": 1, "firearm": true, "range_increment_ft": 20,
          "damage": [{ "formula": "1d8", "types": ["bludgeoning", "piercing"] }] },
        ranged("bow", 1, "1d6", 60)
    ]);
    let prep = prepare(
        arena(1, 10),
        vec![
            ("a", creature("Gunslinger", json!({ "attacks": weapons })), at(1, 1)),
            ("b", target(), at(1, 2)),
        ],
    );
    let mut b = Bench::new(&[]);
    let mut e = b.engine(&prep, &SimOptions::default());
    let ac = |e: &crate::combat::engine::Engine<'_, '_, _>, w: usize| {
        let s = e.st.situation(0, w, 1, Swing::default());
        (s.touch, s.ac)
    };
    assert_eq!(ac(&e, 0), (true, 12));
    assert_eq!(ac(&e, 1), (true, 12));
    assert_eq!(ac(&e, 2), (false, 16));
    // 20 ft is still the first increment; 25 ft is not.
    e.st.relocate(1, at(1, 5));
    assert_eq!(ac(&e, 1), (true, 12));
    e.st.relocate(1, at(1, 6));
    assert_eq!(ac(&e, 1), (false, 16));
    // A firearm reaches 5 increments (100 ft here), a bow 10.
    assert_eq!(prep.fighters[0].offense.attacks[1].max_range_ft, 100);
    assert_eq!(prep.fighters[0].offense.attacks[2].max_range_ft, 600);
    // The melee touch attack is melee: it gets no range penalty and is not ranged.
    assert!(prep.fighters[0].offense.attacks[0].melee);
    assert!(!prep.fighters[0].offense.attacks[1].melee);
}

#[test]
fn high_ground_helps_melee_only() {
    let m = map_with(&["######", "#....#", "######"], Some(&["......", ".11...", "......"]));
    let weapons = json!([melee("spear", 3, "1d8"), ranged("sling", 3, "1d4", 50)]);
    let prep = prepare(
        m,
        vec![("a", creature("Hero", json!({ "attacks": weapons })), at(1, 2)), ("b", target(), at(1, 3))],
    );
    let up = situation(&prep, 0, 0, 1);
    assert!(up.high_ground);
    assert_eq!(up.attack, 4);
    assert_eq!(situation(&prep, 0, 1, 1).attack, 3, "ranged: no high ground");
    assert!(!situation(&prep, 1, 0, 0).high_ground, "lower attacker");
    let level = prepare(
        map_with(&["######", "#....#", "######"], Some(&["......", ".11...", "......"])),
        vec![("a", creature("Hero", json!({ "attacks": weapons })), at(1, 2)), ("b", target(), at(1, 1))],
    );
    assert!(!situation(&level, 0, 0, 1).high_ground, "same height");
}

#[test]
fn flanking_needs_an_able_ally_threatening_from_the_other_side() {
    let archer = creature("Archer", json!({ "attacks": [ranged("bow", 0, "1d6", 30)] }));
    let prep = prepare(
        arena(5, 5),
        vec![
            ("a", creature("Hero", json!({})), at(3, 2)),
            ("b", target(), at(3, 3)),
            ("a", creature("Friend", json!({})), at(3, 4)),
            ("a", archer, at(5, 5)),
        ],
    );
    let mut b = Bench::new(&[]);
    let mut e = b.engine(&prep, &SimOptions::default());
    let s = e.st.situation(0, 0, 1, Swing::default());
    assert!(s.flank);
    assert_eq!(s.attack, 2);
    // Diagonal but not opposite: no flank.
    e.st.relocate(2, at(2, 4));
    assert!(!e.st.flanked(0, 1));
    e.st.relocate(2, at(2, 2));
    assert!(!e.st.flanked(0, 1));
    // Opposite corner flanks.
    e.st.relocate(0, at(4, 2));
    e.st.relocate(2, at(2, 4));
    assert!(e.st.flanked(0, 1));
    // An ally that cannot act does not flank.
    e.st.fighters[2].hp = -1;
    assert!(!e.st.flanked(0, 1));
    e.st.fighters[2].hp = 10;
    // An ally with only a ranged weapon threatens nothing.
    e.st.relocate(2, at(1, 1));
    e.st.relocate(3, at(2, 4));
    assert!(!e.st.flanked(0, 1));
    // Ranged attacks never flank.
    e.st.relocate(3, at(5, 5));
    e.st.relocate(2, at(2, 4));
    e.st.relocate(0, at(5, 1));
    assert!(!e.st.situation(3, 0, 1, Swing::default()).flank);
}

#[test]
fn terrain_cover_and_soft_cover() {
    let m = map(&["#########", "#...C...#", "#.......#", "#########"]);
    let weapons = json!([melee("sword", 0, "1d6"), ranged("bow", 0, "1d6", 60)]);
    let prep = prepare(
        m,
        vec![
            ("a", creature("Hero", json!({ "attacks": weapons })), at(1, 2)),
            ("b", target(), at(1, 6)),
            ("b", creature("Other", json!({})), at(2, 7)),
        ],
    );
    let mut b = Bench::new(&[]);
    let mut e = b.engine(&prep, &SimOptions::default());
    // The pillar at (1,4) stands between them.
    let s = e.st.situation(0, 1, 1, Swing::default());
    assert_eq!((s.cover, s.ac), (4, 20));
    // A creature in between gives soft cover against ranged attacks only.
    e.st.relocate(0, at(2, 1));
    e.st.relocate(1, at(2, 5));
    e.st.relocate(2, at(2, 3));
    assert_eq!(e.st.situation(0, 1, 1, Swing::default()).cover, 4);
    e.st.fighters[2].hp = -3;
    assert_eq!(e.st.situation(0, 1, 1, Swing::default()).cover, 0, "a fallen creature gives no cover");
    e.st.fighters[2].hp = 10;
    e.st.relocate(0, at(2, 4));
    assert_eq!(e.st.situation(0, 0, 1, Swing::default()).cover, 0, "melee ignores creatures");
}

#[test]
fn untabulated_maps_compute_line_of_effect_and_cover_on_demand() {
    let mut rows = vec!["#".repeat(42)];
    for r in 0..38 {
        let mut row: Vec<char> = format!("#{}#", ".".repeat(40)).chars().collect();
        if r % 7 == 3 {
            for c in (5..35).step_by(4) {
                row[c] = if c % 8 == 1 { 'C' } else { '#' };
            }
        }
        rows.push(row.into_iter().collect());
    }
    rows.push("#".repeat(42));
    let refs: Vec<&str> = rows.iter().map(String::as_str).collect();
    let m = map(&refs);
    let prep = prepare(
        m.clone(),
        vec![("a", creature("A", json!({})), at(1, 1)), ("b", creature("B", json!({})), at(2, 2))],
    );
    let mut checked = 0;
    // A few sources (each fills one row of the cache), many targets.
    let sources = [at(1, 1), at(20, 20), at(37, 40), at(8, 33)];
    for (a, b) in (0..400).map(|k: i32| (sources[k as usize % 4], at(1 + k * 13 % 38, 1 + k * 3 % 40))) {
        assert_eq!(prep.line_of_effect(a, b), crate::los::has_line_of_effect(&m, a, b), "{a} {b}");
        // Cover only matters with line of effect.
        if crate::los::has_line_of_effect(&m, a, b) {
            assert_eq!(
                prep.terrain_cover(a, b, false),
                crate::los::terrain_cover(&m, a, b, false),
                "{a} {b}"
            );
            checked += usize::from(crate::los::terrain_cover(&m, a, b, false) > 0);
        }
    }
    assert!(checked > 5, "some pairs have cover: {checked}");
}
