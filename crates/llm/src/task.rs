//! What the LLM tasks share: the side a strategy is for, and a pack prompt
//! turned into a conversation (system text, few-shot pairs, question).

use std::fmt;

use crate::client::ChatRequest;
use crate::pack::{Example, PackError, PromptPack, PromptVersion};
use crate::wire::{Message, ResponseFormat};

/// Name of the pack prompt sent with the problems of an invalid answer.
pub const REPAIR_PROMPT: &str = "repair";

/// Which side a strategy plays.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Side {
    /// The party (the side whose danger is measured).
    Party,
    /// The other side.
    Adversary,
}

impl Side {
    /// `party` or `adversary`.
    pub fn name(self) -> &'static str {
        match self {
            Side::Party => "party",
            Side::Adversary => "adversary",
        }
    }

    /// The side called `name`.
    pub fn from_name(name: &str) -> Option<Self> {
        [Side::Party, Side::Adversary].into_iter().find(|s| s.name() == name)
    }
}

impl fmt::Display for Side {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A pack prompt ready to ask questions with.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct TaskPrompt {
    system: String,
    shots: Vec<Message>,
    pub repair: String,
    pub version: PromptVersion,
}

impl TaskPrompt {
    /// The prompt `name` of `pack`, with `sections` (title, body) appended to
    /// its text, and its examples turned into (question, answer) messages by
    /// `shot`, which says what is wrong with an example that does not fit.
    pub fn new(
        pack: &PromptPack,
        name: &str,
        sections: &[(&str, String)],
        shot: impl Fn(&Example) -> Result<(String, String), String>,
    ) -> Result<Self, PackError> {
        let prompt = pack.prompt(name)?;
        let repair = pack.prompt(REPAIR_PROMPT)?.text().trim().to_string();
        let mut system = prompt.text().trim_end().to_string();
        for (title, body) in sections {
            system.push_str(&format!("\n\n## {title}\n{}", body.trim_end()));
        }
        let mut shots = Vec::new();
        for (index, example) in prompt.examples().iter().enumerate() {
            let (question, answer) = shot(example).map_err(|problem| prompt.example_error(index, problem))?;
            shots.push(Message::user(question));
            shots.push(Message::assistant(answer));
        }
        Ok(Self { system, shots, repair, version: prompt.version().clone() })
    }

    /// The request asking `question`.
    pub fn request(&self, question: String, schema_version: u32, format: ResponseFormat) -> ChatRequest {
        let mut messages = Vec::with_capacity(self.shots.len() + 2);
        messages.push(Message::system(self.system.clone()));
        messages.extend(self.shots.iter().cloned());
        messages.push(Message::user(question));
        ChatRequest { messages, prompt_version: self.version.to_string(), schema_version, format }
    }
}
