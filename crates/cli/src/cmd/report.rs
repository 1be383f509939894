//! Reports of finished sweeps: the analysis jobs' tables as text or
//! Markdown, and `--out DIR` (Markdown report, JSON document, SVG heatmaps).

use std::path::{Path, PathBuf};

use pf1e_coordinator::jobs::render::{self, Style};
use pf1e_coordinator::jobs::svg::danger_map_svg;
use pf1e_wire::status::SweepInfo;

use super::{CmdError, CmdResult, document, print_results, results_value};

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
pub fn emit(info: &SweepInfo, json: bool, args: &ReportArgs) -> CmdResult {
    let r = results_value(info);
    if json {
        println!("{}", document(info, true));
    } else if args.format == Format::Md {
        print!("{}", render::report(Style::Markdown, &r));
    } else {
        print_results(info);
        print!("{}", render::report(Style::Text, &r));
    }
    if let Some(dir) = &args.out {
        write_out(dir, info, &r)?;
    }
    Ok(())
}

/// Writes report.md, results.json and danger_map_N.svg to `dir`.
pub fn write_out(dir: &Path, info: &SweepInfo, r: &serde_json::Value) -> CmdResult {
    let fail = |p: &Path, e: std::io::Error| CmdError::runtime(format!("{}: {e}", p.display()));
    std::fs::create_dir_all(dir).map_err(|e| fail(dir, e))?;
    let write = |name: &str, text: &str| {
        let p = dir.join(name);
        std::fs::write(&p, text).map_err(|e| fail(&p, e))
    };
    let mut md = render::report(Style::Markdown, r);
    for (i, job) in r["jobs"].as_array().into_iter().flatten().enumerate() {
        if job["kind"] != "danger_map" {
            continue;
        }
        let r = &job["result"];
        let layers = r["layers"].as_array().cloned().unwrap_or_default();
        for (l, layer) in layers.iter().enumerate() {
            let mut one = r.clone();
            one["points"] = layer["points"].clone();
            one["squares"] = layer["squares"].clone();
            let Some(svg) = danger_map_svg(&one) else { continue };
            let name = if l == 0 {
                format!("danger_map_{}.svg", i + 1)
            } else {
                format!("danger_map_{}_{}.svg", i + 1, l + 1)
            };
            write(&name, &svg)?;
            md += &format!(
                "![danger map of job {}, aware {} copies {}]({name})\n\n",
                i + 1,
                layer["aware"],
                layer["copies"]
            );
        }
    }
    write("report.md", &md)?;
    let doc = serde_json::to_string_pretty(&document(info, true)).unwrap_or_default();
    write("results.json", &(doc + "\n"))?;
    Ok(())
}
