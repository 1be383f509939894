//! No import cycles between the modules of a crate, and the floors of the
//! engine's combat core.
//!
//! For every crate of the workspace, each `.rs` file under `src/` is a
//! module, and module A depends on B when A names B (or an item of B)
//! through a `crate::`, `super::` or `self::` path, in a `use` declaration
//! or inline. A name a parent module re-exports from a child (`pub use
//! child::Item;`) counts as the child's, so a re-export cannot hide a
//! dependency. Edges between a module and its own ancestors or descendants
//! do not count (a parent declares its children; a child may use what its
//! parent defines), and items under `#[cfg(test)]` do not count (test code
//! may reach anywhere). A strongly connected set of two or more modules is
//! a cycle, and the test fails on any.
//!
//! The combat core (`crates/engine/src/combat`) has three floors
//! (ARCHITECTURE.md, "The combat core"): the data floor ([`DATA_FLOOR`])
//! names no rule or decision module; the decision floor (`combat::policy`
//! and below) names no rule module; every other module of `combat` is a
//! rule module and may name any floor.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

type Module = Vec<String>;

/// The data floor of the combat core: actions, events and their sink, the
/// decision traits, the numbers of a roll, the prepared encounter and the
/// battle state (with the read-only queries on it), and the test
/// formatter of events. A new module of `combat` is a rule module unless
/// listed here or under `combat::policy`.
const DATA_FLOOR: &[&str] = &[
    "combat::abilities",
    "combat::action",
    "combat::carry",
    "combat::damage",
    "combat::decide",
    "combat::economy",
    "combat::event",
    "combat::event_kinds",
    "combat::event_text",
    "combat::flat_footed",
    "combat::items",
    "combat::log",
    "combat::odds",
    "combat::paths",
    "combat::prepared",
    "combat::prepared::fighter",
    "combat::prepared::flight",
    "combat::prepared::monster",
    "combat::prepared::reload",
    "combat::sneak",
    "combat::spells",
    "combat::spells::book",
    "combat::spells::casting",
    "combat::spells::immune",
    "combat::spells::playable",
    "combat::spells::reserve",
    "combat::state",
    "combat::state::fighter",
    "combat::style",
];

/// The decision floor: this module and every module under it.
const DECISION_FLOOR: &str = "combat::policy";

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
            out.insert(parts, without_tests(&strip(&text)));
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

/// The text without the items under `#[cfg(test)]` (a test module, a
/// test-only import), once comments and strings are stripped.
fn without_tests(text: &str) -> String {
    const ATTR: &str = "#[cfg(test)]";
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(i) = rest.find(ATTR) {
        out.push_str(&rest[..i]);
        let after = &rest[i + ATTR.len()..];
        // The item ends at its `;` or at the brace closing its first `{`.
        let end = match (after.find(';'), after.find('{')) {
            (Some(semi), brace) if brace.is_none_or(|b| semi < b) => semi + 1,
            (_, Some(open)) => {
                let mut depth = 0usize;
                let mut end = after.len();
                for (k, c) in after[open..].char_indices() {
                    match c {
                        '{' => depth += 1,
                        '}' => {
                            depth -= 1;
                            if depth == 0 {
                                end = open + k + 1;
                                break;
                            }
                        }
                        _ => {}
                    }
                }
                end
            }
            _ => after.len(),
        };
        rest = &after[end..];
    }
    out.push_str(rest);
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

/// The paths of every `use` declaration of a module's text, as written.
fn use_paths(text: &str) -> Vec<String> {
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
    paths
}

/// The names module `me` re-exports from its children: `pub use
/// child::a::Item;` (or `self::child…`, or `… as Alias`) maps `Item` (or
/// `Alias`) to `child::a::Item`, relative to `me`.
fn exports(text: &str, me: &Module, mods: &BTreeMap<Module, String>) -> BTreeMap<String, Module> {
    let mut out = BTreeMap::new();
    for path in use_paths(text) {
        let mut names = path.split(" as ");
        let (path, alias) = (names.next().unwrap_or_default(), names.next().map(str::trim));
        let segs: Vec<&str> =
            path.split("::").map(str::trim).filter(|s| !s.is_empty() && *s != "self" && *s != "*").collect();
        let Some((&first, &last)) = segs.first().zip(segs.last()) else { continue };
        let mut child = me.clone();
        child.push(first.to_string());
        if segs.len() < 2 || !mods.contains_key(&child) {
            continue;
        }
        out.insert(alias.unwrap_or(last).to_string(), segs.iter().map(|s| s.to_string()).collect());
    }
    out
}

/// The module that defines the item `path` names: its longest prefix that
/// is a module, followed through that module's re-exports.
fn resolve(
    path: &[String],
    mods: &BTreeMap<Module, String>,
    exported: &BTreeMap<Module, BTreeMap<String, Module>>,
) -> Option<Module> {
    let mut path = path.to_vec();
    // A chain of re-exports is short; the bound ends a `use` that names itself.
    for _ in 0..16 {
        let target = (0..=path.len()).rev().map(|k| path[..k].to_vec()).find(|m| mods.contains_key(m))?;
        let Some(via) = path.get(target.len()).and_then(|name| exported.get(&target)?.get(name)) else {
            return Some(target);
        };
        let rest = path[target.len() + 1..].to_vec();
        path = target;
        path.extend(via.iter().cloned());
        path.extend(rest);
    }
    None
}

/// Every `crate::`/`super::`/`self::` path of a module's text, made absolute.
fn references(text: &str, me: &Module) -> Vec<Module> {
    let mut paths = use_paths(text);
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

/// The module graph: each module to the modules that define what it names
/// (not its ancestors or descendants).
fn graph(mods: &BTreeMap<Module, String>) -> BTreeMap<Module, BTreeSet<Module>> {
    let exported: BTreeMap<Module, BTreeMap<String, Module>> =
        mods.iter().map(|(me, text)| (me.clone(), exports(text, me, mods))).collect();
    let mut edges: BTreeMap<Module, BTreeSet<Module>> = BTreeMap::new();
    for (me, text) in mods {
        let out = edges.entry(me.clone()).or_default();
        for path in references(text, me) {
            let Some(target) = resolve(&path, mods, &exported) else { continue };
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

/// The module graph of the crate `crates/<name>`.
fn crate_graph(name: &str) -> BTreeMap<Module, BTreeSet<Module>> {
    graph(&modules(&root().join("crates").join(name).join("src")))
}

fn module(s: &str) -> Module {
    s.split("::").filter(|p| !p.is_empty()).map(String::from).collect()
}

/// The breaches of the combat floors in `edges`: a data module naming a
/// rule or decision module, a decision module naming a rule module.
fn floor_breaches(edges: &BTreeMap<Module, BTreeSet<Module>>, data: &[&str], decisions: &str) -> Vec<String> {
    let (combat, tests) = (module("combat"), module("combat::tests"));
    let data: BTreeSet<Module> = data.iter().map(|m| module(m)).collect();
    let decisions = module(decisions);
    let floor = |m: &Module| {
        if data.contains(m) {
            "data"
        } else if m.starts_with(&decisions) {
            "decision"
        } else {
            "rule"
        }
    };
    let in_combat = |m: &Module| m.starts_with(&combat) && *m != combat && !m.starts_with(&tests);
    let mut out = Vec::new();
    for (from, targets) in edges.iter().filter(|(m, _)| in_combat(m)) {
        for to in targets.iter().filter(|t| in_combat(t)) {
            let (f, t) = (floor(from), floor(to));
            if (f == "data" && t != "data") || (f == "decision" && t == "rule") {
                out.push(format!("{} ({f}) names {} ({t})", from.join("::"), to.join("::")));
            }
        }
    }
    out
}

#[test]
fn no_crate_has_a_module_cycle() {
    let mut found = Vec::new();
    for entry in std::fs::read_dir(root().join("crates")).expect("crates/ is readable").flatten() {
        if !entry.path().join("src").is_dir() {
            continue;
        }
        let name = entry.file_name().to_string_lossy().into_owned();
        for set in cycles(&crate_graph(&name)) {
            found.push(format!(
                "crates/{name}: {}",
                set.iter().map(|m| m.join("::")).collect::<Vec<_>>().join(" ↔ ")
            ));
        }
    }
    assert!(found.is_empty(), "module cycles:\n{}", found.join("\n"));
}

#[test]
fn the_combat_data_floor_names_no_rule_and_the_decisions_name_no_rule() {
    let edges = crate_graph("engine");
    let missing: Vec<&str> = DATA_FLOOR
        .iter()
        .chain([&DECISION_FLOOR])
        .copied()
        .filter(|m| !edges.contains_key(&module(m)))
        .collect();
    assert!(missing.is_empty(), "listed on a floor but not a module of the engine: {missing:?}");
    let breaches = floor_breaches(&edges, DATA_FLOOR, DECISION_FLOOR);
    assert!(breaches.is_empty(), "combat floors breached:\n{}", breaches.join("\n"));
}

#[test]
fn the_floor_check_sees_data_naming_a_rule_and_a_decision_naming_a_rule() {
    let mods: BTreeMap<Module, String> = [
        (module("combat"), String::new()),
        (module("combat::state"), strip("use super::event::Event;")),
        (module("combat::event"), strip("fn f() { super::attack::roll(); }")),
        (module("combat::attack"), strip("use super::state::State; use super::policy::Policy;")),
        (module("combat::policy"), strip("use super::state::State;")),
        (module("combat::policy::magic"), strip("use crate::combat::attack::Swing;")),
    ]
    .into_iter()
    .collect();
    let breaches = floor_breaches(&graph(&mods), &["combat::state", "combat::event"], "combat::policy");
    assert_eq!(
        breaches,
        [
            "combat::event (data) names combat::attack (rule)",
            "combat::policy::magic (decision) names combat::attack (rule)",
        ],
        "a rule may name every floor, data may name data, a decision data and decisions"
    );
}

#[test]
fn a_re_export_counts_as_the_child_that_defines_it_and_test_code_does_not_count() {
    let mods: BTreeMap<Module, String> = [
        (module("a"), without_tests(&strip("mod inner;\npub(crate) use inner::{X, y as z};"))),
        (module("a::inner"), without_tests(&strip("use crate::b::B;"))),
        (
            module("b"),
            without_tests(&strip("use crate::a::z;\n#[cfg(test)]\nmod tests { use crate::c::C; }")),
        ),
        (module("c"), without_tests(&strip("#[cfg(test)]\nuse crate::b::B;\nfn f() {}"))),
    ]
    .into_iter()
    .collect();
    let g = graph(&mods);
    assert_eq!(g[&module("b")], [module("a::inner")].into_iter().collect(), "a::z is a::inner::y");
    assert!(g[&module("c")].is_empty(), "a test-only import does not count");
    assert_eq!(cycles(&g), [vec![module("a::inner"), module("b")]], "the re-export hid this cycle");
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
