//! Reports of finished sweeps: the analysis jobs' tables as text, Markdown
//! or one JSON document, and `--out DIR` (Markdown report with its images,
//! JSON document, SVG danger maps and playbook forest plots).

use std::path::{Path, PathBuf};

use pf1e_wire::results::JobResult;
use pf1e_wire::status::SweepInfo;

use crate::error::{CliError, CliResult};
use crate::i18n::{Lang, T};
use crate::output;
use crate::render::forest::playbook_svg;
use crate::render::importance::importance_svg;
use crate::render::jobs::{self, Images, Style, View};
use crate::render::pareto::pareto_svg;
use crate::render::svg::danger_map_svg;

/// Report format on stdout.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    /// Aligned text tables within the terminal's width.
    Text,
    /// Markdown.
    Md,
    /// One JSON document (the same as `--json`).
    Json,
}

/// Output options shared by `run` and `ctl results`.
#[derive(Debug, Clone, clap::Args)]
pub struct ReportArgs {
    /// Report format on stdout.
    #[arg(long, value_enum, default_value = "text")]
    pub format: Format,
    /// Print one JSON document (id, status, stats, results): `--format json`.
    #[arg(long, conflicts_with = "format")]
    pub json: bool,
    /// Rows of the optimize playbook shown in the text and Markdown reports (JSON has them all).
    #[arg(long, default_value_t = crate::render::layout::DEFAULT_TOP, value_name = "N", value_parser = crate::args::positive::<usize>)]
    pub top: usize,
    /// Also write report.md, results.json and the SVG charts to this directory.
    #[arg(long, value_name = "DIR")]
    pub out: Option<PathBuf>,
}

impl ReportArgs {
    /// The format asked for (`--json` is `--format json`).
    pub fn format(&self) -> Format {
        if self.json { Format::Json } else { self.format }
    }
}

/// Prints a finished sweep in the format asked for and writes `--out`.
pub fn emit(info: &SweepInfo, args: &ReportArgs, lang: Lang) -> CliResult {
    if let Some(dir) = &args.out {
        write_out(dir, info, lang, args.top)?;
    }
    let results = info.results.as_deref();
    let view = |style| View { lang, style, top: args.top, width: output::width() };
    match args.format() {
        Format::Json => output::json(&info.document(true)),
        Format::Md => output::print(
            &results.map(|r| jobs::report(&view(Style::Markdown), r, &Images::new())).unwrap_or_default(),
        ),
        Format::Text => {
            let v = view(Style::Text);
            let mut text = jobs::sweep(&v, info);
            text += &results.map(|r| jobs::report(&v, r, &Images::new())).unwrap_or_default();
            output::print(&text)
        }
    }
}

/// Writes report.md, results.json, danger_map_N[_L].svg, playbook_N.svg, pareto_N.svg and
/// importance_N.svg to `dir`.
pub fn write_out(dir: &Path, info: &SweepInfo, lang: Lang, top: usize) -> CliResult {
    let fail = |p: &Path, e: std::io::Error| CliError::environment(format!("{}: {e}", p.display()));
    std::fs::create_dir_all(dir).map_err(|e| fail(dir, e))?;
    let write = |name: &str, text: &str| {
        let p = dir.join(name);
        std::fs::write(&p, text).map_err(|e| fail(&p, e))
    };
    let mut md = String::new();
    if let Some(results) = info.results.as_deref() {
        let mut images = Images::new();
        for (i, job) in results.jobs.iter().enumerate() {
            match &job.result {
                JobResult::Optimize(r) => {
                    let Some(svg) = playbook_svg(r, lang, top.max(20)) else { continue };
                    let name = format!("playbook_{}.svg", i + 1);
                    write(&name, &svg)?;
                    images.entry(i).or_default().push((lang.f(T::PlaybookImage, &[&(i + 1)]), name));
                    if let Some(svg) = pareto_svg(r, lang) {
                        let name = format!("pareto_{}.svg", i + 1);
                        write(&name, &svg)?;
                        images.entry(i).or_default().push((lang.f(T::ParetoImage, &[&(i + 1)]), name));
                    }
                    if let Some(svg) = importance_svg(r, lang) {
                        let name = format!("importance_{}.svg", i + 1);
                        write(&name, &svg)?;
                        images.entry(i).or_default().push((lang.f(T::ImportanceImage, &[&(i + 1)]), name));
                    }
                }
                JobResult::DangerMap(r) => {
                    for (l, layer) in r.layers.iter().enumerate() {
                        let Some(svg) = danger_map_svg(r, layer, lang) else { continue };
                        let name = if l == 0 {
                            format!("danger_map_{}.svg", i + 1)
                        } else {
                            format!("danger_map_{}_{}.svg", i + 1, l + 1)
                        };
                        write(&name, &svg)?;
                        let mut alt = lang.f(T::DangerImage, &[&(i + 1)]);
                        if r.layers.len() > 1 {
                            alt += &format!(" — {}", jobs::layer_words(lang, layer));
                        }
                        images.entry(i).or_default().push((alt, name));
                    }
                }
                _ => {}
            }
        }
        let view = View { lang, style: Style::Markdown, top, width: usize::MAX };
        md = jobs::report(&view, results, &images);
    }
    write("report.md", &md)?;
    let doc = output::json_text(&info.document(true), true)?;
    write("results.json", &(doc + "\n"))?;
    Ok(())
}
