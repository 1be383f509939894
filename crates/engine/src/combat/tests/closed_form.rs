//! Closed-form checks: quantities of the rules computed exactly, then
//! simulated with the engine on 100,000 rounds, attacks, casts or channels; each simulated
//! mean must lie within 5 standard errors of the exact value.

use serde_json::json;

use super::support::*;
use crate::combat::action::{Action, ActionKind};
use crate::combat::engine::Engine;
use crate::combat::odds::Swing;
use crate::combat::prepared::PreparedEncounter;
use crate::effects::ConditionId as C;
use crate::rng::SeededRng;

const RUNS: usize = 100_000;

/// Mean and standard error of `samples`.
fn mean_and_error(samples: &[f64]) -> (f64, f64) {
    let n = samples.len() as f64;
    let mean = samples.iter().sum::<f64>() / n;
    let var = samples.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / (n - 1.0);
    (mean, (var / n).sqrt())
}

fn assert_within_5_sigma(what: &str, samples: &[f64], exact: f64) {
    let (mean, error) = mean_and_error(samples);
    assert!(
        (mean - exact).abs() < 5.0 * error,
        "{what}: simulated {mean:.4} ± {error:.4}, exact {exact:.4} ({:.1} σ)",
        (mean - exact).abs() / error
    );
}

/// Runs `body` `RUNS` times on a fresh engine of `prep` with a seeded stream;
/// `body` returns one sample.
fn simulate(
    prep: &PreparedEncounter,
    seed: u64,
    mut body: impl FnMut(&mut Engine<'_, '_, SeededRng>) -> f64,
) -> Vec<f64> {
    let mut rng = SeededRng::for_run(seed, 0);
    let mut e = started(prep, &mut rng, None);
    (0..RUNS).map(|_| body(&mut e)).collect()
}

fn target(ac: i32) -> crate::model::Combatant {
    creature("Target", json!({ "hp_max": 1_000_000, "ac": { "total": ac, "touch": 10, "flat_footed": ac } }))
}

#[test]
fn power_attack_expected_damage_per_round_against_a_fixed_ac() {
    // +6 two-handed greatsword 2d6+4 (19-20/x2), BAB 4: X = 2, so +4 to hit
    // and +6 damage, against AC 16.
    let barbarian = creature(
        "Barbarian",
        json!({ "bab": 4, "features": ["Power Attack"], "attacks": [{ "name": "greatsword", "kind": "melee",
            "attack_bonus": 6, "two_handed": true, "crit_range": 19, "damage": [{ "formula": "2d6+4", "types": ["slashing"] }] }] }),
    );
    let prep = prepare(arena(3, 4), vec![("a", barbarian, at(1, 1)), ("b", target(16), at(1, 2))]);
    // Hit on 12+ (9/20); threats on 19-20 confirmed on 12+ (9/20).
    let p_hit = 9.0 / 20.0;
    let per_hit = 7.0 + 4.0 + 6.0;
    let exact = p_hit * per_hit + (2.0 / 20.0) * p_hit * per_hit;
    let samples = simulate(&prep, 11, |e| {
        e.st.fighters[1].hp = 1_000_000;
        let plan = vec![Action::new(ActionKind::PowerAttack), Action::at(ActionKind::FullAttack, 1)];
        e.take_turn(0, &mut script(plan));
        f64::from(1_000_000 - e.st.hp(1))
    });
    assert_within_5_sigma("Power Attack damage per round", &samples, exact);
    // Without it: hit on 10+ (11/20), 11 per hit.
    let without = simulate(&prep, 12, |e| {
        e.st.fighters[1].hp = 1_000_000;
        e.take_turn(0, &mut script(vec![Action::at(ActionKind::FullAttack, 1)]));
        f64::from(1_000_000 - e.st.hp(1))
    });
    let p = 11.0 / 20.0;
    assert_within_5_sigma("damage per round without Power Attack", &without, p * 11.0 + 0.1 * p * 11.0);
}

#[test]
fn sneak_attack_expected_damage_when_flanking() {
    // Rapier +5 1d6 (18-20/x2), Sneak Attack +2d6, flanked: +7 against AC 15.
    let rogue = creature(
        "Rogue",
        json!({ "features": ["Sneak Attack +2d6"], "attacks": [{ "name": "rapier", "kind": "melee", "attack_bonus": 5,
            "crit_range": 18, "damage": [{ "formula": "1d6", "types": ["piercing"] }] }] }),
    );
    let prep = prepare(
        arena(3, 5),
        vec![
            ("a", rogue, at(1, 1)),
            ("a", creature("Ally", json!({})), at(1, 3)),
            ("b", target(15), at(1, 2)),
        ],
    );
    // Hit on 8+ (13/20): 3.5 + 7 precision; threats 18-20 (3/20) confirmed
    // on 8+ add one more 1d6 (precision is never multiplied).
    let p_hit = 13.0 / 20.0;
    let exact = p_hit * 10.5 + (3.0 / 20.0) * p_hit * 3.5;
    let samples = simulate(&prep, 21, |e| {
        e.st.fighters[2].hp = 1_000_000;
        e.strike(0, 0, 2, Swing::default());
        f64::from(1_000_000 - e.st.hp(2))
    });
    assert_within_5_sigma("sneak attack damage when flanking", &samples, exact);
}

#[test]
fn a_condition_s_penalty_moves_the_hit_rate() {
    // +5 against AC 15, shaken (−2) and dazzled (−1): hits on 13+ (8/20).
    let prep = prepare(
        arena(3, 4),
        vec![
            ("a", creature("Hero", json!({ "attacks": [melee("sword", 5, "1d6")] })), at(1, 1)),
            ("b", target(15), at(1, 2)),
        ],
    );
    let samples = simulate(&prep, 31, |e| {
        if !e.st.has_condition(0, C::Shaken) {
            e.set_condition(0, C::Shaken);
            e.set_condition(0, C::Dazzled);
        }
        let before = e.st.fighters[0].out.hits;
        e.strike(0, 0, 1, Swing::default());
        f64::from(e.st.fighters[0].out.hits - before)
    });
    assert_within_5_sigma("hit rate when shaken and dazzled", &samples, 8.0 / 20.0);
}

#[test]
fn concealment_miss_chance_on_hits() {
    // +30 against AC 10 hits on everything but a natural 1; blur makes 20 % of hits miss.
    let prep = prepare(
        arena(3, 4),
        vec![
            ("a", creature("Hero", json!({ "attacks": [melee("sword", 30, "1d6")] })), at(1, 1)),
            ("b", target(10), at(1, 2)),
        ],
    );
    for (condition, miss, seed) in [(C::Blurred, 0.2, 41), (C::Displaced, 0.5, 42)] {
        let samples = simulate(&prep, seed, |e| {
            if !e.st.has_condition(1, condition) {
                e.set_condition(1, condition);
            }
            let before = e.st.fighters[0].out.hits;
            e.strike(0, 0, 1, Swing::default());
            f64::from(e.st.fighters[0].out.hits - before)
        });
        assert_within_5_sigma(condition.name(), &samples, 0.95 * (1.0 - miss));
    }
}

// --- Magic: one cast (or one channel) per run, the resource restored each time.

/// The probability of each total of `n` dice of `sides` faces (index = total).
fn dice_sum_distribution(n: u32, sides: u32) -> Vec<f64> {
    let mut dist = vec![1.0];
    for _ in 0..n {
        let mut next = vec![0.0; dist.len() + sides as usize];
        for (total, p) in dist.iter().enumerate() {
            for face in 1..=sides as usize {
                next[total + face] += p / f64::from(sides);
            }
        }
        dist = next;
    }
    dist
}

/// The expected damage of `n`d`sides` with a save for half (rounded down)
/// made with probability `p_save`.
fn expected_half_on_save(n: u32, sides: u32, p_save: f64) -> f64 {
    let dist = dice_sum_distribution(n, sides);
    let full: f64 = dist.iter().enumerate().map(|(s, p)| p * s as f64).sum();
    let half: f64 = dist.iter().enumerate().map(|(s, p)| p * (s / 2) as f64).sum();
    (1.0 - p_save) * full + p_save * half
}

/// The chance a saving throw with `bonus` meets `dc` (a natural 1 always
/// fails, a natural 20 always succeeds: CRB "Saving Throws").
fn save_chance(bonus: i32, dc: i32) -> f64 {
    (1..=20).filter(|&d| d != 1 && (d == 20 || d + bonus >= dc)).count() as f64 / 20.0
}

/// A dummy with `hp` hit points, the given Reflex and Will bonuses, no attack.
fn spell_target(name: &str, reflex: i32, will: i32, extra: serde_json::Value) -> crate::model::Combatant {
    let mut base =
        json!({ "hp_max": 1_000_000, "saves": { "fort": 0, "ref": reflex, "will": will }, "attacks": [] });
    if let (serde_json::Value::Object(b), serde_json::Value::Object(o)) = (&mut base, extra) {
        b.extend(o);
    }
    creature(name, base)
}

/// Casts `action` for combatant 0 and asserts the engine carried it out.
fn cast_ok(e: &mut Engine<'_, '_, SeededRng>, action: Action) {
    let r = e.execute_for_test(0, action);
    assert!(r.ok, "the cast was refused: {:?}", r.reason);
}

#[test]
fn fireball_expected_damage_against_a_reflex_save_with_and_without_cover() {
    // A 5th-level caster (Wisdom 16): 5d6 fire, Reflex DC 10 + 3 + 3 = 16.
    // The target (Reflex +5) stands 10 ft beyond the point of origin; a pillar
    // between them gives standard cover, +4 AC, so +2 on the Reflex save.
    let (cl, casting_mod, spell_level, reflex) = (5, 3, 3, 5);
    let dc = 10 + spell_level + casting_mod;
    for (middle, cover_bonus, seed) in [('.', 0, 51), ('C', 2, 52)] {
        let row = format!("#.......{middle}.#");
        let m = map(&["###########", "#.........#", &row, "#.........#", "###########"]);
        let wizard = caster("Wizard", &["Fireball"], json!({ "spell_list": "wizard", "level": cl }));
        let prep = prepare_magic(
            m,
            vec![("a", wizard, at(2, 1)), ("b", spell_target("Orc", reflex, 0, json!({})), at(2, 9))],
        );
        let fireball = prep.spell_index("Fireball").expect("fireball");
        let exact = expected_half_on_save(cl as u32, 6, save_chance(reflex + cover_bonus, dc));
        let samples = simulate(&prep, seed, |e| {
            e.st.fighters[1].hp = 1_000_000;
            e.st.fighters[0].casting.slots[3] = 5;
            let mut cast = Action::cast(fireball, None);
            cast.destination = Some(at(2, 7));
            cast_ok(e, cast);
            f64::from(1_000_000 - e.st.hp(1))
        });
        assert_within_5_sigma(&format!("fireball damage (Reflex cover +{cover_bonus})"), &samples, exact);
    }
}

#[test]
fn magic_missile_fires_one_missile_plus_one_per_two_levels_beyond_the_first_up_to_five() {
    for (cl, seed) in [(1u32, 61), (3, 62), (5, 63), (9, 64)] {
        let wizard = caster("Wizard", &["Magic Missile"], json!({ "spell_list": "wizard", "level": cl }));
        let prep = prepare_magic(
            arena(3, 8),
            vec![("a", wizard, at(1, 1)), ("b", spell_target("Dummy", 0, 0, json!({})), at(1, 6))],
        );
        let mm = prep.spell_index("Magic Missile").expect("magic missile");
        let missiles = (1 + (cl - 1) / 2).min(5);
        // Each missile: 1d4 + 1 force.
        let exact = f64::from(missiles) * 3.5;
        let samples = simulate(&prep, seed, |e| {
            e.st.fighters[1].hp = 1_000_000;
            e.st.fighters[0].casting.slots[1] = 5;
            cast_ok(e, Action::cast(mm, Some(1)));
            f64::from(1_000_000 - e.st.hp(1))
        });
        assert_within_5_sigma(&format!("magic missile damage at caster level {cl}"), &samples, exact);
    }
}

#[test]
fn cure_light_wounds_heals_one_d8_plus_caster_level_up_to_five_on_average() {
    for (cl, seed) in [(3u32, 71), (7, 72)] {
        let cleric = caster("Cleric", &["Cure Light Wounds"], json!({ "spell_list": "cleric", "level": cl }));
        let ally = spell_target("Ally", 0, 0, json!({ "hp_max": 100 }));
        let prep = prepare_magic(arena(3, 8), vec![("a", cleric, at(1, 1)), ("a", ally, at(1, 2))]);
        let clw = prep.spell_index("Cure Light Wounds").expect("cure light wounds");
        let exact = 4.5 + f64::from(cl.min(5));
        let samples = simulate(&prep, seed, |e| {
            e.st.fighters[1].hp = 1;
            e.st.fighters[0].casting.slots[1] = 5;
            cast_ok(e, Action::cast(clw, Some(1)));
            f64::from(e.st.hp(1) - 1)
        });
        assert_within_5_sigma(&format!("cure light wounds at caster level {cl}"), &samples, exact);
    }
}

/// A 5th-level cleric with Charisma 14 (3d6 positive energy, Will DC
/// 10 + 5/2 + 2 = 14) channels at an undead with Will `will` and the extra
/// fields `extra`: the encounter and the damage of many channels.
fn channel_at_undead(will: i32, extra: serde_json::Value, seed: u64) -> (PreparedEncounter, Vec<f64>) {
    let cleric = creature(
        "Cleric",
        json!({ "level": 5, "abilities": { "str_score": 10, "dex_score": 10, "con_score": 10, "int_score": 10,
                "wis_score": 16, "cha_score": 14 }, "features": ["Channel Energy"], "resources": { "channel_energy": 2 } }),
    );
    let mut fields = json!({ "creature_type": "undead", "abilities": { "str_score": 10, "dex_score": 10,
                "con_score": null, "int_score": null, "wis_score": 10, "cha_score": 10 } });
    fields.as_object_mut().expect("an object").extend(extra.as_object().expect("an object").clone());
    let zombie = spell_target("Zombie", 0, will, fields);
    let prep = prepare(arena(3, 8), vec![("a", cleric, at(1, 1)), ("b", zombie, at(1, 4))]);
    let samples = simulate(&prep, seed, |e| {
        e.st.fighters[1].hp = 1_000_000;
        e.st.fighters[0].class.pools.channel_energy = 2;
        cast_ok(e, Action::new(ActionKind::ChannelEnergy).with_option(1));
        f64::from(1_000_000 - e.st.hp(1))
    });
    (prep, samples)
}

#[test]
fn channel_energy_harms_undead_with_a_will_save_for_half() {
    // The zombie's Will +3 against DC 14.
    let (level, cha_mod, will) = (5, 2, 3);
    let (_, samples) = channel_at_undead(will, json!({}), 81);
    let dice = (level as u32).div_ceil(2);
    let dc = 10 + level / 2 + cha_mod;
    let exact = expected_half_on_save(dice, 6, save_chance(will, dc));
    assert_within_5_sigma("channel energy damage to undead", &samples, exact);
}

#[test]
fn spell_resistance_is_overcome_at_the_rate_of_the_caster_level_check() {
    for (cl, sr, seed) in [(5u32, 17i32, 91), (9, 15, 92)] {
        let wizard = caster("Wizard", &["Magic Missile"], json!({ "spell_list": "wizard", "level": cl }));
        let warded = spell_target("Warded", 0, 0, json!({ "spell_resistance": sr }));
        let prep = prepare_magic(arena(3, 8), vec![("a", wizard, at(1, 1)), ("b", warded, at(1, 6))]);
        let mm = prep.spell_index("Magic Missile").expect("magic missile");
        // Caster level check: d20 + caster level against the resistance.
        let exact = (1..=20).filter(|d| d + cl as i32 >= sr).count() as f64 / 20.0;
        let samples = simulate(&prep, seed, |e| {
            e.st.fighters[1].hp = 1_000_000;
            e.st.fighters[0].casting.slots[1] = 5;
            cast_ok(e, Action::cast(mm, Some(1)));
            if e.st.hp(1) < 1_000_000 { 1.0 } else { 0.0 }
        });
        assert_within_5_sigma(&format!("spell resistance {sr} against caster level {cl}"), &samples, exact);
    }
}

#[test]
fn channel_resistance_adds_its_bonus_to_the_will_save_against_a_channel() {
    // The same cleric (3d6, Will DC 14) against an undead with Will +3 and
    // channel resistance +4 (UMR "Channel Resistance"): it saves as a Will
    // +7 would.
    let (will, resist, dc) = (3, 4, 14);
    let (prep, samples) = channel_at_undead(
        will,
        json!({ "features": [{ "name": "channel resistance", "category": "special", "notes": "+4" }],
                "special_abilities": [{ "kind": "channel_resistance", "name": "channel resistance", "bonus": resist }] }),
        82,
    );
    let exact = expected_half_on_save(3, 6, save_chance(will + resist, dc));
    assert_within_5_sigma("channel energy damage to a channel-resistant undead", &samples, exact);
    // The bonus is for channels only: the same creature's Will against another effect.
    let st = crate::combat::BattleState::new(&prep, &crate::combat::SimOptions::default());
    let plain = crate::effects::Context::default();
    let channel = crate::effects::Context { channel: true, ..plain };
    assert_eq!(
        st.save_bonus(1, crate::effects::SaveKind::Will, &channel)
            - st.save_bonus(1, crate::effects::SaveKind::Will, &plain),
        resist
    );
}
