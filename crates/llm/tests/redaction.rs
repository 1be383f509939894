//! The API key never appears in a log line, an error, a cache key, a cached
//! entry or a result, even when the server echoes it back.

use std::io::Write;
use std::sync::{Arc, Mutex};

use pf1e_llm::testing::{MockLlmServer, Reply, minimal_pack_dir, recording_sleeper};
use pf1e_llm::{
    Budget, BudgetLimits, LlmClient, LlmConfig, MemoryCache, Pricing, PromptPack, ResponseCache, Secret,
    Side, StrategyCompiler,
};
use serde_json::json;
use tracing_subscriber::util::SubscriberInitExt;

const KEY: &str = "sk-live-REDACT-ME-0123456789";

#[derive(Clone, Default)]
struct Captured(Arc<Mutex<Vec<u8>>>);

impl Write for Captured {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0.lock().unwrap().extend_from_slice(buf);
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

#[tokio::test]
async fn the_key_is_in_the_authorization_header_and_nowhere_else() {
    let logs = Captured::default();
    let writer = logs.clone();
    // Everything at TRACE, including the HTTP stack's `log` records.
    let _guard = tracing_subscriber::fmt()
        .with_max_level(tracing::Level::TRACE)
        .with_ansi(false)
        .with_writer(move || writer.clone())
        .finish()
        .set_default();

    let echo = format!("invalid api key {KEY}");
    let script = vec![
        Reply::status(500, echo.clone()),
        Reply::json(&json!({"target": "healer"})),
        Reply::status(401, echo.clone()),
        Reply::Raw { status: 200, body: format!("{{\"choices\": \"{KEY}\"}}") },
        Reply::rate_limited(1),
        Reply::rate_limited(1),
        Reply::rate_limited(1),
    ];
    let server = MockLlmServer::start(script).await.unwrap();
    let mut config = LlmConfig::new(server.base_url(), "test-model");
    config.api_key = Some(Secret::new(KEY));
    let cache = Arc::new(MemoryCache::new());
    let budget =
        Budget::new(BudgetLimits { max_calls: Some(7), ..Default::default() }, Pricing::default()).unwrap();
    let (sleeper, _) = recording_sleeper();
    let client =
        LlmClient::new(config.clone(), cache.clone(), Arc::new(budget)).unwrap().with_sleeper(sleeper);
    let compiler = StrategyCompiler::new(&PromptPack::load(minimal_pack_dir()).unwrap()).unwrap();

    let mut texts = vec![format!("{config:?}"), format!("{client:?}")];
    // A 500 echoing the key, then a valid answer: a compiled result.
    let compiled = compiler.compile(&client, Side::Party, "kill the priest").await.unwrap();
    texts.push(format!("{compiled:?}"));
    let request = compiler.request(Side::Party, "kill the priest");
    let key = client.cache_key(&request);
    texts.push(key.to_string());
    texts.push(format!("{key:?}"));
    texts.push(String::from_utf8_lossy(&key.canonical_bytes()).into_owned());
    let stored = cache.get(&key).unwrap().unwrap();
    texts.push(String::from_utf8_lossy(&stored.to_bytes()).into_owned());
    // A rejection echoing the key, a body carrying it, transient failures.
    for sentence in ["a", "b", "c"] {
        let e = compiler.compile(&client, Side::Party, sentence).await.unwrap_err();
        texts.push(e.to_string());
        texts.push(format!("{e:?}"));
    }
    // The budget is spent: its error too.
    let e = compiler.compile(&client, Side::Party, "d").await.unwrap_err();
    assert!(e.to_string().contains("budget exhausted"), "{e}");
    texts.push(e.to_string());

    let requests = server.requests();
    assert!(requests.len() >= 6, "{}", requests.len());
    assert!(requests.iter().all(|r| r.authorization.as_deref() == Some(&format!("Bearer {KEY}")[..])));
    for r in &requests {
        assert!(!r.body.to_string().contains(KEY), "the key is not in the request body");
    }

    let captured = String::from_utf8(logs.0.lock().unwrap().clone()).unwrap();
    assert!(captured.contains("LLM request"), "the logs were captured: {captured}");
    assert!(captured.contains("retrying"), "{captured}");
    assert!(!captured.contains(KEY), "a log line shows the key:\n{captured}");
    for text in &texts {
        assert!(!text.contains(KEY), "the key leaks in: {text}");
    }
    assert!(texts.iter().any(|t| t.contains("invalid api key [redacted]")), "{texts:#?}");
}
