//! Test support (feature `testing`): a real chat-completions server on
//! 127.0.0.1 with scripted answers and injected faults, a sleeper that
//! records instead of waiting, and the paths of the shipped prompt packs.
//!
//! The server answers each `POST /v1/chat/completions` with the next
//! scripted [`Reply`] (then with its responder, if it has one), records
//! every request (body and `Authorization` header) and stops when dropped.

use std::collections::VecDeque;
use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::Router;
use axum::body::Bytes;
use axum::extract::State;
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{IntoResponse, Response};
use serde_json::{Value, json};

use crate::sleep::Sleeper;

/// One scripted answer.
#[derive(Clone, Debug)]
pub enum Reply {
    /// 200 with this message content and a `usage` block.
    Content(String),
    /// 200 with this message content and no `usage` block.
    ContentWithoutUsage(String),
    /// Any status with an OpenAI-style error body and an optional `Retry-After`.
    Status {
        /// The status code.
        status: u16,
        /// The `Retry-After` header, verbatim.
        retry_after: Option<String>,
        /// The error message.
        message: String,
    },
    /// Any status with this raw body (malformed answers).
    Raw {
        /// The status code.
        status: u16,
        /// The body, verbatim.
        body: String,
    },
    /// Waits, then answers.
    Slow {
        /// The wait.
        delay: Duration,
        /// The answer after it.
        then: Box<Reply>,
    },
}

impl Reply {
    /// 200 with `text` as content.
    pub fn content(text: impl Into<String>) -> Self {
        Reply::Content(text.into())
    }
    /// 200 with `value`'s JSON text as content.
    pub fn json(value: &Value) -> Self {
        Reply::Content(value.to_string())
    }
    /// 429 with `Retry-After: seconds`.
    pub fn rate_limited(seconds: u64) -> Self {
        Reply::Status { status: 429, retry_after: Some(seconds.to_string()), message: "rate limited".into() }
    }
    /// 500.
    pub fn server_error() -> Self {
        Reply::Status { status: 500, retry_after: None, message: "internal error".into() }
    }
    /// A status with an error message.
    pub fn status(status: u16, message: impl Into<String>) -> Self {
        Reply::Status { status, retry_after: None, message: message.into() }
    }
    /// 200 whose body is not JSON.
    pub fn malformed() -> Self {
        Reply::Raw { status: 200, body: "{\"choices\": [".into() }
    }
    /// `then`, after `delay`.
    pub fn slow(delay: Duration, then: Reply) -> Self {
        Reply::Slow { delay, then: Box::new(then) }
    }
}

/// A request the server received.
#[derive(Clone, Debug)]
pub struct RecordedRequest {
    /// The path.
    pub path: String,
    /// The JSON body (`Null` if it was not JSON).
    pub body: Value,
    /// The `Authorization` header, verbatim.
    pub authorization: Option<String>,
}

/// Answers a request body when the script is empty.
pub type Responder = Arc<dyn Fn(&Value) -> Reply + Send + Sync>;

#[derive(Default)]
struct Shared {
    script: Mutex<VecDeque<Reply>>,
    requests: Mutex<Vec<RecordedRequest>>,
    responder: Mutex<Option<Responder>>,
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|p| p.into_inner())
}

/// The scripted server. Dropping it stops it.
pub struct MockLlmServer {
    addr: SocketAddr,
    shared: Arc<Shared>,
    task: tokio::task::JoinHandle<()>,
}

impl MockLlmServer {
    /// Starts on 127.0.0.1 (a free port) with `script`; must run inside a
    /// tokio runtime.
    pub async fn start(script: Vec<Reply>) -> std::io::Result<Self> {
        let shared = Arc::new(Shared { script: Mutex::new(script.into()), ..Shared::default() });
        let listener = tokio::net::TcpListener::bind(("127.0.0.1", 0)).await?;
        let addr = listener.local_addr()?;
        let app = Router::new().fallback(handle).with_state(shared.clone());
        let task = tokio::spawn(async move {
            // The server only ends with the test: an accept error ends it early.
            let _ = axum::serve(listener, app).await;
        });
        Ok(Self { addr, shared, task })
    }

    /// `http://127.0.0.1:PORT/v1`.
    pub fn base_url(&self) -> String {
        format!("http://{}/v1", self.addr)
    }

    /// Appends answers to the script.
    pub fn push(&self, replies: impl IntoIterator<Item = Reply>) {
        lock(&self.shared.script).extend(replies);
    }

    /// Answers with `responder` (given the request's JSON body) whenever
    /// the script is empty.
    pub fn respond_with(&self, responder: impl Fn(&Value) -> Reply + Send + Sync + 'static) {
        *lock(&self.shared.responder) = Some(Arc::new(responder));
    }

    /// Requests received so far.
    pub fn request_count(&self) -> usize {
        lock(&self.shared.requests).len()
    }

    /// The requests received so far.
    pub fn requests(&self) -> Vec<RecordedRequest> {
        lock(&self.shared.requests).clone()
    }

    /// Scripted answers not served yet.
    pub fn remaining(&self) -> usize {
        lock(&self.shared.script).len()
    }
}

impl Drop for MockLlmServer {
    fn drop(&mut self) {
        self.task.abort();
    }
}

async fn handle(
    State(shared): State<Arc<Shared>>,
    uri: axum::http::Uri,
    headers: HeaderMap,
    body: Bytes,
) -> Response {
    let body: Value = serde_json::from_slice(&body).unwrap_or(Value::Null);
    let authorization = headers.get(header::AUTHORIZATION).and_then(|v| v.to_str().ok()).map(str::to_string);
    let served = lock(&shared.requests).len();
    lock(&shared.requests).push(RecordedRequest {
        path: uri.path().to_string(),
        body: body.clone(),
        authorization,
    });
    if uri.path() != "/v1/chat/completions" {
        return error(404, None, &format!("no route {}", uri.path()));
    }
    let responder = lock(&shared.responder).clone();
    let next = lock(&shared.script).pop_front().or_else(|| responder.map(|r| r(&body)));
    let Some(mut reply) = next else {
        return error(400, None, &format!("mock server: script exhausted after {served} replies"));
    };
    loop {
        match reply {
            Reply::Slow { delay, then } => {
                tokio::time::sleep(delay).await;
                reply = *then;
            }
            Reply::Content(text) => return completion(&body, &text, true),
            Reply::ContentWithoutUsage(text) => return completion(&body, &text, false),
            Reply::Status { status, retry_after, message } => return error(status, retry_after, &message),
            Reply::Raw { status, body } => {
                return (code(status), [(header::CONTENT_TYPE, "application/json")], body).into_response();
            }
        }
    }
}

fn code(status: u16) -> StatusCode {
    StatusCode::from_u16(status).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR)
}

fn completion(request: &Value, text: &str, with_usage: bool) -> Response {
    let prompt_tokens = (request.get("messages").map_or(0, |m| m.to_string().len()) / 4).max(1);
    let completion_tokens = (text.len() / 4).max(1);
    let mut body = json!({
        "id": "chatcmpl-mock",
        "object": "chat.completion",
        "model": request.get("model").cloned().unwrap_or(Value::Null),
        "choices": [{"index": 0, "message": {"role": "assistant", "content": text}, "finish_reason": "stop"}],
    });
    if with_usage {
        body["usage"] = json!({
            "prompt_tokens": prompt_tokens,
            "completion_tokens": completion_tokens,
            "total_tokens": prompt_tokens + completion_tokens,
        });
    }
    axum::Json(body).into_response()
}

fn error(status: u16, retry_after: Option<String>, message: &str) -> Response {
    let mut response =
        (code(status), axum::Json(json!({"error": {"message": message, "type": "mock"}}))).into_response();
    if let Some(value) = retry_after.and_then(|v| v.parse().ok()) {
        response.headers_mut().insert(header::RETRY_AFTER, value);
    }
    response
}

/// A sleeper that records each requested delay and returns at once.
pub fn recording_sleeper() -> (Sleeper, Arc<Mutex<Vec<Duration>>>) {
    let delays = Arc::new(Mutex::new(Vec::new()));
    let record = delays.clone();
    let sleeper = Sleeper::from_fn(move |d| {
        lock(&record).push(d);
        Box::pin(std::future::ready(()))
    });
    (sleeper, delays)
}

/// The minimal prompt pack for tests (`crates/llm/tests/fixtures/minimal-pack`).
pub fn minimal_pack_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/minimal-pack")
}

/// The shipped French pack (`data/prompt-packs/fr`).
pub fn french_pack_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../data/prompt-packs/fr")
}

/// A deterministic stand-in for a model, for [`MockLlmServer::respond_with`]:
/// it answers every task of pf1e by the request's `response_format` name.
///
/// - `strategy_spec` (a sentence): `healer`/`soign` → target healer,
///   `weak`/`faibl` → weakest_ac, `wound`/`bless` → lowest_hp, and a
///   percentage `N %` → `retreat: N/100`;
/// - `strategy_specs` (proposals): party → `lowest_hp, retreat=0.25`,
///   `weakest_ac, use_charges=false`, `nearest`; adversary → `weakest_ac`,
///   `healer, retreat=0.5`, `nearest` (cut to the count asked);
/// - `turn_actions` (a turn): the first plausible action;
/// - free text (the report): the four sections, quoting the first number
///   of the facts and, in the last section, `99,9 %` (absent from them).
pub fn scripted_model(body: &Value) -> Reply {
    let messages = body["messages"].as_array().cloned().unwrap_or_default();
    let question = messages.last().and_then(|m| m["content"].as_str()).unwrap_or_default().to_string();
    let format = body["response_format"]["json_schema"]["name"].as_str().unwrap_or_default();
    match format {
        "strategy_spec" => {
            let request = question.split("request:").nth(1).unwrap_or_default().to_lowercase();
            let mut levers = serde_json::Map::new();
            if request.contains("healer") || request.contains("soign") {
                levers.insert("target".into(), json!("healer"));
            } else if request.contains("weak") || request.contains("faibl") {
                levers.insert("target".into(), json!("weakest_ac"));
            } else if request.contains("wound") || request.contains("bless") {
                levers.insert("target".into(), json!("lowest_hp"));
            }
            let words: Vec<&str> = request.split_whitespace().collect();
            if let Some(k) = words.iter().position(|w| w.starts_with('%'))
                && let Some(n) = k.checked_sub(1).and_then(|k| words[k].parse::<f64>().ok())
            {
                levers.insert("retreat".into(), json!(n / 100.0));
            }
            Reply::json(&Value::Object(levers))
        }
        "strategy_specs" => {
            let count = question
                .lines()
                .find_map(|l| l.strip_prefix("count: "))
                .and_then(|c| c.trim().parse::<usize>().ok())
                .unwrap_or(1);
            let specs = if question.starts_with("side: party") {
                vec![
                    json!({"target": "lowest_hp", "retreat": 0.25}),
                    json!({"target": "weakest_ac", "use_charges": false}),
                    json!({"target": "nearest"}),
                ]
            } else {
                vec![json!({"target": "weakest_ac"}), json!({"target": "healer", "retreat": 0.5}), json!({})]
            };
            Reply::json(&json!({"specs": specs.into_iter().take(count.max(1)).collect::<Vec<_>>()}))
        }
        "turn_actions" => {
            let first = question
                .lines()
                .find_map(|l| l.strip_prefix("1. "))
                .and_then(|a| serde_json::from_str::<Value>(a).ok())
                .unwrap_or_else(|| json!({"kind": "wait"}));
            Reply::json(&json!({"actions": [first]}))
        }
        _ => {
            let facts = question.split("=== faits ===").nth(1).unwrap_or_default();
            let number = crate::report::numbers(facts).into_iter().next().map(|n| n.text).unwrap_or_default();
            Reply::content(format!(
                "Bilan d'équilibrage\nLe combat est serré ({number}).\n\nDanger et attrition\nLes faits disent qui tombe.\n\nRobustesse\nRien de plus.\n\nObservabilité LLM\nUn appel, et 99,9 % de confiance."
            ))
        }
    }
}
