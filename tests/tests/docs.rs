//! Every repository file the README, ARCHITECTURE.md and the docs cite
//! exists: a path in backquotes that starts at the repository's root
//! (`data/…`, `crates/…`, `docs/…`, `tests/…`, `proto/…`, `.ci/…`) and
//! every relative Markdown link (resolved from the citing document).
//! Placeholders (`danger_map_N.svg`, `<dir>`, globs) are not paths.

use std::path::{Path, PathBuf};

const ROOTS: &[&str] = &["data/", "crates/", "docs/", "tests/", "proto/", ".ci/"];

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// The Markdown documents checked: README.md, ARCHITECTURE.md, docs/**/*.md.
fn documents() -> Vec<PathBuf> {
    let root = root();
    let mut out = vec![root.join("README.md"), root.join("ARCHITECTURE.md")];
    let mut dirs = vec![root.join("docs")];
    while let Some(dir) = dirs.pop() {
        for entry in std::fs::read_dir(&dir).expect("docs/ is readable").flatten() {
            let path = entry.path();
            if path.is_dir() {
                dirs.push(path);
            } else if path.extension().is_some_and(|e| e == "md") {
                out.push(path);
            }
        }
    }
    out.sort();
    out
}

/// Whether a cited token is a placeholder or a pattern rather than a path.
fn placeholder(token: &str) -> bool {
    token.contains(['*', '{', '}', '<', '>', '…', '$', '|', ' '])
        || token.split(['/', '_', '.', '-']).any(|part| part == "N" || part == "ID" || part == "DIR")
}

/// Paths in backquotes that start at the repository's root.
fn code_paths(text: &str) -> Vec<String> {
    text.split('`')
        .skip(1)
        .step_by(2)
        .filter(|t| ROOTS.iter().any(|r| t.starts_with(r)) && !placeholder(t))
        // `file.rs:12` and `doc.md#section` cite the file.
        .map(|t| t.split([':', '#']).next().unwrap_or(t).to_string())
        .collect()
}

/// Relative link targets of `[text](target)`, anchors dropped.
fn link_targets(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut rest = text;
    while let Some(at) = rest.find("](") {
        rest = &rest[at + 2..];
        let Some(end) = rest.find(')') else { break };
        let target = &rest[..end];
        let external = target.contains("://") || target.starts_with("mailto:") || target.starts_with('#');
        if !external && !target.is_empty() && !placeholder(target) {
            out.push(target.split('#').next().unwrap_or(target).to_string());
        }
    }
    out
}

#[test]
fn every_repository_file_the_docs_cite_exists() {
    let root = root();
    let mut missing = Vec::new();
    for doc in documents() {
        let text = std::fs::read_to_string(&doc).expect("a readable document");
        let name = doc.strip_prefix(&root).unwrap_or(&doc).display().to_string();
        for path in code_paths(&text) {
            if !root.join(&path).exists() {
                missing.push(format!("{name}: `{path}`"));
            }
        }
        let dir = doc.parent().unwrap_or(&root);
        for target in link_targets(&text) {
            if !dir.join(&target).exists() {
                missing.push(format!("{name}: ({target})"));
            }
        }
    }
    assert!(missing.is_empty(), "cited files that do not exist:\n{}", missing.join("\n"));
}

#[test]
fn the_citation_scanner_finds_paths_and_links_and_skips_placeholders() {
    let text = "see `data/maps/x.yaml`, `crates/a.rs:12`, `report/danger_map_N.svg`, `data/*.json`, \
                `cargo test`, [a](docs/b.md#c), [web](https://x.org), [here](#top)";
    assert_eq!(code_paths(text), ["data/maps/x.yaml", "crates/a.rs"]);
    assert_eq!(link_targets(text), ["docs/b.md"]);
}

/// The `type` of every event, as serde names it: the list an unknown type's
/// error gives ("unknown variant `…`, expected one of `a`, `b`, …").
fn event_types() -> Vec<String> {
    let e = serde_json::from_str::<pf1e_engine::combat::event::Event>(r#"{"type":"no such event"}"#)
        .expect_err("no event has that type");
    let text = e.to_string();
    let list =
        text.split("expected one of").nth(1).unwrap_or_else(|| panic!("serde's message changed: {text}"));
    list.split('`').skip(1).step_by(2).map(str::to_string).collect()
}

/// The types of the rows of the events table of `docs/events.md` (the
/// table under "## Events" whose first column is `type`).
fn documented_event_types() -> Vec<String> {
    let text = std::fs::read_to_string(root().join("docs/events.md")).expect("docs/events.md");
    let section = text.split("\n## Events").nth(1).expect("docs/events.md has an Events section");
    let section = section.split("\n## ").next().unwrap_or(section);
    section
        .lines()
        .filter_map(|l| l.strip_prefix("| `"))
        .filter_map(|l| l.split('`').next())
        // The header row (`type` is the tag, never an event's type).
        .filter(|t| *t != "type")
        .map(str::to_string)
        .collect()
}

#[test]
fn every_event_type_has_a_row_in_docs_events_md_and_every_row_is_an_event_type() {
    let types = event_types();
    assert!(types.len() > 40 && types.contains(&"battle_over".to_string()), "{types:?}");
    let rows = documented_event_types();
    let missing: Vec<&String> = types.iter().filter(|t| !rows.contains(t)).collect();
    assert!(missing.is_empty(), "event types with no row in docs/events.md: {missing:?}");
    let unknown: Vec<&String> = rows.iter().filter(|r| !types.contains(r)).collect();
    assert!(unknown.is_empty(), "rows of docs/events.md that name no event type: {unknown:?}");
    let mut seen = std::collections::BTreeSet::new();
    let twice: Vec<&String> = rows.iter().filter(|r| !seen.insert(r.as_str())).collect();
    assert!(twice.is_empty(), "event types with two rows: {twice:?}");
}
