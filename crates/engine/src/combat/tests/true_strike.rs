//! True Strike, then the blow (`policy::true_strike`, `docs/strategy.md`):
//! cast when the one blow it prepares gains more than the turn it takes,
//! and always followed by that blow.

use serde_json::json;

use super::support::*;
use crate::combat::event::{Event, Record};
use crate::combat::event_kinds::EffectEnd;
use crate::combat::prepared::PreparedEncounter;

/// A wizard with True Strike in two slots and a light crossbow (+4, 1d8).
fn wizard() -> crate::model::Combatant {
    caster(
        "Wizard",
        &["True Strike"],
        json!({ "spell_list": "wizard", "casting_ability": "int", "hp_max": 30,
                "spell_slots": { "1": 2 },
                "abilities": { "str_score": 10, "dex_score": 14, "con_score": 12,
                               "int_score": 18, "wis_score": 10, "cha_score": 10 },
                "attacks": [ranged("light crossbow", 4, "1d8", 80)] }),
    )
}

/// A foe of armor class `ac` with 12 hit points and a weak blade.
fn foe(ac: i32) -> crate::model::Combatant {
    creature(
        "Foe",
        json!({ "hp_max": 12, "ac": { "total": ac, "touch": 10, "flat_footed": ac },
                "attacks": [melee("blade", 0, "1d4")] }),
    )
}

fn duel(ac: i32, foe_col: i32) -> PreparedEncounter {
    prepare_magic(arena(6, 26), vec![("a", wizard(), at(2, 1)), ("b", foe(ac), at(2, foe_col))])
}

/// Per battle: the rounds the wizard's True Strike takes effect, and the
/// rounds its bonus is spent on a roll.
fn strikes(events: &[Record]) -> (Vec<u32>, Vec<u32>) {
    let cast = events
        .iter()
        .filter_map(|r| match &r.event {
            // Taking effect: a casting lost to a failed concentration check is no True Strike.
            Event::EffectGained { who: 0, effect, .. } if effect.starts_with("True Strike") => Some(r.round),
            _ => None,
        })
        .collect();
    let spent = events
        .iter()
        .filter_map(|r| match &r.event {
            Event::EffectEnds { who: 0, effect, why: EffectEnd::Spent }
                if effect.starts_with("True Strike") =>
            {
                Some(r.round)
            }
            _ => None,
        })
        .collect();
    (cast, spent)
}

/// The wizard's shots and the attack bonus of each.
fn shots(events: &[Record]) -> Vec<(u32, i32)> {
    events
        .iter()
        .filter_map(|r| match &r.event {
            Event::Attack(a) if a.who == 0 && !a.aoo => Some((r.round, a.bonus)),
            _ => None,
        })
        .collect()
}

#[test]
fn against_armor_its_crossbow_cannot_pierce_the_wizard_casts_true_strike_and_shoots_with_it_next_round() {
    // AC 25: the crossbow (+4) hits on a natural 20 only; with +20 it
    // hits on a 2. Each casting is spent by the shot of its next round.
    let prep = duel(25, 12);
    let mut cast_in = 0;
    for seed in 0..30 {
        let events = policy_battle(&prep, 81, seed);
        let (cast, spent) = strikes(&events);
        if !cast.is_empty() {
            cast_in += 1;
        }
        let shots = shots(&events);
        for &r in &cast {
            let ended =
                events.iter().any(|x| matches!(x.event, Event::BattleOver { .. }) && x.round <= r + 1);
            if ended {
                continue;
            }
            assert!(
                spent.contains(&(r + 1)),
                "seed {seed}: cast in round {r}, spent in {spent:?}\n{}",
                english(&prep, &events).join("\n")
            );
            assert!(
                shots.iter().any(|&(round, bonus)| round == r + 1 && bonus >= 24),
                "seed {seed}: the shot after round {r} carries the +20: {shots:?}"
            );
        }
        // No casting wasted: every one is spent (or the battle ended first).
        assert!(spent.len() + 1 >= cast.len(), "seed {seed}: cast {cast:?}, spent {spent:?}");
    }
    assert!(cast_in >= 27, "True Strike cast in {cast_in} battles of 30");
}

#[test]
fn against_a_foe_it_hits_anyway_the_wizard_just_shoots() {
    // AC 12: the crossbow hits 65 % of the time: a whole turn for +30 %
    // on one later shot is not worth it, from range or from 100 ft away
    // (a move brings it within range: move and shoot).
    for foe_col in [12, 21] {
        let prep = duel(12, foe_col);
        for seed in 0..30 {
            let events = policy_battle(&prep, 82, seed);
            let (cast, _) = strikes(&events);
            assert!(cast.is_empty(), "foe at column {foe_col}, seed {seed}: True Strike in rounds {cast:?}");
            assert!(!shots(&events).is_empty(), "seed {seed}: the wizard shoots");
        }
    }
}

#[test]
fn true_strike_is_no_buff_to_open_with() {
    // Even with the `open_with_buffs` lever the wizard does not spend its
    // first rounds on True Strike against a foe its crossbow hits anyway.
    use crate::combat::policy::{Roster, StrategyPolicy};
    let prep = duel(12, 12);
    let spec = crate::strategy::StrategySpec::parse("open_with_buffs=true").expect("a valid spec");
    let roster = std::sync::Arc::new(Roster::of_prepared(&prep));
    for seed in 0..20 {
        let mut rng = crate::rng::SeededRng::for_run(83, seed);
        let mut events = Vec::new();
        let mut policy = StrategyPolicy::new(spec.clone(), roster.clone());
        let opts = crate::combat::SimOptions::default();
        crate::combat::run_prepared(&prep, &opts, &mut rng, Some(&mut events), &mut policy);
        assert!(strikes(&events).0.is_empty(), "seed {seed}");
    }
}
