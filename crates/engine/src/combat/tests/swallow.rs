//! Swallow whole (`combat::monster::swallow`): against its closed form with
//! scripted dice, its data errors, and the gibbering mouther's engulf on the
//! event stream of many battles against the level-4 party.

use serde_json::{Value, json};

use super::monsters::monster;
use super::support::*;
use crate::combat::SimOptions;
use crate::combat::action::{Action, ActionKind, Reason};
use crate::combat::event::{AfflictionEvent, Event, LifeChange, ManeuverOutcome};
use crate::effects::ConditionId;
use crate::encounter::Encounter;

/// A Large swallower: a bite (+0, 1d4) with grab; swallow whole 2d6 a
/// round, interior AC 12, 3 hp to cut free; CMB +0.
fn swallower(extra: Value) -> crate::model::Combatant {
    let mut swallow = json!({ "kind": "swallow_whole", "name": "swallow whole", "attack": "bite",
                               "damage": "2d6", "ac": 12, "hp": 3 });
    swallow.as_object_mut().unwrap().extend(extra.as_object().unwrap().clone());
    monster(
        "Swallower",
        json!([{ "kind": "on_hit", "name": "grab", "attacks": ["bite"], "effect": { "grab": {} } }, swallow]),
        json!({ "cmb": 0, "size": "Large", "attacks": [{ "name": "bite", "kind": "melee", "attack_bonus": 0,
               "natural": true, "damage": [{ "formula": "1d4", "types": ["piercing"] }] }] }),
    )
}

/// A Medium foe (40 hp) with a light dagger (+2, 1d4) or, without it, a longsword.
fn foe(dagger: bool) -> crate::model::Combatant {
    let weapon = if dagger {
        json!({ "name": "dagger", "light": true, "kind": "melee", "attack_bonus": 2,
                "damage": [{ "formula": "1d4", "types": ["piercing"] }] })
    } else {
        melee("longsword", 2, "1d8")
    };
    creature("Foe", json!({ "hp_max": 40, "attacks": [weapon] }))
}

fn duel(a: crate::model::Combatant, dagger: bool) -> crate::combat::prepared::PreparedEncounter {
    prepare(arena(4, 12), vec![("monsters", a, at(1, 1)), ("players", foe(dagger), at(1, 3))])
}

/// Turn 1: bite d20 15 hits, 1d4 = 2; grab d20 15 wins. Turn 2: the
/// swallow check d20 15 wins; the bite's 1d4 = 3.
const SWALLOWED: [u32; 5] = [15, 2, 15, 15, 3];

#[test]
fn a_held_foe_is_swallowed_on_a_won_check_taking_the_bite_then_the_listed_damage_each_round() {
    let prep = duel(swallower(json!({})), true);
    let foe_square = prep_square(&prep, 1);
    // Round 3: 2d6 = 4 + 5 inside.
    let mut dice = SWALLOWED.to_vec();
    dice.extend([4, 5]);
    let mut b = Bench::new(&dice);
    let mut e = b.engine(&prep, &SimOptions::default());
    turn(&mut e, 0, vec![Action::at(ActionKind::Attack, 1)]);
    assert_eq!(e.st.fighters[1].grappled_with, Some(0));
    e.start_round();
    turn(&mut e, 0, vec![]);
    assert!(e.st.is_swallowed(1));
    assert_eq!(e.st.hp(1), 40 - 2 - 3);
    assert!(
        e.st.has_condition(1, ConditionId::Grappled),
        "a swallowed creature keeps the grappled condition"
    );
    assert_eq!(e.st.occupant(foe_square), None, "inside: off the map");
    assert_eq!(e.st.turn_limits(0).single_move, Some(Reason::DowngradedHolding), "the check was its action");
    e.start_round();
    turn(&mut e, 0, vec![]);
    assert_eq!(e.st.hp(1), 40 - 2 - 3 - 9);
    assert_eq!(e.st.turn_limits(0).single_move, None, "its victim inside, the swallower's turn is whole");
    drop(e);
    assert!(b.events.iter().any(|r| matches!(
        &r.event,
        Event::Affliction { who: 0, what: AfflictionEvent::Swallows { target: 1, .. } }
    )));
}

/// The swallower's first two turns: a bite that grabs, then the swallow check.
fn grab_then_swallow(e: &mut crate::combat::engine::Engine<'_, '_, crate::rng::ScriptedRng>) {
    turn(e, 0, vec![Action::at(ActionKind::Attack, 1)]);
    e.start_round();
    turn(e, 0, vec![]);
}

fn prep_square(prep: &crate::combat::prepared::PreparedEncounter, i: usize) -> crate::map::Pos {
    crate::combat::state::BattleState::new(prep, &SimOptions::default()).pos(i)
}

#[test]
fn a_lost_swallow_check_ends_the_grapple() {
    let prep = duel(swallower(json!({})), true);
    let mut b = Bench::new(&[15, 2, 15, 1]);
    let mut e = b.engine(&prep, &SimOptions::default());
    grab_then_swallow(&mut e);
    assert!(!e.st.is_swallowed(1));
    assert_eq!(e.st.fighters[1].grappled_with, None);
}

#[test]
fn a_swallowed_foe_cuts_at_the_interior_ac_until_it_reaches_the_hit_points_then_is_out_beside() {
    let prep = duel(swallower(json!({})), true);
    // Its turn: dagger d20 10 + 2 - 2 (grappled) = 10 < AC 12: a miss. Next
    // turn: d20 12 + 0 = 12 hits, 1d4 = 2 (2/3). Then d20 15 hits, 1d4 = 1: 3/3, out.
    let mut dice = SWALLOWED.to_vec();
    dice.extend([10, 12, 2, 15, 1]);
    let mut b = Bench::new(&dice);
    let mut e = b.engine(&prep, &SimOptions::default());
    grab_then_swallow(&mut e);
    turn(&mut e, 1, vec![Action::at(ActionKind::FullAttack, 0)]);
    assert_eq!(e.st.fighters[1].monster.cut, 0);
    turn(&mut e, 1, vec![]);
    assert_eq!(e.st.fighters[1].monster.cut, 2);
    assert!(e.st.is_swallowed(1));
    turn(&mut e, 1, vec![]);
    assert!(!e.st.is_swallowed(1));
    assert!(!e.st.has_condition(1, ConditionId::Grappled));
    assert_eq!(e.st.distance(0, 1), 5, "out on a square beside the swallower");
    assert_eq!(e.st.occupant(e.st.pos(1)), Some(1));
    assert!(e.st.fighters[0].monster.holed, "the hole: no swallowing again");
    drop(e);
    let cuts: Vec<(i32, i32, u32, u32)> = b
        .events
        .iter()
        .filter_map(|r| match r.event {
            Event::Affliction {
                who: 1,
                what: AfflictionEvent::CutsInside { bonus, ac, damage, cut, .. },
            } => Some((bonus, ac, damage, cut)),
            _ => None,
        })
        .collect();
    assert_eq!(cuts, [(0, 12, 0, 0), (0, 12, 2, 2), (0, 12, 1, 3)], "+2 − 2 grappled against AC 12");
}

#[test]
fn without_a_light_slashing_or_piercing_weapon_it_escapes_back_into_the_mouth() {
    let prep = duel(swallower(json!({})), false);
    // Its escape: d20 18 + CMB 1 (BAB 1) − 0 against the swallower's CMD.
    let mut dice = SWALLOWED.to_vec();
    dice.push(20);
    let mut b = Bench::new(&dice);
    let mut e = b.engine(&prep, &SimOptions::default());
    grab_then_swallow(&mut e);
    turn(&mut e, 1, vec![Action::at(ActionKind::FullAttack, 0)]);
    assert!(!e.st.is_swallowed(1));
    assert_eq!(e.st.fighters[1].grappled_with, Some(0), "back in the mouth: still grappled");
    assert_eq!(e.st.distance(0, 1), 5);
    assert!(!e.st.fighters[0].monster.holed, "an escape cuts no hole");
    drop(e);
    assert!(b.events.iter().any(|r| matches!(
        r.event,
        Event::Affliction { who: 1, what: AfflictionEvent::BackInMouth { from: 0 } }
    )));
}

#[test]
fn nobody_reaches_a_swallowed_creature_and_it_threatens_nobody() {
    let prep = prepare(
        arena(4, 12),
        vec![
            ("monsters", swallower(json!({})), at(1, 1)),
            ("players", foe(true), at(1, 3)),
            ("monsters", creature("Ally", json!({ "hp_max": 20 })), at(3, 4)),
        ],
    );
    let mut b = Bench::new(&SWALLOWED);
    let mut e = b.engine(&prep, &SimOptions::default());
    grab_then_swallow(&mut e);
    assert!(e.st.is_swallowed(1));
    turn(&mut e, 2, vec![Action::at(ActionKind::Attack, 1)]);
    assert_eq!(e.st.last_results(2)[0].reason, Some(Reason::MissingTarget));
    assert!(!e.st.threatens(1, 2), "inside, it threatens no square");
    assert_eq!(e.st.nearest_enemy(2), None);
}

#[test]
fn a_foe_too_large_for_the_mouth_is_held_not_swallowed_and_capacity_limits_the_inside() {
    // A Medium swallower (default: one size category smaller) cannot swallow a Medium foe.
    let mut medium = swallower(json!({}));
    medium.size = crate::model::Size::Medium;
    let prep = prepare(arena(4, 12), vec![("monsters", medium, at(1, 1)), ("players", foe(true), at(1, 2))]);
    let mut b = Bench::new(&[15, 2, 15, 15, 3]);
    let mut e = b.engine(&prep, &SimOptions::default());
    grab_then_swallow(&mut e);
    assert!(!e.st.is_swallowed(1));
    assert_eq!(e.st.fighters[1].grappled_with, Some(0), "a maintained hold instead");
    // With `smaller: 0` it may; with a capacity of 1 already full, it may not.
    let mut same = swallower(json!({ "smaller": 0, "capacity": 1 }));
    same.size = crate::model::Size::Medium;
    let prep = prepare(arena(4, 12), vec![("monsters", same, at(1, 1)), ("players", foe(true), at(1, 2))]);
    let mut b = Bench::new(&SWALLOWED);
    let mut e = b.engine(&prep, &SimOptions::default());
    assert!(e.may_swallow(0, 1));
    e.st.fighters[0].monster.swallowing = 1;
    assert!(!e.may_swallow(0, 1));
}

#[test]
fn a_swallower_that_falls_lets_its_victim_out_and_one_that_reforms_may_swallow_again() {
    let prep = duel(swallower(json!({ "reforms": true })), true);
    // Swallowed; cuts d20 15, 1d4 = 4 (with 2 cut before: out); swallowed
    // again: d20 15, 1d4 = 3.
    let mut dice = SWALLOWED.to_vec();
    dice.extend([15, 4, 15, 3]);
    let mut b = Bench::new(&dice);
    let mut e = b.engine(&prep, &SimOptions::default());
    grab_then_swallow(&mut e);
    e.st.fighters[1].monster.cut = 2;
    turn(&mut e, 1, vec![]);
    assert!(!e.st.is_swallowed(1));
    assert!(!e.st.fighters[0].monster.holed, "it flows together again");
    // Swallowed again, then the swallower dies: its victim comes out.
    e.grapple(0, 1);
    e.swallow(0, 1);
    assert!(e.st.is_swallowed(1));
    e.slay(0);
    e.check_grapples();
    assert!(!e.st.is_swallowed(1));
    assert!(!e.st.has_condition(1, ConditionId::Grappled));
    drop(e);
    assert!(b.events.iter().any(|r| matches!(
        r.event,
        Event::Affliction { who: 1, what: AfflictionEvent::FallsOut { from: 0 } }
    )));
}

#[test]
fn swallow_whole_without_a_grabbing_mouth_or_with_a_bad_effect_is_one_error_naming_the_field() {
    let bite = json!([{ "name": "bite", "kind": "melee", "attack_bonus": 0, "natural": true,
                        "damage": [{ "formula": "1d4", "types": ["piercing"] }] }]);
    let bad = |specials: Value| super::holds::special_error(specials, bite.clone());
    let swallow = json!({ "kind": "swallow_whole", "name": "swallow whole", "attack": "bite",
                          "damage": "2d6", "ac": 12, "hp": 3 });
    let e = bad(json!([swallow.clone()]));
    assert!(e.contains("special_abilities[0].attack") && e.contains("grabs"), "{e}");
    let grab = json!({ "kind": "on_hit", "name": "grab", "attacks": ["bite"], "effect": { "grab": {} } });
    let mut trip = swallow.clone();
    trip["effect"] = json!({ "trip": {} });
    let e = bad(json!([grab.clone(), trip]));
    assert!(e.contains("special_abilities[1].effect"), "{e}");
    let mut zero = swallow.clone();
    zero["hp"] = json!(0);
    let e = bad(json!([grab.clone(), zero]));
    assert!(e.contains("special_abilities[1].hp"), "{e}");
    let mut dice = swallow;
    dice["damage"] = json!("2q6");
    let e = bad(json!([grab, dice]));
    assert!(e.contains("special_abilities[1].damage"), "{e}");
}

/// Esha, Harvie, Oni and Nairda against the shipped gibbering mouther on the open field.
fn party_against_the_mouther() -> Encounter {
    party_on_field("gibbering_mouther")
}

#[test]
fn the_mouther_engulfs_a_held_pc_who_takes_its_damage_each_round_and_whom_nobody_attacks_inside() {
    let encounter = party_against_the_mouther();
    let (mut engulfed, mut digested, mut out) = (0, 0, 0);
    for run in 0..60 {
        let transcript = spared_transcript(&encounter, 13, run);
        let mut inside: Option<usize> = None;
        for r in &transcript.events {
            match &r.event {
                Event::Affliction { what: AfflictionEvent::Swallows { target, ability }, .. } => {
                    assert_eq!(ability, "engulf");
                    assert_eq!(inside, None, "one foe at a time");
                    inside = Some(*target);
                    engulfed += 1;
                }
                Event::Affliction { what: AfflictionEvent::Strikes { ability, target }, .. }
                    if ability == "engulf" =>
                {
                    assert_eq!(inside, Some(*target), "its damage falls on the one inside");
                    digested += 1;
                }
                Event::Affliction {
                    who,
                    what:
                        AfflictionEvent::CutsFree { .. }
                        | AfflictionEvent::BackInMouth { .. }
                        | AfflictionEvent::FallsOut { .. },
                } => {
                    assert_eq!(inside, Some(*who));
                    inside = None;
                    out += 1;
                }
                Event::Life { who, change: LifeChange::Dies, .. } | Event::SummonEnds { who }
                    if inside == Some(*who) =>
                {
                    inside = None;
                }
                Event::Attack(a) => {
                    assert_ne!(Some(a.target), inside, "an attack on a creature inside the mouther");
                }
                Event::Maneuver { who, outcome: ManeuverOutcome::Grappled { .. } } => {
                    assert_ne!(Some(*who), inside);
                }
                _ => {}
            }
        }
    }
    assert!(engulfed > 0 && digested > 0 && out > 0, "engulfed {engulfed}, digested {digested}, out {out}");
}
