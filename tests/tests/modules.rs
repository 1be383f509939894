//! No import cycles between the modules of a crate: for every crate of the
//! workspace, each `.rs` file under `src/` is a module, and module A
//! depends on B when A names B (or an item of B) through a `crate::` or
//! `super::` path, in a `use` declaration or inline. Edges between a module
//! and its own ancestors or descendants do not count (a parent declares its
//! children; a child may use what its parent re-exports). A strongly
//! connected set of two or more modules is a cycle, and the test fails on
//! any but the one allowed below.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

type Module = Vec<String>;

/// The one cycle left, by its modules' common prefix: the engine's turn
/// loop (`combat::engine`, `combat::state`, `combat::policy`, the rule
/// modules around `combat::turn` and the spell casting under
/// `combat::spells`) calls the rule modules, which call back into the
/// engine's state and log (issue 18, "combat/"). Any cycle with a module
/// outside `combat::` fails.
const ALLOWED: &[(&str, &str)] = &[("crates/engine", "combat")];

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// Every module of the crate at `src` and its file's text.
fn modules(src: &Path) -> BTreeMap<Module, String> {
    let mut out = BTreeMap::new();
    let mut dirs = vec![src.to_path_buf()];
    while let Some(dir) = dirs.pop() {
        for entry in std::fs::read_dir(&dir).expect("a readable source directory").flatten() {
            let path = entry.path();
            if path.is_dir() {
                dirs.push(path);
                continue;
            }
            if path.extension().is_none_or(|e| e != "rs") {
                continue;
            }
            let rel = path.strip_prefix(src).expect("under src");
            let mut parts: Module = rel.iter().map(|p| p.to_string_lossy().into_owned()).collect();
            if let Some(last) = parts.last_mut() {
                *last = last.trim_end_matches(".rs").to_string();
            }
            if parts.len() == 1 && (parts[0] == "lib" || parts[0] == "main")
                || parts.last().is_some_and(|l| l == "mod")
            {
                parts.pop();
            }
            let text = std::fs::read_to_string(&path).expect("a readable source file");
            out.insert(parts, strip(&text));
        }
    }
    out
}

/// The text without comments and string literals (their words are not paths).
fn strip(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '/' if chars.peek() == Some(&'/') => {
                for c in chars.by_ref() {
                    if c == '\n' {
                        out.push('\n');
                        break;
                    }
                }
            }
            '/' if chars.peek() == Some(&'*') => {
                let mut last = ' ';
                for c in chars.by_ref() {
                    if last == '*' && c == '/' {
                        break;
                    }
                    last = c;
                }
            }
            '"' => {
                let mut escaped = false;
                for c in chars.by_ref() {
                    if !escaped && c == '"' {
                        break;
                    }
                    escaped = !escaped && c == '\\';
                }
                out.push_str("\"\"");
            }
            c => out.push(c),
        }
    }
    out
}

/// The paths of a `use` tree: `a::{b, c::{d, e}}` is `a::b`, `a::c::d`, `a::c::e`.
fn expand(tree: &str) -> Vec<String> {
    let tree = tree.trim();
    let Some(open) = tree.find('{') else { return vec![tree.to_string()] };
    let close = tree.rfind('}').unwrap_or(tree.len());
    let (prefix, inner) = (&tree[..open], &tree[open + 1..close]);
    let (mut parts, mut depth, mut current) = (Vec::new(), 0, String::new());
    for c in inner.chars() {
        match c {
            '{' => depth += 1,
            '}' => depth -= 1,
            ',' if depth == 0 => {
                parts.push(std::mem::take(&mut current));
                continue;
            }
            _ => {}
        }
        current.push(c);
    }
    parts.push(current);
    parts
        .iter()
        .filter(|p| !p.trim().is_empty())
        .flat_map(|p| expand(p))
        .map(|p| format!("{prefix}{p}"))
        .collect()
}

/// Every `crate::`/`super::`/`self::` path of a module's text, made absolute.
fn references(text: &str, me: &Module) -> Vec<Module> {
    let mut paths = Vec::new();
    let mut rest = text;
    while let Some(i) = rest.find("use ") {
        let boundary = i == 0 || !rest[..i].ends_with(|c: char| c.is_alphanumeric() || c == '_');
        let after = &rest[i + 4..];
        let Some(end) = after.find(';') else { break };
        if boundary {
            paths.extend(expand(&after[..end]));
        }
        rest = &after[if boundary { end } else { 0 }..];
    }
    // Inline paths: `crate::a::b` or `super::x` anywhere.
    let bytes: Vec<char> = text.chars().collect();
    let word = |c: char| c.is_alphanumeric() || c == '_' || c == ':';
    let mut i = 0;
    while i < bytes.len() {
        if word(bytes[i]) && (i == 0 || !word(bytes[i - 1])) {
            let mut j = i;
            while j < bytes.len() && word(bytes[j]) {
                j += 1;
            }
            let token: String = bytes[i..j].iter().collect();
            if token.starts_with("crate::") || token.starts_with("super::") {
                paths.push(token);
            }
            i = j;
        } else {
            i += 1;
        }
    }
    paths
        .iter()
        .filter_map(|p| {
            let p = p.split(" as ").next().unwrap_or(p);
            let segs: Vec<&str> = p.split("::").map(str::trim).filter(|s| !s.is_empty()).collect();
            let (mut base, mut k): (Module, usize) = match segs.first() {
                Some(&"crate") => (Vec::new(), 1),
                Some(&"self") => (me.clone(), 1),
                Some(&"super") => (me.clone(), 0),
                _ => return None,
            };
            while segs.get(k) == Some(&"super") {
                base.pop();
                k += 1;
            }
            base.extend(segs[k..].iter().filter(|s| **s != "self" && **s != "*").map(|s| s.to_string()));
            Some(base)
        })
        .collect()
}

/// The module graph: each module to the modules it names (not its ancestors or descendants).
fn graph(mods: &BTreeMap<Module, String>) -> BTreeMap<Module, BTreeSet<Module>> {
    let mut edges: BTreeMap<Module, BTreeSet<Module>> = BTreeMap::new();
    for (me, text) in mods {
        let out = edges.entry(me.clone()).or_default();
        for path in references(text, me) {
            let Some(target) =
                (0..=path.len()).rev().map(|k| path[..k].to_vec()).find(|m| mods.contains_key(m))
            else {
                continue;
            };
            if target.starts_with(me) || me.starts_with(&target) {
                continue;
            }
            out.insert(target);
        }
    }
    edges
}

/// The strongly connected sets of two or more modules (Tarjan).
fn cycles(edges: &BTreeMap<Module, BTreeSet<Module>>) -> Vec<Vec<Module>> {
    struct Tarjan<'a> {
        edges: &'a BTreeMap<Module, BTreeSet<Module>>,
        index: BTreeMap<&'a Module, usize>,
        low: BTreeMap<&'a Module, usize>,
        stack: Vec<&'a Module>,
        on: BTreeSet<&'a Module>,
        out: Vec<Vec<Module>>,
    }
    impl<'a> Tarjan<'a> {
        fn visit(&mut self, v: &'a Module) {
            let n = self.index.len();
            self.index.insert(v, n);
            self.low.insert(v, n);
            self.stack.push(v);
            self.on.insert(v);
            for w in &self.edges[v] {
                if !self.index.contains_key(w) {
                    self.visit(w);
                    let lw = self.low[w];
                    let lv = self.low.get_mut(v).expect("visited");
                    *lv = (*lv).min(lw);
                } else if self.on.contains(w) {
                    let iw = self.index[w];
                    let lv = self.low.get_mut(v).expect("visited");
                    *lv = (*lv).min(iw);
                }
            }
            if self.low[v] == self.index[v] {
                let mut set = Vec::new();
                while let Some(w) = self.stack.pop() {
                    self.on.remove(w);
                    set.push(w.clone());
                    if w == v {
                        break;
                    }
                }
                if set.len() > 1 {
                    set.sort();
                    self.out.push(set);
                }
            }
        }
    }
    let mut t = Tarjan {
        edges,
        index: BTreeMap::new(),
        low: BTreeMap::new(),
        stack: Vec::new(),
        on: BTreeSet::new(),
        out: Vec::new(),
    };
    for v in edges.keys() {
        if !t.index.contains_key(v) {
            t.visit(v);
        }
    }
    t.out
}

#[test]
fn no_crate_has_a_module_cycle_but_the_engine_s_combat_loop() {
    let mut found = Vec::new();
    for entry in std::fs::read_dir(root().join("crates")).expect("crates/ is readable").flatten() {
        let src = entry.path().join("src");
        if !src.is_dir() {
            continue;
        }
        let krate = format!("crates/{}", entry.file_name().to_string_lossy());
        for set in cycles(&graph(&modules(&src))) {
            let allowed = ALLOWED.iter().any(|(k, prefix)| {
                *k == krate && set.iter().all(|m| m.first().is_some_and(|first| first == prefix))
            });
            if !allowed {
                found.push(format!(
                    "{krate}: {}",
                    set.iter().map(|m| m.join("::")).collect::<Vec<_>>().join(" ↔ ")
                ));
            }
        }
    }
    assert!(found.is_empty(), "module cycles:\n{}", found.join("\n"));
}

#[test]
fn the_cycle_finder_sees_use_trees_super_paths_and_inline_paths() {
    let m = |s: &str| -> Module { s.split("::").filter(|p| !p.is_empty()).map(String::from).collect() };
    let mods: BTreeMap<Module, String> = [
        (m("a"), strip("use crate::b::{self, X};\n// crate::c is a comment\n")),
        (m("b"), strip("fn f() { super::c::g(); let s = \"crate::a\"; }")),
        (m("c"), strip("pub use crate::{d::Y, a::Z as W};")),
        (m("d"), strip("use super::a::inner::T;")),
        (m("a::inner"), strip("use super::super::b::X;")),
    ]
    .into_iter()
    .collect();
    let g = graph(&mods);
    assert_eq!(g[&m("a")], [m("b")].into_iter().collect(), "comments do not count");
    assert_eq!(g[&m("b")], [m("c")].into_iter().collect(), "strings do not count");
    assert_eq!(g[&m("c")], [m("a"), m("d")].into_iter().collect());
    assert_eq!(g[&m("d")], [m("a::inner")].into_iter().collect());
    assert_eq!(g[&m("a::inner")], [m("b")].into_iter().collect(), "a child's path to its parent's sibling");
    // a → b → c → a is a cycle; d → a::inner → b joins it (a::inner is inside a but reaches b).
    let found = cycles(&g);
    assert_eq!(found.len(), 1, "{found:?}");
    assert!(found[0].contains(&m("a")) && found[0].contains(&m("c")) && found[0].contains(&m("d")));
}
