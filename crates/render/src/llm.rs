//! What the LLM decided for a sweep (every sentence with the strategy it
//! compiled to, every job's proposals), and the narrative of `--llm-report`
//! printed after the facts with its unverified numbers flagged.

use std::path::Path;

use pf1e_llm::report::mark_unsupported;
use pf1e_llm::{NARRATIVE_HEADING, Narrative, RepairStats, ShowcaseRun};
use pf1e_wire::results::LlmDecisions;

use super::layout::{View, heading, table};

/// Marker after a number of the narrative that the facts do not contain.
pub const UNVERIFIED: &str = " [?]";

/// The LLM's decisions of a sweep; empty when it decided nothing.
pub fn decisions(view: &View, d: &LlmDecisions) -> String {
    if d.is_empty() {
        return String::new();
    }
    let mut out = heading(view.style, "LLM decisions");
    if !d.strategies.is_empty() {
        let rows: Vec<Vec<String>> = d
            .strategies
            .iter()
            .map(|s| {
                vec![s.side.clone(), format!("« {} »", s.sentence), s.strategy.clone(), s.answers.to_string()]
            })
            .collect();
        out += "Strategies written as sentences (nl:), compiled once:\n\n";
        out += &table(view, &["Side", "Sentence", "Strategy", "Answers"].map(String::from), &rows);
        out += "\n";
    }
    for p in &d.proposals {
        let listed = |names: &[String]| if names.is_empty() { "none".to_string() } else { names.join("; ") };
        out += &format!(
            "job {} ({}, {}): {} asked, proposed: {}; already known, dropped: {}\n",
            p.job + 1,
            p.prompt,
            p.side,
            p.asked,
            listed(&p.strategies),
            listed(&p.duplicates)
        );
    }
    let mut models: Vec<String> = d
        .strategies
        .iter()
        .map(|s| format!("{} ({})", s.model, s.prompt_version))
        .chain(d.proposals.iter().map(|p| format!("{} ({})", p.model, p.prompt_version)))
        .collect();
    models.sort();
    models.dedup();
    out += &format!("model and prompts: {}\n\n", models.join(", "));
    out
}

/// The narrative after the facts: the heading, the text with every number
/// absent from the facts marked [`UNVERIFIED`], and what the check found.
pub fn narrative(n: &Narrative) -> String {
    let mut out = format!("{NARRATIVE_HEADING}\n{}\n", mark_unsupported(&n.text, &n.unsupported, UNVERIFIED));
    if !n.unsupported.is_empty() {
        let numbers: Vec<&str> = n.unsupported.iter().map(|x| x.text.as_str()).collect();
        out += &format!(
            "\nNombres absents des faits (non vérifiés, marqués{UNVERIFIED}) : {}\n",
            numbers.join(", ")
        );
    }
    if !n.missing_sections.is_empty() {
        out += &format!("Sections manquantes : {}\n", n.missing_sections.join(", "));
    }
    out += &format!("(récit : modèle {}, prompt {})\n", n.model, n.prompt_version);
    out
}

/// What the model did in a showcase: turns, repairs, fallbacks, the size of
/// the observation view against the raw snapshot, the replay log.
pub fn showcase(played: &ShowcaseRun, stats: &RepairStats, log: &Path) -> String {
    let h = &played.log.header;
    let (model, fallback) = played.turns();
    let n = played.sizes.len().max(1);
    let view: usize = played.sizes.iter().map(|s| s.view).sum::<usize>() / n;
    let raw: usize = played.sizes.iter().map(|s| s.raw).sum::<usize>() / n;
    let worst = played.sizes.iter().map(|s| s.view as f64 / s.raw.max(1) as f64).fold(0.0, f64::max);
    let mut out = String::from("=== LLM showcase (per-turn play) ===\n");
    out +=
        &format!("side played by the model: {} (model {}, prompt {})\n", h.side, h.model, h.prompt_version);
    out += &format!(
        "battles: {}; turns asked: {}; played by the model: {model}; by the default policy after a failure: {fallback}\n",
        h.runs,
        played.log.calls.len()
    );
    out += &format!(
        "answers: {}; repairs: {} asked, {} succeeded (at most {} per turn)\n",
        stats.calls, stats.repairs_attempted, stats.repairs_succeeded, h.max_repairs
    );
    if !played.sizes.is_empty() {
        out += &format!(
            "observation view (schema_version {}): {view} bytes on average against {raw} for the raw snapshot ({:.1} %, at most {:.1} %)\n",
            h.observation_schema_version,
            100.0 * view as f64 / raw.max(1) as f64,
            100.0 * worst
        );
    }
    out += &format!("replay log: {} (pf1e replay {})\n", log.display(), log.display());
    out
}
