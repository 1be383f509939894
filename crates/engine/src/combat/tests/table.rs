//! Choices a table would make (`docs/strategy.md`), asserted on the typed
//! event stream of the default policy over many seeds.

use serde_json::json;

use super::support::*;
use crate::combat::SimOptions;
use crate::combat::event::{Event, Record};
use crate::combat::policy::DefaultPolicy;
use crate::map::Pos;
use crate::rng::SeededRng;

/// Plays `runs` battles of `prep` with the default policy, after `setup`
/// (hit points, positions) on the fresh engine; the events of each.
fn battles(
    prep: &crate::combat::PreparedEncounter,
    runs: u64,
    setup: impl Fn(&mut crate::combat::engine::Engine<'_, '_, SeededRng>),
) -> Vec<Vec<Record>> {
    (0..runs)
        .map(|seed| {
            let mut rng = SeededRng::for_run(20, seed);
            let mut events = Vec::new();
            let mut e =
                crate::combat::engine::Engine::new(prep, &SimOptions::default(), &mut rng, Some(&mut events));
            setup(&mut e);
            e.run(&mut DefaultPolicy);
            drop(e);
            events
        })
        .collect()
}

/// A cleric with cures, a dying fighter of its side at `ally_at`, and a
/// harmless enemy far away.
fn healer_scene(ally_at: Pos) -> crate::combat::PreparedEncounter {
    let cleric = caster(
        "Cleric",
        &["Cure Light Wounds", "Cure Moderate Wounds", "Stabilize"],
        json!({ "hp_max": 30, "speed_land_ft": 30, "attacks": [melee("mace", 3, "1d8")] }),
    );
    let fighter = creature("Fighter", json!({ "hp_max": 20, "attacks": [melee("sword", 5, "1d8+3")] }));
    let dummy = creature("Dummy", json!({ "hp_max": 200, "speed_land_ft": 5, "attacks": [] }));
    prepare_magic(
        arena(12, 20),
        vec![("party", cleric, at(2, 1)), ("party", fighter, ally_at), ("foes", dummy, at(10, 18))],
    )
}

/// The round of the first cure (a heal spell cast) on combatant `j`, if any.
fn first_cure_on(events: &[Record], j: usize) -> Option<u32> {
    events.iter().find_map(|r| match &r.event {
        Event::Casts { who: 0, spell, target: Some(t), .. } if *t == j && spell.starts_with("Cure") => {
            Some(r.round)
        }
        _ => None,
    })
}

#[test]
fn the_healer_walks_to_a_dying_ally_within_one_move_and_cures_it_in_round_one() {
    // 35 ft away: one move (30 ft) reaches a square next to it.
    let prep = healer_scene(at(2, 8));
    let logs = battles(&prep, 50, |e| e.st.fighters[1].hp = -3);
    for (seed, events) in logs.iter().enumerate() {
        assert_eq!(first_cure_on(events, 1), Some(1), "seed {seed}");
        // It moved next to the ally first, then the ally was healed.
        let k = events.iter().position(|r| matches!(r.event, Event::Casts { who: 0, .. })).unwrap_or(0);
        assert!(events[..k].iter().any(|r| matches!(r.event, Event::Move { who: 0, .. })), "seed {seed}");
        assert!(
            events[k..]
                .iter()
                .any(|r| matches!(r.event, Event::Healed { who: 1, hp_before, .. } if hp_before < 0)),
            "seed {seed}"
        );
    }
}

#[test]
fn the_healer_double_moves_to_a_farther_dying_ally_and_cures_it_in_round_two() {
    // 60 ft away: two moves bring the cleric next to it, the cure follows.
    let prep = healer_scene(at(2, 13));
    let logs = battles(&prep, 50, |e| e.st.fighters[1].hp = -2);
    let (mut cured, mut dying) = (0, 0);
    for (seed, events) in logs.iter().enumerate() {
        let moves =
            events.iter().filter(|r| r.round == 1 && matches!(r.event, Event::Move { who: 0, .. })).count();
        // A stable ally is no emergency: only a dying one calls for the double move.
        let first_move = events.iter().position(|r| matches!(r.event, Event::Move { who: 0, .. }));
        let stable = events[..first_move.unwrap_or(0)]
            .iter()
            .any(|r| matches!(r.event, Event::Stabilization { who: 1, stable: true, .. }));
        if !stable {
            assert_eq!(moves, 2, "seed {seed}: {:#?}", english(&prep, events));
            dying += 1;
        }
        // When the fighter is still alive at the cleric's second turn, it is cured then.
        let died = events.iter().any(|r| {
            r.round <= 2
                && matches!(
                    r.event,
                    Event::Life { who: 1, change: crate::combat::event::LifeChange::Dies, .. }
                )
        });
        if !died {
            assert_eq!(first_cure_on(events, 1), Some(2), "seed {seed}");
            cured += 1;
        }
    }
    assert!(cured >= 45, "{cured} of 50");
    assert!(dying >= 20, "{dying} of 50 still dying at the cleric's turn");
}

#[test]
fn only_a_dying_ally_is_worth_a_double_move() {
    // 60 ft: two moves away. A hurt (not dying) ally does not call for a
    // double move across the field: in round 1 the cleric plays the attack
    // ladder (toward the foe, far across the arena: a double move of its
    // own), so it ends the round nowhere near the ally, and cures it once
    // one move reaches it.
    let prep = healer_scene(at(2, 13));
    let logs = battles(&prep, 20, |e| e.st.fighters[1].hp = 5);
    for (seed, events) in logs.iter().enumerate() {
        let end = events
            .iter()
            .filter(|r| r.round == 1)
            .filter_map(|r| match &r.event {
                Event::Move { who: 0, path, .. } => path.last().copied(),
                _ => None,
            })
            .next_back();
        if let Some(end) = end {
            let (dr, dc) = ((end.row - 2).abs(), (end.col - 13).abs());
            assert!(dr.max(dc) > 1, "seed {seed}: the cleric walked to the hurt ally ({end:?})");
        }
        assert_ne!(first_cure_on(events, 1), Some(1), "seed {seed}");
    }
}

/// A cleric who channels positive energy (and knows one cure), two hurt
/// allies at `a` and `b`, and a harmless foe they stay next to.
fn channel_scene(a: Pos, b: Pos) -> crate::combat::PreparedEncounter {
    let cleric = caster(
        "Cleric",
        &["Cure Light Wounds"],
        json!({ "hp_max": 30, "attacks": [melee("mace", 3, "1d8")],
                "features": ["Channel Energy"], "resources": { "channel_energy": 3 } }),
    );
    let fighter = || creature("Fighter", json!({ "hp_max": 20, "attacks": [melee("sword", 5, "1d8+3")] }));
    let dummy = creature("Dummy", json!({ "hp_max": 200, "speed_land_ft": 5, "attacks": [] }));
    prepare_magic(
        arena(12, 20),
        vec![
            ("party", cleric, at(2, 1)),
            ("party", fighter(), a),
            ("party", fighter(), b),
            ("foes", dummy, at(3, 5)),
        ],
    )
}

/// The cleric's first action: a channel, a cast, or something else.
fn first_act(events: &[Record]) -> Option<&'static str> {
    events.iter().find_map(|r| match &r.event {
        Event::ChannelsEnergy { who: 0, heals: true, .. } => Some("channel"),
        Event::Casts { who: 0, .. } => Some("cast"),
        Event::Attack(a) if a.who == 0 => Some("other"),
        _ => None,
    })
}

#[test]
fn the_cleric_channels_for_two_hurt_allies_and_cures_a_lone_one() {
    // Two allies at 6 hit points within 30 ft: one channel heals both.
    let prep = channel_scene(at(2, 4), at(4, 4));
    let logs = battles(&prep, 50, |e| {
        e.st.fighters[1].hp = 6;
        e.st.fighters[2].hp = 6;
    });
    for (seed, events) in logs.iter().enumerate() {
        assert_eq!(first_act(events), Some("channel"), "seed {seed}: {:#?}", english(&prep, events));
    }
    // One hurt ally (15 ft away): the cleric walks to it and cures it, no channel.
    let logs = battles(&prep, 50, |e| e.st.fighters[1].hp = 6);
    for (seed, events) in logs.iter().enumerate() {
        assert_eq!(first_act(events), Some("cast"), "seed {seed}");
    }
}
