//! Splash weapons (`combat::splash`, `policy::splash`): a carried flask is
//! a ranged touch attack, a hit splashes the creatures within 5 feet of the
//! target and alchemist's fire burns again the next round, a miss lands off
//! target and splashes there, holy water harms only undead and evil
//! outsiders; the default policy throws one only when it beats its weapons.

use serde_json::{Value, json};

use super::support::*;
use crate::combat::SimOptions;
use crate::combat::action::{Action, ActionKind};
use crate::combat::engine::Engine;
use crate::combat::event::{Event, Record};
use crate::combat::policy::DefaultPolicy;
use crate::model::ReloadTime;
use crate::rng::SeededRng;

/// A thrower carrying `items`, with `overrides`.
fn thrower(items: Value, overrides: Value) -> crate::model::Combatant {
    let mut o = json!({ "carried_items": items, "hp_max": 30 });
    o.as_object_mut().unwrap().extend(overrides.as_object().unwrap().clone());
    creature("Thrower", o)
}

fn sturdy(name: &str, overrides: Value) -> crate::model::Combatant {
    let mut o = json!({ "hp_max": 20, "attacks": [] });
    o.as_object_mut().unwrap().extend(overrides.as_object().unwrap().clone());
    creature(name, o)
}

/// The index of the attack called `name` of combatant `i`.
fn attack_of(prep: &crate::combat::PreparedEncounter, i: usize, name: &str) -> usize {
    prep.fighters[i].offense.attacks.iter().position(|a| a.name == name).expect("the flask's attack")
}

#[test]
fn a_carried_flask_is_a_ranged_touch_attack_at_bab_dexterity_and_size_drawn_before_each_throw() {
    let small = thrower(
        json!([{ "name": "Alchemist's fire", "quantity": 3 }, "holy water", "rope"]),
        json!({ "size": "Small", "bab": 2, "abilities": { "str_score": 8, "dex_score": 14, "con_score": 12,
                 "int_score": 10, "wis_score": 10, "cha_score": 10 } }),
    );
    let prep = prepare(
        arena(3, 12),
        vec![("players", small, at(1, 0)), ("monsters", sturdy("T", json!({})), at(1, 6))],
    );
    let attacks = &prep.fighters[0].offense.attacks;
    // The sword of the file first, then one attack per splash weapon.
    assert_eq!(
        attacks.iter().map(|a| a.name.as_str()).collect::<Vec<_>>(),
        ["sword", "alchemist's fire", "holy water"]
    );
    let fire = &attacks[1];
    // BAB 2 + Dex 2 + Small 1, against touch AC, 10-ft increments, five of them.
    assert_eq!((fire.bonus, fire.vs_touch, fire.melee), (5, true, false));
    assert_eq!((fire.increment, fire.max_range_ft), (10, 50));
    assert_eq!((fire.ammo, fire.reload, fire.drawn), (3, Some(ReloadTime::Move), true));
    assert!(fire.splash.is_some() && fire.lingering.is_some());
    assert_eq!(attacks[2].ammo, 1);
    // Both start in the pack.
    let mut b = Bench::new(&[10]);
    let e = b.engine(&prep, &SimOptions::default());
    assert!(!e.st.is_usable(0, 1) && !e.st.is_usable(0, 2) && e.st.is_usable(0, 0));
}

#[test]
fn a_direct_hit_splashes_everyone_within_five_feet_and_alchemists_fire_burns_the_next_round() {
    let prep = prepare(
        arena(5, 12),
        vec![
            ("players", thrower(json!(["alchemist's fire"]), json!({ "bab": 3 })), at(2, 0)),
            ("monsters", sturdy("Target", json!({})), at(2, 4)),
            ("monsters", sturdy("Neighbour", json!({})), at(2, 5)),
            ("players", sturdy("Friend", json!({})), at(3, 3)),
            ("monsters", sturdy("Far", json!({})), at(2, 7)),
            ("monsters", sturdy("Resistant", json!({ "resistances": { "fire": 5 } })), at(1, 4)),
        ],
    );
    let w = attack_of(&prep, 0, "alchemist's fire");
    // d20 15 hits touch AC 10 at +3 −2 (second increment); 1d6 = 4; then the burn's 1d6 = 5.
    let mut b = Bench::new(&[15, 4, 5]);
    let mut e = b.engine(&prep, &SimOptions::default());
    turn(
        &mut e,
        0,
        vec![
            Action::new(ActionKind::Reload).with_weapon(w),
            Action::at(ActionKind::Attack, 1).with_weapon(w),
        ],
    );
    let hp: Vec<i32> = (0..6).map(|i| e.st.fighters[i].hp).collect();
    // Target 20 − 4; the neighbour and the friend 1 each; the far one nothing; fire resistance 5 stops the splash.
    assert_eq!(hp, [30, 16, 19, 19, 20, 20]);
    // No flask left: the attack is spent.
    assert!(!e.st.can_reload(0, w) && !e.st.is_usable(0, w));
    e.take_turn(1, &mut script(vec![]));
    assert_eq!(e.st.fighters[1].hp, 11, "the burn on the target's next turn");
    drop(e);
    let lines = b.lines();
    assert!(
        lines.iter().any(|l| l.contains("thrower: takes out a flask of alchemist's fire (1 left)")),
        "{lines:#?}"
    );
    assert!(
        lines.iter().any(|l| l.contains("friend: splashed by thrower's alchemist's fire: 1")),
        "{lines:#?}"
    );
    assert!(lines.iter().any(|l| l.contains("target: takes 5 from alchemist's fire")), "{lines:#?}");
    assert!(!lines.iter().any(|l| l.starts_with("far:") || l.contains("far: splashed")), "{lines:#?}");
}

#[test]
fn a_miss_lands_one_square_per_range_increment_in_the_d8_direction_and_splashes_there() {
    let prep = prepare(
        arena(5, 12),
        vec![
            ("players", thrower(json!(["flask of acid"]), json!({})), at(2, 0)),
            ("monsters", sturdy("Target", json!({})), at(2, 4)),
            ("players", sturdy("Friend", json!({})), at(1, 2)),
        ],
    );
    let w = attack_of(&prep, 0, "acid flask");
    // d20 2 misses; d8 1: short, toward the thrower, 2 squares (20 ft: the second increment).
    let mut b = Bench::new(&[2, 1]);
    let mut e = b.engine(&prep, &SimOptions::default());
    turn(
        &mut e,
        0,
        vec![
            Action::new(ActionKind::Reload).with_weapon(w),
            Action::at(ActionKind::Attack, 1).with_weapon(w),
        ],
    );
    assert_eq!(
        [e.st.fighters[1].hp, e.st.fighters[2].hp],
        [20, 19],
        "it lands on (2, 2): the friend is splashed"
    );
    drop(e);
    let events: Vec<&Event> = b.events.iter().map(|r| &r.event).collect();
    assert!(
        events
            .iter()
            .any(|ev| matches!(ev, Event::Misdirected { d8: 1, squares: 2, at: p, .. } if *p == at(2, 2))),
        "{events:#?}"
    );
    // d8 5: clockwise from west, the fifth direction is east: beyond the target, nobody there.
    let mut b = Bench::new(&[2, 5]);
    let mut e = b.engine(&prep, &SimOptions::default());
    turn(
        &mut e,
        0,
        vec![
            Action::new(ActionKind::Reload).with_weapon(w),
            Action::at(ActionKind::Attack, 1).with_weapon(w),
        ],
    );
    assert_eq!([e.st.fighters[1].hp, e.st.fighters[2].hp], [20, 20]);
}

#[test]
fn holy_water_harms_only_undead_and_evil_outsiders() {
    let foes = [
        ("Zombie", json!({ "creature_type": "undead", "alignment": "NE" })),
        ("Goblin", json!({ "creature_type": "humanoid", "alignment": "NE" })),
        ("Imp", json!({ "creature_type": "outsider", "alignment": "LE" })),
        ("Archon", json!({ "creature_type": "outsider", "alignment": "LG" })),
    ];
    let mut placed = vec![("players", thrower(json!(["holy water"]), json!({})), at(0, 0))];
    for (k, (name, o)) in foes.iter().enumerate() {
        placed.push(("monsters", sturdy(name, o.clone()), at(2, 2 * k as i32 + 2)));
    }
    let prep = prepare(arena(4, 12), placed);
    let w = attack_of(&prep, 0, "holy water");
    let harmed: Vec<bool> =
        (1..5).map(|j| !prep.fighters[0].offense.attacks[w].vs[j].comps[0].immune).collect();
    assert_eq!(harmed, [true, false, true, false]);
    let splash = prep.fighters[0].offense.attacks[w].splash.as_deref().unwrap();
    let splashed: Vec<bool> = (1..5).map(|j| !splash.vs[j].comps[0].immune).collect();
    assert_eq!(splashed, harmed);
}

#[test]
fn a_bad_harms_entry_is_refused_at_its_place() {
    let bad = json!({ "name": "x", "abilities": { "str_score": 10, "dex_score": 10, "con_score": 10, "int_score": 10,
        "wis_score": 10, "cha_score": 10 }, "hp_max": 5, "ac": { "total": 10, "touch": 10, "flat_footed": 10 },
        "bab": 0, "initiative_mod": 0, "speed_land_ft": 30, "saves": { "fort": 0, "ref": 0, "will": 0 },
        "attacks": [{ "name": "vial", "kind": "touch", "attack_bonus": 0, "range_increment_ft": 10,
                      "damage": [{ "formula": "2d4", "harms": ["wicked goblin"] }] }] });
    let err = crate::model::parse_combatant(&bad.to_string(), "x.json").unwrap_err().to_string();
    assert!(err.contains("$.attacks[0].damage[0].harms[0]") && err.contains("not a creature type"), "{err}");
}

/// What `actor` does on its first turn with the default policy, over `seeds`:
/// the names of the weapons of its attack events.
fn first_turn_weapons(prep: &crate::combat::PreparedEncounter, seeds: u64) -> Vec<Vec<String>> {
    (0..seeds)
        .map(|seed| {
            let mut rng = SeededRng::for_run(11, seed);
            let mut events: Vec<Record> = Vec::new();
            let mut e = started(prep, &mut rng, Some(&mut events));
            e.take_turn(0, &mut DefaultPolicy);
            drop(e);
            events
                .iter()
                .filter_map(|r| match &r.event {
                    Event::Attack(a) if a.who == 0 => Some(a.weapon.clone()),
                    _ => None,
                })
                .collect()
        })
        .collect()
}

/// The weapons `hero` standing on `at(1, col)` uses on its first turn
/// against `foe` on `at(1, 5)` (default policy), over 40 seeds.
fn duel(hero: crate::model::Combatant, col: i32, foe: crate::model::Combatant) -> Vec<Vec<String>> {
    let prep = prepare(arena(3, 12), vec![("players", hero, at(1, col)), ("monsters", foe, at(1, 5))]);
    first_turn_weapons(&prep, 40)
}

/// Whether none of `battles` throws `flask`.
fn never_throws(battles: &[Vec<String>], flask: &str) -> bool {
    battles.iter().all(|weapons| !weapons.iter().any(|w| w == flask))
}

#[test]
fn the_default_policy_throws_a_flask_only_when_it_beats_its_weapons() {
    // A poor swordsman 25 ft from a well-armored foe with a poor touch AC:
    // the fire (touch AC 10) beats one sword blow at AC 22 after a move.
    let armored =
        sturdy("Knight", json!({ "ac": { "total": 22, "touch": 10, "flat_footed": 22 }, "hp_max": 60 }));
    for weapons in duel(thrower(json!(["alchemist's fire"]), json!({})), 0, armored.clone()) {
        assert_eq!(weapons, ["alchemist's fire"]);
    }
    // A good swordsman (+12, 2d6+8) charges instead.
    let brute = thrower(
        json!(["alchemist's fire"]),
        json!({ "bab": 6, "attacks": [melee("greatsword", 12, "2d6+8")] }),
    );
    let battles = duel(brute, 0, armored.clone());
    assert!(never_throws(&battles, "alchemist's fire"), "{battles:?}");
    // Holy water is never thrown at a living foe it cannot hurt.
    let battles = duel(thrower(json!(["holy water"]), json!({})), 0, armored);
    assert!(never_throws(&battles, "holy water"), "{battles:?}");
}

#[test]
fn the_default_policy_does_not_fumble_in_its_pack_next_to_a_foe() {
    // Next to a foe that threatens it, with a sword that can hurt that foe,
    // a table does not take a flask out and throw it (both provoke).
    let armored = sturdy(
        "Knight",
        json!({ "ac": { "total": 22, "touch": 10, "flat_footed": 22 }, "hp_max": 60, "attacks": [melee("mace", 0, "1d6")] }),
    );
    let battles = duel(thrower(json!(["alchemist's fire"]), json!({})), 4, armored);
    assert!(never_throws(&battles, "alchemist's fire"), "{battles:?}");
}

#[test]
fn the_campaign_files_carry_their_flasks_as_attacks() {
    let prep = prepare_magic(
        arena(4, 10),
        vec![
            ("players", data_combatant("data/pcs/oni.json"), at(0, 0)),
            ("players", data_combatant("data/pcs/fighter.json"), at(1, 0)),
            ("monsters", sturdy("T", json!({})), at(3, 9)),
        ],
    );
    let holy = attack_of(&prep, 0, "holy water");
    assert_eq!(prep.fighters[0].offense.attacks[holy].ammo, 2);
    let fighter = &prep.fighters[1].offense.attacks;
    assert!(fighter.iter().any(|a| a.name == "alchemist's fire" && a.drawn));
    assert!(fighter.iter().any(|a| a.name == "holy water" && a.drawn));
}

/// The weapons and targets of `prep`'s combatant 0 on its first turn, over 40 seeds.
fn first_turn_shots(prep: &crate::combat::PreparedEncounter) -> Vec<(String, usize)> {
    let mut shots = Vec::new();
    for seed in 0..40 {
        let mut rng = SeededRng::for_run(13, seed);
        let mut events: Vec<Record> = Vec::new();
        let mut e = started(prep, &mut rng, Some(&mut events));
        e.take_turn(0, &mut DefaultPolicy);
        drop(e);
        shots.extend(events.iter().filter_map(|r| match &r.event {
            Event::Attack(a) if a.who == 0 => Some((a.weapon.clone(), a.target)),
            _ => None,
        }));
    }
    shots
}

#[test]
fn the_default_policy_does_not_bomb_a_foe_when_the_splash_costs_a_friend_more() {
    // The foe (11 hp) stands next to a friend: the bomb's 11 on the foe
    // is worth less than its 6 splash on the friend counted twice, against.
    let foe = || sturdy("Ogre", json!({ "hp_max": 40, "attacks": [melee("club", 5, "1d6")] }));
    let friend = sturdy("Fighter", json!({ "hp_max": 30 }));
    let prep = prepare(
        arena(5, 12),
        vec![
            ("players", bomber(), at(2, 0)),
            ("players", friend.clone(), at(2, 6)),
            ("monsters", foe(), at(2, 5)),
        ],
    );
    let shots = first_turn_shots(&prep);
    assert!(!shots.is_empty(), "it shoots");
    assert!(shots.iter().all(|(w, _)| w == "light crossbow"), "{shots:?}");
    // Alone, the foe gets the bomb.
    let prep = prepare(arena(5, 12), vec![("players", bomber(), at(2, 0)), ("monsters", foe(), at(2, 5))]);
    let shots = first_turn_shots(&prep);
    assert!(!shots.is_empty() && shots.iter().all(|(w, _)| w == "bomb"), "{shots:?}");
    // With a second foe in range and nobody beside it, the bomb goes there.
    let prep = prepare(
        arena(5, 12),
        vec![
            ("players", bomber(), at(2, 0)),
            ("players", friend, at(2, 6)),
            ("monsters", foe(), at(2, 5)),
            ("monsters", foe(), at(4, 8)),
        ],
    );
    let shots = first_turn_shots(&prep);
    assert!(!shots.is_empty() && shots.iter().all(|s| *s == ("bomb".to_string(), 3)), "{shots:?}");
}

/// Over 40 seeds, the bomber's first turn against two ogres side by side,
/// its fighter (30 hp at most) next to both with `hp` left, and maybe a
/// third ogre alone farther off: the bomber's shots (weapon, target) and
/// whether any splash of its reached the fighter.
fn bombing_near_a_hurt_friend(hp: i32, lone_foe: bool) -> (Vec<(String, usize)>, bool) {
    let ogre = || sturdy("Ogre", json!({ "hp_max": 40, "attacks": [melee("club", 5, "1d6")] }));
    let mut placed = vec![
        ("players", bomber(), at(2, 0)),
        ("players", sturdy("Fighter", json!({ "hp_max": 30 })), at(2, 6)),
        ("monsters", ogre(), at(2, 5)),
        ("monsters", ogre(), at(1, 5)),
    ];
    if lone_foe {
        placed.push(("monsters", ogre(), at(4, 10)));
    }
    let prep = prepare(arena(6, 12), placed);
    let mut shots = Vec::new();
    let mut splashed = false;
    for seed in 0..40 {
        let mut rng = SeededRng::for_run(17, seed);
        let mut events: Vec<Record> = Vec::new();
        let mut e = started(&prep, &mut rng, Some(&mut events));
        e.st.fighters[1].hp = hp;
        e.take_turn(0, &mut DefaultPolicy);
        drop(e);
        for r in &events {
            match &r.event {
                Event::Attack(a) if a.who == 0 => shots.push((a.weapon.clone(), a.target)),
                Event::Splash { who: 1, by: 0, .. } => splashed = true,
                _ => {}
            }
        }
    }
    (shots, splashed)
}

#[test]
fn the_default_policy_never_aims_a_splash_that_could_drop_a_friend() {
    // Two ogres side by side: the bomb's 11 and its 6 on the other ogre
    // outweigh its 6 on the fighter counted twice, and a hale fighter
    // takes that splash.
    let (shots, splashed) = bombing_near_a_hurt_friend(30, false);
    assert!(!shots.is_empty() && shots.iter().all(|(w, _)| w == "bomb"), "{shots:?}");
    assert!(splashed, "the hale fighter is splashed on some seed");
    // At 6 hp or fewer (the splash's 6), at 0 or dying, the fighter is
    // never in the splash: the crossbow instead.
    for hp in [6, 4, 0, -3] {
        let (shots, splashed) = bombing_near_a_hurt_friend(hp, false);
        assert!(!shots.is_empty(), "hp {hp}: it shoots");
        assert!(shots.iter().all(|(w, _)| w == "light crossbow"), "hp {hp}: {shots:?}");
        assert!(!splashed, "hp {hp}: the fighter is splashed");
    }
    // At 7 hp the splash cannot drop it: the bomb again.
    let (shots, _) = bombing_near_a_hurt_friend(7, false);
    assert!(shots.iter().all(|(w, _)| w == "bomb"), "{shots:?}");
    // A third ogre alone in range takes the bomb instead.
    let (shots, splashed) = bombing_near_a_hurt_friend(4, true);
    assert!(!shots.is_empty() && shots.iter().all(|s| *s == ("bomb".to_string(), 4)), "{shots:?}");
    assert!(!splashed);
}

#[test]
fn a_bomber_kept_from_bombing_reloads_its_crossbow_instead_of_standing_in_total_defense() {
    // The ogre stands beside the bomber's friend: the bomb gives way to the
    // light crossbow. Each turn the bomber shoots it and reloads (a move
    // action), so its next turn shoots again; it never stands idle in total
    // defense with an empty crossbow (before: shot, then total defense).
    let foe = sturdy("Ogre", json!({ "hp_max": 400, "attacks": [melee("club", 5, "1d6")] }));
    let friend = sturdy("Fighter", json!({ "hp_max": 300 }));
    let prep = prepare(
        arena(5, 12),
        vec![("players", bomber(), at(2, 0)), ("players", friend, at(2, 6)), ("monsters", foe, at(2, 5))],
    );
    let crossbow = attack_of(&prep, 0, "light crossbow");
    assert_eq!(prep.fighters[0].offense.attacks[crossbow].reload, Some(ReloadTime::Move));
    for seed in 0..20 {
        let mut rng = SeededRng::for_run(17, seed);
        let mut events: Vec<Record> = Vec::new();
        let mut e = Engine::new(&prep, &SimOptions::default(), &mut rng, Some(&mut events));
        for _ in 0..3 {
            e.start_round();
            e.take_turn(0, &mut DefaultPolicy);
        }
        drop(e);
        let shots = events
            .iter()
            .filter(|r| matches!(&r.event, Event::Attack(a) if a.who == 0 && a.weapon == "light crossbow"))
            .count();
        let idle = events.iter().any(|r| matches!(&r.event, Event::TotalDefense { who: 0, .. }));
        assert!(!idle, "seed {seed}: total defense");
        assert_eq!(shots, 3, "seed {seed}: one shot a turn");
    }
}
