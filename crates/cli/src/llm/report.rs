//! `--llm-report`: the factual report first (every number from the engine,
//! as printed), then `=== Récit d'équilibrage (LLM) ===` and the model's
//! narrative in four sections, every number absent from the facts flagged;
//! `--output FILE.md` writes both.

use std::path::PathBuf;
use std::sync::Arc;

use pf1e_llm::{ReportWriter, ResponseCache};
use pf1e_wire::status::SweepInfo;

use super::{LlmArgs, LlmCacheArgs};
use crate::error::{CliError, CliResult};
use crate::i18n::Lang;
use crate::output;
use crate::render::jobs::{self, Style, View};
use crate::render::llm::narrative;

/// The report flags.
#[derive(Debug, Clone, Default, clap::Args)]
#[command(next_help_heading = "LLM")]
pub struct LlmReportArgs {
    /// After the factual report, the model's narrative (French, four sections); numbers absent from the facts are flagged.
    #[arg(long)]
    pub llm_report: bool,
    /// Also write the factual report and the narrative to this file (Markdown).
    #[arg(long, value_name = "FILE.md", requires = "llm_report")]
    pub output: Option<PathBuf>,
}

/// `ctl results` flags: the report, its cache and the client.
#[derive(Debug, Clone, Default, clap::Args)]
pub struct ResultsLlmArgs {
    #[command(flatten)]
    pub report: LlmReportArgs,
    #[command(flatten)]
    pub cache: LlmCacheArgs,
    #[command(flatten)]
    pub llm: LlmArgs,
}

impl LlmReportArgs {
    /// Refuses `--llm-report` with a JSON output (the narrative is text).
    pub fn check(&self, json: bool) -> CliResult {
        if self.llm_report && json {
            return Err(CliError::input(
                "command line: --llm-report writes text: it cannot be combined with --json",
            ));
        }
        Ok(())
    }
}

/// Asks for the narrative of `facts`, prints it after them and writes
/// `--output`. The facts are printed by the caller.
pub async fn narrate(
    facts: &str,
    args: &LlmReportArgs,
    llm: &LlmArgs,
    cache: Arc<dyn ResponseCache>,
) -> CliResult {
    let llm = llm.build(cache)?;
    let writer = ReportWriter::new(&llm.pack).map_err(CliError::input)?;
    let n = writer.write(&llm.client, facts).await?;
    let section = narrative(&n);
    output::print(&format!("\n{section}"))?;
    if let Some(path) = &args.output {
        let text = format!("{}\n\n{section}", facts.trim_end());
        std::fs::write(path, text).map_err(|e| CliError::environment(format!("{}: {e}", path.display())))?;
    }
    Ok(())
}

/// [`narrate`] from synchronous code.
pub fn narrate_blocking(
    facts: &str,
    args: &LlmReportArgs,
    llm: &LlmArgs,
    cache: Arc<dyn ResponseCache>,
) -> CliResult {
    super::runtime()?.block_on(narrate(facts, args, llm, cache))
}

/// How the facts are laid out for the model: in the report's language, at a
/// fixed width and number of rows, so the same results make the same request.
fn facts_view(lang: Lang) -> View {
    View { lang, style: Style::Text, top: 10, width: 120 }
}

/// The facts of a finished sweep: its results as the text report prints
/// them. Only the results: the sweep's id and cache counters change from
/// one run to the next, and the same results must make the same request
/// (so a rerun's narrative comes from the cache).
pub fn sweep_facts(info: &SweepInfo, lang: Lang) -> String {
    let Some(r) = info.results.as_deref() else { return String::new() };
    format!(
        "sweep {}: seed {}, party {}, rules {}\n\n{}",
        r.name,
        r.seed,
        r.party,
        r.rules_version,
        jobs::report(&facts_view(lang), r, &jobs::Images::new())
    )
}

/// `--llm-report` after `ctl results` (inside the client's runtime).
pub async fn after_results(info: &SweepInfo, json: bool, args: &ResultsLlmArgs, lang: Lang) -> CliResult {
    if !args.report.llm_report {
        return Ok(());
    }
    args.report.check(json)?;
    narrate(&sweep_facts(info, lang), &args.report, &args.llm, args.cache.open()?).await
}
