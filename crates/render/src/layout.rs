//! How a report is laid out: the output style, the view, tables (aligned
//! text within a width, or Markdown) and headings. A leaf of `render`: the
//! job reports, the LLM's decisions and the verdict all lay out through it.

use std::collections::BTreeMap;

use super::table::display_width;
use crate::i18n::Lang;

/// Rows of the optimize playbook a report shows unless asked otherwise
/// (`--top`; the coordinator's `report.md`).
pub const DEFAULT_TOP: usize = 10;

/// Output style.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Style {
    /// Aligned plain-text columns.
    Text,
    /// Markdown tables.
    Markdown,
}

/// How a report is laid out.
#[derive(Debug, Clone, Copy)]
pub struct View {
    /// Language.
    pub lang: Lang,
    /// Text or Markdown.
    pub style: Style,
    /// Rows of the optimize playbook shown.
    pub top: usize,
    /// Columns a text line may take (Markdown ignores it).
    pub width: usize,
}

/// Images written beside a report, by job index: (alternative text, file name).
pub type Images = BTreeMap<usize, Vec<(String, String)>>;

/// A table: headers and rows; a cell may hold several lines.
pub fn table(view: &View, headers: &[String], rows: &[Vec<String>]) -> String {
    let mut out = String::new();
    match view.style {
        Style::Text => {
            let widths: Vec<usize> = (0..headers.len())
                .map(|i| {
                    rows.iter()
                        .filter_map(|r| r.get(i))
                        .flat_map(|c| c.lines())
                        .map(display_width)
                        .max()
                        .unwrap_or(0)
                        .max(display_width(&headers[i]))
                })
                .collect();
            let line = |cells: &[&str]| {
                let mut l = String::new();
                for (i, (c, w)) in cells.iter().zip(&widths).enumerate() {
                    if i > 0 {
                        l.push_str("  ");
                    }
                    l.push_str(c);
                    l.push_str(&" ".repeat(w.saturating_sub(display_width(c))));
                }
                l.truncate(l.trim_end().len());
                l + "\n"
            };
            let h: Vec<&str> = headers.iter().map(String::as_str).collect();
            out += &line(&h);
            let dashes: Vec<String> = widths.iter().map(|w| "-".repeat(*w)).collect();
            out += &line(&dashes.iter().map(String::as_str).collect::<Vec<_>>());
            for r in rows {
                let cells: Vec<Vec<&str>> = r.iter().map(|c| c.lines().collect()).collect();
                let height = cells.iter().map(Vec::len).max().unwrap_or(1).max(1);
                for k in 0..height {
                    let parts: Vec<&str> = cells.iter().map(|c| c.get(k).copied().unwrap_or("")).collect();
                    out += &line(&parts);
                }
            }
        }
        Style::Markdown => {
            let esc = |c: &str| c.replace('|', "\\|").replace('\n', " ");
            out += &format!("| {} |\n", headers.iter().map(|h| esc(h)).collect::<Vec<_>>().join(" | "));
            out += &format!("|{}|\n", headers.iter().map(|_| "---").collect::<Vec<_>>().join("|"));
            for r in rows {
                out += &format!("| {} |\n", r.iter().map(|c| esc(c)).collect::<Vec<_>>().join(" | "));
            }
        }
    }
    out
}

/// A heading: underlined in text, `##` in Markdown.
pub fn heading(style: Style, text: &str) -> String {
    match style {
        Style::Text => format!("{text}\n{}\n", "=".repeat(display_width(text))),
        Style::Markdown => format!("## {text}\n\n"),
    }
}
