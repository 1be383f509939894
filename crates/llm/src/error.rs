//! The client's error taxonomy.
//!
//! - [`LlmError::Transient`]: 429, 5xx, timeouts, connection errors — retried
//!   with exponential backoff and jitter (honouring `Retry-After`) before
//!   being reported;
//! - [`LlmError::Rejected`]: any other 4xx — never retried;
//! - [`LlmError::BadResponse`]: a 2xx whose body is unusable;
//! - [`LlmError::CircuitOpen`], [`LlmError::BudgetExhausted`],
//!   [`LlmError::Cache`]: refused or failed before or after the HTTP call.
//!
//! No message ever contains the API key: text that comes from elsewhere (a
//! server's body, a transport error) is scrubbed first.

use std::time::Duration;

use crate::breaker::CircuitOpen;
use crate::budget::BudgetExhausted;
use crate::cache::CacheError;

/// A failure worth retrying.
#[derive(Debug, thiserror::Error)]
pub enum TransientError {
    /// HTTP 429.
    #[error("HTTP 429 Too Many Requests{}", retry_after_text(*retry_after))]
    RateLimited {
        /// The server's `Retry-After`, if any.
        retry_after: Option<Duration>,
    },
    /// HTTP 5xx.
    #[error("HTTP {status}{}: {message}", retry_after_text(*retry_after))]
    Server {
        /// The status code.
        status: u16,
        /// The server's `Retry-After`, if any.
        retry_after: Option<Duration>,
        /// The error body's message (scrubbed).
        message: String,
    },
    /// No complete answer within the timeout.
    #[error("no answer within {} s", timeout.as_secs_f64())]
    Timeout {
        /// The configured timeout.
        timeout: Duration,
    },
    /// The connection failed or broke.
    #[error("connection failed: {message}")]
    Connection {
        /// What happened (scrubbed).
        message: String,
    },
}

fn retry_after_text(retry_after: Option<Duration>) -> String {
    retry_after.map(|d| format!(" (Retry-After {} s)", d.as_secs_f64())).unwrap_or_default()
}

impl TransientError {
    /// The server's requested wait, if any.
    pub fn retry_after(&self) -> Option<Duration> {
        match self {
            TransientError::RateLimited { retry_after } | TransientError::Server { retry_after, .. } => {
                *retry_after
            }
            _ => None,
        }
    }
}

/// Why an LLM call gave no completion.
#[derive(Debug, thiserror::Error)]
pub enum LlmError {
    /// Transient failures persisted through every retry.
    #[error("LLM call to {endpoint} failed after {attempts} attempt(s): {last}")]
    Transient {
        /// The endpoint.
        endpoint: String,
        /// Attempts made.
        attempts: u32,
        /// The last failure.
        #[source]
        last: TransientError,
    },
    /// The server refused the request (4xx other than 429).
    #[error("LLM request rejected by {endpoint}: HTTP {status}: {message}{hint}")]
    Rejected {
        /// The endpoint.
        endpoint: String,
        /// The status code.
        status: u16,
        /// The error body's message (scrubbed).
        message: String,
        /// A hint for a missing key (401/403 without `PF1E_LLM_API_KEY`).
        hint: String,
    },
    /// A 2xx whose body is not a usable chat completion.
    #[error("LLM response from {endpoint} is unusable: {problem}")]
    BadResponse {
        /// The endpoint.
        endpoint: String,
        /// What is wrong, with its JSON path.
        problem: String,
    },
    /// The circuit breaker refused the call.
    #[error(transparent)]
    CircuitOpen(#[from] CircuitOpen),
    /// The budget refused the call.
    #[error(transparent)]
    BudgetExhausted(#[from] BudgetExhausted),
    /// The response cache failed.
    #[error(transparent)]
    Cache(#[from] CacheError),
}

impl LlmError {
    /// Whether this is a transient failure (after its retries).
    pub fn is_transient(&self) -> bool {
        matches!(self, LlmError::Transient { .. })
    }
}
