//! The ochre jelly's acid (Bestiary, Ochre Jelly: "constrict (2d4+3 plus
//! 1d4 acid)"; "Acid (Ex) [...] dissolves only flesh [...] creatures not
//! made of flesh (including most constructs and oozes, skeletal undead,
//! plants, and incorporeal creatures) are immune"): a constriction's `plus`
//! components and a damage component's `spares`, against their closed
//! forms with scripted dice, and in battles of the shipped file.

use serde_json::{Value, json};

use super::holds::special_error;
use super::monsters::monster;
use super::support::*;
use crate::combat::SimOptions;
use crate::combat::action::{Action, ActionKind};
use crate::combat::event::{AfflictionEvent, Event, LifeChange};

const FLESH_ONLY: [&str; 4] = ["construct", "ooze", "plant", "incorporeal"];

/// One slam (+0, 1d4 bludgeoning plus 1d4 acid sparing what is not flesh)
/// with grab; constrict 1d6+1 plus 1d4 acid, sparing the same; CMB +0.
fn jelly() -> crate::model::Combatant {
    monster(
        "Jelly",
        json!([{ "kind": "on_hit", "name": "grab", "attacks": ["slam"], "effect": { "grab": {} } },
               { "kind": "constrict", "name": "constrict", "damage": "1d6+1",
                 "plus": [{ "formula": "1d4", "types": ["acid"], "spares": FLESH_ONLY }] }]),
        json!({ "cmb": 0, "attacks": [{ "name": "slam", "kind": "melee", "attack_bonus": 0, "natural": true,
            "damage": [{ "formula": "1d4", "types": ["bludgeoning"] },
                       { "formula": "1d4", "types": ["acid"], "spares": FLESH_ONLY }] }] }),
    )
}

/// The foe's hit points after the jelly's slam hits (d20 15), its grab wins
/// (d20 15) and it constricts once, on `dice` after the d20s.
fn after_grab(foe: Value, dice: &[u32]) -> (i32, Vec<Event>) {
    let prep = prepare(
        arena(3, 12),
        vec![("monsters", jelly(), at(1, 1)), ("players", creature("Foe", foe), at(1, 2))],
    );
    let mut rolls = vec![15];
    rolls.extend_from_slice(&dice[..2]);
    rolls.push(15);
    rolls.extend_from_slice(&dice[2..]);
    let mut b = Bench::new(&rolls);
    let mut e = b.engine(&prep, &SimOptions::default());
    turn(&mut e, 0, vec![Action::at(ActionKind::Attack, 1)]);
    assert_eq!(e.st.fighters[1].grappled_with, Some(0), "the grab holds");
    let hp = e.st.hp(1);
    drop(e);
    (hp, b.events.iter().map(|r| r.event.clone()).collect())
}

#[test]
fn a_constriction_deals_its_plus_acid_after_its_damage() {
    // Slam 1d4 = 2 and acid 1d4 = 3; constrict 1d6+1 = 3 + 1, acid 1d4 = 2.
    let (hp, events) = after_grab(json!({ "hp_max": 40 }), &[2, 3, 3, 2]);
    assert_eq!(hp, 40 - 2 - 3 - 4 - 2);
    let acid: Vec<u32> = events
        .iter()
        .filter_map(|e| match e {
            Event::SpellDamage { who: 0, target: 1, dealt, types, .. } if types == &["acid".to_string()] => {
                Some(*dealt)
            }
            _ => None,
        })
        .collect();
    assert_eq!(acid, [2], "the constriction's acid is its own damage event, typed acid");
}

#[test]
fn the_constrictions_acid_goes_through_acid_resistance_and_immunity() {
    let (hp, _) = after_grab(json!({ "hp_max": 40, "resistances": { "acid": 2 } }), &[2, 3, 3, 4]);
    assert_eq!(hp, 40 - 2 - (3 - 2) - 4 - (4 - 2), "resist acid 2 on the slam's acid and the constriction's");
    let (hp, _) = after_grab(json!({ "hp_max": 40, "immunities": ["acid"] }), &[2, 3, 3, 4]);
    assert_eq!(hp, 40 - 2 - 4, "immune to acid: only the bludgeoning and the constriction");
}

#[test]
fn the_acid_spares_what_is_not_flesh() {
    for kind in ["construct", "ooze", "plant"] {
        // The spared acid of the constriction is not rolled: four dice only.
        let (hp, events) = after_grab(json!({ "hp_max": 40, "creature_type": kind }), &[2, 3, 3]);
        assert_eq!(hp, 40 - 2 - 4, "{kind}: no acid from the slam nor from the constriction");
        assert!(
            // The constriction's own damage is typed bludgeoning (`pf1e-rules-22`).
            !events
                .iter()
                .any(|e| matches!(e, Event::SpellDamage { types, .. } if types.iter().any(|t| t == "acid"))),
            "{kind}: no acid damage event"
        );
    }
    // Flesh of any other type takes it.
    let (hp, _) = after_grab(json!({ "hp_max": 40, "creature_type": "undead" }), &[2, 3, 3, 4]);
    assert_eq!(hp, 40 - 2 - 3 - 4 - 4);
}

#[test]
fn a_bad_spares_entry_or_harms_on_a_constriction_is_one_error_naming_its_place() {
    let slam = json!([{ "name": "slam", "kind": "melee", "attack_bonus": 0, "natural": true,
        "damage": [{ "formula": "1d4", "types": ["acid"], "spares": ["flesh"] }] }]);
    let grab = json!({ "kind": "on_hit", "name": "grab", "attacks": ["slam"], "effect": { "grab": {} } });
    let e = special_error(json!([grab.clone()]), slam);
    assert!(e.contains("attacks[0].damage[0].spares[0]") && e.contains("flesh"), "{e}");
    let slam = json!([{ "name": "slam", "kind": "melee", "attack_bonus": 0, "natural": true,
        "damage": [{ "formula": "1d4", "types": ["bludgeoning"] }] }]);
    let e = special_error(
        json!([grab.clone(), { "kind": "constrict", "name": "constrict", "damage": "1d6",
            "plus": [{ "formula": "1d4", "types": ["acid"], "spares": ["stone"] }] }]),
        slam.clone(),
    );
    assert!(e.contains("special_abilities[1].plus[0].spares[0]") && e.contains("stone"), "{e}");
    let e = special_error(
        json!([grab.clone(), { "kind": "constrict", "name": "constrict", "damage": "1d6",
            "plus": [{ "formula": "1d4", "types": ["acid"], "harms": ["undead"] }] }]),
        slam.clone(),
    );
    assert!(e.contains("special_abilities[1].plus[0].harms") && e.contains("spares"), "{e}");
    let e = special_error(
        json!([grab, { "kind": "constrict", "name": "constrict", "damage": "1d6",
            "plus": [{ "formula": "1d4", "types": ["glue"] }] }]),
        slam,
    );
    assert!(e.contains("special_abilities[1].plus[0].types[0]") && e.contains("glue"), "{e}");
}

/// In battles of the shipped ochre jelly against three PCs, every
/// constriction on a PC still standing is followed by its acid on that PC,
/// (d4 rolled, typed acid) unless the constriction killed it.
#[test]
fn the_shipped_ochre_jelly_constricts_with_acid_in_battle() {
    let party = ["data/pcs/esha.json", "data/pcs/oni.json", "data/pcs/harvie.json"];
    let mut placed = vec![("monsters", data_combatant("data/monsters/ochre_jelly.json"), at(2, 2))];
    for (k, pc) in (0..).zip(party) {
        placed.push(("players", data_combatant(pc), at(2 + 2 * k, 5)));
    }
    let prep = prepare_magic(arena(12, 16), placed);
    let runs = super::monsters::records(&prep, 19, 60);
    let (mut constrictions, mut with_acid) = (0, 0);
    for events in &runs {
        for (k, r) in events.iter().enumerate() {
            let Event::Affliction { who: 0, what: AfflictionEvent::Strikes { ability, target } } = &r.event
            else {
                continue;
            };
            if ability != "constrict" {
                continue;
            }
            constrictions += 1;
            // The constriction's own damage, then its acid on the same target.
            let acid = events[k + 1..].iter().take(4).any(|x| {
                matches!(&x.event, Event::SpellDamage { who: 0, target: t, types, rolled, .. }
                    if t == target && types == &["acid".to_string()] && (1..=4).contains(rolled))
            });
            // The constriction itself may kill: a dead creature takes no acid.
            let died = events[k + 1..].iter().take(3).any(
                |x| matches!(&x.event, Event::Life { who, change: LifeChange::Dies, .. } if who == target),
            );
            if acid || died {
                with_acid += 1;
            }
        }
    }
    assert!(constrictions >= 5, "the jelly constricts in 60 battles: {constrictions}");
    assert_eq!(with_acid, constrictions, "each constriction burns with 1d4 acid");
}
