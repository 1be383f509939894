//! The report writer: the model turns the factual report (every number from
//! the engine, rendered by the CLI) into a short French narrative in four
//! sections, and every number of the narrative that does not appear in the
//! facts is flagged.
//!
//! The facts are sent verbatim; the narrative is free text. The number check
//! compares values, not spellings: `45,3 %` matches `45.3%`, `4,20` matches
//! `4.2`, and `1 000` (with a no-break or thin space) matches `1000`. A
//! number written in words, or the same value written differently (`0.45`
//! for `45 %`), is not recognised: the prompt asks the model to quote the
//! figures as given.

use crate::client::{ChatModel, ChatRequest};
use crate::error::LlmError;
use crate::pack::{Example, PackError, PromptPack, PromptVersion};
use crate::task::TaskPrompt;
use crate::wire::ResponseFormat;

/// Name of the pack prompt that writes the narrative.
pub const REPORT_PROMPT: &str = "report";
/// Version of the facts layout sent to the report prompt.
pub const REPORT_SCHEMA_VERSION: u32 = 1;
/// The heading the narrative is printed under, after the facts.
pub const NARRATIVE_HEADING: &str = "=== Récit d'équilibrage (LLM) ===";
/// The four sections the narrative must have (by their first word).
pub const REPORT_SECTIONS: [&str; 4] = ["Bilan", "Danger", "Robustesse", "Observabilité"];

/// A number in a text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NumberAt {
    /// As written.
    pub text: String,
    /// Byte range in the text.
    pub start: usize,
    /// End of the byte range.
    pub end: usize,
    /// Its value in a canonical spelling (`45.3`, `1000`).
    pub value: String,
}

/// Group separators inside a number: no-break space, narrow no-break space,
/// thin space (French typography).
fn is_group_separator(c: char) -> bool {
    matches!(c, '\u{a0}' | '\u{202f}' | '\u{2009}')
}

/// Every number in `text`.
pub fn numbers(text: &str) -> Vec<NumberAt> {
    let chars: Vec<(usize, char)> = text.char_indices().collect();
    let digit_at = |i: usize| chars.get(i).is_some_and(|(_, c)| c.is_ascii_digit());
    let run_end = |mut i: usize| {
        while digit_at(i) {
            i += 1;
        }
        i
    };
    let mut found = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        if !digit_at(i) {
            i += 1;
            continue;
        }
        let start = i;
        let mut integer: String = chars[start..run_end(i)].iter().map(|(_, c)| c).collect();
        i = run_end(i);
        // Groups of exactly three digits after a group separator.
        while chars.get(i).is_some_and(|(_, c)| is_group_separator(*c)) && run_end(i + 1) == i + 4 {
            integer.extend(chars[i + 1..i + 4].iter().map(|(_, c)| c));
            i += 4;
        }
        let mut fraction = String::new();
        if chars.get(i).is_some_and(|(_, c)| matches!(c, '.' | ',')) && digit_at(i + 1) {
            let end = run_end(i + 1);
            fraction = chars[i + 1..end].iter().map(|(_, c)| c).collect();
            i = end;
        }
        let integer = integer.trim_start_matches('0');
        let integer = if integer.is_empty() { "0" } else { integer };
        let fraction = fraction.trim_end_matches('0');
        let value = if fraction.is_empty() { integer.to_string() } else { format!("{integer}.{fraction}") };
        let byte_start = chars[start].0;
        let byte_end = chars.get(i).map_or(text.len(), |(b, _)| *b);
        found.push(NumberAt {
            text: text[byte_start..byte_end].to_string(),
            start: byte_start,
            end: byte_end,
            value,
        });
    }
    found
}

/// The numbers of `narrative` whose value appears nowhere in `facts`.
pub fn unsupported_numbers(narrative: &str, facts: &str) -> Vec<NumberAt> {
    let known: std::collections::HashSet<String> = numbers(facts).into_iter().map(|n| n.value).collect();
    numbers(narrative).into_iter().filter(|n| !known.contains(&n.value)).collect()
}

/// `narrative` with `marker` after each flagged number.
pub fn mark_unsupported(narrative: &str, flagged: &[NumberAt], marker: &str) -> String {
    let mut out = String::with_capacity(narrative.len() + flagged.len() * marker.len());
    let mut from = 0;
    for n in flagged {
        out.push_str(&narrative[from..n.end]);
        out.push_str(marker);
        from = n.end;
    }
    out.push_str(&narrative[from..]);
    out
}

/// The sections of [`REPORT_SECTIONS`] that `narrative` does not name.
pub fn missing_sections(narrative: &str) -> Vec<&'static str> {
    let lower = narrative.to_lowercase();
    REPORT_SECTIONS.into_iter().filter(|s| !lower.contains(&s.to_lowercase())).collect()
}

/// A written narrative and what the checks found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Narrative {
    /// The model's text (trimmed).
    pub text: String,
    /// Numbers not found in the facts.
    pub unsupported: Vec<NumberAt>,
    /// Sections not named.
    pub missing_sections: Vec<&'static str>,
    /// The prompt version used.
    pub prompt_version: String,
    /// The model's name.
    pub model: String,
    /// Whether it came from the cache.
    pub cached: bool,
}

/// Why no narrative came.
#[derive(Debug, thiserror::Error)]
pub enum ReportError {
    /// There are no facts to tell.
    #[error("LLM report: the factual report is empty")]
    NoFacts,
    /// The model could not be asked.
    #[error("LLM report: {0}")]
    Llm(#[source] LlmError),
    /// The model answered nothing.
    #[error("LLM report: the model's answer is empty")]
    Empty,
}

/// Writes narratives with the pack's `report` prompt.
#[derive(Debug)]
pub struct ReportWriter {
    prompt: TaskPrompt,
}

fn question(facts: &str) -> String {
    format!("=== faits ===\n{}", facts.trim_end())
}

impl ReportWriter {
    /// A writer using the pack's `report` prompt; examples are `{"input":
    /// <facts text>, "output": <narrative text>}`, and an example narrative
    /// may only quote numbers of its facts.
    pub fn new(pack: &PromptPack) -> Result<Self, PackError> {
        let prompt = TaskPrompt::new(pack, REPORT_PROMPT, &[], shot)?;
        Ok(Self { prompt })
    }

    /// The prompt version used.
    pub fn prompt_version(&self) -> &PromptVersion {
        &self.prompt.version
    }

    /// The request for `facts`.
    pub fn request(&self, facts: &str) -> ChatRequest {
        self.prompt.request(question(facts), REPORT_SCHEMA_VERSION, ResponseFormat::Text)
    }

    /// Asks for the narrative of `facts` and checks it.
    pub async fn write<M: ChatModel>(&self, model: &M, facts: &str) -> Result<Narrative, ReportError> {
        if facts.trim().is_empty() {
            return Err(ReportError::NoFacts);
        }
        let completion = model.complete(&self.request(facts)).await.map_err(ReportError::Llm)?;
        let text = completion.text.trim().to_string();
        if text.is_empty() {
            return Err(ReportError::Empty);
        }
        Ok(Narrative {
            unsupported: unsupported_numbers(&text, facts),
            missing_sections: missing_sections(&text),
            text,
            prompt_version: self.prompt.version.to_string(),
            model: model.model_name().to_string(),
            cached: completion.cached,
        })
    }
}

fn shot(example: &Example) -> Result<(String, String), String> {
    let facts =
        example.input.as_str().filter(|f| !f.trim().is_empty()).ok_or("input: expected the facts as text")?;
    let narrative = example
        .output
        .as_str()
        .filter(|n| !n.trim().is_empty())
        .ok_or("output: expected the narrative as text")?;
    let invented: Vec<String> = unsupported_numbers(narrative, facts).into_iter().map(|n| n.text).collect();
    if !invented.is_empty() {
        return Err(format!("output: numbers not in the facts: {}", invented.join(", ")));
    }
    if let Some(missing) = missing_sections(narrative).first() {
        return Err(format!("output: no section {missing}"));
    }
    Ok((question(facts), narrative.trim().to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn values(text: &str) -> Vec<String> {
        numbers(text).into_iter().map(|n| n.value).collect()
    }

    #[test]
    fn numbers_are_read_with_french_and_english_spellings() {
        assert_eq!(values("45,3 % et 45.30%"), ["45.3", "45.3"]);
        assert_eq!(values("1\u{a0}000 runs, 1\u{202f}234\u{202f}567"), ["1000", "1234567"]);
        assert_eq!(values("bande 3σ : [41.0 %, 49.6 %]"), ["3", "41", "49.6"]);
        assert_eq!(values("007 et 0,50"), ["7", "0.5"]);
        assert_eq!(values("fin. 12."), ["12"]);
        assert_eq!(values("pas de chiffre"), Vec::<String>::new());
        let n = &numbers("é 4,2 r")[0];
        assert_eq!((n.text.as_str(), n.start, n.end), ("4,2", 3, 6));
    }

    #[test]
    fn numbers_absent_from_the_facts_are_flagged_and_marked() {
        let facts = "Victoires players : 45.3 % (453) — bande 3σ : [41.0 %, 49.6 %]\nRounds moyens : 4.2";
        let narrative = "Bilan : les joueurs gagnent 45,3 % des combats (453 victoires) en 4,20 rounds, mais 12 % finissent en TPK.";
        let flagged = unsupported_numbers(narrative, facts);
        assert_eq!(flagged.iter().map(|n| n.text.as_str()).collect::<Vec<_>>(), ["12"]);
        let marked = mark_unsupported(narrative, &flagged, " [?]");
        assert!(marked.contains("mais 12 [?] % finissent"), "{marked}");
        assert!(unsupported_numbers("Tout est dans les faits : 453.", facts).is_empty());
    }

    #[test]
    fn the_four_sections_are_looked_for_by_name() {
        assert_eq!(missing_sections("BILAN ... Danger ... robustesse ..."), ["Observabilité"]);
        assert!(missing_sections("Bilan. Danger. Robustesse. Observabilité.").is_empty());
    }
}
