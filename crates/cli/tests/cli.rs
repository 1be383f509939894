//! The real `pf1e` binary on the bundled data and on broken inputs.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use serde_json::Value;

const MAP: &str = "data/maps/sample_arena.yaml";
const GOBLIN: &str = "data/monsters/goblin.json";
const ORC: &str = "data/monsters/orc.json";

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// `pf1e` from the repository root, in an English locale with no log settings.
fn command() -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_pf1e"));
    c.current_dir(repo())
        .env_remove("LC_ALL")
        .env_remove("LC_MESSAGES")
        .env_remove("RUST_LOG")
        .env_remove("COLUMNS")
        .env("LANG", "C.UTF-8");
    c
}

/// Runs `pf1e` from the repository root.
fn pf1e<S: AsRef<std::ffi::OsStr>>(args: &[S]) -> Output {
    command().args(args).output().expect("run pf1e")
}

/// Runs `pf1e` under a French locale.
fn pf1e_fr<S: AsRef<std::ffi::OsStr>>(args: &[S]) -> Output {
    command().env("LANG", "fr_FR.UTF-8").args(args).output().expect("run pf1e")
}

/// The `sim` arguments of the reference encounter (3 goblins vs 2 orcs), plus `extra`.
fn sim_args<'a>(extra: &[&'a str]) -> Vec<&'a str> {
    let mut args = vec!["sim", "--map", MAP, "--side", "players", GOBLIN, GOBLIN, GOBLIN];
    args.extend(["--side", "monsters", ORC, ORC, "--runs", "200"]);
    args.extend(extra);
    args
}

/// `sim` on the reference encounter, plus `extra` flags.
fn sim(extra: &[&str]) -> Output {
    pf1e(&sim_args(extra))
}

fn stdout(out: &Output) -> String {
    assert_eq!(out.status.code(), Some(0), "stderr: {}", String::from_utf8_lossy(&out.stderr));
    assert!(out.stderr.is_empty(), "stderr: {}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8(out.stdout.clone()).expect("utf-8 stdout")
}

fn json(out: &Output) -> Value {
    serde_json::from_str(&stdout(out)).expect("one JSON object on stdout")
}

/// A usage or data error: exit 2, nothing on stdout, ONE stderr line containing every needle.
fn assert_input_error(out: &Output, needles: &[&str]) {
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "stderr: {err}");
    assert!(out.stdout.is_empty(), "stdout: {}", String::from_utf8_lossy(&out.stdout));
    assert!(err.starts_with("error: "), "{err:?}");
    assert!(err.ends_with('\n') && err.lines().count() == 1, "not one line: {err:?}");
    for needle in needles {
        assert!(err.contains(needle), "{needle:?} missing from {err:?}");
    }
    assert!(!err.contains("panicked"), "{err}");
}

fn rate(v: &Value) -> f64 {
    let r = v.as_f64().expect("a number");
    assert!((0.0..=1.0).contains(&r), "rate {r} outside [0, 1]");
    r
}

/// What follows the verdict, which opens `pf1e sim`'s text output as one
/// paragraph (`Verdict: ` or `Verdict : `) and a blank line.
fn after_verdict(out: &str) -> &str {
    assert!(out.starts_with("Verdict"), "no verdict first:\n{out}");
    let end = out.find("\n\n").expect("a blank line after the verdict");
    assert_eq!(out[..end].lines().count(), 1, "the verdict is one paragraph:\n{out}");
    &out[end + 2..]
}

#[test]
fn text_report_on_bundled_data_in_a_french_locale() {
    let out = stdout(&pf1e_fr(&sim_args(&[])));
    let out = after_verdict(&out);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines[0], "=== Rapport d'équilibrage ===");
    assert!(lines[1].starts_with("Carte : "), "{out}");
    assert_eq!(lines[2], "players : 3 combattants");
    assert_eq!(lines[3], "monsters : 2 combattants");
    assert_eq!(lines[4], "200 combats simulés (seed 1, plafond 100 rounds)");
    assert!(lines[6].starts_with("Victoires players : ") && lines[6].contains("— bande 3σ : ["), "{out}");
    assert!(lines[7].starts_with("Victoires monsters : "), "{out}");
    assert!(lines[8].starts_with("Nuls : "), "{out}");
    assert!(lines[9].starts_with("Rounds moyens : "), "{out}");
    assert!(lines[10].starts_with("Difficulté selon le livre : "), "{out}");
    assert!(lines[11].starts_with("Simulé pour players : victoire "), "{out}");
    assert_eq!(lines[13], "Attrition moyenne par combattant :");
    assert!(lines[14].starts_with("Combattant  Camp"), "{out}");
    assert!(lines[15].starts_with("----------"), "{out}");
    let ids: Vec<&str> = lines[16..].iter().map(|l| l.split_whitespace().next().unwrap_or("")).collect();
    assert_eq!(ids, ["goblin", "goblin-2", "goblin-3", "orc", "orc-2"]);
    // Wins and draws account for every battle: "(N)" after each rate.
    let count = |line: &str| -> u64 {
        let open = line.find('(').unwrap();
        line[open + 1..line.find(')').unwrap()].parse().unwrap()
    };
    assert_eq!(count(lines[6]) + count(lines[7]) + count(lines[8]), 200);
}

#[test]
fn json_report_has_the_documented_fields() {
    let v = json(&sim(&["--json"]));
    assert_eq!(v["runs"], 200);
    assert_eq!(v["seed"], 1);
    assert_eq!(v["round_cap"], 100);
    assert!(v["map"].as_str().is_some_and(|m| !m.is_empty()));
    assert!(v.get("transcript").is_none());
    rate(&v["draw_rate"]);
    assert!(v["avg_rounds"].as_f64().unwrap() >= 1.0);
    let sides = v["sides"].as_array().unwrap();
    assert_eq!(sides.len(), 2);
    let mut total = v["draws"].as_u64().unwrap();
    for (side, (name, n)) in sides.iter().zip([("players", 3), ("monsters", 2)]) {
        assert_eq!(side["name"], name);
        assert_eq!(side["combatants"], n);
        let p = rate(&side["win_rate"]);
        let (lo, hi) = (rate(&side["band"][0]), rate(&side["band"][1]));
        assert!(lo <= p && p <= hi, "{side}");
        let wins = side["wins"].as_u64().unwrap();
        assert!((p - wins as f64 / 200.0).abs() < 1e-12);
        total += wins;
    }
    assert_eq!(total, 200);
    let combatants = v["combatants"].as_array().unwrap();
    let ids: Vec<&str> = combatants.iter().map(|c| c["id"].as_str().unwrap()).collect();
    assert_eq!(ids, ["goblin", "goblin-2", "goblin-3", "orc", "orc-2"]);
    for c in combatants {
        assert!(c["name"].is_string() && c["side"].is_string(), "{c}");
        rate(&c["death_rate"]);
        for key in ["avg_hits", "avg_crits", "avg_damage_dealt", "avg_damage_taken", "avg_healing_given"] {
            assert!(c[key].as_f64().is_some_and(|x| x >= 0.0), "{key} in {c}");
        }
    }
}

#[test]
fn english_report_without_french_typography() {
    let out = stdout(&sim(&[]));
    for needle in [
        "=== Balance report ===\nMap: ",
        "\nplayers: 3 combatants\n",
        "\n200 combats simulated (seed 1, cap 100 rounds)\n",
        "\nWins players: ",
        " — 3σ band: [",
        "\nDraws: ",
        "\nAverage rounds: ",
        "\nAverage attrition per combatant:\nCombatant  Side",
    ] {
        assert!(out.contains(needle), "{needle:?} missing from\n{out}");
    }
    assert!(!out.contains(" :"), "French typography in English:\n{out}");
    // --lang overrides the locale both ways.
    assert_eq!(stdout(&pf1e_fr(&sim_args(&["--lang", "en"]))), out);
    assert!(out.starts_with("Verdict: "), "{out}");
    let fr = stdout(&sim(&["--lang", "fr"]));
    assert!(after_verdict(&fr).starts_with("=== Rapport d'équilibrage ===\nCarte : "), "{fr}");
}

#[test]
fn the_locale_variables_are_read_in_posix_order() {
    let lang = |vars: &[(&str, &str)]| {
        let mut c = command();
        for (k, v) in vars {
            c.env(k, v);
        }
        let out = c.args(sim_args(&["--runs", "1"])).output().unwrap();
        after_verdict(&stdout(&out)).lines().next().unwrap().to_string()
    };
    assert_eq!(lang(&[("LANG", "fr_FR.UTF-8")]), "=== Rapport d'équilibrage ===");
    assert_eq!(lang(&[("LANG", "fr_FR.UTF-8"), ("LC_MESSAGES", "en_GB.UTF-8")]), "=== Balance report ===");
    assert_eq!(lang(&[("LANG", "en_US.UTF-8"), ("LC_ALL", "fr_CA.UTF-8")]), "=== Rapport d'équilibrage ===");
}

#[test]
fn transcript_table_comes_before_the_report() {
    let out = stdout(&sim(&["--transcript", "--runs", "3", "--lang", "fr"]));
    let out = after_verdict(&out);
    assert!(
        out.starts_with("=== Déroulé du premier combat ===\nRound  Combattant  Message\n-----  "),
        "{out}"
    );
    let report = out.find("\n=== Rapport d'équilibrage ===\n").expect("report after the transcript");
    assert!(out[..report].lines().count() > 4, "{out}");
    let en = stdout(&sim(&["--transcript", "--runs", "3"]));
    assert!(after_verdict(&en).starts_with("=== First combat ===\nRound  Combatant  Message\n"), "{en}");
    let v = json(&sim(&["--transcript", "--runs", "3", "--json"]));
    assert!(v["transcript"].as_array().is_some_and(|t| !t.is_empty() && t.iter().all(Value::is_string)));
}

#[test]
fn events_are_json_lines_with_a_schema_header_and_match_the_transcript() {
    let out = stdout(&sim(&["--events", "--runs", "3"]));
    let lines: Vec<Value> =
        out.lines().map(|l| serde_json::from_str(l).expect("one JSON object per line")).collect();
    assert_eq!(lines[0]["schema"], pf1e_engine::combat::event::EVENT_SCHEMA_VERSION);
    let ids: Vec<&str> =
        lines[0]["combatants"].as_array().unwrap().iter().map(|c| c["id"].as_str().unwrap()).collect();
    assert_eq!(ids, ["goblin", "goblin-2", "goblin-3", "orc", "orc-2"]);
    assert_eq!(lines[0]["sides"], serde_json::json!(["players", "monsters"]));
    assert!(lines[1..].iter().all(|e| e["type"].is_string() && e["round"].is_u64()), "{out}");
    assert_eq!(lines.iter().filter(|e| e["type"] == "initiative").count(), 5);
    assert_eq!(lines.last().unwrap()["type"], "battle_over");
    // One event per line of the transcript of the same battle.
    let v = json(&sim(&["--transcript", "--runs", "3", "--json"]));
    assert_eq!(v["transcript"].as_array().unwrap().len(), lines.len() - 1);
}

#[test]
fn a_french_transcript_is_french() {
    let out = stdout(&sim(&["--transcript", "--runs", "3", "--lang", "fr"]));
    let table = &out[..out.find("\n=== Rapport d'équilibrage ===\n").unwrap()];
    assert!(table.contains("initiative : "), "{table}");
    assert!(table.contains(" contre orc d20="), "{table}");
    assert!(table.contains("fin du combat : "), "{table}");
    for english in [" vs ", "-> MISS", "-> HIT", "battle over", "initiative: ", " move (", " dmg"] {
        assert!(!table.contains(english), "{english:?} in {table}");
    }
}

/// A battle of maneuvers (a dire wolf's trips, an owlbear's grab),
/// afflictions (a ghoul's paralysis, an ettercap's poison) and spells (the
/// party's casters): `sim` on it, one run, plus `extra`.
fn families(extra: &[&str]) -> String {
    let mut args = vec!["sim", "--map", "data/maps/field.yaml", "--side", "players"];
    args.extend([
        "data/pcs/fighter.json",
        "data/pcs/misty.json",
        "data/pcs/nairda.json",
        "data/pcs/oni.json",
    ]);
    args.extend(["--side", "monsters", "data/monsters/dire_wolf.json", "data/monsters/ghoul.json"]);
    args.extend(["data/monsters/ettercap.json", "data/monsters/owlbear.json", "--runs", "1", "--seed", SEED]);
    args.extend(extra);
    stdout(&pf1e(&args))
}

/// The seed of [`families`]' battle, one that has every family.
const SEED: &str = "3";

/// The messages of a transcript table (round and combatant columns cut
/// off, spaces collapsed), and its lines of their own.
fn messages(out: &str) -> Vec<String> {
    let start = out.find("\n-----").expect("a table rule") + 1;
    let body = out[start..].split_once('\n').map_or("", |(_, b)| b);
    body.lines()
        .take_while(|l| !l.trim().is_empty())
        .map(|l| {
            let mut words = l.split_whitespace();
            match words.next().map(str::parse::<u32>) {
                Some(Ok(_)) => words.skip(1).collect::<Vec<_>>().join(" "),
                _ => l.to_string(),
            }
        })
        .collect()
}

#[test]
fn a_french_transcript_of_maneuvers_afflictions_and_spells_has_no_english_line() {
    // The battle has the families, by its events.
    let events = families(&["--events"]);
    let types: std::collections::BTreeSet<String> = events
        .lines()
        .skip(1)
        .map(|l| serde_json::from_str::<Value>(l).expect("an event")["type"].as_str().unwrap().to_string())
        .collect();
    for family in ["maneuver_roll", "maneuver", "affliction", "save", "casts", "effect_gained", "effect_ends"]
    {
        assert!(types.contains(family), "no {family} event in the battle: {types:?}");
    }
    let fr = messages(&families(&["--transcript", "--lang", "fr"]));
    let en = messages(&families(&["--transcript", "--lang", "en"]));
    assert_eq!(fr.len(), en.len(), "the same battle");
    assert!(fr.len() > 20, "{fr:?}");
    for (f, e) in fr.iter().zip(&en) {
        // Every line has its French words; only a charge reads the same in both.
        assert!(f != e || f.starts_with("charge "), "English line in the French transcript: {f:?}");
        for english in
            [" vs ", " takes ", " fails", " saves", " hits", " misses", " damage", " is ", "CMB", "CMD"]
        {
            assert!(!f.contains(english), "{english:?} in {f:?}");
        }
    }
    let all = fr.join("\n");
    for french in [" BMO d20=", "jet de ", "lance ", "est affecté par "] {
        assert!(all.contains(french), "{french:?} missing from\n{all}");
    }
}

#[test]
fn same_seed_same_output_whatever_the_thread_count() {
    let a = stdout(&sim(&["--transcript", "--seed", "42"]));
    let b = stdout(&sim(&["--transcript", "--seed", "42"]));
    assert_eq!(a, b);
    let one = stdout(&sim(&["--json", "--threads", "1"]));
    let four = stdout(&sim(&["--json", "--threads", "4"]));
    assert_eq!(one, four);
    // The seed is used: another seed gives other battles.
    let mut other = json(&sim(&["--json", "--seed", "2"]));
    let mut first: Value = serde_json::from_str(&one).unwrap();
    other["seed"] = Value::Null;
    first["seed"] = Value::Null;
    assert_ne!(first, other);
}

#[test]
fn simple_monster_death_is_reported() {
    let v = json(&sim(&["--json", "--simple-monster-death", "--round-cap", "7"]));
    assert_eq!(v["simple_monster_death"], true);
    assert_eq!(v["round_cap"], 7);
    assert!(v["avg_rounds"].as_f64().unwrap() <= 7.0);
}

#[test]
fn a_side_can_start_at_a_fraction_of_its_hit_points() {
    let full = json(&sim(&["--json"]));
    assert_eq!(json(&sim(&["--json", "--start-hp", "monsters", "1"])), full, "1 is full hit points");
    let weak = json(&sim(&["--json", "--start-hp", "monsters", "0.25"]));
    // Two orcs of 6 hp start with 2 each (⌈6 × 0.25⌉): the goblins win more often.
    let wins = |v: &Value| rate(&v["sides"][0]["win_rate"]);
    assert!(wins(&weak) > wins(&full) + 0.1, "{} against {}", wins(&weak), wins(&full));
    for (args, needles) in [
        (["--start-hp", "dragons", "0.5"], ["--start-hp", "\"dragons\" is not a side"]),
        (["--start-hp", "monsters", "1.5"], ["--start-hp", "not a fraction in (0, 1]"]),
        (["--start-hp", "monsters", "0"], ["--start-hp", "not a fraction in (0, 1]"]),
    ] {
        assert_input_error(&sim(&args), &needles);
    }
    let twice = sim(&["--start-hp", "monsters", "0.5", "--start-hp", "monsters", "0.7"]);
    assert_input_error(&twice, &["side \"monsters\" is given twice"]);
}

#[test]
fn bench_prints_combats_per_second() {
    let out = stdout(&pf1e(&["bench", "--runs", "5"]));
    assert!(
        out.contains("5 combats in ") && out.contains(" on 1 thread: ") && out.contains(" combats/s"),
        "{out}"
    );
}

// ---- one test per usage or data error ----

#[test]
fn unknown_side() {
    let out = pf1e(&[
        "sim", "--map", MAP, "--side", "players", GOBLIN, "--side", "monsters", ORC, "--side", "dragons", ORC,
    ]);
    assert_input_error(&out, &[MAP, "deployment", "dragons"]);
}

#[test]
fn missing_deployment_side() {
    let out = pf1e(&["sim", "--map", MAP, "--side", "players", GOBLIN]);
    assert_input_error(&out, &[MAP, "deployment", "monsters"]);
}

#[test]
fn duplicate_side() {
    let out = pf1e(&[
        "sim", "--map", MAP, "--side", "players", GOBLIN, "--side", "players", GOBLIN, "--side", "monsters",
        ORC,
    ]);
    assert_input_error(&out, &["--side players", "more than once"]);
}

#[test]
fn side_without_files() {
    let out = pf1e(&["sim", "--map", MAP, "--side", "players", "--side", "monsters", ORC]);
    assert_input_error(&out, &["--side"]);
}

#[test]
fn zone_too_small() {
    let dir = tempfile::tempdir().unwrap();
    let map = dir.path().join("tiny.yaml");
    std::fs::write(
        &map,
        "name: Tiny\nsquare_size_ft: 5\nterrain: |\n  .....\n  .....\nlegend:\n  \".\": { type: floor, move_cost: 1 }\n\
         zones: |\n  A...B\n  .....\ndeployment:\n  players: A\n  monsters: B\n",
    )
    .unwrap();
    let goblin = repo().join(GOBLIN);
    let orc = repo().join(ORC);
    let mut args: Vec<&std::ffi::OsStr> = vec!["sim".as_ref(), "--map".as_ref(), map.as_os_str()];
    args.extend(["--side".as_ref(), "players".as_ref(), goblin.as_os_str(), goblin.as_os_str()]);
    args.extend(["--side".as_ref(), "monsters".as_ref(), orc.as_os_str()]);
    assert_input_error(&pf1e(&args), &["tiny.yaml", "deployment.players", "zone A"]);
}

#[test]
fn missing_map_file() {
    let out = pf1e(&["sim", "--map", "data/maps/no_such_map.yaml", "--side", "players", GOBLIN]);
    assert_input_error(&out, &["data/maps/no_such_map.yaml", "cannot read"]);
}

#[test]
fn missing_combatant_file() {
    let out = pf1e(&[
        "sim",
        "--map",
        MAP,
        "--side",
        "players",
        "data/monsters/no_such.json",
        "--side",
        "monsters",
        ORC,
    ]);
    assert_input_error(&out, &["data/monsters/no_such.json", "cannot read"]);
}

#[test]
fn malformed_combatant_json() {
    let dir = tempfile::tempdir().unwrap();
    let bad = dir.path().join("bad_goblin.json");
    std::fs::write(&bad, "{\n  \"name\": \"Goblin\",\n  \"hp_max\": \n}\n").unwrap();
    let out = pf1e(&[
        "sim".as_ref(),
        "--map".as_ref(),
        MAP.as_ref(),
        "--side".as_ref(),
        "players".as_ref(),
        bad.as_os_str(),
        "--side".as_ref(),
        "monsters".as_ref(),
        ORC.as_ref(),
    ] as &[&std::ffi::OsStr]);
    assert_input_error(&out, &["bad_goblin.json"]);
}

#[test]
fn malformed_map_yaml() {
    let dir = tempfile::tempdir().unwrap();
    let bad = dir.path().join("broken.yaml");
    std::fs::write(&bad, "name: [unclosed\nterrain: |\n  ...\n").unwrap();
    let out = pf1e(&[
        "sim".as_ref(),
        "--map".as_ref(),
        bad.as_os_str(),
        "--side".as_ref(),
        "players".as_ref(),
        GOBLIN.as_ref(),
    ] as &[&std::ffi::OsStr]);
    assert_input_error(&out, &["broken.yaml"]);
}

#[test]
fn zero_runs() {
    assert_input_error(&sim(&["--runs", "0"]), &["--runs", "whole number >= 1"]);
}

#[test]
fn unknown_language() {
    assert_input_error(&sim(&["--lang", "de"]), &["--lang", "de"]);
}

#[test]
fn other_bad_flag_values() {
    for (flag, value) in [("--round-cap", "0"), ("--threads", "0"), ("--seed", "-1"), ("--runs", "many")] {
        assert_input_error(&sim(&[&format!("{flag}={value}")]), &[flag, value]);
    }
}

#[test]
fn missing_map_flag() {
    assert_input_error(&pf1e(&["sim", "--side", "players", GOBLIN]), &["--map"]);
}

#[test]
fn help_goes_to_stdout() {
    let out = pf1e(&["sim", "--help"]);
    assert_eq!(out.status.code(), Some(0));
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("--side <NAME> <FILE>...") && text.contains("--lang"), "{text}");
}

#[test]
fn an_unreachable_coordinator_says_why_and_what_to_check() {
    // Nothing listens on port 1 of the loopback: the connection is refused at once.
    let out = pf1e(&["ctl", "--coordinator", "http://127.0.0.1:1", "status"]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "the environment failed: {err}");
    assert_eq!(err.lines().count(), 1, "{err:?}");
    assert!(err.contains("cannot reach the coordinator at http://127.0.0.1:1: "), "{err}");
    assert!(!err.contains("127.0.0.1:1: transport error"), "the cause is spelled out: {err}");
    assert!(err.contains("PF1E_COORDINATOR"), "the message says what to check: {err}");
}

#[test]
fn a_malformed_coordinator_url_is_a_usage_error() {
    let out = pf1e(&["ctl", "--coordinator", "http://exa mple", "status"]);
    assert_input_error(&out, &["invalid coordinator URL", "http://HOST:PORT"]);
}

/// The first battle of the campaign's encounter (eight PCs against the
/// lich, a Thrune agent, orcs and goblins on the tower) with `seed`, as a
/// transcript in `lang`: paralysis, fear, blindness, daze, flat-footedness.
fn campaign_transcript(seed: &str, lang: &str) -> String {
    let pc = |n: &str| format!("data/pcs/{n}.json");
    let monster = |n: &str| format!("data/monsters/{n}.json");
    let mut args: Vec<String> =
        ["sim", "--map", "data/maps/tower.yaml", "--side", "players"].map(String::from).into();
    args.extend(["jeanne", "esha", "harvie", "ierlieth", "misty", "nairda", "oni", "tammara"].map(pc));
    args.extend(["--side".into(), "monsters".into()]);
    args.extend(["lich", "thrune_agent", "orc", "orc", "goblin", "goblin"].map(monster));
    args.extend(
        ["--round-cap", "20", "--runs", "1", "--seed", seed, "--transcript", "--lang", lang]
            .map(String::from),
    );
    stdout(&pf1e(&args))
}

#[test]
fn a_french_transcript_names_no_condition_in_english() {
    use pf1e_engine::effects::ConditionId;
    // The conditions whose name is a word of its own in English (French
    // says `invisible` too).
    let english: Vec<&str> =
        ConditionId::ALL.iter().map(|c| c.name()).filter(|n| *n != "invisible").collect();
    let words = |text: &str| -> Vec<String> {
        text.split(|c: char| !(c.is_alphanumeric() || c == '_')).map(str::to_string).collect()
    };
    let mut seen = std::collections::BTreeSet::new();
    for seed in ["1", "2", "3"] {
        let en = words(&campaign_transcript(seed, "en"));
        seen.extend(english.iter().filter(|n| en.iter().any(|w| w == *n)).copied());
        let fr = campaign_transcript(seed, "fr");
        let leftover: Vec<&&str> = english.iter().filter(|n| words(&fr).iter().any(|w| w == *n)).collect();
        assert!(leftover.is_empty(), "seed {seed}: English condition names in French: {leftover:?}\n{fr}");
    }
    // The battles exercise conditions, so the check above can fail.
    assert!(seen.len() >= 5, "conditions in the English transcripts: {seen:?}");
    // A battle (seed 4) in which the lich frightens and a PC is caught flat-footed.
    let fr = campaign_transcript("4", "fr");
    assert!(fr.contains("effrayé") && fr.contains("pris au dépourvu"), "{fr}");
}

#[test]
fn a_strategy_is_played_and_reported() {
    let plain = json(&sim(&["--json", "--seed", "7"]));
    assert!(plain.get("strategies").is_none(), "no strategy asked, none reported");
    // The all-default matchup plays exactly as the default policy.
    let mut defaults =
        json(&sim(&["--json", "--seed", "7", "--strategy", "default", "--adversary-strategy", "default"]));
    assert_eq!(defaults["strategies"]["party"], "default");
    assert_eq!(defaults["strategies"]["adversary"], "default");
    defaults.as_object_mut().unwrap().remove("strategies");
    assert_eq!(defaults, plain);
    // Levers change the battles, and the report names them canonically
    // (whatever order they were written in).
    let fleeing = json(&sim(&["--json", "--seed", "7", "--adversary-strategy", "retreat=0.9, weakest_ac"]));
    assert_eq!(fleeing["strategies"]["adversary"], "weakest_ac, retreat=0.9");
    assert_eq!(fleeing["strategies"]["party"], "default");
    assert_ne!(fleeing["sides"], plain["sides"], "retreat=0.9 played like the default");
    let party_side = fleeing["strategies"]["party_side"].as_str().unwrap().to_string();
    let text =
        stdout(&sim(&["--seed", "7", "--adversary-strategy", "retreat=0.9, weakest_ac", "--transcript"]));
    assert!(text.contains(&format!("Party's strategy: default ({party_side})")), "{text}");
    assert!(text.contains("Adversaries' strategy: weakest_ac, retreat=0.9"), "{text}");
    assert!(
        after_verdict(&text).len() < text.len()
            && text.contains(
                "With the party playing default and its adversaries weakest_ac, retreat=0.9, the party wins"
            ),
        "the verdict does not name the strategies: {text}"
    );
    // The transcript is a battle of the same matchup: same seed, same output.
    let again =
        stdout(&sim(&["--seed", "7", "--adversary-strategy", "retreat=0.9, weakest_ac", "--transcript"]));
    assert_eq!(text, again);
    let fr = String::from_utf8(pf1e_fr(&sim_args(&["--strategy", "lowest_hp"])).stdout).unwrap();
    assert!(fr.contains("Stratégie du groupe : lowest_hp"), "{fr}");
}

#[test]
fn a_bad_strategy_is_one_usage_error() {
    assert_input_error(&sim(&["--strategy", "retreat=2"]), &["--strategy", "retreat"]);
    assert_input_error(
        &sim(&["--adversary-strategy", "charge_blindly"]),
        &["--adversary-strategy", "charge_blindly"],
    );
    assert_input_error(
        &sim(&["--strategy", "lowest_hp", "--llm-side", "players"]),
        &["--strategy", "--llm-side"],
    );
}
