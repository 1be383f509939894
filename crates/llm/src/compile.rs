//! Natural language to strategy: "focus their healer, fall back below 30 %"
//! becomes the engine spec `healer, retreat=0.3`.
//!
//! The model answers the spec in the sweep file's map form, checked against
//! the lever schema ([`crate::levers`]); an invalid answer gets one bounded
//! repair (`max_repairs`, default 1), then the compilation fails with a clear
//! error. The answer is cached like every completion: a sentence compiled
//! once is compiled again without calling the model.

use pf1e_engine::strategy::StrategySpec;
use serde_json::Value;

use crate::client::{ChatModel, ChatRequest};
use crate::error::LlmError;
use crate::levers::{
    LEVER_SCHEMA_VERSION, Lever, describe_levers, lever_table, spec_from_levers, spec_schema,
};
use crate::pack::{Example, PackError, PromptPack, PromptVersion};
use crate::repair::{
    DEFAULT_MAX_REPAIRS, RepairCounters, RepairError, RepairStats, ask_with_repair, parse_json,
};
use crate::task::{Side, TaskPrompt};
use crate::wire::ResponseFormat;

/// Name of the pack prompt that compiles a sentence.
pub const STRATEGY_PROMPT: &str = "strategy_compile";

/// A compiled sentence.
#[derive(Clone, Debug, PartialEq)]
pub struct CompiledStrategy {
    /// The sentence.
    pub sentence: String,
    /// The side it was compiled for.
    pub side: Side,
    /// The engine spec.
    pub spec: StrategySpec,
    /// Its canonical name (what reports show).
    pub name: String,
    /// The model's valid answer (map form).
    pub levers: Value,
    /// The prompt version it was compiled with.
    pub prompt_version: String,
    /// The model's name.
    pub model: String,
    /// Answers read (1 without repair).
    pub attempts: u32,
    /// Whether every answer came from the cache.
    pub cached: bool,
}

/// Why a sentence did not compile.
#[derive(Debug, thiserror::Error)]
pub enum CompileError {
    /// The sentence is empty.
    #[error("strategy: the sentence to compile is empty")]
    Empty,
    /// The model could not be asked.
    #[error("strategy {sentence:?}: {source}")]
    Llm {
        /// The sentence.
        sentence: String,
        /// The client's error.
        #[source]
        source: LlmError,
    },
    /// The model's answers stayed invalid.
    #[error(
        "strategy {sentence:?}: the model's answer is not a valid strategy after {attempts} attempt(s): {}",
        problems.join("; ")
    )]
    Invalid {
        /// The sentence.
        sentence: String,
        /// Answers read.
        attempts: u32,
        /// The last answer's problems.
        problems: Vec<String>,
        /// The last answer.
        answer: String,
    },
}

/// Compiles sentences into strategy specs.
#[derive(Debug)]
pub struct StrategyCompiler {
    prompt: TaskPrompt,
    table: Vec<Lever>,
    schema: Value,
    max_repairs: u32,
    counters: RepairCounters,
}

/// The question for one sentence.
fn question(side: Side, sentence: &str) -> String {
    format!("side: {side}\nrequest: {}", sentence.trim())
}

impl StrategyCompiler {
    /// A compiler using the pack's `strategy_compile` and `repair` prompts;
    /// every example must be `{"input": {"side": …, "request": …}, "output":
    /// <valid map form>}`.
    pub fn new(pack: &PromptPack) -> Result<Self, PackError> {
        let table = lever_table();
        let schema = spec_schema(&table);
        let pretty_schema = serde_json::to_string_pretty(&schema).unwrap_or_default();
        let sections = [("levers", describe_levers(&table)), ("answer schema", pretty_schema)];
        let prompt = TaskPrompt::new(pack, STRATEGY_PROMPT, &sections, |example| shot(&table, example))?;
        Ok(Self {
            prompt,
            table,
            schema,
            max_repairs: DEFAULT_MAX_REPAIRS,
            counters: RepairCounters::default(),
        })
    }

    /// Sets the number of repairs after an invalid answer.
    pub fn with_max_repairs(mut self, max_repairs: u32) -> Self {
        self.max_repairs = max_repairs.min(crate::repair::MAX_REPAIRS);
        self
    }

    /// The prompt version compilations use.
    pub fn prompt_version(&self) -> &PromptVersion {
        &self.prompt.version
    }

    /// The counters so far.
    pub fn stats(&self) -> RepairStats {
        self.counters.snapshot()
    }

    /// The first request for `sentence` (repairs extend it).
    pub fn request(&self, side: Side, sentence: &str) -> ChatRequest {
        let format = ResponseFormat::JsonSchema { name: "strategy_spec".into(), schema: self.schema.clone() };
        self.prompt.request(question(side, sentence), LEVER_SCHEMA_VERSION, format)
    }

    /// Compiles `sentence` for `side`.
    pub async fn compile<M: ChatModel>(
        &self,
        model: &M,
        side: Side,
        sentence: &str,
    ) -> Result<CompiledStrategy, CompileError> {
        if sentence.trim().is_empty() {
            return Err(CompileError::Empty);
        }
        let request = self.request(side, sentence);
        let check = |text: &str| {
            let value = parse_json(text)?;
            spec_from_levers(&self.table, &value, "").map(|spec| (spec, value))
        };
        let answered =
            ask_with_repair(model, request, &self.prompt.repair, self.max_repairs, &self.counters, check)
                .await
                .map_err(|e| match e {
                    RepairError::Llm { source, .. } => {
                        CompileError::Llm { sentence: sentence.to_string(), source }
                    }
                    RepairError::Invalid { attempts, problems, answer } => {
                        CompileError::Invalid { sentence: sentence.to_string(), attempts, problems, answer }
                    }
                })?;
        let (spec, levers) = answered.value;
        Ok(CompiledStrategy {
            sentence: sentence.to_string(),
            side,
            name: spec.name(),
            spec,
            levers,
            prompt_version: self.prompt.version.to_string(),
            model: model.model_name().to_string(),
            attempts: answered.attempts,
            cached: answered.cached,
        })
    }
}

/// One example as (question, answer).
fn shot(table: &[Lever], example: &Example) -> Result<(String, String), String> {
    let input = example.input.as_object().ok_or("input: expected {\"side\": …, \"request\": …}")?;
    if let Some(key) = input.keys().find(|k| !matches!(k.as_str(), "side" | "request")) {
        return Err(format!("input.{key}: unknown key (expected side and request)"));
    }
    let side = input
        .get("side")
        .and_then(Value::as_str)
        .and_then(Side::from_name)
        .ok_or("input.side: expected \"party\" or \"adversary\"")?;
    let request = input
        .get("request")
        .and_then(Value::as_str)
        .filter(|r| !r.trim().is_empty())
        .ok_or("input.request: expected a non-empty sentence")?;
    spec_from_levers(table, &example.output, "output").map_err(|p| p.join("; "))?;
    Ok((question(side, request), example.output.to_string()))
}
