//! Reports of finished sweeps: the analysis jobs' tables as text or
//! Markdown, and `--out DIR` (Markdown report, JSON document, SVG heatmaps).

use std::path::{Path, PathBuf};

use pf1e_wire::results::JobResult;
use pf1e_wire::status::SweepInfo;

use super::document;
use crate::error::{CliError, CliResult};
use crate::render::jobs::{self, Style};
use crate::render::svg::danger_map_svg;

/// Report format.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    /// Aligned text tables.
    Text,
    /// Markdown.
    Md,
}

/// Output options shared by `run` and `ctl results`.
#[derive(Debug, Clone, clap::Args)]
pub struct ReportArgs {
    /// Report format on stdout.
    #[arg(long, value_enum, default_value = "text")]
    pub format: Format,
    /// Also write report.md, results.json and the danger maps' SVG files to this directory.
    #[arg(long)]
    pub out: Option<PathBuf>,
}

/// Prints a finished sweep (`json`: one document) and writes `--out`.
pub fn emit(info: &SweepInfo, json: bool, args: &ReportArgs) -> CliResult {
    let results = info.results.as_deref();
    if json {
        println!("{}", document(info, true));
    } else if args.format == Format::Md {
        print!("{}", results.map(|r| jobs::report(Style::Markdown, r)).unwrap_or_default());
    } else {
        print!("{}", jobs::sweep(info));
        print!("{}", results.map(|r| jobs::report(Style::Text, r)).unwrap_or_default());
    }
    if let Some(dir) = &args.out {
        write_out(dir, info)?;
    }
    Ok(())
}

/// Writes report.md, results.json and danger_map_N.svg to `dir`.
pub fn write_out(dir: &Path, info: &SweepInfo) -> CliResult {
    let fail = |p: &Path, e: std::io::Error| CliError::environment(format!("{}: {e}", p.display()));
    std::fs::create_dir_all(dir).map_err(|e| fail(dir, e))?;
    let write = |name: &str, text: &str| {
        let p = dir.join(name);
        std::fs::write(&p, text).map_err(|e| fail(&p, e))
    };
    let mut md = String::new();
    if let Some(results) = info.results.as_deref() {
        md = jobs::report(Style::Markdown, results);
        for (i, job) in results.jobs.iter().enumerate() {
            let JobResult::DangerMap(r) = &job.result else { continue };
            for (l, layer) in r.layers.iter().enumerate() {
                let Some(svg) = danger_map_svg(r, layer) else { continue };
                let name = if l == 0 {
                    format!("danger_map_{}.svg", i + 1)
                } else {
                    format!("danger_map_{}_{}.svg", i + 1, l + 1)
                };
                write(&name, &svg)?;
                md += &format!(
                    "![danger map of job {}, aware {} copies {}]({name})\n\n",
                    i + 1,
                    serde_json::to_string(&layer.aware).unwrap_or_default(),
                    serde_json::to_string(&layer.copies).unwrap_or_default()
                );
            }
        }
    }
    write("report.md", &md)?;
    let doc = serde_json::to_string_pretty(&document(info, true)).unwrap_or_default();
    write("results.json", &(doc + "\n"))?;
    Ok(())
}
