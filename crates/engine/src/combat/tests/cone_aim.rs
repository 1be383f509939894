//! The default policy turns a cone or a line shaped from the caster toward
//! the foes it catches best (`policy/magic.rs` `shaped_aim`), as a table
//! would: a wizard beside one foe with four more to the side breathes its
//! Burning Hands over the four, not the one; a Lightning Bolt runs through
//! the foes in a row, not at the nearest; never over a friend.

use serde_json::json;

use super::support::*;
use crate::combat::event::{Event, Record};
use crate::combat::prepared::PreparedEncounter;

/// A foe rooted to its square (speed 0), so that the first blast meets
/// the foes where they were placed; `brute` hits hard, the policy's pick.
fn foe(name: &str, brute: bool) -> crate::model::Combatant {
    let club = if brute { melee("greatclub", 12, "2d8+10") } else { melee("club", 2, "1d6") };
    creature(name, json!({ "hp_max": 300, "speed_land_ft": 0, "attacks": [club] }))
}

/// The foes hurt by the wizard's (index 0) first spell, in the first
/// round it deals damage.
fn first_blast(events: &[Record]) -> Vec<usize> {
    let Some(round) =
        events.iter().find(|r| matches!(r.event, Event::SpellDamage { who: 0, .. })).map(|r| r.round)
    else {
        return Vec::new();
    };
    let mut hurt: Vec<usize> = events
        .iter()
        .filter(|r| r.round == round)
        .filter_map(|r| match r.event {
            Event::SpellDamage { who: 0, target, .. } => Some(target),
            _ => None,
        })
        .collect();
    hurt.sort_unstable();
    hurt.dedup();
    hurt
}

/// A 5th-level wizard whose only spell is `spell`, at `here`, with foes
/// (the first a brute) and friends placed.
fn duel(
    spell: &str,
    here: crate::map::Pos,
    foes: &[crate::map::Pos],
    friends: &[crate::map::Pos],
) -> PreparedEncounter {
    let wizard = caster("Wizard", &[spell], json!({ "spell_list": "wizard", "level": 5, "hp_max": 200 }));
    let mut placed = vec![("a", wizard, here)];
    for (k, &p) in foes.iter().enumerate() {
        placed.push(("b", foe(&format!("Foe {k}"), k == 0), p));
    }
    for (k, &p) in friends.iter().enumerate() {
        placed.push(("a", foe(&format!("Friend {k}"), false), p));
    }
    prepare_magic(arena(16, 16), placed)
}

#[test]
fn burning_hands_turns_from_the_lone_foe_beside_the_wizard_to_the_four_at_its_side() {
    // The lone brute stands 10 ft to the east (out of reach, the policy's
    // target); four stand 10 and 15 ft south, within 15 ft and 45° of
    // due south, none within 45° of east.
    let prep = duel("Burning Hands", at(5, 5), &[at(5, 7), at(7, 5), at(7, 6), at(8, 5), at(8, 6)], &[]);
    for seed in 0..20 {
        let hurt = first_blast(&policy_battle(&prep, 71, seed));
        assert_eq!(hurt, [2, 3, 4, 5], "seed {seed}: the cone should sweep the four to the south");
    }
}

#[test]
fn a_lightning_bolt_runs_down_the_row_of_foes_not_at_the_nearest() {
    // The nearest foe stands alone to the north; three stand in a row to
    // the east, the first of them farther than the lone one.
    let prep = duel("Lightning Bolt", at(8, 2), &[at(6, 2), at(8, 6), at(8, 9), at(8, 12)], &[]);
    for seed in 0..20 {
        let hurt = first_blast(&policy_battle(&prep, 72, seed));
        assert_eq!(hurt, [2, 3, 4], "seed {seed}: the bolt should run through the row");
    }
}

#[test]
fn a_cone_never_turns_over_a_friend_even_for_more_foes() {
    // The three to the south have a friend among them: the cone goes east
    // over the brute and the foe beside it (one foe is too few under the
    // default `area_min` of 2).
    let prep =
        duel("Burning Hands", at(5, 5), &[at(5, 7), at(4, 7), at(7, 5), at(7, 6), at(8, 5)], &[at(8, 6)]);
    for seed in 0..20 {
        let hurt = first_blast(&policy_battle(&prep, 73, seed));
        assert!(!hurt.is_empty(), "seed {seed}: two foes to the east are worth the cone");
        assert!(hurt.iter().all(|&j| (1..=5).contains(&j)), "seed {seed}: the friend was burned: {hurt:?}");
        assert_eq!(hurt, [1, 2], "seed {seed}: the cone should go east");
    }
}
