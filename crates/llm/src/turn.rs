//! One turn through the model: the compact observation and the plausible
//! actions go in, a strict JSON action sequence comes out.
//!
//! The question is the observation's text form (`pf1e_engine::observe`),
//! then the numbered plausible actions; the system prompt is the pack's
//! `turn` prompt followed by the JSON schema of an answer, generated from
//! the engine's names. The answer `{"actions": [...]}` is checked
//! structurally (known kinds, names and ids, at most [`MAX_TURN_ACTIONS`]
//! actions); an invalid one gets the bounded repair of [`crate::repair`].
//! Whether an action is legal is not checked here: the engine plays it or
//! refuses it, as it does for every policy.

use pf1e_engine::combat::{ActionKind, Metamagic};
use pf1e_engine::effects::{ConditionId, Maneuver};
use pf1e_engine::feats::{Deed, Hex};
use pf1e_engine::observe::action::READY_TRIGGERS;
use pf1e_engine::observe::{ActionSpec, OBSERVATION_SCHEMA_VERSION};
use serde_json::{Value, json};

use crate::client::{ChatModel, ChatRequest};
use crate::pack::{Example, PackError, PromptPack, PromptVersion};
use crate::repair::{
    Answered, DEFAULT_MAX_REPAIRS, RepairCounters, RepairError, RepairStats, ask_with_repair, parse_json,
};
use crate::task::TaskPrompt;
use crate::wire::ResponseFormat;

/// Most actions one answer may hold.
pub const MAX_TURN_ACTIONS: usize = 6;

/// The action kinds a model may ask for on its turn (the generic swift,
/// free, full-round and out-of-turn immediate kinds are not choices).
pub fn turn_kinds() -> Vec<&'static str> {
    ActionKind::ALL
        .iter()
        .filter(|k| {
            !matches!(k, ActionKind::Swift | ActionKind::Free | ActionKind::FullRound | ActionKind::Immediate)
        })
        .map(|k| k.name())
        .collect()
}

/// The names of the hexes and deeds an action may use.
fn ability_names() -> Vec<&'static str> {
    Hex::ALL.iter().map(|h| h.name()).chain(Deed::ALL.iter().map(|d| d.name())).collect()
}

/// The JSON schema of one action, from the engine's names.
pub fn action_schema() -> Value {
    let pair = |min: i64, max: Option<i64>, what: &str| {
        let mut item = json!({"type": "integer", "minimum": min});
        if let Some(max) = max {
            item["maximum"] = json!(max);
        }
        json!({"type": "array", "items": item, "minItems": 2, "maxItems": 2, "description": what})
    };
    json!({
        "type": "object",
        "properties": {
            "kind": {"type": "string", "enum": turn_kinds()},
            "target": {"type": "string", "description": "id of the combatant aimed at"},
            "destination": pair(0, None, "[row, col] of the square to move to"),
            "weapon": {"type": "integer", "minimum": 0, "description": "index of the attack to use"},
            "maneuver": {"type": "string", "enum": Maneuver::ALL.iter().map(|m| m.name()).collect::<Vec<_>>()},
            "aid_mode": {"type": "string", "enum": ["attack", "ac"]},
            "trigger": {"type": "string", "enum": READY_TRIGGERS.iter().map(|t| t.name()).collect::<Vec<_>>()},
            "direction": pair(-1, Some(1), "[row, col] step of a bull rush or reposition"),
            "trick": {"type": "string", "enum": ConditionId::ALL.iter().map(|c| c.name()).collect::<Vec<_>>()},
            "spell": {"type": "string", "description": "identifier of a spell the observation's `spells` lines list, for cast_spell and spell_combat"},
            "metamagic": {
                "type": "array",
                "items": {"type": "string", "enum": Metamagic::NAMED.iter().map(|(_, n)| *n).collect::<Vec<_>>()},
                "uniqueItems": true,
                "description": "metamagic feats of the `magic` line applied to the spell (each raises the slot)"
            },
            "defensive": {"type": "boolean", "description": "cast defensively: no attack of opportunity, a concentration check"},
            "ability": {"type": "string", "enum": ability_names(), "description": "the hex of a `hex`, the deed of a `deed`"},
            "option": {"type": "string", "description": "channel_energy: heal or harm; evil_eye hex: attack, ac or saves; a spell's choice"},
        },
        "required": ["kind"],
        "additionalProperties": false,
    })
}

/// The JSON schema of an answer.
pub fn answer_schema() -> Value {
    json!({
        "type": "object",
        "properties": {
            "actions": {"type": "array", "items": action_schema(), "minItems": 1, "maxItems": MAX_TURN_ACTIONS},
        },
        "required": ["actions"],
        "additionalProperties": false,
    })
}

/// Reads an answer: `{"actions": [...]}` with 1 to [`MAX_TURN_ACTIONS`]
/// actions, each checked by `resolve` (names and ids); every problem is
/// listed with its place.
pub fn parse_actions(
    value: &Value,
    resolve: impl Fn(&ActionSpec) -> Result<(), String>,
) -> Result<Vec<ActionSpec>, Vec<String>> {
    let Some(object) = value.as_object() else {
        return Err(vec!["the answer: expected {\"actions\": [...]}".into()]);
    };
    if let Some(key) = object.keys().find(|k| *k != "actions") {
        return Err(vec![format!("{key}: unknown key (the answer holds only \"actions\")")]);
    }
    let Some(items) = object.get("actions").and_then(Value::as_array) else {
        return Err(vec!["actions: expected an array of actions".into()]);
    };
    if items.is_empty() || items.len() > MAX_TURN_ACTIONS {
        return Err(vec![format!("actions: expected 1 to {MAX_TURN_ACTIONS} actions, got {}", items.len())]);
    }
    let mut problems = Vec::new();
    let mut actions = Vec::new();
    for (k, item) in items.iter().enumerate() {
        match serde_path_to_error::deserialize::<_, ActionSpec>(item) {
            Ok(spec) => match resolve(&spec) {
                Ok(()) => actions.push(spec),
                Err(p) => problems.push(format!("actions[{k}].{p}")),
            },
            Err(e) => {
                let path = e.path().to_string();
                let at = if path == "." { String::new() } else { format!(".{path}") };
                problems.push(format!("actions[{k}]{at}: {}", e.inner()));
            }
        }
    }
    if problems.is_empty() { Ok(actions) } else { Err(problems) }
}

/// The question of one turn.
fn question(observation: &str, candidates: &[ActionSpec]) -> String {
    let mut q = format!("## observation\n{}\n## plausible actions\n", observation.trim_end());
    for (k, c) in candidates.iter().enumerate() {
        q.push_str(&format!("{}. {}\n", k + 1, sorted_json(c)));
    }
    q
}

/// JSON with sorted keys (the map type of `serde_json::Value` sorts them).
pub(crate) fn sorted_json<T: serde::Serialize>(value: &T) -> String {
    serde_json::to_value(value).map(|v| v.to_string()).unwrap_or_default()
}

/// Asks the model for turns with the pack's `turn` prompt.
#[derive(Debug)]
pub struct TurnPlayer {
    prompt: TaskPrompt,
    max_repairs: u32,
    counters: RepairCounters,
}

impl TurnPlayer {
    /// A player using the pack's `turn` and `repair` prompts; an example is
    /// `{"input": {"observation": <text>, "candidates": [<action>…]},
    /// "output": {"actions": [<action>…]}}`.
    pub fn new(pack: &PromptPack) -> Result<Self, PackError> {
        let schema = serde_json::to_string_pretty(&answer_schema()).unwrap_or_default();
        let prompt = TaskPrompt::new(pack, crate::TURN_PROMPT, &[("answer schema", schema)], shot)?;
        Ok(Self { prompt, max_repairs: DEFAULT_MAX_REPAIRS, counters: RepairCounters::default() })
    }

    /// Sets the number of repairs after an invalid answer.
    pub fn with_max_repairs(mut self, max_repairs: u32) -> Self {
        self.max_repairs = max_repairs.min(crate::repair::MAX_REPAIRS);
        self
    }

    /// Repairs allowed after an invalid answer.
    pub fn max_repairs(&self) -> u32 {
        self.max_repairs
    }

    /// The prompt version turns use.
    pub fn prompt_version(&self) -> &PromptVersion {
        &self.prompt.version
    }

    /// The counters so far (a fallback is recorded by the caller).
    pub fn stats(&self) -> RepairStats {
        self.counters.snapshot()
    }

    /// Records that a turn was played by the fallback policy.
    pub fn record_fallback(&self) {
        self.counters.record_fallback();
    }

    /// The first request of a turn (repairs extend it).
    pub fn request(&self, observation: &str, candidates: &[ActionSpec]) -> ChatRequest {
        let format = ResponseFormat::JsonSchema { name: "turn_actions".into(), schema: answer_schema() };
        self.prompt.request(question(observation, candidates), OBSERVATION_SCHEMA_VERSION, format)
    }

    /// Asks for the actions of a turn; `resolve` checks that an action's
    /// names and ids exist in the battle.
    pub async fn choose<M: ChatModel>(
        &self,
        model: &M,
        observation: &str,
        candidates: &[ActionSpec],
        resolve: impl Fn(&ActionSpec) -> Result<(), String>,
    ) -> Result<Answered<Vec<ActionSpec>>, RepairError> {
        let request = self.request(observation, candidates);
        let check = |text: &str| parse_actions(&parse_json(text)?, &resolve);
        ask_with_repair(model, request, &self.prompt.repair, self.max_repairs, &self.counters, check).await
    }
}

fn shot(example: &Example) -> Result<(String, String), String> {
    let input =
        example.input.as_object().ok_or("input: expected {\"observation\": …, \"candidates\": […]}")?;
    if let Some(key) = input.keys().find(|k| !matches!(k.as_str(), "observation" | "candidates")) {
        return Err(format!("input.{key}: unknown key (expected observation and candidates)"));
    }
    let observation = input
        .get("observation")
        .and_then(Value::as_str)
        .filter(|o| o.starts_with("schema_version="))
        .ok_or("input.observation: expected an observation text starting with schema_version=")?;
    let candidates: Vec<ActionSpec> =
        serde_json::from_value(input.get("candidates").cloned().unwrap_or(Value::Array(Vec::new())))
            .map_err(|e| format!("input.candidates: {e}"))?;
    let kinds = turn_kinds();
    let known = |a: &ActionSpec| {
        if kinds.contains(&a.kind.as_str()) {
            Ok(())
        } else {
            Err(format!("kind: unknown action kind {:?}", a.kind))
        }
    };
    let actions = parse_actions(&example.output, known).map_err(|p| format!("output: {}", p.join("; ")))?;
    Ok((question(observation, &candidates), sorted_json(&json!({"actions": actions}))))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_schema_lists_the_engine_kinds_a_turn_may_use() {
        let schema = answer_schema();
        let kinds =
            schema["properties"]["actions"]["items"]["properties"]["kind"]["enum"].as_array().unwrap();
        assert!(kinds.contains(&json!("full_attack")) && kinds.contains(&json!("5foot_step")));
        assert!(!kinds.contains(&json!("immediate")) && !kinds.contains(&json!("swift")));
        assert!(kinds.contains(&json!("cast_spell")) && kinds.contains(&json!("channel_energy")));
        let fields = &schema["properties"]["actions"]["items"]["properties"];
        assert!(fields["metamagic"]["items"]["enum"].as_array().unwrap().contains(&json!("quicken")));
        let abilities = fields["ability"]["enum"].as_array().unwrap();
        assert!(abilities.contains(&json!("evil_eye")) && abilities.contains(&json!("deadeye")));
        assert_eq!(fields["spell"]["type"], "string");
        assert_eq!(schema["properties"]["actions"]["maxItems"], MAX_TURN_ACTIONS);
    }

    #[test]
    fn answers_are_checked_and_every_problem_has_its_place() {
        let ok = |_: &ActionSpec| Ok(());
        let a = parse_actions(&json!({"actions": [{"kind": "attack", "target": "orc"}]}), ok).unwrap();
        assert_eq!(a[0].target.as_deref(), Some("orc"));
        let no_orc = |s: &ActionSpec| {
            if s.target.as_deref() == Some("orc") { Err("target: no orc".into()) } else { Ok(()) }
        };
        let p = parse_actions(
            &json!({"actions": [{"kind": "move"}, {"kind": "attack", "target": "orc"}, {"kind": "attack", "spel": 1}]}),
            no_orc,
        )
        .unwrap_err();
        assert_eq!(p.len(), 2, "{p:?}");
        assert_eq!(p[0], "actions[1].target: no orc");
        assert!(p[1].starts_with("actions[2].spel: unknown field `spel`"), "{p:?}");
        assert!(
            parse_actions(&json!([{"kind": "move"}]), ok).unwrap_err()[0].contains("expected {\"actions\"")
        );
        assert!(parse_actions(&json!({"actions": []}), ok).unwrap_err()[0].contains("1 to 6"));
        assert!(
            parse_actions(&json!({"actions": [{"kind": "move"}], "why": "x"}), ok).unwrap_err()[0]
                .contains("why")
        );
    }
}
