//! Everything pf1e shows a person: the balance report and transcript of
//! `pf1e sim`, the tables and Markdown of the analysis jobs, the SVG danger
//! maps and the progress lines. The domain crates return values; only this
//! crate turns them into text (see ARCHITECTURE.md, "only pf1e-render lays
//! out text"). `i18n` holds the language and the catalogue of every fixed
//! text. The CLI prints what it returns; the coordinator serves its
//! `report.md`.

pub mod balance;
pub mod contribution;
pub mod day;
pub mod design;
pub mod difficulty;
pub mod events;
#[cfg(test)]
mod fixtures;
#[cfg(feature = "svg")]
pub mod forest;
pub mod i18n;
#[cfg(feature = "svg")]
pub mod importance;
pub mod jobs;
pub mod layout;
pub mod llm;
#[cfg(feature = "svg")]
pub mod pareto;
pub mod strategy;
#[cfg(feature = "svg")]
pub mod svg;
pub mod table;
pub mod transcript;
pub mod verdict;
pub mod words;
