//! Dimension Door (`spells::teleport`, `policy::escape`; CRB "Dimension
//! Door"): the caster appears on a free spot within long range (400 ft +
//! 40 ft per level) without moving, so nothing provokes; a grapple ends;
//! it can take no other action that turn; the default policy teleports a
//! caster out of a melee that would fell it within two rounds.

use serde_json::json;

use super::support::*;
use crate::combat::action::{Action, ActionKind, Reason};
use crate::combat::engine::Engine;
use crate::combat::event::{ConcentrationCause, Event, Record, SpellEvent};
use crate::effects::ConditionId;
use crate::rng::SeededRng;

const DD: &str = "Dimension Door";

/// A caster of `level` (AC 10, `hp` hit points) who knows Dimension Door and Magic Missile.
fn mage(level: u32, hp: i32) -> crate::model::Combatant {
    caster(
        "Mage",
        &[DD, "Magic Missile"],
        json!({ "spell_list": "wizard", "level": level, "hp_max": hp,
                "ac": { "total": 10, "touch": 10, "flat_footed": 10 }, "attacks": [melee("dagger", 0, "1d4")] }),
    )
}

fn door(prep: &crate::combat::PreparedEncounter, to: crate::map::Pos) -> Action {
    let mut a = Action::cast(prep.spell_index(DD).expect("the spell"), None);
    a.destination = Some(to);
    a
}

fn engine<'a, 'p>(
    prep: &'p crate::combat::PreparedEncounter,
    rng: &'a mut SeededRng,
    events: &'a mut Vec<Record>,
) -> Engine<'a, 'p, SeededRng> {
    started(prep, rng, Some(events))
}

#[test]
fn the_door_reaches_400_ft_plus_40_per_level_and_no_farther() {
    // Caster level 1: 440 ft, 88 squares along the row.
    let prep = prepare_magic(
        arena(3, 100),
        vec![("a", mage(1, 30), at(2, 1)), ("b", club_ogre(json!({})), at(1, 100))],
    );
    for (col, ok) in [(89, true), (90, false)] {
        let mut rng = SeededRng::for_run(71, 0);
        let mut events = Vec::new();
        let mut e = engine(&prep, &mut rng, &mut events);
        let r = e.execute_for_test(0, door(&prep, at(2, col)));
        let pos = e.st.pos(0);
        drop(e);
        if ok {
            assert!(r.ok, "{:?}", r.reason);
            assert_eq!(pos, at(2, col));
            let teleported = events.iter().any(|r| {
                matches!(&r.event, Event::Spell { who: 0, what: SpellEvent::Teleports { from, to }, .. }
                    if *from == at(2, 1) && *to == at(2, col))
            });
            assert!(teleported);
        } else {
            assert_eq!(r.reason, Some(Reason::OutOfRange));
            assert_eq!(pos, at(2, 1));
            assert!(events.iter().all(|r| !matches!(&r.event, Event::Casts { .. })), "nothing spent");
        }
    }
}

#[test]
fn the_spot_must_be_free_and_named() {
    let prep =
        prepare_magic(arena(3, 8), vec![("a", mage(7, 30), at(2, 1)), ("b", club_ogre(json!({})), at(2, 6))]);
    let mut rng = SeededRng::for_run(72, 0);
    let mut e = started(&prep, &mut rng, None);
    let mut nowhere = door(&prep, at(2, 2));
    nowhere.destination = None;
    for (a, why) in [
        (door(&prep, at(2, 6)), "a creature's square"),
        (door(&prep, at(0, 3)), "a wall"),
        (door(&prep, at(2, 1)), "where it stands"),
        (nowhere, "no spot"),
    ] {
        assert_eq!(e.execute_for_test(0, a).reason, Some(Reason::InvalidDestination), "{why}");
    }
}

#[test]
fn the_caster_appears_without_provoking_and_its_turn_ends() {
    let prep = prepare_magic(
        arena(3, 12),
        vec![("a", mage(7, 1000), at(2, 2)), ("b", club_ogre(json!({})), at(2, 3))],
    );
    let mut went = 0;
    for seed in 0..40 {
        let mut rng = SeededRng::for_run(73, seed);
        let mut events = Vec::new();
        let mut e = engine(&prep, &mut rng, &mut events);
        let walk = Action::new(ActionKind::Move).with_destination(at(2, 11));
        e.take_turn(0, &mut script(vec![door(&prep, at(2, 10)).defensively(), walk]));
        let pos = e.st.pos(0);
        drop(e);
        let cast_ok = events
            .iter()
            .any(|r| matches!(&r.event, Event::Spell { what: SpellEvent::Teleports { .. }, .. }));
        if !cast_ok {
            continue;
        }
        went += 1;
        assert_eq!(pos, at(2, 10));
        // Cast defensively, then gone: no attack of opportunity at all.
        assert!(!events.iter().any(|r| matches!(&r.event, Event::Attack(a) if a.aoo)), "seed {seed}");
        let ended = events.iter().any(
            |r| matches!(&r.event, Event::ActionFailed { who: 0, reason, .. } if reason == "turn_ended"),
        );
        assert!(ended, "the move after the door fails, seed {seed}: {:#?}", english(&prep, &events));
    }
    // Concentration +10 against DC 23: 40 % go.
    assert!(went >= 8, "{went}");
}

#[test]
fn the_door_takes_the_caster_out_of_a_grapple() {
    let prep = prepare_magic(
        arena(3, 12),
        vec![("a", mage(7, 1000), at(2, 2)), ("b", club_ogre(json!({})), at(2, 3))],
    );
    let mut freed = 0;
    for seed in 0..20 {
        let mut rng = SeededRng::for_run(74, seed);
        let mut events = Vec::new();
        let mut e = engine(&prep, &mut rng, &mut events);
        e.grapple(1, 0);
        assert!(e.st.has_condition(0, ConditionId::Grappled));
        let r = e.execute_for_test(0, door(&prep, at(2, 10)));
        assert!(r.ok, "{:?}", r.reason);
        if e.st.pos(0) == at(2, 10) {
            freed += 1;
            assert!(
                !e.st.has_condition(0, ConditionId::Grappled) && e.st.fighters[0].grappled_with.is_none()
            );
        }
    }
    // The grappled caster's concentration check (DC 10 + the ogre's CMB + 4) fails at times.
    assert!(freed >= 5, "{freed}");
}

/// The mage's first planned actions under the default policy.
fn plan(prep: &crate::combat::PreparedEncounter) -> Vec<Action> {
    opening_plan(prep, 1)
}

#[test]
fn a_caster_two_rounds_from_falling_teleports_out_of_reach_and_not_otherwise() {
    let ogres = |hp: i32| {
        prepare_magic(
            arena(8, 20),
            vec![
                ("a", mage(7, hp), at(4, 4)),
                ("b", club_ogre(json!({})), at(4, 5)),
                ("b", club_ogre(json!({})), at(4, 3)),
            ],
        )
    };
    // Two ogres at 8.5 a round each: 34 over two rounds against 30 hit points.
    let prep = ogres(30);
    let out = plan(&prep);
    let cast = out.iter().find(|a| a.kind == ActionKind::CastSpell).expect("a spell");
    assert_eq!(cast.spell, prep.spell_index(DD), "{out:?}");
    let to = cast.destination.expect("a spot");
    // Out of both ogres' move (30 ft) and reach (5 ft).
    for o in [at(4, 5), at(4, 3)] {
        assert!(crate::grid::distance_ft(o, to) > 35, "{to:?}");
    }
    // With 40 hit points it stands and casts.
    let prep = ogres(40);
    let out = plan(&prep);
    assert!(out.iter().all(|a| a.spell != prep.spell_index(DD)), "{out:?}");
}

#[test]
fn over_battles_the_door_is_cast_under_pressure_and_ends_the_turn() {
    let prep = prepare_magic(
        arena(8, 30),
        vec![
            ("a", mage(7, 30), at(4, 4)),
            ("b", club_ogre(json!({})), at(4, 6)),
            ("b", club_ogre(json!({})), at(5, 6)),
        ],
    );
    let (mut casts, mut doors) = (0, 0);
    for seed in 0..40 {
        let events = policy_battle(&prep, 75, seed);
        for (k, r) in events.iter().enumerate() {
            if let Event::Casts { who: 0, spell, .. } = &r.event
                && spell == DD
            {
                casts += 1;
                // Threatened by the ogres: always defensively, never at the mercy of their clubs.
                let defensive = events[k + 1..].first().is_some_and(|x| {
                    matches!(
                        &x.event,
                        Event::Concentration { who: 0, cause: ConcentrationCause::Defensive, .. }
                    )
                });
                assert!(defensive, "seed {seed}");
            }
            if let Event::Spell { who: 0, what: SpellEvent::Teleports { to, .. }, .. } = &r.event {
                doors += 1;
                // It did nothing more that turn: no other casting of its own this round.
                let after = events[k + 1..]
                    .iter()
                    .take_while(|x| x.round == r.round)
                    .any(|x| matches!(&x.event, Event::Casts { who: 0, .. }));
                assert!(!after, "seed {seed}: acted after the door");
                assert!(prep.map().in_bounds(*to));
            }
        }
    }
    // Concentration +10 against DC 23: 40 % of the casts go.
    assert!(casts >= 25 && doors >= 5, "{casts} {doors}");
}
