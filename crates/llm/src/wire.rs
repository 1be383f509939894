//! The OpenAI chat-completions wire format: request body, response body.

use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use sha2::{Digest, Sha256};

use crate::budget::{TokenUsage, estimate_tokens};
use crate::config::{Sampling, SchemaMode};

/// Who speaks a message.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Role {
    /// Instructions.
    System,
    /// The question (or a few-shot example's question).
    User,
    /// The model (or a few-shot example's answer).
    Assistant,
}

/// One chat message.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Message {
    /// Speaker.
    pub role: Role,
    /// Text.
    pub content: String,
}

impl Message {
    /// A system message.
    pub fn system(content: impl Into<String>) -> Self {
        Self { role: Role::System, content: content.into() }
    }
    /// A user message.
    pub fn user(content: impl Into<String>) -> Self {
        Self { role: Role::User, content: content.into() }
    }
    /// An assistant message.
    pub fn assistant(content: impl Into<String>) -> Self {
        Self { role: Role::Assistant, content: content.into() }
    }
}

/// The answer's expected form.
#[derive(Clone, Debug, PartialEq)]
pub enum ResponseFormat {
    /// Free text (no `response_format`).
    Text,
    /// Any JSON object (`{"type": "json_object"}`).
    JsonObject,
    /// JSON following a schema (`{"type": "json_schema", …}`), or a JSON
    /// object under [`SchemaMode::JsonObject`].
    JsonSchema {
        /// Schema name (`[a-zA-Z0-9_-]`).
        name: String,
        /// The JSON schema.
        schema: Value,
    },
}

impl ResponseFormat {
    /// The `response_format` field sent, if any.
    pub fn wire(&self, mode: SchemaMode) -> Option<Value> {
        match (self, mode) {
            (ResponseFormat::Text, _) => None,
            (ResponseFormat::JsonObject, _) | (ResponseFormat::JsonSchema { .. }, SchemaMode::JsonObject) => {
                Some(json!({"type": "json_object"}))
            }
            (ResponseFormat::JsonSchema { name, schema }, SchemaMode::JsonSchema) => Some(json!({
                "type": "json_schema",
                "json_schema": {"name": name, "schema": schema, "strict": false},
            })),
        }
    }
}

/// The request body of one call.
#[derive(Serialize)]
pub(crate) struct RequestBody<'a> {
    pub model: &'a str,
    pub messages: &'a [Message],
    pub temperature: f64,
    pub max_tokens: u32,
    pub top_p: f64,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub response_format: Option<Value>,
}

impl<'a> RequestBody<'a> {
    pub fn new(
        model: &'a str,
        sampling: Sampling,
        messages: &'a [Message],
        response_format: Option<Value>,
    ) -> Self {
        Self {
            model,
            messages,
            temperature: sampling.temperature,
            max_tokens: sampling.max_tokens,
            top_p: sampling.top_p,
            response_format,
        }
    }

    /// SHA-256 of the rendered prompt: the messages and the response format
    /// as sent (model and sampling are separate key components).
    pub fn prompt_sha256(&self) -> [u8; 32] {
        let rendered = json!({"messages": self.messages, "response_format": self.response_format});
        Sha256::digest(rendered.to_string().as_bytes()).into()
    }

    /// Estimated prompt tokens (for the budget's worst case).
    pub fn estimated_prompt_tokens(&self) -> u64 {
        let text: usize = self.messages.iter().map(|m| m.content.len()).sum::<usize>()
            + self.response_format.as_ref().map_or(0, |f| f.to_string().len());
        (text as u64 / 4).max(1)
    }
}

#[derive(Deserialize)]
struct ResponseBody {
    choices: Vec<Choice>,
    #[serde(default)]
    usage: Option<Usage>,
}

#[derive(Deserialize)]
struct Choice {
    message: ChoiceMessage,
    #[serde(default)]
    finish_reason: Option<String>,
}

#[derive(Deserialize)]
struct ChoiceMessage {
    #[serde(default)]
    content: Option<String>,
    #[serde(default)]
    refusal: Option<String>,
}

#[derive(Deserialize)]
struct Usage {
    prompt_tokens: u64,
    completion_tokens: u64,
}

/// A successful response's useful part.
pub(crate) struct ParsedResponse {
    pub text: String,
    pub usage: TokenUsage,
    pub usage_estimated: bool,
    pub finish_reason: Option<String>,
}

/// Reads a 2xx body; the error says what is unusable (with its JSON path).
pub(crate) fn parse_response(body: &str, estimated_prompt_tokens: u64) -> Result<ParsedResponse, String> {
    let de = &mut serde_json::Deserializer::from_str(body);
    let parsed: ResponseBody = serde_path_to_error::deserialize(de).map_err(|e| {
        let path = e.path().to_string();
        if path == "." {
            format!("not a chat-completions body: {}", e.inner())
        } else {
            format!("{path}: {}", e.inner())
        }
    })?;
    let Some(choice) = parsed.choices.into_iter().next() else {
        return Err("choices is empty".into());
    };
    let text = match (choice.message.content, choice.message.refusal) {
        (Some(text), _) => text,
        (None, Some(refusal)) => return Err(format!("the model refused: {refusal}")),
        (None, None) => return Err("choices[0].message.content is missing".into()),
    };
    let (usage, usage_estimated) = match parsed.usage {
        Some(u) => {
            (TokenUsage { prompt_tokens: u.prompt_tokens, completion_tokens: u.completion_tokens }, false)
        }
        None => (
            TokenUsage { prompt_tokens: estimated_prompt_tokens, completion_tokens: estimate_tokens(&text) },
            true,
        ),
    };
    Ok(ParsedResponse { text, usage, usage_estimated, finish_reason: choice.finish_reason })
}

/// The message of an OpenAI-style error body (`{"error": {"message": …}}`),
/// else the body's start.
pub(crate) fn error_message(body: &str) -> String {
    let from_json = serde_json::from_str::<Value>(body).ok().and_then(|v| {
        v.get("error").and_then(|e| e.get("message").or(Some(e))).and_then(|m| m.as_str().map(str::to_string))
    });
    let text = from_json.unwrap_or_else(|| body.trim().to_string());
    let mut short: String = text.chars().take(300).collect();
    if short.len() < text.len() {
        short.push('…');
    }
    short
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn request_body_matches_chat_completions() {
        let messages = [Message::system("s"), Message::user("u")];
        let schema = ResponseFormat::JsonSchema { name: "spec".into(), schema: json!({"type": "object"}) };
        let body = RequestBody::new("m", Sampling::default(), &messages, schema.wire(SchemaMode::JsonSchema));
        let v = serde_json::to_value(&body).unwrap();
        assert_eq!(
            v,
            json!({
                "model": "m",
                "messages": [{"role": "system", "content": "s"}, {"role": "user", "content": "u"}],
                "temperature": 0.0, "max_tokens": 1024, "top_p": 1.0,
                "response_format": {"type": "json_schema", "json_schema": {"name": "spec", "schema": {"type": "object"}, "strict": false}},
            })
        );
        assert_eq!(schema.wire(SchemaMode::JsonObject), Some(json!({"type": "json_object"})));
        assert_eq!(ResponseFormat::Text.wire(SchemaMode::JsonSchema), None);
        let text = RequestBody::new("m", Sampling::default(), &messages, None);
        assert!(serde_json::to_value(&text).unwrap().get("response_format").is_none());
        assert_ne!(text.prompt_sha256(), body.prompt_sha256());
    }

    #[test]
    fn responses_give_text_and_usage_or_an_estimate() {
        let r = parse_response(
            r#"{"choices":[{"message":{"role":"assistant","content":"hi"},"finish_reason":"stop"}],"usage":{"prompt_tokens":5,"completion_tokens":2,"total_tokens":7}}"#,
            99,
        )
        .unwrap();
        assert_eq!((r.text.as_str(), r.usage.prompt_tokens, r.usage.completion_tokens), ("hi", 5, 2));
        assert!(!r.usage_estimated);
        assert_eq!(r.finish_reason.as_deref(), Some("stop"));
        let r = parse_response(r#"{"choices":[{"message":{"content":"12345678"}}]}"#, 99).unwrap();
        assert!(r.usage_estimated);
        assert_eq!((r.usage.prompt_tokens, r.usage.completion_tokens), (99, 2));
    }

    #[test]
    fn unusable_responses_say_where() {
        for (body, needle) in [
            ("not json", "not a chat-completions body"),
            (r#"{"choices":[]}"#, "choices is empty"),
            (r#"{"choices":[{"message":{}}]}"#, "content is missing"),
            (r#"{"choices":[{"message":{"refusal":"no"}}]}"#, "refused"),
            (r#"{"choices":[{"message":{"content":5}}]}"#, "choices[0].message.content"),
            (
                r#"{"choices":[{"message":{"content":"x"}}],"usage":{"prompt_tokens":"a"}}"#,
                "usage.prompt_tokens",
            ),
        ] {
            let e = parse_response(body, 1).err().unwrap();
            assert!(e.contains(needle), "{body}: {e}");
        }
    }

    #[test]
    fn error_messages_come_from_the_error_body() {
        assert_eq!(error_message(r#"{"error":{"message":"bad model","type":"x"}}"#), "bad model");
        assert_eq!(error_message("plain text "), "plain text");
        assert!(error_message(&"x".repeat(400)).ends_with('…'));
    }
}
