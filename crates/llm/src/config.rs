//! Client configuration: endpoint, model, key, sampling, timeout, retries,
//! circuit breaker, response-format mode.
//!
//! [`LlmConfig::from_env`] reads `PF1E_LLM_BASE_URL`, `PF1E_LLM_MODEL` and
//! `PF1E_LLM_API_KEY`; the CLI overrides fields from its flags, then
//! [`LlmConfig::validate`] checks the result once.

use std::time::Duration;

use crate::secret::Secret;

/// Environment variable: the API base URL (`…/v1`).
pub const ENV_BASE_URL: &str = "PF1E_LLM_BASE_URL";
/// Environment variable: the model name.
pub const ENV_MODEL: &str = "PF1E_LLM_MODEL";
/// Environment variable: the API key (optional: local servers need none).
pub const ENV_API_KEY: &str = "PF1E_LLM_API_KEY";
/// Default base URL when `PF1E_LLM_BASE_URL` is unset.
pub const DEFAULT_BASE_URL: &str = "https://api.openai.com/v1";
/// Default model when `PF1E_LLM_MODEL` is unset.
pub const DEFAULT_MODEL: &str = "gpt-4o-mini";

/// A configuration value that cannot be used.
#[derive(Debug, thiserror::Error)]
pub enum ConfigError {
    /// A field is out of range or malformed.
    #[error("LLM configuration: {field}: {problem}")]
    Invalid {
        /// The field (or environment variable) at fault.
        field: &'static str,
        /// What is wrong.
        problem: String,
    },
    /// The HTTP client could not be built.
    #[error("LLM configuration: cannot build the HTTP client: {0}")]
    HttpClient(#[source] reqwest::Error),
    /// Neither a base URL nor an API key is set: no model is called by
    /// default (a public API host is never contacted unasked).
    #[error(
        "no LLM is configured: set {ENV_BASE_URL} (an OpenAI-compatible server, e.g. http://127.0.0.1:8080/v1) or {ENV_API_KEY} (for {DEFAULT_BASE_URL}), or pass --llm-base-url / --llm-api-key"
    )]
    NotConfigured,
}

fn invalid(field: &'static str, problem: impl Into<String>) -> ConfigError {
    ConfigError::Invalid { field, problem: problem.into() }
}

/// Sampling parameters: part of every cache key.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sampling {
    /// Temperature in [0, 2].
    pub temperature: f64,
    /// Maximum completion tokens (at least 1).
    pub max_tokens: u32,
    /// Nucleus sampling in (0, 1].
    pub top_p: f64,
}

impl Default for Sampling {
    fn default() -> Self {
        Self { temperature: 0.0, max_tokens: 1024, top_p: 1.0 }
    }
}

impl Sampling {
    /// The canonical text that enters cache keys: `t=0;mt=1024;tp=1`
    /// (shortest round-trip float text, so `0.70` and `0.7` agree).
    pub fn canonical(&self) -> String {
        format!("t={};mt={};tp={}", self.temperature, self.max_tokens, self.top_p)
    }

    fn validate(&self) -> Result<(), ConfigError> {
        if !(self.temperature.is_finite() && (0.0..=2.0).contains(&self.temperature)) {
            return Err(invalid("temperature", format!("{} is not within [0, 2]", self.temperature)));
        }
        if self.max_tokens == 0 {
            return Err(invalid("max_tokens", "must be at least 1"));
        }
        if !(self.top_p.is_finite() && self.top_p > 0.0 && self.top_p <= 1.0) {
            return Err(invalid("top_p", format!("{} is not within (0, 1]", self.top_p)));
        }
        Ok(())
    }
}

/// Retries of transient failures (429, 5xx, timeouts, connection errors).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RetryPolicy {
    /// Retries after the first attempt (so `retries + 1` attempts at most).
    pub retries: u32,
    /// Delay before the first retry; doubled at each retry.
    pub base_delay: Duration,
    /// Ceiling of the exponential delay.
    pub max_delay: Duration,
    /// A `Retry-After` longer than this ends the retries at once.
    pub max_retry_after: Duration,
    /// Adds a random part in [0, delay) to each delay, so that many clients
    /// do not retry in step.
    pub jitter: bool,
}

impl Default for RetryPolicy {
    fn default() -> Self {
        Self {
            retries: 2,
            base_delay: Duration::from_millis(250),
            max_delay: Duration::from_secs(30),
            max_retry_after: Duration::from_secs(60),
            jitter: true,
        }
    }
}

/// The circuit breaker: after `failure_threshold` consecutive failed calls
/// every call is refused at once for `cool_down`, then one probe call
/// decides.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BreakerPolicy {
    /// Consecutive failed calls that open the breaker (at least 1).
    pub failure_threshold: u32,
    /// How long an open breaker refuses calls before it lets a probe through.
    pub cool_down: Duration,
}

impl Default for BreakerPolicy {
    fn default() -> Self {
        Self { failure_threshold: 3, cool_down: Duration::from_secs(30) }
    }
}

/// How a caller's JSON schema is asked for on the wire.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum SchemaMode {
    /// `response_format: {"type": "json_schema", …}` (structured outputs).
    #[default]
    JsonSchema,
    /// `response_format: {"type": "json_object"}`: for servers without
    /// structured outputs; the schema is still in the prompt text and every
    /// answer is validated.
    JsonObject,
}

/// Everything the client needs to reach a model.
#[derive(Clone, Debug)]
pub struct LlmConfig {
    /// Base URL of an OpenAI-compatible API (`https://api.openai.com/v1`,
    /// `http://127.0.0.1:8080/v1`…), without the trailing slash.
    pub base_url: String,
    /// Model name, sent as is and part of every cache key.
    pub model: String,
    /// API key, sent as a bearer token; `None` sends no `Authorization`.
    pub api_key: Option<Secret>,
    /// Sampling parameters.
    pub sampling: Sampling,
    /// Timeout of one HTTP attempt (connection, request and body).
    pub timeout: Duration,
    /// Retries of transient failures.
    pub retry: RetryPolicy,
    /// Circuit breaker.
    pub breaker: BreakerPolicy,
    /// How JSON schemas are requested.
    pub schema_mode: SchemaMode,
}

impl LlmConfig {
    /// A configuration for `base_url` and `model` with every other field at
    /// its default.
    pub fn new(base_url: impl Into<String>, model: impl Into<String>) -> Self {
        Self {
            base_url: base_url.into(),
            model: model.into(),
            api_key: None,
            sampling: Sampling::default(),
            timeout: Duration::from_secs(30),
            retry: RetryPolicy::default(),
            breaker: BreakerPolicy::default(),
            schema_mode: SchemaMode::default(),
        }
    }

    /// Reads the process environment (see [`LlmConfig::from_lookup`]).
    pub fn from_env() -> Result<Self, ConfigError> {
        Self::from_lookup(|name| std::env::var(name).ok())
    }

    /// Reads `PF1E_LLM_BASE_URL` (default [`DEFAULT_BASE_URL`] when a key
    /// is set), `PF1E_LLM_MODEL` (default [`DEFAULT_MODEL`]) and
    /// `PF1E_LLM_API_KEY` through `lookup`; empty values count as unset.
    /// With neither a base URL nor a key, [`ConfigError::NotConfigured`]:
    /// nothing is called by default. The result is validated.
    pub fn from_lookup(lookup: impl Fn(&str) -> Option<String>) -> Result<Self, ConfigError> {
        let get = |name: &str| lookup(name).map(|v| v.trim().to_string()).filter(|v| !v.is_empty());
        if !Self::is_configured(&lookup) {
            return Err(ConfigError::NotConfigured);
        }
        let mut config = Self::new(
            get(ENV_BASE_URL).unwrap_or_else(|| DEFAULT_BASE_URL.to_string()),
            get(ENV_MODEL).unwrap_or_else(|| DEFAULT_MODEL.to_string()),
        );
        config.api_key = get(ENV_API_KEY).map(Secret::new);
        config.validate()?;
        Ok(config)
    }

    /// Whether `lookup` names a base URL or an API key (non-empty).
    pub fn is_configured(lookup: impl Fn(&str) -> Option<String>) -> bool {
        [ENV_BASE_URL, ENV_API_KEY].iter().any(|name| lookup(name).is_some_and(|v| !v.trim().is_empty()))
    }

    /// Checks every field; strips the base URL's trailing slashes.
    pub fn validate(&mut self) -> Result<(), ConfigError> {
        let trimmed = self.base_url.trim().trim_end_matches('/').to_string();
        let url = reqwest::Url::parse(&trimmed)
            .map_err(|e| invalid("base_url", format!("{trimmed:?} is not a URL: {e}")))?;
        if !matches!(url.scheme(), "http" | "https") {
            return Err(invalid("base_url", format!("{trimmed:?}: the scheme must be http or https")));
        }
        if url.query().is_some()
            || url.fragment().is_some()
            || !url.username().is_empty()
            || url.password().is_some()
        {
            return Err(invalid(
                "base_url",
                "must not carry credentials, a query or a fragment (the key goes in PF1E_LLM_API_KEY)",
            ));
        }
        self.base_url = trimmed;
        if self.model.trim().is_empty() {
            return Err(invalid("model", "is empty"));
        }
        if self.api_key.as_ref().is_some_and(Secret::is_empty) {
            self.api_key = None;
        }
        self.sampling.validate()?;
        if self.timeout.is_zero() {
            return Err(invalid("timeout", "must be positive"));
        }
        if self.retry.base_delay > self.retry.max_delay {
            return Err(invalid("retry", "base_delay exceeds max_delay"));
        }
        if self.breaker.failure_threshold == 0 {
            return Err(invalid("breaker", "failure_threshold must be at least 1"));
        }
        Ok(())
    }

    /// The chat-completions endpoint.
    pub fn endpoint(&self) -> String {
        format!("{}/chat/completions", self.base_url)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lookup<'a>(pairs: &'a [(&'a str, &'a str)]) -> impl Fn(&str) -> Option<String> + 'a {
        move |name| pairs.iter().find(|(k, _)| *k == name).map(|(_, v)| v.to_string())
    }

    #[test]
    fn environment_gives_url_model_and_key_with_defaults() {
        let e = LlmConfig::from_lookup(lookup(&[])).unwrap_err();
        assert!(matches!(e, ConfigError::NotConfigured), "{e}");
        assert!(e.to_string().contains(ENV_BASE_URL) && !e.to_string().contains('\n'), "{e}");
        let e = LlmConfig::from_lookup(lookup(&[(ENV_BASE_URL, " "), (ENV_MODEL, "m")])).unwrap_err();
        assert!(matches!(e, ConfigError::NotConfigured), "{e}");
        let c = LlmConfig::from_lookup(lookup(&[(ENV_API_KEY, "sk-1")])).unwrap();
        assert_eq!(c.base_url, DEFAULT_BASE_URL);
        let c = LlmConfig::from_lookup(lookup(&[(ENV_BASE_URL, "http://127.0.0.1:1/v1")])).unwrap();
        assert_eq!(c.model, DEFAULT_MODEL);
        assert!(c.api_key.is_none());
        let c = LlmConfig::from_lookup(lookup(&[
            (ENV_BASE_URL, "http://127.0.0.1:8080/v1/"),
            (ENV_MODEL, "llama-3"),
            (ENV_API_KEY, "sk-abc"),
        ]))
        .unwrap();
        assert_eq!(c.base_url, "http://127.0.0.1:8080/v1");
        assert_eq!(c.endpoint(), "http://127.0.0.1:8080/v1/chat/completions");
        assert_eq!(c.model, "llama-3");
        assert_eq!(c.api_key.as_ref().map(Secret::expose), Some("sk-abc"));
        assert!(!format!("{c:?}").contains("sk-abc"));
    }

    #[test]
    fn bad_values_are_refused_with_the_field_name() {
        for (pairs, field) in [
            (vec![(ENV_BASE_URL, "not a url")], "base_url"),
            (vec![(ENV_BASE_URL, "ftp://host/v1")], "base_url"),
            (vec![(ENV_BASE_URL, "https://host/v1?key=x")], "base_url"),
            (vec![(ENV_BASE_URL, "https://user:sk@host/v1")], "base_url"),
        ] {
            let e = LlmConfig::from_lookup(lookup(&pairs)).unwrap_err();
            assert!(e.to_string().contains(field), "{e}");
        }
        let mut c = LlmConfig::new("http://h/v1", "m");
        c.sampling.temperature = 3.0;
        assert!(c.validate().unwrap_err().to_string().contains("temperature"));
        let mut c = LlmConfig::new("http://h/v1", "m");
        c.sampling.top_p = 0.0;
        assert!(c.validate().unwrap_err().to_string().contains("top_p"));
        let mut c = LlmConfig::new("http://h/v1", " ");
        assert!(c.validate().unwrap_err().to_string().contains("model"));
    }

    #[test]
    fn sampling_canonical_text_is_stable() {
        assert_eq!(Sampling::default().canonical(), "t=0;mt=1024;tp=1");
        let s = Sampling { temperature: 0.70, max_tokens: 64, top_p: 0.95 };
        assert_eq!(s.canonical(), "t=0.7;mt=64;tp=0.95");
    }
}
