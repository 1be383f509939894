//! Grapples of a monster's own (a `while_holding` entry with `grapples`: a
//! vampire's blood drain, a succubus's kiss; `combat::monster::hold`),
//! against their closed forms with scripted dice, the choice to grapple
//! (`BattleState::grapple_pays`), and the shipped files over many seeds.

use serde_json::{Value, json};

use super::monsters::monster;
use super::support::*;
use crate::combat::SimOptions;
use crate::combat::action::Action;
use crate::combat::event::{AfflictionEvent, Event, ManeuverOutcome};
use crate::effects::{ConditionId, Maneuver};

/// A claw +0 (`dice`).
fn claw(dice: &str) -> Value {
    json!({ "name": "claw", "kind": "melee", "attack_bonus": 0, "natural": true,
            "damage": [{ "formula": dice, "types": ["slashing"] }] })
}

/// A kisser: CMB +0, a claw 1d2, a kiss of one negative level on each
/// maintained hold (the succubus's numbers but the CMB); `feats` added.
fn kisser(feats: &[&str]) -> crate::model::Combatant {
    let mut c = monster(
        "Kisser",
        json!([{ "kind": "while_holding", "name": "energy drain", "grapples": true,
                 "effect": { "energy_drain": { "levels": 1 } } }]),
        json!({ "cmb": 0, "hp_max": 30, "attacks": [claw("1d2")] }),
    );
    c.features.extend(feats.iter().map(|f| crate::model::Feature::Name((*f).to_string())));
    c
}

/// A drinker: the vampire's blood drain (pins, 1d4 Con, heals 5), CMB +0.
fn drinker() -> crate::model::Combatant {
    monster(
        "Drinker",
        json!([{ "kind": "while_holding", "name": "blood drain", "grapples": true, "pins": true,
                 "effect": { "ability_damage": { "ability": "con", "amount": "1d4" } }, "heals": 5 }]),
        json!({ "cmb": 0, "hp_max": 30, "attacks": [claw("1d2")] }),
    )
}

/// A level-5 foe: 40 hp, AC 10, CMD 11, Con 12, a sword +0 (1d6).
fn foe() -> crate::model::Combatant {
    creature("Foe", json!({ "level": 5, "hp_max": 40 }))
}

fn duel(a: crate::model::Combatant) -> crate::combat::prepared::PreparedEncounter {
    prepare(arena(3, 12), vec![("monsters", a, at(1, 1)), ("players", foe(), at(1, 2))])
}

fn maneuver_bonuses(events: &[crate::combat::event::Record]) -> Vec<(usize, i32)> {
    events
        .iter()
        .filter_map(|r| match &r.event {
            Event::ManeuverRoll { who, bonus, .. } => Some((*who, *bonus)),
            _ => None,
        })
        .collect()
}

#[test]
fn a_grapple_of_its_own_provokes_then_each_maintained_check_kisses_one_negative_level() {
    let prep = duel(kisser(&[]));
    // Turn 1: the foe's attack of opportunity (d20 1 misses), the grapple
    // (d20 15 at +0 against CMD 11) holds. Turn 2: the maintenance check
    // (d20 10 at +0 +5 = 15 >= 11) wins: a kiss. Turn 3: again (d20 10).
    let mut b = Bench::new(&[1, 15, 10, 10]);
    let mut e = b.engine(&prep, &SimOptions::default());
    turn(&mut e, 0, vec![Action::maneuver(Maneuver::Grapple, 1)]);
    assert_eq!(e.st.fighters[1].grappled_with, Some(0));
    assert_eq!(e.st.fighters[1].monster.negative_levels, 0, "no kiss on the turn it grapples");
    e.start_round();
    turn(&mut e, 0, vec![]);
    assert_eq!(e.st.fighters[1].monster.negative_levels, 1);
    assert_eq!(e.st.hp(1), 40 - 5, "5 hit points a negative level");
    assert_eq!(e.st.fighters[0].temp_hp, 5, "the drainer's 5 temporary hit points");
    assert!(!e.st.has_condition(1, ConditionId::Pinned), "a kiss does not pin");
    e.start_round();
    turn(&mut e, 0, vec![]);
    assert_eq!(e.st.fighters[1].monster.negative_levels, 2);
    drop(e);
    let aoo = b.events.iter().any(|r| matches!(&r.event, Event::Attack(a) if a.who == 1 && a.aoo));
    assert!(aoo, "starting a grapple without Improved Grapple provokes");
    assert_eq!(maneuver_bonuses(&b.events), [(0, 0), (0, 5), (0, 5)], "no grab's +4; +5 to maintain");
    // Each kiss follows a maintained hold, in that order.
    let seq: Vec<&AfflictionEvent> = b
        .events
        .iter()
        .filter_map(|r| match &r.event {
            Event::Affliction { what, .. } => Some(what),
            _ => None,
        })
        .collect();
    let kisses = seq
        .windows(2)
        .filter(|w| {
            matches!(w[0], AfflictionEvent::MaintainsHold { target: 1 })
                && matches!(w[1], AfflictionEvent::Strikes { ability, target: 1 } if ability == "energy drain")
        })
        .count();
    assert_eq!(kisses, 2);
}

#[test]
fn improved_grapple_starts_the_grapple_without_provoking() {
    let prep = duel(kisser(&["Improved Grapple"]));
    // Improved Grapple: +2 on the check, no attack of opportunity.
    let mut b = Bench::new(&[15]);
    let mut e = b.engine(&prep, &SimOptions::default());
    turn(&mut e, 0, vec![Action::maneuver(Maneuver::Grapple, 1)]);
    assert_eq!(e.st.fighters[1].grappled_with, Some(0));
    drop(e);
    assert!(!b.events.iter().any(|r| matches!(&r.event, Event::Attack(a) if a.aoo)));
}

#[test]
fn blood_drain_pins_drains_constitution_heals_five_and_the_pinned_foe_tries_to_escape() {
    let prep = duel(drinker());
    // Turn 1: AoO d20 1, grapple d20 15. Turn 2: maintain d20 10 wins: a
    // pin, 1d4 = 3 Con damage, heals 5. The foe's turn: an escape (d20 20).
    let mut b = Bench::new(&[1, 15, 10, 3, 20]);
    let mut e = b.engine(&prep, &SimOptions::default());
    e.st.fighters[0].hp = 20;
    turn(&mut e, 0, vec![Action::maneuver(Maneuver::Grapple, 1)]);
    assert!(!e.st.has_condition(1, ConditionId::Pinned), "the first check grapples, the next pins");
    e.start_round();
    turn(&mut e, 0, vec![]);
    assert!(e.st.has_condition(1, ConditionId::Pinned));
    assert_eq!(e.st.fighters[1].monster.ability_damage[2], 3);
    // Con 12 - 3 = 9: modifier +1 to -1, 2 x 5 Hit Dice hit points.
    assert_eq!(e.st.hp(1), 40 - 10);
    assert_eq!(e.st.hp(0), 25, "blood drain heals 5");
    e.take_turn(1, &mut crate::combat::DefaultPolicy);
    assert_eq!(e.st.fighters[1].grappled_with, None, "a natural 20 escapes");
    assert!(!e.st.has_condition(1, ConditionId::Pinned), "the pin ends with the grapple");
    drop(e);
    assert!(
        b.events.iter().any(|r| matches!(
            r.event,
            Event::Affliction { who: 0, what: AfflictionEvent::Pins { target: 1 } }
        ))
    );
    assert!(b.events.iter().any(|r| matches!(
        r.event,
        Event::ManeuverRoll { who: 1, maneuver: Maneuver::Escape, success: true, .. }
    )));
    assert!(
        b.events
            .iter()
            .any(|r| matches!(r.event, Event::Maneuver { who: 1, outcome: ManeuverOutcome::Escapes })),
    );
}

#[test]
fn an_unhurt_drinker_gains_five_temporary_hit_points_and_an_immune_foe_feeds_nothing() {
    let prep = duel(drinker());
    let mut b = Bench::new(&[1, 15, 10, 3]);
    let mut e = b.engine(&prep, &SimOptions::default());
    turn(&mut e, 0, vec![Action::maneuver(Maneuver::Grapple, 1)]);
    e.start_round();
    turn(&mut e, 0, vec![]);
    assert_eq!((e.st.hp(0), e.st.fighters[0].temp_hp), (30, 5));
    // An undead (immune to Constitution damage) is worth nothing to hold.
    let undead = creature(
        "Bones",
        json!({ "creature_type": "undead", "hp_max": 40,
        "abilities": { "str_score": 10, "dex_score": 10, "con_score": null,
                       "int_score": 10, "wis_score": 10, "cha_score": 10 } }),
    );
    let prep = prepare(arena(3, 12), vec![("monsters", drinker(), at(1, 1)), ("players", undead, at(1, 2))]);
    let mut b = Bench::new(&[]);
    let e = b.engine(&prep, &SimOptions::default());
    assert_eq!(e.st.hold_worth(0, 1), 0.0);
    assert!(!e.st.grapple_pays(0, 1));
}

#[test]
fn the_grapple_pays_when_a_held_round_beats_a_round_of_attacks() {
    // The kisser (claw 1d2, 1.5) against the level-5 foe (40 hp, CMD 11): a
    // kiss is worth 5 + 40 / 5 = 13 hit points; start 0.5 (d20 >= 11) x keep
    // 0.75 (d20 >= 6) x 13 = 4.875 >= 0.55 x 1.5 (the claw hits AC 10 on 10+).
    let prep = duel(kisser(&[]));
    let mut b = Bench::new(&[]);
    let e = b.engine(&prep, &SimOptions::default());
    assert_eq!(e.st.hold_worth(0, 1), 13.0);
    assert!((e.st.attack_worth(0, 1) - 0.55 * 1.5).abs() < 1e-9);
    assert!(e.st.grapple_pays(0, 1));
    // A claw of 2d6+10 (17 a hit, 9.35 a round) is worth more: it attacks.
    // (The foe's 40 hit points: the kiss's 13 times 0.375 is 4.875.)
    let mut strong = kisser(&[]);
    strong.attacks = vec![serde_json::from_value(claw("2d6+10")).expect("attack")];
    let prep = duel(strong);
    let mut b = Bench::new(&[]);
    let e = b.engine(&prep, &SimOptions::default());
    assert!(!e.st.grapple_pays(0, 1));
    // A kiss that brings the foe's negative levels to its Hit Dice is worth its hit points.
    let prep = prepare(
        arena(3, 12),
        vec![
            ("monsters", kisser(&[]), at(1, 1)),
            ("players", creature("Foe", json!({ "hp_max": 12 })), at(1, 2)),
        ],
    );
    let mut b = Bench::new(&[]);
    let e = b.engine(&prep, &SimOptions::default());
    assert_eq!(e.st.hold_worth(0, 1), 12.0, "one Hit Die: the first level kills");
}

#[test]
fn the_policy_grapples_when_it_pays_and_lets_go_when_it_no_longer_does() {
    // The default policy's turn: the kisser beside the foe grapples.
    let prep = duel(kisser(&[]));
    let mut b = Bench::new(&[1, 15]);
    let mut e = b.engine(&prep, &SimOptions::default());
    e.take_turn(0, &mut crate::combat::DefaultPolicy);
    assert_eq!(e.st.fighters[1].grappled_with, Some(0));
    // A clawer whose claws pay more, holding a foe, lets go at the start of its turn.
    let mut strong = kisser(&[]);
    strong.attacks = vec![serde_json::from_value(claw("2d6+10")).expect("attack")];
    let prep = duel(strong);
    let mut b = Bench::new(&[1, 15]);
    let mut e = b.engine(&prep, &SimOptions::default());
    turn(&mut e, 0, vec![Action::maneuver(Maneuver::Grapple, 1)]);
    assert_eq!(e.st.fighters[1].grappled_with, Some(0));
    e.start_round();
    turn(&mut e, 0, vec![]);
    assert_eq!(e.st.fighters[1].grappled_with, None, "its claws pay more: it lets go");
    drop(e);
    assert!(b.events.iter().any(|r| matches!(
        r.event,
        Event::Affliction { who: 0, what: AfflictionEvent::LetsGo { target: 1 } }
    )));
}

#[test]
fn a_while_holding_entry_needs_a_grab_or_grapples_and_pins_needs_grapples() {
    let bad = |specials: Value| {
        let names: Vec<Value> = specials
            .as_array()
            .expect("array")
            .iter()
            .map(|s| json!({ "name": s["name"], "category": "special" }))
            .collect();
        let mut o = json!({ "name": "Bad", "abilities": { "str_score": 10, "dex_score": 10, "con_score": 10,
            "int_score": 10, "wis_score": 10, "cha_score": 10 }, "hp_max": 10,
            "ac": { "total": 10, "touch": 10, "flat_footed": 10 }, "bab": 0, "initiative_mod": 0,
            "speed_land_ft": 30, "saves": { "fort": 0, "ref": 0, "will": 0 }, "attacks": [claw("1d4")] });
        o["features"] = Value::Array(names);
        o["special_abilities"] = specials;
        crate::model::parse_combatant(&o.to_string(), "bad.json").expect_err("invalid").to_string()
    };
    let e = bad(
        json!([{ "kind": "while_holding", "name": "kiss", "effect": { "energy_drain": { "levels": 1 } } }]),
    );
    assert!(e.contains("special_abilities[0]") && e.contains("grapples"), "{e}");
    let e = bad(json!([{ "kind": "while_holding", "name": "kiss", "grapples": false, "pins": true,
                          "damage": "1d4" },
                        { "kind": "on_hit", "name": "grab", "effect": { "grab": {} } }]));
    assert!(e.contains("special_abilities[0].pins"), "{e}");
    let e = bad(json!([{ "kind": "while_holding", "name": "kiss", "grapples": true, "damage": "1d4" },
                        { "kind": "on_hit", "name": "grab", "effect": { "grab": {} } }]));
    assert!(e.contains("special_abilities[0].grapples"), "{e}");
}

/// Battles of the shipped `stem`, its spells out (it casts rather than
/// grapples while it has them), against `foes` (default policies) over
/// `runs` seeds: their typed events.
fn shipped(
    stem: &str,
    foes: Vec<crate::model::Combatant>,
    runs: u64,
) -> Vec<Vec<crate::combat::event::Record>> {
    let mut monster = data_combatant(&format!("data/monsters/{stem}.json"));
    monster.spells.clear();
    monster.spell_slots.clear();
    let mut placed = vec![("monsters", monster, at(2, 2))];
    for (k, f) in (0..).zip(foes) {
        placed.push(("players", f, at(2 + 2 * k, 6)));
    }
    let prep = prepare_magic(arena(12, 16), placed);
    super::monsters::records(&prep, 19, runs)
}

#[test]
fn the_succubus_kisses_only_the_foe_she_holds_one_level_a_maintained_hold_over_many_seeds() {
    let pcs = || {
        vec![
            data_combatant("data/pcs/esha.json"),
            data_combatant("data/pcs/oni.json"),
            data_combatant("data/pcs/harvie.json"),
        ]
    };
    let mut kisses = 0;
    for events in shipped("succubus", pcs(), 40) {
        let mut held: Option<usize> = None;
        let mut last_maintained: Option<usize> = None;
        for r in &events {
            match &r.event {
                Event::Maneuver { who, outcome: ManeuverOutcome::Grappled { by: 0 } } => held = Some(*who),
                Event::Affliction { who: 0, what: AfflictionEvent::MaintainsHold { target } } => {
                    assert_eq!(held, Some(*target), "she maintains the hold she has");
                    last_maintained = Some(*target);
                }
                Event::Affliction { who: 0, what: AfflictionEvent::Strikes { ability, target } }
                    if ability == "energy drain" =>
                {
                    assert_eq!(last_maintained.take(), Some(*target), "a kiss follows a maintained hold");
                    kisses += 1;
                }
                Event::Affliction { what: AfflictionEvent::NegativeLevels { levels, .. }, .. } => {
                    assert_eq!(*levels, 1, "one negative level a kiss");
                }
                _ => {}
            }
        }
    }
    assert!(kisses >= 20, "the succubus kisses in battle: {kisses} kisses in 40 battles");
}

#[test]
fn the_vampire_slams_a_foe_it_hits_and_drinks_from_one_its_slam_cannot_hit() {
    // Against a plain foe its energy-draining slam pays more: no grapple.
    let plain = || vec![creature("Foe", json!({ "level": 5, "hp_max": 60 }))];
    for events in shipped("vampire", plain(), 20) {
        assert!(!events.iter().any(|r| matches!(r.event, Event::ManeuverRoll { who: 0, .. })));
    }
    // Against a knight in heavy armor (AC 40, CMD 11), it grapples, pins and drinks.
    let knight = || {
        vec![creature(
            "Knight",
            json!({ "level": 5, "hp_max": 200,
        "ac": { "total": 40, "touch": 10, "flat_footed": 40 } }),
        )]
    };
    let mut drinks = 0;
    for events in shipped("vampire", knight(), 20) {
        drinks += events
            .iter()
            .filter(|r| matches!(&r.event, Event::Affliction { who: 0, what: AfflictionEvent::Strikes { ability, .. } } if ability == "blood drain"))
            .count();
        // Every drink follows a pin held through a won maintenance check.
        let pinned = events
            .iter()
            .any(|r| matches!(r.event, Event::Affliction { who: 0, what: AfflictionEvent::Pins { .. } }));
        assert!(pinned || !events.iter().any(|r| matches!(&r.event, Event::Affliction { who: 0, what: AfflictionEvent::Strikes { ability, .. } } if ability == "blood drain")));
    }
    assert!(drinks >= 10, "the vampire drinks: {drinks} in 20 battles");
}

#[test]
fn a_grappling_monster_with_a_move_left_does_not_walk_away_from_its_hold() {
    // After maintaining (its standard action), what is left is a move
    // action; the grappled foe cannot be left behind without ending the hold.
    let prep = duel(kisser(&[]));
    let mut b = Bench::new(&[1, 15, 10]);
    let mut e = b.engine(&prep, &SimOptions::default());
    turn(&mut e, 0, vec![Action::maneuver(Maneuver::Grapple, 1)]);
    e.start_round();
    e.take_turn(0, &mut crate::combat::DefaultPolicy);
    assert_eq!(e.st.fighters[1].grappled_with, Some(0), "the hold is kept");
}
