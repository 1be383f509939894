//! A defender's energy spells against the energy of a weapon or natural
//! attack (`riders::energy_defense`, `riders::absorb_energy`): Resist
//! Energy takes its amount off each hit's energy, Protection from Energy
//! absorbs it until its pool is spent, a Fire Shield halves the other
//! energy, as they do a spell's damage (CRB "Resist Energy": "whenever it
//! would take energy damage"; "Protection from Energy"; "Fire Shield").

use serde_json::json;

use super::support::*;
use crate::combat::action::{Action, ActionKind};
use crate::combat::event::{AttackStep, EffectEnd, Event, Record};
use crate::rng::SeededRng;

/// A level-5 caster who knows `spell`, AC 10 and many hit points.
fn warded(spell: &str) -> crate::model::Combatant {
    caster(
        "Wizard",
        &[spell],
        json!({ "level": 5, "hp_max": 100000, "ac": { "total": 10, "touch": 10, "flat_footed": 10 },
                "attacks": [melee("dagger", 0, "1d4")] }),
    )
}

/// A foe whose slam deals `physical` bludgeoning (when not empty) and
/// `energy` of `kind`, hitting AC 10 on anything but a natural 1.
fn burning(physical: &str, energy: &str, kind: &str) -> crate::model::Combatant {
    let mut damage = Vec::new();
    if !physical.is_empty() {
        damage.push(json!({ "formula": physical, "types": ["bludgeoning"] }));
    }
    damage.push(json!({ "formula": energy, "types": [kind] }));
    let slam =
        json!({ "name": "slam", "kind": "melee", "attack_bonus": 30, "natural": true, "damage": damage });
    creature("Elemental", json!({ "hp_max": 100000, "attacks": [slam] }))
}

/// The wizard (0) casts its spell (`option`) on itself with the foe out of
/// reach, then the foe, next to it, makes `attacks` attacks, one turn
/// each. The hits' (rolled, dealt) and the events.
fn hits(
    prep: &crate::combat::PreparedEncounter,
    spell: &str,
    option: u8,
    seed: u64,
    attacks: u32,
) -> (Vec<(u32, u32)>, Vec<Record>) {
    let mut rng = SeededRng::for_run(43, seed);
    let mut events: Vec<Record> = Vec::new();
    let index = prep.spell_index(spell).expect("the spell");
    let mut e = started(prep, &mut rng, Some(&mut events));
    let r = e.execute_for_test(0, Action::cast(index, Some(0)).with_option(option));
    assert!(r.ok, "{spell}: {:?}", r.reason);
    e.st.relocate(1, at(2, 3));
    for _ in 0..attacks {
        e.take_turn(1, &mut script(vec![Action::at(ActionKind::Attack, 0)]));
        e.start_round();
    }
    drop(e);
    let damage = events
        .iter()
        .filter_map(|r| match &r.event {
            Event::Attack(a) if a.who == 1 && a.target == 0 => a.steps.iter().find_map(|s| match s {
                AttackStep::Damage { rolled, dealt, .. } => Some((*rolled, *dealt)),
                _ => None,
            }),
            _ => None,
        })
        .collect();
    (damage, events)
}

fn prepared(spell: &str, foe: crate::model::Combatant) -> crate::combat::PreparedEncounter {
    prepare_magic(arena(6, 6), vec![("a", warded(spell), at(2, 2)), ("b", foe, at(5, 5))])
}

#[test]
fn resist_energy_takes_ten_off_the_energy_of_each_hit_and_is_chosen_against_the_foes_energy() {
    for kind in ["fire", "cold", "acid"] {
        let prep = prepared("Resist Energy", burning("4", "15", kind));
        let mut seen = 0;
        for seed in 0..40 {
            let (damage, _) = hits(&prep, "Resist Energy", 0, seed, 3);
            for (rolled, dealt) in damage {
                // 4 bludgeoning (8 on a critical hit) and 15 of the energy,
                // of which resistance 10 at caster level 5 takes 10.
                assert!(rolled == 19 || rolled == 23, "{kind}: rolled {rolled}");
                assert_eq!(dealt, rolled - 10, "{kind}, seed {seed}");
                seen += 1;
            }
        }
        assert!(seen > 100, "{kind}: {seen} hits");
    }
}

#[test]
fn resistance_leaves_no_energy_below_zero_and_spares_the_physical_part() {
    let prep = prepared("Resist Energy", burning("6", "3", "electricity"));
    let (damage, _) = hits(&prep, "Resist Energy", 0, 7, 5);
    assert!(!damage.is_empty());
    for (rolled, dealt) in damage {
        // 3 electricity against resistance 10: none; the 6 (12 on a critical) stays.
        assert_eq!(dealt, rolled - 3, "rolled {rolled}");
    }
}

#[test]
fn protection_from_energy_absorbs_twelve_per_level_then_is_discharged() {
    let prep = prepared("Protection from Energy", burning("", "15", "fire"));
    for seed in 0..30 {
        let (damage, events) = hits(&prep, "Protection from Energy", 0, seed, 8);
        // 60 points at caster level 5: four hits of 15, then the spell is spent.
        let dealt: Vec<u32> = damage.iter().map(|&(_, d)| d).collect();
        let absorbed = dealt.len().min(4);
        assert!(dealt[..absorbed].iter().all(|&d| d == 0), "seed {seed}: {dealt:?}");
        assert!(dealt[absorbed..].iter().all(|&d| d == 15), "seed {seed}: {dealt:?}");
        let spent = events
            .iter()
            .any(|r| matches!(&r.event, Event::EffectEnds { who: 0, why: EffectEnd::UsedUp, .. }));
        assert_eq!(spent, dealt.len() >= 4, "seed {seed}: {dealt:?}");
    }
}

#[test]
fn a_chill_shield_halves_a_weapons_fire_and_a_warm_one_does_not() {
    let prep = prepared("Fire Shield", burning("", "15", "fire"));
    // Option 1, chill shield: fire is halved, rounded down.
    let (chill, _) = hits(&prep, "Fire Shield", 1, 3, 6);
    assert!(!chill.is_empty());
    assert!(chill.iter().all(|&(rolled, dealt)| rolled == 15 && dealt == 7), "{chill:?}");
    // Option 0, warm shield: it wards against cold, not fire.
    let (warm, _) = hits(&prep, "Fire Shield", 0, 3, 6);
    assert!(!warm.is_empty());
    assert!(warm.iter().all(|&(_, dealt)| dealt == 15), "{warm:?}");
}

/// What the default policy has a caster who knows only `spell` do first,
/// its foe `foe` 60 ft away (out of its dagger's reach: step 5, a buff).
fn opening_with(spell: &str, foe: crate::model::Combatant) -> Vec<Action> {
    let prep = prepare_magic(arena(6, 16), vec![("a", warded(spell), at(2, 1)), ("b", foe, at(2, 13))]);
    opening_plan(&prep, 1)
}

#[test]
fn a_ward_against_energy_is_raised_only_against_a_foe_that_deals_energy() {
    let casts = |plan: &[Action]| plan.iter().any(|a| a.kind == ActionKind::CastSpell);
    for spell in ["Resist Energy", "Protection from Energy"] {
        let plan = opening_with(spell, club_ogre(json!({})));
        assert!(!casts(&plan), "{spell} against a club: {plan:?}");
        let plan = opening_with(spell, burning("1d6", "1d6", "fire"));
        assert!(casts(&plan), "{spell} against a burning slam: {plan:?}");
    }
}
