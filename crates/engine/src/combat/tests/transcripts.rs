//! Whole battles with scripted dice and the default policy, transcripts
//! pinned line by line (each line checked by hand against the rules).

use serde_json::json;

use super::support::*;
use crate::combat::{CombatantOutcome, DefaultPolicy, RunOutcome, SimOptions, run_prepared};
use crate::rng::ScriptedRng;

fn play(prep: &crate::combat::PreparedEncounter, faces: &[u32]) -> (RunOutcome, Vec<String>) {
    let mut rng = ScriptedRng::new(faces.to_vec());
    let mut events = Vec::new();
    let outcome = run_prepared(prep, &SimOptions::default(), &mut rng, Some(&mut events), &mut DefaultPolicy);
    assert_eq!(rng.remaining(), 0, "every scripted die is used");
    // The same battle without a transcript has the same outcome.
    let mut rng = ScriptedRng::new(faces.to_vec());
    let silent = run_prepared(prep, &SimOptions::default(), &mut rng, None, &mut DefaultPolicy);
    assert_eq!(silent, outcome);
    (outcome, super::support::english(prep, &events))
}

#[test]
fn one_on_one_melee() {
    let fighter = creature(
        "Fighter",
        json!({ "hp_max": 12, "initiative_mod": 2, "ac": { "total": 14, "touch": 11, "flat_footed": 13 },
                "attacks": [{ "name": "longsword", "kind": "melee", "attack_bonus": 4, "crit_range": 19,
                              "damage": [{ "formula": "1d8+2", "types": ["slashing"] }] }] }),
    );
    let raider = creature(
        "Orc Raider",
        json!({ "hp_max": 9, "ac": { "total": 12, "touch": 10, "flat_footed": 12 },
                "attacks": [{ "name": "axe", "kind": "melee", "attack_bonus": 3, "crit_mult": 3,
                              "damage": [{ "formula": "1d8+1", "types": ["slashing"] }] }] }),
    );
    let prep = prepare(arena(3, 8), vec![("players", fighter, at(2, 1)), ("monsters", raider, at(2, 8))]);
    let (outcome, lines) = play(&prep, &[12, 15, 10, 6, 19, 3, 5, 4, 11, 3]);
    assert_eq!(
        lines,
        [
            "initiative: orc_raider d20=15+0=15",
            "initiative: fighter d20=12+2=14",
            // The closest square next to the fighter is 30 ft away in a clear straight line.
            "round 1 orc_raider: charge (2,8)->(2,7)->(2,6)->(2,5)->(2,4)->(2,3)->(2,2)",
            // The fighter has not acted yet: flat-footed, its flat-footed AC 13.
            "round 1 orc_raider: axe vs fighter d20=10+5=15 AC 13 [charge +2, target denied Dex, target flat_footed] -> HIT 7 dmg (hp 12->5)",
            // 19 threatens (19-20); the confirmation 3+4 misses AC 12-2.
            "round 1 fighter: longsword vs orc_raider d20=19+4=23 AC 10 [target charged -2] -> HIT, threat: confirm d20=3+4=7 -> no crit, 7 dmg (hp 9->2)",
            // The charge penalty ended with the raider's turn starting.
            "round 2 orc_raider: axe vs fighter d20=4+3=7 AC 14 -> MISS",
            "round 2 fighter: longsword vs orc_raider d20=11+4=15 AC 12 -> HIT 5 dmg (hp 2->-3)",
            "round 2 orc_raider: falls unconscious, dying (hp -3)",
            "battle over: players win in 2 rounds",
        ]
    );
    assert_eq!(
        outcome,
        RunOutcome {
            winner: Some(0),
            rounds: 2,
            combatants: vec![
                CombatantOutcome {
                    final_hp: 5,
                    hits: 2,
                    damage_dealt: 12,
                    damage_taken: 7,
                    ..Default::default()
                },
                CombatantOutcome {
                    final_hp: -3,
                    dying: true,
                    hits: 1,
                    damage_dealt: 7,
                    damage_taken: 12,
                    ..Default::default()
                },
            ],
            summons: Vec::new(),
        }
    );
}

#[test]
fn one_on_one_ranged() {
    let archer = creature(
        "Archer",
        json!({ "hp_max": 8, "initiative_mod": 3, "ac": { "total": 14, "touch": 13, "flat_footed": 11 },
                "attacks": [{ "name": "short bow", "kind": "ranged", "attack_bonus": 4, "crit_mult": 3,
                              "range_increment_ft": 20, "damage": [{ "formula": "1d6", "types": ["piercing"] }] }] }),
    );
    let brute = creature(
        "Brute",
        json!({ "hp_max": 14, "initiative_mod": -1, "speed_land_ft": 15,
                "ac": { "total": 12, "touch": 10, "flat_footed": 12 },
                "attacks": [{ "name": "club", "kind": "melee", "attack_bonus": 3,
                              "damage": [{ "formula": "1d8+2", "types": ["bludgeoning"] }] }] }),
    );
    let prep = prepare(arena(1, 10), vec![("players", archer, at(1, 1)), ("monsters", brute, at(1, 10))]);
    let (outcome, lines) = play(&prep, &[8, 14, 12, 4, 9, 5, 6, 20, 15, 3, 15, 1]);
    assert_eq!(
        lines,
        [
            "initiative: brute d20=14-1=13",
            "initiative: archer d20=8+3=11",
            // 45 ft away: a charge would need 40 ft, more than twice 15 ft, and
            // one 15-ft move cannot end next to the archer: a double move.
            "round 1 brute: move (1,10)->(1,9)->(1,8)->(1,7)",
            "round 1 brute: move (1,7)->(1,6)->(1,5)->(1,4)",
            // 15 ft: within the first 20-ft increment, no penalty.
            "round 1 archer: short bow vs brute d20=12+4=16 AC 12 -> HIT 4 dmg (hp 14->10)",
            // Now 10 ft from the square next to the archer: a charge.
            "round 2 brute: charge (1,4)->(1,3)->(1,2)",
            "round 2 brute: club vs archer d20=9+5=14 AC 14 [charge +2] -> HIT 7 dmg (hp 8->1)",
            // Shooting from a threatened square provokes, before the shot.
            "round 2 brute: AoO: club vs archer d20=6+3=9 AC 14 -> MISS",
            "round 2 archer: short bow vs brute d20=20+4=24 AC 10 [target charged -2] natural 20 -> HIT, threat: confirm d20=15+4=19 -> CRIT x3, 9 dmg (hp 10->1)",
            "round 3 brute: club vs archer d20=15+3=18 AC 14 -> HIT 3 dmg (hp 1->-2)",
            "round 3 archer: falls unconscious, dying (hp -2)",
            "battle over: monsters win in 3 rounds",
        ]
    );
    assert_eq!((outcome.winner, outcome.rounds), (Some(1), 3));
    assert_eq!((outcome.combatants[0].crits, outcome.combatants[0].damage_dealt), (1, 13));
}

#[test]
fn two_on_two() {
    let fighter = creature(
        "Fighter",
        // Uncanny Dodge: not flat-footed before its first turn, so the orc's
        // round-1 charge meets AC 16 (one_on_one_melee pins a flat-footed defender).
        json!({ "hp_max": 12, "initiative_mod": 1, "ac": { "total": 16, "touch": 11, "flat_footed": 15 },
                "features": ["Uncanny Dodge"],
                "attacks": [melee("longsword", 5, "1d8+3")] }),
    );
    let archer = creature(
        "Archer",
        json!({ "hp_max": 8, "initiative_mod": 3, "ac": { "total": 14, "touch": 13, "flat_footed": 11 },
                "attacks": [melee("dagger", 1, "1d4"), ranged("short bow", 4, "1d6", 30)] }),
    );
    let orc = creature(
        "Orc",
        json!({ "hp_max": 6, "ac": { "total": 13, "touch": 10, "flat_footed": 13 },
                "attacks": [{ "name": "falchion", "kind": "melee", "attack_bonus": 5, "crit_range": 18,
                              "damage": [{ "formula": "2d4+4", "types": ["slashing"] }] }] }),
    );
    let goblin = creature(
        "Goblin",
        json!({ "hp_max": 6, "initiative_mod": 6, "ac": { "total": 16, "touch": 13, "flat_footed": 14 },
                "attacks": [{ "name": "short sword", "kind": "melee", "attack_bonus": 2, "crit_range": 19,
                              "damage": [{ "formula": "1d4", "types": ["piercing"] }] }] }),
    );
    let prep = prepare(
        arena(4, 8),
        vec![
            ("players", fighter, at(2, 1)),
            ("players", archer, at(3, 1)),
            ("monsters", orc, at(2, 8)),
            ("monsters", goblin, at(3, 8)),
        ],
    );
    let faces = [10, 5, 13, 2, 8, 6, 2, 17, 3, 12, 1, 15, 1, 1, 3, 11, 16, 4, 7, 13, 1];
    let (outcome, lines) = play(&prep, &faces);
    assert_eq!(
        lines,
        [
            "initiative: orc d20=13+0=13",
            "initiative: fighter d20=10+1=11",
            // Tied at 8: the higher modifier goes first.
            "initiative: goblin d20=2+6=8",
            "initiative: archer d20=5+3=8",
            // Fighter and archer are both 35 ft away: the first in encounter order is
            // the target. Of the three squares 30 ft away, (2,2) is straight ahead.
            "round 1 orc: charge (2,8)->(2,7)->(2,6)->(2,5)->(2,4)->(2,3)->(2,2)",
            "round 1 orc: falchion vs fighter d20=8+7=15 AC 16 [charge +2] -> MISS",
            // The archer at (3,1) is not opposite the fighter across the orc: no flank.
            "round 1 fighter: longsword vs orc d20=6+5=11 AC 11 [target charged -2] -> HIT 5 dmg (hp 6->1)",
            // (2,2) is taken: the other closest square, (3,2), is free and in line.
            "round 1 goblin: charge (3,8)->(3,7)->(3,6)->(3,5)->(3,4)->(3,3)->(3,2)",
            "round 1 goblin: short sword vs fighter d20=17+4=21 AC 16 [charge +2] -> HIT 3 dmg (hp 12->9)",
            // Orc and goblin both 5 ft away: the orc comes first; the dagger is the first weapon.
            "round 1 archer: dagger vs orc d20=12+1=13 AC 11 [target charged -2] -> HIT 1 dmg (hp 1->0)",
            "round 1 orc: is disabled (hp 0)",
            // Disabled: the full attack is played as one attack, which then costs 1 hp.
            "round 2 orc: falchion vs fighter d20=15+5=20 AC 16 -> HIT 6 dmg (hp 9->3)",
            "round 2 orc: strains while disabled (hp 0->-1)",
            "round 2 orc: falls unconscious, dying (hp -1)",
            // The goblin charged last round and has not had its turn yet: still -2 AC.
            "round 2 fighter: longsword vs goblin d20=3+5=8 AC 14 [target charged -2] -> MISS",
            "round 2 goblin: short sword vs fighter d20=11+2=13 AC 16 -> MISS",
            "round 2 archer: dagger vs goblin d20=16+1=17 AC 16 -> HIT 4 dmg (hp 6->2)",
            "round 3 orc: stabilization d20=7+1-1=7 vs DC 10 -> fails (hp -1->-2)",
            "round 3 fighter: longsword vs goblin d20=13+5=18 AC 16 -> HIT 4 dmg (hp 2->-2)",
            "round 3 goblin: falls unconscious, dying (hp -2)",
            "battle over: players win in 3 rounds",
        ]
    );
    assert_eq!((outcome.winner, outcome.rounds), (Some(0), 3));
    let dying: Vec<bool> = outcome.combatants.iter().map(|c| c.dying).collect();
    assert_eq!(dying, [false, false, true, true]);
}
