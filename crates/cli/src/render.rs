//! Everything pf1e shows a person: the balance report and transcript of
//! `pf1e sim`, the tables and Markdown of the analysis jobs, the SVG danger
//! maps and the progress lines. The domain crates return values; only this
//! module turns them into text (see ARCHITECTURE.md, "only the CLI renders").

pub mod balance;
pub mod contribution;
pub mod day;
pub mod design;
pub mod difficulty;
pub mod events;
pub mod forest;
pub mod jobs;
pub mod layout;
pub mod llm;
pub mod strategy;
pub mod svg;
pub mod table;
pub mod transcript;
pub mod verdict;
pub mod words;
