//! The LLM tasks through the scripted server: strategy compilation with
//! repair, proposals with deduplication, the report narrative, and the
//! shipped packs.

use std::sync::Arc;

use pf1e_engine::strategy::StrategySpec;
use pf1e_llm::testing::{MockLlmServer, Reply, french_pack_dir, minimal_pack_dir};
use pf1e_llm::{
    Budget, CombatantBrief, CompileError, EncounterBrief, LlmClient, LlmConfig, MemoryCache, PACK_PROMPTS,
    PromptPack, ProposeError, ReportWriter, Side, SideBrief, SpecProposer, StrategyCompiler,
};
use serde_json::{Value, json};

fn client(server: &MockLlmServer, cache: Arc<MemoryCache>) -> LlmClient {
    LlmClient::new(LlmConfig::new(server.base_url(), "test-model"), cache, Arc::new(Budget::unlimited()))
        .unwrap()
}

fn minimal_pack() -> PromptPack {
    PromptPack::load(minimal_pack_dir()).unwrap()
}

fn messages(body: &Value) -> Vec<(String, String)> {
    body["messages"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| (m["role"].as_str().unwrap().to_string(), m["content"].as_str().unwrap().to_string()))
        .collect()
}

#[tokio::test]
async fn a_sentence_compiles_to_the_canonical_engine_spec() {
    let server =
        MockLlmServer::start(vec![Reply::json(&json!({"retreat": 0.3, "target": "healer"}))]).await.unwrap();
    let llm = client(&server, Arc::new(MemoryCache::new()));
    let compiler = StrategyCompiler::new(&minimal_pack()).unwrap();
    let c = compiler.compile(&llm, Side::Party, "focus their healer, fall back below 30 %").await.unwrap();
    assert_eq!(c.name, "healer, retreat=0.3");
    assert_eq!(c.spec, StrategySpec::parse("healer, retreat=0.3").unwrap());
    assert_eq!((c.attempts, c.cached, c.model.as_str()), (1, false, "test-model"));
    assert!(c.prompt_version.starts_with("0.1.0-test:strategy_compile:"), "{}", c.prompt_version);
    let body = &server.requests()[0].body;
    let m = messages(body);
    assert_eq!(m.len(), 4, "system, one few-shot pair, question");
    assert_eq!(m[0].0, "system");
    assert!(m[0].1.starts_with("Translate the request"), "{}", m[0].1);
    assert!(
        m[0].1.contains("## levers\n- target: one of nearest | weakest_ac | lowest_hp | healer"),
        "{}",
        m[0].1
    );
    assert!(m[0].1.contains("## answer schema\n{"), "{}", m[0].1);
    assert_eq!(m[1], ("user".into(), "side: party\nrequest: hit the weakest armor first".into()));
    assert_eq!(m[2], ("assistant".into(), "{\"target\":\"weakest_ac\"}".into()));
    assert_eq!(
        m[3],
        ("user".into(), "side: party\nrequest: focus their healer, fall back below 30 %".into())
    );
    assert_eq!(body["response_format"]["json_schema"]["name"], "strategy_spec");
    assert_eq!(body["response_format"]["json_schema"]["schema"]["additionalProperties"], false);
    let s = compiler.stats();
    assert_eq!((s.calls, s.repairs_attempted, s.repairs_succeeded, s.fallbacks), (1, 0, 0, 0));
}

#[tokio::test]
async fn compiling_a_known_sentence_again_makes_no_request() {
    let server = MockLlmServer::start(vec![Reply::json(&json!({"target": "lowest_hp"}))]).await.unwrap();
    let cache = Arc::new(MemoryCache::new());
    let first = StrategyCompiler::new(&minimal_pack()).unwrap();
    first.compile(&client(&server, cache.clone()), Side::Adversary, "finish the wounded").await.unwrap();
    // A new compiler and a new client on the same cache: a rerun.
    let again = StrategyCompiler::new(&minimal_pack()).unwrap();
    let c = again.compile(&client(&server, cache), Side::Adversary, "finish the wounded").await.unwrap();
    assert_eq!(c.name, "lowest_hp");
    assert!(c.cached);
    assert_eq!(server.request_count(), 1);
    // The side is part of the question, so of the key.
    assert!(again.request(Side::Party, "x") != again.request(Side::Adversary, "x"));
}

#[tokio::test]
async fn an_invalid_answer_gets_its_problems_back_and_one_repair() {
    let server = MockLlmServer::start(vec![
        Reply::content("target: healer"),
        Reply::json(&json!({"target": "healer"})),
    ])
    .await
    .unwrap();
    let cache = Arc::new(MemoryCache::new());
    let compiler = StrategyCompiler::new(&minimal_pack()).unwrap();
    let c = compiler.compile(&client(&server, cache.clone()), Side::Party, "kill the priest").await.unwrap();
    assert_eq!((c.name.as_str(), c.attempts), ("healer", 2));
    let m = messages(&server.requests()[1].body);
    assert_eq!(m.len(), 6);
    assert_eq!(m[4], ("assistant".into(), "target: healer".into()));
    assert!(m[5].1.starts_with("Your previous answer was rejected"), "{}", m[5].1);
    assert!(m[5].1.contains("\n\n- the answer is not valid JSON"), "{}", m[5].1);
    let s = compiler.stats();
    assert_eq!((s.calls, s.repairs_attempted, s.repairs_succeeded), (2, 1, 1));
    // A rerun replays the first answer and the repair from the cache.
    let rerun = StrategyCompiler::new(&minimal_pack()).unwrap();
    let c = rerun.compile(&client(&server, cache), Side::Party, "kill the priest").await.unwrap();
    assert_eq!((c.name.as_str(), c.attempts, c.cached), ("healer", 2, true));
    assert_eq!(server.request_count(), 2);
}

#[tokio::test]
async fn an_answer_still_invalid_after_the_repair_is_a_clear_failure() {
    let script = vec![
        Reply::json(&json!({"target": "wizard"})),
        Reply::json(&json!({"target": "healer", "retreat": 30})),
        Reply::json(&json!({"target": "healer"})),
    ];
    let server = MockLlmServer::start(script).await.unwrap();
    let compiler = StrategyCompiler::new(&minimal_pack()).unwrap();
    let e = compiler
        .compile(&client(&server, Arc::new(MemoryCache::new())), Side::Party, "kill the caster")
        .await
        .unwrap_err();
    assert!(matches!(e, CompileError::Invalid { attempts: 2, .. }), "{e:?}");
    let text = e.to_string();
    assert!(
        text.starts_with(
            "strategy \"kill the caster\": the model's answer is not a valid strategy after 2 attempt(s)"
        ),
        "{text}"
    );
    assert!(text.contains("retreat: expected a number from 0 to 1"), "{text}");
    assert_eq!(server.request_count(), 2, "one repair, no more");
    let s = compiler.stats();
    assert_eq!((s.calls, s.repairs_attempted, s.repairs_succeeded), (2, 1, 0));
}

/// However many repairs a caller asks for, at most `MAX_REPAIRS` are made,
/// and each resends at most 4,000 characters of the invalid answer.
#[tokio::test]
async fn repairs_are_capped_and_echo_a_bounded_answer() {
    let huge = format!("not json {}", "x".repeat(100_000));
    let server = MockLlmServer::start(vec![Reply::content(huge.clone()); 20]).await.unwrap();
    let compiler = StrategyCompiler::new(&minimal_pack()).unwrap().with_max_repairs(1_000);
    let e = compiler
        .compile(&client(&server, Arc::new(MemoryCache::new())), Side::Party, "kill the caster")
        .await
        .unwrap_err();
    let attempts = 1 + pf1e_llm::MAX_REPAIRS;
    assert!(matches!(e, CompileError::Invalid { attempts: a, .. } if a == attempts), "{e:?}");
    assert_eq!(server.request_count(), attempts as usize, "no repair past the cap");
    let last = messages(&server.requests()[attempts as usize - 1].body);
    for (role, text) in last.iter().filter(|(role, _)| role == "assistant").skip(1) {
        assert!(text.chars().count() <= 4_000 + 10, "{role}: {} characters echoed", text.chars().count());
        assert!(text.ends_with("[…cut]"), "{}", &text[text.len() - 20..]);
    }
    assert!(e.to_string().chars().count() < 5_000, "the error keeps a bounded answer");
}

#[tokio::test]
async fn without_repairs_the_first_invalid_answer_fails() {
    let server = MockLlmServer::start(vec![Reply::json(&json!({"focus": "x"}))]).await.unwrap();
    let compiler = StrategyCompiler::new(&minimal_pack()).unwrap().with_max_repairs(0);
    let e =
        compiler.compile(&client(&server, Arc::new(MemoryCache::new())), Side::Party, "x").await.unwrap_err();
    assert!(e.to_string().contains("focus: unknown lever"), "{e}");
    assert_eq!(server.request_count(), 1);
}

#[tokio::test]
async fn client_failures_and_empty_sentences_are_compile_errors() {
    let server = MockLlmServer::start(vec![Reply::status(404, "no such model")]).await.unwrap();
    let compiler = StrategyCompiler::new(&minimal_pack()).unwrap();
    let llm = client(&server, Arc::new(MemoryCache::new()));
    assert!(matches!(compiler.compile(&llm, Side::Party, "  ").await, Err(CompileError::Empty)));
    assert_eq!(server.request_count(), 0);
    let e = compiler.compile(&llm, Side::Party, "hold").await.unwrap_err();
    assert!(matches!(e, CompileError::Llm { .. }), "{e:?}");
    assert!(e.to_string().contains("HTTP 404: no such model"), "{e}");
}

fn encounter() -> EncounterBrief {
    let orc = CombatantBrief {
        name: "orc".into(),
        level: 1,
        cr: Some("1/3".into()),
        hp_max: 6,
        ac: (13, 10, 13),
        bab: 1,
        speed_ft: 30,
        attacks: vec!["falchion +5 (2d4+4)".into()],
        spells: 0,
    };
    EncounterBrief {
        map: "arena".into(),
        round_cap: 20,
        party: "players".into(),
        sides: vec![
            SideBrief {
                name: "players".into(),
                combatants: vec![CombatantBrief { name: "goblin".into(), ..orc.clone() }],
            },
            SideBrief { name: "monsters".into(), combatants: vec![orc] },
        ],
    }
}

#[tokio::test]
async fn proposals_are_checked_and_deduplicated_by_canonical_name() {
    let answer = json!({"specs": [
        {"target": "lowest_hp"},
        {"target": "healer"},
        {"target": "healer", "retreat": 0},
        {"retreat": 0.25},
    ]});
    let server = MockLlmServer::start(vec![Reply::json(&answer)]).await.unwrap();
    let proposer = SpecProposer::candidates(&minimal_pack()).unwrap();
    let known = [StrategySpec::default_spec(), StrategySpec::parse("lowest_hp").unwrap()];
    let p = proposer
        .propose(&client(&server, Arc::new(MemoryCache::new())), 4, &encounter(), &known)
        .await
        .unwrap();
    let names: Vec<String> = p.specs.iter().map(StrategySpec::name).collect();
    assert_eq!(names, ["healer", "retreat=0.25"]);
    assert_eq!(p.duplicates, ["lowest_hp", "healer"]);
    assert!(p.prompt_version.starts_with("0.1.0-test:candidates:"));
    let body = &server.requests()[0].body;
    let question = messages(body).last().unwrap().1.clone();
    assert!(
        question.starts_with(
            "side: party\ncount: 4\nknown strategies: default; lowest_hp\nencounter:\nmap: arena"
        ),
        "{question}"
    );
    assert!(question.contains("- orc: level 1, CR 1/3"), "{question}");
    assert_eq!(body["response_format"]["json_schema"]["schema"]["properties"]["specs"]["maxItems"], 4);
}

#[tokio::test]
async fn the_red_team_proposes_adversary_specs_and_too_many_specs_get_repaired() {
    let script = vec![
        Reply::json(&json!({"specs": [{"target": "healer"}, {"target": "weakest_ac"}, {"retreat": 0.5}]})),
        Reply::json(&json!({"specs": [{"target": "healer"}, {"target": "weakest_ac"}]})),
    ];
    let server = MockLlmServer::start(script).await.unwrap();
    let red = SpecProposer::red_team(&minimal_pack()).unwrap();
    let p = red.propose(&client(&server, Arc::new(MemoryCache::new())), 2, &encounter(), &[]).await.unwrap();
    assert_eq!(p.specs.len(), 2);
    assert_eq!(p.attempts, 2);
    let first = &server.requests()[0].body;
    assert!(messages(first)[0].1.starts_with("Propose strong adversary strategies"));
    assert!(
        messages(first).last().unwrap().1.starts_with("side: adversary\ncount: 2\nknown strategies: none")
    );
    let repair = messages(&server.requests()[1].body);
    assert!(
        repair.last().unwrap().1.contains("- specs: expected 1 to 2 strategies, got 3"),
        "{:?}",
        repair.last()
    );
    assert_eq!(red.stats().repairs_succeeded, 1);
}

#[tokio::test]
async fn a_proposal_count_out_of_range_is_refused_before_any_request() {
    let server = MockLlmServer::start(vec![]).await.unwrap();
    let proposer = SpecProposer::candidates(&minimal_pack()).unwrap();
    let llm = client(&server, Arc::new(MemoryCache::new()));
    for count in [0, 21] {
        let e = proposer.propose(&llm, count, &encounter(), &[]).await.unwrap_err();
        assert!(matches!(e, ProposeError::Count { .. }), "{e:?}");
        assert!(e.to_string().contains("ask for 1 to 20"), "{e}");
    }
    assert_eq!(server.request_count(), 0);
}

#[tokio::test]
async fn the_narrative_flags_numbers_absent_from_the_facts() {
    let facts = "Victoires players : 76.0% (152)\nRounds moyens : 3.7";
    let narrative = "Bilan\nLes joueurs gagnent 76,0 % des combats en 3.7 rounds.\nDanger\nUn combat sur 4 tourne mal.\nRobustesse\nNon mesurée.";
    let server = MockLlmServer::start(vec![Reply::content(format!("  {narrative}\n"))]).await.unwrap();
    let writer = ReportWriter::new(&minimal_pack()).unwrap();
    let n = writer.write(&client(&server, Arc::new(MemoryCache::new())), facts).await.unwrap();
    assert_eq!(n.text, narrative);
    assert_eq!(n.unsupported.iter().map(|x| x.text.as_str()).collect::<Vec<_>>(), ["4"]);
    assert_eq!(n.missing_sections, ["Observabilité"]);
    let body = &server.requests()[0].body;
    assert!(body.get("response_format").is_none(), "free text");
    assert_eq!(messages(body).last().unwrap().1, format!("=== faits ===\n{facts}"));
}

#[test]
fn the_french_pack_is_complete_and_its_examples_fit_their_tasks() {
    let pack = PromptPack::load(french_pack_dir()).unwrap();
    assert_eq!(pack.version(), "fr-1.0.0");
    pack.require(&PACK_PROMPTS).unwrap();
    StrategyCompiler::new(&pack).unwrap();
    SpecProposer::candidates(&pack).unwrap();
    SpecProposer::red_team(&pack).unwrap();
    ReportWriter::new(&pack).unwrap();
    let report = pack.prompt("report").unwrap().text();
    for section in ["Bilan", "Danger", "Robustesse", "Observabilité"] {
        assert!(report.contains(section), "{section}");
    }
    assert!(report.contains("N'inventez AUCUN chiffre"));
    let minimal = minimal_pack();
    minimal.require(&PACK_PROMPTS).unwrap();
}

#[test]
fn an_example_that_does_not_fit_the_levers_is_refused_at_start() {
    let dir = tempfile::tempdir().unwrap();
    for entry in std::fs::read_dir(minimal_pack_dir()).unwrap() {
        let path = entry.unwrap().path();
        std::fs::copy(&path, dir.path().join(path.file_name().unwrap())).unwrap();
    }
    std::fs::write(
        dir.path().join("strategy_compile.examples.json"),
        r#"[{"input": {"side": "party", "request": "x"}, "output": {"target": "wizard"}}]"#,
    )
    .unwrap();
    let pack = PromptPack::load(dir.path()).unwrap();
    let e = StrategyCompiler::new(&pack).unwrap_err().to_string();
    assert!(e.contains("strategy_compile.examples.json: [0]: output.target: expected one of"), "{e}");
    std::fs::write(
        dir.path().join("report.examples.json"),
        r#"[{"input": "7 rounds", "output": "Bilan Danger Robustesse Observabilité : 8 rounds"}]"#,
    )
    .unwrap();
    let pack = PromptPack::load(dir.path()).unwrap();
    let e = ReportWriter::new(&pack).unwrap_err().to_string();
    assert!(e.contains("report.examples.json: [0]: output: numbers not in the facts: 8"), "{e}");
}

#[tokio::test]
async fn the_client_and_the_task_futures_can_move_between_threads() {
    fn send_sync<T: Send + Sync>(_: &T) {}
    fn send<T: Send>(_: &T) {}
    let server = MockLlmServer::start(vec![Reply::json(&json!({}))]).await.unwrap();
    let llm = client(&server, Arc::new(MemoryCache::new()));
    send_sync(&llm);
    let compiler = StrategyCompiler::new(&minimal_pack()).unwrap();
    send_sync(&compiler);
    let future = compiler.compile(&llm, Side::Party, "hold the line");
    send(&future);
    assert_eq!(future.await.unwrap().name, "default");
    let proposer = SpecProposer::candidates(&minimal_pack()).unwrap();
    let brief = encounter();
    send(&proposer.propose(&llm, 1, &brief, &[]));
    let writer = ReportWriter::new(&minimal_pack()).unwrap();
    send(&writer.write(&llm, "facts"));
}
