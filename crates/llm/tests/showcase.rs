//! The per-turn showcase through the scripted server: the model plays a
//! side, invalid answers are repaired then fall back to the default policy,
//! the cap, the budget, and the replay log (identity and divergence).

use std::path::Path;
use std::sync::Arc;

use pf1e_engine::combat::{PreparedEncounter, SimOptions};
use pf1e_engine::encounter::{Encounter, SideSpec};
use pf1e_engine::map::Map;
use pf1e_engine::model::load_combatant;
use pf1e_engine::runner::run_batch_prepared;
use pf1e_llm::testing::{MockLlmServer, Reply, minimal_pack_dir};
use pf1e_llm::{
    ActionSource, Budget, BudgetLimits, LlmClient, LlmConfig, MAX_SHOWCASE_RUNS, MemoryCache, PromptPack,
    ReplayError, ReplayLog, Showcase, ShowcaseError, TurnPlayer, replay,
};
use serde_json::{Value, json};

fn data(p: &str) -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../data").join(p)
}

/// Two goblins (players) against an orc (monsters) on the sample arena.
fn encounter() -> Encounter {
    let map = Arc::new(Map::load(&data("maps/sample_arena.yaml")).unwrap());
    let c = |p: &str| Arc::new(load_combatant(&data(p)).unwrap());
    let sides = vec![
        SideSpec {
            name: "players".into(),
            combatants: vec![c("monsters/goblin.json"), c("monsters/goblin.json")],
        },
        SideSpec { name: "monsters".into(), combatants: vec![c("monsters/orc.json")] },
    ];
    Encounter::build(map, sides).unwrap()
}

fn options() -> SimOptions {
    SimOptions { round_cap: 20, ..SimOptions::default() }
}

/// The first plausible action of the question, as the model's answer.
fn first_candidate(body: &Value) -> Reply {
    let question =
        body["messages"].as_array().unwrap().last().unwrap()["content"].as_str().unwrap().to_string();
    let line = question.lines().find(|l| l.starts_with("1. ")).unwrap();
    let action: Value = serde_json::from_str(&line[3..]).unwrap();
    Reply::json(&json!({"actions": [action]}))
}

struct Setup {
    rt: tokio::runtime::Runtime,
    server: MockLlmServer,
    client: LlmClient,
    player: TurnPlayer,
}

fn setup(budget: Budget) -> Setup {
    let rt = tokio::runtime::Runtime::new().unwrap();
    let server = rt.block_on(MockLlmServer::start(vec![])).unwrap();
    let mut config = LlmConfig::new(server.base_url(), "turn-model");
    config.api_key = Some(pf1e_llm::Secret::new("sk-showcase-secret"));
    let client = LlmClient::new(config, Arc::new(MemoryCache::new()), Arc::new(budget)).unwrap();
    let player = TurnPlayer::new(&PromptPack::load(minimal_pack_dir()).unwrap()).unwrap();
    Setup { rt, server, client, player }
}

impl Setup {
    fn showcase(&self) -> Showcase<'_, LlmClient> {
        Showcase {
            player: &self.player,
            model: &self.client,
            runtime: self.rt.handle().clone(),
            side: "players".into(),
        }
    }
}

#[test]
fn the_model_plays_its_side_and_the_log_replays_the_battles_bit_for_bit() {
    let s = setup(Budget::unlimited());
    s.server.respond_with(first_candidate);
    let enc = encounter();
    let prep = PreparedEncounter::new(&enc).unwrap();
    let played = s.showcase().play(&enc, &prep, &options(), 5, 3, true, json!({"name": "goblins"})).unwrap();
    let calls = &played.log.calls;
    assert!(!calls.is_empty());
    // One request per turn of the side, except turns seen before (same
    // observation, same question): those come from the cache.
    assert_eq!(calls.iter().filter(|c| !c.cached).count(), s.server.request_count());
    assert!(calls.iter().all(|c| c.source == ActionSource::Model && c.attempts == 1));
    assert!(calls.iter().all(|c| c.actor.starts_with("goblin")), "only the players' turns ask the model");
    assert!(calls.iter().enumerate().all(|(k, c)| c.call_seq == k as u64 + 1));
    assert_eq!(calls[0].actions, calls[0].candidates[..1]);
    assert!(calls[0].observation.starts_with("schema_version=1\n"));
    assert_eq!(played.turns(), (calls.len(), 0));
    assert_eq!(played.log.runs.len(), 3);
    // Every observation sent is under a quarter of the raw snapshot of its turn.
    assert_eq!(played.sizes.len(), calls.len());
    assert!(played.sizes.iter().all(|s| s.view * 4 < s.raw), "{:?}", played.sizes);
    let first_request = &s.server.requests()[0].body;
    assert_eq!(first_request["response_format"]["json_schema"]["name"], "turn_actions");

    // The log, written and read back, replays the same battles with no model.
    let text = played.log.to_jsonl();
    assert!(!text.contains("sk-showcase-secret"), "the key never reaches a replay log");
    let log = ReplayLog::parse(&text, "showcase.jsonl").unwrap();
    assert_eq!(log, played.log);
    let (outcomes, transcript) = replay(&log, &prep, &options(), true).unwrap();
    assert_eq!(outcomes, played.outcomes);
    assert_eq!(transcript, played.transcript);
    let requests = s.server.request_count();
    let (outcomes, _) = replay(&log, &prep, &options(), false).unwrap();
    assert_eq!(outcomes, played.outcomes);
    assert_eq!(s.server.request_count(), requests, "replaying calls nothing");
}

#[test]
fn a_log_that_does_not_match_the_battles_is_refused_at_the_first_difference() {
    let s = setup(Budget::unlimited());
    s.server.respond_with(first_candidate);
    let enc = encounter();
    let prep = PreparedEncounter::new(&enc).unwrap();
    let played = s.showcase().play(&enc, &prep, &options(), 5, 2, false, json!({})).unwrap();

    // An edited observation.
    let mut edited = played.log.clone();
    let last = edited.calls.len() - 1;
    edited.calls[last].observation = edited.calls[last].observation.replacen("hp=", "hp=9", 1);
    let seq = edited.calls[last].call_seq;
    match replay(&edited, &prep, &options(), false) {
        Err(ReplayError::Diverged { call_seq, .. }) => assert_eq!(call_seq, seq),
        other => panic!("expected a divergence at call {seq}, got {other:?}"),
    }
    // Another seed: the first call already differs (or the battle asks for other turns).
    let mut other_seed = played.log.clone();
    other_seed.header.seed = 6;
    let e = replay(&other_seed, &prep, &options(), false).unwrap_err();
    assert!(e.to_string().contains("replay diverges"), "{e}");
    // A log with a gap in call_seq does not even parse.
    let text = played.log.to_jsonl().replacen("\"call_seq\":2,", "\"call_seq\":7,", 1);
    let e = ReplayLog::parse(&text, "x.jsonl").unwrap_err().to_string();
    assert!(e.starts_with("x.jsonl: line 3: call_seq 7 where 2 was expected"), "{e}");
}

#[test]
fn an_invalid_answer_is_repaired_once_then_the_default_policy_plays_and_the_fallback_is_recorded() {
    let s = setup(Budget::unlimited());
    // The first turn: invalid, then repaired; every later turn: invalid twice.
    s.server.push([
        Reply::content("attack the orc!"),
        Reply::json(&json!({"actions": [{"kind": "total_defense"}]})),
    ]);
    s.server.respond_with(|_| Reply::json(&json!({"actions": [{"kind": "attack", "target": "dragon"}]})));
    let enc = encounter();
    let prep = PreparedEncounter::new(&enc).unwrap();
    let played = s.showcase().play(&enc, &prep, &options(), 8, 2, false, json!({})).unwrap();
    let calls = &played.log.calls;
    assert_eq!(calls[0].source, ActionSource::Model);
    assert_eq!(calls[0].attempts, 2);
    assert_eq!(calls[0].actions[0].kind, "total_defense");
    let later = &calls[1..];
    assert!(!later.is_empty());
    for c in later {
        assert_eq!((c.source, c.attempts), (ActionSource::Fallback, 2), "{c:?}");
        assert!(c.fallback_reason.as_deref().unwrap().contains("no combatant \"dragon\""), "{c:?}");
    }
    let stats = s.player.stats();
    assert_eq!(stats.fallbacks as usize, later.len());
    assert_eq!((stats.repairs_attempted as usize, stats.repairs_succeeded), (calls.len(), 1));
    // Repairs go back to the model with its answer and the problems.
    let repair = &s.server.requests()[1].body["messages"];
    let n = repair.as_array().unwrap().len();
    assert!(repair[n - 1]["content"].as_str().unwrap().contains("the answer is not valid JSON"), "{repair}");
    assert!(ReplayLog::parse(&played.log.to_jsonl(), "x").is_ok());
    assert!(replay(&played.log, &prep, &options(), false).is_ok(), "fallback turns replay too");
}

#[test]
fn a_model_that_never_answers_validly_plays_exactly_the_default_policy() {
    let s = setup(Budget::unlimited());
    s.server.respond_with(|_| Reply::content("{}"));
    let enc = encounter();
    let prep = PreparedEncounter::new(&enc).unwrap();
    let played = s.showcase().play(&enc, &prep, &options(), 2, 4, false, json!({})).unwrap();
    assert!(played.log.calls.iter().all(|c| c.source == ActionSource::Fallback));
    assert_eq!(played.outcomes, run_batch_prepared(&prep, &options(), 2, 0..4));
}

#[test]
fn more_than_twenty_runs_are_refused_before_any_call() {
    let s = setup(Budget::unlimited());
    let enc = encounter();
    let prep = PreparedEncounter::new(&enc).unwrap();
    let e =
        s.showcase().play(&enc, &prep, &options(), 1, MAX_SHOWCASE_RUNS + 1, false, json!({})).unwrap_err();
    assert!(matches!(e, ShowcaseError::TooManyRuns { runs: 21 }), "{e}");
    assert!(e.to_string().contains("at most 20 runs"), "{e}");
    let e = Showcase { side: "heroes".into(), ..s.showcase() }
        .play(&enc, &prep, &options(), 1, 1, false, json!({}))
        .unwrap_err();
    assert!(e.to_string().contains("--llm-side \"heroes\": not a side"), "{e}");
    assert_eq!(s.server.request_count(), 0);
}

#[test]
fn an_exhausted_budget_stops_the_showcase_with_a_clear_error() {
    let limits = BudgetLimits { max_calls: Some(2), ..BudgetLimits::default() };
    let s = setup(Budget::new(limits, pf1e_llm::Pricing::default()).unwrap());
    s.server.respond_with(first_candidate);
    let enc = encounter();
    let prep = PreparedEncounter::new(&enc).unwrap();
    let e = s.showcase().play(&enc, &prep, &options(), 5, 3, false, json!({})).unwrap_err();
    let text = e.to_string();
    assert!(matches!(e, ShowcaseError::Stopped { call_seq: 3, .. }), "{text}");
    assert!(text.contains("budget"), "{text}");
    assert_eq!(s.server.request_count(), 2, "the third call is refused before it is sent");
}
