//! The LLM commands of the real binary against the scripted server on
//! 127.0.0.1: `strategy compile`, `nl:` sweeps in `run`, `--llm-report`,
//! the per-turn showcase and `replay`, and the API key kept out of every
//! output, log and file.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use pf1e_llm::testing::{MockLlmServer, scripted_model};
use serde_json::Value;

const KEY: &str = "sk-cli-test-secret-0042";

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// The scripted model on a runtime of its own (the binary runs meanwhile).
struct Model {
    server: MockLlmServer,
    _rt: tokio::runtime::Runtime,
}

impl Model {
    fn start() -> Self {
        let rt = tokio::runtime::Runtime::new().unwrap();
        let server = rt.block_on(MockLlmServer::start(vec![])).unwrap();
        server.respond_with(scripted_model);
        Self { server, _rt: rt }
    }

    /// A model that casts the first spell among the plausible actions, when
    /// one is listed (otherwise it answers as the scripted model does).
    fn caster() -> Self {
        let rt = tokio::runtime::Runtime::new().unwrap();
        let server = rt.block_on(MockLlmServer::start(vec![])).unwrap();
        server.respond_with(|body| {
            let messages = body["messages"].as_array().cloned().unwrap_or_default();
            let question =
                messages.last().and_then(|m| m["content"].as_str()).unwrap_or_default().to_string();
            let spell = question
                .lines()
                .filter_map(|l| l.split_once(". ").map(|(_, a)| a))
                .filter_map(|a| serde_json::from_str::<Value>(a).ok())
                .find(|a| a["kind"] == "cast_spell");
            match spell {
                Some(a) => pf1e_llm::testing::Reply::json(&serde_json::json!({"actions": [a]})),
                None => scripted_model(body),
            }
        });
        Self { server, _rt: rt }
    }

    fn requests(&self) -> usize {
        self.server.request_count()
    }
}

/// `pf1e ARGS` from the repository root, talking to `model`, with a clean
/// LLM environment and TRACE logs (to check that the key stays out of them).
fn pf1e(model: &Model, dir: &Path, args: &[&str]) -> Output {
    let mut c = Command::new(env!("CARGO_BIN_EXE_pf1e"));
    c.current_dir(repo())
        .args(args)
        .env("RUST_LOG", "trace")
        .env("PF1E_LLM_BASE_URL", model.server.base_url())
        .env("PF1E_LLM_MODEL", "scripted")
        .env("PF1E_LLM_API_KEY", KEY)
        .env("PF1E_CACHE", dir.join("cache.redb"))
        .env_remove("PF1E_PROMPT_PACK_DIR");
    c.output().expect("run pf1e")
}

fn ok(out: &Output) -> String {
    let stdout = String::from_utf8_lossy(&out.stdout).to_string();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "stdout: {stdout}\nstderr: {stderr}");
    assert!(!stdout.contains(KEY) && !stderr.contains(KEY), "the API key leaked into the output");
    stdout
}

/// Exit 2 with one `error:` line naming `needle`.
fn refused(out: &Output, needle: &str) {
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "stderr: {stderr}");
    let errors: Vec<&str> = stderr.lines().filter(|l| l.starts_with("error:")).collect();
    assert_eq!(errors.len(), 1, "{stderr}");
    assert!(errors[0].contains(needle), "{stderr}");
    assert!(!stderr.contains(KEY));
}

fn no_key_in(path: &Path) {
    let bytes = std::fs::read(path).unwrap();
    assert!(!bytes.windows(KEY.len()).any(|w| w == KEY.as_bytes()), "the API key is in {}", path.display());
}

#[test]
fn strategy_compile_prints_the_canonical_spec_and_a_second_call_comes_from_the_cache() {
    let model = Model::start();
    let dir = tempfile::tempdir().unwrap();
    let out = pf1e(&model, dir.path(), &["strategy", "compile", "focus their healer, fall back below 30 %"]);
    assert_eq!(ok(&out), "healer, retreat=0.3\n");
    assert_eq!(model.requests(), 1);
    let auth = model.server.requests()[0].authorization.clone();
    assert_eq!(auth.as_deref(), Some(format!("Bearer {KEY}").as_str()), "the key is sent, and only there");
    let out = pf1e(
        &model,
        dir.path(),
        &["strategy", "compile", "focus their healer, fall back below 30 %", "--side", "party", "--json"],
    );
    let doc: Value = serde_json::from_str(&ok(&out)).unwrap();
    assert_eq!(doc["strategy"], "healer, retreat=0.3");
    assert_eq!(doc["levers"]["retreat"], 0.3);
    assert_eq!(doc["cached"], true);
    assert_eq!(model.requests(), 1, "the second compilation calls nothing");
    no_key_in(&dir.path().join("cache.redb"));

    let out = pf1e(&model, dir.path(), &["strategy", "compile", "x", "--prompt-pack", "/nonexistent/pack"]);
    refused(&out, "prompt pack /nonexistent/pack: is not a directory");
    let out = pf1e(&model, dir.path(), &["strategy", "compile", " "]);
    refused(&out, "the sentence is empty");
}

fn write_sweep(dir: &Path) -> PathBuf {
    let d = repo().join("data").canonicalize().unwrap();
    let text = format!(
        "name: nl-run\nseed: 5\nruns: 8\nparty: players\nscenario:\n  map: {map}\n  round_cap: 30\n  sides:\n    players: {{ combatants: [{g}, {g}] }}\n    monsters: {{ combatants: [{o}] }}\njobs:\n  - grid: {{ party: [{{ nl: \"finish the wounded\" }}, default] }}\n  - minmax: {{ party: [default], adversary: [default], llm_adversaries: 2, iterations: 2 }}\n",
        map = d.join("maps/sample_arena.yaml").display(),
        g = d.join("monsters/goblin.json").display(),
        o = d.join("monsters/orc.json").display(),
    );
    let path = dir.join("sweep.yaml");
    std::fs::write(&path, text).unwrap();
    path
}

#[test]
fn a_sweep_with_sentences_runs_once_through_the_model_then_from_the_cache_and_the_report_is_narrated() {
    let model = Model::start();
    let dir = tempfile::tempdir().unwrap();
    let sweep = write_sweep(dir.path());
    let db = dir.path().join("run.redb");
    let run = |extra: &[&str]| {
        let mut args = vec!["run", sweep.to_str().unwrap(), "--db", db.to_str().unwrap(), "-q"];
        args.extend(extra);
        pf1e(&model, dir.path(), &args)
    };
    let doc: Value = serde_json::from_str(&ok(&run(&["--json"]))).unwrap();
    let results = &doc["results"];
    assert_eq!(results["llm"]["strategies"][0]["sentence"], "finish the wounded");
    assert_eq!(results["llm"]["strategies"][0]["strategy"], "lowest_hp");
    assert_eq!(results["jobs"][0]["cells"][0]["party_strategy"], "lowest_hp");
    assert_eq!(
        results["jobs"][1]["result"]["llm_proposals"],
        serde_json::json!(["weakest_ac", "healer, retreat=0.5"])
    );
    assert_eq!(model.requests(), 2, "one sentence, one red team");

    // Run again: the same results, no call.
    let again: Value = serde_json::from_str(&ok(&run(&["--json"]))).unwrap();
    assert_eq!(again["results"], doc["results"]);
    assert_eq!(model.requests(), 2, "a rerun calls nothing");

    // The text report shows the sentence with its strategy; --llm-report narrates it.
    let md = dir.path().join("report.md");
    let text = ok(&run(&["--llm-report", "--output", md.to_str().unwrap()]));
    assert!(text.contains("« finish the wounded »") && text.contains("lowest_hp"), "{text}");
    let (facts, narrative) =
        text.split_once("=== Récit d'équilibrage (LLM) ===").expect("the narrative heading");
    assert!(facts.contains("job 2 (minmax)"), "the facts come first: {facts}");
    assert!(
        narrative.contains("Bilan d'équilibrage") && narrative.contains("Observabilité LLM"),
        "{narrative}"
    );
    assert!(narrative.contains("99,9 [?] %"), "a number absent from the facts is flagged: {narrative}");
    assert!(narrative.contains("Nombres absents des faits"), "{narrative}");
    let file = std::fs::read_to_string(&md).unwrap();
    assert!(file.contains("job 2 (minmax)") && file.contains("=== Récit d'équilibrage (LLM) ==="), "{file}");
    assert_eq!(model.requests(), 3, "one call for the narrative");
    ok(&run(&["--llm-report"]));
    assert_eq!(model.requests(), 3, "the narrative of the same facts comes from the cache");
    for f in [&db, &md] {
        no_key_in(f);
    }
    refused(&run(&["--llm-report", "--json"]), "--llm-report writes text");
}

fn sim_args<'a>(extra: &[&'a str]) -> Vec<&'a str> {
    let mut args = vec![
        "sim",
        "--map",
        "data/maps/sample_arena.yaml",
        "--side",
        "players",
        "data/monsters/goblin.json",
        "data/monsters/goblin.json",
        "--side",
        "monsters",
        "data/monsters/orc.json",
        "--round-cap",
        "30",
    ];
    args.extend(extra);
    args
}

#[test]
fn the_showcase_plays_a_side_through_the_model_and_its_log_replays_identically_without_it() {
    let model = Model::start();
    let dir = tempfile::tempdir().unwrap();
    let log = dir.path().join("show.jsonl");
    let log_arg = log.to_str().unwrap();
    let out = pf1e(
        &model,
        dir.path(),
        &sim_args(&["--runs", "3", "--seed", "4", "--llm-side", "players", "--llm-log", log_arg]),
    );
    let text = ok(&out);
    let calls = model.requests();
    assert!(calls > 0);
    let (report, block) =
        text.split_once("=== LLM showcase (per-turn play) ===").expect("the showcase block");
    assert!(block.contains("side played by the model: players"), "{block}");
    assert!(block.contains("observation view (schema_version 1)"), "{block}");
    let lines = std::fs::read_to_string(&log).unwrap();
    assert!(lines.lines().next().unwrap().contains("\"kind\":\"header\""));
    assert!(lines.lines().filter(|l| l.contains("\"kind\":\"call\"")).count() >= calls);
    no_key_in(&log);

    let replayed = ok(&pf1e(&model, dir.path(), &["replay", log_arg]));
    let (again, note) = replayed.split_once("replay: ").unwrap();
    assert_eq!(again.trim_end(), report.trim_end(), "the same battles, the same report");
    assert!(note.contains("identical to the log; no model was called"), "{note}");
    assert_eq!(model.requests(), calls, "replay calls nothing");

    // An edited observation: the replay is refused at that call.
    let edited = lines.replacen("hp=", "hp=1", 1);
    let bad = dir.path().join("bad.jsonl");
    std::fs::write(&bad, edited).unwrap();
    refused(&pf1e(&model, dir.path(), &["replay", bad.to_str().unwrap()]), "replay diverges at call_seq 1");

    // More than 20 runs: refused before any call.
    let out = pf1e(&model, dir.path(), &sim_args(&["--runs", "21", "--llm-side", "players"]));
    refused(&out, "at most 20 runs");
    let out = pf1e(&model, dir.path(), &sim_args(&["--runs", "2", "--llm-side", "heroes"]));
    refused(&out, "--llm-side \"heroes\": not a side");
    assert_eq!(model.requests(), calls);
}

#[test]
fn the_model_casts_a_spell_by_name_the_transcript_shows_it_and_the_log_replays_with_its_spells() {
    let model = Model::caster();
    let dir = tempfile::tempdir().unwrap();
    let log = dir.path().join("cast.jsonl");
    let log_arg = log.to_str().unwrap();
    let args = [
        "sim",
        "--map",
        "data/maps/sample_arena.yaml",
        "--side",
        "players",
        "data/pcs/oni.json",
        "--side",
        "monsters",
        "data/monsters/orc.json",
        "--round-cap",
        "10",
        "--runs",
        "1",
        "--seed",
        "3",
        "--llm-side",
        "players",
        "--llm-log",
        log_arg,
        "--transcript",
    ];
    let text = ok(&pf1e(&model, dir.path(), &args));
    let lines = std::fs::read_to_string(&log).unwrap();
    let call = lines
        .lines()
        .filter(|l| l.contains("\"kind\":\"call\""))
        .map(|l| serde_json::from_str::<Value>(l).unwrap())
        .find(|c| c["source"] == "model" && c["actions"][0]["kind"] == "cast_spell")
        .expect("a call answered with a spell");
    let observation = call["observation"].as_str().unwrap();
    assert!(observation.contains("\nmagic caster_level=4 "), "{observation}");
    assert!(observation.contains("\nspells level=1 left="), "{observation}");
    let spell = call["actions"][0]["spell"].as_str().expect("the spell by name");
    let library: Value = serde_json::from_str(
        &std::fs::read_to_string(repo().join(format!("data/spells/{spell}.json"))).unwrap(),
    )
    .unwrap();
    let name = library["name"].as_str().unwrap();
    let cast = format!("casts {name}");
    assert!(
        text.lines().any(|l| l.split_whitespace().nth(1) == Some("oni") && l.contains(&cast)),
        "no cast of {name} in the transcript:\n{text}"
    );
    // The log replays without the model.
    let calls = model.requests();
    let replayed = ok(&pf1e(&model, dir.path(), &["replay", log_arg]));
    assert!(replayed.contains("identical to the log; no model was called"), "{replayed}");
    assert_eq!(model.requests(), calls);
}

#[test]
fn sim_with_llm_report_prints_the_facts_then_the_flagged_narrative() {
    let model = Model::start();
    let dir = tempfile::tempdir().unwrap();
    let md = dir.path().join("sim.md");
    let out = pf1e(
        &model,
        dir.path(),
        &sim_args(&["--runs", "50", "--llm-report", "--output", md.to_str().unwrap()]),
    );
    let text = ok(&out);
    let (facts, narrative) = text.split_once("=== Récit d'équilibrage (LLM) ===").unwrap();
    assert!(!facts.trim().is_empty());
    assert!(narrative.contains("99,9 [?] %"), "{narrative}");
    assert!(!narrative.contains("Sections manquantes"), "{narrative}");
    let file = std::fs::read_to_string(&md).unwrap();
    assert!(file.starts_with(facts.trim_start().lines().next().unwrap()), "{file}");
    assert_eq!(model.requests(), 1);
    let out = pf1e(&model, dir.path(), &sim_args(&["--runs", "50", "--output", "x.md"]));
    assert_eq!(out.status.code(), Some(2), "--output needs --llm-report");
}

#[test]
fn a_spent_budget_refuses_the_sweep_before_the_call_that_would_cross_it() {
    let model = Model::start();
    let dir = tempfile::tempdir().unwrap();
    let sweep = write_sweep(dir.path());
    let db = dir.path().join("run.redb");
    let args = ["run", sweep.to_str().unwrap(), "--db", db.to_str().unwrap(), "-q", "--llm-max-calls", "1"];
    let out = pf1e(&model, dir.path(), &args);
    refused(&out, "LLM budget exhausted: max_calls = 1 reached");
    assert_eq!(model.requests(), 1, "the second call is never sent");
}

#[test]
fn without_a_base_url_or_a_key_no_model_is_called_and_the_commands_say_what_to_set() {
    let dir = tempfile::tempdir().unwrap();
    let bare = |args: &[&str]| {
        let mut c = Command::new(env!("CARGO_BIN_EXE_pf1e"));
        c.current_dir(dir.path())
            .args(args)
            .env_remove("PF1E_LLM_BASE_URL")
            .env_remove("PF1E_LLM_API_KEY")
            .env("PF1E_LLM_MODEL", "scripted")
            .env("PF1E_CACHE", dir.path().join("cache.redb"));
        c.output().expect("run pf1e")
    };
    refused(
        &bare(&["strategy", "compile", "focus their healer"]),
        "no LLM is configured: set PF1E_LLM_BASE_URL",
    );
    // Repairs are bounded (each resends the whole conversation).
    refused(&bare(&["strategy", "compile", "x", "--llm-max-repairs", "6"]), "--llm-max-repairs");
    let data = repo().join("data").canonicalize().unwrap();
    let (map, goblin, orc) = (
        data.join("maps/sample_arena.yaml"),
        data.join("monsters/goblin.json"),
        data.join("monsters/orc.json"),
    );
    let out = bare(&[
        "sim",
        "--map",
        map.to_str().unwrap(),
        "--side",
        "players",
        goblin.to_str().unwrap(),
        "--side",
        "monsters",
        orc.to_str().unwrap(),
        "--runs",
        "1",
        "--llm-side",
        "players",
    ]);
    refused(&out, "no LLM is configured");
    let left: Vec<_> = std::fs::read_dir(dir.path()).unwrap().flatten().map(|e| e.file_name()).collect();
    assert!(!left.iter().any(|n| n.to_string_lossy().ends_with(".jsonl")), "a log was left: {left:?}");
}

#[test]
fn the_showcase_log_goes_to_out_and_a_showcase_without_a_model_turn_fails() {
    // A model that never answers usefully: every turn falls back.
    let rt = tokio::runtime::Runtime::new().unwrap();
    let server = rt.block_on(MockLlmServer::start(vec![])).unwrap();
    server.respond_with(|_| pf1e_llm::testing::Reply::content("not json"));
    let model = Model { server, _rt: rt };
    let dir = tempfile::tempdir().unwrap();
    let out_dir = dir.path().join("logs");
    let out = pf1e(
        &model,
        dir.path(),
        &sim_args(&["--runs", "1", "--llm-side", "players", "--out", out_dir.to_str().unwrap()]),
    );
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(stderr.contains("the model played no turn"), "{stderr}");
    assert!(out_dir.join("llm-showcase.jsonl").is_file(), "the log is where --out says");
    assert!(!repo().join("llm-showcase.jsonl").exists(), "nothing in the current directory");
}
