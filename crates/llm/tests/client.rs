//! The HTTP client against the scripted server on 127.0.0.1: wire format,
//! cache, retries and backoff, rejections, bad responses, timeouts, circuit
//! breaker, budget.

use std::sync::{Arc, Mutex};
use std::time::Duration;

use pf1e_llm::breaker::{BreakerState, ManualClock};
use pf1e_llm::budget::{Budget, BudgetLimits, BudgetResource, Pricing};
use pf1e_llm::cache::MemoryCache;
use pf1e_llm::client::{ChatRequest, LlmClient};
use pf1e_llm::config::{BreakerPolicy, LlmConfig, RetryPolicy, SchemaMode};
use pf1e_llm::error::{LlmError, TransientError};
use pf1e_llm::secret::Secret;
use pf1e_llm::testing::{MockLlmServer, Reply, recording_sleeper};
use pf1e_llm::wire::{Message, ResponseFormat};
use serde_json::json;

struct Rig {
    server: MockLlmServer,
    client: LlmClient,
    cache: Arc<MemoryCache>,
    delays: Arc<Mutex<Vec<Duration>>>,
    clock: Arc<ManualClock>,
}

fn config(base_url: String) -> LlmConfig {
    let mut c = LlmConfig::new(base_url, "test-model");
    c.api_key = Some(Secret::new("sk-test-key"));
    c.retry = RetryPolicy { jitter: false, ..RetryPolicy::default() };
    c
}

async fn rig_with(script: Vec<Reply>, edit: impl FnOnce(&mut LlmConfig), budget: Budget) -> Rig {
    let server = MockLlmServer::start(script).await.unwrap();
    let mut c = config(server.base_url());
    edit(&mut c);
    let cache = Arc::new(MemoryCache::new());
    let (sleeper, delays) = recording_sleeper();
    let clock = Arc::new(ManualClock::default());
    let client = LlmClient::new(c, cache.clone(), Arc::new(budget))
        .unwrap()
        .with_sleeper(sleeper)
        .with_clock(clock.clone());
    Rig { server, client, cache, delays, clock }
}

async fn rig(script: Vec<Reply>) -> Rig {
    rig_with(script, |_| {}, Budget::unlimited()).await
}

fn request(question: &str) -> ChatRequest {
    ChatRequest {
        messages: vec![Message::system("Answer in JSON."), Message::user(question)],
        prompt_version: "1:test:000000000000".into(),
        schema_version: 1,
        format: ResponseFormat::JsonObject,
    }
}

fn delays(r: &Rig) -> Vec<Duration> {
    r.delays.lock().unwrap().clone()
}

#[tokio::test]
async fn a_completion_is_asked_in_the_chat_completions_format_with_a_bearer_key() {
    let r = rig(vec![Reply::content("{\"ok\":true}")]).await;
    let mut req = request("hello");
    req.format = ResponseFormat::JsonSchema { name: "answer".into(), schema: json!({"type": "object"}) };
    let c = r.client.complete(&req).await.unwrap();
    assert_eq!(c.text, "{\"ok\":true}");
    assert!(!c.cached && !c.usage_estimated);
    assert_eq!(c.finish_reason.as_deref(), Some("stop"));
    let sent = r.server.requests();
    assert_eq!(sent.len(), 1);
    assert_eq!(sent[0].path, "/v1/chat/completions");
    assert_eq!(sent[0].authorization.as_deref(), Some("Bearer sk-test-key"));
    let body = &sent[0].body;
    assert_eq!(body["model"], "test-model");
    assert_eq!(body["messages"][1], json!({"role": "user", "content": "hello"}));
    assert_eq!(body["max_tokens"], 1024);
    assert_eq!(body["temperature"], 0.0);
    assert_eq!(body["top_p"], 1.0);
    assert_eq!(body["response_format"]["type"], "json_schema");
    assert_eq!(body["response_format"]["json_schema"]["name"], "answer");
    assert_eq!(r.client.budget().spent().calls, 1);
    assert_eq!(r.client.budget().spent().completion_tokens, c.usage.completion_tokens);
}

#[tokio::test]
async fn json_object_mode_downgrades_schemas_for_servers_without_structured_outputs() {
    let r =
        rig_with(vec![Reply::content("{}")], |c| c.schema_mode = SchemaMode::JsonObject, Budget::unlimited())
            .await;
    let mut req = request("hello");
    req.format = ResponseFormat::JsonSchema { name: "answer".into(), schema: json!({"type": "object"}) };
    r.client.complete(&req).await.unwrap();
    assert_eq!(r.server.requests()[0].body["response_format"], json!({"type": "json_object"}));
}

#[tokio::test]
async fn a_repeated_request_is_served_from_the_cache_with_no_http_call_and_no_spending() {
    let r = rig(vec![Reply::content("first")]).await;
    let first = r.client.complete(&request("q")).await.unwrap();
    let again = r.client.complete(&request("q")).await.unwrap();
    assert_eq!(again.text, "first");
    assert!(again.cached);
    assert_eq!(again.usage, first.usage);
    assert_eq!(r.server.request_count(), 1);
    assert_eq!(r.client.budget().spent().calls, 1);
    let s = r.client.stats();
    assert_eq!((s.requests, s.cache_hits, s.cache_misses, s.http_attempts), (2, 1, 1, 1));
    assert_eq!(r.cache.len(), 1);
}

#[tokio::test]
async fn a_new_client_on_the_same_cache_makes_no_call_for_a_known_request() {
    let r = rig(vec![Reply::content("kept")]).await;
    r.client.complete(&request("q")).await.unwrap();
    let other =
        LlmClient::new(config(r.server.base_url()), r.cache.clone(), Arc::new(Budget::unlimited())).unwrap();
    assert_eq!(other.complete(&request("q")).await.unwrap().text, "kept");
    assert_eq!(r.server.request_count(), 1);
}

#[tokio::test]
async fn the_prompt_version_the_sampling_and_the_model_are_part_of_the_key() {
    let r =
        rig(vec![Reply::content("a"), Reply::content("b"), Reply::content("c"), Reply::content("d")]).await;
    let base = request("q");
    r.client.complete(&base).await.unwrap();
    let mut v2 = base.clone();
    v2.prompt_version = "2:test:000000000000".into();
    assert_eq!(r.client.complete(&v2).await.unwrap().text, "b");
    let mut hotter = config(r.server.base_url());
    hotter.sampling.temperature = 0.5;
    let hot = LlmClient::new(hotter, r.cache.clone(), Arc::new(Budget::unlimited())).unwrap();
    assert_eq!(hot.complete(&base).await.unwrap().text, "c");
    let mut other_model = config(r.server.base_url());
    other_model.model = "other".into();
    let other = LlmClient::new(other_model, r.cache.clone(), Arc::new(Budget::unlimited())).unwrap();
    assert_eq!(other.complete(&base).await.unwrap().text, "d");
    assert_eq!(r.server.request_count(), 4);
    let mut keyless = config(r.server.base_url());
    keyless.api_key = Some(Secret::new("another-key"));
    let keyless = LlmClient::new(keyless, r.cache.clone(), Arc::new(Budget::unlimited())).unwrap();
    assert_eq!(keyless.cache_key(&base), r.client.cache_key(&base), "the API key is not part of the key");
}

#[tokio::test]
async fn rate_limits_and_server_errors_are_retried_with_exponential_backoff_honouring_retry_after() {
    let r = rig(vec![Reply::server_error(), Reply::rate_limited(2), Reply::content("done")]).await;
    let c = r.client.complete(&request("q")).await.unwrap();
    assert_eq!(c.text, "done");
    assert_eq!(r.server.request_count(), 3);
    // 250 ms, then 500 ms raised to the server's 2 s.
    assert_eq!(delays(&r), vec![Duration::from_millis(250), Duration::from_secs(2)]);
    let s = r.client.stats();
    assert_eq!((s.http_attempts, s.retries), (3, 2));
    assert_eq!(r.client.budget().spent().calls, 3, "every attempt counts as a call");
}

#[tokio::test]
async fn jitter_adds_less_than_the_delay_itself() {
    let script = vec![Reply::server_error(), Reply::server_error(), Reply::content("ok")];
    let r = rig_with(script, |c| c.retry.jitter = true, Budget::unlimited()).await;
    r.client.complete(&request("q")).await.unwrap();
    let d = delays(&r);
    assert_eq!(d.len(), 2);
    assert!(d[0] >= Duration::from_millis(250) && d[0] < Duration::from_millis(500), "{d:?}");
    assert!(d[1] >= Duration::from_millis(500) && d[1] < Duration::from_millis(1000), "{d:?}");
}

#[tokio::test]
async fn transient_failures_that_persist_are_reported_with_the_attempt_count() {
    let r = rig(vec![Reply::server_error(), Reply::server_error(), Reply::status(503, "overloaded")]).await;
    let e = r.client.complete(&request("q")).await.unwrap_err();
    match &e {
        LlmError::Transient { attempts, last: TransientError::Server { status, .. }, .. } => {
            assert_eq!((*attempts, *status), (3, 503));
        }
        other => panic!("{other:?}"),
    }
    let text = e.to_string();
    assert!(text.contains("after 3 attempt(s)") && text.contains("overloaded"), "{text}");
    assert!(text.contains("/v1/chat/completions"), "{text}");
    assert_eq!(r.server.request_count(), 3);
    assert_eq!(r.cache.len(), 0, "a failure is not cached");
}

#[tokio::test]
async fn a_retry_after_longer_than_allowed_ends_the_retries_at_once() {
    let r = rig(vec![Reply::rate_limited(3600), Reply::content("never")]).await;
    let e = r.client.complete(&request("q")).await.unwrap_err();
    assert!(matches!(e, LlmError::Transient { attempts: 1, .. }), "{e:?}");
    assert!(e.to_string().contains("Retry-After 3600 s"), "{e}");
    assert_eq!(r.server.request_count(), 1);
    assert!(delays(&r).is_empty());
}

#[tokio::test]
async fn other_client_errors_are_rejections_and_never_retried() {
    let r = rig(vec![Reply::status(400, "model `x` does not exist"), Reply::content("never")]).await;
    let e = r.client.complete(&request("q")).await.unwrap_err();
    assert!(matches!(e, LlmError::Rejected { status: 400, .. }), "{e:?}");
    assert!(e.to_string().contains("model `x` does not exist"), "{e}");
    assert_eq!(r.server.request_count(), 1);
    assert_eq!(r.client.breaker_state(), BreakerState::Closed { failures: 0 });
}

#[tokio::test]
async fn an_unauthorized_call_without_a_key_says_which_variable_to_set() {
    let r =
        rig_with(vec![Reply::status(401, "missing key")], |c| c.api_key = None, Budget::unlimited()).await;
    let e = r.client.complete(&request("q")).await.unwrap_err();
    assert!(e.to_string().contains("set PF1E_LLM_API_KEY"), "{e}");
    assert_eq!(r.server.requests()[0].authorization, None);
}

#[tokio::test]
async fn a_malformed_success_is_a_bad_response_and_not_retried() {
    let r = rig(vec![Reply::malformed(), Reply::content("never")]).await;
    let e = r.client.complete(&request("q")).await.unwrap_err();
    assert!(matches!(e, LlmError::BadResponse { .. }), "{e:?}");
    assert!(e.to_string().contains("unusable"), "{e}");
    assert_eq!(r.server.request_count(), 1);
    let r = rig(vec![Reply::Raw { status: 200, body: r#"{"choices":[{"message":{"content":7}}]}"#.into() }])
        .await;
    let e = r.client.complete(&request("q")).await.unwrap_err();
    assert!(e.to_string().contains("choices[0].message.content"), "{e}");
}

#[tokio::test]
async fn a_missing_usage_block_is_estimated() {
    let r = rig(vec![Reply::ContentWithoutUsage("12345678".into())]).await;
    let c = r.client.complete(&request("q")).await.unwrap();
    assert!(c.usage_estimated);
    assert_eq!(c.usage.completion_tokens, 2);
    assert!(c.usage.prompt_tokens > 0);
}

#[tokio::test]
async fn a_slow_answer_times_out_and_is_retried() {
    let script = vec![Reply::slow(Duration::from_secs(5), Reply::content("late")), Reply::content("on time")];
    let r = rig_with(script, |c| c.timeout = Duration::from_millis(200), Budget::unlimited()).await;
    let c = r.client.complete(&request("q")).await.unwrap();
    assert_eq!(c.text, "on time");
    assert_eq!(r.server.request_count(), 2);
    let script = vec![Reply::slow(Duration::from_secs(5), Reply::content("late"))];
    let r = rig_with(
        script,
        |c| {
            c.timeout = Duration::from_millis(100);
            c.retry.retries = 0;
        },
        Budget::unlimited(),
    )
    .await;
    let e = r.client.complete(&request("q")).await.unwrap_err();
    assert!(matches!(e, LlmError::Transient { last: TransientError::Timeout { .. }, .. }), "{e:?}");
    assert!(e.to_string().contains("no answer within 0.1 s"), "{e}");
}

#[tokio::test]
async fn a_refused_connection_is_transient() {
    // Bind then drop a listener: nothing listens on that port any more.
    let port = std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
    let mut c = config(format!("http://127.0.0.1:{port}/v1"));
    c.retry = RetryPolicy { retries: 1, jitter: false, ..RetryPolicy::default() };
    let (sleeper, _) = recording_sleeper();
    let client = LlmClient::new(c, Arc::new(MemoryCache::new()), Arc::new(Budget::unlimited()))
        .unwrap()
        .with_sleeper(sleeper);
    let e = client.complete(&request("q")).await.unwrap_err();
    assert!(
        matches!(e, LlmError::Transient { attempts: 2, last: TransientError::Connection { .. }, .. }),
        "{e:?}"
    );
}

#[tokio::test]
async fn the_breaker_opens_after_consecutive_failures_refuses_then_lets_one_probe_decide() {
    let script =
        vec![Reply::server_error(), Reply::server_error(), Reply::server_error(), Reply::content("back")];
    let r = rig_with(
        script,
        |c| {
            c.retry.retries = 0;
            c.breaker = BreakerPolicy { failure_threshold: 2, cool_down: Duration::from_secs(10) };
        },
        Budget::unlimited(),
    )
    .await;
    for _ in 0..2 {
        assert!(r.client.complete(&request("q")).await.unwrap_err().is_transient());
    }
    assert_eq!(r.client.breaker_state(), BreakerState::Open);
    let refused = r.client.complete(&request("q")).await.unwrap_err();
    assert!(matches!(refused, LlmError::CircuitOpen(_)), "{refused:?}");
    assert!(refused.to_string().contains("circuit breaker open"), "{refused}");
    assert_eq!(r.server.request_count(), 2, "a refused call reaches no server");
    // After the cool-down one probe goes through; it fails and reopens.
    r.clock.advance(Duration::from_secs(10));
    assert!(r.client.complete(&request("q")).await.unwrap_err().is_transient());
    assert_eq!(r.client.breaker_state(), BreakerState::Open);
    assert!(matches!(r.client.complete(&request("q")).await, Err(LlmError::CircuitOpen(_))));
    r.clock.advance(Duration::from_secs(10));
    assert_eq!(r.client.complete(&request("q")).await.unwrap().text, "back");
    assert_eq!(r.client.breaker_state(), BreakerState::Closed { failures: 0 });
    assert_eq!(r.server.request_count(), 4);
    assert_eq!(r.client.stats().breaker_refusals, 2);
}

#[tokio::test]
async fn cache_hits_are_served_even_when_the_breaker_is_open() {
    let script = vec![Reply::content("kept"), Reply::server_error()];
    let r = rig_with(
        script,
        |c| {
            c.retry.retries = 0;
            c.breaker.failure_threshold = 1;
        },
        Budget::unlimited(),
    )
    .await;
    r.client.complete(&request("known")).await.unwrap();
    r.client.complete(&request("new")).await.unwrap_err();
    assert_eq!(r.client.breaker_state(), BreakerState::Open);
    assert_eq!(r.client.complete(&request("known")).await.unwrap().text, "kept");
}

#[tokio::test]
async fn an_exhausted_call_budget_refuses_before_the_call_but_cache_hits_still_answer() {
    let budget =
        Budget::new(BudgetLimits { max_calls: Some(1), ..Default::default() }, Pricing::default()).unwrap();
    let r = rig_with(vec![Reply::content("one"), Reply::content("two")], |_| {}, budget).await;
    r.client.complete(&request("a")).await.unwrap();
    let e = r.client.complete(&request("b")).await.unwrap_err();
    match &e {
        LlmError::BudgetExhausted(b) => assert_eq!(b.resource(), BudgetResource::Calls),
        other => panic!("{other:?}"),
    }
    assert!(e.to_string().contains("max_calls = 1"), "{e}");
    assert_eq!(r.server.request_count(), 1, "the refused call made no request");
    assert_eq!(r.client.complete(&request("a")).await.unwrap().text, "one");
    assert_eq!(r.client.stats().budget_refusals, 1);
}

#[tokio::test]
async fn a_token_budget_that_the_worst_case_could_cross_refuses_before_any_request() {
    let budget =
        Budget::new(BudgetLimits { max_total_tokens: Some(500), ..Default::default() }, Pricing::default())
            .unwrap();
    let r = rig_with(vec![Reply::content("never")], |_| {}, budget).await;
    let e = r.client.complete(&request("q")).await.unwrap_err();
    assert!(e.to_string().contains("max_total_tokens = 500"), "{e}");
    assert_eq!(r.server.request_count(), 0);
}

#[tokio::test]
async fn the_budget_runs_out_between_retries() {
    let budget =
        Budget::new(BudgetLimits { max_calls: Some(2), ..Default::default() }, Pricing::default()).unwrap();
    let r = rig_with(vec![Reply::server_error(), Reply::server_error(), Reply::content("x")], |_| {}, budget)
        .await;
    let e = r.client.complete(&request("q")).await.unwrap_err();
    assert!(matches!(e, LlmError::BudgetExhausted(_)), "{e:?}");
    assert_eq!(r.server.request_count(), 2);
}

#[tokio::test]
async fn the_cost_is_priced_from_the_usage() {
    let pricing = Pricing { input_per_1k_usd: 1.0, output_per_1k_usd: 1.0 };
    let budget =
        Budget::new(BudgetLimits { max_cost_usd: Some(10.0), ..Default::default() }, pricing).unwrap();
    let r = rig_with(vec![Reply::content("12345678")], |_| {}, budget).await;
    let c = r.client.complete(&request("q")).await.unwrap();
    let spent = r.client.budget().spent();
    assert!((spent.cost_usd - c.usage.total() as f64 / 1000.0).abs() < 1e-12, "{spent:?}");
}

#[tokio::test]
async fn an_answer_larger_than_the_cap_is_refused_without_reading_it_whole() {
    let big = "x".repeat(pf1e_llm::client::MAX_RESPONSE_BYTES + 1);
    let r = rig(vec![Reply::content(big), Reply::content("never")]).await;
    let e = r.client.complete(&request("q")).await.unwrap_err();
    assert!(matches!(e, LlmError::BadResponse { .. }), "{e:?}");
    assert!(e.to_string().contains("larger than"), "{e}");
    assert!(e.to_string().len() < 500, "the error stays short: {} bytes", e.to_string().len());
    assert_eq!(r.server.request_count(), 1, "not retried");
    assert_eq!(r.cache.len(), 0, "nothing cached");
}

#[tokio::test]
async fn a_successful_answer_that_echoes_the_key_is_scrubbed_before_the_cache() {
    let r = rig(vec![Reply::content("{\"target\": \"sk-test-key\"}")]).await;
    let c = r.client.complete(&request("q")).await.unwrap();
    assert!(!c.text.contains("sk-test-key"), "{}", c.text);
    assert!(c.text.contains("[redacted]"), "{}", c.text);
    let again = r.client.complete(&request("q")).await.unwrap();
    assert!(again.cached && !again.text.contains("sk-test-key"), "{}", again.text);
}
