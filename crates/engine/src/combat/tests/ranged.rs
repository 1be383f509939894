//! The best shot (`policy::ranged`): a shooter weighs each of its ranged
//! attacks with the range penalties of where it stands, and closes in with
//! one move before a single attack when that is worth more.

use serde_json::{Value, json};

use super::support::*;
use crate::combat::event::{AttackNote, Event, ModSource, Record};
use crate::combat::policy::DefaultPolicy;
use crate::rng::SeededRng;

/// An ogre-like brute: AC 17, touch 8, a club, 60 hit points.
fn ogre(extra: Value) -> crate::model::Combatant {
    let mut o = json!({ "hp_max": 60, "ac": { "total": 17, "touch": 8, "flat_footed": 17 },
                        "attacks": [melee("club", 7, "2d8+7")] });
    o.as_object_mut().unwrap().extend(extra.as_object().unwrap().clone());
    creature("Ogre", o)
}

/// What combatant 0 did on its first turn, seed by seed over 40 seeds: the
/// squares it moved through (empty when it did not move), and each of its
/// attacks as (weapon, range penalty).
type FirstTurn = (Vec<crate::map::Pos>, Vec<(String, i32)>);

fn first_turns(prep: &crate::combat::PreparedEncounter) -> Vec<FirstTurn> {
    (0..40)
        .map(|seed| {
            let mut rng = SeededRng::for_run(21, seed);
            let mut events: Vec<Record> = Vec::new();
            let mut e = started(prep, &mut rng, Some(&mut events));
            e.take_turn(0, &mut DefaultPolicy);
            drop(e);
            let mut path = Vec::new();
            let mut shots = Vec::new();
            for r in &events {
                match &r.event {
                    Event::Move { who: 0, path: p, .. } => path.extend(p.iter().copied()),
                    Event::Attack(a) if a.who == 0 => shots.push((a.weapon.clone(), range_penalty(&a.notes))),
                    _ => {}
                }
            }
            (path, shots)
        })
        .collect()
}

/// The range penalty noted on an attack (0 when none).
fn range_penalty(notes: &[AttackNote]) -> i32 {
    notes
        .iter()
        .find_map(|n| match n {
            AttackNote::Modifier { source: ModSource::Range, value } => Some(*value),
            _ => None,
        })
        .unwrap_or(0)
}

#[test]
fn a_bomber_100_ft_away_moves_in_before_throwing_rather_than_bombing_at_minus_8() {
    // From 100 ft the bomb is at −8 against touch AC 8 (hit on 10+: 55 %),
    // after a 30-ft move at −6 (hit on 8+: 65 %); the crossbow at −2 against
    // AC 17 hits on 14+ (35 %) for 4.5. A table walks in and throws.
    let prep = prepare(
        arena(5, 24),
        vec![("players", bomber(), at(2, 0)), ("monsters", ogre(json!({})), at(2, 20))],
    );
    for (path, shots) in first_turns(&prep) {
        // The least walk that brings the bomb to −6 (80 ft, three increments past the first).
        let end = path.last().copied().expect("a move first");
        assert!(path.len() <= 6 && crate::grid::distance_ft(end, at(2, 20)) <= 80, "{path:?}");
        assert_eq!(shots, [("bomb".to_string(), -6)]);
    }
}

#[test]
fn a_fire_resistant_foe_far_away_gets_the_crossbow_after_a_move_into_its_first_increment() {
    // Fire resistance 10: the bomb's 2d6+4 leaves 1 a hit; the crossbow is
    // worth more, and a 30-ft move takes its −2 away (70 ft, first increment).
    let prep = prepare(
        arena(5, 24),
        vec![
            ("players", bomber(), at(2, 0)),
            ("monsters", ogre(json!({ "resistances": { "fire": 10 } })), at(2, 20)),
        ],
    );
    for (path, shots) in first_turns(&prep) {
        assert!(!path.is_empty(), "it moves first");
        assert_eq!(shots, [("light crossbow".to_string(), 0)]);
    }
}

#[test]
fn a_near_foe_is_bombed_from_where_the_bomber_stands() {
    // At 20 ft, within the bomb's first increment, no move gains anything.
    let prep =
        prepare(arena(5, 24), vec![("players", bomber(), at(2, 1)), ("monsters", ogre(json!({})), at(2, 5))]);
    for (path, shots) in first_turns(&prep) {
        assert!(path.is_empty(), "no move at 20 ft: {path:?}");
        assert_eq!(shots, [("bomb".to_string(), 0)]);
    }
    // At 25 ft (a −2), it closes to a square no foe threatens and throws at 0.
    let prep =
        prepare(arena(5, 24), vec![("players", bomber(), at(2, 0)), ("monsters", ogre(json!({})), at(2, 5))]);
    for (path, shots) in first_turns(&prep) {
        let end = path.last().copied().expect("a move");
        assert!(crate::grid::distance_ft(end, at(2, 5)) > 5, "out of the club's reach: {end:?}");
        assert_eq!(shots, [("bomb".to_string(), 0)]);
    }
}

#[test]
fn over_whole_battles_the_bomber_closes_in_before_any_bomb_beyond_80_ft() {
    // From beyond 80 ft with nobody in the way, a 30-ft move always brings
    // the bomb an increment closer: a bomb at −8 comes only after a move in
    // the same round (from 125 ft a move still leaves it at −8, and −8
    // against touch AC 8 beats the crossbow at −2 against AC 17).
    let prep = prepare(
        arena(7, 26),
        vec![
            ("players", bomber(), at(3, 0)),
            (
                "players",
                creature("Fighter", json!({ "hp_max": 40, "attacks": [melee("sword", 8, "1d8+4")] })),
                at(2, 2),
            ),
            ("monsters", ogre(json!({ "speed_land_ft": 20 })), at(1, 24)),
            ("monsters", ogre(json!({ "speed_land_ft": 20 })), at(5, 24)),
        ],
    );
    let (mut bombs, mut far) = (0, 0);
    for seed in 0..30 {
        let events = policy_battle(&prep, 22, seed);
        let mut moved_in: Option<u32> = None;
        for r in &events {
            match &r.event {
                Event::Move { who: 0, .. } => moved_in = Some(r.round),
                Event::Attack(a) if a.who == 0 && !a.aoo && a.weapon == "bomb" => {
                    bombs += 1;
                    if range_penalty(&a.notes) <= -8 {
                        far += 1;
                        assert_eq!(moved_in, Some(r.round), "seed {seed}: a bomb at −8 without a move first");
                    }
                }
                _ => {}
            }
        }
    }
    assert!(bombs > 30, "{bombs} bombs");
    assert!(far < bombs / 2, "{far} of {bombs} bombs at −8");
}

/// Nairda's raven familiar (bite 1d3−4) beside Esha, Nairda and Harvie,
/// against two ogres and two wolves, over 40 battles: how often the
/// familiar bit, and how often a foe attacked it (opportunity attacks
/// included).
fn familiar_battles() -> (usize, usize, usize) {
    let pc = |n: &str| data_combatant(&format!("data/pcs/{n}.json"));
    let prep = prepare_magic(
        arena(14, 24),
        vec![
            ("players", pc("esha"), at(6, 3)),
            ("players", pc("harvie"), at(7, 2)),
            ("players", pc("nairda"), at(8, 1)),
            ("players", pc("ierlieth"), at(8, 2)),
            ("monsters", data_combatant("data/monsters/ogre.json"), at(5, 20)),
            ("monsters", data_combatant("data/monsters/ogre.json"), at(9, 20)),
            ("monsters", data_combatant("data/monsters/wolf.json"), at(3, 21)),
            ("monsters", data_combatant("data/monsters/wolf.json"), at(11, 21)),
        ],
    );
    let (mut bites, mut attacked, mut battles_hit) = (0, 0, 0);
    for seed in 0..40 {
        let events = policy_battle(&prep, 23, seed);
        let mut hit_here = false;
        for r in &events {
            if let Event::Attack(a) = &r.event {
                bites += usize::from(a.who == 3 && !a.aoo);
                if a.target == 3 {
                    attacked += 1;
                    hit_here = true;
                }
            }
        }
        battles_hit += usize::from(hit_here);
    }
    (bites, attacked, battles_hit)
}

#[test]
fn the_familiar_keeps_out_of_the_fight() {
    // Before `policy::fragile`: 86 bites, 112 attacks on it, in 38 battles
    // of 40. Now it withdraws from any foe that could reach it and bites
    // only once its friends are down.
    let (bites, attacked, battles) = familiar_battles();
    assert!(bites <= 4, "{bites} bites");
    assert!(battles <= 12 && attacked <= 30, "attacked in {battles} battles of 40 ({attacked} attacks)");
}
