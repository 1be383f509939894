//! A sweep with `nl:` strategies and an LLM red team through a coordinator
//! and two workers: the coordinator asks the model before planning, the
//! workers never do; killed and restarted, the coordinator resumes the
//! sweep from its journal and calls nothing; submitted again, the sweep is
//! served from the redb cache; the results equal the embedded run's.

use pf1e_e2e::{Fixture, ctl, json_of, pf1e, run, start_coordinator, start_worker, wait_for};
use pf1e_llm::testing::{MockLlmServer, scripted_model};

const KEY: &str = "sk-e2e-llm-secret";

fn sweep_text() -> String {
    "name: e2e-llm\nseed: 11\nruns: 40\nparty: players\nshard_size: 1\nscenario:\n  map: ../maps/sample_arena.yaml\n  round_cap: 30\n  sides:\n    players: { zone: A, combatants: [../monsters/goblin.json, ../monsters/goblin.json] }\n    monsters: { zone: B, combatants: [../monsters/orc.json] }\njobs:\n  - grid: { party: [{ nl: \"finish the wounded\" }, default], adversary: [{ nl: \"focus their healer\" }] }\n  - minmax: { party: [default], adversary: [default], llm_adversaries: 1, iterations: 1 }\n".into()
}

fn stat(doc: &serde_json::Value, name: &str) -> u64 {
    doc["stats"][name].as_u64().unwrap_or_else(|| panic!("no stats.{name} in {doc}"))
}

fn submit(url: &str, sweep: &std::path::Path, watch: bool) -> String {
    let mut args = vec!["submit", sweep.to_str().unwrap(), "-q"];
    if watch {
        args.push("--watch");
    }
    let out = ctl(url, &args);
    let stdout = String::from_utf8_lossy(&out.stdout).to_string();
    assert!(out.status.success(), "submit failed: {stdout}\n{}", String::from_utf8_lossy(&out.stderr));
    stdout.lines().last().expect("an id").trim().to_string()
}

#[test]
fn a_sweep_with_sentences_asks_the_model_once_through_a_coordinator_restart_and_a_resubmission() {
    let rt = tokio::runtime::Runtime::new().unwrap();
    let server = rt.block_on(MockLlmServer::start(vec![])).unwrap();
    server.respond_with(scripted_model);
    let fx = Fixture::new("llm", 40, 1);
    let sweep = fx.write_sweep("llm.yaml", &sweep_text());
    let url = server.base_url();
    let env =
        [("PF1E_LLM_BASE_URL", url.as_str()), ("PF1E_LLM_MODEL", "scripted"), ("PF1E_LLM_API_KEY", KEY)];

    // The embedded run is the reference (its cache in memory: it asks the model too).
    let mut cmd = pf1e();
    cmd.arg("run").arg(&sweep).args(["--json", "--no-cache", "-q"]).envs(env);
    let reference = json_of(&run(cmd))["results"].clone();
    assert_eq!(reference["llm"]["strategies"].as_array().unwrap().len(), 2, "{reference}");
    assert_eq!(reference["jobs"][0]["cells"][0]["party_strategy"], "lowest_hp");
    assert_eq!(reference["jobs"][0]["cells"][0]["adversary_strategy"], "healer");
    let embedded_calls = server.request_count();
    assert_eq!(embedded_calls, 3, "two sentences and one red team");

    let db = fx.path("c.redb");
    let lease = ["--lease-ttl-ms", "800"];
    let mut first = start_coordinator(&db, "127.0.0.1:0", &lease, &env);
    let curl = first.url.clone();
    let _slow = start_worker(&curl, &["--threads", "1", "--max-batch", "1"], &[]);
    let id = submit(&curl, &sweep, false);
    assert_eq!(server.request_count(), embedded_calls + 3, "the coordinator resolves the sweep once");
    let before = wait_for(&curl, &id, "three computed shards", |s| stat(s, "shards_computed") >= 3);
    first.proc.kill9();
    assert!(
        stat(&before, "shards_computed") < stat(&before, "shards_total"),
        "the sweep ended before the kill"
    );

    // Restarted on the same database and address: the sweep resumes from its journal.
    let second = start_coordinator(&db, &first.addr, &lease, &env);
    let _w1 = start_worker(&second.url, &["--threads", "1"], &[]);
    let _w2 = start_worker(&second.url, &["--threads", "1"], &[]);
    let after = wait_for(&second.url, &id, "the resumed sweep to finish", |s| s["status"] != "running");
    assert_eq!(after["status"], "done", "{after}");
    let calls = server.request_count();
    assert_eq!(calls, embedded_calls + 3, "resuming calls nothing");
    let results = json_of(&ctl(&second.url, &["results", &id, "--json"]));
    assert_eq!(results["results"], reference, "cluster and embedded results differ");

    // Submitted again after the restart: every answer from the redb file.
    let again = submit(&second.url, &sweep, true);
    assert_ne!(again, id);
    assert_eq!(server.request_count(), calls, "a resubmission calls nothing");
    let doc = json_of(&ctl(&second.url, &["results", &again, "--json"]));
    assert_eq!(doc["results"], reference);
    assert_eq!(stat(&doc, "shards_computed"), 0, "every shard from the cache");

    // The client narrates the results (the model is asked by ctl, not the coordinator).
    let calls = server.request_count();
    let mut cmd = pf1e();
    cmd.args(["ctl", "--coordinator", &second.url, "results", &again, "--llm-report"])
        .envs(env)
        .env("PF1E_CACHE", fx.path("client.redb"));
    let out = run(cmd);
    let text = String::from_utf8_lossy(&out.stdout).to_string();
    assert!(out.status.success(), "{text}\n{}", String::from_utf8_lossy(&out.stderr));
    let (facts, narrative) = text.split_once("=== Récit d'équilibrage (LLM) ===").expect("a narrative");
    assert!(facts.contains("« finish the wounded »"), "{facts}");
    assert!(narrative.contains("Bilan d'équilibrage"), "{narrative}");
    assert_eq!(server.request_count(), calls + 1);

    let auth = server.requests().iter().filter_map(|r| r.authorization.clone()).collect::<Vec<_>>();
    assert!(auth.iter().all(|a| *a == format!("Bearer {KEY}")) && !auth.is_empty());
    let bytes = std::fs::read(&db).unwrap();
    assert!(!bytes.windows(KEY.len()).any(|w| w == KEY.as_bytes()), "the API key is in the redb file");
}
