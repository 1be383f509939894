//! Every parser a user feeds pf1e, fuzzed: none may panic, whatever the
//! input. Each test runs `PROPTEST_CASES` inputs (default 200, a few seconds
//! in `cargo test`); `docs/fuzzing.md` says how to run them for hours. A
//! failing input is shrunk and saved in `tests/fuzz.proptest-regressions`,
//! so it replays first on every later run.

use pf1e_fuzz::{corpus, inputs};
use proptest::prelude::*;
use proptest::test_runner::Config;

/// The budget: `PROPTEST_CASES` when set, else 200 inputs per target.
fn config() -> Config {
    let cases = std::env::var("PROPTEST_CASES").ok().and_then(|c| c.parse().ok()).unwrap_or(200);
    Config { cases, ..Config::default() }
}

/// A fuzz test: `name` feeds `target` with mutations of `seeds`.
macro_rules! fuzz {
    ($(#[$doc:meta])* $name:ident, $seeds:expr, $target:path) => {
        proptest! {
            #![proptest_config(config())]
            $(#[$doc])*
            #[test]
            fn $name(input in inputs($seeds)) {
                $target(&input);
            }
        }
    };
}

fuzz!(
    /// Maps (YAML): layers, legend, zones, markers, deployment.
    the_map_parser_never_panics,
    corpus("maps", "yaml", 8),
    pf1e_fuzz::map
);

fuzz!(
    /// Combatants (JSON) and their checks.
    the_combatant_parser_never_panics,
    corpus("monsters", "json", 24),
    pf1e_fuzz::combatant
);

fuzz!(
    /// Spells (JSON) and their checks.
    the_spell_parser_never_panics,
    corpus("spells", "json", 24),
    pf1e_fuzz::spell
);

fuzz!(
    /// Sweep files (YAML), resolved against their files, validated and budgeted.
    the_sweep_parser_never_panics,
    corpus("sweeps", "yaml", 16),
    pf1e_fuzz::sweep
);

fuzz!(
    /// Day files (YAML): steps, branches, plans.
    the_day_parser_never_panics,
    corpus("days", "yaml", 8),
    pf1e_fuzz::day
);

fuzz!(
    /// Dice notation, as every data file writes damage and healing.
    the_dice_parser_never_panics_nor_wraps,
    vec![
        b"1d6".to_vec(),
        b"2d8+4".to_vec(),
        b"-1d6".to_vec(),
        b"1000d1000+2147483647".to_vec(),
        b"3d6 + 1d4 - 2".to_vec(),
    ],
    pf1e_fuzz::dice
);

fuzz!(
    /// Strategy specs, as sweep files and the command line write them.
    the_strategy_spec_parser_never_panics,
    vec![
        b"default".to_vec(),
        b"lowest_hp, retreat=0.5".to_vec(),
        b"healer, spell_policy=none, use_charges=false, power_attack=always, maneuver=trip".to_vec(),
    ],
    pf1e_fuzz::strategy
);

fuzz!(
    /// A fuzzed combatant prepared and played in a real encounter.
    a_fuzzed_combatant_in_battle_never_panics,
    corpus("monsters", "json", 24),
    pf1e_fuzz::scenario_combatant
);

fuzz!(
    /// A fuzzed map prepared and played with real combatants.
    a_fuzzed_map_in_battle_never_panics,
    corpus("maps", "yaml", 8),
    pf1e_fuzz::scenario_map
);

fuzz!(
    /// A model's answer for a turn, converted and played by casters.
    a_model_s_action_answer_never_panics,
    vec![
        br#"{"kind": "cast_spell", "spell": "Fireball", "destination": [6, 4], "metamagic": ["maximize"]}"#.to_vec(),
        br#"{"kind": "cast_spell", "spell": "cure light wounds", "target": "misty", "defensive": true}"#.to_vec(),
        br#"{"kind": "channel_energy", "option": "heal"}"#.to_vec(),
        br#"{"kind": "hex", "ability": "evil eye", "target": "lich", "option": "ac"}"#.to_vec(),
        br#"{"kind": "full_attack", "target": "skeleton", "weapon": 0}"#.to_vec(),
        br#"{"kind": "5foot_step", "destination": [3, 3]}"#.to_vec(),
    ],
    pf1e_fuzz::model_action
);
