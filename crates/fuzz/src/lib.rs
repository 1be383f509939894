//! Fuzz targets for every parser a user feeds pf1e, on the stable
//! toolchain: maps (YAML), combatants and spells (JSON), sweep files
//! (YAML with their referenced files), strategy specs, and whole scenarios
//! played for a few battles.
//!
//! A target is a function of bytes that must return (an error is fine) and
//! never panic. Inputs are the bundled data files, mutated: bytes flipped,
//! ranges deleted or duplicated, numbers replaced by edge values (`-1`,
//! `0`, `2^64`, `1e308`…), YAML and JSON tokens inserted. `proptest`
//! generates the mutations, shrinks a failing input to a small one and
//! records it under `tests/fuzz.proptest-regressions`, so the failure
//! replays on every later run. The tests in `tests/fuzz.rs` run each target
//! on a short budget in `cargo test`; `docs/fuzzing.md` says how to run
//! them for hours and how to add a target.

use std::path::{Path, PathBuf};

use pf1e_engine::combat::SimOptions;
use pf1e_wire::proto;
use pf1e_wire::scenario::{Scenario, ScenarioSide};
use proptest::prelude::*;

/// The repository's `data/` directory.
pub fn data_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../data")
}

/// The contents of the files under `data/` matching `dir` and `ext`
/// (sorted by name, at most `max`): the seeds of a target's inputs.
pub fn corpus(dir: &str, ext: &str, max: usize) -> Vec<Vec<u8>> {
    let mut paths: Vec<PathBuf> = std::fs::read_dir(data_dir().join(dir))
        .map(|entries| entries.filter_map(|e| e.ok().map(|e| e.path())).collect())
        .unwrap_or_default();
    paths.retain(|p| p.extension().is_some_and(|e| e == ext));
    paths.sort();
    paths.truncate(max);
    paths.iter().filter_map(|p| std::fs::read(p).ok()).collect()
}

/// Values that break naive parsers and arithmetic.
const TOKENS: &[&str] = &[
    "-1",
    "0",
    "1",
    "-0",
    "255",
    "65536",
    "2147483647",
    "-2147483648",
    "4294967296",
    "9223372036854775807",
    "18446744073709551616",
    "1e308",
    "-1e308",
    "0.0000001",
    "NaN",
    ".nan",
    ".inf",
    "null",
    "~",
    "true",
    "[]",
    "{}",
    "\"\"",
    "''",
    ":",
    ": ",
    "- ",
    "\n",
    "\n  ",
    "\t",
    "#",
    "&a ",
    "*a",
    "!!str ",
    "!!binary ",
    "<<: *a",
    "---\n",
    "\"",
    "'",
    "\\",
    ",",
    "d",
    "0d6",
    "1d0",
    "999d999",
    "1d6+-3",
    "é",
    "鬼",
    "\u{0}",
    "\u{feff}",
];

/// One change to a seed input.
#[derive(Debug, Clone)]
pub enum Mutation {
    /// Replace the byte at a position.
    Flip {
        /// Position (modulo the length).
        at: usize,
        /// The new byte.
        byte: u8,
    },
    /// Delete a range.
    Delete {
        /// Start (modulo the length).
        at: usize,
        /// Bytes removed (at most 64).
        len: usize,
    },
    /// Insert a token.
    Insert {
        /// Position (modulo the length).
        at: usize,
        /// Index into the tokens.
        token: usize,
    },
    /// Replace the number starting at or after a position by a token.
    Number {
        /// Where to look from (modulo the length).
        at: usize,
        /// Index into the tokens.
        token: usize,
    },
    /// Repeat a range in place.
    Duplicate {
        /// Start (modulo the length).
        at: usize,
        /// Bytes repeated (at most 256).
        len: usize,
    },
}

fn mutation() -> impl Strategy<Value = Mutation> {
    let at = any::<usize>();
    let token = 0..TOKENS.len();
    prop_oneof![
        (at, any::<u8>()).prop_map(|(at, byte)| Mutation::Flip { at, byte }),
        (at, 1..64usize).prop_map(|(at, len)| Mutation::Delete { at, len }),
        (at, token.clone()).prop_map(|(at, token)| Mutation::Insert { at, token }),
        (at, token).prop_map(|(at, token)| Mutation::Number { at, token }),
        (at, 1..256usize).prop_map(|(at, len)| Mutation::Duplicate { at, len }),
    ]
}

/// Applies `mutations` to `seed` in order.
pub fn mutate(seed: &[u8], mutations: &[Mutation]) -> Vec<u8> {
    let mut out = seed.to_vec();
    for m in mutations {
        let n = out.len().max(1);
        match *m {
            Mutation::Flip { at, byte } => {
                if !out.is_empty() {
                    out[at % n] = byte;
                }
            }
            Mutation::Delete { at, len } => {
                let start = (at % n).min(out.len());
                let end = (start + len).min(out.len());
                out.drain(start..end);
            }
            Mutation::Insert { at, token } => {
                let at = (at % n).min(out.len());
                out.splice(at..at, TOKENS[token].bytes());
            }
            Mutation::Number { at, token } => {
                let from = (at % n).min(out.len());
                if let Some(start) = out[from..].iter().position(u8::is_ascii_digit).map(|p| p + from) {
                    let end = out[start..]
                        .iter()
                        .position(|b| !(b.is_ascii_digit() || *b == b'.'))
                        .map_or(out.len(), |p| p + start);
                    out.splice(start..end, TOKENS[token].bytes());
                }
            }
            Mutation::Duplicate { at, len } => {
                let start = (at % n).min(out.len());
                let end = (start + len).min(out.len());
                let copy: Vec<u8> = out[start..end].to_vec();
                out.splice(end..end, copy);
            }
        }
    }
    out
}

/// Inputs of a target: a seed of `corpus`, unchanged or mutated up to eight times.
pub fn inputs(corpus: Vec<Vec<u8>>) -> impl Strategy<Value = Vec<u8>> {
    let seeds = if corpus.is_empty() { vec![Vec::new()] } else { corpus };
    (proptest::sample::select(seeds), proptest::collection::vec(mutation(), 0..8))
        .prop_map(|(seed, mutations)| mutate(&seed, &mutations))
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// The map parser (`Map::from_yaml_str`).
pub fn map(bytes: &[u8]) {
    let _ = pf1e_engine::map::Map::from_yaml_str(&text(bytes), "fuzz.yaml");
}

/// The combatant parser and its checks (`parse_combatant`).
pub fn combatant(bytes: &[u8]) {
    let _ = pf1e_engine::model::parse_combatant(&text(bytes), "fuzz.json");
}

/// The spell parser and its checks (`parse_spell`).
pub fn spell(bytes: &[u8]) {
    let _ = pf1e_engine::spell::parse_spell(&text(bytes), "fuzz.json");
}

/// The day file parser (`DayFile::from_yaml_str`) and its plans.
pub fn day(bytes: &[u8]) {
    if let Ok(day) = pf1e_engine::day::file::DayFile::from_yaml_str(&text(bytes), "fuzz.yaml") {
        let _ = day.plans();
    }
}

/// Strategy specs as written in sweep files and on the command line.
pub fn strategy(bytes: &[u8]) {
    let _ = pf1e_engine::strategy::StrategySpec::parse(&text(bytes));
}

/// The dice notation (`DiceExpr::parse` and `parse_signed`): whatever it
/// accepts, its bounds and its rolls stay within `i32` (a wrapped total
/// would panic here, in a debug build).
pub fn dice(bytes: &[u8]) {
    let text = text(bytes);
    let parsed =
        [pf1e_engine::dice::DiceExpr::parse(&text), pf1e_engine::dice::DiceExpr::parse_signed(&text)];
    for expr in parsed.into_iter().flatten() {
        let (lo, hi) = (expr.min(), expr.max());
        assert!(lo <= hi, "{text:?}: min {lo} above max {hi}");
        let mut rng = pf1e_engine::rng::SeededRng::for_run(1, 0);
        for _ in 0..4 {
            let v = expr.roll(&mut rng);
            assert!((lo..=hi).contains(&v), "{text:?}: rolled {v} outside [{lo}, {hi}]");
        }
        let _ = expr.mean();
    }
}

/// The reference map and combatants of the scenario targets.
fn reference_files() -> (Vec<u8>, Vec<u8>, Vec<u8>) {
    let read = |p: &str| std::fs::read(data_dir().join(p)).unwrap_or_default();
    (read("maps/sample_arena.yaml"), read("monsters/goblin.json"), read("monsters/orc.json"))
}

/// A scenario built from a map and two sides, prepared and played for two
/// short battles: what `pf1e sim` does with the files it is given.
pub fn play(map_yaml: Vec<u8>, players: Vec<u8>, monsters: Vec<u8>) {
    let options = SimOptions { round_cap: 6, simple_monster_death: false };
    let sides = vec![
        ScenarioSide {
            name: "players".into(),
            zone: None,
            combatants: vec![("a.json".into(), players.clone()), ("a.json".into(), players)],
        },
        ScenarioSide { name: "monsters".into(), zone: None, combatants: vec![("b.json".into(), monsters)] },
    ];
    let scenario = Scenario::new("map.yaml".into(), map_yaml, sides, options.clone());
    let Ok(encounter) = scenario.encounter() else { return };
    let Ok(playable) = scenario.prepare(encounter) else { return };
    let _ = pf1e_engine::runner::run_batch_prepared(&playable.prepared, &options, 1, 0..2);
}

/// A fuzzed combatant in a real encounter, played.
pub fn scenario_combatant(bytes: &[u8]) {
    let (map, _, orc) = reference_files();
    play(map, bytes.to_vec(), orc);
}

/// A fuzzed map with real combatants, played.
pub fn scenario_map(bytes: &[u8]) {
    let (_, goblin, orc) = reference_files();
    play(bytes.to_vec(), goblin, orc);
}

/// The files a sweep of the sample arena references.
fn sweep_files() -> Vec<proto::BundleFile> {
    ["maps/sample_arena.yaml", "monsters/goblin.json", "monsters/orc.json"]
        .iter()
        .map(|p| proto::BundleFile {
            path: format!("../{p}"),
            content: std::fs::read(data_dir().join(p)).unwrap_or_default(),
        })
        .collect()
}

/// The sweep parser, its resolution against its bundle, its checks and its
/// planners' worst cases: what `pf1e run` and `ctl submit` do before any battle.
pub fn sweep(bytes: &[u8]) {
    let bundle = proto::SweepBundle {
        sweep_path: "sweeps/fuzz.yaml".into(),
        sweep_yaml: text(bytes),
        files: sweep_files(),
        ..Default::default()
    };
    let Ok(draft) = pf1e_coordinator::sweep::SweepDraft::from_bundle(&bundle) else { return };
    let _ = draft.validate();
    if let Ok(sweep) = draft.decide(&Default::default()) {
        let _ = pf1e_coordinator::jobs::registry::planned_runs(&sweep.jobs);
    }
}

/// The spellcasting encounter (the campaign's cleric, witch and magus against
/// the lich and two skeletons on the tower), prepared once with its spells
/// and summonable creatures.
fn casters() -> Option<&'static pf1e_engine::combat::PreparedEncounter> {
    static PREPARED: std::sync::OnceLock<Option<pf1e_engine::combat::PreparedEncounter>> =
        std::sync::OnceLock::new();
    PREPARED
        .get_or_init(|| {
            let read = |p: &str| std::fs::read(data_dir().join(p)).ok();
            let dir = |d: &str| -> Vec<(String, Vec<u8>)> {
                let mut files: Vec<_> = std::fs::read_dir(data_dir().join(d))
                    .into_iter()
                    .flatten()
                    .filter_map(|e| e.ok().map(|e| e.path()))
                    .filter(|p| p.extension().is_some_and(|x| x == "json"))
                    .collect();
                files.sort();
                files.iter().filter_map(|p| Some((p.display().to_string(), std::fs::read(p).ok()?))).collect()
            };
            let side = |name: &str, files: &[&str]| -> Option<ScenarioSide> {
                let combatants =
                    files.iter().map(|f| Some(((*f).to_string(), read(f)?))).collect::<Option<Vec<_>>>()?;
                Some(ScenarioSide { name: name.into(), zone: None, combatants })
            };
            let sides = vec![
                side("players", &["pcs/oni.json", "pcs/nairda.json", "pcs/misty.json"])?,
                side(
                    "monsters",
                    &["monsters/lich.json", "monsters/skeleton.json", "monsters/skeleton.json"],
                )?,
            ];
            let options = SimOptions { round_cap: 4, simple_monster_death: false };
            let scenario = Scenario::new("maps/tower.yaml".into(), read("maps/tower.yaml")?, sides, options)
                .with_library(dir("spells"), dir("monsters"))
                .ok()?;
            let encounter = scenario.encounter().ok()?;
            scenario.prepare(encounter).ok().map(|p| p.prepared)
        })
        .as_ref()
}

/// A model's answer for a turn (`observe::ActionSpec` JSON: kinds, targets,
/// squares, spells, metamagic, options), turned into an action and played by
/// every combatant of a short battle of casters: the parser, the conversion
/// and the engine must refuse what they cannot do, never panic.
pub fn model_action(bytes: &[u8]) {
    use pf1e_engine::combat::{Action, BattleState, DefaultPolicy, Policy};
    use pf1e_engine::observe::ActionSpec;
    let Some(prepared) = casters() else { return };
    let Ok(spec) = serde_json::from_str::<ActionSpec>(&text(bytes)) else { return };
    let mut policy = |b: &BattleState<'_>, i: usize, out: &mut Vec<Action>| match spec.to_action(b) {
        Ok(action) => out.push(action),
        Err(_) => DefaultPolicy.plan(b, i, out),
    };
    let options = SimOptions { round_cap: 4, simple_monster_death: false };
    let mut rng = pf1e_engine::rng::SeededRng::for_run(1, 0);
    let _ = pf1e_engine::combat::run_prepared(prepared, &options, &mut rng, None, &mut policy);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mutations_stay_within_the_input() {
        let seed = b"runs: 200\nseed: 7\n";
        assert_eq!(mutate(seed, &[Mutation::Number { at: 0, token: 0 }]), b"runs: -1\nseed: 7\n");
        assert_eq!(mutate(seed, &[Mutation::Delete { at: 4, len: 100 }]), b"runs");
        assert_eq!(
            mutate(b"", &[Mutation::Flip { at: 3, byte: 1 }, Mutation::Duplicate { at: 9, len: 9 }]),
            b""
        );
        assert_eq!(mutate(b"ab", &[Mutation::Insert { at: 1, token: 2 }]), b"a1b");
        assert_eq!(mutate(b"ab", &[Mutation::Duplicate { at: 0, len: 2 }]), b"abab");
    }

    #[test]
    fn every_corpus_has_seeds() {
        assert!(corpus("maps", "yaml", 8).len() >= 2);
        assert!(corpus("monsters", "json", 8).len() >= 8);
        assert!(corpus("spells", "json", 8).len() >= 8);
        assert!(corpus("sweeps", "yaml", 16).len() >= 5);
        assert!(corpus("days", "yaml", 8).len() >= 2);
    }

    #[test]
    fn the_casters_battle_of_the_model_action_target_is_prepared() {
        assert!(casters().is_some(), "the spellcasting encounter prepares");
        let spec: pf1e_engine::observe::ActionSpec =
            serde_json::from_str(r#"{"kind": "cast_spell", "spell": "Fireball", "destination": [6, 4]}"#)
                .unwrap();
        assert_eq!(spec.spell.as_deref(), Some("Fireball"));
    }
}
