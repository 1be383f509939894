//! The hypothesis generator and the red team: ask the model for N varied
//! strategy specs for one side of an encounter, check them, and drop those
//! whose canonical name is already known or repeated.
//!
//! The answer is `{"specs": [<map form>, …]}` with 1 to N specs; an invalid
//! answer gets the bounded repair of [`crate::repair`].

use pf1e_engine::strategy::StrategySpec;
use serde_json::{Value, json};

use crate::brief::EncounterBrief;
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

/// Name of the pack prompt proposing party strategies.
pub const CANDIDATES_PROMPT: &str = "candidates";
/// Name of the pack prompt proposing adversary strategies.
pub const RED_TEAM_PROMPT: &str = "red_team";
/// The most specs one request may ask for.
pub const MAX_PROPOSALS: usize = 20;

/// The new specs of one proposal.
#[derive(Clone, Debug, PartialEq)]
pub struct Proposals {
    /// New distinct specs, in the model's order.
    pub specs: Vec<StrategySpec>,
    /// Canonical names proposed again (already known or repeated), dropped.
    pub duplicates: Vec<String>,
    /// The prompt version used.
    pub prompt_version: String,
    /// The model's name.
    pub model: String,
    /// Answers read (1 without repair).
    pub attempts: u32,
    /// Whether every answer came from the cache.
    pub cached: bool,
}

/// Why no proposal came.
#[derive(Debug, thiserror::Error)]
pub enum ProposeError {
    /// The count is 0 or above [`MAX_PROPOSALS`].
    #[error("{prompt}: asked for {count} strategies; ask for 1 to {MAX_PROPOSALS}")]
    Count {
        /// The prompt's name.
        prompt: &'static str,
        /// The count asked.
        count: usize,
    },
    /// The model could not be asked.
    #[error("{prompt}: {source}")]
    Llm {
        /// The prompt's name.
        prompt: &'static str,
        /// The client's error.
        #[source]
        source: LlmError,
    },
    /// The model's answers stayed invalid.
    #[error("{prompt}: the model's answer is not a valid list of strategies after {attempts} attempt(s): {}", problems.join("; "))]
    Invalid {
        /// The prompt's name.
        prompt: &'static str,
        /// Answers read.
        attempts: u32,
        /// The last answer's problems.
        problems: Vec<String>,
        /// The last answer.
        answer: String,
    },
}

/// Proposes specs for one side.
#[derive(Debug)]
pub struct SpecProposer {
    prompt_name: &'static str,
    prompt: TaskPrompt,
    side: Side,
    table: Vec<Lever>,
    max_repairs: u32,
    counters: RepairCounters,
}

fn question(side: Side, count: usize, encounter: &str, known: &[String]) -> String {
    let known = if known.is_empty() { "none".to_string() } else { known.join("; ") };
    format!("side: {side}\ncount: {count}\nknown strategies: {known}\nencounter:\n{}", encounter.trim_end())
}

impl SpecProposer {
    /// Party candidates for the optimizer (pack prompt `candidates`).
    pub fn candidates(pack: &PromptPack) -> Result<Self, PackError> {
        Self::new(pack, CANDIDATES_PROMPT, Side::Party)
    }

    /// Adversary specs for the red team (pack prompt `red_team`).
    pub fn red_team(pack: &PromptPack) -> Result<Self, PackError> {
        Self::new(pack, RED_TEAM_PROMPT, Side::Adversary)
    }

    fn new(pack: &PromptPack, prompt_name: &'static str, side: Side) -> Result<Self, PackError> {
        let table = lever_table();
        let schema = serde_json::to_string_pretty(&spec_schema(&table)).unwrap_or_default();
        let sections = [("levers", describe_levers(&table)), ("schema of one strategy", schema)];
        let prompt = TaskPrompt::new(pack, prompt_name, &sections, |example| shot(&table, side, example))?;
        Ok(Self {
            prompt_name,
            prompt,
            side,
            table,
            max_repairs: DEFAULT_MAX_REPAIRS,
            counters: RepairCounters::default(),
        })
    }

    /// Sets the number of repairs after an invalid answer.
    pub fn with_max_repairs(mut self, max_repairs: u32) -> Self {
        self.max_repairs = max_repairs.min(crate::repair::MAX_REPAIRS);
        self
    }

    /// The side it proposes for.
    pub fn side(&self) -> Side {
        self.side
    }

    /// The prompt version used.
    pub fn prompt_version(&self) -> &PromptVersion {
        &self.prompt.version
    }

    /// The counters so far.
    pub fn stats(&self) -> RepairStats {
        self.counters.snapshot()
    }

    /// The first request for `count` specs (repairs extend it).
    pub fn request(
        &self,
        count: usize,
        encounter: &EncounterBrief,
        known: &[StrategySpec],
    ) -> Result<ChatRequest, ProposeError> {
        if count == 0 || count > MAX_PROPOSALS {
            return Err(ProposeError::Count { prompt: self.prompt_name, count });
        }
        let known: Vec<String> = known.iter().map(StrategySpec::name).collect();
        let schema = json!({
            "type": "object",
            "properties": {"specs": {"type": "array", "items": spec_schema(&self.table), "minItems": 1, "maxItems": count}},
            "required": ["specs"],
            "additionalProperties": false,
        });
        let format = ResponseFormat::JsonSchema { name: "strategy_specs".into(), schema };
        Ok(self.prompt.request(
            question(self.side, count, &encounter.render(), &known),
            LEVER_SCHEMA_VERSION,
            format,
        ))
    }

    /// Asks for `count` specs for `encounter`; `known` specs are named in
    /// the question and dropped from the answer.
    pub async fn propose<M: ChatModel>(
        &self,
        model: &M,
        count: usize,
        encounter: &EncounterBrief,
        known: &[StrategySpec],
    ) -> Result<Proposals, ProposeError> {
        let request = self.request(count, encounter, known)?;
        let check = |text: &str| specs_from_answer(&self.table, &parse_json(text)?, count);
        let prompt = self.prompt_name;
        let answered =
            ask_with_repair(model, request, &self.prompt.repair, self.max_repairs, &self.counters, check)
                .await
                .map_err(|e| match e {
                    RepairError::Llm { source, .. } => ProposeError::Llm { prompt, source },
                    RepairError::Invalid { attempts, problems, answer } => {
                        ProposeError::Invalid { prompt, attempts, problems, answer }
                    }
                })?;
        let mut seen: Vec<String> = known.iter().map(StrategySpec::name).collect();
        let mut specs = Vec::new();
        let mut duplicates = Vec::new();
        for spec in answered.value {
            let name = spec.name();
            if seen.contains(&name) {
                duplicates.push(name);
            } else {
                seen.push(name);
                specs.push(spec);
            }
        }
        Ok(Proposals {
            specs,
            duplicates,
            prompt_version: self.prompt.version.to_string(),
            model: model.model_name().to_string(),
            attempts: answered.attempts,
            cached: answered.cached,
        })
    }
}

/// Reads `{"specs": [...]}` with 1 to `count` valid specs.
fn specs_from_answer(table: &[Lever], value: &Value, count: usize) -> Result<Vec<StrategySpec>, Vec<String>> {
    let Some(map) = value.as_object() else {
        return Err(vec!["the answer: expected a JSON object {\"specs\": [...]}".into()]);
    };
    let mut problems: Vec<String> = map
        .keys()
        .filter(|k| *k != "specs")
        .map(|k| format!("{k}: unknown key (expected only specs)"))
        .collect();
    let Some(items) = map.get("specs").and_then(Value::as_array) else {
        problems.push("specs: expected an array of strategies".into());
        return Err(problems);
    };
    if items.is_empty() || items.len() > count {
        problems.push(format!("specs: expected 1 to {count} strategies, got {}", items.len()));
    }
    let mut specs = Vec::new();
    for (i, item) in items.iter().enumerate() {
        match spec_from_levers(table, item, &format!("specs[{i}]")) {
            Ok(spec) => specs.push(spec),
            Err(p) => problems.extend(p),
        }
    }
    if problems.is_empty() { Ok(specs) } else { Err(problems) }
}

/// One example as (question, answer).
fn shot(table: &[Lever], side: Side, example: &Example) -> Result<(String, String), String> {
    let input = example.input.as_object().ok_or("input: expected {\"count\", \"encounter\", \"known\"}")?;
    if let Some(key) = input.keys().find(|k| !matches!(k.as_str(), "count" | "encounter" | "known")) {
        return Err(format!("input.{key}: unknown key (expected count, encounter and known)"));
    }
    let count = input
        .get("count")
        .and_then(Value::as_u64)
        .filter(|c| (1..=MAX_PROPOSALS as u64).contains(c))
        .ok_or(format!("input.count: expected a whole number from 1 to {MAX_PROPOSALS}"))?
        as usize;
    let encounter = input.get("encounter").and_then(Value::as_str).ok_or("input.encounter: expected text")?;
    let known = match input.get("known") {
        None => Vec::new(),
        Some(v) => v
            .as_array()
            .and_then(|a| a.iter().map(|s| s.as_str().map(str::to_string)).collect::<Option<Vec<_>>>())
            .ok_or("input.known: expected an array of strategy names")?,
    };
    specs_from_answer(table, &example.output, count).map_err(|p| format!("output: {}", p.join("; ")))?;
    Ok((question(side, count, encounter, &known), example.output.to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_answer_lists_one_to_count_valid_specs() {
        let table = lever_table();
        let ok = json!({"specs": [{"target": "healer"}, {"retreat": 0.5}]});
        assert_eq!(specs_from_answer(&table, &ok, 2).unwrap().len(), 2);
        let too_many = specs_from_answer(&table, &ok, 1).unwrap_err();
        assert_eq!(too_many, ["specs: expected 1 to 1 strategies, got 2"]);
        let bad = json!({"specs": [{"target": "x"}], "why": "because"});
        let problems = specs_from_answer(&table, &bad, 3).unwrap_err();
        assert!(problems.contains(&"why: unknown key (expected only specs)".to_string()), "{problems:?}");
        assert!(problems.iter().any(|p| p.starts_with("specs[0].target:")), "{problems:?}");
        assert!(specs_from_answer(&table, &json!([]), 3).is_err());
        assert!(specs_from_answer(&table, &json!({"specs": []}), 3).is_err());
    }
}
