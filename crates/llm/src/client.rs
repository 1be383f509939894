//! The HTTP client: cache, circuit breaker, budget and retries around one
//! chat-completions call.
//!
//! A call goes: cache lookup (a hit returns at once: no HTTP, no budget, no
//! breaker) → breaker admission → attempts, each preceded by a budget
//! reservation, transient failures retried with exponential backoff and
//! jitter (a server's `Retry-After` is honoured) → the completion is stored
//! in the cache.

use std::future::Future;
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, SystemTime};

use backon::{ExponentialBuilder, Retryable};
use reqwest::StatusCode;
use reqwest::header::{CONTENT_TYPE, HeaderMap, RETRY_AFTER};
use tracing::{debug, warn};

use crate::breaker::{BreakerState, CircuitBreaker, Clock, SystemClock};
use crate::budget::{Budget, BudgetExhausted, TokenUsage};
use crate::cache::{CacheKey, CachedCompletion, ResponseCache};
use crate::config::{ConfigError, LlmConfig};
use crate::error::{LlmError, TransientError};
use crate::secret::scrub;
use crate::sleep::Sleeper;
use crate::wire::{Message, ParsedResponse, RequestBody, ResponseFormat, error_message, parse_response};

/// One question to a model.
#[derive(Clone, Debug, PartialEq)]
pub struct ChatRequest {
    /// The conversation (system prompt, few-shot pairs, question, repairs).
    pub messages: Vec<Message>,
    /// The prompt version of the pack prompt it was built from.
    pub prompt_version: String,
    /// The version of the answer schema or input view.
    pub schema_version: u32,
    /// The expected answer form.
    pub format: ResponseFormat,
}

/// A model's answer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Completion {
    /// The answer's text.
    pub text: String,
    /// What it cost (zero spent again when served from the cache).
    pub usage: TokenUsage,
    /// Whether `usage` was estimated (no `usage` in the response).
    pub usage_estimated: bool,
    /// The server's `finish_reason`.
    pub finish_reason: Option<String>,
    /// Whether it came from the cache.
    pub cached: bool,
}

impl Completion {
    fn from_cached(c: CachedCompletion) -> Self {
        Self {
            usage: c.usage(),
            text: c.text,
            usage_estimated: c.usage_estimated,
            finish_reason: c.finish_reason,
            cached: true,
        }
    }
}

/// Anything that answers chat requests: the HTTP client, and later a replay
/// log or a scripted model. The LLM tasks ([`crate::StrategyCompiler`],
/// [`crate::SpecProposer`], [`crate::ReportWriter`]) take any of them.
pub trait ChatModel: Send + Sync {
    /// The model's name (for provenance in reports).
    fn model_name(&self) -> &str;
    /// Answers one request.
    fn complete(&self, request: &ChatRequest) -> impl Future<Output = Result<Completion, LlmError>> + Send;
}

/// Counters of one client.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ClientStats {
    /// Requests asked of the client.
    pub requests: u64,
    /// Requests answered from the cache.
    pub cache_hits: u64,
    /// Requests not in the cache.
    pub cache_misses: u64,
    /// HTTP attempts made (retries included).
    pub http_attempts: u64,
    /// Retries (attempts after the first of a request).
    pub retries: u64,
    /// Requests that failed (transient failures exhausted or unusable answers).
    pub failures: u64,
    /// Requests refused by the open circuit breaker.
    pub breaker_refusals: u64,
    /// Requests refused by the budget.
    pub budget_refusals: u64,
}

/// The OpenAI-compatible chat-completions client.
pub struct LlmClient {
    config: LlmConfig,
    endpoint: String,
    http: reqwest::Client,
    cache: Arc<dyn ResponseCache>,
    budget: Arc<Budget>,
    breaker: CircuitBreaker,
    sleeper: Sleeper,
    stats: Mutex<ClientStats>,
}

impl std::fmt::Debug for LlmClient {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("LlmClient").field("config", &self.config).field("stats", &self.stats()).finish()
    }
}

/// Makes ring the process's TLS crypto provider: reqwest is built without
/// one (so that neither OpenSSL nor aws-lc is linked) and takes the process
/// default. A provider already installed is kept.
fn install_crypto_provider() {
    // `Err` only means a provider is already installed, which is the goal.
    let _ = rustls::crypto::ring::default_provider().install_default();
}

/// What one attempt can end in.
enum AttemptError {
    Transient(TransientError),
    Rejected { status: u16, message: String },
    Bad(String),
    Budget(BudgetExhausted),
}

impl LlmClient {
    /// A client for `config` (validated here) storing completions in `cache`
    /// and spending from `budget`.
    pub fn new(
        mut config: LlmConfig,
        cache: Arc<dyn ResponseCache>,
        budget: Arc<Budget>,
    ) -> Result<Self, ConfigError> {
        config.validate()?;
        install_crypto_provider();
        let http = reqwest::Client::builder()
            .timeout(config.timeout)
            .user_agent(concat!("pf1e/", env!("CARGO_PKG_VERSION")))
            // Retries are ours alone, so that every attempt is counted and
            // charged to the budget.
            .retry(reqwest::retry::never())
            .build()
            .map_err(ConfigError::HttpClient)?;
        Ok(Self {
            endpoint: config.endpoint(),
            breaker: CircuitBreaker::new(config.breaker, Arc::new(SystemClock)),
            config,
            http,
            cache,
            budget,
            sleeper: Sleeper::tokio(),
            stats: Mutex::new(ClientStats::default()),
        })
    }

    /// Waits between retries with `sleeper` (tests record instead of waiting).
    pub fn with_sleeper(mut self, sleeper: Sleeper) -> Self {
        self.sleeper = sleeper;
        self
    }

    /// Reads the breaker's time from `clock` (tests move it by hand).
    pub fn with_clock(mut self, clock: Arc<dyn Clock>) -> Self {
        self.breaker = CircuitBreaker::new(self.config.breaker, clock);
        self
    }

    /// The configuration.
    pub fn config(&self) -> &LlmConfig {
        &self.config
    }

    /// The budget it spends from.
    pub fn budget(&self) -> &Budget {
        &self.budget
    }

    /// The breaker's state.
    pub fn breaker_state(&self) -> BreakerState {
        self.breaker.state()
    }

    /// The counters so far.
    pub fn stats(&self) -> ClientStats {
        *self.stats.lock().unwrap_or_else(|p| p.into_inner())
    }

    fn count(&self, f: impl FnOnce(&mut ClientStats)) {
        f(&mut self.stats.lock().unwrap_or_else(|p| p.into_inner()));
    }

    fn body<'a>(&'a self, request: &'a ChatRequest) -> RequestBody<'a> {
        RequestBody::new(
            &self.config.model,
            self.config.sampling,
            &request.messages,
            request.format.wire(self.config.schema_mode),
        )
    }

    /// The cache key `request` is stored under.
    pub fn cache_key(&self, request: &ChatRequest) -> CacheKey {
        CacheKey {
            model: self.config.model.clone(),
            sampling: self.config.sampling.canonical(),
            prompt_version: request.prompt_version.clone(),
            schema_version: request.schema_version,
            request_sha256: self.body(request).prompt_sha256(),
        }
    }

    /// Answers `request` from the cache or the server.
    pub async fn complete(&self, request: &ChatRequest) -> Result<Completion, LlmError> {
        let body = self.body(request);
        let key = self.cache_key(request);
        self.count(|s| s.requests += 1);
        if let Some(hit) = self.cache.get(&key)? {
            self.count(|s| s.cache_hits += 1);
            debug!(prompt_version = %request.prompt_version, key = %key, "LLM cache hit");
            return Ok(Completion::from_cached(hit));
        }
        self.count(|s| s.cache_misses += 1);
        let admission = self.breaker.admit().inspect_err(|_| self.count(|s| s.breaker_refusals += 1))?;
        // Encoding plain strings, numbers and JSON values cannot fail.
        let payload = serde_json::to_vec(&body).unwrap_or_default();
        let estimated_prompt_tokens = body.estimated_prompt_tokens();
        let attempts = AtomicU32::new(0);
        let result = (|| self.attempt(&payload, estimated_prompt_tokens, &attempts))
            .retry(self.backoff())
            .sleep(self.sleeper.clone())
            .when(|e| matches!(e, AttemptError::Transient(_)))
            .adjust(|e, delay| self.honour_retry_after(e, delay))
            .notify(|e, delay| {
                if let AttemptError::Transient(t) = e {
                    warn!(endpoint = %self.endpoint, error = %t, delay_ms = delay.as_millis() as u64, "LLM call failed; retrying");
                }
            })
            .await;
        let attempts = attempts.load(Ordering::Relaxed);
        self.count(|s| s.retries += u64::from(attempts.saturating_sub(1)));
        match result {
            Ok(parsed) => {
                admission.succeeded();
                let stored = CachedCompletion {
                    text: parsed.text,
                    prompt_tokens: parsed.usage.prompt_tokens,
                    completion_tokens: parsed.usage.completion_tokens,
                    usage_estimated: parsed.usage_estimated,
                    finish_reason: parsed.finish_reason,
                };
                self.cache.put(&key, &stored)?;
                debug!(prompt_version = %request.prompt_version, attempts, tokens = parsed.usage.total(), "LLM completion stored");
                Ok(Completion { cached: false, ..Completion::from_cached(stored) })
            }
            Err(AttemptError::Transient(last)) => {
                admission.failed();
                self.count(|s| s.failures += 1);
                Err(LlmError::Transient { endpoint: self.endpoint.clone(), attempts, last })
            }
            Err(AttemptError::Rejected { status, message }) => {
                // The server is up and answered: not a breaker failure.
                admission.succeeded();
                let hint = if matches!(status, 401 | 403) && self.config.api_key.is_none() {
                    format!(" (no API key configured: set {})", crate::config::ENV_API_KEY)
                } else {
                    String::new()
                };
                Err(LlmError::Rejected { endpoint: self.endpoint.clone(), status, message, hint })
            }
            Err(AttemptError::Bad(problem)) => {
                admission.failed();
                self.count(|s| s.failures += 1);
                Err(LlmError::BadResponse { endpoint: self.endpoint.clone(), problem })
            }
            Err(AttemptError::Budget(exhausted)) => {
                drop(admission);
                self.count(|s| s.budget_refusals += 1);
                Err(exhausted.into())
            }
        }
    }

    fn backoff(&self) -> ExponentialBuilder {
        let policy = self.config.retry;
        let builder = ExponentialBuilder::default()
            .with_min_delay(policy.base_delay)
            .with_max_delay(policy.max_delay)
            .with_factor(2.0)
            .with_max_times(policy.retries as usize);
        if policy.jitter { builder.with_jitter() } else { builder }
    }

    /// The wait before the next attempt: the backoff's, or longer if the
    /// server asked for it; `None` (stop) when the server asks for more than
    /// `max_retry_after` or the retries are spent.
    fn honour_retry_after(&self, error: &AttemptError, delay: Option<Duration>) -> Option<Duration> {
        let delay = delay?;
        let asked = match error {
            AttemptError::Transient(t) => t.retry_after(),
            _ => None,
        };
        match asked {
            Some(wait) if wait > self.config.retry.max_retry_after => None,
            Some(wait) => Some(delay.max(wait)),
            None => Some(delay),
        }
    }

    async fn attempt(
        &self,
        payload: &[u8],
        estimated_prompt_tokens: u64,
        attempts: &AtomicU32,
    ) -> Result<ParsedResponse, AttemptError> {
        let reservation = self
            .budget
            .reserve(estimated_prompt_tokens, u64::from(self.config.sampling.max_tokens))
            .map_err(AttemptError::Budget)?;
        let attempt = attempts.fetch_add(1, Ordering::Relaxed) + 1;
        self.count(|s| s.http_attempts += 1);
        debug!(endpoint = %self.endpoint, model = %self.config.model, attempt, "LLM request");
        let mut request =
            self.http.post(&self.endpoint).header(CONTENT_TYPE, "application/json").body(payload.to_vec());
        if let Some(key) = &self.config.api_key {
            // bearer_auth marks the header sensitive: it is never printed.
            request = request.bearer_auth(key.expose());
        }
        let transport = |e: reqwest::Error| AttemptError::Transient(self.transport_error(&e));
        let response = match request.send().await {
            Ok(r) => r,
            Err(e) => {
                reservation.settle(None);
                return Err(transport(e));
            }
        };
        let status = response.status();
        let retry_after = retry_after(response.headers());
        let text = match read_bounded(response, MAX_RESPONSE_BYTES).await {
            Ok(Ok(t)) => t,
            Ok(Err(too_big)) => {
                reservation.settle(None);
                return Err(AttemptError::Bad(too_big));
            }
            Err(e) => {
                reservation.settle(None);
                return Err(transport(e));
            }
        };
        debug!(endpoint = %self.endpoint, status = status.as_u16(), attempt, "LLM response");
        let clean = |t: &str| scrub(self.config.api_key.as_ref(), t);
        if status == StatusCode::TOO_MANY_REQUESTS {
            reservation.settle(None);
            return Err(AttemptError::Transient(TransientError::RateLimited { retry_after }));
        }
        if status.is_server_error() {
            reservation.settle(None);
            let message = clean(&error_message(&text));
            return Err(AttemptError::Transient(TransientError::Server {
                status: status.as_u16(),
                retry_after,
                message,
            }));
        }
        if !status.is_success() {
            reservation.settle(None);
            return Err(AttemptError::Rejected {
                status: status.as_u16(),
                message: clean(&error_message(&text)),
            });
        }
        match parse_response(&text, estimated_prompt_tokens) {
            Ok(mut parsed) => {
                reservation.settle(Some(parsed.usage));
                // An answer that echoes the key must not carry it into a
                // repair request, an error text, a log or the cache.
                parsed.text = clean(&parsed.text);
                Ok(parsed)
            }
            Err(problem) => {
                reservation.settle(None);
                Err(AttemptError::Bad(clean(&problem)))
            }
        }
    }

    /// A transport failure as a transient error. The error chain is
    /// flattened into scrubbed text rather than kept as a source: a source
    /// we do not control could carry the key into a log.
    fn transport_error(&self, error: &reqwest::Error) -> TransientError {
        if error.is_timeout() {
            return TransientError::Timeout { timeout: self.config.timeout };
        }
        let mut text = error.to_string();
        let mut source = std::error::Error::source(error);
        while let Some(s) = source {
            text.push_str(": ");
            text.push_str(&s.to_string());
            source = s.source();
        }
        TransientError::Connection { message: scrub(self.config.api_key.as_ref(), &text) }
    }
}

/// The most bytes of a response body read: an answer is at most
/// `max_tokens` tokens, so a larger body is a broken or hostile server, and
/// is refused before it fills the memory.
pub const MAX_RESPONSE_BYTES: usize = 1 << 20;

/// Reads a response body of at most `max` bytes (lossy UTF-8); `Ok(Err)`
/// names the limit when the body is larger. Nothing past the limit is read.
async fn read_bounded(
    mut response: reqwest::Response,
    max: usize,
) -> Result<Result<String, String>, reqwest::Error> {
    let too_big = || format!("the response is larger than {max} bytes");
    if response.content_length().is_some_and(|n| n > max as u64) {
        return Ok(Err(too_big()));
    }
    let mut body = Vec::new();
    while let Some(chunk) = response.chunk().await? {
        if body.len() + chunk.len() > max {
            return Ok(Err(too_big()));
        }
        body.extend_from_slice(&chunk);
    }
    Ok(Ok(String::from_utf8_lossy(&body).into_owned()))
}

/// `Retry-After` as delay-seconds or an HTTP date.
fn retry_after(headers: &HeaderMap) -> Option<Duration> {
    let value = headers.get(RETRY_AFTER)?.to_str().ok()?.trim();
    if let Ok(seconds) = value.parse::<f64>() {
        return (seconds.is_finite() && seconds >= 0.0).then(|| Duration::from_secs_f64(seconds));
    }
    let date = httpdate::parse_http_date(value).ok()?;
    Some(date.duration_since(SystemTime::now()).unwrap_or(Duration::ZERO))
}

impl ChatModel for LlmClient {
    fn model_name(&self) -> &str {
        &self.config.model
    }

    fn complete(&self, request: &ChatRequest) -> impl Future<Output = Result<Completion, LlmError>> + Send {
        LlmClient::complete(self, request)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use reqwest::header::HeaderValue;

    #[test]
    fn retry_after_reads_seconds_and_dates() {
        let mut h = HeaderMap::new();
        assert_eq!(retry_after(&h), None);
        h.insert(RETRY_AFTER, HeaderValue::from_static("2"));
        assert_eq!(retry_after(&h), Some(Duration::from_secs(2)));
        h.insert(RETRY_AFTER, HeaderValue::from_static("0.5"));
        assert_eq!(retry_after(&h), Some(Duration::from_millis(500)));
        h.insert(RETRY_AFTER, HeaderValue::from_static("Wed, 21 Oct 2015 07:28:00 GMT"));
        assert_eq!(retry_after(&h), Some(Duration::ZERO));
        h.insert(RETRY_AFTER, HeaderValue::from_static("soon"));
        assert_eq!(retry_after(&h), None);
    }
}
