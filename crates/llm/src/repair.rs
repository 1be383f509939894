//! Ask, check, and repair: the model's answer is checked; on a problem the
//! model gets its answer and the list of problems back and answers again, at
//! most `max_repairs` times; then the failure is reported (the caller
//! decides between a clear error and a recorded fallback).
//!
//! Each repair is a new request (the conversation plus the invalid answer
//! and the problems), so it is cached like any other: a rerun replays the
//! same answers and repairs without calling the model.

use std::sync::Mutex;

use serde_json::Value;

use crate::client::{ChatModel, ChatRequest};
use crate::error::LlmError;
use crate::wire::Message;

/// Default number of repairs after an invalid answer.
pub const DEFAULT_MAX_REPAIRS: u32 = 1;

/// The most repairs a task asks for, whatever it is given: each repair
/// resends the conversation so far, so an unbounded count is unbounded
/// cost.
pub const MAX_REPAIRS: u32 = 5;

/// The most characters of an invalid answer sent back in a repair request
/// or kept in an error.
const MAX_ECHOED_ANSWER: usize = 4000;

/// `text` cut to `max` characters, saying so.
fn bounded(text: &str, max: usize) -> String {
    if text.chars().count() <= max {
        return text.to_string();
    }
    let mut out: String = text.chars().take(max).collect();
    out.push_str(" […cut]");
    out
}

/// Counters of a task that asks with repair.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct RepairStats {
    /// Model answers asked for (first answers and repairs).
    pub calls: u64,
    /// Repairs asked for.
    pub repairs_attempted: u64,
    /// Questions whose answer became valid through a repair.
    pub repairs_succeeded: u64,
    /// Questions answered by a fallback after the repairs failed.
    pub fallbacks: u64,
}

/// Shared [`RepairStats`].
#[derive(Debug, Default)]
pub struct RepairCounters(Mutex<RepairStats>);

impl RepairCounters {
    /// The counts so far.
    pub fn snapshot(&self) -> RepairStats {
        *self.0.lock().unwrap_or_else(|p| p.into_inner())
    }

    fn update(&self, f: impl FnOnce(&mut RepairStats)) {
        f(&mut self.0.lock().unwrap_or_else(|p| p.into_inner()));
    }

    /// Records that a failed question was answered by a fallback.
    pub fn record_fallback(&self) {
        self.update(|s| s.fallbacks += 1);
    }
}

/// A valid answer.
#[derive(Clone, Debug, PartialEq)]
pub struct Answered<T> {
    /// What the answer said.
    pub value: T,
    /// The answer's text (the valid one).
    pub text: String,
    /// Answers read (1 without repair).
    pub attempts: u32,
    /// Whether every answer came from the cache.
    pub cached: bool,
}

/// No valid answer.
#[derive(Debug, thiserror::Error)]
pub enum RepairError {
    /// The model could not be asked.
    #[error("{source}")]
    Llm {
        /// Answers read before the failure.
        attempts: u32,
        /// The client's error.
        #[source]
        source: LlmError,
    },
    /// The answers stayed invalid.
    #[error("the model's answer is still invalid after {attempts} attempt(s): {}", problems.join("; "))]
    Invalid {
        /// Answers read.
        attempts: u32,
        /// The last answer's problems.
        problems: Vec<String>,
        /// The last answer.
        answer: String,
    },
}

/// Parses an answer as JSON, as a problem list on failure.
pub fn parse_json(text: &str) -> Result<Value, Vec<String>> {
    serde_json::from_str(text).map_err(|e| vec![format!("the answer is not valid JSON: {e}")])
}

/// Asks `request`, checks the answer with `check`, and repairs up to
/// `max_repairs` times with `instruction` (the pack's repair prompt)
/// followed by the problems.
pub async fn ask_with_repair<M: ChatModel, T>(
    model: &M,
    mut request: ChatRequest,
    instruction: &str,
    max_repairs: u32,
    counters: &RepairCounters,
    check: impl Fn(&str) -> Result<T, Vec<String>>,
) -> Result<Answered<T>, RepairError> {
    let max_repairs = max_repairs.min(MAX_REPAIRS);
    let mut attempts = 0u32;
    let mut cached = true;
    loop {
        if attempts > 0 {
            counters.update(|s| s.repairs_attempted += 1);
        }
        counters.update(|s| s.calls += 1);
        let completion =
            model.complete(&request).await.map_err(|source| RepairError::Llm { attempts, source })?;
        attempts += 1;
        cached &= completion.cached;
        match check(&completion.text) {
            Ok(value) => {
                if attempts > 1 {
                    counters.update(|s| s.repairs_succeeded += 1);
                }
                return Ok(Answered { value, text: completion.text, attempts, cached });
            }
            Err(mut problems) => {
                if completion.finish_reason.as_deref() == Some("length") {
                    problems.push("the answer was cut off at max_tokens: answer shorter".into());
                }
                if attempts > max_repairs {
                    let answer = bounded(&completion.text, MAX_ECHOED_ANSWER);
                    return Err(RepairError::Invalid { attempts, problems, answer });
                }
                let list: Vec<String> = problems.iter().map(|p| format!("- {p}")).collect();
                // The invalid answer goes back bounded: the model needs its
                // start to see the problem, not megabytes of it.
                request.messages.push(Message::assistant(bounded(&completion.text, MAX_ECHOED_ANSWER)));
                request.messages.push(Message::user(format!(
                    "{}\n\n{}",
                    instruction.trim_end(),
                    list.join("\n")
                )));
            }
        }
    }
}
