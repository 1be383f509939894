//! The default policy flanks as a table does (`policy::flank`): a melee
//! combatant closing in ends its move on the far side of the foe from an
//! ally when the route provokes nothing, and one already in reach takes a
//! 5-foot step there before its full attack.

use serde_json::json;

use super::support::*;
use crate::combat::event::{AttackNote, Event, ModSource, Record};
use crate::combat::policy::DefaultPolicy;
use crate::map::Pos;
use crate::rng::SeededRng;

/// A swordsman with two attacks a full attack (BAB +6).
fn swordsman(name: &str) -> crate::model::Combatant {
    creature(name, json!({ "hp_max": 60, "bab": 6, "attacks": [melee("sword", 8, "1d8+4")] }))
}

/// A sturdy foe that threatens the squares next to it.
fn ogre(name: &str) -> crate::model::Combatant {
    creature(
        name,
        json!({ "hp_max": 500, "ac": { "total": 14, "touch": 10, "flat_footed": 14 },
                "attacks": [melee("club", 4, "1d6+2")] }),
    )
}

/// Over 30 seeds: the rogue's (combatant 1) first turn under the default
/// policy, the fighter (0) at (6, 9) west of the ogre (2) at (6, 10), the
/// rogue on `rogue_at`, and `more` other foes; as (where the rogue ends,
/// whether each of its attacks had the flanking bonus, the events).
fn rogue_turn(rogue_at: Pos, more: &[Pos]) -> Vec<(Pos, Vec<bool>, Vec<Record>)> {
    let mut placed = vec![
        ("a", swordsman("Fighter"), at(6, 9)),
        ("a", swordsman("Rogue"), rogue_at),
        ("b", ogre("Ogre"), at(6, 10)),
    ];
    for (k, &p) in more.iter().enumerate() {
        placed.push(("b", ogre(&format!("Guard{k}")), p));
    }
    let prep = prepare(arena(13, 20), placed);
    (0..30)
        .map(|seed| {
            let mut rng = SeededRng::for_run(71, seed);
            let mut events: Vec<Record> = Vec::new();
            let mut e = started(&prep, &mut rng, Some(&mut events));
            e.take_turn(1, &mut DefaultPolicy);
            let end = e.st.pos(1);
            drop(e);
            let flanked = events
                .iter()
                .filter_map(|r| match &r.event {
                    Event::Attack(a) if a.who == 1 => Some(
                        a.notes
                            .iter()
                            .any(|n| matches!(n, AttackNote::Modifier { source: ModSource::Flanking, .. })),
                    ),
                    _ => None,
                })
                .collect();
            (end, flanked, events)
        })
        .collect()
}

#[test]
fn a_rogue_closing_in_ends_its_move_on_the_far_side_of_the_foe_from_its_ally() {
    // The cheapest square to strike from is (7, 11), beside the ogre but not
    // across it from the fighter; (6, 11) costs 5 ft more and flanks, by a
    // route through no square the ogre threatens.
    for (end, flanked, events) in rogue_turn(at(10, 14), &[]) {
        assert_eq!(end, at(6, 11), "{events:#?}");
        assert_eq!(flanked, vec![true], "one attack after the move, flanking: {events:#?}");
    }
}

#[test]
fn a_rogue_in_reach_steps_to_flank_then_makes_its_full_attack() {
    for (end, flanked, events) in rogue_turn(at(7, 11), &[]) {
        assert_eq!(end, at(6, 11), "{events:#?}");
        assert!(
            events.iter().any(|r| matches!(r.event, Event::Step { who: 1, to, .. } if to == at(6, 11))),
            "a 5-foot step: {events:#?}"
        );
        assert_eq!(flanked, vec![true, true], "both blows of the full attack flank: {events:#?}");
    }
}

#[test]
fn no_flanking_move_that_would_provoke() {
    // A guard east of (6, 11): every square next to (6, 11) is threatened by
    // the ogre or the guard, so a move there provokes on the way; the rogue
    // takes its plain approach instead.
    for (end, _, events) in rogue_turn(at(10, 14), &[at(6, 12)]) {
        assert_ne!(end, at(6, 11), "{events:#?}");
        assert!(
            !events.iter().any(|r| matches!(&r.event, Event::Attack(a) if a.aoo && a.target == 1)),
            "the rogue provoked: {events:#?}"
        );
    }
}
