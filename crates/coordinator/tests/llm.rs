//! A sweep that uses the LLM, through the scripted server and the redb
//! file: resolved before planning, cached, journaled; submitted again it
//! calls nothing, and a restarted coordinator resumes it without a model.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use pf1e_coordinator::jobs::Job;
use pf1e_coordinator::llm::LlmResolver;
use pf1e_coordinator::scheduler::{SchedError, Scheduler, SchedulerConfig};
use pf1e_coordinator::store::Store;
use pf1e_coordinator::sweep::bundle_from_disk;
use pf1e_llm::testing::{MockLlmServer, Reply, minimal_pack_dir, scripted_model};
use pf1e_llm::{Budget, LlmClient, LlmConfig, PromptPack};
use pf1e_wire::proto;

fn data() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../data").canonicalize().unwrap()
}

fn sweep_file(dir: &Path) -> PathBuf {
    let d = data();
    let text = format!(
        "name: nl\nseed: 3\nruns: 4\nparty: players\nscenario:\n  map: {map}\n  round_cap: 20\n  sides:\n    players: {{ combatants: [{g}, {g}] }}\n    monsters: {{ combatants: [{o}] }}\njobs:\n  - grid: {{ party: [{{ nl: \"focus their healer, fall back below 30 %\" }}, default], adversary: [{{ nl: \"finish the wounded\" }}] }}\n  - optimize: {{ candidates: [{{ nl: \"finish the wounded\" }}], llm_candidates: 3, refine_top: 1, race_rounds: 0 }}\n  - minmax: {{ party: [default], adversary: [default], llm_adversaries: 2, iterations: 1 }}\n",
        map = d.join("maps/sample_arena.yaml").display(),
        g = d.join("monsters/goblin.json").display(),
        o = d.join("monsters/orc.json").display(),
    );
    let path = dir.join("sweep.yaml");
    std::fs::write(&path, text).unwrap();
    path
}

fn resolver(server: &MockLlmServer, sched: &Scheduler) -> LlmResolver {
    let client = LlmClient::new(
        LlmConfig::new(server.base_url(), "scripted"),
        Arc::new(sched.llm_cache()),
        Arc::new(Budget::unlimited()),
    )
    .unwrap();
    LlmResolver::new(client, &PromptPack::load(minimal_pack_dir()).unwrap(), 1).unwrap()
}

async fn submit(server: &MockLlmServer, sched: &mut Scheduler, bundle: &proto::SweepBundle) -> u64 {
    let draft = sched.check(bundle).unwrap();
    let sweep = resolver(server, sched).resolve(&draft).await.unwrap();
    sched.submit_sweep(bundle.clone(), sweep).unwrap()
}

fn store(path: &Path) -> Scheduler {
    Scheduler::new(Store::open(path).unwrap(), SchedulerConfig::default())
}

#[tokio::test]
async fn a_sweep_is_resolved_once_then_served_from_the_redb_cache_and_the_journal() {
    let dir = tempfile::tempdir().unwrap();
    let bundle = bundle_from_disk(&sweep_file(dir.path())).unwrap();
    let server = MockLlmServer::start(vec![]).await.unwrap();
    server.respond_with(scripted_model);
    let db = dir.path().join("c.redb");

    let mut sched = store(&db);
    // Without its decisions, the sweep cannot be planned.
    assert!(matches!(sched.submit(bundle.clone()), Err(SchedError::NeedsLlm)));
    let draft = sched.check(&bundle).unwrap();
    let sweep = resolver(&server, &sched).resolve(&draft).await.unwrap();
    assert_eq!(server.request_count(), 5, "three sentences, two proposal requests");
    let d = sweep.llm.clone();
    let names: Vec<(&str, &str, &str)> =
        d.strategies.iter().map(|s| (s.side.as_str(), s.sentence.as_str(), s.strategy.as_str())).collect();
    assert_eq!(
        names,
        [
            ("party", "focus their healer, fall back below 30 %", "healer, retreat=0.3"),
            ("adversary", "finish the wounded", "lowest_hp"),
            ("party", "finish the wounded", "lowest_hp"),
        ]
    );
    let Job::Grid(g) = &sweep.jobs[0] else { panic!("a grid") };
    assert_eq!(g.party[0].as_str(), "healer, retreat=0.3");
    // Party proposals already in optimize's grid are dropped.
    assert_eq!(d.proposals[0].strategies, ["lowest_hp, retreat=0.25"]);
    assert_eq!(d.proposals[0].duplicates, ["weakest_ac, use_charges=false", "default"]);
    assert_eq!(d.proposals[1].strategies, ["weakest_ac", "healer, retreat=0.5"]);
    let Job::Minmax(m) = &sweep.jobs[2] else { panic!("a minmax") };
    assert_eq!(m.adversary.len(), 3);
    let id = sched.submit_sweep(bundle.clone(), sweep).unwrap();
    assert_eq!(sched.llm_cache().len().unwrap(), 5, "every completion is in the redb file");

    // The same sweep again: every answer from the cache.
    let again = submit(&server, &mut sched, &bundle).await;
    assert_ne!(again, id);
    assert_eq!(server.request_count(), 5, "a rerun calls nothing");
    drop(sched);

    // A restarted coordinator: unfinished sweeps resume from the journal
    // (no model needed at all), and a new submission is served from the file.
    let mut sched = store(&db);
    let resumed = sched.resume().unwrap();
    assert_eq!(resumed, vec![id, again]);
    let _third = submit(&server, &mut sched, &bundle).await;
    assert_eq!(server.request_count(), 5, "after a restart too");
    drop(sched);
    let journal = Store::open(&db).unwrap().sweeps().unwrap();
    assert!(journal.iter().all(|(_, _, state)| state.llm == d), "each sweep journals its decisions");
}

#[tokio::test]
async fn an_unreadable_answer_is_repaired_once_then_the_sweep_is_refused_with_the_sentence() {
    let dir = tempfile::tempdir().unwrap();
    let bundle = bundle_from_disk(&sweep_file(dir.path())).unwrap();
    let server = MockLlmServer::start(vec![
        Reply::content("healer please"),
        Reply::content("{\"target\": \"wizard\"}"),
    ])
    .await
    .unwrap();
    let mut sched = store(&dir.path().join("c.redb"));
    let draft = sched.check(&bundle).unwrap();
    let e = resolver(&server, &sched).resolve(&draft).await.unwrap_err();
    let text = e.to_string();
    assert!(e.is_input(), "{text}");
    assert!(text.contains("sweep.yaml: strategy \"focus their healer, fall back below 30 %\""), "{text}");
    assert!(text.contains("after 2 attempt(s)") && text.contains("target: expected one of"), "{text}");
    assert_eq!(server.request_count(), 2);
    assert!(matches!(sched.submit(bundle), Err(SchedError::NeedsLlm)), "nothing is planned");
    assert!(matches!(sched.info(1, false), Err(SchedError::UnknownSweep(1))), "nothing is journaled");
}
