//! Size and space, reach, multi-square geometry (CRB "Big and Little Creatures in Combat").

use serde_json::json;

use super::support::*;
use crate::combat::SimOptions;
use crate::combat::action::{Action, ActionKind, ActionResult, Reason};
use crate::combat::state::EMPTY;

use ActionKind::*;

fn large(name: &str, attacks: serde_json::Value) -> crate::model::Combatant {
    creature(name, json!({ "size": "Large", "hp_max": 40, "attacks": attacks }))
}

fn longspear(bonus: i32) -> serde_json::Value {
    json!({ "name": "longspear", "kind": "melee", "attack_bonus": bonus, "reach_weapon": true,
            "damage": [{ "formula": "1d8", "types": ["piercing"] }], "crit_mult": 3 })
}

#[test]
fn a_large_creature_takes_up_four_squares() {
    let prep = prepare(
        arena(6, 6),
        vec![
            ("a", large("Ogre", json!([melee("club", 0, "1d8")])), at(1, 1)),
            ("b", creature("Man", json!({})), at(4, 4)),
        ],
    );
    let st = crate::combat::BattleState::new(&prep, &SimOptions::default());
    for p in [at(1, 1), at(1, 2), at(2, 1), at(2, 2)] {
        assert_eq!(st.occupant(p), Some(0), "{p}");
    }
    assert_eq!(st.occupant(at(3, 3)), None);
    assert_eq!(st.cells(0).count(), 4);
    // Closest squares (2,2) and (4,4): two diagonals, 15 ft.
    assert_eq!(st.distance(0, 1), 15);
    assert_eq!(st.distance(1, 0), 15);
}

#[test]
fn natural_reach_is_a_disc_and_a_reach_weapon_a_ring() {
    // A Large club (natural reach 10 ft) hits adjacent and at 10 ft; a Large
    // longspear (ring 10 < d <= 20) hits at 15 and 20 ft only; a Medium
    // longspear only at 10 ft.
    let prep = prepare(
        arena(8, 12),
        vec![
            ("a", large("Ogre", json!([melee("club", 0, "1d8")])), at(1, 1)),
            ("a", large("Spear Ogre", json!([longspear(0)])), at(5, 1)),
            ("a", creature("Pikeman", json!({ "attacks": [longspear(0)] })), at(8, 12)),
            ("b", creature("Man", json!({})), at(1, 4)),
        ],
    );
    let st = crate::combat::BattleState::new(&prep, &SimOptions::default());
    let hits = |i: usize, from: crate::map::Pos| st.weapon_for(i, 3, from).is_ok();
    // Ogre's right edge is column 2 when anchored at column 1.
    assert!(hits(0, at(1, 2)), "adjacent");
    assert!(hits(0, at(1, 1)), "10 ft");
    assert!(!hits(0, at(1, 0)), "15 ft");
    assert!(!hits(1, at(1, 2)), "adjacent is in the dead zone");
    assert!(!hits(1, at(1, 1)), "10 ft is in the dead zone");
    assert!(hits(1, at(1, 0)), "15 ft");
    assert!(!hits(1, at(6, 0)), "out of reach");
    assert!(!hits(2, at(1, 3)), "a Medium longspear does not hit adjacent");
    assert!(hits(2, at(1, 2)), "a Medium longspear hits at 10 ft");
    // Threatened squares follow the same shapes.
    assert!(st.threatens(0, 3));
    // The spear ogre covers columns 1-2: (5,5) is 15 ft away, (5,4) 10 ft, (5,3) adjacent.
    assert!(st.threat_weapon(1, at(5, 5)).is_some(), "15 ft");
    assert!(st.threat_weapon(1, at(5, 4)).is_none(), "10 ft: dead zone");
    assert!(st.threat_weapon(1, at(5, 3)).is_none(), "adjacent: dead zone");
}

#[test]
fn an_explicit_natural_reach_is_the_natural_reach() {
    let bite = json!({ "name": "bite", "kind": "melee", "attack_bonus": 0, "natural": true, "reach_ft": 5,
                       "damage": [{ "formula": "1d4", "types": ["piercing"] }] });
    let prep = prepare(
        arena(4, 8),
        vec![("a", large("Lizard", json!([bite])), at(1, 1)), ("b", creature("Man", json!({})), at(1, 4))],
    );
    let st = crate::combat::BattleState::new(&prep, &SimOptions::default());
    assert!(st.weapon_for(0, 1, at(1, 2)).is_ok());
    assert_eq!(st.weapon_for(0, 1, at(1, 1)), Err(Reason::OutOfRange));
}

#[test]
fn tiny_creatures_threaten_nothing_and_attack_in_their_own_square() {
    let tiny = creature("Rat", json!({ "size": "Tiny", "attacks": [melee("bite", 0, "1d3")] }));
    let prep = prepare(arena(3, 6), vec![("a", tiny, at(1, 1)), ("b", creature("Man", json!({})), at(1, 2))]);
    let mut b = Bench::new(&[15, 2, 2]);
    let mut e = b.engine(&prep, &SimOptions::default());
    assert!(!e.st.threatens(0, 1));
    assert_eq!(e.st.weapon_for(0, 1, at(1, 1)), Err(Reason::OutOfRange));
    // It enters its foe's square; leaving (1,1), which the man threatens, provokes.
    turn(&mut e, 0, vec![Action::new(Move).with_destination(at(1, 2)), Action::at(Attack, 1)]);
    assert_eq!(e.st.pos(0), at(1, 2));
    assert_eq!(e.st.occupant(at(1, 2)), Some(1), "the larger creature is reported first");
    assert_eq!(e.st.small_occupant(at(1, 2)), Some(0));
    assert_eq!(e.st.distance(0, 1), 0);
    assert_eq!(e.st.last_results(0), [ActionResult::done(Move), ActionResult::done(Attack)]);
    drop(e);
    assert_eq!(
        b.lines(),
        [
            "round 1 rat: move (1,1)->(1,2)",
            "round 1 man: AoO: sword vs rat d20=15+0=15 AC 10 -> HIT 2 dmg (hp 10->8)",
            "round 1 rat: bite vs man d20=2+0=2 AC 10 -> MISS",
        ]
    );
}

#[test]
fn same_size_creatures_never_share_a_square() {
    let prep = prepare(
        arena(3, 6),
        vec![("a", creature("Man", json!({})), at(1, 1)), ("b", creature("Foe", json!({})), at(1, 3))],
    );
    let mut b = Bench::new(&[]);
    let mut e = b.engine(&prep, &SimOptions::default());
    turn(&mut e, 0, vec![Action::new(Move).with_destination(at(1, 3))]);
    assert_eq!(e.st.last_results(0), [ActionResult::failed(Move, Reason::UnreachableDestination)]);
}

#[test]
fn a_large_creature_moves_only_where_its_whole_space_fits() {
    // A one-square gap in a wall: a Medium creature goes through, a Large one goes around.
    let m = map(&[
        "##########",
        "#........#",
        "#........#",
        "####.#####",
        "#........#",
        "#........#",
        "##########",
    ]);
    let prep = prepare(
        m,
        vec![
            ("a", large("Ogre", json!([melee("club", 0, "1d8")])), at(1, 1)),
            ("b", creature("Man", json!({})), at(5, 8)),
        ],
    );
    let st = crate::combat::BattleState::new(&prep, &SimOptions::default());
    assert_eq!(st.access(0, at(2, 4)), crate::grid::Access::Blocked, "(3,4) is open but (3,5) is wall");
    assert_eq!(st.access(0, at(4, 4)), crate::grid::Access::Open);
    let mut b = Bench::new(&[]);
    let mut e = b.engine(&prep, &SimOptions::default());
    turn(&mut e, 0, vec![Action::new(Move).with_destination(at(4, 3))]);
    assert_eq!(e.st.last_results(0), [ActionResult::failed(Move, Reason::UnreachableDestination)]);
    turn(&mut e, 0, vec![Action::new(Move).with_destination(at(1, 7))]);
    assert_eq!(e.st.last_results(0), [ActionResult::done(Move)]);
    assert_eq!(e.st.pos(0), at(1, 7));
    // The old squares are free again, the new ones taken.
    assert_eq!(e.st.occ[e.st.map().index(at(1, 1))], EMPTY);
    assert_eq!(e.st.occupant(at(2, 8)), Some(0));
}

#[test]
fn moving_through_a_creature_three_sizes_apart_provokes_on_entry() {
    // A Huge foe (3x3) on rows 1-3, cols 3-5; a Small mover (two categories
    // below Large, three below Huge) crosses it.
    let huge = creature("Giant", json!({ "size": "Huge", "hp_max": 80 }));
    let small = creature("Gnome", json!({ "size": "Small" }));
    let prep = prepare(arena(5, 9), vec![("a", small, at(2, 2)), ("b", huge, at(1, 3))]);
    let st = crate::combat::BattleState::new(&prep, &SimOptions::default());
    assert_eq!(st.access(0, at(2, 4)), crate::grid::Access::PassOnly);
    drop(st);
    // The giant has one attack of opportunity per round: entering its space
    // spends it, so leaving threatened squares afterwards provokes nothing.
    let mut b = Bench::new(&[2, 2, 2]);
    let mut e = b.engine(&prep, &SimOptions::default());
    turn(&mut e, 0, vec![Action::new(Move).with_destination(at(2, 6))]);
    assert_eq!(e.st.last_results(0), [ActionResult::done(Move)]);
    assert_eq!(e.st.pos(0), at(2, 6));
    drop(e);
    assert_eq!(
        b.lines(),
        [
            "round 1 gnome: move (2,2)->(2,3)->(2,4)->(2,5)->(2,6)",
            "round 1 giant: AoO: sword vs gnome d20=2+0=2 AC 10 -> MISS",
        ]
    );
}

#[test]
fn flanking_a_large_creature_across_its_space() {
    // Large target on (2,2)-(3,3); attackers on opposite sides.
    let prep = prepare(
        arena(6, 6),
        vec![
            ("a", creature("Left", json!({})), at(2, 1)),
            ("a", creature("Right", json!({})), at(3, 4)),
            ("a", creature("Top", json!({})), at(1, 2)),
            ("b", large("Ogre", json!([melee("club", 0, "1d8")])), at(2, 2)),
        ],
    );
    let st = crate::combat::BattleState::new(&prep, &SimOptions::default());
    assert!(st.flanked(0, 3), "left and right borders");
    assert!(st.flanked(1, 3));
    assert!(!st.flanked(2, 3), "top alone has no partner on the bottom border");
}

#[test]
fn a_large_charger_stops_at_reach() {
    let prep = prepare(
        arena(4, 14),
        vec![
            ("a", large("Ogre", json!([melee("club", 0, "1d8")])), at(1, 1)),
            ("b", creature("Man", json!({})), at(1, 10)),
        ],
    );
    let st = crate::combat::BattleState::new(&prep, &SimOptions::default());
    // Reach 10: the ogre's right edge ends two columns short of the man (col 8 -> anchor 7).
    let (end, _) = st.charge_end(0, 1).expect("charge");
    assert_eq!(end, at(1, 7));
}

#[test]
fn deployment_places_large_creatures_on_free_spaces() {
    let m = crate::map::Map::from_yaml_str(
        "name: t\nterrain: |\n  ......\n  ......\n  ......\nlegend:\n  \".\": { type: floor, move_cost: 1 }\nzones: |\n  AAA..B\n  AAA..B\n  ......\ndeployment:\n  a: A\n  b: B\n",
        "t",
    )
    .expect("map");
    let sides = vec![
        crate::encounter::SideSpec {
            name: "a".into(),
            combatants: vec![
                std::sync::Arc::new(large("Ogre", json!([melee("club", 0, "1d8")]))),
                std::sync::Arc::new(creature("Man", json!({}))),
            ],
        },
        crate::encounter::SideSpec {
            name: "b".into(),
            combatants: vec![std::sync::Arc::new(creature("Foe", json!({})))],
        },
    ];
    let enc = crate::encounter::Encounter::build(std::sync::Arc::new(m), sides).expect("builds");
    assert_eq!(enc.combatants[0].pos, at(0, 0));
    assert_eq!(enc.combatants[1].pos, at(0, 2), "the ogre takes (0,0)-(1,1)");
}

#[test]
fn an_ally_in_its_reach_weapon_dead_zone_does_not_flank() {
    let pike = json!({ "name": "longspear", "kind": "melee", "attack_bonus": 0, "reach_weapon": true,
                       "damage": [{ "formula": "1d8", "types": ["piercing"] }] });
    let prep = prepare(
        arena(5, 7),
        vec![
            ("a", creature("Left", json!({})), at(3, 2)),
            ("a", creature("Pikeman", json!({ "attacks": [pike] })), at(3, 4)),
            ("b", creature("Foe", json!({})), at(3, 3)),
        ],
    );
    let mut b = Bench::new(&[]);
    let mut e = b.engine(&prep, &SimOptions::default());
    assert!(!e.st.flanked(0, 2), "adjacent longspear: dead zone");
    e.st.relocate(1, at(3, 5));
    assert!(e.st.flanked(0, 2), "10 ft away on the opposite side, the longspear threatens");
}
